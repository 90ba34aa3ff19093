//! What the SONiC target decides from the catalogue (issue 14 item 2): table-driven tests that
//! pin each number to the formula or file it comes from, and property tests over speeds, cable
//! lengths and buffer models that hold on every Spectrum port: the headroom is never below
//! SONiC's own Mellanox formula nor below the canonical headroom, and the egress lossless pool
//! covers the ingress pool plus every PG's headroom (S5).
//!
//! In: small fabrics on catalogue platforms, checked and lowered through the public pipeline.
//! Out: the `SonicPlan` and port contexts `render::sonic` prints.

use fabricc::analysis::headroom::headroom_plan;
use fabricc::analysis::physics::sonic_headroom::{SonicHeadroomInput, sonic_mellanox_headroom};
use fabricc::catalogue::switch_platform;
use fabricc::diagnostic::Code;
use fabricc::model::Limits;
use fabricc::pipeline::{self, Checked};
use fabricc::render::{
    HeadroomFormula, Scheduling, SonicAsic, SonicBufferModel, SonicPlan, SwitchContext,
};
use fabricc::source::Sources;
use proptest::prelude::*;

const CLASSES: &str = "
  class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 100%  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
";

fn check(text: &str) -> Checked {
    let mut sources = Sources::new();
    let loaded =
        fabricc::model::load::load_text(&mut sources, "t.fab", text.into(), &Limits::default());
    pipeline::check_loaded(&sources, loaded, &Limits::default())
}

/// A leaf (`leaf_model`) with one host on `host_cable`, uplinked to a spine of the same model
/// on `uplink_cable`; `extra` goes at fabric level.
fn fabric(leaf_model: &str, extra: &str, host_cable: &str, uplink_cable: &str) -> String {
    format!(
        "fabric t {{\n{extra}\n{CLASSES}\n  switch-model m {{ {leaf_model} }}\n  nic-model nic {{ driver mlx5  speed 400G }}\n  switch L1 {{ model m  tier 1 }}\n  switch S1 {{ model m  tier 2 }}\n  host h1 {{ nic nic }}\n  link h1 -- L1 {{ cable {host_cable} }}\n  link L1 -- S1 {{ cable {uplink_cable} }}\n  routing updown\n}}\n"
    )
}

#[track_caller]
fn lowered(text: &str) -> Vec<SwitchContext> {
    let c = check(text);
    assert_eq!(c.errors(), 0, "{:#?}", c.diagnostics);
    c.lowered.expect("lowered").switches
}

fn leaf(switches: &[SwitchContext]) -> &SwitchContext {
    switches.iter().find(|s| s.device == "L1").expect("L1")
}

fn plan(s: &SwitchContext) -> &SonicPlan {
    s.sonic.as_ref().expect("a SONiC plan")
}

/// (xoff, xon, size) of the leaf's host port (port 0) and uplink (port 1).
fn headroom(s: &SwitchContext) -> [(u64, u64, u64); 2] {
    let h = |i: usize| {
        let h = s.ports[i].headroom[0];
        (h.xoff_bytes, h.xon_bytes, h.size_bytes)
    };
    [h(0), h(1)]
}

const SN5600_O128: &str = "platform nvidia-sn5600  os sonic  ports 128 x 400G";
const SN5400: &str = "platform nvidia-sn5400  os sonic";

