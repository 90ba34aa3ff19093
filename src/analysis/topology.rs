//! Topology checks and facts: incomplete rails (FAB603), the wired oversubscription of every
//! switch against the declared one (FAB604, `facts.oversubscription`), isolated devices (FAB605).

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Fabric, SwitchId};

use super::facts::OversubscriptionRow;

pub fn check(fabric: &Fabric, diags: &mut Vec<Diagnostic>) -> Vec<OversubscriptionRow> {
    rails(fabric, diags);
    isolated(fabric, diags);
    oversubscription(fabric, diags)
}

fn rails(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    for (h_id, h) in fabric.hosts.iter().enumerate() {
        if h.nics.len() < 2 || h.nics.iter().all(|n| n.link.is_none()) {
            continue;
        }
        let missing: Vec<String> = h
            .nics
            .iter()
            .enumerate()
            .filter(|(_, n)| n.link.is_none())
            .map(|(i, _)| fabric.nic_name(crate::model::HostId(h_id as u32), i as u32))
            .collect();
        if !missing.is_empty() {
            diags.push(
                Diagnostic::new(
                    Code::IncompleteRail,
                    h.span,
                    format!(
                        "host `{}` leaves {} unconnected, so its rail is incomplete",
                        h.name,
                        missing.join(", ")
                    ),
                )
                .label("host declared here")
                .help(format!(
                    "link each NIC to its rail's leaf, e.g. `link {}.{} -- LEAF`",
                    h.name, missing[0]
                )),
            );
        }
    }
}

fn isolated(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    for s in &fabric.switches {
        if s.ports.iter().all(Option::is_none) {
            diags.push(
                Diagnostic::new(
                    Code::Isolated,
                    s.span,
                    format!("switch `{}` has no links", s.name),
                )
                .label("declared here")
                .help("link it into the fabric, or remove it"),
            );
        }
    }
    for h in &fabric.hosts {
        if h.nics.iter().all(|n| n.link.is_none()) {
            diags.push(
                Diagnostic::new(
                    Code::Isolated,
                    h.span,
                    format!("host `{}` has no links", h.name),
                )
                .label("declared here")
                .help("link it to a leaf (`link HOST -- LEAF`), or let a `tier` wire it"),
            );
        }
    }
}

/// Down and up capacity (Mb/s) of a switch: toward hosts or lower tiers, and toward higher tiers.
pub fn capacity(fabric: &Fabric, s: SwitchId) -> (u64, u64) {
    let me = DeviceId::Switch(s);
    let my_tier = fabric.switch(s).tier.map(|t| t.value);
    let (mut down, mut up) = (0, 0);
    for (_, l) in fabric.device_links(me) {
        let link = fabric.link(l);
        match fabric.peer(l, me).device {
            DeviceId::Host(_) => down += link.speed,
            DeviceId::Switch(p) => match (my_tier, fabric.switch(p).tier.map(|t| t.value)) {
                (Some(a), Some(b)) if b < a => down += link.speed,
                (Some(a), Some(b)) if b > a => up += link.speed,
                (None, _) | (_, None) => up += link.speed,
                _ => {}
            },
        }
    }
    (down, up)
}

fn oversubscription(fabric: &Fabric, diags: &mut Vec<Diagnostic>) -> Vec<OversubscriptionRow> {
    let mut rows = Vec::with_capacity(fabric.switches.len());
    for s in fabric.switch_ids() {
        let (down, up) = capacity(fabric, s);
        let ratio = (up > 0).then(|| (down as f64 / up as f64 * 1000.0).round() / 1000.0);
        let sw = fabric.switch(s);
        if let (Some(t), Some(r)) = (sw.generated, ratio)
            && let Some(declared) = fabric.tiers[t.index()].oversubscription
        {
            let want = declared.value.0 as f64 / declared.value.1 as f64;
            if r > want * 1.005 {
                diags.push(
                    Diagnostic::new(
                        Code::Oversubscription,
                        declared.span,
                        format!("switch `{}` is wired {r}:1 ({} Gb/s down, {} Gb/s up), above the declared {want}:1", sw.name, down / 1000, up / 1000),
                    )
                    .label("declared ratio")
                    .help("the links run at other speeds or counts than the ports the ratio assumes (slower upper-tier ports, extra links); match the port speeds, or declare the ratio the wiring has"),
                );
            }
        }
        if down > 0 || up > 0 {
            rows.push(OversubscriptionRow {
                switch: sw.name.clone(),
                down_gbps: down / 1000,
                up_gbps: up / 1000,
                ratio,
            });
        }
    }
    rows
}
