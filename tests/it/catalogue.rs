//! The platform catalogue against its sources. Two kinds of test:
//!
//! - where the source is a file of a public repository, an excerpt of it lives under
//!   `tests/data/catalogue/` (first line `# source: repo@commit:path`), and the test parses
//!   the excerpt and compares it with the catalogue: lookup rows, port names and lanes,
//!   cages and breakouts, pools and profiles, ASIC constants, PCI IDs. The excerpt's source
//!   line must also be the source the catalogue cites for those numbers;
//! - where the source is a vendor document, a table pins each number to the source string
//!   quoted next to it, so a change of either shows in review.

use std::collections::BTreeMap;
use std::path::Path;

use fabricc::catalogue::{self, ChassisPlace, Hwsku, LookupRow, Platform, Source, switch_platform};
use fabricc::model::Os;

/// An excerpt: its `# source:` line and its lines after the two-line header.
struct Excerpt {
    source: String,
    lines: Vec<String>,
}

fn excerpt(rel: &str) -> Excerpt {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/catalogue")
        .join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let mut lines = text.lines();
    let source = lines
        .next()
        .and_then(|l| l.strip_prefix("# source: "))
        .unwrap_or_else(|| panic!("{rel}: no `# source:` line"))
        .to_string();
    lines.next();
    Excerpt {
        source,
        lines: lines.map(str::to_string).collect(),
    }
}

fn platform(name: &str) -> &'static Platform {
    switch_platform(name).unwrap_or_else(|| panic!("{name} is in the catalogue"))
}

/// The source string a key of `p` stands for.
#[track_caller]
fn source_of(p: &Platform, key: &str) -> String {
    p.sources
        .get(key)
        .map(|s| s.as_str().to_string())
        .unwrap_or_else(|| panic!("{}: no source `{key}`", p.name))
}

fn sku<'a>(p: &'a Platform, name: &str) -> &'a Hwsku {
    p.sonic
        .as_ref()
        .and_then(|s| s.sku(name))
        .unwrap_or_else(|| panic!("{}: no SKU {name}", p.name))
}

/// (platform, SKU, excerpt folder) of every SONiC SKU the catalogue records.
const SKUS: &[(&str, &str, &str)] = &[
    ("nvidia-sn5600", "ACS-SN5600", "nvidia-sn5600/ACS-SN5600"),
    (
        "nvidia-sn5600",
        "Mellanox-SN5600-O128",
        "nvidia-sn5600/Mellanox-SN5600-O128",
    ),
    ("nvidia-sn5400", "ACS-SN5400", "nvidia-sn5400/ACS-SN5400"),
    ("nvidia-sn4700", "ACS-MSN4700", "nvidia-sn4700/ACS-MSN4700"),
    (
        "arista-7060x6-64pe",
        "Arista-7060X6-64PE",
        "arista-7060x6-64pe/Arista-7060X6-64PE",
    ),
    (
        "arista-7060x6-64pe",
        "Arista-7060X6-64PE-O128S2",
        "arista-7060x6-64pe/Arista-7060X6-64PE-O128S2",
    ),
    (
        "arista-7280r4-32qf-32df",
        "Arista-7280R4-32QF-32DF-64O",
        "arista-7280r4-32qf-32df/Arista-7280R4-32QF-32DF-64O",
    ),
    // Generated from SONiC's device folders (issue 38), excerpts under the same names.
    (
        "nvidia-sn4600c",
        "ACS-MSN4600C",
        "nvidia-sn4600c/ACS-MSN4600C",
    ),
    (
        "arista-7060x6-64pe-b",
        "Arista-7060X6-64PE-B-C512S2",
        "arista-7060x6-64pe-b/Arista-7060X6-64PE-B-C512S2",
    ),
    (
        "celestica-silverstone-v2",
        "Silverstone_v2",
        "celestica-silverstone-v2/Silverstone_v2",
    ),
    (
        "dell-z9864f",
        "Dell-Z9864f-O64",
        "dell-z9864f/Dell-Z9864f-O64",
    ),
    (
        "nokia-ixr7220-h5-64o",
        "Nokia-IXR7220-H5-64O",
        "nokia-ixr7220-h5-64o/Nokia-IXR7220-H5-64O",
    ),
    (
        "nokia-ixr7220-h5-64d",
        "Nokia-IXR7220-H5-64D",
        "nokia-ixr7220-h5-64d/Nokia-IXR7220-H5-64D",
    ),
    (
        "arista-7060x6-64de",
        "Arista-7060X6-64DE",
        "arista-7060x6-64de/Arista-7060X6-64DE",
    ),
    (
        "arista-7060x6-64de",
        "Arista-7060X6-64DE-O128S2",
        "arista-7060x6-64de/Arista-7060X6-64DE-O128S2",
    ),
    (
        "arista-7060x6-64de",
        "Arista-7060X6-64DE-64x400G",
        "arista-7060x6-64de/Arista-7060X6-64DE-64x400G",
    ),
    (
        "arista-7060x6-32pe",
        "Arista-7060X6-32PE",
        "arista-7060x6-32pe/Arista-7060X6-32PE",
    ),
    (
        "dell-z9332f",
        "DellEMC-Z9332f-O32",
        "dell-z9332f/DellEMC-Z9332f-O32",
    ),
    (
        "arista-7060dx4-32",
        "Arista-7060DX4-C32",
        "arista-7060dx4-32/Arista-7060DX4-C32",
    ),
    (
        "arista-7060dx5-32",
        "Arista-7060DX5-32",
        "arista-7060dx5-32/Arista-7060DX5-32",
    ),
    (
        "arista-7060dx5-64s",
        "Arista-7060DX5-64S",
        "arista-7060dx5-64s/Arista-7060DX5-64S",
    ),
    (
        "arista-7060px4-32",
        "Arista-7060PX4-O32",
        "arista-7060px4-32/Arista-7060PX4-O32",
    ),
    (
        "micas-m2-w6930-64qc",
        "M2-W6930-64QC",
        "micas-m2-w6930-64qc/M2-W6930-64QC",
    ),
    (
        "celestica-silverstone",
        "Silverstone",
        "celestica-silverstone/Silverstone",
    ),
    (
        "supermicro-sse-t8164",
        "Supermicro_sse_t8164",
        "supermicro-sse-t8164/Supermicro_sse_t8164",
    ),
];

