//! Canonical PFC headroom (docs/physics.md §1, with the worked numbers): the bytes a sender can still put
//! on the link after the receiver decides to pause.
//!
//! In: [`HeadroomInput`] (speed Mb/s, cable mm, both MTUs in bytes, interface delay ns).
//! Out: [`Headroom`], every component of
//!
//! ```text
//! H_min = (MTU_R + 20) + 84 + 2·L·t_p·C + t_intf·C + Q_resp·64 + (MTU_S + 20)
//! ```
//!
//! with t_p = 5 ns/m and C the rate in bytes/s, plus the inverse (the longest cable a given
//! headroom covers).
//!
//! Rounding: the cable and interface terms are the only fractional ones; each is rounded up
//! to a whole byte on its own (`⌈L_mm·speed/800 000⌉`, `⌈t_ns·speed/8 000⌉`), so the total
//! is never below the exact value and the breakdown adds up. §3.2 has no fractional cable term,
//! so every row is reproduced exactly. Rounding to an ASIC cell is a separate, explicit step.

use super::{ceil_div, saturate};

/// Propagation delay in cable, ns per metre (≈ 0.67 c; Cisco gives 4.76–5.13).
pub const PROPAGATION_NS_PER_M: u64 = 5;
/// IFG (12 B) + preamble/SFD (8 B): 160 bit times added to every frame.
pub const FRAME_OVERHEAD_BYTES: u64 = 20;
/// The PAUSE frame itself, 64 B + 20 B overhead = 672 bit times.
pub const PAUSE_FRAME_BYTES: u64 = 84;
/// One pause quantum is 512 bit times, 64 B at any speed.
pub const PAUSE_QUANTUM_BYTES: u64 = 64;

/// IEEE 802.3 Annex 31B pause-reaction limits, (speed Mb/s, quanta), ascending; the table of
/// `buffer_headroom_mellanox.lua` (docs/physics.md §1 item 5; sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffer_headroom_mellanox.lua).
pub const PAUSE_QUANTA: [(u64, u64); 10] = [
    (100, 1),
    (1_000, 2),
    (10_000, 67),
    (25_000, 80),
    (40_000, 118),
    (50_000, 147),
    (100_000, 394),
    (200_000, 453),
    (400_000, 905),
    (800_000, 905),
];

/// How the pause-response quanta for a speed were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantaSource {
    /// Faster than every tabulated speed: the largest tabulated speed's value is used.
    AboveTable {
        tabulated_mbps: u64,
    },
    /// Not tabulated: the next higher tabulated speed's value is used, which is the larger
    /// one (the table is non-decreasing), so the headroom errs on the safe side.
    NextHigher {
        tabulated_mbps: u64,
    },
    Table,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PauseQuanta {
    pub quanta: u64,
    pub source: QuantaSource,
}

