//! A modular chassis filled with line cards (issue 18 item 3): which card port a model's port
//! index is, which ASIC (and so which packet buffer) it belongs to, and what the OS calls it
//! (EOS `Ethernet<slot>/<port>/1`, NX-OS `Ethernet<slot>/<port>`).
//!
//! The model says which card sits in which slot (`linecard 3..8 7800r3a-36d`); its ports take
//! the cards' cages in slot order, each card's in port order, by the same rule a fixed box's
//! ports take its cages (`Platform::place`).

use super::PortsMisfit;
#[cfg(test)]
use super::check_key;
use super::platform::{CageGroup, Linecard, Platform};
use super::port_group::PortGroup;
use crate::syntax::ast::Os;

/// The cards of one model, in slot order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChassisPlace {
    pub cards: Vec<(u32, &'static Linecard)>,
}

/// Where a model's port sits on a chassis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardPort {
    pub slot: u32,
    pub card: &'static Linecard,
    /// The cage on the card, 1-based (the number after the slot in EOS and NX-OS names).
    pub port: u32,
    /// Sub-ports the cage is broken into (1: unbroken), and this one, 0-based.
    pub split: u32,
    pub sub: u32,
    /// The card's ASIC that owns the cage, 0-based.
    pub asic: u32,
}

impl ChassisPlace {
    /// Every cage of every card, in port order: (slot, card, cage on the card, 0-based, group).
    fn cages(&self) -> Vec<(u32, &'static Linecard, u32, &'static CageGroup)> {
        let mut out = Vec::new();
        for &(slot, card) in &self.cards {
            let mut k = 0;
            for g in &card.cages {
                for _ in 0..g.count {
                    if !g.aux {
                        out.push((slot, card, k, g));
                    }
                    k += 1;
                }
            }
        }
        out
    }

    /// The ports a model has when it says none: every cage of every card at its fastest speed.
    pub fn port_groups(&self) -> Vec<PortGroup> {
        let mut groups: Vec<PortGroup> = Vec::new();
        for (_, _, _, g) in self.cages() {
            let speed = u64::from(g.speed_gbps) * 1000;
            match groups.last_mut() {
                Some(last) if last.speed == speed && last.breakout.is_none() => last.count += 1,
                _ => groups.push(PortGroup::plain(1, speed)),
            }
        }
        groups
    }

    /// The chassis seen as one box whose cages are the cards' in slot order: what the
    /// fixed-box checks (`Platform::fit`, breakout modes) read.
    pub fn flat(&self, platform: &Platform) -> Platform {
        let mut flat = platform.clone();
        flat.chassis = None;
        flat.cages = self
            .cards
            .iter()
            .flat_map(|(_, c)| c.cages.iter().cloned())
            .collect();
        flat
    }

    /// Whether `groups` fit the cards' cages (the fixed-box rule over all cards' cages).
    pub fn fit(&self, platform: &Platform, groups: &[PortGroup]) -> Result<(), PortsMisfit> {
        self.flat(platform).fit(groups)
    }

    /// The smallest per-ASIC buffer of the cards (bytes), the figure a model's `buffer`
    /// stands for on a chassis; `None` when a card's buffer is not sourced.
    pub fn buffer_bytes(&self) -> Option<u64> {
        self.cards
            .iter()
            .map(|(_, c)| c.buffer_bytes())
            .min()
            .flatten()
    }

    /// Where port `index` (0-based) of a model with `groups` sits. `None` when it does not fit.
    pub fn place(&self, groups: &[PortGroup], index: u32) -> Option<CardPort> {
        let cages = self.cages();
        let mut next = cages.iter();
        let mut left = index;
        for group in groups {
            let speed_gbps = u32::try_from(group.speed.div_ceil(1000)).unwrap_or(u32::MAX);
            let mut remaining = group.count;
            while remaining > 0 {
                let &(slot, card, k, g) = next.next()?;
                let per = g.ports_for(group, speed_gbps);
                if per == 0 {
                    return None;
                }
                let take = per.min(remaining);
                if left < take {
                    return Some(CardPort {
                        slot,
                        card,
                        port: k + 1,
                        split: per,
                        sub: left,
                        asic: card.asic_of(k),
                    });
                }
                left -= take;
                remaining -= take;
            }
        }
        None
    }

