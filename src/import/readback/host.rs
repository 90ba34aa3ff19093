//! Read back of the host files (issue 34 item 2): each host's settings file
//! (`fabricc-roce.conf`) is read with `verify`'s host reader (`verify::host::intent`, the
//! one `verify` and the NIC program's `--check` compare a host's `state.json` against), its
//! NCCL / HCCL environment file (`nccl.env`, `hccl.env`) as the `KEY=value` lines a shell
//! `set -a; . ./nccl.env` takes, and the values are compared with the host's proven QoS
//! (`lower`'s `HostQos`):
//! * `mtu`, `trust` (`dscp`, mlx5's settings), `tos` (RDMA-CM's ToS byte of the RoCE class),
//!   `cnp` (the CNP DSCP and priority);
//! * `pfc`: the priorities with PFC on;
//! * `dscp`: each DSCP's priority (`E_DSCP2PRIO`), or on an Ascend NPU its traffic class
//!   (`E_DSCP2TC`), which must be the written TC of the proven priority;
//! * `ets`: per priority the TSA of the TC the file puts it in, and per ETS TC the share of
//!   the proven classes it carries (the DCBNL and NPU programs pack priorities into fewer TCs);
//! * `env`: `NCCL_IB_TC` / `NCCL_IB_FIFO_TC` (the RoCE class's ToS), `NCCL_IB_QPS_PER_CONNECTION`,
//!   `NCCL_IB_SPLIT_DATA_ON_QPS`, `HCCL_RDMA_TC` (DSCP × 4) and `HCCL_RDMA_SL` (its priority).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::consistency::{NicMaps, items};
use super::found::{Difference, Found, Kind, NAMED_PORTS};
use crate::lower::context::{HostContext, NicDriver, Tsa};
use crate::render::Artifact;

/// The `KEY=value` lines of an environment file.
fn env(text: &str) -> BTreeMap<&str, &str> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect()
}

/// A hash of what a host's read-back depends on: its files without comments and the lines
/// that carry names (`HOST=`, `FABRIC=`, the NICs' identities, `NCCL_IB_HCA`), and its proven
/// QoS. Hosts of one kind read back alike.
pub(super) fn memo_key(ctx: &HostContext, files: &[&Artifact]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    "host".hash(&mut h);
    for a in files {
        file_name(&a.path).hash(&mut h);
        for line in a.contents.lines() {
            let named = line.starts_with('#')
                || ["HOST=", "FABRIC=", "NIC=", "NCCL_IB_HCA="]
                    .iter()
                    .any(|p| line.starts_with(p));
            if !named {
                line.hash(&mut h);
            }
        }
    }
    let q = &ctx.qos;
    (
        q.mtu,
        q.pfc,
        q.prio_tc,
        q.tsa.map(Tsa::as_str),
        q.tcbw,
        &q.dscp2prio,
        q.roce
            .as_ref()
            .map(|r| (&r.class, r.dscp, r.priority, r.tos)),
        (
            q.cnp_dscp,
            q.cnp_priority,
            q.ecn_enable,
            &q.dcqcn_priorities,
        ),
    )
        .hash(&mut h);
    (
        ctx.qps_per_connection,
        ctx.split_data_on_qps,
        ctx.driver.as_str(),
    )
        .hash(&mut h);
    h.finish()
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The files of a host that read back: its settings and its environment file.
pub(super) fn read_files<'f>(files: &[&'f Artifact]) -> Vec<&'f Artifact> {
    files
        .iter()
        .copied()
        .filter(|a| {
            matches!(
                file_name(&a.path),
                "fabricc-roce.conf" | "nccl.env" | "hccl.env"
            )
        })
        .collect()
}

