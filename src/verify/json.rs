//! A small JSON reader that keeps where every value is, so a finding can point at the line of
//! a `config_db.json`, `state.json` or `lldp.json`.
//!
//! In: text (already bounded in size by the caller). Out: a [`Node`] tree with byte ranges,
//! or the offset of the first error and what was expected there. RFC 8259 grammar; numbers
//! are kept as written (`9216`, `1e3`), strings decoded (escapes, surrogate pairs). Nesting
//! deeper than [`MAX_DEPTH`] is an error, not a stack overflow; a duplicate object key keeps
//! every pair in order and [`Node::get`] returns the last, as `serde_json` and Python do.
//!
//! The tree borrows from the text: a number, and a string or key without escapes (nearly all
//! of a CONFIG_DB dump), is a slice of it, so reading a state file allocates only the tree's
//! lists (`verify` of a 100,000-GPU fabric reads tens of thousands of them).

use std::borrow::Cow;

/// The deepest nesting accepted (`serde_json` stops at 128 too).
pub const MAX_DEPTH: usize = 128;

#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// As written in the text.
    Number(Cow<'a, str>),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    Object(Vec<(Key<'a>, Node<'a>)>),
}

/// An object key and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Key<'a> {
    pub name: Cow<'a, str>,
    pub start: usize,
    pub end: usize,
}

/// A value and its byte range in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node<'a> {
    pub value: Value<'a>,
    pub start: usize,
    pub end: usize,
}

/// Why the text is not JSON: at which byte, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub offset: usize,
    pub message: String,
}

impl<'a> Node<'a> {
    /// The member `name` of an object (the last, if repeated).
    pub fn get(&self, name: &str) -> Option<&Node<'a>> {
        match &self.value {
            Value::Object(members) => members
                .iter()
                .rev()
                .find(|(k, _)| k.name == name)
                .map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn members(&self) -> &[(Key<'a>, Node<'a>)] {
        match &self.value {
            Value::Object(m) => m,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node<'a>] {
        match &self.value {
            Value::Array(a) => a,
            _ => &[],
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s.as_ref()),
            _ => None,
        }
    }

    /// A scalar as text: strings as they are, numbers as written, `true`/`false`; `None` for
    /// `null`, arrays and objects.
    pub fn scalar(&self) -> Option<String> {
        match &self.value {
            Value::String(s) | Value::Number(s) => Some(s.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match &self.value {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// The tree with its own copy of every string (for a reader that keeps the tree longer
    /// than the text).
    pub fn into_owned(self) -> Node<'static> {
        let owned = |s: Cow<'_, str>| Cow::Owned(s.into_owned());
        let value = match self.value {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(owned(n)),
            Value::String(s) => Value::String(owned(s)),
            Value::Array(items) => Value::Array(items.into_iter().map(Node::into_owned).collect()),
            Value::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| {
                        (
                            Key {
                                name: owned(k.name),
                                start: k.start,
                                end: k.end,
                            },
                            v.into_owned(),
                        )
                    })
                    .collect(),
            ),
        };
        Node {
            value,
            start: self.start,
            end: self.end,
        }
    }
}

/// Parses one JSON value that fills the whole text (whitespace around it allowed).
pub fn parse(text: &str) -> Result<Node<'_>, Error> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    p.skip_ws();
    let node = p.value(0)?;
    p.skip_ws();
    if p.at < p.bytes.len() {
        return Err(p.error("the end of the text after the JSON value"));
    }
    Ok(node)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, expected: &str) -> Error {
        let found = match self.text.get(self.at..).and_then(|s| s.chars().next()) {
            None => "the end of the text".to_string(),
            Some(c) if c.is_control() => format!("{:?}", c),
            Some(c) => format!("`{c}`"),
        };
        Error {
            offset: self.at,
            message: format!("expected {expected}, found {found}"),
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.bytes.get(self.at) == Some(&b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node<'a>, Error> {
        let start = self.at;
        let value = match self.bytes.get(self.at) {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            _ => return Err(self.error("a JSON value")),
        };
        Ok(Node {
            value,
            start,
            end: self.at,
        })
    }

    fn word(&mut self, word: &str, value: Value<'a>) -> Result<Value<'a>, Error> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error(&format!("`{word}`")))
        }
    }

