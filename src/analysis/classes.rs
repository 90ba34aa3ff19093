//! The class table itself: DSCPs claimed once, one loss behaviour per priority, ETS shares
//! that add up, and a CNP class wherever DCQCN runs (FAB501–FAB504); a queue plan in which
//! each traffic class has one queue and a lossless priority has its queue alone (FAB121,
//! FAB122).

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic, listed_names};
use crate::model::{Congestion, Dscp, Fabric, Os, Scheduling};
use crate::span::Span;

pub fn check(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    dscp_overlap(fabric, diags);
    priority_conflict(fabric, diags);
    bandwidth_sum(fabric, diags);
    zero_shares(fabric, diags);
    cnp_present(fabric, diags);
    queue_plan(fabric, diags);
}

/// The queue plan (FAB121, FAB122): a switch maps each traffic class to one egress queue,
/// and a PAUSE for a priority stops a whole queue, so classes that share a queue must share
/// loss behaviour and, when lossless, the PFC priority; classes that share a traffic class
/// must share its queue.
fn queue_plan(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let plan: Vec<(u8, u8)> = fabric
        .classes
        .iter()
        .map(|c| {
            let tc = c.traffic_class.map_or(c.priority.value, |t| t.value);
            (tc, c.queue.map_or(tc, |q| q.value))
        })
        .collect();
    // The place to point at: the later class's explicit `queue`/`traffic-class`, else the
    // earlier one's, else the later class.
    let at = |a: usize, b: usize, queue: bool| {
        let pick = |c: &crate::model::Class| {
            if queue {
                c.queue.or(c.traffic_class).map(|x| x.span)
            } else {
                c.traffic_class.or(c.queue).map(|x| x.span)
            }
        };
        let (ca, cb) = (&fabric.classes[a], &fabric.classes[b]);
        pick(cb).or_else(|| pick(ca)).unwrap_or(cb.span)
    };
    for b in 0..fabric.classes.len() {
        for a in 0..b {
            let (ca, cb) = (&fabric.classes[a], &fabric.classes[b]);
            let ((ta, qa), (tb, qb)) = (plan[a], plan[b]);
            if ta == tb && qa != qb {
                diags.push(
                    Diagnostic::new(
                        Code::TrafficClassTwoQueues,
                        at(a, b, false),
                        format!(
                            "classes `{}` and `{}` share traffic class {ta} but use queues {qa} and {qb}",
                            ca.name, cb.name
                        ),
                    )
                    .label("traffic class and queue set here")
                    .help("a switch maps each traffic class to one egress queue: give the classes the same `queue`, or separate `traffic-class` values"),
                );
                continue;
            }
            if qa != qb || ca.priority.value == cb.priority.value {
                continue; // same priority: FAB502 judges the loss behaviour
            }
            if !ca.lossless.value && !cb.lossless.value {
                continue;
            }
            let why = if ca.lossless.value && cb.lossless.value {
                format!(
                    "both are lossless, on PFC priorities {} and {}: a PAUSE for either stops the other's traffic too, a dependency the deadlock proof does not see",
                    ca.priority.value, cb.priority.value
                )
            } else {
                let (lossless, lossy) = if ca.lossless.value {
                    (ca, cb)
                } else {
                    (cb, ca)
                };
                format!(
                    "`{}` is lossless and `{}` is not: PAUSE frames for priority {} also hold back the lossy traffic, and its drops and buffer use land in a lossless queue",
                    lossless.name, lossy.name, lossless.priority.value
                )
            };
            diags.push(
                Diagnostic::new(
                    Code::QueueShared,
                    at(a, b, true),
                    format!(
                        "classes `{}` and `{}` share switch queue {qa}: {why}",
                        ca.name, cb.name
                    ),
                )
                .label("queue set here")
                .help("give each lossless PFC priority its own `queue`"),
            );
        }
    }
}

