//! The whole generation step of a build: render every lowered device in parallel, add the
//! reports. In: a checked fabric (its findings, facts and lowered devices) and the build's
//! settings. Out: every file of the output folder except `manifest.json`, or FAB9xx findings.
//!
//! `render::preflight` is the part of generation that `check` runs, so
//! `check` fails whenever `build` would.
//!
//! `generate_each` hands each file to a sink as soon as it is rendered, from the thread that
//! rendered it, and keeps only its size: `fabricc build` stages files while other devices
//! render, and never holds the whole output in memory (667 MB at 100,000 GPUs). `generate`
//! collects the files instead, for `diff` and `build --check`.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::analysis::Facts;
use crate::diagnostic::Diagnostic;
use crate::lower::{Lowered, Targets};
use crate::model::Fabric;
use crate::render::preflight::{is_build_finding, render_diagnostic};
use crate::render::{self, Artifact, SwitchContext, Templates};

use super::report::{self, ReportInput};
use crate::timings::Timings;

pub use super::report::TargetTotals;

/// Why generation stopped: devices that cannot be generated, or the sink failed.
#[derive(Debug)]
pub enum Stop<E> {
    Findings(Vec<Diagnostic>),
    Sink(E),
}

/// What a build renders: the checked fabric, its findings and facts, and its lowered devices.
#[derive(Clone, Copy)]
pub struct BuildInput<'a> {
    pub fabric: &'a Fabric,
    pub diagnostics: &'a [Diagnostic],
    pub facts: Option<&'a Facts>,
    pub lowered: &'a Lowered,
}

impl<'a> BuildInput<'a> {
    /// The build input of a checked fabric; `None` when it has no lowered devices (it did not
    /// resolve, or the analysis found errors).
    pub fn of(checked: &'a crate::pipeline::Checked) -> Option<Self> {
        Some(BuildInput {
            fabric: checked.fabric.as_ref()?,
            diagnostics: &checked.diagnostics,
            facts: checked.facts.as_ref(),
            lowered: checked.lowered.as_ref()?,
        })
    }
}

/// Generates every file of a build, sorted by path.
pub fn generate(
    input: BuildInput<'_>,
    targets: Targets,
    templates: &Templates,
) -> Result<Vec<Artifact>, Vec<Diagnostic>> {
    let files = Mutex::new(Vec::new());
    let result = generate_each(input, targets, templates, None, |a| {
        files
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(a);
        Ok::<(), Infallible>(())
    });
    match result {
        Ok(_) => {
            let mut files = files
                .into_inner()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            files.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
            Ok(files)
        }
        Err(Stop::Findings(problems)) => Err(problems),
        Err(Stop::Sink(never)) => match never {},
    }
}

/// Generates every file of a build and hands each to `sink` (device files from several
/// threads, the reports last); returns what `sink` returned for each, in no fixed order.
/// On FAB9xx findings the files already handed over are to be discarded by the caller.
pub fn generate_each<T, E, F>(
    input: BuildInput<'_>,
    targets: Targets,
    templates: &Templates,
    timings: Option<&Timings>,
    sink: F,
) -> Result<Vec<T>, Stop<E>>
where
    T: Send,
    E: Send,
    F: Fn(Artifact) -> Result<T, E> + Sync,
{
    generate_each_device(input, targets, templates, timings, |_| {}, sink)
}

