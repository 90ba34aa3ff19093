//! `check failures N`: the proof for every scenario of up to N more failed links (N ≤ 2), exact,
//! without redoing the whole proof per scenario. In: the routes and graph of the fabric as
//! declared. Out: the number of scenarios, the endpoint pairs the first cutting scenarios cut
//! off (and how many more scenarios cut how many pairs), and the first scenario (fewest
//! failures, then link order) with a cyclic buffer dependency together with its graph.
//!
//! Shortcuts, each exact:
//! 1. **Parallel links.** Routing uses neighbours; a neighbour stays a next hop while one link
//!    to it survives, and the merged graph (buffer_graph.rs) does not see which link carries
//!    the traffic. So a link set only matters through the *bundles* it empties (all links
//!    between two switches; the links of one endpoint to a switch — one per NIC, several for
//!    a bond): scenarios that empty the same bundles are proven once. Such a set of bundles
//!    is a *key*; a key is one bundle of at most N links, or two single-link bundles.
//! 2. **Symmetry.** A permutation of the switches, hosts and endpoints that maps the fabric
//!    as the proof sees it onto itself (orbits.rs, symmetry.rs) maps a key onto a key with
//!    the same outcome: as many pairs cut off, a cycle or none. So one key per orbit is
//!    proven, and its outcome counted for every member. For two failures the orbit of a pair
//!    `{e, f}` is found from the orbit of `e` and, with `e` mapped onto its orbit's first key
//!    `e0`, the orbit of `f` under the symmetries that fix `e0`. The first cutting keys are
//!    still proven one by one, in order, for their pairs; the witness is the first key in
//!    order whose orbit has a cycle, proven again for its graph.
//! 3. **Locality.** Removing a switch–switch adjacency `x–y` changes nothing for a destination
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
//!    routed as a destination of its own (none at all when its last link is gone); the other
//!    endpoints of its group keep their table, with fewer sources, hence a subset of their
//!    edges.
//! 4. **Monotonicity.** So a scenario's graph is contained in the declared graph plus the
//!    edges of the re-routed destinations. If the declared graph is acyclic and every new
//!    edge goes forward in one of its topological orders, the union is acyclic and so is the
//!    scenario. Otherwise the scenario's graph is built in full and checked exactly.
//! 5. **Cuts.** A NIC's link is a cut of one edge between that NIC and the fabric: a key that
//!    only cuts endpoints off entirely, with nothing re-routed, cuts exactly the pairs those
//!    endpoints had as declared; they are counted from per-class totals of the declared
//!    fabric's reachability (`Counts`), without routing anything. Its graph is a subgraph of
//!    the declared one (fewer sources, nothing re-routed), so it adds no cycle either.
//! 6. **Counting.** Pairs come in products (a source class times a destination group) and
//!    are counted without being expanded (pairs.rs).
//!
//! Under the valley-free certificate (mod.rs) no graph is built at all; only reachability is
//! re-derived, with the same locality, from the models' distances alone.
//!
//! `--max-scenarios` bounds the keys proven one by one: the orbits (or, without symmetry, the
//! keys), counted before any is proven.

use std::collections::HashMap;

use crate::model::{DeviceId, LinkId};

use super::super::routing::{self, Dest, Net, Routes, UP};
use super::Ctx;
use super::buffer_graph::{BufferDependencyGraph, Queue};
use super::orbits::{self, FabricGraph, KeyOrbits};
use super::pairs::PairSample;

/// How the scenarios are taken: by classes of symmetric scenarios where the fabric's
/// symmetry pays, or one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduce {
    /// Classes when the fabric's symmetry divides the work by more than 4.
    Auto,
    /// Always classes (tests: the reduction is then exercised on small fabrics too).
    /// Test support (tests/it/deadlock.rs), not the product's, as is `Keys`.
    #[cfg(feature = "internals")]
    Classes,
    /// Every key proven one by one.
    #[cfg(feature = "internals")]
    Keys,
}

