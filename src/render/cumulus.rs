//! NVIDIA Cumulus Linux (NVUE) view: a switch context as NVUE values.
//!
//! In: a `SwitchContext` with `os: cumulus`. Out: `CumulusView`, printed twice: as NVUE YAML
//! (`cumulus/nvue-qos.yaml`, a fragment for `nv config patch`) and as `nv set` commands
//! (`cumulus/nvue.sh`), and the notes of what Cumulus is left to decide. The NVUE paths and
//! the release each appeared in are from NVIDIA's NVUE command reference
//! (github.com/CumulusNetworks/docs, `content/nvue-reference/Set-and-Unset-Commands/QoS.md`):
//! `qos mapping default-global trust both` and DSCP → switch-priority; `egress-queue-mapping`
//! switch-priority → traffic-class; `traffic-pool default-lossless` / `default-lossy` in
//! percent; PFC profiles with switch-priority, tx/rx and `cable-length` (metres);
//! `congestion-control … traffic-class N` thresholds in **bytes**, probability percent;
//! `egress-scheduler` strict / dwrr + `bw-percent`; `pfc-watchdog polling-interval` (ms) and
//! `robustness` (intervals); per interface `link mtu`, `qos pfc profile`, `qos pfc-watchdog
//! state`, `qos congestion-control profile`.
//!
//! Decisions, with their evidence:
//! * The lossless pool is `default-lossless`, the pool of the documented non-RoCE PFC flow
//!   (Cumulus Linux 5.17 user guide, Quality of Service, "Flow Control Buffers"); the
//!   `roce-lossless` pool is documented only after `nv set qos roce`, a macro that would also
//!   change trust, ECN and scheduling behind the explicit settings here.
//! * Every traffic class is stated: the scheduler (`dwrr` 0 on unused classes, the value
//!   Cumulus assumes for an unstated queue) and ECN (`ecn disable` where no class marks: the
//!   default profile marks queue 0 at 150 KB/1.5 MB otherwise).
//! * One PFC profile per cable length: `default-global` carries the longest, shorter ports
//!   are bound to `fabricc-pfc-cable<G>` (the G-th shorter cable group, U6: named by what it
//!   is, so a cable change is one `cable-length` line), so switchd sizes each port's headroom
//!   for its own cable.
//! * Day two (C13): the YAML patch carries a `- unset:` item for what fabricc owns and this
//!   build does not set (`unset_paths`), disjoint from its `- set:` item; `nvue.sh` adds the
//!   ports and profiles that left the fabric from its ledger and applies both as one revision.
//! * Cumulus has one lossless priority group per port ("QoS currently supports a single
//!   lossless priority group", shared-headroom-pool reference): several lossless priorities
//!   share it, which a finding reports.
//! * The watchdog restores a queue after one polling interval without pause frames; a longer
//!   `restore` is reported. `robustness` = detect / poll, rounded up.
//! * Releases: `RELEASES` below is the one table of what each command needs.
//! * `load-balance { hash … }`: `system forwarding ecmp-hash`, every outer-header field stated
//!   (`ECMP_HASH_FIELDS`), `on`/`off` before 5.15 and `enabled`/`disabled` from it.

use serde::Serialize;

use super::context::{
    BufferPlan, PortContext, QosPlan, Release, Scheduling, SwitchContext, SwitchOs, Watchdog,
    WatchdogAction,
};
use super::eos::fixed_headroom_and_static_threshold;
use super::fidelity::{self, Note, NoteKind, Property};
use super::variants;
use super::{RenderError, escape, unsupported};

pub const DEFAULT_PROFILE: &str = "default-global";

// The bounds are model vocabulary (the model checks `os cumulus RELEASE` against them).
pub use crate::model::target::CUMULUS_NEWEST as NEWEST;
#[cfg(test)]
use crate::model::target::CUMULUS_OLDEST as OLDEST;

/// What an NVUE command needs, and from which release (NVUE reference "Version History").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// `nv set interface X qos congestion-control profile P`: 5.4.0.
    PortEcnProfile,
    /// `nv set qos pfc-watchdog …`, `nv set interface X qos pfc-watchdog state`: 5.6.0.
    PfcWatchdog,
}

/// The one table of release-dependent NVUE: a feature and the first release that has it.
pub const RELEASES: &[(Feature, Release)] = &[
    (Feature::PortEcnProfile, Release::new(5, 4)),
    (Feature::PfcWatchdog, Release::new(5, 6)),
];

