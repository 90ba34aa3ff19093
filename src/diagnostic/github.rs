//! GitHub Actions output: one workflow command per diagnostic, so findings appear as
//! annotations on the lines of the `.fab` file in a pull request.
//!
//! In: sorted `Diagnostic`s and their `Sources`. Out: lines such as
//! `::error file=pod.fab,line=12,col=3,endLine=12,endColumn=20,title=FAB201 deadlock::message`.
//! Severity maps to `error`, `warning`, `notice`. Help, the cycle and notes follow the
//! message on their own lines (`%0A`).

use std::fmt::Write as _;

use super::{Diagnostic, Severity, human::cycle_chain};
use crate::source::Sources;

/// One workflow command per diagnostic, each ending in a newline.
pub fn render_github(diags: &[Diagnostic], sources: &Sources) -> String {
    let mut out = String::new();
    for diag in diags {
        let file = sources.get(diag.primary.span.file);
        let (start, end) = sources.span_lines(diag.primary.span);
        let command = match diag.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Advice => "notice",
        };
        // Annotations need the repository-relative path with forward slashes.
        let path = file.display.replace('\\', "/");
        let _ = write!(
            out,
            "::{command} file={},line={}",
            property(&path),
            start.line
        );
        // GitHub rejects or misplaces an annotation whose columns belong to different lines
        // (ruff drops them for the same reason), so a multi-line span keeps only lines.
        if start.line == end.line {
            let _ = write!(out, ",col={}", start.column);
        }
        let _ = write!(out, ",endLine={}", end.line);
        if start.line == end.line {
            let _ = write!(out, ",endColumn={}", end.column);
        }
        let title = format!("{} {}", diag.code, diag.category().as_str());
        let _ = writeln!(out, ",title={}::{}", property(&title), data(&body(diag)));
    }
    out
}

/// The annotation text: the message, then the cycle, help and notes on lines of their own.
fn body(diag: &Diagnostic) -> String {
    let mut text = diag.message.clone();
    if let Some(cycle) = diag.cycle.as_deref().filter(|c| !c.is_empty()) {
        let _ = write!(text, "\ncycle: {}", cycle_chain(cycle));
    }
    if let Some(help) = &diag.help {
        let _ = write!(text, "\nhelp: {help}");
    }
    for note in &diag.notes {
        let _ = write!(text, "\nnote: {note}");
    }
    text
}

/// Escape a command's message (GitHub's `escapeData`).
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a command's property value (GitHub's `escapeProperty`): also `:` and `,`, which
/// would otherwise end the value.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}
