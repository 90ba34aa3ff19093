//! The resolved model: `ast::File`s in, one `Fabric` out. Names are expanded and bound to
//! typed IDs, defaults and overrides are applied, every link sits on concrete ports, and the
//! topology is a petgraph graph. Every value keeps the span that set it, so an analysis can
//! point at the class, the override or the model a number came from.

pub mod export;
pub mod format;
pub mod generate;
pub mod git;
pub mod limits;
pub mod load;
pub mod mtu;
pub mod names;
pub mod qos;
pub mod resolve;
mod roles;
mod spares;
pub mod target;
pub mod topology;
pub mod units;

use petgraph::graph::UnGraph;
use serde::Serialize;

use crate::catalogue::{CardPort, ChassisPlace, NicPlatform, Platform};
use crate::span::Span;
pub use crate::syntax::ast::{
    BondMode, BufferModel, Congestion, HashField, LbMode, LbSeed, NicRole, Os, RoutingModel,
    WatchdogAction,
};
pub use limits::Limits;
pub use roles::off_fabric_note;
pub use units::{Bytes, Mbps, Millimetres, Nanoseconds};

/// A value and the place that set it; `default` when no statement did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sourced<T> {
    pub value: T,
    pub span: Span,
    pub default: bool,
}

impl<T> Sourced<T> {
    pub fn set(value: T, span: Span) -> Self {
        Self {
            value,
            span,
            default: false,
        }
    }

    pub fn default_at(value: T, span: Span) -> Self {
        Self {
            value,
            span,
            default: true,
        }
    }

    /// The same place and provenance, the value converted (a number into its unit).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Sourced<U> {
        Sourced {
            value: f(self.value),
            span: self.span,
            default: self.default,
        }
    }
}

macro_rules! id_type {
    ($($name:ident),*) => {$(
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}
id_type!(
    ClassId,
    SwitchModelId,
    NicModelId,
    SwitchId,
    HostId,
    LinkId,
    TierId
);

/// A switch or a host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum DeviceId {
    Switch(SwitchId),
    Host(HostId),
}

/// The resolved fabric.
#[derive(Debug, Clone)]
pub struct Fabric {
    pub name: String,
    /// The fabric name in the source; findings about the fabric as a whole point here.
    pub span: Span,
    pub description: Option<Sourced<String>>,
    /// Switch port MTU in bytes.
    pub mtu: Sourced<Bytes>,
    /// RDMA path MTU on the hosts.
    pub roce_mtu: Sourced<Bytes>,
    /// Base round-trip time, when given.
    pub rtt: Option<Sourced<Nanoseconds>>,
    pub watchdog: Sourced<Watchdog>,
    /// `buffer-model` at fabric level: the SONiC buffer manager of models that do not say.
    pub buffer_model: Option<Sourced<BufferModel>>,
    /// `load-balance { … }`: the ECMP hashing / load-balancing policy; `None` when the
    /// source has no such block (every target then keeps its platform default, unstated).
    pub load_balance: Option<LoadBalance>,
    /// `allow FAB905, FAB954`: warning codes accepted for this fabric, where each was written.
    pub allow: Vec<Sourced<crate::diagnostic::Code>>,
    pub classes: Vec<Class>,
    pub switch_models: Vec<SwitchModel>,
    pub nic_models: Vec<NicModel>,
    /// Sorted by name (natural order); `SwitchId` indexes this.
    pub switches: Vec<Switch>,
    /// Sorted by name (natural order); `HostId` indexes this.
    pub hosts: Vec<Host>,
    pub links: Vec<Link>,
    pub tiers: Vec<Tier>,
    pub routing: Routing,
    pub topology: Topology,
}

// ---------------------------------------------------------------- classes

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dscp {
    /// Every DSCP value no other class claims.
    Other,
    /// Sorted, deduplicated values.
    Values(Vec<u8>),
}

/// ETS scheduling of a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduling {
    Strict,
    /// Share in thousandths of a percent; `None` when the class gave neither share nor strict.
    Ets(Option<u64>),
}

