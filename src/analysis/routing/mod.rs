//! Routing as the deadlock proof sees it: a `Fabric` and a failure scenario in; per destination
//! group, the next-hop sets every switch uses toward it out (`Table`), plus reachability,
//! static-route loops (FAB702) and unreachable endpoint pairs (FAB701).
//!
//! Routed traffic goes to an *endpoint*: a NIC (a RoCE NIC has its own address, and NCCL
//! connects NIC to NIC), or a bond whose NICs share one address (`Host::bonds`). It is sent
//! from every endpoint to every endpoint of another host, and delivered only at a switch the
//! destination endpoint is cabled to (docs/deadlock.md).
//!
//! Everything is computed per *destination group* — endpoints attached to the same set of
//! switches and matched by the same static routes get identical next hops — never per pair.
//! The switch graph merges parallel links: routing picks neighbours (ECMP over every link to
//! a neighbour), so a neighbour stays a next hop while one of its links survives.

pub mod net;
pub mod shortest;
pub mod static_routes;
pub mod updown;

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use crate::model::{DeviceId, Fabric, HostId, LinkId, RoutingModel};

pub use net::{DOWN, Dest, Endpoints, Hop, INF, Net, UP, route_covers};

/// Groups the endpoints of `net` into destinations, in a deterministic order (by first
/// endpoint). `intact_attach` is per endpoint.
pub fn destinations(fabric: &Fabric, net: &Net, intact_attach: &[Vec<u32>]) -> Vec<Dest> {
    // A route via a host delivers for that host's endpoints only: they are a group of their
    // own (the last key element).
    type Key = (Vec<u32>, Vec<usize>, Option<u32>);
    let mut by_key: BTreeMap<Key, Vec<u32>> = BTreeMap::new();
    for (u, (attach, intact)) in net.unit_attach.iter().zip(intact_attach).enumerate() {
        let h = net.ends.host[u];
        let routes = static_routes::matching(fabric, h, intact);
        let via_self = routes
            .iter()
            .any(|&r| fabric.routing.routes[r].via == DeviceId::Host(HostId(h)));
        by_key
            .entry((attach.clone(), routes, via_self.then_some(h)))
            .or_default()
            .push(u as u32);
    }
    let mut out: Vec<Dest> = by_key
        .into_iter()
        .map(|((attach, routes, _), units)| Dest::new(&net.ends, units, attach, routes))
        .collect();
    out.sort_by_key(|d| d.units[0]);
    out
}

/// Next hops toward one destination: `hops[switch * 2 + phase]`.
#[derive(Debug, Clone)]
pub struct Table {
    pub hops: Vec<Hop>,
    /// Whether any next hop came from a static route.
    pub any_static: bool,
}

impl Table {
    pub fn hop(&self, s: u32, phase: usize) -> &Hop {
        &self.hops[s as usize * 2 + phase]
    }
}

/// The routing model's distances toward one destination's switches: its next hops and what
/// reaches it follow from them alone (`View`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Distances {
    /// `down`, `up` per switch (updown.rs).
    Updown(Vec<u32>, Vec<u32>),
    /// Hops per switch (shortest.rs).
    Shortest(Vec<u32>),
    /// `routing none`: delivery at the attachments only (sorted).
    None(Vec<u32>),
}

impl Distances {
    /// The distances toward a destination attached at `attach` (sorted) in `net`.
    pub fn new(net: &Net, attach: &[u32]) -> Distances {
        match net.model {
            RoutingModel::Updown => {
                let (down, up) = updown::distances(net, attach);
                Distances::Updown(down, up)
            }
            RoutingModel::Shortest => Distances::Shortest(shortest::distances(net, attach)),
            RoutingModel::None => Distances::None(attach.to_vec()),
        }
    }

    /// As computed.
    pub fn view(&self) -> View<'_> {
        View {
            d: self,
            a: u32::MAX,
            b: u32::MAX,
        }
    }

    /// Seen from the twin: switches `a` and `b` swapped (`twins`).
    pub fn swapped(&self, a: u32, b: u32) -> View<'_> {
        View { d: self, a, b }
    }
}

