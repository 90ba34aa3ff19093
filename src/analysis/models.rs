//! Models a build cannot use: a switch model used by the fabric that lacks a property the
//! generated configuration needs, when no platform supplied it (FAB111). `build` would stop
//! at the same place with FAB903; `check` says so first, with every missing property named.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::Fabric;

pub fn check(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let mut used = vec![false; fabric.switch_models.len()];
    for s in &fabric.switches {
        used[s.model.index()] = true;
    }
    for (m, used) in fabric.switch_models.iter().zip(used) {
        if !used {
            continue;
        }
        // What `lower` needs of every model, whatever the target: the buffer the pools and
        // the headroom budget are carved from.
        let mut missing = Vec::new();
        if m.buffer.is_none() {
            missing.push("buffer");
        }
        if missing.is_empty() {
            continue;
        }
        let list = missing
            .iter()
            .map(|p| format!("`{p}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let (message, help) = match m.platform {
            Some(p) => (
                format!(
                    "switch model `{}` has no {list}, and its platform `{}` records none",
                    m.name, p.name
                ),
                format!(
                    "add {list} to the model (`fabricc platforms {}` shows what the catalogue has)",
                    p.name
                ),
            ),
            None => (
                format!(
                    "switch model `{}` has no `platform` and no {list}: a build cannot size its buffer pools",
                    m.name
                ),
                format!(
                    "name its platform (`platform nvidia-sn5600`; `fabricc platforms` lists them) or add {list}, e.g. `buffer 64MB`"
                ),
            ),
        };
        diags.push(
            Diagnostic::new(Code::ModelIncomplete, m.span, message)
                .label("used by the fabric")
                .help(help),
        );
    }
}
