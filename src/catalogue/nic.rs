//! A NIC platform: driver, ports and speeds, PCI identity, on-chip buffer where public.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Source;
use super::platform::{Bytes, Num};
#[cfg(test)]
use super::{check_key, valid_name};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NicPlatform {
    pub name: String,
    pub vendor: String,
    pub model: String,
    pub summary: String,
    pub sources: BTreeMap<String, Source>,
    /// The Linux driver that binds it (`mlx5`).
    pub driver: Num<String>,
    /// PCI device ID of the physical function (`0x1021`), vendor `0x15b3`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pci_device_id: Option<Num<String>>,
    /// Most Ethernet ports one card of the family has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ports: Option<Num<u32>>,
    /// Fastest Ethernet speed of one port, Gb/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_port_speed_gbps: Option<Num<u32>>,
    /// SerDes lanes of one port at `max_port_speed_gbps` (a switch port at that speed on other
    /// lanes does not link up with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port_lanes: Option<Num<u32>>,
    /// Ethernet speeds the family lists, Gb/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ethernet_speeds_gbps: Option<Num<Vec<u32>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<Bytes>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_sourced: Vec<String>,
}

impl NicPlatform {
    pub fn driver(&self) -> &str {
        &self.driver.value
    }

    /// Fastest port speed, Mb/s (the unit of `NicModel::speed`).
    pub fn speed_mbps(&self) -> Option<u64> {
        self.max_port_speed_gbps
            .as_ref()
            .map(|s| u64::from(s.value) * 1000)
    }

    /// Lanes of a port running at `speed_mbps`, where the catalogue knows them (at the
    /// fastest speed only).
    pub fn lanes_at(&self, speed_mbps: u64) -> Option<u32> {
        (self.speed_mbps()? == speed_mbps).then(|| self.port_lanes.as_ref().map(|l| l.value))?
    }

    pub fn buffer_bytes(&self) -> Option<u64> {
        self.buffer.as_ref().map(|b| b.bytes)
    }

    /// The PCI device ID as a number.
    pub fn pci_device(&self) -> Option<u16> {
        let id = self.pci_device_id.as_ref()?;
        u16::from_str_radix(id.value.strip_prefix("0x")?, 16).ok()
    }

    // The catalogue's validation runs in its tests (`catalogue::tests`), not in the product.
    #[cfg(test)]
    pub(crate) fn validate(&self, errors: &mut Vec<String>) {
        let at = |what: &str| format!("{}: {what}", self.name);
        if !valid_name(&self.name) {
            errors.push(at("the name is not lower-case vendor-model"));
        }
        for (key, s) in &self.sources {
            if !s.is_valid() {
                errors.push(at(&format!("source `{key}` is not a valid source")));
            }
        }
        let mut keys: Vec<(&str, &str)> = vec![("driver", &self.driver.source)];
        if let Some(p) = &self.pci_device_id {
            keys.push(("pci_device_id", &p.source));
            if self.pci_device().is_none() {
                errors.push(at("pci_device_id is not 0x and four hex digits"));
            }
        }
        if let Some(p) = &self.max_ports {
            keys.push(("max_ports", &p.source));
        }
        if let Some(s) = &self.max_port_speed_gbps {
            keys.push(("max_port_speed_gbps", &s.source));
        }
        if let Some(l) = &self.port_lanes {
            keys.push(("port_lanes", &l.source));
            if l.value == 0 || self.max_port_speed_gbps.is_none() {
                errors.push(at(
                    "port_lanes needs max_port_speed_gbps and at least one lane",
                ));
            }
        }
        if let Some(s) = &self.ethernet_speeds_gbps {
            keys.push(("ethernet_speeds_gbps", &s.source));
            if let Some(max) = &self.max_port_speed_gbps
                && s.value.iter().max() != Some(&max.value)
            {
                errors.push(at("max_port_speed_gbps is not the fastest listed speed"));
            }
        }
        if let Some(b) = &self.buffer {
            keys.push(("buffer", &b.source));
        }
        for (place, key) in keys {
            check_key(&self.sources, key, &at(place), errors);
        }
    }
}
