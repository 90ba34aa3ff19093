//! The whole generation step of a build: lower, render every device in parallel, add the
//! reports. In: a checked fabric (its findings and facts) and the build's settings. Out: every
//! file of the output folder except `manifest.json`, sorted by path, or FAB9xx findings.

use rayon::prelude::*;

use crate::analysis::Facts;
use crate::diagnostic::{Code, Diagnostic};
use crate::lower::{self, Targets};
use crate::model::Fabric;
use crate::render::{self, Artifact, RenderError, Templates};

use super::report::{self, ReportInput};

/// Generates every file of a build.
pub fn generate(
    fabric: &Fabric,
    diagnostics: &[Diagnostic],
    facts: Option<&Facts>,
    targets: Targets,
    templates: &Templates,
) -> Result<Vec<Artifact>, Vec<Diagnostic>> {
    let lowered = lower::lower(fabric, targets);
    let mut problems = lowered.diagnostics;
    let switch_files: Vec<Result<Vec<Artifact>, Diagnostic>> = lowered
        .switches
        .par_iter()
        .map(|s| {
            render::render_switch(templates, s)
                .map_err(|e| render_diagnostic(fabric, &s.device, &e))
        })
        .collect();
    let host_files: Vec<Result<Vec<Artifact>, Diagnostic>> = lowered
        .hosts
        .par_iter()
        .map(|h| {
            render::render_host(templates, h).map_err(|e| render_diagnostic(fabric, &h.host, &e))
        })
        .collect();
    let mut files = Vec::new();
    for r in switch_files.into_iter().chain(host_files) {
        match r {
            Ok(a) => files.extend(a),
            Err(d) => problems.push(d),
        }
    }
    if !problems.is_empty() {
        crate::diagnostic::sort(&mut problems);
        return Err(problems);
    }
    files.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
    let reports = report::reports(&ReportInput {
        fabric,
        diagnostics,
        facts,
        switches: &lowered.switches,
        hosts: &lowered.hosts,
        files: &files,
    });
    files.extend(reports);
    files.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// A render failure as a finding on the device.
fn render_diagnostic(fabric: &Fabric, device: &str, e: &RenderError) -> Diagnostic {
    let span = fabric
        .switches
        .iter()
        .find(|s| s.name == device)
        .map(|s| s.span)
        .or_else(|| {
            fabric
                .hosts
                .iter()
                .find(|h| h.name == device)
                .map(|h| h.span)
        })
        .unwrap_or(fabric.span);
    match e {
        RenderError::Template { .. } | RenderError::Override { .. } => Diagnostic::new(
            Code::TemplateFailed,
            span,
            format!("cannot render `{device}`: {e}"),
        )
        .label("this device")
        .help("fix the template at the line given, or remove the --templates override"),
        RenderError::Invalid { message, .. } => Diagnostic::new(
            Code::TargetCannotExpress,
            span,
            format!("cannot generate `{device}`: {message}"),
        )
        .label("this device"),
        RenderError::Unsupported { target, message, .. } => Diagnostic::new(
            Code::TargetCannotExpress,
            span,
            format!("`{device}` on {target}: {message}"),
        )
        .label("this device")
        .help(format!(
            "change the fabric so that {target} can express it, or use a switch model with another OS"
        )),
    }
}
