//! Syntax: source text → `ast::File`. In: the text of one `.fab` file and its `FileId`. Out:
//! the syntax tree with a span on every node, or the first syntax error as one `Diagnostic`
//! (codes FAB001–FAB008, FAB011) pointing at the offending token. `format` rewrites a file's
//! layout for `fabricc fmt`; `printer` spells names and quantities the canonical way.

pub mod ast;
pub mod bounds;
pub mod error;
pub mod format;
pub mod parser;
pub mod printer;
pub mod yaml;

use crate::diagnostic::Diagnostic;
use crate::span::{FileId, Span};

use error::{ErrorKind, SyntaxError};

/// The largest input a span can address.
const MAX_INPUT: usize = u32::MAX as usize;

/// Parses one file. The nom → diagnostic boundary: the parser's error becomes a `Diagnostic`
/// here, once, with byte offsets into `text`.
// The error is the stage's one diagnostic, produced at most once per file: its size costs
// nothing, and boxing it would make every caller unwrap a box.
#[allow(clippy::result_large_err)]
pub fn parse(file: FileId, text: &str) -> Result<ast::File, Diagnostic> {
    if text.len() >= MAX_INPUT {
        return Err(
            SyntaxError::new(ErrorKind::Limit, text, 0, "the input is larger than 4 GiB")
                .help("split the fabric into several files with `import`")
                .into_diagnostic(file, text),
        );
    }
    if let Some((offset, c)) = text.char_indices().find(|&(_, c)| is_binary(c)) {
        let d = Diagnostic::new(
            crate::diagnostic::Code::BadInput,
            Span::new(file, offset, offset + c.len_utf8()),
            format!(
                "the input contains the control character U+{:04X}",
                u32::from(c)
            ),
        )
        .help("a `.fab` file is plain text; is this the right file?");
        return Err(d);
    }
    // A byte order mark is not part of the text.
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let p = parser::Parser::new(file, text);
    match p.file(body) {
        Ok((_, f)) => Ok(f),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e.into_diagnostic(file, text)),
        Err(nom::Err::Incomplete(_)) => {
            Err(
                SyntaxError::new(ErrorKind::Syntax, "", 0, "unexpected end of file")
                    .into_diagnostic(file, text),
            )
        }
    }
}

/// Control characters other than tab, newline and carriage return (NUL, DEL, the C1 range):
/// the sign of a binary file.
fn is_binary(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}
