//! Automorphisms of a vertex- and edge-coloured graph: a graph in, permutations out, each one
//! checked to map the graph onto itself. They generate a group of symmetries of the fabric
//! (orbits.rs builds the graph and uses the group); failure scenarios that one of them maps
//! onto each other have the same outcome, so the proof proves one per orbit.
//!
//! How the permutations are found (a heuristic; only its soundness matters, not that it finds
//! every symmetry):
//! 1. **Colour refinement** (the 1-dimensional Weisfeiler-Leman algorithm): every vertex starts
//!    with its colour and repeatedly takes the multiset of its (edge colour, neighbour colour)
//!    pairs as its new colour until no class splits. Vertices an automorphism maps onto each
//!    other always end in the same class, so only vertices of one class are tried.
//! 2. **Propagation.** To map `x` onto `y`, fix `x ↦ y` and extend neighbourhood by
//!    neighbourhood: a neighbour of `x` must go to a neighbour of `y` of the same classes;
//!    a common neighbour stays where it is when it can, the others are paired by how many of
//!    their own neighbours the pairing keeps adjacent (the first few candidates are weighed,
//!    and one that keeps every neighbour ends the search). Vertices never reached stay fixed;
//!    a vertex that became an image without a place to go takes the place of one that left
//!    (closing a cycle). The first try closes every such cycle as a swap — `u` goes where
//!    the vertex that became `u` came from — which is how the like parts of a fabric's tiers
//!    (pods, groups, rails, planes) map onto each other, and costs what the swap moves; when
//!    that try fails, the cycles are closed by the pairing score instead.
//! 3. **Check.** The result is kept only if it is a bijection that maps every edge of a
//!    moved vertex onto an edge of the same colour, and every vertex into its own class:
//!    then it maps the graph onto itself (edges between fixed vertices are unchanged, and a
//!    bijection that maps the finite edge set into itself maps it onto itself).
//!
//! The first vertex of every class is tried against each other member not yet known to be in
//! its orbit (a union-find over the cycles of the permutations found), within a work budget.
//! A wrong guess in step 2 only loses a symmetry: the orbits used are those of the group the
//! checked permutations generate, a subgroup of the automorphism group, so every scenario
//! counted by symmetry is the image of the one proven under a true automorphism.

use std::collections::VecDeque;

const NONE: u32 = u32::MAX;

/// Candidate images weighed for one vertex.
const CANDIDATES: usize = 16;

/// An undirected graph with colours on vertices and edges.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub colour: Vec<u64>,
    /// Per vertex: (neighbour, edge colour), sorted by neighbour, no duplicates.
    pub adj: Vec<Vec<(u32, u32)>>,
}

impl Graph {
    pub fn new(colour: Vec<u64>) -> Graph {
        let n = colour.len();
        Graph {
            colour,
            adj: vec![Vec::new(); n],
        }
    }

    /// Adds the edge `a -- b` with colour `c` (callers add each edge once).
    pub fn edge(&mut self, a: u32, b: u32, c: u32) {
        self.adj[a as usize].push((b, c));
        self.adj[b as usize].push((a, c));
    }

    /// Sorts the neighbour lists; call once after the last `edge`.
    pub fn finish(&mut self) {
        for v in &mut self.adj {
            v.sort_unstable();
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.colour.len()
    }

    fn edge_colour(&self, a: u32, b: u32) -> Option<u32> {
        let v = &self.adj[a as usize];
        v.binary_search_by_key(&b, |&(w, _)| w).ok().map(|i| v[i].1)
    }
}

/// A permutation of vertices, as the points it moves (sorted by source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Perm {
    moved: Vec<(u32, u32)>,
}

impl Perm {
    pub fn apply(&self, v: u32) -> u32 {
        match self.moved.binary_search_by_key(&v, |&(a, _)| a) {
            Ok(i) => self.moved[i].1,
            Err(_) => v,
        }
    }

    /// (vertex, image) of every vertex it moves.
    pub fn moved(&self) -> &[(u32, u32)] {
        &self.moved
    }
}

