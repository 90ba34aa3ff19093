//! Short output: one line per diagnostic, `file:line:col: FAB201 error: message`.
//!
//! In: sorted `Diagnostic`s and their `Sources`. Out: lines for editors' error parsers and
//! for `grep`. Help, notes and labels are left out; the other formats carry them.

use std::fmt::Write as _;

use super::Diagnostic;
use crate::source::Sources;

/// One line per diagnostic, each ending in a newline.
pub fn render_short(diags: &[Diagnostic], sources: &Sources) -> String {
    let mut out = String::new();
    for diag in diags {
        let file = sources.get(diag.primary.span.file);
        let at = file.line_col(diag.primary.span.start as usize);
        let _ = writeln!(
            out,
            "{}:{}:{}: {} {}: {}",
            one_line(&file.display),
            at.line,
            at.column,
            diag.code,
            diag.severity.as_str(),
            one_line(&diag.message)
        );
    }
    out
}

/// Keep the one-line-per-finding promise even if a message or path holds a line break
/// (a name from the source can): control characters are written as escapes.
fn one_line(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