/// ECN marking on a class's egress queue. Sizes in bytes, probability in thousandths of a percent.
///
/// A threshold written as a fill level (`ecn min 55%`, issue 34) keeps its percentage in
/// `min_fill` / `max_fill` (thousandths of a percent of what one queue of the class may hold
/// on the switch, [`FillBase`]); its bytes in `min` / `max` are then the bytes on the switch a
/// view is for ([`Ecn::resolved`], done by `Fabric::switch_class`), a placeholder (the
/// language default) before that, or where the switch's base is unknown (FAB115).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ecn {
    pub enabled: Sourced<bool>,
    pub min: Sourced<Bytes>,
    pub max: Sourced<Bytes>,
    pub probability: Sourced<u64>,
    pub min_fill: Option<u64>,
    pub max_fill: Option<u64>,
}

impl Ecn {
    /// The thresholds with each fill level turned into bytes of a queue of `base` bytes
    /// (`None`: unknown, the bytes stay as they are). Idempotent.
    pub fn resolved(mut self, base: Option<u64>) -> Ecn {
        if let Some(b) = base {
            if let Some(f) = self.min_fill {
                self.min.value = Bytes(fill_bytes(f, b));
            }
            if let Some(f) = self.max_fill {
                self.max.value = Bytes(fill_bytes(f, b));
            }
        }
        self
    }

    /// Whether a threshold is a fill level.
    pub fn has_fill(&self) -> bool {
        self.min_fill.is_some() || self.max_fill.is_some()
    }
}

/// `fill` thousandths of a percent of `base` bytes, rounded down (a threshold the switch
/// reaches no later than the fill level says).
pub fn fill_bytes(fill: u64, base: u64) -> u64 {
    u64::try_from(u128::from(base) * u128::from(fill) / 100_000).unwrap_or(u64::MAX)
}

/// What one egress queue may hold on a switch, the base of its ECN fill levels (issue 34):
/// `lower`'s buffer plan of the switch (`BufferPlan::lossless_queue_buffer_bytes` for a
/// lossless class, `lower::vocab::junos_lossy_queue_bytes` for a lossy one), the base Junos
/// states its `fill-level` in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FillBase {
    pub lossless: u64,
    pub lossy: u64,
}

/// `ecn SPEED …`: thresholds for the ports of one speed; `None` = the class's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EcnAtSpeed {
    pub speed: Mbps,
    pub span: Span,
    pub min: Option<Sourced<Bytes>>,
    pub max: Option<Sourced<Bytes>>,
    pub probability: Option<Sourced<u64>>,
    /// `min` / `max` written as fill levels (see [`Ecn`]).
    pub min_fill: Option<u64>,
    pub max_fill: Option<u64>,
}

impl EcnAtSpeed {
    /// `base` with the parameters this entry sets; the ones it leaves out stay `base`'s.
    pub fn over(&self, base: Ecn) -> Ecn {
        Ecn {
            min: self.min.unwrap_or(base.min),
            max: self.max.unwrap_or(base.max),
            probability: self.probability.unwrap_or(base.probability),
            min_fill: if self.min.is_some() {
                self.min_fill
            } else {
                base.min_fill
            },
            max_fill: if self.max.is_some() {
                self.max_fill
            } else {
                base.max_fill
            },
            ..base
        }
    }

    /// This entry with its fill levels as bytes of a queue of `base` bytes (see [`Ecn::resolved`]).
    pub fn resolved(mut self, base: Option<u64>) -> EcnAtSpeed {
        if let Some(b) = base {
            if let (Some(m), Some(f)) = (self.min.as_mut(), self.min_fill) {
                m.value = Bytes(fill_bytes(f, b));
            }
            if let (Some(m), Some(f)) = (self.max.as_mut(), self.max_fill) {
                m.value = Bytes(fill_bytes(f, b));
            }
        }
        self
    }

    /// Whether a threshold is a fill level.
    pub fn has_fill(&self) -> bool {
        self.min_fill.is_some() || self.max_fill.is_some()
    }
}

