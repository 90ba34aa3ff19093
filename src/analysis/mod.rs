//! Analyses: independent passes over the resolved `Fabric`, each producing diagnostics with a
//! stable code, and the facts they computed. No pass renders text.

pub mod facts;
pub mod physics;

pub use facts::Facts;

use crate::diagnostic::Diagnostic;

/// Everything the analyses found about one fabric.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    pub diagnostics: Vec<Diagnostic>,
    pub facts: Facts,
}
