//! Placeholder until the renderers land.
use super::Diagnostic;
use crate::analysis::Facts;
use crate::source::Sources;

pub fn render_json(_fabric: Option<&str>, _diags: &[Diagnostic], _facts: Option<&Facts>, _sources: &Sources) -> String {
    String::from("{}\n")
}
