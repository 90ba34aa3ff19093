//! Properties of the physics layer (this module): monotonicity of the headroom
//! formulas, cell rounding, the inverse cable length, the budget limits, and agreement of the
//! exact SONiC Mellanox formula with a floating-point transliteration of its Lua.

use super::{
    Alpha, BudgetInput, CableFit, EcnQueue, EcnViolation, EgressLimit, HeadroomInput, LuaRevision,
    Marking, PauseThreshold, Rtt, SonicHeadroomInput, Spectrum, buffer_budget, canonical_headroom,
    dynamic_pause_point, evaluate_ecn, max_cable_for_headroom, min_kmin, mlx5_xoff,
    round_up_to_cell, sonic_mellanox_headroom, sonic_mellanox_headroom_at,
};
use proptest::prelude::*;

const SPEEDS: [u64; 12] = [
    1_000, 2_500, 10_000, 25_000, 40_000, 50_000, 100_000, 150_000, 200_000, 400_000, 800_000,
    1_600_000,
];

fn speed() -> impl Strategy<Value = u64> {
    prop_oneof![proptest::sample::select(SPEEDS.to_vec()), 0..2_000_000u64]
}

fn input() -> impl Strategy<Value = HeadroomInput> {
    (
        speed(),
        0..10_000_000u64,
        64..16_384u64,
        64..16_384u64,
        0..10_000u64,
    )
        .prop_map(
            |(speed_mbps, cable_mm, mtu_receiver, mtu_sender, interface_delay_ns)| HeadroomInput {
                speed_mbps,
                cable_mm,
                mtu_receiver,
                mtu_sender,
                interface_delay_ns,
            },
        )
}

fn is_worst_case(v: &EcnViolation) -> bool {
    matches!(v, EcnViolation::KminAboveWorstCase { .. })
}

fn total(input: HeadroomInput) -> u64 {
    canonical_headroom(&input).total
}

proptest! {
    #[test]
    fn headroom_is_monotone(input in input(), more in 0..1_000_000u64) {
        let h = total(input);
        let longer = HeadroomInput { cable_mm: input.cable_mm + more, ..input };
        let faster = HeadroomInput { speed_mbps: input.speed_mbps + more, ..input };
        let bigger_r = HeadroomInput { mtu_receiver: input.mtu_receiver + more, ..input };
        let bigger_s = HeadroomInput { mtu_sender: input.mtu_sender + more, ..input };
        let slower_phy = HeadroomInput { interface_delay_ns: input.interface_delay_ns + more, ..input };
        for bigger in [longer, faster, bigger_r, bigger_s, slower_phy] {
            prop_assert!(total(bigger) >= h, "{:?} < {} at {:?}", bigger, h, input);
        }
    }

    #[test]
    fn breakdown_adds_up(input in input()) {
        let h = canonical_headroom(&input);
        prop_assert_eq!(
            h.receiver_frame + h.pause_frame + h.cable + h.interface + h.response + h.sender_frame,
            h.total
        );
    }

    #[test]
    fn cell_rounding(bytes in 0..(1u64 << 50), cell in 1..(1u64 << 20)) {
        let rounded = round_up_to_cell(bytes, cell);
        prop_assert_eq!(rounded % cell, 0);
        prop_assert!(rounded >= bytes);
        prop_assert!(rounded < bytes + cell);
    }

    #[test]
    fn inverse_cable_is_tight(input in input(), budget in 0..2_000_000u64) {
        match max_cable_for_headroom(budget, &input) {
            CableFit::UpTo { cable_mm } => {
                let at = |cable_mm| total(HeadroomInput { cable_mm, ..input });
                prop_assert!(at(cable_mm) <= budget);
                prop_assert!(at(cable_mm + 1) > budget);
            }
            CableFit::None { fixed_bytes } => {
                prop_assert!(fixed_bytes > budget);
                let at_zero = total(HeadroomInput { cable_mm: 0, ..input });
                prop_assert_eq!(at_zero, fixed_bytes);
            }
            CableFit::Unbounded => prop_assert_eq!(input.speed_mbps, 0),
        }
    }

    #[test]
    fn nic_xoff_is_monotone(
        speed in speed(),
        cable in 0..1_000u64,
        mtu in 0..10_000u64,
        more in 0..1_000u64,
    ) {
        let x = mlx5_xoff(speed, cable, mtu);
        prop_assert!(mlx5_xoff(speed + more, cable, mtu) >= x);
        prop_assert!(mlx5_xoff(speed, cable + more, mtu) >= x);
        prop_assert!(mlx5_xoff(speed, cable, mtu + more) >= x);
    }

    #[test]
    fn max_static_threshold_is_the_limit(
        buffer in 0..1_000_000_000u64,
        ports in 1..256u64,
        priorities in 1..8u64,
        headroom in 0..500_000u64,
    ) {
        let input =
            BudgetInput::uniform(buffer, ports, priorities, headroom, PauseThreshold::Static(0));
        match buffer_budget(&input).max_static_threshold {
            Some(t) => {
                let fits = |t| {
                    buffer_budget(&BudgetInput { threshold: PauseThreshold::Static(t), ..input })
                        .fits
                };
                prop_assert!(fits(t));
                prop_assert!(!fits(t + 1));
            }
            None => prop_assert!(ports * priorities * headroom > buffer),
        }
    }

    #[test]
    fn ecn_6_bound_is_exact(speed in speed(), rtt in 0..100_000u64) {
        let k = u128::from(min_kmin(speed, rtt));
        let bdp7 = u128::from(speed) * u128::from(rtt);
        // k·56 000 ≥ speed·rtt > (k − 1)·56 000.
        prop_assert!(k * 56_000 >= bdp7);
        prop_assert!(k == 0 || (k - 1) * 56_000 < bdp7);
    }

    #[test]
    fn ecn_11_static_matches_the_inequality(
        kmin in 0..100_000u64,
        pause in 1..10_000_000u64,
        ports in 2..130u64,
    ) {
        let queue = EcnQueue {
            cnp_separate: true,
            egress_limit: EgressLimit::Static(u64::MAX),
            fabric_kmins: &[],
            kmax: u64::MAX,
            kmin,
            lossless_pgs: 1,
            marking: Marking::MarkOnly,
            nic_rp_np_enabled: true,
            pause: PauseThreshold::Static(pause),
            pmax: 1_000,
            ports,
            rtt: Rtt::given(0),
            shared_buffer: 0,
            speed_mbps: 0,
        };
        let flagged = evaluate_ecn(&queue).iter().any(is_worst_case);
        prop_assert_eq!(flagged, kmin * (ports - 1) >= pause);
    }

    #[test]
    fn dynamic_pause_point_decreases_with_more_pgs(
        th in -8i8..=7,
        shared in 0..100_000_000u64,
        pgs in 0..1_000u64,
    ) {
        let alpha = Alpha::new(th).expect("in range");
        prop_assert!(dynamic_pause_point(alpha, shared, pgs + 1) <= dynamic_pause_point(alpha, shared, pgs));
    }
}

