//! Read back (issue 34 item 2): every switch file a build renders is parsed with the readers
//! of `import` (the same that read a deployed device, through `verify`'s parsers), and the
//! device model they give is compared with the model the checks proved (`lower`'s
//! `SwitchContext`), port by port, on the properties every target writes:
//! * `pfc`: the lossless priorities of each port;
//! * `mtu`: each port's MTU;
//! * `dscp`: the class each of a class's DSCPs reaches (the traffic class; on Junos and NX-OS
//!   the forwarding class's / qos-group's queue);
//! * `ecn`: each queue's marking thresholds in bytes after the device's unit (SONiC: whole
//!   buffer cells; NX-OS: `kbytes` of 1,000 B, `lower::vocab::NXOS_KBYTE`; Junos: whole-percent
//!   fill levels of what one queue may hold, `lower::vocab::junos_fill_bytes`; Comware: whole
//!   cells, `lower::vocab::comware_cells`; EOS, Cumulus and VRP: bytes), and whether marking
//!   is on;
//! * `scheduling`: strict or the ETS weight of each class's queue;
//! * `headroom`: each lossless priority's `xoff` where the file writes it (SONiC's PG
//!   profiles, NX-OS's pause buffer less its threshold, VRP's `hdrm` in kbytes, Comware's
//!   `headroom` in cells);
//! * `ecn-above-pause`: the physics on the written values: a static pause threshold the file
//!   writes below the written ECN max of the same lossless queue (issue 34 N8).
//!
//! `readback/…` adds the watchdog, port speeds and the ECMP hash on every target, SONiC's
//! pools and PG profiles, and NX-OS's pause thresholds and buffers (`buffer::nxos`).
//!
//! A difference within one unit of the device (a threshold rounded to a cell, a kbyte or a
//! fill level) is the rounding the target cannot avoid (`kind: rounding`), kept with both
//! numbers; one beyond a unit that is exactly what the target's own rules make of the proven
//! value, which the renderer reports, is `forced` (Junos's high fill level at least 1 % above
//! the low one; EOS's largest MTU); anything else is a `mistake`, which fabricc could avoid. Per-port differences
//! are grouped: one per device, property and pair of values, with the ports it holds for.
//!
//! Cost: one parse per distinct switch configuration, on the threads that render them (a
//! build hands each device's files to `Reader::device` as they are rendered); which of a
//! switch's files hold its configuration is decided once per OS and set of file names; the
//! comparison is linear in the ports.

mod buffer;
mod consistency;
mod found;
mod host;
mod port;
mod watchdog;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use serde::Serialize;

pub use found::{Difference, Kind};

use super::deployed::{Sched, Switch};
use crate::lower::context::{HostContext, Scheduling, SwitchContext, SwitchOs};
use crate::render::{Artifact, ArtifactKind};
use crate::verify::{cli, json, nvue};
use found::Found;

/// What a build's read-back found: `build --format json`'s `readback`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Readback {
    /// Switch and host files read back (a host's settings and NCCL/HCCL environment).
    pub files: usize,
    /// Devices (switches and hosts) whose read-back equals the proven model (rounding and
    /// forced differences included).
    pub equal: usize,
    /// Switches whose OS has no import reader yet (`vrp`, `comware`): not read back, so neither
    /// equal nor different.
    pub unread: usize,
    pub differences: Vec<Difference>,
}

/// Whether `fabricc import` can read `os`'s configuration, so a build can read it back
/// (every switch OS since issue 35's VRP and Comware readers).
pub fn has_reader(os: SwitchOs) -> bool {
    matches!(
        os,
        SwitchOs::Sonic
            | SwitchOs::Cumulus
            | SwitchOs::Eos
            | SwitchOs::Nxos
            | SwitchOs::Junos
            | SwitchOs::Vrp
            | SwitchOs::Comware
    )
}

/// Reads back the switch files of `artifacts` against the switches the checks proved (a
/// build uses [`Reader`] device by device; tests read a whole build at once).
#[cfg(feature = "internals")]
pub fn readback(switches: &[SwitchContext], artifacts: &[Artifact]) -> Readback {
    use rayon::prelude::*;
    let mut by_device: BTreeMap<&str, Vec<Artifact>> = BTreeMap::new();
    for a in artifacts.iter().filter(|a| a.kind == ArtifactKind::Switch) {
        by_device
            .entry(a.device.as_str())
            .or_default()
            .push(a.clone());
    }
    let reader = Reader::new(switches);
    by_device
        .par_iter()
        .for_each(|(_, files)| reader.device(files));
    reader.finish()
}

