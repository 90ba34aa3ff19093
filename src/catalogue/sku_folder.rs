//! Bring your own SONiC SKU (issue 38 item 1): reading a SKU folder's `port_config.ini`,
//! `pg_profile_lookup.ini` and `buffers_defaults_t0/t1/t2.j2` against a catalogue platform and
//! checking them, with findings that point into the files. A breakout per cage is allowed
//! (the HPN ToR's 200G host cages beside its 400G uplink cages); `sku_custom` puts the
//! files together for `switch-model … { sku "PATH" }`.
//!
//! The rules are SONiC's own: `port_config.ini` starts with a `# name lanes alias index …`
//! header (sonic-buildimage `device/*/*/*/port_config.ini`), a row is one port, `index` is
//! the front-panel cage from 1 (or from 0: a file with an `index` 0 counts from 0, as some
//! sonic-buildimage SKUs do; `PortConfig::index_base`), and a cage broken out `n` ways has `n` rows whose lanes split
//! its lanes evenly and whose names are `Ethernet<cage number + sub × lanes/n>`, as
//! `platform.json` numbers the cage (`Platform::sonic_port_name`).

use super::platform::{
    BufferDefaults, Lookup, LookupRow, Platform, Pool, PortConfig, PortConfigRow, Profile,
};

/// A problem with a SKU file, at a line of it (1-based; `None`: the file as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkuFinding {
    /// The SKU folder's file; for a CONFIG_DB (`sku_configdb`), the table.
    pub file: &'static str,
    pub line: Option<usize>,
    pub message: String,
    /// The byte range in the file, where a finding points at an entry rather than a line
    /// (a CONFIG_DB's `PORT|Ethernet8`).
    pub bytes: Option<(usize, usize)>,
}

impl SkuFinding {
    /// `file` does not parse as JSON: at the line serde_json names.
    pub(super) fn not_json(file: &'static str, e: &serde_json::Error) -> Self {
        SkuFinding {
            file,
            line: Some(e.line()),
            message: format!("not JSON: {e}"),
            bytes: None,
        }
    }
}

/// One front-panel cage as the SKU runs it: how many ports, at what speed (Mb/s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CageUse {
    /// 0-based, counting the platform's cages in order.
    pub cage: u32,
    pub ports: u32,
    pub speed_mbps: Option<u64>,
}

/// A checked `port_config.ini`: its table as the catalogue stores one, and per cage the
/// breakout it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkuPorts {
    pub port_config: PortConfig,
    pub rows: Vec<PortConfigRow>,
    pub cages: Vec<CageUse>,
}

const FILE: &str = "port_config.ini";

