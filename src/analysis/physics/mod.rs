//! The physics layer: exact, pure functions for PFC headroom, pause thresholds, buffer
//! budgets and the ECN/DCQCN sanity rules, called by the analysis passes and the renderers.
//!
//! In: plain integers in the canonical units of `syntax::ast` — bytes (`u64`), link speed in
//! Mb/s, cable length in millimetres, time in nanoseconds, percentages in thousandths of a
//! percent (`100 %` = `100_000`). Out: plain structs of the same units, with every component
//! of a formula kept so reports can show the breakdown. Nothing here reads the model or
//! renders text.
//!
//! Exactness: no floating point. Every formula is evaluated in `u128` or as an exact fraction
//! ([`Ratio`]) and rounded once, in the direction each function documents (ceilings for
//! byte amounts that must be provided, floors for limits that must not be exceeded). Results
//! that would not fit a `u64` saturate at `u64::MAX`; they only arise from absurd inputs.
//!
//! Background and sources: `docs/physics.md` (§1 headroom, §2 pause thresholds and the buffer
//! budget HR-1…5, §3 ECN-1…11); the mlx5 driver's `calculate_xoff` (torvalds/linux:
//! drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c); SONiC's Mellanox dynamic
//! headroom (sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffer_headroom_mellanox.lua).

// Published presets, checked by their own tests; the compiler does not use them yet.
#[cfg(test)]
pub mod ecn_presets;
pub mod ecn_rules;
pub mod headroom;
pub mod nic_headroom;
pub mod ratio;
pub mod rtt;
pub mod sonic_headroom;
pub mod threshold;

/// A sum of byte counts that stops at `u64::MAX` instead of wrapping: a saturated total
/// still compares as "too much" against any buffer, where a wrapped one would pass.
pub fn saturating_sum(values: impl IntoIterator<Item = u64>) -> u64 {
    values.into_iter().fold(0, u64::saturating_add)
}

pub use ecn_rules::{EcnQueue, EcnViolation, EgressLimit, Marking, evaluate_ecn, min_kmin};
pub use headroom::{
    CableFit, Headroom, HeadroomInput, canonical_headroom, max_cable_for_headroom, round_up_to_cell,
};
pub use nic_headroom::{NicHeadroom, mlx5_xoff, nic_headroom};
pub use ratio::Ratio;
pub use rtt::{Rtt, derive_rtt};
// Test support (`properties.rs`, benches), not the product's: it names `sonic_headroom` items.
#[cfg(any(test, feature = "internals"))]
pub use sonic_headroom::{
    LuaRevision, SonicHeadroomInput, Spectrum, sonic_mellanox_headroom, sonic_mellanox_headroom_at,
};
pub use threshold::{
    Alpha, BudgetInput, PauseThreshold, buffer_budget, dynamic_pause_point,
    lossless_priority_budget,
};

/// Narrows an exact intermediate to the `u64` of the public API, saturating (see module doc).
pub(crate) fn saturate(value: u128) -> u64 {
    u64::try_from(value).unwrap_or(u64::MAX)
}

/// `⌈a / b⌉` for `b > 0`; `b = 0` gives 0, which callers rule out before.
pub(crate) fn ceil_div(a: u128, b: u128) -> u128 {
    if b == 0 { 0 } else { a.div_ceil(b) }
}

/// Properties over the whole layer (proptest), next to the formulas they hold for.
#[cfg(test)]
mod properties;
