//! A Juniper Junos (QFX) switch as deployed, from `show configuration` (curly) or `show
//! configuration | display set` (`config` in the device's folder, the file `fabricc verify`
//! reads), read with the same reader as `verify` (`verify::junos::canon`: both forms as the
//! words of `set` statements, lists one item per path, applied groups lifted out, inactive
//! statements left out).
//!
//! What the statements mean (Juniper, "Class of Service User Guide (Switches)" and the QFX
//! `class-of-service` configuration statement reference; the statement names as Juniper's YANG
//! models give them, github.com/Juniper/yang 24.2R1.17 `junos-conf-class-of-service`):
//! * `class-of-service forwarding-classes class C queue-num Q [no-loss] [pfc-priority P]`:
//!   class C is egress queue Q (its traffic class); `no-loss` with `pfc-priority P` makes it
//!   lossless on PFC priority P.
//! * `classifiers dscp K forwarding-class C loss-priority … code-points B`: DSCP `B` (6-bit
//!   binary) → class C, on the ports whose `class-of-service interfaces <port> unit *
//!   classifiers dscp K` names the classifier (a port without one keeps Junos's default
//!   classifier: every DSCP best effort, queue 0).
//! * `congestion-notification-profile N`: `input cable-length M` (metres; Junos sizes the
//!   port's PFC headroom from it), `input dscp code-point B pfc`, `output ieee-802.1
//!   code-point P flow-control-queue Q` (priority P pauses queue Q: the port's lossless
//!   priorities), `pfc-watchdog poll-interval T detection N recovery R watchdog-action A`
//!   (detect = N × T ms); bound per port with `class-of-service interfaces <port>
//!   congestion-notification-profile N`. A port with no profile runs no PFC.
//! * `scheduler-maps M forwarding-class C scheduler S` (bound per port with `scheduler-map
//!   M`), `schedulers S`: `priority strict-high` → strict; `transmit-rate percent N` → the ETS
//!   share; `shaping-rate percent N` → the class's `rate N%` cap; `drop-profile-map … drop-profile
//!   D` with `explicit-congestion-notification` → ECN marking with drop profile D.
//! * `drop-profiles D interpolate fill-level [ a b ] drop-probability [ 0 P ]`: ECN marks from
//!   a % to b % fill of the buffer one queue may hold, up to P %.
//! * `interfaces <port> mtu N`; `interfaces et-0/0/C number-of-sub-ports K speed 400g`: a
//!   broken-out cage (its sub-ports `et-0/0/C:k` at that speed).
//!
//! Fill levels stay fill levels (issue 34 item 1): `fill-level [ 55 90 ]` is imported as `ecn
//! min 55%  max 90%`, which `check` turns into bytes of the switch's own platform exactly as
//! the renderer does, and a build writes the same levels back. Only a level the `.fab` cannot
//! state (`fill-level 0`) is turned into bytes, with the SAME function and base the renderer
//! converts with (`lower::vocab::junos_fill_bytes`, what one queue may hold, α/(1+α) of its
//! egress partition, `BufferPlan::lossless_queue_buffer_bytes` and `junos_lossy_queue_bytes`):
//! the base fabricc's file states in its header comment (`… 73514000 B for a lossless queue,
//! 9086000 B for a lossy one.`, FAB966); without one, that queue's ECN is not imported and a
//! FAB965 says so. The read-back of a build passes the build's own base
//! ([`read_with_base`]) and compares bytes: a byte threshold comes back as its whole-percent
//! level's bytes (`ecn min 150KB` written as `fill-level 1` of 73,514,000 B comes back as
//! 735,140 B), the difference the target cannot avoid.
//!
//! The configuration names no platform and no release: the model has no buffer or cell
//! (FAB965, add `platform` by hand). Unlike EOS and NX-OS, Junos holds each lossless port's
//! cable (`input cable-length`), so those links keep their cables.

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{Ev, Note, NoteKind, Port, Sched, Shaper, Switch, Vendor, Watchdog, Wred};
use crate::lower::vocab::junos_fill_bytes;
use crate::syntax::ast::Os;
use crate::verify::canon::{Canon, Loc, key_of};

/// The bytes fill levels are percent of: what one lossless / lossy queue may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FillBase {
    pub lossless: u64,
    pub lossy: u64,
}

#[derive(Debug, Default, Clone)]
struct Class {
    queue: Option<(u8, Ev)>,
    no_loss: bool,
    pfc_priority: Option<u8>,
}

