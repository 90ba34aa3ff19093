//! The front end as one call: a path in; the resolved fabric, its findings and facts out.
//! `check` stops after the first stage that reports errors (a syntax error leaves nothing to
//! resolve; resolution errors leave no model to analyse), so every finding shown is real.
//! A fabric the analysis passes is also lowered and put through every target's view, without
//! rendering files, so `check` fails whenever `build` would (FAB9xx).

use std::path::Path;

use crate::analysis::{self, Facts};
use crate::diagnostic::{self, Diagnostic};
use crate::lower::{self, Lowered, Targets};
use crate::model::load::{self, LoadError, Loaded, Reader};
use crate::model::{Fabric, Limits, resolve};
use crate::render::preflight::preflight;
use crate::source::Sources;
use crate::timings::Timings;

/// What checking one fabric produced.
#[derive(Debug)]
pub struct Checked {
    pub fabric: Option<Fabric>,
    /// Sorted in output order.
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when the fabric did not resolve.
    pub facts: Option<Facts>,
    /// Every device lowered for every target, when the analysis found no errors: what
    /// `build` renders. Lowering and the targets' views run here so that a FAB9xx a build
    /// would stop on is a `check` finding too.
    pub lowered: Option<Lowered>,
}

impl Checked {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == diagnostic::Severity::Warning)
            .count()
    }

    pub fn fabric_name(&self) -> Option<&str> {
        self.fabric.as_ref().map(|f| f.name.as_str())
    }
}

/// Loads, resolves and analyses the fabric at `path`; its files are added to `sources`.
pub fn check(sources: &mut Sources, path: &Path, limits: &Limits) -> Result<Checked, LoadError> {
    check_from(sources, &load::Disk, path, limits)
}

/// [`check`], recording the wall time of every stage in `timings` (`check --timings`).
pub fn check_timed(
    sources: &mut Sources,
    path: &Path,
    limits: &Limits,
    timings: Option<&Timings>,
) -> Result<Checked, LoadError> {
    let loaded = load::load_from(sources, &load::Disk, path, limits)?;
    if let Some(t) = timings {
        t.lap("load + parse");
    }
    Ok(check_loaded_timed(sources, loaded, limits, timings))
}

/// [`check`], reading `path` and its imports through `reader` (a git revision, for `diff`).
pub fn check_from(
    sources: &mut Sources,
    reader: &dyn Reader,
    path: &Path,
    limits: &Limits,
) -> Result<Checked, LoadError> {
    let loaded = load::load_from(sources, reader, path, limits)?;
    Ok(check_loaded(sources, loaded, limits))
}

/// Resolves and analyses what `load` produced.
pub fn check_loaded(sources: &Sources, loaded: Loaded, limits: &Limits) -> Checked {
    check_loaded_timed(sources, loaded, limits, None)
}

fn check_loaded_timed(
    sources: &Sources,
    loaded: Loaded,
    limits: &Limits,
    timings: Option<&Timings>,
) -> Checked {
    let lap = |name| {
        if let Some(t) = timings {
            t.lap(name);
        }
    };
    let mut diagnostics = loaded.diagnostics;
    if diagnostics.iter().any(Diagnostic::is_error) || loaded.files.is_empty() {
        diagnostic::sort(&mut diagnostics);
        return Checked {
            fabric: None,
            diagnostics,
            facts: None,
            lowered: None,
        };
    }
    let (mut fabric, resolve_diags) = resolve::resolve(&loaded.files, sources, limits);
    diagnostics.extend(resolve_diags);
    // ECN fill levels become bytes per switch before any check judges them (issue 34); a
    // level with no base (FAB115) stops the fabric as a resolve error does.
    if let Some(f) = fabric.as_mut() {
        let mut fill = Vec::new();
        lower::resolve_fill_levels(f, &mut fill);
        if fill.iter().any(Diagnostic::is_error) {
            fabric = None;
        }
        diagnostics.extend(fill);
    }
    lap("resolve");
    analyse_resolved(fabric, diagnostics, limits, timings)
}

