//! `report.md` and `topology.dot`: what was built and why it is safe, for people; with the
//! cabling plan (`cabling.rs`).
//!
//! In: the fabric, the check's findings and facts, the lowered contexts and the generated
//! files. Out: three `Artifact`s (kind `report`). Big fabrics stay readable: tables list
//! distinct rows with counts instead of one row per port, and the graph draws switches only,
//! with the hosts of each leaf collapsed into one node.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::analysis::Facts;
use crate::diagnostic::{Category, Diagnostic, Severity};
use crate::model::{Fabric, SwitchId};
use crate::render::preflight::is_build_finding;
mod diagrams;

use diagrams::{gbps, mermaid, topology_dot};

use crate::render::{
    Artifact, ArtifactKind, HostContext, PauseThreshold, PortContext, SonicBufferModel,
    SwitchContext, SwitchOs,
};

/// Above this many rows a per-switch table is summarised into distinct rows.
const MAX_TABLE_ROWS: usize = 64;

/// What a build generated per target, for the report: devices, files and bytes. Generation
/// counts them; the report is what reads them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TargetTotals {
    pub devices: usize,
    pub files: usize,
    pub bytes: u64,
}

pub struct ReportInput<'a> {
    pub fabric: &'a Fabric,
    pub diagnostics: &'a [Diagnostic],
    /// FAB904–FAB910: what the targets could not say as the model says it.
    pub build_findings: &'a [Diagnostic],
    pub facts: Option<&'a Facts>,
    pub switches: &'a [&'a SwitchContext],
    pub hosts: &'a [HostContext],
    /// What the build generated per target (without the report files).
    pub totals: &'a BTreeMap<String, TargetTotals>,
}

fn artifact(path: &str, fabric: &Fabric, contents: String) -> Artifact {
    Artifact {
        path: path.to_string(),
        contents,
        device: fabric.name.clone(),
        kind: ArtifactKind::Report,
        target: "report".to_string(),
    }
}

/// `report.md`, `topology.dot` and the cabling plan `cabling.csv`.
pub fn reports(input: &ReportInput<'_>) -> Vec<Artifact> {
    let ((report, topology), cabling) = rayon::join(
        || {
            rayon::join(
                || report_md(input),
                || topology_dot(input.fabric, input.diagnostics),
            )
        },
        || super::cabling::csv(input.fabric),
    );
    vec![
        artifact("cabling.csv", input.fabric, cabling),
        artifact("report.md", input.fabric, report),
        artifact("topology.dot", input.fabric, topology),
    ]
}

/// (OS, speed, cable, xoff, xon, size, formula, pause threshold, written): one distinct
/// headroom row.
type HeadroomKey = (
    String,
    u32,
    u32,
    u64,
    u64,
    u64,
    &'static str,
    String,
    &'static str,
);

/// Whether a target's file states a port's headroom, or the switch sizes its own.
fn headroom_written(s: &SwitchContext, i: usize, p: &PortContext) -> &'static str {
    match s.os {
        SwitchOs::Sonic => {
            let plan = s.sonic.as_ref();
            let sp = plan.and_then(|plan| plan.ports.get(i));
            match (plan.map(|p| p.buffer_model), sp) {
                (Some(SonicBufferModel::Dynamic), Some(sp)) if sp.lossless_profile.is_some() => {
                    "yes: headroom override (FAB955)"
                }
                (Some(SonicBufferModel::Dynamic), _) => "no: SONiC computes it (dynamic model)",
                _ => "yes",
            }
        }
        SwitchOs::Eos
            if crate::render::eos::QueueMode::of(s) == crate::render::eos::QueueMode::Xgs =>
        {
            "MMU profile: the largest port's"
        }
        SwitchOs::Nxos
            if p.cable_m > crate::render::nxos::PAUSE_BUFFER_CABLE_M
                || matches!(p.pause_threshold, PauseThreshold::Static { .. }) =>
        {
            "yes (pause buffer)"
        }
        SwitchOs::Nxos | SwitchOs::Eos => "no: platform sizes it",
        SwitchOs::Cumulus => "cable length; switchd sizes it",
        SwitchOs::Junos => "cable length + headroom partition",
        SwitchOs::Vrp
            if crate::render::vrp::Family::of(s) == crate::render::vrp::Family::Ce8855 =>
        {
            "yes (`dcb pfc buffer … hdrm`, kbytes)"
        }
        SwitchOs::Vrp => "no: platform sizes it",
        SwitchOs::Comware => "yes (`priority-flow-control dot1p N headroom`, cells)",
    }
}

