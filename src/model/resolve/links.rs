//! Explicit links: `link A -- B { speed cable count }` statements, expanded (a pattern on
//! either side gives every combination) and bound to concrete ports. A switch end takes its
//! first free port fast enough for the link, a host end its next free NIC, unless the
//! endpoint names one (`L1.port5`, `h1.nic3`, both 1-based).

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::names::expand;
use crate::model::{
    DEFAULT_CABLE_MM, DeviceId, Endpoint, Fabric, HostId, Limits, Link, LinkId, Mbps, Millimetres,
    Sourced, SwitchId,
};
use crate::span::Span;
use crate::syntax::ast::{self, LinkProp, StmtKind};

use super::attach::attach;
use super::slot::put;
use super::undefined;

pub(super) struct RawEnd {
    pub name: String,
    pub span: Span,
}

pub(super) struct RawLink {
    pub a: RawEnd,
    pub b: RawEnd,
    pub speed: Option<Sourced<u64>>,
    pub cable: Option<Sourced<u64>>,
    pub span: Span,
    /// `ecn CLASS …`: (class, statement span, parameters).
    pub ecn: Vec<(ast::Ident, Span, Vec<crate::span::Spanned<ast::EcnArg>>)>,
}

pub(super) fn collect(
    stmts: &[&ast::Stmt],
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Vec<RawLink> {
    let mut out = Vec::new();
    for s in stmts {
        let StmtKind::Link(l) = &s.kind else { continue };
        let (mut speed, mut cable, mut count, mut zip) = (None, None, None, None);
        let mut ecn: Vec<(ast::Ident, Span, Vec<crate::span::Spanned<ast::EcnArg>>)> = Vec::new();
        for p in &l.props {
            match &p.node {
                LinkProp::Speed(v) => put(&mut speed, v.0, p.span, "`speed`", diags),
                LinkProp::Cable(v) => put(&mut cable, v.0, p.span, "`cable`", diags),
                LinkProp::Count(v) => put(&mut count, *v, p.span, "`count`", diags),
                LinkProp::Zip => put(&mut zip, (), p.span, "`zip`", diags),
                LinkProp::Ecn { class, args } => {
                    if let Some((_, first, _)) = ecn.iter().find(|(c, _, _)| c.node == class.node) {
                        diags.push(super::slot::set_twice(
                            "`ecn` for this class",
                            p.span,
                            *first,
                        ));
                    } else {
                        ecn.push((class.clone(), p.span, args.clone()));
                    }
                }
            }
        }
        let count = count.map_or(1, |c| c.value);
        let (Ok(a), Ok(b)) = (
            expand(&l.a, limits.max_range),
            expand(&l.b, limits.max_range),
        ) else {
            for p in [&l.a, &l.b] {
                if let Err(d) = expand(p, limits.max_range) {
                    diags.push(d);
                }
            }
            continue;
        };
        if let Some(z) = zip
            && a.len() != b.len()
        {
            diags.push(
                Diagnostic::new(
                    Code::ZipLengths,
                    z.span,
                    format!(
                        "`zip` pairs the two ends element by element, but they name {} and {} devices",
                        a.len(),
                        b.len()
                    ),
                )
                .label("pairwise pattern")
                .with_secondary(if a.len() > b.len() { l.a.span } else { l.b.span }, "the longer side")
                .help("make both patterns name as many devices (or ports), or drop `zip` to link every pair"),
            );
            continue;
        }
        let pairs: Vec<(&String, &String)> = if zip.is_some() {
            a.iter().zip(&b).collect()
        } else {
            a.iter()
                .flat_map(|x| b.iter().map(move |y| (x, y)))
                .collect()
        };
        let total = (pairs.len() as u64).saturating_mul(count);
        if total.saturating_add(out.len() as u64) > limits.max_links {
            diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    s.span,
                    format!(
                        "this statement makes {total} links, more than the limit of {}",
                        limits.max_links
                    ),
                )
                .label("here")
                .help("raise the limit with `--max-links`"),
            );
            return out;
        }
        for (x, y) in pairs {
            for _ in 0..count {
                out.push(RawLink {
                    a: RawEnd {
                        name: x.clone(),
                        span: l.a.span,
                    },
                    b: RawEnd {
                        name: y.clone(),
                        span: l.b.span,
                    },
                    speed,
                    cable,
                    span: s.span,
                    ecn: ecn.clone(),
                });
            }
        }
    }
    out
}

enum Resolved {
    Switch(SwitchId, Option<u32>),
    Host(HostId, Option<u32>),
}

