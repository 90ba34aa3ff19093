//! A SONiC SKU folder as `switch-model … { sku "PATH" }` names it (issue 38 item 1): its files
//! read and checked against the model's platform (`sku_folder`), and put together as the
//! catalogue would hold the SKU, so the SONiC lowering takes it like any other.
//!
//! What comes from where:
//! * ports, names, lanes, aliases, speeds and the breakout of every cage: `port_config.ini`;
//!   `hwsku.json`, where present, must give each cage it lists the breakout the rows give it
//!   (SONiC's `default_brkout_mode`, which `BREAKOUT_CFG` then carries);
//! * Broadcom: pools and profiles from `buffers_defaults_t0.j2`, `_t1.j2` and `_t2.j2`, each
//!   the folder has (one at least: without them nothing sources the pools; the lowering
//!   writes the one `Hwsku::layout` chooses), lossless rows from `pg_profile_lookup.ini`;
//! * Mellanox: SONiC's Spectrum templates compute the pools (`buffers_defaults_objects.j2`,
//!   `buffer_pool_mellanox.lua`), and fabricc computes them the same way from the MMU, so the
//!   layout's names are the platform's default SKU's; `pg_profile_lookup.ini` from the folder
//!   where present, else the default SKU's.

use super::platform::{BreakoutMode, Hwsku, LAYOUT_ORDER, Platform, choose_layout};
use super::sku_folder::{self, CageUse, SkuFinding};

/// A user's SONiC SKU, read from its folder and checked against the model's platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomSku {
    /// The folder as the model names it.
    pub path: String,
    /// The SKU as the catalogue would hold it: the folder's name, its rows, its tables.
    pub hwsku: Hwsku,
    /// The breakout of every cage the rows use, in cage order.
    pub cages: Vec<CageUse>,
    /// `hwsku.json`'s `default_brkout_mode` per parent port, where the folder has one.
    pub brkout_modes: Vec<(String, String)>,
}

/// Reads the folder's `files` (name, text) for `platform`; `name` is the folder's name (the
/// HWSKU), `path` the folder as written. Every finding is returned.
pub fn read_folder(
    platform: &Platform,
    name: &str,
    path: &str,
    files: &[(&str, &str)],
) -> Result<CustomSku, Vec<SkuFinding>> {
    let text = |f: &str| files.iter().find(|(n, _)| *n == f).map(|(_, t)| *t);
    let source = |f: &str| format!("{path}/{f}");
    let mut findings = Vec::new();
    let ports = match (text("port_config.ini"), text("hwsku.json")) {
        (Some(t), _) => sku_folder::read_port_config(platform, &source("port_config.ini"), t),
        // SONiC's own way when a SKU has no port_config.ini: the rows from platform.json's
        // lanes and hwsku.json's breakouts (sonic-config-engine portconfig.py).
        (None, Some(j)) => rows_from_hwsku_json(platform, j).and_then(|rows| {
            sku_folder::read_port_config(platform, &source("hwsku.json"), &rows).map_err(|f| {
                f.into_iter()
                    .map(|x| SkuFinding {
                        file: "hwsku.json",
                        bytes: None,
                        line: None,
                        message: format!("the rows it gives: {}", x.message),
                    })
                    .collect()
            })
        }),
        (None, None) => Err(vec![SkuFinding {
            file: "port_config.ini",
            bytes: None,
            line: None,
            message: "the folder has neither `port_config.ini` nor `hwsku.json`".into(),
        }]),
    };
    let ports = match ports {
        Ok(p) => Some(p),
        Err(f) => {
            findings.extend(f);
            None
        }
    };
    let mut brkout_modes = Vec::new();
    if let (Some(p), Some(t)) = (&ports, text("hwsku.json")) {
        match sku_folder::read_hwsku_json(p, t) {
            Ok(m) => brkout_modes = m,
            Err(f) => findings.extend(f),
        }
    }
    let mellanox = platform
        .sonic
        .as_ref()
        .is_some_and(|s| s.asic_type == "mellanox");
    let default = platform.sonic.as_ref().and_then(|s| s.default_hwsku());
    let lookup = match text("pg_profile_lookup.ini") {
        Some(t) => match sku_folder::read_pg_lookup(&source("pg_profile_lookup.ini"), t) {
            Ok(l) => Some(l),
            Err(f) => {
                findings.extend(f);
                None
            }
        },
        None if mellanox => default.and_then(|d| d.pg_profile_lookup.clone()),
        None => None,
    };
    let layout = if mellanox {
        default
            .map(|d| d.buffer_defaults.clone())
            .unwrap_or_default()
    } else {
        // Every layout the folder has, each checked: SONiC renders the one the switch's
        // `DEVICE_METADATA` `type` names, so each may be the one a switch runs.
        let mut layouts = Vec::new();
        for topology in LAYOUT_ORDER {
            let file = sku_folder::layout_file(topology);
            if let Some(t) = text(file) {
                match sku_folder::read_buffers(topology, &source(file), t) {
                    Ok(b) => layouts.push(b),
                    Err(f) => findings.extend(f),
                }
            }
        }
        if !LAYOUT_ORDER
            .iter()
            .any(|t| text(sku_folder::layout_file(t)).is_some())
        {
            findings.push(SkuFinding {
                file: "buffers_defaults_t1.j2",
                bytes: None,
                line: None,
                message: format!(
                    "the folder has no `buffers_defaults_t0.j2`, `buffers_defaults_t1.j2` or `buffers_defaults_t2.j2`: on a {} platform its pools and profiles come from those files",
                    platform.sonic.as_ref().map_or("SONiC", |s| s.asic_type.as_str())
                ),
            });
        }
        layouts
    };
    // The lookup rows must cover the default cable of the layout fabricc writes.
    if let (Some(p), Some(l), Some(b)) = (&ports, &lookup, choose_layout(&layout))
        && text("pg_profile_lookup.ini").is_some()
    {
        // The auxiliary cages (management-side SFP ports) carry no fabric traffic.
        let fabric = sku_folder::SkuPorts {
            cages: p
                .cages
                .iter()
                .filter(|c| !platform.cage_group(c.cage).is_some_and(|g| g.aux))
                .cloned()
                .collect(),
            ..p.clone()
        };
        findings.extend(sku_folder::check_together(&fabric, l, b));
    }
    let Some(ports) = ports.filter(|_| findings.is_empty()) else {
        return Err(findings);
    };
    let hwsku = Hwsku {
        name: name.to_string(),
        breakout: breakout_words(&ports.cages),
        port_config: ports.port_config,
        pg_profile_lookup: lookup,
        buffer_defaults: layout,
        note: Some(format!("read from the SKU folder `{path}`")),
    };
    Ok(CustomSku {
        path: path.to_string(),
        hwsku,
        cages: ports.cages,
        brkout_modes,
    })
}

