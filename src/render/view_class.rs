//! View classes: `check` builds each target's view once per class of devices that render
//! alike, not once per device (issue 19: 4,192 switch and 12,500 host views at 100,000 GPUs).
//!
//! Two devices are in one *view class* when their contexts are equal in everything except
//! their names: the device's own name, its and its ports' descriptions, and the names of its
//! peers (`peer`, `peer_port`, a NIC's `peer`) — what a generated tier varies from device to
//! device. Everything else (model, OS, release, platform, QoS plan, buffers, watchdog, every
//! port's index, name, speed, MTU, cable, lanes, FEC, headroom, ECN, the SONiC plan) must be
//! equal. `same_switch`/`same_host` destructure every field, so a field added to a context
//! does not compile until it is placed on one side or the other.
//!
//! Why the findings of one member are every member's (the views in `sonic.rs`, `cumulus.rs`,
//! `eos.rs`, `nxos.rs`, `junos.rs`, `host.rs` and `check_switch`):
//! * a view reads a name only to check it (`escape::is_identifier`, `is_port_name`), to label
//!   an error with the device, or to copy it, escaped by a total function (`escape::*`),
//!   into the rendered text; no decision and no note depends on a name, and a `Note` carries
//!   no device name by contract (`fidelity::Note`);
//! * so when every name of both devices passes those checks (`names_ok`), both views take the
//!   same path and give the same notes.
//!
//! Devices whose names fail a check are viewed on their own, as are all members of a class
//! whose representative's view fails (the error names the device; errors are rare), so every
//! error is the one the device's own view gives. `tests/it/view_classes.rs` compares the
//! per-class results with the per-device ones on every fixture and on mutated fabrics.

use std::collections::HashMap;

use rayon::prelude::*;

use super::context::{HostContext, NicContext, PortContext, SwitchContext};
use super::{Note, RenderError, escape, preflight_host, preflight_switch};

/// The notes (or error) of every switch's view, in the order of `switches`: what
/// `preflight_switch` gives for each, computed once per view class.
pub fn preflight_switches(switches: &[SwitchContext]) -> Vec<Result<Vec<Note>, RenderError>> {
    let classes = classes(switches, switch_bucket, names_ok_switch, same_switch);
    let reps: Vec<Option<Vec<Note>>> = classes
        .par_iter()
        .map(|c| preflight_switch(&switches[c[0]]).ok())
        .collect();
    let mut out: Vec<Option<Result<Vec<Note>, RenderError>>> = vec![None; switches.len()];
    for (class, rep) in classes.iter().zip(reps) {
        if let Some(notes) = rep {
            for &i in class {
                out[i] = Some(Ok(notes.clone()));
            }
        }
    }
    fill_alone(&mut out, |i| preflight_switch(&switches[i]))
}

/// The result of every host's view, in the order of `hosts`, computed once per view class.
pub fn preflight_hosts(hosts: &[HostContext]) -> Vec<Result<(), RenderError>> {
    let classes = classes(hosts, host_bucket, names_ok_host, same_host);
    let reps: Vec<bool> = classes
        .par_iter()
        .map(|c| preflight_host(&hosts[c[0]]).is_ok())
        .collect();
    let mut out: Vec<Option<Result<(), RenderError>>> = vec![None; hosts.len()];
    for (class, ok) in classes.iter().zip(reps) {
        if ok {
            for &i in class {
                out[i] = Some(Ok(()));
            }
        }
    }
    fill_alone(&mut out, |i| preflight_host(&hosts[i]))
}

/// The view of every device not yet settled by its class, each on its own.
fn fill_alone<T: Send>(
    out: &mut [Option<Result<T, RenderError>>],
    view: impl Fn(usize) -> Result<T, RenderError> + Sync,
) -> Vec<Result<T, RenderError>> {
    let alone: Vec<usize> = (0..out.len()).filter(|&i| out[i].is_none()).collect();
    let results: Vec<Result<T, RenderError>> = alone.par_iter().map(|&i| view(i)).collect();
    for (i, r) in alone.into_iter().zip(results) {
        out[i] = Some(r);
    }
    out.iter_mut()
        .map(|r| r.take().unwrap_or_else(unreachable_result))
        .collect()
}

/// Every slot is filled above; kept total so a logic slip is an error, not a panic.
fn unreachable_result<T>() -> Result<T, RenderError> {
    Err(RenderError::Invalid {
        device: String::new(),
        message: "internal: view class left a device without a result".into(),
    })
}

/// Devices grouped into view classes (indices in input order, classes in order of their
/// first member). A device whose names fail their checks is left out (viewed on its own).
fn classes<T, K: std::hash::Hash + Eq>(
    items: &[T],
    bucket: impl Fn(&T) -> K,
    names_ok: impl Fn(&T) -> bool,
    same: impl Fn(&T, &T) -> bool,
) -> Vec<Vec<usize>> {
    let mut classes: Vec<Vec<usize>> = Vec::new();
    // bucket → classes whose representative has that cheap fingerprint
    let mut by_bucket: HashMap<K, Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if !names_ok(item) {
            continue;
        }
        let candidates = by_bucket.entry(bucket(item)).or_default();
        match candidates
            .iter()
            .find(|&&c| same(&items[classes[c][0]], item))
        {
            Some(&c) => classes[c].push(i),
            None => {
                candidates.push(classes.len());
                classes.push(vec![i]);
            }
        }
    }
    classes
}

