//! Arista EOS view: a switch context as EOS CLI values.
//!
//! In: a `SwitchContext` with `os: eos`. Out: `EosView` for `eos/qos.cfg` and `eos/ports.cfg`,
//! fragments (no hostname, no `end`: EOS `configure replace` would wipe everything they lack), and the
//! notes of what EOS is left to decide. Syntax and order follow Arista AVD's
//! `eos_cli_config_gen` (github.com/aristanetworks/avd, 6.4): sections in EOS's own order
//! (`qos profile`, interfaces, `qos map`, `priority-flow-control`, aristanetworks/avd#6318);
//! one `qos profile` per port variant (trust dscp, PFC on, `priority N no-drop`, watchdog,
//! per-tx-queue `!! class` comment, `priority strict` or `no priority` + `bandwidth percent`,
//! `random-detect ecn … bytes … max-mark-probability … weight 0` and `random-detect ecn
//! count`) bound with `service-profile`; DSCP maps grouped one line per traffic class.
//!
//! Decisions, with their evidence:
//! * ECN thresholds always in `bytes`, both in one unit (AVD models one `units` per
//!   command; whether `kbytes` is 1000 or 1024 B is not documented), at most 256,000,000.
//! * Watchdog `timeout`/`recovery-time` in seconds with two decimals (AVD's schema pattern
//!   `\d+(\.\d{1,2})?`): other values are rounded up to 10 ms and reported; `polling-interval`
//!   in ms steps, at most 30 s and at most half of both.
//! * Watchdog action: `drop` → `drop`, `alert` → `notify-only`; EOS has no action that
//!   forwards a stormed queue (AVD 6.4 allows `drop|errdisable|notify-only`; `no-drop` is
//!   refused on hardware, aristanetworks/avd#6399, #6400), so `forward` is FAB901.
//! * Lossless priority 0 or 1: EOS's default CoS map swaps 0 and 1, so CoS 0/1 → TC 0/1 is
//!   stated (`qos map cos`) whenever either is lossless.
//! * Interface MTU at most 9214 (Arista's and AVD's examples); a larger fabric MTU is noted.
//! * Per ASIC family (the model's `platform`): Broadcom XGS (Trident, Tomahawk) separates
//!   unicast and multicast queues, `uc-tx-queue N` (AMD's "DCQCN configuration on an Arista
//!   7388 switch", ROCm/gpu-cluster-networking@1156b4e913f8:docs/how-to/roce-network-config.rst;
//!   AVD `qos_profiles[].uc_tx_queues`), and takes the PFC headroom and dynamic threshold in a
//!   switch-wide MMU queue profile, written as AVD renders `platform.trident.mmu`
//!   (`ingress headroom bytes N`, `ingress priority-group P threshold α`, `… apply`): the
//!   largest port's xoff sum, since one profile serves every port. Sand (Jericho) takes
//!   `tx-queue N` and sizes headroom itself; queue 7 is reserved there before EOS 4.33
//!   (`SAND_QUEUE7`), a refusal with the release known. Without a platform `tx-queue` is
//!   written and reported (FAB909).
//! * A change converges (issue 33, review E20): lines pasted into a `configure session` merge,
//!   and `no`/`default` remove (Arista EOS User Manual, "Configure Session",
//!   https://arista.com/um-eos/eos-configure-session), so `qos.cfg` starts with `no qos
//!   profile` for each profile it writes and `no platform trident mmu queue profile` (XGS),
//!   then re-creates them; the CoS → traffic-class and traffic-class → tx-queue maps are
//!   written whole (EOS's default where nothing else is needed), as the DSCP map is; the
//!   watchdog defaults are removed with `no …` when the fabric has none; a fabric port
//!   without a description gets `no description`. A port that left the fabric cannot be
//!   named by a later file: the header says so and `verify` reports it (FAB976). The whole
//!   file is committed with `commit timer` and confirmed (E21).
//! * Port mode and speed (`no switchport`, `channel-group`, the breakout `speed`) are in a
//!   separate `ports.cfg`, applied at turn-up (E19): they flap a link or take an L2 port's
//!   VLANs, which a QoS change must never do unannounced.
//! * `hardware counter feature ecn out` is not written: Arista's AI deployment guide says only
//!   "for platforms requiring ECN counter feature support", and no document names them.

use serde::Serialize;

