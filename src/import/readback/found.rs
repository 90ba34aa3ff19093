//! The differences a read-back finds (issue 34 item 2), shared by `readback.rs` and the
//! comparisons of `readback/…`.

use std::collections::BTreeMap;

use serde::Serialize;

/// One difference between the proven model and what a switch or host file says, over
/// `ports` (a host's: its NICs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    pub device: String,
    /// `pfc`, `mtu`, `dscp`, `ecn`, `scheduling`, `headroom`, `ecn-above-pause`, `port` (a
    /// proven port the file does not configure), `parse` (the file could not be read);
    /// `watchdog`, `pool`, `buffer-pool`, `pause-threshold`, `speed`, `hash`; on a host
    /// `mtu`, `trust`, `tos`, `cnp`, `pfc`, `dscp`, `ets`, `env`, `nic-pfc`, `nic-dscp`.
    pub property: &'static str,
    /// What it is about (`queue 3 min`, `DSCP 26`); empty for a port-wide value.
    pub what: String,
    pub proven: String,
    pub written: String,
    pub kind: Kind,
    /// How many ports, and the first few of them.
    pub count: usize,
    pub ports: Vec<String>,
}

/// Whether a difference is a mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Within one unit of the device (a cell, a kbyte, a fill level).
    Rounding,
    /// More than one unit, but what the target's own rules make of the proven value, which the
    /// renderer reports (Junos's high fill level at least 1 % above the low one, EOS's
    /// largest MTU 9214, NX-OS's pause threshold capped at the model's own pause point,
    /// which `check` reports as FAB312).
    Forced,
    /// Anything else: the file says something the checks did not prove.
    Mistake,
}

/// How many ports a difference names (the count has them all).
pub(super) const NAMED_PORTS: usize = 8;

/// (property, what, proven, written, kind) → ports.
pub(super) type Found = BTreeMap<(&'static str, String, String, String, Kind), Vec<String>>;

/// The differences of `found` as `device`'s, each naming the first ports it holds for.
pub(super) fn differences(device: &str, found: Found) -> Vec<Difference> {
    found
        .into_iter()
        .map(
            |((property, what, proven, written, kind), ports)| Difference {
                device: device.to_string(),
                property,
                what,
                proven,
                written,
                kind,
                count: ports.len(),
                ports: ports.into_iter().take(NAMED_PORTS).collect(),
            },
        )
        .collect()
}
