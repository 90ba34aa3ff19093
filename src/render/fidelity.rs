//! Fidelity: what each CLI/NVUE target does with every property of a switch context.
//!
//! In: nothing (a table). Out: `support(os, property)`, the matrix that `docs/targets.md`
//! prints, and `Note`, the finding a view attaches when a device's output differs from the
//! model (turned into FAB904–FAB910 by `render::preflight`).
//!
//! Two exhaustive matches keep the table complete: `properties_of` destructures every
//! context struct without `..`, so a new field does not compile until it is mapped to a
//! `Property`; `support` matches every (target, property) pair, so a new property does not
//! compile until each target says what it does with it. The host script is not in this
//! matrix.

use serde::Serialize;

use super::context::{QosPlan, SwitchContext, SwitchOs};
// The context structs `properties_of` destructures (test support, see `support`).
#[cfg(feature = "internals")]
use super::context::{
    BufferPlan, ClassContext, Headroom, PortContext, SonicPlan, SonicPort, Watchdog,
};

/// A property of the resolved model that a switch target is responsible for.
// Each variant is a row of the matrix below (test/doc support); the product's notes name only
// some of them, so without `internals` the others are unconstructed by design.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Property {
    /// Device name, fabric name and description: who the file is for.
    Identity,
    /// The OS release the output is written for.
    Release,
    /// The catalogue platform: ASIC family and port names.
    Platform,
    /// DSCP → traffic class, all 64 code points.
    DscpClassification,
    /// Priority, traffic class and egress queue of each class.
    ClassQueues,
    /// The CNP class and its strict queue.
    CnpClass,
    /// PFC (no-drop) on the lossless priorities.
    PfcPriorities,
    /// Ports that run PFC on other priorities than the switch (a host with `pfc off`).
    PortPfc,
    /// ECN marking thresholds and probability of a class.
    EcnMarking,
    /// Per-port ECN thresholds (`ecn CLASS …` overrides).
    PortEcn,
    /// Strict priority and ETS weights.
    Scheduling,
    /// A class's egress rate cap (`rate`).
    RateCap,
    /// Port MTU.
    Mtu,
    /// Port descriptions (peer and peer port).
    PortDescription,
    /// Port names, speed, FEC and lanes.
    PortHardware,
    /// Cable length of each port, the input of the switch's own headroom sizing.
    CableLength,
    /// PFC headroom (xoff, xon, reserved size) per port and lossless priority.
    Headroom,
    /// The pause (XOFF) trigger: the model's dynamic threshold or a static `pfc-threshold`.
    PauseThreshold,
    /// Shared buffer pools / partitions.
    BufferPools,
    /// The dynamic threshold (alpha) one queue's share of its pool assumes.
    QueueAlpha,
    /// PFC watchdog on or off, per switch and port.
    WatchdogEnable,
    WatchdogDetect,
    WatchdogRestore,
    WatchdogPoll,
    WatchdogAction,
    /// The switch side of `load-balance`: hash fields (incl. the RoCE QP), mode, flowlet gap,
    /// seed (issue 20 item 4).
    LoadBalancing,
    /// The switch side of host bonds over a dual-ToR pair: port-channels, MLAG and the peer
    /// link (issue 18).
    HostBondLag,
}

impl Property {
    // Test support (tests/it/fidelity.rs), not the product's.
    #[cfg(feature = "internals")]
    pub const ALL: [Property; 27] = [
        Property::Identity,
        Property::Release,
        Property::Platform,
        Property::DscpClassification,
        Property::ClassQueues,
        Property::CnpClass,
        Property::PfcPriorities,
        Property::PortPfc,
        Property::EcnMarking,
        Property::PortEcn,
        Property::Scheduling,
        Property::RateCap,
        Property::Mtu,
        Property::PortDescription,
        Property::PortHardware,
        Property::CableLength,
        Property::Headroom,
        Property::PauseThreshold,
        Property::BufferPools,
        Property::QueueAlpha,
        Property::WatchdogEnable,
        Property::WatchdogDetect,
        Property::WatchdogRestore,
        Property::WatchdogPoll,
        Property::WatchdogAction,
        Property::LoadBalancing,
        Property::HostBondLag,
    ];

    /// How findings and `docs/targets.md` name the property.
    pub fn as_str(self) -> &'static str {
        match self {
            Property::Identity => "identity",
            Property::Release => "OS release",
            Property::Platform => "platform",
            Property::DscpClassification => "DSCP classification",
            Property::ClassQueues => "class priority/queue",
            Property::CnpClass => "CNP class",
            Property::PfcPriorities => "PFC priorities",
            Property::PortPfc => "per-port PFC",
            Property::EcnMarking => "ECN marking",
            Property::PortEcn => "per-port ECN",
            Property::Scheduling => "scheduling",
            Property::RateCap => "rate cap",
            Property::Mtu => "MTU",
            Property::PortDescription => "port description",
            Property::PortHardware => "port speed/FEC",
            Property::CableLength => "cable length",
            Property::Headroom => "PFC headroom",
            Property::PauseThreshold => "pause threshold",
            Property::BufferPools => "buffer pools",
            Property::QueueAlpha => "queue alpha",
            Property::WatchdogEnable => "PFC watchdog",
            Property::WatchdogDetect => "watchdog detect",
            Property::WatchdogRestore => "watchdog restore",
            Property::WatchdogPoll => "watchdog poll",
            Property::WatchdogAction => "watchdog action",
            Property::LoadBalancing => "load balancing",
            Property::HostBondLag => "host bond LAG/MLAG",
        }
    }
}

