//! bytes → `fabricc check`: load (in memory), resolve, analyse, and render the findings the
//! way `check` prints them (human, JSON, SARIF). Writes nothing.
#![no_main]

mod common;

use fabricc::diagnostic::{self, human::HumanStyle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sources, checked)) = common::check(data) else {
        return;
    };
    // Every span must resolve against the sources it points into.
    let style = HumanStyle {
        color: false,
        width: 100,
    };
    let _ = diagnostic::human::render_human(&checked.diagnostics, &sources, style);
    let _ = diagnostic::human::summary(&checked.diagnostics);
    let _ = diagnostic::json::render_json(
        checked.fabric_name(),
        &checked.diagnostics,
        checked.facts.as_ref(),
        &sources,
    );
    let _ = diagnostic::sarif::render_sarif(&checked.diagnostics, &sources);
});