    fn number(&mut self) -> Result<Value<'a>, Error> {
        let start = self.at;
        self.eat(b'-');
        let digits = |p: &mut Self| {
            let from = p.at;
            while p.bytes.get(p.at).is_some_and(u8::is_ascii_digit) {
                p.at += 1;
            }
            p.at > from
        };
        if self.eat(b'0') {
            // A leading zero stands alone.
        } else if !digits(self) {
            return Err(self.error("a digit"));
        }
        if self.eat(b'.') && !digits(self) {
            return Err(self.error("a digit after `.`"));
        }
        if matches!(self.bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            let _ = self.eat(b'+') || self.eat(b'-');
            if !digits(self) {
                return Err(self.error("an exponent"));
            }
        }
        let text: &'a str = self.text;
        Ok(Value::Number(Cow::Borrowed(&text[start..self.at])))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("four hex digits after `\\u`"))?;
        self.at += 4;
        u32::from_str_radix(digits, 16).map_err(|_| self.error("four hex digits"))
    }

    fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        self.at += 1; // the opening quote
        // Without escapes, the string is the text between the quotes.
        let first = self.at;
        while let Some(&b) = self.bytes.get(self.at) {
            if b == b'"' || b == b'\\' || b < 0x20 {
                break;
            }
            self.at += 1;
        }
        if self.bytes.get(self.at) == Some(&b'"') {
            let text: &'a str = self.text;
            let s = &text[first..self.at];
            self.at += 1;
            return Ok(Cow::Borrowed(s));
        }
        let mut out = String::from(&self.text[first..self.at]);
        loop {
            let run = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(&self.text[run..self.at]);
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = match self.bytes.get(self.at) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi)
                                && self.bytes[self.at..].starts_with(b"\\u")
                            {
                                self.at += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                } else {
                                    0xFFFD
                                }
                            } else {
                                hi
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                            continue;
                        }
                        _ => return Err(self.error("an escape (`\\n`, `\\\"`, `\\u0041`, …)")),
                    };
                    self.at += 1;
                    out.push(c);
                }
                Some(_) => return Err(self.error("`\"` (a control character must be escaped)")),
                None => return Err(self.error("`\"` closing the string")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value<'a>, Error> {
        if depth >= MAX_DEPTH {
            return Err(self.error(&format!("at most {MAX_DEPTH} levels of nesting")));
        }
        self.at += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.eat(b'}') {
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_ws();
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.error("a member name in quotes"));
            }
            let start = self.at;
            let name = self.string()?;
            let key = Key {
                name,
                start,
                end: self.at,
            };
            self.skip_ws();
            if !self.eat(b':') {
                return Err(self.error("`:`"));
            }
            self.skip_ws();
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.skip_ws();
            if self.eat(b',') {
                continue;
            }
            if self.eat(b'}') {
                return Ok(Value::Object(members));
            }
            return Err(self.error("`,` or `}`"));
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value<'a>, Error> {
        if depth >= MAX_DEPTH {
            return Err(self.error(&format!("at most {MAX_DEPTH} levels of nesting")));
        }
        self.at += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.eat(b']') {
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            if self.eat(b',') {
                continue;
            }
            if self.eat(b']') {
                return Ok(Value::Array(items));
            }
            return Err(self.error("`,` or `]`"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_spans() {
        let text = r#" {"a": [1, -2.5e3, "x\u00e9\ud83d\ude00"], "b": {"c": null, "d": true}} "#;
        let n = parse(text).unwrap();
        let a = n.get("a").unwrap();
        assert_eq!(a.items()[1].scalar().as_deref(), Some("-2.5e3"));
        assert_eq!(a.items()[2].as_str(), Some("xé😀"));
        assert_eq!(
            &text[a.start..a.end],
            r#"[1, -2.5e3, "x\u00e9\ud83d\ude00"]"#
        );
        assert!(n.get("b").unwrap().get("c").unwrap().is_null());
        assert_eq!(n.members()[1].0.name, "b");
    }

    #[track_caller]
    fn bad(text: &str, offset: usize) {
        let e = parse(text).unwrap_err();
        assert_eq!(e.offset, offset, "{text:?}: {}", e.message);
    }

    #[test]
    fn errors_point_at_the_problem() {
        bad("", 0);
        bad("{", 1);
        bad(r#"{"a" 1}"#, 5);
        bad(r#"{"a": 01}"#, 7);
        bad("[1,]", 3);
        bad("\"a\nb\"", 2);
        bad("{} x", 3);
        bad("[\"\\q\"]", 3);
        bad("\u{0}", 0);
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let deep = "[".repeat(10_000);
        let e = parse(&deep).unwrap_err();
        assert_eq!(e.offset, MAX_DEPTH);
        assert!(parse(&format!("{}{}", "[".repeat(100), "]".repeat(100))).is_ok());
    }

    #[test]
    fn last_duplicate_wins() {
        let n = parse(r#"{"a": 1, "a": 2}"#).unwrap();
        assert_eq!(n.get("a").unwrap().scalar().as_deref(), Some("2"));
    }
}
