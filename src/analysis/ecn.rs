//! ECN/DCQCN rules ECN-1…ECN-11 (docs/physics.md §3) on every switch egress queue of a class
//! declared `congestion dcqcn`, through `physics::evaluate_ecn` (FAB301–FAB312). A class with
//! `congestion none` is skipped here; its PFC rules run elsewhere.
//!
//! Per switch, the queues of one class differ only in link speed, so each (switch, class,
//! speed) is evaluated once. Findings are grouped by the source line that set the offending
//! value and the numbers involved: one bad class line gives one finding with a count, not one
//! per port. CNP scheduling (ECN-8) is judged per switch, NIC ECN (ECN-9) per host.
//!
//! ECN-7 (mark-only on lossless queues): the language has no WRED-drop mode and the renderers
//! always program marking without drops (SONiC `ecn_all`, EOS/NX-OS `… ecn`), so the only
//! violation left is marking turned off (`ecn off`) on a lossless DCQCN class.
//!
//! ECN-10 (thresholds not scaled across speeds) only judges an `ecn min` the user set: the
//! default is NVIDIA's absolute 150 KB, which the vendor applies at every speed.
//!
//! RTT for ECN-6: the fabric's `rtt` when given, else [`fabric_rtt`] derives it from the
//! longest valley-free path's cables and switch count (`physics::derive_rtt`).

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::{Code, Diagnostic};
use crate::model::qos::ClassView;
use crate::model::{ClassId, Congestion, DeviceId, Fabric, Scheduling, SwitchId};
use crate::span::Span;

use super::group::{Grouped, Places, bytes, metres, percent, speed, thousands, time};
use super::headroom::HeadroomPlan;
use super::physics::{
    Alpha, EcnQueue, EcnViolation, EgressLimit, Marking, PauseThreshold, Rtt, derive_rtt,
    dynamic_pause_point, min_kmin,
};

/// The base RTT used for ECN-6, and how it was found (for the finding's note).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FabricRtt {
    pub rtt: Rtt,
    /// `given by \`rtt 10us\`` or `derived from …`.
    pub how: String,
    pub span: Option<Span>,
}

/// The fabric's `rtt`, else derived from the longest path: the longest host cable, then the
/// longest cable between each pair of adjacent tiers (switch links without tiers count as
/// one leaf–spine stage), up and down again, crossing `2·stages + 1` switches.
pub fn fabric_rtt(fabric: &Fabric) -> FabricRtt {
    if let Some(r) = fabric.rtt {
        return FabricRtt {
            rtt: Rtt::given(r.value.get()),
            how: format!("given by `rtt` ({})", time(r.value.get())),
            span: Some(r.span),
        };
    }
    let mut host_cable = 0;
    let mut stages: BTreeMap<u8, u64> = BTreeMap::new();
    for l in &fabric.links {
        let c = l.cable_mm.value.get();
        match (l.a.device, l.b.device) {
            (DeviceId::Host(_), _) | (_, DeviceId::Host(_)) => host_cable = host_cable.max(c),
            (DeviceId::Switch(x), DeviceId::Switch(y)) => {
                let tier = |s: SwitchId| fabric.switch(s).tier.map(|t| t.value);
                let level = match (tier(x), tier(y)) {
                    (Some(a), Some(b)) if a != b => a.min(b),
                    _ => 0,
                };
                let e = stages.entry(level).or_insert(0);
                *e = (*e).max(c);
            }
        }
    }
    let mut one_way = vec![host_cable];
    one_way.extend(stages.values().copied());
    let cables: Vec<u64> = one_way
        .iter()
        .chain(one_way.iter().rev())
        .copied()
        .collect();
    let switches = 2 * stages.len() as u64 + 1;
    let rtt = derive_rtt(&cables, switches);
    let list = one_way
        .iter()
        .map(|&c| metres(c))
        .collect::<Vec<_>>()
        .join(" + ");
    FabricRtt {
        rtt,
        how: format!(
            "derived ({}): cables {list} each way, {switches} switches; set `rtt` to use a measured value",
            time(rtt.ns)
        ),
        span: None,
    }
}

/// Where one switch's queues of one class stand (for grouping).
struct Subject {
    class: ClassId,
    switch: String,
    first_port: String,
    ports: usize,
    speed_mbps: u64,
}

struct Found {
    subject: Subject,
    violation: EcnViolation,
    secondary: Option<(Span, String)>,
}

