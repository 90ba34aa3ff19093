//! The proof of a plan: every state the fabric passes through — before the first wave and
//! after each — is checked as `check` checks a fabric, on what the devices of that state run.
//!
//! - Every link whose two ends are in service agrees on each DSCP the hosts of the state mark:
//!   lossy at both ends, or lossless at both on the same priority (FAB810). An end that treats
//!   a DSCP as lossless while the other drops it, or pauses another priority, loses packets of
//!   a lossless class or lets its headroom overflow.
//! - No host sends frames larger than a switch port of the state takes (FAB811).
//! - Deadlock freedom under the routing (FAB812): certified for every state when both fabrics
//!   route valley-free up*/down* with the same tiers, else proved state by state on the
//!   version whose links contain the state's.
//! - Buffers and headroom: every device runs a version that passed `check` whole (OLD, NEW, or
//!   the bridge, which the plan checks before it uses it).
//!
//! A state while a wave is drained is the state before the wave without the drained devices'
//! links: a subset of a checked state, so it needs no check of its own.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::analysis::deadlock;
use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Fabric, FailedLink, Limits, LinkId, RoutingModel};

use super::state::{Device, DeviceKind, Version, Versions};
use super::waves::Wave;

/// The proof of every state of the plan.
#[derive(Debug, Clone, Serialize)]
pub struct ProofSummary {
    /// The states checked: the fabric before the first wave and after every wave.
    pub states: usize,
    /// Steps after which a check fails; 0 for a plan fabricc recommends.
    pub unsafe_steps: usize,
    /// Links whose two ends were checked to agree, summed over the states.
    pub links_checked: u64,
    /// How deadlock freedom of every state is known.
    pub deadlock: String,
    /// What each state is checked for.
    pub checks: Vec<&'static str>,
}

/// What an end of a link does with each DSCP.
#[derive(Debug, Clone)]
struct Sem {
    /// DSCP → priority (0xff: no class).
    prio: [u8; 64],
    /// Per port index (switches) or for every NIC (hosts, key 0): lossless priorities as a mask.
    lossless: HashMap<u32, u8>,
    /// Per port index: MTU (switches); hosts key 0.
    mtu: HashMap<u32, u32>,
    /// Hosts: the DSCPs they mark traffic with, as a mask.
    marks: u64,
}

impl Sem {
    fn of(d: &Device, v: Version) -> Option<Sem> {
        if let Some(s) = d.switch[v as usize] {
            let mut prio = [0xffu8; 64];
            for (dscp, &tc) in s.qos.dscp_to_tc.iter().enumerate().take(64) {
                if let Some(c) = s.qos.classes.iter().find(|c| c.tc == tc) {
                    prio[dscp] = c.priority;
                }
            }
            let lossless = s
                .ports
                .iter()
                .map(|p| (p.index, mask(&p.lossless_priorities)))
                .collect();
            let mtu = s.ports.iter().map(|p| (p.index, p.mtu)).collect();
            return Some(Sem {
                prio,
                lossless,
                mtu,
                marks: 0,
            });
        }
        let h = d.host[v as usize]?;
        let mut prio = [0xffu8; 64];
        for (dscp, &p) in h.qos.dscp2prio.iter().enumerate().take(64) {
            prio[dscp] = p;
        }
        let pfc = h
            .qos
            .pfc
            .iter()
            .enumerate()
            .filter(|(_, on)| **on == 1)
            .fold(0u8, |m, (p, _)| m | (1 << p));
        let mut marks = 0u64;
        for t in h.qos.roce.iter().chain(&h.qos.other_roce) {
            marks |= 1u64 << (t.dscp & 63);
        }
        marks |= 1u64 << (h.qos.cnp_dscp & 63);
        Some(Sem {
            prio,
            lossless: HashMap::from([(0, pfc)]),
            mtu: HashMap::from([(0, h.qos.mtu)]),
            marks,
        })
    }

    fn port(&self, kind: DeviceKind, port: u32) -> u32 {
        match kind {
            DeviceKind::Switch => port,
            DeviceKind::Host => 0,
        }
    }

    /// `(lossless, priority)` of `dscp` at `port`.
    fn treats(&self, kind: DeviceKind, port: u32, dscp: usize) -> (bool, u8) {
        let p = self.prio[dscp];
        let mask = self
            .lossless
            .get(&self.port(kind, port))
            .copied()
            .unwrap_or(0);
        (p < 8 && mask & (1 << p) != 0, p)
    }
}

fn mask(priorities: &[u8]) -> u8 {
    priorities
        .iter()
        .filter(|&&p| p < 8)
        .fold(0u8, |m, &p| m | (1 << p))
}

