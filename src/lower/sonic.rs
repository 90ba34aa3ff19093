//! SONiC lowering: what a switch's catalogue platform and buffer model decide.
//!
//! In: a SONiC switch of a checked fabric, its generic port contexts (canonical headroom) and
//! its model's catalogue platform. Out: the ports' SKU names and lanes, the headroom SONiC
//! gets, and a [`SonicPlan`] (buffer model, SKU, pools, profiles, per-port cable and PG
//! profile) that `render::sonic` only prints; or the finding that stops the switch.
//!
//! Decisions, with their evidence (repositories at the commits the catalogue cites):
//! * The ASIC vendor comes from the platform only (FAB950 without one): SONiC writes the
//!   priority→PG map for `mellanox`/`barefoot` only
//!   (sonic-net/sonic-buildimage@086b03bd70f9:files/build_templates/qos_config.j2:167), and a
//!   lossless profile's `size` is all the headroom on Spectrum but a guaranteed minimum on
//!   Broadcom (the two SKUs' `pg_profile_lookup.ini`), so no table is right for both.
//! * The SKU is the one whose `port_config.ini` carries the model's ports with the fewest
//!   ports per cage (`Sonic::sku_for_ports`); port `i` of the model is its `i`-th front-panel
//!   row: name and lanes as SONiC has them (S9).
//! * Buffer model: the model's, the fabric's, else the platform's (dynamic on Spectrum,
//!   sonic-net/sonic-buildimage@086b03bd70f9:platform/mellanox/rules.mk:70). Broadcom has no
//!   dynamic buffer manager: it loads `buffer_headroom_<platform>.lua` and refuses to start
//!   without it (sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffermgrdyn.cpp:80-125), and
//!   `cfgmgr/` ships the plug-ins for `mellanox`, `barefoot` and `vs` only; `config qos
//!   reload` offers dynamic buffers to `mellanox` and `barefoot` alone
//!   (sonic-net/sonic-utilities@691b1bbc4fd2:config/main.py, `vendors_supporting_dynamic_buffer`)
//!   → FAB951.
//! * Cable lengths, traditional model: rounded up to a row of the SKU's `pg_profile_lookup.ini`
//!   (S3). buffermgrd builds a port's lossless PG only from a row (`task_invalid_entry`
//!   otherwise) and, on Mellanox, deletes it when the port goes admin-down
//!   (sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffermgr.cpp:206-243); it reuses a profile of
//!   the row's name that exists ("Reusing existing profile", :278), so fabricc's numbers in
//!   `pg_lossless_<speed>_<row>_profile` survive. Shipping the rows instead would mean
//!   editing the platform's files under `/usr/share/sonic/device`, which an image upgrade
//!   replaces. No row long enough: FAB952 on Spectrum (the PG is lost at the first
//!   shutdown), FAB953 on Broadcom (never deleted there; buffermgrd logs an error per event).
//!   Dynamic model: the cable as it is, rounded up to metres (the formula takes any length).
//! * Headroom on Spectrum: `xoff = max(canonical or override, SONiC's Mellanox formula)`,
//!   `xon` and `size` as the formula lays them out (pipeline latency, doubled on 8-lane
//!   ports, which also add the port MTU to `size`), with the platform's
//!   `LOSSLESS_TRAFFIC_PATTERN` (S4). Dynamic model: `BUFFER_PG … "NULL"` where the switch's
//!   own result is at least what the fabric needs, else a headroom-override profile
//!   (`fabricc_pg_lossless_<speed>_<cable>_profile`, FAB955): buffermgrdyn deploys a
//!   configured profile with `xoff` as it is (sonic-net/sonic-swss@e6b0c5b5d2ab:
//!   cfgmgr/buffermgrdyn.cpp `handleBufferProfileTable`, "headroom override").
//! * Headroom on Broadcom: the SKU's row gives `size` (guaranteed minimum), `xon` and
//!   `xon_offset`; `xoff = max(canonical, row)` (S8).
//! * Pools on Spectrum: SONiC's Mellanox layout (`buffers_defaults_objects.j2` of the SKU:
//!   two ingress pools, egress lossless = the whole MMU, dynamic, `dynamic_th 7`, S5), sized
//!   as `buffer_pool_mellanox.lua` does (S6): from the MMU less every PG and queue reserve,
//!   a lossy-PG and management-PG reserve of the pipeline latency (doubled less 1 KiB on
//!   8-lane ports) on every port of the SKU (all assumed admin-up, the worst case), 10 KiB
//!   egress mirror per port and the 256 KiB management pool; what is left is split between
//!   the two ingress pools, and the egress lossy pool gets the same share
//!   (sonic-net/sonic-swss@e6b0c5b5d2ab:cfgmgr/buffer_pool_mellanox.lua:283-453). Written in
//!   whole cells (S14a) in the traditional model; left to the switch in the dynamic one
//!   (sizes absent, as SONiC's own dynamic templates have them). The CNP queue gets a reserve
//!   of one port MTU (`q_cnp_profile`), the layout's lossy queues have none (S13).
//! * Pools on Broadcom: the SKU's `buffers_defaults_<topology>.j2` as it is (one ingress pool
//!   with a shared headroom pool, one egress pool).
//! * The layout (topology): SONiC renders `buffers_defaults_<t>.j2` for the switch's
//!   `DEVICE_METADATA` `type` (`ToRRouter` `t0`, `LeafRouter` `t1`, `SpineRouter` `t2`:
//!   sonic-net/sonic-buildimage@086b03bd70f9:files/build_templates/buffers_config.j2:10-30).
//!   fabricc does not write `type` (BGP, DHCP relay and more follow it: the operator's), so
//!   the switch's own is unknown at build time; it writes `t1` where the SKU has one (what
//!   SONiC's factory default `LeafRouter` renders, `config_samples.py:51-53`), else `t0`,
//!   else `t2` (`Hwsku::layout`). fabricc's pools and profiles replace the switch's of the
//!   same name whatever its type; where the SKU's layouts differ, FAB818 says so.
//! * PFC watchdog, when the fabric sets no timers: scaled like SONiC's own `pfcwd
//!   start_default`, 200 ms × ((ports − 1) / 32 + 1) over the SKU's PORT rows, poll capped at
//!   1 s (sonic-net/sonic-utilities@691b1bbc4fd2:pfcwd/main.py:36-42,405-444; S12).

