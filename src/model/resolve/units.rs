//! Sizes written in cells become bytes once the switch model (and its cell size) is known.

use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;
use crate::syntax::ast::Size;

/// Bytes of a size; `cell` is the switch model's cell size, when there is one.
pub fn bytes(
    size: Size,
    cell: Option<u64>,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<u64> {
    match size {
        Size::Bytes(b) => Some(b),
        Size::Cells(n) => match cell {
            Some(c) => match n.checked_mul(c) {
                Some(b) => Some(b),
                None => {
                    diags.push(
                        Diagnostic::new(Code::OutOfRange, span, format!("{n} cells is too large"))
                            .label("here"),
                    );
                    None
                }
            },
            None => {
                diags.push(
                    Diagnostic::new(Code::NotAllowedHere, span, "a size in cells needs a switch model with a `cell` size")
                        .label("written in cells")
                        .help("write the size in bytes (e.g. `150KB`), or set it in a switch block whose model has `cell`"),
                );
                None
            }
        },
    }
}
