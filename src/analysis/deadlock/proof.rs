//! The proof itself (the steps in the `deadlock` module header): validate the routing
//! statements, route, build the buffer-dependency graph, find its cycles, prove every failure
//! scenario. The findings are worded in `report`.

use std::sync::Arc;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Fabric, RoutingModel};

use super::buffer_graph::BufferDependencyGraph;
use super::tagger::Qos;
use super::{buffer_graph, pairs, tagger};
use crate::analysis::routing::{self, Endpoints, Net};

use super::report::*;
use super::{Ctx, Proof, SCENARIO_FINDINGS, failures};

/// How to run the proof.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Build the graph even where the valley-free certificate makes it unnecessary (tests,
    /// benchmarks).
    pub force_graph: bool,
    /// Most distinct failure scenarios to prove; past it the proof stops (FAB204) rather
    /// than run for hours or exhaust memory.
    pub max_scenarios: u64,
    /// Most unreachable pairs listed in the facts (all are counted).
    pub max_unreachable: u64,
    /// List the pairs that failure scenarios cut off only by unplugging a NIC's own cables.
    /// `check` does not (G1: they are expected of single-homed NICs and made a healthy rail
    /// design's facts 20 MB; `own_cable_pairs` counts them); the brute-force tests do, to
    /// compare every pair. When off, the failure analysis counts them and never proves them
    /// again for their pairs (`failures::Settings::list_own`).
    pub list_own_cable_pairs: bool,
    /// Whether failure scenarios are proven by classes of symmetric ones (failures.rs).
    pub reduce: failures::Reduce,
}

impl Default for Options {
    fn default() -> Self {
        let limits = crate::model::Limits::default();
        Self {
            force_graph: false,
            max_scenarios: limits.max_scenarios,
            max_unreachable: limits.max_unreachable,
            list_own_cable_pairs: true,
            reduce: failures::Reduce::Auto,
        }
    }
}

pub fn prove(fabric: &Fabric, opts: Options) -> Proof {
    let mut proof = Proof::default();
    let cx = context(fabric, &mut proof);
    proof.certified = cx.certified();
    let build = !proof.certified || opts.force_graph;

    let n = usize::from(fabric.routing.check_failures.value.min(2));
    let mut graph = BufferDependencyGraph::default();
    let routes = cx.routes(cx.net(&[]), n, build.then_some(&mut graph));

    // Static-route loops.
    report_loops(&cx, &routes, &mut proof);
    // MLAG peer links whose failover forwarding the argument does not cover.
    proof
        .diagnostics
        .extend(super::peer_links::check(&cx, &routes.net));

    // Unreachable pairs of the fabric as declared: all counted, the first few listed.
    let budget = usize::try_from(opts.max_unreachable).unwrap_or(usize::MAX);
    let mut sample = pairs::PairSample::new(budget.max(1));
    routes.unreachable(&cx.isolated, &mut sample);
    if fabric.routing.model.value != RoutingModel::None {
        let (pairs, total) = sample.finish();
        let before = proof.diagnostics.len();
        report_unreachable(&cx, &pairs, total, &[], budget, &mut proof);
        if let (Some(d), Some(&(_, b))) = (proof.diagnostics.get_mut(before), pairs.first()) {
            super::report::blame_looping_routes(&cx, &routes, b, d);
        }
    }

    // Cycles of the fabric as declared.
    let mut possible = build && declared_cycles(&cx, &routes, &graph, &mut proof);

    // Failure scenarios.
    let outcome = failures::check(
        &cx,
        &routes,
        build.then_some(&graph),
        possible,
        failures::Settings {
            n,
            max_work: opts.max_scenarios,
            keep: budget.saturating_sub(proof.unreachable.len()),
            reduce: opts.reduce,
            list_own: opts.list_own_cable_pairs,
        },
    );
    // Scenarios analysed: past the bound only the fabric as declared was.
    proof.facts.complete = outcome.stopped.is_none();
    proof.facts.scenarios = if proof.facts.complete {
        1 + outcome.scenarios
    } else {
        1
    };
    proof.facts.proven = 1 + outcome.proven;
    if let Some(work) = outcome.stopped {
        proof.diagnostics.push(scenario_limit(
            fabric,
            n,
            work,
            &outcome,
            opts.max_scenarios,
        ));
    }
    report_scenarios_unreachable(&cx, &outcome, budget, opts.list_own_cable_pairs, &mut proof);
    if let Some((links, groutes, g)) = &outcome.first_cycle {
        possible = true;
        let names: Vec<String> = links.iter().map(|&l| cx.link_name(l)).collect();
        if let Some(c) = g.cyclic_components().first() {
            let cycle = describe_cycle(&cx, groutes, g, c, &names);
            let span = fabric.routing.check_failures.span;
            proof
                .diagnostics
                .push(cycle_diagnostic(&cx, groutes, g, &cycle, span));
            proof.cycles.push(cycle.0);
        }
    }
    proof.facts.possible = possible;
    proof.unreachable.sort();
    if build {
        proof.graph = Some(graph);
    }
    proof
}

