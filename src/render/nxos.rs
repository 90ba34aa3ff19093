//! Cisco NX-OS view: a switch context as NX-OS CLI values.
//!
//! In: a `SwitchContext` with `os: nxos`. Out: `NxosView` for `nxos/qos.cfg` (a merge
//! fragment: no hostname; `copy … running-config` merges it), and the notes of what NX-OS is
//! left to decide.
//! NX-OS conventions (docs/targets.md; Cisco Nexus 9000 NX-OS QoS Configuration Guide
//! 10.5(x), cited below): `class-map type qos match-any` + `policy-map type qos`
//! setting a qos-group per class; `policy-map type queuing` over the fixed 8-queue classes
//! `c-out-8q-q<N>` / `c-out-8q-q-default` with `priority level 1` (strict) or `bandwidth
//! remaining percent`, and `random-detect … kbytes … drop-probability … weight 0 ecn` on
//! marking queues; `policy-map type network-qos` with `pause pfc-cos <prio>` and `mtu` on
//! `c-8q-nq<N>`; `system qos`; per interface `priority-flow-control mode on`, watchdog,
//! `service-policy type qos input`. The qos-group of a class is its egress queue, so the
//! chain qos-group N → `c-8q-nqN` → `pause pfc-cos <prio>` holds.
//!
//! A change converges (issue 33, review N9, N10): `copy … running-config` and a session's
//! pasted lines merge, and class-map `match` lines accumulate, so `qos.cfg` removes what
//! fabricc owns before writing it again: every `FABRICC_Q<n>` class out of the classification
//! policy and every such class map deleted (named by qos-group, at most eight, so every one an
//! earlier build may have written is named), every 8-queue class out of fabricc's queuing,
//! pause and network-qos policies; per port, the queuing policies and the watchdog are stated
//! or removed with `no …`. The file is applied with Session Manager (`configure session` …
//! `verify` … `commit`: "implements the changes atomically … If a failure occurs, Cisco NX-OS
//! reverts to the original configuration", Cisco Nexus 9000 NX-OS System Management
//! Configuration Guide, "Configuring Session Manager"), a checkpoint kept for rollback, and
//! a maintenance-window warning (Cisco's QoS guide: queuing changes are disruptive).
//!
//! Lossless ports on cables longer than 100 m (and every lossless port when a class has a
//! static `pfc-threshold`) get an input queuing policy per cable group, `class type queuing
//! c-in-q<N>` / `pause buffer-size B pause-threshold P resume-threshold R` in bytes: Cisco
//! requires it beyond 100 m ("For cable lengths greater than 100m, the pause buffer size
//! threshold configuration is mandatory", Nexus 9000 NX-OS QoS Configuration Guide 10.5(x),
//! "Configuring Priority Flow Control", https://www.cisco.com/c/en/us/td/docs/dcn/nx-os/nexus9000/105x/configuration/qos/cisco-nexus-9000-series-nx-os-quality-of-service-configuration-guide-105x/m-configuring-priority-flow-control.html).
//! P is the static threshold, or where the model's threshold is dynamic (NX-OS takes bytes
//! only) the lossless queues' `ecn max`, within two MTUs and the model's worst-case pause
//! point (see `lower::vocab::nxos_pause_threshold`; it was two MTUs, which paused at 18 KB under a
//! 150 KB ECN threshold: review N8); B = P + the port's xoff; R = P − one MTU. The guide
//! forbids pause buffer and priority/bandwidth in one input policy, so the policy holds only
//! the pause lines.
//!
//! The pause-buffer numbers are fabricc's own mapping, not Cisco's: Cisco's guide says the
//! configuration is mandatory beyond 100 m but gives no formula, and no Cisco document we
//! could read gives one (docs/targets.md, open questions).
//!
//! The PFC watchdog timers are not rendered: Cisco's guide describes an interval, shutdown and
//! restore multipliers and a fixed 100 ms poll, but the global timer keywords are not in a
//! public Cisco text we could read (the NX-API reference shows only `priority-flow-control
//! fixed-restore …` truncated). Timers the fabric states are reported (FAB904); the language's
//! defaults are not a request, so NX-OS's own timers run without a finding.

