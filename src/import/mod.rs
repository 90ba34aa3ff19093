//! `fabricc import`: a `.fab` from the state of a deployed fabric, so that `check` can prove
//! what the devices run (deadlock freedom, ECN against PFC, headroom against cables).
//!
//! In: a state directory in the layout of `fabricc verify` (`DIR/<device>/config_db.json`,
//! `startup.yaml`, `running-config`, `config`, `current-configuration` or `state.json`,
//! optional `lldp.json`; `verify::state`). Out: the `.fab` text, import
//! findings (FAB960–FAB968, FAB990; per port FAB505, FAB507, FAB814, FAB815, `ports.rs`) with spans into the state files (added to `Sources`), and for
//! every line of the `.fab` that states a deployed value, the state file and range it came
//! from ([`Origin`]), so that `check --state` can point a finding at the device's
//! configuration.
//!
//! Steps: read each folder with the parsers of `verify` (`json`, `lldp`) and this module's
//! readers of what the tables and commands mean (`sonic.rs`, `cumulus.rs`, `eos.rs`,
//! `nxos.rs`, `junos.rs`, `vrp.rs`, `comware.rs`, `host.rs`); join the links from SONiC's
//! `DEVICE_NEIGHBOR` and every device's LLDP neighbours; infer tiers from the hosts up;
//! take each class's fabric-wide values from the majority of switches and write every switch
//! that differs as an override (`write.rs`, with `classes.rs`, `view.rs`, `routes.rs` and
//! `models.rs`; the parsed state they share is `deployed.rs`). What cannot be inferred is a
//! finding and a comment in the `.fab`, never a silent guess.

pub mod check;
mod classes;
pub mod comware;
pub mod cumulus;
mod deployed;
pub mod eos;
mod hash;
pub mod host;
pub mod junos;
mod models;
pub mod nxos;
mod ports;
pub mod readback;
mod routes;
pub mod sonic;
mod text;
mod vendor;
mod view;
pub mod vrp;
mod write;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::source::{SourceFile, Sources};
use crate::span::{FileId, Span};
use crate::verify::canon::Loc;
use crate::verify::{cli, json, lldp, nvue, state};
use deployed::{Cable, Deployed, HostDev, Peer, SwitchDev, natural};
pub use deployed::{Ev, Note, NoteKind};

/// Where a range of the `.fab` text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    pub start: usize,
    pub end: usize,
    pub from: Span,
    /// A line of one device's override (or a route), not a fabric-wide value.
    pub device: bool,
}

/// What to import.
pub struct Input<'a> {
    pub state_dir: &'a Path,
    /// How the state directory is shown in messages and comments.
    pub state_display: String,
    pub max_input_bytes: u64,
    /// The fabric's name (default: the state directory's name).
    pub name: Option<String>,
}

/// The imported fabric.
#[derive(Debug)]
pub struct Imported {
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    pub origins: Vec<Origin>,
    /// The deployed headroom of every cabled lossless port (what the `.fab` cannot carry).
    pub xoffs: Vec<Xoff>,
}

/// A lossless PG's deployed `xoff`.
#[derive(Debug, Clone)]
pub struct Xoff {
    pub switch: String,
    pub port: String,
    pub priority: u8,
    pub xoff: u64,
    pub profile: String,
    pub span: Span,
}

/// Why import could not run at all (exit 2).
#[derive(Debug)]
pub struct Fatal(pub String);

