//! bytes → check → if there are no errors, `fabricc build` to memory: lower and render every
//! target plus the reports through `generate_each`, whose sink only looks at each file and
//! drops it. Warnings do not stop it (as with `--allow-warnings`). Writes nothing.
#![no_main]

mod common;

use std::convert::Infallible;
use std::sync::OnceLock;

use fabricc::lower::Targets;
use fabricc::output::generate::{Stop, generate_each};
use fabricc::render::Templates;
use libfuzzer_sys::fuzz_target;

fn templates() -> &'static Templates {
    static T: OnceLock<Templates> = OnceLock::new();
    T.get_or_init(|| Templates::embedded().expect("the embedded templates load"))
}

fuzz_target!(|data: &[u8]| {
    let Some((_sources, checked)) = common::check(data) else {
        return;
    };
    if checked.errors() > 0 {
        return;
    }
    let Some(fabric) = checked.fabric.as_ref() else {
        return;
    };
    let result = generate_each(
        fabric,
        &checked.diagnostics,
        checked.facts.as_ref(),
        Targets::ALL,
        templates(),
        None,
        |a| {
            // An output path must stay inside the output folder.
            assert!(
                !a.path.is_empty()
                    && !a.path.starts_with('/')
                    && a.path
                        .split('/')
                        .all(|c| !c.is_empty() && c != "." && c != ".."),
                "artifact path escapes or is malformed: {:?}",
                a.path
            );
            Ok::<_, Infallible>(a.contents.len())
        },
    );
    match result {
        Ok(_sizes) => {}
        Err(Stop::Findings(_)) => {} // FAB9xx: a device a target cannot express
        Err(Stop::Sink(never)) => match never {},
    }
});