use serde::Serialize;

use std::collections::BTreeMap;

use super::context::{
    Ecn, PauseThreshold, PortContext, QosPlan, Scheduling, SwitchContext, SwitchOs, Watchdog,
    WatchdogAction,
};
use super::fidelity::{self, Note, NoteKind, Property};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};

pub use crate::lower::vocab::NXOS_PAUSE_BUFFER_CABLE_M as PAUSE_BUFFER_CABLE_M;

/// fabricc's object names carry `FABRICC_`, so that what it owns is told from the
/// operator's own policies (`verify`, FAB976) and none of them embeds a value that a change
/// would rename: the class maps are named by the qos-group (queue) they set, at most eight,
/// so every one an earlier build may have written can be named and removed.
pub const QUEUING_POLICY: &str = "FABRICC_EGRESS";
pub const INGRESS_POLICY: &str = "FABRICC_PAUSE";
pub const CLASSIFICATION_POLICY: &str = "FABRICC_CLASSIFY";
pub const NETWORK_QOS_POLICY: &str = "FABRICC_NETWORK_QOS";

/// The class map of qos-group `q`.
pub fn class_map_name(q: u8) -> String {
    format!("FABRICC_Q{q}")
}

pub use crate::lower::vocab::nxos_kbytes as kbytes;
// Test support (tests/it/render_targets.rs names ports per target), not the product's.
#[cfg(feature = "internals")]
pub use crate::lower::vocab::nxos_port_name as port_name;

#[derive(Debug, Serialize)]
pub struct NxosView {
    pub hostname: String,
    /// `ip load-sharing address … [universal-id N]` (`render::lb`); empty = not written.
    pub load_sharing: Vec<String>,
    pub fabric: String,
    pub description: Option<String>,
    /// Classes with explicit DSCPs (the catch-all class becomes `class-default`), one class
    /// map per qos-group.
    pub class_maps: Vec<NxClassMap>,
    /// Every class map name fabricc may own (`FABRICC_Q0`…`FABRICC_Q7`): removed from the
    /// classification policy and deleted before the wanted ones are written again.
    pub owned_class_maps: Vec<String>,
    /// Every network-qos class and input queuing class of the 8-queue template, removed from
    /// fabricc's policies before the wanted ones are written again.
    pub owned_nq_classes: Vec<String>,
    pub owned_in_classes: Vec<String>,
    pub classification: &'static str,
    pub network_policy: &'static str,
    /// qos-group of `class-default`.
    pub default_qos_group: u8,
    pub queuing: Vec<NxQueuing>,
    pub network_qos: Vec<NxNetworkClass>,
    /// Input queuing policies with pause buffers, one per cable group.
    pub ingress: Vec<NxIngress>,
    pub watchdog: bool,
    /// `(cage, map)`: `interface breakout module 1 port 1 map 400g-2x`, which splits the cage
    /// into the `Ethernet1/N/1`, `Ethernet1/N/2` that `ports` name (AMD's RoCE guide, Cisco
    /// tab: ROCm/gpu-cluster-networking@1156b4e913f8:docs/how-to/roce-network-config.rst;
    /// the `SPEEDg-WAYSx` map words: Cisco NX-API REST SDK, "Configuring Breakout on
    /// High-Bandwidth Interfaces", https://developer.cisco.com/docs/cisco-nexus-3000-and-9000-series-nx-api-rest-sdk-user-guide-and-api-reference-release-9-2x/configuring-breakout-on-high-bandwidth-interfaces).
    pub breakouts: Vec<(u32, String)>,
    pub ports: Vec<NxPort>,
}

#[derive(Debug, Serialize, Clone, PartialEq, Eq)]
pub struct NxIngress {
    pub name: String,
    pub queues: Vec<NxPause>,
}

#[derive(Debug, Serialize, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NxPause {
    pub class: String,
    pub buffer_size: u64,
    pub pause_threshold: u64,
    pub resume_threshold: u64,
}

