//! `fabricc import` and `check --state` (issue 17): round trip from a build's output back to
//! the same facts, seeded real-world defects each reported exactly at the state file, bad
//! inputs as import findings, and parsers that never panic.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::synth;
use fabricc::diagnostic::Diagnostic;
use fabricc::import::{self, Input};
use fabricc::lower::Targets;
use fabricc::model::Limits;
use fabricc::output::generate::{BuildInput, generate};
use fabricc::pipeline::{self, Checked};
use fabricc::render::{Artifact, ArtifactKind, Templates};
use fabricc::source::Sources;

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("import-tests")
        .join(format!(
            "{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn build(fab: &Path) -> (Checked, Vec<Artifact>) {
    let mut sources = Sources::new();
    let checked = pipeline::check(&mut sources, fab, &Limits::default()).expect("readable");
    assert_eq!(checked.errors(), 0, "{} has errors", fab.display());
    let templates = Templates::embedded().unwrap();
    let files =
        generate(BuildInput::of(&checked).unwrap(), Targets::ALL, &templates).expect("builds");
    (checked, files)
}

/// The state a build's devices would report (verify's synthesized state), written to `dir`.
fn write_state(checked: &Checked, files: &[Artifact], dir: &Path) {
    let fabric = checked.fabric.as_ref().unwrap();
    for (rel, text) in synth::state(fabric, files) {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

pub(crate) fn state_of(fixture: &str, name: &str) -> PathBuf {
    let path = if fixture.contains('/') {
        root().join(fixture)
    } else {
        root().join("fixtures/build/inputs").join(fixture)
    };
    let (checked, files) = build(&path);
    let dir = scratch(name).join("state");
    fs::create_dir_all(&dir).unwrap();
    write_state(&checked, &files, &dir);
    dir
}

pub(crate) fn import_dir(dir: &Path) -> (import::Imported, Sources) {
    import_named(dir, "lab")
}

pub(crate) fn import_named(dir: &Path, name: &str) -> (import::Imported, Sources) {
    let mut sources = Sources::new();
    let input = Input {
        state_dir: dir,
        state_display: "state".into(),
        max_input_bytes: Limits::default().max_input_bytes,
        name: Some(name.into()),
    };
    let i = import::import(&input, &mut sources).expect("imports");
    (i, sources)
}

pub(crate) fn check_text(dir: &Path, text: &str) -> Checked {
    let p = dir.join("imported.fab");
    fs::write(&p, text).unwrap();
    let mut sources = Sources::new();
    pipeline::check(&mut sources, &p, &Limits::default()).expect("readable")
}

/// What the `.fab` cannot carry from a SONiC fabric built by fabricc, by device kind: the
/// host files name the NIC by model (`platform nvidia-cx7` and its firmware notes), which a
/// host's `state.json` does not hold; every switch file (CONFIG_DB fragment, apply script,
/// README) is reproduced byte for byte. In the facts, ECN thresholds come back in whole cells
/// and, on the traditional buffer model, cables as the SKU's lookup rows (see `round_trip`).
const NOT_CARRIED: &[&str] = &["hosts/"];

fn round_trip(fixture: &Path, cable_rows: bool) {
    round_trip_with(fixture, cable_rows, 192, NOT_CARRIED, &|_| {}, &[], &|t| t);
}

/// `cell`: the unit the device holds ECN thresholds in (SONiC: the buffer cell; NVUE: bytes).
/// `not_carried`: device files that may differ. `collect`: what a real collection adds to the
/// synthesized state (fabricc's fragment is only part of a device's configuration).
pub(crate) fn round_trip_with(
    fixture: &Path,
    cable_rows: bool,
    cell: u64,
    not_carried: &[&str],
    collect: &dyn Fn(&Path),
    findings: &[&str],
    complete: &dyn Fn(String) -> String,
) {
    let name = fixture.file_stem().unwrap().to_string_lossy().into_owned();
    let (orig, ofiles) = build(fixture);
    let dir = scratch(&name).join("state");
    fs::create_dir_all(&dir).unwrap();
    write_state(&orig, &ofiles, &dir);
    collect(&dir);
    // The fabric's name is in the generated files; the state does not hold it.
    let (i, _) = import_named(&dir, orig.fabric_name().unwrap());
    assert!(
        i.diagnostics
            .iter()
            .all(|d| d.code.as_str() == "FAB966" || findings.contains(&d.code.as_str())),
        "{name}: only inferences expected: {:?}",
        i.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    // What the device state cannot carry, added by hand as the findings' help says.
    let text = complete(i.text.clone());
    let c = check_text(dir.parent().unwrap(), &text);
    assert_eq!(c.errors(), 0, "{name}: {:?}", c.diagnostics);
    let (a, b) = (orig.facts.as_ref().unwrap(), c.facts.as_ref().unwrap());
    assert_eq!(
        (a.switches, a.hosts, a.links),
        (b.switches, b.hosts, b.links),
        "{name}: counts"
    );
    assert_eq!(a.deadlock, b.deadlock, "{name}: deadlock verdict");
    // Rows are in link order, which the import writes by switch and port: compare as sets.
    let sorted = |v: &[fabricc::analysis::facts::HeadroomRow]| {
        let mut v: Vec<String> = v.iter().map(|r| format!("{r:?}")).collect();
        v.sort();
        v
    };
    if cable_rows {
        // The traditional buffer model writes each port's CABLE_LENGTH as the SKU's lookup
        // row it uses (3m → 5m, 30m → 40m), so the device holds the row, not the cable: the
        // imported cables are those rows, never shorter, and the rows are otherwise the same.
        let key = |r: &fabricc::analysis::facts::HeadroomRow| {
            (
                r.switch.clone(),
                r.peer.clone(),
                r.priority,
                r.speed_gbps,
                r.mtu,
            )
        };
        let mut ka: Vec<_> = a.headroom.iter().map(key).collect();
        let mut kb: Vec<_> = b.headroom.iter().map(key).collect();
        ka.sort();
        kb.sort();
        assert_eq!(ka, kb, "{name}: headroom rows");
        let cable = |r: &fabricc::analysis::facts::HeadroomRow| format!("{:?}", r.cable_m);
        let longest = |v: &[fabricc::analysis::facts::HeadroomRow]| {
            v.iter()
                .map(|r| {
                    cable(r)
                        .trim_matches(|c: char| !c.is_ascii_digit())
                        .parse::<u64>()
                        .unwrap_or(0)
                })
                .max()
        };
        assert!(
            longest(&b.headroom) >= longest(&a.headroom),
            "{name}: cables"
        );
    } else {
        let (ha, hb) = (sorted(&a.headroom), sorted(&b.headroom));
        assert_eq!(ha.len(), hb.len(), "{name}: headroom rows");
        if let Some((x, y)) = ha.iter().zip(&hb).find(|(x, y)| x != y) {
            panic!("{name}: headroom row\n{x}\n{y}");
        }
    }
    let dbg = |v: &dyn std::fmt::Debug| format!("{v:?}");
    // SONiC holds WRED thresholds in whole buffer cells (192 B on these platforms), so the
    // device cannot carry `ecn min 150KB` exactly: the imported thresholds are the original
    // ones rounded down to the cell (Comware: up); everything else in the ECN rows is the same.
    assert_eq!(a.ecn.len(), b.ecn.len(), "{name}: ECN rows");
    for (x, y) in a.ecn.iter().zip(&b.ecn) {
        let mut x = x.clone();
        // Class names other than roce, cnp, bulk are not in the device state.
        x.class = y.class.clone();
        // A device unit rounds down (SONiC) or up (Comware's `comware_cells`).
        let to_cell = |a: u64, b: u64| {
            if b == a - a % cell || (cell > 1 && b == a.div_ceil(cell) * cell) {
                b
            } else {
                a
            }
        };
        x.min_bytes = to_cell(x.min_bytes, y.min_bytes);
        x.max_bytes = to_cell(x.max_bytes, y.max_bytes);
        if cable_rows {
            // The pause point and the smallest useful `ecn min` follow the (longer) cable.
            let mut y = y.clone();
            y.pause_point_bytes = x.pause_point_bytes;
            y.min_kmin_bytes = x.min_kmin_bytes;
            assert_eq!(dbg(&x), dbg(&y), "{name}: ECN row");
        } else {
            assert_eq!(dbg(&x), dbg(y), "{name}: ECN row");
        }
    }
    assert_eq!(
        dbg(&a.oversubscription),
        dbg(&b.oversubscription),
        "{name}: oversubscription"
    );
    // Lossless priorities of every class, as every switch treats them.
    let lossless = |c: &Checked| -> Vec<(String, Vec<u8>)> {
        let f = c.fabric.as_ref().unwrap();
        let mut v: Vec<(String, Vec<u8>)> = c
            .lowered
            .as_ref()
            .unwrap()
            .switches
            .iter()
            .map(|s| {
                let mut p: Vec<u8> = s
                    .ports
                    .iter()
                    .flat_map(|p| p.lossless_priorities.clone())
                    .collect();
                p.sort_unstable();
                p.dedup();
                (s.device.clone(), p)
            })
            .collect();
        v.sort();
        let _ = f;
        v
    };
    assert_eq!(lossless(&orig), lossless(&c), "{name}: lossless priorities");
    // Build of the imported fabric: every switch file byte for byte.
    let templates = Templates::embedded().unwrap();
    let ifiles = generate(BuildInput::of(&c).unwrap(), Targets::ALL, &templates).expect("builds");
    let by_path = |fs: &[Artifact]| -> BTreeMap<String, String> {
        fs.iter()
            .filter(|a| matches!(a.kind, ArtifactKind::Switch | ArtifactKind::Host))
            .map(|a| (a.path.clone(), a.contents.clone()))
            .collect()
    };
    let (x, y) = (by_path(&ofiles), by_path(&ifiles));
    assert_eq!(
        x.keys().collect::<Vec<_>>(),
        y.keys().collect::<Vec<_>>(),
        "{name}: the same device files"
    );
    let mut differ = Vec::new();
    for (p, t) in &x {
        if y.get(p) != Some(t) {
            differ.push(p.clone());
        }
    }
    for p in &differ {
        assert!(
            not_carried.iter().any(|n| p.starts_with(n)),
            "{name}: `{p}` differs after the round trip"
        );
    }
    // Every switch's CONFIG_DB, table by table.
    for (p, t) in x.iter().filter(|(p, _)| p.ends_with(".json")) {
        assert_eq!(Some(t), y.get(p), "{name}: {p}");
    }
}

#[test]
fn round_trip_sonic_fixtures() {
    round_trip(
        &root().join("fixtures/build/inputs/sonic-sn5600-2x2.fab"),
        false,
    );
    round_trip(&root().join("fixtures/fabrics/pod-256.fab"), false);
    round_trip(&root().join(TRADITIONAL), true);
    // Queue plans, a CNP rate cap and ECN per port speed (issue 17 item f).
    round_trip(
        &root().join("fixtures/build/inputs/amd-mi300x-jvd-sonic.fab"),
        false,
    );
    // A traffic class other than the priority, lossy classes in other queues (issue 17 f).
    round_trip(
        &root().join("fixtures/import/sonic-traffic-class.fab"),
        false,
    );
}

/// Issue 20 item 4: SONiC's `SWITCH_HASH|GLOBAL` comes back as `load-balance { hash … }`, and
/// the imported fabric writes the same SWITCH_HASH (the round trip compares every CONFIG_DB).
#[test]
fn round_trip_sonic_switch_hash() {
    let fixture = root().join("fixtures/import/sonic-load-balance.fab");
    round_trip(&fixture, false);
    let (orig, files) = build(&fixture);
    let dir = scratch("sonic-load-balance-text").join("state");
    fs::create_dir_all(&dir).unwrap();
    write_state(&orig, &files, &dir);
    let (i, _) = import_named(&dir, orig.fabric_name().unwrap());
    assert!(
        i.text
            .contains("load-balance { hash src-ip dst-ip src-port dst-port protocol }"),
        "{}",
        i.text
    );
    // A field the `.fab` has no keyword for, on one switch: that switch's hash is reported
    // and the others' is the fabric's.
    edit(&dir, "leaf1/config_db.json", |v| {
        v["SWITCH_HASH"]["GLOBAL"]["ecmp_hash"] = serde_json::json!(["SRC_IP", "IN_PORT"]);
    });
    let (i, _) = import_named(&dir, orig.fabric_name().unwrap());
    let msgs: Vec<&str> = i.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.iter().any(|m| m.contains("hashes on `IN_PORT`")),
        "{msgs:?}"
    );
    assert!(
        i.text
            .contains("load-balance { hash src-ip dst-ip src-port dst-port protocol }")
    );
}

/// Edits a JSON state file in place (pretty-printed, so that every value has its own line).
pub(crate) fn edit(dir: &Path, file: &str, f: impl FnOnce(&mut serde_json::Value)) {
    let p = dir.join(file);
    let mut v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    f(&mut v);
    fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

pub(crate) fn pretty_all(dir: &Path) {
    for e in fs::read_dir(dir).unwrap() {
        let d = e.unwrap().path();
        for f in ["config_db.json", "state.json", "lldp.json"] {
            if d.join(f).exists() {
                edit(&d, f, |_| {});
            }
        }
    }
}

pub(crate) fn check_state(dir: &Path) -> (Vec<Diagnostic>, Sources, import::check::StateChecked) {
    let mut sources = Sources::new();
    let input = Input {
        state_dir: dir,
        state_display: "state".into(),
        max_input_bytes: Limits::default().max_input_bytes,
        name: Some("lab".into()),
    };
    let c = import::check::check_state(&input, &mut sources, &Limits::default()).expect("runs");
    (c.diagnostics.clone(), sources, c)
}

/// (code, file, line) of every finding that is not advice.
pub(crate) fn found(d: &[Diagnostic], s: &Sources) -> Vec<(String, String, usize)> {
    let mut v: Vec<(String, String, usize)> = d
        .iter()
        .filter(|x| x.severity != fabricc::diagnostic::Severity::Advice)
        .map(|x| {
            let (a, _) = s.span_lines(x.primary.span);
            (
                x.code.as_str().to_string(),
                s.get(x.primary.span.file).display.clone(),
                a.line,
            )
        })
        .collect();
    v.sort();
    v
}

/// The line of the first occurrence of `needle` after `after` in a state file.
pub(crate) fn line_of(dir: &Path, file: &str, after: &str, needle: &str) -> usize {
    let text = fs::read_to_string(dir.join(file)).unwrap();
    let from = text
        .find(after)
        .unwrap_or_else(|| panic!("{after} in {file}"));
    let at = from
        + text[from..]
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} in {file}"));
    text[..at].matches('\n').count() + 1
}

/// The traditional buffer model keeps the lossless PG profiles in CONFIG_DB.
const TRADITIONAL: &str = "fixtures/import/sn5600-traditional.fab";

fn seeded(name: &str, f: impl FnOnce(&Path)) -> (Vec<(String, String, usize)>, PathBuf) {
    seeded_on("sonic-sn5600-2x2.fab", name, f)
}

pub(crate) fn seeded_on(
    fixture: &str,
    name: &str,
    f: impl FnOnce(&Path),
) -> (Vec<(String, String, usize)>, PathBuf) {
    let dir = state_of(fixture, name);
    pretty_all(&dir);
    f(&dir);
    let (d, s, _) = check_state(&dir);
    (found(&d, &s), dir)
}

#[test]
fn the_deployed_fabric_in_sync_has_no_findings() {
    let (f, _) = seeded("clean", |_| {});
    assert_eq!(f, vec![]);
}

#[test]
fn seeded_ecn_min_above_the_pause_threshold_on_one_switch() {
    let (f, dir) = seeded_on(TRADITIONAL, "ecn", |d| {
        edit(d, "leaf2/config_db.json", |v| {
            for (name, p) in v["BUFFER_PROFILE"].as_object_mut().unwrap() {
                if name.starts_with("pg_lossless_") {
                    let p = p.as_object_mut().unwrap();
                    p.remove("dynamic_th");
                    p.insert("static_th".into(), "100000".into());
                }
            }
        })
    });
    let at = line_of(
        &dir,
        "leaf2/config_db.json",
        "\"Ethernet0|3\"",
        "\"profile\"",
    );
    let codes: Vec<&str> = f.iter().map(|x| x.0.as_str()).collect();
    // The pause at 100 KB is below `ecn min` (FAB304) and so below `ecn max` (FAB305).
    assert_eq!(codes, vec!["FAB304", "FAB305"], "{f:?}");
    for x in &f[..2] {
        assert_eq!(
            (x.1.as_str(), x.2),
            ("state/leaf2/config_db.json", at),
            "{f:?}"
        );
    }
}

#[test]
fn seeded_cable_longer_than_its_headroom() {
    let (f, dir) = seeded_on(TRADITIONAL, "cable", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            // The host ports' (short-cable) profile on an uplink.
            let host = v["BUFFER_PG"]["Ethernet0|3"]["profile"].clone();
            v["BUFFER_PG"]["Ethernet16|3"]["profile"] = host;
        })
    });
    let at = line_of(
        &dir,
        "leaf1/config_db.json",
        "\"Ethernet16|3\"",
        "\"profile\"",
    );
    assert_eq!(
        f,
        vec![("FAB401".into(), "state/leaf1/config_db.json".into(), at)]
    );
}

