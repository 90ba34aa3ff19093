//! `fabricc export`: the YAML form reads back as the same fabric (export → YAML → check →
//! export gives the same JSON), and errors in a YAML file point into the YAML.

use std::path::Path;

use fabricc::diagnostic::Code;
use fabricc::model::{Limits, export, load};
use fabricc::pipeline;
use fabricc::source::Sources;

fn export_json(path: &Path) -> (String, String) {
    let mut sources = Sources::new();
    let checked = pipeline::check(&mut sources, path, &Limits::default()).expect("readable");
    let fabric = checked.fabric.expect("resolves");
    let doc = export::export(&fabric);
    (
        serde_json::to_string_pretty(&doc).expect("json"),
        serde_yaml::to_string(&doc).expect("yaml"),
    )
}

#[test]
fn every_fixture_round_trips_through_yaml() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fabrics");
    for name in [
        "pod-256.fab",
        "cluster-2048.fab",
        "explicit-leaf-spine.fab",
        "split/pod.fab",
        "../build/inputs/sonic-sn5600-2x2.fab",
        // NIC identity: `pci` and `netdev` lists.
        "../check/FAB920_no_nic_identity.fab",
        // Queue plan (`queue`, `rate`) and per-speed ECN.
        "../build/inputs/amd-mi300x-jvd-junos.fab",
        // ECN on a link.
        "../check/FAB304_link_ecn_above_pause.fab",
        // ECN as fill levels (issue 34): class, link and per-model bases.
        "../build/inputs/ecn-fill-levels.fab",
        // Two-port NICs in two planes (issue 18): `ports 2 x 400G`, `h.nic1.port2` ends.
        "../build/inputs/twin-plane-2x2.fab",
        // `load-balance` (issue 20 item 4).
        "../build/inputs/lb-every-target.fab",
        // NIC roles (issue 18 item 4): a frontend NIC, a linked storage NIC.
        "../build/inputs/nic-roles-2x2.fab",
        // A modular chassis (issue 18 item 3): `linecard` runs in slots 5 and 10.
        "../build/inputs/eos-7808r3.fab",
        // Dual-ToR with `bond lacp` and a `spare` host (issue 18).
        "../check/FAB127_bond_lacp_no_mlag.fab",
    ] {
        let (json, yaml) = export_json(&root.join(name));
        let mut sources = Sources::new();
        let loaded = load::load_text(&mut sources, "exported.yaml", yaml, &Limits::default());
        let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
        let fabric = checked.fabric.unwrap_or_else(|| {
            panic!(
                "{name}: YAML form does not resolve: {:?}",
                checked.diagnostics
            )
        });
        let again = serde_json::to_string_pretty(&export::export(&fabric)).expect("json");
        assert_eq!(
            json, again,
            "{name}: export → YAML → export changed the fabric"
        );
    }
}

#[test]
fn yaml_type_errors_point_into_the_yaml() {
    let text = "version: 1\nfabric: x\nmtu: lots\n".to_string();
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, "bad.yaml", text, &Limits::default());
    let d = &loaded.diagnostics[0];
    assert_eq!(d.code, Code::YamlInput);
    let (start, _) = sources.span_lines(d.primary.span);
    assert_eq!(start.line, 3, "points at the `mtu` line: {d:?}");
}

#[test]
fn yaml_name_errors_point_at_the_item() {
    let (_, yaml) = export_json(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fabrics/explicit-leaf-spine.fab"),
    );
    // Break the 9th link's far end: it names a switch that does not exist.
    let broken = yaml.replacen("b: S1.port1", "b: S9.port1", 1);
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, "lab.yaml", broken.clone(), &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code == Code::Undefined)
        .expect("an undefined-name finding");
    let (start, _) = sources.span_lines(d.primary.span);
    let line = broken.lines().nth(start.line - 1).unwrap_or("");
    assert!(
        line.contains("S9.port1"),
        "span should sit on the broken link, got line {}: {line:?}",
        start.line
    );
}