/// Value spellings: every release from `OLDEST` to `NEWEST` takes `enable` / `disable` for
/// `ecn`, PFC `tx`/`rx` and `pfc-watchdog state` (the NVUE reference examples; 5.15 renamed
/// only `qos roce enable on|off` to `state enabled|disabled`, which is not used here).
pub const ENABLE: &str = "enable";
pub const DISABLE: &str = "disable";

/// Whether release `r` has `f`.
pub fn has(r: Release, f: Feature) -> bool {
    RELEASES
        .iter()
        .find(|(feature, _)| *feature == f)
        .is_none_or(|(_, first)| r >= *first)
}

pub use crate::lower::vocab::cumulus_port_name as port_name;

#[derive(Debug, Serialize)]
pub struct CumulusView {
    pub hostname: String,
    pub fabric: String,
    pub description: Option<String>,
    /// `5.17`.
    pub release: String,
    pub enable: &'static str,
    pub disable: &'static str,
    /// `(dscp, switch-priority)` for all 64 DSCPs.
    pub dscp_map: Vec<(u8, u8)>,
    /// `(switch-priority, traffic-class)` for all 8 priorities.
    pub egress_map: Vec<(u8, u8)>,
    pub lossless_priorities: Vec<u8>,
    pub lossless_pool_percent: u64,
    pub lossy_pool_percent: u64,
    /// PFC profiles: `default-global` first (the longest cable), then one per shorter cable.
    pub pfc_profiles: Vec<CPfcProfile>,
    pub ecn_profiles: Vec<CEcnProfile>,
    /// All eight traffic classes.
    pub schedulers: Vec<CScheduler>,
    pub watchdog: Option<CWatchdog>,
    /// Broken-out cages: `nv set interface swpN link breakout 2x`, which makes the sub-ports
    /// `swpNs0`, `swpNs1` that `ports` name (NVIDIA, NVUE Command Reference, Profile-Based
    /// Configuration, "swp1 through swp32 split into swp1s0 through swp32s3":
    /// https://docs.nvidia.com/networking-ethernet-software/nvue-reference/Set-and-Unset-Commands/Profile-Based-Configuration/ ;
    /// the same command in NVIDIA's generated Spectrum-X NVUE configurations, review C12).
    pub breakouts: Vec<CBreakout>,
    pub ports: Vec<CPort>,
    /// `nv set system forwarding ecmp-hash FIELD on|off` (`enabled|disabled` from 5.15), one per
    /// field fabricc decides; empty = not written (no `hash`, or `roce-qp`: FAB930).
    pub ecmp_hash: Vec<(&'static str, &'static str)>,
    /// `hash-seed` and adaptive routing (`render::lb` decides what is written).
    pub lb: super::lb::CumulusLb,
    /// The `- unset:` document: what fabricc owns and this build does not set (C13), as the
    /// lines of one YAML tree. Never a prefix of, nor under, a path the `- set:` document sets.
    pub unset: Vec<CLine>,
    /// The ledger lines (`# fabricc-owned …`): the ports and named profiles this build owns,
    /// which `nvue.sh` compares with the last applied file's to unset what left the fabric.
    pub owned_ports: String,
    pub owned_pfc: String,
    pub owned_ecn: String,
    /// The cages this build breaks out (a cage no later build uses is unset by `nvue.sh`).
    pub owned_breakouts: String,
    /// What applying this file disrupts on this release (C14), one header line each.
    pub disruption: Vec<String>,
    /// What the file owns and replaces on this release, one header line each.
    pub owns: Vec<String>,
}

/// One line of a YAML tree printed by the templates: its depth (two spaces each, under
/// `- unset:`) and its key, already quoted where YAML would read another type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CLine {
    pub depth: usize,
    pub key: String,
}

#[derive(Debug, Serialize)]
pub struct CBreakout {
    /// The cage's unbroken name, `swp32`.
    pub port: String,
    /// NVUE's mode word, `2x`.
    pub mode: String,
}

#[derive(Debug, Serialize)]
pub struct CPfcProfile {
    pub name: String,
    pub cable_length: u32,
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
    /// A PFC profile other than `default-global`.
    pub pfc_profile: Option<String>,
    /// Adaptive routing on this port (a switch-facing port with `mode adaptive` written).
    pub adaptive_routing: bool,
}

