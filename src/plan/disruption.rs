//! What a change does to traffic on the device that takes it, per target: the kind of setting
//! a key is (`Kind`), and per target what changing that kind disrupts (`Disruption`), with the
//! public source that says so. The per-target tables are the ones `docs/change/<target>.md`
//! explains at length; a row here and a row there must agree.

use serde::Serialize;

use crate::render::{Release, SwitchOs};

/// How much a change disrupts the device that takes it, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Disruption {
    /// No traffic impact expected.
    Hitless,
    /// Queues or buffers are reprogrammed: packets of the changed queues can drop briefly.
    QueueReprogram,
    /// A link goes down and up.
    PortFlap,
    /// A service (the switch's forwarding agent, or the whole configuration) restarts: every
    /// port stops forwarding for a while.
    ServiceRestart,
    /// The device is replaced or reloaded from scratch.
    Reboot,
}

impl Disruption {
    pub fn as_str(self) -> &'static str {
        match self {
            Disruption::Hitless => "hitless",
            Disruption::QueueReprogram => "queue-reprogram",
            Disruption::PortFlap => "port-flap",
            Disruption::ServiceRestart => "service-restart",
            Disruption::Reboot => "reboot",
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            Disruption::Hitless => "no traffic impact expected",
            Disruption::QueueReprogram => {
                "queues or buffers are reprogrammed; packets of the changed queues can drop briefly"
            }
            Disruption::PortFlap => "a link goes down and up",
            Disruption::ServiceRestart => {
                "a service restarts; every port of the device stops forwarding for a while"
            }
            Disruption::Reboot => "the device is replaced or loaded from scratch",
        }
    }
}

/// What kind of setting a key is; the tables below say what changing it disrupts per target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Names and descriptions.
    Cosmetic,
    /// DSCP → traffic class entries.
    DscpMap,
    /// Which classes exist, their priority, queue and losslessness; PFC per priority.
    ClassPlan,
    Ecn,
    Scheduling,
    Watchdog,
    Mtu,
    /// Per-port priority-group headroom and pause thresholds (cable length).
    Headroom,
    /// Pools, the buffer model, switch-wide buffer profiles.
    BufferPool,
    /// A port joins or leaves the fabric, or is cabled elsewhere.
    Port,
    Breakout,
    LoadBalance,
    Mlag,
    /// The platform, OS or release of the device.
    Platform,
    // Hosts.
    HostPfc,
    HostMtu,
    HostEts,
    /// DSCP → priority, the ToS RoCE traffic gets, ECN/CNP.
    HostMarking,
    HostNic,
    HostBond,
    /// NCCL's environment: read when a job starts.
    HostNccl,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Cosmetic => "description",
            Kind::DscpMap => "dscp-map",
            Kind::ClassPlan => "class-plan",
            Kind::Ecn => "ecn",
            Kind::Scheduling => "scheduling",
            Kind::Watchdog => "pfc-watchdog",
            Kind::Mtu => "mtu",
            Kind::Headroom => "headroom",
            Kind::BufferPool => "buffer-pool",
            Kind::Port => "port",
            Kind::Breakout => "breakout",
            Kind::LoadBalance => "load-balance",
            Kind::Mlag => "mlag",
            Kind::Platform => "platform",
            Kind::HostPfc => "nic-pfc",
            Kind::HostMtu => "nic-mtu",
            Kind::HostEts => "nic-ets",
            Kind::HostMarking => "nic-marking",
            Kind::HostNic => "nic-identity",
            Kind::HostBond => "nic-bond",
            Kind::HostNccl => "nccl-env",
        }
    }
}

/// The kind of a switch setting, from its key (`settings` names them).
pub fn switch_kind(key: &str) -> Kind {
    let has = |s: &str| key.contains(s);
    if key.starts_with("platform.breakouts") || key.starts_with("sonic.breakouts") {
        Kind::Breakout
    } else if key.starts_with("platform") || key == "os" || key == "release" {
        Kind::Platform
    } else if key.starts_with("lb.") || key.starts_with("hash_fields") || has("switch_hash") {
        Kind::LoadBalance
    } else if key.starts_with("mlag") {
        Kind::Mlag
    } else if has("description") {
        Kind::Cosmetic
    } else if has("ecn") {
        Kind::Ecn
    } else if has("watchdog") {
        Kind::Watchdog
    } else if has("scheduling") || has("rate_percent") {
        Kind::Scheduling
    } else if key.starts_with("qos.dscp_to_tc") || key.ends_with(".dscps") {
        Kind::DscpMap
    } else if key.starts_with("qos.") || has("lossless_priorities") {
        Kind::ClassPlan
    } else if has("mtu") {
        Kind::Mtu
    } else if has("headroom") || has("pause_threshold") || has("cable_m") {
        Kind::Headroom
    } else if key.starts_with("buffer.") || key.starts_with("sonic.") {
        Kind::BufferPool
    } else {
        // A port's identity (peer, speed, lanes, FEC) or the port itself appearing or leaving.
        Kind::Port
    }
}

