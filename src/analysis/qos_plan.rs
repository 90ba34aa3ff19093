//! One QoS plan end to end (docs/physics.md §4, QOS-1…QOS-3): every DSCP of a lossless class
//! lands in a PFC priority on every switch and NIC (FAB505), both ends of every link use the
//! same priority for a lossless class (FAB506) and run PFC on the same priorities (FAB507),
//! and RoCE frames fit the port MTU of every hop (FAB508): every switch port MTU must be at
//! least the host netdev MTU (see [`super::mtu`] for the allowance above `roce-mtu`).

use std::collections::BTreeSet;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::qos::{ClassView, dscp_table};
use crate::model::{Bytes, ClassId, DeviceId, Dscp, Fabric, Sourced};
use crate::span::Span;

use super::group::{Grouped, Places, bytes, thousands};
// Kept at their old path: lowering and the tests name them here.
use crate::model::mtu::ROCE_HEADER_ALLOWANCE;

pub fn check(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let reported = classification(fabric, diags);
    links(fabric, &reported, diags);
    mtu(fabric, diags);
}

/// The class views of a device, and whether it runs PFC at all.
struct DeviceViews {
    views: Vec<ClassView>,
    pfc: bool,
}

impl DeviceViews {
    fn of(fabric: &Fabric, d: DeviceId) -> DeviceViews {
        match d {
            DeviceId::Switch(s) => DeviceViews {
                views: fabric.switch_classes(s),
                pfc: true,
            },
            DeviceId::Host(h) => DeviceViews {
                views: fabric.host_classes(h),
                pfc: fabric.host_pfc(h),
            },
        }
    }

    /// Priorities with PFC on this device.
    fn pfc_priorities(&self) -> BTreeSet<u8> {
        if !self.pfc {
            return BTreeSet::new();
        }
        self.views
            .iter()
            .filter(|v| v.lossless.value)
            .map(|v| v.priority.value)
            .collect()
    }

    /// Priorities with PFC regardless of a host's `pfc off`.
    fn lossless_priorities(&self) -> BTreeSet<u8> {
        self.views
            .iter()
            .filter(|v| v.lossless.value)
            .map(|v| v.priority.value)
            .collect()
    }
}

fn dscp_list(values: &[u8]) -> String {
    let s = values
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if values.len() == 1 {
        format!("DSCP {s}")
    } else {
        format!("DSCPs {s}")
    }
}

struct Misclassified {
    class: ClassId,
    dscps: Vec<u8>,
    device: String,
    target: Option<ClassId>,
    target_priority: u8,
    lossless_off: bool,
    /// A host marks the class with DSCPs the switches put elsewhere.
    host_marks: bool,
}

/// DSCP → class as the fabric declares it (no device overrides): what switches without
/// overrides do.
fn fabric_dscp_table(fabric: &Fabric) -> [Option<ClassId>; 64] {
    let mut table = [None; 64];
    for c in fabric.class_ids() {
        if let Some(Sourced {
            value: Dscp::Values(values),
            ..
        }) = &fabric.class(c).dscp
        {
            for &d in values {
                if let Some(slot) = table.get_mut(d as usize) {
                    slot.get_or_insert(c);
                }
            }
        }
    }
    if let Some(other) = fabric.class_ids().find(|&c| {
        matches!(
            fabric.class(c).dscp,
            Some(Sourced {
                value: Dscp::Other,
                ..
            })
        )
    }) {
        for slot in &mut table {
            slot.get_or_insert(other);
        }
    }
    table
}

/// FAB505 (QOS-1). Returns the spans it reported, so FAB507 does not repeat them.
fn classification(fabric: &Fabric, diags: &mut Vec<Diagnostic>) -> BTreeSet<Span> {
    let lossless: Vec<(ClassId, Vec<u8>)> = fabric
        .class_ids()
        .filter_map(|c| {
            let class = fabric.class(c);
            match &class.dscp {
                Some(Sourced {
                    value: Dscp::Values(v),
                    ..
                }) if class.lossless.value => Some((c, v.clone())),
                _ => None,
            }
        })
        .collect();
    let mut grouped: Grouped<Misclassified> = Grouped::default();
    let fabric_table = fabric_dscp_table(fabric);
    if !lossless.is_empty() {
        let devices = fabric
            .switch_ids()
            .map(DeviceId::Switch)
            .chain(fabric.host_ids().map(DeviceId::Host));
        for d in devices {
            let dv = DeviceViews::of(fabric, d);
            let table = dscp_table(&dv.views);
            let pfc = dv.lossless_priorities();
            for (c, values) in &lossless {
                let own = &dv.views[c.index()];
                if !host_marks_foreign(fabric, d, *c, own, values, &fabric_table, &mut grouped) {
                    classified_elsewhere(fabric, d, &dv, (&table, &pfc), *c, values, &mut grouped);
                }
            }
        }
    }
    let mut spans = BTreeSet::new();
    grouped.finish(diags, |span, m, places| {
        spans.insert(span);
        misclassified(fabric, span, &m, places)
    });
    spans
}

