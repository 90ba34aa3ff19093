//! The consistency check on read-back values (issue 34 item 2): what a host's settings file
//! writes for its NICs must agree with what the switch file writes on the port each NIC is
//! cabled to, whatever either says of the proven model:
//! * `nic-pfc`: the NIC's PFC priorities and the switch port's lossless priorities;
//! * `nic-dscp`: for each DSCP of a lossless class, the NIC's priority
//!   (`E_DSCP2PRIO`) and the priority of the class the switch port classifies it into
//!   (its traffic class, or the queue where the target classifies into queues).
//!
//! Both sides are kept per distinct configuration (`Arc`, memoised with the differences), so a
//! 100,000-GPU build holds one copy per switch role and host kind; the check runs once the
//! last device is read (`Reader::finish`), linear in the host-facing ports. An Ascend NPU's
//! settings map DSCPs to its four traffic classes, not to priorities: only PFC is compared
//! there.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::found::{Found, Kind};
use crate::import::deployed::Switch;
use crate::lower::context::{HostContext, SwitchContext, SwitchOs};

/// What one switch file writes on its host-facing ports: each port's (PFC priorities, DSCP →
/// traffic class or queue), the distinct pairs kept once.
#[derive(Debug, Default)]
pub(super) struct PortMaps {
    ports: BTreeMap<String, usize>,
    maps: Vec<Maps>,
}

/// A port's PFC priorities and its DSCP map (DSCP → traffic class or queue).
type Maps = (BTreeSet<u8>, Option<BTreeMap<u8, u8>>);

/// What one host's settings write for its NICs (every NIC alike).
#[derive(Debug, Default)]
pub(super) struct NicMaps {
    pfc: Option<BTreeSet<u8>>,
    dscp2prio: Option<Vec<u8>>,
}

/// The written maps of every port of `sw` (not only those facing a host: switches whose
/// configuration and proven values are alike share one read-back, whichever of their ports
/// face hosts).
pub(super) fn port_maps(ctx: &SwitchContext, sw: &Switch) -> Arc<PortMaps> {
    let mut out = PortMaps::default();
    for p in &ctx.ports {
        let Some(r) = sw.ports.get(&p.name) else {
            continue;
        };
        let m = (
            r.pfc.as_ref().map(|x| x.0.clone()).unwrap_or_default(),
            r.dscp.as_ref().map(|x| x.0.clone()),
        );
        let i = match out.maps.iter().position(|x| *x == m) {
            Some(i) => i,
            None => {
                out.maps.push(m);
                out.maps.len() - 1
            }
        };
        out.ports.insert(p.name.clone(), i);
    }
    Arc::new(out)
}

/// The written maps of a host's settings (`E_PFC`, `E_DSCP2PRIO`).
pub(super) fn nic_maps(values: &BTreeMap<String, String>) -> Arc<NicMaps> {
    Arc::new(NicMaps {
        pfc: values.get("PFC").map(|v| {
            items(v, 8)
                .iter()
                .enumerate()
                .filter(|(_, x)| x.as_str() == "1")
                .filter_map(|(p, _)| u8::try_from(p).ok())
                .collect()
        }),
        dscp2prio: values.get("DSCP2PRIO").map(|v| {
            items(v, 64)
                .iter()
                .map(|x| x.parse().unwrap_or(u8::MAX))
                .collect()
        }),
    })
}

fn text(s: &BTreeSet<u8>) -> String {
    if s.is_empty() {
        return "none".into();
    }
    s.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// Compares what switch `ctx` writes on each host-facing port with what the host's settings
/// write for the NIC cabled to it (`host` gives the host's position, context and written
/// maps by name, `None` for a host not read back); the differences are the host's, under
/// its position in `found`, one per NIC.
pub(super) fn check<'h>(
    ctx: &SwitchContext,
    maps: &PortMaps,
    host: impl Fn(&str) -> Option<(usize, &'h HostContext, &'h NicMaps)>,
    found: &mut BTreeMap<usize, Found>,
) {
    // Junos, NX-OS, VRP and Comware classify into the queue, the others into the TC.
    let by_queue = matches!(
        ctx.os,
        SwitchOs::Junos | SwitchOs::Nxos | SwitchOs::Vrp | SwitchOs::Comware
    );
    for p in &ctx.ports {
        let Some((pfc, dscp)) = maps.ports.get(&p.name).and_then(|&i| maps.maps.get(i)) else {
            continue;
        };
        let Some((at_host, _, nic)) = host(&p.peer) else {
            continue;
        };
        let found = found.entry(at_host).or_default();
        let at = || format!("`{}` {}", ctx.device, p.name);
        if let Some(n) = &nic.pfc
            && n != pfc
        {
            found
                .entry((
                    "nic-pfc",
                    String::new(),
                    format!("{}: {}", at(), text(pfc)),
                    text(n),
                    Kind::Mistake,
                ))
                .or_default()
                .push(p.peer_port.clone());
        }
        let (Some(n), Some(dscp)) = (&nic.dscp2prio, dscp) else {
            continue;
        };
        for c in ctx.qos.classes.iter().filter(|c| c.lossless) {
            for &d in &c.dscps {
                let on_switch = dscp.get(&d).and_then(|&x| {
                    ctx.qos
                        .classes
                        .iter()
                        .find(|k| if by_queue { k.queue == x } else { k.tc == x })
                        .map(|k| k.priority)
                });
                let on_nic = n.get(usize::from(d)).copied();
                if on_switch != on_nic {
                    let t = |v: Option<u8>| v.map_or("none".into(), |v| v.to_string());
                    found
                        .entry((
                            "nic-dscp",
                            format!("DSCP {d}"),
                            format!("{}: priority {}", at(), t(on_switch)),
                            format!("priority {}", t(on_nic)),
                            Kind::Mistake,
                        ))
                        .or_default()
                        .push(p.peer_port.clone());
                }
            }
        }
    }
}

/// A settings value as one item per index: `a,b,c`, `0:a 1:b`, `0:a,1:b` (an index the map
/// does not name stays empty).
pub(super) fn items(v: &str, n: usize) -> Vec<String> {
    let mut out = vec![String::new(); n];
    for (i, tok) in v.split([' ', ',']).filter(|t| !t.is_empty()).enumerate() {
        let (k, val) = match tok.split_once(':') {
            Some((k, val)) => (k.parse::<usize>().ok(), val),
            None => (Some(i), tok),
        };
        if let Some(slot) = k.and_then(|k| out.get_mut(k)) {
            *slot = match val {
                "on" => "1".into(),
                "off" => "0".into(),
                other => other.to_string(),
            };
        }
    }
    out
}
