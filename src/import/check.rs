//! `fabricc check --state DIR`: import in memory, check the imported `.fab`, and point every
//! finding at the state file and range its value came from. Then the one value the `.fab`
//! cannot carry per port, the deployed headroom, is judged here: a lossless port whose PG
//! profile's `xoff` is below what fabricc computes for its speed, cable and MTU is FAB401 at
//! that `xoff`.

use std::path::{Path, PathBuf};

use super::{Fatal, Imported, Input, import, point_into_state};
use crate::diagnostic::{self, Code, Diagnostic};
use crate::model::Limits;
use crate::model::load::Reader;
use crate::pipeline::{self, Checked};
use crate::source::Sources;
use crate::span::FileId;

/// The imported `.fab`, read from memory.
struct Memory {
    path: PathBuf,
    display: String,
    text: String,
}

impl Reader for Memory {
    fn read(&self, path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
        if path != self.path {
            return Err("an imported fabric has no imports".into());
        }
        if self.text.len() as u64 > limits.max_input_bytes {
            return Err(format!(
                "it is {} bytes, more than the limit of {}",
                self.text.len(),
                limits.max_input_bytes
            ));
        }
        Ok(self.text.as_bytes().to_vec())
    }

    fn key(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }

    fn display(&self, _path: &Path) -> String {
        self.display.clone()
    }
}

/// What `check --state` found.
pub struct StateChecked {
    /// Test support (tests/it/import.rs reads the imported text), not the product's.
    #[cfg(feature = "internals")]
    pub imported: Imported,
    pub checked: Checked,
    /// Import findings, then the check's, pointing into the state where they can.
    pub diagnostics: Vec<Diagnostic>,
}

/// Imports `input` and checks the result; state files and the imported `.fab` are added to
/// `sources`.
pub fn check_state(
    input: &Input<'_>,
    sources: &mut Sources,
    limits: &Limits,
) -> Result<StateChecked, Fatal> {
    let imported = import(input, sources)?;
    let path = input.state_dir.join("(imported).fab");
    let reader = Memory {
        path: path.clone(),
        display: format!(
            "{}/(imported).fab",
            input.state_display.trim_end_matches('/')
        ),
        text: imported.text.clone(),
    };
    let checked =
        pipeline::check_from(sources, &reader, &path, limits).map_err(|e| Fatal(e.to_string()))?;
    let fab: Option<FileId> = sources
        .files()
        .find(|(_, f)| f.display == reader.display)
        .map(|(id, _)| id);
    let mut diagnostics = imported.diagnostics.clone();
    for d in &checked.diagnostics {
        let mut d = d.clone();
        if let Some(fab) = fab {
            point_into_state(&mut d, fab, &imported.origins);
        }
        diagnostics.push(d);
    }
    diagnostics.extend(headroom(&imported, &checked));
    diagnostic::sort(&mut diagnostics);
    diagnostics.dedup();
    Ok(StateChecked {
        #[cfg(feature = "internals")]
        imported,
        checked,
        diagnostics,
    })
}

/// Deployed lossless headroom below what fabricc computes for the port.
fn headroom(imported: &Imported, checked: &Checked) -> Vec<Diagnostic> {
    let Some(lowered) = &checked.lowered else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for x in &imported.xoffs {
        let Some(port) = lowered
            .switches
            .iter()
            .find(|s| s.device == x.switch)
            .and_then(|s| s.ports.iter().find(|p| p.name == x.port))
        else {
            continue;
        };
        let Some(h) = port.headroom.iter().find(|h| h.priority == x.priority) else {
            continue;
        };
        if x.xoff < h.xoff_bytes {
            out.push(
                Diagnostic::new(
                    Code::HeadroomTooSmall,
                    x.span,
                    format!(
                        "`{}` `{}` priority {}: the deployed headroom (xoff {} B, profile `{}`) is below the {} B a {} m cable at {}G needs",
                        x.switch,
                        x.port,
                        x.priority,
                        x.xoff,
                        x.profile,
                        h.xoff_bytes,
                        port.cable_m,
                        port.speed_mbps / 1000
                    ),
                )
                .label("deployed xoff")
                .help("the profile was sized for another cable: set the port's CABLE_LENGTH to the real cable and let buffermgrd recreate the profile (or fix the profile)"),
            );
        }
    }
    out
}
