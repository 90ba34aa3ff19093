//! What each host NIC driver does by default and what its host script can change: the CNP
//! marking, DCQCN, and the limits of its DCB (docs/nic-drivers.md has the evidence).
//!
//! In: the resolved fabric. Out: FAB313 (warning) where the NICs of a driver send CNPs with
//! another DSCP or priority than the switches' CNP class and the host script cannot always
//! change that, FAB314 (advice) where the script leaves the CNP marking or DCQCN to a NIC
//! whose default is not known. Where a script does set a value, it sets the fabric's, so
//! there is nothing to report.
//!
//! Why FAB313 is a warning: `build` refuses warnings, and this mismatch, unlike FAB920, is
//! certain on the hosts whose driver cannot change it (the upstream `bnxt_re` has no CNP
//! setting at all): CNPs then leave in a queue the switches do not give the CNP class, and
//! DCQCN reacts late or not at all. The fix is one line in the fabric (the CNP class on the
//! NIC's default), and the mlx5 script sets whatever the fabric says.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::target::NicDriver;
use crate::model::{Dscp, Fabric, NicModelId, Sourced};

use super::group::Grouped;

/// Whether the host script sets a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// On every host the script runs on.
    Always,
    /// Only where the host has what it needs (the reason); elsewhere the script stops before
    /// changing anything unless the NIC already has the fabric's value.
    Sometimes(&'static str),
    /// The script never sets it.
    Never,
}

/// The sourced behaviour of one driver.
#[derive(Debug, Clone, Copy)]
pub struct DriverFacts {
    /// The table's key, for the tests below (`every_driver_has_facts`).
    #[cfg(test)]
    pub driver: NicDriver,
    /// The (DSCP, priority) of the CNPs the NIC sends unless told otherwise; `None` where no
    /// public source states it.
    pub default_cnp: Option<(u8, u8)>,
    pub cnp_source: &'static str,
    pub cnp_control: Control,
    /// DCQCN (ECN reaction and notification point) on by default; `None` where not sourced.
    pub dcqcn_default: Option<bool>,
    /// The evidence for `dcqcn_default`; no finding cites it, the tests hold it non-empty.
    #[cfg(test)]
    pub dcqcn_source: &'static str,
    pub dcqcn_control: Control,
    /// Most priorities with PFC the NIC takes; `None` for no stated limit.
    pub max_lossless: Option<usize>,
    pub lossless_source: &'static str,
}

const MLX5: DriverFacts = DriverFacts {
    #[cfg(test)]
    driver: NicDriver::Mlx5,
    default_cnp: Some((48, 6)),
    cnp_source: "NVIDIA DOCA/MLNX_OFED, DCQCN CC Parameters: CNP_DSCP default 48, CNP_802P_PRIO default 6",
    cnp_control: Control::Always,
    dcqcn_default: Some(true),
    #[cfg(test)]
    dcqcn_source: "NVIDIA DOCA, DCQCN CC Parameters: ROCE_CC_PRIO_MASK (DcQcnEnablePrio0..7) default enabled",
    dcqcn_control: Control::Always,
    max_lossless: None,
    lossless_source: "",
};

const BNXT: DriverFacts = DriverFacts {
    #[cfg(test)]
    driver: NicDriver::Bnxt,
    default_cnp: Some((48, 7)),
    cnp_source: "Broadcom bnxt_re README, \"BNXT_RE Driver Defaults\": CNP Traffic Priority 7, DSCP 48 (bnxt_re.h BNXT_RE_DEFAULT_CNP_PRI/DSCP); Juniper JVD AI DC with AMD MI300X: Thor2 \"RoCE CNP traffic tagged with DSCP 48 and PRIORITY 7\"",
    cnp_control: Control::Sometimes(
        "Broadcom's bnxt_re driver (configfs /sys/kernel/config/bnxt_re) on firmware without CNP service profiles; the upstream bnxt_re has no CNP setting",
    ),
    dcqcn_default: Some(true),
    #[cfg(test)]
    dcqcn_source: "Linux commit f13bcef04ba0 \"RDMA/bnxt_re: Enable congestion control by default\" (bnxt_re_setup_cc, Thor and Thor2)",
    dcqcn_control: Control::Sometimes("Broadcom's bnxt_re configfs `ecn_enable`"),
    max_lossless: Some(1),
    lossless_source: "Broadcom bnxt_re README: \"The driver supports only one priority for RoCE traffic\"",
};

