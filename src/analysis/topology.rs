//! Topology checks and facts: incomplete rails (FAB603), the wired oversubscription of every
//! switch against the declared one (FAB604, `facts.oversubscription`), isolated devices (FAB605).

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Fabric, SwitchId};

use super::facts::OversubscriptionRow;

pub fn check(fabric: &Fabric, diags: &mut Vec<Diagnostic>) -> Vec<OversubscriptionRow> {
    rails(fabric, diags);
    super::nic_roles::frontend_links(fabric, diags);
    isolated(fabric, diags);
    under_subscribed(fabric, diags);
    oversubscription(fabric, diags)
}

/// FAB615 (issue 18 item 6): host NICs on switch ports two or more times their speed, which
/// the cage could instead break out (400G NICs on 800G ports: half of every cage idle, and a
/// generated leaf tier twice as large). One finding per switch model, naming its switches.
fn under_subscribed(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    use std::collections::BTreeMap;
    // model → (switches, links, port speed, link speed, ways)
    let mut by_model: BTreeMap<usize, (Vec<String>, u32, u64, u64, u64)> = BTreeMap::new();
    for s in fabric.switch_ids() {
        let sw = fabric.switch(s);
        let model = fabric.switch_model(s);
        let me = DeviceId::Switch(s);
        let mut n = 0u32;
        let mut seen = None;
        for (end, l) in fabric.device_links(me) {
            let link = fabric.link(l);
            if !matches!(fabric.peer(l, me).device, DeviceId::Host(_)) || link.speed.get() == 0 {
                continue;
            }
            let port = model.port_speed(end.port);
            let ways = port / link.speed.get();
            if ways < 2 || !port.is_multiple_of(link.speed.get()) {
                continue;
            }
            // Only where the catalogue knows the platform's cages and one has that mode: a
            // model without them may have cages that cannot split.
            let gbps = u32::try_from(link.speed.get() / 1000).unwrap_or(u32::MAX);
            // A port that is already a sub-port (split `k`) needs `k × ways` per cage.
            let mode = model.platform.is_some_and(|p| {
                let split = p
                    .place(&model.ports.value, end.port)
                    .map_or(1, |(_, k, _)| u64::from(k));
                p.fabric_cages()
                    .any(|c| u64::from(c.ports_per_cage(gbps)) >= ways * split)
            });
            if mode {
                n += 1;
                seen = Some((port, link.speed.get(), ways));
            }
        }
        if let Some((port, speed, ways)) = seen {
            let e = by_model
                .entry(sw.model.index())
                .or_insert_with(|| (Vec::new(), 0, port, speed, ways));
            e.0.push(sw.name.clone());
            e.1 += n;
        }
    }
    for (m, (switches, links, port, speed, ways)) in by_model {
        let model = &fabric.switch_models[m];
        let who = match switches.as_slice() {
            [one] => format!("`{one}`"),
            [first, rest @ ..] => format!("`{first}` and {} more", rest.len()),
            [] => continue,
        };
        let g = |mbps: u64| crate::syntax::printer::speed(crate::syntax::ast::Speed(mbps));
        let cages = model.port_count();
        diags.push(
            Diagnostic::new(
                Code::UnderSubscribed,
                model.span,
                format!(
                    "{who}: {links} host link(s) run {} on {} ports of model `{}`, so each port carries 1/{ways} of its bandwidth and the switches take {ways} times fewer NICs than they could",
                    g(speed),
                    g(port),
                    model.name
                ),
            )
            .label("ports faster than the NICs on them")
            .help(format!(
                "break the cages out: `ports {cages} x {} breakout {ways} x {}` gives {ways} NIC ports per cage",
                g(port),
                g(speed)
            )),
        );
    }
}

