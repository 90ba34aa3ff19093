//! Orbits of failure scenarios: the fabric's symmetries (symmetry.rs) acting on the bundles a
//! scenario empties. In: the proof's context and the bundles; out: the orbit of every
//! one-bundle scenario (with a word of symmetries that maps its first member onto it), and,
//! for two failures, the orbits of the second bundle under the symmetries that fix the first.
//!
//! The fabric as a coloured graph: a vertex per switch, host and endpoint (NIC or bond); an
//! edge per switch pair and per (endpoint, switch) pair with a link, coloured by how many of
//! its links are up (capped at N + 1: a bundle of more than N links is never emptied) and
//! whether any is declared failed; an edge joins an endpoint to its host. A switch's colour is
//! its tier and its priorities (which are lossless, per class); an endpoint's the number of
//! its NICs. Every device that a static route, `path` or `rewrite` names has a colour of its
//! own, so every symmetry fixes it and the statement maps onto itself.
//!
//! A permutation of this graph maps the fabric onto itself as the proof sees it: the routing
//! models are defined by adjacency and tier alone, static routes, paths and rewrites are
//! fixed, and the priority arithmetic is per switch colour. So a scenario and its image have
//! isomorphic routes and buffer-dependency graphs: the same NIC pairs, mapped, are cut off, and
//! one has a cycle exactly when the other does (docs/deadlock.md).

use std::collections::HashMap;

use crate::model::{DeviceId, LinkId};

use super::Ctx;
use super::symmetry::{self, Graph, Perm};

const NONE: u32 = u32::MAX;

/// The graph of the fabric and the vertices of every bundle.
pub struct FabricGraph {
    pub graph: Graph,
    /// Per bundle: its two vertices (low, high).
    ends: Vec<(u32, u32)>,
    /// Every bundle's ends with the bundle, sorted (a lookup is a binary search).
    by_ends: Vec<((u32, u32), usize)>,
    /// Per vertex: the bundles at it.
    incident: Vec<Vec<usize>>,
}

