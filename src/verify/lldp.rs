//! LLDP neighbours from `lldp.json`, in the three forms devices print.
//!
//! * lldpd (`lldpctl -f json`, SONiC, Cumulus, Linux hosts): `{"lldp": {"interface": …}}`.
//!   `interface` is one object keyed by the local port, or a list of such one-key objects when
//!   there are several; a chassis is keyed by its system name; `port.id.value` and
//!   `port.descr` name the neighbour's port. `-f json0` keeps every level a list of objects
//!   with `name` and `value` members instead. Both are read (lldpd/lldpd@da2ab0b596f8:
//!   src/client/json_writer.c, `json_element_cleanup`; tests/integration/test_lldpcli.py).
//! * Arista EOS `show lldp neighbors | json`: `{"lldpNeighbors": [{"port", "neighborDevice",
//!   "neighborPort"}]}`.
//! * Cisco NX-OS `show lldp neighbors | json`: `{"TABLE_nbor": {"ROW_nbor": [ {"l_port_id",
//!   "chassis_id", "port_id"} ]}}` (one row is an object, not a list); the local port is
//!   abbreviated (`Eth1/1`), and `chassis_id` is the Device ID column, the neighbour's name
//!   when it sends one, sometimes with its serial in parentheses; newer releases add
//!   `sys_name`.
//!
//! What a neighbour calls its port depends on its OS: lldpd sends the MAC address as port ID
//! and the interface name as description unless configured otherwise (lldpd's lldpcli(8),
//! `portidsubtype`), SONiC sends the port's alias as port ID (`lldpmgrd` runs `lldpcli
//! configure ports <port> lldp portidsubtype local <alias>`,
//! sonic-net/sonic-buildimage@086b03bd70f9:dockers/docker-lldp/lldpmgrd:156), EOS and NX-OS
//! their interface name. So a neighbour keeps every name it gave (ID and description), and
//! the check accepts any of them.

use super::canon::Loc;
use super::json::{Node, Value};

/// One neighbour seen on a local port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Neighbour {
    /// The local port, as the device names it (`Eth1/1` already `Ethernet1/1`).
    pub local: String,
    pub system: Option<String>,
    /// Every name the neighbour gave its port (port ID, description), first the ID.
    pub ports: Vec<String>,
    pub at: Loc,
}

/// The text of a node through lldpd's wrappers: a string, a one-item list, `{"value": …}`.
fn text(n: &Node) -> Option<String> {
    match &n.value {
        Value::String(s) | Value::Number(s) => Some(s.to_string()),
        Value::Array(items) => items.first().and_then(text),
        Value::Object(_) => n.get("value").and_then(text),
        _ => None,
    }
}

/// The first object of a one-item list, or the object itself.
fn object<'a, 't>(n: &'a Node<'t>) -> Option<&'a Node<'t>> {
    match &n.value {
        Value::Object(_) => Some(n),
        Value::Array(items) => items.first().and_then(object),
        _ => None,
    }
}

/// `Eth1/1` → `Ethernet1/1` (NX-OS abbreviates its local ports).
pub fn expand_port(name: &str) -> String {
    match name.strip_prefix("Eth") {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => format!("Ethernet{rest}"),
        _ => name.to_string(),
    }
}

/// The neighbours of an `lldp.json`; `Err` names what the document is not.
pub fn parse(root: &Node) -> Result<Vec<Neighbour>, String> {
    if let Some(lldp) = root.get("lldp") {
        return Ok(lldpd(lldp));
    }
    if let Some(list) = root.get("lldpNeighbors") {
        return Ok(list
            .items()
            .iter()
            .filter_map(|n| {
                let port = n.get("port")?;
                Some(Neighbour {
                    local: port.as_str()?.to_string(),
                    system: n
                        .get("neighborDevice")
                        .and_then(Node::as_str)
                        .map(str::to_string),
                    ports: n
                        .get("neighborPort")
                        .and_then(Node::as_str)
                        .map(str::to_string)
                        .into_iter()
                        .collect(),
                    at: Loc::new(port.start, port.end),
                })
            })
            .collect());
    }
    if let Some(table) = root.get("TABLE_nbor") {
        let rows = match table.get("ROW_nbor") {
            Some(r) if matches!(r.value, Value::Object(_)) => std::slice::from_ref(r),
            Some(r) => r.items(),
            None => &[],
        };
        return Ok(rows
            .iter()
            .filter_map(|n| {
                let system = n
                    .get("sys_name")
                    .and_then(Node::as_str)
                    .filter(|s| !s.is_empty())
                    .or_else(|| n.get("chassis_id").and_then(Node::as_str))
                    .map(|s| s.split('(').next().unwrap_or(s).trim().to_string());
                let local = n.get("l_port_id")?;
                Some(Neighbour {
                    local: expand_port(local.as_str()?),
                    system,
                    ports: n
                        .get("port_id")
                        .and_then(Node::as_str)
                        .map(expand_port)
                        .into_iter()
                        .collect(),
                    at: Loc::new(local.start, local.end),
                })
            })
            .collect());
    }
    Err("expected `lldpctl -f json` (`{\"lldp\": …}`) or `show lldp neighbors | json` (`lldpNeighbors`, `TABLE_nbor`)".into())
}

