//! FAB617 (issue 18 item 6): an explicit link that statement order left on a slower switch
//! port. `bind` gives a switch end the first free port fast enough for the link, and a link
//! between two switches needs no speed, so uplinks written after the host links (or on a
//! model whose slow ports come first) land on the slow ports while a faster port of the same
//! switch stays free — or carries a slower link that came first. The link then runs at the
//! slow port's speed in silence.

use std::collections::{BTreeMap, HashMap};

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Endpoint, Fabric, LinkId, SwitchId};
use crate::span::Span;
use crate::syntax::ast::Speed;

/// One explicit link as `bind` placed it.
pub(super) struct Placed {
    pub link: LinkId,
    /// The statement set `speed`: the link runs what the author asked for.
    pub speed_set: bool,
    /// Whether the author named the port of end a and end b (`L1.port5`, `h1.nic2`): only
    /// ports the resolver chose are statement order's doing.
    pub named: [bool; 2],
}

/// A faster port than the one a link got: free, or held by a slower explicit link.
#[derive(Clone, Copy)]
struct Better {
    port: u32,
    speed: u64,
    holder: Option<LinkId>,
}

/// The links of one statement on one switch that a faster port would speed up.
struct Finding {
    span: Span,
    switch: SwitchId,
    links: u32,
    got: Endpoint,
    got_speed: u64,
    runs: u64,
    could: u64,
    better: Better,
}

pub(super) fn check(fabric: &Fabric, placed: &[Placed], diags: &mut Vec<Diagnostic>) {
    // Ports that explicit links hold and the resolver chose: the ones a reordering can free.
    let mut movable: HashMap<(SwitchId, u32), LinkId> = HashMap::new();
    for p in placed {
        let link = fabric.link(p.link);
        for (e, named) in [(link.a, p.named[0]), (link.b, p.named[1])] {
            if let (DeviceId::Switch(s), false) = (e.device, named) {
                movable.insert((s, e.port), p.link);
            }
        }
    }
    // Keyed by (statement, switch): source order, deterministic.
    let mut found: BTreeMap<(Span, SwitchId), Finding> = BTreeMap::new();
    for p in placed.iter().filter(|p| !p.speed_set) {
        let link = fabric.link(p.link);
        let ends = [(link.a, p.named[0]), (link.b, p.named[1])];
        let caps = ends.map(|(e, _)| capacity(fabric, e));
        let better = ends.map(|(e, named)| match (e.device, named) {
            (DeviceId::Switch(s), false) => faster_port(fabric, s, e.port, &movable),
            _ => None,
        });
        let best = |i: usize| better[i].map_or(caps[i], |b| b.speed.max(caps[i]));
        let could = best(0).min(best(1));
        if could <= link.speed {
            continue;
        }
        for i in 0..2 {
            let (Some(b), DeviceId::Switch(s)) = (better[i], ends[i].0.device) else {
                continue;
            };
            if caps[i] >= could {
                continue;
            }
            found
                .entry((link.span, s))
                .and_modify(|f| f.links += 1)
                .or_insert(Finding {
                    span: link.span,
                    switch: s,
                    links: 1,
                    got: ends[i].0,
                    got_speed: caps[i],
                    runs: link.speed,
                    could,
                    better: b,
                });
        }
    }
    for f in found.into_values() {
        diags.push(finding(fabric, &f));
    }
}

/// Mb/s the port or NIC at `e` can run.
fn capacity(fabric: &Fabric, e: Endpoint) -> u64 {
    match e.device {
        DeviceId::Switch(s) => fabric.switch_model(s).port_speed(e.port),
        DeviceId::Host(h) => fabric
            .host(h)
            .nics
            .get(e.port as usize)
            .map_or(0, |n| fabric.nic_models[n.model.index()].speed.value),
    }
}

/// The fastest port of switch `s` faster than `port` that is free, or else held by an
/// explicit, resolver-placed link no faster than `port` (the two could swap with no loss).
fn faster_port(
    fabric: &Fabric,
    s: SwitchId,
    port: u32,
    movable: &HashMap<(SwitchId, u32), LinkId>,
) -> Option<Better> {
    let model = fabric.switch_model(s);
    let mine = model.port_speed(port);
    let mut free: Option<Better> = None;
    let mut held: Option<Better> = None;
    for (q, slot) in fabric.switch(s).ports.iter().enumerate() {
        let q = q as u32;
        let speed = model.port_speed(q);
        if speed <= mine {
            continue;
        }
        let candidate = match slot {
            None => &mut free,
            Some(l) if movable.get(&(s, q)) == Some(l) && fabric.link(*l).speed <= mine => {
                &mut held
            }
            Some(_) => continue,
        };
        if candidate.is_none_or(|c| speed > c.speed) {
            *candidate = Some(Better {
                port: q,
                speed,
                holder: *slot,
            });
        }
    }
    free.or(held)
}

fn finding(fabric: &Fabric, f: &Finding) -> Diagnostic {
    let g = |mbps: u64| crate::syntax::printer::speed(Speed(mbps));
    let name = &fabric.switch(f.switch).name;
    let got = fabric.endpoint_name(f.got);
    let fast = fabric.endpoint_name(Endpoint {
        device: DeviceId::Switch(f.switch),
        port: f.better.port,
    });
    let who = if f.links == 1 {
        format!(
            "this link runs {} on `{got}`, a {} port,",
            g(f.runs),
            g(f.got_speed)
        )
    } else {
        format!(
            "{} links of this statement run {} on {} ports of `{name}` (the first on `{got}`)",
            f.links,
            g(f.runs),
            g(f.got_speed)
        )
    };
    match f.better.holder {
        None => Diagnostic::new(
            Code::SlowPortTaken,
            f.span,
            format!(
                "{who} while `{fast}` ({}) is free: statement order took the first free port",
                g(f.better.speed)
            ),
        )
        .label(format!("could run {}", g(f.could)))
        .help(format!(
            "give the link `speed {}` so it takes a port that fast, or name the port (`link {fast} -- …`)",
            g(f.could)
        )),
        Some(h) => {
            let holder = fabric.link(h);
            Diagnostic::new(
                Code::SlowPortTaken,
                f.span,
                format!(
                    "{who} while `{fast}` ({}) carries a {} link written earlier: statement order gave the fast port to the slow link",
                    g(f.better.speed),
                    g(holder.speed)
                ),
            )
            .label(format!("could run {}", g(f.could)))
            .with_secondary(holder.span, format!("holds the {} port", g(f.better.speed)))
            .help(format!(
                "write this statement before the one holding `{fast}` and give it `speed {}`, or name the ports (`link {fast} -- …`)",
                g(f.could)
            ))
        }
    }
}
