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
use crate::model::{DEFAULT_CABLE_MM, HostId, Limits, Sourced, SwitchModel, SwitchModelId, TierId};
use crate::span::Span;
use crate::syntax::ast::{self, NameTemplate, TemplatePart, TierProp};

use super::resolve::slot::put;

/// A host the tiers wire: its NIC count and speed (Mb/s).
#[derive(Debug, Clone, Copy)]
pub struct WiredHost {
    pub id: HostId,
    pub nics: u32,
    pub nic_speed: u64,
    /// Ports per NIC (`ports 2 x 200G`); `nics` counts ports, card-major.
    pub ports: u32,
    /// `spare`: wired after the active hosts onto the leaves' spare ports (those after the
    /// down and up ports), so it neither takes a downlink nor counts in the ratio.
    pub spare: Option<Span>,
}

#[derive(Debug, Clone)]
pub struct GenSwitch {
    pub name: String,
    pub tier: TierId,
    pub level: u8,
    pub model: SwitchModelId,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenEnd {
    Host(HostId, u32),
    /// Index into `Generated::switches`, and the port.
    Switch(u32, u32),
}

#[derive(Debug, Clone, Copy)]
pub struct GenLink {
    /// The lower end (host or lower-tier switch).
    pub down: GenEnd,
    pub up: GenEnd,
    pub speed: u64,
    pub cable_mm: Sourced<u64>,
    pub tier: TierId,
    pub span: Span,
}

/// A tier as generated (switch IDs are filled in by the resolver).
#[derive(Debug, Clone)]
pub struct GenTier {
    pub name: String,
    pub span: Span,
    pub level: u8,
    pub model: SwitchModelId,
    pub oversubscription: Option<Sourced<(u64, u64)>>,
    pub downlinks: u32,
    pub uplinks: u32,
    /// Indices into `Generated::switches`.
    pub switches: Vec<u32>,
}

#[derive(Debug, Default)]
pub struct Generated {
    pub switches: Vec<GenSwitch>,
    pub links: Vec<GenLink>,
    pub tiers: Vec<GenTier>,
    /// `planes N` of the leaf tier (0 or 1: one fabric).
    pub planes: u32,
}

struct TierSpec<'a> {
    decl: &'a ast::TierDecl,
    model_id: SwitchModelId,
    model: &'a SwitchModel,
    oversubscription: Option<Sourced<(u64, u64)>>,
    cable: Sourced<u64>,
    name: Option<&'a NameTemplate>,
    downlinks: Option<Sourced<u64>>,
    uplinks: Option<Sourced<u64>>,
    switches: Option<Sourced<u64>>,
    planes: Option<Sourced<u64>>,
    wiring: Option<Sourced<ast::WiringStyle>>,
    dual_tor: Option<Span>,
    down: u32,
    up: u32,
}

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
    ) {
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

/// Which plane `wire` builds: port `index` of every NIC, one of `count` planes.
#[derive(Debug, Clone, Copy)]
struct Plane {
    index: u32,
    count: u32,
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
        cable: cable.unwrap_or(Sourced::default_at(DEFAULT_CABLE_MM, decl.name.span)),
        name: name.map(|n| n.value),
        downlinks,
        uplinks,
        switches,
        planes,
        wiring,
        dual_tor: dual_tor.map(|d| d.span),
        down: 0,
        up: 0,
    })
}

fn ratio_text(down: u64, up: u64) -> String {
    if up == 0 {
        return "no uplinks".into();
    }
    let r = down as f64 / up as f64;
    format!("{}:1", trim_float(r))
}