/// The outer-header fields of `nv set system forwarding ecmp-hash` fabricc sets, with the
/// `hash` keyword each stands for (NVIDIA, NVUE Command Reference, System Forwarding,
/// https://docs.nvidia.com/networking-ethernet-software/nvue-reference/Set-and-Unset-Commands/System-Forwarding/ ;
/// CumulusNetworks/docs@2e240e3de3a3:content/nvue-reference/Set-and-Unset-Commands/System-Forwarding.md,
/// "Introduced in Cumulus Linux 5.2.0"). `ipv6-label` and `ingress-interface` have no keyword:
/// they are set off so the switch hashes on what `hash` lists and nothing else (`nv show
/// system forwarding` shows `ipv6-label on` by default). `gtp-teid` and the `inner-*` fields
/// (tunnelled packets; off by default) are left alone. There is no field for the RoCEv2 BTH
/// destination QP.
const ECMP_HASH_FIELDS: [(&str, Option<&str>); 7] = [
    ("source-ip", Some("src-ip")),
    ("destination-ip", Some("dst-ip")),
    ("source-port", Some("src-port")),
    ("destination-port", Some("dst-port")),
    ("ip-protocol", Some("protocol")),
    ("ipv6-label", None),
    ("ingress-interface", None),
];

/// The release from which `ecmp-hash` fields take `enabled`/`disabled` instead of `on`/`off`
/// (the NVUE reference: "In Cumulus Linux 5.14 and earlier, you specify on or off").
const ECMP_HASH_ENABLED_FROM: Release = Release::new(5, 15);

/// `(field, value)` of every `ecmp-hash` field fabricc sets for `hash`; empty when there is
/// no `hash` or it names a field Cumulus has none for (`roce-qp`: FAB930 says so).
pub fn ecmp_hash(hash: Option<&[&str]>, release: Release) -> Vec<(&'static str, &'static str)> {
    let Some(hash) = hash else {
        return Vec::new();
    };
    let named = |k: &&str| ECMP_HASH_FIELDS.iter().any(|(_, kw)| *kw == Some(*k));
    if !hash.iter().all(named) {
        return Vec::new();
    }
    let (on, off) = if release >= ECMP_HASH_ENABLED_FROM {
        ("enabled", "disabled")
    } else {
        ("on", "off")
    };
    ECMP_HASH_FIELDS
        .iter()
        .map(|(field, kw)| {
            let asked = kw.is_some_and(|k| hash.contains(&k));
            (*field, if asked { on } else { off })
        })
        .collect()
}

/// Whether fabricc writes NVUE for `r` (the model rejects other releases first; the tests
/// below hold the table to it).
#[cfg(test)]
pub fn supported(r: Release) -> bool {
    (OLDEST..=NEWEST).contains(&r)
}

/// Whether Cumulus writes `hash` (every field has an `ecmp-hash` name). For the tests below.
#[cfg(test)]
pub fn writes_hash(hash: &[&str]) -> bool {
    !ecmp_hash(Some(hash), NEWEST).is_empty()
}

/// The PFC profile of the `group`-th shorter cable group (1 = the shortest), U6: named by
/// what it is, not by the cable length it carries, so a cable change is one changed line
/// (`cable-length`) and no rebinding of every port.
fn pfc_profile_name(group: usize) -> String {
    format!("fabricc-pfc-cable{group}")
}

pub fn view(ctx: &SwitchContext) -> Result<(CumulusView, Vec<Note>), RenderError> {
    let dev = ctx.device.as_str();
    let release = ctx.release.unwrap_or(NEWEST);
    let mut notes = Vec::new();
    super::fidelity::rate_caps_not_rendered(&ctx.qos, "traffic class", &mut notes);
    let qos = &ctx.qos;
    // The steps run in the file's order, so that errors and notes keep theirs.
    let dscp_map = dscp_map(qos);
    let egress_map = egress_map(qos);
    let watchdog = watchdog(dev, release, ctx.watchdog, &mut notes)?;
    let all = variants::variants(ctx);
    let ecn_profiles = ecn_profiles(dev, release, qos, &all, &mut notes)?;
    let schedulers = schedulers(qos);
    let lossless_pool_percent = lossless_pool_percent(&ctx.buffer);
    let (pfc_profiles, longest) = pfc_profiles(ctx);
    let lb = super::lb::cumulus_lb(ctx);
    let ports = ports(ctx, &all, watchdog.is_some(), (&pfc_profiles, longest), &lb);
    let breakouts = device_managed_and_breakouts(ctx, &mut notes);
    let lossless_priorities = qos.lossless_priorities.clone();
    let unset = tree_lines(&unset_paths(
        release,
        &lossless_priorities,
        &pfc_profiles,
        &ecn_profiles,
        &schedulers,
        watchdog.is_some(),
        &ports,
    ));
    let names = |it: &mut dyn Iterator<Item = &String>| {
        it.map(String::as_str).collect::<Vec<_>>().join(" ")
    };
    let owned_ports = names(&mut ports.iter().map(|p| &p.name));
    let named = |n: &&String| n.as_str() != DEFAULT_PROFILE;
    let owned_pfc = names(&mut pfc_profiles.iter().map(|p| &p.name).filter(named));
    let owned_ecn = names(&mut ecn_profiles.iter().map(|p| &p.name).filter(named));
    let owned_breakouts = names(&mut breakouts.iter().map(|b| &b.port));
    let disruption = disruption(release, &lb, &breakouts);
    let owns = owns(release);
    Ok((
        CumulusView {
            hostname: ctx.device.clone(),
            fabric: ctx.fabric.clone(),
            description: ctx.description.as_deref().map(escape::comment_text),
            release: release.to_string(),
            enable: ENABLE,
            disable: DISABLE,
            dscp_map,
            egress_map,
            lossless_priorities,
            lossless_pool_percent,
            lossy_pool_percent: 100 - lossless_pool_percent,
            pfc_profiles,
            ecn_profiles,
            schedulers,
            watchdog,
            breakouts,
            ports,
            ecmp_hash: ecmp_hash(ctx.hash_fields.as_deref(), release),
            lb,
            unset,
            owned_ports,
            owned_pfc,
            owned_ecn,
            owned_breakouts,
            disruption,
            owns,
        },
        notes,
    ))
}

