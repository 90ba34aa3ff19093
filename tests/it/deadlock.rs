//! The deadlock proof on the published examples (Hu et al., HotNets 2016 and Tagger, CoNEXT
//! 2017; docs/deadlock.md) and on intact Clos fabrics: each test asserts the verdict and the exact witness cycle, in the JSON `cycle` form.

use std::path::Path;

use fabricc::analysis::deadlock::failures::Reduce;
use fabricc::analysis::deadlock::{self, Options, Proof};
use fabricc::diagnostic::{Code, CycleHop, Diagnostic};
use fabricc::model::{Fabric, Limits};
use fabricc::pipeline;
use fabricc::source::Sources;

fn load(name: &str) -> (Fabric, Vec<Diagnostic>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    let mut sources = Sources::new();
    let checked =
        pipeline::check(&mut sources, &path, &Limits::default()).expect("fixture readable");
    let shown = fabricc::diagnostic::short::render_short(&checked.diagnostics, &sources);
    let fabric = checked
        .fabric
        .unwrap_or_else(|| panic!("{name} did not resolve:\n{shown}"));
    (fabric, checked.diagnostics)
}

fn prove(name: &str) -> (Proof, Vec<Diagnostic>) {
    let (fabric, diags) = load(name);
    (
        deadlock::prove(
            &fabric,
            Options {
                force_graph: true,
                ..Options::default()
            },
        ),
        diags,
    )
}

/// `"A<-D"`-style hops at priority `p`, for readable expectations.
fn cycle(p: u8, hops: &[&str]) -> Vec<CycleHop> {
    hops.iter()
        .map(|h| {
            let (switch, from) = h.split_once("<-").expect("hop is SWITCH<-FROM");
            CycleHop {
                switch: switch.into(),
                from: from.into(),
                priority: p,
            }
        })
        .collect()
}

fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = diags
        .iter()
        .map(|d| d.code.as_str())
        .filter(|c| c.starts_with("FAB2") || c.starts_with("FAB7"))
        .collect();
    v.sort_unstable();
    v
}

fn witnesses(p: &Proof) -> Vec<Vec<CycleHop>> {
    p.cycles.iter().map(|c| c.hops.clone()).collect()
}

fn explain(p: &Proof) -> String {
    p.diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {}\n  help: {:?}\n  notes: {:#?}\n",
                d.code, d.message, d.help, d.notes
            )
        })
        .collect()
}

#[test]
fn hotnets_square_with_two_flows_is_a_cbd() {
    let (p, diags) = prove("deadlock/hotnets-square.fab");
    assert!(p.facts.possible, "{}", explain(&p));
    assert_eq!(
        witnesses(&p),
        vec![cycle(3, &["A<-D", "B<-A", "C<-B", "D<-C"])]
    );
    assert_eq!(codes(&diags), vec!["FAB201"]);
    let d = diags
        .iter()
        .find(|d| d.code == Code::CyclicBufferDependency)
        .expect("FAB201");
    assert!(
        d.message
            .starts_with("deadlock possible (cyclic buffer dependency)")
    );
    assert!(!d.message.contains("certain"));
    assert_eq!(
        d.cycle.as_ref(),
        Some(&cycle(3, &["A<-D", "B<-A", "C<-B", "D<-C"]))
    );
    // Every edge names a route that induces it.
    assert_eq!(p.cycles[0].routes.len(), 4);
    assert!(
        p.cycles[0].routes.iter().all(|r| r.contains("route h")),
        "{:#?}",
        p.cycles[0].routes
    );
}

#[test]
fn static_route_loop_between_two_switches() {
    let (p, diags) = prove("deadlock/hotnets-loop.fab");
    assert!(p.facts.possible);
    assert_eq!(p.loops, vec![vec!["A".to_string(), "B".to_string()]]);
    assert_eq!(witnesses(&p), vec![cycle(3, &["A<-B", "B<-A"])]);
    assert_eq!(codes(&diags), vec!["FAB201", "FAB701", "FAB702"]);
    assert!(
        p.cycles[0].routes.iter().any(|r| r.contains("a loop")),
        "{:#?}",
        p.cycles[0].routes
    );
    // The looping traffic never arrives.
    assert!(p.unreachable.iter().any(|u| u.from == "h1" && u.to == "h3"));
}

#[test]
fn tagger_clos_with_two_failed_links_bounces_into_a_cbd() {
    let (p, diags) = prove("deadlock/tagger-clos.fab");
    assert!(p.facts.possible, "{}", explain(&p));
    assert_eq!(
        witnesses(&p),
        vec![cycle(3, &["L2<-S2", "S1<-L2", "L3<-S1", "S2<-L3"])]
    );
    assert_eq!(codes(&diags), vec!["FAB201"]);
    let d = diags
        .iter()
        .find(|d| d.code == Code::CyclicBufferDependency)
        .expect("FAB201");
    let help = d.help.clone().unwrap_or_default();
    assert!(help.contains("bounces at"), "{help}");
    assert!(help.contains("bounce-tagging 3 -> 4"), "{help}");
    assert!(help.contains("lossless off"), "{help}");
    assert!(
        p.cycles[0]
            .routes
            .iter()
            .any(|r| r.contains("a bounce at `L3`")),
        "{:#?}",
        p.cycles[0].routes
    );
}

#[test]
fn ring_under_shortest_path_has_a_cycle_each_way() {
    let (p, diags) = prove("deadlock/ring-shortest.fab");
    assert!(p.facts.possible);
    assert_eq!(
        witnesses(&p),
        vec![
            cycle(
                3,
                &["R1<-R2", "R6<-R1", "R5<-R6", "R4<-R5", "R3<-R4", "R2<-R3"]
            ),
            cycle(
                3,
                &["R1<-R6", "R2<-R1", "R3<-R2", "R4<-R3", "R5<-R4", "R6<-R5"]
            ),
        ]
    );
    assert_eq!(codes(&diags), vec!["FAB201", "FAB201"]);
}

#[test]
fn sonic_dual_tor_bounce_is_a_cbd() {
    let (p, diags) = prove("deadlock/sonic-dual-tor.fab");
    assert!(p.facts.possible);
    assert_eq!(
        witnesses(&p),
        vec![cycle(3, &["T1<-ToRA", "ToRB<-T1", "T1<-ToRB", "ToRA<-T1"])]
    );
    assert_eq!(codes(&diags), vec!["FAB201"]);
    // The turns back up at the ToRs exist only because of the tunnelled (path) traffic.
    let paths = p.cycles[0]
        .routes
        .iter()
        .filter(|r| r.contains("path statement"))
        .count();
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
    assert!(
        g.edge_list()
            .iter()
            .any(|(a, b)| a.priority == 3 && b.priority == 2)
    );
}

#[test]
fn lossless_flooding_closes_a_cycle() {
    let (p, diags) = prove("deadlock/flooding.fab");
    assert!(p.facts.possible);
    assert_eq!(
        witnesses(&p),
        vec![cycle(3, &["La<-T0", "T1<-La", "Lb<-T1", "T0<-Lb"])]
    );
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
    assert!(
        g.edge_list()
            .iter()
            .any(|(a, b)| a.switch == x1 && a.from == s1 && b.switch == s3 && b.from == x1)
    );
}

fn fabricc_load(name: &str) -> Fabric {
    load(name).0
}

fn fabric_switch(f: &Fabric, name: &str) -> u32 {
    f.switches
        .iter()
        .position(|s| s.name == name)
        .expect("switch exists") as u32
}

// ---------------------------------------------------------------- property test
//
// Random small fabrics (≤ 6 switches), routings (updown, shortest, static routes to hosts and
// to switches, via switches and via hosts, paths, rewrites, bounce-tagging, a bond) and
// failure sets. The reference below routes flow by flow — from every source NIC to every
// destination endpoint (a NIC, or a bond's NICs together) of another host, every ECMP branch,
// next hops found by enumerating paths — and builds the graph, the unreachable endpoint pairs
// and the failure verdict by brute force over every link set. The proof's per-destination
// construction and its failure shortcuts must agree with it.

mod brute {
    use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

    use fabricc::model::{DeviceId, Fabric, LinkId, RouteTarget, RoutingModel};

    pub type Edge = ((u32, u32, u8), (u32, u32, u8));
    type Adjacency = HashMap<(u32, u32, u8), Vec<(u32, u32, u8)>>;
    const LOSSY: u8 = 0xFE;

    pub struct Net {
        adj: Vec<BTreeSet<u32>>,
        /// Per host: switches any of its NICs is cabled to.
        attach: Vec<BTreeSet<u32>>,
        /// Per (host, NIC): the switch its link goes to, when the link is up.
        nic: HashMap<(u32, u32), u32>,
    }

