//! `check failures N`: the proof for every scenario of up to N more failed links (N ≤ 2), exact,
//! without redoing the whole proof per scenario. In: the routes and graph of the fabric as
//! declared. Out: the number of scenarios, the pairs each one cuts off, and the first scenario
//! (in link order) with a cyclic buffer dependency together with its graph.
//!
//! Shortcuts, each exact:
//! 1. **Parallel links.** Routing uses neighbours; a neighbour stays a next hop while one link
//!    to it survives, and the merged graph (buffer_graph.rs) does not see which link carries
//!    the traffic. So a link set only matters through the *bundles* (all links between two
//!    devices) it empties: scenarios that empty the same bundles are proven once.
//! 2. **Locality.** Removing a switch–switch adjacency `x–y` changes nothing for a destination
//!    unless some model next-hop set toward it consists only of removed adjacencies (it is
//!    "fragile"), or a static route for it goes over the removed link. Proof: if every state
//!    whose next hops lose a neighbour keeps another one, all distances stay the same (by
//!    induction on the distance: every state still has a next hop whose distance is one
//!    less, and that next hop does not use the removed link since its distance is smaller),
//!    so every next-hop set is the old one minus the removed neighbours. Destinations are then
//!    reached from the same sources, and the traffic toward them follows a subset of the old
//!    transitions: its graph edges are a subset of the old ones.
//!    Emptying a host's bundle to a switch changes that host's attachments: it is routed as a
//!    destination of its own (same table for every host of its group with the same remaining
//!    attachments — the symmetry the cache below uses); the other hosts of its group keep
//!    their table, with fewer sources, hence a subset of their edges.
//! 3. **Monotonicity.** So a scenario's graph is contained in the declared graph plus the
//!    edges of the re-routed destinations. If the declared graph is acyclic and every new
//!    edge goes forward in one of its topological orders, the union is acyclic and so is the
//!    scenario. Otherwise the scenario's graph is built in full and checked exactly.
//!
//! Under the valley-free certificate (mod.rs) no graph is built at all; only reachability is
//! re-derived, with the same locality.

use std::collections::{HashMap, HashSet};

use crate::model::{DeviceId, LinkId};

use super::super::routing::{self, Dest, Net, Routes, UP, can_deliver};
use super::Ctx;
use super::buffer_graph::{self, BufferDependencyGraph, Queue};
use super::pairs::PairSample;

#[derive(Debug, Default)]
pub struct Outcome {
    /// Scenarios proven beyond the declared fabric: every set of 1..=N more failed links.
    pub scenarios: u64,
    /// Per scenario (its links), the pairs it cuts off that the declared fabric connects.
    pub unreachable: Vec<CutPairs>,
    /// The first scenario with a cycle: its links, routes and graph.
    pub first_cycle: Option<(Vec<LinkId>, Routes, BufferDependencyGraph)>,
    /// Set (to the number of distinct scenarios) when there were more than the limit and
    /// none was proven.
    pub stopped: Option<u64>,
}

/// A scenario's failed links, the first (source, destination) host pairs it cuts off (as
/// many as the listing budget had left), and how many it cuts off in all.
pub type CutPairs = (Vec<LinkId>, Vec<(u32, u32)>, u64);

/// What a scenario removes, as bundles (indices into `bundles`).
type Key = Vec<usize>;