/// Distances toward a destination, possibly those of its twin with the twins swapped.
#[derive(Debug, Clone, Copy)]
pub struct View<'d> {
    d: &'d Distances,
    a: u32,
    b: u32,
}

impl View<'_> {
    /// The model's next hops at switch `s` in `phase`.
    pub fn hop(&self, net: &Net, s: u32, phase: usize) -> Hop {
        let (a, b) = (self.a, self.b);
        let at = |v: &[u32], t: u32| v[swap(t, a, b) as usize];
        match self.d {
            Distances::Updown(down, up) => {
                updown::hop(net, s, phase, |t| at(down, t), |t| at(up, t))
            }
            Distances::Shortest(dist) => shortest::hop(net, s, |t| at(dist, t)),
            Distances::None(attach) => {
                if attach.binary_search(&swap(s, a, b)).is_ok() {
                    Hop::Deliver
                } else {
                    Hop::Drop
                }
            }
        }
    }

    /// Whether state (`s`, `phase`) has a route: `hop` is not `Drop`.
    pub fn reaches(&self, s: u32, phase: usize) -> bool {
        let i = swap(s, self.a, self.b) as usize;
        match self.d {
            Distances::Updown(down, up) => [up, down][phase][i] != INF,
            Distances::Shortest(dist) => dist[i] != INF,
            Distances::None(attach) => attach.binary_search(&(i as u32)).is_ok(),
        }
    }

    /// Every state's next hops: `[switch * 2 + phase]`.
    pub fn table(&self, net: &Net) -> Vec<Hop> {
        (0..net.switches() as u32)
            .flat_map(|s| [self.hop(net, s, UP), self.hop(net, s, DOWN)])
            .collect()
    }

    /// Every state's reachability: `[switch * 2 + phase]`.
    pub fn reach(&self, net: &Net) -> Vec<bool> {
        (0..net.switches() as u32)
            .flat_map(|s| [self.reaches(s, UP), self.reaches(s, DOWN)])
            .collect()
    }
}

/// The next-hop table toward `dest` under the fabric's routing model and static routes.
pub fn table(fabric: &Fabric, net: &Net, dest: &Dest) -> Table {
    with_static(fabric, net, dest, model_table(net, dest))
}

/// The routing model's next hops toward `dest`, before static routes.
pub fn model_table(net: &Net, dest: &Dest) -> Vec<Hop> {
    Distances::new(net, &dest.attach).view().table(net)
}

/// `can_deliver` of `table(dest)` for a destination without static routes, from the model's
/// distances alone (its next hops all deliver, see `can_deliver`).
pub fn model_reach(net: &Net, dest: &Dest) -> Vec<bool> {
    debug_assert!(dest.routes.is_empty());
    Distances::new(net, &dest.attach).view().reach(net)
}

/// Deliverability toward `dest`: `can_deliver` of its table.
pub fn deliverable(fabric: &Fabric, net: &Net, dest: &Dest) -> Vec<bool> {
    if dest.routes.is_empty() {
        model_reach(net, dest)
    } else {
        can_deliver(net, &table(fabric, net, dest))
    }
}

