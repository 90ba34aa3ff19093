//! Validators for generated files, used by the golden and integration tests (test code: it
//! is not part of the compiler).
//!
//! In: a generated SONiC `config_db.fragment.json` (parsed) or a host script (text). Out: a
//! list of human-readable violations, empty when the file passes. `validate_sonic` checks the
//! rules of SONiC's YANG models (sonic-net/sonic-buildimage@086b03bd70f9:
//! src/sonic-yang-models/yang-models/; tagged Y-1…Y-20 below) that apply to the tables fabricc
//! writes, plus consistency rules those models leave unchecked (tagged §7: no overlapping
//! PG/queue ranges, pfcwd ⊆ pfc, a lossless PG for every PFC priority).
//! `scripts/sonic-yang-check` runs the YANG models themselves. `validate_mlnx_qos` checks every `mlnx_qos`
//! command line of a host script; `parse_mlnx_qos` is the option grammar it rests on, the
//! real tool's (`optparse` prefixes and `=` values, its own checks and exit codes:
//! Mellanox/mlnx-tools@8fbfd9cfff34:python/mlnx_qos), which the host-script tests also
//! apply to every call the script makes.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// Fields each modelled table accepts (Y-4). Tables not listed are not checked for fields.
fn allowed_fields(table: &str) -> Option<&'static [&'static str]> {
    Some(match table {
        "DEVICE_METADATA" => &[
            "hostname",
            "buffer_model",
            "type",
            "platform",
            "hwsku",
            "mac",
            "bgp_asn",
            "default_pfcwd_status",
            "switch_type",
            "deployment_id",
            "asic_name",
            "region",
        ],
        "PORT" => &[
            "speed",
            "mtu",
            "lanes",
            "admin_status",
            "fec",
            "pfc_asym",
            "autoneg",
            "adv_speeds",
            "alias",
            "description",
            "index",
        ],
        "BUFFER_POOL" => &["type", "mode", "size", "xoff", "percentage"],
        "BUFFER_PROFILE" => &[
            "pool",
            "size",
            "xon",
            "xoff",
            "xon_offset",
            "dynamic_th",
            "static_th",
            "headroom_type",
            "packet_discard_action",
        ],
        "BUFFER_PG" | "BUFFER_QUEUE" => &["profile"],
        "BUFFER_PORT_INGRESS_PROFILE_LIST" | "BUFFER_PORT_EGRESS_PROFILE_LIST" => &["profile_list"],
        "PORT_QOS_MAP" => &[
            "dscp_to_tc_map",
            "tc_to_queue_map",
            "tc_to_pg_map",
            "pfc_to_queue_map",
            "pfc_to_pg_map",
            "dot1p_to_tc_map",
            "tc_to_dscp_map",
            "scheduler",
            "pfc_enable",
            "pfcwd_sw_enable",
        ],
        "WRED_PROFILE" => &[
            "green_min_threshold",
            "green_max_threshold",
            "yellow_min_threshold",
            "yellow_max_threshold",
            "red_min_threshold",
            "red_max_threshold",
            "green_drop_probability",
            "yellow_drop_probability",
            "red_drop_probability",
            "wred_green_enable",
            "wred_yellow_enable",
            "wred_red_enable",
            "ecn",
        ],
        "SCHEDULER" => &[
            "type",
            "weight",
            "priority",
            "meter_type",
            "cir",
            "pir",
            "cbs",
            "pbs",
        ],
        "QUEUE" => &["scheduler", "wred_profile"],
        "PFC_WD" => &[
            "action",
            "detection_time",
            "restoration_time",
            "pfc_stat_history",
            "POLL_INTERVAL",
        ],
        "DEFAULT_LOSSLESS_BUFFER_PARAMETER" => &["default_dynamic_th", "over_subscribe_ratio"],
        "LOSSLESS_TRAFFIC_PATTERN" => &["mtu", "small_packet_percentage"],
        "SWITCH_HASH" => &fabricc::render::sonic_hash::YANG_FIELDS,
        _ => return None,
    })
}

/// A canonical decimal (no sign, no leading zero) within `0..=max`.
fn num(s: &str, max: u64) -> Option<u64> {
    if s.is_empty() || s.len() > 20 || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if s.len() > 1 && s.starts_with('0') {
        return None;
    }
    s.parse::<u64>().ok().filter(|n| *n <= max)
}

fn int_in(s: &str, lo: i64, hi: i64) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    num(digits, u64::MAX).is_some() && s.parse::<i64>().is_ok_and(|n| (lo..=hi).contains(&n))
}

/// `a` or `a-b` with both ends ≤ max and a ≤ b.
fn index_range(s: &str, max: u64) -> Option<(u64, u64)> {
    match s.split_once('-') {
        None => num(s, max).map(|n| (n, n)),
        Some((a, b)) => {
            let (a, b) = (num(a, max)?, num(b, max)?);
            (a <= b).then_some((a, b))
        }
    }
}

/// `[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}`.
fn object_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(x) if x.is_ascii_alphanumeric())
        && s.len() <= 32
        && c.all(|x| x.is_ascii_alphanumeric() || x == '-' || x == '_')
}

/// `([0-7](,[0-7])*)?`.
fn prio_list(s: &str) -> Option<BTreeSet<u64>> {
    if s.is_empty() {
        return Some(BTreeSet::new());
    }
    s.split(',')
        .map(|p| (p.len() == 1).then(|| num(p, 7)).flatten())
        .collect()
}

type Rows<'a> = BTreeMap<&'a str, &'a serde_json::Map<String, Value>>;

