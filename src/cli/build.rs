//! `fabricc build FILE -o DIR`

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::diagnostic::{self, Code, Diagnostic, Severity};
use crate::import::readback::{self, Readback};
use crate::lower::Targets;
use crate::output::{
    self,
    generate::{BuildInput, Stop, generate_each_device},
};
use crate::pipeline;
use crate::render::{Artifact, Templates};
use crate::source::Sources;
use crate::timings::Timings;

use super::{
    BuildArgs, CheckFormat, ExitStatus, Progress, Stream, allow_all, allowed_codes, chosen_targets,
    chosen_templates, err, out,
};

pub fn run(args: &BuildArgs) -> ExitStatus {
    let timings = args.timings.then(Timings::new);
    let status = build(args, timings.as_ref());
    if let Some(t) = timings {
        err(&t.table());
    }
    status
}

fn build(args: &BuildArgs, timings: Option<&Timings>) -> ExitStatus {
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
    let progress = Progress::start("fabricc build");
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
    let run = Run {
        args,
        timings,
        sources: &sources,
        checked: &checked,
        targets,
        templates: &templates,
        reader: checked
            .lowered
            .as_ref()
            .map(|l| readback::Reader::new(&l.switches).with_hosts(&l.hosts)),
        readback: Mutex::new(None),
    };
    run.lap("check");
    let errors = checked.diagnostics.iter().any(Diagnostic::is_error);
    // The check lowered every device and built every target's view, so its findings hold the
    // build findings (FAB9xx) too: a build stops exactly where `check` fails.
    let Some(input) = BuildInput::of(&checked).filter(|_| !errors) else {
        run.print(&checked.diagnostics);
        err("error: the check found errors; nothing was written\n");
        return ExitStatus::Failure;
    };
    let warnings = checked
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning);
    let blocked = warnings && !args.allow_warnings;
    progress.stage(if args.check {
        "generating and comparing files"
    } else {
        "generating and writing files"
    });
    if args.check {
        // `--check` answers "is the output stale?" whether or not warnings block a build (U7):
        // the comparison runs, then warnings fail the step as they would fail `build`.
        let status = run.compare(input);
        if blocked {
            err(&format!(
                "error: the check found warnings ({}), so `build` would write nothing; allow \
                 them with `allow CODE` in the fabric or `--allow CODE` (or all with \
                 --allow-warnings)\n",
                warning_codes(&checked.diagnostics)
            ));
            return ExitStatus::Failure;
        }
        return status;
    }
    if blocked {
        run.print(&checked.diagnostics);
        err(&format!(
            "error: the check found warnings ({}); nothing was written (`allow CODE` in the \
             fabric or `--allow CODE` to accept them, --allow-warnings for all)\n",
            warning_codes(&checked.diagnostics)
        ));
        return ExitStatus::Failure;
    }
    let status = run.write(input);
    // `build` is the process's last act (`main` returns its status): freeing the checked
    // fabric, its lowered devices and the read-back's memo one allocation at a time would
    // cost 3 % of a large build for memory the exit gives back anyway.
    std::mem::forget(run);
    std::mem::forget(checked);
    std::mem::forget(sources);
    status
}

/// The JSON object of `render_json` with a last member `readback` (docs/language.md, "JSON
/// output"): the members before it are unchanged.
fn with_readback(text: String, r: &Readback) -> String {
    let Ok(rb) = serde_json::to_string_pretty(r) else {
        return text;
    };
    let body = text.trim_end();
    let Some(open) = body.strip_suffix('}') else {
        return text;
    };
    let open = open.trim_end();
    let rb = rb.replace('\n', "\n  ");
    format!("{open},\n  \"readback\": {rb}\n}}\n")
}

/// The distinct codes of the warnings, in code order: what `--allow` would take.
fn warning_codes(diags: &[Diagnostic]) -> String {
    let codes: std::collections::BTreeSet<&str> = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.code.as_str())
        .collect();
    codes.into_iter().collect::<Vec<_>>().join(", ")
}

/// One `build` after a clean check: what it was asked, what it read, and how it reports.
struct Run<'a> {
    args: &'a BuildArgs,
    timings: Option<&'a Timings>,
    sources: &'a Sources,
    checked: &'a pipeline::Checked,
    targets: Targets,
    templates: &'a Templates,
    /// Reads each switch back as its files are rendered (issue 34 item 2).
    reader: Option<readback::Reader<'a>>,
    /// What the read-back found, for `--format json`.
    readback: Mutex<Option<Readback>>,
}

