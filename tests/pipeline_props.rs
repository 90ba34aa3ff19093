//! The whole front end never panics and always terminates: random line-level edits of the
//! example fabrics (drop, duplicate, swap lines; change numbers and names) go through
//! parse → resolve → analyse, and each gives either a fabric or findings with spans inside
//! the input.

use proptest::prelude::*;

use fabricc::model::{Limits, load};
use fabricc::pipeline;
use fabricc::source::Sources;

const SEEDS: &[&str] = &[
    include_str!("../fixtures/fabrics/pod-256.fab"),
    include_str!("../fixtures/fabrics/explicit-leaf-spine.fab"),
    include_str!("../fixtures/check/FAB604_oversubscribed_leaf.fab"),
    include_str!("../fixtures/check/FAB606_ratio_impossible.fab"),
];

#[derive(Debug, Clone)]
enum Edit {
    Drop(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Number(usize, u64),
    Word(usize, usize, &'static str),
}

const WORDS: &[&str] = &[
    "L1",
    "h1",
    "roce",
    "cnp",
    "s64",
    "leaf",
    "spine",
    "0",
    "1:0",
    "x",
    "}",
    "{",
    "[1..0]",
    "sn5400",
    "gpu01.nic9",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (
            any::<usize>(),
            prop_oneof![
                Just(0u64),
                Just(1),
                Just(7),
                Just(64),
                Just(65_535),
                Just(u64::MAX),
                0u64..100_000
            ]
        )
            .prop_map(|(l, n)| Edit::Number(l, n)),
        (
            any::<usize>(),
            any::<usize>(),
            proptest::sample::select(WORDS)
        )
            .prop_map(|(l, w, s)| Edit::Word(l, w, s)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for e in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match *e {
            Edit::Drop(i) => {
                lines.remove(i % n);
            }
            Edit::Duplicate(i) => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Edit::Swap(a, b) => lines.swap(a % n, b % n),
            Edit::Number(i, v) => {
                let l = &mut lines[i % n];
                if let Some(start) = l.find(|c: char| c.is_ascii_digit()) {
                    let end = l[start..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(l.len(), |e| start + e);
                    l.replace_range(start..end, &v.to_string());
                }
            }
            Edit::Word(i, w, s) => {
                let l = &mut lines[i % n];
                let words: Vec<&str> = l.split(' ').collect();
                let k = w % words.len().max(1);
                let mut out: Vec<String> = words.iter().map(|x| (*x).to_string()).collect();
                if let Some(slot) = out.get_mut(k) {
                    *slot = s.to_string();
                }
                *l = out.join(" ");
            }
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn never_panics(seed in 0..SEEDS.len(), edits in proptest::collection::vec(edit(), 1..6)) {
        let text = apply(SEEDS[seed], &edits);
        let len = text.len();
        let mut sources = Sources::new();
        let limits = Limits { max_devices: 200_000, ..Limits::default() };
        let loaded = load::load_text(&mut sources, "mutated.fab", text, &limits);
        let checked = pipeline::check_loaded(&sources, loaded, &limits);
        for d in &checked.diagnostics {
            prop_assert!(d.primary.span.end as usize <= len, "span past the end: {d:?}");
        }
        prop_assert!(checked.fabric.is_some() || checked.errors() > 0, "no fabric and no error");
    }
}
