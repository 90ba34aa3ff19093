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

#[cfg(test)]
mod tests {
    use super::super::{DOWN, Distances, Hop, Net, UP};
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
