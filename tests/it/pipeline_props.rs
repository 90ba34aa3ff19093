//! The whole front end never panics and always terminates: random line-level edits of the
//! example fabrics (drop, duplicate, swap lines; change numbers and names) go through
//! parse → resolve → analyse, and each gives either a fabric or findings with spans inside
//! the input. And `check` fails whenever `build` would: random small fabrics that check
//! without errors build every target.

use proptest::prelude::*;

use fabricc::lower::Targets;
use fabricc::model::{Limits, load};
use fabricc::output::generate::{BuildInput, generate};
use fabricc::pipeline;
use fabricc::render::Templates;
use fabricc::source::Sources;

const SEEDS: &[&str] = &[
    include_str!("../../fixtures/fabrics/pod-256.fab"),
    include_str!("../../fixtures/fabrics/explicit-leaf-spine.fab"),
    include_str!("../../fixtures/check/FAB604_oversubscribed_leaf.fab"),
    include_str!("../../fixtures/check/FAB606_ratio_impossible.fab"),
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

/// A random small fabric over the features the targets treat differently: the OS of each
/// switch model, watchdog timers and action, class priorities, loss, ECN and shares (in
/// thousandths of a percent, so sums like 50.5 % + 49.5 % occur), static pause thresholds,
/// headroom overrides, cable lengths and hosts with PFC off.
pub(crate) fn random_fabric() -> impl Strategy<Value = String> {
    let os = proptest::sample::select(vec!["sonic", "cumulus", "eos", "nxos", "junos"]);
    (
        (os.clone(), os),
        (0u8..8, 0u8..8, 1u64..99_999),
        (
            proptest::option::of((1u64..400, 1u64..400, 1u64..=100)),
            proptest::option::of(1u64..200),
        ),
        (
            proptest::sample::select(vec!["drop", "forward", "alert"]),
            proptest::sample::select(vec![100u64, 200, 205, 400, 1000]),
            proptest::sample::select(vec![100u64, 200, 405, 1000]),
            any::<bool>(),
        ),
        (
            proptest::sample::select(vec![1u64, 3, 30, 100, 300]),
            any::<bool>(),
            proptest::option::of(30u64..400),
        ),
    )
        .prop_map(
            |(
                (os_leaf, os_spine),
                (p_roce, p_bulk, share),
                (ecn, pfc_threshold),
                (action, detect, restore, watchdog_on),
                (cable, host_pfc_off, headroom),
            )| {
                let roce_priority = p_roce;
                let bulk_priority = if p_bulk == roce_priority {
                    (p_bulk + 1) % 8
                } else {
                    p_bulk
                };
                let cnp_priority = [6u8, 7, 5, 2]
                    .into_iter()
                    .find(|p| *p != roce_priority && *p != bulk_priority)
                    .unwrap_or(6);
                let ecn = match ecn {
                    Some((min, extra, prob)) => {
                        format!("ecn min {min}KB max {}KB probability {prob}%", min + extra)
                    }
                    None => String::new(),
                };
                let pfc = pfc_threshold.map_or(String::new(), |t| format!("pfc-threshold {t}KB"));
                let watchdog = if watchdog_on {
                    format!("pfc-watchdog detect {detect}ms restore {restore}ms action {action}")
                } else {
                    "pfc-watchdog off".to_string()
                };
                let headroom = headroom.map_or(String::new(), |h| {
                    format!("switch L1 {{ headroom roce {h}KB }}")
                });
                let host_pfc = if host_pfc_off {
                    "host h2 { pfc off }"
                } else {
                    ""
                };
                format!(
                    "fabric random {{
  class roce {{ dscp 26  priority {roce_priority}  lossless  {ecn}  {pfc}  bandwidth {}.{:03}% }}
  class cnp  {{ dscp 48  priority {cnp_priority}  strict  cnp }}
  class bulk {{ dscp other  priority {bulk_priority}  bandwidth {}.{:03}% }}
  {watchdog}
  switch-model leaf {{ os {os_leaf}  ports 8 x 400G  buffer 64MB  cell 256B  lossless-limit 2 }}
  switch-model spine {{ os {os_spine}  ports 8 x 400G  buffer 64MB  cell 256B  lossless-limit 2 }}
  nic-model cx7 {{ driver mlx5  speed 400G }}
  switch L1, L2 {{ model leaf  tier 1 }}
  switch S1 {{ model spine  tier 2 }}
  host h1, h2 {{ nic cx7 }}
  link h1 -- L1 {{ cable 3m }}
  link h2 -- L2 {{ cable 3m }}
  link L[1..2] -- S1 {{ cable {cable}m }}
  {headroom}
  {host_pfc}
  routing updown
}}
",
                    share / 1000,
                    share % 1000,
                    (100_000 - share) / 1000,
                    (100_000 - share) % 1000,
                )
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Issue 21: `check` fails whenever `build` would. A fabric that `check` passes without
    /// errors builds every target without a finding (FAB9xx) or a template failure.
    #[test]
    fn check_clean_implies_build_succeeds(text in random_fabric()) {
        let mut sources = Sources::new();
        let limits = Limits::default();
        let loaded = load::load_text(&mut sources, "random.fab", text.clone(), &limits);
        let checked = pipeline::check_loaded(&sources, loaded, &limits);
        if checked.errors() == 0 {
            let input = BuildInput::of(&checked);
            prop_assert!(input.is_some(), "a clean check has lowered devices:\n{text}");
            if let Some(input) = input {
                let built = generate(input, Targets::ALL, templates());
                prop_assert!(
                    built.is_ok(),
                    "check passed but build failed: {:?}\n{text}",
                    built.err().map(|d| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>())
                );
            }
        }
    }
}

fn templates() -> &'static Templates {
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    T.get_or_init(|| Templates::embedded().expect("embedded templates"))
}