/// SONiC's formula on Spectrum-4 with its default traffic pattern (1024 B, 50 % small
/// packets), port MTU 9216; 4-lane ports (the SN5600's 2x400G SKU) and 8-lane ones (SN5400).
/// Traditional: the cable as the lookup row it is rounded up to. Each triple is what
/// `buffer_headroom_mellanox.lua` returns for it (`sonic_headroom`'s tests pin the formula).
#[test]
fn spectrum_headroom_is_sonic_formula_at_the_written_cable() {
    for (model, buffer_model, want_cables, want) in [
        (
            SN5600_O128,
            "dynamic",
            ["3m", "30m"],
            [(97_280, 19_456, 116_736), (113_664, 19_456, 133_120)],
        ),
        (
            SN5600_O128,
            "traditional",
            ["5m", "40m"],
            [(98_304, 19_456, 117_760), (119_808, 19_456, 139_264)],
        ),
        (
            SN5400,
            "dynamic",
            ["3m", "30m"],
            [(97_280, 38_912, 145_408), (113_664, 38_912, 161_792)],
        ),
        (
            SN5400,
            "traditional",
            ["5m", "40m"],
            [(98_304, 38_912, 146_432), (119_808, 38_912, 167_936)],
        ),
    ] {
        let s = lowered(&fabric(
            model,
            &format!("  buffer-model {buffer_model}"),
            "3m",
            "30m",
        ));
        let l = leaf(&s);
        let p = plan(l);
        assert_eq!(p.buffer_model.as_str(), buffer_model);
        assert_eq!(
            [p.ports[0].cable.as_str(), p.ports[1].cable.as_str()],
            want_cables,
            "{model} {buffer_model}"
        );
        assert_eq!(headroom(l), want, "{model} {buffer_model}");
        for port in &l.ports {
            assert_eq!(port.headroom[0].formula, HeadroomFormula::SonicMellanox);
        }
        // Traditional: the profile buffermgrd reuses; dynamic: "NULL", the switch computes it.
        let profile = p.ports[0].lossless_profile.as_ref();
        match buffer_model {
            "traditional" => assert_eq!(
                profile.map(|p| p.name.as_str()),
                Some("pg_lossless_400000_5m_profile")
            ),
            _ => assert!(profile.is_none()),
        }
    }
}

/// The SN5600's 2x400G leaf of `sonic-sn5600-2x2` in the dynamic model: the pool sizes
/// `buffer_pool_mellanox.lua` will compute (S6). By hand: the MMU 158,229,504 less
///   4 host PGs × 116,736 + 4 uplink PGs × 133,120 (lossless headroom)      999,424
///   8 × 19,456 (PG 0: a lossy PG reserves the pipeline latency)             155,648
///   8 × 9,216 (egress_lossy_profile per port) + 8 × 9,216 (q_cnp_profile)  147,456
///   129 SKU ports × 19,456 (management PG, every port admin-up)           2,509,824
///   129 × 10,240 (egress mirror) + 262,144 (management pool)              1,583,104
/// = 152,834,048 B left, split between the two ingress pools: 76,417,024, in 192-byte cells
/// 76,416,960 (the egress lossy pool gets the same). The egress lossless pool is the MMU (S5).
#[test]
fn mellanox_pools_follow_buffer_pool_mellanox_lua() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/build/inputs/sonic-sn5600-2x2.fab"),
    )
    .expect("fixture");
    let s = lowered(&text);
    let l = s.iter().find(|s| s.device == "leaf1").expect("leaf1");
    let p = plan(l);
    assert_eq!(p.hwsku, "Mellanox-SN5600-O128");
    assert_eq!(p.sku_ports, 129);
    let pool = |n: &str| p.pools.iter().find(|x| x.name == n).expect(n);
    assert_eq!(pool("ingress_lossless_pool").expected, 76_416_960);
    assert_eq!(pool("ingress_lossy_pool").expected, 76_416_960);
    assert_eq!(pool("egress_lossy_pool").expected, 76_416_960);
    assert_eq!(pool("egress_lossless_pool").expected, 158_229_504);
    // Dynamic model: only the egress lossless pool has a size; the switch sizes the rest.
    assert_eq!(pool("egress_lossless_pool").size, Some(158_229_504));
    assert_eq!(pool("ingress_lossless_pool").size, None);
    assert_eq!(pool("egress_lossless_pool").mode, "dynamic");
    let profile = |n: &str| p.profiles.iter().find(|x| x.name == n).expect(n);
    assert_eq!(profile("egress_lossless_profile").dynamic_th, Some(7));
    assert_eq!(
        (
            profile("q_cnp_profile").size,
            profile("q_cnp_profile").pool.as_str()
        ),
        (9216, "egress_lossy_pool")
    );
    assert_eq!(
        (
            profile("egress_lossy_profile").size,
            profile("q_lossy_profile").size
        ),
        (9216, 0)
    );
}

