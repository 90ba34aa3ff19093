//! The generated host script, run under bash against fakes (issue 14, "Done means": apply,
//! re-apply, `--check` clean and with drift, `--dry-run` failure exit, preflight failure
//! changes nothing).
//!
//! In: a fabric built with the `fabricc` binary; a fake `/sys` tree per test (PCI functions,
//! netdevs, RDMA devices, MLNX_OFED sysfs or inbox debugfs, configfs `rdma_cm`), given to the
//! script as `FABRICC_SYSROOT`; the stateful fakes of `tests/host_fakes/` first on `PATH`
//! (`mlnx_qos` keeps the mlx5 DCB state and prints its real `-i` format; every tool logs its
//! calls as READ or WRITE). Out: exit codes, the script's output, the fakes' state — and the
//! claim each test names (H1–H13 of the host review).
//!
//! Needs `bash` and `python3` (the fake `mlnx_qos` is Python, as the real one). ShellCheck is
//! used when installed; the test that needs it says so and passes vacuously otherwise.

use crate::support::Fabricc;
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::validate::parse_mlnx_qos;

const FABRIC: &str = r#"fabric t {
  class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 10%  bandwidth 60% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 40% }
  switch-model s64 { platform nvidia-sn5400  os sonic }
  nic-model cx7 { driver mlx5  speed 400G }
  switch L1 { model s64  tier 1 }
  host h1 { nic cx7 x 3  IDENTITY }
  link h1 -- L1 { cable 2m  count 3 }
}
"#;

/// The three NICs of `h1` on the fake host: PCI function, netdev, RDMA device. The RDMA names
/// interleave as on a DGX, so `mlx5_<i>` would be wrong for nic2 and nic3.
const NICS: [(&str, &str, &str); 3] = [
    ("0000:0c:00.0", "ens1f0np0", "mlx5_0"),
    ("0000:0d:00.0", "ens2f0np0", "mlx5_3"),
    ("0000:0e:00.0", "ens3f0np0", "mlx5_4"),
];

const BY_PCI: &str = "pci 0c:00.0, 0d:00.0, 0e:00.0";

static SCRATCH: AtomicUsize = AtomicUsize::new(0);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let n = SCRATCH.fetch_add(1, Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("host-script")
        .join(format!("{name}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// Builds the fabric with `identity` in h1's block (and `edit` applied) and returns the
/// host's folder.
fn build(dir: &Path, identity: &str, edit: impl Fn(String) -> String) -> PathBuf {
    fs::create_dir_all(dir).expect("mkdir");
    let src = dir.join("t.fab");
    fs::write(&src, edit(FABRIC.replace("IDENTITY", identity))).expect("write fabric");
    let out = dir.join("out");
    let o = Fabricc::new()
        .arg("build")
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
    out.join("hosts/h1")
}

/// The host's driver program run with the host's settings, as fabricc-roce.service runs it
/// (issue 36 item 2): a launcher in the host's folder, `out/hosts/h1/run-mlnx_qos.sh`, that runs
/// `out/programs/host/mlnx_qos.sh --settings out/hosts/h1/fabricc-roce.conf`.
fn launcher(hosts: &Path) -> PathBuf {
    let out = hosts
        .parent()
        .and_then(Path::parent)
        .expect("output folder");
    let l = hosts.join("run-mlnx_qos.sh");
    fs::write(
        &l,
        format!(
            "exec \"$BASH\" '{}' --settings '{}' \"$@\"\n",
            out.join("programs/host/mlnx_qos.sh").display(),
            hosts.join("fabricc-roce.conf").display()
        ),
    )
    .expect("launcher");
    l
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Branch {
    /// MLNX_OFED: /sys/class/net/<if>/ecn and tc/<port>/traffic_class.
    Ofed,
    /// Upstream driver: debugfs cc_params.
    Inbox,
}

/// A fake host: `root` is FABRICC_SYSROOT, `state` the fakes' FAKE_STATE.
struct Host {
    root: PathBuf,
    state: PathBuf,
}

fn write(path: &Path, text: &str) {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p).expect("mkdir");
    }
    fs::write(path, text).expect("write");
}

/// Copies the tree `from` to `to`, symbolic links as links (the fake sysfs links are relative).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for e in fs::read_dir(from).expect("read dir").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        let meta = fs::symlink_metadata(&src).expect("stat");
        if meta.file_type().is_symlink() {
            symlink(fs::read_link(&src).expect("readlink"), &dst).expect("symlink");
        } else if meta.is_dir() {
            copy_tree(&src, &dst);
        } else {
            fs::copy(&src, &dst).expect("copy");
        }
    }
}

impl Host {
    /// A copy of this host (its `/sys` tree and the fakes' state) in `dir`.
    fn copy_to(&self, dir: &Path) -> Host {
        let h = Host {
            root: dir.join("root"),
            state: dir.join("state"),
        };
        copy_tree(&self.root, &h.root);
        copy_tree(&self.state, &h.state);
        h
    }

    fn new(dir: &Path, branch: Branch) -> Host {
        let h = Host {
            root: dir.join("root"),
            state: dir.join("state"),
        };
        fs::create_dir_all(&h.state).expect("state dir");
        let sys = h.root.join("sys");
        for d in [
            "kernel/config/rdma_cm",
            "bus/pci/devices",
            "class/net",
            "class/infiniband",
        ] {
            fs::create_dir_all(sys.join(d)).expect("mkdir");
        }
        // The lock file stays after the first run on a real host too.
        write(&h.root.join("run/lock/fabricc-roce.lock"), "");
        write(
            &sys.join("kernel/security/lockdown"),
            "[none] integrity confidentiality\n",
        );
        for (pci, netdev, ib) in NICS {
            h.add_nic(pci, netdev, ib, branch);
        }
        h
    }

    fn sys(&self) -> PathBuf {
        self.root.join("sys")
    }

    /// A PCI function with its netdev and RDMA device, linked as sysfs links them.
    fn add_nic(&self, pci: &str, netdev: &str, ib: &str, branch: Branch) {
        let sys = self.sys();
        let dev = sys.join("devices/pci0000:00").join(pci);
        fs::create_dir_all(dev.join("net").join(netdev)).expect("mkdir");
        fs::create_dir_all(dev.join("infiniband").join(ib).join("ports/1")).expect("mkdir");
        let link = |target: String, at: PathBuf| {
            let _ = fs::remove_file(&at);
            symlink(target, at).expect("symlink");
        };
        link(
            format!("../../../devices/pci0000:00/{pci}"),
            sys.join("bus/pci/devices").join(pci),
        );
        link(
            format!("../../devices/pci0000:00/{pci}/net/{netdev}"),
            sys.join("class/net").join(netdev),
        );
        link(
            format!("../../devices/pci0000:00/{pci}/infiniband/{ib}"),
            sys.join("class/infiniband").join(ib),
        );
        link(
            format!("../../../{pci}"),
            dev.join("net").join(netdev).join("device"),
        );
        link(
            format!("../../../{pci}"),
            dev.join("infiniband").join(ib).join("device"),
        );
        write(&dev.join("net").join(netdev).join("mtu"), "1500\n");
        write(
            &dev.join("infiniband").join(ib).join("ports/1/link_layer"),
            "Ethernet\n",
        );
        match branch {
            Branch::Ofed => {
                let ecn = dev.join("net").join(netdev).join("ecn");
                for role in ["roce_np", "roce_rp"] {
                    for p in 0..8 {
                        // Firmware default ROCE_CC_PRIO_MASK = 255, but one priority off.
                        let v = if p == 5 { "0\n" } else { "1\n" };
                        write(&ecn.join(role).join("enable").join(p.to_string()), v);
                    }
                }
                write(&ecn.join("roce_np/cnp_dscp"), "0\n");
                write(&ecn.join("roce_np/cnp_802p_prio"), "0\n");
                write(
                    &dev.join("infiniband").join(ib).join("tc/1/traffic_class"),
                    "",
                );
            }
            Branch::Inbox => {
                let cc = sys.join("kernel/debug/mlx5").join(pci).join("cc_params");
                write(&cc.join("np_cnp_dscp"), "0\n");
                write(&cc.join("np_cnp_prio"), "7\n");
            }
        }
    }

