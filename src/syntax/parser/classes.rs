//! The parser's rules for classes: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `class = "class" NAME block(class_prop) ;`
    pub(super) fn class(&self, i: &'a str) -> PResult<'a, ClassDecl> {
        let (r, d) = self.named_decl(i, &CLASS_DECL, |i| self.class_prop(i))?;
        let (name, props, span) = (d.name, d.props, d.span);
        Ok((r, ClassDecl { name, props, span }))
    }

    /// `class_prop = "dscp" dscp_spec
    ///             | "priority" INT
    ///             | "lossless" [ "on" | "off" ]
    ///             | "lossy"
    ///             | "congestion" ( "dcqcn" | "none" )
    ///             | "ecn" ecn_spec
    ///             | "ecn" SPEED ecn_arg { ecn_arg }
    ///             | "bandwidth" PERCENT
    ///             | "strict"
    ///             | "pfc-threshold" SIZE
    ///             | "cnp"
    ///             | "queue" INT
    ///             | "traffic-class" INT
    ///             | "rate" PERCENT ;`
    pub(super) fn class_prop(&self, i: &'a str) -> PResult<'a, Spanned<ClassProp>> {
        let (r, kw) = self.block_keyword(i, &CLASS_BLOCK)?;
        let (r, prop) = match kw {
            "dscp" => self.dscp_spec(r).map(|(r, v)| (r, ClassProp::Dscp(v)))?,
            "priority" => self.priority(r).map(|(r, v)| (r, ClassProp::Priority(v)))?,
            "lossless" => match peek_word(r) {
                Some("on") => (self.keyword(r, "on")?.0, ClassProp::Lossless(true)),
                Some("off") => (self.keyword(r, "off")?.0, ClassProp::Lossless(false)),
                _ => (r, ClassProp::Lossless(true)),
            },
            "lossy" => (r, ClassProp::Lossless(false)),
            "congestion" => {
                let (r, w) = self.choice(r, "congestion control", &["dcqcn", "none"])?;
                let c = if w.node == "dcqcn" {
                    Congestion::Dcqcn
                } else {
                    Congestion::None
                };
                (r, ClassProp::Congestion(c))
            }
            "ecn" if spaces(r).starts_with(|c: char| c.is_ascii_digit()) => {
                let (r, speed) = self.speed(r)?;
                let (r, spec) = self.ecn_spec(r)?;
                match spec {
                    EcnSpec::Params(args) => (r, ClassProp::EcnAt { speed, args }),
                    EcnSpec::Off => {
                        return fail(
                        SyntaxError::new(
                            ErrorKind::Syntax,
                            spaces(r),
                            0,
                            "`ecn SPEED` takes thresholds, not `off`".to_string(),
                        )
                        .help("write `ecn 400G min 750KB max 3MB`; turn marking off for the whole class with `ecn off`"),
                    );
                    }
                }
            }
            "ecn" => self.ecn_spec(r).map(|(r, v)| (r, ClassProp::Ecn(v)))?,
            "bandwidth" => self.percent(r).map(|(r, v)| (r, ClassProp::Bandwidth(v)))?,
            "strict" => (r, ClassProp::Strict),
            "pfc-threshold" => self.size(r).map(|(r, v)| (r, ClassProp::PfcThreshold(v)))?,
            "cnp" => (r, ClassProp::Cnp),
            "queue" => {
                let (r, v) = self.int_in(r, "queue", QUEUE.lo, QUEUE.hi)?;
                (r, ClassProp::Queue(v.map(|v| v as u8)))
            }
            "traffic-class" => {
                let (r, v) = self.int_in(r, "traffic-class", QUEUE.lo, QUEUE.hi)?;
                (r, ClassProp::TrafficClass(v.map(|v| v as u8)))
            }
            "rate" => self.percent(r).map(|(r, v)| (r, ClassProp::Rate(v)))?,
            _ => return fail(self.unknown(i, kw, &CLASS_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// A priority, `0..7`.
    pub(super) fn priority(&self, i: &'a str) -> PResult<'a, Spanned<u8>> {
        let (r, v) = self.int_in(i, "priority", PRIORITY.lo, PRIORITY.hi)?;
        Ok((r, v.map(|v| v as u8)))
    }

    /// `dscp_spec = "other" | "none" | dscp_item { "," dscp_item } ;`
    pub(super) fn dscp_spec(&self, i: &'a str) -> PResult<'a, DscpSpec> {
        if peek_word(i) == Some("other") {
            let (r, ()) = self.keyword(i, "other")?;
            return Ok((r, DscpSpec::Other));
        }
        if peek_word(i) == Some("none") {
            let (r, ()) = self.keyword(i, "none")?;
            return Ok((r, DscpSpec::Values(Vec::new())));
        }
        let mut values = Vec::new();
        let mut rest = i;
        loop {
            let (r, v) = self.dscp_item(rest)?;
            values.push(v);
            match spaces(r).strip_prefix(',') {
                Some(next) => rest = next,
                None => return Ok((r, DscpSpec::Values(values))),
            }
        }
    }

    /// `dscp_item = INT [ "-" INT ] ;`
    pub(super) fn dscp_item(&self, i: &'a str) -> PResult<'a, Spanned<(u8, u8)>> {
        let start = spaces(i);
        if !start.starts_with(|c: char| c.is_ascii_digit()) {
            return fail(
                SyntaxError::expected(start, "a dscp value (0..63)").help(
                    "write `dscp 26`, `dscp 24,26`, `dscp 24-31`, `dscp other` or `dscp none`",
                ),
            );
        }
        let (r, lo) = self.int_in(start, "dscp", DSCP.lo, DSCP.hi)?;
        let (r, hi) = match r.strip_prefix('-') {
            Some(after) if after.starts_with(|c: char| c.is_ascii_digit()) => {
                let (r, hi) = self.int_in(after, "dscp", DSCP.lo, DSCP.hi)?;
                if hi.node < lo.node {
                    let text = &start[..start.len() - r.len()];
                    return fail(
                        SyntaxError::new(
                            ErrorKind::OutOfRange,
                            start,
                            text.len(),
                            format!("dscp range `{text}` is descending"),
                        )
                        .help(format!("write `{}-{}`", hi.node, lo.node)),
                    );
                }
                (r, hi.node)
            }
            _ => (r, lo.node),
        };
        Ok((
            r,
            Spanned::new((lo.node as u8, hi as u8), self.span(start, r)),
        ))
    }

    /// `ecn_spec = "off" | ecn_arg { ecn_arg } ;`
    pub(super) fn ecn_spec(&self, i: &'a str) -> PResult<'a, EcnSpec> {
        if peek_word(i) == Some("off") {
            let (r, ()) = self.keyword(i, "off")?;
            return Ok((r, EcnSpec::Off));
        }
        let mut args = Vec::new();
        let mut r = i;
        loop {
            match peek_word(r) {
                Some(w) if ECN_ARGS.contains(&w) => {
                    let (next, arg) = self.ecn_arg(r)?;
                    mixed_levels(&args, &arg, spaces(r))?;
                    args.push(arg);
                    r = next;
                }
                Some(w) if args.is_empty() => {
                    let at = spaces(r);
                    return fail(
                        SyntaxError::new(
                            ErrorKind::UnknownKeyword,
                            at,
                            w.len(),
                            format!("unknown ecn parameter `{}`", shorten(w)),
                        )
                        .help(
                            did_you_mean(w, ECN_ARGS.iter().copied()).unwrap_or_else(|| {
                                "write `ecn off` or `ecn min 150KB max 1500KB probability 10%`"
                                    .into()
                            }),
                        ),
                    );
                }
                _ if args.is_empty() => {
                    let at = spaces(r);
                    let e = SyntaxError::expected(
                        at,
                        "`off` or an ecn parameter (`min`, `max`, `probability`)",
                    );
                    let e = if at.starts_with('{') {
                        e.help("write the parameters without braces: `ecn min 150KB max 1500KB`")
                    } else {
                        e.help("write `ecn off` or `ecn min 150KB max 1500KB probability 10%`")
                    };
                    return fail(e);
                }
                _ => return Ok((r, EcnSpec::Params(args))),
            }
        }
    }

    /// `ecn_level = SIZE | PERCENT ;` — a size, or a fill level of the queue's buffer.
    fn ecn_level(&self, i: &'a str) -> PResult<'a, EcnLevel> {
        let at = spaces(i);
        let len = number_len(at);
        if len > 0 && at[..len].ends_with('%') {
            let (r, p) = self.percent(i)?;
            if p.node.0 < bounds::FILL_LEVEL.lo {
                return fail(
                    SyntaxError::expected_kind(
                        ErrorKind::BadQuantity,
                        at,
                        "a fill level above `0%`",
                    )
                    .help(bounds::FILL_LEVEL.help),
                );
            }
            Ok((r, EcnLevel::Fill(p.node)))
        } else {
            self.size(i).map(|(r, s)| (r, EcnLevel::Size(s.node)))
        }
    }

    /// `ecn_arg = "min" ecn_level | "max" ecn_level | "probability" PERCENT ;`
    pub(super) fn ecn_arg(&self, i: &'a str) -> PResult<'a, Spanned<EcnArg>> {
        let start = spaces(i);
        let Some((kw, r)) = word(start) else {
            return fail(SyntaxError::expected(start, "an ecn parameter"));
        };
        let (r, arg) = match kw {
            "min" => self.ecn_level(r).map(|(r, s)| (r, EcnArg::Min(s)))?,
            "max" => self.ecn_level(r).map(|(r, s)| (r, EcnArg::Max(s)))?,
            "probability" => self
                .percent(r)
                .map(|(r, p)| (r, EcnArg::Probability(p.node)))?,
            _ => {
                return fail(
                    SyntaxError::new(
                        ErrorKind::UnknownKeyword,
                        start,
                        kw.len(),
                        format!("unknown ecn parameter `{kw}`"),
                    )
                    .help(format!("ecn parameters are {}", list_words(ECN_ARGS))),
                );
            }
        };
        Ok((r, Spanned::new(arg, self.span(start, r))))
    }
}

/// `min` and `max` of one statement are both sizes or both fill levels: a fill level is a
/// percentage of a buffer that differs per switch, so `min 55% max 3MB` could cross over on
/// one switch and not on another.
fn mixed_levels<'a>(
    before: &[Spanned<EcnArg>],
    arg: &Spanned<EcnArg>,
    at: &'a str,
) -> PResult<'a, ()> {
    let fill = |a: &EcnArg| match a {
        EcnArg::Min(l) | EcnArg::Max(l) => Some(l.fill().is_some()),
        EcnArg::Probability(_) => None,
    };
    let Some(this) = fill(&arg.node) else {
        return Ok((at, ()));
    };
    let len = usize::try_from(arg.span.end.saturating_sub(arg.span.start)).unwrap_or(0);
    let all = || before.iter().chain(std::iter::once(arg));
    let lo = all().find_map(|b| match b.node {
        EcnArg::Min(EcnLevel::Fill(lo)) => Some(lo),
        _ => None,
    });
    let hi = all().find_map(|b| match b.node {
        EcnArg::Max(EcnLevel::Fill(hi)) => Some(hi),
        _ => None,
    });
    if let (Some(lo), Some(hi)) = (lo, hi)
        && lo.0 >= hi.0
    {
        let show = |v: u64| bounds::FILL_LEVEL.show(v);
        return fail(
            SyntaxError::new(
                ErrorKind::BadQuantity,
                at,
                len.min(at.len()),
                format!("the ECN fill level `max {}` is not above `min {}`", show(hi.0), show(lo.0)),
            )
            .help("marking starts at `min` and reaches its probability at `max`: write `min` below `max`, e.g. `ecn min 55% max 90%`"),
        );
    }
    if before.iter().any(|b| fill(&b.node) == Some(!this)) {
        return fail(
            SyntaxError::new(
                ErrorKind::BadQuantity,
                at,
                len.min(at.len()),
                "one `ecn` statement mixes a fill level (`%`) with a size".to_string(),
            )
            .help("write both thresholds as fill levels (`ecn min 55% max 90%`) or both as sizes (`ecn min 150KB max 1500KB`)"),
        );
    }
    Ok((at, ()))
}