/// `cfgmgr/buffer_headroom_mellanox.lua` at sonic-net/sonic-swss@e6b0c5b5d2ab (or, for `Pre3235`, the revision stored at sonic-swss `18913fa`),
/// transliterated operation by operation in doubles (as Lua 5.1 in
/// Redis computes), returning `(xon, xoff, size)`; `None` when an `xoff` about to be rounded up
/// to 1 KiB sits within 1e-6 B of a multiple of 1024, the measure-zero cases where exact and
/// double arithmetic may legitimately round differently.
fn lua_reference(
    revision: LuaRevision,
    asic: Spectrum,
    i: &SonicHeadroomInput,
) -> Option<(f64, f64, f64)> {
    let current = revision == LuaRevision::Current;
    let c = asic.constants();
    let quanta = [
        (800_000, 905.0),
        (400_000, 905.0),
        (200_000, 453.0),
        (100_000, 394.0),
        (50_000, 147.0),
        (40_000, 118.0),
        (25_000, 80.0),
        (10_000, 67.0),
        (1_000, 2.0),
        (100, 1.0),
    ]
    .iter()
    .find(|(s, _)| *s == i.speed_mbps)
    .map(|(_, q)| *q);
    #[allow(clippy::cast_precision_loss)] // test inputs stay far below 2^53
    let f = |v: u64| v as f64;
    let speed = f(i.speed_mbps);
    let cable = f(i.cable_mm) / 1000.0;
    let port_mtu = f(i.port_mtu);
    let lossless_mtu = f(i.lossless_mtu);
    let spp = f(i.small_packet_percentage);
    let cell = f(c.cell_bytes);
    let mut pipeline_latency = f(c.pipeline_latency_milli_kib) / 1000.0 * 1024.0;
    let mac_phy = f(c.mac_phy_delay_milli_kib) / 1000.0 * 1024.0;
    let peer = match quanta {
        Some(q) => q * 512.0 / 8.0,
        None => f(c.peer_response_time_milli_kib) / 1000.0 * 1024.0,
    };
    let speed_overhead = if i.eight_lanes {
        pipeline_latency = if current {
            pipeline_latency * 2.0
        } else {
            pipeline_latency * 2.0 - 1024.0
        };
        port_mtu
    } else {
        0.0
    };
    let tile = if c.tile_term && current {
        speed / 1000.0 * 120.0 / 8.0
    } else {
        0.0
    };
    let (wcf, occupancy, on_cable) = if current {
        let wcf = if cell > 128.0 {
            (cell / 64.0).ceil()
        } else {
            (2.0 * cell / (1.0 + cell)).ceil()
        };
        let spp_by_byte = 100.0 * 64.0 / ((spp * 64.0 + (100.0 - spp) * lossless_mtu) / 100.0);
        let occupancy = (100.0 - spp_by_byte + spp_by_byte * wcf) / 100.0;
        (
            wcf,
            occupancy,
            2.0 * cable * speed * 1e9 / 198_000_000.0 / (8.0 * 1000.0),
        )
    } else {
        let wcf = if cell > 128.0 {
            cell / 64.0
        } else {
            2.0 * cell / (1.0 + cell)
        };
        let occupancy = (100.0 - spp + spp * wcf) / 100.0;
        (
            wcf,
            occupancy,
            2.0 * cable * speed * 1e9 / 198_000_000.0 / (8.0 * 1024.0),
        )
    };
    let on_gearbox = if i.gearbox_delay_ns == 0 {
        0.0
    } else {
        speed * f(i.gearbox_delay_ns) / (8.0 * 1024.0)
    };
    let propagation = port_mtu + on_cable + 2.0 * on_gearbox + mac_phy + peer + tile;
    let raw_xoff = lossless_mtu + propagation * occupancy;
    let raw_all_small = lossless_mtu + propagation * wcf;
    let near = |x: f64| {
        let r = x.rem_euclid(1024.0);
        r < 1e-6 || 1024.0 - r < 1e-6
    };
    if near(raw_xoff) || near(raw_all_small) {
        return None;
    }
    let ceil1k = |x: f64| (x / 1024.0).ceil() * 1024.0;
    let mut xoff = ceil1k(raw_xoff) + if current { f(c.extra_xoff_bytes) } else { 0.0 };
    if current
        && !i.shared_headroom_pool
        && i.small_packet_percentage != 100
        && xoff + 2048.0 < ceil1k(raw_all_small)
    {
        xoff += 2048.0;
    }
    let xon = ceil1k(pipeline_latency);
    let size = if i.shared_headroom_pool {
        ceil1k(xon)
    } else {
        ceil1k(xoff + xon + speed_overhead)
    };
    Some((xon, xoff, size))
}

