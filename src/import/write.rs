//! The `.fab` of a deployed fabric: fabric-wide values from the majority of switches, every
//! switch that differs as an override, hosts with their NIC identities, links on their
//! ports, tiers from the hosts up. Every line that states a deployed value records the
//! state file and range it came from.

use std::collections::{BTreeMap, BTreeSet};

use super::classes::{Class, ecn_overrides, ecn_words, plan_notes};
use super::deployed::{
    Cable, Deployed, Ev, HostDev, Note, NoteKind, Peer, Sched, SwitchDev, Threshold, Watchdog,
    natural,
};
use super::models::{CumulusKey, cumulus_key, cumulus_model, nic_lines, platform_of};
use super::routes::routes;
use super::text::{Out, length, list, sched_words, size, watchdog_words};
use super::vendor::{VendorKey, no_cable_notes, vendor_model};
use super::view::{View, majority, pick, view};
use crate::model::mtu::ROCE_HEADER_ALLOWANCE;
use crate::model::target::NicDriver;

/// SONiC's port names are `Ethernet<first lane>`: the port index is the number over the
/// lanes a port takes.
fn port_index(port: &str, lanes: u32) -> Option<u32> {
    let n: u32 = port.strip_prefix("Ethernet")?.parse().ok()?;
    (lanes > 0 && n.is_multiple_of(lanes)).then(|| n / lanes)
}

/// The `.fab` text, and the origins of its lines (byte ranges of the text).
pub fn fab(
    name: &str,
    state_display: &str,
    d: &mut Deployed,
) -> (String, Vec<(usize, usize, Ev, bool)>) {
    let mut notes: Vec<Note> = Vec::new();
    let mut o = Out {
        text: String::new(),
        origins: Vec::new(),
        device_lines: Vec::new(),
    };
    let views = switch_views(d, &mut notes);
    let (classes, fabric_lossless) = fabric_classes(d, &views, &mut notes);
    super::ports::port_notes(d, &views, &classes, &mut notes);
    let models = switch_models(d, &views);
    let tier = tiers(d);

    let fabric = fabric_values(name, state_display, d, &views, &mut o, &mut notes);
    for c in &classes {
        o.line(1, &class_line(c), c.at);
    }
    if let Some((w, at)) = fabric.watchdog {
        o.line(1, &watchdog_words(w), Some(at));
    }
    load_balance(d, &mut o, &mut notes);
    o.line(0, "", None);

    for (mname, k, members, at) in &models {
        if let Some(cu) = &k.cumulus {
            cumulus_model(d, &mut o, &mut notes, mname, k.speed, cu, members, *at);
            continue;
        }
        if let Some(v) = &k.vendor {
            vendor_model(d, &mut o, &mut notes, mname, v, k.dynamic, members);
            continue;
        }
        sonic_model(d, &mut o, &mut notes, mname, k, members, *at);
    }
    let nics = CabledNics::of(d, &models);
    nics.write_models(d, &mut o);
    o.line(0, "", None);

    write_switches(d, &models, &tier, &mut o);
    for h in &d.hosts {
        if nics.is_cabled(h) {
            write_host(d, &nics, h, &mut o, &mut notes);
        }
    }
    o.line(0, "", None);

    let ports = FabPorts {
        d,
        models: &models,
        views: &views,
        classes: &classes,
    };
    no_cable_notes(d, &mut notes);
    for c in &d.cables {
        write_link(&ports, c, &mut o, &mut notes);
    }
    o.line(0, "", None);

    for (i, s) in d.switches.iter().enumerate() {
        switch_overrides(s, &views[i], &classes, &fabric, &mut o, &mut notes);
    }
    let roce = classes.iter().find(|c| c.lossless && !c.dscp.is_empty());
    for h in &d.hosts {
        let Some(hs) = &h.host else { continue };
        if nics.is_cabled(h) {
            let lines = host_override_lines(h, hs, roce, &fabric_lossless, &mut notes);
            device_block(&mut o, "host", &h.name, lines);
        }
    }

    o.line(0, "", None);
    write_routing(d, &tier, &mut o, &mut notes);
    routes(d, &mut o, &mut notes);
    o.line(0, "}", None);
    d.notes.extend(notes);
    let device = |x: usize| o.device_lines.iter().any(|&(a, b)| a <= x && x < b);
    let origins = o
        .origins
        .iter()
        .map(|&(a, b, e)| (a, b, e, device(a)))
        .collect();
    (o.text, origins)
}

/// What most switches run, which a switch's override block is measured against.
struct FabricWide {
    mtu: Option<(u64, Ev)>,
    watchdog: Option<(Option<Watchdog>, Ev)>,
}

