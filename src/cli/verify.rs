//! `fabricc verify FILE --state DIR`

use crate::diagnostic::{self, Category, Diagnostic, Severity};
use crate::pipeline;
use crate::source::Sources;
use crate::verify::{self, DeviceSummary, Input, Status};

use super::{
    CheckFormat, ExitStatus, Progress, Stream, VerifyArgs, allow_all, allowed_codes,
    chosen_targets, chosen_templates, err, out,
};

pub fn run(args: &VerifyArgs) -> ExitStatus {
    let targets = match chosen_targets(&args.targets) {
        Ok(t) => t,
        Err(status) => return status,
    };
    let templates = match chosen_templates(args.templates.as_deref()) {
        Ok(t) => t,
        Err(status) => return status,
    };
    let allowed = match allowed_codes(&args.allow) {
        Ok(c) => c,
        Err(status) => return status,
    };
    let limits = args.limits.limits();
    let mut sources = Sources::new();
    let progress = Progress::start("fabricc verify");
    progress.stage(&format!("checking {}", args.file.display()));
    let checked = match pipeline::check(&mut sources, &args.file, &limits) {
        Ok(mut c) => {
            allow_all(&mut c.diagnostics, &allowed);
            c
        }
        Err(e) => {
            err(&format!("error: {e}\n"));
            return ExitStatus::Error;
        }
    };
    let color = args.color.enabled(Stream::Stdout);
    // A fabric `check` fails on has nothing to verify against: its findings are the answer.
    if checked.errors() > 0 {
        let diags: Vec<Diagnostic> = checked.diagnostics.clone();
        out(&render(
            args,
            checked.fabric_name(),
            &diags,
            &sources,
            &[],
            color,
        ));
        if args.format == CheckFormat::Human {
            err("note: the fabric has errors, so it was not compared with the devices\n");
        }
        return ExitStatus::Failure;
    }
    let input = Input {
        checked: &checked,
        templates: &templates,
        targets,
        state_dir: &args.state,
        state_display: args
            .state
            .display()
            .to_string()
            .trim_end_matches('/')
            .to_string(),
        max_input_bytes: limits.max_input_bytes,
    };
    progress.stage("building and comparing with the devices' state");
    let mut outcome = match verify::verify(&input, &mut sources) {
        Ok(o) => o,
        Err(verify::Fatal(message)) => {
            err(&format!("error: {message}\n"));
            return ExitStatus::Error;
        }
    };
    // The fabric's `allow` and `--allow` cover what the devices are found to do as well.
    if let Some(f) = &checked.fabric {
        for a in &f.allow {
            let by = format!("`allow {}` in the fabric", a.value);
            diagnostic::allow(&mut outcome.diagnostics, a.value, &by);
        }
    }
    allow_all(&mut outcome.diagnostics, &allowed);
    // With --deny-warnings, the fabric's own warnings fail `check`, so they fail `verify` too:
    // they lead the findings (the devices are still compared, so the drift is not hidden).
    let fabric_warnings: Vec<Diagnostic> = if args.deny_warnings {
        checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .cloned()
            .collect()
    } else {
        Vec::new()
    };
    if !fabric_warnings.is_empty() {
        let mut all = fabric_warnings;
        all.append(&mut outcome.diagnostics);
        outcome.diagnostics = all;
    }
    out(&render(
        args,
        checked.fabric_name(),
        &outcome.diagnostics,
        &sources,
        &outcome.devices,
        color,
    ));
    if let Some(path) = &args.report {
        let text = verify::report::markdown(
            checked.fabric_name().unwrap_or(""),
            &input.state_display,
            &outcome.devices,
            &outcome.diagnostics,
            &sources,
        );
        if let Err(e) = std::fs::write(path, text) {
            err(&format!("error: cannot write `{}`: {e}\n", path.display()));
            return ExitStatus::Error;
        }
    }
    let errors = outcome.diagnostics.iter().any(Diagnostic::is_error);
    let warnings = outcome
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning);
    if errors || (args.deny_warnings && warnings) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

