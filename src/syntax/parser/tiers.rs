//! The parser's rules for generated tiers: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `tier = "tier" NAME block(tier_prop) ;`
    pub(super) fn tier(&self, i: &'a str) -> PResult<'a, TierDecl> {
        let (r, ()) = self.keyword(i, "tier")?;
        let at = spaces(r);
        if at.starts_with(|c: char| c.is_ascii_digit()) {
            return fail(
                SyntaxError::expected(at, "a tier name, such as `leaf`").help(
                    "`tier 1` sets the tier of a switch inside its block: `switch L1 { tier 1 }`",
                ),
            );
        }
        let (r, d) = self.named_decl(i, &TIER_DECL, |i| self.tier_prop(i))?;
        let (name, props, span) = (d.name, d.props, d.span);
        Ok((r, TierDecl { name, props, span }))
    }

    /// `tier_prop = "model" NAME
    ///            | "oversubscription" RATIO
    ///            | "cable" LENGTH
    ///            | "name" NAME_TEMPLATE
    ///            | "downlinks" INT
    ///            | "uplinks" INT
    ///            | "switches" INT
    ///            | "planes" INT
    ///            | "wiring" ( "rail" | "rack" )
    ///            | "dual-tor"
    ///            | "peer-link" INT ;`
    pub(super) fn tier_prop(&self, i: &'a str) -> PResult<'a, Spanned<TierProp>> {
        let (r, kw) = self.block_keyword(i, &TIER_BLOCK)?;
        let (r, prop) = match kw {
            "model" => self
                .name(r, "a switch model name")
                .map(|(r, n)| (r, TierProp::Model(n)))?,
            "oversubscription" => self
                .ratio(r)
                .map(|(r, v)| (r, TierProp::Oversubscription(v.node)))?,
            "cable" => self.length(r).map(|(r, v)| (r, TierProp::Cable(v.node)))?,
            "name" => self.name_template(r).map(|(r, v)| (r, TierProp::Name(v)))?,
            "downlinks" => self
                .int(r, "a number of downlinks")
                .map(|(r, v)| (r, TierProp::Downlinks(v.node)))?,
            "uplinks" => self
                .int(r, "a number of uplinks")
                .map(|(r, v)| (r, TierProp::Uplinks(v.node)))?,
            "switches" => self
                .int(r, "a number of switches")
                .map(|(r, v)| (r, TierProp::Switches(v.node)))?,
            "planes" => self
                .int_in(r, "planes", 1, 16)
                .map(|(r, v)| (r, TierProp::Planes(v.node)))?,
            "wiring" => {
                let (r, w) = self.choice(r, "wiring style", &["rail", "rack"])?;
                let style = if w.node == "rack" {
                    WiringStyle::Rack
                } else {
                    WiringStyle::Rail
                };
                (r, TierProp::Wiring(style))
            }
            "dual-tor" => (r, TierProp::DualTor),
            "peer-link" => self
                .int_in(r, "peer-link", 1, 64)
                .map(|(r, v)| (r, TierProp::PeerLink(v.node)))?,
            _ => return fail(self.unknown(i, kw, &TIER_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `NAME_TEMPLATE = ( NAME_START | "{" PLACEHOLDER "}" ) { NAME_CHAR | "{" PLACEHOLDER "}" } ;`
    pub(super) fn name_template(&self, i: &'a str) -> PResult<'a, NameTemplate> {
        let start = spaces(i);
        if !start.starts_with(|c: char| is_name_start(c) || c == '{') {
            return fail(
                SyntaxError::expected(start, "a name template, such as `leaf-{rail}-{n}`")
                    .help(format!("placeholders are {}", placeholder_list())),
            );
        }
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = start;
        loop {
            if let Some(after) = rest.strip_prefix('{') {
                if !text.is_empty() {
                    parts.push(TemplatePart::Text(std::mem::take(&mut text)));
                }
                let (r, p) = self.placeholder(rest, after)?;
                parts.push(TemplatePart::Placeholder(p));
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
            parts.push(TemplatePart::Text(text));
        }
        Ok((
            rest,
            NameTemplate {
                parts,
                span: self.span(start, rest),
            },
        ))
    }

    /// `PLACEHOLDER = "tier" | "n" | "rail" | "group" | "pod" | "plane" | "index" | "fabric" ;`
    /// (`open` is at the `{`, `i` just after it)
    pub(super) fn placeholder(&self, open: &'a str, i: &'a str) -> PResult<'a, Spanned<String>> {
        let Some((w, r)) = word(i) else {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    open,
                    1,
                    "expected a placeholder after `{`, such as `{rail}`",
                )
                .help(format!("placeholders are {}", placeholder_list())),
            );
        };
        let Some(r) = r.strip_prefix('}') else {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    open,
                    1 + w.len(),
                    "unclosed `{` in a name template",
                )
                .help(format!("close it: `{{{w}}}`")),
            );
        };
        if !PLACEHOLDERS.contains(&w) {
            return fail(
                SyntaxError::new(
                    ErrorKind::BadPattern,
                    open,
                    w.len() + 2,
                    format!("unknown placeholder `{{{}}}`", shorten(w)),
                )
                .help({
                    let braced: Vec<String> =
                        PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect();
                    did_you_mean(&format!("{{{w}}}"), braced.iter().map(String::as_str))
                        .unwrap_or_else(|| format!("placeholders are {}", placeholder_list()))
                }),
            );
        }
        Ok((
            r,
            Spanned::new(
                w.to_string(),
                Span::new(self.file, self.pos(i), self.pos(r) - 1),
            ),
        ))
    }
}