/// `generate_each`, showing `device` all the files of each device together before `sink`
/// takes them one by one (the build's read-back reads a switch while its files are at hand).
pub fn generate_each_device<T, E, D, F>(
    input: BuildInput<'_>,
    targets: Targets,
    templates: &Templates,
    timings: Option<&Timings>,
    device: D,
    sink: F,
) -> Result<Vec<T>, Stop<E>>
where
    T: Send,
    E: Send,
    D: Fn(&[Artifact]) + Sync,
    F: Fn(Artifact) -> Result<T, E> + Sync,
{
    let BuildInput {
        fabric,
        diagnostics,
        facts,
        lowered,
    } = input;
    let switches: Vec<&SwitchContext> = lowered
        .switches
        .iter()
        .filter(|s| targets.switch_os(s.os))
        .collect();
    let hosts: &[_] = if targets.host { &lowered.hosts } else { &[] };
    let mut problems = Vec::new();
    let lap = |name| {
        if let Some(t) = timings {
            t.lap(name);
        }
    };
    // Per device: its files' (target, bytes) and what the sink made of them.
    type Done<T> = (Vec<(String, u64)>, Vec<T>);
    let emit = |files: Vec<Artifact>| -> Result<Done<T>, E> {
        device(&files);
        let mut sizes = Vec::with_capacity(files.len());
        let mut out = Vec::with_capacity(files.len());
        for a in files {
            sizes.push((a.target.clone(), a.contents.len() as u64));
            out.push(sink(a)?);
        }
        Ok((sizes, out))
    };
    let switch_files = switches.par_iter().map(|s| {
        render::render_switch(templates, s).map_err(|e| render_diagnostic(fabric, &s.device, &e))
    });
    let host_files = hosts.par_iter().map(|h| {
        render::render_host(templates, h).map_err(|e| render_diagnostic(fabric, &h.host, &e))
    });
    let done: Vec<Result<Result<Done<T>, E>, Diagnostic>> = switch_files
        .chain(host_files)
        .map(|rendered| rendered.map(emit))
        .collect();
    // The host programs, once per build (one per driver family; issue 36 item 2): files of
    // the `host` target that are no device's.
    let programs = if hosts.is_empty() {
        Ok(Vec::new())
    } else {
        render::render_host_programs(templates, hosts)
            .map_err(|e| render_diagnostic(fabric, render::PROGRAMS_DEVICE, &e))
    };
    lap("render + output");

    let mut totals: BTreeMap<String, TargetTotals> = BTreeMap::new();
    let mut results = Vec::new();
    for d in done {
        match d {
            Ok(Ok((sizes, out))) => {
                let mut counted = false;
                for (target, bytes) in sizes {
                    let t = totals.entry(target).or_default();
                    if !counted {
                        t.devices += 1;
                        counted = true;
                    }
                    t.files += 1;
                    t.bytes += bytes;
                }
                results.extend(out);
            }
            Ok(Err(e)) => return Err(Stop::Sink(e)),
            Err(d) => problems.push(d),
        }
    }
    match programs {
        Ok(files) => {
            for a in files {
                let t = totals.entry(a.target.clone()).or_default();
                t.files += 1;
                t.bytes += a.contents.len() as u64;
                results.push(sink(a).map_err(Stop::Sink)?);
            }
        }
        Err(d) => problems.push(d),
    }
    if !problems.is_empty() {
        crate::diagnostic::sort(&mut problems);
        return Err(Stop::Findings(problems));
    }
    // A target's program, once per output (`programs/sonic/`): its files count for the target,
    // not as a device.
    let programs = render::render_programs(templates, switches.iter().copied(), &fabric.name)
        .map_err(|e| Stop::Findings(vec![render_diagnostic(fabric, "programs", &e)]))?;
    for a in programs {
        let t = totals.entry(a.target.clone()).or_default();
        t.files += 1;
        t.bytes += a.contents.len() as u64;
        results.push(sink(a).map_err(Stop::Sink)?);
    }
    let build_findings: Vec<Diagnostic> = diagnostics
        .iter()
        .filter(|d| is_build_finding(d))
        .cloned()
        .collect();
    let reports = report::reports(&ReportInput {
        fabric,
        diagnostics,
        build_findings: &build_findings,
        facts,
        switches: &switches,
        hosts,
        totals: &totals,
    });
    for a in reports {
        results.push(sink(a).map_err(Stop::Sink)?);
    }
    lap("reports");
    Ok(results)
}