#[derive(Debug, Default)]
pub struct Outcome {
    /// Scenarios proven beyond the declared fabric: every set of 1..=N more failed links.
    pub scenarios: u64,
    /// The first cutting keys in order (their links), with the pairs they cut off that the
    /// declared fabric connects (as many as the listing budget had left) and how many in all.
    pub unreachable: Vec<CutPairs>,
    /// Cutting keys after those, and the pairs they cut off in all.
    pub more: (u64, u64),
    /// Of all cutting keys (listed or in `more`), those that only unplug endpoints from the
    /// fabric (see `Proved::own`), and the pairs they cut off.
    pub own: (u64, u64),
    /// The first scenario with a cycle: its links, routes and graph.
    pub first_cycle: Option<(Vec<LinkId>, Routes, BufferDependencyGraph)>,
    /// Set (to the number of keys the proof would prove one by one) when there were more
    /// than the limit and none was proven.
    pub stopped: Option<u64>,
    /// Keys proven one by one (orbit representatives, listed keys, the witness).
    pub proven: u64,
    /// Whether the keys were taken by classes of symmetric ones.
    pub by_classes: bool,
}

/// A scenario's failed links, the first (source, destination) endpoint pairs it cuts off (as
/// many as the listing budget had left), how many it cuts off in all, and whether it only
/// unplugs endpoints (`Proved::own`).
pub type CutPairs = (Vec<LinkId>, Vec<(u32, u32)>, u64, bool);

/// What a key removes, as bundles (indices into `bundles`, ascending).
type Key = Vec<usize>;

/// Two switches (low, high) whose adjacency a key removes.
type SwitchPair = (u32, u32);

/// An endpoint and a switch it loses (endpoint, switch).
type Detached = (u32, u32);

/// Per attachment class: its switches and its live endpoints.
type AttachClasses = Vec<(Vec<u32>, Vec<u32>)>;

/// One key proven: the pairs listed, how many it cuts off, whether its graph has a cycle.
struct Proved {
    pairs: Vec<(u32, u32)>,
    total: u64,
    cyclic: bool,
    /// The scenario only unplugs endpoints (host links, each endpoint left with none): the
    /// pairs it cuts off are those endpoints' own, what a single-homed NIC losing its cable
    /// means (G1), not a path a redundant fabric should have kept.
    own: bool,
}

/// The outcome of one key, as its orbit shares it.
#[derive(Debug, Clone, Copy, Default)]
struct Value {
    total: u64,
    cyclic: bool,
    own: bool,
}

pub struct Settings {
    pub n: usize,
    pub max_work: u64,
    /// Pairs the listing may still take.
    pub keep: usize,
    pub reduce: Reduce,
    /// Whether own-cable keys (`Proved::own`) list their pairs; when not, they are only
    /// counted (in `Outcome::own` and `Outcome::more`), never proven again for a listing.
    pub list_own: bool,
}

pub fn check(
    cx: &Ctx,
    intact: &Routes,
    graph: Option<&BufferDependencyGraph>,
    already_cyclic: bool,
    settings: Settings,
) -> Outcome {
    let n = settings.n;
    let mut out = Outcome::default();
    if n == 0 {
        return out;
    }
    let bundles = live_bundles(cx);
    let alive: u64 = bundles.iter().map(|b| b.len() as u64).sum();
    out.scenarios = count(alive, n);
    let single = |b: usize| bundles[b].len() <= n;
    let singleton = |b: usize| n >= 2 && bundles[b].len() == 1;
    let singles = bundles.iter().filter(|b| b.len() <= n).count() as u64;
    let singletons = bundles.iter().filter(|b| n >= 2 && b.len() == 1).count() as u64;
    let keys = singles.saturating_add(singletons.saturating_mul(singletons.saturating_sub(1)) / 2);

    let mut prover = Prover::new(cx, intact, &bundles, graph, already_cyclic);
    prover.list_own = settings.list_own;
    let run = Run {
        settings: &settings,
        bundles: &bundles,
    };
    // Classes only pay with enough symmetry; a fabric too small to matter takes them only
    // when asked (tests).
    #[cfg(feature = "internals")]
    let one_by_one = settings.reduce == Reduce::Keys;
    #[cfg(not(feature = "internals"))]
    let one_by_one = false;
    let classes = if one_by_one {
        None
    } else {
        FabricGraph::new(cx, &bundles, n).and_then(|fg| {
            Classes::new(
                fg,
                &single,
                &singleton,
                settings.reduce == Reduce::Auto,
                keys,
            )
        })
    };
    match classes {
        Some(c) => run.by_classes(&mut prover, &c, &mut out),
        None => {
            if keys > settings.max_work {
                out.stopped = Some(keys);
                return out;
            }
            run.one_by_one(&mut prover, &single, &singleton, &mut out);
        }
    }
    out
}