/// A fragment as the apply program reads it: in the tables whose keys may list ports
/// (`fabricc::render::sonic::PORT_LIST_TABLES`), `Ethernet0,Ethernet4|3` is one key per port
/// (`load_fragment` in programs/sonic/apply.sh, orchagent's `list_item_delimiter`).
pub fn split_port_lists(doc: &Value) -> Value {
    let mut doc = doc.clone();
    let Some(root) = doc.as_object_mut() else {
        return doc;
    };
    for table in fabricc::render::sonic::PORT_LIST_TABLES {
        let Some(Value::Object(rows)) = root.get_mut(table) else {
            continue;
        };
        let mut split = serde_json::Map::new();
        for (key, fields) in std::mem::take(rows) {
            let (ports, rest) = match key.split_once('|') {
                Some((p, r)) => (p, Some(r)),
                None => (key.as_str(), None),
            };
            for p in ports.split(',').filter(|p| !p.is_empty()) {
                let k = rest.map_or_else(|| p.to_string(), |r| format!("{p}|{r}"));
                assert!(
                    split.insert(k.clone(), fields.clone()).is_none(),
                    "{table}|{k} twice in the fragment"
                );
            }
        }
        *rows = split;
    }
    doc
}

/// Check a SONiC `config_db.json` document (a fragment's port lists split first, as the apply
/// program does before YANG sees it). Returns one message per violation.
pub fn validate_sonic(doc: &Value) -> Vec<String> {
    let doc = &split_port_lists(doc);
    let mut errs = Vec::new();
    let Some(root) = doc.as_object() else {
        return vec!["config_db.json is not a JSON object".into()];
    };
    // Y-1 shape and string values; collect rows.
    let mut tables: BTreeMap<&str, Rows> = BTreeMap::new();
    for (table, rows) in root {
        let Some(rows) = rows.as_object() else {
            errs.push(format!("{table}: not an object"));
            continue;
        };
        let mut out = Rows::new();
        for (key, fields) in rows {
            let Some(fields) = fields.as_object() else {
                errs.push(format!("{table}|{key}: not an object"));
                continue;
            };
            for (f, v) in fields {
                // SWITCH_HASH's leaf-lists are lists (Y-20 checks them).
                let leaf_list = table == "SWITCH_HASH"
                    && fabricc::render::sonic_hash::LIST_FIELDS.contains(&f.as_str());
                if !v.is_string() && !leaf_list {
                    errs.push(format!("Y-1 {table}|{key}.{f}: value is not a string"));
                }
                if let Some(s) = v.as_str()
                    && s.starts_with('[')
                {
                    errs.push(format!("Y-3 {table}|{key}.{f}: `[TABLE|name]` reference"));
                }
                if let Some(allowed) = allowed_fields(table)
                    && !allowed.contains(&f.as_str())
                {
                    errs.push(format!("Y-4 {table}|{key}: unknown field `{f}`"));
                }
            }
            out.insert(key.as_str(), fields);
        }
        tables.insert(table.as_str(), out);
    }
    let empty = Rows::new();
    let t = |name: &str| tables.get(name).unwrap_or(&empty);
    let s = |fields: &serde_json::Map<String, Value>, f: &str| -> Option<String> {
        fields.get(f).and_then(Value::as_str).map(str::to_string)
    };
    let ports: BTreeSet<&str> = t("PORT").keys().copied().collect();
    let has = |table: &str, name: &str| t(table).contains_key(name);

    // Y-20 SWITCH_HASH (sonic-hash.yang; orchagent's parser)
    if let Some(table) = root.get("SWITCH_HASH").and_then(Value::as_object) {
        errs.extend(fabricc::render::sonic_hash::validate(table));
    }

    // Y-19
    if let Some(md) = t("DEVICE_METADATA").get("localhost")
        && let Some(m) = s(md, "buffer_model")
        && m != "traditional"
        && m != "dynamic"
    {
        errs.push(format!("Y-19 buffer_model `{m}`"));
    }
    let dynamic_model = t("DEVICE_METADATA")
        .get("localhost")
        .and_then(|m| s(m, "buffer_model"))
        .is_some_and(|m| m == "dynamic");

    // Y-5 PORT
    for (p, f) in t("PORT") {
        if p.contains(',') || p.contains('|') {
            errs.push(format!("Y-2 PORT key `{p}`"));
        }
        match s(f, "speed") {
            Some(v) if num(&v, 1_600_000).is_some_and(|n| n >= 1) => {}
            _ => errs.push(format!("Y-5 PORT|{p}: speed missing or outside 1..1600000")),
        }
        if s(f, "lanes").is_none() {
            errs.push(format!("Y-5 PORT|{p}: lanes missing"));
        }
        if let Some(m) = s(f, "mtu")
            && num(&m, 9216).is_none_or(|n| n < 68)
        {
            errs.push(format!("Y-5 PORT|{p}: mtu {m} outside 68..9216"));
        }
        if let Some(fec) = s(f, "fec")
            && !["rs", "fc", "none", "auto"].contains(&fec.as_str())
        {
            errs.push(format!("Y-5 PORT|{p}: fec `{fec}`"));
        }
        if let Some(a) = s(f, "pfc_asym")
            && a != "on"
            && a != "off"
        {
            errs.push(format!("Y-5 PORT|{p}: pfc_asym `{a}`"));
        }
    }

    // Y-6 CABLE_LENGTH
    for (name, f) in t("CABLE_LENGTH") {
        if !object_name(name) {
            errs.push(format!("Y-6 CABLE_LENGTH name `{name}`"));
        }
        for (p, v) in f.iter() {
            if !ports.contains(p.as_str()) {
                errs.push(format!("Y-3 CABLE_LENGTH|{name}: port `{p}` not in PORT"));
            }
            let ok = v
                .as_str()
                .and_then(|v| v.strip_suffix('m'))
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
            if !ok {
                errs.push(format!("Y-6 CABLE_LENGTH|{name}.{p}: `{v}` is not `<n>m`"));
            }
        }
    }

    // Y-7 BUFFER_POOL
    for (name, f) in t("BUFFER_POOL") {
        if !matches!(s(f, "type").as_deref(), Some("ingress" | "egress" | "both")) {
            errs.push(format!("Y-7 BUFFER_POOL|{name}: type missing or invalid"));
        }
        if !matches!(s(f, "mode").as_deref(), Some("static" | "dynamic")) {
            errs.push(format!("Y-7 BUFFER_POOL|{name}: mode missing or invalid"));
        }
        for field in ["size", "xoff"] {
            if let Some(v) = s(f, field)
                && num(&v, u64::MAX).is_none()
            {
                errs.push(format!(
                    "Y-7 BUFFER_POOL|{name}.{field}: `{v}` not a uint64"
                ));
            }
        }
        if f.contains_key("percentage") && (f.contains_key("size") || !dynamic_model) {
            errs.push(format!(
                "Y-7 BUFFER_POOL|{name}: percentage with size or outside the dynamic model"
            ));
        }
    }

    // Y-8 BUFFER_PROFILE
    for (name, f) in t("BUFFER_PROFILE") {
        match s(f, "pool") {
            Some(pool) if has("BUFFER_POOL", &pool) => {}
            Some(pool) => errs.push(format!("Y-3 BUFFER_PROFILE|{name}: pool `{pool}` missing")),
            None => errs.push(format!("Y-8 BUFFER_PROFILE|{name}: pool missing")),
        }
        if s(f, "size").is_none() {
            errs.push(format!("Y-8 BUFFER_PROFILE|{name}: size missing"));
        }
        for field in ["size", "xon", "xoff", "xon_offset", "static_th"] {
            if let Some(v) = s(f, field)
                && num(&v, u64::MAX).is_none()
            {
                errs.push(format!(
                    "Y-8 BUFFER_PROFILE|{name}.{field}: `{v}` not a uint64"
                ));
            }
        }
        if let Some(v) = s(f, "dynamic_th")
            && !int_in(&v, -8, 7)
        {
            errs.push(format!(
                "Y-8 BUFFER_PROFILE|{name}.dynamic_th `{v}` outside -8..7"
            ));
        }
        if let Some(v) = s(f, "headroom_type")
            && v != "static"
            && v != "dynamic"
        {
            errs.push(format!("Y-8 BUFFER_PROFILE|{name}.headroom_type `{v}`"));
        }
        if let Some(v) = s(f, "packet_discard_action")
            && v != "drop"
            && v != "trim"
        {
            errs.push(format!(
                "Y-8 BUFFER_PROFILE|{name}.packet_discard_action `{v}`"
            ));
        }
    }

    // Y-9 / Y-10 BUFFER_PG, BUFFER_QUEUE (+ §7 overlaps)
    let mut pg_ranges: BTreeMap<&str, Vec<(u64, u64, String)>> = BTreeMap::new();
    for (table, max, rule) in [("BUFFER_PG", 7, "Y-9"), ("BUFFER_QUEUE", 15, "Y-10")] {
        let mut seen: BTreeMap<&str, Vec<(u64, u64)>> = BTreeMap::new();
        for (key, f) in t(table) {
            let Some((port, idx)) = key.split_once('|') else {
                errs.push(format!("Y-2 {table} key `{key}` needs `<port>|<index>`"));
                continue;
            };
            if !ports.contains(port) {
                errs.push(format!("Y-3 {table}|{key}: port `{port}` not in PORT"));
            }
            let Some((a, b)) = index_range(idx, max) else {
                errs.push(format!(
                    "{rule} {table}|{key}: index `{idx}` does not match the pattern"
                ));
                continue;
            };
            let ranges = seen.entry(port).or_default();
            if ranges.iter().any(|&(x, y)| a <= y && x <= b) {
                errs.push(format!(
                    "§7 {table}|{key}: overlaps another range of `{port}`"
                ));
            }
            ranges.push((a, b));
            let profile = s(f, "profile").unwrap_or_default();
            let null_ok = table == "BUFFER_PG" && profile == "NULL";
            if !null_ok && !has("BUFFER_PROFILE", &profile) {
                errs.push(format!("Y-3 {table}|{key}: profile `{profile}` missing"));
            }
            if table == "BUFFER_PG" {
                pg_ranges.entry(port).or_default().push((a, b, profile));
            }
        }
    }
    for table in [
        "BUFFER_PORT_INGRESS_PROFILE_LIST",
        "BUFFER_PORT_EGRESS_PROFILE_LIST",
    ] {
        for (port, f) in t(table) {
            if !ports.contains(port) {
                errs.push(format!("Y-3 {table}|{port}: port not in PORT"));
            }
            for prof in s(f, "profile_list").unwrap_or_default().split(',') {
                if !has("BUFFER_PROFILE", prof) {
                    errs.push(format!("Y-3 {table}|{port}: profile `{prof}` missing"));
                }
            }
        }
    }

    // Y-11 / Y-12 maps
    for (name, f) in t("DSCP_TO_TC_MAP") {
        for (k, v) in f.iter() {
            if num(k, 63).is_none() {
                errs.push(format!("Y-11 DSCP_TO_TC_MAP|{name}: invalid DSCP `{k}`"));
            }
            if v.as_str().is_none_or(|v| num(v, 15).is_none()) {
                errs.push(format!(
                    "Y-11 DSCP_TO_TC_MAP|{name}.{k}: TC `{v}` outside 0..15"
                ));
            }
        }
    }
    for (table, kmax, vmax) in [
        ("TC_TO_PRIORITY_GROUP_MAP", 15, 7),
        ("TC_TO_QUEUE_MAP", 15, 9),
        ("MAP_PFC_PRIORITY_TO_QUEUE", 7, 7),
        ("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", 7, 7),
    ] {
        for (name, f) in t(table) {
            for (k, v) in f.iter() {
                let v_ok = v
                    .as_str()
                    .is_some_and(|v| v.len() == 1 && num(v, vmax).is_some());
                if num(k, kmax).is_none() || !v_ok {
                    errs.push(format!("Y-12 {table}|{name}: `{k}` → `{v}` out of range"));
                }
            }
        }
    }

    // Y-13 PORT_QOS_MAP (+ §7 pfcwd ⊆ pfc, lossless PG coverage)
    let map_fields = [
        ("dscp_to_tc_map", "DSCP_TO_TC_MAP"),
        ("tc_to_queue_map", "TC_TO_QUEUE_MAP"),
        ("tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP"),
        ("pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE"),
        ("pfc_to_pg_map", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"),
        ("dot1p_to_tc_map", "DOT1P_TO_TC_MAP"),
        ("tc_to_dscp_map", "TC_TO_DSCP_MAP"),
        ("scheduler", "SCHEDULER"),
    ];
    for (key, f) in t("PORT_QOS_MAP") {
        if *key != "global" && !ports.contains(key) {
            errs.push(format!(
                "Y-13 PORT_QOS_MAP|{key}: not `global` and not a port"
            ));
        }
        for (field, table) in map_fields {
            if let Some(name) = s(f, field)
                && !has(table, &name)
            {
                errs.push(format!(
                    "Y-3 PORT_QOS_MAP|{key}.{field}: `{name}` missing in {table}"
                ));
            }
        }
        let pfc = s(f, "pfc_enable").map(|v| (prio_list(&v), v));
        let wd = s(f, "pfcwd_sw_enable").map(|v| (prio_list(&v), v));
        for (field, val) in [("pfc_enable", &pfc), ("pfcwd_sw_enable", &wd)] {
            if let Some((None, raw)) = val {
                errs.push(format!(
                    "Y-13 PORT_QOS_MAP|{key}.{field}: `{raw}` does not match ([0-7](,[0-7])*)?"
                ));
            }
        }
        let pfc_set = pfc
            .as_ref()
            .and_then(|(p, _)| p.clone())
            .unwrap_or_default();
        if let Some((Some(w), _)) = &wd
            && !w.is_subset(&pfc_set)
        {
            errs.push(format!(
                "§7 PORT_QOS_MAP|{key}: pfcwd_sw_enable is not a subset of pfc_enable"
            ));
        }
        for p in &pfc_set {
            let covered = pg_ranges.get(key).is_some_and(|r| {
                r.iter()
                    .any(|(a, b, prof)| a <= p && p <= b && prof != "ingress_lossy_profile")
            });
            if !covered {
                errs.push(format!(
                    "§7 PORT_QOS_MAP|{key}: PFC priority {p} has no lossless BUFFER_PG"
                ));
            }
        }
    }

    // Y-14 WRED_PROFILE
    for (name, f) in t("WRED_PROFILE") {
        if !object_name(name) {
            errs.push(format!("Y-14 WRED_PROFILE name `{name}`"));
        }
        for colour in ["green", "yellow", "red"] {
            let min = s(f, &format!("{colour}_min_threshold")).and_then(|v| num(&v, u64::MAX));
            let max = s(f, &format!("{colour}_max_threshold")).and_then(|v| num(&v, u64::MAX));
            if let (Some(a), Some(b)) = (min, max)
                && b < a
            {
                errs.push(format!("Y-14 WRED_PROFILE|{name}: {colour} max < min"));
            }
            if let Some(p) = s(f, &format!("{colour}_drop_probability"))
                && num(&p, 100).is_none()
            {
                errs.push(format!(
                    "Y-14 WRED_PROFILE|{name}: {colour} probability `{p}`"
                ));
            }
            if let Some(e) = s(f, &format!("wred_{colour}_enable"))
                && e != "true"
                && e != "false"
            {
                errs.push(format!(
                    "Y-14 WRED_PROFILE|{name}: wred_{colour}_enable `{e}`"
                ));
            }
        }
        if let Some(e) = s(f, "ecn") {
            let ok = [
                "ecn_none",
                "ecn_green",
                "ecn_yellow",
                "ecn_red",
                "ecn_green_yellow",
                "ecn_green_red",
                "ecn_yellow_red",
                "ecn_all",
            ];
            if !ok.contains(&e.as_str()) {
                errs.push(format!("Y-14 WRED_PROFILE|{name}: ecn `{e}`"));
            }
        }
    }

    // Y-15 SCHEDULER
    for (name, f) in t("SCHEDULER") {
        if let Some(ty) = s(f, "type")
            && !["DWRR", "WRR", "STRICT"].contains(&ty.as_str())
        {
            errs.push(format!("Y-15 SCHEDULER|{name}: type `{ty}`"));
        }
        if let Some(w) = s(f, "weight")
            && num(&w, 100).is_none_or(|n| n < 1)
        {
            errs.push(format!(
                "Y-15 SCHEDULER|{name}: weight `{w}` outside 1..100"
            ));
        }
        if let Some(p) = s(f, "priority")
            && num(&p, 9).is_none()
        {
            errs.push(format!(
                "Y-15 SCHEDULER|{name}: priority `{p}` outside 0..9"
            ));
        }
        if let Some(m) = s(f, "meter_type")
            && m != "packets"
            && m != "bytes"
        {
            errs.push(format!("Y-15 SCHEDULER|{name}: meter_type `{m}`"));
        }
        let n = |k: &str| s(f, k).and_then(|v| num(&v, u64::MAX));
        if f.contains_key("pir") && !f.contains_key("cir") {
            errs.push(format!("Y-15 SCHEDULER|{name}: pir without cir"));
        }
        if let (Some(c), Some(p)) = (n("cir"), n("pir"))
            && p < c
        {
            errs.push(format!("Y-15 SCHEDULER|{name}: pir < cir"));
        }
        if let (Some(c), Some(p)) = (n("cbs"), n("pbs"))
            && p < c
        {
            errs.push(format!("Y-15 SCHEDULER|{name}: pbs < cbs"));
        }
    }

    // Y-16 QUEUE
    let voq = t("DEVICE_METADATA")
        .get("localhost")
        .and_then(|m| s(m, "switch_type"))
        .is_some_and(|v| v == "voq");
    for (key, f) in t("QUEUE") {
        let Some((port, _q)) = key.split_once('|') else {
            errs.push(format!("Y-2 QUEUE key `{key}` needs `<port>|<queue>`"));
            continue;
        };
        if voq {
            errs.push(format!(
                "Y-16 QUEUE|{key}: plain queue key with switch_type voq"
            ));
        }
        if port != "CPU" && !ports.contains(port) {
            errs.push(format!("Y-16 QUEUE|{key}: port `{port}` not in PORT"));
        }
        if let Some(sch) = s(f, "scheduler")
            && !has("SCHEDULER", &sch)
        {
            errs.push(format!("Y-3 QUEUE|{key}: scheduler `{sch}` missing"));
        }
        if let Some(w) = s(f, "wred_profile")
            && !has("WRED_PROFILE", &w)
        {
            errs.push(format!("Y-3 QUEUE|{key}: wred_profile `{w}` missing"));
        }
    }

    // Y-17 PFC_WD
    let poll = t("PFC_WD")
        .get("GLOBAL")
        .and_then(|g| s(g, "POLL_INTERVAL"))
        .and_then(|v| num(&v, u64::MAX));
    for (key, f) in t("PFC_WD") {
        if *key == "GLOBAL" {
            for field in f.keys() {
                if field != "POLL_INTERVAL" {
                    errs.push(format!(
                        "Y-17 PFC_WD|GLOBAL: `{field}` only allowed per port"
                    ));
                }
            }
            if !poll.is_some_and(|p| (100..=1000).contains(&p)) {
                errs.push("Y-17 PFC_WD|GLOBAL: POLL_INTERVAL missing or outside 100..1000".into());
            }
            continue;
        }
        if !ports.contains(key) {
            errs.push(format!("Y-3 PFC_WD|{key}: port not in PORT"));
        }
        if f.contains_key("POLL_INTERVAL") {
            errs.push(format!("Y-17 PFC_WD|{key}: POLL_INTERVAL only in GLOBAL"));
        }
        if let Some(a) = s(f, "action")
            && !["drop", "forward", "alert"].contains(&a.as_str())
        {
            errs.push(format!("Y-17 PFC_WD|{key}: action `{a}`"));
        }
        if let Some(h) = s(f, "pfc_stat_history")
            && h != "enable"
            && h != "disable"
        {
            errs.push(format!("Y-17 PFC_WD|{key}: pfc_stat_history `{h}`"));
        }
        for (field, lo, hi) in [
            ("detection_time", 100, 5000),
            ("restoration_time", 100, 60000),
        ] {
            if let Some(v) = s(f, field) {
                match num(&v, u64::MAX) {
                    Some(n) if (lo..=hi).contains(&n) => {
                        if poll.is_some_and(|p| n < p) {
                            errs.push(format!("Y-17 PFC_WD|{key}: {field} below POLL_INTERVAL"));
                        }
                    }
                    _ => errs.push(format!(
                        "Y-17 PFC_WD|{key}: {field} `{v}` outside {lo}..{hi}"
                    )),
                }
            }
        }
    }

    // Y-18 dynamic-model input tables
    for (name, f) in t("DEFAULT_LOSSLESS_BUFFER_PARAMETER") {
        if !s(f, "default_dynamic_th").is_some_and(|v| int_in(&v, -8, 7)) {
            errs.push(format!(
                "Y-18 DEFAULT_LOSSLESS_BUFFER_PARAMETER|{name}: default_dynamic_th"
            ));
        }
    }
    for (name, f) in t("LOSSLESS_TRAFFIC_PATTERN") {
        let mtu_ok = s(f, "mtu")
            .and_then(|v| num(&v, 9216))
            .is_some_and(|n| n >= 1);
        let spp_ok = s(f, "small_packet_percentage")
            .and_then(|v| num(&v, 100))
            .is_some();
        if !mtu_ok || !spp_ok {
            errs.push(format!(
                "Y-18 LOSSLESS_TRAFFIC_PATTERN|{name}: mtu/small_packet_percentage"
            ));
        }
    }
    errs
}

/// Check every `mlnx_qos` invocation of a host script (backslash continuations joined).
/// The mlx5 program with one host's settings put in (issue 36 item 2): every `$E_NAME` the
/// settings give replaced by its value, and the DSCP map call's argument array by the 64
/// `--dscp2prio set,D,P` it holds, so [`validate_mlnx_qos`] sees the calls the host runs.
pub fn mlnx_qos_with_settings(program: &str, settings: &str) -> String {
    let mut text = program.to_string();
    let values: Vec<(&str, &str)> = settings
        .lines()
        .filter(|l| l.starts_with("E_"))
        .filter_map(|l| l.split_once('='))
        .collect();
    // Longest names first, so `$E_TOS` never eats a part of a longer name.
    let mut sorted = values.clone();
    sorted.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    for (k, v) in &sorted {
        text = text.replace(&format!("\"${k}\""), v);
    }
    let map = values
        .iter()
        .find(|(k, _)| *k == "E_DSCP2PRIO")
        .map_or("", |(_, v)| v);
    let sets: Vec<String> = map
        .split(',')
        .enumerate()
        .map(|(d, p)| format!("--dscp2prio set,{d},{p}"))
        .collect();
    text.replace(
        "run mlnx_qos -i \"$1\" \"${args[@]}\"",
        &format!("run mlnx_qos -i \"$1\" {}", sets.join(" ")),
    )
}

pub fn validate_mlnx_qos(script: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let mut joined = Vec::new();
    let mut cur = String::new();
    for line in script.lines() {
        if let Some(head) = line.strip_suffix('\\') {
            cur.push_str(head);
            cur.push(' ');
        } else {
            cur.push_str(line);
            joined.push(std::mem::take(&mut cur));
        }
    }
    for line in joined {
        let words: Vec<String> = line
            .split_whitespace()
            .map(|w| w.trim_matches(|c| c == '"' || c == '\'').to_string())
            .collect();
        // `mlnx_qos` as the command word (optionally behind `run`/`sudo`), not as a mention.
        let Some(pos) = words.iter().position(|w| w == "mlnx_qos") else {
            continue;
        };
        if !words[..pos]
            .iter()
            .all(|w| w == "run" || w == "sudo" || w == "exec")
        {
            continue;
        }
        errs.extend(check_mlnx_qos(&line, &words[pos + 1..]));
    }
    errs
}

/// The options of `mlnx_qos` (Mellanox/mlnx-tools@8fbfd9cfff34:python/mlnx_qos): short
/// spelling, long spelling, whether it takes a value. Every option takes exactly one string
/// except `-a` (a flag); `--dscp2prio` may repeat (`action="append"`).
const MLNX_QOS_OPTIONS: &[(Option<&str>, &str, bool)] = &[
    (Some("-f"), "--pfc", true),
    (Some("-F"), "--specific_pfc", true),
    (Some("-P"), "--get_pfc", true),
    (Some("-p"), "--prio_tc", true),
    (Some("-s"), "--tsa", true),
    (Some("-t"), "--tcbw", true),
    (Some("-r"), "--ratelimit", true),
    (Some("-d"), "--dcbx", true),
    (None, "--trust", true),
    (None, "--dscp2prio", true),
    (None, "--cable_len", true),
    (None, "--prio2buffer", true),
    (None, "--buffer_size", true),
    (Some("-i"), "--interface", true),
    (Some("-a"), "-a", false),
    (Some("-h"), "--help", false),
    (None, "--version", false),
];

/// How `mlnx_qos` ends on a command line it refuses: optparse errors exit 2, the tool's own
/// checks exit 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MlnxQosRefusal {
    pub exit: u8,
    pub message: String,
}

