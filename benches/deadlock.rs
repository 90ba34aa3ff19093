//! Benchmark of the PFC deadlock proof (`analysis::deadlock::prove`) on the 2,048-GPU,
//! 16,384-GPU and 100,000-GPU fixtures, intact and with `check failures 1` and `2`. Loading
//! and resolving the fabric is setup, outside the timing. Run: `cargo bench --bench deadlock`
//! (it runs each 100k case only twice); for peak memory run the CLI under `/usr/bin/time -v`.

use std::path::Path;

use fabricc::analysis::deadlock::{self, Options};
use fabricc::model::{Fabric, Limits};
use fabricc::pipeline;
use fabricc::source::Sources;

fn main() {
    divan::main();
}

fn load(name: &str) -> Fabric {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics")
        .join(name);
    let mut sources = Sources::new();
    let loaded = fabricc::model::load::load(&mut sources, &path, &Limits::default())
        .expect("fixture readable");
    let (fabric, _) = fabricc::model::resolve::resolve(&loaded.files, &sources, &Limits::default());
    let _ = pipeline::check_loaded; // the proof alone is measured, not the other passes
    fabric.expect("fixture resolves")
}

#[divan::bench(args = ["cluster-2048.fab", "cluster-2048-f1.fab", "cluster-2048-f2.fab"], sample_count = 5, sample_size = 1)]
fn cluster_2048(bencher: divan::Bencher, name: &str) {
    let fabric = load(name);
    bencher.bench_local(|| deadlock::prove(divan::black_box(&fabric), Options::default()));
}

#[divan::bench(args = ["cluster-100k.fab", "cluster-100k-f1.fab", "designs/alibaba-hpn7-pod.fab"], sample_count = 2, sample_size = 1)]
fn cluster_100k(bencher: divan::Bencher, name: &str) {
    let fabric = load(name);
    bencher.bench_local(|| deadlock::prove(divan::black_box(&fabric), Options::default()));
}

/// `check failures 2` on the 16,384-GPU fabric: 1,207,984,128 scenarios, by classes.
#[divan::bench(args = ["cluster-16k-f2.fab"], sample_count = 3, sample_size = 1)]
fn cluster_16k(bencher: divan::Bencher, name: &str) {
    let fabric = load(name);
    bencher.bench_local(|| deadlock::prove(divan::black_box(&fabric), Options::default()));
}

/// The graph built in full (no valley-free certificate) on the 2,048-GPU fabric.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn cluster_2048_full_graph(bencher: divan::Bencher) {
    let fabric = load("cluster-2048.fab");
    bencher.bench_local(|| {
        deadlock::prove(
            divan::black_box(&fabric),
            Options {
                force_graph: true,
                ..Options::default()
            },
        )
    });
}
