//! An H3C Comware 7 switch as deployed, from its `display current-configuration`
//! (`current-configuration` in the device's folder, the file `fabricc verify` reads), read
//! with the same reader as `verify` (`verify::cli`, Comware dialect: a view's lines under the
//! line that entered it, `#` and `quit`/`return` no settings, a map's `import A B … export E`
//! one path per imported value). Each path keeps the range of its line, whose words are read
//! here.
//!
//! What the commands mean (the H3C and HPE Comware 7 references `render::comware` cites,
//! listed per command group in docs/targets.md):
//! * `qos map-table dscp-dot1p` / `import D… export P`: DSCP → 802.1p on a port with `qos
//!   trust dscp`; `qos map-table dot1p-lp` / `import P… export Q`: 802.1p → local precedence,
//!   the egress queue (H3C's priority mapping procedure: DSCP → 802.1p → local precedence).
//!   An entry the table does not state keeps Comware's default (H3C ACL and QoS Configuration
//!   Guides, "Appendix A Default priority mapping tables": dscp-dot1p DSCP / 8; dot1p-lp 0 → 2,
//!   1 → 0, 2 → 1, else the same number). So a class's traffic class here is its queue, and
//!   its PFC priority the 802.1p value its DSCPs map to. A port without `qos trust dscp` does
//!   not classify by DSCP: its DSCPs are taken to reach queue 0 of port priority 0, and a note
//!   says so.
//! * `priority-flow-control enable` and `priority-flow-control no-drop dot1p LIST`: the port's
//!   lossless priorities (PFC off without `enable`); `priority-flow-control dot1p P headroom
//!   N`: the priority's headroom in cells; `priority-flow-control deadlock enable` (port) and
//!   `priority-flow-control deadlock auto-recover action discard|forwarding` (system): the
//!   watchdog on, with the action. The detection interval and recovery delay count in steps
//!   of `priority-flow-control deadlock precision`, which no reference fabricc read gives, and
//!   fabricc does not write them: the `.fab` gets the language's default timers (FAB966).
//! * `qos wred queue table T` / `queue Q low-limit L high-limit H discard-probability P` and
//!   `queue Q ecn`, applied with `qos wred apply T`: the queue's ECN, L and H in cells.
//! * `qos wrr Q group 1 byte-count W` / `qos wrr Q group sp`: WRR weights (relative: as a
//!   percent of their sum, the inverse of the renderer's division by their common divisor)
//!   and strict queues.
//! * `interface FourHundredGigE1/0/1[:k]`: the speed from the name's type
//!   (`lower::vocab::comware_type`).
//!
//! Cells are the cell fabricc's header states (`…; buffer cell 254 B.`), else the catalogue
//! platform's, else `lower::vocab::COMWARE_DEFAULT_CELL` with a FAB966, the same numbers the
//! renderer converts with (`lower::vocab::comware_cells` rounds up, so a threshold comes back
//! up to one cell above the model's: the difference the target cannot avoid).
//!
//! The platform: fabricc's header names it; a device's configuration names no model (FAB965
//! then, as the other readers). `os comware` takes no release. The configuration holds no
//! cable lengths (FAB963, one per switch) and fabricc writes no MTU on Comware.

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{
    Ev, Note, NoteKind, PgProfile, Port, Sched, Switch, Vendor, Watchdog, Wred, cli_settings,
};
use crate::lower::vocab::COMWARE_DEFAULT_CELL;
use crate::syntax::ast::Os;
use crate::verify::canon::{Canon, Loc};

/// Comware's default 802.1p → local precedence (H3C ACL and QoS Configuration Guides,
/// "Appendix A Default priority mapping tables").
pub fn default_lp(dot1p: u8) -> u8 {
    match dot1p {
        0 => 2,
        1 => 0,
        2 => 1,
        p => p,
    }
}

/// `FourHundredGigE1/0/1:2` → 400,000 Mb/s, by the type names the renderer writes.
pub fn speed_of(port: &str) -> Option<u64> {
    let kind: String = port.chars().take_while(|c| !c.is_ascii_digit()).collect();
    [10u32, 25, 40, 50, 100, 200, 400]
        .into_iter()
        .find(|&g| crate::lower::vocab::comware_type(g) == Some(kind.as_str()))
        .map(|g| u64::from(g) * 1000)
}

