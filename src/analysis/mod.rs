//! Analyses: independent passes over the resolved `Fabric`, each producing diagnostics with a
//! stable code, and the facts they computed. No pass renders text.

pub mod buffer;
pub mod classes;
pub mod ecn;
pub mod facts;
pub mod group;
pub mod headroom;
pub mod physics;
pub mod qos_plan;
pub mod topology;
pub mod watchdog;

pub use facts::Facts;

use crate::diagnostic::Diagnostic;
use crate::model::Fabric;

/// Everything the analyses found about one fabric.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    pub diagnostics: Vec<Diagnostic>,
    pub facts: Facts,
}

/// Runs every analysis in a fixed order.
pub fn analyze(fabric: &Fabric) -> Findings {
    let mut diagnostics = Vec::new();
    classes::check(fabric, &mut diagnostics);
    let oversubscription = topology::check(fabric, &mut diagnostics);
    let plan = headroom::headroom_plan(fabric);
    headroom::check(fabric, &plan, &mut diagnostics);
    buffer::check(fabric, &plan, &mut diagnostics);
    ecn::check(fabric, &plan, &mut diagnostics);
    qos_plan::check(fabric, &mut diagnostics);
    watchdog::check(fabric, &plan, &mut diagnostics);
    let facts = Facts {
        switches: fabric.switches.len(),
        hosts: fabric.hosts.len(),
        links: fabric.links.len(),
        deadlock: None,
        unreachable: Vec::new(),
        oversubscription,
        headroom: plan.rows(fabric),
    };
    Findings { diagnostics, facts }
}