/// A deterministic 64-bit mix (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Colour refinement: a class per vertex (dense ids), stable under the graph's automorphisms.
/// A hash collision could only merge classes, which costs tries, never soundness.
pub fn refine(g: &Graph) -> Vec<u32> {
    let n = g.len();
    let dense = |key: &[(u64, u32)]| -> (Vec<u32>, usize) {
        let mut order: Vec<(u64, u32)> = key.to_vec();
        order.sort_unstable();
        let mut col = vec![0u32; n];
        let mut next = 0u32;
        for i in 0..order.len() {
            if i > 0 && order[i].0 != order[i - 1].0 {
                next += 1;
            }
            col[order[i].1 as usize] = next;
        }
        (col, if n == 0 { 0 } else { next as usize + 1 })
    };
    let init: Vec<(u64, u32)> = (0..n).map(|v| (g.colour[v], v as u32)).collect();
    let (mut col, mut classes) = dense(&init);
    let mut buf: Vec<u64> = Vec::new();
    loop {
        let key: Vec<(u64, u32)> = (0..n)
            .map(|v| {
                buf.clear();
                buf.extend(
                    g.adj[v]
                        .iter()
                        .map(|&(w, c)| (u64::from(c) << 32) | u64::from(col[w as usize])),
                );
                buf.sort_unstable();
                let mut h = mix(u64::from(col[v]));
                for &x in &buf {
                    h = mix(h ^ x);
                }
                // The old class leads, so the new partition refines the old one.
                ((u64::from(col[v]) << 40) ^ (h & ((1 << 40) - 1)), v as u32)
            })
            .collect();
        let (next, count) = dense(&key);
        // Classes never merge (the old class is part of the key; a 24-bit class id is plenty
        // for the graphs refined here, and a collision only coarsens).
        if count <= classes {
            return col;
        }
        col = next;
        classes = count;
    }
}

/// Union-find over vertices.
struct Orbits {
    parent: Vec<u32>,
}

impl Orbits {
    fn new(n: usize) -> Orbits {
        Orbits {
            parent: (0..n as u32).collect(),
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b) as usize] = a.min(b);
        }
    }
}

/// The state of one try to extend `x ↦ y` to an automorphism.
struct Search<'g> {
    g: &'g Graph,
    class: Vec<u32>,
    pi: Vec<u32>,
    inv: Vec<u32>,
    /// Vertices given an image in this try, in order.
    sources: Vec<u32>,
    queue: VecDeque<u32>,
    /// Work done over all tries, and the most allowed.
    ops: u64,
    budget: u64,
}

