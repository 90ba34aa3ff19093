//! A switch platform as the catalogue records it, and the questions the next stages ask of
//! it: which OSes run on it, what ports it has (and whether a model's `ports` fit them), what
//! a port is called on each OS, which SONiC lookup row a cable gets, which constants SONiC's
//! Mellanox headroom formula reads.
//!
//! Field names follow the upstream files they come from (`pg_profile_lookup.ini` columns,
//! `BUFFER_POOL` fields, `asic_table.j2` keys), so a reader can hold one against the other.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Source;
use super::asic_table::AsicConstants;
use super::port_group::PortGroup;
use crate::syntax::ast::{BufferModel, Os};

/// A number (or word) and the key of its source in the platform's `sources`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Num<T> {
    pub value: T,
    pub source: String,
    /// What the number means where the source is not plain about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    /// `vendor-model`, lower case: what `platform NAME` names.
    pub name: String,
    pub vendor: String,
    pub model: String,
    pub summary: String,
    /// Key → source; every `source:` below names one of these keys.
    pub sources: BTreeMap<String, Source>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asic: Option<Asic>,
    /// The OSes that run on the platform (the first is not a default: a model on a platform
    /// that runs several must say `os`).
    pub os: Vec<OsSupport>,
    /// Front-panel cages, in port order. Empty when no public source gives them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cages: Vec<CageGroup>,
    #[serde(default)]
    pub buffer: Buffer,
    /// Lossless priorities (priority groups with PFC) the platform supports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lossless_limit: Option<Num<u8>>,
    #[serde(default)]
    pub naming: Naming,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sonic: Option<Sonic>,
    /// A modular chassis: its line-card slots and cards. Its ports, ASICs and buffers are the
    /// cards' (`cages` and `buffer` above stay empty), `docs/platforms.md` "Modular chassis".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chassis: Option<Chassis>,
    /// What the catalogue does not record for lack of a public source, in words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_sourced: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Asic {
    /// As the source names it (`Spectrum-4`, `Tomahawk5`, `Jericho3`).
    pub name: String,
    /// Part number or die name where the source gives one (`BCM8887X`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    pub family: AsicFamily,
    pub source: String,
    /// Where `part` comes from, when not from `source`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part_source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// ASIC families renderers tell apart (SONiC Mellanox vs Broadcom tables, EOS XGS vs Sand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AsicFamily {
    #[serde(rename = "spectrum-3")]
    Spectrum3,
    #[serde(rename = "spectrum-4")]
    Spectrum4,
    #[serde(rename = "tomahawk-3")]
    Tomahawk3,
    #[serde(rename = "tomahawk-4")]
    Tomahawk4,
    #[serde(rename = "tomahawk-5")]
    Tomahawk5,
    #[serde(rename = "jericho-2")]
    Jericho2,
    #[serde(rename = "jericho-3")]
    Jericho3,
    /// Cisco Silicon One (Q200): the Nexus 9800 line cards.
    #[serde(rename = "silicon-one")]
    SiliconOne,
}

impl AsicFamily {
    pub fn as_str(self) -> &'static str {
        match self {
            AsicFamily::Spectrum3 => "spectrum-3",
            AsicFamily::Spectrum4 => "spectrum-4",
            AsicFamily::Tomahawk3 => "tomahawk-3",
            AsicFamily::Tomahawk4 => "tomahawk-4",
            AsicFamily::Tomahawk5 => "tomahawk-5",
            AsicFamily::Jericho2 => "jericho-2",
            AsicFamily::Jericho3 => "jericho-3",
            AsicFamily::SiliconOne => "silicon-one",
        }
    }

    /// NVIDIA Spectrum: SONiC's Mellanox tables and headroom formula apply.
    pub fn is_spectrum(self) -> bool {
        matches!(self, AsicFamily::Spectrum3 | AsicFamily::Spectrum4)
    }

    /// Broadcom StrataXGS (Tomahawk, Trident): shared-buffer, SONiC Broadcom profiles.
    pub fn is_broadcom_xgs(self) -> bool {
        matches!(
            self,
            AsicFamily::Tomahawk3 | AsicFamily::Tomahawk4 | AsicFamily::Tomahawk5
        )
    }

    /// Broadcom StrataDNX (Jericho, Qumran): VOQ, deep buffer; EOS calls these Sand platforms.
    pub fn is_broadcom_dnx(self) -> bool {
        matches!(self, AsicFamily::Jericho2 | AsicFamily::Jericho3)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OsSupport {
    /// `sonic`, `cumulus`, `eos`, `nxos` or `junos`.
    pub os: String,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Largest port MTU the OS accepts on this platform, where documented.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_mtu: Option<Num<u32>>,
    /// The finding a fabric of this platform on this OS stops on because the catalogue lacks
    /// what the target needs (a number no public source gives): the unknown made explicit.
    /// `tests/it/catalogue_builds.rs` builds a minimal fabric on every platform and OS and
    /// holds each to it (no finding where this is absent, exactly this one where present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_finding: Option<BuildFinding>,
}

/// A finding `build` reports on a platform and OS, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildFinding {
    /// `FAB956`.
    pub code: String,
    pub why: String,
}

