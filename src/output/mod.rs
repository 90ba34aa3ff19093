//! Output discipline: generated files → the output folder, atomically and deterministically.
//!
//! In: the artifacts of a build (relative `/` paths, contents). Out: the output folder holding
//! exactly those files plus `manifest.json`, or (`compare_one`, `compare_rest`) the differences.
//!
//! How a write works (`Stage`: `open`, `put` per file from any thread while the build is still
//! rendering other devices, `finish`; `write` does the three for files already in memory):
//! 1. The destination is checked: a file or a symlink, or a non-empty folder without a fabricc
//!    `manifest.json`, is refused unless `force` (then a file/symlink is replaced and the
//!    folder's files are treated as foreign).
//! 2. A complete new tree is staged in `.<name>.fabricc-new` next to the destination (same file
//!    system): an unchanged file is hard-linked from the current output (same inode, so its
//!    mtime is kept); a changed or new file is written; files the previous manifest does not
//!    list (foreign files) are hard-linked as they are (never modified), and a generated file
//!    would replace one of them only with `force`; generated files the new build no longer
//!    produces are simply not carried over; `manifest.json` comes last.
//! 3. The swap: the destination is renamed to `.<name>.fabricc-old`, the staged tree to the
//!    destination, and the old tree is deleted. A failure before the swap leaves the previous
//!    output untouched (the staging folder is removed, or by the next build after a crash); a
//!    crash between the two renames leaves the complete old tree in `.fabricc-old`, which the
//!    next build renames back before it starts.
//!
//! `FABRICC_FAULT_AFTER_FILES=N` aborts the process after N files are staged (tests use it to
//! prove that an interrupted build leaves the previous output intact).

pub mod cabling;
pub mod generate;
pub mod guard;
pub mod manifest;
pub mod report;

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::render::Artifact;

pub use manifest::{Entry, MANIFEST, Manifest};

/// Why the output folder could not be written or read.
#[derive(Debug)]
pub enum OutputError {
    /// `-o` names something that is not a fabricc output folder.
    Refused {
        path: PathBuf,
        reason: String,
    },
    /// A generated file would replace a file an earlier build did not generate.
    Foreign {
        path: String,
    },
    /// A destination no flag makes safe (`guard`): it holds an input or the current folder,
    /// or it is read-only.
    Unsafe {
        path: PathBuf,
        reason: String,
    },
    /// An artifact path is not a safe relative path (a bug; names are validated before).
    BadPath {
        path: String,
    },
    Io {
        path: PathBuf,
        error: io::Error,
    },
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Refused { path, reason } => {
                write!(
                    f,
                    "refusing to write to `{}`: {reason} (use --force to write anyway)",
                    path.display()
                )
            }
            OutputError::Foreign { path } => write!(
                f,
                "`{path}` exists in the output folder but no earlier build generated it; \
                 refusing to overwrite it (use --force to overwrite)"
            ),
            OutputError::Unsafe { path, reason } => {
                write!(f, "refusing to write to `{}`: {reason}", path.display())
            }
            OutputError::BadPath { path } => write!(f, "unsafe output path `{path}`"),
            OutputError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for OutputError {}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |error| OutputError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// What a write did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct WriteSummary {
    /// Generated files whose contents changed or that are new (sorted).
    pub written: Vec<String>,
    /// Generated files left as they were (same inode, same mtime).
    pub unchanged: usize,
    /// Files of the previous build that this build no longer generates (sorted).
    pub removed: Vec<String>,
    /// Files the manifest does not know, carried over untouched.
    pub foreign: usize,
}

/// One difference found by `compare_one` or `compare_rest`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Difference {
    /// The file exists with other contents.
    Stale(String),
    /// The build generates it, the folder lacks it.
    Missing(String),
    /// The previous build generated it, this one does not.
    Extra(String),
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Stale(p) => write!(f, "stale: {p}"),
            Difference::Missing(p) => write!(f, "missing: {p}"),
            Difference::Extra(p) => write!(f, "extra: {p}"),
        }
    }
}

