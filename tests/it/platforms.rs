//! `platform NAME` in models: what resolution takes from the catalogue, what an explicit
//! property overrides, how `buffer-model` is chosen, and the findings around them.

use fabricc::diagnostic::Diagnostic;
use fabricc::model::{BufferModel, Fabric, Limits, Os, PortGroup};
use fabricc::pipeline;
use fabricc::source::Sources;

/// The fabric (when it resolves) and every finding's code.
fn check(models: &str) -> (Option<Fabric>, Vec<String>) {
    let text = format!(
        "fabric t {{
  class roce {{ dscp 26  priority 3  lossless  bandwidth 50% }}
  class cnp  {{ dscp 48  priority 6  strict  cnp }}
  class bulk {{ dscp other  priority 0  bandwidth 50% }}
{models}
  switch L1 {{ model leaf  tier 1 }}
  host h1 {{ nic nic }}
  link h1 -- L1 {{ cable 2m  speed 100G }}
}}
"
    );
    let mut sources = Sources::new();
    let loaded = fabricc::model::load::load_text(&mut sources, "t.fab", text, &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    // The model's findings; what the targets' views add (FAB9xx) is another test's business.
    let codes = checked
        .diagnostics
        .iter()
        .filter(|d| !d.code.as_str().starts_with("FAB9"))
        .map(|d: &Diagnostic| d.code.to_string())
        .collect();
    (checked.fabric, codes)
}

const NIC: &str = "  nic-model nic { driver mlx5  speed 400G }";

fn g(count: u32, gbps: u64) -> PortGroup {
    PortGroup::plain(count, gbps * 1000)
}

