//! The DCBNL host scripts' view (`bnxt_qos.sh`, `ice_qos.sh`, `dcb_qos.sh`, `hns_qos.sh`; and
//! the TC plan of `hccn.sh`, see `host_hccn`): the fabric's host
//! QoS in the argument forms of iproute2's `dcb`, with each driver's traffic-class plan.
//!
//! In: a host's `HostQos` and its driver. Out: `DcbView`, every map already in the
//! `KEY:VALUE` form that `dcb … set` takes and `dcb … show` prints (iproute2/iproute2@ee2a4a86:
//! man/man8/dcb-app.8, dcb-pfc.8, dcb-ets.8), so the script compares what it reads with what
//! it would write, string for string.
//!
//! Traffic-class plans, with their sources:
//! * `dcb`: priority = TC, as the mlx5 script does; a generic DCBNL driver states no rule.
//! * `ice`: the used priorities get TCs 0, 1, 2 … in priority order, because E810 needs its
//!   TCs to start at 0 and be contiguous (Intel, Ethernet 800 Series Linux Flow Control
//!   Configuration Guide for RDMA Use Cases, 635330, "Separating and Prioritizing Traffic
//!   Streams"); unused priorities share TC 0.
//! * `bnxt`: the RoCE class's priority is TC 1 and the CNP class's TC 2, every other used
//!   priority the next free TC from 0, 3, 4 …: bnxt_re requires "TC1: RoCE Traffic, TC2: CNP
//!   Traffic" (Broadcom bnxt_re README, "Guidelines for changing DCB settings",
//!   Hinokami-Kagura/bnxt_re-ofed@bdda40d24ae2:README.TXT).
//! * `hns`: as `ice`, the used priorities on TCs 0, 1, 2 … in priority order, and every TC
//!   above them strict with no share: hns3 counts its TCs as the highest TC `prio-tc` names
//!   plus one, refuses more than the firmware's `tc_max`, refuses an ETS share on a TC above
//!   them ("tc%u is disabled, cannot set ets bw") and an ETS TC with a share of 0 ("tc%u ets
//!   bw cannot be 0": the hardware would run it strict) (Linux
//!   drivers/net/ethernet/hisilicon/hns3/hns3pf/hclge_dcb.c, `hclge_ets_validate`,
//!   `hclge_ets_sch_mode_validate`, `hclge_dcb_common_validate`). A used TC that would be ETS
//!   with a share of 0 is refused here (FAB901).
//! * Drivers that take PFC on one priority only (bnxt, ice: `analysis::nic_drivers`) refuse a
//!   host with two lossless priorities: that is FAB901, found by `check`.

use serde::Serialize;

use super::context::{HostQos, NicDriver, Tsa};
use super::{RenderError, invalid};
use crate::analysis::nic_drivers;

#[derive(Debug, Serialize)]
pub struct DcbView {
    pub mtu: u32,
    /// DSCP → priority, 64 comma-separated priorities (index = DSCP), as the script reads back.
    pub dscp2prio: String,
    /// `dcb app replace … dscp-prio` mappings, `D:P`, eight to a line.
    pub dscp_prio_lines: Vec<String>,
    /// `prio-pfc` mappings, `0:off 1:off … 3:on …`.
    pub pfc: String,
    /// `prio-tc`, `tc-tsa` and `tc-bw` mappings.
    pub prio_tc: String,
    pub tc_tsa: String,
    pub tc_bw: String,
    /// What the TC plan is, for a comment: `priority 3 -> TC 1, …`.
    pub tc_plan: String,
    /// RDMA-CM default ToS; 0 without a RoCE class.
    pub tos: u8,
    pub roce_dscp: u8,
    pub roce_priority: u8,
    pub cnp_dscp: u8,
    pub cnp_priority: u8,
    /// bnxt_re configfs parses every value as hex (`sscanf("%x")`), so 48 is written `0x30`.
    pub roce_dscp_hex: String,
    pub roce_priority_hex: String,
    pub cnp_dscp_hex: String,
    pub cnp_priority_hex: String,
    /// Priorities with PFC (`3`, or `none`) and with DCQCN classes, for comments.
    pub pfc_priorities: String,
    pub dcqcn_priorities: String,
    /// Some class runs DCQCN: the script enables the NIC's congestion control where it can.
    pub dcqcn: bool,
}

fn join<T: ToString>(items: impl IntoIterator<Item = T>, sep: &str) -> String {
    items
        .into_iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

fn list_or_none(items: &[u8]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        join(items, ",")
    }
}