fn bytes(b: u64) -> String {
    // Thousands separators: 1234567 → 1,234,567.
    let s = b.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Markdown table cell text: no pipes, no newlines.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// SONiC switches: platform, SKU and buffer model, the cable lengths written, how to apply.
fn sonic_section(o: &mut String, switches: &[&SwitchContext]) {
    type Key = (String, String, &'static str, &'static str, String);
    let mut groups: BTreeMap<Key, Vec<&str>> = BTreeMap::new();
    for s in switches {
        let Some(plan) = &s.sonic else { continue };
        let mut cables: BTreeSet<String> = BTreeSet::new();
        for (p, sp) in s.ports.iter().zip(&plan.ports) {
            if !p.lossless_priorities.is_empty() {
                let asked = format!("{}m", p.cable_m);
                cables.insert(if sp.cable == asked {
                    asked
                } else {
                    format!("{asked} → {}", sp.cable)
                });
            }
        }
        groups
            .entry((
                plan.platform.clone(),
                plan.hwsku.clone(),
                plan.asic.as_str(),
                plan.buffer_model.as_str(),
                cables.into_iter().collect::<Vec<_>>().join(", "),
            ))
            .or_default()
            .push(&s.device);
    }
    if groups.is_empty() {
        return;
    }
    let _ = writeln!(o, "### SONiC switches\n");
    let _ = writeln!(
        o,
        "Each folder holds `config_db.fragment.json` (the CONFIG_DB entries fabricc owns) and \
         `fabricc-device.json` (what the apply program checks: platform, SKU, fabric ports); \
         `programs/sonic/apply.sh` (`--dry-run`, `--yes`, `--check`), one for every switch, \
         applies them, live where SONiC allows, and the README next to it says how. In the dynamic buffer model the pool sizes above are what \
         the switch's `buffer_pool_mellanox.lua` will compute (every port of the SKU taken as \
         admin-up); in the traditional model they are written, sized the same way.\n"
    );
    let _ = writeln!(
        o,
        "| switches | platform | SKU | ASIC | buffer model | CABLE_LENGTH written |"
    );
    let _ = writeln!(o, "|---|---|---|---|---|---|");
    for ((platform, sku, asic, model, cables), devices) in &groups {
        let mut names: Vec<String> = devices.iter().take(4).map(|d| format!("`{d}`")).collect();
        if devices.len() > 4 {
            names.push(format!("{} more", devices.len() - 4));
        }
        let _ = writeln!(
            o,
            "| {} | `{platform}` | `{sku}` | {asic} | {model} | {} |",
            names.join(", "),
            if cables.is_empty() {
                "-"
            } else {
                cables.as_str()
            }
        );
    }
    o.push('\n');
}

fn report_md(input: &ReportInput<'_>) -> String {
    let f = input.fabric;
    let mut o = String::new();
    let _ = writeln!(o, "# fabricc build report: `{}`\n", cell(&f.name));
    let _ = writeln!(
        o,
        "Generated by `fabricc build` from the checked model. Every number below is fabricc's \
         model of the fabric; the column `written` of the headroom table says where a switch \
         file states it and where the switch sizes its own, and the section \
         \"What the switch files do not say\" lists every difference (FAB904–FAB910).\n"
    );

    topology(&mut o, input);
    generated_files(&mut o, input);
    oversubscription(&mut o, input);
    headroom(&mut o, input);
    sonic_section(&mut o, input.switches);
    // The queue plan only when a class leaves the queue = traffic class = priority default.
    queue_plan(&mut o, input.switches);
    ecn_marking(&mut o, input);
    build_findings(&mut o, input);
    verdicts(&mut o, input);
    o
}

/// `## Topology`: counts of devices and links, NIC cards and planes, and the tiers.
fn topology(o: &mut String, input: &ReportInput<'_>) {
    let f = input.fabric;
    let nics: usize = f.hosts.iter().map(|h| h.fabric_ports()).sum();
    let _ = writeln!(o, "## Topology\n");
    let _ = writeln!(
        o,
        "| switches | hosts | host NICs | links | MTU | RoCE MTU |"
    );
    let _ = writeln!(o, "|---:|---:|---:|---:|---:|---:|");
    let _ = writeln!(
        o,
        "| {} | {} | {} | {} | {} | {} |\n",
        f.switches.len(),
        f.hosts.len(),
        nics,
        f.links.len(),
        f.mtu.value.get(),
        f.roce_mtu.value.get()
    );
    // Multi-port NICs and planes (issue 18): the column above counts cabled ports.
    let cards: usize = f.hosts.iter().map(|h| h.fabric_cards()).sum();
    if cards != nics {
        let _ = writeln!(
            o,
            "Host NICs are counted by port: {nics} ports on {cards} NICs.\n"
        );
    }
    chassis_note(o, f);
    let off = crate::model::off_fabric_note(f);
    if !off.is_empty() {
        let _ = writeln!(o, "{off}\n");
    }
    let planes = f
        .hosts
        .iter()
        .flat_map(|h| h.nics.iter().map(|n| n.plane))
        .max()
        .unwrap_or(0);
    if planes > 1 {
        let _ = writeln!(
            o,
            "The tiers are built as {planes} independent planes (`planes {planes}`): port k of every NIC is in plane k, no link joins two planes, and each plane has {} of the {} switches.\n",
            f.switches.len() / planes as usize,
            f.switches.len()
        );
    }
    bonds_note(o, f);
    let _ = writeln!(o, "### Tiers\n");
    let _ = writeln!(
        o,
        "| tier | level | switches | model | OS | ports | downlinks | uplinks |"
    );
    let _ = writeln!(o, "|---|---:|---:|---|---|---:|---:|---:|");
    let mut tiered: BTreeSet<SwitchId> = BTreeSet::new();
    for t in &f.tiers {
        let m = &f.switch_models[t.model.index()];
        tiered.extend(t.switches.iter().copied());
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&t.name),
            t.level,
            t.switches.len(),
            cell(&m.name),
            m.os.value.as_str(),
            m.port_count(),
            t.downlinks,
            t.uplinks
        );
    }
    // Switches outside generated tiers, by declared tier and model.
    let mut other: BTreeMap<(Option<u8>, String, &str), usize> = BTreeMap::new();
    for s in f.switch_ids().filter(|s| !tiered.contains(s)) {
        let sw = f.switch(s);
        let m = f.switch_model(s);
        *other
            .entry((
                sw.tier.map(|t| t.value),
                m.name.clone(),
                m.os.value.as_str(),
            ))
            .or_default() += 1;
    }
    for ((tier, model, os), n) in &other {
        let level = tier.map_or_else(|| "-".to_string(), |t| t.to_string());
        let _ = writeln!(
            o,
            "| (declared) | {level} | {n} | {} | {os} | | | |",
            cell(model)
        );
    }
    o.push('\n');
    o.push_str(&mermaid(f, input.diagnostics));
}