/// Has the switch's CNP class its own TC, served before `data`?
/// Scheduling is per egress queue: the CNP class needs its own queue, served first.
fn cnp_ok(cnp: &ClassView, data: &ClassView) -> bool {
    if cnp.queue.value == data.queue.value {
        return false;
    }
    match (cnp.scheduling.value, data.scheduling.value) {
        (Scheduling::Strict, Scheduling::Strict) => cnp.queue.value > data.queue.value,
        (Scheduling::Strict, Scheduling::Ets(_)) => true,
        (Scheduling::Ets(_), Scheduling::Strict) => false,
        (Scheduling::Ets(c), Scheduling::Ets(d)) => c.unwrap_or(0) > d.unwrap_or(0),
    }
}

/// The ECN marking of one switch egress queue of a DCQCN class, with the bounds the rules
/// judge it against: what the renderers program and what reports show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EcnQueuePlan {
    pub switch: SwitchId,
    pub class: ClassId,
    /// The queue (= priority) of the class on this switch.
    pub priority: u8,
    pub enabled: bool,
    /// Bytes.
    pub kmin: u64,
    /// Bytes.
    pub kmax: u64,
    /// Thousandths of a percent.
    pub probability: u64,
    /// The static pause threshold, or the worst-case dynamic pause point α·B_s/(1 + α·N_pg)
    /// (floored); `None` when the model gives no buffer and the threshold is dynamic.
    pub pause_point: Option<u64>,
    /// ECN-6's lower bound for `kmin` at the switch's fastest port, `⌈C·RTT/7⌉`.
    pub min_kmin: u64,
}

/// The worst-case pause point of a lossless priority group on switch `s` under its model's
/// dynamic threshold, α·B_s/(1 + α·N_pg) (floored; B_s the buffer less the busiest packet
/// buffer's headroom, N_pg its lossless PGs): at most N_pg PGs can each hold this much at
/// once, so it is the point every PG is sure to reach before it pauses. A class with a static
/// `pfc-threshold` pauses at that instead. `None` when the model gives no buffer.
pub fn dynamic_pause_point_of(
    fabric: &Fabric,
    s: SwitchId,
    entries: &[crate::analysis::headroom::PortHeadroom],
) -> Option<u64> {
    let model = fabric.switch_model(s);
    let (headroom, pgs) = super::buffer::busiest_buffer(fabric, s, entries);
    let alpha = Alpha::new(model.dynamic_threshold.value)
        .unwrap_or_else(|| Alpha::new(0).expect("0 is in range"));
    model.buffer.map(|b| {
        let shared = b.value.get().saturating_sub(headroom);
        u64::try_from(dynamic_pause_point(alpha, shared, pgs).floor()).unwrap_or(u64::MAX)
    })
}

/// The pause point the checks judged for switch `s`'s lossless PGs: the first lossless
/// class's static `pfc-threshold` where it has one (one per port in every target, as
/// `lower` writes it), else [`dynamic_pause_point_of`].
pub fn pause_point(
    fabric: &Fabric,
    s: SwitchId,
    entries: &[crate::analysis::headroom::PortHeadroom],
) -> Option<u64> {
    match entries.first().map(|p| p.pause) {
        Some(PauseThreshold::Static(bytes)) => Some(bytes),
        _ => dynamic_pause_point_of(fabric, s, entries),
    }
}

/// Every (switch, DCQCN class) queue, sorted by switch then priority. O(switches × classes).
pub fn ecn_plan(fabric: &Fabric, plan: &HeadroomPlan) -> Vec<EcnQueuePlan> {
    let rtt = fabric_rtt(fabric).rtt;
    let mut out = Vec::new();
    for s in fabric.switch_ids() {
        let fastest = fabric
            .switch(s)
            .ports
            .iter()
            .flatten()
            .map(|&l| fabric.link(l).speed.get())
            .max();
        let Some(fastest) = fastest else { continue };
        let entries = plan.switch(s);
        let dynamic = dynamic_pause_point_of(fabric, s, entries);
        for v in fabric.switch_classes(s) {
            if v.congestion.value != Congestion::Dcqcn || fabric.class(v.id).cnp.is_some() {
                continue;
            }
            let pause_point = match v.pfc_threshold {
                Some(t) => Some(t.value.get()),
                None => dynamic,
            };
            out.push(EcnQueuePlan {
                switch: s,
                class: v.id,
                priority: v.priority.value,
                enabled: v.ecn.enabled.value,
                kmin: v.ecn.min.value.get(),
                kmax: v.ecn.max.value.get(),
                probability: v.ecn.probability.value,
                pause_point,
                min_kmin: min_kmin(fastest, rtt.ns),
            });
        }
    }
    out.sort_by_key(|q| (q.switch, q.priority, q.class));
    out
}

