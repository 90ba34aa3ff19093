//! The parser's rules for fabric settings: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `mtu = "mtu" INT ;`
    pub(super) fn mtu(&self, i: &'a str) -> PResult<'a, Spanned<u64>> {
        let (r, ()) = self.keyword(i, "mtu")?;
        cut(|i| self.int_in(i, "mtu", MTU.lo, MTU.hi)).parse(r)
    }

    /// `roce_mtu = "roce-mtu" INT ;`
    pub(super) fn roce_mtu(&self, i: &'a str) -> PResult<'a, Spanned<u64>> {
        let (r, ()) = self.keyword(i, "roce-mtu")?;
        let at = spaces(r);
        let (r, v) = self.int(r, "`roce-mtu`")?;
        if !ROCE_MTUS.contains(&v.node) {
            return fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    v.span.len(),
                    format!("roce-mtu `{}` is not an rdma mtu", v.node),
                )
                .help("`roce-mtu` is one of 256, 512, 1024, 2048 and 4096"),
            );
        }
        Ok((r, v))
    }

    /// `rtt = "rtt" TIME ;`
    pub(super) fn rtt(&self, i: &'a str) -> PResult<'a, Spanned<Time>> {
        let (r, ()) = self.keyword(i, "rtt")?;
        cut(|i| self.time(i)).parse(r)
    }

    /// `description = "description" STRING ;`
    pub(super) fn description(&self, i: &'a str) -> PResult<'a, Spanned<String>> {
        let (r, ()) = self.keyword(i, "description")?;
        cut(|i| self.string(i, "a description in quotes, such as `\"rack 12\"`")).parse(r)
    }

    /// `watchdog = "pfc-watchdog" ( "off" | { watchdog_arg } ) ;`
    pub(super) fn watchdog(&self, i: &'a str) -> PResult<'a, Watchdog> {
        let (mut r, ()) = self.keyword(i, "pfc-watchdog")?;
        if peek_word(r) == Some("off") {
            let (r, ()) = self.keyword(r, "off")?;
            return Ok((
                r,
                Watchdog {
                    setting: WatchdogSetting::Off,
                    span: self.span(i, r),
                },
            ));
        }
        let mut args = Vec::new();
        loop {
            match peek_word(r) {
                Some(w) if WATCHDOG_ARGS.contains(&w) => {
                    let (next, arg) = self.watchdog_arg(r)?;
                    args.push(arg);
                    r = next;
                }
                // A misspelled parameter, not the next property of the block.
                Some(w)
                    if !is_any_keyword(w)
                        && did_you_mean(w, WATCHDOG_ARGS.iter().copied()).is_some() =>
                {
                    let at = spaces(r);
                    return fail(
                        SyntaxError::new(
                            ErrorKind::UnknownKeyword,
                            at,
                            w.len(),
                            format!("unknown pfc-watchdog parameter `{w}`"),
                        )
                        .help_opt(did_you_mean(w, WATCHDOG_ARGS.iter().copied())),
                    );
                }
                _ => break,
            }
        }
        Ok((
            r,
            Watchdog {
                setting: WatchdogSetting::On(args),
                span: self.span(i, r),
            },
        ))
    }

    /// `watchdog_arg = "detect" TIME | "restore" TIME | "poll" TIME | "action" ( "drop" | "forward" | "alert" ) ;`
    pub(super) fn watchdog_arg(&self, i: &'a str) -> PResult<'a, Spanned<WatchdogArg>> {
        let start = spaces(i);
        let Some((kw, r)) = word(start) else {
            return fail(SyntaxError::expected(start, "a pfc-watchdog parameter"));
        };
        let (r, arg) = match kw {
            "detect" => self
                .time(r)
                .map(|(r, t)| (r, WatchdogArg::Detect(t.node)))?,
            "restore" => self
                .time(r)
                .map(|(r, t)| (r, WatchdogArg::Restore(t.node)))?,
            "poll" => self.time(r).map(|(r, t)| (r, WatchdogArg::Poll(t.node)))?,
            "action" => {
                let (r, w) =
                    self.choice(r, "pfc-watchdog action", &["drop", "forward", "alert"])?;
                let action = match w.node {
                    "drop" => WatchdogAction::Drop,
                    "forward" => WatchdogAction::Forward,
                    _ => WatchdogAction::Alert,
                };
                (r, WatchdogArg::Action(action))
            }
            _ => {
                return fail(
                    SyntaxError::new(
                        ErrorKind::UnknownKeyword,
                        start,
                        kw.len(),
                        format!("unknown pfc-watchdog parameter `{kw}`"),
                    )
                    .help(format!(
                        "pfc-watchdog parameters are {}",
                        list_words(WATCHDOG_ARGS)
                    )),
                );
            }
        };
        Ok((r, Spanned::new(arg, self.span(start, r))))
    }

    /// One word out of `options`: FAB004 with a suggestion otherwise.
    pub(super) fn choice(
        &self,
        i: &'a str,
        what: &str,
        options: &'static [&'static str],
    ) -> PResult<'a, Spanned<&'static str>> {
        let at = spaces(i);
        let Some((w, r)) = word(at) else {
            return fail(
                SyntaxError::expected(at, &format!("a {what}"))
                    .help(format!("a {what} is one of {}", list_words(options))),
            );
        };
        match options.iter().find(|o| **o == w) {
            Some(o) => Ok((r, Spanned::new(*o, self.span(at, r)))),
            None => fail(
                SyntaxError::new(
                    ErrorKind::UnknownKeyword,
                    at,
                    w.len(),
                    format!("unknown {what} `{}`", shorten(w)),
                )
                .help(
                    did_you_mean(w, options.iter().copied())
                        .unwrap_or_else(|| format!("a {what} is one of {}", list_words(options))),
                ),
            ),
        }
    }
}