/// One host's files read back and compared with its proven QoS, and what its settings write
/// for its NICs (for the consistency with the switches).
pub(super) fn host(
    ctx: &HostContext,
    files: &[&Artifact],
) -> (Vec<Difference>, Option<Arc<NicMaps>>) {
    let mut nics = None;
    let mut found: Found = BTreeMap::new();
    let mut note = |property: &'static str, what: String, proven: String, written: String| {
        found
            .entry((property, what, proven, written, Kind::Mistake))
            .or_default();
    };
    let settings = files
        .iter()
        .find(|a| file_name(&a.path) == "fabricc-roce.conf");
    if let Some(a) = settings {
        match crate::verify::host::intent(&a.contents) {
            None => note(
                "parse",
                file_name(&a.path).into(),
                "the host's settings".into(),
                "no `E_…` settings".into(),
            ),
            Some(i) => {
                settings_file(ctx, &i.values, &mut note);
                nics = Some(super::consistency::nic_maps(&i.values));
            }
        }
    }
    for a in files {
        let name = file_name(&a.path);
        if name == "nccl.env" || name == "hccl.env" {
            env_file(ctx, name, &env(&a.contents), &mut note);
        }
    }
    let count = ctx.nics.len();
    let diffs = found
        .into_iter()
        .map(|((property, what, proven, written, kind), _)| Difference {
            device: ctx.host.clone(),
            property,
            what,
            proven,
            written,
            kind,
            count,
            ports: ctx
                .nics
                .iter()
                .take(NAMED_PORTS)
                .map(|n| n.name.clone())
                .collect(),
        })
        .collect();
    (diffs, nics)
}

type Note<'n> = dyn FnMut(&'static str, String, String, String) + 'n;

fn settings_file(ctx: &HostContext, v: &BTreeMap<String, String>, note: &mut Note<'_>) {
    let q = &ctx.qos;
    let hccn = ctx.driver == NicDriver::Hccn;
    let get = |k: &str| v.get(k).map(String::as_str);
    let mut scalar = |property: &'static str, what: &str, key: &str, proven: String| {
        if let Some(w) = get(key)
            && w != proven
        {
            note(property, what.into(), proven, w.to_string());
        }
    };
    scalar("mtu", "", "MTU", q.mtu.to_string());
    scalar("trust", "", "TRUST", "dscp".into());
    if let Some(r) = &q.roce {
        scalar(
            "tos",
            &format!("class `{}`", r.class),
            "TOS",
            r.tos.to_string(),
        );
    }
    scalar("cnp", "DSCP", "CNP_DSCP", q.cnp_dscp.to_string());
    scalar("cnp", "priority", "CNP_PRIO", q.cnp_priority.to_string());
    let proven_pfc: BTreeSet<usize> = (0..8).filter(|&p| q.pfc[p] == 1).collect();
    if let Some(w) = get("PFC") {
        let written: BTreeSet<usize> = items(w, 8)
            .iter()
            .enumerate()
            .filter(|(_, x)| x.as_str() == "1")
            .map(|(p, _)| p)
            .collect();
        if written != proven_pfc {
            note("pfc", String::new(), set(&proven_pfc), set(&written));
        }
    }
    // The written TC of each priority (identity where the file has no plan).
    let tcs = if hccn { 4 } else { 8 };
    let tc_of: Vec<Option<usize>> = match get("PRIO_TC") {
        Some(w) => items(w, 8).iter().map(|t| t.parse().ok()).collect(),
        None => (0..8).map(Some).collect(),
    };
    if let Some(w) = get("DSCP2PRIO") {
        for (d, got) in items(w, 64).iter().enumerate() {
            let want = q.dscp2prio.get(d).copied().unwrap_or(0);
            if got != &want.to_string() {
                note(
                    "dscp",
                    format!("DSCP {d}"),
                    format!("priority {want}"),
                    format!("priority {got}"),
                );
            }
        }
    }
    if let Some(w) = get("DSCP2TC") {
        for (d, got) in items(w, 64).iter().enumerate() {
            let want = q.dscp2prio.get(d).copied().unwrap_or(0);
            let tc = tc_of.get(usize::from(want)).copied().flatten();
            if tc.map(|t| t.to_string()).as_deref() != Some(got.as_str()) {
                note(
                    "dscp",
                    format!("DSCP {d}"),
                    format!(
                        "priority {want} (TC {})",
                        tc.map_or("none".into(), |t| t.to_string())
                    ),
                    format!("TC {got}"),
                );
            }
        }
    }
    // ETS: the priorities a class, map or PFC uses (the renderers' set), each in its TC.
    let tsa_w = get("TSA").or(get("TC_TSA")).map(|w| items(w, tcs));
    let bw_w = get("TCBW").or(get("TC_BW")).map(|w| items(w, tcs));
    let mut used: BTreeSet<usize> = q.dscp2prio.iter().map(|&p| usize::from(p)).collect();
    used.insert(usize::from(q.cnp_priority));
    used.extend(proven_pfc.iter().copied());
    used.extend((0..8).filter(|&p| q.tsa[p] == Tsa::Strict || q.tcbw[p] > 0));
    let mut share: BTreeMap<usize, (BTreeSet<usize>, bool)> = BTreeMap::new();
    for &p in used.iter().filter(|&&p| p < 8) {
        let Some(t) = tc_of.get(p).copied().flatten() else {
            note("ets", format!("priority {p}"), "a TC".into(), "none".into());
            continue;
        };
        let proven_tc = usize::from(q.prio_tc[p]).min(7);
        let strict = q.tsa[proven_tc] == Tsa::Strict;
        let e = share.entry(t).or_default();
        e.0.insert(proven_tc);
        e.1 |= strict;
        if let Some(tsa) = &tsa_w {
            let got = tsa.get(t).cloned().unwrap_or_default();
            let want = if strict { "strict" } else { "ets" };
            if got != want {
                note(
                    "ets",
                    format!("priority {p} TSA"),
                    want.into(),
                    format!("{got} (TC {t})"),
                );
            }
        }
    }
    if let Some(bw) = &bw_w {
        for (t, (proven_tcs, strict)) in share {
            if strict {
                continue;
            }
            let want: u32 = proven_tcs.iter().map(|&x| u32::from(q.tcbw[x])).sum();
            let got = bw.get(t).cloned().unwrap_or_default();
            if got != want.to_string() {
                note(
                    "ets",
                    format!("TC {t} share"),
                    format!("{want}%"),
                    format!("{got}%"),
                );
            }
        }
    }
}

