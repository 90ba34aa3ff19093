//! An Arista EOS switch as deployed, from its `show running-config` (`running-config` in the
//! device's folder, the file `fabricc verify` reads), read with the same reader as `verify`
//! (`verify::cli`, EOS dialect), which turns the indented text into paths of parent lines,
//! keywords and value, each with its line.
//!
//! What the commands mean (Arista EOS User Manual, "Quality of Service" and "Priority Flow
//! Control" chapters, https://www.arista.com/en/um-eos/eos-quality-of-service; the forms as
//! Arista AVD's `eos_cli_config_gen` renders them, aristanetworks/avd 6.4):
//! * `qos map dscp D… to traffic-class T`: DSCP → traffic class (a DSCP the running-config
//!   does not name keeps EOS's default, DSCP 0–7 → 1, 8–15 → 0, else DSCP / 8);
//! * `qos map cos C to traffic-class T`: the PFC priority (CoS) of a traffic class (EOS's
//!   default swaps 0 and 1, else identity, `render::eos::default_cos_tc`);
//! * `qos map traffic-class T to tx-queue Q`: the queue plan (default: identity);
//! * `qos profile P` bound with `service-profile P` on an interface (or the same commands
//!   directly under the interface, which win): `priority-flow-control priority N no-drop`
//!   (the lossless priorities), `priority-flow-control pause watchdog` (the watchdog on),
//!   `tx-queue Q` / `uc-tx-queue Q` with `priority strict`, `no priority` + `bandwidth
//!   percent N`, `shape rate N percent` and `random-detect ecn minimum-threshold X UNIT
//!   maximum-threshold Y UNIT max-mark-probability P`;
//! * `priority-flow-control pause watchdog default timeout|recovery-time|polling-interval S`
//!   (seconds) and `… action drop|notify-only`;
//! * `platform trident mmu queue profile P` / `ingress priority-group G threshold α` (the
//!   dynamic threshold of the lossless PG on Broadcom XGS);
//! * `interface EthernetN/M`: `mtu`, `speed 400g-4` (speed and lanes: a broken-out cage's
//!   sub-port), `service-profile`.
//!
//! ECN units: `bytes` is exact; `kbytes` and `mbytes` are read as 1,000 and 1,000,000 B (the
//! manual gives no base; a FAB966 advice says so at the line); `segments` are buffer cells, of
//! the catalogue platform's cell size (FAB965 without one).
//!
//! The platform and release: `show running-config` starts with `! device: NAME (MODEL,
//! EOS-4.35.0F)`; fabricc's own fragment says `! Written for EOS 4.35 on PLATFORM.` Either
//! names the catalogue platform. The running-config holds no cable lengths: one FAB963 per
//! switch says so (the links get the language's default).

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{Ev, Note, NoteKind, Port, Sched, Shaper, Switch, Vendor, Watchdog, Wred};
use crate::syntax::ast::Os;
use crate::verify::canon::{Canon, Loc, key_of};

/// What one `qos profile` (or an interface's own QoS lines) sets.
#[derive(Debug, Default, Clone)]
struct Profile {
    pfc: BTreeMap<u8, Ev>,
    /// `priority-flow-control on` / `off` was stated.
    pfc_mode: Option<(bool, Ev)>,
    watchdog: Option<Ev>,
    queues: BTreeMap<u8, Queue>,
    /// The first line of the profile.
    at: Option<Ev>,
}

#[derive(Debug, Default, Clone)]
struct Queue {
    strict: Option<Ev>,
    weight: Option<(u64, Ev)>,
    shape_percent: Option<(u64, Ev)>,
    ecn: Option<(Wred, Ev)>,
}

#[derive(Debug, Default)]
struct Iface {
    at: Option<Ev>,
    mtu: Option<(u64, Ev)>,
    speed: Option<(u64, Option<u32>)>,
    profile: Option<(String, Ev)>,
    own: Profile,
}

