//! H3C Comware 7 view: a switch context as Comware `system-view` commands (issue 35).
//!
//! In: a `SwitchContext` with `os: comware`. Out: `ComwareView` for `comware/qos.cfg`, a
//! fragment pasted in `system-view` (no `sysname`, no addressing), and the notes of what it
//! leaves to the switch. Every command and its view rest on H3C's (or HPE's, for the same
//! Comware 7 commands) public documents, listed in docs/targets.md per command group:
//!
//! * PFC, headroom and deadlock detection: H3C S9825 & S9855 Switch Series Command
//!   References R913x, "05-Layer 2—LAN Switching Command Reference / 10-PFC commands"
//!   (https://www.h3c.com/en/d_202410/2284497_294551_0.htm) and the Intelligent Lossless
//!   Network Configuration Guide, "01-PFC configuration" (S6805/S6825/S6850/S9850 Release
//!   671x, https://www.h3c.com/en/d_202303/1790774_294551_0.htm): `priority-flow-control
//!   enable`, `priority-flow-control no-drop dot1p LIST`, `priority-flow-control dot1p P
//!   headroom N`, `priority-flow-control deadlock enable` (interface view),
//!   `priority-flow-control deadlock auto-recover action { discard | forwarding }` (system
//!   view). "When you configure PFC … multiple times, the most recent configuration takes
//!   effect": a re-entered line replaces the earlier one.
//! * WRED with ECN: `qos wred queue table NAME`, `queue Q low-limit L high-limit H
//!   discard-probability P`, `queue Q ecn`, `undo queue { Q | all }`, `qos wred apply NAME`
//!   (HPE FlexFabric 11900 R211x ACL and QoS Configuration Guide, "Configuring and applying a
//!   queue-based WRED table"; HPE 5130 HI ACL and QoS Command Reference, `queue`). "A WRED
//!   table in use cannot be removed": the table is emptied with `undo queue all` and
//!   written again, never deleted.
//! * Priority maps and trust: `qos trust dscp`; `qos map-table { dscp-dot1p | dot1p-lp }`
//!   with `import LIST export VALUE` lines (H3C S6300 Command References, ACL and QoS,
//!   "Priority mapping commands", https://www.h3c.com/en/d_201906/1192751_294551_0.htm). A
//!   DSCP-trusting port maps DSCP → 802.1p (`dscp-dot1p`) and 802.1p → local precedence, the
//!   queue (`dot1p-lp`): H3C's priority mapping procedure ("Look up the dscp-dp, dscp-dot1p
//!   and dscp-dscp tables … Look up the dot1p-lp table"). PFC pauses by 802.1p, so the
//!   class's PFC priority is its 802.1p value and its queue its local precedence.
//! * Scheduling: `qos wrr byte-count`, `qos wrr Q group 1 byte-count W`, `qos wrr Q group sp`
//!   (same ACL and QoS Command Reference, "WRR commands").
//!
//! Decisions:
//! * Thresholds are written in buffer cells (H3C's unit for headroom, "units per H3C: cells";
//!   the catalogue's or the model's cell, else 254 B with a note). The reference fabricc read
//!   gives no unit for the WRED limits: cells as well, and FAB909 says so.
//! * Stable names (U6): one WRED table per port variant, `FABRICC_ROCE`, `FABRICC_ROCE_2` …:
//!   a threshold change is one changed `queue` line.
//! * Every map entry, every queue's scheduling and every priority's headroom is stated
//!   (`undo` where fabricc wants none), so a merge over any earlier build leaves this one.
//! * Not written, each with a note: the deadlock detection interval and recovery delay
//!   (`priority-flow-control deadlock cos P interval N` / `auto-recover cos P delay D`: their
//!   unit follows `deadlock precision`, which no reference fabricc read states), the pause
//!   threshold (`ingress-buffer`), the MTU, the rate cap, the ECMP hash, breakouts.