/// [`readback`] with the hosts too: each host's settings and environment files against its
/// proven QoS.
#[cfg(feature = "internals")]
pub fn readback_all(lowered: &crate::lower::Lowered, artifacts: &[Artifact]) -> Readback {
    use rayon::prelude::*;
    let mut by_device: BTreeMap<&str, Vec<Artifact>> = BTreeMap::new();
    for a in artifacts
        .iter()
        .filter(|a| matches!(a.kind, ArtifactKind::Switch | ArtifactKind::Host))
    {
        by_device
            .entry(a.device.as_str())
            .or_default()
            .push(a.clone());
    }
    let reader = Reader::new(&lowered.switches).with_hosts(&lowered.hosts);
    by_device
        .par_iter()
        .for_each(|(_, files)| reader.device(files));
    reader.finish()
}

/// Read-back one device at a time, as a build renders them, so that no switch file is kept
/// after its device is read (a 98,304-GPU build held every switch file, 300 MB, until the
/// end). Memoised per distinct (configuration text without names, proven data): switches of
/// one role run the same QoS and differ only in their names and descriptions, so most are
/// read back once (issue 34 item 3). The result is in the switches' order, whatever order
/// the devices came in.
pub struct Reader<'a> {
    /// Device name → (position in the proven switches, its context).
    switches: BTreeMap<&'a str, (usize, &'a SwitchContext)>,
    /// Host name → (position in the proven hosts, its context); empty unless
    /// [`Reader::with_hosts`].
    hosts: BTreeMap<&'a str, (usize, &'a HostContext)>,
    host_list: &'a [HostContext],
    /// Which files hold the configuration, decided once per OS and set of file names
    /// (`verify::generated` parses every file to decide it).
    chosen: Mutex<BTreeMap<FileSet, BTreeSet<String>>>,
    memo: Mutex<BTreeMap<MemoKey, Memo>>,
    read: Mutex<ReadSoFar<'a>>,
}

/// What one distinct configuration read back to: its differences and, for the consistency
/// of switches and NICs, what it writes on its host-facing ports (a switch) or for its NICs
/// (a host).
#[derive(Clone, Default)]
struct Memo {
    diffs: Vec<Difference>,
    ports: Option<Arc<consistency::PortMaps>>,
    nics: Option<Arc<consistency::NicMaps>>,
}

/// An OS and the names of a switch's files.
type FileSet = (SwitchOs, Vec<String>);

#[derive(Default)]
struct ReadSoFar<'a> {
    files: usize,
    unread: usize,
    /// Position in the proven switches → the device's differences.
    devices: BTreeMap<usize, Vec<Difference>>,
    /// Position in the proven hosts → the host's differences.
    hosts: BTreeMap<usize, Vec<Difference>>,
    /// Switches facing hosts → what they write on those ports.
    ports: Vec<(&'a SwitchContext, Arc<consistency::PortMaps>)>,
    /// Position in the proven hosts → what the host writes for its NICs.
    nics: BTreeMap<usize, Arc<consistency::NicMaps>>,
}

