//! `fabricc plan OLD NEW`: the rollout of a change, with the proof of every step.

use std::path::Path;

use crate::diagnostic::{self, Diagnostic};
use crate::lower::{Lowered, Targets};
use crate::output::generate::{BuildInput, generate};
use crate::pipeline::Checked;
use crate::plan::{self, Options, Order, Plan, Version};
use crate::render::ArtifactKind;
use crate::source::Sources;

use super::diff::sides_of;
use super::progress::Progress;
use super::{ExitStatus, PlanArgs, PlanFormat, PlanOrder, Stream, chosen_templates, err, out};

pub fn run(args: &PlanArgs) -> ExitStatus {
    let limits = args.limits.limits();
    let mut sources = Sources::new();
    let progress = Progress::start("fabricc plan");
    progress.stage("checking both fabrics");
    let (old, new) = match sides_of(
        &args.sides.old,
        args.sides.new.as_deref(),
        args.sides.git.as_deref(),
        &mut sources,
        &limits,
    ) {
        Ok(s) => s,
        Err(f) => {
            let help = f.help.map(|h| format!("help: {h}\n")).unwrap_or_default();
            err(&format!("error: {}\n{help}", f.message));
            return ExitStatus::Error;
        }
    };
    // A side with errors has no build to roll out: show its findings as `check` would.
    for side in [&old, &new] {
        if side.checked.errors() > 0 || side.checked.lowered.is_none() {
            let errors: Vec<Diagnostic> = side
                .checked
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .cloned()
                .collect();
            err(&render(&errors, &sources));
            err(&format!(
                "error: `{}` has errors; `fabricc check` it, then plan again\n",
                side.name
            ));
            return ExitStatus::Failure;
        }
    }
    for name in &args.replace {
        let known = [&old, &new].iter().any(|s| {
            s.checked.fabric.as_ref().is_some_and(|f| {
                f.switches.iter().any(|x| &x.name == name)
                    || f.hosts.iter().any(|x| &x.name == name)
            })
        });
        if !known {
            err(&format!(
                "error: --replace names `{name}`, which is no device of either fabric\n"
            ));
            return ExitStatus::Error;
        }
    }
    let opts = Options {
        order: match args.order {
            PlanOrder::Auto => Order::Auto,
            PlanOrder::SwitchesFirst => Order::SwitchesFirst,
            PlanOrder::HostsFirst => Order::HostsFirst,
        },
        max_unavailable_percent: args.max_unavailable,
        replace: args.replace.clone(),
    };
    progress.stage("planning waves and proving every step");
    let (plan, bridge) = match plan::plan(
        &old.checked,
        &new.checked,
        (&old.name, &new.name),
        &opts,
        &limits,
    ) {
        Ok(p) => p,
        Err(plan::Refused::Errors(why)) => {
            err(&format!("error: no plan: {why}\n"));
            return ExitStatus::Failure;
        }
    };
    if args.output.is_some() {
        progress.stage("writing the phases' files");
    }
    if let Some(dir) = &args.output
        && let Err(e) = write(dir, &plan, &old.checked, &new.checked, bridge.as_ref())
    {
        err(&format!("error: cannot write {}: {e}\n", dir.display()));
        return ExitStatus::Error;
    }
    drop(progress);
    match args.format {
        PlanFormat::Json => {
            out(&(serde_json::to_string_pretty(&json(&plan, &sources)).unwrap_or_default() + "\n"))
        }
        PlanFormat::Text => {
            if !plan.findings.is_empty() {
                let color = super::ColorChoice::Auto.enabled(Stream::Stderr);
                let style = diagnostic::human::HumanStyle { color, width: 100 };
                err(&diagnostic::human::render_human(
                    &plan.findings,
                    &sources,
                    style,
                ));
            }
            out(&text(&plan, args.output.as_deref()));
        }
    }
    if plan::has_errors(&plan) || plan.unsafe_steps() > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

fn render(d: &[Diagnostic], sources: &Sources) -> String {
    let style = diagnostic::human::HumanStyle {
        color: super::ColorChoice::Auto.enabled(Stream::Stderr),
        width: 100,
    };
    diagnostic::human::render_human(d, sources, style)
}

/// The plan with its findings as JSON objects (code, severity, message, file, line, help).
fn json(plan: &Plan, sources: &Sources) -> serde_json::Value {
    let mut v = serde_json::to_value(plan).unwrap_or_default();
    let findings: Vec<serde_json::Value> = plan
        .findings
        .iter()
        .map(|d| {
            let (start, _) = sources.span_lines(d.primary.span);
            serde_json::json!({
                "code": d.code.as_str(),
                "severity": d.severity.as_str(),
                "message": d.message,
                "file": sources.get(d.primary.span.file).display,
                "line": start.line,
                "column": start.column,
                "help": d.help,
            })
        })
        .collect();
    if let Some(o) = v.as_object_mut() {
        o.insert("findings".into(), serde_json::Value::Array(findings));
    }
    v
}

fn text(plan: &Plan, dir: Option<&Path>) -> String {
    let mut s = String::new();
    for w in &plan.waves {
        let devices = if w.devices.len() <= 4 {
            w.devices.join(", ")
        } else {
            format!(
                "{}, … ({} devices)",
                w.devices[..3].join(", "),
                w.devices.len()
            )
        };
        s.push_str(&format!(
            "wave {:>2}  {:<28} {:<16} {}{}\n",
            w.index,
            w.label,
            w.disruption.as_str(),
            if w.drain { "drain  " } else { "       " },
            devices
        ));
    }
    let switches = plan
        .devices
        .iter()
        .filter(|d| d.kind == plan::DeviceKind::Switch)
        .count();
    s.push_str(&format!(
        "{} switch(es) and {} host(s) change in {} wave(s){}; proof: {} state(s), {} unsafe step(s)\n",
        switches,
        plan.devices.len() - switches,
        plan.waves.len(),
        if plan.bridge { ", make-before-break" } else { "" },
        plan.proof.states,
        plan.proof.unsafe_steps
    ));
    match dir {
        Some(d) => s.push_str(&format!(
            "wrote {}: plan.md, plan.json and the phases' files\n",
            d.display()
        )),
        None => s.push_str(
            "the steps of each wave and every change: `-o DIR` (plan.md), or `--format json`\n",
        ),
    }
    s
}

/// plan.md, plan.json, and per phase the files its devices take, in the build's layout.
fn write(
    dir: &Path,
    plan: &Plan,
    old: &Checked,
    new: &Checked,
    bridge: Option<&Checked>,
) -> std::io::Result<()> {
    let templates = chosen_templates(None).map_err(|_| std::io::Error::other("templates"))?;
    // Render everything first, so that a failure writes nothing.
    let mut files: Vec<(String, String)> = vec![
        ("plan.md".into(), plan::markdown::render(plan)),
        (
            "plan.json".into(),
            serde_json::to_string_pretty(plan).unwrap_or_default() + "\n",
        ),
    ];
    let mut phases: Vec<(&str, Version, Vec<&str>)> = Vec::new();
    for w in &plan.waves {
        match phases.last_mut() {
            Some((f, _, devices)) if *f == w.folder => {
                devices.extend(w.devices.iter().map(String::as_str))
            }
            _ => phases.push((
                &w.folder,
                w.to,
                w.devices.iter().map(String::as_str).collect(),
            )),
        }
    }
    for (folder, version, devices) in phases {
        let source = match version {
            Version::Old | Version::Absent => old,
            Version::New => new,
            Version::Bridge | Version::BridgeMarkingNew => bridge.unwrap_or(new),
        };
        let (Some(fabric), Some(lowered)) = (&source.fabric, &source.lowered) else {
            continue;
        };
        let mut subset = Lowered {
            switches: lowered
                .switches
                .iter()
                .filter(|c| devices.contains(&c.device.as_str()))
                .cloned()
                .collect(),
            hosts: Vec::new(),
            diagnostics: Vec::new(),
        };
        // Hosts in the bridge mark as OLD or as NEW says: the very contexts the proof checked.
        let marked = match version {
            Version::Bridge => old.lowered.as_ref().map(|m| plan::bridge_hosts(lowered, m)),
            Version::BridgeMarkingNew => {
                new.lowered.as_ref().map(|m| plan::bridge_hosts(lowered, m))
            }
            _ => None,
        };
        let hosts = marked.unwrap_or_else(|| lowered.hosts.clone());
        subset.hosts = hosts
            .into_iter()
            .filter(|c| devices.contains(&c.host.as_str()))
            .collect();
        let input = BuildInput {
            fabric,
            diagnostics: &source.diagnostics,
            facts: source.facts.as_ref(),
            lowered: &subset,
        };
        let artifacts = generate(input, Targets::ALL, &templates)
            .map_err(|_| std::io::Error::other("a phase's files did not render"))?;
        for a in artifacts {
            let keep = match a.kind {
                ArtifactKind::Switch | ArtifactKind::Host => true,
                ArtifactKind::Report => a.path.starts_with("programs/"),
            };
            if keep {
                files.push((format!("{folder}/{}", a.path), a.contents));
            }
        }
    }
    for (path, contents) in files {
        let p = dir.join(&path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(p, contents)?;
    }
    Ok(())
}