/// DSCP → switch-priority: the class that lists the DSCP, else the class of its TC.
fn dscp_map(qos: &QosPlan) -> Vec<(u8, u8)> {
    let mut dscp_map = Vec::with_capacity(64);
    for (dscp, &tc) in (0u8..).zip(qos.dscp_to_tc.iter()) {
        let class = qos
            .classes
            .iter()
            .find(|c| c.dscps.contains(&dscp))
            .or_else(|| qos.classes.iter().find(|c| c.tc == tc));
        dscp_map.push((dscp, class.map_or(0, |c| c.priority)));
    }
    dscp_map
}

/// Switch-priority → egress queue.
fn egress_map(qos: &QosPlan) -> Vec<(u8, u8)> {
    (0u8..8)
        .map(|sp| {
            (
                sp,
                qos.classes
                    .iter()
                    .find(|c| c.priority == sp)
                    .map_or(0, |c| c.queue),
            )
        })
        .collect()
}

/// `qos pfc-watchdog`: drop only, detection in whole polls, no restore timer.
fn watchdog(
    dev: &str,
    release: Release,
    watchdog: Option<Watchdog>,
    notes: &mut Vec<Note>,
) -> Result<Option<CWatchdog>, RenderError> {
    match watchdog {
        None => Ok(None),
        Some(w) if w.action != WatchdogAction::Drop => Err(unsupported(
            dev,
            SwitchOs::Cumulus,
            "PFC watchdog action other than drop: the Cumulus watchdog drops a stormed queue; use `action drop`",
        )),
        Some(_) if !has(release, Feature::PfcWatchdog) => {
            notes.push(Note::new(
                NoteKind::ReleaseLacks,
                Property::WatchdogEnable,
                format!(
                    "Cumulus Linux {release} has no `qos pfc-watchdog` (5.6 and later): the switch runs without a PFC watchdog"
                ),
            ));
            Ok(None)
        }
        Some(w) => {
            let poll = w.poll_ms.max(1);
            let robustness = w.detect_ms.div_ceil(poll);
            if robustness * poll != w.detect_ms {
                notes.push(Note::new(
                    NoteKind::Approximated,
                    Property::WatchdogDetect,
                    format!(
                        "detection is a whole number of polls: detect {} ms becomes robustness {robustness} × {poll} ms = {} ms",
                        w.detect_ms,
                        robustness * poll
                    ),
                ));
            }
            // A restore the fabric does not state is not a request (the language default).
            if w.restore_ms != poll && !w.defaults.restore {
                notes.push(Note::new(
                    NoteKind::NotRendered,
                    Property::WatchdogRestore,
                    format!(
                        "Cumulus has no restore timer: it restores a queue after one polling interval without pause frames ({poll} ms), not after restore {} ms",
                        w.restore_ms
                    ),
                ));
            }
            Ok(Some(CWatchdog {
                polling_interval_ms: poll,
                robustness,
            }))
        }
    }
}