/// The bundles of the links still up in the fabric as declared.
fn live_bundles(cx: &Ctx) -> Vec<Vec<LinkId>> {
    routing::bundles(cx.fabric, &cx.ends)
        .into_iter()
        .map(|b| {
            b.into_iter()
                .filter(|l| !cx.base_failed[l.index()])
                .collect::<Vec<_>>()
        })
        .filter(|b: &Vec<LinkId>| !b.is_empty())
        .collect()
}

struct Run<'r> {
    settings: &'r Settings,
    bundles: &'r [Vec<LinkId>],
}

impl Run<'_> {
    fn links(&self, key: &[usize]) -> Vec<LinkId> {
        key.iter()
            .flat_map(|&b| self.bundles[b].iter().copied())
            .collect()
    }

    /// Whether the listing still wants a cutting key: the first ones are reported one by one
    /// (and always list a pair, the finding's example), then only while pairs may be listed.
    /// Own-cable keys (`Proved::own`) are never reported one by one, so they do not count
    /// toward those first ones, and are listed only while the budget lasts.
    fn listing(out: &Outcome, keep: usize) -> Option<usize> {
        if out.unreachable.iter().filter(|u| !u.3).count() < super::SCENARIO_FINDINGS {
            Some(keep.max(1))
        } else if keep > 0 {
            Some(keep)
        } else {
            None
        }
    }

    /// Every key in order, each proven: the fallback without symmetry.
    fn one_by_one(
        &self,
        prover: &mut Prover,
        single: &dyn Fn(usize) -> bool,
        singleton: &dyn Fn(usize) -> bool,
        out: &mut Outcome,
    ) {
        let mut keep = self.settings.keep;
        let m = self.bundles.len();
        let pairs = (0..m).filter(|&i| singleton(i)).collect::<Vec<_>>();
        let keys = (0..m).filter(|&b| single(b)).map(|b| vec![b]).chain(
            pairs
                .iter()
                .enumerate()
                .flat_map(|(x, &i)| pairs[x + 1..].iter().map(move |&j| vec![i, j])),
        );
        for key in keys {
            let listing = Self::listing(out, keep);
            let want_cycle = prover.check_cbd && out.first_cycle.is_none();
            let p = prover.prove(&key, listing.unwrap_or(0), want_cycle);
            out.proven += 1;
            if p.total > 0 && p.own {
                out.own.0 += 1;
                out.own.1 = out.own.1.saturating_add(p.total);
            }
            if p.total > 0 {
                if listing.is_some() && (!p.own || (self.settings.list_own && keep > 0)) {
                    keep = keep.saturating_sub(p.pairs.len());
                    out.unreachable
                        .push((self.links(&key), p.pairs, p.total, p.own));
                } else {
                    out.more.0 += 1;
                    out.more.1 = out.more.1.saturating_add(p.total);
                }
            }
            if want_cycle && p.cyclic {
                let (r, g) = prover.graph_of(&key);
                out.first_cycle = Some((self.links(&key), r, g));
            }
        }
    }

    /// One key per orbit proven, the outcome counted for the whole orbit; then the first
    /// cutting keys and the first cyclic key found in order and proven again.
    fn by_classes(&self, prover: &mut Prover, c: &Classes, out: &mut Outcome) {
        out.by_classes = true;
        let work = c.work();
        if work > self.settings.max_work {
            out.stopped = Some(work);
            return;
        }
        let want_cycle = prover.check_cbd;
        let values = OrbitValues::prove(prover, c, want_cycle);
        out.proven = work;
        let own = values.cut_totals(c, true);
        let others = values.cut_totals(c, false);
        let (cutting, pairs_cut) = (own.0 + others.0, own.1 + others.1);
        let listed = self.list_cutting(prover, c, &values, out);
        let clamp = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
        out.more = (
            clamp(cutting.saturating_sub(listed.0)),
            clamp(pairs_cut.saturating_sub(listed.1)),
        );
        out.own = (clamp(own.0), clamp(own.1));
        if want_cycle {
            self.witness(prover, c, &values, out);
        }
    }

    /// The first cutting keys, in order, proven for their pairs; returns how many keys were
    /// listed and the pairs they cut off.
    fn list_cutting(
        &self,
        prover: &mut Prover,
        c: &Classes,
        values: &OrbitValues,
        out: &mut Outcome,
    ) -> (u128, u128) {
        let mut keep = self.settings.keep;
        let mut listed = (0u128, 0u128);
        // The keys reported one by one first, then own-cable keys while pairs may be listed.
        let cuts = |v: &Value| v.total > 0 && !v.own;
        let own = |v: &Value| v.total > 0 && v.own;
        let passes: &[bool] = if self.settings.list_own {
            &[false, true]
        } else {
            &[false]
        };
        for &own_cables in passes {
            let want: &dyn Fn(&Value) -> bool = if own_cables { &own } else { &cuts };
            for key in c.keys_where(want, &values.single, &values.pairs) {
                let listing = match (own_cables, Self::listing(out, keep)) {
                    (false, Some(l)) => l,
                    (true, _) if keep > 0 => keep,
                    _ => break,
                };
                let p = prover.prove(&key, listing, false);
                out.proven += 1;
                keep = keep.saturating_sub(p.pairs.len());
                listed.0 += 1;
                listed.1 += u128::from(p.total);
                out.unreachable
                    .push((self.links(&key), p.pairs, p.total, p.own));
            }
        }
        listed
    }

    /// The witness: the first key in order whose orbit has a cycle, proven again for its graph.
    fn witness(&self, prover: &mut Prover, c: &Classes, values: &OrbitValues, out: &mut Outcome) {
        let cyclic = |v: &Value| v.cyclic;
        if let Some(key) = c.keys_where(&cyclic, &values.single, &values.pairs).next() {
            let (r, g) = prover.graph_of(&key);
            out.proven += 1;
            out.first_cycle = Some((self.links(&key), r, g));
        }
    }
}

