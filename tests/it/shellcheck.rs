//! Every shell program fabricc ships, and the repository's own scripts, pass ShellCheck at
//! every severity (review R5: it never ran in CI). The generated programs are checked in
//! their committed golden outputs, so each template is linted as a build really renders it,
//! with every option its fixtures turn on (bonds, DCBNL drivers, hccn, SONiC's apply.sh).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn programs_under(dir: &Path, inside_programs: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            programs_under(&p, inside_programs || name == "programs", out);
        } else if inside_programs && name.ends_with(".sh") {
            out.push(p);
        }
    }
}

#[test]
fn every_shipped_program_and_repository_script_passes_shellcheck() {
    let mut scripts = Vec::new();
    programs_under(&root().join("fixtures/build"), false, &mut scripts);
    programs_under(&root().join("tests/golden"), false, &mut scripts);
    let generated = scripts.len();
    assert!(
        generated >= 20,
        "the goldens hold the generated programs ({generated} found)"
    );
    for s in ["scripts/oracles.sh", "fuzz/seed.sh", ".ci/run"] {
        scripts.push(root().join(s));
    }
    let mut failures = Vec::new();
    for script in &scripts {
        let Some(o) = crate::support::shellcheck(script) else {
            return;
        };
        if !o.status.success() {
            failures.push(format!(
                "{}:\n{}",
                script.display(),
                String::from_utf8_lossy(&o.stdout)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
