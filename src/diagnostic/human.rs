//! Placeholder until the miette renderer lands.
use super::Diagnostic;
use crate::source::Sources;

#[derive(Debug, Clone, Copy)]
pub struct HumanStyle {
    pub color: bool,
    pub width: usize,
}

pub fn render_human(diags: &[Diagnostic], sources: &Sources, _style: HumanStyle) -> String {
    super::short::render_short(diags, sources)
}

pub fn summary(diags: &[Diagnostic]) -> String {
    let e = diags.iter().filter(|d| d.is_error()).count();
    format!("{e} errors")
}
