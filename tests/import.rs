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

#[test]
fn dump_sonic() {
    let dir = state_of("sonic-sn5600-2x2.fab", "dump");
    let (i, _) = import_dir(&dir);
    println!("{}", i.text);
    println!("{:?}", codes(&i.diagnostics));
    for d in &i.diagnostics { println!("{}", d.message); }
    let _ = BTreeMap::<u8, u8>::new();
    let _ = Command::new("true");
}