/// Reads `text` (a `port_config.ini`) for `platform`; `source` is what the resulting table
/// cites. Every finding is returned, not only the first.
pub fn read_port_config(
    platform: &Platform,
    source: &str,
    text: &str,
) -> Result<SkuPorts, Vec<SkuFinding>> {
    let mut findings = Vec::new();
    let at = |line: Option<usize>, message: String| SkuFinding {
        file: FILE,
        bytes: None,
        line,
        message,
    };
    let mut header: Option<Vec<String>> = None;
    let mut rows: Vec<(usize, String)> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if let Some(h) = t.strip_prefix('#') {
            let h = h.trim();
            if header.is_none() && h.split_whitespace().next() == Some("name") {
                header = Some(h.split_whitespace().map(str::to_string).collect());
            }
        } else if !t.is_empty() {
            rows.push((i + 1, t.split_whitespace().collect::<Vec<_>>().join(" ")));
        }
    }
    let Some(columns) = header else {
        return Err(vec![at(
            None,
            "no `# name lanes alias index …` header line".into(),
        )]);
    };
    for need in ["name", "lanes", "alias", "index"] {
        if !columns.iter().any(|c| c == need) {
            findings.push(at(None, format!("the header has no `{need}` column")));
        }
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    let table = PortConfig {
        source: source.to_string(),
        columns: columns.clone(),
        rows: rows.iter().map(|(_, r)| r.clone()).collect(),
    };
    // Row by row, so a finding names its line; `index` as the whole file counts it (from 0
    // or from 1, `PortConfig::index_base`).
    let base = table.index_base();
    let mut parsed: Vec<(usize, PortConfigRow)> = Vec::new();
    for (line, r) in &rows {
        match table.parse_row(r, base) {
            Some(row) => parsed.push((*line, row)),
            None => findings.push(at(
                Some(*line),
                format!(
                    "the row does not follow the header's {} columns (lanes a comma list, index a number)",
                    columns.len()
                ),
            )),
        }
    }
    let cage_count: u32 = platform.cages.iter().map(|g| g.count).sum();
    let known_lanes = cage_lane_numbers(platform);
    let mut cages: Vec<CageUse> = Vec::new();
    let mut seen_names = std::collections::BTreeSet::new();
    let mut seen_lanes = std::collections::BTreeMap::new();
    let mut k = 0;
    while k < parsed.len() {
        let index = parsed[k].1.index;
        let mut end = k;
        while end < parsed.len() && parsed[end].1.index == index {
            end += 1;
        }
        let group = &parsed[k..end];
        k = end;
        let first_line = group[0].0;
        let Some(cage) = index.checked_sub(1).filter(|c| *c < cage_count) else {
            findings.push(at(
                Some(first_line),
                format!(
                    "index {} is not a cage of `{}` (it has {cage_count}, numbered from {base})",
                    (index + base).saturating_sub(1),
                    platform.name
                ),
            ));
            continue;
        };
        if cages.iter().any(|c| c.cage == cage) {
            findings.push(at(
                Some(first_line),
                format!("the rows of cage {index} are not together"),
            ));
            continue;
        }
        let split = group.len() as u32;
        let lanes = platform.cage_lanes(cage).unwrap_or(0);
        for (sub, (line, row)) in group.iter().enumerate() {
            let want = platform.sonic_port_name(cage, split, sub as u32);
            if want.as_deref() != Some(row.name.as_str()) {
                findings.push(at(
                    Some(*line),
                    match want {
                        Some(w) => format!(
                            "`{}` is port {} of cage {index} broken out {split} ways, which SONiC names `{w}`",
                            row.name,
                            sub + 1
                        ),
                        None => format!(
                            "cage {index} of `{}` ({lanes} lanes) has no {split}-way breakout",
                            platform.name
                        ),
                    },
                ));
            }
            if split > 0 && lanes.is_multiple_of(split) && row.lanes.len() as u32 != lanes / split {
                findings.push(at(
                    Some(*line),
                    format!(
                        "`{}` has {} lanes; a port of cage {index} broken out {split} ways has {}",
                        row.name,
                        row.lanes.len(),
                        lanes / split
                    ),
                ));
            }
            if !seen_names.insert(row.name.clone()) {
                findings.push(at(Some(*line), format!("`{}` is named twice", row.name)));
            }
            for lane in &row.lanes {
                if let Some(other) = seen_lanes.insert(*lane, row.name.clone()) {
                    findings.push(at(
                        Some(*line),
                        format!("lane {lane} of `{}` is also `{other}`'s", row.name),
                    ));
                }
            }
        }
        let speeds: std::collections::BTreeSet<Option<u64>> =
            group.iter().map(|(_, r)| r.speed).collect();
        if speeds.len() > 1 {
            findings.push(at(
                Some(first_line),
                format!("the ports of cage {index} run different speeds"),
            ));
        } else if let Some(Some(speed)) = speeds.first()
            && let Some(g) = platform.cage_group(cage)
            && !g.modes().iter().any(|m| {
                m.ports == split
                    && (u64::from(m.speed_gbps) * 1000 == *speed
                        || m.also_gbps.iter().any(|a| u64::from(*a) * 1000 == *speed))
            })
        {
            findings.push(at(
                Some(first_line),
                format!(
                    "cage {index} of `{}` has no breakout of {split} x {}G (its modes: {})",
                    platform.name,
                    speed / 1000,
                    g.breakouts.join(", ")
                ),
            ));
        }
        // The lanes of a cage's rows are the cage's lanes, as the catalogue's SKUs of the
        // platform (sonic-buildimage port_config.ini files) give them.
        if let Some(want) = known_lanes.get(&index) {
            let got: std::collections::BTreeSet<u32> = group
                .iter()
                .flat_map(|(_, r)| r.lanes.iter().copied())
                .collect();
            if &got != want {
                findings.push(at(
                    Some(first_line),
                    format!(
                        "the rows of cage {index} use lanes {}; the cage's lanes are {} (the platform's own SKUs)",
                        lane_list(&got),
                        lane_list(want)
                    ),
                ));
            }
        }
        cages.push(CageUse {
            cage,
            ports: split,
            speed_mbps: group[0].1.speed,
        });
    }
    if findings.is_empty() {
        Ok(SkuPorts {
            port_config: table,
            rows: parsed.into_iter().map(|(_, r)| r).collect(),
            cages,
        })
    } else {
        Err(findings)
    }
}