#[derive(Debug, Default)]
struct Global {
    dscp: BTreeMap<u8, (u8, Ev)>,
    cos: BTreeMap<u8, (u8, Ev)>,
    tc_queue: BTreeMap<u8, (u8, Ev)>,
    timeout: Option<(u64, Ev)>,
    recovery: Option<(u64, Ev)>,
    polling: Option<(u64, Ev)>,
    action: Option<(&'static str, Ev)>,
    /// MMU queue profile → PG → log2 α.
    mmu: BTreeMap<String, BTreeMap<u8, (i64, Ev)>>,
    mmu_applied: Option<String>,
}

/// EOS's DSCP → traffic class default (DSCP 0–7 → 1, 8–15 → 0, else DSCP / 8).
pub fn default_dscp_tc(d: u8) -> u8 {
    match d >> 3 {
        0 => 1,
        1 => 0,
        t => t,
    }
}

/// `0.2` (seconds, as EOS prints watchdog timers) → 200 ms.
fn seconds_ms(s: &str) -> Option<u64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if frac.len() > 3 || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let w: u64 = whole.parse().ok()?;
    let f: u64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<3}").parse().ok()?
    };
    w.checked_mul(1000)?.checked_add(f)
}

/// `400g-4` → (400000 Mb/s, Some(4 lanes)); `100g`, `forced 100gfull` → (100000, None).
pub fn speed_of(v: &str) -> Option<(u64, Option<u32>)> {
    let v = v.trim().strip_prefix("forced ").unwrap_or(v.trim());
    let (head, lanes) = match v.split_once('-') {
        Some((h, l)) => (h, Some(l.parse::<u32>().ok()?)),
        None => (v, None),
    };
    let digits: String = head.chars().take_while(char::is_ascii_digit).collect();
    let rest = &head[digits.len()..];
    let n: u64 = digits.parse().ok()?;
    let mbps = if rest.starts_with(['g', 'G']) {
        n.checked_mul(1000)?
    } else if rest.starts_with(['m', 'M']) {
        n
    } else {
        return None;
    };
    Some((mbps, lanes))
}

