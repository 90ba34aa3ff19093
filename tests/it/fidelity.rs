//! The fidelity matrix and the edge cases of the CLI/NVUE targets (issue 15).
//!
//! The matrix: every property has an answer for every target, `Property::ALL` lists every
//! variant, every property occurs in a switch context, and `docs/targets.md` holds the
//! generated table. The edge cases: small fabrics from the field reviews, each built through
//! the binary with `--format json`, must give lines the vendors' references accept, or a
//! finding, never a refused line.

use crate::support::{Fabricc, nv_set_lines};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use fabricc::render::SwitchOs;
use fabricc::render::fidelity::{Property, TARGETS, index, matrix_markdown, support};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_property_has_an_answer_for_every_target() {
    for (i, p) in Property::ALL.iter().enumerate() {
        assert_eq!(index(*p), i, "Property::ALL out of order at {p:?}");
        for os in TARGETS {
            let s = support(os, *p).expect("matrix target");
            assert!(!s.how().is_empty(), "{os:?} {p:?}");
        }
    }
    assert!(TARGETS.contains(&SwitchOs::Sonic), "SONiC is in the matrix");
}

#[test]
fn docs_targets_md_holds_the_generated_matrix() {
    let path = root().join("docs/targets.md");
    let doc = fs::read_to_string(&path).expect("docs/targets.md");
    let (begin, end) = ("<!-- BEGIN MATRIX -->\n", "<!-- END MATRIX -->");
    let a = doc.find(begin).expect("begin marker") + begin.len();
    let b = doc.find(end).expect("end marker");
    let want = matrix_markdown();
    if std::env::var_os("FABRICC_BLESS").is_some() {
        fs::write(&path, format!("{}{want}{}", &doc[..a], &doc[b..])).expect("write");
        return;
    }
    assert_eq!(
        &doc[a..b],
        want,
        "docs/targets.md is stale (FABRICC_BLESS=1)"
    );
}

// ---- edge cases through the binary --------------------------------------------------------

fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fidelity-tests")
        .join(format!(
            "{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A two-switch fabric (`L1` leaf, `S1` spine) of one OS with `classes` and `extra` lines.
fn fabric(os: &str, classes: &str, extra: &str, cable: &str) -> String {
    format!(
        "fabric edge {{\n{classes}\n{extra}\n  switch-model m {{ os {os}  ports 8 x 400G  buffer 128MB  lossless-limit 2  cell 254B }}\n  nic-model cx7 {{ driver mlx5  speed 400G }}\n  switch L1 {{ model m  tier 1 }}\n  switch S1 {{ model m  tier 2 }}\n  host h1 {{ nic cx7 }}\n  link h1 -- L1 {{ cable 3m }}\n  link L1 -- S1 {{ cable {cable} }}\n  routing updown\n}}\n"
    )
}

const CLASSES: &str = "  class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 100%  bandwidth 50% }\n  class cnp  { dscp 48  priority 6  strict  cnp }\n  class bulk { dscp other  priority 0  bandwidth 50% }";

struct Built {
    status: i32,
    codes: Vec<String>,
    messages: String,
    out: PathBuf,
}

impl Built {
    fn file(&self, rel: &str) -> String {
        fs::read_to_string(self.out.join(rel)).unwrap_or_default()
    }
}

fn build(name: &str, text: &str, os: &str) -> Built {
    let dir = scratch(name);
    fs::write(dir.join("f.fab"), text).unwrap();
    let out = dir.join("out");
    let o = Fabricc::new()
        .args([
            "build",
            "f.fab",
            "-o",
            "out",
            "--format",
            "json",
            "--allow-warnings",
            "--target",
            os,
        ])
        .current_dir(&dir)
        .run();
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{name}: stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&o.stdout)
        )
    });
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    Built {
        status: o.status.code().unwrap_or(-1),
        codes: findings
            .iter()
            .map(|f| f["code"].as_str().unwrap_or("").to_string())
            .collect(),
        messages: findings
            .iter()
            .map(|f| f["message"].as_str().unwrap_or("").to_string())
            .collect::<Vec<_>>()
            .join("\n"),
        out,
    }
}

