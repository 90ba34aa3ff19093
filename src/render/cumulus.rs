//! NVIDIA Cumulus Linux (NVUE) view: a switch context as NVUE values.
//!
//! In: a `SwitchContext` with `os: cumulus`. Out: `CumulusView`, printed twice: as
//! `nv set` commands (`cumulus/nvue.sh`) and as NVUE YAML (`cumulus/startup.yaml`).
//! Reference facts (vendors.md §2a, the explicit form): `qos mapping default-global trust
//! both` and DSCP → switch-priority; `egress-queue-mapping` switch-priority → traffic-class;
//! traffic pools in percent; `pfc default-global` switch-priority, tx/rx, `cable-length`
//! (metres); `congestion-control … traffic-class N ecn enable`, thresholds in **bytes**,
//! probability percent; `egress-scheduler` strict / dwrr + `bw-percent`; `pfc-watchdog
//! polling-interval` (ms) and `robustness` (intervals); per interface `link mtu` and
//! `qos pfc-watchdog`.

use serde::Serialize;

use super::context::{Scheduling, SwitchContext, SwitchOs, WatchdogAction};
use super::variants;
use super::{RenderError, escape, unsupported};

pub const DEFAULT_PROFILE: &str = "default-global";

/// Cumulus front-panel name: `swp<index+1>`.
pub fn port_name(index: u32) -> String {
    format!("swp{}", index.saturating_add(1))
}

#[derive(Debug, Serialize)]
pub struct CumulusView {
    pub hostname: String,
    pub description: Option<String>,
    /// `(dscp, switch-priority)` for all 64 DSCPs.
    pub dscp_map: Vec<(u8, u8)>,
    /// `(switch-priority, traffic-class)` for all 8 priorities.
    pub egress_map: Vec<(u8, u8)>,
    pub lossless_priorities: Vec<u8>,
    pub lossless_pool_percent: u64,
    pub lossy_pool_percent: u64,
    /// Longest cable of a lossless port (one `default-global` PFC profile for all ports).
    pub cable_length: u32,
    pub ecn_profiles: Vec<CEcnProfile>,
    pub schedulers: Vec<CScheduler>,
    pub watchdog: Option<CWatchdog>,
    pub ports: Vec<CPort>,
}

#[derive(Debug, Serialize)]
pub struct CEcnProfile {
    pub name: String,
    pub queues: Vec<CEcnQueue>,
}

#[derive(Debug, Serialize)]
pub struct CEcnQueue {
    pub tc: u8,
    pub enable: bool,
    pub min_bytes: u64,
    pub max_bytes: u64,
    pub probability: u8,
}

#[derive(Debug, Serialize)]
pub struct CScheduler {
    pub tc: u8,
    pub strict: bool,
    pub bw_percent: u8,
}

#[derive(Debug, Serialize)]
pub struct CWatchdog {
    pub polling_interval_ms: u32,
    pub robustness: u32,
}

#[derive(Debug, Serialize)]
pub struct CPort {
    pub name: String,
    /// `'text'` for the shell, already quoted.
    pub description_shell: Option<String>,
    /// `"text"` for YAML, already quoted.
    pub description_yaml: Option<String>,
    pub mtu: u32,
    pub watchdog: bool,
    /// A congestion-control profile other than `default-global`.
    pub ecn_profile: Option<String>,
}