fn rails(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    for (h_id, h) in fabric.hosts.iter().enumerate() {
        if h.nics.len() < 2 || h.nics.iter().all(|n| n.link.is_none()) {
            continue;
        }
        // Only backend NICs form rails (issue 18 item 4).
        let missing: Vec<String> = h
            .nics
            .iter()
            .enumerate()
            .filter(|(_, n)| n.link.is_none() && n.role == crate::model::NicRole::Backend)
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

/// Down and up capacity (Mb/s) of a switch: toward hosts or lower tiers, and toward higher
/// tiers. Links to `spare` hosts are left out (issue 18).
pub fn capacity(fabric: &Fabric, s: SwitchId) -> (u64, u64) {
    let me = DeviceId::Switch(s);
    let my_tier = fabric.switch(s).tier.map(|t| t.value);
    let (mut down, mut up) = (0, 0);
    for (_, l) in fabric.device_links(me) {
        let link = fabric.link(l);
        match fabric.peer(l, me).device {
            // A spare (backup) host is wired but idle: it is no load on the uplinks.
            DeviceId::Host(h) if fabric.host(h).spare.is_some() => {}
            DeviceId::Host(_) => down += link.speed.get(),
            DeviceId::Switch(p) => match (my_tier, fabric.switch(p).tier.map(|t| t.value)) {
                (Some(a), Some(b)) if b < a => down += link.speed.get(),
                (Some(a), Some(b)) if b > a => up += link.speed.get(),
                (None, _) | (_, None) => up += link.speed.get(),
                _ => {}
            },
        }
    }
    (down, up)
}

/// U4: a generated switch wired well below its tier's declared ratio has uplinks its
/// attached hosts cannot fill (a 64-port leaf at `oversubscription 1:1` cables 32 uplinks for
/// 16 hosts): one advice per tier, with the first switch's numbers.
fn uplinks_beyond_use(
    fabric: &Fabric,
    under: &[(SwitchId, u64, u64, f64)],
    diags: &mut Vec<Diagnostic>,
) {
    let mut by_tier: std::collections::BTreeMap<usize, Vec<&(SwitchId, u64, u64, f64)>> =
        std::collections::BTreeMap::new();
    for row in under {
        if let Some(t) = fabric.switch(row.0).generated {
            by_tier.entry(t.index()).or_default().push(row);
        }
    }
    for (t, rows) in by_tier {
        let tier = &fabric.tiers[t];
        let Some(declared) = tier.oversubscription else {
            continue;
        };
        let &(s, down, up, r) = rows[0];
        let name = &fabric.switch(s).name;
        let more = match rows.len() {
            1 => String::new(),
            n => format!(" (and {} more of tier `{}`)", n - 1, tier.name),
        };
        let (a, b) = declared.value;
        let want = a as f64 / b.max(1) as f64;
        // The uplinks that would carry the attached traffic at the declared ratio.
        let need = (down as u128 * b as u128).div_ceil(a.max(1) as u128) as u64;
        diags.push(
            Diagnostic::new(
                Code::UplinksExceedUse,
                declared.span,
                format!(
                    "switch `{name}`{more} is wired {r}:1 ({} Gb/s down in use, {} Gb/s up): the declared {want}:1 splits its ports, and fewer hosts are attached than its downlinks hold",
                    down / 1000,
                    up / 1000
                ),
            )
            .label("declared ratio")
            .help(format!(
                "to cable only what the attached traffic needs at {want}:1 (about {} Gb/s up), write `downlinks D  uplinks U` on tier `{}` and `switches N` on the tier above; otherwise nothing is wrong",
                need / 1000,
                tier.name
            )),
        );
    }
}

fn oversubscription(fabric: &Fabric, diags: &mut Vec<Diagnostic>) -> Vec<OversubscriptionRow> {
    let mut rows = Vec::with_capacity(fabric.switches.len());
    let mut under: Vec<(SwitchId, u64, u64, f64)> = Vec::new();
    for s in fabric.switch_ids() {
        let (down, up) = capacity(fabric, s);
        let ratio = (up > 0).then(|| (down as f64 / up as f64 * 1000.0).round() / 1000.0);
        let sw = fabric.switch(s);
        if let (Some(t), Some(r)) = (sw.generated, ratio)
            && let Some(declared) = fabric.tiers[t.index()].oversubscription
        {
            let want = declared.value.0 as f64 / declared.value.1 as f64;
            // At most half the declared ratio: uplinks the attached traffic cannot fill.
            if r * 2.0 <= want && down > 0 {
                under.push((s, down, up, r));
            }
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
    uplinks_beyond_use(fabric, &under, diags);
    rows
}