/// The SerDes lane numbers of each cage (1-based `index`), from the catalogue's SKUs of the
/// platform: the union of a cage's lanes over every SKU (they agree on the platforms the
/// catalogue carries; a 1x SKU alone gives them all).
pub(super) fn cage_lane_numbers(
    platform: &Platform,
) -> std::collections::BTreeMap<u32, std::collections::BTreeSet<u32>> {
    let mut out: std::collections::BTreeMap<u32, std::collections::BTreeSet<u32>> =
        std::collections::BTreeMap::new();
    for sku in platform.sonic.iter().flat_map(|s| s.hwskus.iter()) {
        for row in sku.port_config.parsed().unwrap_or_default() {
            out.entry(row.index).or_default().extend(row.lanes);
        }
    }
    out
}

/// `1-8` or `1,3,5`: a set of lanes, runs folded.
fn lane_list(lanes: &std::collections::BTreeSet<u32>) -> String {
    let v: Vec<u32> = lanes.iter().copied().collect();
    let mut parts = Vec::new();
    let mut k = 0;
    while k < v.len() {
        let mut e = k;
        while e + 1 < v.len() && v[e + 1] == v[e] + 1 {
            e += 1;
        }
        parts.push(if e > k {
            format!("{}-{}", v[k], v[e])
        } else {
            v[k].to_string()
        });
        k = e + 1;
    }
    parts.join(",")
}

/// Reads a `pg_profile_lookup.ini`: `speed cable size xon xoff threshold [xon_offset]` rows
/// (Broadcom SKUs add `xon_offset`), `#` lines comments.
pub fn read_pg_lookup(source: &str, text: &str) -> Result<Lookup, Vec<SkuFinding>> {
    const F: &str = "pg_profile_lookup.ini";
    let mut rows = Vec::new();
    let mut findings = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = t.split_whitespace().collect();
        let n = |k: usize| f.get(k).and_then(|x| x.parse::<u64>().ok());
        let row = match (n(0), f.get(1), n(2), n(3), n(4), f.get(5)) {
            (Some(speed), Some(cable), Some(size), Some(xon), Some(xoff), Some(th))
                if f.len() <= 7 =>
            {
                th.parse::<i32>().ok().map(|threshold| LookupRow {
                    speed,
                    cable: cable.to_string(),
                    size,
                    xon,
                    xoff,
                    threshold,
                    xon_offset: n(6),
                })
            }
            _ => None,
        };
        match row {
            Some(r) if r.cable_m().is_some() && (f.len() < 7 || r.xon_offset.is_some()) => {
                rows.push(r)
            }
            _ => findings.push(SkuFinding {
                file: F,
                bytes: None,
                line: Some(i + 1),
                message: "not a `speed cable size xon xoff threshold [xon_offset]` row (numbers; the cable in metres, `5m`)".into(),
            }),
        }
    }
    if findings.is_empty() {
        Ok(Lookup {
            source: source.to_string(),
            rows,
        })
    } else {
        Err(findings)
    }
}

/// The file of a SKU folder that holds the layout of `topology` (`t0`, `t1`, `t2`; any other
/// is the `t1` file, the one fabricc asked for before it read the others).
pub fn layout_file(topology: &str) -> &'static str {
    match topology {
        "t0" => "buffers_defaults_t0.j2",
        "t2" => "buffers_defaults_t2.j2",
        _ => "buffers_defaults_t1.j2",
    }
}