/// S12: without timers in the fabric, SONiC's `pfcwd start_default` scaling over the SKU's
/// PORT rows, 200 ms × ((rows − 1) / 32 + 1), poll capped at 1 s; timers the fabric sets stay.
#[test]
fn watchdog_scales_like_pfcwd_start_default_unless_set() {
    for (model, extra, want) in [
        (SN5600_O128, "", (1000, 1000, 1000, Some(5))),
        (SN5400, "", (600, 600, 600, Some(3))),
        (
            "platform nvidia-sn5600  os sonic",
            "",
            (600, 600, 600, Some(3)),
        ),
        (
            SN5400,
            "  pfc-watchdog detect 200ms restore 400ms",
            (200, 400, 100, None),
        ),
    ] {
        let s = lowered(&fabric(model, extra, "3m", "30m"));
        let l = leaf(&s);
        let w = l.watchdog.expect("watchdog on");
        assert_eq!(
            (w.detect_ms, w.restore_ms, w.poll_ms, plan(l).watchdog_scale),
            want,
            "{model} {extra}"
        );
    }
}

/// The SKU each port layout selects, its port names and lanes (S9).
#[test]
fn the_sku_carries_the_ports_with_their_names_and_lanes() {
    for (model, sku, name1, lanes1) in [
        (SN5600_O128, "Mellanox-SN5600-O128", "Ethernet4", "4,5,6,7"),
        (
            "platform nvidia-sn5600  os sonic",
            "ACS-SN5600",
            "Ethernet8",
            "8,9,10,11,12,13,14,15",
        ),
        (
            "platform nvidia-sn5600  os sonic  ports 64 x 400G",
            "ACS-SN5600",
            "Ethernet8",
            "8,9,10,11,12,13,14,15",
        ),
        (SN5400, "ACS-SN5400", "Ethernet8", "8,9,10,11,12,13,14,15"),
        (
            "platform arista-7060x6-64pe  os sonic  ports 128 x 400G",
            "Arista-7060X6-64PE-O128S2",
            "Ethernet4",
            "21,22,23,24",
        ),
    ] {
        let s = lowered(&fabric(model, "", "3m", "30m"));
        let l = leaf(&s);
        assert_eq!(plan(l).hwsku, sku, "{model}");
        let lanes: Vec<String> = l.ports[1].lanes.iter().map(u32::to_string).collect();
        assert_eq!(
            (l.ports[1].name.as_str(), lanes.join(",")),
            (name1, lanes1.to_string()),
            "{model}"
        );
    }
}

/// Broadcom (S7, S8): the SKU's row gives the guaranteed minimum, xon and xon_offset; xoff is
/// the row's where it is larger than the canonical headroom; no priority→PG map; the SKU's
/// pools with their shared headroom pool; beyond the longest row the cable is written as it
/// is (FAB953).
#[test]
fn broadcom_profiles_follow_the_sku() {
    let model = "platform arista-7060x6-64pe  os sonic  ports 128 x 400G";
    let s = lowered(&fabric(model, "", "3m", "200m"));
    let l = leaf(&s);
    let p = plan(l);
    assert_eq!(
        (p.asic, p.buffer_model),
        (SonicAsic::Broadcom, SonicBufferModel::Traditional)
    );
    assert!(!p.pfc_to_pg_map);
    assert_eq!(p.ports[0].cable, "5m");
    assert_eq!(
        (p.ports[1].cable.as_str(), p.ports[1].lookup_row_missing),
        ("200m", true)
    );
    let pr = p.ports[0].lossless_profile.as_ref().expect("a profile");
    assert_eq!(
        (pr.size, pr.xon, pr.xoff, pr.xon_offset),
        (18_796, 0, 612_140, Some(3556))
    );
    assert_eq!(l.ports[0].headroom[0].formula, HeadroomFormula::SonicLookup);
    let ingress = p
        .pools
        .iter()
        .find(|x| x.name == "ingress_lossless_pool")
        .expect("pool");
    assert_eq!(
        (ingress.size, ingress.xoff),
        (Some(166_115_492), Some(29_423_360))
    );
    assert!(p.ingress_profile_list.is_empty() && p.egress_profile_list.is_empty());
    let codes: Vec<Code> = check(&fabric(model, "", "3m", "200m"))
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect();
    assert!(codes.contains(&Code::SonicLookupRowMissing), "{codes:?}");
}

