//! Generated Clos tiers: `tier` statements in, switches and links out.
//!
//! Rail-optimised wiring (Qian et al., "Alibaba HPN", SIGCOMM 2024 §4): NIC *r* of every host joins rail *r*. Tier 1 leaves
//! serve `downlinks` hosts each on one rail; the hosts that share a set of leaves (one per
//! rail) form a *group*. With three tiers, leaves are cut into *pods* of whole groups, each
//! pod with its own spines; spine *j* of every pod belongs to *plane j*, and the top tier
//! joins each plane. A top tier spreads every lower switch's uplinks evenly over as few top
//! switches as fit (each lower switch meets every top switch of its plane with the same
//! number of parallel links), so the fabric is a Clos with equal-cost paths everywhere.
//!
//! A tier's ports split into down and up by its oversubscription (`64 x 400G` at 1:1 → 32
//! down, 32 up), or by explicit `downlinks`/`uplinks`; a split the ports cannot meet, or a
//! top tier with too few ports, is FAB606 with the numbers that would work.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::model::{DEFAULT_CABLE_MM, Limits, Millimetres, Sourced, SwitchModel, SwitchModelId};
use crate::syntax::ast::{self, TemplatePart, TierProp};

use super::resolve::slot::put;

mod naming;
mod split;
mod tiers;
mod wire;

use split::split_ports;
pub use tiers::{GenEnd, GenLink, GenSwitch, GenTier, Generated, WiredHost};
use tiers::{Plane, TierSpec};
use wire::wire;

