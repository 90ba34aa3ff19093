//! ECN fill levels (issue 34, G4): `ecn min 55% max 90%` becomes bytes on every switch
//! where it is in force, before any check runs (`pipeline`), from the buffer plan the switch's
//! configuration is lowered with.

use rayon::prelude::*;

use super::port_names::skus;
use super::{lower_switch, vocab};
use crate::analysis::headroom::headroom_plan;
use crate::diagnostic::{Code, Diagnostic};
use crate::model::{self, Fabric, SwitchId};

/// The first ECN fill level (`ecn min 55%`) in force on switch `s` for a class that marks,
/// where it was written: the class's, its `ecn SPEED …`, the switch's override, a link's.
fn fill_level_in_force(fabric: &Fabric, s: SwitchId) -> Option<crate::span::Span> {
    let sw = fabric.switch(s);
    let links: Vec<&model::Link> = sw.ports.iter().flatten().map(|&l| fabric.link(l)).collect();
    for v in fabric.switch_classes(s) {
        if !v.marks_ecn() {
            continue;
        }
        let span_of = |e: &model::Ecn| {
            if e.min_fill.is_some() {
                Some(e.min.span)
            } else if e.max_fill.is_some() {
                Some(e.max.span)
            } else {
                None
            }
        };
        if let Some(span) = span_of(&v.ecn) {
            return Some(span);
        }
        for l in &links {
            if let Some(span) = span_of(&v.ecn_on(l)) {
                return Some(span);
            }
        }
    }
    None
}

/// Issue 34: an ECN fill level (`ecn min 55% max 90%`) is a percentage of what one queue of
/// the class may hold on the switch it runs on, the base Junos states its `fill-level` in:
/// `BufferPlan::lossless_queue_buffer_bytes` for a lossless class, `vocab::junos_lossy_queue_bytes`
/// for a lossy one, from the switch's own buffer plan (the one its configuration is rendered
/// with). Before any check runs, every switch on which a fill level is in force gets that base
/// (`Switch::fill_base`), so the checks, the facts and every target judge and write bytes
/// (`Fabric::switch_class` turns the levels into bytes). A switch whose buffer plan cannot be
/// made (no `buffer`, …) is FAB115 at the fill level, once per statement.
pub(crate) fn resolve_fill_levels(fabric: &mut Fabric, diags: &mut Vec<Diagnostic>) {
    let wanted: Vec<(SwitchId, crate::span::Span)> = fabric
        .switch_ids()
        .filter_map(|s| fill_level_in_force(fabric, s).map(|span| (s, span)))
        .collect();
    if wanted.is_empty() {
        return;
    }
    let plan = headroom_plan(fabric);
    let skus = skus(fabric);
    let frozen: &Fabric = fabric;
    let bases: Vec<(SwitchId, crate::span::Span, Result<model::FillBase, String>)> = wanted
        .par_iter()
        .map(|&(s, span)| {
            let base = lower_switch(frozen, &skus, s, plan.switch(s))
                .map_err(|d| d.message)
                .and_then(|ctx| {
                    let b = model::FillBase {
                        lossless: ctx.buffer.lossless_queue_buffer_bytes,
                        lossy: vocab::junos_lossy_queue_bytes(&ctx.buffer),
                    };
                    if b.lossless == 0 {
                        Err(format!(
                            "the buffer plan of `{}` leaves no lossless queue buffer",
                            ctx.device
                        ))
                    } else {
                        Ok(b)
                    }
                });
            (s, span, base)
        })
        .collect();
    let mut unknown: std::collections::BTreeMap<crate::span::Span, (Vec<String>, String)> =
        std::collections::BTreeMap::new();
    for (s, span, base) in bases {
        match base {
            Ok(b) => fabric.switches[s.index()].fill_base = Some(b),
            Err(why) => {
                let e = unknown.entry(span).or_insert_with(|| (Vec::new(), why));
                e.0.push(fabric.switch(s).name.clone());
            }
        }
    }
    for (span, (switches, why)) in unknown {
        let more = match switches.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        diags.push(
            Diagnostic::new(
                Code::FillLevelNoBase,
                span,
                format!(
                    "this ECN fill level has no bytes on `{}`{more}: what one queue may hold there is unknown",
                    switches[0]
                ),
            )
            .label("percent of the queue's buffer")
            .note(format!("the switch's buffer plan cannot be made: {why}"))
            .help("write the thresholds in bytes (`ecn min 150KB max 1500KB`), or give the switch model a `buffer` (or a `platform` that has one)"),
        );
    }
}
