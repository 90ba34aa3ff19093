//! The switch models of EOS, NX-OS and Junos switches in the imported `.fab`: the catalogue
//! platform the configuration names, the release, and the ports, numbered as the renderer
//! names them. A port's number is found by naming every port of the model the way a build
//! does (`Platform::place` and `Platform::port_name`, else the OS's unbroken front-panel name,
//! `lower::vocab`) and looking the configuration's name up, so import and build cannot
//! disagree on which port is which.

use std::collections::BTreeMap;

use super::deployed::{Deployed, Ev, Note, NoteKind, Switch, Vendor};
use super::text::Out;
use crate::catalogue::platform::Platform;
use crate::catalogue::port_group::PortGroup;
use crate::syntax::ast::Os;

/// What makes two EOS/NX-OS/Junos switches the same model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct VendorKey {
    pub os: Os,
    pub release: Option<String>,
    /// The catalogue platform, where its cages run the ports' speed.
    pub platform: Option<String>,
    pub count: u32,
    /// Mb/s, the ports' speed.
    pub speed: u64,
    /// Port name → 0-based number in the `.fab`.
    pub names: BTreeMap<String, u32>,
}

/// Names beyond this many ports are not tried (no platform in the catalogue has more).
const MAX_PORTS: u32 = 4096;

fn fallback_name(os: Os, i: u32, speed: u64) -> String {
    use crate::lower::vocab;
    match os {
        Os::Eos => vocab::eos_port_name(i),
        Os::Nxos => vocab::nxos_port_name(i),
        Os::Junos => vocab::junos_port_name(i),
        Os::Vrp => vocab::vrp_port_name(i, speed),
        Os::Cumulus => vocab::cumulus_port_name(i),
        Os::Sonic => vocab::sonic_port_name(i, 8),
        Os::Comware => vocab::comware_port_name(i, 400),
    }
}

/// The model's ports on platform `p` at `speed` Mb/s, named as a build names them: `None`
/// when the platform's cages do not run that speed.
fn platform_names(p: &Platform, os: Os, speed: u64) -> Option<(u32, BTreeMap<String, u32>)> {
    let gbps = u32::try_from(speed.div_ceil(1000)).ok()?;
    let probe = PortGroup {
        count: 1,
        speed,
        breakout: None,
    };
    let count: u32 = p
        .cages
        .iter()
        .filter(|c| !c.aux)
        .map(|c| c.count.saturating_mul(c.ports_for(&probe, gbps)))
        .sum();
    if count == 0 || count > MAX_PORTS {
        return None;
    }
    let groups = [PortGroup {
        count,
        speed,
        breakout: None,
    }];
    // As `lower::port_name_with`: the platform's name for the OS where the catalogue has a
    // rule, else the OS's unbroken front-panel name.
    let placed = p.place_all(&groups);
    let mut names = BTreeMap::new();
    for i in 0..count {
        let name = placed
            .get(i as usize)
            .and_then(|&(cage, split, sub)| p.port_name(os, cage, split, sub))
            .unwrap_or_else(|| fallback_name(os, i, speed));
        names.insert(name, i);
    }
    Some((count, names))
}

impl VendorKey {
    pub fn of(sw: &Switch, v: &Vendor) -> VendorKey {
        let plat = v
            .platform
            .as_ref()
            .and_then(|(n, _)| crate::catalogue::switch_platform(n));
        // The ports' speed: the one most ports state (ties: the fastest), else the platform's
        // cages', else 400G.
        let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
        for p in sw.ports.values() {
            if let Some(s) = p.speed_mbps {
                *counts.entry(s).or_default() += 1;
            }
        }
        let speed = counts
            .iter()
            .max_by_key(|(s, n)| (**n, **s))
            .map(|(s, _)| *s)
            .or_else(|| {
                plat.and_then(|p| p.cages.iter().find(|c| !c.aux))
                    .map(|c| u64::from(c.speed_gbps) * 1000)
            })
            .unwrap_or(400_000);
        if let Some(p) = plat
            && let Some((count, names)) = platform_names(p, v.os, speed)
        {
            return VendorKey {
                os: v.os,
                release: v.release.clone(),
                platform: Some(p.name.clone()),
                count,
                speed,
                names,
            };
        }
        let mut all = BTreeMap::new();
        for i in 0..MAX_PORTS {
            all.insert(fallback_name(v.os, i, speed), i);
        }
        let highest = sw.ports.keys().filter_map(|n| all.get(n)).max().copied();
        let count = highest.map_or(1, |h| h + 1);
        all.retain(|_, i| *i < count);
        VendorKey {
            os: v.os,
            release: v.release.clone(),
            // A platform whose cages the catalogue does not list (the QFX5240) still gives the
            // buffer; the ports are then named as the OS names them unbroken.
            platform: plat
                .filter(|p| p.cages.iter().all(|c| c.aux))
                .map(|p| p.name.clone()),
            count,
            speed,
            names: all,
        }
    }