fn render(
    args: &VerifyArgs,
    fabric: Option<&str>,
    diags: &[Diagnostic],
    sources: &Sources,
    devices: &[DeviceSummary],
    color: bool,
) -> String {
    match args.format {
        CheckFormat::Human => human(fabric, diags, sources, devices, color, args.advice),
        CheckFormat::Short => diagnostic::short::render_short(diags, sources),
        CheckFormat::Json => diagnostic::json::render_json(fabric, diags, None, sources),
        CheckFormat::Sarif => diagnostic::sarif::render_sarif(diags, sources),
        CheckFormat::Github => diagnostic::github::render_github(diags, sources),
    }
}

/// Findings grouped by device, each group headed by the device and ended by what to do. As
/// `check` on a terminal, advice is drawn only with `advice` (`--advice`); otherwise the last
/// line counts it by code, and a device whose findings are all advice gets no block.
fn human(
    fabric: Option<&str>,
    diags: &[Diagnostic],
    sources: &Sources,
    devices: &[DeviceSummary],
    color: bool,
    advice: bool,
) -> String {
    let style = diagnostic::human::HumanStyle { color, width: 100 };
    let mut s = String::new();
    let mut by_device: std::collections::HashMap<&str, Vec<Diagnostic>> =
        std::collections::HashMap::new();
    let mut rest: Vec<Diagnostic> = Vec::new();
    for d in diags
        .iter()
        .filter(|d| advice || d.severity != Severity::Advice)
    {
        match &d.observed {
            Some(o) => by_device.entry(o.device()).or_default().push(d.clone()),
            None => rest.push(d.clone()),
        }
    }
    for dev in devices.iter().filter(|d| d.status != Status::InSync) {
        let Some(mine) = by_device.remove(dev.device.as_str()) else {
            continue;
        };
        let drift = mine
            .iter()
            .filter(|d| d.category() == Category::Drift)
            .count();
        let wiring = mine
            .iter()
            .filter(|d| d.category() == Category::Wiring)
            .count();
        let extra = mine
            .iter()
            .filter(|d| d.code == crate::diagnostic::Code::StateExtra)
            .count();
        s.push_str(&format!(
            "── {} ({}): {} ──\n",
            dev.device,
            dev.target.as_str(),
            match dev.status {
                Status::NoState => "no state".to_string(),
                Status::Unreadable => "state unreadable".to_string(),
                _ if wiring == 0 => count(drift, "difference", "differences"),
                _ if drift == 0 => count(wiring, "wiring finding", "wiring findings"),
                _ => format!(
                    "{}, {}",
                    count(drift, "difference", "differences"),
                    count(wiring, "wiring finding", "wiring findings")
                ),
            }
        ));
        s.push_str(&diagnostic::human::render_human(&mine, sources, style));
        let fix = match dev.status {
            Status::NoState | Status::Unreadable => format!(
                "collect the state of `{}` (docs/verify.md) and verify again",
                dev.device
            ),
            _ if drift > 0 && !dev.compared_with.is_empty() => format!(
                "fix: rebuild and apply {} to `{}` (docs/verify.md){}{}",
                dev.compared_with
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                dev.device,
                if extra > 0 {
                    ", then remove what is extra (each finding says how)"
                } else {
                    ""
                },
                if wiring > 0 {
                    "; recable as each wiring finding says"
                } else {
                    ""
                }
            ),
            _ => {
                "fix: check the cabling as each finding says (cabling.csv is the plan)".to_string()
            }
        };
        s.push_str(&fix);
        s.push_str("\n\n");
    }
    rest.extend(by_device.into_values().flatten());
    crate::diagnostic::sort(&mut rest);
    if !rest.is_empty() {
        s.push_str(&diagnostic::human::render_human(&rest, sources, style));
        s.push('\n');
    }
    let n = |st: Status| devices.iter().filter(|d| d.status == st).count();
    s.push_str(&format!(
        "verified `{}` against the state: {} in sync, {} with differences, {} without state, {} unreadable\n",
        fabric.unwrap_or(""),
        count(n(Status::InSync), "device", "devices"),
        n(Status::Differs),
        n(Status::NoState),
        n(Status::Unreadable),
    ));
    s.push_str(&diagnostic::human::summary_terse(diags, advice));
    s.push('\n');
    s
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