#[test]
fn pg_profile_lookup_rows_are_the_skus() {
    for &(name, sku_name, dir) in SKUS {
        let p = platform(name);
        let s = sku(p, sku_name);
        if s.pg_profile_lookup.is_none() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/catalogue")
                .join(format!("{dir}/pg_profile_lookup.ini"));
            assert!(
                !path.exists(),
                "{name} {sku_name}: the SKU ships a lookup table"
            );
            continue;
        }
        let ex = excerpt(&format!("{dir}/pg_profile_lookup.ini"));
        let lookup = s
            .pg_profile_lookup
            .as_ref()
            .unwrap_or_else(|| panic!("{name} {sku_name}: no lookup"));
        assert_eq!(source_of(p, &lookup.source), ex.source, "{name} {sku_name}");
        let rows: Vec<LookupRow> = ex
            .lines
            .iter()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let n = |i: usize| f[i].parse::<u64>().expect("number");
                LookupRow {
                    speed: n(0),
                    cable: f[1].to_string(),
                    size: n(2),
                    xon: n(3),
                    xoff: n(4),
                    threshold: f[5].parse().expect("threshold"),
                    xon_offset: f.get(6).map(|x| x.parse().expect("xon_offset")),
                }
            })
            .collect();
        assert_eq!(lookup.rows, rows, "{name} {sku_name}");
    }
}

