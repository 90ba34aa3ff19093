//! Shared by the fuzz targets: the input as one in-memory root file, checked with
//! fuzzing-sized limits. Nothing is read from or written to disk.

use std::path::{Path, PathBuf};

use fabricc::model::Limits;
use fabricc::model::load::Reader;
use fabricc::pipeline::{self, Checked};
use fabricc::source::Sources;

/// Inputs above this are skipped: the fuzzer should explore structure, not size.
pub const MAX_INPUT: usize = 64 * 1024;

pub const ROOT: &str = "fuzz.fab";

/// The root file from memory; every other path (an `import`) is "not found", so imports
/// exercise the loader's error path without touching the disk.
pub struct Memory<'a> {
    pub root: &'a [u8],
}

impl Reader for Memory<'_> {
    fn read(&self, path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
        if path != Path::new(ROOT) {
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
    }
}

/// parse + resolve + analyse `data` as `fuzz.fab`, entirely in memory.
pub fn check(data: &[u8]) -> Option<(Sources, Checked)> {
    if data.len() > MAX_INPUT {
        return None;
    }
    let limits = limits();
    let mut sources = Sources::new();
    let checked = pipeline::check_from(
        &mut sources,
        &Memory { root: data },
        Path::new(ROOT),
        &limits,
    )
    .expect("the in-memory root file is always readable");
    Some((sources, checked))
}