#[derive(Debug, Serialize)]
pub struct NxClassMap {
    pub name: String,
    /// The fabric's classes in it (a comment), `roce` or `bulk, scavenger`.
    pub classes: String,
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
    /// The input queuing policy with this port's pause buffer.
    pub ingress: Option<String>,
}

fn in_class(q: u8) -> String {
    if q == 0 {
        "c-in-q-default".into()
    } else {
        format!("c-in-q{q}")
    }
}

/// The pause buffer lines of a lossless port, when it needs them: beyond 100 m, or with a
/// static threshold. `None` = the switch sizes the port itself.
fn pause_buffer(ctx: &SwitchContext, p: &PortContext) -> Option<Vec<NxPause>> {
    if !crate::lower::vocab::nxos_needs_pause_buffer(p) {
        return None;
    }
    let mut out: Vec<NxPause> = p
        .headroom
        .iter()
        .map(|h| {
            let queue = ctx
                .qos
                .classes
                .iter()
                .find(|c| c.lossless && c.priority == h.priority)
                .map_or(h.priority, |c| c.queue);
            let pause = crate::lower::vocab::nxos_pause_threshold(ctx, p, h);
            NxPause {
                class: in_class(queue),
                buffer_size: pause.saturating_add(h.xoff_bytes),
                pause_threshold: pause,
                resume_threshold: pause.saturating_sub(u64::from(p.mtu)),
            }
        })
        .collect();
    out.sort();
    out.dedup();
    Some(out)
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

fn ecn_args(e: Ecn) -> String {
    format!(
        "minimum-threshold {} kbytes maximum-threshold {} kbytes drop-probability {} weight 0 ecn",
        kbytes(e.min_bytes),
        kbytes(e.max_bytes),
        e.probability_percent
    )
}

pub fn view(ctx: &SwitchContext) -> Result<(NxosView, Vec<Note>), RenderError> {
    let dev = ctx.device.as_str();
    let mut notes = Vec::new();
    super::fidelity::rate_caps_not_rendered(&ctx.qos, "queue", &mut notes);
    // The steps run in the file's order, so that errors and notes keep theirs.
    if let Some(w) = ctx.watchdog {
        watchdog(dev, w, &mut notes)?;
    }
    ecn_rounding(ctx, &mut notes);
    let (class_maps, default_qos_group) = class_maps(&ctx.qos);
    let all = variants::variants(ctx);
    let queuing = queuing_policies(dev, ctx, &all)?;
    let network_qos = network_qos(ctx);
    let pause = pause_buffers(ctx);
    pause_buffer_notes(ctx, &pause, &mut notes);
    fidelity::device_managed(ctx, true, &mut notes);
    let breakouts = ctx
        .platform
        .iter()
        .flat_map(|p| &p.breakouts)
        .map(|b| (b.cage, format!("{}g-{}x", b.speed_gbps, b.ways)))
        .collect();
    let ports = ports(ctx, &all, &pause.ingress_of);
    Ok((
        NxosView {
            load_sharing: super::lb::nxos_lines(ctx),
            hostname: ctx.device.clone(),
            fabric: ctx.fabric.clone(),
            description: ctx.description.as_deref().map(escape::comment_text),
            class_maps,
            owned_class_maps: (0u8..8).map(class_map_name).collect(),
            owned_nq_classes: (1u8..8).rev().chain([0]).map(nq_class).collect(),
            owned_in_classes: (1u8..8).rev().chain([0]).map(in_class).collect(),
            classification: CLASSIFICATION_POLICY,
            network_policy: NETWORK_QOS_POLICY,
            default_qos_group,
            queuing,
            network_qos,
            ingress: pause.ingress,
            watchdog: ctx.watchdog.is_some(),
            breakouts,
            ports,
        },
        notes,
    ))
}

/// The NX-OS watchdog drops, on the platform's own timers.
fn watchdog(dev: &str, w: Watchdog, notes: &mut Vec<Note>) -> Result<(), RenderError> {
    if w.action != WatchdogAction::Drop {
        return Err(unsupported(
            dev,
            SwitchOs::Nxos,
            format!(
                "PFC watchdog action `{}`: the NX-OS watchdog drops a stormed queue; use `action drop`",
                match w.action {
                    WatchdogAction::Forward => "forward",
                    _ => "alert",
                }
            ),
        ));
    }
    // Timers the fabric does not state are not a request: NX-OS's own run, as on every
    // NX-OS fabric (docs/targets.md, report.md). Stated timers are dropped: a warning.
    let stated: Vec<String> = [
        (!w.defaults.detect, "detect", w.detect_ms),
        (!w.defaults.restore, "restore", w.restore_ms),
        (!w.defaults.poll, "poll", w.poll_ms),
    ]
    .into_iter()
    .filter(|(s, _, _)| *s)
    .map(|(_, what, ms)| format!("{what} {ms} ms"))
    .collect();
    if !stated.is_empty() {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::WatchdogDetect,
            format!(
                "only `priority-flow-control watch-dog-interval on` is configured: the platform's watchdog interval, shutdown and restore multipliers apply (Cisco: a stuck queue is polled every 100 ms), not {}",
                stated.join(" / ")
            ),
        ));
    }
    Ok(())
}

