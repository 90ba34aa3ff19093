//! Read back of port speeds and the ECMP hash (issue 34 item 2):
//! * `speed`: each port's speed where the file states it (SONiC's `PORT` `speed`, NVUE's
//!   `link speed`, EOS's `speed`, VRP's and Comware's interface type, `400GE…` /
//!   `FourHundredGigE…`), against the proven port's. Junos states a speed only on a broken-out
//!   cage (import takes an unbroken port to run at 400G) and NX-OS none, so neither is
//!   compared.
//! * `hash`: the ECMP hash fields where import reads them (SONiC's `SWITCH_HASH|GLOBAL`
//!   `ecmp_hash`, VRP's `load-balance ecmp` `ip …`), as a set (orchagent keeps them in a set),
//!   against `load-balance { hash … }`, after what `render::lb::verdict` says the target
//!   writes of it: a list SONiC cannot name (`roce-qp`) is not written (FAB931), which is
//!   `forced`; a field the target leaves out (`Partly`) likewise.

use std::collections::BTreeSet;

use super::found::{Found, Kind};
use crate::import::deployed::Switch;
use crate::lower::context::{PortContext, SwitchContext, SwitchOs};
use crate::render::lb::{Prop, Verdict, verdict};

/// Compares port `p`'s written speed with the proven one.
pub(super) fn speed(ctx: &SwitchContext, p: &PortContext, sw: &Switch, found: &mut Found) {
    if matches!(ctx.os, SwitchOs::Junos | SwitchOs::Nxos) {
        return;
    }
    let Some(got) = sw.ports.get(&p.name).and_then(|r| r.speed_mbps) else {
        return;
    };
    if got != u64::from(p.speed_mbps) {
        found
            .entry((
                "speed",
                String::new(),
                format!("{} Mb/s", p.speed_mbps),
                format!("{got} Mb/s"),
                Kind::Mistake,
            ))
            .or_default()
            .push(p.name.clone());
    }
}

/// Compares the switch's written ECMP hash with `load-balance { hash … }`.
pub(super) fn hash(ctx: &SwitchContext, sw: &Switch, found: &mut Found) {
    if !matches!(ctx.os, SwitchOs::Sonic | SwitchOs::Vrp) {
        return;
    }
    let text = |s: Option<&BTreeSet<&str>>| {
        s.map_or("not written".to_string(), |s| {
            s.iter().copied().collect::<Vec<_>>().join(" ")
        })
    };
    let proven: Option<BTreeSet<&str>> = ctx
        .hash_fields
        .as_ref()
        .map(|f| f.iter().copied().collect());
    let written: Option<BTreeSet<&str>> = sw.hash.as_ref().map(|h| h.0.iter().copied().collect());
    let kind = match (verdict(ctx, Prop::Hash), &written) {
        (None, None) => return,
        (Some(Verdict::Written), Some(w)) if Some(w) == proven.as_ref() => return,
        // The fields the target writes, the rest left out as the renderer notes.
        (Some(Verdict::Partly(_)), Some(w))
            if proven
                .as_ref()
                .is_some_and(|p| w.is_subset(p) && p.difference(w).all(|f| *f == "roce-qp")) =>
        {
            Kind::Forced
        }
        (Some(Verdict::Not(_) | Verdict::SonicField), None) => Kind::Forced,
        _ => Kind::Mistake,
    };
    found
        .entry((
            "hash",
            String::new(),
            text(proven.as_ref()),
            text(written.as_ref()),
            kind,
        ))
        .or_default();
}
