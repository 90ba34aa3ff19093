//! Every citation a user or contributor can follow resolves: a `*.md` file named in the
//! sources, docs, templates, catalogue, grammar or a generated `report.md` is a file of this
//! repository; a URL is a public `https://` or `http://` address; a repository source is pinned
//! to a commit (`owner/repo@<hex>`). Notes that live outside the repository are not citations
//! a reader can follow, so naming them fails here (issue 21, item 5).

use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The trees whose text is shipped or read by users and contributors. `fixtures/build` holds
/// the golden build outputs, hence every generated `report.md`.
const TREES: &[&str] = &[
    "src",
    "docs",
    "vendor-templates",
    "catalogue",
    "grammar",
    "scripts",
    "fixtures",
    "tests",
];
const FILES: &[&str] = &["README.md", "Cargo.toml", ".ci/run"];

/// Files named as *outputs* (what fabricc or a tool writes), not cited as documents.
const OUTPUT_NAMES: &[&str] = &["report.md", "FILE.md", "CODE.md", "NAME.md", "drift.md"]; // drift.md: `verify --report`

/// Folders of a build's output: a `.md` under them (`programs/host/README.md`, written once per
/// build next to the host programs) is an output, like `report.md`, not a repository document.
const OUTPUT_DIRS: &[&str] = &["programs/"];

/// Notes that are not in the repository; citing them strands the reader.
const UNPUBLISHED: &[&str] = &[
    "../shared",
    "theory.md",
    "vendors.md",
    "sonic.md",
    "LANGUAGE.md",
    "DESIGN.md",
    "reviews/",
];

fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" || name == "snapshots" {
            continue;
        }
        if path.is_dir() {
            text_files(&path, out);
        } else if fs::metadata(&path).is_ok_and(|m| m.len() < 4_000_000) {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<(PathBuf, String)> {
    let root = Path::new(ROOT);
    let mut paths = Vec::new();
    for tree in TREES {
        text_files(&root.join(tree), &mut paths);
    }
    paths.extend(FILES.iter().map(|f| root.join(f)));
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let text = String::from_utf8(fs::read(&p).ok()?).ok()?;
            Some((p, text))
        })
        .collect()
}

/// Every file name in the repository, for bare `name.md` citations.
fn repo_markdown_names(corpus: &[(PathBuf, String)]) -> Vec<String> {
    let mut names: Vec<String> = corpus
        .iter()
        .filter_map(|(p, _)| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    names.dedup();
    names
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_./-:@%#?=&~+".contains(c)
}

/// The whitespace/quote-delimited tokens of a line.
fn tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !is_token_char(c))
        .filter(|t| !t.is_empty())
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// A `*.md` token that is not part of a URL or of a repository path at a commit.
fn markdown_citation(token: &str) -> Option<&str> {
    let token = token.trim_end_matches(['.', ':', ',']);
    let cut = token.find('#').unwrap_or(token.len());
    let file = &token[..cut];
    // `owner/repo@commit:path.md` is another repository's file; `pin_problem` judges it.
    let external = file.contains("://") || file.contains('@') || file.contains(':');
    (file.ends_with(".md") && !external).then_some(file)
}

fn resolves(file: &str, from: &Path, names: &[String]) -> bool {
    let base = file.rsplit('/').next().unwrap_or(file);
    let stem = base.trim_end_matches(".md");
    // `a/report.md` in a diff, `docs/codes/FABnnn.md` as a pattern: outputs and placeholders.
    if OUTPUT_NAMES.contains(&base)
        || OUTPUT_DIRS.iter().any(|d| file.starts_with(d))
        || stem.is_empty()
        || stem.contains("nnn")
    {
        return true;
    }
    if file.contains('/') {
        let root = Path::new(ROOT);
        let here = from.parent().unwrap_or(root);
        return here.join(file).exists() || root.join(file.trim_start_matches('/')).exists();
    }
    names.iter().any(|n| n == file)
}