    /// Runs the host's script with the fakes first on PATH.
    fn run(&self, script: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
        let path = crate::support::fakes_path(&root().join("tests/host_fakes"));
        let mut c = Command::new("bash");
        c.arg(script)
            .args(args)
            .env("PATH", path)
            .env("FABRICC_SYSROOT", &self.root)
            .env("FAKE_STATE", &self.state)
            .env_remove("FAKE_UID");
        for (k, v) in env {
            c.env(k, v);
        }
        Run(c.output().expect("bash runs"))
    }

    /// Runs the fake mlnx_qos directly (as an operator or another tool would).
    fn mlnx_qos(&self, args: &[&str]) -> String {
        let o = Command::new(crate::support::python_dir().join("python3"))
            .arg("-S")
            .arg(root().join("tests/host_fakes/mlnx_qos"))
            .args(args)
            .env("FABRICC_SYSROOT", &self.root)
            .env("FAKE_STATE", &self.state)
            .output()
            .expect("python3 runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    fn calls(&self) -> String {
        fs::read_to_string(self.state.join("calls.log")).unwrap_or_default()
    }

    fn clear_calls(&self) {
        let _ = fs::remove_file(self.state.join("calls.log"));
    }

    /// The calls that set something.
    fn writes(&self) -> Vec<String> {
        self.calls()
            .lines()
            .filter(|l| l.split('\t').nth(1) == Some("WRITE"))
            .map(str::to_string)
            .collect()
    }

    /// Every file of the fake host and of the fakes' state, except the call and syslog logs.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut out = BTreeMap::new();
        for top in [&self.root, &self.state] {
            let mut stack = vec![top.clone()];
            while let Some(d) = stack.pop() {
                for e in fs::read_dir(&d).expect("read dir").flatten() {
                    let p = e.path();
                    let meta = fs::symlink_metadata(&p).expect("stat");
                    if meta.is_dir() {
                        stack.push(p);
                    } else if meta.is_file() {
                        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                        if name != "calls.log" && name != "logger.log" {
                            out.insert(p.clone(), fs::read(&p).expect("read"));
                        }
                    }
                }
            }
        }
        out
    }

    fn qos_state(&self, netdev: &str) -> serde_json::Value {
        let text = fs::read_to_string(self.state.join(format!("mlnx_qos.{netdev}.json")))
            .expect("mlnx_qos state");
        serde_json::from_str(&text).expect("json")
    }

    fn netdev_file(&self, netdev: &str, rel: &str) -> String {
        fs::read_to_string(self.sys().join("class/net").join(netdev).join(rel))
            .expect("sysfs file")
            .trim()
            .to_string()
    }
}

/// Asserts two snapshots are equal, naming the files that differ.
#[track_caller]
fn same_files(a: &BTreeMap<PathBuf, Vec<u8>>, b: &BTreeMap<PathBuf, Vec<u8>>, what: &str) {
    let differ: Vec<&PathBuf> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .collect();
    assert!(differ.is_empty(), "{what}: files changed: {differ:#?}");
}

struct Run(Output);

impl Run {
    fn code(&self) -> Option<i32> {
        self.0.status.code()
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }
    #[track_caller]
    fn expect(&self, code: i32) -> &Run {
        assert_eq!(
            self.code(),
            Some(code),
            "stdout:\n{}\nstderr:\n{}",
            self.stdout(),
            self.stderr()
        );
        self
    }
}

/// A host folder and a fake host with the NICs of [`NICS`].
fn setup(name: &str, branch: Branch, identity: &str) -> (PathBuf, Host) {
    let dir = scratch(name);
    let hosts = build(&dir, identity, |s| s);
    (launcher(&hosts), Host::new(&dir, branch))
}

/// The DSCP → priority map the fake NIC holds, from its `-i` output (the way an operator sees
/// it), DSCP → the priorities it is listed under.
fn shown_map(out: &str) -> BTreeMap<u8, Vec<u8>> {
    let mut m: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
    for line in out.lines() {
        let Some(rest) = line.trim().strip_prefix("prio:") else {
            continue;
        };
        let prio: u8 = rest[..1].parse().expect("prio");
        let dscps = rest.split("dscp:").nth(1).unwrap_or("");
        for d in dscps.split(',').filter(|d| !d.is_empty()) {
            m.entry(d.parse().expect("dscp")).or_default().push(prio);
        }
    }
    m
}

// ---- apply, re-apply, check ---------------------------------------------------------------

#[test]
fn apply_from_firmware_defaults_reaches_the_intent_and_reads_it_back() {
    for branch in [Branch::Ofed, Branch::Inbox] {
        let (script, host) = setup("apply", branch, BY_PCI);
        let r = host.run(&script, &[], &[]);
        r.expect(0);
        assert!(
            r.stdout()
                .contains("3 NIC(s) in the intended state (3 changed)")
        );
        for (pci, netdev, ib) in NICS {
            let q = host.qos_state(netdev);
            assert_eq!(q["pfc_en"], 0b1000, "{netdev}: PFC on priority 3 only");
            assert_eq!(q["prio_tc"], serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7]));
            assert_eq!(q["tsa"], serde_json::json!([2, 2, 2, 2, 2, 2, 0, 2]));
            assert_eq!(q["tc_bw"], serde_json::json!([40, 0, 0, 60, 0, 0, 0, 0]));
            let map = shown_map(&host.mlnx_qos(&["-i", netdev]));
            assert_eq!(map.len(), 64, "{netdev}: all 64 DSCPs mapped");
            for (d, prios) in &map {
                let want = match d {
                    26 => 3,
                    48 => 6,
                    _ => 0,
                };
                assert_eq!(prios, &vec![want], "{netdev}: DSCP {d}");
            }
            assert_eq!(host.netdev_file(netdev, "mtu"), "4200");
            let cm = |k: &str| {
                fs::read_to_string(host.state.join(format!("rdma_cm.{ib}.1.{k}"))).expect("rdma_cm")
            };
            assert_eq!(cm("mode").trim(), "RoCE v2");
            assert_eq!(cm("tos").trim(), "106");
            if branch == Branch::Ofed {
                for role in ["roce_np", "roce_rp"] {
                    for p in 0..8 {
                        // H11: every priority on, the one the firmware had off too.
                        assert_eq!(
                            host.netdev_file(netdev, &format!("ecn/{role}/enable/{p}")),
                            "1"
                        );
                    }
                }
                assert_eq!(host.netdev_file(netdev, "ecn/roce_np/cnp_dscp"), "48");
                assert_eq!(host.netdev_file(netdev, "ecn/roce_np/cnp_802p_prio"), "6");
                // H1: the global verbs traffic class (MLNX_OFED).
                let tc = fs::read_to_string(
                    host.sys()
                        .join("class/infiniband")
                        .join(ib)
                        .join("tc/1/traffic_class"),
                )
                .expect("traffic_class");
                assert_eq!(tc.trim(), "106");
            } else {
                let cc = host
                    .sys()
                    .join("kernel/debug/mlx5")
                    .join(pci)
                    .join("cc_params");
                assert_eq!(
                    fs::read_to_string(cc.join("np_cnp_dscp"))
                        .expect("cc")
                        .trim(),
                    "48"
                );
                assert_eq!(
                    fs::read_to_string(cc.join("np_cnp_prio"))
                        .expect("cc")
                        .trim(),
                    "6"
                );
            }
        }
        // One syslog line per NIC saying what was set.
        let log = fs::read_to_string(host.state.join("logger.log")).expect("logger");
        assert_eq!(log.lines().count(), 3, "{log}");
        assert!(log.contains("nic2 ens2f0np0/mlx5_3"), "{log}");
        host.run(&script, &["--check"], &[]).expect(0);
    }
}

#[test]
fn reapply_with_nothing_changed_sets_nothing_and_flaps_nothing() {
    let (script, host) = setup("reapply", Branch::Ofed, BY_PCI);
    host.run(&script, &[], &[]).expect(0);
    let flaps: Vec<serde_json::Value> = NICS
        .iter()
        .map(|n| host.qos_state(n.1)["flaps"].clone())
        .collect();
    assert!(
        flaps.iter().all(|f| f == 1),
        "one PFC change each: {flaps:?}"
    );
    let before = host.snapshot();
    host.clear_calls();
    let r = host.run(&script, &[], &[]);
    r.expect(0);
    assert!(r.stdout().contains("(0 changed)"), "{}", r.stdout());
    assert_eq!(
        host.writes(),
        Vec::<String>::new(),
        "no command that sets anything"
    );
    assert!(host.calls().contains("mlnx_qos\tREAD\t-i ens1f0np0 -a"));
    same_files(&host.snapshot(), &before, "state");
}