pub fn check(fabric: &Fabric, plan: &HeadroomPlan, diags: &mut Vec<Diagnostic>) {
    let rtt = fabric_rtt(fabric);
    // Pass 1: the marking DCQCN queues, and the (speed, Kmin) of every one for ECN-10.
    let Marked {
        queues,
        kmins,
        cnp_bad,
    } = marking_queues(fabric);
    // Pass 2: evaluate every (switch, class, speed).
    let mut found: Grouped<Found> = Grouped::default();
    for q in &queues {
        judge_queue(fabric, plan, q, &kmins, &rtt, &mut found);
    }
    found.finish(diags, |span, f, places| {
        render(fabric, span, f, places, &rtt)
    });
    cnp_bad.finish(diags, |span, (data, cnp), places| {
        cnp_not_first(fabric, span, data, cnp, places)
    });
    nic_ecn(fabric, diags);
}

/// (speed, kmin, kmax, probability) → (ports, first port, thresholds with their spans).
type PortGroups = BTreeMap<(u64, u64, u64, u64), (usize, u32, crate::model::Ecn)>;
struct Queue {
    switch: SwitchId,
    view: ClassView,
    /// (speed, thresholds) → (ports, first port, the thresholds with their spans): ports
    /// differ by speed (`ecn SPEED …`) and by link (`ecn CLASS …` on a link).
    speeds: PortGroups,
}

/// What pass 1 finds: the DCQCN queues, every (speed, Kmin) a marking queue uses, and the
/// (data class, CNP class) pairs whose CNP class is not served first (ECN-8).
struct Marked {
    queues: Vec<Queue>,
    kmins: Vec<(u64, u64)>,
    cnp_bad: Grouped<(ClassId, ClassId)>,
}

/// Pass 1: every DCQCN data queue of every switch, its ports grouped by speed and
/// thresholds.
fn marking_queues(fabric: &Fabric) -> Marked {
    let has_cnp = fabric.classes.iter().any(|c| c.cnp.is_some());
    let mut queues: Vec<Queue> = Vec::new();
    let mut kmins: BTreeSet<(u64, u64)> = BTreeSet::new();
    let mut cnp_bad: Grouped<(ClassId, ClassId)> = Grouped::default();
    for s in fabric.switch_ids() {
        let sw = fabric.switch(s);
        let mut speeds: BTreeMap<u64, (usize, u32)> = BTreeMap::new();
        for (i, l) in sw.ports.iter().enumerate() {
            if let Some(l) = l {
                let e = speeds
                    .entry(fabric.link(*l).speed.get())
                    .or_insert((0, i as u32));
                e.0 += 1;
            }
        }
        if speeds.is_empty() {
            continue;
        }
        let views = fabric.switch_classes(s);
        for c in fabric.class_ids() {
            let v = &views[c.index()];
            // The CNP class itself carries no DCQCN data.
            if v.congestion.value != Congestion::Dcqcn || fabric.class(c).cnp.is_some() {
                continue;
            }
            let mut groups: PortGroups = BTreeMap::new();
            for (i, l) in sw.ports.iter().enumerate() {
                if let Some(l) = l {
                    let link = fabric.link(*l);
                    let e = v.ecn_on(link);
                    let key = (
                        link.speed.get(),
                        e.min.value.get(),
                        e.max.value.get(),
                        e.probability.value,
                    );
                    groups.entry(key).or_insert((0, i as u32, e)).0 += 1;
                }
            }
            if v.ecn.enabled.value {
                for &(sp, kmin, _, _) in groups.keys() {
                    kmins.insert((sp, kmin));
                }
            }
            // ECN-8, once per (switch, data class).
            if has_cnp && v.lossless.value {
                for cnp in views.iter().filter(|x| fabric.class(x.id).cnp.is_some()) {
                    if !cnp_ok(cnp, v) {
                        let span = if cnp.queue.value == v.queue.value {
                            cnp.queue.span
                        } else {
                            cnp.scheduling.span
                        };
                        let key = format!("{}:{}", c.0, cnp.id.0);
                        cnp_bad.add(span, key, || sw.name.clone(), || (c, cnp.id));
                    }
                }
            }
            queues.push(Queue {
                switch: s,
                view: v.clone(),
                speeds: groups,
            });
        }
    }
    Marked {
        queues,
        kmins: kmins.into_iter().collect(),
        cnp_bad,
    }
}