#[test]
fn seeded_lossless_priority_missing_on_one_leaf() {
    let (f, dir) = seeded("lossless", |d| {
        edit(d, "leaf2/config_db.json", |v| {
            for (_, p) in v["PORT_QOS_MAP"].as_object_mut().unwrap() {
                p["pfc_enable"] = "".into();
            }
        })
    });
    let at = line_of(
        &dir,
        "leaf2/config_db.json",
        "\"PORT_QOS_MAP\"",
        "\"pfc_enable\"",
    );
    // Its lossless PGs stay, headroom for a priority no port pauses: one FAB815 naming them.
    let pg = line_of(&dir, "leaf2/config_db.json", "\"BUFFER_PG\"", "|3\"");
    assert_eq!(
        f,
        vec![
            ("FAB505".into(), "state/leaf2/config_db.json".into(), at),
            ("FAB815".into(), "state/leaf2/config_db.json".into(), pg)
        ]
    );
}

#[test]
fn seeded_dscp_26_to_a_lossy_class_on_one_switch() {
    let (f, dir) = seeded("dscp", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            v["DSCP_TO_TC_MAP"]["FABRICC"]["26"] = "0".into();
        })
    });
    let at = line_of(&dir, "leaf1/config_db.json", "\"DSCP_TO_TC_MAP\"", "\"26\"");
    assert_eq!(
        f,
        vec![("FAB505".into(), "state/leaf1/config_db.json".into(), at)]
    );
}

