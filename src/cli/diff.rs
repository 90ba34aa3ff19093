//! `fabricc diff OLD NEW`: what a change to the source does to every generated file and to
//! the findings, device by device. Both fabrics are built in memory; nothing is written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Serialize;
use similar::TextDiff;

use crate::diagnostic::Diagnostic;
use crate::lower::Targets;
use crate::model::Limits;
use crate::model::git::{GitError, Revision};
use crate::model::load::{LoadError, Reader};
use crate::output::generate::{BuildInput, generate};
use crate::pipeline::{self, Checked};
use crate::render::{Artifact, ArtifactKind, Templates};
use crate::source::Sources;

use super::{DiffArgs, DiffFormat, ExitStatus, chosen_targets, chosen_templates, err, out};

#[derive(Serialize)]
struct FileChange {
    path: String,
    device: String,
    kind: &'static str,
    /// `added`, `removed` or `changed`.
    change: &'static str,
    added_lines: usize,
    removed_lines: usize,
    #[serde(skip_serializing_if = "String::is_empty")]
    diff: String,
}

#[derive(Serialize, Clone)]
struct Finding {
    code: String,
    severity: String,
    message: String,
    /// Where it is: in NEW for a new finding, in OLD for a fixed one (`REV:path` with `--git`).
    file: String,
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct ChangedFinding {
    code: String,
    severity: String,
    old_message: String,
    message: String,
    /// Where it is in NEW.
    file: String,
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct Report {
    old: Option<String>,
    new: Option<String>,
    files: Vec<FileChange>,
    new_findings: Vec<Finding>,
    fixed_findings: Vec<Finding>,
    /// A finding on both sides whose numbers changed (U6): the same code, severity and
    /// message but for its numbers. It is in neither list above.
    changed_findings: Vec<ChangedFinding>,
    switches_changed: usize,
    hosts_changed: usize,
    lines_added: usize,
    lines_removed: usize,
}

fn kind(k: ArtifactKind) -> &'static str {
    match k {
        ArtifactKind::Switch => "switch",
        ArtifactKind::Host => "host",
        ArtifactKind::Report => "report",
    }
}

/// The generated files of one side, by path; `None` when the side does not build.
fn files(
    checked: &Checked,
    targets: Targets,
    templates: &Templates,
) -> Option<BTreeMap<String, Artifact>> {
    if checked.errors() > 0 {
        return None;
    }
    let files = generate(BuildInput::of(checked)?, targets, templates).ok()?;
    Some(files.into_iter().map(|a| (a.path.clone(), a)).collect())
}

/// A finding is the same on both sides when its code, severity and message are: an edit that
/// only moves it to another line neither fixes it nor makes it new.
type FindingKey = (String, String, String);

fn findings(d: &[Diagnostic], sources: &Sources) -> BTreeMap<FindingKey, Finding> {
    let mut map = BTreeMap::new();
    for d in d {
        // An empty side (`diff /dev/null new.fab`, a file that did not exist) is no fabric:
        // its "no `fabric` block" is not a finding the change fixes (U15).
        if sources.get(d.primary.span.file).text.trim().is_empty() {
            continue;
        }
        let key = (
            d.code.to_string(),
            d.severity.as_str().to_string(),
            d.message.clone(),
        );
        // The first place in output order stands for repeats of the same finding.
        map.entry(key).or_insert_with(|| {
            let (start, _) = sources.span_lines(d.primary.span);
            Finding {
                code: d.code.to_string(),
                severity: d.severity.as_str().into(),
                message: d.message.clone(),
                file: sources.get(d.primary.span.file).display.clone(),
                line: start.line,
                column: start.column,
            }
        });
    }
    map
}

/// The findings of `a` that `b` does not have, in `a`'s order.
fn only_in(a: &BTreeMap<FindingKey, Finding>, b: &BTreeMap<FindingKey, Finding>) -> Vec<Finding> {
    a.iter()
        .filter(|(k, _)| !b.contains_key(*k))
        .map(|(_, f)| f.clone())
        .collect()
}

/// A message with its numbers as `#` and the contents of its parentheses as `…`, so that
/// `ecn min 150000 B` and `ecn min 300000 B`, or a different list of rounded values, read as
/// one finding whose numbers changed. Names in backticks (`` `L1` ``) are kept whole: the
/// same finding on another switch is another finding.
fn shape(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let (mut in_name, mut depth, mut in_number) = (false, 0u32, false);
    for c in message.chars() {
        if c == '`' && depth == 0 {
            in_name = !in_name;
        }
        if in_name {
            out.push(c);
            in_number = false;
            continue;
        }
        match c {
            '(' => {
                if depth == 0 {
                    out.push_str("(…");
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(')');
                }
            }
            _ if depth > 0 => {}
            _ => {
                let digit = c.is_ascii_digit() || (in_number && matches!(c, ',' | '.'));
                if !digit {
                    out.push(c);
                } else if !in_number {
                    out.push('#');
                }
                in_number = digit;
            }
        }
    }
    out
}

/// Pairs each new finding with a fixed one of the same code, severity and message shape
/// (first come, first paired, in output order): those are one finding whose numbers changed.
fn pair_changed(
    added: Vec<Finding>,
    fixed: Vec<Finding>,
) -> (Vec<Finding>, Vec<Finding>, Vec<ChangedFinding>) {
    let key = |f: &Finding| (f.code.clone(), f.severity.clone(), shape(&f.message));
    let mut fixed: Vec<Option<Finding>> = fixed.into_iter().map(Some).collect();
    let mut still_new = Vec::new();
    let mut changed = Vec::new();
    for n in added {
        let k = key(&n);
        match fixed
            .iter_mut()
            .find(|o| o.as_ref().is_some_and(|o| key(o) == k))
            .and_then(Option::take)
        {
            Some(o) => changed.push(ChangedFinding {
                code: n.code,
                severity: n.severity,
                old_message: o.message,
                message: n.message,
                file: n.file,
                line: n.line,
                column: n.column,
            }),
            None => still_new.push(n),
        }
    }
    (still_new, fixed.into_iter().flatten().collect(), changed)
}

/// One side of the comparison, and how the notes name it.
pub(super) struct Side {
    pub checked: Checked,
    pub name: String,
}

/// Why the comparison could not start (exit 2): the message and what to do about it.
pub(super) struct Failure {
    pub message: String,
    pub help: Option<String>,
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        Failure {
            message: e.to_string(),
            help: None,
        }
    }
}

