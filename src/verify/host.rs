//! Hosts: the NIC script's intent against what its `--collect` mode printed (`state.json`,
//! schema `fabricc-host-state/1`, docs/host-state.md), as `[nic, setting, (index,) value]`
//! paths.
//!
//! The intent is read from the host's generated settings file (`fabricc-roce.conf`, which the
//! driver's program reads; issue 36 item 2): its `E_<SETTING>=value` lines are what every NIC
//! must have, and its `NIC=N …` lines the NICs it manages. (`NICS+=(N)` lines, the form of
//! the per-host scripts of earlier builds, are read too.) The comparison is
//! the script's own `--check` rule applied to the collected values, so `verify` and `--check`
//! on the host agree:
//! * `mtu`, `trust`, `roce_mode`, `roce_tos` (`E_TOS`), `cnp_dscp`, `cnp_prio` as values;
//!   `pfc`, `prio_tc`, `tsa`, `tcbw` (per priority or traffic class) and `dscp2prio` (per DSCP)
//!   entry by entry, so a changed DSCP is one difference naming the DSCP;
//! * on the MLNX_OFED branch also `ecn_np`, `ecn_rp` (`E_ECN`) and `traffic_class` (`E_TOS`);
//! * on the inbox branch, when `mlxconfig` could be read, the firmware mask
//!   `nv.ROCE_CC_PRIO_MASK` must hold every DCQCN priority (`E_CC_MASK`);
//! * a value the host could not read (`null`) is missing, as `--check` counts it as drift;
//!   a NIC that was not found (`"state": null`) is one missing difference.
//!
//! Any other `E_<NAME>` is compared with the state's `<name>` when the state has it, so a
//! setting the script learns is verified as soon as `--collect` reports it.

use std::collections::BTreeMap;

use super::canon::{Builder, Canon, Loc};
use super::json::{Node, Value};

/// The schema `state.json` must declare.
pub const SCHEMA: &str = "fabricc-host-state/1";

/// What the NIC script sets: its `E_*` values and its NICs (1-based numbers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Intent {
    pub values: BTreeMap<String, String>,
    pub nics: Vec<u32>,
    /// The settings' `DRIVER=` (`mlx5`; `bnxt`, `ice`, `dcb`, `hns`: the DCBNL programs;
    /// `hccn`: the Ascend NPU program); `None`
    /// for an earlier build's `mlnx_qos.sh`, which had no such line.
    pub driver: Option<String>,
}

impl Intent {
    /// Whether the script is one of the DCBNL scripts (`bnxt_qos.sh`, `ice_qos.sh`,
    /// `dcb_qos.sh`, `hns_qos.sh`), whose intent is in `dcb … show` form and whose state has their keys.
    pub fn dcbnl(&self) -> bool {
        matches!(self.driver.as_deref(), Some("bnxt" | "ice" | "dcb" | "hns"))
    }

    /// Whether the settings are for Ascend NPU ports (`hccn.sh`): comma lists in
    /// `hccn_tool`'s forms, a DSCP → TC map, 4 traffic classes.
    pub fn hccn(&self) -> bool {
        self.driver.as_deref() == Some("hccn")
    }
}

/// A shell value without the one pair of double quotes the DCBNL scripts put around maps.
fn unquote(v: &str) -> &str {
    let v = v.trim();
    v.strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(v)
}

/// The intent of a NIC script; `None` when the text is not one.
pub fn intent(script: &str) -> Option<Intent> {
    let mut i = Intent::default();
    for line in script.lines() {
        if let Some(rest) = line.strip_prefix("E_")
            && let Some((name, value)) = rest.split_once('=')
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        {
            i.values
                .insert(name.to_string(), unquote(value).to_string());
        } else if let Some(d) = line.strip_prefix("DRIVER=") {
            i.driver = Some(unquote(d).to_string());
        } else if let Some(n) = line
            .strip_prefix("NICS+=(")
            .and_then(|r| r.split(')').next())
            .or_else(|| line.strip_prefix("NIC=").and_then(|r| r.split(' ').next()))
            .and_then(|n| n.parse().ok())
        {
            i.nics.push(n);
        }
    }
    (!i.values.is_empty()).then_some(i)
}

