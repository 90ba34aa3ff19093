//! The base round-trip time used to judge ECN thresholds (ECN-6): given by the user
//! (`rtt 8us`), or derived from the path.
//!
//! In: the one-way path's cable lengths (mm) and the number of switches on it. Out: [`Rtt`],
//! in ns, saying whether it was given or derived.
//!
//! Derivation (a documented estimate, not a measurement):
//! `RTT = 2·Σ cable·5 ns/m + 2·switches·1 µs + 2 µs`: propagation both ways, every switch
//! traversed once each way (cut-through latency of current data-centre ASICs is 0.5–1 µs;
//! 1 µs errs towards a larger RTT, hence a larger minimum Kmin), and 1 µs of NIC processing
//! at each end (the receiver turning data into an ACK or CNP, the sender reacting). Rounded
//! up to a whole ns. A leaf–spine–leaf path with 3 m + 30 m + 30 m + 3 m gives 8,660 ns,
//! close to the 8 µs the README uses as an example (`rtt 8us`).

use super::{headroom::PROPAGATION_NS_PER_M, saturate};

/// Latency of one switch traversal assumed by [`derive_rtt`].
pub const SWITCH_HOP_LATENCY_NS: u64 = 1_000;
/// NIC processing per round trip (both ends) assumed by [`derive_rtt`].
pub const NIC_TURNAROUND_NS: u64 = 2_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RttSource {
    /// From [`derive_rtt`]'s constants.
    Derived,
    /// Declared in the source (`rtt 8us`).
    Given,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rtt {
    pub ns: u64,
    pub source: RttSource,
}

impl Rtt {
    pub fn given(ns: u64) -> Rtt {
        Rtt {
            ns,
            source: RttSource::Given,
        }
    }
}

pub fn derive_rtt(cables_mm: &[u64], switches: u64) -> Rtt {
    let cable_mm: u128 = cables_mm.iter().map(|&mm| u128::from(mm)).sum();
    // 2 · mm/1000 · 5 ns/m = mm/100 ns.
    let propagation = (2 * cable_mm * u128::from(PROPAGATION_NS_PER_M)).div_ceil(1_000);
    let hops = 2 * u128::from(switches) * u128::from(SWITCH_HOP_LATENCY_NS);
    Rtt {
        ns: saturate(propagation + hops + u128::from(NIC_TURNAROUND_NS)),
        source: RttSource::Derived,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(cables_mm: &[u64], switches: u64, ns: u64) {
        assert_eq!(
            derive_rtt(cables_mm, switches),
            Rtt {
                ns,
                source: RttSource::Derived
            }
        );
    }

    #[test]
    fn derived_rtt() {
        case(&[3_000, 30_000, 30_000, 3_000], 3, 8_660);
        case(&[2_000, 2_000], 1, 4_040);
        case(&[], 0, 2_000);
        // 1 mm each way is 0.01 ns: rounded up.
        case(&[1], 0, 2_001);
        assert_eq!(Rtt::given(8_000).source, RttSource::Given);
    }
}
