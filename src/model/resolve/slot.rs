//! A property that may be set once: the second setting is FAB103, pointing at both places.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::Sourced;
use crate::span::Span;

/// Sets `slot` unless it is already set; then reports FAB103 with both spans.
pub fn put<T>(
    slot: &mut Option<Sourced<T>>,
    value: T,
    span: Span,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(first) = slot {
        diags.push(set_twice(what, span, first.span));
    } else {
        *slot = Some(Sourced::set(value, span));
    }
}

pub fn set_twice(what: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::new(Code::SetTwice, span, format!("{what} is set twice"))
        .label("set again here")
        .with_secondary(first, "first set here")
        .help("keep one of the two settings; a device's blocks merge, so each property may be set once")
}