/// Pass 2 for one queue: the ECN rules at each of its (speed, thresholds) port groups.
fn judge_queue(
    fabric: &Fabric,
    plan: &HeadroomPlan,
    q: &Queue,
    kmins: &[(u64, u64)],
    rtt: &FabricRtt,
    found: &mut Grouped<Found>,
) {
    let s = q.switch;
    let sw = fabric.switch(s);
    let model = fabric.switch_model(s);
    let v = &q.view;
    let entries = plan.switch(s);
    let (headroom, pgs) = super::buffer::busiest_buffer(fabric, s, entries);
    let alpha = Alpha::new(model.dynamic_threshold.value)
        .unwrap_or_else(|| Alpha::new(0).expect("0 is in range"));
    let shared = model.buffer.map(|b| b.value.get().saturating_sub(headroom));
    let pause = match v.pfc_threshold {
        Some(t) => PauseThreshold::Static(t.value.get()),
        None => PauseThreshold::Dynamic(alpha),
    };
    let ports: usize = q.speeds.values().map(|x| x.0).sum();
    let marking = if v.ecn.enabled.value {
        Marking::MarkOnly
    } else {
        Marking::Off
    };
    if marking == Marking::Off && !v.lossless.value {
        return; // a lossy DCQCN class without marking: nothing to judge
    }
    for (&(speed_mbps, _, _, _), &(count, first, e)) in &q.speeds {
        let queue = EcnQueue {
            cnp_separate: true,
            egress_limit: match shared {
                Some(pool) => EgressLimit::Dynamic { alpha, pool },
                None => EgressLimit::Static(u64::MAX),
            },
            fabric_kmins: kmins,
            kmax: e.max.value.get(),
            kmin: e.min.value.get(),
            lossless_pgs: pgs,
            marking,
            nic_rp_np_enabled: true,
            pause,
            pmax: e.probability.value,
            ports: ports as u64,
            rtt: rtt.rtt,
            shared_buffer: shared.unwrap_or(0),
            speed_mbps,
        };
        for violation in super::physics::evaluate_ecn(&queue) {
            let dynamic_without_buffer = shared.is_none()
                && matches!(
                    violation,
                    EcnViolation::KminAboveWorstCase { dynamic: true, .. }
                        | EcnViolation::KmaxAboveEgressLimit { .. }
                );
            // NVIDIA's default thresholds are absolute, meant for any speed: ECN-10 only
            // judges thresholds the user chose.
            let default_kmin =
                e.min.default && matches!(violation, EcnViolation::KminNotScaled { .. });
            if dynamic_without_buffer || default_kmin {
                continue;
            }
            let (span, secondary) = cause(fabric, s, v, &e, violation, rtt);
            let first_port = fabric.endpoint_name(crate::model::Endpoint {
                device: DeviceId::Switch(s),
                port: first,
            });
            let key = format!("{}:{violation:?}", v.id.0);
            let name = sw.name.clone();
            found.add(
                span,
                key,
                || name,
                || Found {
                    subject: Subject {
                        class: v.id,
                        switch: sw.name.clone(),
                        first_port,
                        ports: count,
                        speed_mbps,
                    },
                    violation,
                    secondary,
                },
            );
        }
    }
}

/// ECN-8: a CNP class not served before a DCQCN class.
fn cnp_not_first(
    fabric: &Fabric,
    span: Span,
    data: ClassId,
    cnp: ClassId,
    places: &Places,
) -> Diagnostic {
    let (d, c) = (fabric.class(data), fabric.class(cnp));
    let mut diag = Diagnostic::new(
        Code::CnpNotFirst,
        span,
        format!("on {} the CNP class `{}` is not served before DCQCN class `{}`", places.subject(), c.name, d.name),
    )
    .label("CNP scheduling set here")
    .help(format!(
        "give `{}` its own priority and make it `strict` (NVIDIA: CNP on priority 6, strict), so CNPs do not queue behind the congestion they report",
        c.name
    ));
    if let Some(n) = places.note("switches") {
        diag = diag.note(n);
    }
    diag
}