/// One congestion-control profile per port variant: Cumulus has one PFC priority set per
/// switch, so variants may differ in ECN only.
fn ecn_profiles(
    dev: &str,
    release: Release,
    qos: &QosPlan,
    all: &[variants::Variant],
    notes: &mut Vec<Note>,
) -> Result<Vec<CEcnProfile>, RenderError> {
    for v in all {
        if !v.ports.is_empty() && v.lossless_priorities != qos.lossless_priorities {
            return Err(unsupported(
                dev,
                SwitchOs::Cumulus,
                format!(
                    "ports {} run other lossless priorities than the switch's PFC profile",
                    v.ports.join(", ")
                ),
            ));
        }
    }
    if qos.lossless_priorities.len() > 1 {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::PfcPriorities,
            format!(
                "lossless priorities {} share Cumulus's one lossless priority group: each stays lossless (PFC and the lossless traffic pool on both), a pause on one pauses all, and the group's headroom, which switchd sizes from the port's cable, covers all: one pause stops them together, so at most one link's worth of data is in flight (C4)",
                qos.lossless_priorities
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let used: Vec<&variants::Variant> = all
        .iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .collect();
    if used.len() > 1 && !has(release, Feature::PortEcnProfile) {
        return Err(unsupported(
            dev,
            SwitchOs::Cumulus,
            format!(
                "ports with their own ECN thresholds need a per-port congestion-control profile, which Cumulus Linux {release} does not have (5.4 and later)"
            ),
        ));
    }
    Ok(used
        .iter()
        .map(|v| CEcnProfile {
            name: ecn_profile_name(v.index),
            queues: (0u8..8)
                .map(|tc| {
                    let e = variants::ecn_of(v, tc);
                    CEcnQueue {
                        tc,
                        enable: e.is_some(),
                        min_bytes: e.map_or(0, |e| e.min_bytes),
                        max_bytes: e.map_or(0, |e| e.max_bytes),
                        probability: e.map_or(0, |e| e.probability_percent),
                    }
                })
                .collect(),
        })
        .collect())
}

/// The scheduler of each of the 8 traffic classes; a TC no class uses gets DWRR 0.
fn schedulers(qos: &QosPlan) -> Vec<CScheduler> {
    (0u8..8)
        .map(|tc| {
            match qos
                .classes
                .iter()
                .find(|c| c.queue == tc)
                .map(|c| c.scheduling)
            {
                Some(Scheduling::Strict) => CScheduler {
                    tc,
                    strict: true,
                    bw_percent: 0,
                },
                Some(Scheduling::Ets { weight_percent }) => CScheduler {
                    tc,
                    strict: false,
                    bw_percent: weight_percent,
                },
                None => CScheduler {
                    tc,
                    strict: false,
                    bw_percent: 0,
                },
            }
        })
        .collect()
}

fn lossless_pool_percent(b: &BufferPlan) -> u64 {
    if b.total_bytes == 0 {
        0
    } else {
        u64::try_from(u128::from(b.ingress_lossless_pool_bytes) * 100 / u128::from(b.total_bytes))
            .unwrap_or(100)
            .min(100)
    }
}

fn lossless_ports(ctx: &SwitchContext) -> impl Iterator<Item = &PortContext> {
    ctx.ports
        .iter()
        .filter(|p| !p.lossless_priorities.is_empty())
}

/// The PFC profiles, one per cable length of the lossless ports: `default-global` takes the
/// longest. Returns them and that longest cable.
fn pfc_profiles(ctx: &SwitchContext) -> (Vec<CPfcProfile>, u32) {
    let longest = lossless_ports(ctx).map(|p| p.cable_m).max().unwrap_or(10);
    let mut cables: Vec<u32> = lossless_ports(ctx)
        .map(|p| p.cable_m)
        .filter(|&c| c != longest)
        .collect();
    cables.sort_unstable();
    cables.dedup();
    let mut pfc_profiles = vec![CPfcProfile {
        name: DEFAULT_PROFILE.to_string(),
        cable_length: longest,
    }];
    pfc_profiles.extend((1..).zip(&cables).map(|(group, &c)| CPfcProfile {
        name: pfc_profile_name(group),
        cable_length: c,
    }));
    (pfc_profiles, longest)
}

/// Each port with the profiles other than `default-global` it names.
fn ports(
    ctx: &SwitchContext,
    all: &[variants::Variant],
    watchdog_on: bool,
    (pfc_profiles, longest): (&[CPfcProfile], u32),
    lb: &super::lb::CumulusLb,
) -> Vec<CPort> {
    ctx.ports
        .iter()
        .map(|p| {
            let v = variants::variant_of(all, &p.name);
            let lossless = !p.lossless_priorities.is_empty();
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
                watchdog: watchdog_on && all[v].watchdog && lossless,
                ecn_profile: (v != 0).then(|| ecn_profile_name(v)),
                pfc_profile: pfc_profiles
                    .iter()
                    .skip(1)
                    .find(|pr| lossless && p.cable_m != longest && pr.cable_length == p.cable_m)
                    .map(|pr| pr.name.clone()),
                adaptive_routing: lb.ar_ports.contains(&p.name),
            }
        })
        .collect()
}

/// What switchd decides itself (headroom, thresholds), and the cages' breakouts.
fn device_managed_and_breakouts(ctx: &SwitchContext, notes: &mut Vec<Note>) -> Vec<CBreakout> {
    if lossless_ports(ctx).next().is_some() {
        notes.push(Note::new(
            NoteKind::DeviceManaged,
            Property::Headroom,
            "PFC headroom, xoff/xon and pool alpha are not configured: switchd sizes them from each port's cable length and speed (fabricc's numbers are in report.md for reference)",
        ));
    }
    fixed_headroom_and_static_threshold(ctx, "Cumulus", notes);
    fidelity::device_managed(ctx, true, notes);
    ctx.platform
        .iter()
        .flat_map(|p| &p.breakouts)
        .map(|b| CBreakout {
            port: port_name(b.cage.saturating_sub(1)),
            mode: format!("{}x", b.ways),
        })
        .collect()
}

/// What fabricc owns and this build does not set (C13): the paths of the `- unset:` document.
///
/// NVUE's `set` merges (`nv config patch` "Updates the pending configuration", NVUE Command
/// Reference, Config Commands), so what an earlier build set and this one does not would stay.
/// Every path here lies in a domain fabricc owns and can name without knowing the earlier
/// build: the eight switch priorities of the lossless pool and of each PFC profile written,
/// the thresholds of a traffic class without ECN, the weight of a strict class, the watchdog,
/// and the optional per-port settings of each fabric port. Profiles and ports of an earlier
/// build that this one no longer has cannot be named here: `nvue.sh` unsets them from its
/// ledger (`# fabricc-owned …` lines of the last applied file).
///
/// No path is a prefix of, or lies under, a path the `- set:` document sets: NVUE does not
/// order the items of one patch ("Ordering of parameters within a patch is not guaranteed";
/// set and unset of the same object in one patch only from Cumulus Linux 5.16: NVUE CLI,
/// "Replace and Patch a Pending Configuration", Cumulus Linux 5.17 User Guide), so the two
/// documents touch disjoint leaves and any order gives the same revision.
fn unset_paths(
    release: Release,
    lossless: &[u8],
    pfc_profiles: &[CPfcProfile],
    ecn_profiles: &[CEcnProfile],
    schedulers: &[CScheduler],
    watchdog_on: bool,
    ports: &[CPort],
) -> Vec<Vec<String>> {
    let w = |words: &[&str]| words.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
    let mut out = Vec::new();
    let other: Vec<String> = (0u8..8)
        .filter(|p| !lossless.contains(p))
        .map(|p| p.to_string())
        .collect();
    if lossless.is_empty() {
        // No lossless class: the pools' split and the PFC profile go back to NVUE's defaults.
        out.push(w(&["qos", "traffic-pool", "default-lossless"]));
        out.push(w(&["qos", "traffic-pool", "default-lossy"]));
        out.push(w(&["qos", "pfc", DEFAULT_PROFILE]));
    } else {
        for p in &other {
            out.push(w(&[
                "qos",
                "traffic-pool",
                "default-lossless",
                "switch-priority",
                p,
            ]));
        }
        for profile in pfc_profiles {
            for p in &other {
                out.push(w(&["qos", "pfc", &profile.name, "switch-priority", p]));
            }
        }
    }
    for profile in ecn_profiles {
        for q in profile.queues.iter().filter(|q| !q.enable) {
            let tc = q.tc.to_string();
            for leaf in ["min-threshold", "max-threshold", "probability"] {
                out.push(w(&[
                    "qos",
                    "congestion-control",
                    &profile.name,
                    "traffic-class",
                    &tc,
                    leaf,
                ]));
            }
        }
    }
    for s in schedulers.iter().filter(|s| s.strict) {
        out.push(w(&[
            "qos",
            "egress-scheduler",
            DEFAULT_PROFILE,
            "traffic-class",
            &s.tc.to_string(),
            "bw-percent",
        ]));
    }
    let watchdog_path = has(release, Feature::PfcWatchdog);
    if !watchdog_on && watchdog_path {
        out.push(w(&["qos", "pfc-watchdog"]));
    }
    for port in ports {
        let n = port.name.as_str();
        if port.description_yaml.is_none() {
            out.push(w(&["interface", n, "description"]));
        }
        if port.pfc_profile.is_none() {
            out.push(w(&["interface", n, "qos", "pfc"]));
        }
        if !port.watchdog && watchdog_path {
            out.push(w(&["interface", n, "qos", "pfc-watchdog"]));
        }
        if port.ecn_profile.is_none() && has(release, Feature::PortEcnProfile) {
            out.push(w(&["interface", n, "qos", "congestion-control"]));
        }
    }
    out
}

/// Paths as the lines of one YAML tree, keys in first-seen order; a key YAML would read as a
/// number is quoted (`'3'`), as NVUE prints it.
fn tree_lines(paths: &[Vec<String>]) -> Vec<CLine> {
    /// Children in first-seen order, and where each key is among them once there are many
    /// (`interface` has one child per port: a scan per path made the tree quadratic).
    #[derive(Default)]
    struct Node<'p> {
        children: Vec<(&'p str, Node<'p>)>,
        index: std::collections::HashMap<&'p str, usize>,
    }
    const INDEXED: usize = 16;
    fn walk(node: &Node<'_>, depth: usize, out: &mut Vec<CLine>) {
        for (key, child) in &node.children {
            let key = if key.bytes().all(|b| b.is_ascii_digit()) {
                format!("'{key}'")
            } else {
                (*key).to_string()
            };
            out.push(CLine { depth, key });
            walk(child, depth + 1, out);
        }
    }
    let mut root = Node::default();
    for path in paths {
        let mut node = &mut root;
        for key in path {
            let key = key.as_str();
            let found = if node.children.len() > INDEXED {
                node.index.get(key).copied()
            } else {
                node.children.iter().position(|(k, _)| *k == key)
            };
            let i = match found {
                Some(i) => i,
                None => {
                    node.children.push((key, Node::default()));
                    let i = node.children.len() - 1;
                    if node.children.len() > INDEXED {
                        if node.index.is_empty() {
                            node.index = node
                                .children
                                .iter()
                                .enumerate()
                                .map(|(i, (k, _))| (*k, i))
                                .collect();
                        } else {
                            node.index.insert(key, i);
                        }
                    }
                    i
                }
            };
            node = &mut node.children[i].1;
        }
    }
    let mut out = Vec::new();
    walk(&root, 0, &mut out);
    out
}