/// The proof's context: validated paths, the QoS plan (its limits checked), the links the
/// fabric declares failed, the endpoints and where each attaches when nothing fails.
fn context<'f>(fabric: &'f Fabric, proof: &mut Proof) -> Ctx<'f> {
    let paths = validate(fabric, &mut proof.diagnostics);
    let qos = Qos::new(fabric);
    tagger::check_limits(fabric, &qos, &mut proof.diagnostics);
    let mut base_failed = vec![false; fabric.links.len()];
    for f in &fabric.routing.fails {
        for l in &f.links {
            base_failed[l.index()] = true;
        }
    }
    let ends = Arc::new(Endpoints::new(fabric));
    let intact_attach = routing::intact_attach(&Net::build_with(fabric, ends.clone(), &|_| false));
    let isolated = intact_attach.iter().map(Vec::is_empty).collect();
    proof.facts.destinations = if ends.bonds > 0 { "nic-or-bond" } else { "nic" }.into();
    proof.facts.endpoints = ends.len() as u64;
    Ctx {
        fabric,
        qos,
        paths,
        ends,
        intact_attach,
        base_failed,
        isolated,
    }
}

/// The buffer-dependency cycles of the fabric as declared, each a finding with its
/// witness; then, when the fabric rewrites priorities, the tagger's order. Returns whether
/// there is a cycle.
fn declared_cycles(
    cx: &Ctx<'_>,
    routes: &routing::Routes,
    graph: &BufferDependencyGraph,
    proof: &mut Proof,
) -> bool {
    let comps = graph.cyclic_components();
    for c in &comps {
        let cycle = describe_cycle(cx, routes, graph, c, &[]);
        proof.diagnostics.push(cycle_diagnostic(
            cx,
            routes,
            graph,
            &cycle,
            primary_span(cx, graph, c, &[]),
        ));
        proof.cycles.push(cycle.0);
    }
    if cx.qos.rewrites_anything() {
        tagger_order(cx, graph, &mut proof.diagnostics);
    }
    !comps.is_empty()
}

/// More failure scenarios than `--max-scenarios` would have to be proven one by one.
fn scenario_limit(
    fabric: &Fabric,
    n: usize,
    work: u64,
    outcome: &failures::Outcome,
    max_scenarios: u64,
) -> Diagnostic {
    let how = if outcome.by_classes {
        "one per class of symmetric scenarios"
    } else {
        "every distinct one: the fabric's symmetry does not divide them enough"
    };
    Diagnostic::new(
        Code::ScenarioLimit,
        fabric.routing.check_failures.span,
        format!(
            "`check failures {n}` means {} failure scenarios, of which {work} would \
                 have to be proven one by one ({how}), more than the limit of {}; they \
                 were not proven",
            outcome.scenarios, max_scenarios
        ),
    )
    .label("the failure scenarios asked for here")
    .help(
        "deadlock freedom is proven for the fabric as declared only: raise the \
             limit with `--max-scenarios`, or ask for fewer failures",
    )
}

/// The failure scenarios that cut NIC pairs off: one finding per scenario for the first
/// few; the rest are one summary, so that a fabric of single-homed hosts under `check
/// failures 2` does not print 40,000 warnings. Scenarios that only unplug NICs (G1) are not
/// warnings at all: one line of advice counts them. Every pair is counted in the facts; the
/// others are listed while the budget lasts, own-cable ones only counted (`own_cable_pairs`).
fn report_scenarios_unreachable(
    cx: &Ctx<'_>,
    outcome: &failures::Outcome,
    budget: usize,
    list_own: bool,
    proof: &mut Proof,
) {
    let names = |scenario: &[crate::model::LinkId]| -> Vec<String> {
        scenario.iter().map(|&l| cx.link_name(l)).collect()
    };
    let mut reported = 0usize;
    let mut rest_pairs = 0u64;
    let mut rest_scenarios = 0u64;
    for (scenario, pairs, total, own) in &outcome.unreachable {
        if *own {
            // Counted in the advice below and in `own_cable_pairs`; in the outcome only when
            // asked (`failures::Settings::list_own`), so listed only then.
            if list_own {
                list_pairs(cx, pairs, &names(scenario), budget, proof);
            }
        } else if reported < SCENARIO_FINDINGS {
            report_unreachable(cx, pairs, *total, &names(scenario), budget, proof);
            reported += 1;
        } else {
            list_pairs(cx, pairs, &names(scenario), budget, proof);
            rest_scenarios += 1;
            rest_pairs = rest_pairs.saturating_add(*total);
        }
    }
    // `more`: the cutting scenarios past the listing, own-cable ones among them.
    let listed_own = outcome
        .unreachable
        .iter()
        .filter(|u| u.3)
        .fold((0u64, 0u64), |(n, p), u| (n + 1, p.saturating_add(u.2)));
    let more_own = (
        outcome.own.0.saturating_sub(listed_own.0),
        outcome.own.1.saturating_sub(listed_own.1),
    );
    rest_scenarios = rest_scenarios.saturating_add(outcome.more.0.saturating_sub(more_own.0));
    rest_pairs = rest_pairs.saturating_add(outcome.more.1.saturating_sub(more_own.1));
    // The own-cable pairs are counted by the advice; the listed others by their findings.
    proof.facts.unreachable_pairs = proof.facts.unreachable_pairs.saturating_add(rest_pairs);
    report_own_cables(cx, outcome, proof);
    if rest_scenarios > 0 {
        proof.diagnostics.push(
            Diagnostic::new(
                Code::Unreachable,
                cx.fabric.routing.check_failures.span,
                format!(
                    "{rest_scenarios} more failure scenarios cut NIC pairs off ({rest_pairs} \
                     pair(s) in all); the first {SCENARIO_FINDINGS} scenarios are reported one \
                     by one"
                ),
            )
            .label("failure scenarios checked here")
            .help(
                "the JSON facts (`--facts`) list the pairs (up to `--max-unreachable`) and \
                 count them all in `facts.deadlock.unreachable_pairs`",
            ),
        );
    }
}

