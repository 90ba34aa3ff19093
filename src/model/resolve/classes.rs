//! Classes: `class` declarations become `Class`es with defaults applied; `class` blocks
//! inside a device become override drafts, resolved once the device's model is known.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{
    Bytes, Class, ClassOverride, Congestion, DEFAULT_ECN_MAX, DEFAULT_ECN_MIN,
    DEFAULT_ECN_PROBABILITY, Dscp, Ecn, Mbps, Scheduling, Sourced,
};
use crate::span::Span;
use crate::syntax::ast::{self, ClassProp, DscpSpec, EcnArg, EcnLevel, EcnSpec, Size};

use super::slot::put;
use super::units::bytes;

/// A class declaration's properties, each set at most once.
#[derive(Debug, Default, Clone)]
pub struct ClassDraft {
    pub dscp: Option<Sourced<Dscp>>,
    pub priority: Option<Sourced<u8>>,
    pub lossless: Option<Sourced<bool>>,
    pub congestion: Option<Sourced<Congestion>>,
    pub ecn_enabled: Option<Sourced<bool>>,
    pub ecn_min: Option<Sourced<EcnLevel>>,
    pub ecn_max: Option<Sourced<EcnLevel>>,
    pub ecn_probability: Option<Sourced<u64>>,
    pub scheduling: Option<Sourced<Scheduling>>,
    pub pfc_threshold: Option<Sourced<Size>>,
    pub headroom: Option<Sourced<Size>>,
    pub cnp: Option<Span>,
    pub queue: Option<Sourced<u8>>,
    pub traffic_class: Option<Sourced<u8>>,
    pub rate: Option<Sourced<u64>>,
    /// `ecn SPEED …`: (speed Mb/s, statement span, args).
    pub ecn_speeds: Vec<(u64, Span, Vec<crate::span::Spanned<EcnArg>>)>,
}

pub fn dscp(spec: &DscpSpec) -> Dscp {
    match spec {
        DscpSpec::Other => Dscp::Other,
        DscpSpec::Values(items) => {
            let mut v: Vec<u8> = items.iter().flat_map(|r| r.node.0..=r.node.1).collect();
            v.sort_unstable();
            v.dedup();
            Dscp::Values(v)
        }
    }
}

/// Adds the properties of a `class` block to a draft (blocks for one class on one device merge).
pub fn collect(draft: &mut ClassDraft, decl: &ast::ClassDecl, diags: &mut Vec<Diagnostic>) {
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            ClassProp::Dscp(spec) => put(&mut draft.dscp, dscp(spec), span, "`dscp`", diags),
            ClassProp::Priority(pr) => put(&mut draft.priority, pr.node, span, "`priority`", diags),
            ClassProp::Lossless(on) => put(&mut draft.lossless, *on, span, "`lossless`", diags),
            ClassProp::Congestion(c) => put(&mut draft.congestion, *c, span, "`congestion`", diags),
            ClassProp::Ecn(spec) => ecn(draft, spec, span, diags),
            ClassProp::Bandwidth(pct) => {
                put(
                    &mut draft.scheduling,
                    Scheduling::Ets(Some(pct.node.0)),
                    span,
                    "the scheduling (`bandwidth` or `strict`)",
                    diags,
                );
            }
            ClassProp::Strict => put(
                &mut draft.scheduling,
                Scheduling::Strict,
                span,
                "the scheduling (`bandwidth` or `strict`)",
                diags,
            ),
            ClassProp::PfcThreshold(size) => put(
                &mut draft.pfc_threshold,
                size.node,
                span,
                "`pfc-threshold`",
                diags,
            ),
            ClassProp::Queue(q) => put(&mut draft.queue, q.node, span, "`queue`", diags),
            ClassProp::TrafficClass(t) => put(
                &mut draft.traffic_class,
                t.node,
                span,
                "`traffic-class`",
                diags,
            ),
            ClassProp::Rate(r) => put(&mut draft.rate, r.node.0, span, "`rate`", diags),
            ClassProp::EcnAt { speed, args } => {
                if let Some((_, first, _)) =
                    draft.ecn_speeds.iter().find(|(s, _, _)| *s == speed.node.0)
                {
                    diags.push(super::slot::set_twice("`ecn` for this speed", span, *first));
                } else {
                    draft.ecn_speeds.push((speed.node.0, span, args.clone()));
                }
            }
            ClassProp::Cnp => {
                if let Some(first) = draft.cnp {
                    diags.push(super::slot::set_twice("`cnp`", span, first));
                } else {
                    draft.cnp = Some(span);
                }
            }
        }
    }
}

