//! The parser's rules for models: methods of `Parser` (see the module docs of
//! `syntax::parser` for how every rule is written).

use super::*;

impl<'a> Parser<'a> {
    /// `switch_model = "switch-model" NAME block(switch_model_prop) ;`
    pub(super) fn switch_model(&self, i: &'a str) -> PResult<'a, SwitchModelDecl> {
        let (r, d) = self.named_decl(i, &SWITCH_MODEL_DECL, |i| self.switch_model_prop(i))?;
        let (name, props, span) = (d.name, d.props, d.span);
        Ok((r, SwitchModelDecl { name, props, span }))
    }

    /// `RELEASE = DIGITS "." DIGITS ;` after an OS name (`5.14`), optional.
    pub(super) fn os_release(&self, i: &'a str) -> PResult<'a, Option<OsRelease>> {
        let at = spaces(i);
        let len = number_len(at);
        if len == 0 {
            return Ok((i, None));
        }
        let tok = &at[..len];
        let parsed = tok.split_once('.').and_then(|(a, b)| {
            let ok = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
            if !ok(a) || !ok(b) {
                return None;
            }
            Some(OsRelease {
                major: a.parse().ok()?,
                minor: b.parse().ok()?,
            })
        });
        match parsed {
            Some(r) => Ok((&at[len..], Some(r))),
            None => fail(
                SyntaxError::new(
                    ErrorKind::OutOfRange,
                    at,
                    len,
                    format!("`{}` is not a release", shorten(tok)),
                )
                .help("a release is MAJOR.MINOR, e.g. `os cumulus 5.14`"),
            ),
        }
    }

    /// `buffer_model = "buffer-model" ( "dynamic" | "traditional" ) ;` (after the keyword)
    pub(super) fn buffer_model(&self, i: &'a str) -> PResult<'a, Spanned<BufferModel>> {
        let (r, w) = self.choice(i, "buffer model", BUFFER_MODELS)?;
        let model = if w.node == "dynamic" {
            BufferModel::Dynamic
        } else {
            BufferModel::Traditional
        };
        Ok((r, Spanned::new(model, w.span)))
    }

    /// `switch_model_prop
    ///   = "platform" NAME
    ///   | "os" ( "sonic" | "cumulus" | "eos" | "nxos" | "junos" | "vrp" | "comware" ) [ RELEASE ]
    ///   | "ports" port_group { "," port_group }
    ///   | "buffer" SIZE
    ///   | "lossless-limit" INT
    ///   | "cell" SIZE
    ///   | "dynamic-threshold" SIGNED_INT
    ///   | "description" STRING
    ///   | "buffer-model" ( "dynamic" | "traditional" )
    ///   | linecard
    ///   | "sku" STRING ;`
    pub(super) fn switch_model_prop(&self, i: &'a str) -> PResult<'a, Spanned<SwitchModelProp>> {
        let (r, kw) = self.block_keyword(i, &SWITCH_MODEL_BLOCK)?;
        let (r, prop) = match kw {
            "platform" => self
                .name(
                    r,
                    "a platform name, such as `nvidia-sn5600` (`fabricc platforms` lists them)",
                )
                .map(|(r, n)| (r, SwitchModelProp::Platform(n)))?,
            "buffer-model" => self
                .buffer_model(r)
                .map(|(r, m)| (r, SwitchModelProp::BufferModel(m.node)))?,
            "linecard" => self
                .linecard(r)
                .map(|(r, l)| (r, SwitchModelProp::Linecard(l)))?,
            "os" => {
                let names: &'static [&'static str] =
                    &["sonic", "cumulus", "eos", "nxos", "junos", "vrp", "comware"];
                let (r, w) = self.choice(r, "os", names)?;
                let os = Os::ALL
                    .iter()
                    .copied()
                    .find(|o| o.as_str() == w.node)
                    .unwrap_or(Os::Sonic);
                let (r, release) = self.os_release(r)?;
                (r, SwitchModelProp::Os(os, release))
            }
            "ports" => {
                let mut groups = Vec::new();
                let mut rest = r;
                loop {
                    let (next, g) = self.port_group(rest)?;
                    groups.push(g);
                    match spaces(next).strip_prefix(',') {
                        Some(after) => rest = after,
                        None => break (next, SwitchModelProp::Ports(groups)),
                    }
                }
            }
            "buffer" => self
                .size(r)
                .map(|(r, s)| (r, SwitchModelProp::Buffer(s.node)))?,
            "lossless-limit" => {
                let (r, v) =
                    self.int_in(r, "lossless-limit", LOSSLESS_LIMIT.lo, LOSSLESS_LIMIT.hi)?;
                (r, SwitchModelProp::LosslessLimit(v.node as u8))
            }
            "cell" => self
                .size(r)
                .map(|(r, s)| (r, SwitchModelProp::Cell(s.node)))?,
            "dynamic-threshold" => {
                let (r, v) = self.signed_int(
                    r,
                    "dynamic-threshold",
                    DYNAMIC_THRESHOLD.0,
                    DYNAMIC_THRESHOLD.1,
                )?;
                (r, SwitchModelProp::DynamicThreshold(v.node as i8))
            }
            "description" => {
                let (r, s) = self.string(r, "a description in quotes")?;
                (r, SwitchModelProp::Description(s.node))
            }
            "sku" => {
                let (r, s) = self.string(
                    r,
                    "a SONiC SKU folder in quotes, relative to this file (`sku \"skus/my-sku\"`)",
                )?;
                (r, SwitchModelProp::Sku(s))
            }
            _ => return fail(self.unknown(i, kw, &SWITCH_MODEL_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `port_group = INT "x" SPEED [ "breakout" INT "x" SPEED ] ;`
    pub(super) fn port_group(&self, i: &'a str) -> PResult<'a, Spanned<PortGroup>> {
        let start = spaces(i);
        let tok = &start[..number_len(start)];
        if let Some((count, speed)) = tok.split_once(['x', 'X'])
            && !count.is_empty()
            && count.bytes().all(|b| b.is_ascii_digit())
        {
            return fail(
                SyntaxError::new(
                    ErrorKind::Syntax,
                    start,
                    tok.len(),
                    format!(
                        "expected a port group such as `64 x 400G`, found `{}`",
                        shorten(tok)
                    ),
                )
                .help(format!(
                    "put a space on each side of `x`: `{count} x {speed}`"
                )),
            );
        }
        let (r, count) = self.int_in(start, "port count", COUNT.lo, COUNT.hi)?;
        let (r, ()) = match self.keyword(r, "x") {
            Ok(ok) => ok,
            Err(_) => {
                let at = spaces(r);
                return fail(
                    SyntaxError::expected(at, "`x` and a port speed")
                        .help(format!("write the ports as `{} x 400G`", count.node)),
                );
            }
        };
        let (r, speed) = self.speed(r)?;
        let (r, breakout) = match self.keyword(r, "breakout") {
            Ok((r, ())) => {
                let (r, ways) =
                    self.int_in(r, "sub-ports per cage", BREAKOUT_WAYS.lo, BREAKOUT_WAYS.hi)?;
                let (r, ()) = match self.keyword(r, "x") {
                    Ok(ok) => ok,
                    Err(_) => {
                        return fail(
                            SyntaxError::expected(spaces(r), "`x` and a sub-port speed")
                                .help("write the breakout as `breakout 2 x 400G`"),
                        );
                    }
                };
                let (r, sub) = self.speed(r)?;
                (
                    r,
                    Some(Breakout {
                        ways: ways.node,
                        speed: sub.node,
                    }),
                )
            }
            Err(_) => (r, None),
        };
        Ok((
            r,
            Spanned::new(
                PortGroup {
                    count: count.node,
                    speed: speed.node,
                    breakout,
                },
                self.span(start, r),
            ),
        ))
    }

    /// `nic_model = "nic-model" NAME block(nic_model_prop) ;`
    pub(super) fn nic_model(&self, i: &'a str) -> PResult<'a, NicModelDecl> {
        let (r, d) = self.named_decl(i, &NIC_MODEL_DECL, |i| self.nic_model_prop(i))?;
        let (name, props, span) = (d.name, d.props, d.span);
        Ok((r, NicModelDecl { name, props, span }))
    }

    /// `nic_model_prop = "platform" NAME | "driver" NAME | "speed" SPEED | "buffer" SIZE
    ///                | "ports" port_group ;`
    pub(super) fn nic_model_prop(&self, i: &'a str) -> PResult<'a, Spanned<NicModelProp>> {
        let (r, kw) = self.block_keyword(i, &NIC_MODEL_BLOCK)?;
        let (r, prop) = match kw {
            "platform" => self
                .name(
                    r,
                    "a NIC platform name, such as `nvidia-cx7` (`fabricc platforms` lists them)",
                )
                .map(|(r, n)| (r, NicModelProp::Platform(n)))?,
            "driver" => self
                .name(r, "a driver name, such as `mlx5`")
                .map(|(r, n)| (r, NicModelProp::Driver(n)))?,
            "speed" => self
                .speed(r)
                .map(|(r, s)| (r, NicModelProp::Speed(s.node)))?,
            "buffer" => self
                .size(r)
                .map(|(r, s)| (r, NicModelProp::Buffer(s.node)))?,
            "ports" => self
                .port_group(r)
                .map(|(r, g)| (r, NicModelProp::Ports(g.node)))?,
            _ => return fail(self.unknown(i, kw, &NIC_MODEL_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `load_balance = "load-balance" block(lb_prop) ;`
    pub(super) fn load_balance(&self, i: &'a str) -> PResult<'a, LoadBalanceDecl> {
        let (r, ()) = self.keyword(i, "load-balance")?;
        let help = "load-balance needs a block: `load-balance { hash src-ip dst-ip roce-qp }`";
        let (r, props) = self.block(r, help, |i| self.lb_prop(i))?;
        Ok((
            r,
            LoadBalanceDecl {
                props,
                span: self.span(i, r),
            },
        ))
    }

    /// `lb_prop = "hash" hash_field { hash_field }
    ///          | "mode" ( "ecmp" | "flowlet" | "per-packet" | "adaptive" )
    ///          | "flowlet-gap" TIME | "seed" ( "per-tier" | INT )
    ///          | "qps-per-connection" INT | "split-data-on-qps" ( "on" | "off" ) ;`
    pub(super) fn lb_prop(&self, i: &'a str) -> PResult<'a, Spanned<LbProp>> {
        let (r, kw) = self.block_keyword(i, &LOAD_BALANCE_BLOCK)?;
        let (r, prop) = match kw {
            "hash" => {
                let mut fields = Vec::new();
                let (mut r, first) = self.hash_field(r)?;
                fields.push(first);
                while let Some(w) = peek_word(r) {
                    if !HASH_FIELDS.contains(&w) {
                        break;
                    }
                    let (next, f) = self.hash_field(r)?;
                    fields.push(f);
                    r = next;
                }
                (r, LbProp::Hash(fields))
            }
            "mode" => {
                let (r, w) = self.choice(r, "load-balance mode", LB_MODES)?;
                let mode = match w.node {
                    "ecmp" => LbMode::Ecmp,
                    "flowlet" => LbMode::Flowlet,
                    "per-packet" => LbMode::PerPacket,
                    _ => LbMode::Adaptive,
                };
                (r, LbProp::Mode(mode))
            }
            "flowlet-gap" => self.time(r).map(|(r, t)| (r, LbProp::FlowletGap(t.node)))?,
            "seed" => {
                if peek_word(r) == Some("per-tier") {
                    let (r, ()) = self.keyword(r, "per-tier")?;
                    (r, LbProp::Seed(LbSeed::PerTier))
                } else {
                    self.int_in(r, "seed", 0, u64::from(u32::MAX))
                        .map(|(r, n)| (r, LbProp::Seed(LbSeed::Fixed(n.node))))?
                }
            }
            "qps-per-connection" => self
                .int_in(r, "qps-per-connection", 1, 128)
                .map(|(r, n)| (r, LbProp::QpsPerConnection(n.node)))?,
            "split-data-on-qps" => {
                let (r, w) = self.choice(r, "split-data-on-qps setting", &["on", "off"])?;
                (r, LbProp::SplitDataOnQps(w.node == "on"))
            }
            _ => return fail(self.unknown(i, kw, &LOAD_BALANCE_BLOCK)),
        };
        Ok((r, Spanned::new(prop, self.span(i, r))))
    }

    /// `hash_field = "src-ip" | "dst-ip" | "src-port" | "dst-port" | "protocol" | "roce-qp" ;`
    pub(super) fn hash_field(&self, i: &'a str) -> PResult<'a, Spanned<HashField>> {
        let (r, w) = self.choice(i, "hash field", HASH_FIELDS)?;
        let field = HashField::ALL
            .into_iter()
            .find(|f| f.keyword() == w.node)
            .unwrap_or(HashField::SrcIp);
        Ok((r, Spanned::new(field, w.span)))
    }
}
