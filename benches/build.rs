//! Benchmarks of the back end of `fabricc build` per stage — lower, render (switches, hosts),
//! reports and the whole in-memory generation, the manifest, and the write into an output
//! folder (fresh, and again with nothing changed) — on the scale fixtures. Checking the fabric
//! is setup, outside the timing (`benches/front_end.rs` measures it).
//!
//! Run: `cargo bench --bench build` (all), `cargo bench --bench build -- render` (one stage).
//! Whole-command wall time, peak memory and the `cp -r` floor: `scripts/bench-build.sh`.

use std::path::{Path, PathBuf};

use fabricc::lower::{self, Targets};
use fabricc::model::{Fabric, Limits};
use fabricc::output::{
    self, Manifest,
    generate::{BuildInput, generate},
};
use fabricc::pipeline::{self, Checked};
use fabricc::render::{self, Artifact, Templates};
use fabricc::source::Sources;
use rayon::prelude::*;

fn main() {
    divan::main();
}

const SMALL: &[&str] = &["pod-256.fab", "cluster-2048.fab"];
const LARGE: &[&str] = &[
    "cluster-16k.fab",
    "cluster-100k.fab",
    "designs/alibaba-hpn7-pod.fab",
];

fn checked(name: &str) -> Checked {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics")
        .join(name);
    let mut sources = Sources::new();
    pipeline::check(&mut sources, &path, &Limits::default()).expect("fixture readable")
}

fn fabric(c: &Checked) -> &Fabric {
    c.fabric.as_ref().expect("fixture resolves")
}

fn files(c: &Checked, templates: &Templates) -> Vec<Artifact> {
    let input = BuildInput::of(c).expect("fixture lowers");
    generate(input, Targets::ALL, templates).expect("fixture builds")
}

/// A fresh, empty scratch folder for one write.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabricc-bench-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[divan::bench(args = SMALL.iter().chain(LARGE), sample_count = 3, sample_size = 1)]
fn lower(bencher: divan::Bencher, name: &str) {
    let c = checked(name);
    bencher.bench_local(|| lower::lower(divan::black_box(fabric(&c)), Targets::ALL));
}

#[divan::bench(args = SMALL.iter().chain(LARGE), sample_count = 3, sample_size = 1)]
fn render_switches(bencher: divan::Bencher, name: &str) {
    let c = checked(name);
    let templates = Templates::embedded().expect("embedded templates");
    let lowered = lower::lower(fabric(&c), Targets::ALL);
    bencher.bench_local(|| {
        lowered
            .switches
            .par_iter()
            .map(|s| render::render_switch(&templates, s).map(|a| a.len()))
            .collect::<Vec<_>>()
    });
}

#[divan::bench(args = SMALL.iter().chain(LARGE), sample_count = 3, sample_size = 1)]
fn render_hosts(bencher: divan::Bencher, name: &str) {
    let c = checked(name);
    let templates = Templates::embedded().expect("embedded templates");
    let lowered = lower::lower(fabric(&c), Targets::ALL);
    bencher.bench_local(|| {
        lowered
            .hosts
            .par_iter()
            .map(|h| render::render_host(&templates, h).map(|a| a.len()))
            .collect::<Vec<_>>()
    });
}

/// Lower, render every device, and the reports: every file of the build, in memory.
#[divan::bench(args = SMALL.iter().chain(LARGE), sample_count = 3, sample_size = 1)]
fn generate_all(bencher: divan::Bencher, name: &str) {
    let c = checked(name);
    let templates = Templates::embedded().expect("embedded templates");
    bencher.bench_local(|| files(&c, &templates));
}

#[divan::bench(args = SMALL.iter().chain(LARGE), sample_count = 3, sample_size = 1)]
fn manifest(bencher: divan::Bencher, name: &str) {
    let c = checked(name);
    let templates = Templates::embedded().expect("embedded templates");
    let files = files(&c, &templates);
    bencher.bench_local(|| Manifest::of(&fabric(&c).name, divan::black_box(&files)).to_json());
}

/// Writing every file into a folder that does not exist yet.
#[divan::bench(args = SMALL.iter().chain(LARGE), sample_count = 3, sample_size = 1)]
fn write_fresh(bencher: divan::Bencher, name: &str) {
    let c = checked(name);
    let templates = Templates::embedded().expect("embedded templates");
    let files = files(&c, &templates);
    let dir = scratch("fresh");
    bencher
        .with_inputs(|| {
            let _ = std::fs::remove_dir_all(&dir);
        })
        .bench_local_values(|()| output::write(&dir, &fabric(&c).name, &files, false));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writing into the folder the same build produced: every file is compared, none rewritten.
#[divan::bench(args = SMALL.iter().chain(LARGE), sample_count = 3, sample_size = 1)]
fn write_unchanged(bencher: divan::Bencher, name: &str) {
    let c = checked(name);
    let templates = Templates::embedded().expect("embedded templates");
    let files = files(&c, &templates);
    let dir = scratch("unchanged");
    output::write(&dir, &fabric(&c).name, &files, false).expect("first write");
    bencher.bench_local(|| output::write(&dir, &fabric(&c).name, &files, false));
    let _ = std::fs::remove_dir_all(&dir);
}