    /// The endpoints of host `h`: each NIC alone, except that the NICs a bond lists (the first
    /// bond listing a NIC wins) are one endpoint. In NIC order of their first NIC.
    pub fn endpoints(f: &Fabric, h: u32) -> Vec<Vec<u32>> {
        let host = &f.hosts[h as usize];
        let n = host.nics.len() as u32;
        let bond_of = |nic: u32| host.bonds.iter().position(|b| b.contains(&nic));
        let mut out: Vec<Vec<u32>> = Vec::new();
        for nic in 0..n {
            if out.iter().any(|u| u.contains(&nic)) {
                continue;
            }
            match bond_of(nic) {
                Some(b) => out.push((0..n).filter(|&m| bond_of(m) == Some(b)).collect()),
                None => out.push(vec![nic]),
            }
        }
        out
    }

    /// Every endpoint as (host, its NICs), hosts in order.
    pub fn all_endpoints(f: &Fabric) -> Vec<(u32, Vec<u32>)> {
        (0..f.hosts.len() as u32)
            .flat_map(|h| endpoints(f, h).into_iter().map(move |u| (h, u)))
            .collect()
    }

    /// `h1.nic2`, a bond's NICs joined by `+`.
    pub fn endpoint_name(f: &Fabric, (h, nics): &(u32, Vec<u32>)) -> String {
        nics.iter()
            .map(|n| format!("{}.nic{}", f.hosts[*h as usize].name, n + 1))
            .collect::<Vec<_>>()
            .join("+")
    }

    impl Net {
        /// Switches the endpoint's NICs are cabled to, over links that are up.
        pub fn goal(&self, (h, nics): &(u32, Vec<u32>)) -> BTreeSet<u32> {
            nics.iter()
                .filter_map(|&n| self.nic.get(&(*h, n)).copied())
                .collect()
        }
    }

    pub fn net(f: &Fabric, down: &HashSet<LinkId>) -> Net {
        let mut adj = vec![BTreeSet::new(); f.switches.len()];
        let mut attach = vec![BTreeSet::new(); f.hosts.len()];
        let mut nic = HashMap::new();
        for (i, l) in f.links.iter().enumerate() {
            if down.contains(&LinkId(i as u32)) {
                continue;
            }
            match (l.a.device, l.b.device) {
                (DeviceId::Switch(a), DeviceId::Switch(b)) => {
                    adj[a.index()].insert(b.0);
                    adj[b.index()].insert(a.0);
                }
                (DeviceId::Switch(s), DeviceId::Host(h)) => {
                    attach[h.index()].insert(s.0);
                    nic.insert((h.0, l.b.port), s.0);
                }
                (DeviceId::Host(h), DeviceId::Switch(s)) => {
                    attach[h.index()].insert(s.0);
                    nic.insert((h.0, l.a.port), s.0);
                }
                _ => {}
            }
        }
        Net { adj, attach, nic }
    }

    fn tier(f: &Fabric, s: u32) -> Option<u8> {
        f.switches[s as usize].tier.map(|t| t.value)
    }

    #[derive(Clone)]
    enum Next {
        Deliver,
        Via(Vec<u32>),
        Drop,
    }

    /// Valley-free paths from `s` (phase up = may still climb), by enumeration: the first hops
    /// of the minimum-length ones.
    fn updown_next(f: &Fabric, n: &Net, s: u32, up: bool, goal: &BTreeSet<u32>) -> Next {
        if goal.contains(&s) {
            return Next::Deliver;
        }
        let mut best = usize::MAX;
        let mut firsts = BTreeSet::new();
        // The reference search spells its whole state out as arguments, on purpose: it is meant
        // to be read against the definition, not to be clever.
        #[allow(clippy::too_many_arguments)]
        fn dfs(
            f: &Fabric,
            n: &Net,
            s: u32,
            up: bool,
            goal: &BTreeSet<u32>,
            len: usize,
            seen: &mut Vec<u32>,
            first: Option<u32>,
            best: &mut usize,
            firsts: &mut BTreeSet<u32>,
        ) {
            if len > n.adj.len() || len > *best {
                return;
            }
            if len > 0 && goal.contains(&s) {
                if len < *best {
                    *best = len;
                    firsts.clear();
                }
                if let Some(x) = first {
                    firsts.insert(x);
                }
                return;
            }
            for &t in &n.adj[s as usize] {
                if seen.contains(&t) {
                    continue;
                }
                let (ts, tt) = (tier(f, s), tier(f, t));
                if ts.is_none() || tt.is_none() {
                    continue;
                }
                let next_up = if tt > ts {
                    if !up {
                        continue;
                    }
                    true
                } else if tt < ts {
                    false
                } else {
                    continue;
                };
                seen.push(t);
                dfs(
                    f,
                    n,
                    t,
                    next_up,
                    goal,
                    len + 1,
                    seen,
                    first.or(Some(t)),
                    best,
                    firsts,
                );
                seen.pop();
            }
        }
        dfs(
            f,
            n,
            s,
            up,
            goal,
            0,
            &mut vec![s],
            None,
            &mut best,
            &mut firsts,
        );
        if firsts.is_empty() {
            Next::Drop
        } else {
            Next::Via(firsts.into_iter().collect())
        }
    }

    fn shortest_next(n: &Net, s: u32, goal: &BTreeSet<u32>) -> Next {
        let mut dist: HashMap<u32, usize> = HashMap::new();
        let mut q = VecDeque::new();
        for &g in goal {
            dist.insert(g, 0);
            q.push_back(g);
        }
        while let Some(x) = q.pop_front() {
            for &y in &n.adj[x as usize] {
                if !dist.contains_key(&y) {
                    dist.insert(y, dist[&x] + 1);
                    q.push_back(y);
                }
            }
        }
        match dist.get(&s) {
            None => Next::Drop,
            Some(0) => Next::Deliver,
            Some(&d) => Next::Via(
                n.adj[s as usize]
                    .iter()
                    .copied()
                    .filter(|t| dist.get(t) == Some(&(d - 1)))
                    .collect(),
            ),
        }
    }

    /// Next hops at `s` toward endpoint `dst` = (host, NICs).
    fn next(f: &Fabric, n: &Net, intact: &Net, s: u32, up: bool, dst: &(u32, Vec<u32>)) -> Next {
        let goal = n.goal(dst);
        // Static routes: host-specific first, then by declaration order. `to SWITCH` is the
        // switch's subnet: the endpoints cabled to it as declared.
        let mut routes: Vec<(bool, usize)> = f
            .routing
            .routes
            .iter()
            .enumerate()
            .filter(|(_, r)| r.at.0 == s)
            .filter(|(_, r)| match r.to {
                RouteTarget::Host(h) => h.0 == dst.0,
                RouteTarget::Switch(x) => intact.goal(dst).contains(&x.0),
            })
            .map(|(i, r)| (!matches!(r.to, RouteTarget::Host(_)), i))
            .collect();
        routes.sort();
        for (_, i) in routes {
            let r = &f.routing.routes[i];
            match r.via {
                DeviceId::Switch(v) if n.adj[s as usize].contains(&v.0) => {
                    return Next::Via(vec![v.0]);
                }
                // Out of the port to host h: only a NIC of the destination endpoint there
                // accepts it.
                DeviceId::Host(h) if n.attach[h.index()].contains(&s) => {
                    return if h.0 == dst.0 && goal.contains(&s) {
                        Next::Deliver
                    } else {
                        Next::Drop
                    };
                }
                _ => {}
            }
        }
        match f.routing.model.value {
            RoutingModel::Updown => updown_next(f, n, s, up, &goal),
            RoutingModel::Shortest => shortest_next(n, s, &goal),
            RoutingModel::None => {
                if goal.contains(&s) {
                    Next::Deliver
                } else {
                    Next::Drop
                }
            }
        }
    }

    fn prio(f: &Fabric, class: usize, rewritten: Option<u8>) -> u8 {
        rewritten.unwrap_or(f.classes[class].priority.value)
    }

    fn lossless(f: &Fabric, p: u8) -> bool {
        p != LOSSY
            && f.classes
                .iter()
                .any(|c| c.lossless.value && c.priority.value == p)
    }

    fn step(f: &Fabric, from: DeviceId, at: u32, to: u32, p: u8, r: Option<u8>) -> Option<u8> {
        if r == Some(LOSSY) {
            return r;
        }
        if let Some(rw) = f.routing.rewrites.iter().find(|w| {
            w.at.0 == at
                && w.from == from
                && w.to == DeviceId::Switch(fabricc::model::SwitchId(to))
                && w.old == p
        }) {
            return Some(rw.new);
        }
        if let (Some(list), DeviceId::Switch(u)) = (&f.routing.bounce_tagging, from) {
            let (a, b, c) = (tier(f, u.0), tier(f, at), tier(f, to));
            if a.is_some()
                && b.is_some()
                && c.is_some()
                && a > b
                && c > b
                && let Some(i) = list.value.iter().position(|&x| x == p)
            {
                return Some(list.value.get(i + 1).copied().unwrap_or(LOSSY));
            }
        }
        r
    }