/// Modular chassis (issue 18 item 3): how many line cards and card ASICs the switches hold, as
/// the buffer and headroom are checked per card ASIC.
fn chassis_note(o: &mut String, f: &Fabric) {
    let mut switches = 0usize;
    let (mut cards, mut asics, mut uncounted) = (0usize, 0u64, 0usize);
    for s in f.switch_ids() {
        let Some(c) = &f.switch_model(s).chassis else {
            continue;
        };
        switches += 1;
        cards += c.card_count();
        for (_, card) in &c.cards {
            if card.asics_known() {
                asics += u64::from(card.asic_count());
            } else {
                uncounted += 1;
            }
        }
    }
    if switches > 0 {
        let who = if switches == 1 {
            "1 switch is a".to_string()
        } else {
            format!("{switches} switches are")
        };
        // A card whose ASIC count no source gives is one buffer unit: the note says so
        // instead of counting it as one ASIC.
        let _ = match (asics, uncounted) {
            (_, 0) => writeln!(
                o,
                "{who} modular chassis with {cards} line cards and {asics} line-card ASICs in all; buffer and headroom are checked per line-card ASIC, each with its own packet buffer.\n",
            ),
            (0, _) => writeln!(
                o,
                "{who} modular chassis with {cards} line cards; buffer and headroom are checked per whole line card, as the catalogue records no ASIC count for the cards.\n",
            ),
            _ => writeln!(
                o,
                "{who} modular chassis with {cards} line cards; buffer and headroom are checked per line-card ASIC ({asics} in all), and per whole card on the {uncounted} cards whose ASIC count the catalogue does not record.\n",
            ),
        };
    }
}

/// `## Generated files`: devices, files and bytes per target.
fn generated_files(o: &mut String, input: &ReportInput<'_>) {
    let _ = writeln!(o, "## Generated files\n");
    let _ = writeln!(o, "| target | devices | files | bytes |");
    let _ = writeln!(o, "|---|---:|---:|---:|");
    for (t, totals) in input.totals {
        let _ = writeln!(
            o,
            "| {t} | {} | {} | {} |",
            totals.devices,
            totals.files,
            bytes(totals.bytes)
        );
    }
    o.push('\n');
}