/// The dynamic model pins a port only where the fabric needs more than SONiC computes: a
/// `headroom` override above the formula (FAB955) becomes a static profile; elsewhere "NULL".
#[test]
fn dynamic_model_pins_only_where_sonic_gives_less() {
    let text = fabric(SN5400, "", "3m", "30m").replace(
        "  switch L1 { model m  tier 1 }",
        "  switch L1 { model m  tier 1  headroom roce 400KB }",
    );
    let s = lowered(&text);
    let l = leaf(&s);
    let p = plan(l);
    let pinned: Vec<_> = p
        .ports
        .iter()
        .map(|sp| {
            sp.lossless_profile
                .as_ref()
                .map(|x| (x.name.clone(), x.xoff))
        })
        .collect();
    assert_eq!(
        pinned,
        [
            Some(("fabricc_pg_lossless_400000_3m_profile".to_string(), 400_000)),
            Some((
                "fabricc_pg_lossless_400000_30m_profile".to_string(),
                400_000
            )),
        ]
    );
    assert_eq!(l.ports[0].headroom[0].formula, HeadroomFormula::Override);
    // The spine has no override: SONiC computes its PGs.
    let spine = s.iter().find(|s| s.device == "S1").expect("S1");
    assert!(
        plan(spine)
            .ports
            .iter()
            .all(|sp| sp.lossless_profile.is_none())
    );
}

const SPEEDS: [u64; 6] = [25, 50, 100, 200, 400, 800];

