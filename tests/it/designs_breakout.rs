//! Issue 18 item 2: published designs whose switch cages are broken out. Each fixture has the
//! counts its comment derives (switches per tier, links, ports), and every port name a target
//! writes for a link end is one the platform has: a sub-port of one of its cages in one of the
//! catalogue's breakout modes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use fabricc::catalogue::Platform;
use fabricc::lower::vendor_port_name;
use fabricc::model::{DeviceId, Fabric, Limits, SwitchId};
use fabricc::pipeline;
use fabricc::source::Sources;
use fabricc::syntax::ast::Os;

fn fabric(name: &str) -> Fabric {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics/designs")
        .join(name);
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &path, &Limits::default()).expect("readable");
    assert_eq!(c.errors(), 0, "{name}: {:?}", c.diagnostics);
    c.fabric.expect("resolves")
}

fn tier_counts(f: &Fabric) -> Vec<usize> {
    let mut by_tier: BTreeMap<u8, usize> = BTreeMap::new();
    for s in &f.switches {
        *by_tier.entry(s.tier.map_or(0, |t| t.value)).or_default() += 1;
    }
    by_tier.into_values().collect()
}

/// Every name `os` gives a port of `p`: each cage whole, and each of its sub-ports in each
/// breakout mode the catalogue lists for it (or, for a platform without cages in the
/// catalogue, `cages` cages in `ways`).
fn platform_names(p: &Platform, os: Os, cages: u32, ways: &[u32]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for cage in 0..cages {
        for &split in ways {
            for sub in 0..split {
                if let Some(n) = p.port_name(os, cage, split, sub) {
                    out.insert(n);
                }
            }
        }
    }
    out
}

/// `(switch, port)` of every switch end of every link, with the vendor's name.
fn switch_ends(f: &Fabric) -> Vec<(SwitchId, u32, u64, String)> {
    let mut out = Vec::new();
    for l in &f.links {
        for e in [l.a, l.b] {
            if let DeviceId::Switch(s) = e.device {
                out.push((s, e.port, l.speed.get(), vendor_port_name(f, s, e.port)));
            }
        }
    }
    out
}

#[test]
fn superpod_4su_on_sn5600_breaks_every_cage_out_2x400g() {
    let f = fabric("superpod-4su-sn5600.fab");
    // 4 SUs of 32 DGX nodes, 8 NICs each; 2 rail leaves per rail; 8 spines.
    assert_eq!(f.hosts.len(), 128);
    assert_eq!(
        f.hosts.iter().map(|h| h.fabric_ports()).sum::<usize>(),
        1024
    );
    // Two dual-port BlueField-3 storage NICs per DGX (issue 18 item 4): on the host, no rail,
    // no link.
    assert_eq!(
        f.hosts.iter().map(|h| h.nics.len()).sum::<usize>(),
        128 * 12
    );
    assert!(f.hosts.iter().all(|h| {
        h.nics[8..]
            .iter()
            .all(|n| n.role == fabricc::model::NicRole::Storage && n.link.is_none())
    }));
    assert_eq!(tier_counts(&f), vec![16, 8]);
    let host_links = f
        .links
        .iter()
        .filter(|l| {
            matches!(l.a.device, DeviceId::Host(_)) || matches!(l.b.device, DeviceId::Host(_))
        })
        .count();
    assert_eq!((host_links, f.links.len() - host_links), (1024, 1024));
    // Every switch uses all 128 sub-ports, every one at 400G.
    let ends = switch_ends(&f);
    assert_eq!(ends.len(), 24 * 128);
    assert!(ends.iter().all(|e| e.2 == 400_000));
    let p = f.switch_model(SwitchId(0)).platform.expect("nvidia-sn5600");
    let names = platform_names(p, Os::Cumulus, p.cage_count(), &[1, 2, 4]);
    let mut per_switch: BTreeMap<SwitchId, BTreeSet<String>> = BTreeMap::new();
    for (s, _, _, name) in &ends {
        assert!(names.contains(name), "{name} is not an SN5600 port");
        assert!(
            name.contains('s'),
            "{name}: a 400G port on an 800G cage is a sub-port"
        );
        assert!(
            per_switch.entry(*s).or_default().insert(name.clone()),
            "{name} used twice"
        );
    }
    assert_eq!(per_switch.values().map(BTreeSet::len).min(), Some(128));
    assert!(
        per_switch
            .values()
            .all(|n| n.contains("swp1s0") && n.contains("swp64s1"))
    );
}

