//! Read back of the PFC watchdog (issue 34 item 2): on each port, whether the watchdog is on,
//! its action and the timers each target writes, in the target's unit, against the model's
//! `pfc-watchdog`:
//! * SONiC: `PFC_WD|<port>` `detection_time` / `restoration_time` / `action` and
//!   `PFC_WD|GLOBAL` `POLL_INTERVAL`, in ms (the model's timers are already scaled for the
//!   SKU, `lower::sonic`);
//! * Cumulus: `qos pfc-watchdog polling-interval` × `robustness` (detection in whole polls),
//!   and a queue restored after one polling interval (NVUE has no restore timer; the renderer
//!   notes it);
//! * EOS: `default timeout` / `recovery-time` / `polling-interval` in 10 ms steps
//!   (`render::eos::round_10ms`);
//! * Junos: `pfc-watchdog poll-interval T detection N recovery R` (detection in polls);
//! * VRP: the CE8850 family's `dcb pfc deadlock-detect|deadlock-recovery timer` in ms,
//!   switch-wide (ports without the watchdog get them too, as the renderer notes); the CE8855
//!   family's per-priority counts of `deadlock-detect interval` units
//!   (`render::vrp::ce8855_timers`); no timers without a platform;
//! * NX-OS (`watch-dog-interval on`) and Comware (`deadlock enable`): on or off and the
//!   action only: neither file writes timers (the renderers note it), and import gives the
//!   language's defaults for them.
//!
//! A timer within one unit of the target (a 10 ms step, a poll, a CE8855 unit) above the
//! proven one is `rounding`; one the target's rules make of the proven value beyond a unit
//! (Cumulus's restore of one poll, VRP's switch-wide CE8850 timers) is `forced`; anything else
//! is a `mistake`.

use super::found::{Found, Kind};
use crate::import::deployed::Switch;
use crate::lower::context::{PortContext, SwitchContext, SwitchOs, Watchdog, WatchdogAction};
use crate::render::vrp::Family;

/// What a target writes of the model's watchdog on a port that runs it: each timer as
/// (written ms, the unit it is written in), `None` where the file does not write it.
struct Written {
    detect: Option<(u64, u64)>,
    restore: Option<(u64, u64)>,
    poll: Option<u64>,
}

/// The watchdog timers `ctx`'s target writes for `w`, by the renderer's own rules; `None` when
/// the file writes no watchdog at all for it.
fn written(ctx: &SwitchContext, w: Watchdog) -> Option<Written> {
    let (d, r, p) = (
        u64::from(w.detect_ms),
        u64::from(w.restore_ms),
        u64::from(w.poll_ms),
    );
    let in_polls = |poll: u64| d.div_ceil(poll.max(1)) * poll.max(1);
    Some(match ctx.os {
        SwitchOs::Sonic => Written {
            detect: Some((d, 1)),
            restore: Some((r, 1)),
            poll: Some(p),
        },
        SwitchOs::Cumulus => {
            let release = ctx.release.unwrap_or(crate::render::cumulus::NEWEST);
            if !crate::render::cumulus::has(release, crate::render::cumulus::Feature::PfcWatchdog) {
                return None;
            }
            Written {
                detect: Some((in_polls(p), p.max(1))),
                restore: Some((p.max(1), 1)),
                poll: Some(p.max(1)),
            }
        }
        SwitchOs::Eos => {
            let step = |ms: u32| u64::from(crate::render::eos::round_10ms(ms));
            Written {
                detect: Some((step(w.detect_ms), 10)),
                restore: Some((step(w.restore_ms), 10)),
                poll: Some(p),
            }
        }
        SwitchOs::Junos => Written {
            detect: Some((in_polls(p), p.max(1))),
            restore: Some((r, 1)),
            poll: Some(p.max(1)),
        },
        SwitchOs::Vrp => match Family::of(ctx) {
            Family::Ce8850 => Written {
                detect: Some((d, 1)),
                restore: Some((r, 1)),
                poll: None,
            },
            Family::Ce8855 => {
                let (unit, dn, rn) = crate::render::vrp::ce8855_timers(w.detect_ms, w.restore_ms)?;
                let unit = u64::from(unit);
                Written {
                    detect: Some((u64::from(dn) * unit, unit)),
                    restore: Some((u64::from(rn) * unit, unit)),
                    poll: None,
                }
            }
            Family::Unknown => return None,
        },
        SwitchOs::Nxos | SwitchOs::Comware => Written {
            detect: None,
            restore: None,
            poll: None,
        },
    })
}

