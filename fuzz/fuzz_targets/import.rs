//! bytes → `fabricc check --state`: the input is split on NUL bytes into a leaf's
//! `config_db.json`, its `lldp.json`, a host's `state.json` and a Cumulus leaf's
//! `startup.yaml`, written to a scratch state
//! directory, imported and checked. Import must never panic, and every span it gives must
//! render.
#![no_main]

use std::path::PathBuf;

use fabricc::diagnostic::{self, human::HumanStyle};
use fabricc::import::{Input, check::check_state};
use fabricc::model::Limits;
use fabricc::source::Sources;
use libfuzzer_sys::fuzz_target;

fn dir() -> PathBuf {
    std::env::temp_dir().join(format!("fabricc-fuzz-import-{}", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(4, |&b| b == 0);
    let files = [
        ("leaf1", "config_db.json"),
        ("leaf1", "lldp.json"),
        ("gpu1", "state.json"),
        ("leaf2", "startup.yaml"),
    ];
    let root = dir();
    let _ = std::fs::remove_dir_all(&root);
    for (device, file) in files {
        let Some(bytes) = parts.next() else { break };
        let d = root.join(device);
        if std::fs::create_dir_all(&d).is_err() || std::fs::write(d.join(file), bytes).is_err() {
            return;
        }
    }
    let limits = Limits {
        max_input_bytes: 1 << 20,
        ..Limits::default()
    };
    let mut sources = Sources::new();
    let input = Input {
        state_dir: &root,
        state_display: "state".into(),
        max_input_bytes: limits.max_input_bytes,
        name: Some("fuzz".into()),
    };
    if let Ok(c) = check_state(&input, &mut sources, &limits) {
        let style = HumanStyle {
            color: false,
            width: 100,
        };
        let _ = diagnostic::human::render_human(&c.diagnostics, &sources, style);
        let _ = diagnostic::sarif::render_sarif(&c.diagnostics, &sources);
    }
});