#[test]
fn watchdog_forward_and_alert() {
    let fwd = "  pfc-watchdog detect 200ms restore 400ms action forward";
    let alert = "  pfc-watchdog detect 200ms restore 400ms action alert";
    // E1: EOS has no forwarding watchdog action: FAB901, nothing written, never `no-drop`.
    let b = build("eos-forward", &fabric("eos", CLASSES, fwd, "30m"), "eos");
    assert_eq!(b.status, 1);
    assert!(
        b.codes.contains(&"FAB901".into()) && b.messages.contains("forward"),
        "{}",
        b.messages
    );
    assert!(!b.out.exists());
    // E2: `alert` is `notify-only`.
    let b = build("eos-alert", &fabric("eos", CLASSES, alert, "30m"), "eos");
    assert_eq!(b.status, 0, "{}", b.messages);
    assert!(
        b.file("switches/L1/qos.cfg")
            .contains("priority-flow-control pause watchdog action notify-only")
    );
    // J12: Junos forwards.
    let b = build(
        "junos-forward",
        &fabric("junos", CLASSES, fwd, "30m"),
        "junos",
    );
    assert_eq!(b.status, 0, "{}", b.messages);
    assert!(
        b.file("switches/L1/qos.conf")
            .contains("watchdog-action forward;")
    );
    // NX-OS and Cumulus refuse both.
    for os in ["nxos", "cumulus"] {
        for (n, w) in [("f", fwd), ("a", alert)] {
            let b = build(&format!("{os}-{n}"), &fabric(os, CLASSES, w, "30m"), os);
            assert_eq!(b.status, 1, "{os} {w}");
            assert!(b.codes.contains(&"FAB901".into()));
        }
    }
}

#[test]
fn timers_of_205_ms() {
    let w = "  pfc-watchdog detect 205ms restore 405ms poll 100ms";
    // E3: two decimals at most; rounded up and reported.
    let b = build("eos-205", &fabric("eos", CLASSES, w, "30m"), "eos");
    let f = b.file("switches/L1/qos.cfg");
    assert!(
        f.contains("default timeout 0.21\n") && f.contains("recovery-time 0.41\n"),
        "{f}"
    );
    assert!(b.codes.contains(&"FAB906".into()));
    // Cumulus: robustness rounds up, restore is not a timer there (C5).
    let b = build(
        "cumulus-205",
        &fabric("cumulus", CLASSES, w, "30m"),
        "cumulus",
    );
    assert!(
        nv_set_lines(&b.file("switches/L1/nvue-qos.yaml")).contains("pfc-watchdog robustness 3\n")
    );
    assert!(b.codes.contains(&"FAB906".into()) && b.codes.contains(&"FAB904".into()));
    // Junos: detection counts polls.
    let b = build("junos-205", &fabric("junos", CLASSES, w, "30m"), "junos");
    assert!(b.file("switches/L1/qos.conf").contains("detection 3;"));
    // N1: NX-OS timers are a finding that names the platform default.
    let b = build("nxos-205", &fabric("nxos", CLASSES, w, "30m"), "nxos");
    assert!(
        b.codes.contains(&"FAB904".into()) && b.messages.contains("platform"),
        "{}",
        b.messages
    );
}

