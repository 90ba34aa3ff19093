//! The convergence contract for SONiC (issue 33 item 1, item 2 S16-S22): applying build N+1
//! by the documented procedure (`programs/sonic/apply.sh --yes`) to a switch that runs build N
//! leaves exactly what a fresh apply of N+1 to SONiC's defaults leaves, and nothing that is not
//! fabricc's is touched.
//!
//! The APPLY SIMULATOR below is a model of what the program does and of what SONiC does with
//! it, for the statements fabricc writes:
//! * the program's rule (`intended`, `plan`, `patch`: the same rule as the Python helper of
//!   `programs/sonic/apply.sh`, whose constants come from `src/render/sonic_program.rs`; the
//!   test `the_program_on_the_fakes_matches_the_model` runs the real program on sampled pairs
//!   and compares);
//! * GCU `config apply-patch` (sonic-net/sonic-utilities@691b1bbc4fd2,
//!   generic_config_updater/generic_updater.py:106-160): the target is the patch applied to the
//!   running config; each operation of `jsonpatch.JsonPatch.from_diff(old, target)`
//!   (gu_common.py:189) must pass the field-operation validation (gu_common.py:192-203: never
//!   remove PFC_WD|GLOBAL; field_operation_validators.py and
//!   gcu_field_operation_validators.conf.json: BUFFER_POOL never, BUFFER_PROFILE whole objects
//!   or dynamic_th/xoff replaced, PFC_WD timer/action fields on a known ASIC family; an equal
//!   remove + add is a `move`, which those validators refuse); no table may end empty
//!   (generic_updater.py:124-131); the target must pass YANG, of which the leafrefs are modelled
//!   (every map, scheduler, WRED profile, buffer profile and pool a key names exists;
//!   sonic-qos-*.yang, sonic-buffer-*.yang);
//! * `config reload -y FILE` (config/main.py reload): CONFIG_DB becomes the file; in the
//!   dynamic buffer model (the SN5600 of every generated fabric) the daemons write nothing to
//!   CONFIG_DB (buffermgrd computes the "NULL" PG profiles into APPL_DB only).
//!
//! State = CONFIG_DB + `/etc/sonic/fabricc-baseline.json` (written by the first apply).
//! fresh = apply(defaults, N+1); converged = apply(apply(defaults, N), N+1); the defaults are
//! SONiC's own for the SKU (`tests/data/sonic-defaults/`) seeded with configuration that is
//! not fabricc's (another port's QoS with a foreign map and scheduler, a description on a
//! non-fabric port, a foreign WRED profile, a BGP neighbour).
//!
//! `FABRICC_CONVERGE_PAIRS=N` sets the number of pairs (default 1,000).
//! `FABRICC_SONIC_OLD_PROCEDURE=1` models the procedure before issue 33 (`config qos clear`,
//! PFC_WD deleted, `config load` of the fragment, `config reload`) instead: the property fails.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::{Value, json};

use crate::change_pairs::{Built, Change, Os, for_each_pair};

type Entry = BTreeMap<String, Value>;
type Table = BTreeMap<String, Entry>;
type Config = BTreeMap<String, Table>;

// The program's rule, as src/render/sonic_program.rs states it (held equal by
// `the_rule_constants_are_the_programs`).
const PORT_KEYED: [&str; 7] = [
    "BUFFER_PG",
    "BUFFER_PORT_EGRESS_PROFILE_LIST",
    "BUFFER_PORT_INGRESS_PROFILE_LIST",
    "BUFFER_QUEUE",
    "PFC_WD",
    "PORT_QOS_MAP",
    "QUEUE",
];
const NAMED: [&str; 12] = [
    "BUFFER_POOL",
    "BUFFER_PROFILE",
    "DEFAULT_LOSSLESS_BUFFER_PARAMETER",
    "DSCP_TO_TC_MAP",
    "LOSSLESS_TRAFFIC_PATTERN",
    "MAP_PFC_PRIORITY_TO_QUEUE",
    "MPLS_TC_TO_TC_MAP",
    "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP",
    "SCHEDULER",
    "TC_TO_PRIORITY_GROUP_MAP",
    "TC_TO_QUEUE_MAP",
    "WRED_PROFILE",
];
const SWITCH_KEYS: [(&str, &str); 2] = [("PFC_WD", "GLOBAL"), ("PORT_QOS_MAP", "global")];
const OWNED_NAMES: [&str; 3] = ["FABRICC*", "q_cnp_profile", "pg_lossless_*_profile"];
const PORT_FIELDS: [&str; 4] = ["description", "fec", "mtu", "speed"];
const MERGED: [&str; 4] = ["BREAKOUT_CFG", "DEVICE_METADATA", "PORT", "SWITCH_HASH"];
const GCU_PFCWD_FIELDS: [&str; 6] = [
    "restoration_time",
    "detection_time",
    "action",
    "global/poll_interval",
    "pfc_stat_history",
    "",
];
/// The SKU of every generated SONiC fabric, in GCU's family spc4.
const HWSKU: &str = "Mellanox-SN5600-O128";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn config_of(v: &Value) -> Config {
    serde_json::from_value(v.clone()).unwrap_or_default()
}

