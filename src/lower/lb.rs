//! The switch side of `load-balance` for one switch: mode, flowlet gap, the switch's hash seed
//! and its switch-facing ports (issue 20 item 4). What each target writes of it is decided in
//! `render::lb`; this only says what the fabric asks of this switch.

use std::collections::BTreeSet;

use crate::model::{Fabric, LbMode, LbSeed, SwitchId};
use crate::render::{LbContext, PortContext};

/// The `load-balance` request for switch `s`, whose fabric ports are `ports`.
pub(super) fn lb_context(fabric: &Fabric, s: SwitchId, ports: &[PortContext]) -> LbContext {
    let Some(lb) = &fabric.load_balance else {
        return LbContext::default();
    };
    let mode = lb
        .mode
        .as_ref()
        .map(|m| m.value)
        .filter(|m| *m != LbMode::Ecmp)
        .map(LbMode::keyword);
    let tier = tier_of(fabric, s);
    let (seed, seed_untiered) = match lb.seed.as_ref().map(|s| s.value) {
        None => (None, false),
        Some(LbSeed::Fixed(n)) => (Some(n), false),
        // One seed per tier: the tier's number, so a leaf and a spine never hash alike.
        Some(LbSeed::PerTier) => (tier.map(u64::from), tier.is_none()),
    };
    let switches: BTreeSet<&str> = fabric.switches.iter().map(|s| s.name.as_str()).collect();
    LbContext {
        mode,
        flowlet_gap_ns: lb.flowlet_gap.as_ref().map(|g| g.value),
        seed,
        seed_untiered,
        switch_ports: ports
            .iter()
            .filter(|p| switches.contains(p.peer.as_str()))
            .map(|p| p.name.clone())
            .collect(),
    }
}

/// The tier number of a switch: its own `tier`, else its generator tier's level.
fn tier_of(fabric: &Fabric, s: SwitchId) -> Option<u8> {
    let sw = fabric.switch(s);
    sw.tier.as_ref().map(|t| t.value).or_else(|| {
        sw.generated
            .and_then(|t| fabric.tiers.get(t.0 as usize))
            .map(|t| t.level)
    })
}