/// Reads the pools and profiles of a Broadcom-style `buffers_defaults_<topology>.j2`: the
/// `default_cable` setting and the literal `"BUFFER_POOL"` and `"BUFFER_PROFILE"` objects
/// (a pool reference may be written `[BUFFER_POOL|name]`). A template that computes them
/// (Jinja expressions in the values) is refused: fabricc cannot know what it renders to.
pub fn read_buffers(
    topology: &str,
    source: &str,
    text: &str,
) -> Result<BufferDefaults, Vec<SkuFinding>> {
    let file = layout_file(topology);
    let at = |line: Option<usize>, message: String| SkuFinding {
        file,
        bytes: None,
        line,
        message,
    };
    let mut findings = Vec::new();
    let mut default_cable = None;
    let mut section = "";
    // (line, `pool` or `profile`, name, fields) of each object, in file order.
    type Object = (usize, &'static str, String, Vec<(String, String)>);
    let mut objects: Vec<Object> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.contains("set default_cable") {
            default_cable = t.split('\'').nth(1).map(str::to_string);
            continue;
        }
        let q: Vec<&str> = t.split('"').collect();
        if t.contains("endmacro") {
            // The end of `generate_buffer_pool_and_profiles`: what follows (the queue
            // macros of some SKUs) is no pool or profile.
            section = "";
        } else if t.starts_with("\"BUFFER_POOL\"") {
            section = "pool";
        } else if t.starts_with("\"BUFFER_PROFILE\"") {
            section = "profile";
        } else if t.starts_with("\"BUFFER_") {
            section = "";
        } else if !section.is_empty() && t.ends_with('{') && q.len() >= 3 {
            objects.push((i + 1, section, q[1].to_string(), Vec::new()));
        } else if !section.is_empty()
            && q.len() >= 5
            && let Some(o) = objects.last_mut()
        {
            let v = q[3];
            if v.contains("{{") || v.contains("{%") {
                findings.push(at(
                    Some(i + 1),
                    format!("`{}` is computed by the template; give its value", q[1]),
                ));
            }
            let v = v
                .strip_prefix("[BUFFER_POOL|")
                .and_then(|x| x.strip_suffix(']'))
                .unwrap_or(v);
            o.3.push((q[1].to_string(), v.to_string()));
        }
    }
    let Some(default_cable) = default_cable else {
        findings.push(at(None, "no `{% set default_cable = '…' %}`".into()));
        return Err(findings);
    };
    let objects: Vec<LayoutObject> = objects
        .into_iter()
        .map(|(line, kind, name, fields)| LayoutObject {
            line: Some(line),
            bytes: None,
            kind,
            name,
            fields,
        })
        .collect();
    layout_of(file, (topology, source), default_cable, &objects, findings)
}

/// A pool or profile of a buffer layout as a file gives it (fields as written, a pool
/// reference `[BUFFER_POOL|name]` already `name`), and where.
#[derive(Debug, Clone)]
pub struct LayoutObject {
    pub line: Option<usize>,
    pub bytes: Option<(usize, usize)>,
    /// `pool` or `profile`.
    pub kind: &'static str,
    pub name: String,
    pub fields: Vec<(String, String)>,
}

/// The layout of `objects`, checked as CONFIG_DB takes it: every pool a `type` and `mode`
/// SONiC knows, every profile a `pool` of the layout and a `size`, thresholds numbers, keys
/// plain words. `findings`: those the caller found already; `file` the findings' file.
pub fn layout_of(
    file: &'static str,
    (topology, source): (&str, &str),
    default_cable: String,
    objects: &[LayoutObject],
    mut findings: Vec<SkuFinding>,
) -> Result<BufferDefaults, Vec<SkuFinding>> {
    let at = |o: Option<&LayoutObject>, message: String| SkuFinding {
        file,
        line: o.and_then(|o| o.line),
        message,
        bytes: o.and_then(|o| o.bytes),
    };
    let mut pools = Vec::new();
    let mut profiles = Vec::new();
    for o in objects {
        let (kind, name, fields) = (&o.kind, &o.name, &o.fields);
        let get = |k: &str| fields.iter().find(|(f, _)| f == k).map(|(_, v)| v.as_str());
        let num = |k: &str| get(k).and_then(|v| v.parse::<u64>().ok());
        if *kind == "pool" {
            match (get("type"), get("mode")) {
                (Some(t), Some(m)) => pools.push(Pool {
                    name: name.clone(),
                    kind: t.to_string(),
                    mode: m.to_string(),
                    size: num("size"),
                    xoff: num("xoff"),
                }),
                _ => findings.push(at(
                    Some(o),
                    format!("pool `{name}` has no `type` or `mode`"),
                )),
            }
        } else {
            match (get("pool"), num("size")) {
                (Some(pool), Some(size)) => profiles.push(Profile {
                    name: name.clone(),
                    pool: pool.to_string(),
                    size,
                    dynamic_th: get("dynamic_th").and_then(|v| v.parse().ok()),
                    static_th: num("static_th"),
                    xon_offset: num("xon_offset"),
                }),
                _ => findings.push(at(
                    Some(o),
                    format!("profile `{name}` has no `pool` or `size`"),
                )),
            }
        }
    }
    // What reaches CONFIG_DB: keys of plain words, the pool types and modes the lowering
    // writes, thresholds that are numbers.
    let word = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    for o in objects {
        let (kind, name, fields) = (&o.kind, &o.name, &o.fields);
        let get = |k: &str| fields.iter().find(|(f, _)| f == k).map(|(_, v)| v.as_str());
        if !word(name) {
            findings.push(at(
                Some(o),
                format!(
                    "`{}` cannot name a CONFIG_DB key (letters, digits, `_`, `-`)",
                    name.escape_debug()
                ),
            ));
        }
        if *kind == "pool" {
            if get("type").is_some_and(|t| t != "ingress" && t != "egress") {
                findings.push(at(
                    Some(o),
                    format!("pool `{name}`: `type` is `ingress` or `egress`"),
                ));
            }
            if get("mode").is_some_and(|m| m != "dynamic" && m != "static") {
                findings.push(at(
                    Some(o),
                    format!("pool `{name}`: `mode` is `dynamic` or `static`"),
                ));
            }
        } else if get("dynamic_th").is_some_and(|v| v.parse::<i32>().is_err())
            || get("static_th").is_some_and(|v| v.parse::<u64>().is_err())
        {
            findings.push(at(
                Some(o),
                format!("profile `{name}`: a threshold is not a number"),
            ));
        }
    }
    for o in objects {
        let (kind, name, fields) = (&o.kind, &o.name, &o.fields);
        if *kind == "profile"
            && let Some((_, pool)) = fields.iter().find(|(f, _)| f == "pool")
            && !pools.iter().any(|p| &p.name == pool)
        {
            findings.push(at(
                Some(o),
                format!("profile `{name}` names pool `{pool}`, which the layout has not"),
            ));
        }
    }
    if pools.is_empty() {
        findings.push(at(None, "no `BUFFER_POOL` objects".into()));
    }
    if findings.is_empty() {
        Ok(BufferDefaults {
            topology: topology.to_string(),
            source: source.to_string(),
            default_cable,
            pools,
            profiles_source: None,
            profiles,
        })
    } else {
        Err(findings)
    }
}

