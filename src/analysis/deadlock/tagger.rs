//! Priorities along a route: which queue traffic sits in at each switch, how `rewrite` rules
//! and `bounce-tagging` (Tagger, CoNEXT'17) move it, and which priorities are lossless where.
//! Also the checks on the user's remedy: Tagger's ordering condition (FAB202) and the number
//! of lossless priorities against the switch model's `lossless-limit` (FAB203).
//!
//! In: the `Fabric` (class views per switch, rewrites, bounce-tagging). Out: `Qos`, the priority
//! arithmetic the graph construction uses, and diagnostics.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{ClassId, DeviceId, Fabric, SwitchModelId};

use super::super::routing::Net;

/// `PState::rewritten` when the priority comes from the class as each switch sees it.
pub const NATIVE: u8 = u8::MAX;
/// `PState::rewritten` once bounce-tagging ran out of lossless priorities: lossy from then on.
pub const LOSSY: u8 = u8::MAX - 1;

/// The priority state of a packet: its class, and the priority a rewrite put it in (if any).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PState {
    pub class: u8,
    pub rewritten: u8,
}

/// Priorities as every switch treats them.
#[derive(Debug, Clone)]
pub struct Qos {
    /// Classes hosts send (those with a DSCP), by index into `Fabric::classes`.
    pub sent: Vec<u8>,
    /// `[switch][class]`: the class's priority on that switch.
    prio: Vec<Vec<u8>>,
    /// Per switch: bit `p` set when priority `p` runs PFC (some class on it is lossless).
    lossless: Vec<u64>,
    rewrites: HashMap<(u32, DeviceId, DeviceId, u8), u8>,
    bounce: Vec<u8>,
    /// Some rewrite names a host as `from`: host sources must then be kept apart.
    pub host_rewrites: bool,
}

impl Qos {
    pub fn new(fabric: &Fabric) -> Qos {
        let mut prio = Vec::with_capacity(fabric.switches.len());
        let mut lossless = Vec::with_capacity(fabric.switches.len());
        for s in fabric.switch_ids() {
            let views = fabric.switch_classes(s);
            let mut mask = 0u64;
            for v in &views {
                if v.lossless.value && v.priority.value < 64 {
                    mask |= 1 << v.priority.value;
                }
            }
            prio.push(views.iter().map(|v| v.priority.value).collect());
            lossless.push(mask);
        }
        let sent = fabric
            .classes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.dscp.is_some())
            .map(|(i, _)| i as u8)
            .collect();
        let rewrites = fabric
            .routing
            .rewrites
            .iter()
            .rev() // the first declared rule wins
            .map(|r| ((r.at.0, r.from, r.to, r.old), r.new))
            .collect();
        Qos {
            sent,
            prio,
            lossless,
            rewrites,
            bounce: fabric
                .routing
                .bounce_tagging
                .as_ref()
                .map(|b| b.value.clone())
                .unwrap_or_default(),
            host_rewrites: fabric
                .routing
                .rewrites
                .iter()
                .any(|r| matches!(r.from, DeviceId::Host(_))),
        }
    }

    /// The classes a path statement carries: its class, or every class hosts send.
    pub fn path_classes(&self, class: Option<ClassId>) -> Vec<u8> {
        match class {
            Some(c) => vec![c.0 as u8],
            None => self.sent.clone(),
        }
    }

    /// The priority of `ps` in switch `s`'s queues.
    pub fn prio(&self, s: u32, ps: PState) -> u8 {
        if ps.rewritten == NATIVE {
            self.prio[s as usize][ps.class as usize]
        } else {
            ps.rewritten
        }
    }

    /// Whether traffic in state `ps` with priority `p` is lossless (paused, never dropped) at `s`.
    pub fn lossless(&self, s: u32, p: u8, ps: PState) -> bool {
        ps.rewritten != LOSSY && p < 64 && self.lossless[s as usize] & (1 << p) != 0
    }

    /// The state after switch `at`, having received from `from` with priority `p`, sends to
    /// switch `to`: an explicit rewrite first, then the bounce-tagging rule, else unchanged.
    pub fn step(&self, net: &Net, at: u32, from: DeviceId, to: u32, p: u8, ps: PState) -> PState {
        if ps.rewritten == LOSSY {
            return ps;
        }
        let to_dev = DeviceId::Switch(crate::model::SwitchId(to));
        if let Some(&q) = self.rewrites.get(&(at, from, to_dev, p)) {
            return PState { rewritten: q, ..ps };
        }
        if !self.bounce.is_empty()
            && net.is_bounce(from, at, to)
            && let Some(i) = self.bounce.iter().position(|&b| b == p)
        {
            let next = self.bounce.get(i + 1).copied().unwrap_or(LOSSY);
            return PState {
                rewritten: next,
                ..ps
            };
        }
        ps
    }

    /// How switch `s` treats priorities: each class's priority, and which priorities run
    /// PFC. Switches that differ here are never swapped by a symmetry (orbits.rs).
    pub fn switch_treatment(&self, s: u32) -> (&[u8], u64) {
        (&self.prio[s as usize], self.lossless[s as usize])
    }

    /// The lossless priorities of switch `s`, ascending.
    pub fn lossless_priorities(&self, s: u32) -> Vec<u8> {
        (0..64u8)
            .filter(|&p| self.lossless[s as usize] & (1 << p) != 0)
            .collect()
    }

    /// Whether any switch rewrites priorities (user rules or bounce-tagging).
    pub fn rewrites_anything(&self) -> bool {
        !self.rewrites.is_empty() || !self.bounce.is_empty()
    }
}