use std::collections::{BTreeMap, BTreeSet};

use super::context::{
    BufferPlan, Headroom, HeadroomFormula, PauseThreshold, PortContext, SonicAsic,
    SonicBufferModel, SonicPgProfile, SonicPlan, SonicPool, SonicPort, SonicProfile, Watchdog,
};
use crate::analysis::physics::sonic_headroom::{
    AsicConstants, SonicHeadroom, SonicHeadroomInput, sonic_mellanox_headroom,
};
use crate::catalogue::{BufferDefaults, Hwsku, LookupRow, Platform, PortConfigRow, Sonic};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::{DeviceId, Fabric, SwitchId, SwitchModel};
use crate::syntax::ast::BufferModel;

/// `buffer_pool_mellanox.lua` constants (lines 16, 23-24), bytes.
const MGMT_POOL: u64 = 256 * 1024;
const EGRESS_MIRROR: u64 = 10 * 1024;
/// SONiC's Mellanox port profile lists (`buffers_defaults_objects.j2`, `generate_profile_lists`).
const MELLANOX_INGRESS_LIST: &str = "ingress_lossless_profile,ingress_lossy_profile";
const MELLANOX_EGRESS_LIST: &str = "egress_lossless_profile,egress_lossy_profile";
/// fabricc's CNP queue reserve on Spectrum (S13).
pub const CNP_QUEUE_PROFILE: &str = "q_cnp_profile";
/// Prefix of a dynamic-model headroom override, apart from buffermgrdyn's own names.
pub const OVERRIDE_PREFIX: &str = "fabricc_";

/// A model's SONiC platform and SKU, resolved once per model.
#[derive(Debug, Clone)]
pub struct Sku {
    pub platform: &'static Platform,
    pub sonic: &'static Sonic,
    /// The catalogue's SKU, or the model's own SKU folder (`sku "PATH"`, issue 38).
    pub hwsku: std::borrow::Cow<'static, Hwsku>,
    pub asic: SonicAsic,
    /// Front-panel rows with their speed (Mb/s); model port `i` is row `i`.
    pub front: Vec<(PortConfigRow, u64)>,
    /// A SKU folder's `hwsku.json` breakout per parent port (`default_brkout_mode`).
    pub brkout_modes: Vec<(String, String)>,
    /// Every `port_config.ini` row, parsed once per model rather than once per switch
    /// (empty when one does not follow the columns).
    pub port_config: Vec<PortConfigRow>,
}

impl Sku {
    pub fn port_name(&self, index: u32) -> Option<&str> {
        self.front
            .get(usize::try_from(index).ok()?)
            .map(|(r, _)| r.name.as_str())
    }
}

/// FAB950's help: the one-line migration for a SONiC model written before platforms were
/// required (G3): the catalogue's SONiC platform whose name is closest to the model's (a
/// model named `sn5400` is most likely an `nvidia-sn5400`), and the list to choose from: the
/// SONiC platforms whose SKU tables give a buffer to size from (the others stop on FAB111).
fn platform_help(model: &SwitchModel) -> String {
    let candidates: Vec<&crate::catalogue::Platform> = crate::catalogue::catalogue()
        .switches
        .iter()
        .filter(|p| {
            p.sonic.is_some()
                && p.buffer_bytes().is_some()
                && p.asic_family()
                    .is_some_and(|f| f.is_spectrum() || f.is_broadcom_xgs())
        })
        .collect();
    let best = candidates
        .iter()
        .map(|p| {
            (
                strsim::jaro_winkler(&model.name, &p.model.to_lowercase()),
                *p,
            )
        })
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.name.cmp(&a.1.name)));
    let names: Vec<&str> = candidates.iter().map(|p| p.name.as_str()).collect();
    match best {
        Some((_, p)) => format!(
            "name the hardware: `switch-model {} {{ platform {}  os sonic … }}` if that is the switch (SONiC platforms: {}); its SKU then gives ports, lanes and buffer tables",
            model.name,
            p.name,
            names.join(", ")
        ),
        None => format!(
            "add `platform NAME` to the model; SONiC platforms: {} (docs/platforms.md says how to add one)",
            names.join(", ")
        ),
    }
}

