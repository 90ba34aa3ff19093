//! FAB818: a SONiC SKU whose buffer layouts (`t0`, `t1`, `t2`) differ in what fabricc writes
//! from them, of which fabricc writes one (issue 38).

use std::collections::BTreeSet;

use super::context::SonicAsic;
use super::port_names::Skus;
use crate::diagnostic::{Code, Diagnostic};
use crate::model::{Fabric, SwitchId};

/// FAB818, once per SONiC model with a switch lowered: the SKU's buffer layouts differ in
/// what fabricc writes from them, and fabricc writes one (`Hwsku::layout`) without knowing
/// the switch's `DEVICE_METADATA` `type`, which picks the one SONiC renders.
pub(super) fn layouts_assumed(
    fabric: &Fabric,
    skus: &Skus,
    switch_ids: &[SwitchId],
) -> Vec<Diagnostic> {
    let used: BTreeSet<usize> = switch_ids
        .iter()
        .map(|&s| fabric.switch(s).model.index())
        .collect();
    let mut out = Vec::new();
    for m in used {
        let Some(Some(Ok(sku))) = skus.get(m) else {
            continue;
        };
        let Some(chosen) = sku.hwsku.layout() else {
            continue;
        };
        // Spectrum: fabricc computes the pool sizes itself, whatever the layout says.
        let others = sku.hwsku.other_layouts(sku.asic == SonicAsic::Broadcom);
        if others.is_empty() {
            continue;
        }
        let model = &fabric.switch_models[m];
        let t = |b: &crate::catalogue::BufferDefaults| {
            format!(
                "`{}` (`type` `{}`)",
                b.topology,
                crate::catalogue::topology_type(&b.topology)
            )
        };
        let differ: Vec<String> = others
            .iter()
            .map(|(b, names)| {
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                format!("{} differs in {}", t(b), names.join(", "))
            })
            .collect();
        out.push(
            Diagnostic::new(
                Code::SonicLayoutAssumed,
                model.ports.span,
                format!(
                    "SKU `{}` lays its buffers out by switch type, and fabricc writes {}; {}",
                    sku.hwsku.name,
                    t(chosen),
                    differ.join("; ")
                ),
            )
            .label("these ports choose that SKU")
            .help(format!(
                "fabricc does not set `DEVICE_METADATA` `type`, so it cannot know which layout the switch renders; its BUFFER_POOL and BUFFER_PROFILE entries replace the switch's of the same name whatever the type, so the switch runs `{}`'s numbers. A pool or profile only another layout has stays on a switch of that type, and `config qos reload` renders that layout again. To write another layout, name a SKU folder that has only it (`sku \"PATH\"`, docs/platforms.md \"A SKU of your own\")",
                chosen.topology
            )),
        );
    }
    out
}
