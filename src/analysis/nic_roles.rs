//! NIC roles (issue 18 item 4). A `role frontend` NIC carries the host's ordinary traffic
//! (in-band management, user access, TCP storage) on a network of its own; every switch a
//! `.fab` declares is configured as part of the lossless RoCE fabric. A link between the two
//! would put the frontend NIC's traffic into that fabric while the host script leaves the NIC
//! unconfigured (no DSCP trust, no PFC, no ECN reaction): PFC on the switch side only. That
//! design has no meaning, so it is an error (FAB124). A `role storage` NIC may be linked: that
//! is RoCE storage on the backend fabric, and it is then configured like the rails.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Fabric, NicRole};
use crate::span::Span;

/// FAB124: a frontend NIC linked to a switch. One finding per `link` statement, naming its
/// first such NIC and how many more it links.
pub fn frontend_links(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    // link statement → (frontend NIC, switch, host span), in link order
    let mut by_stmt: BTreeMap<Span, Vec<(String, String, Span)>> = BTreeMap::new();
    for l in &fabric.links {
        for (me, peer) in [(l.a, l.b), (l.b, l.a)] {
            let (DeviceId::Host(h), DeviceId::Switch(s)) = (me.device, peer.device) else {
                continue;
            };
            let host = fabric.host(h);
            if host
                .nics
                .get(me.port as usize)
                .is_some_and(|n| n.role == NicRole::Frontend)
            {
                by_stmt.entry(l.span).or_default().push((
                    fabric.endpoint_name(me),
                    fabric.switch(s).name.clone(),
                    host.span,
                ));
            }
        }
    }
    for (span, ends) in by_stmt {
        let (nic, switch, host_span) = &ends[0];
        let more = match ends.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more)".to_string(),
            n => format!(" (and {n} more)"),
        };
        diags.push(
            Diagnostic::new(
                Code::FrontendNicOnFabric,
                span,
                format!(
                    "frontend NIC `{nic}`{more} is linked to switch `{switch}`, so it would join the lossless fabric"
                ),
            )
            .label("links a `role frontend` NIC")
            .with_secondary(*host_span, "host declared here")
            .help(
                "cable the frontend NIC to the frontend network, which this file does not \
                 describe, and remove the link; if the NIC carries RoCE, give it `role storage` \
                 (RoCE storage on this fabric) or no role (a rail)",
            ),
        );
    }
}
