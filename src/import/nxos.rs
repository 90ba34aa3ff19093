//! A Cisco NX-OS switch as deployed, from its `show running-config` (`running-config` in the
//! device's folder), read with the same reader as `verify` (`verify::cli`, NX-OS dialect:
//! `match dscp` lists as sets).
//!
//! What the commands mean (Cisco Nexus 9000 Series NX-OS Quality of Service Configuration
//! Guide, 10.5(x): "Configuring Classification", "Configuring Queuing and Scheduling",
//! "Configuring Priority Flow Control", "Configuring Network QoS",
//! https://www.cisco.com/c/en/us/td/docs/dcn/nx-os/nexus9000/105x/configuration/qos/cisco-nexus-9000-series-nx-os-quality-of-service-configuration-guide-105x.html):
//! * `class-map type qos match-any C` / `match dscp …` and `policy-map type qos P` /
//!   `class C` / `set qos-group G`: DSCP → qos-group (the class's traffic class and egress
//!   queue; `class-default` takes the DSCPs no class matches). The policy is the port's
//!   `service-policy type qos input P`, else `system qos`'s.
//! * `policy-map type network-qos P` (bound under `system qos`) / `class type network-qos
//!   c-8q-nqG` / `pause pfc-cos C`: qos-group G is lossless on PFC priority C;
//!   `priority-flow-control mode on|off` on the port turns PFC on or off there.
//! * `policy-map type queuing P` (the port's `service-policy type queuing output P`, else
//!   `system qos`'s) / `class type queuing c-out-8q-qN` (`c-out-8q-q-default` is queue 0):
//!   `priority level 1` → strict, `bandwidth remaining percent N`, `random-detect
//!   minimum-threshold X UNIT maximum-threshold Y UNIT drop-probability P … ecn`.
//! * The port's `service-policy type queuing input P` / `class type queuing c-in-qN` /
//!   `pause buffer-size B pause-threshold T resume-threshold R` (bytes): the lossless PG's
//!   static pause threshold T and headroom B − T (fabricc writes B = T + xoff).
//! * `priority-flow-control watch-dog-interval on` (global and per port): the watchdog on, with
//!   NX-OS's own timers, which the running-config does not print (FAB966: the language's
//!   default timers are written).
//! * `interface breakout module 1 port N map 400g-2x`: cage N's sub-ports `Ethernet1/N/k` at
//!   400G; `interface Ethernet1/N`: `mtu`, `speed` (Mb/s).
//!
//! ECN units: `kbytes` is read with the constant the renderer writes with
//! (`lower::vocab::NXOS_KBYTE`, issue 34 R6: Cisco gives no base), `mbytes` as its square,
//! `bytes` exactly; `packets` cannot be carried (FAB965).
//!
//! NX-OS prints no platform and fabricc's release words do not apply to it: without a platform
//! the model has no buffer or cell (FAB965), and the running-config holds no cable lengths
//! (FAB963, one per switch).

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{
    Ev, Note, NoteKind, PgProfile, Port, Sched, Switch, Threshold, Vendor, Watchdog, Wred,
};
use crate::lower::vocab::NXOS_KBYTE;
use crate::syntax::ast::Os;
use crate::verify::canon::{Canon, Loc, key_of};

#[derive(Debug, Default, Clone)]
struct QueueCfg {
    sched: Option<(Sched, Ev)>,
    ecn: Option<(Wred, Ev)>,
    /// Ingress: (buffer-size, pause-threshold).
    pause: Option<(u64, u64, Ev)>,
}

#[derive(Debug, Default)]
struct Iface {
    at: Option<Ev>,
    mtu: Option<(u64, Ev)>,
    speed: Option<u64>,
    pfc_mode: Option<(bool, Ev)>,
    watchdog: Option<(bool, Ev)>,
    classify: Option<String>,
    queuing_out: Option<String>,
    queuing_in: Option<String>,
}

#[derive(Debug, Default)]
struct Running {
    /// class map → DSCPs, and where its `match dscp` is.
    class_maps: BTreeMap<String, (BTreeSet<u8>, Ev)>,
    /// qos policy → class → (qos-group, at).
    qos: BTreeMap<String, BTreeMap<String, (u8, Ev)>>,
    /// queuing policy → queue → settings.
    queuing: BTreeMap<String, BTreeMap<u8, QueueCfg>>,
    /// network-qos policy → qos-group → (pfc cos, at).
    pause_cos: BTreeMap<String, BTreeMap<u8, (u8, Ev)>>,
    system_classify: Option<String>,
    system_queuing: Option<String>,
    system_network: Option<String>,
    watchdog: Option<Ev>,
    /// cage → (sub-port speed Mb/s).
    breakouts: BTreeMap<u32, u64>,
    ifaces: BTreeMap<String, Iface>,
    /// `ip load-sharing address …` as `hash` keywords (issue 34 item 3).
    hash: super::hash::Hash,
}

