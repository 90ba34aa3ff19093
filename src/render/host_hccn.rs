//! The Ascend NPU host view (`hccn.sh`, `hccl.env`): the fabric's host QoS in the argument
//! forms of `hccn_tool`, the Ascend driver's network tool, per NPU device.
//!
//! In: a host's `HostQos`. Out: `HccnView`, every value already in the form `hccn_tool … -s`
//! takes and, where `-g` prints it differently, the form the program compares with.
//! Option spelling, argument formats and ranges are those of the Ascend 910B build of
//! `hccn_tool` (hicann/driver@ef377e950a32b1641c108c59481e39e9643b7d63,
//! src/custom/network/hccn/ascend910B/: hccn_tool/cmd.c and tool_ops.c for `-dscp_to_tc`,
//! `-mtu`, `-dcqcn`; hccn_product_ext/cmd_ext.c, tool_cmd.c, tool_prio_tc.c and
//! tool_tc_qos.c for `-pfc`, `-prio_tc`, `-tc_qos`):
//! * `-dscp_to_tc -s dscp D tc T`: one DSCP per call, T in 0..3 — the NPU maps a DSCP to a
//!   traffic class directly, so the program writes the fabric's DSCP → priority map composed
//!   with the priority → TC plan, all 64 DSCPs (absolute: no entry of an earlier map stays).
//! * `-prio_tc -s map 0,0,1,…`: 8 TCs of 0..3, comma-separated (15 characters).
//! * `-pfc -s bitmap 0,0,0,1,0,0,0,0`: 8 flags; at most 4 priorities on (910B/C).
//! * `-tc_qos -s tsa 0:ets,1:strict,… tcbw 0:50,1:0,…`: TCs 0..3; an ETS TC needs a share
//!   above 0 and no higher number than the highest TC `-prio_tc` uses, the ETS shares sum to
//!   100, a strict TC's share is 0. The program writes all 4 TCs, unused ones strict.
//! * `-mtu -s size N` (68..9702), `-dcqcn -s cnp_dscp D` (0..63).
//!
//! The TC plan is `ice`'s (the used priorities on TCs 0, 1, 2 … in priority order), with
//! hns3's rule for the TCs above them (strict, no share); `host_dcb` computes it, so the two
//! NICs with 4-TC-style limits share one rule. A host that uses more than 4 priorities or an
//! ETS TC without a share is refused (FAB901).
//!
//! HCCL's traffic class and service level (`hccl.env`): `HCCL_RDMA_TC` is the ToS byte as a
//! multiple of 4, DSCP × 4 (no ECN bits: "must be an integral multiple of 4"; default 132 =
//! DSCP 33), and `HCCL_RDMA_SL` the priority, which "must match the PFC priority configured on
//! the NIC" (default 4) (Huawei, CANN Environment Variable Reference, HCCL_RDMA_TC and
//! HCCL_RDMA_SL).

use serde::Serialize;

use super::context::{HostQos, NicDriver};
use super::host_dcb;
use super::{RenderError, invalid};

use crate::analysis::nic_drivers::{HCCL_DEFAULT_DSCP, HCCL_DEFAULT_SL};

#[derive(Debug, Serialize)]
pub struct HccnView {
    pub mtu: u32,
    /// DSCP → TC, 64 comma-separated TCs (index = DSCP).
    pub dscp2tc: String,
    /// Priority → TC, `-prio_tc -s map` form (`0,0,0,1,0,0,2,0`).
    pub prio_tc: String,
    /// PFC per priority, `-pfc -s bitmap` form.
    pub pfc: String,
    /// `-tc_qos -s tsa` and `tcbw` arguments, TCs 0..3.
    pub tc_tsa: String,
    pub tc_bw: String,
    /// The plan, for a comment: `priority 3 -> TC 1, …`.
    pub tc_plan: String,
    pub cnp_dscp: u8,
    /// Priorities with PFC (`3`, or `none`) and DCQCN, for comments.
    pub pfc_priorities: String,
    pub dcqcn_priorities: String,
    pub dcqcn: bool,
    /// `HCCL_RDMA_TC` (DSCP × 4) and `HCCL_RDMA_SL` (priority) of the RoCE class; `None`
    /// without one.
    pub hccl: Option<HcclView>,
}

