//! Render stage tests on hand-built contexts.
//!
//! In: contexts written out here the way `lower` will fill them (a 4-port 400G leaf with two
//! lossless priorities, on every switch OS; a host with two NICs). Out: golden files under
//! `tests/golden/render/<case>/…` (real config files, reviewable as configs), checked
//! byte for byte; `FABRICC_BLESS=1 cargo test --test render_targets` rewrites them. Every
//! SONiC output also passes `validate_sonic`, every host script `validate_mlnx_qos`, and
//! hostile names/descriptions never add a line to any output.

use std::path::{Path, PathBuf};

use crate::validate::{mlnx_qos_with_settings, validate_mlnx_qos, validate_sonic};
use fabricc::render::sonic;
use fabricc::render::*;

// ---- fixtures -------------------------------------------------------------------------

const ROCE_ECN: Ecn = Ecn {
    min_bytes: 150_000,
    max_bytes: 1_500_000,
    probability_percent: 100,
    min_fill: None,
    max_fill: None,
};
const BOUNCED_ECN: Ecn = Ecn {
    min_bytes: 150_000,
    max_bytes: 1_500_000,
    probability_percent: 100,
    min_fill: None,
    max_fill: None,
};
/// The override on the last port: `ecn roce min 300KB max 3MB probability 20%`.
const OVERRIDE_ECN: Ecn = Ecn {
    min_bytes: 300_000,
    max_bytes: 3_000_000,
    probability_percent: 20,
    min_fill: None,
    max_fill: None,
};

fn classes() -> Vec<ClassContext> {
    let used = [26u8, 48];
    vec![
        ClassContext {
            name: "bulk".into(),
            dscps: (0..64).filter(|d| !used.contains(d)).collect(),
            default: true,
            priority: 0,
            tc: 0,
            queue: 0,
            rate_percent: None,
            lossless: false,
            ecn: None,
            scheduling: Scheduling::Ets { weight_percent: 40 },
            cnp: false,
        },
        ClassContext {
            name: "roce".into(),
            dscps: vec![26],
            default: false,
            priority: 3,
            tc: 3,
            queue: 3,
            rate_percent: None,
            lossless: true,
            ecn: Some(ROCE_ECN),
            scheduling: Scheduling::Ets { weight_percent: 50 },
            cnp: false,
        },
        ClassContext {
            name: "roce-bounced".into(),
            dscps: vec![],
            default: false,
            priority: 4,
            tc: 4,
            queue: 4,
            rate_percent: None,
            lossless: true,
            ecn: Some(BOUNCED_ECN),
            scheduling: Scheduling::Ets { weight_percent: 10 },
            cnp: false,
        },
        ClassContext {
            name: "cnp".into(),
            dscps: vec![48],
            default: false,
            priority: 6,
            tc: 6,
            queue: 6,
            rate_percent: None,
            lossless: false,
            ecn: None,
            scheduling: Scheduling::Strict,
            cnp: true,
        },
    ]
}

fn qos() -> QosPlan {
    let dscp_to_tc = (0..64u8).map(|d| match d {
        26 => 3,
        48 => 6,
        _ => 0,
    });
    QosPlan {
        classes: classes(),
        lossless_priorities: vec![3, 4],
        dscp_to_tc: dscp_to_tc.collect(),
    }
}

fn port_name(os: SwitchOs, index: u32) -> String {
    match os {
        SwitchOs::Sonic => sonic::port_name(index, 8),
        SwitchOs::Cumulus => cumulus::port_name(index),
        SwitchOs::Eos => eos::port_name(index),
        SwitchOs::Nxos => nxos::port_name(index),
        SwitchOs::Junos => junos::port_name(index),
        SwitchOs::Vrp => fabricc::lower::vocab::vrp_port_name(index, 400_000),
        SwitchOs::Comware => comware::port_name(index),
    }
}

/// leaf1: ports 0–1 down to GPU hosts (3 m), ports 2–3 up to spines (30 m); port 3 carries
/// an ECN override on the roce queue.
fn leaf(os: SwitchOs) -> SwitchContext {
    let ports = (0..4u32)
        .map(|i| {
            let up = i >= 2;
            let (cable_m, xoff) = if up { (30, 113_664) } else { (3, 97_280) };
            let roce = if i == 3 { OVERRIDE_ECN } else { ROCE_ECN };
            PortContext {
                name: port_name(os, i),
                index: i,
                speed_mbps: 400_000,
                mtu: 9216,
                cable_m,
                peer: if up {
                    format!("spine{}", i - 1)
                } else {
                    format!("gpu00{}", i + 1)
                },
                peer_port: if up {
                    "Ethernet0".into()
                } else {
                    "nic1".into()
                },
                description: Some(if up {
                    format!("uplink to spine{}", i - 1)
                } else {
                    format!("gpu00{} nic1", i + 1)
                }),
                lanes: if os == SwitchOs::Sonic {
                    (i * 8..i * 8 + 8).collect()
                } else {
                    vec![]
                },
                fec: Fec::Rs,
                lossless_priorities: vec![3, 4],
                headroom: [3u8, 4]
                    .iter()
                    .map(|&priority| Headroom {
                        priority,
                        xoff_bytes: xoff,
                        xon_bytes: 38_912,
                        size_bytes: xoff + 38_912 + 9216,
                        fixed: false,
                        formula: HeadroomFormula::SonicMellanox,
                    })
                    .collect(),
                pause_threshold: PauseThreshold::Dynamic { log2_alpha: 0 },
                ecn: vec![
                    QueueEcn {
                        queue: 3,
                        ecn: Some(roce),
                    },
                    QueueEcn {
                        queue: 4,
                        ecn: Some(BOUNCED_ECN),
                    },
                ],
                pfc_watchdog: true,
            }
        })
        .collect::<Vec<PortContext>>();
    let sonic = (os == SwitchOs::Sonic).then(|| sonic_plan(&ports));
    SwitchContext {
        device: "leaf1".into(),
        os,
        release: None,
        platform: None,
        description: Some("rail 1 leaf, pod-a".into()),
        fabric: "pod-a".into(),
        mtu: 9216,
        qos: qos(),
        watchdog: Some(Watchdog {
            detect_ms: 200,
            restore_ms: 400,
            poll_ms: 100,
            action: WatchdogAction::Drop,
            defaults: WatchdogDefaults::default(),
        }),
        buffer: BufferPlan {
            total_bytes: 64_000_000,
            ingress_lossless_pool_bytes: 44_800_000,
            shared_headroom_pool_bytes: Some(12_800_000),
            egress_lossless_pool_bytes: 44_800_000,
            egress_lossy_pool_bytes: 12_800_000,
            lossless_queue_buffer_bytes: 10_000_000,
            queue_log2_alpha: 0,
            pause_point_bytes: None,
            cell_bytes: None,
        },
        ports,
        sonic,
        hash_fields: None,
        lb: Default::default(),
        mlag: None,
    }
}

