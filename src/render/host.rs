//! Host view: a host context as the values of its files — the driver's NIC script
//! (`mlnx_qos.sh` for mlx5), the NCCL/RCCL environment (`nccl.env`), the systemd unit and the
//! udev rule that re-run the script.
//!
//! In: a `HostContext`. Out: `HostView`, every list already joined in the form its command
//! takes and every name validated, so the templates only print. The view has a driver-neutral
//! part (identity, NCCL, persistence) and one part per driver (`mlx5`); a second driver is a
//! second template plus a second part here, chosen by [`driver_script`].
//!
//! mlx5 rules, with their sources:
//! * `mlnx_qos` (Mellanox/mlnx-tools@8fbfd9cfff34:python/mlnx_qos): every list exactly 8 items;
//!   `--prio_tc/--tsa/--tcbw` in one call (a fresh port's TCs are `vendor`, so `--tcbw` alone is
//!   refused); `--trust` never with `--dscp2prio`; `--dscp2prio set,D,P` once per DSCP.
//! * ETS shares over `ets` TCs sum to 100 and strict TCs get 0: mlx5 refuses other sums
//!   (torvalds/linux@84a83eba5c5a:drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c,
//!   `mlx5e_dbcnl_validate_ets`).
//! * The DSCP map is written whole: `mlx5e_dcbnl_ieee_setapp` replaces the entry of a DSCP
//!   (it deletes the old app entry), so 64 `set`s leave no entry of an earlier fabric; on the
//!   MLNX_OFED sysfs backend mlnx_qos writes `qos/dscp2prio` per DSCP, also absolute.
//! * No `--cable_len` and no `--prio2buffer/--buffer_size`: the driver uses the cable length
//!   only once the port buffers are in manual mode (`mlx5e_dcbnl_ieee_setpfc` calls
//!   `mlx5e_port_manual_buffer_config` only `if (priv->dcbx.manual_buffer)`, which only a
//!   changing `dcbnl_setbuffer` sets), so the firmware sizes the NIC headroom; FAB404 says when
//!   the cable is longer than the driver's default of 7 m. Taking the buffers over is left to
//!   the operator: it needs the port's buffer size and `max_mtu`, known only on the host.

use std::fmt::Write as _;

use serde::Serialize;

use super::context::{HostContext, NicContext, NicDriver, TosClass, Tsa};
use super::host_dcb::DcbView;
use super::host_hccn::HccnView;
use super::{RenderError, escape, invalid};

/// The NIC script of a driver; every other host template is shared by all drivers.
pub fn driver_script(driver: NicDriver) -> &'static str {
    match driver {
        NicDriver::Mlx5 => "mlnx_qos.sh",
        NicDriver::Bnxt => "bnxt_qos.sh",
        NicDriver::Ice => "ice_qos.sh",
        NicDriver::Dcb => "dcb_qos.sh",
        NicDriver::Hns => "hns_qos.sh",
        NicDriver::Hccn => "hccn.sh",
    }
}

/// Whether a shared host file belongs in a host's folder: an Ascend NPU host (`hccn`) gets
/// the HCCL environment (`hccl.env`) instead of NCCL's and no udev rule (its RoCE ports are
/// the NPUs', no RDMA device of the host appears for them, and `hccn_tool` keeps its settings
/// in /etc/hccn.conf, re-applied on `-link -s up`; the unit checks them at boot); every other
/// host gets `nccl.env` and the rule.
pub fn host_file_applies(driver: NicDriver, output: &str) -> bool {
    match output {
        "hccl.env" => driver == NicDriver::Hccn,
        "nccl.env" | "99-fabricc-roce.rules" => driver != NicDriver::Hccn,
        _ => true,
    }
}