#[test]
fn seeded_static_route_bounce_is_in_the_model() {
    let (checked, files) = build(&root().join("fixtures/import/single-homed.fab"));
    let dir = scratch("route").join("state");
    fs::create_dir_all(&dir).unwrap();
    write_state(&checked, &files, &dir);
    pretty_all(&dir);
    edit(&dir, "L2/config_db.json", |v| {
        v["INTERFACE"] =
            serde_json::json!({"Ethernet0|10.2.0.0/31": {}, "Ethernet8|10.2.0.2/31": {}});
    });
    edit(&dir, "S1/config_db.json", |v| {
        v["STATIC_ROUTE"] =
            serde_json::json!({"10.2.0.0/30": {"nexthop": "10.0.0.1", "ifname": "Ethernet0"}});
    });
    let (d, s, c) = check_state(&dir);
    // The route becomes a `route` statement whose origin is the STATIC_ROUTE entry; one bounce
    // closes no cycle, so the proof (which follows it) finds no deadlock and nothing else.
    assert!(
        c.imported.text.contains("route at S1 to L2 via L1"),
        "{}",
        c.imported.text
    );
    let at = c.imported.text.find("route at S1").unwrap();
    let o = c
        .imported
        .origins
        .iter()
        .find(|o| o.start <= at && at < o.end)
        .expect("origin");
    let (l, _) = s.span_lines(o.from);
    assert_eq!(
        (s.get(o.from.file).display.as_str(), l.line),
        (
            "state/S1/config_db.json",
            line_of(&dir, "S1/config_db.json", "\"STATIC_ROUTE\"", "10.2.0.0/30")
        )
    );
    assert_eq!(found(&d, &s), vec![]);
    assert_eq!(
        c.checked
            .facts
            .as_ref()
            .unwrap()
            .deadlock
            .as_ref()
            .map(|x| x.possible),
        Some(false)
    );
}