/// The SKU of a SONiC model, or the finding that no table can be written for it.
pub fn sku(model: &SwitchModel) -> Result<Sku, Diagnostic> {
    let unknown = || {
        Diagnostic::new(
            Code::SonicAsicUnknown,
            model.span,
            format!(
                "switch model `{}` runs SONiC on no catalogue platform, so its ASIC vendor is unknown and fabricc cannot tell Spectrum tables from Broadcom ones",
                model.name
            ),
        )
        .label("this model")
        .help(platform_help(model))
    };
    let platform = model.platform.ok_or_else(unknown)?;
    let sonic = platform.sonic.as_ref().ok_or_else(unknown)?;
    let family = platform.asic_family().ok_or_else(unknown)?;
    let asic = if family.is_spectrum() && sonic.asic_type == "mellanox" {
        SonicAsic::Mellanox
    } else if family.is_broadcom_xgs() && sonic.asic_type == "broadcom" {
        SonicAsic::Broadcom
    } else {
        return Err(Diagnostic::new(
            Code::TargetCannotExpress,
            model.span,
            format!(
                "switch model `{}`: fabricc writes SONiC for Spectrum (mellanox) and Tomahawk/Trident (broadcom) switches, not for `{}` ({}, a VOQ system)",
                model.name,
                platform.name,
                family.as_str()
            ),
        )
        .label("this model")
        .help("use another OS for this model, or a Spectrum or Tomahawk platform"));
    };
    if let Some(own) = &model.sku {
        let hwsku: std::borrow::Cow<'static, Hwsku> = std::borrow::Cow::Owned(own.hwsku.clone());
        let front = hwsku.front_ports(platform).unwrap_or_default();
        super::sonic_sku::fits(model, &own.hwsku.name, &front)?;
        let port_config = hwsku.port_config.parsed().unwrap_or_default();
        return Ok(Sku {
            platform,
            sonic,
            hwsku,
            asic,
            front,
            brkout_modes: own.brkout_modes.clone(),
            port_config,
        });
    }
    let hwsku = sonic
        .sku_for_ports(platform, &model.ports.value)
        .ok_or_else(|| {
            let skus: Vec<String> = sonic
                .hwskus
                .iter()
                .map(|h| {
                    let rows = h.front_ports(platform).unwrap_or_default();
                    let gbps = rows.first().map_or(0, |(_, s)| s / 1000);
                    format!("{} ({} x {gbps}G)", h.name, rows.len())
                })
                .collect();
            Diagnostic::new(
                Code::SonicSkuUnfit,
                model.ports.span,
                format!(
                    "no SONiC SKU of platform `{}` runs the ports of model `{}`",
                    platform.name, model.name
                ),
            )
            .label("these ports")
            .help(format!("the platform's SKUs: {}", skus.join(", ")))
        })?;
    let front = hwsku.front_ports(platform).unwrap_or_default();
    Ok(Sku {
        platform,
        sonic,
        hwsku: std::borrow::Cow::Borrowed(hwsku),
        asic,
        front,
        brkout_modes: Vec::new(),
        port_config: hwsku.port_config.parsed().unwrap_or_default(),
    })
}

/// What `plan` needs besides the ports.
pub struct Input<'a> {
    pub fabric: &'a Fabric,
    pub switch: SwitchId,
    pub model: &'a SwitchModel,
    pub sku: &'a Sku,
    /// Port MTU.
    pub mtu: u64,
    /// The watchdog as the fabric sets it, and whether that is the default.
    pub watchdog: Option<Watchdog>,
    pub watchdog_default: bool,
}

/// `BREAKOUT_CFG` of the cages `ports` use on a broken-out SKU: the parent port (the cage's
/// first `port_config.ini` row) and the cage's mode (`2x400G`). A SKU folder breaks each cage
/// out its own way, so the mode is the cage's (`sonic_sku::cage_mode`).
fn breakout_rows(sku: &Sku, ports: &[PortContext]) -> Vec<(String, String)> {
    let mut per_cage: BTreeMap<u32, u32> = BTreeMap::new();
    for (r, _) in &sku.front {
        *per_cage.entry(r.index).or_default() += 1;
    }
    if per_cage.values().all(|&n| n <= 1) {
        return Vec::new();
    }
    // The cage's mode depends on the cage and the port's speed only: decided once per
    // (cage, speed), not once per port.
    let mut modes: BTreeMap<(u32, u64), String> = BTreeMap::new();
    let mut out: Vec<(String, String)> = ports
        .iter()
        .filter_map(|p| {
            let (row, speed) = sku.front.get(usize::try_from(p.index).ok()?)?;
            let (parent, _) = sku.front.iter().find(|(r, _)| r.index == row.index)?;
            let mode = modes
                .entry((row.index, *speed))
                .or_insert_with(|| {
                    let split = per_cage.get(&row.index).copied().unwrap_or(1);
                    super::sonic_sku::cage_mode(
                        sku.platform,
                        &sku.brkout_modes,
                        &sku.hwsku.breakout,
                        (&parent.name, row.index),
                        split,
                        *speed,
                    )
                })
                .clone();
            Some((parent.name.clone(), mode))
        })
        .collect();
    out.sort_by(|a, b| natural(&a.0).cmp(&natural(&b.0)));
    out.dedup();
    out
}

/// `Ethernet8` before `Ethernet16`.
fn natural(name: &str) -> (usize, u64, &str) {
    let digits = name.trim_start_matches(|c: char| !c.is_ascii_digit());
    (
        name.len() - digits.len(),
        digits.parse().unwrap_or(u64::MAX),
        name,
    )
}