#[test]
fn the_platform_fills_what_the_model_leaves_open() {
    let (fabric, codes) = check(&format!(
        "  switch-model leaf {{ platform nvidia-sn5600  os sonic }}\n{NIC}"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let fabric = fabric.expect("resolves");
    let m = &fabric.switch_models[0];
    assert_eq!(m.platform.map(|p| p.name.as_str()), Some("nvidia-sn5600"));
    assert_eq!(
        m.ports.value,
        vec![g(64, 800)],
        "front-panel cages, the SFP left out"
    );
    assert!(m.ports.default, "taken from the platform");
    assert_eq!(m.buffer.map(|b| b.value.get()), Some(158_229_504));
    assert_eq!(m.cell.map(|c| c.value.get()), Some(192));
    assert_eq!(m.lossless_limit, None, "not sourced for Spectrum-4");
    assert_eq!(
        m.buffer_model.map(|b| b.value),
        Some(BufferModel::Dynamic),
        "NVIDIA SONiC runs the dynamic buffer model"
    );
}

#[test]
fn explicit_properties_win_and_breakouts_fit() {
    let (fabric, codes) = check(&format!(
        "  switch-model leaf {{ platform nvidia-sn5600  os sonic  ports 128 x 400G  buffer 100MB  buffer-model traditional }}\n{NIC}"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let fabric = fabric.expect("resolves");
    let m = &fabric.switch_models[0];
    assert_eq!(m.ports.value, vec![g(128, 400)]);
    assert!(!m.ports.default);
    assert_eq!(m.buffer.map(|b| b.value.get()), Some(100_000_000));
    assert_eq!(
        m.cell.map(|c| c.value.get()),
        Some(192),
        "still the platform's"
    );
    assert_eq!(
        m.buffer_model.map(|b| b.value),
        Some(BufferModel::Traditional)
    );
}

#[test]
fn a_platform_that_runs_several_oses_needs_os() {
    let (_, codes) = check(&format!(
        "  switch-model leaf {{ platform nvidia-sn5600 }}\n{NIC}"
    ));
    assert_eq!(codes, vec!["FAB105"]);
    // One OS: taken from the platform (Junos), with the ports the model must give.
    let (fabric, codes) = check(&format!(
        "  switch-model leaf {{ platform juniper-qfx5240-64od  ports 64 x 400G }}\n{NIC}"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let fabric = fabric.expect("resolves");
    let m = &fabric.switch_models[0];
    assert_eq!(m.os.value, Os::Junos);
    assert_eq!(m.buffer.map(|b| b.value.get()), Some(165_200_000));
    assert_eq!(m.buffer_model, None, "not SONiC");
}

#[test]
fn buffer_model_order_model_fabric_platform() {
    let with_fabric = |model: &str| {
        check(&format!(
            "  buffer-model traditional\n  switch-model leaf {{ {model} }}\n{NIC}"
        ))
    };
    // The fabric's statement beats the platform's default…
    let (fabric, codes) = with_fabric("platform nvidia-sn5600  os sonic");
    assert!(codes.is_empty(), "{codes:?}");
    let m = &fabric.expect("resolves").switch_models[0];
    assert_eq!(
        m.buffer_model.map(|b| (b.value, b.default)),
        Some((BufferModel::Traditional, false))
    );
    // …and the model's own beats the fabric's.
    let (fabric, _) = with_fabric("platform nvidia-sn5600  os sonic  buffer-model dynamic");
    let m = &fabric.expect("resolves").switch_models[0];
    assert_eq!(m.buffer_model.map(|b| b.value), Some(BufferModel::Dynamic));
    // Without a platform SONiC models keep what fabricc renders: traditional, as a default.
    let (fabric, _) = check(&format!(
        "  switch-model leaf {{ os sonic  ports 64 x 400G  buffer 64MB }}\n{NIC}"
    ));
    let m = &fabric.expect("resolves").switch_models[0];
    assert_eq!(
        m.buffer_model.map(|b| (b.value, b.default)),
        Some((BufferModel::Traditional, true))
    );
    // Broadcom SONiC images default to traditional.
    let (fabric, _) = check(&format!(
        "  switch-model leaf {{ platform arista-7060x6-64pe  os sonic }}\n{NIC}"
    ));
    let m = &fabric.expect("resolves").switch_models[0];
    assert_eq!(
        m.buffer_model.map(|b| b.value),
        Some(BufferModel::Traditional)
    );
}

#[test]
fn nic_platforms_fill_driver_and_speed() {
    let (fabric, codes) = check(
        "  switch-model leaf { platform nvidia-sn5600  os sonic }\n  nic-model nic { platform nvidia-cx7 }",
    );
    assert!(codes.is_empty(), "{codes:?}");
    let fabric = fabric.expect("resolves");
    let n = &fabric.nic_models[0];
    assert_eq!(n.platform.map(|p| p.name.as_str()), Some("nvidia-cx7"));
    assert_eq!(n.driver.value, "mlx5");
    assert_eq!(n.speed.value.get(), 400_000);
    assert_eq!(n.buffer, None, "not sourced");
    let (_, codes) = check(
        "  switch-model leaf { platform nvidia-sn5600  os sonic }\n  nic-model nic { platform nvidia-cx7  driver bnxt }",
    );
    // FAB313 too: a bnxt NIC sends CNPs on priority 7, the fabric's CNP class is elsewhere.
    let mut codes = codes;
    codes.retain(|c| c != "FAB313");
    assert_eq!(codes, vec!["FAB110"]);
}

#[test]
fn findings_of_platforms() {
    for (models, want) in [
        (
            "  switch-model leaf { platform nvidia-sn560  os sonic }",
            vec!["FAB108"],
        ),
        (
            "  switch-model leaf { platform nvidia-cx7  os sonic }",
            vec!["FAB108"],
        ),
        (
            "  switch-model leaf { platform nvidia-sn5600  os junos }",
            vec!["FAB109"],
        ),
        (
            "  switch-model leaf { platform nvidia-sn5600  os sonic  ports 65 x 800G }",
            vec!["FAB110"],
        ),
        (
            "  switch-model leaf { platform nvidia-sn5600  os sonic  lossless-limit 2  cell 192B  buffer 150MB }",
            vec![],
        ),
        (
            "  switch-model leaf { os sonic  ports 64 x 400G }",
            vec!["FAB111"],
        ),
        (
            "  switch-model leaf { platform cisco-n9364d-gx2a  ports 64 x 400G }",
            vec!["FAB111"],
        ),
        (
            "  switch-model leaf { os eos  ports 64 x 400G  buffer 64MB  buffer-model dynamic }",
            vec!["FAB112"],
        ),
    ] {
        let (_, codes) = check(&format!("{models}\n{NIC}"));
        assert_eq!(codes, want, "{models}");
    }
}

#[test]
fn exported_yaml_keeps_the_platform() {
    let (fabric, _) = check(&format!(
        "  switch-model leaf {{ platform nvidia-sn5600  os sonic }}\n{NIC}"
    ));
    let doc = fabricc::model::export::export(&fabric.expect("resolves"));
    assert_eq!(
        doc.switch_models[0].platform.as_deref(),
        Some("nvidia-sn5600")
    );
    // The platform's default buffer model is not repeated as if the model had set it.
    assert_eq!(doc.switch_models[0].buffer_model, None);
    let yaml = serde_yaml::to_string(&doc).expect("yaml");
    let mut sources = Sources::new();
    let loaded = fabricc::model::load::load_text(&mut sources, "t.yaml", yaml, &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    assert!(
        checked
            .diagnostics
            .iter()
            .all(|d| d.code.as_str().starts_with("FAB9")),
        "{:?}",
        checked.diagnostics
    );
    let again = checked.fabric.expect("resolves");
    let m = &again.switch_models[0];
    assert_eq!(m.platform.map(|p| p.name.as_str()), Some("nvidia-sn5600"));
    assert_eq!(m.buffer_model.map(|b| b.value), Some(BufferModel::Dynamic));
}

#[test]
fn eos_takes_a_release_and_the_other_cli_targets_none() {
    let (f, codes) = check(&format!(
        "  switch-model leaf {{ platform arista-7280r4-32qf-32df  os eos 4.32 }}\n{NIC}"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let m = &f.expect("resolves").switch_models[0];
    assert_eq!(
        m.release.map(|r| r.value.to_string()).as_deref(),
        Some("4.32")
    );
    let (_, codes) = check(&format!(
        "  switch-model leaf {{ os eos 4.36  ports 8 x 400G  buffer 64MB }}\n{NIC}"
    ));
    assert!(codes.contains(&"FAB005".to_string()), "{codes:?}");
    let (_, codes) = check(&format!(
        "  switch-model leaf {{ os nxos 10.4  ports 8 x 400G  buffer 64MB }}\n{NIC}"
    ));
    assert!(codes.contains(&"FAB106".to_string()), "{codes:?}");
}

#[test]
fn ports_of_a_platform_take_its_names_with_breakouts() {
    // 128 x 400G on the SN5600's 64 cages of 800G: two ports a cage (C12).
    let (f, _) = check(&format!(
        "  switch-model leaf {{ platform nvidia-sn5600  os cumulus  ports 128 x 400G }}\n{NIC}"
    ));
    let f = f.expect("resolves");
    let names: Vec<String> = (0..4)
        .map(|i| fabricc::lower::vendor_port_name(&f, fabricc::model::SwitchId(0), i))
        .collect();
    assert_eq!(names, ["swp1s0", "swp1s1", "swp2s0", "swp2s1"]);
}