/// Reads the state directory and writes the `.fab`; state files are added to `sources`.
pub fn import(input: &Input<'_>, sources: &mut Sources) -> Result<Imported, Fatal> {
    let folders = state::device_folders(input.state_dir, &input.state_display).map_err(Fatal)?;
    let mut d = read_all(input, &folders);
    connect(&mut d);
    let name = input
        .name
        .clone()
        .or_else(|| {
            input
                .state_dir
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        })
        .map(|n| text::sanitize_name(&n))
        .unwrap_or_else(|| "imported".into());
    let (text, origins_ev) = write::fab(&name, &input.state_display, &mut d);
    // Files to sources.
    let ids: Vec<FileId> = d
        .files
        .iter()
        .map(|(display, text)| {
            sources.add(SourceFile::new(
                input
                    .state_dir
                    .join(display.split_once('/').map_or("", |x| x.1)),
                format!("{}/{display}", input.state_display.trim_end_matches('/')),
                text.clone(),
            ))
        })
        .collect();
    let span = |e: Ev| -> Option<Span> {
        ids.get(e.file)
            .map(|&id| Span::new(id, e.at.start as usize, e.at.end as usize))
    };
    let mut diagnostics = Vec::new();
    for g in group(&d.notes) {
        let n = g[0];
        let Some(sp) = span(n.at) else { continue };
        let mut diag = Diagnostic::new(n.kind.code(), sp, grouped_message(&g)).label("here");
        if let Some(h) = &n.help {
            diag = diag.help(h.clone());
        }
        if g.len() > crate::diagnostic::LISTED_NAMES + 1 {
            let all: Vec<&str> = g.iter().filter_map(|n| n.port.as_deref()).collect();
            diag = diag.note(format!(
                "all {} {}: {}",
                all.len(),
                noun(n.kind),
                all.join(", ")
            ));
        }
        diagnostics.push(diag);
    }
    crate::diagnostic::sort(&mut diagnostics);
    diagnostics.dedup();
    let origins = origins_ev
        .into_iter()
        .filter_map(|(start, end, e, device)| {
            span(e).map(|from| Origin {
                start,
                end,
                from,
                device,
            })
        })
        .collect();
    let mut xoffs = Vec::new();
    for c in &d.cables {
        let mut ends = vec![(c.switch.clone(), c.port.clone())];
        if let Peer::Switch(s, p) = &c.peer {
            ends.push((s.clone(), p.clone()));
        }
        for (sw, port) in ends {
            let Some(p) = d
                .switches
                .iter()
                .find(|s| s.name == sw)
                .and_then(|s| s.sw.ports.get(&port))
            else {
                continue;
            };
            for (&pg, prof) in &p.pg {
                if let (Some(xoff), Some(sp)) = (prof.xoff, span(prof.at)) {
                    xoffs.push(Xoff {
                        switch: sw.clone(),
                        port: port.clone(),
                        priority: pg,
                        xoff,
                        profile: prof.name.clone(),
                        span: sp,
                    });
                }
            }
        }
    }
    Ok(Imported {
        text,
        diagnostics,
        origins,
        xoffs,
    })
}

/// The notes as findings: the same finding about several ports (or hosts) of one state file,
/// the message alike but for the port's name, is one group, its ports in natural order
/// (issue 34, U17: one missing WRED profile was 48 findings, one per port). The group's
/// finding is at its first port's place.
fn group(notes: &[Note]) -> Vec<Vec<&Note>> {
    let mut groups: Vec<Vec<&Note>> = Vec::new();
    let mut by_key: BTreeMap<(NoteKind, usize, String, Option<&str>), usize> = BTreeMap::new();
    for n in notes {
        let Some(p) = &n.port else {
            groups.push(vec![n]);
            continue;
        };
        let template = n.message.replace(&format!("`{p}`"), "`\u{0}`");
        let key = (n.kind, n.at.file, template, n.help.as_deref());
        match by_key.get(&key) {
            Some(&i) => groups[i].push(n),
            None => {
                by_key.insert(key, groups.len());
                groups.push(vec![n]);
            }
        }
    }
    for g in &mut groups {
        g.sort_by(|a, b| {
            natural(
                a.port.as_deref().unwrap_or(""),
                b.port.as_deref().unwrap_or(""),
            )
            .then_with(|| a.at.cmp(&b.at))
        });
    }
    groups
}

fn noun(kind: NoteKind) -> &'static str {
    if kind == NoteKind::HostNoState {
        "hosts"
    } else {
        "ports"
    }
}

/// The first port's message, and the others named: the first few, then how many more.
fn grouped_message(g: &[&Note]) -> String {
    let first = g[0];
    let rest: Vec<&str> = g[1..].iter().filter_map(|n| n.port.as_deref()).collect();
    if rest.is_empty() {
        return first.message.clone();
    }
    format!(
        "{}; the same on {} more {}: {}",
        first.message,
        rest.len(),
        noun(first.kind),
        crate::diagnostic::listed_names(&rest)
    )
}

