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
//!   fill levels of what one queue may hold, `lower::vocab::junos_fill_bytes`; EOS and Cumulus:
//!   bytes), and whether marking is on;
//! * `scheduling`: strict or the ETS weight of each class's queue.
//!
//! A difference within one unit of the device (a threshold rounded to a cell, a kbyte or a
//! fill level) is the rounding the target cannot avoid, kept with both numbers
//! (`within_unit`); anything else is a difference fabricc could avoid. Per-port differences
//! are grouped: one per device, property and pair of values, with the ports it holds for.
//!
//! Cost: one parse per switch file; the comparison is linear in the ports.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::deployed::{Sched, Switch};
use crate::lower::context::{Scheduling, SwitchContext, SwitchOs};
use crate::render::{Artifact, ArtifactKind};
use crate::verify::{cli, json, nvue};

/// One difference between the proven model and what a switch file says, over `ports`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    pub device: String,
    /// `pfc`, `mtu`, `dscp`, `ecn`, `scheduling`, or `parse` (the file could not be read).
    pub property: &'static str,
    /// What it is about (`queue 3 min`, `DSCP 26`); empty for a port-wide value.
    pub what: String,
    pub proven: String,
    pub written: String,
    /// The rounding of the device's unit, not a mistake.
    pub within_unit: bool,
    /// How many ports, and the first few of them.
    pub count: usize,
    pub ports: Vec<String>,
}

/// What a build's read-back found: `build --format json`'s `readback`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Readback {
    /// Switch files read back.
    pub files: usize,
    /// Devices whose read-back equals the proven model (rounding within one unit included).
    pub equal: usize,
    pub differences: Vec<Difference>,
}

/// How many ports a difference names (the count has them all).
const NAMED_PORTS: usize = 8;

/// Reads back the switch files of `artifacts` against the switches the checks proved.
pub fn readback(switches: &[SwitchContext], artifacts: &[Artifact]) -> Readback {
    let mut by_device: BTreeMap<&str, Vec<Artifact>> = BTreeMap::new();
    for a in artifacts.iter().filter(|a| a.kind == ArtifactKind::Switch) {
        by_device
            .entry(a.device.as_str())
            .or_default()
            .push(a.clone());
    }
    let mut out = Readback::default();
    for ctx in switches {
        let Some(files) = by_device.get(ctx.device.as_str()) else {
            continue;
        };
        out.files += files.len();
        let diffs = switch(ctx, files);
        if diffs.iter().all(|d| d.within_unit) {
            out.equal += 1;
        }
        out.differences.extend(diffs);
    }
    out
}

/// The text a device would run of a switch's files (the configuration files `verify` compares,
/// joined), as `verify::generated` picks them.
fn device_text(os: SwitchOs, files: &[Artifact]) -> String {
    let (_, used) = crate::verify::generated(os, files);
    let text = files
        .iter()
        .filter(|a| used.contains(&a.path))
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

/// One switch's files read back and compared.
pub fn switch(ctx: &SwitchContext, files: &[Artifact]) -> Vec<Difference> {
    let text = device_text(ctx.os, files);
    match read(ctx, &text) {
        Ok(sw) => compare(ctx, &sw),
        Err(e) => vec![Difference {
            device: ctx.device.clone(),
            property: "parse",
            what: String::new(),
            proven: String::new(),
            written: e,
            within_unit: false,
            count: 0,
            ports: Vec::new(),
        }],
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
    })
}

/// The bytes of one unit of an ECN threshold as `ctx`'s OS writes it on a queue.
fn ecn_unit(ctx: &SwitchContext, lossless: bool) -> u64 {
    match ctx.os {
        SwitchOs::Sonic => ctx.sonic.as_ref().and_then(|s| s.cell_bytes).unwrap_or(1),
        SwitchOs::Cumulus | SwitchOs::Eos => 1,
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

/// (property, what, proven, written, within one unit) → ports.
type Found = BTreeMap<(&'static str, String, String, String, bool), Vec<String>>;

fn compare(ctx: &SwitchContext, sw: &Switch) -> Vec<Difference> {
    let mut found: Found = BTreeMap::new();
    let mut note = |property: &'static str,
                    what: String,
                    proven: String,
                    written: String,
                    within: bool,
                    port: &str| {
        found
            .entry((property, what, proven, written, within))
            .or_default()
            .push(port.to_string());
    };
    // Junos and NX-OS classify into the forwarding class / qos-group, which is the queue.
    let by_queue = matches!(ctx.os, SwitchOs::Junos | SwitchOs::Nxos);
    for p in &ctx.ports {
        let Some(r) = sw.ports.get(&p.name) else {
            note(
                "port",
                String::new(),
                "configured".into(),
                "absent".into(),
                false,
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
                false,
                &p.name,
            );
        }
        if let Some((m, _)) = r.mtu
            && m != u64::from(p.mtu)
        {
            note(
                "mtu",
                String::new(),
                p.mtu.to_string(),
                m.to_string(),
                false,
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
                            false,
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
                    for (what, a, b) in [("min", e.min_bytes, w.min), ("max", e.max_bytes, w.max)] {
                        if a != b {
                            note(
                                "ecn",
                                format!("queue {} {what}", q.queue),
                                format!("{a} B"),
                                format!("{b} B"),
                                a.abs_diff(b) < unit,
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
                    false,
                    &p.name,
                ),
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
            let (proven, written, within) = match (c.scheduling, *s) {
                (Scheduling::Strict, Sched::Strict) => continue,
                (Scheduling::Ets { weight_percent }, Sched::Weight(w))
                    if u64::from(weight_percent) == w =>
                {
                    continue;
                }
                // Junos scales the ETS transmit rates to what the strict ones leave; import
                // scales them back to the roundest weights that give them.
                (Scheduling::Ets { weight_percent }, Sched::Weight(w)) => (
                    format!("{weight_percent}%"),
                    format!("{w}%"),
                    ctx.os == SwitchOs::Junos && u64::from(weight_percent).abs_diff(w) <= 1,
                ),
                (a, b) => (sched_text(a), format!("{b:?}").to_lowercase(), false),
            };
            note(
                "scheduling",
                format!("class `{}`", c.name),
                proven,
                written,
                within,
                &p.name,
            );
        }
    }
    found
        .into_iter()
        .map(
            |((property, what, proven, written, within_unit), ports)| Difference {
                device: ctx.device.clone(),
                property,
                what,
                proven,
                written,
                within_unit,
                count: ports.len(),
                ports: ports.into_iter().take(NAMED_PORTS).collect(),
            },
        )
        .collect()
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
