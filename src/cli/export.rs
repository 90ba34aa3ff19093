//! `fabricc export FILE --format yaml|json`

use crate::diagnostic;
use crate::model::export;
use crate::pipeline;
use crate::source::Sources;

use super::{ExitStatus, ExportArgs, ExportFormat, err, out};

pub fn run(args: &ExportArgs) -> ExitStatus {
    let mut sources = Sources::new();
    let checked = match pipeline::check(&mut sources, &args.file, &args.limits.limits()) {
        Ok(c) => c,
        Err(e) => {
            err(&format!("error: {e}\n"));
            return ExitStatus::Error;
        }
    };
    let Some(fabric) = &checked.fabric else {
        let style = diagnostic::human::HumanStyle {
            color: false,
            width: 100,
        };
        err(&diagnostic::human::render_human(
            &checked.diagnostics,
            &sources,
            style,
        ));
        err(&format!("{}\n", diagnostic::human::summary(&checked.diagnostics)));
        return ExitStatus::Failure;
    };
    let doc = export::export(fabric);
    let text = match args.format {
        ExportFormat::Yaml => serde_yaml::to_string(&doc).map_err(|e| e.to_string()),
        ExportFormat::Json => serde_json::to_string_pretty(&doc)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string()),
    };
    match text {
        Ok(t) => {
            out(&t);
            ExitStatus::Success
        }
        Err(e) => {
            err(&format!("error: cannot serialise the fabric: {e}\n"));
            ExitStatus::Error
        }
    }
}