#[derive(Debug, Default)]
struct Iface {
    at: Option<Ev>,
    trust_dscp: bool,
    pfc_on: Option<Ev>,
    no_drop: Option<(BTreeSet<u8>, Ev)>,
    headroom: BTreeMap<u8, (u64, Ev)>,
    deadlock: Option<Ev>,
    wrr: BTreeMap<u8, (Option<u64>, Ev)>,
    table: Option<(String, Ev)>,
}

/// A WRED table's queue: low and high limit (cells), discard probability (%), where.
type Limits = (u64, u64, u64, Ev);

#[derive(Debug, Default)]
struct Config {
    dscp_dot1p: BTreeMap<u8, (u8, Ev)>,
    dot1p_lp: BTreeMap<u8, (u8, Ev)>,
    /// Table → queue → (low, high, probability, where); queues with `ecn`.
    wred: BTreeMap<String, BTreeMap<u8, Limits>>,
    ecn: BTreeMap<String, BTreeSet<u8>>,
    action: Option<&'static str>,
    ifaces: BTreeMap<String, Iface>,
}

fn small(s: &str, below: u8) -> Option<u8> {
    s.parse::<u8>().ok().filter(|&n| n < below)
}

impl Config {
    fn read(text: &str, canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Config {
        let mut c = Config::default();
        for (path, at, w) in cli_settings(text, canon, file) {
            let p: Vec<&str> = path.iter().map(String::as_str).collect();
            match p.as_slice() {
                [_, _] => {
                    if let [
                        "priority-flow-control",
                        "deadlock",
                        "auto-recover",
                        "action",
                        a,
                    ] = w.as_slice()
                    {
                        c.action = match *a {
                            "discard" => Some("drop"),
                            "forwarding" => Some("forward"),
                            other => {
                                notes.push(Note::new(
                                    NoteKind::CannotCarry,
                                    at,
                                    format!("the PFC deadlock recovery action `{other}` has no `.fab` word; the watchdog is taken to drop"),
                                ));
                                Some("drop")
                            }
                        };
                    }
                }
                [view, key, value] => c.view(view, key, value, &w, at),
                _ => {}
            }
        }
        c
    }

    fn view(&mut self, view: &str, key: &str, value: &str, w: &[&str], at: Ev) {
        // `import 26` → `export 3`.
        let mapped = || -> Option<(u8, u8)> {
            let from = key.strip_prefix("import ")?.parse::<u8>().ok()?;
            let to = value.strip_prefix("export ")?.parse::<u8>().ok()?;
            Some((from, to))
        };
        match view {
            "qos map-table dscp-dot1p" => {
                if let Some((d, p)) = mapped()
                    && d < 64
                    && p < 8
                {
                    self.dscp_dot1p.insert(d, (p, at));
                }
                return;
            }
            "qos map-table dot1p-lp" => {
                if let Some((p, q)) = mapped()
                    && p < 8
                    && q < 8
                {
                    self.dot1p_lp.insert(p, (q, at));
                }
                return;
            }
            _ => {}
        }
        if let Some(t) = view.strip_prefix("qos wred queue table ") {
            match w {
                [
                    "queue",
                    q,
                    "low-limit",
                    lo,
                    "high-limit",
                    hi,
                    "discard-probability",
                    pct,
                ] => {
                    if let (Some(q), Ok(lo), Ok(hi), Ok(pct)) =
                        (small(q, 8), lo.parse(), hi.parse(), pct.parse())
                    {
                        self.wred
                            .entry(t.to_string())
                            .or_default()
                            .insert(q, (lo, hi, pct, at));
                    }
                }
                ["queue", q, "ecn"] => {
                    if let Some(q) = small(q, 8) {
                        self.ecn.entry(t.to_string()).or_default().insert(q);
                    }
                }
                _ => {}
            }
            return;
        }
        let Some(port) = view.strip_prefix("interface ") else {
            return;
        };
        let i = self.ifaces.entry(port.to_string()).or_default();
        if i.at.is_none_or(|a| at.at.start < a.at.start) {
            i.at = Some(at);
        }
        match w {
            ["qos", "trust", "dscp"] => i.trust_dscp = true,
            ["priority-flow-control", "enable"] => i.pfc_on = Some(at),
            ["priority-flow-control", "no-drop", "dot1p", list @ ..] => {
                let set: BTreeSet<u8> = list.iter().filter_map(|p| small(p, 8)).collect();
                i.no_drop = Some((set, at));
            }
            ["priority-flow-control", "dot1p", p, "headroom", n] => {
                if let (Some(p), Ok(n)) = (small(p, 8), n.parse::<u64>()) {
                    i.headroom.insert(p, (n, at));
                }
            }
            ["priority-flow-control", "deadlock", "enable"] => i.deadlock = Some(at),
            ["qos", "wrr", q, "group", "sp"] => {
                if let Some(q) = small(q, 8) {
                    i.wrr.insert(q, (None, at));
                }
            }
            ["qos", "wrr", q, "group", _, "byte-count" | "weight", n] => {
                if let (Some(q), Ok(n)) = (small(q, 8), n.parse::<u64>()) {
                    i.wrr.insert(q, (Some(n), at));
                }
            }
            ["qos", "wred", "apply", t] => i.table = Some(((*t).to_string(), at)),
            _ => {}
        }
    }
}

/// The cell fabricc's header states (`…; buffer cell 254 B.`) and the platform it names
/// (`… on PLATFORM; …`), with the line.
pub fn header(text: &str, file: usize) -> (Option<u64>, Option<(String, Ev)>) {
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("# Written for Comware ") {
            let at = Ev {
                file,
                at: Loc::new(start, start + raw.trim_end().len()),
            };
            let cell = rest
                .split_once("buffer cell ")
                .and_then(|(_, c)| c.split(' ').next())
                .and_then(|c| c.parse::<u64>().ok())
                .filter(|&c| c > 0);
            let plat = rest
                .split_once(") on ")
                .and_then(|(_, p)| p.split(';').next())
                .map(str::trim)
                .filter(|p| !p.is_empty() && !p.contains(' '))
                .map(|p| (p.to_string(), at));
            return (cell, plat);
        }
        if !line.starts_with('#') && !line.is_empty() {
            break;
        }
    }
    (None, None)
}