pub fn ecn(draft: &mut ClassDraft, spec: &EcnSpec, span: Span, diags: &mut Vec<Diagnostic>) {
    match spec {
        EcnSpec::Off => put(&mut draft.ecn_enabled, false, span, "`ecn`", diags),
        EcnSpec::Params(args) => {
            for a in args {
                match a.node {
                    EcnArg::Min(s) => put(&mut draft.ecn_min, s, a.span, "`ecn min`", diags),
                    EcnArg::Max(s) => put(&mut draft.ecn_max, s, a.span, "`ecn max`", diags),
                    EcnArg::Probability(p) => put(
                        &mut draft.ecn_probability,
                        p.0,
                        a.span,
                        "`ecn probability`",
                        diags,
                    ),
                }
            }
            if draft.ecn_enabled.as_ref().is_some_and(|e| !e.value) {
                diags.push(
                    Diagnostic::new(
                        Code::SetTwice,
                        span,
                        "ECN thresholds are given for a class whose ECN is `off`",
                    )
                    .label("thresholds here")
                    .with_secondary(
                        draft.ecn_enabled.as_ref().map_or(span, |e| e.span),
                        "ECN turned off here",
                    )
                    .help("remove `ecn off`, or remove the thresholds"),
                );
            } else {
                draft.ecn_enabled.get_or_insert(Sourced::set(true, span));
            }
        }
    }
}

