//! A Huawei CloudEngine (VRP) switch as deployed, from its `display current-configuration`
//! (`current-configuration` in the device's folder, the file `fabricc verify` reads), read
//! with the same reader as `verify` (`verify::vrp::canon`: a view's lines as paths under the
//! line that entered it, `#` separators, `priority 3 4` one path per priority, `qos pq` /
//! `qos drr` one path per queue). Each path keeps the range of its line; the words of a line
//! whose value `verify`'s key does not keep (`dcb pfc deadlock recovery-behavior discard slot
//! 1`) are read from that range.
//!
//! What the commands mean (Huawei, "CloudEngine 8800, 6800, and 5800 Series Switches
//! V300R023C00 Command Reference" and "Configuration Guide", the pages `render::vrp` cites;
//! https://support.huawei.com/enterprise/en/doc/):
//! * `diffserv domain D` / `ip-dscp-inbound DSCP phb PHB [color]`: DSCP → PHB, and the PHBs
//!   BE, AF1–AF4, EF, CS6, CS7 "correspond to queues 0 to 7" (page "ip-dscp-inbound"); a port
//!   binds the domain with `trust upstream D`. A DSCP the domain does not state, and every DSCP
//!   of a port that binds none, takes the default domain's mapping (the same page, "Table 1":
//!   even DSCPs of AF1–AF4 to their AF class, 40 and 46 to EF, 48 to CS6, 56 to CS7, the rest
//!   to BE).
//! * `dcb pfc P` / `priority N …`: the PFC profile's priorities, applied with `dcb pfc enable
//!   P mode manual` (pages "dcb pfc", "priority (DCB PFC view)", "dcb pfc enable"). VRP pauses
//!   a priority queue: the lossless priority is its queue. A port with no `dcb pfc enable`
//!   runs no PFC; a per-port difference stays the port's own value.
//! * Deadlock (the watchdog): CE8850 family `dcb pfc deadlock-detect timer T` and `dcb pfc
//!   deadlock-recovery timer T` (ms, switch-wide; every PFC port has them); CE8855 family
//!   `dcb pfc deadlock-detect interval U` and, per priority in the profile, `priority P
//!   deadlock-detect time D` / `deadlock-recovery time R` (D × U and R × U ms, on the ports
//!   the profile is applied to); `dcb pfc deadlock recovery-behavior discard|forwarding` →
//!   `action drop|forward`. Without timers the switch runs its defaults, which the
//!   configuration does not print: no watchdog is imported.
//! * `drop-profile N` / `ecn buffer-size low-limit MIN high-limit MAX discard-percentage P`:
//!   bytes, exactly (page "ecn"); a port's queue marks with it where the port has `qos queue Q
//!   wred N` and `qos queue Q ecn` (pages "qos queue wred", "qos queue ecn").
//! * `qos drr …` / `qos queue Q drr weight W`: the queue's ETS weight; a queue not in DRR is
//!   strict (PQ is VRP's default, page "qos pq drr lpq").
//! * `dcb pfc buffer Q hdrm N kbytes` (CE8855 family): the lossless queue's headroom, and `dcb
//!   pfc buffer Q xoff static N kbytes` its static pause threshold, each kbyte of
//!   `render::vrp::KBYTE` (1,000 B, the constant the renderer rounds up with).
//! * `interface 400GE1/0/1[:k]`: the speed from the name's type (`400GE` 400G, `GE` 1G) where
//!   the port is not split (a split port `:k` keeps its cage's type, so its speed is unknown),
//!   `mtu N`.
//! * `load-balance ecmp` / `ip FIELDS`: the ECMP hash (`l4-src-port` is `src-port`, the
//!   renderer's `render::lb` table).
//!
//! The platform: fabricc's own file says `# Written for VRP V300R023C00 on PLATFORM.`; a
//! device's `display current-configuration` names no model, so the switch model then has no
//! platform (FAB965, as the other readers). `os vrp` takes no release. The configuration holds
//! no cable lengths: one FAB963 per switch says so.

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{
    Ev, Note, NoteKind, PgProfile, Port, Sched, Switch, Threshold, Vendor, Watchdog, Wred,
    cli_settings,
};
use crate::render::vrp::{KBYTE, PHB};
use crate::syntax::ast::Os;
use crate::verify::canon::{Canon, Loc};