#[test]
fn amd_mi300x_jvd_on_qfx5240_breaks_out_the_host_cages_only() {
    let f = fabric("amd-mi300x-jvd-qfx5240.fab");
    assert_eq!(f.hosts.len(), 64);
    assert_eq!(f.hosts.iter().map(|h| h.nics.len()).sum::<usize>(), 512);
    assert_eq!(tier_counts(&f), vec![8, 4]);
    let host_links = f
        .links
        .iter()
        .filter(|l| {
            matches!(l.a.device, DeviceId::Host(_)) || matches!(l.b.device, DeviceId::Host(_))
        })
        .count();
    assert_eq!((host_links, f.links.len() - host_links), (512, 256));
    let p = f
        .switch_model(SwitchId(0))
        .platform
        .expect("juniper-qfx5240-64od");
    // The catalogue has no QFX5240 cages (no Juniper source reached): its 64 cages, whole or
    // in the 2-way mode of the JVD's `number-of-sub-ports 2`.
    let names = platform_names(p, Os::Junos, 64, &[1, 2]);
    for (s, port, speed, name) in switch_ends(&f) {
        assert!(names.contains(&name), "{name} is not a QFX5240 port");
        let leaf = f.switch(s).tier.map(|t| t.value) == Some(1);
        match (leaf, speed) {
            // Host ports: sub-ports of the first 32 cages.
            (true, 400_000) => {
                assert!(port < 64 && name.contains(':'), "{name}");
            }
            // Leaf uplinks and every spine port: whole cages.
            (_, 800_000) => assert!(!name.contains(':'), "{name}"),
            other => panic!("{name}: unexpected {other:?}"),
        }
    }
}

/// Issue 35 item 4: the Ascend 910B cluster on CloudEngine CE8851s. Counts as its comment
/// derives them; every NPU port on a 400GE cage split 2 x 200GE (behind the switch's 32
/// cages of 100GE, so the leaf's port groups are written in another order than its cages),
/// every leaf uplink a whole 100GE cage, every spine port a 100GE port (whole, or a 400GE
/// cage split 4 ways); no warning, no deadlock.
#[test]
fn ascend_910b_on_ce8851_puts_every_npu_on_a_split_400ge_cage() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics/designs/huawei-ascend-910b-ce8851.fab");
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &path, &Limits::default()).expect("readable");
    let warnings: Vec<&str> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity <= fabricc::diagnostic::Severity::Warning)
        .map(|d| d.message.as_str())
        .collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    let f = c.fabric.as_ref().expect("resolves");
    assert_eq!(f.hosts.len() * 8, 1024);
    assert_eq!(tier_counts(f), vec![64, 32]);
    assert_eq!(f.links.len(), 1024 + 64 * 32);
    let p = f
        .switch_model(SwitchId(0))
        .platform
        .expect("huawei-ce8851-32cq8dq-p");
    let names = platform_names(p, Os::Vrp, p.cage_count(), &[1, 2, 4]);
    let mut used: BTreeSet<(SwitchId, String)> = BTreeSet::new();
    for (s, _, speed, name) in switch_ends(f) {
        assert!(names.contains(&name), "{name} is not a CE8851 port");
        assert!(used.insert((s, name.clone())), "{name} used twice");
        let leaf = f.switch(s).tier.map(|t| t.value) == Some(1);
        match (leaf, speed) {
            (true, 200_000) => assert!(name.starts_with("400GE1/0/") && name.contains(':')),
            (true, 100_000) => assert!(name.starts_with("100GE1/0/") && !name.contains(':')),
            (false, 100_000) => assert!(
                name.starts_with("100GE1/0/")
                    || name.starts_with("400GE1/0/") && name.contains(':')
            ),
            other => panic!("{name}: unexpected {other:?}"),
        }
    }
    let d = c
        .facts
        .as_ref()
        .and_then(|x| x.deadlock.clone())
        .expect("deadlock facts");
    assert!(!d.possible);
}