fn lldpd(lldp: &Node) -> Vec<Neighbour> {
    // json0: "lldp": [ {"interface": [...]} ]
    let lldp = object(lldp).unwrap_or(lldp);
    let Some(interfaces) = lldp.get("interface") else {
        return Vec::new();
    };
    // (local port, its object, where the local port is named) in either form.
    let mut entries: Vec<(String, &Node, Loc)> = Vec::new();
    fn push_object<'a, 't>(o: &'a Node<'t>, entries: &mut Vec<(String, &'a Node<'t>, Loc)>) {
        if let Some(n) = o.get("name")
            && let Some(name) = text(n)
        {
            entries.push((name, o, Loc::new(n.start, n.end)));
        } else {
            for (k, v) in o.members() {
                if matches!(v.value, Value::Object(_)) {
                    entries.push((k.name.to_string(), v, Loc::new(k.start, k.end)));
                }
            }
        }
    }
    match &interfaces.value {
        Value::Object(_) => push_object(interfaces, &mut entries),
        Value::Array(items) => {
            for it in items {
                if matches!(it.value, Value::Object(_)) {
                    push_object(it, &mut entries);
                }
            }
        }
        _ => {}
    }
    entries
        .into_iter()
        .map(|(local, o, at)| {
            let chassis = o.get("chassis").and_then(object);
            let system = chassis.and_then(|c| {
                c.get("name").and_then(text).or_else(|| {
                    // `-f json`: the chassis object is keyed by the system name.
                    c.members()
                        .iter()
                        .find(|(k, v)| k.name != "id" && matches!(v.value, Value::Object(_)))
                        .map(|(k, _)| k.name.to_string())
                })
            });
            let port = o.get("port").and_then(object);
            let mut ports = Vec::new();
            if let Some(p) = port {
                if let Some(id) = p
                    .get("id")
                    .and_then(|i| object(i).and_then(|o| o.get("value")).and_then(text))
                {
                    ports.push(id);
                }
                if let Some(d) = p.get("descr").and_then(text) {
                    ports.push(d);
                }
            }
            Neighbour {
                local,
                system,
                ports,
                at,
            }
        })
        .collect()
}

/// Whether an LLDP system name is device `name`: the same, or its fully qualified form,
/// ignoring case (host names are case-insensitive, RFC 4343).
pub fn is_device(system: &str, name: &str) -> bool {
    system.eq_ignore_ascii_case(name)
        || system
            .get(..name.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(name))
            && system[name.len()..].starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::json;

    #[test]
    fn lldpd_json_one_and_several_interfaces() {
        let one = json::parse(r#"{"lldp":{"interface":{"eth0":{"via":"LLDP","chassis":{"ns-2.example.com":{"id":{"type":"mac","value":"00:00:00:00:00:02"}}},"port":{"id":{"type":"mac","value":"00:00:00:00:00:02"},"descr":"eth1"}}}}}"#).unwrap();
        let n = parse(&one).unwrap();
        assert_eq!(n.len(), 1);
        assert_eq!(n[0].local, "eth0");
        assert_eq!(n[0].system.as_deref(), Some("ns-2.example.com"));
        assert_eq!(n[0].ports, vec!["00:00:00:00:00:02", "eth1"]);
        let several = json::parse(r#"{"lldp":{"interface":[{"swp1":{"chassis":{"spine1":{"id":{"type":"mac","value":"x"}}},"port":{"id":{"type":"ifname","value":"swp3"}}}},{"swp2":{"chassis":{"spine2":{}},"port":{"id":{"type":"ifname","value":"swp4"}}}}]}}"#).unwrap();
        let n = parse(&several).unwrap();
        assert_eq!(n.len(), 2);
        assert_eq!(n[1].system.as_deref(), Some("spine2"));
        assert_eq!(n[1].ports, vec!["swp4"]);
    }

    #[test]
    fn lldpd_json0() {
        let doc = json::parse(r#"{"lldp":[{"interface":[{"name":"eth0","via":"LLDP","chassis":[{"id":[{"type":"mac","value":"m"}],"name":[{"value":"ns-2"}]}],"port":[{"id":[{"type":"mac","value":"m2"}],"descr":[{"value":"eth1"}]}]}]}]}"#).unwrap();
        let n = parse(&doc).unwrap();
        assert_eq!(n[0].local, "eth0");
        assert_eq!(n[0].system.as_deref(), Some("ns-2"));
        assert_eq!(n[0].ports, vec!["m2", "eth1"]);
    }

    #[test]
    fn eos_and_nxos() {
        let eos = json::parse(r#"{"lldpNeighbors":[{"port":"Ethernet1/1","neighborDevice":"leaf1.lab","neighborPort":"Ethernet32","ttl":120}]}"#).unwrap();
        let n = parse(&eos).unwrap();
        assert_eq!(
            (n[0].local.as_str(), n[0].ports[0].as_str()),
            ("Ethernet1/1", "Ethernet32")
        );
        assert!(is_device(n[0].system.as_deref().unwrap(), "leaf1"));
        let nx = json::parse(r#"{"TABLE_nbor":{"ROW_nbor":{"chassis_id":"spine1(FDO123)","l_port_id":"Eth1/5","port_id":"Ethernet1/1"}}}"#).unwrap();
        let n = parse(&nx).unwrap();
        assert_eq!(n[0].local, "Ethernet1/5");
        assert_eq!(n[0].system.as_deref(), Some("spine1"));
        assert!(parse(&json::parse("{}").unwrap()).is_err());
    }

    #[test]
    fn device_names() {
        assert!(is_device("Leaf1", "leaf1"));
        assert!(is_device("leaf1.example.net", "leaf1"));
        assert!(!is_device("leaf10", "leaf1"));
        assert!(!is_device("leaf", "leaf1"));
    }
}
