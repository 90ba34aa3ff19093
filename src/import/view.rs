//! One switch's deployed QoS as the `.fab` holds it: the value most of its fabric ports
//! have (FAB964 for the ports that differ), and the majority over switches for the
//! fabric-wide values. The queue plan (which queue and priority group each traffic class
//! uses), rate caps and ECN per port speed are read here as well (issue 17 item f).

use std::collections::{BTreeMap, BTreeSet};

use super::deployed::{Ev, Note, NoteKind, Sched, Shaper, SwitchDev, Threshold, Watchdog, Wred};

/// One switch's deployed QoS, from its fabric ports (majority when they differ).
#[derive(Debug, Clone, Default)]
pub(super) struct View {
    pub dscp: Option<([u8; 64], Ev)>,
    pub lossless: Option<(BTreeSet<u8>, Ev)>,
    /// By egress queue.
    pub sched: BTreeMap<u8, (Sched, Ev)>,
    /// By (egress queue, port speed in Mb/s): the ports of each speed mark alike (or not at
    /// all, None), as the SONiC renderer writes one WRED profile per speed.
    pub wred: BTreeMap<(u8, u64), (Option<Wred>, Ev)>,
    /// By priority group (= the lossless priority).
    pub threshold: BTreeMap<u8, (Threshold, Ev)>,
    pub watchdog: Option<(Option<Watchdog>, Ev)>,
    pub mtu: Option<(u64, Ev)>,
    /// TC → queue; TC → PG (None where the switch names no map: one to one).
    pub tc_queue: Option<([u8; 8], Ev)>,
    pub tc_pg: Option<([u8; 8], Ev)>,
    /// PFC priority → queue, the entries the map holds.
    pub pfc_queue: Option<(BTreeMap<u8, u8>, Ev)>,
    /// By egress queue: the rate cap as a whole percent of the port speed.
    pub rate: BTreeMap<u8, (u64, Ev)>,
    /// By egress queue: the FAB964 of ports whose WRED profile differs from the switch's.
    pub wred_differ: BTreeMap<u8, Vec<Note>>,
}

impl View {
    /// The egress queue of traffic class `tc` on this switch.
    pub fn queue(&self, tc: u8) -> u8 {
        self.tc_queue.map_or(tc, |(m, _)| m[usize::from(tc) & 7])
    }

    /// The speeds of this switch's fabric ports whose queue `q` has a WRED entry or not.
    pub fn speeds(&self, q: u8) -> Vec<u64> {
        self.wred
            .keys()
            .filter(|(x, _)| *x == q)
            .map(|(_, s)| *s)
            .collect()
    }
}

/// A rate cap: a whole percent of the port, or the `pir` that is none.
type RateCap = Result<u64, u64>;

/// A `pir` as a whole percent of a port of `speed_mbps` (the inverse of the SONiC renderer's
/// `rate_bytes_per_second`), or Err(pir) where it is none (or `cir` is not `pir`, or the
/// meter counts packets).
fn rate_percent(sh: Shaper, speed_mbps: u64) -> RateCap {
    let port = speed_mbps.saturating_mul(1_000_000) / 8;
    if !sh.bytes || sh.cir.is_some_and(|c| c != sh.pir) || port == 0 {
        return Err(sh.pir);
    }
    let pct = sh.pir.saturating_mul(100) / port;
    if (1..=100).contains(&pct) && port.saturating_mul(pct) / 100 == sh.pir {
        Ok(pct)
    } else {
        Err(sh.pir)
    }
}

/// The most common value (ties: the first seen), where it was, and the ports that differ.
pub(super) fn pick<T: Clone + PartialEq>(vals: &[(String, T, Ev)]) -> Option<(T, Ev, Vec<String>)> {
    let mut best: Option<(usize, usize)> = None; // (count, index)
    for (i, (_, v, _)) in vals.iter().enumerate() {
        let c = vals.iter().filter(|(_, w, _)| w == v).count();
        if best.is_none_or(|(bc, _)| c > bc) {
            best = Some((c, i));
        }
    }
    let (_, i) = best?;
    let (_, v, e) = &vals[i];
    let differ = vals
        .iter()
        .filter(|(_, w, _)| w != v)
        .map(|(p, _, _)| p.clone())
        .collect();
    Some((v.clone(), *e, differ))
}

