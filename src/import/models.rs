//! The switch models of the imported `.fab`: the catalogue platform a SONiC switch runs on
//! (named by `DEVICE_METADATA`, or the only one whose buffer and cages fit), and a Cumulus
//! switch's model line from NVUE's header.

use std::collections::BTreeMap;

use super::deployed::{Cumulus, Deployed, Ev, Note, NoteKind, Switch};
use super::text::{Out, comment_text};

/// The catalogue platform of a SONiC switch model: the one its `DEVICE_METADATA` platform or
/// HWSKU names, or else the only SONiC platform whose usable buffer is the pools' total and
/// whose cages run ports of `lanes` lanes at `speed` (natively, or as a breakout), with how
/// it was found.
pub(super) fn platform_of(
    d: &Deployed,
    members: &[usize],
    lanes: u32,
    speed: u64,
    buffer: Option<u64>,
) -> Option<(&'static crate::catalogue::platform::Platform, String)> {
    let cat = &crate::catalogue::catalogue().switches;
    let sonic = |p: &&crate::catalogue::platform::Platform| p.os.iter().any(|o| o.os == "sonic");
    for &i in members {
        let sw = &d.switches[i].sw;
        for named in [&sw.platform, &sw.hwsku].into_iter().flatten() {
            let n = named.to_ascii_lowercase();
            if let Some(p) = cat.iter().filter(sonic).find(|p| {
                p.sonic
                    .as_ref()
                    .is_some_and(|s| s.platform.eq_ignore_ascii_case(named))
                    || n.contains(&p.model.to_ascii_lowercase())
            }) {
                return Some((p, format!("DEVICE_METADATA names `{named}`")));
            }
        }
    }
    let fits = |p: &crate::catalogue::platform::Platform, native: bool| {
        p.cages.iter().filter(|c| !c.aux).any(|c| {
            if native {
                c.lanes == lanes && u64::from(c.speed_gbps) * 1000 == speed
            } else {
                c.breakouts.iter().any(|b| {
                    let Some((k, rest)) = b.split_once('x') else {
                        return false;
                    };
                    let k: u32 = k.parse().unwrap_or(0);
                    let g: u64 = rest
                        .split(['G', '['])
                        .next()
                        .and_then(|x| x.parse().ok())
                        .unwrap_or(0);
                    k > 0 && c.lanes / k == lanes && g * 1000 == speed
                })
            }
        })
    };
    // The buffer is the egress pools' sum, or (where the lossy pools share it) the lossless
    // pool's size.
    let lossless: Vec<u64> = members
        .iter()
        .filter_map(|&i| d.switches[i].sw.lossless_pool)
        .collect();
    let by_buffer: Vec<_> = cat
        .iter()
        .filter(sonic)
        .filter(|p| {
            let u = p.buffer.usable.as_ref().map(|u| u.bytes);
            u.is_some() && (u == buffer || lossless.first().copied() == u)
        })
        .collect();
    for native in [true, false] {
        let c: Vec<_> = by_buffer.iter().filter(|p| fits(p, native)).collect();
        if let [one] = c.as_slice() {
            return Some((
                one,
                format!(
                    "its egress pools add up to that platform's buffer and its ports take {lanes} lanes at {}G, {}",
                    speed / 1000,
                    if native {
                        "as the platform's cages do"
                    } else {
                        "a breakout of its cages"
                    }
                ),
            ));
        }
    }
    None
}

/// A run of a Cumulus switch's cages broken out alike: `cages` cages, each into `split`
/// sub-ports of `speed` Mb/s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CageRun {
    pub cages: u32,
    pub split: u32,
    pub speed: u64,
}

/// What makes two Cumulus switches the same model: the header's release and model (the
/// latter only where it is a catalogue platform whose cages the port names fit), the cages
/// in runs broken out alike, and the ports they make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CumulusKey {
    pub release: Option<String>,
    pub model: Option<String>,
    pub runs: Vec<CageRun>,
    pub ports: u32,
}