/// The cables a wave moves: links of one build only, out of service from the wave's start
/// (unplug) or into service at its end (plug). The proof assumes exactly these moves.
#[derive(Debug, Clone, Default)]
pub struct Cabling {
    pub unplug: Vec<String>,
    pub plug: Vec<String>,
}

/// One end of a link: the device (index into the registry) and its port.
type End = (usize, u32);

/// A link of either fabric, by its ends' devices and ports.
struct PlanLink {
    a: End,
    b: End,
    name: String,
    in_old: Option<LinkId>,
    in_new: Option<LinkId>,
}

fn links(devices: &[Device], v: &Versions) -> Vec<PlanLink> {
    let index: HashMap<(DeviceKind, &str), usize> = devices
        .iter()
        .enumerate()
        .map(|(i, d)| ((d.kind, d.name.as_str()), i))
        .collect();
    let mut out: BTreeMap<(End, End), PlanLink> = BTreeMap::new();
    for (f, new) in [(v.old, false), (v.new, true)] {
        let end = |e: crate::model::Endpoint| match e.device {
            DeviceId::Switch(s) => index
                .get(&(DeviceKind::Switch, f.switch(s).name.as_str()))
                .map(|&i| (i, e.port)),
            DeviceId::Host(h) => index
                .get(&(DeviceKind::Host, f.host(h).name.as_str()))
                .map(|&i| (i, e.port)),
        };
        for (li, l) in f.links.iter().enumerate() {
            let (Some(a), Some(b)) = (end(l.a), end(l.b)) else {
                continue;
            };
            // Ends in registry order (switches first, natural order), in the name as well.
            let (key, ends) = if a <= b {
                ((a, b), (l.a, l.b))
            } else {
                ((b, a), (l.b, l.a))
            };
            let id = LinkId(li as u32);
            let entry = out.entry(key).or_insert_with(|| PlanLink {
                a: key.0,
                b: key.1,
                name: format!("{} -- {}", f.endpoint_name(ends.0), f.endpoint_name(ends.1)),
                in_old: None,
                in_new: None,
            });
            if new {
                entry.in_new = Some(id);
            } else {
                entry.in_old = Some(id);
            }
        }
    }
    out.into_values().collect()
}

fn uses_new(v: Version) -> bool {
    matches!(
        v,
        Version::Bridge | Version::BridgeMarkingNew | Version::New
    )
}

/// Whether deadlock freedom of every state follows from the valley-free certificate.
fn certified(v: &Versions, devices: &[Device]) -> bool {
    let plain = |f: &Fabric| {
        let r = &f.routing;
        r.model.value == RoutingModel::Updown
            && r.routes.is_empty()
            && r.paths.is_empty()
            && r.rewrites.is_empty()
            && r.bounce_tagging.is_none()
    };
    let tiers_agree = devices
        .iter()
        .filter(|d| d.kind == DeviceKind::Switch)
        .all(|d| {
            let t = |f: &Fabric| {
                f.switches
                    .iter()
                    .find(|s| s.name == d.name)
                    .map(|s| s.tier.map(|t| t.value))
            };
            match (t(v.old), t(v.new)) {
                (Some(a), Some(b)) => a == b && a.is_some(),
                (Some(a), None) | (None, Some(a)) => a.is_some(),
                (None, None) => true,
            }
        });
    plain(v.old) && plain(v.new) && v.bridge.is_none_or(plain) && tiers_agree
}

fn lossless_priorities(f: &Fabric) -> BTreeSet<u8> {
    f.classes
        .iter()
        .filter(|c| c.lossless.value)
        .map(|c| c.priority.value)
        .collect()
}

