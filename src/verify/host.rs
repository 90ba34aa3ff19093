//! Hosts: the NIC script's intent against what its `--collect` mode printed (`state.json`,
//! schema `fabricc-host-state/1`, docs/host-state.md), as `[nic, setting, (index,) value]`
//! paths.
//!
//! The intent is read from the generated script itself: its `E_<SETTING>=value` lines are
//! what every NIC must have, and its `NICS+=(N)` lines the NICs it manages. The comparison is
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
            i.values.insert(name.to_string(), value.trim().to_string());
        } else if let Some(n) = line
            .strip_prefix("NICS+=(")
            .and_then(|r| r.split(')').next())
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
        let list_of =
            |key: &str, want: &str| LISTS.iter().any(|(_, k)| *k == key) || want.contains(',');
        // A NIC that has every setting as intended adds nothing to either side (the fast path
        // of a fleet in sync). Otherwise all its settings are compared, so that what is missing
        // is named setting by setting and not as the whole NIC.
        let in_sync = pairs.iter().all(|(key, e)| {
            let want = &intent.values[e];
            same(want, st.and_then(|s| s.get(key)), list_of(key, want))
        });
        if in_sync {
            pairs.clear();
        }
        for (key, e) in pairs {
            let want = &intent.values[&e];
            let have = st.and_then(|s| s.get(&key));
            let at = have.map_or_else(
                || found.map_or(Loc::default(), |x| Loc::new(x.start, x.start)),
                |h| Loc::new(h.start, h.end),
            );
            let list = list_of(&key, want);
            if list {
                let items = have.map(Node::items).unwrap_or_default();
                for (i, w) in want.split(',').enumerate() {
                    let index = i.to_string();
                    expected.insert(&[name.as_str(), &key, &index, w], Loc::default());
                    if let Some(v) = items.get(i).and_then(word) {
                        let loc = items.get(i).map_or(at, |x| Loc::new(x.start, x.end));
                        actual.insert(&[name.as_str(), &key, &index, &v], loc);
                    }
                }
            } else {
                expected.insert(&[name.as_str(), &key, want], Loc::default());
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
fn same(want: &str, have: Option<&Node>, list: bool) -> bool {
    let Some(have) = have else {
        return false;
    };
    let scalar = |n: &Node, w: &str| match &n.value {
        Value::String(s) | Value::Number(s) => s == w,
        Value::Bool(b) => w == if *b { "true" } else { "false" },
        _ => false,
    };
    if !list {
        return scalar(have, want);
    }
    let items = have.items();
    let mut wants = want.split(',');
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

    const SCRIPT: &str = "E_MTU=4200\nE_TRUST=dscp\nE_PFC=0,0,0,1,0,0,0,0\nE_TOS=106\nE_ECN=1,1,1,1,1,1,1,1\nE_CC_MASK=8\nNICS+=(1); D_NETDEV[1]=\"\"\nNICS+=(2); D_NETDEV[2]=\"\"\n";

    fn state(pfc: &str, nic2: &str) -> json::Node {
        json::parse(&format!(
            r#"{{"schema":"fabricc-host-state/1","host":"h1","nics":[
              {{"nic":"nic1","netdev":"ens1","branch":"ofed","state":{{"mtu":4200,"trust":"dscp","pfc":{pfc},
                "roce_tos":106,"traffic_class":106,"ecn_np":[1,1,1,1,1,1,1,1],"ecn_rp":[1,1,1,1,1,1,1,1]}}}},
              {{"nic":"nic2","netdev":"ens2","branch":"inbox","state":{nic2}}}]}}"#
        ))
        .unwrap()
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