/// A NIC's PCI address in the YAML form is held to the grammar's rule (FAB006) and kept in
/// its canonical spelling.
#[test]
fn yaml_pci_addresses_are_checked_and_canonical() {
    let fab =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/FAB920_no_nic_identity.fab");
    let (json, yaml) = export_json(&fab);
    assert!(json.contains("\"pci\": \"0000:18:00.0\""), "{json}");
    let bad = yaml.replacen("pci: 0000:18:00.0", "pci: 0000:18:00.9", 1);
    assert_ne!(bad, yaml);
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, "bad.yaml", bad, &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code == Code::BadPattern)
        .expect("FAB006");
    assert!(
        d.message.contains("`0000:18:00.9` is not a PCI address"),
        "{}",
        d.message
    );
}

/// NIC roles in the YAML form (issue 18 item 4): `role: frontend` on the NIC, absent for a
/// backend NIC; an unknown role is FAB012 at its line.
#[test]
fn yaml_nic_roles_are_exported_and_checked() {
    let fab = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/build/inputs/nic-roles-2x2.fab");
    let (json, yaml) = export_json(&fab);
    assert!(json.contains("\"role\": \"frontend\""), "{json}");
    assert!(json.contains("\"role\": \"storage\""), "{json}");
    assert!(!json.contains("\"role\": \"backend\""), "{json}");
    let bad = yaml.replacen("role: frontend", "role: mgmt", 1);
    assert_ne!(bad, yaml);
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, "bad.yaml", bad.clone(), &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code == Code::YamlInput)
        .expect("FAB012");
    assert!(
        d.message.contains("unknown NIC role `mgmt`"),
        "{}",
        d.message
    );
    let (start, _) = sources.span_lines(d.primary.span);
    let line = bad.lines().nth(start.line - 1).unwrap_or("");
    assert!(line.contains("role: mgmt"), "points at {line:?}");
}

/// `fabricc check --format json --facts` of a file, without the places (a `.fab` and its
/// YAML form point into different files).
fn check_json(path: &Path) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for k in ["file", "line", "column", "end_line", "end_column"] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let out = crate::support::Fabricc::new()
        .args(["check", "--format", "json", "--facts"])
        .arg(path)
        .run();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    strip(&mut v);
    v
}

/// Findings as (code, message), sorted. FAB920 is left out: it is grouped per host
/// statement, and the YAML form writes one statement per host, so the same hosts are one
/// finding from the `.fab` and one per host from the YAML.
fn findings(v: &serde_json::Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["code"].to_string(), f["message"].to_string()))
        .filter(|(c, _)| c != "\"FAB920\"")
        .collect();
    out.sort();
    out
}

#[test]
fn planes_survive_the_yaml_form() {
    // Issue 18: each NIC port's plane is in the YAML form, so the per-plane analyses (FAB701
    // reachability, the facts) judge the YAML as they judge the `.fab`.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-planes");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    for name in [
        "fabrics/designs/spectrum-x-twin-plane-b300.fab",
        "build/inputs/twin-plane-2x2.fab",
    ] {
        let fab = root.join(name);
        let (_, yaml) = export_json(&fab);
        assert!(
            yaml.contains("plane: 2"),
            "{name}: no plane in the YAML form"
        );
        let file = dir.join(format!("{}.yaml", name.replace('/', "-")));
        std::fs::write(&file, &yaml).expect("write yaml");
        let (a, b) = (check_json(&fab), check_json(&file));
        assert_eq!(
            a["facts"], b["facts"],
            "{name}: facts differ in the YAML form"
        );
        assert_eq!(
            findings(&a),
            findings(&b),
            "{name}: findings differ in the YAML form"
        );
    }
    // One-plane fabrics write no `plane` (existing YAML files and goldens stay as they were).
    let (_, yaml) = export_json(&root.join("fabrics/pod-256.fab"));
    assert!(
        !yaml.contains("plane:"),
        "plane written for a one-plane fabric"
    );
}

