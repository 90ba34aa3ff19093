//! How bad a finding is and what it is about. The code table (`code.rs`) gives every code its
//! default severity and category, and every finding carries them, so they sit below both.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Advice,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Advice => "advice",
        }
    }
}

/// The finding categories of the JSON contract (v1 JSON contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Syntax,
    Name,
    Topology,
    Routing,
    Deadlock,
    Ecn,
    Headroom,
    Buffer,
    Qos,
    Watchdog,
    Output,
    /// `fabricc verify`: a device's collected state differs from what fabricc generated.
    Drift,
    /// `fabricc verify`: an LLDP neighbour differs from the cabling plan.
    Wiring,
    /// `fabricc import`: what reading a deployed fabric's state could not carry or infer.
    Import,
    /// `fabricc plan`: a state the fabric passes through while a change rolls out.
    Rollout,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Syntax => "syntax",
            Category::Name => "name",
            Category::Topology => "topology",
            Category::Routing => "routing",
            Category::Deadlock => "deadlock",
            Category::Ecn => "ecn",
            Category::Headroom => "headroom",
            Category::Buffer => "buffer",
            Category::Qos => "qos",
            Category::Watchdog => "watchdog",
            Category::Output => "output",
            Category::Drift => "drift",
            Category::Wiring => "wiring",
            Category::Import => "import",
            Category::Rollout => "rollout",
        }
    }
}