impl FabricGraph {
    /// The graph of `cx`'s fabric with `bundles` (of links that are up, in order) as edges;
    /// `None` when a link joins something the proof does not model (two hosts, a port
    /// without an endpoint), where no symmetry is claimed.
    pub fn new(cx: &Ctx, bundles: &[Vec<LinkId>], n: usize) -> Option<FabricGraph> {
        let f = cx.fabric;
        let (ns, nh) = (f.switches.len() as u32, f.hosts.len() as u32);
        let ends = &cx.ends;
        let sw = |s: u32| s;
        let host = |h: u32| ns + h;
        let unit = |u: u32| ns + nh + u;
        let vertex = |d: DeviceId, port: u32| -> Option<u32> {
            match d {
                DeviceId::Switch(s) => Some(sw(s.0)),
                DeviceId::Host(h) => ends.unit(h.0, port).map(unit),
            }
        };
        // Devices a routing statement names: each its own colour.
        let mut pinned: HashMap<u32, u64> = HashMap::new();
        let mut pin = |v: u32| {
            let next = pinned.len() as u64;
            pinned.entry(v).or_insert(next);
        };
        let dev = |d: DeviceId| match d {
            DeviceId::Switch(s) => sw(s.0),
            DeviceId::Host(h) => host(h.0),
        };
        let r = &f.routing;
        for route in &r.routes {
            pin(sw(route.at.0));
            pin(dev(route.via));
            match route.to {
                crate::model::RouteTarget::Host(h) => pin(host(h.0)),
                crate::model::RouteTarget::Switch(s) => pin(sw(s.0)),
            }
        }
        for p in &r.paths {
            for &d in &p.hops {
                pin(dev(d));
            }
        }
        for w in &r.rewrites {
            pin(sw(w.at.0));
            pin(dev(w.from));
            pin(dev(w.to));
        }
        // Colours are exact (kind in the top bits): equal colours mean equal treatment.
        let total = (ns + nh) as usize + ends.len();
        let mut colour: Vec<u64> = Vec::with_capacity(total);
        let mut treatments: HashMap<(&[u8], u64), u64> = HashMap::new();
        for s in 0..ns {
            let tier = f.switches[s as usize]
                .tier
                .map_or(0, |t| u64::from(t.value) + 1);
            let next = treatments.len() as u64;
            let qos = *treatments.entry(cx.qos.switch_treatment(s)).or_insert(next);
            colour.push(SWITCH | tier << 40 | qos);
        }
        colour.extend((0..nh).map(|_| HOST));
        colour.extend((0..ends.len()).map(|u| ENDPOINT | ends.nics[u].len() as u64));
        for (&v, &k) in &pinned {
            colour[v as usize] = PINNED | k;
        }
        // Edges: every pair of vertices with links, alive and failed counted.
        let mut pairs: HashMap<(u32, u32), (u64, u64)> = HashMap::new();
        for (i, l) in f.links.iter().enumerate() {
            let (a, b) = (vertex(l.a.device, l.a.port)?, vertex(l.b.device, l.b.port)?);
            if a == b || (a >= ns && b >= ns) {
                return None;
            }
            let e = pairs.entry((a.min(b), a.max(b))).or_default();
            if cx.base_failed[i] {
                e.1 += 1;
            } else {
                e.0 += 1;
            }
        }
        let mut graph = Graph::new(colour);
        let cap = n as u64 + 1;
        let mut sorted: Vec<_> = pairs.into_iter().collect();
        sorted.sort_unstable();
        for ((a, b), (alive, failed)) in sorted {
            let c = 8 + 4 * alive.min(cap) + failed.min(1);
            graph.edge(a, b, c as u32);
        }
        for u in 0..ends.len() as u32 {
            graph.edge(unit(u), host(ends.host[u as usize]), 1);
        }
        graph.finish();
        let mut fg = FabricGraph {
            graph,
            ends: Vec::with_capacity(bundles.len()),
            by_ends: Vec::with_capacity(bundles.len()),
            incident: vec![Vec::new(); total],
        };
        for (k, b) in bundles.iter().enumerate() {
            let l = f.link(b[0]);
            let (a, c) = (vertex(l.a.device, l.a.port)?, vertex(l.b.device, l.b.port)?);
            let e = (a.min(c), a.max(c));
            fg.ends.push(e);
            fg.by_ends.push((e, k));
            fg.incident[e.0 as usize].push(k);
            fg.incident[e.1 as usize].push(k);
        }
        fg.by_ends.sort_unstable();
        Some(fg)
    }

    /// How many bundles there are.
    pub fn bundles(&self) -> usize {
        self.ends.len()
    }

    /// The bundle `p` maps bundle `k` onto.
    pub fn map(&self, p: &Perm, k: usize) -> usize {
        let (a, b) = self.ends[k];
        let (x, y) = (p.apply(a), p.apply(b));
        // An automorphism maps an edge with links up onto one: the lookup cannot miss.
        let e = (x.min(y), x.max(y));
        match self.by_ends.binary_search_by_key(&e, |&(e, _)| e) {
            Ok(i) => self.by_ends[i].1,
            Err(_) => k,
        }
    }

    /// The same graph with the two vertices of bundle `k` coloured apart from everything:
    /// its symmetries are those that fix the bundle's ends.
    pub fn pinned(&self, k: usize) -> Graph {
        let mut g = self.graph.clone();
        let (a, b) = self.ends[k];
        g.colour[a as usize] = FIXED;
        g.colour[b as usize] = FIXED | 1;
        g
    }
}

const SWITCH: u64 = 1 << 60;
const HOST: u64 = 2 << 60;
const ENDPOINT: u64 = 3 << 60;
const PINNED: u64 = 4 << 60;
const FIXED: u64 = 5 << 60;

/// The orbits of some bundles (the keys) under a group, with words that map every orbit's
/// first key onto each member.
pub struct KeyOrbits {
    /// Per bundle: its orbit, `NONE` when it is not a key.
    pub of: Vec<u32>,
    /// Per orbit: its first key (in bundle order) and its size.
    pub orbits: Vec<(usize, u64)>,
    /// Per bundle: the key it was reached from and the generator that did it (`NONE` for an
    /// orbit's first key and for non-keys).
    parent: Vec<(u32, u32)>,
    gens: Vec<Perm>,
}