const ICE: DriverFacts = DriverFacts {
    #[cfg(test)]
    driver: NicDriver::Ice,
    default_cnp: None,
    cnp_source: "not stated by Intel's public E810 documentation",
    cnp_control: Control::Never,
    dcqcn_default: None,
    #[cfg(test)]
    dcqcn_source: "Intel Ethernet 800 Series Linux Flow Control Configuration Guide for RDMA (635330), Congestion Control Parameter Settings: configfs roce_dcqcn_enable with Intel's out-of-tree irdma",
    dcqcn_control: Control::Sometimes("Intel's irdma driver (configfs /sys/kernel/config/irdma)"),
    max_lossless: Some(1),
    lossless_source: "Intel 635330, QoS/Flow Control Limitations: \"Only one TC can have Priority Flow Control enabled per port\"",
};

const DCB: DriverFacts = DriverFacts {
    #[cfg(test)]
    driver: NicDriver::Dcb,
    default_cnp: None,
    cnp_source: "vendor-specific: DCBNL has no CNP setting",
    cnp_control: Control::Never,
    dcqcn_default: None,
    #[cfg(test)]
    dcqcn_source: "vendor-specific: DCBNL has no congestion-control setting",
    dcqcn_control: Control::Never,
    max_lossless: None,
    lossless_source: "",
};

const HNS: DriverFacts = DriverFacts {
    #[cfg(test)]
    driver: NicDriver::Hns,
    default_cnp: None,
    cnp_source: "not stated by the public hns3/hns_roce sources; DCBNL has no CNP setting",
    cnp_control: Control::Never,
    dcqcn_default: None,
    #[cfg(test)]
    dcqcn_source: "vendor-specific: DCBNL has no congestion-control setting (hns3_dcbnl.c)",
    dcqcn_control: Control::Never,
    max_lossless: None,
    lossless_source: "",
};

const HCCN: DriverFacts = DriverFacts {
    #[cfg(test)]
    driver: NicDriver::Hccn,
    default_cnp: None,
    cnp_source: "hccn_tool -dcqcn -s cnp_dscp sets the NPU's CNP DSCP (hicann/driver@ef377e950a32:src/custom/network/hccn/ascend910B/hccn_tool/cmd.c); its default is not published",
    // The script sets the CNP DSCP, which is what the switches classify on; the NPU has no
    // CNP priority setting, its CNPs leave in the TC its DSCP -> TC map gives that DSCP.
    cnp_control: Control::Always,
    dcqcn_default: None,
    #[cfg(test)]
    dcqcn_source: "hccn_tool -dcqcn -g status shows it; the default is not published",
    dcqcn_control: Control::Never,
    max_lossless: Some(4),
    lossless_source: "hccn_tool -pfc: \"The number of 910B/C pfc priority queues is 4\" (hicann/driver@ef377e950a32:src/custom/network/hccn/ascend910B/hccn_product_ext/ds_net_ext.h, PRIORITY_NUM_TOTAL)",
};

pub fn facts(driver: NicDriver) -> &'static DriverFacts {
    match driver {
        NicDriver::Mlx5 => &MLX5,
        NicDriver::Bnxt => &BNXT,
        NicDriver::Ice => &ICE,
        NicDriver::Dcb => &DCB,
        NicDriver::Hns => &HNS,
        NicDriver::Hccn => &HCCN,
    }
}

