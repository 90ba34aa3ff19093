//! The switch side of host bonds over a dual-ToR pair (issue 18): which two switches form an
//! MLAG pair, their peer link, and the numbered bonds they serve together.
//!
//! A host `bond lacp` or `bond balance-xor` whose two member ports reach two different
//! switches makes those switches a pair, if a link joins them (the peer link, `peer-link N`
//! on a `dual-tor` tier). LACP across two switches only works when both present one LACP
//! system, which is what MLAG does; a static (`balance-xor`) LAG needs the same pairing so
//! that the switches do not each learn the host's address on a different port.
//! `active-backup` uses one port at a time and needs no switch side.
//!
//! A switch can be in one pair only (one peer link, one MLAG domain): a switch whose bonds
//! reach two or more other switches, or whose peer has other peers, gets no context, and the
//! targets' FAB127 finding says what is not written. So does a pair of two different OSes. Bonds are numbered from 1 in host order,
//! then by NIC, so both switches give a bond the same port-channel and MLAG number.

use std::collections::BTreeSet;

use crate::model::{BondMode, DeviceId, Fabric, HostId, SwitchId};

use super::context::{MlagBond, MlagContext};

/// The most bonds one pair numbers: EOS port-channels and MLAG IDs go up to 2000, and the
/// peer link takes the last.
pub const MAX_BONDS: usize = 1999;

/// A bond member seen from a switch: the host, the bond's index in `Host::bonds`, this
/// switch's port, and the switch of the other member.
struct Member {
    host: HostId,
    bond: usize,
    port: u32,
    other: SwitchId,
}

/// The bonds that switch `s` shares with another switch, in (host, bond) order.
fn members(fabric: &Fabric, s: SwitchId) -> Vec<Member> {
    let me = DeviceId::Switch(s);
    let mut out = Vec::new();
    for (end, l) in fabric.device_links(me) {
        let far = fabric.peer(l, me);
        let DeviceId::Host(h) = far.device else {
            continue;
        };
        let host = fabric.host(h);
        let Some(mode) = host.bond else { continue };
        if mode.value == BondMode::ActiveBackup {
            continue;
        }
        let nic = far.port;
        let Some(bond) = host.bonds.iter().position(|b| b.contains(&nic)) else {
            continue;
        };
        let others: Vec<SwitchId> = host.bonds[bond]
            .iter()
            .filter(|&&i| i != nic)
            .filter_map(|&i| host.nics.get(i as usize)?.link)
            .filter_map(|ol| match fabric.peer(ol, DeviceId::Host(h)).device {
                DeviceId::Switch(t) => Some(t),
                DeviceId::Host(_) => None,
            })
            .collect();
        // Two members on two switches; a bond of more ports, or both on one switch, is no
        // dual-ToR bond.
        if let [t] = others.as_slice()
            && *t != s
        {
            out.push(Member {
                host: h,
                bond,
                port: end.port,
                other: *t,
            });
        }
    }
    out.sort_by_key(|m| (m.host, m.bond));
    out
}

/// The switches `s` shares a bond with.
fn peers(fabric: &Fabric, s: SwitchId) -> BTreeSet<SwitchId> {
    members(fabric, s).iter().map(|m| m.other).collect()
}

/// Switch `s`'s side of its MLAG pair, port names from `name`; `None` when it has no pair
/// (see the module header).
pub fn context(
    fabric: &Fabric,
    s: SwitchId,
    name: impl Fn(SwitchId, u32) -> String,
) -> Option<MlagContext> {
    let members = members(fabric, s);
    let peer = members.first()?.other;
    // Both switches must write the pair: a peer on another OS would leave this side waiting
    // for an MLAG peer that never answers, so neither writes it and FAB127 names both.
    let os = |t: SwitchId| fabric.switch_model(t).os.value;
    if members.iter().any(|m| m.other != peer)
        || os(peer) != os(s)
        || peers(fabric, peer) != BTreeSet::from([s])
    {
        return None;
    }
    let me = DeviceId::Switch(s);
    let mut peer_link: Vec<u32> = fabric
        .device_links(me)
        .into_iter()
        .filter(|&(_, l)| fabric.peer(l, me).device == DeviceId::Switch(peer))
        .map(|(end, _)| end.port)
        .collect();
    if peer_link.is_empty() || members.len() > MAX_BONDS {
        return None;
    }
    peer_link.sort_unstable();
    let (mine, theirs) = (&fabric.switch(s).name, &fabric.switch(peer).name);
    let first = mine < theirs;
    let domain = if first {
        format!("{mine}_{theirs}")
    } else {
        format!("{theirs}_{mine}")
    };
    let bonds = members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let host = fabric.host(m.host);
            let card = host.bonds[m.bond]
                .first()
                .and_then(|&n| host.nics.get(n as usize))
                .map_or(0, |n| n.card);
            MlagBond {
                id: i as u32 + 1,
                port: name(s, m.port),
                host: host.name.clone(),
                bond: format!("bond{card}"),
                lacp: host.bond.is_some_and(|b| b.value == BondMode::Lacp),
            }
        })
        .collect();
    Some(MlagContext {
        peer: theirs.clone(),
        domain,
        side: if first { 1 } else { 2 },
        peer_link: peer_link.into_iter().map(|p| name(s, p)).collect(),
        bonds,
    })
}
