//! The targets' vocabulary that lowering needs as well as the views: how each target names a
//! front-panel port, and how it writes an ECN threshold (NX-OS `kbytes`, Junos whole-percent
//! fill levels), so that lowering can judge the thresholds a switch really uses (FAB315) and
//! name a neighbour's port. The views (`render::{sonic,cumulus,eos,nxos,junos}`) re-export
//! these under their short names.

use std::collections::BTreeMap;

use super::context::{
    BufferPlan, Ecn, Headroom, PauseThreshold, PortContext, SwitchContext, SwitchOs,
};

/// SONiC front-panel name `Ethernet<index · lanes_per_port>`: what neighbours call a port of
/// a SONiC model no SKU names (FAB950); SKU names come from the catalogue.
pub fn sonic_port_name(index: u32, lanes_per_port: u32) -> String {
    format!("Ethernet{}", index.saturating_mul(lanes_per_port))
}

/// Cumulus front-panel name: `swp<index+1>`.
pub fn cumulus_port_name(index: u32) -> String {
    format!("swp{}", index.saturating_add(1))
}

/// EOS front-panel name of a multi-lane port: `Ethernet<index+1>/1` (without a platform; the
/// catalogue names broken-out ports, `catalogue::Platform::port_name`).
pub fn eos_port_name(index: u32) -> String {
    format!("Ethernet{}/1", index.saturating_add(1))
}

/// NX-OS front-panel name: `Ethernet1/<index+1>`.
pub fn nxos_port_name(index: u32) -> String {
    format!("Ethernet1/{}", index.saturating_add(1))
}

/// Junos front-panel name: `et-0/0/<index>`.
pub fn junos_port_name(index: u32) -> String {
    format!("et-0/0/{index}")
}

/// Huawei VRP front-panel name without a platform: `<speed>GE1/0/<index+1>` (`400GE1/0/1`;
/// `GE` for 1G), `index` counted among the ports of that speed, the interface type being the
/// port's speed ("port split": "after 100GE 1/0/1
/// is split into four 25GE interfaces, the 25GE interfaces are still in the 100GE interface
/// view and are numbered 100GE 1/0/1:1 …", CloudEngine 8800/6800 V300R023C00 Command
/// Reference). The catalogue names broken-out ports (`400GE1/0/1:1`).
pub fn vrp_port_name(index: u32, speed_mbps: u64) -> String {
    let gbps = speed_mbps / 1000;
    let kind = if gbps <= 1 {
        "GE".to_string()
    } else {
        format!("{gbps}GE")
    };
    format!("{kind}1/0/{}", index.saturating_add(1))
}

pub use crate::catalogue::comware_type;

/// Comware front-panel name of an unbroken port of a fixed switch:
/// `<type>1/0/<index+1>` (member 1, slot 0). A speed without a sourced type name is written
/// as the 400G type (the model's ports are checked against the platform's when it names one).
pub fn comware_port_name(index: u32, speed_gbps: u32) -> String {
    format!(
        "{}1/0/{}",
        comware_type(speed_gbps).unwrap_or("FourHundredGigE"),
        index.saturating_add(1)
    )
}

/// The speed of port `index` of `model` in Gb/s (a broken-out group's sub-port speed): what
/// names a Comware port (`FourHundredGigE1/0/1`) where no platform names it.
pub(crate) fn port_speed_gbps(model: &crate::model::SwitchModel, index: u32) -> u32 {
    // `count` is sub-ports and `speed` one sub-port's (catalogue::PortGroup).
    let mut left = index;
    for g in &model.ports.value {
        if left < g.count {
            return u32::try_from(g.speed / 1000).unwrap_or(u32::MAX);
        }
        left -= g.count;
    }
    400
}

/// The bytes of one Comware buffer cell where the platform gives none (a model without
/// `cell` or `platform`): Broadcom's 254 B, and a note says so (`render::comware`).
pub const COMWARE_DEFAULT_CELL: u64 = 254;

/// Bytes as Comware cells, rounded up so a threshold never shrinks.
pub fn comware_cells(bytes: u64, cell: u64) -> u64 {
    bytes.div_ceil(cell.max(1))
}

/// The cell size a Comware switch's thresholds are written in.
pub fn comware_cell(ctx: &SwitchContext) -> u64 {
    ctx.buffer
        .cell_bytes
        .filter(|&c| c > 0)
        .unwrap_or(COMWARE_DEFAULT_CELL)
}