use super::context::{
    Ecn, PauseThreshold, QosPlan, Release, Scheduling, SwitchContext, SwitchOs, Watchdog,
    WatchdogAction,
};
use super::fidelity::{self, Note, NoteKind, Property};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};

/// Largest interface MTU written (Arista's and AVD's examples use 9214).
pub const MAX_MTU: u32 = 9214;
/// AVD's schema bound on `random-detect ecn` thresholds in bytes.
pub const MAX_ECN_BYTES: u64 = 256_000_000;
/// Longest `polling-interval` (AVD schema), ms.
pub const MAX_POLL_MS: u32 = 30_000;
const PROFILE: &str = "FABRICC_ROCE";
/// The MMU queue profile of a Broadcom XGS switch.
pub const MMU_PROFILE: &str = "FABRICC_LOSSLESS";

// The bounds are model vocabulary (the model checks `os eos RELEASE` against them).
pub use crate::model::target::EOS_NEWEST as NEWEST;
/// Sand (Jericho) platforms reserve traffic class and tx-queue 7 for control-plane traffic
/// before this release (Arista TOI, "Sand platform switches have eight queues … queue 7 is not
/// user-configurable … As of 4.33.0F, a limited set of features are configurable on tx-queue
/// 7", https://arista.com/zh/support/toi/tag/latency).
pub const SAND_QUEUE7: Release = Release::new(4, 33);

/// How EOS names a switch's egress queues, by ASIC family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueMode {
    /// Broadcom XGS (Trident, Tomahawk: 7050X, 7060X, 7388X5): separate unicast and multicast
    /// queues, `uc-tx-queue N`.
    Xgs,
    /// Sand (Jericho: 7280R, 7800R): one queue set, `tx-queue N`.
    Sand,
    /// No platform named: `tx-queue`, reported.
    Unknown,
}

impl QueueMode {
    pub fn of(ctx: &SwitchContext) -> QueueMode {
        match ctx.platform.as_ref().and_then(|p| p.asic) {
            Some(a) if a.is_broadcom_xgs() => QueueMode::Xgs,
            Some(a) if a.is_broadcom_dnx() => QueueMode::Sand,
            _ => QueueMode::Unknown,
        }
    }

    pub fn keyword(self) -> &'static str {
        match self {
            QueueMode::Xgs => "uc-tx-queue",
            QueueMode::Sand | QueueMode::Unknown => "tx-queue",
        }
    }
}

// Test support (tests/it/render_targets.rs names ports per target), not the product's.
#[cfg(feature = "internals")]
pub use crate::lower::vocab::eos_port_name as port_name;

#[derive(Debug, Serialize)]
pub struct EosView {
    pub hostname: String,
    /// `ip load-sharing trident fields ip …` (`render::lb`); empty = not written.
    pub load_sharing: Vec<String>,
    pub fabric: String,
    pub description: Option<String>,
    /// `qos map dscp …` argument lists, one per traffic class: `(dscps, tc)`.
    pub dscp_map: Vec<(String, u8)>,
    /// `(cos, tc)` for every CoS: an absolute map, so an entry an earlier build changed
    /// returns to what this one wants (EOS's default where the classes need nothing else).
    pub cos_map: Vec<(u8, u8)>,
    /// `(tc, tx-queue)` for every traffic class (absolute, as `cos_map`).
    pub tc_queue: Vec<(u8, u8)>,
    pub watchdog: Option<EosWatchdog>,
    /// `uc-tx-queue` (Broadcom XGS) or `tx-queue` (Sand, or no platform named).
    pub queue_keyword: &'static str,
    /// The platform the file is written for, `None` when the model names none.
    pub platform: Option<String>,
    pub release: String,
    /// The XGS MMU queue profile with the PFC headroom and dynamic threshold.
    pub mmu: Option<EosMmu>,
    /// The MMU queue profile fabricc may own on this platform (Broadcom XGS), deleted before
    /// it is written again; `None` elsewhere.
    pub mmu_profile: Option<&'static str>,
    pub profiles: Vec<EosProfile>,
    pub ports: Vec<EosPort>,
    /// The switch's side of an MLAG pair (`eos_mlag`).
    pub mlag: Option<EosMlag>,
}

