//! `fabricc plan` on random changes (the generator of the convergence tests,
//! `change_pairs.rs`): the plan it recommends (`--order auto`) has no unsafe step, and for the
//! orders a user may force, the incremental proof flags exactly the waves a brute-force
//! re-evaluation of each whole state flags — written here from the devices' contexts alone,
//! without the plan's own tables.

use std::collections::{BTreeMap, BTreeSet};

use fabricc::model::{Limits, load};
use fabricc::pipeline::{self, Checked};
use fabricc::plan::{self, Options, Order, Version};
use fabricc::render::{HostContext, SwitchContext};
use fabricc::source::Sources;

use crate::change_pairs::{Os, for_each_pair};

fn checked(sources: &mut Sources, name: &str, text: &str) -> Checked {
    let limits = Limits::default();
    let loaded = load::load_text(sources, name, text.to_string(), &limits);
    pipeline::check_loaded(sources, loaded, &limits)
}

/// A state: each device's version (absent devices are left out).
type State = BTreeMap<String, Version>;

struct Sides<'a> {
    old: &'a Checked,
    new: &'a Checked,
}

impl Sides<'_> {
    fn switch(&self, name: &str, v: Version) -> Option<&SwitchContext> {
        let side = if v == Version::New {
            self.new
        } else {
            self.old
        };
        side.lowered
            .as_ref()?
            .switches
            .iter()
            .find(|s| s.device == name)
    }
    fn host(&self, name: &str, v: Version) -> Option<&HostContext> {
        let side = if v == Version::New {
            self.new
        } else {
            self.old
        };
        side.lowered.as_ref()?.hosts.iter().find(|h| h.host == name)
    }
}

/// Whether the whole state has a link whose ends disagree on a marked DSCP, or a port below
/// the hosts' MTU.
fn unsafe_state(sides: &Sides, state: &State) -> bool {
    let hosts: Vec<&HostContext> = state
        .iter()
        .filter_map(|(n, &v)| sides.host(n, v))
        .collect();
    let mut marks = BTreeSet::new();
    for h in &hosts {
        for t in h.qos.roce.iter().chain(&h.qos.other_roce) {
            marks.insert(t.dscp);
        }
        marks.insert(h.qos.cnp_dscp);
    }
    let host_mtu = hosts.iter().map(|h| h.qos.mtu).max().unwrap_or(0);
    let switch_treats = |s: &SwitchContext, port: &str, d: u8| {
        let tc = s.qos.dscp_to_tc[usize::from(d)];
        let p = s
            .qos
            .classes
            .iter()
            .find(|c| c.tc == tc)
            .map_or(255, |c| c.priority);
        let l = s
            .ports
            .iter()
            .find(|x| x.name == port)
            .is_some_and(|x| x.lossless_priorities.contains(&p));
        (l, p)
    };
    let disagree =
        |(la, pa): (bool, u8), (lb, pb): (bool, u8)| (la || lb) && !(la && lb && pa == pb);
    for (name, &v) in state {
        let Some(s) = sides.switch(name, v) else {
            continue;
        };
        for port in &s.ports {
            let peer_v = state.get(&port.peer).copied();
            // A host link is up when the host's NIC names this port too.
            if let Some(h) = peer_v.and_then(|pv| sides.host(&port.peer, pv)) {
                let me = format!("{}.port{}", s.device, port.index + 1);
                if !h.nics.iter().any(|n| n.peer == me) {
                    continue;
                }
                if port.mtu < host_mtu {
                    return true;
                }
                for &d in &marks {
                    let hp = h.qos.dscp2prio[usize::from(d)];
                    let hl = h.qos.pfc[usize::from(hp & 7)] == 1;
                    if disagree(switch_treats(s, &port.name, d), (hl, hp)) {
                        return true;
                    }
                }
            } else if let Some(o) = peer_v.and_then(|pv| sides.switch(&port.peer, pv)) {
                if !o
                    .ports
                    .iter()
                    // Up when both ends name each other's port: a link whose wiring changes is
                    // unplugged and plugged as the plan's cabling steps say.
                    .any(|x| {
                        x.name == port.peer_port && x.peer == s.device && x.peer_port == port.name
                    })
                {
                    continue;
                }
                if port.mtu < host_mtu {
                    return true;
                }
                for &d in &marks {
                    if disagree(
                        switch_treats(s, &port.name, d),
                        switch_treats(o, &port.peer_port, d),
                    ) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The waves the plan's findings call unsafe ("after wave N (…").
fn flagged(p: &plan::Plan) -> BTreeSet<usize> {
    p.findings
        .iter()
        .filter_map(|d| d.message.strip_prefix("after wave "))
        .filter_map(|r| r.split(' ').next()?.parse().ok())
        .collect()
}

fn run(os: Os, seed: u64, count: usize) {
    let limits = Limits::default();
    let mut n = 0;
    for_each_pair(os, seed, count, |change, old, new| {
        n += 1;
        let mut sources = Sources::new();
        let (a, b) = (
            checked(&mut sources, "old.fab", &old.text),
            checked(&mut sources, "new.fab", &new.text),
        );
        let sides = Sides { old: &a, new: &b };
        let opts = |order| Options {
            order,
            max_unavailable_percent: 50,
            replace: Vec::new(),
        };
        let (auto, _) = plan::plan(&a, &b, ("old", "new"), &opts(Order::Auto), &limits)
            .unwrap_or_else(|e| panic!("pair {n} ({change:?}): {e:?}"));
        assert_eq!(
            auto.proof.unsafe_steps,
            0,
            "pair {n} ({change:?}): the recommended plan has unsafe steps: {:?}\n{}\n---\n{}",
            auto.findings.iter().map(|d| &d.message).collect::<Vec<_>>(),
            old.text,
            new.text
        );
        for order in [Order::HostsFirst, Order::SwitchesFirst] {
            let (p, _) = plan::plan(&a, &b, ("old", "new"), &opts(order), &limits)
                .unwrap_or_else(|e| panic!("{e:?}"));
            let mut state: State = BTreeMap::new();
            for l in [&a, &b] {
                for s in &l.lowered.as_ref().expect("lowered").switches {
                    if sides.switch(&s.device, Version::Old).is_some() {
                        state.insert(s.device.clone(), Version::Old);
                    }
                }
                for h in &l.lowered.as_ref().expect("lowered").hosts {
                    if sides.host(&h.host, Version::Old).is_some() {
                        state.insert(h.host.clone(), Version::Old);
                    }
                }
            }
            let mut brute = BTreeSet::new();
            for w in &p.waves {
                for d in &w.devices {
                    let present = sides.switch(d, w.to).is_some() || sides.host(d, w.to).is_some();
                    if present {
                        state.insert(d.clone(), w.to);
                    } else {
                        state.remove(d);
                    }
                }
                if unsafe_state(&sides, &state) {
                    brute.insert(w.index);
                }
            }
            assert_eq!(
                flagged(&p),
                brute,
                "pair {n} ({change:?}), {order:?}: the proof and the brute force disagree\n{}\n---\n{}",
                old.text,
                new.text
            );
        }
    });
}

#[test]
fn recommended_plans_are_safe_and_the_proof_agrees_with_brute_force_on_sonic() {
    run(Os::Sonic, 0x9_1a7, 100);
}

#[test]
fn recommended_plans_are_safe_and_the_proof_agrees_with_brute_force_on_junos() {
    run(Os::Junos, 0x9_1a8, 100);
}
