//! The targets' vocabulary that lowering needs as well as the views: how each target names a
//! front-panel port, and how it writes an ECN threshold (NX-OS `kbytes`, Junos whole-percent
//! fill levels), so that lowering can judge the thresholds a switch really uses (FAB315) and
//! name a neighbour's port. The views (`render::{sonic,cumulus,eos,nxos,junos}`) re-export
//! these under their short names.

use super::context::{BufferPlan, Ecn, SwitchContext, SwitchOs};

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

/// The bytes of one NX-OS `kbytes`: Cisco's examples only ever use `kbytes` and do not say
/// whether it is 1000 or 1024 B; 1000 is assumed (issue 34 R6; docs/targets.md, open
/// questions). The renderer writes with it and import reads with it, so a fix changes both.
pub const NXOS_KBYTE: u64 = 1000;

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
        SwitchOs::Sonic | SwitchOs::Cumulus | SwitchOs::Eos => EcnWritten {
            min_bytes: e.min_bytes,
            max_bytes: e.max_bytes,
            how: "bytes as given".into(),
        },
        SwitchOs::Nxos => {
            let (min, max) = (nxos_kbytes(e.min_bytes), nxos_kbytes(e.max_bytes));
            EcnWritten {
                min_bytes: min.saturating_mul(NXOS_KBYTE),
                max_bytes: max.saturating_mul(NXOS_KBYTE),
                how: format!(
                    "`{min} kbytes` / `{max} kbytes`: ⌈bytes / 1000⌉ (1 kbyte = 1,000 B assumed)"
                ),
            }
        }
        SwitchOs::Junos => {
            let base = if lossless {
                ctx.buffer.lossless_queue_buffer_bytes
            } else {
                junos_lossy_queue_bytes(&ctx.buffer)
            };
            let (min, max) = junos_fill_levels(e.min_bytes, e.max_bytes, base);
            let (bmin, bmax) = (junos_fill_bytes(min, base), junos_fill_bytes(max, base));
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
