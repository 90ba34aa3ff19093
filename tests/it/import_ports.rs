//! Per-port deviations reach the proof (issue 34, review U17): a port whose PFC differs from
//! its switch's is judged at its own value, a port whose ECN differs comes back as its link's
//! `ecn` override, a `BUFFER_PG` entry fabricc would not write is a finding, and the same
//! finding on many ports of a switch is one.

use crate::import::{
    check_state, check_text, edit, found, import_dir, line_of, pretty_all, seeded_on, state_of,
};

const TWO_BY_TWO: &str = "sonic-sn5600-2x2.fab";

fn pfc_line(dir: &std::path::Path, sw: &str, port: &str) -> usize {
    line_of(
        dir,
        &format!("{sw}/config_db.json"),
        &format!("\"{port}\": {{\n      \"dscp_to_tc_map\""),
        "\"pfc_enable\"",
    )
}

/// The review's case: one host port of leaf1 runs `pfc_enable 3,4`. Before: FAB964 ("the
/// `.fab` keeps … the one most ports have") and nothing the proof sees; now FAB814 at that
/// port's `pfc_enable`, from `import` as from `check --state`.
#[test]
fn an_extra_pfc_priority_on_one_port_is_a_finding_at_its_line() {
    let (f, dir) = seeded_on(TWO_BY_TWO, "port-extra-pfc", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            v["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] = "3,4".into();
        })
    });
    let at = pfc_line(&dir, "leaf1", "Ethernet0");
    assert_eq!(
        f,
        vec![("FAB814".into(), "state/leaf1/config_db.json".into(), at)]
    );
    let (i, _) = import_dir(&dir);
    let codes: Vec<&str> = i.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(
        codes.contains(&"FAB814") && !codes.contains(&"FAB964"),
        "{codes:?}"
    );
    let m = &i.diagnostics[codes.iter().position(|c| *c == "FAB814").unwrap()].message;
    assert!(m.contains("`leaf1` `Ethernet0` pauses priority 4"), "{m}");
}

/// A leaf uplink without PFC on the lossless priority: that hop drops RoCE (FAB505, an error,
/// so `import` fails too), and the link's two ends disagree (FAB507), both at the port's line.
#[test]
fn a_lossless_priority_missing_on_one_uplink_is_an_error_at_its_line() {
    let (f, dir) = seeded_on(TWO_BY_TWO, "port-missing-pfc", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            v["PORT_QOS_MAP"]["Ethernet16"]["pfc_enable"] = "".into();
        })
    });
    let at = pfc_line(&dir, "leaf1", "Ethernet16");
    // Its lossless PG stays: headroom for a priority the port no longer pauses (FAB815).
    let pg = line_of(
        &dir,
        "leaf1/config_db.json",
        "\"BUFFER_PG\"",
        "\"Ethernet16|3\"",
    );
    let file = "state/leaf1/config_db.json".to_string();
    assert_eq!(
        f,
        vec![
            ("FAB505".into(), file.clone(), at),
            ("FAB507".into(), file.clone(), at),
            ("FAB815".into(), file, pg)
        ]
    );
    let (i, _) = import_dir(&dir);
    assert!(
        i.diagnostics.iter().any(|d| d.is_error()),
        "{:?}",
        i.diagnostics
    );
    // The `.fab` keeps the switch's value, and checks.
    let c = check_text(dir.parent().unwrap(), &i.text);
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
}

/// The review's `BUFFER_PG|Ethernet0|3-4` beside fabricc's `Ethernet0|3`: FAB815 at its key.
#[test]
fn an_overlapping_buffer_pg_is_a_finding_at_its_key() {
    let (f, dir) = seeded_on(TWO_BY_TWO, "stray-pg", |d| {
        edit(d, "leaf1/config_db.json", |v| {
            v["BUFFER_PG"]["Ethernet0|3-4"] = serde_json::json!({"profile": "NULL"});
        })
    });
    let at = line_of(
        &dir,
        "leaf1/config_db.json",
        "\"BUFFER_PG\"",
        "\"Ethernet0|3-4\"",
    );
    assert_eq!(
        f,
        vec![("FAB815".into(), "state/leaf1/config_db.json".into(), at)]
    );
    let (i, _) = import_dir(&dir);
    let d = i
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "FAB815")
        .unwrap();
    assert!(
        d.message.contains("overlaps the port's entry for PG 3"),
        "{}",
        d.message
    );
    assert!(
        d.message.contains("reserves headroom on PG 4"),
        "{}",
        d.message
    );
}

