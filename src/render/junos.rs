//! Juniper Junos (QFX) view: a switch context as Junos configuration values.
//!
//! In: a `SwitchContext` with `os: junos`. Out: `JunosView` for `junos/qos.conf`, and the
//! notes of what Junos is left to decide. The file is one configuration group, `groups {
//! replace: fabricc { … } }` with `apply-groups fabricc`, applied with `load replace`: the tag
//! replaces the whole group ("Loading Configuration Files", Junos CLI User Guide), so a new
//! build leaves nothing of an earlier one behind and touches nothing outside the group (no
//! host-name, no units; docs/change/junos.md). Object names say what they are, never the
//! values they carry (`dp-<class>`, `s-<class>`, `cnp-fabricc-<cable>m`), so a threshold
//! change is one changed line.
//! Junos conventions (docs/targets.md; Juniper's QFX class-of-service documentation and its
//! YANG models, github.com/Juniper/yang 24.2R1.17): a DSCP classifier with **binary** code
//! points; one
//! forwarding class per class (`queue-num`, `no-loss pfc-priority <p>` for lossless ones);
//! drop profiles in **percent fill level of the queue buffer** (converted here from bytes
//! through `BufferPlan::lossless_queue_buffer_bytes`) with `drop-probability [ 0 P ]`;
//! schedulers with `explicit-congestion-notification` on marking queues and
//! `priority strict-high` for strict classes; a congestion-notification-profile with
//! `pfc-watchdog`, `input dscp code-point … pfc` and `output ieee-802.1 code-point …
//! flow-control-queue …`; shared-buffer partitions in percent; interface `mtu`.
//!
//! Decisions, with their evidence:
//! * Ingress and egress lossless partitions are the same percent (J1; `lower`).
//! * Fill levels are whole percent of the buffer one queue may hold, α/(1+α) of its egress
//!   partition (lossless queues: the lossless partition; lossy queues: the lossy one). The
//!   file states that base in a comment; a threshold under 1 % or a min/max pair that rounds
//!   to one value is reported and written as 1 % / min + 1 %, never as `[ 1 1 ]` (fill levels
//!   must differ: "The low value must be less than the high value", Juniper fill-level
//!   reference).
//! * Each CN profile says its ports' `input cable-length` (metres; Junos sizes PFC headroom
//!   from it and assumes 100 m otherwise, Juniper `cable-length` reference), one profile per
//!   cable length.
//! * The CNP scheduler is `priority strict-high` with `transmit-rate percent 5`, as Juniper's
//!   DCQCN configlet for QFX5220/5230/5240 (Apstra 6.1 "Create and Import a DCQCN Configlet");
//!   the ETS transmit rates share the other 95 %. A class's `rate N%` replaces that 5 % on a
//!   strict class and adds `shaping-rate percent N`, the queue's maximum ("Configure the
//!   shaping rate … a maximum bandwidth … for a queue", Junos `shaping-rate` reference for the
//!   QFX Series, juniper.net/documentation/en_US/junos13.2/topics/reference/
//!   configuration-statement/shaping-rate-edit-class-of-service.html).
//! * `watchdog-action` is `drop` or `forward` (YANG `pfc-watchdog/watchdog-action`).

use serde::Serialize;

use super::context::{
    BufferPlan, ClassContext, Ecn, QosPlan, Scheduling, SwitchContext, SwitchOs, Watchdog,
    WatchdogAction,
};
use super::eos::fixed_headroom_and_static_threshold;
use super::fidelity::{self, Note, NoteKind, Property};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};

/// The CNP scheduler's transmit rate, as Juniper's DCQCN configlet.
pub const CNP_TRANSMIT_PERCENT: u8 = 5;

pub const CLASSIFIER: &str = "fabricc-dscp";

pub use crate::lower::vocab::{
    junos_fill_bytes as fill_bytes, junos_fill_percent as fill_percent,
    junos_lossy_queue_bytes as lossy_queue_bytes, junos_port_name as port_name,
};

/// A DSCP as a 6-bit binary code point (`26` → `011010`).
pub fn dscp_bits(dscp: u8) -> String {
    format!("{:06b}", dscp & 0x3f)
}