/// The header, `fabric NAME {`, and the fabric-wide `mtu` and `roce-mtu`. The RoCE MTU comes
/// from the hosts' netdev MTU, as that is what the NICs negotiate with.
fn fabric_values(
    name: &str,
    state_display: &str,
    d: &Deployed,
    views: &[View],
    o: &mut Out,
    notes: &mut Vec<Note>,
) -> FabricWide {
    let mtus = host_mtus(d);
    o.comment(0, &format!("Imported by `fabricc import` from the state in `{state_display}`: the fabric as deployed."));
    o.comment(0, "Fabric-wide values are what most switches run; a switch that differs has an override below.");
    o.comment(
        0,
        "`fabricc check` on this file judges the deployed values, including wrong ones.",
    );
    o.line(0, &format!("fabric {name} {{"), None);
    let switch_mtus: Vec<(u64, Ev)> = views.iter().filter_map(|v| v.mtu).collect();
    let fabric_mtu = majority(&switch_mtus);
    if let Some((m, at)) = fabric_mtu {
        o.line(1, &format!("mtu {m}"), Some(at));
    }
    let roce_mtu = majority(
        &mtus
            .iter()
            .map(|(m, e)| (m.saturating_sub(ROCE_HEADER_ALLOWANCE), *e))
            .collect::<Vec<_>>(),
    );
    match roce_mtu {
        Some((m, at)) if [256, 512, 1024, 2048, 4096].contains(&m) => {
            o.line(1, &format!("roce-mtu {m}"), Some(at));
        }
        Some((m, at)) => {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                at,
                format!("the hosts' netdev MTU gives a RoCE MTU of {m}, which is not 256, 512, 1024, 2048 or 4096; the `.fab` keeps the default 4096"),
            ));
            o.comment(
                1,
                &format!("the hosts' netdev MTU implies RoCE MTU {m}, not a valid RoCE MTU"),
            );
        }
        None => o.comment(1, "no host state: roce-mtu is the default 4096"),
    }
    o.line(0, "", None);
    let wds: Vec<(Option<Watchdog>, Ev)> = views.iter().filter_map(|v| v.watchdog).collect();
    FabricWide {
        mtu: fabric_mtu,
        watchdog: majority(&wds),
    }
}

/// `class NAME { … }`: a class's DSCPs, plan, losslessness, marking, scheduler, rate and
/// threshold.
fn class_line(c: &Class) -> String {
    let mut words = Vec::new();
    if c.other {
        words.push("dscp other".to_string());
    } else if !c.dscp.is_empty() {
        words.push(format!("dscp {}", list(&c.dscp)));
    }
    words.extend(c.plan_words());
    if c.lossless {
        words.push("lossless".into());
    }
    if !c.lossless && c.wred.is_some_and(|w| w.ecn) {
        words.push("congestion dcqcn".into());
    }
    if c.lossless || c.wred.is_some_and(|w| w.ecn) {
        words.push(ecn_words(c.wred));
        words.extend(c.speed_words());
    }
    if let Some(s) = c.sched {
        words.push(sched_words(s));
    }
    if let Some(r) = c.rate {
        words.push(format!("rate {r}%"));
    }
    if let Some(Threshold::Static(b)) = c.threshold {
        words.push(format!("pfc-threshold {}", size(b)));
    }
    if c.cnp {
        words.push("cnp".into());
    }
    format!("class {} {{ {} }}", c.name, words.join("  "))
}

/// The model of the switch at index `i`.
fn model_of(models: &[ModelEntry], i: usize) -> Option<&ModelEntry> {
    models.iter().find(|m| m.2.contains(&i))
}

/// The hosts the cables reach: per host, the fastest switch port it is cabled to and the
/// highest NIC number a cable names. A host no cable reaches is left out of the `.fab`.
struct CabledNics {
    speed: BTreeMap<String, u64>,
    count: BTreeMap<String, u32>,
}

impl CabledNics {
    fn of(d: &Deployed, models: &[ModelEntry]) -> CabledNics {
        let mut speed: BTreeMap<String, u64> = BTreeMap::new();
        let mut count: BTreeMap<String, u32> = BTreeMap::new();
        for c in &d.cables {
            if let Peer::Host(h, n) = &c.peer {
                let sp = d
                    .switches
                    .iter()
                    .find(|s| s.name == c.switch)
                    .and_then(|s| s.sw.ports.get(&c.port))
                    .and_then(|p| p.speed_mbps)
                    .or_else(|| {
                        // A Cumulus port without `link speed` and platform: the model's speed.
                        let i = d.switches.iter().position(|s| s.name == c.switch)?;
                        model_of(models, i).map(|m| m.1.speed)
                    })
                    .unwrap_or(0);
                let e = speed.entry(h.clone()).or_insert(0);
                *e = (*e).max(sp);
                let k = count.entry(h.clone()).or_insert(0);
                *k = (*k).max(*n);
            }
        }
        CabledNics { speed, count }
    }

    fn is_cabled(&self, h: &HostDev) -> bool {
        self.speed.contains_key(&h.name)
    }

    /// A host's NIC model: (driver, speed). A driver the language does not know is taken
    /// as mlx5.
    fn model(&self, h: &HostDev) -> (String, u64) {
        let driver = h
            .host
            .as_ref()
            .and_then(|x| x.driver.clone())
            .filter(|x| NicDriver::from_model(x).is_some())
            .unwrap_or_else(|| "mlx5".into());
        let speed = self.speed.get(&h.name).copied().unwrap_or(0);
        (driver, speed)
    }

    /// One `nic-model` per (driver, speed) the cabled hosts have.
    fn write_models(&self, d: &Deployed, o: &mut Out) {
        let mut nic_models: BTreeSet<(String, u64)> = BTreeSet::new();
        for h in &d.hosts {
            if self.is_cabled(h) {
                nic_models.insert(self.model(h));
            }
        }
        for m in &nic_models {
            o.line(
                1,
                &format!(
                    "nic-model {} {{ driver {}  speed {}G }}",
                    nic_model_name(m),
                    m.0,
                    m.1 / 1000
                ),
                None,
            );
        }
    }
}