/// A relative path is safe when every component is a plain, non-hidden name.
fn check_path(path: &str) -> Result<(), OutputError> {
    let ok = !path.is_empty()
        && path.split('/').all(|c| {
            !c.is_empty() && !c.starts_with('.') && !c.contains('\\') && !c.contains('\0')
        });
    if ok {
        Ok(())
    } else {
        Err(OutputError::BadPath {
            path: path.to_string(),
        })
    }
}

/// The staging and backup folders next to `dest`.
fn siblings(dest: &Path) -> (PathBuf, PathBuf) {
    let name = dest
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let parent = dest
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    (
        parent.join(format!(".{name}.fabricc-new")),
        parent.join(format!(".{name}.fabricc-old")),
    )
}

/// Repairs what a crash left behind: a destination mid-swap is put back; stale staging goes.
fn recover(dest: &Path) -> Result<(), OutputError> {
    let (new, old) = siblings(dest);
    if fs::symlink_metadata(&old).is_ok() {
        if fs::symlink_metadata(dest).is_err() {
            fs::rename(&old, dest).map_err(io_err(dest))?;
        } else {
            fs::remove_dir_all(&old).map_err(io_err(&old))?;
        }
    }
    if fs::symlink_metadata(&new).is_ok() {
        fs::remove_dir_all(&new).map_err(io_err(&new))?;
    }
    Ok(())
}

/// The state of the destination before a write or compare.
struct Existing {
    /// The folder exists (and is a real folder).
    present: bool,
    manifest: Option<Manifest>,
}

fn inspect(dest: &Path, force: bool) -> Result<Existing, OutputError> {
    let meta = match fs::symlink_metadata(dest) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Existing {
                present: false,
                manifest: None,
            });
        }
        Err(e) => {
            return Err(OutputError::Io {
                path: dest.to_path_buf(),
                error: e,
            });
        }
    };
    let refuse = |reason: &str| OutputError::Refused {
        path: dest.to_path_buf(),
        reason: reason.to_string(),
    };
    if meta.file_type().is_symlink() {
        if !force {
            return Err(refuse("it is a symbolic link"));
        }
        fs::remove_file(dest).map_err(io_err(dest))?;
        return Ok(Existing {
            present: false,
            manifest: None,
        });
    }
    if !meta.is_dir() {
        if !force {
            return Err(refuse("it is a file, not a folder"));
        }
        fs::remove_file(dest).map_err(io_err(dest))?;
        return Ok(Existing {
            present: false,
            manifest: None,
        });
    }
    let manifest_path = dest.join(MANIFEST);
    let manifest = match fs::read_to_string(&manifest_path) {
        Ok(text) => Manifest::parse(&text),
        Err(_) => None,
    };
    if manifest.is_none() && !force {
        let empty = fs::read_dir(dest).map_err(io_err(dest))?.next().is_none();
        if !empty {
            return Err(refuse(
                "the folder is not empty and has no fabricc manifest.json",
            ));
        }
    }
    Ok(Existing {
        present: true,
        manifest,
    })
}

