//! The order of a rollout: phases (which devices move from which version to which), each cut
//! into waves small enough that the fabric keeps its capacity while a wave is drained.
//!
//! Within a phase the first wave is a canary (one device). The rest of each switch tier (top
//! tier first: a spine's traffic moves to its peers by ECMP), and the rest of the hosts, are
//! striped into groups of at most `max_unavailable_percent` of the tier: device i of the tier
//! goes to group i mod k, so neighbours by name (the same pod, plane or rail) land in
//! different waves.

use std::collections::BTreeSet;

use rayon::prelude::*;
use serde::Serialize;

use super::disruption::{Disruption, Target};
use super::procedure;
use super::state::{Device, DeviceKind, Options, Order, Version, natural, target_name};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Switches take the bridge: both class plans lossless.
    SwitchesAccept,
    /// Hosts take the bridge's mapping, still marking as before.
    HostsAccept,
    /// Hosts mark their traffic as NEW says.
    HostsMark,
    /// Switches drop what only OLD needed.
    SwitchesNarrow,
    /// Hosts drop what only OLD needed.
    HostsNarrow,
    Switches,
    Hosts,
    /// Every device at once, the lossless traffic drained (FAB813).
    FlagDay,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::SwitchesAccept => "switches-accept",
            Phase::HostsAccept => "hosts-accept",
            Phase::HostsMark => "hosts-mark",
            Phase::SwitchesNarrow => "switches-narrow",
            Phase::HostsNarrow => "hosts-narrow",
            Phase::Switches => "switches",
            Phase::Hosts => "hosts",
            Phase::FlagDay => "flag-day",
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            Phase::SwitchesAccept => {
                "switches accept both the old and the new class plan as lossless (the bridge)"
            }
            Phase::HostsAccept => {
                "hosts map both plans' DSCPs as the bridge does, still marking their traffic as before"
            }
            Phase::HostsMark => "hosts mark their traffic as the new build says",
            Phase::SwitchesNarrow => "switches drop what only the old plan needed",
            Phase::HostsNarrow => "hosts drop what only the old plan needed",
            Phase::Switches => "switches take the new build",
            Phase::Hosts => "hosts take the new build",
            Phase::FlagDay => {
                "every changed device takes the new build at once, with the fabric's lossless traffic drained"
            }
        }
    }

    /// The kind of device the phase moves; `None` = both.
    pub fn devices(self) -> Option<DeviceKind> {
        match self {
            Phase::SwitchesAccept | Phase::SwitchesNarrow | Phase::Switches => {
                Some(DeviceKind::Switch)
            }
            Phase::HostsAccept | Phase::HostsMark | Phase::HostsNarrow | Phase::Hosts => {
                Some(DeviceKind::Host)
            }
            Phase::FlagDay => None,
        }
    }
}

/// One wave: devices taken out of service, changed, checked and returned together.
#[derive(Debug, Clone, Serialize)]
pub struct Wave {
    /// 1-based.
    pub index: usize,
    pub phase: Phase,
    /// `switches-accept 2/5`, `hosts 1/5 (canary)`.
    pub label: String,
    /// The folder of the plan output with the files this wave applies.
    pub folder: String,
    pub from: Version,
    pub to: Version,
    /// Natural order.
    pub devices: Vec<String>,
    /// The most disruptive change of the wave.
    pub disruption: Disruption,
    /// Whether the devices are drained first (anything beyond a hitless change, a
    /// replacement, or the flag day).
    pub drain: bool,
    /// drain → apply → gate → undrain, per target of the wave.
    pub steps: Vec<String>,
    pub rollback: Vec<String>,
}

/// The phases of a plan, in order, with the versions each moves devices between.
fn phases(opts: &Options, bridge: bool, flag_day: bool) -> Vec<(Phase, Version, Version)> {
    use Version::*;
    if flag_day {
        return vec![(Phase::FlagDay, Old, New)];
    }
    if bridge {
        return vec![
            (Phase::SwitchesAccept, Old, Bridge),
            (Phase::HostsAccept, Old, Bridge),
            (Phase::HostsMark, Bridge, BridgeMarkingNew),
            (Phase::SwitchesNarrow, Bridge, New),
            (Phase::HostsNarrow, BridgeMarkingNew, New),
        ];
    }
    match opts.order {
        Order::HostsFirst => vec![(Phase::Hosts, Old, New), (Phase::Switches, Old, New)],
        _ => vec![(Phase::Switches, Old, New), (Phase::Hosts, Old, New)],
    }
}

