//! The QoS passes on whole fabrics: the headroom plan reproduces the worked numbers of docs/physics.md §1 through the
//! model (link speed, cable, port MTUs), uses the host netdev MTU and the NIC side on
//! host-facing ports, rounds to the cell, fills `facts.headroom` as the contract says; ECN is
//! skipped for `congestion none` but PFC rules are not; one bad line at scale is one finding.

use std::path::Path;

use fabricc::analysis::headroom::{HeadroomPlan, headroom_plan};
use fabricc::analysis::physics::{PauseThreshold, mlx5_xoff};
use fabricc::diagnostic::Code;
use fabricc::model::mtu::ROCE_HEADER_ALLOWANCE;
use fabricc::model::{Fabric, Limits};
use fabricc::pipeline::{self, Checked};
use fabricc::source::Sources;
use proptest::prelude::*;

fn check_text(text: &str) -> Checked {
    let mut sources = Sources::new();
    let loaded = fabricc::model::load::load_text(
        &mut sources,
        "t.fab",
        text.to_string(),
        &Limits::default(),
    );
    pipeline::check_loaded(&sources, loaded, &Limits::default())
}

fn fabric(text: &str) -> (Fabric, Checked) {
    let checked = check_text(text);
    let f = checked
        .fabric
        .clone()
        .unwrap_or_else(|| panic!("does not resolve: {:?}", checked.diagnostics));
    (f, checked)
}

fn codes(c: &Checked) -> Vec<Code> {
    c.diagnostics.iter().map(|d| d.code).collect()
}

const CLASSES: &str = "
  class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 100%  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
";

/// Two switches per speed, joined by four links of 5, 40, 100 and 300 m; `mtu` on every port.
fn table_fabric(mtu: u64) -> String {
    let mut t = format!("fabric t {{\n  mtu {mtu}\n{CLASSES}");
    for g in [100, 200, 400] {
        t += &format!("  switch-model m{g} {{ os sonic  ports 8 x {g}G  buffer 64MB }}\n");
        t += &format!("  switch A{g}, B{g} {{ model m{g} }}\n");
        for m in [5, 40, 100, 300] {
            t += &format!("  link A{g} -- B{g} {{ cable {m}m }}\n");
        }
    }
    t + "}\n"
}

fn required(plan: &HeadroomPlan, f: &Fabric, switch: &str, cable_mm: u64) -> u64 {
    plan.ports
        .iter()
        .find(|p| f.switch(p.switch).name == switch && p.cable_mm == cable_mm)
        .unwrap_or_else(|| panic!("no entry for {switch} at {cable_mm} mm"))
        .required
}

#[test]
fn plan_reproduces_the_worked_numbers_of_theory_3_2() {
    // (speed, cable m, H @ 9216, H @ 4200), every row of the canonical table.
    let rows: [(u64, u64, u64, u64); 12] = [
        (100, 5, 44_397, 34_365),
        (100, 40, 48_772, 38_740),
        (100, 100, 56_272, 46_240),
        (100, 300, 81_272, 71_240),
        (200, 5, 48_798, 38_766),
        (200, 40, 57_548, 47_516),
        (200, 100, 72_548, 62_516),
        (200, 300, 122_548, 112_516),
        (400, 5, 78_976, 68_944),
        (400, 40, 96_476, 86_444),
        (400, 100, 126_476, 116_444),
        (400, 300, 226_476, 216_444),
    ];
    let (big, _) = fabric(&table_fabric(9216));
    let (small, _) = fabric(&table_fabric(4200));
    let (pb, ps) = (headroom_plan(&big), headroom_plan(&small));
    for (g, m, h9216, h4200) in rows {
        for sw in [format!("A{g}"), format!("B{g}")] {
            assert_eq!(
                required(&pb, &big, &sw, m * 1000),
                h9216,
                "{sw} {m} m @ 9216"
            );
            assert_eq!(
                required(&ps, &small, &sw, m * 1000),
                h4200,
                "{sw} {m} m @ 4200"
            );
        }
    }
    // every switch port with a link, once per lossless priority (one here)
    assert_eq!(pb.ports.len(), 24);
    assert!(
        pb.ports
            .windows(2)
            .all(|w| (w[0].switch, w[0].port, w[0].priority)
                < (w[1].switch, w[1].port, w[1].priority))
    );
}

