//! Read back of port speeds and the ECMP hash (issue 34 item 2):
//! * `speed`: each port's speed where the file states it (SONiC's `PORT` `speed`, NVUE's
//!   `link speed`, EOS's `speed`, VRP's and Comware's interface type, `400GE…` /
//!   `FourHundredGigE…`), Junos's broken-out cage (`number-of-sub-ports K speed 400g`, its
//!   sub-ports' speed) and NX-OS's `interface breakout module 1 port N map 400g-2x` (or an
//!   interface's `speed`), against the proven port's. A port whose file states no speed
//!   (Junos and NX-OS write none on an unbroken port; import takes Junos's to run at 400G,
//!   `Port::speed_assumed`) is not compared.
//! * `hash`: the ECMP hash fields as import reads them on every target (SONiC's
//!   `SWITCH_HASH|GLOBAL` `ecmp_hash`, VRP's `load-balance ecmp` `ip …`, and `import::hash`:
//!   EOS's `ip load-sharing trident fields ip`, NX-OS's `ip load-sharing address`, Junos's
//!   `enhanced-hash-key inet|inet6 no-…`, NVUE's `ecmp-hash`), as a set (orchagent keeps them
//!   in a set), against `load-balance { hash … }`, after what `render::lb::verdict` says the
//!   target writes of it: a hash the target cannot write (SONiC's `roce-qp`, FAB931; all of
//!   Comware's, which has no sourced command) is `forced` where the file states none; a field
//!   the target has no word for (`Partly`: EOS's and NX-OS's protocol) likewise where the file
//!   states exactly the others.

use std::collections::BTreeSet;

use super::found::{Found, Kind};
use crate::import::deployed::Switch;
use crate::lower::context::{PortContext, SwitchContext, SwitchOs};
use crate::render::lb::{Prop, Verdict, verdict};

/// Compares port `p`'s written speed with the proven one.
pub(super) fn speed(p: &PortContext, sw: &Switch, found: &mut Found) {
    let Some(got) = sw
        .ports
        .get(&p.name)
        .filter(|r| !r.speed_assumed)
        .and_then(|r| r.speed_mbps)
    else {
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

/// The `hash` keywords `os` has no statement for: what its renderer leaves out of the proven
/// fields (`render::lb`: EOS's `fields ip` and NX-OS's `address` have no protocol word; no
/// target but SONiC names the RoCEv2 QP, which the QFX5240 hashes on by default).
fn unwritable(os: SwitchOs) -> &'static [&'static str] {
    match os {
        SwitchOs::Sonic => &[],
        SwitchOs::Eos | SwitchOs::Nxos => &["protocol", "roce-qp"],
        SwitchOs::Junos | SwitchOs::Cumulus | SwitchOs::Vrp | SwitchOs::Comware => &["roce-qp"],
    }
}

/// Compares the switch's written ECMP hash with `load-balance { hash … }`.
pub(super) fn hash(ctx: &SwitchContext, sw: &Switch, found: &mut Found) {
    let text = |s: Option<&BTreeSet<&str>>| {
        s.map_or("not written".to_string(), |s| {
            s.iter().copied().collect::<Vec<_>>().join(" ")
        })
    };
    let proven: Option<BTreeSet<&str>> = ctx
        .hash_fields
        .as_ref()
        .map(|f| f.iter().copied().collect());
    let v = verdict(ctx, Prop::Hash);
    // Junos's IPv4 and IPv6 fields differ: neither family hashes on one set of fields.
    if let Some((v4, v6)) = &sw.hash_split {
        found
            .entry((
                "hash",
                String::new(),
                text(proven.as_ref()),
                format!("inet: {}; inet6: {}", v4.join(" "), v6.join(" ")),
                Kind::Mistake,
            ))
            .or_default();
        return;
    }
    let mut written: Option<BTreeSet<&str>> =
        sw.hash.as_ref().map(|h| h.0.iter().copied().collect());
    // Junos writes only the `no-…` statements of the fields it leaves out: none is its
    // default five.
    if ctx.os == SwitchOs::Junos
        && written.is_none()
        && matches!(v, Some(Verdict::Written | Verdict::Partly(_)))
    {
        written = Some(crate::import::hash::FIVE.into_iter().collect());
    }
    // What the renderer writes of the proven fields.
    let expected: Option<BTreeSet<&str>> = proven.as_ref().map(|p| {
        p.iter()
            .copied()
            .filter(|f| !unwritable(ctx.os).contains(f))
            .collect()
    });
    let kind = match (v, &written) {
        (None, None) => return,
        (Some(Verdict::Written), Some(w)) if Some(w) == proven.as_ref() => return,
        // A field the switch hashes on by default and no statement names (the QFX5240's
        // RoCEv2 QP): written as proven.
        (Some(Verdict::Written), Some(w)) if Some(w) == expected.as_ref() => return,
        // The fields the target writes, the rest left out as the renderer notes.
        (Some(Verdict::Partly(_)), Some(w)) if Some(w) == expected.as_ref() => Kind::Forced,
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
