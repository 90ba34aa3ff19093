//! Facts: the numbers the analyses computed, as printed under `facts` by
//! `fabricc check --format json --facts` (field names fixed by LANGUAGE.md) and used by the
//! report and the renderers.

use serde::Serialize;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Facts {
    pub switches: usize,
    pub hosts: usize,
    pub links: usize,
    /// Filled by the deadlock analysis; `None` until it has run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadlock: Option<DeadlockFacts>,
    pub unreachable: Vec<Unreachable>,
    pub oversubscription: Vec<OversubscriptionRow>,
    pub headroom: Vec<HeadroomRow>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DeadlockFacts {
    pub scenarios: u64,
    pub possible: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Unreachable {
    pub from: String,
    pub to: String,
    /// The failed links of the scenario (`L2--T1`), empty for the intact fabric.
    pub scenario: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OversubscriptionRow {
    pub switch: String,
    pub down_gbps: u64,
    pub up_gbps: u64,
    /// down / up; `null` for a switch without uplinks.
    pub ratio: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeadroomRow {
    pub switch: String,
    pub peer: String,
    pub priority: u8,
    pub speed_gbps: u64,
    pub cable_m: serde_json::Number,
    pub mtu: u64,
    pub required_bytes: u64,
    pub configured_bytes: u64,
    /// `None` where the pause threshold is dynamic.
    pub pause_threshold_bytes: Option<u64>,
}