/// Settings compared as one value.
const SCALARS: &[(&str, &str)] = &[
    ("MTU", "mtu"),
    ("TRUST", "trust"),
    ("ROCE_MODE", "roce_mode"),
    ("TOS", "roce_tos"),
    ("CNP_DSCP", "cnp_dscp"),
    ("CNP_PRIO", "cnp_prio"),
];
/// Settings compared entry by entry.
const LISTS: &[(&str, &str)] = &[
    ("PFC", "pfc"),
    ("PRIO_TC", "prio_tc"),
    ("TSA", "tsa"),
    ("TCBW", "tcbw"),
    ("DSCP2PRIO", "dscp2prio"),
];
/// Intent names with a rule of their own (or none: identity and buffers are not set).
const SPECIAL: &[&str] = &["ECN", "CC_MASK"];

fn word(n: &Node) -> Option<String> {
    match &n.value {
        Value::Null | Value::Array(_) | Value::Object(_) => None,
        _ => n.scalar(),
    }
}

/// One setting of a NIC to compare: its key in the findings, the intended value (one, or
/// one per index for a list) and what the state holds.
struct Item<'a> {
    key: String,
    want: Vec<String>,
    list: bool,
    have: Option<&'a Node<'a>>,
}

/// The mlx5 script's settings of one NIC (`mlnx_qos.sh`'s `--check` rule).
fn mlx5_items<'a>(intent: &Intent, st: Option<&'a Node>, branch: Option<&str>) -> Vec<Item<'a>> {
    let mut pairs: Vec<(String, String)> = Vec::new(); // (state key, intent name)
    for (e, k) in SCALARS.iter().chain(LISTS) {
        if intent.values.contains_key(*e) {
            pairs.push((k.to_string(), e.to_string()));
        }
    }
    if branch == Some("ofed") {
        for (e, k) in [
            ("ECN", "ecn_np"),
            ("ECN", "ecn_rp"),
            ("TOS", "traffic_class"),
        ] {
            if intent.values.contains_key(e) {
                pairs.push((k.to_string(), e.to_string()));
            }
        }
    }
    for e in intent.values.keys() {
        let known =
            SCALARS.iter().chain(LISTS).any(|(x, _)| x == e) || SPECIAL.contains(&e.as_str());
        if !known && st.is_some_and(|s| s.get(&e.to_lowercase()).is_some()) {
            pairs.push((e.to_lowercase(), e.clone()));
        }
    }
    pairs
        .into_iter()
        .map(|(key, e)| {
            let want = &intent.values[&e];
            let list = LISTS.iter().any(|(_, k)| *k == key) || want.contains(',');
            Item {
                have: st.and_then(|s| s.get(&key)),
                want: if list {
                    want.split(',').map(str::to_string).collect()
                } else {
                    vec![want.clone()]
                },
                list,
                key,
            }
        })
        .collect()
}

/// A `dcb … show` map (`0:off 1:off … 3:on`, `0:ets …`) as its values for keys 0..7; a key
/// the map does not name is an empty value (which no state value equals). PFC's `on`/`off`
/// are the state's 1/0.
fn dcb_map(map: &str) -> Vec<String> {
    let mut out = vec![String::new(); 8];
    for kv in map.split_whitespace() {
        if let Some((k, v)) = kv.split_once(':')
            && let Ok(k) = k.parse::<usize>()
            && let Some(slot) = out.get_mut(k)
        {
            *slot = match v {
                "on" => "1".to_string(),
                "off" => "0".to_string(),
                v => v.to_string(),
            };
        }
    }
    out
}