#[test]
fn port_config_rows_are_the_skus() {
    for &(name, sku_name, dir) in SKUS {
        let p = platform(name);
        let s = sku(p, sku_name);
        let ex = excerpt(&format!("{dir}/port_config.ini"));
        assert_eq!(
            source_of(p, &s.port_config.source),
            ex.source,
            "{name} {sku_name}"
        );
        let header: Vec<String> = ex
            .lines
            .iter()
            .find_map(|l| l.strip_prefix("# name"))
            .map(|rest| {
                std::iter::once("name".to_string())
                    .chain(rest.split_whitespace().map(str::to_string))
                    .collect()
            })
            .expect("a `# name` header");
        let want: Vec<String> = ex
            .lines
            .iter()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| {
                let row: BTreeMap<&str, &str> = header
                    .iter()
                    .map(String::as_str)
                    .zip(l.split_whitespace())
                    .collect();
                // The catalogue keeps the front-panel ports (the 7280R4 file also lists a
                // recirculation port, role `Rec`).
                (row.get("role").copied().unwrap_or("Ext") == "Ext").then(|| {
                    s.port_config
                        .columns
                        .iter()
                        .map(|c| row.get(c.as_str()).copied().unwrap_or("?"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
            })
            .collect();
        assert_eq!(s.port_config.rows, want, "{name} {sku_name}");
        // Every name is the one `sonic_port_name` gives its place.
        let split = s.split().expect("breakout parses");
        let parsed = s.port_config.parsed().expect("rows parse");
        let mut k = 0;
        for (cage, g) in (0u32..).zip(
            p.cages
                .iter()
                .flat_map(|g| std::iter::repeat_n(g, g.count as usize)),
        ) {
            let each = if g.aux { 1 } else { split };
            for sub in 0..each {
                assert_eq!(
                    p.sonic_port_name(cage, each, sub).as_deref(),
                    Some(parsed[k].name.as_str()),
                    "{name} {sku_name} cage {cage} sub {sub}"
                );
                k += 1;
            }
        }
        assert_eq!(k, parsed.len(), "{name} {sku_name}: every row placed");
    }
}

#[test]
fn cages_are_platform_json() {
    for name in [
        "nvidia-sn5600",
        "nvidia-sn5400",
        "nvidia-sn4700",
        "arista-7060x6-64pe",
        "nvidia-sn4600c",
        "arista-7060x6-64pe-b",
        "celestica-silverstone-v2",
        "dell-z9864f",
        "nokia-ixr7220-h5-64o",
        "nokia-ixr7220-h5-64d",
        "arista-7060x6-64de",
        "arista-7060x6-32pe",
        "dell-z9332f",
        "arista-7060dx4-32",
        "arista-7060dx5-32",
        "arista-7060dx5-64s",
        "arista-7060px4-32",
        "micas-m2-w6930-64qc",
        "celestica-silverstone",
        "supermicro-sse-t8164",
    ] {
        let p = platform(name);
        let ex = excerpt(&format!("{name}/platform.json.txt"));
        // `Ethernet0 lanes=0,1,… modes=a|b|c` → groups of equal lanes and modes.
        let mut groups: Vec<(u32, Vec<String>, Vec<u32>)> = Vec::new();
        for l in &ex.lines {
            let f: Vec<&str> = l.split_whitespace().collect();
            let number: u32 = f[0]
                .strip_prefix("Ethernet")
                .and_then(|n| n.parse().ok())
                .expect("EthernetN");
            let lanes = f[1].trim_start_matches("lanes=").split(',').count() as u32;
            let modes: Vec<String> = f[2]
                .trim_start_matches("modes=")
                .split('|')
                .map(str::to_string)
                .collect();
            match groups.last_mut() {
                Some(g) if g.0 == lanes && g.1 == modes => g.2.push(number),
                _ => groups.push((lanes, modes, vec![number])),
            }
        }
        assert_eq!(groups.len(), p.cages.len(), "{name}");
        for (g, c) in groups.iter().zip(&p.cages) {
            assert_eq!(source_of(p, &c.source), ex.source, "{name}");
            assert_eq!(c.count as usize, g.2.len(), "{name}");
            assert_eq!(c.lanes, g.0, "{name}");
            assert_eq!(c.breakouts, g.1, "{name}");
        }
        // The cage numbers are the SONiC names of each cage's first port.
        let numbers: Vec<u32> = groups.iter().flat_map(|g| g.2.clone()).collect();
        let names: Vec<u32> = (0..numbers.len() as u32)
            .map(|cage| {
                let n = p.sonic_port_name(cage, 1, 0).expect("a name");
                n.trim_start_matches("Ethernet").parse().expect("number")
            })
            .collect();
        assert_eq!(names, numbers, "{name}");
    }
}

/// `{% set key = 'value' %}` lines of an excerpt.
fn sets(ex: &Excerpt) -> BTreeMap<String, String> {
    ex.lines
        .iter()
        .filter_map(|l| {
            let (_, rest) = l.split_once("set ")?;
            let (key, value) = rest.split_once('=')?;
            let value = value.split('\'').nth(1)?;
            Some((key.trim().to_string(), value.to_string()))
        })
        .collect()
}

#[test]
fn mellanox_pool_sizes_are_the_skus() {
    for &(name, sku_name, dir) in &SKUS[..4] {
        let p = platform(name);
        let s = sku(p, sku_name);
        for topo in ["t0", "t1"] {
            let ex = excerpt(&format!("{dir}/buffers_defaults_{topo}.txt"));
            let want = sets(&ex);
            let b = s
                .buffer_defaults(topo)
                .unwrap_or_else(|| panic!("{name} {sku_name} {topo}"));
            assert_eq!(source_of(p, &b.source), ex.source, "{name} {topo}");
            assert_eq!(b.default_cable, want["default_cable"], "{name} {topo}");
            for pool in &b.pools {
                assert_eq!(
                    pool.size.map(|s| s.to_string()).as_ref(),
                    want.get(&format!("{}_size", pool.name)),
                    "{name} {sku_name} {topo} {}",
                    pool.name
                );
            }
        }
    }
    // The usable buffer is the egress lossless pool, the MMU SONiC sizes pools from.
    for (name, bytes) in [
        ("nvidia-sn5600", 158_229_504),
        ("nvidia-sn5400", 158_229_504),
        ("nvidia-sn4700", 60_817_392),
    ] {
        let p = platform(name);
        let usable = p.buffer.usable.as_ref().expect("usable");
        assert_eq!(usable.bytes, bytes, "{name}");
        let default = p
            .sonic
            .as_ref()
            .and_then(|s| s.default_hwsku())
            .expect("sku");
        let t1 = default.buffer_defaults("t1").expect("t1");
        assert_eq!(usable.source, t1.source, "{name}: cites the t1 file");
        let egress = t1
            .pools
            .iter()
            .find(|p| p.name == "egress_lossless_pool")
            .and_then(|p| p.size);
        assert_eq!(egress, Some(bytes), "{name}");
    }
}

#[test]
fn mellanox_profiles_are_the_shared_objects() {
    let ex = excerpt("common/objects.txt");
    // `"name": {` then `"pool":"…"`, `"size":"…"`, `"dynamic_th":"…"`.
    let mut want: Vec<(String, String, u64, i32)> = Vec::new();
    let mut cur: Option<(String, String, u64)> = None;
    for l in &ex.lines {
        let t = l.trim();
        let quoted: Vec<&str> = t.split('"').collect();
        if t.ends_with('{') && quoted.len() >= 2 {
            cur = Some((quoted[1].to_string(), String::new(), 0));
        } else if let Some(c) = cur.as_mut() {
            match quoted.get(1).copied() {
                Some("pool") => c.1 = quoted[3].to_string(),
                Some("size") => c.2 = quoted[3].parse().expect("size"),
                Some("dynamic_th") => {
                    let (n, pool, size) = cur.take().expect("open profile");
                    want.push((n, pool, size, quoted[3].parse().expect("th")));
                }
                _ => {}
            }
        }
    }
    assert_eq!(want.len(), 5);
    for name in ["nvidia-sn5600", "nvidia-sn5400", "nvidia-sn4700"] {
        let p = platform(name);
        for sku in &p.sonic.as_ref().expect("sonic").hwskus {
            for b in &sku.buffer_defaults {
                assert_eq!(
                    source_of(p, b.profiles_source.as_deref().expect("profiles source")),
                    ex.source
                );
                let got: Vec<(String, String, u64, i32)> = b
                    .profiles
                    .iter()
                    .map(|pr| {
                        (
                            pr.name.clone(),
                            pr.pool.clone(),
                            pr.size,
                            pr.dynamic_th.expect("dynamic"),
                        )
                    })
                    .collect();
                assert_eq!(got, want, "{name} {}", sku.name);
            }
        }
    }
}

#[test]
fn broadcom_pools_and_profiles_are_the_skus() {
    for (name, sku_name, file) in [
        (
            "arista-7060x6-64pe",
            "Arista-7060X6-64PE-O128S2",
            "arista-7060x6-64pe/Arista-7060X6-64PE-O128S2/buffers_defaults_t1.txt",
        ),
        (
            "arista-7060x6-64pe",
            "Arista-7060X6-64PE-O128S2",
            "arista-7060x6-64pe/Arista-7060X6-64PE-O128S2/buffers_defaults_t0.txt",
        ),
        (
            "arista-7280r4-32qf-32df",
            "Arista-7280R4-32QF-32DF-64O",
            "arista-7280r4-32qf-32df/Arista-7280R4-32QF-32DF-64O/buffers_defaults_t2.txt",
        ),
        (
            "dell-z9864f",
            "Dell-Z9864f-O64",
            "dell-z9864f/Dell-Z9864f-O64/buffers_defaults_t0.txt",
        ),
        (
            "dell-z9864f",
            "Dell-Z9864f-O64",
            "dell-z9864f/Dell-Z9864f-O64/buffers_defaults_t1.txt",
        ),
        (
            "nokia-ixr7220-h5-64o",
            "Nokia-IXR7220-H5-64O",
            "nokia-ixr7220-h5-64o/Nokia-IXR7220-H5-64O/buffers_defaults_t0.txt",
        ),
        (
            "nokia-ixr7220-h5-64o",
            "Nokia-IXR7220-H5-64O",
            "nokia-ixr7220-h5-64o/Nokia-IXR7220-H5-64O/buffers_defaults_t1.txt",
        ),
        (
            "nokia-ixr7220-h5-64d",
            "Nokia-IXR7220-H5-64D",
            "nokia-ixr7220-h5-64d/Nokia-IXR7220-H5-64D/buffers_defaults_t0.txt",
        ),
        (
            "nokia-ixr7220-h5-64d",
            "Nokia-IXR7220-H5-64D",
            "nokia-ixr7220-h5-64d/Nokia-IXR7220-H5-64D/buffers_defaults_t1.txt",
        ),
        (
            "dell-z9332f",
            "DellEMC-Z9332f-O32",
            "dell-z9332f/DellEMC-Z9332f-O32/buffers_defaults_t0.txt",
        ),
        (
            "dell-z9332f",
            "DellEMC-Z9332f-O32",
            "dell-z9332f/DellEMC-Z9332f-O32/buffers_defaults_t1.txt",
        ),
        (
            "arista-7060x6-64pe-b",
            "Arista-7060X6-64PE-B-C512S2",
            "arista-7060x6-64pe-b/Arista-7060X6-64PE-B-C512S2/buffers_defaults_t0.txt",
        ),
        (
            "arista-7060x6-64pe-b",
            "Arista-7060X6-64PE-B-C512S2",
            "arista-7060x6-64pe-b/Arista-7060X6-64PE-B-C512S2/buffers_defaults_t1.txt",
        ),
        (
            "celestica-silverstone-v2",
            "Silverstone_v2",
            "celestica-silverstone-v2/Silverstone_v2/buffers_defaults_t0.txt",
        ),
        (
            "celestica-silverstone-v2",
            "Silverstone_v2",
            "celestica-silverstone-v2/Silverstone_v2/buffers_defaults_t1.txt",
        ),
    ] {
        let p = platform(name);
        let ex = excerpt(file);
        let topo = file
            .rsplit("buffers_defaults_")
            .next()
            .and_then(|t| t.strip_suffix(".txt"))
            .expect("topology");
        let b = sku(p, sku_name).buffer_defaults(topo).expect("layout");
        assert_eq!(source_of(p, &b.source), ex.source, "{name} {topo}");
        // Objects as `name: {field: value}` from the JSON lines.
        let mut objects: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        let mut cur: Option<String> = None;
        for l in &ex.lines {
            let q: Vec<&str> = l.split('"').collect();
            if l.trim_end().ends_with('{') && q.len() >= 3 {
                cur = Some(q[1].to_string());
            } else if let Some(c) = &cur
                && q.len() >= 5
            {
                // Some SKUs write a profile's pool as a reference, `[BUFFER_POOL|name]`.
                let value = q[3]
                    .strip_prefix("[BUFFER_POOL|")
                    .and_then(|v| v.strip_suffix(']'))
                    .unwrap_or(q[3]);
                objects
                    .entry(c.clone())
                    .or_default()
                    .insert(q[1].to_string(), value.to_string());
            }
        }
        let field = |obj: &str, f: &str| objects.get(obj).and_then(|o| o.get(f)).cloned();
        for pool in &b.pools {
            assert_eq!(field(&pool.name, "type"), Some(pool.kind.clone()), "{name}");
            assert_eq!(field(&pool.name, "mode"), Some(pool.mode.clone()), "{name}");
            assert_eq!(
                field(&pool.name, "size"),
                pool.size.map(|s| s.to_string()),
                "{name}"
            );
            assert_eq!(
                field(&pool.name, "xoff"),
                pool.xoff.map(|s| s.to_string()),
                "{name}"
            );
        }
        for pr in &b.profiles {
            assert_eq!(field(&pr.name, "pool"), Some(pr.pool.clone()), "{name}");
            assert_eq!(field(&pr.name, "size"), Some(pr.size.to_string()), "{name}");
            assert_eq!(
                field(&pr.name, "dynamic_th"),
                pr.dynamic_th.map(|d| d.to_string()),
                "{name} {}",
                pr.name
            );
            assert_eq!(
                field(&pr.name, "static_th"),
                pr.static_th.map(|d| d.to_string()),
                "{name} {}",
                pr.name
            );
        }
        assert_eq!(
            objects.len(),
            b.pools.len() + b.profiles.len(),
            "{name}: every object"
        );
        let dc = ex.lines[0].split('\'').nth(1).expect("default_cable");
        assert_eq!(b.default_cable, dc, "{name}");
    }
}

#[test]
fn sonic_identity_files() {
    for (name, dir) in [
        ("nvidia-sn5600", "nvidia-sn5600"),
        ("nvidia-sn5400", "nvidia-sn5400"),
        ("nvidia-sn4700", "nvidia-sn4700"),
        ("arista-7060x6-64pe", "arista-7060x6-64pe"),
        ("arista-7280r4-32qf-32df", "arista-7280r4-32qf-32df"),
        ("nvidia-sn4600c", "nvidia-sn4600c"),
        ("arista-7060x6-64pe-b", "arista-7060x6-64pe-b"),
        ("celestica-silverstone-v2", "celestica-silverstone-v2"),
        ("dell-z9864f", "dell-z9864f"),
        ("nokia-ixr7220-h5-64o", "nokia-ixr7220-h5-64o"),
        ("nokia-ixr7220-h5-64d", "nokia-ixr7220-h5-64d"),
        ("arista-7060x6-64de", "arista-7060x6-64de"),
        ("arista-7060x6-32pe", "arista-7060x6-32pe"),
        ("dell-z9332f", "dell-z9332f"),
        ("arista-7060dx4-32", "arista-7060dx4-32"),
        ("arista-7060dx5-32", "arista-7060dx5-32"),
        ("arista-7060dx5-64s", "arista-7060dx5-64s"),
        ("arista-7060px4-32", "arista-7060px4-32"),
        ("micas-m2-w6930-64qc", "micas-m2-w6930-64qc"),
        ("celestica-silverstone", "celestica-silverstone"),
        ("supermicro-sse-t8164", "supermicro-sse-t8164"),
    ] {
        let p = platform(name);
        let s = p.sonic.as_ref().expect("sonic");
        let sku = excerpt(&format!("{dir}/default_sku"));
        assert_eq!(s.default_sku.value, sku.lines[0], "{name}");
        assert_eq!(source_of(p, &s.default_sku.source), sku.source, "{name}");
        let asic = excerpt(&format!("{dir}/platform_asic"));
        assert_eq!(s.asic_type, asic.lines[0], "{name}");
        assert_eq!(source_of(p, &s.source), asic.source, "{name}");
        assert!(p.runs(Os::Sonic), "{name}");
    }
}

#[test]
fn mellanox_asic_table_and_scripts() {
    let table = excerpt("common/asic_table.txt");
    // `'x86_64-nvidia_sn5600-r0':'MELLANOX-SPECTRUM-4',` lines, then the entries.
    let mut key_of: BTreeMap<String, String> = BTreeMap::new();
    let mut entries: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut cur: Option<String> = None;
    for l in &table.lines {
        let q: Vec<&str> = l.split('\'').collect();
        if q.len() >= 4 {
            key_of.insert(q[1].to_string(), q[3].to_string());
            continue;
        }
        let d: Vec<&str> = l.split('"').collect();
        if let Some(k) = d.get(1).and_then(|s| s.strip_prefix("ASIC_TABLE:")) {
            cur = Some(k.to_string());
        } else if let (Some(c), true) = (&cur, d.len() >= 5) {
            entries
                .entry(c.clone())
                .or_default()
                .insert(d[1].to_string(), d[3].to_string());
        }
    }
    for name in [
        "nvidia-sn5600",
        "nvidia-sn5400",
        "nvidia-sn4700",
        "nvidia-sn4600c",
    ] {
        let p = platform(name);
        let s = p.sonic.as_ref().expect("sonic");
        let m = s.mellanox.as_ref().expect("mellanox");
        assert_eq!(source_of(p, &m.source), table.source, "{name}");
        assert_eq!(key_of[&s.platform], m.asic_table_key, "{name}");
        let e = &entries[&m.asic_table_key];
        assert_eq!(e["cell_size"], m.cell_size.to_string(), "{name}");
        assert_eq!(e["pipeline_latency"], m.pipeline_latency, "{name}");
        assert_eq!(e["mac_phy_delay"], m.mac_phy_delay, "{name}");
        assert_eq!(e["peer_response_time"], m.peer_response_time, "{name}");
        assert_eq!(e["port_reserved_shp"], m.port_reserved_shp.to_string());
        assert_eq!(e["port_max_shp"], m.port_max_shp.to_string());
        let cell = p.buffer.cell.as_ref().expect("cell");
        assert_eq!(cell.value, m.cell_size, "{name}");
        assert_eq!(source_of(p, &cell.source), table.source, "{name}");

        let rules = excerpt("common/rules_mk.txt");
        assert_eq!(rules.lines[0], "export SONIC_BUFFER_MODEL=dynamic");
        assert_eq!(s.buffer_model.value, "dynamic", "{name}");
        assert_eq!(source_of(p, &s.buffer_model.source), rules.source);

        let cfg = excerpt("common/buffers_config.txt");
        let t = s.lossless_traffic_pattern.as_ref().expect("pattern");
        assert!(
            cfg.lines
                .iter()
                .any(|l| l.trim() == format!("\"mtu\": \"{}\",", t.mtu))
        );
        assert!(cfg.lines.iter().any(|l| {
            l.trim()
                == format!(
                    "\"small_packet_percentage\": \"{}\"",
                    t.small_packet_percentage
                )
        }));
        let th = s.default_dynamic_th.as_ref().expect("default_dynamic_th");
        assert!(
            cfg.lines
                .iter()
                .any(|l| l.trim() == format!("\"default_dynamic_th\": \"{}\"", th.value))
        );
        assert_eq!(source_of(p, &t.source), cfg.source);

        let lua = excerpt("common/buffer_pool_mellanox.txt");
        let r = &m.pool_reserves;
        assert_eq!(source_of(p, &r.source), lua.source);
        for (var, bytes) in [
            ("private_headroom", r.private_headroom),
            ("mgmt_pool_size", r.mgmt_pool),
            ("egress_mirror_headroom", r.egress_mirror_headroom),
        ] {
            let line = lua
                .lines
                .iter()
                .find(|l| l.contains(&format!("local {var} =")))
                .unwrap_or_else(|| panic!("{var}"));
            let kib: u64 = line
                .split('=')
                .nth(1)
                .and_then(|v| v.trim().strip_suffix(" * 1024"))
                .and_then(|v| v.trim().parse().ok())
                .expect("N * 1024");
            assert_eq!(kib * 1024, bytes, "{name} {var}");
        }
    }
    let yang = excerpt("common/sonic_port_yang.txt");
    assert!(yang.lines.iter().any(|l| l.trim() == "range 68..9216;"));
    for p in &catalogue::catalogue().switches {
        if let Some(m) = p.sonic.as_ref().and_then(|s| s.max_mtu.as_ref()) {
            assert_eq!(m.value, 9216, "{}", p.name);
            assert_eq!(source_of(p, &m.source), yang.source, "{}", p.name);
        }
    }
}

#[test]
fn broadcom_buffer_model_is_traditional_by_template() {
    let init = excerpt("common/init_cfg.txt");
    // `"buffer_model": {% if default_buffer_model == "dynamic" %}"dynamic"{% else %}"traditional"{% endif %},`
    assert!(init.lines[0].contains(r#"{% else %}"traditional""#));
    for name in ["arista-7060x6-64pe", "arista-7280r4-32qf-32df"] {
        let p = platform(name);
        let s = p.sonic.as_ref().expect("sonic");
        assert_eq!(s.buffer_model.value, "traditional", "{name}");
        assert_eq!(source_of(p, &s.buffer_model.source), init.source, "{name}");
    }
    let soc = excerpt("arista-7280r4-32qf-32df/Arista-7280R4-32QF-32DF-64O/bcm_soc_family.txt");
    let p = platform("arista-7280r4-32qf-32df");
    let asic = p.asic.as_ref().expect("asic");
    assert_eq!(
        soc.lines[0],
        format!("soc_family={}", asic.part.as_deref().expect("part"))
    );
    assert_eq!(
        source_of(p, asic.part_source.as_deref().expect("part source")),
        soc.source
    );
}

#[test]
fn connectx_pci_ids_and_driver() {
    let tune = excerpt("common/mlnx_tune.txt");
    let consumers: String = tune
        .lines
        .iter()
        .filter(|l| !l.contains("DeviceType"))
        .cloned()
        .collect();
    for (name, class) in [
        ("nvidia-cx5", "ConnectX5"),
        ("nvidia-cx6", "ConnectX6"),
        ("nvidia-cx6lx", "ConnectX6LX"),
        ("nvidia-bf3", "BlueField3"),
        ("nvidia-cx6dx", "ConnectX6DX"),
        ("nvidia-cx7", "ConnectX7"),
        ("nvidia-cx8", "ConnectX8"),
    ] {
        let n = catalogue::nic_platform(name).expect("in the catalogue");
        let line = tune
            .lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(class) && l.contains("DeviceType"))
            .unwrap_or_else(|| panic!("{class}"));
        let decimal: u16 = line
            .split('"')
            .nth(1)
            .and_then(|d| d.parse().ok())
            .expect("decimal ID");
        assert_eq!(n.pci_device(), Some(decimal), "{name}");
        let id = n.pci_device_id.as_ref().expect("pci");
        assert_eq!(n.sources[&id.source].as_str(), tune.source, "{name}");
        assert!(
            consumers.contains(&format!(" {class},")),
            "{class} is an mlx5 consumer"
        );
        assert_eq!(n.driver(), "mlx5");
        assert_eq!(n.sources[&n.driver.source].as_str(), tune.source, "{name}");
    }
}

/// Numbers whose source is a vendor document (no excerpt can be committed): each pinned to
/// the source the catalogue must cite for it.
#[test]
fn vendor_document_numbers() {
    #[track_caller]
    fn pin(value: u64, expected: u64, source: &Source, quoted: &str) {
        assert_eq!(value, expected);
        assert!(
            source.as_str().starts_with(quoted),
            "{} does not start with {quoted}",
            source.as_str()
        );
    }
    let juniper_cos = "Juniper, Class of Service (QFX5220, QFX5230, QFX5240 and QFX5241 configuration essentials), Table 1: CoS Hardware Specifications https://www.juniper.net/documentation/us/en/software/platform/qfx5220-qfx5230-qfx5240-qfx5241-configuration-essentials/";
    for (name, bytes, published) in [
        ("juniper-qfx5240-64od", 165_200_000, "165.2 MB"),
        ("juniper-qfx5230-64cd", 112_000_000, "112 MB"),
    ] {
        let p = platform(name);
        let total = p.buffer.total.as_ref().expect("total");
        assert_eq!(total.published.as_deref(), Some(published));
        pin(total.bytes, bytes, &p.sources[&total.source], juniper_cos);
        assert_eq!(p.oses(), vec![Os::Junos]);
    }
    // Juniper hardware pages (issue 38): the cages as the page counts and rates them.
    for (name, cages, quoted) in [
        (
            "juniper-qfx5241-64od",
            &[(64, 800)][..],
            "Juniper, QFX5241-64OD and QFX5241-64QD Ports Panel",
        ),
        (
            "juniper-qfx5241-64qd",
            &[(64, 800)][..],
            "Juniper, QFX5241-64OD and QFX5241-64QD Ports Panel",
        ),
        (
            "juniper-qfx5241-32od",
            &[(32, 800)][..],
            "Juniper, QFX5241-32OD Port Panel",
        ),
        (
            "juniper-qfx5140",
            &[(24, 400), (8, 800), (2, 25)][..],
            "Juniper, QFX5140 Ports and Interfaces",
        ),
    ] {
        let p = platform(name);
        assert_eq!(p.cages.len(), cages.len(), "{name}");
        for (c, &(count, gbps)) in p.cages.iter().zip(cages) {
            pin(u64::from(c.count), count, &p.sources[&c.source], quoted);
            pin(u64::from(c.speed_gbps), gbps, &p.sources[&c.source], quoted);
        }
        assert_eq!(p.oses(), vec![Os::Junos]);
    }
    let cx8 = catalogue::nic_platform("nvidia-cx8").expect("cx8");
    let speed = cx8.max_port_speed_gbps.as_ref().expect("speed");
    pin(
        u64::from(speed.value),
        400,
        &cx8.sources[&speed.source],
        "NVIDIA, ConnectX-8 SuperNIC Firmware Release Notes v40.44.1036",
    );
    let cx7 = catalogue::nic_platform("nvidia-cx7").expect("cx7");
    let speed = cx7.max_port_speed_gbps.as_ref().expect("speed");
    pin(
        u64::from(speed.value),
        400,
        &cx7.sources[&speed.source],
        "NVIDIA, MMA4Z00-NS400-T 400Gb/s Single-port OSFP",
    );
    let ports = cx7.max_ports.as_ref().expect("ports");
    pin(
        u64::from(ports.value),
        2,
        &cx7.sources[&ports.source],
        "NVIDIA, ConnectX-7 Cards for OCP Spec 3.0 User Manual",
    );
    let cx6 = catalogue::nic_platform("nvidia-cx6dx").expect("cx6dx");
    let speed = cx6.max_port_speed_gbps.as_ref().expect("speed");
    pin(
        u64::from(speed.value),
        200,
        &cx6.sources[&speed.source],
        "NVIDIA, WinOF-2 Documentation: Supported Network Adapter Cards",
    );
}

/// What the catalogue leaves out is said, not silently missing.
#[test]
fn absent_numbers_are_listed_as_not_sourced() {
    for p in &catalogue::catalogue().switches {
        let said = |word: &str| p.not_sourced.iter().any(|n| n.contains(word));
        if p.buffer.total.is_none() {
            assert!(said("total") || said("buffer"), "{}: total buffer", p.name);
        }
        if p.buffer.cell.is_none() {
            assert!(said("cell"), "{}: cell", p.name);
        }
        if p.asic.is_none() {
            assert!(said("ASIC"), "{}: ASIC", p.name);
        }
        if p.cages.is_empty() && p.chassis.is_none() {
            assert!(said("cages"), "{}: cages", p.name);
        }
        if p.lossless_limit.is_none() {
            assert!(said("lossless"), "{}: lossless limit", p.name);
        }
        // A chassis's cards: a count or buffer the card leaves out is said, too.
        for c in p.chassis.iter().flat_map(|ch| &ch.linecards) {
            if c.asics.is_none() {
                assert!(said("ASICs per"), "{}: {} ASICs", p.name, c.name);
            }
            if c.buffer.pool_bytes().is_none() {
                assert!(said("buffer"), "{}: {} buffer", p.name, c.name);
            }
        }
    }
    for n in &catalogue::catalogue().nics {
        if n.buffer.is_none() {
            assert!(
                n.not_sourced.iter().any(|x| x.contains("buffer")),
                "{}",
                n.name
            );
        }
    }
}

/// The helpers the renderers use, on the SN5600 and the 7060X6, against the SKUs' files.
#[test]
fn helpers_answer_from_the_catalogue() {
    let p = platform("nvidia-sn5600");
    // The 2x400G SKU's second port of cage 1 is Ethernet4 on lanes 4-7.
    let o128 = p
        .sonic
        .as_ref()
        .and_then(|s| s.sku_for_split(2))
        .expect("2x400G SKU");
    assert_eq!(o128.name, "Mellanox-SN5600-O128");
    let row = &o128.port_config.parsed().expect("rows")[1];
    assert_eq!(
        p.sonic_port_name(0, 2, 1).as_deref(),
        Some(row.name.as_str())
    );
    assert_eq!(row.lanes, vec![4, 5, 6, 7]);
    assert_eq!(row.speed, Some(400_000));
    // A 3 m 400G port: SONiC's table has 5 m as the shortest row that covers it.
    let r = p.lookup_row(400_000, 3_000).expect("a row");
    assert_eq!(
        (r.cable.as_str(), r.size, r.xon, r.xoff),
        ("5m", 250_880, 19_456, 231_424)
    );
    let a = platform("arista-7060x6-64pe");
    let o128s2 = a
        .sonic
        .as_ref()
        .and_then(|s| s.sku_for_split(2))
        .expect("2x400G SKU");
    let r = o128s2.lookup_row(400_000, 30_000).expect("a row");
    assert_eq!(
        (r.cable.as_str(), r.size, r.xoff, r.xon_offset),
        ("40m", 18_796, 612_140, Some(3_556))
    );
    // The default 1x800G SKU ships an empty table.
    assert!(a.lookup_row(800_000, 3_000).is_none());
}

/// The DCBNL NICs: the driver each platform sets, and the Thor2 CNP default of the JVD that
/// `analysis::nic_drivers` models.
#[test]
fn dcbnl_nic_platforms() {
    let thor2 = catalogue::nic_platform("broadcom-bcm57608").expect("thor2");
    assert_eq!(thor2.driver(), "bnxt");
    assert_eq!(thor2.speed_mbps(), Some(400_000));
    let jvd = thor2.sources["jvd_amd"].as_str();
    assert!(jvd.contains("CNP DSCP 48/priority 7"), "{jvd}");
    let e810 = catalogue::nic_platform("intel-e810").expect("e810");
    assert_eq!(e810.driver(), "ice");
    assert!(e810.speed_mbps().is_none());
    assert!(e810.not_sourced.iter().any(|n| n.contains("speed")));
    for n in &catalogue::catalogue().nics {
        assert!(
            fabricc::render::NicDriver::from_model(n.driver()).is_some(),
            "{}: driver {} has a host script",
            n.name,
            n.driver()
        );
    }
}

/// The 7808R3's line card against SONiC's files for it (issue 18 item 3): two ASICs, 18
/// 400G ports on 8 lanes each, per-ASIC port_config in card-port order (alias
/// `Ethernet<port>/1`), one ingress pool per ASIC, the Jericho2C+ part.
#[test]
fn chassis_linecard_is_sonics_line_card() {
    let p = platform("arista-7808r3");
    let card = p.linecard("7800r3a-36d").expect("card");
    let conf = excerpt("arista-7808r3/asic.conf");
    let asics = card.asics.as_ref().expect("asics");
    assert_eq!(conf.source, source_of(p, &asics.source));
    assert!(conf.lines.contains(&format!("NUM_ASIC={}", asics.value)));
    let mut port = 0u32;
    for (asic, group) in card.cages.iter().enumerate() {
        let ex = excerpt(&format!("arista-7808r3/port_config_asic{asic}.ini"));
        assert_eq!(ex.source, source_of(p, &group.source));
        let ext: Vec<Vec<&str>> = ex
            .lines
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|f| f.get(4) == Some(&"Ext"))
            .collect();
        assert_eq!(ext.len() as u32, group.count, "ASIC {asic}");
        for f in ext {
            port += 1;
            assert_eq!(f[2], format!("Ethernet{port}/1"), "card port {port}");
            assert_eq!(f[1].split(',').count() as u32, group.lanes);
            assert_eq!(f[5], format!("{}000", group.speed_gbps));
            assert_eq!(card.asic_of(port - 1), asic as u32, "card port {port}");
        }
    }
    let pool = excerpt("arista-7808r3/buffers_defaults_t2.j2");
    let usable = card.buffer.usable.as_ref().expect("usable");
    assert_eq!(pool.source, source_of(p, &usable.source));
    assert!(
        pool.lines
            .iter()
            .any(|l| l.trim() == format!("\"size\": \"{}\",", usable.bytes))
    );
    let soc = excerpt("arista-7808r3/soc_family.bcm");
    assert_eq!(soc.source, source_of(p, &card.asic.source));
    assert_eq!(
        soc.lines,
        vec![format!(
            "soc_family={}",
            card.asic.part.as_deref().unwrap_or("")
        )]
    );
    let slots = &p.chassis.as_ref().expect("chassis").slots;
    assert_eq!((slots.first, slots.last), (3, 10));
}

/// The Nexus 9808 (issue 18 item 3) against NX-OS output in Cisco's test libraries: the
/// N9K-X9836DM-A is a 36 x 400G card seen in module 8, NX-OS numbers line cards from 1 and
/// names their ports `Eth<slot>/<port>`, and fabricc names the card's ports that way.
#[test]
fn nexus_9808_card_is_nxos_show_module() {
    let p = platform("cisco-n9808");
    let ch = p.chassis.as_ref().expect("chassis");
    let card = p.linecard("n9k-x9836dm-a").expect("card");
    let sm = excerpt("cisco-n9808/show_module.txt");
    let row: Vec<&str> = sm.lines[0].split_whitespace().collect();
    let [group] = &card.cages[..] else {
        panic!("one cage group")
    };
    assert_eq!(sm.source, source_of(p, &group.source));
    assert_eq!(sm.source, source_of(p, &ch.slots.source));
    assert_eq!(row[1], group.count.to_string(), "ports of the module");
    assert_eq!(row[2], format!("{}x{}G", group.count, group.speed_gbps));
    assert_eq!(row[row.len() - 2], card.model);
    let slot: u32 = row[0].parse().expect("module number");
    assert!(ch.slots.contains(slot), "module {slot} is a line-card slot");
    assert_eq!((ch.slots.first, ch.slots.last), (1, 8));
    // No source gives the ASICs per card or their buffer: both are left out.
    assert!(card.asics.is_none() && card.buffer.pool_bytes().is_none());

    let n9804 = excerpt("cisco-n9808/n9804_outputs.txt");
    let rule = p.naming.nxos.as_ref().expect("NX-OS naming");
    assert_eq!(n9804.source, source_of(p, &rule.source));
    assert!(
        !rule.breakout,
        "no source names the card's broken-out ports"
    );
    let line_cards: Vec<u32> = n9804
        .lines
        .iter()
        .filter_map(|l| l.strip_prefix("module "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f[2] != "0")
        .map(|f| f[0].parse().expect("slot"))
        .collect();
    assert_eq!(line_cards, vec![1, 4], "line cards numbered from 1");
    let unbroken: Vec<(u32, u32)> = n9804
        .lines
        .iter()
        .filter_map(|l| l.strip_prefix("Eth"))
        .filter_map(|l| match l.split('/').collect::<Vec<_>>()[..] {
            [slot, port] => Some((slot.parse().ok()?, port.parse().ok()?)),
            _ => None,
        })
        .collect();
    assert!(!unbroken.is_empty());
    for (slot, port) in unbroken {
        // The same slot and port on the catalogued card gets NX-OS's long form of the name.
        let place = ChassisPlace {
            cards: vec![(slot, card)],
        };
        let ports = [fabricc::catalogue::port_group::PortGroup::plain(
            36, 400_000,
        )];
        let name = place.place(&ports, port - 1).and_then(|c| c.name(Os::Nxos));
        assert_eq!(name, Some(format!("Ethernet{slot}/{port}")));
    }
}