const HOSTED: &str = "
  switch-model s { os cumulus  ports 64 x 400G  buffer 64MB  cell 254B }
  switch-model e { os eos  ports 64 x 400G  buffer 64MB }
  nic-model cx7 { driver mlx5  speed 400G }
  switch L1 { model s  tier 1 }
  switch S1 { model e  tier 2 }
  host h1 { nic cx7 }
  link h1 -- L1 { cable 2.5m }
  link L1 -- S1 { cable 30m }
";

#[test]
fn host_ports_use_the_netdev_mtu_and_carry_the_nic_side() {
    let (f, checked) = fabric(&format!("fabric t {{{CLASSES}{HOSTED}}}"));
    assert_eq!(checked.errors(), 0, "{:?}", checked.diagnostics);
    assert_eq!(f.host_netdev_mtu(), 4096 + ROCE_HEADER_ALLOWANCE);
    assert_eq!(
        f.host_netdev_mtu(),
        4200,
        "NVIDIA: netdev MTU 4200 for RoCE MTU 4096"
    );
    let plan = headroom_plan(&f);
    let host_port = plan
        .ports
        .iter()
        .find(|p| p.nic.is_some())
        .expect("a host-facing entry");
    assert_eq!((host_port.mtu_receiver, host_port.mtu_sender), (9216, 4200));
    // 9236 + 84 + ⌈2500·400000/800000⌉ + 905·64 + 4220 = 72,710, in 254-byte cells = 72,898
    assert_eq!(host_port.formula.total, 72_710);
    assert_eq!(host_port.required, 72_898);
    assert_eq!(host_port.required % 254, 0);
    let nic = host_port.nic.expect("nic side");
    let mlx5 = nic.mlx5.expect("an mlx5 NIC");
    assert_eq!(
        mlx5.cable_len.metres, 3,
        "`mlnx_qos --cable_len` rounds 2.5 m up"
    );
    assert!(mlx5.cable_len.accepted);
    assert_eq!(mlx5.xoff, mlx5_xoff(400_000, 3, 4200));
    assert!(matches!(host_port.pause, PauseThreshold::Dynamic(_)));
}

#[test]
fn facts_rows_follow_the_contract() {
    let text = format!(
        "fabric t {{{CLASSES}{HOSTED}  switch S1 {{ pfc-threshold roce 40KB  headroom roce 100KB }}\n}}"
    );
    let checked = check_text(&text);
    let facts = checked.facts.as_ref().expect("facts");
    let json = serde_json::to_value(&facts.headroom).expect("serialises");
    let rows = json.as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    let host = rows.iter().find(|r| r["peer"] == "h1").expect("host row");
    assert_eq!(host["cable_m"], serde_json::json!(2.5));
    assert!(
        host["pause_threshold_bytes"].is_null(),
        "dynamic threshold → null"
    );
    let spine = rows
        .iter()
        .find(|r| r["switch"] == "S1")
        .expect("spine row");
    assert_eq!(
        spine,
        &serde_json::json!({"switch": "S1", "peer": "L1", "priority": 3, "speed_gbps": 400, "cable_m": 30,
            "mtu": 9216, "required_bytes": 91476, "configured_bytes": 100000, "pause_threshold_bytes": 40000})
    );
}

#[test]
fn congestion_none_skips_ecn_but_not_pfc() {
    let classes = CLASSES.replace(
        "lossless  ecn min 150KB max 1500KB probability 100%",
        "lossless  congestion none  ecn min 2MB max 1MB",
    );
    let c = check_text(&format!(
        "fabric t {{{classes}{HOSTED}  host h1 {{ pfc off }}\n  switch L1 {{ headroom roce 10KB }}\n}}"
    ));
    let found = codes(&c);
    assert!(
        found.iter().all(|c| !c.as_str().starts_with("FAB3")),
        "{found:?}"
    );
    assert!(found.contains(&Code::PfcMismatch), "{found:?}");
    assert!(found.contains(&Code::HeadroomTooSmall), "{found:?}");
    // The same thresholds under DCQCN are an ECN-1 error.
    let classes = CLASSES.replace("ecn min 150KB max 1500KB", "ecn min 2MB max 1MB");
    let c = check_text(&format!("fabric t {{{classes}{HOSTED}}}"));
    assert!(codes(&c).contains(&Code::EcnInverted));
}