/// The kind of a host setting.
pub fn host_kind(key: &str) -> Kind {
    if key.starts_with("qos.pfc") {
        Kind::HostPfc
    } else if key == "qos.mtu" {
        Kind::HostMtu
    } else if key.starts_with("qos.prio_tc")
        || key.starts_with("qos.tsa")
        || key.starts_with("qos.tcbw")
    {
        Kind::HostEts
    } else if key.starts_with("qos.") {
        Kind::HostMarking
    } else if key.starts_with("bonds") {
        Kind::HostBond
    } else if key.starts_with("qps_per_connection") || key.starts_with("split_data_on_qps") {
        Kind::HostNccl
    } else if key.starts_with("description")
        || key.starts_with("left_alone")
        || key.starts_with("deviations")
    {
        Kind::Cosmetic
    } else {
        Kind::HostNic
    }
}

/// Where a device's changes are applied, for the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Switch(SwitchOs),
    /// A host, by NIC driver family (`mlx5`, `bnxt`, `ice`, `dcb`, `hns`, `hccn`).
    Host(&'static str),
}

/// What changing `kind` on `target` disrupts, and the public source that says so.
pub fn disruption(target: Target, kind: Kind) -> (Disruption, &'static str) {
    use Disruption::*;
    use Kind::*;
    if kind == Cosmetic {
        return (Hitless, "a description or name only");
    }
    if kind == Platform {
        return (
            Reboot,
            "a different platform, OS or release: the device is replaced or re-imaged and its whole configuration applied",
        );
    }
    match target {
        Target::Switch(SwitchOs::Sonic) => match kind {
            Ecn | Scheduling => (
                Hitless,
                "qosorch applies WRED and scheduler changes live through `config apply-patch` (sonic-net/sonic-swss orchagent/qosorch.cpp); docs/change/sonic.md",
            ),
            DscpMap | ClassPlan | Port => (
                QueueReprogram,
                "maps, QUEUE, PORT_QOS_MAP and BUFFER_PG/BUFFER_QUEUE keys are applied live by qosorch and buffermgrd; the changed priority groups are reprogrammed (sonic-net/sonic-swss); docs/change/sonic.md",
            ),
            Watchdog => (
                Hitless,
                "PFC_WD fields are live through GCU on a known ASIC family (sonic-net/sonic-utilities generic_config_updater/gcu_field_operation_validators.conf.json); switching the watchdog off takes the reload path",
            ),
            Mtu | Headroom | BufferPool | Breakout => (
                ServiceRestart,
                "a BUFFER_POOL, buffer profile, buffer model or breakout change takes `config reload` (GCU refuses BUFFER_POOL changes; buffermgrd reads the buffer model when it starts): swss and syncd restart",
            ),
            LoadBalance => (
                Hitless,
                "SWITCH_HASH fields are applied live; flows may be rehashed onto other paths",
            ),
            Mlag => (PortFlap, "the port channels of the pair are re-made"),
            _ => (QueueReprogram, "docs/change/sonic.md"),
        },
        Target::Switch(SwitchOs::Cumulus) => match kind {
            DscpMap | Ecn | Scheduling | Watchdog | Port => (
                Hitless,
                "switchd reloads its QoS configuration without a restart (NVIDIA Cumulus Linux User Guide, Quality of Service)",
            ),
            ClassPlan | Headroom | BufferPool => (
                QueueReprogram,
                "the buffers are reprogrammed; traffic of the changed priorities can drop briefly (NVIDIA Cumulus Linux User Guide, Quality of Service)",
            ),
            Mtu => (
                Hitless,
                "the link MTU changes in place; no link flap is documented (NVIDIA Cumulus Linux User Guide, Switch Port Attributes)",
            ),
            Breakout => (
                PortFlap,
                "the cage's ports are re-created (NVIDIA Cumulus Linux User Guide, Switch Port Attributes, Breakout Ports)",
            ),
            LoadBalance => (
                ServiceRestart,
                "configuring the hash seed, or adaptive routing on 5.12 and earlier, restarts switchd (NVIDIA Cumulus Linux User Guide, Equal Cost Multipath Load Sharing; NVUE Command Reference, Adaptive Routing)",
            ),
            Mlag => (PortFlap, "the bonds of the pair are re-made"),
            _ => (QueueReprogram, "docs/change/cumulus.md"),
        },
        Target::Switch(SwitchOs::Eos) => match kind {
            DscpMap | Watchdog | Mtu => (
                Hitless,
                "classification, watchdog and L3 MTU change at commit without a link flap (Arista EOS User Manual, Quality of Service)",
            ),
            ClassPlan | Ecn | Scheduling | Headroom | BufferPool => (
                QueueReprogram,
                "the qos profile is re-made on every fabric port, and the MMU queue profile is switch-wide: the buffers of every port are reprogrammed (Arista EOS User Manual, Quality of Service)",
            ),
            Port | Breakout => (
                PortFlap,
                "ports.cfg changes the port's mode and speed: the link flaps (Arista EOS User Manual, Ethernet Ports)",
            ),
            LoadBalance => (Hitless, "flows may be rehashed onto other paths"),
            _ => (PortFlap, "the port channels of the pair are re-made"),
        },
        Target::Switch(SwitchOs::Nxos) => match kind {
            Watchdog | Port => (
                Hitless,
                "the watchdog and a new port's policies change without a traffic impact (Cisco Nexus 9000 Series NX-OS Quality of Service Configuration Guide)",
            ),
            DscpMap | ClassPlan | Ecn | Scheduling | Mtu | Headroom | BufferPool => (
                QueueReprogram,
                "the system queuing and network-qos policies are re-made: a brief traffic loss on every port (Cisco Nexus 9000 Series NX-OS Quality of Service Configuration Guide, Queuing and Scheduling)",
            ),
            Breakout => (PortFlap, "the interfaces of the cage are re-created"),
            LoadBalance => (Hitless, "flows may be rehashed onto other paths"),
            _ => (PortFlap, "the port channels of the pair are re-made"),
        },
        Target::Switch(SwitchOs::Junos) => match kind {
            DscpMap | Ecn | Watchdog | Port | LoadBalance => (
                Hitless,
                "packets are reclassified or marked differently; no buffer change (Juniper, Junos OS Class of Service User Guide)",
            ),
            ClassPlan | Headroom | Scheduling => (
                QueueReprogram,
                "PFC is reprogrammed on every fabric port that uses a changed congestion-notification profile (Juniper, Junos OS Class of Service User Guide, PFC)",
            ),
            BufferPool => (
                QueueReprogram,
                "\"Changing the buffer configuration is a disruptive event. Traffic stops on all ports until buffer reprogramming is complete\" (Juniper, Configuring Global Ingress and Egress Shared Buffers)",
            ),
            Mtu => (
                PortFlap,
                "the ports may flap while the MTU is reprogrammed (Juniper, Junos OS Interfaces Fundamentals, Media MTU)",
            ),
            _ => (PortFlap, "docs/change/junos.md"),
        },
        Target::Switch(SwitchOs::Vrp) => match kind {
            DscpMap | Ecn | Scheduling | Watchdog | LoadBalance | Mtu => (
                Hitless,
                "the DiffServ domain, drop profiles, queue scheduling and deadlock timers change at commit without a link flap (Huawei CloudEngine V300R023C00 Configuration Guide, QoS and PFC); docs/change/vrp.md",
            ),
            ClassPlan | Port | Headroom | BufferPool => (
                QueueReprogram,
                "the PFC profile or buffer thresholds of the ports change: \"exercise caution when modifying the mappings between the priorities of PFC-enabled queues\" (Huawei CloudEngine V300R023C00 Configuration Guide, Enabling PFC); docs/change/vrp.md",
            ),
            Breakout => (
                PortFlap,
                "`port split` deletes the interface and creates new ones (Huawei CloudEngine V300R023C00 Command Reference, port split)",
            ),
            _ => (PortFlap, "docs/change/vrp.md"),
        },
        Target::Switch(SwitchOs::Comware) => match kind {
            DscpMap | Ecn | Scheduling | Watchdog | Port => (
                QueueReprogram,
                "the priority maps, WRED table, scheduling and deadlock detection change on the fabric ports at once; no H3C document states the traffic impact, so fabricc plans a reprogramming of the queues (docs/change/comware.md)",
            ),
            ClassPlan | Headroom | BufferPool => (
                QueueReprogram,
                "PFC, its no-drop priorities and their headroom are reprogrammed on every fabric port (H3C Intelligent Lossless Network Configuration Guide, PFC; docs/change/comware.md)",
            ),
            Mtu | LoadBalance => (
                Hitless,
                "the Comware file writes neither the MTU nor the ECMP hash: nothing on the switch changes",
            ),
            Breakout => (
                PortFlap,
                "the cage is split by hand; its ports are re-created",
            ),
            _ => (PortFlap, "docs/change/comware.md"),
        },
        Target::Host(driver) => match kind {
            HostPfc if driver == "mlx5" => (
                PortFlap,
                "mlx5 toggles the port link when PFC changes: running RDMA jobs on that NIC fail (Linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c, mlx5e_dcbnl_ieee_setpfc)",
            ),
            HostPfc | HostEts if driver == "bnxt" => (
                QueueReprogram,
                "PFC is off while priorities move between TCs (Broadcom bnxt_re README, Guidelines for changing DCB settings)",
            ),
            HostPfc => (
                QueueReprogram,
                "the NIC's PFC configuration is reprogrammed (IEEE 802.1Qaz DCB through the driver)",
            ),
            HostMtu => (
                QueueReprogram,
                "the netdev reopens its queues (Linux mlx5e_change_mtu; `ip link set mtu`)",
            ),
            HostEts | HostMarking => (
                Hitless,
                "no link toggle in the driver path; packets in flight may be classified by the old or the new map for a moment (unverified on hardware)",
            ),
            HostBond => (PortFlap, "the bond is re-made: its ports leave and rejoin"),
            HostNccl => (
                Hitless,
                "read by NCCL when a job starts: running jobs keep the old values",
            ),
            _ => (
                Hitless,
                "the settings file's NIC identity lines; nothing on the NIC changes",
            ),
        },
    }
}