/// Analyses and lowers a fabric made in memory (`plan`'s make-before-break state), as `check`
/// does a resolved one. Its findings point wherever its values' spans do.
pub fn check_fabric(fabric: Fabric, limits: &Limits) -> Checked {
    analyse_resolved(Some(fabric), Vec::new(), limits, None)
}

/// U8: a deadlock witness names ports as the fabric does (`rail1-leaf.port34`), which the
/// switch config does not (`Ethernet264`): each such name in a FAB201/FAB202 note gets the
/// OS's own name beside it. The analysis runs before the targets' naming exists, so the
/// names are added here, once the whole pipeline is at hand.
fn name_ports_as_the_os_does(fabric: &Fabric, diagnostics: &mut [Diagnostic]) {
    let wanted = |d: &Diagnostic| {
        matches!(
            d.code,
            diagnostic::Code::CyclicBufferDependency | diagnostic::Code::PriorityDecrease
        )
    };
    if !diagnostics.iter().any(wanted) {
        return;
    }
    let names = lower::PortNames::new(fabric);
    let switch_of: std::collections::HashMap<&str, crate::model::SwitchId> = fabric
        .switch_ids()
        .map(|s| (fabric.switch(s).name.as_str(), s))
        .collect();
    for d in diagnostics.iter_mut().filter(|d| wanted(d)) {
        for note in &mut d.notes {
            *note = with_os_port_names(note, &switch_of, &names);
        }
    }
}

/// `A.port2 (from …)` → `A.port2 = Ethernet4 (from …)`, for every `SWITCH.portN` word whose
/// OS name differs.
fn with_os_port_names(
    note: &str,
    switch_of: &std::collections::HashMap<&str, crate::model::SwitchId>,
    names: &lower::PortNames<'_>,
) -> String {
    let mut out = String::with_capacity(note.len() + 32);
    for (i, word) in note.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
        let Some((switch, port)) = word.rsplit_once(".port") else {
            continue;
        };
        let (Some(&s), Ok(n)) = (switch_of.get(switch), port.parse::<u32>()) else {
            continue;
        };
        let Some(index) = n.checked_sub(1) else {
            continue;
        };
        let os = names.name(s, index);
        if os != format!("port{n}") {
            out.push_str(" = ");
            out.push_str(&os);
        }
    }
    out
}

fn analyse_resolved(
    fabric: Option<Fabric>,
    mut diagnostics: Vec<Diagnostic>,
    limits: &Limits,
    timings: Option<&Timings>,
) -> Checked {
    let lap = |name| {
        if let Some(t) = timings {
            t.lap(name);
        }
    };
    let mut facts = None;
    let mut lowered = None;
    if let Some(f) = &fabric {
        let findings = analysis::analyze_timed(f, limits, timings);
        diagnostics.extend(findings.diagnostics);
        facts = Some(findings.facts);
        let plan = findings.plan;
        lap("analyse");
        if !diagnostics.iter().any(Diagnostic::is_error) {
            let mut l = lower::lower_with_plan(f, Targets::ALL, &plan);
            diagnostics.append(&mut l.diagnostics);
            lap("lower");
            diagnostics.extend(preflight(f, &l));
            lap("target views");
            lowered = Some(l);
        }
    }
    if let Some(f) = &fabric {
        name_ports_as_the_os_does(f, &mut diagnostics);
    }
    diagnostic::sort(&mut diagnostics);
    diagnostics.dedup();
    if let Some(f) = &fabric {
        for a in &f.allow {
            let by = format!("`allow {}` in the fabric", a.value);
            diagnostic::allow(&mut diagnostics, a.value, &by);
        }
    }
    Checked {
        fabric,
        diagnostics,
        facts,
        lowered,
    }
}