/// The SONiC plan of one switch; updates the ports' names, lanes and headroom to what SONiC
/// gets. Returns the plan, the buffer plan the other stages read, and the watchdog written.
pub fn plan(
    input: &Input<'_>,
    ports: &mut [PortContext],
) -> Result<(SonicPlan, BufferPlan, Option<Watchdog>), Diagnostic> {
    let Input {
        fabric,
        switch,
        model,
        sku,
        mtu: _,
        ..
    } = *input;
    let sw = fabric.switch(switch);
    let cannot = |m: String| {
        Diagnostic::new(
            Code::TargetCannotExpress,
            sw.span,
            format!("`{}` on sonic: {m}", sw.name),
        )
        .label("this device")
    };
    let buffer_model = buffer_model(input)?;
    let layout = sku.hwsku.layout().ok_or_else(|| {
        Diagnostic::new(
            Code::SonicSkuUnfit,
            model.ports.span,
            format!(
                "SKU `{}` of platform `{}` ships no buffer layout (`buffers_defaults_t0.j2`, `_t1.j2` or `_t2.j2`), so its pools and profiles cannot be sourced",
                sku.hwsku.name, sku.platform.name
            ),
        )
        .label("these ports choose that SKU")
        .help(skus_with_layout(sku.sonic))
    })?;
    let mmu = model
        .buffer
        .map(|b| b.value.get())
        .or_else(|| sku.platform.buffer.usable.as_ref().map(|b| b.bytes))
        .ok_or_else(|| {
            cannot("the model has no `buffer` and the platform no usable buffer".into())
        })?;
    let cell = model.cell.map(|c| c.value.get());

    let mut sonic_ports = sonic_ports(input, ports).map_err(cannot)?;

    let th = lossless_dynamic_th(input, ports).map_err(cannot)?;

    check_lookup_rows(fabric, switch, sku, buffer_model, ports)?;
    match sku.asic {
        SonicAsic::Mellanox => {
            mellanox_headroom(input, buffer_model, ports, &mut sonic_ports).map_err(cannot)?;
        }
        SonicAsic::Broadcom => broadcom_headroom(input, ports, &mut sonic_ports)?,
    }
    equalize(ports, &mut sonic_ports);

    let (pools, profiles, buffer, cnp_queue_profile) = match sku.asic {
        SonicAsic::Mellanox => {
            mellanox_pools(input, layout, buffer_model, mmu, ports, &sonic_ports)?
        }
        SonicAsic::Broadcom => broadcom_pools(layout, mmu),
    };

    let (watchdog, watchdog_scale) = scaled_watchdog(input);

    let (ingress_list, egress_list, lossy_queue, pfc_to_pg_map) = match sku.asic {
        SonicAsic::Mellanox => (
            MELLANOX_INGRESS_LIST.to_string(),
            MELLANOX_EGRESS_LIST.to_string(),
            "q_lossy_profile",
            true,
        ),
        // The Broadcom SKUs' templates write no profile lists and put lossy queues on
        // `egress_lossy_profile` (buffers_config.j2 defaults).
        SonicAsic::Broadcom => (String::new(), String::new(), "egress_lossy_profile", false),
    };
    let breakouts = breakout_rows(sku, ports);
    let plan = SonicPlan {
        platform: sku.sonic.platform.clone(),
        hwsku: sku.hwsku.name.clone(),
        asic: sku.asic,
        buffer_model,
        sku_ports: u32::try_from(sku.hwsku.port_rows()).unwrap_or(u32::MAX),
        cell_bytes: cell,
        traffic_pattern: sku
            .sonic
            .lossless_traffic_pattern
            .as_ref()
            .map(|t| (t.mtu, t.small_packet_percentage)),
        default_dynamic_th: th,
        pools,
        profiles,
        ingress_profile_list: ingress_list,
        egress_profile_list: egress_list,
        lossy_pg_profile: "ingress_lossy_profile".into(),
        lossless_queue_profile: "egress_lossless_profile".into(),
        lossy_queue_profile: lossy_queue.into(),
        cnp_queue_profile,
        pfc_to_pg_map,
        watchdog_scale,
        cage_ports: cage_ports(sku, &breakouts),
        breakouts,
        switch_hash: super::sonic_hash::switch_hash_fields(fabric.load_balance.as_ref()),
        ports: sonic_ports,
    };
    Ok((plan, buffer, watchdog))
}

/// Every port of each cage in `breakouts`, as the SKU lays the cage out.
fn cage_ports(
    sku: &Sku,
    breakouts: &[(String, String)],
) -> BTreeMap<String, Vec<super::context::CagePort>> {
    let mut out = BTreeMap::new();
    let base = sku.hwsku.port_config.index_base();
    for (parent, _) in breakouts {
        let Some((cage, _)) = sku.front.iter().find(|(r, _)| &r.name == parent) else {
            continue;
        };
        let ports = sku
            .front
            .iter()
            .filter(|(r, _)| r.index == cage.index)
            .map(|(r, speed)| super::context::CagePort {
                name: r.name.clone(),
                alias: r.alias.clone(),
                index: (r.index + base).saturating_sub(1),
                lanes: r.lanes.clone(),
                speed: *speed,
            })
            .collect();
        out.insert(parent.clone(), ports);
    }
    out
}

/// The buffer model SONiC runs: the model's, else the platform's default; the dynamic
/// buffer manager exists only for Mellanox (Spectrum) switches.
fn buffer_model(input: &Input<'_>) -> Result<SonicBufferModel, Diagnostic> {
    let Input {
        switch, model, sku, ..
    } = *input;
    let sw = input.fabric.switch(switch);
    Ok(match model.buffer_model {
        Some(b) if b.value == BufferModel::Dynamic && sku.asic != SonicAsic::Mellanox => {
            return Err(Diagnostic::new(
                Code::SonicBufferModelUnsupported,
                b.span,
                format!(
                    "`buffer-model dynamic` on `{}`: SONiC has no dynamic buffer manager for {} switches (`{}`)",
                    sw.name,
                    sku.asic.as_str(),
                    sku.platform.name
                ),
            )
            .label("set here")
            .help("use `buffer-model traditional` (the default on this platform)"));
        }
        Some(b) if b.value == BufferModel::Dynamic => SonicBufferModel::Dynamic,
        Some(_) => SonicBufferModel::Traditional,
        None => match sku.platform.default_buffer_model() {
            Some(BufferModel::Dynamic) if sku.asic == SonicAsic::Mellanox => {
                SonicBufferModel::Dynamic
            }
            _ => SonicBufferModel::Traditional,
        },
    })
}

/// SONiC's names and lanes for the ports (from the SKU's `port_config.ini` rows), and the
/// peer NIC's lanes (S9).
fn sonic_ports(input: &Input<'_>, ports: &mut [PortContext]) -> Result<Vec<SonicPort>, String> {
    let Input {
        fabric,
        switch,
        sku,
        ..
    } = *input;
    let mut sonic_ports: Vec<SonicPort> = Vec::with_capacity(ports.len());
    let broken_out = {
        let mut cages = BTreeSet::new();
        !sku.front.iter().all(|(r, _)| cages.insert(r.index))
    };
    // `PORT.index` as the SKU's file writes it (the rows count cages from 1).
    let index_base = sku.hwsku.port_config.index_base();
    for p in ports.iter_mut() {
        let Some((row, _)) = sku.front.get(p.index as usize) else {
            return Err(format!(
                "port {} is beyond the {} front-panel ports of SKU `{}`",
                p.index + 1,
                sku.front.len(),
                sku.hwsku.name
            ));
        };
        p.name.clone_from(&row.name);
        p.lanes.clone_from(&row.lanes);
        let lanes = u32::try_from(row.lanes.len()).unwrap_or(u32::MAX);
        sonic_ports.push(SonicPort {
            cable: format!("{}m", p.cable_m),
            lossless_profile: None,
            eight_lanes: lanes == 8,
            lookup_row_missing: false,
            lanes_mismatch: peer_nic_lanes(fabric, switch, p.index, u64::from(p.speed_mbps))
                .filter(|(_, nic_lanes)| *nic_lanes != lanes),
            sku_row: broken_out.then(|| {
                (
                    row.alias.clone(),
                    (row.index + index_base).saturating_sub(1),
                )
            }),
        });
    }
    Ok(sonic_ports)
}

