//! What every subcommand shares: its exit status, printing, and the `--target` and
//! `--templates` choices.

use std::process::ExitCode;

/// The exit status of a command: 0 clean, 1 findings, 2 the tool could not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    Success,
    Failure,
    Error,
}

impl From<ExitStatus> for ExitCode {
    fn from(s: ExitStatus) -> ExitCode {
        match s {
            ExitStatus::Success => ExitCode::SUCCESS,
            ExitStatus::Failure => ExitCode::from(1),
            ExitStatus::Error => ExitCode::from(2),
        }
    }
}

/// Writes to stdout; a closed pipe (`fabricc check … | head`) is not an error.
pub(crate) fn out(text: &str) {
    use std::io::Write;
    super::progress::clear();
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

pub(crate) fn err(text: &str) {
    use std::io::Write;
    super::progress::clear();
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// The `--target` list (every target when none is given), or the usage error already printed.
pub(crate) fn chosen_targets(targets: &[String]) -> Result<crate::lower::Targets, ExitStatus> {
    if targets.is_empty() {
        return Ok(crate::lower::Targets::ALL);
    }
    crate::lower::Targets::parse(&targets.join(",")).map_err(|e| {
        err(&format!("error: {e}\n"));
        ExitStatus::Error
    })
}

/// The codes of `--allow`, each a warning code (FAB113's rule for the fabric's `allow`); an
/// unknown code or one that is not a warning is an error already printed.
pub(crate) fn allowed_codes(
    written: &[String],
) -> Result<Vec<crate::diagnostic::Code>, ExitStatus> {
    use crate::diagnostic::{Code, Severity};
    let mut codes = Vec::new();
    for w in written.iter().map(|w| w.trim()).filter(|w| !w.is_empty()) {
        match Code::parse(w) {
            Some(c) if c.default_severity() == Severity::Warning => codes.push(c),
            Some(c) => {
                err(&format!(
                    "error: `--allow {c}`: {c} is {}, and only warnings can be allowed\n",
                    c.default_severity().as_str()
                ));
                return Err(ExitStatus::Error);
            }
            None => {
                err(&format!(
                    "error: `--allow {w}` names no finding code (write it as `FAB954`)\n"
                ));
                return Err(ExitStatus::Error);
            }
        }
    }
    Ok(codes)
}

/// Applies `--allow` to findings (see [`crate::diagnostic::allow`]).
pub(crate) fn allow_all(
    diags: &mut [crate::diagnostic::Diagnostic],
    codes: &[crate::diagnostic::Code],
) {
    for &c in codes {
        crate::diagnostic::allow(diags, c, &format!("`--allow {c}`"));
    }
}

/// The embedded templates, overridden file by file from `--templates DIR` when given; a
/// template that does not compile is an error already printed.
pub(crate) fn chosen_templates(
    dir: Option<&std::path::Path>,
) -> Result<crate::render::Templates, ExitStatus> {
    let templates = match dir {
        Some(dir) => crate::render::Templates::with_overrides(dir),
        None => crate::render::Templates::embedded(),
    };
    templates.map_err(|e| {
        err(&format!("error: {e}\n"));
        ExitStatus::Error
    })
}
