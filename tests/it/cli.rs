//! The binary as users and CI run it: exit codes 0/1/2, the JSON contract, explain, export.

use crate::support::Fabricc;
use std::process::Output;

fn fabricc(args: &[&str]) -> Output {
    Fabricc::new().args(args).run()
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
    // Advice only: pod-256 declares no NIC identity (FAB920); SONiC computes the headroom in
    // its dynamic buffer model (FAB905) and WRED thresholds are written in whole cells (FAB907).
    let mut codes: Vec<&str> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    codes.sort_unstable();
    assert_eq!(codes, ["FAB905", "FAB907", "FAB920"]);
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
    // 84 of them are cut off only by unplugging a NIC's own cable: counted, not listed (G1).
    assert_eq!(
        full["facts"]["deadlock"]["own_cable_pairs"].as_u64(),
        Some(84)
    );
    assert_eq!(
        full["facts"]["unreachable"].as_array().map(Vec::len),
        Some(228 - 84)
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
fn platforms_lists_the_catalogue_and_prints_an_entry_with_its_sources() {
    let o = fabricc(&["platforms"]);
    assert_eq!(o.status.code(), Some(0));
    let list = stdout(&o);
    let row = list
        .lines()
        .find(|l| l.trim_start().starts_with("nvidia-sn5600 "))
        .expect("a row for nvidia-sn5600");
    for cell in [
        "NVIDIA",
        "Spectrum-4 (spectrum-4)",
        "64 x 800G",
        "158,229,504",
        "sonic, cumulus",
    ] {
        assert!(row.contains(cell), "{cell} in {row}");
    }
    assert!(
        list.lines()
            .any(|l| l.trim_start().starts_with("nvidia-cx7 "))
    );

    let one = stdout(&fabricc(&["platforms", "nvidia-sn5600"]));
    // A lookup row, the number SONiC gives the pools, and the sources the keys stand for.
    assert!(one.lines().any(|l| {
        l.split_whitespace().collect::<Vec<_>>()
            == ["400000", "5m", "250880", "19456", "231424", "0", "—"]
    }));
    assert!(one.contains("158,229,504 B [acs_buffers_t1]"));
    assert!(one.lines().any(|l| l.trim_start().starts_with("acs_pg_lookup")
        && l.ends_with("sonic-net/sonic-buildimage@086b03bd70f9:device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600/pg_profile_lookup.ini")));

    let json: serde_json::Value = serde_json::from_str(&stdout(&fabricc(&[
        "platforms",
        "nvidia-sn5600",
        "--format",
        "json",
    ])))
    .expect("json");
    assert_eq!(json["buffer"]["usable"]["bytes"], 158_229_504);
    assert_eq!(json["sonic"]["buffer_model"]["value"], "dynamic");
    let list: serde_json::Value =
        serde_json::from_str(&stdout(&fabricc(&["platforms", "--format", "json"]))).expect("json");
    assert_eq!(list["schema"], "fabricc-platforms/1");
    let switches = list["switches"].as_array().expect("switches");
    assert!(switches.len() >= 30, "{} switches", switches.len());
    assert!(list["nics"].as_array().map(Vec::len) >= Some(12));
    // Every entry carries the data file's record and its numbers with their sources.
    let sn5600 = switches
        .iter()
        .find(|s| s["name"] == "nvidia-sn5600")
        .expect("sn5600");
    assert_eq!(sn5600["entry"]["buffer"]["usable"]["bytes"], 158_229_504);
    assert!(
        sn5600["numbers"]
            .as_array()
            .is_some_and(|n| n.iter().any(|x| {
                x["path"] == "buffer/usable/bytes"
                    && x["source"] == "acs_buffers_t1"
                    && x["cites"]
                        .as_str()
                        .is_some_and(|c| c.starts_with("sonic-net/sonic-buildimage@"))
            }))
    );

    let o = fabricc(&["platforms", "nvidia-sn560"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean `nvidia-sn5600`?"));
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

/// Issue 21, bug 1: `check` passed 50.5 % + 49.5 % and `build` then refused every device
/// because truncated weights summed to 99. Now check and build agree and the device weights
/// are whole percents summing to 100 on every target.
#[test]
fn half_percent_shares_build_to_weights_that_sum_to_100() {
    let fab = "fixtures/build/inputs/ets-half-percent.fab";
    let c = fabricc(&["check", fab]);
    assert_eq!(c.status.code(), Some(0), "{}", stdout(&c));
    let dir = std::env::temp_dir().join(format!("fabricc-ets-half-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let b = fabricc(&["build", fab, "-o", dir.to_str().unwrap_or_default()]);
    assert_eq!(
        b.status.code(),
        Some(0),
        "{}{}",
        stdout(&b),
        String::from_utf8_lossy(&b.stderr)
    );
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap_or_default();
    let sonic = read("switches/L1/config_db.fragment.json");
    assert!(
        sonic.contains("\"weight\": \"51\"") && sonic.contains("\"weight\": \"49\""),
        "SONiC weights 51/49: {sonic}"
    );
    let host = read("hosts/h1/fabricc-roce.conf");
    assert!(
        host.contains("\nE_TCBW=49,0,0,51,0,0,0,0\n"),
        "host ETS 49/51: {host}"
    );
    let eos: String = std::fs::read_dir(dir.join("switches/S1"))
        .map(|d| {
            d.flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    assert!(
        eos.contains("bandwidth percent 51") && eos.contains("bandwidth percent 49"),
        "EOS weights 51/49: {eos}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 21, bug 2: `--max-range` raises the per-pattern limit; the parser no longer caps a
/// range at 1,000,000 names on its own. (`--max-devices` stops the raised fabric early, with
/// its own message, so the test stays quick.)
#[test]
fn max_range_raises_the_pattern_limit() {
    let dir = std::env::temp_dir().join(format!("fabricc-max-range-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fab = dir.join("big-range.fab");
    std::fs::write(
        &fab,
        "fabric t {\n  nic-model n { driver mlx5  speed 400G }\n  host h[1..1000001] { nic n }\n}\n",
    )
    .expect("write");
    let fab = fab.to_str().unwrap_or_default();
    let range_limit = "expands to 1000001 names, more than the limit of 1000000";
    let default = fabricc(&["check", "--format", "short", fab]);
    assert!(
        stdout(&default).contains(range_limit),
        "{}",
        stdout(&default)
    );
    let raised = fabricc(&[
        "check",
        "--format",
        "short",
        "--max-range",
        "2000000",
        "--max-devices",
        "1000",
        fab,
    ]);
    assert!(
        !stdout(&raised).contains("expands to"),
        "{}",
        stdout(&raised)
    );
    assert!(
        stdout(&raised).contains("more than 1000 devices"),
        "{}",
        stdout(&raised)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 21, bug 3: `build --target ""` named no target, built no configuration and still
/// said "built"; it is a usage error now.
#[test]
fn empty_target_list_is_a_usage_error() {
    let dir = std::env::temp_dir().join(format!("fabricc-no-target-{}", std::process::id()));
    let o = fabricc(&[
        "build",
        "fixtures/fabrics/pod-256.fab",
        "-o",
        dir.to_str().unwrap_or_default(),
        "--target",
        "",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no target named"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!dir.exists(), "nothing written");
}