#[derive(Debug, Default, Clone)]
struct Scheduler {
    strict: Option<Ev>,
    transmit: Option<(u64, Ev)>,
    shaping: Option<(u64, Ev)>,
    drop_profile: Option<(String, Ev)>,
    ecn: bool,
}

#[derive(Debug, Default, Clone)]
struct DropProfile {
    fill: Vec<(u64, Ev)>,
    probability: Vec<u64>,
}

#[derive(Debug, Default, Clone)]
struct CnProfile {
    cable_m: Option<(u64, Ev)>,
    /// Priority → queue, where.
    output: BTreeMap<u8, (u8, Ev)>,
    poll: Option<u64>,
    detection: Option<u64>,
    recovery: Option<u64>,
    action: Option<&'static str>,
    watchdog_at: Option<Ev>,
}

#[derive(Debug, Default)]
struct Iface {
    at: Option<Ev>,
    mtu: Option<(u64, Ev)>,
    sub_ports: Option<u32>,
    speed: Option<u64>,
    classifier: Option<(String, Ev)>,
    cn_profile: Option<(String, Ev)>,
    scheduler_map: Option<(String, Ev)>,
}

#[derive(Debug, Default)]
struct Config {
    classes: BTreeMap<String, Class>,
    /// classifier → DSCP → (class, where).
    classifiers: BTreeMap<String, BTreeMap<u8, (String, Ev)>>,
    schedulers: BTreeMap<String, Scheduler>,
    maps: BTreeMap<String, BTreeMap<String, String>>,
    drop_profiles: BTreeMap<String, DropProfile>,
    cn: BTreeMap<String, CnProfile>,
    ifaces: BTreeMap<String, Iface>,
    release: Option<String>,
    /// `shared-buffer egress buffer-partition lossless percent N`.
    egress_lossless_percent: Option<u64>,
    /// `forwarding-options enhanced-hash-key inet|inet6 no-…` statements, and where the first
    /// is (issue 34 item 3).
    hash_inet: BTreeSet<String>,
    hash_inet6: BTreeSet<String>,
    hash_at: Option<Ev>,
}

/// `011010` → 26.
fn bits(s: &str, width: usize) -> Option<u8> {
    (s.len() == width && s.bytes().all(|b| b == b'0' || b == b'1'))
        .then(|| u8::from_str_radix(s, 2).ok())
        .flatten()
}

/// `400g` → 400,000 Mb/s.
fn speed_mbps(s: &str) -> Option<u64> {
    s.strip_suffix(['g', 'G'])?
        .parse::<u64>()
        .ok()?
        .checked_mul(1000)
}

/// The ETS weights (summing to 100) that the renderer scaled to `room` percent to give
/// `written` (`render::junos::scale_weights`, what the strict schedulers' transmit rates
/// leave). Scaling loses information (`[50, 50]` and `[51, 49]` both become `[48, 47]` of 95),
/// so among the weights that give `written`, the roundest (most multiples of 10, then of 5)
/// are taken; `None` when no weights within one percent of the proportional ones give it.
pub fn unscale_weights(written: &[u8], room: u8) -> Option<Vec<u8>> {
    if room == 0 || room >= 100 || written.len() > 8 {
        return None;
    }
    let options: Vec<Vec<u8>> = written
        .iter()
        .map(|&w| {
            if w == 0 {
                return vec![0];
            }
            let exact = u32::from(w) * 100;
            let lo = (exact / u32::from(room)).saturating_sub(1).max(1);
            let hi = exact.div_ceil(u32::from(room)) + 1;
            (lo..=hi.min(100))
                .filter_map(|x| u8::try_from(x).ok())
                .collect()
        })
        .collect();
    let score = |v: &[u8]| {
        (
            v.iter().filter(|&&x| x % 10 == 0).count(),
            v.iter().filter(|&&x| x % 5 == 0).count(),
        )
    };
    let mut best: Option<Vec<u8>> = None;
    let mut pick = vec![0u8; written.len()];
    fn walk(i: usize, sum: u32, options: &[Vec<u8>], pick: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
        if i == options.len() {
            if sum == 100 {
                f(pick);
            }
            return;
        }
        for &x in &options[i] {
            if sum + u32::from(x) > 100 {
                break;
            }
            pick[i] = x;
            walk(i + 1, sum + u32::from(x), options, pick, f);
        }
    }
    walk(0, 0, &options, &mut pick, &mut |v: &[u8]| {
        if crate::render::junos::scale_weights(v, room) == written
            && best.as_ref().is_none_or(|b| score(v) > score(b))
        {
            best = Some(v.to_vec());
        }
    });
    best
}

