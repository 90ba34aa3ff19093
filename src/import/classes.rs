//! The classes of an imported fabric with their queue plan (issue 17 item f, issue 20 item 2):
//! each traffic class a DSCP maps to is a class; its PFC priority is the priority group
//! `TC_TO_PRIORITY_GROUP_MAP` gives it where that is a lossless priority (else the traffic
//! class itself), its egress queue what `TC_TO_QUEUE_MAP` gives it. Scheduler, rate cap and
//! ECN are read on that queue, the pause threshold on that priority group, as orchagent binds
//! them (sonic-net/sonic-swss@e6b0c5b5d2ab orchagent/qosorch.cpp:
//! `TcToQueueMapHandler`, `TcToPgHandler`, `PfcToQueueHandler`; SCHEDULER `cir`/`pir` become
//! `SAI_SCHEDULER_ATTR_MIN/MAX_BANDWIDTH_RATE`).
//!
//! Fabric-wide values are the majority of switches. The queue plan and rate are fabric-wide
//! in the language: a switch that puts a class in another queue is FAB990, one that maps it
//! to another PG or caps it at another rate FAB965. ECN is taken per port speed (the SONiC
//! renderer writes one WRED profile per speed for `ecn 800G …`): the value most speeds have
//! is the class's, the others `ecn SPEED …`; a switch that differs writes its own.

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{Ev, Note, NoteKind, Sched, SwitchDev, Threshold, Wred};
use super::text::size;
use super::view::{View, majority};

pub(super) struct Class {
    pub name: String,
    /// The traffic class DSCPs map to.
    pub tc: u8,
    pub priority: u8,
    pub queue: u8,
    pub dscp: Vec<u8>,
    pub other: bool,
    pub lossless: bool,
    /// The class-wide ECN (the value most port speeds have).
    pub wred: Option<Wred>,
    /// (speed in Mb/s, thresholds) where a speed's differ from the class-wide ones.
    pub ecn_speeds: Vec<(u64, Wred)>,
    pub sched: Option<Sched>,
    pub threshold: Option<Threshold>,
    pub rate: Option<u64>,
    pub cnp: bool,
    pub at: Option<Ev>,
}

impl Class {
    /// The ECN the fabric gives this class on ports of `speed`.
    pub fn ecn_at(&self, speed: u64) -> Option<Wred> {
        self.ecn_speeds
            .iter()
            .find(|(s, _)| *s == speed)
            .map(|(_, w)| *w)
            .or(self.wred)
    }

    /// The words of the class after `dscp …`: priority and queue plan.
    pub fn plan_words(&self) -> Vec<String> {
        let mut w = vec![format!("priority {}", self.priority)];
        if self.tc != self.priority {
            w.push(format!("traffic-class {}", self.tc));
        }
        if self.queue != self.tc {
            w.push(format!("queue {}", self.queue));
        }
        w
    }

    /// `ecn 800G min … max … probability …` for each speed that differs.
    pub fn speed_words(&self) -> Vec<String> {
        self.ecn_speeds
            .iter()
            .map(|(s, w)| speed_ecn_words(*s, *w))
            .collect()
    }
}

pub(super) fn ecn_words(w: Option<Wred>) -> String {
    match w {
        Some(w) if w.ecn => {
            let (min, max) = thresholds(w);
            format!("ecn min {min}  max {max}  probability {}%", w.probability)
        }
        _ => "ecn off".into(),
    }
}

fn speed_ecn_words(speed: u64, w: Wred) -> String {
    let (min, max) = thresholds(w);
    format!(
        "ecn {}G min {min}  max {max}  probability {}%",
        speed / 1000,
        w.probability
    )
}

/// The thresholds in the device's own unit (issue 34 item 1): fill levels as percentages
/// (Junos's `fill-level [ 55 90 ]` is `min 55%  max 90%`), else bytes.
fn thresholds(w: Wred) -> (String, String) {
    match w.fill {
        Some((lo, hi)) => (format!("{lo}%"), format!("{hi}%")),
        None => (size(w.min), size(w.max)),
    }
}

