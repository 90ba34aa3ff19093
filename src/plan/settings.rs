//! A device's settings as flat `key = value` pairs: what `plan` compares between two versions
//! of a device. The keys are paths into the device's render context (the plain data every
//! target renders from), named by what an element is rather than where it sits:
//! `ports[Ethernet0].ecn[q3].min_bytes`, `qos.dscp_to_tc[26]`, `qos.classes[roce].priority`.
//! A key is the same for every target, so a change reads the same on SONiC and on Junos.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::lower::context::SonicPlan;
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

/// Two versions of a switch as trees, without the ports (and SONiC's per-port rows) that are
/// the same on both: the diff of a 128-port switch whose uplinks changed then serialises only
/// those ports. SONiC's per-port rows are named by their port (they follow `ports` in order,
/// so that a port joining the fabric does not renumber every row after it).
pub fn switch_values(a: Option<&SwitchContext>, b: Option<&SwitchContext>) -> (Value, Value) {
    let same = |ctx: &SwitchContext, other: Option<&SwitchContext>, i: usize| {
        let p = &ctx.ports[i];
        let Some(o) = other else { return false };
        let Some(j) = o.ports.iter().position(|q| q.name == p.name) else {
            return false;
        };
        fn row(c: &SwitchContext, k: usize) -> Option<&crate::lower::context::SonicPort> {
            c.sonic.as_ref().and_then(|s| s.ports.get(k))
        }
        o.ports[j] == *p && row(ctx, i) == row(o, j)
    };
    let value = |ctx: Option<&SwitchContext>, other: Option<&SwitchContext>| -> Value {
        let Some(ctx) = ctx else { return Value::Null };
        let keep: Vec<usize> = (0..ctx.ports.len())
            .filter(|&i| !same(ctx, other, i))
            .collect();
        let mut v = serde_json::to_value(shell(ctx)).unwrap_or(Value::Null);
        let ports: Vec<Value> = keep
            .iter()
            .map(|&i| serde_json::to_value(&ctx.ports[i]).unwrap_or(Value::Null))
            .collect();
        if let Some(o) = v.as_object_mut() {
            o.insert("ports".into(), Value::Array(ports));
        }
        if let Some(sonic) = &ctx.sonic
            && let Some(rows) = v.pointer_mut("/sonic").and_then(Value::as_object_mut)
        {
            let list = keep
                .iter()
                .filter_map(|&i| {
                    let mut row = serde_json::to_value(sonic.ports.get(i)?).ok()?;
                    if let Some(r) = row.as_object_mut() {
                        r.insert("name".into(), Value::String(ctx.ports[i].name.clone()));
                    }
                    Some(row)
                })
                .collect();
            rows.insert("ports".into(), Value::Array(list));
        }
        v
    };
    (value(a, b), value(b, a))
}

/// The switch without its ports: what every diff of it serialises whole.
fn shell(c: &SwitchContext) -> SwitchContext {
    SwitchContext {
        device: c.device.clone(),
        os: c.os,
        release: c.release,
        platform: c.platform.clone(),
        description: c.description.clone(),
        fabric: c.fabric.clone(),
        mtu: c.mtu,
        qos: c.qos.clone(),
        watchdog: c.watchdog,
        buffer: c.buffer,
        ports: Vec::new(),
        sonic: c.sonic.as_ref().map(|s| SonicPlan {
            platform: s.platform.clone(),
            hwsku: s.hwsku.clone(),
            asic: s.asic,
            buffer_model: s.buffer_model,
            sku_ports: s.sku_ports,
            cell_bytes: s.cell_bytes,
            traffic_pattern: s.traffic_pattern,
            default_dynamic_th: s.default_dynamic_th,
            pools: s.pools.clone(),
            profiles: s.profiles.clone(),
            ingress_profile_list: s.ingress_profile_list.clone(),
            egress_profile_list: s.egress_profile_list.clone(),
            lossy_pg_profile: s.lossy_pg_profile.clone(),
            lossless_queue_profile: s.lossless_queue_profile.clone(),
            lossy_queue_profile: s.lossy_queue_profile.clone(),
            cnp_queue_profile: s.cnp_queue_profile.clone(),
            pfc_to_pg_map: s.pfc_to_pg_map,
            watchdog_scale: s.watchdog_scale,
            breakouts: s.breakouts.clone(),
            // The SKU's layout of the cages in `breakouts`: a change shows there once.
            cage_ports: Default::default(),
            switch_hash: s.switch_hash.clone(),
            ports: Vec::new(),
        }),
        hash_fields: c.hash_fields.clone(),
        lb: c.lb.clone(),
        mlag: c.mlag.clone(),
    }
}

pub fn host_value(ctx: &HostContext) -> Value {
    serde_json::to_value(ctx).unwrap_or(Value::Null)
}

/// Every setting of a tree, flat (tests, and one side of a subtree the other lacks).
#[cfg(test)]
fn flatten(v: &Value) -> Settings {
    let mut out = Settings::new();
    walk(v, String::new(), "", &mut out);
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
    /// The port it belongs to exists on one side only (it joins or leaves the fabric).
    #[serde(skip)]
    pub whole: bool,
}

