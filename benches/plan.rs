//! Benchmark of `fabricc plan` (issue 39: plans for the 100k-GPU fixture in ≤ 30 s on 2
//! cores): the plan of an ECN threshold change (`roce`'s `ecn min` + 50 KB, every switch
//! changes) on the scale fixtures, both sides checked beforehand, so that the figure is the
//! plan's own — per-device changes, waves and the proof of every state. Run:
//! `cargo bench --bench plan`; the whole command with its two checks, and its peak memory:
//! `/usr/bin/time -v fabricc plan old.fab new.fab` (README, "Plan the rollout").

use std::path::Path;

use fabricc::model::{Limits, load};
use fabricc::pipeline::{self, Checked};
use fabricc::plan::{self, Options, Order};
use fabricc::source::Sources;

fn main() {
    divan::main();
}

/// The fixture and the same fixture with `ecn min` 50 KB higher, checked.
fn sides(name: &str) -> (Checked, Checked) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics")
        .join(name);
    let old = std::fs::read_to_string(&path).expect("fixture");
    let new = bump_ecn_min(&old);
    assert_ne!(old, new, "{name} has an `ecn min … KB`");
    let limits = Limits::default();
    let mut sources = Sources::new();
    let a = load::load_text(&mut sources, "old.fab", old, &limits);
    let a = pipeline::check_loaded(&sources, a, &limits);
    let b = load::load_text(&mut sources, "new.fab", new, &limits);
    let b = pipeline::check_loaded(&sources, b, &limits);
    (a, b)
}

fn bump_ecn_min(text: &str) -> String {
    let Some(at) = text.find("ecn min ") else {
        return text.to_string();
    };
    let rest = &text[at + 8..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let value: u64 = digits.parse().unwrap_or(0);
    format!(
        "{}ecn min {}{}",
        &text[..at],
        value + 50,
        &rest[digits.len()..]
    )
}

fn run(name: &str, bencher: divan::Bencher) {
    let (a, b) = sides(name);
    let opts = Options {
        order: Order::Auto,
        max_unavailable_percent: 25,
        replace: Vec::new(),
    };
    let limits = Limits::default();
    bencher.bench_local(|| {
        let (p, _) = plan::plan(&a, &b, ("old", "new"), &opts, &limits).expect("both sides check");
        assert_eq!(p.proof.unsafe_steps, 0);
        p
    });
}

#[divan::bench(args = ["pod-256.fab", "cluster-2048.fab", "cluster-16k.fab"], sample_count = 3, sample_size = 1)]
fn ecn_change(bencher: divan::Bencher, name: &str) {
    run(name, bencher);
}

#[divan::bench(args = ["cluster-100k.fab"], sample_count = 1, sample_size = 1)]
fn ecn_change_100k(bencher: divan::Bencher, name: &str) {
    run(name, bencher);
}
