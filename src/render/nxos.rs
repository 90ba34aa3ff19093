//! Cisco NX-OS view: a switch context as NX-OS CLI values.
//!
//! In: a `SwitchContext` with `os: nxos`. Out: `NxosView` for `nxos/running-config`.
//! Reference facts (vendors.md §2c): `class-map type qos match-any` + `policy-map type qos`
//! setting a qos-group per class; `policy-map type queuing` over the fixed 8-queue classes
//! `c-out-8q-q<N>` / `c-out-8q-q-default` with `priority level 1` (strict) or `bandwidth
//! remaining percent`, and `random-detect … kbytes … drop-probability … weight 0 ecn` on
//! marking queues; `policy-map type network-qos` with `pause pfc-cos <prio>` and `mtu` on
//! `c-8q-nq<N>`; `system qos`; per interface `priority-flow-control mode on`, watchdog,
//! `service-policy type qos input`. The qos-group of a class is its egress queue, so the
//! chain qos-group N → `c-8q-nqN` → `pause pfc-cos <prio>` holds.

use serde::Serialize;

use super::context::{Ecn, Scheduling, SwitchContext, SwitchOs, WatchdogAction};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};

pub const QOS_POLICY: &str = "QOS_CLASSIFICATION";
pub const QUEUING_POLICY: &str = "QOS_EGRESS_PORT";
pub const NETWORK_POLICY: &str = "qos_network";

/// NX-OS front-panel name: `Ethernet1/<index+1>`.
pub fn port_name(index: u32) -> String {
    format!("Ethernet1/{}", index.saturating_add(1))
}

#[derive(Debug, Serialize)]
pub struct NxosView {
    pub hostname: String,
    pub description: Option<String>,
    /// Classes with explicit DSCPs (the catch-all class becomes `class-default`).
    pub class_maps: Vec<NxClassMap>,
    /// qos-group of `class-default`.
    pub default_qos_group: u8,
    pub queuing: Vec<NxQueuing>,
    pub network_qos: Vec<NxNetworkClass>,
    pub watchdog: bool,
    pub ports: Vec<NxPort>,
}

#[derive(Debug, Serialize)]
pub struct NxClassMap {
    pub name: String,
    /// `26` or `24,26-28`.
    pub dscps: String,
    pub qos_group: u8,
}

#[derive(Debug, Serialize)]
pub struct NxQueuing {
    pub name: String,
    /// Queues 7..1 then default, as NX-OS lists them.
    pub queues: Vec<NxQueue>,
}

