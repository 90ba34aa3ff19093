//! `switch-model … { sku "PATH" }` (issue 38 item 1): the folder the loader read, checked
//! against the model's platform (`catalogue::read_folder`). A finding about a row points at
//! that row of the SKU's file (FAB957 for `port_config.ini` and `hwsku.json`, FAB958 for the
//! buffer tables); a `sku` on a model that is not SONiC on a catalogue platform is FAB959.

use std::collections::HashMap;
use std::sync::Arc;

use crate::catalogue::{CONFIG_DB, CustomSku, Platform, SkuFinding, read_config_db, read_folder};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::load::{ParsedFile, SkuFiles};
use crate::source::Sources;
use crate::span::{Span, Spanned};
use crate::syntax::ast::Os;

/// The SKU folders of every file, by the span of the path that names them.
pub struct SkuFolders<'a> {
    folders: HashMap<Span, &'a SkuFiles>,
    sources: &'a Sources,
}

impl<'a> SkuFolders<'a> {
    pub fn new(files: &'a [ParsedFile], sources: &'a Sources) -> Self {
        Self {
            folders: files
                .iter()
                .flat_map(|f| f.skus.iter())
                .map(|s| (s.at, s))
                .collect(),
            sources,
        }
    }
}

/// The model's SKU from its folder, or `None` (with the findings) when it cannot be used.
pub fn custom_sku(
    model: &str,
    path: &Spanned<String>,
    os: Os,
    platform: Option<&'static Platform>,
    folders: &SkuFolders<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Arc<CustomSku>> {
    let refuse = |message: String, help: &str| {
        Diagnostic::new(Code::SkuUnreadable, path.span, message)
            .label("this SKU folder")
            .help(help.to_string())
    };
    if os != Os::Sonic {
        diags.push(refuse(
            format!(
                "model `{model}` runs {}: a `sku` folder is SONiC's, and only SONiC reads one",
                os.as_str()
            ),
            "drop `sku`, or make the model `os sonic`",
        ));
        return None;
    }
    let Some(platform) = platform.filter(|p| p.sonic.is_some()) else {
        diags.push(refuse(
            format!("model `{model}` names no catalogue platform that runs SONiC, so its SKU's cages and lanes cannot be checked"),
            "add `platform NAME` (`fabricc platforms` lists the SONiC platforms); the SKU folder is checked against its cages",
        ));
        return None;
    };
    // The loader reported a folder it could not read (FAB959).
    let folder = folders.folders.get(&path.span)?;
    let texts: Vec<(&str, &str)> = folder
        .files
        .iter()
        .map(|(n, id)| (*n, folders.sources.get(*id).text.as_str()))
        .collect();
    let read = match texts.as_slice() {
        [(CONFIG_DB, text)] => read_config_db(platform, &path.node, text),
        _ => read_folder(platform, &folder.name, &path.node, &texts),
    };
    match read {
        Ok(sku) => Some(Arc::new(sku)),
        Err(findings) => {
            diags.extend(
                findings
                    .iter()
                    .map(|f| finding(model, path, folder, folders.sources, f)),
            );
            None
        }
    }
}

/// A finding of the SKU reader as a diagnostic: at the row's line where it has one, else at
/// the `sku` path.
fn finding(
    model: &str,
    path: &Spanned<String>,
    folder: &SkuFiles,
    sources: &Sources,
    f: &SkuFinding,
) -> Diagnostic {
    // A CONFIG_DB's findings name its table (`PORT`, `BUFFER_PROFILE`) and point at the entry.
    let config_db = match folder.files.as_slice() {
        [(CONFIG_DB, id)] => Some(*id),
        _ => None,
    };
    let code = match f.file {
        "port_config.ini" | "hwsku.json" | "PORT" | "BREAKOUT_CFG" | "DEVICE_METADATA" => {
            Code::SkuPorts
        }
        CONFIG_DB => Code::SkuUnreadable,
        _ => Code::SkuBuffers,
    };
    let file = config_db.or_else(|| {
        folder
            .files
            .iter()
            .find(|(n, _)| *n == f.file)
            .map(|(_, id)| *id)
    });
    let at = match (file, f.bytes, f.line) {
        (Some(id), Some((start, end)), _) => Some(Span::new(id, start, end)),
        (Some(id), None, Some(line)) => line_span(sources, id, line),
        _ => None,
    };
    let what = if config_db.is_some() {
        "CONFIG_DB"
    } else {
        "SKU folder"
    };
    let message = if config_db.is_some() {
        format!("CONFIG_DB `{}`, `{}`: {}", folder.name, f.file, f.message)
    } else {
        format!("SKU `{}`, `{}`: {}", folder.name, f.file, f.message)
    };
    let help = match code {
        _ if config_db.is_some() => {
            "the CONFIG_DB's PORT, BREAKOUT_CFG, BUFFER_POOL and BUFFER_PROFILE tables are what SONiC made from the switch's SKU folder: fix the entry, or name that folder instead (`sku \"skus/<HWSKU>\"`, docs/platforms.md \"A SKU of your own\")"
        }
        Code::SkuPorts => {
            "one row per port: the cage's lanes split evenly, named as SONiC names the sub-port, at a speed of one of the cage's breakout modes (`fabricc platforms NAME` lists them)"
        }
        _ => {
            "give the pools and profiles as numbers (the SONiC SKU's `buffers_defaults_<t0|t1|t2>.j2`) and a `pg_profile_lookup.ini` row for every port speed at the layout's default cable"
        }
    };
    match at {
        Some(span) => Diagnostic::new(code, span, message)
            .label(if config_db.is_some() {
                "this entry"
            } else {
                "this line"
            })
            .with_secondary(path.span, format!("the {what} of model `{model}`"))
            .help(help),
        None => Diagnostic::new(code, path.span, message)
            .label(format!("the {what} of model `{model}`"))
            .help(help),
    }
}

/// The span of line `line` (1-based) of file `id`, without its line break.
fn line_span(sources: &Sources, id: crate::span::FileId, line: usize) -> Option<Span> {
    let text = &sources.get(id).text;
    let mut start = 0;
    for (k, l) in text.split_inclusive('\n').enumerate() {
        if k + 1 == line {
            let body = l.trim_end_matches(['\n', '\r']);
            return Some(Span::new(id, start, start + body.len()));
        }
        start += l.len();
    }
    None
}
