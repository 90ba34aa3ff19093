//! The binary as users and CI run it: exit codes 0/1/2, the JSON contract, explain, export.

use std::process::{Command, Output};

fn fabricc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fabricc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("FABRICC_FORMAT")
        .output()
        .expect("run fabricc")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn clean_fabric_exits_0() {
    let o = fabricc(&["check", "fixtures/fabrics/pod-256.fab"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn errors_exit_1_and_warnings_only_with_deny() {
    assert_eq!(
        fabricc(&["check", "fixtures/check/FAB501_dscp_overlap.fab"])
            .status
            .code(),
        Some(1)
    );
    let warn = "fixtures/check/FAB605_isolated_switch.fab";
    assert_eq!(fabricc(&["check", warn]).status.code(), Some(0));
    assert_eq!(
        fabricc(&["check", "--deny-warnings", warn]).status.code(),
        Some(1)
    );
}

#[test]
fn tool_failures_exit_2() {
    let o = fabricc(&["check", "fixtures/no-such.fab"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    assert_eq!(
        fabricc(&["check", "--format", "xml", "fixtures/fabrics/pod-256.fab"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(fabricc(&["explain", "FAB999"]).status.code(), Some(2));
}

#[test]
fn json_follows_the_contract() {
    let o = fabricc(&[
        "check",
        "--format",
        "json",
        "--facts",
        "fixtures/check/FAB604_oversubscribed_leaf.fab",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["fabric"], "t");
    let f = v["findings"]
        .as_array()
        .and_then(|a| a.iter().find(|f| f["code"] == "FAB604"))
        .expect("the FAB604 finding");
    for key in [
        "code",
        "severity",
        "category",
        "message",
        "help",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
    ] {
        assert!(f.get(key).is_some(), "finding lacks `{key}`: {f}");
    }
    assert_eq!(f["code"], "FAB604");
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["category"], "topology");
    let facts = &v["facts"];
    assert_eq!(facts["switches"], 2);
    assert_eq!(facts["hosts"], 32);
    assert_eq!(facts["links"], 64);
    let row = &facts["oversubscription"][0];
    assert_eq!(
        (
            row["switch"].as_str(),
            row["down_gbps"].as_u64(),
            row["up_gbps"].as_u64()
        ),
        (Some("leaf1"), Some(12800), Some(6400))
    );
    assert_eq!(row["ratio"].as_f64(), Some(2.0));
}

#[test]
fn facts_only_when_asked() {
    let o = fabricc(&["check", "--format", "json", "fixtures/fabrics/pod-256.fab"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(v.get("facts").is_none());
    // pod-256 declares no NIC identity: one advice, nothing else.
    let codes: Vec<&str> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert_eq!(codes, ["FAB920"]);
}

/// A partitioned fabric has millions of unreachable pairs: all are counted, only
/// `--max-unreachable` are listed, and the finding says so.
#[test]
fn unreachable_pairs_are_counted_in_full_and_listed_up_to_the_limit() {
    let f = "fixtures/deadlock/k4-shortest-check-failures.fab";
    let facts = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "json", "--facts", f];
        args.extend_from_slice(extra);
        let v: serde_json::Value = serde_json::from_slice(&fabricc(&args).stdout).expect("json");
        v
    };
    let full = facts(&[]);
    let tight = facts(&["--max-unreachable", "5"]);
    let total = full["facts"]["deadlock"]["unreachable_pairs"]
        .as_u64()
        .expect("a count");
    assert_eq!(total, 228);
    assert_eq!(
        full["facts"]["unreachable"].as_array().map(Vec::len),
        Some(228)
    );
    assert_eq!(
        tight["facts"]["deadlock"]["unreachable_pairs"].as_u64(),
        Some(total)
    );
    assert_eq!(
        tight["facts"]["unreachable"].as_array().map(Vec::len),
        Some(5)
    );
    assert_eq!(
        full["findings"].as_array().map(Vec::len),
        tight["findings"].as_array().map(Vec::len),
        "the same findings"
    );
    let notes = tight.to_string();
    assert!(
        notes.contains("at most 5 in all (`--max-unreachable`)")
            && !full.to_string().contains("--max-unreachable"),
        "{notes}"
    );
}

#[test]
fn several_files_at_once() {
    let o = fabricc(&[
        "check",
        "--format",
        "json",
        "fixtures/fabrics/pod-256.fab",
        "fixtures/check/FAB501_dscp_overlap.fab",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON array");
    assert_eq!(v.as_array().map(Vec::len), Some(2));
}

#[test]
fn explain_prints_the_page() {
    let o = fabricc(&["explain", "fab501"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("# FAB501"));
    let all = stdout(&fabricc(&["explain", "--all"]));
    assert!(all.lines().any(|l| l.starts_with("FAB604")));
}

#[test]
fn export_reads_back() {
    let yaml = stdout(&fabricc(&[
        "export",
        "fixtures/fabrics/explicit-leaf-spine.fab",
    ]));
    let dir = std::env::temp_dir().join(format!("fabricc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("lab.yaml");
    std::fs::write(&path, yaml).expect("write yaml");
    let o = fabricc(&["check", path.to_str().unwrap_or_default()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn completions_and_man_page() {
    let bash = fabricc(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0));
    assert!(stdout(&bash).contains("fabricc") && stdout(&bash).contains("--deny-warnings"));
    let man = fabricc(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    assert!(stdout(&man).starts_with(".ie") || stdout(&man).contains(".TH fabricc"));
}

#[test]
fn ci_recipes_use_real_flags() {
    // Every `fabricc …` command line in the recipes must at least parse its flags.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let hooks = std::fs::read_to_string(root.join(".pre-commit-hooks.yaml")).expect("hooks");
    for entry in hooks
        .lines()
        .filter_map(|l| l.trim().strip_prefix("entry: fabricc "))
    {
        let mut args: Vec<&str> = entry.split_whitespace().collect();
        args.push("--help");
        let o = fabricc(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "`fabricc {entry}` is not a valid command line"
        );
    }
}

#[test]
fn facts_carry_ecn_thresholds_per_switch_queue() {
    let o = fabricc(&[
        "check",
        "--format",
        "json",
        "--facts",
        "fixtures/fabrics/explicit-leaf-spine.fab",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let rows = v["facts"]["ecn"].as_array().expect("ecn rows");
    let l2 = rows.iter().find(|r| r["switch"] == "L2").expect("L2 row");
    // L2 overrides the class's 150 KB / 1500 KB.
    assert_eq!(
        (l2["min_bytes"].as_u64(), l2["max_bytes"].as_u64()),
        (Some(200_000), Some(1_600_000))
    );
    assert_eq!(l2["priority"], 3);
    // 400G at the fabric's rtt 8us: C·RTT/7 = 57,143 B.
    assert_eq!(l2["min_kmin_bytes"].as_u64(), Some(57_143));
}
