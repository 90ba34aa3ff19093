//! The YAML front end: a `.yaml` fabric document ([`doc::FabricDoc`]) → `ast::File`. Reading
//! YAML turns it into the explicit statements of the language, so the same resolver and
//! checks run on it as on a `.fab` file.

pub mod doc;

use crate::diagnostic::{Code, Diagnostic};
use crate::span::{FileId, Span, Spanned};
use crate::syntax::ast::{
    self, ClassDecl, ClassProp, Congestion, DscpSpec, EcnArg, EcnLevel, EcnSpec, Item, NamePattern,
    NicRole, Os, Percent, RoutingModel, Segment, Size, Speed, Stmt, StmtKind, SwitchProp,
    WatchdogAction,
};

use doc::*;

/// `min` / `max` of one ECN statement: bytes and fill levels as the document gives them (both
/// for one threshold is the resolver's "set twice"; a mix is `bounds`' finding).
fn ecn_levels(
    min: (Option<u64>, Option<f64>),
    max: (Option<u64>, Option<f64>),
    span: Span,
) -> Vec<Spanned<EcnArg>> {
    let mut args = Vec::new();
    let level = |(b, f): (Option<u64>, Option<f64>)| {
        b.map(|b| EcnLevel::Size(Size::Bytes(b)))
            .into_iter()
            .chain(f.map(|f| EcnLevel::Fill(Percent(thousandths(f)))))
    };
    args.extend(level(min).map(|l| Spanned::new(EcnArg::Min(l), span)));
    args.extend(level(max).map(|l| Spanned::new(EcnArg::Max(l), span)));
    args
}

fn ecn_speeds_ast(list: &[EcnAtSpeedDoc], span: Span) -> Vec<Spanned<ClassProp>> {
    list.iter()
        .map(|e| {
            let mut args = ecn_levels(
                (e.min_bytes, e.min_fill_percent),
                (e.max_bytes, e.max_fill_percent),
                span,
            );
            if let Some(p) = e.probability_percent {
                args.push(Spanned::new(
                    EcnArg::Probability(Percent(thousandths(p))),
                    span,
                ));
            }
            Spanned::new(
                ClassProp::EcnAt {
                    speed: Spanned::new(Speed(e.speed_mbps), span),
                    args,
                },
                span,
            )
        })
        .collect()
}

/// Finds where values sit in the YAML text, moving forward in document order, so a
/// diagnostic about the 40th link points at that link's line.
struct Locator<'a> {
    file: FileId,
    text: &'a str,
    cursor: usize,
}

impl Locator<'_> {
    /// The span of `key: value` at or after the cursor (the value's bytes), or the cursor.
    fn find(&mut self, key: &str, value: &str) -> Span {
        self.find_opt(key, value)
            .unwrap_or(Span::new(self.file, self.cursor, self.cursor))
    }

    /// The span of `key: value` at or after the cursor, when there is one.
    fn find_opt(&mut self, key: &str, value: &str) -> Option<Span> {
        let rest = self.text.get(self.cursor..).unwrap_or("");
        let mut from = 0;
        while let Some(i) = rest[from..].find(key) {
            let at = from + i;
            // A whole key only: `mtu` must not match inside `roce_mtu` (R4).
            let before = rest[..at].chars().next_back();
            if key.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                && before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
            {
                from = at + key.len();
                continue;
            }
            let after = &rest[at + key.len()..];
            if let Some(v) = after.strip_prefix(':') {
                let trimmed = v.trim_start_matches([' ', '\t']);
                let vs = trimmed.trim_start_matches(['"', '\'']);
                if vs.starts_with(value) {
                    let start = self.cursor + at + key.len() + 1 + (v.len() - vs.len());
                    self.cursor = start;
                    return Some(Span::new(self.file, start, start + value.len()));
                }
            }
            from = at + key.len();
        }
        None
    }
}

fn ident(name: &str, span: Span) -> ast::Ident {
    Spanned::new(name.to_string(), span)
}

fn pattern(name: &str, span: Span) -> NamePattern {
    NamePattern {
        segments: vec![Segment::Text(name.to_string())],
        span,
    }
}

/// R3: a negative or non-finite bandwidth is FAB005 at its line, not a silent 0 %.
fn not_a_percentage(p: f64, span: Span) -> Result<(), Diagnostic> {
    if is_percentage(p) {
        return Ok(());
    }
    Err(Diagnostic::new(
        Code::OutOfRange,
        span,
        format!("{NOT_A_PERCENTAGE} `{p}` (a percentage is a number from 0)"),
    )
    .label("this value")
    .help("write the percentage as a number from 0 to 100, e.g. `bandwidth_percent: 50`"))
}

