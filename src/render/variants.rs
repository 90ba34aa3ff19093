//! Per-port QoS variants.
//!
//! In: a switch context whose ports may carry overrides (ECN thresholds, lossless
//! priorities, watchdog). Out: the distinct per-port settings, variant 0 being the
//! switch-wide plan, the others numbered in port order. Vendors that bind queue policies
//! per profile (EOS qos profiles, NX-OS queuing policies, Junos scheduler maps and CNP
//! profiles, Cumulus congestion-control profiles) render one object per variant and bind
//! each port to its variant; a fabric without overrides has exactly one.

use super::context::{QueueEcn, SwitchContext};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Variant {
    /// 0 = the switch-wide plan.
    pub index: usize,
    pub ecn: Vec<QueueEcn>,
    pub lossless_priorities: Vec<u8>,
    pub watchdog: bool,
    /// Port names, in port order.
    pub ports: Vec<String>,
}

/// The class-wide ECN setting of every ECN-capable queue, sorted by queue.
pub(crate) fn base_ecn(ctx: &SwitchContext) -> Vec<QueueEcn> {
    let mut out: Vec<QueueEcn> = ctx
        .qos
        .classes
        .iter()
        .filter_map(|c| {
            c.ecn.map(|e| QueueEcn {
                queue: c.queue,
                ecn: Some(e),
            })
        })
        .collect();
    out.sort_by_key(|q| q.queue);
    out.dedup_by_key(|q| q.queue);
    out
}

/// Variant 0 is always present (possibly with no ports).
pub(crate) fn variants(ctx: &SwitchContext) -> Vec<Variant> {
    let mut out = vec![Variant {
        index: 0,
        ecn: base_ecn(ctx),
        lossless_priorities: ctx.qos.lossless_priorities.clone(),
        watchdog: ctx.watchdog.is_some(),
        ports: Vec::new(),
    }];
    for port in &ctx.ports {
        let watchdog = port.pfc_watchdog && ctx.watchdog.is_some();
        let found = out.iter_mut().find(|v| {
            v.ecn == port.ecn
                && v.lossless_priorities == port.lossless_priorities
                && v.watchdog == watchdog
        });
        match found {
            Some(v) => v.ports.push(port.name.clone()),
            None => {
                let index = out.len();
                out.push(Variant {
                    index,
                    ecn: port.ecn.clone(),
                    lossless_priorities: port.lossless_priorities.clone(),
                    watchdog,
                    ports: vec![port.name.clone()],
                });
            }
        }
    }
    out
}

/// The variant index of a port.
pub(crate) fn variant_of(variants: &[Variant], port: &str) -> usize {
    variants
        .iter()
        .find(|v| v.ports.iter().any(|p| p == port))
        .map_or(0, |v| v.index)
}

/// Name of variant `index`: `base` for 0, `base_<index+1>` for the others.
pub(crate) fn variant_name(base: &str, index: usize) -> String {
    if index == 0 {
        base.to_string()
    } else {
        format!("{base}_{}", index + 1)
    }
}

/// Sorted unique items as a comma list of ranges: `24,26-28`.
pub(crate) fn compress(items: &[u8]) -> String {
    super::sonic::ranges(items).join(",")
}

/// The ECN of `queue` in a variant (`None` = not marking).
pub(crate) fn ecn_of(v: &Variant, queue: u8) -> Option<super::context::Ecn> {
    v.ecn.iter().find(|q| q.queue == queue).and_then(|q| q.ecn)
}
