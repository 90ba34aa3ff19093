//! SONiC: a CONFIG_DB dump (`sonic-cfggen -d --print-data`, `/etc/sonic/config_db.json`) and
//! fabricc's fragment as `[table, key, field, value]` paths, and what fabricc owns of them.
//!
//! Normalisations (the same on both sides):
//! * Values: a JSON string as it is, a number as written, `true`/`false`, and a list joined
//!   with `,`. CONFIG_DB keeps every value as a string and a list as one field named `f@`
//!   with comma-separated items; sonic-cfggen prints such a field as a JSON list under `f`
//!   (sonic-net/sonic-py-swsscommon's `ConfigDBConnector.raw_to_typed`), and a saved
//!   `config_db.json` has the list too. So `f@` is read as `f` and a list as its items joined.
//! * Keys: a key whose port part lists several ports (`Ethernet0,Ethernet4|3-4`) is one key
//!   per port. orchagent splits that part on `,` for `BUFFER_PG`/`BUFFER_QUEUE`
//!   (sonic-net/sonic-swss@e6b0c5b5d2ab:orchagent/bufferorch.cpp:1327), `QUEUE` (qosorch.cpp:1806)
//!   and `PORT_QOS_MAP` (qosorch.cpp:2058), with `list_item_delimiter = ','` (orch.h:34).
//! * `SWITCH_HASH` `ecmp_hash`/`lag_hash`: items sorted. orchagent holds the list as a set and
//!   compares sets (sonic-net/sonic-swss@e6b0c5b5d2ab:orchagent/switch/switch_container.h:19,
//!   switchorch.cpp:862), so `[DST_IP, SRC_IP]` is the hash `[SRC_IP, DST_IP]` is.
//! * Not normalised: a reference in the old `[BUFFER_PROFILE|name]` form differs from `name`,
//!   because current orchagent refuses it ("Must not be surrounded by [ ]",
//!   sonic-net/sonic-swss@e6b0c5b5d2ab:orchagent/orch.cpp:734); ranges in keys (`Ethernet0|3-4`
//!   and `Ethernet0|3`) are separate objects to orchagent, so a leftover range is a key of its
//!   own.
//!
//! Owned scope: the tables the fragment writes. In them, every key the fragment writes,
//! field by field; another key when its port part names a port the fragment configures (a
//! leftover `BUFFER_PG|Ethernet0|3-4`, a `QUEUE|Ethernet0|4` with a WRED profile); and the
//! fields of a generated key that the fragment does not write, except in the records fabricc
//! shares with the platform (`PORT`: lanes, alias, index; `DEVICE_METADATA`: MAC, platform;
//! `CABLE_LENGTH|AZURE`: every other port). Named objects fabricc did not write (another
//! `WRED_PROFILE`, `SCHEDULER`, `DSCP_TO_TC_MAP`) are not compared: they act only through a
//! reference, and a reference in a key fabricc owns is compared where it is made.

use std::borrow::Cow;
use std::collections::HashSet;

use super::canon::{Builder, Canon, Loc, segments};
use super::json::{Node, Value};

/// Tables whose records hold fields that the platform owns next to fabricc's
/// (`SWITCH_HASH|GLOBAL`: the hash algorithms are the operator's).
const SHARED_RECORDS: &[&str] = &["PORT", "DEVICE_METADATA", "CABLE_LENGTH", "SWITCH_HASH"];

/// Every field of every `TABLE → key → fields` object of a CONFIG_DB document.
pub fn canon(root: &Node) -> Canon {
    let mut c = Builder::bounded(root.end.max(root.start));
    for (table, records) in root.members() {
        for (key, fields) in records.members() {
            let keys = split_ports(&key.name);
            let keys: Vec<&str> = keys.iter().map(|k| k.as_ref()).collect();
            for (field, value) in fields.members() {
                let Some(text) = text(value) else { continue };
                let name = field.name.strip_suffix('@').unwrap_or(&field.name);
                let text = if table.name == "SWITCH_HASH"
                    && crate::render::sonic_hash::LIST_FIELDS.contains(&name)
                {
                    Cow::Owned(as_set(&text))
                } else {
                    text
                };
                let at = Loc::new(field.start, value.end);
                for k in &keys {
                    c.insert(&[table.name.as_ref(), k, name, &text], at);
                }
            }
        }
    }
    c.build()
}

/// A field's value as CONFIG_DB text; `None` for an object (not a CONFIG_DB field). Borrowed
/// from the text but for a list (a dump has hundreds of thousands of fields).
fn text<'a>(node: &'a Node<'_>) -> Option<Cow<'a, str>> {
    match &node.value {
        Value::Null => Some(Cow::Borrowed("")),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        Value::String(s) | Value::Number(s) => Some(Cow::Borrowed(s.as_ref())),
        Value::Array(items) => Some(Cow::Owned(
            items
                .iter()
                .filter_map(Node::scalar)
                .collect::<Vec<_>>()
                .join(","),
        )),
        Value::Object(_) => None,
    }
}

/// A comma-separated list with its items sorted: a set's canonical text.
fn as_set(list: &str) -> String {
    let mut items: Vec<&str> = list.split(',').collect();
    items.sort_unstable();
    items.join(",")
}

