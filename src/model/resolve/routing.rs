//! Routing statements: `routing`, `route`, `fail`, `path`, `rewrite` — names resolved to IDs.
//! Whether a route or path is possible (adjacency, loops) is the routing analysis's job.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::names::expand;
use crate::model::{
    DeviceId, ExplicitPath, Fabric, FailedLink, HostId, LinkId, Rewrite, RouteTarget, Sourced,
    StaticRoute, SwitchId,
};
use crate::span::Span;
use crate::syntax::ast::{self, RoutingModel, StmtKind};
use crate::syntax::printer::pattern as display;

use super::{Names, undefined};

struct Devices {
    switches: HashMap<String, SwitchId>,
    hosts: HashMap<String, HostId>,
}

impl Devices {
    fn device(&self, name: &str) -> Option<DeviceId> {
        self.switches
            .get(name)
            .map(|&s| DeviceId::Switch(s))
            .or_else(|| self.hosts.get(name).map(|&h| DeviceId::Host(h)))
    }

    fn unknown(&self, what: &str, name: &str, span: crate::span::Span) -> Diagnostic {
        let known = self
            .switches
            .keys()
            .chain(self.hosts.keys())
            .map(String::as_str);
        undefined(what, name, span, known)
    }

    fn switch(&self, id: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<SwitchId> {
        if let Some(&s) = self.switches.get(&id.node) {
            return Some(s);
        }
        let mut d = self.unknown("switch", &id.node, id.span);
        if self.hosts.contains_key(&id.node) {
            d.message = format!("`{}` is a host, and hosts never forward", id.node);
            d.help = Some("name a switch here".into());
        }
        diags.push(d);
        None
    }

    fn any(&self, id: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<DeviceId> {
        let d = self.device(&id.node);
        if d.is_none() {
            diags.push(self.unknown("device", &id.node, id.span));
        }
        d
    }
}

pub(super) fn build(
    fabric: &mut Fabric,
    stmts: &[&ast::Stmt],
    names: &Names,
    model: Option<Sourced<RoutingModel>>,
    diags: &mut Vec<Diagnostic>,
) {
    let devices = Devices {
        switches: fabric
            .switches
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), SwitchId(i as u32)))
            .collect(),
        hosts: fabric
            .hosts
            .iter()
            .enumerate()
            .map(|(i, h)| (h.name.clone(), HostId(i as u32)))
            .collect(),
    };
    choose_model(fabric, model, diags);
    for s in stmts {
        match &s.kind {
            StmtKind::Route(r) => static_route(fabric, &devices, r, s.span, diags),
            StmtKind::Fail(f) => failed_links(fabric, &devices, f, s.span, diags),
            StmtKind::Path(p) => {
                let class = p.class.as_ref().and_then(|c| names.class(c, diags));
                if p.class.is_some() && class.is_none() {
                    continue;
                }
                let hops: Vec<Option<DeviceId>> =
                    p.hops.iter().map(|h| devices.any(h, diags)).collect();
                if hops.iter().all(Option::is_some) {
                    fabric.routing.paths.push(ExplicitPath {
                        class,
                        hops: hops.into_iter().flatten().collect(),
                        span: s.span,
                    });
                }
            }
            StmtKind::Rewrite(r) => {
                let at = devices.switch(&r.at, diags);
                let from = devices.any(&r.from, diags);
                let to = devices.any(&r.to, diags);
                if let (Some(at), Some(from), Some(to)) = (at, from, to) {
                    fabric.routing.rewrites.push(Rewrite {
                        at,
                        from,
                        to,
                        old: r.old.node,
                        new: r.new.node,
                        span: s.span,
                    });
                }
            }
            _ => {}
        }
    }
}

/// The routing model: the declared one, else up-down when every switch has a tier and
/// shortest-path otherwise; a declared up-down needs every switch's tier.
fn choose_model(
    fabric: &mut Fabric,
    model: Option<Sourced<RoutingModel>>,
    diags: &mut Vec<Diagnostic>,
) {
    fabric.routing.model = model.unwrap_or_else(|| {
        let all_tiered = fabric.switches.iter().all(|s| s.tier.is_some());
        let m = if all_tiered {
            RoutingModel::Updown
        } else {
            RoutingModel::Shortest
        };
        Sourced::default_at(m, fabric.span)
    });
    if fabric.routing.model.value == RoutingModel::Updown && !fabric.routing.model.default {
        for s in &fabric.switches {
            if s.tier.is_none() {
                diags.push(
                    Diagnostic::new(Code::MissingProperty, s.span, format!("switch `{}` has no `tier`, which `routing updown` needs", s.name))
                        .label("declared here")
                        .with_secondary(fabric.routing.model.span, "up-down routing chosen here")
                        .help("add `tier 1` (leaf), `tier 2` (spine) or `tier 3` (super-spine), or use `routing shortest`"),
                );
            }
        }
    }
}

/// `route AT to DEST via HOP`.
fn static_route(
    fabric: &mut Fabric,
    devices: &Devices,
    r: &ast::RouteStmt,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) {
    let at = devices.switch(&r.at, diags);
    let to = match devices.device(&r.to.node) {
        Some(DeviceId::Host(h)) => Some(RouteTarget::Host(h)),
        Some(DeviceId::Switch(x)) => Some(RouteTarget::Switch(x)),
        None => {
            diags.push(devices.unknown("destination", &r.to.node, r.to.span));
            None
        }
    };
    let via = devices.any(&r.via, diags);
    if let (Some(at), Some(to), Some(via)) = (at, to, via) {
        fabric
            .routing
            .routes
            .push(StaticRoute { at, to, via, span });
    }
}

/// `fail A -- B`: every link between each pair of the named devices.
fn failed_links(
    fabric: &mut Fabric,
    devices: &Devices,
    f: &ast::FailStmt,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) {
    let (Ok(xs), Ok(ys)) = (expand(&f.a, 10_000), expand(&f.b, 10_000)) else {
        diags.push(
            Diagnostic::new(
                Code::LimitExceeded,
                span,
                "a `fail` statement may name at most 10,000 devices per side",
            )
            .label("here"),
        );
        return;
    };
    for x in &xs {
        for y in &ys {
            let (Some(a), Some(b)) = (devices.device(x), devices.device(y)) else {
                let (bad, span) = if devices.device(x).is_none() {
                    (x, f.a.span)
                } else {
                    (y, f.b.span)
                };
                diags.push(devices.unknown("device", bad, span));
                continue;
            };
            let links: Vec<LinkId> = fabric
                .device_links(a)
                .into_iter()
                .filter(|&(_, l)| fabric.peer(l, a).device == b)
                .map(|(_, l)| l)
                .collect();
            if links.is_empty() {
                diags.push(
                    Diagnostic::new(
                        Code::Undefined,
                        span,
                        format!("there is no link between `{x}` and `{y}`"),
                    )
                    .label("failed link")
                    .help(format!(
                        "`fail` names an existing link; check `{}` and `{}`",
                        display(&f.a),
                        display(&f.b)
                    )),
                );
                continue;
            }
            fabric.routing.fails.push(FailedLink { a, b, links, span });
        }
    }
}