/// The header's list of what the file owns on `release` (the paths `unset_paths` may clear).
fn owns(release: Release) -> Vec<String> {
    let mut port = vec!["description", "link mtu", "qos pfc"];
    let mut out = vec![
        "qos mapping, egress-queue-mapping, pfc, congestion-control and egress-scheduler `default-global`: the settings fabricc states".to_string(),
        "qos traffic-pool default-lossless and default-lossy".to_string(),
        "qos pfc and qos congestion-control profiles named fabricc-*".to_string(),
    ];
    if has(release, Feature::PfcWatchdog) {
        out.push("qos pfc-watchdog".to_string());
        port.push("qos pfc-watchdog");
    }
    if has(release, Feature::PortEcnProfile) {
        port.push("qos congestion-control");
    }
    out.push(format!("on each fabric port below: {}", port.join(", ")));
    out
}

/// The header's disruption notes for this release and this file's content (C14): what
/// `nv config apply` of it restarts or flaps, from NVIDIA's Cumulus Linux documentation.
fn disruption(release: Release, lb: &super::lb::CumulusLb, breakouts: &[CBreakout]) -> Vec<String> {
    let mut out = vec![
        "QoS (maps, pools, PFC, ECN, scheduler, watchdog): switchd reloads its QoS configuration without a restart; a changed pool split or PFC profile reprograms the buffers, and traffic of the changed priorities can drop briefly (Cumulus Linux User Guide, Quality of Service).".to_string(),
        "link mtu: the port's MTU changes in place; no link flap is documented.".to_string(),
    ];
    if lb.adaptive_routing.is_some() && release < Release::new(5, 13) {
        out.push(format!(
            "router adaptive-routing: on Cumulus Linux {release} NVUE RESTARTS switchd when the setting changes, which stops forwarding on every port (NVUE Command Reference, Adaptive Routing: \"In Cumulus Linux 5.12 and earlier, NVUE restarts switchd\"; from 5.13 it no longer does)."
        ));
    } else if lb.adaptive_routing.is_some() {
        out.push("router adaptive-routing: from Cumulus Linux 5.13 enabling it no longer restarts switchd (What's New in 5.13).".to_string());
    }
    if lb.hash_seed.is_some() {
        out.push("system forwarding hash-seed: a CHANGED seed restarts switchd, which resets every port (Cumulus Linux User Guide, Equal Cost Multipath Load Sharing, \"Unique Hash Seed\": \"Configuring the hash seed restarts the switchd service\"); an unchanged seed is no change.".to_string());
    }
    if !breakouts.is_empty() {
        out.push("interface … link breakout: a CHANGED breakout re-creates the cage's ports; their links go down (Cumulus Linux User Guide, Switch Port Attributes, Breakout Ports); an unchanged breakout is no change.".to_string());
    }
    out.push("Drain the switch first when a line above says RESTARTS or a breakout changes (BGP graceful shutdown or maintenance mode), and change one switch of a tier at a time.".to_string());
    out
}

