//! A host as deployed, from the `state.json` its NIC script's `--collect` printed
//! (`fabricc-host-state/1`, docs/host-state.md), read with the JSON reader of `verify`.

use super::deployed::Ev;
// The parsed host lives in `deployed.rs` (the writer reads it too); its public path stays.
pub use super::deployed::{Host, Nic};
use crate::verify::canon::Loc;
use crate::verify::json::{Node, Value};

fn ev(file: usize, n: &Node) -> Ev {
    Ev {
        file,
        at: Loc::new(n.start, n.end),
    }
}

fn int(n: &Node) -> Option<u64> {
    match &n.value {
        Value::Number(s) => s.parse().ok(),
        _ => None,
    }
}

/// Reads a `state.json`; `Err` says why it is not one.
pub fn read(root: &Node, file: usize) -> Result<Host, String> {
    match root.get("schema").and_then(Node::as_str) {
        Some(crate::verify::host::SCHEMA) => {}
        Some(other) => {
            return Err(format!(
                "schema `{other}` is not `{}`",
                crate::verify::host::SCHEMA
            ));
        }
        None => {
            return Err(format!(
                "it has no `schema` (`{}` expected)",
                crate::verify::host::SCHEMA
            ));
        }
    }
    let mut host = Host {
        driver: root
            .get("driver")
            .and_then(Node::as_str)
            .map(str::to_string),
        nics: Vec::new(),
    };
    for n in root.get("nics").map(Node::items).unwrap_or_default() {
        let Some(number) = n
            .get("nic")
            .and_then(Node::as_str)
            .and_then(|s| s.strip_prefix("nic"))
            .and_then(|s| s.parse::<u32>().ok())
            .filter(|&k| (1..=1024).contains(&k))
        else {
            continue;
        };
        let st = n.get("state").filter(|s| !s.is_null());
        let get = |k: &str| st.and_then(|s| s.get(k));
        let pfc = get("pfc").and_then(|p| {
            let items = p.items();
            (items.len() == 8).then(|| {
                (
                    (0u8..8)
                        .filter(|&i| items.get(usize::from(i)).and_then(int) == Some(1))
                        .collect(),
                    ev(file, p),
                )
            })
        });
        host.nics.push(Nic {
            number,
            netdev: n.get("netdev").and_then(Node::as_str).map(str::to_string),
            pci: n.get("pci").and_then(Node::as_str).map(str::to_string),
            mtu: get("mtu").and_then(|m| int(m).map(|v| (v, ev(file, m)))),
            pfc,
            tos: get("roce_tos").and_then(|m| int(m).map(|v| (v, ev(file, m)))),
            cnp_dscp: get("cnp_dscp").and_then(|m| int(m).map(|v| (v, ev(file, m)))),
        });
    }
    host.nics.sort_by_key(|n| n.number);
    host.nics.dedup_by_key(|n| n.number);
    Ok(host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::json;

    /// An Ascend NPU host's `--collect` (`hccn.sh`, docs/host-state.md): the driver, each
    /// NPU port's MTU, PFC priorities and CNP DSCP are read as for any host; an NPU has no
    /// RDMA-CM ToS (HCCL's marking is the job's, hccl.env), so `tos` stays unknown.
    #[test]
    fn an_hccn_state_is_read() {
        let doc = json::parse(
            r#"{"schema":"fabricc-host-state/1","host":"a1","driver":"hccn","nics":[
              {"nic":"nic2","device":1,"netdev":null,"rdma_device":null,"pci":null,"port":1,"branch":"hccn_tool",
               "state":{"mtu":4200,"dscp2tc":[0],"prio_tc":[0,0,0,1,0,0,2,0],"pfc":[0,0,0,1,0,0,0,0],
                 "tsa":["ets","ets","strict","strict"],"tcbw":[40,60,0,0],"cnp_dscp":48,"qps":null,
                 "driver_state":{"dcqcn":"enable"}}},
              {"nic":"nic1","device":0,"state":null}],"problems":0,"pending":null}"#,
        )
        .unwrap();
        let h = read(&doc, 0).unwrap();
        assert_eq!(h.driver.as_deref(), Some("hccn"));
        assert_eq!(h.nics.len(), 2);
        let n = &h.nics[1];
        assert_eq!(n.number, 2);
        assert_eq!(n.mtu.as_ref().map(|m| m.0), Some(4200));
        assert_eq!(n.pfc.as_ref().map(|p| p.0.clone()), Some(vec![3]));
        assert_eq!(n.cnp_dscp.as_ref().map(|c| c.0), Some(48));
        assert!(n.tos.is_none() && n.netdev.is_none());
        assert!(h.nics[0].mtu.is_none(), "an NPU that was not read");
    }
}
