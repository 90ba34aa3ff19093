//! Phase 2 of `verify`: every planned link of a device with `lldp.json` against what LLDP
//! reports (FAB980 another neighbour, FAB981 no neighbour, FAB982 a fabric device on a port
//! the plan leaves empty).
//!
//! A neighbour's port may be named by the neighbour's own state (a SONiC port alias, a
//! host's netdev), so this runs once every device has been read.

use std::collections::{BTreeMap, HashMap};

use super::canon::Loc;
use super::lldp;
use super::state::Target;
use crate::diagnostic::{Code, Diagnostic, Observed};
use crate::model::Fabric;
use crate::output::cabling;
use crate::render::SwitchOs;
use crate::span::Span;

/// What the check reads of one device: its names from its state, and its LLDP table (the
/// index of `lldp.json` among its files, and the neighbours).
pub(super) struct DeviceLldp<'r> {
    pub(super) device: &'r str,
    pub(super) target: Target,
    /// SONiC `PORT|<port>|alias` from the state.
    pub(super) aliases: &'r [(String, String)],
    /// A host's `nicN` → netdev from its state.
    pub(super) netdevs: &'r BTreeMap<String, String>,
    pub(super) lldp: Option<(usize, Vec<lldp::Neighbour>)>,
}

/// A wiring finding about one device (its index in the check's input), at a place in one of
/// its state files.
pub(super) struct Pending {
    pub(super) device: usize,
    pub(super) file: usize,
    pub(super) at: Loc,
    pub(super) diag: Diagnostic,
}

/// A planned port with another neighbour.
#[derive(Clone)]
struct Wrong {
    port: String,
    peer: String,
    peer_port: String,
    actual_peer: Option<String>,
    actual_port: Option<String>,
    /// Where in `lldp.json`.
    at: Loc,
}

/// The cabling plan and the names every device's ports may carry in LLDP.
struct Plan<'f> {
    /// (device, local port) → (peer, peer port); both directions.
    planned: HashMap<&'f str, Vec<(&'f str, &'f str, &'f str)>>,
    aliases: HashMap<(String, String), String>,
    netdevs: HashMap<(String, String), String>,
    /// Device names by their lower case.
    devices: HashMap<String, &'f str>,
    /// Devices whose port names this run does not know (see `unnamed`).
    unnamed: HashMap<String, ()>,
}