pub fn check(
    cx: &Ctx,
    intact: &Routes,
    graph: Option<&BufferDependencyGraph>,
    already_cyclic: bool,
    n: usize,
    max_scenarios: u64,
    keep: usize,
) -> Outcome {
    // Pairs listed over all scenarios; every pair is counted.
    let mut keep = keep;
    let mut out = Outcome::default();
    if n == 0 {
        return out;
    }
    let f = cx.fabric;
    // Bundles of the links still up.
    let bundles: Vec<Vec<LinkId>> = routing::bundles(f)
        .into_iter()
        .map(|b| {
            b.into_iter()
                .filter(|l| !cx.base_failed[l.index()])
                .collect::<Vec<_>>()
        })
        .filter(|b: &Vec<LinkId>| !b.is_empty())
        .collect();
    let alive: u64 = bundles.iter().map(|b| b.len() as u64).sum();
    out.scenarios = count(alive, n);

    // The work bound, counted before anything is allocated: one bundle at a time, and every
    // pair of single-link bundles.
    let small = bundles.iter().filter(|b| b.len() <= n).count() as u64;
    let singles = bundles.iter().filter(|b| b.len() == 1).count() as u64;
    let distinct = if n >= 2 {
        small.saturating_add(singles.saturating_mul(singles.saturating_sub(1)) / 2)
    } else {
        small
    };
    if distinct > max_scenarios {
        out.stopped = Some(distinct);
        return out;
    }

    // Distinct effective scenarios, in link order.
    let mut keys: Vec<Key> = Vec::new();
    for (i, b) in bundles.iter().enumerate() {
        if b.len() <= n {
            keys.push(vec![i]);
        }
    }
    if n >= 2 {
        let singles: Vec<usize> = (0..bundles.len())
            .filter(|&i| bundles[i].len() == 1)
            .collect();
        for (x, &i) in singles.iter().enumerate() {
            for &j in &singles[x + 1..] {
                keys.push(vec![i, j]);
            }
        }
    }

    let positions = match (graph, already_cyclic) {
        (Some(g), false) => g.topo_positions(),
        _ => None,
    };
    let check_cbd = graph.is_some() && !already_cyclic;
    let classes = routing::attach_classes(&intact.net);
    let mut cache: HashMap<(usize, Vec<u32>), Vec<bool>> = HashMap::new();
    // One scenario at a time is applied to this copy and undone afterwards: building a fresh
    // switch graph per scenario would cost O(links) each.
    let mut net = intact.net.clone();

    for key in keys {
        let links: Vec<LinkId> = key
            .iter()
            .flat_map(|&b| bundles[b].iter().copied())
            .collect();
        let mut adj_removed: HashSet<(u32, u32)> = HashSet::new();
        let mut detached: Vec<(u32, u32)> = Vec::new(); // (host, switch)
        for &b in &key {
            let l = f.link(bundles[b][0]);
            match (l.a.device, l.b.device) {
                (DeviceId::Switch(x), DeviceId::Switch(y)) => {
                    adj_removed.insert((x.0.min(y.0), x.0.max(y.0)));
                }
                (DeviceId::Switch(s), DeviceId::Host(h))
                | (DeviceId::Host(h), DeviceId::Switch(s)) => detached.push((h.0, s.0)),
                _ => {}
            }
        }
        // Destinations whose routing changes.
        let mut affected: Vec<usize> = Vec::new();
        for &(x, y) in &adj_removed {
            for fr in intact
                .fragile
                .get(&(x, y))
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                let s = fr.state / 2;
                if fr
                    .nh
                    .iter()
                    .all(|&t| adj_removed.contains(&(s.min(t), s.max(t))))
                {
                    affected.push(fr.dest as usize);
                }
            }
        }
        for (ri, r) in f.routing.routes.iter().enumerate() {
            let hit = match r.via {
                DeviceId::Switch(v) => adj_removed.contains(&(r.at.0.min(v.0), r.at.0.max(v.0))),
                DeviceId::Host(h) => detached.contains(&(h.0, r.at.0)),
            };
            if hit {
                affected.extend(
                    intact
                        .dests
                        .iter()
                        .enumerate()
                        .filter(|(_, d)| d.routes.contains(&ri))
                        .map(|(i, _)| i),
                );
            }
        }
        affected.sort_unstable();
        affected.dedup();
        if affected.is_empty() && detached.is_empty() && adj_removed.is_empty() {
            continue; // only some parallel links: the declared fabric's proof covers it
        }
        apply(&mut net, &adj_removed, &detached, true);
        let detached_hosts: Vec<u32> = {
            let mut v: Vec<u32> = detached.iter().map(|&(h, _)| h).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        // Re-routed destinations: the affected groups (without detached hosts), and each
        // detached host on its own.
        let mut rerouted: Vec<(Option<usize>, Dest)> = Vec::new();
        for &d in &affected {
            let old = &intact.dests[d];
            let hosts: Vec<u32> = old
                .hosts
                .iter()
                .copied()
                .filter(|h| detached_hosts.binary_search(h).is_err())
                .collect();
            if !hosts.is_empty() {
                rerouted.push((
                    Some(d),
                    Dest {
                        hosts,
                        attach: old.attach.clone(),
                        routes: old.routes.clone(),
                    },
                ));
            }
        }
        for &h in &detached_hosts {
            let old = &intact.dests[intact.dest_of[h as usize]];
            rerouted.push((
                None,
                Dest {
                    hosts: vec![h],
                    attach: net.attach[h as usize].clone(),
                    routes: old.routes.clone(),
                },
            ));
        }

        // Reachability.
        let mut ok_new: HashMap<usize, Vec<bool>> = HashMap::new(); // by intact dest index
        let mut ok_host: HashMap<u32, Vec<bool>> = HashMap::new();
        for (old, d) in &rerouted {
            let ok = match old {
                Some(_) => can_deliver(&net, &routing::table(f, &net, d)),
                None => {
                    // Symmetry: same group, same remaining attachments, no other change → same table.
                    let h = d.hosts[0];
                    let simple = adj_removed.is_empty() && key.len() == 1;
                    let ck = (intact.dest_of[h as usize], d.attach.clone());
                    if simple {
                        if let Some(v) = cache.get(&ck) {
                            v.clone()
                        } else {
                            let v = can_deliver(&net, &routing::table(f, &net, d));
                            cache.insert(ck, v.clone());
                            v
                        }
                    } else {
                        can_deliver(&net, &routing::table(f, &net, d))
                    }
                }
            };
            match old {
                Some(i) => {
                    ok_new.insert(*i, ok);
                }
                None => {
                    ok_host.insert(d.hosts[0], ok);
                }
            }
        }
        // One pair at least, for the finding's example, when the listing budget is spent.
        let mut cut = PairSample::new(keep.max(1));
        let live = |h: u32| !cx.isolated.get(h as usize).copied().unwrap_or(false);
        let reaches = |attach: &[u32], ok: &[bool]| attach.iter().any(|&s| ok[s as usize * 2 + UP]);
        // Sources that did not change, toward re-routed destinations.
        for (old, d) in &rerouted {
            let ok_now = match old {
                Some(i) => &ok_new[i],
                None => &ok_host[&d.hosts[0]],
            };
            let ok_before = &intact.ok[old.unwrap_or_else(|| intact.dest_of[d.hosts[0] as usize])];
            for (attach, hosts) in &classes {
                if reaches(attach, ok_now) || !reaches(attach, ok_before) {
                    continue;
                }
                for &src in hosts {
                    if detached_hosts.binary_search(&src).is_ok() {
                        continue;
                    }
                    for &dst in &d.hosts {
                        if src != dst && live(src) && live(dst) {
                            cut.push((src, dst));
                        }
                    }
                }
            }
        }
        // Detached hosts as sources, toward every destination: per group, then the detached
        // destinations (re-routed on their own) one by one.
        for &h in &detached_hosts {
            let before = intact.net.attach[h as usize].as_slice();
            let now = net.attach[h as usize].as_slice();
            for (i, d) in intact.dests.iter().enumerate() {
                let ok_before = &intact.ok[i];
                let ok_now = ok_new.get(&i).unwrap_or(ok_before);
                if !reaches(now, ok_now) && reaches(before, ok_before) {
                    for &dst in &d.hosts {
                        if dst != h && !ok_host.contains_key(&dst) && live(h) && live(dst) {
                            cut.push((h, dst));
                        }
                    }
                }
            }
            for (&dst, ok_now) in &ok_host {
                let ok_before = &intact.ok[intact.dest_of[dst as usize]];
                if dst != h
                    && live(h)
                    && live(dst)
                    && !reaches(now, ok_now)
                    && reaches(before, ok_before)
                {
                    cut.push((h, dst));
                }
            }
        }
        let (pairs, total) = cut.finish();
        if total > 0 {
            keep = keep.saturating_sub(pairs.len());
            out.unreachable.push((links.clone(), pairs, total));
        }

        // Cycles.
        if !check_cbd || out.first_cycle.is_some() {
            apply(&mut net, &adj_removed, &detached, false);
            continue;
        }
        let mut forward = positions.is_some();
        if let Some(pos) = &positions {
            'dests: for (_, d) in &rerouted {
                let t = routing::table(f, &net, d);
                let mut bad = false;
                buffer_graph::dest_edges(&cx.qos, &net, d, &t, |a: Queue, b: Queue| {
                    match (pos.get(&a), pos.get(&b)) {
                        (Some(x), Some(y)) if x < y => {}
                        _ => bad = true,
                    }
                });
                if bad {
                    forward = false;
                    break 'dests;
                }
            }
        }
        if forward {
            apply(&mut net, &adj_removed, &detached, false);
            continue;
        }
        // Exact: the scenario's whole graph.
        let mut g = BufferDependencyGraph::default();
        let r = cx.routes(net.clone(), 0, Some(&mut g));
        apply(&mut net, &adj_removed, &detached, false);
        if !g.cyclic_components().is_empty() {
            out.first_cycle = Some((links, r, g));
        }
    }
    out.unreachable.sort();
    out
}

/// Removes (`remove`) or puts back the scenario's adjacencies and attachments.
fn apply(net: &mut Net, adj: &HashSet<(u32, u32)>, detached: &[(u32, u32)], remove: bool) {
    fn edit(v: &mut Vec<u32>, x: u32, remove: bool) {
        match (v.binary_search(&x), remove) {
            (Ok(i), true) => {
                v.remove(i);
            }
            (Err(i), false) => v.insert(i, x),
            _ => {}
        }
    }
    for &(x, y) in adj {
        edit(&mut net.adj[x as usize], y, remove);
        edit(&mut net.adj[y as usize], x, remove);
    }
    for &(h, s) in detached {
        edit(&mut net.attach[h as usize], s, remove);
        edit(&mut net.hosts_at[s as usize], h, remove);
    }
}

/// Every scenario proven flow by flow is what the property tests compare against; this is the
/// number of link sets of size 1..=n out of `links` (for the facts).
pub fn count(links: u64, n: usize) -> u64 {
    let mut total = 0u64;
    let mut c = 1u64;
    for k in 1..=n as u64 {
        c = c.saturating_mul(links.saturating_sub(k - 1)) / k;
        total = total.saturating_add(c);
    }
    total
}