impl CumulusKey {
    /// The port's number in the `.fab` (0-based): the ports of the cages before its cage,
    /// each broken out as its run is, plus its sub-port. `None` for a name that is no port of
    /// its cage's breakout (`swp2` of a cage run `2x`, `swp2s3` of an unbroken cage).
    pub fn index(&self, port: &str) -> Option<u32> {
        let (mut cage, sub) = super::cumulus::cage_of(port)?;
        let mut base = 0u32;
        for r in &self.runs {
            if cage < r.cages {
                let first = base.checked_add(cage.checked_mul(r.split)?)?;
                return match sub {
                    Some(s) if r.split > 1 && s < r.split => first.checked_add(s),
                    None if r.split == 1 => Some(first),
                    _ => None,
                };
            }
            cage -= r.cages;
            base = base.checked_add(r.cages.checked_mul(r.split)?)?;
        }
        None
    }

    /// The speed (Mb/s) the model gives `port`: its cage's run's, `None` past the cages.
    pub fn speed_of(&self, port: &str) -> Option<u64> {
        let (mut cage, _) = super::cumulus::cage_of(port)?;
        for r in &self.runs {
            if cage < r.cages {
                return Some(r.speed);
            }
            cage -= r.cages;
        }
        None
    }
}

/// The model key of a Cumulus switch whose fastest port runs at `speed` Mb/s. The platform is
/// kept only where the ports are its cages as named (`swp3` a whole cage, `swp3s1` a
/// broken-out one) at the cage's speed over its split: an unbroken cage run slower is a model
/// the `.fab` cannot put on that platform's port names. Each cage is broken out as its own
/// ports are named (issue 18: `swp1s0`, `swp1s1` beside `swp2`).
pub(super) fn cumulus_key(sw: &Switch, cu: &Cumulus, speed: u64) -> CumulusKey {
    let mut p = cu.model.as_deref().and_then(super::cumulus::platform);
    let cage_speed = p
        .and_then(|p| p.cages.iter().find(|c| !c.aux))
        .map(|c| u64::from(c.speed_gbps) * 1000);
    let mut splits = super::cumulus::cage_splits(cu, p);
    let split_of = |splits: &BTreeMap<u32, u32>, name: &str| -> u32 {
        cu.cages
            .get(name)
            .and_then(|(c, _)| splits.get(c))
            .copied()
            .unwrap_or(1)
            .max(1)
    };
    let fastest = sw
        .ports
        .iter()
        .filter_map(|(n, x)| Some(x.speed_mbps? * u64::from(split_of(&splits, n))))
        .max();
    if cage_speed.is_some() && fastest.is_some_and(|f| Some(f) != cage_speed) {
        p = None;
        splits = super::cumulus::cage_splits(cu, None);
    }
    let cages = match p {
        Some(p) => p
            .cages
            .iter()
            .filter(|c| !c.aux)
            .map(|c| c.count)
            .sum::<u32>(),
        None => cu.cages.values().map(|c| c.0 + 1).max().unwrap_or(1),
    };
    // Each cage's sub-port speed: the platform's over the split, else the fastest its ports
    // state, else the switch's.
    let mut per_cage: BTreeMap<u32, u64> = BTreeMap::new();
    for (name, x) in &sw.ports {
        if let (Some((c, _)), Some(s)) = (cu.cages.get(name), x.speed_mbps) {
            let e = per_cage.entry(*c).or_insert(s);
            *e = (*e).max(s);
        }
    }
    let mut runs: Vec<CageRun> = Vec::new();
    for c in 0..cages {
        let split = splits.get(&c).copied().unwrap_or(1).max(1);
        let speed = match (p, cage_speed) {
            (Some(_), Some(cs)) => cs / u64::from(split),
            _ => per_cage.get(&c).copied().unwrap_or(speed),
        };
        match runs.last_mut() {
            Some(r) if r.split == split && r.speed == speed => r.cages += 1,
            _ => runs.push(CageRun {
                cages: 1,
                split,
                speed,
            }),
        }
    }
    let ports = runs.iter().map(|r| r.cages * r.split).sum();
    CumulusKey {
        release: cu.release.clone(),
        model: p.and(cu.model.clone()),
        runs,
        ports,
    }
}