pub(super) fn view(s: &SwitchDev, ports: &[String], notes: &mut Vec<Note>) -> View {
    let mut v = View::default();
    let ps: Vec<(&String, &super::deployed::Port)> = ports
        .iter()
        .filter_map(|p| s.sw.ports.get(p).map(|x| (p, x)))
        .collect();
    // Findings of their own, added after the ports' differences.
    let mut odd: Vec<Note> = Vec::new();
    let dscp: Vec<(String, [u8; 64], Ev)> = ps
        .iter()
        .filter_map(|(p, x)| {
            let (m, at) = x.dscp.as_ref()?;
            let mut t = [0u8; 64];
            for (&d, &tc) in m {
                t[usize::from(d)] = tc;
            }
            Some(((*p).clone(), t, *at))
        })
        .collect();
    if let Some((t, at, d)) = pick(&dscp) {
        differ(notes, &s.name, "their DSCP_TO_TC_MAP", d, at);
        v.dscp = Some((t, at));
    }
    let pfc: Vec<(String, BTreeSet<u8>, Ev)> = ps
        .iter()
        .map(|(p, x)| {
            let (set, at) = x.pfc.clone().unwrap_or((BTreeSet::new(), x.at));
            ((*p).clone(), set, at)
        })
        .collect();
    // A port whose PFC differs is judged on its own (`ports::pfc_notes`), not voted away.
    if let Some((set, at, _)) = pick(&pfc) {
        v.lossless = Some((set, at));
    }
    for q in 0u8..8 {
        queue_view(q, s, &ps, &mut v, notes, &mut odd);
    }
    let wd: Vec<(String, Option<Watchdog>, Ev)> = ps
        .iter()
        .filter(|(_, x)| x.pfc.as_ref().is_some_and(|p| !p.0.is_empty()))
        .map(|(p, x)| {
            (
                (*p).clone(),
                x.watchdog.map(|w| w.0),
                x.watchdog.map_or(x.at, |w| w.1),
            )
        })
        .collect();
    if let Some((w, at, d)) = pick(&wd) {
        differ(notes, &s.name, "the PFC watchdog", d, at);
        v.watchdog = Some((w, at));
    }
    let tcq: Vec<(String, [u8; 8], Ev)> = ps
        .iter()
        .filter_map(|(p, x)| x.tc_queue.map(|(m, at)| ((*p).clone(), m, at)))
        .collect();
    if let Some((m, at, d)) = pick(&tcq) {
        differ(notes, &s.name, "TC_TO_QUEUE_MAP", d, at);
        v.tc_queue = Some((m, at));
    }
    let tcpg: Vec<(String, [u8; 8], Ev)> = ps
        .iter()
        .filter_map(|(p, x)| x.tc_pg.map(|(m, at)| ((*p).clone(), m, at)))
        .collect();
    if let Some((m, at, d)) = pick(&tcpg) {
        differ(notes, &s.name, "TC_TO_PRIORITY_GROUP_MAP", d, at);
        v.tc_pg = Some((m, at));
    }
    let pfcq: Vec<(String, BTreeMap<u8, u8>, Ev)> = ps
        .iter()
        .filter_map(|(p, x)| x.pfc_queue.clone().map(|(m, at)| ((*p).clone(), m, at)))
        .collect();
    if let Some((m, at, d)) = pick(&pfcq) {
        differ(notes, &s.name, "MAP_PFC_PRIORITY_TO_QUEUE", d, at);
        v.pfc_queue = Some((m, at));
    }
    let mtu: Vec<(String, u64, Ev)> = ps
        .iter()
        .filter_map(|(p, x)| x.mtu.map(|(m, at)| ((*p).clone(), m, at)))
        .collect();
    if let Some((m, at, d)) = pick(&mtu) {
        differ(notes, &s.name, "MTU", d, at);
        v.mtu = Some((m, at));
    }
    notes.extend(odd);
    v
}