pub fn prove(
    devices: &[Device],
    versions: &Versions,
    waves: &[Wave],
    new: &Fabric,
    limits: &Limits,
) -> (ProofSummary, Vec<Diagnostic>, Vec<Cabling>) {
    let mut sems: HashMap<(usize, Version), Option<Sem>> = HashMap::new();
    let links = links(devices, versions);
    let index: HashMap<&str, Vec<usize>> =
        devices
            .iter()
            .enumerate()
            .fold(HashMap::new(), |mut m, (i, d)| {
                m.entry(d.name.as_str()).or_default().push(i);
                m
            });
    let mut state: Vec<Version> = devices
        .iter()
        .map(|d| {
            if d.present(Version::Old) {
                Version::Old
            } else {
                Version::Absent
            }
        })
        .collect();
    let certified = certified(versions, devices);
    let mut findings = Vec::new();
    let mut unsafe_steps = 0;
    let mut links_checked = 0u64;
    let mut proven: HashMap<(bool, BTreeSet<LinkId>), bool> = HashMap::new();
    // Links of one build only (removed, added, re-wired): in service before the first wave as
    // OLD wires them; their cables move with the waves that change their ends.
    let mut in_service: Vec<bool> = links
        .iter()
        .map(|l| {
            l.in_old.is_some()
                && devices[l.a.0].present(Version::Old)
                && devices[l.b.0].present(Version::Old)
        })
        .collect();
    let mut cabling = Vec::new();
    // State 0 is OLD as `check` proved it; each wave's state is checked after it.
    for w in waves {
        for name in &w.devices {
            for &i in index.get(name.as_str()).into_iter().flatten() {
                if w.phase.devices().is_none_or(|k| k == devices[i].kind) {
                    state[i] = if devices[i].present(w.to) {
                        w.to
                    } else {
                        Version::Absent
                    };
                }
            }
        }
        // Every (device, version) of this state, computed once over the whole plan.
        for (i, &v) in state.iter().enumerate() {
            sems.entry((i, v))
                .or_insert_with(|| Sem::of(&devices[i], v));
        }
        let sem = |i: usize, v: Version| -> Option<&Sem> { sems.get(&(i, v))?.as_ref() };
        // What hosts mark in this state, and their largest frame.
        let mut marks = 0u64;
        let mut host_mtu = 0u32;
        let mut host_mtu_at = String::new();
        for (i, d) in devices.iter().enumerate() {
            if d.kind == DeviceKind::Host
                && let Some(s) = sem(i, state[i])
            {
                marks |= s.marks;
                let m = s.mtu.get(&0).copied().unwrap_or(0);
                if m > host_mtu {
                    host_mtu = m;
                    host_mtu_at = d.name.clone();
                }
            }
        }
        let mut disagree: Vec<String> = Vec::new();
        let mut too_small: Vec<String> = Vec::new();
        let mut first_span = None;
        let mut up: BTreeSet<LinkId> = BTreeSet::new();
        let mut up_old: BTreeSet<LinkId> = BTreeSet::new();
        let mut only_old: Option<&str> = None;
        let mut only_new: Option<&str> = None;
        let mut moves = Cabling::default();
        for (li, l) in links.iter().enumerate() {
            let (va, vb) = (state[l.a.0], state[l.b.0]);
            let on = |v: Version| {
                if v == Version::Absent {
                    false
                } else if uses_new(v) {
                    l.in_new.is_some()
                } else {
                    l.in_old.is_some()
                }
            };
            let now = on(va) && on(vb);
            if now != in_service[li] && (l.in_old.is_none() || l.in_new.is_none()) {
                if now {
                    moves.plug.push(l.name.clone());
                } else {
                    moves.unplug.push(l.name.clone());
                }
            }
            in_service[li] = now;
            if !now {
                continue;
            }
            if l.in_new.is_none() {
                only_old.get_or_insert(&l.name);
            }
            if l.in_old.is_none() {
                only_new.get_or_insert(&l.name);
            }
            if let Some(id) = l.in_new {
                up.insert(id);
            }
            if let Some(id) = l.in_old {
                up_old.insert(id);
            }
            let (Some(sa), Some(sb)) = (sem(l.a.0, va), sem(l.b.0, vb)) else {
                continue;
            };
            links_checked += 1;
            let (ka, kb) = (devices[l.a.0].kind, devices[l.b.0].kind);
            for dscp in (0..64).filter(|d| marks & (1u64 << d) != 0) {
                let (la, pa) = sa.treats(ka, l.a.1, dscp);
                let (lb, pb) = sb.treats(kb, l.b.1, dscp);
                if (la || lb) && !(la && lb && pa == pb) {
                    let say = |name: &str, v: Version, l: bool, p: u8| {
                        if l {
                            format!("lossless on priority {p} at {name} ({})", v.as_str())
                        } else {
                            format!("lossy at {name} ({})", v.as_str())
                        }
                    };
                    disagree.push(format!(
                        "link {}: DSCP {dscp} is {} but {}",
                        l.name,
                        say(&devices[l.a.0].name, va, la, pa),
                        say(&devices[l.b.0].name, vb, lb, pb)
                    ));
                    if first_span.is_none() {
                        first_span = link_span(versions, l);
                    }
                    break;
                }
            }
            for (s, k, port, name) in [
                (sa, ka, l.a.1, &devices[l.a.0].name),
                (sb, kb, l.b.1, &devices[l.b.0].name),
            ] {
                if k == DeviceKind::Switch
                    && let Some(&m) = s.mtu.get(&port)
                    && m < host_mtu
                {
                    too_small.push(format!(
                        "link {}: {name}'s port MTU {m} is below the {host_mtu}-byte frames {host_mtu_at} sends",
                        l.name
                    ));
                }
            }
        }
        cabling.push(moves);
        let step = format!("after wave {} ({})", w.index, w.label);
        let mut bad = false;
        for (list, code, help) in [
            (
                &disagree,
                Code::RolloutLinkDisagrees,
                "let `fabricc plan` order the change (`--order auto`, make-before-break), or move both ends of each such link in one wave",
            ),
            (
                &too_small,
                Code::RolloutMtu,
                "raise switch MTUs before hosts, and lower them after (`--order auto` does)",
            ),
        ] {
            if let Some(first) = list.first() {
                bad = true;
                let more = if list.len() > 1 {
                    format!(" (and {} more link(s))", list.len() - 1)
                } else {
                    String::new()
                };
                findings.push(
                    Diagnostic::new(
                        code,
                        first_span.unwrap_or(new.span),
                        format!("{step}, {first}{more}"),
                    )
                    .label("this change")
                    .help(help),
                );
            }
        }
        // Deadlock.
        if !certified {
            let (on_new, cut) = if only_old.is_none() {
                (true, up)
            } else if only_new.is_none() {
                (false, up_old)
            } else {
                findings.push(
                    Diagnostic::new(
                        Code::RolloutDeadlock,
                        new.span,
                        format!(
                            "{step}, link {} (only in OLD) and link {} (only in NEW) are both in service: no build's proof covers that state",
                            only_old.unwrap_or_default(),
                            only_new.unwrap_or_default()
                        ),
                    )
                    .label("this change")
                    .help("split the change: remove links in one build, add them in the next"),
                );
                unsafe_steps += 1;
                continue;
            };
            let ok = *proven.entry((on_new, cut.clone())).or_insert_with(|| {
                let f = if on_new {
                    versions.bridge.unwrap_or(versions.new)
                } else {
                    versions.old
                };
                if !on_new
                    && !lossless_priorities(versions.new)
                        .is_subset(&lossless_priorities(versions.old))
                {
                    return false;
                }
                prove_cut(f, &cut, limits)
            });
            if !ok {
                bad = true;
                findings.push(
                    Diagnostic::new(
                        Code::RolloutDeadlock,
                        new.span,
                        format!("{step}, the state's links and lossless priorities are not proven free of PFC deadlock"),
                    )
                    .label("this change")
                    .help("`fabricc check` the fabric the state is closest to with the links the wave takes out as `fail` statements"),
                );
            }
        }
        if bad {
            unsafe_steps += 1;
        }
    }
    let deadlock = if certified {
        "certified for every state: both fabrics route valley-free up*/down* (`routing updown`, no static routes, paths or rewrites) with the same tiers, which is acyclic on every subset of the links and for every set of lossless priorities (Autonet up*/down*, Schroeder et al., IEEE JSAC 1991; docs/deadlock.md)".to_string()
    } else {
        "proved state by state: the deadlock proof of `check` on the version whose links contain the state's, with the other links failed".to_string()
    };
    let summary = ProofSummary {
        states: waves.len() + 1,
        unsafe_steps,
        links_checked,
        deadlock,
        checks: vec![
            "every link in service agrees on each marked DSCP: lossy at both ends, or lossless at both on the same priority",
            "no host sends frames larger than a switch port in service takes",
            "every device runs a version that passed `check` (buffers, headroom, ECN, watchdog)",
            "deadlock freedom under the routing",
        ],
    };
    (summary, findings, cabling)
}

fn link_span(v: &Versions, l: &PlanLink) -> Option<crate::span::Span> {
    l.in_new
        .map(|id| v.new.link(id).span)
        .or_else(|| l.in_old.map(|id| v.old.link(id).span))
}

/// The deadlock proof of `f` with every link not in `up` failed.
fn prove_cut(f: &Fabric, up: &BTreeSet<LinkId>, limits: &Limits) -> bool {
    let mut f = f.clone();
    for (i, l) in f.links.clone().iter().enumerate() {
        let id = LinkId(i as u32);
        if !up.contains(&id) {
            f.routing.fails.push(FailedLink {
                a: l.a.device,
                b: l.b.device,
                links: vec![id],
                span: l.span,
            });
        }
    }
    let proof = deadlock::prove(
        &f,
        deadlock::Options {
            max_scenarios: limits.max_scenarios,
            max_unreachable: 1,
            ..deadlock::Options::default()
        },
    );
    !proof.diagnostics.iter().any(|d| d.is_error())
}
