//! What a SONiC switch's files leave to SONiC or state in SONiC's own form: the fidelity notes
//! of `render::sonic` (report.md and FAB905/FAB907 list them), and the cell rounding they and
//! the renderer share.

use std::collections::{BTreeMap, BTreeSet};

use super::context::{HeadroomFormula, SonicBufferModel, SwitchContext};
use super::fidelity::{Note, NoteKind, Property};

/// `n` rounded down to whole cells of `cell`, at least one cell.
pub(super) fn cells(n: u64, cell: Option<u64>) -> u64 {
    match cell {
        Some(c) if c > 1 => (n / c * c).max(c),
        _ => n,
    }
}

/// What SONiC is left to decide, or gets in its own form.
pub(super) fn notes(ctx: &SwitchContext) -> Vec<Note> {
    let mut notes = Vec::new();
    let Some(plan) = &ctx.sonic else {
        return notes;
    };
    let lossless = ctx.ports.iter().any(|p| !p.lossless_priorities.is_empty());
    if plan.buffer_model == SonicBufferModel::Dynamic && lossless {
        notes.push(Note::new(
            NoteKind::DeviceManaged,
            Property::Headroom,
            "dynamic buffer model: SONiC computes the lossless headroom (buffer_headroom_mellanox.lua) and the pool sizes (buffer_pool_mellanox.lua); report.md lists what it will compute, at least what the fabric needs",
        ));
    }
    let mut rounded: BTreeSet<String> = BTreeSet::new();
    let mut pinned: BTreeSet<String> = BTreeSet::new();
    let mut missing: BTreeSet<String> = BTreeSet::new();
    let mut raised = false;
    let mut skus_for: BTreeMap<(u32, u32), String> = BTreeMap::new();
    for (p, sp) in ctx.ports.iter().zip(&plan.ports) {
        if p.lossless_priorities.is_empty() {
            continue;
        }
        let asked = format!("{}m", p.cable_m);
        if sp.cable != asked {
            rounded.insert(format!("{asked} → {}", sp.cable));
        }
        if sp.lookup_row_missing {
            missing.insert(format!("{} Mb/s at {}", p.speed_mbps, sp.cable));
        }
        if plan.buffer_model == SonicBufferModel::Dynamic
            && let Some(pr) = &sp.lossless_profile
        {
            pinned.insert(format!("{} ({} B xoff)", pr.name, pr.xoff));
        }
        raised |= p
            .headroom
            .iter()
            .any(|h| h.fixed && h.formula != HeadroomFormula::Override);
        if let Some((nic, lanes)) = &sp.lanes_mismatch {
            notes.push(Note::new(
                NoteKind::LanesMismatch,
                Property::PortHardware,
                format!(
                    "{} Mb/s on {} lanes (SKU {}) facing {nic}, which runs it on {lanes}: a DAC or AOC (electrical lanes end to end) does not link; optics whose modules convert the lanes (e.g. 400G DR4 or FR4 at both ends) do. {}",
                    p.speed_mbps,
                    p.lanes.len(),
                    plan.hwsku,
                    // Every mismatched port of a switch asks the same question: parse the
                    // platform's SKU tables once per (speed, lanes), not once per port.
                    skus_for
                        .entry((p.speed_mbps, *lanes))
                        .or_insert_with(|| crate::lower::skus_on_lanes(
                            ctx.platform.as_ref().map(|x| x.name.as_str()),
                            u64::from(p.speed_mbps),
                            *lanes
                        ))
                ),
            ));
        }
    }
    if !rounded.is_empty() {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::CableLength,
            format!(
                "CABLE_LENGTH rounded up to rows of the SKU's pg_profile_lookup.ini ({}), so buffermgrd keeps the lossless PGs; the headroom is sized for the written length",
                rounded.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    if !missing.is_empty() {
        notes.push(Note::new(
            NoteKind::LookupRowMissing,
            Property::CableLength,
            format!(
                "no pg_profile_lookup.ini row of SKU {} for {}: buffermgrd logs an error at every port event; the PGs are kept",
                plan.hwsku,
                missing.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    if !pinned.is_empty() {
        notes.push(Note::new(
            NoteKind::HeadroomPinned,
            Property::Headroom,
            format!(
                "SONiC's formula gives less than the fabric needs; fabricc writes headroom-override profiles: {}",
                pinned.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    if raised {
        notes.push(Note::new(
            NoteKind::Approximated,
            Property::Headroom,
            "a `headroom` override below SONiC's own formula for this ASIC is raised to the formula's value",
        ));
    }
    if let Some(cell) = plan.cell_bytes.filter(|c| *c > 1) {
        let mut changed: BTreeSet<String> = BTreeSet::new();
        for p in &ctx.ports {
            for q in &p.ecn {
                if let Some(e) = q.ecn {
                    for v in [e.min_bytes, e.max_bytes] {
                        let r = cells(v, Some(cell));
                        if r != v {
                            changed.insert(format!("{v} → {r}"));
                        }
                    }
                }
            }
        }
        if !changed.is_empty() {
            notes.push(Note::new(
                NoteKind::Adjusted,
                Property::EcnMarking,
                format!(
                    "WRED thresholds rounded down to whole {cell} B cells ({})",
                    changed.into_iter().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    if let (Some(m), Some(w)) = (plan.watchdog_scale, ctx.watchdog)
        && lossless
    {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::WatchdogDetect,
            format!(
                "the fabric sets no PFC watchdog timers: detection and restoration {} ms, poll {} ms, scaled ×{m} for the SKU's {} ports as SONiC's `pfcwd start_default` does",
                w.detect_ms, w.poll_ms, plan.sku_ports
            ),
        ));
    }
    notes
}