fn read_all(input: &Input<'_>, folders: &[String]) -> Deployed {
    let mut d = Deployed {
        switches: Vec::new(),
        hosts: Vec::new(),
        cables: Vec::new(),
        files: Vec::new(),
        notes: Vec::new(),
    };
    // LLDP tables, read after every device: (device, neighbours, file).
    let mut lldps: Vec<(String, Vec<lldp::Neighbour>, usize)> = Vec::new();
    for folder in folders {
        let dir = input.state_dir.join(folder);
        let has = |f: &str| dir.join(f).exists();
        if has("config_db.json") {
            if let Some((idx, root)) = read_json(input, &dir, folder, "config_db.json", &mut d) {
                let sw = sonic::read(&root, idx, &mut d.notes);
                d.switches.push(SwitchDev {
                    name: folder.clone(),
                    sw,
                    file: idx,
                });
            }
        } else if has("startup.yaml") {
            read_cumulus(input, &dir, folder, &mut d);
        } else if has("running-config") {
            read_cli(input, &dir, folder, &mut d);
        } else if has("config") {
            read_junos(input, &dir, folder, &mut d);
        } else if has("current-configuration") {
            read_current(input, &dir, folder, &mut d);
        } else if has("state.json") {
            if let Some((idx, root)) = read_json(input, &dir, folder, "state.json", &mut d) {
                match host::read(&root, idx) {
                    Ok(h) => d.hosts.push(HostDev {
                        name: folder.clone(),
                        host: Some(h),
                        file: Some(idx),
                    }),
                    Err(e) => d.notes.push(Note::new(
                        NoteKind::Unreadable,
                        Ev {
                            file: idx,
                            at: Loc::new(root.start, root.start),
                        },
                        format!("`{folder}/state.json` is not a host state: {e}"),
                    )),
                }
            }
        } else {
            note_unreadable_folder(&dir, folder, &mut d);
            continue;
        }
        if has(state::LLDP_FILE)
            && let Some((idx, root)) = read_json(input, &dir, folder, state::LLDP_FILE, &mut d)
        {
            match lldp::parse(&root) {
                Ok(n) => lldps.push((folder.clone(), n, idx)),
                Err(e) => d.notes.push(Note::new(
                    NoteKind::Unreadable,
                    Ev {
                        file: idx,
                        at: Loc::new(root.start, root.start),
                    },
                    format!("`{folder}/lldp.json`: {e}"),
                )),
            }
        }
    }
    d.switches.sort_by(|a, b| natural(&a.name, &b.name));
    d.hosts.sort_by(|a, b| natural(&a.name, &b.name));
    merge_lldp(&mut d, lldps);
    d
}

/// A JSON state file of a device folder, parsed; a file that cannot be read or parsed is
/// noted. The text is kept in `d.files` either way, for findings to point into.
fn read_json(
    input: &Input<'_>,
    dir: &std::path::Path,
    folder: &str,
    file: &str,
    d: &mut Deployed,
) -> Option<(usize, json::Node<'static>)> {
    let path = dir.join(file);
    let shown = format!("{folder}/{file}");
    match state::read(&path, input.max_input_bytes) {
        Ok(text) => {
            let idx = d.files.len();
            let parsed = json::parse(&text).map(json::Node::into_owned);
            d.files.push((shown.clone(), text));
            match parsed {
                Ok(node) => Some((idx, node)),
                Err(e) => {
                    d.notes.push(Note::new(
                        NoteKind::Unreadable,
                        Ev {
                            file: idx,
                            at: Loc::new(e.offset, e.offset),
                        },
                        format!("`{shown}` is not JSON: expected {}", e.message),
                    ));
                    None
                }
            }
        }
        Err(state::ReadError::Missing) => None,
        Err(e) => {
            cannot_read(d, shown, &e);
            None
        }
    }
}

/// A Cumulus switch from its NVUE `startup.yaml`.
fn read_cumulus(input: &Input<'_>, dir: &Path, folder: &str, d: &mut Deployed) {
    read_text_state(input, dir, folder, "startup.yaml", d, |text, idx, notes| {
        let c = nvue::canon(text)
            .map_err(|e| (e.offset, format!("an NVUE document: {}", e.message)))?;
        let (mut sw, cu) = cumulus::read(text, &c, idx, notes);
        sw.cumulus = Some(cu);
        Ok(sw)
    });
}