/// The DCBNL scripts' settings of one NIC (`bnxt_qos.sh`, `ice_qos.sh`, `dcb_qos.sh`): their
/// shared `drift` rule (MTU, the DSCP map, PFC, ETS, RoCE mode and ToS) and each driver's
/// `driver_drift` rule, on the branch where the script sets the value
/// (`vendor-templates/host/dcbnl-body.sh`, `bnxt_qos.sh`, `ice_qos.sh`):
/// * bnxt on Broadcom's `bnxt_re` (`configfs`): CNP DSCP and priority, RoCE DSCP and priority
///   (when the host has a RoCE class), `disable_prio_vlan_tx` 1, `ecn_enable` 1 with DCQCN;
///   upstream bnxt_re has no setting for them, so they are not compared there;
/// * ice: the firmware LLDP agent off, and `roce_dcqcn_enable` 1 with DCQCN on Intel's irdma
///   (`irdma-configfs`);
/// * dcb: nothing of its own.
fn dcbnl_items<'a>(intent: &Intent, st: Option<&'a Node>, branch: Option<&str>) -> Vec<Item<'a>> {
    let v = |k: &str| intent.values.get(k).map(String::as_str);
    let top = |k: &str| st.and_then(|s| s.get(k));
    let own = |k: &str| {
        st.and_then(|s| s.get("driver_state"))
            .and_then(|d| d.get(k))
    };
    let scalar = |key: &str, want: &str, have: Option<&'a Node>| Item {
        key: key.to_string(),
        want: vec![want.to_string()],
        list: false,
        have,
    };
    let mut items = Vec::new();
    if let Some(w) = v("MTU") {
        items.push(scalar("mtu", w, top("mtu")));
    }
    if let Some(w) = v("DSCP2PRIO") {
        items.push(Item {
            key: "dscp2prio".into(),
            want: w.split(',').map(str::to_string).collect(),
            list: true,
            have: top("dscp2prio"),
        });
    }
    for (e, key) in [
        ("PFC", "pfc"),
        ("PRIO_TC", "prio_tc"),
        ("TC_TSA", "tsa"),
        ("TC_BW", "tcbw"),
    ] {
        if let Some(w) = v(e) {
            items.push(Item {
                key: key.into(),
                want: dcb_map(w),
                list: true,
                have: top(key),
            });
        }
    }
    if let Some(w) = v("ROCE_MODE") {
        // configfs prints the mode's name, `--collect` its number (docs/host-state.md).
        let n = match w {
            "RoCE v2" => "2",
            "IB/RoCE v1" => "1",
            other => other,
        };
        items.push(scalar("roce_mode", n, top("roce_mode")));
    }
    if let Some(w) = v("TOS") {
        items.push(scalar("roce_tos", w, top("roce_tos")));
    }
    let on = |e: &str| v(e) == Some("1");
    match intent.driver.as_deref() {
        Some("bnxt") if branch == Some("configfs") => {
            for (e, key) in [("CNP_DSCP", "cnp_dscp"), ("CNP_PRIO", "cnp_prio")] {
                if let Some(w) = v(e) {
                    items.push(scalar(key, w, top(key)));
                }
            }
            if on("ROCE") {
                for (e, key) in [("ROCE_DSCP", "roce_dscp"), ("ROCE_PRIO", "roce_prio")] {
                    if let Some(w) = v(e) {
                        items.push(scalar(key, w, own(key)));
                    }
                }
            }
            items.push(scalar(
                "disable_prio_vlan_tx",
                "1",
                own("disable_prio_vlan_tx"),
            ));
            if on("DCQCN") {
                items.push(scalar("ecn_enable", "1", own("ecn_enable")));
            }
        }
        Some("ice") => {
            items.push(scalar("fw_lldp_agent", "off", own("fw_lldp_agent")));
            if on("DCQCN") && branch == Some("irdma-configfs") {
                items.push(scalar("roce_dcqcn_enable", "1", own("roce_dcqcn_enable")));
            }
        }
        _ => {}
    }
    items
}

/// The Ascend NPU program's settings of one NPU port (`hccn.sh`'s `drift` rule): the MTU, the
/// DSCP → TC map entry by entry, priority → TC, PFC, the TSA and ETS share of TCs 0..3 (the
/// settings' `0:ets,1:strict,…` form, the state's lists) and the CNP DSCP. DCQCN on or off is
/// not set by the program (`--check` only notes it), so it is not compared.
fn hccn_items<'a>(intent: &Intent, st: Option<&'a Node>) -> Vec<Item<'a>> {
    let v = |k: &str| intent.values.get(k).map(String::as_str);
    let top = |k: &str| st.and_then(|s| s.get(k));
    let mut items = Vec::new();
    for (e, key) in [("MTU", "mtu"), ("CNP_DSCP", "cnp_dscp")] {
        if let Some(w) = v(e) {
            items.push(Item {
                key: key.into(),
                want: vec![w.to_string()],
                list: false,
                have: top(key),
            });
        }
    }
    for (e, key) in [
        ("DSCP2TC", "dscp2tc"),
        ("PRIO_TC", "prio_tc"),
        ("PFC", "pfc"),
        ("TC_TSA", "tsa"),
        ("TC_BW", "tcbw"),
    ] {
        if let Some(w) = v(e) {
            items.push(Item {
                key: key.into(),
                // `0:ets,1:strict` → its values; a plain list as it is.
                want: w
                    .split(',')
                    .map(|x| x.split_once(':').map_or(x, |(_, v)| v).to_string())
                    .collect(),
                list: true,
                have: top(key),
            });
        }
    }
    items
}

