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
//! `FABRICC_CONVERGE_PAIRS=N` sets the number of pairs (default `change_pairs::PAIRS`, 250;
//! 1,000 before issue 36 trimmed it for a cold `cargo test` within 8 minutes).
//! `FABRICC_SONIC_OLD_PROCEDURE=1` models the procedure before issue 33 (`config qos clear`,
//! PFC_WD deleted, `config load` of the fragment, `config reload`) instead: the property fails.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::{Value, json};

use crate::change_pairs::{Built, Change, Os, PAIRS, find_pair, for_each_pair, pair_count};

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
    defaults_of("Mellanox-SN5600-O128.dynamic.json", 64, &WITNESS_PORTS)
}

/// `defaults()` of the SKU whose defaults are `tests/data/sonic-defaults/<file>`: the ports
/// below `Ethernet<below>` (those the fabrics use) and the `witnesses` kept.
fn defaults_of(file: &str, below: u32, witnesses: &[&str]) -> Config {
    let text =
        fs::read_to_string(root().join("tests/data/sonic-defaults").join(file)).expect("defaults");
    let mut v: Value = serde_json::from_str(&text).expect("defaults parse");
    let md = &mut v["DEVICE_METADATA"]["localhost"];
    md["hostname"] = json!("leaf1");
    md["mac"] = json!("1c:34:da:00:00:01");
    v["FEATURE"] = json!({"swss": {"state": "enabled"}});
    v["LOOPBACK_INTERFACE"] = json!({"Loopback0": {}});
    seed(&mut v);
    let mut c = config_of(&v);
    // The ports the generated fabrics can use (every link is on ports 1-16: Ethernet0-60) and
    // the non-fabric witnesses (`WITNESS_PORTS`: the seeded Ethernet400, an untouched
    // neighbour of the fabric's ports and the auxiliary port): the other 110 ports' keys are
    // more of the same and only slow the model down (issue 33 item 3 of the finish: the
    // whole defaults took 3 of every 4 seconds of the model).
    let kept = |port: &str| {
        port.strip_prefix("Ethernet")
            .and_then(|n| n.parse::<u32>().ok())
            .is_none_or(|n| n < below || witnesses.contains(&port))
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

/// Ports no generated fabric uses, kept in the defaults as witnesses: the seeded storage port,
/// a front-panel neighbour of the fabric's ports with SONiC's default QoS, the auxiliary port.
const WITNESS_PORTS: [&str; 3] = ["Ethernet400", "Ethernet64", "Ethernet512"];

/// What every apply must leave as it is: the foreign keys `seed` wrote, and every key and
/// cable length of the witness ports (their default QoS, PGs, buffer queues and profile lists,
/// PORT entry).
fn foreign(c: &Config) -> Vec<(String, Option<Entry>)> {
    foreign_of(c, &WITNESS_PORTS)
}

/// `foreign` with other witness ports.
fn foreign_of(c: &Config, witnesses: &[&str]) -> Vec<(String, Option<Entry>)> {
    let mut out: Vec<(String, Option<Entry>)> = [
        ("DSCP_TO_TC_MAP", "STORAGE"),
        ("SCHEDULER", "STORAGE_SCHED"),
        ("WRED_PROFILE", "STORAGE_ECN"),
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
        (format!("{t}|{k}"), e)
    })
    .collect();
    for t in PORT_KEYED.iter().chain(["PORT"].iter()) {
        for (k, e) in c.get(*t).into_iter().flatten() {
            if witnesses.contains(&port_of(k)) {
                out.push((format!("{t}|{k}"), Some(e.clone())));
            }
        }
    }
    for (k, e) in c.get("CABLE_LENGTH").into_iter().flatten() {
        for &p in witnesses {
            out.push((
                format!("CABLE_LENGTH|{k}|{p}"),
                e.get(p).map(|v| Entry::from([(p.to_string(), v.clone())])),
            ));
        }
    }
    out
}

/// One switch's data: its fragment and fabric ports.
struct Data {
    fragment: Config,
    ports: BTreeSet<String>,
    /// `fabricc-device.json` `cage_ports`: the other ports of the fabric's broken-out cages.
    cage_ports: Table,
}

fn data(b: &Built, switch: &str) -> Data {
    let files = b.device(switch);
    // As the program reads it: one key per port (`load_fragment`).
    let fragment: Value = serde_json::from_str(files["config_db.fragment.json"]).expect("fragment");
    let fragment: Config =
        serde_json::from_value(crate::validate::split_port_lists(&fragment)).expect("fragment");
    let device: Option<Value> = files
        .get("fabricc-device.json")
        .map(|d| serde_json::from_str(d).expect("device file"));
    let cage_ports = device
        .as_ref()
        .and_then(|v| serde_json::from_value(v["cage_ports"].clone()).ok())
        .unwrap_or_default();
    let ports = match device {
        Some(v) => v["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p.as_str().map(str::to_string))
            .collect(),
        None => fragment
            .get("PORT")
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default(),
    };
    Data {
        fragment,
        ports,
        cage_ports,
    }
}

fn lanes_of(e: &Entry) -> Vec<String> {
    e.get("lanes")
        .and_then(Value::as_str)
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// A cage's ports: now (running, on the cage's lanes), wanted, and whether those are whole
/// baseline rows.
type CageChange = (Table, Table, bool);

/// The program's `cages()`: cages whose ports the switch has in another layout than the
/// apply leaves (the fabric's: the fragment SKU's; one the fabric left with a released port:
/// the baseline's).
fn cages(running: &Config, d: &Data, base: &Config) -> BTreeMap<String, CageChange> {
    let empty = Table::new();
    let frag_ports = d.fragment.get("PORT").unwrap_or(&empty);
    let have = running.get("PORT").unwrap_or(&empty);
    let base_ports = base.get("PORT").unwrap_or(&empty);
    let of_cage = |ports: &mut dyn Iterator<Item = (&String, &Entry)>, index: &Value| -> Table {
        ports
            .filter(|(_, f)| f.get("index") == Some(index))
            .map(|(p, f)| (p.clone(), f.clone()))
            .collect()
    };
    let mut wanted: BTreeMap<String, (Table, bool)> = BTreeMap::new();
    let frag_cages = d.fragment.get("BREAKOUT_CFG");
    for parent in frag_cages.into_iter().flat_map(|t| t.keys()) {
        let Some(index) = frag_ports
            .get(parent)
            .or_else(|| d.cage_ports.get(parent))
            .and_then(|row| row.get("index"))
        else {
            continue;
        };
        let want = of_cage(&mut d.cage_ports.iter().chain(frag_ports.iter()), index);
        wanted.insert(parent.clone(), (want, false));
    }
    let released = released_ports(running, &d.ports);
    for parent in running
        .get("BREAKOUT_CFG")
        .into_iter()
        .flat_map(|t| t.keys())
    {
        if frag_cages.is_some_and(|t| t.contains_key(parent)) {
            continue;
        }
        let Some(index) = base_ports.get(parent).and_then(|row| row.get("index")) else {
            continue;
        };
        let want = of_cage(&mut base_ports.iter(), index);
        let lanes: BTreeSet<String> = want.values().flat_map(lanes_of).collect();
        let touched = released
            .iter()
            .filter_map(|p| have.get(p))
            .any(|e| lanes_of(e).iter().any(|l| lanes.contains(l)));
        if touched {
            wanted.insert(parent.clone(), (want, true));
        }
    }
    let mut out = BTreeMap::new();
    for (parent, (want, whole)) in wanted {
        let lanes: BTreeSet<String> = want.values().flat_map(lanes_of).collect();
        let now: Table = have
            .iter()
            .filter(|(_, f)| lanes_of(f).iter().any(|l| lanes.contains(l)))
            .map(|(p, f)| (p.clone(), f.clone()))
            .collect();
        let layout = |t: &Table| -> BTreeMap<String, Vec<String>> {
            t.iter().map(|(p, f)| (p.clone(), lanes_of(f))).collect()
        };
        if layout(&now) != layout(&want) {
            out.insert(parent, (now, want, whole));
        }
    }
    out
}

/// The program's breakout step of `intended()`: each cage in another layout gets the ports
/// the fragment's SKU has, the cage's `admin_status`, and the old mode's ports go.
/// Returns the ports it wrote.
fn recreate_cages(out: &mut Config, running: &Config, d: &Data, base: &Config) -> BTreeSet<String> {
    let mut recreated = BTreeSet::new();
    let empty = Table::new();
    let frag_ports = d.fragment.get("PORT").unwrap_or(&empty);
    for (parent, (now, want, whole)) in cages(running, d, base) {
        let admin = now
            .get(&parent)
            .and_then(|e| e.get("admin_status"))
            .or_else(|| now.values().find_map(|e| e.get("admin_status")))
            .cloned();
        for (p, e) in &now {
            let kept = want.get(p).is_some_and(|w| lanes_of(w) == lanes_of(e));
            if kept {
                continue;
            }
            for t in PORT_KEYED.iter().chain(["PORT"].iter()) {
                if want.contains_key(p) && *t != "PORT" {
                    continue;
                }
                if let Some(rows) = out.get_mut(*t) {
                    rows.retain(|k, _| port_of(k) != p);
                }
            }
            if !want.contains_key(p)
                && let Some(cables) = out.get_mut("CABLE_LENGTH")
            {
                for fields in cables.values_mut() {
                    fields.remove(p);
                }
            }
        }
        for (p, fields) in &want {
            if now.get(p).is_some_and(|e| lanes_of(e) == lanes_of(fields)) {
                continue;
            }
            let mut row: Entry = ["alias", "index", "lanes", "speed"]
                .iter()
                .filter_map(|f| fields.get(*f).map(|v| (f.to_string(), v.clone())))
                .collect();
            if whole {
                row = fields.clone();
            } else {
                if let Some(a) = &admin {
                    row.insert("admin_status".into(), a.clone());
                }
                for (f, v) in frag_ports.get(p).into_iter().flatten() {
                    row.insert(f.clone(), v.clone());
                }
            }
            out.entry("PORT".into()).or_default().insert(p.clone(), row);
            recreated.insert(p.clone());
        }
    }
    recreated
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
    // The names any field refers to; only fabricc's own names are looked up below.
    let owned = |name: &str| OWNED_NAMES.iter().any(|p| glob(p, name));
    let mut refs: BTreeSet<String> = BTreeSet::new();
    for rows in out.values() {
        for fields in rows.values() {
            for v in fields.values() {
                match v {
                    Value::Array(items) => refs.extend(
                        items
                            .iter()
                            .filter_map(Value::as_str)
                            .filter(|i| owned(i))
                            .map(str::to_string),
                    ),
                    Value::String(s) => {
                        refs.extend(s.split(',').filter(|i| owned(i)).map(str::to_string))
                    }
                    _ => {}
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
            if frag.contains_key(&k) || !owned(&k) {
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
    let recreated = recreate_cages(&mut out, running, d, base);
    let want_ports = d.fragment.get("PORT").cloned().unwrap_or_default();
    let base_ports = base.get("PORT").cloned().unwrap_or_default();
    if let Some(port_table) = out.get_mut("PORT") {
        for p in d.ports.iter().chain(released.iter()) {
            if recreated.contains(p) {
                continue;
            }
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

/// One operation of a JSON patch: op, path, value.
type Op = (&'static str, String, Option<Value>);

/// `jsonpatch.JsonPatch.from_diff`, as the program's `ops()` and the fake's model it.
fn ops(old: &Config, new: &Config) -> Vec<Op> {
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
        if a == b {
            continue;
        }
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
            if x == y {
                continue;
            }
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

/// The program's `plan()`: live, or reload with the reasons. `diff` is `ops(running, want)`.
fn plan(running: &Config, want: &Config, diff: &[Op], d: &Data, base: &Config) -> Vec<String> {
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
    for parent in cages(running, d, base).keys() {
        reasons.push(format!("cage {parent}: a breakout change recreates ports"));
    }
    for (op, path, value) in diff {
        let op = *op;
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
        if let Some(why) = gcu_refuses(op, path, value) {
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

/// GCU `config apply-patch` of the program's patch (key by key from running to want; `diff`
/// is `ops(running, want)`): `Ok` when GCU applies it, and the result is then `want` itself
/// (every key of `want` that differs is added or replaced whole, every key `want` lacks
/// removed; a table `want` lacks removed whole), or why GCU refuses it.
fn gcu_check(want: &Config, diff: &[Op]) -> Result<(), String> {
    for (op, path, value) in diff {
        if let Some(why) = gcu_refuses(op, path, value) {
            return Err(why);
        }
    }
    if let Some((t, _)) = want.iter().find(|(_, r)| r.is_empty()) {
        return Err(format!("empty table {t}"));
    }
    let bad = leafrefs(want);
    if !bad.is_empty() {
        return Err(format!("YANG leafrefs: {bad:?}"));
    }
    Ok(())
}

/// A switch: CONFIG_DB and the program's baseline file (shared: written once, by the first
/// apply, and read by every later one).
#[derive(Clone, PartialEq, Debug)]
struct Sim {
    config: Config,
    baseline: Option<std::rc::Rc<Config>>,
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
    let base = sim
        .baseline
        .clone()
        .unwrap_or_else(|| std::rc::Rc::new(sim.config.clone()));
    let want = intended(&sim.config, d, &base);
    let diff = ops(&sim.config, &want);
    let reasons = plan(&sim.config, &want, &diff, d, &base);
    // The program asks GCU's dry run first; a refusal there takes the reload path. Either way
    // CONFIG_DB ends as `want`: the patch's target, or `config reload -y INTENDED` (CONFIG_DB
    // is the file; the dynamic-model daemons add nothing).
    if reasons.is_empty() && gcu_check(&want, &diff).is_ok() {
        paths.live += 1;
    } else {
        paths.reload += 1;
    }
    let config = want;
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

/// A fresh apply of one build's files to one switch (`apply(defaults, files)`), kept for the
/// pairs in which that build is the older one: every fabric of a chain is the newer end of one
/// pair and may be the older end of later ones, so each (build, switch) is applied to the
/// defaults once. Keyed by the switch and the fabric's text; cleared when it outgrows a chain.
struct FreshCache {
    /// The seeded foreign configuration of the defaults (`foreign`).
    seeded: Vec<(String, Option<Entry>)>,
    /// The witness ports of `seeded` (`WITNESS_PORTS` on SONiC's own SKU).
    witnesses: &'static [&'static str],
    states: std::collections::HashMap<String, std::rc::Rc<Fresh>>,
}

/// One build's data on one switch, its fresh state, the paths that apply took, and what is
/// wrong with the fresh state (foreign configuration touched, dangling references).
type Fresh = (Data, Sim, Paths, Option<String>);

impl FreshCache {
    fn get(&mut self, defaults: &Sim, b: &Built, switch: &str) -> std::rc::Rc<Fresh> {
        // The fabric's text fixes its build (same input, same bytes).
        let key = format!("{switch}\0{}", b.text);
        if let Some(hit) = self.states.get(&key) {
            return hit.clone();
        }
        if self.states.len() >= 4 * 2 * 16 {
            self.states.clear(); // two chains of 16 fabrics × 4 switches
        }
        let d = data(b, switch);
        let mut p = Paths::default();
        let fresh = apply(defaults, &d, &mut p);
        let why = faults("fresh", &fresh, &self.seeded, self.witnesses);
        let entry = std::rc::Rc::new((d, fresh, p, why));
        self.states.insert(key, entry.clone());
        entry
    }
}

/// What is wrong with a state after an apply: configuration that is not fabricc's touched
/// (`seeded` is `foreign` of the defaults), references that do not resolve.
fn faults(
    name: &str,
    s: &Sim,
    seeded: &[(String, Option<Entry>)],
    witnesses: &[&str],
) -> Option<String> {
    let mut why = Vec::new();
    if foreign_of(&s.config, witnesses) != seeded {
        why.push(format!("{name}: non-fabricc configuration touched"));
    }
    let bad = leafrefs(&s.config);
    if !bad.is_empty() {
        why.push(format!(
            "{name}: dangling references {:?}",
            &bad[..bad.len().min(3)]
        ));
    }
    (!why.is_empty()).then(|| why.join("; "))
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
    let mut cache = FreshCache {
        seeded: seeded.clone(),
        witnesses: &WITNESS_PORTS,
        states: Default::default(),
    };
    let mut paths = Paths::default();
    let mut by_change: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let mut model_time = std::time::Duration::ZERO;
    let mut fabric_ports: BTreeSet<String> = BTreeSet::new();
    let n = for_each_pair(Os::Sonic, 33, PAIRS, |change: Change, older, newer| {
        let t0 = Instant::now();
        for switch in crate::change_pairs::SWITCHES {
            let old = cache.get(&defaults, older, switch);
            let new = cache.get(&defaults, newer, switch);
            let (fresh, n_state) = (&new.1, &old.1);
            fabric_ports.extend(new.0.ports.iter().cloned());
            let mut p = Paths::default();
            let converged = apply(n_state, &new.0, &mut p);
            let e = by_change.entry(format!("{change:?}")).or_default();
            e.0 += p.live;
            e.1 += p.reload;
            // Every apply the property makes: the two fresh ones and N → N+1.
            paths.live += p.live + old.2.live + new.2.live;
            paths.reload += p.reload + old.2.reload + new.2.reload;
            let mut why = Vec::new();
            // The fresh state was checked once, when it was made (`FreshCache`); the converged
            // one is checked here only when it differs from the fresh one.
            why.extend(new.3.clone());
            if converged != *fresh {
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
                why.extend(faults("converged", &converged, &seeded, &WITNESS_PORTS));
            }
            if !why.is_empty() && failures.len() < 5 {
                failures.push(format!("{change:?} on {switch}: {}", why.join("; ")));
            }
        }
        model_time += t0.elapsed();
    });
    let total = start.elapsed().as_secs_f64();
    eprintln!(
        "converge_sonic: {n} pairs × 4 switches in {total:.1} s ({:.1} s in the model, the rest building fabrics); applies: {} live, {} reload; per change (live, reload of N→N+1): {by_change:?}",
        model_time.as_secs_f64(),
        paths.live,
        paths.reload
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Both of the program's paths were taken: GCU's live patch and the reload.
    assert!(paths.live > 0 && paths.reload > 0, "{by_change:?}");
    // The trimmed defaults hold every port a fabric used, and no witness is a fabric port.
    for p in &fabric_ports {
        assert!(
            defaults.config["PORT"].contains_key(p) && !WITNESS_PORTS.contains(&p.as_str()),
            "{p}: a fabric port outside the kept defaults, or a witness"
        );
    }
    assert!(n >= pair_count(PAIRS));
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

// Custom SKUs (issue 38 item 3). The generated fabrics again, their switch model on a mixed SKU
// folder of the SN5600 (`tests/data/sonic-skus/a/Mellanox-SN5600-MIX`: cages 7 and 8 as
// 1 x 800G among 2 x 400G cages, so the fabric's cages 1-9 mix 2-way and 1-way breakouts and
// BREAKOUT_CFG lists both); one pair in four also changes a cage's breakout: build N+1 names
// `b/Mellanox-SN5600-MIX` (the same HWSKU, cage 8 as 2 x 400G), so cage 8's BREAKOUT_CFG mode
// changes and its ports are renamed and re-laned. The switch runs the SKU of `a` from the
// start: `tests/data/sonic-defaults/Mellanox-SN5600-MIX.dynamic.json` (its README has the
// commands), whose BREAKOUT_CFG is `sonic-cfggen`'s from the SKU's hwsku.json.

const MIX_A: &str = "platform nvidia-sn5600  os sonic  sku \"a/Mellanox-SN5600-MIX\"  ports 6 x 800G breakout 2 x 400G, 2 x 800G, 56 x 800G breakout 2 x 400G";
const MIX_B: &str = "platform nvidia-sn5600  os sonic  sku \"b/Mellanox-SN5600-MIX\"  ports 6 x 800G breakout 2 x 400G, 1 x 800G, 57 x 800G breakout 2 x 400G";
/// The witnesses on the mixed SKU: the fabrics use its cages 1-9 (`Ethernet0`-`Ethernet68`).
const MIX_WITNESS_PORTS: [&str; 3] = ["Ethernet400", "Ethernet72", "Ethernet512"];
const CATALOGUE_MODEL: &str = "platform nvidia-sn5600  os sonic  ports 128 x 400G";

/// A generated build again, its model `model`, read beside the SKU folders; `None` when it
/// does not build.
fn with_model(b: &Built, model: &str) -> Option<Built> {
    use fabricc::lower::Targets;
    use fabricc::model::{Limits, load};
    use fabricc::output::generate::{BuildInput, generate};
    use fabricc::pipeline;
    use fabricc::render::Templates;
    use fabricc::source::Sources;
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    let text = b.text.replace(CATALOGUE_MODEL, model);
    assert_ne!(text, b.text, "the generated model line");
    let mut sources = Sources::new();
    let limits = Limits::default();
    let at = root().join("tests/data/sonic-skus/change.fab");
    let loaded = load::load_text(&mut sources, &at.to_string_lossy(), text.clone(), &limits);
    let checked = pipeline::check_loaded(&sources, loaded, &limits);
    if checked.errors() > 0 {
        return None;
    }
    let input = BuildInput::of(&checked)?;
    let targets = Targets {
        host: false,
        ..Targets::ALL
    };
    let templates = T.get_or_init(|| Templates::embedded().expect("embedded templates"));
    let files = generate(input, targets, templates).ok()?;
    let files = files
        .into_iter()
        .filter(|a| a.path.starts_with("switches/") || a.path.starts_with("programs/"))
        .map(|a| (a.path, a.contents))
        .collect();
    Some(Built { text, files })
}

/// The program's reasons to reload, as `plan` gives them, and those of GCU's ASIC family:
/// a HWSKU that no list of `GCU_FAMILIES` names (every custom SKU) is no family to GCU, which
/// then refuses every PFC_WD change and every buffer profile field it changes by family
/// (sonic-net/sonic-utilities@691b1bbc4fd2 generic_config_updater/
/// field_operation_validators.py; the program's `gcu_refuses`).
fn reasons_on(sim: &Sim, d: &Data, hwsku: &str) -> Vec<String> {
    let base = sim
        .baseline
        .clone()
        .unwrap_or_else(|| std::rc::Rc::new(sim.config.clone()));
    let want = intended(&sim.config, d, &base);
    let diff = ops(&sim.config, &want);
    let mut reasons = plan(&sim.config, &want, &diff, d, &base);
    let known = fabricc::render::sonic_program::program_view()
        .gcu_families
        .values()
        .any(|skus| skus.contains(&hwsku));
    if !known {
        for (op, path, _) in &diff {
            let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
            if parts[0] == "PFC_WD" || (parts[0] == "BUFFER_PROFILE" && parts.len() == 3) {
                reasons.push(format!("{op} {path}: GCU knows no ASIC family for {hwsku}"));
            }
        }
    }
    if reasons.is_empty()
        && let Err(why) = gcu_check(&want, &diff)
    {
        reasons.push(why);
    }
    reasons
}

/// The property on custom SKUs: converged == fresh on every switch, nothing foreign touched;
/// and the answer to issue 38's question whether a mixed SKU's BREAKOUT_CFG (it lists the
/// 1-way cages too) sends `apply.sh` down its reload path more often: no reload has a
/// BREAKOUT_CFG reason unless a cage's mode changes.
#[test]
fn converge_sonic_on_a_custom_sku_with_breakout_changes() {
    let start = Instant::now();
    let defaults = Sim {
        config: defaults_of("Mellanox-SN5600-MIX.dynamic.json", 72, &MIX_WITNESS_PORTS),
        baseline: None,
    };
    assert_eq!(
        defaults.config["BREAKOUT_CFG"]["Ethernet48"]["brkout_mode"],
        json!("1x800G[400G,200G,100G,50G,40G,25G,10G]")
    );
    let seeded = foreign_of(&defaults.config, &MIX_WITNESS_PORTS);
    let mut cache = FreshCache {
        seeded: seeded.clone(),
        witnesses: &MIX_WITNESS_PORTS,
        states: Default::default(),
    };
    let mut built: std::collections::HashMap<(String, bool), Option<std::rc::Rc<Built>>> =
        Default::default();
    let mut rebuild = |b: &Built, to_b: bool| {
        if built.len() > 4 * 16 {
            built.clear();
        }
        built
            .entry((b.text.clone(), to_b))
            .or_insert_with(|| {
                with_model(b, if to_b { MIX_B } else { MIX_A }).map(std::rc::Rc::new)
            })
            .clone()
    };
    let mut k = 0usize;
    let (mut same, mut changed, mut skipped) = (0usize, 0usize, 0usize);
    let mut reloads: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut one_way_listed = false;
    let mut mode_changes = 0usize;
    let mut overlapping = 0usize;
    let n = for_each_pair(Os::Sonic, 38, PAIRS / 4, |change, older, newer| {
        k += 1;
        let breakout = k.is_multiple_of(4);
        let (Some(old), Some(new)) = (rebuild(older, false), rebuild(newer, breakout)) else {
            skipped += 1;
            return;
        };
        if breakout {
            changed += 1;
        } else {
            same += 1;
        }
        for switch in crate::change_pairs::SWITCHES {
            let o = cache.get(&defaults, &old, switch);
            let nw = cache.get(&defaults, &new, switch);
            one_way_listed |= o.0.fragment.get("BREAKOUT_CFG").is_some_and(|t| {
                t.values().any(|e| {
                    e["brkout_mode"]
                        .as_str()
                        .is_some_and(|m| m.starts_with("1x"))
                })
            });
            let reasons = reasons_on(&o.1, &nw.0, "Mellanox-SN5600-MIX");
            let mut p = Paths::default();
            let converged = apply(&o.1, &nw.0, &mut p);
            for r in &reasons {
                let what = if r.contains("BREAKOUT_CFG") {
                    "BREAKOUT_CFG mode"
                } else if r.contains("recreates ports") {
                    "a cage's ports recreated"
                } else if r.contains("GCU knows no ASIC family") {
                    "GCU: no ASIC family for the custom HWSKU"
                } else {
                    "other"
                };
                *reloads.entry(what.to_string()).or_default() += 1;
            }
            let brk = reasons
                .iter()
                .any(|r| r.contains("BREAKOUT_CFG") || r.contains("recreates ports"));
            mode_changes += usize::from(brk);
            let mut why: Vec<String> = nw.3.iter().chain(o.3.iter()).cloned().collect();
            if brk && !breakout {
                why.push(format!(
                    "a BREAKOUT_CFG reload with no breakout change: {reasons:?}"
                ));
            }
            if converged != nw.1 {
                why.push("converged != fresh".into());
                why.extend(faults("converged", &converged, &seeded, &MIX_WITNESS_PORTS));
            }
            // The ports SONiC creates from the result: no lane on two ports, every lane of the
            // fabric's cages on a port, each port as the SKU of N+1 lays it out (issue 38: before
            // the program recreated a cage's ports, a breakout change kept the old mode's port
            // beside the new ones in 61 of 121 mode changes).
            let mut lanes: BTreeMap<String, &str> = BTreeMap::new();
            let mut overlap = Vec::new();
            for (port, e) in converged.config.get("PORT").into_iter().flatten() {
                for lane in e
                    .get("lanes")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .split(',')
                {
                    if let Some(other) = lanes.insert(lane.to_string(), port) {
                        overlap.push((lane.to_string(), other, port.clone()));
                    }
                }
            }
            if !overlap.is_empty() {
                overlapping += 1;
                why.push(format!("lanes on two ports: {overlap:?}"));
            }
            let ports = converged.config.get("PORT");
            for (p, e) in
                nw.0.fragment
                    .get("PORT")
                    .into_iter()
                    .flatten()
                    .chain(&nw.0.cage_ports)
            {
                let got = ports.and_then(|t| t.get(p));
                for f in ["alias", "index", "lanes", "speed"] {
                    if got.and_then(|g| g.get(f)) != e.get(f) {
                        why.push(format!(
                            "PORT|{p} {f}: {:?}, the SKU {:?}",
                            got.and_then(|g| g.get(f)),
                            e.get(f)
                        ));
                    }
                }
            }
            if !why.is_empty() && failures.len() < 5 {
                failures.push(format!(
                    "pair {k} {change:?} (breakout change: {breakout}) on {switch}: {}",
                    why.join("; ")
                ));
            }
        }
    });
    eprintln!(
        "converge_sonic custom SKU: {n} pairs ({same} on one SKU, {changed} with a breakout change, {skipped} not building) in {:.1} s; reload reasons of N -> N+1 (per switch): {reloads:?}; switches whose cage 8 changed mode: {mode_changes}, left with a lane on two ports: {overlapping}",
        start.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(one_way_listed, "a 1-way cage in some BREAKOUT_CFG");
    assert!(mode_changes > 0, "some pair changes cage 8's mode");
    assert!(skipped * 10 <= n, "{skipped} of {n} pairs do not build");
}

/// GCU's ASIC family as the program finds it: a Spectrum HWSKU by its exact name (a custom
/// one has none, so its PFC_WD and buffer-profile field changes take the reload path, as GCU
/// refuses them), a Broadcom one by a listed name within it, as GCU's `get_asic_name` matches
/// (sonic-net/sonic-utilities@691b1bbc4fd2 generic_config_updater/
/// field_operation_validators.py:69-76): a SKU folder named after a listed SKU keeps the live
/// path. Before issue 38 the program matched Broadcom names exactly too, and sent the HPN
/// ToR's every watchdog change down the reload path GCU did not need.
#[test]
fn the_program_finds_gcu_s_family_of_a_custom_hwsku() {
    let program = fs::read_to_string(crate::sonic_apply::program_for_tests()).expect("program");
    let start = program.find("<<'PYTHON'\n").expect("helper") + "<<'PYTHON'\n".len();
    let end = start + program[start..].find("\nPYTHON\n").expect("end of helper");
    let helper = program[start..end]
        .trim_end()
        .strip_suffix("main()")
        .expect("ends calling main")
        .to_string();
    let dir = crate::sonic_apply::scratch("family");
    fs::create_dir_all(&dir).expect("mkdir");
    let script = dir.join("family.py");
    fs::write(
        &script,
        format!(
            "{helper}\nfor h in sys.argv[1:]:\n    print(h, family(h), gcu_refuses('replace', '/PFC_WD/Ethernet0/detection_time', '400', h))\n"
        ),
    )
    .expect("write");
    let o = std::process::Command::new("python3")
        .arg(&script)
        .args([
            "Arista-7060X6-64PE-HPN-ToR",
            "arista-7060x6-64pe-o128s2",
            "Mellanox-SN5600-O128",
            "Mellanox-SN5600-MIX",
            "Mellanox-SN5600-O128-mine",
            "Dell-Z9864f-P32O64",
        ])
        .output()
        .expect("python3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Arista-7060X6-64PE-HPN-ToR th5 None", "{out}");
    assert_eq!(lines[1], "arista-7060x6-64pe-o128s2 th5 None", "{out}");
    assert_eq!(lines[2], "Mellanox-SN5600-O128 spc4 None", "{out}");
    // Spectrum: exact names only; GCU then refuses the watchdog change.
    assert!(
        lines[3].starts_with("Mellanox-SN5600-MIX None GCU knows no ASIC family"),
        "{out}"
    );
    assert!(
        lines[4].starts_with("Mellanox-SN5600-O128-mine None "),
        "{out}"
    );
    // A Broadcom SKU GCU lists under no name (the Z9864F's) has no family either.
    assert!(lines[5].starts_with("Dell-Z9864f-P32O64 None "), "{out}");
    let _ = fs::remove_dir_all(&dir);
}

/// The real program on the fakes, across a breakout change (issue 38): a switch on the mixed
/// SKU's defaults (cage 8 as 1 x 800G) takes build N on `a` (which does not use cage 8), N+1
/// on `b` (the fabric's ports move onto cage 8 as 2 x 400G: `Ethernet56` recreated on four
/// lanes, `Ethernet60` created) and N+2 on `a` again (cage 8 left the fabric: its ports as
/// before fabricc, `Ethernet60` goes). CONFIG_DB equals the model after each, no lane is on two ports, and
/// the new ports are the SKU's rows. Then a port that goes but that other configuration still
/// names (an IP address) stops the preflight, and nothing changes.
#[test]
fn the_program_recreates_a_cage_whose_breakout_changed() {
    use crate::sonic_apply::{Switch, program_for_tests, scratch, text};
    let program = program_for_tests();
    // The first pair whose older fabric uses cage 8 on `b` and not on `a` (no more fabrics
    // are built after it).
    let found = find_pair(Os::Sonic, 38, 40, |change, older, _| {
        let (Some(a), Some(b)) = (with_model(older, MIX_A), with_model(older, MIX_B)) else {
            return false;
        };
        let uses_cage_8 = |d: &Data| {
            d.fragment
                .get("BREAKOUT_CFG")
                .is_some_and(|t| t.contains_key("Ethernet56"))
        };
        let Some(name) = crate::change_pairs::SWITCHES
            .into_iter()
            .find(|s| !uses_cage_8(&data(&a, s)) && uses_cage_8(&data(&b, s)))
        else {
            return false;
        };
        let (da, db) = (data(&a, name), data(&b, name));
        let dir = scratch("breakout");
        let switch = Switch::with_defaults(
            &dir,
            "tests/data/sonic-defaults/Mellanox-SN5600-MIX.dynamic.json",
        );
        let mut model = Sim {
            config: config_of(&switch.printed()),
            baseline: None,
        };
        let mut p = Paths::default();
        for (i, (built, d)) in [(&a, &da), (&b, &db), (&a, &da)].into_iter().enumerate() {
            let folder = dir.join(format!("b{i}/switches/{name}"));
            fs::create_dir_all(&folder).expect("mkdir");
            for (name, contents) in built.device(name) {
                fs::write(folder.join(name), contents).expect("write");
            }
            let o = switch.run_program(&program, &folder, &["--yes", "--any-hostname"]);
            let out = text(&o);
            assert_eq!(o.status.code(), Some(0), "{change:?} build {i}: {out}");
            if i > 0 {
                assert!(
                    out.contains("recreates ports") && out.contains("reload path"),
                    "build {i} changes cage 8's breakout: {out}"
                );
            }
            model = apply(&model, d, &mut p);
            let got = config_of(&switch.printed());
            assert!(
                got == model.config,
                "{change:?} build {i}: the program and the model differ"
            );
            let ports = got.get("PORT").expect("PORT");
            let want: &[(&str, &str, &str)] = if i == 1 {
                &[
                    ("Ethernet56", "56,57,58,59", "etp8a"),
                    ("Ethernet60", "60,61,62,63", "etp8b"),
                ]
            } else {
                &[("Ethernet56", "56,57,58,59,60,61,62,63", "etp8")]
            };
            for (port, lanes, alias) in want {
                let e = ports
                    .get(*port)
                    .unwrap_or_else(|| panic!("build {i}: no {port}"));
                assert_eq!(e.get("lanes"), Some(&json!(lanes)), "build {i} {port}");
                assert_eq!(e.get("alias"), Some(&json!(alias)), "build {i} {port}");
                assert_eq!(e.get("index"), Some(&json!("8")), "build {i} {port}");
            }
            assert_eq!(
                ports.contains_key("Ethernet60"),
                i == 1,
                "build {i}: Ethernet60"
            );
            assert_eq!(
                got["BREAKOUT_CFG"]["Ethernet56"]["brkout_mode"]
                    .as_str()
                    .map(|m| m.starts_with(if i == 1 { "2x" } else { "1x" })),
                Some(true),
                "build {i}"
            );
        }
        // Back on `b`, an address on Ethernet60; then `a` would remove the port.
        let folder_b = dir.join(format!("b1/switches/{name}"));
        let o = switch.run_program(&program, &folder_b, &["--yes", "--any-hostname"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        switch.seed(|v| {
            v["INTERFACE"] = json!({"Ethernet60": {}, "Ethernet60|10.1.0.1/31": {}});
        });
        let before = switch.printed();
        let o = switch.run_program(
            &program,
            &dir.join(format!("b2/switches/{name}")),
            &["--yes", "--any-hostname"],
        );
        let out = text(&o);
        assert_eq!(o.status.code(), Some(3), "{out}");
        assert!(
            out.contains("INTERFACE|Ethernet60|10.1.0.1/31")
                && out.contains("config interface breakout"),
            "{out}"
        );
        assert_eq!(switch.printed(), before, "a refused apply changes nothing");
        true
    });
    assert!(found, "a generated fabric whose leaf1 uses cage 8");
}