impl OsSupport {
    pub fn os(&self) -> Option<Os> {
        Os::ALL.iter().copied().find(|o| o.as_str() == self.os)
    }
}

/// `count` identical cages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CageGroup {
    pub count: u32,
    /// Fastest speed of one cage, Gb/s.
    pub speed_gbps: u32,
    /// SerDes lanes per cage.
    pub lanes: u32,
    /// Breakout modes as SONiC's `platform.json` writes them: `2x400G[200G,100G]` is two
    /// ports of 400G each that may also run at 200G or 100G.
    pub breakouts: Vec<String>,
    /// Management-side or slow cages beside the front-panel ones (SFP ports): recorded for
    /// port names, left out of the model's `ports`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aux: bool,
    /// The SONiC name number (`Ethernet<n>`) of each cage's first port.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sonic_names: Option<SonicNames>,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `breakouts` parsed, once: port naming asks for them per port.
    #[serde(skip)]
    parsed: std::sync::OnceLock<Vec<BreakoutMode>>,
}

/// `first` + cage × `lanes`, or an explicit list (one per cage) where the numbers skip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SonicNames {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub list: Vec<u32>,
}

/// One breakout mode, parsed: `ports` × `speed_gbps`, also able to run `also_gbps`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakoutMode {
    pub ports: u32,
    pub speed_gbps: u32,
    pub also_gbps: Vec<u32>,
}

impl BreakoutMode {
    /// `2x400G[200G,100G]`, `4x25G(4)[10G,1G]`, `1x800G`.
    pub fn parse(text: &str) -> Option<BreakoutMode> {
        let (head, alts) = match text.split_once('[') {
            Some((h, rest)) => (h, rest.strip_suffix(']')?),
            None => (text, ""),
        };
        let head = match head.split_once('(') {
            Some((h, lanes)) => {
                lanes.strip_suffix(')')?.parse::<u32>().ok()?;
                h
            }
            None => head,
        };
        let (n, speed) = head.split_once('x')?;
        let gbps = |s: &str| s.strip_suffix('G')?.parse::<u32>().ok();
        let also = if alts.is_empty() {
            Vec::new()
        } else {
            alts.split(',').map(gbps).collect::<Option<Vec<u32>>>()?
        };
        Some(BreakoutMode {
            ports: n.parse().ok().filter(|&n| n > 0)?,
            speed_gbps: gbps(speed)?,
            also_gbps: also,
        })
    }
}

impl CageGroup {
    /// The breakout modes that parse (the catalogue's own check requires all of them to).
    pub fn modes(&self) -> &[BreakoutMode] {
        self.parsed.get_or_init(|| {
            self.breakouts
                .iter()
                .filter_map(|b| BreakoutMode::parse(b))
                .collect()
        })
    }

    /// Ports of at least `speed_gbps` one cage gives at best (0: none that fast).
    pub fn ports_per_cage(&self, speed_gbps: u32) -> u32 {
        self.modes()
            .iter()
            .filter(|m| m.speed_gbps >= speed_gbps)
            .map(|m| m.ports)
            .max()
            .unwrap_or(0)
    }

