//! Runs the real `fabricc` binary: the one way the tests that go through the command line
//! start it.
//!
//! The process starts in the crate root (so fixture paths such as `fixtures/…` resolve without
//! changing the harness's own directory, which every test thread shares) with
//! `FABRICC_FORMAT` unset (so a developer's environment does not change what a test sees).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A `fabricc` command being built: `Fabricc::new().args([...]).current_dir(..).run()`.
pub struct Fabricc {
    cmd: Command,
}

impl Fabricc {
    pub fn new() -> Self {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabricc"));
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_remove("FABRICC_FORMAT");
        Fabricc { cmd }
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.cmd.arg(arg);
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    /// Runs in `dir` instead of the crate root.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.cmd.current_dir(dir);
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.cmd.env(key, value);
        self
    }

    /// The command as built, for a caller that sets more of it (a test of a missing `git`
    /// replaces `PATH`).
    pub fn command(self) -> Command {
        self.cmd
    }

    /// Runs to the end: exit status, stdout and stderr.
    pub fn run(mut self) -> Output {
        self.cmd.output().expect("run fabricc")
    }
}

/// The settings of an NVUE YAML file's `- set:` items as `nv set` lines, one per path, its
/// words joined by single spaces (`nv set qos pfc default-global switch-priority 3`), read by
/// `fabricc verify`'s NVUE parser: tests name an NVUE setting by its command.
pub fn nv_set_lines(yaml: &str) -> String {
    let canon = fabricc::verify::nvue::canon(yaml).expect("NVUE YAML");
    canon
        .paths()
        .map(|k| {
            let words: Vec<&str> = fabricc::verify::canon::segments(k).collect();
            format!("nv set {}\n", words.join(" "))
        })
        .collect()
}

/// ShellCheck's verdict on `script` (every severity, bash), or `None` when ShellCheck is not
/// installed. CI sets `FABRICC_REQUIRE_SHELLCHECK=1` (`.ci/run` installs it), and then a
/// missing ShellCheck fails the test instead of skipping the lint (review R5).
#[track_caller]
pub fn shellcheck(script: &Path) -> Option<Output> {
    shellcheck_all(&[script])
}

/// `shellcheck` over several scripts in one run (its findings name each file).
#[track_caller]
pub fn shellcheck_all(scripts: &[&Path]) -> Option<Output> {
    match Command::new("shellcheck")
        .args(["--shell", "bash", "--external-sources"])
        .args(scripts)
        .output()
    {
        Ok(o) => Some(o),
        Err(e) => {
            assert!(
                std::env::var_os("FABRICC_REQUIRE_SHELLCHECK").is_none_or(|v| v != "1"),
                "FABRICC_REQUIRE_SHELLCHECK=1 but shellcheck cannot run: {e} (apt-get install shellcheck)"
            );
            eprintln!("shellcheck not installed: lint skipped (apt-get install shellcheck)");
            None
        }
    }
}

/// The folder of the real `python3` binary: first on PATH, it spares every call of a Python
/// fake a version-manager shim (pyenv's costs more than the call itself: 71 ms against 19 ms on
/// the 2-core test machine).
pub fn python_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let o = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs (the Python fakes need it)");
        let exe = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
        exe.parent().map(Path::to_path_buf).unwrap_or_default()
    })
}

/// PATH for a program run against the fakes in `fakes`: the fakes, the real `python3`'s folder
/// (`python_dir`), then the test's own PATH.
pub fn fakes_path(fakes: &Path) -> String {
    format!(
        "{}:{}:{}",
        fakes.display(),
        python_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}