/// An EOS or NX-OS switch from its `show running-config`, read with `verify`'s reader (the
/// dialect from the text, `nxos::is_nxos`).
fn read_cli(input: &Input<'_>, dir: &Path, folder: &str, d: &mut Deployed) {
    read_text_state(
        input,
        dir,
        folder,
        "running-config",
        d,
        |text, idx, notes| {
            Ok(if nxos::is_nxos(text) {
                nxos::read(&cli::canon(text, cli::Dialect::Nxos), idx, notes)
            } else {
                eos::read(text, &cli::canon(text, cli::Dialect::Eos), idx, notes)
            })
        },
    );
}

/// A Junos switch from its `show configuration` (curly or `| display set`), read with
/// `verify`'s reader.
fn read_junos(input: &Input<'_>, dir: &Path, folder: &str, d: &mut Deployed) {
    read_text_state(input, dir, folder, "config", d, |text, idx, notes| {
        let c = crate::verify::junos::canon(text)
            .map_err(|e| (e.offset, format!("a Junos configuration: {}", e.message)))?;
        Ok(junos::read(text, &c, idx, notes))
    });
}

/// A Huawei VRP or H3C Comware switch from its `display current-configuration`, read with
/// `verify`'s reader of that OS (the OS from the text, `vrp::is_vrp`).
fn read_current(input: &Input<'_>, dir: &Path, folder: &str, d: &mut Deployed) {
    read_text_state(
        input,
        dir,
        folder,
        "current-configuration",
        d,
        |text, idx, notes| {
            Ok(if vrp::is_vrp(text) {
                vrp::read(text, &crate::verify::vrp::canon(text), idx, notes)
            } else {
                comware::read(text, &cli::canon(text, cli::Dialect::Comware), idx, notes)
            })
        },
    );
}

/// Why a state file's text is not the configuration its reader takes: where, and what it
/// is not (`an NVUE document: …`).
type NotConfig = (usize, String);

/// A switch from the configuration text `file` in its folder, read by `read` (the text, the
/// file's index among the state's files, the notes), or a note where the text is not one.
fn read_text_state(
    input: &Input<'_>,
    dir: &Path,
    folder: &str,
    file: &str,
    d: &mut Deployed,
    read: impl FnOnce(&str, usize, &mut Vec<Note>) -> Result<deployed::Switch, NotConfig>,
) {
    let shown = format!("{folder}/{file}");
    let idx = d.files.len();
    match state::read(&dir.join(file), input.max_input_bytes) {
        Ok(text) => {
            match read(&text, idx, &mut d.notes) {
                Ok(sw) => d.switches.push(SwitchDev {
                    name: folder.to_string(),
                    sw,
                    file: idx,
                }),
                Err((offset, what)) => d.notes.push(Note::new(
                    NoteKind::Unreadable,
                    Ev {
                        file: idx,
                        at: Loc::new(offset, offset),
                    },
                    format!("`{shown}` is not {what}"),
                )),
            }
            d.files.push((shown, text));
        }
        Err(e) => cannot_read(d, shown, &e),
    }
}

/// A state file that is there but cannot be read: it is listed (empty) with a note.
fn cannot_read(d: &mut Deployed, shown: String, e: &state::ReadError) {
    let idx = d.files.len();
    d.notes.push(Note::new(
        NoteKind::Unreadable,
        Ev {
            file: idx,
            at: Loc::default(),
        },
        format!("cannot read `{shown}`: {e}"),
    ));
    d.files.push((shown, String::new()));
}

/// A folder with no state import can read: noted at its first file, if any.
fn note_unreadable_folder(dir: &std::path::Path, folder: &str, d: &mut Deployed) {
    let has = |f: &str| dir.join(f).exists();
    let other: Option<&str> = [].into_iter().find(|f: &&str| has(f));
    let idx = d.files.len();
    let shown = format!("{folder}/{}", other.unwrap_or(""));
    d.files
        .push((shown.trim_end_matches('/').to_string(), String::new()));
    let message = match other {
        Some(f) => format!(
            "`{folder}` holds `{f}`; import reads SONiC (`config_db.json`), Cumulus (`startup.yaml`), EOS and NX-OS (`running-config`), Junos (`config`), VRP and Comware (`current-configuration`) and hosts (`state.json`) only, so this device and its links are left out"
        ),
        None => {
            format!(
                "`{folder}` holds no `config_db.json`, `startup.yaml`, `running-config`, `config`, `current-configuration` or `state.json`; the device is left out"
            )
        }
    };
    d.notes.push(
        Note::new(NoteKind::NoState, Ev { file: idx, at: Loc::default() }, message)
            .help("collect the state as docs/verify.md shows, or describe the device in the `.fab` by hand"),
    );
}