/// A cheap fingerprint of what `same_switch` compares.
fn switch_bucket(c: &SwitchContext) -> (&'static str, usize, u32, u64, u64) {
    let cables = c.ports.iter().map(|p| u64::from(p.cable_m)).sum();
    let speeds = c.ports.iter().map(|p| u64::from(p.speed_mbps)).sum();
    (c.os.as_str(), c.ports.len(), c.mtu, cables, speeds)
}

fn host_bucket(c: &HostContext) -> (&'static str, usize) {
    (c.driver.as_str(), c.nics.len())
}

/// Whether every name of the switch passes the checks its view makes (`check_switch`).
fn names_ok_switch(c: &SwitchContext) -> bool {
    escape::is_identifier(&c.device)
        && c.ports
            .iter()
            .all(|p| escape::is_identifier(&p.peer) && escape::is_port_name(&p.peer_port))
}

/// Whether every name of the host passes the checks its view makes (`host::view`).
fn names_ok_host(c: &HostContext) -> bool {
    escape::is_identifier(&c.host) && c.nics.iter().all(|n| escape::is_identifier(&n.peer))
}

/// Equal in everything but names (see the module documentation).
fn same_switch(a: &SwitchContext, b: &SwitchContext) -> bool {
    let SwitchContext {
        device: _,
        os,
        release,
        platform,
        description: _,
        fabric,
        mtu,
        qos,
        watchdog,
        buffer,
        ports,
        sonic,
        hash_fields,
        lb,
        mlag,
    } = a;
    *os == b.os
        && *mtu == b.mtu
        && ports.len() == b.ports.len()
        && *release == b.release
        && *buffer == b.buffer
        && *watchdog == b.watchdog
        && *fabric == b.fabric
        && *platform == b.platform
        && *qos == b.qos
        && ports.iter().zip(&b.ports).all(|(p, q)| same_port(p, q))
        && *sonic == b.sonic
        && *hash_fields == b.hash_fields
        && same_lb(lb, &b.lb, ports, &b.ports)
        // An MLAG side names its peer, hosts and domain: such switches render one by one.
        && mlag.is_none()
        && b.mlag.is_none()
}

/// Equal load-balancing, the switch-facing ports compared by index (their names differ only
/// where the ports do, which `same_port` compares).
fn same_lb(
    a: &super::LbContext,
    b: &super::LbContext,
    pa: &[PortContext],
    pb: &[PortContext],
) -> bool {
    let indexes = |lb: &super::LbContext, ports: &[PortContext]| -> Vec<u32> {
        ports
            .iter()
            .filter(|p| lb.switch_ports.contains(&p.name))
            .map(|p| p.index)
            .collect()
    };
    a.mode == b.mode
        && a.flowlet_gap_ns == b.flowlet_gap_ns
        && a.seed == b.seed
        && a.seed_untiered == b.seed_untiered
        && indexes(a, pa) == indexes(b, pb)
}

fn same_port(a: &PortContext, b: &PortContext) -> bool {
    let PortContext {
        name,
        index,
        speed_mbps,
        mtu,
        cable_m,
        peer: _,
        peer_port: _,
        description: _,
        lanes,
        fec,
        lossless_priorities,
        headroom,
        pause_threshold,
        ecn,
        pfc_watchdog,
    } = a;
    *index == b.index
        && *speed_mbps == b.speed_mbps
        && *mtu == b.mtu
        && *cable_m == b.cable_m
        && *fec == b.fec
        && *pfc_watchdog == b.pfc_watchdog
        && *pause_threshold == b.pause_threshold
        && *name == b.name
        && *lanes == b.lanes
        && *lossless_priorities == b.lossless_priorities
        && *headroom == b.headroom
        && *ecn == b.ecn
}

fn same_host(a: &HostContext, b: &HostContext) -> bool {
    let HostContext {
        host: _,
        description: _,
        fabric,
        driver,
        qos,
        nics,
        qps_per_connection,
        split_data_on_qps,
        left_alone,
        bonds,
        deviations,
    } = a;
    *driver == b.driver
        && *bonds == b.bonds
        && *qps_per_connection == b.qps_per_connection
        && *split_data_on_qps == b.split_data_on_qps
        && *left_alone == b.left_alone
        && *deviations == b.deviations
        && nics.len() == b.nics.len()
        && *fabric == b.fabric
        && *qos == b.qos
        && nics.iter().zip(&b.nics).all(|(n, m)| same_nic(n, m))
}

fn same_nic(a: &NicContext, b: &NicContext) -> bool {
    let NicContext {
        index,
        name,
        netdev,
        rdma_device,
        pci,
        guessed,
        rdma_port,
        peer: _,
        speed_mbps,
        rail,
    } = a;
    *index == b.index
        && *name == b.name
        && *guessed == b.guessed
        && *rdma_port == b.rdma_port
        && *speed_mbps == b.speed_mbps
        && *rail == b.rail
        && *netdev == b.netdev
        && *rdma_device == b.rdma_device
        && *pci == b.pci
}