impl From<GitError> for Failure {
    fn from(e: GitError) -> Self {
        Failure {
            message: e.to_string(),
            help: Some(e.help()),
        }
    }
}

/// Checks both sides: two files from disk, or (`--git REV FILE`) the working tree's FILE and
/// FILE with its imports at REV.
fn sides(args: &DiffArgs, sources: &mut Sources, limits: &Limits) -> Result<(Side, Side), Failure> {
    sides_of(
        &args.sides.old,
        args.sides.new.as_deref(),
        args.sides.git.as_deref(),
        sources,
        limits,
    )
}

/// The two sides `diff` and `plan` compare: OLD and NEW, or FILE at REV and FILE.
pub(super) fn sides_of(
    old: &Path,
    new: Option<&Path>,
    git: Option<&str>,
    sources: &mut Sources,
    limits: &Limits,
) -> Result<(Side, Side), Failure> {
    let disk = |sources: &mut Sources, path: &Path| -> Result<Side, Failure> {
        Ok(Side {
            checked: pipeline::check(sources, path, limits)?,
            name: path.display().to_string(),
        })
    };
    match (git, new) {
        (Some(rev), _) => {
            // The working tree first: a FILE that does not exist is that, not a git problem.
            let new = disk(sources, old)?;
            let (revision, root) = Revision::open(rev, old)?;
            let old = Side {
                checked: pipeline::check_from(sources, &revision, &root, limits)?,
                name: revision.display(&root),
            };
            Ok((old, new))
        }
        (None, Some(new)) => Ok((disk(sources, old)?, disk(sources, new)?)),
        // clap requires NEW without --git; this is only the type system's case.
        (None, None) => Err(Failure {
            message: "NEW is missing".into(),
            help: Some("compare two files (`fabricc diff OLD NEW`) or the working tree with a revision (`fabricc diff --git REV FILE`)".into()),
        }),
    }
}

