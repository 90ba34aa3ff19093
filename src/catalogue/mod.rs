//! The platform catalogue: what a switch or NIC platform fixes (ASIC, cages and lanes, port
//! names per OS, buffer and cell, SONiC's SKU tables), each number with its public source.
//!
//! In: the YAML files under `catalogue/` (one per platform), compiled into the binary. Out:
//! typed [`Platform`]s and [`NicPlatform`]s, parsed once and checked by [`validate`] (the
//! tests run it; a catalogue that fails it never ships). `switch-model … { platform NAME }`
//! binds a model to one of them (`model::resolve::models`), and renderers read the typed
//! fields from `fabric.switch_models[i].platform`.
//!
//! A number no public source gives is left out of its file and named in `not_sourced`; the
//! types make every such field optional, so no caller can mistake a missing number for zero.

pub mod asic_table;
mod chassis;
// The checks of `validate`, which only the tests run.
#[cfg(test)]
mod check;
mod lookup;
mod nic;
pub mod platform;
pub mod port_group;
// A user's own SONiC SKU folder (issue 38 item 1): `switch-model … { sku "PATH" }`.
mod sku_configdb;
mod sku_custom;
mod sku_folder;
mod source;

use std::sync::OnceLock;

use serde::Deserialize;

pub use chassis::{CardPort, ChassisPlace};
pub use lookup::{PortsMisfit, comware_type};
pub use nic::NicPlatform;
pub use platform::{
    AsicFamily, BreakoutMode, BufferDefaults, Chassis, Hwsku, Linecard, LookupRow, Num, Platform,
    PortConfigRow, Sonic, topology_type,
};
pub use sku_configdb::{CONFIG_DB, read_config_db};
pub use sku_custom::{CustomSku, read_folder};
pub use sku_folder::SkuFinding;
pub use source::{Source, SourcedNumber, sourced_numbers};

#[cfg(test)]
pub(crate) use check::{check_key, valid_card_name, valid_name};

/// The embedded data files: `(file stem, text)`. A new platform is a new line here and a new
/// file under `catalogue/` (docs/platforms.md).
const SWITCH_FILES: &[(&str, &str)] = &[
    (
        "arista-7060dx4-32",
        include_str!("../../catalogue/switches/arista-7060dx4-32.yaml"),
    ),
    (
        "arista-7060dx5-32",
        include_str!("../../catalogue/switches/arista-7060dx5-32.yaml"),
    ),
    (
        "arista-7060dx5-64s",
        include_str!("../../catalogue/switches/arista-7060dx5-64s.yaml"),
    ),
    (
        "arista-7060px4-32",
        include_str!("../../catalogue/switches/arista-7060px4-32.yaml"),
    ),
    (
        "arista-7060x6-32pe",
        include_str!("../../catalogue/switches/arista-7060x6-32pe.yaml"),
    ),
    (
        "arista-7060x6-64de",
        include_str!("../../catalogue/switches/arista-7060x6-64de.yaml"),
    ),
    (
        "arista-7060x6-64pe",
        include_str!("../../catalogue/switches/arista-7060x6-64pe.yaml"),
    ),
    (
        "arista-7060x6-64pe-b",
        include_str!("../../catalogue/switches/arista-7060x6-64pe-b.yaml"),
    ),
    (
        "arista-7280r4-32qf-32df",
        include_str!("../../catalogue/switches/arista-7280r4-32qf-32df.yaml"),
    ),
    (
        "arista-7808r3",
        include_str!("../../catalogue/switches/arista-7808r3.yaml"),
    ),
    (
        "celestica-silverstone",
        include_str!("../../catalogue/switches/celestica-silverstone.yaml"),
    ),
    (
        "celestica-silverstone-v2",
        include_str!("../../catalogue/switches/celestica-silverstone-v2.yaml"),
    ),
    (
        "cisco-n9364d-gx2a",
        include_str!("../../catalogue/switches/cisco-n9364d-gx2a.yaml"),
    ),
    (
        "cisco-n9808",
        include_str!("../../catalogue/switches/cisco-n9808.yaml"),
    ),
    (
        "dell-z9332f",
        include_str!("../../catalogue/switches/dell-z9332f.yaml"),
    ),
    (
        "dell-z9864f",
        include_str!("../../catalogue/switches/dell-z9864f.yaml"),
    ),
    (
        "h3c-s9825-64d",
        include_str!("../../catalogue/switches/h3c-s9825-64d.yaml"),
    ),
    (
        "h3c-s9855-48cd8d",
        include_str!("../../catalogue/switches/h3c-s9855-48cd8d.yaml"),
    ),
    (
        "huawei-ce6885-48ys8cq",
        include_str!("../../catalogue/switches/huawei-ce6885-48ys8cq.yaml"),
    ),
    (
        "huawei-ce8851-32cq8dq-p",
        include_str!("../../catalogue/switches/huawei-ce8851-32cq8dq-p.yaml"),
    ),
    (
        "juniper-qfx5140",
        include_str!("../../catalogue/switches/juniper-qfx5140.yaml"),
    ),
    (
        "juniper-qfx5230-64cd",
        include_str!("../../catalogue/switches/juniper-qfx5230-64cd.yaml"),
    ),
    (
        "juniper-qfx5240-64od",
        include_str!("../../catalogue/switches/juniper-qfx5240-64od.yaml"),
    ),
    (
        "juniper-qfx5241-32od",
        include_str!("../../catalogue/switches/juniper-qfx5241-32od.yaml"),
    ),
    (
        "juniper-qfx5241-64od",
        include_str!("../../catalogue/switches/juniper-qfx5241-64od.yaml"),
    ),
    (
        "juniper-qfx5241-64qd",
        include_str!("../../catalogue/switches/juniper-qfx5241-64qd.yaml"),
    ),
    (
        "micas-m2-w6930-64qc",
        include_str!("../../catalogue/switches/micas-m2-w6930-64qc.yaml"),
    ),
    (
        "nokia-ixr7220-h5-64d",
        include_str!("../../catalogue/switches/nokia-ixr7220-h5-64d.yaml"),
    ),
    (
        "nokia-ixr7220-h5-64o",
        include_str!("../../catalogue/switches/nokia-ixr7220-h5-64o.yaml"),
    ),
    (
        "nvidia-sn4600c",
        include_str!("../../catalogue/switches/nvidia-sn4600c.yaml"),
    ),
    (
        "nvidia-sn4700",
        include_str!("../../catalogue/switches/nvidia-sn4700.yaml"),
    ),
    (
        "nvidia-sn5400",
        include_str!("../../catalogue/switches/nvidia-sn5400.yaml"),
    ),
    (
        "nvidia-sn5600",
        include_str!("../../catalogue/switches/nvidia-sn5600.yaml"),
    ),
    (
        "supermicro-sse-t8164",
        include_str!("../../catalogue/switches/supermicro-sse-t8164.yaml"),
    ),
];

