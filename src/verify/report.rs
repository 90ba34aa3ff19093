//! `verify --report FILE.md`: the comparison as a Markdown summary to attach to a change
//! ticket: per device, in sync or how many differences of each kind, then every finding.
//!
//! In: the fabric's name, the state directory as shown, the device summaries and the
//! findings with their sources. Out: Markdown text, deterministic (devices in the fabric's
//! order, findings in output order, no timestamps).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{DeviceSummary, Status};
use crate::diagnostic::{Category, Code, Diagnostic};
use crate::source::Sources;

/// Markdown table cell text: no pipes, no newlines.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn kinds(s: &DeviceSummary) -> String {
    let mut parts = Vec::new();
    for (code, n) in &s.counts {
        let what = match code {
            Code::StateDiffers => "differ",
            Code::StateMissing => "missing",
            Code::StateExtra => "extra",
            Code::StateNoDevice => "no state",
            Code::StateUnreadable => "unreadable",
            Code::WiringPeer => "wrong neighbour",
            Code::WiringNoPeer => "no neighbour",
            Code::WiringUnplanned => "unplanned neighbour",
            _ => code.as_str(),
        };
        parts.push(format!("{n} {what}"));
    }
    parts.join(", ")
}

fn status(s: &DeviceSummary) -> String {
    match s.status {
        Status::InSync => "in sync".to_string(),
        Status::NoState => "no state".to_string(),
        Status::Unreadable => "state unreadable".to_string(),
        Status::Differs => {
            let n = s.findings();
            format!("{n} difference{}", if n == 1 { "" } else { "s" })
        }
    }
}

/// The report text.
pub fn markdown(
    fabric: &str,
    state: &str,
    devices: &[DeviceSummary],
    diags: &[Diagnostic],
    sources: &Sources,
) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# fabricc verify: `{}`\n", cell(fabric));
    let count = |st: &Status| devices.iter().filter(|d| &d.status == st).count();
    let drift = diags
        .iter()
        .filter(|d| d.category() == Category::Drift)
        .count();
    let wiring = diags
        .iter()
        .filter(|d| d.category() == Category::Wiring)
        .count();
    let _ = writeln!(
        o,
        "State `{}`: {} devices, {} in sync, {} with differences, {} without state, {} unreadable; {} drift and {} wiring findings.\n",
        cell(state),
        devices.len(),
        count(&Status::InSync),
        count(&Status::Differs),
        count(&Status::NoState),
        count(&Status::Unreadable),
        drift,
        wiring
    );
    // Per target.
    let mut per_target: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for d in devices {
        let e = per_target.entry(d.target.as_str()).or_default();
        e.0 += 1;
        if d.status == Status::InSync {
            e.1 += 1;
        }
    }
    let _ = writeln!(o, "| target | devices | in sync |\n|---|---:|---:|");
    for (t, (n, ok)) in &per_target {
        let _ = writeln!(o, "| {t} | {n} | {ok} |");
    }
    let _ = writeln!(o, "\n## Devices\n");
    let _ = writeln!(
        o,
        "| device | target | status | differences by kind | LLDP | compared with |\n|---|---|---|---|---|---|"
    );
    for d in devices {
        let _ = writeln!(
            o,
            "| `{}` | {} | {} | {} | {} | {} |",
            cell(&d.device),
            d.target.as_str(),
            status(d),
            cell(&kinds(d)),
            if d.lldp { "read" } else { "–" },
            cell(
                &d.compared_with
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        );
    }
    if !diags.is_empty() {
        let _ = writeln!(o, "\n## Findings\n");
        for d in diags {
            let (start, _) = sources.span_lines(d.primary.span);
            let file = &sources.get(d.primary.span.file).display;
            let _ = writeln!(
                o,
                "- {} {} `{}:{}`: {}",
                d.code,
                d.severity.as_str(),
                cell(file),
                start.line,
                cell(&d.message)
            );
            if let Some(h) = &d.help {
                let _ = writeln!(o, "  - fix: {}", cell(h));
            }
        }
    }
    o
}
