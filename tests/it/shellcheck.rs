//! Every shell program fabricc ships, and the repository's own scripts, pass ShellCheck at
//! every severity (review R5: it never ran in CI). The generated programs are checked in
//! their committed golden outputs, so each template is linted as a build really renders it,
//! with every option its fixtures turn on (bonds, DCBNL drivers, hccn, SONiC's apply.sh).
//! Identical files are linted once, all in one ShellCheck run (issue 36: linting each of the
//! 51 files took a minute of the suite).

use std::collections::BTreeMap;
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
    // The goldens hold the same few programs many times over (48 files, 9 distinct texts in
    // December 2026): each text is linted once, in one run, under its first path.
    let mut by_text: BTreeMap<Vec<u8>, Vec<&Path>> = BTreeMap::new();
    for s in &scripts {
        let text = std::fs::read(s).unwrap_or_else(|e| panic!("{}: {e}", s.display()));
        by_text.entry(text).or_default().push(s);
    }
    let mut distinct: Vec<&Path> = by_text.values().map(|paths| paths[0]).collect();
    distinct.sort();
    let Some(o) = crate::support::shellcheck_all(&distinct) else {
        return;
    };
    let copies: Vec<String> = by_text
        .values()
        .filter(|paths| paths.len() > 1)
        .map(|paths| {
            format!(
                "{} is also {}",
                paths[0].display(),
                paths[1..]
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    assert!(
        o.status.success(),
        "{}\n(identical copies: {})",
        String::from_utf8_lossy(&o.stdout),
        copies.join("; ")
    );
}
