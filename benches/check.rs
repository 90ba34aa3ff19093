//! Benchmark of the whole `fabricc check` of one fabric (`pipeline::check`: load, parse,
//! resolve, every analysis with the deadlock proof under `check failures N`, lowering for
//! every target and every target's view), and of the views alone, per device against per
//! view class (`render::view_class`). Run: `cargo bench --bench check` (the 100k case runs
//! twice); for peak memory run the CLI under `/usr/bin/time -v` (README, "Figures").

use std::path::{Path, PathBuf};

use fabricc::lower::Lowered;
use fabricc::model::Limits;
use fabricc::pipeline;
use fabricc::render::{self, view_class};
use fabricc::source::Sources;

fn main() {
    divan::main();
}

fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics")
        .join(name)
}

fn check(name: &str) -> pipeline::Checked {
    let mut sources = Sources::new();
    pipeline::check(&mut sources, &path(name), &Limits::default()).expect("fixture readable")
}

#[divan::bench(args = ["cluster-2048.fab", "cluster-2048-f1.fab", "cluster-2048-f2.fab"], sample_count = 5, sample_size = 1)]
fn whole_check_2048(name: &str) -> pipeline::Checked {
    check(divan::black_box(name))
}

#[divan::bench(args = ["cluster-100k-f1.fab"], sample_count = 2, sample_size = 1)]
fn whole_check_100k(name: &str) -> pipeline::Checked {
    check(divan::black_box(name))
}

fn lowered(name: &str) -> Lowered {
    check(name).lowered.expect("fixture lowers")
}

/// Every target's view of every device, one by one (what `check` did before view classes).
#[divan::bench(args = ["cluster-16k.fab"], sample_count = 3, sample_size = 1)]
fn views_per_device(bencher: divan::Bencher, name: &str) {
    let l = lowered(name);
    bencher.bench_local(|| {
        let s: Vec<_> = l.switches.iter().map(render::preflight_switch).collect();
        let h: Vec<_> = l.hosts.iter().map(render::preflight_host).collect();
        (s, h)
    });
}

/// The same views, once per view class (first checked equal to the per-device ones at this
/// scale, which the debug-build tests in `tests/view_classes.rs` do not reach).
#[divan::bench(args = ["cluster-16k.fab"], sample_count = 3, sample_size = 1)]
fn views_per_class(bencher: divan::Bencher, name: &str) {
    let l = lowered(name);
    let each: Vec<_> = l.switches.iter().map(render::preflight_switch).collect();
    assert_eq!(view_class::preflight_switches(&l.switches), each);
    let each: Vec<_> = l.hosts.iter().map(render::preflight_host).collect();
    assert_eq!(view_class::preflight_hosts(&l.hosts), each);
    bencher.bench_local(|| {
        (
            view_class::preflight_switches(&l.switches),
            view_class::preflight_hosts(&l.hosts),
        )
    });
}
