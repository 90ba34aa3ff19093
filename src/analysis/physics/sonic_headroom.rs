//! SONiC's Mellanox dynamic headroom, ported from
//! `sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffer_headroom_mellanox.lua` (2026-08), so that
//! SONiC profiles fabricc writes are never smaller than what a Spectrum switch computes itself
//! (`lower::sonic`), and so the report can say what the switch will compute in the dynamic
//! buffer model. Separate from, and not a replacement for, the canonical formula in
//! [`super::headroom`]; docs/physics.md §1 describes both in words.
//!
//! In: the ASIC constants ([`AsicConstants`], the `ASIC_TABLE` rows of
//! `sonic-net/sonic-buildimage@086b03bd70f9:platform/mellanox/asic_table.j2`) and the port
//! ([`SonicHeadroomInput`]: the Lua's `ARGV` and the `LOSSLESS_TRAFFIC_PATTERN` it reads). Out:
//! [`SonicHeadroom`], the `xon`/`xoff`/`size` of `BUFFER_PROFILE`, multiples of 1 KiB.
//!
//! Checked line by line against the Lua at that commit: pause quanta per speed (lines 42-52,
//! `peer_response_time` of the ASIC table only at other speeds, 78-81), the tile term on
//! Spectrum-4/-5 (84-89), 8-lane ports doubling the pipeline latency and adding the port MTU
//! to `size` (134-140), the worst-case factor rounded up (142-147), the small-packet share by
//! bytes (149-150), cable at 0.66 c over `8·1000` (163), the Spectrum-6 term added to `xoff`
//! before the 2 KiB small-packet compensation compares it (170-183), and `size = xon` with a
//! shared headroom pool (188-193).
//!
//! Rounding: the Lua computes in doubles and rounds up to 1 KiB at three points; here every
//! intermediate is an exact [`Ratio`] and the same three ceilings are taken. The results
//! differ from the Lua only when the exact value lies within double rounding error (≈1e-10 B)
//! of a multiple of 1024, where the Lua's answer depends on the order of its operations.
//!
//! [`LuaRevision::Pre3235`] selects the revision before sonic-swss#3235 (2024-09), as stored
//! at sonic-swss `18913fa`: cable divided by 8·1024, 8-lane pipeline `·2 − 1024`, worst-case
//! factor not rounded up, no `spp_by_byte`, no tile term, no Spectrum-6 term, no 2 KiB
//! compensation. It has the 800G pause quanta (#2860, 2023-08); releases before that fall
//! back to `peer_response_time` at 800G, which is not modelled.

use super::Ratio;
use super::headroom::PAUSE_QUANTA;

