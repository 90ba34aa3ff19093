//! `routing shortest`: all equal-cost minimum-hop paths over the surviving switch graph (hosts
//! never transit), as eBGP with a private ASN per switch and multipath, or OSPF/IS-IS with
//! unit costs, would route. Such paths may bounce (go down and back up) after failures.

use std::collections::VecDeque;

use super::{Hop, Net};

const INF: u32 = u32::MAX;

/// Per state (`switch * 2 + phase`): whether `attach` can be reached, which is where `table`
/// has next hops (or delivers).
pub fn reach(net: &Net, attach: &[u32]) -> Vec<bool> {
    distances(net, attach)
        .into_iter()
        .flat_map(|d| [d != INF, d != INF])
        .collect()
}

fn distances(net: &Net, attach: &[u32]) -> Vec<u32> {
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

/// Next hops toward a destination attached at `attach` (phase `UP` only; `DOWN` mirrors it).
pub fn table(net: &Net, attach: &[u32]) -> Vec<Hop> {
    let n = net.switches();
    let dist = distances(net, attach);
    let mut hops = Vec::with_capacity(2 * n);
    for s in 0..n {
        let h = match dist[s] {
            0 => Hop::Deliver,
            INF => Hop::Drop,
            d => Hop::Via(
                net.adj[s]
                    .iter()
                    .copied()
                    .filter(|&t| dist[t as usize] == d - 1)
                    .collect(),
            ),
        };
        hops.push(h.clone());
        hops.push(h);
    }
    hops
}
