//! A Cumulus Linux switch as deployed, from its applied NVUE revision (`startup.yaml`, `nv
//! config show -o yaml`), read with the NVUE parser of `fabricc verify` (`verify::nvue`), which
//! flattens the document into `nv set` word paths and keeps each one's line.
//!
//! NVUE's object model (NVIDIA, "NVUE Object Model" and the NVUE command reference,
//! https://docs.nvidia.com/networking-ethernet-software/cumulus-linux/System-Configuration/NVIDIA-User-Experience-NVUE/)
//! gives, per profile (`default-global`, or a named one an interface binds with `interface
//! <port> qos <collection> profile <name>`):
//! * `qos mapping <p> dscp <d> switch-priority <sp>`: DSCP → switch priority (the class's
//!   `priority`);
//! * `qos egress-queue-mapping <p> switch-priority <sp> traffic-class <tc>`: priority → queue,
//!   taken one to one for the priorities a DSCP maps to or PFC protects (FAB965 otherwise);
//! * `qos pfc <p> switch-priority <sp>` (lossless priorities) and `cable-length <m>` (the
//!   port's cable: switchd sizes the headroom from it);
//! * `qos congestion-control <p> traffic-class <tc> ecn enable|disable`, `min-threshold`,
//!   `max-threshold` (bytes), `probability` (%);
//! * `qos egress-scheduler <p> traffic-class <tc> mode strict|dwrr`, `bw-percent`;
//! * `qos pfc-watchdog polling-interval <ms> robustness <n>` and `interface <port> qos
//!   pfc-watchdog state enable`: detection after `robustness` polls; Cumulus restores after
//!   one polling interval (it has no restore timer);
//! * `interface <port> link mtu`, `link speed`.
//!
//! What NVUE does not hold: the buffer size and cell (switchd sizes headroom and pools itself),
//! the platform (only the `- header:` item's `model`, which `nv config show` prints), and a
//! port's speed unless it was set. The switch is returned in the shape of a SONiC switch
//! (`deployed::Switch`, which `sonic.rs` fills too), so that the `.fab` is formed by the same
//! rules.

use std::collections::{BTreeMap, BTreeSet};

// What NVUE adds lives in `deployed.rs` (the writer reads it too); its public path stays.
pub use super::deployed::Cumulus;
use super::deployed::{Ev, Note, NoteKind, Port, Sched, Switch, Watchdog, Wred};
use crate::verify::canon::{Canon, Loc, key_of};

/// `swp3` → (2, None); `swp3s1` → (2, Some(1)).
pub fn cage_of(port: &str) -> Option<(u32, Option<u32>)> {
    let rest = port.strip_prefix("swp")?;
    let (n, sub) = match rest.split_once('s') {
        Some((n, s)) => (n, Some(s.parse::<u32>().ok()?)),
        None => (rest, None),
    };
    let n: u32 = n.parse().ok()?;
    n.checked_sub(1).map(|c| (c, sub))
}

/// `400G`, `100G`, `400000` → Mb/s.
fn speed_mbps(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_suffix(['G', 'g']) {
        Some(g) => g.parse::<u64>().ok()?.checked_mul(1000),
        None => s.parse().ok(),
    }
}

/// The header's `model` and `version`, found line by line (the header is not configuration,
/// so the NVUE parser leaves it out).
fn header(text: &str) -> (Option<String>, Option<String>) {
    let mut model = None;
    let mut release = None;
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("- ") {
            inside = t == "- header:";
            continue;
        }
        if !inside {
            continue;
        }
        let value = |k: &str| {
            t.strip_prefix(k)
                .map(|v| v.trim().trim_matches(['\'', '"']).to_string())
        };
        if let Some(v) = value("model:") {
            model = Some(v);
        } else if let Some(v) = value("version:") {
            // `Cumulus Linux 5.14.0` → `5.14`.
            let num = v.rsplit(' ').next().unwrap_or("");
            let mut parts = num.split('.');
            if let (Some(a), Some(b)) = (parts.next(), parts.next())
                && a.parse::<u32>().is_ok()
                && b.parse::<u32>().is_ok()
            {
                release = Some(format!("{a}.{b}"));
            }
        }
    }
    (model, release)
}