/// NVIDIA's published RoCE defaults (NVIDIA Cumulus Linux user guide, "RDMA over Converged Ethernet – RoCE"): min 150 KB, max 1500 KB, probability 100%.
pub const DEFAULT_ECN_MIN: Bytes = Bytes(150_000);
pub const DEFAULT_ECN_MAX: Bytes = Bytes(1_500_000);
pub const DEFAULT_ECN_PROBABILITY: u64 = 100_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    pub name: String,
    pub span: Span,
    /// `None`: hosts never send this class (reached only through rewrites).
    pub dscp: Option<Sourced<Dscp>>,
    pub priority: Sourced<u8>,
    pub lossless: Sourced<bool>,
    pub congestion: Sourced<Congestion>,
    pub ecn: Ecn,
    pub scheduling: Sourced<Scheduling>,
    /// Static PFC pause (XOFF) trigger; `None` = the model's dynamic threshold.
    pub pfc_threshold: Option<Sourced<Bytes>>,
    pub cnp: Option<Span>,
    /// `traffic-class`: the switch-internal traffic class; `None` = the priority.
    pub traffic_class: Option<Sourced<u8>>,
    /// `queue`: the switch egress queue; `None` = the traffic class.
    pub queue: Option<Sourced<u8>>,
    /// `rate`: cap of the queue's egress rate, thousandths of a percent of the port speed.
    pub rate: Option<Sourced<u64>>,
    /// `ecn SPEED …`, sorted by speed, one per speed.
    pub ecn_speeds: Vec<EcnAtSpeed>,
}

/// How one device deviates from a class (every field optional).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassOverride {
    pub dscp: Option<Sourced<Dscp>>,
    pub priority: Option<Sourced<u8>>,
    pub lossless: Option<Sourced<bool>>,
    pub congestion: Option<Sourced<Congestion>>,
    pub ecn_enabled: Option<Sourced<bool>>,
    pub ecn_min: Option<Sourced<Bytes>>,
    pub ecn_max: Option<Sourced<Bytes>>,
    pub ecn_probability: Option<Sourced<u64>>,
    /// `ecn_min` / `ecn_max` written as fill levels (see [`Ecn`]).
    pub ecn_min_fill: Option<u64>,
    pub ecn_max_fill: Option<u64>,
    pub scheduling: Option<Sourced<Scheduling>>,
    pub pfc_threshold: Option<Sourced<Bytes>>,
    /// A fixed headroom instead of the computed one (switches only).
    pub headroom: Option<Sourced<Bytes>>,
    /// `ecn SPEED …` in the device's class block, sorted by speed.
    pub ecn_speeds: Vec<EcnAtSpeed>,
}

// ---------------------------------------------------------------- models

// `ports N x SPEED [breakout …]`: defined with the catalogue, which fits them to a
// platform's cages; the model and everything after it name them here.
pub use crate::catalogue::port_group::{CageBreakout, PortGroup};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchModel {
    pub name: String,
    pub span: Span,
    /// The catalogue entry of `platform`, whose numbers filled what the model did not say
    /// (those fields are `Sourced` with `default: true` and the `platform` statement's span).
    pub platform: Option<&'static Platform>,
    /// `sku "PATH"` (SONiC): the SKU folder's tables, checked against `platform`; they
    /// replace the platform's SKUs (issue 38).
    pub sku: Option<std::sync::Arc<crate::catalogue::CustomSku>>,
    /// On a modular chassis: the line cards in their slots (`linecard 3..8 7800r3a-36d`). The
    /// ports are the cards', and `buffer` is one ASIC's of a card (each has its own).
    pub chassis: Option<ChassisPlace>,
    /// The `linecard` statement that put a card in each slot, for findings about that card.
    pub linecard_spans: Vec<(u32, Span)>,
    pub os: Sourced<Os>,
    /// `os cumulus 5.14`: the release the configuration is written for (Cumulus only).
    pub release: Option<Sourced<target::Release>>,
    pub ports: Sourced<Vec<PortGroup>>,
    /// Shared packet buffer.
    pub buffer: Option<Sourced<Bytes>>,
    pub lossless_limit: Option<Sourced<u8>>,
    /// Buffer cell size in bytes.
    pub cell: Option<Sourced<Bytes>>,
    /// SONiC-style dynamic threshold exponent: alpha = 2^n.
    pub dynamic_threshold: Sourced<i8>,
    pub description: Option<String>,
    /// SONiC's buffer manager on switches of this model: the model's `buffer-model`, else
    /// the fabric's, else the platform's default, else `traditional` (what fabricc renders).
    /// `None` for other OSes.
    pub buffer_model: Option<Sourced<BufferModel>>,
}

impl SwitchModel {
    pub fn port_count(&self) -> u32 {
        self.ports.value.iter().map(|g| g.count).sum()
    }

    /// Where port `index` (0-based) sits on a chassis: slot, card port and ASIC. `None` on a
    /// fixed box (or a port past the cards).
    pub fn card_port(&self, index: u32) -> Option<CardPort> {
        self.chassis.as_ref()?.place(&self.ports.value, index)
    }

