//! The syntax tree: what the user wrote, with a span on every node. Names are still strings
//! and patterns are not yet expanded; quantities are already in canonical integer units
//! (bytes, Mb/s, millimetres, nanoseconds, thousandths of a percent), so `1.5MB` and
//! `1500KB` give the same tree. The resolver (`model::resolve`) turns this into a `Fabric`.

use crate::span::{Span, Spanned};

/// A plain name (`roce`, `s9300`, `L1`) where no pattern is allowed.
pub type Ident = Spanned<String>;

/// One parsed file: its imports, then its items in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub imports: Vec<Import>,
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub path: Spanned<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Fabric(FabricBlock),
    Stmt(Stmt),
}

/// `fabric NAME { … }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FabricBlock {
    pub name: Ident,
    /// The name was written as a string (`fabric "pod-a"`).
    pub quoted: bool,
    pub body: Vec<Stmt>,
    pub span: Span,
}

/// A fabric-level statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StmtKind {
    Mtu(Spanned<u64>),
    RoceMtu(Spanned<u64>),
    Rtt(Spanned<Time>),
    Description(Spanned<String>),
    Watchdog(Watchdog),
    Class(ClassDecl),
    SwitchModel(SwitchModelDecl),
    NicModel(NicModelDecl),
    Switch(SwitchDecl),
    Host(HostDecl),
    Link(LinkDecl),
    Tier(TierDecl),
    Routing(Spanned<RoutingModel>),
    Route(RouteStmt),
    Fail(FailStmt),
    CheckFailures(Spanned<u64>),
    Path(PathStmt),
    Rewrite(RewriteStmt),
    BounceTagging(Vec<Spanned<u8>>),
    /// `buffer-model dynamic|traditional`: SONiC's buffer manager on every SONiC switch
    /// whose model does not say.
    BufferModel(Spanned<BufferModel>),
    /// `load-balance { hash … mode … }`: the fabric's ECMP hashing and load-balancing
    /// policy (issue 20 item 4).
    LoadBalance(LoadBalanceDecl),
    /// `allow FAB905, FAB954`: warnings of these codes are accepted for this fabric (they
    /// are still reported, as advice, and no longer block `build`).
    Allow(Vec<Ident>),
}