/// NX-OS takes ECN thresholds in whole `kbytes`.
fn ecn_rounding(ctx: &SwitchContext, notes: &mut Vec<Note>) {
    if ctx
        .qos
        .classes
        .iter()
        .filter_map(|c| c.ecn)
        .chain(
            ctx.ports
                .iter()
                .flat_map(|p| p.ecn.iter().filter_map(|q| q.ecn)),
        )
        .any(|e| e.min_bytes % 1000 != 0 || e.max_bytes % 1000 != 0)
    {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::EcnMarking,
            "ECN thresholds are written in whole `kbytes`, rounded up (under 1000 B more than the fabric says)",
        ));
    }
}

/// The classification class-maps, one per qos-group (classes that share a queue share its
/// class map: same qos-group, so the same treatment), and the qos-group of the default
/// class (it has none).
fn class_maps(qos: &QosPlan) -> (Vec<NxClassMap>, u8) {
    let mut by_queue: BTreeMap<u8, (Vec<String>, Vec<u8>)> = BTreeMap::new();
    let mut default_qos_group = 0;
    for c in &qos.classes {
        if c.default {
            default_qos_group = c.queue;
        } else if !c.dscps.is_empty() {
            let e = by_queue.entry(c.queue).or_default();
            e.0.push(c.name.clone());
            e.1.extend(&c.dscps);
        }
    }
    let class_maps = by_queue
        .into_iter()
        .map(|(q, (names, mut dscps))| {
            dscps.sort_unstable();
            dscps.dedup();
            NxClassMap {
                name: class_map_name(q),
                classes: escape::comment_text(&names.join(", ")),
                dscps: variants::compress(&dscps),
                qos_group: q,
            }
        })
        .collect();
    (class_maps, default_qos_group)
}

/// One queuing policy per port variant. PFC is system-wide on NX-OS (network-qos); a port
/// may only turn it off entirely.
fn queuing_policies(
    dev: &str,
    ctx: &SwitchContext,
    all: &[Variant],
) -> Result<Vec<NxQueuing>, RenderError> {
    let qos = &ctx.qos;
    for v in all {
        if !v.ports.is_empty()
            && !v.lossless_priorities.is_empty()
            && v.lossless_priorities != qos.lossless_priorities
        {
            return Err(unsupported(
                dev,
                SwitchOs::Nxos,
                format!(
                    "ports {} run a different set of lossless priorities; NX-OS sets PFC classes system-wide",
                    v.ports.join(", ")
                ),
            ));
        }
    }
    all.iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .map(|v| queuing_policy(ctx, v))
        .collect()
}

/// The network-qos classes: MTU and pause per queue, the default class last.
fn network_qos(ctx: &SwitchContext) -> Vec<NxNetworkClass> {
    let qos = &ctx.qos;
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
    network_qos
}

/// The input policies with pause buffers, and who sizes the lossless ports' headroom.
struct PauseBuffers {
    ingress: Vec<NxIngress>,
    /// Port → its input policy.
    ingress_of: BTreeMap<String, String>,
    sized_here: bool,
    sized_by_switch: bool,
    /// A dynamic threshold became a static pause threshold.
    approximated: bool,
}

