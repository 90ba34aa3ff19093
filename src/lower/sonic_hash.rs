//! SONiC's global ECMP/LAG hash: `SWITCH_HASH|GLOBAL` `ecmp_hash` and `lag_hash`, the
//! fields of `load-balance { hash … }`.
//!
//! Evidence (the table, its fields and values; read at these commits):
//! * sonic-net/sonic-buildimage@086b03bd70f9:src/sonic-yang-models/yang-models/sonic-hash.yang:
//!   container `SWITCH_HASH`, entry `GLOBAL`, leaf-lists `ecmp_hash` and `lag_hash` of the
//!   `hash-field` enumeration (`IN_PORT` … `IPV6_FLOW_LABEL`), leaves `ecmp_hash_algorithm`
//!   and `lag_hash_algorithm`. A leaf-list is a JSON list in `config_db.json`.
//! * sonic-net/sonic-swss@e6b0c5b5d2ab:orchagent/switch/switch_helper.cpp:22-43,
//!   `swHashHashFieldMap`: the same 19 names, each a `SAI_NATIVE_HASH_FIELD_*`. There is no
//!   field for the RoCEv2 BTH destination QP (nor a UDF one): `roce-qp` cannot be written.
//!   `parseSwHashFieldList` (:69-104) rejects the **whole** list on an unknown name, a
//!   duplicate or an empty list, and stores the names in a `std::set` (switch_container.h:19),
//!   so the order is not significant: `switchorch.cpp:862` compares the sets.
//! * switchorch.cpp:853-1012 `setSwitchHash`: a field list the switch's capability does not
//!   hold is refused ("capability is not supported"); a switch without the attribute skips it
//!   with a warning; removing `ecmp_hash`/`lag_hash` once set is refused ("operation is not
//!   supported"), which is why `apply.sh` merges these fields and never deletes them.
//! * orchagent/switch/switch_capabilities.cpp:30-33,253-277: STATE_DB
//!   `SWITCH_CAPABILITY|switch` `HASH|NATIVE_HASH_FIELD_LIST` (the fields, or `N/A` when the
//!   SAI cannot list them) and `ECMP_HASH_CAPABLE`/`LAG_HASH_CAPABLE` (`true`/`false`): the
//!   preflight of `apply.sh`, as sonic-net/sonic-utilities@691b1bbc4fd2:
//!   config/plugins/sonic-hash.py:74-111 (`ecmp_hash_validator`) checks them.
//!
//! `mode`, `flowlet-gap` and `seed` have no field in sonic-hash.yang (switchorch takes
//! `ecmp_hash_seed` in `SWITCH|switch`, which no YANG model of that commit declares, so
//! `config reload`'s YANG check would refuse it); they stay FAB930.

#[cfg(any(test, feature = "internals"))]
use serde_json::Value;

use crate::model::{HashField, LoadBalance};

// YANG_HASH_FIELDS, YANG_FIELDS, YANG_ALGORITHMS and `validate` are test support (the tests below
// and tests/it/validate.rs, which holds every generated `config_db.json` to the YANG), not the
// product's.
/// The `hash-field` values of sonic-hash.yang, `swHashHashFieldMap`'s keys.
#[cfg(any(test, feature = "internals"))]
pub const YANG_HASH_FIELDS: [&str; 19] = [
    "IN_PORT",
    "DST_MAC",
    "SRC_MAC",
    "ETHERTYPE",
    "VLAN_ID",
    "IP_PROTOCOL",
    "DST_IP",
    "SRC_IP",
    "L4_DST_PORT",
    "L4_SRC_PORT",
    "INNER_DST_MAC",
    "INNER_SRC_MAC",
    "INNER_ETHERTYPE",
    "INNER_IP_PROTOCOL",
    "INNER_DST_IP",
    "INNER_SRC_IP",
    "INNER_L4_DST_PORT",
    "INNER_L4_SRC_PORT",
    "IPV6_FLOW_LABEL",
];

/// The list fields fabricc writes into `SWITCH_HASH|GLOBAL` (one policy for ECMP and LAG).
pub const LIST_FIELDS: [&str; 2] = ["ecmp_hash", "lag_hash"];

/// sonic-hash.yang's fields of `SWITCH_HASH|GLOBAL` (tests/it/validate.rs only).
#[cfg(feature = "internals")]
pub const YANG_FIELDS: [&str; 4] = [
    "ecmp_hash",
    "lag_hash",
    "ecmp_hash_algorithm",
    "lag_hash_algorithm",
];

/// `stypes:hash-algorithm`, `swHashAlgorithmMap` (switch_helper.cpp:45-54).
#[cfg(any(test, feature = "internals"))]
const YANG_ALGORITHMS: [&str; 7] = [
    "CRC",
    "XOR",
    "RANDOM",
    "CRC_32LO",
    "CRC_32HI",
    "CRC_CCITT",
    "CRC_XOR",
];

