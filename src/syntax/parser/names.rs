//! The parser's rules for names: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `name_list = name_pattern { "," name_pattern } ;`
    pub(super) fn name_list(&self, i: &'a str, what: &str) -> PResult<'a, Vec<NamePattern>> {
        let mut names = Vec::new();
        let mut rest = i;
        loop {
            let (r, n) = self.name_pattern(rest, what)?;
            names.push(n);
            match spaces(r).strip_prefix(',') {
                Some(after) => rest = after,
                None => return Ok((r, names)),
            }
        }
    }

    /// `pci_list = PCI { "," PCI } ;` (PCI: see `bounds::pci_address`)
    pub(super) fn pci_list(&self, i: &'a str) -> PResult<'a, Vec<Spanned<String>>> {
        let mut out = Vec::new();
        let mut rest = i;
        loop {
            let at = spaces(rest);
            let len = at
                .find(|c: char| !(c.is_ascii_hexdigit() || c == ':' || c == '.'))
                .unwrap_or(at.len());
            let tok = &at[..len];
            let r = &at[len..];
            if tok.is_empty() {
                return fail(
                    SyntaxError::expected_kind(ErrorKind::BadPattern, at, "a PCI address")
                        .help(PCI_HELP),
                );
            }
            if r.starts_with(is_name_char) || pci_address(tok).is_none() {
                let end = r.find(|c: char| !is_name_char(c)).unwrap_or(r.len());
                return fail(
                    SyntaxError::new(
                        ErrorKind::BadPattern,
                        at,
                        len + end,
                        format!("`{}` is not a PCI address", shorten(&at[..len + end])),
                    )
                    .help(PCI_HELP),
                );
            }
            out.push(Spanned::new(tok.to_string(), self.span(at, r)));
            match spaces(r).strip_prefix(',') {
                Some(after) => rest = after,
                None => return Ok((r, out)),
            }
        }
    }

    /// `name_pattern = NAME_START { NAME_CHAR | range } ;`
    pub(super) fn name_pattern(&self, i: &'a str, what: &str) -> PResult<'a, NamePattern> {
        let start = spaces(i);
        if !start.starts_with(is_name_start) {
            return fail(self.not_a_name(start, what));
        }
        let mut segments = Vec::new();
        let mut text = String::new();
        let mut rest = start;
        loop {
            if rest.starts_with('[') {
                if !text.is_empty() {
                    segments.push(Segment::Text(std::mem::take(&mut text)));
                }
                let (r, items) = self.range(rest)?;
                segments.push(Segment::Range(items));
                rest = r;
                continue;
            }
            let n = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
            if n == 0 {
                break;
            }
            text.push_str(&rest[..n]);
            rest = &rest[n..];
        }
        if !text.is_empty() {
            segments.push(Segment::Text(text));
        }
        Ok((
            rest,
            NamePattern {
                segments,
                span: self.span(start, rest),
            },
        ))
    }

    /// The error for a token where a name should be.
    pub(super) fn not_a_name(&self, at: &'a str, what: &str) -> SyntaxError<'a> {
        if at.starts_with(|c: char| c.is_ascii_digit()) {
            SyntaxError::expected_kind(ErrorKind::BadPattern, at, what)
                .help("a name starts with a letter or `_`")
        } else if at.starts_with('[') {
            SyntaxError::expected_kind(ErrorKind::BadPattern, at, what)
                .help("a name pattern starts with a letter or `_`, as in `gpu[1..8]`")
        } else {
            SyntaxError::expected(at, what)
                .help("a name starts with a letter or `_`, then letters, digits, `_`, `.` or `-`")
        }
    }

    /// `range = "[" range_item { "," range_item } "]" ;`
    pub(super) fn range(&self, i: &'a str) -> PResult<'a, Vec<RangeItem>> {
        let unclosed = || {
            SyntaxError::new(
                ErrorKind::BadPattern,
                i,
                1,
                "unclosed `[` in a name pattern",
            )
            .help("close the range with `]`, as in `gpu[1..8]`")
        };
        let mut rest = blanks(&i[1..]);
        if rest.starts_with(']') {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    i,
                    i.len() - rest.len() + 1,
                    "empty range `[]`",
                )
                .help("write the numbers in the brackets, as in `gpu[1..8]` or `h[1,3,5]`"),
            );
        }
        let mut items = Vec::new();
        loop {
            if rest.is_empty() || rest.starts_with(['\n', '\r']) {
                return fail(unclosed());
            }
            let (r, item) = self.range_item(rest)?;
            items.push(item);
            let spaced = blanks(r);
            if let Some(after) = spaced.strip_prefix(',') {
                rest = blanks(after);
            } else if let Some(after) = spaced.strip_prefix(']') {
                return Ok((after, items));
            } else if spaced.len() < r.len()
                || spaced.is_empty()
                || spaced.starts_with(['\n', '\r', '#'])
            {
                // A space, the end of the line or a comment: the `]` was forgotten.
                return fail(unclosed());
            } else {
                return fail(
                    SyntaxError::expected_kind(
                        ErrorKind::BadPattern,
                        r,
                        "`,`, `..` or `]` in the range",
                    )
                    .help("a range holds numbers and `lo..hi` pairs, as in `[1..4,7]`"),
                );
            }
        }
    }

    /// `range_item = DIGITS [ ".." DIGITS ] ;`
    pub(super) fn range_item(&self, i: &'a str) -> PResult<'a, RangeItem> {
        let digits = |s: &'a str| {
            let n = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
            s.split_at(n)
        };
        let (lo_text, r) = digits(i);
        if lo_text.is_empty() {
            return fail(
                SyntaxError::expected_kind(ErrorKind::BadPattern, i, "a number in the range")
                    .help("a range holds numbers and `lo..hi` pairs, as in `[1..4,7]`"),
            );
        }
        let (hi_text, r) = match r.strip_prefix("..") {
            Some(after) => {
                let (hi, r) = digits(after);
                if hi.is_empty() {
                    return fail(
                        SyntaxError::expected_kind(
                            ErrorKind::BadPattern,
                            after,
                            "the end of the range after `..`",
                        )
                        .help(format!("write `{lo_text}..8`")),
                    );
                }
                (hi, r)
            }
            None => (lo_text, r),
        };
        let number = |text: &'a str| -> Result<u64, nom::Err<SyntaxError<'a>>> {
            text.parse::<u64>().map_err(|_| {
                let at = &i[text.as_ptr() as usize - i.as_ptr() as usize..];
                nom::Err::Failure(
                    SyntaxError::new(
                        ErrorKind::OutOfRange,
                        at,
                        text.len(),
                        format!("range bound `{}` is too large", shorten(text)),
                    )
                    .help(format!("the largest number is {}", u64::MAX)),
                )
            })
        };
        let lo = number(lo_text)?;
        let hi = number(hi_text)?;
        if hi < lo {
            let len = i.len() - r.len();
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    i,
                    len,
                    format!("descending range `{}`", shorten(&i[..len])),
                )
                .help(format!("write `{hi_text}..{lo_text}`")),
            );
        }
        if hi - lo >= bounds::RANGE_NAMES {
            let len = i.len() - r.len();
            return fail(
                SyntaxError::new(
                    ErrorKind::Limit,
                    i,
                    len,
                    format!(
                        "range `{}` gives more than {} names",
                        shorten(&i[..len]),
                        bounds::RANGE_NAMES
                    ),
                )
                .help(
                    "no range may give more names than this, whatever `--max-range` says; split it",
                ),
            );
        }
        let width = [lo_text, hi_text]
            .iter()
            .filter(|t| t.len() > 1 && t.starts_with('0'))
            .map(|t| t.len())
            .max()
            .unwrap_or(0);
        Ok((r, RangeItem { lo, hi, width }))
    }

    /// `NAME = NAME_START { NAME_CHAR } ;` (where no range is allowed)
    pub(super) fn name(&self, i: &'a str, what: &str) -> PResult<'a, Ident> {
        let at = spaces(i);
        let Some((w, r)) = word(at) else {
            return fail(self.not_a_name(at, what));
        };
        if r.starts_with('[') {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    r,
                    1,
                    format!("expected {what}, found a name pattern"),
                )
                .help("a range is not allowed here: write one name"),
            );
        }
        Ok((r, Spanned::new(w.to_string(), self.span(at, r))))
    }

    /// `STRING = '"' { any character but '"', '\' or newline | '\"' | '\\' } '"' ;`
    pub(super) fn string(&self, i: &'a str, what: &str) -> PResult<'a, Spanned<String>> {
        let at = spaces(i);
        let Some(body) = at.strip_prefix('"') else {
            return fail(
                SyntaxError::expected(at, what).help("write it in double quotes: `\"…\"`"),
            );
        };
        let unterminated = || {
            let line = at.find('\n').unwrap_or(at.len());
            SyntaxError::new(
                ErrorKind::UnterminatedString,
                at,
                at[..line].trim_end_matches('\r').len(),
                "unterminated string",
            )
            .label("this string is not closed on its line")
            .help("close it with `\"` on the same line")
        };
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((k, c)) = chars.next() {
            match c {
                '"' => {
                    let r = &body[k + 1..];
                    return Ok((r, Spanned::new(out, self.span(at, r))));
                }
                '\n' => return fail(unterminated()),
                '\\' => match chars.next() {
                    Some((_, e @ ('"' | '\\'))) => out.push(e),
                    Some((_, '\n')) | None => return fail(unterminated()),
                    Some((_, e)) => {
                        return fail(
                            SyntaxError::new(
                                ErrorKind::Syntax,
                                &body[k..],
                                1 + e.len_utf8(),
                                format!("unknown escape `\\{e}` in a string"),
                            )
                            .help("the only escapes are `\\\"` and `\\\\`"),
                        );
                    }
                },
                c => out.push(c),
            }
        }
        fail(unterminated())
    }
}