/// The SONiC plan `lower` makes for the leaf on an SN5400 (ACS-SN5400, 8 lanes a port) in the
/// traditional buffer model: cables rounded up to the SKU's lookup rows (3 m → 5 m, 30 m → 40 m),
/// SONiC's Mellanox pool layout.
fn sonic_plan(ports: &[PortContext]) -> SonicPlan {
    let profile = |name: &str, pool: &str, size: u64, th: i8| SonicProfile {
        name: name.into(),
        pool: pool.into(),
        size,
        dynamic_th: Some(th),
        static_th: None,
    };
    let pool = |name: &str, kind: &'static str, size: u64| SonicPool {
        name: name.into(),
        kind,
        mode: "dynamic",
        size: Some(size),
        xoff: None,
        expected: size,
    };
    SonicPlan {
        breakouts: Vec::new(),
        cage_ports: Default::default(),
        switch_hash: None,
        platform: "x86_64-nvidia_sn5400-r0".into(),
        hwsku: "ACS-SN5400".into(),
        asic: SonicAsic::Mellanox,
        buffer_model: SonicBufferModel::Traditional,
        sku_ports: 66,
        cell_bytes: Some(192),
        traffic_pattern: Some((1024, 50)),
        default_dynamic_th: 0,
        pools: vec![
            pool("egress_lossless_pool", "egress", 158_229_504),
            pool("egress_lossy_pool", "egress", 76_000_128),
            pool("ingress_lossless_pool", "ingress", 76_000_128),
            pool("ingress_lossy_pool", "ingress", 76_000_128),
        ],
        profiles: vec![
            profile("ingress_lossless_profile", "ingress_lossless_pool", 0, 7),
            profile("ingress_lossy_profile", "ingress_lossy_pool", 0, 3),
            profile("egress_lossless_profile", "egress_lossless_pool", 0, 7),
            profile("egress_lossy_profile", "egress_lossy_pool", 9216, 7),
            profile("q_lossy_profile", "egress_lossy_pool", 0, 3),
            profile("q_cnp_profile", "egress_lossy_pool", 9216, 3),
        ],
        ingress_profile_list: "ingress_lossless_profile,ingress_lossy_profile".into(),
        egress_profile_list: "egress_lossless_profile,egress_lossy_profile".into(),
        lossy_pg_profile: "ingress_lossy_profile".into(),
        lossless_queue_profile: "egress_lossless_profile".into(),
        lossy_queue_profile: "q_lossy_profile".into(),
        cnp_queue_profile: Some("q_cnp_profile".into()),
        pfc_to_pg_map: true,
        watchdog_scale: None,
        ports: ports
            .iter()
            .map(|p| {
                let cable = if p.cable_m > 5 { "40m" } else { "5m" };
                SonicPort {
                    cable: cable.into(),
                    lossless_profile: p.headroom.first().map(|h| SonicPgProfile {
                        name: format!("pg_lossless_{}_{cable}_profile", p.speed_mbps),
                        size: h.size_bytes,
                        xon: h.xon_bytes,
                        xoff: h.xoff_bytes,
                        xon_offset: None,
                    }),
                    eight_lanes: true,
                    lookup_row_missing: false,
                    lanes_mismatch: None,
                    sku_row: None,
                }
            })
            .collect(),
    }
}

fn host() -> HostContext {
    let nic = |index: u32, netdev: Option<&str>, pci: Option<&str>| NicContext {
        index,
        name: format!("nic{index}"),
        netdev: netdev.map(str::to_string),
        rdma_device: if netdev.is_none() && pci.is_none() {
            Some(format!("mlx5_{}", index - 1))
        } else {
            None
        },
        pci: pci.map(str::to_string),
        guessed: netdev.is_none() && pci.is_none(),
        rdma_port: 1,
        peer: format!("leaf1.port{index}"),
        speed_mbps: 400_000,
        rail: true,
    };
    let dscp2prio = (0..64u8)
        .map(|d| match d {
            26 => 3,
            48 => 6,
            _ => 0,
        })
        .collect();
    HostContext {
        host: "gpu001".into(),
        description: Some("DGX node, rack 1".into()),
        fabric: "pod-a".into(),
        driver: NicDriver::Mlx5,
        qos: HostQos {
            mtu: 4200,
            pfc: [0, 0, 0, 1, 1, 0, 0, 0],
            prio_tc: [0, 1, 2, 3, 4, 5, 6, 7],
            tsa: [
                Tsa::Ets,
                Tsa::Ets,
                Tsa::Ets,
                Tsa::Ets,
                Tsa::Ets,
                Tsa::Ets,
                Tsa::Strict,
                Tsa::Ets,
            ],
            tcbw: [40, 0, 0, 50, 10, 0, 0, 0],
            dscp2prio,
            roce: Some(TosClass {
                class: "roce".into(),
                dscp: 26,
                priority: 3,
                tos: (26 << 2) | 0b10,
            }),
            other_roce: vec![TosClass {
                class: "store".into(),
                dscp: 34,
                priority: 4,
                tos: (34 << 2) | 0b10,
            }],
            cnp_dscp: 48,
            cnp_priority: 6,
            ecn_enable: [1; 8],
            dcqcn_priorities: vec![3, 4],
        },
        nics: vec![
            nic(1, Some("ens1f0np0"), Some("0000:3b:00.0")),
            nic(2, None, None),
        ],
        qps_per_connection: None,
        split_data_on_qps: None,
        left_alone: vec![],
        bonds: vec![],
        deviations: vec![],
    }
}

/// The mlx5 program (issue 36 item 2: one for every mlx5 host, `programs/host/mlnx_qos.sh`)
/// and the host's settings among its files.
fn program_and_settings(artifacts: &[Artifact]) -> (String, String) {
    let programs = render_host_programs(&templates(), [&host()]).expect("programs render");
    let paths: Vec<&str> = programs.iter().map(|a| a.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "programs/host/README.md",
            "programs/host/mlnx_qos.sh",
            "programs/host/mlx5/99-fabricc-roce.rules",
            "programs/host/mlx5/fabricc-roce.service",
        ]
    );
    let programs: Vec<&Artifact> = programs
        .iter()
        .filter(|a| a.path.ends_with(".sh"))
        .collect();
    let settings = artifacts
        .iter()
        .find(|a| a.path.ends_with("/fabricc-roce.conf"))
        .expect("fabricc-roce.conf")
        .contents
        .clone();
    (programs[0].contents.clone(), settings)
}

/// What the host runs: the mlx5 program with the host's settings put in, then the settings
/// as comments (still valid bash).
fn script(artifacts: &[Artifact]) -> String {
    let (program, settings) = program_and_settings(artifacts);
    let mut s = mlnx_qos_with_settings(&program, &settings);
    s.push_str("\n# The host's settings:\n");
    for l in settings.lines() {
        s.push_str(&format!("# {l}\n"));
    }
    s
}

// ---- golden files -----------------------------------------------------------------------

fn golden_dir(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/render")
        .join(case)
}

