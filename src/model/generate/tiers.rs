//! What tier generation produces (switches, links, tiers) and the resolved tier statements
//! and plane it works from, shared by the steps below `generate`.

use crate::model::{HostId, Mbps, Millimetres, Sourced, SwitchModel, SwitchModelId, TierId};
use crate::span::Span;
use crate::syntax::ast::{self, NameTemplate};

/// A host the tiers wire: its NIC count and speed (Mb/s).
#[derive(Debug, Clone, Copy)]
pub struct WiredHost {
    pub id: HostId,
    pub nics: u32,
    pub nic_speed: u64,
    /// Ports per NIC (`ports 2 x 200G`); `nics` counts ports, card-major.
    pub ports: u32,
    /// `spare`: wired after the active hosts onto the leaves' spare ports (those after the
    /// down and up ports), so it neither takes a downlink nor counts in the ratio.
    pub spare: Option<Span>,
}

#[derive(Debug, Clone)]
pub struct GenSwitch {
    pub name: String,
    pub tier: TierId,
    pub level: u8,
    pub model: SwitchModelId,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenEnd {
    Host(HostId, u32),
    /// Index into `Generated::switches`, and the port.
    Switch(u32, u32),
}

#[derive(Debug, Clone, Copy)]
pub struct GenLink {
    /// The lower end (host or lower-tier switch).
    pub down: GenEnd,
    pub up: GenEnd,
    pub speed: Mbps,
    pub cable_mm: Sourced<Millimetres>,
    pub tier: TierId,
    pub span: Span,
}

/// A tier as generated (switch IDs are filled in by the resolver).
#[derive(Debug, Clone)]
pub struct GenTier {
    pub name: String,
    pub span: Span,
    pub level: u8,
    pub model: SwitchModelId,
    pub oversubscription: Option<Sourced<(u64, u64)>>,
    pub downlinks: u32,
    pub uplinks: u32,
    /// Indices into `Generated::switches`.
    pub switches: Vec<u32>,
}

#[derive(Debug, Default)]
pub struct Generated {
    pub switches: Vec<GenSwitch>,
    pub links: Vec<GenLink>,
    pub tiers: Vec<GenTier>,
    /// `planes N` of the leaf tier (0 or 1: one fabric).
    pub planes: u32,
}

pub(super) struct TierSpec<'a> {
    pub(super) decl: &'a ast::TierDecl,
    pub(super) model_id: SwitchModelId,
    pub(super) model: &'a SwitchModel,
    pub(super) oversubscription: Option<Sourced<(u64, u64)>>,
    pub(super) cable: Sourced<Millimetres>,
    pub(super) name: Option<&'a NameTemplate>,
    pub(super) downlinks: Option<Sourced<u64>>,
    pub(super) uplinks: Option<Sourced<u64>>,
    pub(super) switches: Option<Sourced<u64>>,
    pub(super) planes: Option<Sourced<u64>>,
    pub(super) wiring: Option<Sourced<ast::WiringStyle>>,
    pub(super) dual_tor: Option<Span>,
    /// `peer-link N`: links between the two leaves of each dual-ToR pair.
    pub(super) peer_link: Option<Sourced<u64>>,
    pub(super) down: u32,
    pub(super) up: u32,
}

/// Which plane `wire` builds: port `index` of every NIC, one of `count` planes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Plane {
    pub(super) index: u32,
    pub(super) count: u32,
}