impl KeyOrbits {
    /// Orbits of the bundles `is_key` selects under the group `gens` generates; with `words`,
    /// also the Schreier trees `word` follows (only pairs of failures need them).
    pub fn new(
        fg: &FabricGraph,
        gens: Vec<Perm>,
        is_key: &dyn Fn(usize) -> bool,
        words: bool,
    ) -> KeyOrbits {
        let m = fg.ends.len();
        let mut uf: Vec<u32> = (0..m as u32).collect();
        fn find(uf: &mut [u32], mut x: u32) -> u32 {
            while uf[x as usize] != x {
                let p = uf[x as usize];
                uf[x as usize] = uf[p as usize];
                x = p;
            }
            x
        }
        // Per vertex: the generators that move it (a bundle is moved only by those).
        let mut moving: Vec<Vec<u32>> = vec![Vec::new(); fg.incident.len()];
        for (gi, p) in gens.iter().enumerate() {
            for &(v, _) in p.moved() {
                moving[v as usize].push(gi as u32);
            }
            for &(v, _) in p.moved() {
                for &k in &fg.incident[v as usize] {
                    if !is_key(k) {
                        continue;
                    }
                    let (a, b) = (find(&mut uf, k as u32), find(&mut uf, fg.map(p, k) as u32));
                    if a != b {
                        uf[a.max(b) as usize] = a.min(b);
                    }
                }
            }
        }
        let mut of = vec![NONE; m];
        let mut orbits: Vec<(usize, u64)> = Vec::new();
        let mut root_orbit: HashMap<u32, u32> = HashMap::new();
        for k in (0..m).filter(|&k| is_key(k)) {
            let r = find(&mut uf, k as u32);
            let o = *root_orbit.entry(r).or_insert_with(|| {
                orbits.push((k, 0));
                orbits.len() as u32 - 1
            });
            of[k] = o;
            orbits[o as usize].1 += 1;
        }
        // Schreier trees: breadth first from each orbit's first key.
        let mut parent = vec![(NONE, NONE); m];
        let mut seen = vec![false; m];
        for &(rep, _) in orbits.iter().filter(|_| words) {
            seen[rep] = true;
            let mut queue = std::collections::VecDeque::from([rep]);
            while let Some(k) = queue.pop_front() {
                let (a, b) = fg.ends[k];
                for &gi in moving[a as usize].iter().chain(&moving[b as usize]) {
                    let t = fg.map(&gens[gi as usize], k);
                    if !seen[t] {
                        seen[t] = true;
                        parent[t] = (k as u32, gi);
                        queue.push_back(t);
                    }
                }
            }
        }
        KeyOrbits {
            of,
            orbits,
            parent,
            gens,
        }
    }

    /// The generators, in the order that maps the orbit's first key onto `k` (built `words`).
    pub fn word(&self, k: usize) -> Vec<&Perm> {
        let mut w = Vec::new();
        let mut at = k;
        loop {
            let (p, gi) = self.parent[at];
            if p == NONE {
                break;
            }
            w.push(&self.gens[gi as usize]);
            at = p as usize;
        }
        w.reverse();
        w
    }

    /// The members of every orbit, in bundle order.
    pub fn members(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.orbits.len()];
        for (k, &o) in self.of.iter().enumerate() {
            if o != NONE {
                out[o as usize].push(k);
            }
        }
        out
    }
}

/// Applies `word` (first generator first) to bundle `k`.
pub fn apply(fg: &FabricGraph, word: &[&Perm], mut k: usize) -> usize {
    for p in word {
        k = fg.map(p, k);
    }
    k
}

/// The symmetries of `fg` found within a work budget proportional to its size.
pub fn generators(graph: &Graph) -> Vec<Perm> {
    let size: u64 = graph.adj.iter().map(|a| a.len() as u64 + 1).sum();
    symmetry::generators(graph, 64 * size + (1 << 20))
}