#[test]
fn check_is_clean_after_apply_and_names_every_drifted_setting() {
    let (script, host) = setup("check", Branch::Ofed, BY_PCI);
    host.run(&script, &["--check"], &[]).expect(1);
    host.run(&script, &[], &[]).expect(0);
    let r = host.run(&script, &["--check"], &[]);
    r.expect(0);
    assert!(
        !r.stdout().lines().any(|l| !l.starts_with('#')),
        "{}",
        r.stdout()
    );

    // Drift: NetworkManager put MTU 1500 back on nic2; someone moved DSCP 26 to priority 4
    // and turned PFC off on nic3; the firmware CNP priority reset on nic1.
    write(&host.sys().join("class/net/ens2f0np0/mtu"), "1500\n");
    host.mlnx_qos(&["-i", "ens3f0np0", "--dscp2prio", "set,26,4"]);
    host.mlnx_qos(&["-i", "ens3f0np0", "--pfc", "0,0,0,0,0,0,0,0"]);
    write(
        &host
            .sys()
            .join("class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio"),
        "0\n",
    );
    let before = host.snapshot();
    host.clear_calls();
    let r = host.run(&script, &["--check"], &[]);
    r.expect(1);
    let rows: Vec<&str> = r
        .stdout()
        .leak()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert_eq!(
        rows,
        [
            "nic1 ens1f0np0 mlx5_0 cnp_prio 6 0",
            "nic2 ens2f0np0 mlx5_3 mtu 4200 1500",
            "nic3 ens3f0np0 mlx5_4 pfc 0,0,0,1,0,0,0,0 0,0,0,0,0,0,0,0",
            "nic3 ens3f0np0 mlx5_4 dscp2prio 26:3 26:4",
        ]
    );
    assert!(
        r.stdout()
            .contains("# h1: NIC NETDEV RDMA SETTING EXPECTED ACTUAL")
    );
    assert_eq!(
        host.writes(),
        Vec::<String>::new(),
        "--check changes nothing"
    );
    same_files(&host.snapshot(), &before, "state");

    // Apply fixes exactly those, and only those.
    host.clear_calls();
    host.run(&script, &[], &[]).expect(0);
    let writes = host.writes();
    // The file writes (nic1's CNP priority) are the script's own `echo`, not a tool call.
    assert_eq!(writes.len(), 3, "{writes:#?}");
    assert_eq!(
        host.netdev_file("ens1f0np0", "ecn/roce_np/cnp_802p_prio"),
        "6"
    );
    assert!(
        writes
            .iter()
            .any(|w| w.starts_with("ip\tWRITE\tlink set dev ens2f0np0 mtu 4200"))
    );
    assert!(
        writes
            .iter()
            .any(|w| w.contains("-i ens3f0np0 --pfc 0,0,0,1,0,0,0,0"))
    );
    host.run(&script, &["--check"], &[]).expect(0);
}

// ---- H2: the DSCP map is absolute -----------------------------------------------------------

/// DSCP 26 → priority 4, then back to 3: no entry of the first map survives, on the netlink
/// backend (mlx5's DCB app table) and on the MLNX_OFED sysfs backend (`qos/dscp2prio`).
#[test]
fn a_changed_fabric_leaves_no_stale_dscp_entry() {
    for sysfs in [false, true] {
        let dir = scratch("h2");
        let host = Host::new(&dir, Branch::Ofed);
        if sysfs {
            for (_, netdev, _) in NICS {
                write(
                    &host.sys().join("class/net").join(netdev).join("qos/trust"),
                    "pcp\n",
                );
            }
        }
        let to4 = |s: String| {
            s.replace(
                "class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 10%  bandwidth 60% }",
                "class roce { dscp 26  priority 4  lossless  ecn min 150KB max 1500KB probability 10%  bandwidth 60% }",
            )
        };
        let script4 = launcher(&build(&dir.join("a"), BY_PCI, to4));
        let script3 = launcher(&build(&dir.join("b"), BY_PCI, |s| s));
        host.run(&script4, &[], &[]).expect(0);
        let map = shown_map(&host.mlnx_qos(&["-i", "ens1f0np0"]));
        assert_eq!(map[&26], vec![4], "sysfs={sysfs}");
        let r = host.run(&script3, &["--check"], &[]);
        r.expect(1);
        assert!(
            r.stdout()
                .contains("nic1 ens1f0np0 mlx5_0 dscp2prio 26:3 26:4"),
            "{}",
            r.stdout()
        );
        host.run(&script3, &[], &[]).expect(0);
        for (_, netdev, _) in NICS {
            let map = shown_map(&host.mlnx_qos(&["-i", netdev]));
            assert_eq!(map.len(), 64);
            assert_eq!(map[&26], vec![3], "sysfs={sysfs}: no stale 26 -> 4");
            assert!(
                map.iter()
                    .all(|(d, p)| *d == 26 || *d == 48 || p == &vec![0])
            );
            if !sysfs {
                let apps = host.qos_state(netdev)["apps"].clone();
                assert_eq!(apps.as_array().map(Vec::len), Some(64), "{apps}");
            }
        }
        host.run(&script3, &["--check"], &[]).expect(0);
    }
}

// ---- dry run and preflight ------------------------------------------------------------------

#[test]
fn dry_run_prints_the_branch_and_commands_and_changes_nothing() {
    for (branch, name) in [(Branch::Ofed, "MLNX_OFED"), (Branch::Inbox, "inbox")] {
        let (script, host) = setup("dry", branch, BY_PCI);
        let before = host.snapshot();
        let r = host.run(&script, &["--dry-run"], &[]);
        r.expect(0);
        let out = r.stdout();
        assert!(
            out.contains(&format!(
                "# nic2 ens2f0np0 mlx5_3 0000:0d:00.0 driver {name}"
            )),
            "{out}"
        );
        assert!(
            out.contains("mlnx_qos -i ens2f0np0 --pfc 0,0,0,1,0,0,0,0"),
            "{out}"
        );
        if branch == Branch::Inbox {
            assert!(
                out.contains("echo 6 > /sys/kernel/debug/mlx5/0000:0d:00.0/cc_params/np_cnp_prio"),
                "{out}"
            );
        } else {
            assert!(
                out.contains("echo 106 > /sys/class/infiniband/mlx5_3/tc/1/traffic_class"),
                "{out}"
            );
        }
        assert!(out.contains("nothing was changed"));
        assert_eq!(host.writes(), Vec::<String>::new());
        same_files(&host.snapshot(), &before, "state");
    }
}