fn trim_float(r: f64) -> String {
    let s = format!("{r:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Decides how many ports of each switch of the tier face down and up.
fn split_ports(spec: &mut TierSpec<'_>, top: bool, diags: &mut Vec<Diagnostic>) -> bool {
    let groups = &spec.model.ports.value;
    let total: u64 = groups.iter().map(|g| u64::from(g.count)).sum();
    let at = spec.decl.name.span;
    if top {
        if let Some(r) = spec.oversubscription {
            diags.push(
                Diagnostic::new(
                    Code::NotAllowedHere,
                    r.span,
                    "the top tier has no uplinks, so no oversubscription",
                )
                .label("on the top tier")
                .help("remove `oversubscription` from the top tier; it belongs to the tiers below"),
            );
            return false;
        }
        if let Some(u) = spec.uplinks.filter(|u| u.value > 0) {
            diags.push(
                Diagnostic::new(Code::NotAllowedHere, u.span, "the top tier has no uplinks")
                    .label("on the top tier")
                    .help("remove `uplinks`, or add a tier above this one"),
            );
            return false;
        }
        let down = spec.downlinks.map_or(total, |d| d.value);
        if down > total {
            diags.push(too_many(spec, down, total));
            return false;
        }
        spec.down = down as u32;
        spec.up = 0;
        return true;
    }
    if total < 2 && spec.downlinks.is_none() && spec.uplinks.is_none() {
        // A tier below the top needs a port each way; a one-port model cannot be split.
        diags.push(
            Diagnostic::new(
                Code::CannotWire,
                at,
                format!("a switch of {total} port(s) cannot have both downlinks and uplinks"),
            )
            .label("this tier is not the top one, so its switches need both")
            .help("give the tier a switch model with more ports"),
        );
        return false;
    }
    let (down, up) = match (spec.downlinks, spec.uplinks) {
        (Some(d), Some(u)) => (d.value, u.value),
        (Some(d), None) => (d.value, total.saturating_sub(d.value)),
        (None, Some(u)) => (total.saturating_sub(u.value), u.value),
        (None, None) => {
            let (a, b) = spec.oversubscription.map_or((1, 1), |r| r.value);
            if groups.len() > 1 {
                // Mixed port groups: the first group faces down, the rest up (HPN-style ToR).
                (
                    u64::from(groups[0].count),
                    total - u64::from(groups[0].count),
                )
            } else {
                let num = u128::from(total) * u128::from(a);
                let den = u128::from(a) + u128::from(b);
                if num % den != 0 {
                    let d = ((num + den / 2) / den) as u64;
                    let d = d.clamp(1, total - 1);
                    diags.push(
                        Diagnostic::new(
                            Code::CannotWire,
                            spec.oversubscription.map_or(at, |r| r.span),
                            format!(
                                "{total} ports cannot be split {} exactly",
                                ratio_text(a, b)
                            ),
                        )
                        .label("declared ratio")
                        .help(format!(
                            "the nearest split is {d} down and {} up ({}); write `downlinks {d}  uplinks {}` or choose a ratio the port count allows",
                            total - d,
                            ratio_text(d, total - d),
                            total - d
                        )),
                    );
                    return false;
                }
                let d = (num / den) as u64;
                (d, total - d)
            }
        }
    };
    if down + up > total {
        diags.push(too_many(spec, down + up, total));
        return false;
    }
    if down == 0 || up == 0 {
        diags.push(
            Diagnostic::new(
                Code::CannotWire,
                at,
                format!(
                    "tier `{}` needs both downlinks and uplinks",
                    spec.decl.name.node
                ),
            )
            .label(format!("{down} down, {up} up"))
            .help("a tier below the top needs ports in both directions"),
        );
        return false;
    }
    // Declared ratio against the split (by bandwidth).
    if let Some(r) = spec.oversubscription {
        let down_bw = bandwidth(groups, 0, down);
        let up_bw = bandwidth(groups, down, up);
        let declared = r.value.0 as f64 / r.value.1 as f64;
        let wired = down_bw as f64 / up_bw.max(1) as f64;
        if (wired - declared).abs() > declared * 0.005 {
            diags.push(
                Diagnostic::new(
                    Code::CannotWire,
                    r.span,
                    format!(
                        "tier `{}` is declared {} but its ports give {} ({} Gb/s down, {} Gb/s up)",
                        spec.decl.name.node,
                        ratio_text(r.value.0, r.value.1),
                        ratio_text(down_bw, up_bw),
                        down_bw / 1000,
                        up_bw / 1000
                    ),
                )
                .label("declared ratio")
                .help(format!(
                    "declare `oversubscription {}`, or set `downlinks`/`uplinks` to meet the ratio",
                    ratio_text(down_bw, up_bw)
                )),
            );
            return false;
        }
    }
    spec.down = down as u32;
    spec.up = up as u32;
    true
}

fn too_many(spec: &TierSpec<'_>, want: u64, total: u64) -> Diagnostic {
    Diagnostic::new(
        Code::CannotWire,
        spec.decl.name.span,
        format!(
            "tier `{}` asks for {want} ports but model `{}` has {total}",
            spec.decl.name.node, spec.model.name
        ),
    )
    .label("this tier")
    .help("lower `downlinks`/`uplinks`, or use a model with more ports")
}

/// Total Mb/s of `count` ports starting at port `first`.
fn bandwidth(groups: &[crate::model::PortGroup], first: u64, count: u64) -> u64 {
    let mut sum = 0u64;
    let mut idx = 0u64;
    for g in groups {
        for _ in 0..g.count {
            if idx >= first && idx < first + count {
                sum += g.speed;
            }
            idx += 1;
        }
    }
    sum
}

fn smallest_divisor_fitting(uplinks: u32, lower: u64, ports: u64) -> Option<u32> {
    (1..=uplinks)
        .filter(|&d| uplinks.is_multiple_of(d))
        .find(|&d| lower * u64::from(uplinks / d) <= ports)
}

fn choose_top_count(
    spec: &TierSpec<'_>,
    below: &TierSpec<'_>,
    lower_count: u64,
    what_lower: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let u = below.up;
    let ports = u64::from(spec.down);
    if let Some(n) = spec.switches {
        let n32 = u32::try_from(n.value).unwrap_or(0);
        if n32 == 0 || !u.is_multiple_of(n32) || lower_count * u64::from(u / n32) > ports {
            let fit = smallest_divisor_fitting(u, lower_count, ports);
            diags.push(
                Diagnostic::new(
                    Code::CannotWire,
                    n.span,
                    format!("{} switches cannot take the {u} uplinks of each of {lower_count} {what_lower}", n.value),
                )
                .label("requested count")
                .help(match fit {
                    Some(f) => format!("the count must divide {u} and leave each switch ≤ {ports} ports; {f} works"),
                    None => format!("no count works: {lower_count} {what_lower} need more than {ports} ports per switch"),
                }),
            );
            return None;
        }
        return Some(n32);
    }
    if let Some(d) = smallest_divisor_fitting(u, lower_count, ports) {
        return Some(d);
    }
    diags.push(
        Diagnostic::new(
            Code::CannotWire,
            spec.decl.name.span,
            format!(
                "tier `{}` cannot connect {lower_count} {what_lower}: even {u} switches would each need {lower_count} ports, and model `{}` has {ports}",
                spec.decl.name.node, spec.model.name
            ),
        )
        .label("top tier")
        .help("add a tier, oversubscribe the tier below, or use a top-tier model with more ports"),
    );
    None
}

/// Values of the placeholders for one generated switch.
#[derive(Default, Clone, Copy)]
struct Place {
    n: u64,
    rail: u64,
    group: u64,
    pod: u64,
    plane: u64,
    index: u64,
    /// The independent plane (`planes N`), 1-based.
    fabric: u64,
}

struct Namer<'a> {
    tier: &'a str,
    template: Option<&'a NameTemplate>,
    allowed: &'static [&'static str],
    max: Place,
}