/// Parses `mlnx_qos` arguments the way `optparse` does for the real tool: a long option may be
/// any unique prefix (`--tru` is `--trust`), `--opt=value` or `--opt value`, a short option's
/// value may be glued (`-f0,0,…`); then applies the tool's own checks in its order. `Ok` holds
/// the options by long name.
pub fn parse_mlnx_qos(
    args: &[String],
) -> Result<BTreeMap<&'static str, Vec<String>>, MlnxQosRefusal> {
    let refuse = |exit: u8, message: String| MlnxQosRefusal { exit, message };
    let mut opts: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let (spec, inline) = if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let full = format!("--{name}");
            let hits: Vec<_> = MLNX_QOS_OPTIONS
                .iter()
                .filter(|o| o.1.starts_with("--") && o.1.starts_with(&full))
                .collect();
            let exact = hits.iter().find(|o| o.1 == full);
            match (exact, hits.as_slice()) {
                (Some(o), _) | (None, [o]) => (**o, inline),
                (None, []) => return Err(refuse(2, format!("no such option: {full}"))),
                (None, _) => {
                    return Err(refuse(2, format!("ambiguous option: {full}")));
                }
            }
        } else if arg.len() >= 2 && arg.starts_with('-') {
            let short = &arg[..2];
            let Some(o) = MLNX_QOS_OPTIONS.iter().find(|o| o.0 == Some(short)) else {
                return Err(refuse(2, format!("no such option: {short}")));
            };
            let rest = &arg[2..];
            if !o.2 && !rest.is_empty() {
                return Err(refuse(2, format!("no such option: -{}", &rest[..1])));
            }
            (*o, (!rest.is_empty()).then(|| rest.to_string()))
        } else {
            // A positional argument: "Bad arguments", exit 1.
            return Err(refuse(1, format!("Bad arguments ({arg})")));
        };
        let (_, long, takes_value) = spec;
        let value = if takes_value {
            match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    match args.get(i) {
                        Some(v) => v.clone(),
                        None => {
                            return Err(refuse(2, format!("{long} option requires 1 argument")));
                        }
                    }
                }
            }
        } else if inline.is_some() {
            return Err(refuse(2, format!("{long} option does not take a value")));
        } else {
            String::new()
        };
        let slot = opts.entry(long).or_default();
        if long == "--dscp2prio" || slot.is_empty() {
            slot.push(value);
        } else {
            // optparse keeps the last value of a repeated store option.
            *slot = vec![value];
        }
        i += 1;
    }
    if !opts.contains_key("--interface") {
        return Err(refuse(1, "Interface name is required".into()));
    }
    let list = |o: &str| {
        opts.get(o)
            .and_then(|v| v.last())
            .map(|v| v.split(',').collect::<Vec<_>>())
    };
    let eight = |o: &str, what: &str| -> Result<(), MlnxQosRefusal> {
        match list(o) {
            Some(items) if items.len() != 8 => Err(refuse(
                1,
                format!("{what} list must have 8 items ({o} has {})", items.len()),
            )),
            _ => Ok(()),
        }
    };
    if let Some(c) = opts.get("--cable_len").and_then(|v| v.last())
        && num(c, 0xffff).is_none()
    {
        return Err(refuse(1, format!("Bad value for cable_len: {c}")));
    }
    if let Some(items) = list("--pfc") {
        if items.iter().any(|x| *x != "0" && *x != "1") {
            return Err(refuse(1, "Bad value for PFC".into()));
        }
        eight("--pfc", "pfc")?;
    }
    if opts.contains_key("--dscp2prio") && opts.contains_key("--trust") {
        return Err(refuse(
            1,
            "trust and dscp2prio commands cannot be used at the same time.".into(),
        ));
    }
    for e in opts.get("--dscp2prio").into_iter().flatten() {
        if e == "flush" {
            continue;
        }
        let parts: Vec<&str> = e.split(',').collect();
        let ok = match parts.as_slice() {
            [action, dscp, prio] => {
                (*action == "set" || *action == "del")
                    && num(dscp, 63).is_some()
                    && num(prio, 7).is_some()
            }
            _ => false,
        };
        if !ok {
            return Err(refuse(
                1,
                format!("bad --dscp2prio `{e}` (set|del,DSCP 0..63,PRIO 0..7 or flush)"),
            ));
        }
    }
    if let Some(t) = opts.get("--trust").and_then(|v| v.last())
        && t != "pcp"
        && t != "dscp"
    {
        return Err(refuse(
            1,
            "Invalid trust state command. Refer to the help.".into(),
        ));
    }
    if let Some(items) = list("--prio2buffer") {
        if items.len() > 8 {
            return Err(refuse(1, "Too many items for prio2buffer".into()));
        }
        if items.iter().any(|x| num(x, 7).is_none()) {
            return Err(refuse(1, "Bad value for prio buffer".into()));
        }
    }
    if let Some(items) = list("--buffer_size")
        && items.len() > 8
    {
        return Err(refuse(1, "Too many items for buffer_size".into()));
    }
    if let Some(items) = list("--tsa") {
        if items
            .iter()
            .any(|x| !["strict", "ets", "vendor"].contains(x))
        {
            return Err(refuse(1, "Bad TSA value".into()));
        }
        eight("--tsa", "tsa")?;
    }
    if let Some(items) = list("--tcbw") {
        if items.iter().any(|x| num(x, 100).is_none()) {
            return Err(refuse(1, "Bad value for ETS BW".into()));
        }
        // Against the TSA of this command line; without one, the device's current TSA
        // decides (a fresh port's TCs are all `vendor`).
        let tsa = list("--tsa").unwrap_or_else(|| vec!["vendor"; 8]);
        if items
            .iter()
            .zip(&tsa)
            .any(|(b, t)| *t != "ets" && *b != "0")
        {
            return Err(refuse(1, "ETS BW for a strict/vendor TC must be 0".into()));
        }
        eight("--tcbw", "tcbw")?;
    }
    if let Some(items) = list("--prio_tc") {
        if items.iter().any(|x| num(x, 7).is_none()) {
            return Err(refuse(1, "Bad value for UP => TC mapping".into()));
        }
        eight("--prio_tc", "prio_tc")?;
    }
    Ok(opts)
}

