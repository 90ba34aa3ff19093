//! `routing updown`: valley-free ECMP over tiers (RFC 7938 BGP with tier-shared ASNs). A route
//! climbs strictly, then descends strictly (hosts count as tier 0); among such routes every
//! minimum-hop one is used. A switch's next hops depend on the arrival phase: traffic that came
//! from below may still climb, traffic that came from above may only descend.
//!
//! Distances: `down[s]` is the fewest hops from `s` to the destination descending strictly,
//! `up[s]` the fewest hops of a valley-free route from `s` that may still climb. Every
//! minimum-hop valley-free route from a source follows these next hops, and every route that
//! follows them is such a route (a suffix of a shortest route is shortest from its phase).
//! The proof keeps the distances and derives next hops where it needs them (`hop`).

use super::{DOWN, Hop, INF, Net, UP};

/// `down` and `up` (see the module header) toward `attach`.
pub fn distances(net: &Net, attach: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = net.switches();
    let tier = |s: u32| net.tier[s as usize];
    let mut order: Vec<u32> = (0..n as u32).filter(|&s| tier(s).is_some()).collect();
    order.sort_by_key(|&s| (tier(s), s));
    let mut down = vec![INF; n];
    for &s in &order {
        if attach.binary_search(&s).is_ok() {
            down[s as usize] = 0;
            continue;
        }
        let best = net.adj[s as usize]
            .iter()
            .filter(|&&t| tier(t).is_some() && tier(t) < tier(s))
            .map(|&t| down[t as usize])
            .min()
            .unwrap_or(INF);
        down[s as usize] = best.saturating_add(1);
    }
    let mut up = down.clone();
    for &s in order.iter().rev() {
        let best = net.adj[s as usize]
            .iter()
            .filter(|&&t| tier(t) > tier(s))
            .map(|&t| up[t as usize])
            .min()
            .unwrap_or(INF);
        up[s as usize] = up[s as usize].min(best.saturating_add(1));
    }
    (down, up)
}

/// The next hops at switch `s` in `phase`, `down(t)` and `up(t)` being switch `t`'s distances.
pub fn hop(
    net: &Net,
    s: u32,
    phase: usize,
    down: impl Fn(u32) -> u32,
    up: impl Fn(u32) -> u32,
) -> Hop {
    let tier = |s: u32| net.tier[s as usize];
    let lower = |want: u32| -> Vec<u32> {
        net.adj[s as usize]
            .iter()
            .copied()
            .filter(|&t| {
                tier(t).is_some() && tier(t) < tier(s) && down(t).saturating_add(1) == want
            })
            .collect()
    };
    match phase {
        UP => match up(s) {
            INF => Hop::Drop,
            0 => Hop::Deliver,
            u => {
                let mut v = lower(u);
                v.extend(
                    net.adj[s as usize]
                        .iter()
                        .copied()
                        .filter(|&t| tier(t) > tier(s) && up(t).saturating_add(1) == u),
                );
                v.sort_unstable();
                Hop::Via(v)
            }
        },
        _ => {
            debug_assert_eq!(phase, DOWN);
            match down(s) {
                INF => Hop::Drop,
                0 => Hop::Deliver,
                d => Hop::Via(lower(d)),
            }
        }
    }
}
