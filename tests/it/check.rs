//! Check fixtures: every `fixtures/check/*.fab` carries `# expect: FABnnn` comments on the
//! line before each finding it must produce (in the file itself or in a file it imports).
//! The harness asserts that the set of (code, file, line) findings equals the expectations,
//! then snapshots the human and JSON renderings, so a change in wording shows up in review.

use std::collections::BTreeSet;
use std::path::Path;

use fabricc::diagnostic::{self, human::HumanStyle};
use fabricc::model::Limits;
use fabricc::model::load::Disk;
use fabricc::pipeline;
use fabricc::source::Sources;

fn expectations(sources: &Sources) -> BTreeSet<(String, String, usize)> {
    let mut out = BTreeSet::new();
    for (_, f) in sources.files() {
        let lines: Vec<&str> = f.text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("# expect:") else {
                continue;
            };
            // The finding sits on the next line that is not a comment.
            let target = (i + 1..lines.len())
                .find(|&j| !lines[j].trim_start().starts_with('#'))
                .map_or(i + 2, |j| j + 1);
            for code in rest.split_whitespace() {
                out.insert((code.to_string(), f.display.clone(), target));
            }
        }
    }
    out
}

/// The disk, with paths shown relative to the crate root whatever the process's current
/// directory: the snapshots show `fixtures/check/…`, and no test changes the directory that
/// every thread of the harness shares.
struct Rooted;

impl fabricc::model::load::Reader for Rooted {
    fn read(&self, path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
        Disk.read(path, limits)
    }
    fn key(&self, path: &Path) -> std::path::PathBuf {
        Disk.key(path)
    }
    fn display(&self, path: &Path) -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        Disk.display(path.strip_prefix(root).unwrap_or(path))
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn check_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    insta::glob!("../../fixtures/check", "*.{fab,yaml}", |path| {
        let rel = path.strip_prefix(root).unwrap_or(path);
        let mut sources = Sources::new();
        let checked = pipeline::check_from(&mut sources, &Rooted, path, &Limits::default())
            .expect("fixture readable");
        let actual: BTreeSet<(String, String, usize)> = checked
            .diagnostics
            .iter()
            .map(|d| {
                let (start, _) = sources.span_lines(d.primary.span);
                (
                    d.code.to_string(),
                    sources.get(d.primary.span.file).display.clone(),
                    start.line,
                )
            })
            .collect();
        let expected = expectations(&sources);
        assert_eq!(
            actual,
            expected,
            "findings of {} differ from its `# expect:` lines",
            rel.display()
        );
        let name = file_name(path);
        let code = name.split('_').next().unwrap_or("");
        assert!(
            checked.diagnostics.iter().any(|d| d.code.as_str() == code),
            "{name} must produce the code its name starts with"
        );
        let style = HumanStyle {
            color: false,
            width: 80,
        };
        let human = diagnostic::human::render_human(&checked.diagnostics, &sources, style);
        let json = diagnostic::json::render_json(
            checked.fabric_name(),
            &checked.diagnostics,
            None,
            &sources,
        );
        insta::assert_snapshot!(format!("{human}\n----- json -----\n{json}"));
    });
}

#[test]
fn good_fabrics_have_no_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in [
        "pod-256.fab",
        "cluster-2048.fab",
        "explicit-leaf-spine.fab",
        "split/pod.fab",
    ] {
        let path = root.join("fixtures/fabrics").join(name);
        let mut sources = Sources::new();
        let checked =
            pipeline::check(&mut sources, &path, &Limits::default()).expect("fixture readable");
        let shown = diagnostic::short::render_short(&checked.diagnostics, &sources);
        assert_eq!(checked.errors(), 0, "{name} has errors:\n{shown}");
        assert!(checked.fabric.is_some(), "{name} did not resolve");
    }
}

