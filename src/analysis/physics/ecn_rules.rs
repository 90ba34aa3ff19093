//! The ECN/DCQCN sanity rules ECN-1…ECN-11 (docs/physics.md §3, derivations in §2) as a pure
//! evaluator over one (switch egress queue, DCQCN class).
//!
//! In: [`EcnQueue`] — the marking thresholds and probability, the pause threshold of the
//! class's ingress PG (static bytes, or a dynamic α with the shared buffer and lossless PG
//! count), the egress queue limit, link speed, base RTT, port count, marking mode, CNP
//! scheduling, NIC DCQCN state, and the (speed, Kmin) pairs of the whole fabric. Out: the
//! violated rules, in rule order, each an [`EcnViolation`] carrying the numbers involved and
//! the value that would satisfy the rule.
//!
//! Bounds are exact: "Kmin below X" with a fractional X is reported as the exclusive integer
//! bound `⌈X⌉` (Kmin ≤ ⌈X⌉ − 1 ⇔ Kmin < X); "Kmin at least X" as `⌈X⌉`; "Kmax at most X"
//! as `⌊X⌋`. ECN-3 and ECN-4 judge static thresholds only; with dynamic thresholds the pause
//! point depends on the load, and the worst case is the advisory ECN-11.
//! Only classes declared as DCQCN classes are to be evaluated (§2.4: PFC-only fabrics exist).

use super::rtt::Rtt;
use super::threshold::{Alpha, PauseThreshold, dynamic_pause_point};
use super::{Ratio, saturate};
use crate::diagnostic::Severity;

/// 100 % in thousandths of a percent.
const PERCENT_100: u64 = 100_000;
/// DCTCP (SIGCOMM'10): K ≥ C·RTT/7 keeps the link busy. C·RTT/7 in bytes is
/// `speed_mbps·rtt_ns/56 000` (`speed·125 000 B/s · rtt·1e-9 s / 7`).
const BDP_DIVISOR: u128 = 56_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EgressLimit {
    /// The queue may hold up to α·pool (the §2.4 bound; a queue alone in the pool actually
    /// stops at α·pool/(1 + α), so this errs on the lenient side).
    Dynamic {
        alpha: Alpha,
        pool: u64,
    },
    Static(u64),
}