/// The dynamic threshold (log2 alpha) of the lossless profiles: the ports' pause threshold,
/// else the model's. Spectrum: SONiC's Mellanox lossless pool is dynamic, and the
/// dynamic buffer manager refuses a profile whose threshold type is not its pool's
/// (buffermgrdyn.cpp `handleBufferProfileTable`), so a static threshold cannot be written.
/// Broadcom: SONiC's own layout puts `static_th` profiles on its dynamic pool
/// (Arista-7060X6-64PE-O128S2 `buffers_defaults_t1.j2`), so it can.
fn lossless_dynamic_th(input: &Input<'_>, ports: &[PortContext]) -> Result<i8, String> {
    let th = match ports
        .iter()
        .find(|p| !p.lossless_priorities.is_empty())
        .map(|p| p.pause_threshold)
    {
        Some(PauseThreshold::Static { .. }) if input.sku.asic == SonicAsic::Mellanox => {
            return Err(
                "a static `pfc-threshold`: SONiC's Mellanox lossless pool is dynamic, and a lossless profile must have its pool's threshold type"
                    .into(),
            );
        }
        Some(PauseThreshold::Dynamic { log2_alpha }) => log2_alpha,
        _ => input.model.dynamic_threshold.value,
    };
    if !(-8..=7).contains(&th) {
        return Err(format!("dynamic_th {th} outside -8..7"));
    }
    Ok(th)
}

/// The watchdog written, and by how much SONiC's defaults were scaled (S12: SONiC's own
/// watchdog defaults scale with the PORT table).
fn scaled_watchdog(input: &Input<'_>) -> (Option<Watchdog>, Option<u32>) {
    let mut watchdog = input.watchdog;
    let mut watchdog_scale = None;
    if let Some(w) = &mut watchdog
        && input.watchdog_default
    {
        let rows = u32::try_from(input.sku.hwsku.port_rows()).unwrap_or(u32::MAX);
        let m = (rows.saturating_sub(1) / 32 + 1).max(1);
        w.detect_ms = 200 * m;
        w.restore_ms = 200 * m;
        w.poll_ms = (200 * m).min(1000);
        watchdog_scale = Some(m);
    }
    (watchdog, watchdog_scale)
}

fn skus_with_layout(sonic: &Sonic) -> String {
    let with: Vec<&str> = sonic
        .hwskus
        .iter()
        .filter(|h| h.layout().is_some())
        .map(|h| h.name.as_str())
        .collect();
    if with.is_empty() {
        "no SKU of this platform has one in the catalogue".into()
    } else {
        format!(
            "choose `ports` that one of these SKUs runs: {}",
            with.join(", ")
        )
    }
}

/// U2: the platform's own SKUs whose ports run `speed` on `lanes` lanes, as the `ports` line
/// that chooses each — the fix for a direct-attach cable, for this platform.
pub fn skus_on_lanes(platform: Option<&str>, speed: u64, lanes: u32) -> String {
    let hwskus = platform
        .and_then(crate::catalogue::switch_platform)
        .and_then(|p| p.sonic.as_ref())
        .map(|s| s.hwskus.as_slice())
        .unwrap_or_default();
    let mut fits: Vec<String> = hwskus
        .iter()
        .filter_map(|h| {
            let rows = h.port_config.parsed()?;
            let at = rows
                .iter()
                .filter(|r| r.speed == Some(speed) && r.lanes.len() == lanes as usize)
                .count();
            (at > 0).then(|| format!("{} (`ports {at} x {}G`)", h.name, speed / 1000))
        })
        .collect();
    fits.sort();
    if fits.is_empty() {
        format!("No SKU of this platform in the catalogue runs it on {lanes}: use optics")
    } else {
        format!(
            "For copper, a SKU of this platform on {lanes} lanes: {}",
            fits.join(", ")
        )
    }
}

/// The lanes the NIC at the other end of port `index` runs its link speed on, where the
/// catalogue knows them: `(NIC platform, lanes)`.
fn peer_nic_lanes(fabric: &Fabric, s: SwitchId, index: u32, speed: u64) -> Option<(String, u32)> {
    let link = (*fabric.switch(s).ports.get(index as usize)?)?;
    let peer = fabric.peer(link, DeviceId::Switch(s));
    let DeviceId::Host(h) = peer.device else {
        return None;
    };
    let nic = fabric.host(h).nics.get(peer.port as usize)?;
    let platform = fabric.nic_models[nic.model.index()].platform?;
    Some((platform.name.clone(), platform.lanes_at(speed)?))
}

fn ceil_1k(x: u64) -> u64 {
    x.div_ceil(1024).saturating_mul(1024)
}

/// The traditional model's cable: the SKU's lookup row at least as long (S3).
fn lookup(sku: &Sku, speed: u64, cable_m: u32) -> Option<&LookupRow> {
    sku.hwsku
        .lookup_row(speed, u64::from(cable_m).saturating_mul(1000))
}