/// Queue (and PG) `q`'s scheduler, WRED per port speed, rate cap and pause threshold.
fn queue_view(
    q: u8,
    sw: &SwitchDev,
    ps: &[(&String, &super::deployed::Port)],
    v: &mut View,
    notes: &mut Vec<Note>,
    odd: &mut Vec<Note>,
) {
    let sched: Vec<(String, Option<Sched>, Ev)> = ps
        .iter()
        .map(|(p, x)| {
            let s = x.sched.get(&q);
            ((*p).clone(), s.map(|s| s.0), s.map_or(x.at, |s| s.1))
        })
        .collect();
    if let Some((Some(s), at, d)) = pick(&sched) {
        differ(
            notes,
            &sw.name,
            &format!("the scheduler of queue {q}"),
            d,
            at,
        );
        v.sched.insert(q, (s, at));
    }
    let speeds: BTreeSet<u64> = ps.iter().map(|(_, x)| x.speed_mbps.unwrap_or(0)).collect();
    for sp in speeds {
        let wred: Vec<(String, Option<Wred>, Ev)> = ps
            .iter()
            .filter(|(_, x)| x.speed_mbps.unwrap_or(0) == sp)
            .map(|(p, x)| {
                let w = x.wred.get(&q);
                ((*p).clone(), w.map(|w| w.0), w.map_or(x.at, |w| w.1))
            })
            .collect();
        if let Some((w, at, d)) = pick(&wred) {
            // Kept aside: a marking class's ports are written as their links' `ecn`
            // overrides (`ports::link_ecn`); only other queues' differences are FAB964.
            differ(
                v.wred_differ.entry(q).or_default(),
                &sw.name,
                &format!("the WRED profile of queue {q}"),
                d,
                at,
            );
            v.wred.insert((q, sp), (w, at));
        }
    }
    let rate: Vec<(String, Option<RateCap>, Ev)> = ps
        .iter()
        .map(|(p, x)| {
            let r = x.shaper.get(&q);
            let pct = r.map(|(sh, _)| rate_percent(*sh, x.speed_mbps.unwrap_or(0)));
            ((*p).clone(), pct, r.map_or(x.at, |r| r.1))
        })
        .collect();
    if let Some((r, at, d)) = pick(&rate) {
        differ(
            notes,
            &sw.name,
            &format!("the rate cap of queue {q}"),
            d,
            at,
        );
        match r {
            Some(Ok(pct)) => {
                v.rate.insert(q, (pct, at));
            }
            Some(Err(pir)) => odd.push(Note::new(
                NoteKind::CannotCarry,
                at,
                format!("queue {q} of `{}` is capped at {pir} bytes/s, which is not a whole percent of its ports' speed with `cir` = `pir` in bytes; the `.fab` states a rate cap only as `rate N%`, so the cap is left out", sw.name),
            )),
            None => {}
        }
    }
    let th: Vec<(String, Option<Threshold>, Ev)> = ps
        .iter()
        .filter(|(_, x)| x.pg.contains_key(&q))
        .map(|(p, x)| {
            let g = &x.pg[&q];
            ((*p).clone(), g.threshold, g.at)
        })
        .collect();
    if let Some((Some(t), at, d)) = pick(&th) {
        differ(
            notes,
            &sw.name,
            &format!("the pause threshold of PG {q}"),
            d,
            at,
        );
        v.threshold.insert(q, (t, at));
    }
}

/// Ports of one switch that differ from the value most have: the `.fab` keeps that one.
fn differ(notes: &mut Vec<Note>, switch: &str, what: &str, d: Vec<String>, at: Ev) {
    if !d.is_empty() {
        notes.push(
            Note::new(
                NoteKind::PortsDiffer,
                at,
                format!(
                    "ports of `{}` differ in {what} ({} of them: {}); the `.fab` keeps one value per switch, the one most ports have, shown here",
                    switch,
                    d.len(),
                    d.join(", ")
                ),
            )
            .help("make the ports agree on the switch, or split the switch's ports in the `.fab` by hand"),
        );
    }
}

/// The fabric-wide value: the one most switches have (ties: the first switch's).
pub(super) fn majority<T: Clone + PartialEq>(vals: &[(T, Ev)]) -> Option<(T, Ev)> {
    let named: Vec<(String, T, Ev)> = vals
        .iter()
        .map(|(v, e)| (String::new(), v.clone(), *e))
        .collect();
    pick(&named).map(|(v, e, _)| (v, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_caps_are_whole_percents_of_the_port() {
        let sh = |pir, cir, bytes| Shaper { pir, cir, bytes };
        // The SONiC renderer's `STRICT_MAX5_400000` and `_800000`.
        assert_eq!(
            rate_percent(sh(2_500_000_000, Some(2_500_000_000), true), 400_000),
            Ok(5)
        );
        assert_eq!(rate_percent(sh(5_000_000_000, None, true), 800_000), Ok(5));
        assert_eq!(
            rate_percent(sh(5_000_000_001, None, true), 800_000),
            Err(5_000_000_001)
        );
        // `cir` below `pir`, packets/s, above the port, or no speed: no `rate N%`.
        assert!(rate_percent(sh(2_500_000_000, Some(1), true), 400_000).is_err());
        assert!(rate_percent(sh(2_500_000_000, None, false), 400_000).is_err());
        assert!(rate_percent(sh(60_000_000_000, None, true), 400_000).is_err());
        assert!(rate_percent(sh(1, None, true), 0).is_err());
    }
}
