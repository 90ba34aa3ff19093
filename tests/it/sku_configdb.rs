//! A device's CONFIG_DB as the `sku` source (issue 38 item 1): `sku "leaf1.config_db.json"`
//! takes the ports, lanes, aliases, breakouts and buffer tables from a switch's
//! `config_db.json` as a SKU folder gives them, checked the same way, findings pointing at
//! the JSON entry.
//!
//! The CONFIG_DBs are SONiC's own for the Dell Z9864F (`tests/data/sonic-defaults/
//! Dell-Z9864f-*.traditional.json`: the SKU templates of sonic-net/sonic-buildimage@
//! 086b03bd70f9 rendered as `config qos reload` does, BREAKOUT_CFG from `hwsku.json` as
//! `sonic-cfggen` writes it; the README there has the commands). A switch that runs a fabricc
//! build is those defaults with the build's fragment applied over them; taken as its own
//! `sku`, it gives the same build (the round trip).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use fabricc::diagnostic::{Diagnostic, Severity};
use fabricc::model::{Limits, load};
use fabricc::pipeline::{self, Checked};
use fabricc::source::Sources;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn defaults(sku: &str) -> Value {
    let path = root().join(format!("tests/data/sonic-defaults/{sku}.traditional.json"));
    serde_json::from_str(&fs::read_to_string(path).expect("defaults")).expect("json")
}

/// `fragment` applied over `base` entry by entry, field by field: what `apply.sh` leaves in
/// the tables a SKU is read from (PORT, BREAKOUT_CFG, DEVICE_METADATA, BUFFER_POOL,
/// BUFFER_PROFILE, CABLE_LENGTH), whose entries fabricc only adds to or sets fields of.
fn merged(mut base: Value, fragment: &Value) -> Value {
    for (table, rows) in fragment.as_object().into_iter().flatten() {
        for (key, fields) in rows.as_object().into_iter().flatten() {
            let entry = &mut base[table][key];
            if !entry.is_object() {
                *entry = Value::Object(serde_json::Map::new());
            }
            for (f, v) in fields.as_object().into_iter().flatten() {
                entry[f] = v.clone();
            }
        }
    }
    base
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("sku-configdb")
        .join(format!("{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch");
    dir
}

fn errors(c: &Checked) -> Vec<&Diagnostic> {
    c.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

/// `text` checked as the file `fab` (its `sku` paths resolve from its folder).
fn check_at(fab: &Path, text: &str) -> (Sources, Checked) {
    let mut sources = Sources::new();
    let limits = Limits::default();
    let loaded = load::load_text(
        &mut sources,
        &fab.to_string_lossy(),
        text.to_string(),
        &limits,
    );
    let c = pipeline::check_loaded(&sources, loaded, &limits);
    (sources, c)
}

/// Every file under `dir`, by its path below it.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).expect("dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .expect("below")
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, fs::read(&p).expect("file"));
            }
        }
    }
    out
}

const FAB: &str = "fixtures/build/inputs/sonic-th5-leaf-sku.fab";
const GOLDEN: &str = "fixtures/build/sonic-th5-leaf-sku";

/// The round trip: the leaves and spines of the Dell Z9864F golden, each running its build
/// over SONiC's defaults, named as their own `sku` by their CONFIG_DB, build the same files.
#[test]
fn a_switchs_own_config_db_gives_the_same_build() {
    let dir = scratch("round-trip");
    for (switch, sku) in [
        ("leaf1", "Dell-Z9864f-P32O64"),
        ("spine1", "Dell-Z9864f-O64"),
    ] {
        let fragment: Value = serde_json::from_str(
            &fs::read_to_string(root().join(format!(
                "{GOLDEN}/switches/{switch}/config_db.fragment.json"
            )))
            .expect("golden fragment"),
        )
        .expect("json");
        let device = merged(defaults(sku), &fragment);
        fs::write(
            dir.join(format!("{switch}.config_db.json")),
            serde_json::to_string_pretty(&device).expect("json"),
        )
        .expect("write");
    }
    let text = fs::read_to_string(root().join(FAB)).expect("fab");
    let own = text
        .replace(
            "sku \"skus/Dell-Z9864f-P32O64\"",
            "sku \"leaf1.config_db.json\"",
        )
        .replace(
            "switch-model spine { platform dell-z9864f  os sonic  ports 64 x 800G }",
            "switch-model spine { platform dell-z9864f  os sonic  sku \"spine1.config_db.json\"  ports 64 x 800G }",
        );
    assert_ne!(own, text);
    assert_eq!(own.matches("config_db.json").count(), 2, "{own}");
    let fab = dir.join("leaf.fab");
    fs::write(&fab, own).expect("write");
    let out = dir.join("out");
    let o = crate::support::Fabricc::new()
        .args(["build", fab.to_str().expect("utf-8"), "-o"])
        .arg(&out)
        // The golden's targets (tests/it/build.rs: built for its switch target only).
        .args(["--target", "sonic", "--color", "never"])
        .run();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let got = files(&out);
    let want = files(&root().join(GOLDEN));
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    let mut differ = Vec::new();
    for (path, bytes) in &want {
        if got.get(path) != Some(bytes) {
            differ.push(path.clone());
        }
    }
    // Every file the same, the report and the manifest included.
    assert!(differ.is_empty(), "{differ:?}");
    let _ = fs::remove_dir_all(&dir);
}

