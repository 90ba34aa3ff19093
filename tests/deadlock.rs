//! The deadlock proof on the published examples (theory.md §1.2) and on intact Clos fabrics:
//! each test asserts the verdict and the exact witness cycle, in the JSON `cycle` form.

use std::path::Path;

use fabricc::analysis::deadlock::{self, Options, Proof};
use fabricc::diagnostic::{Code, CycleHop, Diagnostic};
use fabricc::model::{Fabric, Limits};
use fabricc::pipeline;
use fabricc::source::Sources;

fn load(name: &str) -> (Fabric, Vec<Diagnostic>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name);
    let mut sources = Sources::new();
    let checked = pipeline::check(&mut sources, &path, &Limits::default()).expect("fixture readable");
    let shown = fabricc::diagnostic::short::render_short(&checked.diagnostics, &sources);
    let fabric = checked.fabric.unwrap_or_else(|| panic!("{name} did not resolve:\n{shown}"));
    (fabric, checked.diagnostics)
}

fn prove(name: &str) -> (Proof, Vec<Diagnostic>) {
    let (fabric, diags) = load(name);
    (deadlock::prove(&fabric, Options { force_graph: true }), diags)
}

/// `"A<-D"`-style hops at priority `p`, for readable expectations.
fn cycle(p: u8, hops: &[&str]) -> Vec<CycleHop> {
    hops.iter()
        .map(|h| {
            let (switch, from) = h.split_once("<-").expect("hop is SWITCH<-FROM");
            CycleHop { switch: switch.into(), from: from.into(), priority: p }
        })
        .collect()
}

fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = diags.iter().map(|d| d.code.as_str()).filter(|c| c.starts_with("FAB2") || c.starts_with("FAB7")).collect();
    v.sort_unstable();
    v
}

fn witnesses(p: &Proof) -> Vec<Vec<CycleHop>> {
    p.cycles.iter().map(|c| c.hops.clone()).collect()
}

fn explain(p: &Proof) -> String {
    p.diagnostics.iter().map(|d| format!("{} {}\n  help: {:?}\n  notes: {:#?}\n", d.code, d.message, d.help, d.notes)).collect()
}

#[test]
fn hotnets_square_with_two_flows_is_a_cbd() {
    let (p, diags) = prove("deadlock/hotnets-square.fab");
    assert!(p.facts.possible, "{}", explain(&p));
    assert_eq!(witnesses(&p), vec![cycle(3, &["A<-D", "B<-A", "C<-B", "D<-C"])]);
    assert_eq!(codes(&diags), vec!["FAB201"]);
    let d = diags.iter().find(|d| d.code == Code::CyclicBufferDependency).expect("FAB201");
    assert!(d.message.starts_with("deadlock possible (cyclic buffer dependency)"));
    assert!(!d.message.contains("certain"));
    assert_eq!(d.cycle.as_ref(), Some(&cycle(3, &["A<-D", "B<-A", "C<-B", "D<-C"])));
    // Every edge names a route that induces it.
    assert_eq!(p.cycles[0].routes.len(), 4);
    assert!(p.cycles[0].routes.iter().all(|r| r.contains("route h")), "{:#?}", p.cycles[0].routes);
}

#[test]
fn static_route_loop_between_two_switches() {
    let (p, diags) = prove("deadlock/hotnets-loop.fab");
    assert!(p.facts.possible);
    assert_eq!(p.loops, vec![vec!["A".to_string(), "B".to_string()]]);
    assert_eq!(witnesses(&p), vec![cycle(3, &["A<-B", "B<-A"])]);
    assert_eq!(codes(&diags), vec!["FAB201", "FAB701", "FAB702"]);
    assert!(p.cycles[0].routes.iter().any(|r| r.contains("a loop")), "{:#?}", p.cycles[0].routes);
    // The looping traffic never arrives.
    assert!(p.unreachable.iter().any(|u| u.from == "h1" && u.to == "h3"));
}

#[test]
fn tagger_clos_with_two_failed_links_bounces_into_a_cbd() {
    let (p, diags) = prove("deadlock/tagger-clos.fab");
    assert!(p.facts.possible, "{}", explain(&p));
    assert_eq!(witnesses(&p), vec![cycle(3, &["L2<-S2", "S1<-L2", "L3<-S1", "S2<-L3"])]);
    assert_eq!(codes(&diags), vec!["FAB201"]);
    let d = diags.iter().find(|d| d.code == Code::CyclicBufferDependency).expect("FAB201");
    let help = d.help.clone().unwrap_or_default();
    assert!(help.contains("bounces at"), "{help}");
    assert!(help.contains("bounce-tagging 3 -> 4"), "{help}");
    assert!(help.contains("lossless off"), "{help}");
    assert!(p.cycles[0].routes.iter().any(|r| r.contains("a bounce at `L3`")), "{:#?}", p.cycles[0].routes);
}

