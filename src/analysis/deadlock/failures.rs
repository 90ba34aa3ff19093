//! `check failures N`: the proof for every scenario of up to N more failed links (N ≤ 2), exact,
//! without redoing the whole proof per scenario. In: the routes and graph of the fabric as
//! declared. Out: the number of scenarios, the endpoint pairs each one cuts off, and the first
//! scenario (in link order) with a cyclic buffer dependency together with its graph.
//!
//! Shortcuts, each exact:
//! 1. **Parallel links.** Routing uses neighbours; a neighbour stays a next hop while one link
//!    to it survives, and the merged graph (buffer_graph.rs) does not see which link carries
//!    the traffic. So a link set only matters through the *bundles* it empties (all links
//!    between two switches; the links of one endpoint to a switch — one per NIC, several for
//!    a bond): scenarios that empty the same bundles are proven once.
//! 2. **Locality.** Removing a switch–switch adjacency `x–y` changes nothing for a destination
//!    unless some model next-hop set toward it consists only of removed adjacencies (it is
//!    "fragile"), or a static route for it goes over the removed link. Proof: if every state
//!    whose next hops lose a neighbour keeps another one, all distances stay the same (by
//!    induction on the distance: every state still has a next hop whose distance is one
//!    less, and that next hop does not use the removed link since its distance is smaller),
//!    so every next-hop set is the old one minus the removed neighbours. Destinations are then
//!    reached from the same sources, and the traffic toward them follows a subset of the old
//!    transitions: its graph edges are a subset of the old ones.
//!    What is delivered stays the same only without static routes, where every next hop
//!    leads to delivery: with them, a switch may keep a next hop whose branch loops or drops
//!    (issue 22). So a destination with static routes is also re-routed whenever its table
//!    uses a removed adjacency (`Routes::static_uses`).
//!    Emptying an endpoint's bundle to a switch changes that endpoint's attachments: it is
//!    routed as a destination of its own (same table for every endpoint of its group with the
//!    same remaining attachments — the symmetry the cache below uses; none at all when its
//!    last link is gone); the other endpoints of its group keep their table, with fewer
//!    sources, hence a subset of their edges.
//! 3. **Monotonicity.** So a scenario's graph is contained in the declared graph plus the
//!    edges of the re-routed destinations. If the declared graph is acyclic and every new
//!    edge goes forward in one of its topological orders, the union is acyclic and so is the
//!    scenario. Otherwise the scenario's graph is built in full and checked exactly.
//! 4. **Twins.** Swapping two twin switches (`routing::twins`: same tier, same neighbours)
//!    maps the declared fabric onto itself; a destination at one twin in a scenario is routed
//!    as the destination at the other in the swapped scenario. Deliverability of re-routed
//!    destinations is cached under the scenario mapped onto the twin class's first switch.
//! 5. **Counting.** Pairs come in products (a source class times a destination group) and
//!    are counted without being expanded (pairs.rs); a scenario that only cuts endpoints off
//!    entirely, once nothing more is listed, is counted from per-class totals (`Counts`).
//!
//! Under the valley-free certificate (mod.rs) no graph is built at all; only reachability is
//! re-derived, with the same locality, from the models' distances alone.

use std::collections::{HashMap, HashSet};

use crate::model::{DeviceId, LinkId};

use super::super::routing::{self, Dest, Net, Routes, UP};
use super::Ctx;
use super::buffer_graph::{self, BufferDependencyGraph, Queue};
use super::pairs::PairSample;
use crate::model::RoutingModel;

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

/// A scenario's failed links, the first (source, destination) endpoint pairs it cuts off (as
/// many as the listing budget had left), and how many it cuts off in all.
pub type CutPairs = (Vec<LinkId>, Vec<(u32, u32)>, u64);

/// What a scenario removes, as bundles (indices into `bundles`).
type Key = Vec<usize>;