/// `load-balance { … }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadBalanceDecl {
    pub props: Vec<Spanned<LbProp>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LbProp {
    /// `hash src-ip dst-ip …`: the header fields ECMP hashes on.
    Hash(Vec<Spanned<HashField>>),
    Mode(LbMode),
    /// `flowlet-gap 16us`: the idle gap after which a flow may change path.
    FlowletGap(Time),
    Seed(LbSeed),
    /// `qps-per-connection N`: NCCL_IB_QPS_PER_CONNECTION on every host.
    QpsPerConnection(u64),
    /// `split-data-on-qps on|off`: NCCL_IB_SPLIT_DATA_ON_QPS on every host.
    SplitDataOnQps(bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HashField {
    SrcIp,
    DstIp,
    SrcPort,
    DstPort,
    Protocol,
    /// The RoCEv2 BTH destination QP (a UDF hash on the InfiniBand transport header).
    RoceQp,
}

impl HashField {
    pub const ALL: [HashField; 6] = [
        HashField::SrcIp,
        HashField::DstIp,
        HashField::SrcPort,
        HashField::DstPort,
        HashField::Protocol,
        HashField::RoceQp,
    ];
    pub fn keyword(self) -> &'static str {
        match self {
            HashField::SrcIp => "src-ip",
            HashField::DstIp => "dst-ip",
            HashField::SrcPort => "src-port",
            HashField::DstPort => "dst-port",
            HashField::Protocol => "protocol",
            HashField::RoceQp => "roce-qp",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LbMode {
    /// Static per-flow ECMP hashing (every switch's default).
    Ecmp,
    Flowlet,
    PerPacket,
    Adaptive,
}

impl LbMode {
    pub fn keyword(self) -> &'static str {
        match self {
            LbMode::Ecmp => "ecmp",
            LbMode::Flowlet => "flowlet",
            LbMode::PerPacket => "per-packet",
            LbMode::Adaptive => "adaptive",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LbSeed {
    /// A different seed per tier (seed = tier number), against hash polarisation.
    PerTier,
    Fixed(u64),
}

// ---------------------------------------------------------------- quantities

/// Bytes, or a count of the switch model's buffer cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    Bytes(u64),
    Cells(u64),
}

/// Link speed in Mb/s (`400G` = 400_000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Speed(pub u64);

/// Length in millimetres (`3m` = 3_000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Length(pub u64);

/// Duration in nanoseconds (`50us` = 50_000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

/// A percentage in thousandths of a percent (`12.5%` = 12_500).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Percent(pub u64);

/// `down:up`, each side in thousandths (`1.067:1` = 1067:1000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ratio {
    pub down: u64,
    pub up: u64,
}

// ---------------------------------------------------------------- names

/// A name that may hold ranges: `gpu[001..256]`, `p[1..2]-leaf[1..8]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamePattern {
    pub segments: Vec<Segment>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Text(String),
    /// `[1..4,7]`: the items in order.
    Range(Vec<RangeItem>),
}

/// `lo..hi` (or a single number when `lo == hi`), zero-padded to `width` digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeItem {
    pub lo: u64,
    pub hi: u64,
    pub width: usize,
}

/// A generator name template: `leaf-{pod}-{rail}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameTemplate {
    pub parts: Vec<TemplatePart>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    Text(String),
    /// `{rail}`; the placeholder word as written (checked by the resolver).
    Placeholder(Spanned<String>),
}

// ---------------------------------------------------------------- fabric settings

/// `pfc-watchdog off` or `pfc-watchdog detect 200ms restore 400ms …`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watchdog {
    pub setting: WatchdogSetting,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchdogSetting {
    Off,
    On(Vec<Spanned<WatchdogArg>>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchdogArg {
    Detect(Time),
    Restore(Time),
    Poll(Time),
    Action(WatchdogAction),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WatchdogAction {
    Drop,
    Forward,
    Alert,
}

// ---------------------------------------------------------------- classes

/// `class NAME { … }`, at fabric level (a declaration) or inside a device (an override).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassDecl {
    pub name: Ident,
    pub props: Vec<Spanned<ClassProp>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassProp {
    Dscp(DscpSpec),
    Priority(Spanned<u8>),
    /// `lossless`, `lossless on` (true), `lossless off`, `lossy` (false).
    Lossless(bool),
    Congestion(Congestion),
    Ecn(EcnSpec),
    Bandwidth(Spanned<Percent>),
    Strict,
    PfcThreshold(Spanned<Size>),
    Cnp,
    /// `queue N`: the switch egress queue (0..7); default: the traffic class.
    Queue(Spanned<u8>),
    /// `traffic-class N`: the switch-internal traffic class (0..7); default: the priority.
    TrafficClass(Spanned<u8>),
    /// `rate PERCENT`: a cap on the queue's egress rate, percent of the port speed.
    Rate(Spanned<Percent>),
    /// `ecn SPEED min … max … probability …`: thresholds for the ports of that speed; what
    /// it leaves out comes from the class's `ecn`.
    EcnAt {
        speed: Spanned<Speed>,
        args: Vec<Spanned<EcnArg>>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DscpSpec {
    /// Every DSCP no other class claims.
    Other,
    /// Inclusive ranges (`26` is `26..=26`), each with its span.
    Values(Vec<Spanned<(u8, u8)>>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Congestion {
    Dcqcn,
    None,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EcnSpec {
    Off,
    /// Any subset of the parameters, in the order written.
    Params(Vec<Spanned<EcnArg>>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EcnArg {
    Min(EcnLevel),
    Max(EcnLevel),
    Probability(Percent),
}

/// An ECN threshold: a size (`150KB`, `600cells`), or a fill level (`55%`) — a percentage of
/// what one queue of the class may hold on the switch it runs on (issue 34, v3 contract).
/// One statement uses one of the two for both `min` and `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EcnLevel {
    Size(Size),
    Fill(Percent),
}

impl EcnLevel {
    /// The fill level in thousandths of a percent, when the threshold is one.
    pub fn fill(self) -> Option<u64> {
        match self {
            EcnLevel::Fill(p) => Some(p.0),
            EcnLevel::Size(_) => None,
        }
    }
}

// ---------------------------------------------------------------- models

/// A switch network operating system: the language's `os` word, the build target and the
/// folder under `vendor-templates/` (lowering and rendering call it `SwitchOs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Os {
    Sonic,
    Cumulus,
    Eos,
    Nxos,
    Junos,
    /// Huawei CloudEngine (VRP), issue 35.
    Vrp,
    /// H3C Comware 7 (S9825, S9855, S12500R): issue 35.
    Comware,
}

impl Os {
    pub const ALL: [Os; 7] = [
        Os::Sonic,
        Os::Cumulus,
        Os::Eos,
        Os::Nxos,
        Os::Junos,
        Os::Vrp,
        Os::Comware,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Os::Sonic => "sonic",
            Os::Cumulus => "cumulus",
            Os::Eos => "eos",
            Os::Nxos => "nxos",
            Os::Junos => "junos",
            Os::Vrp => "vrp",
            Os::Comware => "comware",
        }
    }
}

/// SONiC's buffer manager: `dynamic` computes headroom itself, `traditional` takes the
/// profiles it is given (`DEVICE_METADATA.buffer_model`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BufferModel {
    Dynamic,
    Traditional,
}

impl BufferModel {
    pub const ALL: [BufferModel; 2] = [BufferModel::Dynamic, BufferModel::Traditional];

    pub fn as_str(self) -> &'static str {
        match self {
            BufferModel::Dynamic => "dynamic",
            BufferModel::Traditional => "traditional",
        }
    }
}

/// `switch-model NAME { … }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchModelDecl {
    pub name: Ident,
    pub props: Vec<Spanned<SwitchModelProp>>,
    pub span: Span,
}

/// `5.14` after an OS name: the release the configuration is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OsRelease {
    pub major: u16,
    pub minor: u16,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SwitchModelProp {
    /// `platform nvidia-sn5600`: a catalogue entry that supplies what the platform fixes.
    Platform(Ident),
    /// `os cumulus` or `os cumulus 5.14`
    Os(Os, Option<OsRelease>),
    /// `ports 128 x 200G, 60 x 400G`
    Ports(Vec<Spanned<PortGroup>>),
    Buffer(Size),
    LosslessLimit(u8),
    Cell(Size),
    DynamicThreshold(i8),
    Description(String),
    BufferModel(BufferModel),
    /// `linecard 3..8 7800r3a-36d`: on a modular chassis, the card in these slots (issue 18).
    Linecard(LinecardSlots),
    /// `sku "skus/HPN-ToR"` (SONiC): a SKU folder, relative to the file, whose
    /// `port_config.ini` and buffer tables replace the catalogue's SKUs (issue 38).
    Sku(Spanned<String>),
}

/// `linecard FIRST[..LAST] CARD`: one line-card model in a range of slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinecardSlots {
    pub first: u64,
    pub last: u64,
    /// The card's model as the platform catalogue names it (`7800r3a-36d`).
    pub card: Ident,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortGroup {
    /// Ports, or physical cages when `breakout` is given.
    pub count: u64,
    /// Port speed, or the cage's speed when `breakout` is given.
    pub speed: Speed,
    /// `breakout 2 x 400G`: each cage runs this many sub-ports of this speed (issue 18).
    pub breakout: Option<Breakout>,
}

/// `breakout WAYS x SPEED` after a port group: the cages are split into sub-ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breakout {
    pub ways: u64,
    pub speed: Speed,
}

/// `nic-model NAME { … }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NicModelDecl {
    pub name: Ident,
    pub props: Vec<Spanned<NicModelProp>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NicModelProp {
    /// `platform nvidia-cx7`
    Platform(Ident),
    Driver(Ident),
    Speed(Speed),
    Buffer(Size),
    /// `ports 2 x 200G`: the NIC's ports (issue 18); each port is cabled, configured and
    /// counted on its own (`h1.nic2.port1`).
    Ports(PortGroup),
}

// ---------------------------------------------------------------- devices

/// `switch A, B, S[1..4] { … }` — a declaration or, for existing switches, an override.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchDecl {
    pub names: Vec<NamePattern>,
    pub props: Vec<Spanned<SwitchProp>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SwitchProp {
    Model(Ident),
    Tier(Spanned<u8>),
    Mtu(Spanned<u64>),
    Description(Spanned<String>),
    Class(ClassDecl),
    Ecn { class: Ident, spec: EcnSpec },
    Headroom { class: Ident, size: Spanned<Size> },
    PfcThreshold { class: Ident, size: Spanned<Size> },
    Watchdog(Watchdog),
}

/// `host h[1..4] { nic cx7 x 8 }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostDecl {
    pub names: Vec<NamePattern>,
    pub props: Vec<Spanned<HostProp>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostProp {
    /// `nic cx7 x 8` or `nic bf3 role frontend` (issue 18 item 4).
    Nic {
        model: Ident,
        count: Option<Spanned<u64>>,
        /// None: `backend`, the default.
        role: Option<Spanned<NicRole>>,
    },
    Netdev(Vec<NamePattern>),
    RdmaDevice(Vec<NamePattern>),
    /// `pci 0000:0c:00.0, 0d:00.0`: one PCI address per NIC, as written.
    Pci(Vec<Spanned<String>>),
    /// `plane 1, 2, 1, 2`: the independent plane of each NIC port, in NIC-port order (0:
    /// none); what `planes N` on a tier sets, written out for explicit links and by `export`.
    Planes(Vec<Spanned<u32>>),
    Class(ClassDecl),
    Pfc(bool),
    /// `bond lacp|active-backup|balance-xor` (issue 18): the ports of each multi-port NIC
    /// form one Linux bond in that mode, one address over the two ToRs of a dual-ToR pair.
    Bond(BondMode),
    /// `spare` (issue 18): a backup host, wired and configured like the others but left out
    /// of the leaves' oversubscription ratio and of a generated tier's port split.
    Spare,
    /// `ecn off` (every class, `class` is None) or `ecn roce off`.
    EcnOff {
        class: Option<Ident>,
    },
}

/// The Linux bonding mode of `bond` (kernel Documentation/networking/bonding.rst), limited
/// to the three modes mlx5 RoCE LAG works in (NVIDIA MLNX_OFED User Manual, "RoCE LAG").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BondMode {
    /// `802.3ad`: LACP, both ports active; the switches must run one LAG (MLAG) over them.
    Lacp,
    /// `active-backup`: one port carries traffic, the other takes over when it fails.
    ActiveBackup,
    /// `balance-xor`: both ports active by a transmit hash, no LACP (a static LAG).
    BalanceXor,
}

impl BondMode {
    pub const WORDS: &'static [&'static str] = &["lacp", "active-backup", "balance-xor"];

    /// As `.fab` spells it.
    pub fn word(self) -> &'static str {
        match self {
            BondMode::Lacp => "lacp",
            BondMode::ActiveBackup => "active-backup",
            BondMode::BalanceXor => "balance-xor",
        }
    }

    /// As the kernel's `mode=` spells it.
    pub fn kernel(self) -> &'static str {
        match self {
            BondMode::Lacp => "802.3ad",
            BondMode::ActiveBackup => "active-backup",
            BondMode::BalanceXor => "balance-xor",
        }
    }

    pub fn from_word(w: &str) -> Option<BondMode> {
        match w {
            "lacp" => Some(BondMode::Lacp),
            "active-backup" => Some(BondMode::ActiveBackup),
            "balance-xor" => Some(BondMode::BalanceXor),
            _ => None,
        }
    }
}

