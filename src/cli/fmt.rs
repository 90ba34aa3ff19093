//! `fabricc fmt [--check [--diff]] FILE…`

use std::io::{Read, Write};
use std::path::Path;

use crate::diagnostic::{self, human::HumanStyle};
use crate::source::{SourceFile, Sources};
use crate::syntax::format;

use super::{ExitStatus, FmtArgs, err, out};

pub fn run(args: &FmtArgs) -> ExitStatus {
    let mut status = ExitStatus::Success;
    for path in &args.files {
        let s = one(path, args.check, args.diff);
        if s == ExitStatus::Error || status == ExitStatus::Success {
            status = s;
        }
    }
    status
}

fn one(path: &Path, check: bool, diff: bool) -> ExitStatus {
    let stdin = path.as_os_str() == "-";
    let text = if stdin {
        let mut t = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut t) {
            err(&format!("error: cannot read standard input: {e}\n"));
            return ExitStatus::Error;
        }
        t
    } else {
        match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                err(&format!("error: cannot read `{}`: {e}\n", path.display()));
                return ExitStatus::Error;
            }
        }
    };
    let mut sources = Sources::new();
    let id = sources.add(SourceFile::new(path, path.display().to_string(), text));
    let text = &sources.get(id).text;
    let formatted = match format::format(id, text) {
        Ok(f) => f,
        Err(d) => {
            let style = HumanStyle {
                color: false,
                width: 100,
            };
            err(&diagnostic::human::render_human(
                std::slice::from_ref(&d),
                &sources,
                style,
            ));
            err(&format!(
                "{}: not formatted (syntax error)\n",
                path.display()
            ));
            return ExitStatus::Failure;
        }
    };
    if stdin {
        out(&formatted);
        return ExitStatus::Success;
    }
    if formatted == *text {
        return ExitStatus::Success;
    }
    if check {
        out(&format!("not formatted: {}\n", path.display()));
        if diff {
            let shown = path.display().to_string();
            out(
                &similar::TextDiff::from_lines(text.as_str(), formatted.as_str())
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("a/{shown}"), &format!("b/{shown}"))
                    .to_string(),
            );
        }
        return ExitStatus::Failure;
    }
    match write_atomically(path, &formatted) {
        Ok(()) => ExitStatus::Success,
        Err(e) => {
            err(&format!("error: cannot write `{}`: {e}\n", path.display()));
            ExitStatus::Error
        }
    }
}

/// Writes next to the file and renames over it, so an error never leaves a truncated file.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.fabricc-fmt.{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