#[test]
fn bad_inputs_are_import_findings() {
    let dir = state_of("sonic-sn5600-2x2.fab", "bad");
    fs::write(dir.join("leaf2/config_db.json"), "{\"PORT\": {").unwrap();
    fs::write(dir.join("gpu1/state.json"), "{\"schema\": \"other/1\"}").unwrap();
    fs::create_dir_all(dir.join("leaf9")).unwrap();
    fs::write(dir.join("leaf9/show-version.txt"), "Arista\n").unwrap();
    // Neither end of leaf1 Ethernet16 -- spine1 Ethernet0 states its cable.
    edit(&dir, "leaf1/config_db.json", |v| {
        v["CABLE_LENGTH"]["AZURE"]
            .as_object_mut()
            .unwrap()
            .remove("Ethernet16");
    });
    edit(&dir, "spine1/config_db.json", |v| {
        v["CABLE_LENGTH"]["AZURE"]
            .as_object_mut()
            .unwrap()
            .remove("Ethernet0");
    });
    let (i, s) = import_dir(&dir);
    let f = found(&i.diagnostics, &s);
    let codes: Vec<&str> = f.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(
        codes,
        vec![
            "FAB960", "FAB960", "FAB960", "FAB960", "FAB960", "FAB961", "FAB961", "FAB963",
            "FAB968"
        ],
        "{f:?}"
    );
    // leaf9 holds no file import reads; leaf2's file is cut short, so the spines' links to it
    // lead nowhere (two each); gpu1's state.json has another schema, so gpu1 is known only
    // from its neighbours.
    assert!(f[0].1.ends_with("leaf9"), "{f:?}");
    assert!(
        f.iter()
            .any(|x| x.0 == "FAB961" && x.1.ends_with("leaf2/config_db.json"))
    );
    assert!(
        f.iter()
            .any(|x| x.0 == "FAB961" && x.1.ends_with("gpu1/state.json"))
    );
    let c = check_text(dir.parent().unwrap(), &i.text);
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
}