/// The outcome of every orbit's representative: per single orbit, and per single orbit and
/// class of its first key's partners.
struct OrbitValues {
    single: Vec<Value>,
    pairs: Vec<Vec<Value>>,
}

impl OrbitValues {
    /// Proves one representative key per orbit.
    fn prove(prover: &mut Prover, c: &Classes, want_cycle: bool) -> OrbitValues {
        let single: Vec<Value> = c
            .single
            .orbits
            .iter()
            .map(|&(rep, _)| prover.value(&[rep], want_cycle))
            .collect();
        let pairs: Vec<Vec<Value>> = c
            .pairs
            .iter()
            .enumerate()
            .map(|(o, stab)| match stab {
                None => Vec::new(),
                Some(s) => {
                    let e = c.single.orbits[o].0;
                    s.members
                        .iter()
                        .map(|m| {
                            let mut key = vec![e, m[0]];
                            key.sort_unstable();
                            prover.value(&key, want_cycle)
                        })
                        .collect()
                }
            })
            .collect();
        OrbitValues { single, pairs }
    }

    /// Cutting keys and the pairs they cut off, over every orbit: a single orbit counts its
    /// size; an ordered pair class (e's orbit, f's orbit under e's stabilizer) counts
    /// |orbit of e| × |class|, every unordered pair twice. `own` picks the keys that only
    /// unplug endpoints, or the others.
    fn cut_totals(&self, c: &Classes, own: bool) -> (u128, u128) {
        let mut cutting = 0u128;
        let mut pairs_cut = 0u128;
        for ((_, size), v) in c.single.orbits.iter().zip(&self.single) {
            if v.total > 0 && v.own == own {
                cutting += u128::from(*size);
                pairs_cut += u128::from(*size) * u128::from(v.total);
            }
        }
        let mut ordered = (0u128, 0u128);
        for (o, stab) in c.pairs.iter().enumerate() {
            let Some(s) = stab else { continue };
            let size = u128::from(c.single.orbits[o].1);
            for (m, v) in s.members.iter().zip(&self.pairs[o]) {
                if v.total > 0 && v.own == own {
                    ordered.0 += size * m.len() as u128;
                    ordered.1 += size * m.len() as u128 * u128::from(v.total);
                }
            }
        }
        (cutting + ordered.0 / 2, pairs_cut + ordered.1 / 2)
    }
}

/// The orbits of keys: of single bundles under the symmetries found, and per orbit whose
/// first key is a single link, of the other single links under the symmetries that fix it.
struct Classes {
    fg: FabricGraph,
    single: KeyOrbits,
    /// Per single orbit: the classes of its first key's partners.
    pairs: Vec<Option<Stab>>,
}

struct Stab {
    /// The classes of partners, each in bundle order.
    members: Vec<Vec<usize>>,
}

