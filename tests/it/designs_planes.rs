//! Published multi-plane designs (issue 18 items 1, 4, 5): the fixtures in
//! `fixtures/fabrics/designs/` have the counts their sources publish, their planes are
//! independent (no link joins two planes; port k of every NIC is in plane k), the deadlock
//! proof with `check failures 1` is complete, and every port name a target generates for a
//! switch on a catalogue platform is one of that platform's ports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use fabricc::catalogue;
use fabricc::model::{DeviceId, Fabric, Limits, Os};
use fabricc::pipeline::{self, Checked};
use fabricc::source::Sources;

fn checked(name: &str) -> Checked {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fabrics/designs")
        .join(name);
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &path, &Limits::default()).expect("readable");
    let errors: Vec<_> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == fabricc::diagnostic::Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}");
    c
}

fn tier_counts(f: &Fabric) -> Vec<usize> {
    let mut by_tier: BTreeMap<u8, usize> = BTreeMap::new();
    for s in &f.switches {
        *by_tier.entry(s.tier.map_or(0, |t| t.value)).or_default() += 1;
    }
    by_tier.into_values().collect()
}

/// The plane of a switch, from its `p{fabric}-` name prefix.
fn plane_of(name: &str) -> u32 {
    name.strip_prefix('p')
        .and_then(|r| r.split('-').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Every link stays in one plane, and NIC port k is cabled into plane k.
fn planes_are_independent(f: &Fabric, planes: u32) {
    let mut per_plane = vec![0usize; planes as usize + 1];
    for s in &f.switches {
        per_plane[plane_of(&s.name) as usize] += 1;
    }
    assert_eq!(per_plane[0], 0, "every switch is in a plane");
    assert!(
        per_plane[1..].iter().all(|&n| n == per_plane[1]),
        "{per_plane:?}"
    );
    for l in &f.links {
        match (l.a.device, l.b.device) {
            (DeviceId::Switch(a), DeviceId::Switch(b)) => assert_eq!(
                plane_of(&f.switch(a).name),
                plane_of(&f.switch(b).name),
                "a link joins two planes"
            ),
            (DeviceId::Host(h), DeviceId::Switch(s)) | (DeviceId::Switch(s), DeviceId::Host(h)) => {
                let end = if l.a.device == DeviceId::Host(h) {
                    l.a
                } else {
                    l.b
                };
                let nic = &f.host(h).nics[end.port as usize];
                assert_eq!(nic.plane, nic.port);
                assert_eq!(plane_of(&f.switch(s).name), nic.port);
            }
            _ => panic!("host to host"),
        }
    }
    // cabling.csv says the plane of every cable: the plane its switch is named for.
    for c in fabricc::output::cabling::plan(f) {
        assert_eq!(c.plane, Some(plane_of(&c.device)), "{c:?}");
    }
}

fn ports_per_nic(f: &Fabric) -> BTreeSet<u32> {
    f.nic_models.iter().map(|m| m.ports).collect()
}

/// Every port a switch on a catalogue platform is given exists on that platform for its OS:
/// a whole cage, or a sub-port of a cage in one of the breakout modes the catalogue lists for
/// it. A chassis names its ports by line card (`meta_ctsw_is_a_chassis_named_and_buffered_per_card`).
fn port_names_exist(c: &Checked) -> usize {
    let lowered = c.lowered.as_ref().expect("lowered");
    let mut checked = 0;
    for s in &lowered.switches {
        let Some(p) = &s.platform else { continue };
        let platform = catalogue::switch_platform(&p.name).expect("catalogue platform");
        if platform.cage_count() == 0 {
            continue;
        }
        let os = match s.os.as_str() {
            "sonic" => Os::Sonic,
            "cumulus" => Os::Cumulus,
            "eos" => Os::Eos,
            "nxos" => Os::Nxos,
            _ => Os::Junos,
        };
        let mut names = BTreeSet::new();
        for cage in 0..platform.cage_count() {
            for split in [1, 2, 4, 8] {
                names.extend((0..split).filter_map(|sub| platform.port_name(os, cage, split, sub)));
            }
        }
        for port in &s.ports {
            assert!(
                names.contains(&port.name),
                "{}: {} is not a port of {}",
                s.device,
                port.name,
                p.name
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn spectrum_x_twin_plane_b300() {
    let c = checked("spectrum-x-twin-plane-b300.fab");
    let f = c.fabric.as_ref().expect("resolves");
    // NVIDIA DGX SuperPOD B300 RA, Table 3, 4 SUs: 256 nodes, 2,048 GPUs, 64 leaves, 32
    // spines; 2,048 node-leaf cables (each 800G cable two 400G links, one per plane) and
    // 2,048 leaf-spine cables.
    assert_eq!(f.hosts.len(), 256);
    assert_eq!(
        f.hosts.iter().map(|h| h.nics.len()).sum::<usize>(),
        256 * 8 * 2
    );
    assert_eq!(tier_counts(f), vec![64, 32]);
    let host_links = f
        .links
        .iter()
        .filter(|l| l.generated == Some(fabricc::model::TierId(0)))
        .count();
    assert_eq!(host_links, 2 * 2048);
    assert_eq!(f.links.len() - host_links, 2048);
    assert_eq!(ports_per_nic(f), BTreeSet::from([2]));
    planes_are_independent(f, 2);
    let d = c
        .facts
        .as_ref()
        .and_then(|x| x.deadlock.clone())
        .expect("deadlock facts");
    assert!(!d.possible && d.complete);
    // The fabric as declared and one scenario per link (6,144 links).
    assert_eq!(d.scenarios, 6145);
    // SN5600s: 64 Cumulus leaves of 64 x 400G (`swp1s0`-`swp32s1`) and 32 x 800G
    // (`swp33`-`swp64`); 32 SONiC spines x 64 ports.
    assert_eq!(port_names_exist(&c), 64 * 96 + 32 * 64);
}

#[test]
fn alibaba_hpn7_pod() {
    let c = checked("alibaba-hpn7-pod.fab");
    let f = c.fabric.as_ref().expect("resolves");
    // 15 segments x 128 hosts x 8 GPUs = 15,360 GPUs; 8 dual-port NICs per host.
    assert_eq!(f.hosts.len() * 8, 15_360);
    assert_eq!(ports_per_nic(f), BTreeSet::from([2]));
    // Per plane 15 segments x 8 rails = 120 ToRs and 60 aggregation switches.
    assert_eq!(tier_counts(f), vec![240, 120]);
    assert_eq!(f.links.len(), 1920 * 16 + 240 * 60);
    planes_are_independent(f, 2);
    let d = c
        .facts
        .as_ref()
        .and_then(|x| x.deadlock.clone())
        .expect("deadlock facts");
    assert!(!d.possible && d.complete);
    assert_eq!(d.scenarios, 45_121);
    // Each NIC's two ports are one bond across the planes (non-stacked dual-ToR): 15,360
    // destinations, each reached in both planes, so no single link failure cuts a pair off.
    assert!(f.hosts.iter().all(|h| {
        h.bonds.len() == 8
            && h.bonds
                .iter()
                .all(|b| b.len() == 2 && h.nics[b[0] as usize].plane != h.nics[b[1] as usize].plane)
    }));
    assert_eq!(d.endpoints, 15_360);
    assert_eq!(d.unreachable_pairs, 0);
    let codes: Vec<&str> = c.diagnostics.iter().map(|x| x.code.as_str()).collect();
    assert!(!codes.contains(&"FAB701"), "{codes:?}");
    let non_stacked = c
        .diagnostics
        .iter()
        .find(|x| x.code.as_str() == "FAB127")
        .expect("FAB127 for the ToRs' LACP side");
    assert!(
        non_stacked.message.contains("`p1-seg01-tor1`")
            && non_stacked.message.contains("236 more")
            && non_stacked
                .message
                .contains("different planes, whose ToRs share no link"),
        "{}",
        non_stacked.message
    );
    // Arista 7060X6-64PEs on EOS: a ToR's 128 x 200G (cages 1-32 broken out 4 x 200G) and
    // 60 x 400G (cages 33-62, 2 x 400G); an aggregation switch's 120 x 400G.
    assert_eq!(port_names_exist(&c), 240 * (128 + 60) + 120 * 120);
    let lowered = c.lowered.as_ref().expect("lowered");
    let tor = &lowered
        .switches
        .iter()
        .find(|s| s.device == "p1-seg01-tor1")
        .expect("a ToR")
        .ports;
    let names = |from: usize, to: usize| (tor[from].name.as_str(), tor[to].name.as_str());
    assert_eq!(names(0, 127), ("Ethernet1/1", "Ethernet32/7"));
    assert_eq!(names(128, 187), ("Ethernet33/1", "Ethernet62/5"));
}

#[test]
fn meta_ai_zone_rack_tor() {
    let c = checked("meta-ai-zone-rack-tor.fab");
    let f = c.fabric.as_ref().expect("resolves");
    // 192 racks of two 8-GPU hosts: 3,072 GPUs, 192 RTSWs, 16 CTSWs.
    assert_eq!(f.hosts.len() * 8, 3072);
    assert_eq!(tier_counts(f), vec![192, 16]);
    assert_eq!(f.links.len(), 3072 + 192 * 16);
    assert_eq!(ports_per_nic(f), BTreeSet::from([1]));
    // Rack-ToR: every NIC of a host lands on one switch, and that switch holds two hosts.
    let mut tor_of: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut hosts_of: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for l in &f.links {
        if let (DeviceId::Host(h), DeviceId::Switch(s)) | (DeviceId::Switch(s), DeviceId::Host(h)) =
            (l.a.device, l.b.device)
        {
            tor_of.entry(h.0).or_default().insert(s.0);
            hosts_of.entry(s.0).or_default().insert(h.0);
        }
    }
    assert!(tor_of.values().all(|t| t.len() == 1));
    assert!(hosts_of.values().all(|h| h.len() == 2));
    // The RTSWs are SN4700s on SONiC: 16 host ports and 16 uplinks each.
    assert_eq!(port_names_exist(&c), 192 * 32);
    let d = c
        .facts
        .as_ref()
        .and_then(|x| x.deadlock.clone())
        .expect("deadlock facts");
    assert!(!d.possible);
}

/// The CTSW of the Meta design is an Arista 7808R3 with six 7800R3A-36D cards (issue 18
/// item 3, review E7): every CTSW port EOS is given is `Ethernet<slot>/<port>/1` of a card the
/// model placed, the ports fill slots 3-8 in order, and the buffer checked is one card ASIC's.
#[test]
fn meta_ctsw_is_a_chassis_named_and_buffered_per_card() {
    let c = checked("meta-ai-zone-rack-tor.fab");
    let f = c.fabric.as_ref().expect("resolves");
    let model = f
        .switch_models
        .iter()
        .find(|m| m.name == "ctsw")
        .expect("ctsw model");
    let chassis = model.chassis.as_ref().expect("ctsw is on a chassis");
    let platform = catalogue::switch_platform("arista-7808r3").expect("in the catalogue");
    let card = platform
        .linecard("7800r3a-36d")
        .expect("card in the catalogue");
    let slots: Vec<u32> = chassis.cards.iter().map(|(s, _)| *s).collect();
    assert_eq!(slots, vec![3, 4, 5, 6, 7, 8]);
    assert_eq!(model.port_count(), 6 * 36);
    // Names that exist: every cage of every placed card, unbroken (lane 1).
    let exist: BTreeSet<String> = slots
        .iter()
        .flat_map(|s| (1..=36).map(move |p| format!("Ethernet{s}/{p}/1")))
        .collect();
    let mut per_switch: BTreeMap<u32, BTreeSet<String>> = BTreeMap::new();
    for l in &f.links {
        for e in [l.a, l.b] {
            if let DeviceId::Switch(s) = e.device
                && f.switch_model(s).name == "ctsw"
            {
                let name = fabricc::lower::vendor_port_name(f, s, e.port);
                assert!(exist.contains(&name), "{name} is not a 7808R3 port");
                assert!(per_switch.entry(s.0).or_default().insert(name));
            }
        }
    }
    assert_eq!(per_switch.len(), 16);
    for names in per_switch.values() {
        // 192 RTSW uplinks: slots 3-7 full, 12 ports of slot 8.
        assert_eq!(names.len(), 192);
        assert!(names.contains("Ethernet3/1/1") && names.contains("Ethernet8/12/1"));
        assert!(!names.contains("Ethernet8/13/1"));
    }
    // Buffer: one ASIC's of the card (SONiC's t2 ingress_lossless_pool), not the chassis's.
    assert_eq!(card.asic_count(), 2);
    assert_eq!(model.buffer.map(|b| b.value.get()), Some(6_441_610_000));
    assert_eq!(card.buffer_bytes(), Some(6_441_610_000));
    let cp = model.card_port(18).expect("port 19 of slot 3");
    assert_eq!((cp.slot, cp.port, cp.asic), (3, 19, 1));
    assert!(
        !c.diagnostics.iter().any(|d| d.code.as_str() == "FAB451"),
        "per-ASIC headroom fits"
    );
}

/// The findings (code, message) of a small fabric whose one switch model is `model`.
fn chassis_findings(model: &str) -> Vec<(String, String)> {
    let text = format!(
        "fabric c {{
  class roce {{ dscp 26  priority 3  lossless  bandwidth 50% }}
  class cnp  {{ dscp 48  priority 6  strict  cnp }}
  class bulk {{ dscp other  priority 0  bandwidth 50% }}
  switch-model spine {{ {model} }}
  nic-model cx7 {{ driver mlx5  speed 400G }}
  switch s1 {{ model spine  tier 1 }}
  host h1 {{ nic cx7 }}
  link h1 -- s1 {{ cable 2m }}
}}
"
    );
    findings_of("chassis", &text)
}

/// The findings (code, message) of `fabricc check` on `text`, written to a temporary
/// folder named for `tag` and the process.
fn findings_of(tag: &str, text: &str) -> Vec<(String, String)> {
    // One file per call: the tests run in parallel threads of one process.
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("fabricc-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("f{n}.fab"));
    std::fs::write(&path, text).expect("write");
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &path, &Limits::default()).expect("readable");
    let _ = std::fs::remove_file(&path);
    // Empty once this call's file is gone, unless another call of the same tag is running.
    let _ = std::fs::remove_dir(&dir);
    c.diagnostics
        .iter()
        .map(|d| (d.code.as_str().to_string(), d.message.clone()))
        .collect()
}

/// FAB140 and FAB141 for each way a chassis model can be wrong, and none when it is right.
#[test]
fn chassis_line_card_findings() {
    for ok in [
        "platform arista-7808r3  os eos  linecard 3..4 7800r3a-36d",
        // The Nexus 9808's card has no sourced buffer: the model gives it.
        "platform cisco-n9808  os nxos  linecard 1..2 n9k-x9836dm-a  buffer 120MB",
    ] {
        let found = chassis_findings(ok);
        assert!(
            !found.iter().any(|(c, _)| c.starts_with("FAB1")),
            "{ok}: {found:?}"
        );
    }
    for (model, code, words) in [
        (
            "platform arista-7808r3  os eos  linecard 3 7800r3a-36p",
            "FAB140",
            "`7800r3a-36p` is not a line card of `arista-7808r3`",
        ),
        (
            "platform arista-7808r3  os eos  linecard 3..4 7800r3a-36d  linecard 4 7800r3a-36d",
            "FAB140",
            "puts two line cards in slot 4",
        ),
        (
            "platform arista-7808r3  os eos  linecard 9..11 7800r3a-36d",
            "FAB140",
            "has no line-card slot 11",
        ),
        (
            "platform arista-7808r3  os eos  ports 8 x 400G",
            "FAB140",
            "places no line card",
        ),
        (
            "platform arista-7280r4-32qf-32df  os eos  linecard 3 7800r3a-36d",
            "FAB140",
            "a fixed switch",
        ),
        (
            "os eos  ports 8 x 400G  buffer 64MB  linecard 3 7800r3a-36d",
            "FAB140",
            "its platform is no platform",
        ),
        (
            "platform arista-7808r3  os eos  linecard 5..3 7800r3a-36d",
            "FAB140",
            "slots 5..3 run backwards",
        ),
        (
            "platform arista-7808r3  os eos  linecard 0 7800r3a-36d",
            "FAB001",
            "expected a line-card slot from 1 to 64",
        ),
        (
            "platform arista-7808r3  os sonic  linecard 3 7800r3a-36d",
            "FAB141",
            "no sonic port names for the chassis",
        ),
        (
            "platform arista-7808r3  os eos  linecard 3 7800r3a-36d  ports 40 x 400G",
            "FAB110",
            "40 ports of 400G",
        ),
        (
            "platform arista-7808r3  os eos  linecard 3 7800r3a-36d  ports 40 x 400G",
            "FAB141",
            "port 37 has no EOS name on its line cards",
        ),
        (
            "platform cisco-n9808  os nxos  linecard 8 n9k-x9836dm-a  buffer 120MB  ports 40 x 400G",
            "FAB141",
            "port 37 has no NX-OS name on its line cards",
        ),
        (
            "platform cisco-n9808  os nxos  linecard 9 n9k-x9836dm-a  buffer 120MB",
            "FAB140",
            "has no line-card slot 9",
        ),
    ] {
        let found = chassis_findings(model);
        assert!(
            found.iter().any(|(c, m)| c == code && m.contains(words)),
            "{model}: {found:?}"
        );
    }
}

#[test]
fn zip_pairs_element_by_element() {
    let text = "fabric z {
  class roce { dscp 26  priority 3  lossless  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
  switch-model s64 { os sonic  ports 64 x 400G  buffer 64MB }
  nic-model cx8 { driver mlx5  ports 2 x 400G }
  switch leaf1, leaf2 { model s64  tier 1 }
  host h[1..4] { nic cx8 }
  link h[1..4].nic1.port1 -- leaf1.port[5..8] { zip  cable 3m }
  link h[1..4].nic1.port2 -- leaf2.port[1..4] { zip  cable 3m }
}
";
    let dir = std::env::temp_dir().join(format!("fabricc-zip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("zip.fab");
    std::fs::write(&path, text).expect("write");
    let mut sources = Sources::new();
    let c = pipeline::check(&mut sources, &path, &Limits::default()).expect("readable");
    let f = c.fabric.expect("resolves");
    let names: Vec<(String, String)> = f
        .links
        .iter()
        .map(|l| (f.endpoint_name(l.a), f.endpoint_name(l.b)))
        .collect();
    assert_eq!(names.len(), 8, "{names:?}");
    assert!(
        names.contains(&("h3.nic1.port1".into(), "leaf1.port7".into())),
        "{names:?}"
    );
    assert!(
        names.contains(&("h4.nic1.port2".into(), "leaf2.port4".into())),
        "{names:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: dual-ToR on one plane with an LACP host bond, and spare hosts. Each NIC's two
/// ports are on the two ToRs of a pair (rails 2c-1 and 2c of the host's segment), each NIC's
/// ports are one bond, the spare hosts sit on the ToRs' ports after the uplinks and are no
/// load in the ToRs' ratio, and the deadlock proof still sees every port as its own link.
#[test]
fn dual_tor_lacp_bond() {
    let c = checked("dual-tor-lacp-bond.fab");
    let f = c.fabric.as_ref().expect("resolves");
    // 256 active + 8 spare hosts of 8 dual-port NICs; 2 segments x 16 ToRs; 32 x 60 uplinks
    // over 128-port aggregation switches: 15.
    assert_eq!(f.hosts.len(), 264);
    assert_eq!(ports_per_nic(f), BTreeSet::from([2]));
    assert_eq!(tier_counts(f), vec![32, 15]);
    // Host links, uplinks, and a 2-link peer link per ToR pair (16 pairs).
    assert_eq!(f.links.len(), 264 * 16 + 32 * 60 + 16 * 2);
    // The peer links join ToRs 2c-1 and 2c of a segment on their last two ports (192, 193,
    // after 128 down, 60 up and 4 spare ports), both ends on the leaf tier.
    let mut peer_links = 0;
    for l in &f.links {
        let (DeviceId::Switch(a), DeviceId::Switch(b)) = (l.a.device, l.b.device) else {
            continue;
        };
        let (na, nb) = (&f.switch(a).name, &f.switch(b).name);
        if !(na.contains("-tor") && nb.contains("-tor")) {
            continue;
        }
        peer_links += 1;
        assert_eq!(l.a.port, l.b.port);
        assert!([192, 193].contains(&l.a.port), "{na} {nb} {}", l.a.port);
        let num = |n: &str| n[n.len() - 2..].parse::<u32>().expect("tor number");
        assert_eq!(na[..na.len() - 2], nb[..nb.len() - 2], "same segment");
        assert_eq!(
            num(na).div_ceil(2),
            num(nb).div_ceil(2),
            "{na} {nb}: one pair"
        );
        assert_ne!(num(na), num(nb));
    }
    assert_eq!(peer_links, 32);
    let spare = |h: &fabricc::model::Host| h.spare.is_some();
    assert_eq!(f.hosts.iter().filter(|h| spare(h)).count(), 8);
    for (hi, h) in f.hosts.iter().enumerate() {
        // One bond per NIC: its two ports.
        let want: Vec<Vec<u32>> = (0..8).map(|c| vec![2 * c, 2 * c + 1]).collect();
        assert_eq!(h.bonds, want, "{}", h.name);
        for (i, n) in h.nics.iter().enumerate() {
            let l = f.link(n.link.expect("wired"));
            let me = DeviceId::Host(fabricc::model::HostId(hi as u32));
            let peer = f.peer(n.link.expect("wired"), me);
            let DeviceId::Switch(s) = peer.device else {
                panic!("{} goes to a host", h.name)
            };
            let name = &f.switch(s).name;
            // Port k of NIC c on rail 2(c-1)+k: the pair of the NIC.
            assert!(
                name.ends_with(&format!("-tor{:02}", i + 1)),
                "{} {name}",
                h.name
            );
            assert_eq!(n.plane, 0);
            // Spares on the 4 ports after 128 down and 60 up, before the peer link.
            assert_eq!(peer.port >= 188, spare(h), "{} {name}", h.name);
            assert!(peer.port < 192, "{} {name}", h.name);
            assert_eq!(l.speed.get(), 200_000);
        }
    }
    // The ToRs' ratio counts the 128 active hosts only: 25.6T down, 24T up.
    for s in f
        .switch_ids()
        .filter(|&s| f.switch(s).name.contains("-tor"))
    {
        let (down, up) = fabricc::analysis::topology::capacity(f, s);
        assert_eq!((down, up), (128 * 200_000, 60 * 400_000));
    }
    let d = c
        .facts
        .as_ref()
        .and_then(|x| x.deadlock.clone())
        .expect("deadlock facts");
    assert!(!d.possible && d.complete);
    // The pairs have a peer link, so EOS writes the switches' side of the LACP bond: no
    // FAB127, and one FAB907 advice that the hosts' VLAN and gateway are the operator's.
    let code = |k| c.diagnostics.iter().filter(move |d| d.code == k);
    assert_eq!(
        code(fabricc::diagnostic::Code::BondSwitchSideMissing).count(),
        0
    );
    let vlan: Vec<_> = code(fabricc::diagnostic::Code::TargetAdjusts)
        .filter(|d| d.message.contains("host bond LAG/MLAG"))
        .collect();
    assert_eq!(vlan.len(), 1);
    assert!(
        vlan[0].message.contains("`seg1-tor01`"),
        "{}",
        vlan[0].message
    );
    // 128 active and 4 spare bonds per pair, numbered the same on both switches.
    assert!(
        vlan[0].message.contains("Port-Channel1–132"),
        "{}",
        vlan[0].message
    );
}

/// The findings (code, message) of a dual-ToR miniature whose ToR model has `ports` and
/// whose tiers are `tor` and `spine` (the properties after `model`).
fn peer_link_findings(ports: &str, tor: &str, spine: &str) -> Vec<(String, String)> {
    let text = format!(
        "fabric p {{
  class roce {{ dscp 26  priority 3  lossless  bandwidth 50% }}
  class cnp  {{ dscp 48  priority 6  strict  cnp }}
  class bulk {{ dscp other  priority 0  bandwidth 50% }}
  switch-model t {{ platform arista-7060x6-64pe  os eos  ports {ports} }}
  switch-model s {{ platform arista-7060x6-64pe  os eos }}
  nic-model cx8 {{ platform nvidia-cx8  ports 2 x 400G }}
  host h[1..2] {{ nic cx8  bond lacp }}
  tier tor   {{ model t  {tor}  downlinks 2  uplinks 2  cable 3m  name tor{{rail}} }}
  tier spine {{ model s  {spine}  downlinks 4  cable 30m  name spine{{n}} }}
  routing updown
}}
"
    );
    findings_of("peer", &text)
}

/// Issue 18: `peer-link N` is FAB125 off a `dual-tor` leaf tier or without N free ports;
/// with them, the EOS pair is written (no FAB127), and without a peer link it is not.
#[test]
fn peer_link_findings_and_mlag() {
    let ports = "2 x 400G, 2 x 800G, 2 x 800G";
    let has = |found: &[(String, String)], code: &str, words: &str| {
        found.iter().any(|(c, m)| c == code && m.contains(words))
    };
    let ok = peer_link_findings(ports, "dual-tor  peer-link 2", "");
    assert!(
        !ok.iter().any(|(c, _)| c == "FAB125" || c == "FAB127"),
        "{ok:?}"
    );
    assert!(has(&ok, "FAB907", "Port-Channel1–2"), "{ok:?}");
    for (tor, spine, port_list, words) in [
        ("peer-link 2", "", ports, "the tier has no `dual-tor`"),
        (
            "dual-tor",
            "peer-link 2",
            ports,
            "`peer-link` belongs on the first (leaf) tier",
        ),
        (
            "dual-tor  peer-link 3",
            "",
            ports,
            "`peer-link 3` needs 3 ports on each ToR after its 4 downlinks and uplinks, but the model has 2 left",
        ),
    ] {
        let found = peer_link_findings(port_list, tor, spine);
        assert!(has(&found, "FAB125", words), "{tor} / {spine}: {found:?}");
    }
    // No peer link: the pair is not written, FAB127 says so and what EOS needs.
    let none = peer_link_findings(ports, "dual-tor", "");
    assert!(
        has(&none, "FAB127", "`peer-link N` on the `dual-tor` tier"),
        "{none:?}"
    );
    // A pair of two OSes: neither side is written (the EOS side would wait for a peer that
    // never answers), and FAB127 names both.
    let mixed = |tor2: &str| {
        findings_of(
            "mixed",
            &format!(
                "fabric m {{
  class roce {{ dscp 26  priority 3  lossless  bandwidth 50% }}
  class cnp  {{ dscp 48  priority 6  strict  cnp }}
  class bulk {{ dscp other  priority 0  bandwidth 50% }}
  switch-model e {{ platform arista-7060x6-64pe  os eos }}
  switch-model n {{ os nxos  ports 64 x 400G  buffer 64MB }}
  nic-model cx8 {{ platform nvidia-cx8  ports 2 x 400G }}
  switch tor1 {{ model e  tier 1 }}
  switch tor2 {{ model {tor2}  tier 1 }}
  host h1 {{ nic cx8  bond lacp }}
  link h1.nic1.port1 -- tor1 {{ cable 3m }}
  link h1.nic1.port2 -- tor2 {{ cable 3m }}
  link tor1 -- tor2 {{ cable 3m }}
}}
"
            ),
        )
    };
    let two_os = mixed("n");
    assert!(has(&two_os, "FAB127", "eos side for `tor1`"), "{two_os:?}");
    assert!(has(&two_os, "FAB127", "nxos side for `tor2`"), "{two_os:?}");
    let same_os = mixed("e");
    assert!(!same_os.iter().any(|(c, _)| c == "FAB127"), "{same_os:?}");
    assert!(
        has(&same_os, "FAB907", "Port-Channel1 is a layer-2 port"),
        "{same_os:?}"
    );
}

/// FAB704: the proof leaves MLAG's failover across a peer link out, which is sound only when
/// routing sends nothing else across that link (docs/deadlock.md, "Peer links"). Two ToRs of
/// one bonded host, linked, under a spine: `routing updown` is covered; `shortest`, a static
/// route or a `path` over the peer link, or ToRs on two tiers are not.
#[test]
fn peer_link_failover_conditions() {
    let fabric = |tor2_tier: u32, routing: &str| {
        findings_of(
            "failover",
            &format!(
                "fabric f {{
  class roce {{ dscp 26  priority 3  lossless  bandwidth 50% }}
  class cnp  {{ dscp 48  priority 6  strict  cnp }}
  class bulk {{ dscp other  priority 0  bandwidth 50% }}
  switch-model e {{ platform arista-7060x6-64pe  os eos }}
  nic-model cx8 {{ platform nvidia-cx8  ports 2 x 400G }}
  switch tor1 {{ model e  tier 1 }}
  switch tor2 {{ model e  tier {tor2_tier} }}
  switch spine1 {{ model e  tier 3 }}
  host h1 {{ nic cx8  bond lacp }}
  host h2 {{ nic cx8 }}
  link h1.nic1.port1 -- tor1 {{ cable 3m }}
  link h1.nic1.port2 -- tor2 {{ cable 3m }}
  link h2.nic1.port1 -- tor1 {{ cable 3m }}
  link h2.nic1.port2 -- tor2 {{ cable 3m }}
  link tor1 -- tor2 {{ cable 3m }}
  link tor1 -- spine1 {{ cable 30m }}
  link tor2 -- spine1 {{ cable 30m }}
  {routing}
}}
"
            ),
        )
    };
    let fab704 = |found: &[(String, String)]| {
        found
            .iter()
            .filter(|(c, _)| c == "FAB704")
            .map(|(_, m)| m.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(fab704(&fabric(1, "routing updown")), Vec::<String>::new());
    for (tier, routing, words) in [
        (
            1,
            "routing shortest",
            "`routing shortest` routes traffic across it",
        ),
        (
            1,
            "routing updown\n  route at tor1 to h2 via tor2",
            "the static route at `tor1` sends traffic across it",
        ),
        (
            1,
            "routing updown\n  path h1 -> tor1 -> tor2 -> spine1",
            "a `path` sends traffic across it",
        ),
        (2, "routing updown", "`tor1` and `tor2` are not on one tier"),
    ] {
        let found = fab704(&fabric(tier, routing));
        assert_eq!(found.len(), 1, "{routing}: {found:?}");
        assert!(
            found[0].starts_with("MLAG failover across the peer link `tor1`--`tor2`")
                && found[0].contains(words),
            "{routing}: {found:?}"
        );
    }
}

/// Meta's 24K-GPU cluster (issue 36's published-design benchmark): eight AI Zones of
/// `meta_ai_zone_rack_tor`'s shape under an oversubscribed ATSW layer. Every RTSW reaches only
/// its own zone's 16 CTSWs, the cross-zone layer is 8:1 as the fixture declares, the check has
/// no warning, and no deadlock is possible under up-down routing.
#[test]
fn meta_24k_is_eight_zones_under_an_atsw_layer() {
    let c = checked("meta-24k-three-stage.fab");
    let f = c.fabric.as_ref().expect("resolves");
    assert_eq!(f.hosts.len() * 8, 24_576);
    assert_eq!(tier_counts(f), vec![1536, 128, 16]);
    assert_eq!(f.links.len(), 24_576 + 1536 * 16 + 128 * 24);
    let warnings: Vec<&str> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == fabricc::diagnostic::Severity::Warning)
        .map(|d| d.message.as_str())
        .collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    // Zones: the CTSWs an RTSW reaches, 16 of them, the same set for the zone's 192 RTSWs.
    let tier = |s: u32| f.switches[s as usize].tier.map_or(0, |t| t.value);
    let mut ctsws_of: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for l in &f.links {
        if let (DeviceId::Switch(a), DeviceId::Switch(b)) = (l.a.device, l.b.device) {
            let (r, c) = if tier(a.0) < tier(b.0) {
                (a.0, b.0)
            } else {
                (b.0, a.0)
            };
            if tier(r) == 1 {
                ctsws_of.entry(r).or_default().insert(c);
            }
        }
    }
    assert_eq!(ctsws_of.len(), 1536);
    assert!(ctsws_of.values().all(|c| c.len() == 16));
    let zones: BTreeSet<&BTreeSet<u32>> = ctsws_of.values().collect();
    assert_eq!(zones.len(), 8, "eight zones");
    let d = c
        .facts
        .as_ref()
        .and_then(|x| x.deadlock.clone())
        .expect("deadlock facts");
    assert!(!d.possible);
}
