//! Wiring: hosts to leaves (rail-optimised or rack), leaves into pods, spines into planes,
//! and each tier's uplinks spread evenly over the tier above.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{Limits, TierId};
use crate::syntax::ast;

use super::naming::{Namer, Place};
use super::split::choose_top_count;
use super::tiers::{GenEnd, GenLink, GenSwitch, GenTier, Generated, Plane, TierSpec, WiredHost};
use crate::model::Mbps;

pub(super) fn wire(
    specs: &[TierSpec<'_>],
    hosts: &[WiredHost],
    rails: u32,
    net: Plane,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Generated {
    // A step that finds the tiers cannot be wired has said why; nothing is generated then.
    wire_tiers(specs, hosts, rails, net, limits, diags).unwrap_or_default()
}

fn wire_tiers(
    specs: &[TierSpec<'_>],
    hosts: &[WiredHost],
    rails: u32,
    net: Plane,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let k = specs.len();
    // The spare hosts of the tiers: after the active ones, on the leaves' spare ports.
    let (hosts, spares) = crate::model::spares::split(hosts, |h| h.spare.is_some());
    let leaf = &specs[0];
    let shape = shape(specs, hosts.len() as u64, rails, diags)?;
    let (switch_total, link_total) = within_limits(specs, &shape, rails, net, limits, diags)?;
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
    // The peer links take the leaf's last ports; the spare hosts the ones before them.
    let ports = leaf.model.port_count();
    let peer_first = match leaf.peer_link {
        Some(n) => crate::model::spares::peer_link_first(ports, leaf.down + leaf.up, n, diags)?,
        None => ports,
    };
    leaf_tier(&mut out, leaf, k, &shape, &hosts, net, diags)?;
    spare_hosts(&mut out, leaf, &shape, &spares, peer_first, net, diags)?;
    peer_links(&mut out, leaf, &shape, peer_first);
    if k == 1 {
        return Some(out);
    }
    if k == 2 {
        top_over_leaves(&mut out, leaf, &specs[1], &shape, net, diags)?;
        return Some(out);
    }
    let spine_first = out.switches.len() as u32;
    spine_tier(&mut out, leaf, &specs[1], &shape, net, diags)?;
    top_over_spines(
        &mut out,
        &specs[1],
        &specs[2],
        spine_first,
        &shape,
        net,
        diags,
    )?;
    Some(out)
}

/// How many switches each tier has and how the hosts fill the leaves, decided before anything
/// is allocated.
struct Shape {
    /// Hosts wired by the leaves' down ports (the spares come after them).
    hosts: u64,
    /// Rack-ToR wiring: every NIC of a host on one leaf.
    rack: bool,
    /// NIC ports of one host on one leaf.
    per: u64,
    /// Leaves per group: the rails, or 1 for rack ToRs.
    r: u64,
    /// Hosts per leaf.
    d1: u64,
    groups: u64,
    leaves: u64,
    pods: u64,
    /// Groups per pod.
    gpp: u64,
    /// Spines per pod.
    s: u32,
    spines: u64,
    top_count: u64,
    /// Top switches per plane (the spine index within a pod, with three tiers).
    per_plane: u32,
}

/// The leaf groups, pods and top switches the hosts and ports give; `None` when the tiers
/// cannot be wired.
fn shape(specs: &[TierSpec<'_>], h: u64, rails: u32, diags: &mut Vec<Diagnostic>) -> Option<Shape> {
    let k = specs.len();
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
        return None;
    }
    let groups = h.div_ceil(d1);
    let leaves = groups * r;
    leaf_switches_ignored(leaf, h, r, d1, leaves, diags);
    let (pods, gpp, s) = if k == 3 {
        pods(leaf, &specs[1], groups, r, diags)?
    } else {
        (1u64, groups, 0u32)
    };
    let spines = if k == 3 { pods * u64::from(s) } else { 0 };
    let (top_count, per_plane) = if k == 2 {
        let n = choose_top_count(&specs[1], leaf, leaves, "leaves", diags)?;
        (u64::from(n), n)
    } else if k == 3 {
        let n = choose_top_count(&specs[2], &specs[1], pods, "pods", diags)?;
        (u64::from(n) * u64::from(s), n)
    } else {
        (0, 0)
    };
    Some(Shape {
        hosts: h,
        rack,
        per,
        r,
        d1,
        groups,
        leaves,
        pods,
        gpp,
        s,
        spines,
        top_count,
        per_plane,
    })
}

/// FAB616 (issue 18 item 6): the leaf count follows the hosts, rails and down ports; a
/// `switches` on the leaf tier used to be dropped in silence.
fn leaf_switches_ignored(
    leaf: &TierSpec<'_>,
    h: u64,
    r: u64,
    d1: u64,
    leaves: u64,
    diags: &mut Vec<Diagnostic>,
) {
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
}

/// Three tiers: pods of whole groups, `s` spines per pod. Returns (pods, groups per pod,
/// spines per pod).
fn pods(
    leaf: &TierSpec<'_>,
    spine: &TierSpec<'_>,
    groups: u64,
    r: u64,
    diags: &mut Vec<Diagnostic>,
) -> Option<(u64, u64, u32)> {
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
                return None;
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
        return None;
    }
    let gpp = per_pod / r;
    Some((groups.div_ceil(gpp), gpp, spp))
}

/// The switch and link totals over every plane, against the limits.
fn within_limits(
    specs: &[TierSpec<'_>],
    shape: &Shape,
    rails: u32,
    net: Plane,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Option<(u64, u64)> {
    let (k, leaf, h) = (specs.len(), &specs[0], shape.hosts);
    let switch_total = shape.leaves + shape.spines + shape.top_count;
    let link_total = h * u64::from(rails)
        + shape.leaves * u64::from(leaf.up)
        + shape.spines * u64::from(if k == 3 { specs[1].up } else { 0 });
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
        return None;
    }
    Some((switch_total, link_total))
}

/// Tier 1: leaf (group g, rail r) at index g·R + r, each with its hosts' links.
fn leaf_tier(
    out: &mut Generated,
    leaf: &TierSpec<'_>,
    k: usize,
    shape: &Shape,
    hosts: &[WiredHost],
    net: Plane,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let Shape {
        rack,
        per,
        r,
        d1,
        groups,
        gpp,
        ..
    } = *shape;
    let leaf_namer = Namer {
        tier: &leaf.decl.name.node,
        template: leaf.name,
        allowed: if k == 3 {
            &["tier", "n", "rail", "group", "pod", "index", "fabric"]
        } else {
            &["tier", "n", "rail", "group", "index", "fabric"]
        },
        max: Place {
            n: shape.leaves,
            rail: r,
            group: groups,
            pod: shape.pods,
            plane: 0,
            index: gpp,
            fabric: u64::from(net.count),
        },
    };
    if !leaf_namer.check(diags) {
        return None;
    }
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
                        speed: Mbps(port_speed.min(host.nic_speed)),
                        cable_mm: leaf.cable,
                        tier: TierId(0),
                        span: leaf.decl.name.span,
                    });
                }
            }
        }
    }
    Some(())
}