/// An 802.1p priority as a 3-bit binary code point (`3` → `011`).
pub fn pcp_bits(priority: u8) -> String {
    format!("{:03b}", priority & 0x7)
}

/// ETS weights scaled to `room` percent (largest remainder, ties to the lower index), so the
/// transmit rates plus the CNP's stay within 100 %.
pub fn scale_weights(weights: &[u8], room: u8) -> Vec<u8> {
    let total: u32 = weights.iter().map(|&w| u32::from(w)).sum();
    if total == 0 {
        return weights.to_vec();
    }
    let exact: Vec<u32> = weights
        .iter()
        .map(|&w| u32::from(w) * u32::from(room))
        .collect();
    let mut out: Vec<u32> = exact.iter().map(|e| e / total).collect();
    let mut left = u32::from(room).min(total) - out.iter().sum::<u32>().min(u32::from(room));
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(exact[i] % total), i));
    for i in order {
        if left == 0 {
            break;
        }
        if weights[i] > 0 {
            out[i] += 1;
            left -= 1;
        }
    }
    out.into_iter()
        .map(|v| u8::try_from(v).unwrap_or(100))
        .collect()
}

#[derive(Debug, Serialize)]
pub struct JBreakout {
    /// The cage's unbroken name, `et-0/0/0`.
    pub port: String,
    pub ways: u32,
    /// `400g`.
    pub speed: String,
}

#[derive(Debug, Serialize)]
pub struct JunosView {
    pub hostname: String,
    /// `forwarding-options enhanced-hash-key` (`render::lb`).
    pub lb: super::lb::JunosLb,
    pub fabric: String,
    pub description: Option<String>,
    /// The fill-level base, stated in the file: what one queue may hold.
    pub fill_base: JFillBase,
    pub classifier: &'static str,
    pub forwarding_classes: Vec<JForwardingClass>,
    pub drop_profiles: Vec<JDropProfile>,
    pub schedulers: Vec<JScheduler>,
    pub scheduler_maps: Vec<JSchedulerMap>,
    pub cn_profiles: Vec<JCnProfile>,
    pub buffer: JBuffer,
    /// Broken-out cages (QFX5240 only, see `render`).
    pub breakouts: Vec<JBreakout>,
    pub ports: Vec<JPort>,
}

#[derive(Debug, Serialize)]
pub struct JFillBase {
    /// α as text (`1`, `1/2`, `2`).
    pub alpha: String,
    pub share_percent: u64,
    pub lossless_queue_bytes: u64,
    pub lossy_queue_bytes: u64,
}

#[derive(Debug, Serialize)]
pub struct JForwardingClass {
    pub name: String,
    pub queue: u8,
    pub pfc_priority: Option<u8>,
    /// 6-bit binary DSCP code points.
    pub code_points: Vec<String>,
}

#[derive(Debug, Serialize, PartialEq, Eq, Clone)]
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
    /// `shaping-rate percent N`: the class's `rate` cap.
    pub shaping_percent: Option<u8>,
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
    /// Cable length of the ports bound to this profile, metres.
    pub cable_length: u32,
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
    /// `drop` or `forward`.
    pub action: &'static str,
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

pub fn view(ctx: &SwitchContext) -> Result<(JunosView, Vec<Note>), RenderError> {
    let dev = ctx.device.as_str();
    let mut notes = Vec::new();
    let qos = &ctx.qos;
    let b = &ctx.buffer;
    let lossy_queue = lossy_queue_bytes(b);
    if b.lossless_queue_buffer_bytes == 0 {
        return Err(unsupported(
            dev,
            SwitchOs::Junos,
            "the lossless queue buffer size is needed for fill-level percentages",
        ));
    }
    // The steps run in the file's order, so that errors and notes keep theirs.
    let forwarding_classes = forwarding_classes(qos);
    let watchdog = watchdog(dev, ctx.watchdog, &mut notes)?;
    let rates = transmit_rates(dev, qos, &mut notes)?;
    let policies = class_policies(ctx, &rates, watchdog, lossy_queue, &mut notes);
    let buffer = buffer_partitions(dev, b)?;
    let ports = ports(ctx, &policies.cn_names);
    let breakouts = headroom_notes_and_breakouts(ctx, &mut notes);
    Ok((
        JunosView {
            lb: super::lb::junos_lb(ctx),
            hostname: ctx.device.clone(),
            fabric: ctx.fabric.clone(),
            description: ctx.description.as_deref().map(escape::comment_text),
            fill_base: fill_base(b, lossy_queue),
            classifier: CLASSIFIER,
            forwarding_classes,
            drop_profiles: policies.drop_profiles,
            schedulers: policies.schedulers,
            scheduler_maps: policies.scheduler_maps,
            cn_profiles: policies.cn_profiles,
            buffer,
            breakouts,
            ports,
        },
        notes,
    ))
}