/// Every file under `root` (relative `/` paths), with symlinks listed as files.
fn walk(root: &Path) -> Result<Vec<(String, fs::FileType)>, OutputError> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        for entry in fs::read_dir(&dir).map_err(io_err(&dir))? {
            let entry = entry.map_err(io_err(&dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let ft = entry.file_type().map_err(io_err(&entry.path()))?;
            if ft.is_dir() {
                out.push((path.clone(), ft));
                stack.push((entry.path(), path));
            } else {
                out.push((path, ft));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Counts staged files and aborts when `FABRICC_FAULT_AFTER_FILES` says so.
struct Fault {
    after: Option<u64>,
    staged: AtomicU64,
}

impl Fault {
    fn from_env() -> Fault {
        let after = std::env::var("FABRICC_FAULT_AFTER_FILES")
            .ok()
            .and_then(|v| v.trim().parse().ok());
        Fault {
            after,
            staged: AtomicU64::new(0),
        }
    }

    fn tick(&self) {
        let staged = self.staged.fetch_add(1, Ordering::SeqCst) + 1;
        if self.after.is_some_and(|n| staged >= n) {
            eprintln!("fabricc: FABRICC_FAULT_AFTER_FILES reached after {staged} files; aborting");
            std::process::abort();
        }
    }
}

fn ensure_parent(path: &Path) -> Result<(), OutputError> {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p).map_err(io_err(p))?;
    }
    Ok(())
}

/// Hard-links `from` to `to`, or copies it keeping its mtime and permissions.
fn carry(from: &Path, to: &Path) -> Result<(), OutputError> {
    ensure_parent(to)?;
    if fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    fs::copy(from, to).map_err(io_err(to))?;
    let meta = fs::metadata(from).map_err(io_err(from))?;
    if let Ok(mtime) = meta.modified() {
        let f = fs::File::options()
            .write(true)
            .open(to)
            .map_err(io_err(to))?;
        f.set_modified(mtime).map_err(io_err(to))?;
    }
    Ok(())
}

fn write_file(path: &Path, contents: &[u8], executable: bool) -> Result<(), OutputError> {
    // Create first, the folder only when it is missing: a folder's second file costs no
    // `mkdir` and `stat` (a 98k-GPU build writes 31,000 files into 16,000 folders).
    let mut f = match fs::File::create(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            ensure_parent(path)?;
            fs::File::create(path).map_err(io_err(path))?
        }
        Err(e) => return Err(io_err(path)(e)),
    };
    f.write_all(contents).map_err(io_err(path))?;
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(fs::Permissions::from_mode(0o755))
            .map_err(io_err(path))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    Ok(())
}

fn is_executable(path: &str) -> bool {
    path.ends_with(".sh")
}

/// Writes `files` (plus `manifest.json`) into `dest` as described in the module doc.
/// Bench support (benches/build.rs, benches/verify.rs), not the product's: `build` streams
/// each file into a [`Stage`] as it is generated.
#[cfg(feature = "internals")]
pub fn write(
    dest: &Path,
    fabric: &str,
    files: &[Artifact],
    force: bool,
) -> Result<WriteSummary, OutputError> {
    for f in files {
        check_path(&f.path)?;
    }
    let stage = Stage::open(dest, force)?;
    let entries = files
        .par_iter()
        .map(|f| stage.put(f))
        .collect::<Result<Vec<_>, _>>()?;
    stage.finish(fabric, entries)
}

/// A build's new output tree while it is being filled: staged next to the destination, one
/// file at a time from any number of threads (`put`), then swapped in whole (`finish`).
/// Dropped unfinished (an error, a failed check), it removes the staging folder and the
/// destination is as it was.
pub struct Stage {
    dest: PathBuf,
    staging: PathBuf,
    backup: PathBuf,
    force: bool,
    present: bool,
    /// What the previous build generated (its manifest), so its files may be replaced.
    previous: BTreeSet<String>,
    fault: Fault,
    written: Mutex<Vec<String>>,
    /// Generated files whose current copy is already right; hard-linked into the staged tree
    /// by `finish`, and only when something else changed.
    unchanged: Mutex<Vec<String>>,
    finished: bool,
}

impl Stage {
    /// Checks the destination (module doc, step 1), repairs what a crash left, and creates
    /// the empty staging folder.
    pub fn open(dest: &Path, force: bool) -> Result<Stage, OutputError> {
        recover(dest)?;
        let existing = inspect(dest, force)?;
        let previous = existing
            .manifest
            .as_ref()
            .map(|m| m.paths().map(str::to_string).collect())
            .unwrap_or_default();
        let (staging, backup) = siblings(dest);
        fs::create_dir_all(&staging).map_err(io_err(&staging))?;
        Ok(Stage {
            dest: dest.to_path_buf(),
            staging,
            backup,
            force,
            present: existing.present,
            previous,
            fault: Fault::from_env(),
            written: Mutex::new(Vec::new()),
            unchanged: Mutex::new(Vec::new()),
            finished: false,
        })
    }

    /// Stages one generated file: written when it is new or its contents changed, otherwise
    /// only noted (`finish` hard-links it, keeping its inode and mtime). Returns its manifest
    /// entry.
    pub fn put(&self, file: &Artifact) -> Result<Entry, OutputError> {
        check_path(&file.path)?;
        let current = self.dest.join(&file.path);
        let contents = file.contents.as_bytes();
        let mut same = false;
        if self.present {
            if !self.previous.contains(&file.path)
                && !self.force
                && fs::symlink_metadata(&current).is_ok()
            {
                return Err(OutputError::Foreign {
                    path: file.path.clone(),
                });
            }
            same = same_contents(&current, contents);
        }
        if same {
            lock(&self.unchanged).push(file.path.clone());
        } else {
            let target = self.staging.join(&file.path);
            write_file(&target, contents, is_executable(&file.path))?;
            lock(&self.written).push(file.path.clone());
        }
        self.fault.tick();
        Ok(Entry::of(file))
    }

    /// Carries the unchanged and the foreign files over, writes `manifest.json` from `entries`
    /// (every generated file) and swaps the staged tree in. When no file changed, none is new
    /// or gone, and the manifest is the same, the destination is left exactly as it is.
    pub fn finish(
        mut self,
        fabric: &str,
        entries: Vec<Entry>,
    ) -> Result<WriteSummary, OutputError> {
        let manifest = Manifest::from_entries(fabric, entries);
        let generated: BTreeSet<&str> = manifest.paths().collect();
        let unchanged = std::mem::take(&mut *lock(&self.unchanged));
        let mut summary = WriteSummary {
            written: std::mem::take(&mut *lock(&self.written)),
            unchanged: unchanged.len(),
            removed: self
                .previous
                .iter()
                .filter(|p| !generated.contains(p.as_str()))
                .cloned()
                .collect(),
            foreign: 0,
        };
        summary.written.sort();
        let manifest_text = manifest.to_json();
        let current = self.dest.join(MANIFEST);
        let same_manifest = self.present && same_contents(&current, manifest_text.as_bytes());
        if same_manifest && summary.written.is_empty() && summary.removed.is_empty() {
            summary.foreign = self
                .foreign_files(&generated)?
                .iter()
                .filter(|(_, ft)| !ft.is_dir())
                .count();
            self.fault.tick();
            return Ok(summary);
        }
        unchanged
            .par_iter()
            .try_for_each(|path| carry(&self.dest.join(path), &self.staging.join(path)))?;
        if self.present {
            summary.foreign = self.carry_foreign(&generated)?;
        }
        let manifest_path = self.staging.join(MANIFEST);
        if same_manifest {
            carry(&current, &manifest_path)?;
        } else {
            write_file(&manifest_path, manifest_text.as_bytes(), false)?;
        }
        self.fault.tick();
        self.swap()?;
        Ok(summary)
    }

    /// Files of the destination the previous manifest does not list and this build does not
    /// generate, and every folder (sorted by path).
    fn foreign_files(
        &self,
        generated: &BTreeSet<&str>,
    ) -> Result<Vec<(String, fs::FileType)>, OutputError> {
        let mut out = walk(&self.dest)?;
        out.retain(|(path, ft)| {
            ft.is_dir()
                || !(path == MANIFEST
                    || self.previous.contains(path)
                    || generated.contains(path.as_str()))
        });
        Ok(out)
    }

    /// Foreign files and empty folders, carried over untouched; returns how many files.
    fn carry_foreign(&self, generated: &BTreeSet<&str>) -> Result<usize, OutputError> {
        let mut foreign = 0;
        for (path, ft) in self.foreign_files(generated)? {
            let to = self.staging.join(&path);
            if ft.is_dir() {
                fs::create_dir_all(&to).map_err(io_err(&to))?;
                continue;
            }
            let from = self.dest.join(&path);
            if ft.is_symlink() {
                ensure_parent(&to)?;
                let link = fs::read_link(&from).map_err(io_err(&from))?;
                #[cfg(unix)]
                std::os::unix::fs::symlink(&link, &to).map_err(io_err(&to))?;
                #[cfg(not(unix))]
                let _ = link;
            } else {
                carry(&from, &to)?;
            }
            foreign += 1;
        }
        Ok(foreign)
    }

    /// Module doc, step 3.
    fn swap(&mut self) -> Result<(), OutputError> {
        let (dest, staging, backup) = (&self.dest, &self.staging, &self.backup);
        if self.present {
            if let Ok(meta) = fs::metadata(dest) {
                let _ = fs::set_permissions(staging, meta.permissions());
            }
            fs::rename(dest, backup).map_err(io_err(dest))?;
            if let Err(error) = fs::rename(staging, dest) {
                let _ = fs::rename(backup, dest);
                return Err(OutputError::Io {
                    path: dest.to_path_buf(),
                    error,
                });
            }
            self.finished = true;
            remove_tree(backup).map_err(io_err(backup))?;
        } else {
            fs::rename(staging, dest).map_err(io_err(dest))?;
            self.finished = true;
        }
        Ok(())
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if !self.finished {
            let _ = remove_tree(&self.staging);
        }
    }
}

/// A mutex's data, also after a thread panicked while holding it (the data is plain lists).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `remove_dir_all`, spread over threads one level below the device folders (`switches/*`,
/// `hosts/*`): an old 100,000-GPU tree holds about 17,000 files.
fn remove_tree(root: &Path) -> io::Result<()> {
    let mut parts = Vec::new();
    for top in fs::read_dir(root)? {
        let top = top?;
        if top.file_type()?.is_dir() {
            for entry in fs::read_dir(top.path())? {
                parts.push(entry?.path());
            }
        }
    }
    parts
        .par_iter()
        .try_for_each(|p| match fs::symlink_metadata(p) {
            Ok(m) if m.is_dir() => fs::remove_dir_all(p),
            Ok(_) => fs::remove_file(p),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        })?;
    fs::remove_dir_all(root)
}

/// Whether the regular file at `path` holds exactly `contents` (a cheap length check first).
fn same_contents(path: &Path, contents: &[u8]) -> bool {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() && m.len() == contents.len() as u64 => {
            fs::read(path).is_ok_and(|b| b == contents)
        }
        _ => false,
    }
}