#[test]
fn every_citation_resolves() {
    let corpus = corpus();
    assert!(
        corpus.len() > 100,
        "the corpus walk found {} files",
        corpus.len()
    );
    let names = repo_markdown_names(&corpus);
    let mut broken = Vec::new();
    for (path, text) in &corpus {
        let rel = relative(path);
        // This file names the unpublished notes on purpose.
        if rel == "tests/it/citations.rs" {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            // A line that shows a bad citation on purpose (a test of a validator) says so.
            if line.contains("not a citation:") || line.contains("uses:") {
                continue;
            }
            let at = format!("{rel}:{}", n + 1);
            for note in UNPUBLISHED {
                // A file of this repository whose name ends like a note (`docs/change/sonic.md`)
                // is not the note.
                let only_repository_files = line.match_indices(note).all(|(i, _)| {
                    let start = line[..i]
                        .rfind(|c: char| !is_token_char(c))
                        .map_or(0, |j| j + 1);
                    let path = &line[start..i + note.len()];
                    path.contains('/') && Path::new(ROOT).join(path).is_file()
                });
                if line.contains(note) && !only_repository_files {
                    broken.push(format!(
                        "{at}: cites `{note}`, which is not in the repository"
                    ));
                }
            }
            for token in tokens(line) {
                if let Some(file) = markdown_citation(token)
                    && !UNPUBLISHED.iter().any(|u| file.contains(u))
                    && !line.contains("github.com")
                    && !names_a_pinned_repository(line)
                    && !line.contains("content/")
                    && !resolves(file, path, &names)
                {
                    broken.push(format!("{at}: `{file}` is not a file of the repository"));
                }
                if let Some(problem) = url_problem(token) {
                    broken.push(format!("{at}: {problem}"));
                }
                if let Some(problem) = pin_problem(token) {
                    broken.push(format!("{at}: {problem}"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken citation(s):\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// A line that cites another repository at a commit: its relative `*.md` paths are that
/// repository's files (`sonic-net/SONiC@98de38fd1512: `doc/qos/x.md``).
fn names_a_pinned_repository(line: &str) -> bool {
    tokens(line).any(|t| {
        let Some((repo, rest)) = t.split_once('@') else {
            return false;
        };
        let hex: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
        repo.split('/').count() == 2 && hex.len() >= 7
    })
}

/// A URL a reader cannot open from anywhere: a local file, a private address, no host.
fn url_problem(token: &str) -> Option<String> {
    let start = token.find("://")?;
    if token.len() == start + 3 {
        return None; // prose about the scheme itself ("its `https://` address")
    }
    let scheme = &token[..start];
    let scheme = scheme.rsplit(|c: char| !c.is_ascii_alphabetic()).next()?;
    let rest = &token[start + 3..];
    let host = rest.split(['/', ':', '?', '#']).next().unwrap_or("");
    if !matches!(scheme, "http" | "https") {
        // `git://`, `ssh://` and the like are not citations; `file://` is a local path.
        return (scheme == "file").then(|| format!("`{token}` is a local file, not a citation"));
    }
    let private = host.is_empty()
        || !host.contains('.')
        || host == "localhost"
        || host.starts_with("127.")
        || host.starts_with("10.")
        || host.starts_with("192.168.")
        || host.ends_with(".internal")
        || host.ends_with(".local")
        || host == "example.com"
        || host.contains('{');
    private.then(|| format!("`{token}` is not a public address"))
}

/// `owner/repo@ref` must name a commit (hex, at least 7 digits), not a moving branch.
fn pin_problem(token: &str) -> Option<String> {
    // `owner/repo:path`: another repository's file with no commit.
    if let Some((repo, path)) = token.split_once(':')
        && !token.contains('@')
        && !token.contains("://")
        && repo.split('/').count() == 2
        && repo
            .split('/')
            .all(|p| !p.is_empty() && !p.starts_with('.'))
        && path.contains('.')
        && !path.contains(':')
        && !path.starts_with('/')
    {
        return Some(format!(
            "`{token}` names a file of another repository without a commit"
        ));
    }
    let at = token.find('@')?;
    let before = &token[..at];
    let repo = before
        .rsplit(['`', '(', '"', '\''])
        .next()
        .unwrap_or(before);
    let parts: Vec<&str> = repo.split('/').collect();
    if parts.len() != 2 || parts.iter().any(|p| p.is_empty()) || repo.contains(':') {
        return None;
    }
    let reference: String = token[at + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '.')
        .collect();
    let reference = reference.trim_end_matches('.');
    let placeholder = ["commit", "COMMIT", "rev", "REV", "sha"].contains(&reference)
        || token[at + 1..].starts_with(|c: char| c.is_ascii_digit()) && reference.contains('-');
    let pinned = reference.len() >= 7 && reference.chars().all(|c| c.is_ascii_hexdigit());
    (!pinned && !placeholder && !reference.is_empty())
        .then(|| format!("`{repo}@{reference}` is not pinned to a commit"))
}

#[test]
fn the_checks_catch_what_they_are_for() {
    let names = vec!["physics.md".to_string()];
    let here = Path::new(ROOT).join("docs/physics.md");
    assert!(resolves("physics.md", &here, &names));
    assert!(resolves("deadlock.md", &here, &["deadlock.md".into()]));
    assert!(!resolves("theory.md", &here, &names));
    assert!(!resolves("../grammar/missing.md", &here, &names));
    assert!(url_problem("https://docs.nvidia.com/x").is_none());
    assert!(url_problem("http://localhost:8080/x").is_some());
    assert!(url_problem("file:///work/shared/x.md").is_some());
    assert!(url_problem("https://intranet/x").is_some());
    assert!(pin_problem("sonic-net/sonic-swss@e6b0c5b5d2ab").is_none());
    assert!(pin_problem("sonic-net/sonic-buildimage@main").is_some());
    assert!(pin_problem("owner/repo@commit").is_none());
    assert!(pin_problem("user@example.com").is_none());
    assert!(pin_problem("sonic-net/SONiC:doc/qos/x.md").is_some());
    assert!(pin_problem("sonic-net/SONiC@98de38fd1512:doc/qos/x.md").is_none());
    assert!(pin_problem("yang/junos-qfx-conf-root@2024-01-01.yang").is_none());
    assert_eq!(
        markdown_citation("docs/deadlock.md#the-model"),
        Some("docs/deadlock.md")
    );
    assert_eq!(markdown_citation("https://x.org/a.md"), None);
}