/// (platform model, link speeds the SKU carries).
fn spectrum_models() -> Vec<(&'static str, Vec<u64>)> {
    vec![
        ("platform nvidia-sn5600  os sonic", SPEEDS.to_vec()),
        (SN5600_O128, SPEEDS[..5].to_vec()),
        (SN5400, SPEEDS[..5].to_vec()),
        ("platform nvidia-sn4700  os sonic", SPEEDS[..5].to_vec()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Every lossless port of a Spectrum switch: xoff ≥ SONiC's Mellanox formula at the
    /// written cable (and ≥ the canonical headroom), size ≥ the formula's size; and the
    /// egress lossless pool ≥ the ingress lossless pool plus every lossless PG's size (S5).
    #[test]
    fn spectrum_headroom_never_below_sonic_formula(
        model in 0usize..4,
        speed in 0usize..6,
        host_m in 1u32..=300,
        uplink_m in 1u32..=300,
        traditional in any::<bool>(),
    ) {
        let (leaf_model, speeds) = &spectrum_models()[model];
        let gbps = speeds[speed % speeds.len()];
        let text = fabric(
            leaf_model,
            if traditional { "  buffer-model traditional" } else { "" },
            &format!("{host_m}m"),
            &format!("{uplink_m}m"),
        )
        .replace("speed 400G }", &format!("speed {gbps}G }}"))
        .replace("link L1 -- S1 {", &format!("link L1 -- S1 {{ speed {gbps}G "));
        let c = check(&text);
        prop_assume!(c.errors() == 0);
        let fabric_model = c.fabric.as_ref().expect("resolved");
        let canonical = headroom_plan(fabric_model);
        let switches = c.lowered.expect("lowered").switches;
        for s in &switches {
            let p = plan(s);
            let platform = switch_platform(match model {
                3 => "nvidia-sn4700",
                2 => "nvidia-sn5400",
                _ => "nvidia-sn5600",
            })
            .expect("catalogue");
            let consts = platform.sonic_headroom_constants().expect("Spectrum constants");
            let (mtu, spp) = p.traffic_pattern.expect("pattern");
            let sw = fabric_model
                .switch_ids()
                .find(|&id| fabric_model.switch(id).name == s.device)
                .expect("switch");
            let mut lossless_size = 0u64;
            for (port, sp) in s.ports.iter().zip(&p.ports) {
                let cable_m: u64 = sp.cable.trim_end_matches('m').parse().expect("metres");
                prop_assert!(cable_m >= u64::from(port.cable_m));
                let lua = sonic_mellanox_headroom(
                    &consts,
                    &SonicHeadroomInput {
                        speed_mbps: u64::from(port.speed_mbps),
                        cable_mm: cable_m * 1000,
                        port_mtu: u64::from(port.mtu),
                        lossless_mtu: u64::from(mtu),
                        small_packet_percentage: u64::from(spp),
                        gearbox_delay_ns: 0,
                        eight_lanes: sp.eight_lanes,
                        shared_headroom_pool: false,
                    },
                )
                .expect("formula");
                for h in &port.headroom {
                    prop_assert!(h.xoff_bytes >= lua.xoff, "{} {}: xoff {} < {}", s.device, port.name, h.xoff_bytes, lua.xoff);
                    prop_assert!(h.size_bytes >= lua.size);
                    prop_assert!(h.xon_bytes >= lua.xon);
                    let entry = canonical
                        .switch(sw)
                        .iter()
                        .find(|e| e.port == port.index && e.priority == h.priority)
                        .expect("canonical entry");
                    prop_assert!(h.xoff_bytes >= entry.configured);
                    lossless_size += h.size_bytes;
                }
                if let Some(pr) = &sp.lossless_profile {
                    prop_assert!(pr.xoff >= lua.xoff);
                }
            }
            let pool = |n: &str| p.pools.iter().find(|x| x.name == n).map_or(0, |x| x.expected);
            prop_assert!(
                pool("egress_lossless_pool") >= pool("ingress_lossless_pool") + lossless_size,
                "S5: egress {} < ingress {} + headroom {}",
                pool("egress_lossless_pool"),
                pool("ingress_lossless_pool"),
                lossless_size
            );
        }
    }
}

/// R1: a port with two lossless priorities has one `BUFFER_PG` entry (`Ethernet0|3-4`) and so
/// one profile: a `headroom` override on the second class must reach it (it used to take the
/// first class's numbers while the report claimed the override was written), on both buffer
/// models and on Broadcom, and the pools count that profile for both priorities.
#[test]
fn a_second_lossless_class_keeps_its_headroom_override() {
    let two_classes = "
  class roce  { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 100%  bandwidth 40% }
  class store { dscp 10  priority 4  lossless  ecn min 100KB max 1000KB probability 50%  bandwidth 20% }
  class cnp   { dscp 48  priority 6  strict  cnp }
  class bulk  { dscp other  priority 0  bandwidth 40% }
";
    for (model, extra) in [
        (SN5400, ""),
        (SN5400, "  buffer-model traditional"),
        (
            "platform arista-7060x6-64pe  os sonic  ports 128 x 400G",
            "",
        ),
    ] {
        let text = fabric(&format!("{model}  lossless-limit 2"), extra, "3m", "30m")
            .replace(CLASSES, two_classes)
            .replace(
                "  switch L1 { model m  tier 1 }",
                "  switch L1 { model m  tier 1  headroom store 400KB }",
            );
        let s = lowered(&text);
        let l = leaf(&s);
        for (port, sp) in l.ports.iter().zip(&plan(l).ports) {
            let written = sp
                .lossless_profile
                .as_ref()
                .unwrap_or_else(|| panic!("{model} {extra}: port {} has no profile", port.name));
            assert!(
                written.xoff >= 400_000,
                "{model} {extra}: {} writes xoff {} for priorities 3-4",
                port.name,
                written.xoff
            );
            // What the report says is what is written, for each priority.
            for h in &port.headroom {
                assert_eq!(
                    (h.xoff_bytes, h.size_bytes),
                    (written.xoff, written.size),
                    "{model} {extra}: {} priority {}",
                    port.name,
                    h.priority
                );
            }
        }
    }
}

/// A share under 0.5 % is written as a DWRR weight of 1, taken from the largest share: SONiC
/// refuses weight 0 (it was an output error before), and the sum stays 100.
#[test]
fn an_ets_share_under_half_a_percent_is_weight_one_from_the_largest() {
    let text = fabric("os sonic  platform nvidia-sn5600", "", "3m", "3m")
        .replace("probability 100%  bandwidth 50%", "probability 100%  bandwidth 55%")
        .replace(
            "class bulk { dscp other  priority 0  bandwidth 50% }",
            "class bulk { dscp other  priority 0  bandwidth 44.6% }\n  class scavenger { dscp 8  priority 1  bandwidth 0.4% }",
        );
    let c = check(&text);
    assert!(
        c.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "FAB906" && d.message.contains("`bandwidth 0.4%`")),
        "{:#?}",
        c.diagnostics
    );
    let switches = c.lowered.expect("lowered").switches;
    let weights: Vec<(String, Scheduling)> = leaf(&switches)
        .qos
        .classes
        .iter()
        .map(|c| (c.name.clone(), c.scheduling))
        .collect();
    let w = |n: &str| weights.iter().find(|(c, _)| c == n).map(|(_, s)| *s);
    assert_eq!(w("roce"), Some(Scheduling::Ets { weight_percent: 54 }));
    assert_eq!(w("bulk"), Some(Scheduling::Ets { weight_percent: 45 }));
    assert_eq!(w("scavenger"), Some(Scheduling::Ets { weight_percent: 1 }));
}
