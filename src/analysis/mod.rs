//! Analyses: independent passes over the resolved `Fabric`, each producing diagnostics with a
//! stable code, and the facts they computed. No pass renders text.

pub mod buffer;
pub mod classes;
pub mod deadlock;
pub mod ecn;
pub mod facts;
pub mod group;
pub mod headroom;
pub mod hosts;
pub mod models;
pub mod nic_drivers;
pub mod nic_roles;
pub mod physics;
pub mod qos_plan;
pub mod routing;
pub mod topology;
pub mod watchdog;

pub use facts::Facts;

use crate::diagnostic::Diagnostic;
use crate::model::{Fabric, Limits};

/// Everything the analyses found about one fabric.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    pub diagnostics: Vec<Diagnostic>,
    pub facts: Facts,
    /// The headroom plan the checks verified: lowering configures these very numbers
    /// (`lower::lower_with_plan`) instead of computing them a second time.
    pub plan: headroom::HeadroomPlan,
}

/// Runs every analysis in a fixed order, within the default limits. Bench support
/// (benches/front_end.rs), not the product's: the pipeline calls `analyze_timed`.
#[cfg(feature = "internals")]
pub fn analyze(fabric: &Fabric) -> Findings {
    analyze_timed(fabric, &Limits::default(), None)
}

/// Runs every analysis in a fixed order within `limits` (the failure-scenario work bound),
/// recording the deadlock proof's own wall time in `timings` (it runs
/// beside the other passes, so it is a part of the `analyse` stage, not a stage of its own).
pub fn analyze_timed(
    fabric: &Fabric,
    limits: &Limits,
    timings: Option<&crate::timings::Timings>,
) -> Findings {
    // The deadlock proof is the longest pass and shares nothing with the others: it runs
    // beside them. The order of findings does not matter here (the pipeline sorts them).
    let ((mut diagnostics, oversubscription, plan), (deadlock_diags, (deadlock, unreachable))) =
        rayon::join(
            || {
                let mut diagnostics = Vec::new();
                models::check(fabric, &mut diagnostics);
                classes::check(fabric, &mut diagnostics);
                let oversubscription = topology::check(fabric, &mut diagnostics);
                let plan = headroom::headroom_plan(fabric);
                headroom::check(fabric, &plan, &mut diagnostics);
                buffer::check(fabric, &plan, &mut diagnostics);
                ecn::check(fabric, &plan, &mut diagnostics);
                qos_plan::check(fabric, &mut diagnostics);
                watchdog::check(fabric, &plan, &mut diagnostics);
                hosts::check(fabric, &mut diagnostics);
                nic_drivers::check(fabric, &mut diagnostics);
                nic_drivers::hccl_default(fabric, &mut diagnostics);
                (diagnostics, oversubscription, plan)
            },
            || {
                let start = std::time::Instant::now();
                let mut diagnostics = Vec::new();
                let proof = deadlock::check(fabric, limits, &mut diagnostics);
                if let Some(t) = timings {
                    t.part("deadlock proof", start.elapsed());
                }
                (diagnostics, proof)
            },
        );
    diagnostics.extend(deadlock_diags);
    let facts = Facts {
        switches: fabric.switches.len(),
        hosts: fabric.hosts.len(),
        links: fabric.links.len(),
        deadlock: Some(deadlock),
        unreachable,
        oversubscription,
        headroom: plan.rows(fabric),
        ecn: ecn::ecn_plan(fabric, &plan)
            .into_iter()
            .map(|q| facts::EcnRow {
                switch: fabric.switch(q.switch).name.clone(),
                class: fabric.class(q.class).name.clone(),
                priority: q.priority,
                enabled: q.enabled,
                min_bytes: q.kmin,
                max_bytes: q.kmax,
                probability_percent: q.probability as f64 / 1000.0,
                pause_point_bytes: q.pause_point,
                min_kmin_bytes: q.min_kmin,
            })
            .collect(),
    };
    Findings {
        diagnostics,
        facts,
        plan,
    }
}
