//! `fabricc plan OLD NEW`: how to take a running fabric from one build to the next, and a
//! proof that every state it passes through is lossless and deadlock-free.
//!
//! In: two checked fabrics (`pipeline::Checked`, both without errors). Out: a [`Plan`] —
//! per device the settings that change, each classified by what it disrupts on that device's
//! target (`disruption`); ordered waves, each drain → apply → gate → undrain with its
//! rollback (`waves`, `procedure`); and the proof of every state after every wave (`proof`).
//!
//! A change that moves DSCPs between lossy and lossless, or changes an MTU, is planned
//! make-before-break through a bridge state (`bridge`): switches first accept both plans, hosts
//! then accept both, hosts then send the new marking, and last the old mapping is removed.
//! A DSCP that moves between two lossless priorities cannot be bridged: that plan drains the
//! lossless traffic for one wave (FAB813).

pub mod bridge;
pub mod disruption;
pub mod markdown;
mod procedure;
mod proof;
pub mod settings;
mod state;
mod waves;

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::lower::Lowered;
use crate::model::{Fabric, Limits};
use crate::pipeline::{self, Checked};
use crate::render::{HostContext, SwitchContext};

pub use disruption::{Disruption, Kind, Target};
pub use proof::ProofSummary;
pub use state::{Change, DeviceKind, Options, Order, Version};
pub(crate) use state::{Device, Versions, natural, target_name};
pub use waves::Wave;

/// A device the change touches.
#[derive(Debug, Clone, Serialize)]
pub struct DevicePlan {
    pub name: String,
    pub kind: DeviceKind,
    /// `sonic`, `cumulus`, `eos`, `nxos`, `junos`, or the host's NIC driver family.
    pub target: String,
    /// The most disruptive of its changes.
    pub disruption: Disruption,
    /// The waves (1-based) that change it.
    pub waves: Vec<usize>,
    pub changes: Vec<Change>,
}

/// The plan, as `--format json` writes it.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub old: String,
    pub new: String,
    pub order: Order,
    /// Whether the plan goes through the make-before-break bridge state.
    pub bridge: bool,
    pub devices: Vec<DevicePlan>,
    pub waves: Vec<Wave>,
    pub proof: ProofSummary,
    /// FAB81x findings of the plan (the two fabrics' own findings are `check`'s).
    #[serde(skip)]
    pub findings: Vec<Diagnostic>,
}

impl Plan {
    pub fn unsafe_steps(&self) -> usize {
        self.proof.unsafe_steps
    }
}

