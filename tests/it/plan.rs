//! `fabricc plan`: every case of `fixtures/plan/<case>/` (old.fab, new.fab, optional `args`)
//! against its reviewed plan.md and plan.json (`FABRICC_BLESS=1` rewrites them); the cases
//! named after a code give that code; a naive order on a DSCP change names the step and the
//! link whose ends disagree; the make-before-break plan of the same change has no unsafe step.

use std::path::{Path, PathBuf};

use crate::support::Fabricc;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/plan");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/plan")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// Runs the plan of a case; returns (exit code, JSON on stdout, the written folder).
fn plan(case: &Path, out: &Path) -> (Option<i32>, serde_json::Value) {
    let rel = |f: &str| {
        format!(
            "fixtures/plan/{}/{f}",
            case.file_name().unwrap_or_default().to_string_lossy()
        )
    };
    let extra = std::fs::read_to_string(case.join("args")).unwrap_or_default();
    let o = Fabricc::new()
        .arg("plan")
        .arg(rel("old.fab"))
        .arg(rel("new.fab"))
        .args(extra.split_whitespace())
        .args(["--format", "json", "-o"])
        .arg(out)
        .run();
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: no JSON ({e}): {}",
            case.display(),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (o.status.code(), v)
}

#[test]
fn every_case_matches_its_reviewed_plan() {
    let bless = std::env::var_os("FABRICC_BLESS").is_some();
    let mut failures = Vec::new();
    for case in cases() {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let tmp = std::env::temp_dir().join(format!("fabricc-plan-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let (code, v) = plan(&case, &tmp);
        let coded = name.get(..6).filter(|c| c.starts_with("FAB"));
        let findings: Vec<&str> = v["findings"]
            .as_array()
            .map(|a| a.iter().filter_map(|f| f["code"].as_str()).collect())
            .unwrap_or_default();
        match coded {
            Some(c) => {
                assert!(findings.contains(&c), "{name}: no {c} in {findings:?}");
                let error = c != "FAB813";
                assert_eq!(code, Some(if error { 1 } else { 0 }), "{name}: exit status");
                if error {
                    assert!(v["proof"]["unsafe_steps"].as_u64() > Some(0), "{name}");
                }
            }
            None => {
                assert_eq!(code, Some(0), "{name}: exit status");
                assert_eq!(v["proof"]["unsafe_steps"], 0, "{name}: unsafe steps");
                assert!(findings.is_empty(), "{name}: findings {findings:?}");
            }
        }
        for file in ["plan.md", "plan.json"] {
            let got = std::fs::read_to_string(tmp.join(file)).expect("written");
            let want_path = case.join("expected").join(file);
            if bless {
                std::fs::create_dir_all(want_path.parent().expect("parent")).expect("mkdir");
                std::fs::write(&want_path, &got).expect("bless");
            } else if std::fs::read_to_string(&want_path).ok().as_deref() != Some(got.as_str()) {
                failures.push(format!(
                    "{name}/{file} differs (FABRICC_BLESS=1 rewrites it)"
                ));
            }
        }
        let _ = std::fs::remove_dir_all(&tmp);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hosts_before_switches_on_a_dscp_change_names_the_step_and_the_link() {
    let case =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/plan/FAB810_hosts_first_dscp_change");
    let tmp = std::env::temp_dir().join(format!("fabricc-plan-naive-{}", std::process::id()));
    let (code, v) = plan(&case, &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(code, Some(1));
    let first = &v["findings"][0];
    assert_eq!(first["code"], "FAB810");
    let msg = first["message"].as_str().unwrap_or_default();
    assert!(
        msg.starts_with("after wave 1 (hosts 1/5 (canary)), link L1.port")
            && msg.contains(
                "-- h1.nic1: DSCP 24 is lossy at L1 (old) but lossless on priority 3 at h1 (new)"
            ),
        "{msg}"
    );
}

#[test]
fn the_same_dscp_change_goes_make_before_break_with_no_unsafe_step() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/plan/dscp-change");
    let tmp = std::env::temp_dir().join(format!("fabricc-plan-mbb-{}", std::process::id()));
    let (code, v) = plan(&case, &tmp);
    assert_eq!(code, Some(0));
    assert_eq!(v["bridge"], true);
    assert_eq!(v["proof"]["unsafe_steps"], 0);
    let phases: Vec<&str> = v["waves"]
        .as_array()
        .expect("waves")
        .iter()
        .filter_map(|w| w["phase"].as_str())
        .collect();
    let mut order = phases.clone();
    order.dedup();
    assert_eq!(
        order,
        [
            "switches-accept",
            "hosts-accept",
            "hosts-mark",
            "switches-narrow",
            "hosts-narrow"
        ]
    );
    // The bridge's switch files accept both DSCPs; the hosts of the accept phase still mark 26.
    let fragment = std::fs::read_to_string(
        tmp.join("phases/1-switches-accept/switches/L1/config_db.fragment.json"),
    )
    .expect("L1's bridge fragment");
    assert!(
        fragment.contains("\"24\": \"3\"") && fragment.contains("\"26\": \"3\""),
        "{fragment}"
    );
    let conf =
        std::fs::read_to_string(tmp.join("phases/2-hosts-accept/hosts/h1/fabricc-roce.conf"))
            .expect("h1's bridge settings");
    assert!(conf.contains("TOS=106") || conf.contains("=106"), "{conf}");
    let _ = std::fs::remove_dir_all(&tmp);
}