impl<'a> Reader<'a> {
    pub fn new(switches: &'a [SwitchContext]) -> Reader<'a> {
        Reader {
            switches: switches
                .iter()
                .enumerate()
                .map(|(i, s)| (s.device.as_str(), (i, s)))
                .collect(),
            hosts: BTreeMap::new(),
            host_list: &[],
            chosen: Mutex::default(),
            memo: Mutex::default(),
            read: Mutex::default(),
        }
    }

    /// Reads the hosts' files back too (their settings and NCCL/HCCL environment).
    pub fn with_hosts(mut self, hosts: &'a [HostContext]) -> Reader<'a> {
        self.hosts = hosts
            .iter()
            .enumerate()
            .map(|(i, h)| (h.host.as_str(), (i, h)))
            .collect();
        self.host_list = hosts;
        self
    }

    /// Reads back one host's files, memoised as switches are.
    fn host(&self, files: &[Artifact]) {
        let files: Vec<&Artifact> = files
            .iter()
            .filter(|a| a.kind == ArtifactKind::Host)
            .collect();
        let Some(&(at, ctx)) = files
            .first()
            .and_then(|a| self.hosts.get(a.device.as_str()))
        else {
            return;
        };
        let read = host::read_files(&files);
        if read.is_empty() {
            return;
        }
        let key = MemoKey {
            host: true,
            text: Vec::new(),
            proven: host::memo_key(ctx, &read),
        };
        let known = self.memo.lock().ok().and_then(|m| m.get(&key).cloned());
        let mut memo = known.unwrap_or_else(|| {
            let (diffs, nics) = host::host(ctx, &read);
            let d = Memo {
                diffs,
                ports: None,
                nics,
            };
            if let Ok(mut m) = self.memo.lock() {
                m.insert(key, d.clone());
            }
            d
        });
        for d in &mut memo.diffs {
            d.device.clone_from(&ctx.host);
        }
        if let Ok(mut r) = self.read.lock() {
            r.files += read.len();
            r.hosts.insert(at, memo.diffs);
            if let Some(n) = memo.nics {
                r.nics.insert(at, n);
            }
        }
    }

    /// Reads back one device's files (every file the build wrote for it; the switch files
    /// among them are read). Call it once per device.
    pub fn device(&self, files: &[Artifact]) {
        if files.iter().any(|a| a.kind == ArtifactKind::Host) {
            return self.host(files);
        }
        let files: Vec<&Artifact> = files
            .iter()
            .filter(|a| a.kind == ArtifactKind::Switch)
            .collect();
        let Some(&(at, ctx)) = files
            .first()
            .and_then(|a| self.switches.get(a.device.as_str()))
        else {
            return;
        };
        if !has_reader(ctx.os) {
            if let Ok(mut r) = self.read.lock() {
                r.unread += 1;
            }
            return;
        }
        let names: Vec<String> = files
            .iter()
            .map(|a| file_name(&a.path).to_string())
            .collect();
        let cached = self
            .chosen
            .lock()
            .ok()
            .and_then(|c| c.get(&(ctx.os, names.clone())).cloned());
        let used = cached.unwrap_or_else(|| {
            let owned: Vec<Artifact> = files.iter().map(|a| (*a).clone()).collect();
            let used: BTreeSet<String> = crate::verify::generated(ctx.os, &owned)
                .1
                .iter()
                .map(|p| file_name(p).to_string())
                .collect();
            if let Ok(mut c) = self.chosen.lock() {
                c.insert((ctx.os, names), used.clone());
            }
            used
        });
        let config: Vec<&Artifact> = files
            .into_iter()
            .filter(|a| used.contains(file_name(&a.path)))
            .collect();
        let key = memo_key(ctx, &config);
        let known = self.memo.lock().ok().and_then(|m| m.get(&key).cloned());
        let mut memo = known.unwrap_or_else(|| {
            let (diffs, ports) = switch_and_ports(ctx, &config, !self.hosts.is_empty());
            let d = Memo {
                diffs,
                ports,
                nics: None,
            };
            if let Ok(mut m) = self.memo.lock() {
                m.insert(key, d.clone());
            }
            d
        });
        for d in &mut memo.diffs {
            d.device.clone_from(&ctx.device);
        }
        if let Ok(mut r) = self.read.lock() {
            r.files += config.len();
            r.devices.insert(at, memo.diffs);
            if let Some(p) = memo.ports {
                r.ports.push((ctx, p));
            }
        }
    }

    /// What the devices read so far add up to; the reader starts again empty.
    pub fn finish(&self) -> Readback {
        let read = self
            .read
            .lock()
            .map(|mut r| std::mem::take(&mut *r))
            .unwrap_or_default();
        let mut out = Readback {
            files: read.files,
            unread: read.unread,
            ..Readback::default()
        };
        // The consistency of the written switch and NIC maps, once every device is read.
        let mut hosts = read.hosts;
        let mut found = BTreeMap::new();
        for (ctx, ports) in &read.ports {
            consistency::check(
                ctx,
                ports,
                |peer| {
                    let &(at, h) = self.hosts.get(peer)?;
                    Some((at, h, read.nics.get(&at)?.as_ref()))
                },
                &mut found,
            );
        }
        for (at, f) in found {
            if let (Some(diffs), Some(h)) = (hosts.get_mut(&at), self.host_list.get(at)) {
                diffs.extend(found::differences(&h.host, f));
            }
        }
        for diffs in read.devices.into_values().chain(hosts.into_values()) {
            if diffs.iter().all(|d| d.kind != Kind::Mistake) {
                out.equal += 1;
            }
            out.differences.extend(diffs);
        }
        out
    }
}

/// A hash of what a switch's read-back depends on: its configuration text without the lines
/// that carry names (descriptions, the device's name, SONiC's neighbour names) and
/// the proven values the comparison reads. Two switches with the same key have the same
/// differences.
fn memo_key(ctx: &SwitchContext, config: &[&Artifact]) -> MemoKey {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let device = ctx.device.as_str();
    let mut text = Vec::with_capacity(config.iter().map(|a| a.contents.len()).sum::<usize>() + 16);
    text.extend_from_slice(ctx.os.as_str().as_bytes());
    text.push(END);
    for a in config {
        unnamed_lines(&a.contents, device, &mut text);
        text.push(END);
    }
    // The proven values the comparisons read, field by field (no text formatting: this runs
    // for every switch of a build).
    for p in &ctx.ports {
        (
            &p.name,
            p.mtu,
            p.speed_mbps,
            p.pfc_watchdog,
            &p.lossless_priorities,
        )
            .hash(&mut h);
        for q in &p.ecn {
            q.queue.hash(&mut h);
            q.ecn
                .map(|e| (e.min_bytes, e.max_bytes, e.probability_percent))
                .hash(&mut h);
        }
        for x in &p.headroom {
            (x.priority, x.xoff_bytes, x.xon_bytes, x.size_bytes, x.fixed).hash(&mut h);
        }
        match p.pause_threshold {
            crate::lower::context::PauseThreshold::Static { bytes } => (0u8, bytes).hash(&mut h),
            crate::lower::context::PauseThreshold::Dynamic { log2_alpha } => {
                (1u8, log2_alpha).hash(&mut h);
            }
        }
    }
    // Streamed into the hash rather than formatted into a String first: the plan's text is
    // the same for most switches, and only its hash is wanted.
    let _ = std::fmt::Write::write_fmt(
        &mut HashWriter(&mut h),
        format_args!(
            "{:?}{:?}{:?}{:?}{:?}{:?}",
            ctx.qos,
            ctx.buffer,
            ctx.sonic.as_ref().map(|s| (s.cell_bytes, &s.pools, s.asic)),
            ctx.watchdog,
            ctx.hash_fields,
            (ctx.release, ctx.platform.as_ref().map(|p| &p.name)),
        ),
    );
    MemoKey {
        host: false,
        text,
        proven: h.finish(),
    }
}

/// What a device's read-back depends on (two devices with equal keys have the same
/// differences): a switch's configuration text without its names, kept whole rather than
/// hashed (copying and comparing it costs a fraction of hashing it), and a hash of the proven
/// values the comparison reads; a host's hash ([`host::memo_key`]).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct MemoKey {
    host: bool,
    text: Vec<u8>,
    proven: u64,
}

/// Ends a line or a file in a memo key's text; never a byte of UTF-8 text.
const END: u8 = 0xff;

/// Formatted text fed straight to a hasher.
struct HashWriter<'h, H>(&'h mut H);