fn check_mlnx_qos(line: &str, args: &[String]) -> Vec<String> {
    let opts = match parse_mlnx_qos(args) {
        Ok(o) => o,
        Err(e) => return vec![format!("{} (exit {}): {line}", e.message, e.exit)],
    };
    let mut errs = Vec::new();
    // Beyond what the tool refuses, what fabricc holds its own commands to:
    // exact option names, ETS in one call summing to 100, a cable length mlx5 does not ignore.
    for a in args {
        if let Some(long) = a.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(n, _)| n);
            if !MLNX_QOS_OPTIONS.iter().any(|o| o.1 == format!("--{name}")) {
                errs.push(format!("abbreviated option `--{name}`: {line}"));
            }
        }
    }
    let list = |o: &str| {
        opts.get(o)
            .and_then(|v| v.last())
            .map(|v| v.split(',').collect::<Vec<_>>())
    };
    let ets_opts = ["--prio_tc", "--tsa", "--tcbw"];
    let present = ets_opts.iter().filter(|o| opts.contains_key(**o)).count();
    if present != 0 && present != 3 {
        errs.push(format!(
            "--prio_tc, --tsa and --tcbw must be given in one call: {line}"
        ));
    }
    if let (Some(tsa), Some(bw)) = (list("--tsa"), list("--tcbw")) {
        let sum: u64 = tsa
            .iter()
            .zip(bw.iter())
            .filter(|(t, _)| **t == "ets")
            .map(|(_, b)| num(b, 100).unwrap_or(0))
            .sum();
        if tsa.contains(&"ets") && sum != 100 {
            errs.push(format!("ETS bandwidths sum to {sum}, not 100: {line}"));
        }
    }
    if let Some(c) = opts.get("--cable_len").and_then(|v| v.last())
        && num(c, 999).is_none()
    {
        errs.push(format!(
            "--cable_len `{c}` must be an integer below 1000: {line}"
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    /// What the real tool does with a command line (Mellanox/mlnx-tools@8fbfd9cfff34:
    /// python/mlnx_qos, an `optparse` parser): accepted, or refused with this exit code and a
    /// message containing the text.
    #[test]
    fn mlnx_qos_grammar() {
        type Want = Result<(), (u8, &'static str)>;
        let table: &[(&str, Want)] = &[
            // the forms fabricc's scripts emit
            ("-i eth0 -a", Ok(())),
            ("-i eth0 --trust dscp", Ok(())),
            ("-i eth0 --pfc 0,0,0,1,0,0,0,0", Ok(())),
            (
                "-i eth0 --dscp2prio set,0,0 --dscp2prio set,26,3 --dscp2prio set,63,0",
                Ok(()),
            ),
            (
                "-i eth0 --prio_tc 0,1,2,3,4,5,6,7 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,50,0,0,0,0",
                Ok(()),
            ),
            // optparse: unique prefixes, `=`, glued short values
            ("-i eth0 --tru dscp", Ok(())),
            ("--interface=eth0 --pfc=0,0,0,1,0,0,0,0", Ok(())),
            ("-ieth0 -f0,0,0,1,0,0,0,0", Ok(())),
            (
                "-i eth0 --p 0,0,0,1,0,0,0,0",
                Err((2, "ambiguous option: --p")),
            ),
            ("-i eth0 --tc_bw 1", Err((2, "no such option: --tc_bw"))),
            ("-i eth0 -x", Err((2, "no such option: -x"))),
            ("-i eth0 --pfc", Err((2, "requires 1 argument"))),
            ("-i eth0 stray", Err((1, "Bad arguments"))),
            (
                "--pfc 0,0,0,1,0,0,0,0",
                Err((1, "Interface name is required")),
            ),
            // the tool's own checks
            (
                "-i eth0 --pfc 0,0,0,1,0,0,0",
                Err((1, "pfc list must have 8 items")),
            ),
            (
                "-i eth0 --pfc 0,0,0,2,0,0,0,0",
                Err((1, "Bad value for PFC")),
            ),
            ("-i eth0 --trust l3", Err((1, "Invalid trust state"))),
            (
                "-i eth0 --trust dscp --dscp2prio set,26,3",
                Err((1, "cannot be used at the same time")),
            ),
            ("-i eth0 --dscp2prio set,64,3", Err((1, "dscp2prio"))),
            ("-i eth0 --dscp2prio set,26", Err((1, "dscp2prio"))),
            (
                "-i eth0 --tcbw 50,0,0,50,0,0,0,0",
                Err((1, "strict/vendor TC must be 0")),
            ),
            (
                "-i eth0 --prio_tc 0,1,2,3,4,5,6,7 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,40,0,0,10,0",
                Err((1, "strict/vendor TC must be 0")),
            ),
            (
                "-i eth0 --tsa ETS,ets,ets,ets,ets,ets,ets,ets",
                Err((1, "Bad TSA value")),
            ),
            ("-i eth0 --prio_tc 0,1,2,3,4,5,6,8", Err((1, "UP => TC"))),
            ("-i eth0 --cable_len 70000", Err((1, "cable_len"))),
        ];
        for (line, want) in table {
            let got = parse_mlnx_qos(&args(line)).map(|_| ());
            match (want, &got) {
                (Ok(()), Ok(())) => {}
                (Err((exit, text)), Err(e)) => assert!(
                    e.exit == *exit && e.message.contains(text),
                    "{line}: {e:?}, want exit {exit} with {text:?}"
                ),
                _ => panic!("{line}: got {got:?}, want {want:?}"),
            }
        }
    }

    #[test]
    fn mlnx_qos_rules() {
        let good = "run mlnx_qos -i \"$IF\" --prio_tc 0,1,2,3,4,5,6,7 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,50,0,0,0,0";
        assert!(
            validate_mlnx_qos(good).is_empty(),
            "{:?}",
            validate_mlnx_qos(good)
        );
        let cases = [
            ("mlnx_qos -i x --pfc 0,0,0,1,0,0,0", "8 items"),
            ("mlnx_qos -i x --tcbw 50,0,0,50,0,0,0,0", "strict/vendor"),
            (
                "mlnx_qos -i x --trust dscp --dscp2prio set,26,3",
                "same time",
            ),
            ("mlnx_qos -i x --trust l3", "trust state"),
            ("mlnx_qos -i x --tc_bw 1", "no such option"),
            ("mlnx_qos -i x --tru dscp", "abbreviated"),
            (
                "mlnx_qos -i x --prio_tc 0,1,2,3,4,5,6,7 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 50,0,0,40,0,0,0,0",
                "sum to 90",
            ),
            ("mlnx_qos -i x --prio_tc 0,1,2,3,4,5,6,7", "one call"),
            ("mlnx_qos -i x --cable_len 1000", "below 1000"),
        ];
        for (line, want) in cases {
            let errs = validate_mlnx_qos(line);
            assert!(errs.iter().any(|e| e.contains(want)), "{line}: {errs:?}");
        }
    }

    #[test]
    fn sonic_rules_catch_bad_values() {
        let doc = serde_json::json!({
            "PORT": {"Ethernet0": {"speed": "400000", "lanes": "0,1", "mtu": "9500"}},
            "BUFFER_POOL": {"p": {"type": "ingress", "mode": "dynamic", "size": "10"}},
            "BUFFER_PROFILE": {"x": {"pool": "nope", "size": "0", "dynamic_th": "9"}},
            "BUFFER_PG": {"Ethernet0|3-4": {"profile": "x"}, "Ethernet0|4": {"profile": "x"},
                          "Ethernet0|8": {"profile": "x"}},
            "PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3,9", "pfcwd_sw_enable": "5"}},
            "WRED_PROFILE": {"w": {"green_min_threshold": "10", "green_max_threshold": "5"}},
            "PFC_WD": {"GLOBAL": {"POLL_INTERVAL": "200", "action": "drop"},
                       "Ethernet0": {"detection_time": "50"}},
            "CABLE_LENGTH": {"AZURE": {"Ethernet0": "40"}},
            "DSCP_TO_TC_MAP": {"M": {"64": "1"}},
            "SCHEDULER": {"s": {"type": "DWRR", "weight": "0"}},
            "QUEUE": {"Ethernet0|3": {"scheduler": "missing", "wred_profile": "w"}},
            "DEVICE_METADATA": {"localhost": {"buffer_model": "both", "max_headroom_size": "1"}}
        });
        let errs = validate_sonic(&doc).join("\n");
        for want in [
            "Y-5 PORT|Ethernet0: mtu",
            "Y-3 BUFFER_PROFILE|x: pool",
            "dynamic_th `9`",
            "overlaps",
            "index `8`",
            "\"3,9\"",
            "pfc_enable",
            "green max < min",
            "`action` only allowed",
            "detection_time `50`",
            "Y-6",
            "invalid DSCP `64`",
            "weight `0`",
            "scheduler `missing`",
            "Y-19",
            "Y-4",
        ] {
            let want = want.replace('"', "`");
            assert!(errs.contains(&want), "missing {want}:\n{errs}");
        }
    }
}