/// SONiC's dynamic-model defaults of the SKU, as a deployed switch has them, seeded with
/// configuration that is not fabricc's.
fn defaults() -> Config {
    let text = fs::read_to_string(
        root().join("tests/data/sonic-defaults/Mellanox-SN5600-O128.dynamic.json"),
    )
    .expect("defaults");
    let mut v: Value = serde_json::from_str(&text).expect("defaults parse");
    let md = &mut v["DEVICE_METADATA"]["localhost"];
    md["hostname"] = json!("leaf1");
    md["mac"] = json!("1c:34:da:00:00:01");
    v["FEATURE"] = json!({"swss": {"state": "enabled"}});
    v["LOOPBACK_INTERFACE"] = json!({"Loopback0": {}});
    seed(&mut v);
    let mut c = config_of(&v);
    // The ports the generated fabrics can use (hosts on ports 1-16, uplinks on the last ports)
    // and the seeded one: the other ports' keys only slow the model down.
    let kept = |port: &str| {
        port.strip_prefix("Ethernet")
            .and_then(|n| n.parse::<u32>().ok())
            .is_none_or(|n| !(128..480).contains(&n) || n == 400)
    };
    for (t, rows) in c.iter_mut() {
        if PORT_KEYED.contains(&t.as_str()) || t == "PORT" {
            rows.retain(|k, _| kept(port_of(k)));
        }
    }
    if let Some(cables) = c.get_mut("CABLE_LENGTH") {
        for e in cables.values_mut() {
            e.retain(|p, _| kept(p));
        }
    }
    c
}

/// Non-fabricc configuration: a storage port's own QoS, a description on a non-fabric port, a
/// foreign WRED profile, a BGP neighbour.
fn seed(v: &mut Value) {
    v["DSCP_TO_TC_MAP"]["STORAGE"] = json!({"0": "1", "24": "4"});
    v["PORT_QOS_MAP"]["Ethernet400"]["dscp_to_tc_map"] = json!("STORAGE");
    v["SCHEDULER"]["STORAGE_SCHED"] = json!({"type": "DWRR", "weight": "30"});
    v["WRED_PROFILE"]["STORAGE_ECN"] = json!({"ecn": "ecn_all", "green_min_threshold": "100000",
        "green_max_threshold": "200000", "green_drop_probability": "5", "wred_green_enable": "true"});
    v["QUEUE"]["Ethernet400|4"] =
        json!({"scheduler": "STORAGE_SCHED", "wred_profile": "STORAGE_ECN"});
    v["PORT"]["Ethernet400"]["description"] = json!("storage array A");
    v["BGP_NEIGHBOR"] = json!({"10.0.0.1": {"asn": "65100", "name": "spine1"}});
}

/// The foreign keys `seed` wrote, which every apply must leave as they are.
fn foreign(c: &Config) -> Vec<Option<Entry>> {
    [
        ("DSCP_TO_TC_MAP", "STORAGE"),
        ("PORT_QOS_MAP", "Ethernet400"),
        ("SCHEDULER", "STORAGE_SCHED"),
        ("WRED_PROFILE", "STORAGE_ECN"),
        ("QUEUE", "Ethernet400|4"),
        ("PORT", "Ethernet400"),
        ("BGP_NEIGHBOR", "10.0.0.1"),
        ("DEVICE_METADATA", "localhost"),
        ("LOOPBACK_INTERFACE", "Loopback0"),
    ]
    .iter()
    .map(|(t, k)| {
        let mut e = c.get(*t).and_then(|r| r.get(*k)).cloned();
        if *t == "DEVICE_METADATA"
            && let Some(e) = e.as_mut()
        {
            e.remove("buffer_model"); // fabricc's field of that entry
        }
        e
    })
    .collect()
}