use serde::Serialize;

use super::context::{Scheduling, SwitchContext, SwitchOs, WatchdogAction};
use super::fidelity::{Note, NoteKind, Property};
use super::variants::{self, Variant};
use super::{RenderError, escape, unsupported};
use crate::lower::vocab::{COMWARE_DEFAULT_CELL, comware_cell, comware_cells};

// Test support (tests/it/render_targets.rs names ports per target), not the product's.
#[cfg(feature = "internals")]
pub fn port_name(index: u32) -> String {
    crate::lower::vocab::comware_port_name(index, 400)
}

/// The WRED table of variant 0; other variants add `_<n>` (`variants::variant_name`).
pub const TABLE: &str = "FABRICC_ROCE";
/// The WRED limits' range (HPE 5130 HI ACL and QoS Command Reference, `queue`: 0 to 16000).
pub const MAX_WRED_LIMIT: u64 = 16_000;

#[derive(Debug, Serialize)]
pub struct ComwareView {
    pub hostname: String,
    pub fabric: String,
    pub description: Option<String>,
    /// The platform the file is written for, `None` when the model names none.
    pub platform: Option<String>,
    /// Bytes of one buffer cell, the unit of headroom and WRED limits here.
    pub cell_bytes: u64,
    /// `qos map-table dscp-dot1p`: `(DSCP list, 802.1p)`, every DSCP stated.
    pub dscp_dot1p: Vec<(String, u8)>,
    /// `qos map-table dot1p-lp`: `(802.1p list, local precedence = queue)`, all eight.
    pub dot1p_lp: Vec<(String, u8)>,
    /// `priority-flow-control deadlock auto-recover action …`; `None` = the default restored.
    pub deadlock_action: Option<&'static str>,
    pub tables: Vec<ComwareTable>,
    pub ports: Vec<ComwarePort>,
}

/// One `qos wred queue table`.
#[derive(Debug, Serialize)]
pub struct ComwareTable {
    pub name: String,
    pub queues: Vec<ComwareWred>,
    /// Queues without ECN: `undo queue Q ecn`.
    pub plain: Vec<u8>,
}

#[derive(Debug, Serialize)]
pub struct ComwareWred {
    pub queue: u8,
    pub class: String,
    pub low: u64,
    pub high: u64,
    pub probability: u8,
}

#[derive(Debug, Serialize)]
pub struct ComwarePort {
    pub name: String,
    pub description: Option<String>,
    /// `priority-flow-control no-drop dot1p …`: the list; `None` = PFC off on the port.
    pub no_drop: Option<String>,
    /// `(priority, cells)` of each lossless priority.
    pub headroom: Vec<(u8, u64)>,
    /// The other priorities: `undo priority-flow-control dot1p P headroom`.
    pub no_headroom: Vec<u8>,
    pub deadlock: bool,
    /// Every queue 0..=7: `(queue, Some(weight))` in WRR group 1, `(queue, None)` in the SP
    /// group.
    pub wrr: Vec<(u8, Option<u32>)>,
    pub table: String,
}

