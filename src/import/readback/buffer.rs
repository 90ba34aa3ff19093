//! Read back of the SONiC buffer pools and lossless PG profiles (issue 34 item 2, R1), and the
//! physics on the written values:
//! * `pool`: the `BUFFER_POOL` sizes the file writes (ingress and egress, added up) against
//!   the plan's pools (`SonicPlan::pools`, sized by `lower::sonic` from the headroom the
//!   checks proved);
//! * `headroom … size` and `pause-threshold`: each lossless PG profile's `size` (the headroom
//!   the PG reserves, on NVIDIA Spectrum) and its `dynamic_th` / `static_th` against the
//!   proven headroom and pause threshold;
//! * `buffer-pool`: the written pools must hold the written headroom (docs/physics.md HR-2,
//!   `analysis::physics::buffer_budget` on the written values: the ingress pools plus every
//!   written lossless PG's `size` within the platform's buffer), and the headroom the PGs
//!   reserve must be the headroom the pools were sized for (R1: the pools counted the first
//!   priority's profile on every lossless PG of a port);
//! * `ecn-above-pause`: the written ECN max of a lossless queue against the dynamic pause point
//!   the written values give, α·B/(1 + α·N) (`analysis::physics::dynamic_pause_point`, α the
//!   written `dynamic_th`, B the written `ingress_lossless_pool`, N the written lossless PGs),
//!   ECN-3 on the written values.
//!
//! Where the pools are not written (the dynamic buffer model: buffermgrd sizes them) or hold
//! a shared headroom pool (Broadcom's `xoff`, over-subscribed by design, from SONiC's own
//! `buffers_defaults`), the pool checks do not apply; the PG profiles are still compared.
//!
//! NX-OS (issue 34 item 4, [`nxos`]): each lossless port's `pause buffer-size B
//! pause-threshold T` (headroom B − T is compared in `readback.rs`, T against the ECN max as
//! `ecn-above-pause`):
//! * `pause-threshold`: T against the threshold the renderer's rule gives
//!   (`lower::vocab::nxos_pause_threshold`: the model's static one, else above the written ECN
//!   max and at most the pause point the checks judged);
//! * `buffer-pool`: HR-2 on the written values, the pause buffers B of every lossless PG the
//!   model has within the switch's buffer. The rule caps T at the worst-case pause point
//!   α·B_s/(1 + α·N), so N of them fit in the shared buffer B_s and the written buffers in the
//!   whole; a file that promises more buffer than the switch has is a mistake.

use super::found::{Found, Kind};
use crate::analysis::physics::threshold::{
    Alpha, BudgetInput, PauseThreshold as Physics, buffer_budget, dynamic_pause_point,
};
use crate::import::deployed::{Switch, Threshold};
use crate::lower::context::{PauseThreshold, SonicAsic, SwitchContext, SwitchOs};

