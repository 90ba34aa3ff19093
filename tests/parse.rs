//! The parser against its fixtures: every `.fab` under `fixtures/` and `grammar/` parses,
//! except those under an `err/` folder, which must fail with the code their name starts with
//! (`FAB004_misspelled_probability.fab`). Err files get a snapshot of the rendered error; ok
//! files a snapshot of their canonical printed form, and must survive print → parse → print.
//! Property tests: the parser never panics and keeps its spans inside the input; random trees
//! print and parse back to themselves.

use std::path::Path;

use fabricc::diagnostic::Diagnostic;
use fabricc::source::SourceFile;
use fabricc::span::FileId;
use fabricc::syntax::{self, ast};

/// `code: message`, the place, the source line and a caret under the span, then help: a stable
/// text form for snapshots (the real renderer lives in `diagnostic`).
fn render(d: &Diagnostic, src: &SourceFile) -> String {
    let start = src.line_col(d.primary.span.start as usize);
    let end = src.line_col(d.primary.span.end as usize);
    // Control characters (FAB008 files) would make the snapshot binary.
    let line: String = src
        .line_text(start.line)
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    let pad: String = line
        .chars()
        .take(start.column - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = if end.line == start.line {
        end.column.saturating_sub(start.column).max(1)
    } else {
        line.chars().count().saturating_sub(start.column - 1).max(1)
    };
    let mut out = format!(
        "{}: {}\n --> {}:{}\n",
        d.code, d.message, start.line, start.column
    );
    out.push_str(&format!("  | {line}\n  | {pad}{}", "^".repeat(width)));
    if !d.primary.text.is_empty() {
        out.push_str(&format!(" {}", d.primary.text));
    }
    out.push('\n');
    if let Some(help) = &d.help {
        out.push_str(&format!(" help: {help}\n"));
    }
    out
}

/// Debug text of a tree with every span blanked, to compare trees modulo spans.
fn without_spans(file: &ast::File) -> String {
    let text = format!("{file:#?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(k) = rest.find("Span {") {
        out.push_str(&rest[..k]);
        out.push_str("Span");
        let after = &rest[k..];
        let end = after.find('}').map_or(after.len(), |e| e + 1);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// print → parse → print is stable, and the reparsed tree equals the tree modulo spans.
#[track_caller]
fn assert_round_trip(tree: &ast::File, what: &str) -> String {
    let printed = syntax::print(tree);
    let again = match syntax::parse(FileId(0), &printed) {
        Ok(t) => t,
        Err(d) => {
            let src = SourceFile::new("printed", "printed", printed.clone());
            panic!(
                "{what}: the printed form does not parse:\n{}\n{printed}",
                render(&d, &src)
            )
        }
    };
    assert_eq!(
        syntax::print(&again),
        printed,
        "{what}: print is not stable"
    );
    assert_eq!(
        without_spans(&again),
        without_spans(tree),
        "{what}: the tree changed"
    );
    printed
}

fn is_err_fixture(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == "err")
}

#[test]
fn fixtures() {
    insta::glob!("../fixtures", "**/*.fab", |path| check_file(path));
}

#[test]
fn grammar_examples() {
    insta::glob!("../grammar", "**/*.fab", |path| check_file(path));
}

fn check_file(path: &Path) {
    let text = read(path);
    let src = SourceFile::new(path, path.display().to_string(), text.clone());
    let result = syntax::parse(FileId(0), &text);
    if is_err_fixture(path) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let expected = name.split('_').next().unwrap_or_default();
        match result {
            Ok(_) => panic!(
                "{}: parsed, but should fail with {expected}",
                path.display()
            ),
            Err(d) => {
                assert_eq!(
                    d.code.as_str(),
                    expected,
                    "{}: wrong code\n{}",
                    path.display(),
                    render(&d, &src)
                );
                assert!(d.primary.span.end as usize <= text.len());
                insta::assert_snapshot!(render(&d, &src));
            }
        }
    } else {
        match result {
            Ok(tree) => {
                let printed = assert_round_trip(&tree, &path.display().to_string());
                insta::assert_snapshot!(printed);
            }
            Err(d) => panic!("{}: does not parse\n{}", path.display(), render(&d, &src)),
        }
    }
}
