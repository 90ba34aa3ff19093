//! A device's CONFIG_DB as `switch-model … { sku "PATH" }` names it (issue 38 item 1): the
//! `config_db.json` of a running switch (`/etc/sonic/config_db.json`, or what `show
//! runningconfiguration all` prints) in place of a SKU folder. The SKU is read from the
//! tables SONiC made from that folder, checked as a folder is (`sku_folder`), and put
//! together as the catalogue would hold it.
//!
//! What comes from where (table and field names are SONiC's, sonic-net/sonic-buildimage
//! `src/sonic-yang-models/yang-models/sonic-port.yang`, `sonic-breakout_cfg.yang`,
//! `sonic-buffer-pool.yang`, `sonic-buffer-profile.yang`, `sonic-device_metadata.yang`):
//! * `DEVICE_METADATA|localhost` `hwsku`: the SKU's name (`platform`, where given, must be
//!   the model's platform);
//! * `PORT|<name>` `lanes`, `alias`, `index`, `speed`: the rows of `port_config.ini`, in
//!   `index` order (a PORT without `index` is placed by its lanes; `index` may count from 0,
//!   as in the file it came from);
//! * `BREAKOUT_CFG|<parent>` `brkout_mode`: the cage's mode, as `hwsku.json`'s
//!   `default_brkout_mode` gives it (sonic-config-engine writes one from the other);
//! * Broadcom: `BUFFER_POOL` and `BUFFER_PROFILE` are the pools and profiles of
//!   `buffers_defaults_<topology>.j2` as the SKU's templates rendered them, the topology the
//!   one `DEVICE_METADATA|localhost` `type` gives (`ToRRouter` `t0`, `LeafRouter` `t1`,
//!   `SpineRouter` `t2`: `files/build_templates/buffers_config.j2:10-30`). The lookup table
//!   `pg_profile_lookup.ini` is a file buffermgrd reads, in no CONFIG_DB table; the
//!   `pg_lossless_<speed>_<cable>_profile` entries a CONFIG_DB carries (fabricc writes them, see
//!   `lower::sonic`) are rows of it at their speed and cable (`size`, `xon`, `xoff`,
//!   `dynamic_th`, `xon_offset`). A port speed with no such entry is FAB958: take the
//!   lookup table from the SKU folder (`sku "skus/<HWSKU>"`) instead.
//! * Mellanox: the pools are computed (as for a folder), so the layout's names and the
//!   lookup rows are the platform's default SKU's; the CONFIG_DB gives the ports.
//!
//! Every finding points at the entry of the JSON (its key: line and column), found by `places`
//! (the catalogue reads JSON with `serde_json`, which keeps no places).

use std::collections::BTreeMap;

use super::platform::{Hwsku, Lookup, LookupRow, Platform, type_topology};
use super::sku_custom::{CustomSku, breakout_words};
use super::sku_folder::{self, BreakoutEntry, LayoutObject, SkuFinding};
use serde_json::Value;

/// The name `SkuFiles` gives the one file of a `sku` that names a CONFIG_DB.
pub const CONFIG_DB: &str = "config_db.json";

/// The profiles fabricc writes itself (`q_cnp_profile`, `FABRICC…`), not the SKU's layout.
fn fabricc_profile(name: &str) -> bool {
    name == "q_cnp_profile" || name.starts_with("FABRICC")
}

/// `pg_lossless_400000_5m_profile` → (400000, `5m`).
fn lossless_name(name: &str) -> Option<(u64, &str)> {
    let rest = name
        .strip_prefix("pg_lossless_")?
        .strip_suffix("_profile")?;
    let (speed, cable) = rest.split_once('_')?;
    let speed = speed.parse().ok()?;
    let metres = cable.strip_suffix('m')?;
    (!metres.is_empty() && metres.bytes().all(|b| b.is_ascii_digit())).then_some((speed, cable))
}