// The ASIC table is a vendor fact the catalogue keeps; re-exported at its old path.
pub use crate::catalogue::asic_table::AsicConstants;
// Test support (the unit tests below and analysis/physics/properties.rs), not the product's.
#[cfg(any(test, feature = "internals"))]
pub use crate::catalogue::asic_table::Spectrum;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SonicHeadroomInput {
    pub speed_mbps: u64,
    pub cable_mm: u64,
    /// `PORT.mtu` (SONiC default 9100).
    pub port_mtu: u64,
    /// `LOSSLESS_TRAFFIC_PATTERN.mtu` (template default 1024).
    pub lossless_mtu: u64,
    /// `LOSSLESS_TRAFFIC_PATTERN.small_packet_percentage`, 0..=100 (template default 50).
    pub small_packet_percentage: u64,
    /// `PERIPHERAL_TABLE.gearbox_delay`, 0 without a gearbox.
    pub gearbox_delay_ns: u64,
    /// The port has 8 lanes (`lanes` has 8 entries).
    pub eight_lanes: bool,
    /// Shared headroom pool: `ingress_lossless_pool.xoff ≠ 0` or `over_subscribe_ratio ≠ 0`.
    pub shared_headroom_pool: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SonicHeadroom {
    /// The 2 KiB small-packet compensation was added to `xoff`.
    pub compensated: bool,
    pub size: u64,
    pub xoff: u64,
    pub xon: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SonicHeadroomError {
    /// An intermediate does not fit 128 bits (absurd inputs only).
    Overflow,
    /// `small_packet_percentage` above 100.
    SmallPacketPercentage(u64),
    /// `lossless_mtu` 0 with `small_packet_percentage` 0: the Lua divides by zero.
    ZeroLosslessMtu,
}

/// Which revision of `buffer_headroom_mellanox.lua` to reproduce (its git history: #3235,
/// #2860, #4757, #4797).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LuaRevision {
    /// `e6b0c5b5d2ab` (2026-08).
    Current,
    /// Before sonic-swss#3235 (2024-09). Test support (the unit tests below and
    /// analysis/physics/properties.rs): the product always reproduces `Current`.
    #[cfg(any(test, feature = "internals"))]
    Pre3235,
}

const KIB: u128 = 1024;
const MINIMAL_PACKET: u128 = 64;

fn ceil_1k(x: Ratio) -> u128 {
    x.ceil().div_ceil(KIB) * KIB
}

fn milli_kib(value: u64) -> Ratio {
    // value/1000 KiB = value·1024/1000 B.
    Ratio::new(u128::from(value) * KIB, 1_000).unwrap_or(Ratio::int(0))
}

/// The current revision; see [`sonic_mellanox_headroom_at`].
pub fn sonic_mellanox_headroom(
    asic: &AsicConstants,
    input: &SonicHeadroomInput,
) -> Result<SonicHeadroom, SonicHeadroomError> {
    sonic_mellanox_headroom_at(LuaRevision::Current, asic, input)
}

#[allow(clippy::too_many_lines)] // one formula, kept in the Lua's order for comparison
pub fn sonic_mellanox_headroom_at(
    revision: LuaRevision,
    asic: &AsicConstants,
    input: &SonicHeadroomInput,
) -> Result<SonicHeadroom, SonicHeadroomError> {
    use SonicHeadroomError::{Overflow, SmallPacketPercentage, ZeroLosslessMtu};
    let add = |a: Ratio, b: Ratio| a.checked_add(b).ok_or(Overflow);
    let mul = |a: Ratio, b: Ratio| a.checked_mul(b).ok_or(Overflow);
    let frac = |n: u128, d: u128| Ratio::new(n, d).ok_or(Overflow);

    let spp = u128::from(input.small_packet_percentage);
    if spp > 100 {
        return Err(SmallPacketPercentage(input.small_packet_percentage));
    }
    let speed = u128::from(input.speed_mbps);
    let port_mtu = u128::from(input.port_mtu);
    let lossless_mtu = u128::from(input.lossless_mtu);
    let cell = u128::from(asic.cell_bytes);

    let quanta = PAUSE_QUANTA
        .iter()
        .find(|(s, _)| *s == input.speed_mbps)
        .map(|&(_, q)| q);
    let peer_response = match quanta {
        Some(q) => Ratio::int(u128::from(q) * 512 / 8),
        None => milli_kib(asic.peer_response_time_milli_kib),
    };
    let mut pipeline_latency = milli_kib(asic.pipeline_latency_milli_kib);
    let mut speed_overhead = 0;
    let current = revision == LuaRevision::Current;
    if input.eight_lanes {
        pipeline_latency = mul(pipeline_latency, Ratio::int(2))?;
        if !current {
            // `pipeline_latency·2 − 1024`; a latency below 0.5 KiB would go negative in the
            // Lua and is clamped to 0 here (no ASIC has one).
            let doubled = pipeline_latency;
            pipeline_latency = if doubled >= Ratio::int(KIB) {
                frac(doubled.num() - KIB * doubled.den(), doubled.den())?
            } else {
                Ratio::int(0)
            };
        }
        speed_overhead = port_mtu;
    }
    // speed/1000·120/8 = 3·speed/200.
    let on_tile = if asic.tile_term && current {
        frac(3 * speed, 200)?
    } else {
        Ratio::int(0)
    };

    let exact_factor = if cell > 2 * MINIMAL_PACKET {
        frac(cell, MINIMAL_PACKET)?
    } else {
        frac(2 * cell, 1 + cell)?
    };
    let worst_case_factor = if current {
        Ratio::int(exact_factor.ceil())
    } else {
        exact_factor
    };
    let small_share = if current {
        // spp_by_byte = 100·64 / ((spp·64 + (100 − spp)·mtu)/100) = 640 000 / d.
        let d = spp * MINIMAL_PACKET + (100 - spp).checked_mul(lossless_mtu).ok_or(Overflow)?;
        Ratio::new(640_000, d).ok_or(ZeroLosslessMtu)?
    } else {
        Ratio::int(spp)
    };
    // occupancy = (100 − s + s·wcf)/100 = 1 + s·(wcf − 1)/100; wcf ≥ 1 for any cell.
    let factor_excess = if worst_case_factor >= Ratio::int(1) {
        frac(
            worst_case_factor.num() - worst_case_factor.den(),
            worst_case_factor.den(),
        )?
    } else {
        Ratio::int(0)
    };
    let occupancy = add(
        Ratio::int(1),
        mul(mul(small_share, factor_excess)?, frac(1, 100)?)?,
    )?;

    // 2·L[m]·speed·1e9 / 198e6 / (8·1000) = L[mm]·speed / 792 000; with 8·1024, / 811 008.
    let cable_mm = u128::from(input.cable_mm);
    let cable_divisor = if current { 792_000 } else { 811_008 };
    let on_cable = frac(cable_mm.checked_mul(speed).ok_or(Overflow)?, cable_divisor)?;
    let on_gearbox = frac(
        speed
            .checked_mul(u128::from(input.gearbox_delay_ns))
            .ok_or(Overflow)?,
        8 * KIB,
    )?;

    let mut propagation = Ratio::int(port_mtu);
    for term in [
        on_cable,
        on_gearbox,
        on_gearbox,
        milli_kib(asic.mac_phy_delay_milli_kib),
        peer_response,
        on_tile,
    ] {
        propagation = add(propagation, term)?;
    }

    let mut xoff = ceil_1k(add(Ratio::int(lossless_mtu), mul(propagation, occupancy)?)?);
    // The Spectrum-6 term comes first (Lua lines 170-173), so the compensation compares the
    // xoff that includes it (lines 177-183).
    if current {
        xoff = xoff
            .checked_add(u128::from(asic.extra_xoff_bytes))
            .ok_or(Overflow)?;
    }
    // #4757: when part of the traffic is small packets, make up for the occupancy estimate
    // unless that would exceed the all-small-packet headroom.
    let all_small = ceil_1k(add(
        Ratio::int(lossless_mtu),
        mul(propagation, worst_case_factor)?,
    )?);
    let compensated =
        current && !input.shared_headroom_pool && spp != 100 && xoff + 2048 < all_small;
    if compensated {
        xoff += 2048;
    }

    let xon = ceil_1k(pipeline_latency);
    let size = if input.shared_headroom_pool {
        xon
    } else {
        (xoff + xon + speed_overhead).div_ceil(KIB) * KIB
    };
    let narrow = |v: u128| u64::try_from(v).map_err(|_| Overflow);
    Ok(SonicHeadroom {
        compensated,
        size: narrow(size)?,
        xoff: narrow(xoff)?,
        xon: narrow(xon)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One computed example: lossless MTU 1024, spp 50 (the `LOSSLESS_TRAFFIC_PATTERN` of
    /// `buffers_config.j2`), port MTU 9100 (SONiC's default), no gearbox.
    #[track_caller]
    fn case(
        asic: Spectrum,
        gbps: u64,
        metres: u64,
        eight_lanes: bool,
        shp: bool,
        expected: (u64, u64, u64),
    ) {
        let input = SonicHeadroomInput {
            speed_mbps: gbps * 1_000,
            cable_mm: metres * 1_000,
            port_mtu: 9100,
            lossless_mtu: 1024,
            small_packet_percentage: 50,
            gearbox_delay_ns: 0,
            eight_lanes,
            shared_headroom_pool: shp,
        };
        let h = sonic_mellanox_headroom(&asic.constants(), &input).unwrap();
        assert_eq!((h.size, h.xon, h.xoff), expected, "size / xon / xoff");
    }

    #[test]
    fn computed_examples() {
        case(
            Spectrum::Spectrum2,
            100,
            5,
            false,
            false,
            (67_584, 19_456, 48_128),
        );
        case(
            Spectrum::Spectrum2,
            100,
            40,
            false,
            false,
            (72_704, 19_456, 53_248),
        );
        case(
            Spectrum::Spectrum2,
            100,
            300,
            false,
            false,
            (113_664, 19_456, 94_208),
        );
        case(
            Spectrum::Spectrum2,
            100,
            5,
            false,
            true,
            (19_456, 19_456, 46_080),
        );
        case(
            Spectrum::Spectrum2,
            100,
            40,
            false,
            true,
            (19_456, 19_456, 51_200),
        );
        case(
            Spectrum::Spectrum2,
            100,
            300,
            false,
            true,
            (19_456, 19_456, 92_160),
        );
        case(
            Spectrum::Spectrum4,
            400,
            5,
            true,
            false,
            (146_432, 38_912, 98_304),
        );
        case(
            Spectrum::Spectrum4,
            400,
            40,
            true,
            false,
            (167_936, 38_912, 119_808),
        );
        case(
            Spectrum::Spectrum4,
            800,
            300,
            true,
            false,
            (524_288, 38_912, 476_160),
        );
    }

    #[test]
    fn hand_check_of_row_one() {
        // By hand: 46,080 before the 2 KiB compensation; the all-small xoff is 108,544.
        let input = SonicHeadroomInput {
            speed_mbps: 100_000,
            cable_mm: 5_000,
            port_mtu: 9100,
            lossless_mtu: 1024,
            small_packet_percentage: 50,
            gearbox_delay_ns: 0,
            eight_lanes: false,
            shared_headroom_pool: false,
        };
        let h = sonic_mellanox_headroom(&Spectrum::Spectrum2.constants(), &input).unwrap();
        assert!(h.compensated);
        assert_eq!(h.xoff - 2048, 46_080);
        // All small packets: no compensation, occupancy = worst case factor 3.
        let all_small = SonicHeadroomInput {
            small_packet_percentage: 100,
            ..input
        };
        let h = sonic_mellanox_headroom(&Spectrum::Spectrum2.constants(), &all_small).unwrap();
        assert!(!h.compensated);
        assert_eq!(h.xoff, 108_544);
    }

    #[test]
    fn pre_3235_revision() {
        // Hand-computed (no published value): Spectrum-2, 100G, 5 m, spp 50, MTU 1024/9100.
        // wcf 2.25, occupancy 1.625, cable 5000·100000/811008 = 616.5, propagation 35,751.7,
        // xoff = ceil1K(1024 + 58,096.5) = 59,392, size = 59,392 + 19,456 = 78,848.
        let input = SonicHeadroomInput {
            speed_mbps: 100_000,
            cable_mm: 5_000,
            port_mtu: 9100,
            lossless_mtu: 1024,
            small_packet_percentage: 50,
            gearbox_delay_ns: 0,
            eight_lanes: false,
            shared_headroom_pool: false,
        };
        let asic = Spectrum::Spectrum2.constants();
        let h = sonic_mellanox_headroom_at(LuaRevision::Pre3235, &asic, &input).unwrap();
        assert_eq!(
            (h.size, h.xon, h.xoff, h.compensated),
            (78_848, 19_456, 59_392, false)
        );
        // 8 lanes: xon = ceil1K(19·1024·2 − 1024) = 37,888 (the SN4700 ini's 400G xon).
        let input = SonicHeadroomInput {
            eight_lanes: true,
            ..input
        };
        let h = sonic_mellanox_headroom_at(LuaRevision::Pre3235, &asic, &input).unwrap();
        assert_eq!(h.xon, 37_888);
    }

    #[test]
    fn worst_case_factor_by_cell() {
        // Spectrum-1's 96 B cell: ⌈192/97⌉ = 2; the others ⌈cell/64⌉.
        let occupancy_of = |asic: Spectrum| {
            let input = SonicHeadroomInput {
                speed_mbps: 100_000,
                cable_mm: 0,
                port_mtu: 0,
                lossless_mtu: 0,
                small_packet_percentage: 100,
                gearbox_delay_ns: 0,
                eight_lanes: false,
                shared_headroom_pool: true,
            };
            // With everything else 0 and spp 100, xoff = ceil1K((819.2 + 25216)·wcf).
            sonic_mellanox_headroom(&asic.constants(), &input)
                .unwrap()
                .xoff
        };
        assert_eq!(occupancy_of(Spectrum::Spectrum1), 52_224); // 52,070.4 → 52,224
        assert_eq!(occupancy_of(Spectrum::Spectrum2), 78_848); // 78,105.6 → 78,848
        // Spectrum-4 adds 1,500 B on tile at 100G: 27,535.2·3 = 82,605.6 → 82,944.
        assert_eq!(occupancy_of(Spectrum::Spectrum4), 82_944);
        assert_eq!(occupancy_of(Spectrum::Spectrum6), 104_448 + 18_432); // 104,140.8 → 104,448
    }

    #[test]
    fn bad_inputs_are_errors_not_panics() {
        let input = SonicHeadroomInput {
            speed_mbps: u64::MAX,
            cable_mm: u64::MAX,
            port_mtu: u64::MAX,
            lossless_mtu: 0,
            small_packet_percentage: 0,
            gearbox_delay_ns: u64::MAX,
            eight_lanes: true,
            shared_headroom_pool: false,
        };
        let asic = Spectrum::Spectrum4.constants();
        assert_eq!(
            sonic_mellanox_headroom(&asic, &input),
            Err(SonicHeadroomError::ZeroLosslessMtu)
        );
        let input = SonicHeadroomInput {
            small_packet_percentage: 101,
            ..input
        };
        assert_eq!(
            sonic_mellanox_headroom(&asic, &input),
            Err(SonicHeadroomError::SmallPacketPercentage(101))
        );
        let input = SonicHeadroomInput {
            small_packet_percentage: 50,
            lossless_mtu: u64::MAX,
            ..input
        };
        assert!(sonic_mellanox_headroom(&asic, &input).is_err());
    }
}
