//! The parser's own error type. In: the failing position (a suffix of the input text), what
//! went wrong, and how to fix it. Out: one `Diagnostic`, converted once in `syntax::parse`
//! (the nom → diagnostic boundary), with the span of the offending token.

use nom::error::{ContextError, ErrorKind as NomKind, FromExternalError, ParseError};

use crate::diagnostic::{Code, Diagnostic};
use crate::span::{FileId, Span};

/// What kind of syntax error, one per syntax code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// FAB001: the text does not follow the grammar.
    Syntax,
    /// FAB002: a string is not closed on its line.
    UnterminatedString,
    /// FAB003: a number has a missing or wrong unit.
    BadQuantity,
    /// FAB004: a keyword is not known here.
    UnknownKeyword,
    /// FAB005: a number is outside its range (or does not fit at all).
    OutOfRange,
    /// FAB006: a malformed name pattern.
    BadPattern,
    /// FAB007: an input limit was exceeded.
    Limit,
    /// FAB011: a statement in the wrong place.
    Misplaced,
}

impl ErrorKind {
    pub fn code(self) -> Code {
        match self {
            ErrorKind::Syntax => Code::SyntaxError,
            ErrorKind::UnterminatedString => Code::UnterminatedString,
            ErrorKind::BadQuantity => Code::BadQuantity,
            ErrorKind::UnknownKeyword => Code::UnknownKeyword,
            ErrorKind::OutOfRange => Code::OutOfRange,
            ErrorKind::BadPattern => Code::BadPattern,
            ErrorKind::Limit => Code::LimitExceeded,
            ErrorKind::Misplaced => Code::MisplacedItem,
        }
    }
}

/// A syntax error at a position of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError<'a> {
    pub kind: ErrorKind,
    /// The input from the offending token on (a suffix of the whole text).
    pub at: &'a str,
    /// Length in bytes of the offending token (0: a point, such as the end of a line).
    pub len: usize,
    /// One line, lower case, no final period, names in backticks.
    pub message: String,
    /// Text under the caret. (Boxed strings keep the error small: it travels in every
    /// `Result` of the parser.)
    pub label: Option<Box<str>>,
    pub help: Option<Box<str>>,
    /// The innermost rule being parsed when a nom combinator itself failed.
    pub context: Option<&'static str>,
}

impl<'a> SyntaxError<'a> {
    pub fn new(kind: ErrorKind, at: &'a str, len: usize, message: impl Into<String>) -> Self {
        Self {
            kind,
            at,
            len: len.min(at.len()),
            message: message.into(),
            label: None,
            help: None,
            context: None,
        }
    }

    /// ``expected {what}, found `tok` `` at the token that starts `at`.
    pub fn expected(at: &'a str, what: &str) -> Self {
        let (found, len) = found(at);
        Self::new(
            ErrorKind::Syntax,
            at,
            len,
            format!("expected {what}, found {found}"),
        )
    }

    /// The same message shape with another code (FAB003 for quantities).
    pub fn expected_kind(kind: ErrorKind, at: &'a str, what: &str) -> Self {
        Self {
            kind,
            ..Self::expected(at, what)
        }
    }

    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into().into_boxed_str());
        self
    }

    #[must_use]
    pub fn help_opt(mut self, help: Option<String>) -> Self {
        if let Some(help) = help {
            self.help = Some(help.into_boxed_str());
        }
        self
    }

    #[must_use]
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into().into_boxed_str());
        self
    }

    /// Converts to the diagnostic users see. `text` is the whole input that `at` is a suffix of.
    pub fn into_diagnostic(self, file: FileId, text: &str) -> Diagnostic {
        let start = text.len().saturating_sub(self.at.len());
        let end = (start + self.len).min(text.len());
        let mut d = Diagnostic::new(self.kind.code(), Span::new(file, start, end), self.message);
        if let Some(label) = self.label {
            d = d.label(label);
        }
        if let Some(help) = self.help {
            d = d.help(help);
        }
        d
    }
}

/// How to show the token at the start of `at` in a message, and its length in bytes.
pub fn found(at: &str) -> (String, usize) {
    let Some(c) = at.chars().next() else {
        return ("end of file".to_string(), 0);
    };
    if c == '\n' || at.starts_with("\r\n") {
        return ("end of line".to_string(), 0);
    }
    let len = token_len(at);
    let tok = &at[..len];
    (format!("`{}`", shorten(tok)), len)
}

/// Length of the token at the start of `at`: a word or number, a string on one line, or one
/// character.
pub fn token_len(at: &str) -> usize {
    let Some(c) = at.chars().next() else { return 0 };
    if c == '"' {
        let line = at.find('\n').unwrap_or(at.len());
        let mut escaped = false;
        for (i, ch) in at[..line].char_indices().skip(1) {
            match ch {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => return i + 1,
                _ => escaped = false,
            }
        }
        return at[..line].trim_end_matches('\r').len();
    }
    if at.starts_with("--") || at.starts_with("->") {
        return 2;
    }
    if is_token_char(c) {
        return at.find(|ch: char| !is_token_char(ch)).unwrap_or(at.len());
    }
    c.len_utf8()
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '%' | ':')
}

/// A token cut to a readable length for a one-line message.
pub fn shorten(tok: &str) -> String {
    const MAX: usize = 40;
    if tok.chars().count() <= MAX {
        return tok.to_string();
    }
    let cut: String = tok.chars().take(MAX).collect();
    format!("{cut}…")
}

impl<'a> ParseError<&'a str> for SyntaxError<'a> {
    fn from_error_kind(input: &'a str, _kind: NomKind) -> Self {
        let (found, len) = found(input);
        Self::new(ErrorKind::Syntax, input, len, format!("unexpected {found}"))
    }

    fn append(_input: &'a str, _kind: NomKind, other: Self) -> Self {
        other
    }

    /// Of two failed alternatives, report the one that got further.
    fn or(self, other: Self) -> Self {
        if other.at.len() < self.at.len() {
            other
        } else {
            self
        }
    }
}

impl<'a> ContextError<&'a str> for SyntaxError<'a> {
    fn add_context(_input: &'a str, ctx: &'static str, mut other: Self) -> Self {
        if other.context.is_none() && other.message.starts_with("unexpected ") {
            let (found, _) = found(other.at);
            other.message = format!("expected {ctx}, found {found}");
        }
        other.context = other.context.or(Some(ctx));
        other
    }
}

impl<'a, E> FromExternalError<&'a str, E> for SyntaxError<'a> {
    fn from_external_error(input: &'a str, kind: NomKind, _e: E) -> Self {
        Self::from_error_kind(input, kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(at: &str, text: &str, len: usize) {
        assert_eq!(found(at), (text.to_string(), len));
    }

    #[test]
    fn found_tokens() {
        case("", "end of file", 0);
        case("\nx", "end of line", 0);
        case("\r\nx", "end of line", 0);
        case("150kb max", "`150kb`", 5);
        case("\"ab\\\"c\" x", "`\"ab\\\"c\"`", 7);
        case("{{{", "`{`", 1);
        case("-- b", "`--`", 2);
        case("µs", "`µ`", 2);
        let long = "a".repeat(100);
        case(&long, &format!("`{}…`", "a".repeat(40)), 100);
    }
}
