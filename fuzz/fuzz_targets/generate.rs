//! bytes → check → if there are no errors, `fabricc build` to memory: lower and render every
//! target plus the reports through `generate_each`, whose sink only looks at each file and
//! drops it. Warnings do not stop it (as with `--allow-warnings`). Writes nothing.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| common::generate(data, common::ROOT));