/// The `ports` of a Cumulus model whose cages are not all the platform's whole cages. One
/// run: `N x SPEED` (on a platform, ports slower than the cages are broken out as far as the
/// cages allow). Several (cages broken out one by one): a group per run, on a platform in the
/// same form, without one with `breakout`, so that each group's cages split as they do.
fn cumulus_ports(k: &CumulusKey, speed: u64, platform: bool) -> String {
    if let [_] = k.runs.as_slice() {
        return format!("ports {} x {}G", k.ports, speed / 1000);
    }
    let groups: Vec<String> = k
        .runs
        .iter()
        .map(|r| {
            let g = r.speed / 1000;
            if platform {
                format!("{} x {g}G", r.cages * r.split)
            } else if r.split > 1 {
                format!(
                    "{} x {}G breakout {} x {g}G",
                    r.cages,
                    g * u64::from(r.split),
                    r.split
                )
            } else {
                format!("{} x {g}G", r.cages)
            }
        })
        .collect();
    format!("ports {}", groups.join(", "))
}

/// A Cumulus switch model: `platform` where the header's model is a catalogue platform and the
/// port names are its breakout, `os cumulus <release>`, the ports where they differ from the
/// platform's cages. NVUE holds no buffer size or cell (switchd sizes the buffer itself), so
/// without a platform the model has none and says so.
#[allow(clippy::too_many_arguments)]
pub(super) fn cumulus_model(
    d: &Deployed,
    o: &mut Out,
    notes: &mut Vec<Note>,
    mname: &str,
    speed: u64,
    cu: &CumulusKey,
    members: &[usize],
    at: Option<Ev>,
) {
    let (release, model) = (&cu.release, &cu.model);
    let file_at = members.first().map(|&i| Ev {
        file: d.switches[i].file,
        at: Default::default(),
    });
    let at = at.or(file_at);
    let platform = model.as_deref().and_then(super::cumulus::platform);
    let mut words = Vec::new();
    if let Some(p) = platform {
        words.push(format!("platform {}", p.name));
        if let Some(at) = at {
            notes.push(Note::new(
                NoteKind::Inferred,
                at,
                format!(
                    "switch model `{mname}` is taken to run on catalogue platform `{}`: `nv config show` names the system `{}`",
                    p.name,
                    model.as_deref().unwrap_or_default()
                ),
            ));
        }
    }
    words.push(match release {
        Some(r) => format!("os cumulus {r}"),
        None => "os cumulus".into(),
    });
    let native = platform.is_some_and(|p| {
        matches!(cu.runs.as_slice(), [r] if r.split == 1)
            && p.cages
                .iter()
                .find(|c| !c.aux)
                .is_some_and(|c| u64::from(c.speed_gbps) * 1000 == speed)
    });
    if !native {
        words.push(cumulus_ports(cu, speed, platform.is_some()));
    }
    if platform.is_none()
        && let Some(at) = at
    {
        notes.push(
            Note::new(
                NoteKind::CannotCarry,
                at,
                format!("`nv config show` names no catalogue platform for switch model `{mname}`, and NVUE holds no buffer size or cell; the model has none, so headroom and ECN cannot be judged against the buffer"),
            )
            .help("add `platform …`, or `buffer …` and `cell …`, to the switch model by hand"),
        );
        o.comment(
            1,
            "NVUE holds no buffer size or cell: add them (or a platform) by hand",
        );
    }
    if platform.is_none()
        && members.iter().any(|&i| {
            d.switches[i]
                .sw
                .ports
                .values()
                .all(|p| p.speed_mbps.is_none())
        })
        && let Some(at) = at
    {
        notes.push(Note::new(
            NoteKind::Inferred,
            at,
            format!("no port of switch model `{mname}` states its speed (`link speed`) and no platform gives it; the ports are taken to run at {}G", speed / 1000),
        ).help("set `link speed` on the switch, or give the model's `ports` by hand"));
    }
    if let Some(m) = model {
        o.comment(
            1,
            &format!("nv config show header model: {}", comment_text(m)),
        );
    }
    o.line(
        1,
        &format!("switch-model {mname} {{ {} }}", words.join("  ")),
        at,
    );
}