/// G1: scenarios that only unplug NICs (a single-homed NIC's one cable, or every cable of an
/// endpoint) cut off exactly that NIC's own pairs, which no redundancy in the fabric could
/// keep. They are one line of advice with the counts, never a warning per cable; the pairs
/// are counted in `facts.deadlock.unreachable_pairs` and not listed.
fn report_own_cables(cx: &Ctx<'_>, outcome: &failures::Outcome, proof: &mut Proof) {
    let (scenarios, pairs) = outcome.own;
    if scenarios == 0 {
        return;
    }
    proof.facts.unreachable_pairs = proof.facts.unreachable_pairs.saturating_add(pairs);
    proof.facts.own_cable_pairs = proof.facts.own_cable_pairs.saturating_add(pairs);
    let mut d = Diagnostic::new(
        Code::Unreachable,
        cx.fabric.routing.check_failures.span,
        format!(
            "{scenarios} failure scenario(s) only unplug NICs from the fabric (each fails every \
             cable of a NIC or bond), cutting off that NIC's own traffic ({pairs} pair(s) in \
             all): expected of single-homed NICs"
        ),
    )
    .label("failure scenarios checked here")
    .help(
        "nothing to fix in the fabric: a NIC with one cable is reachable only over it; \
         dual-home the NICs (a bond to two switches) where a cable fault must not cut a GPU off",
    );
    d.severity = crate::diagnostic::Severity::Advice;
    proof.diagnostics.push(d);
}

// ---------------------------------------------------------------- validation (FAB703)

/// Checks that routes, paths and rewrites name adjacent hops; returns the usable paths.
fn validate(fabric: &Fabric, diags: &mut Vec<Diagnostic>) -> Vec<usize> {
    let intact = Net::build(fabric, &|_| false);
    let adjacent = |a: DeviceId, b: DeviceId| buffer_graph::linked(&intact, a, b);
    let name = |d: DeviceId| fabric.device_name(d).to_string();
    for r in &fabric.routing.routes {
        let at = DeviceId::Switch(r.at);
        if !adjacent(at, r.via) {
            diags.push(
                Diagnostic::new(
                    Code::NotAdjacent,
                    r.span,
                    format!(
                        "static route at `{}` goes via `{}`, which is not its neighbour",
                        name(at),
                        name(r.via)
                    ),
                )
                .label("route declared here")
                .help(format!("`via` names a device linked to `{}`", name(at))),
            );
        }
    }
    let mut ok = Vec::new();
    for (i, p) in fabric.routing.paths.iter().enumerate() {
        let mut good = p.hops.len() >= 2;
        for (j, w) in p.hops.windows(2).enumerate() {
            if !adjacent(w[0], w[1]) {
                diags.push(
                    Diagnostic::new(
                        Code::NotAdjacent,
                        p.span,
                        format!(
                            "path hop `{}` -> `{}` is not a link",
                            name(w[0]),
                            name(w[1])
                        ),
                    )
                    .label("path declared here")
                    .help("each hop of a `path` must be linked to the next"),
                );
                good = false;
            }
            if j > 0 && matches!(w[0], DeviceId::Host(_)) {
                diags.push(
                    Diagnostic::new(
                        Code::NotAdjacent,
                        p.span,
                        format!(
                            "path passes through host `{}`, and hosts never forward",
                            name(w[0])
                        ),
                    )
                    .label("path declared here")
                    .help("a host may only start or end a `path`"),
                );
                good = false;
            }
        }
        if good {
            ok.push(i);
        }
    }
    for r in &fabric.routing.rewrites {
        let at = DeviceId::Switch(r.at);
        for (what, d) in [("from", r.from), ("to", r.to)] {
            if !adjacent(at, d) {
                diags.push(
                    Diagnostic::new(
                        Code::NotAdjacent,
                        r.span,
                        format!(
                            "rewrite at `{}` names `{what} {}`, which is not its neighbour",
                            name(at),
                            name(d)
                        ),
                    )
                    .label("rewrite declared here")
                    .help(format!(
                        "`from` and `to` name devices linked to `{}`",
                        name(at)
                    )),
                );
            }
        }
    }
    ok
}

// ---------------------------------------------------------------- findings