#[test]
fn ecn_thresholds_in_one_unit_and_never_collapsed() {
    // E4/E5: one unit, bytes; a min that is not a whole KB stays exact.
    let c = CLASSES.replace("ecn min 150KB max 1500KB", "ecn min 150001B max 1500KB");
    let b = build("eos-bytes", &fabric("eos", &c, "", "30m"), "eos");
    assert!(
        b.file("switches/L1/qos.cfg")
            .contains("minimum-threshold 150001 bytes maximum-threshold 1500000 bytes")
    );
    // N5: NX-OS rounds up to whole kbytes and says so.
    let b = build("nxos-bytes", &fabric("nxos", &c, "", "30m"), "nxos");
    assert!(
        b.file("switches/L1/qos.cfg")
            .contains("minimum-threshold 151 kbytes")
    );
    assert!(b.codes.contains(&"FAB907".into()));
    // J3: min = max never gives `[ 1 1 ]`.
    let c = CLASSES.replace("ecn min 150KB max 1500KB", "ecn min 150KB max 500KB");
    let b = build("junos-collapse", &fabric("junos", &c, "", "30m"), "junos");
    let f = b.file("switches/L1/qos.conf");
    assert!(
        f.contains("fill-level [ 1 2 ];") && !f.contains("[ 1 1 ]"),
        "{f}"
    );
    assert!(b.codes.contains(&"FAB906".into()));
    let c = CLASSES.replace(
        "ecn min 150KB max 1500KB probability 100%",
        "ecn min 1MB max 1MB probability 100%",
    );
    let b = build("junos-step", &fabric("junos", &c, "", "30m"), "junos");
    assert!(!b.file("switches/L1/qos.conf").contains("[ 2 2 ]"));
}

#[test]
fn lossless_priorities_0_1_and_7() {
    // E17: CoS 0/1 stated when priority 0 or 1 is lossless.
    let c = "  class roce { dscp 26  priority 1  lossless  bandwidth 50% }\n  class cnp  { dscp 48  priority 6  strict  cnp }\n  class bulk { dscp other  priority 0  bandwidth 50% }";
    let b = build("eos-prio1", &fabric("eos", c, "", "30m"), "eos");
    let f = b.file("switches/L1/qos.cfg");
    assert!(
        f.contains("qos map cos 0 to traffic-class 0\nqos map cos 1 to traffic-class 1\n"),
        "{f}"
    );
    assert!(f.contains("priority-flow-control priority 1 no-drop"));
    // E16: without a platform, priority 7 is a FAB909 warning on EOS (queue 7 on Sand by
    // release is render_targets.rs::eos_queue_7_on_sand_depends_on_the_release).
    let c = CLASSES.replace("priority 6  strict  cnp", "priority 7  strict  cnp");
    let b = build("eos-prio7", &fabric("eos", &c, "", "30m"), "eos");
    assert!(b.codes.contains(&"FAB909".into()), "{}", b.messages);
}

#[test]
fn lossy_class_with_ecn() {
    // Without DCQCN the thresholds are written nowhere: FAB910 says so.
    let c = CLASSES.replace(
        "class bulk { dscp other  priority 0  bandwidth 50% }",
        "class bulk { dscp other  priority 0  ecn min 100KB max 1MB  bandwidth 50% }",
    );
    let b = build("lossy-ecn", &fabric("cumulus", &c, "", "30m"), "cumulus");
    assert!(b.codes.contains(&"FAB910".into()), "{}", b.messages);
    // C6: queue 0 does not keep Cumulus's default marking.
    assert!(
        nv_set_lines(&b.file("switches/L1/nvue-qos.yaml")).contains("traffic-class 0 ecn disable")
    );
    // J11: with DCQCN, a lossy queue's fill levels use the lossy partition's share.
    let c = CLASSES.replace("class bulk { dscp other  priority 0  bandwidth 50% }", "class bulk { dscp other  priority 0  congestion dcqcn  ecn min 1MB max 5MB probability 10%  bandwidth 50% }");
    let b = build("junos-lossy", &fabric("junos", &c, "", "30m"), "junos");
    let f = b.file("switches/L1/qos.conf");
    // 1 MB and 5 MB of the 7.04 MB lossy share (14 % and 71 %), not of the 57 MB lossless one.
    assert!(f.contains("fill-level [ 14 71 ];"), "{f}");
}