/// The spare hosts, on the leaves' ports after the down and up ports and before the peer
/// links (`peer_first`).
fn spare_hosts(
    out: &mut Generated,
    leaf: &TierSpec<'_>,
    shape: &Shape,
    spares: &[WiredHost],
    peer_first: u32,
    net: Plane,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let slots = crate::model::spares::Slots {
        first: leaf.down + leaf.up,
        ports: peer_first.saturating_sub(leaf.down + leaf.up),
        per: shape.per as u32,
        rails: shape.r as u32,
        groups: shape.groups as u32,
    };
    let first_spare = spares.first().and_then(|h| h.spare);
    let places =
        crate::model::spares::places(spares.len(), slots, first_spare, leaf.decl.name.span, diags)?;
    for p in places {
        let host = &spares[p.spare];
        out.links.push(GenLink {
            down: GenEnd::Host(host.id, p.nic * net.count + net.index),
            up: GenEnd::Switch(p.leaf, p.port),
            speed: Mbps(leaf.model.port_speed(p.port).min(host.nic_speed)),
            cable_mm: leaf.cable,
            tier: TierId(0),
            span: leaf.decl.name.span,
        });
    }
    Some(())
}

/// `peer-link N`: the two leaves of each dual-ToR pair (rails 2c and 2c+1 of a group, 0-based)
/// joined port for port on their ports from `first` on. Both ends are on the leaf tier, so
/// valley-free routing never sends traffic across; it is the MLAG peer link.
fn peer_links(out: &mut Generated, leaf: &TierSpec<'_>, shape: &Shape, first: u32) {
    let ports = leaf.model.port_count();
    if first >= ports {
        return;
    }
    for g in 0..shape.groups {
        for pair in 0..shape.r / 2 {
            let a = (g * shape.r + 2 * pair) as u32;
            for p in first..ports {
                out.links.push(GenLink {
                    down: GenEnd::Switch(a, p),
                    up: GenEnd::Switch(a + 1, p),
                    speed: Mbps(leaf.model.port_speed(p)),
                    cable_mm: leaf.cable,
                    tier: TierId(0),
                    span: leaf.peer_link.map_or(leaf.decl.name.span, |n| n.span),
                });
            }
        }
    }
}