impl Search<'_> {
    fn reset(&mut self) {
        for &v in &self.sources {
            let w = self.pi[v as usize];
            self.pi[v as usize] = NONE;
            self.inv[w as usize] = NONE;
        }
        self.sources.clear();
        self.queue.clear();
    }

    fn assign(&mut self, v: u32, w: u32) {
        self.pi[v as usize] = w;
        self.inv[w as usize] = v;
        self.sources.push(v);
        self.queue.push_back(v);
    }

    /// Where `q` goes as far as this try knows: its image, itself while nothing took its
    /// place, or nowhere yet.
    fn image(&self, q: u32) -> Option<u32> {
        match self.pi[q as usize] {
            NONE if self.inv[q as usize] == NONE => Some(q),
            NONE => None,
            w => Some(w),
        }
    }

    /// How many neighbours of `z` stay adjacent (with their edge colour) if `z ↦ t`.
    fn score(&mut self, z: u32, t: u32) -> usize {
        self.ops += self.g.adj[z as usize].len() as u64;
        self.g.adj[z as usize]
            .iter()
            .filter(|&&(q, c)| {
                self.image(q)
                    .is_some_and(|w| self.g.edge_colour(t, w) == Some(c))
            })
            .count()
    }

    /// Maps the neighbours of `v` onto those of its image; false when they cannot match. A
    /// neighbour that is also a neighbour of the image (by an edge of the same colour) and
    /// that nothing has taken the place of stays fixed without being visited, so a try costs
    /// what it moves, not the whole graph.
    fn extend(&mut self, v: u32) -> bool {
        let g = self.g;
        let w = self.pi[v as usize];
        let (nv, nw) = (&g.adj[v as usize], &g.adj[w as usize]);
        self.ops += (nv.len() + nw.len()) as u64;
        if nv.len() != nw.len() {
            return false;
        }
        let mut pending: Vec<(u32, u32)> = Vec::new();
        let mut taken: Vec<u32> = Vec::new();
        for &(z, c) in nv {
            match self.pi[z as usize] {
                NONE if self.inv[z as usize] == NONE && g.edge_colour(w, z) == Some(c) => {
                    taken.push(z);
                }
                NONE => pending.push((z, c)),
                t => {
                    if g.edge_colour(w, t) != Some(c) {
                        return false;
                    }
                    taken.push(t);
                }
            }
        }
        if pending.is_empty() {
            return true;
        }
        taken.sort_unstable();
        let mut free: Vec<(u32, u32)> = nw
            .iter()
            .copied()
            .filter(|&(t, _)| self.inv[t as usize] == NONE && taken.binary_search(&t).is_err())
            .collect();
        if free.len() != pending.len() {
            return false;
        }
        for (z, c) in pending {
            let mut best: Option<(usize, usize)> = None; // (score, index into free)
            let full = g.adj[z as usize].len();
            let mut tried = 0;
            for (k, &(t, ct)) in free.iter().enumerate() {
                if ct != c || self.class[t as usize] != self.class[z as usize] {
                    continue;
                }
                let s = self.score(z, t);
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, k));
                }
                // Every neighbour kept: nothing can do better. And only the first few
                // candidates are weighed (a wrong pick only loses this symmetry).
                tried += 1;
                if s == full || tried == CANDIDATES {
                    break;
                }
            }
            let Some((_, k)) = best else {
                return false;
            };
            let (t, _) = free.remove(k);
            self.assign(z, t);
        }
        true
    }

    /// Tries to extend `x ↦ y` to an automorphism.
    fn attempt(&mut self, x: u32, y: u32, swaps: bool) -> Option<Perm> {
        self.reset();
        self.assign(x, y);
        loop {
            while let Some(v) = self.queue.pop_front() {
                if self.ops > self.budget || !self.extend(v) {
                    return None;
                }
            }
            // Vertices that became images but have no image themselves take the place of a
            // vertex that left (assigned, but nobody's image): that closes the cycles.
            let open: Vec<u32> = self
                .sources
                .iter()
                .map(|&s| self.pi[s as usize])
                .filter(|&t| self.pi[t as usize] == NONE)
                .collect();
            if open.is_empty() {
                break;
            }
            let left: Vec<u32> = self
                .sources
                .iter()
                .copied()
                .filter(|&s| self.inv[s as usize] == NONE)
                .collect();
            for u in open {
                if self.pi[u as usize] != NONE {
                    continue;
                }
                // First guess: `u` goes where the vertex that became `u` came from, closing a
                // swap (the symmetries of a fabric's tiers are mostly swaps of like parts).
                let from = self.inv[u as usize];
                if swaps
                    && from != NONE
                    && self.inv[from as usize] == NONE
                    && self.class[from as usize] == self.class[u as usize]
                {
                    self.assign(u, from);
                    continue;
                }
                let mut best: Option<(usize, u32)> = None;
                for &t in &left {
                    if self.inv[t as usize] != NONE
                        || self.class[t as usize] != self.class[u as usize]
                    {
                        continue;
                    }
                    let s = self.score(u, t);
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, t));
                    }
                }
                let (_, t) = best?;
                self.assign(u, t);
            }
        }
        self.check()
    }

    /// The permutation of this try, if it is an automorphism.
    fn check(&mut self) -> Option<Perm> {
        let g = self.g;
        for &v in &self.sources {
            let w = self.pi[v as usize];
            if self.class[v as usize] != self.class[w as usize]
                || g.colour[v as usize] != g.colour[w as usize]
                || g.adj[v as usize].len() != g.adj[w as usize].len()
            {
                return None;
            }
            self.ops += g.adj[v as usize].len() as u64;
            for &(z, c) in &g.adj[v as usize] {
                let img = self.image(z)?;
                if g.edge_colour(w, img) != Some(c) {
                    return None;
                }
            }
        }
        let mut moved: Vec<(u32, u32)> = self
            .sources
            .iter()
            .map(|&v| (v, self.pi[v as usize]))
            .filter(|&(v, w)| v != w)
            .collect();
        moved.sort_unstable();
        // A bijection: no vertex is the image of two, and every image that moved in has moved
        // out (`attempt` closed every cycle).
        let mut images: Vec<u32> = moved.iter().map(|&(_, w)| w).collect();
        images.sort_unstable();
        let sources: Vec<u32> = moved.iter().map(|&(v, _)| v).collect();
        (images == sources).then_some(Perm { moved })
    }
}

/// Automorphisms of `g` that generate (a subgroup of) its automorphism group, found within
/// about `budget` steps of work.
pub fn generators(g: &Graph, budget: u64) -> Vec<Perm> {
    let n = g.len();
    let class = refine(g);
    let mut cells: Vec<Vec<u32>> = Vec::new();
    {
        let mut first: Vec<u32> = vec![NONE; n];
        for v in 0..n as u32 {
            let c = class[v as usize] as usize;
            if first[c] == NONE {
                first[c] = cells.len() as u32;
                cells.push(Vec::new());
            }
            cells[first[c] as usize].push(v);
        }
    }
    let mut s = Search {
        g,
        class,
        pi: vec![NONE; n],
        inv: vec![NONE; n],
        sources: Vec::new(),
        queue: VecDeque::new(),
        ops: 0,
        budget,
    };
    let mut orbits = Orbits::new(n);
    let mut gens = Vec::new();
    'cells: for cell in cells.iter().filter(|c| c.len() > 1) {
        let x = cell[0];
        for &y in &cell[1..] {
            if orbits.find(x) == orbits.find(y) {
                continue;
            }
            if s.ops > s.budget {
                break 'cells;
            }
            let found = s
                .attempt(x, y, true)
                .or_else(|| s.attempt(x, y, false))
                .or_else(|| s.attempt(y, x, false));
            if let Some(p) = found {
                for &(a, b) in p.moved() {
                    orbits.union(a, b);
                }
                gens.push(p);
            }
        }
    }
    s.reset();
    gens
}