impl Classes {
    /// `None` when `auto` and the symmetry would not divide the `keys` to prove by 4.
    fn new(
        fg: FabricGraph,
        single: &dyn Fn(usize) -> bool,
        singleton: &dyn Fn(usize) -> bool,
        auto: bool,
        keys: u64,
    ) -> Option<Classes> {
        let gens = orbits::generators(&fg.graph);
        let pairs_wanted = (0..fg.bundles()).any(singleton);
        let single_orbits = KeyOrbits::new(&fg, gens, single, pairs_wanted);
        // A stabilizer search per orbit that has pairs: only worth it with few of them.
        let with_pairs = single_orbits
            .orbits
            .iter()
            .filter(|&&(rep, _)| singleton(rep))
            .count() as u64;
        let partners = single_orbits
            .of
            .iter()
            .enumerate()
            .filter(|&(k, _)| singleton(k))
            .count() as u64;
        if auto {
            let reduced = (single_orbits.orbits.len() as u64)
                .saturating_add(with_pairs.saturating_mul(partners));
            if reduced.saturating_mul(4) > keys || with_pairs.saturating_mul(partners) > 1 << 24 {
                return None;
            }
        }
        let pairs = single_orbits
            .orbits
            .iter()
            .map(|&(rep, _)| {
                singleton(rep).then(|| {
                    let gens = orbits::generators(&fg.pinned(rep));
                    let o = KeyOrbits::new(&fg, gens, &|k| k != rep && singleton(k), false);
                    Stab {
                        members: o.members(),
                    }
                })
            })
            .collect();
        Some(Classes {
            fg,
            single: single_orbits,
            pairs,
        })
    }

    /// Keys proven one by one: a representative per class.
    fn work(&self) -> u64 {
        self.single.orbits.len() as u64
            + self
                .pairs
                .iter()
                .flatten()
                .map(|s| s.members.len() as u64)
                .sum::<u64>()
    }

    /// The keys whose class's value satisfies `want`, in scenario order: single bundles in
    /// bundle order, then pairs `(i, j)`, `i < j`, in order of `i` then `j`.
    fn keys_where<'c>(
        &'c self,
        want: &'c dyn Fn(&Value) -> bool,
        single_values: &'c [Value],
        pair_values: &'c [Vec<Value>],
    ) -> impl Iterator<Item = Key> + 'c {
        let singles = (0..self.single.of.len()).filter_map(move |k| {
            let o = self.single.of[k];
            (o != u32::MAX && want(&single_values[o as usize])).then(|| vec![k])
        });
        let pairs = (0..self.single.of.len()).flat_map(move |i| {
            let o = self.single.of[i];
            let mut js: Vec<usize> = Vec::new();
            if o != u32::MAX
                && let Some(stab) = &self.pairs[o as usize]
            {
                let word = self.single.word(i);
                for (class, members) in stab.members.iter().enumerate() {
                    if !want(&pair_values[o as usize][class]) {
                        continue;
                    }
                    js.extend(
                        members
                            .iter()
                            .map(|&f| orbits::apply(&self.fg, &word, f))
                            .filter(|&j| j > i),
                    );
                }
            }
            js.sort_unstable();
            js.into_iter().map(move |j| vec![i, j])
        });
        singles.chain(pairs)
    }
}

/// Proves one key at a time against the fabric as declared.
struct Prover<'a> {
    cx: &'a Ctx<'a>,
    intact: &'a Routes,
    bundles: &'a [Vec<LinkId>],
    positions: Option<HashMap<Queue, usize>>,
    /// Whether scenarios can add a cycle (a graph exists and the declared one is acyclic).
    check_cbd: bool,
    classes: AttachClasses,
    group_live: Vec<Vec<u32>>,
    counts: Option<Counts>,
    counts_fit: bool,
    /// `Settings::list_own`: an own-cable key not listed is counted on the fast path.
    list_own: bool,
    /// One scenario at a time is applied to this copy and undone afterwards: building a fresh
    /// switch graph per scenario would cost O(links) each.
    net: Net,
}

