//! NIC-side headroom of the mlx5 driver (`calculate_xoff` in upstream
//! `drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c`, `calculate_xoff` and
//! `update_xoff_threshold`), reproduced with the kernel's integer arithmetic.
//!
//! In: link speed (Mb/s), cable (mm), netdev MTU and `max_mtu` (bytes). Out: [`NicHeadroom`]
//! — the cable length `mlnx_qos --cable_len` gets and whether the driver accepts it, the
//! kernel's `xoff`, and the smallest lossless receive buffer the driver accepts — and, for a
//! configured buffer, the thresholds the driver programs ([`mlx5_thresholds`]).
//!
//! Rounding is the kernel's: every `/` truncates, left to right,
//! `xoff = (301 + 216·cable_len/100)·speed/1000 + 272·mtu/100`. The kernel computes in `u32`;
//! for accepted cable lengths (< 1000 m) that cannot overflow below 1.6 Tb/s, and here the
//! arithmetic is done in `u128`, so the two agree wherever the driver's input is valid.

use super::{ceil_div, saturate};

/// `calculate_xoff` floors the link speed at 40G (`max_t(u32, speed, SPEED_40000)`).
pub const MLX5_MIN_SPEED_MBPS: u64 = 40_000;
/// `dcbnl` `ieee_pfc.delay` (the cable length) is ignored unless `0 < delay < 1000`
/// (`MLX5E_MAX_CABLE_LENGTH`).
pub const MLX5_MAX_CABLE_LEN_M: u64 = 1_000;
/// The driver's cable length until one is accepted (`MLX5E_DEFAULT_CABLE_LEN`; `mlnx_qos`
/// shows `Cable len: 7`).
pub const MLX5_DEFAULT_CABLE_LEN_M: u64 = 7;
/// The driver uses at least this as `max_mtu` when sizing lossless buffers.
pub const MLX5_MINIMUM_MAX_MTU: u64 = 9_216;
/// One port-buffer cell, the slack the driver adds to a lossless buffer.
pub const MLX5_BUFFER_CELL_BYTES: u64 = 128;

/// The value for `mlnx_qos --cable_len`: whole metres, rounded up so the headroom is never
/// computed for a shorter cable than the real one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MlnxCableLen {
    pub metres: u64,
    /// `false` when the driver ignores the value (0, or ≥ 1000 m) and keeps its previous one.
    pub accepted: bool,
}

pub fn mlnx_qos_cable_len(cable_mm: u64) -> MlnxCableLen {
    let metres = saturate(ceil_div(u128::from(cable_mm), 1_000));
    MlnxCableLen {
        metres,
        accepted: metres > 0 && metres < MLX5_MAX_CABLE_LEN_M,
    }
}

/// The kernel's `calculate_xoff`, in bytes, for a cable length already in whole metres.
pub fn mlx5_xoff(speed_mbps: u64, cable_len_m: u64, mtu: u64) -> u64 {
    let speed = u128::from(speed_mbps.max(MLX5_MIN_SPEED_MBPS));
    let per_gbps = 301 + 216 * u128::from(cable_len_m) / 100;
    saturate(per_gbps * speed / 1_000 + 272 * u128::from(mtu) / 100)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NicHeadroom {
    pub cable_len: MlnxCableLen,
    /// The cable length `xoff` was computed with: the requested one when accepted, otherwise
    /// the driver default (assuming nothing else was set since the driver loaded).
    pub effective_cable_len_m: u64,
    /// `max(max_mtu, 9216)`.
    pub effective_max_mtu: u64,
    /// The smallest lossless buffer the driver accepts: `xoff + max(max_mtu, 9216) + 128`.
    pub min_lossless_buffer: u64,
    /// The link speed after the driver's 40G floor.
    pub speed_mbps_used: u64,
    pub xoff: u64,
}

pub fn nic_headroom(speed_mbps: u64, cable_mm: u64, mtu: u64, max_mtu: u64) -> NicHeadroom {
    let cable_len = mlnx_qos_cable_len(cable_mm);
    let effective_cable_len_m = if cable_len.accepted {
        cable_len.metres
    } else {
        MLX5_DEFAULT_CABLE_LEN_M
    };
    let xoff = mlx5_xoff(speed_mbps, effective_cable_len_m, mtu);
    let effective_max_mtu = max_mtu.max(MLX5_MINIMUM_MAX_MTU);
    NicHeadroom {
        cable_len,
        effective_cable_len_m,
        effective_max_mtu,
        min_lossless_buffer: xoff
            .saturating_add(effective_max_mtu)
            .saturating_add(MLX5_BUFFER_CELL_BYTES),
        speed_mbps_used: speed_mbps.max(MLX5_MIN_SPEED_MBPS),
        xoff,
    }
}

/// The thresholds `update_xoff_threshold` programs into a lossless buffer of `size` bytes.
/// The driver's reference formula, held by the tests below; the compiler does not use it yet.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NicThresholds {
    /// `size − xoff`: the fill level at which the NIC sends PAUSE.
    pub xoff_threshold: u64,
    /// `xoff_threshold − max_mtu`: the fill level at which it resumes.
    pub xon_threshold: u64,
}