#[test]
fn the_cli_writes_the_fab_and_check_state_points_into_the_state() {
    let dir = state_of("sonic-sn5600-2x2.fab", "cli");
    let out = dir.parent().unwrap().join("pod.fab");
    let r = crate::support::Fabricc::new()
        .args(["import", "--state"])
        .arg(&dir)
        .arg("-o")
        .arg(&out)
        .args(["--format", "json"])
        .run();
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    assert!(findings.iter().all(|f| f["category"] == "import"), "{v}");
    let r = crate::support::Fabricc::new().arg("check").arg(&out).run();
    assert_eq!(r.status.code(), Some(0));
    edit(&dir, "leaf1/config_db.json", |v| {
        v["DSCP_TO_TC_MAP"]["FABRICC"]["26"] = "0".into();
    });
    let r = crate::support::Fabricc::new()
        .args(["check", "--format", "short", "--state"])
        .arg(&dir)
        .run();
    assert_eq!(r.status.code(), Some(1));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("leaf1/config_db.json:") && text.contains("FAB505"),
        "{text}"
    );
}

/// `fixtures/import/FABnnn_*.fab`: a fabric, built, its state synthesized, then edited by the
/// `# write: PATH TEXT`, `# set: FILE /json/pointer JSON`, `# delete: FILE /pointer` and
/// `# remove: PATH` lines; importing it gives exactly the codes of `# expect:` (advice
/// FAB966 counted only where expected).
#[test]
fn import_fixtures_give_exactly_their_codes() {
    let dir = root().join("fixtures/import");
    let mut n = 0;
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("FAB") {
            continue;
        }
        n += 1;
        let text = fs::read_to_string(&p).unwrap();
        let (checked, files) = build(&p);
        let state = scratch(&name).join("state");
        fs::create_dir_all(&state).unwrap();
        write_state(&checked, &files, &state);
        pretty_all(&state);
        let mut expect: Vec<String> = Vec::new();
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("# ") else {
                continue;
            };
            let (kw, arg) = rest.split_once(": ").unwrap_or((rest, ""));
            match kw {
                "write" => {
                    let (path, body) = arg.split_once(' ').unwrap();
                    let f = state.join(path);
                    fs::create_dir_all(f.parent().unwrap()).unwrap();
                    fs::write(f, body).unwrap();
                }
                "remove" if state.join(arg).is_dir() => {
                    fs::remove_dir_all(state.join(arg)).unwrap()
                }
                "remove" => fs::remove_file(state.join(arg)).unwrap(),
                "set" | "delete" => {
                    let mut parts = arg.splitn(3, ' ');
                    let (file, ptr) = (parts.next().unwrap(), parts.next().unwrap());
                    let value = parts.next();
                    edit(&state, file, |v| {
                        let (parent, key) = ptr.rsplit_once('/').unwrap();
                        let obj = if parent.is_empty() {
                            v.as_object_mut()
                        } else {
                            v.pointer_mut(parent).and_then(|x| x.as_object_mut())
                        }
                        .unwrap_or_else(|| panic!("{name}: {parent}"));
                        match value {
                            Some(j) => {
                                obj.insert(key.into(), serde_json::from_str(j).unwrap());
                            }
                            None => {
                                assert!(obj.remove(key).is_some(), "{name}: {ptr}");
                            }
                        }
                    });
                }
                "expect" => expect.extend(arg.split_whitespace().map(str::to_string)),
                _ => {}
            }
        }
        let (i, _) = import_dir(&state);
        let want_advice = expect.iter().any(|c| c == "FAB966");
        let mut got: Vec<String> = i
            .diagnostics
            .iter()
            .map(|d| d.code.as_str().to_string())
            .filter(|c| want_advice || c != "FAB966")
            .collect();
        got.sort();
        expect.sort();
        assert_eq!(
            got,
            expect,
            "{name}: {:?}",
            i.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
        // The imported `.fab` still checks without errors.
        let c = check_text(state.parent().unwrap(), &i.text);
        assert_eq!(c.errors(), 0, "{name}: {:?}", c.diagnostics);
    }
    assert_eq!(n, 12);
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    /// The synthesized state of the SONiC 2x2 fixture and of the Cumulus one (each
    /// `startup.yaml` with `nv config show`'s header), built once.
    fn base(which: usize) -> &'static Vec<(String, String)> {
        static BASE: OnceLock<[Vec<(String, String)>; 2]> = OnceLock::new();
        &BASE.get_or_init(|| {
            let state = |f: &str| {
                let (checked, files) = build(&root().join("fixtures/build/inputs").join(f));
                synth::state(checked.fabric.as_ref().unwrap(), &files)
            };
            let mut cumulus = state("cumulus-lossless2.fab");
            for (rel, text) in &mut cumulus {
                if rel.ends_with("startup.yaml") {
                    *text = format!(
                        "- header:\n    model: SN5600\n    version: Cumulus Linux 5.14.0\n{text}"
                    );
                }
            }
            [state("sonic-sn5600-2x2.fab"), cumulus]
        })[which % 2]
    }

    /// JSON-ish fragments a mutation splices in.
    const TOKENS: &[&str] = &[
        "",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "null",
        "true",
        "-1",
        "1e999",
        "\"\"",
        "\"Ethernet0|3-4\"",
        "\"0-7\"",
        "\"x\"",
        "\"Ethernet7\"",
        "\"999999999999999999999\"",
        "{\"a\":{}}",
        "[[[[",
        "\"\\u0000\"",
        "\"nic0\"",
        "\"10.0.0.0/0\"",
        "\"static_th\"",
        "\"ecn_none\"",
        "\"-3m\"",
        "\"4294967297\"",
        // NVUE YAML.
        "\n- set:\n",
        "\n    qos:\n      pfc:\n        default-global:\n          switch-priority:\n            '9': {}\n",
        "\n  interface:\n    swp999s9:\n      qos:\n        pfc:\n          profile: nowhere\n",
        "min-threshold: 99999999999999999999",
        "cable-length: -3",
        "robustness: 0",
        "- header:\n    model: MSN5600\n",
        "&a [*a]",
        "!!binary x",
        "'26':\n",
        "    ",
        "\t",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Any state file cut or spliced anywhere is a finding or a value, never a panic, and
        /// the `.fab` written still parses.
        #[test]
        fn import_and_check_state_never_panic(
            which in 0usize..2,
            edits in proptest::collection::vec((0usize..64, 0.0f64..1.0, 0usize..TOKENS.len(), 0usize..8), 1..6)
        ) {
            let base = base(which);
            let mut files: BTreeMap<String, String> = base.iter().cloned().collect();
            let names: Vec<String> = files.keys().cloned().collect();
            for (file, at, token, cut) in edits {
                let name = &names[file % names.len()];
                let text = files.get_mut(name).unwrap();
                let mut pos = ((text.len() as f64) * at) as usize;
                while !text.is_char_boundary(pos) {
                    pos -= 1;
                }
                let end = (pos + cut).min(text.len());
                let end = if text.is_char_boundary(end) { end } else { pos };
                text.replace_range(pos..end, TOKENS[token]);
            }
            let dir = scratch("props").join("state");
            for (rel, text) in &files {
                let p = dir.join(rel);
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                fs::write(p, text).unwrap();
            }
            let (d, s, c) = check_state(&dir);
            // Every span resolves against its file.
            let _ = fabricc::diagnostic::human::render_human(
                &d,
                &s,
                fabricc::diagnostic::human::HumanStyle { color: false, width: 100 },
            );
            let _ = fabricc::diagnostic::sarif::render_sarif(&d, &s);
            prop_assert!(
                c.checked
                    .diagnostics
                    .iter()
                    .all(|x| x.category() != fabricc::diagnostic::Category::Syntax),
                "the imported .fab has a syntax error:\n{}",
                c.imported.text
            );
            let _ = fs::remove_dir_all(dir.parent().unwrap());
        }
    }
}