/// H7, H8: a NIC missing or mispaired fails the preflight — exit 3, in every mode that would
/// change something — and no state of any NIC changed, not even of the ones that passed.
#[test]
fn preflight_failure_changes_nothing() {
    type Break = fn(&Host);
    let cases: [(&str, Break, &str); 5] = [
        (
            "third NIC missing",
            |h| {
                fs::remove_file(h.sys().join("bus/pci/devices/0000:0e:00.0")).expect("rm");
            },
            "nic3: PCI device 0000:0e:00.0 not found",
        ),
        (
            "netdev and RDMA device on two PCI functions",
            |h| {
                let ib = h
                    .sys()
                    .join("devices/pci0000:00/0000:0e:00.0/infiniband/mlx5_4/device");
                fs::remove_file(&ib).expect("rm");
                symlink("../../../0000:0c:00.0", ib).expect("symlink");
            },
            "nic3: ens3f0np0 and mlx5_4 are not the same PCI function",
        ),
        (
            "configfs rdma_cm missing",
            |h| fs::remove_dir(h.sys().join("kernel/config/rdma_cm")).expect("rm"),
            "rdma_cm not found",
        ),
        (
            "a tool missing",
            |h| write(&h.state.join("no-tools"), ""),
            "cma_roce_tos not found",
        ),
        (
            "MTU above the netdev's maximum",
            |h| write(&h.state.join("maxmtu.ens3f0np0"), "1500\n"),
            "nic3: ens3f0np0 allows MTU up to 1500",
        ),
    ];
    for (what, brk, message) in cases {
        let (script, host) = setup("preflight", Branch::Ofed, BY_PCI);
        brk(&host);
        let mut env: Vec<(&str, &str)> = Vec::new();
        let fakes_only;
        if host.state.join("no-tools").exists() {
            // A PATH with every fake but cma_roce_tos (and the system tools).
            let dir = host.state.join("bin");
            fs::create_dir_all(&dir).expect("mkdir");
            for e in fs::read_dir(root().join("tests/host_fakes"))
                .expect("fakes")
                .flatten()
            {
                let name = e.file_name();
                if name != "cma_roce_tos" {
                    symlink(e.path(), dir.join(&name)).expect("symlink");
                }
            }
            fakes_only = format!("{}:/usr/bin:/bin", dir.display());
            env.push(("PATH", &fakes_only));
        }
        let before = host.snapshot();
        // Every mode for the first case; apply and dry run for the others.
        let modes: &[&[&str]] = if what == "third NIC missing" {
            &[&[], &["--dry-run"], &["--check"], &["--force"]]
        } else {
            &[&[], &["--dry-run"]]
        };
        for &mode in modes {
            host.clear_calls();
            let r = if env.is_empty() {
                host.run(&script, mode, &[])
            } else {
                run_with_path(&host, &script, mode, env[0].1)
            };
            r.expect(3);
            assert!(r.stderr().contains(message), "{what}: {}", r.stderr());
            assert_eq!(host.writes(), Vec::<String>::new(), "{what} {mode:?}");
            same_files(
                &host.snapshot(),
                &before,
                &format!("{what} {mode:?}: nothing changed"),
            );
        }
    }
}

fn run_with_path(host: &Host, script: &Path, args: &[&str], path: &str) -> Run {
    let o = Command::new("bash")
        .arg(script)
        .args(args)
        .env("PATH", path)
        .env("FABRICC_SYSROOT", &host.root)
        .env("FAKE_STATE", &host.state)
        .output()
        .expect("bash runs");
    Run(o)
}

#[test]
fn not_root_is_a_preflight_failure() {
    let (script, host) = setup("root", Branch::Ofed, BY_PCI);
    let before = host.snapshot();
    for mode in [&[][..], &["--dry-run"], &["--check"], &["--collect"]] {
        let r = host.run(&script, mode, &[("FAKE_UID", "1000")]);
        r.expect(3);
        assert!(r.stderr().contains("run as root"), "{}", r.stderr());
    }
    same_files(&host.snapshot(), &before, "state");
    // --collect still prints the NICs, with nothing read.
    let r = host.run(&script, &["--collect"], &[("FAKE_UID", "1000")]);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout()).expect("JSON");
    assert_eq!(doc["problems"], 1);
    assert_eq!(doc["nics"][0]["declared"]["pci"], "0000:0c:00.0");
    assert_eq!(doc["nics"][0]["state"], serde_json::Value::Null);
    assert_eq!(host.run(&script, &["--bogus"], &[]).code(), Some(2));
    assert_eq!(
        host.run(&script, &["--check", "--collect"], &[]).code(),
        Some(2)
    );
}

/// The pending record a busy run leaves (H15), relative to the fake root.
const PENDING: &str = "run/fabricc/roce.pending";

/// H5, H15: a NIC that needs a change (which may flap its link) is refused while user RDMA
/// queue pairs are active, unless --force; a NIC with nothing to change is not. The refusal is
/// exit 4, not the unit's retried 3; it records the pending change, which --check shows.
#[test]
fn active_rdma_traffic_refuses_changes_unless_forced() {
    let (script, host) = setup("qps", Branch::Ofed, BY_PCI);
    write(&host.state.join("qps.mlx5_3"), "4\n");
    let before = host.snapshot();
    let r = host.run(&script, &[], &[]);
    r.expect(4);
    assert!(
        r.stderr().contains(
            "busy: nic2 ens2f0np0 needs changes (may flap the link) and has 4 active RDMA queue pair(s)"
        ),
        "{}",
        r.stderr()
    );
    assert!(r.stderr().contains("--when-idle"), "{}", r.stderr());
    assert!(host.writes().is_empty(), "{:#?}", host.writes());
    // Nothing changed but the pending record.
    let pending = host.root.join(PENDING);
    let record = fs::read_to_string(&pending).expect("pending record");
    assert!(
        record.contains("nic2 ens2f0np0 mlx5_3: has 4 active RDMA queue pair(s); differs in: mtu"),
        "{record}"
    );
    let mut after = host.snapshot();
    after.remove(&pending);
    same_files(&after, &before, "state");
    // --check shows the pending change; dry-run says a real run would refuse.
    let c = host.run(&script, &["--check"], &[]);
    c.expect(1);
    assert!(
        c.stdout().contains(
            "# pending: changed intent not applied, NIC busy (/run/fabricc/roce.pending)"
        ),
        "{}",
        c.stdout()
    );
    assert!(
        c.stdout()
            .contains("#   nic2 ens2f0np0 mlx5_3: has 4 active")
    );
    // --collect carries the pending change too (verify and jq read it, not only --check).
    let j: serde_json::Value =
        serde_json::from_str(&host.run(&script, &["--collect"], &[]).expect(0).stdout())
            .expect("collect JSON");
    assert_eq!(j["pending"]["file"], "/run/fabricc/roce.pending", "{j}");
    assert!(j["pending"]["recorded"].is_string(), "{j}");
    let waiting: Vec<&str> = record.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(j["pending"]["nics"], serde_json::json!(waiting), "{j}");
    assert_eq!(waiting.len(), 1, "{record}");
    let d = host.run(&script, &["--dry-run"], &[]);
    d.expect(4);
    assert!(
        d.stdout().contains("a real run would refuse (exit 4)"),
        "{}",
        d.stdout()
    );
    assert_eq!(
        host.run(&script, &["--force", "--when-idle"], &[]).code(),
        Some(2)
    );
    host.run(&script, &["--force"], &[]).expect(0);
    assert!(
        !pending.exists(),
        "a run that reaches the intent removes the record"
    );
    let j: serde_json::Value =
        serde_json::from_str(&host.run(&script, &["--collect"], &[]).expect(0).stdout())
            .expect("collect JSON");
    assert!(j["pending"].is_null(), "{j}");
    assert!(
        !host
            .run(&script, &["--check"], &[])
            .expect(0)
            .stdout()
            .contains("pending")
    );
    // In the intended state, traffic does not stop a re-run.
    host.run(&script, &[], &[]).expect(0);
}

/// H15: --when-idle waits (bounded) for the busy NIC's queue pairs to reach zero, then applies;
/// when they do not within the time given, it gives up with exit 4 and changes nothing.
#[test]
fn when_idle_applies_once_the_queue_pairs_are_gone() {
    let (script, host) = setup("idle", Branch::Ofed, BY_PCI);
    write(&host.state.join("qps.mlx5_3"), "3\n");
    let poll = [("FABRICC_IDLE_POLL", "0")];
    // No job ends: one second of polling, then exit 4, nothing set.
    let r = host.run(&script, &["--when-idle=1"], &poll);
    r.expect(4);
    assert!(
        r.stderr().contains("waiting up to 1s for 1 busy NIC(s)"),
        "{}",
        r.stderr()
    );
    assert!(host.writes().is_empty(), "{:#?}", host.writes());
    assert!(host.root.join(PENDING).exists());
    // The job ends (one QP fewer per count): the run applies once the count is 0.
    write(&host.state.join("qps.mlx5_3.drain"), "");
    host.clear_calls();
    let r = host.run(&script, &["--when-idle=60"], &poll);
    r.expect(0);
    assert!(
        r.stdout()
            .contains("3 NIC(s) in the intended state (3 changed)"),
        "{}",
        r.stdout()
    );
    assert_eq!(
        fs::read_to_string(host.state.join("qps.mlx5_3"))
            .unwrap()
            .trim(),
        "0"
    );
    // It applied only after the count it saw was 0: the last rdma read of mlx5_3 comes before
    // the first write.
    let calls = host.calls();
    let lines: Vec<&str> = calls.lines().collect();
    let first_write = lines
        .iter()
        .position(|l| l.contains("\tWRITE\t"))
        .expect("writes");
    let counted = lines[..first_write]
        .iter()
        .filter(|l| l.starts_with("rdma\t") && l.contains("mlx5_3/1"))
        .count();
    assert!(
        counted >= 4,
        "counted 3, 2, 1, then 0 before the first write: {calls}"
    );
    assert!(!host.root.join(PENDING).exists());
    assert_eq!(host.run(&script, &["--when-idle=x"], &[]).code(), Some(2));
}