/// A twin class's first switch and a scenario's removed adjacencies mapped onto it.
type TwinKey = (u32, Vec<(u32, u32)>);

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
    let bundles: Vec<Vec<LinkId>> = routing::bundles(f, &cx.ends)
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

    // Distinct effective scenarios: every single bundle, then every pair, each in link order.
    // Fewer failures first, so the first scenario with a cycle is one of the fewest failed
    // links; findings and facts list the scenarios in this order, and the first ones (which
    // the listing always gives a pair) are reported one by one.
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
    let ends = &intact.net.ends;
    let classes = routing::attach_classes(&intact.net, &cx.isolated);
    let live = |u: u32| !cx.isolated.get(u as usize).copied().unwrap_or(false);
    let same_host = |u: u32| ends.of_host(ends.host[u as usize]);
    // Per intact destination group, its live endpoints.
    let group_live: Vec<Vec<u32>> = intact
        .dests
        .iter()
        .map(|d| d.units.iter().copied().filter(|&u| live(u)).collect())
        .collect();
    let mut cache: HashMap<(usize, Vec<u32>), Vec<bool>> = HashMap::new();
    // Twin switches (routing::twins) of the fabric as declared, and the deliverability of
    // re-routed destinations by (twin class, scenario mapped onto that class's first switch).
    let rep = routing::twins(&intact.net);
    let mut twin_cache: HashMap<TwinKey, Vec<bool>> = HashMap::new();
    let twin_cache_max = (256usize << 20) / (intact.net.switches() * 2).max(1);
    let mut counts: Option<Counts> = None;
    // `Counts` holds a flag per (source class, destination group): at most 64 M of them.
    let counts_fit = classes.len().saturating_mul(intact.dests.len()) <= 64 << 20;
    // One scenario at a time is applied to this copy and undone afterwards: building a fresh
    // switch graph per scenario would cost O(links) each.
    let mut net = intact.net.clone();

    for key in keys {
        let links: Vec<LinkId> = key
            .iter()
            .flat_map(|&b| bundles[b].iter().copied())
            .collect();
        let mut adj_removed: HashSet<(u32, u32)> = HashSet::new();
        let mut detached: Vec<(u32, u32)> = Vec::new(); // (endpoint, switch)
        for &b in &key {
            let l = f.link(bundles[b][0]);
            match (l.a.device, l.b.device) {
                (DeviceId::Switch(x), DeviceId::Switch(y)) => {
                    adj_removed.insert((x.0.min(y.0), x.0.max(y.0)));
                }
                (DeviceId::Switch(s), DeviceId::Host(h)) => {
                    if let Some(u) = ends.unit(h.0, l.b.port) {
                        detached.push((u, s.0));
                    }
                }
                (DeviceId::Host(h), DeviceId::Switch(s)) => {
                    if let Some(u) = ends.unit(h.0, l.a.port) {
                        detached.push((u, s.0));
                    }
                }
                _ => {}
            }
        }
        if detached.is_empty() && adj_removed.is_empty() {
            continue; // only some parallel links: the declared fabric's proof covers it
        }
        apply(&mut net, &adj_removed, &detached, true);
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
            if let Some(ds) = intact.static_uses.get(&(x, y)) {
                affected.extend(ds.iter().map(|&d| d as usize));
            }
        }
        if !adj_removed.is_empty()
            && let Some(ds) = intact.static_uses.get(&routing::ANY_ADJACENCY)
        {
            affected.extend(ds.iter().map(|&d| d as usize));
        }
        for (ri, r) in f.routing.routes.iter().enumerate() {
            let hit = match r.via {
                DeviceId::Switch(v) => adj_removed.contains(&(r.at.0.min(v.0), r.at.0.max(v.0))),
                // Withdrawn once no NIC of the host is cabled to the route's switch.
                DeviceId::Host(h) => {
                    let at = r.at.0;
                    intact.net.attach[h.index()].binary_search(&at).is_ok()
                        && net.attach[h.index()].binary_search(&at).is_err()
                }
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
        let detached_units: Vec<u32> = {
            let mut v: Vec<u32> = detached.iter().map(|&(u, _)| u).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let is_detached = |u: u32| detached_units.binary_search(&u).is_ok();
        // One pair at least for the first scenarios, which are reported one by one (the
        // finding's example); after them, only what the listing budget has left.
        let listing = if out.unreachable.len() < super::SCENARIO_FINDINGS {
            keep.max(1)
        } else {
            keep
        };
        // Only endpoints cut off entirely, nothing re-routed and nothing to list: count, from
        // the declared fabric's reachability alone.
        if listing == 0
            && counts_fit
            && affected.is_empty()
            && detached_units
                .iter()
                .all(|&u| net.unit_attach[u as usize].is_empty())
        {
            let c = counts.get_or_insert_with(|| Counts::new(intact, &classes, &group_live));
            let total = c.cut_off(intact, &detached_units, &live);
            if total > 0 {
                out.unreachable.push((links.clone(), Vec::new(), total));
            }
            apply(&mut net, &adj_removed, &detached, false);
            continue;
        }
        // Re-routed destinations: the affected groups (without detached endpoints), and each
        // detached endpoint on its own.
        let mut rerouted: Vec<(Option<usize>, Dest)> = Vec::new();
        for &d in &affected {
            let old = &intact.dests[d];
            let units: Vec<u32> = old
                .units
                .iter()
                .copied()
                .filter(|&u| !is_detached(u))
                .collect();
            if !units.is_empty() {
                rerouted.push((
                    Some(d),
                    Dest::new(ends, units, old.attach.clone(), old.routes.clone()),
                ));
            }
        }
        for &u in &detached_units {
            let old = &intact.dests[intact.dest_of[u as usize]];
            rerouted.push((
                None,
                Dest::new(
                    ends,
                    vec![u],
                    net.unit_attach[u as usize].clone(),
                    old.routes.clone(),
                ),
            ));
        }

        // Reachability.
        let mut ok_new: HashMap<usize, Vec<bool>> = HashMap::new(); // by intact dest index
        let mut ok_unit: HashMap<u32, Vec<bool>> = HashMap::new();
        for (old, d) in &rerouted {
            let ok = match old {
                Some(_) => match d.attach.as_slice() {
                    // Symmetry: the switch `a` and its twin `r` are swapped by an automorphism
                    // of the declared fabric; the scenario seen from `r` is the key.
                    [a] if d.routes.is_empty() && net.model != RoutingModel::None => {
                        let (a, r) = (*a, rep[*a as usize]);
                        let mut mapped: Vec<(u32, u32)> = adj_removed
                            .iter()
                            .map(|&(x, y)| {
                                let (x, y) = (routing::swap(x, a, r), routing::swap(y, a, r));
                                (x.min(y), x.max(y))
                            })
                            .collect();
                        mapped.sort_unstable();
                        let ck = (r, mapped);
                        match twin_cache.get(&ck) {
                            Some(v) => routing::swap_states(v, a, r),
                            None => {
                                let v = routing::deliverable(f, &net, d);
                                if twin_cache.len() < twin_cache_max {
                                    twin_cache.insert(ck, routing::swap_states(&v, a, r));
                                }
                                v
                            }
                        }
                    }
                    _ => routing::deliverable(f, &net, d),
                },
                // Delivery needs an attachment (the models deliver only there, and a static
                // route via a host only where the endpoint is cabled): nothing reaches it.
                None if d.attach.is_empty() => vec![false; net.switches() * 2],
                None => {
                    // Symmetry: same group, same remaining attachments, no other change → same table.
                    let u = d.units[0];
                    let simple = adj_removed.is_empty() && key.len() == 1;
                    let ck = (intact.dest_of[u as usize], d.attach.clone());
                    if simple {
                        if let Some(v) = cache.get(&ck) {
                            v.clone()
                        } else {
                            let v = routing::deliverable(f, &net, d);
                            cache.insert(ck, v.clone());
                            v
                        }
                    } else {
                        routing::deliverable(f, &net, d)
                    }
                }
            };
            match old {
                Some(i) => {
                    ok_new.insert(*i, ok);
                }
                None => {
                    ok_unit.insert(d.units[0], ok);
                }
            }
        }
        let mut cut = PairSample::new(listing);
        let reaches = |attach: &[u32], ok: &[bool]| attach.iter().any(|&s| ok[s as usize * 2 + UP]);
        // Sources that did not change, toward re-routed destinations.
        for (old, d) in &rerouted {
            let ok_now = match old {
                Some(i) => &ok_new[i],
                None => &ok_unit[&d.units[0]],
            };
            let ok_before = &intact.ok[old.unwrap_or_else(|| intact.dest_of[d.units[0] as usize])];
            let dst: Vec<u32> = d.units.iter().copied().filter(|&u| live(u)).collect();
            if dst.is_empty() {
                continue;
            }
            for (attach, units) in &classes {
                if reaches(attach, ok_now) || !reaches(attach, ok_before) {
                    continue;
                }
                if detached_units
                    .iter()
                    .any(|u| units.binary_search(u).is_ok())
                {
                    let kept: Vec<u32> =
                        units.iter().copied().filter(|&u| !is_detached(u)).collect();
                    cut.push_product(&kept, &dst, same_host);
                } else {
                    cut.push_product(units, &dst, same_host);
                }
            }
        }
        // Detached endpoints as sources, toward every destination: per group (without the
        // detached endpoints), then the detached endpoints one by one.
        for &u in detached_units.iter().filter(|&&u| live(u)) {
            let before = intact.net.unit_attach[u as usize].as_slice();
            let now = net.unit_attach[u as usize].as_slice();
            for (i, units) in group_live.iter().enumerate() {
                let ok_before = &intact.ok[i];
                let ok_now = ok_new.get(&i).unwrap_or(ok_before);
                if !reaches(now, ok_now) && reaches(before, ok_before) {
                    if detached_units
                        .iter()
                        .any(|v| units.binary_search(v).is_ok())
                    {
                        let kept: Vec<u32> =
                            units.iter().copied().filter(|&v| !is_detached(v)).collect();
                        cut.push_product(&[u], &kept, same_host);
                    } else {
                        cut.push_product(&[u], units, same_host);
                    }
                }
            }
            for &v in detached_units.iter().filter(|&&v| v != u && live(v)) {
                let ok_before = &intact.ok[intact.dest_of[v as usize]];
                if !reaches(now, &ok_unit[&v]) && reaches(before, ok_before) {
                    cut.push_product(&[u], &[v], same_host);
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
    out
}

/// Reachability of the fabric as declared, by (source class, destination group), with the
/// pair counts that make a scenario which only cuts endpoints off entirely O(1) to count.
struct Counts {
    groups: usize,
    /// `reach[c * groups + i]`: class `c` reaches group `i`.
    reach: Vec<bool>,
    /// Per live endpoint: its class.
    class_of: HashMap<u32, usize>,
    /// Per group: live source endpoints that reach it.
    reach_src: Vec<u64>,
    /// Per class: live destination endpoints it reaches.
    reach_dst: Vec<u64>,
}

impl Counts {
    fn new(intact: &Routes, classes: &[(Vec<u32>, Vec<u32>)], group_live: &[Vec<u32>]) -> Counts {
        let groups = intact.dests.len();
        let mut reach = vec![false; classes.len() * groups];
        let mut class_of = HashMap::new();
        let mut reach_src = vec![0u64; groups];
        let mut reach_dst = vec![0u64; classes.len()];
        for (c, (attach, units)) in classes.iter().enumerate() {
            for &u in units {
                class_of.insert(u, c);
            }
            for (i, ok) in intact.ok.iter().enumerate() {
                if attach.iter().any(|&s| ok[s as usize * 2 + UP]) {
                    reach[c * groups + i] = true;
                    reach_src[i] += units.len() as u64;
                    reach_dst[c] += group_live[i].len() as u64;
                }
            }
        }
        Counts {
            groups,
            reach,
            class_of,
            reach_src,
            reach_dst,
        }
    }

    fn reaches(&self, x: u32, intact: &Routes, y: u32) -> bool {
        self.class_of
            .get(&x)
            .is_some_and(|&c| self.reach[c * self.groups + intact.dest_of[y as usize]])
    }

    /// Pairs of live endpoints of different hosts, connected as declared, with an end in
    /// `gone` (sorted; every one of them without any link left).
    fn cut_off(&self, intact: &Routes, gone: &[u32], live: &dyn Fn(u32) -> bool) -> u64 {
        let ends = &intact.net.ends;
        let mut total = 0u64;
        for &v in gone.iter().filter(|&&v| live(v)) {
            let own = ends.of_host(ends.host[v as usize]);
            // As a destination: every source that reached it, less its own host's.
            total += self.reach_src[intact.dest_of[v as usize]];
            total -= own
                .clone()
                .filter(|&x| live(x) && self.reaches(x, intact, v))
                .count() as u64;
            // As a source: every destination it reached, less its own host's.
            if let Some(&c) = self.class_of.get(&v) {
                total += self.reach_dst[c];
            }
            total -= own
                .filter(|&y| live(y) && self.reaches(v, intact, y))
                .count() as u64;
        }
        // Pairs with both ends gone were counted twice.
        for &u in gone.iter().filter(|&&u| live(u)) {
            for &v in gone.iter().filter(|&&v| live(v)) {
                if ends.host[u as usize] != ends.host[v as usize] && self.reaches(u, intact, v) {
                    total -= 1;
                }
            }
        }
        total
    }
}

/// Removes (`remove`) or puts back the scenario's adjacencies and endpoint attachments (a
/// host stays attached to a switch while one of its endpoints is).
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
    for &(u, s) in detached {
        edit(&mut net.unit_attach[u as usize], s, remove);
        edit(&mut net.units_at[s as usize], u, remove);
    }
    for &(u, s) in detached {
        let h = net.ends.host[u as usize];
        let still = net
            .ends
            .of_host(h)
            .any(|v| net.unit_attach[v as usize].binary_search(&s).is_ok());
        edit(&mut net.attach[h as usize], s, !still);
        edit(&mut net.hosts_at[s as usize], h, !still);
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
