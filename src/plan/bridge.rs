//! The make-before-break state between two fabrics: the fabric a switch runs while hosts
//! move from the old class plan to the new one.
//!
//! The bridge is NEW with every DSCP that OLD treats as lossless kept lossless, on OLD's
//! priority: a switch in the bridge accepts what an old host sends and what a new host sends
//! as lossless, so no link has ends that disagree while hosts move. Switch port MTUs are the
//! larger of the two and the hosts' MTU the smaller, so no frame either side sends is too big
//! for the other. The bridge is a fabric like any other: it goes through every analysis of
//! `check` (its buffers hold both plans' lossless priorities at once, which may not fit).
//!
//! A DSCP that is lossless in both fabrics on different priorities cannot be bridged: a
//! device maps a DSCP to one priority, and a PFC pause on the other priority would not stop
//! it. That change moves link by link, with both ends drained (`Conflict`).

use crate::model::{Bytes, ClassId, Dscp, Fabric, Scheduling, Sourced};

/// Why OLD and NEW cannot be bridged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub dscp: u8,
    pub class: String,
    pub old_priority: u8,
    pub new_priority: u8,
}

/// `(lossless, priority, class)` of every DSCP, as the fabric's classes define it (per-device
/// overrides aside: the proof of every step checks the devices themselves).
fn semantics(f: &Fabric) -> [Option<(bool, u8, ClassId)>; 64] {
    // As `qos::dscp_table`: explicit values first, then the `dscp other` class for the rest.
    let mut out = [None; 64];
    let entry = |c: ClassId| {
        let class = f.class(c);
        Some((class.lossless.value, class.priority.value, c))
    };
    for c in f.class_ids() {
        if let Some(Sourced {
            value: Dscp::Values(values),
            ..
        }) = &f.class(c).dscp
        {
            for &d in values {
                if let Some(slot) = out.get_mut(usize::from(d))
                    && slot.is_none()
                {
                    *slot = entry(c);
                }
            }
        }
    }
    if let Some(other) = f.class_ids().find(|&c| {
        matches!(
            f.class(c).dscp,
            Some(Sourced {
                value: Dscp::Other,
                ..
            })
        )
    }) {
        for slot in out.iter_mut().filter(|s| s.is_none()) {
            *slot = entry(other);
        }
    }
    out
}

/// Whether any DSCP changes its losslessness or priority between the two fabrics: only then
/// does a rollout need the bridge.
pub fn classes_change(old: &Fabric, new: &Fabric) -> bool {
    let (a, b) = (semantics(old), semantics(new));
    (0..64).any(|d| {
        let key = |s: Option<(bool, u8, ClassId)>| s.map(|(l, p, _)| (l, l.then_some(p)));
        key(a[d]) != key(b[d])
    })
}

/// The bridge fabric, or the first DSCP that cannot be bridged.
pub fn bridge(old: &Fabric, new: &Fabric) -> Result<Fabric, Conflict> {
    let (a, b) = (semantics(old), semantics(new));
    let mut out = new.clone();
    for d in 0..64u8 {
        let (Some((true, p, old_class)), now) = (a[usize::from(d)], b[usize::from(d)]) else {
            continue;
        };
        match now {
            Some((true, q, _)) if q == p => continue,
            Some((true, q, _)) => {
                return Err(Conflict {
                    dscp: d,
                    class: old.class(old_class).name.clone(),
                    old_priority: p,
                    new_priority: q,
                });
            }
            _ => {}
        }
        // Take d from the class that has it in NEW (a `dscp other` class gives it up by
        // itself once another class names it)...
        if let Some((_, _, c)) = now
            && let Some(Sourced {
                value: Dscp::Values(values),
                ..
            }) = &mut out.classes[c.index()].dscp
        {
            values.retain(|&v| v != d);
        }
        // ...and give it to the lossless class on OLD's priority: NEW's, or OLD's class back.
        let target = out
            .classes
            .iter()
            .position(|c| c.priority.value == p && c.lossless.value);
        let target = match target {
            Some(i) => i,
            None => {
                if out.classes.iter().any(|c| c.priority.value == p) {
                    // A lossy class of NEW sits on the priority OLD ran lossless.
                    return Err(Conflict {
                        dscp: d,
                        class: old.class(old_class).name.clone(),
                        old_priority: p,
                        new_priority: p,
                    });
                }
                let mut c = old.class(old_class).clone();
                if let Some(dscp) = &mut c.dscp {
                    dscp.value = Dscp::Values(Vec::new());
                }
                out.classes.push(c);
                out.classes.len() - 1
            }
        };
        let class = &mut out.classes[target];
        match &mut class.dscp {
            Some(Sourced {
                value: Dscp::Values(values),
                ..
            }) => {
                values.push(d);
                values.sort_unstable();
                values.dedup();
            }
            Some(Sourced {
                value: Dscp::Other, ..
            }) => {}
            None => class.dscp = Some(Sourced::set(Dscp::Values(vec![d]), class.span)),
        }
    }
    if out.classes.len() > new.classes.len() {
        // OLD's shares first (a removed class comes back as OLD ran it), then to 100 %.
        for c in &mut out.classes {
            if let Some(o) = old.classes.iter().find(|o| o.name == c.name)
                && matches!(o.scheduling.value, Scheduling::Ets(Some(_)))
                && matches!(c.scheduling.value, Scheduling::Ets(Some(_)))
            {
                c.scheduling.value = o.scheduling.value;
            }
        }
        scale_shares(&mut out);
    }
    // MTUs: switch ports take the larger, hosts the smaller.
    out.mtu.value = Bytes(out.mtu.value.get().max(old.mtu.value.get()));
    out.roce_mtu.value = Bytes(out.roce_mtu.value.get().min(old.roce_mtu.value.get()));
    for s in out.switch_ids().collect::<Vec<_>>() {
        let name = out.switch(s).name.clone();
        let before = old
            .switch_ids()
            .find(|&o| old.switch(o).name == name)
            .map(|o| old.port_mtu(o).value.get());
        let now = out.port_mtu(s);
        if let Some(before) = before
            && before > now.value.get()
        {
            out.switches[s.index()].mtu = Some(Sourced::set(Bytes(before), now.span));
        }
    }
    Ok(out)
}

/// A class of OLD brought back into the bridge brings its ETS share: scale every share so
/// that they sum to 100 % again, keeping their ratios (the largest remainder goes to the
/// largest share). The bridge runs only while hosts move.
fn scale_shares(f: &mut Fabric) {
    const WHOLE: u64 = 100_000;
    let total: u64 = f
        .classes
        .iter()
        .filter_map(|c| match c.scheduling.value {
            Scheduling::Ets(Some(s)) => Some(s),
            _ => None,
        })
        .sum();
    if total == 0 || total == WHOLE {
        return;
    }
    let mut given = 0;
    let mut largest: Option<(u64, usize)> = None;
    for (i, c) in f.classes.iter_mut().enumerate() {
        if let Scheduling::Ets(Some(s)) = c.scheduling.value {
            let scaled = s * WHOLE / total;
            given += scaled;
            c.scheduling.value = Scheduling::Ets(Some(scaled));
            if largest.is_none_or(|(l, _)| scaled > l) {
                largest = Some((scaled, i));
            }
        }
    }
    if let Some((s, i)) = largest {
        f.classes[i].scheduling.value = Scheduling::Ets(Some(s + WHOLE - given));
    }
}
