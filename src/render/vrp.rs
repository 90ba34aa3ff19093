//! Huawei CloudEngine (VRP) view: a switch context as VRP CLI values (issue 35 item 1; review
//! G6).
//!
//! In: a `SwitchContext` with `os: vrp`. Out: `VrpView` for `vrp/qos.cfg`, a fragment in the
//! layout of `display current-configuration` (`#` between sections, one-space indent inside a
//! view), and the notes of what VRP is left to decide. Every command and its range come from
//! Huawei's "CloudEngine 8800, 6800, and 5800 Series Switches V300R023C00 Command Reference"
//! and "Configuration Guide" (the product documentation at
//! https://support.huawei.com/enterprise/en/doc/, release V300R023C00; the pages read are
//! those of the NAssim corpus, WheaterW/INTA-project@a9b3a9a1d401:
//! nassim-main/corpus/hw/hw_CE6800_V300R023C00/, page titles quoted below). docs/targets.md
//! lists the page per command group.
//!
//! Decisions, with their evidence:
//! * DSCP → queue: a DiffServ domain `FABRICC_ROCE` stating all 64 `ip-dscp-inbound <dscp>
//!   phb <phb> green` (PHBs BE, AF1–AF4, EF, CS6, CS7 "correspond to queues 0 to 7", page
//!   "ip-dscp-inbound"), bound with `trust upstream FABRICC_ROCE` on each fabric port (page
//!   "trust upstream"). A Layer-3 port trusts DSCP by default ("Default Settings for Priority
//!   Mapping": "Layer 3 forwarding mode — by default, DSCP values are trusted"); `trust dscp`
//!   is a Layer-2 interface command (page "trust", views), so it is not written.
//! * PFC: a PFC profile per port variant (`dcb pfc FABRICC_ROCE`, `priority P …`; page "dcb
//!   pfc", "priority (DCB PFC view)") applied with `dcb pfc enable FABRICC_ROCE mode manual`
//!   (page "dcb pfc enable"). VRP pauses a *priority queue*: a lossless class whose priority
//!   is not its queue is refused (FAB901); the CE8850 family takes priorities 0–5 and three
//!   of them, the CE8855 family 0–7 and four ("Enabling PFC").
//! * Deadlock (the fabric's watchdog), per platform family. CE8850 family (CE6860, CE6866,
//!   CE8850, CE8851-32CQ8DQ-P, CE8851K): `dcb pfc deadlock-detect timer` and
//!   `dcb pfc deadlock-recovery timer`, 10–1500 ms, system-wide. CE8855 family (CE6855,
//!   CE6863E, CE6885, CE8851-32CQ4BQ, CE8855): `dcb pfc deadlock-detect interval
//!   10|100|500|1000` (the unit) and, per priority in the profile, `priority P
//!   deadlock-detect time 1–15` / `deadlock-recovery time 0–31` units (rounded up, FAB906).
//!   The action is `dcb pfc deadlock recovery-behavior discard|forwarding slot 1`; `alert`
//!   has no VRP form (FAB901). Detection is always on ("Enabling PFC": "By default, PFC
//!   deadlock detection is always enabled"): a fabric without a watchdog gets VRP's default
//!   timers back (`undo …`), not "off" (FAB904).
//! * ECN: a WRED drop profile per marking queue and variant, `ecn buffer-size low-limit MIN
//!   high-limit MAX discard-percentage P` in bytes (page "ecn"), applied with `qos queue Q
//!   wred NAME` and `qos queue Q ecn` (pages "qos queue wred", "qos queue ecn"); the CE8850
//!   family also needs `qos ecn enable` ("Configuring ECN", step 9). fabricc writes static
//!   thresholds; VRP's AI ECN (`ai-service` / `ai-ecn`) is not enabled (FAB907, advice).
//! * Scheduling: `qos pq …` and `qos drr …` over all eight queues (page "qos pq drr lpq":
//!   PQ is the default), the class's `bandwidth` as `qos queue Q drr weight W` (1–100).
//! * Headroom: the CE8855 family takes `dcb pfc buffer Q hdrm N kbytes` (16–30720) and needs
//!   the chip's headroom pool, `qos buffer headroom-pool size N kbytes slot 1`, "the sum of
//!   the headroom buffer thresholds … on PFC-enabled interfaces" ("Enabling PFC", step 3). A
//!   static `pfc-threshold` is `dcb pfc buffer Q xoff static N kbytes`. Huawei does not say
//!   whether a kbyte is 1,000 or 1,024 B: fabricc rounds up at 1,000 B, so the switch gets at
//!   least the bytes asked for under either reading. V300R023C00 takes kbytes, not cells.
//!   The CE8850 family has no per-queue headroom command: it sizes headroom itself (FAB905).
//! * Stable names (U6): `FABRICC_ROCE[_n]` (PFC profile of port variant n) and
//!   `FABRICC_Q<queue>[_n]` (drop profile of a queue in variant n): a threshold change is one
//!   changed line. The names are a closed set (variants up to `MAX_VARIANTS`), so the file
//!   deletes every name of the set it does not write, after the ports are re-bound: a newer
//!   build leaves no profile an earlier one wrote.
//! * ECMP hash: `load-balance ecmp` view, `ip <fields>` (page "ip (ECMP load balance view)");
//!   `undo ip` (VRP's default: addresses and L4 ports) when the fabric states no `hash`.
//! * Port split (`port split dimension interface …`) deletes and re-creates the interfaces
//!   (page "port split"); it is not in this QoS file (FAB905).