    /// Sub-ports one cage of this group gives port group `g` at `speed_gbps`: its declared
    /// breakout where the cage has that mode at that speed (0 where it has not, so the ports
    /// do not fit), else as far as the cage allows (`ports_per_cage`).
    pub fn ports_for(&self, g: &PortGroup, speed_gbps: u32) -> u32 {
        match g.breakout {
            None => self.ports_per_cage(speed_gbps),
            Some(b) => {
                let ok = self
                    .modes()
                    .iter()
                    .any(|m| m.ports == b.ways && m.speed_gbps >= speed_gbps);
                if ok && u64::from(self.speed_gbps) * 1000 >= b.cage_speed {
                    b.ways
                } else {
                    0
                }
            }
        }
    }

    /// Whether `split` ports per cage is one of the cage's modes.
    pub fn has_split(&self, split: u32) -> bool {
        self.modes().iter().any(|m| m.ports == split)
    }

    /// SONiC's name number of the first port of cage `k` of this group.
    pub(super) fn sonic_base(&self, k: u32) -> Option<u32> {
        let n = self.sonic_names.as_ref()?;
        if n.list.is_empty() {
            Some(n.first? + k * self.lanes)
        } else {
            n.list.get(k as usize).copied()
        }
    }
}

/// A modular chassis (issue 18 item 3): the slots line cards go in and the cards the catalogue
/// knows for it. Each card has its own ASICs and each ASIC its own packet buffer, so the card
/// (and the ASIC on it) is the unit of buffer checks and of port names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chassis {
    pub slots: SlotRange,
    pub linecards: Vec<Linecard>,
}