pub fn waves(
    devices: &[Device],
    opts: &Options,
    bridge: bool,
    flag_day: bool,
    replace: &BTreeSet<&str>,
) -> Vec<Wave> {
    let phases = phases(opts, bridge, flag_day);
    let last_of = |kind: DeviceKind| {
        phases
            .iter()
            .rposition(|(p, _, _)| p.devices().is_none_or(|k| k == kind))
    };
    let k = usize::from(100u8.div_ceil(opts.max_unavailable_percent.clamp(1, 100)));
    let mut out = Vec::new();
    for (pi, &(phase, from, to)) in phases.iter().enumerate() {
        let folder = format!("phases/{}-{}", pi + 1, phase.as_str());
        let members: Vec<&Device> = devices
            .iter()
            .filter(|d| phase.devices().is_none_or(|k| k == d.kind))
            .filter(|d| {
                d.differs(from, to)
                    || (replace.contains(d.name.as_str()) && last_of(d.kind) == Some(pi))
            })
            .collect();
        if members.is_empty() {
            continue;
        }
        let groups: Vec<Vec<&Device>> = if phase == Phase::FlagDay {
            vec![members]
        } else {
            stripe(members, k)
        };
        let n = groups.len();
        for (gi, group) in groups.into_iter().enumerate() {
            let label = if n == 1 {
                phase.as_str().to_string()
            } else if gi == 0 && group.len() == 1 {
                format!("{} 1/{n} (canary)", phase.as_str())
            } else {
                format!("{} {}/{n}", phase.as_str(), gi + 1)
            };
            out.push(wave(
                out.len() + 1,
                phase,
                label,
                &folder,
                (from, to),
                &group,
                replace,
            ));
        }
    }
    out
}

/// The canary, then each tier (top first) striped into `k` groups.
fn stripe<'d, 'a>(mut members: Vec<&'d Device<'a>>, k: usize) -> Vec<Vec<&'d Device<'a>>> {
    members.sort_by(|a, b| {
        (std::cmp::Reverse(a.tier), natural(&a.name))
            .cmp(&(std::cmp::Reverse(b.tier), natural(&b.name)))
    });
    let mut out = Vec::new();
    if members.len() > 1 {
        out.push(vec![members.remove(0)]);
    }
    let mut tiers: Vec<u8> = members.iter().map(|d| d.tier).collect();
    tiers.dedup();
    for t in tiers {
        let tier: Vec<&Device> = members.iter().copied().filter(|d| d.tier == t).collect();
        let groups = k.min(tier.len()).max(1);
        for g in 0..groups {
            let group: Vec<&Device> = tier
                .iter()
                .copied()
                .enumerate()
                .filter(|(i, _)| i % groups == g)
                .map(|(_, d)| d)
                .collect();
            if !group.is_empty() {
                out.push(group);
            }
        }
    }
    out
}