fn check_golden(case: &str, artifacts: &[Artifact]) {
    let bless = std::env::var_os("FABRICC_BLESS").is_some();
    let mut failures = Vec::new();
    for a in artifacts {
        let path = golden_dir(case).join(&a.path);
        if bless {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("create golden dir");
            }
            std::fs::write(&path, &a.contents).expect("write golden file");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Err(_) => failures.push(format!(
                "{}: golden file missing (FABRICC_BLESS=1)",
                path.display()
            )),
            Ok(want) if want != a.contents => {
                let line = want
                    .lines()
                    .zip(a.contents.lines())
                    .position(|(x, y)| x != y)
                    .map_or_else(|| "length".to_string(), |n| format!("line {}", n + 1));
                failures.push(format!("{}: differs at {line}", path.display()));
            }
            Ok(_) => {}
        }
    }
    // A golden file the renderer no longer writes would sit in review as if it were output.
    let produced: Vec<PathBuf> = artifacts
        .iter()
        .map(|a| golden_dir(case).join(&a.path))
        .collect();
    for stale in files_under(&golden_dir(case)) {
        if produced.contains(&stale) {
            continue;
        }
        if bless {
            std::fs::remove_file(&stale).expect("remove stale golden file");
        } else {
            failures.push(format!(
                "{}: no longer produced (FABRICC_BLESS=1 removes it)",
                stale.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "golden mismatches:\n{}",
        failures.join("\n")
    );
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn templates() -> Templates {
    Templates::embedded().expect("embedded templates compile")
}

const ALL_OS: [SwitchOs; 7] = SwitchOs::ALL;

#[test]
fn golden_switch_outputs() {
    let t = templates();
    for os in ALL_OS {
        let artifacts = render_switch(&t, &leaf(os)).unwrap_or_else(|e| panic!("{os:?}: {e}"));
        assert!(!artifacts.is_empty());
        for a in &artifacts {
            assert!(
                a.contents.ends_with('\n'),
                "{} ends without newline",
                a.path
            );
            assert!(a.path.starts_with("switches/leaf1/"), "{}", a.path);
            assert_eq!(a.target, os.as_str());
        }
        check_golden(os.as_str(), &artifacts);
    }
}

#[test]
fn golden_host_script() {
    let mut artifacts = render_host(&templates(), &host()).expect("host renders");
    assert_eq!(artifacts.len(), 2);
    for a in &artifacts {
        assert!(a.path.starts_with("hosts/gpu001/"), "{}", a.path);
        assert!(a.contents.ends_with('\n'), "{}", a.path);
        assert_eq!(a.target, "host");
    }
    artifacts.extend(render_host_programs(&templates(), [&host()]).expect("programs"));
    check_golden("host", &artifacts);
}

/// The host of `host()` for a DCBNL driver: both NICs by PCI address (only mlx5 guesses a
/// name), `store` lossy, because bnxt and ice take PFC on one priority only.
fn dcbnl_host(driver: NicDriver) -> HostContext {
    let mut h = host();
    h.driver = driver;
    h.qos.pfc = [0, 0, 0, 1, 0, 0, 0, 0];
    h.nics[1].rdma_device = None;
    h.nics[1].guessed = false;
    h.nics[1].pci = Some("0000:5e:00.0".into());
    h
}

#[test]
fn golden_dcbnl_host_scripts() {
    for (driver, script) in [
        (NicDriver::Bnxt, "bnxt_qos.sh"),
        (NicDriver::Ice, "ice_qos.sh"),
        (NicDriver::Dcb, "dcb_qos.sh"),
    ] {
        let mut artifacts = render_host(&templates(), &dcbnl_host(driver)).expect("host renders");
        artifacts
            .extend(render_host_programs(&templates(), [&dcbnl_host(driver)]).expect("programs"));
        let mut names: Vec<String> = artifacts.iter().map(|a| a.path.clone()).collect();
        names.sort();
        let mut want = vec![
            "hosts/gpu001/fabricc-roce.conf".to_string(),
            "hosts/gpu001/nccl.env".to_string(),
            "programs/host/README.md".to_string(),
            format!("programs/host/{script}"),
            format!("programs/host/{}/99-fabricc-roce.rules", driver.as_str()),
            format!("programs/host/{}/fabricc-roce.service", driver.as_str()),
        ];
        want.sort();
        assert_eq!(
            names, want,
            "{driver:?}: its own program and the shared files, never mlnx_qos.sh"
        );
        check_golden(&format!("host-{}", driver.as_str()), &artifacts);
    }
    // Two lossless priorities: the mlx5 and generic scripts take them, bnxt and ice refuse.
    for driver in [NicDriver::Bnxt, NicDriver::Ice] {
        let mut h = dcbnl_host(driver);
        h.qos.pfc = [0, 0, 0, 1, 1, 0, 0, 0];
        let e = render_host(&templates(), &h).expect_err("one lossless priority");
        assert!(e.to_string().contains("takes PFC on 1 priority"), "{e}");
    }
}

/// Issue 36: a host file is a header naming its README section, its data, and comments about
/// that host only; the section it names is in `programs/host/README.md`, once for every host,
/// with every key the file holds.
#[test]
fn host_files_are_data_and_name_their_readme_section() {
    let hosts: Vec<HostContext> = [
        NicDriver::Mlx5,
        NicDriver::Bnxt,
        NicDriver::Ice,
        NicDriver::Dcb,
        NicDriver::Hns,
    ]
    .into_iter()
    .enumerate()
    .map(|(i, d)| {
        let mut h = if d == NicDriver::Mlx5 {
            host()
        } else {
            dcbnl_host(d)
        };
        h.host = format!("h{i}");
        h.deviations = vec!["class roce (scheduling)".into()];
        h
    })
    .collect();
    let programs = render_host_programs(&templates(), &hosts).expect("programs");
    let settings = render_host(&templates(), &hosts[0]).expect("host renders");
    assert!(
        settings[0].contents.contains(
            "\n# This host differs from the fabric, by its own block in the .fab: class roce (scheduling).\n"
        ),
        "{}",
        settings[0].contents
    );
    let readme = &programs
        .iter()
        .find(|a| a.path == "programs/host/README.md")
        .expect("one README for every host")
        .contents;
    for h in &hosts {
        for a in render_host(&templates(), h).expect("host renders") {
            let lines: Vec<&str> = a.contents.lines().collect();
            let section = lines[2]
                .split_once("section \"")
                .and_then(|(_, rest)| rest.strip_suffix("\"."))
                .unwrap_or_else(|| panic!("{}: header names no section: {}", a.path, lines[2]));
            assert!(
                readme.contains(&format!("\n## {section}\n")),
                "{}: README has no section {section:?}",
                a.path
            );
            assert!(lines[..3].iter().all(|l| l.starts_with("# ")), "{}", a.path);
            let body = &readme[readme.find(&format!("## {section}")).unwrap_or(0)..];
            for l in &lines[3..] {
                if l.starts_with('#') {
                    // Only host-specific comments: this fixture's description, what its block
                    // changes, the FAB920 warning of mlx5's guessed NIC, the second lossless
                    // class, no NCCL_IB_HCA.
                    assert!(
                        [
                            "# DGX node",
                            "# This host differs from the fabric, by its own block in the .fab: class roce (scheduling).",
                            "# WARNING",
                            "# mlx5_<N-1>",
                            "# Class store",
                            "# NCCL_IB_HCA"
                        ]
                        .iter()
                        .any(|p| l.starts_with(p)),
                        "{}: a comment the same on every host: {l}",
                        a.path
                    );
                } else if let Some((key, _)) = l.split_once('=') {
                    assert!(
                        body.contains(&format!("`{key}`"))
                            || (["FORMAT", "HOST", "FABRIC", "DRIVER"].contains(&key)
                                && readme.contains(&format!("`{key}`"))),
                        "{}: {key} is explained nowhere in the README",
                        a.path
                    );
                }
            }
        }
    }
}

#[test]
fn rendering_is_deterministic() {
    let t = templates();
    for os in ALL_OS {
        assert_eq!(render_switch(&t, &leaf(os)), render_switch(&t, &leaf(os)));
    }
}

// ---- validators on generated output ---------------------------------------------------------

fn sonic_json(ctx: &SwitchContext) -> serde_json::Value {
    let a = render_switch(&templates(), ctx).expect("sonic renders");
    let fragment = a
        .iter()
        .find(|a| a.path.ends_with("config_db.fragment.json"))
        .expect("a fragment");
    let doc = serde_json::from_str(&fragment.contents).expect("config_db.fragment.json parses");
    crate::validate::split_port_lists(&doc)
}

/// Issue 36: the file lists the ports whose entries are the same in one key, and splitting it
/// as the apply program does gives exactly the per-port tree the renderer built.
#[test]
fn sonic_fragment_lists_ports_and_splits_back_to_the_per_port_tree() {
    let ctx = leaf(SwitchOs::Sonic);
    let a = render_switch(&templates(), &ctx).expect("sonic renders");
    let text = &a
        .iter()
        .find(|a| a.path.ends_with("config_db.fragment.json"))
        .expect("a fragment")
        .contents;
    let file: serde_json::Value = serde_json::from_str(text).expect("parses");
    let split = crate::validate::split_port_lists(&file);
    let tree = serde_json::to_value(sonic::config_db(&ctx).expect("tree")).expect("json");
    let ports = ctx.ports.len();
    assert!(ports > 1);
    for table in sonic::PORT_LIST_TABLES {
        let written = file[table].as_object().map_or(0, |t| t.len());
        let per_port = tree[table].as_object().map_or(0, |t| t.len());
        assert!(
            written < per_port,
            "{table}: {written} keys written for {per_port} per-port entries"
        );
        assert_eq!(split[table], tree[table], "{table}");
    }
    // The program and the YANG script split the same tables.
    let script = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sonic-yang-check"),
    )
    .expect("script");
    let program = fabricc::render::sonic_program::program_view();
    assert_eq!(program.port_lists, sonic::PORT_LIST_TABLES.to_vec());
    for table in sonic::PORT_LIST_TABLES {
        assert!(script.contains(&format!("\"{table}\"")), "{table}");
    }
}

#[test]
fn sonic_output_passes_yang_rules() {
    let errs = validate_sonic(&sonic_json(&leaf(SwitchOs::Sonic)));
    assert!(errs.is_empty(), "{errs:#?}");
}

#[test]
fn sonic_output_has_the_lossless_pieces() {
    let doc = sonic_json(&leaf(SwitchOs::Sonic));
    let get = |t: &str, k: &str, f: &str| doc[t][k][f].as_str().map(str::to_string);
    assert_eq!(
        get("DEVICE_METADATA", "localhost", "buffer_model").as_deref(),
        Some("traditional")
    );
    assert_eq!(
        get("BUFFER_PG", "Ethernet0|3-4", "profile").as_deref(),
        Some("pg_lossless_400000_5m_profile")
    );
    assert_eq!(
        get("BUFFER_PG", "Ethernet16|3-4", "profile").as_deref(),
        Some("pg_lossless_400000_40m_profile")
    );
    // Spectrum: the priority→PG map, and the 8-lane layout's numbers as lower made them.
    assert_eq!(
        get("PORT_QOS_MAP", "Ethernet8", "pfc_to_pg_map").as_deref(),
        Some("FABRICC")
    );
    assert_eq!(
        get("BUFFER_PROFILE", "pg_lossless_400000_5m_profile", "size").as_deref(),
        Some("145408")
    );
    assert_eq!(
        get("BUFFER_QUEUE", "Ethernet0|6", "profile").as_deref(),
        Some("q_cnp_profile")
    );
    assert!(
        doc["DEVICE_METADATA"]["localhost"]
            .get("hostname")
            .is_none()
    );
    assert_eq!(
        get("BUFFER_PG", "Ethernet0|0", "profile").as_deref(),
        Some("ingress_lossy_profile")
    );
    assert_eq!(
        get("PORT_QOS_MAP", "Ethernet8", "pfc_enable").as_deref(),
        Some("3,4")
    );
    assert_eq!(
        get("PORT_QOS_MAP", "Ethernet8", "pfcwd_sw_enable").as_deref(),
        Some("3,4")
    );
    assert_eq!(get("DSCP_TO_TC_MAP", "FABRICC", "26").as_deref(), Some("3"));
    assert_eq!(
        doc["DSCP_TO_TC_MAP"]["FABRICC"]
            .as_object()
            .map(|m| m.len()),
        Some(64)
    );
    assert_eq!(
        get("QUEUE", "Ethernet24|3", "wred_profile").as_deref(),
        Some("FABRICC_ECN_Q3_Ethernet24")
    );
    assert_eq!(
        get("QUEUE", "Ethernet0|3", "wred_profile").as_deref(),
        Some("FABRICC_ECN_Q3")
    );
    assert_eq!(
        get("WRED_PROFILE", "FABRICC_ECN_Q3", "green_min_threshold").as_deref(),
        Some("149952")
    );
    assert_eq!(
        get("WRED_PROFILE", "FABRICC_ECN_Q3", "ecn").as_deref(),
        Some("ecn_all")
    );
    assert_eq!(
        get("QUEUE", "Ethernet0|6", "scheduler").as_deref(),
        Some("FABRICC_Q6")
    );
    assert_eq!(
        get("PFC_WD", "GLOBAL", "POLL_INTERVAL").as_deref(),
        Some("100")
    );
    assert_eq!(
        get("CABLE_LENGTH", "AZURE", "Ethernet16").as_deref(),
        Some("40m")
    );
    assert_eq!(get("PORT", "Ethernet8", "speed").as_deref(), Some("400000"));
}

#[test]
fn sonic_validator_flags_a_broken_render() {
    // Break one reference by hand: the validator must notice.
    let mut doc = sonic_json(&leaf(SwitchOs::Sonic));
    doc["QUEUE"]["Ethernet0|3"]["wred_profile"] = serde_json::json!("NOPE");
    doc["PORT_QOS_MAP"]["Ethernet0"]["pfcwd_sw_enable"] = serde_json::json!("3,4,5");
    let errs = validate_sonic(&doc).join("\n");
    assert!(errs.contains("wred_profile `NOPE` missing"), "{errs}");
    assert!(errs.contains("not a subset"), "{errs}");
}

#[test]
fn sonic_refuses_what_buffermgrd_would_rewrite() {
    let t = templates();
    let mut ctx = leaf(SwitchOs::Sonic);
    if let Some(plan) = &mut ctx.sonic
        && let Some(pr) = &mut plan.ports[1].lossless_profile
    {
        pr.xoff += 1024; // same speed/cable as port 0, other headroom
    }
    let e = render_switch(&t, &ctx).expect_err("conflict");
    assert!(
        e.to_string().contains("pg_lossless_400000_5m_profile"),
        "{e}"
    );

    let mut ctx = leaf(SwitchOs::Sonic);
    ctx.watchdog = Some(Watchdog {
        detect_ms: 50,
        restore_ms: 400,
        poll_ms: 100,
        action: WatchdogAction::Drop,
        defaults: WatchdogDefaults::default(),
    });
    assert!(render_switch(&t, &ctx).is_err());
}

#[test]
fn host_script_passes_mlnx_qos_rules() {
    let a = render_host(&templates(), &host()).expect("host renders");
    let paths: Vec<&str> = a.iter().map(|a| a.path.as_str()).collect();
    assert_eq!(
        paths,
        ["hosts/gpu001/fabricc-roce.conf", "hosts/gpu001/nccl.env"]
    );
    let script = &script(&a);
    let errs = validate_mlnx_qos(script);
    assert!(errs.is_empty(), "{errs:#?}");
    assert!(script.starts_with("#!/bin/bash\n"));
    assert!(script.contains("set -uo pipefail"));
    // One literal command per group, each with the fabric's values.
    assert_eq!(script.matches("mlnx_qos -i \"$1\" --trust dscp").count(), 1);
    assert_eq!(script.matches("--prio_tc 0,1,2,3,4,5,6,7 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 40,0,0,50,10,0,0,0").count(), 1);
    assert!(script.contains("run cma_roce_tos -d \"$1\" -p \"$2\" -t 106"));
    assert!(script.contains("E_PFC=0,0,0,1,1,0,0,0\n"));
    // H3: the firmware owns the NIC buffers; the script never sets cable length or buffers.
    for gone in ["--cable_len", "--prio2buffer", "--buffer_size"] {
        assert!(!script.contains(gone), "{gone}");
    }
    // H4: the declared identity of nic1, the guess for nic2 and the warning about it.
    assert!(script.contains("# NIC=1 netdev=ens1f0np0 pci=0000:3b:00.0 port=1 peer="));
    assert!(script.contains("# NIC=2 rdma-device=mlx5_1 guessed=1 port=1 peer="));
    assert!(script.contains("WARNING: no identity is declared for some NICs"));
}

/// H2: the DSCP map is the fabric's, whole: 64 `set`s in one call, none of the NIC default
/// `dscp >> 3` (24–31 → 3) the switches do not share.
#[test]
fn host_dscp_map_is_whole_and_the_fabrics() {
    let a = render_host(&templates(), &host()).expect("host renders");
    let script = script(&a);
    let sets: Vec<&str> = script
        .split_whitespace()
        .filter(|w| w.starts_with("set,"))
        .collect();
    assert_eq!(sets.len(), 64);
    for (d, set) in sets.iter().enumerate() {
        let p = match d {
            26 => 3,
            48 => 6,
            _ => 0,
        };
        assert_eq!(*set, format!("set,{d},{p}"));
    }
    let call = script
        .split("set_dscp2prio() {")
        .nth(1)
        .and_then(|s| s.split("\n}").next())
        .expect("set_dscp2prio");
    assert!(!call.contains("--trust"), "{call}");
    assert_eq!(call.matches("run mlnx_qos").count(), 1, "one call: {call}");
}

#[test]
fn host_rejects_bad_qos() {
    let mut h = host();
    h.qos.tcbw = [40, 0, 0, 50, 0, 0, 0, 0];
    assert!(render_host(&templates(), &h).is_err());
    let mut h = host();
    h.qos.tcbw = [40, 0, 0, 50, 0, 0, 10, 0];
    h.qos.tsa[4] = Tsa::Strict;
    assert!(render_host(&templates(), &h).is_err());
    let mut h = host();
    h.qos.dscp2prio.pop();
    assert!(render_host(&templates(), &h).is_err());
    let mut h = host();
    h.qos.dscp2prio[5] = 8;
    assert!(render_host(&templates(), &h).is_err());
    let mut h = host();
    h.nics[1].rdma_device = None;
    assert!(
        render_host(&templates(), &h).is_err(),
        "a NIC with no identity at all"
    );
    let mut h = host();
    h.nics[1].netdev = Some("ens1f0np0".into());
    assert!(
        render_host(&templates(), &h).is_err(),
        "two NICs, one netdev"
    );
}

#[test]
fn host_nccl_env_gives_verbs_traffic_the_lossless_class() {
    let a = render_host(&templates(), &host()).expect("host renders");
    let env = &a
        .iter()
        .find(|a| a.path.ends_with("/nccl.env"))
        .expect("nccl.env")
        .contents;
    let vars: Vec<&str> = env
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    // nic1 is known by netdev/PCI only, so the RDMA names are left to the host (--collect).
    assert_eq!(
        vars,
        [
            "NCCL_IB_TC=106",
            "NCCL_IB_FIFO_TC=106",
            "NCCL_IB_ROCE_VERSION_NUM=2"
        ]
    );
    assert!(env.contains("NCCL_IB_TC=138 itself"), "H13: {env}");
    let mut h = host();
    h.nics[0].rdma_device = Some("mlx5_3".into());
    let a = render_host(&templates(), &h).expect("host renders");
    let env = &a
        .iter()
        .find(|a| a.path.ends_with("/nccl.env"))
        .expect("nccl.env")
        .contents;
    assert!(env.contains("\nNCCL_IB_HCA==mlx5_3:1,mlx5_1:1\n"), "{env}");
}

#[test]
fn host_script_is_valid_bash() {
    let a = render_host(&templates(), &host()).expect("host renders");
    let dir = std::env::temp_dir().join(format!("fabricc-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let path = dir.join("mlnx_qos.sh");
    std::fs::write(&path, script(&a)).expect("write script");
    let out = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cumulus_yaml_parses() {
    let a = render_switch(&templates(), &leaf(SwitchOs::Cumulus)).expect("cumulus renders");
    let yaml = a
        .iter()
        .find(|a| a.path.ends_with("nvue-qos.yaml"))
        .expect("nvue-qos.yaml");
    let doc: serde_yaml::Value = serde_yaml::from_str(&yaml.contents).expect("valid YAML");
    let items = doc.as_sequence().expect("a list of items");
    let set = items
        .iter()
        .find_map(|i| i.get("set"))
        .expect("a `- set:` item");
    assert_eq!(
        set["qos"]["pfc"]["default-global"]["cable-length"],
        serde_yaml::Value::from(30)
    );
    assert_eq!(
        set["interface"]["swp4"]["qos"]["congestion-control"]["profile"],
        serde_yaml::Value::from("fabricc-ecn-2")
    );
    assert!(
        !a.iter().any(|a| a.path.ends_with("nvue.sh")),
        "the program is not a switch's file (issue 36)"
    );
    let sh = render_programs(&templates(), [&leaf(SwitchOs::Cumulus)], "f").expect("programs");
    let sh = sh
        .iter()
        .find(|a| a.path == "programs/cumulus/nvue.sh")
        .expect("programs/cumulus/nvue.sh");
    // C2, C11, C16: the one patch, applied without a prompt; a failure detaches the pending
    // revision; the program applies the switch folder's YAML file, and nothing of a switch is in
    // it (one program for every Cumulus switch, issue 36 item 2).
    assert!(
        sh.contents
            .contains("\nnv config patch \"$patch\"\nnv config diff\n")
    );
    assert!(sh.contents.contains("\nnv config apply -y\n"));
    assert!(sh.contents.contains("trap 'nv config detach' ERR"));
    assert!(
        !sh.contents.contains("\nnv set "),
        "no `nv set` calls (C16)"
    );
    assert!(
        sh.contents
            .contains("\ncp \"$1/nvue-qos.yaml\" \"$patch\"\n")
    );
    assert!(
        !sh.contents.contains("leaf1") && !sh.contents.contains("swp"),
        "nothing of a switch in the program"
    );
}

// ---- escaping ------------------------------------------------------------------------------

const HOSTILE: &str = "evil\"; }\n# x {\ninterface Ethernet9\n  shutdown ! $(reboot) 'q'";

#[test]
fn hostile_descriptions_never_add_lines() {
    let t = templates();
    for os in ALL_OS {
        let plain = render_switch(&t, &leaf(os)).expect("renders");
        let mut ctx = leaf(os);
        ctx.description = Some(HOSTILE.into());
        for p in &mut ctx.ports {
            p.description = Some(HOSTILE.into());
        }
        let evil = render_switch(&t, &ctx).expect("renders");
        for (a, b) in plain.iter().zip(&evil) {
            assert_eq!(
                a.contents.lines().count(),
                b.contents.lines().count(),
                "{os:?} {}",
                a.path
            );
            assert!(!b.contents.contains("$(reboot)"), "{os:?} {}", a.path);
            assert!(!b.contents.contains("shutdown !"), "{os:?} {}", a.path);
        }
    }
    let plain = render_host(&t, &host()).expect("renders");
    let mut h = host();
    h.description = Some(HOSTILE.into());
    let evil = render_host(&t, &h).expect("renders");
    assert_eq!(
        plain[0].contents.lines().count(),
        evil[0].contents.lines().count()
    );
}

#[test]
fn hostile_names_are_rejected() {
    let t = templates();
    for bad in ["leaf1\nhostname x", "a;b", "x{y}", "#x", "a b", "a\"b"] {
        let mut ctx = leaf(SwitchOs::Eos);
        ctx.device = bad.into();
        assert!(
            matches!(render_switch(&t, &ctx), Err(RenderError::Invalid { .. })),
            "{bad:?}"
        );
        let mut ctx = leaf(SwitchOs::Junos);
        ctx.qos.classes[1].name = bad.into();
        assert!(render_switch(&t, &ctx).is_err(), "{bad:?}");
        let mut ctx = leaf(SwitchOs::Nxos);
        ctx.ports[0].name = bad.into();
        assert!(render_switch(&t, &ctx).is_err(), "{bad:?}");
        let mut ctx = leaf(SwitchOs::Comware);
        ctx.ports[0].name = bad.into();
        assert!(render_switch(&t, &ctx).is_err(), "comware port {bad:?}");
        let mut ctx = leaf(SwitchOs::Comware);
        ctx.qos.classes[1].name = bad.into();
        assert!(render_switch(&t, &ctx).is_err(), "comware class {bad:?}");
        let mut h = host();
        h.nics[0].netdev = Some(bad.into());
        assert!(render_host(&t, &h).is_err(), "{bad:?}");
    }
}

// ---- templates --------------------------------------------------------------------------------

#[test]
fn override_directory_replaces_one_template_and_errors_name_the_line() {
    let dir = std::env::temp_dir().join(format!("fabricc-tpl-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("eos")).expect("tmp dir");
    std::fs::write(dir.join("eos/qos.cfg"), "hostname {{ device.hostname }}\n").expect("write");
    let t = Templates::with_overrides(&dir).expect("override loads");
    let a = render_switch(&t, &leaf(SwitchOs::Eos)).expect("renders");
    let qos = a
        .iter()
        .find(|a| a.path.ends_with("qos.cfg"))
        .expect("qos.cfg");
    assert_eq!(qos.contents, "hostname leaf1\n");
    // other targets keep the embedded template
    assert!(
        render_switch(&t, &leaf(SwitchOs::Nxos)).expect("renders")[0]
            .contents
            .contains("system qos")
    );

    // a missing value is an error (strict undefined), naming template and line
    std::fs::write(
        dir.join("eos/qos.cfg"),
        "hostname {{ device.hostname }}\n{{ device.nope }}\n",
    )
    .expect("write");
    let t = Templates::with_overrides(&dir).expect("override loads");
    let e = render_switch(&t, &leaf(SwitchOs::Eos)).expect_err("strict undefined");
    let msg = e.to_string();
    assert!(
        msg.contains("eos/qos.cfg") && msg.contains("line 2"),
        "{msg}"
    );

    std::fs::write(dir.join("eos/running-confg"), "typo\n").expect("write");
    let e = Templates::with_overrides(&dir)
        .err()
        .expect("unknown override file");
    assert!(e.to_string().contains("running-confg"), "{e}");
    std::fs::remove_file(dir.join("eos/running-confg")).expect("remove");

    std::fs::write(dir.join("eos/qos.cfg"), "{% for x in %}\n").expect("write");
    let e = Templates::with_overrides(&dir).err().expect("syntax error");
    assert!(e.to_string().contains("eos/qos.cfg"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// H7: with no NIC (and no tools) a dry run says a real run would fail: exit 3, not 0.
#[test]
fn host_script_dry_run_fails_where_a_real_run_would() {
    let a = render_host(&templates(), &host()).expect("host renders");
    let dir = std::env::temp_dir().join(format!("fabricc-dry-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("root")).expect("tmp dir");
    let path = dir.join("mlnx_qos.sh");
    let (program, settings) = program_and_settings(&a);
    std::fs::write(&path, program).expect("write program");
    std::fs::write(dir.join("fabricc-roce.conf"), settings).expect("write settings");
    let run = |arg: &str| {
        std::process::Command::new("bash")
            .arg(&path)
            .arg("--settings")
            .arg(dir.join("fabricc-roce.conf"))
            .arg(arg)
            .env("FABRICC_SYSROOT", dir.join("root"))
            .output()
            .expect("bash runs")
    };
    let out = run("--dry-run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("preflight"), "{stderr}");
    assert_eq!(run("--bogus").status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- scenario variations ------------------------------------------------------------------

#[test]
fn sonic_port_without_pfc_and_static_thresholds() {
    let mut ctx = leaf(SwitchOs::Sonic);
    // Port 0 runs no PFC (an override).
    ctx.ports[0].lossless_priorities.clear();
    ctx.ports[0].headroom.clear();
    if let Some(plan) = &mut ctx.sonic {
        plan.ports[0].lossless_profile = None;
    }
    let doc = sonic_json(&ctx);
    let errs = validate_sonic(&doc);
    assert!(errs.is_empty(), "{errs:#?}");
    assert!(doc["BUFFER_PG"].get("Ethernet0|3-4").is_none());
    assert!(doc["PORT_QOS_MAP"]["Ethernet0"].get("pfc_enable").is_none());
    assert!(doc["PFC_WD"].get("Ethernet0").is_none());
    assert_eq!(
        doc["BUFFER_QUEUE"]["Ethernet0|0-5"]["profile"],
        "q_lossy_profile"
    );

    // A static pause threshold: SONiC's lossless pools are dynamic in both vendors' layouts.
    for p in &mut ctx.ports {
        p.pause_threshold = PauseThreshold::Static { bytes: 40_000 };
    }
    assert!(matches!(
        render_switch(&templates(), &ctx),
        Err(RenderError::Unsupported { .. })
    ));
}

#[test]
fn sonic_non_contiguous_lossless_priorities_become_ranges() {
    let mut ctx = leaf(SwitchOs::Sonic);
    // roce-bounced moves to priority 5 (tc/queue 5): PGs 3 and 5 are separate ranges.
    ctx.qos.classes[2].priority = 5;
    ctx.qos.classes[2].tc = 5;
    ctx.qos.classes[2].queue = 5;
    ctx.qos.lossless_priorities = vec![3, 5];
    for p in &mut ctx.ports {
        p.lossless_priorities = vec![3, 5];
        p.headroom[1].priority = 5;
        p.ecn[1].queue = 5;
    }
    let doc = sonic_json(&ctx);
    assert!(
        validate_sonic(&doc).is_empty(),
        "{:#?}",
        validate_sonic(&doc)
    );
    assert_eq!(
        doc["BUFFER_PG"]["Ethernet0|3"]["profile"],
        "pg_lossless_400000_5m_profile"
    );
    assert_eq!(
        doc["BUFFER_PG"]["Ethernet0|5"]["profile"],
        "pg_lossless_400000_5m_profile"
    );
    assert_eq!(
        doc["BUFFER_QUEUE"]["Ethernet0|4"]["profile"],
        "q_lossy_profile"
    );
    assert_eq!(doc["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"], "3,5");
    assert_eq!(doc["TC_TO_PRIORITY_GROUP_MAP"]["FABRICC"]["5"], "5");
}

#[test]
fn watchdog_off_removes_every_watchdog_line() {
    let t = templates();
    for os in ALL_OS {
        let mut ctx = leaf(os);
        ctx.watchdog = None;
        let out: String = render_switch(&t, &ctx)
            .expect("renders")
            .iter()
            .map(|a| a.contents.clone())
            .collect();
        // SONiC's apply.sh and README name the PFC_WD table they own; the fragment is what
        // configures it.
        let out = if os == SwitchOs::Sonic {
            serde_json::to_string(&sonic_json(&ctx)).expect("serializes")
        } else {
            out
        };
        // Cumulus: the `- unset:` item removes what an earlier build enabled (C13); the
        // settings themselves (`- set:`) name no watchdog.
        let out = if os == SwitchOs::Cumulus {
            let yaml = render_switch(&t, &ctx)
                .expect("renders")
                .into_iter()
                .find(|a| a.path.ends_with("nvue-qos.yaml"))
                .expect("nvue-qos.yaml");
            assert!(
                yaml.contents.contains("\n    qos:\n")
                    && yaml.contents.contains("\n      pfc-watchdog:\n"),
                "the unset item removes the watchdog"
            );
            crate::support::nv_set_lines(&yaml.contents)
        } else {
            out
        };
        // EOS and NX-OS state the watchdog off: only removals (`no …`) and comments may
        // name it, so that a watchdog an earlier build turned on goes (issue 33).
        let out: String = out
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                !(matches!(os, SwitchOs::Eos | SwitchOs::Nxos)
                    && (l.starts_with("no ") || l.starts_with('!')))
            })
            .collect::<Vec<_>>()
            .join("\n");
        for needle in ["watchdog", "watch-dog", "PFC_WD", "pfcwd"] {
            assert!(!out.contains(needle), "{os:?} still has {needle}");
        }
    }
}

#[test]
fn context_snapshots() {
    // The contexts themselves, so a golden diff shows whether the model or a template moved.
    let leaf = serde_json::to_string_pretty(&leaf(SwitchOs::Sonic)).expect("serializes") + "\n";
    let host = serde_json::to_string_pretty(&host()).expect("serializes") + "\n";
    let artifact = |path: &str, contents: String| Artifact {
        path: path.into(),
        contents,
        device: String::new(),
        kind: ArtifactKind::Report,
        target: String::new(),
    };
    check_golden(
        "contexts",
        &[
            artifact("leaf1.sonic.json", leaf),
            artifact("gpu001.json", host),
        ],
    );
}

#[test]
fn render_all_is_sorted_by_path() {
    let switches: Vec<SwitchContext> = ALL_OS
        .iter()
        .enumerate()
        .map(|(i, &os)| {
            let mut ctx = leaf(os);
            ctx.device = format!("leaf{}", 6 - i);
            ctx
        })
        .collect();
    let all = render_all(&templates(), &switches, &[host()]).expect("renders");
    let paths: Vec<&str> = all.iter().map(|a| a.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted);
    // The switches' files (EOS with its ports.cfg; SONiC's fragment and fabricc-device.json,
    // and its program, apply.sh and README.md, once; VRP's and Comware's qos.cfg), the host's 2
    // files and its driver's program, unit and rule (issue 36: once per driver), and the
    // README that explains the host files, once.
    assert_eq!(all.len(), 18);
    assert_eq!(paths[0], "hosts/gpu001/fabricc-roce.conf");
}

// ---- platform- and release-aware rendering (issue 15: E6, E8, E16, N1, C5) ----------------

fn with_platform(
    mut ctx: SwitchContext,
    name: &str,
    asic: fabricc::catalogue::AsicFamily,
) -> SwitchContext {
    ctx.platform = Some(PlatformContext {
        name: name.into(),
        asic: Some(asic),
        breakouts: Vec::new(),
    });
    ctx
}

fn eos_file(ctx: &SwitchContext) -> String {
    render_switch(&templates(), ctx)
        .expect("renders")
        .into_iter()
        .find(|a| a.path.ends_with("qos.cfg"))
        .expect("qos.cfg")
        .contents
}

fn codes(ctx: &SwitchContext) -> Vec<(NoteKind, Property)> {
    preflight_switch(ctx)
        .expect("expressible")
        .into_iter()
        .map(|n| (n.kind, n.property))
        .collect()
}

#[test]
fn eos_queues_and_mmu_follow_the_asic_family() {
    use fabricc::catalogue::AsicFamily;
    // Broadcom XGS: uc-tx-queue and the switch-wide MMU queue profile (E6, E8).
    let xgs = with_platform(
        leaf(SwitchOs::Eos),
        "arista-7060x6-64pe",
        AsicFamily::Tomahawk5,
    );
    let f = eos_file(&xgs);
    assert!(
        f.contains("\n   uc-tx-queue 3\n") && !f.contains("\n   tx-queue "),
        "{f}"
    );
    let largest: u64 = xgs
        .ports
        .iter()
        .map(|p| p.headroom.iter().map(|h| h.xoff_bytes).sum::<u64>())
        .max()
        .expect("ports");
    assert!(
        f.contains(&format!(
            "platform trident mmu queue profile FABRICC_LOSSLESS\n    ingress headroom bytes {largest}\n    ingress priority-group 3 threshold 1\n    ingress priority-group 4 threshold 1\n"
        )),
        "{f}"
    );
    assert!(
        f.trim_end()
            .ends_with("platform trident mmu queue profile FABRICC_LOSSLESS apply\n!"),
        "{f}"
    );
    assert!(!codes(&xgs).contains(&(NoteKind::PlatformDependent, Property::Platform)));
    // alpha 1/4 is written as EOS takes it; 2^4 is beyond EOS's 8 and refused.
    let mut quarter = xgs.clone();
    quarter.buffer.queue_log2_alpha = -2;
    assert!(eos_file(&quarter).contains("ingress priority-group 3 threshold 1/4\n"));
    let mut big = xgs.clone();
    big.buffer.queue_log2_alpha = 4;
    assert!(preflight_switch(&big).is_err());

    // Sand: tx-queue, no MMU lines, headroom left to the switch (FAB905).
    let sand = with_platform(
        leaf(SwitchOs::Eos),
        "arista-7280r4-32qf-32df",
        AsicFamily::Jericho3,
    );
    let f = eos_file(&sand);
    assert!(
        f.contains("\n   tx-queue 3\n") && !f.contains("uc-tx-queue") && !f.contains("mmu"),
        "{f}"
    );
    assert!(codes(&sand).contains(&(NoteKind::DeviceManaged, Property::Headroom)));

    // No platform: tx-queue, and a warning that XGS refuses it.
    let unknown = leaf(SwitchOs::Eos);
    assert!(eos_file(&unknown).contains("\n   tx-queue 3\n"));
    assert!(codes(&unknown).contains(&(NoteKind::PlatformDependent, Property::Platform)));
}

#[test]
fn eos_queue_7_on_sand_depends_on_the_release() {
    use fabricc::catalogue::AsicFamily;
    let mut ctx = with_platform(
        leaf(SwitchOs::Eos),
        "arista-7280r4-32qf-32df",
        AsicFamily::Jericho3,
    );
    let cnp = ctx
        .qos
        .classes
        .iter_mut()
        .find(|c| c.cnp)
        .expect("cnp class");
    cnp.priority = 7;
    cnp.tc = 7;
    cnp.queue = 7;
    ctx.release = Some(Release::new(4, 32));
    let e = preflight_switch(&ctx).expect_err("queue 7 is reserved on Sand before 4.33");
    assert!(e.to_string().contains("before EOS 4.33"), "{e}");
    ctx.release = Some(Release::new(4, 33));
    assert!(codes(&ctx).contains(&(NoteKind::PlatformDependent, Property::ClassQueues)));
    ctx.release = None; // newest
    assert!(preflight_switch(&ctx).is_ok());
}

#[test]
fn watchdog_timers_are_reported_only_when_the_fabric_states_them() {
    for os in [SwitchOs::Nxos, SwitchOs::Cumulus] {
        let stated = leaf(os); // restore 400 ms, stated
        let kinds = codes(&stated);
        assert!(
            kinds.iter().any(|(k, p)| *k == NoteKind::NotRendered
                && matches!(p, Property::WatchdogDetect | Property::WatchdogRestore)),
            "{os:?}: {kinds:?}"
        );
        let mut defaults = leaf(os);
        if let Some(w) = defaults.watchdog.as_mut() {
            w.defaults = WatchdogDefaults {
                detect: true,
                restore: true,
                poll: true,
            };
        }
        let kinds = codes(&defaults);
        assert!(
            !kinds.iter().any(|(k, p)| *k == NoteKind::NotRendered
                && matches!(p, Property::WatchdogDetect | Property::WatchdogRestore)),
            "{os:?}: language defaults are not a request: {kinds:?}"
        );
    }
}

#[test]
fn port_speed_is_a_finding_only_where_the_breakout_is_not_written() {
    use fabricc::catalogue::AsicFamily;
    use fabricc::render::Breakout;
    let cages = |lanes: Option<u32>| -> Vec<Breakout> {
        (1..=3)
            .map(|cage| Breakout {
                cage,
                ways: 2,
                speed_gbps: 400,
                lanes,
                ports: Vec::new(),
            })
            .collect()
    };
    for (os, lanes, note) in [
        // Cumulus, NX-OS and EOS (with the cage's lanes) write the breakout: no finding.
        (SwitchOs::Cumulus, Some(4), false),
        (SwitchOs::Nxos, Some(4), false),
        (SwitchOs::Eos, Some(4), false),
        // EOS without the lanes, and Junos off the QFX5240, cannot: FAB905 says so.
        (SwitchOs::Eos, None, true),
        (SwitchOs::Junos, Some(4), true),
        // VRP: `port split` is not written.
        (SwitchOs::Vrp, Some(4), true),
    ] {
        assert!(
            !codes(&leaf(os))
                .iter()
                .any(|(_, p)| *p == Property::PortHardware),
            "{os:?}: port speed/FEC is no finding on unbroken ports"
        );
        let mut ctx = with_platform(leaf(os), "nvidia-sn5600", AsicFamily::Spectrum4);
        if let Some(p) = ctx.platform.as_mut() {
            p.breakouts = cages(lanes);
        }
        let notes = preflight_switch(&ctx).expect("expressible");
        let n = notes.iter().find(|n| n.property == Property::PortHardware);
        assert_eq!(n.is_some(), note, "{os:?}: {notes:?}");
        if let Some(n) = n {
            assert_eq!(n.kind, NoteKind::DeviceManaged);
            assert!(
                n.text
                    .contains("cages 1-3 of nvidia-sn5600 are broken out into 2 ports"),
                "{}",
                n.text
            );
        }
    }
}

// ---- load balancing per target and platform (issue 20 item 4) -----------------------------

/// A leaf of `os` asking `hash`, `mode`, `flowlet-gap` (ns) and `seed`, on `platform`.
fn lb_leaf(
    os: SwitchOs,
    platform: Option<(&str, Option<fabricc::catalogue::AsicFamily>)>,
    hash: &[&'static str],
    mode: Option<&'static str>,
    gap_ns: Option<u64>,
    seed: Option<u64>,
) -> SwitchContext {
    let mut ctx = leaf(os);
    ctx.platform = platform.map(|(name, asic)| PlatformContext {
        name: name.into(),
        asic,
        breakouts: Vec::new(),
    });
    ctx.hash_fields = (!hash.is_empty()).then(|| hash.to_vec());
    ctx.lb = LbContext {
        mode,
        flowlet_gap_ns: gap_ns,
        seed,
        seed_untiered: false,
        switch_ports: vec![ctx.ports[0].name.clone()],
    };
    ctx
}

/// Every file of the switch, joined; each file's load-balancing lines must pass LB-1…LB-4.
fn all_text(ctx: &SwitchContext) -> String {
    render_switch(&templates(), ctx)
        .expect("renders")
        .into_iter()
        .map(|a| {
            let errs = fabricc::render::lb::validate_lines(&a.path, &a.contents);
            assert!(errs.is_empty(), "{}", errs.join("\n"));
            if a.path.ends_with("nvue-qos.yaml") {
                // NVUE's settings as `nv set` lines: the load-balancing grammar reads those.
                let lines = crate::support::nv_set_lines(&a.contents);
                let errs = fabricc::render::lb::validate_lines("nvue.sh", &lines);
                assert!(errs.is_empty(), "{}", errs.join("\n"));
                a.contents + &lines
            } else {
                a.contents
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every case: what is written (lines the files hold) and what is not (the FAB930 reason).
#[test]
fn load_balance_is_written_where_the_platform_can_and_fab930_says_why_elsewhere() {
    use fabricc::catalogue::AsicFamily as A;
    use fabricc::render::lb::{Prop, Verdict, verdict};
    let five = ["src-ip", "dst-ip", "src-port", "dst-port", "protocol"];
    let four = ["src-ip", "dst-ip", "src-port", "dst-port"];
    let qp = [
        "src-ip", "dst-ip", "src-port", "dst-port", "protocol", "roce-qp",
    ];
    let th5 = Some(("arista-7060x6-64pe", Some(A::Tomahawk5)));
    let j3 = Some(("arista-7280r4-32qf-32df", Some(A::Jericho3)));
    let sn5600 = Some(("nvidia-sn5600", Some(A::Spectrum4)));
    let sn4700 = Some(("nvidia-sn4700", Some(A::Spectrum3)));
    let qfx5240 = Some(("juniper-qfx5240-64od", None));
    let qfx5230 = Some(("juniper-qfx5230-64cd", None));
    struct Case {
        ctx: SwitchContext,
        prop: Prop,
        /// `Ok(lines)`: written (each line in the files); `Err(text)`: the FAB930 reason.
        want: Result<&'static [&'static str], &'static str>,
    }
    use SwitchOs::*;
    let cases = [
        // Cumulus: seed, adaptive routing on Spectrum-4 only.
        Case {
            ctx: lb_leaf(Cumulus, sn5600, &four, Some("adaptive"), None, Some(7)),
            prop: Prop::Seed,
            want: Ok(&["nv set system forwarding hash-seed 7"]),
        },
        Case {
            ctx: lb_leaf(Cumulus, sn5600, &four, Some("adaptive"), None, None),
            prop: Prop::Mode,
            want: Ok(&[
                "nv set router adaptive-routing state enabled",
                "nv set interface swp1 router adaptive-routing state enabled",
                "adaptive-routing:\n        state: 'enabled'",
            ]),
        },
        Case {
            ctx: lb_leaf(Cumulus, sn4700, &four, Some("adaptive"), None, None),
            prop: Prop::Mode,
            want: Err("adaptive routing on Spectrum-4 only, not on spectrum-3"),
        },
        Case {
            ctx: lb_leaf(Cumulus, None, &four, Some("adaptive"), None, None),
            prop: Prop::Mode,
            want: Err("the model names no `platform`"),
        },
        Case {
            ctx: lb_leaf(Cumulus, sn5600, &four, Some("flowlet"), Some(16_000), None),
            prop: Prop::FlowletGap,
            want: Err("NVUE has no flowlet timer"),
        },
        Case {
            ctx: lb_leaf(Cumulus, sn5600, &qp, None, None, None),
            prop: Prop::Hash,
            want: Err("no field for the RoCEv2 BTH destination QP"),
        },
        Case {
            ctx: lb_leaf(Cumulus, sn5600, &four, None, None, Some(1 << 33)),
            prop: Prop::Seed,
            want: Err("`hash-seed` takes 0-4294967295"),
        },
        // EOS: Strata fields; Sand and no platform keep their default.
        Case {
            ctx: lb_leaf(Eos, th5, &four, None, None, None),
            prop: Prop::Hash,
            want: Ok(&[
                "ip load-sharing trident fields ip source-ip destination-ip source-port destination-port",
            ]),
        },
        Case {
            ctx: lb_leaf(Eos, th5, &five, None, None, None),
            prop: Prop::Hash,
            want: Err("no protocol keyword"),
        },
        Case {
            ctx: lb_leaf(Eos, j3, &four, None, None, None),
            prop: Prop::Hash,
            want: Err("Sand (Jericho) platform"),
        },
        Case {
            ctx: lb_leaf(Eos, None, &four, None, None, None),
            prop: Prop::Hash,
            want: Err("the model names no `platform`"),
        },
        Case {
            ctx: lb_leaf(Eos, th5, &four, None, None, Some(3)),
            prop: Prop::Seed,
            want: Err("no public source for EOS's hash seed"),
        },
        // NX-OS: one line for the fields and the seed.
        Case {
            ctx: lb_leaf(Nxos, None, &four, None, None, Some(2)),
            prop: Prop::Seed,
            want: Ok(&[
                "ip load-sharing address source-destination port source-destination universal-id 2",
            ]),
        },
        Case {
            ctx: lb_leaf(Nxos, None, &["dst-ip", "dst-port"], None, None, None),
            prop: Prop::Hash,
            want: Err(
                "fabricc writes `ip load-sharing address` only with source and destination together",
            ),
        },
        Case {
            ctx: lb_leaf(Nxos, None, &["src-ip", "dst-port"], None, None, None),
            prop: Prop::Hash,
            want: Err(
                "fabricc writes `ip load-sharing address` only with source and destination together",
            ),
        },
        Case {
            ctx: lb_leaf(Nxos, None, &[], None, None, Some(2)),
            prop: Prop::Seed,
            want: Err("on the `ip load-sharing address` line"),
        },
        Case {
            ctx: lb_leaf(Nxos, None, &four, Some("flowlet"), None, None),
            prop: Prop::Mode,
            want: Err("no public source for NX-OS dynamic load balancing"),
        },
        // Junos: `no-…` for the fields left out, DLB on the QFX5230/5240.
        Case {
            ctx: lb_leaf(Junos, qfx5230, &["src-ip", "dst-ip"], None, None, None),
            prop: Prop::Hash,
            want: Ok(&[
                // Right under `enhanced-hash-key`: its `family inet` is the MX form, with no
                // `no-protocol` (Juniper/yang 24.2R1.17, junos-qfx-conf-forwarding-options).
                "enhanced-hash-key {\n                inet {\n                    no-l4-source-port;\n                    no-l4-destination-port;\n                    no-protocol;",
                "                inet6 {\n                    no-l4-source-port;\n                    no-l4-destination-port;\n                    no-next-header;",
            ]),
        },
        Case {
            ctx: lb_leaf(Junos, qfx5240, &qp, None, None, None),
            prop: Prop::Hash,
            want: Ok(&[]),
        },
        Case {
            ctx: lb_leaf(Junos, qfx5230, &qp, None, None, None),
            prop: Prop::Hash,
            want: Err("only on the QFX5240"),
        },
        Case {
            ctx: lb_leaf(Junos, qfx5240, &four, Some("flowlet"), Some(256_000), None),
            prop: Prop::FlowletGap,
            want: Ok(&["flowlet {\n                        inactivity-interval 256;"]),
        },
        Case {
            ctx: lb_leaf(Junos, qfx5240, &four, Some("per-packet"), None, None),
            prop: Prop::Mode,
            want: Ok(&["ecmp-dlb {\n                    per-packet;"]),
        },
        Case {
            ctx: lb_leaf(Junos, qfx5240, &four, Some("adaptive"), None, None),
            prop: Prop::Mode,
            want: Err("no adaptive routing (write `mode flowlet`)"),
        },
        Case {
            ctx: lb_leaf(Junos, None, &four, Some("flowlet"), None, None),
            prop: Prop::Mode,
            want: Err("`ecmp-dlb` exists on QFX5000 platforms only"),
        },
        Case {
            ctx: lb_leaf(Junos, qfx5240, &four, None, None, Some(4)),
            prop: Prop::Seed,
            want: Err("no QFX5000 hash seed is documented"),
        },
        // SONiC: the hash only.
        Case {
            ctx: lb_leaf(Sonic, None, &four, None, None, Some(4)),
            prop: Prop::Seed,
            want: Err("SONiC's YANG models have no hash seed"),
        },
    ];
    for (i, c) in cases.iter().enumerate() {
        let v = verdict(&c.ctx, c.prop).expect("asked");
        match (&c.want, &v) {
            (Ok(lines), Verdict::Written) => {
                let text = all_text(&c.ctx);
                for l in *lines {
                    assert!(text.contains(l), "case {i}: `{l}` missing from\n{text}");
                }
            }
            (Err(why), Verdict::Not(r) | Verdict::Partly(r)) => {
                assert!(r.contains(why), "case {i}: `{why}` not in `{r}`");
            }
            _ => panic!("case {i}: {v:?}, want {:?}", c.want),
        }
    }
    // What is not written leaves no line behind.
    let none = all_text(&lb_leaf(Eos, j3, &four, Some("flowlet"), None, Some(3)));
    assert!(!none.contains("load-sharing"), "{none}");
    let none = all_text(&lb_leaf(
        Cumulus,
        sn4700,
        &four,
        Some("adaptive"),
        None,
        None,
    ));
    assert!(!none.contains("adaptive-routing"), "{none}");
    // Before 5.15 NVUE spells it `enable on`.
    let mut old = lb_leaf(Cumulus, sn5600, &four, Some("adaptive"), None, None);
    old.release = Some(Release::new(5, 14));
    assert!(all_text(&old).contains("nv set router adaptive-routing enable on"));
}
