//! Turns a fabric's build into the state folder its devices would report if they ran exactly
//! what fabricc generates (`tests/support/synth.rs`): every switch's configuration under its
//! state file name, every host's `state.json` at its intent, an `lldp.json` per device of the
//! cabling plan. For measuring `verify` against `build` with `/usr/bin/time -v` (README,
//! "Verify a deployment"; benches/verify.rs).
//!
//! Run: `cargo run --release --example synth_state -- FILE.fab STATE_DIR`

use std::path::PathBuf;
use std::process::ExitCode;

use fabricc::lower::Targets;
use fabricc::model::Limits;
use fabricc::output::generate::{BuildInput, generate};
use fabricc::pipeline;
use fabricc::render::Templates;
use fabricc::source::Sources;

#[path = "../tests/support/synth.rs"]
mod synth;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fab, dir] = args.as_slice() else {
        eprintln!("usage: synth_state FILE.fab STATE_DIR");
        return ExitCode::from(2);
    };
    let (fab, dir) = (PathBuf::from(fab), PathBuf::from(dir));
    let mut sources = Sources::new();
    let checked = match pipeline::check(&mut sources, &fab, &Limits::default()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (Some(input), Some(fabric)) = (BuildInput::of(&checked), checked.fabric.as_ref()) else {
        eprintln!(
            "error: `{}` does not build (run fabricc check)",
            fab.display()
        );
        return ExitCode::from(1);
    };
    let templates = match Templates::embedded() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let files = match generate(input, Targets::ALL, &templates) {
        Ok(f) => f,
        Err(findings) => {
            eprintln!(
                "error: `{}` does not build ({} findings; run fabricc build)",
                fab.display(),
                findings.len()
            );
            return ExitCode::from(1);
        }
    };
    let state = synth::state(fabric, &files);
    for (rel, text) in &state {
        let p = dir.join(rel);
        let written = p
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&p, text));
        if let Err(e) = written {
            eprintln!("error: cannot write `{}`: {e}", p.display());
            return ExitCode::from(2);
        }
    }
    eprintln!("wrote {} state files into `{}`", state.len(), dir.display());
    ExitCode::SUCCESS
}