/// An MLAG pair as AVD's `eos_cli_config_gen` renders `mlag_configuration`, `vlans`,
/// `vlan_interfaces` and `port_channel_interfaces` (pyavd 6.4; Arista's MLAG chapter of the
/// EOS User Manual: the peer VLAN in a trunk group on the peer-link port-channel, spanning
/// tree off on it, the peer addresses on its SVI, `mlag N` on each host's port-channel).
#[derive(Debug, Serialize)]
pub struct EosMlag {
    pub vlan: u32,
    pub peer_channel: u32,
    pub peer: String,
    pub domain: String,
    /// `169.254.0.1/30` or `.2/30`: this switch's address on the peer VLAN.
    pub address: String,
    /// The peer's address on it.
    pub peer_address: String,
    /// `(id, description)` of each host bond's port-channel.
    pub bonds: Vec<(u32, String)>,
}

/// The peer VLAN, its port-channel and its addresses: one per pair and only on the peer
/// link, so every pair uses the same (RFC 3927 link-local, never routed).
const MLAG_VLAN: u32 = 4094;
const MLAG_PEER_CHANNEL: u32 = 2000;
const MLAG_ADDRESSES: [&str; 2] = ["169.254.0.1", "169.254.0.2"];

/// `platform trident mmu queue profile …` as AVD's `eos_cli_config_gen` renders
/// `platform.trident.mmu.queue_profiles` (pyavd 6.4: `ingress headroom <unit> <n>`,
/// `ingress priority-group <id> threshold <alpha>`, `… apply`).
#[derive(Debug, Serialize)]
pub struct EosMmu {
    pub profile: &'static str,
    /// The largest per-port PFC headroom (sum of the port's lossless xoff), bytes.
    pub headroom_bytes: u64,
    /// `(priority group, threshold)`: the dynamic threshold alpha as EOS writes it (`1/2`).
    pub priority_groups: Vec<(u8, String)>,
}

/// alpha = 2^log2 as EOS's MMU threshold (`1/128` … `8`, AVD's valid values); `None` outside.
pub fn mmu_threshold(log2_alpha: i8) -> Option<String> {
    match log2_alpha {
        0..=3 => Some((1u32 << log2_alpha.unsigned_abs()).to_string()),
        -7..=-1 => Some(format!("1/{}", 1u32 << log2_alpha.unsigned_abs())),
        _ => None,
    }
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
    /// `shape rate N percent`: the class's rate cap.
    pub shape_percent: Option<u8>,
}