/// `## Oversubscription`: per tier, the ratio as declared and as wired.
fn oversubscription(o: &mut String, input: &ReportInput<'_>) {
    let _ = writeln!(o, "## Oversubscription\n");
    match input.facts {
        Some(facts) if !facts.oversubscription.is_empty() => {
            let rows = &facts.oversubscription;
            if rows.len() <= MAX_TABLE_ROWS {
                let _ = writeln!(o, "| switch | down | up | ratio |");
                let _ = writeln!(o, "|---|---:|---:|---:|");
                for r in rows {
                    let _ = writeln!(
                        o,
                        "| {} | {}G | {}G | {} |",
                        cell(&r.switch),
                        r.down_gbps,
                        r.up_gbps,
                        ratio(r.ratio)
                    );
                }
            } else {
                let mut distinct: BTreeMap<(u64, u64, String), usize> = BTreeMap::new();
                for r in rows {
                    *distinct
                        .entry((r.down_gbps, r.up_gbps, ratio(r.ratio)))
                        .or_default() += 1;
                }
                let _ = writeln!(
                    o,
                    "{} switches, {} distinct rows:\n",
                    rows.len(),
                    distinct.len()
                );
                let _ = writeln!(o, "| down | up | ratio | switches |");
                let _ = writeln!(o, "|---:|---:|---:|---:|");
                for ((d, u, r), n) in &distinct {
                    let _ = writeln!(o, "| {d}G | {u}G | {r} | {n} |");
                }
            }
        }
        _ => {
            let _ = writeln!(o, "No switch has both down- and uplinks.");
        }
    }
    o.push('\n');
}

/// `## PFC headroom`: the headroom plan per port and lossless priority, and the buffer pools.
fn headroom(o: &mut String, input: &ReportInput<'_>) {
    let _ = writeln!(o, "## PFC headroom (per port and lossless priority)\n");
    let _ = writeln!(
        o,
        "The column `formula` says which formula set xoff: **canonical** (cable and link delay, \
         PFC response time, receiver MTU = port MTU, sender MTU = the peer's, rounded up to the \
         model's cell; size = xoff + xon), a `headroom` **override**, the **SONiC Mellanox \
         formula** where it gives more (sonic-net/sonic-swss@e6b0c5b5d2ab:\
         cfgmgr/buffer_headroom_mellanox.lua with the platform's LOSSLESS_TRAFFIC_PATTERN; xon \
         = the ASIC's pipeline latency, doubled on 8-lane ports; size = xoff + xon, plus the \
         port MTU on 8-lane ports, rounded up to 1 KiB), or the **SONiC SKU lookup row** \
         (Broadcom: size is the row's guaranteed minimum, xon and xon_offset the row's). On \
         SONiC the cable is the length written to CABLE_LENGTH. Distinct rows, with the number \
         of (port, priority) pairs that use them.\n"
    );
    let mut hr: BTreeMap<HeadroomKey, usize> = BTreeMap::new();
    for s in input.switches {
        // Counted by number per switch first; the row's text is made once per distinct row
        // of the switch rather than once per port and priority.
        type Counted = (
            u32,
            u32,
            u64,
            u64,
            u64,
            &'static str,
            (Option<u64>, i8),
            &'static str,
        );
        let mut counted: BTreeMap<Counted, usize> = BTreeMap::new();
        for (i, p) in s.ports.iter().enumerate() {
            let cable = s
                .sonic
                .as_ref()
                .and_then(|plan| plan.ports.get(i))
                .and_then(|sp| sp.cable.strip_suffix('m')?.parse::<u32>().ok())
                .unwrap_or(p.cable_m);
            let th = match p.pause_threshold {
                PauseThreshold::Static { bytes: b } => (Some(b), 0),
                PauseThreshold::Dynamic { log2_alpha } => (None, log2_alpha),
            };
            for h in &p.headroom {
                *counted
                    .entry((
                        p.speed_mbps,
                        cable,
                        h.xoff_bytes,
                        h.xon_bytes,
                        h.size_bytes,
                        h.formula.as_str(),
                        th,
                        headroom_written(s, i, p),
                    ))
                    .or_default() += 1;
            }
        }
        for ((speed, cable, xoff, xon, size, formula, th, written), n) in counted {
            let th = match th {
                (Some(b), _) => format!("static {}", bytes(b)),
                (None, log2_alpha) => format!("dynamic_th {log2_alpha}"),
            };
            *hr.entry((
                s.os.as_str().to_string(),
                speed,
                cable,
                xoff,
                xon,
                size,
                formula,
                th,
                written,
            ))
            .or_default() += n;
        }
    }
    if hr.is_empty() {
        let _ = writeln!(o, "No lossless port in this build.");
    } else {
        let _ = writeln!(
            o,
            "| OS | speed | cable | xoff B | xon B | size B | formula | pause threshold | written | pairs |"
        );
        let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|---|---|---|---:|");
        for ((os, speed, cable, xoff, xon, size, formula, th, written), n) in &hr {
            let _ = writeln!(
                o,
                "| {os} | {} | {cable} m | {} | {} | {} | {formula} | {th} | {written} | {n} |",
                gbps(u64::from(*speed)),
                bytes(*xoff),
                bytes(*xon),
                bytes(*size)
            );
        }
    }
    o.push('\n');
    let _ = writeln!(o, "### Buffer pools\n");
    let mut pools: BTreeMap<(String, u64, u64, u64, u64), usize> = BTreeMap::new();
    for s in input.switches {
        let b = &s.buffer;
        *pools
            .entry((
                s.os.as_str().to_string(),
                b.total_bytes,
                b.ingress_lossless_pool_bytes,
                b.egress_lossless_pool_bytes,
                b.egress_lossy_pool_bytes,
            ))
            .or_default() += 1;
    }
    if !pools.is_empty() {
        let _ = writeln!(
            o,
            "| OS | buffer B | ingress lossless pool B | egress lossless B | egress lossy B | switches |"
        );
        let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|");
        for ((os, t, i, el, ey), n) in &pools {
            let _ = writeln!(
                o,
                "| {os} | {} | {} | {} | {} | {n} |",
                bytes(*t),
                bytes(*i),
                bytes(*el),
                bytes(*ey)
            );
        }
        o.push('\n');
    }
}