/// Phase 2: every planned link of a device with `lldp.json` against what LLDP reports.
pub(super) fn check(fabric: &Fabric, devices: &[DeviceLldp<'_>]) -> Vec<Pending> {
    let cables = cabling::plan(fabric);
    let plan = Plan::new(fabric, &cables, devices);
    let mut found = Vec::new();
    for (index, r) in devices.iter().enumerate() {
        let Some((file, neighbours)) = &r.lldp else {
            continue;
        };
        let file = *file;
        // A host names its ports by netdev, known only from its state: without it, its links
        // are checked from the switch end.
        if r.target == Target::Host && r.netdevs.is_empty() {
            continue;
        }
        let device = r.device;
        let mut push = |(at, diag): (Loc, Diagnostic)| {
            found.push(Pending {
                device: index,
                file,
                at,
                diag,
            })
        };
        let mut by_local: BTreeMap<String, Vec<&lldp::Neighbour>> = BTreeMap::new();
        for n in neighbours {
            by_local.entry(n.local.clone()).or_default().push(n);
        }
        let links = plan.planned.get(device).cloned().unwrap_or_default();
        let mut planned_locals = HashMap::new();
        let mut wrong = Vec::new();
        for &(port, peer, peer_port) in &links {
            let local = plan.local_name(device, port);
            planned_locals.insert(local.clone(), ());
            let seen = by_local.get(&local).cloned().unwrap_or_default();
            if plan.sees_planned_peer(&seen, peer, peer_port) {
                continue;
            }
            match seen.first() {
                None => push(no_neighbour(device, port, peer, peer_port)),
                Some(n) => {
                    let (actual_peer, actual_port) = plan.resolve(n);
                    wrong.push(Wrong {
                        port: port.to_string(),
                        peer: peer.to_string(),
                        peer_port: peer_port.to_string(),
                        actual_peer,
                        actual_port,
                        at: n.at,
                    });
                }
            }
        }
        for w in &wrong {
            push(wrong_neighbour(device, w, &wrong));
        }
        for (local, ns) in &by_local {
            if planned_locals.contains_key(local) {
                continue;
            }
            for n in ns {
                if let Some(p) = plan.unplanned(device, local, n, &links) {
                    push(p);
                }
            }
        }
    }
    found
}

impl<'f> Plan<'f> {
    fn new(fabric: &'f Fabric, cables: &'f [cabling::Cable], reads: &[DeviceLldp<'_>]) -> Self {
        let mut planned: HashMap<&str, Vec<(&str, &str, &str)>> = HashMap::new();
        for c in cables {
            planned.entry(c.device.as_str()).or_default().push((
                c.port.as_str(),
                c.peer.as_str(),
                c.peer_port.as_str(),
            ));
            planned.entry(c.peer.as_str()).or_default().push((
                c.peer_port.as_str(),
                c.device.as_str(),
                c.port.as_str(),
            ));
        }
        let aliases = reads
            .iter()
            .flat_map(|r| {
                r.aliases
                    .iter()
                    .map(|(p, a)| ((r.device.to_string(), p.clone()), a.clone()))
            })
            .collect();
        let netdevs = reads
            .iter()
            .flat_map(|r| {
                r.netdevs
                    .iter()
                    .map(|(n, d)| ((r.device.to_string(), n.clone()), d.clone()))
            })
            .collect();
        let devices = fabric
            .switches
            .iter()
            .map(|s| s.name.as_str())
            .chain(fabric.hosts.iter().map(|h| h.name.as_str()))
            .map(|n| (n.to_ascii_lowercase(), n))
            .collect();
        Plan {
            planned,
            aliases,
            netdevs,
            devices,
            unnamed: unnamed(fabric, reads),
        }
    }

    /// The fabric device an LLDP system name stands for: a device's name or its fully
    /// qualified form (`lldp::is_device`), so it is looked up whole, then without each
    /// trailing `.label` in turn, ignoring case.
    fn fabric_device(&self, system: &str) -> Option<String> {
        let lower = system.to_ascii_lowercase();
        std::iter::once(lower.len())
            .chain(lower.rmatch_indices('.').map(|(i, _)| i))
            .find_map(|end| self.devices.get(&lower[..end]))
            .map(|d| (*d).to_string())
    }

    /// The names a device's port may carry in LLDP (its own name, alias, netdev).
    fn names(&self, device: &str, port: &str) -> Vec<String> {
        let key = (device.to_string(), port.to_string());
        let mut v = vec![port.to_string()];
        v.extend(self.aliases.get(&key).cloned());
        v.extend(self.netdevs.get(&key).cloned());
        v
    }

    /// The local name of a planned port as LLDP shows it (a host's netdev).
    fn local_name(&self, device: &str, port: &str) -> String {
        self.netdevs
            .get(&(device.to_string(), port.to_string()))
            .cloned()
            .unwrap_or_else(|| port.to_string())
    }

    /// Whether one of the neighbours LLDP reports on a port is the planned peer and port.
    fn sees_planned_peer(&self, seen: &[&lldp::Neighbour], peer: &str, peer_port: &str) -> bool {
        let accepted = self.names(peer, peer_port);
        seen.iter().any(|n| {
            n.system
                .as_deref()
                .is_some_and(|s| lldp::is_device(s, peer))
                && (self.unnamed.contains_key(peer)
                    || n.ports
                        .iter()
                        .any(|p| accepted.iter().any(|a| *a == lldp::expand_port(p))))
        })
    }

    /// A neighbour as the plan names it: the fabric device and the port of its that LLDP's
    /// names match, else what LLDP says.
    fn resolve(&self, n: &lldp::Neighbour) -> (Option<String>, Option<String>) {
        let peer = n
            .system
            .as_deref()
            .map(|s| self.fabric_device(s).unwrap_or_else(|| s.to_string()));
        let port = peer.as_deref().and_then(|p| {
            self.planned.get(p).and_then(|ls| {
                ls.iter().find_map(|(pp, _, _)| {
                    let acc = self.names(p, pp);
                    n.ports
                        .iter()
                        .any(|x| acc.iter().any(|a| *a == lldp::expand_port(x)))
                        .then(|| pp.to_string())
                })
            })
        });
        (peer, port.or_else(|| n.ports.first().cloned()))
    }

    /// FAB982 for a fabric device on a port the plan leaves empty; `None` for a neighbour
    /// that is not a fabric device.
    fn unplanned(
        &self,
        device: &str,
        local: &str,
        n: &lldp::Neighbour,
        links: &[(&str, &str, &str)],
    ) -> Option<(Loc, Diagnostic)> {
        n.system.as_deref().and_then(|s| self.fabric_device(s))?;
        let (Some(peer), port) = self.resolve(n) else {
            return None;
        };
        let planned_port = links
            .iter()
            .find(|(_, pe, pp)| *pe == peer.as_str() && port.as_deref() == Some(*pp))
            .map(|(planned_port, _, _)| planned_port);
        let help = match planned_port {
            Some(planned_port) => format!(
                "move the cable from `{device}` {local} to {planned_port}, where cabling.csv has it"
            ),
            None => format!(
                "move the cable from `{device}` {local} to the port cabling.csv names for `{peer}`"
            ),
        };
        Some((
            n.at,
            Diagnostic::new(
                Code::WiringUnplanned,
                Span::default(),
                format!(
                    "`{device}` {local}: LLDP reports `{peer}`{}, but the cabling plan has no link on this port",
                    port.as_deref().map(|p| format!(" {p}")).unwrap_or_default()
                ),
            )
            .label("this neighbour")
            .help(help)
            .observed(Observed::Wiring {
                device: device.to_string(),
                port: local.to_string(),
                expected_peer: None,
                expected_peer_port: None,
                actual_peer: Some(peer),
                actual_peer_port: port,
            }),
        ))
    }
}

/// SONiC devices and hosts whose state was not read: their neighbours name their ports by
/// aliases or netdevs this run does not know, so only the system name can be checked.
/// (Hosts not verified in this run, `--target` leaving them out, count as unread.)
fn unnamed(fabric: &Fabric, reads: &[DeviceLldp<'_>]) -> HashMap<String, ()> {
    let read_hosts: HashMap<&str, ()> = reads
        .iter()
        .filter(|r| r.target == Target::Host && !r.netdevs.is_empty())
        .map(|r| (r.device, ()))
        .collect();
    reads
        .iter()
        .filter(|r| r.target == Target::Switch(SwitchOs::Sonic) && r.aliases.is_empty())
        .map(|r| (r.device.to_string(), ()))
        .chain(
            fabric
                .hosts
                .iter()
                .filter(|h| !read_hosts.contains_key(h.name.as_str()))
                .map(|h| (h.name.clone(), ())),
        )
        .collect()
}

/// FAB981: a planned port on which LLDP reports nobody.
fn no_neighbour(device: &str, port: &str, peer: &str, peer_port: &str) -> (Loc, Diagnostic) {
    (
        Loc::default(),
        Diagnostic::new(
            Code::WiringNoPeer,
            Span::default(),
            format!("`{device}` {port}: LLDP reports no neighbour; the cabling plan has `{peer}` {peer_port}"),
        )
        .label("in this LLDP table")
        .help(format!(
            "check the cable from `{device}` {port} to `{peer}` {peer_port} (cabling.csv), that the link is up and that both ends run LLDP"
        ))
        .observed(Observed::Wiring {
            device: device.to_string(),
            port: port.to_string(),
            expected_peer: Some(peer.to_string()),
            expected_peer_port: Some(peer_port.to_string()),
            actual_peer: None,
            actual_peer_port: None,
        }),
    )
}

/// FAB980: a planned port with another neighbour; when another wrong port of the device sees
/// exactly what this one should and the other way round, the help says the two cables are
/// swapped.
fn wrong_neighbour(device: &str, w: &Wrong, all: &[Wrong]) -> (Loc, Diagnostic) {
    let swapped = all.iter().find(|o| {
        o.port != w.port
            && o.actual_peer.as_deref() == Some(w.peer.as_str())
            && o.actual_port.as_deref() == Some(w.peer_port.as_str())
            && w.actual_peer.as_deref() == Some(o.peer.as_str())
            && w.actual_port.as_deref() == Some(o.peer_port.as_str())
    });
    let shown = match (&w.actual_peer, &w.actual_port) {
        (Some(p), Some(q)) => format!("`{p}` {q}"),
        (Some(p), None) => format!("`{p}`"),
        _ => "an unnamed neighbour".to_string(),
    };
    let (port, peer, peer_port) = (&w.port, &w.peer, &w.peer_port);
    let help = match swapped {
        Some(other) => format!(
            "the cables of `{device}` {port} and {} are swapped: exchange them (cabling.csv)",
            other.port
        ),
        None => format!(
            "recable `{device}` {port} to `{peer}` {peer_port} (cabling.csv); it is now cabled to {shown}"
        ),
    };
    (
        w.at,
        Diagnostic::new(
            Code::WiringPeer,
            Span::default(),
            format!(
                "`{device}` {port}: LLDP reports {shown}; the cabling plan has `{peer}` {peer_port}"
            ),
        )
        .label("this neighbour")
        .help(help)
        .observed(Observed::Wiring {
            device: device.to_string(),
            port: port.clone(),
            expected_peer: Some(peer.clone()),
            expected_peer_port: Some(peer_port.clone()),
            actual_peer: w.actual_peer.clone(),
            actual_peer_port: w.actual_port.clone(),
        }),
    )
}
