//! Render contexts: the complete, plain, already-decided data of one device.
//!
//! In: filled by `lower` from the resolved model (or by hand in tests).
//! Out: read by the per-OS views (`render::{sonic,eos,…}`), which turn these neutral values
//! into vendor names and units; templates never see these structs directly. They are
//! lowering's output, so they live here and `render` re-exports them (`render::SwitchContext`).
//!
//! Everything is `Serialize` and ordered (`Vec` sorted by the producer, `BTreeMap`), so a
//! context snapshot is deterministic. Sizes are bytes, speeds Mb/s, times ms, lengths metres.

use serde::Serialize;
// Model vocabulary the views carry, at their old path (`render::Release`).
pub use crate::model::target::{NicDriver, Release};

/// The switch network operating system a context is rendered for: the language's `Os`, one
/// spelling from the `.fab` word to the template folder.
pub use crate::syntax::ast::Os as SwitchOs;

/// ECN (WRED mark-only) thresholds of one queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Ecn {
    pub min_bytes: u64,
    pub max_bytes: u64,
    /// Marking probability at `max_bytes`, 1..=100.
    pub probability_percent: u8,
    /// Where the fabric states a threshold as a fill level (`ecn min 55%`, issue 34): that
    /// level in thousandths of a percent of what one queue may hold here
    /// (`BufferPlan::lossless_queue_buffer_bytes`, or the lossy queue's); `min_bytes` /
    /// `max_bytes` are then those bytes. Junos writes the level itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_fill: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_fill: Option<u64>,
}

/// How the egress scheduler serves a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum Scheduling {
    Strict,
    /// Weighted (ETS/DWRR); the weights of all `Ets` classes sum to 100.
    Ets {
        weight_percent: u8,
    },
}

/// One traffic class of the fabric QoS plan, as this device runs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClassContext {
    /// Validated identifier (`[A-Za-z_][A-Za-z0-9_.-]*`).
    pub name: String,
    /// Sorted, unique; for a `dscp other` class every DSCP no other class uses.
    pub dscps: Vec<u8>,
    /// True for the `dscp other` class (catch-all).
    pub default: bool,
    /// 802.1p priority (PFC priority), 0..=7.
    pub priority: u8,
    /// Switch traffic class, 0..=7.
    pub tc: u8,
    /// Egress queue, 0..=7.
    pub queue: u8,
    /// Cap of the queue's egress rate, whole percent of the port speed (1..=100).
    pub rate_percent: Option<u8>,
    pub lossless: bool,
    /// The class-wide ECN thresholds; ports may differ (`PortContext::ecn`).
    pub ecn: Option<Ecn>,
    pub scheduling: Scheduling,
    /// Carries congestion notification packets.
    pub cnp: bool,
}

/// The device's QoS plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QosPlan {
    /// Sorted by priority.
    pub classes: Vec<ClassContext>,
    /// Sorted, unique.
    pub lossless_priorities: Vec<u8>,
    /// DSCP → traffic class, exactly 64 entries (index = DSCP).
    pub dscp_to_tc: Vec<u8>,
}

/// What the PFC watchdog does to a stormed queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WatchdogAction {
    Drop,
    Forward,
    Alert,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Watchdog {
    pub detect_ms: u32,
    pub restore_ms: u32,
    pub poll_ms: u32,
    pub action: WatchdogAction,
    /// Which timers are the language's defaults (`pfc-watchdog` without that argument):
    /// a target whose own timers differ reports only the timers the fabric asks for.
    pub defaults: WatchdogDefaults,
}

/// Per timer: true when the fabric did not ask for a value (it has the language default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct WatchdogDefaults {
    pub detect: bool,
    pub restore: bool,
    pub poll: bool,
}