    /// Line cards in the chassis.
    pub fn card_count(&self) -> usize {
        self.cards.len()
    }
}

impl CardPort {
    /// The port's name on `os`, by the chassis rule of that OS: EOS
    /// `Ethernet<slot>/<port>/<first lane, from 1>` (unbroken: lane 1), NX-OS
    /// `Ethernet<slot>/<port>`. `None` for a broken-out port, which no source names on the
    /// catalogued cards, and for an OS with no chassis rule (FAB141 refuses both).
    pub fn name(&self, os: Os) -> Option<String> {
        if self.split != 1 {
            return None;
        }
        match os {
            Os::Eos => Some(format!("Ethernet{}/{}/1", self.slot, self.port)),
            Os::Nxos => Some(format!("Ethernet{}/{}", self.slot, self.port)),
            Os::Sonic | Os::Cumulus | Os::Junos | Os::Vrp | Os::Comware => None,
        }
    }

    /// `slot 3` or, on a card of several ASICs, `slot 3 ASIC 2`: the buffer this port uses.
    pub fn unit_label(&self) -> String {
        if self.card.asic_count() > 1 {
            format!("slot {} ASIC {}", self.slot, self.asic + 1)
        } else {
            format!("slot {}", self.slot)
        }
    }
}

impl Linecard {
    /// The card's buffer units: its ASICs, or the whole card as one where no source gives the
    /// count. One unit for the whole card counts every port's headroom against one buffer,
    /// which can only overstate the load on each real ASIC.
    pub fn asic_count(&self) -> u32 {
        self.asics.as_ref().map_or(1, |n| n.value.max(1))
    }

    /// Whether the catalogue records how many ASICs the card has.
    pub fn asics_known(&self) -> bool {
        self.asics.is_some()
    }

    /// The ASIC of cage `k` (0-based): the cages split evenly among the ASICs in port order.
    pub fn asic_of(&self, k: u32) -> u32 {
        let cages: u32 = self.cages.iter().map(|g| g.count).sum();
        let per = cages.div_ceil(self.asic_count()).max(1);
        (k / per).min(self.asic_count() - 1)
    }

    /// The buffer of one ASIC, bytes: what the OS gives the pools where known.
    pub fn buffer_bytes(&self) -> Option<u64> {
        self.buffer.pool_bytes()
    }
}

impl Platform {
    /// The catalogue's card `name` for this chassis.
    pub fn linecard(&self, name: &str) -> Option<&Linecard> {
        self.chassis
            .as_ref()?
            .linecards
            .iter()
            .find(|c| c.name == name)
    }

    /// Everything inconsistent in the chassis part of this entry, appended to `errors`.
    // The catalogue's validation runs in its tests (`catalogue::tests`), not in the product.
    #[cfg(test)]
    pub(crate) fn validate_chassis(&self, errors: &mut Vec<String>) {
        let Some(ch) = &self.chassis else { return };
        let at = |what: &str| format!("{}: chassis {what}", self.name);
        let key = |k: &str, place: &str, errors: &mut Vec<String>| {
            check_key(&self.sources, k, &at(place), errors);
        };
        key(&ch.slots.source, "slots", errors);
        if ch.slots.first == 0 || ch.slots.first > ch.slots.last {
            errors.push(at("slots: first is 1 or more and not after last"));
        }
        if !self.cages.is_empty() || self.buffer != Default::default() {
            errors.push(at("a chassis has its cages and buffer on its line cards"));
        }
        if ch.linecards.is_empty() {
            errors.push(at("no line cards"));
        }
        for c in &ch.linecards {
            let place = format!("linecard {}", c.name);
            key(&c.asic.source, &format!("{place} asic"), errors);
            if let Some(n) = &c.asics {
                key(&n.source, &format!("{place} asics"), errors);
            }
            for g in &c.cages {
                key(&g.source, &format!("{place} cages"), errors);
            }
            for b in [&c.buffer.total, &c.buffer.usable].into_iter().flatten() {
                key(&b.source, &format!("{place} buffer"), errors);
            }
            if c.asics.as_ref().is_some_and(|n| n.value == 0) || c.cages.is_empty() {
                errors.push(at(&format!("{place}: at least one ASIC and one cage")));
            }
            if !super::valid_card_name(&c.name) {
                errors.push(at(&format!("{place}: not a lower-case model name")));
            }
        }
    }
}