const NIC_FILES: &[(&str, &str)] = &[
    (
        "broadcom-bcm57608",
        include_str!("../../catalogue/nics/broadcom-bcm57608.yaml"),
    ),
    (
        "hisilicon-hns3",
        include_str!("../../catalogue/nics/hisilicon-hns3.yaml"),
    ),
    (
        "huawei-ascend910b",
        include_str!("../../catalogue/nics/huawei-ascend910b.yaml"),
    ),
    (
        "intel-e810",
        include_str!("../../catalogue/nics/intel-e810.yaml"),
    ),
    (
        "intel-e830",
        include_str!("../../catalogue/nics/intel-e830.yaml"),
    ),
    (
        "nvidia-bf3",
        include_str!("../../catalogue/nics/nvidia-bf3.yaml"),
    ),
    (
        "nvidia-cx5",
        include_str!("../../catalogue/nics/nvidia-cx5.yaml"),
    ),
    (
        "nvidia-cx6",
        include_str!("../../catalogue/nics/nvidia-cx6.yaml"),
    ),
    (
        "nvidia-cx6dx",
        include_str!("../../catalogue/nics/nvidia-cx6dx.yaml"),
    ),
    (
        "nvidia-cx6lx",
        include_str!("../../catalogue/nics/nvidia-cx6lx.yaml"),
    ),
    (
        "nvidia-cx7",
        include_str!("../../catalogue/nics/nvidia-cx7.yaml"),
    ),
    (
        "nvidia-cx8",
        include_str!("../../catalogue/nics/nvidia-cx8.yaml"),
    ),
];

/// Every platform, switches and NICs, sorted by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    pub switches: Vec<Platform>,
    pub nics: Vec<NicPlatform>,
}

impl Catalogue {
    pub fn switch(&self, name: &str) -> Option<&Platform> {
        self.switches.iter().find(|p| p.name == name)
    }

    pub fn nic(&self, name: &str) -> Option<&NicPlatform> {
        self.nics.iter().find(|p| p.name == name)
    }

