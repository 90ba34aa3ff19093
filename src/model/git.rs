//! Fabric files as they were at a git revision, for `fabricc diff --git REV FILE`. The
//! `git` command line does the reading, so every repository git can read works (worktrees,
//! packed refs, partial clones) and fabricc needs no git library.
//!
//! The revision is resolved to one commit when opened: the root and every import it pulls in
//! come from that commit, even if the branch moves meanwhile. Paths inside the revision are
//! relative to the repository's top level, and diagnostics show them as `REV:path`.

use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use super::Limits;
use super::load::Reader;

/// One commit of the repository that holds a working-tree file.
#[derive(Debug)]
pub struct Revision {
    /// As the user wrote it (`main`, `origin/main`, `HEAD~1`): what diagnostics show.
    rev: String,
    /// The commit `rev` named when it was opened.
    commit: String,
    /// The repository's top-level folder; git runs there, so repository paths need no prefix.
    top: PathBuf,
}

/// Why a revision could not be opened. Each is the tool unable to run (exit 2).
#[derive(Debug, PartialEq, Eq)]
pub enum GitError {
    /// `git` could not be started (not installed, not on PATH).
    CannotRun(String),
    /// The file's folder is not in a git work tree.
    NotARepository(PathBuf),
    UnknownRevision(String),
    /// The file is not in the revision's tree (or is something other than a file there).
    NotAtRevision {
        rev: String,
        path: String,
        why: String,
    },
    /// A revision that looks like an option, which git would take as one.
    BadRevision(String),
    /// git ran and failed for a reason of its own; its message.
    Failed(String),
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::CannotRun(e) => write!(f, "cannot run `git`: {e}"),
            GitError::NotARepository(dir) => {
                // Absolute, so that `.` says which folder it was.
                let shown = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
                write!(f, "`{}` is not inside a git repository", shown.display())
            }
            GitError::UnknownRevision(rev) => {
                write!(
                    f,
                    "unknown revision `{rev}`: git knows no commit by that name"
                )
            }
            GitError::NotAtRevision { rev, path, why } => {
                write!(f, "cannot read `{rev}:{path}`: {why}")
            }
            GitError::BadRevision(rev) => {
                write!(f, "`{rev}` is not a revision (it starts with `-`)")
            }
            GitError::Failed(message) => write!(f, "git failed: {message}"),
        }
    }
}

impl GitError {
    /// What to do about it, for the `help:` line.
    pub fn help(&self) -> String {
        match self {
            GitError::CannotRun(_) => {
                "install git, or compare two files: `fabricc diff OLD NEW`".into()
            }
            GitError::NotARepository(_) => {
                "`--git` reads the old fabric from the repository that holds FILE; outside a \
                 repository, compare two files: `fabricc diff OLD NEW`"
                    .into()
            }
            GitError::UnknownRevision(_) => {
                "name a branch, tag or commit (`git log --oneline -1 REV` must show it); a CI \
                 checkout is often shallow: fetch the base first (`git fetch origin main`, or \
                 `fetch-depth: 0`)"
                    .into()
            }
            GitError::NotAtRevision { .. } => {
                "a fabric new in this change has nothing to compare with: check it with \
                 `fabricc check`, or see every file it generates as added with `fabricc diff \
                 /dev/null FILE`"
                    .into()
            }
            GitError::BadRevision(_) => "write the revision after `--git`: `--git main`".into(),
            GitError::Failed(_) => "run the same `git` command yourself to see why".into(),
        }
    }
}

/// One entry of a tree, as `git ls-tree -l` prints it.
struct Entry {
    mode: String,
    kind: String,
    object: String,
    size: Option<u64>,
}