impl<H: std::hash::Hasher> std::fmt::Write for HashWriter<'_, H> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// Appends the lines of a configuration file to `out`, each ended by [`END`], without the
/// ones that carry names: descriptions (peer names), the device's name, SONiC's
/// DEVICE_NEIGHBOR `name`s. No line the comparison reads holds one, except a JSON row that
/// holds a description beside other fields (SONiC's PORT row: the speed and MTU the
/// comparison reads), which keeps them: only the description's value goes (the parts before
/// and after it, each ended by [`END`]).
///
/// Each pattern is searched once through the whole text, not once per line (a leaf's
/// fragment has thousands of lines; a searcher per line cost more than the rest).
fn unnamed_lines(text: &str, device: &str, out: &mut Vec<u8>) {
    const DESCRIPTION: &str = "description";
    const NAME: &str = "\"name\"";
    let mut keep = |parts: &[&str]| {
        for part in parts {
            out.extend_from_slice(part.as_bytes());
            out.push(END);
        }
    };
    // A pattern that could span lines, or match everywhere, is checked line by line.
    if device.is_empty() || device.contains(['\n', '\r']) {
        for line in text.lines() {
            if let Some(at) = line.find(DESCRIPTION) {
                if let Some((before, after)) = json_description(line, at) {
                    keep(&[before, after]);
                }
                continue;
            }
            if !(line.contains(device) || line.contains(NAME)) {
                keep(&[line]);
            }
        }
        return;
    }
    let mut description = Occurrences::new(text, DESCRIPTION);
    let mut named = Occurrences::new(text, device);
    let mut quoted_name = Occurrences::new(text, NAME);
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let line_start = start;
        start += piece.len();
        // As `str::lines`: without its `\n`, then without a `\r` before it.
        let line = piece
            .strip_suffix('\n')
            .map_or(piece, |l| l.strip_suffix('\r').unwrap_or(l));
        let line_end = line_start + line.len();
        if let Some(at) = description.first_in(line_start, line_end) {
            if let Some((before, after)) = json_description(line, at - line_start) {
                keep(&[before, after]);
            }
            continue;
        }
        if named.first_in(line_start, line_end).is_none()
            && quoted_name.first_in(line_start, line_end).is_none()
        {
            keep(&[line]);
        }
    }
}