/// One switch's data: its fragment and fabric ports.
struct Data {
    fragment: Config,
    ports: BTreeSet<String>,
}

fn data(b: &Built, switch: &str) -> Data {
    let files = b.device(switch);
    let fragment: Config =
        serde_json::from_str(files["config_db.fragment.json"]).expect("fragment");
    let ports = match files.get("fabricc-device.json") {
        Some(d) => {
            let v: Value = serde_json::from_str(d).expect("device file");
            v["ports"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect()
        }
        None => fragment
            .get("PORT")
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default(),
    };
    Data { fragment, ports }
}

fn port_of(key: &str) -> &str {
    key.split('|').next().unwrap_or(key)
}

fn glob(pattern: &str, name: &str) -> bool {
    // Only the forms OWNED_NAMES uses: a literal, `P*`, `P*S`.
    match pattern.split_once('*') {
        None => pattern == name,
        Some((p, s)) => name.len() >= p.len() + s.len() && name.starts_with(p) && name.ends_with(s),
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            let mut x: Vec<String> = x.iter().map(|v| v.to_string()).collect();
            let mut y: Vec<String> = y.iter().map(|v| v.to_string()).collect();
            x.sort();
            y.sort();
            x == y
        }
        _ => a == b,
    }
}

fn same_entry(a: &Entry, b: &Entry) -> bool {
    a.len() == b.len() && a.iter().all(|(f, v)| b.get(f).is_some_and(|w| same(v, w)))
}

fn released_ports(running: &Config, ports: &BTreeSet<String>) -> BTreeSet<String> {
    running
        .get("PORT_QOS_MAP")
        .into_iter()
        .flatten()
        .filter(|(k, _)| !ports.contains(*k) && *k != "global")
        .filter(|(_, f)| {
            f.values()
                .any(|v| v.as_str().is_some_and(|s| s.starts_with("FABRICC")))
        })
        .map(|(k, _)| k.clone())
        .collect()
}