fn dscp_overlap(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let mut owner: [Option<usize>; 64] = [None; 64];
    let mut other: Option<usize> = None;
    for (i, c) in fabric.classes.iter().enumerate() {
        let Some(d) = &c.dscp else { continue };
        match &d.value {
            Dscp::Other => {
                if let Some(first) = other {
                    let f = &fabric.classes[first];
                    diags.push(
                        Diagnostic::new(Code::DscpOverlap, d.span, format!("classes `{}` and `{}` both claim `dscp other`", f.name, c.name))
                            .label("second `dscp other`")
                            .with_secondary(f.dscp.as_ref().map_or(f.span, |x| x.span), "first `dscp other`")
                            .help("one class takes the DSCPs no other class claims; give the other class explicit values"),
                    );
                } else {
                    other = Some(i);
                }
            }
            Dscp::Values(values) => {
                let mut clashes: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
                for &v in values {
                    match owner[v as usize] {
                        Some(first) => clashes.entry(first).or_default().push(v),
                        None => owner[v as usize] = Some(i),
                    }
                }
                for (first, vals) in clashes {
                    let f = &fabric.classes[first];
                    let list = vals
                        .iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join(", ");
                    diags.push(
                        Diagnostic::new(
                            Code::DscpOverlap,
                            d.span,
                            format!("classes `{}` and `{}` both claim DSCP {list}", f.name, c.name),
                        )
                        .label(format!("`{}` claims it again here", c.name))
                        .with_secondary(f.dscp.as_ref().map_or(f.span, |x| x.span), format!("`{}` claims it here", f.name))
                        .help("a DSCP value selects one class on every hop; remove it from one of the classes"),
                    );
                }
            }
        }
    }
}

fn priority_conflict(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let mut first_at: [Option<usize>; 8] = [None; 8];
    for (i, c) in fabric.classes.iter().enumerate() {
        let p = c.priority.value as usize;
        let Some(slot) = first_at.get_mut(p) else {
            continue;
        };
        match *slot {
            None => *slot = Some(i),
            Some(first) => {
                let f = &fabric.classes[first];
                if f.lossless.value != c.lossless.value {
                    let (lossless, lossy) = if f.lossless.value { (f, c) } else { (c, f) };
                    diags.push(
                        Diagnostic::new(
                            Code::PriorityConflict,
                            c.priority.span,
                            format!("classes `{}` (lossless) and `{}` (lossy) share priority {p}", lossless.name, lossy.name),
                        )
                        .label("same priority")
                        .with_secondary(f.priority.span, format!("`{}` uses priority {p} here", f.name))
                        .help(format!(
                            "PFC pauses a whole priority: `{}` would be paused too, or `{}` would lose its protection; give them different priorities",
                            lossy.name, lossless.name
                        )),
                    );
                }
            }
        }
    }
}

fn bandwidth_sum(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let mut sum = 0u64;
    let mut shares = Vec::new();
    for c in &fabric.classes {
        match c.scheduling.value {
            Scheduling::Strict => {}
            Scheduling::Ets(Some(p)) => {
                sum += p;
                shares.push(format!("`{}` {}%", c.name, pct(p)));
                if p > 0 && p < 500 {
                    // `lower::ets_weights`: switches take whole-percent weights of at least 1.
                    diags.push(
                        Diagnostic::new(
                            Code::TargetApproximates,
                            c.scheduling.span,
                            format!(
                                "class `{}`: `bandwidth {}%` is written as a weight of 1 % on every switch and NIC (whole percents, at least 1), taken from the class with the largest share",
                                c.name,
                                pct(p)
                            ),
                        )
                        .label("rounds to 0 %")
                        .help("give the class `bandwidth 1%` or more (and take it from another class), so that what the devices run is what was written"),
                    );
                }
            }
            Scheduling::Ets(None) => diags.push(
                Diagnostic::new(
                    Code::BandwidthSum,
                    c.span,
                    format!(
                        "class `{}` has neither a `bandwidth` share nor `strict`",
                        c.name
                    ),
                )
                .label("declared here")
                .help("add `bandwidth N%` (the ETS share among non-strict classes) or `strict`"),
            ),
        }
    }
    if !shares.is_empty() && sum != 100_000 {
        let last = fabric
            .classes
            .iter()
            .rev()
            .find(|c| matches!(c.scheduling.value, Scheduling::Ets(Some(_))))
            .map_or(fabric.span, |c| c.scheduling.span);
        diags.push(
            Diagnostic::new(Code::BandwidthSum, last, format!("the ETS shares sum to {}%, not 100%", pct(sum)))
                .label("last share")
                .note(format!("shares: {}", shares.join(", ")))
                .help("ETS shares of the non-strict classes must sum to exactly 100% (NICs refuse other sums)"),
        );
    }
}