/// H14: the QP guard fails closed. When `rdma res` fails, or `rdma` is not installed, the
/// queue pairs cannot be counted, so a NIC that needs a change counts as busy (exit 4, nothing
/// changed, the message says why); --check still works, and --force still applies.
#[test]
fn an_uncountable_nic_counts_as_busy() {
    let (script, host) = setup("rdma-fail", Branch::Ofed, BY_PCI);
    write(&host.state.join("rdma.fail"), "");
    let r = host.run(&script, &[], &[]);
    r.expect(4);
    assert!(
        r.stderr().contains(
            "busy: nic1 ens1f0np0 needs changes (may flap the link) and its RDMA queue pairs cannot be counted (`rdma res show qp link mlx5_0/1` failed: Object \"res\" is unknown"
        ),
        "{}",
        r.stderr()
    );
    assert!(host.writes().is_empty(), "{:#?}", host.writes());
    host.run(&script, &["--check"], &[]).expect(1);
    let doc: serde_json::Value =
        serde_json::from_str(&host.run(&script, &["--collect"], &[]).expect(0).stdout())
            .expect("JSON");
    assert_eq!(doc["nics"][0]["state"]["qps"], serde_json::Value::Null);
    host.run(&script, &["--force"], &[]).expect(0);
    // In the intended state nothing needs the count.
    host.run(&script, &[], &[]).expect(0);

    // `rdma` not installed: a PATH with the fakes but no rdma, and every system tool but rdma.
    let (script, host) = setup("rdma-missing", Branch::Ofed, BY_PCI);
    let bin = host.state.join("bin");
    fs::create_dir_all(&bin).expect("mkdir");
    let fakes = root().join("tests/host_fakes");
    let dirs = [
        fakes,
        crate::support::python_dir().to_path_buf(),
        "/usr/bin".into(),
        "/bin".into(),
        "/usr/sbin".into(),
        "/sbin".into(),
    ];
    for d in &dirs {
        for e in fs::read_dir(d).into_iter().flatten().flatten() {
            let name = e.file_name();
            if name != "rdma" && !bin.join(&name).exists() {
                let _ = symlink(e.path(), bin.join(&name));
            }
        }
    }
    let path = bin.display().to_string();
    let r = run_with_path(&host, &script, &[], &path);
    r.expect(4);
    assert!(
        r.stderr()
            .contains("its RDMA queue pairs cannot be counted (rdma (iproute2) not found in PATH)"),
        "{}",
        r.stderr()
    );
    run_with_path(&host, &script, &["--check"], &path).expect(1);
    run_with_path(&host, &script, &["--force"], &path).expect(0);
}