/// A `port_config.ini` text made from a folder that has only `hwsku.json`, as SONiC makes
/// its port table from `platform.json` and `hwsku.json`: each listed cage's lanes (those of
/// the platform's own SKUs in the catalogue) split evenly among the mode's ports, named as
/// SONiC numbers them, at the mode's speed. Aliases are the cage's number with `a`, `b`, …
/// (fabricc writes no alias; SONiC takes them from `platform.json`).
fn rows_from_hwsku_json(platform: &Platform, text: &str) -> Result<String, Vec<SkuFinding>> {
    let at = |line: Option<usize>, message: String| SkuFinding {
        file: "hwsku.json",
        bytes: None,
        line,
        message,
    };
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| vec![SkuFinding::not_json("hwsku.json", &e)])?;
    let Some(interfaces) = json.get("interfaces").and_then(|v| v.as_object()) else {
        return Err(vec![at(None, "no `interfaces` object".into())]);
    };
    let lanes = sku_folder::cage_lane_numbers(platform);
    let mut findings = Vec::new();
    let mut rows: Vec<(u32, String)> = Vec::new();
    for (name, v) in interfaces {
        let quoted = format!("\"{name}\"");
        let line = text
            .lines()
            .position(|l| l.contains(&quoted))
            .map(|i| i + 1);
        let cage = (0..platform.cages.iter().map(|g| g.count).sum::<u32>())
            .find(|&c| platform.sonic_port_name(c, 1, 0).as_deref() == Some(name.as_str()));
        let mode = v
            .get("default_brkout_mode")
            .and_then(|m| m.as_str())
            .and_then(BreakoutMode::parse);
        let (Some(cage), Some(mode)) = (cage, mode) else {
            findings.push(at(
                line,
                format!("`{name}` is no cage's first port of `{}`, or has no `default_brkout_mode` that reads", platform.name),
            ));
            continue;
        };
        let cage_lanes: Vec<u32> = lanes
            .get(&(cage + 1))
            .map(|l| l.iter().copied().collect())
            .unwrap_or_default();
        let ways = mode.ports as usize;
        if cage_lanes.is_empty() || !cage_lanes.len().is_multiple_of(ways) {
            findings.push(at(
                line,
                format!(
                    "cage {} has {} known lanes, which {ways} ports cannot share",
                    cage + 1,
                    cage_lanes.len()
                ),
            ));
            continue;
        }
        let each = cage_lanes.len() / ways;
        for (k, chunk) in cage_lanes.chunks(each).enumerate() {
            let sub = u32::try_from(k).unwrap_or(u32::MAX);
            let port = platform
                .sonic_port_name(cage, mode.ports, sub)
                .unwrap_or_default();
            let lanes: Vec<String> = chunk.iter().map(u32::to_string).collect();
            let suffix = if ways > 1 {
                char::from(b'a' + u8::try_from(k % 26).unwrap_or(0)).to_string()
            } else {
                String::new()
            };
            rows.push((
                cage,
                format!(
                    "{port} {} etp{}{suffix} {} {}",
                    lanes.join(","),
                    cage + 1,
                    cage + 1,
                    u64::from(mode.speed_gbps) * 1000
                ),
            ));
        }
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    rows.sort_by_key(|(c, _)| *c);
    let mut out = String::from("# name lanes alias index speed\n");
    for (_, r) in rows {
        out.push_str(&r);
        out.push('\n');
    }
    Ok(out)
}