use serde::Serialize;

use super::context::{PauseThreshold, Scheduling, SwitchContext, SwitchOs, WatchdogAction};
use super::fidelity::{self, Note, NoteKind, Property};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};

/// The release the syntax is read from.
pub const RELEASE: &str = "V300R023C00";
/// The DiffServ domain and the base name of the PFC profiles.
pub const DOMAIN: &str = "FABRICC_ROCE";
const PFC_PROFILE: &str = "FABRICC_ROCE";
/// Port variants fabricc names (`FABRICC_ROCE`, `_2` … `_4`): the closed set of names a file
/// deletes when it does not write them.
pub const MAX_VARIANTS: usize = 4;
/// The PHB of each queue ("ip-dscp-inbound": BE, AF1 to AF4, EF, CS6, CS7 = queues 0 to 7).
pub const PHB: [&str; 8] = ["be", "af1", "af2", "af3", "af4", "ef", "cs6", "cs7"];
/// Largest `mtu` (page "mtu (interface view)": 46 to 9600).
pub const MAX_MTU: u32 = 9600;
/// The slot of a fixed switch in `… slot <slot-id>` commands (Huawei's examples: `slot 1`).
const SLOT: u32 = 1;

/// The two platform families of the V300R023C00 documentation, whose PFC commands differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Family {
    /// CE6860, CE6866, CE8850, CE8851-32CQ8DQ-P, CE8851K.
    Ce8850,
    /// CE6855-48XS8CQ, CE6863E-48S8CQ, CE6885, CE8851-32CQ4BQ, CE8855.
    Ce8855,
    /// No platform named: the commands both families share.
    Unknown,
}

const CE8850_MODELS: [&str; 5] = ["ce6860", "ce6866", "ce8850", "ce8851k", "ce8851-32cq8dq"];
const CE8855_MODELS: [&str; 5] = ["ce6855", "ce6863e", "ce6885", "ce8851-32cq4bq", "ce8855"];

impl Family {
    pub fn of(ctx: &SwitchContext) -> Family {
        let Some(p) = &ctx.platform else {
            return Family::Unknown;
        };
        let name = p.name.to_ascii_lowercase();
        if CE8850_MODELS.iter().any(|m| name.contains(m)) {
            Family::Ce8850
        } else if CE8855_MODELS.iter().any(|m| name.contains(m)) {
            Family::Ce8855
        } else {
            Family::Unknown
        }
    }

    /// Highest PFC priority and how many priorities a PFC profile takes.
    fn pfc_limits(self) -> (u8, usize) {
        match self {
            Family::Ce8850 | Family::Unknown => (5, 3),
            Family::Ce8855 => (7, 4),
        }
    }

    /// `(min, max)` of an `ecn buffer-size` threshold, bytes (page "ecn").
    fn ecn_bytes(self) -> (u64, u64) {
        match self {
            Family::Ce8850 | Family::Unknown => (128, 16_000_000),
            Family::Ce8855 => (320, 34_078_720),
        }
    }