/// The span of the value a violation is about, and a secondary place.
fn cause(
    fabric: &Fabric,
    s: SwitchId,
    v: &ClassView,
    e: &crate::model::Ecn,
    violation: EcnViolation,
    rtt: &FabricRtt,
) -> (Span, Option<(Span, String)>) {
    let pause = v
        .pfc_threshold
        .map(|t| (t.span, "pause threshold set here".to_string()));
    match violation {
        EcnViolation::KminNotBelowKmax { .. } | EcnViolation::StepMarking { .. } => {
            let other =
                (e.min.span != e.max.span).then(|| (e.min.span, "`ecn min` set here".to_string()));
            (e.max.span, other)
        }
        EcnViolation::PmaxOutOfRange { .. } => (e.probability.span, None),
        EcnViolation::KminNotBelowPause { .. } => (e.min.span, pause),
        EcnViolation::KmaxAbovePause { .. } => (e.max.span, pause),
        EcnViolation::KmaxAboveEgressLimit { .. } => (
            e.max.span,
            fabric
                .switch_model(s)
                .buffer
                .map(|b| (b.span, "the switch model's buffer".to_string())),
        ),
        EcnViolation::KminBelowBdp { .. } => (
            e.min.span,
            rtt.span.map(|r| (r, "RTT given here".to_string())),
        ),
        EcnViolation::NotMarkOnly { .. } => (e.enabled.span, None),
        EcnViolation::KminNotScaled { .. } | EcnViolation::KminAboveWorstCase { .. } => {
            (e.min.span, None)
        }
        EcnViolation::CnpNotSeparate | EcnViolation::NicDcqcnDisabled => (v.congestion.span, None),
    }
}

fn render(fabric: &Fabric, span: Span, f: Found, places: &Places, rtt: &FabricRtt) -> Diagnostic {
    let sub = &f.subject;
    let class = &fabric.class(sub.class).name;
    let on = if places.count > 1 {
        format!(
            "`{}` on `{}` and {} more switches",
            class,
            sub.switch,
            thousands(places.count as u64 - 1)
        )
    } else {
        format!("`{class}` on `{}`", sub.switch)
    };
    let (code, message, help): (Code, String, String) = match f.violation {
        EcnViolation::KminNotBelowKmax { kmax, kmin } => (
            Code::EcnInverted,
            format!("`ecn min` {} is not below `ecn max` {} for {on}", bytes(kmin), bytes(kmax)),
            format!("set `ecn min` below `ecn max`; swapped they would read `ecn min {kmax}B max {kmin}B`"),
        ),
        EcnViolation::StepMarking { k } => (
            Code::EcnStepMarking,
            format!("`ecn min` equals `ecn max` ({}) with probability 100% for {on}: step marking", bytes(k)),
            format!("give DCQCN a ramp: e.g. `ecn min {}B max {}B`", k / 10, k),
        ),
        EcnViolation::PmaxOutOfRange { pmax } => (
            Code::EcnProbability,
            format!("ECN marking probability {} for {on} is not a probability above 0", percent(pmax)),
            "set `probability` between 1% and 100% (NVIDIA uses 100%, the DCQCN paper 1%)".to_string(),
        ),
        EcnViolation::KminNotBelowPause { kmin, pause } => (
            Code::EcnAfterPause,
            format!("`ecn min` {} for {on} is not below the pause threshold {}: PFC pauses before ECN marks", bytes(kmin), bytes(pause)),
            format!("set `ecn min` below {} (or raise `pfc-threshold` above it)", bytes(pause)),
        ),
        EcnViolation::KmaxAbovePause { kmax, pause } => (
            Code::EcnMaxAbovePause,
            format!("`ecn max` {} for {on} is above the pause threshold {}: marking cannot reach its maximum before PFC pauses", bytes(kmax), bytes(pause)),
            format!("set `ecn max` to at most {}", bytes(pause)),
        ),
        EcnViolation::KmaxAboveEgressLimit { kmax, limit, .. } => (
            Code::EcnMaxAboveQueue,
            format!("`ecn max` {} for {on} is above what the egress queue can hold, {}", bytes(kmax), bytes(limit)),
            format!("set `ecn max` to at most {} (α × the shared buffer left after headroom)", bytes(limit)),
        ),
        EcnViolation::KminBelowBdp { kmin, min_kmin, .. } => (
            Code::EcnMinBelowBdp,
            format!(
                "`ecn min` {} for {on} is below C·RTT/7 = {} at {} with an RTT of {}",
                bytes(kmin),
                bytes(min_kmin),
                speed(sub.speed_mbps),
                time(rtt.rtt.ns)
            ),
            format!("set `ecn min` to at least {}B, or the link runs below capacity under DCQCN", min_kmin),
        ),
        EcnViolation::NotMarkOnly { .. } => (
            Code::EcnOffOnLossless,
            format!("lossless DCQCN class {on} has ECN marking off"),
            "turn marking on (remove `ecn off`), or declare the class `congestion none` for a PFC-only fabric".to_string(),
        ),
        EcnViolation::KminNotScaled { kmin, other_speed_mbps, speed_mbps, suggested } => (
            Code::EcnNotScaled,
            format!(
                "`ecn min` {} for {on} is the same at {} and {}",
                bytes(kmin),
                speed(speed_mbps),
                speed(other_speed_mbps)
            ),
            format!("scale the thresholds with the rate: about {}B at {}", suggested, speed(speed_mbps)),
        ),
        EcnViolation::KminAboveWorstCase { below, dynamic, kmin } => (
            Code::EcnWorstCase,
            format!(
                "`ecn min` {} for {on} is not below the worst-case pause point {} ({})",
                bytes(kmin),
                bytes(below),
                if dynamic { "α·B_s/(1 + α·N_pg)" } else { "T_xoff/(ports − 1)" }
            ),
            format!("to keep ECN ahead of PFC even when every port feeds one, set `ecn min` below {}", bytes(below)),
        ),
        EcnViolation::CnpNotSeparate | EcnViolation::NicDcqcnDisabled => {
            unreachable!("judged outside evaluate_ecn's per-queue loop")
        }
    };
    let label = match code {
        Code::EcnProbability => "probability set here",
        Code::EcnOffOnLossless => "ECN turned off here",
        Code::EcnInverted
        | Code::EcnStepMarking
        | Code::EcnMaxAbovePause
        | Code::EcnMaxAboveQueue => "`ecn max` set here",
        _ => "`ecn min` set here",
    };
    let mut d = Diagnostic::new(code, span, message)
        .label(label)
        .help(help)
        .severity(f.violation.severity());
    if let Some((s, text)) = f.secondary {
        d = d.with_secondary(s, text);
    }
    if code == Code::EcnMinBelowBdp {
        d = d.note(format!("RTT {}", rtt.how));
    }
    d = d.note(format!(
        "rule {}; {} port{} at {} on `{}`, e.g. `{}`",
        f.violation.rule().id(),
        sub.ports,
        if sub.ports == 1 { "" } else { "s" },
        speed(sub.speed_mbps),
        sub.switch,
        sub.first_port
    ));
    if let Some(n) = places.note("switches") {
        d = d.note(n);
    }
    d
}