/// One generated file against what `dest` holds: its manifest entry and how it differs.
/// Streams: `build --check` compares each file as soon as it is rendered.
pub fn compare_one(dest: &Path, file: &Artifact) -> (Entry, Option<Difference>) {
    let p = dest.join(&file.path);
    let difference = if fs::symlink_metadata(&p).is_err() {
        Some(Difference::Missing(file.path.clone()))
    } else if !same_contents(&p, file.contents.as_bytes()) {
        Some(Difference::Stale(file.path.clone()))
    } else {
        None
    };
    (Entry::of(file), difference)
}

/// What `compare_one` found for every generated file, plus `manifest.json` and the files the
/// previous build generated that this one does not; sorted by path.
pub fn compare_rest(
    dest: &Path,
    fabric: &str,
    compared: Vec<(Entry, Option<Difference>)>,
) -> Vec<Difference> {
    let (entries, differences): (Vec<Entry>, Vec<Option<Difference>>) =
        compared.into_iter().unzip();
    let mut out: Vec<Difference> = differences.into_iter().flatten().collect();
    let manifest = Manifest::from_entries(fabric, entries);
    let manifest_path = dest.join(MANIFEST);
    if fs::symlink_metadata(&manifest_path).is_err() {
        out.push(Difference::Missing(MANIFEST.to_string()));
    } else if !same_contents(&manifest_path, manifest.to_json().as_bytes()) {
        out.push(Difference::Stale(MANIFEST.to_string()));
    }
    let previous = fs::read_to_string(&manifest_path)
        .ok()
        .and_then(|text| Manifest::parse(&text));
    if let Some(m) = previous {
        let wanted: BTreeSet<&str> = manifest.paths().collect();
        for path in m.paths() {
            if path != MANIFEST
                && !wanted.contains(path)
                && fs::symlink_metadata(dest.join(path)).is_ok()
            {
                out.push(Difference::Extra(path.to_string()));
            }
        }
    }
    out.sort_by(|a, b| key(a).cmp(key(b)));
    out
}

fn key(d: &Difference) -> &str {
    match d {
        Difference::Stale(p) | Difference::Missing(p) | Difference::Extra(p) => p,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_checked() {
        assert!(check_path("switches/leaf1/config_db.json").is_ok());
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a//b",
            "a/./b",
            "switches/.hidden",
            "a\\b",
        ] {
            assert!(check_path(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn siblings_sit_next_to_the_destination() {
        let (n, o) = siblings(Path::new("build/out"));
        assert_eq!(n, Path::new("build/.out.fabricc-new"));
        assert_eq!(o, Path::new("build/.out.fabricc-old"));
        let (n, _) = siblings(Path::new("out"));
        assert_eq!(n, Path::new("./.out.fabricc-new"));
    }
}