/// The program's `intended()`: the running config with fabricc's part replaced.
fn intended(running: &Config, d: &Data, base: &Config) -> Config {
    let mut out = running.clone();
    let released = released_ports(running, &d.ports);
    let empty = Table::new();
    for t in PORT_KEYED {
        let rows = out.entry(t.to_string()).or_default();
        rows.retain(|k, _| {
            let p = port_of(k);
            !(d.ports.contains(p) || released.contains(p) || SWITCH_KEYS.contains(&(t, k.as_str())))
        });
        for (k, v) in base.get(t).unwrap_or(&empty) {
            if released.contains(port_of(k)) {
                rows.insert(k.clone(), v.clone());
            }
        }
        for (k, v) in d.fragment.get(t).unwrap_or(&empty) {
            rows.insert(k.clone(), v.clone());
        }
    }
    let base_cables = base.get("CABLE_LENGTH");
    let cables = out.entry("CABLE_LENGTH".into()).or_default();
    for (key, fields) in cables.iter_mut() {
        for p in &released {
            match base_cables.and_then(|c| c.get(key)).and_then(|e| e.get(p)) {
                Some(was) => {
                    fields.insert(p.clone(), was.clone());
                }
                None => {
                    fields.remove(p);
                }
            }
        }
    }
    for (key, fields) in d.fragment.get("CABLE_LENGTH").unwrap_or(&empty) {
        let e = cables.entry(key.clone()).or_default();
        for (f, v) in fields {
            e.insert(f.clone(), v.clone());
        }
    }
    for t in NAMED {
        let rows = out.entry(t.to_string()).or_default();
        for (k, v) in d.fragment.get(t).unwrap_or(&empty) {
            rows.insert(k.clone(), v.clone());
        }
    }
    let mut refs: BTreeSet<String> = BTreeSet::new();
    for rows in out.values() {
        for fields in rows.values() {
            for v in fields.values() {
                match v {
                    Value::Array(items) => {
                        refs.extend(items.iter().filter_map(|i| i.as_str().map(str::to_string)))
                    }
                    Value::String(s) => refs.extend(s.split(',').map(str::to_string)),
                    other => {
                        refs.insert(other.to_string());
                    }
                }
            }
        }
    }
    for t in NAMED {
        let frag = d.fragment.get(t).unwrap_or(&empty);
        let was_rows = base.get(t).unwrap_or(&empty);
        let rows = out.entry(t.to_string()).or_default();
        let keys: Vec<String> = rows.keys().cloned().collect();
        for k in keys {
            if frag.contains_key(&k) || !OWNED_NAMES.iter().any(|p| glob(p, &k)) {
                continue;
            }
            if let Some(was) = was_rows.get(&k) {
                rows.insert(k, was.clone());
            } else if !refs.contains(&k) {
                rows.remove(&k);
            }
        }
    }
    for t in MERGED {
        for (k, fields) in d.fragment.get(t).unwrap_or(&empty) {
            let e = out
                .entry(t.to_string())
                .or_default()
                .entry(k.clone())
                .or_default();
            for (f, v) in fields {
                e.insert(f.clone(), v.clone());
            }
        }
    }
    if let Some(breakouts) = out.get_mut("BREAKOUT_CFG") {
        let frag = d.fragment.get("BREAKOUT_CFG");
        let was = base.get("BREAKOUT_CFG");
        let keys: Vec<String> = breakouts.keys().cloned().collect();
        for k in keys {
            if frag.is_some_and(|f| f.contains_key(&k)) {
                continue;
            }
            match was.and_then(|w| w.get(&k)) {
                Some(v) => {
                    breakouts.insert(k, v.clone());
                }
                None => {
                    breakouts.remove(&k);
                }
            }
        }
    }
    let want_ports = d.fragment.get("PORT").cloned().unwrap_or_default();
    let base_ports = base.get("PORT").cloned().unwrap_or_default();
    if let Some(port_table) = out.get_mut("PORT") {
        for p in d.ports.iter().chain(released.iter()) {
            let Some(entry) = port_table.get_mut(p) else {
                continue;
            };
            let want = want_ports.get(p);
            let Some(was) = base_ports.get(p) else {
                continue;
            };
            for f in PORT_FIELDS {
                if want.is_some_and(|w| w.contains_key(f)) {
                    continue;
                }
                match was.get(f) {
                    Some(v) => {
                        entry.insert(f.to_string(), v.clone());
                    }
                    None => {
                        entry.remove(f);
                    }
                }
            }
        }
    }
    out.retain(|_, rows| !rows.is_empty());
    out
}

