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
//! References (`/work/shared/reference/`): `theory.md` §2.3–2.4 (ECN before PFC, ECN-1…11),
//! §3.1–3.2 and §3.5 (headroom, HR-1…5); `vendors.md` §1.2 (mlx5 `calculate_xoff`);
//! `sonic.md` §5.1 and §5.3 (SONiC Mellanox dynamic headroom).

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

pub use ecn_presets::{ECN_PRESETS, EcnPreset};
pub use ecn_rules::{
    EcnQueue, EcnRule, EcnViolation, EgressLimit, Marking, evaluate_ecn, min_kmin,
};
pub use headroom::{
    CableFit, Headroom, HeadroomInput, PauseQuanta, QuantaSource, canonical_headroom,
    max_cable_for_headroom, pause_quanta, round_up_to_cell,
};
pub use nic_headroom::{
    MlnxCableLen, NicHeadroom, NicThresholds, mlnx_qos_cable_len, mlx5_thresholds, mlx5_xoff,
    nic_headroom,
};
pub use ratio::Ratio;
pub use rtt::{Rtt, RttSource, derive_rtt};
pub use sonic_headroom::{
    AsicConstants, LuaRevision, SonicHeadroom, SonicHeadroomError, SonicHeadroomInput, Spectrum,
    sonic_mellanox_headroom, sonic_mellanox_headroom_at,
};
pub use threshold::{
    Alpha, BudgetInput, BufferBudget, PauseThreshold, PriorityBudget, buffer_budget,
    dynamic_pause_point, lossless_priority_budget,
};

/// Narrows an exact intermediate to the `u64` of the public API, saturating (see module doc).
pub(crate) fn saturate(value: u128) -> u64 {
    u64::try_from(value).unwrap_or(u64::MAX)
}

/// `⌈a / b⌉` for `b > 0`; `b = 0` gives 0, which callers rule out before.
pub(crate) fn ceil_div(a: u128, b: u128) -> u128 {
    if b == 0 { 0 } else { a.div_ceil(b) }
}