/// Shared buffer pools of the switch, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BufferPlan {
    /// The switch model's total packet buffer.
    pub total_bytes: u64,
    pub ingress_lossless_pool_bytes: u64,
    /// Shared headroom pool (xoff pool); `None` = per-PG headroom only.
    pub shared_headroom_pool_bytes: Option<u64>,
    pub egress_lossless_pool_bytes: u64,
    pub egress_lossy_pool_bytes: u64,
    /// Buffer one lossless egress queue may fill; Junos fill levels are percent of this.
    pub lossless_queue_buffer_bytes: u64,
    /// The dynamic threshold the queue share assumes: alpha = 2^log2_alpha, so one congested
    /// queue holds alpha/(1+alpha) of its pool.
    pub queue_log2_alpha: i8,
    /// The PFC pause point of a lossless priority group that the ECN checks judged (ECN-3,
    /// ECN-11): the static `pfc-threshold`, else the worst-case dynamic pause point
    /// α·B_s/(1 + α·N_pg) of the switch's buffer (`analysis::ecn::pause_point`). `None`
    /// without a buffer under a dynamic threshold. A target that must state the pause
    /// threshold in bytes (NX-OS's pause buffer) writes this.
    pub pause_point_bytes: Option<u64>,
    /// The model's buffer cell (`cell`, or the platform's), where known: Comware writes its
    /// thresholds in cells (`lower::vocab::comware_cell`).
    pub cell_bytes: Option<u64>,
}

/// Which formula set a headroom's `xoff` (report.md names it per row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeadroomFormula {
    /// fabricc's canonical headroom (docs/physics.md §1), rounded up to the cell.
    Canonical,
    /// A `headroom CLASS SIZE` override.
    Override,
    /// SONiC's Mellanox formula (`buffer_headroom_mellanox.lua`), where it gives more than the
    /// canonical headroom or the override.
    SonicMellanox,
    /// The row of the SKU's `pg_profile_lookup.ini` (Broadcom), where it gives more.
    SonicLookup,
}

impl HeadroomFormula {
    pub fn as_str(self) -> &'static str {
        match self {
            HeadroomFormula::Canonical => "canonical",
            HeadroomFormula::Override => "`headroom` override",
            HeadroomFormula::SonicMellanox => "SONiC Mellanox formula",
            HeadroomFormula::SonicLookup => "SONiC SKU lookup row",
        }
    }
}

/// Per-port, per-lossless-priority headroom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Headroom {
    pub priority: u8,
    pub xoff_bytes: u64,
    pub xon_bytes: u64,
    /// Reserved size of the priority group (vendor convention decided by `lower`).
    pub size_bytes: u64,
    /// Set by a `headroom CLASS SIZE` override instead of computed.
    pub fixed: bool,
    /// What set `xoff_bytes`.
    pub formula: HeadroomFormula,
}

/// The PFC pause (XOFF) trigger of a lossless ingress queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum PauseThreshold {
    Static {
        bytes: u64,
    },
    /// Dynamic threshold, alpha = 2^log2_alpha (SONiC `dynamic_th`), -8..=7.
    Dynamic {
        log2_alpha: i8,
    },
}

/// ECN of one queue on one port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct QueueEcn {
    pub queue: u8,
    /// `None` = marking off on this port (an override).
    pub ecn: Option<Ecn>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fec {
    Rs,
    Fc,
    None,
    Auto,
}

/// One fabric port of the switch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PortContext {
    /// Vendor port name (`Ethernet0`, `swp1`, `Ethernet1/1`, `et-0/0/0`), see the
    /// `port_name` helpers of each OS module.
    pub name: String,
    /// Zero-based front-panel index.
    pub index: u32,
    pub speed_mbps: u32,
    pub mtu: u32,
    /// Cable length, metres rounded up.
    pub cable_m: u32,
    pub peer: String,
    pub peer_port: String,
    pub description: Option<String>,
    /// SerDes lanes (SONiC `PORT.lanes`); empty where the OS does not need them.
    pub lanes: Vec<u32>,
    pub fec: Fec,
    /// Sorted, unique; PFC runs on these priorities on this port.
    pub lossless_priorities: Vec<u8>,
    /// One entry per lossless priority, sorted by priority.
    pub headroom: Vec<Headroom>,
    pub pause_threshold: PauseThreshold,
    /// One entry per queue of an ECN-capable class, sorted by queue.
    pub ecn: Vec<QueueEcn>,
    /// PFC watchdog enabled on this port.
    pub pfc_watchdog: bool,
}

/// The catalogue platform of a switch, as far as a target's output depends on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlatformContext {
    /// The catalogue name (`arista-7060x6-64pe`).
    pub name: String,
    /// `None` where the catalogue records no ASIC.
    pub asic: Option<crate::catalogue::AsicFamily>,
    /// The cages the fabric's ports break out, sorted by cage. Cumulus, EOS, NX-OS and Junos
    /// (where the platform's syntax is sourced) write the breakout; elsewhere FAB905 says the
    /// names exist only once the switch is configured so. Empty on SONiC (the SKU decides).
    pub breakouts: Vec<Breakout>,
}