fn forwarding_classes(qos: &QosPlan) -> Vec<JForwardingClass> {
    qos.classes
        .iter()
        .map(|c| JForwardingClass {
            name: c.name.clone(),
            queue: c.queue,
            pfc_priority: (c.lossless && qos.lossless_priorities.contains(&c.priority))
                .then_some(c.priority),
            code_points: c.dscps.iter().map(|&d| dscp_bits(d)).collect(),
        })
        .collect()
}

/// The CN profiles' `pfc-watchdog`: Junos counts detection in poll intervals.
fn watchdog(
    dev: &str,
    watchdog: Option<Watchdog>,
    notes: &mut Vec<Note>,
) -> Result<Option<JWatchdog>, RenderError> {
    let Some(w) = watchdog else {
        return Ok(None);
    };
    let action = match w.action {
        WatchdogAction::Drop => "drop",
        WatchdogAction::Forward => "forward",
        WatchdogAction::Alert => {
            return Err(unsupported(
                dev,
                SwitchOs::Junos,
                "PFC watchdog action `alert`: the Junos watchdog drops or forwards a stormed queue (`watchdog-action drop|forward`)",
            ));
        }
    };
    let poll = w.poll_ms.max(1);
    let detection = w.detect_ms.div_ceil(poll);
    if detection * poll != w.detect_ms {
        notes.push(Note::new(
            NoteKind::Approximated,
            Property::WatchdogDetect,
            format!(
                "detection counts poll intervals: detect {} ms becomes {detection} × {poll} ms = {} ms",
                w.detect_ms,
                detection * poll
            ),
        ));
    }
    Ok(Some(JWatchdog {
        poll_interval_ms: poll,
        detection,
        recovery_ms: w.restore_ms,
        action,
    }))
}

/// Strict schedulers with a transmit rate: a class's `rate`, else the CNP class's 5 %.
fn strict_rate(c: &ClassContext) -> Option<u8> {
    match (c.scheduling, c.rate_percent) {
        (Scheduling::Strict, Some(r)) => Some(r),
        (Scheduling::Strict, None) if c.cnp => Some(CNP_TRANSMIT_PERCENT),
        _ => None,
    }
}

/// Each class's ETS transmit rate (0 for strict classes): the ETS classes share what the
/// strict transmit rates leave.
fn transmit_rates(dev: &str, qos: &QosPlan, notes: &mut Vec<Note>) -> Result<Vec<u8>, RenderError> {
    let cnp_strict = qos
        .classes
        .iter()
        .any(|c| c.cnp && c.scheduling == Scheduling::Strict);
    let ets: Vec<u8> = qos
        .classes
        .iter()
        .map(|c| match c.scheduling {
            Scheduling::Ets { weight_percent } => weight_percent,
            Scheduling::Strict => 0,
        })
        .collect();
    let strict_total: u32 = qos
        .classes
        .iter()
        .filter_map(strict_rate)
        .map(u32::from)
        .sum();
    if strict_total >= 100 && ets.iter().any(|&w| w > 0) {
        return Err(unsupported(
            dev,
            SwitchOs::Junos,
            format!(
                "the strict classes' transmit rates sum to {strict_total}%, leaving nothing for the ETS classes"
            ),
        ));
    }
    let left = u8::try_from(100u32.saturating_sub(strict_total)).unwrap_or(0);
    let rates = if strict_total > 0 {
        scale_weights(&ets, left)
    } else {
        ets.clone()
    };
    if rates != ets {
        let why = if cnp_strict && qos.classes.iter().all(|c| c.rate_percent.is_none()) {
            format!(
                "the strict CNP scheduler gets `transmit-rate percent {CNP_TRANSMIT_PERCENT}` (Juniper's DCQCN configlet)"
            )
        } else {
            format!("the strict schedulers get `transmit-rate percent` {strict_total}% in all")
        };
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::Scheduling,
            format!("{why}, so the ETS transmit rates are scaled to the other {left}%"),
        ));
    }
    Ok(rates)
}