fn ecn_profile_name(index: usize) -> String {
    if index == 0 {
        DEFAULT_PROFILE.to_string()
    } else {
        format!("fabricc-ecn-{}", index + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecmp_hash_fields_and_their_spelling_per_release() {
        let two = ["src-ip", "dst-ip"];
        let old = ecmp_hash(Some(&two), Release::new(5, 14));
        assert_eq!(
            old,
            [
                ("source-ip", "on"),
                ("destination-ip", "on"),
                ("source-port", "off"),
                ("destination-port", "off"),
                ("ip-protocol", "off"),
                ("ipv6-label", "off"),
                ("ingress-interface", "off"),
            ]
        );
        let new = ecmp_hash(Some(&two), Release::new(5, 15));
        assert_eq!(new[0], ("source-ip", "enabled"));
        assert_eq!(new[6], ("ingress-interface", "disabled"));
        // No NVUE field for the RoCE QP: nothing is written (FAB930).
        assert!(ecmp_hash(Some(&["src-ip", "roce-qp"]), NEWEST).is_empty());
        assert!(!writes_hash(&["roce-qp"]));
        assert!(ecmp_hash(None, NEWEST).is_empty());
    }

    #[test]
    fn disruption_notes_follow_the_release_and_the_content() {
        let ar = super::super::lb::CumulusLb {
            hash_seed: Some(7),
            adaptive_routing: Some(("enable", "on")),
            ar_ports: vec!["swp1".into()],
        };
        let cage = [CBreakout {
            port: "swp1".into(),
            mode: "2x".into(),
        }];
        // C14: adaptive routing restarts switchd up to 5.12, not from 5.13.
        let old = disruption(Release::new(5, 12), &ar, &cage).join("\n");
        assert!(old.contains("NVUE RESTARTS switchd"), "{old}");
        assert!(
            old.contains("hash-seed: a CHANGED seed restarts switchd"),
            "{old}"
        );
        assert!(old.contains("link breakout"), "{old}");
        let new = disruption(Release::new(5, 13), &ar, &[]).join("\n");
        assert!(!new.contains("RESTARTS switchd when") && !new.contains("link breakout"));
        let plain = disruption(NEWEST, &Default::default(), &[]).join("\n");
        assert!(
            !plain.contains("NVUE RESTARTS") && !plain.contains("restarts switchd"),
            "{plain}"
        );
    }

    #[test]
    fn unset_lines_form_one_tree() {
        let p = |w: &[&str]| w.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
        let lines = tree_lines(&[
            p(&["qos", "pfc", "default-global", "switch-priority", "4"]),
            p(&["interface", "swp1", "description"]),
            p(&["qos", "pfc", "default-global", "switch-priority", "5"]),
        ]);
        let text: Vec<String> = lines
            .iter()
            .map(|l| format!("{}{}", "  ".repeat(l.depth), l.key))
            .collect();
        assert_eq!(
            text,
            [
                "qos",
                "  pfc",
                "    default-global",
                "      switch-priority",
                "        '4'",
                "        '5'",
                "interface",
                "  swp1",
                "    description",
            ]
        );
    }

    #[test]
    fn release_table() {
        assert!(supported(NEWEST) && supported(OLDEST));
        assert!(!supported(Release::new(5, 2)) && !supported(Release::new(5, 18)));
        assert!(!has(Release::new(5, 5), Feature::PfcWatchdog));
        assert!(has(Release::new(5, 6), Feature::PfcWatchdog));
        assert!(!has(Release::new(5, 3), Feature::PortEcnProfile));
        assert!(has(NEWEST, Feature::PortEcnProfile));
    }
}
