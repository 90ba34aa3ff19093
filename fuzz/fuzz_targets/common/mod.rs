//! Shared by the fuzz targets: the input as one in-memory root file, checked with
//! fuzzing-sized limits. Nothing is read from or written to disk.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fabricc::lower::Targets;
use fabricc::output::generate::{BuildInput, Stop, generate_each};
use fabricc::render::Templates;

use fabricc::model::Limits;
use fabricc::model::load::Reader;
use fabricc::pipeline::{self, Checked};
use fabricc::source::Sources;

/// Inputs above this are skipped: the fuzzer should explore structure, not size.
pub const MAX_INPUT: usize = 64 * 1024;

pub const ROOT: &str = "fuzz.fab";
/// The YAML form's root: the extension is what makes the loader read YAML.
#[allow(dead_code)] // the `yaml` target only
pub const YAML_ROOT: &str = "fuzz.yaml";

/// The root file from memory; every other path (an `import`) is "not found", so imports
/// exercise the loader's error path without touching the disk.
pub struct Memory<'a> {
    pub root: &'a [u8],
    pub path: &'a str,
}

impl Reader for Memory<'_> {
    fn read(&self, path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
        if path != Path::new(self.path) {
            return Err("no such file (fuzzing: only the root file is in memory)".into());
        }
        if self.root.len() as u64 > limits.max_input_bytes {
            return Err("too large".into());
        }
        Ok(self.root.to_vec())
    }

    fn key(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }

    fn display(&self, path: &Path) -> String {
        path.to_string_lossy().into_owned()
    }
}

/// Far below the defaults (which fit 100,000 GPUs) so that one input stays fast; each limit
/// hit is still a diagnostic (FAB007), which is a path worth fuzzing too.
pub fn limits() -> Limits {
    Limits {
        max_range: 256,
        max_devices: 256,
        max_links: 1024,
        max_import_depth: 4,
        max_input_bytes: MAX_INPUT as u64,
        max_scenarios: 10_000,
        max_unreachable: 1_000,
    }
}

/// parse + resolve + analyse `data` as `fuzz.fab`, entirely in memory.
#[allow(dead_code)] // each target uses one of `check` and `check_as`
pub fn check(data: &[u8]) -> Option<(Sources, Checked)> {
    check_as(data, ROOT)
}

/// The same, with `data` as the root file `root` (`fuzz.yaml` for the YAML form).
pub fn check_as(data: &[u8], root: &str) -> Option<(Sources, Checked)> {
    if data.len() > MAX_INPUT {
        return None;
    }
    let limits = limits();
    let mut sources = Sources::new();
    let checked = pipeline::check_from(
        &mut sources,
        &Memory {
            root: data,
            path: root,
        },
        Path::new(root),
        &limits,
    )
    .expect("the in-memory root file is always readable");
    Some((sources, checked))
}

#[allow(dead_code)] // `check` does not render
fn templates() -> &'static Templates {
    static T: OnceLock<Templates> = OnceLock::new();
    T.get_or_init(|| Templates::embedded().expect("the embedded templates load"))
}

/// check `data` as the root file `root`; with no errors, render every target to memory,
/// asserting each output path stays inside the output folder.
#[allow(dead_code)] // `check` does not render
pub fn generate(data: &[u8], root: &str) {
    let Some((_sources, checked)) = check_as(data, root) else {
        return;
    };
    if checked.errors() > 0 {
        return;
    }
    let Some(input) = BuildInput::of(&checked) else {
        return;
    };
    let result = generate_each(
        input,
        Targets::ALL,
        templates(),
        None,
        |a| {
            // An output path must stay inside the output folder.
            assert!(
                !a.path.is_empty()
                    && !a.path.starts_with('/')
                    && a.path
                        .split('/')
                        .all(|c| !c.is_empty() && c != "." && c != ".."),
                "artifact path escapes or is malformed: {:?}",
                a.path
            );
            Ok::<_, Infallible>(a.contents.len())
        },
    );
    match result {
        Ok(_sizes) => {}
        Err(Stop::Findings(_)) => {} // FAB9xx: a device a target cannot express
        Err(Stop::Sink(never)) => match never {},
    }
}