fn nic_model_name((drv, sp): &(String, u64)) -> String {
    format!("{drv}-{}g", sp / 1000)
}

/// `switch NAME { model …  tier … }` for every switch that has a model.
fn write_switches(d: &Deployed, models: &[ModelEntry], tier: &BTreeMap<String, u8>, o: &mut Out) {
    for (i, s) in d.switches.iter().enumerate() {
        let Some(m) = model_of(models, i) else {
            continue;
        };
        let mut words = vec![format!("model {}", m.0)];
        if let Some(t) = tier.get(&s.name) {
            words.push(format!("tier {t}"));
        }
        o.line(
            1,
            &format!("switch {} {{ {} }}", s.name, words.join("  ")),
            Some(Ev {
                file: s.file,
                at: Default::default(),
            }),
        );
    }
}

/// `host NAME { … }`: its NICs, and their netdevs and PCI addresses where the host state
/// names every NIC in order.
fn write_host(d: &Deployed, nics: &CabledNics, h: &HostDev, o: &mut Out, notes: &mut Vec<Note>) {
    let count = nics
        .count
        .get(&h.name)
        .copied()
        .unwrap_or(1)
        .max(h.host.as_ref().map_or(0, |x| x.nics.len() as u32));
    let linked: BTreeSet<u32> = d
        .cables
        .iter()
        .filter_map(|c| match &c.peer {
            Peer::Host(x, n) if *x == h.name => Some(*n),
            _ => None,
        })
        .collect();
    let mut words = vec![nic_lines(
        h,
        &nic_model_name(&nics.model(h)),
        count,
        &linked,
        notes,
    )];
    if let Some(hs) = &h.host
        && hs.nics.len() as u32 == count
        && hs
            .nics
            .iter()
            .enumerate()
            .all(|(k, n)| n.number as usize == k + 1)
    {
        let nd: Option<Vec<String>> = hs
            .nics
            .iter()
            .map(|n| n.netdev.clone().filter(|x| is_name(x)))
            .collect();
        if let Some(nd) = nd {
            words.push(format!("netdev {}", nd.join(", ")));
        }
        let pci: Option<Vec<String>> = hs
            .nics
            .iter()
            .map(|n| n.pci.clone().filter(|x| is_pci(x)))
            .collect();
        if let Some(p) = pci {
            words.push(format!("pci {}", p.join(", ")));
        }
    }
    o.line(
        1,
        &format!("host {} {{ {} }}", h.name, words.join("  ")),
        h.file.map(|f| Ev {
            file: f,
            at: Default::default(),
        }),
    );
}

/// The switch ports as the `.fab` names them, through the switches' models.
struct FabPorts<'a> {
    d: &'a Deployed,
    models: &'a [ModelEntry],
    views: &'a [View],
    classes: &'a [Class],
}

impl FabPorts<'_> {
    fn model(&self, sw: &str) -> Option<&ModelEntry> {
        let i = self.d.switches.iter().position(|s| s.name == sw)?;
        model_of(self.models, i)
    }

    /// A port's number in the `.fab` (0-based): SONiC's first lane over the lanes a port
    /// takes; Cumulus's `swp<cage>` or `swp<cage>s<sub>` as the platform breaks cages out.
    fn index(&self, sw: &str, port: &str) -> Option<u32> {
        let m = self.model(sw)?;
        if let Some(v) = &m.1.vendor {
            return v.index(port);
        }
        match &m.1.cumulus {
            Some(cu) => cu.index(port),
            None => port_index(port, m.1.lanes),
        }
    }

    fn port(&self, sw: &str, port: &str) -> Option<&super::deployed::Port> {
        self.d
            .switches
            .iter()
            .find(|s| s.name == sw)
            .and_then(|s| s.sw.ports.get(port))
    }

    /// The speed a port runs at as its model gives it (a Cumulus cage's over its breakout).
    /// An EOS, NX-OS or Junos switch, whose configuration holds no cable lengths.
    fn holds_no_cables(&self, sw: &str) -> bool {
        self.d
            .switches
            .iter()
            .find(|s| s.name == sw)
            .and_then(|s| s.sw.vendor.as_ref())
            .is_some_and(|v| v.no_cables)
    }

    fn model_speed(&self, sw: &str, port: &str) -> u64 {
        self.model(sw).map_or(0, |m| {
            if let Some(v) = &m.1.vendor {
                return v.speed;
            }
            m.1.cumulus
                .as_ref()
                .and_then(|cu| cu.speed_of(port))
                .unwrap_or(m.1.speed)
        })
    }
}