/// The watchdog's action as Comware's deadlock recovery writes it.
fn deadlock_action(dev: &str, action: WatchdogAction) -> Result<&'static str, RenderError> {
    match action {
        WatchdogAction::Drop => Ok("discard"),
        WatchdogAction::Forward => Ok("forwarding"),
        WatchdogAction::Alert => Err(unsupported(
            dev,
            SwitchOs::Comware,
            "PFC watchdog action `alert`: Comware's PFC deadlock recovery discards or forwards the stormed priority's packets (`priority-flow-control deadlock auto-recover action discard|forwarding`) and has no notify-only action; use `action drop` or `action forward`",
        )),
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A list of numbers as Comware's `import` takes it: space-separated.
fn list(items: impl Iterator<Item = u8>) -> String {
    items.map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
}

/// The DSCP → 802.1p and 802.1p → queue maps, each absolute. A DSCP of a class gets the
/// class's PFC priority; a DSCP whose traffic class has no class keeps 802.1p = its traffic
/// class. 802.1p P goes to the queue of the class with priority P, else queue P. Two classes
/// of one priority on different queues cannot be told apart after the 802.1p step: refused.
fn maps(ctx: &SwitchContext) -> Result<QosMaps, RenderError> {
    let classes = &ctx.qos.classes;
    let mut dot1p_queue = [0u8; 8];
    for (p, q) in (0u8..).zip(dot1p_queue.iter_mut()) {
        let mut queues = classes.iter().filter(|c| c.priority == p).map(|c| c.queue);
        let first = queues.next();
        if let Some(other) = queues.find(|&q| Some(q) != first) {
            return Err(unsupported(
                &ctx.device,
                SwitchOs::Comware,
                format!(
                    "classes of 802.1p priority {p} use queues {} and {other}: Comware chooses the queue from the 802.1p priority (`qos map-table dot1p-lp`) once DSCP is mapped to it, so classes of one priority share a queue; give them different `priority` values",
                    first.unwrap_or(p)
                ),
            ));
        }
        *q = first.unwrap_or(p);
    }
    let dot1p_of_tc = |tc: u8| {
        classes
            .iter()
            .find(|c| c.tc == tc)
            .map_or(tc, |c| c.priority)
    };
    let dscp_dot1p_each: Vec<u8> = ctx
        .qos
        .dscp_to_tc
        .iter()
        .map(|&tc| dot1p_of_tc(tc))
        .collect();
    let mut dscp_dot1p = Vec::new();
    for p in 0u8..8 {
        let dscps = list(
            (0u8..)
                .zip(&dscp_dot1p_each)
                .filter(|(_, d)| **d == p)
                .map(|(dscp, _)| dscp),
        );
        if !dscps.is_empty() {
            dscp_dot1p.push((dscps, p));
        }
    }
    let mut dot1p_lp = Vec::new();
    for q in 0u8..8 {
        let ps = list((0u8..8).filter(|&p| dot1p_queue[usize::from(p)] == q));
        if !ps.is_empty() {
            dot1p_lp.push((ps, q));
        }
    }
    Ok(QosMaps {
        dscp_dot1p,
        dot1p_lp,
    })
}

struct QosMaps {
    dscp_dot1p: Vec<(String, u8)>,
    dot1p_lp: Vec<(String, u8)>,
}

/// Every queue's scheduling: a class's weight (percent, divided by the weights' common
/// divisor: WRR weights are relative) in group 1, strict classes and queues no class uses in
/// the SP group.
fn scheduling(ctx: &SwitchContext) -> Vec<(u8, Option<u32>)> {
    let weight_of = |q: u8| {
        ctx.qos
            .classes
            .iter()
            .find(|c| c.queue == q)
            .and_then(|c| match c.scheduling {
                Scheduling::Strict => None,
                Scheduling::Ets { weight_percent } => Some(u32::from(weight_percent.max(1))),
            })
    };
    let weights: Vec<(u8, Option<u32>)> = (0u8..8).map(|q| (q, weight_of(q))).collect();
    let divisor = weights.iter().filter_map(|(_, w)| *w).fold(0, gcd).max(1);
    weights
        .into_iter()
        .map(|(q, w)| (q, w.map(|w| w / divisor)))
        .collect()
}

fn table(ctx: &SwitchContext, v: &Variant, cell: u64) -> Result<ComwareTable, RenderError> {
    let mut queues = Vec::new();
    for q in &v.ecn {
        let Some(e) = q.ecn else { continue };
        let (low, high) = (
            comware_cells(e.min_bytes, cell),
            comware_cells(e.max_bytes, cell),
        );
        if high > MAX_WRED_LIMIT {
            return Err(unsupported(
                &ctx.device,
                SwitchOs::Comware,
                format!(
                    "ECN max {} B on queue {} is {high} cells of {cell} B: the WRED table takes limits up to {MAX_WRED_LIMIT}",
                    e.max_bytes, q.queue
                ),
            ));
        }
        let class = ctx
            .qos
            .classes
            .iter()
            .find(|c| c.queue == q.queue)
            .map_or_else(String::new, |c| c.name.clone());
        queues.push(ComwareWred {
            queue: q.queue,
            class,
            low,
            high: high.max(low + 1),
            probability: e.probability_percent,
        });
    }
    let plain = (0u8..8)
        .filter(|q| !queues.iter().any(|w| w.queue == *q))
        .collect();
    Ok(ComwareTable {
        name: variants::variant_name(TABLE, v.index),
        queues,
        plain,
    })
}

pub fn view(ctx: &SwitchContext) -> Result<(ComwareView, Vec<Note>), RenderError> {
    let dev = ctx.device.as_str();
    let mut notes = Vec::new();
    let cell = comware_cell(ctx);
    if ctx.buffer.cell_bytes.is_none_or(|c| c == 0) {
        notes.push(Note::new(
            NoteKind::PlatformDependent,
            Property::Headroom,
            format!(
                "headroom and WRED limits are written in cells of {COMWARE_DEFAULT_CELL} B (Broadcom's): the model gives no `cell` and no platform; give the platform so the cell is the switch's"
            ),
        ));
    }
    let deadlock = match ctx.watchdog {
        None => None,
        Some(w) => Some(deadlock_action(dev, w.action)?),
    };
    if ctx.watchdog.is_some() {
        for (prop, what) in [
            (Property::WatchdogDetect, "detection interval"),
            (Property::WatchdogRestore, "automatic recovery delay"),
            (Property::WatchdogPoll, "timer precision"),
        ] {
            notes.push(Note::new(
                NoteKind::NotRendered,
                prop,
                format!(
                    "the PFC deadlock {what} is not written: `priority-flow-control deadlock cos P interval N` and `… auto-recover cos P delay D` count in steps of `priority-flow-control deadlock precision`, and no H3C reference fabricc read gives the step; set them by hand (`display priority-flow-control`)"
                ),
            ));
        }
    }
    let all = variants::variants(ctx);
    let tables = all
        .iter()
        .filter(|v| v.index == 0 || !v.ports.is_empty())
        .map(|v| table(ctx, v, cell))
        .collect::<Result<Vec<_>, _>>()?;
    let QosMaps {
        dscp_dot1p,
        dot1p_lp,
    } = maps(ctx)?;
    let wrr = scheduling(ctx);
    let ports = ctx
        .ports
        .iter()
        .map(|p| {
            let v = variants::variant_of(&all, &p.name);
            let variant = all.iter().find(|x| x.index == v);
            let lossless = &p.lossless_priorities;
            ComwarePort {
                name: p.name.clone(),
                description: p.description.as_deref().map(escape::cli_description),
                no_drop: (!lossless.is_empty()).then(|| list(lossless.iter().copied())),
                headroom: p
                    .headroom
                    .iter()
                    .filter(|h| lossless.contains(&h.priority))
                    .map(|h| (h.priority, comware_cells(h.xoff_bytes, cell)))
                    .collect(),
                no_headroom: (0u8..8).filter(|q| !lossless.contains(q)).collect(),
                deadlock: variant.is_some_and(|v| v.watchdog) && !lossless.is_empty(),
                wrr: wrr.clone(),
                table: variants::variant_name(TABLE, v),
            }
        })
        .collect();
    notes_left(ctx, &mut notes);
    Ok((
        ComwareView {
            hostname: ctx.device.clone(),
            fabric: ctx.fabric.clone(),
            description: ctx.description.as_deref().map(escape::comment_text),
            platform: ctx.platform.as_ref().map(|p| p.name.clone()),
            cell_bytes: cell,
            dscp_dot1p,
            dot1p_lp,
            deadlock_action: deadlock,
            tables,
            ports,
        },
        notes,
    ))
}

/// The notes of what the file leaves to the switch.
fn notes_left(ctx: &SwitchContext, notes: &mut Vec<Note>) {
    let lossless = ctx.ports.iter().any(|p| !p.lossless_priorities.is_empty());
    if lossless {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::PauseThreshold,
            "the PFC pause threshold is not written: Comware's `priority-flow-control dot1p P ingress-buffer { dynamic | static }` takes values no H3C reference fabricc read maps to bytes or to α; the switch keeps its default threshold",
        ));
        notes.push(Note::new(
            NoteKind::DeviceManaged,
            Property::BufferPools,
            "buffer pools are not configured: Comware keeps the platform's shared and headroom pools (fabricc's numbers are in report.md for reference)",
        ));
    }
    if ctx.qos.classes.iter().any(|c| c.ecn.is_some()) {
        notes.push(Note::new(
            NoteKind::PlatformDependent,
            Property::EcnMarking,
            "WRED `low-limit`/`high-limit` are written in buffer cells: the Comware references fabricc read give their range (0 to 16000) but not their unit; check `display qos wred table` on the switch. H3C's AI ECN (dynamic thresholds) is not used: fabricc writes static thresholds",
        ));
        notes.push(Note::new(
            NoteKind::Approximated,
            Property::QueueAlpha,
            "the WRED average queue length uses Comware's default exponent (`weighting-constant` 9), not the instantaneous queue fabricc's thresholds assume",
        ));
        if let Some(c) = ctx
            .qos
            .classes
            .iter()
            .find(|c| c.lossless && c.ecn.is_none())
        {
            notes.push(Note::new(
                NoteKind::PlatformDependent,
                Property::EcnMarking,
                format!(
                    "lossless class `{}` has no ECN: its queue {} keeps the WRED table's default drop parameters (low 100, high 1000, 10 %) on the ports the table is applied to, which can drop its packets before PFC pauses; give the class `ecn`",
                    c.name, c.queue
                ),
            ));
        }
        if ctx.qos.classes.iter().any(|c| c.ecn.is_none()) {
            notes.push(Note::new(
                NoteKind::Adjusted,
                Property::EcnMarking,
                "queues without ECN keep the WRED table's default drop parameters (low 100, high 1000, 10 %) on the ports the table is applied to",
            ));
        }
    }
    notes.push(Note::new(
        NoteKind::NotRendered,
        Property::Mtu,
        "the interface MTU is not written (no H3C reference fabricc read gives the S9825/S9855 jumbo-frame command); the switch keeps its own",
    ));
    if ctx.qos.classes.iter().any(|c| c.rate_percent.is_some()) {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::RateCap,
            "a class's rate cap is not written (no H3C reference fabricc read gives the per-queue shaping command of the S9825/S9855); the queue is not capped",
        ));
    }
    if ctx
        .platform
        .as_ref()
        .is_some_and(|p| !p.breakouts.is_empty())
    {
        notes.push(Note::new(
            NoteKind::PlatformDependent,
            Property::PortHardware,
            "broken-out cages are not split by this file (no H3C reference fabricc read gives the split command of the S9825/S9855): the sub-port names (`TwoHundredGigE1/0/1:1`) exist only once the cage is split by hand",
        ));
    }
    if ctx.ports.iter().flat_map(|p| &p.headroom).any(|h| h.fixed) {
        notes.push(Note::new(
            NoteKind::Adjusted,
            Property::Headroom,
            "the `headroom` override is written as given, in cells",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_relative() {
        assert_eq!(gcd(50, 30), 10);
        assert_eq!(gcd(0, 30), 30);
        assert_eq!(list([3u8, 4].into_iter()), "3 4");
    }
}