pub fn check(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let Some((cnp_dscp, cnp_prio, cnp_span)) = fabric_cnp(fabric) else {
        return;
    };
    let dcqcn = fabric
        .host_ids()
        .any(|h| fabric.host_classes(h).iter().any(|v| v.marks_ecn()));
    let mut mismatch: Grouped<(String, u8, u8, &'static str, &'static str)> = Grouped::default();
    let mut unknown: Grouped<(String, String)> = Grouped::default();
    for (id, driver) in used_drivers(fabric) {
        let model = &fabric.nic_models[id.index()];
        let f = facts(driver);
        if let Some((d, p)) = f.default_cnp
            && f.cnp_control != Control::Always
            && (d, p) != (cnp_dscp, cnp_prio)
        {
            let reason = match f.cnp_control {
                Control::Sometimes(r) => r,
                _ => "the host script does not set it",
            };
            mismatch.add(
                cnp_span,
                model.name.clone(),
                || model.name.clone(),
                || (model.name.clone(), d, p, reason, f.cnp_source),
            );
        }
        let cnp_unknown = f.default_cnp.is_none() && f.cnp_control != Control::Always;
        let dcqcn_unknown =
            dcqcn && f.dcqcn_default.is_none() && f.dcqcn_control != Control::Always;
        if cnp_unknown || dcqcn_unknown {
            let what = match (cnp_unknown, dcqcn_unknown) {
                (true, true) => "the CNP marking and DCQCN",
                (true, false) => "the CNP marking",
                _ => "DCQCN",
            };
            unknown.add(
                model.driver.span,
                model.name.clone(),
                || model.name.clone(),
                || (driver.as_str().to_string(), what.to_string()),
            );
        }
    }
    mismatch.finish(diags, |span, (model, d, p, reason, source), _| {
        Diagnostic::new(
            Code::NicCnpMismatch,
            span,
            format!(
                "the switches expect CNPs on DSCP {cnp_dscp}, priority {cnp_prio}, but NIC model `{model}` sends them on DSCP {d}, priority {p} by default"
            ),
        )
        .label("the CNP class the switches use")
        .note(format!(
            "its host script changes the CNP marking only with {reason}; on other hosts it stops before changing anything"
        ))
        .note(format!("default: {source}"))
        .help(format!(
            "put the `cnp` class on DSCP {d}, priority {p} (the mlx5 script sets whatever the fabric says); or, where every such host runs the driver that lets the script set it, build with --allow-warnings"
        ))
    });
    unknown.finish(diags, |span, (driver, what), places| {
        let mut d = Diagnostic::new(
            Code::NicCcUnknown,
            span,
            format!(
                "the `{driver}` host script leaves {what} to the NIC, and fabricc does not know its default: it cannot check that the NIC matches the switches' CNP class (DSCP {cnp_dscp}, priority {cnp_prio})"
            ),
        )
        .label("driver set here")
        .help(format!(
            "check with the NIC vendor's tool that CNPs leave with DSCP {cnp_dscp} and priority {cnp_prio} and that DCQCN is on; docs/nic-drivers.md names the tools"
        ));
        if let Some(n) = places.note("NIC models") {
            d = d.note(n);
        }
        d
    });
}

/// HCCL's defaults (Huawei, CANN Environment Variable Reference): HCCL_RDMA_TC 132 (DSCP 33),
/// HCCL_RDMA_SL 4.
pub const HCCL_DEFAULT_DSCP: u8 = 33;
pub const HCCL_DEFAULT_SL: u8 = 4;