/// Issue 36 item 2: the host's settings are data. A tampered line (a command substitution, a
/// statement separator, an unknown key, a value of the wrong form, another driver's settings,
/// a bad NIC field, a missing key, no file) stops the program with exit 3 before it runs any
/// tool, and nothing in the file is ever executed.
#[test]
fn tampered_settings_are_refused_and_never_run() {
    let (script, host) = setup("tamper", Branch::Ofed, BY_PCI);
    let conf = script.with_file_name("fabricc-roce.conf");
    let good = fs::read_to_string(&conf).expect("settings");
    let canary = host.state.join("pwned");
    let c = canary.display();
    let cases: Vec<(String, &str)> = vec![
        (format!("E_MTU=$(touch {c})"), "a character outside"),
        (format!("E_MTU=4200; touch {c}"), "a character outside"),
        (format!("E_TOS=`touch {c}`"), "a character outside"),
        ("PATH=/tmp".into(), "a character outside"),
        ("BASH_ENV=x".into(), "unknown key BASH_ENV"),
        (
            "E_MTU=4200 9000".into(),
            "E_MTU=4200 9000 is not of the form",
        ),
        ("E_PFC=0,0,0,1".into(), "E_PFC=0,0,0,1 is not of the form"),
        ("DRIVER=bnxt".into(), "settings for driver bnxt"),
        (
            "NIC=4 pci=0000:0f:00.0 port=3 peer=L1.port4".into(),
            "nic4: bad field port=3",
        ),
        ("NIC=1 pci=0000:0c:00.0".into(), "nic1 is listed twice"),
        ("E_TOS".into(), "not KEY=value"),
    ];
    for (line, message) in cases {
        let key = line.split('=').next().unwrap_or("");
        let text = if key != "NIC" && good.contains(&format!("\n{key}=")) {
            good.lines()
                .map(|l| {
                    if l.starts_with(&format!("{key}=")) {
                        line.as_str()
                    } else {
                        l
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        } else {
            format!("{good}{line}\n")
        };
        fs::write(&conf, text).expect("write settings");
        host.clear_calls();
        for mode in [&[][..], &["--check"], &["--collect"]] {
            let r = host.run(&script, mode, &[]);
            r.expect(3);
            assert!(r.stderr().contains(message), "{line}: {}", r.stderr());
        }
        assert!(host.calls().is_empty(), "{line}: {}", host.calls());
        assert!(!canary.exists(), "{line}: the settings ran code");
    }
    let without_tos: String = good
        .lines()
        .filter(|l| !l.starts_with("E_TOS="))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&conf, without_tos).expect("write settings");
    let r = host.run(&script, &[], &[]);
    r.expect(3);
    assert!(r.stderr().contains("E_TOS=(missing)"), "{}", r.stderr());
    fs::remove_file(&conf).expect("rm");
    let r = host.run(&script, &[], &[]);
    r.expect(3);
    assert!(
        r.stderr().contains("not found or not readable"),
        "{}",
        r.stderr()
    );
    assert!(host.calls().is_empty());
    fs::write(&conf, &good).expect("write settings");
    host.run(&script, &[], &[]).expect(0);
}

#[test]
fn a_second_run_waits_for_the_lock() {
    let (script, host) = setup("lock", Branch::Ofed, BY_PCI);
    write(&host.state.join("lock.busy"), "");
    let r = host.run(&script, &[], &[]);
    r.expect(3);
    assert!(
        r.stderr()
            .contains("another run holds /run/lock/fabricc-roce.lock")
    );
    assert!(host.calls().contains("flock\tREAD\t-w 60 9"));
}

// ---- H4: identity ----------------------------------------------------------------------------

#[test]
fn identity_by_netdev_and_rdma_device_is_cross_checked() {
    let dir = scratch("ident");
    let host = Host::new(&dir, Branch::Ofed);
    // Declared as the fabric knows them: nic2's pair is right, then swapped.
    let good = build(
        &dir.join("good"),
        "netdev ens1f0np0, ens2f0np0, ens3f0np0  rdma-device mlx5_0, mlx5_3, mlx5_4",
        |s| s,
    );
    host.run(&launcher(&good), &[], &[]).expect(0);
    let env = fs::read_to_string(good.join("nccl.env")).expect("nccl.env");
    assert!(
        env.contains("\nNCCL_IB_HCA==mlx5_0:1,mlx5_3:1,mlx5_4:1\n"),
        "{env}"
    );
    let swapped = build(
        &dir.join("swapped"),
        "netdev ens1f0np0, ens2f0np0, ens3f0np0  rdma-device mlx5_0, mlx5_4, mlx5_3",
        |s| s,
    );
    let r = host.run(&launcher(&swapped), &["--check"], &[]);
    r.expect(3);
    assert!(
        r.stderr()
            .contains("nic2: the fabric says netdev ens2f0np0, but mlx5_4 is ens3f0np0"),
        "{}",
        r.stderr()
    );
}

/// With no identity the script assumes mlx5_<i>: on this host nic2's guess, mlx5_1, does not
/// exist, and the failure says what to declare.
#[test]
fn guessed_identity_fails_closed_with_advice() {
    let (script, host) = setup("guess", Branch::Ofed, "");
    let r = host.run(&script, &["--dry-run"], &[]);
    r.expect(3);
    assert!(
        r.stderr().contains("nic2: RDMA device mlx5_1 not found"),
        "{}",
        r.stderr()
    );
    assert!(
        r.stderr().contains("declare pci, netdev or rdma-device"),
        "{}",
        r.stderr()
    );
    let text = fs::read_to_string(script.with_file_name("fabricc-roce.conf")).expect("settings");
    assert!(text.contains("WARNING: no identity is declared"), "{text}");
    assert!(
        text.contains("NIC=2 rdma-device=mlx5_1 guessed=1 port=1"),
        "{text}"
    );
}

#[test]
fn vfs_and_representors_are_refused() {
    let (script, host) = setup("vf", Branch::Ofed, BY_PCI);
    // A switchdev VF representor shares the PF's PCI function: it is skipped, the uplink kept.
    let dev = host.sys().join("devices/pci0000:00/0000:0c:00.0");
    fs::create_dir_all(dev.join("net/pf0vf0rep")).expect("mkdir");
    write(&dev.join("net/pf0vf0rep/phys_port_name"), "pf0vf0\n");
    symlink(
        "../../devices/pci0000:00/0000:0c:00.0/net/pf0vf0rep",
        host.sys().join("class/net/pf0vf0rep"),
    )
    .expect("symlink");
    host.run(&script, &["--dry-run"], &[]).expect(0);
    // Declared by netdev, the representor is refused.
    let dir = scratch("vf-netdev");
    let by_netdev = build(&dir, "netdev pf0vf0rep, ens2f0np0, ens3f0np0", |s| s);
    let r = host.run(&launcher(&by_netdev), &["--dry-run"], &[]);
    r.expect(3);
    assert!(
        r.stderr()
            .contains("network interface pf0vf0rep has no single RDMA device")
            || r.stderr().contains("switchdev representor"),
        "{}",
        r.stderr()
    );
    // A VF (its PCI function has a physfn) is refused.
    symlink("../0000:0d:00.0", dev.join("physfn")).expect("symlink");
    let r = host.run(&script, &["--dry-run"], &[]);
    r.expect(3);
    assert!(
        r.stderr().contains("nic1: ens1f0np0 is a virtual function"),
        "{}",
        r.stderr()
    );
}

// ---- inbox driver: debugfs, lockdown, firmware (H9) --------------------------------------------

#[test]
fn inbox_under_lockdown_needs_the_firmware_cnp_settings() {
    let (script, host) = setup("lockdown", Branch::Inbox, BY_PCI);
    write(
        &host.sys().join("kernel/security/lockdown"),
        "none [integrity] confidentiality\n",
    );
    let r = host.run(&script, &[], &[]);
    r.expect(3);
    assert!(
        r.stderr()
            .contains("kernel lockdown (integrity) blocks debugfs"),
        "{}",
        r.stderr()
    );
    assert!(
        r.stderr()
            .contains("mlxconfig -d 0000:0c:00.0 set CNP_DSCP_P1=48 CNP_802P_PRIO_P1=6"),
        "{}",
        r.stderr()
    );
    // The NV values in place (and DCQCN on priority 3 in the mask): the CNP comes from the
    // firmware, the rest is applied.
    for (pci, _, _) in NICS {
        write(
            &host.state.join(format!("mlxconfig.{pci}")),
            "ROCE_CC_PRIO_MASK_P1=255\nCNP_DSCP_P1=48\nCNP_802P_PRIO_P1=6\n",
        );
    }
    host.run(&script, &[], &[]).expect(0);
    host.run(&script, &["--check"], &[]).expect(0);
    // A mask without priority 3 is drift the script cannot fix: it says how, and exits 1.
    write(
        &host.state.join("mlxconfig.0000:0d:00.0"),
        "ROCE_CC_PRIO_MASK_P1=16\nCNP_DSCP_P1=48\nCNP_802P_PRIO_P1=6\n",
    );
    let r = host.run(&script, &["--check"], &[]);
    r.expect(1);
    assert!(
        r.stdout().contains("nic2 ens2f0np0 mlx5_3 nv_cc_mask 8 16"),
        "{}",
        r.stdout()
    );
    let r = host.run(&script, &[], &[]);
    r.expect(1);
    assert!(
        r.stderr()
            .contains("mlxconfig -d 0000:0d:00.0 set ROCE_CC_PRIO_MASK_P1=255"),
        "{}",
        r.stderr()
    );
    assert!(
        !host.calls().contains("mlxconfig\tWRITE"),
        "firmware is never written"
    );
}

// ---- --collect ---------------------------------------------------------------------------------

#[test]
fn collect_prints_the_state_as_json() {
    let (script, host) = setup("collect", Branch::Ofed, BY_PCI);
    host.run(&script, &[], &[]).expect(0);
    let r = host.run(&script, &["--collect"], &[]);
    r.expect(0);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout()).expect("JSON");
    assert_eq!(doc["schema"], "fabricc-host-state/1");
    assert_eq!(doc["host"], "h1");
    let nic2 = &doc["nics"][1];
    assert_eq!(nic2["nic"], "nic2");
    assert_eq!(nic2["peer"], "L1.port2");
    assert_eq!(nic2["declared"]["pci"], "0000:0d:00.0");
    assert_eq!(nic2["declared"]["netdev"], serde_json::Value::Null);
    assert_eq!(nic2["netdev"], "ens2f0np0");
    assert_eq!(nic2["rdma_device"], "mlx5_3");
    assert_eq!(nic2["branch"], "ofed");
    let st = &nic2["state"];
    assert_eq!(st["mtu"], 4200);
    assert_eq!(st["trust"], "dscp");
    assert_eq!(st["pfc"], serde_json::json!([0, 0, 0, 1, 0, 0, 0, 0]));
    assert_eq!(
        st["tsa"],
        serde_json::json!(["ets", "ets", "ets", "ets", "ets", "ets", "strict", "ets"])
    );
    assert_eq!(st["dscp2prio"][26], 3);
    assert_eq!(st["dscp2prio"].as_array().map(Vec::len), Some(64));
    assert_eq!(st["roce_mode"], 2);
    assert_eq!(st["roce_tos"], 106);
    assert_eq!(st["traffic_class"], 106);
    assert_eq!(st["ecn_np"], serde_json::json!([1, 1, 1, 1, 1, 1, 1, 1]));
    assert_eq!(st["cnp_dscp"], 48);
    assert_eq!(st["cnp_prio"], 6);
    assert_eq!(
        st["buffer_size"],
        serde_json::json!([130944, 130944, 0, 0, 0, 0, 0, 0])
    );
    assert_eq!(st["qps"], 0);
    assert_eq!(doc["problems"], 0);
    // A NIC gone: JSON still, with that NIC's state null, and exit 3.
    fs::remove_file(host.sys().join("bus/pci/devices/0000:0e:00.0")).expect("rm");
    let r = host.run(&script, &["--collect"], &[]);
    r.expect(3);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout()).expect("JSON");
    assert_eq!(doc["nics"][2]["state"], serde_json::Value::Null);
    assert_eq!(doc["nics"][1]["state"]["mtu"], 4200);
    assert_eq!(doc["problems"], 1);
}

// ---- convergence (issue 33 item 1, for hosts) --------------------------------------------------

/// A fake host's whole state, keyed by path below its root or state folder, with the fake
/// mlx5's link-flap counter (history, not state) set to 0.
fn state_of(host: &Host) -> BTreeMap<String, Vec<u8>> {
    host.snapshot()
        .into_iter()
        .map(|(p, bytes)| {
            let key = p
                .strip_prefix(&host.root)
                .map(|r| format!("root/{}", r.display()))
                .or_else(|_| {
                    p.strip_prefix(&host.state)
                        .map(|r| format!("state/{}", r.display()))
                })
                .expect("below the host");
            let bytes = if key.starts_with("state/mlnx_qos.") && key.ends_with(".json") {
                let mut v: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
                v["flaps"] = serde_json::json!(0);
                serde_json::to_vec(&v).expect("json")
            } else {
                bytes
            };
            (key, bytes)
        })
        .collect()
}

