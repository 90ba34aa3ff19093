//! `fabricc-device.json`: what the SONiC apply program (`programs/sonic/apply.sh`,
//! `render::sonic_program`) needs to know of one switch besides its fragment, and what a
//! reviewer reads first.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::context::{SonicPlan, SwitchContext};
use super::escape;

/// The format of `fabricc-device.json`; the program refuses another.
pub const DEVICE_FORMAT: u32 = 2;

/// `fabricc-device.json`: what the apply program needs to know of one switch besides its
/// fragment, and what a reviewer reads first.
#[derive(Debug, Serialize)]
pub struct DeviceSettings {
    /// `DEVICE_FORMAT`: the program refuses a file of another format.
    pub format: u32,
    pub device: String,
    pub fabric: String,
    /// One line, sanitized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `DEVICE_METADATA.platform` and `.hwsku` the switch must run.
    pub platform: String,
    pub hwsku: String,
    pub asic: &'static str,
    pub buffer_model: &'static str,
    /// The fabric ports: fabricc owns their keys in the per-port tables.
    pub ports: Vec<String>,
    /// `SWITCH_HASH|GLOBAL.ecmp_hash` (= `lag_hash`), for the preflight of the switch's hash
    /// capability; empty = not written.
    pub switch_hash: Vec<&'static str>,
    /// The other ports of the fabric's broken-out cages (`BREAKOUT_CFG`), as the SKU has them:
    /// where the switch runs a cage in another mode, the program recreates the cage's ports,
    /// these with the fabric's (issue 38).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cage_ports: BTreeMap<String, BTreeMap<&'static str, String>>,
}

/// The settings of one switch with a SONiC plan.
pub(super) fn device_settings(ctx: &SwitchContext, plan: &SonicPlan) -> DeviceSettings {
    DeviceSettings {
        format: DEVICE_FORMAT,
        device: ctx.device.clone(),
        fabric: ctx.fabric.clone(),
        description: ctx
            .description
            .as_deref()
            .map(escape::sanitize_text)
            .filter(|d| !d.is_empty()),
        platform: plan.platform.clone(),
        hwsku: plan.hwsku.clone(),
        asic: plan.asic.as_str(),
        buffer_model: plan.buffer_model.as_str(),
        ports: ctx.ports.iter().map(|p| p.name.clone()).collect(),
        switch_hash: plan.switch_hash.clone().unwrap_or_default(),
        cage_ports: other_cage_ports(ctx, plan),
    }
}

/// `DeviceSettings::cage_ports`: the `PORT` fields of each port of a broken-out cage that the
/// fabric does not use (the fabric's own are in the fragment).
fn other_cage_ports(
    ctx: &SwitchContext,
    plan: &SonicPlan,
) -> BTreeMap<String, BTreeMap<&'static str, String>> {
    let fabric: BTreeSet<&str> = ctx.ports.iter().map(|p| p.name.as_str()).collect();
    plan.cage_ports
        .values()
        .flatten()
        .filter(|p| !fabric.contains(p.name.as_str()))
        .map(|p| {
            let lanes: Vec<String> = p.lanes.iter().map(u32::to_string).collect();
            let fields = BTreeMap::from([
                ("alias", escape::sanitize_text(&p.alias)),
                ("index", p.index.to_string()),
                ("lanes", lanes.join(",")),
                ("speed", p.speed.to_string()),
            ]);
            (p.name.clone(), fields)
        })
        .collect()
}
