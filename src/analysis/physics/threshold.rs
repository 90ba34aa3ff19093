//! Pause thresholds and the switch buffer budget (docs/physics.md §2, rules HR-2 and HR-4 of
//! §3.5).
//!
//! In: the model's buffer, the number of lossless PGs (ports × lossless priorities), the
//! headroom reserved for them, other reservations, and the pause threshold — static bytes or a
//! SONiC `dynamic_th`. Out: [`BufferBudget`] (needed vs available, the shared buffer, the
//! largest static threshold that fits, the dynamic pause point) and [`PriorityBudget`].
//!
//! Rounding: limits are floored (`⌊(B − ΣH)/(n·L)⌋`, the dynamic pause point), so a value at
//! or below a reported limit always satisfies the exact inequality. Where a rule needs
//! "strictly below the exact value", callers use [`dynamic_pause_point`]'s exact [`Ratio`].

use super::{Ratio, saturate};

/// α = 2^`dynamic_th` (SONiC `dynamic_th`, −8..=7; 0 → α = 1): a PG pauses when its
/// occupancy exceeds α × the free shared buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alpha {
    // Private so that every `Alpha` is in range and `fraction` cannot overflow.
    dynamic_th: i8,
}

impl Alpha {
    pub const MAX_TH: i8 = 7;
    pub const MIN_TH: i8 = -8;

    /// `None` outside −8..=7.
    pub fn new(dynamic_th: i8) -> Option<Alpha> {
        (Alpha::MIN_TH..=Alpha::MAX_TH)
            .contains(&dynamic_th)
            .then_some(Alpha { dynamic_th })
    }

    pub fn dynamic_th(self) -> i8 {
        self.dynamic_th
    }

    /// α as `(numerator, denominator)`, both powers of two.
    pub fn fraction(self) -> (u128, u128) {
        let shift = u32::from(self.dynamic_th.unsigned_abs());
        if self.dynamic_th >= 0 {
            (1 << shift, 1)
        } else {
            (1, 1 << shift)
        }
    }