/// Priority → TC for the driver; `used` are the priorities some class or map uses.
fn tc_plan(driver: NicDriver, q: &HostQos, used: &[u8]) -> [u8; 8] {
    let mut plan = [0u8; 8];
    match driver {
        // hccn has its own view (`host_hccn`); its plan is the same contiguous one.
        NicDriver::Mlx5 | NicDriver::Dcb => plan = q.prio_tc,
        NicDriver::Ice | NicDriver::Hns | NicDriver::Hccn => {
            for (tc, &p) in used.iter().enumerate() {
                plan[usize::from(p)] = u8::try_from(tc).unwrap_or(7).min(7);
            }
        }
        NicDriver::Bnxt => {
            let roce = q.roce.as_ref().map(|c| c.priority);
            let mut taken = vec![];
            if let Some(r) = roce {
                plan[usize::from(r)] = 1;
                taken.push(1u8);
            }
            if roce != Some(q.cnp_priority) {
                plan[usize::from(q.cnp_priority)] = 2;
                taken.push(2);
            }
            let mut free = [0u8, 3, 4, 5, 6, 7]
                .into_iter()
                .filter(|t| !taken.contains(t));
            for &p in used {
                if Some(p) == roce || p == q.cnp_priority {
                    continue;
                }
                plan[usize::from(p)] = free.next().unwrap_or(0);
            }
        }
    }
    plan
}

