//! The SONiC apply program (issue 36 item 2): one `programs/sonic/apply.sh` and `README.md` per
//! output, whatever the number of SONiC switches; each switch's folder holds only its data
//! (`config_db.fragment.json`, `fabricc-device.json`). The program changes only when fabricc
//! does, so a reviewer of a fabric change reads data, not 440 lines of script per switch.
//!
//! Why `programs/sonic/`: next to `switches/` and `hosts/`, one folder per target program, so
//! the operator copies `programs/sonic` and the switch's folder to the switch and runs
//! `sonic/apply.sh --dry-run <switch folder>`; other targets' programs would take
//! `programs/<target>/`.
//!
//! What fabricc owns of a SONiC CONFIG_DB (the rule `apply.sh` implements in its helper's
//! `intended()`, and tests/it/converge_sonic.rs models in Rust) is in the constants below; the
//! program is rendered from them, so the rule has one source.

use std::collections::BTreeMap;

use serde::Serialize;

use super::sonic::{MAP_NAME, owned_tables};

pub use super::sonic_device::DEVICE_FORMAT;

/// Owned tables keyed by port (`Ethernet0`) or port and index (`Ethernet0|3`): fabricc owns the
/// keys of the fabric's ports and leaves every other port's.
pub const PORT_KEYED_TABLES: [&str; 7] = [
    "BUFFER_PG",
    "BUFFER_PORT_EGRESS_PROFILE_LIST",
    "BUFFER_PORT_INGRESS_PROFILE_LIST",
    "BUFFER_QUEUE",
    "PFC_WD",
    "PORT_QOS_MAP",
    "QUEUE",
];

/// The owned table keyed by name whose fields are ports (`CABLE_LENGTH|AZURE`).
pub const PORT_FIELD_TABLE: &str = "CABLE_LENGTH";

/// The switch-wide keys of per-port tables that fabricc owns (replaced by the fragment's, or
/// removed when the fragment has none).
pub const SWITCH_KEYS: [(&str, &str); 2] = [("PFC_WD", "GLOBAL"), ("PORT_QOS_MAP", "global")];

/// Names of the objects fabricc creates: one the fragment no longer writes is removed when no
/// key refers to it any more. `pg_lossless_*_profile` is buffermgrd's own naming (traditional
/// model: fabricc writes its headroom under that name so buffermgrd takes it).
pub const OWNED_NAMES: [&str; 3] = ["FABRICC*", "q_cnp_profile", "pg_lossless_*_profile"];

/// PORT fields fabricc owns on a fabric port, besides `lanes` (checked, never changed).
/// `admin_status` is not one (S20).
pub const PORT_FIELDS: [&str; 4] = ["description", "fec", "mtu", "speed"];

/// Tables whose fragment fields are merged into the switch's entries.
pub const MERGED_TABLES: [&str; 4] = ["BREAKOUT_CFG", "DEVICE_METADATA", "PORT", "SWITCH_HASH"];

/// The owned tables keyed by object name: maps, schedulers, WRED and buffer profiles, pools
/// and the dynamic model's parameters.
pub fn named_tables() -> Vec<&'static str> {
    owned_tables()
        .into_iter()
        .filter(|t| !PORT_KEYED_TABLES.contains(t) && *t != PORT_FIELD_TABLE)
        .collect()
}

/// GCU's ASIC families for the SKUs fabricc's catalogue runs SONiC on
/// (sonic-net/sonic-utilities@691b1bbc4fd2:
/// generic_config_updater/gcu_field_operation_validators.conf.json, `helper_data`); GCU
/// refuses every PFC_WD and buffer-profile field change on a SKU it does not list.
const GCU_FAMILIES: [(&str, &[&str]); 4] = [
    (
        "spc3",
        &[
            "ACS-MSN4700",
            "ACS-MSN4600",
            "ACS-MSN4600C",
            "ACS-MSN4410",
            "ACS-SN4280",
            "Mellanox-SN4700-O8C48",
            "Mellanox-SN4700-O32",
            "Mellanox-SN4700-V64",
            "Mellanox-SN4700-C128",
            "Mellanox-SN4700-O28",
        ],
    ),
    (
        "spc4",
        &[
            "ACS-SN5600",
            "Mellanox-SN5600-O128",
            "Mellanox-SN5600-V256",
            "Mellanox-SN5600-C256S1",
            "ACS-SN5400",
            "Mellanox-SN5600-C224O8",
        ],
    ),
    (
        "spc5",
        &[
            "ACS-SN5640",
            "Mellanox-SN5640-C512S2",
            "Mellanox-SN5640-O128X2",
        ],
    ),
    (
        "th5",
        &[
            "Arista-7060X6-64DE",
            "Arista-7060X6-64PE",
            "Arista-7060X6-64PE-C224O8",
            "Arista-7060X6-64PE-C256S2",
            "Arista-7060X6-64PE-O128",
            "Arista-7060X6-64PE-O128S2",
            "Arista-7060X6-64PE-P32O64",
            "Arista-7060X6-64PE-P64",
        ],
    ),
];

