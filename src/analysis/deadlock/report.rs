//! The proof's findings as a reader meets them: witness cycles with the routes that induce
//! every edge and a remedy (FAB201), Tagger's ordering (FAB202), static-route loops (FAB702)
//! and unreachable pairs (FAB701).

use std::collections::BTreeSet;

use crate::diagnostic::{Code, CycleHop, Diagnostic};
use crate::model::{DeviceId, Fabric, RoutingModel, SwitchId};
use crate::span::Span;

use super::buffer_graph::{BufferDependencyGraph, Cause, Queue};
use super::{buffer_graph, witness};
use crate::analysis::facts::Unreachable;
use crate::analysis::routing::{self, Net, Routes};

use super::{Ctx, Cycle, Proof};

pub(super) fn report_loops(cx: &Ctx, routes: &Routes, proof: &mut Proof) {
    let f = cx.fabric;
    let mut seen: BTreeSet<Vec<u32>> = BTreeSet::new();
    for l in &routes.loops {
        if !seen.insert(l.switches.clone()) {
            continue;
        }
        let names: Vec<String> = l
            .switches
            .iter()
            .map(|&s| f.switch(SwitchId(s)).name.clone())
            .collect();
        let dest = &routes.dests[l.dest];
        let target = cx.unit_label(dest.units[0]);
        // The static routes at the loop's switches for this destination.
        let involved: Vec<&crate::model::StaticRoute> = dest
            .routes
            .iter()
            .map(|&i| &f.routing.routes[i])
            .filter(|r| l.switches.contains(&r.at.0))
            .collect();
        let span = involved.first().map_or(f.routing.model.span, |r| r.span);
        let mut chain = names.clone();
        chain.push(names[0].clone());
        let mut d = Diagnostic::new(
            Code::RoutingLoop,
            span,
            format!("static routes loop: traffic for `{target}` goes {} until its TTL expires", chain.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" -> ")),
        )
        .label("route in the loop")
        .note("a routing loop is a cyclic buffer dependency on every lossless priority it carries; the loop deadlocks once traffic enters it faster than n·B/TTL (HotNets'16)")
        .help("make the static routes agree on one loop-free direction toward the destination, or remove the one that points back");
        for r in involved.iter().skip(1) {
            d = d.with_secondary(r.span, "also in the loop");
        }
        proof.diagnostics.push(d);
        proof.loops.push(names);
    }
}

/// U14: where the first unreachable pair's destination `to` is one whose static routes loop
/// (FAB702), the routes dropped it, not the topology: FAB701 says so and points at them.
pub(super) fn blame_looping_routes(cx: &Ctx, routes: &Routes, to: u32, d: &mut Diagnostic) {
    let Some(&dest) = routes.dest_of.get(to as usize) else {
        return;
    };
    if !routes.loops.iter().any(|l| l.dest == dest) {
        return;
    }
    let f = cx.fabric;
    let Some(route) = routes.dests[dest]
        .routes
        .first()
        .map(|&i| &f.routing.routes[i])
    else {
        return;
    };
    d.message = format!(
        "{}: its static routes loop (FAB702), so the traffic never arrives",
        d.message
    );
    d.primary.span = route.span;
    d.primary.text = "a static route toward it".into();
    d.help = Some(
        "fix the looping static routes (FAB702); the topology itself connects the pair".into(),
    );
}

/// Adds `pairs` of `scenario` to the facts while the listing `budget` lasts; how many it added.
pub(super) fn list_pairs(
    cx: &Ctx,
    pairs: &[(u32, u32)],
    scenario: &[String],
    budget: usize,
    proof: &mut Proof,
) -> usize {
    let host = |u: u32| {
        let h = cx.ends.host[u as usize];
        cx.fabric.host(crate::model::HostId(h)).name.clone()
    };
    let room = budget.saturating_sub(proof.unreachable.len());
    for &(x, y) in pairs.iter().take(room) {
        proof.unreachable.push(Unreachable {
            from: host(x),
            to: host(y),
            scenario: scenario.to_vec(),
            from_nic: cx.ends.nic_name(cx.fabric, x),
            to_nic: cx.ends.nic_name(cx.fabric, y),
        });
    }
    pairs.len().min(room)
}

