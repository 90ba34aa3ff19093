//! Every input `cargo fuzz` found a crash with (`fuzz/crashes/`) stays a test: `check` and
//! `build` of it must end with a finding or a build (exit 0, 1 or 2), never a panic, and an
//! input that found a panic must now report errors instead.

use crate::support::Fabricc;
use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fabricc(args: &[&str]) -> Output {
    Fabricc::new().args(args).args(["--color", "never"]).run()
}

fn crashes() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("fuzz/crashes"))
        .expect("fuzz/crashes")
        .map(|e| e.expect("entry").path())
        .collect();
    v.sort();
    v
}

#[test]
fn every_fuzz_crash_input_is_now_a_clean_finding() {
    let inputs = crashes();
    assert!(
        !inputs.is_empty(),
        "fuzz/crashes holds the regression inputs"
    );
    for input in &inputs {
        let path = input.to_str().expect("utf-8 path");
        let check = fabricc(&["check", "--format", "short", path]);
        let out = String::from_utf8_lossy(&check.stderr).into_owned()
            + &String::from_utf8_lossy(&check.stdout);
        assert_eq!(check.status.code(), Some(1), "{path}: check exits 1\n{out}");
        assert!(!out.contains("panicked"), "{path}: {out}");
        // Both inputs are one-port leaf tiers: the port split reports FAB606.
        assert!(out.contains("FAB606"), "{path}: expected FAB606\n{out}");

        let dir = std::env::temp_dir().join(format!(
            "fabricc-regression-{}-{}",
            std::process::id(),
            Path::new(path)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("x")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let dir_s = dir.to_str().expect("utf-8 path");
        let build = fabricc(&["build", path, "-o", dir_s, "--allow-warnings"]);
        assert_eq!(build.status.code(), Some(1), "{path}: build exits 1");
        assert!(!dir.exists(), "{path}: a failed build writes nothing");
    }
}