/// Reads the CONFIG_DB `text` for `platform`; `path` is the file as the model names it.
/// Every finding is returned.
pub fn read_config_db(
    platform: &Platform,
    path: &str,
    text: &str,
) -> Result<CustomSku, Vec<SkuFinding>> {
    let root: Value =
        serde_json::from_str(text).map_err(|e| vec![SkuFinding::not_json(CONFIG_DB, &e)])?;
    let places = places(text);
    let mut findings = Vec::new();
    let at = |file: &'static str, span: Option<(usize, usize)>, message: String| SkuFinding {
        file,
        line: None,
        message,
        bytes: span,
    };
    let key_span = |t: &str, k: &str| places.key(&[t, k]);
    let table = |name: &str| -> Vec<(&String, &Value)> {
        root.get(name)
            .and_then(Value::as_object)
            .map(|m| m.iter().collect())
            .unwrap_or_default()
    };
    let table_span = |name: &str| places.key(&[name]);

    // DEVICE_METADATA|localhost: the SKU's name, the platform.
    let meta = root.get("DEVICE_METADATA").and_then(|m| m.get("localhost"));
    let name = meta
        .and_then(|m| m.get("hwsku"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let meta_span = places
        .value(&["DEVICE_METADATA", "localhost", "hwsku"])
        .or_else(|| table_span("DEVICE_METADATA"));
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    {
        findings.push(at(
            "DEVICE_METADATA",
            meta_span,
            format!(
                "`DEVICE_METADATA|localhost` has no `hwsku` that can name a SONiC HWSKU (`{}`: letters, digits, `.`, `_`, `-`)",
                name.escape_debug()
            ),
        ));
    }
    if let (Some(want), Some(node)) = (
        platform.sonic.as_ref().map(|s| s.platform.as_str()),
        meta.and_then(|m| m.get("platform")),
    ) && node.as_str().is_some_and(|got| got != want)
    {
        findings.push(at(
            "DEVICE_METADATA",
            places.value(&["DEVICE_METADATA", "localhost", "platform"]),
            format!(
                "the CONFIG_DB is a `{}` switch's; the model's platform `{}` is `{want}` in SONiC",
                node.as_str().unwrap_or_default().escape_debug(),
                platform.name
            ),
        ));
    }

    // PORT: the rows of port_config.ini, checked by its reader.
    let lanes_of_cage = sku_folder::cage_lane_numbers(platform);
    // (index as written or placed, name, lanes, alias, speed, span of the key)
    type Row = (u32, String, String, String, String, Option<(usize, usize)>);
    let mut rows: Vec<Row> = Vec::new();
    for (k, rec) in table("PORT") {
        let span = key_span("PORT", k);
        let field = |f: &str| rec.get(f).and_then(text_of);
        let Some(lanes) = field("lanes") else {
            findings.push(at(
                "PORT",
                span,
                format!("`PORT|{}` has no `lanes`", k.escape_debug()),
            ));
            continue;
        };
        let Some(speed) = field("speed") else {
            findings.push(at(
                "PORT",
                span,
                format!("`PORT|{}` has no `speed`", k.escape_debug()),
            ));
            continue;
        };
        let alias = field("alias").unwrap_or_else(|| k.to_string());
        let plain = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_graphic());
        if !plain(k) || !plain(&alias) || !plain(&lanes) || !plain(&speed) {
            findings.push(at(
                "PORT",
                span,
                format!(
                    "`PORT|{}`: a name, alias, lane list or speed with a space or a control character",
                    k.escape_debug()
                ),
            ));
            continue;
        }
        let index = match field("index") {
            Some(i) => i.parse::<u32>().ok(),
            // No `index`: the cage whose lanes hold the port's first lane (1-based).
            None => lanes
                .split(',')
                .next()
                .and_then(|l| l.parse::<u32>().ok())
                .and_then(|first| {
                    lanes_of_cage
                        .iter()
                        .find(|(_, set)| set.contains(&first))
                        .map(|(i, _)| *i)
                }),
        };
        let Some(index) = index else {
            findings.push(at(
                "PORT",
                span,
                format!(
                    "`PORT|{}` has no `index` that is a number, and its lanes are no cage's of `{}`",
                    k.escape_debug(),
                    platform.name
                ),
            ));
            continue;
        };
        rows.push((index, k.to_string(), lanes, alias, speed, span));
    }
    if table("PORT").is_empty() {
        findings.push(at(
            "PORT",
            table_span("PORT"),
            "no `PORT` entries: the ports come from the CONFIG_DB's PORT table".into(),
        ));
    }
    // As port_config.ini lists them: by cage, and in a cage by the number in the name.
    rows.sort_by_key(|r| (r.0, natural(&r.1)));
    let mut ini = String::from("# name lanes alias index speed\n");
    for r in &rows {
        ini.push_str(&format!("{} {} {} {} {}\n", r.1, r.2, r.3, r.0, r.4));
    }
    // Line 2 of the text is rows[0].
    let row_span = |line: Option<usize>| {
        line.and_then(|l| l.checked_sub(2))
            .and_then(|k| rows.get(k))
            .and_then(|r| r.5)
    };
    let ports = if findings.iter().any(|f| f.file == "PORT") {
        None
    } else {
        match sku_folder::read_port_config(platform, &format!("{path} PORT"), &ini) {
            Ok(p) => Some(p),
            Err(f) => {
                findings.extend(f.into_iter().map(|x| {
                    at(
                        "PORT",
                        row_span(x.line).or_else(|| table_span("PORT")),
                        x.message,
                    )
                }));
                None
            }
        }
    };

    // BREAKOUT_CFG: each cage's mode, as hwsku.json gives it.
    let mut brkout_modes = Vec::new();
    if let Some(p) = &ports {
        let entries: Vec<BreakoutEntry> = table("BREAKOUT_CFG")
            .iter()
            .filter_map(|(k, rec)| {
                let mode = rec.get("brkout_mode").and_then(Value::as_str)?;
                Some(BreakoutEntry {
                    parent: k.to_string(),
                    mode: mode.to_string(),
                    line: None,
                    bytes: key_span("BREAKOUT_CFG", k),
                })
            })
            .collect();
        match sku_folder::check_breakouts(p, "BREAKOUT_CFG", "`brkout_mode`", &entries) {
            Ok(m) => brkout_modes = m,
            Err(f) => findings.extend(f),
        }
    }

    // The buffer tables.
    let sonic = platform.sonic.as_ref();
    let mellanox = sonic.is_some_and(|s| s.asic_type == "mellanox");
    let default = sonic.and_then(|s| s.default_hwsku());
    let source = |t: &str| format!("{path} {t}");
    let (layout, lookup) = if mellanox {
        (
            default
                .map(|d| d.buffer_defaults.clone())
                .unwrap_or_default(),
            default.and_then(|d| d.pg_profile_lookup.clone()),
        )
    } else {
        let mut objects = Vec::new();
        let mut lookup_rows = Vec::new();
        let mut buffer_findings = Vec::new();
        for (t, kind) in [("BUFFER_POOL", "pool"), ("BUFFER_PROFILE", "profile")] {
            for (k, rec) in table(t) {
                let fields: Vec<(String, String)> = rec
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter_map(|(f, v)| {
                        let v = text_of(v)?;
                        let v = v
                            .strip_prefix("[BUFFER_POOL|")
                            .and_then(|x| x.strip_suffix(']'))
                            .map_or(v.clone(), str::to_string);
                        Some((f.clone(), v))
                    })
                    .collect();
                if kind == "profile" && fabricc_profile(k) {
                    continue;
                }
                if kind == "profile"
                    && let Some((speed, cable)) = lossless_name(k)
                {
                    let get = |f: &str| fields.iter().find(|(n, _)| n == f).map(|(_, v)| v);
                    let num = |f: &str| get(f).and_then(|v| v.parse::<u64>().ok());
                    match (
                        num("size"),
                        num("xon"),
                        num("xoff"),
                        get("dynamic_th").and_then(|v| v.parse::<i32>().ok()),
                    ) {
                        (Some(size), Some(xon), Some(xoff), Some(threshold)) => {
                            lookup_rows.push(LookupRow {
                                speed,
                                cable: cable.to_string(),
                                size,
                                xon,
                                xoff,
                                threshold,
                                xon_offset: num("xon_offset"),
                            });
                        }
                        _ => buffer_findings.push(at(
                            "BUFFER_PROFILE",
                            key_span(t, k),
                            format!(
                                "`BUFFER_PROFILE|{}` is a lookup row (speed and cable) without numbers for `size`, `xon`, `xoff` and `dynamic_th`",
                                k.escape_debug()
                            ),
                        )),
                    }
                    continue;
                }
                objects.push(LayoutObject {
                    line: None,
                    bytes: key_span(t, k),
                    kind,
                    name: k.to_string(),
                    fields,
                });
            }
        }
        // `default_cable`: what CABLE_LENGTH gives most ports, else the shortest lookup row
        // (it only says which cable a port without CABLE_LENGTH gets).
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for (_, rec) in table("CABLE_LENGTH") {
            for v in rec.as_object().into_iter().flatten().map(|(_, v)| v) {
                if let Some(c) = v.as_str() {
                    *counts.entry(c.to_string()).or_default() += 1;
                }
            }
        }
        let default_cable = counts
            .iter()
            .max_by_key(|(c, n)| (**n, std::cmp::Reverse((*c).clone())))
            .map(|(c, _)| c.clone())
            .or_else(|| {
                lookup_rows
                    .iter()
                    .min_by_key(|r| r.cable_m())
                    .map(|r| r.cable.clone())
            })
            .unwrap_or_else(|| "5m".into());
        // Findings of the layout point at the pool or profile; those without one at the
        // BUFFER_POOL table.
        // The layout SONiC rendered for the switch's own `type`; without one it took the
        // SKU's `default_topo`, which a CONFIG_DB does not say (`t1`, the preferred, then).
        let topology = meta
            .and_then(|m| m.get("type"))
            .and_then(Value::as_str)
            .and_then(type_topology)
            .unwrap_or("t1");
        let layout = match sku_folder::layout_of(
            "BUFFER_PROFILE",
            (topology, &source("BUFFER_POOL BUFFER_PROFILE")),
            default_cable,
            &objects,
            Vec::new(),
        ) {
            Ok(l) => vec![l],
            Err(f) => {
                buffer_findings.extend(f.into_iter().map(|mut x| {
                    if x.bytes.is_none() {
                        x.file = "BUFFER_POOL";
                        x.bytes = table_span("BUFFER_POOL");
                    }
                    x
                }));
                Vec::new()
            }
        };
        // Every speed the fabric cages run has a lookup row at some cable.
        if let Some(p) = &ports {
            let mut missing: Vec<u64> = p
                .cages
                .iter()
                .filter(|c| !platform.cage_group(c.cage).is_some_and(|g| g.aux))
                .filter_map(|c| c.speed_mbps)
                .filter(|s| !lookup_rows.iter().any(|r| r.speed == *s))
                .collect();
            missing.sort_unstable();
            missing.dedup();
            if !missing.is_empty() {
                let speeds: Vec<String> = missing.iter().map(u64::to_string).collect();
                buffer_findings.push(at(
                    "BUFFER_PROFILE",
                    table_span("BUFFER_PROFILE").or_else(|| table_span("PORT")),
                    format!(
                        "no `pg_lossless_<speed>_<cable>_profile` at {} Mb/s: a CONFIG_DB holds the SKU's `pg_profile_lookup.ini` only as the lossless profiles made from it, and Broadcom's guaranteed PG minimum and `xon_offset` for those ports cannot be sourced without it",
                        speeds.join(", ")
                    ),
                ));
            }
        }
        findings.extend(buffer_findings);
        let lookup = Lookup {
            source: source("BUFFER_PROFILE pg_lossless_*"),
            rows: lookup_rows,
        };
        (layout, Some(lookup))
    };
    let Some(ports) = ports.filter(|_| findings.is_empty()) else {
        return Err(findings);
    };
    let hwsku = Hwsku {
        name,
        breakout: breakout_words(&ports.cages),
        port_config: ports.port_config,
        pg_profile_lookup: lookup,
        buffer_defaults: layout,
        note: Some(format!("read from the CONFIG_DB `{path}`")),
    };
    Ok(CustomSku {
        path: path.to_string(),
        hwsku,
        cages: ports.cages,
        brkout_modes,
    })
}

