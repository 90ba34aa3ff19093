//! SONiC `STATIC_ROUTE`s written as the `.fab`'s `route at A to X via B`: the destination is
//! one host, or every host behind one switch (by the `INTERFACE` subnets on the ports facing
//! them); the next hop is the neighbour on the route's `ifname`, or on the port whose subnet
//! holds its `nexthop`.

use std::collections::BTreeSet;

use super::deployed::{Deployed, Note, NoteKind, Peer};
use super::text::Out;

/// IPv4 `a.b.c.d/len` → (network, len).
fn v4(s: &str) -> Option<(u32, u8)> {
    let (addr, len) = s.split_once('/').unwrap_or((s, "32"));
    let len: u8 = len.parse().ok().filter(|&l| l <= 32)?;
    let ip: std::net::Ipv4Addr = addr.parse().ok()?;
    let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
    Some((u32::from(ip) & mask, len))
}

fn overlaps(a: (u32, u8), b: (u32, u8)) -> bool {
    let len = a.1.min(b.1);
    let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
    a.0 & mask == b.0 & mask
}

/// SONiC `STATIC_ROUTE`s as `route at A to X via B`.
pub(super) fn routes(d: &Deployed, o: &mut Out, notes: &mut Vec<Note>) {
    // The subnet on each host-facing port: (switch, port) → host.
    let mut host_nets: Vec<((u32, u8), String, String)> = Vec::new(); // (net, host, switch)
    for s in &d.switches {
        for (port, addr) in &s.sw.interfaces {
            if let Some(c) = d
                .cables
                .iter()
                .find(|c| c.switch == s.name && &c.port == port)
                && let Peer::Host(h, _) = &c.peer
                && let Some(net) = v4(addr)
            {
                host_nets.push((net, h.clone(), s.name.clone()));
            }
        }
    }
    let peer_of = |sw: &str, port: &str| -> Option<String> {
        d.cables.iter().find_map(|c| match &c.peer {
            _ if c.switch == sw && c.port == port => Some(match &c.peer {
                Peer::Switch(s, _) => s.clone(),
                Peer::Host(h, _) => h.clone(),
            }),
            Peer::Switch(s2, p2) if s2 == sw && p2 == port => Some(c.switch.clone()),
            _ => None,
        })
    };
    for s in &d.switches {
        for r in &s.sw.routes {
            let Some(dest) = v4(&r.prefix) else {
                notes.push(Note::new(
                    NoteKind::Route,
                    r.at,
                    format!(
                        "static route `{}` on `{}` is not an IPv4 prefix; it is left out",
                        r.prefix, s.name
                    ),
                ));
                continue;
            };
            let hosts: BTreeSet<&String> = host_nets
                .iter()
                .filter(|(n, _, _)| overlaps(*n, dest))
                .map(|(_, h, _)| h)
                .collect();
            // Every host behind one switch → `to SWITCH`; one host → `to HOST`.
            let target = if hosts.len() == 1 {
                hosts.iter().next().map(|h| (*h).clone())
            } else {
                let leaves: BTreeSet<&String> = host_nets
                    .iter()
                    .filter(|(n, _, _)| overlaps(*n, dest))
                    .map(|(_, _, l)| l)
                    .collect();
                // Every host with a subnet on that switch is in the prefix.
                let behind: BTreeSet<&String> = host_nets
                    .iter()
                    .filter(|(_, _, l)| leaves.contains(l))
                    .map(|(_, h, _)| h)
                    .collect();
                (leaves.len() == 1 && behind == hosts && !hosts.is_empty())
                    .then(|| leaves.iter().next().map(|l| (*l).clone()))
                    .flatten()
            };
            let via: Option<String> =
                r.ifnames
                    .iter()
                    .find_map(|p| peer_of(&s.name, p))
                    .or_else(|| {
                        r.nexthops.iter().find_map(|nh| {
                            let ip = v4(nh)?;
                            s.sw.interfaces.iter().find_map(|(port, addr)| {
                                let net = v4(addr)?;
                                overlaps((ip.0, 32), net)
                                    .then(|| peer_of(&s.name, port))
                                    .flatten()
                            })
                        })
                    });
            match (target, via) {
                (Some(t), Some(v)) => {
                    o.comment(1, &format!("STATIC_ROUTE {} on {}", r.prefix, s.name));
                    let start = o.text.len();
                    o.line(
                        1,
                        &format!("route at {} to {t} via {v}", s.name),
                        Some(r.at),
                    );
                    o.device_lines.push((start, o.text.len()));
                }
                (t, v) => {
                    let why = match (t, v) {
                        (None, _) => {
                            "its prefix is not the subnet of one host or of every host behind one switch (the hosts' subnets come from INTERFACE on the ports that face them)"
                        }
                        _ => {
                            "its next hop is not on a port with a neighbour (by `ifname`, or by the INTERFACE subnet that holds `nexthop`)"
                        }
                    };
                    notes.push(Note::new(
                        NoteKind::Route,
                        r.at,
                        format!("static route `{}` on `{}` is left out: {why}", r.prefix, s.name),
                    ).help("write the route as `route at SWITCH to HOST via NEIGHBOUR` by hand if it carries lossless traffic"));
                }
            }
        }
    }
}