impl Run<'_> {
    /// Reads one device's rendered files back and compares them with the proven model.
    fn read_device(&self, files: &[Artifact]) {
        if let Some(r) = &self.reader {
            r.device(files);
        }
    }

    /// What the read-back of every device found.
    fn read_back(&self) {
        let Some(reader) = &self.reader else {
            return;
        };
        if let Ok(mut slot) = self.readback.lock() {
            *slot = Some(reader.finish());
        }
        self.lap("readback");
    }

    /// FAB912 for the read-back's mistakes: one finding per property and pair of values,
    /// naming the devices, at the first one's declaration.
    fn readback_mistakes(&self) -> Vec<Diagnostic> {
        let Some(fabric) = self.checked.fabric.as_ref() else {
            return Vec::new();
        };
        let Some(r) = self.readback.lock().ok().and_then(|r| r.clone()) else {
            return Vec::new();
        };
        let mut grouped: BTreeMap<(&str, &str, &str, &str), Vec<&str>> = BTreeMap::new();
        for d in r
            .differences
            .iter()
            .filter(|d| d.kind == readback::Kind::Mistake)
        {
            let key = (
                d.property,
                d.what.as_str(),
                d.proven.as_str(),
                d.written.as_str(),
            );
            grouped.entry(key).or_default().push(d.device.as_str());
        }
        grouped
            .into_iter()
            .map(|((property, what, proven, written), devices)| {
                let first = devices.first().copied().unwrap_or("");
                // A switch's declaration, or a host's (its settings and environment are read
                // back too).
                let switch = fabric.switches.iter().find(|s| s.name == first);
                let span = switch.map(|s| s.span).unwrap_or_else(|| {
                    fabric
                        .hosts
                        .iter()
                        .find(|h| h.name == first)
                        .map_or(fabric.span, |h| h.span)
                });
                let file = if switch.is_some() || first.is_empty() {
                    "switch file"
                } else {
                    "host file"
                };
                let mut names: Vec<String> =
                    devices.iter().take(4).map(|d| format!("`{d}`")).collect();
                if devices.len() > 4 {
                    names.push(format!("{} more", devices.len() - 4));
                }
                let what = if what.is_empty() {
                    property.to_string()
                } else {
                    format!("{property} {what}")
                };
                Diagnostic::new(
                    Code::ReadbackMistake,
                    span,
                    format!(
                        "{}: read back, the {file}'s {what} is {written}, but the checks proved {proven}",
                        names.join(", ")
                    ),
                )
                .label(if devices.len() == 1 {
                    "this device"
                } else {
                    "the first of these devices"
                })
                .help("with a `--templates` override, make the template print the value it is given; without one, this is a fabricc bug: report it with both values")
            })
            .collect()
    }

    fn lap(&self, name: &'static str) {
        if let Some(t) = self.timings {
            t.lap(name);
        }
    }

    fn human(&self) -> bool {
        self.args.format == CheckFormat::Human
    }

    /// Findings in the format asked for, on stdout.
    fn print(&self, diags: &[Diagnostic]) {
        let sources = self.sources;
        let text = match self.args.format {
            CheckFormat::Human => {
                let color = self.args.color.enabled(Stream::Stderr);
                let style = diagnostic::human::HumanStyle { color, width: 100 };
                let mut s =
                    diagnostic::human::render_human_terse(diags, sources, style, self.args.advice);
                s.push_str(&diagnostic::human::summary_terse(diags, self.args.advice));
                s.push('\n');
                s
            }
            CheckFormat::Short => diagnostic::short::render_short(diags, sources),
            CheckFormat::Json => {
                let text =
                    diagnostic::json::render_json(self.checked.fabric_name(), diags, None, sources);
                let rb = self.readback.lock().ok().and_then(|r| r.clone());
                match rb {
                    Some(r) => with_readback(text, &r),
                    None => text,
                }
            }
            CheckFormat::Sarif => diagnostic::sarif::render_sarif(diags, sources),
            CheckFormat::Github => diagnostic::github::render_github(diags, sources),
        };
        out(&text);
    }

    /// The check's findings after a build, unless a human build found none.
    fn print_found(&self) {
        let found = &self.checked.diagnostics;
        if !found.is_empty() || !self.human() {
            self.print(found);
        }
    }

    /// The build's own summary: stdout for people, stderr when stdout is a document.
    fn say(&self, text: &str) {
        if self.human() { out(text) } else { err(text) }
    }

    fn cannot_generate(&self, problems: &[Diagnostic]) -> ExitStatus {
        let mut all = self.checked.diagnostics.clone();
        all.extend(problems.iter().cloned());
        self.print(&all);
        err("error: some devices cannot be generated; nothing was written\n");
        ExitStatus::Failure
    }

    /// `--check`: compares every file with the output folder; writes nothing.
    fn compare(&self, input: BuildInput<'_>) -> ExitStatus {
        let dest = &self.args.output;
        // Each file is compared as soon as it is rendered; the build is never held whole.
        let compared = match generate_each_device(
            input,
            self.targets,
            self.templates,
            self.timings,
            |files| self.read_device(files),
            |a| Ok::<_, Infallible>(output::compare_one(dest, &a)),
        ) {
            Ok(c) => c,
            Err(Stop::Findings(problems)) => return self.cannot_generate(&problems),
            Err(Stop::Sink(never)) => match never {},
        };
        self.read_back();
        let mistakes = self.readback_mistakes();
        if !mistakes.is_empty() {
            return self.cannot_generate(&mistakes);
        }
        self.print_found();
        let files = compared.len() + 1;
        let diffs = output::compare_rest(dest, &input.fabric.name, compared);
        self.lap("compare");
        if diffs.is_empty() {
            self.say(&format!("{}: up to date ({files} files)\n", dest.display()));
            return ExitStatus::Success;
        }
        let mut s = String::new();
        for d in &diffs {
            s.push_str(&format!("{d}\n"));
        }
        s.push_str(&format!(
            "{}: stale ({} differences); run `fabricc build` to update\n",
            dest.display(),
            diffs.len()
        ));
        self.say(&s);
        ExitStatus::Failure
    }

    /// Stages every file, then swaps the output folder in at once.
    fn write(&self, input: BuildInput<'_>) -> ExitStatus {
        let dest = &self.args.output;
        // No flag makes some destinations safe: one holding an input or the current folder.
        let inputs: Vec<PathBuf> = self
            .sources
            .files()
            .map(|(_, f)| f.path.clone())
            .chain(self.args.templates.iter().cloned())
            .collect();
        if let Err(e) = output::guard::check_destination(dest, &inputs) {
            err(&format!("error: {e}\n"));
            return ExitStatus::Error;
        }
        // Files are staged as they are rendered; the destination changes only in `finish`.
        let stage = match output::Stage::open(dest, self.args.force) {
            Ok(stage) => stage,
            Err(e) => {
                err(&format!("error: {e}\n"));
                return ExitStatus::Error;
            }
        };
        self.lap("open output folder");
        let entries = match generate_each_device(
            input,
            self.targets,
            self.templates,
            self.timings,
            |files| self.read_device(files),
            |a| stage.put(&a),
        ) {
            Ok(entries) => entries,
            Err(Stop::Findings(problems)) => return self.cannot_generate(&problems),
            Err(Stop::Sink(e)) => {
                err(&format!("error: {e}\n"));
                return ExitStatus::Error;
            }
        };
        // Read back before the swap: a file that says something other than the proof is
        // never put in place (FAB912), and the staged files are removed with the stage.
        self.read_back();
        let mistakes = self.readback_mistakes();
        if !mistakes.is_empty() {
            return self.cannot_generate(&mistakes);
        }
        let finished = stage.finish(&input.fabric.name, entries);
        self.lap("manifest + swap");
        self.print_found();
        match finished {
            Ok(summary) => {
                self.say(&format!(
                    "built `{}` into {}: {} files written, {} unchanged, {} removed{}\n",
                    input.fabric.name,
                    dest.display(),
                    summary.written.len(),
                    summary.unchanged,
                    summary.removed.len(),
                    if summary.foreign > 0 {
                        format!(", {} other files kept", summary.foreign)
                    } else {
                        String::new()
                    }
                ));
                ExitStatus::Success
            }
            Err(e) => {
                err(&format!("error: {e}\n"));
                ExitStatus::Error
            }
        }
    }
}
