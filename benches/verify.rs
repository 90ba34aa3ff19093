//! `fabricc verify` against `fabricc build` on the scale fixtures: the fabric verified against
//! its own build as state (every switch's configuration under its state file name, every
//! host's `state.json` at its intent, an `lldp.json` per device of the cabling plan; see
//! `tests/support/synth.rs`). Both sides include the check of the fabric, as the commands do.
//!
//! The target (issue 16): `verify` under twice the time of `build` on `cluster-100k.fab`.
//! Run: `cargo bench --bench verify` (all), `cargo bench --bench verify -- cluster-100k`.
//!
//! Measured with the release binary and `/usr/bin/time -v` (CPU = user + sys; the machine
//! was shared with five other builds, load average 8.2–9.3 on 2 cores, so wall times are
//! long and CPU times inflated alike for both):
//!
//! ```text
//! cargo build --release --bin fabricc --example synth_state
//! target/release/examples/synth_state fixtures/fabrics/cluster-100k.fab /tmp/st   # 33,384 files, 616 MB
//! /usr/bin/time -v target/release/fabricc build fixtures/fabrics/cluster-100k.fab -o /tmp/out --allow-warnings
//! /usr/bin/time -v target/release/fabricc verify fixtures/fabrics/cluster-100k.fab --state /tmp/st
//! ```
//!
//! | cluster-100k (12,500 hosts, 100,000 NICs) | CPU (user + sys) | wall | peak RSS |
//! |---|---|---|---|
//! | `build` (writes 1.1 GB) | 32.9 s (29.6 + 3.3) | 58.7 s | 704 MB |
//! | `verify` (in sync, no findings) | 36.9 s (34.7 + 2.2) | 90.6 s | 1.51 GB |
//!
//! A second pair under heavier load (load average 15–17, while the test suite compiled):
//! `build` 54.5 s CPU (33.2 + 21.3, most of the system time writing 1.1 GB), `verify` 39.4 s
//! (37.0 + 2.4), peak RSS as above.
//!
//! `verify` takes 1.12× the CPU time of `build` (before the JSON reader borrowed from the
//! text, the last measurement was 2.8×: build 11.5 s, verify 31.9 s CPU, on a quieter machine).

use std::path::{Path, PathBuf};

use fabricc::lower::Targets;
use fabricc::model::Limits;
use fabricc::output::{
    self,
    generate::{BuildInput, generate},
};
use fabricc::pipeline;
use fabricc::render::Templates;
use fabricc::source::Sources;
use fabricc::verify::{self, Input};

#[path = "../tests/support/synth.rs"]
mod synth;

fn main() {
    divan::main();
}

const FABRICS: &[&str] = &["cluster-2048.fab", "cluster-100k.fab"];

fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics")
        .join(name)
}

fn scratch(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("fabricc-bench-verify-{}-{tag}", std::process::id()))
}

/// The in-sync state directory of a fabric, written once per run.
fn state(name: &str) -> PathBuf {
    let dir = scratch(&format!("state-{name}"));
    if dir.join(".done").exists() {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &path(name), &Limits::default()).expect("readable");
    let templates = Templates::embedded().expect("templates");
    let files = generate(
        BuildInput::of(&c).expect("lowers"),
        Targets::ALL,
        &templates,
    )
    .expect("builds");
    for (rel, text) in synth::state(c.fabric.as_ref().expect("resolves"), &files) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    std::fs::write(dir.join(".done"), "").expect("write");
    dir
}

/// `fabricc build FILE -o DIR` into a fresh folder: check, generate, write.
#[divan::bench(args = FABRICS, sample_count = 3, sample_size = 1)]
fn build(bencher: divan::Bencher, name: &str) {
    let out = scratch(&format!("out-{name}"));
    let templates = Templates::embedded().expect("templates");
    bencher
        .with_inputs(|| {
            let _ = std::fs::remove_dir_all(&out);
        })
        .bench_local_values(|()| {
            let mut sources = Sources::new();
            let c =
                pipeline::check(&mut sources, &path(name), &Limits::default()).expect("readable");
            let files = generate(
                BuildInput::of(&c).expect("lowers"),
                Targets::ALL,
                &templates,
            )
            .expect("builds");
            output::write(
                &out,
                &c.fabric.as_ref().expect("resolves").name,
                &files,
                false,
            )
            .expect("writes")
        });
    let _ = std::fs::remove_dir_all(&out);
}

/// `fabricc verify FILE --state DIR`: check, render every device, read and compare its state.
#[divan::bench(args = FABRICS, sample_count = 3, sample_size = 1)]
fn verify(bencher: divan::Bencher, name: &str) {
    let dir = state(name);
    let templates = Templates::embedded().expect("templates");
    bencher.bench_local(|| {
        let mut sources = Sources::new();
        let c = pipeline::check(&mut sources, &path(name), &Limits::default()).expect("readable");
        let input = Input {
            checked: &c,
            templates: &templates,
            targets: Targets::ALL,
            state_dir: &dir,
            state_display: dir.display().to_string(),
            max_input_bytes: Limits::default().max_input_bytes,
        };
        let outcome = verify::verify(&input, &mut sources).expect("runs");
        assert!(
            outcome.diagnostics.is_empty(),
            "{name}: its own build is in sync ({} findings)",
            outcome.diagnostics.len()
        );
        outcome.devices.len()
    });
}