/// `hops` with the static routes of `dest` applied.
pub fn with_static(fabric: &Fabric, net: &Net, dest: &Dest, mut hops: Vec<Hop>) -> Table {
    let any_static = static_routes::apply(fabric, net, dest, &mut hops);
    Table { hops, any_static }
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
    // The models' next hops all lead strictly closer to a delivering switch (see `loops`), so
    // without a static hop every state that has next hops delivers.
    if !t.any_static {
        return t.hops.iter().map(|h| !matches!(h, Hop::Drop)).collect();
    }
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

/// Most adjacencies `Routes::static_uses` indexes for one destination.
const STATIC_USES_MAX: usize = 1024;

/// The key in `Routes::static_uses` of destinations re-routed on every switch-link failure.
pub const ANY_ADJACENCY: (u32, u32) = (u32::MAX, u32::MAX);

/// Per switch, the smallest switch that is its *twin*: the same tier and the same set of
/// neighbouring switches (hence not adjacent to it). Swapping two twins maps the switch graph
/// onto itself, tiers included, so the routing models' distances toward a destination at one
/// twin are those toward the other with the two swapped: one computation serves a whole class
/// (the leaves of a Clos pod). Static routes are not symmetric; destinations with any are
/// routed on their own.
pub fn twins(net: &Net) -> Vec<u32> {
    let mut first: HashMap<(Option<u8>, &[u32]), u32> = HashMap::new();
    (0..net.switches() as u32)
        .map(|s| {
            *first
                .entry((net.tier[s as usize], net.adj[s as usize].as_slice()))
                .or_insert(s)
        })
        .collect()
}

/// The transposition of switches `a` and `b`.
pub fn swap(x: u32, a: u32, b: u32) -> u32 {
    if x == a {
        b
    } else if x == b {
        a
    } else {
        x
    }
}

/// Which distance computations a scenario needs (one per twin class, one per other
/// destination), and where each destination finds its distances among them.
fn distance_plan(net: &Net, dests: &[Dest]) -> (Vec<(Option<u32>, usize)>, Vec<DistRef>) {
    // Destinations attached at one switch, without static routes, share the distances of
    // their twin class (computed toward its first switch, then seen with the two swapped).
    let rep = twins(net);
    let shared = |d: &Dest| match d.attach.as_slice() {
        [s] if d.routes.is_empty() && net.model != RoutingModel::None => Some(rep[*s as usize]),
        _ => None,
    };
    let mut slot: BTreeMap<Option<u32>, Vec<usize>> = BTreeMap::new();
    let mut keys: Vec<(Option<u32>, usize)> = Vec::with_capacity(dests.len());
    for (i, d) in dests.iter().enumerate() {
        match shared(d) {
            Some(r) => keys.push((Some(r), i)),
            None => keys.push((None, i)),
        }
    }
    // One distance computation per twin class and per other destination.
    let mut wanted: Vec<(Option<u32>, usize)> = Vec::new();
    for &(r, i) in &keys {
        match r {
            Some(r) => {
                let e = slot.entry(Some(r)).or_default();
                if e.is_empty() {
                    wanted.push((Some(r), i));
                }
                e.push(i);
            }
            None => wanted.push((None, i)),
        }
    }
    let mut dist_of = vec![
        DistRef {
            index: 0,
            a: u32::MAX,
            b: u32::MAX,
        };
        dests.len()
    ];
    let mut shared_index: HashMap<u32, u32> = HashMap::new();
    for (k, &(r, i)) in wanted.iter().enumerate() {
        match r {
            Some(r) => {
                shared_index.insert(r, k as u32);
            }
            None => {
                dist_of[i].index = k as u32;
            }
        }
    }
    for (i, d) in dests.iter().enumerate() {
        if let Some(r) = shared(d) {
            let a = d.attach[0];
            dist_of[i] = if a == r {
                DistRef {
                    index: shared_index[&r],
                    a: u32::MAX,
                    b: u32::MAX,
                }
            } else {
                DistRef {
                    index: shared_index[&r],
                    a,
                    b: r,
                }
            };
        }
    }
    (wanted, dist_of)
}

/// What routing every destination gives: its loops, whether it is reachable, the static
/// routes it uses and, per fragile (switch, next hop) pair, the destinations it can cut off.
struct RoutedAll {
    loops: Vec<Loop>,
    ok: Vec<Vec<bool>>,
    static_uses: HashMap<(u32, u32), Vec<u32>>,
    fragile: HashMap<(u32, u32), Vec<u32>>,
}

/// Routes every destination, a batch at a time.
fn route_all<'d>(
    fabric: &Fabric,
    net: &Net,
    dests: &[Dest],
    view: &(dyn Fn(usize) -> Option<View<'d>> + Sync),
    tables: bool,
    fragile_limit: usize,
    each: &mut impl FnMut(&Net, usize, &Dest, &Table),
) -> RoutedAll {
    let mut all_loops = Vec::new();
    let mut ok = Vec::with_capacity(dests.len());
    let mut static_uses: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    let mut fragile: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    // Destinations are routed independently, so a batch is computed in parallel; `each`
    // then sees them one by one in destination order (it may build the graph), and a
    // batch's tables are dropped before the next: all of them at once would not fit.
    let batch = rayon::current_num_threads().max(1) * 8;
    for (start, chunk) in (0..dests.len())
        .step_by(batch)
        .map(|start| (start, &dests[start..(start + batch).min(dests.len())]))
    {
        let routed: Vec<(Routed, Vec<(u32, u32)>)> = chunk
            .par_iter()
            .enumerate()
            .map(|(k, d)| {
                let own;
                let (v, fragile_pairs) = match view(start + k) {
                    Some(v) => (v, Vec::new()),
                    None => {
                        own = Distances::new(net, &d.attach);
                        let v = own.view();
                        let pairs = if fragile_limit > 0 {
                            fragile_pairs(
                                &fragile_states(net, v, fragile_limit),
                                u32::MAX,
                                u32::MAX,
                            )
                        } else {
                            Vec::new()
                        };
                        (v, pairs)
                    }
                };
                let r = route_dest(fabric, net, d, start + k, v, tables, fragile_limit > 0);
                (r, fragile_pairs)
            })
            .collect();
        for (k, (r, pairs)) in routed.into_iter().enumerate() {
            let i = start + k;
            for p in pairs {
                fragile.entry(p).or_default().push(i as u32);
            }
            for pair in r.static_uses {
                static_uses.entry(pair).or_default().push(i as u32);
            }
            all_loops.extend(r.loops);
            ok.push(r.ok);
            if let Some(t) = &r.table {
                each(net, i, &dests[i], t);
            }
        }
    }

    RoutedAll {
        loops: all_loops,
        ok,
        static_uses,
        fragile,
    }
}

/// Adds to `fragile` every destination that a kept distance computation's small next-hop
/// sets can cut off.
fn fragile_index(
    net: &Net,
    computed: &[Distances],
    dist_of: &[DistRef],
    fragile_limit: usize,
    fragile: &mut HashMap<(u32, u32), Vec<u32>>,
) {
    let states: Vec<Vec<(u32, Vec<u32>)>> = computed
        .par_iter()
        .map(|d| fragile_states(net, d.view(), fragile_limit))
        .collect();
    for (i, r) in dist_of.iter().enumerate() {
        for p in fragile_pairs(&states[r.index as usize], r.a, r.b) {
            fragile.entry(p).or_default().push(i as u32);
        }
    }
}

/// Where a destination's distances are: an index into `Routes::distances`, and the twins to
/// swap (`u32::MAX` twice when none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DistRef {
    pub index: u32,
    pub a: u32,
    pub b: u32,
}

