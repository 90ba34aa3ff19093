//! fabricc: a compiler for lossless RoCEv2 fabrics.
//!
//! Pipeline (one direction, a type at every seam):
//! source text ─syntax→ `ast::File` ─model→ `Fabric` ─analysis→ `Findings`
//! ─render→ files ─output→ the output folder; `verify` compares those files with what the
//! devices report.
//!
//! # The public surface
//!
//! What a program that embeds the compiler needs, and nothing else:
//! - [`pipeline`]: the entry points (`check` a file, or a [`model::load::Reader`]'s files;
//!   `check_timed` with [`timings`]), returning a [`pipeline::Checked`];
//! - [`model`]: the resolved [`model::Fabric`] and the [`model::Limits`] on input;
//! - [`diagnostic`]: the findings (`Diagnostic`, `Code`, `Severity`) and their renderings
//!   (human, short, JSON, SARIF, GitHub annotations);
//! - [`source`] and [`span`]: the files read and the places in them a finding points at;
//! - [`run`]: the command line itself, for the `fabricc` binary.
//!
//! # Internals
//!
//! Every other module is the compiler's own. With the `internals` feature (on by default,
//! because this repository's integration tests, benches and fuzz targets drive the stages
//! one by one) they are `pub` but hidden from the documentation and carry no stability
//! promise. Without it they are private to the crate, so the compiler reports what nothing
//! uses: `cargo clippy --lib --no-default-features -- -D warnings` (run by `.ci/run`) fails on
//! dead code. Items that only tests, benches or fuzz targets use are gated: `#[cfg(test)]`
//! when a module's own unit tests are their only user, `#[cfg(feature = "internals")]` when
//! the integration tests or benches need them.

pub mod diagnostic;
pub mod model;
pub mod pipeline;
pub mod source;
pub mod span;
pub mod timings;

mod cli;
pub use cli::run;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod analysis;
#[cfg(not(feature = "internals"))]
mod analysis;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod catalogue;
#[cfg(not(feature = "internals"))]
mod catalogue;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod import;
#[cfg(not(feature = "internals"))]
mod import;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod lower;
#[cfg(not(feature = "internals"))]
mod lower;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod output;
#[cfg(not(feature = "internals"))]
mod output;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod plan;
#[cfg(not(feature = "internals"))]
mod plan;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod render;
#[cfg(not(feature = "internals"))]
mod render;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod syntax;
#[cfg(not(feature = "internals"))]
mod syntax;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod verify;
#[cfg(not(feature = "internals"))]
mod verify;
