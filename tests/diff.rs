//! `fabricc diff`: an ECN threshold change in the class touches exactly the lines that carry
//! it in every target, and nothing else; findings show up as new or fixed.

use std::process::Command;

fn diff(args: &[&str]) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_fabricc"))
        .arg("diff")
        .args(args)
        .args(["--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fabricc");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("json")
}

#[test]
fn ecn_threshold_change_touches_exactly_its_lines() {
    let v = diff(&["fixtures/diff/old.fab", "fixtures/diff/new.fab"]);
    let files: Vec<(String, u64, u64)> = v["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f["added_lines"].as_u64().unwrap_or(0),
                f["removed_lines"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    // L2 overrides the thresholds, hosts do not carry switch ECN: neither changes.
    assert_eq!(
        files,
        [
            ("report.md".to_string(), 1, 1),
            ("switches/L1/config_db.json".to_string(), 12, 12),
            ("switches/S1/running-config".to_string(), 1, 1),
            ("switches/S2/running-config".to_string(), 1, 1),
        ]
    );
    let eos = v["files"][2]["diff"].as_str().unwrap_or_default();
    assert!(
        eos.contains(
            "+      random-detect ecn minimum-threshold 200 kbytes maximum-threshold 1500 kbytes"
        ),
        "{eos}"
    );
    let sonic = v["files"][1]["diff"].as_str().unwrap_or_default();
    let changed: Vec<&str> = sonic
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
        .collect();
    assert!(changed.iter().all(|l| l.contains("200000")), "{changed:?}");
    assert_eq!(
        (v["switches_changed"].as_u64(), v["hosts_changed"].as_u64()),
        (Some(3), Some(0))
    );
    assert_eq!(v["new_findings"], serde_json::json!([]));
}

#[test]
fn findings_new_and_fixed() {
    let v = diff(&[
        "fixtures/diff/old.fab",
        "fixtures/check/FAB605_isolated_switch.fab",
    ]);
    let new: Vec<&str> = v["new_findings"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(new.contains(&"FAB605"), "{v}");
    let back = diff(&[
        "fixtures/check/FAB605_isolated_switch.fab",
        "fixtures/diff/old.fab",
    ]);
    let fixed: Vec<&str> = back["fixed_findings"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(fixed.contains(&"FAB605"), "{back}");
}