/// Model states (`switch * 2 + phase`) whose next-hop set is small enough for `check
/// failures N` to empty it, with that set.
fn fragile_states(net: &Net, v: View, limit: usize) -> Vec<(u32, Vec<u32>)> {
    let mut out = Vec::new();
    for s in 0..net.switches() as u32 {
        // Only a switch with few neighbours can have a small set in both phases; most states
        // of a big fabric have many next hops, and a set larger than `limit` is skipped early.
        for phase in [UP, DOWN] {
            if net.model != RoutingModel::Updown && phase == DOWN {
                continue; // one phase only: `DOWN` mirrors `UP`
            }
            if let Hop::Via(nh) = v.hop(net, s, phase)
                && nh.len() <= limit
            {
                out.push((s * 2 + phase as u32, nh));
            }
        }
    }
    out
}

/// The switch pairs (low, high) of `states` (from `fragile_states`), seen with switches `a`
/// and `b` swapped, sorted and without duplicates.
fn fragile_pairs(states: &[(u32, Vec<u32>)], a: u32, b: u32) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for (state, nh) in states {
        let x = swap(state / 2, a, b);
        for &y in nh {
            let y = swap(y, a, b);
            pairs.push((x.min(y), x.max(y)));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// One destination routed: deliverability, and (with a table) loops and static-route uses.
struct Routed {
    loops: Vec<Loop>,
    ok: Vec<bool>,
    static_uses: Vec<(u32, u32)>,
    table: Option<Table>,
}

fn route_dest(
    fabric: &Fabric,
    net: &Net,
    d: &Dest,
    i: usize,
    v: View,
    want_table: bool,
    index_static: bool,
) -> Routed {
    if !want_table && d.routes.is_empty() {
        return Routed {
            loops: Vec::new(),
            ok: v.reach(net),
            static_uses: Vec::new(),
            table: None,
        };
    }
    let table = with_static(fabric, net, d, v.table(net));
    // With static routes a branch may loop or drop: losing any neighbour the table uses can
    // then change what is delivered (failures.rs re-routes the destination).
    let mut static_uses = Vec::new();
    if index_static && table.any_static {
        for (state, h) in table.hops.iter().enumerate() {
            if let Hop::Via(nh) = h {
                let x = (state / 2) as u32;
                static_uses.extend(nh.iter().map(|&y| (x.min(y), x.max(y))));
            }
        }
        static_uses.sort_unstable();
        static_uses.dedup();
        // A large table is not indexed: the destination is then re-routed on every
        // switch-link failure (more work, the same answer), which bounds the index's memory.
        if static_uses.len() > STATIC_USES_MAX {
            static_uses = vec![ANY_ADJACENCY];
        }
    }
    Routed {
        loops: loops(net, &table, &sources(net, d), i),
        ok: can_deliver(net, &table),
        static_uses,
        table: want_table.then_some(table),
    }
}

/// Everything routing computes for one scenario. Tables are not kept (at 100,000 GPUs they
/// would take hundreds of MB): `compute` hands each to a callback, and `table` rebuilds one.
#[derive(Debug, Clone)]
pub struct Routes {
    pub net: Net,
    pub dests: Vec<Dest>,
    /// Which destination each endpoint belongs to.
    pub dest_of: Vec<usize>,
    pub loops: Vec<Loop>,
    /// Per destination, `can_deliver` of its table.
    pub ok: Vec<Vec<bool>>,
    /// The model's distances, one per twin class of destinations (only when
    /// `fragile_limit` > 0), and per destination where its are.
    pub distances: Vec<Distances>,
    pub dist_of: Vec<DistRef>,
    /// Destinations with a model next-hop set of at most `fragile_limit` neighbours at one
    /// switch of a pair (low, high) that contains the other (only when `fragile_limit` > 0):
    /// removing that adjacency may change their routing, removing any other cannot.
    pub fragile: HashMap<(u32, u32), Vec<u32>>,
    /// Destinations with static routes, by every switch pair (low, high) their table uses
    /// (only when `fragile_limit` > 0); under `ANY_ADJACENCY` those whose table is too large
    /// to index.
    pub static_uses: HashMap<(u32, u32), Vec<u32>>,
}

impl Routes {
    /// Routes every destination of `net`. `each` sees every destination's table, in order,
    /// when `tables` is set (the buffer-dependency graph is built from them); otherwise only
    /// destinations with static routes get a table, and the others' reachability comes from
    /// the model's distances alone.
    pub fn compute(
        fabric: &Fabric,
        net: Net,
        intact_attach: &[Vec<u32>],
        fragile_limit: usize,
        tables: bool,
        mut each: impl FnMut(&Net, usize, &Dest, &Table),
    ) -> Routes {
        let dests = destinations(fabric, &net, intact_attach);
        let mut dest_of = vec![0; net.ends.len()];
        for (i, d) in dests.iter().enumerate() {
            for &u in &d.units {
                dest_of[u as usize] = i;
            }
        }
        let (wanted, dist_of) = distance_plan(&net, &dests);
        // Kept for the whole scenario (and, for the fabric as declared, for every failure
        // scenario): at most about 256 MB of them (a switch's entry is at most 8 bytes). Past
        // that each destination's distances are computed in its batch and dropped with it,
        // and `model_affected` re-routes every destination the fragile index lists.
        let keep = wanted.len() <= ((256usize << 20) / (net.switches().max(1) * 8)).max(1);
        let computed: Vec<Distances> = if keep {
            wanted
                .par_iter()
                .map(|&(r, i)| match r {
                    Some(r) => Distances::new(&net, &[r]),
                    None => Distances::new(&net, &dests[i].attach),
                })
                .collect()
        } else {
            Vec::new()
        };
        let view = |i: usize| {
            let r = dist_of[i];
            computed.get(r.index as usize).map(|d| d.swapped(r.a, r.b))
        };

        let mut routed = route_all(
            fabric,
            &net,
            &dests,
            &view,
            tables,
            fragile_limit,
            &mut each,
        );
        // The fragile index: per distance computation its small next-hop sets, seen from
        // every destination that uses it.
        let mut distances = Vec::new();
        if fragile_limit > 0 && keep {
            fragile_index(
                &net,
                &computed,
                &dist_of,
                fragile_limit,
                &mut routed.fragile,
            );
            distances = computed;
        }
        Routes {
            net,
            dests,
            dest_of,
            loops: routed.loops,
            ok: routed.ok,
            distances,
            dist_of,
            fragile: routed.fragile,
            static_uses: routed.static_uses,
        }
    }

    /// The model distances toward destination `i`, when they were kept (`fragile_limit` > 0
    /// and within the memory bound of `compute`).
    pub fn view(&self, i: usize) -> Option<View<'_>> {
        let r = self.dist_of[i];
        self.distances
            .get(r.index as usize)
            .map(|d| d.swapped(r.a, r.b))
    }

    /// Destinations whose model next hops change when the switch pairs `removed` (low, high)
    /// lose their last link: some next-hop set at one of their switches has only removed
    /// neighbours left out. (Locality: every other destination keeps its distances, and its
    /// next hops lose only the removed neighbours; failures.rs.)
    pub fn model_affected(&self, removed: &[(u32, u32)]) -> Vec<usize> {
        let gone = |x: u32, y: u32| removed.contains(&(x.min(y), x.max(y)));
        let mut out: Vec<usize> = Vec::new();
        for &(x, y) in removed {
            for &d in self.fragile.get(&(x, y)).map(Vec::as_slice).unwrap_or(&[]) {
                // Without its distances kept, the destination is re-routed (exact, slower).
                let Some(v) = self.view(d as usize) else {
                    out.push(d as usize);
                    continue;
                };
                let emptied = [x, y].into_iter().any(|s| {
                    [UP, DOWN]
                        .into_iter()
                        .any(|phase| match v.hop(&self.net, s, phase) {
                            Hop::Via(nh) => nh.iter().all(|&t| gone(s, t)),
                            _ => false,
                        })
                });
                if emptied {
                    out.push(d as usize);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Counts (and keeps, within `sample`'s budget) every ordered endpoint pair with no
    /// route: (source endpoint, destination endpoint) of different hosts, neither `isolated`.
    /// Computed per (source attachment set, destination group): endpoints with the same
    /// attachments reach the same destinations, so pairs are never expanded one by one.
    pub fn unreachable(
        &self,
        isolated: &[bool],
        sample: &mut crate::analysis::deadlock::pairs::PairSample,
    ) {
        let classes = attach_classes(&self.net, isolated);
        let ends = &self.net.ends;
        for (d, ok) in self.dests.iter().zip(&self.ok) {
            let dst: Vec<u32> = d
                .units
                .iter()
                .copied()
                .filter(|&u| !isolated.get(u as usize).copied().unwrap_or(false))
                .collect();
            for (attach, units) in &classes {
                if attach.iter().any(|&s| ok[s as usize * 2 + UP]) {
                    continue;
                }
                // An endpoint has no route to a plane it is not in, by design. Endpoints of
                // one attachment set usually share their planes, but explicit links with a
                // host's `plane` list need not: split the set by planes.
                let mut by_planes: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
                for &u in units {
                    by_planes.entry(ends.planes_of(u)).or_default().push(u);
                }
                for (planes, src) in by_planes {
                    if planes == 0 {
                        sample.push_product(&src, &dst, |u| ends.of_host(ends.host[u as usize]));
                        continue;
                    }
                    let same: Vec<u32> = dst
                        .iter()
                        .copied()
                        .filter(|&v| ends.share_a_plane(src[0], v))
                        .collect();
                    sample.push_product(&src, &same, |u| ends.of_host(ends.host[u as usize]));
                }
            }
        }
    }
}

/// Endpoints that are not `isolated`, grouped by their attachment set (sorted by the set).
pub fn attach_classes(net: &Net, isolated: &[bool]) -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut by_attach: BTreeMap<&[u32], Vec<u32>> = BTreeMap::new();
    for (u, a) in net.unit_attach.iter().enumerate() {
        if !isolated.get(u).copied().unwrap_or(false) {
            by_attach.entry(a.as_slice()).or_default().push(u as u32);
        }
    }
    by_attach
        .into_iter()
        .map(|(a, h)| (a.to_vec(), h))
        .collect()
}

/// Intact attachments of every endpoint (static routes `to SWITCH` match by these).
pub fn intact_attach(net: &Net) -> Vec<Vec<u32>> {
    net.unit_attach.clone()
}

/// Links grouped by what they join: two switches (parallel links together), or an endpoint
/// and a switch (a bond's links to one switch together; every other host link alone, since
/// each NIC is an endpoint of its own). In link order.
pub fn bundles(fabric: &Fabric, ends: &Endpoints) -> Vec<Vec<LinkId>> {
    #[derive(PartialEq, Eq, Hash)]
    enum Key {
        Switches(DeviceId, DeviceId),
        Endpoint(u32, DeviceId),
        Link(u32),
    }
    let mut map: HashMap<Key, usize> = HashMap::new();
    let mut out: Vec<Vec<LinkId>> = Vec::new();
    for (i, l) in fabric.links.iter().enumerate() {
        let (a, b) = if l.a.device <= l.b.device {
            (l.a, l.b)
        } else {
            (l.b, l.a)
        };
        let key = match (a.device, b.device) {
            (DeviceId::Switch(_), DeviceId::Host(h)) | (DeviceId::Host(h), DeviceId::Switch(_)) => {
                let (nic, sw) = if a.device == DeviceId::Host(h) {
                    (a, b)
                } else {
                    (b, a)
                };
                match ends.unit(h.0, nic.port) {
                    Some(u) => Key::Endpoint(u, sw.device),
                    None => Key::Link(i as u32),
                }
            }
            _ => Key::Switches(a.device, b.device),
        };
        let slot = *map.entry(key).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[slot].push(LinkId(i as u32));
    }
    out
}

#[cfg(test)]
/// The `updown` model through [`Distances`]: climbs, descends, and the twin view.
mod updown_tests {
    use super::{DOWN, Distances, Hop, Net, UP};
    use crate::model::RoutingModel;

    /// Leaves 0, 1 (tier 1), spines 2, 3 (tier 2); destination behind leaf 1.
    fn clos() -> Net {
        Net {
            model: RoutingModel::Updown,
            tier: vec![Some(1), Some(1), Some(2), Some(2)],
            adj: vec![vec![2, 3], vec![2, 3], vec![0, 1], vec![0, 1]],
            attach: vec![vec![1]],
            hosts_at: vec![vec![], vec![0], vec![], vec![]],
            ends: Default::default(),
            unit_attach: vec![vec![1]],
            units_at: vec![vec![], vec![0], vec![], vec![]],
        }
    }

    fn table(net: &Net) -> Vec<Hop> {
        let d = Distances::new(net, &[1]);
        d.view().table(net)
    }

    #[test]
    fn climbs_then_descends_over_every_spine() {
        let net = clos();
        let t = table(&net);
        assert_eq!(t[UP], Hop::Via(vec![2, 3]));
        // A leaf reached from above may not climb again: no valley.
        assert_eq!(t[DOWN], Hop::Drop);
        assert_eq!(t[4 + UP], Hop::Via(vec![1]));
        assert_eq!(t[2 + DOWN], Hop::Deliver);
    }

    #[test]
    fn a_lost_downlink_means_unreachable_not_a_bounce() {
        let mut net = clos();
        net.adj = vec![vec![2, 3], vec![3], vec![0], vec![0, 1]];
        let t = table(&net);
        // Spine 2 lost leaf 1: descending via leaf 0 and climbing to spine 3 would be a valley.
        assert_eq!(t[4 + DOWN], Hop::Drop);
        assert_eq!(t[UP], Hop::Via(vec![3]));
    }

    /// Leaves 0 and 1 are twins: the distances toward leaf 0, seen with the two swapped, are
    /// those toward leaf 1.
    #[test]
    fn a_twin_view_is_the_twin_destination() {
        let net = clos();
        let at0 = Distances::new(&net, &[0]);
        let at1 = Distances::new(&net, &[1]);
        assert_eq!(at0.swapped(0, 1).table(&net), at1.view().table(&net));
        assert_eq!(at0.swapped(0, 1).reach(&net), at1.view().reach(&net));
    }
}