/// The bytes of one NX-OS `kbytes` as fabricc writes and imports them. Cisco's examples only
/// ever use `kbytes` ("Cisco Data Center Networking Blueprint for AI/ML Applications":
/// `random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes …`) and no
/// Cisco text we could read says whether a kbyte is 1,000 or 1,024 B (R6). So fabricc writes
/// under both readings safely: it rounds up at 1,000 B (the device holds at least the model's
/// bytes either way) and judges the written value against the pause point at 1,024 B
/// ([`NXOS_KBYTE_UPPER`], the larger reading; `ecn_as_written`). The renderer writes with it
/// and import reads with it, so a fix changes both.
pub const NXOS_KBYTE: u64 = 1000;

/// The larger reading of one NX-OS `kbyte`, which the written-threshold checks use (R6).
pub const NXOS_KBYTE_UPPER: u64 = 1024;

/// Bytes as NX-OS `kbytes`, rounded up so a threshold never shrinks ([`NXOS_KBYTE`]).
pub fn nxos_kbytes(bytes: u64) -> u64 {
    bytes.div_ceil(NXOS_KBYTE)
}

/// Bytes as a percent of the queue buffer, rounded to nearest (not clamped).
pub fn junos_fill_percent(bytes: u64, queue_buffer: u64) -> u64 {
    if queue_buffer == 0 {
        return 100;
    }
    let pct = (u128::from(bytes) * 100 + u128::from(queue_buffer) / 2) / u128::from(queue_buffer);
    u64::try_from(pct).unwrap_or(u64::MAX)
}

/// What one lossy queue may hold: the same α share of the (smaller) lossy partition.
pub fn junos_lossy_queue_bytes(b: &BufferPlan) -> u64 {
    if b.egress_lossless_pool_bytes == 0 {
        0
    } else {
        u64::try_from(
            u128::from(b.lossless_queue_buffer_bytes) * u128::from(b.egress_lossy_pool_bytes)
                / u128::from(b.egress_lossless_pool_bytes),
        )
        .unwrap_or(u64::MAX)
    }
}

/// The whole-percent fill levels Junos is given for byte thresholds over a queue of
/// `queue_buffer` bytes: nearest percent, the low one at least 1 % and at most 99 %, the high
/// one above it (Junos refuses equal fill levels).
pub fn junos_fill_levels(min_bytes: u64, max_bytes: u64, queue_buffer: u64) -> (u64, u64) {
    let min = junos_fill_percent(min_bytes, queue_buffer).clamp(1, 99);
    let max = junos_fill_percent(max_bytes, queue_buffer).clamp(min + 1, 100);
    (min, max)
}

/// A fill level the fabric states (thousandths of a percent) as Junos's whole percent, when
/// it is one.
fn whole_percent(fill: Option<u64>) -> Option<u64> {
    fill.filter(|f| f % 1000 == 0).map(|f| f / 1000)
}

/// The Junos fill levels of thresholds `e` over a queue of `queue_buffer` bytes (issue 34): a
/// fill level the fabric states in whole percent (`ecn min 55%`) is written as it is, with no
/// round trip through bytes; a threshold in bytes (or a fractional level) is converted as
/// [`junos_fill_levels`] does — nearest whole percent, the low one 1..99 %, the high one
/// above it.
pub fn junos_levels(e: &Ecn, queue_buffer: u64) -> (u64, u64) {
    let min = whole_percent(e.min_fill)
        .unwrap_or_else(|| junos_fill_levels(e.min_bytes, e.max_bytes, queue_buffer).0);
    let max = match whole_percent(e.max_fill) {
        Some(m) => m,
        None => junos_fill_percent(e.max_bytes, queue_buffer).clamp(min + 1, 100),
    };
    // Junos refuses a high level not above the low one; stated levels are (bounds), a mix
    // of a stated level and a converted one might not be.
    (min, max.max(min + 1).min(100))
}

/// `pct` percent of `queue_buffer`, in bytes (what a fill level means on the switch).
pub fn junos_fill_bytes(pct: u64, queue_buffer: u64) -> u64 {
    u64::try_from(u128::from(queue_buffer) * u128::from(pct) / 100).unwrap_or(u64::MAX)
}

/// ECN thresholds as a target writes them: the bytes the switch will really use and how they
/// follow from the model's bytes (report.md prints both; FAB315 judges the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcnWritten {
    pub min_bytes: u64,
    pub max_bytes: u64,
    /// The conversion, one line of Markdown.
    pub how: String,
}

