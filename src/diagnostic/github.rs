//! Placeholder until the renderers land.
use super::Diagnostic;
use crate::source::Sources;

pub fn render_github(_diags: &[Diagnostic], _sources: &Sources) -> String {
    String::new()
}
