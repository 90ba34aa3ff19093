//! Facts: the numbers the analyses computed, as printed under `facts` by
//! `fabricc check --format json --facts` (field names fixed by the v1 JSON contract, see README.md) and used by the
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
    /// The ECN thresholds computed per switch queue (an addition to the v1 contract).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ecn: Vec<EcnRow>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DeadlockFacts {
    pub scenarios: u64,
    pub possible: bool,
    /// False when the failure scenarios exceeded `--max-scenarios` and were not proven
    /// (FAB204); `possible: false` then covers the fabric as declared only. (An addition to
    /// the v1 contract.)
    pub complete: bool,
    /// Every (endpoint pair, scenario) without a route, counted; `facts.unreachable` lists
    /// at most `--max-unreachable` of them. (An addition to the v1 contract.)
    pub unreachable_pairs: u64,
    /// Of `unreachable_pairs`, those cut off only because a failure scenario unplugged a NIC's
    /// own cable(s) (every cable of a NIC or bond): expected of single-homed NICs, so counted
    /// here and in one FAB701 advice, not listed in `facts.unreachable` (G1: they made the
    /// facts of a healthy rail design 20 MB). (An addition to the v1 contract.)
    pub own_cable_pairs: u64,
    /// What routed traffic is addressed to: `nic` (every NIC its own destination) or
    /// `nic-or-bond` (some hosts' NICs form one bond destination). (An addition to the v1
    /// contract; docs/deadlock.md.)
    pub destinations: String,
    /// Destination endpoints: NICs, a bond counting once. (An addition to the v1 contract.)
    pub endpoints: u64,
    /// Scenarios proven one by one, the fabric as declared included: one per class of
    /// symmetric scenarios (or every distinct scenario where classes do not pay), the first
    /// cutting ones again (for their pairs; not those that only unplug a NIC, which `check`
    /// counts without listing) and the witness. Every other scenario counted in
    /// `scenarios` empties the same bundles of parallel links as one of these, or is its image
    /// under a symmetry of the fabric (docs/deadlock.md). (An addition to the v1 contract.)
    pub proven: u64,
}

/// A pair of endpoints without a route. `from` and `to` are the hosts (v1); `from_nic` and
/// `to_nic` the NICs (a bond's NICs joined by `+`), an addition to the v1 contract.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Unreachable {
    pub from: String,
    pub to: String,
    /// The failed links of the scenario (`L2--T1`), empty for the intact fabric.
    pub scenario: Vec<String>,
    pub from_nic: String,
    pub to_nic: String,
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

/// ECN marking on one switch queue (a DCQCN class), with what it is judged against.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EcnRow {
    pub switch: String,
    pub class: String,
    /// The queue (= priority) of the class on this switch.
    pub priority: u8,
    pub enabled: bool,
    pub min_bytes: u64,
    pub max_bytes: u64,
    pub probability_percent: f64,
    /// The static pause threshold, or the worst-case dynamic pause point; `null` when unknown.
    pub pause_point_bytes: Option<u64>,
    /// `C·RTT/7` at the switch's fastest port: the smallest `min` that keeps the pipe full.
    pub min_kmin_bytes: u64,
}