#[derive(Debug, Serialize)]
pub struct EosPort {
    pub name: String,
    pub description: Option<String>,
    pub mtu: u32,
    pub profile: String,
    /// `400g-4` on a broken-out cage's sub-port: speed and lanes, which is how EOS breaks a
    /// cage out (AMD's 7388 example `interface Ethernet2/5/1 … speed 200g-4`, sub-ports /1
    /// and /5 of an 8-lane cage: ROCm/gpu-cluster-networking@1156b4e913f8:docs/how-to/roce-network-config.rst).
    pub speed: Option<String>,
    /// `1 mode active`: a member of a host bond's or the peer link's port-channel, which
    /// is layer 2 (no `no switchport`); `None` = a routed fabric port.
    pub channel_group: Option<String>,
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

/// A threshold in `bytes`, the one unit EOS documents without a base question.
pub fn threshold(bytes: u64) -> String {
    format!("{bytes} bytes")
}

fn ecn_args(e: Ecn) -> String {
    format!(
        "minimum-threshold {} maximum-threshold {} max-mark-probability {} weight 0",
        threshold(e.min_bytes),
        threshold(e.max_bytes),
        e.probability_percent
    )
}

/// `ms` rounded up to EOS's 10 ms timer resolution.
pub fn round_10ms(ms: u32) -> u32 {
    ms.div_ceil(10).saturating_mul(10)
}

fn watchdog(dev: &str, w: Watchdog, notes: &mut Vec<Note>) -> Result<EosWatchdog, RenderError> {
    let err = |m: String| unsupported(dev, SwitchOs::Eos, m);
    let action = match w.action {
        WatchdogAction::Drop => "drop",
        WatchdogAction::Alert => "notify-only",
        WatchdogAction::Forward => {
            return Err(err(
                "PFC watchdog action `forward`: EOS has no watchdog action that keeps forwarding a stormed queue (drop, errdisable, notify-only); use `action drop` or `action alert`".into(),
            ));
        }
    };
    let timeout = round_10ms(w.detect_ms);
    let recovery = round_10ms(w.restore_ms);
    for (asked, got, prop, what) in [
        (w.detect_ms, timeout, Property::WatchdogDetect, "detect"),
        (w.restore_ms, recovery, Property::WatchdogRestore, "restore"),
    ] {
        if asked != got {
            notes.push(Note::new(
                NoteKind::Approximated,
                prop,
                format!(
                    "EOS watchdog timers have 10 ms steps: {what} {asked} ms is configured as {got} ms"
                ),
            ));
        }
    }
    if !(10..=60_000).contains(&timeout) || !(10..=60_000).contains(&recovery) {
        return Err(err(format!(
            "PFC watchdog detect {timeout} ms / restore {recovery} ms: EOS takes 10 ms to 60 s"
        )));
    }
    if w.poll_ms < 5
        || w.poll_ms > MAX_POLL_MS
        || w.poll_ms.saturating_mul(2) > timeout.min(recovery)
    {
        return Err(err(format!(
            "PFC watchdog poll {} ms: EOS takes 5 ms to 30 s, at most half of detect {timeout} ms and restore {recovery} ms",
            w.poll_ms
        )));
    }
    Ok(EosWatchdog {
        timeout: seconds(timeout),
        recovery: seconds(recovery),
        polling: seconds(w.poll_ms),
        action,
    })
}

pub fn view(ctx: &SwitchContext) -> Result<(EosView, Vec<Note>), RenderError> {
    let dev = ctx.device.as_str();
    let mut notes = Vec::new();
    let watchdog = match ctx.watchdog {
        None => None,
        Some(w) => Some(watchdog(dev, w, &mut notes)?),
    };
    let release = ctx.release.unwrap_or(NEWEST);
    let mode = QueueMode::of(ctx);
    if mode == QueueMode::Unknown {
        notes.push(Note::new(
            NoteKind::PlatformDependent,
            Property::Platform,
            "queues are written as `tx-queue`, the Sand (Jericho) form; Broadcom XGS platforms (Trident, Tomahawk: 7050X, 7060X, 7388X5) refuse it and take `uc-tx-queue`: name the model's `platform` so fabricc writes the right one",
        ));
    }
    let all = variants::variants(ctx);
    check_ecn_max(dev, &all)?;
    let profiles = all
        .iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .map(|v| profile(ctx, v))
        .collect();
    let breakouts: &[crate::render::context::Breakout] =
        ctx.platform.as_ref().map_or(&[], |p| &p.breakouts);
    let mut ports = eos_ports(ctx, &all, breakouts, &mut notes);
    let mlag = eos_mlag(ctx, &mut ports, &mut notes);

    let QosMaps {
        tc_queue,
        cos_map,
        dscp_map,
    } = qos_maps(&ctx.qos, mode, release);
    queue_seven(ctx, mode, release, &mut notes)?;
    let mmu = if mode == QueueMode::Xgs {
        mmu(ctx, &mut notes)?
    } else {
        leaves_to_device(ctx, "EOS", &mut notes);
        None
    };
    // EOS needs each sub-port's lanes for its speed word; a platform without cages in the
    // catalogue leaves the breakout to the switch (FAB905).
    let written = breakouts.iter().all(|b| b.lanes.is_some());
    fidelity::device_managed(ctx, written, &mut notes);
    Ok((
        EosView {
            load_sharing: super::lb::eos_lines(ctx),
            hostname: ctx.device.clone(),
            fabric: ctx.fabric.clone(),
            description: ctx.description.as_deref().map(escape::comment_text),
            dscp_map,
            cos_map,
            tc_queue,
            watchdog,
            queue_keyword: mode.keyword(),
            platform: ctx.platform.as_ref().map(|p| p.name.clone()),
            release: release.to_string(),
            mmu,
            mmu_profile: (mode == QueueMode::Xgs).then_some(MMU_PROFILE),
            profiles,
            ports,
            mlag,
        },
        notes,
    ))
}

/// The MLAG pair's lines, and the port-channel of each member port; a FAB904 note that the
/// hosts' VLAN and gateway are not written.
fn eos_mlag(ctx: &SwitchContext, ports: &mut [EosPort], notes: &mut Vec<Note>) -> Option<EosMlag> {
    let m = ctx.mlag.as_ref()?;
    let mut group = |name: &str, id: u32, lacp: bool| {
        if let Some(p) = ports.iter_mut().find(|p| p.name == name) {
            let mode = if lacp { "active" } else { "on" };
            p.channel_group = Some(format!("{id} mode {mode}"));
        }
    };
    for p in &m.peer_link {
        group(p, MLAG_PEER_CHANNEL, true);
    }
    for b in &m.bonds {
        group(&b.port, b.id, b.lacp);
    }
    let (first, last) = (
        m.bonds.first().map_or(0, |b| b.id),
        m.bonds.last().map_or(0, |b| b.id),
    );
    let channels = if first == last {
        format!("Port-Channel{first} is a layer-2 port")
    } else {
        format!("Port-Channel{first}–{last} are layer-2 ports")
    };
    // Advice: the bond itself is written (port-channel, `mlag N`); what is left is the
    // addressing, which is the operator's on every port of every target.
    notes.push(Note::new(
        NoteKind::Adjusted,
        Property::HostBondLag,
        format!(
            "the host bonds' {channels} in VLAN 1: fabricc writes no addressing, so add `switchport access vlan N` and the hosts' VLAN with its SVI and `ip virtual-router address` on both switches of the pair"
        ),
    ));
    let me = usize::from(m.side.saturating_sub(1)).min(1);
    Some(EosMlag {
        vlan: MLAG_VLAN,
        peer_channel: MLAG_PEER_CHANNEL,
        peer: m.peer.clone(),
        domain: m.domain.clone(),
        address: format!("{}/30", MLAG_ADDRESSES[me]),
        peer_address: MLAG_ADDRESSES[1 - me].to_string(),
        bonds: m
            .bonds
            .iter()
            .map(|b| {
                (
                    b.id,
                    escape::cli_description(&format!("{} {}", b.host, b.bond)),
                )
            })
            .collect(),
    })
}

/// EOS takes ECN thresholds up to `MAX_ECN_BYTES`.
fn check_ecn_max(dev: &str, all: &[Variant]) -> Result<(), RenderError> {
    for v in all {
        for q in &v.ecn {
            if let Some(e) = q.ecn
                && e.max_bytes > MAX_ECN_BYTES
            {
                return Err(unsupported(
                    dev,
                    SwitchOs::Eos,
                    format!(
                        "ECN max {} B on queue {}: EOS takes at most {MAX_ECN_BYTES} B",
                        e.max_bytes, q.queue
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The interfaces: name, description, MTU (clamped to EOS's, with a note), the variant's
/// profile, and the breakout speed word where the platform's cages give the lanes.
fn eos_ports(
    ctx: &SwitchContext,
    all: &[Variant],
    breakouts: &[crate::render::context::Breakout],
    notes: &mut Vec<Note>,
) -> Vec<EosPort> {
    let mut clamped = None;
    let ports: Vec<EosPort> = ctx
        .ports
        .iter()
        .map(|p| {
            let speed = breakouts
                .iter()
                .find(|b| b.ports.contains(&p.index))
                .and_then(|b| Some(format!("{}g-{}", b.speed_gbps, b.lanes?)));
            let v = variants::variant_of(all, &p.name);
            if p.mtu > MAX_MTU {
                clamped = Some(p.mtu);
            }
            EosPort {
                name: p.name.clone(),
                description: p.description.as_deref().map(escape::cli_description),
                mtu: p.mtu.min(MAX_MTU),
                profile: variants::variant_name(PROFILE, v),
                speed,
                channel_group: None,
            }
        })
        .collect();
    if let Some(mtu) = clamped {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::Mtu,
            format!(
                "interfaces get MTU {MAX_MTU} (Arista's examples) instead of {mtu}: a {}-byte IP MTU difference with the peers, no effect on RoCE frames",
                mtu - MAX_MTU
            ),
        ));
    }
    ports
}

/// EOS's default CoS → traffic-class map: 0 and 1 swapped, the others identical.
pub fn default_cos_tc(cos: u8) -> u8 {
    match cos {
        0 => 1,
        1 => 0,
        c => c,
    }
}

/// The traffic-class → queue map, the CoS → traffic-class map and the DSCP → traffic-class
/// map, each absolute (every entry stated): a merge only overwrites, so an entry that an
/// earlier build changed and this one does not need must be stated back. Traffic class 7
/// keeps EOS's own map on Sand before `SAND_QUEUE7`, where queue 7 is not configurable.
fn qos_maps(qos: &QosPlan, mode: QueueMode, release: Release) -> QosMaps {
    let sand_seven = mode == QueueMode::Sand && release < SAND_QUEUE7;
    let tc_queue: Vec<(u8, u8)> = (0u8..8)
        .filter(|&tc| !(sand_seven && tc == 7))
        .map(|tc| {
            let queue = qos
                .classes
                .iter()
                .find(|c| c.tc == tc)
                .map_or(tc, |c| c.queue);
            (tc, queue)
        })
        .collect();
    let mut cos_map: Vec<(u8, u8)> = (0u8..8).map(|c| (c, default_cos_tc(c))).collect();
    if qos.lossless_priorities.iter().any(|&p| p <= 1) {
        cos_map[0].1 = 0;
        cos_map[1].1 = 1;
    }
    // A lossless class on its own traffic class: its PFC priority (CoS) must land in that
    // traffic class, which EOS's default CoS map (0↔1 swapped, else identity) does not do.
    for c in qos.classes.iter().filter(|c| c.lossless) {
        if c.priority <= 1 && qos.lossless_priorities.iter().any(|&p| p <= 1) {
            continue;
        }
        if let Some(e) = cos_map.get_mut(usize::from(c.priority))
            && c.tc != default_cos_tc(c.priority)
        {
            e.1 = c.tc;
        }
    }
    let mut dscp_map = Vec::new();
    for tc in 0u8..8 {
        let dscps: Vec<String> = (0u8..)
            .zip(&qos.dscp_to_tc)
            .filter(|(_, t)| **t == tc)
            .map(|(d, _)| d.to_string())
            .collect();
        if !dscps.is_empty() {
            dscp_map.push((dscps.join(" "), tc));
        }
    }
    QosMaps {
        tc_queue,
        cos_map,
        dscp_map,
    }
}

/// What `qos_maps` gives, as the view's fields of the same names.
struct QosMaps {
    tc_queue: Vec<(u8, u8)>,
    cos_map: Vec<(u8, u8)>,
    dscp_map: Vec<(String, u8)>,
}

/// A class on tx-queue 7: refused on Sand before `SAND_QUEUE7`, else a note of what the
/// platform does with that queue.
fn queue_seven(
    ctx: &SwitchContext,
    mode: QueueMode,
    release: Release,
    notes: &mut Vec<Note>,
) -> Result<(), RenderError> {
    for c in ctx.qos.classes.iter().filter(|c| c.queue == 7) {
        if mode == QueueMode::Sand && release < SAND_QUEUE7 {
            return Err(unsupported(
                &ctx.device,
                SwitchOs::Eos,
                format!(
                    "class `{}` uses tx-queue 7, which Sand (Jericho) platforms reserve for control-plane traffic before EOS {SAND_QUEUE7} (this model: EOS {release}); give the class `queue 6` or below (its priority may stay 7), or set `os eos {SAND_QUEUE7}` if the switches run it",
                    c.name
                ),
            ));
        }
        let text = match mode {
            QueueMode::Sand => format!(
                "class `{}` uses tx-queue 7: Sand (Jericho) platforms map it to control-plane traffic and allow only a limited set of features on it from EOS {SAND_QUEUE7}; give the class `queue 6` or below (its priority may stay 7)",
                c.name
            ),
            QueueMode::Xgs | QueueMode::Unknown => format!(
                "class `{}` uses tx-queue 7: on Sand (Jericho) platforms before EOS {SAND_QUEUE7} queue 7 is reserved for control-plane traffic and not configurable, elsewhere it is shared with control-plane traffic; give the class `queue 6` or below (its priority may stay 7)",
                c.name
            ),
        };
        notes.push(Note::new(
            NoteKind::PlatformDependent,
            Property::ClassQueues,
            text,
        ));
    }
    Ok(())
}

/// The XGS MMU queue profile: one per switch (`… apply` makes it the platform's), so every
/// port gets the largest port's headroom; each lossless priority group gets the model's
/// dynamic threshold. Pools and the headroom-pool limit stay the platform's.
fn mmu(ctx: &SwitchContext, notes: &mut Vec<Note>) -> Result<Option<EosMmu>, RenderError> {
    let per_port: Vec<(u64, &str)> = ctx
        .ports
        .iter()
        .filter(|p| !p.lossless_priorities.is_empty())
        .map(|p| {
            (
                physics_sum(p.headroom.iter().map(|h| h.xoff_bytes)),
                p.name.as_str(),
            )
        })
        .collect();
    let Some(&(largest, port)) = per_port.iter().max_by_key(|(b, _)| *b) else {
        return Ok(None);
    };
    let log2 = ctx.buffer.queue_log2_alpha;
    let Some(threshold) = mmu_threshold(log2) else {
        return Err(unsupported(
            &ctx.device,
            SwitchOs::Eos,
            format!(
                "dynamic threshold 2^{log2}: the EOS MMU priority-group threshold takes 1/128 to 8 (`dynamic-threshold` -7 to 3)"
            ),
        ));
    };
    if per_port.iter().any(|(b, _)| *b != largest) {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::Headroom,
            format!(
                "one MMU queue profile serves every port: each gets the largest port headroom, {largest} B ({port}), more than shorter cables need"
            ),
        ));
    }
    notes.push(Note::new(
        NoteKind::DeviceManaged,
        Property::BufferPools,
        "buffer pools and the headroom-pool limit are not configured: EOS keeps the platform's MMU pools (fabricc's numbers are in report.md for reference)",
    ));
    static_threshold(ctx, "EOS", notes);
    Ok(Some(EosMmu {
        profile: MMU_PROFILE,
        headroom_bytes: largest,
        priority_groups: ctx
            .qos
            .lossless_priorities
            .iter()
            .map(|&p| (p, threshold.clone()))
            .collect(),
    }))
}

fn physics_sum(items: impl Iterator<Item = u64>) -> u64 {
    items.fold(0u64, u64::saturating_add)
}

/// Notes for the buffer values a CLI target leaves to the switch: computed headroom and pools
/// (advice), and `headroom` / `pfc-threshold` overrides it cannot state (warnings).
pub(crate) fn leaves_to_device(ctx: &SwitchContext, os: &str, notes: &mut Vec<Note>) {
    let lossless = ctx.ports.iter().any(|p| !p.lossless_priorities.is_empty());
    if lossless {
        notes.push(Note::new(
            NoteKind::DeviceManaged,
            Property::Headroom,
            format!(
                "PFC headroom, pause thresholds and buffer pools are not configured: {os} sizes them from its platform defaults (fabricc's numbers are in report.md for reference)"
            ),
        ));
    }
    fixed_headroom_and_static_threshold(ctx, os, notes);
}

/// Warnings for `headroom` and `pfc-threshold` overrides a target does not configure.
pub(crate) fn fixed_headroom_and_static_threshold(
    ctx: &SwitchContext,
    os: &str,
    notes: &mut Vec<Note>,
) {
    fixed_headroom(ctx, os, notes);
    static_threshold(ctx, os, notes);
}

/// A warning for a `headroom` override a target does not configure.
pub(crate) fn fixed_headroom(ctx: &SwitchContext, os: &str, notes: &mut Vec<Note>) {
    if let Some(h) = ctx.ports.iter().flat_map(|p| &p.headroom).find(|h| h.fixed) {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::Headroom,
            format!(
                "the `headroom` override ({} B on priority {}) is not configured: {os} reserves its own headroom",
                h.xoff_bytes, h.priority
            ),
        ));
    }
}

/// A warning for a static `pfc-threshold` a target does not configure.
pub(crate) fn static_threshold(ctx: &SwitchContext, os: &str, notes: &mut Vec<Note>) {
    if let Some(b) = ctx.ports.iter().find_map(|p| match p.pause_threshold {
        PauseThreshold::Static { bytes } if !p.lossless_priorities.is_empty() => Some(bytes),
        _ => None,
    }) {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::PauseThreshold,
            format!(
                "the static `pfc-threshold` ({b} B) is not configured: {os} pauses at its own (dynamic) threshold"
            ),
        ));
    }
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
                shape_percent: c.rate_percent,
            }
        })
        .collect();
    // Classes that share a queue (the checks make them agree) configure it once.
    queues.sort_by_key(|q| q.queue);
    queues.dedup_by_key(|q| q.queue);
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
        assert_eq!(threshold(150_000), "150000 bytes");
        assert_eq!(threshold(150_001), "150001 bytes");
        assert_eq!(round_10ms(205), 210);
        assert_eq!(round_10ms(200), 200);
        assert_eq!(mmu_threshold(0).as_deref(), Some("1"));
        assert_eq!(mmu_threshold(3).as_deref(), Some("8"));
        assert_eq!(mmu_threshold(-1).as_deref(), Some("1/2"));
        assert_eq!(mmu_threshold(-7).as_deref(), Some("1/128"));
        assert_eq!(mmu_threshold(4), None);
        assert_eq!(mmu_threshold(-8), None);
    }
}