fn speeds() -> impl Strategy<Value = u64> {
    proptest::sample::select(vec![
        10_000u64, 25_000, 40_000, 50_000, 100_000, 200_000, 300_000, 400_000, 800_000,
    ])
}

proptest! {
    #[test]
    fn sonic_exact_matches_lua_doubles(
        asic in proptest::sample::select(Spectrum::ALL.to_vec()),
        speed in speeds(),
        metres in 0..2_001u64,
        port_mtu in 1_500..9_217u64,
        lossless_mtu in 64..9_217u64,
        spp in 0..=100u64,
        gearbox in prop_oneof![Just(0u64), 0..1_000u64],
        eight_lanes in any::<bool>(),
        shared_headroom_pool in any::<bool>(),
        revision in proptest::sample::select(vec![LuaRevision::Current, LuaRevision::Pre3235]),
    ) {
        let input = SonicHeadroomInput {
            speed_mbps: speed,
            cable_mm: metres * 1_000,
            port_mtu,
            lossless_mtu,
            small_packet_percentage: spp,
            gearbox_delay_ns: gearbox,
            eight_lanes,
            shared_headroom_pool,
        };
        let exact = sonic_mellanox_headroom_at(revision, &asic.constants(), &input)
            .expect("valid input");
        let reference = lua_reference(revision, asic, &input);
        prop_assume!(reference.is_some());
        let (xon, xoff, size) = reference.unwrap_or_default();
        #[allow(clippy::cast_precision_loss)] // results are below 2^53
        let as_f = |v: u64| v as f64;
        prop_assert_eq!(as_f(exact.xon), xon);
        prop_assert_eq!(as_f(exact.xoff), xoff);
        prop_assert_eq!(as_f(exact.size), size);
    }

    #[test]
    fn sonic_xoff_is_monotone_in_cable(
        metres in 0..2_000u64,
        more in 0..500u64,
        spp in 0..=100u64,
    ) {
        let at = |m: u64| {
            let input = SonicHeadroomInput {
                speed_mbps: 400_000,
                cable_mm: m * 1_000,
                port_mtu: 9100,
                lossless_mtu: 1024,
                small_packet_percentage: spp,
                gearbox_delay_ns: 0,
                eight_lanes: false,
                shared_headroom_pool: true,
            };
            sonic_mellanox_headroom(&Spectrum::Spectrum4.constants(), &input)
                .expect("valid input")
                .xoff
        };
        prop_assert!(at(metres + more) >= at(metres));
    }
}
