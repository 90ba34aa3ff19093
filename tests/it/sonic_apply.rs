//! The SONiC apply program (`programs/sonic/apply.sh`, one per output) run under bash against
//! a fake switch: SONiC's own default QoS and buffer CONFIG_DB for the SN5600
//! (`tests/data/sonic-defaults/`, rendered from SONiC's templates), then a switch folder of our
//! output applied, then changed fabrics. Issue 33 item 2 (S16-S18, S20-S22) and issue 36 item 2.
//!
//! In: `fixtures/build/inputs/sonic-sn5600-2x2.fab` (leaf1: an SN5600 in its 2x400G SKU) and
//! variants, built with the `fabricc` binary; the fakes of `tests/sonic_fakes/` first on
//! `PATH`. They model `config apply-patch` as GCU (the target config, GCU's field-operation
//! validation of the from_diff operations, no empty table, live daemons), `config checkpoint`
//! and `rollback`, `config reload -y FILE` as flush + load + daemons (buffermgrd in the saved
//! buffer model, buffer tables to APPL_DB, ports initialised only when every PG's profile
//! exists, BGP sessions), and failures on demand. Out: exit codes, the fake databases, the
//! calls made.
//!
//! Needs `bash` and `python3`.

use crate::support::Fabricc;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use fabricc::render::sonic::owned_tables;
use fabricc::render::sonic_program::MERGED_TABLES;
use serde_json::{Value, json};

const FABRIC: &str = "fixtures/build/inputs/sonic-sn5600-2x2.fab";
const DEFAULTS: &str = "tests/data/sonic-defaults/Mellanox-SN5600-O128";