    /// What the switch does in deadlock recovery when nothing is configured (page "dcb pfc
    /// deadlock recovery-behavior").
    fn default_behavior(self) -> &'static str {
        match self {
            Family::Ce8850 | Family::Unknown => "discard",
            Family::Ce8855 => "forwarding",
        }
    }
}

#[derive(Debug, Serialize)]
pub struct VrpView {
    pub hostname: String,
    pub fabric: String,
    pub description: Option<String>,
    pub platform: Option<String>,
    pub release: &'static str,
    pub domain: &'static str,
    /// `(dscp, phb)` for all 64 code points.
    pub dscp_map: Vec<(u8, &'static str)>,
    /// System-view lines of PFC deadlock detection and the ECN switch, in order.
    pub system: Vec<String>,
    /// `qos buffer headroom-pool …` (or its `undo`), CE8855 family only.
    pub headroom_pool: Option<String>,
    pub pfc_profiles: Vec<VrpPfcProfile>,
    pub drop_profiles: Vec<VrpDropProfile>,
    pub ports: Vec<VrpPort>,
    /// Names of the closed set that this build does not write: deleted after the ports.
    pub stale_pfc_profiles: Vec<String>,
    pub stale_drop_profiles: Vec<String>,
    /// Lines inside `load-balance ecmp`.
    pub load_balance: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct VrpPfcProfile {
    pub name: String,
    /// `3 4`
    pub priorities: String,
    /// Lines inside the profile after `priority …` (deadlock timers, CE8855 family).
    pub lines: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct VrpDropProfile {
    pub name: String,
    pub queue: u8,
    pub class: String,
    pub min_bytes: u64,
    pub max_bytes: u64,
    pub probability: u8,
}

#[derive(Debug, Serialize)]
pub struct VrpPort {
    pub name: String,
    pub description: Option<String>,
    pub mtu: u32,
    /// `None`: no lossless priority on the port (`undo dcb pfc enable`).
    pub pfc_profile: Option<String>,
    /// `qos pq …` / `qos drr …` queue lists (space separated); empty = none of that mode.
    pub pq: String,
    pub drr: String,
    pub queues: Vec<VrpQueue>,
    /// `dcb pfc buffer …` lines after an `undo dcb pfc buffer` (which clears them all).
    pub buffers: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct VrpQueue {
    pub queue: u8,
    pub weight: Option<u8>,
    pub drop_profile: Option<String>,
}

/// Bytes of one VRP `kbytes` as fabricc writes (and `import::vrp` reads) it (module notes).
pub const KBYTE: u64 = 1000;

/// Bytes as VRP `kbytes`, rounded up at 1,000 B (see the module's notes).
pub fn kbytes(bytes: u64) -> u64 {
    bytes.div_ceil(KBYTE)
}

/// The DiffServ PHB of each DSCP: the queue of the class of its traffic class.
pub fn dscp_map(ctx: &SwitchContext) -> Vec<(u8, &'static str)> {
    (0u8..64)
        .map(|d| {
            let tc = ctx.qos.dscp_to_tc.get(usize::from(d)).copied().unwrap_or(0);
            let queue = ctx
                .qos
                .classes
                .iter()
                .find(|c| c.tc == tc)
                .map_or(tc, |c| c.queue);
            (d, PHB[usize::from(queue.min(7))])
        })
        .collect()
}

/// The name of PFC profile variant `index`.
pub fn pfc_profile_name(index: usize) -> String {
    variants::variant_name(PFC_PROFILE, index)
}

/// The name of the drop profile of `queue` in variant `index`.
pub fn drop_profile_name(queue: u8, index: usize) -> String {
    variants::variant_name(&format!("FABRICC_Q{queue}"), index)
}

/// `0 to 2 5` → queue list words as `qos pq` / `qos drr` take them (`start [to end]`, up to 8).
fn queue_list(queues: &[u8]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < queues.len() {
        let start = queues[i];
        let mut end = start;
        while i + 1 < queues.len() && queues[i + 1] == end + 1 {
            i += 1;
            end = queues[i];
        }
        if end == start {
            out.push(start.to_string());
        } else {
            out.push(format!("{start} to {end}"));
        }
        i += 1;
    }
    out.join(" ")
}

/// The detection unit (ms) and the two counts of the CE8855 family's per-priority timers:
/// the finest unit whose counts fit (detect 1–15, recovery 0–31), counts rounded up.
pub fn ce8855_timers(detect_ms: u32, restore_ms: u32) -> Option<(u32, u32, u32)> {
    [10u32, 100, 500, 1000].into_iter().find_map(|unit| {
        let d = detect_ms.div_ceil(unit).max(1);
        let r = restore_ms.div_ceil(unit);
        (d <= 15 && r <= 31).then_some((unit, d, r))
    })
}

pub fn view(ctx: &SwitchContext) -> Result<(VrpView, Vec<Note>), RenderError> {
    let dev = ctx.device.as_str();
    let err = |m: String| unsupported(dev, SwitchOs::Vrp, m);
    let mut notes = Vec::new();
    let family = Family::of(ctx);
    if family == Family::Unknown {
        notes.push(Note::new(
            NoteKind::PlatformDependent,
            Property::Platform,
            "no CloudEngine platform named: PFC deadlock timers, per-queue headroom and `qos ecn enable` differ between the CE8850 and CE8855 families and are not written; name the model's `platform`",
        ));
    }
    let all = variants::variants(ctx);
    let used: Vec<&Variant> = all
        .iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .collect();
    if used.iter().any(|v| v.index >= MAX_VARIANTS) {
        return Err(err(format!(
            "{} port variants (ports with their own ECN, lossless priorities or watchdog): fabricc names at most {MAX_VARIANTS} per VRP switch",
            used.len()
        )));
    }
    // VRP pauses a priority queue: the lossless class's priority must be its queue.
    let (top, count) = family.pfc_limits();
    for c in ctx.qos.classes.iter().filter(|c| c.lossless) {
        if c.priority != c.queue {
            return Err(err(format!(
                "lossless class `{}` has priority {} on queue {}: VRP enables PFC per priority queue (the local priority is the queue), so give the class `queue {}`",
                c.name, c.priority, c.queue, c.priority
            )));
        }
    }
    for v in &used {
        if v.lossless_priorities.len() > count || v.lossless_priorities.iter().any(|&p| p > top) {
            return Err(err(format!(
                "lossless priorities {:?}: this CloudEngine family takes at most {count} PFC priorities of 0–{top}",
                v.lossless_priorities
            )));
        }
    }

    let (system, profile_lines) = deadlock(ctx, family, &mut notes)?;
    let pfc_profiles: Vec<VrpPfcProfile> = used
        .iter()
        .filter(|v| !v.lossless_priorities.is_empty())
        .map(|v| VrpPfcProfile {
            name: pfc_profile_name(v.index),
            priorities: v
                .lossless_priorities
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            lines: profile_lines(v),
        })
        .collect();

    // Drop profiles: one per marking queue and variant.
    let (lo, hi) = family.ecn_bytes();
    let mut drop_profiles = Vec::new();
    for v in &used {
        for q in &v.ecn {
            let Some(e) = q.ecn else { continue };
            if e.min_bytes < lo || e.max_bytes > hi {
                return Err(err(format!(
                    "ECN {}–{} B on queue {}: VRP takes {lo} to {hi} B on this platform family",
                    e.min_bytes, e.max_bytes, q.queue
                )));
            }
            let class = ctx
                .qos
                .classes
                .iter()
                .find(|c| c.queue == q.queue)
                .map_or_else(String::new, |c| c.name.clone());
            drop_profiles.push(VrpDropProfile {
                name: drop_profile_name(q.queue, v.index),
                queue: q.queue,
                class,
                min_bytes: e.min_bytes,
                max_bytes: e.max_bytes,
                probability: e.probability_percent,
            });
        }
    }
    let mut system = system;
    if family == Family::Ce8850 {
        system.push(if drop_profiles.is_empty() {
            "undo qos ecn enable".into()
        } else {
            "qos ecn enable".into()
        });
    }
    if ctx.qos.classes.iter().any(|c| c.ecn.is_some()) {
        // Advice, not a warning: the static thresholds are the fabric's own; AI ECN is a
        // vendor option the fabric never asked for, so nothing of the intent is lost.
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::EcnMarking,
            "the fabric's static ECN thresholds are written in bytes; fabricc does not enable VRP's AI ECN (`ai-service`, `ai-ecn`: dynamic thresholds)",
        ));
    }

    let (ports, headroom_pool) = ports(ctx, family, &all, &mut notes)?;
    let stale_pfc_profiles = (0..MAX_VARIANTS)
        .map(pfc_profile_name)
        .filter(|n| !pfc_profiles.iter().any(|p| &p.name == n))
        .collect();
    let stale_drop_profiles = (0..MAX_VARIANTS)
        .flat_map(|v| (0u8..8).map(move |q| drop_profile_name(q, v)))
        .filter(|n| !drop_profiles.iter().any(|p| &p.name == n))
        .collect();
    fidelity::rate_caps_not_rendered(&ctx.qos, "queue", &mut notes);
    fidelity::device_managed(ctx, false, &mut notes);
    if ctx.mlag.is_some() {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::HostBondLag,
            "no M-LAG is written for VRP: the peer link's and the bonds' ports are plain fabric ports",
        ));
    }
    Ok((
        VrpView {
            hostname: ctx.device.clone(),
            fabric: ctx.fabric.clone(),
            description: ctx.description.as_deref().map(escape::comment_text),
            platform: ctx.platform.as_ref().map(|p| p.name.clone()),
            release: RELEASE,
            domain: DOMAIN,
            dscp_map: dscp_map(ctx),
            system,
            headroom_pool,
            pfc_profiles,
            drop_profiles,
            ports,
            stale_pfc_profiles,
            stale_drop_profiles,
            load_balance: super::lb::vrp_lines(ctx),
        },
        notes,
    ))
}

