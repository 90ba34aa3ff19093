//! Every stage of `fabricc build` at three sizes of one fabric, so that a step that grows
//! faster than the fabric shows as a ratio (issue 36 item 1): `benches/fabrics/gpu-4k.fab`,
//! `gpu-16k.fab` and `gpu-98k.fab` differ only in their host count (512, 2,048 and 12,288
//! hosts × 8 NICs; 192, 512 and 3,840 switches; 12,288, 49,152 and 294,912 links). A linear
//! stage takes about 4× from 4k to 16k and 6× from 16k to 98k.
//!
//! Stages: `check` (parse, resolve, analyses, lowering: what `build --timings` calls check),
//! `render_switches`, `render_hosts`, the three reports (`cabling`, `report_md` and
//! `topology_dot`, together `reports`), `manifest`, and `write_fresh` (every file into a folder
//! that does not exist yet). `build --timings` gives the same split for one command.
//!
//! Run: `cargo bench --bench stages` (all; the 98k fabric takes minutes),
//! `cargo bench --bench stages -- reports` (one stage). `FABRICC_BENCH_SIZES=4k,16k` limits
//! the sizes.

use std::path::{Path, PathBuf};

use fabricc::lower::Targets;
use fabricc::model::{Fabric, Limits};
use fabricc::output::generate::{BuildInput, generate};
use fabricc::output::report::{ReportInput, TargetTotals};
use fabricc::output::{self, Manifest, cabling};
use fabricc::pipeline::{self, Checked};
use fabricc::render::{self, Artifact, SwitchContext, Templates};
use fabricc::source::Sources;
use rayon::prelude::*;

fn main() {
    divan::main();
}

/// The sizes to run: 4k, 16k and 98k, or those `FABRICC_BENCH_SIZES` names.
fn sizes() -> Vec<&'static str> {
    let only = std::env::var("FABRICC_BENCH_SIZES").ok();
    ["4k", "16k", "98k"]
        .into_iter()
        .filter(|size| {
            only.as_deref()
                .is_none_or(|s| s.split(',').any(|w| w.trim() == *size))
        })
        .collect()
}

fn path(size: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/fabrics")
        .join(format!("gpu-{size}.fab"))
}

fn checked(size: &str) -> Checked {
    let mut sources = Sources::new();
    pipeline::check(&mut sources, &path(size), &Limits::default()).expect("fixture readable")
}

fn fabric(c: &Checked) -> &Fabric {
    c.fabric.as_ref().expect("fixture resolves")
}

fn files(c: &Checked, templates: &Templates) -> Vec<Artifact> {
    let input = BuildInput::of(c).expect("fixture lowers");
    generate(input, Targets::ALL, templates).expect("fixture builds")
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn check(bencher: divan::Bencher, size: &str) {
    let p = path(size);
    bencher.bench_local(|| {
        let mut sources = Sources::new();
        pipeline::check(&mut sources, divan::black_box(&p), &Limits::default())
    });
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn render_switches(bencher: divan::Bencher, size: &str) {
    let c = checked(size);
    let templates = Templates::embedded().expect("embedded templates");
    let lowered = c.lowered.as_ref().expect("fixture lowers");
    bencher.bench_local(|| {
        lowered
            .switches
            .par_iter()
            .map(|s| render::render_switch(&templates, s).map(|a| a.len()))
            .collect::<Vec<_>>()
    });
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn render_hosts(bencher: divan::Bencher, size: &str) {
    let c = checked(size);
    let templates = Templates::embedded().expect("embedded templates");
    let lowered = c.lowered.as_ref().expect("fixture lowers");
    bencher.bench_local(|| {
        lowered
            .hosts
            .par_iter()
            .map(|h| render::render_host(&templates, h).map(|a| a.len()))
            .collect::<Vec<_>>()
    });
}

/// The cabling plan alone (`cabling.csv`), one thread.
#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn cabling(bencher: divan::Bencher, size: &str) {
    let c = checked(size);
    bencher.bench_local(|| cabling::csv(divan::black_box(fabric(&c))));
}

/// `report.md`, `topology.dot` and `cabling.csv`, as the build makes them (in parallel).
#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn reports(bencher: divan::Bencher, size: &str) {
    let c = checked(size);
    let lowered = c.lowered.as_ref().expect("fixture lowers");
    let switches: Vec<&SwitchContext> = lowered.switches.iter().collect();
    let totals = std::collections::BTreeMap::<String, TargetTotals>::new();
    let input = ReportInput {
        fabric: fabric(&c),
        diagnostics: &c.diagnostics,
        build_findings: &[],
        facts: c.facts.as_ref(),
        switches: &switches,
        hosts: &lowered.hosts,
        totals: &totals,
    };
    bencher.bench_local(|| output::report::reports(divan::black_box(&input)));
}

#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn manifest(bencher: divan::Bencher, size: &str) {
    let c = checked(size);
    let templates = Templates::embedded().expect("embedded templates");
    let files = files(&c, &templates);
    bencher.bench_local(|| Manifest::of(&fabric(&c).name, divan::black_box(&files)).to_json());
}

/// Writing every file into a folder that does not exist yet.
#[divan::bench(args = sizes(), sample_count = 3, sample_size = 1)]
fn write_fresh(bencher: divan::Bencher, size: &str) {
    let c = checked(size);
    let templates = Templates::embedded().expect("embedded templates");
    let files = files(&c, &templates);
    let dir = std::env::temp_dir().join(format!("fabricc-stages-{}-{size}", std::process::id()));
    bencher
        .with_inputs(|| {
            let _ = std::fs::remove_dir_all(&dir);
        })
        .bench_local_values(|()| output::write(&dir, &fabric(&c).name, &files, false));
    let _ = std::fs::remove_dir_all(&dir);
}
