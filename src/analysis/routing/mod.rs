//! Routing as the deadlock proof sees it: a `Fabric` and a failure scenario in; per destination
//! group, the next-hop sets every switch uses toward it out (`Table`), plus reachability,
//! static-route loops (FAB702) and unreachable host pairs (FAB701).
//!
//! Everything is computed per *destination group* — hosts attached to the same set of switches
//! and matched by the same static routes get identical next hops — never per host pair. The
//! switch graph merges parallel links: routing picks neighbours (ECMP over every link to a
//! neighbour), so a neighbour stays a next hop while one of its links survives.

pub mod shortest;
pub mod static_routes;
pub mod updown;

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use crate::model::{DeviceId, Fabric, LinkId, RouteTarget, RoutingModel};

/// Arrival phase at a switch. Under `updown` the next hops depend on whether traffic came
/// from below (it may still climb) or from above (it may only descend); the other models use
/// `Up` only.
pub const UP: usize = 0;
pub const DOWN: usize = 1;

/// The switch-level fabric of one failure scenario.
#[derive(Debug, Clone)]
pub struct Net {
    pub model: RoutingModel,
    /// Per switch, `None` when the switch has no tier.
    pub tier: Vec<Option<u8>>,
    /// Per switch: neighbouring switches with at least one surviving link, sorted.
    pub adj: Vec<Vec<u32>>,
    /// Per host: switches it has a surviving link to, sorted.
    pub attach: Vec<Vec<u32>>,
    /// Per switch: hosts with a surviving link to it, sorted.
    pub hosts_at: Vec<Vec<u32>>,
}

impl Net {
    /// The fabric without the links for which `removed` says true.
    pub fn build(fabric: &Fabric, removed: &dyn Fn(LinkId) -> bool) -> Net {
        let n = fabric.switches.len();
        let mut adj = vec![Vec::new(); n];
        let mut attach = vec![Vec::new(); fabric.hosts.len()];
        let mut hosts_at = vec![Vec::new(); n];
        for (i, l) in fabric.links.iter().enumerate() {
            if removed(LinkId(i as u32)) {
                continue;
            }
            match (l.a.device, l.b.device) {
                (DeviceId::Switch(a), DeviceId::Switch(b)) if a != b => {
                    adj[a.index()].push(b.0);
                    adj[b.index()].push(a.0);
                }
                (DeviceId::Switch(s), DeviceId::Host(h))
                | (DeviceId::Host(h), DeviceId::Switch(s)) => {
                    attach[h.index()].push(s.0);
                    hosts_at[s.index()].push(h.0);
                }
                _ => {}
            }
        }
        for v in adj
            .iter_mut()
            .chain(attach.iter_mut())
            .chain(hosts_at.iter_mut())
        {
            v.sort_unstable();
            v.dedup();
        }
        Net {
            model: fabric.routing.model.value,
            tier: fabric
                .switches
                .iter()
                .map(|s| s.tier.map(|t| t.value))
                .collect(),
            adj,
            attach,
            hosts_at,
        }
    }

    pub fn switches(&self) -> usize {
        self.adj.len()
    }

    pub fn adjacent(&self, a: u32, b: u32) -> bool {
        self.adj[a as usize].binary_search(&b).is_ok()
    }

    /// The phase traffic is in when it arrives at `to` from switch `from`.
    pub fn phase(&self, from: u32, to: u32) -> usize {
        if self.model != RoutingModel::Updown {
            return UP;
        }
        match (self.tier[from as usize], self.tier[to as usize]) {
            (Some(a), Some(b)) if b > a => UP,
            _ => DOWN,
        }
    }

    /// Whether `from -> at -> to` comes down and goes back up (a valley, "bounce").
    pub fn is_bounce(&self, from: DeviceId, at: u32, to: u32) -> bool {
        let DeviceId::Switch(f) = from else {
            return false;
        };
        match (
            self.tier[f.index()],
            self.tier[at as usize],
            self.tier[to as usize],
        ) {
            (Some(a), Some(b), Some(c)) => a > b && c > b,
            _ => false,
        }
    }
}

/// Hosts that routing treats alike: the same attachment switches and the same static routes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dest {
    /// Sorted host indices.
    pub hosts: Vec<u32>,
    /// Sorted switches the hosts are attached to in this scenario.
    pub attach: Vec<u32>,
    /// Static routes (indices into `Routing::routes`) that target these hosts.
    pub routes: Vec<usize>,
}

