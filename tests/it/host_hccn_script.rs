//! The Ascend NPU host program (`hccn.sh`, issue 35 item 3) run under bash against a fake
//! `hccn_tool` (tests/host_fakes/hccn_tool, which holds every command to the 910B tool's
//! argument checks): apply then re-apply changes nothing, `--check` finds drift, a preflight
//! failure changes nothing, `--dry-run` prints the commands and changes nothing, `--collect`
//! is the JSON of docs/host-state.md and `fabricc verify` reads it.
//!
//! Needs `bash` and `python3` (the fake). ShellCheck is used when installed.

use crate::support::Fabricc;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const FABRIC: &str = r#"fabric t {
  class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 100%  bandwidth 60% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 40% }
  switch-model s { platform nvidia-sn4700  os cumulus  ports 64 x 200G }
  nic-model npu { platform huawei-ascend910b  speed 200G }
  switch L1 { model s  tier 1 }
  host a1 { nic npu x 2 }
  link a1 -- L1 { cable 3m  count 2 }
}
"#;

static SCRATCH: AtomicUsize = AtomicUsize::new(0);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let n = SCRATCH.fetch_add(1, Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("host-hccn-script")
        .join(format!("{name}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}

/// A built fabric and a fake host with NPUs 0 and 1.
struct Host {
    dir: PathBuf,
    state: PathBuf,
    program: PathBuf,
    settings: PathBuf,
}

struct Run(Output);

impl Run {
    fn code(&self) -> i32 {
        self.0.status.code().unwrap_or(-1)
    }
    fn out(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }
    fn err(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }
}

impl Host {
    fn new(name: &str, fabric: &str) -> Host {
        let dir = scratch(name);
        let src = dir.join("t.fab");
        fs::write(&src, fabric).expect("write");
        let out = dir.join("out");
        let o = Fabricc::new()
            .args(["build"])
            .arg(&src)
            .arg("-o")
            .arg(&out)
            .arg("--force")
            .run();
        assert!(
            o.status.success(),
            "build: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let state = dir.join("state");
        fs::create_dir_all(&state).expect("state");
        fs::create_dir_all(dir.join("sys/run/lock")).expect("lock dir");
        fs::write(state.join("hccn.devices"), "0\n1\n").expect("devices");
        Host {
            program: out.join("programs/host/hccn.sh"),
            settings: out.join("hosts/a1/fabricc-roce.conf"),
            dir,
            state,
        }
    }

    fn run(&self, args: &[&str]) -> Run {
        let path = crate::support::fakes_path(&root().join("tests/host_fakes"));
        let o = Command::new("bash")
            .arg(&self.program)
            .arg("--settings")
            .arg(&self.settings)
            .args(args)
            .env("PATH", path)
            .env("FABRICC_SYSROOT", self.dir.join("sys"))
            .env("FAKE_STATE", &self.state)
            .env_remove("FAKE_UID")
            .output()
            .expect("bash runs");
        Run(o)
    }

    fn writes(&self) -> Vec<String> {
        read(&self.state.join("calls.log"))
            .lines()
            .filter(|l| l.starts_with("hccn_tool\tWRITE"))
            .map(str::to_string)
            .collect()
    }

    fn clear_calls(&self) {
        let _ = fs::remove_file(self.state.join("calls.log"));
    }

    fn npu(&self, dev: u32) -> serde_json::Value {
        serde_json::from_str(&read(&self.state.join(format!("hccn.{dev}.json"))))
            .unwrap_or(serde_json::Value::Null)
    }

    fn set_npu(&self, dev: u32, v: &serde_json::Value) {
        fs::write(
            self.state.join(format!("hccn.{dev}.json")),
            serde_json::to_string(v).unwrap(),
        )
        .expect("write state");
    }
}

#[test]
fn the_settings_and_hccl_env_carry_the_fabric() {
    let h = Host::new("settings", FABRIC);
    let s = read(&h.settings);
    for line in [
        "DRIVER=hccn",
        "E_PRIO_TC=0,0,0,1,0,0,2,0",
        "E_PFC=0,0,0,1,0,0,0,0",
        "E_TC_TSA=0:ets,1:ets,2:strict,3:strict",
        "E_TC_BW=0:40,1:60,2:0,3:0",
        "E_CNP_DSCP=48",
        "NIC=1 device=0 port=1 peer=L1.port1",
        "NIC=2 device=1 port=1 peer=L1.port2",
    ] {
        assert!(s.lines().any(|l| l == line), "{line} missing:\n{s}");
    }
    let env = read(&h.settings.with_file_name("hccl.env"));
    assert!(
        env.contains("\nHCCL_RDMA_TC=104\nHCCL_RDMA_SL=3\n"),
        "{env}"
    );
    assert!(!h.settings.with_file_name("nccl.env").exists());
    // The unit, once for the hccn hosts, and no udev rule (the NPUs' ports are no RDMA
    // devices of the host).
    let programs = h.program.with_file_name("hccn");
    assert!(programs.join("fabricc-roce.service").exists());
    assert!(!programs.join("99-fabricc-roce.rules").exists());
    assert!(!h.settings.with_file_name("99-fabricc-roce.rules").exists());
}

#[test]
fn apply_then_reapply_changes_nothing() {
    let h = Host::new("apply", FABRIC);
    let r = h.run(&[]);
    assert_eq!(r.code(), 0, "{}{}", r.out(), r.err());
    for dev in [0, 1] {
        let st = h.npu(dev);
        assert_eq!(st["mtu"], 4200);
        assert_eq!(st["prio_tc"], serde_json::json!([0, 0, 0, 1, 0, 0, 2, 0]));
        assert_eq!(st["pfc"], serde_json::json!([0, 0, 0, 1, 0, 0, 0, 0]));
        assert_eq!(st["dscp2tc"][26], 1);
        assert_eq!(st["dscp2tc"][48], 2);
        assert_eq!(st["tcbw"][1], 60);
        assert_eq!(st["tsa"][2], "strict");
        assert_eq!(st["cnp_dscp"], 48);
    }
    h.clear_calls();
    let r = h.run(&[]);
    assert_eq!(r.code(), 0, "{}{}", r.out(), r.err());
    assert!(r.out().contains("(0 changed)"), "{}", r.out());
    assert_eq!(h.writes(), Vec::<String>::new());
    let c = h.run(&["--check"]);
    assert_eq!(c.code(), 0, "{}{}", c.out(), c.err());
}

#[test]
fn check_names_the_drift_and_apply_repairs_only_it() {
    let h = Host::new("drift", FABRIC);
    assert_eq!(h.run(&[]).code(), 0);
    let mut st = h.npu(1);
    st["pfc"] = serde_json::json!([0, 0, 0, 0, 1, 0, 0, 0]);
    st["dscp2tc"][26] = serde_json::json!(0);
    h.set_npu(1, &st);
    h.clear_calls();
    let c = h.run(&["--check"]);
    assert_eq!(c.code(), 1, "{}{}", c.out(), c.err());
    let out = c.out();
    assert!(
        out.contains("nic2 npu1 pfc 0,0,0,1,0,0,0,0 0,0,0,0,1,0,0,0"),
        "{out}"
    );
    assert!(out.contains("nic2 npu1 dscp2tc.26 1 0"), "{out}");
    assert!(!out.contains("nic1 npu0 pfc"), "{out}");
    assert_eq!(h.writes(), Vec::<String>::new(), "--check writes nothing");
    let r = h.run(&[]);
    assert_eq!(r.code(), 0, "{}{}", r.out(), r.err());
    let w = h.writes();
    assert_eq!(
        w,
        vec![
            "hccn_tool\tWRITE\t-i 1 -dscp_to_tc -s dscp 26 tc 1".to_string(),
            "hccn_tool\tWRITE\t-i 1 -pfc -s bitmap 0,0,0,1,0,0,0,0".to_string(),
        ]
    );
}

#[test]
fn a_missing_npu_stops_the_run_before_any_change() {
    let h = Host::new("preflight", FABRIC);
    fs::write(h.state.join("hccn.devices"), "0\n").expect("devices");
    let r = h.run(&[]);
    assert_eq!(r.code(), 3, "{}{}", r.out(), r.err());
    assert!(
        r.err().contains("nic2: NPU device 1 does not answer"),
        "{}",
        r.err()
    );
    assert!(r.err().contains("nothing was changed"), "{}", r.err());
    assert_eq!(h.writes(), Vec::<String>::new());
    assert_eq!(h.npu(0), serde_json::Value::Null, "NPU 0 untouched");
    // Not root: exit 3 as well, before hccn_tool runs.
    let o = Command::new("bash")
        .arg(&h.program)
        .arg("--settings")
        .arg(&h.settings)
        .env(
            "PATH",
            format!(
                "{}:{}",
                root().join("tests/host_fakes").display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("FAKE_STATE", &h.state)
        .env("FAKE_UID", "1000")
        .output()
        .expect("bash");
    assert_eq!(o.status.code(), Some(3));
}

#[test]
fn dry_run_prints_the_commands_and_changes_nothing() {
    let h = Host::new("dry-run", FABRIC);
    let r = h.run(&["--dry-run"]);
    assert_eq!(r.code(), 0, "{}{}", r.out(), r.err());
    let out = r.out();
    // priority -> TC before -tc_qos: the tool refuses an ETS TC above the map's highest TC.
    let prio = out.find("hccn_tool -i 0 -prio_tc -s map 0,0,0,1,0,0,2,0");
    let qos = out
        .find("hccn_tool -i 0 -tc_qos -s tsa 0:ets,1:ets,2:strict,3:strict tcbw 0:40,1:60,2:0,3:0");
    assert!(prio.is_some() && qos.is_some() && prio < qos, "{out}");
    assert!(
        out.contains("hccn_tool -i 1 -dcqcn -s cnp_dscp 48"),
        "{out}"
    );
    assert_eq!(h.writes(), Vec::<String>::new());
}

#[test]
fn collect_is_the_host_state_json_and_verify_reads_it() {
    let h = Host::new("collect", FABRIC);
    assert_eq!(h.run(&[]).code(), 0);
    let r = h.run(&["--collect"]);
    assert_eq!(r.code(), 0, "{}", r.err());
    let j: serde_json::Value = serde_json::from_str(&r.out()).expect("JSON");
    assert_eq!(j["schema"], "fabricc-host-state/1");
    assert_eq!(j["driver"], "hccn");
    assert_eq!(j["nics"][1]["device"], 1);
    assert_eq!(
        j["nics"][1]["state"]["tsa"],
        serde_json::json!(["ets", "ets", "strict", "strict"])
    );
    assert_eq!(j["nics"][1]["state"]["driver_state"]["dcqcn"], "enable");

    // fabricc verify: in sync, then one drifted ETS share on NPU 0.
    let states = h.dir.join("states");
    fs::create_dir_all(states.join("a1")).expect("dir");
    fs::write(states.join("a1/state.json"), r.out()).expect("state");
    let verify = || {
        Fabricc::new()
            .args(["verify"])
            .arg(h.dir.join("t.fab"))
            .arg("--state")
            .arg(&states)
            .args(["--target", "host"])
            .run()
    };
    let o = verify();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let mut st = h.npu(0);
    st["tcbw"][0] = serde_json::json!(50);
    st["tcbw"][1] = serde_json::json!(50);
    h.set_npu(0, &st);
    let r = h.run(&["--collect"]);
    fs::write(states.join("a1/state.json"), r.out()).expect("state");
    let o = verify();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!o.status.success(), "{text}");
    assert!(text.contains("nic1 tcbw 0"), "{text}");
}

#[test]
fn five_priorities_are_a_finding_not_a_script() {
    // A fourth and fifth used priority do not fit the NPU's 4 TCs: FAB901 at check.
    let fab = FABRIC.replace(
        "  class bulk { dscp other  priority 0  bandwidth 40% }",
        "  class bulk { dscp other  priority 0  bandwidth 20% }\n  class b1 { dscp 10  priority 1  bandwidth 10% }\n  class b2 { dscp 12  priority 2  bandwidth 10% }",
    );
    let dir = scratch("five");
    fs::write(dir.join("t.fab"), fab).expect("write");
    let o = Fabricc::new().args(["check"]).arg(dir.join("t.fab")).run();
    let err = String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("FAB901") && err.contains("an Ascend NPU port has"),
        "{err}"
    );
}

#[test]
fn shellcheck_is_clean_when_installed() {
    let h = Host::new("shellcheck", FABRIC);
    let Some(o) = crate::support::shellcheck(&h.program) else {
        return;
    };
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}