/// `link SW.portN -- PEER { speed …  cable … }`. A link whose ports have no number in the
/// `.fab` is left out with a note; a `speed` is stated only below what the models give.
fn write_link(ports: &FabPorts, c: &Cable, o: &mut Out, notes: &mut Vec<Note>) {
    let Cable {
        switch,
        port,
        peer,
        at,
    } = c;
    let Some(a) = ports.index(switch, port) else {
        notes.push(Note::new(
            NoteKind::CannotCarry,
            *at,
            format!("`{switch}` port `{port}` is not named `Ethernet<lane>` on a lane boundary (SONiC), `swp<N>`/`swp<N>s<M>` as its platform breaks out (Cumulus), or as a build names the ports of its model at the speed most of its ports run (EOS, NX-OS), so it has no port number in the `.fab`; the link is left out"),
        ));
        return;
    };
    let (b, peer_port) = match peer {
        Peer::Host(h, n) => (format!("{h}.nic{n}"), None),
        Peer::Switch(s2, p2) => {
            let Some(j) = ports.index(s2, p2) else {
                notes.push(Note::new(
                    NoteKind::CannotCarry,
                    *at,
                    format!("`{s2}` port `{p2}` is not named `Ethernet<lane>` on a lane boundary or `swp<N>`/`swp<N>s<M>` as its platform breaks out; the link is left out"),
                ));
                return;
            };
            (format!("{s2}.port{}", j + 1), Some((s2, p2)))
        }
    };
    let pa = ports.port(switch, port);
    let pb = peer_port.and_then(|(s2, p2)| ports.port(s2, p2));
    let mut words = Vec::new();
    let speeds: Vec<u64> = [pa, pb]
        .iter()
        .flatten()
        .filter_map(|p| p.speed_mbps)
        .collect();
    if let Some(&sp) = speeds.iter().min() {
        let ms = ports
            .model_speed(switch, port)
            .min(peer_port.map_or(u64::MAX, |(s2, p2)| ports.model_speed(s2, p2)));
        if sp < ms && sp.is_multiple_of(1000) {
            words.push(format!("speed {}G", sp / 1000));
        }
    }
    let cable = link_cable(c, &b, pa, pb, notes);
    let from = cable.map(|c| c.1).or(Some(*at));
    match cable {
        Some((mm, _)) => words.push(format!("cable {}", length(mm))),
        None if ports.holds_no_cables(switch) => {
            // One note per switch says so (`vendor::no_cable_notes`).
            o.comment(1, &format!("{switch} {port}: no cable length in the state"));
        }
        None => {
            notes.push(Note::new(
                NoteKind::NoCable,
                *at,
                format!("`{switch}` `{port}` has no cable length (SONiC CABLE_LENGTH, Cumulus PFC `cable-length`); the link gets the default cable of 100m, which sizes its headroom for a long cable"),
            ).help("set the port's CABLE_LENGTH on the switch, or write the link's `cable` in the `.fab`"));
            o.comment(1, &format!("{switch} {port}: no cable length in the state"));
        }
    }
    let ecn = super::ports::link_ecn(ports.d, ports.views, ports.classes, c, notes);
    let head = format!("link {switch}.port{} -- {b}", a + 1);
    if !ecn.is_empty() {
        // One line per deployed value, so a finding on the port's ECN points at its own.
        o.line(1, &format!("{head} {{"), from);
        if !words.is_empty() {
            o.line(2, &words.join("  "), from);
        }
        for (w, at) in ecn {
            o.line(2, &w, Some(at));
        }
        o.line(1, "}", None);
        return;
    }
    let block = if words.is_empty() {
        String::new()
    } else {
        format!(" {{ {} }}", words.join("  "))
    };
    o.line(1, &format!("{head}{block}"), from);
}

/// A link's cable length from either end; where the ends differ, the longer (it sizes
/// headroom safely), with a note.
fn link_cable(
    c: &Cable,
    b: &str,
    pa: Option<&super::deployed::Port>,
    pb: Option<&super::deployed::Port>,
    notes: &mut Vec<Note>,
) -> Option<(u64, Ev)> {
    let Cable { switch, port, .. } = c;
    let ca = pa.and_then(|p| p.cable_mm);
    let cb = pb.and_then(|p| p.cable_mm);
    match (ca, cb) {
        (Some(x), Some(y)) if x.0 != y.0 => {
            notes.push(Note::new(
                NoteKind::PortsDiffer,
                y.1,
                format!(
                    "the two ends of `{switch}` `{port}` -- `{b}` state different cable lengths ({} and {}); the `.fab` takes the longer",
                    length(x.0),
                    length(y.0)
                ),
            ));
            Some(if x.0 >= y.0 { x } else { y })
        }
        (Some(x), _) | (None, Some(x)) => Some(x),
        (None, None) => None,
    }
}

/// A switch's override block: its MTU, classes and watchdog where they differ from the
/// fabric-wide values.
fn switch_overrides(
    s: &SwitchDev,
    v: &View,
    classes: &[Class],
    fabric: &FabricWide,
    o: &mut Out,
    notes: &mut Vec<Note>,
) {
    plan_notes(s, v, classes, notes);
    let mut lines: Vec<(String, Ev)> = Vec::new();
    if let (Some((m, at)), Some((fm, _))) = (v.mtu, fabric.mtu)
        && m != fm
    {
        lines.push((format!("mtu {m}"), at));
    }
    for c in classes {
        class_overrides(s, v, c, &mut lines, notes);
    }
    if let (Some((w, at)), Some((fw, _))) = (v.watchdog, fabric.watchdog)
        && w != fw
    {
        lines.push((watchdog_words(w), at));
    }
    device_block(o, "switch", &s.name, lines);
}

