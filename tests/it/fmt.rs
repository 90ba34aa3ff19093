//! `fabricc fmt`: idempotent, meaning-preserving (the parsed tree prints the same before and
//! after), whitespace-insensitive, and safe (a syntax error leaves the file untouched).

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use fabricc::span::FileId;
use fabricc::syntax::{self, format::format};

fn fab_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        "fixtures/fabrics",
        "fixtures/fabrics/split",
        "fixtures/fabrics/designs",
        "fixtures/check",
        "fixtures/parse/ok",
        "grammar/examples",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == "fab") {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

fn meaning(text: &str) -> String {
    crate::printer::print(&syntax::parse(FileId(0), text).expect("parses"))
}

#[test]
fn idempotent_and_meaning_preserving_on_every_fixture() {
    let files = fab_files();
    assert!(files.len() > 40, "found only {} files", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let once = format(FileId(0), &text)
            .unwrap_or_else(|d| panic!("{}: {}", path.display(), d.message));
        let twice = format(FileId(0), &once).expect("formatted text parses");
        assert_eq!(once, twice, "{}: fmt is not idempotent", path.display());
        assert_eq!(
            meaning(&text),
            meaning(&once),
            "{}: fmt changed the meaning",
            path.display()
        );
        for c in text
            .lines()
            .filter_map(|l| l.find('#').map(|i| l[i..].trim_end()))
        {
            if !c.contains('"') {
                assert!(
                    once.contains(c),
                    "{}: lost the comment {c:?}",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn the_example_fabrics_are_formatted() {
    for name in [
        "pod-256.fab",
        "cluster-2048.fab",
        "cluster-100k.fab",
        "explicit-leaf-spine.fab",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/fabrics")
            .join(name);
        let text = std::fs::read_to_string(&path).expect("readable");
        assert_eq!(
            format(FileId(0), &text).expect("parses"),
            text,
            "{name} is not in canonical layout"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Extra spaces and blank lines anywhere they are allowed do not change the result.
    #[test]
    fn whitespace_does_not_matter(file in 0usize..1000, seeds in proptest::collection::vec((any::<usize>(), 0usize..3), 1..20)) {
        let files = fab_files();
        let path = &files[file % files.len()];
        let text = std::fs::read_to_string(path).expect("readable");
        let canonical = format(FileId(0), &text).expect("parses");
        let mut mangled = canonical.clone();
        for (at, kind) in seeds {
            // Only at existing spaces or line ends, never inside a token or string.
            let spots: Vec<usize> = mangled.match_indices([' ', '\n']).map(|(i, _)| i).collect();
            if spots.is_empty() { break; }
            let i = spots[at % spots.len()];
            if mangled[..i].matches('"').count() % 2 == 1 || mangled[..i].rsplit('\n').next().is_some_and(|l| l.contains('#')) { continue; }
            match kind {
                0 => mangled.insert(i, ' '),
                1 => mangled.insert_str(i, "  \t"),
                // Only lengthen a blank line that is already there.
                _ => if mangled[..i].ends_with('\n') && mangled.as_bytes()[i] == b'\n' { mangled.insert(i, '\n') },
            }
        }
        prop_assert_eq!(format(FileId(0), &mangled).expect("still parses"), canonical);
    }
}

#[test]
fn cli_rewrites_in_place_and_check_reports() {
    let dir = std::env::temp_dir().join(format!("fabricc-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("a.fab");
    let bad = dir.join("b.fab");
    std::fs::write(&good, "fabric a {\n    mtu   9216\n}\n").expect("write");
    std::fs::write(&bad, "fabric b {\n  mtu 9216 {\n").expect("write");
    let run = |args: &[&str]| crate::support::Fabricc::new().args(args).run();
    let g = good.to_str().unwrap_or_default();
    let b = bad.to_str().unwrap_or_default();
    assert_eq!(run(&["fmt", "--check", g]).status.code(), Some(1));
    // `--diff` shows the change (U10) and changes nothing.
    let o = run(&["fmt", "--check", "--diff", g]);
    assert_eq!(o.status.code(), Some(1));
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(
        shown.contains("-    mtu   9216\n+  mtu 9216\n") && shown.contains(&format!("+++ b/{g}")),
        "{shown}"
    );
    assert_eq!(
        std::fs::read_to_string(&good).expect("read"),
        "fabric a {\n    mtu   9216\n}\n"
    );
    assert_ne!(
        run(&["fmt", "--diff", g]).status.code(),
        Some(0),
        "--diff needs --check"
    );
    assert_eq!(run(&["fmt", g]).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&good).expect("read"),
        "fabric a {\n  mtu 9216\n}\n"
    );
    assert_eq!(run(&["fmt", "--check", g]).status.code(), Some(0));
    let before = std::fs::read_to_string(&bad).expect("read");
    assert_eq!(run(&["fmt", b]).status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&bad).expect("read"),
        before,
        "a file with a syntax error is untouched"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("fabricc-fmt"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: `plane`, `bond` and `spare` on a host and `dual-tor` on a tier print as written,
/// so `fmt` keeps them; a misspelt bond mode or a plane out of range is a syntax error.
#[test]
fn bond_spare_plane_and_dual_tor_print_as_written() {
    let text = "fabric f {\n  host h1 { nic cx8  plane 1, 2  bond balance-xor  spare }\n  tier leaf { model m  dual-tor }\n}\n";
    let printed = meaning(text);
    for w in ["plane 1, 2", "bond balance-xor", "spare", "dual-tor"] {
        assert!(printed.contains(w), "`{w}` lost:\n{printed}");
    }
    assert_eq!(meaning(&printed), printed);
    let bad = syntax::parse(FileId(0), "host h1 { nic cx8  bond lcap }").expect_err("bad mode");
    assert_eq!(bad.code.as_str(), "FAB004", "{}", bad.message);
    assert!(
        bad.help.as_deref().unwrap_or("").contains("lacp"),
        "{:?}",
        bad.help
    );
    let bad = syntax::parse(FileId(0), "host h1 { nic cx8  plane 1, 17 }").expect_err("range");
    assert_eq!(bad.code.as_str(), "FAB005", "{}", bad.message);
}
