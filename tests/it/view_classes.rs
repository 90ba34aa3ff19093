//! View classes (`render::view_class`, issue 19): `check` views each class of devices that
//! render alike once. These tests compare the per-class results with one view per device —
//! on every fixture that lowers, and on lowered fabrics mutated device by device (names
//! made invalid, ports, QoS, buffers, releases, NICs changed) so that classes split, merge
//! and fail — and require them to be identical, device by device.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fabricc::lower::Lowered;
use fabricc::model::Limits;
use fabricc::pipeline;
use fabricc::render::view_class::{preflight_hosts, preflight_switches};
use fabricc::render::{
    Ecn, Fec, HostContext, Release, Scheduling, SwitchContext, preflight_host, preflight_switch,
};
use fabricc::source::Sources;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fabs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            fabs(&p, out);
        } else if p.extension().is_some_and(|e| e == "fab") {
            out.push(p);
        }
    }
}

fn lowered(path: &Path) -> Option<Lowered> {
    let mut sources = Sources::new();
    pipeline::check(&mut sources, path, &Limits::default())
        .ok()
        .and_then(|c| c.lowered)
}

/// Asserts the per-class results are the per-device ones; returns how many devices failed.
fn assert_same(switches: &[SwitchContext], hosts: &[HostContext], what: &str) -> usize {
    let by_class = preflight_switches(switches);
    let mut errors = by_class.iter().filter(|r| r.is_err()).count();
    assert_eq!(by_class.len(), switches.len(), "{what}");
    for (s, r) in switches.iter().zip(&by_class) {
        assert_eq!(r, &preflight_switch(s), "{what}: switch `{}`", s.device);
    }
    let by_class = preflight_hosts(hosts);
    assert_eq!(by_class.len(), hosts.len(), "{what}");
    for (h, r) in hosts.iter().zip(&by_class) {
        assert_eq!(r, &preflight_host(h), "{what}: host `{}`", h.host);
    }
    errors += by_class.iter().filter(|r| r.is_err()).count();
    errors
}

/// Every fixture small enough for a debug test (the 16k and 100k clusters are the same
/// tiers as cluster-2048, larger), lowered once for both tests of this module.
fn fixtures() -> &'static [(PathBuf, Lowered)] {
    static ALL: OnceLock<Vec<(PathBuf, Lowered)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut paths = Vec::new();
        fabs(&root().join("fixtures"), &mut paths);
        paths
            .into_iter()
            .filter(|p| {
                let s = p.to_string_lossy();
                !s.contains("100k") && !s.contains("16k")
            })
            .filter_map(|p| lowered(&p).map(|l| (p, l)))
            .collect()
    })
}

#[test]
fn per_class_views_equal_per_device_views_on_every_fixture() {
    let all = fixtures();
    assert!(all.len() >= 20, "only {} fixtures lowered", all.len());
    for (path, l) in all {
        assert_same(&l.switches, &l.hosts, &path.display().to_string());
    }
}

/// A small deterministic generator (xorshift), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Changes one thing of one switch: a name (valid or not), or something its view reads.
fn mutate_switch(s: &mut SwitchContext, rng: &mut Rng) {
    let p = rng.below(s.ports.len());
    let c = rng.below(s.qos.classes.len());
    match rng.below(16) {
        0 => s.device = "bad name".into(),
        1 => s.device = format!("renamed{}", rng.below(1000)),
        2 => s.description = Some("a description; with \"quotes\"".into()),
        3 if !s.ports.is_empty() => s.ports[p].peer = "not an id!".into(),
        4 if !s.ports.is_empty() => s.ports[p].peer_port = "x y".into(),
        5 if !s.ports.is_empty() => s.ports[p].peer = format!("other{}", rng.below(9)),
        6 if !s.ports.is_empty() => s.ports[p].description = Some("to somewhere".into()),
        7 if !s.ports.is_empty() => s.ports[p].cable_m += 1 + rng.below(300) as u32,
        8 if !s.ports.is_empty() => {
            s.ports[p].speed_mbps = [0, 10_000, 25_000, 100_000][rng.below(4)]
        }
        9 if !s.ports.is_empty() => {
            s.ports[p].fec = [Fec::Rs, Fec::Fc, Fec::None, Fec::Auto][rng.below(4)]
        }
        10 if !s.qos.classes.is_empty() => s.qos.classes[c].dscps.push(64),
        11 if !s.qos.classes.is_empty() => {
            s.qos.classes[c].scheduling = Scheduling::Ets {
                weight_percent: rng.below(100) as u8,
            }
        }
        12 if !s.qos.classes.is_empty() => {
            s.qos.classes[c].ecn = Some(Ecn {
                min_bytes: rng.below(1 << 20) as u64,
                max_bytes: rng.below(1 << 20) as u64,
                probability_percent: rng.below(120) as u8,
                min_fill: None,
                max_fill: None,
            })
        }
        13 => s.release = Some(Release::new(rng.below(30) as u16, rng.below(12) as u16)),
        14 => s.buffer.queue_log2_alpha = rng.below(12) as i8 - 6,
        15 => s.watchdog = None,
        _ => s.mtu = 1500,
    }
}

fn mutate_host(h: &mut HostContext, rng: &mut Rng) {
    let n = rng.below(h.nics.len());
    match rng.below(7) {
        0 => h.host = "bad host".into(),
        1 => h.host = format!("renamed{}", rng.below(1000)),
        2 => h.description = Some("rack 7".into()),
        3 if !h.nics.is_empty() => h.nics[n].peer = "no such port!".into(),
        4 if !h.nics.is_empty() => {
            h.nics[n].netdev = Some(["eth0", "bad netdev name", "ens1f0"][rng.below(3)].into())
        }
        5 if !h.nics.is_empty() => h.nics[n].rdma_port = rng.below(4) as u8,
        _ => h.qos.cnp_priority = rng.below(10) as u8,
    }
}

#[test]
fn per_class_views_equal_per_device_views_on_mutated_fabrics() {
    let all = fixtures();
    // The generated tiers (many devices per class) and a few small explicit fabrics.
    let picked: Vec<&(PathBuf, Lowered)> = all
        .iter()
        .filter(|(_, l)| l.switches.len() >= 2)
        .step_by(3)
        .take(12)
        .collect();
    assert!(!picked.is_empty());
    let mut errors = 0;
    for seed in 1..=8u64 {
        for (path, l) in &picked {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut switches = l.switches.clone();
            let mut hosts = l.hosts.clone();
            for _ in 0..1 + switches.len() / 4 {
                let i = rng.below(switches.len());
                mutate_switch(&mut switches[i], &mut rng);
            }
            for _ in 0..hosts.len() / 4 {
                let i = rng.below(hosts.len());
                mutate_host(&mut hosts[i], &mut rng);
            }
            errors += assert_same(
                &switches,
                &hosts,
                &format!("{} mutated, seed {seed}", path.display()),
            );
        }
    }
    // The mutations do reach the error paths (else the comparison proves little).
    assert!(errors > 20, "only {errors} devices failed their views");
}