/// The expected and collected settings of one host, from its script's intent and its
/// `state.json`. The collected side holds only the settings the intent names.
pub fn canons(intent: &Intent, state: &Node) -> (Canon, Canon) {
    let mut expected = Builder::default();
    let mut actual = Builder::default();
    let nics = state.get("nics").map(Node::items).unwrap_or_default();
    for &n in &intent.nics {
        let name = format!("nic{n}");
        let found = nics
            .iter()
            .find(|x| x.get("nic").and_then(Node::as_str) == Some(name.as_str()));
        let st = found.and_then(|x| x.get("state")).filter(|s| !s.is_null());
        let branch = found.and_then(|x| x.get("branch")).and_then(Node::as_str);
        let mut items = if intent.hccn() {
            hccn_items(intent, st)
        } else if intent.dcbnl() {
            dcbnl_items(intent, st, branch)
        } else {
            mlx5_items(intent, st, branch)
        };
        // A NIC that has every setting as intended adds nothing to either side (the fast path
        // of a fleet in sync). Otherwise all its settings are compared, so that what is missing
        // is named setting by setting and not as the whole NIC.
        if items.iter().all(|i| same(&i.want, i.have, i.list)) {
            items.clear();
        }
        for Item {
            key,
            want,
            list,
            have,
        } in items
        {
            let at = have.map_or_else(
                || found.map_or(Loc::default(), |x| Loc::new(x.start, x.start)),
                |h| Loc::new(h.start, h.end),
            );
            if list {
                let got = have.map(Node::items).unwrap_or_default();
                for (i, w) in want.iter().enumerate() {
                    let index = i.to_string();
                    expected.insert(&[name.as_str(), &key, &index, w], Loc::default());
                    if let Some(v) = got.get(i).and_then(word) {
                        let loc = got.get(i).map_or(at, |x| Loc::new(x.start, x.end));
                        actual.insert(&[name.as_str(), &key, &index, &v], loc);
                    }
                }
            } else {
                let w = want.first().map_or("", String::as_str);
                expected.insert(&[name.as_str(), &key, w], Loc::default());
                if let Some(v) = have.and_then(word) {
                    actual.insert(&[name.as_str(), &key, &v], at);
                }
            }
        }
        // Inbox: the firmware mask must hold the DCQCN priorities (when it could be read).
        if branch == Some("inbox")
            && let Some(mask) = intent
                .values
                .get("CC_MASK")
                .and_then(|m| m.parse::<u32>().ok())
            && let Some(have) = st
                .and_then(|s| s.get("nv"))
                .and_then(|nv| nv.get("ROCE_CC_PRIO_MASK"))
            && let Some(bits) = have.as_i64()
        {
            for p in (0..8).filter(|p| mask & (1 << p) != 0) {
                let prio = p.to_string();
                expected.insert(
                    &[name.as_str(), "ROCE_CC_PRIO_MASK", &prio, "1"],
                    Loc::default(),
                );
                let on = if bits & (1 << p) != 0 { "1" } else { "0" };
                actual.insert(
                    &[name.as_str(), "ROCE_CC_PRIO_MASK", &prio, on],
                    Loc::new(have.start, have.end),
                );
            }
        }
    }
    (expected.build(), actual.build())
}

/// Whether a collected value is the intended one (a list entry by entry).
fn same(want: &[String], have: Option<&Node>, list: bool) -> bool {
    let Some(have) = have else {
        return false;
    };
    let scalar = |n: &Node, w: &str| match &n.value {
        Value::String(s) | Value::Number(s) => s == w,
        Value::Bool(b) => w == if *b { "true" } else { "false" },
        _ => false,
    };
    if !list {
        return want.len() == 1 && scalar(have, &want[0]);
    }
    let items = have.items();
    let mut wants = want.iter();
    items
        .iter()
        .all(|n| wants.next().is_some_and(|w| scalar(n, w)))
        && wants.next().is_none()
        && matches!(have.value, Value::Array(_))
}

