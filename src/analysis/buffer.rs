//! The switch buffer budget (HR-2, docs/physics.md §2; FAB451) and the number of
//! lossless priorities against the model's `lossless-limit` (HR-4; FAB452), per switch from
//! the headroom plan, grouped by the model line when switches agree.
//!
//! Budget: Σ reserved headroom (XOFF headroom + XON offset) over (pausing port, lossless
//! priority) + Σ static pause thresholds ≤ the model's `buffer`. Dynamic thresholds reserve nothing up front (they share what is
//! left), so a switch with dynamic thresholds only needs its headroom to fit.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Fabric, SwitchId};

use super::group::{Grouped, bytes, thousands};
use super::headroom::{HeadroomPlan, PortHeadroom};
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
    /// The unit is one ASIC of a chassis line card, `buffer` that ASIC's.
    per_asic: bool,
}

/// The entries of one packet buffer: the whole switch, or on a modular chassis one ASIC of a
/// line card (each has its own buffer; `model.buffer` is one ASIC's).
struct Unit<'a> {
    /// `(slot, asic)` of a line-card ASIC; `None` for a fixed switch's one buffer.
    key: Option<(u32, u32)>,
    entries: Vec<&'a PortHeadroom>,
    /// `slot 3 ASIC 2, card 7800r3a-36d`; `None` on a fixed switch.
    label: Option<String>,
    /// The `linecard` statement of the card, where the finding points.
    span: Option<crate::span::Span>,
}

fn buffer_units<'a>(fabric: &Fabric, s: SwitchId, entries: &'a [PortHeadroom]) -> Vec<Unit<'a>> {
    let model = fabric.switch_model(s);
    // A port that never pauses its peer (a host without PFC) reserves no headroom.
    let entries = entries.iter().filter(|e| pauses(fabric, e));
    if model.chassis.is_none() {
        return vec![Unit {
            key: None,
            entries: entries.collect(),
            label: None,
            span: None,
        }];
    }
    let mut units: BTreeMap<(u32, u32), Unit<'a>> = BTreeMap::new();
    for e in entries {
        let Some(c) = model.card_port(e.port) else {
            continue;
        };
        units
            .entry((c.slot, c.asic))
            .or_insert_with(|| Unit {
                key: Some((c.slot, c.asic)),
                entries: Vec::new(),
                label: Some(format!("{}, card {}", c.unit_label(), c.card.name)),
                span: model.linecard_span(c.slot),
            })
            .entries
            .push(e);
    }
    units.into_values().collect()
}

/// Whether the switch port of `e` sends PAUSE: toward a switch always, toward a host only
/// when the host runs PFC (lowering writes no lossless queue on the others).
fn pauses(fabric: &Fabric, e: &PortHeadroom) -> bool {
    match e.peer.device {
        DeviceId::Host(h) => fabric.host_pfc(h),
        DeviceId::Switch(_) => true,
    }
}

/// The headroom a packet buffer reserves: the size (XOFF headroom + XON offset) of each of
/// its pausing lossless queues, as lowering writes it into the buffer profiles.
fn reserved(unit: &Unit<'_>) -> u64 {
    super::physics::saturating_sum(unit.entries.iter().map(|p| p.size()))
}

/// The headroom each packet buffer of switch `s` reserves, keyed by the line-card ASIC
/// (`(slot, asic)`) on a chassis and `None` on a fixed switch. The FAB451 budget, the ECN
/// pause point and lowering's pool sizes all use this one figure (issue 21).
pub fn headroom_by_buffer(
    fabric: &Fabric,
    s: SwitchId,
    entries: &[PortHeadroom],
) -> BTreeMap<Option<(u32, u32)>, u64> {
    buffer_units(fabric, s, entries)
        .iter()
        .map(|u| (u.key, reserved(u)))
        .collect()
}

/// The headroom and lossless queue count of the switch's busiest packet buffer: the whole
/// switch, or on a chassis the line-card ASIC with the most headroom (what ECN's shared-buffer
/// figures are judged against, as `model.buffer` is one ASIC's there).
pub(super) fn busiest_buffer(fabric: &Fabric, s: SwitchId, entries: &[PortHeadroom]) -> (u64, u64) {
    buffer_units(fabric, s, entries)
        .iter()
        .map(|u| (reserved(u), u.entries.len() as u64))
        .max()
        .unwrap_or((0, 0))
}

/// Records `unit` in `over` when its headroom and static thresholds exceed `buffer`.
fn budget(
    unit: &Unit<'_>,
    buffer: u64,
    span: crate::span::Span,
    model: &str,
    switch: &str,
    over: &mut Grouped<Budget>,
) {
    let entries = &unit.entries;
    let headroom = reserved(unit);
    let statics =
        super::physics::saturating_sum(entries.iter().filter_map(|p| p.static_threshold()));
    let pgs = entries.len() as u64;
    let input = |reserved| BudgetInput {
        buffer,
        headroom_total: headroom,
        lossless_pgs: pgs,
        reserved,
        threshold: PauseThreshold::Static(0),
    };
    let result = buffer_budget(&input(statics));
    if result.fits {
        return;
    }
    let max_static = buffer_budget(&input(0)).max_static_threshold;
    let threshold_span = entries
        .iter()
        .find(|p| p.static_threshold().is_some())
        .map(|p| p.pause_span);
    let ports: BTreeSet<u32> = entries.iter().map(|p| p.port).collect();
    let priorities: BTreeSet<u8> = entries.iter().map(|p| p.priority).collect();
    let key = format!("{}:{}:{}", result.needed, headroom, statics);
    over.add(
        span,
        key,
        || match &unit.label {
            Some(l) => format!("{switch} {l}"),
            None => switch.to_string(),
        },
        || Budget {
            buffer,
            headroom,
            model: model.to_string(),
            needed: result.needed,
            pgs,
            ports: ports.len() as u64,
            priorities: priorities.len() as u64,
            statics,
            max_static: max_static.filter(|_| statics > 0),
            threshold_span,
            per_asic: unit.label.is_some(),
        },
    );
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
        if let Some(b) = model.buffer {
            for unit in buffer_units(fabric, s, entries) {
                let span = unit.span.unwrap_or(b.span);
                budget(&unit, b.value.get(), span, &model.name, &sw.name, &mut over);
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
                "{} needs {} of buffer for {} ports × {} lossless priorit{}, its model `{}` has {}{}",
                places.subject(),
                bytes(b.needed),
                thousands(b.ports),
                b.priorities,
                if b.priorities == 1 { "y" } else { "ies" },
                b.model,
                bytes(b.buffer),
                if b.per_asic { " per line-card ASIC" } else { "" }
            ),
        )
        .label(if b.per_asic { "this line card's buffer" } else { "buffer size set here" })
        .note(format!(
            "{} lossless queues: headroom (XOFF + XON offset) {} + static pause thresholds {} = {}, {} over",
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
        if let Some(n) = places.note(if b.per_asic { "line-card ASICs" } else { "switches" }) {
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
