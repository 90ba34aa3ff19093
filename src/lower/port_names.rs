//! Vendor port names (issue 36 item 1): every model's ports named once, by the rule
//! [`vendor_port_name`] states, so lowering, the cabling plan and the diagnostics' notes look a
//! name up instead of placing the port on the platform's cages again.

use super::sonic;
use super::vocab::{
    self, cumulus_port_name, eos_port_name, junos_port_name, nxos_port_name, sonic_port_name,
    vrp_port_name,
};
use crate::diagnostic::Diagnostic;
use crate::model::{Fabric, Os, SwitchId};

/// Every SONiC model's SKU (resolved once: it parses `port_config.ini`), and every model's
/// port names in port order. Placing one port on a platform's cages walks the cages before it,
/// so naming each port of each switch on its own was quadratic in the ports of a switch and
/// paid again for every switch of a model (issue 36 item 1: 9 % of a 16k-GPU build's
/// instructions); the names depend on the model only.
pub(super) struct Skus {
    by_model: Vec<Option<Result<sonic::Sku, Diagnostic>>>,
    names: Vec<Vec<String>>,
}

impl Skus {
    pub(super) fn get(&self, model: usize) -> Option<&Option<Result<sonic::Sku, Diagnostic>>> {
        self.by_model.get(model)
    }
}

/// The most ports of one model named ahead (a 16-slot chassis of 36-port cards broken out
/// 8 ways is 4,608).
const MAX_NAMED_PORTS: u32 = 8192;

pub(super) fn skus(fabric: &Fabric) -> Skus {
    let by_model: Vec<_> = fabric
        .switch_models
        .iter()
        .map(|m| (m.os.value == Os::Sonic).then(|| sonic::sku(m)))
        .collect();
    let names = fabric
        .switch_models
        .iter()
        .zip(&by_model)
        .map(|(m, sku)| {
            // A model's `ports` is user data: past any real switch's, name ports one by one
            // (`port_name_in` falls back) rather than allocate a name per declared port.
            if m.port_count() > MAX_NAMED_PORTS {
                return Vec::new();
            }
            // Placed once per model: `place` per port would assign the cages again each time.
            let placed = m
                .platform
                .map(|p| p.place_all(&m.ports.value))
                .unwrap_or_default();
            (0..m.port_count())
                .map(|i| model_port_name(m, sku.as_ref(), i, Some(&placed)))
                .collect()
        })
        .collect();
    Skus { by_model, names }
}

/// The vendor name of port `index` (0-based) of switch `s`: on SONiC the name its SKU gives
/// that port; elsewhere from the model's platform where the catalogue names that OS's ports
/// (breakouts included: a model's ports slower than its cages are broken out as far as the
/// cages allow, `Platform::place`), else the OS's unbroken front-panel name. It resolves the
/// model's SKU on each call: to name many ports, use [`PortNames`].
#[cfg(feature = "internals")]
pub fn vendor_port_name(fabric: &Fabric, s: SwitchId, index: u32) -> String {
    let model = fabric.switch_model(s);
    let sku = (model.os.value == Os::Sonic).then(|| sonic::sku(model));
    port_name_with(fabric, sku.as_ref(), s, index)
}

/// Vendor port names for a whole fabric: [`vendor_port_name`] with every SONiC model's SKU
/// resolved once, not once per port. Resolving a SKU parses its `port_config.ini`, so naming
/// every cable end by [`vendor_port_name`] made the cabling plan cost a parse per link end
/// (issue 36 item 1: 5.8 s of a 16,384-GPU build's 7.8 s).
pub struct PortNames<'a> {
    fabric: &'a Fabric,
    skus: Skus,
}

impl<'a> PortNames<'a> {
    pub fn new(fabric: &'a Fabric) -> Self {
        PortNames {
            fabric,
            skus: skus(fabric),
        }
    }

    /// The vendor name of port `index` (0-based) of switch `s`, as [`vendor_port_name`].
    pub fn name(&self, s: SwitchId, index: u32) -> String {
        port_name_in(self.fabric, &self.skus, s, index)
    }
}

/// [`vendor_port_name`] with the SKUs resolved once for the whole fabric.
pub(super) fn port_name_in(fabric: &Fabric, skus: &Skus, s: SwitchId, index: u32) -> String {
    let model = fabric.switch(s).model.index();
    if let Some(name) = skus.names.get(model).and_then(|n| n.get(index as usize)) {
        return name.clone();
    }
    let sku = skus.get(model).and_then(Option::as_ref);
    port_name_with(fabric, sku, s, index)
}

fn port_name_with(
    fabric: &Fabric,
    sku: Option<&Result<sonic::Sku, Diagnostic>>,
    s: SwitchId,
    index: u32,
) -> String {
    model_port_name(fabric.switch_model(s), sku, index, None)
}

/// The vendor name of port `index` of a switch of `model` (the rule [`vendor_port_name`]
/// states).
fn model_port_name(
    model: &crate::model::SwitchModel,
    sku: Option<&Result<sonic::Sku, Diagnostic>>,
    index: u32,
    placed: Option<&[(u32, u32, u32)]>,
) -> String {
    // A chassis names its ports by slot and card port (review E7); EOS and NX-OS have that
    // rule (`CardPort::name`), and a model on a chassis with another OS is refused (FAB141)
    // before anything is written.
    if let Some(name) = model.card_port(index).and_then(|c| c.name(model.os.value)) {
        return name;
    }
    if model.os.value != Os::Sonic
        && model.chassis.is_none()
        && let Some(p) = model.platform
        && let Some((cage, split, sub)) = placed.map_or_else(
            || p.place(&model.ports.value, index),
            |all| all.get(index as usize).copied(),
        )
        && let Some(name) = p.port_name(model.os.value, cage, split, sub)
    {
        return name;
    }
    match model.os.value {
        Os::Sonic => match sku {
            Some(Ok(sku)) => sku
                .port_name(index)
                .map_or_else(|| sonic_port_name(index, 8), str::to_string),
            _ => sonic_port_name(index, sonic_lanes_per_port(model.port_count())),
        },
        Os::Cumulus => cumulus_port_name(index),
        Os::Eos => eos_port_name(index),
        Os::Nxos => nxos_port_name(index),
        Os::Junos => junos_port_name(index),
        Os::Vrp => {
            // Numbered per interface type (speed), as the catalogue's VRP rule.
            let speed = model.port_speed(index);
            let ordinal = (0..index).filter(|&i| model.port_speed(i) == speed).count();
            vrp_port_name(u32::try_from(ordinal).unwrap_or(index), speed)
        }
        Os::Comware => vocab::comware_port_name(index, vocab::port_speed_gbps(model, index)),
    }
}

/// SONiC lanes per port where no SKU says (a model without a platform is FAB950, but its
/// neighbours still name its ports): a 512-SerDes ASIC, at most 8 lanes a port.
pub(super) fn sonic_lanes_per_port(port_count: u32) -> u32 {
    let mut lanes = 8;
    while lanes > 1 && lanes * port_count > 512 {
        lanes /= 2;
    }
    lanes
}