/// Whether `ecn SPEED …` can state `w` at `speed` beside a class-wide `base`: marking is on
/// or off for the whole class, and the speed is whole gigabits.
fn per_speed_ok(speed: u64, w: Option<Wred>, base: Option<Wred>) -> Option<Wred> {
    let w = w?;
    (w.ecn && base.is_some_and(|b| b.ecn) && speed > 0 && speed.is_multiple_of(1000)).then_some(w)
}

const ONE_TO_ONE: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The fabric's classes, by traffic class.
pub(super) fn classes(
    views: &[View],
    fabric_map: Option<&([u8; 64], Ev)>,
    fabric_lossless: &BTreeSet<u8>,
    notes: &mut Vec<Note>,
) -> Vec<Class> {
    let tcq: Vec<([u8; 8], Ev)> = views.iter().filter_map(|v| v.tc_queue).collect();
    let fabric_tcq = majority(&tcq).map_or(ONE_TO_ONE, |x| x.0);
    let tcpg: Vec<([u8; 8], Ev)> = views.iter().filter_map(|v| v.tc_pg).collect();
    let fabric_tcpg = majority(&tcpg).map(|x| x.0);
    // A lossless PG is the lossless priority (the SONiC renderer's PFC_PRIORITY_TO_PG map is
    // one to one); any other TC's priority is not in the switch, so it is the TC.
    // A lossy TC whose own number is a lossless priority that another TC's PG takes (Junos:
    // CNP in queue 3 beside RoCE on priority 3 in queue 4; the switch holds no priority for a
    // lossy class) gets the highest priority no TC and no lossless class uses.
    let used_tcs: BTreeSet<u8> = fabric_map
        .map(|(m, _)| m.iter().copied().collect())
        .unwrap_or_default();
    let priority_of = |t: u8| -> u8 {
        match fabric_tcpg.map(|g| g[usize::from(t)]) {
            Some(g) if g != 0 && fabric_lossless.contains(&g) && g != t => g,
            Some(g)
                if g == t
                    && fabric_lossless.contains(&t)
                    && fabric_tcpg.is_some_and(|m| {
                        m.iter()
                            .enumerate()
                            .any(|(u, &p)| p == t && usize::from(t) != u)
                    }) =>
            {
                (0u8..8)
                    .rev()
                    .find(|p| !fabric_lossless.contains(p) && !used_tcs.contains(p))
                    .unwrap_or(t)
            }
            Some(g) if g != 0 && fabric_lossless.contains(&g) => g,
            _ => t,
        }
    };
    let mut tcs: BTreeSet<u8> = BTreeSet::new();
    if let Some((m, _)) = fabric_map {
        tcs.extend(m.iter().copied());
    }
    // A lossless priority no DSCP reaches is still a class (on its own traffic class).
    for &p in fabric_lossless {
        if !tcs.iter().any(|&t| priority_of(t) == p) {
            tcs.insert(p);
        }
    }
    let mut out = Vec::new();
    for &t in &tcs {
        let dscp: Vec<u8> = fabric_map
            .map(|(m, _)| (0u8..64).filter(|&d| m[usize::from(d)] == t).collect())
            .unwrap_or_default();
        let priority = priority_of(t);
        let queue = fabric_tcq[usize::from(t)];
        // The class's scheduling and marking are those of the switches that follow the
        // plan: a switch that put it in another queue (FAB990) does not outvote them.
        let mut plan: Vec<&View> = views.iter().filter(|v| v.queue(t) == queue).collect();
        if plan.is_empty() {
            plan = views.iter().collect();
        }
        let (wred, ecn_speeds, at) = fabric_ecn(&plan, t, notes);
        let scheds: Vec<(Option<Sched>, Ev)> = plan
            .iter()
            .filter_map(|v| v.sched.get(&v.queue(t)).map(|s| (Some(s.0), s.1)))
            .collect();
        let ths: Vec<(Option<Threshold>, Ev)> = views
            .iter()
            .filter_map(|v| v.threshold.get(&priority).map(|x| (Some(x.0), x.1)))
            .collect();
        // Only switches that schedule the queue say whether it is capped.
        let rates: Vec<(Option<u64>, Ev)> = plan
            .iter()
            .filter_map(|v| {
                let q = v.queue(t);
                let at = v.sched.get(&q)?.1;
                Some(v.rate.get(&q).map_or((None, at), |r| (Some(r.0), r.1)))
            })
            .collect();
        out.push(Class {
            name: String::new(),
            tc: t,
            priority,
            queue,
            dscp,
            other: false,
            lossless: fabric_lossless.contains(&priority),
            wred,
            ecn_speeds,
            sched: majority(&scheds).and_then(|x| x.0),
            threshold: majority(&ths).and_then(|x| x.0),
            rate: majority(&rates).and_then(|x| x.0),
            cnp: false,
            at: at.or(fabric_map.map(|m| m.1)),
        });
    }
    out
}