/// A host that marks a lossless class with DSCPs of its own: those the switches classify
/// elsewhere (the fabric's class table) are misclassified. Returns whether the host marks
/// the class with DSCPs of its own (the class is then judged by them alone).
fn host_marks_foreign(
    fabric: &Fabric,
    d: DeviceId,
    c: ClassId,
    own: &ClassView,
    values: &[u8],
    fabric_table: &[Option<ClassId>; 64],
    grouped: &mut Grouped<Misclassified>,
) -> bool {
    if let (
        DeviceId::Host(_),
        Some(Sourced {
            value: Dscp::Values(marked),
            span,
            ..
        }),
    ) = (d, &own.dscp)
        && marked != values
    {
        // The host marks the class with other DSCPs: judge them as the switches
        // classify them (the fabric's class table).
        let foreign: Vec<u8> = marked
            .iter()
            .copied()
            .filter(|&x| fabric_table[x as usize] != Some(c))
            .collect();
        if !foreign.is_empty() {
            let target = fabric_table[foreign[0] as usize];
            let device = fabric.device_name(d).to_string();
            let key = format!("marks:{}:{foreign:?}", c.0);
            grouped.add(
                *span,
                key,
                || device.clone(),
                || Misclassified {
                    class: c,
                    dscps: foreign,
                    device: device.clone(),
                    target,
                    target_priority: target.map_or(0, |t| fabric.class(t).priority.value),
                    lossless_off: false,
                    host_marks: true,
                },
            );
        }
        return true;
    }
    false
}

/// The class's DSCPs that the device classifies into a priority without PFC, grouped by the
/// place that causes it and the class they land in.
fn classified_elsewhere(
    fabric: &Fabric,
    d: DeviceId,
    dv: &DeviceViews,
    (table, pfc): (&[Option<ClassId>; 64], &BTreeSet<u8>),
    c: ClassId,
    values: &[u8],
    grouped: &mut Grouped<Misclassified>,
) {
    let own = &dv.views[c.index()];
    // (cause span, target class) → DSCPs
    let mut bad: Vec<(Span, Option<ClassId>, u8, bool, u8)> = Vec::new();
    for &dscp in values {
        let target = table[dscp as usize];
        let priority = target.map_or(0, |t| dv.views[t.index()].priority.value);
        if pfc.contains(&priority) {
            continue;
        }
        let claims = |v: &ClassView| matches!(&v.dscp, Some(Sourced { value: Dscp::Values(x), .. }) if x.contains(&dscp));
        let (span, lossless_off) = match target {
            Some(t) if t == c => (own.lossless.span, true),
            Some(t) if claims(own) => (
                dv.views[t.index()]
                    .dscp
                    .as_ref()
                    .map_or(own.priority.span, |x| x.span),
                false,
            ),
            _ => (
                own.dscp.as_ref().map_or(own.priority.span, |x| x.span),
                false,
            ),
        };
        bad.push((span, target, priority, lossless_off, dscp));
    }
    bad.sort_by_key(|b| (b.0, b.1, b.4));
    let mut i = 0;
    while i < bad.len() {
        let (span, target, priority, lossless_off, _) = bad[i];
        let mut dscps = Vec::new();
        while i < bad.len() && bad[i].0 == span && bad[i].1 == target {
            dscps.push(bad[i].4);
            i += 1;
        }
        let device = fabric.device_name(d).to_string();
        let key = format!("{}:{:?}:{dscps:?}", c.0, target);
        grouped.add(
            span,
            key,
            || device.clone(),
            || Misclassified {
                class: c,
                dscps,
                device: device.clone(),
                target,
                target_priority: priority,
                lossless_off,
                host_marks: false,
            },
        );
    }
}

