//! `fabricc check FILE…`

use crate::diagnostic::{self, Diagnostic, Severity};
use crate::pipeline::{self, Checked};
use crate::source::Sources;
use crate::timings::Timings;

use super::{
    CheckArgs, CheckFormat, ExitStatus, Progress, Stream, allow_all, allowed_codes, err, out,
};

pub fn run(args: &CheckArgs) -> ExitStatus {
    if let Some(dir) = &args.state {
        return super::import::check_state(args, dir);
    }
    let timings = args.timings.then(Timings::new);
    let status = check(args, timings.as_ref());
    if let Some(t) = timings {
        err(&t.table());
    }
    status
}

fn check(args: &CheckArgs, timings: Option<&Timings>) -> ExitStatus {
    let allowed = match allowed_codes(&args.allow) {
        Ok(c) => c,
        Err(status) => return status,
    };
    let limits = args.limits.limits();
    let mut sources = Sources::new();
    let mut results: Vec<Checked> = Vec::new();
    let progress = Progress::start("fabricc check");
    for path in &args.files {
        progress.stage(&format!("checking {}", path.display()));
        match pipeline::check_timed(&mut sources, path, &limits, timings) {
            Ok(mut c) => {
                allow_all(&mut c.diagnostics, &allowed);
                results.push(c);
            }
            Err(e) => {
                err(&format!("error: {e}\n"));
                return ExitStatus::Error;
            }
        }
    }
    let all: Vec<Diagnostic> = results
        .iter()
        .flat_map(|r| r.diagnostics.iter().cloned())
        .collect();
    let text = match args.format {
        CheckFormat::Human => {
            let color = args.color.enabled(Stream::Stderr);
            let style = diagnostic::human::HumanStyle { color, width: 100 };
            let mut s = diagnostic::human::render_human_terse(&all, &sources, style, args.advice);
            for r in &results {
                if let (Some(f), Some(facts)) = (&r.fabric, &r.facts) {
                    s.push_str(&format!(
                        "checked `{}`: {}, {}, {}\n",
                        f.name,
                        count(facts.switches, "switch", "switches"),
                        count(facts.hosts, "host", "hosts"),
                        count(facts.links, "link", "links")
                    ));
                }
            }
            s.push_str(&diagnostic::human::summary_terse(&all, args.advice));
            s.push('\n');
            s
        }
        CheckFormat::Short => diagnostic::short::render_short(&all, &sources),
        CheckFormat::Json => {
            let objects: Vec<String> = results
                .iter()
                .map(|r| {
                    let facts = if args.facts { r.facts.as_ref() } else { None };
                    diagnostic::json::render_json(r.fabric_name(), &r.diagnostics, facts, &sources)
                })
                .collect();
            if objects.len() == 1 {
                objects.concat()
            } else {
                format!("[\n{}]\n", objects.join(",\n"))
            }
        }
        CheckFormat::Sarif => diagnostic::sarif::render_sarif(&all, &sources),
        CheckFormat::Github => diagnostic::github::render_github(&all, &sources),
    };
    out(&text);
    if let Some(t) = timings {
        t.lap("findings");
    }
    let errors = all.iter().any(Diagnostic::is_error);
    let warnings = all.iter().any(|d| d.severity == Severity::Warning);
    // `check` is the process's last act (`main` returns its status): freeing each fabric and
    // its lowered devices one allocation at a time was a tenth of a 98k-GPU check.
    std::mem::forget(results);
    std::mem::forget(sources);
    if errors || (args.deny_warnings && warnings) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
