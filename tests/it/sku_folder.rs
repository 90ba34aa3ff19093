//! Bring your own SONiC SKU (issue 38 item 1, G5): `switch-model … { sku "PATH" }` names a SKU
//! folder beside the `.fab`, whose `port_config.ini` breaks each cage out its own way and whose
//! buffer tables size the lossless profiles. The two layouts SONiC's own SKUs could not run
//! build: Alibaba HPN's ToR (4 x 200G host cages beside 2 x 400G uplink cages) and a
//! Tomahawk 5 leaf with 64 x 400G down and 32 x 800G up.

use std::path::Path;

use fabricc::diagnostic::Severity;
use fabricc::lower::context::SwitchContext;
use fabricc::model::{Limits, export, load};
use fabricc::pipeline::{self, Checked};
use fabricc::source::Sources;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn errors(c: &Checked) -> Vec<String> {
    c.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

fn checked(rel: &str) -> Checked {
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &root().join(rel), &Limits::default()).expect("readable");
    assert!(errors(&c).is_empty(), "{rel}: {:?}", errors(&c));
    c
}

/// `text` as if it were the file `rel` (its `sku` paths resolve from that file's folder).
fn checked_text(rel: &str, text: &str) -> Checked {
    let mut sources = Sources::new();
    let limits = Limits::default();
    let display = root().join(rel).to_string_lossy().into_owned();
    let loaded = load::load_text(&mut sources, &display, text.to_string(), &limits);
    pipeline::check_loaded(&sources, loaded, &limits)
}

fn switch<'c>(c: &'c Checked, name: &str) -> &'c SwitchContext {
    c.lowered
        .as_ref()
        .expect("lowered")
        .switches
        .iter()
        .find(|s| s.device == name)
        .unwrap_or_else(|| panic!("{name} lowered"))
}

#[test]
fn the_hpn_tor_runs_its_own_sku_on_sonic() {
    let c = checked("fixtures/fabrics/designs/alibaba-hpn7-pod-sonic.fab");
    let tor = switch(&c, "p1-seg01-tor1");
    let plan = tor.sonic.as_ref().expect("a SONiC plan");
    assert_eq!(plan.hwsku, "Arista-7060X6-64PE-HPN-ToR");
    assert_eq!(plan.platform, "x86_64-arista_7060x6_64pe");
    // 128 x 200G host ports on cages 1-32 (2 lanes each), 60 x 400G uplinks on 33-62.
    assert_eq!(tor.ports.len(), 188);
    for (k, p) in tor.ports.iter().enumerate() {
        if k < 128 {
            assert_eq!(p.name, format!("Ethernet{}", 2 * k), "{k}");
            assert_eq!((p.speed_mbps, p.lanes.len()), (200_000, 2), "{}", p.name);
        } else {
            assert_eq!(p.name, format!("Ethernet{}", 256 + 4 * (k - 128)), "{k}");
            assert_eq!((p.speed_mbps, p.lanes.len()), (400_000, 4), "{}", p.name);
        }
    }
    // The lanes are the SKU file's (Arista-7060X6-64PE-256x200G and -P32O64 rows).
    assert_eq!(tor.ports[0].lanes, vec![17, 18]);
    assert_eq!(tor.ports[128].lanes, vec![273, 274, 275, 276]);
    // BREAKOUT_CFG: every cage the ports use, in its own mode (the folder's hwsku.json).
    assert_eq!(plan.breakouts.len(), 62);
    assert_eq!(plan.breakouts[0], ("Ethernet0".into(), "4x200G".into()));
    assert_eq!(plan.breakouts[32], ("Ethernet256".into(), "2x400G".into()));
    // Each port's lossless PG from the folder's lookup rows at its speed and cable.
    let profile = |k: usize| {
        plan.ports[k]
            .lossless_profile
            .as_ref()
            .map(|p| p.name.clone())
            .unwrap_or_default()
    };
    assert_eq!(profile(0), "pg_lossless_200000_5m_profile");
    assert_eq!(profile(128), "pg_lossless_400000_40m_profile");
    // The pools of the folder's buffers_defaults_t1.j2 (256x200G's BALANCED layout).
    let ingress = plan
        .pools
        .iter()
        .find(|p| p.name == "ingress_lossless_pool")
        .expect("pool");
    assert_eq!(ingress.size, Some(121_964_196));
    // The aggregation switches keep the platform's own 2 x 400G SKU.
    let agg = switch(&c, "p1-agg01");
    assert_eq!(
        agg.sonic.as_ref().map(|p| p.hwsku.as_str()),
        Some("Arista-7060X6-64PE-O128S2")
    );
}