impl<'a> Prover<'a> {
    fn new(
        cx: &'a Ctx<'a>,
        intact: &'a Routes,
        bundles: &'a [Vec<LinkId>],
        graph: Option<&BufferDependencyGraph>,
        already_cyclic: bool,
    ) -> Prover<'a> {
        let positions = match (graph, already_cyclic) {
            (Some(g), false) => g.topo_positions(),
            _ => None,
        };
        let classes = routing::attach_classes(&intact.net, &cx.isolated);
        let live = |u: u32| !cx.isolated.get(u as usize).copied().unwrap_or(false);
        let group_live: Vec<Vec<u32>> = intact
            .dests
            .iter()
            .map(|d| d.units.iter().copied().filter(|&u| live(u)).collect())
            .collect();
        // `Counts` holds a flag per (source class, destination group): at most 64 M of them.
        let counts_fit = classes.len().saturating_mul(intact.dests.len()) <= 64 << 20;
        Prover {
            cx,
            intact,
            bundles,
            positions,
            check_cbd: graph.is_some() && !already_cyclic,
            classes,
            group_live,
            counts: None,
            counts_fit,
            list_own: true,
            net: intact.net.clone(),
        }
    }

    fn value(&mut self, key: &[usize], want_cycle: bool) -> Value {
        let p = self.prove(key, 0, want_cycle);
        Value {
            total: p.total,
            cyclic: p.cyclic,
            own: p.own,
        }
    }

    /// What `key` removes: switch pairs (low, high) and (endpoint, switch) attachments.
    fn removes(&self, key: &[usize]) -> (Vec<SwitchPair>, Vec<Detached>) {
        let f = self.cx.fabric;
        let ends = &self.intact.net.ends;
        let mut adj_removed: Vec<(u32, u32)> = Vec::new();
        let mut detached: Vec<(u32, u32)> = Vec::new(); // (endpoint, switch)
        for &b in key {
            let l = f.link(self.bundles[b][0]);
            match (l.a.device, l.b.device) {
                (DeviceId::Switch(x), DeviceId::Switch(y)) => {
                    adj_removed.push((x.0.min(y.0), x.0.max(y.0)));
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
        adj_removed.sort_unstable();
        adj_removed.dedup();
        (adj_removed, detached)
    }

    /// The key's routing, routes and whole graph (for its witness).
    fn graph_of(&mut self, key: &[usize]) -> (Routes, BufferDependencyGraph) {
        let (adj_removed, detached) = self.removes(key);
        apply(&mut self.net, &adj_removed, &detached, true);
        let mut g = BufferDependencyGraph::default();
        let r = self.cx.routes(self.net.clone(), 0, Some(&mut g));
        apply(&mut self.net, &adj_removed, &detached, false);
        (r, g)
    }

    /// Proves `key`: the pairs it cuts off (the first `listing` of them kept), and, when
    /// `want_cycle`, whether its graph has a cycle. The scenario is applied to `self.net`
    /// for the proof and undone before returning.
    fn prove(&mut self, key: &[usize], listing: usize, want_cycle: bool) -> Proved {
        let (adj_removed, detached) = self.removes(key);
        if detached.is_empty() && adj_removed.is_empty() {
            // Only some parallel links: the declared fabric's proof covers it.
            return Proved {
                pairs: Vec::new(),
                total: 0,
                cyclic: false,
                own: false,
            };
        }
        apply(&mut self.net, &adj_removed, &detached, true);
        let cut = Cut::new(adj_removed, detached);
        let affected = self.affected_dests(&cut.adj_removed);
        let own = cut.adj_removed.is_empty()
            && affected.is_empty()
            && cut
                .units
                .iter()
                .all(|&u| self.net.unit_attach[u as usize].is_empty());
        let listing = if own && !self.list_own { 0 } else { listing };
        // Only endpoints cut off entirely, nothing re-routed and nothing to list: count, from
        // the declared fabric's reachability alone. The graph is a subgraph of the declared
        // one (fewer sources, the same tables), so no cycle either.
        let proved = if listing == 0
            && self.counts_fit
            && affected.is_empty()
            && cut
                .units
                .iter()
                .all(|&u| self.net.unit_attach[u as usize].is_empty())
        {
            Proved {
                pairs: Vec::new(),
                total: self.count_cut_off(&cut),
                cyclic: false,
                own,
            }
        } else {
            let rerouted = self.rerouted(&affected, &cut);
            let reach = self.reachability(&rerouted);
            let mut sample = PairSample::new(listing);
            self.cut_toward_rerouted(&cut, &rerouted, &reach, &mut sample);
            self.cut_from_detached(&cut, &reach, &mut sample);
            let (pairs, total) = sample.finish();
            Proved {
                pairs,
                total,
                cyclic: want_cycle && self.check_cbd && self.has_cycle(&rerouted),
                own,
            }
        };
        apply(&mut self.net, &cut.adj_removed, &cut.detached, false);
        proved
    }

    /// Whether endpoint `u` takes part (an isolated endpoint sends and receives nothing).
    fn live(&self, u: u32) -> bool {
        !self.cx.isolated.get(u as usize).copied().unwrap_or(false)
    }

    /// The destinations (intact indices, sorted, unique) whose routing the applied scenario
    /// changes: a removed switch adjacency the models or a static route use, or a static
    /// route withdrawn.
    fn affected_dests(&self, adj_removed: &[SwitchPair]) -> Vec<usize> {
        let f = self.cx.fabric;
        let intact = self.intact;
        let net = &self.net;
        let mut affected: Vec<usize> = intact.model_affected(adj_removed);
        for p in adj_removed {
            if let Some(ds) = intact.static_uses.get(p) {
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
                DeviceId::Switch(v) => adj_removed
                    .binary_search(&(r.at.0.min(v.0), r.at.0.max(v.0)))
                    .is_ok(),
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
        affected
    }

    /// The pairs the scenario cuts off when it only detaches endpoints (the fast path).
    fn count_cut_off(&mut self, cut: &Cut) -> u64 {
        let intact = self.intact;
        let cx = self.cx;
        let live = |u: u32| !cx.isolated.get(u as usize).copied().unwrap_or(false);
        let c = self
            .counts
            .get_or_insert_with(|| Counts::new(intact, &self.classes, &self.group_live));
        c.cut_off(intact, &cut.units, &live)
    }

    /// Re-routed destinations: the affected groups (without detached endpoints), and each
    /// detached endpoint on its own (`None`: no intact group stands for it).
    fn rerouted(&self, affected: &[usize], cut: &Cut) -> Vec<(Option<usize>, Dest)> {
        let intact = self.intact;
        let ends = &intact.net.ends;
        let mut rerouted: Vec<(Option<usize>, Dest)> = Vec::new();
        for &d in affected {
            let old = &intact.dests[d];
            let units = cut.kept(&old.units);
            if !units.is_empty() {
                rerouted.push((
                    Some(d),
                    Dest::new(ends, units, old.attach.clone(), old.routes.clone()),
                ));
            }
        }
        for &u in &cut.units {
            let old = &intact.dests[intact.dest_of[u as usize]];
            rerouted.push((
                None,
                Dest::new(
                    ends,
                    vec![u],
                    self.net.unit_attach[u as usize].clone(),
                    old.routes.clone(),
                ),
            ));
        }
        rerouted
    }

    /// Which switches deliver to each re-routed destination in the scenario.
    fn reachability(&self, rerouted: &[(Option<usize>, Dest)]) -> Reach {
        let f = self.cx.fabric;
        let net = &self.net;
        let mut reach = Reach::default();
        for (old, d) in rerouted {
            // Delivery needs an attachment (the models deliver only there, and a static
            // route via a host only where the endpoint is cabled): nothing reaches it.
            let ok = if d.attach.is_empty() {
                vec![false; net.switches() * 2]
            } else {
                routing::deliverable(f, net, d)
            };
            match old {
                Some(i) => {
                    reach.by_dest.insert(*i, ok);
                }
                None => {
                    reach.by_unit.insert(d.units[0], ok);
                }
            }
        }
        reach
    }

    /// Sources the scenario did not change, toward re-routed destinations: a source class
    /// that reached before and does not now.
    fn cut_toward_rerouted(
        &self,
        cut: &Cut,
        rerouted: &[(Option<usize>, Dest)],
        reach: &Reach,
        sample: &mut PairSample,
    ) {
        let intact = self.intact;
        let ends = &intact.net.ends;
        let same_host = |u: u32| ends.of_host(ends.host[u as usize]);
        for (old, d) in rerouted {
            let ok_now = match old {
                Some(i) => &reach.by_dest[i],
                None => &reach.by_unit[&d.units[0]],
            };
            let ok_before = &intact.ok[old.unwrap_or_else(|| intact.dest_of[d.units[0] as usize])];
            let dst: Vec<u32> = d.units.iter().copied().filter(|&u| self.live(u)).collect();
            if dst.is_empty() {
                continue;
            }
            for (attach, units) in &self.classes {
                if reaches(attach, ok_now) || !reaches(attach, ok_before) {
                    continue;
                }
                if cut.touches(units) {
                    sample.push_product(&cut.kept(units), &dst, same_host);
                } else {
                    sample.push_product(units, &dst, same_host);
                }
            }
        }
    }

    /// Detached endpoints as sources, toward every destination: per group (without the
    /// detached endpoints), then the detached endpoints one by one.
    fn cut_from_detached(&self, cut: &Cut, reach: &Reach, sample: &mut PairSample) {
        let intact = self.intact;
        let net = &self.net;
        let ends = &intact.net.ends;
        let same_host = |u: u32| ends.of_host(ends.host[u as usize]);
        for &u in cut.units.iter().filter(|&&u| self.live(u)) {
            let before = intact.net.unit_attach[u as usize].as_slice();
            let now = net.unit_attach[u as usize].as_slice();
            for (i, units) in self.group_live.iter().enumerate() {
                let ok_before = &intact.ok[i];
                let ok_now = reach.by_dest.get(&i).unwrap_or(ok_before);
                if !reaches(now, ok_now) && reaches(before, ok_before) {
                    if cut.touches(units) {
                        sample.push_product(&[u], &cut.kept(units), same_host);
                    } else {
                        sample.push_product(&[u], units, same_host);
                    }
                }
            }
            for &v in cut.units.iter().filter(|&&v| v != u && self.live(v)) {
                let ok_before = &intact.ok[intact.dest_of[v as usize]];
                if !reaches(now, &reach.by_unit[&v]) && reaches(before, ok_before) {
                    sample.push_product(&[u], &[v], same_host);
                }
            }
        }
    }

    /// Whether the scenario's buffer dependency graph has a cycle: cheap when every new edge
    /// of the re-routed destinations runs forward in the declared graph's topological order,
    /// else the scenario's whole graph is built.
    fn has_cycle(&self, rerouted: &[(Option<usize>, Dest)]) -> bool {
        let cx = self.cx;
        let f = cx.fabric;
        let net = &self.net;
        let mut forward = self.positions.is_some();
        if let Some(pos) = &self.positions {
            'dests: for (_, d) in rerouted {
                let t = routing::table(f, net, d);
                let mut bad = false;
                super::buffer_graph::dest_edges(&cx.qos, net, d, &t, |a: Queue, b: Queue| {
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
            return false;
        }
        // Exact: the scenario's whole graph.
        let mut g = BufferDependencyGraph::default();
        let _ = cx.routes(net.clone(), 0, Some(&mut g));
        !g.cyclic_components().is_empty()
    }
}

/// Whether a source attached at `attach` reaches a destination whose deliverability is `ok`.
fn reaches(attach: &[u32], ok: &[bool]) -> bool {
    attach.iter().any(|&s| ok[s as usize * 2 + UP])
}

/// One failure scenario as applied: the switch adjacencies it removes, the (endpoint,
/// switch) attachments it cuts, and the endpoints it detaches (sorted, unique).
struct Cut {
    adj_removed: Vec<SwitchPair>,
    detached: Vec<Detached>,
    units: Vec<u32>,
}

impl Cut {
    fn new(adj_removed: Vec<SwitchPair>, detached: Vec<Detached>) -> Cut {
        let mut units: Vec<u32> = detached.iter().map(|&(u, _)| u).collect();
        units.sort_unstable();
        units.dedup();
        Cut {
            adj_removed,
            detached,
            units,
        }
    }

    fn detaches(&self, u: u32) -> bool {
        self.units.binary_search(&u).is_ok()
    }

    /// Whether any of `units` (sorted) is detached.
    fn touches(&self, units: &[u32]) -> bool {
        self.units.iter().any(|u| units.binary_search(u).is_ok())
    }

    /// `units` without the detached endpoints.
    fn kept(&self, units: &[u32]) -> Vec<u32> {
        units
            .iter()
            .copied()
            .filter(|&u| !self.detaches(u))
            .collect()
    }
}

/// Deliverability of the re-routed destinations in a scenario: by intact destination index,
/// and for each detached endpoint by its unit.
#[derive(Default)]
struct Reach {
    by_dest: HashMap<usize, Vec<bool>>,
    by_unit: HashMap<u32, Vec<bool>>,
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
fn apply(net: &mut Net, adj: &[(u32, u32)], detached: &[(u32, u32)], remove: bool) {
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