/// Groups the hosts of `net` into destinations, in a deterministic order (by first host).
pub fn destinations(fabric: &Fabric, net: &Net, intact_attach: &[Vec<u32>]) -> Vec<Dest> {
    let mut by_key: BTreeMap<(Vec<u32>, Vec<usize>), Vec<u32>> = BTreeMap::new();
    for (h, (attach, intact)) in net.attach.iter().zip(intact_attach).enumerate() {
        let routes = static_routes::matching(fabric, h as u32, intact);
        by_key
            .entry((attach.clone(), routes))
            .or_default()
            .push(h as u32);
    }
    let mut out: Vec<Dest> = by_key
        .into_iter()
        .map(|((attach, routes), hosts)| Dest {
            hosts,
            attach,
            routes,
        })
        .collect();
    out.sort_by_key(|d| d.hosts[0]);
    out
}

/// What a switch does with traffic for one destination, in one arrival phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hop {
    /// No route: the traffic is dropped here.
    Drop,
    /// A destination host is attached here.
    Deliver,
    /// ECMP over these neighbouring switches (sorted, non-empty).
    Via(Vec<u32>),
}

/// Next hops toward one destination: `hops[switch * 2 + phase]`, and which of them a static
/// route set (for provenance and for the loop search).
#[derive(Debug, Clone)]
pub struct Table {
    pub hops: Vec<Hop>,
    pub is_static: Vec<bool>,
    /// Whether any next hop came from a static route.
    pub any_static: bool,
}

impl Table {
    pub fn hop(&self, s: u32, phase: usize) -> &Hop {
        &self.hops[s as usize * 2 + phase]
    }
}

/// The next-hop table toward `dest` under the fabric's routing model and static routes.
pub fn table(fabric: &Fabric, net: &Net, dest: &Dest) -> Table {
    with_static(fabric, net, dest, model_table(net, dest))
}

/// The routing model's next hops toward `dest`, before static routes.
pub fn model_table(net: &Net, dest: &Dest) -> Vec<Hop> {
    match net.model {
        RoutingModel::Updown => updown::table(net, &dest.attach),
        RoutingModel::Shortest => shortest::table(net, &dest.attach),
        RoutingModel::None => (0..net.switches() * 2)
            .map(|i| {
                if dest.attach.binary_search(&((i / 2) as u32)).is_ok() {
                    Hop::Deliver
                } else {
                    Hop::Drop
                }
            })
            .collect(),
    }
}

/// `hops` with the static routes of `dest` applied.
pub fn with_static(fabric: &Fabric, net: &Net, dest: &Dest, mut hops: Vec<Hop>) -> Table {
    let mut is_static = vec![false; hops.len()];
    let any_static = static_routes::apply(fabric, net, dest, &mut hops, &mut is_static);
    Table {
        hops,
        is_static,
        any_static,
    }
}

/// The switches where traffic for `dest` enters the fabric, in phase `UP`: every attachment of
/// a host that has some other host of `dest` to send to.
pub fn sources(net: &Net, dest: &Dest) -> Vec<u32> {
    let mut out = Vec::new();
    for (s, hosts) in net.hosts_at.iter().enumerate() {
        let sends = match dest.hosts.as_slice() {
            [only] => hosts.iter().any(|h| h != only),
            _ => !hosts.is_empty(),
        };
        if sends {
            out.push(s as u32);
        }
    }
    out
}

/// Per switch state (`switch * 2 + phase`): whether traffic there can still be delivered.
/// Found backwards from the delivering states, so a blackhole or a loop on one ECMP branch
/// does not hide another branch that delivers.
pub fn can_deliver(net: &Net, t: &Table) -> Vec<bool> {
    let n = t.hops.len();
    let mut rev: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut ok = vec![false; n];
    let mut stack = Vec::new();
    for (i, h) in t.hops.iter().enumerate() {
        match h {
            Hop::Deliver => {
                ok[i] = true;
                stack.push(i);
            }
            Hop::Via(v) => {
                let s = (i / 2) as u32;
                for &x in v {
                    rev[x as usize * 2 + net.phase(s, x)].push(i as u32);
                }
            }
            Hop::Drop => {}
        }
    }
    while let Some(i) = stack.pop() {
        for &p in &rev[i] {
            if !ok[p as usize] {
                ok[p as usize] = true;
                stack.push(p as usize);
            }
        }
    }
    ok
}