/// Reads a SKU's `hwsku.json` (`{"interfaces": {"Ethernet0": {"default_brkout_mode":
/// "4x200G[100G]"}, …}}`, sonic-buildimage `device/*/*/<HWSKU>/hwsku.json`) against its rows:
/// each port it lists is a cage's first row, and its mode runs as many ports as the rows
/// give the cage, at their speed. Returns (parent port, mode) in the file's order.
pub fn read_hwsku_json(
    ports: &SkuPorts,
    text: &str,
) -> Result<Vec<(String, String)>, Vec<SkuFinding>> {
    const F: &str = "hwsku.json";
    let line_of = |name: &str| {
        let quoted = format!("\"{name}\"");
        text.lines()
            .position(|l| l.contains(&quoted))
            .map(|i| i + 1)
    };
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| vec![SkuFinding::not_json(F, &e)])?;
    let Some(interfaces) = json.get("interfaces").and_then(|v| v.as_object()) else {
        return Err(vec![SkuFinding {
            file: F,
            line: None,
            message: "no `interfaces` object".into(),
            bytes: None,
        }]);
    };
    let entries: Vec<BreakoutEntry> = interfaces
        .iter()
        .filter_map(|(name, v)| {
            let mode = v.get("default_brkout_mode")?.as_str()?;
            Some(BreakoutEntry {
                parent: name.clone(),
                mode: mode.to_string(),
                line: line_of(name),
                bytes: None,
            })
        })
        .collect();
    check_breakouts(ports, F, "`default_brkout_mode`", &entries)
}

/// A cage's breakout as a file gives it: `hwsku.json`'s `default_brkout_mode`, a CONFIG_DB's
/// `BREAKOUT_CFG|<parent>` `brkout_mode`; where it is.
#[derive(Debug, Clone)]
pub struct BreakoutEntry {
    pub parent: String,
    pub mode: String,
    pub line: Option<usize>,
    pub bytes: Option<(usize, usize)>,
}