/// A class's fabric-wide ECN: per port speed the value most switches with ports of that
/// speed have; the class-wide value is the one most speeds have (ties: the lowest speed's).
fn fabric_ecn(
    views: &[&View],
    t: u8,
    notes: &mut Vec<Note>,
) -> (Option<Wred>, Vec<(u64, Wred)>, Option<Ev>) {
    let speeds: BTreeSet<u64> = views.iter().flat_map(|v| v.speeds(v.queue(t))).collect();
    let mut at_speed: BTreeMap<u64, (Option<Wred>, Ev)> = BTreeMap::new();
    for &sp in &speeds {
        let vals: Vec<(Option<Wred>, Ev)> = views
            .iter()
            .filter(|v| v.lossless.is_some())
            .filter_map(|v| v.wred.get(&(v.queue(t), sp)).copied())
            .collect();
        if let Some(x) = majority(&vals) {
            at_speed.insert(sp, x);
        }
    }
    let all: Vec<(Option<Wred>, Ev)> = at_speed.values().copied().collect();
    let Some((base, at)) = majority(&all) else {
        return (None, Vec::new(), None);
    };
    let mut per_speed = Vec::new();
    for (&sp, &(w, wat)) in &at_speed {
        if w == base {
            continue;
        }
        match per_speed_ok(sp, w, base) {
            Some(w) => per_speed.push((sp, w)),
            None => notes.push(Note::new(
                NoteKind::CannotCarry,
                wat,
                format!(
                    "traffic class {t} is marked {} on {} Mb/s ports and {} on most others; the `.fab` marks a class at every speed or at none, so those ports are taken as {}",
                    ecn_words(w),
                    sp,
                    ecn_words(base),
                    ecn_words(base)
                ),
            )),
        }
    }
    (base, per_speed, Some(at))
}

