//! The serde form of a fabric (the YAML/JSON document): what `fabricc export` prints and what
//! a `.yaml` input file holds. Every device is listed, every link sits on named ports
//! (`leaf1.port3`, `gpu001.nic2`), units are in the field names. Reading it is
//! `syntax::yaml::parse_yaml`; writing it from a resolved fabric is `model::export`.

use serde::{Deserialize, Deserializer, Serialize};

/// The start of the message of a percentage that is negative or not a number, which
/// `yaml_error` reports as FAB005 (R3: they used to be clamped to 0 in silence).
pub const NOT_A_PERCENTAGE: &str = "not a percentage:";

/// Whether `v` is a percentage [`percent`] accepts.
pub fn is_percentage(v: f64) -> bool {
    v.is_finite() && v >= 0.0
}

/// A percentage: a finite number, not negative (the checks judge the upper bound with the
/// property's own finding).
fn percent<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if is_percentage(v) {
        Ok(v)
    } else {
        Err(serde::de::Error::custom(format!(
            "{NOT_A_PERCENTAGE} `{v}` (a percentage is a number from 0)"
        )))
    }
}

fn opt_percent<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    percent(d).map(Some)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FabricDoc {
    pub version: u32,
    pub fabric: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub mtu: u64,
    pub roce_mtu: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_ns: Option<u64>,
    /// The fabric-level `buffer-model`, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_model: Option<String>,
    /// The fabric's `load-balance` block, when written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_balance: Option<LoadBalanceDoc>,
    /// The fabric's `allow` codes (`[FAB905, FAB954]`), when written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    pub pfc_watchdog: WatchdogDoc,
    pub classes: Vec<ClassDoc>,
    pub switch_models: Vec<SwitchModelDoc>,
    pub nic_models: Vec<NicModelDoc>,
    pub switches: Vec<SwitchDoc>,
    pub hosts: Vec<HostDoc>,
    pub links: Vec<LinkDoc>,
    pub routing: RoutingDoc,
}

/// `load-balance { … }`: keywords as in the language (`hash: [src-ip, roce-qp]`,
/// `mode: flowlet`, `seed: per-tier` or a number as text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadBalanceDoc {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hash: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flowlet_gap_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qps_per_connection: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_data_on_qps: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchdogDoc {
    pub enabled: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detect_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassDoc {
    pub name: String,
    /// `other`, or the DSCP values; absent when hosts never send the class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dscp: Option<DscpDoc>,
    pub priority: u8,
    pub lossless: bool,
    pub congestion: String,
    pub ecn: EcnDoc,
    /// `strict`, or the ETS share in percent.
    pub scheduling: SchedulingDoc,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pfc_threshold_bytes: Option<u64>,
    #[serde(default)]
    pub cnp: bool,
    /// The switch traffic class; absent: the priority.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic_class: Option<u8>,
    /// The switch egress queue; absent: the traffic class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<u8>,
    /// Egress rate cap, whole percent of the port speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_percent: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ecn_at_speed: Vec<EcnAtSpeedDoc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DscpDoc {
    Other(String),
    Values(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SchedulingDoc {
    Strict(String),
    /// `bandwidth_percent` is checked where it is read (`mod.rs`): a failed field inside an
    /// untagged enum only says that no variant matched.
    Ets {
        bandwidth_percent: Option<f64>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EcnDoc {
    pub enabled: bool,
    /// Absent: the fill level below, else the language default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `min_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub min_fill_percent: Option<f64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `max_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub max_fill_percent: Option<f64>,
    #[serde(deserialize_with = "percent")]
    pub probability_percent: f64,
}

/// `ecn SPEED …`: thresholds for the ports of one speed; absent fields are the class's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EcnAtSpeedDoc {
    pub speed_mbps: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `min_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub min_fill_percent: Option<f64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `max_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub max_fill_percent: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub probability_percent: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchModelDoc {
    pub name: String,
    /// The catalogue platform; the resolved numbers below are written out as well.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    pub os: String,
    /// `5.14` (Cumulus only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    pub ports: Vec<PortGroupDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lossless_limit: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell_bytes: Option<u64>,
    #[serde(default)]
    pub dynamic_threshold: i8,
    /// Set on the model itself (a fabric-level or platform default is not repeated here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_model: Option<String>,
    /// On a modular chassis: the line cards, one entry per run of slots with the same card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub linecards: Vec<LinecardDoc>,
    /// `sku "PATH"` (SONiC): the SKU folder, relative to the file that names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sku: Option<String>,
}

/// `linecard FIRST..LAST CARD`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinecardDoc {
    pub first_slot: u32,
    pub last_slot: u32,
    pub card: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortGroupDoc {
    /// Ports, or cages when `breakout` is given.
    pub count: u32,
    /// Port speed, or the cage's speed when `breakout` is given.
    pub speed_mbps: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breakout: Option<BreakoutDoc>,
}

/// `breakout WAYS x SPEED` of a port group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreakoutDoc {
    pub ways: u32,
    pub speed_mbps: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NicModelDoc {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    pub driver: String,
    /// Each port's speed.
    pub speed_mbps: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_bytes: Option<u64>,
    /// Ports per NIC (`ports 2 x 200G`); absent for one. A host's `nics` list has one entry
    /// per port, card-major.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub ports: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchDoc {
    pub name: String,
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mtu: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pfc_watchdog: Option<WatchdogDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<OverrideDoc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverrideDoc {
    pub class: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dscp: Option<DscpDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lossless: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub congestion: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecn_enabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecn_min_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecn_max_bytes: Option<u64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `ecn_min_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub ecn_min_fill_percent: Option<f64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `ecn_max_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub ecn_max_fill_percent: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub ecn_probability_percent: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduling: Option<SchedulingDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pfc_threshold_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headroom_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ecn_at_speed: Vec<EcnAtSpeedDoc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostDoc {
    pub name: String,
    pub nics: Vec<NicDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pfc: Option<bool>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ecn_off: bool,
    /// `bond lacp|active-backup|balance-xor` (issue 18): each multi-port NIC's ports form one
    /// bond in that mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bond: Option<String>,
    /// `spare` (issue 18): a backup host, out of the oversubscription ratio.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spare: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<OverrideDoc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NicDoc {
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub netdev: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rdma_device: Option<String>,
    /// `0000:0c:00.0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pci: Option<String>,
    /// `storage` or `frontend` (issue 18 item 4); absent: `backend`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The independent plane (`planes N`, 1-based) this port is wired into; absent (0) when
    /// the fabric is one plane. Kept so a twin-plane fabric is judged the same from its YAML.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub plane: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkDoc {
    pub a: String,
    pub b: String,
    pub speed_mbps: u64,
    pub cable_mm: u64,
    /// `ecn CLASS …` on the link.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ecn: Vec<LinkEcnDoc>,
}

/// A link's thresholds for one class; absent fields are the class's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkEcnDoc {
    pub class: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `min_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub min_fill_percent: Option<f64>,
    /// A fill level (issue 34): percent of what one queue of the class may hold on the
    /// switch, instead of `max_bytes`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub max_fill_percent: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_percent"
    )]
    pub probability_percent: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingDoc {
    pub model: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<RouteDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fail: Vec<FailDoc>,
    #[serde(default)]
    pub check_failures: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<PathDoc>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rewrites: Vec<RewriteDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounce_tagging: Option<Vec<u8>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteDoc {
    pub at: String,
    pub to: String,
    pub via: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailDoc {
    pub a: String,
    pub b: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    pub hops: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RewriteDoc {
    pub at: String,
    pub from: String,
    pub to: String,
    pub old: u8,
    pub new: u8,
}
