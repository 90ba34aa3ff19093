//! Where a build may write, decided before anything is rendered. A build replaces its whole
//! output folder (module doc of `output`, step 3), so some destinations are refused whatever
//! `--force` says, because no flag makes them safe:
//!
//! * a folder that holds an input — the fabric file, a file it imports, the `--templates`
//!   folder — or that input itself (`-o fabric.fab --force` would delete the fabric);
//! * the current folder or one above it (`-o .`, `-o ..`, `-o /`): the swap would rename the
//!   folder the user is standing in;
//! * a read-only folder, or a destination whose parent is read-only (the new tree is staged
//!   next to the destination): refused up front, by its permission bits, instead of failing
//!   half-way with "permission denied".
//!
//! An output folder *next to* or *below* the folder of the fabric file (`build fabric.fab
//! -o out`) is the normal case and allowed.

use std::fs;
use std::path::{Component, Path, PathBuf};

use super::OutputError;

/// Checks `dest` against the input files (as read, any form of path) and the current folder.
pub fn check_destination(dest: &Path, inputs: &[PathBuf]) -> Result<(), OutputError> {
    let refuse = |reason: String| OutputError::Unsafe {
        path: dest.to_path_buf(),
        reason,
    };
    let target = resolve(dest).map_err(|e| OutputError::Io {
        path: dest.to_path_buf(),
        error: e,
    })?;
    if let Ok(cwd) = std::env::current_dir().and_then(fs::canonicalize)
        && cwd.starts_with(&target)
    {
        let relation = if cwd == target { "is" } else { "holds" };
        return Err(refuse(format!(
            "it {relation} the current folder, and a build replaces its whole output folder; \
             name a folder for the output, such as `-o out`"
        )));
    }
    for input in inputs {
        let Ok(input_path) = fs::canonicalize(input) else {
            continue;
        };
        if input_path.starts_with(&target) {
            let what = if input_path == target {
                "it is an input of this build".to_string()
            } else {
                format!("it holds `{}`, an input of this build", input.display())
            };
            return Err(refuse(format!(
                "{what}, and a build replaces its whole output folder; write the output to a \
                 folder of its own"
            )));
        }
    }
    // Permissions: the destination itself when it exists, else the nearest folder that does
    // (where the staging folder and the destination will be created).
    let existing = match fs::symlink_metadata(dest) {
        Ok(m) if m.is_dir() => Some((dest.to_path_buf(), m)),
        _ => None,
    };
    if let Some((path, meta)) = existing
        && meta.permissions().readonly()
    {
        return Err(refuse(format!(
            "the folder `{}` is read-only",
            path.display()
        )));
    }
    let parent = nearest_existing(target.parent().unwrap_or(Path::new("/")));
    if let Some((path, meta)) = parent
        && meta.permissions().readonly()
    {
        return Err(refuse(format!(
            "its parent folder `{}` is read-only, and the new output is staged next to it",
            path.display()
        )));
    }
    Ok(())
}

/// `dest` as an absolute path with every symbolic link of its parent resolved, but not `dest`
/// itself (a symlink destination is replaced, not followed; `Stage::open` refuses it without
/// `--force`). Components that do not exist yet are appended as written; `.` and `..` among
/// them are applied lexically.
fn resolve(dest: &Path) -> std::io::Result<PathBuf> {
    let absolute = std::path::absolute(dest)?;
    let mut existing = PathBuf::new();
    let mut rest: Vec<Component<'_>> = Vec::new();
    let mut components = absolute.components().peekable();
    // Walk down while the prefix exists and is a real folder (or resolves to one).
    while let Some(c) = components.next() {
        let next = existing.join(c.as_os_str());
        let last = components.peek().is_none();
        match fs::symlink_metadata(&next) {
            Ok(m) if !last || m.is_dir() && !m.file_type().is_symlink() => existing = next,
            _ => {
                rest.push(c);
                rest.extend(components);
                break;
            }
        }
    }
    let mut out = fs::canonicalize(&existing)?;
    for c in rest {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    Ok(out)
}

fn nearest_existing(from: &Path) -> Option<(PathBuf, fs::Metadata)> {
    from.ancestors()
        .find_map(|p| fs::metadata(p).ok().map(|m| (p.to_path_buf(), m)))
}
