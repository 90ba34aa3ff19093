//! The parser's rules for devices: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `switch = "switch" name_list [ block(switch_prop) ] ;`
    pub(super) fn switch(&self, i: &'a str) -> PResult<'a, SwitchDecl> {
        let (r, d) = self.listed_decl(i, "switch", "a switch name", |i| self.switch_prop(i))?;
        let (names, props, span) = (d.name, d.props, d.span);
        Ok((r, SwitchDecl { names, props, span }))
    }

    /// `switch_prop = "model" NAME
    ///              | "tier" INT
    ///              | "mtu" INT
    ///              | "description" STRING
    ///              | class
    ///              | "ecn" NAME ecn_spec
    ///              | "headroom" NAME SIZE
    ///              | "pfc-threshold" NAME SIZE
    ///              | watchdog ;`
    pub(super) fn switch_prop(&self, i: &'a str) -> PResult<'a, Spanned<SwitchProp>> {
        let (r, kw) = self.block_keyword(i, &SWITCH_BLOCK)?;
        let (r, prop) = match kw {
            "model" => self
                .name(r, "a switch model name")
                .map(|(r, n)| (r, SwitchProp::Model(n)))?,
            "tier" => {
                let (r, v) = self.int_in(r, "tier", TIER.lo, TIER.hi)?;
                (r, SwitchProp::Tier(v.map(|v| v as u8)))
            }
            "mtu" => self.mtu(i).map(|(r, v)| (r, SwitchProp::Mtu(v)))?,
            "description" => self
                .description(i)
                .map(|(r, v)| (r, SwitchProp::Description(v)))?,
            "class" => self.class(i).map(|(r, v)| (r, SwitchProp::Class(v)))?,
            "ecn" => {
                let (r, class) = self.name(r, "a class name, as in `ecn roce min 150KB`")?;
                let (r, spec) = self.ecn_spec(r)?;
                (r, SwitchProp::Ecn { class, spec })
            }
            "headroom" => {
                let (r, class) = self.name(r, "a class name, as in `headroom roce 20KB`")?;
                let (r, size) = self.size(r)?;
                (r, SwitchProp::Headroom { class, size })
            }
            "pfc-threshold" => {
                let (r, class) = self.name(r, "a class name, as in `pfc-threshold roce 60KB`")?;
                let (r, size) = self.size(r)?;
                (r, SwitchProp::PfcThreshold { class, size })
            }
            "pfc-watchdog" => self
                .watchdog(i)
                .map(|(r, v)| (r, SwitchProp::Watchdog(v)))?,
            _ => return fail(self.unknown(i, kw, &SWITCH_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `host = "host" name_list [ block(host_prop) ] ;`
    pub(super) fn host(&self, i: &'a str) -> PResult<'a, HostDecl> {
        let (r, d) = self.listed_decl(i, "host", "a host name", |i| self.host_prop(i))?;
        let (names, props, span) = (d.name, d.props, d.span);
        Ok((r, HostDecl { names, props, span }))
    }

    /// `host_prop = "nic" NAME [ "x" INT ] [ "role" nic_role ]
    ///            | "netdev" name_list
    ///            | "rdma-device" name_list
    ///            | "pci" pci_list
    ///            | "plane" INT { "," INT }
    ///            | "bond" ( "lacp" | "active-backup" | "balance-xor" )
    ///            | "spare"
    ///            | class
    ///            | "pfc" ( "on" | "off" )
    ///            | "ecn" [ NAME ] "off" ;`
    ///
    /// `nic_role = "backend" | "storage" | "frontend" ;`
    pub(super) fn host_prop(&self, i: &'a str) -> PResult<'a, Spanned<HostProp>> {
        let (r, kw) = self.block_keyword(i, &HOST_BLOCK)?;
        let (r, prop) = match kw {
            "nic" => {
                let (r, model) = self.name(r, "a NIC model name, as in `nic cx7 x 8`")?;
                let at = spaces(r);
                if at.starts_with(|c: char| c.is_ascii_digit()) {
                    return fail(
                        SyntaxError::expected(at, "`x` before the number of NICs").help(format!(
                            "write `nic {} x {}`",
                            model.node,
                            shorten(&at[..number_len(at)])
                        )),
                    );
                }
                let (r, count) = match spaces(r).strip_prefix('x').and_then(word_boundary) {
                    Some(after) => {
                        let (r, n) = self.int_in(after, "nic count", COUNT.lo, COUNT.hi)?;
                        (r, Some(n))
                    }
                    None => (r, None),
                };
                let (r, role) = if peek_word(r) == Some("role") {
                    let (r, ()) = self.keyword(r, "role")?;
                    let (r, w) = self.choice(r, "NIC role", NicRole::WORDS)?;
                    let role = NicRole::from_word(w.node).unwrap_or_default();
                    (r, Some(Spanned::new(role, w.span)))
                } else {
                    (r, None)
                };
                (r, HostProp::Nic { model, count, role })
            }
            "netdev" => self
                .name_list(r, "a netdev name")
                .map(|(r, v)| (r, HostProp::Netdev(v)))?,
            "rdma-device" => self
                .name_list(r, "an rdma device name")
                .map(|(r, v)| (r, HostProp::RdmaDevice(v)))?,
            "pci" => self.pci_list(r).map(|(r, v)| (r, HostProp::Pci(v)))?,
            "plane" => self.plane_list(r)?,
            "bond" => self.bond_mode(r)?,
            "spare" => (r, HostProp::Spare),
            "class" => self.class(i).map(|(r, v)| (r, HostProp::Class(v)))?,
            "pfc" => {
                let (r, w) = self.choice(r, "pfc setting", &["on", "off"])?;
                (r, HostProp::Pfc(w.node == "on"))
            }
            "ecn" => {
                let at = spaces(r);
                let class_given = match word(at) {
                    Some(("off", after)) => peek_word(after) == Some("off"),
                    Some(_) => true,
                    None => false,
                };
                let (r, class) = if class_given {
                    let (r, c) = self.name(r, "a class name")?;
                    (r, Some(c))
                } else {
                    (r, None)
                };
                let at = spaces(r);
                if peek_word(r) != Some("off") {
                    return fail(
                        SyntaxError::expected(at, "`off`")
                            .help("a host can only turn ecn off: `ecn off` or `ecn roce off`"),
                    );
                }
                let (r, ()) = self.keyword(r, "off")?;
                (r, HostProp::EcnOff { class })
            }
            _ => return fail(self.unknown(i, kw, &HOST_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `link = "link" endpoint "--" endpoint [ block(link_prop) ] ;`
    pub(super) fn link(&self, i: &'a str) -> PResult<'a, LinkDecl> {
        let (r, ()) = self.keyword(i, "link")?;
        let (r, a) = cut(|i| self.endpoint(i)).parse(r)?;
        let (r, ()) = self.dash_dash(r, &a)?;
        let (r, b) = self.endpoint(r)?;
        let (r, props) = self.opt_block(r, |i| self.link_prop(i))?;
        Ok((
            r,
            LinkDecl {
                a,
                b,
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `endpoint = name_pattern ;`
    pub(super) fn endpoint(&self, i: &'a str) -> PResult<'a, NamePattern> {
        self.name_pattern(i, "a link end, such as `L1` or `h1.nic3`")
    }

    /// `--` with a space on each side, after the first end `a`.
    pub(super) fn dash_dash(&self, i: &'a str, a: &NamePattern) -> PResult<'a, ()> {
        let at = spaces(i);
        if let Some(r) = at.strip_prefix("--") {
            if r.starts_with([' ', '\t']) {
                return Ok((r, ()));
            }
            return fail(
                SyntaxError::new(ErrorKind::Syntax, at, 2, "`--` needs a space on each side")
                    .help("write `A -- B`"),
            );
        }
        let text = pattern_text(a);
        if let Some((x, y)) = text.split_once("--") {
            let start = self.at(a.span.start as usize);
            return fail(
                SyntaxError::new(
                    ErrorKind::Syntax,
                    start,
                    a.span.len(),
                    format!(
                        "expected two ends separated by ` -- `, found `{}`",
                        shorten(&text)
                    ),
                )
                .help(format!("`-` is a name character: write `{x} -- {y}`")),
            );
        }
        fail(SyntaxError::expected(at, "`--` and the other end").help("write `A -- B`"))
    }

    /// `link_prop = "speed" SPEED | "cable" LENGTH | "count" INT | "zip"
    ///           | "ecn" NAME ecn_arg { ecn_arg } ;`
    pub(super) fn link_prop(&self, i: &'a str) -> PResult<'a, Spanned<LinkProp>> {
        let (r, kw) = self.block_keyword(i, &LINK_BLOCK)?;
        let (r, prop) = match kw {
            "speed" => self.speed(r).map(|(r, s)| (r, LinkProp::Speed(s.node)))?,
            "cable" => self.length(r).map(|(r, s)| (r, LinkProp::Cable(s.node)))?,
            "count" => self
                .int_in(r, "count", COUNT.lo, COUNT.hi)
                .map(|(r, n)| (r, LinkProp::Count(n.node)))?,
            "zip" => (r, LinkProp::Zip),
            "ecn" => {
                let (r, class) =
                    self.name(r, "a class name, as in `ecn roce min 1.5MB max 6MB`")?;
                let (r, spec) = self.ecn_spec(r)?;
                match spec {
                    EcnSpec::Params(args) => (r, LinkProp::Ecn { class, args }),
                    EcnSpec::Off => {
                        return fail(
                            SyntaxError::new(
                                ErrorKind::Syntax,
                                spaces(r),
                                0,
                                "a link's `ecn` takes thresholds, not `off`".to_string(),
                            )
                            .help("write `ecn roce min 1.5MB max 6MB`; turn marking off for a switch with `ecn roce off` in its block"),
                        );
                    }
                }
            }
            _ => return fail(self.unknown(i, kw, &LINK_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    // Issue 18 (dual-ToR bonds, spare hosts, per-port planes).
    /// `"plane" INT { "," INT }`: one plane per NIC port, in NIC-port order; 0 is "none",
    /// 1..16 as `planes N` allows.
    pub(super) fn plane_list(&self, i: &'a str) -> PResult<'a, HostProp> {
        let mut out = Vec::new();
        let mut rest = i;
        loop {
            let (r, v) = self.int_in(rest, "plane", 0, 16)?;
            out.push(Spanned::new(v.node as u32, v.span));
            match spaces(r).strip_prefix(',') {
                Some(after) => rest = after,
                None => return Ok((r, HostProp::Planes(out))),
            }
        }
    }

    /// `"bond" ( "lacp" | "active-backup" | "balance-xor" )`
    pub(super) fn bond_mode(&self, i: &'a str) -> PResult<'a, HostProp> {
        let (r, w) = self.choice(i, "bond mode", BondMode::WORDS)?;
        let mode = BondMode::from_word(w.node).unwrap_or(BondMode::Lacp);
        Ok((r, HostProp::Bond(mode)))
    }
}
