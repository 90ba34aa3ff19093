//! Juniper Junos (QFX) view: a switch context as Junos configuration values.
//!
//! In: a `SwitchContext` with `os: junos`. Out: `JunosView` for `junos/config`.
//! Reference facts (vendors.md §2d): a DSCP classifier with **binary** code points; one
//! forwarding class per class (`queue-num`, `no-loss pfc-priority <p>` for lossless ones);
//! drop profiles in **percent fill level of the queue buffer** (converted here from bytes
//! through `BufferPlan::lossless_queue_buffer_bytes`) with `drop-probability [ 0 P ]`;
//! schedulers with `explicit-congestion-notification` on marking queues and
//! `priority strict-high` for strict classes; a congestion-notification-profile with
//! `pfc-watchdog`, `input dscp code-point … pfc` and `output ieee-802.1 code-point …
//! flow-control-queue …`; shared-buffer partitions in percent; interface `mtu`.

use serde::Serialize;

use super::context::{Ecn, Scheduling, SwitchContext, SwitchOs, WatchdogAction};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};

pub const CLASSIFIER: &str = "fabricc-dscp";

/// Junos front-panel name: `et-0/0/<index>`.
pub fn port_name(index: u32) -> String {
    format!("et-0/0/{index}")
}

/// A DSCP as a 6-bit binary code point (`26` → `011010`).
pub fn dscp_bits(dscp: u8) -> String {
    format!("{:06b}", dscp & 0x3f)
}

/// An 802.1p priority as a 3-bit binary code point (`3` → `011`).
pub fn pcp_bits(priority: u8) -> String {
    format!("{:03b}", priority & 0x7)
}

/// Bytes as a percent of the queue buffer, rounded to nearest, clamped to 1..=100.
pub fn fill_percent(bytes: u64, queue_buffer: u64) -> u64 {
    if queue_buffer == 0 {
        return 100;
    }
    let pct = (u128::from(bytes) * 100 + u128::from(queue_buffer) / 2) / u128::from(queue_buffer);
    u64::try_from(pct).unwrap_or(100).clamp(1, 100)
}

#[derive(Debug, Serialize)]
pub struct JunosView {
    pub hostname: String,
    pub description: Option<String>,
    pub classifier: &'static str,
    pub forwarding_classes: Vec<JForwardingClass>,
    pub drop_profiles: Vec<JDropProfile>,
    pub schedulers: Vec<JScheduler>,
    pub scheduler_maps: Vec<JSchedulerMap>,
    pub cn_profiles: Vec<JCnProfile>,
    pub buffer: JBuffer,
    pub ports: Vec<JPort>,
}

