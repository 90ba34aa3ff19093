//! Issue 34 item 2: every build reads back its own switch files with the import readers and
//! compares the device model they give with the model the checks proved
//! (`fabricc::import::readback`). On the build goldens of all seven targets the read-back equals
//! the proven model, up to the rounding of the device's unit (cells, kbytes, fill levels); a
//! file that says something else is a difference, grouped per device and property.

use std::path::Path;

use crate::import::{build, root};
use fabricc::import::readback::{self, Kind, Readback};
use fabricc::render::Artifact;

fn read_back(fixture: &Path) -> (Readback, Vec<Artifact>, fabricc::pipeline::Checked) {
    let (checked, files) = build(fixture);
    let r = readback::readback_all(checked.lowered.as_ref().unwrap(), &files);
    (r, files, checked)
}

fn beyond_rounding(r: &Readback) -> Vec<String> {
    r.differences
        .iter()
        .filter(|d| d.kind == Kind::Mistake)
        .map(|d| format!("{d:?}"))
        .collect()
}

#[test]
fn goldens_of_all_seven_targets_read_back_as_proven() {
    for f in [
        "sonic-sn5600-2x2.fab",
        "cumulus-2x2.fab",
        "cumulus-lossless2.fab",
        "eos-7060x6.fab",
        "eos-7280r4.fab",
        "nxos-2x2.fab",
        "nxos-300m.fab",
        "junos-2x2.fab",
        "junos-qfx5230.fab",
        "amd-mi300x-jvd-junos.fab",
        "amd-mi300x-jvd-sonic.fab",
        // Issue 35: VRP on both CloudEngine families, Comware.
        "vrp-ce8851.fab",
        "vrp-ce6885.fab",
        "comware-s9855.fab",
    ] {
        let (r, _, checked) = read_back(&root().join("fixtures/build/inputs").join(f));
        assert!(r.files > 0, "{f}");
        assert_eq!(beyond_rounding(&r), Vec::<String>::new(), "{f}");
        // Every switch and host equals its proven model up to rounding.
        let switches = std::fs::read_dir(
            root()
                .join("fixtures/build")
                .join(f.trim_end_matches(".fab"))
                .join("switches"),
        )
        .map_or(0, |d| d.count());
        let hosts = checked.lowered.as_ref().map_or(0, |l| l.hosts.len());
        if switches > 0 {
            assert_eq!(r.equal, switches + hosts, "{f}");
        }
    }
}

/// Each switch file of `device` edited by `f`, then read back.
fn tampered(fixture: &str, device: &str, f: impl Fn(&str) -> String) -> Readback {
    let (checked, mut files) = build(&root().join("fixtures/build/inputs").join(fixture));
    let mut changed = false;
    for a in files.iter_mut().filter(|a| a.device == device) {
        let t = f(&a.contents);
        changed |= t != a.contents;
        a.contents = t;
    }
    assert!(changed, "{fixture}: the edit changed nothing");
    let switches = &checked.lowered.as_ref().unwrap().switches;
    readback::readback(switches, &files)
}