/// Every driver's program, and the template parts they include: host templates that are not
/// files of a host's folder but written once per build under [`PROGRAMS`] (issue 36 item 2).
pub const DRIVER_SCRIPTS: &[&str] = &[
    "mlnx_qos.sh",
    "bnxt_qos.sh",
    "ice_qos.sh",
    "dcb_qos.sh",
    "hns_qos.sh",
    "hccn.sh",
    "dcbnl-body.sh",
];

/// The folder of the host programs in the output: one program per driver family, the same
/// bytes for every host, which reads the host's [`SETTINGS`].
pub const PROGRAMS: &str = "programs/host";

/// The systemd unit and the udev rule of a driver's hosts: the same bytes for every host of the
/// driver, so they are written once per build under `programs/host/<driver>/` (issue 36 item
/// 2), next to the program they run; the host's settings file says how to install them.
pub const DRIVER_FILES: [&str; 2] = ["fabricc-roce.service", "99-fabricc-roce.rules"];

/// What the unit and the rule of a driver's hosts say: nothing of a host or a fabric.
#[derive(Debug, Serialize)]
pub struct DriverFilesView {
    pub driver: &'static str,
    pub script: &'static str,
    pub kernel_module: Option<&'static str>,
    /// An Ascend NPU host (no busy guard, no udev rule).
    pub hccn: bool,
}

/// The view of [`DRIVER_FILES`] for `driver`.
pub fn driver_files_view(driver: NicDriver) -> DriverFilesView {
    DriverFilesView {
        driver: driver.as_str(),
        script: driver_script(driver),
        kernel_module: kernel_module(driver),
        hccn: driver == NicDriver::Hccn,
    }
}

/// The host's settings file (its NICs and the fabric's intent), read by the driver's program.
pub const SETTINGS: &str = "fabricc-roce.conf";

/// What every host file of a build has in common — the install steps, what each key and
/// variable means, why the NCCL/HCCL environment exists — written once under [`PROGRAMS`]
/// (issue 36): a host's files keep a header that names their section, their data, and the
/// comments about that host only, so a review or a `diff` of a host shows its values.
pub const README: &str = "README.md";

/// The README section that explains a `driver`'s settings file; the settings' header names it.
pub fn readme_section(driver: NicDriver) -> String {
    format!("{SETTINGS} ({})", driver.as_str())
}

/// What [`README`] says depends only on which drivers, bonds and environment files the
/// build's hosts have: nothing of a host, so it changes only with fabricc or the driver set.
#[derive(Debug, Serialize)]
pub struct ReadmeView {
    /// One per driver family the hosts use, in [`NicDriver`] order.
    pub drivers: Vec<ReadmeDriver>,
    /// Some mlx5 host bonds its ports (`bond.sh`, `LAG=`/`BOND=` lines).
    pub bond: bool,
    /// Some host has `nccl.env` (every driver but hccn).
    pub nccl: bool,
    /// Some host has `hccl.env` (hccn).
    pub hccl: bool,
    /// Some host's NICs are host NICs found by `pci`/`netdev`/`rdma-device` (every driver but
    /// hccn, whose NPU ports are found by device number).
    pub host_nics: bool,
    /// Some host is mlx5, the only driver whose RDMA device names fabricc assumes (FAB920).
    pub mlx5: bool,
}

#[derive(Debug, Serialize)]
pub struct ReadmeDriver {
    pub driver: &'static str,
    pub script: &'static str,
    pub mlx5: bool,
    pub hccn: bool,
}

/// The view of [`README`] for hosts of these drivers; `bond`: some mlx5 host has bonds.
pub fn readme_view(drivers: &std::collections::BTreeSet<NicDriver>, bond: bool) -> ReadmeView {
    ReadmeView {
        drivers: drivers
            .iter()
            .map(|&d| ReadmeDriver {
                driver: d.as_str(),
                script: driver_script(d),
                mlx5: d == NicDriver::Mlx5,
                hccn: d == NicDriver::Hccn,
            })
            .collect(),
        bond,
        nccl: drivers.iter().any(|&d| host_file_applies(d, "nccl.env")),
        hccl: drivers.iter().any(|&d| host_file_applies(d, "hccl.env")),
        host_nics: drivers.iter().any(|&d| d != NicDriver::Hccn),
        mlx5: drivers.contains(&NicDriver::Mlx5),
    }
}