static SCRATCH: AtomicUsize = AtomicUsize::new(0);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let n = SCRATCH.fetch_add(1, Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("sonic-apply")
        .join(format!("{name}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// Builds `text` (a fabric) and returns the output folder (`Out`: the program, leaf1's folder).
fn build(dir: &Path, text: &str) -> Out {
    fs::create_dir_all(dir).expect("mkdir");
    let fab = dir.join("lab.fab");
    fs::write(&fab, text).expect("write fabric");
    let out = dir.join("out");
    let o = Fabricc::new()
        .args(["build", fab.to_str().unwrap_or_default(), "-o"])
        .arg(&out)
        .run();
    assert!(
        o.status.success(),
        "build: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    Out(out)
}

/// A build's output folder.
struct Out(PathBuf);

impl Out {
    fn program(&self) -> PathBuf {
        self.0.join("programs/sonic/apply.sh")
    }
    fn leaf1(&self) -> PathBuf {
        self.0.join("switches/leaf1")
    }
}

/// The SONiC program of this fabricc (the same in every output), built once.
pub(crate) fn program_for_tests() -> PathBuf {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| build(&scratch("program"), &fabric_text()).program())
        .clone()
}

fn fabric_text() -> String {
    fs::read_to_string(root().join(FABRIC)).expect("fixture")
}

/// The fabric with RoCE on priority 4 instead of 3 and the host cables at 7 m instead of 3 m.
fn changed_text(traditional: bool) -> String {
    let mut t = fabric_text()
        .replace(
            "dscp 26  priority 3  lossless",
            "dscp 26  priority 4  lossless",
        )
        .replace(
            "link gpu[1..4] -- leaf1        { cable 3m }",
            "link gpu[1..4] -- leaf1        { cable 7m }",
        );
    if traditional {
        t = t.replace("  mtu 9216\n", "  mtu 9216\n  buffer-model traditional\n");
    }
    assert_ne!(t, fabric_text());
    t
}

fn traditional_text() -> String {
    let t = fabric_text().replace("  mtu 9216\n", "  mtu 9216\n  buffer-model traditional\n");
    assert_ne!(t, fabric_text());
    t
}

/// A fake switch: leaf1 with SONiC's default QoS of its SKU in `model`, the daemons started.
pub(crate) struct Switch {
    state: PathBuf,
}

impl Switch {
    pub(crate) fn new(dir: &Path, model: &str) -> Switch {
        Switch::with_defaults(dir, &format!("{DEFAULTS}.{model}.json"))
    }

    /// A fake switch whose saved configuration is `defaults` (a path below the repository),
    /// an SN5600 SKU's.
    pub(crate) fn with_defaults(dir: &Path, defaults: &str) -> Switch {
        let state = dir.join("switch");
        fs::create_dir_all(state.join("etc/sonic")).expect("mkdir");
        let mut config: Value =
            serde_json::from_str(&fs::read_to_string(root().join(defaults)).expect("defaults"))
                .expect("defaults parse");
        // What a deployed switch has besides QoS: its identity and some unrelated tables.
        let md = &mut config["DEVICE_METADATA"]["localhost"];
        md["hostname"] = json!("leaf1");
        md["mac"] = json!("1c:34:da:00:00:01");
        config["FEATURE"] = json!({"swss": {"state": "enabled"}});
        config["LOOPBACK_INTERFACE"] = json!({"Loopback0": {}});
        fs::write(
            state.join("etc/sonic/config_db.json"),
            serde_json::to_string_pretty(&config).expect("json"),
        )
        .expect("write saved config");
        fs::write(
            state.join("db.json"),
            serde_json::to_string(&json!({"CONFIG_DB": {}, "APPL_DB": {}})).expect("json"),
        )
        .expect("write db");
        // The SKU's lookup table, as buffermgrd reads it (`speed cable size xon xoff threshold`).
        let platform = fabricc::catalogue::switch_platform("nvidia-sn5600").expect("catalogue");
        let sku = platform
            .sonic
            .as_ref()
            .and_then(|s| s.sku("Mellanox-SN5600-O128"))
            .expect("the 2x400G SKU");
        let mut ini = String::from("# speed cable size xon xoff threshold\n");
        for r in &sku.pg_profile_lookup.as_ref().expect("rows").rows {
            ini.push_str(&format!(
                "{} {} {} {} {} {}\n",
                r.speed, r.cable, r.size, r.xon, r.xoff, r.threshold
            ));
        }
        fs::write(state.join("pg_profile_lookup.ini"), ini).expect("write ini");
        let s = Switch { state };
        // Boot: load the saved file and start the daemons.
        let o = s.tool("config", &["reload", "-y"]);
        assert!(o.status.success(), "boot: {}", text(&o));
        fs::write(s.state.join("calls.log"), "").expect("reset log");
        s
    }

    fn env(&self, cmd: &mut Command) {
        let path = crate::support::fakes_path(&root().join("tests/sonic_fakes"));
        cmd.env("PATH", path)
            .env("FAKE_SONIC", &self.state)
            .env("FABRICC_SONIC_ROOT", &self.state)
            .env("FABRICC_SONIC_WAIT", "0");
    }

    fn tool(&self, tool: &str, args: &[&str]) -> Output {
        let mut cmd = Command::new(root().join("tests/sonic_fakes").join(tool));
        cmd.args(args);
        self.env(&mut cmd);
        cmd.output().expect("run fake")
    }

    fn apply(&self, out: &Out, args: &[&str]) -> Output {
        self.apply_env(out, args, &[])
    }

    /// Runs the output's program on leaf1's folder.
    fn apply_env(&self, out: &Out, args: &[&str], extra: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(out.program()).args(args).arg(out.leaf1());
        self.env(&mut cmd);
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.output().expect("run apply.sh")
    }

    /// Changes CONFIG_DB with `f` (as an operator would, before fabricc).
    pub(crate) fn seed(&self, f: impl FnOnce(&mut Value)) {
        let mut db = self.db();
        f(&mut db["CONFIG_DB"]);
        fs::write(self.state.join("db.json"), db.to_string()).expect("write");
    }

    /// CONFIG_DB as `sonic-cfggen -d --print-data` prints it.
    pub(crate) fn printed(&self) -> Value {
        let o = self.tool("sonic-cfggen", &["-d", "--print-data"]);
        serde_json::from_slice(&o.stdout).expect("print-data parses")
    }

    /// Runs `program` on a switch folder.
    pub(crate) fn run_program(&self, program: &Path, folder: &Path, args: &[&str]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(program).args(args).arg(folder);
        self.env(&mut cmd);
        cmd.output().expect("run apply.sh")
    }

    fn db(&self) -> Value {
        serde_json::from_str(&fs::read_to_string(self.state.join("db.json")).expect("db"))
            .expect("db parses")
    }

    fn calls(&self) -> Vec<String> {
        fs::read_to_string(self.state.join("calls.log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("config\t"))
            .map(str::to_string)
            .collect()
    }
}

pub(crate) fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The fragment as the program reads it: one key per port (`load_fragment`).
fn fragment(folder: &Path) -> Value {
    let doc = serde_json::from_str(
        &fs::read_to_string(folder.join("config_db.fragment.json")).expect("fragment"),
    )
    .expect("fragment parses");
    crate::validate::split_port_lists(&doc)
}

type Table = BTreeMap<String, BTreeMap<String, String>>;

fn table(v: &Value) -> Table {
    v.as_object()
        .map(|rows| {
            rows.iter()
                .map(|(k, fields)| {
                    let f = fields
                        .as_object()
                        .map(|f| {
                            f.iter()
                                .map(|(n, v)| (n.clone(), v.as_str().unwrap_or("").to_string()))
                                .collect()
                        })
                        .unwrap_or_default();
                    (k.clone(), f)
                })
                .collect()
        })
        .unwrap_or_default()
}

const PORT_KEYED: [&str; 7] = [
    "BUFFER_PG",
    "BUFFER_PORT_EGRESS_PROFILE_LIST",
    "BUFFER_PORT_INGRESS_PROFILE_LIST",
    "BUFFER_QUEUE",
    "PFC_WD",
    "PORT_QOS_MAP",
    "QUEUE",
];

fn port_of(key: &str) -> &str {
    key.split('|').next().unwrap_or(key)
}

/// The switch holds exactly the intended state: the fabric ports' keys in the per-port tables
/// are the fragment's, key for key and field for field; every other port's keys, PORT entry and
/// cable length are as before the first apply (`before`, the baseline); the fragment's named
/// objects are in place, SONiC's own objects stay; the fragment's PORT fields are set and
/// `admin_status` is the operator's; identity and other tables untouched; every fragment PG
/// taken by the daemons, every fabric port initialised.
#[track_caller]
fn assert_intended(switch: &Switch, out: &Out, before: &Value) {
    let db = switch.db();
    let config = &db["CONFIG_DB"];
    let base = &before["CONFIG_DB"];
    let frag = fragment(&out.leaf1());
    let ports: Vec<String> = table(&frag["PORT"]).keys().cloned().collect();
    let fabric = |k: &str| ports.iter().any(|p| p == port_of(k));
    for t in PORT_KEYED {
        let have = table(&config[t]);
        let want = table(&frag[t]);
        let was = table(&base[t]);
        let mine: Table = have
            .iter()
            .filter(|(k, _)| fabric(k) || want.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(mine, want, "{t}: the fabric's keys");
        let others: Table = have
            .iter()
            .filter(|(k, _)| !fabric(k) && !want.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let others_before: Table = was
            .iter()
            .filter(|(k, _)| !fabric(k) && !want.contains_key(*k) && *k != "GLOBAL")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(others, others_before, "{t}: other ports' keys changed");
    }
    for t in owned_tables() {
        if PORT_KEYED.contains(&t) || t == "CABLE_LENGTH" {
            continue;
        }
        let have = table(&config[t]);
        for (k, v) in table(&frag[t]) {
            assert_eq!(have.get(&k), Some(&v), "{t}|{k}");
        }
        for (k, v) in table(&base[t]) {
            if !k.starts_with("FABRICC") && !table(&frag[t]).contains_key(&k) {
                assert_eq!(have.get(&k), Some(&v), "{t}|{k}: SONiC's own object");
            }
        }
    }
    let cables = table(&config["CABLE_LENGTH"]);
    let cables_before = table(&base["CABLE_LENGTH"]);
    for (port, len) in &cables["AZURE"] {
        let want = table(&frag["CABLE_LENGTH"])["AZURE"].get(port).cloned();
        let want = want.or_else(|| cables_before["AZURE"].get(port).cloned());
        assert_eq!(Some(len), want.as_ref(), "CABLE_LENGTH {port}");
    }
    for t in MERGED_TABLES {
        let have = table(&config[t]);
        for (key, fields) in table(&frag[t]) {
            for (f, v) in fields {
                assert_eq!(
                    have.get(&key).and_then(|e| e.get(&f)),
                    Some(&v),
                    "{t}|{key}.{f}"
                );
            }
        }
    }
    for (port, fields) in table(&config["PORT"]) {
        let was = &table(&base["PORT"])[&port];
        if ports.contains(&port) {
            assert_eq!(
                fields.get("admin_status"),
                was.get("admin_status"),
                "{port}"
            );
        } else {
            assert_eq!(&fields, was, "PORT|{port} is not a fabric port");
        }
    }
    assert!(config.get("DEVICE_NEIGHBOR").is_none(), "S21");
    // Not ours: the identity, other tables.
    let md = &config["DEVICE_METADATA"]["localhost"];
    assert_eq!(md["hostname"], "leaf1");
    assert_eq!(md["hwsku"], "Mellanox-SN5600-O128");
    assert_eq!(md["mac"], "1c:34:da:00:00:01");
    assert_eq!(config["FEATURE"], base["FEATURE"]);
    assert_eq!(config["LOOPBACK_INTERFACE"], base["LOOPBACK_INTERFACE"]);
    // The daemons took every PG, and every fabric port came up.
    let appl = &db["APPL_DB"];
    for (key, fields) in table(&frag["BUFFER_PG"]) {
        let appl_key = format!("BUFFER_PG_TABLE:{}", key.replacen('|', ":", 1));
        let got = appl[&appl_key]["profile"].as_str().unwrap_or("");
        assert!(!got.is_empty(), "{appl_key} missing");
        if fields["profile"] != "NULL" {
            assert_eq!(got, fields["profile"], "{appl_key}");
        }
    }
    for port in &ports {
        assert_eq!(
            appl[format!("PORT_TABLE:{port}")]["oper_status"],
            "up",
            "{port} not initialised"
        );
    }
    assert_eq!(db["LOG"], json!([]), "buffermgrd complained");
}

/// The `config` commands the program ran, without the GCU dry runs and with the temporary
/// and time-stamped file names cut to their kind.
fn config_steps(switch: &Switch) -> Vec<String> {
    switch
        .calls()
        .iter()
        .filter(|c| !c.contains("--dry-run"))
        .map(|c| {
            c.split_whitespace()
                .map(|w| {
                    if w.contains("fabricc-intended-") {
                        "INTENDED"
                    } else if w.ends_with("patch.json") {
                        "PATCH"
                    } else if w.starts_with("fabricc-2") {
                        "CHECKPOINT"
                    } else {
                        w
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn saved(switch: &Switch) -> String {
    fs::read_to_string(switch.state.join("etc/sonic/config_db.json")).expect("saved config")
}

/// The first apply over SONiC's dynamic-model defaults (reload: GCU refuses to add the PFC_WD
/// table), then a re-apply of the fabric with RoCE on priority 4 and 7 m host cables (live):
/// each leaves exactly the intended state, never a stale key.
#[test]
fn apply_over_sonic_defaults_then_reapply_a_changed_fabric_leaves_no_stale_key() {
    let dir = scratch("dynamic");
    let switch = Switch::new(&dir, "dynamic");
    let before = switch.db();
    assert_eq!(
        before["CONFIG_DB"]["BUFFER_PG"]["Ethernet0|3-4"]["profile"],
        "NULL"
    );
    let first = build(&dir.join("first"), &fabric_text());
    let dry = switch.apply(&first, &["--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry));
    let t = text(&dry);
    assert!(t.contains("remove BUFFER_PG|Ethernet0|3-4"), "{t}");
    assert!(t.contains("add    DSCP_TO_TC_MAP|FABRICC"), "{t}");
    assert!(!t.contains("Ethernet100|"), "a non-fabric port's key: {t}");
    assert!(t.contains("path: reload"), "{t}");
    assert!(t.contains("add /PFC_WD: GCU refuses"), "{t}");
    assert!(
        t.contains("121 ports outside the fabric have PFC on"),
        "S22: {t}"
    );
    assert_eq!(switch.db(), before, "--dry-run changed the switch");

    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        config_steps(&switch),
        ["config\treload -y INTENDED", "config\tsave -y"].map(|s| s.replace('\t', " "))
    );
    assert_intended(&switch, &first, &before);
    let db = switch.db();
    assert_eq!(
        db["CONFIG_DB"]["BUFFER_PG"]["Ethernet0|3"]["profile"],
        "NULL"
    );
    assert!(db["CONFIG_DB"]["BUFFER_PG"].get("Ethernet0|3-4").is_none());
    // SONiC's defaults on the other ports stay (S22): no switch-wide clear.
    assert_eq!(
        db["CONFIG_DB"]["BUFFER_PG"]["Ethernet100|3-4"]["profile"],
        "NULL"
    );
    assert_eq!(
        db["CONFIG_DB"]["PORT_QOS_MAP"]["Ethernet100"]["dscp_to_tc_map"],
        "AZURE"
    );
    assert!(
        switch
            .state
            .join("etc/sonic/fabricc-baseline.json")
            .exists()
    );
    let c = switch.apply(&first, &["--check"]);
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));

    // Re-apply: priority 3 → 4, host cables 3 m → 7 m: live, no reload.
    let second = build(&dir.join("second"), &changed_text(false));
    fs::write(switch.state.join("calls.log"), "").expect("reset log");
    let o = switch.apply(&second, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("live path"), "{}", text(&o));
    assert_eq!(
        config_steps(&switch),
        [
            "config checkpoint CHECKPOINT",
            "config apply-patch PATCH",
            "config save -y",
            "config delete-checkpoint CHECKPOINT"
        ]
    );
    assert_intended(&switch, &second, &before);
    let config = &switch.db()["CONFIG_DB"];
    for port in ["Ethernet0", "Ethernet4", "Ethernet16"] {
        assert!(
            config["BUFFER_PG"].get(format!("{port}|3")).is_none(),
            "{port}|3 stale"
        );
        assert_eq!(config["BUFFER_PG"][format!("{port}|4")]["profile"], "NULL");
        assert_eq!(config["PORT_QOS_MAP"][port]["pfc_enable"], "4");
    }
    assert_eq!(config["CABLE_LENGTH"]["AZURE"]["Ethernet0"], "7m");
    assert_eq!(config["CABLE_LENGTH"]["AZURE"]["Ethernet16"], "30m");
    assert_eq!(config["CABLE_LENGTH"]["AZURE"]["Ethernet100"], "5m");
    let c = switch.apply(&second, &["--check"]);
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));
    // The first fabric's fragment no longer matches: --check says what differs.
    let c = switch.apply(&first, &["--check"]);
    assert_eq!(c.status.code(), Some(1), "{}", text(&c));
    assert!(text(&c).contains("BUFFER_PG|Ethernet0|3"), "{}", text(&c));
}

/// S16: an ECN-only change is one changed WRED profile (stable names, U6) and takes the live
/// path: `--dry-run` says so; the apply runs GCU, no reload, and saves after the gate.
#[test]
fn an_ecn_only_change_takes_the_live_path() {
    let dir = scratch("ecn");
    let switch = Switch::new(&dir, "dynamic");
    let before = switch.db();
    let first = build(&dir.join("first"), &fabric_text());
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let ecn = build(
        &dir.join("ecn"),
        &fabric_text().replace("ecn min 150KB", "ecn min 200KB"),
    );
    let dry = switch.apply(&ecn, &["--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry));
    let t = text(&dry);
    let changes: Vec<&str> = t
        .lines()
        .filter(|l| l.starts_with("add ") || l.starts_with("remove ") || l.starts_with("change "))
        .collect();
    assert_eq!(
        changes,
        [
            "change WRED_PROFILE|FABRICC_ECN_Q3 (green_min_threshold, red_min_threshold, yellow_min_threshold)"
        ],
        "{t}"
    );
    assert!(
        t.contains("path: live (config apply-patch), no reload"),
        "{t}"
    );
    fs::write(switch.state.join("calls.log"), "").expect("reset log");
    let o = switch.apply(&ecn, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        !config_steps(&switch).iter().any(|c| c.contains("reload")),
        "{:?}",
        config_steps(&switch)
    );
    assert_intended(&switch, &ecn, &before);
    assert_eq!(
        switch.db()["CONFIG_DB"]["WRED_PROFILE"]["FABRICC_ECN_Q3"]["green_min_threshold"],
        "199872"
    );
    assert!(saved(&switch).contains("199872"), "saved after the gate");
}

/// S16: a buffer model change takes the reload path, and `--dry-run` names the key that forces
/// it. S2: after it buffermgrd runs in the new model.
#[test]
fn a_buffer_model_change_takes_the_reload_path() {
    let dir = scratch("model-change");
    let switch = Switch::new(&dir, "dynamic");
    let before = switch.db();
    let first = build(&dir.join("first"), &fabric_text());
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let folder = build(&dir.join("traditional"), &traditional_text());
    let dry = switch.apply(&folder, &["--dry-run"]);
    let t = text(&dry);
    assert!(t.contains("path: reload"), "{t}");
    assert!(
        t.contains("DEVICE_METADATA|localhost buffer_model dynamic -> traditional: buffermgrd reads it only when it starts"),
        "{t}"
    );
    fs::write(switch.state.join("calls.log"), "").expect("reset log");
    let o = switch.apply(&folder, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        config_steps(&switch),
        ["config reload -y INTENDED", "config save -y"]
    );
    // The buffer model is switch-wide: buffermgrd, restarted in the traditional model, also
    // gives the other ports' lossless PGs its lookup profiles. fabricc's part is the fragment.
    let _ = before;
    let c = switch.apply(&folder, &["--check"]);
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));
    let db = switch.db();
    assert_eq!(
        db["CONFIG_DB"]["DEVICE_METADATA"]["localhost"]["buffer_model"],
        "traditional"
    );
    assert_eq!(
        db["APPL_DB"]["BUFFER_PG_TABLE:Ethernet0:3"]["profile"],
        "pg_lossless_400000_5m_profile"
    );
}

/// The traditional buffer model, started from SONiC's traditional defaults: buffermgrd reuses
/// fabricc's profiles (every cable is a row of the SKU's table, S3), and the same after the
/// change; the 5 m profile fabricc no longer uses stays because other ports still use it.
#[test]
fn traditional_model_over_traditional_defaults_then_reapply() {
    let dir = scratch("traditional");
    let switch = Switch::new(&dir, "traditional");
    let before = switch.db();
    assert_eq!(
        before["CONFIG_DB"]["BUFFER_PG"]["Ethernet0|3-4"]["profile"],
        "pg_lossless_400000_5m_profile",
        "the fake buffermgrd wrote SONiC's own lossless PG at boot"
    );
    let first = build(&dir.join("first"), &traditional_text());
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_intended(&switch, &first, &before);
    let config = &switch.db()["CONFIG_DB"];
    assert_eq!(
        config["BUFFER_PROFILE"]["pg_lossless_400000_5m_profile"]["xoff"],
        "98304"
    );
    let second = build(&dir.join("second"), &changed_text(true));
    let o = switch.apply(&second, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_intended(&switch, &second, &before);
    let config = &switch.db()["CONFIG_DB"];
    assert_eq!(config["CABLE_LENGTH"]["AZURE"]["Ethernet0"], "40m");
    assert!(config["BUFFER_PG"].get("Ethernet0|3").is_none());
    assert_eq!(
        config["BUFFER_PG"]["Ethernet100|3-4"]["profile"], "pg_lossless_400000_5m_profile",
        "another port's PG, untouched"
    );
    assert!(
        config["BUFFER_PROFILE"]
            .get("pg_lossless_400000_5m_profile")
            .is_some(),
        "still used by ports outside the fabric"
    );
}

/// Issue 33: what is not fabricc's stays exactly as it was: another port's QoS (a foreign map
/// and scheduler), a description and admin_status the operator set (S20: a port the operator
/// shut stays shut, and the health gate does not wait for it), DEVICE_NEIGHBOR (S21); and a
/// port that leaves the fabric gets its baseline back.
#[test]
fn foreign_configuration_stays_and_a_released_port_gets_its_baseline_back() {
    let dir = scratch("foreign");
    let switch = Switch::new(&dir, "dynamic");
    let mut db = switch.db();
    let c = &mut db["CONFIG_DB"];
    c["DSCP_TO_TC_MAP"]["STORAGE"] = json!({"0": "1", "24": "4"});
    c["PORT_QOS_MAP"]["Ethernet100"]["dscp_to_tc_map"] = json!("STORAGE");
    c["SCHEDULER"]["STORAGE_SCHED"] = json!({"type": "DWRR", "weight": "30"});
    c["QUEUE"]["Ethernet100|4"] = json!({"scheduler": "STORAGE_SCHED"});
    c["PORT"]["Ethernet100"]["description"] = json!("storage array A");
    c["PORT"]["Ethernet4"]["admin_status"] = json!("down");
    c["DEVICE_NEIGHBOR"] = json!({"Ethernet0": {"name": "gpu1-real", "port": "p0"}});
    db["APPL_DB"]["PORT_TABLE:Ethernet4"]["oper_status"] = json!("down");
    fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    let before = switch.db();
    let first = build(&dir.join("first"), &fabric_text());
    let o = switch.apply(&first, &["--yes"]);
    // Ethernet4 is shut: oper down before and after, so the gate lets it be.
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let config = &switch.db()["CONFIG_DB"];
    assert_eq!(config["PORT"]["Ethernet4"]["admin_status"], "down", "S20");
    assert_eq!(
        config["DEVICE_NEIGHBOR"], before["CONFIG_DB"]["DEVICE_NEIGHBOR"],
        "S21"
    );
    for (t, k) in [
        ("DSCP_TO_TC_MAP", "STORAGE"),
        ("PORT_QOS_MAP", "Ethernet100"),
        ("SCHEDULER", "STORAGE_SCHED"),
        ("QUEUE", "Ethernet100|4"),
        ("PORT", "Ethernet100"),
    ] {
        assert_eq!(config[t][k], before["CONFIG_DB"][t][k], "{t}|{k}");
    }
    // gpu4 leaves the fabric: the uplinks move up one port and
    // leaf1's Ethernet28 is released and gets SONiC's defaults back.
    let fewer = build(
        &dir.join("fewer"),
        &fabric_text().replace("gpu[1..4]", "gpu[1..3]"),
    );
    assert!(!table(&fragment(&fewer.leaf1())["PORT"]).contains_key("Ethernet28"));
    let o = switch.apply(&fewer, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let config = &switch.db()["CONFIG_DB"];
    let base = &before["CONFIG_DB"];
    for t in PORT_KEYED {
        let keys = |c: &Value| -> Table {
            table(&c[t])
                .into_iter()
                .filter(|(k, _)| port_of(k) == "Ethernet28")
                .collect()
        };
        assert_eq!(
            keys(config),
            keys(base),
            "{t}: Ethernet28 back to its baseline"
        );
    }
    assert_eq!(config["PORT"]["Ethernet28"], base["PORT"]["Ethernet28"]);
    assert_eq!(
        config["CABLE_LENGTH"]["AZURE"]["Ethernet28"],
        base["CABLE_LENGTH"]["AZURE"]["Ethernet28"]
    );
    assert_eq!(
        config["SCHEDULER"]["STORAGE_SCHED"],
        base["SCHEDULER"]["STORAGE_SCHED"]
    );
}

/// S17: a failure between the steps leaves the previous configuration running: a GCU patch that
/// fails half-way is rolled back; a reload that fails leaves the live and the saved
/// configuration as they were; a failed save is reported. Nothing is ever saved before the gate.
#[test]
fn a_failing_step_leaves_the_previous_configuration_running() {
    let dir = scratch("failures");
    let switch = Switch::new(&dir, "dynamic");
    let first = build(&dir.join("first"), &fabric_text());
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let running = switch.db()["CONFIG_DB"].clone();
    let saved_before = saved(&switch);

    let second = build(&dir.join("second"), &changed_text(false));
    let o = switch.apply_env(&second, &["--yes"], &[("FAKE_FAIL", "apply-patch")]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("rolled back to checkpoint"),
        "{}",
        text(&o)
    );
    assert_eq!(switch.db()["CONFIG_DB"], running, "rolled back");
    assert_eq!(saved(&switch), saved_before);

    let model = build(&dir.join("model"), &traditional_text());
    let o = switch.apply_env(&model, &["--yes"], &[("FAKE_RELOAD_FAILS", "1")]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("FAILED: config reload"), "{}", text(&o));
    assert_eq!(switch.db()["CONFIG_DB"], running, "never stripped");
    assert_eq!(saved(&switch), saved_before);

    let o = switch.apply_env(&second, &["--yes"], &[("FAKE_FAIL", "save")]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("FAILED: config save"), "{}", text(&o));
    assert_eq!(saved(&switch), saved_before);
}

/// S18: exit 0 only when healthy. A fabric port that does not come back up, or a BGP session
/// that does not come back, fails the gate: exit 4, not saved, the restore command given.
#[test]
fn the_health_gate_fails_on_a_down_port_or_bgp_session() {
    let dir = scratch("gate");
    let switch = Switch::new(&dir, "dynamic");
    let mut db = switch.db();
    db["CONFIG_DB"]["BGP_NEIGHBOR"] = json!({"10.0.0.1": {"asn": "65100"}});
    db["STATE_DB"] = json!({"NEIGH_STATE_TABLE|10.0.0.1": {"state": "Established"}});
    fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    let saved_before = saved(&switch);
    let first = build(&dir.join("first"), &fabric_text());

    let o = switch.apply_env(&first, &["--yes"], &[("FAKE_DOWN", "Ethernet8")]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("fabric port Ethernet8 was up before the apply and is not"),
        "{t}"
    );
    assert!(
        t.contains("to restore the previous configuration: config reload -y"),
        "{t}"
    );
    assert_eq!(saved(&switch), saved_before, "not saved");

    // A reload restarts bgp: the buffer model change forces one.
    let model = build(&dir.join("model"), &traditional_text());
    let o = switch.apply_env(&model, &["--yes"], &[("FAKE_BGP_DOWN", "1")]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(
        text(&o).contains("BGP neighbour 10.0.0.1 was Established before the apply and is not"),
        "{}",
        text(&o)
    );
    assert_eq!(saved(&switch), saved_before, "not saved");
}

/// A preflight failure changes nothing and runs no `config` command (exit 3): another SKU, a
/// switch called otherwise, not root, swss not up, a device file of another format.
#[test]
fn preflight_failures_change_nothing() {
    let dir = scratch("preflight");
    let switch = Switch::new(&dir, "dynamic");
    let first = build(&dir.join("first"), &fabric_text());
    let before = switch.db();

    let o = switch.apply_env(&first, &["--yes"], &[("FAKE_UID", "1000")]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("run as root"), "{}", text(&o));

    let o = switch.apply_env(&first, &["--yes"], &[("FAKE_SWSS", "inactive")]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("swss is not active"), "{}", text(&o));

    // Another hostname: refused unless --any-hostname.
    let mut db = switch.db();
    db["CONFIG_DB"]["DEVICE_METADATA"]["localhost"]["hostname"] = json!("leaf2");
    fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        text(&o).contains("this folder is for leaf1"),
        "{}",
        text(&o)
    );
    let o = switch.apply(&first, &["--dry-run", "--any-hostname"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // Another SKU: the fragment's port names and lanes would be wrong.
    db["CONFIG_DB"]["DEVICE_METADATA"]["localhost"]["hostname"] = json!("leaf1");
    db["CONFIG_DB"]["DEVICE_METADATA"]["localhost"]["hwsku"] = json!("ACS-SN5600");
    if let Some(ports) = db["CONFIG_DB"]["PORT"].as_object_mut() {
        ports.remove("Ethernet4");
    }
    fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    let changed = switch.db();
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("is for Mellanox-SN5600-O128"), "{t}");
    assert!(t.contains("port Ethernet4 does not exist"), "{t}");
    assert!(t.contains("nothing was changed"), "{t}");
    assert_eq!(
        switch.db(),
        changed,
        "a failed preflight changed the switch"
    );
    assert!(
        config_steps(&switch).is_empty(),
        "a failed preflight ran config"
    );
    assert_ne!(before, changed);

    // A device file of another format (another build's program).
    let device = first.leaf1().join("fabricc-device.json");
    let d = fs::read_to_string(&device).expect("device file");
    assert!(d.contains("\"format\": 2"), "{d}");
    fs::write(&device, d.replace("\"format\": 2", "\"format\": 99")).expect("write");
    let o = switch.apply(&first, &["--dry-run"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("has format 99"), "{}", text(&o));
    fs::write(&device, d).expect("write");

    // A fragment that lists one port twice in a table (a hand edit): refused, not merged.
    let frag = first.leaf1().join("config_db.fragment.json");
    let mut doc: Value = serde_json::from_str(&fs::read_to_string(&frag).expect("fragment"))
        .expect("fragment parses");
    let queues = doc["QUEUE"].as_object_mut().expect("QUEUE");
    let (listed, fields) = queues
        .iter()
        .find(|(k, _)| k.contains(','))
        .map(|(k, v)| (k.clone(), v.clone()))
        .expect("a QUEUE key listing ports");
    let (ports, suffix) = listed.split_once('|').expect("QUEUE key has a queue");
    let again = format!("{}|{suffix}", ports.split(',').next().expect("a port"));
    queues.insert(again.clone(), fields);
    fs::write(&frag, doc.to_string()).expect("write");
    let db_before = switch.db();
    let o = switch.apply(&first, &["--yes", "--any-hostname"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains(&format!("QUEUE names {again} twice")), "{t}");
    assert!(t.contains("nothing was changed"), "{t}");
    assert_eq!(
        switch.db(),
        db_before,
        "a refused fragment changed the switch"
    );
}

/// `load-balance { hash … }` (issue 20 item 4): SWITCH_HASH|GLOBAL is merged only on a switch
/// whose orchagent can take it (STATE_DB SWITCH_CAPABILITY|switch); the operator's hash
/// algorithm stays; `--check` treats the lists as sets, as orchagent does.
#[test]
fn switch_hash_needs_the_capability_and_merges() {
    let dir = scratch("hash");
    let switch = Switch::new(&dir, "dynamic");
    let fabric = fabric_text().replacen(
        "\n}",
        "\n  load-balance { hash src-ip dst-ip src-port dst-port protocol }\n}",
        1,
    );
    assert_ne!(fabric, fabric_text());
    let folder = build(&dir.join("lb"), &fabric);
    let want = json!([
        "SRC_IP",
        "DST_IP",
        "L4_SRC_PORT",
        "L4_DST_PORT",
        "IP_PROTOCOL"
    ]);
    assert_eq!(
        fragment(&folder.leaf1())["SWITCH_HASH"]["GLOBAL"]["ecmp_hash"],
        want
    );
    let set_state = |state: Value, algorithm: bool| {
        let mut db = switch.db();
        db["STATE_DB"] = state;
        if algorithm {
            db["CONFIG_DB"]["SWITCH_HASH"] = json!({"GLOBAL": {"ecmp_hash_algorithm": "CRC"}});
        }
        fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    };

    set_state(json!({}), true);
    let o = switch.apply(&folder, &["--yes"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        text(&o).contains("ECMP_HASH_CAPABLE is 'missing'"),
        "{}",
        text(&o)
    );
    let cap = |fields: &str| {
        json!({"SWITCH_CAPABILITY|switch": {
            "ECMP_HASH_CAPABLE": "true", "LAG_HASH_CAPABLE": "true",
            "HASH|NATIVE_HASH_FIELD_LIST": fields}})
    };
    set_state(cap("SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT"), false);
    let o = switch.apply(&folder, &["--yes"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        text(&o).contains("cannot hash on IP_PROTOCOL"),
        "{}",
        text(&o)
    );
    assert!(
        config_steps(&switch).is_empty(),
        "a failed preflight ran config"
    );

    set_state(
        cap("IN_PORT,SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL"),
        false,
    );
    let o = switch.apply(&folder, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let global = &switch.db()["CONFIG_DB"]["SWITCH_HASH"]["GLOBAL"];
    let list = "SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL";
    assert_eq!(global["ecmp_hash@"], list, "{global}");
    assert_eq!(global["lag_hash@"], list, "{global}");
    assert_eq!(
        global["ecmp_hash_algorithm"], "CRC",
        "the operator's field stays"
    );

    // The same set in another order is no drift; another set is.
    let mut db = switch.db();
    db["CONFIG_DB"]["SWITCH_HASH"]["GLOBAL"]["ecmp_hash@"] =
        json!("IP_PROTOCOL,L4_DST_PORT,L4_SRC_PORT,DST_IP,SRC_IP");
    fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    let o = switch.apply(&folder, &["--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    db["CONFIG_DB"]["SWITCH_HASH"]["GLOBAL"]["ecmp_hash@"] = json!("SRC_IP,DST_IP");
    fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    let o = switch.apply(&folder, &["--check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("change SWITCH_HASH|GLOBAL (ecmp_hash)"),
        "{}",
        text(&o)
    );
}

/// Usage errors exit 2 and do nothing; the backup of the running configuration is written
/// before anything changes.
#[test]
fn usage_and_the_backup() {
    let dir = scratch("usage");
    let switch = Switch::new(&dir, "dynamic");
    let first = build(&dir.join("first"), &fabric_text());
    for args in [&[][..], &["--yes", "--check"], &["--bogus"]] {
        let o = switch.apply(&first, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
    }
    let mut cmd = Command::new("bash");
    cmd.arg(first.program()).arg("--yes");
    switch.env(&mut cmd);
    let o = cmd.output().expect("run");
    assert_eq!(o.status.code(), Some(2), "no folder: {}", text(&o));
    assert!(switch.calls().is_empty());
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let backups: Vec<_> = fs::read_dir(switch.state.join("etc/sonic"))
        .expect("dir")
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("fabricc-backup-")
        })
        .collect();
    assert_eq!(backups.len(), 1, "one backup of the running configuration");
}

/// The output holds the program once and each switch folder only its data (issue 36 item 2).
#[test]
fn one_program_per_output_and_data_per_switch() {
    let dir = scratch("shape");
    let out = build(&dir.join("first"), &fabric_text());
    let mut files: Vec<String> = fs::read_dir(out.leaf1())
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["config_db.fragment.json", "fabricc-device.json"]);
    assert!(out.program().is_file());
    assert!(
        out.0
            .join("programs")
            .join("sonic")
            .join("README.md")
            .is_file()
    );
    assert!(!out.0.join("switches/leaf2/apply.sh").exists());
}

/// The program passes `bash -n` and, where installed, ShellCheck.
#[test]
fn apply_sh_passes_bash_n_and_shellcheck() {
    let dir = scratch("lint");
    let first = build(&dir.join("first"), &fabric_text());
    let script = first.program();
    let o = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("bash");
    assert!(o.status.success(), "{}", text(&o));
    if let Some(o) = crate::support::shellcheck(&script) {
        assert!(o.status.success(), "shellcheck:\n{}", text(&o));
    }
}

/// SONiC's own YANG models and loader accept every committed SONiC fragment
/// (`scripts/sonic-yang-check`). Needs a sonic-buildimage checkout or git directory in
/// `SONIC_BUILDIMAGE`, the libyang C library and network access for pip (a venv under /tmp):
/// `SONIC_BUILDIMAGE=… cargo test --test sonic_apply -- --ignored`.
#[test]
#[ignore = "needs SONIC_BUILDIMAGE, libyang and pip"]
fn sonic_yang_models_accept_every_golden_fragment() {
    let buildimage = std::env::var("SONIC_BUILDIMAGE").expect("SONIC_BUILDIMAGE is set");
    let mut fragments = Vec::new();
    let mut stack = vec![root().join("fixtures/build"), root().join("tests/golden")];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).expect("dir").filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.ends_with("config_db.fragment.json") {
                fragments.push(p);
            }
        }
    }
    fragments.sort();
    assert!(fragments.len() >= 20, "{fragments:?}");
    let o = Command::new(root().join("scripts/sonic-yang-check"))
        .arg(buildimage)
        .args(&fragments)
        .output()
        .expect("run sonic-yang-check");
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        text(&o).matches(": valid (").count(),
        fragments.len(),
        "{}",
        text(&o)
    );
}