/// The sender's pause-response time in quanta for `speed_mbps` (rule in [`QuantaSource`]).
pub fn pause_quanta(speed_mbps: u64) -> PauseQuanta {
    let (largest_speed, largest_quanta) = PAUSE_QUANTA[PAUSE_QUANTA.len() - 1];
    match PAUSE_QUANTA.iter().find(|(speed, _)| *speed >= speed_mbps) {
        Some(&(speed, quanta)) if speed == speed_mbps => PauseQuanta {
            quanta,
            source: QuantaSource::Table,
        },
        Some(&(speed, quanta)) => PauseQuanta {
            quanta,
            source: QuantaSource::NextHigher {
                tabulated_mbps: speed,
            },
        },
        None => PauseQuanta {
            quanta: largest_quanta,
            source: QuantaSource::AboveTable {
                tabulated_mbps: largest_speed,
            },
        },
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeadroomInput {
    pub speed_mbps: u64,
    pub cable_mm: u64,
    /// Largest frame (any class) the receiver may be sending when it decides to pause.
    pub mtu_receiver: u64,
    /// Largest lossless frame the sender may have started when the PAUSE takes effect.
    pub mtu_sender: u64,
    /// MAC/PHY/FEC delay, both ways together; 0 unless the platform supplies one.
    pub interface_delay_ns: u64,
}

impl HeadroomInput {
    /// The same MTU on both ends and no interface delay, as in the table of docs/physics.md §1.
    /// Test support: the unit tests below build their inputs with it.
    #[cfg(test)]
    pub fn symmetric(speed_mbps: u64, cable_mm: u64, mtu: u64) -> HeadroomInput {
        HeadroomInput {
            speed_mbps,
            cable_mm,
            mtu_receiver: mtu,
            mtu_sender: mtu,
            interface_delay_ns: 0,
        }
    }
}

/// The headroom of one (port, lossless priority), by component, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Headroom {
    /// `2·L·t_p·C`, rounded up.
    pub cable: u64,
    /// `t_intf·C`, rounded up.
    pub interface: u64,
    pub pause_frame: u64,
    pub quanta: PauseQuanta,
    /// `MTU_R + 20`.
    pub receiver_frame: u64,
    /// `Q_resp·64`.
    pub response: u64,
    /// `MTU_S + 20`.
    pub sender_frame: u64,
    pub total: u64,
}

/// `2·L·t_p·C` in exact bytes is `L_mm·speed_mbps / 800 000`
/// (`2 · L_mm/1000 · 5e-9 · speed_mbps·125 000`).
const CABLE_DIVISOR: u128 = 800_000;
/// `t·C` in exact bytes is `t_ns·speed_mbps / 8 000`.
const INTERFACE_DIVISOR: u128 = 8_000;

pub fn canonical_headroom(input: &HeadroomInput) -> Headroom {
    let speed = u128::from(input.speed_mbps);
    let quanta = pause_quanta(input.speed_mbps);
    let receiver_frame = u128::from(input.mtu_receiver) + u128::from(FRAME_OVERHEAD_BYTES);
    let sender_frame = u128::from(input.mtu_sender) + u128::from(FRAME_OVERHEAD_BYTES);
    let cable = ceil_div(u128::from(input.cable_mm) * speed, CABLE_DIVISOR);
    let interface = ceil_div(
        u128::from(input.interface_delay_ns) * speed,
        INTERFACE_DIVISOR,
    );
    let response = u128::from(quanta.quanta) * u128::from(PAUSE_QUANTUM_BYTES);
    let pause_frame = u128::from(PAUSE_FRAME_BYTES);
    let total = receiver_frame + pause_frame + cable + interface + response + sender_frame;
    Headroom {
        cable: saturate(cable),
        interface: saturate(interface),
        pause_frame: PAUSE_FRAME_BYTES,
        quanta,
        receiver_frame: saturate(receiver_frame),
        response: saturate(response),
        sender_frame: saturate(sender_frame),
        total: saturate(total),
    }
}

/// `bytes` rounded up to a multiple of `cell`; `cell` 0 or 1 leaves it unchanged. Saturates at
/// `u64::MAX` (then not a multiple) when the next multiple does not fit.
pub fn round_up_to_cell(bytes: u64, cell: u64) -> u64 {
    if cell <= 1 {
        return bytes;
    }
    saturate(u128::from(bytes).div_ceil(u128::from(cell)) * u128::from(cell))
}

/// The longest cable a headroom budget covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CableFit {
    /// Not even a 0 m cable fits: the fixed part (frames, PAUSE, response) exceeds the budget.
    None { fixed_bytes: u64 },
    /// The cable term is 0 at speed 0: any length fits.
    Unbounded,
    /// Cables up to this length (mm) fit; one millimetre more does not.
    UpTo { cable_mm: u64 },
}

impl CableFit {
    /// The longest cable in whole metres (rounded down); only the tests read it in metres.
    #[cfg(test)]
    pub fn whole_metres(self) -> Option<u64> {
        match self {
            CableFit::UpTo { cable_mm } => Some(cable_mm / 1_000),
            CableFit::None { .. } | CableFit::Unbounded => None,
        }
    }
}