/// One broken-out cage (issue 18 item 2).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Breakout {
    /// 1-based front-panel cage.
    pub cage: u32,
    /// Sub-ports.
    pub ways: u32,
    /// Speed of one sub-port, Gb/s.
    pub speed_gbps: u32,
    /// SerDes lanes of one sub-port; `None` where the catalogue has no cages for the platform.
    pub lanes: Option<u32>,
    /// The fabric's ports (`PortContext::index`) on this cage, sorted.
    pub ports: Vec<u32>,
}

/// Everything a switch template needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SwitchContext {
    pub device: String,
    pub os: SwitchOs,
    /// The OS release the output is written for; `None` = the newest the target supports.
    pub release: Option<Release>,
    /// `None` = the model names no `platform`: a target that renders per ASIC family says
    /// what it assumed.
    pub platform: Option<PlatformContext>,
    pub description: Option<String>,
    pub fabric: String,
    /// Default port MTU.
    pub mtu: u32,
    pub qos: QosPlan,
    /// `None` = watchdog off on this switch.
    pub watchdog: Option<Watchdog>,
    pub buffer: BufferPlan,
    /// Sorted by index.
    pub ports: Vec<PortContext>,
    /// What SONiC's platform and buffer model decide; `Some` exactly for `os: sonic`.
    pub sonic: Option<SonicPlan>,
    /// `load-balance { hash … }`: the fields' keywords (`src-ip`, …, `roce-qp`) in the order
    /// written, the same on every switch; `None` = the fabric states no hash.
    pub hash_fields: Option<Vec<&'static str>>,
    /// The rest of the switch side of `load-balance` for this switch; what each target can
    /// write of it is decided in `render::lb`.
    pub lb: LbContext,
    /// The switch's side of a dual-ToR pair whose hosts bond across it (issue 18); `None`
    /// when it serves no such bond, or cannot form one pair (see `lower::mlag`).
    pub mlag: Option<MlagContext>,
}

/// One switch of an MLAG pair: the peer link and the host bonds the two serve together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MlagContext {
    /// The other switch of the pair.
    pub peer: String,
    /// The pair's domain: both names, sorted, joined by `_`.
    pub domain: String,
    /// 1 for the switch whose name sorts first, 2 for the other (its peer address).
    pub side: u8,
    /// This switch's ports of the peer link (every link between the two), sorted by index.
    pub peer_link: Vec<String>,
    /// The bonds, numbered from 1 in (host, NIC) order: the same number on both switches.
    pub bonds: Vec<MlagBond>,
}

/// A host bond with one member port on each switch of the pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MlagBond {
    /// Port-channel and MLAG number, 1-based, the same on both switches.
    pub id: u32,
    /// This switch's member port.
    pub port: String,
    pub host: String,
    /// The host's bond device (`bond<card>`).
    pub bond: String,
    /// `bond lacp`: LACP (802.3ad); else `balance-xor`, a static LAG.
    pub lacp: bool,
}

/// `load-balance { mode … flowlet-gap … seed … }` as it applies to one switch (issue 20 item 4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LbContext {
    /// `flowlet`, `per-packet` or `adaptive`; `None` = static ECMP (stated or by default).
    pub mode: Option<&'static str>,
    /// `flowlet-gap`, ns.
    pub flowlet_gap_ns: Option<u64>,
    /// The hash seed of this switch: the fixed `seed N`, or for `seed per-tier` the number of
    /// its tier (1 = leaf, 2 = spine, 3 = super-spine), so every tier hashes differently.
    pub seed: Option<u64>,
    /// `seed per-tier` on a switch that has no tier: no seed can be derived.
    pub seed_untiered: bool,
    /// Ports whose peer is another switch (the ECMP members), sorted by index: where a
    /// per-port load-balancing setting (Cumulus adaptive routing) goes.
    pub switch_ports: Vec<String>,
}

/// SONiC's `asic_type`: whose tables and buffer semantics the switch runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SonicAsic {
    /// NVIDIA Spectrum: priority→PG map, `size` = all the headroom, dynamic buffer model.
    Mellanox,
    /// Broadcom StrataXGS: no priority→PG map, `size` = guaranteed minimum, `xon_offset`,
    /// shared headroom pool; traditional buffer model only.
    Broadcom,
}