/// The class-of-service objects of every port variant, shared between variants wherever
/// they agree.
#[derive(Default)]
struct Policies {
    drop_profiles: Vec<JDropProfile>,
    schedulers: Vec<JScheduler>,
    scheduler_maps: Vec<JSchedulerMap>,
    cn_profiles: Vec<JCnProfile>,
    /// `(variant, cable length, CN profile)`, for the ports.
    cn_names: Vec<(usize, u32, String)>,
}

fn class_policies(
    ctx: &SwitchContext,
    rates: &[u8],
    watchdog: Option<JWatchdog>,
    lossy_queue: u64,
    notes: &mut Vec<Note>,
) -> Policies {
    let mut policies = Policies::default();
    let all: Vec<Variant> = variants::variants(ctx)
        .into_iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .collect();
    for v in &all {
        let suffix = if v.index == 0 {
            String::new()
        } else {
            format!("-{}", v.index + 1)
        };
        scheduler_map(&mut policies, ctx, v, &suffix, rates, lossy_queue, notes);
        cn_profiles(&mut policies, ctx, v, &suffix, watchdog);
    }
    policies.drop_profiles.sort_by(|a, b| a.name.cmp(&b.name));
    policies
}

/// The variant's scheduler map, with the drop profiles and schedulers it names.
fn scheduler_map(
    policies: &mut Policies,
    ctx: &SwitchContext,
    v: &Variant,
    suffix: &str,
    rates: &[u8],
    lossy_queue: u64,
    notes: &mut Vec<Note>,
) {
    let mut entries = Vec::new();
    for (ci, c) in ctx.qos.classes.iter().enumerate() {
        let drop_profile = variants::ecn_of(v, c.queue).map(|e| {
            let base = if c.lossless {
                ctx.buffer.lossless_queue_buffer_bytes
            } else {
                lossy_queue
            };
            // Named by the class (and the port variant where its ECN differs), never by its
            // values: a threshold change is one changed `fill-level` line (U6).
            let mut dp = drop_profile(&c.name, e, base, notes);
            let same_values = |p: &JDropProfile| {
                p.min_percent == dp.min_percent
                    && p.max_percent == dp.max_percent
                    && p.probability == dp.probability
            };
            match policies.drop_profiles.iter().find(|p| p.name == dp.name) {
                Some(existing) if same_values(existing) => {}
                Some(_) => {
                    dp.name = format!("dp-{}{suffix}", c.name);
                    if !policies.drop_profiles.iter().any(|p| p.name == dp.name) {
                        policies.drop_profiles.push(dp.clone());
                    }
                }
                None => policies.drop_profiles.push(dp.clone()),
            }
            dp.name
        });
        let (strict, transmit_percent) = match c.scheduling {
            Scheduling::Strict => (true, strict_rate(c)),
            Scheduling::Ets { .. } => (false, Some(rates[ci])),
        };
        // `shaping-rate` is the cap ("a maximum bandwidth … for a queue", Junos
        // `shaping-rate` reference for the QFX Series).
        let shaping_percent = c.rate_percent;
        // A variant reuses the base scheduler of a class when nothing differs, so an
        // override only adds the schedulers it changes.
        let base = format!("s-{}", c.name);
        let same = |s: &JScheduler| {
            s.strict == strict
                && s.transmit_percent == transmit_percent
                && s.shaping_percent == shaping_percent
                && s.drop_profile == drop_profile
        };
        let name = match policies
            .schedulers
            .iter()
            .find(|s: &&JScheduler| s.name == base)
        {
            Some(existing) if same(existing) => base,
            _ => {
                let name = format!("s-{}{suffix}", c.name);
                policies.schedulers.push(JScheduler {
                    name: name.clone(),
                    strict,
                    transmit_percent,
                    shaping_percent,
                    drop_profile,
                });
                name
            }
        };
        entries.push((c.name.clone(), name));
    }
    policies.scheduler_maps.push(JSchedulerMap {
        name: format!("sm-fabricc{suffix}"),
        entries,
    });
}

