//! The parser's rules for numbers and quantities: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `INT = DIGITS ;`
    pub(super) fn int(&self, i: &'a str, what: &str) -> PResult<'a, Spanned<u64>> {
        let at = spaces(i);
        let len = number_len(at);
        if len == 0 {
            return fail(
                SyntaxError::expected(at, &format!("a number for {what}"))
                    .help("write a whole number, such as `8`"),
            );
        }
        let tok = &at[..len];
        let digits = tok.find(|c: char| !c.is_ascii_digit()).unwrap_or(len);
        if digits < len {
            let e = if tok[digits..].starts_with('.') {
                SyntaxError::new(
                    ErrorKind::Syntax,
                    at,
                    len,
                    format!(
                        "expected a whole number for {what}, found `{}`",
                        shorten(tok)
                    ),
                )
            } else {
                SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!(
                        "expected a number without a unit for {what}, found `{}`",
                        shorten(tok)
                    ),
                )
                .help(format!("write `{}`", &tok[..digits]))
            };
            return fail(e);
        }
        match tok.parse::<u64>() {
            Ok(v) => Ok((&at[len..], Spanned::new(v, self.span(at, &at[len..])))),
            Err(_) => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("number `{}` is too large", shorten(tok)),
                )
                .help(format!("the largest number is {}", u64::MAX)),
            ),
        }
    }

    /// An INT in `lo..=hi`.
    pub(super) fn int_in(
        &self,
        i: &'a str,
        name: &str,
        lo: u64,
        hi: u64,
    ) -> PResult<'a, Spanned<u64>> {
        let help = if hi == u64::MAX {
            format!("`{name}` must be at least {lo}")
        } else {
            format!("`{name}` must be between {lo} and {hi}")
        };
        let (r, v) = self.int(i, &format!("`{name}`")).map_err(|e| {
            e.map(|e| {
                if e.kind == ErrorKind::Syntax {
                    e.help(help.clone())
                } else {
                    e
                }
            })
        })?;
        if v.node < lo || v.node > hi {
            let at = spaces(i);
            return fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    v.span.len(),
                    format!("{name} `{}` is out of range", v.node),
                )
                .help(help),
            );
        }
        Ok((r, v))
    }

    /// `SIGNED_INT = [ "-" ] DIGITS ;` in `lo..=hi`
    pub(super) fn signed_int(
        &self,
        i: &'a str,
        name: &str,
        lo: i64,
        hi: i64,
    ) -> PResult<'a, Spanned<i64>> {
        let at = spaces(i);
        let (neg, digits) = match at.strip_prefix('-') {
            Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => (true, r),
            _ => (false, at),
        };
        let (r, v) = self.int(digits, &format!("`{name}`"))?;
        let value = i64::try_from(v.node).ok().map(|v| if neg { -v } else { v });
        match value {
            Some(v) if v >= lo && v <= hi => Ok((r, Spanned::new(v, self.span(at, r)))),
            _ => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    at.len() - r.len(),
                    format!(
                        "{name} `{}` is out of range",
                        shorten(&at[..at.len() - r.len()])
                    ),
                )
                .help(format!("`{name}` must be between {lo} and {hi}")),
            ),
        }
    }

    /// A number with a unit of `dim`, in canonical units; `cells` is reported as the bool.
    pub(super) fn quantity(&self, i: &'a str, dim: Dim) -> PResult<'a, (Spanned<u64>, bool)> {
        let at = spaces(i);
        let len = number_len(at);
        let what = format!("a {} such as `{}`", dim.noun(), dim.example());
        if len == 0 {
            return fail(SyntaxError::expected(at, &what).help(format!(
                "a {} is a number and a unit, with no space: {}",
                dim.noun(),
                dim.unit_list()
            )));
        }
        let tok = &at[..len];
        let r = &at[len..];
        let bad = |help: String| {
            fail(SyntaxError::expected_kind(ErrorKind::BadQuantity, at, &what).help(help))
        };
        let Some((int, frac, unit)) = split_decimal(tok) else {
            return bad("write the number with digits and at most one decimal point".into());
        };
        let num = &tok[..tok.len() - unit.len()];
        if unit.is_empty() {
            return bad(format!("add a unit, e.g. `{num}{}`", dim.default_unit()));
        }
        let Some(&(_, factor)) = dim.units().iter().find(|(u, _)| *u == unit) else {
            if let Some(u) = dim.suggest(unit) {
                return bad(format!("did you mean `{num}{u}`?"));
            }
            if let Some(other) = Dim::ALL
                .iter()
                .find(|d| d.units().iter().any(|(u, _)| *u == unit))
            {
                return bad(format!(
                    "`{unit}` is a {} unit; {} units are {}",
                    other.noun(),
                    dim.noun(),
                    dim.unit_list()
                ));
            }
            return bad(format!("{} units are {}", dim.noun(), dim.unit_list()));
        };
        let cells = unit == "cells";
        let base = if cells { "cells" } else { dim.base() };
        match scale(int, frac, factor) {
            Ok(v) if !dim.bound(cells).contains(v) => {
                let bound = dim.bound(cells);
                fail(
                    SyntaxError::new(
                        ErrorKind::OutOfRange,
                        at,
                        len,
                        format!("{} `{}` is out of range", bound.what, shorten(tok)),
                    )
                    .help(bound.help),
                )
            }
            Ok(v) => Ok((r, (Spanned::new(v, self.span(at, r)), cells))),
            Err(ScaleError::NotWhole) => fail(
                SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!("`{}` is not a whole number of {base}", shorten(tok)),
                )
                .help(format!("a {} is counted in whole {base}", dim.noun())),
            ),
            Err(ScaleError::TooPrecise) => fail(
                SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!("`{}` has too many decimal places", shorten(tok)),
                )
                .help(format!("a {} is counted in whole {base}", dim.noun())),
            ),
            Err(ScaleError::TooLarge) => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("`{}` is too large", shorten(tok)),
                )
                .help(format!("the largest {} is {} {base}", dim.noun(), u64::MAX)),
            ),
        }
    }

    /// `SPEED = DECIMAL "G" ;`
    pub(super) fn speed(&self, i: &'a str) -> PResult<'a, Spanned<Speed>> {
        let (r, (v, _)) = self.quantity(i, Dim::Speed)?;
        Ok((r, v.map(Speed)))
    }

    /// `SIZE = DECIMAL ( "B" | "KB" | "MB" | "GB" | "KiB" | "MiB" | "GiB" ) | INT "cells" ;`
    pub(super) fn size(&self, i: &'a str) -> PResult<'a, Spanned<Size>> {
        let (r, (v, cells)) = self.quantity(i, Dim::Size)?;
        Ok((
            r,
            v.map(|v| {
                if cells {
                    Size::Cells(v)
                } else {
                    Size::Bytes(v)
                }
            }),
        ))
    }

    /// `LENGTH = DECIMAL ( "m" | "km" ) ;`
    pub(super) fn length(&self, i: &'a str) -> PResult<'a, Spanned<Length>> {
        let (r, (v, _)) = self.quantity(i, Dim::Length)?;
        Ok((r, v.map(Length)))
    }

    /// `TIME = DECIMAL ( "ns" | "us" | "ms" | "s" ) ;`
    pub(super) fn time(&self, i: &'a str) -> PResult<'a, Spanned<Time>> {
        let (r, (v, _)) = self.quantity(i, Dim::Time)?;
        Ok((r, v.map(Time)))
    }

    /// `PERCENT = DECIMAL "%" ;`
    pub(super) fn percent(&self, i: &'a str) -> PResult<'a, Spanned<Percent>> {
        let (r, (v, _)) = self.quantity(i, Dim::Percent)?;
        Ok((r, v.map(Percent)))
    }

    /// `RATIO = DECIMAL ":" DECIMAL ;`
    pub(super) fn ratio(&self, i: &'a str) -> PResult<'a, Spanned<Ratio>> {
        let at = spaces(i);
        let len = number_len(at);
        let what = "a ratio such as `3:1`";
        if len == 0 {
            return fail(
                SyntaxError::expected(at, what).help("write down:up, such as `1:1` or `1.067:1`"),
            );
        }
        let tok = &at[..len];
        let r = &at[len..];
        let Some((down, up)) = tok.split_once(':') else {
            return fail(
                SyntaxError::expected_kind(ErrorKind::BadQuantity, at, what)
                    .help(format!("write both sides: `{tok}:1`")),
            );
        };
        let side = |s: &str| -> Result<u64, SyntaxError<'a>> {
            let bad = || {
                SyntaxError::expected_kind(ErrorKind::BadQuantity, at, what)
                    .help("each side is a number such as `1` or `1.067`")
            };
            let (int, frac, unit) = split_decimal(s).ok_or_else(bad)?;
            if !unit.is_empty() {
                return Err(bad());
            }
            match scale(int, frac, 1_000) {
                Ok(0) => Err(SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("ratio `{tok}` has a zero side"),
                )
                .help("each side of a ratio is greater than 0")),
                Ok(v) => Ok(v),
                Err(ScaleError::TooLarge) => Err(SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("ratio `{}` is too large", shorten(tok)),
                )
                .help("write the ratio with smaller numbers, such as `3:1`")),
                Err(_) => Err(SyntaxError::new(
                    ErrorKind::BadQuantity,
                    at,
                    len,
                    format!(
                        "ratio `{}` has more than three decimal places",
                        shorten(tok)
                    ),
                )
                .help("write each side with at most three decimals, as in `1.067:1`")),
            }
        };
        let down = side(down).map_err(nom::Err::Failure)?;
        let up = side(up).map_err(nom::Err::Failure)?;
        Ok((r, Spanned::new(Ratio { down, up }, self.span(at, r))))
    }
}
