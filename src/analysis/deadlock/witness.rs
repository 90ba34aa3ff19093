//! The minimal witness of a cyclic component (docs/deadlock.md, "The model"): a strongly connected
//! component in; its shortest cycle out, ties broken by the lexicographically smallest
//! sequence of queues once rotated to start at its smallest queue.
//!
//! Why the greedy second phase is exact: let `k` be the shortest cycle length in the component
//! and `m` a queue. On any cycle of length `k` through `m` whose other queues are all greater
//! than `m`, the queue `j` steps after `m` is at distance exactly `k - j` from `m` (at most, by
//! the cycle; at least, or a shorter closed walk — hence a shorter cycle — would exist).
//! So walking from `m` and always taking the smallest successor at the right distance yields
//! the lexicographically smallest such cycle, and trying `m` in ascending order makes the first
//! one found the smallest canonical rotation overall.

use std::collections::VecDeque;

use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};

use super::buffer_graph::Queue;

/// Above this many queues only this many BFS roots are tried: the cycle is then short but
/// not proven the shortest (`Witness::minimal` is false).
const MAX_ROOTS: usize = 4000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    pub cycle: Vec<NodeIndex>,
    pub minimal: bool,
}

/// `component` must be strongly connected and contain a cycle.
pub fn minimal_cycle<E>(g: &DiGraph<Queue, E>, component: &[NodeIndex]) -> Witness {
    let n = g.node_count();
    let mut inside = vec![false; n];
    for &v in component {
        inside[v.index()] = true;
    }
    let mut sorted = component.to_vec();
    sorted.sort_by_key(|&v| g[v]);
    // Phase 1: the shortest cycle length over all (or the first MAX_ROOTS) roots.
    let roots = &sorted[..sorted.len().min(MAX_ROOTS)];
    let mut k = usize::MAX;
    let mut dist = vec![usize::MAX; n];
    for &r in roots {
        let len = shortest_cycle_through(g, &inside, r, &mut dist);
        k = k.min(len);
    }
    let minimal = sorted.len() <= MAX_ROOTS;
    // Phase 2: the lexicographically smallest canonical cycle of length k.
    for &m in &sorted {
        // Distances to m, backwards, through queues greater than m only.
        let mut to_m = vec![usize::MAX; n];
        to_m[m.index()] = 0;
        let mut q = VecDeque::from([m]);
        while let Some(v) = q.pop_front() {
            if to_m[v.index()] >= k {
                continue;
            }
            for u in g.neighbors_directed(v, Direction::Incoming) {
                if inside[u.index()] && g[u] > g[m] && to_m[u.index()] == usize::MAX {
                    to_m[u.index()] = to_m[v.index()] + 1;
                    q.push_back(u);
                }
            }
        }
        let mut cycle = vec![m];
        let mut cur = m;
        let mut ok = true;
        for j in 1..=k {
            let want = k - j;
            let next = g
                .neighbors_directed(cur, Direction::Outgoing)
                .filter(|&w| {
                    inside[w.index()]
                        && (if want == 0 {
                            w == m
                        } else {
                            w != m && to_m[w.index()] == want
                        })
                })
                .min_by_key(|&w| g[w]);
            match next {
                Some(w) if w == m => break,
                Some(w) => {
                    cycle.push(w);
                    cur = w;
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && cycle.len() == k {
            return Witness { cycle, minimal };
        }
    }
    // Only reachable when the roots were capped: fall back to a shortest cycle through the
    // smallest queue.
    Witness {
        cycle: any_cycle_through(g, &inside, sorted[0]),
        minimal: false,
    }
}

/// Length of the shortest cycle through `r` inside the component (BFS).
fn shortest_cycle_through<E>(
    g: &DiGraph<Queue, E>,
    inside: &[bool],
    r: NodeIndex,
    dist: &mut [usize],
) -> usize {
    let mut touched = vec![r];
    dist[r.index()] = 0;
    let mut q = VecDeque::from([r]);
    let mut best = usize::MAX;
    'bfs: while let Some(v) = q.pop_front() {
        for w in g.neighbors_directed(v, Direction::Outgoing) {
            if w == r {
                best = dist[v.index()] + 1;
                break 'bfs;
            }
            if inside[w.index()] && dist[w.index()] == usize::MAX {
                dist[w.index()] = dist[v.index()] + 1;
                touched.push(w);
                q.push_back(w);
            }
        }
    }
    for t in touched {
        dist[t.index()] = usize::MAX;
    }
    best
}

/// A shortest cycle through `r` (BFS with parents), starting at `r`.
fn any_cycle_through<E>(g: &DiGraph<Queue, E>, inside: &[bool], r: NodeIndex) -> Vec<NodeIndex> {
    let mut parent = vec![None; g.node_count()];
    let mut q = VecDeque::from([r]);
    let mut seen = vec![false; g.node_count()];
    seen[r.index()] = true;
    while let Some(v) = q.pop_front() {
        for w in g.neighbors_directed(v, Direction::Outgoing) {
            if w == r {
                let mut cyc = vec![v];
                let mut x = v;
                while let Some(p) = parent[x.index()] {
                    cyc.push(p);
                    x = p;
                }
                cyc.reverse();
                return cyc;
            }
            if inside[w.index()] && !seen[w.index()] {
                seen[w.index()] = true;
                parent[w.index()] = Some(v);
                q.push_back(w);
            }
        }
    }
    vec![r]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(switch: u32, from: u32) -> Queue {
        Queue {
            switch,
            from,
            priority: 3,
        }
    }

    /// Two cycles of length 3 through the smallest queue and one of length 4: the witness is the
    /// lexicographically smaller 3-cycle, starting at the smallest queue.
    #[test]
    fn shortest_then_lexicographically_smallest_rotation() {
        let mut g: DiGraph<Queue, ()> = DiGraph::new();
        let n: Vec<NodeIndex> = [
            q(1, 0),
            q(2, 1),
            q(3, 1),
            q(4, 2),
            q(5, 3),
            q(6, 5),
            q(7, 6),
        ]
        .iter()
        .map(|&x| g.add_node(x))
        .collect();
        // 0 -> 2 -> 4 -> 0 and 0 -> 1 -> 3 -> 0 (smaller), and 0 -> 4 -> 5 -> 6 -> 0 (longer).
        for (a, b) in [
            (0, 2),
            (2, 4),
            (4, 0),
            (0, 1),
            (1, 3),
            (3, 0),
            (4, 5),
            (5, 6),
            (6, 0),
        ] {
            g.add_edge(n[a], n[b], ());
        }
        let w = minimal_cycle(&g, &n);
        assert!(w.minimal);
        assert_eq!(w.cycle, vec![n[0], n[1], n[3]]);
    }

    /// The smallest queue need not be on a shortest cycle: the witness starts at the smallest
    /// queue of the best shortest cycle.
    #[test]
    fn rotation_starts_at_the_cycles_own_smallest_queue() {
        let mut g: DiGraph<Queue, ()> = DiGraph::new();
        let n: Vec<NodeIndex> = [q(1, 0), q(2, 1), q(3, 2), q(4, 3), q(5, 4)]
            .iter()
            .map(|&x| g.add_node(x))
            .collect();
        // 0 -> 1 -> 2 -> 3 -> 0 (length 4) and 2 -> 4 -> 2 (length 2)
        for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 0), (2, 4), (4, 2)] {
            g.add_edge(n[a], n[b], ());
        }
        let w = minimal_cycle(&g, &n);
        assert_eq!(w.cycle, vec![n[2], n[4]]);
    }
}