#[test]
fn a_th5_leaf_with_64_x_400g_down_and_32_x_800g_up_builds() {
    let c = checked("fixtures/build/inputs/sonic-th5-leaf-sku.fab");
    let leaf = switch(&c, "leaf1");
    let plan = leaf.sonic.as_ref().expect("a SONiC plan");
    assert_eq!(plan.hwsku, "Dell-Z9864f-P32O64");
    let model = &c.fabric.as_ref().expect("fabric").switch_models[0];
    assert_eq!(model.port_count(), 96);
    let names: Vec<(&str, u32, usize)> = leaf
        .ports
        .iter()
        .map(|p| (p.name.as_str(), p.speed_mbps, p.lanes.len()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("Ethernet0", 400_000, 4),
            ("Ethernet4", 400_000, 4),
            ("Ethernet256", 800_000, 8),
            ("Ethernet264", 800_000, 8),
        ]
    );
    assert_eq!(
        plan.breakouts,
        vec![
            ("Ethernet0".to_string(), "2x400G(8)".to_string()),
            ("Ethernet256".to_string(), "1x800G".to_string()),
            ("Ethernet264".to_string(), "1x800G".to_string()),
        ]
    );
}

const HPN_MODEL: &str = "fabric t {
  class roce { dscp 26  priority 3  lossless  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
  switch-model tor {
    platform arista-7060x6-64pe  os sonic
    sku \"skus/Arista-7060X6-64PE-HPN-ToR\"
    PORTS
  }
  switch L1 { model tor }
}
";

#[test]
fn ports_the_folder_does_not_run_are_fab956_naming_the_cage() {
    let fab = "fixtures/fabrics/designs/sku-test.fab";
    // 400G ports on cage 1, which the SKU runs as 4 x 200G.
    let c = checked_text(
        fab,
        &HPN_MODEL.replace("PORTS", "ports 64 x 800G breakout 2 x 400G"),
    );
    let f = c
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "FAB956")
        .unwrap_or_else(|| panic!("FAB956: {:?}", errors(&c)));
    assert!(
        f.message.contains("`Ethernet0`")
            && f.message.contains("cage 1 that the SKU runs as 4 x 200G"),
        "{}",
        f.message
    );
    // A 33rd cage of 4 x 200G, which the SKU runs as 2 x 400G.
    let c = checked_text(
        fab,
        &HPN_MODEL.replace("PORTS", "ports 33 x 800G breakout 4 x 200G"),
    );
    assert!(
        c.diagnostics.iter().any(|d| d.code.as_str() == "FAB956"
            && d.message
                .contains("is `Ethernet256` of SKU `Arista-7060X6-64PE-HPN-ToR`, on cage 33")),
        "{:?}",
        errors(&c)
    );
    // More ports than rows.
    let c = checked_text(
        fab,
        &HPN_MODEL.replace("PORTS", "ports 64 x 800G breakout 4 x 200G"),
    );
    assert!(
        c.diagnostics.iter().any(|d| d.code.as_str() == "FAB956"
            && d.message
                .contains("256 ports; SKU `Arista-7060X6-64PE-HPN-ToR` has 192")),
        "{:?}",
        errors(&c)
    );
    // The layout the SKU runs checks clean.
    let c = checked_text(
        fab,
        &HPN_MODEL.replace(
            "PORTS",
            "ports 32 x 800G breakout 4 x 200G, 32 x 800G breakout 2 x 400G",
        ),
    );
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
}