type ProfileLines = Box<dyn Fn(&Variant) -> Vec<String>>;

/// The system lines of deadlock detection and, for the CE8855 family, the per-priority lines
/// of each PFC profile.
fn deadlock(
    ctx: &SwitchContext,
    family: Family,
    notes: &mut Vec<Note>,
) -> Result<(Vec<String>, ProfileLines), RenderError> {
    let dev = ctx.device.as_str();
    let none: ProfileLines = Box::new(|_| Vec::new());
    let Some(w) = ctx.watchdog else {
        if ctx.ports.iter().any(|p| !p.lossless_priorities.is_empty()) {
            notes.push(Note::new(
                NoteKind::NotRendered,
                Property::WatchdogEnable,
                "VRP's PFC deadlock detection is always on: without a `pfc-watchdog` the switch keeps its default timers (100 ms detection and recovery)",
            ));
        }
        let behavior = family.default_behavior();
        return Ok(match family {
            Family::Unknown => (Vec::new(), none),
            Family::Ce8850 => (
                vec![
                    "undo dcb pfc deadlock-detect".into(),
                    "undo dcb pfc deadlock-recovery".into(),
                    format!("dcb pfc deadlock recovery-behavior {behavior} slot {SLOT}"),
                ],
                none,
            ),
            Family::Ce8855 => (
                vec![
                    "undo dcb pfc deadlock-detect interval".into(),
                    format!("dcb pfc deadlock recovery-behavior {behavior} slot {SLOT}"),
                ],
                Box::new(|_| undo_priority_timers(&[])),
            ),
        });
    };
    let behavior = match w.action {
        WatchdogAction::Drop => "discard",
        WatchdogAction::Forward => "forwarding",
        WatchdogAction::Alert => {
            return Err(unsupported(
                dev,
                SwitchOs::Vrp,
                "PFC watchdog action `alert`: VRP's deadlock recovery either discards or forwards the queue (`dcb pfc deadlock recovery-behavior discard|forwarding`); use `action drop` or `action forward`",
            ));
        }
    };
    if !w.defaults.poll {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::WatchdogPoll,
            "VRP has no deadlock polling interval: the hardware checks the queue through the whole detection period",
        ));
    }
    match family {
        Family::Unknown => {
            notes.push(Note::new(
                NoteKind::NotRendered,
                Property::WatchdogDetect,
                "the PFC deadlock timers are not written without a platform (their commands differ per CloudEngine family): the switch keeps 100 ms",
            ));
            Ok((Vec::new(), none))
        }
        Family::Ce8850 => {
            for (ms, what) in [(w.detect_ms, "detect"), (w.restore_ms, "restore")] {
                if !(10..=1500).contains(&ms) {
                    return Err(unsupported(
                        dev,
                        SwitchOs::Vrp,
                        format!(
                            "PFC watchdog {what} {ms} ms: the CE8850 family takes 10 to 1500 ms"
                        ),
                    ));
                }
            }
            if ctx.ports.iter().any(|p| !p.pfc_watchdog) {
                notes.push(Note::new(
                    NoteKind::Approximated,
                    Property::WatchdogEnable,
                    "the deadlock timers are switch-wide on the CE8850 family: ports without the watchdog get them too",
                ));
            }
            Ok((
                vec![
                    format!("dcb pfc deadlock-detect timer {}", w.detect_ms),
                    format!("dcb pfc deadlock-recovery timer {}", w.restore_ms),
                    format!("dcb pfc deadlock recovery-behavior {behavior} slot {SLOT}"),
                ],
                none,
            ))
        }
        Family::Ce8855 => {
            let Some((unit, d, r)) = ce8855_timers(w.detect_ms, w.restore_ms) else {
                return Err(unsupported(
                    dev,
                    SwitchOs::Vrp,
                    format!(
                        "PFC watchdog detect {} ms / restore {} ms: the CE8855 family takes at most 15 and 31 units of 1000 ms",
                        w.detect_ms, w.restore_ms
                    ),
                ));
            };
            for (asked, got, prop, what) in [
                (w.detect_ms, d * unit, Property::WatchdogDetect, "detect"),
                (w.restore_ms, r * unit, Property::WatchdogRestore, "restore"),
            ] {
                if asked != got {
                    notes.push(Note::new(
                        NoteKind::Approximated,
                        prop,
                        format!(
                            "VRP counts deadlock timers in units of {unit} ms here: {what} {asked} ms is configured as {got} ms"
                        ),
                    ));
                }
            }
            Ok((
                vec![
                    format!("dcb pfc deadlock-detect interval {unit}"),
                    format!("dcb pfc deadlock recovery-behavior {behavior} slot {SLOT}"),
                ],
                Box::new(move |v: &Variant| {
                    let on: Vec<u8> = if v.watchdog {
                        v.lossless_priorities.clone()
                    } else {
                        Vec::new()
                    };
                    let mut lines = Vec::new();
                    for p in &on {
                        lines.push(format!("priority {p} deadlock-detect time {d}"));
                        lines.push(format!("priority {p} deadlock-recovery time {r}"));
                    }
                    lines.extend(undo_priority_timers(&on));
                    lines
                }),
            ))
        }
    }
}

