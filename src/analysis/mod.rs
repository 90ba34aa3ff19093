//! Analyses: independent passes over the resolved `Fabric`, each producing diagnostics with a
//! stable code, and the facts they computed. No pass renders text.

pub mod classes;
pub mod deadlock;
pub mod facts;
pub mod physics;
pub mod routing;
pub mod topology;

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
    let (deadlock, unreachable) = deadlock::check(fabric, &mut diagnostics);
    let facts = Facts {
        switches: fabric.switches.len(),
        hosts: fabric.hosts.len(),
        links: fabric.links.len(),
        deadlock: Some(deadlock),
        unreachable,
        oversubscription,
        headroom: Vec::new(),
    };
    Findings { diagnostics, facts }
}