pub fn view(ctx: &SwitchContext) -> Result<CumulusView, RenderError> {
    let dev = ctx.device.as_str();
    let err = |m: String| unsupported(dev, SwitchOs::Cumulus, m);
    let qos = &ctx.qos;

    // DSCP → switch-priority: the class that lists the DSCP, else the class of its TC.
    let mut dscp_map = Vec::with_capacity(64);
    for (dscp, &tc) in (0u8..).zip(qos.dscp_to_tc.iter()) {
        let class = qos
            .classes
            .iter()
            .find(|c| c.dscps.contains(&dscp))
            .or_else(|| qos.classes.iter().find(|c| c.tc == tc));
        dscp_map.push((dscp, class.map_or(0, |c| c.priority)));
    }
    let egress_map = (0u8..8)
        .map(|sp| {
            (
                sp,
                qos.classes
                    .iter()
                    .find(|c| c.priority == sp)
                    .map_or(0, |c| c.queue),
            )
        })
        .collect();

    let watchdog = match ctx.watchdog {
        None => None,
        Some(w) if w.action != WatchdogAction::Drop => {
            return Err(err("PFC watchdog action other than drop".into()));
        }
        Some(w) => Some(CWatchdog {
            polling_interval_ms: w.poll_ms,
            robustness: w.detect_ms.div_ceil(w.poll_ms.max(1)),
        }),
    };

    let all = variants::variants(ctx);
    for v in &all {
        if !v.ports.is_empty() && v.lossless_priorities != qos.lossless_priorities {
            return Err(err(format!(
                "ports {} run other lossless priorities than the `default-global` PFC profile",
                v.ports.join(", ")
            )));
        }
    }
    let ecn_profiles = all
        .iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .map(|v| CEcnProfile {
            name: ecn_profile_name(v.index),
            queues: v
                .ecn
                .iter()
                .map(|q| CEcnQueue {
                    tc: q.queue,
                    enable: q.ecn.is_some(),
                    min_bytes: q.ecn.map_or(0, |e| e.min_bytes),
                    max_bytes: q.ecn.map_or(0, |e| e.max_bytes),
                    probability: q.ecn.map_or(0, |e| e.probability_percent),
                })
                .collect(),
        })
        .collect();

    let mut schedulers: Vec<CScheduler> = qos
        .classes
        .iter()
        .map(|c| match c.scheduling {
            Scheduling::Strict => CScheduler {
                tc: c.queue,
                strict: true,
                bw_percent: 0,
            },
            Scheduling::Ets { weight_percent } => CScheduler {
                tc: c.queue,
                strict: false,
                bw_percent: weight_percent,
            },
        })
        .collect();
    schedulers.sort_by_key(|s| s.tc);

    let b = &ctx.buffer;
    let lossless_pool_percent = if b.total_bytes == 0 {
        0
    } else {
        u64::try_from(u128::from(b.ingress_lossless_pool_bytes) * 100 / u128::from(b.total_bytes))
            .unwrap_or(100)
            .min(100)
    };

    let ports = ctx
        .ports
        .iter()
        .map(|p| {
            let v = variants::variant_of(&all, &p.name);
            CPort {
                name: p.name.clone(),
                description_shell: p
                    .description
                    .as_deref()
                    .map(|d| escape::shell_quote(&escape::sanitize_text(d))),
                description_yaml: p
                    .description
                    .as_deref()
                    .map(|d| escape::yaml_quote(&escape::sanitize_text(d))),
                mtu: p.mtu,
                watchdog: all[v].watchdog && !p.lossless_priorities.is_empty(),
                ecn_profile: (v != 0).then(|| ecn_profile_name(v)),
            }
        })
        .collect();

    Ok(CumulusView {
        hostname: ctx.device.clone(),
        description: ctx.description.as_deref().map(escape::comment_text),
        dscp_map,
        egress_map,
        lossless_priorities: qos.lossless_priorities.clone(),
        lossless_pool_percent,
        lossy_pool_percent: 100 - lossless_pool_percent,
        cable_length: ctx
            .ports
            .iter()
            .filter(|p| !p.lossless_priorities.is_empty())
            .map(|p| p.cable_m)
            .max()
            .unwrap_or(10),
        ecn_profiles,
        schedulers,
        watchdog,
        ports,
    })
}

fn ecn_profile_name(index: usize) -> String {
    if index == 0 {
        DEFAULT_PROFILE.to_string()
    } else {
        format!("fabricc-ecn-{}", index + 1)
    }
}
