//! The one integration-test harness: one binary links the crate once for every test module
//! (`cargo test --test it`); the tests that run the binary start it through [`support::Fabricc`].

mod build;
mod catalogue;
mod change_pairs;
mod check;
mod citations;
mod cli;
mod codes;
mod converge_cli;
mod converge_cumulus;
mod converge_junos;
mod converge_sonic;
mod deadlock;
mod designs_breakout;
mod designs_planes;
mod diagnostic_formats;
mod diff;
mod doc_examples;
mod export;
mod fidelity;
mod fmt;
mod generate;
mod host_dcb_script;
mod host_script;
mod import;
mod import_roles;
mod injection;
mod module_structure;
mod parse;
mod physics_passes;
mod pipeline_props;
mod plan;
mod platforms;
mod printer;
mod productions;
mod regressions;
mod render_targets;
mod sonic_apply;
mod sonic_target;
mod support;
#[path = "../support/synth.rs"]
mod synth;
mod validate;
mod verify;
mod verify_props;
mod view_classes;
