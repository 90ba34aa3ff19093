//! The parsers of `fabricc verify` never panic and stay bounded on any state file: random
//! edits of realistic device configurations (every target, `tests/data/verify/`), of a host's
//! `state.json` and of an `lldp.json` go through the parser of their target and the comparison
//! with the unedited configuration; every location a finding points at lies inside the
//! edited text. Hostile files (deep nesting, a section header repeated into a million paths,
//! binary, over the size limit) are one error each, quickly. The fuzz target
//! `fuzz/fuzz_targets/state.rs` does the same with arbitrary bytes.

use std::time::{Duration, Instant};

use proptest::prelude::*;

use fabricc::render::SwitchOs;
use fabricc::verify::{self, canon, cli, host, json, junos, lldp, nvue, sonic, state};

const SEEDS: &[(SwitchOs, &str)] = &[
    (
        SwitchOs::Sonic,
        include_str!("../data/verify/sonic/config_db.json"),
    ),
    (
        SwitchOs::Cumulus,
        include_str!("../data/verify/cumulus/startup.yaml"),
    ),
    (
        SwitchOs::Eos,
        include_str!("../data/verify/eos/running-config"),
    ),
    (
        SwitchOs::Nxos,
        include_str!("../data/verify/nxos/running-config"),
    ),
    (SwitchOs::Junos, include_str!("../data/verify/junos/config")),
];

const SCRIPT: &str = "E_MTU=9000\nE_TRUST=dscp\nE_PFC=0,0,0,1,0,0,0,0\nE_DSCP2PRIO=26:3\nE_ECN=3\nE_TOS=106\nE_CC_MASK=8\nNICS+=(1)\nNICS+=(2)\n";

/// The intent lines of the DCBNL scripts (bnxt_qos.sh, ice_qos.sh, dcb_qos.sh), in `dcb`'s form.
const DCBNL_SCRIPTS: &[&str] = &[
    "DRIVER=bnxt\nE_ROCE_DSCP=26\nE_ROCE_PRIO=3\nE_ROCE=1\nE_DCQCN=1\nE_MTU=4200\nE_DSCP2PRIO=0,0,3\nE_PFC=\"0:off 1:off 2:off 3:on\"\nE_PRIO_TC=\"0:0 3:1 7:2\"\nE_TC_TSA=\"0:ets 1:ets 2:strict\"\nE_TC_BW=\"0:40 1:60\"\nE_ROCE_MODE=\"RoCE v2\"\nE_TOS=106\nE_CNP_DSCP=48\nE_CNP_PRIO=7\nNICS+=(1)\nNICS+=(2)\n",
    "DRIVER=ice\nE_DCQCN=1\nE_MTU=4200\nE_PFC=\"3:on\"\nE_TC_BW=\"0:40 1:60\"\nE_ROCE_MODE=\"RoCE v2\"\nNICS+=(1)\n",
    "DRIVER=dcb\nE_MTU=4200\nE_PFC=\"0:off 3:on 9:on x:on 3\"\nE_TC_TSA=\"7:strict\"\nE_TOS=106\nNICS+=(1)\n",
];

/// What the DCBNL scripts' `--collect` prints on hosts in sync (committed fixtures).
const DCBNL_STATES: &[&str] = &[
    include_str!("../../fixtures/verify/host-state/bnxt.state.json"),
    include_str!("../../fixtures/verify/host-state/ice.state.json"),
    include_str!("../../fixtures/verify/host-state/dcb.state.json"),
];

const HOST_STATE: &str = r#"{"schema":"fabricc-host-state/1","host":"gpu1","nics":[{"nic":"nic1","netdev":"ens1f0np0","branch":"ofed","state":{"mtu":9000,"trust":"dscp","pfc":[0,0,0,1,0,0,0,0],"dscp2prio":["26:3"],"ecn_np":[0,0,0,1,0,0,0,0],"ecn_rp":[0,0,0,1,0,0,0,0],"traffic_class":106,"roce_tos":106}},{"nic":"nic2","netdev":"ens2f0np0","branch":"inbox","state":{"mtu":1500,"trust":"pcp","pfc":[0,0,0,0,0,0,0,0],"nv":{"ROCE_CC_PRIO_MASK":0}}}]}"#;

