//! Arista EOS view: a switch context as EOS CLI values.
//!
//! In: a `SwitchContext` with `os: eos`. Out: `EosView` for `eos/running-config`.
//! Reference facts (vendors.md §2b): explicit `qos map dscp … to traffic-class` and
//! `traffic-class … to tx-queue`; one `qos profile` (trust dscp, PFC on, `priority N no-drop`,
//! watchdog, per-tx-queue `priority strict` or `no priority` + `bandwidth percent`,
//! `random-detect ecn … kbytes … max-mark-probability … weight 0`) bound per interface with
//! `service-profile`; `tx-queue N` / `random-detect ecn count` per interface; watchdog timers
//! in seconds; interface MTU at most 9214.

use serde::Serialize;

use super::context::{Ecn, Scheduling, SwitchContext, SwitchOs, WatchdogAction};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};

/// Largest interface MTU EOS accepts on the platforms in the references (examples use 9214).
pub const MAX_MTU: u32 = 9214;
const PROFILE: &str = "FABRICC_ROCE";

/// EOS front-panel name of a multi-lane port: `Ethernet<index+1>/1`.
pub fn port_name(index: u32) -> String {
    format!("Ethernet{}/1", index.saturating_add(1))
}

#[derive(Debug, Serialize)]
pub struct EosView {
    pub hostname: String,
    pub description: Option<String>,
    /// `(dscp, tc)` for all 64 DSCPs.
    pub dscp_map: Vec<(u8, u8)>,
    /// `(tc, tx-queue)` for every class.
    pub tc_queue: Vec<(u8, u8)>,
    pub watchdog: Option<EosWatchdog>,
    pub profiles: Vec<EosProfile>,
    pub ports: Vec<EosPort>,
}

#[derive(Debug, Serialize)]
pub struct EosWatchdog {
    pub timeout: String,
    pub recovery: String,
    pub polling: String,
    pub action: &'static str,
}

#[derive(Debug, Serialize)]
pub struct EosProfile {
    pub name: String,
    pub lossless_priorities: Vec<u8>,
    pub watchdog: bool,
    pub queues: Vec<EosQueue>,
}

#[derive(Debug, Serialize)]
pub struct EosQueue {
    pub queue: u8,
    pub class: String,
    pub strict: bool,
    pub bandwidth: u8,
    /// Pre-formatted `random-detect ecn …` arguments.
    pub ecn: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct EosPort {
    pub name: String,
    pub description: Option<String>,
    pub mtu: u32,
    pub profile: String,
    pub ecn_queues: Vec<u8>,
}

/// Seconds as EOS prints them: `200` ms → `0.2`, `1000` → `1`.
pub fn seconds(ms: u32) -> String {
    let whole = ms / 1000;
    let frac = ms % 1000;
    if frac == 0 {
        whole.to_string()
    } else {
        let f = format!("{frac:03}");
        format!("{whole}.{}", f.trim_end_matches('0'))
    }
}

/// A byte threshold with its EOS unit keyword: whole kilobytes as `kbytes` (vendors.md §0:
/// 150000 B = `150 kbytes`), anything else exactly in `bytes`.
pub fn threshold(bytes: u64) -> String {
    if bytes.is_multiple_of(1000) {
        format!("{} kbytes", bytes / 1000)
    } else {
        format!("{bytes} bytes")
    }
}

fn ecn_args(e: Ecn) -> String {
    format!(
        "minimum-threshold {} maximum-threshold {} max-mark-probability {} weight 0",
        threshold(e.min_bytes),
        threshold(e.max_bytes),
        e.probability_percent
    )
}

pub fn view(ctx: &SwitchContext) -> Result<EosView, RenderError> {
    let dev = ctx.device.as_str();
    let err = |m: String| unsupported(dev, SwitchOs::Eos, m);
    let watchdog = match ctx.watchdog {
        None => None,
        Some(w) => {
            let action = match w.action {
                WatchdogAction::Drop => "drop",
                WatchdogAction::Forward => "no-drop",
                WatchdogAction::Alert => return Err(err("PFC watchdog action `alert`".into())),
            };
            // EOS: polling ≤ min(timeout, recovery) / 2, timers 0.01–60 s [2nd].
            if u64::from(w.poll_ms) * 2 > u64::from(w.detect_ms.min(w.restore_ms))
                || w.detect_ms < 10
                || w.restore_ms < 10
                || w.detect_ms > 60000
                || w.restore_ms > 60000
                || w.poll_ms < 5
            {
                return Err(err(format!(
                    "PFC watchdog poll {} ms must be ≤ half of detect {} ms and restore {} ms",
                    w.poll_ms, w.detect_ms, w.restore_ms
                )));
            }
            Some(EosWatchdog {
                timeout: seconds(w.detect_ms),
                recovery: seconds(w.restore_ms),
                polling: seconds(w.poll_ms),
                action,
            })
        }
    };
    let all = variants::variants(ctx);
    let profiles = all
        .iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .map(|v| profile(ctx, v))
        .collect();
    let ports = ctx
        .ports
        .iter()
        .map(|p| {
            let v = variants::variant_of(&all, &p.name);
            EosPort {
                name: p.name.clone(),
                description: p.description.as_deref().map(escape::cli_description),
                mtu: p.mtu.min(MAX_MTU),
                profile: variants::variant_name(PROFILE, v),
                ecn_queues: p
                    .ecn
                    .iter()
                    .filter(|q| q.ecn.is_some())
                    .map(|q| q.queue)
                    .collect(),
            }
        })
        .collect();
    let mut tc_queue: Vec<(u8, u8)> = ctx.qos.classes.iter().map(|c| (c.tc, c.queue)).collect();
    tc_queue.sort_unstable();
    tc_queue.dedup();
    Ok(EosView {
        hostname: ctx.device.clone(),
        description: ctx.description.as_deref().map(escape::comment_text),
        dscp_map: (0u8..).zip(ctx.qos.dscp_to_tc.iter().copied()).collect(),
        tc_queue,
        watchdog,
        profiles,
        ports,
    })
}

fn profile(ctx: &SwitchContext, v: &Variant) -> EosProfile {
    let mut queues: Vec<EosQueue> = ctx
        .qos
        .classes
        .iter()
        .map(|c| {
            let (strict, bandwidth) = match c.scheduling {
                Scheduling::Strict => (true, 0),
                Scheduling::Ets { weight_percent } => (false, weight_percent),
            };
            EosQueue {
                queue: c.queue,
                class: c.name.clone(),
                strict,
                bandwidth,
                ecn: variants::ecn_of(v, c.queue).map(ecn_args),
            }
        })
        .collect();
    queues.sort_by_key(|q| q.queue);
    EosProfile {
        name: variants::variant_name(PROFILE, v.index),
        lossless_priorities: v.lossless_priorities.clone(),
        watchdog: v.watchdog,
        queues,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(seconds(200), "0.2");
        assert_eq!(seconds(1000), "1");
        assert_eq!(seconds(1250), "1.25");
        assert_eq!(seconds(5), "0.005");
        assert_eq!(threshold(150_000), "150 kbytes");
        assert_eq!(threshold(150_001), "150001 bytes");
    }
}