/// Whether a line of a rendered settings file is one the programs read safely: a comment, or
/// `KEY=value` with an upper-case key and a value of `[A-Za-z0-9_.:,= -]` only (the programs'
/// own check, `load_settings`). Every value comes from a validated name or a number; this is
/// the last guard that no `.fab` name reaches the file as anything else.
pub fn settings_line_ok(line: &str) -> bool {
    if line.is_empty() || line.starts_with('#') {
        return true;
    }
    let Some((key, value)) = line.split_once('=') else {
        return false;
    };
    let mut k = key.bytes();
    matches!(k.next(), Some(b'A'..=b'Z'))
        && k.all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && value.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b',' | b'=' | b' ' | b'-')
        })
}

/// The bond program (issue 18): written once under [`PROGRAMS`] when an mlx5 host has `bond`,
/// next to `mlnx_qos.sh`; it reads the `BOND=` lines of the host's [`SETTINGS`] (issue 36).
pub const BOND_SCRIPT: &str = "bond.sh";

/// The kernel module bound to the PCI function (udev `DRIVERS==`); `None` for the generic
/// DCB script, whose NIC's driver is not known.
fn kernel_module(driver: NicDriver) -> Option<&'static str> {
    match driver {
        NicDriver::Mlx5 => Some("mlx5_core"),
        // bnxt_re and irdma hang their RDMA device below the PCI function that bnxt_en and
        // ice bind (auxiliary bus), so that is the driver udev sees among the parents.
        NicDriver::Bnxt => Some("bnxt_en"),
        NicDriver::Ice => Some("ice"),
        NicDriver::Dcb => None,
        // hns_roce_hw_v2 hangs below the PCI function hns3 binds (hnae3 client).
        NicDriver::Hns => Some("hns3"),
        // No host RDMA device: the unit runs it at boot, no udev rule is written.
        NicDriver::Hccn => None,
    }
}

#[derive(Debug, Serialize)]
pub struct HostView {
    pub host: String,
    pub fabric: String,
    /// Sanitized one-line text for a `#` comment.
    pub description: Option<String>,
    /// `mlx5`.
    pub driver: &'static str,
    /// The driver's script file name.
    pub script: &'static str,
    /// The section of `programs/host/README.md` that explains the settings file.
    pub readme_section: String,
    /// The kernel module that owns the PCI functions (udev `DRIVERS==`); `None`: any.
    pub kernel_module: Option<&'static str>,
    pub nics: Vec<NicView>,
    /// NICs off the lossless fabric, `nic9 (frontend)`, named in a comment and left alone.
    pub left_alone: Vec<String>,
    /// What the host's own block changes from the fabric's classes, `, `-joined for one
    /// comment line; empty when nothing.
    pub deviations: String,
    /// Some NIC has no declared identity (FAB920).
    pub guessed: bool,
    pub nccl: NcclView,
    /// The mlx5 part (`mlnx_qos.sh`); `None` for the other drivers.
    pub mlx5: Option<Mlx5View>,
    /// The DCBNL part (`bnxt_qos.sh`, `ice_qos.sh`, `dcb_qos.sh`, `hns_qos.sh`); `None` for
    /// mlx5 and hccn.
    pub dcb: Option<DcbView>,
    /// The Ascend NPU part (`hccn.sh`, `hccl.env`); `None` for the other drivers.
    pub hccn: Option<HccnView>,
    /// `bond.sh` (mlx5 only, issue 18): the bonds to create; empty for other drivers, whose
    /// bond is FAB126.
    pub bonds: Vec<BondView>,
}