    /// `α·bytes`, floored.
    pub fn times(self, bytes: u64) -> u64 {
        let (num, den) = self.fraction();
        saturate(u128::from(bytes) * num / den)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PauseThreshold {
    /// A shared-buffer share: pause when occupancy > α·(free shared buffer).
    Dynamic(Alpha),
    /// Pause when the PG's occupancy reaches this many bytes.
    Static(u64),
}

/// The worst-case dynamic pause point with `lossless_pgs` equally loaded PGs,
/// `T_xoff,min = α·B_s/(1 + α·N_pg)`, exactly (docs/physics.md §2).
pub fn dynamic_pause_point(alpha: Alpha, shared_buffer: u64, lossless_pgs: u64) -> Ratio {
    let (num, den) = alpha.fraction();
    // α·B/(1 + α·N) = num·B / (den + num·N); num ≤ 2^7, so nothing overflows u128.
    Ratio::new(
        num * u128::from(shared_buffer),
        den + num * u128::from(lossless_pgs),
    )
    .unwrap_or(Ratio::int(0))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetInput {
    /// The switch model's buffer, B.
    pub buffer: u64,
    /// Σ headroom over all lossless (port, priority); `n·L·H` when uniform.
    pub headroom_total: u64,
    /// Lossless PGs, `n·L` (ports × lossless priorities).
    pub lossless_pgs: u64,
    /// Other reservations: lossy PG minimums, egress reservations (HR-2).
    pub reserved: u64,
    pub threshold: PauseThreshold,
}

impl BudgetInput {
    /// `ports` ports, each with `priorities` lossless priorities of `headroom` bytes.
    /// Test support (the unit tests below and analysis/physics/properties.rs), not the product's.
    #[cfg(any(test, feature = "internals"))]
    pub fn uniform(
        buffer: u64,
        ports: u64,
        priorities: u64,
        headroom: u64,
        threshold: PauseThreshold,
    ) -> BudgetInput {
        let lossless_pgs = ports.saturating_mul(priorities);
        BudgetInput {
            buffer,
            headroom_total: lossless_pgs.saturating_mul(headroom),
            lossless_pgs,
            reserved: 0,
            threshold,
        }
    }
}

/// HR-2. Static: `n·L·T_xoff + ΣH + reserved ≤ B`; dynamic: `ΣH + reserved ≤ B`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferBudget {
    pub available: u64,
    pub fits: bool,
    /// The largest static threshold that fits, `⌊(B − ΣH − reserved)/(n·L)⌋`; `None` when the
    /// headroom alone does not fit or there is no lossless PG.
    pub max_static_threshold: Option<u64>,
    pub needed: u64,
    /// Dynamic only: `⌊α·B_s/(1 + α·N_pg)⌋`.
    pub pause_point: Option<u64>,
    /// B_s = B − ΣH − reserved (0 when negative): what the dynamic thresholds share.
    pub shared_buffer: u64,
}

pub fn buffer_budget(input: &BudgetInput) -> BufferBudget {
    let fixed = u128::from(input.headroom_total) + u128::from(input.reserved);
    let buffer = u128::from(input.buffer);
    let shared = buffer.saturating_sub(fixed);
    let pgs = u128::from(input.lossless_pgs);
    let max_static_threshold = (fixed <= buffer && pgs > 0).then(|| saturate(shared / pgs));
    let (needed, pause_point) = match input.threshold {
        PauseThreshold::Static(t) => (fixed + pgs * u128::from(t), None),
        PauseThreshold::Dynamic(alpha) => {
            let point = dynamic_pause_point(alpha, saturate(shared), input.lossless_pgs);
            (fixed, Some(saturate(point.floor())))
        }
    };
    BufferBudget {
        available: input.buffer,
        fits: needed <= buffer,
        max_static_threshold,
        needed: saturate(needed),
        pause_point,
        shared_buffer: saturate(shared),
    }
}

/// HR-4: lossless priorities used against the hardware's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriorityBudget {
    pub fits: bool,
    pub limit: u64,
    pub used: u64,
}

pub fn lossless_priority_budget(used: u64, limit: u64) -> PriorityBudget {
    PriorityBudget {
        fits: used <= limit,
        limit,
        used,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trident_ii_example() {
        // docs/physics.md §2 (Tagger §3.3): B = 12,000,000, n = 32, L = 8, H = 22,400 → T_xoff ≤ 24,475.
        let input = BudgetInput::uniform(12_000_000, 32, 8, 22_400, PauseThreshold::Static(24_475));
        let b = buffer_budget(&input);
        assert_eq!(b.max_static_threshold, Some(24_475));
        assert_eq!(b.needed, 12_000_000);
        assert!(b.fits);
        let b = buffer_budget(&BudgetInput {
            threshold: PauseThreshold::Static(24_476),
            ..input
        });
        assert_eq!(b.needed, 12_000_256);
        assert!(!b.fits);
    }

    #[track_caller]
    fn alpha_case(th: i8, expected: Option<(u128, u128)>) {
        assert_eq!(Alpha::new(th).map(Alpha::fraction), expected);
    }

    #[test]
    fn alpha_range() {
        alpha_case(0, Some((1, 1)));
        alpha_case(1, Some((2, 1)));
        alpha_case(7, Some((128, 1)));
        alpha_case(-1, Some((1, 2)));
        alpha_case(-8, Some((1, 256)));
        alpha_case(8, None);
        alpha_case(-9, None);
    }

    #[test]
    fn dynamic_budget() {
        // 64 MB, 64 ports × 2 priorities of 100,000 B headroom: B_s = 51,200,000;
        // α = 1: T = 51,200,000/129 = 396,899.2 → 396,899.
        let alpha = Alpha::new(0).unwrap();
        let input =
            BudgetInput::uniform(64_000_000, 64, 2, 100_000, PauseThreshold::Dynamic(alpha));
        let b = buffer_budget(&input);
        assert_eq!(b.needed, 12_800_000);
        assert_eq!(b.shared_buffer, 51_200_000);
        assert_eq!(b.pause_point, Some(396_899));
        assert_eq!(b.max_static_threshold, Some(400_000));
        assert!(b.fits);
        let p = dynamic_pause_point(Alpha::new(-1).unwrap(), 51_200_000, 128);
        // (1/2)·B/(1 + 64) = 393,846.15…
        assert_eq!((p.floor(), p.ceil()), (393_846, 393_847));
    }

    #[test]
    fn headroom_alone_too_big() {
        let input = BudgetInput {
            reserved: 1_000,
            ..BudgetInput::uniform(
                1_000_000,
                32,
                2,
                20_000,
                PauseThreshold::Dynamic(Alpha::new(0).unwrap()),
            )
        };
        let b = buffer_budget(&input);
        assert_eq!(b.needed, 1_281_000);
        assert!(!b.fits);
        assert_eq!(b.max_static_threshold, None);
        assert_eq!(b.shared_buffer, 0);
        assert_eq!(b.pause_point, Some(0));
    }

    #[test]
    fn extreme_inputs_saturate() {
        let b = buffer_budget(&BudgetInput::uniform(
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            PauseThreshold::Static(u64::MAX),
        ));
        assert_eq!(b.needed, u64::MAX);
        assert!(!b.fits);
        assert_eq!(
            buffer_budget(&BudgetInput::uniform(
                100,
                0,
                0,
                0,
                PauseThreshold::Static(5)
            ))
            .max_static_threshold,
            None
        );
    }

    #[test]
    fn priority_budget() {
        assert!(lossless_priority_budget(2, 2).fits);
        assert!(!lossless_priority_budget(3, 2).fits);
    }
}
