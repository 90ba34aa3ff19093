//! The targets' views of every lowered device, without templates: the part of generation that
//! `check` runs, so `check` fails whenever `build` would. It gives the FAB901 findings of
//! devices a target cannot express and the build findings (FAB904–FAB910): what a target
//! could not say as the model says it ([`Note`]s, grouped over devices so a finding per
//! (target, property, text) names its devices instead of repeating), and classes that set ECN
//! thresholds no switch will mark with.
//!
//! It sits below both `pipeline` (which runs it for `check`) and `output` (which reports the
//! build findings), so neither has to import the other.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic, listed_names};
use crate::lower::Lowered;
use crate::model::{Congestion, Fabric};

use super::{Note, NoteKind, Property, RenderError, SwitchOs, view_class};

/// Every target's view of every lowered device, without templates: the FAB901 findings of
/// devices a target cannot express and the build findings (FAB904–FAB910), for `check`.
pub fn preflight(fabric: &Fabric, lowered: &Lowered) -> Vec<Diagnostic> {
    // One view per view class of devices, its findings applied to every member
    // (`render::view_class`): the same findings as one view per device.
    let switches: Vec<Result<Vec<Note>, Diagnostic>> =
        view_class::preflight_switches(&lowered.switches)
            .into_iter()
            .zip(&lowered.switches)
            .map(|(r, s)| r.map_err(|e| render_diagnostic(fabric, &s.device, &e)))
            .collect();
    let mut out: Vec<Diagnostic> = view_class::preflight_hosts(&lowered.hosts)
        .into_iter()
        .zip(&lowered.hosts)
        .filter_map(|(r, h)| r.err().map(|e| render_diagnostic(fabric, &h.host, &e)))
        .collect();
    // (kind, target, property, text) → devices, in device order.
    let mut grouped: BTreeMap<(NoteKind, SwitchOs, Property, String), Vec<String>> =
        BTreeMap::new();
    for (result, ctx) in switches.into_iter().zip(&lowered.switches) {
        match result {
            Ok(notes) => {
                for n in notes {
                    grouped
                        .entry((n.kind, ctx.os, n.property, n.text))
                        .or_default()
                        .push(ctx.device.clone());
                }
            }
            Err(d) => out.push(d),
        }
    }
    out.extend(
        grouped
            .into_iter()
            .map(|((kind, os, property, text), devices)| {
                note_diagnostic(fabric, kind, os, property, &text, &devices)
            }),
    );
    if !lowered.switches.is_empty() {
        out.extend(unmarked_ecn(fabric));
        out.extend(load_balance_not_rendered(fabric, lowered));
    }
    out.extend(super::bond_findings::findings(fabric, lowered));
    out
}

/// Whether a finding is a build finding: what a target could not say as the model says it.
pub fn is_build_finding(d: &Diagnostic) -> bool {
    matches!(
        d.code,
        Code::TargetIgnores
            | Code::DeviceManaged
            | Code::TargetApproximates
            | Code::TargetAdjusts
            | Code::ReleaseLacks
            | Code::PlatformDependent
            | Code::EcnNotMarked
            | Code::SonicLookupRowMissing
            | Code::SonicLanesMismatch
            | Code::SonicHeadroomPinned
            | Code::LoadBalanceNotRendered
            | Code::SonicHashFieldUnsupported
            | Code::BondNotCreated
            | Code::BondSwitchSideMissing
            | Code::ReadbackMistake
    )
}

/// The diagnostic code of a note.
pub fn note_code(kind: NoteKind) -> Code {
    match kind {
        NoteKind::NotRendered => Code::TargetIgnores,
        NoteKind::DeviceManaged => Code::DeviceManaged,
        NoteKind::Approximated => Code::TargetApproximates,
        NoteKind::Adjusted => Code::TargetAdjusts,
        NoteKind::ReleaseLacks => Code::ReleaseLacks,
        NoteKind::PlatformDependent => Code::PlatformDependent,
        NoteKind::LookupRowMissing => Code::SonicLookupRowMissing,
        NoteKind::LanesMismatch => Code::SonicLanesMismatch,
        NoteKind::HeadroomPinned => Code::SonicHeadroomPinned,
    }
}