/// `jsonpatch.JsonPatch.from_diff`, as the program's `ops()` and the fake's model it.
fn ops(old: &Config, new: &Config) -> Vec<(&'static str, String, Option<Value>)> {
    let mut out = Vec::new();
    let tables: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for t in tables {
        let (Some(a), Some(b)) = (old.get(t), new.get(t)) else {
            if old.contains_key(t) {
                out.push(("remove", format!("/{t}"), None));
            } else {
                out.push(("add", format!("/{t}"), serde_json::to_value(&new[t]).ok()));
            }
            continue;
        };
        let mut gone: Vec<&String> = a.keys().filter(|k| !b.contains_key(*k)).collect();
        for (k, v) in b {
            if a.contains_key(k) {
                continue;
            }
            if let Some(i) = gone.iter().position(|g| same_entry(&a[*g], v)) {
                gone.remove(i);
                out.push(("move", format!("/{t}/{k}"), None));
            } else {
                out.push(("add", format!("/{t}/{k}"), serde_json::to_value(v).ok()));
            }
        }
        for k in gone {
            out.push(("remove", format!("/{t}/{k}"), None));
        }
        for (k, x) in a {
            let Some(y) = b.get(k) else { continue };
            let fields: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for f in fields {
                match (x.get(f), y.get(f)) {
                    (Some(_), None) => out.push(("remove", format!("/{t}/{k}/{f}"), None)),
                    (None, Some(v)) => out.push(("add", format!("/{t}/{k}/{f}"), Some(v.clone()))),
                    (Some(v), Some(w)) if !same(v, w) => {
                        out.push(("replace", format!("/{t}/{k}/{f}"), Some(w.clone())))
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Why GCU refuses one operation (the module doc's sources), or `None`.
fn gcu_refuses(op: &str, path: &str, value: &Option<Value>) -> Option<String> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match parts[0] {
        "PFC_WD" => {
            if op == "remove"
                && (path == "/PFC_WD/GLOBAL" || path == "/PFC_WD/GLOBAL/POLL_INTERVAL")
            {
                return Some(format!("remove {path} is illegal"));
            }
            let cleaned = parts[1..]
                .iter()
                .filter(|p| !p.chars().any(|c| c.is_ascii_digit()))
                .copied()
                .collect::<Vec<_>>()
                .join("/")
                .to_lowercase();
            let fields: Vec<String> = match value {
                Some(Value::Object(m)) => m
                    .keys()
                    .map(|k| {
                        if cleaned.is_empty() {
                            k.clone()
                        } else {
                            format!("{cleaned}/{k}")
                        }
                    })
                    .collect(),
                _ => vec![cleaned],
            };
            if !["add", "remove", "replace"].contains(&op)
                || fields
                    .iter()
                    .any(|f| !GCU_PFCWD_FIELDS.contains(&f.as_str()))
            {
                return Some(format!("PFC_WD {op} {path}"));
            }
            None
        }
        "BUFFER_POOL" => Some(format!("BUFFER_POOL {op} {path}")),
        "BUFFER_PROFILE" => match parts.len() {
            2 if ["add", "remove", "replace"].contains(&op) => None,
            3 if op == "replace" && ["dynamic_th", "xoff"].contains(&parts[2]) => None,
            _ => Some(format!("BUFFER_PROFILE {op} {path}")),
        },
        _ => None,
    }
}

/// The program's `plan()`: live, or reload with the reasons.
fn plan(running: &Config, want: &Config) -> Vec<String> {
    let model = |c: &Config| {
        c.get("DEVICE_METADATA")
            .and_then(|t| t.get("localhost"))
            .and_then(|e| e.get("buffer_model"))
            .cloned()
    };
    let mut reasons = Vec::new();
    if model(running) != model(want) {
        reasons.push("buffer_model".to_string());
    }
    for (op, path, value) in ops(running, want) {
        let table = path.trim_start_matches('/').split('/').next().unwrap_or("");
        if table == "BREAKOUT_CFG" {
            if op == "replace" {
                reasons.push(format!("{op} {path}"));
            }
            continue;
        }
        if table == "DEVICE_METADATA" {
            continue;
        }
        if let Some(why) = gcu_refuses(op, &path, &value) {
            reasons.push(why);
        }
    }
    reasons
}

/// Every reference a key makes resolves (the YANG leafrefs of the QoS and buffer tables).
fn leafrefs(c: &Config) -> Vec<String> {
    let has = |t: &str, k: &str| c.get(t).is_some_and(|r| r.contains_key(k));
    let mut bad = Vec::new();
    let field_refs: [(&str, &str, &str); 9] = [
        ("QUEUE", "scheduler", "SCHEDULER"),
        ("QUEUE", "wred_profile", "WRED_PROFILE"),
        ("PORT_QOS_MAP", "dscp_to_tc_map", "DSCP_TO_TC_MAP"),
        ("PORT_QOS_MAP", "tc_to_queue_map", "TC_TO_QUEUE_MAP"),
        ("PORT_QOS_MAP", "tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP"),
        (
            "PORT_QOS_MAP",
            "pfc_to_queue_map",
            "MAP_PFC_PRIORITY_TO_QUEUE",
        ),
        (
            "PORT_QOS_MAP",
            "pfc_to_pg_map",
            "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP",
        ),
        ("BUFFER_QUEUE", "profile", "BUFFER_PROFILE"),
        ("BUFFER_PROFILE", "pool", "BUFFER_POOL"),
    ];
    for (t, f, target) in field_refs
        .into_iter()
        .chain([("BUFFER_PG", "profile", "BUFFER_PROFILE")])
    {
        for (k, e) in c.get(t).into_iter().flatten() {
            if let Some(Value::String(name)) = e.get(f)
                && name != "NULL"
                && !has(target, name)
            {
                bad.push(format!("{t}|{k}.{f} -> {target}|{name}"));
            }
        }
    }
    for t in [
        "BUFFER_PORT_INGRESS_PROFILE_LIST",
        "BUFFER_PORT_EGRESS_PROFILE_LIST",
    ] {
        for (k, e) in c.get(t).into_iter().flatten() {
            if let Some(Value::String(list)) = e.get("profile_list") {
                for name in list.split(',') {
                    if !has("BUFFER_PROFILE", name) {
                        bad.push(format!("{t}|{k} -> BUFFER_PROFILE|{name}"));
                    }
                }
            }
        }
    }
    bad
}

/// GCU `config apply-patch` of the program's patch (key by key from running to want): the
/// resulting config, or why GCU refuses it.
fn gcu_apply(running: &Config, want: &Config) -> Result<Config, String> {
    // The program's patch, applied: every key of `want` that differs is added or replaced
    // whole, every key `want` lacks removed; a table `want` lacks removed whole.
    let target = want.clone();
    for (op, path, value) in ops(running, &target) {
        if let Some(why) = gcu_refuses(op, &path, &value) {
            return Err(why);
        }
    }
    if let Some((t, _)) = target.iter().find(|(_, r)| r.is_empty()) {
        return Err(format!("empty table {t}"));
    }
    let bad = leafrefs(&target);
    if !bad.is_empty() {
        return Err(format!("YANG leafrefs: {bad:?}"));
    }
    Ok(target)
}

/// A switch: CONFIG_DB and the program's baseline file.
#[derive(Clone, PartialEq, Debug)]
struct Sim {
    config: Config,
    baseline: Option<Config>,
}

#[derive(Default)]
struct Paths {
    live: usize,
    reload: usize,
}

/// `apply.sh --yes` on the switch, by the program's rule and SONiC's semantics.
fn apply(sim: &Sim, d: &Data, paths: &mut Paths) -> Sim {
    if std::env::var_os("FABRICC_SONIC_OLD_PROCEDURE").is_some() {
        return apply_old(sim, d);
    }
    let base = sim.baseline.clone().unwrap_or_else(|| sim.config.clone());
    let want = intended(&sim.config, d, &base);
    let reasons = plan(&sim.config, &want);
    let config = if reasons.is_empty() {
        // The program asks GCU's dry run first; a refusal there takes the reload path.
        match gcu_apply(&sim.config, &want) {
            Ok(c) => {
                paths.live += 1;
                c
            }
            Err(_) => {
                paths.reload += 1;
                want
            }
        }
    } else {
        paths.reload += 1;
        want // config reload -y INTENDED: CONFIG_DB is the file; dynamic daemons add nothing
    };
    Sim {
        config,
        baseline: Some(base),
    }
}

/// The procedure before issue 33: `config qos clear` (its 19 tables), PFC_WD's keys deleted,
/// `config load` of the fragment (a field merge per key), `config save`, `config reload`.
fn apply_old(sim: &Sim, d: &Data) -> Sim {
    let mut c = sim.config.clone();
    for t in PORT_KEYED
        .iter()
        .chain(NAMED.iter())
        .chain(["CABLE_LENGTH"].iter())
    {
        c.remove(*t);
    }
    for (t, rows) in &d.fragment {
        for (k, fields) in rows {
            let e = c
                .entry(t.clone())
                .or_default()
                .entry(k.clone())
                .or_default();
            for (f, v) in fields {
                e.insert(f.clone(), v.clone());
            }
        }
    }
    Sim {
        config: c,
        baseline: sim.baseline.clone(),
    }
}

fn pairs() -> usize {
    1000
}

/// The property over `for_each_pair(Os::Sonic, …)`, on every switch of each pair.
#[test]
fn converge_sonic_any_earlier_build_to_the_newer_one_equals_a_fresh_apply() {
    let start = Instant::now();
    let defaults = Sim {
        config: defaults(),
        baseline: None,
    };
    let seeded = foreign(&defaults.config);
    assert!(
        leafrefs(&defaults.config).is_empty(),
        "{:?}",
        leafrefs(&defaults.config)
    );
    let mut paths = Paths::default();
    let mut by_change: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let n = for_each_pair(Os::Sonic, 33, pairs(), |change: Change, older, newer| {
        for switch in crate::change_pairs::SWITCHES {
            let (old, new) = (data(older, switch), data(newer, switch));
            let mut p = Paths::default();
            let fresh = apply(&defaults, &new, &mut p);
            let n_state = apply(&defaults, &old, &mut p);
            let before = (p.live, p.reload);
            let converged = apply(&n_state, &new, &mut p);
            let e = by_change.entry(format!("{change:?}")).or_default();
            e.0 += p.live - before.0;
            e.1 += p.reload - before.1;
            paths.live += p.live;
            paths.reload += p.reload;
            let mut why = Vec::new();
            if converged != fresh {
                let diff: Vec<String> = converged
                    .config
                    .iter()
                    .flat_map(|(t, rows)| {
                        rows.iter()
                            .filter(|(k, v)| {
                                fresh.config.get(t).and_then(|r| r.get(*k)) != Some(*v)
                            })
                            .map(move |(k, _)| format!("{t}|{k}"))
                    })
                    .chain(fresh.config.iter().flat_map(|(t, rows)| {
                        rows.keys()
                            .filter(|k| converged.config.get(t).and_then(|r| r.get(*k)).is_none())
                            .map(move |k| format!("missing {t}|{k}"))
                    }))
                    .take(6)
                    .collect();
                why.push(format!("converged != fresh: {diff:?}"));
            }
            for (name, s) in [("fresh", &fresh), ("converged", &converged)] {
                if foreign(&s.config) != seeded {
                    why.push(format!("{name}: non-fabricc configuration touched"));
                }
                let bad = leafrefs(&s.config);
                if !bad.is_empty() {
                    why.push(format!(
                        "{name}: dangling references {:?}",
                        &bad[..bad.len().min(3)]
                    ));
                }
            }
            if !why.is_empty() && failures.len() < 5 {
                failures.push(format!("{change:?} on {switch}: {}", why.join("; ")));
            }
        }
    });
    eprintln!(
        "converge_sonic: {n} pairs × 4 switches in {:.1} s; applies: {} live, {} reload; per change (live, reload of N→N+1): {by_change:?}",
        start.elapsed().as_secs_f64(),
        paths.live,
        paths.reload
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(n >= pairs().min(1000) || std::env::var_os("FABRICC_CONVERGE_PAIRS").is_some());
}

/// The rule above is the program's: its constants are `sonic_program`'s.
#[test]
fn the_rule_constants_are_the_programs() {
    use fabricc::render::sonic_program as p;
    assert_eq!(PORT_KEYED, p::PORT_KEYED_TABLES);
    assert_eq!(NAMED.to_vec(), p::named_tables());
    assert_eq!(SWITCH_KEYS, p::SWITCH_KEYS);
    assert_eq!(OWNED_NAMES, p::OWNED_NAMES);
    assert_eq!(PORT_FIELDS, p::PORT_FIELDS);
    assert_eq!(MERGED, p::MERGED_TABLES);
    let v = p::program_view();
    assert_eq!(v.gcu_pfcwd_fields, GCU_PFCWD_FIELDS.to_vec());
    assert!(v.gcu_families["spc4"].contains(&HWSKU));
}

/// The real program on the fakes, on sampled pairs: from SONiC's defaults, apply N then N+1
/// to leaf1; CONFIG_DB equals the model's converged state (and the fresh one).
#[test]
fn the_program_on_the_fakes_matches_the_model() {
    use crate::sonic_apply::{Switch, program_for_tests, scratch};
    let program = program_for_tests();
    let mut checked = 0;
    for_each_pair(Os::Sonic, 7, 3, |change, older, newer| {
        let dir = scratch("converge");
        let switch = Switch::new(&dir, "dynamic");
        switch.seed(seed);
        let start = Sim {
            config: config_of(&switch.printed()),
            baseline: None,
        };
        let mut p = Paths::default();
        for (i, b) in [older, newer].into_iter().enumerate() {
            let folder = dir.join(format!("b{i}/switches/leaf1"));
            fs::create_dir_all(&folder).expect("mkdir");
            for (name, text) in b.device("leaf1") {
                fs::write(folder.join(name), text).expect("write");
            }
            let o = switch.run_program(&program, &folder, &["--yes"]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{change:?} build {i}: {}",
                crate::sonic_apply::text(&o)
            );
        }
        let n_state = apply(&start, &data(older, "leaf1"), &mut p);
        let model = apply(&n_state, &data(newer, "leaf1"), &mut p);
        let fresh = apply(&start, &data(newer, "leaf1"), &mut p);
        let got = config_of(&switch.printed());
        assert!(
            got == model.config,
            "{change:?}: the program and the model differ"
        );
        assert!(got == fresh.config, "{change:?}: not converged");
        checked += 1;
    });
    assert_eq!(checked, 3);
}