/// The `.fab` word of an action, as import names it.
fn action(a: WatchdogAction) -> &'static str {
    match a {
        WatchdogAction::Drop => "drop",
        WatchdogAction::Forward => "forward",
        WatchdogAction::Alert => "alert",
    }
}

/// Compares port `p`'s written watchdog (`sw`'s) with the proven one.
pub(super) fn compare(ctx: &SwitchContext, p: &PortContext, sw: &Switch, found: &mut Found) {
    // A port the file gives no lossless priority has no watchdog to judge (the `pfc`
    // difference says so once).
    let Some(r) = sw
        .ports
        .get(&p.name)
        .filter(|r| r.pfc.as_ref().is_some_and(|x| !x.0.is_empty()))
    else {
        return;
    };
    let mut note = |what: String, proven: String, written: String, kind: Kind| {
        found
            .entry(("watchdog", what, proven, written, kind))
            .or_default()
            .push(p.name.clone());
    };
    let on = |b: bool| if b { "on" } else { "off" }.to_string();
    let proven = ctx
        .watchdog
        .filter(|_| p.pfc_watchdog && !p.lossless_priorities.is_empty());
    let got = r.watchdog.as_ref().map(|w| w.0);
    match (proven, got) {
        (None, None) => {}
        (None, Some(_)) => {
            // The CE8850 family's timers are switch-wide: every PFC port has them once any
            // port asks for the watchdog (the renderer notes it).
            let switch_wide = ctx.os == SwitchOs::Vrp
                && Family::of(ctx) == Family::Ce8850
                && ctx.watchdog.is_some();
            note(
                String::new(),
                on(false),
                on(true),
                if switch_wide {
                    Kind::Forced
                } else {
                    Kind::Mistake
                },
            );
        }
        (Some(w), None) => {
            // A target that cannot write it (no VRP platform, a Cumulus release before 5.6)
            // says so in its notes.
            let unwritable = written(ctx, w).is_none();
            note(
                String::new(),
                on(true),
                on(false),
                if unwritable {
                    Kind::Forced
                } else {
                    Kind::Mistake
                },
            );
        }
        (Some(w), Some(g)) => {
            if action(w.action) != g.action {
                note(
                    "action".into(),
                    action(w.action).into(),
                    g.action.into(),
                    Kind::Mistake,
                );
            }
            let Some(exp) = written(ctx, w) else {
                return;
            };
            let timers = [
                (
                    "detect",
                    u64::from(w.detect_ms),
                    exp.detect,
                    Some(g.detect_ms),
                ),
                (
                    "restore",
                    u64::from(w.restore_ms),
                    exp.restore,
                    Some(g.restore_ms),
                ),
                (
                    "poll",
                    u64::from(w.poll_ms),
                    exp.poll.map(|p| (p, 1)),
                    g.poll_ms,
                ),
            ];
            for (what, asked, exp, got) in timers {
                let (Some((rule, unit)), Some(got)) = (exp, got) else {
                    continue;
                };
                if got == asked {
                    continue;
                }
                let kind = if got != rule {
                    Kind::Mistake
                } else if got > asked && got - asked < unit {
                    Kind::Rounding
                } else {
                    Kind::Forced
                };
                note(
                    what.into(),
                    format!("{asked} ms"),
                    format!("{got} ms"),
                    kind,
                );
            }
        }
    }
}