    /// Every edge and every unreachable (source endpoint, destination endpoint) pair of one
    /// scenario, endpoints as indices into `all_endpoints`.
    pub fn scenario(f: &Fabric, down: &HashSet<LinkId>) -> (BTreeSet<Edge>, BTreeSet<(u32, u32)>) {
        let intact = net(f, &HashSet::new());
        let n = net(f, down);
        let units = all_endpoints(f);
        let mut edges = BTreeSet::new();
        let mut unreachable = BTreeSet::new();
        let sent: Vec<usize> = (0..f.classes.len())
            .filter(|&c| f.classes[c].dscp.is_some())
            .collect();
        // Next hops depend only on (switch, phase, destination) within one scenario.
        let mut memo: HashMap<(u32, bool, usize), Next> = HashMap::new();
        for (si, src) in units.iter().enumerate() {
            for (di, dst) in units.iter().enumerate() {
                // Endpoints with no link at all take no part (FAB605 reports such hosts).
                if src.0 == dst.0 || intact.goal(src).is_empty() || intact.goal(dst).is_empty() {
                    continue;
                }
                let mut delivered = false;
                for a in n.goal(src) {
                    for &c in &sent {
                        // State: (from device, at switch, rewritten priority).
                        let mut seen = HashSet::new();
                        let mut stack =
                            vec![(DeviceId::Host(fabricc::model::HostId(src.0)), a, None::<u8>)];
                        while let Some((from, at, r)) = stack.pop() {
                            if !seen.insert((from, at, r)) {
                                continue;
                            }
                            let p = prio(f, c, r);
                            let up = match from {
                                DeviceId::Host(_) => true,
                                DeviceId::Switch(u) => {
                                    tier(f, at) > tier(f, u.0) && tier(f, u.0).is_some()
                                }
                            };
                            let up = up || f.routing.model.value != RoutingModel::Updown;
                            let hop = memo
                                .entry((at, up, di))
                                .or_insert_with(|| next(f, &n, &intact, at, up, dst))
                                .clone();
                            match hop {
                                Next::Deliver => delivered = true,
                                Next::Drop => {}
                                Next::Via(v) => {
                                    for t in v {
                                        let r2 = step(f, from, at, t, p, r);
                                        let q = prio(f, c, r2);
                                        if let DeviceId::Switch(u) = from
                                            && lossless(f, p)
                                            && r != Some(LOSSY)
                                            && lossless(f, q)
                                            && r2 != Some(LOSSY)
                                        {
                                            edges.insert(((at, u.0, p), (t, at, q)));
                                        }
                                        stack.push((
                                            DeviceId::Switch(fabricc::model::SwitchId(at)),
                                            t,
                                            r2,
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
                if !delivered {
                    unreachable.insert((si as u32, di as u32));
                }
            }
        }
        // Paths.
        for p in &f.routing.paths {
            let classes: Vec<usize> = match p.class {
                Some(c) => vec![c.index()],
                None => sent.clone(),
            };
            for c in classes {
                let mut r: Option<u8> = None;
                let mut prev: Option<(u32, u32, u8)> = None;
                for i in 0..p.hops.len() - 1 {
                    let (a, b) = (p.hops[i], p.hops[i + 1]);
                    let up = match (a, b) {
                        (DeviceId::Switch(x), DeviceId::Switch(y)) => {
                            n.adj[x.index()].contains(&y.0)
                        }
                        (DeviceId::Switch(s), DeviceId::Host(h))
                        | (DeviceId::Host(h), DeviceId::Switch(s)) => {
                            n.attach[h.index()].contains(&s.0)
                        }
                        _ => false,
                    };
                    if !up {
                        break;
                    }
                    let DeviceId::Switch(bs) = b else { break };
                    if let (DeviceId::Switch(x), true) = (a, i > 0) {
                        r = step(f, p.hops[i - 1], x.0, bs.0, prio(f, c, r), r);
                    }
                    let q = prio(f, c, r);
                    let node = match a {
                        DeviceId::Switch(x) if lossless(f, q) && r != Some(LOSSY) => {
                            Some((bs.0, x.0, q))
                        }
                        _ => None,
                    };
                    if let (Some(x), Some(y)) = (prev, node) {
                        edges.insert((x, y));
                    }
                    prev = node;
                }
            }
        }
        (edges, unreachable)
    }

    /// The queues reachable from `v` that reach `v`: its strongly connected component.
    pub fn component(edges: &BTreeSet<Edge>, v: (u32, u32, u8)) -> Vec<(u32, u32, u8)> {
        let reach = |rev: bool| {
            let mut seen: HashSet<(u32, u32, u8)> = HashSet::from([v]);
            let mut stack = vec![v];
            while let Some(x) = stack.pop() {
                for &(a, b) in edges {
                    let (from, to) = if rev { (b, a) } else { (a, b) };
                    if from == x && seen.insert(to) {
                        stack.push(to);
                    }
                }
            }
            seen
        };
        let fwd = reach(false);
        let back = reach(true);
        let mut out: Vec<_> = fwd.intersection(&back).copied().collect();
        out.sort();
        out
    }

    /// The length of a shortest cycle through `v`, by BFS.
    pub fn shortest_cycle_through(edges: &BTreeSet<Edge>, v: (u32, u32, u8)) -> Option<usize> {
        let mut dist: HashMap<(u32, u32, u8), usize> = HashMap::from([(v, 0)]);
        let mut q = VecDeque::from([v]);
        while let Some(x) = q.pop_front() {
            for &(a, b) in edges.range((x, (0, 0, 0))..=(x, (u32::MAX, u32::MAX, u8::MAX))) {
                debug_assert_eq!(a, x);
                if b == v {
                    return Some(dist[&x] + 1);
                }
                if !dist.contains_key(&b) {
                    dist.insert(b, dist[&x] + 1);
                    q.push_back(b);
                }
            }
        }
        None
    }

    pub fn cyclic(edges: &BTreeSet<Edge>) -> bool {
        let mut out: Adjacency = HashMap::new();
        for (a, b) in edges {
            out.entry(*a).or_default().push(*b);
        }
        // Colour DFS.
        let mut colour: HashMap<(u32, u32, u8), u8> = HashMap::new();
        fn visit(
            v: (u32, u32, u8),
            out: &Adjacency,
            colour: &mut HashMap<(u32, u32, u8), u8>,
        ) -> bool {
            colour.insert(v, 1);
            for &w in out.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
                match colour.get(&w) {
                    Some(1) => return true,
                    Some(_) => {}
                    None => {
                        if visit(w, out, colour) {
                            return true;
                        }
                    }
                }
            }
            colour.insert(v, 2);
            false
        }
        let nodes: Vec<_> = out.keys().copied().collect();
        nodes
            .into_iter()
            .any(|v| !colour.contains_key(&v) && visit(v, &out, &mut colour))
    }
}

mod random {
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    pub struct Spec {
        pub tiers: Vec<u8>,
        pub updown: bool,
        /// (a, b, count)
        pub links: Vec<(usize, usize, u8)>,
        /// host -> switches
        pub hosts: Vec<Vec<usize>>,
        /// (at, target, via): target < 100 a host, else the switch `target - 100`; via < 100 a
        /// neighbouring switch, else a host cabled to `at`.
        pub routes: Vec<(usize, usize, usize)>,
        pub path: Option<(usize, Vec<usize>)>, // (start host, neighbour choices)
        pub rewrite: Option<(usize, usize, usize)>,
        pub bounce: bool,
        pub fail: Option<usize>,
        pub check: u8,
        /// A host whose first two NICs form a bond.
        pub bond: Option<usize>,
        /// Planes 1 and 2 on the NICs, from these bits (`plane 1, 2` on explicit links: the
        /// labels need not follow the topology), or none.
        pub planes: Option<u8>,
    }

    impl Spec {
        /// Labels the NICs with planes as `planes` says (after resolving, like the bond).
        pub fn label_planes(&self, fabric: &mut fabricc::model::Fabric) {
            let Some(bits) = self.planes else { return };
            for (h, host) in fabric.hosts.iter_mut().enumerate() {
                for (i, nic) in host.nics.iter_mut().enumerate() {
                    nic.plane = 1 + u32::from(bits >> ((h * 3 + i) % 8) & 1);
                }
            }
        }
    }

    pub fn spec() -> impl Strategy<Value = Spec> {
        (2usize..=6).prop_flat_map(|n| {
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            let np = pairs.len();
            (
                proptest::collection::vec(1u8..=3, n),
                any::<bool>(),
                proptest::collection::vec((0u8..3, 1u8..=2), np),
                proptest::collection::vec(proptest::collection::btree_set(0..n, 1..=2), 1..=4),
                proptest::collection::vec(
                    (
                        0..n,
                        prop_oneof![3 => 0usize..4, 1 => 100usize..106],
                        prop_oneof![3 => 0usize..6, 1 => 100usize..104],
                    ),
                    0..=2,
                ),
                proptest::option::of((0usize..4, proptest::collection::vec(0usize..6, 1..=4))),
                proptest::option::of((0..n, 0usize..6, 0usize..6)),
                any::<bool>(),
                proptest::option::of(0usize..30),
                (
                    0u8..=2,
                    proptest::option::of(0usize..4),
                    proptest::option::weighted(0.3, any::<u8>()),
                ),
            )
                .prop_map(
                    move |(
                        tiers,
                        updown,
                        link_bits,
                        hosts,
                        routes,
                        path,
                        rewrite,
                        bounce,
                        fail,
                        (check, bond, planes),
                    )| {
                        let links = pairs
                            .iter()
                            .zip(link_bits)
                            .filter(|(_, (present, _))| *present > 0)
                            .map(|(&(a, b), (_, count))| (a, b, count))
                            .collect();
                        Spec {
                            tiers,
                            updown,
                            links,
                            hosts: hosts.into_iter().map(|s| s.into_iter().collect()).collect(),
                            routes,
                            path,
                            rewrite,
                            bounce,
                            fail,
                            check,
                            bond,
                            planes,
                        }
                    },
                )
        })
    }

    impl Spec {
        fn neighbours(&self, s: usize) -> Vec<usize> {
            let mut v: Vec<usize> = self
                .links
                .iter()
                .filter_map(|&(a, b, _)| {
                    if a == s {
                        Some(b)
                    } else if b == s {
                        Some(a)
                    } else {
                        None
                    }
                })
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        }

        pub fn text(&self) -> String {
            let mut t = String::from(
                "fabric p {\n  class roce { dscp 26  priority 3  lossless  bandwidth 50% }\n  class roce2 { priority 4  lossless  bandwidth 10% }\n  class cnp  { dscp 48  priority 6  strict  cnp }\n  class bulk { dscp other  priority 0  bandwidth 40% }\n  switch-model sw { os sonic  ports 32 x 100G }\n  nic-model nic { driver mlx5  speed 100G }\n",
            );
            for (i, tier) in self.tiers.iter().enumerate() {
                t += &format!("  switch s{i} {{ model sw  tier {tier} }}\n");
            }
            for (h, sw) in self.hosts.iter().enumerate() {
                t += &format!("  host h{h} {{ nic nic x {} }}\n", sw.len());
                for s in sw {
                    t += &format!("  link h{h} -- s{s}\n");
                }
            }
            let mut all_links = Vec::new();
            for &(a, b, c) in &self.links {
                t += &format!("  link s{a} -- s{b} {{ count {c} }}\n");
                all_links.push(format!("s{a} -- s{b}"));
            }
            for (h, sw) in self.hosts.iter().enumerate() {
                for s in sw {
                    all_links.push(format!("h{h} -- s{s}"));
                }
            }
            t += if self.updown {
                "  routing updown\n"
            } else {
                "  routing shortest\n"
            };
            for &(at, target, via) in &self.routes {
                let to = if target >= 100 {
                    format!("s{}", (target - 100) % self.tiers.len())
                } else {
                    format!("h{}", target % self.hosts.len())
                };
                let via = if via >= 100 {
                    let cabled: Vec<usize> = (0..self.hosts.len())
                        .filter(|&h| self.hosts[h].contains(&at))
                        .collect();
                    if cabled.is_empty() {
                        continue;
                    }
                    format!("h{}", cabled[(via - 100) % cabled.len()])
                } else {
                    let nb = self.neighbours(at);
                    if nb.is_empty() {
                        continue;
                    }
                    format!("s{}", nb[via % nb.len()])
                };
                t += &format!("  route at s{at} to {to} via {via}\n");
            }
            if let Some((start, choices)) = &self.path {
                let h = start % self.hosts.len();
                let mut hops = vec![format!("h{h}")];
                let mut cur = self.hosts[h][0];
                hops.push(format!("s{cur}"));
                for &c in choices {
                    let nb = self.neighbours(cur);
                    if nb.is_empty() {
                        break;
                    }
                    cur = nb[c % nb.len()];
                    hops.push(format!("s{cur}"));
                }
                t += &format!("  path {}\n", hops.join(" -> "));
            }
            if let Some((at, from, to)) = self.rewrite {
                let nb = self.neighbours(at);
                if !nb.is_empty() {
                    t += &format!(
                        "  rewrite at s{at} from s{} to s{} priority 3 -> 4\n",
                        nb[from % nb.len()],
                        nb[to % nb.len()]
                    );
                }
            }
            if self.bounce {
                t += "  bounce-tagging 3 -> 4\n";
            }
            if let Some(i) = self.fail
                && !all_links.is_empty()
            {
                t += &format!("  fail {}\n", all_links[i % all_links.len()]);
            }
            if self.check > 0 {
                t += &format!("  check failures {}\n", self.check);
            }
            t += "}\n";
            t
        }
    }
}

mod symmetric {
    use proptest::prelude::*;

    /// Leaves `(group, rail)`, every leaf linked to every spine (`count` links, one pair one
    /// more when `uneven`), every spine to every super-spine; host `(group, k)` has a NIC per
    /// rail, NIC `r` cabled to leaf `(group, r)`. Optional statements break some symmetry.
    #[derive(Debug, Clone)]
    pub struct Spec {
        pub groups: usize,
        pub rails: usize,
        pub hosts: usize,
        pub spines: usize,
        pub supers: usize,
        pub count: u8,
        pub uneven: bool,
        pub updown: bool,
        /// (at, target, via) as in `random::Spec`: target < 100 a host, else a switch.
        pub route: Option<(usize, usize, usize)>,
        pub rewrite: Option<(usize, usize, usize)>,
        pub bounce: bool,
        pub fail: Option<usize>,
        pub path: Option<(usize, Vec<usize>)>,
        pub bond: Option<usize>,
        pub check: u8,
    }

    pub fn spec() -> impl Strategy<Value = Spec> {
        (
            (1usize..=2, 1usize..=2, 1usize..=2, 1usize..=3, 0usize..=2),
            (1u8..=2, prop::bool::weighted(0.2), any::<bool>()),
            proptest::option::weighted(
                0.3,
                (0usize..9, prop_oneof![0usize..4, 100usize..109], 0usize..8),
            ),
            proptest::option::weighted(0.2, (0usize..9, 0usize..8, 0usize..8)),
            prop::bool::weighted(0.2),
            proptest::option::weighted(0.2, 0usize..64),
            proptest::option::weighted(
                0.2,
                (0usize..4, proptest::collection::vec(0usize..8, 1..=4)),
            ),
            proptest::option::weighted(0.2, 0usize..4),
            1u8..=2,
        )
            .prop_map(
                |(
                    (groups, rails, hosts, spines, supers),
                    (count, uneven, updown),
                    route,
                    rewrite,
                    bounce,
                    fail,
                    path,
                    bond,
                    check,
                )| Spec {
                    groups,
                    rails,
                    hosts,
                    spines,
                    supers,
                    count,
                    uneven,
                    updown,
                    route,
                    rewrite,
                    bounce,
                    fail,
                    path,
                    bond,
                    check,
                },
            )
    }

    impl Spec {
        fn switches(&self) -> usize {
            self.groups * self.rails + self.spines + self.supers
        }

        /// Switch–switch links as (a, b, count).
        fn links(&self) -> Vec<(usize, usize, u8)> {
            let leaves = self.groups * self.rails;
            let mut out = Vec::new();
            for l in 0..leaves {
                for k in 0..self.spines {
                    let extra = u8::from(self.uneven && l == 0 && k == 0);
                    out.push((l, leaves + k, self.count + extra));
                }
            }
            for k in 0..self.spines {
                for t in 0..self.supers {
                    out.push((leaves + k, leaves + self.spines + t, 1));
                }
            }
            out
        }

        fn neighbours(&self, s: usize) -> Vec<usize> {
            let mut v: Vec<usize> = self
                .links()
                .into_iter()
                .filter_map(|(a, b, _)| (a == s).then_some(b).or((b == s).then_some(a)))
                .collect();
            v.sort_unstable();
            v
        }

        /// Per host: the leaves of its NICs, in NIC order.
        fn host_leaves(&self) -> Vec<Vec<usize>> {
            (0..self.groups)
                .flat_map(|g| (0..self.hosts).map(move |_| g))
                .map(|g| (0..self.rails).map(|r| g * self.rails + r).collect())
                .collect()
        }

        pub fn text(&self) -> String {
            let mut t = String::from(
                "fabric p {\n  class roce { dscp 26  priority 3  lossless  bandwidth 50% }\n  class roce2 { priority 4  lossless  bandwidth 10% }\n  class cnp  { dscp 48  priority 6  strict  cnp }\n  class bulk { dscp other  priority 0  bandwidth 40% }\n  switch-model sw { os sonic  ports 32 x 100G }\n  nic-model nic { driver mlx5  speed 100G }\n",
            );
            let leaves = self.groups * self.rails;
            for i in 0..self.switches() {
                let tier = if i < leaves {
                    1
                } else if i < leaves + self.spines {
                    2
                } else {
                    3
                };
                t += &format!("  switch s{i} {{ model sw  tier {tier} }}\n");
            }
            let hosts = self.host_leaves();
            let mut all_links = Vec::new();
            for (h, sw) in hosts.iter().enumerate() {
                t += &format!("  host h{h} {{ nic nic x {} }}\n", sw.len());
                for s in sw {
                    t += &format!("  link h{h} -- s{s}\n");
                    all_links.push(format!("h{h} -- s{s}"));
                }
            }
            for (a, b, c) in self.links() {
                t += &format!("  link s{a} -- s{b} {{ count {c} }}\n");
                all_links.push(format!("s{a} -- s{b}"));
            }
            t += if self.updown {
                "  routing updown\n"
            } else {
                "  routing shortest\n"
            };
            let n = self.switches();
            if let Some((at, target, via)) = self.route {
                let at = at % n;
                let to = if target >= 100 {
                    Some(format!("s{}", (target - 100) % n))
                } else {
                    Some(format!("h{}", target % hosts.len()))
                };
                let nb = self.neighbours(at);
                let cabled: Vec<usize> = (0..hosts.len())
                    .filter(|&h| hosts[h].contains(&at))
                    .collect();
                // Via a neighbouring switch, or (odd `via`, when some is cabled) a host.
                let via = if via % 2 == 1 && !cabled.is_empty() {
                    Some(format!("h{}", cabled[via / 2 % cabled.len()]))
                } else if !nb.is_empty() {
                    Some(format!("s{}", nb[via % nb.len()]))
                } else {
                    None
                };
                if let (Some(to), Some(via)) = (to, via) {
                    t += &format!("  route at s{at} to {to} via {via}\n");
                }
            }
            if let Some((start, choices)) = &self.path {
                let h = start % hosts.len();
                let mut hops = vec![format!("h{h}")];
                let mut cur = hosts[h][0];
                hops.push(format!("s{cur}"));
                for &c in choices {
                    let nb = self.neighbours(cur);
                    if nb.is_empty() {
                        break;
                    }
                    cur = nb[c % nb.len()];
                    hops.push(format!("s{cur}"));
                }
                t += &format!("  path {}\n", hops.join(" -> "));
            }
            if let Some((at, from, to)) = self.rewrite {
                let at = at % n;
                let nb = self.neighbours(at);
                if !nb.is_empty() {
                    t += &format!(
                        "  rewrite at s{at} from s{} to s{} priority 3 -> 4\n",
                        nb[from % nb.len()],
                        nb[to % nb.len()]
                    );
                }
            }
            if self.bounce {
                t += "  bounce-tagging 3 -> 4\n";
            }
            if let Some(i) = self.fail {
                t += &format!("  fail {}\n", all_links[i % all_links.len()]);
            }
            t += &format!("  check failures {}\n", self.check);
            t += "}\n";
            t
        }
    }
}

fn resolve_text(text: &str) -> Option<Fabric> {
    let mut sources = Sources::new();
    let loaded = fabricc::model::load::load_text(
        &mut sources,
        "prop.fab",
        text.to_string(),
        &Limits::default(),
    );
    let checked = pipeline::check_loaded(&sources, loaded, &Limits::default());
    checked.fabric
}

fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for a in 0..n {
        if k == 1 {
            out.push(vec![a]);
        } else {
            for b in a + 1..n {
                out.push(vec![a, b]);
            }
        }
    }
    out
}

/// The proof of `fabric` (generated as `text`) against the reference, scenario by scenario;
/// then the proof by classes of symmetric scenarios and the proof key by key must agree with
/// it exactly: the same counts, the same listed pairs and scenarios, the same witness.
fn agree_with_brute_force(
    fabric: &Fabric,
    text: &str,
    single_links: bool,
) -> Result<(), proptest::test_runner::TestCaseError> {
    use fabricc::model::LinkId;
    use std::collections::{BTreeSet, HashSet};
    let proof = deadlock::prove(
        fabric,
        Options {
            force_graph: true,
            ..Options::default()
        },
    );
    let quick = deadlock::prove(fabric, Options::default());
    proptest::prop_assert_eq!(
        proof.facts.possible,
        quick.facts.possible,
        "certificate disagrees\n{}",
        text
    );
    let units = brute::all_endpoints(fabric);
    proptest::prop_assert_eq!(proof.facts.endpoints, units.len() as u64);

    let base: HashSet<LinkId> = fabric
        .routing
        .fails
        .iter()
        .flat_map(|f| f.links.iter().copied())
        .collect();
    let (edges, unreachable) = brute::scenario(fabric, &base);
    let fast: BTreeSet<brute::Edge> = proof
        .graph
        .as_ref()
        .map(|g| {
            g.edge_list()
                .into_iter()
                .map(|(a, b)| {
                    (
                        (a.switch, a.from, a.priority),
                        (b.switch, b.from, b.priority),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    proptest::prop_assert_eq!(&fast, &edges, "graph differs\n{}", text);
    let name = |u: u32| brute::endpoint_name(fabric, &units[u as usize]);
    let host = |u: u32| fabric.hosts[units[u as usize].0 as usize].name.clone();
    for u in &proof.unreachable {
        // The v1 fields name the hosts of the endpoints.
        proptest::prop_assert!(u.from_nic.starts_with(&format!("{}.", u.from)), "{:?}", u);
        proptest::prop_assert!(u.to_nic.starts_with(&format!("{}.", u.to)), "{:?}", u);
    }
    let fast_unreach: BTreeSet<(String, String)> = proof
        .unreachable
        .iter()
        .filter(|u| u.scenario.is_empty())
        .map(|u| (u.from_nic.clone(), u.to_nic.clone()))
        .collect();
    // Pairs that share no plane are not expected to reach each other (a bond is in each of
    // its NICs' planes; a NIC in no plane, or a fabric without planes, in all).
    let planes = |u: u32| {
        let (h, nics) = &units[u as usize];
        nics.iter()
            .map(|&n| fabric.hosts[*h as usize].nics[n as usize].plane)
            .try_fold(0u32, |m, p| (p > 0).then(|| m | 1 << p))
            .unwrap_or(0)
    };
    let expected = |a: u32, b: u32| {
        let (x, y) = (planes(a), planes(b));
        x == 0 || y == 0 || x & y != 0
    };
    let brute_unreach: BTreeSet<(String, String)> = unreachable
        .iter()
        .filter(|&&(a, b)| expected(a, b))
        .map(|&(a, b)| (name(a), name(b)))
        .collect();
    proptest::prop_assert_eq!(
        &fast_unreach,
        &brute_unreach,
        "unreachable differs\n{}",
        text
    );
    let _ = host;

    // Every scenario of up to N more failed links.
    let alive: Vec<LinkId> = (0..fabric.links.len() as u32)
        .map(LinkId)
        .filter(|l| !base.contains(l))
        .collect();
    let n = usize::from(fabric.routing.check_failures.value);
    let mut possible = brute::cyclic(&edges);
    let mut cut: BTreeSet<(String, String, Vec<String>)> = BTreeSet::new();
    let mut cut_count = brute_unreach.len() as u64;
    let mut cyclic_scenarios: Vec<(Vec<String>, BTreeSet<brute::Edge>)> = Vec::new();
    let mut scenarios = 1u64;
    let link_name = |l: LinkId| {
        let link = fabric.link(l);
        format!(
            "{}--{}",
            fabric.device_name(link.a.device),
            fabric.device_name(link.b.device)
        )
    };
    for k in 1..=n {
        for set in subsets(alive.len(), k) {
            scenarios += 1;
            let mut down = base.clone();
            down.extend(set.iter().map(|&i| alive[i]));
            let (e, u) = brute::scenario(fabric, &down);
            let names: Vec<String> = set.iter().map(|&i| link_name(alive[i])).collect();
            if brute::cyclic(&e) {
                possible = true;
                cyclic_scenarios.push((names.clone(), e));
            }
            for &(a, b) in u.difference(&unreachable) {
                cut.insert((name(a), name(b), names.clone()));
                cut_count += 1;
            }
        }
    }
    if std::env::var("PROP_TRACE").is_ok() {
        eprintln!(
            "STATS edges={} intact_cyclic={} possible={} scenarios={} cut={} unreach={}",
            edges.len(),
            brute::cyclic(&edges),
            possible,
            scenarios,
            cut.len(),
            unreachable.len()
        );
    }
    proptest::prop_assert_eq!(proof.facts.scenarios, scenarios);
    proptest::prop_assert_eq!(proof.facts.possible, possible, "verdict differs\n{}", text);
    // Pairs cut by failures, and the scenario that cuts them. Scenarios that empty the same
    // bundles (parallel links) are one for the proof, listed under the bundles' links.
    let fast_cut: BTreeSet<(String, String)> = proof
        .unreachable
        .iter()
        .filter(|u| !u.scenario.is_empty())
        .map(|u| (u.from_nic.clone(), u.to_nic.clone()))
        .collect();
    let brute_cut: BTreeSet<(String, String)> =
        cut.iter().map(|(a, b, _)| (a.clone(), b.clone())).collect();
    proptest::prop_assert_eq!(
        &fast_cut,
        &brute_cut,
        "pairs cut by failures differ\n{}",
        text
    );
    for u in proof.unreachable.iter().filter(|u| !u.scenario.is_empty()) {
        let mut sc = u.scenario.clone();
        sc.sort();
        proptest::prop_assert!(
            cut.iter()
                .any(|(a, b, s)| *a == u.from_nic && *b == u.to_nic && {
                    let mut s = s.clone();
                    s.sort();
                    s == sc
                }),
            "{:?} is not cut by that scenario\n{}",
            u,
            text
        );
    }
    // Without parallel links every scenario is one of the proof's: the counts agree.
    if single_links {
        proptest::prop_assert_eq!(
            proof.facts.unreachable_pairs,
            cut_count,
            "count differs\n{}",
            text
        );
    }

    // Witnesses: each is a cycle of the graph of its scenario, and a shortest one.
    for c in &proof.cycles {
        let hops: Vec<(u32, u32, u8)> = c
            .hops
            .iter()
            .map(|h| {
                let sw = |n: &str| {
                    fabric
                        .switches
                        .iter()
                        .position(|s| s.name == n)
                        .expect("switch") as u32
                };
                (sw(&h.switch), sw(&h.from), h.priority)
            })
            .collect();
        let g = if c.scenario.is_empty() {
            &edges
        } else {
            let mut want = c.scenario.clone();
            want.sort();
            let found = cyclic_scenarios.iter().find(|(s, _)| {
                let mut s = s.clone();
                s.sort();
                s == want
            });
            proptest::prop_assert!(
                found.is_some(),
                "witness scenario {:?} has no cycle\n{}",
                c.scenario,
                text
            );
            &found.expect("checked").1
        };
        for i in 0..hops.len() {
            let e = (hops[i], hops[(i + 1) % hops.len()]);
            proptest::prop_assert!(g.contains(&e), "witness edge {:?} missing\n{}", e, text);
        }
        if c.minimal {
            // No shorter cycle anywhere in its strongly connected component.
            let shortest = brute::component(g, hops[0])
                .into_iter()
                .filter_map(|v| brute::shortest_cycle_through(g, v))
                .min();
            proptest::prop_assert_eq!(Some(hops.len()), shortest, "witness not shortest\n{}", text);
        }
    }

    // The listing budget changes what is listed, never what is counted or found.
    proptest::prop_assert_eq!(
        proof.facts.unreachable_pairs,
        proof.unreachable.len() as u64
    );
    let tight = deadlock::prove(
        fabric,
        Options {
            force_graph: true,
            max_unreachable: 1,
            ..Options::default()
        },
    );
    proptest::prop_assert_eq!(tight.facts.unreachable_pairs, proof.facts.unreachable_pairs);
    proptest::prop_assert!(tight.unreachable.len() <= 1);
    proptest::prop_assert_eq!(tight.diagnostics.len(), proof.diagnostics.len());
    proptest::prop_assert_eq!(tight.facts.possible, proof.facts.possible);

    // Classes of symmetric scenarios, and every key alone: exactly the same outcome.
    let by = |reduce: Reduce| {
        deadlock::prove(
            fabric,
            Options {
                force_graph: true,
                reduce,
                ..Options::default()
            },
        )
    };
    let summary = |p: &Proof| {
        (
            (
                p.facts.scenarios,
                p.facts.possible,
                p.facts.complete,
                p.facts.unreachable_pairs,
            ),
            p.unreachable.clone(),
            p.cycles.clone(),
            p.diagnostics
                .iter()
                .map(|d| (d.code.as_str(), d.message.clone()))
                .collect::<Vec<_>>(),
        )
    };
    let classes = by(Reduce::Classes);
    let keys = by(Reduce::Keys);
    proptest::prop_assert_eq!(
        summary(&classes),
        summary(&proof),
        "classes differ\n{}",
        text
    );
    proptest::prop_assert_eq!(summary(&keys), summary(&proof), "keys differ\n{}", text);
    Ok(())
}

proptest::proptest! {
    // PROPTEST_CASES=2000 for a deeper run (the default keeps `cargo test` quick).
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..Default::default()
    })]

    #[test]
    fn fast_construction_and_failure_analysis_agree_with_brute_force(spec in random::spec()) {
        let text = spec.text();
        if std::env::var("PROP_TRACE").is_ok() { eprintln!("CASE\n{text} bond {:?}", spec.bond); }
        let Some(mut fabric) = resolve_text(&text) else { panic!("generated fabric did not resolve:\n{text}") };
        if let Some(b) = spec.bond {
            let h = b % fabric.hosts.len();
            if fabric.hosts[h].nics.len() >= 2 {
                fabric.hosts[h].bonds = vec![vec![0, 1]];
            }
        }
        spec.label_planes(&mut fabric);
        agree_with_brute_force(&fabric, &text, spec.links.iter().all(|l| l.2 == 1))?;
    }

    /// Symmetric fabrics (groups of leaves per rail, spines, super-spines, hosts with a NIC
    /// per rail), some with a statement that breaks part of the symmetry: the reduction by
    /// symmetry must prove exactly what the reference proves.
    #[test]
    fn symmetry_reduction_agrees_with_brute_force(spec in symmetric::spec()) {
        let text = spec.text();
        if std::env::var("PROP_TRACE").is_ok() { eprintln!("CASE\n{text}"); }
        let Some(mut fabric) = resolve_text(&text) else { panic!("generated fabric did not resolve:\n{text}") };
        if let Some(b) = spec.bond {
            let h = b % fabric.hosts.len();
            if fabric.hosts[h].nics.len() >= 2 {
                fabric.hosts[h].bonds = vec![vec![0, 1]];
            }
        }
        agree_with_brute_force(&fabric, &text, spec.count == 1 && !spec.uneven)?;
    }
}

#[test]
fn check_failures_finds_the_first_scenario_with_a_cycle() {
    let (fabric, _) = load("deadlock/k4-shortest-check-failures.fab");
    let p = deadlock::prove(&fabric, Options::default());
    // 10 links: 10 single and 45 double failures, plus the fabric as declared.
    assert_eq!(p.facts.scenarios, 1 + 10 + 45);
    assert!(p.facts.possible);
    assert_eq!(p.cycles.len(), 1);
    assert_eq!(
        p.cycles[0].scenario,
        vec!["A--B".to_string(), "C--D".to_string()]
    );
    assert_eq!(
        p.cycles[0].hops,
        cycle(3, &["A<-C", "D<-A", "B<-D", "C<-B"])
    );
    let d = p
        .diagnostics
        .iter()
        .find(|d| d.code == Code::CyclicBufferDependency)
        .expect("FAB201");
    assert!(
        d.message.contains("when `A--B`, `C--D` fail(s)"),
        "{}",
        d.message
    );

    // With at most one failure the same fabric is deadlock-free.
    let mut one = fabric.clone();
    one.routing.check_failures.value = 1;
    let p1 = deadlock::prove(&one, Options::default());
    assert_eq!(p1.facts.scenarios, 1 + 10);
    assert!(!p1.facts.possible, "{}", explain(&p1));
}

/// Single-homed hosts under `check failures 2`: nearly every scenario cuts someone off. The
/// first `SCENARIO_FINDINGS` scenarios are one finding each, the rest one summary; the facts
/// still count and (within the budget) list every pair of every scenario.
#[test]
fn many_cutting_scenarios_are_summarised_but_counted_in_full() {
    let text = "fabric single {
  class roce { dscp 26  priority 3  lossless  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
  switch-model sw { os sonic  ports 32 x 100G }
  nic-model nic { driver mlx5  speed 100G }
  switch leaf[1..2] { model sw  tier 1 }
  switch spine[1..2] { model sw  tier 2 }
  host a[1..10], b[1..10] { nic nic }
  link a[1..10] -- leaf1
  link b[1..10] -- leaf2
  link leaf[1..2] -- spine[1..2]
  routing updown
  check failures 2
}
";
    let fabric = resolve_text(text).expect("resolves");
    let p = deadlock::prove(&fabric, Options::default());
    let fab701: Vec<&Diagnostic> = p
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::Unreachable)
        .collect();
    // G1: the scenarios that only unplug NICs (here: any set of host cables) are one line of
    // advice; the others are reported one by one, then summarised.
    let (advice, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) = fab701
        .iter()
        .partition(|d| d.severity == fabricc::diagnostic::Severity::Advice);
    assert_eq!(warnings.len(), deadlock::SCENARIO_FINDINGS + 1);
    assert_eq!(advice.len(), 1);
    assert!(
        advice[0].message.contains("only unplug NICs"),
        "{}",
        advice[0].message
    );
    let summary = fab701
        .iter()
        .find(|d| {
            d.message
                .contains("more failure scenarios cut NIC pairs off")
        })
        .expect("a summary finding");
    let host_cable = |l: &String| l.starts_with('a') || l.starts_with('b');
    let cutting: std::collections::BTreeSet<&Vec<String>> = p
        .unreachable
        .iter()
        .map(|u| &u.scenario)
        .filter(|s| !s.iter().all(host_cable))
        .collect();
    let more = cutting.len() - deadlock::SCENARIO_FINDINGS;
    assert!(
        summary.message.starts_with(&format!("{more} more")),
        "{}",
        summary.message
    );
    assert_eq!(p.facts.unreachable_pairs, p.unreachable.len() as u64);
    let tight = deadlock::prove(
        &fabric,
        Options {
            max_unreachable: 10,
            ..Options::default()
        },
    );
    assert_eq!(tight.facts.unreachable_pairs, p.facts.unreachable_pairs);
    assert_eq!(tight.unreachable.len(), 10);
    assert_eq!(tight.diagnostics.len(), p.diagnostics.len());
}

// ---------------------------------------------------------------- issue 22 regressions

/// Traffic goes to a NIC, not to a host: h1's NIC on D is reached through A from B's side,
/// and its NIC on A through D from C's side, which closes the ring both ways.
#[test]
fn a_multi_homed_host_is_two_destinations_and_closes_the_ring() {
    let (p, diags) = prove("deadlock/multihomed-ring.fab");
    assert!(p.facts.possible, "{}", explain(&p));
    assert_eq!(p.facts.destinations, "nic");
    assert_eq!(p.facts.endpoints, 4);
    assert_eq!(
        witnesses(&p),
        vec![
            cycle(3, &["A<-B", "D<-A", "C<-D", "B<-C"]),
            cycle(3, &["A<-D", "B<-A", "C<-B", "D<-C"]),
        ]
    );
    assert_eq!(codes(&diags), vec!["FAB201", "FAB201"]);
    // The witness names the NIC the traffic is for.
    assert!(
        p.cycles[0]
            .routes
            .iter()
            .any(|r| r.contains("route h2 -> B -> A -> D -> h1.nic2")),
        "{:#?}",
        p.cycles[0].routes
    );
}

/// The same fabric with h1's two NICs bonded (one address): traffic for h1 may arrive at A or
/// D, each source delivers at the nearer one, and there is no cycle.
#[test]
fn a_bond_is_one_destination_at_any_of_its_switches() {
    let (mut fabric, _) = load("deadlock/multihomed-ring.fab");
    fabric.hosts[0].bonds = vec![vec![0, 1]];
    let p = deadlock::prove(
        &fabric,
        Options {
            force_graph: true,
            ..Options::default()
        },
    );
    assert!(!p.facts.possible, "{}", explain(&p));
    assert_eq!(p.facts.destinations, "nic-or-bond");
    assert_eq!(p.facts.endpoints, 3);
    assert!(p.unreachable.is_empty(), "{:?}", p.unreachable);
}

fn cut_pairs(p: &Proof) -> Vec<(String, String, Vec<String>)> {
    let mut v: Vec<_> = p
        .unreachable
        .iter()
        .map(|u| (u.from_nic.clone(), u.to_nic.clone(), u.scenario.clone()))
        .collect();
    v.sort();
    v
}

fn owned(v: &[(&str, &str, &[&str])]) -> Vec<(String, String, Vec<String>)> {
    let mut out: Vec<_> = v
        .iter()
        .map(|(a, b, s)| {
            (
                a.to_string(),
                b.to_string(),
                s.iter().map(|x| x.to_string()).collect(),
            )
        })
        .collect();
    out.sort();
    out
}

const FOUR_CLASSES: &str = "  class roce { dscp 26 priority 3 lossless bandwidth 50% }
  class cnp { dscp 48 priority 6 strict cnp }
  class bulk { dscp other priority 0 bandwidth 50% }
  switch-model m { os sonic ports 32 x 400G buffer 64MB lossless-limit 2 }
  nic-model n { driver mlx5 speed 400G }
";

/// A keeps a next hop toward h2 when `D -- A` fails, but the one left (B) sends the traffic
/// back to A: h1 -> h2 is cut by that failure as well as by `C -- D`.
#[test]
fn a_switch_left_with_only_a_looping_branch_does_not_reach() {
    let text = format!(
        "fabric unreachable-after-failure-ecmp-branch-loops {{
{FOUR_CLASSES}  switch A {{ model m }}
  switch B {{ model m }}
  switch C {{ model m }}
  switch D {{ model m }}
  host h1 {{ nic n }}
  host h2 {{ nic n }}
  link h1 -- A
  link h2 -- C
  link A -- B
  link B -- C
  link C -- D
  link D -- A
  routing shortest
  check failures 1
  route at B to h2 via A
}}
"
    );
    let fabric = resolve_text(&text).expect("resolves");
    let p = deadlock::prove(&fabric, Options::default());
    assert_eq!(
        cut_pairs(&p),
        owned(&[
            ("h1.nic1", "h2.nic1", &["C--D"]),
            ("h1.nic1", "h2.nic1", &["D--A"]),
            ("h1.nic1", "h2.nic1", &["h1--A"]),
            ("h1.nic1", "h2.nic1", &["h2--C"]),
            ("h2.nic1", "h1.nic1", &["h1--A"]),
            ("h2.nic1", "h1.nic1", &["h2--C"]),
        ])
    );
    assert_eq!(p.facts.unreachable_pairs, 6);
    assert_eq!(p.facts.scenarios, 7);
}

/// Up-down: S2's static route sends h1's traffic down to L3, which may not climb again, so
/// that branch drops; when `L4 -- S3` fails, L4 is left with S2 only and h4 -> h1 is cut.
#[test]
fn a_switch_left_with_only_a_dropping_branch_does_not_reach() {
    let text = format!(
        "fabric unreachable-after-failure-updown-drop {{
{FOUR_CLASSES}  switch L1 {{ model m  tier 1 }}
  switch L3 {{ model m  tier 1 }}
  switch L4 {{ model m  tier 1 }}
  switch S2 {{ model m  tier 2 }}
  switch S3 {{ model m  tier 2 }}
  host h1 {{ nic n }}
  host h4 {{ nic n }}
  link h1 -- L1
  link h4 -- L4
  link L4 -- S2
  link L4 -- S3
  link L1 -- S2
  link L1 -- S3
  link L3 -- S2
  routing updown
  check failures 1
  route at S2 to h1 via L3
}}
"
    );
    let fabric = resolve_text(&text).expect("resolves");
    let p = deadlock::prove(&fabric, Options::default());
    assert_eq!(
        cut_pairs(&p),
        owned(&[
            ("h1.nic1", "h4.nic1", &["h1--L1"]),
            ("h1.nic1", "h4.nic1", &["h4--L4"]),
            ("h4.nic1", "h1.nic1", &["L1--S3"]),
            ("h4.nic1", "h1.nic1", &["L4--S3"]),
            ("h4.nic1", "h1.nic1", &["h1--L1"]),
            ("h4.nic1", "h1.nic1", &["h4--L4"]),
        ])
    );
    assert_eq!(p.facts.unreachable_pairs, 6);
    assert!(!p.facts.possible);
}

/// FAB203: a rewrite into a priority that a class runs lossy on that switch is a demotion
/// and needs no PFC; a rewrite into a priority no class uses keeps the traffic lossless
/// (Tagger) and counts.
#[test]
fn a_demotion_to_a_lossy_class_is_not_a_lossless_priority() {
    let fabric_with = |new: u8| {
        format!(
            "fabric demote {{
  class roce {{ dscp 26 priority 3 lossless bandwidth 50% }}
  class cnp {{ dscp 48 priority 6 strict cnp }}
  class bulk {{ dscp other priority 0 bandwidth 50% }}
  switch-model m {{ os sonic ports 32 x 400G buffer 64MB lossless-limit 1 }}
  nic-model n {{ driver mlx5 speed 400G }}
  switch L1 {{ model m  tier 1 }}
  switch L2 {{ model m  tier 1 }}
  switch S1 {{ model m  tier 2 }}
  host h1 {{ nic n }}
  host h2 {{ nic n }}
  link h1 -- L1
  link h2 -- L2
  link L1 -- S1
  link L2 -- S1
  rewrite at S1 from L1 to L2 priority 3 -> {new}
}}
"
        )
    };
    let demoted = resolve_text(&fabric_with(0)).expect("resolves");
    let p = deadlock::prove(&demoted, Options::default());
    assert_eq!(codes(&p.diagnostics), Vec::<&str>::new(), "{}", explain(&p));

    let tagged = resolve_text(&fabric_with(4)).expect("resolves");
    let p = deadlock::prove(&tagged, Options::default());
    let d = p
        .diagnostics
        .iter()
        .find(|d| d.code == Code::LosslessLimit)
        .expect("FAB203");
    assert!(
        d.message
            .contains("switch `L2` needs 2 lossless priorities"),
        "{}",
        d.message
    );
    assert!(
        d.notes
            .iter()
            .any(|n| n == "priorities that need PFC on `L2`: 3, 4"),
        "{:?}",
        d.notes
    );
}

/// The pair counts of `check failures 2` with two-NIC hosts, single-NIC hosts and a bond are
/// those of the flow-by-flow reference, whether the pairs are listed (every scenario routed)
/// or, once the listing budget is spent, counted from the declared fabric's reachability.
#[test]
fn failure_pair_counts_agree_with_brute_force_whatever_the_listing_budget() {
    use std::collections::HashSet;
    let text = "fabric counts {
  class roce { dscp 26  priority 3  lossless  bandwidth 50% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 50% }
  switch-model sw { os sonic  ports 32 x 100G }
  nic-model nic { driver mlx5  speed 100G }
  switch leaf[1..3] { model sw  tier 1 }
  switch spine[1..2] { model sw  tier 2 }
  host a[1..4] { nic nic x 2 }
  host b[1..4] { nic nic }
  link a[1..4] -- leaf1
  link a[1..4] -- leaf2
  link b[1..2] -- leaf2
  link b[3..4] -- leaf3
  link leaf[1..3] -- spine[1..2]
  routing updown
  check failures 2
}
";
    let mut fabric = resolve_text(text).expect("resolves");
    fabric.hosts[0].bonds = vec![vec![0, 1]];
    let counted = |max_unreachable: u64| {
        deadlock::prove(
            &fabric,
            Options {
                max_unreachable,
                ..Options::default()
            },
        )
    };
    let full = counted(1_000_000);
    assert_eq!(full.facts.unreachable_pairs, full.unreachable.len() as u64);
    let base = HashSet::new();
    let (_, intact) = brute::scenario(&fabric, &base);
    let mut expected = intact.len() as u64;
    let n = fabric.links.len();
    for k in 1..=2 {
        for set in subsets(n, k) {
            let down: HashSet<fabricc::model::LinkId> = set
                .iter()
                .map(|&i| fabricc::model::LinkId(i as u32))
                .collect();
            let (_, u) = brute::scenario(&fabric, &down);
            expected += u.difference(&intact).count() as u64;
        }
    }
    assert!(expected > 1000, "{expected}");
    assert_eq!(full.facts.unreachable_pairs, expected);
    for budget in [0, 1, 10, 500] {
        let p = counted(budget);
        assert_eq!(p.facts.unreachable_pairs, expected, "budget {budget}");
        assert!(
            p.unreachable.len() as u64 <= budget.max(1),
            "budget {budget}"
        );
        assert_eq!(
            p.diagnostics.len(),
            full.diagnostics.len(),
            "budget {budget}"
        );
    }
}