    /// Every platform name, switches then NICs.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.switches
            .iter()
            .map(|p| p.name.as_str())
            .chain(self.nics.iter().map(|p| p.name.as_str()))
    }
}

/// Parses the embedded files. `Err` names the file and serde's complaint.
pub fn load() -> Result<Catalogue, String> {
    fn parse<T: for<'de> Deserialize<'de>>(files: &[(&str, &str)]) -> Result<Vec<T>, String> {
        files
            .iter()
            .map(|(stem, text)| {
                serde_yaml::from_str(text).map_err(|e| format!("catalogue/{stem}.yaml: {e}"))
            })
            .collect()
    }
    let mut switches: Vec<Platform> = parse(SWITCH_FILES)?;
    let mut nics: Vec<NicPlatform> = parse(NIC_FILES)?;
    switches.sort_by(|a, b| a.name.cmp(&b.name));
    nics.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Catalogue { switches, nics })
}

/// The catalogue, parsed on first use.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        load().expect("invariant: the embedded catalogue parses (tests/it/catalogue.rs checks it)")
    })
}

pub fn switch_platform(name: &str) -> Option<&'static Platform> {
    catalogue().switch(name)
}

pub fn nic_platform(name: &str) -> Option<&'static NicPlatform> {
    catalogue().nic(name)
}

/// Everything wrong with the catalogue's data: unknown source keys, malformed sources,
/// inconsistent tables. Empty when the catalogue may ship. Run by the tests below.
#[cfg(test)]
pub fn validate(c: &Catalogue) -> Vec<String> {
    let mut errors = Vec::new();
    for p in &c.switches {
        p.validate(&mut errors);
        unused_sources(&p.name, &p.sources, p, &mut errors);
    }
    for n in &c.nics {
        n.validate(&mut errors);
        unused_sources(&n.name, &n.sources, n, &mut errors);
    }
    let mut names: Vec<&str> = c.names().collect();
    names.sort_unstable();
    for w in names.windows(2) {
        if w[0] == w[1] {
            errors.push(format!("`{}` is in the catalogue twice", w[0]));
        }
    }
    errors
}

/// Every entry of `sources` is cited by some `source:` (or `…_source:`) field.
#[cfg(test)]
fn unused_sources<T: serde::Serialize>(
    name: &str,
    sources: &std::collections::BTreeMap<String, Source>,
    entry: &T,
    errors: &mut Vec<String>,
) {
    fn walk(v: &serde_yaml::Value, used: &mut std::collections::BTreeSet<String>) {
        match v {
            serde_yaml::Value::Mapping(m) => {
                for (k, v) in m {
                    if let (Some(k), Some(s)) = (k.as_str(), v.as_str())
                        && k.ends_with("source")
                    {
                        used.insert(s.to_string());
                    }
                    walk(v, used);
                }
            }
            serde_yaml::Value::Sequence(s) => s.iter().for_each(|v| walk(v, used)),
            _ => {}
        }
    }
    let mut used = std::collections::BTreeSet::new();
    if let Ok(v) = serde_yaml::to_value(entry) {
        walk(&v, &mut used);
    }
    for key in sources.keys() {
        if !used.contains(key) {
            errors.push(format!("{name}: source `{key}` is cited by no number"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_catalogue_parses_and_validates() {
        let c = load().unwrap_or_else(|e| panic!("{e}"));
        let errors = validate(&c);
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }

    #[test]
    fn names_are_lower_case_vendor_model() {
        for (ok, name) in [
            (true, "nvidia-sn5600"),
            (true, "arista-7060x6-64pe"),
            (false, "NVIDIA-SN5600"),
            (false, "sn5600"),
            (false, "nvidia-"),
            (false, "nvidia_sn5600"),
        ] {
            assert_eq!(valid_name(name), ok, "{name}");
        }
    }
}

#[cfg(test)]
/// The NIC records of the embedded catalogue.
mod nic_tests {
    use crate::catalogue::nic_platform;

    #[test]
    fn connectx_identities() {
        for (name, pci, gbps) in [
            ("nvidia-cx6dx", 0x101d, 200_000),
            ("nvidia-cx7", 0x1021, 400_000),
            ("nvidia-cx8", 0x1023, 400_000),
        ] {
            let n = nic_platform(name).unwrap_or_else(|| panic!("{name} in the catalogue"));
            assert_eq!(n.driver(), "mlx5", "{name}");
            assert_eq!(n.pci_device(), Some(pci), "{name}");
            assert_eq!(n.speed_mbps(), Some(gbps), "{name}");
        }
    }
}