/// Wires `hosts` (sorted) with the declared tiers.
pub fn generate(
    decls: &[&ast::TierDecl],
    hosts: &[WiredHost],
    models: &[SwitchModel],
    model_ids: &HashMap<String, SwitchModelId>,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Generated {
    let before = diags.len();
    let mut specs = Vec::new();
    for decl in decls {
        if let Some(spec) = tier_spec(decl, models, model_ids, diags) {
            specs.push(spec);
        }
    }
    if diags.len() > before || specs.is_empty() {
        return Generated::default();
    }
    if specs.len() > 3 {
        diags.push(
            Diagnostic::new(
                Code::CannotWire,
                specs[3].decl.name.span,
                "at most three tiers can be generated",
            )
            .label("a fourth tier")
            .help("describe deeper fabrics with explicit `switch` and `link` statements"),
        );
        return Generated::default();
    }
    if hosts.is_empty() {
        diags.push(
            Diagnostic::new(Code::CannotWire, specs[0].decl.name.span, "the tiers have no hosts to wire")
                .label("tiers declared here")
                .help("declare hosts with `host NAME[1..N] { nic MODEL x K }`; tiers wire every host that no `link` names"),
        );
        return Generated::default();
    }
    let rails = hosts[0].nics;
    if !super::spares::dual_tor_fits(
        specs.iter().map(|s| s.dual_tor),
        specs[0].planes.map(|p| p.value),
        specs[0].wiring.map(|w| w.value),
        hosts.iter().map(|h| h.ports),
        diags,
    ) || !super::spares::peer_link_fits(specs.iter().map(|s| (s.dual_tor, s.peer_link)), diags)
    {
        return Generated::default();
    }
    if let Some(odd) = hosts.iter().find(|h| h.nics != rails) {
        diags.push(
            Diagnostic::new(
                Code::CannotWire,
                specs[0].decl.name.span,
                format!(
                    "hosts have different NIC counts ({rails} and {}), so they cannot share rails",
                    odd.nics
                ),
            )
            .label("rails follow the NIC index")
            .help("give every wired host the same number of NICs, or link the odd ones explicitly"),
        );
        return Generated::default();
    }
    if rails == 0 {
        diags.push(
            Diagnostic::new(
                Code::CannotWire,
                specs[0].decl.name.span,
                "the hosts to wire have no NICs",
            )
            .help("add `nic MODEL x N` to the hosts"),
        );
        return Generated::default();
    }
    let k = specs.len();
    for (i, spec) in specs.iter_mut().enumerate() {
        let top = i + 1 == k;
        if !split_ports(spec, top, diags) {
            return Generated::default();
        }
    }
    for pair in specs.windows(2) {
        let (lower, upper) = (&pair[0], &pair[1]);
        diags.extend(super::resolve::slow_ports::generated_uplinks(
            &lower.decl.name,
            lower.model,
            (lower.down, lower.up),
            upper.model,
            upper.down,
        ));
    }
    let Some(planes) = plane_count(&specs, hosts, diags) else {
        return Generated::default();
    };
    if planes == 1 {
        return wire(
            &specs,
            hosts,
            rails,
            Plane { index: 0, count: 1 },
            limits,
            diags,
        );
    }
    // Independent planes (HPN 7.0 dual-plane, Spectrum-X multi-plane): the same Clos built
    // once per plane over port k of every NIC, with no link between planes, so each plane
    // is its own fabric for routing and the deadlock proof.
    let mut out = Generated::default();
    for index in 0..planes {
        let plane = Plane {
            index,
            count: planes,
        };
        let g = wire(&specs, hosts, rails / planes, plane, limits, diags);
        if g.switches.is_empty() {
            return Generated::default();
        }
        let offset = out.switches.len() as u32;
        let shift = |e: GenEnd| match e {
            GenEnd::Switch(i, p) => GenEnd::Switch(i + offset, p),
            host => host,
        };
        out.links.extend(g.links.into_iter().map(|l| GenLink {
            down: shift(l.down),
            up: shift(l.up),
            ..l
        }));
        if out.tiers.is_empty() {
            out.tiers = g.tiers;
        } else {
            for (t, gt) in out.tiers.iter_mut().zip(g.tiers) {
                t.switches
                    .extend(gt.switches.into_iter().map(|i| i + offset));
            }
        }
        out.switches.extend(g.switches);
    }
    out.planes = planes;
    out
}

/// `planes N` on the leaf tier: every wired NIC must have N ports (port k joins plane k), and
/// every tier's name must tell the planes apart with `{fabric}`.
fn plane_count(
    specs: &[TierSpec<'_>],
    hosts: &[WiredHost],
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    for spec in &specs[1..] {
        if let Some(w) = spec.wiring {
            diags.push(
                Diagnostic::new(
                    Code::WiringStyle,
                    w.span,
                    "`wiring` belongs on the first (leaf) tier",
                )
                .label("on an upper tier")
                .help("move `wiring` to the leaf tier: it says how hosts meet their leaves"),
            );
            return None;
        }
        if let Some(p) = spec.planes {
            diags.push(
                Diagnostic::new(
                    Code::PlanesMismatch,
                    p.span,
                    "`planes` belongs on the first (leaf) tier",
                )
                .label("on an upper tier")
                .help("move `planes N` to the leaf tier; every tier above is then built once per plane"),
            );
            return None;
        }
    }
    let Some(p) = specs[0].planes else {
        return Some(1);
    };
    let planes = u32::try_from(p.value).unwrap_or(u32::MAX);
    if let Some(odd) = hosts.iter().find(|h| h.ports != planes) {
        let ports = odd.ports;
        diags.push(
            Diagnostic::new(
                Code::PlanesMismatch,
                p.span,
                format!(
                    "`planes {planes}` needs NICs with {planes} ports (port k joins plane k), but the wired NICs have {ports} port{}",
                    if ports == 1 { "" } else { "s" }
                ),
            )
            .label("planes declared here")
            .help(format!(
                "give the NIC model `ports {planes} x SPEED`, or write `planes {ports}`"
            )),
        );
        return None;
    }
    if planes > 1 {
        let mut ok = true;
        for spec in specs {
            let has = spec.name.is_some_and(|t| {
                t.parts
                    .iter()
                    .any(|p| matches!(p, TemplatePart::Placeholder(ph) if ph.node == "fabric"))
            });
            if !has {
                let at = spec.name.map_or(spec.decl.name.span, |t| t.span);
                diags.push(
                    Diagnostic::new(
                        Code::PlaneName,
                        at,
                        format!(
                            "tier `{}` is built once per plane, but its names do not say which plane",
                            spec.decl.name.node
                        ),
                    )
                    .label(if spec.name.is_some() { "no `{fabric}` in this template" } else { "this tier has no `name`" })
                    .help(format!(
                        "add `{{fabric}}` (the plane, 1..{planes}) to the name, e.g. `name p{{fabric}}-{}{{n}}`",
                        spec.decl.name.node
                    )),
                );
                ok = false;
            }
        }
        if !ok {
            return None;
        }
    }
    Some(planes)
}

fn tier_spec<'a>(
    decl: &'a ast::TierDecl,
    models: &'a [SwitchModel],
    model_ids: &HashMap<String, SwitchModelId>,
    diags: &mut Vec<Diagnostic>,
) -> Option<TierSpec<'a>> {
    let mut model = None;
    let mut over = None;
    let mut cable = None;
    let mut name = None;
    let mut downlinks = None;
    let mut uplinks = None;
    let mut switches = None;
    let mut planes = None;
    let mut wiring = None;
    let mut dual_tor = None;
    let mut peer_link = None;
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            TierProp::Model(m) => put(&mut model, m.clone(), span, "`model`", diags),
            TierProp::Oversubscription(r) => {
                put(&mut over, (r.down, r.up), span, "`oversubscription`", diags)
            }
            TierProp::Cable(l) => put(&mut cable, l.0, span, "`cable`", diags),
            TierProp::Name(t) => put(&mut name, t, span, "`name`", diags),
            TierProp::Downlinks(n) => put(&mut downlinks, *n, span, "`downlinks`", diags),
            TierProp::Uplinks(n) => put(&mut uplinks, *n, span, "`uplinks`", diags),
            TierProp::Switches(n) => put(&mut switches, *n, span, "`switches`", diags),
            TierProp::Planes(n) => put(&mut planes, *n, span, "`planes`", diags),
            TierProp::Wiring(w) => put(&mut wiring, *w, span, "`wiring`", diags),
            TierProp::DualTor => put(&mut dual_tor, (), span, "`dual-tor`", diags),
            TierProp::PeerLink(n) => put(&mut peer_link, *n, span, "`peer-link`", diags),
        }
    }
    let Some(model) = model else {
        diags.push(
            Diagnostic::new(
                Code::MissingProperty,
                decl.name.span,
                format!("tier `{}` has no `model`", decl.name.node),
            )
            .label("declared here")
            .help("add `model NAME` with one of the declared switch models"),
        );
        return None;
    };
    let Some(&model_id) = model_ids.get(&model.value.node) else {
        let mut d = Diagnostic::new(
            Code::Undefined,
            model.value.span,
            format!("switch model `{}` is not declared", model.value.node),
        )
        .label("used here");
        if let Some(h) = did_you_mean(&model.value.node, model_ids.keys().map(String::as_str)) {
            d = d.help(h);
        }
        diags.push(d);
        return None;
    };
    if let Some(r) = over
        && (r.value.0 == 0 || r.value.1 == 0)
    {
        diags.push(
            Diagnostic::new(
                Code::OutOfRange,
                r.span,
                "an oversubscription ratio needs two positive numbers",
            )
            .label("here"),
        );
        return None;
    }
    Some(TierSpec {
        decl,
        model_id,
        model: &models[model_id.index()],
        oversubscription: over,
        cable: cable
            .unwrap_or(Sourced::default_at(DEFAULT_CABLE_MM, decl.name.span))
            .map(Millimetres),
        name: name.map(|n| n.value),
        downlinks,
        uplinks,
        switches,
        planes,
        wiring,
        dual_tor: dual_tor.map(|d| d.span),
        peer_link,
        down: 0,
        up: 0,
    })
}
