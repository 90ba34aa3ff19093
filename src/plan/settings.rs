//! A device's settings as flat `key = value` pairs: what `plan` compares between two versions
//! of a device. The keys are paths into the device's render context (the plain data every
//! target renders from), named by what an element is rather than where it sits:
//! `ports[Ethernet0].ecn[q3].min_bytes`, `qos.dscp_to_tc[26]`, `qos.classes[roce].priority`.
//! A key is the same for every target, so a change reads the same on SONiC and on Junos.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::render::{HostContext, SwitchContext, SwitchOs};

/// Sorted `key → value`; a value is compact JSON, a string without its quotes.
pub type Settings = BTreeMap<String, String>;

/// Fixed-size maps whose entries change one by one (one DSCP moves): one key per index.
const INDEXED: &[&str] = &[
    "dscp_to_tc",
    "dscp2prio",
    "pfc",
    "prio_tc",
    "tsa",
    "tcbw",
    "ecn_enable",
];

/// The fields that name an element of a list, in the order tried: ports and classes by name,
/// headroom by priority, ECN by queue, breakouts by cage, bonds by id, NICs by index.
const IDENTITY: &[(&str, &str)] = &[
    ("name", ""),
    ("class", ""),
    ("priority", "p"),
    ("queue", "q"),
    ("cage", "cage"),
    ("id", ""),
    ("index", "nic"),
];

pub fn switch(ctx: &SwitchContext) -> Settings {
    let mut out = Settings::new();
    if let Ok(mut v) = serde_json::to_value(ctx) {
        // SONiC's per-port rows follow `ports` in order: key them by the port's name, so that
        // a port joining the fabric does not renumber every row after it.
        if let Some(rows) = v.pointer_mut("/sonic/ports").and_then(Value::as_array_mut) {
            for (row, port) in rows.iter_mut().zip(&ctx.ports) {
                if let Some(o) = row.as_object_mut() {
                    o.insert("name".into(), Value::String(port.name.clone()));
                }
            }
        }
        walk(&v, String::new(), "", &mut out);
    }
    // What the switch computes itself and fabricc only reports is no setting: the pool sizes
    // SONiC's buffer manager will reach (`expected`), and the neutral buffer plan on targets
    // that write their pools another way (SONiC: `sonic.pools`) or not at all (Cumulus, EOS:
    // FAB905).
    let unwritten = matches!(ctx.os, SwitchOs::Sonic | SwitchOs::Cumulus | SwitchOs::Eos);
    out.retain(|k, _| !(k.ends_with(".expected") || unwritten && k.starts_with("buffer.")));
    out
}

pub fn host(ctx: &HostContext) -> Settings {
    flatten(ctx)
}

fn flatten(ctx: &impl Serialize) -> Settings {
    let mut out = Settings::new();
    // The contexts are plain data made of strings, numbers, lists and maps: they serialise.
    if let Ok(v) = serde_json::to_value(ctx) {
        walk(&v, String::new(), "", &mut out);
    }
    out
}

fn walk(v: &Value, key: String, field: &str, out: &mut Settings) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                // The device's own name and the fabric's are not settings.
                if key.is_empty() && matches!(k.as_str(), "device" | "host" | "fabric") {
                    continue;
                }
                let sub = if key.is_empty() {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                walk(v, sub, k, out);
            }
        }
        Value::Array(items) if INDEXED.contains(&field) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, format!("{key}[{i}]"), "", out);
            }
        }
        Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                walk(v, format!("{key}[{}]", identity(v, i)), "", out);
            }
        }
        Value::Null => {}
        Value::String(s) => {
            out.insert(key, s.clone());
        }
        other => {
            out.insert(key, other.to_string());
        }
    }
}

/// How an element of a list is named in its key: by its identifying field, else its position.
fn identity(v: &Value, i: usize) -> String {
    for (field, prefix) in IDENTITY {
        match v.get(field) {
            Some(Value::String(s)) => return format!("{prefix}{s}"),
            Some(Value::Number(n)) => return format!("{prefix}{n}"),
            _ => {}
        }
    }
    i.to_string()
}

/// One setting that differs between two versions of a device; `None` = absent on that side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Delta {
    pub key: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// The settings that differ, in key order.
pub fn delta(old: &Settings, new: &Settings) -> Vec<Delta> {
    let mut out: Vec<Delta> = old
        .iter()
        .filter(|(k, v)| new.get(*k) != Some(*v))
        .map(|(k, v)| Delta {
            key: k.clone(),
            old: Some(v.clone()),
            new: new.get(k).cloned(),
        })
        .collect();
    out.extend(
        new.iter()
            .filter(|(k, _)| !old.contains_key(*k))
            .map(|(k, v)| Delta {
                key: k.clone(),
                old: None,
                new: Some(v.clone()),
            }),
    );
    out.sort_by(|a, b| a.key.cmp(&b.key));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(pairs: &[(&str, &str)]) -> Settings {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn lists_are_keyed_by_what_their_elements_are() {
        let v = serde_json::json!({
            "device": "leaf1",
            "ports": [{"name": "Ethernet0", "mtu": 9100, "ecn": [{"queue": 3, "ecn": null}]}],
            "qos": {"dscp_to_tc": [0, 3], "lossless_priorities": [3, 4]}
        });
        let mut out = Settings::new();
        walk(&v, String::new(), "", &mut out);
        let keys: Vec<&str> = out.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "ports[Ethernet0].ecn[q3].queue",
                "ports[Ethernet0].mtu",
                "ports[Ethernet0].name",
                "qos.dscp_to_tc[0]",
                "qos.dscp_to_tc[1]",
                "qos.lossless_priorities"
            ]
        );
        assert_eq!(out["qos.lossless_priorities"], "[3,4]");
    }

    #[test]
    fn delta_names_changed_added_and_removed_keys_in_order() {
        let d = delta(
            &s(&[("a", "1"), ("b", "2"), ("d", "4")]),
            &s(&[("b", "3"), ("c", "x"), ("d", "4")]),
        );
        let got: Vec<(&str, Option<&str>, Option<&str>)> = d
            .iter()
            .map(|d| (d.key.as_str(), d.old.as_deref(), d.new.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("a", Some("1"), None),
                ("b", Some("2"), Some("3")),
                ("c", None, Some("x"))
            ]
        );
    }
}