/// Percent as thousandths; every caller's value passed [`doc::percent`] or
/// [`not_a_percentage`], so nothing is clamped here.
fn thousandths(p: f64) -> u64 {
    (p * 1000.0).round().max(0.0) as u64
}

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

fn yaml_error(file: FileId, text: &str, e: &serde_yaml::Error) -> Diagnostic {
    let (start, end) = e
        .location()
        .map_or((0, 0), |l| (l.index(), (l.index() + 1).min(text.len())));
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    if msg.contains(NOT_A_PERCENTAGE) {
        return Diagnostic::new(Code::OutOfRange, Span::new(file, start, end), msg)
            .label("this value")
            .help(
                "write the percentage as a number from 0 to 100, e.g. `probability_percent: 10`",
            );
    }
    Diagnostic::new(Code::YamlInput, Span::new(file, start, end), msg)
        .label("here")
        .help("the YAML form is what `fabricc export --format yaml` prints; compare with that")
}

fn os_of(name: &str) -> Option<Os> {
    Os::ALL.into_iter().find(|o| o.as_str() == name)
}

/// `release: "5.14"` of the YAML form.
fn release_doc(text: Option<&str>, span: Span) -> Result<Option<ast::OsRelease>, Diagnostic> {
    let Some(text) = text else { return Ok(None) };
    let parsed = text.split_once('.').and_then(|(a, b)| {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        if !digits(a) || !digits(b) {
            return None;
        }
        Some(ast::OsRelease {
            major: a.parse().ok()?,
            minor: b.parse().ok()?,
        })
    });
    parsed.map(Some).ok_or_else(|| {
        Diagnostic::new(
            Code::YamlInput,
            span,
            format!("`{text}` is not a release (MAJOR.MINOR, e.g. `5.14`)"),
        )
        .label("here")
    })
}

fn buffer_model_of(name: &str) -> Option<ast::BufferModel> {
    ast::BufferModel::ALL
        .into_iter()
        .find(|m| m.as_str() == name)
}