/// Buffer-profile fields GCU changes live (conf.json `tables.BUFFER_PROFILE`): the operations
/// and, per family, the first SONiC branch that does (empty: never).
/// A field, its operations, and per family the first branch (empty: never).
type GcuProfileField = (
    &'static str,
    &'static [&'static str],
    [(&'static str, &'static str); 4],
);

const GCU_PROFILE_FIELDS: [GcuProfileField; 3] = [
    (
        "dynamic_th",
        &["replace"],
        [
            ("spc3", "20220500"),
            ("spc4", "20221100"),
            ("spc5", "20241200"),
            ("th5", "20240500"),
        ],
    ),
    (
        "xoff",
        &["replace"],
        [
            ("spc3", "20220500"),
            ("spc4", "20221100"),
            ("spc5", "20241200"),
            ("th5", "20240500"),
        ],
    ),
    (
        "packet_discard_action",
        &["add", "replace"],
        [
            ("spc3", ""),
            ("spc4", "20241200"),
            ("spc5", "20241200"),
            ("th5", "20241200"),
        ],
    ),
];

/// PFC_WD fields GCU changes (conf.json `tables.PFC_WD`, after the port names are dropped from
/// the path; `""` = a whole port entry by path).
const GCU_PFCWD_FIELDS: [&str; 6] = [
    "restoration_time",
    "detection_time",
    "action",
    "global/poll_interval",
    "pfc_stat_history",
    "",
];

#[derive(Debug, Serialize)]
pub struct GcuField {
    pub operations: Vec<&'static str>,
    pub families: BTreeMap<&'static str, &'static str>,
}

/// The view of `programs/sonic/apply.sh` and its `README.md`.
#[derive(Debug, Serialize)]
pub struct ProgramView {
    pub device_format: u32,
    pub owned_tables: Vec<&'static str>,
    pub port_keyed: Vec<&'static str>,
    pub named: Vec<&'static str>,
    pub switch_keys: BTreeMap<&'static str, Vec<&'static str>>,
    pub owned_names: Vec<&'static str>,
    pub port_fields: Vec<&'static str>,
    pub merged: Vec<&'static str>,
    /// `sonic::PORT_LIST_TABLES`: the program splits their keys' port lists.
    pub port_lists: Vec<&'static str>,
    pub gcu_families: BTreeMap<&'static str, Vec<&'static str>>,
    pub gcu_profile_fields: BTreeMap<&'static str, GcuField>,
    pub gcu_pfcwd_fields: Vec<&'static str>,
    pub map_name: &'static str,
}

pub fn program_view() -> ProgramView {
    let mut switch_keys: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for (t, k) in SWITCH_KEYS {
        switch_keys.entry(t).or_default().push(k);
    }
    ProgramView {
        device_format: DEVICE_FORMAT,
        owned_tables: owned_tables(),
        port_keyed: PORT_KEYED_TABLES.to_vec(),
        named: named_tables(),
        switch_keys,
        owned_names: OWNED_NAMES.to_vec(),
        port_fields: PORT_FIELDS.to_vec(),
        merged: MERGED_TABLES.to_vec(),
        port_lists: super::sonic::PORT_LIST_TABLES.to_vec(),
        gcu_families: GCU_FAMILIES
            .iter()
            .map(|(f, skus)| (*f, skus.to_vec()))
            .collect(),
        gcu_profile_fields: GCU_PROFILE_FIELDS
            .iter()
            .map(|(field, ops, families)| {
                (
                    *field,
                    GcuField {
                        operations: ops.to_vec(),
                        families: families.iter().copied().collect(),
                    },
                )
            })
            .collect(),
        gcu_pfcwd_fields: GCU_PFCWD_FIELDS.to_vec(),
        map_name: MAP_NAME,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_owned_table_is_port_keyed_named_or_cable_length() {
        let mut all: Vec<&str> = PORT_KEYED_TABLES.to_vec();
        all.extend(named_tables());
        all.push(PORT_FIELD_TABLE);
        all.sort_unstable();
        assert_eq!(all, owned_tables());
        for m in MERGED_TABLES {
            assert!(!owned_tables().contains(&m), "{m}");
        }
    }
}