/// ECN-9: a host that turns ECN off for a DCQCN class.
fn nic_ecn(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let classes: Vec<ClassId> = fabric
        .class_ids()
        .filter(|&c| {
            let class = fabric.class(c);
            class.congestion.value == Congestion::Dcqcn
                && class.ecn.enabled.value
                && class.cnp.is_none()
        })
        .collect();
    let mut grouped: Grouped<(ClassId, String, usize)> = Grouped::default();
    for h in fabric.host_ids() {
        let host = fabric.host(h);
        for &c in &classes {
            let v = fabric.host_class(h, c);
            // The host script configures the NICs on the fabric only (issue 18 item 4).
            let first = host.nics.iter().position(|n| n.on_fabric());
            if let Some(first) = first
                && v.congestion.value == Congestion::Dcqcn
                && !v.ecn.enabled.value
            {
                let nic = fabric.endpoint_name(crate::model::Endpoint {
                    device: DeviceId::Host(h),
                    port: first as u32,
                });
                let nics = host.fabric_ports();
                grouped.add(
                    v.ecn.enabled.span,
                    format!("{}", c.0),
                    || host.name.clone(),
                    || (c, nic, nics),
                );
            }
        }
    }
    grouped.finish(diags, |span, (c, nic, nics), places| {
        let name = &fabric.class(c).name;
        let subject = if places.count > 1 { places.subject() } else { format!("`{nic}`{}", if nics > 1 { format!(" (and its other {} NICs)", nics - 1) } else { String::new() }) };
        let mut d = Diagnostic::new(
            Code::NicEcnOff,
            span,
            format!("{subject} has ECN off for DCQCN class `{name}`: the NIC neither sends CNPs nor slows down"),
        )
        .label("ECN turned off here")
        .help(format!(
            "remove `ecn off`: DCQCN needs the notification and reaction points on `{name}`'s priority of every NIC"
        ));
        if let Some(n) = places.note("hosts") {
            d = d.note(n);
        }
        d
    });
}