/// One missing WRED profile used by every port: one FAB965 per switch naming the ports, not
/// one per port.
#[test]
fn one_missing_wred_profile_is_one_finding_per_switch() {
    let dir = state_of(TWO_BY_TWO, "wred-missing");
    pretty_all(&dir);
    edit(&dir, "leaf1/config_db.json", |v| {
        v["WRED_PROFILE"]
            .as_object_mut()
            .unwrap()
            .remove("FABRICC_ECN_Q3");
    });
    let (i, _) = import_dir(&dir);
    let wred: Vec<&fabricc::diagnostic::Diagnostic> = i
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "FAB965" && d.message.contains("WRED profile"))
        .collect();
    assert_eq!(wred.len(), 1, "{wred:#?}");
    let m = &wred[0].message;
    assert!(
        m.starts_with("queue 3 of `Ethernet0` uses WRED profile `FABRICC_ECN_Q3`"),
        "{m}"
    );
    assert!(
        m.ends_with("; the same on 7 more ports: `Ethernet4`, `Ethernet8`, `Ethernet12`, `Ethernet16`, 3 more"),
        "{m}"
    );
    assert_eq!(wred[0].notes.len(), 1, "{:?}", wred[0].notes);
    assert!(wred[0].notes[0].starts_with("all 8 ports: Ethernet0, Ethernet4,"));
}

/// One leaf uplink marks RoCE at other thresholds: the imported `.fab` states them on that
/// link (`ecn roce …`), not the switch's majority with a FAB964 naming the leaf port, and
/// `check` judges the link by them.
#[test]
fn a_port_with_its_own_ecn_comes_back_as_its_links_override() {
    let dir = state_of(TWO_BY_TWO, "port-ecn");
    pretty_all(&dir);
    edit(&dir, "leaf1/config_db.json", |v| {
        let mut w = v["WRED_PROFILE"]["FABRICC_ECN_Q3"].clone();
        w["green_min_threshold"] = "299904".into();
        w["green_max_threshold"] = "2999808".into();
        v["WRED_PROFILE"]["FABRICC_ECN_Q3_UP"] = w;
        v["QUEUE"]["Ethernet16|3"]["wred_profile"] = "FABRICC_ECN_Q3_UP".into();
    });
    let (i, _) = import_dir(&dir);
    // The `.fab` states ECN per link, both ends: the spine's end, which runs its switch's
    // value, is named (FAB964), the leaf's port is not voted away.
    let differ: Vec<&str> = i
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "FAB964")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(differ.len(), 1, "{differ:?}");
    assert!(
        differ[0].starts_with("`spine1` `Ethernet0` marks class `roce` with ecn min 149952B"),
        "{differ:?}"
    );
    let link = i
        .text
        .lines()
        .position(|l| l.starts_with("  link leaf1.port") && l.ends_with('{'))
        .unwrap_or_else(|| panic!("{}", i.text));
    let lines: Vec<&str> = i.text.lines().collect();
    assert_eq!(
        lines[link..link + 4].join("\n"),
        "  link leaf1.port5 -- spine1.port1 {\n    cable 30m\n    ecn roce min 299904B  max 2999808B  probability 100%\n  }",
        "{}",
        i.text
    );
    let c = check_text(dir.parent().unwrap(), &i.text);
    assert_eq!(c.errors(), 0, "{:?}", c.diagnostics);
    let (d, s, _) = check_state(&dir);
    let f = found(&d, &s);
    assert!(
        f.iter()
            .all(|x| x.0 != "FAB964" || x.1 == "state/spine1/config_db.json"),
        "{f:?}"
    );
}

/// Cumulus gives PFC per port through the profile each port binds: leaf2's uplink to spine2
/// binding a profile without priority 4 drops `roce2` on that hop (FAB505) and disagrees with
/// spine2 (FAB507), both at the profile's first priority in leaf2's `startup.yaml`.
#[test]
fn cumulus_a_port_binding_a_pfc_profile_without_a_lossless_priority() {
    use crate::import::{replace_after, seeded_cumulus};
    let (f, dir) = seeded_cumulus("cu-port-pfc", "leaf2", |t| {
        let t = replace_after(
            &t,
            "      pfc:\n        default-global:",
            "        fabricc-pfc-cable1:\n",
            "        fabricc-pfc-one:\n          switch-priority:\n            '3': {}\n          tx: enable\n          rx: enable\n          cable-length: 30\n        fabricc-pfc-cable1:\n",
        );
        replace_after(
            &t,
            "      swp2s1:",
            "        qos:\n",
            "        qos:\n          pfc:\n            profile: fabricc-pfc-one\n",
        )
    });
    let at = line_of(&dir, "leaf2/startup.yaml", "fabricc-pfc-one:", "'3': {}");
    let file = "state/leaf2/startup.yaml".to_string();
    assert_eq!(
        f,
        vec![
            ("FAB505".into(), file.clone(), at),
            ("FAB507".into(), file, at)
        ]
    );
}