impl SonicAsic {
    pub fn as_str(self) -> &'static str {
        match self {
            SonicAsic::Mellanox => "mellanox",
            SonicAsic::Broadcom => "broadcom",
        }
    }
}

/// `DEVICE_METADATA|localhost.buffer_model`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SonicBufferModel {
    /// buffermgrd computes headroom and pool sizes (Mellanox and Barefoot only).
    Dynamic,
    /// buffermgrd takes lossless profiles from `pg_profile_lookup.ini`, reusing ours.
    Traditional,
}

impl SonicBufferModel {
    pub fn as_str(self) -> &'static str {
        match self {
            SonicBufferModel::Dynamic => "dynamic",
            SonicBufferModel::Traditional => "traditional",
        }
    }
}

/// One `BUFFER_POOL` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SonicPool {
    pub name: String,
    /// `ingress` or `egress`.
    pub kind: &'static str,
    /// `dynamic` or `static`.
    pub mode: &'static str,
    /// `None`: not written, the dynamic buffer manager sizes it.
    pub size: Option<u64>,
    /// Shared headroom pool (`xoff`), where the layout has one.
    pub xoff: Option<u64>,
    /// The size the pool gets on the switch: `size`, or what `buffer_pool_mellanox.lua` will
    /// compute (for the report).
    pub expected: u64,
}

/// One `BUFFER_PROFILE` entry that is not a lossless PG profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SonicProfile {
    pub name: String,
    pub pool: String,
    pub size: u64,
    pub dynamic_th: Option<i8>,
    pub static_th: Option<u64>,
}

/// The lossless PG profile of one port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SonicPgProfile {
    pub name: String,
    pub size: u64,
    pub xon: u64,
    pub xoff: u64,
    /// Broadcom only.
    pub xon_offset: Option<u64>,
}

/// What SONiC needs per port, in the order of `SwitchContext::ports`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SonicPort {
    /// `CABLE_LENGTH|AZURE.<port>` as written (`5m`): in the traditional model a length the
    /// SKU's `pg_profile_lookup.ini` has, at least the cable's.
    pub cable: String,
    /// The profile of the lossless PGs; `None` with lossless priorities = `"NULL"` (the
    /// dynamic buffer manager computes it) — or no lossless priority on the port.
    pub lossless_profile: Option<SonicPgProfile>,
    /// The SKU gives the port 8 lanes (SONiC doubles its pipeline latency).
    pub eight_lanes: bool,
    /// Traditional model: the written cable is not a row of the lookup table (Broadcom; on
    /// Spectrum that stops the build, FAB952).
    pub lookup_row_missing: bool,
    /// The peer NIC runs this speed on other lanes (FAB954): `(NIC platform, its lanes)`.
    pub lanes_mismatch: Option<(String, u32)>,
    /// On a SKU with broken-out cages, the port's `alias` and front-panel `index` (its SKU
    /// row, `index` as the file counts): `PORT` then states the whole row, so that a switch whose cage runs another mode
    /// gets the port as the SKU has it (issue 38: a breakout change converges). Not serialized:
    /// the SKU's, like the lanes, and a change plans as the port's (`plan`).
    #[serde(skip)]
    pub sku_row: Option<(String, u32)>,
}