/// `check failures 2` fixtures, their verdicts and witnesses checked against the reference.
#[test]
fn failures_2_with_a_static_bounce_route_finds_the_loop_a_single_failure_makes() {
    use std::collections::HashSet;
    let (fabric, _) = load("deadlock/clos-static-bounce-failures2.fab");
    let p = deadlock::prove(&fabric, Options::default());
    assert!(p.facts.complete);
    assert!(p.facts.possible, "{}", explain(&p));
    // 9 links: 9 single and 36 double failures, plus the fabric as declared.
    assert_eq!(p.facts.scenarios, 1 + 9 + 36);
    assert_eq!(p.cycles.len(), 1);
    assert_eq!(p.cycles[0].scenario, vec!["L3--S2".to_string()]);
    assert_eq!(p.cycles[0].hops, cycle(3, &["L2<-S2", "S2<-L2"]));
    // The reference agrees: acyclic as declared, cyclic without L3--S2.
    let (declared, _) = brute::scenario(&fabric, &HashSet::new());
    assert!(!brute::cyclic(&declared));
    let l = fabric
        .links
        .iter()
        .position(|l| {
            let n = |d| fabric.device_name(d).to_string();
            (n(l.a.device), n(l.b.device)) == ("L3".into(), "S2".into())
        })
        .expect("L3--S2");
    let down: HashSet<_> = [fabricc::model::LinkId(l as u32)].into_iter().collect();
    assert!(brute::cyclic(&brute::scenario(&fabric, &down).0));
    // The same fabric proven to one failure finds the same witness.
    let mut one = fabric.clone();
    one.routing.check_failures.value = 1;
    let p1 = deadlock::prove(&one, Options::default());
    assert_eq!(p1.cycles[0].hops, p.cycles[0].hops);
}

