//! The state a fabric's devices would report if they ran exactly what fabricc generates and
//! nothing else, for tests and benchmarks (a real state holds much more; the tests merge
//! these into full device configurations).
//!
//! Test support, not the product: the integration tests, `benches/verify.rs` and
//! `examples/synth_state.rs` include this file by path.
//!
//! In: the generated files of a build and the fabric. Out: `(relative path, text)` pairs of a
//! state directory: each switch's configuration under its state file name, each host's
//! `state.json` with every NIC at its intent (MLNX_OFED branch), and an `lldp.json` per device
//! in `lldpctl -f json` form that reports the cabling plan.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use fabricc::model::Fabric;
use fabricc::output::cabling;
use fabricc::render::{Artifact, ArtifactKind, SwitchOs};
use fabricc::verify::{host, state};

/// The netdev a synthesized host gives NIC `n`.
pub fn netdev(n: u32) -> String {
    format!("ens{n}f0np0")
}

fn os_of(target: &str) -> Option<SwitchOs> {
    [
        SwitchOs::Sonic,
        SwitchOs::Cumulus,
        SwitchOs::Eos,
        SwitchOs::Nxos,
        SwitchOs::Junos,
        SwitchOs::Vrp,
        SwitchOs::Comware,
    ]
    .into_iter()
    .find(|o| o.as_str() == target)
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A `state.json` in which every NIC has the script's intent.
pub fn host_state(name: &str, intent: &host::Intent) -> String {
    if intent.dcbnl() {
        return dcbnl_host_state(name, intent);
    }
    let v = |k: &str| intent.values.get(k).cloned().unwrap_or_default();
    let list = |k: &str, quote: bool| {
        let items: Vec<String> = v(k)
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|x| if quote { json_str(x) } else { x.to_string() })
            .collect();
        format!("[{}]", items.join(","))
    };
    let mut nics = Vec::new();
    for &n in &intent.nics {
        nics.push(format!(
            concat!(
                "{{\"nic\":\"nic{n}\",\"peer\":null,",
                "\"declared\":{{\"netdev\":null,\"rdma_device\":null,\"pci\":null,\"guessed\":true}},",
                "\"netdev\":\"{netdev}\",\"rdma_device\":\"mlx5_{rdma}\",\"pci\":\"0000:{bus:02x}:00.0\",\"port\":1,\"branch\":\"ofed\",",
                "\"state\":{{\"mtu\":{mtu},\"trust\":{trust},\"dscp2prio\":{dscp2prio},\"pfc\":{pfc},",
                "\"prio_tc\":{prio_tc},\"tsa\":{tsa},\"tcbw\":{tcbw},",
                "\"buffer_size\":[130944,130944,0,0,0,0,0,0],\"max_buffer_size\":262016,",
                "\"prio2buffer\":[0,0,0,0,0,0,0,0],\"cable_len\":7,",
                "\"roce_mode\":{roce_mode},\"roce_tos\":{tos},\"traffic_class\":{tos},",
                "\"ecn_np\":{ecn},\"ecn_rp\":{ecn},\"cnp_dscp\":{cnp_dscp},\"cnp_prio\":{cnp_prio},",
                "\"cnp_source\":\"sysfs\",\"qps\":0,",
                "\"nv\":{{\"ROCE_CC_PRIO_MASK\":null,\"CNP_DSCP\":null,\"CNP_802P_PRIO\":null}}}}}}"
            ),
            n = n,
            netdev = netdev(n),
            rdma = n.saturating_sub(1),
            bus = n.wrapping_mul(16) % 256,
            mtu = v("MTU"),
            trust = json_str(&v("TRUST")),
            dscp2prio = list("DSCP2PRIO", false),
            pfc = list("PFC", false),
            prio_tc = list("PRIO_TC", false),
            tsa = list("TSA", true),
            tcbw = list("TCBW", false),
            roce_mode = v("ROCE_MODE"),
            tos = v("TOS"),
            ecn = list("ECN", false),
            cnp_dscp = v("CNP_DSCP"),
            cnp_prio = v("CNP_PRIO"),
        ));
    }
    format!(
        "{{\"schema\":\"{}\",\"host\":{},\"driver\":\"mlx5\",\"nics\":[{}],\"problems\":0}}\n",
        host::SCHEMA,
        json_str(name),
        nics.join(",")
    )
}

/// `lldpctl -f json` of a device whose every planned link is cabled as planned. `names`
/// gives the name a device's port has in LLDP (its own, a SONiC alias, a host netdev).
pub fn lldp_json(
    device: &str,
    links: &[(String, String, String)],
    local_name: &dyn Fn(&str, &str) -> String,
    port_name: &dyn Fn(&str, &str) -> String,
) -> String {
    let mut items = Vec::new();
    for (port, peer, peer_port) in links {
        let mut s = String::new();
        let _ = write!(
            s,
            "{{{}:{{\"via\":\"LLDP\",\"rid\":\"1\",\"chassis\":{{{}:{{\"id\":{{\"type\":\"mac\",\"value\":\"00:00:00:00:00:01\"}}}}}},\"port\":{{\"id\":{{\"type\":\"ifname\",\"value\":{}}},\"descr\":{}}}}}}}",
            json_str(&local_name(device, port)),
            json_str(peer),
            json_str(&port_name(peer, peer_port)),
            json_str(&port_name(peer, peer_port)),
        );
        items.push(s);
    }
    format!("{{\"lldp\":{{\"interface\":[{}]}}}}\n", items.join(","))
}