/// A host that marks or pauses differently from the fabric: `pfc off`, or the RoCE class's
/// DSCP the host marks with. PFC on other priorities is noted, as the `.fab` cannot say it.
fn host_override_lines(
    h: &HostDev,
    hs: &super::deployed::Host,
    roce: Option<&Class>,
    fabric_lossless: &BTreeSet<u8>,
    notes: &mut Vec<Note>,
) -> Vec<(String, Ev)> {
    let mut lines: Vec<(String, Ev)> = Vec::new();
    let pfcs: Vec<(Vec<u8>, Ev)> = hs.nics.iter().filter_map(|n| n.pfc.clone()).collect();
    if !fabric_lossless.is_empty() && !pfcs.is_empty() && pfcs.iter().all(|(p, _)| p.is_empty()) {
        lines.push(("pfc off".into(), pfcs[0].1));
    } else if let Some((p, at)) = pfcs.iter().find(|(p, _)| {
        !p.is_empty() && p.iter().copied().collect::<BTreeSet<u8>>() != *fabric_lossless
    }) {
        notes.push(Note::new(
            NoteKind::CannotCarry,
            *at,
            format!("host `{}` runs PFC on priorities {} while the fabric's lossless priorities are {}; the `.fab` says only whether a host runs PFC", h.name, list(p), list(&fabric_lossless.iter().copied().collect::<Vec<_>>())),
        ));
    }
    if let Some(r) = roce {
        let toss: Vec<(u64, Ev)> = hs.nics.iter().filter_map(|n| n.tos).collect();
        if let Some((tos, at)) = majority(&toss) {
            let dscp = tos >> 2;
            if r.dscp.first().map(|&x| u64::from(x)) != Some(dscp) && dscp < 64 {
                lines.push((format!("class {} {{ dscp {dscp} }}", r.name), at));
            }
        }
    }
    lines
}

/// `KIND NAME { … }` of override lines, marked as device lines; nothing when there are none.
fn device_block(o: &mut Out, kind: &str, name: &str, lines: Vec<(String, Ev)>) {
    if lines.is_empty() {
        return;
    }
    o.comment(1, &format!("{name} differs from the fabric-wide values:"));
    let start = o.text.len();
    o.line(1, &format!("{kind} {name} {{"), None);
    for (l, at) in lines {
        o.line(2, &l, Some(at));
    }
    o.line(1, "}", None);
    o.device_lines.push((start, o.text.len()));
}

/// `routing updown` where every switch has a tier, else `shortest` with a note on a switch
/// that reaches no host.
fn write_routing(d: &Deployed, tier: &BTreeMap<String, u8>, o: &mut Out, notes: &mut Vec<Note>) {
    let all_tiered = d.switches.iter().all(|s| tier.contains_key(&s.name));
    if all_tiered && !d.switches.is_empty() {
        o.comment(
            1,
            "tiers from the hosts up (leaves have hosts); routing as the tiers give it",
        );
        o.line(1, "routing updown", None);
        return;
    }
    o.comment(
        1,
        "not every switch reaches a host, so there are no tiers: every shortest path",
    );
    o.line(1, "routing shortest", None);
    if let Some(s) = d.switches.iter().find(|s| !tier.contains_key(&s.name)) {
        notes.push(Note::new(
            NoteKind::Inferred,
            Ev {
                file: s.file,
                at: Default::default(),
            },
            format!(
                "`{}` has no path to a host, so it has no tier; routing is taken as `shortest`",
                s.name
            ),
        ));
    }
}
/// `load-balance { hash … }` from the switches' SWITCH_HASH: the list most switches run. A
/// switch with another list is reported (the `.fab` states one policy for the fabric).
fn load_balance(d: &Deployed, o: &mut Out, notes: &mut Vec<Note>) {
    // EOS's `fields ip` and NX-OS's `address` have no protocol word (`render::lb`): their
    // hash is the fabric's less `protocol`, so the fabric's is taken from the switches that
    // can state every field, where there are any.
    let partial = |s: &super::deployed::SwitchDev| {
        s.sw.vendor.as_ref().is_some_and(|v| {
            matches!(
                v.os,
                crate::syntax::ast::Os::Eos | crate::syntax::ast::Os::Nxos
            )
        })
    };
    let hashes = |full: bool| -> Vec<(Vec<&'static str>, Ev)> {
        d.switches
            .iter()
            .filter(|s| !full || !partial(s))
            .filter_map(|s| s.sw.hash.clone())
            .collect()
    };
    let full = hashes(true);
    let pool = if full.is_empty() { hashes(false) } else { full };
    let Some((fields, at)) = majority(&pool) else {
        return;
    };
    for (s, (f, e)) in d
        .switches
        .iter()
        .filter_map(|s| s.sw.hash.as_ref().map(|h| (s, h)))
    {
        let stated: Vec<&str> = fields
            .iter()
            .copied()
            .filter(|k| !(partial(s) && *k == "protocol"))
            .collect();
        if *f != fields && *f != stated {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                *e,
                format!(
                    "`{}` hashes ECMP on `{}`, the other switches on `{}`; `load-balance` states one hash for the fabric, the most common",
                    s.name,
                    f.join(" "),
                    fields.join(" ")
                ),
            ));
        }
    }
    o.line(
        1,
        &format!("load-balance {{ hash {} }}", fields.join(" ")),
        Some(at),
    );
}