/// `None` where the driver refuses the buffer (`size < xoff + max_mtu + cell`, "is not
/// enough for lossless buffer"). `max_mtu` is the effective one (see [`NicHeadroom`]).
#[cfg(test)]
pub fn mlx5_thresholds(size: u64, xoff: u64, max_mtu: u64) -> Option<NicThresholds> {
    let minimum = xoff
        .checked_add(max_mtu)?
        .checked_add(MLX5_BUFFER_CELL_BYTES)?;
    if size < minimum {
        return None;
    }
    let xoff_threshold = size - xoff;
    Some(NicThresholds {
        xoff_threshold,
        xon_threshold: xoff_threshold - max_mtu,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn xoff_case(speed_mbps: u64, cable_len_m: u64, mtu: u64, expected: u64) {
        assert_eq!(mlx5_xoff(speed_mbps, cable_len_m, mtu), expected);
    }

    #[test]
    fn calculate_xoff() {
        // calculate_xoff: 100G, 7 m, MTU 1500 → (301 + 15)·100 + 4080 = 35,680 B.
        xoff_case(100_000, 7, 1500, 35_680);
        // 216·7/100 truncates to 15 (not 15.12); 272·4200/100 = 11,424.
        xoff_case(100_000, 7, 4200, 43_024);
        // Below 40G the speed is floored: 25G computes as 40G.
        xoff_case(25_000, 7, 1500, 316 * 40 + 4080);
        xoff_case(400_000, 3, 9000, (301 + 6) * 400 + 24_480);
        // 272·1499/100 = 4077.28 → 4077.
        xoff_case(100_000, 0, 1499, 30_100 + 4_077);
    }

    #[test]
    fn minimum_lossless_buffer_example() {
        // calculate_xoff: 45,786 B with a netdev max_mtu of 9978.
        let h = nic_headroom(100_000, 7_000, 1500, 9978);
        assert_eq!(h.xoff, 35_680);
        assert_eq!(h.min_lossless_buffer, 45_786);
        // A smaller max_mtu is raised to 9216.
        assert_eq!(
            nic_headroom(100_000, 7_000, 1500, 1500).min_lossless_buffer,
            35_680 + 9_216 + 128
        );
    }

    #[track_caller]
    fn cable_case(cable_mm: u64, metres: u64, accepted: bool) {
        assert_eq!(
            mlnx_qos_cable_len(cable_mm),
            MlnxCableLen { metres, accepted }
        );
    }

    #[test]
    fn cable_len_rounds_up_and_flags_ignored_values() {
        cable_case(7_000, 7, true);
        cable_case(2_500, 3, true);
        cable_case(1, 1, true);
        cable_case(999_000, 999, true);
        cable_case(998_001, 999, true);
        cable_case(999_001, 1_000, false);
        cable_case(2_000_000, 2_000, false);
        cable_case(0, 0, false);
    }

    #[test]
    fn ignored_cable_len_keeps_the_default() {
        let h = nic_headroom(100_000, 1_500_000, 1500, 9216);
        assert!(!h.cable_len.accepted);
        assert_eq!(h.effective_cable_len_m, 7);
        assert_eq!(h.xoff, 35_680);
    }

    #[test]
    fn thresholds() {
        // The default ConnectX lossless buffer of 130,944 B (`mlnx_qos -i` on a ConnectX with firmware-owned buffers).
        assert_eq!(
            mlx5_thresholds(130_944, 35_680, 9_978),
            Some(NicThresholds {
                xoff_threshold: 95_264,
                xon_threshold: 85_286
            })
        );
        assert_eq!(
            mlx5_thresholds(45_786, 35_680, 9_978).map(|t| t.xon_threshold),
            Some(128)
        );
        assert_eq!(mlx5_thresholds(45_785, 35_680, 9_978), None);
        assert_eq!(mlx5_thresholds(u64::MAX, u64::MAX, 1), None);
    }
}