/// The plan findings of switch `s` against the fabric's classes: another queue (FAB990),
/// another priority group or a PFC priority sent to another queue (FAB965), another rate cap
/// (FAB965).
pub(super) fn plan_notes(s: &SwitchDev, v: &View, classes: &[Class], notes: &mut Vec<Note>) {
    for c in classes {
        let q = v.queue(c.tc);
        if let Some((_, at)) = v.tc_queue
            && q != c.queue
        {
            notes.push(
                Note::new(
                    NoteKind::OtherQueue,
                    at,
                    format!(
                        "`{}` puts class `{}` (traffic class {}) in queue {q}, while the fabric's plan (most switches) puts it in queue {}; the `.fab` keeps queue {} for every switch and judges `{}`'s class on the scheduler and ECN of its queue {q}",
                        s.name, c.name, c.tc, c.queue, c.queue, s.name
                    ),
                )
                .help("move the class back to the fabric's queue on the switch (TC_TO_QUEUE_MAP), or, where the switch is right, change the fabric's `queue` by hand"),
            );
        }
        if c.lossless
            && let Some((g, at)) = v.tc_pg
            && g[usize::from(c.tc)] != c.priority
        {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                at,
                format!(
                    "`{}` sends traffic class {} (class `{}`) to priority group {}, not to the PG of its lossless priority {}; the `.fab` gives a lossless class the PG of its priority, so the import takes PG {}",
                    s.name, c.tc, c.name, g[usize::from(c.tc)], c.priority, c.priority
                ),
            ));
        }
        if c.lossless
            && let Some((m, at)) = &v.pfc_queue
            && let Some(&pq) = m.get(&c.priority)
            && pq != q
        {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                *at,
                format!(
                    "`{}` maps PFC priority {} to queue {pq} (MAP_PFC_PRIORITY_TO_QUEUE) while class `{}` is in queue {q}; the `.fab` pauses the class's own queue, so the import takes queue {q}",
                    s.name, c.priority, c.name
                ),
            ));
        }
        let rate = v.rate.get(&q);
        if let Some((_, at)) = v.sched.get(&q)
            && rate.map(|r| r.0) != c.rate
        {
            let here = rate.map_or("no rate cap".to_string(), |r| {
                format!("a rate cap of {} %", r.0)
            });
            let fabric = c
                .rate
                .map_or("no rate cap".to_string(), |r| format!("`rate {r}%`"));
            notes.push(Note::new(
                NoteKind::CannotCarry,
                rate.map_or(*at, |r| r.1),
                format!(
                    "`{}` gives class `{}` {here} on queue {q}, while most switches give it {fabric}; `rate` is fabric-wide, so the `.fab` keeps {fabric}",
                    s.name, c.name
                ),
            ));
        }
    }
}

/// The ECN override lines of switch `s` for class `c`: `ecn CLASS …` where the switch marks
/// alike at all its speeds, else `class C { ecn SPEED … }` for each speed that differs.
pub(super) fn ecn_overrides(
    s: &SwitchDev,
    v: &View,
    c: &Class,
    lines: &mut Vec<(String, Ev)>,
    notes: &mut Vec<Note>,
) {
    if !(c.lossless || c.wred.is_some_and(|x| x.ecn)) {
        return;
    }
    let q = v.queue(c.tc);
    let here: Vec<(u64, Option<Wred>, Ev)> = v
        .wred
        .iter()
        .filter(|((x, _), _)| *x == q)
        .map(|((_, sp), (w, at))| (*sp, *w, *at))
        .collect();
    let differ: Vec<&(u64, Option<Wred>, Ev)> = here
        .iter()
        .filter(|(sp, w, _)| *w != c.ecn_at(*sp))
        .collect();
    let Some(first) = differ.first() else {
        return;
    };
    let uniform = here.iter().all(|(_, w, _)| *w == here[0].1);
    if uniform {
        let words = ecn_words(first.1);
        lines.push((
            format!("ecn {} {}", c.name, words.trim_start_matches("ecn ")),
            first.2,
        ));
        return;
    }
    for (sp, w, at) in differ {
        match per_speed_ok(*sp, *w, c.wred) {
            Some(w) => lines.push((
                format!("class {} {{ {} }}", c.name, speed_ecn_words(*sp, w)),
                *at,
            )),
            None => notes.push(Note::new(
                NoteKind::CannotCarry,
                *at,
                format!(
                    "`{}` marks class `{}` {} on its {} Mb/s ports but not alike at its other speeds; the `.fab` marks a class at every speed of a switch or at none, so those ports are taken as the fabric's {}",
                    s.name,
                    c.name,
                    ecn_words(*w),
                    sp,
                    ecn_words(c.ecn_at(*sp))
                ),
            )),
        }
    }
}