#[test]
fn cables_of_300_m() {
    // N2: NX-OS pause buffer beyond 100 m.
    let b = build("nxos-300", &fabric("nxos", CLASSES, "", "300m"), "nxos");
    let f = b.file("switches/L1/qos.cfg");
    assert!(
        f.contains("policy-map type queuing FABRICC_PAUSE_300M\n"),
        "{f}"
    );
    assert!(f.contains("  no class type queuing c-in-q-default\n  class type queuing c-in-q3\n    pause buffer-size"), "{f}");
    assert!(f.contains("service-policy type queuing input FABRICC_PAUSE_300M"));
    // J4: Junos gets the cable length per CN profile.
    let b = build("junos-300", &fabric("junos", CLASSES, "", "300m"), "junos");
    let f = b.file("switches/L1/qos.conf");
    assert!(
        f.contains("cable-length 300;") && f.contains("cable-length 3;"),
        "{f}"
    );
    // C10: Cumulus PFC profile per cable length.
    let b = build(
        "cumulus-300",
        &fabric("cumulus", CLASSES, "", "300m"),
        "cumulus",
    );
    // U6: the shorter cable's profile is named by its group, not by the length it carries.
    let f = nv_set_lines(&b.file("switches/L1/nvue-qos.yaml"));
    assert!(
        f.contains("qos pfc default-global cable-length 300")
            && f.contains("qos pfc fabricc-pfc-cable1 cable-length 3"),
        "{f}"
    );
}

#[test]
fn threshold_and_headroom_overrides() {
    let c = CLASSES.replace(
        "ecn min 150KB max 1500KB probability 100%",
        "ecn min 20KB max 35KB probability 100%  pfc-threshold 40KB",
    );
    let extra = "  switch L1 { headroom roce 300KB }";
    for (os, file, rendered) in [
        ("eos", "qos.cfg", false),
        ("cumulus", "nvue-qos.yaml", false),
        ("junos", "qos.conf", false),
        ("nxos", "qos.cfg", true),
    ] {
        let b = build(
            &format!("{os}-overrides"),
            &fabric(os, &c, extra, "30m"),
            os,
        );
        assert_eq!(b.status, 0, "{os}: {}", b.messages);
        if rendered {
            // NX-OS states a static threshold in the pause buffer on every lossless port.
            assert!(
                b.file(&format!("switches/L1/{file}"))
                    .contains("pause-threshold 40000")
            );
        } else {
            assert!(b.codes.contains(&"FAB904".into()), "{os}: {}", b.messages);
            assert!(
                b.messages.contains("pfc-threshold") && b.messages.contains("headroom"),
                "{os}: {}",
                b.messages
            );
        }
    }
}

#[test]
fn cumulus_release_and_shared_lossless_group() {
    // C9: below 5.6 no watchdog line, FAB908; C4: two lossless priorities share the one
    // lossless PG, both still lossless: FAB907 advice.
    let c = "  class roce { dscp 26  priority 3  lossless  bandwidth 40% }\n  class st { dscp 10  priority 4  lossless  bandwidth 20% }\n  class cnp  { dscp 48  priority 6  strict  cnp }\n  class bulk { dscp other  priority 0  bandwidth 40% }";
    let b = build(
        "cumulus-55",
        &fabric("cumulus 5.5", c, "", "30m"),
        "cumulus",
    );
    let f = b.file("switches/L1/nvue-qos.yaml");
    assert!(
        !f.contains("pfc-watchdog") && f.contains("Cumulus Linux 5.5"),
        "{f}"
    );
    assert!(
        b.codes.contains(&"FAB908".into()) && b.codes.contains(&"FAB907".into()),
        "{}",
        b.messages
    );
}