/// `percent N` → N.
fn percent(rest: &[&str]) -> Option<u64> {
    match rest {
        ["percent", n, ..] => n.parse().ok(),
        _ => None,
    }
}

impl Config {
    fn read(canon: &Canon, file: usize) -> Config {
        let ev = |at: Loc| Ev { file, at };
        let mut c = Config::default();
        for path in canon.path_vecs() {
            let at = ev(canon.get(&key_of(&path)).unwrap_or_default());
            let w: Vec<&str> = path.iter().map(String::as_str).collect();
            match w.as_slice() {
                ["version", v] => {
                    // `23.4R1.9` → `23.4`.
                    let r: String = v
                        .chars()
                        .take_while(|ch| ch.is_ascii_digit() || *ch == '.')
                        .collect();
                    if !r.is_empty() {
                        c.release = Some(r.trim_end_matches('.').to_string());
                    }
                }
                [
                    "class-of-service",
                    "shared-buffer",
                    "egress",
                    "buffer-partition",
                    "lossless",
                    "percent",
                    n,
                ] => c.egress_lossless_percent = n.parse().ok(),
                [
                    "forwarding-options",
                    "enhanced-hash-key",
                    family @ ("inet" | "inet6"),
                    statement,
                ] => {
                    if *family == "inet" {
                        c.hash_inet.insert((*statement).to_string());
                    } else {
                        c.hash_inet6.insert((*statement).to_string());
                    }
                    if c.hash_at.is_none_or(|a| at.at.start < a.at.start) {
                        c.hash_at = Some(at);
                    }
                }
                ["interfaces", port, rest @ ..] => {
                    let i = c.ifaces.entry((*port).to_string()).or_default();
                    if i.at.is_none_or(|a| at.at.start < a.at.start) {
                        i.at = Some(at);
                    }
                    match rest {
                        ["mtu", m] => i.mtu = m.parse().ok().map(|m| (m, at)),
                        ["number-of-sub-ports", n] => i.sub_ports = n.parse().ok(),
                        ["speed", s] => i.speed = speed_mbps(s),
                        _ => {}
                    }
                }
                [
                    "class-of-service",
                    "forwarding-classes",
                    "class",
                    name,
                    rest @ ..,
                ] => {
                    let k = c.classes.entry((*name).to_string()).or_default();
                    let mut j = 0;
                    while j < rest.len() {
                        match rest[j] {
                            "queue-num" => {
                                if let Some(q) = rest
                                    .get(j + 1)
                                    .and_then(|q| q.parse::<u8>().ok())
                                    .filter(|&q| q < 8)
                                {
                                    k.queue = Some((q, at));
                                }
                                j += 1;
                            }
                            "pfc-priority" => {
                                k.pfc_priority = rest
                                    .get(j + 1)
                                    .and_then(|p| p.parse::<u8>().ok())
                                    .filter(|&p| p < 8);
                                j += 1;
                            }
                            "no-loss" => k.no_loss = true,
                            _ => {}
                        }
                        j += 1;
                    }
                }
                [
                    "class-of-service",
                    "classifiers",
                    "dscp",
                    name,
                    "forwarding-class",
                    class,
                    rest @ ..,
                ] => {
                    if let Some(d) = rest.last().and_then(|b| bits(b, 6))
                        && rest.contains(&"code-points")
                    {
                        c.classifiers
                            .entry((*name).to_string())
                            .or_default()
                            .insert(d, ((*class).to_string(), at));
                    }
                }
                ["class-of-service", "schedulers", name, rest @ ..] => {
                    let s = c.schedulers.entry((*name).to_string()).or_default();
                    match rest {
                        ["priority", "strict-high"] => s.strict = Some(at),
                        ["transmit-rate", r @ ..] => s.transmit = percent(r).map(|p| (p, at)),
                        ["shaping-rate", r @ ..] => s.shaping = percent(r).map(|p| (p, at)),
                        ["explicit-congestion-notification"] => s.ecn = true,
                        ["drop-profile-map", .., "drop-profile", d] => {
                            s.drop_profile = Some(((*d).to_string(), at));
                        }
                        _ => {}
                    }
                }
                [
                    "class-of-service",
                    "scheduler-maps",
                    map,
                    "forwarding-class",
                    class,
                    "scheduler",
                    s,
                ] => {
                    c.maps
                        .entry((*map).to_string())
                        .or_default()
                        .insert((*class).to_string(), (*s).to_string());
                }
                [
                    "class-of-service",
                    "drop-profiles",
                    name,
                    "interpolate",
                    kind,
                    v,
                ] => {
                    let d = c.drop_profiles.entry((*name).to_string()).or_default();
                    if let Ok(n) = v.parse::<u64>() {
                        match *kind {
                            "fill-level" => d.fill.push((n, at)),
                            "drop-probability" => d.probability.push(n),
                            _ => {}
                        }
                    }
                }
                [
                    "class-of-service",
                    "congestion-notification-profile",
                    name,
                    rest @ ..,
                ] => {
                    let p = c.cn.entry((*name).to_string()).or_default();
                    match rest {
                        ["input", "cable-length", m] => {
                            p.cable_m = m.parse().ok().map(|m| (m, at));
                        }
                        [
                            "output",
                            "ieee-802.1",
                            "code-point",
                            cp,
                            "flow-control-queue",
                            q,
                        ] => {
                            if let (Some(pr), Some(q)) =
                                (bits(cp, 3), q.parse::<u8>().ok().filter(|&q| q < 8))
                            {
                                p.output.insert(pr, (q, at));
                            }
                        }
                        ["pfc-watchdog", k, v] => {
                            p.watchdog_at.get_or_insert(at);
                            match *k {
                                "poll-interval" => p.poll = v.parse().ok(),
                                "detection" => p.detection = v.parse().ok(),
                                "recovery" => p.recovery = v.parse().ok(),
                                "watchdog-action" => {
                                    p.action = match *v {
                                        "drop" => Some("drop"),
                                        "forward" => Some("forward"),
                                        _ => None,
                                    };
                                }
                                _ => {}
                            }
                        }
                        ["pfc-watchdog"] => {
                            p.watchdog_at.get_or_insert(at);
                        }
                        _ => {}
                    }
                }
                ["class-of-service", "interfaces", port, rest @ ..] => {
                    let i = c.ifaces.entry((*port).to_string()).or_default();
                    match rest {
                        ["congestion-notification-profile", n] => {
                            i.cn_profile = Some(((*n).to_string(), at));
                        }
                        ["scheduler-map", m] => i.scheduler_map = Some(((*m).to_string(), at)),
                        ["unit", _, "classifiers", "dscp", k] => {
                            i.classifier = Some(((*k).to_string(), at));
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        c
    }
}

/// The ETS transmit rates of a port back to the weights the `.fab` states: the strict
/// schedulers' transmit rates (Juniper's DCQCN configlet's 5 % for CNP, a class's `rate`) took
/// their room from the ETS classes.
fn unscale_port(port: &mut Port) {
    let ets: Vec<(u8, u64)> = port
        .sched
        .iter()
        .filter_map(|(&q, (s, _))| match s {
            Sched::Weight(w) => Some((q, *w)),
            Sched::Strict => None,
        })
        .collect();
    let total: u64 = ets.iter().map(|x| x.1).sum();
    if ets.is_empty() || total >= 100 || total == 0 {
        return;
    }
    let written: Vec<u8> = ets
        .iter()
        .map(|x| u8::try_from(x.1).unwrap_or(100))
        .collect();
    let room = u8::try_from(total).unwrap_or(100);
    if let Some(w) = unscale_weights(&written, room) {
        for ((q, _), w) in ets.iter().zip(w) {
            if let Some(x) = port.sched.get_mut(q) {
                x.0 = Sched::Weight(u64::from(w));
            }
        }
    }
}

/// The fill-level base fabricc's file states in its header comment: `… 73514000 B for a
/// lossless queue, 9086000 B for a lossy one.` (the comment's lines joined).
pub fn stated_fill_base(text: &str) -> Option<FillBase> {
    let head = text.get(..text.find("*/")?)?;
    let flat: String = head
        .lines()
        .map(|l| l.trim_start().trim_start_matches('*').trim())
        .collect::<Vec<_>>()
        .join(" ");
    let number_before = |needle: &str| -> Option<u64> {
        let at = flat.find(needle)?;
        flat[..at].rsplit(' ').next()?.parse().ok()
    };
    Some(FillBase {
        lossless: number_before(" B for a lossless queue")?,
        lossy: number_before(" B for a lossy one")?,
    })
}

/// The share of its egress partition one queue may hold, in percent, as fabricc's header
/// states it (`… may hold: 50 % of its egress partition …`).
fn stated_share_percent(text: &str) -> Option<u64> {
    let head = text.get(..text.find("*/")?)?;
    let at = head.find(" % of its egress")?;
    head[..at].rsplit(' ').next()?.parse().ok()
}

/// The one catalogue Junos platform whose buffer the stated queue size gives: what one lossless
/// queue may hold over its share of the egress lossless partition, over that partition's
/// percent of the buffer, within 2 % (the percents are whole).
fn infer_platform(text: &str, egress_percent: Option<u64>) -> Option<(String, String)> {
    let base = stated_fill_base(text)?;
    let share = stated_share_percent(text).filter(|&s| s > 0)?;
    let part = egress_percent.filter(|&p| p > 0)?;
    let buffer = u128::from(base.lossless) * 100 * 100 / u128::from(share) / u128::from(part);
    let fits: Vec<&crate::catalogue::platform::Platform> = crate::catalogue::catalogue()
        .switches
        .iter()
        .filter(|p| p.os.iter().any(|o| o.os == "junos"))
        .filter(|p| {
            p.buffer.total.as_ref().is_some_and(|t| {
                let t = u128::from(t.bytes);
                t > 0 && buffer.abs_diff(t) * 50 <= t
            })
        })
        .collect();
    match fits.as_slice() {
        [p] => Some((
            p.name.clone(),
            format!(
                "its ECN fill levels' base ({} B one lossless queue may hold, {share} % of the egress lossless partition of {part} %) gives a {buffer} B buffer, and it is the only catalogue Junos platform with that buffer (within 2 %)",
                base.lossless
            ),
        )),
        _ => None,
    }
}

/// Reads a Junos configuration for import: fill levels stay fill levels (`ecn min 55% max
/// 90%`, issue 34 item 1); the base its header states turns into bytes only a level the
/// `.fab` cannot state (0 %), and gives the catalogue platform, where one fits.
pub fn read(text: &str, canon: &Canon, file: usize, notes: &mut Vec<Note>) -> Switch {
    let base = stated_fill_base(text);
    let at = Ev {
        file,
        at: Loc::default(),
    };
    let (mut sw, used_base) = read_levels(canon, file, notes, base);
    if used_base {
        notes.push(Note::new(
            NoteKind::Inferred,
            at,
            "ECN fill levels the `.fab` cannot state as a percentage are turned into bytes with the queue sizes fabricc's header comment states (what one lossless and one lossy queue may hold)",
        ));
    }
    // The `.fab` states the levels and `check` makes each switch's bytes of its own platform:
    // two switches stating the same levels run the same ECN, whatever their buffers.
    for p in sw.ports.values_mut() {
        for (w, _) in p.wred.values_mut() {
            if w.fill.is_some() {
                (w.min, w.max) = (0, 0);
            }
        }
    }
    let egress = Config::read(canon, file).egress_lossless_percent;
    if let Some(p) = infer_platform(text, egress)
        && let Some(v) = sw.vendor.as_mut()
    {
        sw.platform = Some(p.0.clone());
        v.platform = Some(p);
        v.platform_at = Some(at);
    }
    sw
}

/// Reads a Junos configuration; fill levels are percent of `base` (the read-back of a build
/// passes the build's own) and are kept as they are stated too (`Wred::fill`).
pub fn read_with_base(
    canon: &Canon,
    file: usize,
    notes: &mut Vec<Note>,
    base: Option<FillBase>,
) -> Switch {
    read_levels(canon, file, notes, base).0
}

/// [`read_with_base`], and whether `base` turned a level the `.fab` cannot state into bytes.
fn read_levels(
    canon: &Canon,
    file: usize,
    notes: &mut Vec<Note>,
    base: Option<FillBase>,
) -> (Switch, bool) {
    let c = Config::read(canon, file);
    let mut used_base = false;
    let mut sw = Switch::default();
    let mut no_base_noted = false;
    // Sub-port speeds of broken-out cages.
    let breakout_speed = |name: &str| -> Option<u64> {
        let (cage, _) = name.split_once(':')?;
        let i = c.ifaces.get(cage)?;
        i.sub_ports.and(i.speed)
    };
    for (name, i) in &c.ifaces {
        // A broken-out cage itself carries no traffic: its sub-ports do.
        if i.sub_ports.is_some() {
            continue;
        }
        let at = i.at.unwrap_or(Ev {
            file,
            at: Loc::default(),
        });
        // Junos states a speed for broken-out cages only: an unbroken port runs the model's
        // speed, 400G where nothing says otherwise (as `vendor::VendorKey`).
        let stated = breakout_speed(name).or(i.speed);
        let mut port = Port {
            mtu: i.mtu,
            at,
            speed_mbps: stated.or(Some(400_000)),
            speed_assumed: stated.is_none(),
            ..Port::default()
        };
        // DSCP → traffic class (the forwarding class's queue).
        let queue_of = |class: &str| c.classes.get(class).and_then(|k| k.queue.map(|q| q.0));
        let mut map: BTreeMap<u8, u8> = (0u8..64).map(|d| (d, 0)).collect();
        let mut first: Option<Ev> = None;
        if let Some((k, kat)) = &i.classifier {
            if let Some(cl) = c.classifiers.get(k) {
                for (&d, (class, dat)) in cl {
                    if let Some(q) = queue_of(class) {
                        map.insert(d, q);
                        port.dscp_at.insert(d, *dat);
                        if first.is_none_or(|f| dat.at.start < f.at.start) {
                            first = Some(*dat);
                        }
                    }
                }
            }
            first.get_or_insert(*kat);
        }
        port.dscp = Some((map, first.unwrap_or(at)));
        port.tc_queue = Some(([0, 1, 2, 3, 4, 5, 6, 7], at));
        // PFC: the priorities the port's CN profile pauses; the class that is `no-loss` on
        // that priority gives the traffic class → priority.
        let cn = i
            .cn_profile
            .as_ref()
            .and_then(|(n, e)| c.cn.get(n).map(|p| (p, *e)));
        let mut set = BTreeSet::new();
        let mut tc_pg = [0u8, 1, 2, 3, 4, 5, 6, 7];
        let mut pfc_at = i.cn_profile.as_ref().map_or(at, |x| x.1);
        if let Some((p, _)) = cn {
            for (&prio, &(q, oat)) in &p.output {
                set.insert(prio);
                if let Some(x) = tc_pg.get_mut(usize::from(q)) {
                    *x = prio;
                }
                pfc_at = oat;
            }
            if let Some((m, cat)) = p.cable_m {
                port.cable_mm = Some((m.saturating_mul(1000), cat));
            }
            if !set.is_empty()
                && let Some(wat) = p.watchdog_at
            {
                let poll = p.poll.unwrap_or(100).max(1);
                port.watchdog = Some((
                    Watchdog {
                        detect_ms: poll.saturating_mul(p.detection.unwrap_or(2)),
                        restore_ms: p.recovery.unwrap_or(poll),
                        action: p.action.unwrap_or("drop"),
                        poll_ms: Some(poll),
                    },
                    wat,
                ));
            }
        }
        // A `no-loss` class whose priority the port does not pause is lossy there.
        if !set.is_empty() {
            port.tc_pg = Some((tc_pg, pfc_at));
        }
        port.pfc = Some((set, pfc_at));
        // Schedulers and ECN per queue, through the port's scheduler map.
        if let Some(m) = i.scheduler_map.as_ref().and_then(|(m, _)| c.maps.get(m)) {
            for (class, sname) in m {
                let (Some(q), Some(s)) = (queue_of(class), c.schedulers.get(sname)) else {
                    continue;
                };
                let lossless = c.classes.get(class).is_some_and(|k| k.no_loss);
                if let Some(e) = s.strict {
                    port.sched.insert(q, (Sched::Strict, e));
                } else if let Some((w, e)) = s.transmit {
                    port.sched.insert(q, (Sched::Weight(w), e));
                }
                if let (Some((pct, e)), Some(sp)) = (s.shaping, port.speed_mbps) {
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
                let Some((dname, dat)) = &s.drop_profile else {
                    continue;
                };
                let Some(d) = c.drop_profiles.get(dname) else {
                    continue;
                };
                let (Some(lo), Some(hi)) = (
                    d.fill.iter().min_by_key(|x| x.0),
                    d.fill.iter().max_by_key(|x| x.0),
                ) else {
                    continue;
                };
                // `ecn min lo% max hi%` takes 0 % < lo < hi <= 100 % (grammar/fabric.ebnf).
                let fill = (lo.0 > 0 && lo.0 < hi.0 && hi.0 <= 100).then_some((lo.0, hi.0));
                let (min, max) = match (base, fill) {
                    (Some(b), _) => {
                        let q_bytes = if lossless { b.lossless } else { b.lossy };
                        used_base |= fill.is_none();
                        (
                            junos_fill_bytes(lo.0, q_bytes),
                            junos_fill_bytes(hi.0, q_bytes),
                        )
                    }
                    (None, Some(_)) => (0, 0),
                    (None, None) => {
                        if !no_base_noted {
                            no_base_noted = true;
                            notes.push(Note::new(
                                NoteKind::CannotCarry,
                                lo.1,
                                format!("drop profile `{dname}` gives ECN as fill levels {} % and {} %, which the `.fab` cannot state as `ecn min N% max M%` (0 % < N < M <= 100 %), and the configuration states no queue size to turn them into bytes; the ECN thresholds are not imported", lo.0, hi.0),
                            ).help("add `platform …` to the switch model and `ecn min … max …` to the class by hand"));
                        }
                        continue;
                    }
                };
                let probability = d.probability.iter().copied().max().unwrap_or(100);
                port.wred.insert(
                    q,
                    (
                        Wred {
                            min,
                            max,
                            probability,
                            ecn: s.ecn,
                            fill,
                        },
                        if lo.1.at.start > 0 { lo.1 } else { *dat },
                    ),
                );
            }
        }
        unscale_port(&mut port);
        sw.ports.insert(name.clone(), port);
    }
    (sw.hash, sw.hash_split) = super::hash::junos(&c.hash_inet, &c.hash_inet6, c.hash_at, notes);
    sw.vendor = Some(Vendor {
        os: Os::Junos,
        release: c.release,
        platform: None,
        platform_at: None,
        no_cables: false,
    });
    (sw, used_base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::junos::canon;

    const CFG: &str = "/* fabricc: x\n * ECN fill levels are percent of what one queue may hold: 50 % of its egress\n * partition (dynamic threshold alpha = 1): 73514000 B for a lossless queue,\n * 9086000 B for a lossy one.\n */\ngroups {\n    replace:\n    fabricc {\n        interfaces {\n            et-0/0/0 { mtu 9216; }\n            et-0/0/1 { mtu 9216; }\n        }\n        class-of-service {\n            classifiers { dscp fabricc-dscp { forwarding-class bulk { loss-priority low code-points [ 000000 000001 ]; } forwarding-class roce { loss-priority low code-points [ 011010 ]; } forwarding-class cnp { loss-priority low code-points 110000; } } }\n            drop-profiles { dp-roce { interpolate { fill-level [ 1 2 ]; drop-probability [ 0 100 ]; } } }\n            forwarding-classes { class bulk queue-num 0; class roce queue-num 3 no-loss pfc-priority 3; class cnp queue-num 6; }\n            congestion-notification-profile { cnp-fabricc-3m { pfc-watchdog { poll-interval 100; detection 2; recovery 400; watchdog-action drop; } input { cable-length 3; dscp { code-point 011010 { pfc; } } } output { ieee-802.1 { code-point 011 { flow-control-queue 3; } } } } }\n            interfaces {\n                et-0/0/0 { congestion-notification-profile cnp-fabricc-3m; scheduler-map sm-fabricc; unit * { classifiers { dscp fabricc-dscp; } } }\n                et-0/0/1 { scheduler-map sm-fabricc; unit * { classifiers { dscp fabricc-dscp; } } }\n            }\n            scheduler-maps { sm-fabricc { forwarding-class bulk scheduler s-bulk; forwarding-class roce scheduler s-roce; forwarding-class cnp scheduler s-cnp; } }\n            schedulers { s-bulk { transmit-rate percent 48; } s-roce { transmit-rate percent 47; drop-profile-map loss-priority any protocol any drop-profile dp-roce; explicit-congestion-notification; } s-cnp { transmit-rate percent 5; priority strict-high; shaping-rate percent 10; } }\n        }\n    }\n}\napply-groups fabricc;\n";

    #[test]
    fn reads_classes_pfc_ecn_and_schedulers() {
        let c = canon(CFG).unwrap();
        let mut notes = Vec::new();
        let sw = read(CFG, &c, 0, &mut notes);
        let a = &sw.ports["et-0/0/0"];
        let m = &a.dscp.as_ref().unwrap().0;
        assert_eq!((m[&26], m[&48], m[&0], m[&1], m[&2]), (3, 6, 0, 0, 0));
        assert_eq!(a.pfc.as_ref().unwrap().0, BTreeSet::from([3]));
        assert_eq!(a.tc_pg.unwrap().0[3], 3);
        assert_eq!(a.sched[&6].0, Sched::Strict);
        // 48 % and 47 % of the 95 % the CNP's 5 % leaves: the `.fab`'s 50/50.
        assert_eq!(a.sched[&3].0, Sched::Weight(50));
        assert_eq!(a.sched[&0].0, Sched::Weight(50));
        assert_eq!(a.shaper[&6].0.pir, 400_000_000_000 / 8 / 10);
        // Import keeps the levels (the `.fab` states `ecn min 1% max 2%`).
        let w = a.wred[&3].0;
        assert_eq!((w.fill, w.probability, w.ecn), (Some((1, 2)), 100, true));
        assert_eq!(a.cable_mm.unwrap().0, 3000);
        assert_eq!(
            a.watchdog.unwrap().0,
            Watchdog {
                detect_ms: 200,
                restore_ms: 400,
                action: "drop",
                poll_ms: Some(100)
            }
        );
        assert_eq!(a.mtu.unwrap().0, 9216);
        // No CN profile: no PFC, no cable.
        let b = &sw.ports["et-0/0/1"];
        assert!(b.pfc.as_ref().unwrap().0.is_empty());
        assert!(b.cable_mm.is_none());
        assert!(notes.is_empty(), "{notes:?}");
        // The read-back turns them into bytes of the build's base.
        let sw = read_with_base(&c, 0, &mut notes, stated_fill_base(CFG));
        let w = sw.ports["et-0/0/0"].wred[&3].0;
        assert_eq!((w.min, w.max, w.fill), (735_140, 1_470_280, Some((1, 2))));
    }

    #[test]
    fn set_form_reads_alike_and_levels_need_no_base() {
        let set = "set version 23.4R1.9\nset interfaces et-0/0/0 mtu 9216\nset class-of-service forwarding-classes class roce queue-num 3 no-loss pfc-priority 3\nset class-of-service drop-profiles dp interpolate fill-level [ 20 60 ]\nset class-of-service drop-profiles dp interpolate drop-probability [ 0 100 ]\nset class-of-service schedulers s drop-profile-map loss-priority any protocol any drop-profile dp\nset class-of-service schedulers s explicit-congestion-notification\nset class-of-service scheduler-maps m forwarding-class roce scheduler s\nset class-of-service interfaces et-0/0/0 scheduler-map m\n";
        let c = canon(set).unwrap();
        let mut notes = Vec::new();
        let sw = read(set, &c, 0, &mut notes);
        assert_eq!(sw.vendor.as_ref().unwrap().release.as_deref(), Some("23.4"));
        assert_eq!(sw.ports["et-0/0/0"].wred[&3].0.fill, Some((20, 60)));
        assert!(notes.is_empty(), "{notes:?}");
        // A level the `.fab` cannot state (0 %) and no base: not imported, a note says so.
        let zero = set.replace("fill-level [ 20 60 ]", "fill-level [ 0 60 ]");
        let sw = read(&zero, &canon(&zero).unwrap(), 0, &mut notes);
        assert!(sw.ports["et-0/0/0"].wred.is_empty());
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].kind, NoteKind::CannotCarry);
        let sw = read_with_base(
            &c,
            0,
            &mut Vec::new(),
            Some(FillBase {
                lossless: 1_000_000,
                lossy: 100,
            }),
        );
        let w = sw.ports["et-0/0/0"].wred[&3].0;
        assert_eq!((w.min, w.max), (200_000, 600_000));
    }

    #[test]
    fn unscaled_weights_give_the_written_rates() {
        assert_eq!(unscale_weights(&[48, 47], 95), Some(vec![50, 50]));
        assert_eq!(unscale_weights(&[38, 48, 9], 95), Some(vec![40, 50, 10]));
        for w in [[30u8, 70], [25, 75], [1, 99], [33, 67]] {
            let s = crate::render::junos::scale_weights(&w, 90);
            let back = unscale_weights(&s, 90).unwrap();
            assert_eq!(crate::render::junos::scale_weights(&back, 90), s, "{w:?}");
        }
        assert_eq!(unscale_weights(&[50, 50], 100), None);
    }

    #[test]
    fn code_points_and_base() {
        assert_eq!(bits("011010", 6), Some(26));
        assert_eq!(bits("011", 3), Some(3));
        assert_eq!(bits("01101", 6), None);
        assert_eq!(bits("0110a0", 6), None);
        assert_eq!(
            stated_fill_base(CFG),
            Some(FillBase {
                lossless: 73_514_000,
                lossy: 9_086_000
            })
        );
        assert_eq!(stated_fill_base("no comment"), None);
    }
}
