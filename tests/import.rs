//! `fabricc import` and `check --state` (issue 17): round trip from a build's output back to
//! the same facts, seeded real-world defects each reported exactly at the state file, bad
//! inputs as import findings, and parsers that never panic.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use fabricc::diagnostic::Diagnostic;
use fabricc::import::{self, Input};
use fabricc::lower::Targets;
use fabricc::model::Limits;
use fabricc::output::generate::{BuildInput, generate};
use fabricc::pipeline::{self, Checked};
use fabricc::render::{Artifact, ArtifactKind, Templates};
use fabricc::source::Sources;
use fabricc::verify::synth;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
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

fn build(fab: &Path) -> (Checked, Vec<Artifact>) {
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
    let _ = ArtifactKind::Switch;
    for (rel, text) in synth::state(fabric, files) {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

fn state_of(fixture: &str, name: &str) -> PathBuf {
    let (checked, files) = build(&root().join("fixtures/build/inputs").join(fixture));
    let dir = scratch(name).join("state");
    fs::create_dir_all(&dir).unwrap();
    write_state(&checked, &files, &dir);
    dir
}

fn import_dir(dir: &Path) -> (import::Imported, Sources) {
    let mut sources = Sources::new();
    let input = Input {
        state_dir: dir,
        state_display: "state".into(),
        max_input_bytes: Limits::default().max_input_bytes,
        name: Some("lab".into()),
    };
    let i = import::import(&input, &mut sources).expect("imports");
    (i, sources)
}

fn codes(d: &[Diagnostic]) -> Vec<String> {
    d.iter().map(|d| d.code.as_str().to_string()).collect()
}

fn check_text(dir: &Path, text: &str) -> Checked {
    let p = dir.join("imported.fab");
    fs::write(&p, text).unwrap();
    let mut sources = Sources::new();
    pipeline::check(&mut sources, &p, &Limits::default()).expect("readable")
}

fn tables(files: &[Artifact], device: &str) -> BTreeMap<String, serde_json::Value> {
    let a = files
        .iter()
        .find(|a| a.device == device && a.path.ends_with("config_db.json"))
        .unwrap_or_else(|| panic!("{device} has a config_db.json"));
    let v: serde_json::Value = serde_json::from_str(&a.contents).unwrap();
    v.as_object().unwrap().clone().into_iter().collect()
}

/// What the `.fab` cannot carry from a SONiC fabric built by fabricc, by device kind: the
/// host files name the NIC by model (`platform nvidia-cx7` and its firmware notes), which a
/// host's `state.json` does not hold; every switch file is reproduced byte for byte.
const NOT_CARRIED: &[&str] = &["hosts/"];

fn round_trip(fixture: &Path) {
    let name = fixture.file_stem().unwrap().to_string_lossy().into_owned();
    let (orig, ofiles) = build(fixture);
    let dir = scratch(&name).join("state");
    fs::create_dir_all(&dir).unwrap();
    write_state(&orig, &ofiles, &dir);
    let (i, _) = import_dir(&dir);
    assert!(
        i.diagnostics.iter().all(|d| d.code.as_str() == "FAB966"),
        "{name}: only inferences expected: {:?}",
        i.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let c = check_text(dir.parent().unwrap(), &i.text);
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
    let (ha, hb) = (sorted(&a.headroom), sorted(&b.headroom));
    assert_eq!(ha.len(), hb.len(), "{name}: headroom rows");
    if let Some((x, y)) = ha.iter().zip(&hb).find(|(x, y)| x != y) {
        panic!("{name}: headroom row\n{x}\n{y}");
    }
    let dbg = |v: &dyn std::fmt::Debug| format!("{v:?}");
    assert_eq!(dbg(&a.ecn), dbg(&b.ecn), "{name}: ECN rows");
    assert_eq!(dbg(&a.oversubscription), dbg(&b.oversubscription), "{name}: oversubscription");
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
                let mut p: Vec<u8> = s.ports.iter().flat_map(|p| p.lossless_priorities.clone()).collect();
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
            NOT_CARRIED.iter().any(|n| p.starts_with(n)),
            "{name}: `{p}` differs after the round trip"
        );
    }
    // Every switch's CONFIG_DB, table by table.
    for (p, t) in x.iter().filter(|(p, _)| p.ends_with("config_db.json")) {
        assert_eq!(Some(t), y.get(p), "{name}: {p}");
    }
}

#[test]
fn round_trip_sonic_fixtures() {
    round_trip(&root().join("fixtures/build/inputs/sonic-sn5600-2x2.fab"));
    round_trip(&root().join("fixtures/fabrics/pod-256.fab"));
}
