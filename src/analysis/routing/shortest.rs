//! `routing shortest`: all equal-cost minimum-hop paths over the surviving switch graph (hosts
//! never transit), as eBGP with a private ASN per switch and multipath, or OSPF/IS-IS with
//! unit costs, would route. Such paths may bounce (go down and back up) after failures.
//!
//! Next hops follow from the hop counts to the destination's switches alone (`distances`), so
//! the proof keeps those and derives a switch's next hops when it needs them (`hop`).

use std::collections::VecDeque;

use super::{Hop, INF, Net};

/// Hops from every switch to the nearest of `attach`.
pub fn distances(net: &Net, attach: &[u32]) -> Vec<u32> {
    let n = net.switches();
    let mut dist = vec![INF; n];
    let mut queue = VecDeque::new();
    for &a in attach {
        dist[a as usize] = 0;
        queue.push_back(a);
    }
    while let Some(s) = queue.pop_front() {
        for &t in &net.adj[s as usize] {
            if dist[t as usize] == INF {
                dist[t as usize] = dist[s as usize] + 1;
                queue.push_back(t);
            }
        }
    }
    dist
}

/// The next hops at switch `s` (either phase: `shortest` has one), `dist(t)` being the hop
/// count of switch `t`.
pub fn hop(net: &Net, s: u32, dist: impl Fn(u32) -> u32) -> Hop {
    match dist(s) {
        0 => Hop::Deliver,
        INF => Hop::Drop,
        d => Hop::Via(
            net.adj[s as usize]
                .iter()
                .copied()
                .filter(|&t| dist(t) == d - 1)
                .collect(),
        ),
    }
}