/// The convergence contract for hosts: applying build N+1's settings to a host that runs build
/// N's leaves exactly the state a fresh apply of N+1 to the firmware defaults leaves (the fake
/// mlx5 and sysfs state, whole), for every ordered pair of five fabrics that differ by one
/// change each (DSCP move, priority move, ETS share and CNP DSCP, a class added: from and to
/// the base, and two changes in a row); and a NIC
/// the fabric does not list keeps the QoS someone else gave it. The fakes are the apply model:
/// `tests/host_fakes/README.md` gives the driver source each rule follows.
#[test]
fn every_settings_change_converges_to_a_fresh_apply() {
    type Edit = fn(String) -> String;
    let variants: [(&str, Edit); 5] = [
        ("base", |s| s),
        ("dscp-move", |s| {
            s.replace("class roce { dscp 26 ", "class roce { dscp 24 ")
        }),
        ("priority-move", |s| {
            s.replace("dscp 26  priority 3", "dscp 26  priority 4")
        }),
        ("ets-and-cnp", |s| {
            s.replace("bandwidth 60%", "bandwidth 70%")
                .replace("bandwidth 40%", "bandwidth 30%")
                .replace("class cnp  { dscp 48", "class cnp  { dscp 46")
        }),
        ("class-added", |s| {
            s.replace("bandwidth 60%", "bandwidth 50%")
                .replace("bandwidth 40%", "bandwidth 30%")
                .replace(
                    "  class bulk",
                    "  class storage { dscp 34  priority 4  lossless  bandwidth 20% }\n  class bulk",
                )
        }),
    ];
    let dir = scratch("converge");
    let launchers: Vec<PathBuf> = variants
        .iter()
        .map(|(name, edit)| launcher(&build(&dir.join(name), BY_PCI, edit)))
        .collect();
    // A fake host with a fourth NIC the fabric does not list, given QoS of its own.
    let seeded = |name: &str| {
        let host = Host::new(&scratch(name), Branch::Ofed);
        host.add_nic("0000:0f:00.0", "ens4f0np0", "mlx5_5", Branch::Ofed);
        host.mlnx_qos(&["-i", "ens4f0np0", "--trust", "dscp"]);
        host.mlnx_qos(&["-i", "ens4f0np0", "--pfc", "0,1,0,0,0,0,0,0"]);
        host
    };
    let foreign = |h: &Host| h.qos_state("ens4f0np0");
    // Each build applied to a seeded host: the fresh states, and the hosts that run build N
    // (a pair starts from a copy of N's host, not from a second identical apply of N).
    let mut before = None;
    let fresh_hosts: Vec<Host> = launchers
        .iter()
        .map(|l| {
            let h = seeded("converge-fresh");
            let seeded_foreign = foreign(&h);
            h.run(l, &[], &[]).expect(0);
            assert_eq!(foreign(&h), seeded_foreign, "the foreign NIC is untouched");
            before = Some(seeded_foreign);
            h
        })
        .collect();
    let before = before.expect("five builds");
    let fresh: Vec<BTreeMap<String, Vec<u8>>> = fresh_hosts.iter().map(state_of).collect();
    let mut pairs = 0;
    for (i, older) in fresh_hosts.iter().enumerate() {
        for (j, newer) in launchers.iter().enumerate() {
            // From and to the base fabric, and two changes in a row: every kind of change in
            // both directions (all 20 ordered pairs take minutes on the python fakes).
            if i == j || !(i == 0 || j == 0 || (i, j) == (1, 2) || (i, j) == (4, 3)) {
                continue;
            }
            let h = older.copy_to(&scratch("converge-pair"));
            h.run(newer, &[], &[]).expect(0);
            assert_eq!(
                foreign(&h),
                before,
                "{} -> {}: foreign NIC",
                variants[i].0,
                variants[j].0
            );
            let got = state_of(&h);
            let differ: Vec<&String> = got
                .keys()
                .chain(fresh[j].keys())
                .filter(|k| got.get(*k) != fresh[j].get(*k))
                .collect();
            assert!(
                differ.is_empty(),
                "{} -> {}: differs from a fresh apply of {}: {differ:#?}",
                variants[i].0,
                variants[j].0,
                variants[j].0
            );
            pairs += 1;
        }
    }
    assert_eq!(pairs, 10);
}

// ---- the commands themselves -------------------------------------------------------------------

/// Every `mlnx_qos` call a full apply made (from firmware defaults, on both branches) is one
/// the real tool's option grammar accepts (Mellanox/mlnx-tools@8fbfd9cfff34:python/mlnx_qos,
/// modelled by `parse_mlnx_qos`), and the fake — built on the same `optparse` table —
/// accepted it too (the apply exited 0).
#[test]
fn every_mlnx_qos_call_is_accepted_by_the_real_grammar() {
    let (script, host) = setup("grammar", Branch::Ofed, BY_PCI);
    host.run(&script, &[], &[]).expect(0);
    let calls = host.calls();
    let mut options = std::collections::BTreeSet::new();
    for line in calls.lines().filter(|l| l.starts_with("mlnx_qos\t")) {
        let args: Vec<String> = line
            .split('\t')
            .nth(2)
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let parsed = parse_mlnx_qos(&args).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        options.extend(parsed.keys().copied());
    }
    assert_eq!(
        options.into_iter().collect::<Vec<_>>(),
        [
            "--dscp2prio",
            "--interface",
            "--pfc",
            "--prio_tc",
            "--tcbw",
            "--trust",
            "--tsa",
            "-a"
        ]
    );
}

/// The table of the option forms the script emits, each run through the fake (the real
/// tool's `optparse` option table): accepted, exit 0.
#[test]
fn each_emitted_option_form_is_accepted_by_the_tool() {
    let dir = scratch("forms");
    let host = Host::new(&dir, Branch::Ofed);
    let sets: Vec<String> = (0..64).map(|d| format!("--dscp2prio set,{d},0")).collect();
    let table: Vec<Vec<String>> = vec![
        vec!["-i".into(), "ens1f0np0".into(), "-a".into()],
        vec!["-i".into(), "ens1f0np0".into(), "--trust".into(), "dscp".into()],
        std::iter::once("-i ens1f0np0".to_string())
            .chain(sets)
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        vec!["-i".into(), "ens1f0np0".into(), "--pfc".into(), "0,0,0,1,0,0,0,0".into()],
        "-i ens1f0np0 --prio_tc 0,1,2,3,4,5,6,7 --tsa ets,ets,ets,ets,ets,ets,strict,ets --tcbw 40,0,0,60,0,0,0,0"
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    ];
    for args in table {
        assert!(parse_mlnx_qos(&args).is_ok(), "{args:?}");
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        host.mlnx_qos(&refs);
    }
}

#[test]
fn generated_files_pass_bash_n_and_shellcheck() {
    let (launcher, _) = setup("lint", Branch::Ofed, BY_PCI);
    let script = launcher
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .expect("output folder")
        .join("programs/host/mlnx_qos.sh");
    let o = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    if let Some(o) = crate::support::shellcheck(&script) {
        assert!(
            o.status.success(),
            "shellcheck:\n{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
}

// ---- bond.sh (issue 18): `bond active-backup` on a dual-port NIC (no switch side: no FAB127) ------------------------------------

const BOND_FABRIC: &str = r#"fabric t {
  class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB probability 10%  bandwidth 60% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 40% }
  switch-model s64 { platform nvidia-sn5400  os sonic }
  nic-model cx7-2p { driver mlx5  ports 2 x 400G }
  switch L1, L2 { model s64  tier 1 }
  host h1 { nic cx7-2p  bond active-backup  pci 0c:00.0, 0c:00.1 }
  link h1.nic1.port1 -- L1 { cable 2m }
  link h1.nic1.port2 -- L2 { cable 2m }
}
"#;