#[test]
fn yaml_planes_need_one_per_port() {
    let fab =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/build/inputs/twin-plane-2x2.fab");
    let (_, yaml) = export_json(&fab);
    // A third port listed on a two-port NIC: the host resolves to two cards (four ports) but
    // the YAML gives three planes.
    let dgx2 = "    plane: 2\n- name: dgx2";
    let bad = yaml.replacen(dgx2, "    plane: 2\n  - model: cx8\n- name: dgx2", 1);
    assert_ne!(bad, yaml);
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, "bad.yaml", bad, &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    assert!(
        checked
            .diagnostics
            .iter()
            .any(|d| d.code == Code::MissingProperty
                && d.message.contains("has 4 NIC ports but 3 `plane` values")),
        "{:?}",
        checked.diagnostics
    );
}

#[test]
fn yaml_without_planes_judges_planes_as_one_fabric() {
    // Why the field matters: without it the two planes' ports are expected to reach each
    // other, and FAB701 reports the pairs the design never meant to connect.
    let fab =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/build/inputs/twin-plane-2x2.fab");
    let (_, yaml) = export_json(&fab);
    let flat: String = yaml
        .lines()
        .filter(|l| !l.trim_start().starts_with("plane:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, "flat.yaml", flat, &Limits::default());
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    assert!(
        checked
            .diagnostics
            .iter()
            .any(|d| d.code == Code::Unreachable
                && d.message
                    .contains("`dgx1.nic1.port1` cannot reach `dgx2.nic1.port2`")),
        "{:?}",
        checked.diagnostics
    );
}

/// Issue 18: the YAML form printed as `.fab` (`syntax::print` of the YAML's tree) says each
/// port's plane (`plane 1, 2` on the host), the host bond and the spare marker, so that
/// `.fab` checks as the same fabric: export → YAML → `.fab` → export gives the same JSON.
#[test]
fn yaml_printed_as_fab_keeps_planes_bonds_and_spares() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-fab-round-trip");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    for (name, words) in [
        ("build/inputs/twin-plane-2x2.fab", &["plane 1, 2"][..]),
        (
            "check/FAB127_bond_lacp_no_mlag.fab",
            &["bond lacp", "spare"][..],
        ),
    ] {
        let (json, yaml) = export_json(&root.join(name));
        let tree = fabricc::syntax::yaml::parse_yaml(fabricc::span::FileId(0), &yaml)
            .unwrap_or_else(|d| panic!("{name}: YAML does not read back: {}", d.message));
        let fab = crate::printer::print(&tree);
        for w in words {
            assert!(
                fab.contains(w),
                "{name}: `{w}` not in the printed .fab:\n{fab}"
            );
        }
        assert!(
            !fab.contains("# plane"),
            "{name}: planes printed as a comment"
        );
        let file = dir.join(format!("{}.fab", name.replace('/', "-")));
        std::fs::write(&file, &fab).expect("write fab");
        let (again, _) = export_json(&file);
        assert_eq!(
            json, again,
            "{name}: export → YAML → .fab → export changed the fabric"
        );
    }
}

/// R3: a negative or non-numeric percentage in the YAML form is FAB005, not a silent 0 %.
#[test]
fn yaml_percentages_below_zero_or_not_numbers_are_refused() {
    let (_, yaml) = export_json(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/build/inputs/nxos-2x2.fab"),
    );
    for (what, from, to) in [
        (
            "negative probability",
            "probability_percent: 100.0",
            "probability_percent: -50",
        ),
        (
            "NaN probability",
            "probability_percent: 100.0",
            "probability_percent: .nan",
        ),
        (
            "negative bandwidth",
            "bandwidth_percent: 50.0",
            "bandwidth_percent: -10",
        ),
    ] {
        assert!(yaml.contains(from), "{what}: the export has `{from}`");
        let broken = yaml.replacen(from, to, 1);
        let mut sources = Sources::new();
        let loaded = load::load_text(&mut sources, "bad.yaml", broken, &Limits::default());
        let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
        let d = checked
            .diagnostics
            .iter()
            .find(|d| d.code == Code::OutOfRange)
            .unwrap_or_else(|| panic!("{what}: no FAB005 in {:?}", checked.diagnostics));
        assert!(
            d.message.contains("not a percentage"),
            "{what}: {}",
            d.message
        );
    }
}