/// Each NIC's netdev as the host reported it (for LLDP, which names local ports by netdev).
pub fn netdevs(state: &Node) -> BTreeMap<String, String> {
    state
        .get("nics")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| {
            Some((
                n.get("nic")?.as_str()?.to_string(),
                n.get("netdev")?.as_str()?.to_string(),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::canon::{Diff, Form, compare};
    use crate::verify::json;

    const SCRIPT: &str = "DRIVER=mlx5\nE_MTU=4200\nE_TRUST=dscp\nE_PFC=0,0,0,1,0,0,0,0\nE_TOS=106\nE_ECN=1,1,1,1,1,1,1,1\nE_CC_MASK=8\nNIC=1 pci=0000:0c:00.0 port=1 peer=L1.port1\nNIC=2 pci=0000:0d:00.0 port=1 peer=L1.port2\n";

    fn state(pfc: &str, nic2: &str) -> json::Node<'static> {
        json::parse(&format!(
            r#"{{"schema":"fabricc-host-state/1","host":"h1","nics":[
              {{"nic":"nic1","netdev":"ens1","branch":"ofed","state":{{"mtu":4200,"trust":"dscp","pfc":{pfc},
                "roce_tos":106,"traffic_class":106,"ecn_np":[1,1,1,1,1,1,1,1],"ecn_rp":[1,1,1,1,1,1,1,1]}}}},
              {{"nic":"nic2","netdev":"ens2","branch":"inbox","state":{nic2}}}]}}"#
        ))
        .unwrap()
        .into_owned()
    }

    const NIC2: &str = r#"{"mtu":4200,"trust":"dscp","pfc":[0,0,0,1,0,0,0,0],"roce_tos":106,"traffic_class":null,"ecn_np":null,"ecn_rp":null,"nv":{"ROCE_CC_PRIO_MASK":255}}"#;

    #[test]
    fn in_sync() {
        let i = intent(SCRIPT).unwrap();
        assert_eq!(i.nics, vec![1, 2]);
        let (e, a) = canons(&i, &state("[0,0,0,1,0,0,0,0]", NIC2));
        assert_eq!(compare(Form::Host, &e, &a, &|_| false), vec![]);
    }

    #[test]
    fn a_pfc_priority_off_is_one_difference() {
        let i = intent(SCRIPT).unwrap();
        let (e, a) = canons(&i, &state("[0,0,0,0,0,0,0,0]", NIC2));
        let d = compare(Form::Host, &e, &a, &|_| false);
        assert!(
            matches!(&d[..], [Diff::Differs { key, expected, actual, .. }] if key == "nic1 pfc 3" && expected == "1" && actual == "0"),
            "{d:?}"
        );
    }

    #[test]
    fn a_nic_not_found_is_one_difference() {
        let i = intent(SCRIPT).unwrap();
        let (e, a) = canons(&i, &state("[0,0,0,1,0,0,0,0]", "null"));
        let d = compare(Form::Host, &e, &a, &|_| false);
        assert!(
            matches!(&d[..], [Diff::Missing { key, .. }] if key == "nic2"),
            "{d:?}"
        );
    }

    const HCCN: &str = "DRIVER=hccn\nE_MTU=4200\nE_PRIO_TC=0,0,0,1,0,0,2,0\nE_PFC=0,0,0,1,0,0,0,0\nE_TC_TSA=0:ets,1:ets,2:strict,3:strict\nE_TC_BW=0:40,1:60,2:0,3:0\nE_CNP_DSCP=48\nE_DCQCN=1\nNIC=1 device=0 port=1 peer=L1.port1\n";

    fn hccn_state(tcbw: &str) -> json::Node<'static> {
        json::parse(&format!(
            r#"{{"schema":"fabricc-host-state/1","host":"a1","driver":"hccn","nics":[
              {{"nic":"nic1","device":0,"netdev":null,"branch":"hccn_tool","state":{{"mtu":4200,
                "prio_tc":[0,0,0,1,0,0,2,0],"pfc":[0,0,0,1,0,0,0,0],"tsa":["ets","ets","strict","strict"],
                "tcbw":{tcbw},"cnp_dscp":48,"qps":null,"driver_state":{{"dcqcn":"disable"}}}}}}]}}"#
        ))
        .unwrap()
        .into_owned()
    }

    #[test]
    fn an_npu_in_sync_and_a_changed_ets_share() {
        let i = intent(HCCN).unwrap();
        assert!(i.hccn() && !i.dcbnl());
        let (e, a) = canons(&i, &hccn_state("[40,60,0,0]"));
        assert_eq!(compare(Form::Host, &e, &a, &|_| false), vec![]);
        let (e, a) = canons(&i, &hccn_state("[50,50,0,0]"));
        let d = compare(Form::Host, &e, &a, &|_| false);
        let keys: Vec<String> = d
            .iter()
            .filter_map(|x| match x {
                Diff::Differs { key, .. } => Some(key.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(keys, vec!["nic1 tcbw 0", "nic1 tcbw 1"], "{d:?}");
    }

    #[test]
    fn inbox_mask_must_hold_the_dcqcn_priorities() {
        let i = intent(SCRIPT).unwrap();
        let nic2 = NIC2.replace("255", "7");
        let (e, a) = canons(&i, &state("[0,0,0,1,0,0,0,0]", &nic2));
        let d = compare(Form::Host, &e, &a, &|_| false);
        assert!(
            matches!(&d[..], [Diff::Differs { key, .. }] if key == "nic2 ROCE_CC_PRIO_MASK 3"),
            "{d:?}"
        );
    }
}