/// `Ethernet0,Ethernet4|3-4` → `Ethernet0|3-4`, `Ethernet4|3-4`; other keys unchanged.
fn split_ports(key: &str) -> Vec<Cow<'_, str>> {
    match key.split_once('|') {
        Some((ports, rest)) if ports.contains(',') => ports
            .split(',')
            .filter(|p| !p.is_empty())
            .map(|p| Cow::Owned(format!("{p}|{rest}")))
            .collect(),
        None if key.contains(',') => key
            .split(',')
            .filter(|p| !p.is_empty())
            .map(Cow::Borrowed)
            .collect(),
        _ => vec![Cow::Borrowed(key)],
    }
}

/// What of a device's CONFIG_DB fabricc owns, from what it generated.
pub struct Scope {
    tables: HashSet<String>,
    /// `TABLE`, `key` joined by the separator.
    keys: HashSet<String>,
    ports: HashSet<String>,
}

impl Scope {
    pub fn new(expected: &Canon) -> Self {
        let mut tables = HashSet::new();
        let mut keys = HashSet::new();
        let mut ports = HashSet::new();
        let mut first_parts = HashSet::new();
        for p in expected.paths() {
            let mut it = segments(p);
            let (Some(table), Some(key)) = (it.next(), it.next()) else {
                continue;
            };
            tables.insert(table.to_string());
            keys.insert(super::canon::key_of(&[table, key]));
            if table == "PORT" {
                ports.insert(key.to_string());
            }
            if let Some((first, _)) = key.split_once('|') {
                first_parts.insert(first.to_string());
            }
        }
        if ports.is_empty() {
            ports = first_parts;
        }
        Scope {
            tables,
            keys,
            ports,
        }
    }

    pub fn owns(&self, p: &[&str]) -> bool {
        let [table, key, ..] = p else {
            return false;
        };
        if !self.tables.contains(*table) {
            return false;
        }
        if self.keys.contains(&super::canon::key_of(&[table, key])) {
            return !SHARED_RECORDS.contains(table);
        }
        let port = key.split_once('|').map_or(*key, |(p, _)| p);
        self.ports.contains(port)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::json;

    fn paths(text: &str) -> Vec<Vec<String>> {
        canon(&json::parse(text).unwrap()).path_vecs()
    }

    #[test]
    fn lists_numbers_and_port_lists() {
        let p = paths(
            r#"{"BUFFER_PG": {"Ethernet0,Ethernet4|3-4": {"profile": "x"}},
                "PORT": {"Ethernet0": {"mtu": 9216, "lanes@": ["0", "1"], "admin_status": "up"}}}"#,
        );
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(p.contains(&s(&["BUFFER_PG", "Ethernet0|3-4", "profile", "x"])));
        assert!(p.contains(&s(&["BUFFER_PG", "Ethernet4|3-4", "profile", "x"])));
        assert!(p.contains(&s(&["PORT", "Ethernet0", "mtu", "9216"])));
        assert!(p.contains(&s(&["PORT", "Ethernet0", "lanes", "0,1"])));
    }

    #[test]
    fn switch_hash_lists_are_sets() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let want = s(&[
            "SWITCH_HASH",
            "GLOBAL",
            "ecmp_hash",
            "DST_IP,L4_SRC_PORT,SRC_IP",
        ]);
        // The fragment's list, a dump's list in another order, and the raw `f@` form.
        for text in [
            r#"{"SWITCH_HASH": {"GLOBAL": {"ecmp_hash": ["SRC_IP", "DST_IP", "L4_SRC_PORT"]}}}"#,
            r#"{"SWITCH_HASH": {"GLOBAL": {"ecmp_hash": ["L4_SRC_PORT", "DST_IP", "SRC_IP"]}}}"#,
            r#"{"SWITCH_HASH": {"GLOBAL": {"ecmp_hash@": "DST_IP,SRC_IP,L4_SRC_PORT"}}}"#,
        ] {
            assert!(paths(text).contains(&want), "{text}");
        }
        // The hash algorithm is the operator's, not a difference.
        let e = canon(
            &json::parse(r#"{"SWITCH_HASH": {"GLOBAL": {"ecmp_hash": ["SRC_IP"]}}}"#).unwrap(),
        );
        let scope = Scope::new(&e);
        assert!(!scope.owns(&["SWITCH_HASH", "GLOBAL", "ecmp_hash_algorithm", "CRC"]));
    }

    #[test]
    fn scope_follows_the_fragment() {
        let e = canon(
            &json::parse(
                r#"{"PORT": {"Ethernet0": {"mtu": "9216"}},
                    "BUFFER_PG": {"Ethernet0|3": {"profile": "p"}},
                    "WRED_PROFILE": {"ECN": {"ecn": "ecn_all"}}}"#,
            )
            .unwrap(),
        );
        let scope = Scope::new(&e);
        let s = |v: &[&'static str]| v.to_vec();
        assert!(scope.owns(&s(&["BUFFER_PG", "Ethernet0|3-4", "profile", "q"])));
        assert!(!scope.owns(&s(&["BUFFER_PG", "Ethernet8|3-4", "profile", "q"])));
        assert!(!scope.owns(&s(&["PORT", "Ethernet0", "alias", "etp1"])));
        assert!(scope.owns(&s(&["WRED_PROFILE", "ECN", "green_min_threshold", "1"])));
        assert!(!scope.owns(&s(&["WRED_PROFILE", "AZURE_LOSSLESS", "ecn", "ecn_all"])));
        assert!(!scope.owns(&s(&["BGP_NEIGHBOR", "10.0.0.1", "asn", "65000"])));
    }
}