/// What `nv config show -o yaml` prints before the configuration: the system's model and
/// release (fabricc's fragment has no header; a collected `startup.yaml` has).
pub(crate) fn cumulus_header(model: &str, release: &str) -> impl Fn(&Path) {
    let (model, release) = (model.to_string(), release.to_string());
    move |dir: &Path| {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path().join("startup.yaml");
            if p.exists() {
                let t = fs::read_to_string(&p).unwrap();
                fs::write(
                    &p,
                    format!("- header:\n    model: {model}\n    nvue-api-version: nvue_v1\n    rev-id: 1.0\n    version: Cumulus Linux {release}.0\n{t}"),
                )
                .unwrap();
            }
        }
    }
}

#[test]
fn round_trip_cumulus_fixtures() {
    // NVUE holds ECN thresholds in bytes; every switch file (nvue-qos.yaml) comes back
    // byte for byte. Not carried: the host files (see NOT_CARRIED), the watchdog's `restore`
    // (Cumulus restores after one polling interval, so the import states that), the model's
    // `lossless-limit`.
    round_trip_with(
        &root().join("fixtures/build/inputs/cumulus-lossless2.fab"),
        false,
        1,
        NOT_CARRIED,
        &cumulus_header("SN5600", "5.14"),
        &[],
        &|t| t,
    );
    // A switch model that is no catalogue platform (32 x 400G, 160 MB in 128 B cells): NVUE
    // holds neither the buffer nor the cell nor the ports' speed (no `link speed` set), so the
    // import says so (FAB965, FAB966 taking 400G) and the buffer and cell are added by hand;
    // then every switch file comes back byte for byte.
    round_trip_with(
        &root().join("fixtures/build/inputs/cumulus-2x2.fab"),
        false,
        1,
        NOT_CARRIED,
        &|_| {},
        &["FAB965"],
        &|t| {
            t.replace(
                "os cumulus  ports",
                "os cumulus  buffer 160MB  cell 128B  ports",
            )
        },
    );
}

/// A state folder of cumulus-lossless2 as collected (with `nv config show`'s header), one
/// device edited as text.
pub(crate) fn seeded_cumulus(
    name: &str,
    device: &str,
    f: impl FnOnce(String) -> String,
) -> (Vec<(String, String, usize)>, PathBuf) {
    let dir = state_of("cumulus-lossless2.fab", name);
    cumulus_header("SN5600", "5.14")(&dir);
    let p = dir.join(device).join("startup.yaml");
    let t = fs::read_to_string(&p).unwrap();
    let edited = f(t.clone());
    assert_ne!(t, edited, "{name}: the edit changed nothing");
    fs::write(&p, edited).unwrap();
    let (d, s, _) = check_state(&dir);
    (found(&d, &s), dir)
}

/// Replaces the first `old` after `after` in `text`.
pub(crate) fn replace_after(text: &str, after: &str, old: &str, new: &str) -> String {
    let from = text.find(after).unwrap_or_else(|| panic!("{after}"));
    let at = from + text[from..].find(old).unwrap_or_else(|| panic!("{old}"));
    format!("{}{new}{}", &text[..at], &text[at + old.len()..])
}

#[test]
fn cumulus_in_sync_has_no_findings() {
    let (f, _) = seeded_cumulus("cu-clean", "leaf1", |t| t + "\n");
    // Its two lossless classes share Cumulus's one lossless PG: advice (FAB907, C4), not a
    // finding of the state.
    let codes: Vec<&str> = f.iter().map(|x| x.0.as_str()).collect();
    assert!(codes.is_empty(), "{f:?}");
}

