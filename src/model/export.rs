//! Writing the serde form of a resolved fabric: what `fabricc export` prints (YAML or JSON).
//! The document's types and its reading (`.yaml` input) are the YAML front end, in
//! `syntax::yaml`.

use crate::model::{
    Class, Dscp, Fabric, Host, Link, LoadBalance, RouteTarget, Scheduling, Switch, SwitchModel,
    Watchdog,
};
use crate::syntax::ast::{self, Congestion, NicRole, RoutingModel, WatchdogAction};

// The document's types, at their old path too (`model::export::FabricDoc`).
pub use crate::syntax::yaml::doc::*;
// Kept at its old path for callers that name it here.
pub use crate::syntax::yaml::parse_yaml;

fn ecn_speeds_doc(list: &[crate::model::EcnAtSpeed]) -> Vec<EcnAtSpeedDoc> {
    list.iter()
        .map(|e| EcnAtSpeedDoc {
            speed_mbps: e.speed.get(),
            min_bytes: bytes_unless_fill(e.min, e.min_fill),
            max_bytes: bytes_unless_fill(e.max, e.max_fill),
            min_fill_percent: e.min_fill.map(percent),
            max_fill_percent: e.max_fill.map(percent),
            probability_percent: e.probability.map(|v| percent(v.value)),
        })
        .collect()
}

/// A threshold's bytes, unless it is a fill level (whose bytes differ per switch).
fn bytes_unless_fill(
    b: Option<crate::model::Sourced<crate::model::Bytes>>,
    fill: Option<u64>,
) -> Option<u64> {
    b.filter(|_| fill.is_none()).map(|v| v.value.get())
}

fn percent(thousandths: u64) -> f64 {
    thousandths as f64 / 1000.0
}

fn watchdog_doc(w: Watchdog) -> WatchdogDoc {
    match w {
        Watchdog::Off => WatchdogDoc {
            enabled: false,
            detect_ns: None,
            restore_ns: None,
            poll_ns: None,
            action: None,
        },
        Watchdog::On {
            detect_ns,
            restore_ns,
            poll_ns,
            action,
        } => WatchdogDoc {
            enabled: true,
            detect_ns: Some(detect_ns.get()),
            restore_ns: Some(restore_ns.get()),
            poll_ns: Some(poll_ns.get()),
            action: Some(action_name(action).into()),
        },
    }
}

fn action_name(a: WatchdogAction) -> &'static str {
    match a {
        WatchdogAction::Drop => "drop",
        WatchdogAction::Forward => "forward",
        WatchdogAction::Alert => "alert",
    }
}

fn dscp_doc(d: &Dscp) -> DscpDoc {
    match d {
        Dscp::Other => DscpDoc::Other("other".into()),
        Dscp::Values(v) => DscpDoc::Values(v.clone()),
    }
}

fn scheduling_doc(s: Scheduling) -> SchedulingDoc {
    match s {
        Scheduling::Strict => SchedulingDoc::Strict("strict".into()),
        Scheduling::Ets(p) => SchedulingDoc::Ets {
            bandwidth_percent: p.map(percent),
        },
    }
}

fn congestion_name(c: Congestion) -> &'static str {
    match c {
        Congestion::Dcqcn => "dcqcn",
        Congestion::None => "none",
    }
}

fn routing_name(m: RoutingModel) -> &'static str {
    match m {
        RoutingModel::Updown => "updown",
        RoutingModel::Shortest => "shortest",
        RoutingModel::None => "none",
    }
}

fn overrides_doc(fabric: &Fabric, list: &[crate::model::ClassOverride]) -> Vec<OverrideDoc> {
    list.iter()
        .enumerate()
        .filter(|(_, o)| **o != crate::model::ClassOverride::default())
        .map(|(i, o)| OverrideDoc {
            class: fabric.classes[i].name.clone(),
            dscp: o.dscp.as_ref().map(|d| dscp_doc(&d.value)),
            priority: o.priority.map(|v| v.value),
            lossless: o.lossless.map(|v| v.value),
            congestion: o.congestion.map(|v| congestion_name(v.value).into()),
            ecn_enabled: o.ecn_enabled.map(|v| v.value),
            ecn_min_bytes: bytes_unless_fill(o.ecn_min, o.ecn_min_fill),
            ecn_max_bytes: bytes_unless_fill(o.ecn_max, o.ecn_max_fill),
            ecn_min_fill_percent: o.ecn_min_fill.map(percent),
            ecn_max_fill_percent: o.ecn_max_fill.map(percent),
            ecn_probability_percent: o.ecn_probability.map(|v| percent(v.value)),
            scheduling: o.scheduling.map(|v| scheduling_doc(v.value)),
            pfc_threshold_bytes: o.pfc_threshold.map(|v| v.value.get()),
            headroom_bytes: o.headroom.map(|v| v.value.get()),
            ecn_at_speed: ecn_speeds_doc(&o.ecn_speeds),
        })
        .collect()
}