/// Each entry's parent is a cage's first row, and its mode runs as many ports as the rows
/// give the cage, at their speed. Returns (parent port, mode) in the entries' order.
pub fn check_breakouts(
    ports: &SkuPorts,
    file: &'static str,
    field: &str,
    entries: &[BreakoutEntry],
) -> Result<Vec<(String, String)>, Vec<SkuFinding>> {
    let mut findings = Vec::new();
    let mut modes = Vec::new();
    for e in entries {
        let (name, mode) = (&e.parent, &e.mode);
        let at = |message: String| SkuFinding {
            file,
            line: e.line,
            message,
            bytes: e.bytes,
        };
        let Some(k) = ports.rows.iter().position(|r| &r.name == name) else {
            findings.push(at(format!("`{name}` is no row of `port_config.ini`")));
            continue;
        };
        let row = &ports.rows[k];
        let cage_rows: Vec<&PortConfigRow> =
            ports.rows.iter().filter(|r| r.index == row.index).collect();
        if cage_rows.first().map(|r| &r.name) != Some(name) {
            findings.push(at(format!(
                "`{name}` is not the first port of cage {}: the breakout belongs to `{}`",
                row.index,
                cage_rows.first().map_or("", |r| r.name.as_str())
            )));
            continue;
        }
        let parsed = super::platform::BreakoutMode::parse(mode);
        let fits = parsed.as_ref().is_some_and(|m| {
            m.ports as usize == cage_rows.len()
                && row.speed.is_none_or(|s| {
                    u64::from(m.speed_gbps) * 1000 == s
                        || m.also_gbps.iter().any(|a| u64::from(*a) * 1000 == s)
                })
        });
        if !fits {
            findings.push(at(format!(
                "`{name}`'s {field} `{}` is not the {} x {}G the rows run cage {} as",
                mode.escape_debug(),
                cage_rows.len(),
                row.speed.unwrap_or(0) / 1000,
                row.index
            )));
            continue;
        }
        modes.push((name.clone(), mode.clone()));
    }
    if findings.is_empty() {
        Ok(modes)
    } else {
        Err(findings)
    }
}