/// What SONiC's platform (catalogue) and buffer model decide for one switch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SonicPlan {
    /// `DEVICE_METADATA|localhost.platform` the apply script expects.
    pub platform: String,
    /// The SKU whose `port_config.ini` names the ports and gives their lanes.
    pub hwsku: String,
    pub asic: SonicAsic,
    pub buffer_model: SonicBufferModel,
    /// PORT rows of the SKU (SONiC's own PFC watchdog defaults scale with it).
    pub sku_ports: u32,
    /// Buffer cell, where sourced (WRED thresholds are written in whole cells).
    pub cell_bytes: Option<u64>,
    /// `LOSSLESS_TRAFFIC_PATTERN|AZURE` `(mtu, small_packet_percentage)`: what SONiC's
    /// formula assumes; written in the dynamic model.
    pub traffic_pattern: Option<(u32, u32)>,
    /// `DEFAULT_LOSSLESS_BUFFER_PARAMETER|AZURE.default_dynamic_th` (dynamic model).
    pub default_dynamic_th: i8,
    pub pools: Vec<SonicPool>,
    pub profiles: Vec<SonicProfile>,
    pub ingress_profile_list: String,
    pub egress_profile_list: String,
    /// Profile of PG 0 (lossy).
    pub lossy_pg_profile: String,
    pub lossless_queue_profile: String,
    pub lossy_queue_profile: String,
    /// A reserve for the CNP queue, where the layout's lossy queues have none.
    pub cnp_queue_profile: Option<String>,
    /// `PFC_PRIORITY_TO_PRIORITY_GROUP_MAP` and `pfc_to_pg_map` (Mellanox only).
    pub pfc_to_pg_map: bool,
    /// The watchdog timers were scaled like `pfcwd start_default` by this factor (the fabric
    /// set none).
    pub watchdog_scale: Option<u32>,
    /// `BREAKOUT_CFG` rows `(parent port, brkout_mode)` of the broken-out cages the fabric
    /// uses: the SKU's `default_brkout_mode`, which is what `sonic-cfggen` itself writes at
    /// first boot (`parse_breakout_mode`, sonic-net/sonic-buildimage@086b03bd70f9:src/sonic-config-engine/portconfig.py);
    /// keyed by the cage's parent port only (the YANG model's "Parent port name"), where
    /// cfggen writes a row for every `hwsku.json` entry. Sorted. Empty for an unbroken SKU.
    pub breakouts: Vec<(String, String)>,
    /// Every port of each cage in `breakouts` as the SKU lays it out in that mode (the fabric's
    /// and the others), keyed by the parent port: what the apply program writes to `PORT` when
    /// the switch runs the cage in another mode (issue 38: a breakout change converges).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub cage_ports: std::collections::BTreeMap<String, Vec<CagePort>>,
    /// `SWITCH_HASH|GLOBAL` `ecmp_hash` and `lag_hash` (SONiC's names, in the order written)
    /// from `load-balance { hash … }`; `None` = not written (no `hash`, or a field SONiC has
    /// no name for: FAB931).
    pub switch_hash: Option<Vec<&'static str>>,
    /// One per port of `SwitchContext::ports`, same order.
    pub ports: Vec<SonicPort>,
}

/// Transmission selection of one NIC traffic class (`mlnx_qos --tsa`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tsa {
    Strict,
    Ets,
}

impl Tsa {
    pub fn as_str(self) -> &'static str {
        match self {
            Tsa::Strict => "strict",
            Tsa::Ets => "ets",
        }
    }
}

/// One RDMA NIC port of a host: how the script finds it. At least one of `netdev`,
/// `rdma_device`, `pci` is set; when the fabric declares none, `lower` fills `rdma_device`
/// with the driver's default name and sets `guessed` (FAB920).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NicContext {
    /// One-based NIC index (`nic1` …); in a rail-optimised fabric NIC i is on rail i.
    pub index: u32,
    /// `nic3`, or `nic2.port1` for a port of a multi-port NIC (issue 18): the name the
    /// fabric and the cabling plan use.
    pub name: String,
    pub netdev: Option<String>,
    pub rdma_device: Option<String>,
    /// `dddd:bb:dd.f`, lower-case hex.
    pub pci: Option<String>,
    /// No identity was declared: `rdma_device` is a guess.
    pub guessed: bool,
    /// RDMA port number (1 on a single-port function).
    pub rdma_port: u8,
    /// The switch port at the other end, `leaf1.port3`.
    pub peer: String,
    pub speed_mbps: u64,
    /// A backend NIC (a rail, in `NCCL_IB_HCA`); false for a `role storage` NIC a `link`
    /// puts on the fabric: configured like the rails, but no NCCL device (issue 18 item 4).
    pub rail: bool,
}

/// A class hosts mark traffic with, and the ToS byte that marks it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TosClass {
    pub class: String,
    pub dscp: u8,
    pub priority: u8,
    /// `dscp << 2 | ECT(0)`.
    pub tos: u8,
}

