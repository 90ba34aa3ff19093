//! Placeholder until the renderers land.
use super::Diagnostic;
use crate::source::Sources;

pub fn render_short(diags: &[Diagnostic], sources: &Sources) -> String {
    let mut s = String::new();
    for d in diags {
        let (a, _) = sources.span_lines(d.primary.span);
        let f = sources.get(d.primary.span.file);
        s.push_str(&format!("{}:{}:{}: {} {}: {}\n", f.display, a.line, a.column, d.code, d.severity.as_str(), d.message));
    }
    s
}
