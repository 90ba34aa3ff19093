//! Syntax: source text → `ast::File`. A nom parser (one function per grammar rule of
//! `grammar/fabric.ebnf`); the first syntax error becomes one `Diagnostic` with the exact span.

pub mod ast;

use crate::diagnostic::{Code, Diagnostic};
use crate::span::{FileId, Span};

/// Parses one file. (Placeholder until the parser lands.)
pub fn parse(file: FileId, _text: &str) -> Result<ast::File, Diagnostic> {
    Err(Diagnostic::new(Code::SyntaxError, Span::new(file, 0, 0), "parser not built yet"))
}