fn is_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Whether the `.fab` grammar takes `s` as a PCI address (a state may hold any text, and
/// `00:00:10:00.0` passes a character check yet is no address).
fn is_pci(s: &str) -> bool {
    crate::syntax::bounds::pci_address(s).is_some()
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The `switch-model` line of a SONiC model: its catalogue platform when one fits, its ports
/// unless the platform's, its buffer unless the platform's, and the cell when catalogue
/// platforms with that buffer agree on one.
fn sonic_model(
    d: &Deployed,
    o: &mut Out,
    notes: &mut Vec<Note>,
    mname: &str,
    k: &ModelKey,
    members: &[usize],
    at: Option<Ev>,
) {
    let ports = 512 / k.lanes;
    let platform = platform_of(d, members, k.lanes, k.speed, k.buffer);
    let mut words = vec!["os sonic".to_string()];
    if let Some((p, how)) = &platform {
        words.insert(0, format!("platform {}", p.name));
        if let Some(at) = at.or(members.first().map(|&i| Ev {
            file: d.switches[i].file,
            at: Default::default(),
        })) {
            notes.push(Note::new(
                NoteKind::Inferred,
                at,
                format!(
                    "switch model `{mname}` is taken to run on catalogue platform `{}`: {how}",
                    p.name
                ),
            ));
        }
    }
    let native = platform.as_ref().is_some_and(|(p, _)| {
        p.cages
            .iter()
            .find(|c| !c.aux)
            .is_some_and(|c| c.count == ports && u64::from(c.speed_gbps) * 1000 == k.speed)
    });
    if !native {
        words.push(format!("ports {ports} x {}G", k.speed / 1000));
    }
    let platform_buffer = platform
        .as_ref()
        .and_then(|(p, _)| p.buffer.usable.as_ref().map(|u| u.bytes));
    let lossless_pool = members
        .first()
        .and_then(|&i| d.switches[i].sw.lossless_pool);
    match k.buffer {
        Some(b)
            if platform.is_some()
                && (platform_buffer == Some(b) || platform_buffer == lossless_pool) => {}
        Some(b) => words.push(format!("buffer {}", size(b))),
        None if platform.is_some() => {}
        None => {
            if let Some(&i) = members.first() {
                notes.push(Note::new(
                    NoteKind::CannotCarry,
                    Ev {
                        file: d.switches[i].file,
                        at: Default::default(),
                    },
                    format!(
                        "`{}` has no egress BUFFER_POOL, so its buffer size is unknown",
                        d.switches[i].name
                    ),
                ));
            }
        }
    }
    // The cell size is not in CONFIG_DB: take it from catalogue platforms with this buffer.
    let mut platforms = Vec::new();
    if let Some(b) = k.buffer.filter(|_| platform.is_none()) {
        let mut cells = BTreeSet::new();
        for p in &crate::catalogue::catalogue().switches {
            if p.buffer.usable.as_ref().is_some_and(|u| u.bytes == b)
                && p.os.iter().any(|o| o.os == "sonic")
            {
                platforms.push(p.name.clone());
                if let Some(c) = &p.buffer.cell {
                    cells.insert(c.value);
                }
            }
        }
        // Else: every headroom buffermgrd sized is a whole number of cells, so their
        // greatest common divisor is the cell when the values are varied enough.
        if cells.is_empty() {
            let mut vals = BTreeSet::new();
            for &i in members.iter() {
                for p in d.switches[i].sw.ports.values() {
                    for g in p.pg.values() {
                        vals.extend(g.xoff.filter(|&x| x > 0));
                        vals.extend(g.size.filter(|&x| x > 0));
                    }
                }
            }
            let g = vals.iter().fold(0u64, |a, &b| gcd(a, b));
            if vals.len() >= 2 && (64..=1024).contains(&g) {
                words.push(format!("cell {g}B"));
                if let Some(at) = at {
                    notes.push(Note::new(
                        NoteKind::Inferred,
                        at,
                        format!("the buffer cell is not in CONFIG_DB; {g} B divides every lossless headroom ({} values) of these switches, so it is taken as the cell", vals.len()),
                    ));
                }
            }
        }
        if cells.len() == 1
            && let Some(c) = cells.first()
        {
            words.push(format!("cell {c}B"));
            if let Some(at) = at {
                notes.push(Note::new(
                    NoteKind::Inferred,
                    at,
                    format!("the buffer cell is not in CONFIG_DB; {c} B is the cell of every catalogue platform with this buffer size ({})", platforms.join(", ")),
                ));
            }
        }
    }
    if let Some(n) = k.dynamic {
        words.push(format!("dynamic-threshold {n}"));
    }
    if let Some(bm) = &k.buffer_model
        && matches!(bm.as_str(), "dynamic" | "traditional")
    {
        words.push(format!("buffer-model {bm}"));
    }
    if !platforms.is_empty() {
        o.comment(1, &format!("buffer size as on: {}", platforms.join(", ")));
    }
    let plats: BTreeSet<String> = members
        .iter()
        .filter_map(|&i| {
            let s = &d.switches[i].sw;
            s.platform.clone().or(s.hwsku.clone())
        })
        .collect();
    if !plats.is_empty() {
        o.comment(
            1,
            &format!(
                "DEVICE_METADATA platform/hwsku: {}",
                plats.into_iter().collect::<Vec<_>>().join(", ")
            ),
        );
    }
    o.line(
        1,
        &format!("switch-model {mname} {{ {} }}", words.join("  ")),
        at,
    );
}

/// The override lines of switch `s` (its view `v`) for class `c`: where its DSCP map,
/// lossless set, ECN, scheduling or pause threshold differ from the fabric's.
fn class_overrides(
    s: &SwitchDev,
    v: &View,
    c: &Class,
    lines: &mut Vec<(String, Ev)>,
    notes: &mut Vec<Note>,
) {
    let t = c.tc;
    if let Some((m, at)) = v.dscp
        && !c.other
    {
        let here: Vec<u8> = (0u8..64).filter(|&x| m[usize::from(x)] == t).collect();
        if here != c.dscp {
            let spec = if here.is_empty() {
                "none".to_string()
            } else {
                list(&here)
            };
            // Point at the first DSCP whose entry differs, where a port's map has it.
            let differs = c
                .dscp
                .iter()
                .chain(&here)
                .copied()
                .find(|x| c.dscp.contains(x) != here.contains(x));
            let at = differs
                .and_then(|x| s.sw.ports.values().find_map(|p| p.dscp_at.get(&x).copied()))
                .unwrap_or(at);
            lines.push((format!("class {} {{ dscp {spec} }}", c.name), at));
        }
    }
    if let Some((set, at)) = &v.lossless {
        let on = set.contains(&c.priority);
        if on != c.lossless {
            let w = if on { "lossless" } else { "lossless off" };
            lines.push((format!("class {} {{ {w} }}", c.name), *at));
        }
    }
    ecn_overrides(s, v, c, lines, notes);
    if let Some((sch, at)) = v.sched.get(&v.queue(t))
        && Some(*sch) != c.sched
    {
        lines.push((format!("class {} {{ {} }}", c.name, sched_words(*sch)), *at));
    }
    if let Some((th, at)) = v.threshold.get(&c.priority)
        && Some(*th) != c.threshold
    {
        match th {
            Threshold::Static(b) => {
                lines.push((format!("pfc-threshold {} {}", c.name, size(*b)), *at))
            }
            Threshold::Dynamic(_) if c.threshold.is_some() => notes.push(Note::new(
                NoteKind::CannotCarry,
                *at,
                format!("`{}` pauses {} on a dynamic threshold while the fabric's is static; a switch cannot override back to the model's dynamic threshold", s.name, c.name),
            )),
            Threshold::Dynamic(_) => {}
        }
    }
}

/// What makes two switches the same model in the `.fab`.
struct ModelKey {
    lanes: u32,
    speed: u64,
    buffer: Option<u64>,
    buffer_model: Option<String>,
    dynamic: Option<i64>,
    /// Cumulus: release, header model, the cages as broken out, ports.
    cumulus: Option<CumulusKey>,
    /// EOS, NX-OS, Junos: OS, release, platform, ports and their names.
    vendor: Option<VendorKey>,
}

/// A switch model of the `.fab`: its name, key, member switches (indices) and where its
/// buffer was read.
type ModelEntry = (String, ModelKey, Vec<usize>, Option<Ev>);

/// The switch models: switches with the same key share one, named by OS and ports.
fn switch_models(d: &Deployed, views: &[View]) -> Vec<ModelEntry> {
    let mut models: Vec<ModelEntry> = Vec::new();
    for (i, s) in d.switches.iter().enumerate() {
        let lanes_list: Vec<(String, u32, Ev)> =
            s.sw.ports
                .iter()
                .filter_map(|(p, x)| x.lanes.map(|l| (p.clone(), l, x.at)))
                .collect();
        let lanes = pick(&lanes_list).map_or(4, |x| x.0);
        let lanes = [1u32, 2, 4, 8]
            .into_iter()
            .find(|&l| l >= lanes)
            .unwrap_or(8);
        let speed =
            s.sw.ports
                .values()
                .filter_map(|p| p.speed_mbps)
                .max()
                .unwrap_or(400_000);
        let dyns: Vec<(Option<i64>, Ev)> = views[i]
            .threshold
            .values()
            .map(|(t, e)| {
                (
                    match t {
                        Threshold::Dynamic(n) => Some(*n),
                        Threshold::Static(_) => None,
                    },
                    *e,
                )
            })
            .collect();
        let key = ModelKey {
            lanes,
            speed,
            buffer: s.sw.buffer.map(|b| b.0),
            buffer_model: s.sw.buffer_model.clone(),
            dynamic: majority(
                &dyns
                    .into_iter()
                    .filter(|d| d.0.is_some())
                    .collect::<Vec<_>>(),
            )
            .and_then(|x| x.0),
            cumulus: s
                .sw
                .cumulus
                .as_ref()
                .map(|cu| cumulus_key(&s.sw, cu, speed)),
            vendor: s.sw.vendor.as_ref().map(|v| VendorKey::of(&s.sw, v)),
        };
        let same = |k: &ModelKey| {
            k.lanes == key.lanes
                && k.speed == key.speed
                && k.buffer == key.buffer
                && k.buffer_model == key.buffer_model
                && k.dynamic == key.dynamic
                && k.cumulus == key.cumulus
                && k.vendor == key.vendor
        };
        match models.iter_mut().find(|m| same(&m.1)) {
            Some(m) => m.2.push(i),
            None => {
                let base = match (&key.cumulus, &key.vendor) {
                    (Some(cu), _) => format!("cumulus-{}x{}g", cu.ports, speed / 1000),
                    (None, Some(v)) => v.base_name(),
                    (None, None) => format!("sonic-{}x{}g", 512 / lanes, speed / 1000),
                };
                let mut n = base.clone();
                let mut k = 2;
                while models.iter().any(|m| m.0 == n) {
                    n = format!("{base}-{k}");
                    k += 1;
                }
                models.push((n, key, vec![i], s.sw.buffer.map(|b| b.1)));
            }
        }
    }
    models
}

/// Each switch's view of its state, over its fabric ports (those with a cable).
fn switch_views(d: &Deployed, notes: &mut Vec<Note>) -> Vec<View> {
    // Fabric ports of each switch.
    let mut fabric_ports: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for c in &d.cables {
        fabric_ports
            .entry(c.switch.as_str())
            .or_default()
            .push(c.port.clone());
        if let Peer::Switch(s, p) = &c.peer {
            fabric_ports.entry(s.as_str()).or_default().push(p.clone());
        }
    }
    d.switches
        .iter()
        .map(|s| {
            let mut ports = fabric_ports
                .get(s.name.as_str())
                .cloned()
                .unwrap_or_default();
            ports.sort_by(|a, b| natural(a, b));
            ports.dedup();
            view(s, &ports, notes)
        })
        .collect()
}

/// The fabric's classes from the switches' maps (the majority DSCP map and lossless set),
/// with `dscp other`, the CNP class and names chosen; and the fabric's lossless priorities.
fn fabric_classes(
    d: &Deployed,
    views: &[View],
    notes: &mut Vec<Note>,
) -> (Vec<Class>, BTreeSet<u8>) {
    let dscp_maps: Vec<([u8; 64], Ev)> = views.iter().filter_map(|v| v.dscp).collect();
    let fabric_map = majority(&dscp_maps);
    let lossless_sets: Vec<(BTreeSet<u8>, Ev)> =
        views.iter().filter_map(|v| v.lossless.clone()).collect();
    let fabric_lossless = majority(&lossless_sets).map(|x| x.0).unwrap_or_default();
    // The hosts' CNP DSCP.
    let cnp_dscps: Vec<(u64, Ev)> = d
        .hosts
        .iter()
        .flat_map(|h| h.host.iter().flat_map(|h| &h.nics))
        .filter_map(|n| n.cnp_dscp)
        .collect();
    let cnp_dscp = majority(&cnp_dscps);
    let mut classes: Vec<Class> =
        super::classes::classes(views, fabric_map.as_ref(), &fabric_lossless, notes);
    // `dscp other`: the lossy class with the most DSCPs.
    if let Some(i) = (0..classes.len())
        .filter(|&i| !classes[i].lossless && !classes[i].dscp.is_empty())
        .max_by_key(|&i| (classes[i].dscp.len(), std::cmp::Reverse(i)))
    {
        classes[i].other = true;
    }
    // CNP: the class of the hosts' CNP DSCP, else the strict lossy class with a DSCP.
    let cnp_class = match &cnp_dscp {
        Some((dscp, _)) => classes
            .iter()
            .position(|c| !c.other && c.dscp.iter().any(|&x| u64::from(x) == *dscp)),
        None => None,
    }
    .or_else(|| {
        let i = classes.iter().position(|c| {
            !c.lossless && !c.other && !c.dscp.is_empty() && c.sched == Some(Sched::Strict)
        })?;
        if !classes.iter().any(|c| c.lossless) {
            return None;
        }
        if let Some(at) = classes[i].at {
            notes.push(Note::new(
                NoteKind::Inferred,
                at,
                format!(
                    "no host state names the CNP DSCP; the strict class on priority {} (DSCP {}) is taken as the CNP class",
                    classes[i].priority,
                    list(&classes[i].dscp)
                ),
            ).help("collect a host's state.json (its `cnp_dscp`) to know it"));
        }
        Some(i)
    });
    if let Some(i) = cnp_class {
        classes[i].cnp = true;
    }
    name_classes(&mut classes);
    // Lossless first, then CNP, then the rest by priority, `dscp other` last.
    classes.sort_by_key(|c| (!c.lossless, !c.cnp, c.other, c.tc));
    (classes, fabric_lossless)
}

/// Names each class by its role (`roce`, `cnp`, `bulk`, else `tc<N>`), unique.
fn name_classes(classes: &mut [Class]) {
    let mut used = BTreeSet::new();
    for c in classes.iter_mut() {
        let base = if c.cnp {
            "cnp".to_string()
        } else if c.lossless {
            "roce".to_string()
        } else if c.other {
            "bulk".to_string()
        } else {
            format!("tc{}", c.tc)
        };
        let mut n = base.clone();
        let mut k = 2;
        while !used.insert(n.clone()) {
            n = format!("{base}{k}");
            k += 1;
        }
        c.name = n;
    }
}

/// The RoCE MTU each host NIC reports, with where.
fn host_mtus(d: &Deployed) -> Vec<(u64, Ev)> {
    d.hosts
        .iter()
        .flat_map(|h| h.host.iter().flat_map(|h| &h.nics))
        .filter_map(|n| n.mtu)
        .collect()
}

/// Each switch's tier: 1 for a switch with a host cabled, then one more per hop up.
fn tiers(d: &Deployed) -> BTreeMap<String, u8> {
    let mut tier: BTreeMap<String, u8> = BTreeMap::new();
    for c in &d.cables {
        if matches!(c.peer, Peer::Host(..)) {
            tier.insert(c.switch.clone(), 1);
        }
    }
    for level in 1u8..8 {
        let at_level: Vec<String> = tier
            .iter()
            .filter(|(_, t)| **t == level)
            .map(|(n, _)| n.clone())
            .collect();
        for c in &d.cables {
            if let Peer::Switch(other, _) = &c.peer {
                for (a, b) in [(&c.switch, other), (other, &c.switch)] {
                    if at_level.contains(a) && !tier.contains_key(b) {
                        tier.insert(b.clone(), level + 1);
                    }
                }
            }
        }
    }
    tier
}