impl EgressLimit {
    fn bytes(self) -> u64 {
        match self {
            EgressLimit::Dynamic { alpha, pool } => alpha.times(pool),
            EgressLimit::Static(bytes) => bytes,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marking {
    /// WRED drops as well as marks: drops in a lossless class. The language cannot ask for
    /// it, so only the tests below build it (ECN-7 still judges any mode but `MarkOnly`).
    #[cfg(test)]
    MarkAndDrop,
    MarkOnly,
    /// No ECN marking on the queue: a lossless class without congestion control.
    Off,
}

/// One (switch egress queue, DCQCN class).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EcnQueue<'a> {
    /// The CNP class maps to another TC than the data, scheduled strict or with more weight.
    pub cnp_separate: bool,
    pub egress_limit: EgressLimit,
    /// (speed Mb/s, Kmin) of every DCQCN queue in the fabric, in any order (ECN-10).
    pub fabric_kmins: &'a [(u64, u64)],
    pub kmax: u64,
    pub kmin: u64,
    /// Lossless PGs sharing the ingress pool, N_pg (dynamic thresholds).
    pub lossless_pgs: u64,
    pub marking: Marking,
    /// NIC reaction and notification points enabled on the RoCE priority on every host.
    pub nic_rp_np_enabled: bool,
    pub pause: PauseThreshold,
    /// Thousandths of a percent.
    pub pmax: u64,
    pub ports: u64,
    pub rtt: Rtt,
    /// The shared buffer B_s the dynamic thresholds divide (buffer − headroom).
    pub shared_buffer: u64,
    pub speed_mbps: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EcnRule {
    Ecn1,
    Ecn2,
    Ecn3,
    Ecn4,
    Ecn5,
    Ecn6,
    Ecn7,
    Ecn8,
    Ecn9,
    Ecn10,
    Ecn11,
}

impl EcnRule {
    pub fn id(self) -> &'static str {
        match self {
            EcnRule::Ecn1 => "ECN-1",
            EcnRule::Ecn2 => "ECN-2",
            EcnRule::Ecn3 => "ECN-3",
            EcnRule::Ecn4 => "ECN-4",
            EcnRule::Ecn5 => "ECN-5",
            EcnRule::Ecn6 => "ECN-6",
            EcnRule::Ecn7 => "ECN-7",
            EcnRule::Ecn8 => "ECN-8",
            EcnRule::Ecn9 => "ECN-9",
            EcnRule::Ecn10 => "ECN-10",
            EcnRule::Ecn11 => "ECN-11",
        }
    }
}

/// A violated rule with its numbers (bytes unless named otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EcnViolation {
    /// ECN-8 (E): the CNP class shares the data TC or is served after it.
    CnpNotSeparate,
    /// ECN-10 (A): another speed in the fabric uses the same Kmin; `suggested` scales it
    /// with the rate, `⌈kmin·speed/other⌉`.
    KminNotScaled {
        kmin: u64,
        other_speed_mbps: u64,
        speed_mbps: u64,
        suggested: u64,
    },
    /// ECN-11 (A): Kmin must be below `below` (exclusive): `T_xoff/(n − 1)` for static
    /// thresholds, `α·B_s/(1 + α·N_pg)` for dynamic ones.
    KminAboveWorstCase {
        below: u64,
        dynamic: bool,
        kmin: u64,
    },
    /// ECN-6 (W): Kmin below C·RTT/7; `min_kmin` = `⌈C·RTT/7⌉`.
    KminBelowBdp {
        kmin: u64,
        min_kmin: u64,
        rtt: Rtt,
        speed_mbps: u64,
    },
    /// ECN-1 (E): Kmin ≥ Kmax (and not step marking).
    KminNotBelowKmax { kmax: u64, kmin: u64 },
    /// ECN-3 (E): Kmin must be below the static pause threshold.
    KminNotBelowPause { kmin: u64, pause: u64 },
    /// ECN-5 (E): Kmax above what the egress queue can hold.
    KmaxAboveEgressLimit {
        dynamic: bool,
        kmax: u64,
        limit: u64,
    },
    /// ECN-4 (W): Kmax above the static pause threshold.
    KmaxAbovePause { kmax: u64, pause: u64 },
    /// ECN-9 (E).
    NicDcqcnDisabled,
    /// ECN-7 (E): marking off, or WRED drops in the lossless class.
    NotMarkOnly { marking: Marking },
    /// ECN-2 (E): Pmax outside (0, 100 %], thousandths of a percent.
    PmaxOutOfRange { pmax: u64 },
    /// ECN-1 (W): Kmin = Kmax with Pmax = 100 %: step marking.
    StepMarking { k: u64 },
}

impl EcnViolation {
    pub fn rule(self) -> EcnRule {
        match self {
            EcnViolation::KminNotBelowKmax { .. } | EcnViolation::StepMarking { .. } => {
                EcnRule::Ecn1
            }
            EcnViolation::PmaxOutOfRange { .. } => EcnRule::Ecn2,
            EcnViolation::KminNotBelowPause { .. } => EcnRule::Ecn3,
            EcnViolation::KmaxAbovePause { .. } => EcnRule::Ecn4,
            EcnViolation::KmaxAboveEgressLimit { .. } => EcnRule::Ecn5,
            EcnViolation::KminBelowBdp { .. } => EcnRule::Ecn6,
            EcnViolation::NotMarkOnly { .. } => EcnRule::Ecn7,
            EcnViolation::CnpNotSeparate => EcnRule::Ecn8,
            EcnViolation::NicDcqcnDisabled => EcnRule::Ecn9,
            EcnViolation::KminNotScaled { .. } => EcnRule::Ecn10,
            EcnViolation::KminAboveWorstCase { .. } => EcnRule::Ecn11,
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            EcnViolation::StepMarking { .. }
            | EcnViolation::KmaxAbovePause { .. }
            | EcnViolation::KminBelowBdp { .. } => Severity::Warning,
            EcnViolation::KminNotScaled { .. } | EcnViolation::KminAboveWorstCase { .. } => {
                Severity::Advice
            }
            EcnViolation::CnpNotSeparate
            | EcnViolation::KminNotBelowKmax { .. }
            | EcnViolation::KminNotBelowPause { .. }
            | EcnViolation::KmaxAboveEgressLimit { .. }
            | EcnViolation::NicDcqcnDisabled
            | EcnViolation::NotMarkOnly { .. }
            | EcnViolation::PmaxOutOfRange { .. } => Severity::Error,
        }
    }
}

/// ECN-6's bound, `⌈C·RTT/7⌉` bytes.
pub fn min_kmin(speed_mbps: u64, rtt_ns: u64) -> u64 {
    saturate((u128::from(speed_mbps) * u128::from(rtt_ns)).div_ceil(BDP_DIVISOR))
}

/// Evaluates every rule; the result is sorted by rule.
pub fn evaluate_ecn(queue: &EcnQueue<'_>) -> Vec<EcnViolation> {
    let mut out = Vec::new();
    if queue.marking == Marking::Off {
        // No thresholds to judge; only the loop-level rules apply.
        out.push(EcnViolation::NotMarkOnly {
            marking: Marking::Off,
        });
    } else {
        thresholds(queue, &mut out);
        if queue.marking != Marking::MarkOnly {
            out.push(EcnViolation::NotMarkOnly {
                marking: queue.marking,
            });
        }
    }
    if !queue.cnp_separate {
        out.push(EcnViolation::CnpNotSeparate);
    }
    if !queue.nic_rp_np_enabled {
        out.push(EcnViolation::NicDcqcnDisabled);
    }
    out.sort_by_key(|v| v.rule());
    out
}

fn thresholds(q: &EcnQueue<'_>, out: &mut Vec<EcnViolation>) {
    let (kmin, kmax) = (q.kmin, q.kmax);
    if kmin == kmax && q.pmax == PERCENT_100 {
        out.push(EcnViolation::StepMarking { k: kmin });
    } else if kmin >= kmax {
        out.push(EcnViolation::KminNotBelowKmax { kmax, kmin });
    }
    if q.pmax == 0 || q.pmax > PERCENT_100 {
        out.push(EcnViolation::PmaxOutOfRange { pmax: q.pmax });
    }
    if let PauseThreshold::Static(pause) = q.pause {
        if kmin >= pause {
            out.push(EcnViolation::KminNotBelowPause { kmin, pause });
        }
        if kmax > pause {
            out.push(EcnViolation::KmaxAbovePause { kmax, pause });
        }
    }
    let limit = q.egress_limit.bytes();
    if kmax > limit {
        let dynamic = matches!(q.egress_limit, EgressLimit::Dynamic { .. });
        out.push(EcnViolation::KmaxAboveEgressLimit {
            dynamic,
            kmax,
            limit,
        });
    }
    let min_kmin = min_kmin(q.speed_mbps, q.rtt.ns);
    if kmin < min_kmin {
        out.push(EcnViolation::KminBelowBdp {
            kmin,
            min_kmin,
            rtt: q.rtt,
            speed_mbps: q.speed_mbps,
        });
    }
    if let Some(v) = unscaled(q) {
        out.push(v);
    }
    if let Some(v) = worst_case(q) {
        out.push(v);
    }
}

/// ECN-10: the slowest other speed with the same Kmin.
fn unscaled(q: &EcnQueue<'_>) -> Option<EcnViolation> {
    let other = q
        .fabric_kmins
        .iter()
        .filter(|&&(speed, kmin)| kmin == q.kmin && speed != q.speed_mbps && speed > 0)
        .map(|&(speed, _)| speed)
        .min()?;
    let suggested =
        saturate((u128::from(q.kmin) * u128::from(q.speed_mbps)).div_ceil(u128::from(other)));
    Some(EcnViolation::KminNotScaled {
        kmin: q.kmin,
        other_speed_mbps: other,
        speed_mbps: q.speed_mbps,
        suggested,
    })
}

/// ECN-11: the DCQCN worst case, exactly.
fn worst_case(q: &EcnQueue<'_>) -> Option<EcnViolation> {
    let (bound, dynamic) = match q.pause {
        PauseThreshold::Static(pause) => {
            // With one port there is no fan-out, so no bound.
            let fan_out = q.ports.checked_sub(1).filter(|&n| n > 0)?;
            (Ratio::new(u128::from(pause), u128::from(fan_out))?, false)
        }
        PauseThreshold::Dynamic(alpha) => (
            dynamic_pause_point(alpha, q.shared_buffer, q.lossless_pgs),
            true,
        ),
    };
    (Ratio::int(u128::from(q.kmin)) >= bound).then(|| EcnViolation::KminAboveWorstCase {
        below: saturate(bound.ceil()),
        dynamic,
        kmin: q.kmin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A queue that violates nothing: 400G, 8 µs, static 2 MB threshold; 2 ports so that
    /// ECN-11 only fires where a test asks for it.
    fn clean() -> EcnQueue<'static> {
        EcnQueue {
            cnp_separate: true,
            egress_limit: EgressLimit::Static(10_000_000),
            fabric_kmins: &[(400_000, 60_000), (100_000, 15_000)],
            kmax: 1_500_000,
            kmin: 60_000,
            lossless_pgs: 64,
            marking: Marking::MarkOnly,
            nic_rp_np_enabled: true,
            pause: PauseThreshold::Static(2_000_000),
            pmax: 10_000,
            ports: 2,
            rtt: Rtt::given(8_000),
            shared_buffer: 50_000_000,
            speed_mbps: 400_000,
        }
    }

    #[track_caller]
    fn case(queue: EcnQueue<'_>, expected: &[EcnViolation]) {
        assert_eq!(evaluate_ecn(&queue), expected);
    }

    #[test]
    fn clean_queue_passes() {
        case(clean(), &[]);
    }

    #[test]
    fn ecn_1_and_2() {
        case(
            EcnQueue {
                kmin: 1_600_000,
                ..clean()
            },
            &[EcnViolation::KminNotBelowKmax {
                kmax: 1_500_000,
                kmin: 1_600_000,
            }],
        );
        case(
            EcnQueue {
                kmin: 1_500_000,
                ..clean()
            },
            &[EcnViolation::KminNotBelowKmax {
                kmax: 1_500_000,
                kmin: 1_500_000,
            }],
        );
        case(
            EcnQueue {
                kmin: 1_500_000,
                pmax: 100_000,
                ..clean()
            },
            &[EcnViolation::StepMarking { k: 1_500_000 }],
        );
        case(
            EcnQueue { pmax: 0, ..clean() },
            &[EcnViolation::PmaxOutOfRange { pmax: 0 }],
        );
        case(
            EcnQueue {
                pmax: 100_001,
                ..clean()
            },
            &[EcnViolation::PmaxOutOfRange { pmax: 100_001 }],
        );
        case(
            EcnQueue {
                pmax: 100_000,
                ..clean()
            },
            &[],
        );
    }

    #[test]
    fn ecn_3_4_static_pause() {
        // "Kmin must be below T_xoff = 50,000 B", and Kmax above it.
        let q = EcnQueue {
            pause: PauseThreshold::Static(50_000),
            ports: 2,
            ..clean()
        };
        case(
            q,
            &[
                EcnViolation::KminNotBelowPause {
                    kmin: 60_000,
                    pause: 50_000,
                },
                EcnViolation::KmaxAbovePause {
                    kmax: 1_500_000,
                    pause: 50_000,
                },
                EcnViolation::KminAboveWorstCase {
                    below: 50_000,
                    dynamic: false,
                    kmin: 60_000,
                },
            ],
        );
        case(
            EcnQueue {
                pause: PauseThreshold::Static(1_500_000),
                ports: 1,
                ..clean()
            },
            &[],
        );
        case(
            EcnQueue {
                pause: PauseThreshold::Static(1_499_999),
                ports: 1,
                ..clean()
            },
            &[EcnViolation::KmaxAbovePause {
                kmax: 1_500_000,
                pause: 1_499_999,
            }],
        );
    }

    #[test]
    fn ecn_5_egress_limit() {
        case(
            EcnQueue {
                egress_limit: EgressLimit::Static(1_000_000),
                ..clean()
            },
            &[EcnViolation::KmaxAboveEgressLimit {
                dynamic: false,
                kmax: 1_500_000,
                limit: 1_000_000,
            }],
        );
        let alpha = Alpha::new(-1).unwrap();
        case(
            EcnQueue {
                egress_limit: EgressLimit::Dynamic {
                    alpha,
                    pool: 2_999_999,
                },
                ..clean()
            },
            &[EcnViolation::KmaxAboveEgressLimit {
                dynamic: true,
                kmax: 1_500_000,
                limit: 1_499_999,
            }],
        );
        case(
            EcnQueue {
                egress_limit: EgressLimit::Dynamic {
                    alpha,
                    pool: 3_000_000,
                },
                ..clean()
            },
            &[],
        );
    }

    #[test]
    fn ecn_6_bdp() {
        // docs/physics.md §3 (DCTCP's C·RTT/7): 400G, 8 µs → 57,143 B.
        assert_eq!(min_kmin(400_000, 8_000), 57_143);
        case(
            EcnQueue {
                kmin: 57_142,
                fabric_kmins: &[],
                ..clean()
            },
            &[EcnViolation::KminBelowBdp {
                kmin: 57_142,
                min_kmin: 57_143,
                rtt: Rtt::given(8_000),
                speed_mbps: 400_000,
            }],
        );
        case(
            EcnQueue {
                kmin: 57_143,
                fabric_kmins: &[],
                ..clean()
            },
            &[],
        );
    }

    #[test]
    fn ecn_7_8_9() {
        case(
            EcnQueue {
                marking: Marking::MarkAndDrop,
                ..clean()
            },
            &[EcnViolation::NotMarkOnly {
                marking: Marking::MarkAndDrop,
            }],
        );
        // Marking off: the thresholds are not judged (Kmin = Kmax would otherwise be ECN-1).
        case(
            EcnQueue {
                marking: Marking::Off,
                kmin: 0,
                kmax: 0,
                cnp_separate: false,
                nic_rp_np_enabled: false,
                ..clean()
            },
            &[
                EcnViolation::NotMarkOnly {
                    marking: Marking::Off,
                },
                EcnViolation::CnpNotSeparate,
                EcnViolation::NicDcqcnDisabled,
            ],
        );
    }

    #[test]
    fn ecn_10_rate_scaling() {
        // The same 150 KB on 100G and 400G (the Onyx absolute default on mixed speeds).
        let kmins = [(100_000, 150_000), (400_000, 150_000), (400_000, 150_000)];
        case(
            EcnQueue {
                kmin: 150_000,
                fabric_kmins: &kmins,
                ..clean()
            },
            &[EcnViolation::KminNotScaled {
                kmin: 150_000,
                other_speed_mbps: 100_000,
                speed_mbps: 400_000,
                suggested: 600_000,
            }],
        );
        case(
            EcnQueue {
                kmin: 150_000,
                speed_mbps: 100_000,
                fabric_kmins: &kmins,
                ..clean()
            },
            &[EcnViolation::KminNotScaled {
                kmin: 150_000,
                other_speed_mbps: 400_000,
                speed_mbps: 100_000,
                suggested: 37_500,
            }],
        );
    }

    #[test]
    fn ecn_11_worst_case() {
        // docs/physics.md §2–3, Trident II: T_xoff = 24,475, n = 32 → Kmin < 789.5…, i.e. < 790.
        let q = EcnQueue {
            pause: PauseThreshold::Static(24_475),
            ports: 32,
            kmin: 789,
            kmax: 20_000,
            fabric_kmins: &[],
            rtt: Rtt::given(0),
            ..clean()
        };
        case(q, &[]);
        case(
            EcnQueue { kmin: 790, ..q },
            &[EcnViolation::KminAboveWorstCase {
                below: 790,
                dynamic: false,
                kmin: 790,
            }],
        );
        // Dynamic, α = 1, B_s = 51,200,000, N_pg = 128: pause point 51,200,000/129 = 396,899.2.
        let alpha = Alpha::new(0).unwrap();
        let q = EcnQueue {
            pause: PauseThreshold::Dynamic(alpha),
            shared_buffer: 51_200_000,
            lossless_pgs: 128,
            kmin: 396_899,
            ..clean()
        };
        case(
            EcnQueue {
                fabric_kmins: &[],
                ..q
            },
            &[],
        );
        case(
            EcnQueue {
                kmin: 396_900,
                fabric_kmins: &[],
                ..q
            },
            &[EcnViolation::KminAboveWorstCase {
                below: 396_900,
                dynamic: true,
                kmin: 396_900,
            }],
        );
    }

    #[test]
    fn rule_ids_and_severities() {
        let v = EcnViolation::KminBelowBdp {
            kmin: 0,
            min_kmin: 1,
            rtt: Rtt::given(1),
            speed_mbps: 1,
        };
        assert_eq!((v.rule().id(), v.severity()), ("ECN-6", Severity::Warning));
        assert_eq!(
            EcnViolation::StepMarking { k: 1 }.severity(),
            Severity::Warning
        );
        assert_eq!(
            EcnViolation::KminNotBelowKmax { kmax: 1, kmin: 1 }.severity(),
            Severity::Error
        );
        assert_eq!(EcnViolation::CnpNotSeparate.rule().id(), "ECN-8");
        assert_eq!(EcnRule::Ecn10.id(), "ECN-10");
    }
}