/// The export document of a resolved fabric.
pub fn export(fabric: &Fabric) -> FabricDoc {
    FabricDoc {
        version: 1,
        fabric: fabric.name.clone(),
        description: fabric.description.as_ref().map(|d| d.value.clone()),
        mtu: fabric.mtu.value.get(),
        roce_mtu: fabric.roce_mtu.value.get(),
        rtt_ns: fabric.rtt.map(|r| r.value.get()),
        buffer_model: fabric.buffer_model.map(|m| m.value.as_str().to_string()),
        load_balance: fabric.load_balance.as_ref().map(load_balance_doc),
        allow: fabric
            .allow
            .iter()
            .map(|a| a.value.as_str().to_string())
            .collect(),
        pfc_watchdog: watchdog_doc(fabric.watchdog.value),
        classes: fabric.classes.iter().map(class_doc).collect(),
        switch_models: fabric.switch_models.iter().map(switch_model_doc).collect(),
        nic_models: fabric
            .nic_models
            .iter()
            .map(|m| NicModelDoc {
                name: m.name.clone(),
                platform: m.platform.map(|p| p.name.clone()),
                driver: m.driver.value.clone(),
                speed_mbps: m.speed.value.get(),
                buffer_bytes: m.buffer.map(|b| b.value.get()),
                ports: m.ports,
            })
            .collect(),
        switches: fabric
            .switches
            .iter()
            .map(|s| switch_doc(fabric, s))
            .collect(),
        hosts: fabric.hosts.iter().map(|h| host_doc(fabric, h)).collect(),
        links: fabric.links.iter().map(|l| link_doc(fabric, l)).collect(),
        routing: routing_doc(fabric),
    }
}

/// A class as the document writes it.
fn class_doc(c: &Class) -> ClassDoc {
    ClassDoc {
        name: c.name.clone(),
        dscp: c.dscp.as_ref().map(|d| dscp_doc(&d.value)),
        priority: c.priority.value,
        lossless: c.lossless.value,
        congestion: congestion_name(c.congestion.value).into(),
        ecn: EcnDoc {
            enabled: c.ecn.enabled.value,
            min_bytes: bytes_unless_fill(Some(c.ecn.min), c.ecn.min_fill),
            max_bytes: bytes_unless_fill(Some(c.ecn.max), c.ecn.max_fill),
            min_fill_percent: c.ecn.min_fill.map(percent),
            max_fill_percent: c.ecn.max_fill.map(percent),
            probability_percent: percent(c.ecn.probability.value),
        },
        scheduling: scheduling_doc(c.scheduling.value),
        pfc_threshold_bytes: c.pfc_threshold.map(|p| p.value.get()),
        cnp: c.cnp.is_some(),
        traffic_class: c.traffic_class.map(|t| t.value),
        queue: c.queue.map(|q| q.value),
        rate_percent: c.rate.map(|r| r.value / 1000),
        ecn_at_speed: ecn_speeds_doc(&c.ecn_speeds),
    }
}

/// A switch model; a broken-out port group is written as its cages and their breakout.
fn switch_model_doc(m: &SwitchModel) -> SwitchModelDoc {
    SwitchModelDoc {
        name: m.name.clone(),
        platform: m.platform.map(|p| p.name.clone()),
        os: m.os.value.as_str().into(),
        release: m.release.map(|r| r.value.to_string()),
        ports: m
            .ports
            .value
            .iter()
            .map(|g| match g.breakout {
                None => PortGroupDoc {
                    count: g.count,
                    speed_mbps: g.speed,
                    breakout: None,
                },
                Some(b) => PortGroupDoc {
                    count: g.count / b.ways.max(1),
                    speed_mbps: b.cage_speed,
                    breakout: Some(BreakoutDoc {
                        ways: b.ways,
                        speed_mbps: g.speed,
                    }),
                },
            })
            .collect(),
        buffer_bytes: m.buffer.map(|b| b.value.get()),
        lossless_limit: m.lossless_limit.map(|l| l.value),
        cell_bytes: m.cell.map(|c| c.value.get()),
        dynamic_threshold: m.dynamic_threshold.value,
        buffer_model: m
            .buffer_model
            .filter(|b| !b.default)
            .map(|b| b.value.as_str().to_string()),
        linecards: linecards_doc(m.chassis.as_ref()),
        sku: m.sku.as_ref().map(|s| s.path.clone()),
    }
}

/// A switch, by its model's name.
fn switch_doc(fabric: &Fabric, s: &Switch) -> SwitchDoc {
    SwitchDoc {
        name: s.name.clone(),
        model: fabric.switch_models[s.model.index()].name.clone(),
        tier: s.tier.map(|t| t.value),
        mtu: s.mtu.map(|m| m.value.get()),
        description: s.description.as_ref().map(|d| d.value.clone()),
        pfc_watchdog: s.watchdog.map(|w| watchdog_doc(w.value)),
        overrides: overrides_doc(fabric, &s.class_overrides),
    }
}

