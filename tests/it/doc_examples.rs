//! Every example in the documentation is a test (issue 37 item 3, U5, U12): each ```fab block
//! of `docs/` and of the README that is a whole fabric (it opens with `fabric`) is checked.
//! An explanation page's example (`docs/codes/FABnnn.md`, "## Example") must give its own
//! code, and no error of another code; any other whole fabric in the docs must check without
//! errors. A block that is a fragment (a statement or block shown inside its text) must
//! parse inside a fabric (unless it elides with `…`). Every fixture the README cites must exist, and one cited as
//! checking clean ("no deadlock", "checks clean") must.

use std::path::{Path, PathBuf};

use fabricc::diagnostic::{Code, Diagnostic, Severity};
use fabricc::model::{Limits, load};
use fabricc::pipeline;
use fabricc::source::Sources;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The ```fab blocks of a Markdown text, each with the line it starts on.
fn fab_blocks(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match &mut current {
            None if line.trim_start().starts_with("```fab") => {
                current = Some((n + 1, String::new()))
            }
            Some((start, body)) if line.trim_start().starts_with("```") => {
                out.push((*start, std::mem::take(body)));
                current = None;
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    out
}

/// Pages whose finding `check` of one `.fab` text cannot show, and why; their example must
/// still be a fabric that checks without errors, unless it is not one (input forms).
const NOT_FROM_CHECK: &[(&str, &str)] = &[
    (
        "FAB008",
        "an input that is not text: the example names the file, it is not one",
    ),
    (
        "FAB010",
        "two files importing each other: the example shows both in one block",
    ),
    (
        "FAB012",
        "a YAML input: the example is the .fab form of what the YAML meant",
    ),
    ("FAB902", "a template override (`--templates`) of `build`"),
    (
        "FAB912",
        "a template override (`--templates`) of `build` that the read-back catches",
    ),
];

/// Whether `code`'s finding comes from comparing with devices (`verify`, `import`) or from
/// two builds (`plan`): its example fabric must check clean instead.
fn from_devices(code: Code) -> bool {
    use fabricc::diagnostic::Category;
    matches!(
        code.category(),
        Category::Drift | Category::Wiring | Category::Import | Category::Rollout
    )
}

fn check(name: &str, text: &str) -> Vec<Diagnostic> {
    let mut sources = Sources::new();
    let limits = Limits::default();
    let loaded = load::load_text(&mut sources, name, text.to_string(), &limits);
    pipeline::check_loaded(&sources, loaded, &limits).diagnostics
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("docs folder") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            markdown_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

fn describe(d: &[Diagnostic]) -> String {
    d.iter()
        .map(|d| format!("{} {}: {}", d.code, d.severity.as_str(), d.message))
        .collect::<Vec<_>>()
        .join("\n    ")
}

#[test]
fn every_fab_example_in_the_docs_checks_as_its_text_says() {
    let mut files = vec![root().join("README.md")];
    markdown_files(&root().join("docs"), &mut files);
    files.sort();
    let mut failures = Vec::new();
    let mut whole = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        let rel = file
            .strip_prefix(root())
            .unwrap_or(file)
            .display()
            .to_string();
        let page_code = file
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|_| rel.starts_with("docs/codes/"))
            .and_then(Code::parse);
        for (line, block) in fab_blocks(&text) {
            let name = format!("{rel}:{line}");
            let is_whole = block
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with('#'))
                .is_some_and(|l| l.starts_with("fabric ") || l.starts_with("import "));
            // A fragment with an ellipsis (`pci 18:00.0, …`) shows a form, not a text to check.
            if !is_whole && block.contains('…') {
                continue;
            }
            if !is_whole {
                let wrapped = format!("fabric example {{\n{block}\n}}\n");
                let d = check(&name, &wrapped);
                let syntax: Vec<Diagnostic> = d
                    .into_iter()
                    .filter(|d| d.code.as_str() < "FAB100" && d.severity == Severity::Error)
                    .collect();
                if !syntax.is_empty() && page_code.is_none_or(|c| c.as_str() >= "FAB100") {
                    failures.push(format!("{name} (fragment): {}", describe(&syntax)));
                }
                continue;
            }
            whole += 1;
            let exempt = page_code.and_then(|c| {
                NOT_FROM_CHECK
                    .iter()
                    .any(|(e, _)| *e == c.as_str())
                    .then_some(true)
                    .or(from_devices(c).then_some(false))
            });
            if exempt == Some(true) {
                continue;
            }
            // A verify/import page's fabric is the one the devices are compared with.
            let page_code = page_code.filter(|_| exempt.is_none());
            let d = check(&name, &block);
            let errors: Vec<&Diagnostic> = d
                .iter()
                .filter(|d| d.severity == Severity::Error && Some(d.code) != page_code)
                .collect();
            match page_code {
                Some(code) if !d.iter().any(|d| d.code == code) => failures.push(format!(
                    "{name}: the example of {code} does not give {code}:\n    {}",
                    describe(&d)
                )),
                _ if !errors.is_empty() => failures.push(format!(
                    "{name}: errors the text does not show:\n    {}",
                    describe(&d)
                )),
                _ => {}
            }
        }
    }
    assert!(whole > 50, "only {whole} whole fabrics found in the docs");
    assert!(
        failures.is_empty(),
        "{} examples fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every fixture path the README and docs name exists, and every fabric of
/// `fixtures/fabrics/` (the README's examples, the scale fixtures it quotes verdicts for, the
/// published designs) checks without errors. The 100,000-GPU fixtures are left to the
/// benchmarks: unoptimised, their proof alone takes minutes.
#[test]
fn cited_fixtures_exist_and_the_example_fabrics_check() {
    let mut files = vec![root().join("README.md")];
    markdown_files(&root().join("docs"), &mut files);
    let mut missing = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        for (i, _) in text.match_indices("fixtures/") {
            let path: String = text[i..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "/._-".contains(*c))
                .collect();
            let path = path.trim_end_matches(['.', '/']);
            // Templates of names (`fixtures/check/FABnnn_what.fab`) are not paths.
            if path.contains("FABnnn") || path.contains("FAB9nn") || path.ends_with('_') {
                continue;
            }
            if !root().join(path).exists() {
                missing.push(format!("{}: {path}", file.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited fixtures that do not exist:\n{}",
        missing.join("\n")
    );

    let mut fabrics = Vec::new();
    for dir in ["fixtures/fabrics", "fixtures/fabrics/designs"] {
        for e in std::fs::read_dir(root().join(dir)).expect("fixture folder") {
            let p = e.expect("entry").path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".fab") && !name.starts_with("cluster-100k") {
                fabrics.push(p);
            }
        }
    }
    fabrics.push(root().join("fixtures/fabrics/split/pod.fab"));
    fabrics.sort();
    let mut failing = Vec::new();
    for p in &fabrics {
        let mut sources = Sources::new();
        let checked = pipeline::check(&mut sources, p, &Limits::default()).expect("readable");
        let errors: Vec<Diagnostic> = checked
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        if !errors.is_empty() {
            failing.push(format!("{}:\n    {}", p.display(), describe(&errors)));
        }
    }
    assert!(fabrics.len() >= 12, "{} fabrics", fabrics.len());
    assert!(
        failing.is_empty(),
        "example fabrics with errors:\n{}",
        failing.join("\n")
    );
}
