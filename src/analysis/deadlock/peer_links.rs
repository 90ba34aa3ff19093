//! MLAG peer links and the proof (docs/deadlock.md, "Peer links"): the proof leaves MLAG's
//! failover forwarding out of its routing tables, and this pass checks, per peer link, the
//! conditions under which that is sound (FAB704 when one fails).
//!
//! A peer link here is a link between the two switches a bond endpoint is attached to (its
//! attachments with every link up are exactly those two). MLAG forwards across it in a case
//! no routing model produces: ToR A, whose link to a bonded host is down, still takes that
//! host's traffic from above and passes it across the peer link to ToR B, which delivers it
//! (Arista EOS User Manual, "Multi-Chassis Link Aggregation"). That adds the dependencies
//! `(A from X) -> (B from A)` only, and the queue `(B from A)` drains into host ports, a sink,
//! so no cycle passes through it, provided nothing else is routed across the peer link and
//! onward. Routing is what could do that, so the conditions are:
//! * `routing updown` (or `none`): a valley-free route never crosses a link between two
//!   switches of one tier. `routing shortest` routes across the peer link like any other
//!   link (in failure scenarios also onward to the other ToR's uplinks), and that traffic
//!   shares the queue the failover fills.
//! * the two switches are on one tier (else `updown` climbs or descends across the link);
//! * no static route (`route … at A via B`) and no `path` crosses the peer link.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, RoutingModel, SwitchId};

use super::super::routing::Net;
use super::Ctx;

/// One finding per peer link whose failover forwarding the proof does not cover.
pub(super) fn check(cx: &Ctx, net: &Net) -> Vec<Diagnostic> {
    let f = cx.fabric;
    let model = f.routing.model.value;
    if model == RoutingModel::None {
        return Vec::new();
    }
    // (a, b) with a < b → the first bond endpoint attached to both.
    let mut pairs: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for (u, attach) in cx.intact_attach.iter().enumerate() {
        if let [a, b] = attach.as_slice()
            && cx.ends.nics.get(u).is_some_and(|n| n.len() > 1)
            && net.adjacent(*a, *b)
        {
            pairs.entry((*a, *b)).or_insert(u as u32);
        }
    }
    let mut out = Vec::new();
    for ((a, b), u) in pairs {
        let (sa, sb) = (DeviceId::Switch(SwitchId(a)), DeviceId::Switch(SwitchId(b)));
        let name = |s: u32| f.switch(SwitchId(s)).name.clone();
        let (an, bn) = (name(a), name(b));
        let crosses = |x: DeviceId, y: DeviceId| (x, y) == (sa, sb) || (x, y) == (sb, sa);
        let link_span = f
            .device_links(sa)
            .into_iter()
            .find(|&(_, l)| f.peer(l, sa).device == sb)
            .map_or(f.routing.model.span, |(_, l)| f.link(l).span);
        let on_link =
            |reason: String, help: &str| (link_span, "the peer link", reason, help.to_string());
        let why = if model == RoutingModel::Shortest {
            Some(on_link(
                "`routing shortest` routes traffic across it like any other link, and in failure scenarios onward to the other switch's uplinks, into the queue MLAG's failover fills from above".into(),
                "use `routing updown`: a valley-free route never crosses a link within a tier, so the peer link carries failover traffic only, which drains into host ports",
            ))
        } else if net.tier[a as usize].is_none() || net.tier[a as usize] != net.tier[b as usize] {
            Some(on_link(
                format!(
                    "`{an}` and `{bn}` are not on one tier, so `routing updown` climbs or descends across their link"
                ),
                "put the two switches a bond spans on one tier (the leaf tier)",
            ))
        } else if let Some(r) = f
            .routing
            .routes
            .iter()
            .find(|r| crosses(DeviceId::Switch(r.at), r.via))
        {
            Some((
                r.span,
                "this route crosses the peer link",
                format!(
                    "the static route at `{}` sends traffic across it, into the queue MLAG's failover fills from above",
                    name(r.at.0)
                ),
                "route around the peer link: MLAG uses it for failover traffic, which must drain into host ports only".to_string(),
            ))
        } else {
            cx.paths
                .iter()
                .map(|&i| &f.routing.paths[i])
                .find(|p| p.hops.windows(2).any(|w| crosses(w[0], w[1])))
                .map(|p| {
                    (
                        p.span,
                        "this path crosses the peer link",
                        "a `path` sends traffic across it, into the queue MLAG's failover fills from above".to_string(),
                        "take the path around the peer link: MLAG uses it for failover traffic, which must drain into host ports only".to_string(),
                    )
                })
        };
        if let Some((span, label, reason, help)) = why {
            out.push(
                Diagnostic::new(
                    Code::PeerLinkUnproven,
                    span,
                    format!(
                        "MLAG failover across the peer link `{an}`--`{bn}` (bonds such as `{}`) is not covered by the deadlock proof: {reason}",
                        cx.unit_label(u)
                    ),
                )
                .label(label)
                .help(help),
            );
        }
    }
    out
}
