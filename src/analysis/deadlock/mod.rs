//! The PFC deadlock proof (docs/deadlock.md): the resolved `Fabric` in; findings out — cyclic
//! buffer dependencies with a minimal witness and remedies (FAB201), Tagger's conditions
//! (FAB202), lossless priorities against the model's limit (FAB203), and the routing findings
//! the proof depends on (FAB701 unreachable pairs, FAB702 static-route loops, FAB703 hops that
//! are not adjacent, FAB704 a peer link whose MLAG failover the proof does not cover) — plus
//! `facts.deadlock` and `facts.unreachable`.
//!
//! Steps: validate the routing statements; compute next hops per destination group on the
//! fabric without its `fail` links; build the buffer-dependency graph (`buffer_graph`); find
//! its cyclic components with Tarjan's algorithm and a minimal cycle in each (`witness`);
//! then prove every scenario of `check failures N` (`failures`).
//!
//! One shortcut skips building the graph: plain `routing updown` (no static routes, paths,
//! rewrites or bounce-tagging) is acyclic on every topology and every failure scenario.
//! Proof (Autonet up*/down*, Schroeder et al., IEEE JSAC 1991; docs/deadlock.md): rank a
//! queue entered from below (or from a host) by the switch's tier `t`, and one entered from
//! above by `2·T − t` (`T` the highest tier). Valley-free routes only climb, turn once, then
//! descend: climbing raises `t`; descending lowers `t`, raising `2·T − t`; the turn goes from
//! rank `t ≤ T` to `2·T − t' > T` (`t' < t ≤ T`). The priority does not enter the rank, so
//! per-switch priority overrides do not matter. Every edge raises the rank, so there is no
//! cycle. Routing is still computed in full, for unreachable pairs.
pub mod buffer_graph;
mod ctx;
pub mod failures;
pub mod orbits;
pub mod pairs;
mod peer_links;
mod proof;
mod report;
pub mod symmetry;
pub mod tagger;
pub mod witness;

use crate::diagnostic::Diagnostic;
use crate::model::Fabric;

use super::facts::{DeadlockFacts, Unreachable};

pub use ctx::{Ctx, Cycle, Proof, SCENARIO_FINDINGS};
pub use proof::{Options, prove};

/// The pass as `analysis::analyze` runs it.
pub fn check(
    fabric: &Fabric,
    limits: &crate::model::Limits,
    diags: &mut Vec<Diagnostic>,
) -> (DeadlockFacts, Vec<Unreachable>) {
    let proof = prove(
        fabric,
        Options {
            max_scenarios: limits.max_scenarios,
            max_unreachable: limits.max_unreachable,
            list_own_cable_pairs: false,
            ..Options::default()
        },
    );
    diags.extend(proof.diagnostics);
    (proof.facts, proof.unreachable)
}