/// One bond of `bond.sh`.
#[derive(Debug, Serialize)]
pub struct BondView {
    /// `bond1`: built from a number only.
    pub name: String,
    /// The kernel's `mode=`.
    pub mode: &'static str,
    /// `1,2`: the NIC indices of its ports (the settings' `BOND=… members=`).
    pub members: String,
    /// Its first port, whose PCI function holds the RoCE LAG device (`mlx5_bond_N`), and the
    /// others, which `mlnx_qos.sh` lets share it.
    pub first: u32,
    pub rest: Vec<u32>,
    /// `mode 802.3ad` or `balance-xor`: both ports send, by a layer3+4 hash.
    pub hashed: bool,
    pub lacp: bool,
}

#[derive(Debug, Serialize)]
pub struct NicView {
    pub index: u32,
    /// `nic3` / `nic2.port1`: built from numbers only (`Fabric::nic_name`), safe in a comment.
    pub name: String,
    /// Empty when not declared (the script finds it).
    pub netdev: String,
    pub rdma_device: String,
    pub pci: String,
    pub guessed: bool,
    pub port: u8,
    pub peer: String,
    /// What the fabric declares, for a comment: `pci 0000:0c:00.0, netdev ens1f0np0`.
    pub declared: String,
    /// The settings file's `NIC=` record: `1 pci=0000:0c:00.0 port=1 peer=leaf1.port3`
    /// (declared identity only; `guessed=1` for an assumed RDMA device).
    pub settings: String,
}

#[derive(Debug, Serialize)]
pub struct NcclView {
    /// `NCCL_IB_TC`: the ToS byte of the default RoCE class; `None` without one.
    pub tc: Option<TosView>,
    /// Lossless/DCQCN classes only an application that sets its own ToS reaches (H13).
    pub others: Vec<TosView>,
    /// `NCCL_IB_HCA` value (`=mlx5_0:1,…`, exact names in NIC = rail order); `None` when a NIC
    /// is known only by netdev or PCI address.
    pub hca: Option<String>,
    pub hca_guessed: bool,
    /// `NCCL_IB_QPS_PER_CONNECTION` from `load-balance`: more queue pairs per connection give
    /// ECMP more flows (distinct UDP source ports) to spread.
    pub qps_per_connection: Option<u64>,
    /// `NCCL_IB_SPLIT_DATA_ON_QPS` (0 or 1) from `load-balance`.
    pub split_data_on_qps: Option<u8>,
}

#[derive(Debug, Serialize)]
pub struct TosView {
    pub class: String,
    pub dscp: u8,
    pub priority: u8,
    pub tos: u8,
}

#[derive(Debug, Serialize)]
pub struct Mlx5View {
    pub mtu: u32,
    pub pfc: String,
    pub prio_tc: String,
    pub tsa: String,
    pub tcbw: String,
    /// The 64 priorities, index = DSCP, comma-separated.
    pub dscp2prio: String,
    /// The `--dscp2prio set,D,P` arguments, eight to a line.
    pub dscp2prio_lines: Vec<String>,
    /// ToS for RDMA-CM (`cma_roce_tos`) and the verbs traffic class; 0 without a RoCE class.
    pub tos: u8,
    pub cnp_dscp: u8,
    pub cnp_priority: u8,
    /// ECN enable per priority, `1,1,…` (index = priority).
    pub ecn: String,
    /// The firmware's `ROCE_CC_PRIO_MASK` bits the fabric needs (its DCQCN priorities).
    pub cc_mask: u8,
    /// The DCQCN priorities, for comments.
    pub dcqcn_priorities: String,
    /// Priorities with PFC, for comments (`3`, or `none`).
    pub pfc_priorities: String,
}