/// A symmetric fabric (two groups of two rail leaves, two spines, two hosts per group, one
/// NIC per rail) under `check failures 2`: the proof by classes proves fewer than 30
/// representatives instead of every one of its 136 keys, and finds exactly what the proof key
/// by key finds; a static route pins what it names and the classes grow, still exact.
#[test]
fn symmetric_scenarios_are_proven_once_per_class() {
    let mut spec = symmetric::Spec {
        groups: 2,
        rails: 2,
        hosts: 2,
        spines: 2,
        supers: 0,
        count: 1,
        uneven: false,
        updown: true,
        route: None,
        rewrite: None,
        bounce: false,
        fail: None,
        path: None,
        bond: None,
        check: 2,
    };
    let run = |spec: &symmetric::Spec| {
        let fabric = resolve_text(&spec.text()).expect("resolves");
        let by = |reduce| {
            deadlock::prove(
                &fabric,
                Options {
                    force_graph: true,
                    reduce,
                    ..Options::default()
                },
            )
        };
        let (classes, keys) = (by(Reduce::Classes), by(Reduce::Keys));
        assert_eq!(classes.facts.scenarios, keys.facts.scenarios);
        assert_eq!(
            classes.facts.unreachable_pairs,
            keys.facts.unreachable_pairs
        );
        assert_eq!(classes.unreachable, keys.unreachable);
        assert_eq!(classes.facts.possible, keys.facts.possible);
        assert_eq!(classes.cycles, keys.cycles);
        // Proven one by one: the fabric as declared, a representative per class, and the
        // cutting scenarios listed (each proven again for its pairs).
        let listed: std::collections::BTreeSet<&Vec<String>> = classes
            .unreachable
            .iter()
            .filter(|u| !u.scenario.is_empty())
            .map(|u| &u.scenario)
            .collect();
        let representatives = classes.facts.proven - 1 - listed.len() as u64;
        (
            representatives,
            keys.facts.proven,
            keys.facts.unreachable_pairs,
        )
    };
    // 8 host links and 8 leaf–spine links: 16 keys alone, 120 pairs.
    let (classes, keys, cut) = run(&spec);
    assert_eq!(keys, 1 + 16 + 120, "the fabric as declared, then every key");
    assert!(cut > 0);
    // Orbits: host links, leaf–spine links; pairs of them by their relative position.
    assert!(classes < 30, "{classes} representatives");
    spec.route = Some((0, 0, 0)); // route at s0 to h0 via s4
    let (pinned, keys2, _) = run(&spec);
    assert_eq!(keys2, keys);
    assert!(pinned > classes, "{pinned} against {classes}");
}

