//! Per-port values the `.fab` holds once per switch (issue 34, review U17): a port whose PFC
//! priorities differ from its switch's is judged here, at the port's value in the state
//! file, since the imported `.fab` keeps the switch's value and the proof never sees the
//! port; a port whose ECN differs is written as its link's `ecn CLASS …` override, the one
//! per-port form the language has.

use std::collections::{BTreeMap, BTreeSet};

use super::classes::{Class, ecn_words};
use super::deployed::{Cable, Deployed, Ev, Note, NoteKind, Peer, Port, Wred};
use super::view::View;

/// A port's PFC priorities (none where the state names none) and where they are.
fn pfc_of(p: &Port) -> (BTreeSet<u8>, Ev) {
    p.pfc.clone().unwrap_or((BTreeSet::new(), p.at))
}

fn prios(s: &BTreeSet<u8>) -> String {
    if s.is_empty() {
        return "none".into();
    }
    s.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// The classes on priority `p`, for a message: "class `roce`", or "no class".
fn classes_on(classes: &[Class], p: u8) -> String {
    let names: Vec<String> = classes
        .iter()
        .filter(|c| c.priority == p && !c.dscp.is_empty())
        .map(|c| format!("`{}`", c.name))
        .collect();
    match names.len() {
        0 => "no class".into(),
        1 => format!("class {}", names[0]),
        _ => format!("classes {}", names.join(", ")),
    }
}

/// The cabled ports of each switch (index into `d.switches`).
fn fabric_ports(d: &Deployed) -> BTreeMap<usize, BTreeSet<String>> {
    let mut out: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    let idx = |n: &str| d.switches.iter().position(|s| s.name == n);
    for c in &d.cables {
        if let Some(i) = idx(&c.switch) {
            out.entry(i).or_default().insert(c.port.clone());
        }
        if let Peer::Switch(s, p) = &c.peer
            && let Some(i) = idx(s)
        {
            out.entry(i).or_default().insert(p.clone());
        }
    }
    out
}

/// Whether port `p` of switch `i` runs other PFC priorities than its switch's.
fn deviates(d: &Deployed, views: &[View], i: usize, p: &str) -> Option<(BTreeSet<u8>, Ev)> {
    let port = d.switches.get(i)?.sw.ports.get(p)?;
    let (reference, _) = views.get(i)?.lossless.as_ref()?;
    let own = pfc_of(port);
    (own.0 != *reference).then_some(own)
}

/// Each cabled port whose PFC priorities differ from its switch's: a lossless priority it
/// does not pause is FAB505 (that hop drops the class, as the model-level finding says of a
/// switch), one it pauses beyond its switch's is FAB814; a switch-to-switch link whose ends
/// then pause different priorities is FAB507. These replace FAB964 for `pfc_enable`: the
/// `.fab` keeps the switch's value, and the port must not be voted away.
fn pfc_notes(d: &Deployed, views: &[View], classes: &[Class], notes: &mut Vec<Note>) {
    for (i, ports) in fabric_ports(d) {
        let (Some(s), Some(v)) = (d.switches.get(i), views.get(i)) else {
            continue;
        };
        let Some((reference, _)) = &v.lossless else {
            continue;
        };
        let mut ports: Vec<&String> = ports.iter().collect();
        ports.sort_by(|a, b| super::deployed::natural(a, b));
        for p in ports {
            let Some((own, at)) = deviates(d, views, i, p) else {
                continue;
            };
            for &n in reference.difference(&own) {
                notes.push(
                    Note::new(
                        NoteKind::PortNotLossless,
                        at,
                        format!(
                            "`{}` `{p}` does not pause priority {n} ({}), which `{}` runs lossless (PFC on {} here, {} on its other ports), so this hop can drop that lossless traffic; the `.fab` keeps the switch's value",
                            s.name,
                            classes_on(classes, n),
                            s.name,
                            prios(&own),
                            prios(reference)
                        ),
                    )
                    .help(format!("run PFC on priority {n} on the port as on the switch's other ports (SONiC: `pfc_enable` of its PORT_QOS_MAP entry)"))
                    .port(p.clone()),
                );
            }
            for &n in own.difference(reference) {
                notes.push(
                    Note::new(
                        NoteKind::PortExtraPfc,
                        at,
                        format!(
                            "`{}` `{p}` pauses priority {n} ({}), which `{}` runs lossy (PFC on {} here, {} on its other ports); the `.fab` keeps the switch's value",
                            s.name,
                            classes_on(classes, n),
                            s.name,
                            prios(&own),
                            prios(reference)
                        ),
                    )
                    .help(format!("stop PFC on priority {n} on the port, or make the priority lossless in the `.fab` for the whole fabric"))
                    .port(p.clone()),
                );
            }
        }
    }
    let idx = |n: &str| d.switches.iter().position(|s| s.name == n);
    for c in &d.cables {
        let Peer::Switch(s2, p2) = &c.peer else {
            continue;
        };
        let (Some(i), Some(j)) = (idx(&c.switch), idx(s2)) else {
            continue;
        };
        let a = deviates(d, views, i, &c.port);
        let b = deviates(d, views, j, p2);
        if a.is_none() && b.is_none() {
            // Both ends run their switch's value: the model has the link as deployed.
            continue;
        }
        let end = |k: usize, p: &str| d.switches[k].sw.ports.get(p).map(pfc_of);
        let (Some((pa, ea)), Some((pb, eb))) = (end(i, &c.port), end(j, p2)) else {
            continue;
        };
        if pa == pb {
            continue;
        }
        let one: BTreeSet<u8> = pa.symmetric_difference(&pb).copied().collect();
        let at = if a.is_some() { ea } else { eb };
        notes.push(Note::new(
            NoteKind::LinkPfcDiffers,
            at,
            format!(
                "the two ends of `{}` `{}` -- `{}` `{p2}` pause different priorities ({} and {}): PFC on priority {} runs at one end only, so pauses that end sends are not honoured or not sent",
                c.switch,
                c.port,
                s2,
                prios(&pa),
                prios(&pb),
                prios(&one)
            ),
        ).help("make both ends of the link pause the same priorities"));
    }
}

/// A link end's ECN for a class: switch, port, its own marking, its switch's, where.
type EndEcn<'a> = (&'a str, &'a str, Option<Wred>, Option<Wred>, Ev);

/// A switch port's ECN for class `c` and its switch's (the value the `.fab` states for it),
/// where the switch has one.
fn ecn_of(
    d: &Deployed,
    views: &[View],
    c: &Class,
    sw: &str,
    p: &str,
) -> Option<(Option<Wred>, Option<Wred>, Ev)> {
    let i = d.switches.iter().position(|s| s.name == sw)?;
    let v = views.get(i)?;
    let port = d.switches[i].sw.ports.get(p)?;
    let q = v.queue(c.tc);
    let (reference, _) = v.wred.get(&(q, port.speed_mbps.unwrap_or(0)))?;
    let own = port.wred.get(&q);
    Some((own.map(|w| w.0), *reference, own.map_or(port.at, |w| w.1)))
}

/// The per-port findings: PFC (`pfc_notes`), and FAB964 for the WRED profiles of queues no
/// marking class uses (a marking class's ports are their links' `ecn CLASS …` overrides,
/// `link_ecn`).
pub(super) fn port_notes(d: &Deployed, views: &[View], classes: &[Class], notes: &mut Vec<Note>) {
    pfc_notes(d, views, classes, notes);
    for v in views {
        let ecn: BTreeSet<u8> = classes
            .iter()
            .filter(|c| c.lossless || c.wred.is_some_and(|w| w.ecn))
            .map(|c| v.queue(c.tc))
            .collect();
        for (q, ns) in &v.wred_differ {
            if !ecn.contains(q) {
                notes.extend(ns.iter().cloned());
            }
        }
    }
}

/// The `ecn CLASS min … max …` words of link `c`: for each marking class, where a switch end
/// marks otherwise than its switch (issue 34, U17), the language's per-link form states that
/// end's thresholds. It applies to both switch ends, so an end that still runs its switch's
/// value, or that marks otherwise again, is a FAB964 note; a fill level at one end and bytes
/// at the other are the link's fill level (the form a per-link percent is written in on each
/// target). An end that marks off has no per-link form: a FAB964 note.
pub(super) fn link_ecn(
    d: &Deployed,
    views: &[View],
    classes: &[Class],
    c: &Cable,
    notes: &mut Vec<Note>,
) -> Vec<(String, Ev)> {
    let mut ends = vec![(c.switch.as_str(), c.port.as_str())];
    if let Peer::Switch(s, p) = &c.peer {
        ends.push((s.as_str(), p.as_str()));
    }
    let mut out = Vec::new();
    for cl in classes
        .iter()
        .filter(|x| x.lossless || x.wred.is_some_and(|w| w.ecn))
    {
        let vals: Vec<EndEcn> = ends
            .iter()
            .filter_map(|&(s, p)| ecn_of(d, views, cl, s, p).map(|(o, r, e)| (s, p, o, r, e)))
            .collect();
        let off = |w: &Option<Wred>| !w.is_some_and(|w| w.ecn);
        for (s, p, own, _, at) in vals.iter().filter(|x| x.2 != x.3 && off(&x.2)) {
            notes.push(
                Note::new(
                    NoteKind::PortsDiffer,
                    *at,
                    format!(
                        "`{s}` `{p}` does not mark class `{}` with ECN ({}) while its switch does; a link's `ecn` cannot turn marking off, so the `.fab` keeps the switch's value",
                        cl.name,
                        ecn_words(*own)
                    ),
                )
                .help("make the port mark as the switch's other ports do")
                .port(p.to_string()),
            );
        }
        let candidates: Vec<&EndEcn> = vals.iter().filter(|x| x.2 != x.3 && !off(&x.2)).collect();
        let Some(chosen) = candidates
            .iter()
            .find(|x| x.2.is_some_and(|w| w.fill.is_some()))
            .or(candidates.first())
        else {
            continue;
        };
        let chosen_fill = chosen.2.is_some_and(|w| w.fill.is_some());
        for (s, p, own, _, at) in &vals {
            let same = *own == chosen.2
                || (chosen_fill && !off(own) && own.is_some_and(|w| w.fill.is_none()));
            if !same {
                notes.push(Note::new(
                    NoteKind::PortsDiffer,
                    *at,
                    format!(
                        "`{s}` `{p}` marks class `{}` with {} while the other end of its link marks with {}; the `.fab` states ECN once per link, for both ends, and keeps the other end's",
                        cl.name,
                        ecn_words(*own),
                        ecn_words(chosen.2)
                    ),
                ).help("make both ends of the link mark alike"));
            }
        }
        let words = ecn_words(chosen.2);
        out.push((
            format!("ecn {} {}", cl.name, words.trim_start_matches("ecn ")),
            chosen.4,
        ));
    }
    out
}