/// What a host's NIC is for (issue 18 item 4). Only backend NICs form rails; the others
/// are on the host but not on the lossless GPU fabric unless a `link` puts them there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum NicRole {
    /// GPU/RDMA traffic: the rails of the lossless RoCE fabric.
    #[default]
    Backend,
    /// Storage: no rail; on the fabric (lossless RoCE storage) only through an explicit `link`.
    Storage,
    /// Frontend (in-band management, user and TCP traffic): never on the lossless fabric.
    Frontend,
}

impl NicRole {
    pub const WORDS: &'static [&'static str] = &["backend", "storage", "frontend"];

    pub fn word(self) -> &'static str {
        match self {
            NicRole::Backend => "backend",
            NicRole::Storage => "storage",
            NicRole::Frontend => "frontend",
        }
    }

    pub fn from_word(w: &str) -> Option<NicRole> {
        match w {
            "backend" => Some(NicRole::Backend),
            "storage" => Some(NicRole::Storage),
            "frontend" => Some(NicRole::Frontend),
            _ => None,
        }
    }
}

/// `link A -- B { speed 400G  cable 30m  count 2 }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkDecl {
    pub a: NamePattern,
    pub b: NamePattern,
    pub props: Vec<Spanned<LinkProp>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkProp {
    Speed(Speed),
    Cable(Length),
    Count(u64),
    /// `zip`: the two name patterns pair up element by element (`h[1..8] -- leaf[1..8]` is
    /// eight links, h1–leaf1 … h8–leaf8) instead of forming every pair (issue 18).
    Zip,
    /// `ecn CLASS min … max … probability …`: the class's thresholds on the switch ports of
    /// this link (both ends), over the class's own and its per-speed ones.
    Ecn {
        class: Ident,
        args: Vec<Spanned<EcnArg>>,
    },
}

