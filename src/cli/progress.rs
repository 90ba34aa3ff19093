//! The progress indicator (issue 36 item 4): a spinner on stderr with what the command is
//! doing and for how long, for commands that run longer than a second (`check` with failure
//! scenarios, `build`, `verify` of big fabrics).
//!
//! It is drawn only when stderr is a terminal and `--quiet` is not given ([`wanted`]), and
//! only once the work has run for [`DELAY`]: a quick command never shows it. It is cleared
//! without a trace before anything else is printed ([`clear`], called by `out` and `err`) and
//! when the work ends, so the bytes a command prints and its exit status are the same with or
//! without it. One indicator at a time, process-wide: a command starts it with
//! [`Progress::start`] and names its stages with [`Progress::stage`]; any subcommand (`plan`
//! too) can use it the same way.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, mpsc};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work shorter than this shows nothing.
pub(crate) const DELAY: Duration = Duration::from_secs(1);
/// How often the spinner is redrawn once shown.
const TICK: Duration = Duration::from_millis(120);

/// Whether a command shows the indicator: only on a terminal, and never with `--quiet`.
pub(crate) fn wanted(quiet: bool, stderr_is_terminal: bool) -> bool {
    !quiet && stderr_is_terminal
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The indicator under way: its bar (hidden until [`DELAY`] has passed), its id, and the
/// channel that stops its timer.
struct Active {
    id: u64,
    bar: ProgressBar,
    stop: mpsc::Sender<()>,
}

static ACTIVE: Mutex<Option<Active>> = Mutex::new(None);

fn active() -> MutexGuard<'static, Option<Active>> {
    ACTIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Turns the indicator on or off for this process (`cli::run`, from [`wanted`]).
pub(crate) fn enable(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Erases the indicator, if one is under way, and ends it: called before anything is
/// printed, so no output ever shares a line with it.
pub(crate) fn clear() {
    if let Some(a) = active().take() {
        let _ = a.stop.send(());
        a.bar.finish_and_clear();
    }
}

/// The handle of the indicator a command started; dropping it ends the indicator.
#[derive(Debug)]
pub(crate) struct Progress {
    id: Option<u64>,
}

impl Progress {
    /// Starts the indicator for `what` (e.g. "build pod.fab"), or does nothing when it is not
    /// wanted. Nothing is drawn before [`DELAY`].
    pub(crate) fn start(what: &str) -> Progress {
        if !ENABLED.load(Ordering::Relaxed) {
            return Progress { id: None };
        }
        clear();
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix}: {msg} ({elapsed})") {
            bar.set_style(style);
        }
        bar.set_prefix(what.replace(['\n', '\r'], " "));
        let (stop, stopped) = mpsc::channel::<()>();
        *active() = Some(Active {
            id,
            bar: bar.clone(),
            stop,
        });
        // The timer: after DELAY, draw, unless the work ended (or another started) meanwhile.
        let spawned = std::thread::Builder::new()
            .name("fabricc-progress".to_string())
            .spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(DELAY) {
                    let guard = active();
                    if guard.as_ref().is_some_and(|a| a.id == id) {
                        bar.set_draw_target(ProgressDrawTarget::stderr());
                        bar.enable_steady_tick(TICK);
                    }
                }
            });
        if spawned.is_err() {
            // No thread, no indicator: the command runs as without a terminal.
            clear();
            return Progress { id: None };
        }
        Progress { id: Some(id) }
    }

    /// Names the stage now under way ("checking", "writing files").
    pub(crate) fn stage(&self, stage: &str) {
        let Some(id) = self.id else { return };
        if let Some(a) = active().as_ref().filter(|a| a.id == id) {
            a.bar.set_message(stage.to_string());
        }
    }

    /// Whether this handle's indicator is still under way (not cleared, not replaced).
    #[cfg(test)]
    fn running(&self) -> bool {
        self.id
            .is_some_and(|id| active().as_ref().is_some_and(|a| a.id == id))
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        let Some(id) = self.id else { return };
        let mine = active().as_ref().is_some_and(|a| a.id == id);
        if mine {
            clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_only_on_a_terminal_and_never_with_quiet() {
        assert!(wanted(false, true));
        assert!(!wanted(true, true), "--quiet silences it");
        assert!(!wanted(false, false), "not a terminal: silent");
        assert!(!wanted(true, false));
    }

    /// One test for the process-wide state, so no other test races it.
    #[test]
    fn starts_only_when_enabled_and_clears_before_output() {
        enable(false);
        let p = Progress::start("build pod.fab");
        assert!(!p.running(), "disabled: no indicator");
        p.stage("checking");
        drop(p);

        enable(true);
        let p = Progress::start("build pod.fab");
        assert!(p.running());
        p.stage("writing files");
        // Printing clears it (out/err call clear): the handle then does nothing.
        clear();
        assert!(!p.running());
        p.stage("reports");
        drop(p);
        assert!(active().is_none());

        // Dropping the handle ends it; a newer indicator replaces an older one.
        let a = Progress::start("check a.fab");
        let b = Progress::start("check b.fab");
        assert!(!a.running() && b.running());
        drop(a);
        assert!(
            b.running(),
            "dropping a replaced handle leaves the newer one"
        );
        drop(b);
        assert!(active().is_none());
        enable(false);
    }
}