#[derive(Debug, Serialize)]
pub struct HcclView {
    pub class: String,
    pub dscp: u8,
    pub priority: u8,
    pub tc: u16,
    pub sl: u8,
    /// The fabric's class is HCCL's default (DSCP 33, SL 4).
    pub default: bool,
}

/// `0:a 1:b …` (the `dcb` form `host_dcb` computes) as hccn_tool's `0:a,1:b,2:c,3:d`, TCs 0..3.
fn tc_list(map: &str) -> String {
    map.split_whitespace().take(4).collect::<Vec<_>>().join(",")
}

pub fn view(dev: &str, q: &HostQos) -> Result<HccnView, RenderError> {
    if !(68..=9702).contains(&q.mtu) {
        return Err(invalid(
            dev,
            format!("MTU {} outside hccn_tool's 68..9702", q.mtu),
        ));
    }
    let d = host_dcb::view(dev, NicDriver::Hccn, q)?;
    // priority -> TC as numbers, from the `p:t` form.
    let plan: Vec<u8> = d
        .prio_tc
        .split_whitespace()
        .filter_map(|kv| kv.split_once(':').and_then(|(_, t)| t.parse().ok()))
        .collect();
    if plan.len() != 8 || plan.iter().any(|&t| t > 3) {
        return Err(invalid(dev, "the NPU's TC plan needs 8 TCs of 0..3"));
    }
    let dscp2tc: Vec<String> = q
        .dscp2prio
        .iter()
        .map(|&p| plan[usize::from(p)].to_string())
        .collect();
    let join = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let hccl = q.roce.as_ref().map(|c| HcclView {
        class: c.class.clone(),
        dscp: c.dscp,
        priority: c.priority,
        tc: u16::from(c.dscp) * 4,
        sl: c.priority,
        default: c.dscp == HCCL_DEFAULT_DSCP && c.priority == HCCL_DEFAULT_SL,
    });
    Ok(HccnView {
        mtu: q.mtu,
        dscp2tc: dscp2tc.join(","),
        prio_tc: join(&plan),
        pfc: join(&q.pfc),
        tc_tsa: tc_list(&d.tc_tsa),
        tc_bw: tc_list(&d.tc_bw),
        tc_plan: d.tc_plan,
        cnp_dscp: q.cnp_dscp,
        pfc_priorities: d.pfc_priorities,
        dcqcn_priorities: d.dcqcn_priorities,
        dcqcn: d.dcqcn,
        hccl,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qos() -> HostQos {
        HostQos::sample([40, 0, 0, 60, 0, 0, 0, 0])
    }

    #[test]
    fn the_used_priorities_get_tcs_0_to_2_and_tc3_is_strict() {
        let v = view("h", &qos()).unwrap();
        assert_eq!(v.prio_tc, "0,0,0,1,0,0,2,0");
        assert_eq!(v.tc_tsa, "0:ets,1:ets,2:strict,3:strict");
        assert_eq!(v.tc_bw, "0:40,1:60,2:0,3:0");
        assert_eq!(v.pfc, "0,0,0,1,0,0,0,0");
        let tcs: Vec<&str> = v.dscp2tc.split(',').collect();
        assert_eq!((tcs.len(), tcs[26], tcs[48], tcs[0]), (64, "1", "2", "0"));
        let h = v.hccl.unwrap();
        assert_eq!((h.tc, h.sl, h.default), (104, 3, false));
    }

    #[test]
    fn five_priorities_do_not_fit_four_tcs() {
        let mut q = qos();
        q.dscp2prio[10] = 1;
        q.dscp2prio[20] = 2;
        q.tcbw = [20, 10, 10, 60, 0, 0, 0, 0];
        let e = view("h", &q).unwrap_err().to_string();
        assert!(e.contains("4 traffic classes"), "{e}");
    }

    #[test]
    fn an_ets_tc_without_a_share_is_refused() {
        let mut q = qos();
        q.dscp2prio[10] = 1;
        let e = view("h", &q).unwrap_err().to_string();
        assert!(e.contains("share of 0"), "{e}");
    }
}