/// Why no plan can be made.
#[derive(Debug)]
pub enum Refused {
    /// A side has errors (`check` shows them).
    Errors(&'static str),
}

/// The host contexts of the bridge with the marking (RoCE ToS, CNP) of OLD or NEW and the
/// smaller MTU: what a host runs while it accepts both plans.
pub fn bridge_hosts(bridge: &Lowered, marking: &Lowered) -> Vec<HostContext> {
    let by_name: BTreeMap<&str, &HostContext> =
        marking.hosts.iter().map(|h| (h.host.as_str(), h)).collect();
    bridge
        .hosts
        .iter()
        // A host new in NEW has no old marking: it joins when hosts mark as NEW does.
        .filter_map(|h| {
            let m = by_name.get(h.host.as_str())?;
            let mut h = h.clone();
            h.qos.roce = m.qos.roce.clone();
            h.qos.other_roce = m.qos.other_roce.clone();
            h.qos.cnp_dscp = m.qos.cnp_dscp;
            h.qos.cnp_priority = m.qos.cnp_priority;
            Some(h)
        })
        .collect()
}

/// Makes the plan. The bridge's findings point into NEW's sources.
pub fn plan(
    old: &Checked,
    new: &Checked,
    names: (&str, &str),
    opts: &Options,
    limits: &Limits,
) -> Result<(Plan, Option<Checked>), Refused> {
    let (Some(old_f), Some(new_f)) = (&old.fabric, &new.fabric) else {
        return Err(Refused::Errors("a fabric did not resolve"));
    };
    if old.errors() > 0 {
        return Err(Refused::Errors("OLD has errors"));
    }
    if new.errors() > 0 {
        return Err(Refused::Errors("NEW has errors"));
    }
    let (Some(old_l), Some(new_l)) = (&old.lowered, &new.lowered) else {
        return Err(Refused::Errors("a fabric was not lowered"));
    };
    let mut findings = Vec::new();

    // Whether the change needs the bridge, and whether the bridge can be built and checked.
    let mtu_changes = old_f.mtu.value != new_f.mtu.value
        || old_f.roce_mtu.value != new_f.roce_mtu.value
        || old_f
            .switches
            .iter()
            .filter_map(|s| s.mtu)
            .ne(new_f.switches.iter().filter_map(|s| s.mtu));
    let needs_bridge =
        opts.order == Order::Auto && (bridge::classes_change(old_f, new_f) || mtu_changes);
    let mut flag_day = false;
    let mut bridge_checked = None;
    if needs_bridge {
        match bridge::bridge(old_f, new_f) {
            Ok(b) => {
                let checked = pipeline::check_fabric(b, limits);
                if checked.errors() > 0 || checked.lowered.is_none() {
                    let first = checked
                        .diagnostics
                        .iter()
                        .find(|d| d.is_error())
                        .map(|d| format!("{}: {}", d.code, d.message))
                        .unwrap_or_default();
                    findings.push(
                        Diagnostic::new(
                            Code::RolloutFlagDay,
                            new_f.span,
                            "the make-before-break state, with both class plans at once, fails `check`",
                        )
                        .label("this change")
                        .note(format!("the bridge state's first error: {first}"))
                        .help("split the change in two builds that each keep the buffers within budget (e.g. add the new lossless class, then remove the old one), or accept the drain"),
                    );
                    flag_day = true;
                } else {
                    bridge_checked = Some(checked);
                }
            }
            Err(c) => {
                let span = new_f
                    .classes
                    .iter()
                    .find(|k| k.name == c.class)
                    .map_or(new_f.span, |k| k.priority.span);
                findings.push(
                    Diagnostic::new(
                        Code::RolloutFlagDay,
                        span,
                        format!(
                            "DSCP {} moves from lossless priority {} to {}: no order of devices keeps both ends of every link in agreement while it flows",
                            c.dscp, c.old_priority, c.new_priority
                        ),
                    )
                    .label(format!("class {}", c.class))
                    .note("a device maps a DSCP to one priority, and a PFC pause on the other priority does not stop it")
                    .help("plan the move as two changes (a new class on the new priority and DSCP, hosts moved to it, then the old class removed), or accept the one-wave drain"),
                );
                flag_day = true;
            }
        }
    }
    let bridge_l = bridge_checked.as_ref().and_then(|c| c.lowered.as_ref());
    let marking_old = bridge_l.map(|b| bridge_hosts(b, old_l)).unwrap_or_default();
    let marking_new = bridge_l.map(|b| bridge_hosts(b, new_l)).unwrap_or_default();

    let mut devices = registry(
        old_f,
        new_f,
        old_l,
        new_l,
        bridge_l,
        &marking_old,
        &marking_new,
    );
    let versions = Versions {
        old: old_f,
        new: new_f,
        bridge: bridge_checked.as_ref().and_then(|c| c.fabric.as_ref()),
    };
    let finals: Vec<Vec<Change>> = devices
        .par_iter()
        .map(|d| d.changes(Version::Old, Version::New))
        .collect();
    for (d, c) in devices.iter_mut().zip(&finals) {
        d.old_to_new = Some(
            c.iter()
                .map(|c| c.disruption)
                .max()
                .unwrap_or(Disruption::Hitless),
        );
    }
    let replace: BTreeSet<&str> = opts.replace.iter().map(String::as_str).collect();
    let waves = waves::waves(&devices, opts, bridge_l.is_some(), flag_day, &replace);
    let (proof, mut proof_findings, cabling) =
        proof::prove(&devices, &versions, &waves, new_f, limits);
    findings.append(&mut proof_findings);
    let mut waves = waves;
    for (w, c) in waves.iter_mut().zip(cabling) {
        waves::add_cabling(w, &c.unplug, &c.plug);
    }

    let mut in_waves: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for w in &waves {
        for n in &w.devices {
            in_waves.entry(n.as_str()).or_default().push(w.index);
        }
    }
    let mut plans = Vec::new();
    for (d, mut changes) in devices.iter().zip(finals) {
        let replaced = replace.contains(d.name.as_str());
        if replaced {
            changes.insert(
                0,
                Change {
                    key: "device".into(),
                    old: Some("present".into()),
                    new: Some("replaced".into()),
                    kind: Kind::Platform,
                    disruption: Disruption::Reboot,
                    source: "the device is replaced (RMA): drained, swapped, and given its whole configuration",
                },
            );
        }
        let in_waves: Vec<usize> = in_waves.get(d.name.as_str()).cloned().unwrap_or_default();
        if changes.is_empty() && in_waves.is_empty() {
            continue;
        }
        plans.push(DevicePlan {
            name: d.name.clone(),
            kind: d.kind,
            target: target_name(d.target).into(),
            disruption: changes
                .iter()
                .map(|c| c.disruption)
                .max()
                .unwrap_or(Disruption::Hitless),
            waves: in_waves,
            changes,
        });
    }
    plans.sort_by_key(|a| (a.kind, natural(&a.name)));
    crate::diagnostic::sort(&mut findings);
    let plan = Plan {
        old: names.0.into(),
        new: names.1.into(),
        order: opts.order,
        bridge: bridge_l.is_some(),
        devices: plans,
        waves,
        proof,
        findings,
    };
    Ok((plan, bridge_checked))
}

/// Every device of either fabric, with its context in each version.
fn registry<'a>(
    old_f: &Fabric,
    new_f: &Fabric,
    old: &'a Lowered,
    new: &'a Lowered,
    bridge: Option<&'a Lowered>,
    marking_old: &'a [HostContext],
    marking_new: &'a [HostContext],
) -> Vec<Device<'a>> {
    let mut by_name: BTreeMap<(DeviceKind, String), Device<'a>> = BTreeMap::new();
    let tier = |f: &Fabric, name: &str| {
        f.switches
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.tier)
            .map_or(0, |t| t.value)
    };
    let mut switch = |ctx: &'a SwitchContext, v: Version, f: &Fabric| {
        let d = by_name
            .entry((DeviceKind::Switch, ctx.device.clone()))
            .or_insert_with(|| Device {
                name: ctx.device.clone(),
                kind: DeviceKind::Switch,
                target: Target::Switch(ctx.os),
                tier: tier(f, &ctx.device),
                switch: [None; 5],
                host: [None; 5],
                old_to_new: None,
            });
        d.switch[v as usize] = Some(ctx);
        if v == Version::New {
            d.target = Target::Switch(ctx.os);
        }
    };
    for c in &old.switches {
        switch(c, Version::Old, old_f);
    }
    for c in &new.switches {
        switch(c, Version::New, new_f);
    }
    // Switches in the bridge run the same files whatever hosts mark.
    for c in bridge.map_or(&[][..], |b| &b.switches[..]) {
        switch(c, Version::Bridge, new_f);
        switch(c, Version::BridgeMarkingNew, new_f);
    }
    let mut host = |ctx: &'a HostContext, v: Version| {
        let d = by_name
            .entry((DeviceKind::Host, ctx.host.clone()))
            .or_insert_with(|| Device {
                name: ctx.host.clone(),
                kind: DeviceKind::Host,
                target: Target::Host(ctx.driver.as_str()),
                tier: 0,
                switch: [None; 5],
                host: [None; 5],
                old_to_new: None,
            });
        d.host[v as usize] = Some(ctx);
    };
    for c in &old.hosts {
        host(c, Version::Old);
    }
    for c in &new.hosts {
        host(c, Version::New);
    }
    for c in marking_old {
        host(c, Version::Bridge);
    }
    for c in marking_new {
        host(c, Version::BridgeMarkingNew);
    }
    let mut out: Vec<Device<'a>> = by_name.into_values().collect();
    // Without a bridge, the bridge versions are the ends: Bridge = OLD, marking new = NEW.
    for d in &mut out {
        if bridge.is_none() {
            d.switch[Version::Bridge as usize] = d.switch[Version::Old as usize];
            d.host[Version::Bridge as usize] = d.host[Version::Old as usize];
            d.switch[Version::BridgeMarkingNew as usize] = d.switch[Version::New as usize];
            d.host[Version::BridgeMarkingNew as usize] = d.host[Version::New as usize];
        }
    }
    out.sort_by_key(|a| (a.kind, natural(&a.name)));
    out
}

/// The severity the plan's findings make the command exit with.
pub fn has_errors(plan: &Plan) -> bool {
    plan.findings.iter().any(|d| d.severity == Severity::Error)
}