/// A host's `nic` lines (issue 18 item 4): `nic MODEL x COUNT`, or, where the host's
/// `state.json` leaves out NICs below its highest that no link reaches (the host script
/// configures every NIC on the lossless fabric and leaves the others alone), one line per run
/// of NICs alike with `role frontend` on those left alone, so that they do not come back as
/// rails. The state does not tell RoCE storage NICs from rails: linked NICs are backend NICs,
/// and the finding says so.
pub(super) fn nic_lines(
    h: &super::deployed::HostDev,
    model: &str,
    count: u32,
    linked: &std::collections::BTreeSet<u32>,
    notes: &mut Vec<Note>,
) -> String {
    let line = |n: u32, frontend: bool| {
        let mut s = format!("nic {model}");
        if n > 1 {
            s.push_str(&format!(" x {n}"));
        }
        if frontend {
            s.push_str(" role frontend");
        }
        s
    };
    let (Some(hs), Some(file)) = (&h.host, h.file) else {
        return line(count, false);
    };
    let alone: Vec<u32> = (1..=count)
        .filter(|k| !linked.contains(k) && !hs.nics.iter().any(|n| n.number == *k))
        .collect();
    if alone.is_empty() {
        return line(count, false);
    }
    let mut runs: Vec<(u32, bool)> = Vec::new();
    for k in 1..=count {
        let frontend = alone.contains(&k);
        match runs.last_mut() {
            Some(r) if r.1 == frontend => r.0 += 1,
            _ => runs.push((1, frontend)),
        }
    }
    let names: Vec<String> = alone.iter().map(|k| format!("nic{k}")).collect();
    notes.push(
        Note::new(
            NoteKind::Inferred,
            Ev {
                file,
                at: Default::default(),
            },
            format!(
                "`{}` {} {} not in the host's state (the host script leaves it alone) and no link reaches {}: written `role frontend`, not a rail; the state does not tell RoCE storage NICs from rails, so the linked NICs are written as backend NICs",
                h.name,
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 { "it" } else { "them" },
            ),
        )
        .help("write `role storage` on a linked NIC that carries RoCE storage rather than a rail (it keeps its lossless QoS but is no rail and no NCCL device)"),
    );
    runs.iter()
        .map(|&(n, f)| line(n, f))
        .collect::<Vec<_>>()
        .join("  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(runs: &[(u32, u32)]) -> CumulusKey {
        let runs: Vec<CageRun> = runs
            .iter()
            .map(|&(cages, split)| CageRun {
                cages,
                split,
                speed: 800_000 / u64::from(split),
            })
            .collect();
        let ports = runs.iter().map(|r| r.cages * r.split).sum();
        CumulusKey {
            release: None,
            model: None,
            runs,
            ports,
        }
    }

    #[test]
    fn ports_are_numbered_over_cages_broken_out_one_by_one() {
        // Issue 18: `swp1` 2x, `swp2`, `swp3` whole, then `swp4`, `swp5` 4x.
        let k = key(&[(1, 2), (2, 1), (2, 4)]);
        let at = |p: &str| k.index(p);
        assert_eq!(at("swp1s0"), Some(0));
        assert_eq!(at("swp1s1"), Some(1));
        assert_eq!(at("swp2"), Some(2));
        assert_eq!(at("swp3"), Some(3));
        assert_eq!(at("swp4s0"), Some(4));
        assert_eq!(at("swp5s3"), Some(11));
        // Not a port of its cage's breakout, or past the cages.
        assert_eq!(at("swp1"), None);
        assert_eq!(at("swp1s2"), None);
        assert_eq!(at("swp2s0"), None);
        assert_eq!(at("swp6"), None);
        assert_eq!(at("eth0"), None);
        assert_eq!(k.speed_of("swp1s1"), Some(400_000));
        assert_eq!(k.speed_of("swp3"), Some(800_000));
        assert_eq!(k.speed_of("swp5s0"), Some(200_000));
        assert_eq!(k.speed_of("swp6"), None);
        assert_eq!(
            cumulus_ports(&k, 800_000, true),
            "ports 2 x 400G, 2 x 800G, 8 x 200G"
        );
        assert_eq!(
            cumulus_ports(&k, 800_000, false),
            "ports 1 x 800G breakout 2 x 400G, 2 x 800G, 2 x 800G breakout 4 x 200G"
        );
        assert_eq!(
            cumulus_ports(&key(&[(64, 2)]), 400_000, true),
            "ports 128 x 400G"
        );
    }
}
