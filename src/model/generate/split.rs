//! How a tier's ports divide into down and up (oversubscription or explicit counts) and how
//! many top switches a top tier needs; FAB606 with the numbers that would work.

use crate::diagnostic::{Code, Diagnostic};

use super::tiers::TierSpec;

fn ratio_text(down: u64, up: u64) -> String {
    if up == 0 {
        return "no uplinks".into();
    }
    let r = down as f64 / up as f64;
    format!("{}:1", trim_float(r))
}

fn trim_float(r: f64) -> String {
    let s = format!("{r:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Decides how many ports of each switch of the tier face down and up.
pub(super) fn split_ports(spec: &mut TierSpec<'_>, top: bool, diags: &mut Vec<Diagnostic>) -> bool {
    let groups = &spec.model.ports.value;
    let total: u64 = groups.iter().map(|g| u64::from(g.count)).sum();
    let at = spec.decl.name.span;
    if top {
        if let Some(r) = spec.oversubscription {
            diags.push(
                Diagnostic::new(
                    Code::NotAllowedHere,
                    r.span,
                    "the top tier has no uplinks, so no oversubscription",
                )
                .label("on the top tier")
                .help("remove `oversubscription` from the top tier; it belongs to the tiers below"),
            );
            return false;
        }
        // G7: `uplinks N` on the top tier keeps N ports of each switch for a tier above that
        // does not exist yet (HPN's aggregation keeps 8 x 400G for the core): they are not
        // cabled, and the downlinks are the rest.
        let reserved = spec.uplinks.map_or(0, |u| u.value);
        let down = spec
            .downlinks
            .map_or(total.saturating_sub(reserved), |d| d.value);
        if down.saturating_add(reserved) > total {
            diags.push(too_many(spec, down.saturating_add(reserved), total));
            return false;
        }
        spec.down = down as u32;
        spec.up = 0;
        return true;
    }
    if total < 2 && spec.downlinks.is_none() && spec.uplinks.is_none() {
        // A tier below the top needs a port each way; a one-port model cannot be split.
        diags.push(
            Diagnostic::new(
                Code::CannotWire,
                at,
                format!("a switch of {total} port(s) cannot have both downlinks and uplinks"),
            )
            .label("this tier is not the top one, so its switches need both")
            .help("give the tier a switch model with more ports"),
        );
        return false;
    }
    let (down, up) = match (spec.downlinks, spec.uplinks) {
        (Some(d), Some(u)) => (d.value, u.value),
        (Some(d), None) => (d.value, total.saturating_sub(d.value)),
        (None, Some(u)) => (total.saturating_sub(u.value), u.value),
        (None, None) => {
            let (a, b) = spec.oversubscription.map_or((1, 1), |r| r.value);
            if groups.len() > 1 {
                // Mixed port groups: the first group faces down, the rest up (HPN-style ToR).
                (
                    u64::from(groups[0].count),
                    total - u64::from(groups[0].count),
                )
            } else {
                let num = u128::from(total) * u128::from(a);
                let den = u128::from(a) + u128::from(b);
                if num % den != 0 {
                    let d = ((num + den / 2) / den) as u64;
                    let d = d.clamp(1, total - 1);
                    diags.push(
                        Diagnostic::new(
                            Code::CannotWire,
                            spec.oversubscription.map_or(at, |r| r.span),
                            format!(
                                "{total} ports cannot be split {} exactly",
                                ratio_text(a, b)
                            ),
                        )
                        .label("declared ratio")
                        .help(format!(
                            "the nearest split is {d} down and {} up ({}); write `downlinks {d}  uplinks {}` or choose a ratio the port count allows",
                            total - d,
                            ratio_text(d, total - d),
                            total - d
                        )),
                    );
                    return false;
                }
                let d = (num / den) as u64;
                (d, total - d)
            }
        }
    };
    if down + up > total {
        diags.push(too_many(spec, down + up, total));
        return false;
    }
    if down == 0 || up == 0 {
        diags.push(
            Diagnostic::new(
                Code::CannotWire,
                at,
                format!(
                    "tier `{}` needs both downlinks and uplinks",
                    spec.decl.name.node
                ),
            )
            .label(format!("{down} down, {up} up"))
            .help("a tier below the top needs ports in both directions"),
        );
        return false;
    }
    // Declared ratio against the split (by bandwidth).
    if let Some(r) = spec.oversubscription {
        let down_bw = bandwidth(groups, 0, down);
        let up_bw = bandwidth(groups, down, up);
        let declared = r.value.0 as f64 / r.value.1 as f64;
        let wired = down_bw as f64 / up_bw.max(1) as f64;
        if (wired - declared).abs() > declared * 0.005 {
            diags.push(
                Diagnostic::new(
                    Code::CannotWire,
                    r.span,
                    format!(
                        "tier `{}` is declared {} but its ports give {} ({} Gb/s down, {} Gb/s up)",
                        spec.decl.name.node,
                        ratio_text(r.value.0, r.value.1),
                        ratio_text(down_bw, up_bw),
                        down_bw / 1000,
                        up_bw / 1000
                    ),
                )
                .label("declared ratio")
                .help(format!(
                    "declare `oversubscription {}`, or set `downlinks`/`uplinks` to meet the ratio",
                    ratio_text(down_bw, up_bw)
                )),
            );
            return false;
        }
    }
    spec.down = down as u32;
    spec.up = up as u32;
    true
}

fn too_many(spec: &TierSpec<'_>, want: u64, total: u64) -> Diagnostic {
    Diagnostic::new(
        Code::CannotWire,
        spec.decl.name.span,
        format!(
            "tier `{}` asks for {want} ports but model `{}` has {total}",
            spec.decl.name.node, spec.model.name
        ),
    )
    .label("this tier")
    .help("lower `downlinks`/`uplinks`, or use a model with more ports")
}

/// Total Mb/s of `count` ports starting at port `first`.
fn bandwidth(groups: &[crate::model::PortGroup], first: u64, count: u64) -> u64 {
    let mut sum = 0u64;
    let mut idx = 0u64;
    for g in groups {
        for _ in 0..g.count {
            if idx >= first && idx < first + count {
                sum += g.speed;
            }
            idx += 1;
        }
    }
    sum
}

fn smallest_divisor_fitting(uplinks: u32, lower: u64, ports: u64) -> Option<u32> {
    (1..=uplinks)
        .filter(|&d| uplinks.is_multiple_of(d))
        .find(|&d| lower * u64::from(uplinks / d) <= ports)
}

pub(super) fn choose_top_count(
    spec: &TierSpec<'_>,
    below: &TierSpec<'_>,
    lower_count: u64,
    what_lower: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let u = below.up;
    let ports = u64::from(spec.down);
    if let Some(n) = spec.switches {
        let n32 = u32::try_from(n.value).unwrap_or(0);
        if n32 == 0 || !u.is_multiple_of(n32) || lower_count * u64::from(u / n32) > ports {
            let fit = smallest_divisor_fitting(u, lower_count, ports);
            diags.push(
                Diagnostic::new(
                    Code::CannotWire,
                    n.span,
                    format!("{} switches cannot take the {u} uplinks of each of {lower_count} {what_lower}", n.value),
                )
                .label("requested count")
                .help(match fit {
                    Some(f) => format!("the count must divide {u} and leave each switch ≤ {ports} ports; {f} works"),
                    None => format!("no count works: {lower_count} {what_lower} need more than {ports} ports per switch"),
                }),
            );
            return None;
        }
        return Some(n32);
    }
    if let Some(d) = smallest_divisor_fitting(u, lower_count, ports) {
        return Some(d);
    }
    diags.push(
        Diagnostic::new(
            Code::CannotWire,
            spec.decl.name.span,
            format!(
                "tier `{}` cannot connect {lower_count} {what_lower}: even {u} switches would each need {lower_count} ports, and model `{}` has {ports}",
                spec.decl.name.node, spec.model.name
            ),
        )
        .label("top tier")
        .help("add a tier, oversubscribe the tier below, or use a top-tier model with more ports"),
    );
    None
}