#[derive(Debug, Serialize)]
pub struct JForwardingClass {
    pub name: String,
    pub queue: u8,
    pub pfc_priority: Option<u8>,
    /// 6-bit binary DSCP code points.
    pub code_points: Vec<String>,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct JDropProfile {
    pub name: String,
    pub min_percent: u64,
    pub max_percent: u64,
    pub probability: u8,
}

#[derive(Debug, Serialize)]
pub struct JScheduler {
    pub name: String,
    pub strict: bool,
    pub transmit_percent: Option<u8>,
    pub drop_profile: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct JSchedulerMap {
    pub name: String,
    /// `(forwarding class, scheduler)`.
    pub entries: Vec<(String, String)>,
}

#[derive(Debug, Serialize)]
pub struct JCnProfile {
    pub name: String,
    pub watchdog: Option<JWatchdog>,
    /// 6-bit DSCP code points that trigger PFC.
    pub input_code_points: Vec<String>,
    /// `(3-bit priority, queue)`.
    pub output: Vec<(String, u8)>,
}

#[derive(Debug, Serialize, Clone, Copy)]
pub struct JWatchdog {
    pub poll_interval_ms: u32,
    /// Poll intervals without progress before the queue counts as stormed.
    pub detection: u32,
    pub recovery_ms: u32,
}

#[derive(Debug, Serialize)]
pub struct JBuffer {
    pub ingress_lossless: u64,
    pub ingress_headroom: Option<u64>,
    pub ingress_lossy: u64,
    pub egress_lossless: u64,
    pub egress_lossy: u64,
}

#[derive(Debug, Serialize)]
pub struct JPort {
    pub name: String,
    pub description: Option<String>,
    pub mtu: u32,
    pub cn_profile: Option<String>,
    pub scheduler_map: String,
}

fn percent_of(part: u64, total: u64) -> u64 {
    if total == 0 {
        0
    } else {
        u64::try_from(u128::from(part) * 100 / u128::from(total)).unwrap_or(100)
    }
}

pub fn view(ctx: &SwitchContext) -> Result<JunosView, RenderError> {
    let dev = ctx.device.as_str();
    let err = |m: String| unsupported(dev, SwitchOs::Junos, m);
    let qos = &ctx.qos;
    let b = &ctx.buffer;
    if b.lossless_queue_buffer_bytes == 0 {
        return Err(err(
            "the lossless queue buffer size is needed for fill-level percentages".into(),
        ));
    }

    let forwarding_classes = qos
        .classes
        .iter()
        .map(|c| JForwardingClass {
            name: c.name.clone(),
            queue: c.queue,
            pfc_priority: (c.lossless && qos.lossless_priorities.contains(&c.priority))
                .then_some(c.priority),
            code_points: c.dscps.iter().map(|&d| dscp_bits(d)).collect(),
        })
        .collect();

    let watchdog = match ctx.watchdog {
        None => None,
        Some(w) if w.action != WatchdogAction::Drop => {
            return Err(err("PFC watchdog action other than drop".into()));
        }
        Some(w) => Some(JWatchdog {
            poll_interval_ms: w.poll_ms,
            detection: w.detect_ms.div_ceil(w.poll_ms.max(1)),
            recovery_ms: w.restore_ms,
        }),
    };

    let all: Vec<Variant> = variants::variants(ctx)
        .into_iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .collect();
    let mut drop_profiles: Vec<JDropProfile> = Vec::new();
    let mut schedulers = Vec::new();
    let mut scheduler_maps = Vec::new();
    let mut cn_profiles: Vec<JCnProfile> = Vec::new();
    let mut cn_names: Vec<(usize, String)> = Vec::new();
    for v in &all {
        let suffix = if v.index == 0 {
            String::new()
        } else {
            format!("-{}", v.index + 1)
        };
        let mut entries = Vec::new();
        for c in &qos.classes {
            let drop_profile = variants::ecn_of(v, c.queue).map(|e| {
                let dp = drop_profile(e, b.lossless_queue_buffer_bytes);
                let name = dp.name.clone();
                if !drop_profiles.contains(&dp) {
                    drop_profiles.push(dp);
                }
                name
            });
            let (strict, transmit_percent) = match c.scheduling {
                Scheduling::Strict => (true, None),
                Scheduling::Ets { weight_percent } => (false, Some(weight_percent)),
            };
            // A variant reuses the base scheduler of a class when nothing differs, so an
            // override only adds the schedulers it changes.
            let base = format!("s-{}", c.name);
            let same = |s: &JScheduler| {
                s.strict == strict
                    && s.transmit_percent == transmit_percent
                    && s.drop_profile == drop_profile
            };
            let name = match schedulers.iter().find(|s: &&JScheduler| s.name == base) {
                Some(existing) if same(existing) => base,
                _ => {
                    let name = format!("s-{}{suffix}", c.name);
                    schedulers.push(JScheduler {
                        name: name.clone(),
                        strict,
                        transmit_percent,
                        drop_profile,
                    });
                    name
                }
            };
            entries.push((c.name.clone(), name));
        }
        scheduler_maps.push(JSchedulerMap {
            name: format!("sm-fabricc{suffix}"),
            entries,
        });
        let lossless: Vec<_> = qos
            .classes
            .iter()
            .filter(|c| c.lossless && v.lossless_priorities.contains(&c.priority))
            .collect();
        if !lossless.is_empty() {
            let mut input: Vec<u8> = lossless
                .iter()
                .flat_map(|c| c.dscps.iter().copied())
                .collect();
            input.sort_unstable();
            input.dedup();
            let mut output: Vec<(String, u8)> = lossless
                .iter()
                .map(|c| (pcp_bits(c.priority), c.queue))
                .collect();
            output.sort();
            output.dedup();
            let input_code_points: Vec<String> = input.into_iter().map(dscp_bits).collect();
            let wd = if v.watchdog { watchdog } else { None };
            // Variants that differ only in ECN share the congestion-notification profile.
            let existing = cn_profiles.iter().find(|p: &&JCnProfile| {
                p.input_code_points == input_code_points
                    && p.output == output
                    && p.watchdog.is_some() == wd.is_some()
            });
            let name = match existing {
                Some(p) => p.name.clone(),
                None => {
                    let name = format!("cnp-fabricc{suffix}");
                    cn_profiles.push(JCnProfile {
                        name: name.clone(),
                        watchdog: wd,
                        input_code_points,
                        output,
                    });
                    name
                }
            };
            cn_names.push((v.index, name));
        }
    }
    drop_profiles.sort_by(|a, b| a.name.cmp(&b.name));

    let ingress_lossless = percent_of(b.ingress_lossless_pool_bytes, b.total_bytes);
    let ingress_headroom = b
        .shared_headroom_pool_bytes
        .map(|h| percent_of(h, b.total_bytes));
    let used = ingress_lossless + ingress_headroom.unwrap_or(0);
    let egress_lossless = percent_of(b.egress_lossless_pool_bytes, b.total_bytes);
    let egress_lossy = percent_of(b.egress_lossy_pool_bytes, b.total_bytes);
    if used > 100 || egress_lossless + egress_lossy > 100 {
        return Err(err(
            "buffer partitions exceed 100 percent of the switch buffer".into(),
        ));
    }
    let buffer = JBuffer {
        ingress_lossless,
        ingress_headroom,
        ingress_lossy: 100 - used,
        egress_lossless,
        egress_lossy,
    };

    let full = variants::variants(ctx);
    let ports = ctx
        .ports
        .iter()
        .map(|p| {
            let v = variants::variant_of(&full, &p.name);
            let suffix = if v == 0 {
                String::new()
            } else {
                format!("-{}", v + 1)
            };
            JPort {
                name: p.name.clone(),
                description: p.description.as_deref().map(escape::junos_string),
                mtu: p.mtu,
                cn_profile: cn_names
                    .iter()
                    .find(|(i, _)| *i == v)
                    .map(|(_, n)| n.clone()),
                scheduler_map: format!("sm-fabricc{suffix}"),
            }
        })
        .collect();

    Ok(JunosView {
        hostname: ctx.device.clone(),
        description: ctx.description.as_deref().map(escape::comment_text),
        classifier: CLASSIFIER,
        forwarding_classes,
        drop_profiles,
        schedulers,
        scheduler_maps,
        cn_profiles,
        buffer,
        ports,
    })
}

fn drop_profile(e: Ecn, queue_buffer: u64) -> JDropProfile {
    let min = fill_percent(e.min_bytes, queue_buffer);
    let max = fill_percent(e.max_bytes, queue_buffer).max(min);
    JDropProfile {
        name: format!("dp-{min}-{max}-{}", e.probability_percent),
        min_percent: min,
        max_percent: max,
        probability: e.probability_percent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_points_and_percent() {
        assert_eq!(dscp_bits(26), "011010");
        assert_eq!(dscp_bits(48), "110000");
        assert_eq!(pcp_bits(3), "011");
        assert_eq!(fill_percent(150_000, 1_000_000), 15);
        assert_eq!(fill_percent(1, 1_000_000), 1);
        assert_eq!(fill_percent(5_000_000, 1_000_000), 100);
    }
}