/// Cumulus's load-balance settings by release: the hash seed restarts switchd on every
/// release; adaptive routing restarts it up to 5.12 and not from 5.13; the rest rehashes
/// flows at most. `release`: the model's `os cumulus 5.N` (`None` = the newest, 5.17).
pub fn cumulus_load_balance(release: Option<Release>, key: &str) -> (Disruption, &'static str) {
    let release = release.unwrap_or(Release::new(5, 17));
    if key.contains("seed") {
        (
            Disruption::ServiceRestart,
            "\"Configuring the hash seed restarts the switchd service\" (NVIDIA Cumulus Linux User Guide, Equal Cost Multipath Load Sharing, Unique Hash Seed)",
        )
    } else if key.starts_with("lb.mode") && release < Release::new(5, 13) {
        (
            Disruption::ServiceRestart,
            "\"In Cumulus Linux 5.12 and earlier, NVUE restarts switchd\" when adaptive routing changes (NVUE Command Reference, Adaptive Routing)",
        )
    } else if key.starts_with("lb.mode") {
        (
            Disruption::Hitless,
            "from Cumulus Linux 5.13 enabling adaptive routing no longer restarts switchd (What's New in 5.13)",
        )
    } else {
        (
            Disruption::Hitless,
            "flows may be rehashed onto other paths",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_the_kind_the_tables_expect() {
        assert_eq!(
            switch_kind("ports[Ethernet0].ecn[q3].ecn.min_bytes"),
            Kind::Ecn
        );
        assert_eq!(switch_kind("qos.dscp_to_tc[26]"), Kind::DscpMap);
        assert_eq!(switch_kind("qos.classes[roce].dscps"), Kind::DscpMap);
        assert_eq!(switch_kind("qos.classes[roce].priority"), Kind::ClassPlan);
        assert_eq!(
            switch_kind("ports[swp1].lossless_priorities"),
            Kind::ClassPlan
        );
        assert_eq!(switch_kind("ports[swp1].mtu"), Kind::Mtu);
        assert_eq!(
            switch_kind("ports[swp1].headroom[p3].xoff_bytes"),
            Kind::Headroom
        );
        assert_eq!(switch_kind("ports[swp9].peer"), Kind::Port);
        assert_eq!(switch_kind("ports[swp9].description"), Kind::Cosmetic);
        assert_eq!(switch_kind("watchdog.detect_ms"), Kind::Watchdog);
        assert_eq!(switch_kind("sonic.buffer_model"), Kind::BufferPool);
        assert_eq!(host_kind("qos.pfc[3]"), Kind::HostPfc);
        assert_eq!(host_kind("qos.dscp2prio[24]"), Kind::HostMarking);
        assert_eq!(host_kind("qos.mtu"), Kind::HostMtu);
        assert_eq!(host_kind("nics[nic1].peer"), Kind::HostNic);
    }

    #[test]
    fn adaptive_routing_restarts_switchd_up_to_cumulus_5_12_only() {
        let at = |minor| cumulus_load_balance(Some(Release::new(5, minor)), "lb.mode").0;
        assert_eq!(at(12), Disruption::ServiceRestart);
        assert_eq!(at(13), Disruption::Hitless);
        assert_eq!(
            cumulus_load_balance(None, "lb.seed").0,
            Disruption::ServiceRestart
        );
    }

    #[test]
    fn an_ecn_change_is_hitless_on_sonic_and_a_queue_reprogram_on_nxos() {
        let sonic = disruption(Target::Switch(SwitchOs::Sonic), Kind::Ecn).0;
        let nxos = disruption(Target::Switch(SwitchOs::Nxos), Kind::Ecn).0;
        assert_eq!(
            (sonic, nxos),
            (Disruption::Hitless, Disruption::QueueReprogram)
        );
        assert_eq!(
            disruption(Target::Host("mlx5"), Kind::HostPfc).0,
            Disruption::PortFlap
        );
    }
}