/// The occurrences of a pattern without a line break in a text, in order, asked for line by
/// line in order.
struct Occurrences<'t> {
    /// Non-overlapping, as `str::match_indices`; vectorised, which the whole-text scans of
    /// every switch's files want.
    found: memchr::memmem::FindIter<'t, 't>,
    next: Option<usize>,
    len: usize,
}

impl<'t> Occurrences<'t> {
    fn new(text: &'t str, pattern: &'t str) -> Self {
        let mut found = memchr::memmem::find_iter(text.as_bytes(), pattern.as_bytes());
        let next = found.next();
        Occurrences {
            found,
            next,
            len: pattern.len(),
        }
    }

    /// The first occurrence wholly within `start..end`, given that no later call asks about
    /// text before `start`. Occurrences do not overlap line breaks, so the non-overlapping
    /// matches of the whole text hold the first one of every line.
    fn first_in(&mut self, start: usize, end: usize) -> Option<usize> {
        while let Some(at) = self.next {
            if at >= start {
                return (at + self.len <= end).then_some(at);
            }
            self.next = self.found.next();
        }
        None
    }
}

/// A JSON line with a `"description": "…"` member (`description` found at byte `at`),
/// without that member's value: the parts before and after it. `None` for any other line.
fn json_description(line: &str, at: usize) -> Option<(&str, &str)> {
    const KEY: &str = "description\": \"";
    if !(at > 0 && line[..at].ends_with('"') && line[at..].starts_with(KEY)) {
        return None;
    }
    let start = at + KEY.len();
    let bytes = line.as_bytes();
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some((&line[..start], &line[i..])),
            _ => i += 1,
        }
    }
    None
}

/// The last part of an output path (`switches/leaf1/qos.cfg` → `qos.cfg`).
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The text a device would run of a switch's configuration files, joined.
fn device_text(os: SwitchOs, files: &[&Artifact]) -> String {
    let text = files
        .iter()
        .map(|a| a.contents.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if os == SwitchOs::Cumulus {
        without_unset_items(&text)
    } else {
        text
    }
}

/// An NVUE patch as the revision it leaves shows it: without its `- unset:` items.
fn without_unset_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("- ") {
            skipping = line.trim_end() == "- unset:";
        }
        if !skipping {
            out.push_str(line);
        }
    }
    out
}

/// One switch's configuration files read back and compared.
#[cfg(feature = "internals")]
pub fn switch(ctx: &SwitchContext, files: &[&Artifact]) -> Vec<Difference> {
    switch_and_ports(ctx, files, false).0
}

/// [`switch`], and what the file writes on its ports where `hosts` (for the consistency with
/// the NICs; `None` without hosts or where the file is unreadable).
fn switch_and_ports(
    ctx: &SwitchContext,
    files: &[&Artifact],
    hosts: bool,
) -> (Vec<Difference>, Option<Arc<consistency::PortMaps>>) {
    let text = device_text(ctx.os, files);
    match read(ctx, &text) {
        Ok(sw) => {
            let ports = hosts.then(|| consistency::port_maps(ctx, &sw));
            (compare(ctx, &sw), ports)
        }
        Err(e) => (
            vec![Difference {
                device: ctx.device.clone(),
                property: "parse",
                what: String::new(),
                proven: String::new(),
                written: e,
                kind: Kind::Mistake,
                count: 0,
                ports: Vec::new(),
            }],
            None,
        ),
    }
}

/// The device model of a switch's text, by the import reader of its OS.
fn read(ctx: &SwitchContext, text: &str) -> Result<Switch, String> {
    let mut notes = Vec::new();
    Ok(match ctx.os {
        SwitchOs::Sonic => {
            let root = json::parse(text).map_err(|e| format!("not JSON: {}", e.message))?;
            super::sonic::read(&root, 0, &mut notes)
        }
        SwitchOs::Cumulus => {
            let c = nvue::canon(text).map_err(|e| e.message)?;
            super::cumulus::read(text, &c, 0, &mut notes).0
        }
        SwitchOs::Eos => {
            super::eos::read(text, &cli::canon(text, cli::Dialect::Eos), 0, &mut notes)
        }
        SwitchOs::Nxos => super::nxos::read(&cli::canon(text, cli::Dialect::Nxos), 0, &mut notes),
        SwitchOs::Junos => {
            let c = crate::verify::junos::canon(text).map_err(|e| e.message)?;
            let base = super::junos::FillBase {
                lossless: ctx.buffer.lossless_queue_buffer_bytes,
                lossy: crate::lower::vocab::junos_lossy_queue_bytes(&ctx.buffer),
            };
            super::junos::read_with_base(&c, 0, &mut notes, Some(base))
        }
        SwitchOs::Vrp => super::vrp::read(text, &crate::verify::vrp::canon(text), 0, &mut notes),
        SwitchOs::Comware => super::comware::read_with_cell(
            text,
            &cli::canon(text, cli::Dialect::Comware),
            0,
            &mut notes,
            crate::lower::vocab::comware_cell(ctx),
        ),
    })
}

