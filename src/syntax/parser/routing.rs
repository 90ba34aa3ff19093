//! The parser's rules for routing: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `routing = "routing" ( "updown" | "shortest" | "none" ) ;`
    pub(super) fn routing(&self, i: &'a str) -> PResult<'a, Spanned<RoutingModel>> {
        let (r, ()) = self.keyword(i, "routing")?;
        let (r, w) = self.choice(r, "routing model", ROUTING_MODELS)?;
        let model = match w.node {
            "updown" => RoutingModel::Updown,
            "shortest" => RoutingModel::Shortest,
            _ => RoutingModel::None,
        };
        Ok((r, Spanned::new(model, w.span)))
    }

    /// `route = "route" "at" NAME "to" NAME "via" NAME ;`
    pub(super) fn route(&self, i: &'a str) -> PResult<'a, RouteStmt> {
        let help = "write `route at SWITCH to HOST via NEIGHBOUR`";
        let (r, ()) = self.keyword(i, "route")?;
        let (r, ()) = self.keyword(r, "at").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, at) = self.name(r, "a switch name")?;
        let (r, ()) = self.keyword(r, "to").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, to) = self.name(r, "a host or switch name")?;
        let (r, ()) = self
            .keyword(r, "via")
            .map_err(|e| e.map(|e| e.help(help)))?;
        let (r, via) = self.name(r, "a neighbour switch name")?;
        Ok((r, RouteStmt { at, to, via }))
    }

    /// `fail = "fail" name_pattern "--" name_pattern ;`
    pub(super) fn fail_stmt(&self, i: &'a str) -> PResult<'a, FailStmt> {
        let (r, ()) = self.keyword(i, "fail")?;
        let (r, a) = cut(|i| self.endpoint(i)).parse(r)?;
        let (r, ()) = self.dash_dash(r, &a)?;
        let (r, b) = self.endpoint(r)?;
        Ok((r, FailStmt { a, b }))
    }

    /// `check = "check" "failures" INT ;`
    pub(super) fn check(&self, i: &'a str) -> PResult<'a, Spanned<u64>> {
        let (r, ()) = self.keyword(i, "check")?;
        let (r, _) = self.choice(r, "check", &["failures"])?;
        self.int_in(r, "check failures", CHECK_FAILURES.lo, CHECK_FAILURES.hi)
    }

    /// `path = "path" [ "class" NAME ] NAME "->" NAME { "->" NAME } ;`
    pub(super) fn path(&self, i: &'a str) -> PResult<'a, PathStmt> {
        let (r, ()) = self.keyword(i, "path")?;
        // `class` is the keyword unless it is the first hop (`path class -> L1`).
        let (r, class) = match word(spaces(r)) {
            Some(("class", after)) if !spaces(after).starts_with("->") => {
                let (r, c) = self.name(after, "a class name")?;
                (r, Some(c))
            }
            _ => (r, None),
        };
        let (mut r, first) = self.name(r, "a host or switch name")?;
        let mut hops = vec![first];
        loop {
            match self.arrow(r, hops.last())? {
                Some(after) => {
                    let (next, hop) = self.name(after, "a switch or host name after `->`")?;
                    hops.push(hop);
                    r = next;
                }
                None if hops.len() < 2 => {
                    return fail(
                        SyntaxError::expected(spaces(r), "`->` and the next hop")
                            .help("a path has at least two hops: `path h1 -> L1`"),
                    );
                }
                None => return Ok((r, PathStmt { class, hops })),
            }
        }
    }

    /// `->` with a space on each side; `None` when there is none. `prev` is the name before.
    pub(super) fn arrow(
        &self,
        i: &'a str,
        prev: Option<&Ident>,
    ) -> Result<Option<&'a str>, nom::Err<SyntaxError<'a>>> {
        let at = spaces(i);
        if let Some(r) = at.strip_prefix("->") {
            if r.starts_with([' ', '\t']) {
                return Ok(Some(r));
            }
            return Err(nom::Err::Failure(
                SyntaxError::new(ErrorKind::Syntax, at, 2, "`->` needs a space on each side")
                    .help("write `A -> B`"),
            ));
        }
        // `h5->T2` reads as the name `h5-` and then `>`.
        if let Some(prev) = prev
            && at.starts_with('>')
            && prev.node.ends_with('-')
            && at.len() == i.len()
        {
            let name = prev.node.trim_end_matches('-');
            return Err(nom::Err::Failure(
                SyntaxError::new(ErrorKind::Syntax, at, 1, "`->` needs a space on each side")
                    .help(format!("`-` is a name character: write `{name} -> …`")),
            ));
        }
        Ok(None)
    }

    /// `rewrite = "rewrite" "at" NAME "from" NAME "to" NAME "priority" INT "->" INT ;`
    pub(super) fn rewrite(&self, i: &'a str) -> PResult<'a, RewriteStmt> {
        let help = "write `rewrite at SWITCH from NEIGHBOUR to NEIGHBOUR priority 3 -> 4`";
        let (r, ()) = self.keyword(i, "rewrite")?;
        let (r, ()) = self.keyword(r, "at").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, at) = self.name(r, "a switch name")?;
        let (r, ()) = self
            .keyword(r, "from")
            .map_err(|e| e.map(|e| e.help(help)))?;
        let (r, from) = self.name(r, "a neighbour name")?;
        let (r, ()) = self.keyword(r, "to").map_err(|e| e.map(|e| e.help(help)))?;
        let (r, to) = self.name(r, "a neighbour name")?;
        let (r, ()) = self
            .keyword(r, "priority")
            .map_err(|e| e.map(|e| e.help(help)))?;
        let (r, old) = self.priority(r)?;
        let Some(r) = self.arrow(r, None)? else {
            return fail(SyntaxError::expected(spaces(r), "`->` and the new priority").help(help));
        };
        let (r, new) = self.priority(r)?;
        Ok((
            r,
            RewriteStmt {
                at,
                from,
                to,
                old,
                new,
            },
        ))
    }

    /// `allow = "allow" NAME { "," NAME } ;` (each NAME a finding code such as `FAB954`;
    /// which codes may be allowed is the resolver's business, FAB113)
    pub(super) fn allow(&self, i: &'a str) -> PResult<'a, Vec<Ident>> {
        let (mut r, ()) = self.keyword(i, "allow")?;
        let mut codes = Vec::new();
        loop {
            let (next, code) = self
                .name(r, "a finding code such as `FAB954`")
                .map_err(|e| e.map(|e| e.help("write `allow FAB905, FAB954`")))?;
            codes.push(code);
            match spaces(next).strip_prefix(',') {
                Some(after) => r = after,
                None => return Ok((next, codes)),
            }
        }
    }

    /// `bounce_tagging = "bounce-tagging" INT "->" INT { "->" INT } ;`
    pub(super) fn bounce_tagging(&self, i: &'a str) -> PResult<'a, Vec<Spanned<u8>>> {
        let (r, ()) = self.keyword(i, "bounce-tagging")?;
        let (mut r, first) = self.priority(r)?;
        let mut prios = vec![first];
        loop {
            match self.arrow(r, None)? {
                Some(after) => {
                    let (next, p) = self.priority(after)?;
                    prios.push(p);
                    r = next;
                }
                None if prios.len() < 2 => {
                    return fail(
                        SyntaxError::expected(spaces(r), "`->` and the next priority")
                            .help("write `bounce-tagging 3 -> 4`"),
                    );
                }
                None => return Ok((r, prios)),
            }
        }
    }
}