/// Reads a Comware `current-configuration`, with the cell its header (or catalogue platform)
/// gives; what cannot be carried becomes a note.
pub fn read(text: &str, canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Switch {
    let (stated, named) = header(text, file);
    let plat = named.and_then(|(n, at)| {
        crate::catalogue::switch_platform(&n)
            .filter(|p| p.os.iter().any(|o| o.os == "comware"))
            .map(|p| (p, at))
    });
    let cell = match stated.or_else(|| {
        plat.and_then(|(p, _)| p.buffer.cell.as_ref().map(|c| c.value))
            .filter(|&c| c > 0)
    }) {
        Some(c) => c,
        None => {
            notes.push(Note::new(
                NoteKind::Inferred,
                Ev {
                    file,
                    at: Loc::default(),
                },
                format!("the configuration states no buffer cell, the unit of its WRED limits and headroom: {COMWARE_DEFAULT_CELL} B (Broadcom's, the renderer's default) is taken"),
            ).help("add `cell …` (or a platform) to the switch model by hand"));
            COMWARE_DEFAULT_CELL
        }
    };
    let mut sw = read_with_cell(text, canon, file, notes, cell);
    if let (Some((p, at)), Some(v)) = (plat, sw.vendor.as_mut()) {
        sw.platform = Some(p.name.clone());
        v.platform = Some((
            p.name.clone(),
            format!(
                "the configuration's header says it was written for `{}`",
                p.name
            ),
        ));
        v.platform_at = Some(at);
    }
    sw
}

/// Reads a Comware `current-configuration`; WRED limits and headroom are cells of `cell` B.
pub fn read_with_cell(
    text: &str,
    canon: &Canon,
    file: usize,
    notes: &mut Vec<Note>,
    cell: u64,
) -> Switch {
    let c = Config::read(text, canon, file, notes);
    let mut sw = Switch::default();
    let dot1p_of = |d: u8| c.dscp_dot1p.get(&d).map_or(d >> 3, |x| x.0);
    let lp_of = |p: u8| c.dot1p_lp.get(&p).map_or(default_lp(p), |x| x.0);
    let map_at = c
        .dscp_dot1p
        .values()
        .map(|x| x.1)
        .min_by_key(|e| e.at.start);
    let mut untrusted: Option<Ev> = None;
    let mut wd_assumed: Option<Ev> = None;
    let mut uneven: Option<Ev> = None;
    for (name, i) in &c.ifaces {
        let at = i.at.unwrap_or(Ev {
            file,
            at: Loc::default(),
        });
        let mut port = Port {
            speed_mbps: speed_of(name),
            at,
            ..Port::default()
        };
        // DSCP → 802.1p → local precedence: the queue, which is the traffic class here.
        let mut map = BTreeMap::new();
        for d in 0u8..64 {
            let q = if i.trust_dscp {
                lp_of(dot1p_of(d))
            } else {
                lp_of(0)
            };
            map.insert(d, q);
            if let Some(&(_, e)) = c.dscp_dot1p.get(&d).filter(|_| i.trust_dscp) {
                port.dscp_at.insert(d, e);
            }
        }
        if !i.trust_dscp && (i.pfc_on.is_some() || i.table.is_some()) {
            untrusted.get_or_insert(at);
        }
        port.dscp = Some((map, map_at.filter(|_| i.trust_dscp).unwrap_or(at)));
        port.tc_queue = Some(([0, 1, 2, 3, 4, 5, 6, 7], at));
        // PFC: the no-drop priorities where PFC is enabled; each pauses the queue its
        // 802.1p value maps to.
        let (set, pfc_at) = match (&i.pfc_on, &i.no_drop) {
            (Some(_), Some((s, e))) => (s.clone(), *e),
            (Some(e), None) => (BTreeSet::new(), *e),
            (None, _) => (BTreeSet::new(), at),
        };
        if !set.is_empty() {
            let mut tc_pg = [0u8, 1, 2, 3, 4, 5, 6, 7];
            for &p in &set {
                tc_pg[usize::from(lp_of(p))] = p;
            }
            port.tc_pg = Some((tc_pg, pfc_at));
            if let Some(e) = i.deadlock {
                wd_assumed.get_or_insert(e);
                port.watchdog = Some((
                    Watchdog {
                        detect_ms: 200,
                        restore_ms: 200,
                        action: c.action.unwrap_or("drop"),
                        poll_ms: None,
                    },
                    e,
                ));
            }
            for (&p, &(n, e)) in &i.headroom {
                if set.contains(&p) {
                    port.pg.insert(
                        p,
                        PgProfile {
                            name: format!("dot1p {p} headroom"),
                            xoff: Some(n.saturating_mul(cell)),
                            size: None,
                            threshold: None,
                            at: e,
                            xoff_at: e,
                        },
                    );
                }
            }
        }
        port.pfc = Some((set, pfc_at));
        // WRR: weights as a percent of their sum; SP queues strict.
        let sum: u64 = i
            .wrr
            .values()
            .filter_map(|x| x.0)
            .fold(0, u64::saturating_add);
        for (&q, &(w, e)) in &i.wrr {
            let s = match w {
                None => Sched::Strict,
                Some(w) => {
                    let pct = w.saturating_mul(100) / sum.max(1);
                    if pct.saturating_mul(sum) != w.saturating_mul(100) {
                        uneven.get_or_insert(e);
                    }
                    Sched::Weight(pct)
                }
            };
            port.sched.insert(q, (s, e));
        }
        // ECN: the applied WRED table's queues, in cells.
        if let Some((t, _)) = &i.table
            && let Some(qs) = c.wred.get(t)
        {
            let marks = c.ecn.get(t);
            for (&q, &(lo, hi, pct, e)) in qs {
                port.wred.insert(
                    q,
                    (
                        Wred {
                            min: lo.saturating_mul(cell),
                            max: hi.saturating_mul(cell),
                            probability: pct,
                            ecn: marks.is_some_and(|m| m.contains(&q)),
                            fill: None,
                        },
                        e,
                    ),
                );
            }
        }
        sw.ports.insert(name.clone(), port);
    }
    if let Some(e) = untrusted {
        notes.push(Note::new(
            NoteKind::CannotCarry,
            e,
            "a port with PFC or a WRED table has no `qos trust dscp`: it classifies by port priority, which the `.fab` cannot state; its DSCPs are taken to reach the queue of 802.1p 0",
        ));
    }
    if let Some(e) = wd_assumed {
        notes.push(Note::new(
            NoteKind::Inferred,
            e,
            "PFC deadlock detection is on (`priority-flow-control deadlock enable`) with Comware's own interval and recovery delay, which fabricc does not write; the `.fab` gets the language's default timers (detect 200ms, restore 200ms)",
        ));
    }
    if let Some(e) = uneven {
        notes.push(Note::new(
            NoteKind::Inferred,
            e,
            "the WRR weights are not whole percents of their sum; each is taken as its percent rounded down",
        ));
    }
    sw.vendor = Some(Vendor {
        os: Os::Comware,
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

    const CFG: &str = "# fabricc: H3C Comware 7 RoCEv2 QoS for leaf1 (fabric lab).\n# Written for Comware 7 (H3C S9825/S9855 command references R913x) on h3c-s9855-48cd8d; buffer cell 254 B.\n#\nqos map-table dscp-dot1p\n import 0 1 2 25 export 0\n import 26 export 3\n import 24 export 4\n import 48 export 6\nquit\nqos map-table dot1p-lp\n import 0 export 0\n import 3 export 3\n import 4 export 4\nquit\nqos wred queue table FABRICC_ROCE\n undo queue all\n queue 3 low-limit 591 high-limit 5906 discard-probability 20\n queue 3 ecn\nquit\npriority-flow-control deadlock auto-recover action discard\ninterface HundredGigE1/0/1\n qos trust dscp\n priority-flow-control enable\n priority-flow-control no-drop dot1p 3 4\n priority-flow-control dot1p 3 headroom 155\n priority-flow-control deadlock enable\n qos wrr byte-count\n qos wrr 0 group 1 byte-count 2\n qos wrr 3 group 1 byte-count 5\n qos wrr 4 group 1 byte-count 3\n qos wrr 6 group sp\n qos wred apply FABRICC_ROCE\nquit\ninterface FourHundredGigE1/0/49\n qos trust dscp\n priority-flow-control enable\n priority-flow-control no-drop dot1p 3\n qos wred apply FABRICC_ROCE\nquit\n";

    #[test]
    fn reads_maps_pfc_wred_and_wrr() {
        let c = canon(CFG, Dialect::Comware);
        let mut notes = Vec::new();
        let sw = read(CFG, &c, 0, &mut notes);
        assert_eq!(sw.platform.as_deref(), Some("h3c-s9855-48cd8d"));
        let a = &sw.ports["HundredGigE1/0/1"];
        assert_eq!(a.speed_mbps, Some(100_000));
        let m = &a.dscp.as_ref().unwrap().0;
        assert_eq!((m[&26], m[&24], m[&48], m[&0], m[&8]), (3, 4, 6, 0, 0));
        assert_eq!(a.pfc.as_ref().unwrap().0, BTreeSet::from([3, 4]));
        assert_eq!(a.pg[&3].xoff, Some(155 * 254));
        assert_eq!(a.sched[&3].0, Sched::Weight(50));
        assert_eq!(a.sched[&0].0, Sched::Weight(20));
        assert_eq!(a.sched[&6].0, Sched::Strict);
        let w = a.wred[&3].0;
        assert_eq!(
            (w.min, w.max, w.probability, w.ecn),
            (591 * 254, 5906 * 254, 20, true)
        );
        assert_eq!(a.watchdog.unwrap().0.action, "drop");
        // A port whose PFC differs keeps its own priorities.
        let b = &sw.ports["FourHundredGigE1/0/49"];
        assert_eq!(b.speed_mbps, Some(400_000));
        assert_eq!(b.pfc.as_ref().unwrap().0, BTreeSet::from([3]));
        assert!(
            notes.iter().all(|n| n.kind == NoteKind::Inferred),
            "{notes:?}"
        );
    }

    #[test]
    fn huge_weights_do_not_overflow() {
        let t = "interface HundredGigE1/0/1\n qos wrr 0 group 1 byte-count 18446744073709551615\n qos wrr 1 group 1 byte-count 18446744073709551615\n#\n";
        let sw = read(t, &canon(t, Dialect::Comware), 0, &mut Vec::new());
        assert!(matches!(
            sw.ports["HundredGigE1/0/1"].sched[&0].0,
            Sched::Weight(_)
        ));
    }

    #[test]
    fn defaults_and_header() {
        assert_eq!(default_lp(0), 2);
        assert_eq!(default_lp(1), 0);
        assert_eq!(default_lp(5), 5);
        let (cell, plat) = header(CFG, 0);
        assert_eq!(cell, Some(254));
        assert_eq!(plat.unwrap().0, "h3c-s9855-48cd8d");
        let t = "#\n version 7.1.070, Release 6710\n#\ninterface HundredGigE1/0/1\n priority-flow-control enable\n priority-flow-control no-drop dot1p 3\n#\n";
        let mut notes = Vec::new();
        let sw = read(t, &canon(t, Dialect::Comware), 0, &mut notes);
        assert!(sw.platform.is_none());
        // No trust: port priority 0, which the default dot1p-lp puts in queue 2.
        assert_eq!(
            sw.ports["HundredGigE1/0/1"].dscp.as_ref().unwrap().0[&26],
            2
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
    }
}
