//! fabricc: a compiler for lossless RoCEv2 fabrics.
//!
//! Pipeline (one direction, a type at every seam):
//! source text ─syntax→ `ast::File` ─model→ `Fabric` ─analysis→ `Findings`
//! ─render→ files ─output→ the output folder; `verify` compares those files with what the
//! devices report.

pub mod analysis;
pub mod catalogue;
pub mod cli;
pub mod diagnostic;
pub mod import;
pub mod lower;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod render;
pub mod source;
pub mod span;
pub mod syntax;
pub mod timings;
pub mod verify;
