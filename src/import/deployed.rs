//! What import reads from a deployed fabric, before the `.fab` is written: the places in the
//! state files (`Ev`), the findings (`Note`), each switch's parsed state in SONiC's shape
//! (`Switch`, with `Cumulus` where NVUE was read), hosts, and the cables joining them.
//!
//! These types sit below the readers (`sonic.rs`, `cumulus.rs`, `host.rs`) and the writer's
//! steps (`view.rs`, `classes.rs`, `write.rs`, `routes.rs`, `models.rs`), so that every
//! reader fills them and every writer step reads them without one importing another.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::Code;
use crate::verify::canon::{Canon, Loc, key_of};

/// A place in a state file: the index of the file among those the import read, and a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
pub struct Ev {
    pub file: usize,
    pub at: Loc,
}

/// Every setting of a configuration `verify::cli` canonicalised (Comware, VRP): its path, where
/// its line stands, and that line's words, as the view readers match them.
pub(super) fn cli_settings<'t>(
    text: &'t str,
    canon: &Canon,
    file: usize,
) -> Vec<(Vec<String>, Ev, Vec<&'t str>)> {
    canon
        .path_vecs()
        .into_iter()
        .map(|path| {
            let loc = canon.get(&key_of(&path)).unwrap_or_default();
            let words = text
                .get(loc.start as usize..loc.end as usize)
                .unwrap_or_default()
                .split_whitespace()
                .collect();
            (path, Ev { file, at: loc }, words)
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoteKind {
    NoState,
    Unreadable,
    NoTopology,
    NoCable,
    PortsDiffer,
    CannotCarry,
    Inferred,
    Route,
    HostNoState,
    /// A switch puts a class in another egress queue than the fabric's plan.
    OtherQueue,
    /// A port does not pause a priority its switch runs lossless (FAB505, issue 34 U17).
    PortNotLossless,
    /// A port pauses a priority its switch runs lossy (FAB814).
    PortExtraPfc,
    /// The two ends of a link pause different priorities (FAB507).
    LinkPfcDiffers,
    /// A `BUFFER_PG` entry fabricc would not write (FAB815).
    StrayBufferPg,
}

impl NoteKind {
    pub(super) fn code(self) -> Code {
        match self {
            NoteKind::NoState => Code::ImportNoState,
            NoteKind::Unreadable => Code::ImportUnreadable,
            NoteKind::NoTopology => Code::ImportNoTopology,
            NoteKind::NoCable => Code::ImportNoCable,
            NoteKind::PortsDiffer => Code::ImportPortsDiffer,
            NoteKind::CannotCarry => Code::ImportCannotCarry,
            NoteKind::Inferred => Code::ImportInferred,
            NoteKind::Route => Code::ImportRoute,
            NoteKind::HostNoState => Code::ImportHostNoState,
            NoteKind::OtherQueue => Code::ImportOtherQueue,
            NoteKind::PortNotLossless => Code::LosslessDscpLossy,
            NoteKind::PortExtraPfc => Code::ImportPortExtraPfc,
            NoteKind::LinkPfcDiffers => Code::PfcMismatch,
            NoteKind::StrayBufferPg => Code::ImportStrayBufferPg,
        }
    }
}

/// An import finding before its file has an id in `Sources`.
#[derive(Debug, Clone)]
pub struct Note {
    pub kind: NoteKind,
    pub at: Ev,
    pub message: String,
    pub help: Option<String>,
    /// The port (or host) the finding is about, as the message names it in backticks: the
    /// same finding on several ports of one state file is one diagnostic listing them
    /// (issue 34, U17), see `group`.
    pub port: Option<String>,
}

impl Note {
    pub fn new(kind: NoteKind, at: Ev, message: impl Into<String>) -> Self {
        Note {
            kind,
            at,
            message: message.into(),
            help: None,
            port: None,
        }
    }

    /// The port (or host) the message names in backticks, by which it is grouped.
    pub fn port(mut self, p: impl Into<String>) -> Self {
        self.port = Some(p.into());
        self
    }

    pub fn help(mut self, h: impl Into<String>) -> Self {
        self.help = Some(h.into());
        self
    }
}

// A SONiC switch as `sonic.rs` reads it (`cumulus.rs` fills the same shape).

/// A port's WRED/ECN profile as the `.fab` states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Wred {
    /// The thresholds in bytes; 0 where the device states fill levels (`fill`) and the
    /// reader has no base to turn them into bytes (import: the `.fab` states the levels).
    pub min: u64,
    pub max: u64,
    pub probability: u64,
    /// `ecn` is not `ecn_none`.
    pub ecn: bool,
    /// The thresholds as the device states them where that is a fill level (Junos's
    /// `fill-level [ lo hi ]`, whole percent of what one queue may hold): the `.fab` states
    /// `ecn min lo% max hi%` (issue 34 item 1), which `check` turns into bytes with the
    /// platform's buffer as the renderer does.
    pub fill: Option<(u64, u64)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sched {
    Strict,
    Weight(u64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Threshold {
    Static(u64),
    Dynamic(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Watchdog {
    pub detect_ms: u64,
    pub restore_ms: u64,
    pub action: &'static str,
    /// `PFC_WD|GLOBAL` `POLL_INTERVAL`.
    pub poll_ms: Option<u64>,
}

/// A lossless PG profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgProfile {
    pub name: String,
    pub xoff: Option<u64>,
    pub size: Option<u64>,
    pub threshold: Option<Threshold>,
    /// The `BUFFER_PG` entry's `profile` field.
    pub at: Ev,
    /// The profile's `xoff` field.
    pub xoff_at: Ev,
}

#[derive(Debug, Clone, Default)]
pub struct Port {
    pub speed_mbps: Option<u64>,
    /// `speed_mbps` is what the reader takes where the file states no speed (Junos: an
    /// unbroken port runs at 400G), not the file's: the read-back does not compare it.
    pub speed_assumed: bool,
    pub mtu: Option<(u64, Ev)>,
    pub lanes: Option<u32>,
    pub at: Ev,
    pub cable_mm: Option<(u64, Ev)>,
    /// DSCP → TC, and where the map is.
    pub dscp: Option<(BTreeMap<u8, u8>, Ev)>,
    /// Where each DSCP's entry of that map is.
    pub dscp_at: BTreeMap<u8, Ev>,
    pub pfc: Option<(BTreeSet<u8>, Ev)>,
    pub sched: BTreeMap<u8, (Sched, Ev)>,
    pub wred: BTreeMap<u8, (Wred, Ev)>,
    /// Lossless PG → profile.
    pub pg: BTreeMap<u8, PgProfile>,
    pub watchdog: Option<(Watchdog, Ev)>,
    /// The queue plan: TC → egress queue (`TC_TO_QUEUE_MAP`; a TC the map leaves out is its
    /// own queue), and where the port names the map.
    pub tc_queue: Option<([u8; 8], Ev)>,
    /// TC → priority group (`TC_TO_PRIORITY_GROUP_MAP`; a TC left out is on PG 0).
    pub tc_pg: Option<([u8; 8], Ev)>,
    /// PFC priority → queue (`MAP_PFC_PRIORITY_TO_QUEUE`), the entries the map holds.
    pub pfc_queue: Option<(BTreeMap<u8, u8>, Ev)>,
    /// Queue → its scheduler's rate cap (`pir`), where the QUEUE entry names the scheduler.
    pub shaper: BTreeMap<u8, (Shaper, Ev)>,
}

/// A scheduler's rate cap: orchagent gives `cir`/`pir` to SAI as
/// `SAI_SCHEDULER_ATTR_MIN/MAX_BANDWIDTH_RATE`, in bytes/s where `meter_type` is `bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shaper {
    pub pir: u64,
    pub cir: Option<u64>,
    /// `meter_type` is `bytes` (else packets/s, which no percent of a port speed is).
    pub bytes: bool,
}

#[derive(Debug, Clone)]
pub struct StaticRoute {
    pub prefix: String,
    pub nexthops: Vec<String>,
    pub ifnames: Vec<String>,
    pub at: Ev,
}

#[derive(Debug, Clone, Default)]
pub struct Switch {
    pub platform: Option<String>,
    pub hwsku: Option<String>,
    pub buffer_model: Option<String>,
    /// The egress pools' sizes added up (where the lossless and lossy pools split the buffer).
    pub buffer: Option<(u64, Ev)>,
    /// The egress lossless pool's size (where it is the whole buffer and the others share it).
    pub lossless_pool: Option<u64>,
    /// The ingress pools' sizes added up, where the file sizes them, and where the first is.
    pub ingress_pools: Option<(u64, Ev)>,
    /// `ingress_lossless_pool`'s size and its shared headroom pool (`xoff`), where written.
    pub ingress_lossless_pool: Option<(u64, Option<u64>)>,
    pub ports: BTreeMap<String, Port>,
    /// Port → (neighbour, its port, where).
    pub neighbours: BTreeMap<String, (String, String, Ev)>,
    pub routes: Vec<StaticRoute>,
    /// (port, address/len).
    pub interfaces: Vec<(String, String)>,
    /// A Cumulus switch (read from `startup.yaml`, `cumulus.rs`), not a SONiC one.
    pub cumulus: Option<Cumulus>,
    /// An EOS, NX-OS or Junos switch (`eos.rs`, …), not a SONiC one.
    pub vendor: Option<Vendor>,
    /// `SWITCH_HASH|GLOBAL` `ecmp_hash` as `load-balance { hash … }` keywords, in the
    /// `.fab`'s order, and where the list is; `None` when the switch sets none, or sets a
    /// field the `.fab` has no keyword for (a note says so).
    pub hash: Option<(Vec<&'static str>, Ev)>,
    /// Junos's IPv4 and IPv6 hash fields where its `enhanced-hash-key inet` and `inet6` remove
    /// different ones (then `hash` is `None`: the `.fab` states one hash for both).
    pub hash_split: Option<(Vec<&'static str>, Vec<&'static str>)>,
}

/// What a Cumulus switch adds to the SONiC shape.
#[derive(Debug, Clone, Default)]
pub struct Cumulus {
    /// `version` of the `- header:` item: `Cumulus Linux 5.14.0` → `5.14`.
    pub release: Option<String>,
    /// `model` of the `- header:` item (`SN5600`).
    pub model: Option<String>,
    /// Port → (front-panel cage, sub-port) from its name (`swp3` → (2, None), `swp3s1` →
    /// (2, Some(1))).
    pub cages: BTreeMap<String, (u32, Option<u32>)>,
}

/// What an EOS, NX-OS or Junos switch adds to the SONiC shape: the OS, its release and the
/// catalogue platform its configuration names (the writer names its ports as the renderer
/// does, `vendor.rs`).
#[derive(Debug, Clone)]
pub struct Vendor {
    pub os: crate::syntax::ast::Os,
    /// `4.35` (EOS), `10.4` (NX-OS), `23.4` (Junos), where the configuration says it.
    pub release: Option<String>,
    /// The catalogue platform's name (`arista-7060x6-64pe`) and how it was found.
    pub platform: Option<(String, String)>,
    /// Where the platform was read (the header line), for the model's finding.
    pub platform_at: Option<Ev>,
    /// The configuration holds no cable lengths (one note per switch, not one per link).
    pub no_cables: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Nic {
    /// `nic1`, … (1-based number).
    pub number: u32,
    pub netdev: Option<String>,
    pub pci: Option<String>,
    /// The netdev MTU.
    pub mtu: Option<(u64, Ev)>,
    /// Priorities with PFC on.
    pub pfc: Option<(Vec<u8>, Ev)>,
    /// The RoCE ToS (DSCP << 2 | ECN bits).
    pub tos: Option<(u64, Ev)>,
    pub cnp_dscp: Option<(u64, Ev)>,
}

#[derive(Debug, Clone, Default)]
pub struct Host {
    pub driver: Option<String>,
    pub nics: Vec<Nic>,
}

/// A switch read from its state.
pub(crate) struct SwitchDev {
    pub name: String,
    pub sw: Switch,
    pub file: usize,
}

/// A host read from its state (or only seen by its neighbours).
pub(crate) struct HostDev {
    pub name: String,
    pub host: Option<Host>,
    pub file: Option<usize>,
}

/// One cable: a switch port and its peer.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Cable {
    pub switch: String,
    pub port: String,
    pub peer: Peer,
    pub at: Ev,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Peer {
    Switch(String, String),
    /// Host and NIC number.
    Host(String, u32),
}

/// Everything read, before the `.fab` is written.
pub(crate) struct Deployed {
    pub switches: Vec<SwitchDev>,
    pub hosts: Vec<HostDev>,
    pub cables: Vec<Cable>,
    pub files: Vec<(String, String)>,
    pub notes: Vec<Note>,
}

/// Natural order: `leaf2` before `leaf10`.
pub(crate) fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    crate::model::names::natural_cmp(a, b)
}
