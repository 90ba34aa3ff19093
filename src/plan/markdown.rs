//! `plan.md`: the plan for a change ticket — what changes where, the waves in order with
//! their steps and rollback, and what the proof covered.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{Change, DeviceKind, Plan};

/// Rows of one device's change table shown before "and N more".
const ROWS: usize = 40;

fn cell(v: &Option<String>) -> String {
    match v {
        // Values come from the fabric (names, numbers); `|` would break the table.
        Some(v) => format!("`{}`", v.replace('|', "\\|").replace('`', "'")),
        None => "—".into(),
    }
}

/// What a device's changes amount to: kinds with counts and their disruption.
fn summary(changes: &[Change]) -> String {
    let mut by: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for c in changes {
        *by.entry((c.kind.as_str(), c.disruption.as_str()))
            .or_default() += 1;
    }
    by.iter()
        .map(|((k, d), n)| format!("{k} ×{n} ({d})"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn render(plan: &Plan) -> String {
    let mut s = String::new();
    let switches = plan
        .devices
        .iter()
        .filter(|d| d.kind == DeviceKind::Switch)
        .count();
    let hosts = plan.devices.len() - switches;
    let _ = writeln!(s, "# Rollout plan: {} → {}\n", plan.old, plan.new);
    let _ = writeln!(
        s,
        "{} device(s) change ({switches} switch(es), {hosts} host(s)) in {} wave(s). Proof: {} state(s) checked, **{} unsafe step(s)**.{}\n",
        plan.devices.len(),
        plan.waves.len(),
        plan.proof.states,
        plan.proof.unsafe_steps,
        if plan.bridge {
            " The change goes make-before-break through a bridge state (both class plans accepted)."
        } else {
            ""
        }
    );
    if !plan.findings.is_empty() {
        let _ = writeln!(s, "## Findings\n");
        for d in &plan.findings {
            let _ = writeln!(s, "- **{} {}**: {}", d.code, d.severity.as_str(), d.message);
            if let Some(h) = &d.help {
                let _ = writeln!(s, "  - help: {h}");
            }
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## Waves\n");
    let _ = writeln!(
        s,
        "| wave | phase | devices | disruption | drain |\n|---|---|---|---|---|"
    );
    for w in &plan.waves {
        let devices = if w.devices.len() <= 6 {
            w.devices.join(", ")
        } else {
            format!(
                "{}, … ({} in all)",
                w.devices[..4].join(", "),
                w.devices.len()
            )
        };
        let _ = writeln!(
            s,
            "| {} | {} | {devices} | {} | {} |",
            w.index,
            w.label,
            w.disruption.as_str(),
            if w.drain { "yes" } else { "no" }
        );
    }
    s.push('\n');
    let mut phase = None;
    for w in &plan.waves {
        if phase != Some(w.phase) {
            phase = Some(w.phase);
            let _ = writeln!(
                s,
                "### Phase {}: {}\n\nFiles: `{}/` ({} → {}).\n",
                w.phase.as_str(),
                w.phase.meaning(),
                w.folder,
                w.from.as_str(),
                w.to.as_str()
            );
        }
        let _ = writeln!(
            s,
            "#### Wave {}: {}\n\nDevices ({}): {}\n\nDisruption: {} — {}.\n",
            w.index,
            w.label,
            w.devices.len(),
            w.devices.join(", "),
            w.disruption.as_str(),
            w.disruption.meaning()
        );
        for (i, step) in w.steps.iter().enumerate() {
            let _ = writeln!(s, "{}. {step}", i + 1);
        }
        let _ = writeln!(s, "\nRollback:\n");
        for r in &w.rollback {
            let _ = writeln!(s, "- {r}");
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## Changes by device\n");
    // Devices whose changes read alike are listed once.
    let mut groups: BTreeMap<(DeviceKind, String, String), Vec<&super::DevicePlan>> =
        BTreeMap::new();
    for d in &plan.devices {
        groups
            .entry((d.kind, d.target.clone(), summary(&d.changes)))
            .or_default()
            .push(d);
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by_key(|(_, ds)| ds.first().map(|d| (d.kind, super::natural(&d.name))));
    for ((_, target, sum), ds) in groups {
        let names: Vec<&str> = ds.iter().map(|d| d.name.as_str()).collect();
        let shown = if names.len() <= 8 {
            names.join(", ")
        } else {
            format!("{}, … ({} in all)", names[..6].join(", "), names.len())
        };
        let first = ds[0];
        let _ = writeln!(
            s,
            "### {shown} ({target})\n\n{} — most disruptive: {}; waves {}.\n",
            if sum.is_empty() {
                "replaced, no setting changes".to_string()
            } else {
                sum
            },
            first.disruption.as_str(),
            first
                .waves
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        if names.len() > 1 {
            let _ = writeln!(s, "The changes of {}:\n", first.name);
        }
        let _ = writeln!(s, "| setting | old | new | disruption |\n|---|---|---|---|");
        for c in first.changes.iter().take(ROWS) {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} |",
                c.key,
                cell(&c.old),
                cell(&c.new),
                c.disruption.as_str()
            );
        }
        if first.changes.len() > ROWS {
            let _ = writeln!(s, "| … {} more | | | |", first.changes.len() - ROWS);
        }
        let mut sources: Vec<(&str, &str)> = first
            .changes
            .iter()
            .map(|c| (c.kind.as_str(), c.source))
            .collect();
        sources.sort_unstable();
        sources.dedup();
        let _ = writeln!(s);
        for (k, src) in sources {
            let _ = writeln!(s, "- {k}: {src}");
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## Proof\n");
    let _ = writeln!(
        s,
        "{} state(s): the fabric before the first wave and after each wave. A state while a wave is drained is a subset of the state before it. In each state:\n",
        plan.proof.states
    );
    for c in &plan.proof.checks {
        let _ = writeln!(s, "- {c}");
    }
    let _ = writeln!(
        s,
        "\nLinks checked over all states: {}. Deadlock: {}.\n\nUnsafe steps: **{}**.",
        plan.proof.links_checked, plan.proof.deadlock, plan.proof.unsafe_steps
    );
    s
}