const LLDP: &str = r#"{"lldp":{"interface":[{"Ethernet0":{"via":"LLDP","chassis":{"gpu1.example.com":{"id":{"type":"mac","value":"00:00:00:00:00:01"}}},"port":{"id":{"type":"mac","value":"00:00:00:00:00:01"},"descr":"ens1f0np0"}}},{"Ethernet4":{"chassis":{"spine1":{}},"port":{"id":{"type":"ifname","value":"Ethernet8"}}}}]}}"#;

/// Inserted at a line by an edit: the characters each syntax gives meaning to.
const SNIPPETS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "'",
    ":",
    ",",
    "- ",
    "-",
    ";",
    "#",
    "!",
    "/*",
    "*/",
    "\t",
    "\u{0}",
    "\u{1f}",
    "\u{fffd}",
    "é",
    "    ",
    "exit",
    "inactive: ",
    "set ",
    "delete ",
    "&a ",
    "*a",
    "<<: *a",
    "!!binary ",
    "? ",
    "|",
    ">",
    "\\",
    "\\u",
    "1e999",
    "-0",
    "null",
    "true",
    "{}",
    "[]",
    "interface Ethernet1/1",
    "no ",
    "   priority-flow-control priority 3 no-drop",
];

#[derive(Debug, Clone)]
enum Edit {
    Truncate(usize),
    DropLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Insert(usize, usize, usize),
    Indent(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Truncate),
        any::<usize>().prop_map(Edit::DropLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<usize>(), any::<usize>(), 0..SNIPPETS.len())
            .prop_map(|(l, c, s)| Edit::Insert(l, c, s)),
        (any::<usize>(), 0usize..12).prop_map(|(l, n)| Edit::Indent(l, n)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for e in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match *e {
            Edit::Truncate(at) => {
                let joined = lines.join("\n");
                let mut cut = at % (joined.len() + 1);
                while !joined.is_char_boundary(cut) {
                    cut -= 1;
                }
                lines = joined[..cut].lines().map(str::to_string).collect();
            }
            Edit::DropLine(i) => {
                lines.remove(i % n);
            }
            Edit::DuplicateLine(i) => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Edit::SwapLines(a, b) => lines.swap(a % n, b % n),
            Edit::Insert(i, c, s) => {
                let line = &mut lines[i % n];
                let mut at = c % (line.len() + 1);
                while !line.is_char_boundary(at) {
                    at -= 1;
                }
                line.insert_str(at, SNIPPETS[s]);
            }
            Edit::Indent(i, k) => {
                let line = &mut lines[i % n];
                let trimmed = line.trim_start().to_string();
                *line = format!("{}{trimmed}", " ".repeat(k));
            }
        }
    }
    lines.join("\n")
}

/// What of a target's configuration fabricc owns.
type Owns = Box<dyn Fn(&[&str]) -> bool>;

fn inside(l: canon::Loc, len: usize) {
    assert!(
        l.start <= l.end && l.end as usize <= len,
        "{l:?} outside 0..{len}"
    );
}

/// Parses `text` as `os` and compares it with `generated` as fabricc's side.
fn exercise(os: SwitchOs, generated: &str, text: &str) {
    let (expected, form) = verify::parse(os, generated).expect("the seed parses");
    match verify::parse(os, text) {
        Ok((actual, _)) => {
            let owns: Owns = match os {
                SwitchOs::Sonic => {
                    let s = sonic::Scope::new(&expected);
                    Box::new(move |p| s.owns(p))
                }
                SwitchOs::Cumulus => {
                    let s = nvue::Scope::new(&expected);
                    Box::new(move |p| s.owns(p))
                }
                SwitchOs::Eos | SwitchOs::Nxos | SwitchOs::Comware => {
                    let s = cli::Scope::new(&expected);
                    Box::new(move |p| s.owns(p))
                }
                SwitchOs::Junos => {
                    let s = junos::Scope::new(&expected);
                    Box::new(move |p| s.owns(p))
                }
                SwitchOs::Vrp => {
                    let s = fabricc::verify::vrp::Scope::new(&expected);
                    Box::new(move |p| s.owns(p))
                }
            };
            for d in canon::compare(form, &expected, &actual, &*owns) {
                inside(d.at(), text.len());
            }
            // And the other way round: the edited text as what fabricc generates.
            let _ = canon::compare(form, &actual, &expected, &|_| true);
        }
        Err((offset, _)) => assert!(offset <= text.len(), "{offset} > {}", text.len()),
    }
}

