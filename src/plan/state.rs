//! The vocabulary of a plan: the versions a device runs during a rollout, a device across
//! those versions, and what changes between two of them.

use serde::Serialize;

use crate::model::Fabric;
use crate::render::{HostContext, SwitchContext};

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

    pub fn settings(&self, v: Version) -> settings::Settings {
        match (self.switch[v as usize], self.host[v as usize]) {
            (Some(s), _) => settings::switch(s),
            (_, Some(h)) => settings::host(h),
            _ => settings::Settings::new(),
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
        let (sa, sb) = (self.settings(a), self.settings(b));
        // A port that joins or leaves the fabric is one kind of change, whatever its keys.
        let port_of = |key: &str| {
            key.strip_prefix("sonic.ports[")
                .or_else(|| key.strip_prefix("ports["))
                .and_then(|r| r.split_once(']'))
                .map(|(p, _)| format!("ports[{p}].name"))
        };
        settings::delta(&sa, &sb)
            .into_iter()
            .map(|d| {
                let moved_port = self.kind == DeviceKind::Switch
                    && port_of(&d.key).is_some_and(|n| sa.contains_key(&n) != sb.contains_key(&n));
                let kind = if moved_port {
                    Kind::Port
                } else if self.kind == DeviceKind::Switch {
                    disruption::switch_kind(&d.key)
                } else {
                    disruption::host_kind(&d.key)
                };
                let (disruption, source) = disruption::disruption(self.target, kind);
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