/// The bytes of one unit of an ECN threshold as `ctx`'s OS writes it on a queue.
fn ecn_unit(ctx: &SwitchContext, lossless: bool) -> u64 {
    match ctx.os {
        SwitchOs::Sonic => ctx.sonic.as_ref().and_then(|s| s.cell_bytes).unwrap_or(1),
        SwitchOs::Cumulus | SwitchOs::Eos | SwitchOs::Vrp => 1,
        SwitchOs::Comware => crate::lower::vocab::comware_cell(ctx),
        SwitchOs::Nxos => crate::lower::vocab::NXOS_KBYTE,
        SwitchOs::Junos => {
            let base = if lossless {
                ctx.buffer.lossless_queue_buffer_bytes
            } else {
                crate::lower::vocab::junos_lossy_queue_bytes(&ctx.buffer)
            };
            (base / 100).max(1)
        }
    }
}

/// The ECN thresholds (min, max) the target's own rules make of `e` where they go beyond
/// one unit: Junos's fill levels, the low one at least 1 % and the high one above it
/// (`lower::vocab::junos_levels`, the renderer's conversion; a stated fill level is exact).
fn forced_ecn(
    ctx: &SwitchContext,
    lossless: bool,
    e: crate::lower::context::Ecn,
) -> (Option<u64>, Option<u64>) {
    if ctx.os != SwitchOs::Junos {
        return (None, None);
    }
    let base = if lossless {
        ctx.buffer.lossless_queue_buffer_bytes
    } else {
        crate::lower::vocab::junos_lossy_queue_bytes(&ctx.buffer)
    };
    // A fill level the fabric states is written as it is and reads back to the same bytes
    // (issue 34); only a conversion from bytes can differ.
    let (lo, hi) = crate::lower::vocab::junos_levels(&e, base);
    (
        Some(crate::lower::vocab::junos_fill_bytes(lo, base)),
        Some(crate::lower::vocab::junos_fill_bytes(hi, base)),
    )
}

