//! Syntax: source text → `ast::File`. A nom parser (one function per grammar rule of
//! `grammar/fabric.ebnf`); the first syntax error becomes one `Diagnostic` with the exact span.

pub mod ast;
