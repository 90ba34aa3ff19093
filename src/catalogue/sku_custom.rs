//! A SONiC SKU folder as `switch-model … { sku "PATH" }` names it (issue 38 item 1): its files
//! read and checked against the model's platform (`sku_folder`), and put together as the
//! catalogue would hold the SKU, so the SONiC lowering takes it like any other.
//!
//! What comes from where:
//! * ports, names, lanes, aliases, speeds and the breakout of every cage: `port_config.ini`;
//!   `hwsku.json`, where present, must give each cage it lists the breakout the rows give it
//!   (SONiC's `default_brkout_mode`, which `BREAKOUT_CFG` then carries);
//! * Broadcom: pools and profiles from `buffers_defaults_t1.j2` (required: without it
//!   nothing sources them), lossless rows from `pg_profile_lookup.ini`;
//! * Mellanox: SONiC's Spectrum templates compute the pools (`buffers_defaults_objects.j2`,
//!   `buffer_pool_mellanox.lua`), and fabricc computes them the same way from the MMU, so the
//!   layout's names are the platform's default SKU's; `pg_profile_lookup.ini` from the folder
//!   where present, else the default SKU's.

use super::platform::{Hwsku, Platform};
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
    let ports = match text("port_config.ini") {
        Some(t) => sku_folder::read_port_config(platform, &source("port_config.ini"), t),
        None => Err(vec![SkuFinding {
            file: "port_config.ini",
            line: None,
            message: "the folder has no `port_config.ini`".into(),
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
        match text("buffers_defaults_t1.j2") {
            Some(t) => match sku_folder::read_buffers("t1", &source("buffers_defaults_t1.j2"), t) {
                Ok(b) => vec![b],
                Err(f) => {
                    findings.extend(f);
                    Vec::new()
                }
            },
            None => {
                findings.push(SkuFinding {
                    file: "buffers_defaults_t1.j2",
                    line: None,
                    message: format!(
                        "the folder has no `buffers_defaults_t1.j2`: on a {} platform its pools and profiles come from that file",
                        platform.sonic.as_ref().map_or("SONiC", |s| s.asic_type.as_str())
                    ),
                });
                Vec::new()
            }
        }
    };
    if let (Some(p), Some(l), Some(b)) = (&ports, &lookup, layout.first())
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

/// The SKU's breakouts in words: `2x400G` where every cage runs the same, else each mode in
/// cage order once (`4x200G+2x400G`).
fn breakout_words(cages: &[CageUse]) -> String {
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
        // Without the buffer layout a Broadcom SKU has nothing to source its pools from.
        let f = read_folder(p, "Mixed", "skus/Mixed", &files[..2]).expect_err("no layout");
        assert_eq!(f[0].file, "buffers_defaults_t1.j2");
    }
}