/// The FAB505 finding for one group of misclassified DSCPs.
fn misclassified(fabric: &Fabric, span: Span, m: &Misclassified, places: &Places) -> Diagnostic {
    let name = &fabric.class(m.class).name;
    let list = dscp_list(&m.dscps);
    let (message, label, help) = if m.host_marks {
        let into = match m.target {
            Some(t) => format!(
                "`{}` (priority {})",
                fabric.class(t).name,
                m.target_priority
            ),
            None => "no class".to_string(),
        };
        let want = match &fabric.class(m.class).dscp {
            Some(Sourced {
                value: Dscp::Values(v),
                ..
            }) => dscp_list(v),
            _ => "its DSCPs".to_string(),
        };
        (
            format!(
                "{} marks lossless class `{name}` with {list}, which the switches classify as {into}",
                places.subject()
            ),
            "marking set here".to_string(),
            format!(
                "mark `{name}` with {want} on `{}`, as the switches expect",
                m.device
            ),
        )
    } else if m.lossless_off {
        (
            format!(
                "{} runs lossless class `{name}` without PFC, so its {list} can be dropped",
                places.subject()
            ),
            "PFC turned off here".to_string(),
            format!(
                "remove `lossless off` from `{}`: a lossless class must be lossless on every hop",
                m.device
            ),
        )
    } else {
        let into = match m.target {
            Some(t) => format!(
                "`{}` (priority {}), which has no PFC",
                fabric.class(t).name,
                m.target_priority
            ),
            None => format!(
                "no class (priority {}), which has no PFC",
                m.target_priority
            ),
        };
        (
            format!(
                "{} classifies {list} of lossless class `{name}` into {into}",
                places.subject()
            ),
            "this classification sends it elsewhere".to_string(),
            format!(
                "classify {list} as `{name}` on `{}` too (every hop must map it to the class's PFC priority)",
                m.device
            ),
        )
    };
    let mut d = Diagnostic::new(Code::LosslessDscpLossy, span, message)
        .label(label)
        .help(help);
    if let Some(c) = fabric.class(m.class).dscp.as_ref() {
        d = d.with_secondary(c.span, format!("`{name}` is lossless with these DSCPs"));
    }
    if let Some(n) = places.note("devices") {
        d = d.note(n);
    }
    d
}

struct PriorityMismatch {
    class: ClassId,
    ours: String,
    ours_priority: u8,
    theirs: String,
    theirs_priority: u8,
}

struct PfcMismatch {
    priority: u8,
    theirs: String,
    host_pfc_off: bool,
}