/// The QoS every NIC of a host runs (the fabric's plan as the host sees it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostQos {
    /// Netdev MTU (4200 gives RoCE active_mtu 4096).
    pub mtu: u32,
    /// PFC per priority (index = priority), 0 or 1.
    pub pfc: [u8; 8],
    /// Priority → TC (index = priority).
    pub prio_tc: [u8; 8],
    /// Per TC.
    pub tsa: [Tsa; 8],
    /// Per TC, percent; sums to 100 over the `Ets` TCs, 0 on strict TCs.
    pub tcbw: [u8; 8],
    /// DSCP → priority, all 64 entries (index = DSCP): the fabric's map, not the NIC default.
    pub dscp2prio: Vec<u8>,
    /// The class whose ToS RDMA traffic gets by default (RDMA-CM, verbs traffic class, NCCL);
    /// `None` when no class with a DSCP is lossless or runs DCQCN.
    pub roce: Option<TosClass>,
    /// Every other lossless or DCQCN class with a DSCP: reachable only when an application
    /// sets its own ToS.
    pub other_roce: Vec<TosClass>,
    pub cnp_dscp: u8,
    pub cnp_priority: u8,
    /// ECN (DCQCN notification and reaction point) enable per priority, absolute.
    pub ecn_enable: [u8; 8],
    /// Priorities whose classes run DCQCN on this host; sorted.
    pub dcqcn_priorities: Vec<u8>,
}

#[cfg(test)]
impl HostQos {
    /// A host of the usual plan for unit tests: RoCE DSCP 26 on lossless priority 3, CNP
    /// DSCP 48 on strict priority 6, priority = TC, ETS shares `tcbw`.
    pub(crate) fn sample(tcbw: [u8; 8]) -> Self {
        let mut dscp2prio = vec![0u8; 64];
        dscp2prio[26] = 3;
        dscp2prio[48] = 6;
        let mut tsa = [Tsa::Ets; 8];
        tsa[6] = Tsa::Strict;
        HostQos {
            mtu: 4200,
            pfc: [0, 0, 0, 1, 0, 0, 0, 0],
            prio_tc: [0, 1, 2, 3, 4, 5, 6, 7],
            tsa,
            tcbw,
            dscp2prio,
            roce: Some(TosClass {
                class: "roce".into(),
                dscp: 26,
                priority: 3,
                tos: 106,
            }),
            other_roce: vec![],
            cnp_dscp: 48,
            cnp_priority: 6,
            ecn_enable: [1; 8],
            dcqcn_priorities: vec![3],
        }
    }
}

/// Everything a host's files need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HostContext {
    pub host: String,
    pub description: Option<String>,
    pub fabric: String,
    pub driver: NicDriver,
    pub qos: HostQos,
    /// Sorted by index.
    pub nics: Vec<NicContext>,
    /// `load-balance { qps-per-connection N }`: NCCL_IB_QPS_PER_CONNECTION.
    pub qps_per_connection: Option<u64>,
    /// `load-balance { split-data-on-qps on|off }`: NCCL_IB_SPLIT_DATA_ON_QPS.
    pub split_data_on_qps: Option<bool>,
    /// NICs not on the lossless fabric (`role frontend`, unlinked `role storage`), as
    /// `nic9 (frontend)`: the script names them in a comment and leaves them alone.
    pub left_alone: Vec<String>,
    /// What this host's block of the `.fab` changes from the fabric's classes (`pfc off`,
    /// `ecn off`, `class roce (priority, lossless)`), for a comment in its settings: the one
    /// place a reviewer sees that this host's values are meant to differ from its neighbours'.
    pub deviations: Vec<String>,
    /// `bond MODE` (issue 18): one bond per multi-port NIC, in NIC order.
    pub bonds: Vec<BondContext>,
}

/// One host bond: the ports of one NIC joined in a Linux bond (mlx5: RoCE LAG).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BondContext {
    /// `bond1` for the ports of nic1.
    pub name: String,
    /// The kernel's `mode=`: `802.3ad`, `active-backup`, `balance-xor`.
    pub mode: &'static str,
    /// One-based indices of its ports (`NicContext::index`).
    pub members: Vec<u32>,
}

/// One port of a broken-out cage, as the SKU's `port_config.ini` row gives it: the `PORT`
/// fields SONiC's dynamic port breakout writes for a new port (`config interface breakout`
/// takes them from the SKU's `hwsku.json`/`platform.json`, sonic-net/sonic-utilities@691b1bbc4fd2
/// config/main.py `breakout`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CagePort {
    pub name: String,
    pub alias: String,
    /// Front-panel cage, as the SKU's file counts (from 1, or from 0).
    pub index: u32,
    pub lanes: Vec<u32>,
    /// Mb/s.
    pub speed: u64,
}