/// Syntax errors: each `fixtures/parse/err` file stops at one error whose code its name starts
/// with; the human and JSON renderings are snapshotted like the check fixtures.
#[test]
fn syntax_error_fixtures() {
    insta::glob!("../../fixtures/parse/err", "*.fab", |path| {
        let mut sources = Sources::new();
        let checked = pipeline::check_from(&mut sources, &Rooted, path, &Limits::default())
            .expect("fixture readable");
        let name = file_name(path);
        let code = name.split('_').next().unwrap_or("");
        let codes: Vec<&str> = checked
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert_eq!(
            codes,
            [code],
            "{name}: a syntax error stops at exactly one finding"
        );
        let style = HumanStyle {
            color: false,
            width: 80,
        };
        let human = diagnostic::human::render_human(&checked.diagnostics, &sources, style);
        let json = diagnostic::json::render_json(None, &checked.diagnostics, None, &sources);
        insta::assert_snapshot!(format!("{human}\n----- json -----\n{json}"));
    });
}

/// A fabric held in memory, for checks of a fixture's text after an edit.
struct Memory(String);

impl fabricc::model::load::Reader for Memory {
    fn read(&self, _: &Path, _: &Limits) -> Result<Vec<u8>, String> {
        Ok(self.0.clone().into_bytes())
    }
    fn key(&self, path: &Path) -> std::path::PathBuf {
        path.to_path_buf()
    }
    fn display(&self, path: &Path) -> String {
        path.to_string_lossy().into_owned()
    }
}

/// FAB617's help works: with `speed 800G` on the uplinks (and the L2 uplink written before
/// the host links that took its 800G ports) the finding is gone and every uplink runs 800G.
#[test]
fn fab617_fix_clears_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("fixtures/check/FAB617_uplink_on_slow_port.fab"))
        .expect("fixture readable");
    let l2_hosts = "  link h[3..4] -- L2 { cable 2m }\n";
    let fixed = text
        .replace(
            "link L1 -- S1 { cable 30m  count 2 }",
            "link L1 -- S1 { speed 800G  cable 30m  count 2 }",
        )
        .replace("  link L2 -- S1 { cable 30m }\n", "")
        .replace(
            l2_hosts,
            &format!("  link L2 -- S1 {{ speed 800G  cable 30m }}\n{l2_hosts}"),
        );
    assert_ne!(
        fixed, text,
        "the fixture still has the lines this test edits"
    );
    let mut sources = Sources::new();
    let name = Path::new("fixed.fab");
    let checked = pipeline::check_from(&mut sources, &Memory(fixed), name, &Limits::default())
        .expect("in memory");
    let codes: Vec<&str> = checked
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert!(!codes.contains(&"FAB617"), "{codes:?}");
    let f = checked.fabric.expect("resolves");
    let uplinks: Vec<u64> = f
        .links
        .iter()
        .filter(|l| {
            matches!(
                (l.a.device, l.b.device),
                (
                    fabricc::model::DeviceId::Switch(_),
                    fabricc::model::DeviceId::Switch(_)
                )
            )
        })
        .map(|l| l.speed.get() / 1000)
        .collect();
    // Two L1 uplinks and the L2 one at 800G; the last statement asks for 400G.
    assert_eq!(uplinks, [800, 800, 800, 400]);
}

/// The messages of FAB617 name the port the link got and the faster one, free or held.
#[test]
fn fab617_messages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Sources::new();
    let checked = pipeline::check(
        &mut sources,
        &root.join("fixtures/check/FAB617_uplink_on_slow_port.fab"),
        &Limits::default(),
    )
    .expect("fixture readable");
    let messages: Vec<&str> = checked
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "FAB617")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "2 links of this statement run 400G on 400G ports of `L1` (the first on `L1.port3`) while `L1.port33` (800G) is free: statement order took the first free port",
            "this link runs 400G on `L2.port3`, a 400G port, while `L2.port1` (800G) carries a 400G link written earlier: statement order gave the fast port to the slow link",
        ]
    );
}