/// The files of one SKU against each other: every port speed has a lookup row at the
/// layout's default cable (buffermgrd refuses a lossless PG without one).
pub fn check_together(
    ports: &SkuPorts,
    lookup: &Lookup,
    layout: &BufferDefaults,
) -> Vec<SkuFinding> {
    let cable_mm = layout
        .default_cable
        .strip_suffix('m')
        .and_then(|m| m.parse::<u64>().ok())
        .map(|m| m * 1000);
    let speeds: std::collections::BTreeSet<u64> =
        ports.cages.iter().filter_map(|c| c.speed_mbps).collect();
    speeds
        .into_iter()
        .filter(|s| {
            !lookup.rows.iter().any(|r| {
                r.speed == *s && r.cable_m().map(|m| m * 1000) >= cable_mm
            })
        })
        .map(|s| SkuFinding {
            file: "pg_profile_lookup.ini",
            bytes: None,
            line: None,
            message: format!(
                "no row at {s} Mb/s for the layout's default cable {}: SONiC cannot size those ports' lossless headroom",
                layout.default_cable
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::switch_platform;

    fn p() -> &'static Platform {
        switch_platform("arista-7060x6-64pe").expect("in the catalogue")
    }

    /// A mixed SKU on the 7060X6-64PE: cage 1 as 4 x 200G, cage 2 as 2 x 400G (the lane
    /// numbers of the catalogue's O128S2 rows for those cages).
    const MIXED: &str = "# name lanes alias index speed
Ethernet0 17,18 etp1a 1 200000
Ethernet2 19,20 etp1b 1 200000
Ethernet4 21,22 etp1c 1 200000
Ethernet6 23,24 etp1d 1 200000
Ethernet8 1,2,3,4 etp2a 2 400000
Ethernet12 5,6,7,8 etp2b 2 400000
";

    #[test]
    fn a_breakout_per_cage_reads() {
        let s = read_port_config(p(), "mine", MIXED).expect("reads");
        assert_eq!(s.rows.len(), 6);
        assert_eq!(
            s.cages,
            vec![
                CageUse {
                    cage: 0,
                    ports: 4,
                    speed_mbps: Some(200_000)
                },
                CageUse {
                    cage: 1,
                    ports: 2,
                    speed_mbps: Some(400_000)
                },
            ]
        );
        assert_eq!(s.port_config.source, "mine");
    }

    #[test]
    fn the_catalogued_skus_read_back() {
        // Every catalogue platform with SONiC SKUs and cages: SONiC's own SKUs pass the
        // checks a SKU folder gets (names, lanes, breakout modes at their speeds).
        for pl in crate::catalogue::catalogue()
            .switches
            .iter()
            .filter(|p| p.sonic.is_some() && !p.cages.is_empty() && p.naming.sonic.is_some())
        {
            let name = &pl.name;
            for sku in &pl.sonic.as_ref().expect("sonic").hwskus {
                let text = format!(
                    "# {}\n{}\n",
                    sku.port_config.columns.join(" "),
                    sku.port_config.rows.join("\n")
                );
                let s = read_port_config(pl, &sku.port_config.source, &text)
                    .unwrap_or_else(|f| panic!("{name} {}: {f:?}", sku.name));
                assert_eq!(s.port_config, sku.port_config, "{name} {}", sku.name);
            }
        }
    }

    /// sonic-buildimage@086b03bd70f9 `device/micas/x86_64-micas_m2-w6930-64qc-r0/
    /// M2-W6930-64QC/port_config.ini` counts its cages from 0 (`Ethernet1` is index 0): read
    /// as it is, the verbatim file gives cage 1 to `Ethernet1` and cage 64 to the last row.
    #[test]
    fn a_file_counting_cages_from_0_reads() {
        let pl = switch_platform("micas-m2-w6930-64qc").expect("in the catalogue");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/catalogue/micas-m2-w6930-64qc/M2-W6930-64QC/port_config.ini");
        let text = std::fs::read_to_string(path).expect("verbatim copy");
        let s = read_port_config(pl, "micas", &text).unwrap_or_else(|f| panic!("{f:?}"));
        assert_eq!(s.port_config.index_base(), 0);
        assert_eq!(s.rows.len(), 64);
        assert_eq!((s.rows[0].name.as_str(), s.rows[0].index), ("Ethernet1", 1));
        assert_eq!(s.rows[63].index, 64);
        assert_eq!(s.cages.len(), 64);
        assert_eq!(s.cages[0].cage, 0);
        // The SONiC lowering's rows: all 64, in the file's order.
        let sku = pl
            .sonic
            .as_ref()
            .and_then(|x| x.sku("M2-W6930-64QC"))
            .expect("sku");
        let front = sku.front_ports(pl).expect("rows");
        assert_eq!(front.len(), 64);
        assert_eq!(front[0].0.name, "Ethernet1");
        // One index past the 64 cages of a 0-based file is refused with the file's number.
        let past = text.replace(
            "fourHundredGigE0/64       63",
            "fourHundredGigE0/64       64",
        );
        let f = read_port_config(pl, "micas", &past).expect_err("index 64 of 0-63");
        assert!(
            f.iter()
                .any(|x| x.message.contains("index 64 is not a cage")
                    && x.message.contains("from 0")),
            "{f:?}"
        );
    }

    #[test]
    fn findings_point_at_the_line() {
        let bad = "# name lanes alias index speed
Ethernet0 17,18 etp1a 1 200000
Ethernet3 19,20 etp1b 1 200000
Ethernet8 1,2,3 etp2a 2 400000
Ethernet12 4,5,6,7,8 etp2b 2 400000
Ethernet16 9,10,11,12,13,14,15,16 etp3 99 800000
";
        let f = read_port_config(p(), "mine", bad).expect_err("findings");
        let lines: Vec<Option<usize>> = f.iter().map(|x| x.line).collect();
        // Line 3: the second port of a 2-way cage is Ethernet4; lines 4-5: 3 and 5 lanes on
        // a cage of 8 split 2 ways; line 6: no cage 99.
        assert!(lines.contains(&Some(3)), "{f:?}");
        assert!(
            lines.contains(&Some(4)) && lines.contains(&Some(5)),
            "{f:?}"
        );
        assert!(lines.contains(&Some(6)), "{f:?}");
        assert!(f.iter().all(|x| x.file == "port_config.ini"));
        let none = read_port_config(p(), "mine", "Ethernet0 1 a 1\n").expect_err("no header");
        assert_eq!(none[0].line, None);
    }

    #[test]
    fn shared_lanes_and_split_cages_are_refused() {
        let twice = "# name lanes alias index
Ethernet0 17,18,19,20 etp1a 1
Ethernet4 17,22,23,24 etp1b 1
";
        let f = read_port_config(p(), "mine", twice).expect_err("a lane twice");
        assert!(f.iter().any(|x| x.message.contains("lane 17")), "{f:?}");
        let apart = "# name lanes alias index
Ethernet0 17,18,19,20 etp1a 1
Ethernet8 1,2,3,4,5,6,7,8 etp2 2
Ethernet4 21,22,23,24 etp1b 1
";
        let f = read_port_config(p(), "mine", apart).expect_err("cage 1 split up");
        assert!(
            f.iter().any(|x| x.message.contains("not together")),
            "{f:?}"
        );
    }

    const LOOKUP: &str = "# speed cable size xon xoff threshold xon_offset
 200000 5m 18796 0 229362 0 3556
 400000 5m 18796 0 393192 0 3556
";

    const BUFFERS: &str = "{%- set default_cable = '5m' %}
    \"BUFFER_POOL\": {
        \"ingress_lossless_pool\": {
            \"size\": \"162539680\",
            \"type\": \"ingress\",
            \"mode\": \"dynamic\",
            \"xoff\": \"33374584\"
        },
        \"egress_lossless_pool\": {
            \"size\": \"162539680\",
            \"type\": \"egress\",
            \"mode\": \"static\"
        }
    },
    \"BUFFER_PROFILE\": {
        \"ingress_lossy_profile\": {
            \"pool\":\"[BUFFER_POOL|ingress_lossless_pool]\",
            \"size\":\"0\",
            \"static_th\":\"165867080\"
        },
        \"egress_lossy_profile\": {
            \"pool\":\"[BUFFER_POOL|egress_lossless_pool]\",
            \"size\":\"1778\",
            \"dynamic_th\":\"0\"
        }
    },
