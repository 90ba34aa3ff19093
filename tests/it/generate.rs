//! The tier generators: the example clusters have the sizes their comments promise, every
//! NIC i sits on a rail-i leaf, and uplinks are spread evenly over the tier above.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use fabricc::model::{DeviceId, Fabric, Limits};
use fabricc::pipeline;
use fabricc::source::Sources;

fn fabric(name: &str) -> Fabric {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics")
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

#[test]
fn sizes_of_the_example_clusters() {
    let pod = fabric("pod-256.fab");
    assert_eq!(
        (pod.hosts.len(), tier_counts(&pod), pod.links.len()),
        (32, vec![8, 4], 256 + 8 * 32)
    );
    let c2k = fabric("cluster-2048.fab");
    assert_eq!(
        (c2k.hosts.len(), tier_counts(&c2k), c2k.links.len()),
        (256, vec![64, 32], 2048 + 64 * 32)
    );
    let c16k = fabric("cluster-16k.fab");
    // 64 rail groups of 32 hosts × 8 rails; 16 pods × 32 spines; 32 planes × 8 super-spines.
    assert_eq!(c16k.hosts.len() * 8, 16_384);
    assert_eq!(tier_counts(&c16k), vec![512, 512, 256]);
    assert_eq!(c16k.links.len(), 16_384 + 512 * 32 + 512 * 32);
    let big = fabric("cluster-100k.fab");
    // 196 rail groups of 64 hosts × 8 rails; 25 pods × 64 spines; 64 planes × 16 super-spines.
    assert_eq!(big.hosts.len() * 8, 100_000);
    assert_eq!(tier_counts(&big), vec![1568, 1600, 1024]);
    assert_eq!(big.links.len(), 100_000 + 1568 * 64 + 1600 * 64);
}

#[test]
fn every_nic_sits_on_its_rail() {
    let f = fabric("cluster-2048.fab");
    // The leaves a NIC index reaches never see another NIC index.
    let mut rail_of_leaf: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for l in &f.links {
        if let (DeviceId::Host(_), DeviceId::Switch(s)) = (l.a.device, l.b.device) {
            rail_of_leaf
                .entry(f.switch(s).name.clone())
                .or_default()
                .insert(l.a.port);
        }
    }
    assert_eq!(rail_of_leaf.len(), 64);
    for (leaf, rails) in &rail_of_leaf {
        assert_eq!(rails.len(), 1, "{leaf} serves NICs {rails:?}");
        let r = rails.iter().next().copied().unwrap_or(0) + 1;
        assert!(
            leaf.ends_with(&format!("-r{r}")),
            "{leaf} is named for its rail {r}"
        );
    }
}

#[test]
fn uplinks_spread_evenly() {
    let f = fabric("pod-256.fab");
    // Each of the 8 leaves meets each of the 4 spines with 8 parallel links.
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    for l in &f.links {
        if let (DeviceId::Switch(a), DeviceId::Switch(b)) = (l.a.device, l.b.device) {
            *pairs
                .entry((f.switch(a).name.clone(), f.switch(b).name.clone()))
                .or_default() += 1;
        }
    }
    assert_eq!(pairs.len(), 32);
    assert!(pairs.values().all(|&n| n == 8), "{pairs:?}");
    // No port carries two links.
    for s in &f.switches {
        let used = s.ports.iter().flatten().count();
        let distinct: BTreeSet<_> = s.ports.iter().flatten().collect();
        assert_eq!(used, distinct.len());
    }
}

#[test]
fn generation_is_deterministic() {
    let a = fabricc::model::export::export(&fabric("pod-256.fab"));
    let b = fabricc::model::export::export(&fabric("pod-256.fab"));
    assert_eq!(a, b);
}

/// Checks `text` as a file of its own; errors fail the test.
fn fabric_of(name: &str, text: &str) -> Fabric {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generate-tests");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &path, &Limits::default()).expect("readable");
    assert_eq!(c.errors(), 0, "{name}: {:?}", c.diagnostics);
    c.fabric.expect("resolves")
}

const ROLES_HEAD: &str = "fabric r {
  class roce { dscp 26  priority 3  lossless  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
  switch-model m { platform nvidia-sn4700  os sonic }
  nic-model cx7 { driver mlx5  speed 400G }
  nic-model bf3 { driver mlx5  speed 200G }
";

/// Issue 18 item 4: a frontend NIC listed first is no rail; rails 1 and 2 are the host's
/// backend NICs `nic2` and `nic3`, and a bare `link h -- L` end takes a backend NIC.
#[test]
fn rails_are_the_backend_nics_whatever_their_position() {
    let text = format!(
        "{ROLES_HEAD}  host h[1..4] {{ nic bf3 role frontend  nic cx7 x 2 }}
  tier leaf  {{ model m  name leaf{{rail}} }}
  tier spine {{ model m  name spine{{n}} }}
}}
"
    );
    let f = fabric_of("frontend-first.fab", &text);
    let mut nics_of_leaf: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for l in &f.links {
        if let (DeviceId::Host(_), DeviceId::Switch(s)) = (l.a.device, l.b.device) {
            nics_of_leaf
                .entry(f.switch(s).name.clone())
                .or_default()
                .insert(l.a.port);
        }
    }
    // Two leaves, one per backend NIC; nic1 (index 0) is on none.
    assert_eq!(
        nics_of_leaf.into_iter().collect::<Vec<_>>(),
        vec![
            ("leaf1".to_string(), BTreeSet::from([1])),
            ("leaf2".to_string(), BTreeSet::from([2])),
        ]
    );
    assert!(f.hosts.iter().all(|h| h.nics[0].link.is_none()));

    let text = format!(
        "{ROLES_HEAD}  host h1 {{ nic bf3 role frontend  nic cx7 }}
  switch L1 {{ model m  tier 1 }}
  link h1 -- L1
}}
"
    );
    let f = fabric_of("bare-end.fab", &text);
    assert_eq!(f.links.len(), 1);
    assert_eq!(f.links[0].a.port, 1, "the bare end took the backend nic2");
}

/// G7: `uplinks N` on the top tier keeps N ports of every top switch for a tier above that
/// does not exist yet; they stay uncabled, and the downlinks are the rest (it was FAB106,
/// "the top tier has no uplinks").
#[test]
fn a_top_tier_keeps_its_uplinks_for_a_future_tier() {
    let text = format!(
        "{ROLES_HEAD}  host h[1..4] {{ nic cx7 x 2 }}
  tier leaf  {{ model m  name leaf{{rail}} }}
  tier spine {{ model m  uplinks 8  name spine{{n}} }}
}}
"
    );
    let f = fabric_of("top-uplinks.fab", &text);
    for s in f.switches.iter().filter(|s| s.name.starts_with("spine")) {
        let cabled = s.ports.iter().flatten().count();
        // An SN4700 has 32 ports; 8 are kept, so at most 24 carry links.
        assert!(cabled <= 24, "{}: {cabled} links", s.name);
        assert!(s.ports.iter().skip(24).all(Option::is_none), "{}", s.name);
    }
}