/// One finding for every device whose target wrote the same note.
fn note_diagnostic(
    fabric: &Fabric,
    kind: NoteKind,
    os: SwitchOs,
    property: Property,
    text: &str,
    devices: &[String],
) -> Diagnostic {
    let first = devices.first().map_or("", String::as_str);
    let span = fabric
        .switches
        .iter()
        .find(|s| s.name == first)
        .map_or(fabric.span, |s| s.span);
    let help = match kind {
        NoteKind::NotRendered => {
            "the switch keeps its own behaviour for this property; change the fabric to what the target can say, or accept it (--allow-warnings)"
        }
        NoteKind::DeviceManaged => {
            "nothing to do unless the platform's own sizing is not wanted; docs/targets.md lists what each target configures"
        }
        NoteKind::Approximated => {
            "choose a value the target can express exactly, or accept the approximation (--allow-warnings)"
        }
        NoteKind::Adjusted => "informational: the difference does not affect lossless traffic",
        NoteKind::ReleaseLacks => {
            "set a newer release on the switch model (`os cumulus 5.17`) or upgrade the switches"
        }
        NoteKind::PlatformDependent => {
            "check the line on the platform (docs/targets.md, open questions), or avoid the value"
        }
        NoteKind::LookupRowMissing => {
            "nothing is lost; use a cable no longer than the SKU's longest row to silence buffermgrd"
        }
        NoteKind::LanesMismatch => {
            "with optics on both ends nothing is to be done (`allow FAB954`); for a DAC or AOC, run the ports on the NIC's lanes: `ports` choosing a SKU the message names, or another platform"
        }
        NoteKind::HeadroomPinned => {
            "nothing to do: those PGs keep fabricc's headroom instead of the switch's own (report.md)"
        }
    };
    Diagnostic::new(
        note_code(kind),
        span,
        format!(
            "{} on {}: {}: {text}",
            listed_names(devices),
            os.as_str(),
            property.as_str()
        ),
    )
    .label(if devices.len() == 1 {
        "this device"
    } else {
        "the first of these devices"
    })
    .help(help)
}

/// Classes whose explicit `ecn min/max` no switch marks with: the class runs no DCQCN.
fn unmarked_ecn(fabric: &Fabric) -> Vec<Diagnostic> {
    fabric
        .classes
        .iter()
        .filter(|c| {
            c.congestion.value != Congestion::Dcqcn
                && c.ecn.enabled.value
                && (!c.ecn.min.default || !c.ecn.max.default || !c.ecn.probability.default)
        })
        .map(|c| {
            let at = if c.ecn.min.default { c.ecn.max.span } else { c.ecn.min.span };
            Diagnostic::new(
                Code::EcnNotMarked,
                at,
                format!(
                    "class `{}` sets ECN thresholds but runs no DCQCN, so no switch target marks ECN on its queue",
                    c.name
                ),
            )
            .label("these thresholds are not written")
            .help(format!(
                "add `congestion dcqcn` to class `{}` to mark ECN on its queue, or remove the `ecn` thresholds",
                c.name
            ))
        })
        .collect()
}

/// `n sonic switches, 1 eos switch`: the switches of `per_os`, sorted by target name.
fn switch_counts(per_os: &BTreeMap<&'static str, usize>) -> String {
    let targets: Vec<String> = per_os
        .iter()
        .map(|(os, n)| format!("{n} {os} switch{}", if *n == 1 { "" } else { "es" }))
        .collect();
    targets.join(", ")
}

/// FAB930/FAB931: the switch side of `load-balance` (hash fields, mode, flowlet gap, seed)
/// where a switch does not get it, or gets only part of it. `render::lb` decides per switch
/// (target, platform, release); switches with the same verdict share one finding at the
/// property's line, naming how many switches of each target it concerns and what they do
/// instead. A SONiC `hash` with a field SONiC has no name for is FAB931. The host side
/// (`qps-per-connection`, `split-data-on-qps`) is written to every host's `nccl.env`, so it
/// gives none.
fn load_balance_not_rendered(fabric: &Fabric, lowered: &Lowered) -> Vec<Diagnostic> {
    use super::lb::{Prop, Verdict, verdict};
    let Some(lb) = &fabric.load_balance else {
        return Vec::new();
    };
    // (property, verdict) → target → switch count.
    let mut grouped: BTreeMap<(Prop, Verdict), BTreeMap<&'static str, usize>> = BTreeMap::new();
    for s in &lowered.switches {
        for prop in [Prop::Hash, Prop::Mode, Prop::FlowletGap, Prop::Seed] {
            match verdict(s, prop) {
                None | Some(Verdict::Written) => {}
                Some(v) => {
                    *grouped
                        .entry((prop, v))
                        .or_default()
                        .entry(s.os.as_str())
                        .or_default() += 1
                }
            }
        }
    }
    let mut out = Vec::new();
    for ((prop, v), per_os) in grouped {
        let (span, what) = match prop {
            Prop::Hash => match &lb.hash {
                Some(h) => {
                    let words: Vec<&str> = h.value.iter().map(|f| f.keyword()).collect();
                    (h.span, format!("hash {}", words.join(" ")))
                }
                None => continue,
            },
            Prop::Mode => match &lb.mode {
                Some(m) => (m.span, format!("mode {}", m.value.keyword())),
                None => continue,
            },
            Prop::FlowletGap => match &lb.flowlet_gap {
                Some(g) => (
                    g.span,
                    format!(
                        "flowlet-gap {}",
                        crate::syntax::printer::time(crate::syntax::ast::Time(g.value.get()))
                    ),
                ),
                None => continue,
            },
            Prop::Seed => match &lb.seed {
                Some(s) => (
                    s.span,
                    match s.value {
                        crate::model::LbSeed::PerTier => "seed per-tier".to_string(),
                        crate::model::LbSeed::Fixed(n) => format!("seed {n}"),
                    },
                ),
                None => continue,
            },
        };
        out.push(lb_finding(lb_missing_fields(lb), span, &what, &v, &per_os));
    }
    out
}