/// The largest `L` with `H_min(L) ≤ budget`, `input.cable_mm` being ignored. Compare an
/// unrounded `H_min` with a budget that is already a whole number of cells: then rounding
/// `H_min` up to the cell cannot change the answer.
pub fn max_cable_for_headroom(budget: u64, input: &HeadroomInput) -> CableFit {
    let fixed = canonical_headroom(&HeadroomInput {
        cable_mm: 0,
        ..*input
    })
    .total;
    if fixed > budget {
        return CableFit::None { fixed_bytes: fixed };
    }
    if input.speed_mbps == 0 {
        return CableFit::Unbounded;
    }
    // ⌈L·s/800 000⌉ ≤ r  ⇔  L·s ≤ r·800 000  ⇔  L ≤ ⌊r·800 000 / s⌋.
    let spare = u128::from(budget - fixed);
    CableFit::UpTo {
        cable_mm: saturate(spare * CABLE_DIVISOR / u128::from(input.speed_mbps)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row of the worked numbers (docs/physics.md §1; every row of the full table): speed G, cable m, H@9216, H@4200, cable RTT, response.
    #[track_caller]
    fn case(gbps: u64, metres: u64, h9216: u64, h4200: u64, cable: u64, response: u64) {
        let speed = gbps * 1_000;
        let at = |mtu| canonical_headroom(&HeadroomInput::symmetric(speed, metres * 1_000, mtu));
        let big = at(9216);
        let small = at(4200);
        assert_eq!(big.total, h9216, "H_min @ 9216");
        assert_eq!(small.total, h4200, "H_min @ 4200");
        assert_eq!(big.cable, cable, "cable RTT");
        assert_eq!(small.cable, cable, "cable RTT");
        assert_eq!(big.response, response, "response");
        assert_eq!(big.quanta.source, QuantaSource::Table);
    }

    #[test]
    fn theory_3_2_table() {
        case(100, 5, 44_397, 34_365, 625, 25_216);
        case(100, 40, 48_772, 38_740, 5_000, 25_216);
        case(100, 100, 56_272, 46_240, 12_500, 25_216);
        case(100, 300, 81_272, 71_240, 37_500, 25_216);
        case(200, 5, 48_798, 38_766, 1_250, 28_992);
        case(200, 40, 57_548, 47_516, 10_000, 28_992);
        case(200, 100, 72_548, 62_516, 25_000, 28_992);
        case(200, 300, 122_548, 112_516, 75_000, 28_992);
        case(400, 5, 78_976, 68_944, 2_500, 57_920);
        case(400, 40, 96_476, 86_444, 20_000, 57_920);
        case(400, 100, 126_476, 116_444, 50_000, 57_920);
        case(400, 300, 226_476, 216_444, 150_000, 57_920);
    }

    #[test]
    fn worked_example_breakdown() {
        // docs/physics.md §1: 100G / 5 m / 9216: 9,236 + 84 + 625 + 25,216 + 9,236 = 44,397 B.
        let h = canonical_headroom(&HeadroomInput::symmetric(100_000, 5_000, 9216));
        assert_eq!(
            (
                h.receiver_frame,
                h.pause_frame,
                h.cable,
                h.interface,
                h.response,
                h.sender_frame,
                h.total
            ),
            (9_236, 84, 625, 0, 25_216, 9_236, 44_397)
        );
    }

    #[test]
    fn per_metre_rule_of_thumb_and_delta() {
        // docs/physics.md §1: each metre costs 125 B at 100G, 250 B at 200G, 500 B at 400G;
        // §3.3: 400G, 5 m → 300 m adds 147,500 B.
        let cable = |gbps: u64, mm| {
            canonical_headroom(&HeadroomInput::symmetric(gbps * 1_000, mm, 9216)).cable
        };
        assert_eq!(cable(100, 1_000), 125);
        assert_eq!(cable(200, 1_000), 250);
        assert_eq!(cable(400, 1_000), 500);
        assert_eq!(cable(400, 300_000) - cable(400, 5_000), 147_500);
    }

    #[test]
    fn fractional_cable_and_interface_terms_round_up() {
        // 25G, 3 m: 3000·25000/800000 = 93.75 B → 94.
        let h = canonical_headroom(&HeadroomInput {
            interface_delay_ns: 100,
            ..HeadroomInput::symmetric(25_000, 3_000, 1500)
        });
        assert_eq!(h.cable, 94);
        // 100 ns at 25G = 312.5 B → 313.
        assert_eq!(h.interface, 313);
        assert_eq!(h.total, 1520 + 84 + 94 + 313 + 80 * 64 + 1520);
    }

    #[test]
    fn cisco_interface_bound_100g() {
        // Cisco's PFC white paper (docs/physics.md §1): 100G interface delay upper bound 122,880 BT = 15,360 B = 1,228.8 ns.
        let h = canonical_headroom(&HeadroomInput {
            interface_delay_ns: 1_229,
            ..HeadroomInput::symmetric(100_000, 0, 1500)
        });
        assert_eq!(h.interface, 15_363);
    }

    #[track_caller]
    fn quanta_case(speed_mbps: u64, quanta: u64, source: QuantaSource) {
        assert_eq!(pause_quanta(speed_mbps), PauseQuanta { quanta, source });
    }

    #[test]
    fn quanta_lookup() {
        quanta_case(10_000, 67, QuantaSource::Table);
        quanta_case(25_000, 80, QuantaSource::Table);
        quanta_case(40_000, 118, QuantaSource::Table);
        quanta_case(50_000, 147, QuantaSource::Table);
        quanta_case(100_000, 394, QuantaSource::Table);
        quanta_case(200_000, 453, QuantaSource::Table);
        quanta_case(400_000, 905, QuantaSource::Table);
        quanta_case(800_000, 905, QuantaSource::Table);
        quanta_case(
            0,
            1,
            QuantaSource::NextHigher {
                tabulated_mbps: 100,
            },
        );
        quanta_case(
            2_500,
            67,
            QuantaSource::NextHigher {
                tabulated_mbps: 10_000,
            },
        );
        quanta_case(
            150_000,
            453,
            QuantaSource::NextHigher {
                tabulated_mbps: 200_000,
            },
        );
        quanta_case(
            1_600_000,
            905,
            QuantaSource::AboveTable {
                tabulated_mbps: 800_000,
            },
        );
    }

    #[track_caller]
    fn cell_case(bytes: u64, cell: u64, expected: u64) {
        assert_eq!(round_up_to_cell(bytes, cell), expected);
    }

    #[test]
    fn cell_rounding() {
        cell_case(44_397, 0, 44_397);
        cell_case(44_397, 1, 44_397);
        cell_case(44_397, 1_024, 45_056);
        cell_case(45_056, 1_024, 45_056);
        cell_case(44_397, 254, 44_450);
        cell_case(u64::MAX, 1_024, u64::MAX);
    }

    #[track_caller]
    fn fit_case(budget: u64, gbps: u64, mtu: u64, expected: CableFit) {
        assert_eq!(
            max_cable_for_headroom(budget, &HeadroomInput::symmetric(gbps * 1_000, 0, mtu)),
            expected
        );
    }

    #[test]
    fn inverse_cable_length() {
        // §3.2 rows are exact: 400G/9216 at 300 m needs 226,476 B, so that budget fits 300 m.
        fit_case(226_476, 400, 9216, CableFit::UpTo { cable_mm: 300_000 });
        fit_case(226_475, 400, 9216, CableFit::UpTo { cable_mm: 299_998 });
        fit_case(44_397, 100, 9216, CableFit::UpTo { cable_mm: 5_000 });
        // A 20 KB headroom cannot cover even the fixed part at 400G (76,476 B).
        fit_case(
            20_000,
            400,
            9216,
            CableFit::None {
                fixed_bytes: 76_476,
            },
        );
        fit_case(80_000, 400, 9216, CableFit::UpTo { cable_mm: 7_048 });
        assert_eq!(CableFit::UpTo { cable_mm: 7_048 }.whole_metres(), Some(7));
        fit_case(1_000_000, 0, 9216, CableFit::Unbounded);
    }

    #[test]
    fn inverse_is_tight() {
        for (budget, gbps) in [(50_000, 100), (60_000, 200), (100_000, 400), (33_333, 25)] {
            let input = HeadroomInput::symmetric(gbps * 1_000, 0, 4200);
            let CableFit::UpTo { cable_mm } = max_cable_for_headroom(budget, &input) else {
                panic!("expected a fit for {budget} at {gbps}G");
            };
            let at = |mm| {
                canonical_headroom(&HeadroomInput {
                    cable_mm: mm,
                    ..input
                })
                .total
            };
            assert!(at(cable_mm) <= budget);
            assert!(at(cable_mm + 1) > budget);
        }
    }
}