#[derive(Debug, Serialize)]
pub struct NxQueue {
    pub class: String,
    pub strict: bool,
    pub bandwidth: u8,
    /// Pre-formatted `random-detect …` arguments.
    pub ecn: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct NxNetworkClass {
    pub class: String,
    pub mtu: u32,
    pub pause_cos: Option<u8>,
}

#[derive(Debug, Serialize)]
pub struct NxPort {
    pub name: String,
    pub description: Option<String>,
    pub mtu: u32,
    pub pfc: bool,
    pub watchdog: bool,
    /// A queuing policy other than the system one (an ECN override).
    pub queuing: Option<String>,
}

fn queue_class(q: u8) -> String {
    if q == 0 {
        "c-out-8q-q-default".into()
    } else {
        format!("c-out-8q-q{q}")
    }
}

fn nq_class(q: u8) -> String {
    if q == 0 {
        "c-8q-nq-default".into()
    } else {
        format!("c-8q-nq{q}")
    }
}

/// Bytes as NX-OS `kbytes`, rounded up so a threshold never shrinks [unverified: kbyte = 1000 B].
pub fn kbytes(bytes: u64) -> u64 {
    bytes.div_ceil(1000)
}

fn ecn_args(e: Ecn) -> String {
    format!(
        "minimum-threshold {} kbytes maximum-threshold {} kbytes drop-probability {} weight 0 ecn",
        kbytes(e.min_bytes),
        kbytes(e.max_bytes),
        e.probability_percent
    )
}

pub fn view(ctx: &SwitchContext) -> Result<NxosView, RenderError> {
    let dev = ctx.device.as_str();
    let err = |m: String| unsupported(dev, SwitchOs::Nxos, m);
    if let Some(w) = ctx.watchdog
        && w.action != WatchdogAction::Drop
    {
        return Err(err("PFC watchdog action other than drop".into()));
    }
    let qos = &ctx.qos;
    let mut class_maps = Vec::new();
    let mut default_qos_group = 0;
    for c in &qos.classes {
        if c.default {
            default_qos_group = c.queue;
        } else if !c.dscps.is_empty() {
            class_maps.push(NxClassMap {
                name: c.name.clone(),
                dscps: variants::compress(&c.dscps),
                qos_group: c.queue,
            });
        }
    }
    let all = variants::variants(ctx);
    // PFC is system-wide on NX-OS (network-qos); a port may only turn it off entirely.
    for v in &all {
        if !v.ports.is_empty()
            && !v.lossless_priorities.is_empty()
            && v.lossless_priorities != qos.lossless_priorities
        {
            return Err(err(format!(
                "ports {} run a different set of lossless priorities; NX-OS sets PFC classes system-wide",
                v.ports.join(", ")
            )));
        }
    }
    let queuing = all
        .iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .map(|v| queuing_policy(ctx, v))
        .collect::<Result<Vec<_>, _>>()?;
    let mut network_qos: Vec<NxNetworkClass> = Vec::new();
    let mut queues: Vec<u8> = qos.classes.iter().map(|c| c.queue).collect();
    queues.push(0);
    queues.sort_unstable();
    queues.dedup();
    for q in queues.iter().rev() {
        let pause_cos = qos
            .classes
            .iter()
            .find(|c| c.queue == *q && c.lossless && qos.lossless_priorities.contains(&c.priority))
            .map(|c| c.priority);
        network_qos.push(NxNetworkClass {
            class: nq_class(*q),
            mtu: ctx.mtu,
            pause_cos,
        });
    }
    // default last, as NX-OS lists it
    network_qos.sort_by_key(|n| n.class == "c-8q-nq-default");
    let ports = ctx
        .ports
        .iter()
        .map(|p| {
            let v = variants::variant_of(&all, &p.name);
            let variant = &all[v];
            NxPort {
                name: p.name.clone(),
                description: p.description.as_deref().map(escape::cli_description),
                mtu: p.mtu,
                pfc: !variant.lossless_priorities.is_empty(),
                watchdog: variant.watchdog && !variant.lossless_priorities.is_empty(),
                queuing: (v != 0).then(|| variants::variant_name(QUEUING_POLICY, v)),
            }
        })
        .collect();
    Ok(NxosView {
        hostname: ctx.device.clone(),
        description: ctx.description.as_deref().map(escape::comment_text),
        class_maps,
        default_qos_group,
        queuing,
        network_qos,
        watchdog: ctx.watchdog.is_some(),
        ports,
    })
}

fn queuing_policy(ctx: &SwitchContext, v: &Variant) -> Result<NxQueuing, RenderError> {
    let mut queues = Vec::new();
    let mut strict_levels = 0u8;
    for q in (0u8..8).rev() {
        let class = ctx.qos.classes.iter().find(|c| c.queue == q);
        let (strict, bandwidth) = match class.map(|c| c.scheduling) {
            Some(Scheduling::Strict) => {
                strict_levels += 1;
                (true, 0)
            }
            Some(Scheduling::Ets { weight_percent }) => (false, weight_percent),
            None => (false, 0),
        };
        queues.push(NxQueue {
            class: queue_class(q),
            strict,
            bandwidth,
            ecn: variants::ecn_of(v, q).map(ecn_args),
        });
    }
    if strict_levels > 1 {
        return Err(unsupported(
            &ctx.device,
            SwitchOs::Nxos,
            "more than one strict class (the reference uses only `priority level 1`)",
        ));
    }
    Ok(NxQueuing {
        name: variants::variant_name(QUEUING_POLICY, v.index),
        queues,
    })
}