/// One CN profile per (variant, cable length) of the variant's ports.
fn cn_profiles(
    policies: &mut Policies,
    ctx: &SwitchContext,
    v: &Variant,
    suffix: &str,
    watchdog: Option<JWatchdog>,
) {
    let lossless: Vec<_> = ctx
        .qos
        .classes
        .iter()
        .filter(|c| c.lossless && v.lossless_priorities.contains(&c.priority))
        .collect();
    let mut cables: Vec<u32> = ctx
        .ports
        .iter()
        .filter(|p| v.ports.contains(&p.name))
        .map(|p| p.cable_m)
        .collect();
    cables.sort_unstable();
    cables.dedup();
    if v.index == 0 && cables.is_empty() {
        cables.push(100);
    }
    for cable_length in cables {
        if lossless.is_empty() {
            break;
        }
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
        let existing = policies.cn_profiles.iter().find(|p: &&JCnProfile| {
            p.input_code_points == input_code_points
                && p.output == output
                && p.watchdog.is_some() == wd.is_some()
                && p.cable_length == cable_length
        });
        let name = match existing {
            Some(p) => p.name.clone(),
            None => {
                let name = format!("cnp-fabricc{suffix}-{cable_length}m");
                policies.cn_profiles.push(JCnProfile {
                    name: name.clone(),
                    watchdog: wd,
                    cable_length,
                    input_code_points,
                    output,
                });
                name
            }
        };
        policies.cn_names.push((v.index, cable_length, name));
    }
}

/// The shared-buffer partitions in whole percent of the switch buffer.
fn buffer_partitions(dev: &str, b: &BufferPlan) -> Result<JBuffer, RenderError> {
    let ingress_lossless = percent_of(b.ingress_lossless_pool_bytes, b.total_bytes);
    let ingress_headroom = b
        .shared_headroom_pool_bytes
        .map(|h| percent_of(h, b.total_bytes));
    let used = ingress_lossless + ingress_headroom.unwrap_or(0);
    let egress_lossless = percent_of(b.egress_lossless_pool_bytes, b.total_bytes);
    let egress_lossy = 100u64.saturating_sub(egress_lossless);
    if used > 100 || egress_lossless > 100 {
        return Err(unsupported(
            dev,
            SwitchOs::Junos,
            "buffer partitions exceed 100 percent of the switch buffer",
        ));
    }
    Ok(JBuffer {
        ingress_lossless,
        ingress_headroom,
        ingress_lossy: 100 - used,
        egress_lossless,
        egress_lossy,
    })
}

/// Each port with its variant's scheduler map and the CN profile of its cable length.
fn ports(ctx: &SwitchContext, cn_names: &[(usize, u32, String)]) -> Vec<JPort> {
    let full = variants::variants(ctx);
    ctx.ports
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
                    .find(|(i, cable, _)| *i == v && *cable == p.cable_m)
                    .map(|(_, _, n)| n.clone()),
                scheduler_map: format!("sm-fabricc{suffix}"),
            }
        })
        .collect()
}