/// LLDP as neighbour entries of switches, and host-side links: DEVICE_NEIGHBOR wins, LLDP
/// fills in.
fn merge_lldp(d: &mut Deployed, lldps: Vec<(String, Vec<lldp::Neighbour>, usize)>) {
    let mut host_links: Vec<(String, String, String, String, Ev)> = Vec::new();
    for (dev, ns, file) in lldps {
        for n in ns {
            let Some(system) = n.system.clone() else {
                continue;
            };
            let at = Ev { file, at: n.at };
            if let Some(s) = d.switches.iter_mut().find(|s| s.name == dev) {
                let port = n.ports.first().cloned().unwrap_or_default();
                // DEVICE_NEIGHBOR wins; LLDP fills in.
                s.sw.neighbours
                    .entry(n.local.clone())
                    .or_insert((system, port, at));
                let _ = &n.ports;
            } else {
                host_links.push((
                    dev.clone(),
                    n.local.clone(),
                    system,
                    n.ports.first().cloned().unwrap_or_default(),
                    at,
                ));
            }
        }
    }
    // A host's LLDP names the switch port; record it on the switch when it has none.
    for (hostname, netdev, system, port, at) in host_links {
        let Some(s) = d
            .switches
            .iter_mut()
            .find(|s| lldp::is_device(&system, &s.name))
        else {
            continue;
        };
        s.sw.neighbours
            .entry(port)
            .or_insert((hostname, netdev, at));
    }
}

/// Turns the switches' neighbour tables into cables, and adds hosts seen only by their
/// neighbours.
fn connect(d: &mut Deployed) {
    let switch_names: BTreeSet<String> = d.switches.iter().map(|s| s.name.clone()).collect();
    let find_switch = |system: &str| {
        switch_names
            .iter()
            .find(|n| lldp::is_device(system, n))
            .cloned()
    };
    let mut cables: BTreeMap<(String, String), Cable> = BTreeMap::new();
    let mut seen_hosts: BTreeMap<String, Ev> = BTreeMap::new();
    let mut notes = Vec::new();
    for s in &d.switches {
        for (port, (system, peer_port, at)) in &s.sw.neighbours {
            if !s.sw.ports.contains_key(port) {
                notes.push(Note::new(
                    NoteKind::NoTopology,
                    *at,
                    format!("`{}` has a neighbour on `{port}`, which is not in its PORT table; the link is left out", s.name),
                ));
                continue;
            }
            let peer = if let Some(other) = find_switch(system) {
                Peer::Switch(other, peer_port.clone())
            } else if let Some(h) = d.hosts.iter().find(|h| lldp::is_device(system, &h.name)) {
                match nic_of(h, peer_port) {
                    Some(n) => Peer::Host(h.name.clone(), n),
                    None => {
                        notes.push(Note::new(
                            NoteKind::NoTopology,
                            *at,
                            format!("`{}` `{port}` sees host `{}` port `{peer_port}`, which is none of its NICs' netdevs; the link is left out", s.name, h.name),
                        ).help("the host's state.json names each NIC's netdev; collect it again, or check the cabling"));
                        continue;
                    }
                }
            } else if looks_like_switch_port(peer_port) {
                notes.push(Note::new(
                    NoteKind::NoState,
                    *at,
                    format!("`{}` `{port}` leads to `{system}` `{peer_port}`, a switch with no state import could read; the link is left out", s.name),
                ).help(format!("collect `{system}`'s configuration (`config_db.json`) into `{system}/` of the state directory")));
                continue;
            } else {
                let host = text::sanitize_name(system.split('.').next().unwrap_or(system));
                seen_hosts.entry(host.clone()).or_insert(*at);
                Peer::Host(host, 0)
            };
            let key = match &peer {
                Peer::Switch(o, op)
                    if (o.as_str(), op.as_str()) < (s.name.as_str(), port.as_str()) =>
                {
                    (o.clone(), op.clone())
                }
                _ => (s.name.clone(), port.clone()),
            };
            cables.entry(key).or_insert(Cable {
                switch: s.name.clone(),
                port: port.clone(),
                peer,
                at: *at,
            });
        }
    }
    // Hosts without state: NICs numbered in the order of the switch ports they reach.
    for (name, at) in &seen_hosts {
        notes.push(
            Note::new(
                NoteKind::HostNoState,
                *at,
                format!("host `{name}` is only known from its neighbours; its NICs are taken to run the fabric's classes"),
            )
            .help("collect the host's state with its host script's `--collect` into `HOST/state.json`")
            .port(name.clone()),
        );
        d.hosts.push(HostDev {
            name: name.clone(),
            host: None,
            file: None,
        });
    }
    d.hosts.sort_by(|a, b| natural(&a.name, &b.name));
    let mut next: BTreeMap<String, u32> = BTreeMap::new();
    let mut list: Vec<Cable> = cables.into_values().collect();
    list.sort_by(|a, b| natural(&a.switch, &b.switch).then_with(|| natural(&a.port, &b.port)));
    for c in &mut list {
        if let Peer::Host(h, n) = &mut c.peer
            && *n == 0
        {
            let k = next.entry(h.clone()).or_insert(0);
            *k += 1;
            *n = *k;
        }
    }
    // A switch with no cable at all.
    for s in &d.switches {
        if !list
            .iter()
            .any(|c| c.switch == s.name || matches!(&c.peer, Peer::Switch(o, _) if *o == s.name))
        {
            notes.push(Note::new(
                NoteKind::NoTopology,
                Ev { file: s.file, at: Loc::default() },
                format!("`{}` has no neighbours (no DEVICE_NEIGHBOR table and no lldp.json), so it has no links", s.name),
            ).help("add `lldpctl -f json` output as lldp.json in its folder"));
        }
    }
    d.cables = list;
    d.notes.extend(notes);
}