/// The `hash` fields SONiC has no name for, as keywords.
fn lb_missing_fields(lb: &crate::model::LoadBalance) -> Vec<&'static str> {
    lb.hash
        .as_ref()
        .map(|h| super::sonic_hash::unsupported(&h.value))
        .unwrap_or_default()
        .iter()
        .map(|f| f.keyword())
        .collect()
}

/// One load-balance finding for the switches (`per_os`) that share verdict `v`.
fn lb_finding(
    sonic_missing: Vec<&'static str>,
    span: crate::span::Span,
    what: &str,
    v: &super::lb::Verdict,
    per_os: &BTreeMap<&'static str, usize>,
) -> Diagnostic {
    use super::lb::Verdict;
    let switches = switch_counts(per_os);
    let help = "configure it on the switches by hand, or remove it so the source says what the switches do; the NCCL settings of `load-balance` are written to every host's nccl.env";
    match v {
        Verdict::SonicField => Diagnostic::new(
            Code::SonicHashFieldUnsupported,
            span,
            format!(
                "load-balance `{what}` is not written for {switches}: SONiC's SWITCH_HASH has no field for `{}`, and orchagent refuses a list with an unknown field as a whole, so fabricc writes no SWITCH_HASH and the switches keep their default ECMP hash",
                sonic_missing.join("`, `")
            ),
        )
        .label("SONiC cannot hash on this")
        .help("drop the field from `hash` to have SONiC hash on the others (SWITCH_HASH ecmp_hash and lag_hash), or configure a UDF hash on the switches by hand"),
        Verdict::Partly(reason) => Diagnostic::new(
            Code::LoadBalanceNotRendered,
            span,
            format!("load-balance `{what}` is written only in part for {switches}: {reason}"),
        )
        .label("not all of it is configured on these targets")
        .help(help),
        // `Written` gives no finding (the caller skips it).
        Verdict::Not(_) | Verdict::Written => {
            let reason = match v {
                Verdict::Not(r) => r.as_str(),
                _ => "",
            };
            Diagnostic::new(
                Code::LoadBalanceNotRendered,
                span,
                format!("load-balance `{what}` is not written for {switches}: {reason}"),
            )
            .label("not configured on these targets")
            .help(help)
        }
    }
}

/// A render failure as a finding on the device.
pub(crate) fn render_diagnostic(fabric: &Fabric, device: &str, e: &RenderError) -> Diagnostic {
    let span = fabric
        .switches
        .iter()
        .find(|s| s.name == device)
        .map(|s| s.span)
        .or_else(|| {
            fabric
                .hosts
                .iter()
                .find(|h| h.name == device)
                .map(|h| h.span)
        })
        .unwrap_or(fabric.span);
    match e {
        RenderError::Template { .. } | RenderError::Override { .. } => Diagnostic::new(
            Code::TemplateFailed,
            span,
            format!("cannot render `{device}`: {e}"),
        )
        .label("this device")
        .help("fix the template at the line given, or remove the --templates override"),
        RenderError::Invalid { message, .. } => Diagnostic::new(
            Code::TargetCannotExpress,
            span,
            format!("cannot generate `{device}`: {message}"),
        )
        .label("this device"),
        RenderError::Unsupported { target, message, .. } => Diagnostic::new(
            Code::TargetCannotExpress,
            span,
            format!("`{device}` on {target}: {message}"),
        )
        .label("this device")
        .help(format!(
            "change the fabric so that {target} can express it, or use a switch model with another OS"
        )),
    }
}