/// A PFC profile: its priorities, where the first is, and its cable (mm) and where.
type PfcProfile = (BTreeSet<u8>, Option<Ev>, Option<(u64, Ev)>);

#[derive(Default)]
struct Profiles {
    /// profile → dscp → (priority, at)
    mapping: BTreeMap<String, BTreeMap<u8, (u8, Ev)>>,
    /// profile → priority → (traffic class, at)
    egress: BTreeMap<String, BTreeMap<u8, (u8, Ev)>>,
    /// profile → (priorities, at of the first, cable mm)
    pfc: BTreeMap<String, PfcProfile>,
    /// profile → tc → (enable, min, max, probability, at)
    ecn: BTreeMap<String, BTreeMap<u8, EcnEntry>>,
    /// profile → tc → (mode, weight, at)
    sched: BTreeMap<String, BTreeMap<u8, SchedEntry>>,
}

#[derive(Default, Clone)]
struct EcnEntry {
    enable: Option<bool>,
    min: Option<u64>,
    /// The `min-threshold` line: a finding about the thresholds points there.
    min_at: Option<Ev>,
    max: Option<u64>,
    probability: Option<u64>,
    at: Option<Ev>,
}

#[derive(Default, Clone)]
struct SchedEntry {
    strict: bool,
    weight: Option<u64>,
    at: Option<Ev>,
}

#[derive(Default)]
struct Iface {
    at: Option<Ev>,
    mtu: Option<(u64, Ev)>,
    speed: Option<u64>,
    /// collection → profile name
    profile: BTreeMap<String, String>,
    watchdog: Option<bool>,
    watchdog_at: Option<Ev>,
}

/// Reads an applied NVUE revision; what cannot be carried becomes a note.
pub fn read(text: &str, canon: &Canon, file: usize, notes: &mut Vec<Note>) -> (Switch, Cumulus) {
    let rev = Revision::read(canon, file, notes);
    let (model, release) = header(text);
    let mut sw = Switch::default();
    let mut cu = Cumulus {
        release,
        model,
        cages: BTreeMap::new(),
    };
    let mut missing: BTreeSet<(String, String)> = BTreeSet::new();
    for (name, i) in &rev.ifaces {
        let Some(cage) = cage_of(name) else { continue };
        cu.cages.insert(name.clone(), cage);
        let port = interface_port(&rev, name, i, file, &mut missing, notes);
        sw.ports.insert(name.clone(), port);
    }
    for (coll, n) in missing {
        notes.push(Note::new(
            NoteKind::CannotCarry,
            Ev { file, at: Loc::default() },
            format!("an interface binds `qos {coll}` profile `{n}`, which the configuration does not define; its ports take `default-global`"),
        ));
    }
    sw.platform = cu.model.clone();
    sw.hash = super::hash::nvue(&rev.ecmp_hash, notes);
    fill_speeds(&mut sw, &cu);
    (sw, cu)
}