pub(super) fn compare(ctx: &SwitchContext, sw: &Switch, found: &mut Found) {
    let Some(plan) = ctx.sonic.as_ref().filter(|_| ctx.os == SwitchOs::Sonic) else {
        return;
    };
    let mut note = |property: &'static str,
                    what: String,
                    proven: String,
                    written: String,
                    port: Option<&str>| {
        let e = found
            .entry((property, what, proven, written, Kind::Mistake))
            .or_default();
        if let Some(p) = port {
            e.push(p.to_string());
        }
    };
    // The pools' sizes, by direction.
    let planned = |kind: &str| -> Option<u64> {
        let sized: Vec<u64> = plan
            .pools
            .iter()
            .filter(|p| p.kind == kind)
            .filter_map(|p| p.size)
            .collect();
        (!sized.is_empty()).then(|| sized.iter().sum())
    };
    for (kind, written) in [
        ("ingress", sw.ingress_pools.map(|p| p.0)),
        ("egress", sw.buffer.map(|b| b.0)),
    ] {
        let proven = planned(kind);
        if proven != written {
            let b = |v: Option<u64>| v.map_or("not written".into(), |v| format!("{v} B"));
            note("pool", format!("{kind} pools"), b(proven), b(written), None);
        }
    }
    // Each lossless PG's profile, and what the written PGs add up to.
    let mellanox = plan.asic == SonicAsic::Mellanox;
    let mut headroom_written = 0u64;
    let mut headroom_counted = 0u64;
    let mut pgs = 0u64;
    let mut alpha: Option<i8> = None;
    for p in &ctx.ports {
        let Some(r) = sw.ports.get(&p.name) else {
            continue;
        };
        for h in &p.headroom {
            headroom_counted = headroom_counted.saturating_add(h.size_bytes);
            let Some(pg) = r.pg.get(&h.priority) else {
                continue;
            };
            pgs += 1;
            let reserved = pg.size.or(pg.xoff).unwrap_or(0);
            headroom_written = headroom_written.saturating_add(reserved);
            if mellanox
                && let Some(size) = pg.size
                && size != h.size_bytes
            {
                note(
                    "headroom",
                    format!("priority {} size", h.priority),
                    format!("{} B", h.size_bytes),
                    format!("{size} B"),
                    Some(&p.name),
                );
            }
            let proven = match p.pause_threshold {
                PauseThreshold::Static { bytes } => Threshold::Static(bytes),
                PauseThreshold::Dynamic { log2_alpha } => Threshold::Dynamic(i64::from(log2_alpha)),
            };
            if let Some(t) = pg.threshold
                && t != proven
            {
                note(
                    "pause-threshold",
                    format!("priority {}", h.priority),
                    threshold_text(proven),
                    threshold_text(t),
                    Some(&p.name),
                );
            }
            // The smallest written α: the PG that pauses first.
            if let Some(Threshold::Dynamic(a)) = pg.threshold
                && let Ok(a) = i8::try_from(a)
            {
                alpha = Some(alpha.map_or(a, |x: i8| x.min(a)));
            }
        }
    }
    // The pools hold the headroom (Spectrum's traditional model, where fabricc sizes them).
    let Some((ingress, _)) = sw.ingress_pools.filter(|_| mellanox) else {
        return;
    };
    if sw
        .ingress_lossless_pool
        .is_some_and(|p| p.1.is_some_and(|x| x > 0))
    {
        return;
    }
    if headroom_written > headroom_counted {
        note(
            "buffer-pool",
            "lossless headroom the pools were sized for".into(),
            format!("{headroom_counted} B"),
            format!("{headroom_written} B in the PG profiles"),
            None,
        );
    }
    let budget = buffer_budget(&BudgetInput {
        buffer: ctx.buffer.total_bytes,
        headroom_total: headroom_written,
        lossless_pgs: pgs,
        reserved: ingress,
        threshold: Physics::Static(0),
    });
    if !budget.fits {
        note(
            "buffer-pool",
            "ingress pools + lossless headroom".into(),
            format!("at most the buffer, {} B", ctx.buffer.total_bytes),
            format!("{} B", budget.needed),
            None,
        );
    }
    // ECN-3 on the written values: the dynamic pause point of the written pool and α.
    let (Some((pool, _)), Some(alpha)) = (sw.ingress_lossless_pool, alpha.and_then(Alpha::new))
    else {
        return;
    };
    let pause = u64::try_from(dynamic_pause_point(alpha, pool, pgs).floor()).unwrap_or(u64::MAX);
    for p in &ctx.ports {
        let Some(r) = sw.ports.get(&p.name) else {
            continue;
        };
        for c in ctx
            .qos
            .classes
            .iter()
            .filter(|c| c.lossless && p.lossless_priorities.contains(&c.priority))
        {
            if let Some((w, _)) = r.wred.get(&c.queue).filter(|w| w.0.ecn)
                && w.max > pause
            {
                note(
                    "ecn-above-pause",
                    format!("queue {}", c.queue),
                    format!("a pause point above the ECN max, {} B", w.max),
                    format!(
                        "dynamic pause point {pause} B (dynamic_th {}, pool {pool} B, {pgs} lossless PGs)",
                        alpha.dynamic_th()
                    ),
                    Some(&p.name),
                );
            }
        }
    }
}

/// NX-OS's written pause buffers against the rule that wrote them and the switch's buffer.
pub(super) fn nxos(ctx: &SwitchContext, sw: &Switch, found: &mut Found) {
    if ctx.os != SwitchOs::Nxos {
        return;
    }
    let mut written = 0u64;
    let mut pgs = 0u64;
    for p in &ctx.ports {
        let Some(r) = sw.ports.get(&p.name) else {
            continue;
        };
        for h in &p.headroom {
            let Some(pg) = r.pg.get(&h.priority) else {
                continue;
            };
            if let Some(b) = pg.size {
                written = written.saturating_add(b);
                pgs += 1;
            }
            let rule = crate::lower::vocab::nxos_pause_threshold(ctx, p, h);
            if let Some(Threshold::Static(t)) = pg.threshold
                && t != rule
            {
                found
                    .entry((
                        "pause-threshold",
                        format!("priority {}", h.priority),
                        format!("static {rule} B"),
                        format!("static {t} B"),
                        Kind::Mistake,
                    ))
                    .or_default()
                    .push(p.name.clone());
            }
        }
    }
    let buffer = ctx.buffer.total_bytes;
    if buffer == 0 || pgs == 0 {
        return;
    }
    let budget = buffer_budget(&BudgetInput {
        buffer,
        headroom_total: written,
        lossless_pgs: pgs,
        reserved: 0,
        threshold: Physics::Static(0),
    });
    if !budget.fits {
        found
            .entry((
                "buffer-pool",
                format!("pause buffers of {pgs} lossless PGs"),
                format!("at most the buffer, {buffer} B"),
                format!("{} B", budget.needed),
                Kind::Mistake,
            ))
            .or_default();
    }
}

fn threshold_text(t: Threshold) -> String {
    match t {
        Threshold::Static(b) => format!("static {b} B"),
        Threshold::Dynamic(a) => format!("dynamic_th {a}"),
    }
}