fn mellanox_headroom(
    input: &Input<'_>,
    model: SonicBufferModel,
    ports: &mut [PortContext],
    sonic: &mut [SonicPort],
) -> Result<(), String> {
    let sku = input.sku;
    let consts: AsicConstants = sku
        .platform
        .sonic_headroom_constants()
        .ok_or("the platform has no ASIC_TABLE constants for SONiC's headroom formula")?;
    let (lossless_mtu, spp) = sku
        .sonic
        .lossless_traffic_pattern
        .as_ref()
        .map(|t| (t.mtu, t.small_packet_percentage))
        .ok_or("the platform has no LOSSLESS_TRAFFIC_PATTERN for SONiC's headroom formula")?;
    let mut known: Vec<(SonicHeadroomInput, SonicHeadroom)> = Vec::new();
    for (p, sp) in ports.iter_mut().zip(sonic.iter_mut()) {
        if p.lossless_priorities.is_empty() {
            continue;
        }
        let speed = u64::from(p.speed_mbps);
        let cable_m = match model {
            SonicBufferModel::Traditional => match lookup(sku, speed, p.cable_m) {
                Some(row) => {
                    sp.cable.clone_from(&row.cable);
                    row.cable_m().unwrap_or(u64::from(p.cable_m))
                }
                // Refused by `check_lookup_rows` before this runs.
                None => u64::from(p.cable_m),
            },
            SonicBufferModel::Dynamic => u64::from(p.cable_m),
        };
        let formula_input = SonicHeadroomInput {
            speed_mbps: speed,
            cable_mm: cable_m.saturating_mul(1000),
            port_mtu: u64::from(p.mtu),
            lossless_mtu: u64::from(lossless_mtu),
            small_packet_percentage: u64::from(spp),
            gearbox_delay_ns: 0,
            eight_lanes: sp.eight_lanes,
            shared_headroom_pool: false,
        };
        // The formula (exact rational arithmetic) once per distinct input: a switch's ports
        // come in a few speeds and cable lengths.
        let lua = match known.iter().find(|(i, _)| *i == formula_input) {
            Some(&(_, lua)) => lua,
            None => {
                let lua = sonic_mellanox_headroom(&consts, &formula_input).map_err(|e| {
                    format!("port `{}`: SONiC's headroom formula fails: {e:?}", p.name)
                })?;
                known.push((formula_input, lua));
                lua
            }
        };
        let overhead = if sp.eight_lanes { u64::from(p.mtu) } else { 0 };
        // Dynamic model: the switch computes `lua` itself; fabricc pins a port only where the
        // fabric needs more.
        let mut pinned = false;
        for h in &mut p.headroom {
            let base = h.xoff_bytes;
            let (xoff, formula) = if lua.xoff >= base {
                (lua.xoff, HeadroomFormula::SonicMellanox)
            } else if h.fixed {
                (base, HeadroomFormula::Override)
            } else {
                (base, HeadroomFormula::Canonical)
            };
            pinned |= base > lua.xoff;
            h.xoff_bytes = xoff;
            h.xon_bytes = lua.xon;
            h.size_bytes = ceil_1k(xoff + lua.xon + overhead);
            h.formula = formula;
        }
        let Some(h) = one_profile_per_port(&mut p.headroom) else {
            continue;
        };
        let name = match model {
            SonicBufferModel::Traditional => {
                format!("pg_lossless_{}_{}_profile", p.speed_mbps, sp.cable)
            }
            SonicBufferModel::Dynamic if pinned => {
                format!(
                    "{OVERRIDE_PREFIX}pg_lossless_{}_{}_profile",
                    p.speed_mbps, sp.cable
                )
            }
            SonicBufferModel::Dynamic => continue,
        };
        sp.lossless_profile = Some(SonicPgProfile {
            name,
            size: h.size_bytes,
            xon: h.xon_bytes,
            xoff: h.xoff_bytes,
            xon_offset: None,
        });
    }
    Ok(())
}

/// Spectrum, traditional model: every lossless port's cable has a lookup row (FAB952).
fn check_lookup_rows(
    fabric: &Fabric,
    s: SwitchId,
    sku: &Sku,
    model: SonicBufferModel,
    ports: &[PortContext],
) -> Result<(), Diagnostic> {
    if sku.asic != SonicAsic::Mellanox || model != SonicBufferModel::Traditional {
        return Ok(());
    }
    let sw = fabric.switch(s);
    for p in ports.iter().filter(|p| !p.lossless_priorities.is_empty()) {
        if lookup(sku, u64::from(p.speed_mbps), p.cable_m).is_some() {
            continue;
        }
        let span = sw
            .ports
            .get(p.index as usize)
            .copied()
            .flatten()
            .map_or(sw.span, |l| fabric.link(l).cable_mm.span);
        let rows: Vec<&str> = sku
            .hwsku
            .pg_profile_lookup
            .iter()
            .flat_map(|l| &l.rows)
            .filter(|r| r.speed == u64::from(p.speed_mbps))
            .map(|r| r.cable.as_str())
            .collect();
        return Err(Diagnostic::new(
            Code::SonicNoLookupRow,
            span,
            format!(
                "`{}` port `{}`: SKU `{}` has no `pg_profile_lookup.ini` row for {} Mb/s at {} m or longer ({}), so in the traditional buffer model buffermgrd removes the port's lossless PG when it goes down and never restores it",
                sw.name,
                p.name,
                sku.hwsku.name,
                p.speed_mbps,
                p.cable_m,
                if rows.is_empty() {
                    "no row at that speed".to_string()
                } else {
                    format!("rows: {}", rows.join(", "))
                }
            ),
        )
        .label("this cable")
        .help("use `buffer-model dynamic` (SONiC computes the headroom of any length), or a shorter cable"));
    }
    Ok(())
}

