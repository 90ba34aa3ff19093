//! The switch buffer budget (HR-2, docs/physics.md §2; FAB451) and the number of
//! lossless priorities against the model's `lossless-limit` (HR-4; FAB452), per switch from
//! the headroom plan, grouped by the model line when switches agree.
//!
//! Budget: Σ configured headroom over (port, lossless priority) + Σ static pause thresholds
//! ≤ the model's `buffer`. Dynamic thresholds reserve nothing up front (they share what is
//! left), so a switch with dynamic thresholds only needs its headroom to fit.

use std::collections::BTreeSet;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::Fabric;

use super::group::{Grouped, bytes, thousands};
use super::headroom::HeadroomPlan;
use super::physics::{BudgetInput, PauseThreshold, buffer_budget, lossless_priority_budget};

struct Budget {
    buffer: u64,
    headroom: u64,
    model: String,
    needed: u64,
    pgs: u64,
    ports: u64,
    priorities: u64,
    statics: u64,
    max_static: Option<u64>,
    threshold_span: Option<crate::span::Span>,
}

pub fn check(fabric: &Fabric, plan: &HeadroomPlan, diags: &mut Vec<Diagnostic>) {
    let mut over: Grouped<Budget> = Grouped::default();
    let mut limit: Grouped<(u64, u64, String, Vec<u8>)> = Grouped::default();
    for s in fabric.switch_ids() {
        let entries = plan.switch(s);
        if entries.is_empty() {
            continue;
        }
        let model = fabric.switch_model(s);
        let sw = fabric.switch(s);
        let priorities: BTreeSet<u8> = entries.iter().map(|p| p.priority).collect();
        let ports: BTreeSet<u32> = entries.iter().map(|p| p.port).collect();
        if let Some(b) = model.buffer {
            let headroom = super::physics::saturating_sum(entries.iter().map(|p| p.configured));
            let statics =
                super::physics::saturating_sum(entries.iter().filter_map(|p| p.static_threshold()));
            let pgs = entries.len() as u64;
            let budget = buffer_budget(&BudgetInput {
                buffer: b.value.get(),
                headroom_total: headroom,
                lossless_pgs: pgs,
                reserved: statics,
                threshold: PauseThreshold::Static(0),
            });
            if !budget.fits {
                let max_static = buffer_budget(&BudgetInput {
                    buffer: b.value.get(),
                    headroom_total: headroom,
                    lossless_pgs: pgs,
                    reserved: 0,
                    threshold: PauseThreshold::Static(0),
                })
                .max_static_threshold;
                let threshold_span = entries
                    .iter()
                    .find(|p| p.static_threshold().is_some())
                    .map(|p| p.pause_span);
                let key = format!("{}:{}:{}", budget.needed, headroom, statics);
                over.add(
                    b.span,
                    key,
                    || sw.name.clone(),
                    || Budget {
                        buffer: b.value.get(),
                        headroom,
                        model: model.name.clone(),
                        needed: budget.needed,
                        pgs,
                        ports: ports.len() as u64,
                        priorities: priorities.len() as u64,
                        statics,
                        max_static: max_static.filter(|_| statics > 0),
                        threshold_span,
                    },
                );
            }
        }
        if let Some(l) = model.lossless_limit {
            let used = priorities.len() as u64;
            let pb = lossless_priority_budget(used, u64::from(l.value));
            if !pb.fits {
                let list: Vec<u8> = priorities.iter().copied().collect();
                limit.add(
                    l.span,
                    format!("{used}:{list:?}"),
                    || sw.name.clone(),
                    || (used, pb.limit, model.name.clone(), list),
                );
            }
        }
    }
    over.finish(diags, |span, b, places| {
        let mut d = Diagnostic::new(
            Code::BufferExceeded,
            span,
            format!(
                "{} needs {} of buffer for {} ports × {} lossless priorit{}, its model `{}` has {}",
                places.subject(),
                bytes(b.needed),
                thousands(b.ports),
                b.priorities,
                if b.priorities == 1 { "y" } else { "ies" },
                b.model,
                bytes(b.buffer)
            ),
        )
        .label("buffer size set here")
        .note(format!(
            "{} lossless queues: headroom {} + static pause thresholds {} = {}, {} over",
            thousands(b.pgs),
            bytes(b.headroom),
            bytes(b.statics),
            bytes(b.needed),
            bytes(b.needed - b.buffer)
        ));
        d = match b.max_static {
            Some(t) => d.help(format!("lower `pfc-threshold` to at most {t}B (or use the dynamic threshold: remove it)")),
            None => d.help(format!(
                "the headroom alone exceeds the buffer: shorten cables, use fewer lossless priorities, or a switch model with at least {} of buffer",
                bytes(b.needed)
            )),
        };
        if let Some(t) = b.threshold_span {
            d = d.with_secondary(t, "static pause threshold set here");
        }
        if let Some(n) = places.note("switches") {
            d = d.note(n);
        }
        d
    });
    limit.finish(diags, |span, (used, max, model, list), places| {
        let list = list.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
        let mut d = Diagnostic::new(
            Code::TooManyLossless,
            span,
            format!("{} runs {used} lossless priorities ({list}), its model `{model}` supports {max}", places.subject()),
        )
        .label("limit set here")
        .help(format!(
            "use at most {max} lossless priorit{} on these switches: make a class lossy, or merge lossless classes onto one priority",
            if max == 1 { "y" } else { "ies" }
        ));
        if let Some(n) = places.note("switches") {
            d = d.note(n);
        }
        d
    });
}