/// N8: on NX-OS ports over 100 m the written `pause-threshold` (bytes) must not pause before
/// ECN has marked: it is at least the written `ecn max` (kbytes at the larger reading, R6)
/// unless the model's own pause point is lower, which `check` then reports (FAB312). The old
/// rendering wrote two MTUs (18,432 B) under a 150 KB `ecn min`.
#[test]
fn nxos_pause_threshold_is_not_below_the_written_ecn() {
    let number_after = |line: &str, word: &str| -> u64 {
        let mut it = line.split_whitespace();
        it.find(|w| *w == word)
            .and_then(|_| it.next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no number after `{word}` in `{line}`"))
    };
    // (case, buffer, ECN, capped): `capped` = the model's worst-case pause point α·B/(1+α·N)
    // is below `ecn max`, so the threshold is that point (between `ecn min` and `ecn max`).
    for (name, buffer, ecn, capped) in [
        (
            "n8-default",
            "buffer 128MB",
            "ecn min 150KB max 1500KB",
            false,
        ),
        (
            "n8-small-ecn",
            "buffer 128MB",
            "ecn min 20KB max 60KB",
            false,
        ),
        (
            "n8-small-buffer",
            "buffer 4MB",
            "ecn min 150KB max 3000KB",
            true,
        ),
    ] {
        let classes = CLASSES.replace("ecn min 150KB max 1500KB", ecn);
        let text = fabric("nxos", &classes, "", "300m").replace("buffer 128MB", buffer);
        let b = build(name, &text, "nxos");
        let f = b.file("switches/L1/qos.cfg");
        let pause = f
            .lines()
            .find(|l| l.contains("pause buffer-size"))
            .map(|l| number_after(l, "pause-threshold"))
            .unwrap_or_else(|| panic!("{name}: no pause buffer:\n{f}\n{}", b.messages));
        let ecn_line = f
            .lines()
            .find(|l| l.contains("random-detect minimum-threshold"))
            .unwrap_or_else(|| panic!("{name}: no ECN:\n{f}"));
        let kmin = number_after(ecn_line, "minimum-threshold") * 1024;
        let kmax = number_after(ecn_line, "maximum-threshold") * 1024;
        assert!(
            pause > kmin,
            "{name}: pause-threshold {pause} B ≤ ecn min {kmin} B"
        );
        assert_eq!(
            pause < kmax,
            capped,
            "{name}: pause-threshold {pause} B against ecn max {kmax} B"
        );
    }
}

/// C4: two lossless priorities on Cumulus share its one lossless priority group. Each must
/// stay lossless — PFC on both in every PFC profile a port uses, both in the lossless traffic
/// pool, each with its own DSCPs — and the sharing is a FAB907 difference (advice), not a
/// warning that blocks the build of a healthy fabric.
#[test]
fn cumulus_keeps_two_lossless_priorities_lossless() {
    let text = fs::read_to_string(root().join("fixtures/build/inputs/cumulus-lossless2.fab"))
        .expect("fixture");
    let b = build("c4", &text, "cumulus");
    assert!(!b.codes.iter().any(|c| c == "FAB906"), "{:?}", b.codes);
    assert!(b.messages.contains("each stays lossless"), "{}", b.messages);
    let doc: serde_yaml::Value =
        serde_yaml::from_str(&b.file("switches/leaf1/nvue-qos.yaml")).expect("NVUE YAML");
    let set = doc
        .as_sequence()
        .and_then(|s| s.iter().find_map(|d| d.get("set")))
        .expect("a `- set:` document");
    let qos = &set["qos"];
    let priorities = |v: &serde_yaml::Value| -> Vec<String> {
        v["switch-priority"]
            .as_mapping()
            .map(|m| {
                m.keys()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        priorities(&qos["traffic-pool"]["default-lossless"]),
        ["3", "4"]
    );
    let profiles = qos["pfc"].as_mapping().expect("pfc profiles");
    assert!(profiles.len() >= 2, "{profiles:?}");
    for (name, profile) in profiles {
        assert_eq!(priorities(profile), ["3", "4"], "PFC profile {name:?}");
    }
    let dscp = &qos["mapping"]["default-global"]["dscp"];
    assert_eq!(dscp["10"]["switch-priority"].as_u64(), Some(4), "storage");
    assert_eq!(dscp["26"]["switch-priority"].as_u64(), Some(3), "roce");
}