/// The SKU's breakouts in words: `2x400G` where every cage runs the same, else each mode in
/// cage order once (`4x200G+2x400G`).
pub(super) fn breakout_words(cages: &[CageUse]) -> String {
    let mut modes: Vec<String> = Vec::new();
    for c in cages {
        let m = format!("{}x{}G", c.ports, c.speed_mbps.unwrap_or(0) / 1000);
        if !modes.contains(&m) {
            modes.push(m);
        }
    }
    modes.join("+")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::switch_platform;

    /// Which catalogue SKUs get FAB818: those whose layouts differ in what fabricc writes
    /// (on Spectrum, pool sizes aside: fabricc computes them).
    #[test]
    fn catalogue_skus_whose_layouts_differ() {
        let mut differ = Vec::new();
        for p in &crate::catalogue::catalogue().switches {
            let Some(s) = &p.sonic else { continue };
            for h in &s.hwskus {
                let others = h.other_layouts(s.asic_type != "mellanox");
                if !others.is_empty() {
                    let what: Vec<String> = others
                        .iter()
                        .map(|(b, n)| format!("{}: {}", b.topology, n.join(",")))
                        .collect();
                    differ.push(format!("{} {}", h.name, what.join(" ")));
                }
            }
        }
        // Silverstone v2's t0 has no shared headroom pool (`xoff`), its t1 has 4,625,920 B.
        assert_eq!(differ, ["Silverstone_v2 t0: ingress_lossless_pool"]);
    }

    #[test]
    fn a_mixed_folder_becomes_a_sku() {
        let p = switch_platform("arista-7060x6-64pe").expect("in the catalogue");
        let ports = "# name lanes alias index speed
Ethernet0 17,18 etp1a 1 200000
Ethernet2 19,20 etp1b 1 200000
Ethernet4 21,22 etp1c 1 200000
Ethernet6 23,24 etp1d 1 200000
Ethernet8 1,2,3,4 etp2a 2 400000
Ethernet12 5,6,7,8 etp2b 2 400000
";
        let lookup = " 200000 5m 18796 0 229362 0 3556\n 400000 5m 18796 0 393192 0 3556\n";
        let default = p
            .sonic
            .as_ref()
            .and_then(|s| s.sku("Arista-7060X6-64PE-O128S2"))
            .and_then(|k| k.buffer_defaults("t1"))
            .expect("layout");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/catalogue");
        let buffers = std::fs::read_to_string(
            dir.join("arista-7060x6-64pe/Arista-7060X6-64PE-O128S2/buffers_defaults_t1.txt"),
        )
        .expect("excerpt");
        let files = [
            ("port_config.ini", ports),
            ("pg_profile_lookup.ini", lookup),
            ("buffers_defaults_t1.j2", buffers.as_str()),
        ];
        let sku = read_folder(p, "Mixed", "skus/Mixed", &files).expect("reads");
        assert_eq!(sku.hwsku.name, "Mixed");
        assert_eq!(sku.hwsku.breakout, "4x200G+2x400G");
        assert_eq!(sku.hwsku.split(), None);
        assert_eq!(sku.hwsku.buffer_defaults[0].pools, default.pools);
        let front = sku.hwsku.front_ports(p).expect("rows");
        assert_eq!(front.len(), 6);
        assert_eq!(front[0].1, 200_000);
        assert_eq!(front[5].1, 400_000);
        // hwsku.json alone gives the same rows (names, lanes, speeds; aliases aside).
        let json = r#"{"interfaces": {
            "Ethernet8": {"default_brkout_mode": "2x400G"},
            "Ethernet0": {"default_brkout_mode": "4x200G"}
        }}"#;
        let only_json = [("hwsku.json", json), files[1], files[2]];
        let from_json = read_folder(p, "Mixed", "skus/Mixed", &only_json).expect("reads");
        let names = |s: &CustomSku| {
            s.hwsku
                .front_ports(p)
                .unwrap_or_default()
                .into_iter()
                .map(|(r, speed)| (r.name, r.lanes, speed))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&from_json), names(&sku));
        assert_eq!(from_json.brkout_modes.len(), 2);
        let bad = r#"{"interfaces": {"Ethernet2": {"default_brkout_mode": "4x200G"}}}"#;
        let f = read_folder(
            p,
            "Mixed",
            "skus/Mixed",
            &[("hwsku.json", bad), files[1], files[2]],
        )
        .expect_err("not a cage's first port");
        assert_eq!((f[0].file, f[0].line), ("hwsku.json", Some(1)));
        // Without the buffer layout a Broadcom SKU has nothing to source its pools from.
        let f = read_folder(p, "Mixed", "skus/Mixed", &files[..2]).expect_err("no layout");
        assert_eq!(f[0].file, "buffers_defaults_t1.j2");
    }
}
