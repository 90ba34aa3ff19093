//! The generated SONiC `apply.sh`, run under bash against a fake switch (issue 14, "Done
//! means"): SONiC's own default QoS and buffer CONFIG_DB for the SN5600
//! (`tests/data/sonic-defaults/`, rendered from SONiC's templates), then our output applied by
//! the documented procedure, then a re-apply after changing the lossless priority and a cable
//! length; after each, the owned tables hold exactly the fragment's keys and fields (no stale
//! key), and the daemons took every PG.
//!
//! In: `fixtures/build/inputs/sonic-sn5600-2x2.fab` (leaf1: an SN5600 in its 2x400G SKU) and
//! variants, built with the `fabricc` binary; the fakes of `tests/sonic_fakes/` first on
//! `PATH`. They model `config load` as a field merge per key (nothing deleted), `config qos
//! clear` as `_clear_qos`'s table list, `config reload` as flush + load + daemons (buffermgrd in
//! the saved buffer model, buffer tables to APPL_DB, ports initialised only when every PG's
//! profile exists). Out: exit codes, the fake databases, the calls made.
//!
//! Needs `bash` and `python3`.

use crate::support::Fabricc;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use fabricc::render::sonic::{MERGED_TABLES, owned_tables};
use serde_json::{Value, json};

const FABRIC: &str = "fixtures/build/inputs/sonic-sn5600-2x2.fab";
const DEFAULTS: &str = "tests/data/sonic-defaults/Mellanox-SN5600-O128";

static SCRATCH: AtomicUsize = AtomicUsize::new(0);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let n = SCRATCH.fetch_add(1, Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("sonic-apply")
        .join(format!("{name}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// The folder of the real `python3`, first on PATH (the fakes are Python).
fn python_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let o = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs (the SONiC fakes need it)");
        let exe = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
        exe.parent().map(Path::to_path_buf).unwrap_or_default()
    })
}

