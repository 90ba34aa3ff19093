//! bytes as the YAML form (`fuzz.yaml`) → check → with no errors, build every target to
//! memory, as `generate` does for `.fab`. The YAML form skips the parser, so this is where
//! its own checks (names, strings, ranges: `syntax::bounds::check_tree`) are fuzzed.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::generate(data, common::YAML_ROOT));