impl Profiles {
    /// One `qos` path of a profile (mapping, egress mapping, PFC, congestion control,
    /// scheduler); other paths are not a profile's.
    fn read(&mut self, w: &[&str], at: Ev, notes: &mut Vec<Note>) {
        match w {
            ["qos", "mapping", prof, "dscp", d, "switch-priority", sp] => {
                if let (Some(d), Some(sp)) = (n8(d), n8(sp))
                    && d < 64
                    && sp < 8
                {
                    self.mapping
                        .entry((*prof).to_string())
                        .or_default()
                        .insert(d, (sp, at));
                }
            }
            [
                "qos",
                "egress-queue-mapping",
                prof,
                "switch-priority",
                sp,
                "traffic-class",
                tc,
            ] => {
                if let (Some(sp), Some(tc)) = (n8(sp), n8(tc))
                    && sp < 8
                    && tc < 8
                {
                    self.egress
                        .entry((*prof).to_string())
                        .or_default()
                        .insert(sp, (tc, at));
                }
            }
            ["qos", "pfc", prof, "switch-priority", sp] => {
                if let Some(sp) = n8(sp).filter(|&x| x < 8) {
                    let e = self.pfc.entry((*prof).to_string()).or_default();
                    e.0.insert(sp);
                    e.1.get_or_insert(at);
                }
            }
            ["qos", "pfc", prof, "cable-length", m] => {
                let e = self.pfc.entry((*prof).to_string()).or_default();
                match n64(m).and_then(|m| m.checked_mul(1000)) {
                Some(mm) => e.2 = Some((mm, at)),
                None => notes.push(Note::new(
                    NoteKind::CannotCarry,
                    at,
                    format!("PFC profile `{prof}` has cable-length `{m}`, which is not a whole number of metres"),
                )),
            }
            }
            [
                "qos",
                "congestion-control",
                prof,
                "traffic-class",
                tc,
                field,
                v,
            ] => {
                let Some(tc) = n8(tc).filter(|&x| x < 8) else {
                    return;
                };
                let e = self
                    .ecn
                    .entry((*prof).to_string())
                    .or_default()
                    .entry(tc)
                    .or_default();
                match *field {
                    "ecn" => {
                        e.enable = Some(*v == "enable");
                        e.at = Some(at);
                    }
                    "min-threshold" => {
                        e.min = n64(v);
                        e.min_at = Some(at);
                    }
                    "max-threshold" => e.max = n64(v),
                    "probability" => e.probability = n64(v),
                    _ => {}
                }
            }
            [
                "qos",
                "egress-scheduler",
                prof,
                "traffic-class",
                tc,
                field,
                v,
            ] => {
                let Some(tc) = n8(tc).filter(|&x| x < 8) else {
                    return;
                };
                let e = self
                    .sched
                    .entry((*prof).to_string())
                    .or_default()
                    .entry(tc)
                    .or_default();
                match *field {
                    "mode" => {
                        e.strict = *v == "strict";
                        e.at = Some(at);
                    }
                    "bw-percent" => e.weight = n64(v),
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

fn n8(s: &str) -> Option<u8> {
    s.parse::<u8>().ok()
}

fn n64(s: &str) -> Option<u64> {
    s.parse::<u64>().ok()
}

/// What an NVUE revision's paths say: the QoS profiles, each interface, and the global PFC
/// watchdog.
#[derive(Default)]
struct Revision {
    profiles: Profiles,
    ifaces: BTreeMap<String, Iface>,
    poll: Option<u64>,
    robustness: Option<u64>,
    watchdog_at: Option<Ev>,
    /// `system forwarding ecmp-hash FIELD enabled|disabled` (issue 34 item 3).
    ecmp_hash: BTreeMap<String, (bool, Ev)>,
}

impl Revision {
    fn read(canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Revision {
        let ev = |at: Loc| Ev { file, at };
        let mut r = Revision::default();
        for path in canon.path_vecs() {
            let at = ev(canon.get(&key_of(&path)).unwrap_or_default());
            let w: Vec<&str> = path.iter().map(String::as_str).collect();
            match w.as_slice() {
                ["qos", "pfc-watchdog", "polling-interval", v] => {
                    r.poll = n64(v);
                    r.watchdog_at = Some(at);
                }
                ["qos", "pfc-watchdog", "robustness", v] => r.robustness = n64(v),
                ["system", "forwarding", "ecmp-hash", field, v] => {
                    let on = match *v {
                        "enabled" | "on" => Some(true),
                        "disabled" | "off" => Some(false),
                        _ => None,
                    };
                    if let Some(on) = on {
                        r.ecmp_hash.insert((*field).to_string(), (on, at));
                    }
                }
                ["interface", port, rest @ ..] if cage_of(port).is_some() => {
                    let i = r.ifaces.entry((*port).to_string()).or_default();
                    if i.at.is_none() {
                        i.at = Some(ev(canon.get(&key_of(&path[..2])).unwrap_or(at.at)));
                    }
                    match rest {
                        ["link", "mtu", m] => i.mtu = n64(m).map(|m| (m, at)),
                        ["link", "speed", s] => i.speed = speed_mbps(s),
                        ["qos", coll, "profile", name] => {
                            i.profile.insert((*coll).to_string(), (*name).to_string());
                        }
                        ["qos", "pfc-watchdog", "state", s] => {
                            i.watchdog = Some(*s == "enable");
                            i.watchdog_at = Some(at);
                        }
                        _ => {}
                    }
                }
                _ => r.profiles.read(&w, at, notes),
            }
        }
        r
    }
}

/// A port as its interface's profiles give it (`default-global` where it binds none); a
/// profile it binds that is not defined is collected in `missing`.
fn interface_port(
    rev: &Revision,
    name: &str,
    i: &Iface,
    file: usize,
    missing: &mut BTreeSet<(String, String)>,
    notes: &mut Vec<Note>,
) -> Port {
    let global = "default-global".to_string();
    let at = i.at.unwrap_or(Ev {
        file,
        at: Loc::default(),
    });
    let prof = |coll: &str, missing: &mut BTreeSet<(String, String)>| -> String {
        let n = i
            .profile
            .get(coll)
            .cloned()
            .unwrap_or_else(|| global.clone());
        let known = match coll {
            "mapping" => rev.profiles.mapping.contains_key(&n),
            "egress-queue-mapping" => rev.profiles.egress.contains_key(&n),
            "pfc" => rev.profiles.pfc.contains_key(&n),
            "congestion-control" => rev.profiles.ecn.contains_key(&n),
            _ => rev.profiles.sched.contains_key(&n),
        };
        if !known && n != global {
            missing.insert((coll.to_string(), n.clone()));
        }
        n
    };
    let mut port = Port {
        speed_mbps: i.speed,
        mtu: i.mtu,
        at,
        ..Port::default()
    };
    if let Some(m) = rev.profiles.mapping.get(&prof("mapping", missing)) {
        let map: BTreeMap<u8, u8> = m.iter().map(|(&d, &(sp, _))| (d, sp)).collect();
        let first = m.values().next().map_or(at, |x| x.1);
        port.dscp_at = m.iter().map(|(&d, &(_, e))| (d, e)).collect();
        port.dscp = Some((map, first));
    }
    let pfc = rev.profiles.pfc.get(&prof("pfc", missing));
    port.pfc = Some(match pfc {
        Some((set, e, _)) => (set.clone(), e.unwrap_or(at)),
        None => (BTreeSet::new(), at),
    });
    // The port's cable: its PFC profile's, else `default-global`'s.
    port.cable_mm = pfc
        .and_then(|x| x.2)
        .or_else(|| rev.profiles.pfc.get(&global).and_then(|x| x.2));
    let egress = rev
        .profiles
        .egress
        .get(&prof("egress-queue-mapping", missing));
    // Priority → traffic class (NVUE's default is one to one).
    let tc_of = |sp: u8| egress.and_then(|e| e.get(&sp)).map_or(sp, |x| x.0);
    let ecn = rev.profiles.ecn.get(&prof("congestion-control", missing));
    let sched = rev.profiles.sched.get(&prof("egress-scheduler", missing));
    let used: BTreeSet<u8> = port
        .dscp
        .iter()
        .flat_map(|(m, _)| m.values().copied())
        .chain(port.pfc.iter().flat_map(|(s, _)| s.iter().copied()))
        .collect();
    for sp in 0u8..8 {
        let tc = tc_of(sp);
        if used.contains(&sp)
            && tc != sp
            && let Some((_, e)) = egress.and_then(|e| e.get(&sp))
        {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                *e,
                format!("`{name}` sends switch priority {sp} to traffic class {tc}; the import takes each priority's traffic class as the priority itself"),
            ));
        }
        if let Some(x) = ecn.and_then(|m| m.get(&tc))
            && x.enable == Some(true)
            && let (Some(min), Some(max)) = (x.min, x.max)
        {
            port.wred.insert(
                sp,
                (
                    Wred {
                        min,
                        max,
                        probability: x.probability.unwrap_or(100),
                        ecn: true,
                        fill: None,
                    },
                    x.min_at.or(x.at).unwrap_or(at),
                ),
            );
        }
        if let Some(x) = sched.and_then(|m| m.get(&tc))
            && let Some(e) = x.at
        {
            let s = if x.strict {
                Some(Sched::Strict)
            } else {
                x.weight.map(Sched::Weight)
            };
            if let Some(s) = s {
                port.sched.insert(sp, (s, e));
            }
        }
    }
    port.watchdog = port_watchdog(rev, i, at);
    port
}

/// NVUE's PFC watchdog on a port that enables it: it detects after `robustness` polls and
/// restores after one, dropping.
fn port_watchdog(rev: &Revision, i: &Iface, at: Ev) -> Option<(Watchdog, Ev)> {
    if i.watchdog == Some(true)
        && let (Some(poll), Some(r)) = (rev.poll, rev.robustness)
    {
        return Some((
            Watchdog {
                detect_ms: poll.saturating_mul(r),
                restore_ms: poll,
                action: "drop",
                poll_ms: Some(poll),
            },
            i.watchdog_at.or(rev.watchdog_at).unwrap_or(at),
        ));
    }
    None
}

/// The catalogue platform that runs Cumulus and whose model is the header's (`SN5600`, or
/// `MSN5600` as older Spectrum systems report it).
pub fn platform(model: &str) -> Option<&'static crate::catalogue::platform::Platform> {
    let m = model.trim();
    crate::catalogue::catalogue().switches.iter().find(|p| {
        p.os.iter().any(|o| o.os == "cumulus")
            && (p.model.eq_ignore_ascii_case(m)
                || m.get(1..)
                    .is_some_and(|r| m.starts_with(['M', 'm']) && p.model.eq_ignore_ascii_case(r)))
    })
}

/// How many ports each front-panel cage (0-based) is broken into, cage by cage: the highest
/// sub-port seen in that cage (at least two: `swp5s0` alone is a broken-out cage), rounded up to a split the cage group offers (`2x400G`); 1 for a
/// cage whose ports have no sub-port (`swp2` beside `swp1s0`, `swp1s1`: cages are broken out
/// one by one, issue 18). Cages with no port named are left out.
pub fn cage_splits(
    cu: &Cumulus,
    p: Option<&crate::catalogue::platform::Platform>,
) -> BTreeMap<u32, u32> {
    let offered: BTreeSet<u32> = p
        .map(|p| {
            p.cages
                .iter()
                .filter(|c| !c.aux)
                .flat_map(|c| &c.breakouts)
                .filter_map(|b| b.split_once('x').and_then(|(n, _)| n.parse().ok()))
                .collect()
        })
        .unwrap_or_default();
    let mut seen: BTreeMap<u32, u32> = BTreeMap::new();
    for &(cage, sub) in cu.cages.values() {
        // A sub-port name means the cage is broken out, even if only `s0` is named.
        let n = sub.map_or(1, |s| s.saturating_add(1).max(2));
        let e = seen.entry(cage).or_insert(1);
        *e = (*e).max(n);
    }
    for n in seen.values_mut() {
        if *n > 1 {
            *n = match p {
                Some(_) => offered.iter().copied().find(|&o| o >= *n).unwrap_or(*n),
                None => n.next_power_of_two(),
            };
        }
    }
    seen
}

/// A port with no `link speed` runs at its cage's speed over its cage's split (the
/// platform's breakout); without a platform its speed stays unknown.
fn fill_speeds(sw: &mut Switch, cu: &Cumulus) {
    let Some(p) = cu.model.as_deref().and_then(platform) else {
        return;
    };
    let Some(cage) = p.cages.iter().find(|c| !c.aux) else {
        return;
    };
    let splits = cage_splits(cu, Some(p));
    for (name, port) in sw.ports.iter_mut() {
        if port.speed_mbps.is_none() {
            let split = cu
                .cages
                .get(name)
                .and_then(|(c, _)| splits.get(c))
                .copied()
                .unwrap_or(1)
                .max(1);
            port.speed_mbps = Some(u64::from(cage.speed_gbps) * 1000 / u64::from(split));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::nvue;

    const DOC: &str = "- header:\n    model: SN5600\n    version: Cumulus Linux 5.14.0\n- set:\n    qos:\n      mapping:\n        default-global:\n          dscp:\n            '26':\n              switch-priority: 3\n      pfc:\n        default-global:\n          switch-priority:\n            '3': {}\n          cable-length: 30\n        short:\n          switch-priority:\n            '3': {}\n          cable-length: 3\n      congestion-control:\n        default-global:\n          traffic-class:\n            '3':\n              ecn: enable\n              min-threshold: 150000\n              max-threshold: 1500000\n              probability: 100\n      egress-scheduler:\n        default-global:\n          traffic-class:\n            '3':\n              mode: dwrr\n              bw-percent: 50\n      pfc-watchdog:\n        polling-interval: 100\n        robustness: 2\n    interface:\n      swp1s0:\n        link:\n          mtu: 9216\n          speed: 400G\n        qos:\n          pfc:\n            profile: short\n          pfc-watchdog:\n            state: enable\n      swp2:\n        link:\n          mtu: 9216\n";

    #[test]
    fn reads_the_profiles() {
        let c = nvue::canon(DOC).unwrap();
        let mut notes = Vec::new();
        let (sw, cu) = read(DOC, &c, 0, &mut notes);
        assert!(notes.is_empty(), "{}", notes.len());
        assert_eq!(cu.model.as_deref(), Some("SN5600"));
        assert_eq!(cu.release.as_deref(), Some("5.14"));
        assert_eq!(cu.cages["swp1s0"], (0, Some(0)));
        let a = &sw.ports["swp1s0"];
        assert_eq!(a.speed_mbps, Some(400_000));
        assert_eq!(a.cable_mm.map(|c| c.0), Some(3_000));
        assert_eq!(a.dscp.as_ref().unwrap().0[&26], 3);
        assert_eq!(a.wred[&3].0.max, 1_500_000);
        assert_eq!(a.sched[&3].0, Sched::Weight(50));
        assert_eq!(a.watchdog.unwrap().0.detect_ms, 200);
        let b = &sw.ports["swp2"];
        assert_eq!(b.cable_mm.map(|c| c.0), Some(30_000));
        assert!(b.watchdog.is_none());
        let at = a.wred[&3].1.at;
        assert_eq!(
            &DOC[at.start as usize..at.end as usize],
            "min-threshold: 150000"
        );
    }

    #[test]
    fn cages_are_broken_out_one_by_one() {
        // Issue 18: `swp1` broken out 2x (its holder `swp1` named too) beside whole cages.
        let mut cu = Cumulus {
            release: None,
            model: Some("SN5600".into()),
            cages: BTreeMap::new(),
        };
        for n in ["swp1", "swp1s0", "swp1s1", "swp2", "swp3", "swp5s0"] {
            cu.cages.insert(n.into(), cage_of(n).unwrap());
        }
        let p = platform("SN5600");
        let s = cage_splits(&cu, p);
        assert_eq!(
            s.into_iter().collect::<Vec<_>>(),
            vec![(0, 2), (1, 1), (2, 1), (4, 2)]
        );
        // A lone `swp5s2` asks for 3 ways: rounded up to the platform's 4x, else 4.
        cu.cages.insert("swp5s2".into(), (4, Some(2)));
        assert_eq!(cage_splits(&cu, p)[&4], 4);
        assert_eq!(cage_splits(&cu, None)[&4], 4);
    }

    #[test]
    fn port_names() {
        assert_eq!(cage_of("swp1"), Some((0, None)));
        assert_eq!(cage_of("swp32s3"), Some((31, Some(3))));
        assert_eq!(cage_of("swp0"), None);
        assert_eq!(cage_of("eth0"), None);
    }
}
