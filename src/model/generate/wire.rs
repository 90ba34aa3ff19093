//! Wiring: hosts to leaves (rail-optimised or rack), leaves into pods, spines into planes,
//! and each tier's uplinks spread evenly over the tier above.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{Limits, TierId};
use crate::syntax::ast;

use super::naming::{Namer, Place};
use super::split::choose_top_count;
use super::tiers::{GenEnd, GenLink, GenSwitch, GenTier, Generated, Plane, TierSpec, WiredHost};

pub(super) fn wire(
    specs: &[TierSpec<'_>],
    hosts: &[WiredHost],
    rails: u32,
    net: Plane,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Generated {
    let k = specs.len();
    // The spare hosts of the tiers: after the active ones, on the leaves' spare ports.
    let (hosts, spares) = crate::model::spares::split(hosts, |h| h.spare.is_some());
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
    let slots = crate::model::spares::Slots {
        first: leaf.down + leaf.up,
        ports: leaf.model.port_count().saturating_sub(leaf.down + leaf.up),
        per: per as u32,
        rails: r as u32,
        groups: groups as u32,
    };
    let first_spare = spares.first().and_then(|h| h.spare);
    let Some(places) =
        crate::model::spares::places(spares.len(), slots, first_spare, leaf.decl.name.span, diags)
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