fn exercise_json(text: &str) {
    if let Ok(node) = json::parse(text) {
        let _ = lldp::parse(&node);
        let _ = host::netdevs(&node);
        for script in std::iter::once(SCRIPT).chain(DCBNL_SCRIPTS.iter().copied()) {
            let intent = host::intent(script).expect("the script has an intent");
            let (expected, actual) = host::canons(&intent, &node);
            for d in canon::compare(canon::Form::Host, &expected, &actual, &|_| false) {
                inside(d.at(), text.len());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn switch_state_parsers_never_panic(
        seed in 0..SEEDS.len(),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let (os, text) = SEEDS[seed];
        let edited = apply(text, &edits);
        exercise(os, text, &edited);
        // Any target's parser on any target's text.
        for &(other, generated) in SEEDS {
            exercise(other, generated, &edited);
        }
    }

    #[test]
    fn host_and_lldp_parsers_never_panic(
        which in 0..5usize,
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let seed = [HOST_STATE, LLDP, DCBNL_STATES[0], DCBNL_STATES[1], DCBNL_STATES[2]][which];
        // One line per member, so that line edits cut through the structure.
        let text = seed.replace(",\"", ",\n\"").replace('{', "{\n");
        exercise_json(&apply(&text, &edits));
    }
}

/// Each committed DCBNL state is in sync with its script's intent, and a changed PFC entry is
/// one difference naming the NIC and the priority.
#[test]
fn dcbnl_states_compare_entry_by_entry() {
    let script = "DRIVER=dcb\nE_MTU=4200\nE_PFC=\"0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off\"\nE_PRIO_TC=\"0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7\"\nE_TC_TSA=\"0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:ets 7:strict\"\nE_TC_BW=\"0:40 1:0 2:0 3:60 4:0 5:0 6:0 7:0\"\nE_ROCE_MODE=\"RoCE v2\"\nE_TOS=106\nNICS+=(1)\n";
    let intent = host::intent(script).unwrap();
    assert!(intent.dcbnl());
    let node = json::parse(DCBNL_STATES[2]).unwrap();
    let (e, a) = host::canons(&intent, &node);
    assert!(canon::compare(canon::Form::Host, &e, &a, &|_| false).is_empty());
    let changed = DCBNL_STATES[2].replacen("\"pfc\":[0,0,0,1", "\"pfc\":[0,0,0,0", 1);
    let node = json::parse(&changed).unwrap();
    let (e, a) = host::canons(&intent, &node);
    let d = canon::compare(canon::Form::Host, &e, &a, &|_| false);
    assert!(
        matches!(&d[..], [canon::Diff::Differs { key, .. }] if key == "nic1 pfc 3"),
        "{d:?}"
    );
}

#[test]
fn the_seeds_are_in_sync_with_themselves() {
    for &(os, text) in SEEDS {
        let (c, form) = verify::parse(os, text).expect("parses");
        assert!(c.len() > 10, "{os:?}: {} settings", c.len());
        assert!(canon::compare(form, &c, &c, &|_| true).is_empty(), "{os:?}");
    }
}

/// A hostile text is an error (or a bounded result) well within a second, never a crash.
fn hostile(name: &str, os: Option<SwitchOs>, text: &str) {
    let t = Instant::now();
    match os {
        Some(os) => {
            if let Ok((c, _)) = verify::parse(os, text) {
                assert!(
                    c.len() * 64 <= canon::budget(text.len()),
                    "{name}: {} settings",
                    c.len()
                );
            }
        }
        None => exercise_json(text),
    }
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "{name}: {:?}",
        t.elapsed()
    );
}

#[test]
fn deep_nesting_is_bounded() {
    let n = 100_000;
    hostile("json arrays", Some(SwitchOs::Sonic), &"[".repeat(n));
    hostile("json objects", Some(SwitchOs::Sonic), &"{\"a\":".repeat(n));
    hostile("json host", None, &"{\"nics\":[".repeat(n));
    let deep_driver = format!(
        "{{\"nics\":[{{\"nic\":\"nic1\",\"branch\":\"configfs\",\"state\":{{\"driver_state\":{}",
        "{\"roce_dscp\":".repeat(n)
    );
    hostile("json driver_state", None, &deep_driver);
    // A DCBNL state whose lists are a million entries long: compared entry by entry only as
    // far as the intent goes (64 DSCPs, 8 priorities).
    let long = vec!["1"; 1_000_000].join(",");
    let wide = DCBNL_STATES[0]
        .replacen("\"pfc\":[", &format!("\"pfc\":[{long},"), 1)
        .replacen("\"dscp2prio\":[", &format!("\"dscp2prio\":[{long},"), 1);
    hostile("json long lists", None, &wide);
    hostile("junos braces", Some(SwitchOs::Junos), &"a {\n".repeat(n));
    hostile("yaml flow", Some(SwitchOs::Cumulus), &"[".repeat(n));
    let block: String = (0..2_000)
        .map(|i| format!("{}a:\n", " ".repeat(i)))
        .collect();
    hostile("yaml block", Some(SwitchOs::Cumulus), &block);
    let cli: String = (0..2_000)
        .map(|i| format!("{}interface x\n", " ".repeat(i)))
        .collect();
    hostile("cli indentation", Some(SwitchOs::Eos), &cli);
    // Aliases that double at every level (a "billion laughs").
    let mut laughs = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..30 {
        let p = i - 1;
        laughs.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    hostile("yaml aliases", Some(SwitchOs::Cumulus), &laughs);
}

#[test]
fn a_text_that_expands_quadratically_is_stopped_at_its_budget() {
    // A section header of a megabyte over 200,000 one-word settings: 200 GB of paths if each
    // repeated its header, so the parser stops at its budget and says where.
    let header = format!("interface {}\n", "x".repeat(1 << 20));
    let body = " a\n".repeat(200_000);
    let text = format!("{header}{body}");
    for os in [SwitchOs::Eos, SwitchOs::Nxos] {
        let t = Instant::now();
        let e = verify::parse(os, &text).expect_err("over its budget");
        assert!(e.0 > header.len() && e.0 < text.len(), "{e:?}");
        assert!(e.1.contains("expands to more than"), "{}", e.1);
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    }
    let junos = format!("{} {{\n{}}}\n", "x".repeat(1 << 20), "a;\n".repeat(200_000));
    let t = Instant::now();
    let e = verify::parse(SwitchOs::Junos, &junos).expect_err("over its budget");
    assert!(e.1.contains("expands to more than"), "{}", e.1);
    // The parser stops at its budget (it copied the header into every later statement: 50 s).
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    // A CONFIG_DB key that names 20,000 ports over 2,000 fields.
    let ports: Vec<String> = (0..20_000).map(|i| format!("Ethernet{i}")).collect();
    let fields: Vec<String> = (0..2_000).map(|i| format!("\"f{i}\": \"v\"")).collect();
    let db = format!(
        "{{\"PORT_QOS_MAP\": {{\"{}\": {{{}}}}}}}",
        ports.join(","),
        fields.join(", ")
    );
    let e = verify::parse(SwitchOs::Sonic, &db).expect_err("over its budget");
    assert!(e.1.contains("expands to more than"), "{}", e.1);
}

#[test]
fn binary_and_oversized_files_are_refused_when_read() {
    let dir = std::env::temp_dir().join(format!("fabricc-verify-props-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("config_db.json");
    std::fs::write(&binary, [0x7b, 0xff, 0xfe, 0x00, 0x7d]).unwrap();
    assert_eq!(
        state::read(&binary, 1 << 20),
        Err(state::ReadError::NotText { offset: 1 })
    );
    let big = dir.join("running-config");
    std::fs::write(&big, "x".repeat(4096)).unwrap();
    assert_eq!(
        state::read(&big, 1024),
        Err(state::ReadError::TooLarge { limit: 1024 })
    );
    assert_eq!(state::read(&dir, 1024), Err(state::ReadError::NotAFile));
    let _ = std::fs::remove_dir_all(&dir);
}
