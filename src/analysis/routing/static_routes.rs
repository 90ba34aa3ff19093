//! Static routes (`route at A to X via B`): they override the routing model at switch `A` for
//! the hosts they target, in every arrival phase. A route whose link is down in a scenario is
//! withdrawn (as a router removes a static route whose next-hop interface is down) and the
//! model's next hops apply again. A route via a host delivers when the destination endpoint is
//! one of that host's NICs cabled to the route's switch, and drops the traffic otherwise
//! (hosts never forward; a NIC does not accept RoCE traffic addressed to another NIC). A route
//! `to HOST` covers every endpoint of the host; `to SWITCH` the endpoints cabled to that
//! switch in the fabric as declared (the switch's subnet). Host-specific routes win over
//! `to SWITCH` routes; among equals the first declared wins.

use crate::model::{DeviceId, Fabric};

use super::{Dest, Hop, Net, route_covers};

/// The static routes that target an endpoint of host `h` cabled (intact) to `intact_attach`,
/// host-specific ones first, then in declaration order.
pub fn matching(fabric: &Fabric, h: u32, intact_attach: &[u32]) -> Vec<usize> {
    let mut out: Vec<(bool, usize)> = fabric
        .routing
        .routes
        .iter()
        .enumerate()
        .filter(|(_, r)| route_covers(r.to, h, intact_attach))
        .map(|(i, r)| (!matches!(r.to, crate::model::RouteTarget::Host(_)), i))
        .collect();
    out.sort_unstable();
    out.into_iter().map(|(_, i)| i).collect()
}

/// Overrides `hops` with the static routes of `dest`; returns whether any applied.
pub fn apply(fabric: &Fabric, net: &Net, dest: &Dest, hops: &mut [Hop]) -> bool {
    let mut any = false;
    let mut done = vec![false; net.switches()];
    for &i in &dest.routes {
        let r = &fabric.routing.routes[i];
        let at = r.at.0;
        if done[at as usize] {
            continue;
        }
        let hop = match r.via {
            DeviceId::Switch(v) if net.adjacent(at, v.0) => Hop::Via(vec![v.0]),
            DeviceId::Host(h) if net.attach[h.index()].binary_search(&at).is_ok() => {
                // `destinations` keeps the endpoints of `h` apart from the others such a
                // route covers, so the group is all of `h` or none of it.
                if dest.hosts == [h.0] && dest.attach.binary_search(&at).is_ok() {
                    Hop::Deliver
                } else {
                    Hop::Drop
                }
            }
            // Not adjacent (FAB703), or its link is down in this scenario: withdrawn.
            _ => continue,
        };
        done[at as usize] = true;
        any = true;
        for phase in 0..2 {
            hops[at as usize * 2 + phase] = hop.clone();
        }
    }
    any
}
