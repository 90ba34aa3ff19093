//! Host view: a host context as the values of its `mlnx_qos.sh` script.
//!
//! In: a `HostContext`. Out: `HostView`, with every `mlnx_qos` list already joined into its
//! 8-item comma form and every name validated, so the template only prints. The rules are
//! vendors.md §1.1–1.7: every list exactly 8 items; ETS shares over `ets` TCs sum to 100;
//! strict TCs get 0; `--prio_tc/--tsa/--tcbw` in one call; `--trust` never with
//! `--dscp2prio`; `--cable_len` below 1000 (mlx5 ignores larger values); absolute values only.

use serde::Serialize;

use super::context::{HostContext, NicContext, Tsa};
use super::{RenderError, escape, invalid};

#[derive(Debug, Serialize)]
pub struct HostView {
    pub host: String,
    pub fabric: String,
    /// Sanitized one-line text for a `#` comment.
    pub description: Option<String>,
    pub nics: Vec<NicView>,
}

#[derive(Debug, Serialize)]
pub struct NicView {
    pub index: u32,
    pub netdev: Option<String>,
    pub rdma_device: String,
    pub rdma_port: u8,
    pub pci: Option<String>,
    pub mtu: u32,
    pub pfc: String,
    pub prio_tc: String,
    pub tsa: String,
    pub tcbw: String,
    pub cable_len_m: u32,
    pub prio2buffer: Option<String>,
    pub buffer_size: Option<String>,
    /// `set,<dscp>,<prio>` arguments for `--dscp2prio` (a separate call from `--trust`).
    pub dscp2prio: Vec<String>,
    pub roce_tos: u8,
    pub cnp_dscp: u8,
    pub cnp_priority: u8,
    /// `(priority, 0|1)` for priorities 0..7: absolute ECN enable values.
    pub ecn_enable: Vec<(u8, u8)>,
}

fn list<T: ToString>(items: &[T]) -> String {
    items.iter().map(T::to_string).collect::<Vec<_>>().join(",")
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
    let nics = ctx
        .nics
        .iter()
        .map(|n| nic(dev, n))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(HostView {
        host: ctx.host.clone(),
        fabric: ctx.fabric.clone(),
        description: ctx.description.as_deref().map(escape::comment_text),
        nics,
    })
}

fn nic(dev: &str, n: &NicContext) -> Result<NicView, RenderError> {
    let bad = |m: String| invalid(dev, format!("nic{}: {m}", n.index));
    if let Some(nd) = &n.netdev
        && !escape::is_netdev(nd)
    {
        return Err(bad(format!("netdev {nd:?} is not a Linux interface name")));
    }
    if !escape::is_rdma_device(&n.rdma_device) {
        return Err(bad(format!(
            "RDMA device {:?} is not a device name",
            n.rdma_device
        )));
    }
    if let Some(pci) = &n.pci
        && !escape::is_pci_address(pci)
    {
        return Err(bad(format!("PCI address {pci:?} is malformed")));
    }
    if n.pfc.iter().any(|&v| v > 1) {
        return Err(bad("PFC items must be 0 or 1".into()));
    }
    if n.prio_tc.iter().any(|&v| v > 7) {
        return Err(bad("prio_tc items must be 0..7".into()));
    }
    let mut ets_sum = 0u32;
    let mut any_ets = false;
    for (tc, (&tsa, &bw)) in n.tsa.iter().zip(n.tcbw.iter()).enumerate() {
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
    if n.cable_len_m >= 1000 {
        return Err(bad(format!(
            "cable length {} m: mlx5 ignores values ≥ 1000",
            n.cable_len_m
        )));
    }
    if !(68..=9978).contains(&n.mtu) {
        return Err(bad(format!("MTU {} outside 68..9978", n.mtu)));
    }
    if n.cnp_dscp > 63 || n.cnp_priority > 7 || n.ecn_priorities.iter().any(|&p| p > 7) {
        return Err(bad("CNP DSCP ≤ 63 and priorities ≤ 7 required".into()));
    }
    if n.prio2buffer.is_some() != n.buffer_size_bytes.is_some() {
        return Err(bad("prio2buffer and buffer sizes go together".into()));
    }
    if let Some(p2b) = n.prio2buffer
        && p2b.iter().any(|&b| b > 7)
    {
        return Err(bad("prio2buffer items must be 0..7".into()));
    }
    let mut dscp2prio = Vec::new();
    for e in &n.dscp2prio {
        if e.dscp > 63 || e.priority > 7 {
            return Err(bad("dscp2prio needs DSCP ≤ 63 and priority ≤ 7".into()));
        }
        dscp2prio.push(format!("set,{},{}", e.dscp, e.priority));
    }
    let tsa: Vec<&str> = n.tsa.iter().map(|t| t.as_str()).collect();
    Ok(NicView {
        index: n.index,
        netdev: n.netdev.clone(),
        rdma_device: n.rdma_device.clone(),
        rdma_port: n.rdma_port,
        pci: n.pci.clone(),
        mtu: n.mtu,
        pfc: list(&n.pfc),
        prio_tc: list(&n.prio_tc),
        tsa: tsa.join(","),
        tcbw: list(&n.tcbw),
        cable_len_m: n.cable_len_m,
        prio2buffer: n.prio2buffer.map(|p| list(&p)),
        buffer_size: n.buffer_size_bytes.map(|b| list(&b)),
        dscp2prio,
        roce_tos: n.roce_tos,
        cnp_dscp: n.cnp_dscp,
        cnp_priority: n.cnp_priority,
        ecn_enable: (0..8)
            .map(|p| (p, u8::from(n.ecn_priorities.contains(&p))))
            .collect(),
    })
}
