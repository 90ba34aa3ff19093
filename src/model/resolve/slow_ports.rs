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
        if could <= link.speed.get() {
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
                    runs: link.speed.get(),
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
            .map_or(0, |n| fabric.nic_models[n.model.index()].speed.value.get()),
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
            Some(l) if movable.get(&(s, q)) == Some(l) && fabric.link(*l).speed.get() <= mine => {
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
                    g(holder.speed.get())
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

/// FAB617 for a generated tier: its uplinks are the `up` ports right after the `down`
/// downlinks in port order, so on a mixed model (`ports 9 x 200G, 4 x 400G` with
/// `downlinks 8  uplinks 4`: a port kept for a spare host) an uplink lands on a slow port
/// while a faster one past the uplinks idles. `upper` and `upper_down` are the tier above,
/// whose first `upper_down` ports the uplinks reach.
pub(crate) fn generated_uplinks(
    tier: &crate::syntax::ast::Ident,
    lower: &crate::model::SwitchModel,
    (down, up): (u32, u32),
    upper: &crate::model::SwitchModel,
    upper_down: u32,
) -> Option<Diagnostic> {
    let g = |mbps: u64| crate::syntax::printer::speed(Speed(mbps));
    let total = lower.port_count();
    let end = down.saturating_add(up).min(total);
    let reach = (0..upper_down).map(|p| upper.port_speed(p)).max()?;
    // The fastest port past the uplinks (the first of that speed).
    let (idle, fast) = (end..total).map(|p| (p, lower.port_speed(p))).fold(
        None,
        |best: Option<(u32, u64)>, (p, s)| match best {
            Some((_, b)) if b >= s => best,
            _ => Some((p, s)),
        },
    )?;
    let could = fast.min(reach);
    let slow: Vec<u32> = (down..end)
        .filter(|&p| lower.port_speed(p) < could)
        .collect();
    let first = *slow.first()?;
    let last_up = total.checked_sub(up)?;
    let fix = if (last_up..total).all(|p| lower.port_speed(p) >= could) {
        format!(
            "`downlinks {last_up}  uplinks {up}` puts every uplink on a {} port (a leaf then takes the hosts of {last_up} down ports); or list the model's port groups so the uplink ports follow the downlinks",
            g(could)
        )
    } else {
        "list the model's port groups so the uplink ports follow the downlinks, or set `downlinks` so the uplinks start at the faster ports".to_string()
    };
    Some(
        Diagnostic::new(
            Code::SlowPortTaken,
            tier.span,
            format!(
                "tier `{}` takes its {up} uplinks from the ports right after its {down} downlinks, so {} while port {} ({}) is left unused",
                tier.node,
                match slow.len() {
                    1 => format!("uplink port {} runs {}", first + 1, g(lower.port_speed(first))),
                    n => format!("{n} of them run {} (the first on port {})", g(lower.port_speed(first)), first + 1),
                },
                idle + 1,
                g(fast)
            ),
        )
        .label(format!("uplinks could run {}", g(could)))
        .help(fix),
    )
}