/// `tier leaf { model s9300  oversubscription 1:1  cable 3m  name leaf-{rail}-{group} }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierDecl {
    pub name: Ident,
    pub props: Vec<Spanned<TierProp>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TierProp {
    Model(Ident),
    Oversubscription(Ratio),
    Cable(Length),
    Name(NameTemplate),
    Downlinks(u64),
    Uplinks(u64),
    Switches(u64),
    /// `planes 2` (leaf tier): the tiers are built that many times, independent planes with no
    /// link between them; port k of every NIC joins plane k (issue 18).
    Planes(u64),
    /// `wiring rail|rack` (leaf tier): rail-optimised (NIC r of every host on rail r's leaf,
    /// the default) or rack-ToR (every NIC of a host on one leaf, Meta's AI Zone).
    Wiring(WiringStyle),
    /// `dual-tor` (leaf tier, issue 18): the two ports of every NIC go to the two leaves of a
    /// pair on one plane (rails 2c-1 and 2c for NIC c); the host's `bond` says how it uses them.
    DualTor,
    /// `peer-link 2` (a `dual-tor` leaf tier, issue 18): that many links between the two
    /// leaves of every pair, on the leaf model's last ports: the MLAG peer link, which carries
    /// traffic for a bonded host whose link to one ToR is down.
    PeerLink(u64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WiringStyle {
    Rail,
    Rack,
}

impl WiringStyle {
    pub fn as_str(self) -> &'static str {
        match self {
            WiringStyle::Rail => "rail",
            WiringStyle::Rack => "rack",
        }
    }
}

// ---------------------------------------------------------------- routing

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RoutingModel {
    Updown,
    Shortest,
    None,
}

/// `route at A to h4 via B`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteStmt {
    pub at: Ident,
    pub to: Ident,
    pub via: Ident,
}

/// `fail L2 -- T1`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailStmt {
    pub a: NamePattern,
    pub b: NamePattern,
}

/// `path [class C] h5 -> T2 -> L2`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathStmt {
    pub class: Option<Ident>,
    pub hops: Vec<Ident>,
}

/// `rewrite at L3 from S1 to S2 priority 3 -> 4`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewriteStmt {
    pub at: Ident,
    pub from: Ident,
    pub to: Ident,
    pub old: Spanned<u8>,
    pub new: Spanned<u8>,
}