/// A host and its NICs.
fn host_doc(fabric: &Fabric, h: &Host) -> HostDoc {
    HostDoc {
        name: h.name.clone(),
        nics: h
            .nics
            .iter()
            .map(|n| NicDoc {
                model: fabric.nic_models[n.model.index()].name.clone(),
                netdev: n.netdev.clone(),
                rdma_device: n.rdma_device.clone(),
                pci: n.pci.clone(),
                role: (n.role != NicRole::Backend).then(|| n.role.word().to_string()),
                plane: n.plane,
            })
            .collect(),
        pfc: h.pfc.map(|p| p.value),
        ecn_off: h.ecn_off.is_some(),
        bond: h.bond.map(|b| b.value.word().to_string()),
        spare: h.spare.is_some(),
        overrides: overrides_doc(fabric, &h.class_overrides),
    }
}

/// A link by its ends' names, with its per-link ECN.
fn link_doc(fabric: &Fabric, l: &Link) -> LinkDoc {
    LinkDoc {
        a: fabric.endpoint_name(l.a),
        b: fabric.endpoint_name(l.b),
        speed_mbps: l.speed.get(),
        cable_mm: l.cable_mm.value.get(),
        ecn: l
            .ecn
            .iter()
            .map(|(c, e)| LinkEcnDoc {
                class: fabric.class(*c).name.clone(),
                min_bytes: bytes_unless_fill(e.min, e.min_fill),
                max_bytes: bytes_unless_fill(e.max, e.max_fill),
                min_fill_percent: e.min_fill.map(percent),
                max_fill_percent: e.max_fill.map(percent),
                probability_percent: e.probability.map(|v| percent(v.value)),
            })
            .collect(),
    }
}

/// The load-balancing policy.
fn load_balance_doc(lb: &LoadBalance) -> LoadBalanceDoc {
    LoadBalanceDoc {
        hash: lb.hash.as_ref().map_or_else(Vec::new, |h| {
            h.value.iter().map(|f| f.keyword().to_string()).collect()
        }),
        mode: lb.mode.map(|m| m.value.keyword().to_string()),
        flowlet_gap_ns: lb.flowlet_gap.map(|g| g.value.get()),
        seed: lb.seed.map(|s| match s.value {
            ast::LbSeed::PerTier => "per-tier".to_string(),
            ast::LbSeed::Fixed(n) => n.to_string(),
        }),
        qps_per_connection: lb.qps_per_connection.map(|q| q.value),
        split_data_on_qps: lb.split_data_on_qps.map(|q| q.value),
    }
}

/// The routing model, its explicit routes, failed links, paths and rewrites.
fn routing_doc(fabric: &Fabric) -> RoutingDoc {
    let target = |t: RouteTarget| match t {
        RouteTarget::Host(h) => fabric.host(h).name.clone(),
        RouteTarget::Switch(s) => fabric.switch(s).name.clone(),
    };
    RoutingDoc {
        model: routing_name(fabric.routing.model.value).into(),
        routes: fabric
            .routing
            .routes
            .iter()
            .map(|r| RouteDoc {
                at: fabric.switch(r.at).name.clone(),
                to: target(r.to),
                via: fabric.device_name(r.via).into(),
            })
            .collect(),
        fail: fabric
            .routing
            .fails
            .iter()
            .map(|f| FailDoc {
                a: fabric.device_name(f.a).into(),
                b: fabric.device_name(f.b).into(),
            })
            .collect(),
        check_failures: fabric.routing.check_failures.value,
        paths: fabric
            .routing
            .paths
            .iter()
            .map(|p| PathDoc {
                class: p.class.map(|c| fabric.class(c).name.clone()),
                hops: p
                    .hops
                    .iter()
                    .map(|&d| fabric.device_name(d).to_string())
                    .collect(),
            })
            .collect(),
        rewrites: fabric
            .routing
            .rewrites
            .iter()
            .map(|r| RewriteDoc {
                at: fabric.switch(r.at).name.clone(),
                from: fabric.device_name(r.from).into(),
                to: fabric.device_name(r.to).into(),
                old: r.old,
                new: r.new,
            })
            .collect(),
        bounce_tagging: fabric
            .routing
            .bounce_tagging
            .as_ref()
            .map(|b| b.value.clone()),
    }
}

// ---------------------------------------------------------------- YAML in

/// The cards of a chassis model as runs of consecutive slots holding the same card.
fn linecards_doc(chassis: Option<&crate::catalogue::ChassisPlace>) -> Vec<LinecardDoc> {
    let mut runs: Vec<LinecardDoc> = Vec::new();
    for (slot, card) in chassis.map_or(&[][..], |c| &c.cards[..]) {
        match runs.last_mut() {
            Some(r) if r.card == card.name && r.last_slot + 1 == *slot => r.last_slot = *slot,
            _ => runs.push(LinecardDoc {
                first_slot: *slot,
                last_slot: *slot,
                card: card.name.clone(),
            }),
        }
    }
    runs
}