/// The line-card slots, numbered as the OS numbers them (`Ethernet<slot>/…` on EOS).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotRange {
    pub first: u32,
    pub last: u32,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl SlotRange {
    pub fn contains(&self, slot: u32) -> bool {
        (self.first..=self.last).contains(&slot)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Linecard {
    /// What `linecard SLOTS NAME` names: the card's model, lower case.
    pub name: String,
    pub model: String,
    pub summary: String,
    pub asic: Asic,
    /// Packet processors on the card; its ports are split evenly among them in port order.
    /// Absent where no source gives the count: the card is then one buffer unit
    /// (`Linecard::asic_count`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asics: Option<Num<u32>>,
    /// Front-panel cages in port order (port 1 is the first).
    pub cages: Vec<CageGroup>,
    /// The buffer of ONE of the card's ASICs: each has its own.
    #[serde(default)]
    pub buffer: Buffer,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Buffer {
    /// The packet buffer as the vendor publishes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<Bytes>,
    /// What the OS gives the buffer pools (SONiC Mellanox: the MMU, `egress_lossless_pool`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usable: Option<Bytes>,
    /// Allocation unit, bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<Num<u64>>,
}

impl Buffer {
    /// What fabricc sizes pools from: what the OS gives the pools where known, else the
    /// vendor's figure.
    pub fn pool_bytes(&self) -> Option<u64> {
        self.usable
            .as_ref()
            .or(self.total.as_ref())
            .map(|b| b.bytes)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bytes {
    pub bytes: u64,
    /// The figure as the source prints it (`165.2 MB`), where it is not in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How each OS names this platform's ports: the rule is the OS's (see `Platform::port_name`);
/// the entry says that the rule is documented, and where.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Naming {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sonic: Option<NamingRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulus: Option<NamingRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eos: Option<NamingRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nxos: Option<NamingRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junos: Option<NamingRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vrp: Option<NamingRule>,
    pub comware: Option<NamingRule>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamingRule {
    /// The pattern in words (`swp<cage>`, `swp<cage>s<sub, from 0>`).
    pub pattern: String,
    /// Whether the source also gives the names of broken-out ports.
    #[serde(default)]
    pub breakout: bool,
    pub source: String,
    /// A configuration that uses the names, where the rule's source does not show them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example_source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sonic {
    /// `DEVICE_METADATA.platform` (`x86_64-nvidia_sn5600-r0`).
    pub platform: String,
    /// The image family (`platform_asic`): `mellanox`, `broadcom`, `broadcom-dnx`.
    pub asic_type: String,
    pub source: String,
    /// The SKU a fresh install runs, and its default topology (`default_sku`).
    pub default_sku: Num<String>,
    pub hwskus: Vec<Hwsku>,
    /// `DEVICE_METADATA.buffer_model` of a fresh image.
    pub buffer_model: Num<String>,
    /// `LOSSLESS_TRAFFIC_PATTERN` of the dynamic model's defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lossless_traffic_pattern: Option<TrafficPattern>,
    /// `DEFAULT_LOSSLESS_BUFFER_PARAMETER.default_dynamic_th` of the dynamic model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_dynamic_th: Option<Num<i32>>,
    /// `PORT.mtu` range the YANG model allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_mtu: Option<Num<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mellanox: Option<Mellanox>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrafficPattern {
    pub mtu: u32,
    pub small_packet_percentage: u32,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hwsku {
    pub name: String,
    /// The breakout every front-panel cage runs in this SKU (`1x800G`, `2x400G`).
    pub breakout: String,
    pub port_config: PortConfig,
    /// Absent where the SKU ships an empty table (no lossless profile by lookup).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pg_profile_lookup: Option<Lookup>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buffer_defaults: Vec<BufferDefaults>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The SKU's `port_config.ini`, columns as its header names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortConfig {
    pub source: String,
    pub columns: Vec<String>,
    pub rows: Vec<String>,
}

/// One `port_config.ini` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortConfigRow {
    pub name: String,
    pub lanes: Vec<u32>,
    pub alias: String,
    /// Front-panel cage, 1-based: a file whose `index` counts from 0 is read shifted by one
    /// ([`PortConfig::index_base`]).
    pub index: u32,
    /// Mb/s, where the file has a `speed` column.
    pub speed: Option<u64>,
}

impl PortConfig {
    /// Where the file's `index` column starts: 0 when a row says `0` (some SKUs of
    /// sonic-buildimage count their cages from 0, e.g. `device/micas/
    /// x86_64-micas_m2-w6930-64qc-r0/M2-W6930-64QC/port_config.ini` at 086b03bd70f9, whose
    /// `Ethernet1` is index 0), else 1, as most SKUs and `platform.json` number them. SONiC
    /// itself only orders ports by `index`, so both are the same front panel.
    pub fn index_base(&self) -> u32 {
        let Some(k) = self.columns.iter().position(|c| c == "index") else {
            return 1;
        };
        let zero = self.rows.iter().any(|r| {
            r.split_whitespace()
                .nth(k)
                .and_then(|i| i.parse::<u32>().ok())
                == Some(0)
        });
        u32::from(!zero)
    }

    /// The rows parsed, `index` counted from 1; `None` when one does not follow `columns`.
    pub fn parsed(&self) -> Option<Vec<PortConfigRow>> {
        let base = self.index_base();
        self.rows.iter().map(|r| self.parse_row(r, base)).collect()
    }

    /// Row `r` (a line of the table), its `index` read as counting from `base`.
    pub fn parse_row(&self, r: &str, base: u32) -> Option<PortConfigRow> {
        let col = |c: &str| self.columns.iter().position(|x| x == c);
        let (name, lanes, alias, index) =
            (col("name")?, col("lanes")?, col("alias")?, col("index")?);
        let speed = col("speed");
        let f: Vec<&str> = r.split_whitespace().collect();
        if f.len() != self.columns.len() {
            return None;
        }
        Some(PortConfigRow {
            name: f[name].to_string(),
            lanes: f[lanes]
                .split(',')
                .map(|l| l.parse().ok())
                .collect::<Option<Vec<u32>>>()?,
            alias: f[alias].to_string(),
            index: f[index].parse::<u32>().ok()?.checked_add(1 - base.min(1))?,
            speed: match speed {
                Some(s) => Some(f[s].parse().ok()?),
                None => None,
            },
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lookup {
    pub source: String,
    pub rows: Vec<LookupRow>,
}

/// A `pg_profile_lookup.ini` row. Mellanox: `size` = xon + xoff (+ MTU on 8-lane ports),
/// all headroom. Broadcom: `size` is the guaranteed minimum, `xoff` headroom, and
/// `xon_offset` the hysteresis below the pause point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookupRow {
    /// Mb/s.
    pub speed: u64,
    /// As SONiC writes it: `5m`, `300m`.
    pub cable: String,
    pub size: u64,
    pub xon: u64,
    pub xoff: u64,
    /// `dynamic_th` of the profile.
    pub threshold: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xon_offset: Option<u64>,
}

impl LookupRow {
    /// The cable length in metres.
    pub fn cable_m(&self) -> Option<u64> {
        self.cable.strip_suffix('m')?.parse().ok()
    }
}

/// The layouts fabricc reads, in the order it prefers them (`Hwsku::layout`).
pub const LAYOUT_ORDER: [&str; 3] = ["t1", "t0", "t2"];

/// The layout of `layouts` fabricc writes (`Hwsku::layout`).
pub fn choose_layout(layouts: &[BufferDefaults]) -> Option<&BufferDefaults> {
    LAYOUT_ORDER
        .iter()
        .find_map(|t| layouts.iter().find(|b| b.topology == *t))
        .or_else(|| layouts.first())
}

/// The `DEVICE_METADATA|localhost` `type` for which SONiC renders `buffers_defaults_<t>.j2`
/// (sonic-net/sonic-buildimage@086b03bd70f9 `files/build_templates/buffers_config.j2:10-30`).
pub fn topology_type(topology: &str) -> &'static str {
    match topology {
        "t0" => "ToRRouter",
        "t1" => "LeafRouter",
        "t2" => "SpineRouter",
        _ => "another type",
    }
}

/// The layout SONiC renders for `DEVICE_METADATA` `type` (`buffers_config.j2:10-30`): `None`
/// where it takes the SKU's `default_topo` (no type, or one the template does not name).
pub fn type_topology(switch_type: &str) -> Option<&'static str> {
    let t = switch_type.to_lowercase();
    if t.contains("mgmt") {
        return None;
    }
    if t.contains("torrouter") {
        Some("t0")
    } else if t.contains("leafrouter") {
        Some("t1")
    } else if t.contains("lowerspinerouter") || t == "fabricregionalhub" {
        Some("lt2")
    } else if t == "upperregionalhub" || t == "lowerregionalhub" {
        Some("t2")
    } else if t == "fabricspinerouter" {
        Some("ft2")
    } else if t.contains("spinerouter") {
        Some("t2")
    } else {
        None
    }
}

/// The pools and profiles a SKU's `buffers_defaults_<topology>.j2` lays out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferDefaults {
    /// `t0`, `t1`, `t2`.
    pub topology: String,
    pub source: String,
    /// The cable length SONiC assumes where `CABLE_LENGTH` says nothing.
    pub default_cable: String,
    pub pools: Vec<Pool>,
    /// Where the profiles come from, when another file than the pools' (Mellanox SKUs share
    /// `buffers_defaults_objects.j2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profiles_source: Option<String>,
    pub profiles: Vec<Profile>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pool {
    pub name: String,
    /// `ingress`, `egress` or `both`.
    pub kind: String,
    /// `dynamic` or `static`.
    pub mode: String,
    /// Absent where the template leaves it to the dynamic buffer manager.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Shared headroom pool size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xoff: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    pub pool: String,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_th: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_th: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xon_offset: Option<u64>,
}

/// What SONiC's Mellanox buffer scripts read besides the SKU tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mellanox {
    /// `ASIC_TABLE:<asic>` of `platform/mellanox/asic_table.j2`, as written there (KiB with
    /// one decimal for the latencies).
    pub asic_table_key: String,
    pub cell_size: u64,
    pub pipeline_latency: String,
    pub mac_phy_delay: String,
    pub peer_response_time: String,
    pub port_reserved_shp: u64,
    pub port_max_shp: u64,
    pub source: String,
    pub pool_reserves: MellanoxPoolReserves,
}

/// Constants of `cfgmgr/buffer_pool_mellanox.lua`, bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MellanoxPoolReserves {
    pub private_headroom: u64,
    pub mgmt_pool: u64,
    pub egress_mirror_headroom: u64,
    pub source: String,
}

/// `0.8` → 800: thousandths of the unit, for the decimal KiB of `asic_table.j2`.
pub(super) fn milli(text: &str) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: u64 = int.parse().ok()?;
    let mut f = frac.to_string();
    while f.len() < 3 {
        f.push('0');
    }
    Some(whole.checked_mul(1000)? + f.parse::<u64>().ok()?)
}

impl Mellanox {
    /// The constants in the units of [`AsicConstants`]; the ASIC-generation terms of the Lua
    /// (Spectrum-4/-5 tile term) come from `family`.
    pub fn asic_constants(&self, family: AsicFamily) -> Option<AsicConstants> {
        Some(AsicConstants {
            cell_bytes: self.cell_size,
            extra_xoff_bytes: 0,
            mac_phy_delay_milli_kib: milli(&self.mac_phy_delay)?,
            peer_response_time_milli_kib: milli(&self.peer_response_time)?,
            pipeline_latency_milli_kib: milli(&self.pipeline_latency)?,
            tile_term: family == AsicFamily::Spectrum4,
        })
    }
}

impl Hwsku {
    /// The row SONiC's traditional buffer manager would need for a port of `speed_mbps` on
    /// a cable of `cable_mm`: the shortest row at that speed whose cable is at least as long.
    /// `None` when the table has no row that long (buffermgrd then refuses the port's PG).
    pub fn lookup_row(&self, speed_mbps: u64, cable_mm: u64) -> Option<&LookupRow> {
        self.pg_profile_lookup
            .as_ref()?
            .rows
            .iter()
            .filter(|r| r.speed == speed_mbps)
            .filter_map(|r| Some((r.cable_m()?, r)))
            .filter(|(m, _)| m.saturating_mul(1000) >= cable_mm)
            .min_by_key(|(m, _)| *m)
            .map(|(_, r)| r)
    }

    /// The buffer layout for topology `t` (`t1`).
    pub fn buffer_defaults(&self, topology: &str) -> Option<&BufferDefaults> {
        self.buffer_defaults.iter().find(|b| b.topology == topology)
    }

    /// The layout fabricc writes: `t1`, else `t0`, else `t2`, else the first. fabricc does
    /// not write `DEVICE_METADATA` `type` (it drives far more than buffers), so the switch's
    /// own type is unknown at build time; `t1` is what SONiC renders for `LeafRouter`, the
    /// type of its factory default configuration (`sonic-cfggen --preset t1`,
    /// sonic-net/sonic-buildimage@086b03bd70f9 `src/sonic-config-engine/config_samples.py:51-53`).
    pub fn layout(&self) -> Option<&BufferDefaults> {
        choose_layout(&self.buffer_defaults)
    }

    /// The other layouts of the SKU whose pools or profiles differ from [`Hwsku::layout`]'s
    /// in what fabricc writes from them, each with the names that differ. `sizes`: whether
    /// pool sizes count (not on Spectrum, where fabricc computes them).
    pub fn other_layouts(&self, sizes: bool) -> Vec<(&BufferDefaults, Vec<String>)> {
        let Some(chosen) = self.layout() else {
            return Vec::new();
        };
        let pools = |b: &BufferDefaults| -> std::collections::BTreeMap<String, Pool> {
            b.pools
                .iter()
                .map(|p| {
                    let mut p = p.clone();
                    if !sizes {
                        p.size = None;
                        p.xoff = None;
                    }
                    (p.name.clone(), p)
                })
                .collect()
        };
        let profiles = |b: &BufferDefaults| -> std::collections::BTreeMap<String, Profile> {
            b.profiles
                .iter()
                .map(|p| (p.name.clone(), p.clone()))
                .collect()
        };
        fn differ<T: PartialEq>(
            a: &std::collections::BTreeMap<String, T>,
            b: &std::collections::BTreeMap<String, T>,
        ) -> Vec<String> {
            let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            names
                .into_iter()
                .filter(|n| a.get(*n) != b.get(*n))
                .cloned()
                .collect()
        }
        let (want_pools, want_profiles) = (pools(chosen), profiles(chosen));
        self.buffer_defaults
            .iter()
            .filter(|b| b.topology != chosen.topology)
            .filter_map(|b| {
                let mut names = differ(&want_pools, &pools(b));
                names.extend(differ(&want_profiles, &profiles(b)));
                (!names.is_empty()).then_some((b, names))
            })
            .collect()
    }

    /// Ports per front-panel cage in this SKU.
    pub fn split(&self) -> Option<u32> {
        BreakoutMode::parse(&self.breakout).map(|m| m.ports)
    }
}

impl Hwsku {
    /// The SKU's front-panel ports in `port_config.ini` order (the auxiliary cages, e.g. the
    /// SN5600's 25G `Ethernet512`, left out), with their speed in Mb/s: the `speed` column,
    /// else the cage's fastest speed divided among the cage's rows (a SKU folder may break
    /// each cage out its own way). `None` when the rows do not parse.
    pub fn front_ports(&self, platform: &Platform) -> Option<Vec<(PortConfigRow, u64)>> {
        let mut cages: Vec<u64> = Vec::new();
        for g in platform.fabric_cages() {
            cages.extend(std::iter::repeat_n(
                u64::from(g.speed_gbps),
                g.count as usize,
            ));
        }
        let rows = self.port_config.parsed()?;
        let mut per_cage: BTreeMap<u32, u64> = BTreeMap::new();
        for r in &rows {
            *per_cage.entry(r.index).or_default() += 1;
        }
        Some(
            rows.into_iter()
                .filter_map(|r| {
                    let cage = cages.get(usize::try_from(r.index).ok()?.checked_sub(1)?)?;
                    let split = per_cage.get(&r.index).copied().unwrap_or(1).max(1);
                    let speed = r.speed.unwrap_or(cage * 1000 / split);
                    Some((r, speed))
                })
                .collect(),
        )
    }

    /// Rows of the SKU's PORT table, auxiliary ports included: what SONiC's own PFC watchdog
    /// defaults count (`pfcwd start_default`).
    pub fn port_rows(&self) -> usize {
        self.port_config.rows.len()
    }
}

impl Sonic {
    /// The SKU that carries a model's `ports`: the fewest ports per cage that gives enough
    /// front-panel ports, each at least as fast as every group, the default SKU first among
    /// equals. `None` when no SKU does.
    pub fn sku_for_ports(&self, platform: &Platform, groups: &[PortGroup]) -> Option<&Hwsku> {
        let count: usize = groups.iter().map(|g| g.count as usize).sum();
        let fastest = groups.iter().map(|g| g.speed).max().unwrap_or(0);
        let default = self.default_sku_name();
        let mut fits: Vec<&Hwsku> = self
            .hwskus
            .iter()
            .filter(|sku| {
                sku.front_ports(platform).is_some_and(|rows| {
                    rows.len() >= count && rows.iter().take(count).all(|(_, s)| *s >= fastest)
                })
            })
            .collect();
        fits.sort_by_key(|sku| (sku.split().unwrap_or(u32::MAX), sku.name != default));
        fits.first().copied()
    }

    pub fn sku(&self, name: &str) -> Option<&Hwsku> {
        self.hwskus.iter().find(|s| s.name == name)
    }

    /// The default SKU's name (`ACS-SN5600`), without the topology word.
    pub fn default_sku_name(&self) -> &str {
        self.default_sku
            .value
            .split_whitespace()
            .next()
            .unwrap_or_default()
    }

    pub fn default_hwsku(&self) -> Option<&Hwsku> {
        self.sku(self.default_sku_name())
    }

    /// The SKU whose front-panel cages run `split` ports each (`2` → the 2×400G SKU).
    pub fn sku_for_split(&self, split: u32) -> Option<&Hwsku> {
        self.hwskus.iter().find(|s| s.split() == Some(split))
    }

    pub fn buffer_model(&self) -> Option<BufferModel> {
        match self.buffer_model.value.as_str() {
            "dynamic" => Some(BufferModel::Dynamic),
            "traditional" => Some(BufferModel::Traditional),
            _ => None,
        }
    }
}