fn size(
    s: Option<Sourced<Size>>,
    cell: Option<u64>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Sourced<Bytes>> {
    let s = s?;
    bytes(s.value, cell, s.span, diags).map(|b| Sourced::set(Bytes(b), s.span))
}

/// An ECN threshold: its bytes (for a fill level, `placeholder` until a switch resolves it,
/// `Ecn::resolved`) and its fill level.
fn level(
    l: Option<Sourced<EcnLevel>>,
    placeholder: Bytes,
    cell: Option<u64>,
    diags: &mut Vec<Diagnostic>,
) -> (Option<Sourced<Bytes>>, Option<u64>) {
    match l {
        None => (None, None),
        Some(Sourced {
            value: EcnLevel::Size(s),
            span,
            ..
        }) => (size(Some(Sourced::set(s, span)), cell, diags), None),
        Some(Sourced {
            value: EcnLevel::Fill(p),
            span,
            ..
        }) => (Some(Sourced::set(placeholder, span)), Some(p.0)),
    }
}

/// One `ecn SPEED …` or link `ecn CLASS …` statement's parameters, each at most once.
pub fn ecn_params(
    speed_mbps: u64,
    span: Span,
    args: &[crate::span::Spanned<EcnArg>],
    diags: &mut Vec<Diagnostic>,
) -> crate::model::EcnAtSpeed {
    ecn_speeds(&[(speed_mbps, span, args.to_vec())], None, diags)
        .pop()
        .unwrap_or(crate::model::EcnAtSpeed {
            speed: Mbps(speed_mbps),
            span,
            min: None,
            max: None,
            probability: None,
            min_fill: None,
            max_fill: None,
        })
}

/// `ecn SPEED …` entries, sorted by speed; each parameter at most once.
fn ecn_speeds(
    entries: &[(u64, Span, Vec<crate::span::Spanned<EcnArg>>)],
    cell: Option<u64>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<crate::model::EcnAtSpeed> {
    let mut out: Vec<crate::model::EcnAtSpeed> = entries
        .iter()
        .map(|(speed, span, args)| {
            let mut d = ClassDraft::default();
            for a in args {
                match a.node {
                    EcnArg::Min(s) => put(&mut d.ecn_min, s, a.span, "`ecn min`", diags),
                    EcnArg::Max(s) => put(&mut d.ecn_max, s, a.span, "`ecn max`", diags),
                    EcnArg::Probability(p) => put(
                        &mut d.ecn_probability,
                        p.0,
                        a.span,
                        "`ecn probability`",
                        diags,
                    ),
                }
            }
            let (min, min_fill) = level(d.ecn_min, DEFAULT_ECN_MIN, cell, diags);
            let (max, max_fill) = level(d.ecn_max, DEFAULT_ECN_MAX, cell, diags);
            crate::model::EcnAtSpeed {
                speed: Mbps(*speed),
                span: *span,
                min,
                max,
                probability: d.ecn_probability,
                min_fill,
                max_fill,
            }
        })
        .collect();
    out.sort_by_key(|e| e.speed);
    out
}

/// `rate`: a whole percent from 1 to 100 (every target takes whole percent or a rate derived
/// from one); anything else is FAB005.
fn rate(r: Option<Sourced<u64>>, diags: &mut Vec<Diagnostic>) -> Option<Sourced<u64>> {
    let r = r?;
    if r.value == 0 || r.value % 1000 != 0 {
        diags.push(
            Diagnostic::new(
                Code::OutOfRange,
                r.span,
                "`rate` must be a whole percent from 1% to 100%",
            )
            .label("rate cap here")
            .help("write a whole percent of the port speed, such as `rate 5%`"),
        );
        return None;
    }
    Some(r)
}

/// A fabric-level class from its draft; `name` is the declaration's name.
pub fn finish_class(
    name: &ast::Ident,
    decl_span: Span,
    d: ClassDraft,
    diags: &mut Vec<Diagnostic>,
) -> Class {
    let at = name.span;
    let priority = d.priority.unwrap_or_else(|| {
        diags.push(
            Diagnostic::new(
                Code::MissingProperty,
                at,
                format!("class `{}` has no `priority`", name.node),
            )
            .label("declared here")
            .help("add `priority N` (0..7): the 802.1p priority this class uses on every hop"),
        );
        Sourced::default_at(0, at)
    });
    let lossless = d.lossless.unwrap_or(Sourced::default_at(false, at));
    let congestion = d.congestion.unwrap_or_else(|| {
        let c = if lossless.value && d.cnp.is_none() {
            Congestion::Dcqcn
        } else {
            Congestion::None
        };
        Sourced::default_at(c, at)
    });
    if d.headroom.is_some() {
        diags.push(
            Diagnostic::new(
                Code::NotAllowedHere,
                d.headroom.map_or(at, |h| h.span),
                "`headroom` is a per-switch override",
            )
            .help("write `headroom CLASS SIZE` inside a `switch` block"),
        );
    }
    let (min, min_fill) = level(d.ecn_min, DEFAULT_ECN_MIN, None, diags);
    let (max, max_fill) = level(d.ecn_max, DEFAULT_ECN_MAX, None, diags);
    let ecn = Ecn {
        enabled: d.ecn_enabled.unwrap_or(Sourced::default_at(
            congestion.value == Congestion::Dcqcn,
            at,
        )),
        min: min.unwrap_or(Sourced::default_at(DEFAULT_ECN_MIN, at)),
        max: max.unwrap_or(Sourced::default_at(DEFAULT_ECN_MAX, at)),
        probability: d
            .ecn_probability
            .unwrap_or(Sourced::default_at(DEFAULT_ECN_PROBABILITY, at)),
        min_fill,
        max_fill,
    };
    Class {
        name: name.node.clone(),
        span: at,
        dscp: d.dscp,
        priority,
        lossless,
        congestion,
        ecn,
        scheduling: d
            .scheduling
            .unwrap_or(Sourced::default_at(Scheduling::Ets(None), decl_span)),
        pfc_threshold: size(d.pfc_threshold, None, diags),
        cnp: d.cnp,
        traffic_class: d.traffic_class,
        queue: d.queue,
        rate: rate(d.rate, diags),
        ecn_speeds: ecn_speeds(&d.ecn_speeds, None, diags),
    }
}

/// A device's override of a class, once the device's cell size is known.
pub fn finish_override(
    d: ClassDraft,
    cell: Option<u64>,
    diags: &mut Vec<Diagnostic>,
) -> ClassOverride {
    if let Some(span) = d.cnp {
        diags.push(
            Diagnostic::new(
                Code::NotAllowedHere,
                span,
                "`cnp` cannot be overridden per device",
            )
            .label("in a device's class block")
            .help("declare the CNP class at fabric level"),
        );
    }
    for (what, span) in [
        ("queue", d.queue.map(|q| q.span)),
        ("traffic-class", d.traffic_class.map(|t| t.span)),
        ("rate", d.rate.map(|r| r.span)),
    ] {
        if let Some(span) = span {
            diags.push(
                Diagnostic::new(
                    Code::NotAllowedHere,
                    span,
                    format!("`{what}` cannot be overridden per device"),
                )
                .label("in a device's class block")
                .help("the queue plan (`queue`, `traffic-class`, `rate`) is fabric-wide: set it in the fabric-level `class` block"),
            );
        }
    }
    let (ecn_min, ecn_min_fill) = level(d.ecn_min, DEFAULT_ECN_MIN, cell, diags);
    let (ecn_max, ecn_max_fill) = level(d.ecn_max, DEFAULT_ECN_MAX, cell, diags);
    ClassOverride {
        dscp: d.dscp,
        priority: d.priority,
        lossless: d.lossless,
        congestion: d.congestion,
        ecn_enabled: d.ecn_enabled,
        ecn_min,
        ecn_max,
        ecn_probability: d.ecn_probability,
        ecn_min_fill,
        ecn_max_fill,
        scheduling: d.scheduling,
        pfc_threshold: size(d.pfc_threshold, cell, diags),
        headroom: size(d.headroom, cell, diags),
        ecn_speeds: ecn_speeds(&d.ecn_speeds, cell, diags),
    }
}