/// How `os` writes ECN thresholds `e` on a queue of `ctx` (lossless or lossy).
pub fn ecn_as_written(ctx: &SwitchContext, lossless: bool, e: Ecn) -> EcnWritten {
    match ctx.os {
        SwitchOs::Sonic | SwitchOs::Cumulus | SwitchOs::Eos | SwitchOs::Vrp => EcnWritten {
            min_bytes: e.min_bytes,
            max_bytes: e.max_bytes,
            how: with_fill_levels(ctx, lossless, e, "bytes as given".into()),
        },
        SwitchOs::Nxos => {
            let (min, max) = (nxos_kbytes(e.min_bytes), nxos_kbytes(e.max_bytes));
            EcnWritten {
                min_bytes: min.saturating_mul(NXOS_KBYTE_UPPER),
                max_bytes: max.saturating_mul(NXOS_KBYTE_UPPER),
                how: with_fill_levels(
                    ctx,
                    lossless,
                    e,
                    format!(
                        "`{min} kbytes` / `{max} kbytes`: ⌈bytes / 1000⌉, judged at 1 kbyte = 1,024 B (the larger reading; Cisco does not define the unit)"
                    ),
                ),
            }
        }
        SwitchOs::Comware => {
            let cell = comware_cell(ctx);
            let (min, max) = (
                comware_cells(e.min_bytes, cell),
                comware_cells(e.max_bytes, cell),
            );
            EcnWritten {
                min_bytes: min.saturating_mul(cell),
                max_bytes: max.saturating_mul(cell),
                how: with_fill_levels(
                    ctx,
                    lossless,
                    e,
                    format!(
                        "`low-limit {min} high-limit {max}`: ⌈bytes / {cell} B cell⌉ (H3C does not state the unit in the reference fabricc read: cells assumed, FAB909)"
                    ),
                ),
            }
        }
        SwitchOs::Junos => {
            let base = if lossless {
                ctx.buffer.lossless_queue_buffer_bytes
            } else {
                junos_lossy_queue_bytes(&ctx.buffer)
            };
            let (min, max) = junos_levels(&e, base);
            let (bmin, bmax) = (junos_fill_bytes(min, base), junos_fill_bytes(max, base));
            let stated = |fill: Option<u64>, pct: u64| whole_percent(fill) == Some(pct);
            if stated(e.min_fill, min) && stated(e.max_fill, max) {
                return EcnWritten {
                    min_bytes: bmin,
                    max_bytes: bmax,
                    how: format!(
                        "`fill-level [ {min} {max} ]`: the fabric's fill levels as written, percent of the {base} B one queue may hold (α/(1+α) of its egress partition, α = 2^{}); = {bmin} B / {bmax} B",
                        ctx.buffer.queue_log2_alpha
                    ),
                };
            }
            EcnWritten {
                min_bytes: bmin,
                max_bytes: bmax,
                how: format!(
                    "`fill-level [ {min} {max} ]`: whole percent of the {base} B one queue may hold (α/(1+α) of its egress partition, α = 2^{}), nearest, low level 1..99 %, high above it; = {bmin} B / {bmax} B",
                    ctx.buffer.queue_log2_alpha
                ),
            }
        }
    }
}

/// `how`, preceded by the fill levels the thresholds were stated as, where they were
/// (`55 % of 1,000,000 B = 550,000 B`): a target that takes bytes writes those bytes.
fn with_fill_levels(ctx: &SwitchContext, lossless: bool, e: Ecn, how: String) -> String {
    let base = if lossless {
        ctx.buffer.lossless_queue_buffer_bytes
    } else {
        junos_lossy_queue_bytes(&ctx.buffer)
    };
    let level = |what: &str, fill: Option<u64>, bytes: u64| {
        fill.map(|f| {
            format!(
                "{what} {} % of {base} B = {bytes} B",
                crate::syntax::printer::thousandths(f)
            )
        })
    };
    let levels: Vec<String> = [
        level("min", e.min_fill, e.min_bytes),
        level("max", e.max_fill, e.max_bytes),
    ]
    .into_iter()
    .flatten()
    .collect();
    if levels.is_empty() {
        how
    } else {
        format!(
            "{} (fill levels of what one queue may hold); {how}",
            levels.join(", ")
        )
    }
}

