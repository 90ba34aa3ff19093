//! The vocabulary of a plan: the versions a device runs during a rollout, a device across
//! those versions, and what changes between two of them.

use serde::Serialize;

use crate::model::Fabric;
use crate::render::{HostContext, SwitchContext, SwitchOs};

use super::disruption::{self, Disruption, Kind, Target};
use super::settings;

/// In which order the plan moves switches and hosts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Make-before-break through the bridge where a class or MTU changes; switches first
    /// otherwise.
    Auto,
    /// Every switch, then every host, without a bridge.
    SwitchesFirst,
    /// Every host, then every switch, without a bridge.
    HostsFirst,
}

/// What the plan needs besides the two fabrics.
#[derive(Debug, Clone)]
pub struct Options {
    pub order: Order,
    /// At most this percent of a tier's switches, or of the hosts, are in one wave (1..=100).
    pub max_unavailable_percent: u8,
    /// Devices replaced by new hardware (RMA): drained, swapped and given their whole
    /// configuration, even where it does not change.
    pub replace: Vec<String>,
}

/// The configuration a device runs at a point of the rollout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Version {
    /// The device is not in the fabric (yet, or any more).
    Absent,
    Old,
    /// The bridge state: both class plans accepted; a host still marks as in OLD.
    Bridge,
    /// Hosts only: the bridge's mapping, marking as in NEW.
    BridgeMarkingNew,
    New,
}

impl Version {
    pub fn as_str(self) -> &'static str {
        match self {
            Version::Absent => "absent",
            Version::Old => "old",
            Version::Bridge => "bridge",
            Version::BridgeMarkingNew => "bridge, new marking",
            Version::New => "new",
        }
    }
}

/// One setting of a device that the change moves.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    pub key: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub kind: Kind,
    pub disruption: Disruption,
    pub source: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DeviceKind {
    Switch,
    Host,
}

/// One device across the versions: its contexts, where it has them.
pub(crate) struct Device<'a> {
    pub name: String,
    pub kind: DeviceKind,
    pub target: Target,
    /// The switch's tier (1 = leaf); hosts 0.
    pub tier: u8,
    pub switch: [Option<&'a SwitchContext>; 5],
    pub host: [Option<&'a HostContext>; 5],
    /// The most disruptive change from OLD to NEW, once the plan has computed the changes
    /// (a phase from OLD to NEW then need not compute them again).
    pub old_to_new: Option<Disruption>,
}

impl Device<'_> {
    pub fn present(&self, v: Version) -> bool {
        self.switch[v as usize].is_some() || self.host[v as usize].is_some()
    }

    /// Whether the device's configuration differs between two versions.
    pub fn differs(&self, a: Version, b: Version) -> bool {
        match self.kind {
            DeviceKind::Switch => self.switch[a as usize] != self.switch[b as usize],
            DeviceKind::Host => self.host[a as usize] != self.host[b as usize],
        }
    }

    /// The changes from `a` to `b`, classified.
    pub fn changes(&self, a: Version, b: Version) -> Vec<Change> {
        if !self.present(a) || !self.present(b) {
            let (old, new, source) = if self.present(b) {
                (
                    None,
                    Some("present"),
                    "a new device: it carries no traffic before it is turned up",
                )
            } else {
                (
                    Some("present"),
                    None,
                    "the device leaves the fabric: it is drained, then removed",
                )
            };
            return vec![Change {
                key: "device".into(),
                old: old.map(str::to_string),
                new: new.map(str::to_string),
                kind: Kind::Port,
                disruption: Disruption::Hitless,
                source,
            }];
        }
        if !self.differs(a, b) {
            return Vec::new();
        }
        let (os, va, vb) = match self.kind {
            DeviceKind::Switch => {
                let (va, vb) =
                    settings::switch_values(self.switch[a as usize], self.switch[b as usize]);
                (self.switch[a as usize].map(|c| c.os), va, vb)
            }
            DeviceKind::Host => (
                None,
                self.host[a as usize].map_or(serde_json::Value::Null, settings::host_value),
                self.host[b as usize].map_or(serde_json::Value::Null, settings::host_value),
            ),
        };
        settings::diff(os, &va, &vb)
            .into_iter()
            .map(|d| {
                // A port that joins or leaves the fabric is one kind of change, whatever its keys.
                let moved_port =
                    d.whole && (d.key.starts_with("ports[") || d.key.starts_with("sonic.ports["));
                let kind = if moved_port {
                    Kind::Port
                } else if self.kind == DeviceKind::Switch {
                    match disruption::switch_kind(&d.key) {
                        // A priority group that appears or goes with a lossless class is the
                        // class plan's change; a resized one is the headroom's.
                        Kind::Headroom if d.old.is_none() || d.new.is_none() => Kind::ClassPlan,
                        k => k,
                    }
                } else {
                    disruption::host_kind(&d.key)
                };
                let (disruption, source) = match (self.target, kind) {
                    // What Cumulus restarts for depends on the release (C14).
                    (Target::Switch(SwitchOs::Cumulus), Kind::LoadBalance) => {
                        disruption::cumulus_load_balance(
                            self.switch[b as usize].and_then(|c| c.release),
                            &d.key,
                        )
                    }
                    _ => disruption::disruption(self.target, kind),
                };
                Change {
                    key: d.key,
                    old: d.old,
                    new: d.new,
                    kind,
                    disruption,
                    source,
                }
            })
            .collect()
    }
}

/// The versions a plan moves devices through, and their fabrics.
pub(crate) struct Versions<'a> {
    pub old: &'a Fabric,
    pub new: &'a Fabric,
    pub bridge: Option<&'a Fabric>,
}

pub fn target_name(t: Target) -> &'static str {
    match t {
        Target::Switch(os) => os.as_str(),
        Target::Host(driver) => driver,
    }
}

/// Names in natural order (`leaf2` before `leaf10`), as the model sorts devices.
pub(crate) fn natural(name: &str) -> (String, u64, String) {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (stem, num) = name.split_at(name.len() - digits);
    (stem.to_string(), num.parse().unwrap_or(0), name.to_string())
}