// The matrix is test/doc support (tests/it/fidelity.rs holds `docs/targets.md` to it), not the
// product's: the product uses `Property`, `Note` and `device_managed`.
/// What a target does with a property.
#[cfg(feature = "internals")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Configured as the model says; the text says how.
    Rendered(&'static str),
    /// Configured in the target's own form, with a difference a finding reports.
    Approximated(&'static str),
    /// Left to the switch, which sizes or defaults it itself; a finding says so.
    DeviceManaged(&'static str),
    /// Some values cannot be expressed: the build stops with FAB901.
    Refused(&'static str),
    /// Not configured at all; a finding says what the switch does instead.
    NotExpressible(&'static str),
}

#[cfg(feature = "internals")]
impl Support {
    pub fn kind(self) -> &'static str {
        match self {
            Support::Rendered(_) => "rendered",
            Support::Approximated(_) => "approximated",
            Support::DeviceManaged(_) => "device-managed",
            Support::Refused(_) => "refused",
            Support::NotExpressible(_) => "not expressible",
        }
    }

    pub fn how(self) -> &'static str {
        match self {
            Support::Rendered(s)
            | Support::Approximated(s)
            | Support::DeviceManaged(s)
            | Support::Refused(s)
            | Support::NotExpressible(s) => s,
        }
    }
}

/// Port speed, FEC and breakout: the same on every target.
#[cfg(feature = "internals")]
const PORTS: &str = "speed and FEC are the platform's; a broken-out cage's breakout is written (Junos: QFX5240 only, else FAB905)";

/// The targets of this matrix, in column order.
#[cfg(feature = "internals")]
pub const TARGETS: [SwitchOs; 7] = [
    SwitchOs::Sonic,
    SwitchOs::Eos,
    SwitchOs::Nxos,
    SwitchOs::Cumulus,
    SwitchOs::Junos,
    SwitchOs::Vrp,
    SwitchOs::Comware,
];

/// What target `os` does with `p`; `None` for targets outside this matrix (none today).
#[cfg(feature = "internals")]
pub fn support(os: SwitchOs, p: Property) -> Option<Support> {
    let s = match os {
        SwitchOs::Sonic => sonic_support(p),
        SwitchOs::Eos => eos_support(p),
        SwitchOs::Nxos => nxos_support(p),
        SwitchOs::Cumulus => cumulus_support(p),
        SwitchOs::Junos => junos_support(p),
        SwitchOs::Vrp => vrp_support(p),
        SwitchOs::Comware => comware_support(p),
    };
    Some(s)
}

/// What SONiC does with each property.
#[cfg(feature = "internals")]
fn sonic_support(p: Property) -> Support {
    use Property as P;
    use Support::*;
    match p {
        P::Identity => Rendered(
            "`fabricc-device.json` (name, platform, SKU) and the program's header; the fragment sets no hostname, `programs/sonic/apply.sh` refuses a switch whose hostname differs (`--any-hostname`)",
        ),
        P::Release => NotExpressible(
            "`os sonic` takes no release; the tables follow sonic-buildimage@086b03bd70f9",
        ),
        P::Platform => Rendered(
            "the SKU (port names, lanes), the ASIC family's tables (Spectrum or Broadcom) and the buffer model; no platform is FAB950",
        ),
        P::DscpClassification => {
            Rendered("`DSCP_TO_TC_MAP` FABRICC, all 64 code points, global and per port")
        }
        P::ClassQueues => Rendered(
            "`TC_TO_QUEUE_MAP`, `TC_TO_PRIORITY_GROUP_MAP`, `MAP_PFC_PRIORITY_TO_QUEUE`; PG = priority",
        ),
        P::CnpClass => {
            Rendered("`SCHEDULER` STRICT on its queue; Spectrum: a one-MTU `q_cnp_profile` reserve")
        }
        P::PfcPriorities => Rendered(
            "`pfc_enable`; Spectrum also `PFC_PRIORITY_TO_PRIORITY_GROUP_MAP`, Broadcom none",
        ),
        P::PortPfc => Rendered("per-port `PORT_QOS_MAP.pfc_enable`"),
        P::EcnMarking => Approximated(
            "`WRED_PROFILE` `ecn_all`, thresholds rounded down to whole cells of the model (FAB907)",
        ),
        P::PortEcn => Rendered("a `WRED_PROFILE` per threshold set on each port's queue"),
        P::Scheduling => Rendered("`SCHEDULER` DWRR weight / STRICT per queue"),
        P::RateCap => Rendered(
            "a `SCHEDULER` per port speed with `meter_type` bytes, `cir` = `pir` = N % of the speed in bytes/s",
        ),
        P::Mtu => Rendered("`PORT.mtu`"),
        P::PortDescription => Rendered("`PORT.description`"),
        P::PortHardware => Rendered(
            "`PORT` speed, FEC and the SKU's lanes, fabric ports only, `BREAKOUT_CFG` of broken-out cages; lanes unlike the NIC's are FAB954",
        ),
        P::CableLength => Approximated(
            "`CABLE_LENGTH`; traditional model: rounded up to a row of the SKU's `pg_profile_lookup.ini` (FAB907, none: FAB952/FAB953)",
        ),
        P::Headroom => Rendered(
            "traditional: `pg_lossless_<speed>_<cable>_profile`, xoff ≥ canonical and ≥ SONiC's Mellanox formula; dynamic: `NULL`, SONiC computes it (FAB905), an override profile where that is less (FAB955); Broadcom: the SKU row, xoff ≥ canonical",
        ),
        P::PauseThreshold => Refused(
            "`dynamic_th` of the lossless profiles / `default_dynamic_th`; a static `pfc-threshold` is FAB901",
        ),
        P::BufferPools => Rendered(
            "SONiC's layout per family; Spectrum: sized like `buffer_pool_mellanox.lua` (traditional) or by the switch (dynamic, FAB905); Broadcom: the SKU's pools",
        ),
        P::QueueAlpha => {
            Rendered("`egress_lossless_profile` of SONiC's layout (Spectrum `dynamic_th 7`)")
        }
        P::WatchdogEnable => Rendered("`PFC_WD` per port and `pfcwd_sw_enable`"),
        P::WatchdogDetect => Rendered(
            "`detection_time`; a fabric without timers gets `pfcwd start_default`'s scaling (FAB907)",
        ),
        P::WatchdogRestore => Rendered("`restoration_time`, scaled the same way"),
        P::WatchdogPoll => Rendered("`PFC_WD|GLOBAL.POLL_INTERVAL`, scaled the same way"),
        P::WatchdogAction => Rendered("`action` drop, forward or alert"),
        P::LoadBalancing => Approximated(
            "`hash` as `SWITCH_HASH|GLOBAL` `ecmp_hash` and `lag_hash` (none when a field has no SONiC name, `roce-qp`: FAB931); `mode`, `flowlet-gap` and `seed` are not written (FAB930): the switch keeps its own",
        ),
        P::HostBondLag => NotExpressible(
            "no PORTCHANNEL, PORTCHANNEL_MEMBER or MCLAG_DOMAIN: the peer link's ports get the fabric QoS, the bond's ports stay separate ports (FAB127)",
        ),
    }
}

/// What EOS does with each property.
#[cfg(feature = "internals")]
fn eos_support(p: Property) -> Support {
    use Property as P;
    use Support::*;
    match p {
        P::Identity => Rendered("header comment; the fragment sets no hostname"),
        P::Release => Rendered(
            "`os eos 4.N` (default 4.35): a class on queue 7 of a Sand platform before 4.33 is FAB901",
        ),
        P::Platform => Rendered(
            "Broadcom XGS: `uc-tx-queue` and the MMU queue profile; Sand: `tx-queue`; no `platform`: `tx-queue` (FAB909); port names (breakouts `EthernetN/L`)",
        ),
        P::DscpClassification => Rendered("`qos map dscp … to traffic-class`, one line per TC"),
        P::ClassQueues => Rendered(
            "`qos map traffic-class N to tx-queue M` where they differ; `qos map cos P to traffic-class P` for lossless 0/1",
        ),
        P::CnpClass => Rendered("`tx-queue N` `priority strict`"),
        P::PfcPriorities => Rendered("`priority-flow-control priority N no-drop`"),
        P::PortPfc => Rendered("one `qos profile` per port variant"),
        P::EcnMarking => Rendered("`random-detect ecn … bytes … max-mark-probability`"),
        P::PortEcn => Rendered("one `qos profile` per port variant"),
        P::Scheduling => Rendered("`priority strict` / `no priority` + `bandwidth percent`"),
        P::RateCap => Rendered("`shape rate N percent` on the class's tx-queue"),
        P::Mtu => Approximated("capped at 9214 (FAB907)"),
        P::PortDescription => Rendered("`description`"),
        P::PortHardware => DeviceManaged(PORTS),
        P::CableLength => Approximated(
            "XGS: through the headroom (the largest port's, FAB907); Sand: EOS sizes headroom itself (FAB905)",
        ),
        P::Headroom => Approximated(
            "XGS: MMU `ingress headroom` = the largest port's xoff sum, one profile for all ports (FAB907); Sand: platform headroom (FAB905), a `headroom` override is FAB904",
        ),
        P::PauseThreshold => Approximated(
            "XGS: the dynamic threshold as `ingress priority-group P threshold`; a static `pfc-threshold` is FAB904",
        ),
        P::BufferPools => DeviceManaged("platform MMU pools and headroom-pool limit (FAB905)"),
        P::QueueAlpha => {
            Approximated("XGS: MMU priority-group threshold 1/128..8; Sand: platform (FAB905)")
        }
        P::WatchdogEnable => Rendered("`priority-flow-control pause watchdog` per profile"),
        P::WatchdogDetect => Approximated("`timeout`, 10 ms steps: rounded up (FAB906)"),
        P::WatchdogRestore => Approximated("`recovery-time`, 10 ms steps: rounded up (FAB906)"),
        P::WatchdogPoll => Rendered("`polling-interval`, up to 30 s (above: FAB901)"),
        P::WatchdogAction => {
            Refused("`drop` → `drop`, `alert` → `notify-only`; `forward` is FAB901")
        }
        P::LoadBalancing => Approximated(
            "`hash` as `ip load-sharing trident fields ip` on Strata (Trident/Tomahawk) platforms, without `protocol` (no keyword) and not with `roce-qp`; Sand platforms and a model without `platform` keep their default (FAB930); `mode`, `flowlet-gap` and `seed` are not written (FAB930)",
        ),
        P::HostBondLag => Rendered(
            "`interface Port-Channel N` with `mlag N` per host bond, members `channel-group N mode active` (`on` for `balance-xor`), the peer link as `Port-Channel2000` trunk in trunk group `MLAGPEER` and `mlag configuration` over `Vlan4094` (169.254.0.1/.2 per pair); the host VLAN and its gateway are the operator's (FAB907, advice)",
        ),
    }
}

/// What NX-OS does with each property.
#[cfg(feature = "internals")]
fn nxos_support(p: Property) -> Support {
    use Property as P;
    use Support::*;
    match p {
        P::Identity => Rendered("header comment; the fragment sets no hostname"),
        P::Release => NotExpressible("`os nxos` takes no release yet"),
        P::Platform => {
            Rendered("port names from the catalogue (`Ethernet1/N`; broken out `Ethernet1/N/M`)")
        }
        P::DscpClassification => Rendered("`class-map type qos` + `set qos-group`"),
        P::ClassQueues => Rendered("qos-group = egress queue; `pause pfc-cos` = priority"),
        P::CnpClass => Refused("`priority level 1`; a second strict class is FAB901"),
        P::PfcPriorities => Rendered("`pause pfc-cos N` in the network-qos policy"),
        P::PortPfc => Refused("`priority-flow-control mode on|off` per port; other subsets FAB901"),
        P::EcnMarking => Approximated("`random-detect … kbytes … ecn`, rounded up (FAB907)"),
        P::PortEcn => Rendered("one output queuing policy per port variant"),
        P::Scheduling => Rendered("`priority level 1` / `bandwidth remaining percent`"),
        P::RateCap => NotExpressible(
            "not written: the queue is not shaped, FAB904 (no NX-OS shaping syntax verified for fabricc yet)",
        ),
        P::Mtu => Rendered("`mtu` per interface and network-qos class"),
        P::PortDescription => Rendered("`description`"),
        P::PortHardware => DeviceManaged(PORTS),
        P::CableLength => Rendered(
            "lossless ports over 100 m: input queuing `pause buffer-size` policy per cable group; up to 100 m the switch sizes (FAB905)",
        ),
        P::Headroom => Rendered(
            "over 100 m: `pause buffer-size` = threshold + xoff; up to 100 m platform-managed (FAB905)",
        ),
        P::PauseThreshold => Approximated(
            "over 100 m: static `pause-threshold` (the dynamic threshold becomes two MTUs, FAB906)",
        ),
        P::BufferPools => DeviceManaged("platform buffer carving (FAB905)"),
        P::QueueAlpha => DeviceManaged("platform buffer carving (FAB905)"),
        P::WatchdogEnable => Rendered("`priority-flow-control watch-dog-interval on`"),
        P::WatchdogDetect => {
            NotExpressible("platform watchdog interval; FAB904 when the fabric states `detect`")
        }
        P::WatchdogRestore => {
            NotExpressible("platform restore multipliers; FAB904 when the fabric states `restore`")
        }
        P::WatchdogPoll => NotExpressible(
            "platform poll timer, 100 ms; FAB904 when the fabric states another `poll`",
        ),
        P::WatchdogAction => Refused("drop only; `forward` and `alert` are FAB901"),
        P::LoadBalancing => Approximated(
            "`hash` and `seed` as one `ip load-sharing address … [universal-id N]` line (address/port pairs; no protocol word; not with `roce-qp`); `mode` and `flowlet-gap` are not written (FAB930)",
        ),
        P::HostBondLag => NotExpressible(
            "no vPC domain, peer-link or `port-channel … vpc`: the peer link's ports get the fabric QoS, the bond's ports stay separate ports (FAB127)",
        ),
    }
}

/// What Cumulus does with each property.
#[cfg(feature = "internals")]
fn cumulus_support(p: Property) -> Support {
    use Property as P;
    use Support::*;
    match p {
        P::Identity => Rendered("header comment; the fragment sets no hostname"),
        P::Release => Rendered("`os cumulus 5.N` picks the commands; default the newest"),
        P::Platform => Rendered("port names from the catalogue (broken out `swpNsM`)"),
        P::DscpClassification => Rendered("`qos mapping default-global dscp N switch-priority P`"),
        P::ClassQueues => Rendered("`egress-queue-mapping` switch-priority → traffic-class"),
        P::CnpClass => Rendered("`egress-scheduler … mode strict`"),
        P::PfcPriorities => Approximated(
            "`qos pfc` switch-priority; more than one share Cumulus's single lossless PG (FAB906)",
        ),
        P::PortPfc => Refused("one PFC priority set per switch; other subsets FAB901"),
        P::EcnMarking => {
            Rendered("`congestion-control` thresholds in bytes; other TCs `ecn disable`")
        }
        P::PortEcn => Rendered("congestion-control profile per port variant (5.4+)"),
        P::Scheduling => Rendered("`egress-scheduler` on all 8 traffic classes"),
        P::RateCap => NotExpressible(
            "not written: the traffic class is not shaped, FAB904 (no NVUE shaper syntax verified for fabricc yet)",
        ),
        P::Mtu => Rendered("`link mtu`"),
        P::PortDescription => Rendered("`description`"),
        P::PortHardware => DeviceManaged(PORTS),
        P::CableLength => Rendered("one PFC profile per cable length, bound per port"),
        P::Headroom => DeviceManaged(
            "switchd sizes it from cable length (FAB905); a `headroom` override is FAB904",
        ),
        P::PauseThreshold => {
            NotExpressible("switchd's threshold; a static `pfc-threshold` is FAB904")
        }
        P::BufferPools => Rendered("`traffic-pool default-lossless` / `default-lossy` percent"),
        P::QueueAlpha => DeviceManaged("pool alpha left at the default (FAB905)"),
        P::WatchdogEnable => {
            Rendered("`qos pfc-watchdog state enable` per port (5.6+, else FAB908)")
        }
        P::WatchdogDetect => Approximated("`robustness` = detect / poll, rounded up (FAB906)"),
        P::WatchdogRestore => NotExpressible(
            "restores after one poll interval without pause frames (FAB904 when the fabric states a `restore` ≠ poll)",
        ),
        P::WatchdogPoll => Rendered("`polling-interval` (ms)"),
        P::WatchdogAction => Refused("drop only; `forward` and `alert` are FAB901"),
        P::LoadBalancing => Approximated(
            "`hash` as `system forwarding ecmp-hash` (the five outer-header fields on or off, `ipv6-label` and `ingress-interface` off; `enabled`/`disabled` from 5.15); none with `roce-qp`; `seed` as `system forwarding hash-seed`; `mode adaptive` as `router adaptive-routing` on Spectrum-4 from 5.6, globally and on the switch-facing ports; `mode flowlet|per-packet` and `flowlet-gap` are not written (FAB930)",
        ),
        P::HostBondLag => NotExpressible(
            "no NVUE `bond member` nor `mlag`: the peer link's ports get the fabric QoS, the bond's ports stay separate ports (FAB127)",
        ),
    }
}

/// What Junos does with each property.
#[cfg(feature = "internals")]
fn junos_support(p: Property) -> Support {
    use Property as P;
    use Support::*;
    match p {
        P::Identity => Rendered("header comment; the fragment sets no host-name"),
        P::Release => NotExpressible("`os junos` takes no release yet"),
        P::Platform => Rendered(
            "the catalogue's buffer sizes the partitions; port names (channelized `et-0/0/N:M`)",
        ),
        P::DscpClassification => Rendered("DSCP classifier, binary code points"),
        P::ClassQueues => Rendered("`forwarding-classes class … queue-num`"),
        P::CnpClass => Rendered("`priority strict-high` + `transmit-rate percent 5`"),
        P::PfcPriorities => Rendered("`no-loss pfc-priority` + CN profile input/output"),
        P::PortPfc => Rendered("one CN profile per port variant"),
        P::EcnMarking => Approximated(
            "`fill-level` percent of the queue's share: a stated level (`ecn min 55%`) as written, bytes rounded to whole percent; below 1 % or collapsed is FAB906",
        ),
        P::PortEcn => Rendered("one scheduler map per port variant"),
        P::Scheduling => Rendered("`transmit-rate percent` / `priority strict-high`"),
        P::RateCap => Rendered(
            "`shaping-rate percent N` (and `transmit-rate percent N`) in the class's scheduler",
        ),
        P::Mtu => Rendered("`mtu`"),
        P::PortDescription => Rendered("`description`"),
        P::PortHardware => DeviceManaged(PORTS),
        P::CableLength => Rendered("`input cable-length` per CN profile"),
        P::Headroom => Approximated(
            "`lossless-headroom` partition percent; Junos sizes each port from cable length (FAB905)",
        ),
        P::PauseThreshold => {
            NotExpressible("Junos default threshold; a static `pfc-threshold` is FAB904")
        }
        P::BufferPools => Rendered("shared-buffer partitions, ingress lossless = egress lossless"),
        P::QueueAlpha => Approximated("stated in a comment; Junos keeps its dynamic threshold"),
        P::WatchdogEnable => Rendered("`pfc-watchdog` in the CN profile"),
        P::WatchdogDetect => Approximated("`detection` poll intervals, rounded up (FAB906)"),
        P::WatchdogRestore => Rendered("`recovery` (ms)"),
        P::WatchdogPoll => Rendered("`poll-interval` (ms)"),
        P::WatchdogAction => Refused("`watchdog-action drop|forward`; `alert` is FAB901"),
        P::LoadBalancing => Approximated(
            "`hash` as `enhanced-hash-key inet|inet6 { no-…; }` for the fields left out; `roce-qp` is the QFX5240's default; `mode flowlet|per-packet` and `flowlet-gap` as `ecmp-dlb` on the QFX5230/QFX5240; `seed` and `mode adaptive` are not written (FAB930)",
        ),
        P::HostBondLag => NotExpressible(
            "no `ae` interface with ESI-LAG or MC-LAG: the peer link's ports get the fabric QoS, the bond's ports stay separate ports (FAB127)",
        ),
    }
}

/// What Huawei VRP (CloudEngine) does with each property (`render::vrp`).
#[cfg(feature = "internals")]
fn vrp_support(p: Property) -> Support {
    use Property as P;
    use Support::*;
    match p {
        P::Identity => Rendered("header comment; the fragment sets no sysname"),
        P::Release => NotExpressible("`os vrp` takes no release; the syntax is V300R023C00's"),
        P::Platform => Rendered(
            "the CloudEngine family (CE8850 or CE8855) picks the deadlock, headroom and ECN commands; port names `400GE1/0/N[:M]`",
        ),
        P::DscpClassification => Rendered(
            "DiffServ domain `FABRICC_ROCE`, all 64 `ip-dscp-inbound D phb P green`, `trust upstream` on the ports",
        ),
        P::ClassQueues => Rendered("the PHB of the DSCP is the queue (BE, AF1–AF4, EF, CS6, CS7)"),
        P::CnpClass => Rendered("a strict class is a PQ queue (`qos pq`)"),
        P::PfcPriorities => Refused(
            "`dcb pfc` profile `priority P …`; a lossless class's priority must be its queue, CE8850 family 0–5 (three), CE8855 family 0–7 (four), else FAB901",
        ),
        P::PortPfc => {
            Rendered("`dcb pfc enable PROFILE mode manual`, one profile per port variant")
        }
        P::EcnMarking => Rendered(
            "drop profile `FABRICC_Q<queue>` with `ecn buffer-size low-limit … high-limit … discard-percentage …` (bytes); static thresholds; AI ECN not enabled (FAB907, advice)",
        ),
        P::PortEcn => Rendered("`qos queue Q wred PROFILE` + `qos queue Q ecn` per port"),
        P::Scheduling => {
            Rendered("`qos pq` / `qos drr` over all queues, `qos queue Q drr weight W`")
        }
        P::RateCap => NotExpressible("queue shaping is not written (FAB904)"),
        P::Mtu => Rendered("`mtu` (at most 9600)"),
        P::PortDescription => Rendered("`description` / `undo description`"),
        P::PortHardware => {
            DeviceManaged("speed and FEC are the platform's; `port split` is not written (FAB905)")
        }
        P::CableLength => DeviceManaged("no cable-length command: the headroom carries it"),
        P::Headroom => Approximated(
            "CE8855 family: `dcb pfc buffer Q hdrm N kbytes` (rounded up) and the headroom pool; CE8850 family sizes it itself (FAB905)",
        ),
        P::PauseThreshold => Approximated(
            "a static `pfc-threshold` is `dcb pfc buffer Q xoff static N kbytes` on the CE8855 family; the dynamic threshold stays VRP's",
        ),
        P::BufferPools => DeviceManaged("the platform's buffer pools"),
        P::QueueAlpha => DeviceManaged("VRP's own dynamic thresholds"),
        P::WatchdogEnable => Approximated(
            "deadlock detection is always on in VRP; without a watchdog the default timers come back (FAB904)",
        ),
        P::WatchdogDetect => Approximated(
            "CE8850: `dcb pfc deadlock-detect timer` ms; CE8855: `priority P deadlock-detect time` in units of `deadlock-detect interval`, rounded up (FAB906)",
        ),
        P::WatchdogRestore => Approximated(
            "`dcb pfc deadlock-recovery timer` / `priority P deadlock-recovery time`, as for detect",
        ),
        P::WatchdogPoll => NotExpressible("no polling interval (FAB904)"),
        P::WatchdogAction => Refused(
            "`dcb pfc deadlock recovery-behavior discard|forwarding slot 1`; `alert` is FAB901",
        ),
        P::LoadBalancing => Approximated(
            "`load-balance ecmp` / `ip …` fields; no RoCE QP field, no seed, no adaptive mode (FAB930)",
        ),
        P::HostBondLag => {
            NotExpressible("no M-LAG is written: the ports stay separate fabric ports")
        }
    }
}

/// What Comware does with each property (`render::comware`).
#[cfg(feature = "internals")]
fn comware_support(p: Property) -> Support {
    use Property as P;
    use Support::*;
    match p {
        P::Identity => Rendered("header comment; the fragment sets no sysname"),
        P::Release => NotExpressible(
            "`os comware` takes no release; written for Comware 7 (S9825/S9855 R913x)",
        ),
        P::Platform => Rendered(
            "port names by speed (`FourHundredGigE1/0/N`, broken out `TwoHundredGigE1/0/N:M`); the cell size of headroom and WRED limits",
        ),
        P::DscpClassification => Rendered(
            "`qos trust dscp`; `qos map-table dscp-dot1p` (DSCP → the class's PFC priority), every DSCP stated",
        ),
        P::ClassQueues => Rendered(
            "`qos map-table dot1p-lp` (802.1p → local precedence = queue), all eight stated; classes of one priority on different queues are FAB901",
        ),
        P::CnpClass => Rendered("its queue in the SP group (`qos wrr Q group sp`)"),
        P::PfcPriorities => Rendered("`priority-flow-control no-drop dot1p LIST` per port"),
        P::PortPfc => {
            Rendered("`priority-flow-control enable` per port (`undo` where the port has none)")
        }
        P::EcnMarking => Approximated(
            "a WRED table, `queue Q low-limit L high-limit H discard-probability P` + `queue Q ecn`, limits in cells (unit not stated by H3C: FAB909); static thresholds, not H3C's AI ECN",
        ),
        P::PortEcn => Rendered(
            "one WRED table per port variant (`FABRICC_ROCE`, `FABRICC_ROCE_2` …), `qos wred apply`",
        ),
        P::Scheduling => Rendered(
            "`qos wrr byte-count`, `qos wrr Q group 1 byte-count W` (weights divided by their common divisor) / `group sp`, every queue stated",
        ),
        P::RateCap => NotExpressible("not written: no per-queue shaping command sourced (FAB904)"),
        P::Mtu => NotExpressible(
            "not written: no jumbo-frame command sourced for the S9825/S9855 (FAB904)",
        ),
        P::PortDescription => Rendered("`description` / `undo description`"),
        P::PortHardware => DeviceManaged(
            "speed and FEC are the platform's; breakouts are not split by the file (FAB909)",
        ),
        P::CableLength => Approximated("through the headroom cells only"),
        P::Headroom => Rendered(
            "`priority-flow-control dot1p P headroom CELLS` per lossless priority (rounded up to the cell), `undo` for the others",
        ),
        P::PauseThreshold => NotExpressible(
            "`ingress-buffer` not written: no source maps its values to bytes or α (FAB904)",
        ),
        P::BufferPools => DeviceManaged("the platform's pools"),
        P::QueueAlpha => Approximated("WRED keeps Comware's default averaging exponent (FAB906)"),
        P::WatchdogEnable => {
            Rendered("`priority-flow-control deadlock enable` on the lossless ports")
        }
        P::WatchdogDetect => NotExpressible(
            "`deadlock cos P interval N` not written: its step (`deadlock precision`) is not sourced (FAB904)",
        ),
        P::WatchdogRestore => {
            NotExpressible("`deadlock auto-recover cos P delay D` not written, as detect (FAB904)")
        }
        P::WatchdogPoll => NotExpressible("`deadlock precision` not written (FAB904)"),
        P::WatchdogAction => {
            Refused("`deadlock auto-recover action discard|forwarding`; `alert` is FAB901")
        }
        P::LoadBalancing => NotExpressible(
            "not written: no ECMP hash or adaptive-routing command sourced for the S9825/S9855 (FAB930)",
        ),
        P::HostBondLag => NotExpressible("no M-LAG: the bond's ports stay separate ports (FAB127)"),
    }
}

/// Every property a switch context carries, field by field. Destructured without `..`: a
/// field added to a context struct breaks this function until it names its property.
#[cfg(feature = "internals")]
pub fn properties_of(ctx: &SwitchContext) -> Vec<Property> {
    use Property as P;
    let SwitchContext {
        device: _,
        os: _,
        release: _,
        platform: _,
        description: _,
        fabric: _,
        mtu: _,
        qos,
        watchdog,
        buffer,
        ports,
        sonic,
        hash_fields,
        lb,
        mlag,
    } = ctx;
    let mut out = vec![P::Identity, P::Release, P::Platform, P::Mtu];
    if mlag.is_some() {
        out.push(P::HostBondLag);
    }
    if hash_fields.is_some() || lb.mode.is_some() || lb.seed.is_some() {
        out.push(P::LoadBalancing);
    }
    if let Some(plan) = sonic {
        sonic_plan_properties(plan, &mut out);
    }
    let QosPlan {
        classes,
        lossless_priorities: _,
        dscp_to_tc: _,
    } = qos;
    out.extend([P::PfcPriorities, P::DscpClassification]);
    for c in classes {
        class_properties(c, &mut out);
    }
    if let Some(w) = watchdog {
        let Watchdog {
            detect_ms: _,
            restore_ms: _,
            poll_ms: _,
            action: _,
            defaults: _,
        } = w;
        out.extend([
            P::WatchdogEnable,
            P::WatchdogDetect,
            P::WatchdogRestore,
            P::WatchdogPoll,
            P::WatchdogAction,
        ]);
    }
    let BufferPlan {
        total_bytes: _,
        ingress_lossless_pool_bytes: _,
        shared_headroom_pool_bytes: _,
        egress_lossless_pool_bytes: _,
        egress_lossy_pool_bytes: _,
        lossless_queue_buffer_bytes: _,
        queue_log2_alpha: _,
        pause_point_bytes: _,
        cell_bytes: _,
    } = buffer;
    out.extend([P::BufferPools, P::QueueAlpha]);
    for p in ports {
        port_properties(p, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The properties of a SONiC plan and its ports, field by field.
#[cfg(feature = "internals")]
fn sonic_plan_properties(plan: &SonicPlan, out: &mut Vec<Property>) {
    use Property as P;
    let SonicPlan {
        platform: _,
        hwsku: _,
        asic: _,
        buffer_model: _,
        sku_ports: _,
        cell_bytes: _,
        traffic_pattern: _,
        default_dynamic_th: _,
        pools: _,
        profiles: _,
        ingress_profile_list: _,
        egress_profile_list: _,
        lossy_pg_profile: _,
        lossless_queue_profile: _,
        lossy_queue_profile: _,
        cnp_queue_profile: _,
        pfc_to_pg_map: _,
        watchdog_scale: _,
        breakouts: _,
        cage_ports: _,
        switch_hash: _,
        ports,
    } = plan;
    out.extend([
        P::PortHardware,
        P::BufferPools,
        P::QueueAlpha,
        P::Headroom,
        P::PauseThreshold,
        P::EcnMarking,
        P::CnpClass,
        P::PfcPriorities,
        P::WatchdogDetect,
    ]);
    for sp in ports {
        let SonicPort {
            cable: _,
            lossless_profile: _,
            eight_lanes: _,
            lookup_row_missing: _,
            lanes_mismatch: _,
            sku_row: _,
        } = sp;
        out.extend([P::CableLength, P::Headroom, P::PortHardware]);
    }
}

/// The properties of one class, field by field.
#[cfg(feature = "internals")]
fn class_properties(c: &ClassContext, out: &mut Vec<Property>) {
    use Property as P;
    let ClassContext {
        name: _,
        dscps: _,
        default: _,
        priority: _,
        tc: _,
        queue: _,
        rate_percent,
        lossless: _,
        ecn: _,
        scheduling: _,
        cnp: _,
    } = c;
    out.extend([
        P::Identity,
        P::DscpClassification,
        P::ClassQueues,
        P::PfcPriorities,
        P::EcnMarking,
        P::Scheduling,
        P::CnpClass,
    ]);
    if rate_percent.is_some() {
        out.push(P::RateCap);
    }
}

/// The properties of one port and its headroom, field by field.
#[cfg(feature = "internals")]
fn port_properties(p: &PortContext, out: &mut Vec<Property>) {
    use Property as P;
    let PortContext {
        name: _,
        index: _,
        speed_mbps: _,
        mtu: _,
        cable_m: _,
        peer: _,
        peer_port: _,
        description: _,
        lanes: _,
        fec: _,
        lossless_priorities: _,
        headroom,
        pause_threshold: _,
        ecn: _,
        pfc_watchdog: _,
    } = p;
    out.extend([
        P::PortHardware,
        P::Mtu,
        P::CableLength,
        P::PortDescription,
        P::PortPfc,
        P::PauseThreshold,
        P::PortEcn,
        P::WatchdogEnable,
    ]);
    for h in headroom {
        let Headroom {
            priority: _,
            xoff_bytes: _,
            xon_bytes: _,
            size_bytes: _,
            fixed: _,
            formula: _,
        } = h;
        out.push(P::Headroom);
    }
}

/// What kind of difference a `Note` reports; each is one diagnostic code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NoteKind {
    /// FAB904: not configured; the switch applies its own behaviour.
    NotRendered,
    /// FAB905: a computed value is left to the switch's own sizing.
    DeviceManaged,
    /// FAB906: configured, but rounded, clamped or shared.
    Approximated,
    /// FAB907: the target's own form, with a difference that does not matter for lossless.
    Adjusted,
    /// FAB908: the OS release cannot configure it; left out.
    ReleaseLacks,
    /// FAB909: whether the line takes effect depends on the platform.
    PlatformDependent,
    /// FAB953: SONiC Broadcom: a cable longer than every lookup row of its speed.
    LookupRowMissing,
    /// FAB954: a SONiC port's lanes differ from its NIC's at the link speed.
    LanesMismatch,
    /// FAB955: dynamic buffer model: fabricc pins some ports' headroom.
    HeadroomPinned,
}

/// A difference between a device's output and the model, for one property.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Note {
    pub kind: NoteKind,
    pub property: Property,
    /// What the switch will do instead; one line, no device or target name.
    pub text: String,
}

impl Note {
    pub fn new(kind: NoteKind, property: Property, text: impl Into<String>) -> Note {
        Note {
            kind,
            property,
            text: text.into(),
        }
    }
}

/// The port note of a switch whose fabric ports are broken out and whose target cannot write
/// the breakout (`written` false: no sourced syntax for that platform): its names exist only
/// once the breakout is configured. Port speed and FEC, which every target
/// leaves to the platform on every fabric, are not a finding: a `check` finding says something
/// about this fabric, and what holds for every fabric of a target is in `docs/targets.md` and
/// report.md.
pub(crate) fn device_managed(ctx: &SwitchContext, written: bool, notes: &mut Vec<Note>) {
    let Some(p) = &ctx.platform else { return };
    if written {
        return;
    }
    let Some(first) = p.breakouts.first() else {
        return;
    };
    let (first, split) = (first.cage, first.ways);
    let uniform = p.breakouts.iter().all(|b| b.ways == split);
    let ways = if uniform {
        format!("into {split} ports")
    } else {
        "into several ports".to_string()
    };
    let which = if p.breakouts.len() == 1 {
        format!("cage {first} of {} is", p.name)
    } else {
        let numbers: Vec<u32> = p.breakouts.iter().map(|b| b.cage).collect();
        format!("cages {} of {} are", ranges(&numbers), p.name)
    };
    notes.push(Note::new(
        NoteKind::DeviceManaged,
        Property::PortHardware,
        format!(
            "{which} broken out {ways}: the port names are the broken-out ones, and the file configures no breakout, speed or FEC; configure the breakout on the switch first"
        ),
    ));
}

/// Sorted numbers as `1-3, 5`.
fn ranges(numbers: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            numbers[i].to_string()
        } else {
            format!("{}-{}", numbers[i], numbers[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// FAB904 for every class with a `rate` cap on a target that writes none: the queue is not
/// shaped, so a strict class may take the whole port.
pub fn rate_caps_not_rendered(qos: &QosPlan, what: &str, notes: &mut Vec<Note>) {
    for c in qos.classes.iter().filter(|c| c.rate_percent.is_some()) {
        notes.push(Note::new(
            NoteKind::NotRendered,
            Property::RateCap,
            format!(
                "class `{}`: the cap `rate {}%` is not configured, so {what} {} is not shaped and, {}, can use the whole port",
                c.name,
                c.rate_percent.unwrap_or(100),
                c.queue,
                if c.scheduling == super::context::Scheduling::Strict {
                    "being strict"
                } else {
                    "when the others are idle"
                }
            ),
        ));
    }
}

/// What a target leaves to the switch on every fabric, whatever the fabric says: printed in
/// report.md (per target built), not as findings.
pub fn always_left(os: SwitchOs) -> &'static [&'static str] {
    match os {
        SwitchOs::Sonic => &[],
        SwitchOs::Eos | SwitchOs::Cumulus => {
            &["port speed and FEC: the platform's port defaults (breakouts are written)"]
        }
        SwitchOs::Junos => &[
            "port speed and FEC: the platform's port defaults (breakouts are written on the QFX5240, else FAB905)",
        ],
        SwitchOs::Comware => &[
            "port speed, FEC and breakouts: the platform's port defaults (a cage is split by hand)",
            "PFC pause threshold, interface MTU, PFC deadlock timers: Comware's own (FAB904)",
        ],
        SwitchOs::Nxos => &[
            "port speed and FEC: the platform's port defaults (breakouts are written)",
            "PFC watchdog timers: NX-OS's own unless the fabric states `detect`, `restore` or `poll` (then FAB904)",
        ],
        SwitchOs::Vrp => &[
            "port speed, FEC and `port split`: the platform's (breakouts are not written, FAB905)",
        ],
    }
}

/// The matrix as the Markdown table `docs/targets.md` holds between its markers.
#[cfg(feature = "internals")]
pub fn matrix_markdown() -> String {
    let mut o = String::from("| property |");
    for os in TARGETS {
        o.push_str(&format!(" {} |", os.as_str()));
    }
    o.push_str("\n|---|");
    for _ in TARGETS {
        o.push_str("---|");
    }
    o.push('\n');
    for p in Property::ALL {
        o.push_str(&format!("| {} |", p.as_str()));
        for os in TARGETS {
            if let Some(s) = support(os, p) {
                o.push_str(&format!(
                    " **{}**: {} |",
                    s.kind(),
                    s.how().replace('|', "\\|")
                ));
            }
        }
        o.push('\n');
    }
    o
}

/// Every variant, by an exhaustive match: a new property fails to compile here until it is
/// in `Property::ALL`'s order too (the test checks the two agree).
#[cfg(feature = "internals")]
pub fn index(p: Property) -> usize {
    match p {
        Property::Identity => 0,
        Property::Release => 1,
        Property::Platform => 2,
        Property::DscpClassification => 3,
        Property::ClassQueues => 4,
        Property::CnpClass => 5,
        Property::PfcPriorities => 6,
        Property::PortPfc => 7,
        Property::EcnMarking => 8,
        Property::PortEcn => 9,
        Property::Scheduling => 10,
        Property::RateCap => 11,
        Property::Mtu => 12,
        Property::PortDescription => 13,
        Property::PortHardware => 14,
        Property::CableLength => 15,
        Property::Headroom => 16,
        Property::PauseThreshold => 17,
        Property::BufferPools => 18,
        Property::QueueAlpha => 19,
        Property::WatchdogEnable => 20,
        Property::WatchdogDetect => 21,
        Property::WatchdogRestore => 22,
        Property::WatchdogPoll => 23,
        Property::WatchdogAction => 24,
        Property::LoadBalancing => 25,
        Property::HostBondLag => 26,
    }
}