#[test]
fn a_sku_is_written_in_quotes_and_refused_elsewhere() {
    use fabricc::span::FileId;
    let bad = HPN_MODEL
        .replace("PORTS", "ports 64 x 800G")
        .replace("sku \"skus/Arista-7060X6-64PE-HPN-ToR\"", "sku skus/x");
    let e = fabricc::syntax::parse(FileId(0), &bad).expect_err("unquoted");
    assert_eq!(e.code.as_str(), "FAB001");
    assert!(
        e.message.contains("SONiC SKU folder in quotes"),
        "{}",
        e.message
    );
    // Twice in one model.
    let twice = HPN_MODEL.replace(
        "PORTS",
        "ports 32 x 800G breakout 4 x 200G\n    sku \"skus/Arista-7060X6-64PE-HPN-ToR\"",
    );
    let c = checked_text("fixtures/fabrics/designs/sku-test.fab", &twice);
    assert!(
        c.diagnostics.iter().any(|d| d.message.contains("`sku`")),
        "{:?}",
        errors(&c)
    );
}

#[test]
fn the_yaml_form_keeps_the_folder() {
    let fab = root().join("fixtures/build/inputs/sonic-th5-leaf-sku.fab");
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &fab, &Limits::default()).expect("readable");
    let doc = export::export(c.fabric.as_ref().expect("fabric"));
    let yaml = serde_yaml::to_string(&doc).expect("yaml");
    assert!(yaml.contains("sku: skus/Dell-Z9864f-P32O64"), "{yaml}");
    // Read back beside the .fab, the YAML names the same folder.
    let mut sources = Sources::new();
    let limits = Limits::default();
    let display = root()
        .join("fixtures/build/inputs/exported.yaml")
        .to_string_lossy()
        .into_owned();
    let loaded = load::load_text(&mut sources, &display, yaml, &limits);
    let again = pipeline::check_loaded(&sources, loaded, &limits);
    assert!(errors(&again).is_empty(), "{:?}", errors(&again));
    assert_eq!(
        switch(&again, "leaf1")
            .sonic
            .as_ref()
            .map(|p| p.hwsku.as_str()),
        Some("Dell-Z9864f-P32O64")
    );
}

#[test]
fn a_folder_with_hwsku_json_alone_gives_the_same_ports() {
    // fixtures/check/skus/good has the rows, skus/json-only only `hwsku.json` (cage 1 4x200G,
    // cage 2 2x400G): SONiC makes the rows from the platform's lanes, and so does fabricc.
    let ports = |folder: &str| {
        let text = HPN_MODEL
            .replace("skus/Arista-7060X6-64PE-HPN-ToR", folder)
            .replace(
                "PORTS",
                "ports 1 x 800G breakout 4 x 200G, 1 x 800G breakout 2 x 400G",
            )
            .replace(
                "switch L1 { model tor }",
                "switch L1 { model tor }\n  switch L2 { model tor }\n  link L1 -- L2 { count 6  cable 3m }",
            );
        let c = checked_text("fixtures/check/sku-test.fab", &text);
        assert!(errors(&c).is_empty(), "{folder}: {:?}", errors(&c));
        switch(&c, "L1")
            .ports
            .iter()
            .map(|p| (p.name.clone(), p.lanes.clone(), p.speed_mbps))
            .collect::<Vec<_>>()
    };
    let rows = ports("skus/good");
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0], ("Ethernet0".into(), vec![17, 18], 200_000));
    assert_eq!(rows[5], ("Ethernet12".into(), vec![5, 6, 7, 8], 400_000));
    assert_eq!(ports("skus/json-only"), rows);
}