/// Whether a `current-configuration` is VRP's rather than Comware's: fabricc's VRP header,
/// VRP's `!Software Version V…` first line, VRP-only views and commands, or a VRP port name
/// (`interface 400GE1/0/1`; Comware names it `FourHundredGigE1/0/1`).
pub fn is_vrp(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_end();
        t.starts_with("# fabricc: Huawei")
            || t.starts_with("!Software Version V")
            || t.starts_with("diffserv domain ")
            || t.starts_with("dcb pfc ")
            || t.starts_with("drop-profile ")
            || t == "load-balance ecmp"
            || t.strip_prefix("interface ")
                .is_some_and(|p| speed_of(p).is_some())
    })
}

/// The queue of the default DiffServ domain's PHB for `dscp` (page "ip-dscp-inbound", Table 1).
pub fn default_queue(dscp: u8) -> u8 {
    match dscp {
        8 | 10 | 12 | 14 => 1,
        16 | 18 | 20 | 22 => 2,
        24 | 26 | 28 | 30 => 3,
        32 | 34 | 36 | 38 => 4,
        40 | 46 => 5,
        48 => 6,
        56 => 7,
        _ => 0,
    }
}

/// `400GE1/0/1` → 400,000 Mb/s; `GE1/0/1` → 1,000. A split port keeps its cage's name and
/// type (`400GE1/0/1:2`, "port split", CloudEngine 8800/6800 V300R023C00 Command Reference),
/// so its name does not tell its speed (2 x 200GE or 4 x 100GE): `None`.
pub fn speed_of(port: &str) -> Option<u64> {
    if port.contains(':') {
        return None;
    }
    let kind: String = port.chars().take_while(|c| !c.is_ascii_digit()).collect();
    let digits: String = port.chars().take_while(char::is_ascii_digit).collect();
    let rest = &port[digits.len()..];
    match (digits.as_str(), rest.starts_with("GE"), kind.as_str()) {
        ("", _, "GE") => Some(1000),
        (d, true, "") => d.parse::<u64>().ok()?.checked_mul(1000),
        _ => None,
    }
}

#[derive(Debug, Default, Clone)]
struct PfcProfile {
    priorities: BTreeMap<u8, Ev>,
    /// Priority → (detect, recovery) counts of the CE8855 family, where.
    detect: BTreeMap<u8, (u64, Ev)>,
    recovery: BTreeMap<u8, u64>,
}

#[derive(Debug, Default)]
struct Iface {
    at: Option<Ev>,
    mtu: Option<(u64, Ev)>,
    domain: Option<(String, Ev)>,
    pfc: Option<(String, Ev)>,
    drr: BTreeMap<u8, Ev>,
    weight: BTreeMap<u8, (u64, Ev)>,
    wred: BTreeMap<u8, (String, Ev)>,
    ecn: BTreeMap<u8, Ev>,
    /// Queue → (hdrm bytes, where), (xoff static bytes).
    hdrm: BTreeMap<u8, (u64, Ev)>,
    xoff: BTreeMap<u8, u64>,
}

