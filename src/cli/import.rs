//! `fabricc import --state DIR -o FILE.fab`, and `check --state DIR`.

use crate::diagnostic::{self, Diagnostic};
use crate::import::{self, Input, check::StateChecked};
use crate::source::Sources;

use super::{CheckArgs, CheckFormat, ColorChoice, ExitStatus, ImportArgs, Stream, err, out};

fn display(dir: &std::path::Path) -> String {
    let s = dir.display().to_string();
    let t = s.trim_end_matches('/');
    if t.is_empty() { s } else { t.to_string() }
}

fn color(choice: ColorChoice, to_stdout: bool) -> bool {
    choice.enabled(if to_stdout {
        Stream::Stdout
    } else {
        Stream::Stderr
    })
}

fn render(
    format: CheckFormat,
    name: Option<&str>,
    diags: &[Diagnostic],
    facts: Option<&crate::analysis::Facts>,
    sources: &Sources,
    color: bool,
    advice: bool,
) -> String {
    match format {
        CheckFormat::Human => {
            let style = diagnostic::human::HumanStyle { color, width: 100 };
            let mut s = diagnostic::human::render_human_terse(diags, sources, style, advice);
            s.push_str(&diagnostic::human::summary_terse(diags, advice));
            s.push('\n');
            s
        }
        CheckFormat::Short => diagnostic::short::render_short(diags, sources),
        CheckFormat::Json => diagnostic::json::render_json(name, diags, facts, sources),
        CheckFormat::Sarif => diagnostic::sarif::render_sarif(diags, sources),
        CheckFormat::Github => diagnostic::github::render_github(diags, sources),
    }
}

pub fn run(args: &ImportArgs) -> ExitStatus {
    let limits = args.limits.limits();
    let mut sources = Sources::new();
    let input = Input {
        state_dir: &args.state,
        state_display: display(&args.state),
        max_input_bytes: limits.max_input_bytes,
        name: args.name.clone(),
    };
    let imported = match import::import(&input, &mut sources) {
        Ok(i) => i,
        Err(import::Fatal(m)) => {
            err(&format!("error: {m}\n"));
            return ExitStatus::Error;
        }
    };
    let to_stdout = args.output.as_ref().is_none_or(|p| p.as_os_str() == "-");
    if to_stdout {
        out(&imported.text);
    } else if let Some(path) = &args.output
        && let Err(e) = std::fs::write(path, &imported.text)
    {
        err(&format!("error: cannot write `{}`: {e}\n", path.display()));
        return ExitStatus::Error;
    }
    let text = render(
        args.format,
        None,
        &imported.diagnostics,
        None,
        &sources,
        color(args.color, !to_stdout),
        // What import found is the command's answer: all of it, advice included.
        true,
    );
    if to_stdout {
        err(&text);
    } else {
        out(&text);
    }
    if imported.diagnostics.iter().any(Diagnostic::is_error) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// `check --state DIR`.
pub fn check_state(args: &CheckArgs, dir: &std::path::Path) -> ExitStatus {
    let allowed = match super::allowed_codes(&args.allow) {
        Ok(c) => c,
        Err(status) => return status,
    };
    let limits = args.limits.limits();
    let mut sources = Sources::new();
    let input = Input {
        state_dir: dir,
        state_display: display(dir),
        max_input_bytes: limits.max_input_bytes,
        name: None,
    };
    let StateChecked {
        checked,
        mut diagnostics,
        ..
    } = match import::check::check_state(&input, &mut sources, &limits) {
        Ok(c) => c,
        Err(import::Fatal(m)) => {
            err(&format!("error: {m}\n"));
            return ExitStatus::Error;
        }
    };
    super::allow_all(&mut diagnostics, &allowed);
    let facts = if args.facts {
        checked.facts.as_ref()
    } else {
        None
    };
    let mut text = render(
        args.format,
        checked.fabric_name(),
        &diagnostics,
        facts,
        &sources,
        color(args.color, false),
        args.advice,
    );
    if args.format == CheckFormat::Human
        && let (Some(f), Some(facts)) = (&checked.fabric, &checked.facts)
    {
        text = format!(
            "{text}checked `{}` (imported from `{}`): {} switches, {} hosts, {} links\n",
            f.name,
            display(dir),
            facts.switches,
            facts.hosts,
            facts.links
        );
    }
    out(&text);
    let errors = diagnostics.iter().any(Diagnostic::is_error);
    let warnings = diagnostics
        .iter()
        .any(|d| d.severity == diagnostic::Severity::Warning);
    if errors || (args.deny_warnings && warnings) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}