#[test]
fn a_file_that_says_something_else_is_a_difference_grouped_per_device() {
    // Junos: ECN max at 40 % of the queue, far beyond one fill level of the proven 1.5 MB.
    let r = tampered("junos-2x2.fab", "leaf1", |t| {
        t.replace("fill-level [ 1 2 ];", "fill-level [ 1 40 ];")
    });
    let d: Vec<_> = r
        .differences
        .iter()
        .filter(|d| d.kind == Kind::Mistake)
        .collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (
            d[0].device.as_str(),
            d[0].property,
            d[0].what.as_str(),
            d[0].count
        ),
        ("leaf1", "ecn", "queue 3 max", 8)
    );
    assert_eq!(
        (d[0].proven.as_str(), d[0].written.as_str()),
        ("1500000 B", "29405600 B")
    );
    assert_eq!(r.equal, 3);
    // NX-OS: PFC off on one port: one difference with a count of 1.
    let r = tampered("nxos-2x2.fab", "leaf2", |t| {
        crate::import::replace_after(
            t,
            "interface Ethernet1/3\n",
            "priority-flow-control mode on",
            "priority-flow-control mode off",
        )
    });
    let d: Vec<_> = r
        .differences
        .iter()
        .filter(|d| d.kind == Kind::Mistake)
        .collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (
            d[0].property,
            d[0].proven.as_str(),
            d[0].written.as_str(),
            d[0].count
        ),
        ("pfc", "3", "none", 1)
    );
    assert_eq!(d[0].ports, vec!["Ethernet1/3".to_string()]);
    // EOS: DSCP 26 to another traffic class on every port of the switch.
    let r = tampered("eos-7060x6.fab", "leaf1", |t| {
        t.replace(
            "qos map dscp 26 to traffic-class 3",
            "qos map dscp 26 to traffic-class 0",
        )
    });
    let d: Vec<_> = r
        .differences
        .iter()
        .filter(|d| d.kind == Kind::Mistake)
        .collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].property, d[0].what.as_str()), ("dscp", "DSCP 26"));
    assert!(d[0].count > 1, "{d:?}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..proptest::prelude::ProptestConfig::default() })]

    /// Issue 34 "Done means": random fabrics (pipeline_props' generator: each switch model on
    /// any of the five targets, random priorities, ECN, shares, pause thresholds, headroom,
    /// cables, watchdogs) → build → read back: the read-back model equals the proven one on
    /// every compared property, up to the rounding of the device's unit.
    #[test]
    fn random_fabrics_read_back_as_proven(text in crate::pipeline_props::random_fabric()) {
        let mut sources = fabricc::source::Sources::new();
        let limits = fabricc::model::Limits::default();
        let loaded = fabricc::model::load::load_text(&mut sources, "random.fab", text.clone(), &limits);
        let checked = fabricc::pipeline::check_loaded(&sources, loaded, &limits);
        if checked.errors() == 0
            && let Some(input) = fabricc::output::generate::BuildInput::of(&checked)
        {
            let templates = fabricc::render::Templates::embedded().unwrap();
            if let Ok(files) = fabricc::output::generate::generate(input, fabricc::lower::Targets::ALL, &templates) {
                let r = readback::readback_all(checked.lowered.as_ref().unwrap(), &files);
                proptest::prop_assert!(r.files > 0);
                let bad = beyond_rounding(&r);
                proptest::prop_assert!(bad.is_empty(), "{bad:#?}\n{text}");
            }
        }
    }
}

/// A fabric's build with its switch files read back, after `edit` changed them.
fn built_text(text: &str, edit: impl Fn(&mut Artifact)) -> Readback {
    let dir = crate::import::scratch("readback-text");
    let p = dir.join("f.fab");
    std::fs::write(&p, text).unwrap();
    let (checked, mut files) = build(&p);
    files.iter_mut().for_each(edit);
    readback::readback(&checked.lowered.as_ref().unwrap().switches, &files)
}

/// N8 (fixed in 379b798): the NX-OS file the code before the fix wrote for nxos-300m's leaf1
/// (`tests/data/readback/nxos-300m-leaf1-before-379b798.cfg`, `git show
/// 379b798^:fixtures/build/nxos-300m/switches/leaf1/qos.cfg`), read back against today's
/// proven model: its pause threshold of 18,432 B is below the written ECN max on every uplink,
/// and its pause buffer's headroom is not the proven one. Today's file has neither.
#[test]
fn the_output_before_the_n8_fix_is_a_difference() {
    let old = std::fs::read_to_string(
        root().join("tests/data/readback/nxos-300m-leaf1-before-379b798.cfg"),
    )
    .unwrap();
    let (checked, mut files) = build(&root().join("fixtures/build/inputs/nxos-300m.fab"));
    let switches = &checked.lowered.as_ref().unwrap().switches;
    let now = readback::readback(switches, &files);
    assert_eq!(beyond_rounding(&now), Vec::<String>::new());
    for a in files
        .iter_mut()
        .filter(|a| a.device == "leaf1" && a.path.ends_with("qos.cfg"))
    {
        a.contents = old.clone();
    }
    let r = readback::readback(switches, &files);
    let d: Vec<_> = r
        .differences
        .iter()
        .filter(|d| d.kind == Kind::Mistake)
        .collect();
    let pause = d
        .iter()
        .find(|d| d.property == "ecn-above-pause")
        .unwrap_or_else(|| panic!("{d:#?}"));
    assert_eq!(
        (pause.device.as_str(), pause.written.as_str()),
        ("leaf1", "pause threshold 18432 B")
    );
    assert!(d.iter().all(|d| d.device == "leaf1"), "{d:#?}");
}