impl Namer<'_> {
    fn check(&self, diags: &mut Vec<Diagnostic>) -> bool {
        let Some(t) = self.template else { return true };
        let mut ok = true;
        for part in &t.parts {
            if let TemplatePart::Placeholder(p) = part
                && !self.allowed.contains(&p.node.as_str())
            {
                let mut d = Diagnostic::new(
                    Code::BadNameTemplate,
                    p.span,
                    format!(
                        "`{{{}}}` is not a placeholder of tier `{}`",
                        p.node, self.tier
                    ),
                )
                .label("unknown placeholder");
                d = d.help(match did_you_mean(&p.node, self.allowed.iter().copied()) {
                    Some(h) => h,
                    None => format!(
                        "this tier knows {}",
                        self.allowed
                            .iter()
                            .map(|a| format!("{{{a}}}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
                diags.push(d);
                ok = false;
            }
        }
        ok
    }

    fn name(&self, p: Place) -> String {
        let width = |v: u64| v.max(1).to_string().len();
        let value = |word: &str| -> (u64, usize) {
            match word {
                "n" => (p.n, width(self.max.n)),
                "rail" => (p.rail, width(self.max.rail)),
                "group" => (p.group, width(self.max.group)),
                "pod" => (p.pod, width(self.max.pod)),
                "plane" => (p.plane, width(self.max.plane)),
                "fabric" => (p.fabric, width(self.max.fabric)),
                _ => (p.index, width(self.max.index)),
            }
        };
        let mut s = String::new();
        match self.template {
            None => {
                s.push_str(self.tier);
                let (v, w) = value("n");
                s.push_str(&format!("{v:0w$}"));
            }
            Some(t) => {
                for part in &t.parts {
                    match part {
                        TemplatePart::Text(x) => s.push_str(x),
                        TemplatePart::Placeholder(ph) if ph.node == "tier" => s.push_str(self.tier),
                        TemplatePart::Placeholder(ph) => {
                            let (v, w) = value(&ph.node);
                            s.push_str(&format!("{v:0w$}"));
                        }
                    }
                }
            }
        }
        s
    }
}

fn wire(
    specs: &[TierSpec<'_>],
    hosts: &[WiredHost],
    rails: u32,
    net: Plane,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Generated {
    let k = specs.len();
    // The spare hosts of the tiers: after the active ones, on the leaves' spare ports.
    let (hosts, spares) = super::spares::split(hosts, |h| h.spare.is_some());
    let hosts = &hosts[..];
    let h = hosts.len() as u64;
    let leaf = &specs[0];
    // Rack-ToR wiring: every NIC of a host on one leaf, so a leaf serves down/R hosts and
    // there is one "rail"; rail-optimised: one NIC per host per leaf, R rails.
    let rack = leaf
        .wiring
        .is_some_and(|w| w.value == ast::WiringStyle::Rack);
    let per = if rack { u64::from(rails) } else { 1 };
    let r = if rack { 1 } else { u64::from(rails) };
    let d1 = u64::from(leaf.down) / per;
    if d1 == 0 {
        diags.push(
            Diagnostic::new(
                Code::WiringStyle,
                leaf.wiring.map_or(leaf.decl.name.span, |w| w.span),
                format!(
                    "a rack ToR of {} downlinks cannot take all {rails} NIC ports of one host",
                    leaf.down
                ),
            )
            .label("rack-ToR wiring")
            .help("use a leaf model with more ports, or `wiring rail`"),
        );
        return Generated::default();
    }
    let groups = h.div_ceil(d1);
    let leaves = groups * r;
    // FAB616 (issue 18 item 6): the leaf count follows the hosts, rails and down ports; a
    // `switches` on the leaf tier used to be dropped in silence.
    if let Some(n) = leaf.switches
        && n.value != leaves
    {
        diags.push(
            Diagnostic::new(
                Code::LeafSwitchesIgnored,
                n.span,
                format!(
                    "`switches {}` on the leaf tier is not used: {h} hosts of {r} rails on {d1} down ports per leaf give {leaves} leaves",
                    n.value
                ),
            )
            .label("ignored")
            .help("remove `switches`; the leaf count changes with `downlinks`, `oversubscription` or the model's ports"),
        );
    }
    // Three tiers: pods of whole groups, `s` spines per pod.
    let (mut pods, mut gpp, mut s) = (1u64, groups, 0u32);
    if k == 3 {
        let spine = &specs[1];
        let u1 = leaf.up;
        let spp = match spine.switches {
            Some(n) => {
                let n32 = u32::try_from(n.value).unwrap_or(0);
                if n32 == 0 || !u1.is_multiple_of(n32) {
                    diags.push(
                        Diagnostic::new(
                            Code::CannotWire,
                            n.span,
                            format!(
                                "{} spines per pod cannot take a leaf's {u1} uplinks evenly",
                                n.value
                            ),
                        )
                        .label("requested count")
                        .help(format!("choose a divisor of {u1}")),
                    );
                    return Generated::default();
                }
                n32
            }
            None => u1,
        };
        let m = u64::from(u1 / spp);
        let per_pod = u64::from(spine.down) / m;
        if per_pod < r || per_pod % r != 0 {
            diags.push(
                Diagnostic::new(
                    Code::CannotWire,
                    spine.decl.name.span,
                    format!(
                        "a pod of tier `{}` holds {per_pod} leaves, which is not a whole number of rail groups of {r} leaves",
                        spine.decl.name.node
                    ),
                )
                .label("middle tier")
                .help(format!("give the middle tier a multiple of {r} downlinks (times {m} links per leaf)")),
            );
            return Generated::default();
        }
        gpp = per_pod / r;
        pods = groups.div_ceil(gpp);
        s = spp;
    }
    // Counts before any allocation, against the limits.
    let spines = if k == 3 { pods * u64::from(s) } else { 0 };
    let mut top_count = 0u64;
    let mut per_plane = 0u32;
    if k == 2 {
        match choose_top_count(&specs[1], leaf, leaves, "leaves", diags) {
            Some(n) => {
                per_plane = n;
                top_count = u64::from(n);
            }
            None => return Generated::default(),
        }
    } else if k == 3 {
        match choose_top_count(&specs[2], &specs[1], pods, "pods", diags) {
            Some(n) => {
                per_plane = n;
                top_count = u64::from(n) * u64::from(s);
            }
            None => return Generated::default(),
        }
    }
    let switch_total = leaves + spines + top_count;
    let link_total = h * u64::from(rails)
        + leaves * u64::from(leaf.up)
        + spines * u64::from(if k == 3 { specs[1].up } else { 0 });
    let (switch_total, link_total) = (
        switch_total * u64::from(net.count),
        link_total * u64::from(net.count),
    );
    if switch_total + h > limits.max_devices || link_total > limits.max_links {
        diags.push(
            Diagnostic::new(
                Code::LimitExceeded,
                leaf.decl.name.span,
                format!("the tiers would generate {switch_total} switches and {link_total} links, more than the limits allow"),
            )
            .label("generated from here")
            .help("raise the limits with `--max-devices`/`--max-links`, or describe a smaller fabric"),
        );
        return Generated::default();
    }

    let mut out = Generated::default();
    out.switches
        .reserve((switch_total / u64::from(net.count)) as usize);
    out.links
        .reserve((link_total / u64::from(net.count)) as usize);
    for (i, spec) in specs.iter().enumerate() {
        out.tiers.push(GenTier {
            name: spec.decl.name.node.clone(),
            span: spec.decl.name.span,
            level: i as u8 + 1,
            model: spec.model_id,
            oversubscription: spec.oversubscription,
            downlinks: spec.down,
            uplinks: spec.up,
            switches: Vec::new(),
        });
    }

    // Tier 1: leaf (group g, rail r) at index g·R + r.
    let leaf_namer = Namer {
        tier: &leaf.decl.name.node,
        template: leaf.name,
        allowed: if k == 3 {
            &["tier", "n", "rail", "group", "pod", "index", "fabric"]
        } else {
            &["tier", "n", "rail", "group", "index", "fabric"]
        },
        max: Place {
            n: leaves,
            rail: r,
            group: groups,
            pod: pods,
            plane: 0,
            index: gpp,
            fabric: u64::from(net.count),
        },
    };
    if !leaf_namer.check(diags) {
        return Generated::default();
    }
    let cable1 = leaf.cable;
    for g in 0..groups {
        for rail in 0..r {
            let idx = out.switches.len() as u32;
            let place = Place {
                n: g * r + rail + 1,
                rail: rail + 1,
                group: g + 1,
                pod: g / gpp + 1,
                plane: 0,
                index: g % gpp + 1,
                fabric: u64::from(net.index) + 1,
            };
            out.switches.push(GenSwitch {
                name: leaf_namer.name(place),
                tier: TierId(0),
                level: 1,
                model: leaf.model_id,
                span: leaf.decl.name.span,
            });
            out.tiers[0].switches.push(idx);
            for j in 0..d1 {
                let hi = g * d1 + j;
                let Some(host) = hosts.get(hi as usize) else {
                    break;
                };
                for q in 0..per {
                    let port = (j * per + q) as u32;
                    let nic = if rack { q } else { rail };
                    let port_speed = leaf.model.port_speed(port);
                    out.links.push(GenLink {
                        down: GenEnd::Host(host.id, nic as u32 * net.count + net.index),
                        up: GenEnd::Switch(idx, port),
                        speed: port_speed.min(host.nic_speed),
                        cable_mm: cable1,
                        tier: TierId(0),
                        span: leaf.decl.name.span,
                    });
                }
            }
        }
    }
    let slots = super::spares::Slots {
        first: leaf.down + leaf.up,
        ports: leaf.model.port_count().saturating_sub(leaf.down + leaf.up),
        per: per as u32,
        rails: r as u32,
        groups: groups as u32,
    };
    let first_spare = spares.first().and_then(|h| h.spare);
    let Some(places) =
        super::spares::places(spares.len(), slots, first_spare, leaf.decl.name.span, diags)
    else {
        return Generated::default();
    };
    for p in places {
        let host = &spares[p.spare];
        out.links.push(GenLink {
            down: GenEnd::Host(host.id, p.nic * net.count + net.index),
            up: GenEnd::Switch(p.leaf, p.port),
            speed: leaf.model.port_speed(p.port).min(host.nic_speed),
            cable_mm: cable1,
            tier: TierId(0),
            span: leaf.decl.name.span,
        });
    }
    if k == 1 {
        return out;
    }
    let leaf_first = 0u32;
    if k == 2 {
        let top = &specs[1];
        let namer = Namer {
            tier: &top.decl.name.node,
            template: top.name,
            allowed: &["tier", "n", "plane", "index", "fabric"],
            max: Place {
                n: top_count,
                plane: top_count,
                index: top_count,
                fabric: u64::from(net.count),
                ..Place::default()
            },
        };
        if !namer.check(diags) {
            return Generated::default();
        }
        let first = out.switches.len() as u32;
        for t in 0..per_plane {
            let n = u64::from(t) + 1;
            out.switches.push(GenSwitch {
                name: namer.name(Place {
                    n,
                    plane: n,
                    index: n,
                    fabric: u64::from(net.index) + 1,
                    ..Place::default()
                }),
                tier: TierId(1),
                level: 2,
                model: top.model_id,
                span: top.decl.name.span,
            });
            out.tiers[1].switches.push(first + t);
        }
        connect(
            &mut out,
            leaf,
            top,
            leaf_first,
            leaves as u32,
            first,
            per_plane,
            TierId(1),
        );
        return out;
    }
    // Three tiers: spines per pod, then the top tier per plane.
    let spine = &specs[1];
    let spine_namer = Namer {
        tier: &spine.decl.name.node,
        template: spine.name,
        allowed: &["tier", "n", "pod", "plane", "index", "fabric"],
        max: Place {
            n: spines,
            pod: pods,
            plane: u64::from(s),
            index: u64::from(s),
            fabric: u64::from(net.count),
            ..Place::default()
        },
    };
    let top = &specs[2];
    let top_namer = Namer {
        tier: &top.decl.name.node,
        template: top.name,
        allowed: &["tier", "n", "plane", "index", "fabric"],
        max: Place {
            n: top_count,
            plane: u64::from(s),
            index: u64::from(per_plane),
            fabric: u64::from(net.count),
            ..Place::default()
        },
    };
    if !spine_namer.check(diags) || !top_namer.check(diags) {
        return Generated::default();
    }
    let spine_first = out.switches.len() as u32;
    for p in 0..pods {
        for j in 0..u64::from(s) {
            let idx = out.switches.len() as u32;
            out.switches.push(GenSwitch {
                name: spine_namer.name(Place {
                    n: p * u64::from(s) + j + 1,
                    pod: p + 1,
                    plane: j + 1,
                    index: j + 1,
                    fabric: u64::from(net.index) + 1,
                    ..Place::default()
                }),
                tier: TierId(1),
                level: 2,
                model: spine.model_id,
                span: spine.decl.name.span,
            });
            out.tiers[1].switches.push(idx);
        }
        // Leaves of pod p: groups p·gpp .. (p+1)·gpp.
        let lo = (p * gpp * r) as u32;
        let hi = (((p + 1) * gpp).min(groups) * r) as u32;
        connect(
            &mut out,
            leaf,
            spine,
            lo,
            hi - lo,
            spine_first + (p * u64::from(s)) as u32,
            s,
            TierId(1),
        );
    }
    let top_first = out.switches.len() as u32;
    for plane in 0..s {
        for t in 0..per_plane {
            let idx = out.switches.len() as u32;
            out.switches.push(GenSwitch {
                name: top_namer.name(Place {
                    n: u64::from(plane) * u64::from(per_plane) + u64::from(t) + 1,
                    plane: u64::from(plane) + 1,
                    index: u64::from(t) + 1,
                    fabric: u64::from(net.index) + 1,
                    ..Place::default()
                }),
                tier: TierId(2),
                level: 3,
                model: top.model_id,
                span: top.decl.name.span,
            });
            out.tiers[2].switches.push(idx);
        }
    }
    // Plane j: spine j of every pod, each spreading its uplinks over the plane's top switches.
    let m3 = spine.up / per_plane;
    for plane in 0..s {
        for p in 0..pods as u32 {
            let sw = spine_first + p * s + plane;
            for q in 0..spine.up {
                let t = q % per_plane;
                let top_idx = top_first + plane * per_plane + t;
                let top_port = p * m3 + q / per_plane;
                out.links.push(GenLink {
                    down: GenEnd::Switch(sw, spine.down + q),
                    up: GenEnd::Switch(top_idx, top_port),
                    speed: spine
                        .model
                        .port_speed(spine.down + q)
                        .min(top.model.port_speed(top_port)),
                    cable_mm: top.cable,
                    tier: TierId(2),
                    span: top.decl.name.span,
                });
            }
        }
    }
    out
}

/// Joins `count` lower switches (from `lower_first`) to `uppers` upper switches (from
/// `upper_first`): uplink q of lower switch i goes to upper q mod `uppers`.
#[allow(clippy::too_many_arguments)] // one call per tier pair; a struct would only rename them
fn connect(
    out: &mut Generated,
    lower: &TierSpec<'_>,
    upper: &TierSpec<'_>,
    lower_first: u32,
    count: u32,
    upper_first: u32,
    uppers: u32,
    tier: TierId,
) {
    let m = lower.up / uppers;
    for i in 0..count {
        let sw = lower_first + i;
        for q in 0..lower.up {
            let t = q % uppers;
            let port = i * m + q / uppers;
            out.links.push(GenLink {
                down: GenEnd::Switch(sw, lower.down + q),
                up: GenEnd::Switch(upper_first + t, port),
                speed: lower
                    .model
                    .port_speed(lower.down + q)
                    .min(upper.model.port_speed(port)),
                cable_mm: upper.cable,
                tier,
                span: upper.decl.name.span,
            });
        }
    }
}