fn env_file(ctx: &HostContext, name: &str, e: &BTreeMap<&str, &str>, note: &mut Note<'_>) {
    let q = &ctx.qos;
    let mut want: Vec<(&str, Option<String>)> = Vec::new();
    if name == "nccl.env" {
        let tos = q.roce.as_ref().map(|r| r.tos.to_string());
        want.push(("NCCL_IB_TC", tos.clone()));
        want.push(("NCCL_IB_FIFO_TC", tos));
        want.push((
            "NCCL_IB_QPS_PER_CONNECTION",
            ctx.qps_per_connection.map(|n| n.to_string()),
        ));
        want.push((
            "NCCL_IB_SPLIT_DATA_ON_QPS",
            ctx.split_data_on_qps.map(|b| u8::from(b).to_string()),
        ));
    } else {
        want.push((
            "HCCL_RDMA_TC",
            q.roce.as_ref().map(|r| (u16::from(r.dscp) * 4).to_string()),
        ));
        want.push((
            "HCCL_RDMA_SL",
            q.roce.as_ref().map(|r| r.priority.to_string()),
        ));
    }
    for (k, w) in want {
        let got = e.get(k).map(|s| s.to_string());
        if got != w {
            let t = |v: Option<String>| v.unwrap_or_else(|| "not set".into());
            note("env", k.into(), t(w), t(got));
        }
    }
}

fn set(s: &BTreeSet<usize>) -> String {
    if s.is_empty() {
        return "none".into();
    }
    s.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}