/// A threshold and its unit as EOS writes them, in bytes; `segments` in cells of `cell`
/// bytes. Err: why not (an unknown unit, segments without a cell size).
pub fn threshold_bytes(n: &str, unit: &str, cell: Option<u64>) -> Result<u64, String> {
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{n}` is not a whole number"))?;
    let k = match unit {
        "bytes" => 1,
        "kbytes" => EOS_KBYTE,
        "mbytes" => EOS_KBYTE * EOS_KBYTE,
        "segments" => cell.ok_or_else(|| {
            "`segments` are buffer cells, and no catalogue platform gives this switch's cell size"
                .to_string()
        })?,
        u => return Err(format!("the unit `{u}` is not a size")),
    };
    n.checked_mul(k)
        .ok_or_else(|| format!("`{n} {unit}` is too large"))
}

/// What import takes an EOS `kbytes` to be. The EOS User Manual names the unit without a
/// base; 1,000 B is taken and said at the line (FAB966). fabricc itself writes `bytes`.
pub const EOS_KBYTE: u64 = 1000;

/// The `random-detect ecn …` arguments: (min, max, probability %, units).
fn ecn_args(v: &str) -> Option<(String, String, String, String, u64)> {
    let w: Vec<&str> = v.split(' ').collect();
    // `minimum-threshold` is in the key; the value starts with the number.
    let (min, unit_min) = (w.first()?, w.get(1)?);
    let i = w.iter().position(|x| *x == "maximum-threshold")?;
    let (max, unit_max) = (w.get(i + 1)?, w.get(i + 2)?);
    let p = match w.iter().position(|x| *x == "max-mark-probability") {
        Some(j) => w.get(j + 1)?.parse().ok()?,
        None => 100,
    };
    Some((
        (*min).to_string(),
        (*unit_min).to_string(),
        (*max).to_string(),
        (*unit_max).to_string(),
        p,
    ))
}

/// The header: the model and release of `! device: NAME (MODEL, EOS-4.35.0F)`, else
/// fabricc's `! Written for EOS 4.35 on PLATFORM.`, with the line's place.
fn header(text: &str, file: usize) -> (Option<String>, Option<String>, Option<Ev>) {
    let mut offset = 0;
    let mut found: (Option<String>, Option<String>, Option<Ev>) = (None, None, None);
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim();
        let at = Ev {
            file,
            at: Loc::new(start, start + raw.trim_end().len()),
        };
        if let Some(rest) = line.strip_prefix("! device:")
            && let (Some(a), Some(b)) = (rest.find('('), rest.rfind(')'))
            && a < b
        {
            let inner = &rest[a + 1..b];
            let (model, ver) = inner.split_once(',').unwrap_or((inner, ""));
            let release = ver.trim().strip_prefix("EOS-").and_then(major_minor);
            return (Some(model.trim().to_string()), release, Some(at));
        }
        if let Some(rest) = line.strip_prefix("! Written for EOS ")
            && found.0.is_none()
        {
            let (rel, plat) = rest.split_once(" on ").unwrap_or((rest, ""));
            let plat = plat.trim().trim_end_matches('.');
            found = (
                (!plat.is_empty() && !plat.contains(' ')).then(|| plat.to_string()),
                major_minor(rel.trim()),
                Some(at),
            );
        }
    }
    found
}

/// `4.35.0F` → `4.35`.
fn major_minor(v: &str) -> Option<String> {
    let mut parts = v.split('.');
    let a = parts.next()?;
    let b: String = parts
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (a.parse::<u32>().is_ok() && !b.is_empty()).then(|| format!("{a}.{b}"))
}

/// The catalogue platform running EOS that `named` names: its catalogue name, or its model
/// (`DCS-7060X6-64PE`, with or without `DCS-` and a suffix such as `-F`).
pub fn platform(named: &str, os: Os) -> Option<&'static crate::catalogue::platform::Platform> {
    let n = named.trim().to_ascii_lowercase();
    let bare = |m: &str| {
        m.to_ascii_lowercase()
            .trim_start_matches("dcs-")
            .trim_start_matches("n9k-")
            .to_string()
    };
    let nb = bare(&n);
    crate::catalogue::catalogue().switches.iter().find(|p| {
        p.os.iter().any(|o| o.os == os.as_str())
            && (p.name == n
                || bare(&p.model) == nb
                || nb
                    .strip_prefix(&bare(&p.model))
                    .is_some_and(|r| r.starts_with('-')))
    })
}

/// Reads an EOS running-config; what cannot be carried becomes a note.
pub fn read(text: &str, canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Switch {
    let ev = |at: Loc| Ev { file, at };
    let (named, release, header_at) = header(text, file);
    let plat = named.as_deref().and_then(|n| platform(n, Os::Eos));
    let cell = plat.and_then(|p| p.buffer.cell.as_ref().map(|c| c.value));
    let mut g = Global::default();
    let mut profiles: BTreeMap<String, Profile> = BTreeMap::new();
    let mut ifaces: BTreeMap<String, Iface> = BTreeMap::new();
    let mut hash = None;
    for path in canon.path_vecs() {
        let at = ev(canon.get(&key_of(&path)).unwrap_or_default());
        let w: Vec<&str> = path.iter().map(String::as_str).collect();
        match w.as_slice() {
            [k, v] if k.starts_with("ip load-sharing ") => {
                let line = format!("{k} {v}");
                let words: Vec<&str> = line.split(' ').collect();
                if let Some(h) = super::hash::eos(&words, at, notes) {
                    hash = h;
                }
            }
            [k, v] => global(&mut g, k, v, at, notes),
            [head, rest @ ..] if head.starts_with("qos profile ") => {
                let name = head["qos profile ".len()..].to_string();
                let p = profiles.entry(name).or_default();
                profile_line(p, rest, at, cell, notes);
            }
            [head, "ingress priority-group", v]
                if head.starts_with("platform trident mmu queue profile ") =>
            {
                let name = head["platform trident mmu queue profile ".len()..].to_string();
                if let Some((pg, th)) = v.split_once(" threshold ")
                    && let Ok(pg) = pg.parse::<u8>()
                    && let Some(l) = log2_alpha(th)
                {
                    g.mmu.entry(name).or_default().insert(pg, (l, at));
                }
            }
            [head, rest @ ..] if head.starts_with("interface Ethernet") => {
                let name = head["interface ".len()..].to_string();
                let i = ifaces.entry(name).or_default();
                if i.at.is_none_or(|a| at.at.start < a.at.start) {
                    i.at = Some(at);
                }
                match rest {
                    ["mtu", m] => i.mtu = m.parse().ok().map(|m| (m, at)),
                    ["speed", s] => i.speed = speed_of(s),
                    ["service-profile", p] => i.profile = Some(((*p).to_string(), at)),
                    _ => profile_line(&mut i.own, rest, at, cell, notes),
                }
            }
            _ => {}
        }
    }
    let mut sw = Switch::default();
    let platform = plat.map(|p| {
        let how = match &named {
            Some(n) if *n == p.name => {
                format!("the configuration's header says it was written for `{n}`")
            }
            Some(n) => format!("`show running-config` names the system `{n}`"),
            None => String::new(),
        };
        (p.name.clone(), how)
    });
    let wd = watchdog(&g, notes);
    // The PFC priority (CoS) of each traffic class a lossless CoS maps to.
    let cos_tc = |c: u8| {
        g.cos
            .get(&c)
            .map_or(crate::render::eos::default_cos_tc(c), |x| x.0)
    };
    let mut dscp: BTreeMap<u8, u8> = BTreeMap::new();
    let mut dscp_at: BTreeMap<u8, Ev> = BTreeMap::new();
    for d in 0u8..64 {
        match g.dscp.get(&d) {
            Some(&(tc, at)) => {
                dscp.insert(d, tc);
                dscp_at.insert(d, at);
            }
            None => {
                dscp.insert(d, default_dscp_tc(d));
            }
        }
    }
    let dscp_first = g.dscp.values().map(|x| x.1).min_by_key(|e| e.at.start);
    let mut tc_queue = [0u8; 8];
    for (tc, q) in tc_queue.iter_mut().enumerate() {
        let tc = u8::try_from(tc).unwrap_or(0);
        *q = g.tc_queue.get(&tc).map_or(tc, |x| x.0);
    }
    let tcq_at = g.tc_queue.values().map(|x| x.1).min_by_key(|e| e.at.start);
    let mmu = g
        .mmu_applied
        .as_ref()
        .and_then(|n| g.mmu.get(n))
        .or_else(|| g.mmu.values().next());
    for (name, i) in &ifaces {
        let at = i.at.unwrap_or(Ev {
            file,
            at: Loc::default(),
        });
        let bound = match &i.profile {
            Some((p, pat)) => match profiles.get(p) {
                Some(x) => Some(x.clone()),
                None => {
                    notes.push(Note::new(
                        NoteKind::CannotCarry,
                        *pat,
                        format!("`{name}` binds `service-profile {p}`, which the running-config does not define; the port is taken to have no QoS profile"),
                    ));
                    None
                }
            },
            None => None,
        };
        let prof = merge(bound, &i.own);
        let mut port = Port {
            speed_mbps: i.speed.map(|s| s.0),
            lanes: i.speed.and_then(|s| s.1),
            mtu: i.mtu,
            at,
            ..Port::default()
        };
        port.dscp = Some((dscp.clone(), dscp_first.unwrap_or(at)));
        port.dscp_at = dscp_at.clone();
        let on = prof.pfc_mode.is_none_or(|m| m.0);
        let set: BTreeSet<u8> = if on {
            prof.pfc.keys().copied().collect()
        } else {
            BTreeSet::new()
        };
        let pfc_at = prof
            .pfc
            .values()
            .next()
            .copied()
            .or(prof.pfc_mode.map(|m| m.1))
            .or(prof.at)
            .unwrap_or(at);
        let mut tc_pg = [0u8; 8];
        for (tc, pg) in tc_pg.iter_mut().enumerate() {
            *pg = u8::try_from(tc).unwrap_or(0);
        }
        for &p in &set {
            let tc = cos_tc(p);
            if let Some(x) = tc_pg.get_mut(usize::from(tc)) {
                *x = p;
            }
        }
        if !set.is_empty() {
            let cos_at = set
                .iter()
                .find_map(|p| g.cos.get(p).map(|x| x.1))
                .unwrap_or(pfc_at);
            port.tc_pg = Some((tc_pg, cos_at));
        }
        port.pfc = Some((set.clone(), pfc_at));
        port.tc_queue = Some((tc_queue, tcq_at.unwrap_or(at)));
        for (&q, x) in &prof.queues {
            if let Some(e) = x.strict {
                port.sched.insert(q, (Sched::Strict, e));
            } else if let Some((w, e)) = x.weight {
                port.sched.insert(q, (Sched::Weight(w), e));
            }
            if let Some((w, e)) = x.ecn {
                port.wred.insert(q, (w, e));
            }
            if let (Some((pct, e)), Some(sp)) = (x.shape_percent, port.speed_mbps) {
                // `shape rate N percent` as the byte rate it is of this port (the view reads
                // it back as the same whole percent).
                let pir = sp.saturating_mul(1_000_000) / 8 * pct / 100;
                port.shaper.insert(
                    q,
                    (
                        Shaper {
                            pir,
                            cir: None,
                            bytes: true,
                        },
                        e,
                    ),
                );
            }
        }
        if !set.is_empty()
            && let Some(e) = prof.watchdog
        {
            port.watchdog = wd.map(|w| (w, e));
        }
        if let Some(m) = mmu {
            for &p in &set {
                if let Some(&(l, e)) = m.get(&p) {
                    port.pg.insert(
                        p,
                        super::deployed::PgProfile {
                            name: "mmu".into(),
                            xoff: None,
                            size: None,
                            threshold: Some(super::deployed::Threshold::Dynamic(l)),
                            at: e,
                            xoff_at: e,
                        },
                    );
                }
            }
        }
        sw.ports.insert(name.clone(), port);
    }
    sw.platform = platform.as_ref().map(|p| p.0.clone());
    sw.hash = hash;
    sw.vendor = Some(Vendor {
        os: Os::Eos,
        release,
        platform,
        platform_at: header_at,
        no_cables: true,
    });
    sw
}

/// The bound profile with the interface's own lines over it.
fn merge(bound: Option<Profile>, own: &Profile) -> Profile {
    let mut p = bound.unwrap_or_default();
    if !own.pfc.is_empty() {
        p.pfc = own.pfc.clone();
    }
    if own.pfc_mode.is_some() {
        p.pfc_mode = own.pfc_mode;
    }
    if own.watchdog.is_some() {
        p.watchdog = own.watchdog;
    }
    for (q, x) in &own.queues {
        let e = p.queues.entry(*q).or_default();
        if x.strict.is_some() || x.weight.is_some() {
            e.strict = x.strict;
            e.weight = x.weight;
        }
        if x.shape_percent.is_some() {
            e.shape_percent = x.shape_percent;
        }
        if x.ecn.is_some() {
            e.ecn = x.ecn;
        }
    }
    if p.at.is_none() {
        p.at = own.at;
    }
    p
}

/// `1/8` → -3, `2` → 1: EOS's MMU threshold α as log2 (`render::eos::mmu_threshold`).
fn log2_alpha(s: &str) -> Option<i64> {
    let (num, den) = s.split_once('/').unwrap_or((s, "1"));
    let (n, d): (u32, u32) = (num.parse().ok()?, den.parse().ok()?);
    match (n, d) {
        (n, 1) if n.is_power_of_two() => Some(i64::from(n.trailing_zeros())),
        (1, d) if d.is_power_of_two() => Some(-i64::from(d.trailing_zeros())),
        _ => None,
    }
}

/// A top-level setting.
fn global(g: &mut Global, k: &str, v: &str, at: Ev, notes: &mut Vec<Note>) {
    let n8 = |s: &str| s.parse::<u8>().ok();
    if let Some(d) = k.strip_prefix("qos map dscp ") {
        if let (Some(d), Some(tc)) = (n8(d), v.strip_prefix("to traffic-class ").and_then(n8))
            && d < 64
            && tc < 8
        {
            g.dscp.insert(d, (tc, at));
        }
        return;
    }
    let parts: Vec<&str> = v.split(' ').collect();
    match (k, parts.as_slice()) {
        ("qos map cos", [c, "to", "traffic-class", t]) => {
            if let (Some(c), Some(t)) = (n8(c), n8(t))
                && c < 8
                && t < 8
            {
                g.cos.insert(c, (t, at));
            }
        }
        ("qos map traffic-class", [t, "to", "tx-queue", q]) => {
            if let (Some(t), Some(q)) = (n8(t), n8(q))
                && t < 8
                && q < 8
            {
                g.tc_queue.insert(t, (q, at));
            }
        }
        ("priority-flow-control pause watchdog default timeout", [s]) => {
            g.timeout = seconds_ms(s).map(|m| (m, at));
        }
        ("priority-flow-control pause watchdog default recovery-time", [s]) => {
            g.recovery = seconds_ms(s).map(|m| (m, at));
        }
        ("priority-flow-control pause watchdog default polling-interval", [s]) => {
            g.polling = seconds_ms(s).map(|m| (m, at));
        }
        ("priority-flow-control pause watchdog action", [a]) => {
            g.action = match *a {
                "drop" => Some(("drop", at)),
                "notify-only" => Some(("alert", at)),
                other => {
                    notes.push(Note::new(
                        NoteKind::CannotCarry,
                        at,
                        format!("the PFC watchdog action `{other}` has no `.fab` word (`drop` is `action drop`, `notify-only` is `action alert`); the watchdog is taken to drop"),
                    ));
                    Some(("drop", at))
                }
            };
        }
        _ => {
            if k.starts_with("platform trident mmu queue profile") {
                // `platform trident mmu queue profile P apply` (a one-line setting).
                let rest = format!("{k} {v}");
                if let Some(n) = rest
                    .strip_prefix("platform trident mmu queue profile ")
                    .and_then(|r| r.strip_suffix(" apply"))
                {
                    g.mmu_applied = Some(n.to_string());
                }
            }
        }
    }
}

/// One line of a `qos profile` (or an interface's QoS lines): `rest` is the path below the
/// profile.
fn profile_line(p: &mut Profile, rest: &[&str], at: Ev, cell: Option<u64>, notes: &mut Vec<Note>) {
    if p.at.is_none_or(|a| at.at.start < a.at.start) {
        p.at = Some(at);
    }
    match rest {
        ["priority-flow-control priority", v] => {
            if let Some((n, "no-drop")) = v.split_once(' ')
                && let Ok(n) = n.parse::<u8>()
                && n < 8
            {
                p.pfc.insert(n, at);
            }
        }
        [
            k @ ("priority-flow-control on" | "priority-flow-control off"),
            "",
        ] => {
            p.pfc_mode = Some((k.ends_with(" on"), at));
        }
        ["priority-flow-control pause", "watchdog"] => p.watchdog = Some(at),
        [q, line @ ..] if q.starts_with("tx-queue ") || q.starts_with("uc-tx-queue ") => {
            let Some(n) = q
                .split(' ')
                .nth(1)
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|&n| n < 8)
            else {
                return;
            };
            let e = p.queues.entry(n).or_default();
            match line {
                ["priority strict", ""] => e.strict = Some(at),
                ["bandwidth percent", v] => e.weight = v.parse().ok().map(|w| (w, at)),
                ["shape rate", v] => {
                    if let Some(pct) = v.strip_suffix(" percent").and_then(|x| x.parse().ok()) {
                        e.shape_percent = Some((pct, at));
                    } else {
                        notes.push(Note::new(
                            NoteKind::CannotCarry,
                            at,
                            format!("`shape rate {v}` on {q} is not a percent of the port; the `.fab` states a rate cap only as `rate N%`, so the cap is left out"),
                        ));
                    }
                }
                ["random-detect ecn minimum-threshold", v] => {
                    let Some((min, umin, max, umax, prob)) = ecn_args(v) else {
                        notes.push(Note::new(
                            NoteKind::Unreadable,
                            at,
                            format!("`random-detect ecn minimum-threshold {v}` is not `N UNIT maximum-threshold N UNIT …`; the queue's ECN is not imported"),
                        ));
                        return;
                    };
                    match (
                        threshold_bytes(&min, &umin, cell),
                        threshold_bytes(&max, &umax, cell),
                    ) {
                        (Ok(lo), Ok(hi)) => {
                            for u in [&umin, &umax] {
                                if matches!(u.as_str(), "kbytes" | "mbytes") {
                                    notes.push(Note::new(
                                        NoteKind::Inferred,
                                        at,
                                        format!("ECN thresholds in `{u}` are taken as {} B each: the EOS User Manual names the unit without a base", if u == "kbytes" { EOS_KBYTE } else { EOS_KBYTE * EOS_KBYTE }),
                                    ).help("write the thresholds in `bytes` on the switch to remove the doubt"));
                                    break;
                                }
                            }
                            e.ecn = Some((
                                Wred {
                                    min: lo,
                                    max: hi,
                                    probability: prob,
                                    ecn: true,
                                    fill: None,
                                },
                                at,
                            ));
                        }
                        (Err(m), _) | (_, Err(m)) => notes.push(Note::new(
                            NoteKind::CannotCarry,
                            at,
                            format!("the ECN thresholds of {q} cannot be read as bytes: {m}; the queue's ECN is not imported"),
                        )),
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// The global watchdog timers as the `.fab`'s watchdog (needs timeout and recovery).
fn watchdog(g: &Global, notes: &mut Vec<Note>) -> Option<Watchdog> {
    let (Some((t, _)), Some((r, _))) = (g.timeout, g.recovery) else {
        if let Some((_, at)) = g.timeout.or(g.recovery).or(g.polling) {
            notes.push(Note::new(
                NoteKind::CannotCarry,
                at,
                "the PFC watchdog's `default timeout` and `default recovery-time` are not both set; EOS's own defaults are not imported, so ports with the watchdog on are taken to have none",
            ));
        }
        return None;
    };
    Some(Watchdog {
        detect_ms: t,
        restore_ms: r,
        action: g.action.map_or("drop", |a| a.0),
        poll_ms: g.polling.map(|p| p.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::cli::{Dialect, canon};

    const CFG: &str = "! Command: show running-config\n! device: leaf1 (DCS-7060X6-64PE, EOS-4.35.0F)\n!\nqos profile P\n   qos trust dscp\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n   priority-flow-control pause watchdog\n   !\n   uc-tx-queue 3\n      no priority\n      bandwidth percent 50\n      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500000 bytes max-mark-probability 100 weight 0\n   uc-tx-queue 6\n      priority strict\n!\ninterface Ethernet1/1\n   mtu 9214\n   speed 400g-4\n   service-profile P\ninterface Ethernet1/5\n   mtu 9214\n   speed 400g-4\n   service-profile P\n   priority-flow-control priority 4 no-drop\nqos map dscp 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\npriority-flow-control pause watchdog default timeout 0.2\npriority-flow-control pause watchdog default recovery-time 0.4\npriority-flow-control pause watchdog default polling-interval 0.1\npriority-flow-control pause watchdog action drop\n";

    #[test]
    fn reads_profiles_maps_and_ports() {
        let c = canon(CFG, Dialect::Eos);
        let mut notes = Vec::new();
        let sw = read(CFG, &c, 0, &mut notes);
        let v = sw.vendor.as_ref().unwrap();
        assert_eq!(v.release.as_deref(), Some("4.35"));
        assert_eq!(v.platform.as_ref().unwrap().0, "arista-7060x6-64pe");
        let a = &sw.ports["Ethernet1/1"];
        assert_eq!(a.speed_mbps, Some(400_000));
        assert_eq!(a.lanes, Some(4));
        assert_eq!(a.dscp.as_ref().unwrap().0[&26], 3);
        assert_eq!(a.dscp.as_ref().unwrap().0[&0], 1);
        assert_eq!(a.pfc.as_ref().unwrap().0, BTreeSet::from([3]));
        assert_eq!(a.sched[&3].0, Sched::Weight(50));
        assert_eq!(a.sched[&6].0, Sched::Strict);
        assert_eq!(a.wred[&3].0.min, 150_000);
        assert_eq!(a.wred[&3].0.max, 1_500_000);
        assert_eq!(a.watchdog.unwrap().0.detect_ms, 200);
        assert_eq!(a.watchdog.unwrap().0.restore_ms, 400);
        assert_eq!(a.watchdog.unwrap().0.poll_ms, Some(100));
        // The interface's own line wins over its profile's: a per-port difference stays.
        let b = &sw.ports["Ethernet1/5"];
        assert_eq!(b.pfc.as_ref().unwrap().0, BTreeSet::from([4]));
        let at = a.wred[&3].1.at;
        assert!(CFG[at.start as usize..at.end as usize].starts_with("random-detect ecn"));
        // `kbytes` is an inference, said once.
        assert_eq!(
            notes
                .iter()
                .filter(|n| n.kind == NoteKind::Inferred)
                .count(),
            1
        );
    }

    #[test]
    fn units_and_timers() {
        assert_eq!(threshold_bytes("2000", "segments", Some(254)), Ok(508_000));
        assert!(threshold_bytes("2000", "segments", None).is_err());
        assert!(threshold_bytes("2", "milliseconds", None).is_err());
        assert_eq!(threshold_bytes("3", "mbytes", None), Ok(3_000_000));
        assert_eq!(seconds_ms("0.2"), Some(200));
        assert_eq!(seconds_ms("1"), Some(1000));
        assert_eq!(seconds_ms("0.05"), Some(50));
        assert_eq!(speed_of("100g"), Some((100_000, None)));
        assert_eq!(speed_of("forced 100gfull"), Some((100_000, None)));
        assert_eq!(log2_alpha("1/8"), Some(-3));
        assert_eq!(log2_alpha("2"), Some(1));
        assert_eq!(default_dscp_tc(5), 1);
        assert_eq!(default_dscp_tc(9), 0);
        assert_eq!(default_dscp_tc(26), 3);
    }
}