/// The `load-balance` block of the YAML form; an unknown keyword is FAB015-style YAML input.
fn load_balance_ast(
    lb: &LoadBalanceDoc,
    at: Span,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<ast::LoadBalanceDecl, Diagnostic> {
    let mut props = Vec::new();
    let mut push = |p: ast::LbProp| props.push(Spanned::new(p, at));
    if !lb.hash.is_empty() {
        let mut fields = Vec::new();
        for h in &lb.hash {
            let f = ast::HashField::ALL
                .into_iter()
                .find(|f| f.keyword() == h)
                .ok_or_else(|| {
                    bad(
                        at,
                        format!(
                            "`{}` is not a hash field (src-ip, dst-ip, src-port, dst-port, protocol, roce-qp)",
                            h.escape_debug()
                        ),
                    )
                })?;
            fields.push(Spanned::new(f, at));
        }
        push(ast::LbProp::Hash(fields));
    }
    if let Some(m) = &lb.mode {
        let mode = [
            ast::LbMode::Ecmp,
            ast::LbMode::Flowlet,
            ast::LbMode::PerPacket,
            ast::LbMode::Adaptive,
        ]
        .into_iter()
        .find(|x| x.keyword() == m)
        .ok_or_else(|| {
            bad(
                at,
                format!(
                    "`{}` is not a load-balance mode (ecmp, flowlet, per-packet, adaptive)",
                    m.escape_debug()
                ),
            )
        })?;
        push(ast::LbProp::Mode(mode));
    }
    if let Some(g) = lb.flowlet_gap_ns {
        push(ast::LbProp::FlowletGap(ast::Time(g)));
    }
    if let Some(s) = &lb.seed {
        let seed = if s == "per-tier" {
            ast::LbSeed::PerTier
        } else {
            ast::LbSeed::Fixed(s.parse::<u64>().map_err(|_| {
                bad(
                    at,
                    format!(
                        "`{}` is not a seed (per-tier or a number)",
                        s.escape_debug()
                    ),
                )
            })?)
        };
        push(ast::LbProp::Seed(seed));
    }
    if let Some(q) = lb.qps_per_connection {
        push(ast::LbProp::QpsPerConnection(q));
    }
    if let Some(on) = lb.split_data_on_qps {
        push(ast::LbProp::SplitDataOnQps(on));
    }
    Ok(ast::LoadBalanceDecl { props, span: at })
}

/// The statement of a `classes` entry.
fn class_stmt(
    loc: &mut Locator<'_>,
    c: &ClassDoc,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<Stmt, Diagnostic> {
    let span = loc.find("name", &c.name);
    let mut props = Vec::new();
    if let Some(d) = &c.dscp {
        props.push(Spanned::new(ClassProp::Dscp(dscp_ast(d, span, bad)?), span));
    }
    props.push(Spanned::new(
        ClassProp::Priority(Spanned::new(c.priority, span)),
        span,
    ));
    props.push(Spanned::new(ClassProp::Lossless(c.lossless), span));
    props.push(Spanned::new(
        ClassProp::Congestion(congestion_ast(&c.congestion, span, bad)?),
        span,
    ));
    props.push(Spanned::new(ClassProp::Ecn(ecn_ast(&c.ecn, span)), span));
    match &c.scheduling {
        SchedulingDoc::Strict(s) if s == "strict" => {
            props.push(Spanned::new(ClassProp::Strict, span))
        }
        SchedulingDoc::Strict(s) => {
            return Err(bad(
                span,
                format!("scheduling `{s}` is not `strict` or a bandwidth"),
            ));
        }
        SchedulingDoc::Ets {
            bandwidth_percent: Some(p),
        } => {
            not_a_percentage(*p, span)?;
            props.push(Spanned::new(
                ClassProp::Bandwidth(Spanned::new(Percent(thousandths(*p)), span)),
                span,
            ));
        }
        SchedulingDoc::Ets {
            bandwidth_percent: None,
        } => {}
    }
    if let Some(t) = c.pfc_threshold_bytes {
        props.push(Spanned::new(
            ClassProp::PfcThreshold(Spanned::new(Size::Bytes(t), span)),
            span,
        ));
    }
    if c.cnp {
        props.push(Spanned::new(ClassProp::Cnp, span));
    }
    if let Some(t) = c.traffic_class {
        props.push(Spanned::new(
            ClassProp::TrafficClass(Spanned::new(t, span)),
            span,
        ));
    }
    if let Some(q) = c.queue {
        props.push(Spanned::new(ClassProp::Queue(Spanned::new(q, span)), span));
    }
    props.extend(ecn_speeds_ast(&c.ecn_at_speed, span));
    if let Some(r) = c.rate_percent {
        props.push(Spanned::new(
            ClassProp::Rate(Spanned::new(Percent(r.saturating_mul(1000)), span)),
            span,
        ));
    }
    Ok(stmt(
        StmtKind::Class(ClassDecl {
            name: ident(&c.name, span),
            props,
            span,
        }),
        span,
    ))
}

/// The statement of a `switch_models` entry.
fn switch_model_stmt(
    loc: &mut Locator<'_>,
    m: &SwitchModelDoc,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<Stmt, Diagnostic> {
    let span = loc.find("name", &m.name);
    let os = os_of(&m.os).ok_or_else(|| {
        bad(
            span,
            format!("`{}` is not an OS (sonic, cumulus, eos, nxos, junos)", m.os),
        )
    })?;
    let mut props = Vec::new();
    if let Some(p) = &m.platform {
        props.push(Spanned::new(
            ast::SwitchModelProp::Platform(ident(p, span)),
            span,
        ));
    }
    props.extend([
        Spanned::new(
            ast::SwitchModelProp::Os(os, release_doc(m.release.as_deref(), span)?),
            span,
        ),
        Spanned::new(
            ast::SwitchModelProp::Ports(
                m.ports
                    .iter()
                    .map(|g| {
                        Spanned::new(
                            ast::PortGroup {
                                count: u64::from(g.count),
                                speed: Speed(g.speed_mbps),
                                breakout: g.breakout.as_ref().map(|b| ast::Breakout {
                                    ways: u64::from(b.ways),
                                    speed: Speed(b.speed_mbps),
                                }),
                            },
                            span,
                        )
                    })
                    .collect(),
            ),
            span,
        ),
    ]);
    if let Some(b) = m.buffer_bytes {
        props.push(Spanned::new(
            ast::SwitchModelProp::Buffer(Size::Bytes(b)),
            span,
        ));
    }
    if let Some(l) = m.lossless_limit {
        props.push(Spanned::new(ast::SwitchModelProp::LosslessLimit(l), span));
    }
    if let Some(c) = m.cell_bytes {
        props.push(Spanned::new(
            ast::SwitchModelProp::Cell(Size::Bytes(c)),
            span,
        ));
    }
    props.push(Spanned::new(
        ast::SwitchModelProp::DynamicThreshold(m.dynamic_threshold),
        span,
    ));
    if let Some(b) = &m.buffer_model {
        let model = buffer_model_of(b).ok_or_else(|| {
            bad(
                span,
                format!("`{b}` is not a buffer model (dynamic, traditional)"),
            )
        })?;
        props.push(Spanned::new(ast::SwitchModelProp::BufferModel(model), span));
    }
    for l in &m.linecards {
        props.push(Spanned::new(
            ast::SwitchModelProp::Linecard(ast::LinecardSlots {
                first: u64::from(l.first_slot),
                last: u64::from(l.last_slot),
                card: ident(&l.card, span),
            }),
            span,
        ));
    }
    if let Some(path) = &m.sku {
        let at = loc.find("sku", path);
        props.push(Spanned::new(
            ast::SwitchModelProp::Sku(Spanned::new(path.clone(), at)),
            at,
        ));
    }
    Ok(stmt(
        StmtKind::SwitchModel(ast::SwitchModelDecl {
            name: ident(&m.name, span),
            props,
            span,
        }),
        span,
    ))
}

/// The statement of a `nic_models` entry.
fn nic_model_stmt(loc: &mut Locator<'_>, m: &NicModelDoc) -> Result<Stmt, Diagnostic> {
    let span = loc.find("name", &m.name);
    let mut props = Vec::new();
    if let Some(p) = &m.platform {
        props.push(Spanned::new(
            ast::NicModelProp::Platform(ident(p, span)),
            span,
        ));
    }
    props.push(Spanned::new(
        ast::NicModelProp::Driver(ident(&m.driver, span)),
        span,
    ));
    if m.ports > 1 {
        props.push(Spanned::new(
            ast::NicModelProp::Ports(ast::PortGroup {
                count: u64::from(m.ports),
                speed: Speed(m.speed_mbps),
                breakout: None,
            }),
            span,
        ));
    } else {
        props.push(Spanned::new(
            ast::NicModelProp::Speed(Speed(m.speed_mbps)),
            span,
        ));
    }
    if let Some(b) = m.buffer_bytes {
        props.push(Spanned::new(
            ast::NicModelProp::Buffer(Size::Bytes(b)),
            span,
        ));
    }
    Ok(stmt(
        StmtKind::NicModel(ast::NicModelDecl {
            name: ident(&m.name, span),
            props,
            span,
        }),
        span,
    ))
}

/// The statement of a `switches` entry.
fn switch_stmt(
    loc: &mut Locator<'_>,
    s: &SwitchDoc,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<Stmt, Diagnostic> {
    let span = loc.find("name", &s.name);
    let mut props = vec![Spanned::new(SwitchProp::Model(ident(&s.model, span)), span)];
    if let Some(t) = s.tier {
        props.push(Spanned::new(SwitchProp::Tier(Spanned::new(t, span)), span));
    }
    if let Some(m) = s.mtu {
        props.push(Spanned::new(SwitchProp::Mtu(Spanned::new(m, span)), span));
    }
    if let Some(d) = &s.description {
        props.push(Spanned::new(
            SwitchProp::Description(Spanned::new(d.clone(), span)),
            span,
        ));
    }
    if let Some(w) = &s.pfc_watchdog {
        props.push(Spanned::new(
            SwitchProp::Watchdog(watchdog_ast(w, span, bad)?),
            span,
        ));
    }
    for o in &s.overrides {
        let (class, extra) = override_ast(o, span, bad)?;
        props.push(Spanned::new(SwitchProp::Class(class), span));
        if let Some(h) = extra {
            props.push(Spanned::new(h, span));
        }
    }
    Ok(stmt(
        StmtKind::Switch(ast::SwitchDecl {
            names: vec![pattern(&s.name, span)],
            props,
            span,
        }),
        span,
    ))
}

/// The statement of a `hosts` entry.
fn host_stmt(
    loc: &mut Locator<'_>,
    h: &HostDoc,
    doc: &FabricDoc,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<Stmt, Diagnostic> {
    let span = loc.find("name", &h.name);
    let mut props = Vec::new();
    let mut lines: Vec<(String, Option<&str>, u64)> = Vec::new();
    for n in &h.nics {
        let role = n.role.as_deref();
        match lines.last_mut() {
            Some((m, r, c)) if *m == n.model && *r == role => *c += 1,
            _ => lines.push((n.model.clone(), role, 1)),
        }
    }
    for (m, role, c) in lines {
        let role = match role.map(|r| (r, NicRole::from_word(r))) {
            None => None,
            Some((_, Some(r))) => Some(Spanned::new(r, span)),
            Some((r, None)) => {
                return Err(bad(
                    loc.find("role", r),
                    format!(
                        "unknown NIC role `{r}`: one of {}",
                        NicRole::WORDS.join(", ")
                    ),
                ));
            }
        };
        // `nics` lists ports; `nic MODEL x N` counts NICs.
        let ports = doc
            .nic_models
            .iter()
            .find(|x| x.name == m)
            .map_or(1, |x| u64::from(x.ports.max(1)));
        let c = c.div_ceil(ports);
        props.push(Spanned::new(
            ast::HostProp::Nic {
                model: ident(&m, span),
                count: Some(Spanned::new(c, span)),
                role,
            },
            span,
        ));
    }
    if h.nics.iter().any(|n| n.netdev.is_some()) {
        let v = h
            .nics
            .iter()
            .map(|n| pattern(n.netdev.as_deref().unwrap_or(""), span))
            .collect();
        props.push(Spanned::new(ast::HostProp::Netdev(v), span));
    }
    if h.nics.iter().any(|n| n.rdma_device.is_some()) {
        let v = h
            .nics
            .iter()
            .map(|n| pattern(n.rdma_device.as_deref().unwrap_or(""), span))
            .collect();
        props.push(Spanned::new(ast::HostProp::RdmaDevice(v), span));
    }
    if h.nics.iter().any(|n| n.pci.is_some()) {
        let v = h
            .nics
            .iter()
            .map(|n| Spanned::new(n.pci.clone().unwrap_or_default(), span))
            .collect();
        props.push(Spanned::new(ast::HostProp::Pci(v), span));
    }
    if h.nics.iter().any(|n| n.plane > 0) {
        let v = h.nics.iter().map(|n| Spanned::new(n.plane, span)).collect();
        props.push(Spanned::new(ast::HostProp::Planes(v), span));
    }
    if let Some(p) = h.pfc {
        props.push(Spanned::new(ast::HostProp::Pfc(p), span));
    }
    if h.ecn_off {
        props.push(Spanned::new(ast::HostProp::EcnOff { class: None }, span));
    }
    if let Some(b) = &h.bond {
        let Some(mode) = ast::BondMode::from_word(b) else {
            return Err(bad(
                loc.find("bond", b),
                format!(
                    "unknown bond mode `{b}`: one of {}",
                    ast::BondMode::WORDS.join(", ")
                ),
            ));
        };
        props.push(Spanned::new(ast::HostProp::Bond(mode), span));
    }
    if h.spare {
        props.push(Spanned::new(ast::HostProp::Spare, span));
    }
    for o in &h.overrides {
        let (class, _) = override_ast(o, span, bad)?;
        props.push(Spanned::new(ast::HostProp::Class(class), span));
    }
    Ok(stmt(
        StmtKind::Host(ast::HostDecl {
            names: vec![pattern(&h.name, span)],
            props,
            span,
        }),
        span,
    ))
}

/// The statement of a `links` entry.
fn link_stmt(loc: &mut Locator<'_>, l: &LinkDoc) -> Result<Stmt, Diagnostic> {
    let sa = loc.find("a", &l.a);
    let sb = loc.find("b", &l.b);
    let span = sa.to(sb);
    let mut props = vec![
        Spanned::new(ast::LinkProp::Speed(Speed(l.speed_mbps)), span),
        Spanned::new(ast::LinkProp::Cable(ast::Length(l.cable_mm)), span),
    ];
    for e in &l.ecn {
        let mut args = ecn_levels(
            (e.min_bytes, e.min_fill_percent),
            (e.max_bytes, e.max_fill_percent),
            span,
        );
        if let Some(p) = e.probability_percent {
            args.push(Spanned::new(
                EcnArg::Probability(Percent(thousandths(p))),
                span,
            ));
        }
        props.push(Spanned::new(
            ast::LinkProp::Ecn {
                class: ident(&e.class, span),
                args,
            },
            span,
        ));
    }
    Ok(stmt(
        StmtKind::Link(ast::LinkDecl {
            a: pattern(&l.a, sa),
            b: pattern(&l.b, sb),
            props,
            span,
        }),
        span,
    ))
}

/// Reads the YAML form into the explicit statements of the language.
pub fn parse_yaml(file: FileId, text: &str) -> Result<ast::File, Diagnostic> {
    let doc: FabricDoc = serde_yaml::from_str(text).map_err(|e| yaml_error(file, text, &e))?;
    let mut loc = Locator {
        file,
        text,
        cursor: 0,
    };
    let bad = |span: Span, msg: String| Diagnostic::new(Code::YamlInput, span, msg).label("here");
    if doc.version != 1 {
        return Err(bad(
            loc.find("version", &doc.version.to_string()),
            format!(
                "version {} is not known; this fabricc reads version 1",
                doc.version
            ),
        ));
    }
    let name_span = loc.find("fabric", &doc.fabric);
    // A top-level key may sit anywhere in the mapping: look for it from the start, on its
    // own line, falling back to the fabric name.
    let top = |key: &str, value: &str| {
        Locator {
            file,
            text,
            cursor: 0,
        }
        .find_opt(&format!("\n{key}"), value)
        .unwrap_or(name_span)
    };
    let mut body = Vec::new();
    settings_stmts(&doc, text, &top, name_span, &bad, &mut body)?;
    for c in &doc.classes {
        body.push(class_stmt(&mut loc, c, &bad)?);
    }
    for m in &doc.switch_models {
        body.push(switch_model_stmt(&mut loc, m, &bad)?);
    }
    for m in &doc.nic_models {
        body.push(nic_model_stmt(&mut loc, m)?);
    }
    for s in &doc.switches {
        body.push(switch_stmt(&mut loc, s, &bad)?);
    }
    for h in &doc.hosts {
        body.push(host_stmt(&mut loc, h, &doc, &bad)?);
    }
    for l in &doc.links {
        body.push(link_stmt(&mut loc, l)?);
    }
    routing_stmts(&mut loc, &doc.routing, &bad, &mut body)?;
    Ok(ast::File {
        imports: Vec::new(),
        items: vec![Item::Fabric(ast::FabricBlock {
            name: ident(&doc.fabric, name_span),
            quoted: false,
            body,
            span: name_span,
        })],
    })
}

/// The fabric-wide settings, each spanned at its own top-level key (or the fabric's name
/// when the key is left out).
fn settings_stmts(
    doc: &FabricDoc,
    text: &str,
    top: &dyn Fn(&str, &str) -> Span,
    name_span: Span,
    bad: &dyn Fn(Span, String) -> Diagnostic,
    body: &mut Vec<Stmt>,
) -> Result<(), Diagnostic> {
    let file = name_span.file;
    let at = name_span;
    let mtu_at = top("mtu", &doc.mtu.to_string());
    body.push(stmt(StmtKind::Mtu(Spanned::new(doc.mtu, mtu_at)), mtu_at));
    let roce_at = top("roce_mtu", &doc.roce_mtu.to_string());
    body.push(stmt(
        StmtKind::RoceMtu(Spanned::new(doc.roce_mtu, roce_at)),
        roce_at,
    ));
    if let Some(r) = doc.rtt_ns {
        let rtt_at = top("rtt_ns", &r.to_string());
        body.push(stmt(
            StmtKind::Rtt(Spanned::new(ast::Time(r), rtt_at)),
            rtt_at,
        ));
    }
    if let Some(d) = &doc.description {
        // The whole value, to the end of its line.
        let d_at = top("description", "");
        let line_end = text[d_at.start as usize..]
            .find('\n')
            .map_or(text.len(), |n| d_at.start as usize + n);
        let d_at = Span::new(file, d_at.start as usize, line_end);
        body.push(stmt(
            StmtKind::Description(Spanned::new(d.clone(), d_at)),
            d_at,
        ));
    }
    if let Some(m) = &doc.buffer_model {
        let m_at = top("buffer_model", m);
        let model = buffer_model_of(m).ok_or_else(|| {
            bad(
                m_at,
                format!("`{m}` is not a buffer model (dynamic, traditional)"),
            )
        })?;
        body.push(stmt(StmtKind::BufferModel(Spanned::new(model, m_at)), m_at));
    }
    if !doc.allow.is_empty() {
        let at = top("allow", "");
        let codes = doc.allow.iter().map(|c| ident(c, at)).collect();
        body.push(stmt(StmtKind::Allow(codes), at));
    }
    if let Some(lb) = &doc.load_balance {
        let lb_at = top("load_balance", "");
        body.push(stmt(
            StmtKind::LoadBalance(load_balance_ast(lb, lb_at, bad)?),
            lb_at,
        ));
    }
    body.push(stmt(
        StmtKind::Watchdog(watchdog_ast(&doc.pfc_watchdog, at, bad)?),
        at,
    ));
    Ok(())
}

/// The `routing:` mapping: the model, the failures to check, and the explicit routes,
/// failed links, paths, rewrites and bounce tagging, in that order.
fn routing_stmts(
    loc: &mut Locator,
    r: &RoutingDoc,
    bad: &dyn Fn(Span, String) -> Diagnostic,
    body: &mut Vec<Stmt>,
) -> Result<(), Diagnostic> {
    let rspan = loc.find("model", &r.model);
    let model = match r.model.as_str() {
        "updown" => RoutingModel::Updown,
        "shortest" => RoutingModel::Shortest,
        "none" => RoutingModel::None,
        other => {
            return Err(bad(
                rspan,
                format!("routing model `{other}` is not updown, shortest or none"),
            ));
        }
    };
    body.push(stmt(StmtKind::Routing(Spanned::new(model, rspan)), rspan));
    body.push(stmt(
        StmtKind::CheckFailures(Spanned::new(u64::from(r.check_failures), rspan)),
        rspan,
    ));
    for x in &r.routes {
        let span = loc.find("at", &x.at);
        body.push(stmt(
            StmtKind::Route(ast::RouteStmt {
                at: ident(&x.at, span),
                to: ident(&x.to, span),
                via: ident(&x.via, span),
            }),
            span,
        ));
    }
    for f in &r.fail {
        let span = loc.find("a", &f.a);
        body.push(stmt(
            StmtKind::Fail(ast::FailStmt {
                a: pattern(&f.a, span),
                b: pattern(&f.b, span),
            }),
            span,
        ));
    }
    for p in &r.paths {
        let span = loc.find("hops", "");
        body.push(stmt(
            StmtKind::Path(ast::PathStmt {
                class: p.class.as_ref().map(|c| ident(c, span)),
                hops: p.hops.iter().map(|h| ident(h, span)).collect(),
            }),
            span,
        ));
    }
    for w in &r.rewrites {
        let span = loc.find("at", &w.at);
        body.push(stmt(
            StmtKind::Rewrite(ast::RewriteStmt {
                at: ident(&w.at, span),
                from: ident(&w.from, span),
                to: ident(&w.to, span),
                old: Spanned::new(w.old, span),
                new: Spanned::new(w.new, span),
            }),
            span,
        ));
    }
    if let Some(b) = &r.bounce_tagging {
        body.push(stmt(
            StmtKind::BounceTagging(b.iter().map(|&p| Spanned::new(p, rspan)).collect()),
            rspan,
        ));
    }
    Ok(())
}

fn watchdog_ast(
    w: &WatchdogDoc,
    span: Span,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<ast::Watchdog, Diagnostic> {
    if !w.enabled {
        return Ok(ast::Watchdog {
            setting: ast::WatchdogSetting::Off,
            span,
        });
    }
    let mut args = Vec::new();
    let t = |v: u64| ast::Time(v);
    if let Some(v) = w.detect_ns {
        args.push(Spanned::new(ast::WatchdogArg::Detect(t(v)), span));
    }
    if let Some(v) = w.restore_ns {
        args.push(Spanned::new(ast::WatchdogArg::Restore(t(v)), span));
    }
    if let Some(v) = w.poll_ns {
        args.push(Spanned::new(ast::WatchdogArg::Poll(t(v)), span));
    }
    if let Some(a) = &w.action {
        let action = match a.as_str() {
            "drop" => WatchdogAction::Drop,
            "forward" => WatchdogAction::Forward,
            "alert" => WatchdogAction::Alert,
            other => {
                return Err(bad(
                    span,
                    format!("watchdog action `{other}` is not drop, forward or alert"),
                ));
            }
        };
        args.push(Spanned::new(ast::WatchdogArg::Action(action), span));
    }
    Ok(ast::Watchdog {
        setting: ast::WatchdogSetting::On(args),
        span,
    })
}

fn dscp_ast(
    d: &DscpDoc,
    span: Span,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<DscpSpec, Diagnostic> {
    match d {
        DscpDoc::Other(s) if s == "other" => Ok(DscpSpec::Other),
        DscpDoc::Other(s) => Err(bad(
            span,
            format!("dscp `{s}` is neither `other` nor a list of values"),
        )),
        DscpDoc::Values(v) => {
            if let Some(x) = v.iter().find(|&&x| x > 63) {
                return Err(bad(span, format!("DSCP {x} is out of range 0..63")));
            }
            Ok(DscpSpec::Values(
                v.iter().map(|&x| Spanned::new((x, x), span)).collect(),
            ))
        }
    }
}

fn congestion_ast(
    c: &str,
    span: Span,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<Congestion, Diagnostic> {
    match c {
        "dcqcn" => Ok(Congestion::Dcqcn),
        "none" => Ok(Congestion::None),
        other => Err(bad(
            span,
            format!("congestion `{other}` is not dcqcn or none"),
        )),
    }
}

fn ecn_ast(e: &EcnDoc, span: Span) -> EcnSpec {
    if !e.enabled {
        return EcnSpec::Off;
    }
    let mut args = ecn_levels(
        (e.min_bytes, e.min_fill_percent),
        (e.max_bytes, e.max_fill_percent),
        span,
    );
    args.push(Spanned::new(
        EcnArg::Probability(Percent(thousandths(e.probability_percent))),
        span,
    ));
    EcnSpec::Params(args)
}

/// An override as a device's `class` block (plus `headroom`, which is a switch statement).
fn override_ast(
    o: &OverrideDoc,
    span: Span,
    bad: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<(ClassDecl, Option<SwitchProp>), Diagnostic> {
    let mut props = Vec::new();
    if let Some(d) = &o.dscp {
        props.push(Spanned::new(ClassProp::Dscp(dscp_ast(d, span, bad)?), span));
    }
    if let Some(p) = o.priority {
        props.push(Spanned::new(
            ClassProp::Priority(Spanned::new(p, span)),
            span,
        ));
    }
    if let Some(l) = o.lossless {
        props.push(Spanned::new(ClassProp::Lossless(l), span));
    }
    if let Some(c) = &o.congestion {
        props.push(Spanned::new(
            ClassProp::Congestion(congestion_ast(c, span, bad)?),
            span,
        ));
    }
    if o.ecn_enabled == Some(false) {
        props.push(Spanned::new(ClassProp::Ecn(EcnSpec::Off), span));
    } else {
        let mut args = ecn_levels(
            (o.ecn_min_bytes, o.ecn_min_fill_percent),
            (o.ecn_max_bytes, o.ecn_max_fill_percent),
            span,
        );
        if let Some(v) = o.ecn_probability_percent {
            args.push(Spanned::new(
                EcnArg::Probability(Percent(thousandths(v))),
                span,
            ));
        }
        if !args.is_empty() {
            props.push(Spanned::new(ClassProp::Ecn(EcnSpec::Params(args)), span));
        }
    }
    match &o.scheduling {
        Some(SchedulingDoc::Strict(_)) => props.push(Spanned::new(ClassProp::Strict, span)),
        Some(SchedulingDoc::Ets {
            bandwidth_percent: Some(p),
        }) => {
            not_a_percentage(*p, span)?;
            props.push(Spanned::new(
                ClassProp::Bandwidth(Spanned::new(Percent(thousandths(*p)), span)),
                span,
            ));
        }
        _ => {}
    }
    if let Some(t) = o.pfc_threshold_bytes {
        props.push(Spanned::new(
            ClassProp::PfcThreshold(Spanned::new(Size::Bytes(t), span)),
            span,
        ));
    }
    props.extend(ecn_speeds_ast(&o.ecn_at_speed, span));
    let class = ident(&o.class, span);
    let extra = o.headroom_bytes.map(|h| SwitchProp::Headroom {
        class: class.clone(),
        size: Spanned::new(Size::Bytes(h), span),
    });
    Ok((
        ClassDecl {
            name: class,
            props,
            span,
        },
        extra,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R4: a key is found whole, never as the tail of a longer key (`mtu` in `roce_mtu`, `a`
    /// in `via`), so a diagnostic points at the line that sets it.
    #[test]
    fn the_locator_finds_whole_keys() {
        let text = "roce_mtu: 4096\nmtu: 4096\nvia: L1\na: L1\n";
        let mut loc = Locator {
            file: FileId(0),
            text,
            cursor: 0,
        };
        let mtu = loc.find("mtu", "4096");
        assert_eq!(
            &text[..mtu.start as usize].matches('\n').count(),
            &1,
            "{mtu:?}"
        );
        let a = loc.find("a", "L1");
        assert_eq!(&text[..a.start as usize].matches('\n').count(), &3, "{a:?}");
    }
}