/// Whether `p` maps `g` onto itself (for tests; `generators` only returns such permutations).
#[cfg(test)]
pub fn is_automorphism(g: &Graph, p: &Perm) -> bool {
    let n = g.len() as u32;
    let mut seen = vec![false; g.len()];
    for &(v, w) in p.moved() {
        if v >= n || w >= n || std::mem::replace(&mut seen[w as usize], true) {
            return false;
        }
    }
    (0..n).all(|v| {
        let w = p.apply(v);
        g.colour[v as usize] == g.colour[w as usize]
            && g.adj[v as usize].len() == g.adj[w as usize].len()
            && g.adj[v as usize]
                .iter()
                .all(|&(z, c)| g.edge_colour(w, p.apply(z)) == Some(c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-tier Clos: `leaves` leaves (colour 1) each linked to every one of `spines`
    /// spines (colour 2).
    fn clos(leaves: u32, spines: u32) -> Graph {
        let mut g = Graph::new(
            (0..leaves)
                .map(|_| 1)
                .chain((0..spines).map(|_| 2))
                .collect(),
        );
        for l in 0..leaves {
            for s in 0..spines {
                g.edge(l, leaves + s, 0);
            }
        }
        g.finish();
        g
    }

    fn orbits_of(g: &Graph, gens: &[Perm]) -> Vec<u32> {
        let mut o = Orbits::new(g.len());
        for p in gens {
            for &(a, b) in p.moved() {
                o.union(a, b);
            }
        }
        (0..g.len() as u32).map(|v| o.find(v)).collect()
    }

    #[test]
    fn a_clos_has_its_leaves_and_its_spines_as_orbits() {
        let g = clos(4, 3);
        let gens = generators(&g, 1 << 20);
        assert!(gens.iter().all(|p| is_automorphism(&g, p)));
        assert_eq!(orbits_of(&g, &gens), vec![0, 0, 0, 0, 4, 4, 4]);
    }

    /// A path a - b - c - d: the reversal is its only symmetry; b and c are swapped by it,
    /// a and b never.
    #[test]
    fn a_path_is_symmetric_only_end_to_end() {
        let mut g = Graph::new(vec![0; 4]);
        g.edge(0, 1, 0);
        g.edge(1, 2, 0);
        g.edge(2, 3, 0);
        g.finish();
        let gens = generators(&g, 1 << 20);
        assert!(gens.iter().all(|p| is_automorphism(&g, p)));
        assert_eq!(orbits_of(&g, &gens), vec![0, 1, 1, 0]);
    }

    /// Two triangles joined by an edge of another colour than the one joining two others:
    /// colours on edges and vertices are respected.
    #[test]
    fn colours_break_symmetry() {
        let mut g = Graph::new(vec![0, 0, 0, 0, 0, 1]);
        g.edge(0, 1, 0);
        g.edge(1, 2, 0);
        g.edge(2, 0, 0);
        g.edge(3, 4, 7);
        g.edge(4, 5, 0);
        g.finish();
        let gens = generators(&g, 1 << 20);
        assert!(gens.iter().all(|p| is_automorphism(&g, p)));
        let o = orbits_of(&g, &gens);
        assert_eq!((o[0], o[1], o[2]), (0, 0, 0));
        assert_ne!(o[3], o[4]);
        assert_ne!(o[4], o[5]);
    }

    /// The Petersen graph is vertex-transitive but colour refinement cannot split it: the
    /// tries must still find only true automorphisms.
    #[test]
    fn every_permutation_found_is_an_automorphism() {
        let mut g = Graph::new(vec![0; 10]);
        for i in 0..5 {
            g.edge(i, (i + 1) % 5, 0);
            g.edge(i, i + 5, 0);
            g.edge(i + 5, (i + 2) % 5 + 5, 0);
        }
        g.finish();
        let gens = generators(&g, 1 << 20);
        assert!(gens.iter().all(|p| is_automorphism(&g, p)));
    }
}