/// The settings that differ between two trees, in key order. Equal subtrees are skipped
/// without naming their keys, so a 128-port switch whose ECN changed costs its ECN keys.
/// `os`: what the switch computes itself and fabricc only reports is no setting — the pool
/// sizes SONiC's buffer manager will reach (`expected`), and the neutral buffer plan on targets
/// that write their pools another way (SONiC: `sonic.pools`) or not at all (Cumulus, EOS:
/// FAB905), and the pause point everywhere but NX-OS (which states it in its pause buffers).
pub fn diff(os: Option<SwitchOs>, a: &Value, b: &Value) -> Vec<Delta> {
    let mut out = Vec::new();
    diff_at(Some(a), Some(b), String::new(), "", false, &mut out);
    let unwritten = matches!(
        os,
        Some(SwitchOs::Sonic | SwitchOs::Cumulus | SwitchOs::Eos)
    );
    // The pause point is written only by NX-OS (its pause buffers' `pause-threshold`).
    let pause_unwritten = os != Some(SwitchOs::Nxos);
    out.retain(|d| {
        !(d.key.ends_with(".expected")
            || unwritten && d.key.starts_with("buffer.")
            || pause_unwritten && d.key == "buffer.pause_point_bytes")
    });
    out.sort_by(|x, y| x.key.cmp(&y.key));
    out
}

fn keyed(items: &[Value]) -> bool {
    items.iter().all(Value::is_object)
}

fn diff_at(
    a: Option<&Value>,
    b: Option<&Value>,
    key: String,
    field: &str,
    whole: bool,
    out: &mut Vec<Delta>,
) {
    if a == b {
        return;
    }
    let sub = |k: &str| {
        if key.is_empty() {
            k.to_string()
        } else {
            format!("{key}.{k}")
        }
    };
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let root = key.is_empty() && matches!(k.as_str(), "device" | "host" | "fabric");
                if root || x.get(k) == y.get(k) {
                    continue;
                }
                diff_at(x.get(k), y.get(k), sub(k), k, whole, out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if INDEXED.contains(&field) => {
            for i in (0..x.len().max(y.len())).filter(|&i| x.get(i) != y.get(i)) {
                diff_at(x.get(i), y.get(i), format!("{key}[{i}]"), "", whole, out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y)))
            if keyed(x) && keyed(y) && !(x.is_empty() && y.is_empty()) =>
        {
            fn by(items: &[Value]) -> BTreeMap<String, &Value> {
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (identity(v, i), v))
                    .collect()
            }
            let (mx, my) = (by(x), by(y));
            let ids: std::collections::BTreeSet<&String> = mx.keys().chain(my.keys()).collect();
            for id in ids {
                let (ea, eb) = (mx.get(id).copied(), my.get(id).copied());
                if ea == eb {
                    continue;
                }
                let port = matches!(key.as_str(), "ports" | "sonic.ports");
                let one_sided = port && (ea.is_none() || eb.is_none());
                diff_at(ea, eb, format!("{key}[{id}]"), "", whole || one_sided, out);
            }
        }
        _ => {
            let (mut fa, mut fb) = (Settings::new(), Settings::new());
            if let Some(a) = a {
                walk(a, key.clone(), field, &mut fa);
            }
            if let Some(b) = b {
                walk(b, key.clone(), field, &mut fb);
            }
            for (k, v) in &fa {
                if fb.get(k) != Some(v) {
                    out.push(Delta {
                        key: k.clone(),
                        old: Some(v.clone()),
                        new: fb.get(k).cloned(),
                        whole,
                    });
                }
            }
            for (k, v) in fb.iter().filter(|(k, _)| !fa.contains_key(*k)) {
                out.push(Delta {
                    key: k.clone(),
                    old: None,
                    new: Some(v.clone()),
                    whole,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_keyed_by_what_their_elements_are() {
        let v = serde_json::json!({
            "device": "leaf1",
            "ports": [{"name": "Ethernet0", "mtu": 9100, "ecn": [{"queue": 3, "ecn": null}]}],
            "qos": {"dscp_to_tc": [0, 3], "lossless_priorities": [3, 4]}
        });
        let out = flatten(&v);
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
    fn diff_names_changed_added_and_removed_keys_and_skips_equal_subtrees() {
        let a = serde_json::json!({"device": "x", "ports": [{"name": "p1", "mtu": 1}, {"name": "p2", "mtu": 1}], "qos": {"pfc": [0, 1]}});
        let b = serde_json::json!({"device": "y", "ports": [{"name": "p1", "mtu": 2}, {"name": "p3", "mtu": 1}], "qos": {"pfc": [0, 1]}});
        let d = diff(None, &a, &b);
        let got: Vec<(&str, Option<&str>, Option<&str>, bool)> = d
            .iter()
            .map(|d| (d.key.as_str(), d.old.as_deref(), d.new.as_deref(), d.whole))
            .collect();
        assert_eq!(
            got,
            [
                ("ports[p1].mtu", Some("1"), Some("2"), false),
                ("ports[p2].mtu", Some("1"), None, true),
                ("ports[p2].name", Some("p2"), None, true),
                ("ports[p3].mtu", None, Some("1"), true),
                ("ports[p3].name", None, Some("p3"), true),
            ]
        );
    }
}