const SPINE: &str = "fabric t {
  class roce { dscp 26  priority 3  lossless  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
  switch-model spine { platform dell-z9864f  os sonic  sku \"device.json\"  ports 2 x 800G }
  switch S1 { model spine }
  switch S2 { model spine }
  link S1 -- S2 { count 2  cable 40m }
}
";

/// Checks SPINE with `device` as its `device.json`; the diagnostics and the text each points
/// at.
fn check_device(name: &str, device: &Value) -> Vec<(String, String, String)> {
    let dir = scratch(name);
    let text = serde_json::to_string_pretty(device).expect("json");
    fs::write(dir.join("device.json"), &text).expect("write");
    let (sources, c) = check_at(&dir.join("spine.fab"), SPINE);
    let out = errors(&c)
        .iter()
        .map(|d| {
            let file = sources.get(d.primary.span.file);
            let at = file
                .text
                .get(d.primary.span.start as usize..d.primary.span.end as usize)
                .unwrap_or_default()
                .to_string();
            (d.code.as_str().to_string(), d.message.clone(), at)
        })
        .collect();
    let _ = fs::remove_dir_all(&dir);
    out
}

#[test]
fn a_stock_config_db_gives_the_ports_and_asks_for_the_lookup_rows() {
    // SONiC's defaults hold no lossless profile: pg_profile_lookup.ini is a file, in no table.
    let f = check_device("stock", &defaults("Dell-Z9864f-O64"));
    assert_eq!(f.len(), 1, "{f:?}");
    let (code, message, at) = &f[0];
    assert_eq!(code, "FAB958");
    assert!(
        message.contains("CONFIG_DB `device.json`, `BUFFER_PROFILE`")
            && message.contains("at 800000 Mb/s"),
        "{message}"
    );
    assert_eq!(at, "\"BUFFER_PROFILE\"");
    // With the lossless profile a switch running fabricc's 800G spine build has, it builds:
    // the rows, breakouts and pools are the catalogue's Dell-Z9864f-O64.
    let fragment: Value = serde_json::from_str(
        &fs::read_to_string(
            root().join(format!("{GOLDEN}/switches/spine1/config_db.fragment.json")),
        )
        .expect("fragment"),
    )
    .expect("json");
    let device = merged(defaults("Dell-Z9864f-O64"), &fragment);
    assert_eq!(check_device("spine", &device), vec![]);
}

#[test]
fn findings_point_at_the_json_entry() {
    let fragment: Value = serde_json::from_str(
        &fs::read_to_string(
            root().join(format!("{GOLDEN}/switches/spine1/config_db.fragment.json")),
        )
        .expect("fragment"),
    )
    .expect("json");
    let good = merged(defaults("Dell-Z9864f-O64"), &fragment);
    // A lane of Ethernet0 on Ethernet8 too.
    let mut d = good.clone();
    d["PORT"]["Ethernet8"]["lanes"] = Value::from("1,10,11,12,13,14,15,16");
    let f = check_device("lane", &d);
    assert!(
        f.iter().any(|(code, m, at)| code == "FAB957"
            && m.contains("CONFIG_DB `device.json`, `PORT`")
            && m.contains("lane 1 of `Ethernet8` is also `Ethernet0`'s")
            && at == "\"Ethernet8\""),
        "{f:?}"
    );
    // A breakout the cage's rows do not run.
    let mut d = good.clone();
    d["BREAKOUT_CFG"]["Ethernet16"]["brkout_mode"] = Value::from("2x400G");
    let f = check_device("breakout", &d);
    assert!(
        f.iter().any(|(code, m, at)| code == "FAB957"
            && m.contains("`BREAKOUT_CFG`")
            && m.contains("`brkout_mode` `2x400G` is not the 1 x 800G")
            && at == "\"Ethernet16\""),
        "{f:?}"
    );
    // Another platform's CONFIG_DB; no HWSKU name.
    let mut d = good.clone();
    d["DEVICE_METADATA"]["localhost"]["platform"] = Value::from("x86_64-nvidia_sn5600-r0");
    d["DEVICE_METADATA"]["localhost"]["hwsku"] = Value::from("a b");
    let f = check_device("platform", &d);
    assert!(
        f.iter().any(
            |(_, m, at)| m.contains("`x86_64-nvidia_sn5600-r0` switch's")
                && at == "\"x86_64-nvidia_sn5600-r0\""
        ),
        "{f:?}"
    );
    assert!(
        f.iter()
            .any(|(_, m, at)| m.contains("no `hwsku` that can name") && at == "\"a b\""),
        "{f:?}"
    );
    // A pool without a type.
    let mut d = good.clone();
    if let Some(p) = d["BUFFER_POOL"]["egress_lossless_pool"].as_object_mut() {
        p.remove("type");
    }
    let f = check_device("pool", &d);
    assert!(
        f.iter().any(|(code, m, at)| code == "FAB958"
            && m.contains("pool `egress_lossless_pool` has no `type` or `mode`")
            && at == "\"egress_lossless_pool\""),
        "{f:?}"
    );
    // Not JSON: FAB959 at the place the reader stopped.
    let dir = scratch("not-json");
    fs::write(dir.join("device.json"), "{\"PORT\": {").expect("write");
    let (_, c) = check_at(&dir.join("spine.fab"), SPINE);
    assert!(
        errors(&c)
            .iter()
            .any(|d| d.code.as_str() == "FAB959" && d.message.contains("not JSON")),
        "{:?}",
        errors(&c)
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A PORT table whose `index` counts the cages from 0, and one without `index` (placed by
/// its lanes): the same SKU.
#[test]
fn index_from_0_or_none_places_the_same_ports() {
    let fragment: Value = serde_json::from_str(
        &fs::read_to_string(
            root().join(format!("{GOLDEN}/switches/spine1/config_db.fragment.json")),
        )
        .expect("fragment"),
    )
    .expect("json");
    let good = merged(defaults("Dell-Z9864f-O64"), &fragment);
    let mut from_0 = good.clone();
    let mut none = good.clone();
    for (name, port) in good["PORT"].as_object().expect("PORT") {
        let i: u32 = port["index"]
            .as_str()
            .and_then(|i| i.parse().ok())
            .expect("index");
        from_0["PORT"][name]["index"] = Value::from((i - 1).to_string());
        if let Some(p) = none["PORT"][name].as_object_mut() {
            p.remove("index");
        }
    }
    assert_eq!(check_device("from-0", &from_0), vec![]);
    assert_eq!(check_device("no-index", &none), vec![]);
}

/// The CONFIG_DB's pools and profiles are the layout SONiC rendered for its
/// `DEVICE_METADATA|localhost` `type` (`files/build_templates/buffers_config.j2:10-30`):
/// `ToRRouter` `t0`, `LeafRouter` `t1`, `SpineRouter` `t2`; without a type, the SKU's
/// `default_topo`, which the CONFIG_DB does not say (`t1`).
#[test]
fn the_layout_is_the_one_the_switchs_type_gives() {
    let fragment: Value = serde_json::from_str(
        &fs::read_to_string(
            root().join(format!("{GOLDEN}/switches/spine1/config_db.fragment.json")),
        )
        .expect("fragment"),
    )
    .expect("json");
    let good = merged(defaults("Dell-Z9864f-O64"), &fragment);
    let platform = fabricc::catalogue::switch_platform("dell-z9864f").expect("platform");
    for (switch_type, topology) in [
        (Some("ToRRouter"), "t0"),
        (Some("LeafRouter"), "t1"),
        (Some("SpineRouter"), "t2"),
        (Some("BackEndToRRouter"), "t0"),
        (None, "t1"),
    ] {
        let mut d = good.clone();
        match switch_type {
            Some(t) => d["DEVICE_METADATA"]["localhost"]["type"] = Value::from(t),
            None => {
                if let Some(m) = d["DEVICE_METADATA"]["localhost"].as_object_mut() {
                    m.remove("type");
                }
            }
        }
        let text = serde_json::to_string_pretty(&d).expect("json");
        let sku = fabricc::catalogue::read_config_db(platform, "device.json", &text)
            .unwrap_or_else(|f| panic!("{switch_type:?}: {f:?}"));
        let layouts: Vec<&str> = sku
            .hwsku
            .buffer_defaults
            .iter()
            .map(|b| b.topology.as_str())
            .collect();
        assert_eq!(layouts, [topology], "{switch_type:?}");
        // One layout: the one written, whatever its topology.
        assert_eq!(
            sku.hwsku.layout().map(|b| b.topology.as_str()),
            Some(topology)
        );
    }
    // Built, a ToRRouter's CONFIG_DB gives the same pools as a LeafRouter's: the one layout
    // it has.
    let mut tor = good.clone();
    tor["DEVICE_METADATA"]["localhost"]["type"] = Value::from("ToRRouter");
    assert_eq!(check_device("tor", &tor), vec![]);
}