fn broadcom_headroom(
    input: &Input<'_>,
    ports: &mut [PortContext],
    sonic: &mut [SonicPort],
) -> Result<(), Diagnostic> {
    let sku = input.sku;
    for (p, sp) in ports.iter_mut().zip(sonic.iter_mut()) {
        if p.lossless_priorities.is_empty() {
            continue;
        }
        let speed = u64::from(p.speed_mbps);
        let at_speed: Vec<&LookupRow> = sku
            .hwsku
            .pg_profile_lookup
            .iter()
            .flat_map(|l| &l.rows)
            .filter(|r| r.speed == speed)
            .collect();
        let row = match lookup(sku, speed, p.cable_m) {
            Some(r) => {
                sp.cable.clone_from(&r.cable);
                r
            }
            None => {
                sp.lookup_row_missing = true;
                let Some(longest) = at_speed.iter().max_by_key(|r| r.cable_m()).copied() else {
                    return Err(Diagnostic::new(
                        Code::SonicSkuUnfit,
                        input.model.ports.span,
                        format!(
                            "SKU `{}` of platform `{}` has no `pg_profile_lookup.ini` row at {} Mb/s: Broadcom's guaranteed PG minimum and `xon_offset` for that speed cannot be sourced",
                            sku.hwsku.name, sku.platform.name, p.speed_mbps
                        ),
                    )
                    .label("these ports choose that SKU")
                    .help(skus_with_layout(sku.sonic)));
                };
                longest
            }
        };
        for h in &mut p.headroom {
            let base = h.xoff_bytes;
            let (xoff, formula) = if row.xoff > base {
                (row.xoff, HeadroomFormula::SonicLookup)
            } else if h.fixed {
                (base, HeadroomFormula::Override)
            } else {
                (base, HeadroomFormula::Canonical)
            };
            h.xoff_bytes = xoff;
            h.xon_bytes = row.xon;
            h.size_bytes = row.size;
            h.formula = formula;
        }
        if let Some(h) = one_profile_per_port(&mut p.headroom) {
            sp.lossless_profile = Some(SonicPgProfile {
                name: format!("pg_lossless_{}_{}_profile", p.speed_mbps, sp.cable),
                size: h.size_bytes,
                xon: h.xon_bytes,
                xoff: h.xoff_bytes,
                xon_offset: row.xon_offset,
            });
        }
    }
    Ok(())
}

/// SONiC writes one `BUFFER_PG` entry over a port's lossless priorities (`Ethernet0|3-4`)
/// with one profile, so every lossless priority of the port gets the largest headroom any of
/// them needs — more headroom, never less, and the report states what is written (R1: the
/// first priority's profile used to be written for all, dropping a larger per-class
/// override). Returns the port's profile values.
fn one_profile_per_port(headroom: &mut [Headroom]) -> Option<Headroom> {
    let largest = *headroom
        .iter()
        .max_by_key(|h| (h.size_bytes, h.xoff_bytes, h.xon_bytes, h.fixed))?;
    for h in headroom.iter_mut() {
        h.xoff_bytes = largest.xoff_bytes;
        h.xon_bytes = largest.xon_bytes;
        h.size_bytes = largest.size_bytes;
        h.formula = largest.formula;
    }
    Some(largest)
}

/// buffermgrd names a lossless profile by speed and cable only: ports sharing a name get the
/// group's largest numbers (more headroom, never less).
fn equalize(ports: &mut [PortContext], sonic: &mut [SonicPort]) {
    let mut largest: BTreeMap<String, (SonicPgProfile, HeadroomFormula)> = BTreeMap::new();
    for (p, sp) in ports.iter().zip(sonic.iter()) {
        let (Some(pr), Some(h)) = (&sp.lossless_profile, p.headroom.first()) else {
            continue;
        };
        let e = largest
            .entry(pr.name.clone())
            .or_insert_with(|| (pr.clone(), h.formula));
        if (pr.size, pr.xoff) > (e.0.size, e.0.xoff) {
            *e = (pr.clone(), h.formula);
        }
    }
    for (p, sp) in ports.iter_mut().zip(sonic.iter_mut()) {
        let Some(pr) = &mut sp.lossless_profile else {
            continue;
        };
        let Some((l, formula)) = largest.get(&pr.name) else {
            continue;
        };
        if *pr != *l {
            for h in &mut p.headroom {
                h.xoff_bytes = l.xoff;
                h.xon_bytes = l.xon;
                h.size_bytes = l.size;
                h.formula = *formula;
            }
            pr.clone_from(l);
        }
    }
}

type Pools = (
    Vec<SonicPool>,
    Vec<SonicProfile>,
    BufferPlan,
    Option<String>,
);

fn profiles_of(layout: &BufferDefaults) -> Vec<SonicProfile> {
    layout
        .profiles
        .iter()
        .map(|p| SonicProfile {
            name: p.name.clone(),
            pool: p.pool.clone(),
            size: p.size,
            dynamic_th: p.dynamic_th.and_then(|t| i8::try_from(t).ok()),
            static_th: p.static_th,
        })
        .collect()
}

fn kind(k: &str) -> &'static str {
    if k == "egress" { "egress" } else { "ingress" }
}

fn mode(m: &str) -> &'static str {
    if m == "static" { "static" } else { "dynamic" }
}