";

    #[test]
    fn a_whole_mixed_sku_reads_and_fits_together() {
        let ports = read_port_config(p(), "mine", MIXED).expect("ports");
        let lookup = read_pg_lookup("mine", LOOKUP).expect("lookup");
        assert_eq!(lookup.rows.len(), 2);
        assert_eq!(lookup.rows[1].xon_offset, Some(3556));
        let layout = read_buffers("t1", "mine", BUFFERS).expect("layout");
        assert_eq!(layout.default_cable, "5m");
        assert_eq!(layout.pools.len(), 2);
        assert_eq!(layout.pools[0].xoff, Some(33_374_584));
        assert_eq!(layout.profiles[0].pool, "ingress_lossless_pool");
        assert_eq!(layout.profiles[1].dynamic_th, Some(0));
        assert!(check_together(&ports, &lookup, &layout).is_empty());
        // Without a 200G row the host cages have no headroom to size.
        let only_400 =
            read_pg_lookup("mine", " 400000 5m 18796 0 393192 0 3556\n").expect("lookup");
        let f = check_together(&ports, &only_400, &layout);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("200000"), "{f:?}");
    }

    #[test]
    fn lookup_and_layout_findings() {
        let f = read_pg_lookup("mine", "# header\n 400000 5m 1 2\n").expect_err("short row");
        assert_eq!(f[0].line, Some(2));
        let computed = BUFFERS.replace(
            "\"162539680\",\n            \"type\": \"ingress\"",
            "\"{{ ingress_size }}\",\n            \"type\": \"ingress\"",
        );
        let f = read_buffers("t1", "mine", &computed).expect_err("computed");
        assert!(f.iter().any(|x| x.message.contains("computed")), "{f:?}");
        let odd = BUFFERS.replace("\"egress_lossy_profile\": {", "\"egress|lossy\": {");
        let f = read_buffers("t1", "mine", &odd).expect_err("a key with `|`");
        assert!(
            f.iter().any(|x| x.message.contains("CONFIG_DB key")),
            "{f:?}"
        );
        let both = BUFFERS.replace("\"type\": \"egress\"", "\"type\": \"both\"");
        let f = read_buffers("t1", "mine", &both).expect_err("type both");
        assert!(f.iter().any(|x| x.message.contains("`type`")), "{f:?}");
        let stray = BUFFERS.replace("[BUFFER_POOL|egress_lossless_pool]", "egress_lossy_pool");
        let f = read_buffers("t1", "mine", &stray).expect_err("unknown pool");
        assert!(
            f.iter().any(|x| x.message.contains("egress_lossy_pool")),
            "{f:?}"
        );
    }

    #[test]
    fn the_catalogued_broadcom_layouts_read_back() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalogue");
        for (name, sku, topo) in [
            ("dell-z9864f", "Dell-Z9864f-O64", "t1"),
            ("arista-7060x6-64pe", "Arista-7060X6-64PE-O128S2", "t1"),
        ] {
            let text = std::fs::read_to_string(
                dir.join(format!("{name}/{sku}/buffers_defaults_{topo}.txt")),
            )
            .expect("excerpt");
            let pl = switch_platform(name).expect("platform");
            let want = pl
                .sonic
                .as_ref()
                .and_then(|s| s.sku(sku))
                .and_then(|k| k.buffer_defaults(topo))
                .expect("layout");
            let got =
                read_buffers(topo, &want.source, &text).unwrap_or_else(|f| panic!("{name}: {f:?}"));
            assert_eq!(&got, want, "{name}");
            let lookup_text =
                std::fs::read_to_string(dir.join(format!("{name}/{sku}/pg_profile_lookup.ini")))
                    .expect("lookup");
            let want = pl
                .sonic
                .as_ref()
                .and_then(|s| s.sku(sku))
                .and_then(|k| k.pg_profile_lookup.as_ref())
                .expect("lookup");
            let got = read_pg_lookup(&want.source, &lookup_text)
                .unwrap_or_else(|f| panic!("{name}: {f:?}"));
            assert_eq!(&got, want, "{name}");
        }
    }
}
