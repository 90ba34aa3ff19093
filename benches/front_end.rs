//! Benchmarks of the front end per stage — parse, resolve (with the tier generators), and the
//! analyses — on the 2,048-GPU and 100,000-GPU fixtures. Run: `cargo bench --bench front_end`.
//! For whole-command wall time and peak memory use `/usr/bin/time -v fabricc check …`.

use std::path::Path;

use fabricc::analysis;
use fabricc::model::{Limits, load, resolve};
use fabricc::source::Sources;
use fabricc::span::FileId;
use fabricc::syntax;

fn main() {
    divan::main();
}

// HPN 7.0 (issue 18): two planes of 2-port NICs, 15,360 GPUs, `check failures 1`.
const FABRICS: &[&str] = &[
    "cluster-2048.fab",
    "cluster-100k.fab",
    "designs/alibaba-hpn7-pod.fab",
];

fn text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics")
        .join(name);
    std::fs::read_to_string(path).expect("fixture readable")
}

#[divan::bench(args = FABRICS, sample_count = 20)]
fn parse(bencher: divan::Bencher, name: &str) {
    let t = text(name);
    bencher.bench_local(|| syntax::parse(FileId(0), divan::black_box(&t)));
}

#[divan::bench(args = FABRICS, sample_count = 5, sample_size = 1)]
fn resolve(bencher: divan::Bencher, name: &str) {
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, name, text(name), &Limits::default());
    bencher.bench_local(|| {
        resolve::resolve(
            divan::black_box(&loaded.files),
            &sources,
            &Limits::default(),
        )
    });
}

#[divan::bench(args = FABRICS, sample_count = 5, sample_size = 1)]
fn analyze(bencher: divan::Bencher, name: &str) {
    let mut sources = Sources::new();
    let loaded = load::load_text(&mut sources, name, text(name), &Limits::default());
    let (fabric, _) = resolve::resolve(&loaded.files, &sources, &Limits::default());
    let fabric = fabric.expect("fixture resolves");
    bencher.bench_local(|| analysis::analyze(divan::black_box(&fabric)));
}