/// The bond program run with the host's settings (issue 36): a launcher in the host's folder,
/// `out/hosts/h1/run-bond.sh`, that runs `out/programs/host/bond.sh --settings
/// out/hosts/h1/fabricc-roce.conf`.
fn bond_launcher(hosts: &Path) -> PathBuf {
    let out = hosts
        .parent()
        .and_then(Path::parent)
        .expect("output folder");
    let l = hosts.join("run-bond.sh");
    fs::write(
        &l,
        format!(
            "exec \"$BASH\" '{}' --settings '{}' \"$@\"\n",
            out.join("programs/host/bond.sh").display(),
            hosts.join("fabricc-roce.conf").display()
        ),
    )
    .expect("launcher");
    l
}

/// `bond.sh` creates `bond1` in mode active-backup over the NIC's two ports, found by PCI address;
/// `--check` lists the drift before and none after; `--dry-run` and a second run set nothing.
/// It is one program for every host (`programs/host/bond.sh`, issue 36) that reads the host's
/// `BOND=` line from its settings.
#[test]
fn bond_script_creates_the_bond_once_and_checks_it() {
    let dir = scratch("bond");
    let hosts = build(&dir, "", |_| BOND_FABRIC.to_string());
    let program = hosts.join("../../programs/host/bond.sh");
    assert!(
        program.is_file(),
        "programs/host/bond.sh is written when an mlx5 host has `bond`"
    );
    assert!(
        !hosts.join("bond.sh").exists(),
        "no copy of the program in the host's folder"
    );
    let settings = fs::read_to_string(hosts.join("fabricc-roce.conf")).expect("settings");
    assert!(
        settings.contains("\nBOND=bond1 mode=active-backup members=1,2\n"),
        "{settings}"
    );
    let text = fs::read_to_string(&program).expect("program");
    assert!(
        !text.contains("h1") && !text.contains("0c:00"),
        "the program holds nothing of a host"
    );
    let script = bond_launcher(&hosts);
    let nccl = fs::read_to_string(hosts.join("nccl.env")).expect("nccl.env");
    assert!(
        !nccl.contains("NCCL_IB_HCA="),
        "RoCE LAG renames the RDMA device:\n{nccl}"
    );
    let host = Host::new(&dir, Branch::Ofed);
    host.add_nic("0000:0c:00.1", "ens1f1np1", "mlx5_1", Branch::Ofed);
    let o = Command::new("bash")
        .arg("-n")
        .arg(&program)
        .output()
        .expect("bash");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let r = host.run(&script, &["--check"], &[]);
    r.expect(1);
    assert!(
        r.stdout().contains("bond1 missing (mode active-backup)"),
        "{}",
        r.stdout()
    );

    host.clear_calls();
    let r = host.run(&script, &["--dry-run"], &[]);
    r.expect(0);
    let out = r.stdout();
    for line in [
        "ip link add bond1 type bond mode active-backup miimon 100\n",
        "ip link set dev ens1f0np0 master bond1",
        "ip link set dev ens1f1np1 master bond1",
        "ip link set dev bond1 mtu 4200 up",
    ] {
        assert!(out.contains(line), "dry run lacks `{line}`:\n{out}");
    }
    assert_eq!(
        host.writes(),
        Vec::<String>::new(),
        "a dry run sets nothing"
    );

    host.run(&script, &[], &[]).expect(0);
    let mode = fs::read_to_string(host.sys().join("class/net/bond1/bonding/mode")).expect("bond");
    assert!(mode.starts_with("active-backup"), "{mode}");
    for n in ["ens1f0np0", "ens1f1np1"] {
        let m = fs::read_link(host.sys().join("class/net").join(n).join("master")).expect("master");
        assert!(m.ends_with("bond1"), "{n}: {m:?}");
    }
    host.run(&script, &["--check"], &[]).expect(0);
    host.clear_calls();
    host.run(&script, &[], &[]).expect(0);
    assert_eq!(
        host.writes(),
        Vec::<String>::new(),
        "a second run sets nothing"
    );

    // RoCE LAG formed: the two RDMA devices become mlx5_bond_0 below the first port's PCI
    // function, and the second port's function has none. The NIC script (re-run at boot)
    // still finds both ports and gives the second the bond's RDMA device.
    let qos = launcher(&hosts);
    host.run(&qos, &[], &[]).expect(0);
    host.lag(
        "0000:0c:00.0",
        "mlx5_0",
        "0000:0c:00.1",
        "mlx5_1",
        "mlx5_bond_0",
    );
    host.run(&qos, &[], &[]).expect(0);
    let r = host.run(&qos, &["--check"], &[]);
    r.expect(0);
    assert!(
        r.stdout()
            .contains("# nic2 ens1f1np1 mlx5_bond_0 0000:0c:00.1"),
        "{}",
        r.stdout()
    );
}

/// The bond program reads its host's `BOND=` line as data (issue 36): a tampered line stops it
/// with exit 3 before any `ip` command, and nothing in the file is executed. The NIC program
/// takes the same file with its `BOND=` line (that line is the bond program's).
#[test]
fn bond_settings_are_data_and_tampered_lines_are_refused() {
    let dir = scratch("bond-tamper");
    let hosts = build(&dir, "", |_| BOND_FABRIC.to_string());
    let script = bond_launcher(&hosts);
    let conf = hosts.join("fabricc-roce.conf");
    let good = fs::read_to_string(&conf).expect("settings");
    let host = Host::new(&dir, Branch::Ofed);
    host.add_nic("0000:0c:00.1", "ens1f1np1", "mlx5_1", Branch::Ofed);
    let canary = host.state.join("pwned");
    let c = canary.display();
    let bond = "BOND=bond1 mode=active-backup members=1,2";
    assert!(good.contains(bond), "{good}");
    for (line, message) in [
        (
            format!("BOND=bond1 mode=$(touch {c}) members=1,2"),
            "a character outside",
        ),
        (
            format!("BOND=bond1 mode=active-backup members=1,2; touch {c}"),
            "a character outside",
        ),
        (
            "BOND=bond1 mode=broadcast members=1,2".to_string(),
            "bond1: bad field mode=broadcast",
        ),
        (
            "BOND=bond1 mode=active-backup members=1".to_string(),
            "bond1: bad field members=1",
        ),
        (
            "BOND=bond1 mode=active-backup members=1,9".to_string(),
            "bond1: nic9 has no NIC= line",
        ),
        (
            "BOND=eth0 mode=active-backup members=1,2".to_string(),
            "does not start with the bond's name",
        ),
        (
            "BOND=bond1 mode=active-backup".to_string(),
            "bond1 needs mode= and members=",
        ),
        ("BASH_ENV=x".to_string(), "unknown key BASH_ENV"),
    ] {
        let text = if line.starts_with("BOND=") {
            good.replace(bond, &line)
        } else {
            format!("{good}{line}\n")
        };
        fs::write(&conf, text).expect("write settings");
        host.clear_calls();
        for mode in [&[][..], &["--check"], &["--dry-run"]] {
            let r = host.run(&script, mode, &[]);
            r.expect(3);
            assert!(r.stderr().contains(message), "{line}: {}", r.stderr());
        }
        assert!(host.calls().is_empty(), "{line}: {}", host.calls());
        assert!(!canary.exists(), "{line}: the settings ran code");
    }
    // Without a bond the program has nothing to do, and says so.
    fs::write(&conf, good.replace(&format!("{bond}\n"), "")).expect("write settings");
    let r = host.run(&script, &["--check"], &[]);
    r.expect(3);
    assert!(r.stderr().contains("no BOND= line"), "{}", r.stderr());
}

impl Host {
    /// mlx5 RoCE LAG: the first function's RDMA device is renamed `bond`, the second's goes.
    fn lag(&self, pci0: &str, ib0: &str, pci1: &str, ib1: &str, bond: &str) {
        let sys = self.sys();
        let dev0 = sys.join("devices/pci0000:00").join(pci0).join("infiniband");
        fs::rename(dev0.join(ib0), dev0.join(bond)).expect("rename");
        fs::remove_file(sys.join("class/infiniband").join(ib0)).expect("unlink");
        symlink(
            format!("../../devices/pci0000:00/{pci0}/infiniband/{bond}"),
            sys.join("class/infiniband").join(bond),
        )
        .expect("symlink");
        let dev1 = sys.join("devices/pci0000:00").join(pci1).join("infiniband");
        fs::remove_dir_all(dev1.join(ib1)).expect("rm");
        fs::remove_file(sys.join("class/infiniband").join(ib1)).expect("unlink");
    }
}