#[derive(Debug, Default)]
struct Config {
    domains: BTreeMap<String, BTreeMap<u8, (u8, Ev)>>,
    pfc: BTreeMap<String, PfcProfile>,
    /// Drop profile → (min, max, probability %, where).
    drop: BTreeMap<String, (Wred, Ev)>,
    ifaces: BTreeMap<String, Iface>,
    timer_detect: Option<(u64, Ev)>,
    timer_recovery: Option<(u64, Ev)>,
    interval: Option<(u64, Ev)>,
    behavior: Option<(&'static str, Ev)>,
    hash: Option<(Vec<&'static str>, Ev)>,
}

/// `N kbytes` → bytes.
fn kbytes(words: &[&str]) -> Option<u64> {
    match words {
        [n, "kbytes"] => n.parse::<u64>().ok()?.checked_mul(KBYTE),
        _ => None,
    }
}

/// `1 to 3` style queue numbers are already split by `verify`; a queue is 0–7.
fn queue(s: &str) -> Option<u8> {
    s.parse::<u8>().ok().filter(|&q| q < 8)
}

impl Config {
    fn read(text: &str, canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Config {
        let mut c = Config::default();
        for (path, at, w) in cli_settings(text, canon, file) {
            let p: Vec<&str> = path.iter().map(String::as_str).collect();
            match p.as_slice() {
                [key, _] => c.system(key, &w, at, notes),
                [view, key, value] => c.view(view, key, value, &w, at, notes),
                _ => {}
            }
        }
        c
    }

    /// A system-view command.
    fn system(&mut self, key: &str, w: &[&str], at: Ev, notes: &mut Vec<Note>) {
        let n = |i: usize| w.get(i).and_then(|x| x.parse::<u64>().ok());
        match w {
            ["dcb", "pfc", "deadlock-detect", "timer", ..] => {
                self.timer_detect = n(4).map(|t| (t, at));
            }
            ["dcb", "pfc", "deadlock-recovery", "timer", ..] => {
                self.timer_recovery = n(4).map(|t| (t, at));
            }
            ["dcb", "pfc", "deadlock-detect", "interval", ..] => {
                self.interval = n(4).map(|t| (t, at));
            }
            ["dcb", "pfc", "deadlock", "recovery-behavior", b, ..] => {
                self.behavior = match *b {
                    "discard" => Some(("drop", at)),
                    "forwarding" => Some(("forward", at)),
                    other => {
                        notes.push(Note::new(
                            NoteKind::CannotCarry,
                            at,
                            format!("the PFC deadlock recovery behaviour `{other}` has no `.fab` word (`discard` is `action drop`, `forwarding` is `action forward`); the watchdog is taken to drop"),
                        ));
                        Some(("drop", at))
                    }
                };
            }
            _ => {
                let _ = key;
            }
        }
    }

    /// A line inside a view.
    fn view(
        &mut self,
        view: &str,
        key: &str,
        value: &str,
        w: &[&str],
        at: Ev,
        notes: &mut Vec<Note>,
    ) {
        let vw: Vec<&str> = view.split(' ').collect();
        match vw.as_slice() {
            ["diffserv", "domain", d] => {
                if let ["ip-dscp-inbound", dscp, "phb", phb, ..] = w
                    && let Ok(dscp) = dscp.parse::<u8>()
                    && dscp < 64
                {
                    let lower = phb.to_ascii_lowercase();
                    match PHB.iter().position(|x| *x == lower) {
                        Some(q) => {
                            self.domains
                                .entry((*d).to_string())
                                .or_default()
                                .insert(dscp, (u8::try_from(q).unwrap_or(0), at));
                        }
                        None => notes.push(Note::new(
                            NoteKind::Unreadable,
                            at,
                            format!("`{phb}` is not one of VRP's PHBs (BE, AF1–AF4, EF, CS6, CS7); DSCP {dscp} keeps the default domain's queue"),
                        )),
                    }
                }
            }
            ["dcb", "pfc", name] => {
                let p = self.pfc.entry((*name).to_string()).or_default();
                // `priority 3 4` is one path per priority (`priority 3` → `on`).
                if let Some(n) = key.strip_prefix("priority ")
                    && value == "on"
                    && let Some(q) = queue(n)
                {
                    p.priorities.insert(q, at);
                    return;
                }
                match w {
                    ["priority", q, "deadlock-detect", "time", t] => {
                        if let (Some(q), Ok(t)) = (queue(q), t.parse::<u64>()) {
                            p.detect.insert(q, (t, at));
                        }
                    }
                    ["priority", q, "deadlock-recovery", "time", t] => {
                        if let (Some(q), Ok(t)) = (queue(q), t.parse::<u64>()) {
                            p.recovery.insert(q, t);
                        }
                    }
                    _ => {}
                }
            }
            ["drop-profile", name] => match w {
                [
                    "ecn",
                    "buffer-size",
                    "low-limit",
                    lo,
                    "high-limit",
                    hi,
                    "discard-percentage",
                    pct,
                ] => {
                    if let (Ok(lo), Ok(hi), Ok(pct)) =
                        (lo.parse::<u64>(), hi.parse::<u64>(), pct.parse::<u64>())
                    {
                        self.drop.insert(
                            (*name).to_string(),
                            (
                                Wred {
                                    min: lo,
                                    max: hi,
                                    probability: pct,
                                    ecn: true,
                                    fill: None,
                                },
                                at,
                            ),
                        );
                    }
                }
                ["ecn", ..] | ["color", ..] => notes.push(Note::new(
                    NoteKind::CannotCarry,
                    at,
                    format!("drop profile `{name}`: `{}` is not `ecn buffer-size low-limit N high-limit N discard-percentage N` (bytes), the form the `.fab`'s `ecn min … max …` is; the profile is not imported", w.join(" ")),
                )),
                _ => {}
            },
            ["load-balance", "ecmp"] => {
                if let ["ip", fields @ ..] = w {
                    self.hash = hash(fields, at, notes);
                }
            }
            ["interface", port] => {
                let i = self.ifaces.entry((*port).to_string()).or_default();
                if i.at.is_none_or(|a| at.at.start < a.at.start) {
                    i.at = Some(at);
                }
                // `qos pq` / `qos drr` lists: one path per queue.
                if let Some(q) = key
                    .strip_prefix("qos queue ")
                    .and_then(|r| r.strip_suffix(" mode"))
                    .and_then(queue)
                {
                    if value == "drr" {
                        i.drr.insert(q, at);
                    }
                    return;
                }
                match w {
                    ["mtu", m] => i.mtu = m.parse().ok().map(|m| (m, at)),
                    ["trust", "upstream", d] => i.domain = Some(((*d).to_string(), at)),
                    ["dcb", "pfc", "enable", p, ..] => i.pfc = Some(((*p).to_string(), at)),
                    ["qos", "queue", q, "drr", "weight", n] => {
                        if let (Some(q), Ok(n)) = (queue(q), n.parse::<u64>()) {
                            i.weight.insert(q, (n, at));
                        }
                    }
                    ["qos", "queue", q, "wred", d] => {
                        if let Some(q) = queue(q) {
                            i.wred.insert(q, ((*d).to_string(), at));
                        }
                    }
                    ["qos", "queue", q, "ecn"] => {
                        if let Some(q) = queue(q) {
                            i.ecn.insert(q, at);
                        }
                    }
                    ["dcb", "pfc", "buffer", q, "hdrm", rest @ ..] => {
                        if let (Some(q), Some(b)) = (queue(q), kbytes(rest)) {
                            i.hdrm.insert(q, (b, at));
                        }
                    }
                    ["dcb", "pfc", "buffer", q, "xoff", "static", rest @ ..] => {
                        if let (Some(q), Some(b)) = (queue(q), kbytes(rest)) {
                            i.xoff.insert(q, b);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// `src-ip dst-ip l4-src-port l4-dst-port protocol` → the `.fab`'s hash keywords, in its
/// order; `None` (with a note) for a field the `.fab` has no keyword for.
fn hash(fields: &[&str], at: Ev, notes: &mut Vec<Note>) -> Option<(Vec<&'static str>, Ev)> {
    let mut kws = BTreeSet::new();
    for f in fields {
        let kw = match *f {
            "l4-src-port" => "src-port",
            "l4-dst-port" => "dst-port",
            other => other,
        };
        let Some(field) = crate::model::HashField::ALL
            .into_iter()
            .find(|h| h.keyword() == kw)
        else {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                at,
                format!("`load-balance ecmp` hashes on `{f}`, which `load-balance {{ hash … }}` has no keyword for; the `.fab` states no hash"),
            ));
            return None;
        };
        kws.insert(field.keyword());
    }
    let ordered = crate::model::HashField::ALL
        .into_iter()
        .map(|h| h.keyword())
        .filter(|k| kws.contains(k))
        .collect();
    Some((ordered, at))
}

/// fabricc's header: `# Written for VRP V300R023C00 on PLATFORM.`, the catalogue platform it
/// names and the line.
fn header(text: &str, file: usize) -> Option<(String, Ev)> {
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("# Written for VRP ")
            && let Some((_, plat)) = rest.split_once(" on ")
        {
            let plat = plat.trim().trim_end_matches('.');
            if !plat.is_empty() && !plat.contains(' ') {
                return Some((
                    plat.to_string(),
                    Ev {
                        file,
                        at: Loc::new(start, start + raw.trim_end().len()),
                    },
                ));
            }
        }
        if !line.starts_with('#') && !line.starts_with('!') && !line.is_empty() {
            break;
        }
    }
    None
}

/// Reads a VRP `current-configuration`; what cannot be carried becomes a note.
pub fn read(text: &str, canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Switch {
    let c = Config::read(text, canon, file, notes);
    let mut sw = Switch::default();
    let plat = header(text, file).and_then(|(n, at)| {
        crate::catalogue::switch_platform(&n)
            .filter(|p| p.os.iter().any(|o| o.os == "vrp"))
            .map(|p| (p.name.clone(), at))
    });
    let action = c.behavior.map_or("drop", |b| b.0);
    // CE8850 family: switch-wide timers, on every PFC port.
    let global_wd = match (c.timer_detect, c.timer_recovery) {
        (Some((d, at)), Some((r, _))) => Some((
            Watchdog {
                detect_ms: d,
                restore_ms: r,
                action,
                poll_ms: None,
            },
            at,
        )),
        (Some((_, at)), None) | (None, Some((_, at))) => {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                at,
                "`dcb pfc deadlock-detect timer` and `dcb pfc deadlock-recovery timer` are not both set; VRP's default for the other is not imported, so the switch is taken to have no watchdog",
            ));
            None
        }
        (None, None) => None,
    };
    for (name, i) in &c.ifaces {
        let at = i.at.unwrap_or(Ev {
            file,
            at: Loc::default(),
        });
        let mut port = Port {
            speed_mbps: speed_of(name),
            mtu: i.mtu,
            at,
            ..Port::default()
        };
        // DSCP → queue (the traffic class is the queue: identity queue plan).
        let domain = i.domain.as_ref().and_then(|(d, dat)| {
            let m = c.domains.get(d);
            if m.is_none() && d != "default" {
                notes.push(Note::new(
                    NoteKind::CannotCarry,
                    *dat,
                    format!("`{name}` trusts DiffServ domain `{d}`, which the configuration does not define; the port is taken to use the default domain"),
                ));
            }
            m
        });
        let mut map = BTreeMap::new();
        let mut first: Option<Ev> = None;
        for d in 0u8..64 {
            match domain.and_then(|m| m.get(&d)) {
                Some(&(q, dat)) => {
                    map.insert(d, q);
                    port.dscp_at.insert(d, dat);
                    if first.is_none_or(|f| dat.at.start < f.at.start) {
                        first = Some(dat);
                    }
                }
                None => {
                    map.insert(d, default_queue(d));
                }
            }
        }
        port.dscp = Some((map, first.or(i.domain.as_ref().map(|x| x.1)).unwrap_or(at)));
        port.tc_queue = Some(([0, 1, 2, 3, 4, 5, 6, 7], at));
        // PFC: the applied profile's priorities (each its own queue).
        let profile = i.pfc.as_ref().and_then(|(p, pat)| match c.pfc.get(p) {
            Some(x) => Some((x, *pat)),
            None => {
                notes.push(Note::new(
                    NoteKind::CannotCarry,
                    *pat,
                    format!("`{name}` applies PFC profile `{p}`, which the configuration does not define; the port is taken to run no PFC"),
                ));
                None
            }
        });
        let set: BTreeSet<u8> = profile
            .map(|(p, _)| p.priorities.keys().copied().collect())
            .unwrap_or_default();
        let pfc_at = profile
            .and_then(|(p, _)| p.priorities.values().next().copied())
            .or(i.pfc.as_ref().map(|x| x.1))
            .unwrap_or(at);
        if !set.is_empty() {
            let mut tc_pg = [0u8, 1, 2, 3, 4, 5, 6, 7];
            for &p in &set {
                tc_pg[usize::from(p)] = p;
            }
            port.tc_pg = Some((tc_pg, pfc_at));
            // The watchdog: switch-wide timers (CE8850 family), else the profile's
            // per-priority counts of the detection interval (CE8855 family).
            port.watchdog = global_wd.or_else(|| {
                let (p, _) = profile?;
                let (unit, _) = c.interval?;
                let (&q, &(d, dat)) = p.detect.iter().find(|(q, _)| set.contains(q))?;
                let r = p.recovery.get(&q).copied().unwrap_or(0);
                Some((
                    Watchdog {
                        detect_ms: d.saturating_mul(unit),
                        restore_ms: r.saturating_mul(unit),
                        action,
                        poll_ms: None,
                    },
                    dat,
                ))
            });
        }
        port.pfc = Some((set.clone(), pfc_at));
        // Scheduling: DRR queues with their weights, every other queue strict (PQ).
        for q in 0u8..8 {
            if i.drr.contains_key(&q) {
                if let Some(&(w, e)) = i.weight.get(&q) {
                    port.sched.insert(q, (Sched::Weight(w), e));
                }
            } else {
                port.sched.insert(q, (Sched::Strict, at));
            }
        }
        // ECN: the queue's drop profile, marking where `qos queue Q ecn` is on.
        for (&q, (dp, wat)) in &i.wred {
            match c.drop.get(dp) {
                Some(&(w, dat)) => {
                    port.wred.insert(
                        q,
                        (
                            Wred {
                                ecn: i.ecn.contains_key(&q),
                                ..w
                            },
                            dat,
                        ),
                    );
                }
                None => notes.push(Note::new(
                    NoteKind::CannotCarry,
                    *wat,
                    format!("`{name}` queue {q} uses drop profile `{dp}`, which the configuration does not define (or not in bytes); the queue's ECN is not imported"),
                )),
            }
        }
        // Headroom where written (CE8855 family), on the lossless queues.
        for (&q, &(b, e)) in &i.hdrm {
            if set.contains(&q) {
                port.pg.insert(
                    q,
                    PgProfile {
                        name: format!("dcb pfc buffer {q}"),
                        xoff: Some(b),
                        size: None,
                        threshold: i.xoff.get(&q).map(|&x| Threshold::Static(x)),
                        at: e,
                        xoff_at: e,
                    },
                );
            }
        }
        sw.ports.insert(name.clone(), port);
    }
    sw.hash = c.hash;
    sw.platform = plat.as_ref().map(|p| p.0.clone());
    sw.vendor = Some(Vendor {
        os: Os::Vrp,
        release: None,
        platform: plat.as_ref().map(|p| {
            (
                p.0.clone(),
                format!(
                    "the configuration's header says it was written for `{}`",
                    p.0
                ),
            )
        }),
        platform_at: plat.map(|p| p.1),
        no_cables: true,
    });
    sw
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::vrp::canon;

    const CFG: &str = "# fabricc: Huawei CloudEngine (VRP) RoCEv2 QoS for leaf1 (fabric lab).\n# Written for VRP V300R023C00 on huawei-ce8851-32cq8dq-p.\n#\ndiffserv domain FABRICC_ROCE\n ip-dscp-inbound 24 phb af4 green\n ip-dscp-inbound 26 phb af3 green\n ip-dscp-inbound 48 phb cs6 green\n#\ndcb pfc deadlock-detect timer 200\ndcb pfc deadlock-recovery timer 400\ndcb pfc deadlock recovery-behavior discard slot 1\n#\ndcb pfc FABRICC_ROCE\n undo priority\n priority 3 4\n#\ndcb pfc ONE\n priority 3\n#\ndrop-profile FABRICC_Q3\n ecn buffer-size low-limit 150000 high-limit 1500000 discard-percentage 100\n#\ninterface 400GE1/0/1\n mtu 9216\n trust upstream FABRICC_ROCE\n dcb pfc enable FABRICC_ROCE mode manual\n qos pq 1 to 2 5 to 7\n qos drr 0 3 to 4\n qos queue 0 drr weight 30\n qos queue 3 drr weight 40\n qos queue 3 wred FABRICC_Q3\n qos queue 3 ecn\n qos queue 4 drr weight 30\n#\ninterface 400GE1/0/2\n mtu 9216\n trust upstream FABRICC_ROCE\n dcb pfc enable ONE mode manual\n#\nload-balance ecmp\n ip src-ip dst-ip l4-src-port l4-dst-port protocol\n#\n";

    #[test]
    fn reads_domain_pfc_ecn_and_schedulers() {
        assert!(is_vrp(CFG));
        let c = canon(CFG);
        let mut notes = Vec::new();
        let sw = read(CFG, &c, 0, &mut notes);
        assert_eq!(sw.platform.as_deref(), Some("huawei-ce8851-32cq8dq-p"));
        let a = &sw.ports["400GE1/0/1"];
        assert_eq!(a.speed_mbps, Some(400_000));
        let m = &a.dscp.as_ref().unwrap().0;
        assert_eq!((m[&26], m[&24], m[&48], m[&0], m[&46]), (3, 4, 6, 0, 5));
        assert_eq!(a.pfc.as_ref().unwrap().0, BTreeSet::from([3, 4]));
        assert_eq!(a.sched[&3].0, Sched::Weight(40));
        assert_eq!(a.sched[&6].0, Sched::Strict);
        let w = a.wred[&3].0;
        assert_eq!(
            (w.min, w.max, w.probability, w.ecn),
            (150_000, 1_500_000, 100, true)
        );
        let at = a.wred[&3].1.at;
        assert!(CFG[at.start as usize..at.end as usize].starts_with("ecn buffer-size"));
        assert_eq!(
            a.watchdog.unwrap().0,
            Watchdog {
                detect_ms: 200,
                restore_ms: 400,
                action: "drop",
                poll_ms: None
            }
        );
        // A port whose PFC differs keeps its own priorities.
        assert_eq!(
            sw.ports["400GE1/0/2"].pfc.as_ref().unwrap().0,
            BTreeSet::from([3])
        );
        assert_eq!(
            sw.hash.as_ref().unwrap().0,
            vec!["src-ip", "dst-ip", "src-port", "dst-port", "protocol"]
        );
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn ce8855_timers_and_headroom() {
        let t = "dcb pfc deadlock-detect interval 100\ndcb pfc deadlock recovery-behavior forwarding slot 1\n#\ndcb pfc P\n priority 3\n priority 3 deadlock-detect time 2\n priority 3 deadlock-recovery time 4\n#\ninterface 100GE1/0/1\n dcb pfc enable P mode manual\n dcb pfc buffer 3 hdrm 40 kbytes\n dcb pfc buffer 3 xoff static 20 kbytes\n#\n";
        let sw = read(t, &canon(t), 0, &mut Vec::new());
        let a = &sw.ports["100GE1/0/1"];
        assert_eq!(a.speed_mbps, Some(100_000));
        let w = a.watchdog.unwrap().0;
        assert_eq!((w.detect_ms, w.restore_ms, w.action), (200, 400, "forward"));
        assert_eq!(a.pg[&3].xoff, Some(40_000));
        assert_eq!(a.pg[&3].threshold, Some(Threshold::Static(20_000)));
        // No domain: the default one.
        assert_eq!(a.dscp.as_ref().unwrap().0[&26], 3);
        assert!(sw.vendor.as_ref().unwrap().platform.is_none());
    }

    #[test]
    fn names_and_defaults() {
        assert_eq!(speed_of("400GE1/0/1"), Some(400_000));
        assert_eq!(speed_of("400GE1/0/1:2"), None);
        assert_eq!(speed_of("GE1/0/1"), Some(1000));
        assert_eq!(speed_of("Eth-Trunk1"), None);
        assert_eq!(default_queue(10), 1);
        assert_eq!(default_queue(11), 0);
        assert_eq!(default_queue(56), 7);
        assert!(!is_vrp("#\n version 7.1.070\nqos map-table dot1p-lp\n"));
        assert!(!is_vrp("interface FourHundredGigE1/0/1\n qos trust dscp\n"));
        assert!(is_vrp("#\ninterface 100GE1/0/1\n mtu 9216\n"));
    }
}