/// The entry of `host.nics` that `nicK` (port 0: the first free port of NIC K) or
/// `nicK.portP` names; `None` when the host has no such NIC or port.
fn nic_slot(host: &crate::model::Host, card: u32, port: u32) -> Option<u32> {
    let mut of_card = host.nics.iter().enumerate().filter(|(_, n)| n.card == card);
    let found = if port == 0 {
        let all: Vec<_> = of_card.collect();
        all.iter()
            .find(|(_, n)| n.link.is_none())
            .or(all.first())
            .map(|(i, _)| *i)
    } else {
        of_card.find(|(_, n)| n.port == port).map(|(i, _)| i)
    };
    found.map(|i| i as u32)
}

fn resolve_end(
    e: &RawEnd,
    fabric: &Fabric,
    switches: &HashMap<String, SwitchId>,
    hosts: &HashMap<String, HostId>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Resolved> {
    if let Some(&s) = switches.get(&e.name) {
        return Some(Resolved::Switch(s, None));
    }
    if let Some(&h) = hosts.get(&e.name) {
        return Some(Resolved::Host(h, None));
    }
    // `h1.nic2.port1`: a port of a multi-port NIC (issue 18).
    if let Some((dev, nic, port)) = e.name.split_once('.').and_then(|(d, rest)| {
        let (nic, port) = rest.split_once('.')?;
        Some((d, nic, port))
    }) && let Some(&h) = hosts.get(dev)
    {
        let card = nic.strip_prefix("nic").and_then(|n| n.parse::<u32>().ok());
        let p = port
            .strip_prefix("port")
            .and_then(|n| n.parse::<u32>().ok());
        let host = fabric.host(h);
        if let (Some(card), Some(p)) = (card, p)
            && p > 0
            && let Some(i) = nic_slot(host, card, p)
        {
            return Some(Resolved::Host(h, Some(i)));
        }
        let ports = host.nics.iter().filter(|n| Some(n.card) == card).count();
        diags.push(
            Diagnostic::new(
                Code::Undefined,
                e.span,
                format!("`{nic}.{port}` is not a NIC port of host `{dev}`"),
            )
            .label("here")
            .help(if ports > 1 {
                format!("`{dev}.{nic}` has ports 1..{ports}")
            } else {
                format!("name a NIC as `{dev}.nicN`, and a port of a multi-port NIC as `{dev}.nicN.portP` (1-based)")
            }),
        );
        return None;
    }
    if let Some((dev, suffix)) = e.name.rsplit_once('.') {
        let number = |prefix: &str| {
            suffix
                .strip_prefix(prefix)
                .and_then(|n| n.parse::<u32>().ok())
        };
        if let Some(&s) = switches.get(dev) {
            if let Some(n) = number("port").filter(|&n| n > 0) {
                return Some(Resolved::Switch(s, Some(n - 1)));
            }
            diags.push(
                Diagnostic::new(
                    Code::Undefined,
                    e.span,
                    format!("`{suffix}` is not a port of switch `{dev}`"),
                )
                .label("here")
                .help(format!("name a port as `{dev}.portN` (1-based)")),
            );
            return None;
        }
        if let Some(&h) = hosts.get(dev) {
            if let Some(n) = number("nic").filter(|&n| n > 0) {
                // NIC n is its first free port; past the last NIC, index n - 1 so the
                // caller reports how many NICs the host has.
                let host = fabric.host(h);
                let last = host.nics.last().map_or(0, |x| x.card);
                let slot = nic_slot(host, n, 0).unwrap_or(host.nics.len() as u32 + n - last - 1);
                return Some(Resolved::Host(h, Some(slot)));
            }
            diags.push(
                Diagnostic::new(
                    Code::Undefined,
                    e.span,
                    format!("`{suffix}` is not a NIC of host `{dev}`"),
                )
                .label("here")
                .help(format!("name a NIC as `{dev}.nicN` (1-based)")),
            );
            return None;
        }
    }
    let known = switches.keys().chain(hosts.keys()).map(String::as_str);
    let mut d = undefined("device", &e.name, e.span, known);
    d.message = format!("`{}` is neither a switch nor a host", e.name);
    diags.push(d);
    None
}

pub(super) fn bind(
    fabric: &mut Fabric,
    raw: &[RawLink],
    switches: &HashMap<String, SwitchId>,
    hosts: &HashMap<String, HostId>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut placed = Vec::with_capacity(raw.len());
    for l in raw {
        let (Some(a), Some(b)) = (
            resolve_end(&l.a, fabric, switches, hosts, diags),
            resolve_end(&l.b, fabric, switches, hosts, diags),
        ) else {
            continue;
        };
        match (&a, &b) {
            (Resolved::Host(..), Resolved::Host(..)) => {
                diags.push(
                    Diagnostic::new(
                        Code::BadLink,
                        l.span,
                        format!("a link joins two hosts, `{}` and `{}`", l.a.name, l.b.name),
                    )
                    .label("host to host")
                    .help("hosts never forward; connect each host to a switch"),
                );
                continue;
            }
            (Resolved::Switch(x, _), Resolved::Switch(y, _)) if x == y => {
                diags.push(
                    Diagnostic::new(
                        Code::BadLink,
                        l.span,
                        format!("a link joins switch `{}` to itself", l.a.name),
                    )
                    .label("loopback link")
                    .help("a link needs two different devices"),
                );
                continue;
            }
            _ => {}
        }
        // Host ends first: their NIC speed is what a switch port must carry.
        let host_speed = [&a, &b].iter().find_map(|r| match r {
            Resolved::Host(h, nic) => {
                let host = fabric.host(*h);
                let idx = nic.map_or_else(|| host.next_free_nic(), |n| Some(n as usize));
                idx.and_then(|i| host.nics.get(i))
                    .map(|n| fabric.nic_models[n.model.index()].speed.value.get())
            }
            Resolved::Switch(..) => None,
        });
        let need = l.speed.map(|s| s.value).or(host_speed).unwrap_or(0);
        let Some(ea) = take_port(fabric, &a, &l.a, need, diags) else {
            continue;
        };
        let Some(eb) = take_port(fabric, &b, &l.b, need, diags) else {
            continue;
        };
        let cap = |e: Endpoint, fabric: &Fabric| match e.device {
            DeviceId::Switch(s) => fabric.switch_model(s).port_speed(e.port),
            DeviceId::Host(h) => fabric.nic_models
                [fabric.host(h).nics[e.port as usize].model.index()]
            .speed
            .value
            .get(),
        };
        let (ca, cb) = (cap(ea, fabric), cap(eb, fabric));
        let speed = match l.speed {
            Some(s) => {
                for (e, c) in [(ea, ca), (eb, cb)] {
                    if s.value > c {
                        diags.push(
                            Diagnostic::new(
                                Code::LinkSpeed,
                                s.span,
                                format!("link speed {}G is faster than `{}` ({}G)", gbps(s.value), fabric.endpoint_name(e), gbps(c)),
                            )
                            .label("link speed")
                            .help(format!("a port may run a link slower than its speed, never faster; use at most {}G", gbps(ca.min(cb)))),
                        );
                    }
                }
                s.value
            }
            None => ca.min(cb),
        };
        let id = LinkId(fabric.links.len() as u32);
        attach(fabric, ea, id);
        attach(fabric, eb, id);
        let cable = l
            .cable
            .unwrap_or(Sourced::default_at(DEFAULT_CABLE_MM, l.span));
        let mut ecn = Vec::new();
        for (class, span, args) in &l.ecn {
            match fabric.classes.iter().position(|c| c.name == class.node) {
                Some(i) => ecn.push((
                    crate::model::ClassId(i as u32),
                    super::classes::ecn_params(speed, *span, args, diags),
                )),
                None => diags.push(
                    Diagnostic::new(
                        Code::Undefined,
                        class.span,
                        format!("class `{}` is not declared", class.node),
                    )
                    .label("no such class")
                    .help("name a class declared with `class NAME { … }`"),
                ),
            }
        }
        ecn.sort_by_key(|(c, _)| *c);
        let named =
            |r: &Resolved| matches!(r, Resolved::Switch(_, Some(_)) | Resolved::Host(_, Some(_)));
        placed.push(super::slow_ports::Placed {
            link: id,
            speed_set: l.speed.is_some(),
            named: [named(&a), named(&b)],
        });
        fabric.links.push(Link {
            a: ea,
            b: eb,
            speed: Mbps(speed),
            cable_mm: cable.map(Millimetres),
            span: l.span,
            generated: None,
            ecn,
        });
    }
    super::slow_ports::check(fabric, &placed, diags);
}

fn take_port(
    fabric: &Fabric,
    r: &Resolved,
    raw: &RawEnd,
    need: u64,
    diags: &mut Vec<Diagnostic>,
) -> Option<Endpoint> {
    match *r {
        Resolved::Switch(s, port) => take_switch_port(fabric, s, port, raw, need, diags),
        Resolved::Host(h, nic) => take_nic(fabric, h, nic, raw, diags),
    }
}

/// A switch end: the port named, or the first free port fast enough for the link.
fn take_switch_port(
    fabric: &Fabric,
    s: SwitchId,
    port: Option<u32>,
    raw: &RawEnd,
    need: u64,
    diags: &mut Vec<Diagnostic>,
) -> Option<Endpoint> {
    let sw = fabric.switch(s);
    let model = fabric.switch_model(s);
    if let Some(p) = port {
        return named_switch_port(fabric, s, p, raw, diags);
    }
    let free = sw
        .ports
        .iter()
        .enumerate()
        .filter(|(_, l)| l.is_none())
        .map(|(i, _)| i as u32);
    let mut any_free = false;
    for p in free {
        any_free = true;
        if model.port_speed(p) >= need {
            return Some(Endpoint {
                device: DeviceId::Switch(s),
                port: p,
            });
        }
    }
    let used = sw.ports.iter().filter(|p| p.is_some()).count();
    let fastest_free = (0..sw.ports.len() as u32)
        .filter(|&p| sw.ports[p as usize].is_none())
        .map(|p| model.port_speed(p))
        .max();
    let d = if let Some(fastest) = fastest_free.filter(|_| any_free) {
        Diagnostic::new(
            Code::LinkSpeed,
            raw.span,
            format!("the link needs {}G, but the fastest free port of switch `{}` runs {}G", gbps(need), sw.name, gbps(fastest)),
        )
        .label("no port fast enough")
        .help(format!("a port may run a link slower than its speed, never faster; set `speed {}G` or lower on the link", gbps(fastest)))
    } else {
        Diagnostic::new(
            Code::PortsExceeded,
            raw.span,
            format!(
                "switch `{}` has no free port: all {} of model `{}` are used",
                sw.name, used, model.name
            ),
        )
        .label("one link too many")
        .help("remove a link, use a model with more ports, or spread the links over more switches")
    };
    diags.push(d);
    None
}

/// A switch end that names its port: it must exist and be free.
fn named_switch_port(
    fabric: &Fabric,
    s: SwitchId,
    p: u32,
    raw: &RawEnd,
    diags: &mut Vec<Diagnostic>,
) -> Option<Endpoint> {
    let sw = fabric.switch(s);
    let model = fabric.switch_model(s);
    let Some(slot) = sw.ports.get(p as usize) else {
        diags.push(
            Diagnostic::new(
                Code::PortsExceeded,
                raw.span,
                format!(
                    "switch `{}` has {} ports, not {}",
                    sw.name,
                    sw.ports.len(),
                    p + 1
                ),
            )
            .label("no such port")
            .help(format!(
                "model `{}` has ports 1..{}",
                model.name,
                sw.ports.len()
            )),
        );
        return None;
    };
    if let Some(other) = slot {
        diags.push(
            Diagnostic::new(
                Code::PortsExceeded,
                raw.span,
                format!("`{}` already carries a link", raw.name),
            )
            .label("port in use")
            .with_secondary(fabric.link(*other).span, "the link already on it")
            .help("each link end is a port of its own; pick a free port"),
        );
        return None;
    }
    Some(Endpoint {
        device: DeviceId::Switch(s),
        port: p,
    })
}

/// A host end: the NIC named (it must exist and be free), else the next free backend NIC.
fn take_nic(
    fabric: &Fabric,
    h: HostId,
    nic: Option<u32>,
    raw: &RawEnd,
    diags: &mut Vec<Diagnostic>,
) -> Option<Endpoint> {
    let host = fabric.host(h);
    let idx = match nic {
        Some(n) => {
            let Some(slot) = host.nics.get(n as usize) else {
                diags.push(
                    Diagnostic::new(
                        Code::PortsExceeded,
                        raw.span,
                        format!(
                            "host `{}` has {} NICs, not {}",
                            host.name,
                            host.nics.len(),
                            n + 1
                        ),
                    )
                    .label("no such NIC")
                    .help(format!("NICs are numbered 1..{}", host.nics.len())),
                );
                return None;
            };
            if let Some(other) = slot.link {
                diags.push(
                    Diagnostic::new(
                        Code::PortsExceeded,
                        raw.span,
                        format!("`{}` already carries a link", raw.name),
                    )
                    .label("NIC in use")
                    .with_secondary(fabric.link(other).span, "the link already on it")
                    .help("each NIC carries one link"),
                );
                return None;
            }
            n
        }
        // A bare host end takes a backend NIC: storage and frontend NICs are named.
        None => match host.next_free_nic() {
            Some(i) => i as u32,
            None => {
                diags.push(
                    Diagnostic::new(
                        Code::PortsExceeded,
                        raw.span,
                        format!(
                            "host `{}` has no free NIC: all {} are linked",
                            host.name,
                            host.nics.len()
                        ),
                    )
                    .label("one link too many")
                    .help("add NICs to the host (`nic MODEL x N`), or remove a link"),
                );
                return None;
            }
        },
    };
    Some(Endpoint {
        device: DeviceId::Host(h),
        port: idx,
    })
}

/// Mb/s as Gb/s for messages (`400`, `2.5`).
fn gbps(mbps: u64) -> String {
    if mbps.is_multiple_of(1000) {
        (mbps / 1000).to_string()
    } else {
        format!("{}", mbps as f64 / 1000.0)
    }
}