#[test]
fn one_bad_line_is_one_finding_at_scale() {
    let text = format!(
        "fabric t {{\n  mtu 4096\n  pfc-watchdog off\n{}
  switch-model s {{ os sonic  ports 64 x 400G  buffer 64MB }}
  nic-model cx7 {{ driver mlx5  speed 400G }}
  host gpu[001..256] {{ nic cx7 x 8 }}
  tier leaf  {{ model s  oversubscription 1:1  cable 3m  name leaf{{rail}}-{{group}} }}
  tier spine {{ model s  cable 30m  name spine{{n}} }}
  switch leaf[1..8]-[1..8] {{ headroom roce 20KB }}
}}",
        CLASSES.replace("ecn min 150KB max 1500KB", "ecn min 2MB max 1MB")
    );
    let (f, c) = fabric(&text);
    assert!(f.switches.len() > 40, "{} switches", f.switches.len());
    for code in [
        Code::MtuTooSmall,
        Code::WatchdogOff,
        Code::EcnInverted,
        Code::HeadroomTooSmall,
    ] {
        let n = c.diagnostics.iter().filter(|d| d.code == code).count();
        assert_eq!(n, 1, "{code}: {n} findings");
    }
    let mtu = c
        .diagnostics
        .iter()
        .find(|d| d.code == Code::MtuTooSmall)
        .expect("FAB508");
    assert!(
        mtu.notes
            .iter()
            .any(|n| n.starts_with(&format!("{} switches", f.switches.len()))),
        "{:?}",
        mtu.notes
    );
}

#[test]
fn good_fabrics_including_100k_gpus_have_no_qos_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fabrics");
    for name in [
        "pod-256.fab",
        "cluster-2048.fab",
        "explicit-leaf-spine.fab",
        "split/pod.fab",
        "cluster-100k.fab",
    ] {
        let mut sources = Sources::new();
        let checked =
            pipeline::check(&mut sources, &root.join(name), &Limits::default()).expect("readable");
        let errors: Vec<_> = checked
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| &d.message)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let facts = checked.facts.expect("facts");
        assert!(!facts.headroom.is_empty(), "{name}: no headroom rows");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Through the whole pipeline: a longer cable, a faster link or a bigger MTU never needs
    /// less headroom (cell rounding included).
    #[test]
    fn plan_headroom_is_monotone(a in 1u64..2_000, b in 1u64..2_000, mtu_a in 1500u64..9216, mtu_b in 1500u64..9216, fast in any::<bool>()) {
        let req = |cable_dm: u64, mtu: u64, gbps: u64| {
            let text = format!(
                "fabric t {{\n  mtu {mtu}\n{CLASSES}  switch-model s {{ os sonic  ports 4 x {gbps}G  cell 144B }}\n  switch A, B {{ model s }}\n  link A -- B {{ cable {}.{}m }}\n}}",
                cable_dm / 10, cable_dm % 10
            );
            let (f, _) = fabric(&text);
            headroom_plan(&f).ports[0].required
        };
        let (lo, hi) = (a.min(b), a.max(b));
        prop_assert!(req(lo, 9216, 400) <= req(hi, 9216, 400));
        let (m1, m2) = (mtu_a.min(mtu_b), mtu_a.max(mtu_b));
        prop_assert!(req(lo, m1, 400) <= req(lo, m2, 400));
        let (slow, quick) = if fast { (200, 400) } else { (100, 200) };
        prop_assert!(req(hi, 9216, slow) <= req(hi, 9216, quick));
    }
}