#[allow(clippy::too_many_lines)] // one accounting, kept in the Lua's order for comparison
fn mellanox_pools(
    input: &Input<'_>,
    layout: &BufferDefaults,
    model: SonicBufferModel,
    mmu: u64,
    ports: &[PortContext],
    sonic: &[SonicPort],
) -> Result<Pools, Diagnostic> {
    let sku = input.sku;
    let sw = input.fabric.switch(input.switch);
    let mut profiles = profiles_of(layout);
    let size_of = |name: &str| {
        profiles
            .iter()
            .find(|p| p.name == name)
            .map_or(0, |p| p.size)
    };
    let lossy_profile_size = size_of("ingress_lossy_profile");
    let egress_lossy_size = size_of("egress_lossy_profile");
    let cnp_reserve = input.mtu;
    let cnp_count = cnp_queues(input) as u64;
    let pipeline = sku
        .sonic
        .mellanox
        .as_ref()
        .and_then(|m| m.pipeline_latency.parse::<u64>().ok())
        .unwrap_or(19);
    let lossy_pg = pipeline * 1024;
    let lossy_pg_8 = (2 * pipeline - 1) * 1024;
    let cell = input.model.cell.map_or(1, |c| c.value.get().max(1));

    // Per port fabricc writes: PGs, queues and the egress profile list.
    let mut occupied: u64 = 0;
    for (p, sp) in ports.iter().zip(sonic) {
        let lossless = p.lossless_priorities.len() as u64;
        let size = p.headroom.first().map_or(0, |h| h.size_bytes);
        occupied += lossless * size;
        occupied += lossy_profile_size + lossy_pg;
        if sp.eight_lanes {
            occupied += lossy_pg_8 - lossy_pg;
        }
        occupied += egress_lossy_size;
        occupied += cnp_reserve * cnp_count;
    }
    // Every PORT row of the SKU, assumed admin-up: management PG and egress mirror.
    let mut up_8 = 0u64;
    let mut up = 0u64;
    for row in &sku.port_config {
        up += 1;
        if row.lanes.len() == 8 {
            up_8 += 1;
        }
    }
    occupied += (up - up_8) * lossy_pg + up_8 * lossy_pg_8;
    occupied += up * EGRESS_MIRROR + MGMT_POOL;
    let Some(available) = mmu.checked_sub(occupied) else {
        return Err(Diagnostic::new(
            Code::MissingBuildInput,
            sw.span,
            format!(
                "the PFC headroom and SONiC's per-port reserves of `{}` ({occupied} B) exceed its buffer ({mmu} B)",
                sw.name
            ),
        )
        .help("shorten the cables, lower the lossless priorities or use a model with more buffer"));
    };
    let ingress_pools = layout
        .pools
        .iter()
        .filter(|p| p.kind == "ingress")
        .count()
        .max(1) as u64;
    let share = (available / ingress_pools).min(mmu / cell * cell);
    let written = share / cell * cell;
    let mut pools = Vec::new();
    for p in &layout.pools {
        let egress_lossless = p.name == "egress_lossless_pool";
        let expected = if egress_lossless {
            mmu / cell * cell
        } else {
            written
        };
        let size = match model {
            _ if egress_lossless => Some(expected),
            SonicBufferModel::Traditional => Some(expected),
            SonicBufferModel::Dynamic => None,
        };
        pools.push(SonicPool {
            name: p.name.clone(),
            kind: kind(&p.kind),
            mode: mode(&p.mode),
            size,
            xoff: None,
            expected,
        });
    }
    let cnp = (cnp_count > 0).then(|| {
        profiles.push(SonicProfile {
            name: CNP_QUEUE_PROFILE.into(),
            pool: "egress_lossy_pool".into(),
            size: cnp_reserve,
            dynamic_th: Some(3),
            static_th: None,
        });
        CNP_QUEUE_PROFILE.to_string()
    });
    let pool = |n: &str| pools.iter().find(|p| p.name == n).map_or(0, |p| p.expected);
    let alpha = profiles
        .iter()
        .find(|p| p.name == "egress_lossless_profile")
        .and_then(|p| p.dynamic_th)
        .unwrap_or(7);
    let egress_lossless = pool("egress_lossless_pool");
    let buffer = BufferPlan {
        total_bytes: mmu,
        ingress_lossless_pool_bytes: pool("ingress_lossless_pool"),
        shared_headroom_pool_bytes: None,
        egress_lossless_pool_bytes: egress_lossless,
        egress_lossy_pool_bytes: pool("egress_lossy_pool"),
        lossless_queue_buffer_bytes: queue_share(egress_lossless, alpha),
        queue_log2_alpha: alpha,
        pause_point_bytes: None,
        cell_bytes: None,
    };
    Ok((pools, profiles, buffer, cnp))
}

/// CNP queues of the plan (one per `cnp` class queue).
fn cnp_queues(input: &Input<'_>) -> usize {
    let views = input.fabric.switch_classes(input.switch);
    let mut queues: Vec<u8> = views
        .iter()
        .filter(|v| input.fabric.class(v.id).cnp.is_some())
        .map(|v| v.priority.value)
        .collect();
    queues.sort_unstable();
    queues.dedup();
    queues.len()
}

/// One congested queue under `dynamic_th` n holds 2^n/(1+2^n) of its pool.
fn queue_share(pool: u64, log2_alpha: i8) -> u64 {
    let (num, den): (u128, u128) = if log2_alpha >= 0 {
        (1u128 << log2_alpha.unsigned_abs(), 1)
    } else {
        (1, 1u128 << log2_alpha.unsigned_abs())
    };
    u64::try_from(u128::from(pool) * num / (den + num)).unwrap_or(u64::MAX)
}

fn broadcom_pools(layout: &BufferDefaults, mmu: u64) -> Pools {
    let pools: Vec<SonicPool> = layout
        .pools
        .iter()
        .map(|p| SonicPool {
            name: p.name.clone(),
            kind: kind(&p.kind),
            mode: mode(&p.mode),
            size: p.size,
            xoff: p.xoff,
            expected: p.size.unwrap_or(mmu),
        })
        .collect();
    let profiles = profiles_of(layout);
    let pool = |n: &str| pools.iter().find(|p| p.name == n);
    let ingress = pool("ingress_lossless_pool");
    let egress = pool("egress_lossless_pool").map_or(mmu, |p| p.expected);
    let alpha = profiles
        .iter()
        .find(|p| p.name == "egress_lossless_profile")
        .and_then(|p| p.dynamic_th)
        .unwrap_or(0);
    let buffer = BufferPlan {
        total_bytes: mmu,
        ingress_lossless_pool_bytes: ingress.map_or(0, |p| p.expected),
        shared_headroom_pool_bytes: ingress.and_then(|p| p.xoff),
        egress_lossless_pool_bytes: egress,
        egress_lossy_pool_bytes: pool("egress_lossy_pool").map_or(0, |p| p.expected),
        lossless_queue_buffer_bytes: queue_share(egress, alpha),
        queue_log2_alpha: alpha,
        pause_point_bytes: None,
        cell_bytes: None,
    };
    (pools, profiles, buffer, None)
}