/// The `pause-threshold` (bytes) written for lossless priority `h` of port `p` (N8). NX-OS's
/// pause buffer takes bytes only, so a dynamic threshold must become one number:
/// * a static `pfc-threshold`: itself;
/// * else one MTU above the largest `ecn max` of the port's lossless queues (as written, at
///   the larger reading of `kbytes`), so that ECN reaches full marking before this priority
///   group pauses (docs/physics.md, "ECN must mark before PFC
///   pauses"), at least two MTUs (one frame in flight each way, the plan's xon), and at most
///   the pause point the checks judged, the worst-case dynamic pause point α·B_s/(1 + α·N_pg)
///   of the switch's buffer (`BufferPlan::pause_point_bytes`): N_pg priority groups at that
///   point fit in the shared buffer, so the written thresholds never promise more buffer than
///   the budget check (HR-2) proved.
///
/// It used to be two MTUs (18,432 B at MTU 9216) whenever the threshold was dynamic: PFC then
/// paused long before ECN's 150 KB could mark (review N8). An `ecn min` at or above the
/// written value is FAB315 (`lower::written_ecn` judges it on the written numbers).
pub fn nxos_pause_threshold(ctx: &SwitchContext, p: &PortContext, h: &Headroom) -> u64 {
    match p.pause_threshold {
        PauseThreshold::Static { bytes } => bytes,
        PauseThreshold::Dynamic { .. } => {
            let lossless_queues: Vec<u8> = ctx
                .qos
                .classes
                .iter()
                .filter(|c| c.lossless && p.lossless_priorities.contains(&c.priority))
                .map(|c| c.queue)
                .collect();
            let kmax = p
                .ecn
                .iter()
                .filter(|q| lossless_queues.contains(&q.queue))
                .filter_map(|q| q.ecn.map(|e| e.max_bytes))
                .max()
                .unwrap_or(0);
            // As written (`kbytes`, rounded up) at the larger reading of the unit (R6).
            let kmax = nxos_kbytes(kmax).saturating_mul(NXOS_KBYTE_UPPER);
            // One frame above it: at `ecn max` itself ECN marks every packet, and PFC may
            // pause only once that has not slowed the senders.
            let wanted = kmax.saturating_add(u64::from(p.mtu)).max(h.xon_bytes);
            match ctx.buffer.pause_point_bytes {
                Some(point) => wanted.min(point).max(h.xon_bytes),
                None => wanted,
            }
        }
    }
}

/// Cisco: a pause buffer configuration is mandatory on lossless ports beyond this length
/// ("For cable lengths greater than 100m, the pause buffer size threshold configuration is
/// mandatory", Nexus 9000 NX-OS QoS Configuration Guide 10.5(x), "Configuring Priority Flow
/// Control").
pub const NXOS_PAUSE_BUFFER_CABLE_M: u32 = 100;

/// Whether fabricc writes an NX-OS pause buffer for this port: a lossless port beyond 100 m,
/// or any lossless port when the threshold is static (only the pause buffer states it).
pub fn nxos_needs_pause_buffer(p: &PortContext) -> bool {
    let fixed = matches!(p.pause_threshold, PauseThreshold::Static { .. });
    !p.lossless_priorities.is_empty() && (p.cable_m > NXOS_PAUSE_BUFFER_CABLE_M || fixed)
}

/// The written pause threshold of each NX-OS port with a pause buffer (the lowest of its
/// lossless priorities), by port name: what `lower`'s FAB315 judges the written ECN
/// thresholds against on NX-OS (N8).
pub fn nxos_written_pause_thresholds(ctx: &SwitchContext) -> BTreeMap<String, u64> {
    ctx.ports
        .iter()
        .filter(|p| nxos_needs_pause_buffer(p))
        .filter_map(|p| {
            p.headroom
                .iter()
                .map(|h| nxos_pause_threshold(ctx, p, h))
                .min()
                .map(|t| (p.name.clone(), t))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ecn(min_bytes: u64, max_bytes: u64, fill: (Option<u64>, Option<u64>)) -> Ecn {
        Ecn {
            min_bytes,
            max_bytes,
            probability_percent: 100,
            min_fill: fill.0,
            max_fill: fill.1,
        }
    }

    /// Issue 34: a whole-percent level is written as stated; bytes and fractional levels are
    /// converted to the nearest whole percent; the high level stays above the low one.
    #[test]
    fn junos_levels_write_stated_levels_as_they_are() {
        let q = 1_000_000;
        assert_eq!(
            junos_levels(&ecn(550_000, 900_000, (Some(55_000), Some(90_000))), q),
            (55, 90)
        );
        // Bytes: as `junos_fill_levels`.
        assert_eq!(
            junos_levels(&ecn(150_000, 1_500_000, (None, None)), q),
            (15, 100)
        );
        assert_eq!(
            junos_levels(&ecn(1, 2, (None, None)), q),
            junos_fill_levels(1, 2, q)
        );
        // A fractional level goes through its bytes.
        assert_eq!(
            junos_levels(&ecn(555_000, 900_000, (Some(55_500), Some(90_000))), q),
            (56, 90)
        );
        // A stated low level above a converted high one: the high one moves above it.
        assert_eq!(
            junos_levels(&ecn(600_000, 500_000, (Some(60_000), None)), q),
            (60, 61)
        );
    }
}