/// R1 (fixed in fb99417): before the fix, a SONiC port with two lossless priorities wrote the
/// first class's xoff for both (the review's repro: 97,280 B for priorities 3-4 under a 400 KB
/// `headroom store` override) while the model and the report said 400 KB. The code before
/// fb99417 predates import's EOS/NX-OS/Junos readers this module needs, so the test writes
/// that value into today's file instead: the read-back names the port's priority and both
/// numbers.
#[test]
fn a_headroom_override_the_file_does_not_carry_is_a_difference() {
    let text = "fabric t {
  buffer-model traditional
  class roce  { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 100%  bandwidth 40% }
  class store { dscp 10  priority 4  lossless  ecn min 100KB max 1000KB probability 50%  bandwidth 20% }
  class cnp   { dscp 48  priority 6  strict  cnp }
  class bulk  { dscp other  priority 0  bandwidth 40% }
  switch-model m { platform nvidia-sn5400  os sonic  lossless-limit 2 }
  nic-model nic { driver mlx5  speed 400G }
  switch L1 { model m  tier 1  headroom store 400KB }
  switch S1 { model m  tier 2 }
  host h1 { nic nic }
  link h1 -- L1 { cable 3m }
  link L1 -- S1 { cable 30m }
  routing updown
}
";
    let now = built_text(text, |_| {});
    assert_eq!(beyond_rounding(&now), Vec::<String>::new(), "{now:#?}");
    let r = built_text(text, |a| {
        if a.device == "L1" && a.path.ends_with(".json") {
            a.contents = a
                .contents
                .replace("\"xoff\": \"400000\"", "\"xoff\": \"97280\"");
        }
    });
    let d: Vec<_> = r
        .differences
        .iter()
        .filter(|d| d.kind == Kind::Mistake && d.property == "headroom")
        .collect();
    assert!(!d.is_empty(), "{r:#?}");
    assert!(
        d.iter()
            .any(|d| d.proven == "400000 B" && d.written == "97280 B"),
        "{d:#?}"
    );
}

/// The switch-model words of `random_fabric` (`os X  ports 8 x 400G`) for a VRP or Comware
/// target: without a platform (the commands both CloudEngine families share; Comware's
/// default cell) or on a catalogue platform of each family.
const HW_MODELS: [&str; 5] = [
    "os vrp  ports 8 x 400G",
    "platform huawei-ce8851-32cq8dq-p  ports 32 x 100G, 8 x 400G",
    "platform huawei-ce6885-48ys8cq  ports 8 x 100G, 48 x 25G",
    "os comware  ports 8 x 400G",
    "platform h3c-s9855-48cd8d",
];

/// `random_fabric`'s text with both switch models on `model` (and 100G NICs where the
/// model's fastest port is 100G).
fn on_model(text: &str, model: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = &if model.contains("ce6885") {
            line.replace("driver mlx5  speed 400G", "driver mlx5  speed 100G")
        } else {
            line.to_string()
        };
        if let Some(rest) = line.trim_start().strip_prefix("switch-model ")
            && let Some(i) = line.find("  buffer ")
            && let Some(name) = rest.split(' ').next()
        {
            out.push_str(&format!("  switch-model {name} {{ {model}{}\n", &line[i..]));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 400, ..proptest::prelude::ProptestConfig::default() })]

    /// Issue 35: the same property on the VRP and Comware targets (issue 34's generator with
    /// the switch models moved to them): what builds reads back as proven, up to the device's
    /// unit (VRP's headroom kbyte, Comware's cell). About a quarter of the cases build (the