/// What Junos decides itself (headroom, thresholds, breakouts off the QFX5240), and the
/// breakouts it is told.
fn headroom_notes_and_breakouts(ctx: &SwitchContext, notes: &mut Vec<Note>) -> Vec<JBreakout> {
    if ctx.ports.iter().any(|p| !p.lossless_priorities.is_empty()) {
        notes.push(Note::new(
            NoteKind::DeviceManaged,
            Property::Headroom,
            "Junos sizes each port's PFC headroom from the CN profile's cable length and its own MRU formula; the `lossless-headroom` partition is fabricc's per-port sum rounded up to a whole percent, and the dynamic threshold stays Junos's default",
        ));
    }
    fixed_headroom_and_static_threshold(ctx, "Junos", notes);
    // The interface-level breakout (`number-of-sub-ports`, `speed`) is sourced for Junos OS
    // Evolved on the QFX5240 only (AMD's RoCE guide, Juniper tab: `et-0/0/0 {
    // number-of-sub-ports 2; speed 400g; }` then `et-0/0/0:0`, `et-0/0/0:1`:
    // ROCm/gpu-cluster-networking@1156b4e913f8:docs/how-to/roce-network-config.rst); other
    // platforms keep the FAB905 advice.
    let sourced = ctx
        .platform
        .as_ref()
        .is_some_and(|p| p.name == "juniper-qfx5240-64od");
    fidelity::device_managed(ctx, sourced, notes);
    ctx.platform
        .iter()
        .filter(|_| sourced)
        .flat_map(|p| &p.breakouts)
        .map(|b| JBreakout {
            port: port_name(b.cage.saturating_sub(1)),
            ways: b.ways,
            speed: format!("{}g", b.speed_gbps),
        })
        .collect()
}

/// The base the fill levels are percent of, stated in the file.
fn fill_base(b: &BufferPlan, lossy_queue: u64) -> JFillBase {
    let log2 = b.queue_log2_alpha;
    let alpha = if log2 >= 0 {
        (1u32 << log2.unsigned_abs()).to_string()
    } else {
        format!("1/{}", 1u32 << log2.unsigned_abs())
    };
    let share_percent = if b.egress_lossless_pool_bytes == 0 {
        0
    } else {
        percent_of(b.lossless_queue_buffer_bytes, b.egress_lossless_pool_bytes)
    };
    JFillBase {
        alpha,
        share_percent,
        lossless_queue_bytes: b.lossless_queue_buffer_bytes,
        lossy_queue_bytes: lossy_queue,
    }
}

/// The drop profile of `class`: whole-percent fill levels of `queue_buffer`, min < max.
/// A fill level the fabric states in whole percent is written as it is (issue 34,
/// `lower::vocab::junos_levels`); only bytes are converted, and only a conversion is noted.
fn drop_profile(class: &str, e: Ecn, queue_buffer: u64, notes: &mut Vec<Note>) -> JDropProfile {
    let stated = |fill: Option<u64>| fill.filter(|f| f % 1000 == 0).map(|f| f / 1000);
    let (min, max) = crate::lower::vocab::junos_levels(&e, queue_buffer);
    let asked_min = stated(e.min_fill).unwrap_or_else(|| fill_percent(e.min_bytes, queue_buffer));
    let asked_max = stated(e.max_fill).unwrap_or_else(|| fill_percent(e.max_bytes, queue_buffer));
    let bytes = |pct: u64| fill_bytes(pct, queue_buffer);
    if min != asked_min {
        notes.push(Note::new(
            NoteKind::Approximated,
            Property::EcnMarking,
            format!(
                "class `{class}`: ECN min {} B is {asked_min} % of the {queue_buffer} B one queue may hold; Junos fill levels are whole percent, so marking starts at {min} % = {} B",
                e.min_bytes,
                bytes(min)
            ),
        ));
    }
    if max != asked_max {
        notes.push(Note::new(
            NoteKind::Approximated,
            Property::EcnMarking,
            format!(
                "class `{class}`: ECN max {} B rounds to {asked_max} % of {queue_buffer} B; Junos needs the high fill level above the low one, so it is {max} % = {} B",
                e.max_bytes,
                bytes(max)
            ),
        ));
    }
    JDropProfile {
        name: format!("dp-{class}"),
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
        assert_eq!(fill_percent(1, 1_000_000), 0);
        assert_eq!(fill_percent(5_000_000, 1_000_000), 500);
    }

    #[test]
    fn ets_rates_share_what_cnp_leaves() {
        assert_eq!(scale_weights(&[50, 50, 0], 95), vec![48, 47, 0]);
        assert_eq!(scale_weights(&[40, 50, 10, 0], 95), vec![38, 48, 9, 0]);
        assert_eq!(scale_weights(&[100], 95), vec![95]);
    }
}