/// One input policy per distinct set of pause lines, named by its cable length.
fn pause_buffers(ctx: &SwitchContext) -> PauseBuffers {
    let mut out = PauseBuffers {
        ingress: Vec::new(),
        ingress_of: BTreeMap::new(),
        sized_here: false,
        sized_by_switch: false,
        approximated: false,
    };
    for p in &ctx.ports {
        if p.lossless_priorities.is_empty() {
            continue;
        }
        let Some(queues) = pause_buffer(ctx, p) else {
            out.sized_by_switch = true;
            continue;
        };
        out.sized_here = true;
        out.approximated |= matches!(p.pause_threshold, PauseThreshold::Dynamic { .. });
        let name = match out.ingress.iter().find(|i| i.queues == queues) {
            Some(i) => i.name.clone(),
            None => {
                let base = format!("{INGRESS_POLICY}_{}M", p.cable_m);
                let n = out
                    .ingress
                    .iter()
                    .filter(|i| i.name.starts_with(&base))
                    .count();
                let name = if n == 0 {
                    base
                } else {
                    format!("{base}_{}", n + 1)
                };
                out.ingress.push(NxIngress {
                    name: name.clone(),
                    queues,
                });
                name
            }
        };
        out.ingress_of.insert(p.name.clone(), name);
    }
    out.ingress.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// What the pause buffers leave to NX-OS, and what they approximate.
fn pause_buffer_notes(ctx: &SwitchContext, pause: &PauseBuffers, notes: &mut Vec<Note>) {
    if pause.approximated {
        notes.push(Note::new(
            NoteKind::Approximated,
            Property::PauseThreshold,
            format!(
                "ports over {PAUSE_BUFFER_CABLE_M} m get a static `pause-threshold` one MTU above their lossless queues' `ecn max` (at least two MTUs, at most the model's worst-case dynamic pause point α·B/(1+α·N)), so ECN marks fully before PFC pauses: NX-OS's pause buffer takes bytes, not a dynamic threshold"
            ),
        ));
    }
    if pause.sized_by_switch {
        notes.push(Note::new(
            NoteKind::DeviceManaged,
            Property::Headroom,
            format!(
                "lossless ports up to {PAUSE_BUFFER_CABLE_M} m get no pause buffer: NX-OS sizes their headroom and pause threshold itself, and buffer pools are the platform's carving (fabricc's numbers are in report.md for reference)"
            ),
        ));
        if let Some(h) = ctx
            .ports
            .iter()
            .filter(|p| !pause.ingress_of.contains_key(&p.name))
            .flat_map(|p| &p.headroom)
            .find(|h| h.fixed)
        {
            notes.push(Note::new(
                NoteKind::NotRendered,
                Property::Headroom,
                format!(
                    "the `headroom` override ({} B on priority {}) is not configured on ports up to {PAUSE_BUFFER_CABLE_M} m: NX-OS reserves its own headroom there",
                    h.xoff_bytes, h.priority
                ),
            ));
        }
    } else if pause.sized_here {
        notes.push(Note::new(
            NoteKind::DeviceManaged,
            Property::BufferPools,
            "buffer pools are not configured: NX-OS keeps its platform buffer carving",
        ));
    }
}

/// Each port with its variant's PFC, watchdog and queuing policy, and its input policy.
fn ports(
    ctx: &SwitchContext,
    all: &[Variant],
    ingress_of: &BTreeMap<String, String>,
) -> Vec<NxPort> {
    ctx.ports
        .iter()
        .map(|p| {
            let v = variants::variant_of(all, &p.name);
            let variant = &all[v];
            NxPort {
                name: p.name.clone(),
                description: p.description.as_deref().map(escape::cli_description),
                mtu: p.mtu,
                pfc: !variant.lossless_priorities.is_empty(),
                watchdog: variant.watchdog && !variant.lossless_priorities.is_empty(),
                queuing: (v != 0).then(|| variants::variant_name(QUEUING_POLICY, v)),
                ingress: ingress_of.get(&p.name).cloned(),
            }
        })
        .collect()
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