#[test]
fn ecn_plan_gives_each_switch_queue_its_thresholds_and_bounds() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fabrics/explicit-leaf-spine.fab");
    let mut sources = Sources::new();
    let checked = pipeline::check(&mut sources, &root, &Limits::default()).expect("readable");
    let f = checked.fabric.expect("resolves");
    let plan = headroom_plan(&f);
    let queues = fabricc::analysis::ecn::ecn_plan(&f, &plan);
    // one DCQCN class (`roce`) on each of four switches; the CNP class carries no data
    assert_eq!(queues.len(), 4);
    let by_name = |n: &str| {
        queues
            .iter()
            .find(|q| f.switch(q.switch).name == n)
            .expect("queue")
    };
    assert_eq!(
        (
            by_name("L1").kmin,
            by_name("L1").kmax,
            by_name("L1").probability
        ),
        (150_000, 1_500_000, 10_000)
    );
    assert_eq!(
        (by_name("L2").kmin, by_name("L2").kmax),
        (200_000, 1_600_000),
        "L2's override"
    );
    for q in &queues {
        assert_eq!(q.priority, 3);
        // rtt 8us at 400G: ⌈400,000 · 8,000 / 56,000⌉
        assert_eq!(q.min_kmin, 57_143);
        let pause = q.pause_point.expect("the models give a buffer");
        assert!(q.kmin < pause, "{q:?}");
    }
}

#[test]
fn every_qos_code_page_example_produces_its_code() {
    for &code in Code::ALL {
        let n: u32 = code.as_str()[3..].parse().expect("digits");
        // `fabricc plan`'s codes come from two builds and `import`'s (FAB814, FAB815) from a
        // device's state, not from one fabric's check.
        if !matches!(n, 300..=499 | 505..=599 | 800..=899)
            || matches!(
                code.category(),
                fabricc::diagnostic::Category::Rollout | fabricc::diagnostic::Category::Import
            )
        {
            continue;
        }
        let page = code.explanation();
        let start = page.find("```fab\n").expect("an example") + "```fab\n".len();
        let end = start + page[start..].find("```").expect("closed");
        // As tests/it/doc_examples.rs reads it: a `sku` path of the example is relative to
        // the page (docs/codes/).
        let mut sources = Sources::new();
        let at = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("docs/codes/{code}.fab"));
        let loaded = fabricc::model::load::load_text(
            &mut sources,
            &at.to_string_lossy(),
            page[start..end].to_string(),
            &Limits::default(),
        );
        let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
        assert!(
            codes(&checked).contains(&code),
            "{code}: the example gives {:?}",
            codes(&checked)
        );
    }
}

/// Issue 21 ("one computation per number"): the headroom FAB451 judges, the one the ECN
/// checks take out of the shared buffer and the one lowering takes out of the pools are one
/// figure, `headroom_by_buffer`: XOFF headroom + XON offset of every lossless queue on a port
/// that sends PAUSE. A host without PFC reserves nothing on its switch port.
#[test]
fn the_buffer_budget_checked_is_the_budget_configured() {
    let text = format!(
        "fabric t {{\n{CLASSES}
  switch-model e {{ os eos  ports 32 x 400G  buffer 64MB }}
  nic-model cx7 {{ driver mlx5  speed 400G }}
  switch L1 {{ model e  tier 1 }}
  host h1, h2, h3 {{ nic cx7 }}
  link h[1..3] -- L1 {{ cable 3m }}
  host h3 {{ pfc off }}
  routing none
}}\n"
    );
    let (f, _) = fabric(&text);
    let plan = headroom_plan(&f);
    let l1 = f.switch_ids().next().expect("one switch");
    let entries = plan.switch(l1);
    // Every linked port has a plan entry (h3's too); only h1's and h2's reserve.
    assert_eq!(entries.len(), 3);
    let pausing: u64 = entries
        .iter()
        .filter(|e| match e.peer.device {
            fabricc::model::DeviceId::Host(h) => f.host_pfc(h),
            fabricc::model::DeviceId::Switch(_) => true,
        })
        .map(|e| e.configured + e.xon)
        .sum();
    let by_buffer = fabricc::analysis::buffer::headroom_by_buffer(&f, l1, entries);
    assert_eq!(by_buffer.len(), 1);
    assert_eq!(by_buffer.get(&None), Some(&pausing));
    assert!(
        entries.iter().all(|e| e.xon > 0),
        "the XON offset is counted"
    );
    let lowered = fabricc::lower::lower_with_plan(&f, fabricc::lower::Targets::ALL, &plan);
    let sw = lowered
        .switches
        .iter()
        .find(|s| s.device == "L1")
        .expect("L1 lowered");
    let total = 64_000_000u64;
    // EOS: 10 % lossy reserve, the reserved headroom, the rest the lossless pool.
    assert_eq!(
        sw.buffer.ingress_lossless_pool_bytes,
        total - total / 10 - pausing
    );
}
