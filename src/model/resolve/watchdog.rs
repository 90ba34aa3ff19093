//! A `pfc-watchdog` statement → the model's `Watchdog`: the fabric's, and a switch's override.

use super::slot::put;
use crate::diagnostic::Diagnostic;
use crate::model::{DEFAULT_WATCHDOG, Nanoseconds, Watchdog};
use crate::syntax::ast::{self, WatchdogArg, WatchdogSetting};

pub(crate) fn watchdog_setting(w: &ast::Watchdog, diags: &mut Vec<Diagnostic>) -> Watchdog {
    let WatchdogSetting::On(args) = &w.setting else {
        return Watchdog::Off;
    };
    let Watchdog::On {
        mut detect_ns,
        mut restore_ns,
        mut poll_ns,
        mut action,
    } = DEFAULT_WATCHDOG
    else {
        return Watchdog::Off;
    };
    let (mut d, mut r, mut p, mut a) = (None, None, None, None);
    for arg in args {
        match arg.node {
            WatchdogArg::Detect(t) => put(&mut d, t.0, arg.span, "`detect`", diags),
            WatchdogArg::Restore(t) => put(&mut r, t.0, arg.span, "`restore`", diags),
            WatchdogArg::Poll(t) => put(&mut p, t.0, arg.span, "`poll`", diags),
            WatchdogArg::Action(x) => put(&mut a, x, arg.span, "`action`", diags),
        }
    }
    if let Some(v) = d {
        detect_ns = Nanoseconds(v.value);
    }
    if let Some(v) = r {
        restore_ns = Nanoseconds(v.value);
    }
    if let Some(v) = p {
        poll_ns = Nanoseconds(v.value);
    }
    if let Some(v) = a {
        action = v.value;
    }
    Watchdog::On {
        detect_ns,
        restore_ns,
        poll_ns,
        action,
    }
}