/// FAB506 (QOS-3) and FAB507 (QOS-2), one pass over the links.
fn links(fabric: &Fabric, reported: &BTreeSet<Span>, diags: &mut Vec<Diagnostic>) {
    let lossless: Vec<ClassId> = fabric
        .class_ids()
        .filter(|&c| fabric.class(c).lossless.value)
        .collect();
    // Views per device, computed once.
    let switch_views: Vec<DeviceViews> = fabric
        .switch_ids()
        .map(|s| DeviceViews::of(fabric, DeviceId::Switch(s)))
        .collect();
    let host_views: Vec<DeviceViews> = fabric
        .host_ids()
        .map(|h| DeviceViews::of(fabric, DeviceId::Host(h)))
        .collect();
    let views = |d: DeviceId| match d {
        DeviceId::Switch(s) => &switch_views[s.index()],
        DeviceId::Host(h) => &host_views[h.index()],
    };
    let pfc_sets: Vec<BTreeSet<u8>> = switch_views
        .iter()
        .chain(&host_views)
        .map(DeviceViews::pfc_priorities)
        .collect();
    let pfc_of = |d: DeviceId| match d {
        DeviceId::Switch(s) => &pfc_sets[s.index()],
        DeviceId::Host(h) => &pfc_sets[switch_views.len() + h.index()],
    };
    let mut prio: Grouped<PriorityMismatch> = Grouped::default();
    let mut pfc: Grouped<PfcMismatch> = Grouped::default();
    for link in &fabric.links {
        for (a, b) in [(link.a, link.b), (link.b, link.a)] {
            let (va, vb) = (views(a.device), views(b.device));
            // QOS-3: a lossless class on another priority at `a`, where `a` overrides it.
            for &c in &lossless {
                let (x, y) = (&va.views[c.index()], &vb.views[c.index()]);
                if !x.lossless.value || !y.lossless.value || x.priority.value == y.priority.value {
                    continue;
                }
                if x.priority.span == fabric.class(c).priority.span {
                    continue; // `a` keeps the class's priority; the other end is reported
                }
                let ours = fabric.endpoint_name(a);
                let theirs = fabric.endpoint_name(b);
                prio.add(
                    x.priority.span,
                    format!("{}:{}:{}", c.0, x.priority.value, y.priority.value),
                    || ours.clone(),
                    || PriorityMismatch {
                        class: c,
                        ours: ours.clone(),
                        ours_priority: x.priority.value,
                        theirs,
                        theirs_priority: y.priority.value,
                    },
                );
            }
            // QOS-2: PFC on `b`'s priority p, not on `a`.
            let (pa, pb) = (pfc_of(a.device), pfc_of(b.device));
            for &p in pb.difference(pa) {
                let (span, host_off) = match a.device {
                    DeviceId::Host(h) if !va.pfc => (
                        fabric.host(h).pfc.map_or(fabric.host(h).span, |x| x.span),
                        true,
                    ),
                    _ => {
                        // A class that is lossless on `b` with priority p and not on `a`.
                        let Some(v) = vb
                            .views
                            .iter()
                            .filter(|v| v.lossless.value && v.priority.value == p)
                            .map(|v| &va.views[v.id.index()])
                            .find(|x| !x.lossless.value && x.priority.value == p)
                        else {
                            continue; // a priority remap: FAB506
                        };
                        (v.lossless.span, false)
                    }
                };
                if reported.contains(&span) {
                    continue;
                }
                let ours = fabric.endpoint_name(b);
                let theirs = fabric.endpoint_name(a);
                pfc.add(
                    span,
                    format!("{p}"),
                    || ours.clone(),
                    || PfcMismatch {
                        priority: p,
                        theirs,
                        host_pfc_off: host_off,
                    },
                );
            }
        }
    }
    prio.finish(diags, |span, m, places| {
        let name = &fabric.class(m.class).name;
        let mut d = Diagnostic::new(
            Code::PriorityMismatch,
            span,
            format!(
                "{} uses priority {} for lossless class `{name}`, its peer `{}` uses priority {}",
                places.subject(),
                m.ours_priority,
                m.theirs,
                m.theirs_priority
            ),
        )
        .label("priority set here")
        .help(format!(
            "use priority {} for `{name}` on `{}` as on every other hop: PAUSE frames carry the priority, so both ends must agree",
            m.theirs_priority, m.ours
        ));
        if let Some(n) = places.note("ports") {
            d = d.note(n);
        }
        d
    });
    pfc.finish(diags, |span, m, places| {
        let (message, help) = if m.host_pfc_off {
            (
                format!("{} pauses priority {} but its peer `{}` runs no PFC (`pfc off`)", places.subject(), m.priority, m.theirs),
                "remove `pfc off`: the NIC must honour and send PAUSE for every lossless priority of its leaf".to_string(),
            )
        } else {
            (
                format!("{} pauses priority {} but its peer `{}` does not run PFC on it", places.subject(), m.priority, m.theirs),
                format!("keep priority {} lossless on both ends of every link", m.priority),
            )
        };
        let mut d = Diagnostic::new(Code::PfcMismatch, span, message).label("PFC turned off here").help(help);
        if let Some(n) = places.note("ports") {
            d = d.note(n);
        }
        d
    });
}

/// FAB508: the RoCE frame must fit every switch port MTU.
fn mtu(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let need = fabric.host_netdev_mtu();
    let mut grouped: Grouped<u64> = Grouped::default();
    for s in fabric.switch_ids() {
        if fabric.switch(s).ports.iter().all(Option::is_none) {
            continue;
        }
        let m = fabric.port_mtu(s).map(Bytes::get);
        if m.value < need {
            let name = fabric.switch(s).name.clone();
            grouped.add(m.span, m.value.to_string(), || name, || m.value);
        }
    }
    grouped.finish(diags, |span, value, places| {
        let mut d = Diagnostic::new(
            Code::MtuTooSmall,
            span,
            format!(
                "every port of {} has MTU {} B, below the {} RoCE frames need (`roce-mtu` {} + {} B of RoCEv2 headers)",
                places.subject(),
                thousands(value),
                bytes(need),
                fabric.roce_mtu.value.get(),
                ROCE_HEADER_ALLOWANCE
            ),
        )
        .label("port MTU set here")
        .help(format!("set the port MTU to at least {need} (9216 is the usual switch value), or lower `roce-mtu`"));
        if !fabric.roce_mtu.default {
            d = d.with_secondary(fabric.roce_mtu.span, "RoCE MTU set here");
        }
        if let Some(n) = places.note("switches") {
            d = d.note(n);
        }
        d
    });
}