fn looks_like_switch_port(p: &str) -> bool {
    p.starts_with("Ethernet")
        || p.starts_with("swp")
        || p.starts_with("et-")
        || p.starts_with("Eth")
        // VRP (`400GE1/0/1`) and Comware (`FourHundredGigE1/0/1`, `Ten-GigabitEthernet1/0/1`).
        || vrp::speed_of(p).is_some()
        || comware::speed_of(p).is_some()
}

/// The NIC of host `h` that a neighbour names by `port`: `nicN`, or the NIC's netdev.
fn nic_of(h: &HostDev, port: &str) -> Option<u32> {
    if let Some(n) = port.strip_prefix("nic").and_then(|n| n.parse().ok()) {
        return Some(n);
    }
    h.host
        .as_ref()?
        .nics
        .iter()
        .find(|n| n.netdev.as_deref() == Some(port))
        .map(|n| n.number)
}

/// Maps a finding's spans in the imported `.fab` (file `fab`) to the state files.
pub fn point_into_state(diag: &mut Diagnostic, fab: FileId, origins: &[Origin]) {
    let map = |span: &mut Span| {
        if span.file != fab {
            return;
        }
        let s = span.start as usize;
        if let Some(o) = origins
            .iter()
            .filter(|o| o.start <= s && s < o.end.max(o.start + 1))
            .min_by_key(|o| o.end - o.start)
        {
            *span = o.from;
        }
    };
    let find = |span: Span| -> Option<&Origin> {
        if span.file != fab {
            return None;
        }
        let s = span.start as usize;
        origins
            .iter()
            .filter(|o| o.start <= s && s < o.end.max(o.start + 1))
            .min_by_key(|o| o.end - o.start)
    };
    // A finding about one device's override points at that device's state, not at the
    // fabric-wide value it is judged against (which came from another switch).
    let primary_fabric = find(diag.primary.span).is_some_and(|o| !o.device);
    if primary_fabric
        && let Some(i) = diag
            .secondary
            .iter()
            .position(|l| find(l.span).is_some_and(|o| o.device))
    {
        let (p, s) = (diag.primary.span, diag.secondary[i].span);
        diag.primary.span = s;
        diag.secondary[i].span = p;
    }
    map(&mut diag.primary.span);
    for l in &mut diag.secondary {
        map(&mut l.span);
    }
}