pub fn view(dev: &str, driver: NicDriver, q: &HostQos) -> Result<DcbView, RenderError> {
    let bad = |m: String| invalid(dev, m);
    if q.dscp2prio.len() != 64 || q.dscp2prio.iter().any(|&p| p > 7) {
        return Err(bad(
            "the DSCP → priority map needs 64 priorities of 0..7".into()
        ));
    }
    if q.cnp_dscp > 63 || q.cnp_priority > 7 || q.pfc.iter().any(|&v| v > 1) {
        return Err(bad(
            "CNP DSCP ≤ 63, priority ≤ 7 and PFC 0/1 required".into()
        ));
    }
    if !(68..=9978).contains(&q.mtu) {
        return Err(bad(format!("MTU {} outside 68..9978", q.mtu)));
    }
    let pfc_on: Vec<u8> = (0..8u8).filter(|&p| q.pfc[usize::from(p)] == 1).collect();
    let facts = nic_drivers::facts(driver);
    if let Some(max) = facts.max_lossless
        && pfc_on.len() > max
    {
        return Err(bad(format!(
            "the `{}` NIC takes PFC on {max} priority, the fabric asks for {} ({}) ({})",
            driver.as_str(),
            pfc_on.len(),
            join(&pfc_on, ","),
            facts.lossless_source
        )));
    }
    let mut used: Vec<u8> = q.dscp2prio.clone();
    used.push(q.cnp_priority);
    used.extend(&pfc_on);
    used.extend((0..8u8).filter(|&p| {
        let i = usize::from(p);
        q.tsa[i] == Tsa::Strict || q.tcbw[i] > 0
    }));
    used.sort_unstable();
    used.dedup();
    let plan = tc_plan(driver, q, &used);
    let used_tcs = usize::from(plan.iter().copied().max().unwrap_or(0)) + 1;
    // The NPU has 4 TCs (`hccn_tool -prio_tc`/`-dscp_to_tc`: "TC range [0 ~ 3]").
    if driver == NicDriver::Hccn && used_tcs > 4 {
        return Err(bad(format!(
            "the host uses {used_tcs} priorities ({}), but an Ascend NPU port has 4 traffic classes (hccn_tool -prio_tc: TC range [0 ~ 3]): map the fabric's DSCPs to at most 4 priorities",
            join(&used, ",")
        )));
    }
    // TSA and bandwidth per TC, from the priorities each TC carries (identity on mlx5's plan).
    let mut tsa = [Tsa::Ets; 8];
    let mut bw = [0u32; 8];
    for &p in &used {
        let (pi, tc) = (usize::from(p), usize::from(plan[usize::from(p)]));
        if q.tsa[pi] == Tsa::Strict {
            tsa[tc] = Tsa::Strict;
        }
        bw[tc] += u32::from(q.tcbw[pi]);
    }
    for tc in 0..8 {
        if tsa[tc] == Tsa::Strict {
            bw[tc] = 0;
        }
        if matches!(driver, NicDriver::Hns | NicDriver::Hccn) {
            if tc >= used_tcs {
                tsa[tc] = Tsa::Strict;
            } else if tsa[tc] == Tsa::Ets && bw[tc] == 0 {
                return Err(bad(format!(
                    "TC {tc} ({}) would be ETS with a share of 0 %, which {} refuses: give its class a bandwidth or make it strict",
                    join(
                        used.iter()
                            .filter(|&&p| usize::from(plan[usize::from(p)]) == tc)
                            .map(|p| format!("priority {p}")),
                        ", "
                    ),
                    if driver == NicDriver::Hns {
                        "hns3 (\"ets bw cannot be 0\", hclge_dcb.c)"
                    } else {
                        "hccn_tool -tc_qos (an ETS TC needs a tcbw above 0)"
                    }
                )));
            }
        }
    }
    let any_ets = (0..8).any(|tc| tsa[tc] == Tsa::Ets && bw[tc] > 0);
    let sum: u32 = bw.iter().sum();
    if any_ets && sum != 100 {
        return Err(bad(format!(
            "ETS bandwidths sum to {sum}, `dcb ets` needs 100"
        )));
    }
    let dscp_prio_lines = q
        .dscp2prio
        .chunks(8)
        .enumerate()
        .map(|(row, chunk)| {
            join(
                chunk
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("{}:{p}", row * 8 + i)),
                " ",
            )
        })
        .collect();
    let on_off = |v: u8| if v == 1 { "on" } else { "off" };
    let roce = q.roce.as_ref();
    let roce_dscp = roce.map_or(0, |c| c.dscp);
    let roce_priority = roce.map_or(0, |c| c.priority);
    let tc_plan = join(
        used.iter()
            .map(|&p| format!("priority {p} -> TC {}", plan[usize::from(p)])),
        ", ",
    );
    Ok(DcbView {
        mtu: q.mtu,
        dscp2prio: join(&q.dscp2prio, ","),
        dscp_prio_lines,
        pfc: join((0..8).map(|p| format!("{p}:{}", on_off(q.pfc[p]))), " "),
        prio_tc: join((0..8).map(|p| format!("{p}:{}", plan[p])), " "),
        tc_tsa: join((0..8).map(|t| format!("{t}:{}", tsa[t].as_str())), " "),
        tc_bw: join((0..8).map(|t| format!("{t}:{}", bw[t])), " "),
        tc_plan,
        tos: roce.map_or(0, |c| c.tos),
        roce_dscp,
        roce_priority,
        cnp_dscp: q.cnp_dscp,
        cnp_priority: q.cnp_priority,
        roce_dscp_hex: format!("{roce_dscp:#x}"),
        roce_priority_hex: format!("{roce_priority:#x}"),
        cnp_dscp_hex: format!("{:#x}", q.cnp_dscp),
        cnp_priority_hex: format!("{:#x}", q.cnp_priority),
        pfc_priorities: list_or_none(&pfc_on),
        dcqcn_priorities: list_or_none(&q.dcqcn_priorities),
        dcqcn: !q.dcqcn_priorities.is_empty(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qos() -> HostQos {
        HostQos::sample([50, 0, 0, 50, 0, 0, 0, 0])
    }

    #[test]
    fn bnxt_puts_roce_on_tc1_and_cnp_on_tc2() {
        let v = view("h", NicDriver::Bnxt, &qos()).unwrap();
        assert_eq!(v.prio_tc, "0:0 1:0 2:0 3:1 4:0 5:0 6:2 7:0");
        assert_eq!(
            v.tc_tsa,
            "0:ets 1:ets 2:strict 3:ets 4:ets 5:ets 6:ets 7:ets"
        );
        assert_eq!(v.tc_bw, "0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0");
        assert_eq!(v.cnp_dscp_hex, "0x30");
        assert_eq!(v.roce_dscp_hex, "0x1a");
    }

    #[test]
    fn ice_tcs_are_contiguous_from_zero() {
        let v = view("h", NicDriver::Ice, &qos()).unwrap();
        assert_eq!(v.prio_tc, "0:0 1:0 2:0 3:1 4:0 5:0 6:2 7:0");
        assert_eq!(v.tc_bw, "0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0");
    }

    #[test]
    fn dcb_keeps_priority_as_tc() {
        let v = view("h", NicDriver::Dcb, &qos()).unwrap();
        assert_eq!(v.prio_tc, "0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7");
        assert_eq!(
            v.tc_tsa,
            "0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets"
        );
        assert_eq!(v.pfc, "0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off");
        assert_eq!(v.dscp_prio_lines.len(), 8);
        assert!(v.dscp_prio_lines[3].starts_with("24:0 25:0 26:3 "));
    }

    #[test]
    fn one_lossless_priority_on_bnxt_and_ice() {
        let mut q = qos();
        q.pfc[4] = 1;
        for d in [NicDriver::Bnxt, NicDriver::Ice] {
            let e = view("h", d, &q).unwrap_err().to_string();
            assert!(e.contains("takes PFC on 1 priority"), "{e}");
        }
        assert!(view("h", NicDriver::Dcb, &q).is_ok());
    }
}