/// A routing loop: the switches of a next-hop cycle toward one destination, starting at the
/// smallest switch.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Loop {
    pub dest: usize,
    pub switches: Vec<u32>,
}

/// Next-hop cycles reachable from the sources. Only static routes can close one: the models'
/// next hops strictly decrease a distance (`shortest`: the hop count; `updown`: the up-distance
/// while climbing, the down-distance while descending, and the turn goes from one to the
/// other with the same value minus one), so a cycle must contain a static hop.
pub fn loops(net: &Net, t: &Table, srcs: &[u32], dest_index: usize) -> Vec<Loop> {
    if !t.any_static {
        return Vec::new();
    }
    let n = t.hops.len();
    // Iterative DFS with colours over the states reachable from the sources.
    let mut colour = vec![0u8; n];
    let mut parent = vec![u32::MAX; n];
    let mut found: Vec<Loop> = Vec::new();
    for &s in srcs {
        let root = s as usize * 2 + UP;
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        colour[root] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            let next = match &t.hops[v] {
                Hop::Via(list) if *k < list.len() => {
                    let x = list[*k];
                    *k += 1;
                    Some(x as usize * 2 + net.phase((v / 2) as u32, x))
                }
                _ => None,
            };
            match next {
                Some(w) if colour[w] == 0 => {
                    colour[w] = 1;
                    parent[w] = v as u32;
                    stack.push((w, 0));
                }
                Some(w) if colour[w] == 1 => {
                    // Back edge: the cycle is w -> … -> v -> w along the DFS stack.
                    let mut cyc = vec![(v / 2) as u32];
                    let mut x = v;
                    while x != w {
                        x = parent[x] as usize;
                        cyc.push((x / 2) as u32);
                    }
                    cyc.reverse();
                    found.push(Loop {
                        dest: dest_index,
                        switches: rotate_min(cyc),
                    });
                }
                Some(_) => {}
                None => {
                    colour[v] = 2;
                    stack.pop();
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Rotates a cycle to start at its smallest element.
pub fn rotate_min<T: Ord + Clone>(mut v: Vec<T>) -> Vec<T> {
    if let Some((i, _)) = v.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)) {
        v.rotate_left(i);
    }
    v
}

/// A model next-hop set small enough that `check failures N` could empty it: state
/// `switch * 2 + phase` of destination `dest` has only the neighbours `nh`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragile {
    pub dest: u32,
    pub state: u32,
    pub nh: Vec<u32>,
}

/// One destination routed: its table, the loops and deliverability, its fragile next hops.
struct Routed {
    table: Table,
    loops: Vec<Loop>,
    ok: Vec<bool>,
    fragile: Vec<((u32, u32), Fragile)>,
}

fn route_one(fabric: &Fabric, net: &Net, d: &Dest, i: usize, fragile_limit: usize) -> Routed {
    let model = model_table(net, d);
    let mut fragile = Vec::new();
    if fragile_limit > 0 {
        for (state, h) in model.iter().enumerate() {
            if let Hop::Via(v) = h
                && v.len() <= fragile_limit
            {
                let x = (state / 2) as u32;
                for &y in v {
                    fragile.push((
                        (x.min(y), x.max(y)),
                        Fragile {
                            dest: i as u32,
                            state: state as u32,
                            nh: v.clone(),
                        },
                    ));
                }
            }
        }
    }
    let table = with_static(fabric, net, d, model);
    Routed {
        loops: loops(net, &table, &sources(net, d), i),
        ok: can_deliver(net, &table),
        table,
        fragile,
    }
}

/// Everything routing computes for one scenario. Tables are not kept (at 100,000 GPUs they
/// would take hundreds of MB): `compute` hands each to a callback, and `table` rebuilds one.
#[derive(Debug, Clone)]
pub struct Routes {
    pub net: Net,
    pub dests: Vec<Dest>,
    /// Which destination each host belongs to.
    pub dest_of: Vec<usize>,
    pub loops: Vec<Loop>,
    /// Per destination, `can_deliver` of its table.
    pub ok: Vec<Vec<bool>>,
    /// Model next-hop sets of at most `fragile_limit` neighbours, by switch pair (low, high).
    pub fragile: HashMap<(u32, u32), Vec<Fragile>>,
}

impl Routes {
    pub fn compute(
        fabric: &Fabric,
        net: Net,
        intact_attach: &[Vec<u32>],
        fragile_limit: usize,
        mut each: impl FnMut(&Net, usize, &Dest, &Table),
    ) -> Routes {
        let dests = destinations(fabric, &net, intact_attach);
        let mut dest_of = vec![0; net.attach.len()];
        for (i, d) in dests.iter().enumerate() {
            for &h in &d.hosts {
                dest_of[h as usize] = i;
            }
        }
        let mut all_loops = Vec::new();
        let mut ok = Vec::with_capacity(dests.len());
        let mut fragile: HashMap<(u32, u32), Vec<Fragile>> = HashMap::new();
        // Destinations are routed independently, so a batch is computed in parallel; `each`
        // then sees them one by one in destination order (it may build the graph), and a
        // batch's tables are dropped before the next: all of them at once would not fit.
        let batch = rayon::current_num_threads().max(1) * 8;
        for (start, chunk) in (0..dests.len())
            .step_by(batch)
            .map(|start| (start, &dests[start..(start + batch).min(dests.len())]))
        {
            let routed: Vec<Routed> = chunk
                .par_iter()
                .enumerate()
                .map(|(k, d)| route_one(fabric, &net, d, start + k, fragile_limit))
                .collect();
            for (k, r) in routed.into_iter().enumerate() {
                let i = start + k;
                for (pair, f) in r.fragile {
                    fragile.entry(pair).or_default().push(f);
                }
                all_loops.extend(r.loops);
                ok.push(r.ok);
                each(&net, i, &dests[i], &r.table);
            }
        }
        Routes {
            net,
            dests,
            dest_of,
            loops: all_loops,
            ok,
            fragile,
        }
    }

    /// Hands every ordered host pair with no route, as (source host, destination host), to
    /// `each`, once; pairs with an `isolated` host are left out. Computed per (source
    /// attachment set, destination group): hosts with the same attachments reach the same
    /// destinations, so pairs are only expanded where a group pair is unreachable.
    pub fn unreachable(&self, isolated: &[bool], mut each: impl FnMut((u32, u32))) {
        let classes = attach_classes(&self.net);
        let live = |h: u32| !isolated.get(h as usize).copied().unwrap_or(false);
        for (d, ok) in self.dests.iter().zip(&self.ok) {
            for (attach, hosts) in &classes {
                if attach.iter().any(|&s| ok[s as usize * 2 + UP]) {
                    continue;
                }
                for &src in hosts.iter().filter(|&&h| live(h)) {
                    for &dst in d.hosts.iter().filter(|&&h| live(h)) {
                        if src != dst {
                            each((src, dst));
                        }
                    }
                }
            }
        }
    }
}

/// Hosts grouped by their attachment set (sorted by the set).
pub fn attach_classes(net: &Net) -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut by_attach: BTreeMap<&[u32], Vec<u32>> = BTreeMap::new();
    for (h, a) in net.attach.iter().enumerate() {
        by_attach.entry(a.as_slice()).or_default().push(h as u32);
    }
    by_attach
        .into_iter()
        .map(|(a, h)| (a.to_vec(), h))
        .collect()
}

/// Intact attachments of every host (static routes `to SWITCH` match by these).
pub fn intact_attach(fabric: &Fabric) -> Vec<Vec<u32>> {
    Net::build(fabric, &|_| false).attach
}

/// Links grouped by the pair of devices they join (parallel links together), in link order.
pub fn bundles(fabric: &Fabric) -> Vec<Vec<LinkId>> {
    let mut map: HashMap<(DeviceId, DeviceId), usize> = HashMap::new();
    let mut out: Vec<Vec<LinkId>> = Vec::new();
    for (i, l) in fabric.links.iter().enumerate() {
        let key = if l.a.device <= l.b.device {
            (l.a.device, l.b.device)
        } else {
            (l.b.device, l.a.device)
        };
        let slot = *map.entry(key).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[slot].push(LinkId(i as u32));
    }
    out
}

/// Whether `target` of a static route covers host `h` (with its intact attachments).
pub fn route_covers(target: RouteTarget, h: u32, intact_attach: &[u32]) -> bool {
    match target {
        RouteTarget::Host(x) => x.0 == h,
        RouteTarget::Switch(s) => intact_attach.binary_search(&s.0).is_ok(),
    }
}