/// Every file of the in-sync state directory of a build.
pub fn state(fabric: &Fabric, artifacts: &[Artifact]) -> Vec<(String, String)> {
    let mut by_device: BTreeMap<&str, Vec<&Artifact>> = BTreeMap::new();
    for a in artifacts {
        if matches!(a.kind, ArtifactKind::Switch | ArtifactKind::Host) {
            by_device.entry(a.device.as_str()).or_default().push(a);
        }
    }
    let mut out = Vec::new();
    let mut hosts = BTreeMap::new();
    for (device, files) in &by_device {
        let first = files[0];
        if first.kind == ArtifactKind::Host {
            if let Some(i) = files.iter().find_map(|a| host::intent(&a.contents)) {
                out.push((format!("{device}/state.json"), host_state(device, &i)));
                hosts.insert(device.to_string(), ());
            }
            continue;
        }
        let Some(os) = os_of(&first.target) else {
            continue;
        };
        let owned: Vec<Artifact> = files.iter().map(|a| (*a).clone()).collect();
        let (_, used) = fabricc::verify::generated(os, &owned);
        let text: String = files
            .iter()
            .filter(|a| used.contains(&a.path))
            .map(|a| a.contents.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        // NVUE shows what a revision holds, never the `- unset:` item of the patch that made it;
        // SONiC's CONFIG_DB holds one key per port where the fragment lists ports (the apply
        // program splits them).
        let text = match os {
            SwitchOs::Cumulus => without_unset_items(&text),
            SwitchOs::Sonic => one_key_per_port(&text),
            _ => text,
        };
        let name = state::config_file(state::Target::Switch(os));
        out.push((format!("{device}/{name}"), text));
    }
    let links = cabled_ports(fabric);
    let name = |d: &str, p: &str| -> String {
        match (hosts.contains_key(d), p.strip_prefix("nic")) {
            (true, Some(n)) => n.parse().map_or(p.to_string(), netdev),
            _ => p.to_string(),
        }
    };
    for (device, l) in &links {
        if by_device.contains_key(device.as_str()) {
            out.push((
                format!("{device}/{}", state::LLDP_FILE),
                lldp_json(device, l, &name, &name),
            ));
        }
    }
    out.sort();
    out
}

/// A SONiC fragment as CONFIG_DB holds it after the apply program: keys that list ports
/// (`Ethernet0,Ethernet4|3`, in `render::sonic::PORT_LIST_TABLES`) one per port, printed as the
/// fragment is (tables and keys one per line, each entry's fields on its key's line).
fn one_key_per_port(text: &str) -> String {
    let Ok(serde_json::Value::Object(mut root)) = serde_json::from_str(text) else {
        return text.to_string();
    };
    for table in fabricc::render::sonic::PORT_LIST_TABLES {
        if let Some(serde_json::Value::Object(rows)) = root.get_mut(table) {
            let mut split = serde_json::Map::new();
            for (key, fields) in std::mem::take(rows) {
                let (ports, rest) = key
                    .split_once('|')
                    .map_or((key.as_str(), None), |(p, r)| (p, Some(r)));
                for p in ports.split(',').filter(|p| !p.is_empty()) {
                    let k = rest.map_or_else(|| p.to_string(), |r| format!("{p}|{r}"));
                    split.insert(k, fields.clone());
                }
            }
            *rows = split;
        }
    }
    let inline = |v: &serde_json::Value| -> String {
        match v {
            serde_json::Value::Object(m) => format!(
                "{{{}}}",
                m.iter()
                    .map(|(k, v)| format!("{}: {}", json_str(k), inline_value(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => inline_value(other),
        }
    };
    let mut out = String::from("{");
    for (t, (table, rows)) in root.iter().enumerate() {
        out.push_str(if t == 0 { "\n" } else { ",\n" });
        let _ = write!(out, "  {}: {{", json_str(table));
        if let serde_json::Value::Object(rows) = rows {
            for (r, (key, fields)) in rows.iter().enumerate() {
                out.push_str(if r == 0 { "\n" } else { ",\n" });
                let _ = write!(out, "    {}: {}", json_str(key), inline(fields));
            }
            if !rows.is_empty() {
                out.push_str("\n  ");
            }
        }
        out.push('}');
    }
    out.push_str("\n}\n");
    out
}

/// A JSON scalar or list on one line, lists as the fragment prints them (`["A", "B"]`).
fn inline_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(inline_value)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// An NVUE patch without its `- unset:` items (from that line to the next top-level item).
fn without_unset_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("- ") {
            skipping = line.trim_end() == "- unset:";
        }
        if !skipping {
            out.push_str(line);
        }
    }
    out
}

/// The values of a `dcb … show` map (`0:off 1:on …`) as a JSON array, PFC's on/off as 1/0.
fn dcb_array(map: &str, quote: bool) -> String {
    let items: Vec<String> = map
        .split_whitespace()
        .filter_map(|kv| kv.split_once(':'))
        .map(|(_, v)| match v {
            "on" => "1".to_string(),
            "off" => "0".to_string(),
            v if quote => json_str(v),
            v => v.to_string(),
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// A DCBNL script's `state.json` (bnxt, ice, dcb: docs/host-state.md) with every NIC at the
/// intent, on the branch where the script sets the most (Broadcom's and Intel's configfs).
fn dcbnl_host_state(name: &str, intent: &host::Intent) -> String {
    let v = |k: &str| intent.values.get(k).cloned().unwrap_or_default();
    let driver = intent.driver.clone().unwrap_or_default();
    let flag = |k: &str| if v(k) == "1" { "1" } else { "0" };
    let (branch, rdma, cnp, driver_state) = match driver.as_str() {
        "bnxt" => (
            "configfs",
            "bnxt_re",
            format!(
                "\"cnp_dscp\":{},\"cnp_prio\":{},\"cnp_source\":\"configfs\"",
                v("CNP_DSCP"),
                v("CNP_PRIO")
            ),
            format!(
                "{{\"roce_dscp\":{},\"roce_prio\":{},\"ecn_enable\":{},\"disable_prio_vlan_tx\":1,\"fw_service_prof_type_sup\":0}}",
                v("ROCE_DSCP"),
                v("ROCE_PRIO"),
                flag("DCQCN")
            ),
        ),
        "ice" => (
            "irdma-configfs",
            "irdma",
            "\"cnp_dscp\":null,\"cnp_prio\":null,\"cnp_source\":null".to_string(),
            format!(
                "{{\"fw_lldp_agent\":\"off\",\"roce_dcqcn_enable\":{}}}",
                flag("DCQCN")
            ),
        ),
        _ => (
            "dcbnl",
            "rocep",
            "\"cnp_dscp\":null,\"cnp_prio\":null,\"cnp_source\":null".to_string(),
            "{}".to_string(),
        ),
    };
    let roce_mode = match v("ROCE_MODE").as_str() {
        "RoCE v2" => "2",
        "IB/RoCE v1" => "1",
        _ => "null",
    };
    let mut nics = Vec::new();
    for &n in &intent.nics {
        nics.push(format!(
            concat!(
                "{{\"nic\":\"nic{n}\",\"peer\":null,",
                "\"declared\":{{\"netdev\":null,\"rdma_device\":null,\"pci\":null,\"guessed\":false}},",
                "\"netdev\":\"{netdev}\",\"rdma_device\":\"{rdma}{r}\",\"pci\":\"0000:{bus:02x}:00.0\",\"port\":1,\"branch\":\"{branch}\",",
                "\"state\":{{\"mtu\":{mtu},\"dscp2prio\":[{dscp2prio}],\"pfc\":{pfc},",
                "\"prio_tc\":{prio_tc},\"tsa\":{tsa},\"tcbw\":{tcbw},",
                "\"roce_mode\":{roce_mode},\"roce_tos\":{tos},{cnp},\"qps\":0,",
                "\"driver_state\":{driver_state}}}}}"
            ),
            n = n,
            netdev = netdev(n),
            rdma = rdma,
            r = n.saturating_sub(1),
            bus = n.wrapping_mul(16) % 256,
            branch = branch,
            mtu = v("MTU"),
            dscp2prio = v("DSCP2PRIO"),
            pfc = dcb_array(&v("PFC"), false),
            prio_tc = dcb_array(&v("PRIO_TC"), false),
            tsa = dcb_array(&v("TC_TSA"), true),
            tcbw = dcb_array(&v("TC_BW"), false),
            roce_mode = roce_mode,
            tos = v("TOS"),
            cnp = cnp,
            driver_state = driver_state,
        ));
    }
    format!(
        "{{\"schema\":\"{}\",\"host\":{},\"driver\":{},\"nics\":[{}],\"problems\":0}}\n",
        host::SCHEMA,
        json_str(name),
        json_str(&driver),
        nics.join(",")
    )
}

/// Every device's cabled ports from the cabling plan, both ends of each cable: device →
/// (port, peer, peer port), as the devices' LLDP tables would report them.
pub fn cabled_ports(fabric: &Fabric) -> BTreeMap<String, Vec<(String, String, String)>> {
    let mut links: BTreeMap<String, Vec<(String, String, String)>> = BTreeMap::new();
    for c in cabling::plan(fabric) {
        links.entry(c.device.clone()).or_default().push((
            c.port.clone(),
            c.peer.clone(),
            c.peer_port.clone(),
        ));
        links
            .entry(c.peer.clone())
            .or_default()
            .push((c.peer_port, c.device, c.port));
    }
    links
}