/// Whether a running-config is NX-OS's rather than EOS's: its header (`!Command:`, `!Time:`,
/// fabricc's `!fabricc: Cisco NX-OS`), a `version` line, or NX-OS-only sections.
pub fn is_nxos(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_end();
        t.starts_with("!Command:")
            || t.starts_with("!Time:")
            || t.starts_with("!fabricc: Cisco NX-OS")
            || t.starts_with("version ")
            || t == "system qos"
            || t.starts_with("policy-map type network-qos ")
    })
}

/// `c-out-8q-q3` → 3, `c-out-8q-q-default` → 0 (and `c-in-q3`, `c-8q-nq3`).
fn queue_of(class: &str) -> Option<u8> {
    let n = class
        .strip_prefix("c-out-8q-q")
        .or_else(|| class.strip_prefix("c-8q-nq"))
        .or_else(|| class.strip_prefix("c-in-q"))?;
    if n == "-default" || n == "default" {
        return Some(0);
    }
    n.parse::<u8>().ok().filter(|&q| q < 8)
}

/// A WRED threshold as NX-OS writes it, in bytes.
pub fn threshold_bytes(n: &str, unit: &str) -> Result<u64, String> {
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{n}` is not a whole number"))?;
    let k = match unit {
        "bytes" => 1,
        "kbytes" => NXOS_KBYTE,
        "mbytes" => NXOS_KBYTE * NXOS_KBYTE,
        u => return Err(format!("the unit `{u}` is not a size")),
    };
    n.checked_mul(k)
        .ok_or_else(|| format!("`{n} {unit}` is too large"))
}

/// `minimum-threshold` is the key; the value: `150 kbytes maximum-threshold 1500 kbytes
/// drop-probability 100 weight 0 ecn`.
fn wred(v: &str) -> Result<Wred, String> {
    let w: Vec<&str> = v.split(' ').collect();
    let (Some(min), Some(umin)) = (w.first(), w.get(1)) else {
        return Err("no minimum threshold".into());
    };
    let i = w
        .iter()
        .position(|x| *x == "maximum-threshold")
        .ok_or("no maximum-threshold")?;
    let (Some(max), Some(umax)) = (w.get(i + 1), w.get(i + 2)) else {
        return Err("no maximum threshold".into());
    };
    let probability = match w.iter().position(|x| *x == "drop-probability") {
        Some(j) => w
            .get(j + 1)
            .and_then(|p| p.parse().ok())
            .ok_or("a drop-probability that is no number")?,
        None => 100,
    };
    Ok(Wred {
        min: threshold_bytes(min, umin)?,
        max: threshold_bytes(max, umax)?,
        probability,
        ecn: w.last() == Some(&"ecn"),
        fill: None,
    })
}

impl Running {
    fn read(canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Running {
        let ev = |at: Loc| Ev { file, at };
        let mut r = Running::default();
        for path in canon.path_vecs() {
            let at = ev(canon.get(&key_of(&path)).unwrap_or_default());
            let w: Vec<&str> = path.iter().map(String::as_str).collect();
            if let [k, v] = w.as_slice()
                && k.starts_with("ip load-sharing ")
            {
                let line = format!("{k} {v}");
                let words: Vec<&str> = line.split(' ').collect();
                if let Some(h) = super::hash::nxos(&words, at, notes) {
                    r.hash = h;
                    continue;
                }
            }
            match w.as_slice() {
                ["priority-flow-control watch-dog-interval", "on"] => r.watchdog = Some(at),
                ["interface breakout module", v] => {
                    // `1 port 1-8 map 400g-2x`
                    let p: Vec<&str> = v.split(' ').collect();
                    if let [_, "port", cages, "map", map] = p.as_slice()
                        && let Some((sp, _)) = map.split_once('-')
                        && let Some(g) = sp
                            .strip_suffix(['g', 'G'])
                            .and_then(|g| g.parse::<u64>().ok())
                    {
                        let (a, b) = cages.split_once('-').unwrap_or((cages, cages));
                        if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                            for c in a..=b.min(a.saturating_add(512)) {
                                r.breakouts.insert(c, g.saturating_mul(1000));
                            }
                        }
                    }
                }
                [head, "match dscp", v] if head.starts_with("class-map type qos ") => {
                    let name = head.rsplit(' ').next().unwrap_or("").to_string();
                    let set = dscp_set(v);
                    r.class_maps.insert(name, (set, at));
                }
                [head, class, "set qos-group", g] if head.starts_with("policy-map type qos ") => {
                    let policy = head["policy-map type qos ".len()..].to_string();
                    let class = class.strip_prefix("class ").unwrap_or(class).to_string();
                    if let Some(g) = g.parse::<u8>().ok().filter(|&g| g < 8) {
                        r.qos.entry(policy).or_default().insert(class, (g, at));
                    }
                }
                [head, class, rest @ ..] if head.starts_with("policy-map type queuing ") => {
                    let policy = head["policy-map type queuing ".len()..].to_string();
                    let Some(q) = class.strip_prefix("class type queuing ").and_then(queue_of)
                    else {
                        continue;
                    };
                    let e = r.queuing.entry(policy).or_default().entry(q).or_default();
                    queue_line(e, rest, at, notes);
                }
                [head, class, "pause pfc-cos", c]
                    if head.starts_with("policy-map type network-qos ") =>
                {
                    let policy = head["policy-map type network-qos ".len()..].to_string();
                    if let (Some(g), Some(c)) = (
                        class
                            .strip_prefix("class type network-qos ")
                            .and_then(queue_of),
                        c.parse::<u8>().ok().filter(|&c| c < 8),
                    ) {
                        r.pause_cos.entry(policy).or_default().insert(g, (c, at));
                    }
                }
                ["system qos", "service-policy type qos input", p] => {
                    r.system_classify = Some((*p).to_string());
                }
                ["system qos", "service-policy type queuing output", p] => {
                    r.system_queuing = Some((*p).to_string());
                }
                ["system qos", "service-policy type network-qos", p] => {
                    r.system_network = Some((*p).to_string());
                }
                [head, rest @ ..] if head.starts_with("interface Ethernet") => {
                    let name = head["interface ".len()..].to_string();
                    let i = r.ifaces.entry(name).or_default();
                    if i.at.is_none_or(|a| at.at.start < a.at.start) {
                        i.at = Some(at);
                    }
                    match rest {
                        ["mtu", m] => i.mtu = m.parse().ok().map(|m| (m, at)),
                        ["speed", s] => i.speed = s.parse().ok(),
                        ["priority-flow-control mode", m] => {
                            i.pfc_mode = Some((*m != "off", at));
                        }
                        ["priority-flow-control watch-dog-interval", v] => {
                            i.watchdog = Some((*v == "on", at));
                        }
                        ["no priority-flow-control watch-dog-interval", _] => {
                            i.watchdog = Some((false, at));
                        }
                        ["service-policy type qos input", p] => i.classify = Some((*p).into()),
                        ["service-policy type queuing output", p] => {
                            i.queuing_out = Some((*p).into());
                        }
                        ["service-policy type queuing input", p] => {
                            i.queuing_in = Some((*p).into());
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        r
    }
}

/// `0-25,27-47` → the DSCPs (below 64).
fn dscp_set(v: &str) -> BTreeSet<u8> {
    let mut out = BTreeSet::new();
    for part in v.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(a), Ok(b)) = (a.trim().parse::<u8>(), b.trim().parse::<u8>()) {
            for d in a..=b.min(63) {
                out.insert(d);
            }
        }
    }
    out
}

/// One line under `class type queuing …`.
fn queue_line(e: &mut QueueCfg, rest: &[&str], at: Ev, notes: &mut Vec<Note>) {
    match rest {
        ["priority level", "1"] => e.sched = Some((Sched::Strict, at)),
        ["bandwidth remaining percent", n] => {
            if let Ok(n) = n.parse() {
                e.sched = Some((Sched::Weight(n), at));
            }
        }
        ["random-detect minimum-threshold", v] => match wred(v) {
            Ok(w) => e.ecn = Some((w, at)),
            Err(m) => notes.push(Note::new(
                NoteKind::CannotCarry,
                at,
                format!("`random-detect minimum-threshold {v}` cannot be read as bytes: {m}; the queue's ECN is not imported"),
            )),
        },
        ["pause buffer-size", v] => {
            // `B pause-threshold P resume-threshold R`
            let w: Vec<&str> = v.split(' ').collect();
            if let [b, "pause-threshold", p, ..] = w.as_slice()
                && let (Ok(b), Ok(p)) = (b.parse::<u64>(), p.parse::<u64>())
            {
                e.pause = Some((b, p, at));
            }
        }
        _ => {}
    }
}

/// Reads an NX-OS running-config; what cannot be carried becomes a note.
pub fn read(canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Switch {
    let r = Running::read(canon, file, notes);
    let mut sw = Switch::default();
    let network = r
        .system_network
        .as_ref()
        .and_then(|n| r.pause_cos.get(n))
        .or_else(|| r.pause_cos.values().next());
    let mut watchdog_assumed: Option<Ev> = None;
    for (name, i) in &r.ifaces {
        let at = i.at.unwrap_or(Ev {
            file,
            at: Loc::default(),
        });
        let mut port = Port {
            mtu: i.mtu,
            at,
            ..Port::default()
        };
        // Speed: the interface's, else its cage's breakout.
        port.speed_mbps = i.speed.or_else(|| {
            let rest = name.strip_prefix("Ethernet1/")?;
            let (cage, _) = rest.split_once('/')?;
            r.breakouts.get(&cage.parse().ok()?).copied()
        });
        // DSCP → qos-group.
        let classify = i.classify.as_ref().or(r.system_classify.as_ref());
        if let Some(policy) = classify.and_then(|p| r.qos.get(p)) {
            let mut map: BTreeMap<u8, u8> = BTreeMap::new();
            let mut first: Option<Ev> = None;
            for (class, &(g, gat)) in policy {
                if class == "class-default" {
                    continue;
                }
                if let Some((set, cat)) = r.class_maps.get(class) {
                    for &d in set {
                        map.insert(d, g);
                        port.dscp_at.insert(d, *cat);
                    }
                    if first.is_none_or(|f| cat.at.start < f.at.start) {
                        first = Some(*cat);
                    }
                } else {
                    let _ = gat;
                }
            }
            let default = policy.get("class-default").map_or(0, |x| x.0);
            for d in 0u8..64 {
                map.entry(d).or_insert(default);
            }
            port.dscp = Some((map, first.unwrap_or(at)));
        }
        // PFC: the network-qos policy's pause classes, where the port runs PFC.
        let on = i.pfc_mode.is_some_and(|m| m.0);
        let mut set = BTreeSet::new();
        let mut tc_pg = [0u8, 1, 2, 3, 4, 5, 6, 7];
        let mut pfc_at = i.pfc_mode.map_or(at, |m| m.1);
        if on && let Some(n) = network {
            for (&g, &(c, cat)) in n {
                set.insert(c);
                if let Some(x) = tc_pg.get_mut(usize::from(g)) {
                    *x = c;
                }
                pfc_at = cat;
            }
        }
        if !set.is_empty() {
            port.tc_pg = Some((tc_pg, pfc_at));
        }
        port.pfc = Some((set.clone(), pfc_at));
        // Egress queues.
        let out = i.queuing_out.as_ref().or(r.system_queuing.as_ref());
        if let Some(qs) = out.and_then(|p| r.queuing.get(p)) {
            for (&q, x) in qs {
                if let Some(s) = x.sched {
                    port.sched.insert(q, s);
                }
                if let Some(w) = x.ecn {
                    port.wred.insert(q, w);
                }
            }
        }
        // Ingress pause buffers: the PG of each lossless priority on that queue.
        if let Some(qs) = i.queuing_in.as_ref().and_then(|p| r.queuing.get(p)) {
            for (&q, x) in qs {
                let Some((b, p, e)) = x.pause else { continue };
                let prio = network.and_then(|n| n.get(&q)).map_or(q, |x| x.0);
                if set.contains(&prio) {
                    port.pg.insert(
                        prio,
                        PgProfile {
                            name: i.queuing_in.clone().unwrap_or_default(),
                            xoff: b.checked_sub(p),
                            size: Some(b),
                            threshold: Some(Threshold::Static(p)),
                            at: e,
                            xoff_at: e,
                        },
                    );
                }
            }
        }
        // Watchdog: on where the port (or the switch, for a port that says nothing) says so.
        let wd_on = i.watchdog.map_or(r.watchdog.is_some(), |w| w.0);
        if !set.is_empty() && wd_on {
            let e = i.watchdog.map(|w| w.1).or(r.watchdog).unwrap_or(at);
            watchdog_assumed.get_or_insert(e);
            port.watchdog = Some((
                Watchdog {
                    detect_ms: 200,
                    restore_ms: 200,
                    action: "drop",
                    poll_ms: None,
                },
                e,
            ));
        }
        sw.ports.insert(name.clone(), port);
    }
    if let Some(e) = watchdog_assumed {
        notes.push(Note::new(
            NoteKind::Inferred,
            e,
            "the PFC watchdog is on (`priority-flow-control watch-dog-interval on`) with NX-OS's own timers, which the running-config does not print; the `.fab` gets the language's default timers (detect 200ms, restore 200ms, drop)",
        ));
    }
    sw.hash = r.hash.clone();
    sw.vendor = Some(Vendor {
        os: Os::Nxos,
        release: None,
        platform: None,
        platform_at: None,
        no_cables: true,
    });
    sw
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::cli::{Dialect, canon};

    const CFG: &str = "!Command: show running-config\nversion 10.4(3)\npriority-flow-control watch-dog-interval on\nclass-map type qos match-any RDMA\n  match dscp 24-26\nclass-map type qos match-any CNP\n  match dscp 48\npolicy-map type qos CLASSIFY\n  class RDMA\n    set qos-group 3\n  class CNP\n    set qos-group 6\n  class class-default\n    set qos-group 0\npolicy-map type queuing EGRESS\n  class type queuing c-out-8q-q6\n    priority level 1\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n    random-detect minimum-threshold 150 kbytes maximum-threshold 3000 kbytes drop-probability 7 weight 0 ecn\n  class type queuing c-out-8q-q-default\n    bandwidth remaining percent 50\npolicy-map type queuing PAUSE\n  class type queuing c-in-q3\n    pause buffer-size 120000 pause-threshold 18432 resume-threshold 9216\npolicy-map type network-qos NQ\n  class type network-qos c-8q-nq3\n    mtu 9216\n    pause pfc-cos 3\nsystem qos\n  service-policy type network-qos NQ\n  service-policy type queuing output EGRESS\ninterface breakout module 1 port 2 map 400g-2x\ninterface Ethernet1/1\n  mtu 9216\n  priority-flow-control mode on\n  service-policy type qos input CLASSIFY\n  service-policy type queuing input PAUSE\ninterface Ethernet1/2/1\n  mtu 9216\n  priority-flow-control mode off\n  service-policy type qos input CLASSIFY\n";

    #[test]
    fn reads_policies_and_ports() {
        assert!(is_nxos(CFG));
        assert!(!is_nxos(
            "! device: x (DCS-7060X6-64PE, EOS-4.35.0F)\nqos profile P\n"
        ));
        let c = canon(CFG, Dialect::Nxos);
        let mut notes = Vec::new();
        let sw = read(&c, 0, &mut notes);
        let a = &sw.ports["Ethernet1/1"];
        let m = &a.dscp.as_ref().unwrap().0;
        assert_eq!((m[&24], m[&26], m[&48], m[&0]), (3, 3, 6, 0));
        assert_eq!(a.pfc.as_ref().unwrap().0, BTreeSet::from([3]));
        assert_eq!(a.sched[&6].0, Sched::Strict);
        assert_eq!(a.sched[&3].0, Sched::Weight(50));
        assert_eq!(a.sched[&0].0, Sched::Weight(50));
        let w = a.wred[&3].0;
        assert_eq!(
            (w.min, w.max, w.probability, w.ecn),
            (150_000, 3_000_000, 7, true)
        );
        assert_eq!(a.pg[&3].threshold, Some(Threshold::Static(18_432)));
        assert_eq!(a.pg[&3].xoff, Some(120_000 - 18_432));
        assert!(a.watchdog.is_some());
        // PFC off on the broken-out port: lossy there; its speed from the breakout.
        let b = &sw.ports["Ethernet1/2/1"];
        assert!(b.pfc.as_ref().unwrap().0.is_empty());
        assert_eq!(b.speed_mbps, Some(400_000));
        assert_eq!(
            notes
                .iter()
                .filter(|n| n.kind == NoteKind::Inferred)
                .count(),
            1
        );
    }

    #[test]
    fn units() {
        assert_eq!(threshold_bytes("150", "kbytes"), Ok(150 * NXOS_KBYTE));
        assert!(threshold_bytes("10", "packets").is_err());
        assert_eq!(queue_of("c-out-8q-q-default"), Some(0));
        assert_eq!(queue_of("c-8q-nq3"), Some(3));
        assert_eq!(queue_of("c-in-q3"), Some(3));
    }
}