/// An explicit `bandwidth 0%` (the class's, or a switch's own for it), judged by the targets of
/// the switches it reaches, so `check` says it at the share before anything is written:
///
/// * SONiC refuses it: `SCHEDULER|…` `weight` is `uint8 { range "1..100" }` in
///   sonic-net/sonic-buildimage `src/sonic-yang-models/yang-models/sonic-scheduler.yang`
///   (@1be89edc), and the renderer refuses it too (FAB901).
/// * VRP and Comware write a weight of 1, the least `drr weight` / `byte-count` they take, so
///   the class gets a share it was not given (FAB906).
/// * NX-OS (`bandwidth remaining percent 0`), Junos (`transmit-rate percent 0`), Cumulus
///   (`bw-percent: 0`, as every unused traffic class), EOS (`bandwidth percent 0`) and mlx5
///   NICs (`--tcbw` 0 under ETS) are written 0 as stated: no guaranteed share, the class is
///   served from what the others leave, which is what `0%` says. No finding.
/// * Hosts are judged where their traffic classes are made: hns3 and hccn refuse an ETS TC
///   whose priorities' shares sum to 0, a FAB901 at the host (`render::host_dcb`).
fn zero_shares(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    // (where the 0 % was written, class) → OS → devices, in declaration order.
    type Devices<'a> = BTreeMap<Os, Vec<&'a str>>;
    let mut at: BTreeMap<(Span, usize), Devices> = BTreeMap::new();
    for (sid, s) in fabric.switch_ids().zip(&fabric.switches) {
        let os = fabric.switch_model(sid).os.value;
        if !matches!(os, Os::Sonic | Os::Vrp | Os::Comware) {
            continue;
        }
        for (ci, c) in fabric.classes.iter().enumerate() {
            let scheduling = s
                .class_overrides
                .get(ci)
                .and_then(|o| o.scheduling)
                .unwrap_or(c.scheduling);
            if scheduling.value == Scheduling::Ets(Some(0)) {
                at.entry((scheduling.span, ci))
                    .or_default()
                    .entry(os)
                    .or_default()
                    .push(s.name.as_str());
            }
        }
    }
    for ((span, ci), by_os) in at {
        let Some(class) = fabric.classes.get(ci) else {
            continue;
        };
        if let Some(devices) = by_os.get(&Os::Sonic) {
            diags.push(
                Diagnostic::new(
                    Code::TargetCannotExpress,
                    span,
                    format!(
                        "class `{}`: `bandwidth 0%` cannot be written on SONiC ({}): a DWRR `weight` is 1..100 (sonic-scheduler.yang)",
                        class.name,
                        listed_names(devices)
                    ),
                )
                .label("0 % on SONiC")
                .help("give the class `bandwidth 1%` or more and take it from another class (the shares must still sum to 100%), or move those switches to a model whose OS takes a weight of 0"),
            );
            continue;
        }
        let devices: Vec<&str> = by_os.values().flatten().copied().collect();
        let targets: Vec<&str> = by_os.keys().map(|os| os.as_str()).collect();
        diags.push(
            Diagnostic::new(
                Code::TargetApproximates,
                span,
                format!(
                    "class `{}`: `bandwidth 0%` is written as a weight of 1 on {} ({}), the least weight VRP and Comware take: the class gets a share it was not given",
                    class.name,
                    targets.join(" and "),
                    listed_names(&devices)
                ),
            )
            .label("written as 1")
            .help("give the class `bandwidth 1%` or more (and take it from another class), so that what the devices run is what was written"),
        );
    }
}

fn pct(thousandths: u64) -> String {
    if thousandths.is_multiple_of(1000) {
        (thousandths / 1000).to_string()
    } else {
        format!("{}", thousandths as f64 / 1000.0)
    }
}

fn cnp_present(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    if fabric.classes.iter().any(|c| c.cnp.is_some()) {
        return;
    }
    if let Some(c) = fabric
        .classes
        .iter()
        .find(|c| c.congestion.value == Congestion::Dcqcn)
    {
        diags.push(
            Diagnostic::new(Code::NoCnpClass, c.congestion.span, format!("class `{}` uses DCQCN but no class carries CNPs", c.name))
                .label("DCQCN class")
                .help("add a CNP class served before data, e.g. `class cnp { dscp 48  priority 6  strict  cnp }`, or set `congestion none`"),
        );
    }
}