/// Builds `text` (a fabric) and returns leaf1's folder.
fn build(dir: &Path, text: &str) -> PathBuf {
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
    out.join("switches/leaf1")
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
struct Switch {
    state: PathBuf,
}

impl Switch {
    fn new(dir: &Path, model: &str) -> Switch {
        let state = dir.join("switch");
        fs::create_dir_all(state.join("etc/sonic")).expect("mkdir");
        let mut config: Value = serde_json::from_str(
            &fs::read_to_string(root().join(format!("{DEFAULTS}.{model}.json"))).expect("defaults"),
        )
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
        let path = format!(
            "{}:{}:{}",
            root().join("tests/sonic_fakes").display(),
            python_dir().display(),
            std::env::var("PATH").unwrap_or_default()
        );
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

    fn apply(&self, folder: &Path, args: &[&str]) -> Output {
        self.apply_env(folder, args, &[])
    }

    fn apply_env(&self, folder: &Path, args: &[&str], extra: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(folder.join("apply.sh")).args(args);
        self.env(&mut cmd);
        for (k, v) in extra {
            cmd.env(k, v);
        }
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

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn fragment(folder: &Path) -> Value {
    serde_json::from_str(
        &fs::read_to_string(folder.join("config_db.fragment.json")).expect("fragment"),
    )
    .expect("fragment parses")
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

/// The switch holds exactly the intended state: every owned table equal to the fragment's,
/// key for key and field for field; the fragment's PORT and DEVICE_METADATA fields in place,
/// the rest of those entries and every other table as before; every fragment PG taken by the
/// daemons, every fabric port initialised.
#[track_caller]
fn assert_intended(switch: &Switch, folder: &Path, before: &Value) {
    let db = switch.db();
    let config = &db["CONFIG_DB"];
    let frag = fragment(folder);
    for t in owned_tables() {
        let have = table(&config[t]);
        let want = table(&frag[t]);
        if have != want {
            let stale: Vec<&String> = have.keys().filter(|k| !want.contains_key(*k)).collect();
            let missing: Vec<&String> = want.keys().filter(|k| !have.contains_key(*k)).collect();
            panic!(
                "{t}: stale keys {:?}, missing keys {:?}, {} keys differ",
                &stale[..stale.len().min(8)],
                missing,
                want.iter()
                    .filter(|(k, v)| have.get(*k).is_some_and(|h| h != *v))
                    .count()
            );
        }
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
    // Not ours: the identity, other ports, other tables.
    let md = &config["DEVICE_METADATA"]["localhost"];
    assert_eq!(md["hostname"], "leaf1");
    assert_eq!(md["hwsku"], "Mellanox-SN5600-O128");
    assert_eq!(md["mac"], "1c:34:da:00:00:01");
    assert_eq!(
        config["PORT"]["Ethernet100"],
        before["CONFIG_DB"]["PORT"]["Ethernet100"]
    );
    assert_eq!(config["FEATURE"], before["CONFIG_DB"]["FEATURE"]);
    assert_eq!(
        config["LOOPBACK_INTERFACE"],
        before["CONFIG_DB"]["LOOPBACK_INTERFACE"]
    );
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
    for port in table(&frag["PORT"]).keys() {
        assert_eq!(
            appl[format!("PORT_TABLE:{port}")]["oper_status"],
            "up",
            "{port} not initialised"
        );
    }
    assert_eq!(db["LOG"], json!([]), "buffermgrd complained");
}

/// The first apply over SONiC's dynamic-model defaults, then a re-apply of the fabric with RoCE
/// on priority 4 and 7 m host cables: each leaves exactly the intended tables, in the order
/// the README documents.
#[test]
fn apply_over_sonic_defaults_then_reapply_a_changed_fabric_leaves_no_stale_key() {
    let dir = scratch("dynamic");
    let switch = Switch::new(&dir, "dynamic");
    let before = switch.db();
    // SONiC's defaults are there: the lossless PGs 3-4 with "NULL", AZURE maps.
    assert_eq!(
        before["CONFIG_DB"]["BUFFER_PG"]["Ethernet0|3-4"]["profile"],
        "NULL"
    );
    let first = build(&dir.join("first"), &fabric_text());

    let dry = switch.apply(&first, &["--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry));
    let t = text(&dry);
    assert!(t.contains("remove BUFFER_PG|Ethernet0|3-4"), "{t}");
    assert!(t.contains("remove DSCP_TO_TC_MAP|AZURE"), "{t}");
    assert!(
        t.contains("keys of QUEUE on ports outside the fabric"),
        "{t}"
    );
    assert_eq!(switch.db(), before, "--dry-run changed the switch");
    assert!(switch.calls().is_empty(), "--dry-run ran config");

    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        switch.calls(),
        [
            "config\tqos clear",
            &format!(
                "config\tload -y {}",
                first.join("config_db.fragment.json").display()
            ),
            "config\tsave -y",
            "config\treload -y",
        ]
    );
    assert_intended(&switch, &first, &before);
    let db = switch.db();
    assert_eq!(
        db["CONFIG_DB"]["BUFFER_PG"]["Ethernet0|3"]["profile"],
        "NULL"
    );
    assert!(db["CONFIG_DB"]["BUFFER_PG"].get("Ethernet0|3-4").is_none());
    assert!(db["CONFIG_DB"]["BUFFER_PG"].get("Ethernet100|0").is_none());
    let c = switch.apply(&first, &["--check"]);
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));

    // Re-apply: priority 3 → 4, host cables 3 m → 7 m.
    let second = build(&dir.join("second"), &changed_text(false));
    fs::write(switch.state.join("calls.log"), "").expect("reset log");
    let o = switch.apply(&second, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
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
    let c = switch.apply(&second, &["--check"]);
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));
    // The first fabric's fragment no longer matches: --check says what differs.
    let c = switch.apply(&first, &["--check"]);
    assert_eq!(c.status.code(), Some(1), "{}", text(&c));
    assert!(text(&c).contains("BUFFER_PG|Ethernet0|3"), "{}", text(&c));
}

/// The traditional buffer model, started from SONiC's traditional defaults (buffermgrd has
/// written `BUFFER_PG|<port>|3-4` and its lookup profile): buffermgrd, restarted by the apply,
/// reuses fabricc's profiles because every cable is a row of the SKU's table (S3) and the PG
/// keys are its ranges, so it adds nothing; and the same after the change.
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
    // fabricc's numbers, not the lookup row's, in the profile buffermgrd reuses.
    assert_eq!(
        config["BUFFER_PROFILE"]["pg_lossless_400000_5m_profile"]["xoff"],
        "98304"
    );
    assert_eq!(config["CABLE_LENGTH"]["AZURE"]["Ethernet0"], "5m");

    let second = build(&dir.join("second"), &changed_text(true));
    let o = switch.apply(&second, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_intended(&switch, &second, &before);
    let config = &switch.db()["CONFIG_DB"];
    assert_eq!(config["CABLE_LENGTH"]["AZURE"]["Ethernet0"], "40m");
    assert!(
        config["BUFFER_PROFILE"]
            .get("pg_lossless_400000_5m_profile")
            .is_none()
    );
    assert!(config["BUFFER_PG"].get("Ethernet0|3").is_none());
}

/// S2: moving a Spectrum switch from SONiC's dynamic buffer model to the traditional one takes
/// effect because the apply reloads: after it, buffermgrd runs in the traditional model (the
/// fake starts it in the model the saved file names) and takes fabricc's profiles as they are.
#[test]
fn a_buffer_model_change_takes_effect_with_the_reload() {
    let dir = scratch("model-change");
    let switch = Switch::new(&dir, "dynamic");
    let before = switch.db();
    assert_eq!(
        before["CONFIG_DB"]["DEVICE_METADATA"]["localhost"]["buffer_model"],
        "dynamic"
    );
    let folder = build(&dir.join("traditional"), &traditional_text());
    let dry = switch.apply(&folder, &["--dry-run"]);
    assert!(
        text(&dry).contains("buffer model dynamic now, traditional after the apply"),
        "{}",
        text(&dry)
    );
    let o = switch.apply(&folder, &["--yes"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_intended(&switch, &folder, &before);
    let db = switch.db();
    assert_eq!(
        db["CONFIG_DB"]["DEVICE_METADATA"]["localhost"]["buffer_model"],
        "traditional"
    );
    // Traditional: APPL_DB carries the profile CONFIG_DB names, not one the switch computed.
    assert_eq!(
        db["APPL_DB"]["BUFFER_PG_TABLE:Ethernet0:3"]["profile"],
        "pg_lossless_400000_5m_profile"
    );
}

/// What `config load` alone does (S1): SONiC's defaults stay next to the fragment's keys, and
/// `--check` names them. The apply's removal step is what the tests above rely on.
#[test]
fn config_load_alone_leaves_sonic_defaults_and_check_names_them() {
    let dir = scratch("load-only");
    let switch = Switch::new(&dir, "dynamic");
    let first = build(&dir.join("first"), &fabric_text());
    let frag = first.join("config_db.fragment.json");
    let o = switch.tool("config", &["load", "-y", frag.to_str().unwrap_or_default()]);
    assert!(o.status.success(), "{}", text(&o));
    let config = &switch.db()["CONFIG_DB"];
    assert_eq!(config["BUFFER_PG"]["Ethernet0|3-4"]["profile"], "NULL");
    assert_eq!(config["BUFFER_PG"]["Ethernet0|3"]["profile"], "NULL");
    assert!(config["BUFFER_QUEUE"].get("Ethernet0|5-6").is_some());
    let c = switch.apply(&first, &["--check"]);
    assert_eq!(c.status.code(), Some(1), "{}", text(&c));
    let t = text(&c);
    assert!(t.contains("remove BUFFER_PG|Ethernet0|3-4"), "{t}");
    assert!(t.contains("remove BUFFER_QUEUE|Ethernet0|5-6"), "{t}");
}

/// A preflight failure changes nothing and runs no `config` command (exit 3): another SKU, a
/// switch called otherwise, not root, swss not up.
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

    let o = switch.tool("sonic-db-cli", &["CONFIG_DB", "PING"]);
    assert!(o.status.success());
    // Another hostname: refused unless --any-hostname.
    let mut db = switch.db();
    db["CONFIG_DB"]["DEVICE_METADATA"]["localhost"]["hostname"] = json!("leaf2");
    fs::write(switch.state.join("db.json"), db.to_string()).expect("write");
    let o = switch.apply(&first, &["--yes"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("this file is for leaf1"), "{}", text(&o));
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
    assert!(t.contains("this file is for Mellanox-SN5600-O128"), "{t}");
    assert!(t.contains("port Ethernet4 does not exist"), "{t}");
    assert!(t.contains("nothing was changed"), "{t}");
    assert_eq!(
        switch.db(),
        changed,
        "a failed preflight changed the switch"
    );
    assert!(switch.calls().is_empty(), "a failed preflight ran config");
    assert_ne!(before, changed);
}

/// `load-balance { hash … }` (issue 20 item 4): SWITCH_HASH|GLOBAL is merged into CONFIG_DB
/// only on a switch whose orchagent can take it (STATE_DB SWITCH_CAPABILITY|switch); the
/// operator's hash algorithm stays; `--check` treats the lists as sets, as orchagent does.
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
        fragment(&folder)["SWITCH_HASH"]["GLOBAL"]["ecmp_hash"],
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

    // An older SONiC: no capability at all.
    set_state(json!({}), true);
    let o = switch.apply(&folder, &["--yes"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(
        text(&o).contains("ECMP_HASH_CAPABLE is 'missing'"),
        "{}",
        text(&o)
    );
    // A switch that cannot hash on the IP protocol: orchagent would refuse the whole list.
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
    assert!(switch.calls().is_empty(), "a failed preflight ran config");

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
        text(&o).contains("set    SWITCH_HASH|GLOBAL ecmp_hash="),
        "{}",
        text(&o)
    );
}

/// Usage errors exit 2 and do nothing; a failing reload exits 1 and names the backup.
#[test]
fn usage_and_a_failed_reload() {
    let dir = scratch("usage");
    let switch = Switch::new(&dir, "dynamic");
    let first = build(&dir.join("first"), &fabric_text());
    for args in [&[][..], &["--yes", "--check"], &["--bogus"]] {
        let o = switch.apply(&first, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
    }
    assert!(switch.calls().is_empty());
    let o = switch.apply_env(&first, &["--yes"], &[("FAKE_RELOAD_FAILS", "1")]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("FAILED: config reload"), "{t}");
    assert!(
        t.contains("config reload -y ") && t.contains("fabricc-backup-"),
        "{t}"
    );
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

/// The script passes `bash -n` and, where installed, ShellCheck.
#[test]
fn apply_sh_passes_bash_n_and_shellcheck() {
    let dir = scratch("lint");
    let first = build(&dir.join("first"), &fabric_text());
    let script = first.join("apply.sh");
    let o = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("bash");
    assert!(o.status.success(), "{}", text(&o));
    match Command::new("shellcheck").arg(&script).output() {
        Ok(o) => assert!(o.status.success(), "shellcheck:\n{}", text(&o)),
        Err(_) => eprintln!("shellcheck not installed: lint skipped"),
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