impl Revision {
    /// Opens `rev` in the repository that holds the working-tree `file`, and returns it with
    /// `file`'s path inside the repository. Fails when `file` is not a file at `rev`.
    pub fn open(rev: &str, file: &Path) -> Result<(Revision, PathBuf), GitError> {
        if rev.starts_with('-') {
            return Err(GitError::BadRevision(rev.to_string()));
        }
        let dir = match file.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let out = git(dir, &["rev-parse", "--show-toplevel", "--show-prefix"])?;
        if !out.status.success() {
            let message = stderr(&out);
            return Err(if message.contains("not a git repository") {
                GitError::NotARepository(dir.to_path_buf())
            } else {
                GitError::Failed(message)
            });
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        let (Some(top), prefix) = (lines.next(), lines.next().unwrap_or("")) else {
            return Err(GitError::Failed(
                "`git rev-parse --show-toplevel` printed nothing".into(),
            ));
        };
        let top = PathBuf::from(top);
        let name = file.file_name().map(PathBuf::from).unwrap_or_default();
        let root = Path::new(prefix).join(name);

        let verify = format!("{rev}^{{commit}}");
        let out = git(&top, &["rev-parse", "--verify", "--quiet", &verify])?;
        let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || commit.is_empty() {
            return Err(GitError::UnknownRevision(rev.to_string()));
        }
        let revision = Revision {
            rev: rev.to_string(),
            commit,
            top,
        };
        let path = repo_path(&root).map_err(GitError::Failed)?;
        match revision.entry(&path)? {
            Some(e) if is_file(&e) => Ok((revision, root)),
            other => Err(GitError::NotAtRevision {
                rev: rev.to_string(),
                path,
                why: what_instead(other.as_ref(), rev),
            }),
        }
    }

    /// The tree entry at `path` (a normalized repository path), `None` when there is none.
    fn entry(&self, path: &str) -> Result<Option<Entry>, GitError> {
        // Literal pathspecs: a file named `pod[1].fab` is that file, not a pattern.
        let out = git(
            &self.top,
            &[
                "--literal-pathspecs",
                "ls-tree",
                "-l",
                "-z",
                &self.commit,
                "--",
                path,
            ],
        )?;
        if !out.status.success() {
            return Err(GitError::Failed(stderr(&out)));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        // `<mode> <type> <object> <size>\t<path>\0`; a folder's path lists the folder itself.
        let found = text.split('\0').find_map(|record| {
            let (meta, name) = record.split_once('\t')?;
            if name != path {
                return None;
            }
            let mut f = meta.split_whitespace();
            Some(Entry {
                mode: f.next()?.to_string(),
                kind: f.next()?.to_string(),
                object: f.next()?.to_string(),
                size: f.next().and_then(|s| s.parse().ok()),
            })
        });
        Ok(found)
    }
}

impl Reader for Revision {
    fn read(&self, path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
        let path = repo_path(path)?;
        let entry = match self.entry(&path) {
            Ok(Some(e)) if is_file(&e) => e,
            Ok(other) => return Err(what_instead(other.as_ref(), &self.rev)),
            Err(e) => return Err(e.to_string()),
        };
        if let Some(size) = entry.size.filter(|&s| s > limits.max_input_bytes) {
            return Err(format!(
                "it is {size} bytes, more than the limit of {} (raise it with \
                 `--max-input-bytes`)",
                limits.max_input_bytes
            ));
        }
        let out =
            git(&self.top, &["cat-file", "blob", &entry.object]).map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("git failed: {}", stderr(&out)));
        }
        Ok(out.stdout)
    }

    fn key(&self, path: &Path) -> PathBuf {
        repo_path(path).map_or_else(|_| path.to_path_buf(), PathBuf::from)
    }

    fn display(&self, path: &Path) -> String {
        let path = repo_path(path).unwrap_or_else(|_| path.to_string_lossy().replace('\\', "/"));
        format!("{}:{path}", self.rev)
    }
}

fn is_file(e: &Entry) -> bool {
    e.kind == "blob" && (e.mode == "100644" || e.mode == "100755")
}

/// Completes "cannot read `REV:path`: …" for an entry that is not a regular file.
fn what_instead(entry: Option<&Entry>, rev: &str) -> String {
    match entry {
        None => format!("it does not exist at `{rev}`"),
        Some(e) if e.kind == "tree" => format!("it is a folder at `{rev}`"),
        Some(e) if e.mode == "120000" => {
            format!("it is a symbolic link at `{rev}`; point the import at the file it names")
        }
        Some(e) if e.kind == "commit" => format!("it is a submodule at `{rev}`"),
        Some(e) => format!("it is a git `{}`, not a file, at `{rev}`", e.kind),
    }
}

/// A path inside the repository as git names it: `/`-separated, `.` and `..` folded. A path
/// that leaves the repository (or is absolute) has no blob at any revision.
fn repo_path(path: &Path) -> Result<String, String> {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err("it is outside the repository".into());
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(
                    "an absolute path cannot be read from a git revision; import it \
                            by a path relative to the importing file"
                        .into(),
                );
            }
        }
    }
    Ok(parts.join("/"))
}

fn git(dir: &Path, args: &[&str]) -> Result<std::process::Output, GitError> {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        // Messages in English, so `not a git repository` can be recognised.
        .env("LC_ALL", "C")
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                GitError::CannotRun("it is not installed (or not on PATH)".into())
            }
            _ => GitError::CannotRun(e.to_string()),
        })
}

fn stderr(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr);
    let text = text.trim();
    text.strip_prefix("fatal: ").unwrap_or(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_paths_fold_dots_and_stay_inside() {
        assert_eq!(
            repo_path(Path::new("fabrics/./pods/../classes.fab")),
            Ok("fabrics/classes.fab".into())
        );
        assert_eq!(repo_path(Path::new("pod.fab")), Ok("pod.fab".into()));
        assert_eq!(
            repo_path(Path::new("../elsewhere.fab")),
            Err("it is outside the repository".into())
        );
        assert!(repo_path(Path::new("/etc/classes.fab")).is_err());
    }

    #[test]
    fn an_option_is_not_a_revision() {
        assert_eq!(
            Revision::open("--output=x", Path::new("pod.fab")).err(),
            Some(GitError::BadRevision("--output=x".into()))
        );
    }
}
