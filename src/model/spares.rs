//! Spare hosts and dual-ToR on generated tiers (issue 18).
//!
//! A `spare` host is a backup server that is cabled and configured like the others (Alibaba
//! HPN 7.0 keeps 8 backup hosts per segment on the ToRs' extra 200G ports: Qian et al.,
//! "Alibaba HPN", SIGCOMM 2024, §4). It must not take one of the leaf's downlinks, or the
//! leaf count and the ratio the operator declared would change with every spare: the tiers
//! wire the active hosts first, then every spare host on the ports left after the downlinks
//! and the uplinks of its group's leaves. More spare hosts than those ports is FAB618.
//!
//! `dual-tor` on the leaf tier states that the two ports of each NIC go to two leaves (a
//! ToR pair) on one plane; rail wiring already gives port 2c-1 and 2c of a host rails 2c-1
//! and 2c, so the check is that the NICs have two ports and no other wiring breaks the pair.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::Sourced;
use crate::span::Span;
use crate::syntax::ast::WiringStyle;

/// The active hosts (in order) and the spare ones (in order).
pub(crate) fn split<T: Clone>(hosts: &[T], spare: impl Fn(&T) -> bool) -> (Vec<T>, Vec<T>) {
    hosts.iter().cloned().partition(|h| !spare(h))
}

/// Where a tier's leaves keep their spare ports.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slots {
    /// The first spare port of a leaf (0-based): after the downlinks and the uplinks.
    pub first: u32,
    /// Spare ports per leaf.
    pub ports: u32,
    /// Ports one host takes on one leaf (all its NIC ports with rack wiring, else 1).
    pub per: u32,
    /// Leaves per group (rails; 1 with rack wiring).
    pub rails: u32,
    pub groups: u32,
}

/// Where one spare host's link goes: its `spare`-th place among the spares, its NIC (port
/// index before the plane mapping), the leaf (index among the tier's leaves) and the port.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SparePlace {
    pub spare: usize,
    pub nic: u32,
    pub leaf: u32,
    pub port: u32,
}

/// The places of `count` spare hosts on the leaves (leaf of group g, rail r at index
/// g·rails + r): spare host j goes to group j / (ports / per), on every rail as an active
/// host would. FAB618 (and `None`) when the leaves' spare ports cannot take them all; `first`
/// is the first spare host's `spare` marker, `tier` the leaf tier.
pub(crate) fn places(
    count: usize,
    at: Slots,
    first: Option<Span>,
    tier: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<SparePlace>> {
    if count == 0 {
        return Some(Vec::new());
    }
    let per_leaf = at.ports / at.per.max(1);
    let room = u64::from(per_leaf) * u64::from(at.groups);
    if (count as u64) > room {
        diags.push(
            Diagnostic::new(
                Code::SpareHosts,
                first.unwrap_or(tier),
                format!(
                    "{count} spare hosts, but the {} leaf groups have room for {room}: each leaf keeps {} port{} after its downlinks and uplinks",
                    at.groups,
                    at.ports,
                    if at.ports == 1 { "" } else { "s" }
                ),
            )
            .label("spare host")
            .with_secondary(tier, "leaf tier")
            .help("give the leaf model spare ports after the uplinks (`ports 128 x 200G, 60 x 400G, 8 x 200G` with `downlinks 128  uplinks 60`), or fewer spare hosts"),
        );
        return None;
    }
    let mut out = Vec::with_capacity(count * (at.rails * at.per) as usize);
    for spare in 0..count {
        let j = spare as u32;
        let (g, slot) = (j / per_leaf, j % per_leaf);
        for rail in 0..at.rails {
            for q in 0..at.per {
                out.push(SparePlace {
                    spare,
                    nic: if at.per > 1 { q } else { rail },
                    leaf: g * at.rails + rail,
                    port: at.first + slot * at.per + q,
                });
            }
        }
    }
    Some(out)
}

/// `peer-link N`: only on a `dual-tor` leaf tier (FAB125). `tiers`: each tier's `dual-tor`
/// and `peer-link`, leaf first.
pub(crate) fn peer_link_fits(
    tiers: impl Iterator<Item = (Option<Span>, Option<Sourced<u64>>)>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    for (i, (dual_tor, peer)) in tiers.enumerate() {
        let Some(peer) = peer else { continue };
        let why = if i > 0 {
            "`peer-link` belongs on the first (leaf) tier, with `dual-tor`"
        } else if dual_tor.is_none() {
            "`peer-link` joins the two ToRs of a dual-ToR pair, but the tier has no `dual-tor`"
        } else {
            continue;
        };
        diags.push(
            Diagnostic::new(Code::BondUnfit, peer.span, why)
                .label("peer link declared here")
                .help("write `dual-tor  peer-link N` on the leaf tier, or remove `peer-link`"),
        );
        return false;
    }
    true
}

/// The first of a leaf's `n` peer-link ports (its last ports), or FAB125 when the ports left
/// after the downlinks and uplinks are fewer than `n`.
pub(crate) fn peer_link_first(
    ports: u32,
    down_up: u32,
    n: Sourced<u64>,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let free = ports.saturating_sub(down_up);
    match u32::try_from(n.value) {
        Ok(k) if k <= free => Some(ports - k),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::BondUnfit,
                    n.span,
                    format!(
                        "`peer-link {}` needs {} ports on each ToR after its {down_up} downlinks and uplinks, but the model has {free} left",
                        n.value, n.value
                    ),
                )
                .label("peer link")
                .help("give the leaf model ports for the peer link after the uplinks (`ports 128 x 200G, 60 x 400G, 2 x 400G` with `downlinks 128  uplinks 60`), or fewer peer links"),
            );
            None
        }
    }
}

/// `dual-tor`: only on the leaf tier, over two-port NICs, on one plane, rail-wired (FAB125).
pub(crate) fn dual_tor_fits(
    mut tiers: impl Iterator<Item = Option<Span>>,
    planes: Option<u64>,
    wiring: Option<WiringStyle>,
    mut ports: impl Iterator<Item = u32>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let leaf = tiers.next().flatten();
    if let Some(upper) = tiers.flatten().next() {
        diags.push(
            Diagnostic::new(
                Code::BondUnfit,
                upper,
                "`dual-tor` belongs on the first (leaf) tier",
            )
            .label("on an upper tier")
            .help(
                "move `dual-tor` to the leaf tier: it says how a NIC's two ports meet their ToRs",
            ),
        );
        return false;
    }
    let Some(at) = leaf else { return true };
    let why = if planes.is_some_and(|p| p > 1) {
        Some(
            "`planes N` already puts port k of every NIC in plane k: dual-ToR is on one plane"
                .to_string(),
        )
    } else if wiring == Some(WiringStyle::Rack) {
        Some("`wiring rack` puts both ports of a NIC on one ToR".to_string())
    } else {
        ports.find(|&p| p != 2).map(|p| {
            format!(
                "`dual-tor` needs NICs with two ports (one to each ToR of the pair), but the wired NICs have {p}"
            )
        })
    };
    let Some(why) = why else { return true };
    diags.push(
        Diagnostic::new(Code::BondUnfit, at, why)
            .label("dual-ToR declared here")
            .help("use a NIC model with `ports 2 x SPEED` on one plane with rail wiring, or remove `dual-tor`"),
    );
    false
}
