//! `linecard SLOTS CARD` in a switch model on a modular chassis (issue 18 item 3): which card
//! sits in which slot. FAB140 for a card or slot the chassis does not have (or a chassis with
//! no card), FAB141 for an OS that has no name for the chassis's ports.

use crate::catalogue::{ChassisPlace, Linecard, Platform};
use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::model::{PortGroup, Sourced};
use crate::span::{Span, Spanned};
use crate::syntax::ast::{LinecardSlots, Os};

/// The cards of model `name` in slot order, or `None` (with FAB140) when the model is not on a
/// chassis or says nothing usable. `platform`: the resolved platform and its statement's span.
pub(super) fn place(
    name: &str,
    at: Span,
    slots: &[Spanned<LinecardSlots>],
    platform: Option<(&'static Platform, Span)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(ChassisPlace, Vec<(u32, Span)>)> {
    let chassis = platform.and_then(|(p, s)| p.chassis.as_ref().map(|c| (p, s, c)));
    let Some((pl, pspan, ch)) = chassis else {
        if let Some(first) = slots.first() {
            let what = platform.map_or("no platform".to_string(), |(p, _)| {
                format!("`{}`, a fixed switch", p.name)
            });
            diags.push(
                Diagnostic::new(
                    Code::LinecardInvalid,
                    first.span,
                    format!("switch model `{name}` has line cards, but its platform is {what}"),
                )
                .label("line card")
                .help("`linecard` places cards in a modular chassis: name one with `platform` (`fabricc platforms` lists them), or remove `linecard`"),
            );
        }
        return None;
    };
    let mut cards: Vec<(u32, &'static Linecard)> = Vec::new();
    let mut spans: Vec<(u32, Span)> = Vec::new();
    for s in slots {
        let Some(card) = pl.linecard(&s.node.card.node) else {
            let known = ch.linecards.iter().map(|c| c.name.as_str());
            let hint = did_you_mean(&s.node.card.node, known.clone())
                .map_or_else(String::new, |h| format!("{h} "));
            let list: Vec<&str> = known.collect();
            diags.push(
                Diagnostic::new(
                    Code::LinecardInvalid,
                    s.node.card.span,
                    format!("`{}` is not a line card of `{}`", s.node.card.node, pl.name),
                )
                .label("unknown line card")
                .with_secondary(pspan, "the chassis")
                .help(format!(
                    "{hint}the catalogue's cards for it: {}",
                    list.join(", ")
                )),
            );
            continue;
        };
        if s.node.last < s.node.first {
            diags.push(slot_error(
                s.span,
                format!("slots {}..{} run backwards", s.node.first, s.node.last),
                "slot range",
                format!(
                    "write the lower slot first: `{}..{}`",
                    s.node.last, s.node.first
                ),
            ));
            continue;
        }
        for slot in s.node.first..=s.node.last {
            let slot = u32::try_from(slot).unwrap_or(u32::MAX);
            if !ch.slots.contains(slot) {
                diags.push(slot_error(
                    s.span,
                    format!(
                        "`{}` has no line-card slot {slot}: its slots are {}..{}",
                        pl.name, ch.slots.first, ch.slots.last
                    ),
                    "not a line-card slot",
                    format!("use slots {}..{}", ch.slots.first, ch.slots.last),
                ));
                break;
            }
            if cards.iter().any(|(n, _)| *n == slot) {
                diags.push(slot_error(
                    s.span,
                    format!("switch model `{name}` puts two line cards in slot {slot}"),
                    "slot taken twice",
                    "give each slot one card".to_string(),
                ));
                break;
            }
            cards.push((slot, card));
            spans.push((slot, s.span));
        }
    }
    if cards.is_empty() {
        if slots.is_empty() {
            diags.push(
                Diagnostic::new(
                    Code::LinecardInvalid,
                    at,
                    format!(
                        "switch model `{name}` is on the chassis `{}` but places no line card",
                        pl.name
                    ),
                )
                .label("declared here")
                .with_secondary(pspan, "the chassis")
                .help(format!(
                    "say which cards sit in which slots, e.g. `linecard {}..{} {}`",
                    ch.slots.first,
                    ch.slots.last,
                    ch.linecards.first().map_or("CARD", |c| c.name.as_str())
                )),
            );
        }
        return None;
    }
    cards.sort_by_key(|(slot, _)| *slot);
    Some((ChassisPlace { cards }, spans))
}

fn slot_error(span: Span, msg: String, label: &str, help: String) -> Diagnostic {
    Diagnostic::new(Code::LinecardInvalid, span, msg)
        .label(label)
        .help(help)
}

/// FAB141: `os` has no port names on chassis `pl` in the catalogue, so every name a target
/// wrote would be a guess.
pub(super) fn check_names(name: &str, os: Sourced<Os>, pl: &Platform, diags: &mut Vec<Diagnostic>) {
    let named = has_chassis_names(os.value, pl);
    if named || !pl.runs(os.value) {
        return;
    }
    diags.push(
        Diagnostic::new(
            Code::ChassisNoPortNames,
            os.span,
            format!(
                "switch model `{name}`: fabricc has no {} port names for the chassis `{}`",
                os.value.as_str(),
                pl.name
            ),
        )
        .label("no port names on this chassis")
        .help(format!(
            "build it for an OS that names the chassis's ports ({}), or describe the switch without `platform`",
            named_oses(pl)
        )),
    );
}

/// Whether `os` has a chassis naming rule in fabricc (`CardPort::name`) and the catalogue
/// sources it for chassis `pl`. SONiC, Cumulus, Junos and VRP have none (`lower::vendor_port_name`).
fn has_chassis_names(os: Os, pl: &Platform) -> bool {
    match os {
        Os::Eos => pl.naming.eos.is_some(),
        Os::Nxos => pl.naming.nxos.is_some(),
        Os::Sonic | Os::Cumulus | Os::Junos | Os::Vrp | Os::Comware => false,
    }
}

fn named_oses(pl: &Platform) -> String {
    let v: Vec<String> = Os::ALL
        .iter()
        .filter(|&&os| has_chassis_names(os, pl))
        .map(|os| format!("`os {}`", os.as_str()))
        .collect();
    if v.is_empty() {
        "none yet".into()
    } else {
        v.join(", ")
    }
}

/// FAB141 for a port of a chassis model that `os` has no sourced name for (beyond the cards'
/// cages, or broken out: the catalogue gives no breakout names on the cards), instead of a
/// name that does not exist. Only for an OS with a chassis rule: `check_names` refuses the
/// others once for the whole model.
pub(super) fn check_card_names(
    name: &str,
    os: Os,
    chassis: &ChassisPlace,
    ports: &Sourced<Vec<PortGroup>>,
    diags: &mut Vec<Diagnostic>,
) {
    let os_name = match os {
        Os::Eos => "EOS",
        Os::Nxos => "NX-OS",
        // No chassis rule: `check_names` refuses the model once.
        Os::Sonic | Os::Cumulus | Os::Junos | Os::Vrp | Os::Comware => return,
    };
    let count: u32 = ports.value.iter().map(|g| g.count).sum();
    let Some(bad) = (0..count).find(|&i| {
        chassis
            .place(&ports.value, i)
            .and_then(|c| c.name(os))
            .is_none()
    }) else {
        return;
    };
    diags.push(
        Diagnostic::new(
            Code::ChassisNoPortNames,
            ports.span,
            format!(
                "switch model `{name}`: port {} has no {os_name} name on its line cards (beyond their cages, or broken out)",
                bad + 1
            ),
        )
        .label("not a port of the cards")
        .help("place more cards, or use at most the cards' ports at the cages' speed (or remove `ports` to take the cards')"),
    );
}