/// `diff --git REV FILE` reads the SKU folder at the revision, as it reads imports: a lookup
/// row changed on disk shows as the leaves' changed lossless profile, nothing else.
#[test]
fn diff_git_reads_the_folder_at_the_revision() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("fabricc-sku-git-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sku = "skus/Dell-Z9864f-P32O64";
    std::fs::create_dir_all(dir.join("fabrics").join(sku)).expect("scratch folder");
    let inputs = root().join("fixtures/build/inputs");
    std::fs::copy(
        inputs.join("sonic-th5-leaf-sku.fab"),
        dir.join("fabrics/leaf.fab"),
    )
    .expect("copy");
    for f in [
        "port_config.ini",
        "hwsku.json",
        "pg_profile_lookup.ini",
        "buffers_defaults_t1.j2",
    ] {
        std::fs::copy(
            inputs.join(sku).join(f),
            dir.join("fabrics").join(sku).join(f),
        )
        .expect("copy");
    }
    let hermetic = |c: &mut Command| {
        c.env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CEILING_DIRECTORIES", std::env::temp_dir())
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE");
    };
    let git = |args: &[&str]| {
        let mut c = Command::new("git");
        c.arg("-C").arg(&dir).args([
            "-c",
            "user.name=fabricc tests",
            "-c",
            "user.email=tests@fabricc.invalid",
            "-c",
            "commit.gpgsign=false",
        ]);
        hermetic(&mut c);
        let o = c.args(args).output().expect("git is installed");
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "leaf on its own SKU"]);
    let lookup = dir.join("fabrics").join(sku).join("pg_profile_lookup.ini");
    let text = std::fs::read_to_string(&lookup).expect("read");
    std::fs::write(&lookup, text.replacen("393192", "400000", 1)).expect("write");
    let mut c = crate::support::Fabricc::new()
        .args(["diff", "--git", "HEAD", "leaf.fab", "--format", "json"])
        .current_dir(dir.join("fabrics"))
        .command();
    hermetic(&mut c);
    let o = c.output().expect("run fabricc");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let changed: Vec<&str> = v["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["path"].as_str())
        .filter(|p| p.ends_with("config_db.fragment.json"))
        .collect();
    assert_eq!(
        changed,
        [
            "switches/leaf1/config_db.fragment.json",
            "switches/leaf2/config_db.fragment.json"
        ],
        "{v}"
    );
    let diff = v["files"]
        .as_array()
        .and_then(|f| {
            f.iter()
                .find(|f| f["path"] == "switches/leaf1/config_db.fragment.json")
        })
        .and_then(|f| f["diff"].as_str())
        .unwrap_or_default();
    assert!(
        diff.contains("-    \"pg_lossless_400000_5m_profile\"")
            && diff.contains("\"xoff\": \"393192\"")
            && diff.contains("\"xoff\": \"400000\""),
        "{diff}"
    );
}

/// A folder on a Spectrum platform: only the rows; the pools are computed as SONiC's Mellanox
/// templates compute them, and the breakout modes are the platform's at each cage's speed.
#[test]
fn a_spectrum_folder_takes_the_rows_and_leaves_the_pools_to_the_formula() {
    let text = HPN_MODEL
        .replace("arista-7060x6-64pe", "nvidia-sn5600")
        .replace("skus/Arista-7060X6-64PE-HPN-ToR", "skus/sn5600-mixed")
        .replace(
            "PORTS",
            "ports 1 x 800G breakout 4 x 200G, 1 x 800G breakout 2 x 400G",
        )
        .replace(
            "switch L1 { model tor }",
            "switch L1 { model tor }\n  switch L2 { model tor }\n  link L1 -- L2 { count 6  cable 3m }",
        );
    let c = checked_text("fixtures/check/sku-test.fab", &text);
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let l1 = switch(&c, "L1");
    let plan = l1.sonic.as_ref().expect("plan");
    assert_eq!(plan.hwsku, "sn5600-mixed");
    assert_eq!(plan.sku_ports, 6);
    assert_eq!(
        plan.breakouts,
        vec![
            (
                "Ethernet0".to_string(),
                "4x200G[100G,50G,25G,10G]".to_string()
            ),
            (
                "Ethernet8".to_string(),
                "2x400G[200G,100G,50G,40G,25G,10G]".to_string()
            ),
        ]
    );
    assert_eq!(l1.ports[3].lanes, vec![6, 7]);
    assert_eq!(l1.ports[4].lanes, vec![8, 9, 10, 11]);
}

/// HPN_MODEL on `folder` (below fixtures/check), two switches linked on all six ports.
fn two_tors(folder: &str) -> String {
    HPN_MODEL
        .replace("skus/Arista-7060X6-64PE-HPN-ToR", folder)
        .replace(
            "PORTS",
            "ports 1 x 800G breakout 4 x 200G, 1 x 800G breakout 2 x 400G",
        )
        .replace(
            "switch L1 { model tor }",
            "switch L1 { model tor }\n  switch L2 { model tor }\n  link L1 -- L2 { count 6  cable 3m }",
        )
}