fn compare(ctx: &SwitchContext, sw: &Switch) -> Vec<Difference> {
    let mut found: Found = BTreeMap::new();
    let mut note = |property: &'static str,
                    what: String,
                    proven: String,
                    written: String,
                    kind: Kind,
                    port: &str| {
        found
            .entry((property, what, proven, written, kind))
            .or_default()
            .push(port.to_string());
    };
    // Junos and NX-OS classify into the forwarding class / qos-group, VRP into the PHB and
    // Comware into the local precedence: each is the queue.
    let by_queue = matches!(
        ctx.os,
        SwitchOs::Junos | SwitchOs::Nxos | SwitchOs::Vrp | SwitchOs::Comware
    );
    for p in &ctx.ports {
        let Some(r) = sw.ports.get(&p.name) else {
            note(
                "port",
                String::new(),
                "configured".into(),
                "absent".into(),
                Kind::Mistake,
                &p.name,
            );
            continue;
        };
        let proven: BTreeSet<u8> = p.lossless_priorities.iter().copied().collect();
        let written: BTreeSet<u8> = r.pfc.as_ref().map(|x| x.0.clone()).unwrap_or_default();
        if proven != written {
            note(
                "pfc",
                String::new(),
                list(&proven),
                list(&written),
                Kind::Mistake,
                &p.name,
            );
        }
        if let Some((m, _)) = r.mtu
            && m != u64::from(p.mtu)
        {
            // EOS interfaces take at most 9214 (`render::eos::MAX_MTU`; the renderer notes
            // it): a limit of the target, not a mistake.
            let limit = ctx.os == SwitchOs::Eos
                && m == u64::from(crate::render::eos::MAX_MTU)
                && p.mtu > crate::render::eos::MAX_MTU;
            note(
                "mtu",
                String::new(),
                p.mtu.to_string(),
                m.to_string(),
                if limit { Kind::Forced } else { Kind::Mistake },
                &p.name,
            );
        }
        if let Some((map, _)) = &r.dscp {
            for c in &ctx.qos.classes {
                let want = if by_queue { c.queue } else { c.tc };
                for &d in &c.dscps {
                    let got = map.get(&d).copied();
                    if got != Some(want) {
                        note(
                            "dscp",
                            format!("DSCP {d}"),
                            format!("class `{}` ({want})", c.name),
                            got.map_or("none".into(), |g| g.to_string()),
                            Kind::Mistake,
                            &p.name,
                        );
                    }
                }
            }
        }
        for q in &p.ecn {
            let lossless = ctx
                .qos
                .classes
                .iter()
                .any(|c| c.queue == q.queue && c.lossless);
            let key = if ctx.os == SwitchOs::Cumulus {
                ctx.qos
                    .classes
                    .iter()
                    .find(|c| c.queue == q.queue)
                    .map_or(q.queue, |c| c.tc)
            } else {
                q.queue
            };
            let w = r.wred.get(&key).map(|x| x.0).filter(|w| w.ecn);
            match (q.ecn, w) {
                (None, None) => {}
                (Some(e), Some(w)) => {
                    let unit = ecn_unit(ctx, lossless);
                    let forced = forced_ecn(ctx, lossless, e);
                    for (what, a, b, f) in [
                        ("min", e.min_bytes, w.min, forced.0),
                        ("max", e.max_bytes, w.max, forced.1),
                    ] {
                        if a != b {
                            let kind = if a.abs_diff(b) < unit {
                                Kind::Rounding
                            } else if Some(b) == f {
                                Kind::Forced
                            } else {
                                Kind::Mistake
                            };
                            note(
                                "ecn",
                                format!("queue {} {what}", q.queue),
                                format!("{a} B"),
                                format!("{b} B"),
                                kind,
                                &p.name,
                            );
                        }
                    }
                }
                (a, b) => note(
                    "ecn",
                    format!("queue {}", q.queue),
                    if a.is_some() { "on" } else { "off" }.into(),
                    if b.is_some() { "on" } else { "off" }.into(),
                    Kind::Mistake,
                    &p.name,
                ),
            }
        }
        // Headroom where the file writes it (SONiC's PG profile `xoff`, NX-OS's pause buffer
        // less its threshold), and the physics on the written values: a static pause threshold
        // below the written ECN max of the lossless queue pauses before ECN marks fully
        // (docs/physics.md, "ECN must mark before PFC pauses"; issue 34 N8).
        for h in &p.headroom {
            let Some(pg) = r.pg.get(&h.priority) else {
                continue;
            };
            if let Some(x) = pg.xoff
                && x != h.xoff_bytes
            {
                let unit = headroom_unit(ctx);
                note(
                    "headroom",
                    format!("priority {} xoff", h.priority),
                    format!("{} B", h.xoff_bytes),
                    format!("{x} B"),
                    if x.abs_diff(h.xoff_bytes) < unit {
                        Kind::Rounding
                    } else {
                        Kind::Mistake
                    },
                    &p.name,
                );
            }
            // A static threshold the model states itself was judged by the checks (FAB304,
            // FAB305); only one the renderer chose is judged here.
            let stated = matches!(p.pause_threshold, crate::lower::context::PauseThreshold::Static { bytes } if Some(super::deployed::Threshold::Static(bytes)) == pg.threshold);
            if let Some(super::deployed::Threshold::Static(t)) = pg.threshold
                && !stated
            {
                let queues = ctx
                    .qos
                    .classes
                    .iter()
                    .filter(|c| c.lossless && c.priority == h.priority)
                    .map(|c| c.queue);
                for q in queues {
                    if let Some((w, _)) = r.wred.get(&q).filter(|w| w.0.ecn)
                        && w.max > t
                    {
                        // NX-OS's rule caps the threshold at the model's own worst-case pause
                        // point; below the ECN max, `check` reports that (FAB312).
                        let rule = ctx.os == SwitchOs::Nxos
                            && t == crate::lower::vocab::nxos_pause_threshold(ctx, p, h);
                        note(
                            "ecn-above-pause",
                            format!("queue {q}"),
                            format!("a pause threshold above the ECN max, {} B", w.max),
                            format!("pause threshold {t} B"),
                            if rule { Kind::Forced } else { Kind::Mistake },
                            &p.name,
                        );
                    }
                }
            }
        }
        for c in &ctx.qos.classes {
            let key = if ctx.os == SwitchOs::Cumulus {
                c.tc
            } else {
                c.queue
            };
            let Some((s, _)) = r.sched.get(&key) else {
                continue;
            };
            let (proven, written, kind) = match (c.scheduling, *s) {
                (Scheduling::Strict, Sched::Strict) => continue,
                (Scheduling::Ets { weight_percent }, Sched::Weight(w))
                    if u64::from(weight_percent) == w =>
                {
                    continue;
                }
                // Junos scales the ETS transmit rates to what the strict ones leave, and
                // Comware's WRR weights are relative (the percents over their common
                // divisor): import turns them back into whole percents, within one.
                (Scheduling::Ets { weight_percent }, Sched::Weight(w)) => (
                    format!("{weight_percent}%"),
                    format!("{w}%"),
                    if matches!(ctx.os, SwitchOs::Junos | SwitchOs::Comware)
                        && u64::from(weight_percent).abs_diff(w) <= 1
                    {
                        Kind::Rounding
                    } else if ctx.os == SwitchOs::Vrp && weight_percent == 0 && w == 1 {
                        // `qos queue Q drr weight` takes 1 to 100: a share below 0.5 %
                        // is written as the smallest weight.
                        Kind::Forced
                    } else {
                        Kind::Mistake
                    },
                ),
                (a, b) => (
                    sched_text(a),
                    format!("{b:?}").to_lowercase(),
                    Kind::Mistake,
                ),
            };
            note(
                "scheduling",
                format!("class `{}`", c.name),
                proven,
                written,
                kind,
                &p.name,
            );
        }
    }
    // The properties of `readback/…` (issue 34 item 2, the rest).
    for p in &ctx.ports {
        watchdog::compare(ctx, p, sw, &mut found);
        port::speed(p, sw, &mut found);
    }
    buffer::compare(ctx, sw, &mut found);
    buffer::nxos(ctx, sw, &mut found);
    port::hash(ctx, sw, &mut found);
    found::differences(&ctx.device, found)
}