/// `## ECN marking`: the thresholds per switch class and on the hosts.
fn ecn_marking(o: &mut String, input: &ReportInput<'_>) {
    let _ = writeln!(o, "## ECN marking\n");
    let mut ecn: BTreeMap<(String, u8, String), usize> = BTreeMap::new();
    for s in input.switches {
        // Counted by number per switch first, and named and formatted once per distinct
        // marking of the switch rather than once per port and queue.
        // (queue, marking: min, max, probability) → switch ports.
        type Marking = Option<(u64, u64, u8)>;
        let mut counted: BTreeMap<(u8, Marking), usize> = BTreeMap::new();
        for p in &s.ports {
            for q in &p.ecn {
                let marking = q
                    .ecn
                    .map(|e| (e.min_bytes, e.max_bytes, e.probability_percent));
                *counted.entry((q.queue, marking)).or_default() += 1;
            }
        }
        for ((queue, marking), n) in counted {
            let class = s
                .qos
                .classes
                .iter()
                .filter(|c| c.queue == queue)
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            let what = match marking {
                Some((min, max, probability)) => format!(
                    "min {} B, max {} B, {probability} %",
                    bytes(min),
                    bytes(max),
                ),
                None => "off".to_string(),
            };
            *ecn.entry((class, queue, what)).or_default() += n;
        }
    }
    if ecn.is_empty() {
        let _ = writeln!(o, "No switch queue marks ECN in this build.\n");
    } else {
        let _ = writeln!(o, "| class | queue | marking | switch ports |");
        let _ = writeln!(o, "|---|---:|---|---:|");
        for ((class, q, what), n) in &ecn {
            let _ = writeln!(o, "| {} | {q} | {what} | {n} |", cell(class));
        }
        o.push('\n');
    }
    ecn_conversions(o, input.switches);
    let mut host_ecn: BTreeMap<(Vec<u8>, String, u8), usize> = BTreeMap::new();
    for h in input.hosts {
        let pfc: String = h
            .qos
            .pfc
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let tos = h.qos.roce.as_ref().map_or(0, |c| c.tos);
        *host_ecn
            .entry((h.qos.dcqcn_priorities.clone(), pfc, tos))
            .or_default() += h.nics.len();
    }
    if !host_ecn.is_empty() {
        let _ = writeln!(o, "| host NICs: ECN priorities | PFC | RoCE ToS | NICs |");
        let _ = writeln!(o, "|---|---|---:|---:|");
        for ((prios, pfc, tos), n) in &host_ecn {
            let p = if prios.is_empty() {
                "none".to_string()
            } else {
                prios
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let _ = writeln!(o, "| {p} | {pfc} | {tos} | {n} |");
        }
        o.push('\n');
    }
}

/// `## What the switch files do not say`: the build findings (FAB904–FAB910).
fn build_findings(o: &mut String, input: &ReportInput<'_>) {
    let _ = writeln!(o, "## What the switch files do not say\n");
    if input.build_findings.is_empty() {
        let _ = writeln!(
            o,
            "Every property is written as the model says it (or no CLI/NVUE target is built).\n"
        );
    } else {
        let _ = writeln!(
            o,
            "Build findings (`fabricc explain CODE`); docs/targets.md has the whole matrix.\n"
        );
        for d in input.build_findings {
            let _ = writeln!(
                o,
                "- {} {}: {}",
                d.code,
                d.severity.as_str(),
                cell(&d.message)
            );
        }
        o.push('\n');
    }
    let mut oses: Vec<_> = input.switches.iter().map(|s| s.os).collect();
    oses.sort_unstable();
    oses.dedup();
    let always: Vec<(crate::render::SwitchOs, &str)> = oses
        .iter()
        .flat_map(|&os| {
            crate::render::fidelity::always_left(os)
                .iter()
                .map(move |t| (os, *t))
        })
        .collect();
    if !always.is_empty() {
        let _ = writeln!(
            o,
            "Left to the switch on every fabric of a target (not findings; docs/targets.md):
"
        );
        for (os, t) in always {
            let _ = writeln!(o, "- {}: {}", os.as_str(), cell(t));
        }
        o.push('\n');
    }
    host_scripts(o, input);
}

/// `## Verdicts`: one line per analysis, and the findings accepted with `--allow-warnings`.
fn verdicts(o: &mut String, input: &ReportInput<'_>) {
    let _ = writeln!(o, "## Verdicts\n");
    let _ = writeln!(o, "| analysis | verdict |");
    let _ = writeln!(o, "|---|---|");
    for (cat, name) in [
        (Category::Syntax, "syntax"),
        (Category::Name, "names"),
        (Category::Qos, "QoS plan"),
        (Category::Topology, "topology"),
        (Category::Routing, "routing"),
        (Category::Deadlock, "deadlock freedom"),
        (Category::Ecn, "ECN"),
        (Category::Headroom, "headroom"),
        (Category::Buffer, "buffer"),
        (Category::Watchdog, "PFC watchdog"),
        (Category::Output, "host scripts and outputs"),
    ] {
        let _ = writeln!(o, "| {name} | {} |", verdict(cat, input));
    }
    o.push('\n');
    let notable: Vec<&Diagnostic> = input
        .diagnostics
        .iter()
        // Build findings have their own section above.
        .filter(|d| d.severity != Severity::Advice && !is_build_finding(d))
        .collect();
    if !notable.is_empty() {
        let _ = writeln!(o, "### Findings accepted with --allow-warnings\n");
        let mut by_code: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
        for d in &notable {
            let e = by_code
                .entry(d.code.as_str())
                .or_insert((0, d.message.as_str()));
            e.0 += 1;
        }
        for (code, (n, first)) in &by_code {
            let _ = writeln!(o, "- {code} × {n}: {}", cell(first));
        }
        o.push('\n');
    }
}

/// How the host scripts find their NICs and mark RDMA traffic, grouped: what an operator
/// checks before deploying them (README "Deploy a host").
/// Targets that do not take ECN thresholds in bytes (Junos fill levels, NX-OS kbytes), and
/// every queue whose thresholds the fabric states as fill levels: the value the switch holds
/// next to the model's bytes, with the exact conversion.
fn ecn_conversions(o: &mut String, switches: &[&SwitchContext]) {
    type Row = (String, String, u8, u64, u64, u64, u64, String);
    let mut rows: BTreeMap<Row, usize> = BTreeMap::new();
    for s in switches {
        let converts = matches!(s.os, SwitchOs::Junos | SwitchOs::Nxos | SwitchOs::Comware);
        for p in &s.ports {
            for q in &p.ecn {
                let Some(e) = q.ecn else { continue };
                // Fill levels (issue 34) are shown on every target: "55 % of N B = M B".
                if !converts && e.min_fill.is_none() && e.max_fill.is_none() {
                    continue;
                }
                let Some(c) = s.qos.classes.iter().find(|c| c.queue == q.queue) else {
                    continue;
                };
                let w = crate::render::ecn_as_written(s, c.lossless, e);
                *rows
                    .entry((
                        s.os.as_str().to_string(),
                        c.name.clone(),
                        q.queue,
                        e.min_bytes,
                        e.max_bytes,
                        w.min_bytes,
                        w.max_bytes,
                        w.how,
                    ))
                    .or_default() += 1;
            }
        }
    }
    if rows.is_empty() {
        return;
    }
    let any_fill = rows.keys().any(|r| r.7.contains("% of "));
    let _ = writeln!(
        o,
        "ECN as the switch holds it, where the target does not take bytes{} (the checks judge these values too, FAB315):\n",
        if any_fill {
            " or the fabric states fill levels (percent of what one queue may hold on that switch)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        o,
        "| OS | class | queue | model min / max B | switch min / max B | written as | switch ports |"
    );
    let _ = writeln!(o, "|---|---|---:|---|---|---|---:|");
    for ((os, class, q, min, max, wmin, wmax, how), n) in &rows {
        let _ = writeln!(
            o,
            "| {os} | {} | {q} | {} / {} | {} / {} | {} | {n} |",
            cell(class),
            bytes(*min),
            bytes(*max),
            bytes(*wmin),
            bytes(*wmax),
            cell(how)
        );
    }
    o.push('\n');
}

/// The switch queue plan, when any class has its own traffic class, queue or rate cap:
/// distinct (class, priority, TC, queue, scheduling, cap) rows with their switch counts.
fn queue_plan(o: &mut String, switches: &[&SwitchContext]) {
    let special = switches.iter().any(|s| {
        s.qos
            .classes
            .iter()
            .any(|c| c.tc != c.priority || c.queue != c.priority || c.rate_percent.is_some())
    });
    if !special {
        return;
    }
    let _ = writeln!(o, "## Queue plan\n");
    let _ = writeln!(
        o,
        "PFC, headroom and the deadlock proof use the priority; the switch schedules, marks ECN and caps the rate per egress queue.\n"
    );
    let _ = writeln!(
        o,
        "| class | priority | lossless | traffic class | queue | scheduling | rate cap | switches |"
    );
    let _ = writeln!(o, "|---|---:|---|---:|---:|---|---|---:|");
    type Row = (u8, String, bool, u8, u8, String, String);
    let mut rows: BTreeMap<Row, usize> = BTreeMap::new();
    for s in switches {
        for c in &s.qos.classes {
            let sched = match c.scheduling {
                crate::render::Scheduling::Strict => "strict".to_string(),
                crate::render::Scheduling::Ets { weight_percent } => {
                    format!("ETS {weight_percent} %")
                }
            };
            let cap = c
                .rate_percent
                .map_or_else(|| "none".to_string(), |r| format!("{r} % of the port"));
            *rows
                .entry((
                    c.priority,
                    c.name.clone(),
                    c.lossless,
                    c.tc,
                    c.queue,
                    sched,
                    cap,
                ))
                .or_default() += 1;
        }
    }
    for ((p, name, lossless, tc, q, sched, cap), n) in &rows {
        let _ = writeln!(
            o,
            "| {} | {p} | {} | {tc} | {q} | {sched} | {cap} | {n} |",
            cell(name),
            if *lossless { "yes" } else { "no" }
        );
    }
    o.push('\n');
}

fn host_scripts(o: &mut String, input: &ReportInput<'_>) {
    if input.hosts.is_empty() {
        return;
    }
    // (driver, identity, default ToS, other classes) → (hosts, NICs)
    let mut rows: BTreeMap<(String, String, String, String), (usize, usize)> = BTreeMap::new();
    for h in input.hosts {
        let n = &h.nics;
        let identity = if h.driver == crate::render::NicDriver::Hccn {
            "NPU device number, in NIC order".to_string()
        } else if n.iter().any(|n| n.guessed) {
            "assumed `mlx5_<i>` (FAB920)".to_string()
        } else {
            let mut kinds = Vec::new();
            if n.iter().any(|n| n.pci.is_some()) {
                kinds.push("pci");
            }
            if n.iter().any(|n| n.netdev.is_some()) {
                kinds.push("netdev");
            }
            if n.iter().any(|n| n.rdma_device.is_some()) {
                kinds.push("rdma-device");
            }
            kinds.join(" + ")
        };
        let tos = h.qos.roce.as_ref().map_or("none".to_string(), |c| {
            if h.driver == crate::render::NicDriver::Hccn {
                // HCCL takes the ToS as DSCP x 4, without ECN bits (hccl.env).
                format!(
                    "HCCL_RDMA_TC {} ({})",
                    u16::from(c.dscp) * 4,
                    cell(&c.class)
                )
            } else {
                format!("{} ({})", c.tos, cell(&c.class))
            }
        });
        let others = if h.qos.other_roce.is_empty() {
            "none".to_string()
        } else {
            h.qos
                .other_roce
                .iter()
                .map(|c| format!("{} {}", cell(&c.class), c.tos))
                .collect::<Vec<_>>()
                .join(", ")
                + " (FAB921)"
        };
        let e = rows
            .entry((h.driver.as_str().to_string(), identity, tos, others))
            .or_default();
        e.0 += 1;
        e.1 += n.len();
    }
    let _ = writeln!(o, "## Host scripts\n");
    let _ = writeln!(
        o,
        "Each host folder holds its settings (`fabricc-roce.conf`) and `nccl.env`; `programs/host/` holds each driver's NIC program once, for every host, and `programs/host/<driver>/` its systemd unit and udev rule; `programs/host/README.md` explains every key and gives the install steps.\n"
    );
    if input
        .hosts
        .iter()
        .any(|h| h.driver == crate::render::NicDriver::Hccn)
    {
        let _ = writeln!(
            o,
            "An Ascend NPU host (`hccn`) has `hccl.env` (HCCL_RDMA_TC, HCCL_RDMA_SL) instead of `nccl.env` and no udev rule (the NPUs' ports are no host RDMA devices; `hccn_tool` keeps their settings in /etc/hccn.conf).\n"
        );
    }
    let _ = writeln!(
        o,
        "| driver | NIC identity | default RoCE ToS | other RoCE classes (ToS) | hosts | NICs |"
    );
    let _ = writeln!(o, "|---|---|---|---|---:|---:|");
    for ((driver, identity, tos, others), (hosts, nics)) in &rows {
        let _ = writeln!(
            o,
            "| {driver} | {identity} | {tos} | {others} | {hosts} | {nics} |"
        );
    }
    o.push('\n');
}

fn ratio(r: Option<f64>) -> String {
    match r {
        Some(r) => format!("{r:.2}:1"),
        None => "no uplinks".to_string(),
    }
}

fn verdict(cat: Category, input: &ReportInput<'_>) -> String {
    let (mut errors, mut warnings, mut advice) = (0, 0, 0);
    for d in input.diagnostics.iter().filter(|d| d.category() == cat) {
        match d.severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
            Severity::Advice => advice += 1,
        }
    }
    let counts = if errors + warnings + advice == 0 {
        "no findings".to_string()
    } else {
        format!("{errors} errors, {warnings} warnings, {advice} advice")
    };
    match cat {
        Category::Deadlock => match input.facts.and_then(|f| f.deadlock.as_ref()) {
            Some(d) if d.possible => format!(
                "deadlock possible ({} analysed; {counts})",
                scenarios(d.scenarios)
            ),
            Some(d) if !d.complete => {
                "deadlock-free as declared; failure scenarios not proven (FAB204)".to_string()
            }
            Some(d) => format!("deadlock-free ({} analysed)", scenarios(d.scenarios)),
            None => "not analysed".to_string(),
        },
        Category::Headroom => {
            let rows = input.facts.map_or(0, |f| f.headroom.len());
            if rows > 0 {
                format!("{counts} ({rows} port/priority rows checked)")
            } else {
                format!(
                    "{counts}; computed for this build (see the table above), not yet checked by an analysis"
                )
            }
        }
        _ => counts,
    }
}

/// "1 scenario", "97 scenarios".
fn scenarios(n: u64) -> String {
    format!("{n} {}", if n == 1 { "scenario" } else { "scenarios" })
}

/// Host bonds (issue 18): how many, in which mode, and where their ports go: two ToRs of one
/// plane (`dual-tor`), two planes (Alibaba HPN's non-stacked dual-ToR), or one switch.
fn bonds_note(o: &mut String, f: &Fabric) {
    const PAIR: &str = "each bond's ports go to the two switches of a ToR pair";
    const ACROSS: &str = "each bond's ports are in different planes (non-stacked dual-ToR): one address, reached in each plane through its own port, so a failed host link leaves the host reachable through the other plane";
    const ONE: &str = "each bond's ports go to one switch";
    // (mode word, where the ports go) → (hosts, bonds)
    let mut seen: std::collections::BTreeMap<(&str, &str), (usize, usize)> =
        std::collections::BTreeMap::new();
    for (hi, h) in f.hosts.iter().enumerate() {
        let Some(mode) = h.bond else { continue };
        let me = crate::model::DeviceId::Host(crate::model::HostId(hi as u32));
        let mut kinds = std::collections::BTreeSet::new();
        for b in &h.bonds {
            let nics: Vec<_> = b.iter().filter_map(|&i| h.nics.get(i as usize)).collect();
            let switches: std::collections::BTreeSet<_> = nics
                .iter()
                .filter_map(|n| n.link)
                .map(|l| f.peer(l, me).device)
                .collect();
            let kind = if h.bond_across_planes(b) {
                ACROSS
            } else if switches.len() > 1 {
                PAIR
            } else {
                ONE
            };
            seen.entry((mode.value.word(), kind)).or_default().1 += 1;
            kinds.insert(kind);
        }
        for kind in kinds {
            seen.entry((mode.value.word(), kind)).or_default().0 += 1;
        }
    }
    for ((mode, how), (hosts, bonds)) in seen {
        let _ = writeln!(
            o,
            "{hosts} hosts bond their NIC ports (`bond {mode}`, {bonds} bonds, one per NIC): {how}.\n"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands() {
        assert_eq!(bytes(0), "0");
        assert_eq!(bytes(999), "999");
        assert_eq!(bytes(1000), "1,000");
        assert_eq!(bytes(64_000_000), "64,000,000");
    }
}