fn ingress_pool(c: &Checked) -> Option<u64> {
    switch(c, "L1")
        .sonic
        .as_ref()
        .and_then(|p| p.pools.iter().find(|p| p.name == "ingress_lossless_pool"))
        .and_then(|p| p.size)
}

/// SONiC renders `buffers_defaults_<t>.j2` for the switch's `DEVICE_METADATA` `type`, and many
/// vendor folders ship `t0` alone: such a folder builds, on its `t0` pools. With `t0` and `t1`
/// (Arista-7060X6-64PE-256x200G's, which differ), fabricc writes `t1` and says so (FAB818).
#[test]
fn a_t0_folder_builds_and_t0_with_t1_writes_t1_with_fab818() {
    let c = checked_text("fixtures/check/sku-test.fab", &two_tors("skus/t0-only"));
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    // 256x200G's BALANCED t0: 165,660,324 B, the egress pool dynamic.
    assert_eq!(ingress_pool(&c), Some(165_660_324));
    let plan = switch(&c, "L1").sonic.as_ref().expect("plan");
    let egress = plan
        .pools
        .iter()
        .find(|p| p.name == "egress_lossless_pool")
        .expect("pool");
    assert_eq!(egress.mode, "dynamic");
    assert!(
        !c.diagnostics.iter().any(|d| d.code.as_str() == "FAB818"),
        "one layout, no choice"
    );

    let c = checked_text(
        "fixtures/check/sku-test.fab",
        &two_tors("skus/FAB818-layouts"),
    );
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    assert_eq!(ingress_pool(&c), Some(121_964_196));
    let f: Vec<_> = c
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "FAB818")
        .collect();
    assert_eq!(f.len(), 1, "once per model: {f:?}");
    assert_eq!(f[0].severity, Severity::Advice);
    assert!(
        f[0].message.contains("writes `t1` (`type` `LeafRouter`)")
            && f[0]
                .message
                .contains("`t0` (`type` `ToRRouter`) differs in `egress_lossless_pool`"),
        "{}",
        f[0].message
    );
}

/// Every layout the folder has is checked, not only the one written: a `t2` whose profile
/// names a pool it has not is FAB958 at that line of `buffers_defaults_t2.j2`.
#[test]
fn a_bad_t2_is_fab958_at_its_line() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("sku-t2-{}", std::process::id()))
        .join("skus/bad-t2");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    let good = root().join("fixtures/check/skus/good");
    for f in [
        "port_config.ini",
        "pg_profile_lookup.ini",
        "buffers_defaults_t1.j2",
    ] {
        std::fs::copy(good.join(f), dir.join(f)).expect("copy");
    }
    let t1 = std::fs::read_to_string(good.join("buffers_defaults_t1.j2")).expect("t1");
    let t2 = t1.replacen(
        "\"pool\": \"egress_lossless_pool\"",
        "\"pool\": \"egress_lossy_pool\"",
        1,
    );
    assert_ne!(t1, t2);
    let line = t2
        .lines()
        .position(|l| l.contains("egress_lossy_profile"))
        .expect("profile")
        + 1;
    std::fs::write(dir.join("buffers_defaults_t2.j2"), &t2).expect("write");
    let fab = dir.join("../../t.fab");
    let mut sources = Sources::new();
    let limits = Limits::default();
    let loaded = load::load_text(
        &mut sources,
        &fab.to_string_lossy(),
        two_tors("skus/bad-t2"),
        &limits,
    );
    let c = pipeline::check_loaded(&sources, loaded, &limits);
    let f: Vec<_> = c
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "FAB958")
        .collect();
    assert_eq!(f.len(), 1, "{:?}", errors(&c));
    let file = sources.get(f[0].primary.span.file);
    assert!(
        file.display.ends_with("buffers_defaults_t2.j2"),
        "{}",
        file.display
    );
    assert_eq!(sources.span_lines(f[0].primary.span).0.line, line);
    assert!(
        f[0].message.contains("`buffers_defaults_t2.j2`")
            && f[0].message.contains("egress_lossy_pool"),
        "{}",
        f[0].message
    );
    let _ = std::fs::remove_dir_all(dir.join("../.."));
}