fn wave(
    index: usize,
    phase: Phase,
    label: String,
    folder: &str,
    (from, to): (Version, Version),
    group: &[&Device],
    replace: &BTreeSet<&str>,
) -> Wave {
    let mut disruption = Disruption::Hitless;
    let mut replaced = false;
    for d in group {
        if replace.contains(d.name.as_str()) {
            replaced = true;
            disruption = Disruption::Reboot;
        }
    }
    disruption = group
        .par_iter()
        .map(|d| match d.old_to_new {
            Some(known) if (from, to) == (Version::Old, Version::New) => known,
            _ => d
                .changes(from, to)
                .iter()
                .map(|c| c.disruption)
                .max()
                .unwrap_or(Disruption::Hitless),
        })
        .max()
        .unwrap_or(disruption)
        .max(disruption);
    let drain = phase == Phase::FlagDay || replaced || disruption > Disruption::Hitless;
    let targets: BTreeSet<Target> = group.iter().map(|d| d.target).collect();
    let who = |t: Target| {
        let names: Vec<&str> = group
            .iter()
            .filter(|d| d.target == t)
            .map(|d| d.name.as_str())
            .collect();
        if names.len() == 1 {
            names[0].to_string()
        } else {
            "<device>".to_string()
        }
    };
    let mut steps = Vec::new();
    if phase == Phase::FlagDay {
        steps.push("drain: stop the fabric's RDMA jobs (every host's lossless traffic): no order keeps the links' ends in agreement while it flows (FAB813)".to_string());
    }
    for &t in &targets {
        let tn = target_name(t);
        if drain {
            steps.push(format!("drain ({tn}): {}", procedure::drain(t)));
        } else {
            steps.push(format!(
                "drain ({tn}): not needed, the change is hitless on {tn}"
            ));
        }
        if replaced
            && group
                .iter()
                .any(|d| d.target == t && replace.contains(d.name.as_str()))
        {
            steps.push(format!(
                "replace ({tn}): swap the hardware, install the OS image and the base configuration the build does not hold (management, addressing, BGP)"
            ));
        }
        steps.push(format!(
            "apply ({tn}): {}",
            procedure::apply(t, &who(t), folder)
        ));
        steps.push(format!("gate ({tn}): {}", procedure::gate(t, &who(t))));
    }
    steps.push(if drain {
        "undrain: return the devices to service (end the maintenance mode or graceful shutdown; uncordon hosts); watch PFC pause and drop counters for 5 minutes before the next wave".to_string()
    } else {
        "next wave after watching PFC pause and drop counters for 5 minutes".to_string()
    });
    let rollback = targets
        .iter()
        .map(|&t| format!("{}: {}", target_name(t), procedure::rollback(t)))
        .collect();
    let mut devices: Vec<String> = group.iter().map(|d| d.name.clone()).collect();
    devices.sort_by_key(|n| natural(n));
    Wave {
        index,
        phase,
        label,
        folder: folder.to_string(),
        from,
        to,
        devices,
        disruption,
        drain,
        steps,
        rollback,
    }
}

/// The cable moves of a wave (`proof::Cabling`): unplug after the drain, before the apply;
/// plug after the apply, before the gate. The proof's states assume exactly these moves.
pub fn add_cabling(w: &mut Wave, unplug: &[String], plug: &[String]) {
    if unplug.is_empty() && plug.is_empty() {
        return;
    }
    // A cable that moves flaps its link: the wave is drained whatever else it changes.
    w.disruption = w.disruption.max(Disruption::PortFlap);
    if !w.drain {
        w.drain = true;
        for s in w
            .steps
            .iter_mut()
            .filter(|s| s.contains(": not needed, the change is hitless"))
        {
            if let Some((head, _)) = s.split_once(": not needed") {
                *s = format!("{head}: move traffic off the devices first: this wave moves cables");
            }
        }
        if let Some(last) = w.steps.last_mut()
            && last.starts_with("next wave")
        {
            *last = "undrain: return the devices to service; watch PFC pause and drop counters for 5 minutes before the next wave".to_string();
        }
    }
    let list = |links: &[String]| {
        if links.len() <= 8 {
            links.join(", ")
        } else {
            format!("{}, … ({} links)", links[..6].join(", "), links.len())
        }
    };
    if !unplug.is_empty() {
        let at = w
            .steps
            .iter()
            .position(|s| s.starts_with("apply"))
            .unwrap_or(0);
        w.steps.insert(
            at,
            format!(
                "unplug (or shut) the links this build removes or re-wires: {}",
                list(unplug)
            ),
        );
    }
    if !plug.is_empty() {
        let at = w
            .steps
            .iter()
            .rposition(|s| s.starts_with("gate"))
            .unwrap_or(w.steps.len());
        w.steps.insert(
            at,
            format!(
                "plug (or bring up) the links this build adds: {}",
                list(plug)
            ),
        );
    }
}