    pub fn index(&self, port: &str) -> Option<u32> {
        self.names.get(port).copied()
    }

    /// A name for the model: `eos-128x400g`.
    pub fn base_name(&self) -> String {
        format!("{}-{}x{}g", self.os.as_str(), self.count, self.speed / 1000)
    }
}

/// `switch-model NAME { platform …  os eos 4.35  ports N x SG }`. Without a platform the
/// model has no buffer or cell, and says so.
pub(super) fn vendor_model(
    d: &Deployed,
    o: &mut Out,
    notes: &mut Vec<Note>,
    mname: &str,
    k: &VendorKey,
    dynamic: Option<i64>,
    members: &[usize],
) {
    let first = members.first().map(|&i| &d.switches[i]);
    let file_at = first.map(|s| Ev {
        file: s.file,
        at: Default::default(),
    });
    let vendor = first.and_then(|s| s.sw.vendor.as_ref());
    let at = vendor.and_then(|v| v.platform_at).or(file_at);
    let mut words = Vec::new();
    if let Some(p) = &k.platform {
        words.push(format!("platform {p}"));
        if let (Some(at), Some((_, how))) = (at, vendor.and_then(|v| v.platform.as_ref())) {
            notes.push(Note::new(
                NoteKind::Inferred,
                at,
                format!(
                    "switch model `{mname}` is taken to run on catalogue platform `{p}`: {how}"
                ),
            ));
        }
    }
    words.push(match &k.release {
        Some(r) => format!("os {} {r}", k.os.as_str()),
        None => format!("os {}", k.os.as_str()),
    });
    words.push(format!("ports {} x {}G", k.count, k.speed / 1000));
    if let Some(n) = dynamic {
        words.push(format!("dynamic-threshold {n}"));
    }
    if k.platform.is_none()
        && let Some(at) = at
    {
        notes.push(
            Note::new(
                NoteKind::CannotCarry,
                at,
                format!("the configuration names no catalogue platform for switch model `{mname}` and holds no buffer size or cell; the model has none, so headroom and ECN cannot be judged against the buffer"),
            )
            .help("add `platform …`, or `buffer …` and `cell …`, to the switch model by hand"),
        );
        o.comment(
            1,
            "the configuration holds no buffer size or cell: add them (or a platform) by hand",
        );
    }
    o.line(
        1,
        &format!("switch-model {mname} {{ {} }}", words.join("  ")),
        at,
    );
}

/// One FAB963 per switch whose configuration holds no cable lengths (EOS, NX-OS, Junos),
/// naming its links' count, instead of one per link.
pub(super) fn no_cable_notes(d: &Deployed, notes: &mut Vec<Note>) {
    for s in &d.switches {
        let Some(v) = &s.sw.vendor else { continue };
        if !v.no_cables {
            continue;
        }
        let mut ports: Vec<&str> = d
            .cables
            .iter()
            .filter_map(|c| match &c.peer {
                _ if c.switch == s.name => Some(c.port.as_str()),
                super::deployed::Peer::Switch(o, p) if *o == s.name => Some(p.as_str()),
                _ => None,
            })
            .collect();
        ports.sort_by(|a, b| super::deployed::natural(a, b));
        ports.dedup();
        if ports.is_empty() {
            continue;
        }
        notes.push(
            Note::new(
                NoteKind::NoCable,
                Ev {
                    file: s.file,
                    at: Default::default(),
                },
                format!(
                    "the {} configuration of `{}` holds no cable lengths: its {} links ({}) get the language's default of 100m, which sizes headroom for a long cable",
                    v.os.as_str(),
                    s.name,
                    ports.len(),
                    ports.join(", ")
                ),
            )
            .help("write each link's `cable` in the `.fab` by hand"),
        );
    }
}