/// The bytes of one unit of a headroom as `ctx`'s OS writes it: SONiC's cell, VRP's kbyte
/// (`render::vrp::KBYTE`, rounded up), Comware's cell (`lower::vocab::comware_cells`, rounded
/// up); bytes elsewhere.
fn headroom_unit(ctx: &SwitchContext) -> u64 {
    match ctx.os {
        SwitchOs::Sonic => ctx.sonic.as_ref().and_then(|s| s.cell_bytes).unwrap_or(1),
        SwitchOs::Vrp => crate::render::vrp::KBYTE,
        SwitchOs::Comware => crate::lower::vocab::comware_cell(ctx),
        SwitchOs::Cumulus | SwitchOs::Eos | SwitchOs::Nxos | SwitchOs::Junos => 1,
    }
}

fn sched_text(s: Scheduling) -> String {
    match s {
        Scheduling::Strict => "strict".into(),
        Scheduling::Ets { weight_percent } => format!("{weight_percent}%"),
    }
}

fn list(s: &BTreeSet<u8>) -> String {
    if s.is_empty() {
        return "none".into();
    }
    s.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines kept one by one, as the memo key did before the single scan.
    fn per_line(text: &str, device: &str) -> Vec<u8> {
        let mut out = Vec::new();
        for line in text.lines() {
            let parts: Vec<&str> = if let Some(at) = line.find("description") {
                match json_description(line, at) {
                    Some((before, after)) => vec![before, after],
                    None => continue,
                }
            } else if line.contains(device) || line.contains("\"name\"") {
                continue;
            } else {
                vec![line]
            };
            for p in parts {
                out.extend_from_slice(p.as_bytes());
                out.push(END);
            }
        }
        out
    }

    fn scanned(text: &str, device: &str) -> Vec<u8> {
        let mut out = Vec::new();
        unnamed_lines(text, device, &mut out);
        out
    }

    #[test]
    fn one_scan_keeps_the_lines_one_by_one_would() {
        let texts = [
            "",
            "a",
            "a\n",
            "\n\n\n",
            "x\r\ny\r\n",
            "x\ry\n\r",
            "    \"Ethernet0\": {\"description\": \"gpu1 nic1\", \"mtu\": \"9216\"},\n    \"Ethernet4\": {\"mtu\": \"9216\"},\n",
            "description descriptiondescription\nleaf1 leaf1\n\"name\": \"leaf1\"\nleaf10\n",
            "hostname leaf1\r\n  description \"leaf1 to spine1\"\n\"name\"\nlast line leaf",
            "descriptio\nn leaf\n1\n\"na\nme\"",
            "leaf1leaf1leaf1\n\"name\"\"name\"\n{\"description\": \"a\\\"b\", \"x\": 1}",
        ];
        for text in texts {
            for device in ["leaf1", "leaf", "l", "1", "x", "description", ""] {
                assert_eq!(
                    scanned(text, device),
                    per_line(text, device),
                    "{text:?} {device:?}"
                );
            }
        }
    }
}