/// A field's value as text: a string or number as written, a list joined by `,` (a `lanes`
/// list some dumps write as an array).
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(|i| match i {
                    Value::String(s) => Some(s.clone()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(","),
        ),
        _ => None,
    }
}

/// Where the keys of a JSON text's first three levels are (`PORT`, `PORT`/`Ethernet8`,
/// `PORT`/`Ethernet8`/`lanes`), and the string values of those at the third: byte ranges,
/// quotes included. A key written with escapes is kept as written (CONFIG_DB's are plain).
#[derive(Default)]
struct Places(std::collections::HashMap<Vec<String>, Place>);

/// A key's byte range, and its string value's.
type Place = ((usize, usize), Option<(usize, usize)>);

impl Places {
    fn key(&self, path: &[&str]) -> Option<(usize, usize)> {
        let path: Vec<String> = path.iter().map(|p| (*p).to_string()).collect();
        self.0.get(&path).map(|(k, _)| *k)
    }

    fn value(&self, path: &[&str]) -> Option<(usize, usize)> {
        let path: Vec<String> = path.iter().map(|p| (*p).to_string()).collect();
        self.0.get(&path).and_then(|(_, v)| *v)
    }
}

/// The places of `text` (already read as JSON by `serde_json`, so well-formed).
fn places(text: &str) -> Places {
    struct Frame {
        object: bool,
        expect_key: bool,
        key: Option<String>,
    }
    let b = text.as_bytes();
    let mut out = Places::default();
    let mut frames: Vec<Frame> = Vec::new();
    let path = |frames: &[Frame]| -> Vec<String> {
        frames
            .iter()
            .filter(|f| f.object)
            .filter_map(|f| f.key.clone())
            .collect()
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' | b'[' => frames.push(Frame {
                object: b[i] == b'{',
                expect_key: b[i] == b'{',
                key: None,
            }),
            b'}' | b']' => {
                frames.pop();
            }
            b',' => {
                if let Some(f) = frames.last_mut().filter(|f| f.object) {
                    f.expect_key = true;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(b.len());
                let inner = text
                    .get(start + 1..end.saturating_sub(1))
                    .unwrap_or_default();
                match frames.last().map(|f| (f.object, f.expect_key)) {
                    Some((true, true)) => {
                        if let Some(f) = frames.last_mut() {
                            f.key = Some(inner.to_string());
                            f.expect_key = false;
                        }
                        let p = path(&frames);
                        if p.len() <= 3 {
                            out.0.insert(p, ((start, end), None));
                        }
                    }
                    Some((true, false)) => {
                        if let Some(e) = out.0.get_mut(&path(&frames)) {
                            e.1 = Some((start, end));
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `Ethernet8` before `Ethernet16`.
fn natural(name: &str) -> (u64, String) {
    let digits = name.trim_start_matches(|c: char| !c.is_ascii_digit());
    (digits.parse().unwrap_or(u64::MAX), name.to_string())
}