/// The SONiC name of a `hash` field; `None` for one orchagent has no name for.
pub fn sonic_field(f: HashField) -> Option<&'static str> {
    match f {
        HashField::SrcIp => Some("SRC_IP"),
        HashField::DstIp => Some("DST_IP"),
        HashField::SrcPort => Some("L4_SRC_PORT"),
        HashField::DstPort => Some("L4_DST_PORT"),
        HashField::Protocol => Some("IP_PROTOCOL"),
        HashField::RoceQp => None,
    }
}

/// The fields of a `hash` list SONiC cannot take, in the order written.
pub fn unsupported(fields: &[HashField]) -> Vec<HashField> {
    fields
        .iter()
        .copied()
        .filter(|f| sonic_field(*f).is_none())
        .collect()
}

/// `ecmp_hash`/`lag_hash` for the fabric's `hash`, in the order written: `None` when the
/// fabric states no hash, or when one field has no SONiC name (orchagent would reject the
/// whole list, so the switch keeps its default hash; FAB931 says so).
pub fn switch_hash_fields(lb: Option<&LoadBalance>) -> Option<Vec<&'static str>> {
    let hash = lb?.hash.as_ref()?;
    hash.value.iter().map(|f| sonic_field(*f)).collect()
}

/// Y-20: `SWITCH_HASH` as sonic-hash.yang and orchagent take it: only the `GLOBAL` entry;
/// `ecmp_hash`/`lag_hash` non-empty lists of `hash-field` names without repeats (orchagent
/// rejects the whole list otherwise); algorithms from `hash-algorithm`.
#[cfg(any(test, feature = "internals"))]
pub fn validate(table: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut errs = Vec::new();
    for (key, fields) in table {
        if key != "GLOBAL" {
            errs.push(format!("Y-20 SWITCH_HASH|{key}: the only entry is GLOBAL"));
        }
        let Some(fields) = fields.as_object() else {
            continue;
        };
        for (f, v) in fields {
            if LIST_FIELDS.contains(&f.as_str()) {
                errs.extend(list_errors(key, f, v));
            } else if f.ends_with("_algorithm")
                && !v.as_str().is_some_and(|a| YANG_ALGORITHMS.contains(&a))
            {
                errs.push(format!("Y-20 SWITCH_HASH|{key}.{f}: not a hash-algorithm"));
            }
        }
    }
    errs
}

#[cfg(any(test, feature = "internals"))]
fn list_errors(key: &str, f: &str, v: &Value) -> Vec<String> {
    let Some(items) = v.as_array() else {
        return vec![format!(
            "Y-20 SWITCH_HASH|{key}.{f}: not a list (a leaf-list is a JSON list)"
        )];
    };
    let mut errs = Vec::new();
    if items.is_empty() {
        errs.push(format!(
            "Y-20 SWITCH_HASH|{key}.{f}: empty (orchagent refuses it)"
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for item in items {
        match item.as_str() {
            Some(s) if YANG_HASH_FIELDS.contains(&s) => {
                if !seen.insert(s) {
                    errs.push(format!(
                        "Y-20 SWITCH_HASH|{key}.{f}: `{s}` twice (orchagent refuses the list)"
                    ));
                }
            }
            _ => errs.push(format!(
                "Y-20 SWITCH_HASH|{key}.{f}: `{item}` is not a hash-field"
            )),
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sonic_name_is_a_yang_hash_field() {
        for f in HashField::ALL {
            if let Some(name) = sonic_field(f) {
                assert!(YANG_HASH_FIELDS.contains(&name), "{name}");
            }
        }
        assert_eq!(unsupported(&HashField::ALL), vec![HashField::RoceQp]);
    }

    #[test]
    fn y20_catches_bad_switch_hash() {
        let doc = serde_json::json!({
            "GLOBAL": {
                "ecmp_hash": ["SRC_IP", "SRC_IP", "BTH_DST_QP"],
                "lag_hash": "SRC_IP,DST_IP",
                "ecmp_hash_algorithm": "MD5"
            },
            "other": { "lag_hash": [] }
        });
        let errs = validate(doc.as_object().expect("an object")).join("\n");
        for want in [
            "`SRC_IP` twice",
            "`\"BTH_DST_QP\"` is not a hash-field",
            "lag_hash: not a list",
            "ecmp_hash_algorithm: not a hash-algorithm",
            "SWITCH_HASH|other: the only entry is GLOBAL",
            "SWITCH_HASH|other.lag_hash: empty",
        ] {
            assert!(errs.contains(want), "{want} missing from\n{errs}");
        }
        let good = serde_json::json!({
            "GLOBAL": { "ecmp_hash": ["SRC_IP", "DST_IP"], "lag_hash": ["DST_IP"] }
        });
        assert!(validate(good.as_object().expect("an object")).is_empty());
    }
}