/// others are refused by `check`: ECN at the pause point, `alert` on these targets, a VRP
/// priority the family does not take).
    #[test]
    fn random_vrp_and_comware_fabrics_read_back_as_proven(
        text in crate::pipeline_props::random_fabric(),
        model in proptest::sample::select(HW_MODELS.to_vec()),
    ) {
        let text = on_model(&text, model);
        let mut sources = fabricc::source::Sources::new();
        let limits = fabricc::model::Limits::default();
        let loaded = fabricc::model::load::load_text(&mut sources, "random.fab", text.clone(), &limits);
        let checked = fabricc::pipeline::check_loaded(&sources, loaded, &limits);
        if checked.errors() == 0
            && let Some(input) = fabricc::output::generate::BuildInput::of(&checked)
        {
            let templates = fabricc::render::Templates::embedded().unwrap();
            if let Ok(files) = fabricc::output::generate::generate(input, fabricc::lower::Targets::ALL, &templates) {
                let r = readback::readback_all(checked.lowered.as_ref().unwrap(), &files);
                proptest::prop_assert_eq!(r.unread, 0);
                proptest::prop_assert!(r.files > 0);
                let bad = beyond_rounding(&r);
                proptest::prop_assert!(bad.is_empty(), "{bad:#?}\n{text}");
            }
        }
    }
}

/// Issue 35: a VRP or Comware file that says something else than the proven model is a
/// difference, named with both values (DSCP moved, a lossless priority removed on one port,
/// an ECN threshold changed).
#[test]
fn vrp_and_comware_files_that_say_something_else_are_differences() {
    let mistakes = |r: &Readback| -> Vec<(String, &'static str, String, String, String, usize)> {
        r.differences
            .iter()
            .filter(|d| d.kind == Kind::Mistake)
            .map(|d| {
                (
                    d.device.clone(),
                    d.property,
                    d.what.clone(),
                    d.proven.clone(),
                    d.written.clone(),
                    d.count,
                )
            })
            .collect()
    };
    let r = tampered("vrp-ce8851.fab", "leaf1", |t| {
        t.replace(
            "ip-dscp-inbound 26 phb af3 green",
            "ip-dscp-inbound 26 phb be green",
        )
    });
    assert_eq!(
        mistakes(&r),
        vec![(
            "leaf1".into(),
            "dscp",
            "DSCP 26".into(),
            "class `roce` (3)".into(),
            "0".into(),
            4
        )]
    );
    let r = tampered("vrp-ce8851.fab", "leaf2", |t| {
        t.replace(
            "drop-profile FABRICC_Q3\n ecn buffer-size low-limit 150000 high-limit 1500000",
            "drop-profile FABRICC_Q3\n ecn buffer-size low-limit 150000 high-limit 3000000",
        )
    });
    assert_eq!(
        mistakes(&r),
        vec![(
            "leaf2".into(),
            "ecn",
            "queue 3 max".into(),
            "1500000 B".into(),
            "3000000 B".into(),
            4
        )]
    );
    let r = tampered("comware-s9855.fab", "leaf2", |t| {
        crate::import::replace_after(
            t,
            "interface HundredGigE1/0/2\n",
            "priority-flow-control no-drop dot1p 3 4",
            "priority-flow-control no-drop dot1p 4",
        )
    });
    assert_eq!(
        mistakes(&r),
        vec![(
            "leaf2".into(),
            "pfc",
            String::new(),
            "3,4".into(),
            "4".into(),
            1
        )]
    );
    assert_eq!(r.equal, 3);
}