/// Two tiers: the top switches, every leaf spreading its uplinks over them.
fn top_over_leaves(
    out: &mut Generated,
    leaf: &TierSpec<'_>,
    top: &TierSpec<'_>,
    shape: &Shape,
    net: Plane,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let (top_count, per_plane) = (shape.top_count, shape.per_plane);
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
        return None;
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
        out,
        leaf,
        top,
        0,
        shape.leaves as u32,
        first,
        per_plane,
        TierId(1),
    );
    Some(())
}

/// Three tiers: the spines of each pod, the pod's leaves spreading their uplinks over them.
fn spine_tier(
    out: &mut Generated,
    leaf: &TierSpec<'_>,
    spine: &TierSpec<'_>,
    shape: &Shape,
    net: Plane,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let Shape {
        r,
        groups,
        pods,
        gpp,
        s,
        ..
    } = *shape;
    let spine_namer = Namer {
        tier: &spine.decl.name.node,
        template: spine.name,
        allowed: &["tier", "n", "pod", "plane", "index", "fabric"],
        max: Place {
            n: shape.spines,
            pod: pods,
            plane: u64::from(s),
            index: u64::from(s),
            fabric: u64::from(net.count),
            ..Place::default()
        },
    };
    if !spine_namer.check(diags) {
        return None;
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
            out,
            leaf,
            spine,
            lo,
            hi - lo,
            spine_first + (p * u64::from(s)) as u32,
            s,
            TierId(1),
        );
    }
    Some(())
}

/// Three tiers: the top switches per plane. Plane j: spine j of every pod, each spreading its
/// uplinks over the plane's top switches.
fn top_over_spines(
    out: &mut Generated,
    spine: &TierSpec<'_>,
    top: &TierSpec<'_>,
    spine_first: u32,
    shape: &Shape,
    net: Plane,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let (s, per_plane, pods) = (shape.s, shape.per_plane, shape.pods);
    let top_namer = Namer {
        tier: &top.decl.name.node,
        template: top.name,
        allowed: &["tier", "n", "plane", "index", "fabric"],
        max: Place {
            n: shape.top_count,
            plane: u64::from(s),
            index: u64::from(per_plane),
            fabric: u64::from(net.count),
            ..Place::default()
        },
    };
    if !top_namer.check(diags) {
        return None;
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
                    speed: Mbps(
                        spine
                            .model
                            .port_speed(spine.down + q)
                            .min(top.model.port_speed(top_port)),
                    ),
                    cable_mm: top.cable,
                    tier: TierId(2),
                    span: top.decl.name.span,
                });
            }
        }
    }
    Some(())
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
                speed: Mbps(
                    lower
                        .model
                        .port_speed(lower.down + q)
                        .min(upper.model.port_speed(port)),
                ),
                cable_mm: upper.cable,
                tier,
                span: upper.decl.name.span,
            });
        }
    }
}