#[test]
fn cumulus_seeded_ecn_min_above_the_pause_on_one_switch() {
    // leaf2 marks roce only above 20 MB, beyond where the port pauses.
    let (f, dir) = seeded_cumulus("cu-ecn", "leaf2", |t| {
        let t = replace_after(
            &t,
            "congestion-control:",
            "min-threshold: 150000",
            "min-threshold: 20000000",
        );
        replace_after(
            &t,
            "congestion-control:",
            "max-threshold: 1500000",
            "max-threshold: 30000000",
        )
    });
    let at = line_of(
        &dir,
        "leaf2/startup.yaml",
        "congestion-control:",
        "min-threshold: 20000000",
    );
    // Not a warning of its own: switchd's dynamic pause point is the worst case (FAB312).
    assert_eq!(f.iter().filter(|x| x.0 != "FAB906").count(), 0, "{f:?}");
    let (d, s, _) = check_state(&dir);
    let ecn: Vec<(String, String, usize)> = d
        .iter()
        .filter(|x| x.code.as_str() == "FAB312")
        .map(|x| {
            (
                x.code.as_str().to_string(),
                s.get(x.primary.span.file).display.clone(),
                s.span_lines(x.primary.span).0.line,
            )
        })
        .collect();
    assert_eq!(
        ecn,
        vec![("FAB312".into(), "state/leaf2/startup.yaml".into(), at)]
    );
}

#[test]
fn cumulus_seeded_lossless_priority_missing_on_one_leaf() {
    // leaf2 runs PFC on priority 4 only: roce (priority 3) is lossy there.
    let (f, dir) = seeded_cumulus("cu-lossless", "leaf2", |t| {
        let t = replace_after(
            &t,
            "      pfc:\n        default-global:",
            "            '3': {}\n",
            "",
        );
        replace_after(&t, "fabricc-pfc-cable1:", "            '3': {}\n", "")
    });
    let at = line_of(&dir, "leaf2/startup.yaml", "fabricc-pfc-cable1:", "'4': {}");
    assert_eq!(
        f,
        vec![("FAB505".into(), "state/leaf2/startup.yaml".into(), at)]
    );
}

#[test]
fn cumulus_seeded_dscp_26_to_a_lossy_priority_on_one_switch() {
    let (f, dir) = seeded_cumulus("cu-dscp", "leaf1", |t| {
        replace_after(&t, "'26':", "switch-priority: 3", "switch-priority: 0")
    });
    let at = line_of(&dir, "leaf1/startup.yaml", "'26':", "switch-priority: 0");
    assert_eq!(
        f,
        vec![("FAB505".into(), "state/leaf1/startup.yaml".into(), at)]
    );
}

/// leaf1 on the dynamic buffer model with its platform named, its lossless PGs on profiles
/// buffermgrd computes at run time (`pg_lossless_<speed>_<cable>_profile`, not in CONFIG_DB).
fn runtime_profiles(d: &Path, profile: &dyn Fn(&str) -> Option<String>) {
    edit(d, "leaf1/config_db.json", |v| {
        v["DEVICE_METADATA"]["localhost"]["platform"] = "x86_64-nvidia_sn5600-r0".into();
        let pgs = v["BUFFER_PG"].as_object_mut().unwrap();
        for (k, e) in pgs.iter_mut() {
            if let Some(port) = k.strip_suffix("|3")
                && let Some(p) = profile(port)
            {
                e["profile"] = p.into();
            }
        }
    });
}

#[test]
fn dynamic_runtime_profiles_are_judged_as_sonic_computes_them() {
    // Every lossless PG on the profile its own cable gives: as SONiC computes it, enough.
    let (f, _) = seeded("runtime-clean", |d| {
        runtime_profiles(d, &|port| {
            let cable = if ["Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"].contains(&port) {
                "3m"
            } else {
                "30m"
            };
            Some(format!("pg_lossless_400000_{cable}_profile"))
        })
    });
    assert_eq!(f, vec![]);
    // An uplink (30 m) on the profile buffermgrd made for 5 m: short (FAB401) at that PG.
    let (f, dir) = seeded("runtime-short", |d| {
        runtime_profiles(d, &|port| {
            (port == "Ethernet16").then(|| "pg_lossless_400000_5m_profile".to_string())
        })
    });
    let at = line_of(
        &dir,
        "leaf1/config_db.json",
        "\"Ethernet16|3\"",
        "\"profile\"",
    );
    assert_eq!(
        f,
        vec![("FAB401".into(), "state/leaf1/config_db.json".into(), at)]
    );
    // A 0 m profile: an import finding, the port not judged.
    let (f, dir) = seeded("runtime-0m", |d| {
        runtime_profiles(d, &|port| {
            (port == "Ethernet0").then(|| "pg_lossless_400000_0m_profile".to_string())
        })
    });
    let at = line_of(
        &dir,
        "leaf1/config_db.json",
        "\"Ethernet0|3\"",
        "\"profile\"",
    );
    assert_eq!(
        f,
        vec![("FAB963".into(), "state/leaf1/config_db.json".into(), at)]
    );
}

/// The JVD SONiC fabric's state with one switch edited: the queue plan, the CNP rate cap and
/// the per-speed ECN of issue 17 item f.
fn jvd_seeded(name: &str, f: impl FnOnce(&Path)) -> (import::Imported, Sources, PathBuf) {
    let dir = state_of("amd-mi300x-jvd-sonic.fab", name);
    pretty_all(&dir);
    f(&dir);
    let (i, s) = import_dir(&dir);
    (i, s, dir)
}

/// Codes other than advice, and the messages.
fn codes(i: &import::Imported) -> Vec<(String, String)> {
    i.diagnostics
        .iter()
        .filter(|d| d.severity != fabricc::diagnostic::Severity::Advice)
        .map(|d| (d.code.as_str().to_string(), d.message.clone()))
        .collect()
}