fn list<T: ToString>(items: &[T]) -> String {
    items.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

fn tos_view(c: &TosClass) -> TosView {
    TosView {
        class: c.class.clone(),
        dscp: c.dscp,
        priority: c.priority,
        tos: c.tos,
    }
}

pub fn view(ctx: &HostContext) -> Result<HostView, RenderError> {
    let dev = ctx.host.as_str();
    if !escape::is_identifier(dev) {
        return Err(invalid(
            dev,
            format!("host name {dev:?} is not an identifier"),
        ));
    }
    if !escape::is_identifier(&ctx.fabric) {
        return Err(invalid(
            dev,
            format!("fabric name {:?} is not an identifier", ctx.fabric),
        ));
    }
    for c in ctx.qos.roce.iter().chain(&ctx.qos.other_roce) {
        if !escape::is_identifier(&c.class) || c.dscp > 63 || c.priority > 7 {
            return Err(invalid(
                dev,
                format!("class {:?}: bad name, DSCP or priority", c.class),
            ));
        }
    }
    let nics = ctx
        .nics
        .iter()
        .enumerate()
        .map(|(k, n)| nic(dev, ctx.driver, k, n))
        .collect::<Result<Vec<_>, _>>()?;
    let mut names = std::collections::BTreeSet::new();
    for n in &nics {
        for (what, v) in [
            ("netdev", &n.netdev),
            ("RDMA device", &n.rdma_device),
            ("PCI address", &n.pci),
        ] {
            if !v.is_empty() && !names.insert((what, v.clone())) {
                return Err(invalid(dev, format!("two NICs share the {what} `{v}`")));
            }
        }
    }
    // NCCL's devices are the rails; a storage NIC on the fabric is no NCCL device. Under mlx5
    // RoCE LAG a bond's ports are one RDMA device, `mlx5_bond_N`, whose number only the host
    // knows: no exact list then.
    let bonded = ctx.driver == NicDriver::Mlx5 && !ctx.bonds.is_empty();
    let hca = ctx
        .nics
        .iter()
        .filter(|n| n.rail)
        .map(|n| {
            n.rdma_device
                .as_ref()
                .map(|d| format!("{d}:{}", n.rdma_port))
        })
        .collect::<Option<Vec<_>>>()
        .filter(|v| !v.is_empty() && !bonded)
        .map(|v| format!("={}", v.join(",")));
    let (mlx5, dcb, hccn) = match ctx.driver {
        NicDriver::Mlx5 => (Some(mlx5(dev, ctx)?), None, None),
        NicDriver::Hccn => (None, None, Some(super::host_hccn::view(dev, &ctx.qos)?)),
        d => (None, Some(super::host_dcb::view(dev, d, &ctx.qos)?), None),
    };
    Ok(HostView {
        host: ctx.host.clone(),
        fabric: ctx.fabric.clone(),
        description: ctx.description.as_deref().map(escape::comment_text),
        driver: ctx.driver.as_str(),
        script: driver_script(ctx.driver),
        readme_section: readme_section(ctx.driver),
        kernel_module: kernel_module(ctx.driver),
        guessed: nics.iter().any(|n| n.guessed),
        nccl: NcclView {
            tc: ctx.qos.roce.as_ref().map(tos_view),
            others: ctx.qos.other_roce.iter().map(tos_view).collect(),
            hca,
            hca_guessed: nics.iter().any(|n| n.guessed),
            qps_per_connection: ctx.qps_per_connection,
            split_data_on_qps: ctx.split_data_on_qps.map(u8::from),
        },
        nics,
        left_alone: ctx.left_alone.clone(),
        deviations: escape::comment_text(&ctx.deviations.join(", ")),
        mlx5,
        dcb,
        hccn,
        bonds: if bonded {
            ctx.bonds.iter().map(bond_view).collect()
        } else {
            Vec::new()
        },
    })
}

fn bond_view(b: &super::context::BondContext) -> BondView {
    BondView {
        name: b.name.clone(),
        mode: b.mode,
        members: b
            .members
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(","),
        first: b.members.first().copied().unwrap_or(0),
        rest: b.members.iter().skip(1).copied().collect(),
        hashed: b.mode != "active-backup",
        lacp: b.mode == "802.3ad",
    }
}

/// One NIC of the host; `k` is its place among the host's NICs on the fabric (0-based), the
/// NPU device number `hccn_tool -i` takes on an Ascend host.
fn nic(dev: &str, driver: NicDriver, k: usize, n: &NicContext) -> Result<NicView, RenderError> {
    let bad = |m: String| invalid(dev, format!("nic{}: {m}", n.index));
    if driver == NicDriver::Hccn {
        return hccn_nic(dev, k, n);
    }
    if let Some(nd) = &n.netdev
        && !escape::is_netdev(nd)
    {
        return Err(bad(format!("netdev {nd:?} is not a Linux interface name")));
    }
    if let Some(rd) = &n.rdma_device
        && !escape::is_rdma_device(rd)
    {
        return Err(bad(format!("RDMA device {rd:?} is not a device name")));
    }
    if let Some(pci) = &n.pci
        && !escape::is_pci_address(pci)
    {
        return Err(bad(format!("PCI address {pci:?} is malformed")));
    }
    if n.netdev.is_none() && n.rdma_device.is_none() && n.pci.is_none() {
        return Err(bad("no netdev, RDMA device or PCI address".into()));
    }
    if !(1..=2).contains(&n.rdma_port) {
        return Err(bad(format!("RDMA port {} is not 1 or 2", n.rdma_port)));
    }
    if !escape::is_identifier(&n.peer) {
        return Err(bad(format!("peer {:?} is not a port name", n.peer)));
    }
    let mut declared = Vec::new();
    if let Some(p) = &n.pci {
        declared.push(format!("pci {p}"));
    }
    if let Some(d) = &n.netdev {
        declared.push(format!("netdev {d}"));
    }
    match (&n.rdma_device, n.guessed) {
        (Some(r), false) => declared.push(format!("rdma-device {r}")),
        (Some(r), true) => declared.push(format!("nothing: assumed rdma-device {r}")),
        (None, _) => {}
    }
    let mut settings = vec![n.index.to_string()];
    for (key, v) in [
        ("netdev", &n.netdev),
        ("rdma-device", &n.rdma_device),
        ("pci", &n.pci),
    ] {
        if let Some(v) = v {
            settings.push(format!("{key}={v}"));
        }
    }
    if n.guessed {
        settings.push("guessed=1".into());
    }
    settings.push(format!("port={}", n.rdma_port));
    settings.push(format!("peer={}", n.peer));
    Ok(NicView {
        settings: settings.join(" "),
        index: n.index,
        name: n.name.clone(),
        netdev: n.netdev.clone().unwrap_or_default(),
        rdma_device: n.rdma_device.clone().unwrap_or_default(),
        pci: n.pci.clone().unwrap_or_default(),
        guessed: n.guessed,
        port: n.rdma_port,
        peer: n.peer.clone(),
        declared: declared.join(", "),
    })
}

/// An Ascend NPU's RoCE port: found by its NPU device number (`hccn_tool -i <device>`, the
/// NIC's place on the fabric: nic1 is NPU 0), not by a host netdev, RDMA device or PCI
/// function, which the NPU's port does not have on the host.
fn hccn_nic(dev: &str, k: usize, n: &NicContext) -> Result<NicView, RenderError> {
    let bad = |m: String| invalid(dev, format!("nic{}: {m}", n.index));
    if n.netdev.is_some() || n.rdma_device.is_some() || n.pci.is_some() {
        return Err(bad(
            "an Ascend NPU port (driver hccn) is addressed by its NPU device number, in NIC order; declare no netdev, rdma-device or pci".into(),
        ));
    }
    if !escape::is_identifier(&n.peer) {
        return Err(bad(format!("peer {:?} is not a port name", n.peer)));
    }
    let device = u32::try_from(k).map_err(|_| bad("too many NICs".into()))?;
    Ok(NicView {
        settings: format!("{} device={device} port=1 peer={}", n.index, n.peer),
        index: n.index,
        name: n.name.clone(),
        netdev: String::new(),
        rdma_device: String::new(),
        pci: String::new(),
        guessed: false,
        port: 1,
        peer: n.peer.clone(),
        declared: format!("NPU device {device}"),
    })
}

fn mlx5(dev: &str, ctx: &HostContext) -> Result<Mlx5View, RenderError> {
    let q = &ctx.qos;
    let bad = |m: String| invalid(dev, m);
    if q.pfc.iter().any(|&v| v > 1) {
        return Err(bad("PFC items must be 0 or 1".into()));
    }
    if q.prio_tc.iter().any(|&v| v > 7) {
        return Err(bad("prio_tc items must be 0..7".into()));
    }
    let mut ets_sum = 0u32;
    let mut any_ets = false;
    for (tc, (&tsa, &bw)) in q.tsa.iter().zip(q.tcbw.iter()).enumerate() {
        if bw > 100 {
            return Err(bad(format!("TC {tc}: bandwidth {bw} above 100")));
        }
        match tsa {
            Tsa::Strict if bw != 0 => {
                return Err(bad(format!("TC {tc} is strict, its bandwidth must be 0")));
            }
            Tsa::Strict => {}
            Tsa::Ets => {
                any_ets = true;
                ets_sum += u32::from(bw);
            }
        }
    }
    if any_ets && ets_sum != 100 {
        return Err(bad(format!(
            "ETS bandwidths sum to {ets_sum}, the kernel needs 100"
        )));
    }
    if !(68..=9978).contains(&q.mtu) {
        return Err(bad(format!("MTU {} outside 68..9978", q.mtu)));
    }
    if q.cnp_dscp > 63 || q.cnp_priority > 7 || q.dcqcn_priorities.iter().any(|&p| p > 7) {
        return Err(bad("CNP DSCP ≤ 63 and priorities ≤ 7 required".into()));
    }
    if q.ecn_enable.iter().any(|&v| v > 1) {
        return Err(bad("ECN enable items must be 0 or 1".into()));
    }
    if q.dscp2prio.len() != 64 || q.dscp2prio.iter().any(|&p| p > 7) {
        return Err(bad(
            "the DSCP → priority map needs 64 priorities of 0..7".into()
        ));
    }
    let dscp2prio_lines = q
        .dscp2prio
        .chunks(8)
        .enumerate()
        .map(|(row, chunk)| {
            // One String per line, not one per entry joined: this runs for every host.
            let mut line = String::with_capacity(chunk.len() * 24);
            for (i, p) in chunk.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                let _ = write!(line, "--dscp2prio set,{},{p}", row * 8 + i);
            }
            line
        })
        .collect();
    let tsa: Vec<&str> = q.tsa.iter().map(|t| t.as_str()).collect();
    let pfc_priorities: Vec<String> = (0..8u8)
        .filter(|&p| q.pfc[usize::from(p)] == 1)
        .map(|p| p.to_string())
        .collect();
    Ok(Mlx5View {
        mtu: q.mtu,
        pfc: list(&q.pfc),
        prio_tc: list(&q.prio_tc),
        tsa: tsa.join(","),
        tcbw: list(&q.tcbw),
        dscp2prio: list(&q.dscp2prio),
        dscp2prio_lines,
        tos: q.roce.as_ref().map_or(0, |c| c.tos),
        cnp_dscp: q.cnp_dscp,
        cnp_priority: q.cnp_priority,
        ecn: list(&q.ecn_enable),
        cc_mask: q.dcqcn_priorities.iter().fold(0u8, |m, &p| m | (1 << p)),
        dcqcn_priorities: if q.dcqcn_priorities.is_empty() {
            "none".into()
        } else {
            list(&q.dcqcn_priorities)
        },
        pfc_priorities: if pfc_priorities.is_empty() {
            "none".into()
        } else {
            pfc_priorities.join(",")
        },
    })
}