/// FAB203: rewrites push a switch past the lossless priorities its model supports. One finding per
/// switch model, pointing at its `lossless-limit`, naming the first switch over the limit.
pub fn check_limits(fabric: &Fabric, qos: &Qos, diags: &mut Vec<Diagnostic>) {
    // Per model: the most priorities one switch needs, that switch, how many switches are
    // over the limit, and the priorities of that switch.
    type Worst = (usize, u32, usize, Vec<u8>);
    let mut worst: HashMap<SwitchModelId, Worst> = HashMap::new();
    for s in fabric.switch_ids() {
        let model = fabric.switch(s).model;
        let Some(limit) = fabric.switch_model(s).lossless_limit else {
            continue;
        };
        let mut used = qos.lossless_priorities(s.0);
        // Too many lossless classes on their own is FAB452 (the buffer pass); this finding is
        // about what rewrites add on top.
        if used.len() > usize::from(limit.value) {
            continue;
        }
        // Priorities traffic is rewritten into on arrival also need PFC there (a Tagger tag
        // stays lossless), except a demotion: a priority some class runs lossy on that
        // switch is the documented escape from a cycle and needs no PFC.
        let lossy: Vec<u8> = fabric
            .switch_classes(s)
            .iter()
            .filter(|v| !v.lossless.value)
            .map(|v| v.priority.value)
            .collect();
        for r in &fabric.routing.rewrites {
            if r.to == DeviceId::Switch(s) && !used.contains(&r.new) && !lossy.contains(&r.new) {
                used.push(r.new);
            }
        }
        used.sort_unstable();
        if used.len() > usize::from(limit.value) {
            let e = worst
                .entry(model)
                .or_insert((used.len(), s.0, 0, Vec::new()));
            e.2 += 1;
            if used.len() > e.0 || e.3.is_empty() {
                e.0 = used.len();
                e.1 = s.0;
                e.3 = used;
            }
        }
    }
    let mut rows: Vec<_> = worst.into_iter().collect();
    rows.sort();
    for (model, (count, first, switches, used)) in rows {
        let m = &fabric.switch_models[model.index()];
        let Some(limit) = m.lossless_limit else {
            continue;
        };
        let s = crate::model::SwitchId(first);
        // Every priority counted, the rewrite targets with the classes' own.
        let prios: Vec<String> = used.iter().map(u8::to_string).collect();
        diags.push(
            Diagnostic::new(
                Code::LosslessLimit,
                limit.span,
                format!(
                    "switch `{}` needs {count} lossless priorities, more than model `{}` supports ({})",
                    fabric.switch(s).name,
                    m.name,
                    limit.value
                ),
            )
            .label("lossless limit declared here")
            .note(format!("priorities that need PFC on `{}`: {}", fabric.switch(s).name, prios.join(", ")))
            .note(format!("{switches} switch(es) of model `{}` exceed the limit", m.name))
            .help("use fewer lossless classes or bounce-tagging steps, or a switch model with more lossless queues"),
        );
    }
}