/// `undo priority P deadlock-…` for every priority not in `keep`: the profile states all
/// eight priorities' timers, so a timer an earlier build set does not survive.
fn undo_priority_timers(keep: &[u8]) -> Vec<String> {
    (0u8..8)
        .filter(|p| !keep.contains(p))
        .flat_map(|p| {
            [
                format!("undo priority {p} deadlock-detect"),
                format!("undo priority {p} deadlock-recovery"),
            ]
        })
        .collect()
}

/// The fabric ports, and the CE8855 family's headroom pool line.
fn ports(
    ctx: &SwitchContext,
    family: Family,
    all: &[Variant],
    notes: &mut Vec<Note>,
) -> Result<(Vec<VrpPort>, Option<String>), RenderError> {
    let dev = ctx.device.as_str();
    // Scheduling: every queue stated, DRR for weighted classes, PQ for the rest (VRP's
    // default, where control traffic and the strict CNP class stay).
    let mut weights: [Option<u8>; 8] = [None; 8];
    for c in &ctx.qos.classes {
        if let Scheduling::Ets { weight_percent } = c.scheduling {
            weights[usize::from(c.queue.min(7))] = Some(weight_percent.clamp(1, 100));
        }
    }
    let drr: Vec<u8> = (0u8..8)
        .filter(|q| weights[usize::from(*q)].is_some())
        .collect();
    let pq: Vec<u8> = (0u8..8)
        .filter(|q| weights[usize::from(*q)].is_none())
        .collect();
    let mut clamped = None;
    let mut pool_kbytes: u64 = 0;
    let mut ports = Vec::new();
    for p in &ctx.ports {
        let v = variants::variant_of(all, &p.name);
        let variant = all.iter().find(|x| x.index == v);
        let ecn_queues: Vec<u8> = variant
            .map(|x| {
                x.ecn
                    .iter()
                    .filter(|q| q.ecn.is_some())
                    .map(|q| q.queue)
                    .collect()
            })
            .unwrap_or_default();
        let mut buffers = Vec::new();
        if family == Family::Ce8855 {
            for h in &p.headroom {
                let k = kbytes(h.xoff_bytes).clamp(16, 30_720);
                pool_kbytes = pool_kbytes.saturating_add(k);
                buffers.push(format!("dcb pfc buffer {} hdrm {k} kbytes", h.priority));
                if let PauseThreshold::Static { bytes } = p.pause_threshold {
                    let x = kbytes(bytes).clamp(1, 30_720);
                    buffers.push(format!(
                        "dcb pfc buffer {} xoff static {x} kbytes",
                        h.priority
                    ));
                }
            }
        }
        if p.mtu > MAX_MTU {
            clamped = Some(p.mtu);
        }
        ports.push(VrpPort {
            name: p.name.clone(),
            description: p.description.as_deref().map(escape::cli_description),
            mtu: p.mtu.min(MAX_MTU),
            pfc_profile: (!p.lossless_priorities.is_empty()).then(|| pfc_profile_name(v)),
            pq: queue_list(&pq),
            drr: queue_list(&drr),
            queues: (0u8..8)
                .map(|q| VrpQueue {
                    queue: q,
                    weight: weights[usize::from(q)],
                    drop_profile: ecn_queues.contains(&q).then(|| drop_profile_name(q, v)),
                })
                .collect(),
            buffers,
        });
    }
    if let Some(mtu) = clamped {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::Mtu,
            format!("interfaces get MTU {MAX_MTU} (VRP's largest) instead of {mtu}"),
        ));
    }
    let pool = match family {
        Family::Ce8855 if pool_kbytes > 0 => {
            if pool_kbytes > 30_720 {
                return Err(unsupported(
                    dev,
                    SwitchOs::Vrp,
                    format!(
                        "the PFC headroom of all lossless ports is {pool_kbytes} kbytes: the CE8855 family's headroom pool takes at most 30720 kbytes; shorten the cables or use fewer lossless ports"
                    ),
                ));
            }
            notes.push(Note::new(
                NoteKind::Approximated,
                Property::Headroom,
                "headroom in kbytes, rounded up at 1,000 B (Huawei does not define the kbyte); the headroom pool is the sum of the ports' headroom",
            ));
            if ctx
                .ports
                .iter()
                .any(|p| matches!(p.pause_threshold, PauseThreshold::Dynamic { .. }))
            {
                notes.push(Note::new(
                    NoteKind::DeviceManaged,
                    Property::PauseThreshold,
                    "the dynamic PFC threshold is VRP's default (`xoff dynamic 3`): Huawei does not say how its alpha index maps to fabricc's `dynamic-threshold`",
                ));
            }
            Some(format!(
                "qos buffer headroom-pool size {pool_kbytes} kbytes slot {SLOT}"
            ))
        }
        Family::Ce8855 => Some(format!("undo qos buffer headroom-pool slot {SLOT}")),
        Family::Ce8850 | Family::Unknown => {
            super::eos::leaves_to_device(ctx, "VRP", notes);
            None
        }
    };
    Ok((ports, pool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_lists() {
        assert_eq!(queue_list(&[0, 1, 2, 5]), "0 to 2 5");
        assert_eq!(queue_list(&[3]), "3");
        assert_eq!(queue_list(&[]), "");
    }

    #[test]
    fn ce8855_units() {
        assert_eq!(ce8855_timers(100, 100), Some((10, 10, 10)));
        assert_eq!(ce8855_timers(200, 200), Some((100, 2, 2)));
        assert_eq!(ce8855_timers(105, 100), Some((10, 11, 10)));
        assert_eq!(ce8855_timers(20_000, 100), None);
    }

    #[test]
    fn kbytes_round_up() {
        assert_eq!(kbytes(1000), 1);
        assert_eq!(kbytes(1001), 2);
    }
}