/// FAB911 (advice): a fabric with Ascend NPU hosts (`driver hccn`) whose RoCE class is not
/// HCCL's default, DSCP 33 / service level 4 (Huawei, CANN Environment Variable Reference:
/// HCCL_RDMA_TC default 132 = DSCP 33 × 4, HCCL_RDMA_SL default 4). The host script cannot
/// reach HCCL's traffic (the job sets it), so every job must load the host's `hccl.env`.
pub fn hccl_default(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let hccn: Vec<&str> = used_drivers(fabric)
        .into_iter()
        .filter(|&(_, d)| d == NicDriver::Hccn)
        .map(|(id, _)| fabric.nic_models[id.index()].name.as_str())
        .collect();
    let Some(first) = hccn.first() else {
        return;
    };
    // The default RoCE class of the hccn hosts, as `HostQos::roce` (the first lossless, then
    // DCQCN, class with a DSCP), the first host that differs from HCCL's default.
    let found = fabric
        .host_ids()
        .filter(|&h| {
            fabric.host(h).nics.iter().any(|n| {
                n.link.is_some() && fabric.nic_models[n.model.index()].driver.value == "hccn"
            })
        })
        .find_map(|h| {
            let views = fabric.host_classes(h);
            let (v, dscp) = crate::model::qos::roce_classes(&views).into_iter().next()?;
            let prio = v.priority.value;
            ((dscp, prio) != (HCCL_DEFAULT_DSCP, HCCL_DEFAULT_SL))
                .then(|| (fabric.class(v.id).name.clone(), dscp, prio, v.priority.span))
        });
    let Some((class, dscp, prio, span)) = found else {
        return;
    };
    let model = fabric
        .nic_models
        .iter()
        .find(|m| m.name == *first)
        .map_or(span, |m| m.driver.span);
    diags.push(
        Diagnostic::new(
            Code::HcclDefaultClass,
            model,
            format!(
                "HCCL sends RoCE traffic with DSCP {HCCL_DEFAULT_DSCP} and service level {HCCL_DEFAULT_SL} unless told otherwise, but the fabric's lossless class `{class}` is DSCP {dscp}, priority {prio}"
            ),
        )
        .label("Ascend NPU ports (driver hccn)")
        .note(format!(
            "each hccn host's hccl.env sets HCCL_RDMA_TC={} and HCCL_RDMA_SL={prio}; a job that does not load it (or sets hcclRdmaTrafficClass in HcclCommConfig) sends its traffic outside the lossless class",
            u16::from(dscp) * 4
        ))
        .help(format!(
            "load hccl.env in every training job's environment, or put class `{class}` on DSCP {HCCL_DEFAULT_DSCP}, priority {HCCL_DEFAULT_SL}"
        )),
    );
}

/// The fabric's CNP marking as hosts see it: the `cnp` class's first DSCP and priority, with
/// the span to report at. `None` without a `cnp` class (FAB504 says so).
fn fabric_cnp(fabric: &Fabric) -> Option<(u8, u8, crate::span::Span)> {
    fabric.class_ids().find_map(|c| {
        let class = fabric.class(c);
        class.cnp?;
        let dscp = match &class.dscp {
            Some(Sourced {
                value: Dscp::Values(v),
                ..
            }) => v.first().copied()?,
            _ => return None,
        };
        Some((dscp, class.priority.value, class.priority.span))
    })
}

/// Every NIC model a linked host uses, with its driver; sorted by model, each once.
fn used_drivers(fabric: &Fabric) -> Vec<(NicModelId, NicDriver)> {
    let mut out: Vec<(NicModelId, NicDriver)> = fabric
        .host_ids()
        .flat_map(|h| fabric.host(h).nics.iter())
        .filter(|n| n.link.is_some())
        .filter_map(|n| {
            let m = &fabric.nic_models[n.model.index()];
            NicDriver::from_model(&m.driver.value).map(|d| (n.model, d))
        })
        .collect();
    out.sort_by_key(|(id, _)| id.index());
    out.dedup_by_key(|(id, _)| id.index());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_driver_has_facts() {
        for d in NicDriver::ALL {
            let f = facts(d);
            assert_eq!(f.driver, d);
            assert!(!f.cnp_source.is_empty() && !f.dcqcn_source.is_empty());
            if f.max_lossless.is_some() {
                assert!(!f.lossless_source.is_empty());
            }
        }
        // The two defaults the issue names: NVIDIA 48/6, Broadcom Thor2 48/7.
        assert_eq!(facts(NicDriver::Mlx5).default_cnp, Some((48, 6)));
        assert_eq!(facts(NicDriver::Bnxt).default_cnp, Some((48, 7)));
    }
}