/// FAB701 for `total` pairs without a route (`pairs`: the smallest of them, none with an
/// isolated host), and as many of `pairs` in the facts as the listing `budget` has left.
pub(super) fn report_unreachable(
    cx: &Ctx,
    pairs: &[(u32, u32)],
    total: u64,
    scenario: &[String],
    budget: usize,
    proof: &mut Proof,
) {
    let f = cx.fabric;
    let Some(&(a, b)) = pairs.first() else {
        return;
    };
    let name = |u: u32| cx.unit_label(u);
    let listed = list_pairs(cx, pairs, scenario, budget, proof);
    proof.facts.unreachable_pairs = proof.facts.unreachable_pairs.saturating_add(total);
    let model = match f.routing.model.value {
        RoutingModel::Updown => "routing updown",
        RoutingModel::Shortest => "routing shortest",
        RoutingModel::None => "routing none",
    };
    let (span, when) = if scenario.is_empty() {
        (
            f.routing
                .fails
                .first()
                .map_or(f.routing.model.span, |x| x.span),
            String::new(),
        )
    } else {
        (
            f.routing.check_failures.span,
            format!(
                " when {} fail(s)",
                scenario
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    };
    let mut d = Diagnostic::new(
        Code::Unreachable,
        span,
        format!(
            "`{}` cannot reach `{}` under `{model}`{when} ({} NIC pair(s) without a route)",
            name(a),
            name(b),
            total
        ),
    )
    .label(if scenario.is_empty() {
        "routing of the fabric as declared"
    } else {
        "failure scenarios checked here"
    });
    d = if f.routing.model.value == RoutingModel::Updown {
        d.help("up-down routing never bounces, so a lost valley-free path means no path; add links (or spines) so every leaf keeps a valley-free path, or accept the outage")
    } else {
        d.help("add links so the switch graph stays connected, or fix the static routes that drop this traffic")
    };
    if (listed as u64) < total {
        d = d.note(format!(
            "the JSON facts list {listed} of these {total} pairs, as they list at most {budget} \
             in all (`--max-unreachable`); `facts.deadlock.unreachable_pairs` counts every pair"
        ));
    }
    proof.diagnostics.push(d);
}

/// The witness of component `comp`, with one inducing route per edge.
pub(super) fn describe_cycle(
    cx: &Ctx,
    routes: &Routes,
    g: &BufferDependencyGraph,
    comp: &[petgraph::graph::NodeIndex],
    scenario: &[String],
) -> (Cycle, Vec<Queue>) {
    let w = witness::minimal_cycle(&g.graph, comp);
    let f = cx.fabric;
    let queues: Vec<Queue> = w.cycle.iter().map(|&n| g.graph[n]).collect();
    let hops = queues
        .iter()
        .map(|q| CycleHop {
            switch: f.switch(SwitchId(q.switch)).name.clone(),
            from: f.switch(SwitchId(q.from)).name.clone(),
            priority: q.priority,
        })
        .collect();
    let mut descr = Vec::new();
    for i in 0..queues.len() {
        let (a, b) = (queues[i], queues[(i + 1) % queues.len()]);
        let cause = g
            .graph
            .find_edge(w.cycle[i], w.cycle[(i + 1) % queues.len()])
            .map(|e| g.graph[e]);
        descr.push(edge_route(cx, routes, a, b, cause));
    }
    (
        Cycle {
            hops,
            scenario: scenario.to_vec(),
            routes: descr,
            minimal: w.minimal,
        },
        queues,
    )
}

pub(super) fn edge_route(
    cx: &Ctx,
    routes: &Routes,
    a: Queue,
    b: Queue,
    cause: Option<Cause>,
) -> String {
    let f = cx.fabric;
    let sw = |s: u32| f.switch(SwitchId(s)).name.clone();
    let head = format!(
        "`{}`<-`{}` (p{}) -> `{}`<-`{}` (p{})",
        sw(a.switch),
        sw(a.from),
        a.priority,
        sw(b.switch),
        sw(b.from),
        b.priority
    );
    match cause {
        Some(Cause::Path(i)) => {
            let p = &f.routing.paths[i as usize];
            let text: Vec<&str> = p.hops.iter().map(|&d| f.device_name(d)).collect();
            format!("{head}: path statement {}", text.join(" -> "))
        }
        Some(Cause::Route(d)) => {
            let dest = &routes.dests[d as usize];
            let t = routing::table(f, &routes.net, dest);
            let route = buffer_graph::route_through(&cx.qos, &routes.net, dest, &t, a, b);
            let Some(route) = route else {
                return format!("{head}: routed traffic");
            };
            let text = route_text(cx, &routes.net, dest, &route);
            let mut kinds = Vec::new();
            let sws: Vec<u32> = route
                .iter()
                .filter_map(|d| {
                    if let DeviceId::Switch(s) = d {
                        Some(s.0)
                    } else {
                        None
                    }
                })
                .collect();
            if routes.loops.iter().any(|l| l.dest == d as usize) && {
                let mut s = sws.clone();
                s.sort_unstable();
                s.windows(2).any(|w| w[0] == w[1])
            } {
                kinds.push("a loop".to_string());
            }
            for w in route.windows(3) {
                if let (DeviceId::Switch(x), DeviceId::Switch(y)) = (w[1], w[2])
                    && routes.net.is_bounce(w[0], x.0, y.0)
                {
                    kinds.push(format!("a bounce at `{}`", f.switch(x).name));
                }
            }
            let static_hop = sws
                .iter()
                .any(|&s| dest.routes.iter().any(|&r| f.routing.routes[r].at.0 == s));
            if static_hop {
                kinds.push("static routes".into());
            }
            let kind = if kinds.is_empty() {
                "a route".to_string()
            } else {
                kinds.join(", ")
            };
            format!("{head}: route {text} ({kind})")
        }
        None => head,
    }
}

/// A route as device names; a host with several NICs is named by the NIC at the route's
/// first (source) or last (destination) switch.
pub(super) fn route_text(cx: &Ctx, net: &Net, dest: &routing::Dest, route: &[DeviceId]) -> String {
    let f = cx.fabric;
    let nic = |h: crate::model::HostId, next: Option<&DeviceId>, within: Option<&[u32]>| {
        let Some(DeviceId::Switch(s)) = next else {
            return f.device_name(DeviceId::Host(h)).to_string();
        };
        cx.ends
            .of_host(h.0)
            .filter(|u| within.is_none_or(|w| w.binary_search(u).is_ok()))
            .find(|&u| net.unit_attach[u as usize].binary_search(&s.0).is_ok())
            .map_or_else(
                || f.device_name(DeviceId::Host(h)).to_string(),
                |u| cx.unit_label(u),
            )
    };
    let last = route.len().saturating_sub(1);
    route
        .iter()
        .enumerate()
        .map(|(i, &d)| match d {
            DeviceId::Host(h) if i == 0 => nic(h, route.get(1), None),
            DeviceId::Host(h) if i == last && i > 0 => {
                nic(h, route.get(i - 1), Some(dest.units.as_slice()))
            }
            _ => f.device_name(d).to_string(),
        })
        .collect::<Vec<_>>()
        .join(" -> ")
}

/// Where a cycle finding points: a `path` it uses, else a static route at one of its
/// switches, else the first `fail` (when the cycle bounces), else the `routing` statement.
pub(super) fn primary_span(
    cx: &Ctx,
    g: &BufferDependencyGraph,
    comp: &[petgraph::graph::NodeIndex],
    _scenario: &[String],
) -> Span {
    let f = cx.fabric;
    let inside: BTreeSet<_> = comp.iter().copied().collect();
    let mut path_idx: Option<u32> = None;
    let mut switches = BTreeSet::new();
    for &n in comp {
        switches.insert(g.graph[n].switch);
        for e in g.graph.edges(n) {
            use petgraph::visit::EdgeRef;
            if inside.contains(&e.target())
                && let Cause::Path(i) = e.weight()
            {
                path_idx = Some(path_idx.map_or(*i, |p| p.min(*i)));
            }
        }
    }
    if let Some(i) = path_idx {
        return f.routing.paths[i as usize].span;
    }
    if let Some(r) = f.routing.routes.iter().find(|r| switches.contains(&r.at.0)) {
        return r.span;
    }
    if let Some(x) = f.routing.fails.first() {
        return x.span;
    }
    if let Some(r) = f.routing.rewrites.first() {
        return r.span;
    }
    if let Some(b) = &f.routing.bounce_tagging {
        return b.span;
    }
    f.routing.model.span
}

pub(super) fn cycle_diagnostic(
    cx: &Ctx,
    routes: &Routes,
    _g: &BufferDependencyGraph,
    cycle: &(Cycle, Vec<Queue>),
    span: Span,
) -> Diagnostic {
    let f = cx.fabric;
    let (c, queues) = cycle;
    let mut chain: Vec<String> = c.hops.iter().map(|h| format!("`{}`", h.switch)).collect();
    chain.push(format!("`{}`", c.hops[0].switch));
    let prios: BTreeSet<u8> = c.hops.iter().map(|h| h.priority).collect();
    let prio_text = prios
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let when = if c.scenario.is_empty() {
        String::new()
    } else {
        format!(
            " when {} fail(s)",
            c.scenario
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut d = Diagnostic::new(
        Code::CyclicBufferDependency,
        span,
        format!(
            "deadlock possible (cyclic buffer dependency): {} on priority {prio_text}{when}",
            chain.join(" -> ")
        ),
    )
    .label(if c.scenario.is_empty() {
        "the routing that creates the cycle"
    } else {
        "failure scenarios checked here"
    });
    d.cycle = Some(c.hops.clone());
    // The chain of ports, as an engineer would trace it on the racks.
    let ports: Vec<String> = queues
        .iter()
        .map(|q| {
            let port = port_facing(f, q.switch, q.from).unwrap_or_default();
            format!(
                "{port} (from `{}`, p{})",
                f.switch(SwitchId(q.from)).name,
                q.priority
            )
        })
        .collect();
    d = d.note(format!(
        "cycle of ingress queues: {} -> back to the first",
        ports.join(" -> ")
    ));
    if !c.minimal {
        d = d.note("the component is large: this is a short cycle, not proven the shortest");
    }
    for r in &c.routes {
        d = d.note(format!("edge {r}"));
    }
    d.help(remedy(cx, routes, queues))
}

/// `L3.port2`: the lowest-numbered port of `s` linked to `from`.
pub(super) fn port_facing(f: &Fabric, s: u32, from: u32) -> Option<String> {
    let me = DeviceId::Switch(SwitchId(s));
    f.device_links(me)
        .into_iter()
        .filter(|&(_, l)| f.peer(l, me).device == DeviceId::Switch(SwitchId(from)))
        .map(|(e, _)| e)
        .min()
        .map(|e| f.endpoint_name(e))
}

pub(super) fn remedy(cx: &Ctx, routes: &Routes, queues: &[Queue]) -> String {
    let f = cx.fabric;
    let net = &routes.net;
    let sw = |s: u32| f.switch(SwitchId(s)).name.clone();
    let mut parts = Vec::new();
    // The turn that breaks up-down routing: came down into `a.switch`, leaves upward.
    let bounce = (0..queues.len()).find_map(|i| {
        let (a, b) = (queues[i], queues[(i + 1) % queues.len()]);
        net.is_bounce(DeviceId::Switch(SwitchId(a.from)), a.switch, b.switch)
            .then_some((a, b))
    });
    let p = queues[0].priority;
    let class = f
        .classes
        .iter()
        .enumerate()
        .find(|(i, c)| {
            c.lossless.value
                && f.switch_class(SwitchId(queues[0].switch), crate::model::ClassId(*i as u32))
                    .priority
                    .value
                    == p
        })
        .map(|(_, c)| c.name.clone())
        .unwrap_or_else(|| "CLASS".into());
    let used: BTreeSet<u8> = f.classes.iter().map(|c| c.priority.value).collect();
    let free = (p + 1..8)
        .chain(0..p)
        .find(|q| !used.contains(q))
        .unwrap_or(p.saturating_add(1));
    if let Some((a, b)) = bounce {
        parts.push(format!(
            "the cycle bounces at `{}`: traffic comes down from `{}` and goes back up to `{}`",
            sw(a.switch),
            sw(a.from),
            sw(b.switch)
        ));
        parts.push("keep routing valley-free (`routing updown`; with BGP, tier-shared ASNs as in RFC 7938 turn a failure into unreachability instead of a bounce)".into());
        let lossless_now = cx.qos.lossless_priorities(a.switch).len();
        parts.push(format!(
            "or move bounced traffic to another lossless priority with `bounce-tagging {p} -> {free}` (Tagger: {} lossless priorities for one bounce; make priority {free} lossless)",
            lossless_now + 1
        ));
        parts.push(format!("or make class `{class}` lossy on that hop: `switch {} {{ class {class} {{ lossless off }} }}`", sw(a.switch)));
    } else {
        if !f.routing.routes.is_empty() {
            parts.push(
                "fix the static routes so that traffic never returns to a switch it passed".into(),
            );
        }
        if !f.routing.paths.is_empty() {
            parts.push("keep lossless traffic off this `path` (for flooding: drop lossless packets whose ARP entry is incomplete), or give it a lossy class (`path class …`)".into());
        }
        parts.push("use valley-free routing (`routing updown` on a tiered fabric)".into());
        parts.push(format!(
            "or rewrite the priority once per turn that closes the cycle (`rewrite at {} from {} to {} priority {p} -> {free}`, Tagger)",
            sw(queues[0].switch),
            sw(queues[0].from),
            sw(queues[1 % queues.len()].switch)
        ));
        parts.push(format!("or make class `{class}` lossy on one hop: `switch {} {{ class {class} {{ lossless off }} }}`", sw(queues[0].switch)));
    }
    parts.join("; ")
}

/// Tagger's second condition: some order of the priorities makes every rewrite go upward
/// (no edge from a higher to a lower tag). Such an order exists iff the graph of priority
/// transitions (p -> q for every dependency edge that changes priority, plus the order
/// `bounce-tagging` lists) is acyclic; a numerically lower target is fine (SONiC remaps 3 -> 2).
/// One FAB202 per cyclic set of priorities.
pub(super) fn tagger_order(cx: &Ctx, g: &BufferDependencyGraph, diags: &mut Vec<Diagnostic>) {
    let f = cx.fabric;
    // (p, q) -> first edge (by queue order) that makes the transition.
    let mut trans: std::collections::BTreeMap<(u8, u8), (Queue, Queue)> =
        std::collections::BTreeMap::new();
    for (a, b) in g.edge_list() {
        if a.priority != b.priority {
            trans.entry((a.priority, b.priority)).or_insert((a, b));
        }
    }
    let mut pg: petgraph::graphmap::DiGraphMap<u8, ()> = petgraph::graphmap::DiGraphMap::new();
    for &(p, q) in trans.keys() {
        pg.add_edge(p, q, ());
    }
    if let Some(b) = &f.routing.bounce_tagging {
        for w in b.value.windows(2) {
            pg.add_edge(w[0], w[1], ());
        }
    }
    let mut comps: Vec<Vec<u8>> = petgraph::algo::tarjan_scc(&pg)
        .into_iter()
        .filter(|c| c.len() > 1)
        .collect();
    for c in &mut comps {
        c.sort_unstable();
    }
    comps.sort();
    let sw = |s: u32| f.switch(SwitchId(s)).name.clone();
    for c in comps {
        let inside: Vec<((u8, u8), (Queue, Queue))> = trans
            .iter()
            .filter(|((p, q), _)| c.contains(p) && c.contains(q))
            .map(|(k, v)| (*k, *v))
            .collect();
        let text: Vec<String> = inside
            .iter()
            .map(|((p, q), (a, b))| {
                format!(
                    "{p} -> {q} at `{}` (from `{}` to `{}`)",
                    sw(a.switch),
                    sw(a.from),
                    sw(b.switch)
                )
            })
            .collect();
        let rule = inside.iter().find_map(|((p, q), (a, _))| {
            f.routing
                .rewrites
                .iter()
                .find(|r| r.at.0 == a.switch && r.old == *p && r.new == *q)
        });
        let span = rule
            .map(|r| r.span)
            .or(f.routing.bounce_tagging.as_ref().map(|b| b.span))
            .unwrap_or(f.routing.model.span);
        let list = c.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
        diags.push(
            Diagnostic::new(Code::PriorityDecrease, span, format!("priorities {list} are rewritten into each other in a cycle, so no order makes every rewrite go up"))
                .label("rewrite in the cycle")
                .note(format!("transitions: {}", text.join("; ")))
                .note("Tagger's theorem needs every priority's subgraph acyclic and an order of priorities that no rewrite goes down")
                .help("rewrite in one direction only (for example always to the next `bounce-tagging` priority); past the last lossless priority, make the traffic lossy"),
        );
    }
}