pub fn run(args: &DiffArgs) -> ExitStatus {
    let targets = match chosen_targets(&args.targets) {
        Ok(t) => t,
        Err(status) => return status,
    };
    let templates = match chosen_templates(None) {
        Ok(t) => t,
        Err(status) => return status,
    };
    let limits = args.limits.limits();
    let mut sources = Sources::new();
    let (old_side, new_side) = match sides(args, &mut sources, &limits) {
        Ok(s) => s,
        Err(f) => {
            let help = f.help.map(|h| format!("help: {h}\n")).unwrap_or_default();
            err(&format!("error: {}\n{help}", f.message));
            return ExitStatus::Error;
        }
    };
    let (old, new) = (&old_side.checked, &new_side.checked);
    let (old_files, new_files) = (
        files(old, targets, &templates),
        files(new, targets, &templates),
    );
    for (side, name, f) in [
        ("OLD", &old_side.name, &old_files),
        ("NEW", &new_side.name, &new_files),
    ] {
        if f.is_none() {
            err(&format!(
                "note: {side} `{name}` does not build (see its findings); its files count as empty\n"
            ));
        }
    }
    let empty = BTreeMap::new();
    let (a, b) = (
        old_files.as_ref().unwrap_or(&empty),
        new_files.as_ref().unwrap_or(&empty),
    );
    let paths: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let mut report = Report {
        old: old.fabric_name().map(str::to_string),
        new: new.fabric_name().map(str::to_string),
        files: Vec::new(),
        new_findings: Vec::new(),
        fixed_findings: Vec::new(),
        changed_findings: Vec::new(),
        switches_changed: 0,
        hosts_changed: 0,
        lines_added: 0,
        lines_removed: 0,
    };
    let mut switches = BTreeSet::new();
    let mut hosts = BTreeSet::new();
    for path in paths {
        let (x, y) = (a.get(path), b.get(path));
        let before = x.map_or("", |f| f.contents.as_str());
        let after = y.map_or("", |f| f.contents.as_str());
        if before == after {
            continue;
        }
        let Some(art) = y.or(x) else { continue };
        let diff = TextDiff::from_lines(before, after);
        let (mut added, mut removed) = (0, 0);
        for op in diff.ops() {
            for change in diff.iter_changes(op) {
                match change.tag() {
                    similar::ChangeTag::Insert => added += 1,
                    similar::ChangeTag::Delete => removed += 1,
                    similar::ChangeTag::Equal => {}
                }
            }
        }
        let text = if args.stat {
            String::new()
        } else {
            diff.unified_diff()
                .context_radius(3)
                .header(&format!("a/{path}"), &format!("b/{path}"))
                .to_string()
        };
        match art.kind {
            ArtifactKind::Switch => {
                switches.insert(art.device.clone());
            }
            ArtifactKind::Host => {
                hosts.insert(art.device.clone());
            }
            ArtifactKind::Report => {}
        }
        report.lines_added += added;
        report.lines_removed += removed;
        report.files.push(FileChange {
            path: path.clone(),
            device: art.device.clone(),
            kind: kind(art.kind),
            change: match (x, y) {
                (None, _) => "added",
                (_, None) => "removed",
                _ => "changed",
            },
            added_lines: added,
            removed_lines: removed,
            diff: text,
        });
    }
    report.switches_changed = switches.len();
    report.hosts_changed = hosts.len();
    let (fo, fnew) = (
        findings(&old.diagnostics, &sources),
        findings(&new.diagnostics, &sources),
    );
    let (added, fixed, changed) = pair_changed(only_in(&fnew, &fo), only_in(&fo, &fnew));
    report.new_findings = added;
    report.fixed_findings = fixed;
    report.changed_findings = changed;
    match args.format {
        DiffFormat::Json => {
            out(&(serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"))
        }
        DiffFormat::Text => out(&text(&report, args.stat)),
    }
    ExitStatus::Success
}

fn text(r: &Report, stat: bool) -> String {
    let mut s = String::new();
    for f in &r.files {
        if stat {
            s.push_str(&format!(
                "{:<60} +{} -{}\n",
                f.path, f.added_lines, f.removed_lines
            ));
        } else {
            s.push_str(&f.diff);
        }
    }
    for (what, list) in [("new", &r.new_findings), ("fixed", &r.fixed_findings)] {
        for f in list {
            s.push_str(&format!(
                "{what} finding: {}:{}:{}: {} {}: {}\n",
                f.file, f.line, f.column, f.code, f.severity, f.message
            ));
        }
    }
    for f in &r.changed_findings {
        s.push_str(&format!(
            "changed finding: {}:{}:{}: {} {}: {}\n  was: {}\n",
            f.file, f.line, f.column, f.code, f.severity, f.message, f.old_message
        ));
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if !r.files.is_empty() {
        s.push_str(
            "rollout: `fabricc plan` with the same arguments orders this change in waves and proves every step\n",
        );
    }
    s.push_str(&format!(
        "{} and {} change; {} files, +{} -{} lines; {} new, {} fixed and {} changed findings\n",
        plural(r.switches_changed, "switch", "switches"),
        plural(r.hosts_changed, "host", "hosts"),
        r.files.len(),
        r.lines_added,
        r.lines_removed,
        r.new_findings.len(),
        r.fixed_findings.len(),
        r.changed_findings.len()
    ));
    s
}