    /// The `linecard` statement of slot `slot`.
    pub fn linecard_span(&self, slot: u32) -> Option<Span> {
        self.linecard_spans
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, span)| *span)
    }

    /// Nominal speed (Mb/s) of port `index` (0-based).
    pub fn port_speed(&self, index: u32) -> u64 {
        let mut i = index;
        for g in &self.ports.value {
            if i < g.count {
                return g.speed;
            }
            i -= g.count;
        }
        0
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NicModel {
    pub name: String,
    pub span: Span,
    /// The catalogue entry of `platform`.
    pub platform: Option<&'static NicPlatform>,
    pub driver: Sourced<String>,
    /// Each port's speed.
    pub speed: Sourced<Mbps>,
    pub buffer: Option<Sourced<Bytes>>,
    /// `ports 2 x 200G`: ports per NIC (1 when not declared); `speed` is each port's.
    pub ports: u32,
}

// ---------------------------------------------------------------- devices

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switch {
    pub name: String,
    /// Where the switch was declared (its name in a `switch` statement, or the tier).
    pub span: Span,
    pub model: SwitchModelId,
    pub tier: Option<Sourced<u8>>,
    pub mtu: Option<Sourced<Bytes>>,
    pub description: Option<Sourced<String>>,
    /// One entry per port of the model: the link on it.
    pub ports: Vec<Option<LinkId>>,
    /// Per-class overrides, indexed by `ClassId` (empty when there are none).
    pub class_overrides: Vec<ClassOverride>,
    pub watchdog: Option<Sourced<Watchdog>>,
    /// The generator tier that made this switch.
    pub generated: Option<TierId>,
    /// What one queue may hold here, where an ECN fill level is in force on the switch and its
    /// buffer plan could be made (`lower::resolve_fill_levels`); `None` otherwise.
    pub fill_base: Option<FillBase>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nic {
    pub model: NicModelId,
    /// The physical NIC this port belongs to and the port on it, both 1-based; `port` is 0
    /// on a single-port NIC (named `h1.nic2`), else the port (`h1.nic2.port1`). Every entry
    /// of `Host::nics` is one cabled port (issue 18).
    pub card: u32,
    pub port: u32,
    /// The independent plane (`planes N`, 1-based) this port is wired into; 0 when the
    /// fabric is one plane. Ports of different planes never reach each other, by design.
    pub plane: u32,
    /// `role` of its `nic` line (issue 18 item 4): only backend NICs form rails.
    pub role: NicRole,
    pub link: Option<LinkId>,
    pub netdev: Option<String>,
    pub rdma_device: Option<String>,
    /// `dddd:bb:dd.f`, lower-case hex (`syntax::bounds::pci_address`).
    pub pci: Option<String>,
}

impl Nic {
    /// Whether this port is on the lossless fabric: a backend NIC always (it forms a rail,
    /// even before it is cabled), a storage NIC when a `link` puts it there (RoCE storage on
    /// the backend), a frontend NIC never (FAB124 when linked to a switch).
    pub fn on_fabric(&self) -> bool {
        match self.role {
            NicRole::Backend => true,
            NicRole::Storage => self.link.is_some(),
            NicRole::Frontend => false,
        }
    }
}

impl Host {
    /// Whether a bond's ports (indices into `nics`, one of `bonds`) are in different planes:
    /// Alibaba HPN's non-stacked dual-ToR, one address reached in each plane.
    pub fn bond_across_planes(&self, bond: &[u32]) -> bool {
        let plane = |i: &u32| self.nics.get(*i as usize).map(|n| n.plane);
        bond.first()
            .is_some_and(|f| bond.iter().any(|i| plane(i) != plane(f)))
    }

    /// Ports on the lossless fabric (`Nic::on_fabric`): what reports count as host NICs.
    pub fn fabric_ports(&self) -> usize {
        self.nics.iter().filter(|n| n.on_fabric()).count()
    }

    /// The NIC a bare host link end (`link h1 -- L1`) takes: the first free backend NIC;
    /// storage and frontend NICs are linked by name (issue 18 item 4).
    pub fn next_free_nic(&self) -> Option<usize> {
        self.nics
            .iter()
            .position(|n| n.link.is_none() && n.role == NicRole::Backend)
    }

    /// Physical NICs with a port on the lossless fabric.
    pub fn fabric_cards(&self) -> usize {
        let mut cards: Vec<u32> = self
            .nics
            .iter()
            .filter(|n| n.on_fabric())
            .map(|n| n.card)
            .collect();
        cards.dedup();
        cards.len()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    pub name: String,
    pub span: Span,
    pub nics: Vec<Nic>,
    pub class_overrides: Vec<ClassOverride>,
    /// `pfc off` on this host's NICs.
    pub pfc: Option<Sourced<bool>>,
    /// `ecn off` for every class.
    pub ecn_off: Option<Span>,
    /// Wired by a generator tier.
    pub generated: bool,
    /// NICs (indices into `nics`) that form one logical destination, a bond or LAG with one
    /// address: routed traffic for it may arrive at any of their switches. Every NIC not
    /// listed is a destination of its own (RoCE gives each NIC its own address). `bond MODE`
    /// on the host makes the ports of each multi-port NIC one bond; the deadlock proof
    /// honours them (docs/deadlock.md) and still treats each port as its own link.
    pub bonds: Vec<Vec<u32>>,
    /// `bond MODE`: the Linux bonding mode of `bonds` (issue 18).
    pub bond: Option<Sourced<BondMode>>,
    /// `spare`: a backup host, wired and configured, out of the oversubscription ratio and
    /// of a generated tier's port split (issue 18).
    pub spare: Option<Span>,
    /// Where the host's `plane …` list was given, for the finding when a tier's `planes N`
    /// replaces it (FAB619).
    pub plane_list: Option<Span>,
}

/// One end of a link: a switch port or a host NIC (0-based index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Endpoint {
    pub device: DeviceId,
    pub port: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub a: Endpoint,
    pub b: Endpoint,
    pub speed: Mbps,
    pub cable_mm: Sourced<Millimetres>,
    pub span: Span,
    pub generated: Option<TierId>,
    /// `ecn CLASS …` on this link: thresholds of that class's queue on its switch ports
    /// (`speed_mbps` = the link's speed), sorted by class, one per class.
    pub ecn: Vec<(ClassId, EcnAtSpeed)>,
}

/// Default cable length when a link or tier gives none: long enough that headroom is never
/// underestimated (Dell OS10 and the Cumulus RoCE example use 100 m).
pub const DEFAULT_CABLE_MM: u64 = 100_000;

/// A generated Clos tier, kept for reports and the oversubscription check.
#[derive(Debug, Clone, PartialEq)]
pub struct Tier {
    pub name: String,
    pub span: Span,
    /// 1 = leaf, 2 = spine, 3 = super-spine.
    pub level: u8,
    pub model: SwitchModelId,
    pub oversubscription: Option<Sourced<(u64, u64)>>,
    pub downlinks: u32,
    pub uplinks: u32,
    pub switches: Vec<SwitchId>,
}

// ---------------------------------------------------------------- fabric-wide settings

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watchdog {
    Off,
    On {
        detect_ns: Nanoseconds,
        restore_ns: Nanoseconds,
        poll_ns: Nanoseconds,
        action: WatchdogAction,
    },
}

/// The fabric's `load-balance` block, one slot per property (each points at its line, so a
/// target that cannot render it says so there).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoadBalance {
    pub span: Span,
    /// Hash fields, in the order written, without repeats.
    pub hash: Option<Sourced<Vec<HashField>>>,
    pub mode: Option<Sourced<LbMode>>,
    /// Flowlet idle gap in ns.
    pub flowlet_gap: Option<Sourced<Nanoseconds>>,
    pub seed: Option<Sourced<LbSeed>>,
    pub qps_per_connection: Option<Sourced<u64>>,
    pub split_data_on_qps: Option<Sourced<bool>>,
}

/// SONiC's `pfcwd start_default` values: 200 ms detection and restoration, drop.
pub const DEFAULT_WATCHDOG: Watchdog = Watchdog::On {
    detect_ns: Nanoseconds(200_000_000),
    restore_ns: Nanoseconds(200_000_000),
    poll_ns: Nanoseconds(100_000_000),
    action: WatchdogAction::Drop,
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routing {
    pub model: Sourced<RoutingModel>,
    pub routes: Vec<StaticRoute>,
    pub fails: Vec<FailedLink>,
    pub check_failures: Sourced<u8>,
    pub paths: Vec<ExplicitPath>,
    pub rewrites: Vec<Rewrite>,
    /// `bounce-tagging 3 -> 4`: the lossless priorities in order.
    pub bounce_tagging: Option<Sourced<Vec<u8>>>,
}

/// Where a static route sends traffic for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteTarget {
    Host(HostId),
    /// Every host behind this switch.
    Switch(SwitchId),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticRoute {
    pub at: SwitchId,
    pub to: RouteTarget,
    pub via: DeviceId,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedLink {
    pub a: DeviceId,
    pub b: DeviceId,
    /// Every parallel link between the two.
    pub links: Vec<LinkId>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplicitPath {
    /// `None`: every class hosts send.
    pub class: Option<ClassId>,
    pub hops: Vec<DeviceId>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    pub at: SwitchId,
    pub from: DeviceId,
    pub to: DeviceId,
    pub old: u8,
    pub new: u8,
    pub span: Span,
}

/// The physical topology: a node per device (switches first, then hosts), an edge per link.
#[derive(Debug, Clone, Default)]
pub struct Topology {
    pub graph: UnGraph<DeviceId, LinkId>,
}

impl Fabric {
    pub fn switch(&self, id: SwitchId) -> &Switch {
        &self.switches[id.index()]
    }

    pub fn host(&self, id: HostId) -> &Host {
        &self.hosts[id.index()]
    }

    pub fn link(&self, id: LinkId) -> &Link {
        &self.links[id.index()]
    }

    pub fn class(&self, id: ClassId) -> &Class {
        &self.classes[id.index()]
    }

    pub fn switch_model(&self, id: SwitchId) -> &SwitchModel {
        &self.switch_models[self.switch(id).model.index()]
    }

    pub fn device_name(&self, d: DeviceId) -> &str {
        match d {
            DeviceId::Switch(s) => &self.switch(s).name,
            DeviceId::Host(h) => &self.host(h).name,
        }
    }

    pub fn class_ids(&self) -> impl Iterator<Item = ClassId> + use<> {
        (0..self.classes.len() as u32).map(ClassId)
    }

    pub fn switch_ids(&self) -> impl Iterator<Item = SwitchId> + use<> {
        (0..self.switches.len() as u32).map(SwitchId)
    }

    pub fn host_ids(&self) -> impl Iterator<Item = HostId> + use<> {
        (0..self.hosts.len() as u32).map(HostId)
    }

    /// The other end of a link, seen from `device`.
    pub fn peer(&self, link: LinkId, device: DeviceId) -> Endpoint {
        let l = self.link(link);
        if l.a.device == device { l.b } else { l.a }
    }

    /// `nic2` / `nic2.port1`: entry `index` of a host's NIC ports as users write it.
    pub fn nic_name(&self, h: HostId, index: u32) -> String {
        match self.host(h).nics.get(index as usize) {
            Some(n) if n.port > 0 => format!("nic{}.port{}", n.card, n.port),
            Some(n) => format!("nic{}", n.card),
            None => format!("nic{}", index + 1),
        }
    }

    /// `L1.port3` / `h1.nic2` / `h1.nic2.port1`: an endpoint as users write it (1-based).
    pub fn endpoint_name(&self, e: Endpoint) -> String {
        match e.device {
            DeviceId::Switch(s) => format!("{}.port{}", self.switch(s).name, e.port + 1),
            DeviceId::Host(h) => format!("{}.{}", self.host(h).name, self.nic_name(h, e.port)),
        }
    }

    /// Every link of a device, with the local endpoint.
    pub fn device_links(&self, d: DeviceId) -> Vec<(Endpoint, LinkId)> {
        match d {
            DeviceId::Switch(s) => self
                .switch(s)
                .ports
                .iter()
                .enumerate()
                .filter_map(|(i, l)| {
                    l.map(|l| {
                        (
                            Endpoint {
                                device: d,
                                port: i as u32,
                            },
                            l,
                        )
                    })
                })
                .collect(),
            DeviceId::Host(h) => self
                .host(h)
                .nics
                .iter()
                .enumerate()
                .filter_map(|(i, n)| {
                    n.link.map(|l| {
                        (
                            Endpoint {
                                device: d,
                                port: i as u32,
                            },
                            l,
                        )
                    })
                })
                .collect(),
        }
    }
}