#[test]
fn ring_under_shortest_path_has_a_cycle_each_way() {
    let (p, diags) = prove("deadlock/ring-shortest.fab");
    assert!(p.facts.possible);
    assert_eq!(
        witnesses(&p),
        vec![
            cycle(3, &["R1<-R2", "R6<-R1", "R5<-R6", "R4<-R5", "R3<-R4", "R2<-R3"]),
            cycle(3, &["R1<-R6", "R2<-R1", "R3<-R2", "R4<-R3", "R5<-R4", "R6<-R5"]),
        ]
    );
    assert_eq!(codes(&diags), vec!["FAB201", "FAB201"]);
}

#[test]
fn sonic_dual_tor_bounce_is_a_cbd() {
    let (p, diags) = prove("deadlock/sonic-dual-tor.fab");
    assert!(p.facts.possible);
    assert_eq!(witnesses(&p), vec![cycle(3, &["T1<-ToRA", "ToRB<-T1", "T1<-ToRB", "ToRA<-T1"])]);
    assert_eq!(codes(&diags), vec!["FAB201"]);
    // The turns back up at the ToRs exist only because of the tunnelled (path) traffic.
    let paths = p.cycles[0].routes.iter().filter(|r| r.contains("path statement")).count();
    assert_eq!(paths, 2, "{:#?}", p.cycles[0].routes);
}

#[test]
fn sonic_dual_tor_remapped_is_deadlock_free() {
    let (p, diags) = prove("deadlock/sonic-dual-tor-remapped.fab");
    assert!(!p.facts.possible, "{}", explain(&p));
    assert!(p.cycles.is_empty());
    assert_eq!(codes(&diags), Vec::<&str>::new());
    // The bounced copy now waits in priority 2.
    let g = p.graph.as_ref().expect("graph built");
    assert!(g.edge_list().iter().any(|(a, b)| a.priority == 3 && b.priority == 2));
}

#[test]
fn lossless_flooding_closes_a_cycle() {
    let (p, diags) = prove("deadlock/flooding.fab");
    assert!(p.facts.possible);
    assert_eq!(witnesses(&p), vec![cycle(3, &["La<-T0", "T1<-La", "Lb<-T1", "T0<-Lb"])]);
    assert_eq!(codes(&diags), vec!["FAB201"]);
}

#[test]
fn intact_two_tier_clos_under_updown_is_deadlock_free() {
    for name in ["deadlock/clos-2tier.fab", "fabrics/explicit-leaf-spine.fab"] {
        let (p, diags) = prove(name);
        assert!(p.certified, "{name}: plain updown is certified");
        assert!(!p.facts.possible, "{name}: {}", explain(&p));
        assert!(p.cycles.is_empty());
        assert!(p.unreachable.is_empty(), "{name}: {:?}", p.unreachable);
        assert_eq!(codes(&diags), Vec::<&str>::new(), "{name}");
        // The graph was built anyway (force_graph) and has real dependencies, all acyclic.
        let g = p.graph.as_ref().expect("graph built");
        assert!(g.cyclic_components().is_empty());
        if name.starts_with("deadlock/") {
            // Leaf -> spine -> leaf turns: each spine queue from a leaf feeds the other three leaves.
            assert_eq!(g.graph.edge_count(), 2 * 4 * 3);
        }
    }
}

#[test]
fn intact_three_tier_clos_under_updown_is_deadlock_free() {
    let (p, diags) = prove("deadlock/clos-3tier.fab");
    assert!(!p.facts.possible, "{}", explain(&p));
    assert!(p.cycles.is_empty());
    assert!(p.unreachable.is_empty(), "{:?}", p.unreachable);
    assert_eq!(codes(&diags), Vec::<&str>::new());
    let g = p.graph.as_ref().expect("graph built");
    // Super-spine turns exist: a queue at a super-spine from a pod-1 spine feeds pod-2 spines.
    let sw = |name: &str| fabric_switch(&fabricc_load("deadlock/clos-3tier.fab"), name);
    let (s1, x1, s3) = (sw("S1"), sw("X1"), sw("S3"));
    assert!(g.edge_list().iter().any(|(a, b)| a.switch == x1 && a.from == s1 && b.switch == s3 && b.from == x1));
}


fn fabricc_load(name: &str) -> Fabric {
    load(name).0
}

fn fabric_switch(f: &Fabric, name: &str) -> u32 {
    f.switches.iter().position(|s| s.name == name).expect("switch exists") as u32
}