/// G1 as `check` runs it (`list_own_cable_pairs: false`): the scenarios that only unplug a
/// NIC are counted and never proven again to list their pairs, and every count and finding
/// is the one a listing proof gives.
#[test]
fn own_cable_scenarios_are_counted_without_a_second_proof() {
    let spec = symmetric::Spec {
        groups: 2,
        rails: 2,
        hosts: 2,
        spines: 2,
        supers: 0,
        count: 1,
        uneven: false,
        updown: true,
        route: None,
        rewrite: None,
        bounce: false,
        fail: None,
        path: None,
        bond: None,
        check: 1,
    };
    let fabric = resolve_text(&spec.text()).expect("resolves");
    for reduce in [Reduce::Classes, Reduce::Keys] {
        let by = |list_own_cable_pairs| {
            deadlock::prove(
                &fabric,
                Options {
                    force_graph: true,
                    reduce,
                    list_own_cable_pairs,
                    ..Options::default()
                },
            )
        };
        let (listing, counting) = (by(true), by(false));
        assert!(counting.facts.own_cable_pairs > 0, "{reduce:?}");
        assert_eq!(
            counting.facts.own_cable_pairs,
            listing.facts.own_cable_pairs
        );
        assert_eq!(
            counting.facts.unreachable_pairs,
            listing.facts.unreachable_pairs
        );
        assert_eq!(counting.facts.scenarios, listing.facts.scenarios);
        assert_eq!(counting.diagnostics, listing.diagnostics, "{reduce:?}");
        assert!(
            counting.unreachable.len() < listing.unreachable.len(),
            "{reduce:?}: own-cable pairs are not listed"
        );
        if reduce == Reduce::Classes {
            // The listing proves every own-cable scenario again for its pairs; counting does not.
            assert!(
                counting.facts.proven < listing.facts.proven,
                "{} against {}",
                counting.facts.proven,
                listing.facts.proven
            );
        } else {
            assert_eq!(counting.facts.proven, listing.facts.proven);
        }
    }
}