#[test]
fn jvd_plan_imports_as_designed() {
    let (i, _, _) = jvd_seeded("jvd-plan", |_| {});
    assert_eq!(codes(&i), vec![]);
    let roce = i.text.lines().find(|l| l.contains("class roce")).unwrap();
    assert!(roce.contains("priority 3  queue 4  lossless"), "{roce}");
    assert!(
        roce.contains("ecn min 749952B  max 3MB  probability 100%  ecn 800G min 1499904B  max 6MB  probability 100%"),
        "{roce}"
    );
    let cnp = i.text.lines().find(|l| l.contains("class cnp")).unwrap();
    assert!(
        cnp.contains("priority 7  queue 3  strict  rate 5%"),
        "{cnp}"
    );
}

#[test]
fn seeded_one_switch_puts_roce_in_another_queue() {
    let (i, s, dir) = jvd_seeded("jvd-queue", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            v["TC_TO_QUEUE_MAP"]["FABRICC"]["3"] = "5".into();
        })
    });
    let d: Vec<&Diagnostic> = i
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "FAB990")
        .collect();
    assert_eq!(d.len(), 1, "{:?}", codes(&i));
    assert_eq!(
        d[0].message,
        "`leaf1` puts class `roce` (traffic class 3) in queue 5, while the fabric's plan (most switches) puts it in queue 4; the `.fab` keeps queue 4 for every switch and judges `leaf1`'s class on the scheduler and ECN of its queue 5"
    );
    let (a, _) = s.span_lines(d[0].primary.span);
    assert_eq!(
        (s.get(d[0].primary.span.file).display.as_str(), a.line),
        (
            "state/leaf1/config_db.json",
            line_of(
                &dir,
                "leaf1/config_db.json",
                "\"PORT_QOS_MAP\"",
                "\"tc_to_queue_map\""
            )
        )
    );
    // The PFC priority still pauses queue 4 there: that is a value the `.fab` cannot carry.
    assert!(
        codes(&i)
            .iter()
            .any(|(c, m)| c == "FAB965" && m.contains("maps PFC priority 3 to queue 4")),
        "{:?}",
        codes(&i)
    );
    // The fabric keeps the plan; leaf1's RoCE is judged on its queue 5: no scheduler, no ECN.
    assert!(i.text.contains("queue 4  lossless"));
    assert!(i.text.contains("ecn roce off"), "{}", i.text);
}

#[test]
fn seeded_rate_caps_that_the_fab_cannot_carry() {
    // Another whole percent on one switch (6 % at both speeds): `rate` is fabric-wide.
    let (i, _, _) = jvd_seeded("jvd-rate", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            for (k, r) in [
                ("FABRICC_Q3_400000", "3000000000"),
                ("FABRICC_Q3_800000", "6000000000"),
            ] {
                v["SCHEDULER"][k]["cir"] = r.into();
                v["SCHEDULER"][k]["pir"] = r.into();
            }
        })
    });
    assert_eq!(
        codes(&i),
        vec![(
            "FAB965".to_string(),
            "`leaf1` gives class `cnp` a rate cap of 6 % on queue 3, while most switches give it `rate 5%`; `rate` is fabric-wide, so the `.fab` keeps `rate 5%`".to_string()
        )]
    );
    // Not a whole percent of the port.
    let (i, _, _) = jvd_seeded("jvd-rate-odd", |d| {
        edit(d, "spine1/config_db.json", |v| {
            v["SCHEDULER"]["FABRICC_Q3_800000"]["cir"] = "5000000001".into();
            v["SCHEDULER"]["FABRICC_Q3_800000"]["pir"] = "5000000001".into();
        })
    });
    let c = codes(&i);
    assert!(
        c.iter().any(|(k, m)| k == "FAB965"
            && m.starts_with("queue 3 of `spine1` is capped at 5000000001 bytes/s")),
        "{c:?}"
    );
}

#[test]
fn seeded_ecn_differs_at_one_speed_on_one_switch() {
    // leaf1 marks its 800G uplinks from 1.2 MB; its 400G host ports as the fabric.
    let (i, _, dir) = jvd_seeded("jvd-ecn", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            v["WRED_PROFILE"]["FABRICC_ECN_Q4_800G"]["green_min_threshold"] = "1200000".into();
        })
    });
    assert_eq!(codes(&i), vec![]);
    assert!(
        i.text
            .contains("    class roce { ecn 800G min 1200KB  max 6MB  probability 100% }"),
        "{}",
        i.text
    );
    // The switch's own per-speed value is what `check` judges there.
    let c = check_text(dir.parent().unwrap(), &i.text);
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
}

/// A Junos `config` or an NVUE `startup.yaml` that is not one is FAB961 at the file, with
/// what it is not, and the other devices still import.
#[test]
fn a_config_that_does_not_parse_is_fab961_at_its_file() {
    let dir = scratch("not-config").join("state");
    for (dev, file, text) in [
        ("leaf1", "config", "class-of-service {\n  classifiers {\n"),
        ("leaf2", "startup.yaml", "- set:\n  qos: [\n"),
    ] {
        fs::create_dir_all(dir.join(dev)).unwrap();
        fs::write(dir.join(dev).join(file), text).unwrap();
    }
    let mut sources = Sources::new();
    let input = Input {
        state_dir: &dir,
        state_display: "state".into(),
        max_input_bytes: Limits::default().max_input_bytes,
        name: Some("lab".into()),
    };
    let i = import::import(&input, &mut sources);
    let diags = match &i {
        Ok(i) => i.diagnostics.clone(),
        Err(e) => panic!("{e:?}"),
    };
    let msgs: Vec<(String, String)> = diags
        .iter()
        .filter(|d| d.code.as_str() == "FAB961")
        .map(|d| {
            (
                d.message.clone(),
                sources.get(d.primary.span.file).display.clone(),
            )
        })
        .collect();
    assert!(
        msgs.iter()
            .any(|(m, f)| m.contains("is not a Junos configuration") && f.ends_with("leaf1/config")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(
            |(m, f)| m.contains("is not an NVUE document") && f.ends_with("leaf2/startup.yaml")
        ),
        "{msgs:?}"
    );
}
