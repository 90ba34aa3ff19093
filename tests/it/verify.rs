//! `fabricc verify` end to end, through the binary, on every target.
//!
//! For each target a fabric is built in memory; every generated configuration is merged into a
//! whole device configuration of that OS (`tests/data/verify/`, with an address on each fabric
//! port and, on SONiC, each port's alias) the way the device's own merge does, every host gets
//! the `state.json` its script's `--collect` prints when in sync, and every device an
//! `lldp.json` of the cabling plan in its OS's form. `verify` must exit 0 on that state; then
//! one change at a time (a PFC priority removed, an ECN threshold changed, a stale lossless
//! buffer entry, an extra no-drop priority, a host's DSCP map changed, two cables swapped)
//! must give exit 1 and exactly the expected findings, naming device and key.
//!
//! `fixtures/verify/FABnnn_*.fab` are the check-style fixtures of the verify codes: the fabric,
//! then `# state:` lines that change the realistic in-sync state (`replace FILE OLD => NEW`,
//! `remove FILE`, `write FILE TEXT`), and `# expect: CODE device key` lines; the human output
//! is an insta snapshot.

use crate::support::Fabricc;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::synth;
use fabricc::lower::Targets;
use fabricc::model::Limits;
use fabricc::output::generate::{BuildInput, generate};
use fabricc::pipeline::{self, Checked};
use fabricc::render::{Artifact, ArtifactKind, Templates};
use fabricc::source::Sources;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("verify-tests")
        .join(format!(
            "{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn base(file: &str) -> String {
    fs::read_to_string(root().join("tests/data/verify").join(file)).unwrap()
}

/// A fabric built in memory: its check and every generated file.
fn build(fab: &Path) -> (Checked, Vec<Artifact>) {
    let mut sources = Sources::new();
    let checked = pipeline::check(&mut sources, fab, &Limits::default()).expect("readable");
    assert_eq!(checked.errors(), 0, "{} has errors", fab.display());
    let templates = Templates::embedded().unwrap();
    let files =
        generate(BuildInput::of(&checked).unwrap(), Targets::ALL, &templates).expect("builds");
    (checked, files)
}

// ------------------------------------------------------------------ merging into a device

/// SONiC: per-port addresses and aliases, then the fragment field by field (`config load` is
/// `sonic-cfggen -j … --write-to-db`, an HMSET per key).
fn sonic_device(fragment: &str) -> String {
    let mut doc: Value = serde_json::from_str(&base("sonic/config_db.json")).unwrap();
    let frag: Value = serde_json::from_str(fragment).unwrap();
    let ports: Vec<String> = frag["PORT"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    for (i, p) in ports.iter().enumerate() {
        let n: usize = p.trim_start_matches("Ethernet").parse().unwrap_or(i);
        doc["PORT"][p] = serde_json::json!({
            "alias": format!("etp{}", i + 1),
            "index": format!("{}", i + 1),
            "admin_status": "up",
            "autoneg": "off",
        });
        doc["INTERFACE"][p] = serde_json::json!({});
        doc["INTERFACE"][format!("{p}|10.0.{n}.0/31")] = serde_json::json!({});
    }
    for (table, keys) in frag.as_object().unwrap() {
        for (key, fields) in keys.as_object().unwrap() {
            for (field, value) in fields.as_object().unwrap() {
                doc[table][key][field] = value.clone();
            }
        }
    }
    pretty(&doc)
}

/// `sonic-cfggen --print-data`: JSON with 4-space indentation and sorted keys.
fn pretty(v: &Value) -> String {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    serde::Serialize::serialize(v, &mut ser).unwrap();
    String::from_utf8(out).unwrap() + "\n"
}

fn sonic_aliases(config_db: &str) -> BTreeMap<String, String> {
    let v: Value = serde_json::from_str(config_db).unwrap();
    v["PORT"]
        .as_object()
        .unwrap()
        .iter()
        .filter_map(|(k, f)| Some((k.clone(), f["alias"].as_str()?.to_string())))
        .collect()
}

/// NVUE: the fragment's `set` tree merged into the startup configuration (`nv config patch`).
fn cumulus_device(fragment: &str) -> String {
    use serde_yaml::Value as Y;
    fn merge(a: &mut Y, b: &Y) {
        match (a, b) {
            (Y::Mapping(a), Y::Mapping(b)) => {
                for (k, v) in b {
                    match a.get_mut(k) {
                        Some(x) => merge(x, v),
                        None => {
                            a.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
            (a, b) => *a = b.clone(),
        }
    }
    let mut doc: Y = serde_yaml::from_str(&base("cumulus/startup.yaml")).unwrap();
    let frag: Y = serde_yaml::from_str(fragment).unwrap();
    let set = doc
        .as_sequence_mut()
        .unwrap()
        .iter_mut()
        .find_map(|i| i.get_mut("set"))
        .unwrap();
    for item in frag.as_sequence().unwrap() {
        if let Some(f) = item.get("set") {
            if let Some(ports) = f.get("interface").and_then(Y::as_mapping) {
                for (i, p) in ports.keys().enumerate() {
                    let extra: Y = serde_yaml::from_str(&format!(
                        "interface: {{ {p}: {{ type: swp, link: {{ state: up }}, ip: {{ address: {{ '10.0.{i}.0/31': {{}} }} }} }} }}",
                        p = p.as_str().unwrap()
                    ))
                    .unwrap();
                    merge(set, &extra);
                }
            }
            merge(set, f);
        }
    }
    serde_yaml::to_string(&doc).unwrap()
}

/// An indented CLI text as a tree of lines.
#[derive(Debug, Clone)]
struct Line {
    text: String,
    children: Vec<Line>,
}

fn cli_tree(text: &str, keep: &dyn Fn(&str) -> bool) -> Vec<Line> {
    let mut flat: Vec<(usize, String)> = vec![];
    for l in text.lines() {
        let t = l.trim_start();
        if t.is_empty() || !keep(t) {
            continue;
        }
        flat.push((l.len() - t.len(), t.trim_end().to_string()));
    }
    fn build(flat: &[(usize, String)], i: &mut usize, indent: Option<usize>) -> Vec<Line> {
        let mut out = Vec::new();
        while *i < flat.len() {
            let (ind, text) = &flat[*i];
            if indent.is_some_and(|p| *ind <= p) {
                break;
            }
            *i += 1;
            let children = build(flat, i, Some(*ind));
            out.push(Line {
                text: text.clone(),
                children,
            });
        }
        out
    }
    let mut i = 0;
    build(&flat, &mut i, None)
}

fn cli_merge(into: &mut Vec<Line>, from: &[Line]) {
    for l in from {
        let section = into
            .iter()
            .position(|x| x.text == l.text && !x.children.is_empty());
        match section {
            Some(i) => cli_merge(&mut into[i].children, &l.children),
            None if l.children.is_empty() && into.iter().any(|x| x.text == l.text) => {}
            None => into.push(l.clone()),
        }
    }
}

fn cli_print(lines: &[Line], step: usize, depth: usize, out: &mut String) {
    for l in lines {
        out.push_str(&" ".repeat(step * depth));
        out.push_str(&l.text);
        out.push('\n');
        cli_print(&l.children, step, depth + 1, out);
        if depth == 0 && !l.children.is_empty() {
            out.push_str("!\n");
        }
    }
}

fn port_lines(fragment: &[Line]) -> Vec<String> {
    fragment
        .iter()
        .filter(|l| l.text.starts_with("interface "))
        .map(|l| l.text.clone())
        .collect()
}

/// EOS: the fragment's sections merged into the running-config, the DSCP map printed grouped
/// differently (EOS prints it per traffic class), `!` comments dropped and `!!` kept.
fn eos_device(fragment: &str) -> String {
    let mut tree = cli_tree(&base("eos/running-config"), &|t| {
        !t.starts_with('!') && t != "end"
    });
    // What a fresh apply leaves: the fragment's removals and default restatements go.
    let fragment =
        &fabricc::verify::cli::fragment_text(fragment, fabricc::verify::cli::Dialect::Eos);
    let frag = cli_tree(fragment, &|t| !t.starts_with('!') || t.starts_with("!!"));
    for (i, p) in port_lines(&frag).iter().enumerate() {
        cli_merge(
            &mut tree,
            &cli_tree(
                &format!("{p}\n   no shutdown\n   ip address 10.0.{i}.0/31\n"),
                &|_| true,
            ),
        );
    }
    // `qos map dscp A B C … to traffic-class T` in two lines per traffic class.
    let frag: Vec<Line> = frag
        .into_iter()
        .flat_map(|l| {
            let words: Vec<&str> = l.text.split(' ').collect();
            match words.iter().position(|w| *w == "to") {
                Some(to) if l.text.starts_with("qos map dscp ") && to > 4 => {
                    let dscps = &words[3..to];
                    let (a, b) = dscps.split_at(dscps.len() / 2);
                    let tail = words[to..].join(" ");
                    vec![
                        Line {
                            text: format!("qos map dscp {} {tail}", b.join(" ")),
                            children: vec![],
                        },
                        Line {
                            text: format!("qos map dscp {} {tail}", a.join(" ")),
                            children: vec![],
                        },
                    ]
                }
                _ => vec![l],
            }
        })
        .collect();
    cli_merge(&mut tree, &frag);
    let mut out = String::from("! Command: show running-config\n!\n");
    cli_print(&tree, 3, 0, &mut out);
    out.push_str("end\n");
    out
}

/// NX-OS: the fragment's sections merged into the running-config, every `!` line dropped.
fn nxos_device(fragment: &str) -> String {
    let text = base("nxos/running-config");
    let header: String = text
        .lines()
        .take_while(|l| !l.starts_with("version"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut tree = cli_tree(&text, &|t| !t.starts_with('!'));
    let fragment =
        &fabricc::verify::cli::fragment_text(fragment, fabricc::verify::cli::Dialect::Nxos);
    let frag = cli_tree(fragment, &|t| !t.starts_with('!'));
    for (i, p) in port_lines(&frag).iter().enumerate() {
        cli_merge(
            &mut tree,
            &cli_tree(
                &format!("{p}\n  no switchport\n  ip address 10.0.{i}.0/31\n  no shutdown\n"),
                &|_| true,
            ),
        );
    }
    cli_merge(&mut tree, &frag);
    let mut out = header;
    let mut body = String::new();
    cli_print(&tree, 2, 0, &mut body);
    out.push_str(&body.replace("!\n", "\n"));
    out
}

/// A Junos curly text as a tree of statements (test-only reader of well-formed text).
fn junos_tree(text: &str) -> Vec<Line> {
    let mut cleaned = String::new();
    let mut in_comment = false;
    for l in text.lines() {
        let mut l = l.to_string();
        if in_comment {
            if let Some(i) = l.find("*/") {
                l = l[i + 2..].to_string();
                in_comment = false;
            } else {
                continue;
            }
        }
        if let Some(i) = l.find("/*") {
            in_comment = !l[i..].contains("*/");
            l.truncate(i);
        }
        if let Some(i) = l.find("##") {
            l.truncate(i);
        }
        cleaned.push_str(&l);
        cleaned.push('\n');
    }
    fn parse(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Vec<Line> {
        let mut out = Vec::new();
        let mut text = String::new();
        let mut quoted = false;
        while let Some(c) = chars.next() {
            match c {
                '"' => {
                    quoted = !quoted;
                    text.push(c);
                }
                _ if quoted => text.push(c),
                '{' => {
                    let children = parse(chars);
                    out.push(Line {
                        text: norm(&text),
                        children,
                    });
                    text.clear();
                }
                '}' => return out,
                ';' => {
                    out.push(Line {
                        text: norm(&text),
                        children: vec![],
                    });
                    text.clear();
                }
                _ => text.push(c),
            }
        }
        out
    }
    fn norm(t: &str) -> String {
        t.split_whitespace().collect::<Vec<_>>().join(" ")
    }
    parse(&mut cleaned.chars().peekable())
}

fn junos_print(lines: &[Line], depth: usize, out: &mut String) {
    for l in lines {
        out.push_str(&"    ".repeat(depth));
        if l.children.is_empty() {
            out.push_str(&format!("{};\n", l.text));
        } else {
            out.push_str(&format!("{} {{\n", l.text));
            junos_print(&l.children, depth + 1, out);
            out.push_str(&"    ".repeat(depth));
            out.push_str("}\n");
        }
    }
}

/// Junos: the fragment loaded with `load replace` into the configuration, printed curly: the
/// group `fabricc` (its `replace:` tag acts while loading and is not printed) and
/// `apply-groups fabricc`, with each fabric port's unit configured outside the group.
fn junos_device(fragment: &str) -> String {
    let text = base("junos/config");
    let mut tree = junos_tree(&text);
    let mut frag = junos_tree(fragment);
    for g in frag.iter_mut().filter(|l| l.text == "groups") {
        for l in &mut g.children {
            if let Some(name) = l.text.strip_prefix("replace: ") {
                l.text = name.to_string();
            }
        }
    }
    let group = frag
        .iter()
        .filter(|l| l.text == "groups")
        .flat_map(|g| &g.children)
        .find(|l| l.text == "fabricc");
    if let Some(ifs) = group.and_then(|g| g.children.iter().find(|l| l.text == "interfaces")) {
        for (i, p) in ifs.children.iter().enumerate() {
            let extra = junos_tree(&format!(
                "interfaces {{ {} {{ unit 0 {{ family inet {{ address 10.0.{i}.0/31; }} }} }} }}",
                p.text
            ));
            cli_merge(&mut tree, &extra);
        }
    }
    cli_merge(&mut tree, &frag);
    let mut out = String::from("## Last commit: 2026-01-05 10:00:00 UTC by admin\n");
    junos_print(&tree, 0, &mut out);
    out
}

// ------------------------------------------------------------------ the state directory

/// The realistic in-sync state of a built fabric: (relative path → text).
fn realistic(checked: &Checked, files: &[Artifact]) -> BTreeMap<String, String> {
    let fabric = checked.fabric.as_ref().unwrap();
    let mut state: BTreeMap<String, String> = synth::state(fabric, files).into_iter().collect();
    let mut os_of: BTreeMap<String, String> = BTreeMap::new();
    for a in files.iter().filter(|a| a.kind == ArtifactKind::Switch) {
        os_of.insert(a.device.clone(), a.target.clone());
    }
    let mut aliases: BTreeMap<(String, String), String> = BTreeMap::new();
    for (device, os) in &os_of {
        let (name, merged) = match os.as_str() {
            "sonic" => {
                let p = format!("{device}/config_db.json");
                let m = sonic_device(&state[&p]);
                for (port, alias) in sonic_aliases(&m) {
                    aliases.insert((device.clone(), port), alias);
                }
                (p, m)
            }
            "cumulus" => {
                let p = format!("{device}/startup.yaml");
                let m = cumulus_device(&state[&p]);
                (p, m)
            }
            "eos" => {
                let p = format!("{device}/running-config");
                let m = eos_device(&state[&p]);
                (p, m)
            }
            "nxos" => {
                let p = format!("{device}/running-config");
                let m = nxos_device(&state[&p]);
                (p, m)
            }
            "junos" => {
                let p = format!("{device}/config");
                let m = junos_device(&state[&p]);
                (p, m)
            }
            other => panic!("target {other}"),
        };
        state.insert(name, merged);
    }
    // LLDP in each OS's own form; a SONiC neighbour names its port by alias, a host by netdev.
    let hosts: BTreeMap<String, ()> = fabric.hosts.iter().map(|h| (h.name.clone(), ())).collect();
    let port_name = |d: &str, p: &str| -> String {
        if let Some(a) = aliases.get(&(d.to_string(), p.to_string())) {
            return a.clone();
        }
        match (hosts.contains_key(d), p.strip_prefix("nic")) {
            (true, Some(n)) => synth::netdev(n.parse().unwrap()),
            _ => p.to_string(),
        }
    };
    let links = synth::cabled_ports(fabric);
    for (device, l) in &links {
        let path = format!("{device}/lldp.json");
        let text = match os_of.get(device).map(String::as_str) {
            Some("eos") => {
                let n: Vec<String> = l
                    .iter()
                    .map(|(p, peer, pp)| {
                        format!(
                            r#"{{"port": "{p}", "neighborDevice": "{peer}.example.net", "neighborPort": "{}", "ttl": 120}}"#,
                            port_name(peer, pp)
                        )
                    })
                    .collect();
                format!(
                    "{{\"tablesLastChangeTime\": 1767607200.0, \"lldpNeighbors\": [{}]}}\n",
                    n.join(", ")
                )
            }
            Some("nxos") => {
                let n: Vec<String> = l
                    .iter()
                    .map(|(p, peer, pp)| {
                        format!(
                            r#"{{"chassis_type": "Locally Assigned", "chassis_id": "{peer}", "l_port_id": "{}", "hold_time": "120", "port_type": "Interface Name", "port_id": "{}"}}"#,
                            p.replace("Ethernet", "Eth"),
                            port_name(peer, pp)
                        )
                    })
                    .collect();
                format!(
                    "{{\"neigh_hdr\": \"neigh_hdr\", \"TABLE_nbor\": {{\"ROW_nbor\": [{}]}}}}\n",
                    n.join(", ")
                )
            }
            Some("junos") => continue,
            // lldpd (SONiC, Cumulus, hosts): local ports by kernel name; a host neighbour
            // sends its MAC address as port ID and its netdev as description (lldpcli(8)).
            _ => {
                let local = |d: &str, p: &str| match (hosts.contains_key(d), p.strip_prefix("nic"))
                {
                    (true, Some(n)) => synth::netdev(n.parse().unwrap()),
                    _ => p.to_string(),
                };
                let items: Vec<String> = l
                    .iter()
                    .map(|(p, peer, pp)| {
                        let (id, kind) = if hosts.contains_key(peer) {
                            ("02:00:5e:00:53:aa".to_string(), "mac")
                        } else {
                            (port_name(peer, pp), "local")
                        };
                        format!(
                            r#"{{"{}": {{"via": "LLDP", "rid": "1", "age": "0 day, 01:00:00", "chassis": {{"{peer}": {{"id": {{"type": "mac", "value": "02:00:5e:00:53:01"}}, "descr": "fabric device"}}}}, "port": {{"id": {{"type": "{kind}", "value": "{id}"}}, "descr": "{}", "ttl": "120"}}}}}}"#,
                            local(device, p),
                            port_name(peer, pp)
                        )
                    })
                    .collect();
                format!("{{\"lldp\": {{\"interface\": [{}]}}}}\n", items.join(", "))
            }
        };
        state.insert(path, text);
    }
    state
}

fn write_state(dir: &Path, state: &BTreeMap<String, String>) {
    let _ = fs::remove_dir_all(dir);
    for (rel, text) in state {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

/// (code, device, key or port) of every finding, sorted.
type Found = Vec<(String, String, String)>;

fn run(fab: &Path, state: &Path, extra: &[&str]) -> (i32, Found, String) {
    let o = Fabricc::new()
        .arg("verify")
        .arg(fab)
        .arg("--state")
        .arg(state)
        .args(["--format", "json"])
        .args(extra)
        .run();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let v: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&o.stderr)));
    let mut found: Found = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
            let key = if f.get("port").is_some() {
                s("port")
            } else {
                s("key")
            };
            (s("code"), s("device"), key)
        })
        .collect();
    found.sort();
    (o.status.code().unwrap_or(-1), found, text)
}

fn f(code: &str, device: &str, key: &str) -> (String, String, String) {
    (code.to_string(), device.to_string(), key.to_string())
}

/// One fabric's in-sync state and a way to try a change on it.
struct Bench {
    fab: PathBuf,
    dir: PathBuf,
    state: BTreeMap<String, String>,
}

impl Bench {
    fn new(fab: &str) -> Self {
        let fab = root().join(fab);
        let (checked, files) = build(&fab);
        let state = realistic(&checked, &files);
        let dir = scratch(fab.file_stem().unwrap().to_str().unwrap());
        write_state(&dir, &state);
        let (code, found, text) = run(&fab, &dir, &[]);
        assert_eq!(
            (code, &found),
            (0, &vec![]),
            "{}: the merged state is in sync\n{text}",
            fab.display()
        );
        Bench { fab, dir, state }
    }

    /// Applies `change` to one file, runs verify, restores the file.
    #[track_caller]
    fn expect(&self, file: &str, change: &dyn Fn(&str) -> String, want: &[(&str, &str, &str)]) {
        let old = &self.state[file];
        let new = change(old);
        assert_ne!(old, &new, "the change to {file} changed nothing");
        fs::write(self.dir.join(file), &new).unwrap();
        let (code, found, text) = run(&self.fab, &self.dir, &[]);
        fs::write(self.dir.join(file), old).unwrap();
        let mut want: Found = want.iter().map(|(c, d, k)| f(c, d, k)).collect();
        want.sort();
        assert_eq!(found, want, "{file}\n{text}");
        assert_eq!(code, 1, "{file}");
    }
}

fn replace_once(from: &'static str, to: &'static str) -> impl Fn(&str) -> String {
    move |s: &str| {
        assert!(s.contains(from), "`{from}` not found");
        s.replacen(from, to, 1)
    }
}

fn json_edit(edit: impl Fn(&mut Value)) -> impl Fn(&str) -> String {
    move |s: &str| {
        let mut v: Value = serde_json::from_str(s).unwrap();
        edit(&mut v);
        pretty(&v)
    }
}

/// Swaps the neighbours of two local ports in an lldpctl-style `lldp.json`.
fn swap_lldp(a: &'static str, b: &'static str) -> impl Fn(&str) -> String {
    move |s: &str| {
        let mut v: Value = serde_json::from_str(s).unwrap();
        let list = v["lldp"]["interface"].as_array_mut().unwrap();
        let ia = list.iter().position(|x| x.get(a).is_some()).unwrap();
        let ib = list.iter().position(|x| x.get(b).is_some()).unwrap();
        let va = list[ia][a].clone();
        let vb = list[ib][b].clone();
        list[ia][a] = vb;
        list[ib][b] = va;
        v.to_string()
    }
}

/// Host mutations: a field of nic1's state.
fn host_edit(key: &'static str, index: usize, value: i64) -> impl Fn(&str) -> String {
    json_edit(move |v| v["nics"][0]["state"][key][index] = Value::from(value))
}

// ------------------------------------------------------------------ every target

#[test]
fn sonic() {
    let b = Bench::new("fixtures/build/inputs/sonic-sn5600-2x2.fab");
    let db = "leaf1/config_db.json";
    // A PFC priority removed.
    b.expect(
        db,
        &json_edit(|v| v["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] = "".into()),
        &[("FAB970", "leaf1", "PORT_QOS_MAP|Ethernet0|pfc_enable")],
    );
    // An ECN threshold changed.
    b.expect(
        db,
        &json_edit(|v| {
            let (_, wred) = v["WRED_PROFILE"]
                .as_object_mut()
                .unwrap()
                .iter_mut()
                .find(|(k, _)| k.starts_with("FABRICC_ECN"))
                .unwrap();
            wred["green_min_threshold"] = "200000".into();
        }),
        &[(
            "FAB970",
            "leaf1",
            &wred_key(&b.state[db], "green_min_threshold"),
        )],
    );
    // A stale lossless PG added.
    b.expect(
        db,
        &json_edit(|v| {
            v["BUFFER_PG"]["Ethernet0|3-4"] =
                serde_json::json!({"profile": "pg_lossless_100000_5m_profile"})
        }),
        &[("FAB972", "leaf1", "BUFFER_PG|Ethernet0|3-4")],
    );
    // An extra no-drop priority.
    b.expect(
        db,
        &json_edit(|v| v["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] = "3,4".into()),
        &[("FAB970", "leaf1", "PORT_QOS_MAP|Ethernet0|pfc_enable")],
    );
    // A leftover field on a generated record (`config load` merges fields).
    b.expect(
        db,
        &json_edit(|v| {
            v["BUFFER_PROFILE"]["egress_lossless_profile"]["static_th"] = "12345".into()
        }),
        &[(
            "FAB972",
            "leaf1",
            "BUFFER_PROFILE|egress_lossless_profile|static_th",
        )],
    );
    // A missing queue entry.
    b.expect(
        db,
        &json_edit(|v| {
            v["QUEUE"].as_object_mut().unwrap().remove("Ethernet0|3");
        }),
        &[("FAB971", "leaf1", "QUEUE|Ethernet0|3")],
    );
    hosts_and_lldp(&b, "leaf1", "Ethernet0", "Ethernet4");
}

fn wred_key(config_db: &str, field: &str) -> String {
    let v: Value = serde_json::from_str(config_db).unwrap();
    let name = v["WRED_PROFILE"]
        .as_object()
        .unwrap()
        .keys()
        .find(|k| k.starts_with("FABRICC_ECN"))
        .unwrap()
        .clone();
    format!("WRED_PROFILE|{name}|{field}")
}

/// The host and LLDP mutations, the same on every target: nic1 of gpu1 is on `leaf`'s `a`,
/// gpu2's nic1 on its `b`.
fn hosts_and_lldp(b: &Bench, leaf: &'static str, a: &'static str, bport: &'static str) {
    let st = "gpu1/state.json";
    // A host's DSCP map changed.
    b.expect(
        st,
        &host_edit("dscp2prio", 26, 0),
        &[("FAB970", "gpu1", "nic1 dscp2prio 26")],
    );
    // A host's PFC priority removed.
    b.expect(
        st,
        &host_edit("pfc", 3, 0),
        &[("FAB970", "gpu1", "nic1 pfc 3")],
    );
    // A NIC the host did not find.
    b.expect(
        st,
        &json_edit(|v| v["nics"][1]["state"] = Value::Null),
        &[("FAB971", "gpu1", "nic2")],
    );
    // Two host cables swapped on the leaf.
    let lldp = format!("{leaf}/lldp.json");
    let swapped: Box<dyn Fn(&str) -> String> =
        if b.state[&lldp].contains("lldpNeighbors") || b.state[&lldp].contains("TABLE_nbor") {
            Box::new(move |s: &str| {
                // EOS/NX-OS form: exchange the two ports' neighbour entries by local port name.
                let (x, y) = (
                    a.replace("Ethernet", "Eth"),
                    bport.replace("Ethernet", "Eth"),
                );
                let (x, y) = if s.contains("TABLE_nbor") {
                    (x, y)
                } else {
                    (a.to_string(), bport.to_string())
                };
                s.replace(&format!("\"{x}\""), "\"@@\"")
                    .replace(&format!("\"{y}\""), &format!("\"{x}\""))
                    .replace("\"@@\"", &format!("\"{y}\""))
            })
        } else {
            Box::new(swap_lldp(a, bport))
        };
    b.expect(
        &lldp,
        &*swapped,
        &[("FAB980", leaf, a), ("FAB980", leaf, bport)],
    );
    // A port without a neighbour (link down): a warning, so verify passes without --deny-warnings.
    let dir = &b.dir;
    let text = &b.state[&lldp];
    let cut = if text.contains("lldpNeighbors") {
        let mut v: Value = serde_json::from_str(text).unwrap();
        v["lldpNeighbors"]
            .as_array_mut()
            .unwrap()
            .retain(|n| n["port"] != a);
        v.to_string()
    } else if text.contains("TABLE_nbor") {
        let mut v: Value = serde_json::from_str(text).unwrap();
        let short = a.replace("Ethernet", "Eth");
        v["TABLE_nbor"]["ROW_nbor"]
            .as_array_mut()
            .unwrap()
            .retain(|n| n["l_port_id"] != short.as_str());
        v.to_string()
    } else {
        let mut v: Value = serde_json::from_str(text).unwrap();
        v["lldp"]["interface"]
            .as_array_mut()
            .unwrap()
            .retain(|x| x.get(a).is_none());
        v.to_string()
    };
    fs::write(dir.join(&lldp), &cut).unwrap();
    let (code, found, out) = run(&b.fab, dir, &[]);
    let (strict, _, _) = run(&b.fab, dir, &["--deny-warnings"]);
    fs::write(dir.join(&lldp), text).unwrap();
    assert_eq!(found, vec![f("FAB981", leaf, a)], "{out}");
    assert_eq!((code, strict), (0, 1));
}

#[test]
fn cumulus() {
    let b = Bench::new("fixtures/build/inputs/cumulus-2x2.fab");
    let y = "leaf1/startup.yaml";
    b.expect(
        y,
        &yaml_edit(|v| {
            v["qos"]["pfc"]["default-global"]["switch-priority"]
                .as_mapping_mut()
                .unwrap()
                .remove("3");
        }),
        &[("FAB970", "leaf1", "qos pfc default-global switch-priority")],
    );
    b.expect(y, &yaml_edit(|v| {
        v["qos"]["congestion-control"]["default-global"]["traffic-class"]["3"]["min-threshold"] = 200000.into();
    }), &[("FAB970", "leaf1", "qos congestion-control default-global traffic-class 3 min-threshold")]);
    // A stale lossless buffer: another priority in the lossless pool.
    b.expect(
        y,
        &yaml_edit(|v| {
            v["qos"]["traffic-pool"]["default-lossless"]["switch-priority"]["4"] =
                serde_yaml::Mapping::new().into();
        }),
        &[(
            "FAB972",
            "leaf1",
            "qos traffic-pool default-lossless switch-priority",
        )],
    );
    b.expect(
        y,
        &yaml_edit(|v| {
            v["qos"]["pfc"]["default-global"]["switch-priority"]["4"] =
                serde_yaml::Mapping::new().into();
        }),
        &[("FAB972", "leaf1", "qos pfc default-global switch-priority")],
    );
    // Unrelated NVUE settings are not fabricc's.
    let (code, found, _) = run(&b.fab, &b.dir, &[]);
    assert_eq!((code, found), (0, vec![]));
    hosts_and_lldp(&b, "leaf1", "swp1", "swp2");
}

fn yaml_edit(edit: impl Fn(&mut serde_yaml::Value)) -> impl Fn(&str) -> String {
    move |s: &str| {
        let mut doc: serde_yaml::Value = serde_yaml::from_str(s).unwrap();
        let set = doc
            .as_sequence_mut()
            .unwrap()
            .iter_mut()
            .find_map(|i| i.get_mut("set"))
            .unwrap();
        edit(set);
        serde_yaml::to_string(&doc).unwrap()
    }
}

#[test]
fn eos() {
    let b = Bench::new("fixtures/fabrics/explicit-leaf-spine.fab");
    let rc = "S1/running-config";
    b.expect(
        rc,
        &replace_once("   priority-flow-control priority 3 no-drop\n", ""),
        &[(
            "FAB971",
            "S1",
            "qos profile FABRICC_ROCE / priority-flow-control priority",
        )],
    );
    b.expect(
        rc,
        &replace_once(
            "minimum-threshold 150000 bytes",
            "minimum-threshold 200000 bytes",
        ),
        &[(
            "FAB970",
            "S1",
            "qos profile FABRICC_ROCE / uc-tx-queue 3 / random-detect ecn minimum-threshold",
        )],
    );
    b.expect(rc, &replace_once("   priority-flow-control priority 3 no-drop\n", "   priority-flow-control priority 3 no-drop\n   priority-flow-control priority 4 no-drop\n"),
        &[("FAB972", "S1", "qos profile FABRICC_ROCE / priority-flow-control priority")]);
    // A stale per-port lossless priority on a fabric port.
    b.expect(
        rc,
        &replace_once(
            "   service-profile FABRICC_ROCE\n",
            "   service-profile FABRICC_ROCE\n   priority-flow-control priority 4 no-drop\n",
        ),
        &[(
            "FAB972",
            "S1",
            "interface Ethernet1/1 / priority-flow-control priority",
        )],
    );
    // A DSCP classified into another traffic class.
    b.expect(
        rc,
        &|s: &str| s.replacen(" 26 to traffic-class 3", " 26 to traffic-class 0", 1),
        &[("FAB970", "S1", "qos map dscp 26")],
    );
    hosts_and_lldp_eos(&b);
}

/// explicit-leaf-spine: hosts hang off the SONiC leaves; the EOS spines see the leaves.
fn hosts_and_lldp_eos(b: &Bench) {
    b.expect(
        "h1/state.json",
        &host_edit("dscp2prio", 26, 0),
        &[("FAB970", "h1", "nic1 dscp2prio 26")],
    );
    b.expect(
        "S1/lldp.json",
        &|s: &str| {
            s.replace("\"Ethernet1/1\"", "\"@@\"")
                .replace("\"Ethernet2/1\"", "\"Ethernet1/1\"")
                .replace("\"@@\"", "\"Ethernet2/1\"")
        },
        &[
            ("FAB980", "S1", "Ethernet1/1"),
            ("FAB980", "S1", "Ethernet2/1"),
        ],
    );
}

#[test]
fn nxos() {
    let b = Bench::new("fixtures/build/inputs/nxos-2x2.fab");
    let rc = "leaf1/running-config";
    b.expect(rc, &replace_once("    pause pfc-cos 3\n", ""),
        &[("FAB971", "leaf1", "policy-map type network-qos FABRICC_NETWORK_QOS / class type network-qos c-8q-nq3 / pause pfc-cos")]);
    b.expect(rc, &replace_once("minimum-threshold 150 kbytes", "minimum-threshold 200 kbytes"),
        &[("FAB970", "leaf1", "policy-map type queuing FABRICC_EGRESS / class type queuing c-out-8q-q3 / random-detect minimum-threshold")]);
    b.expect(rc, &replace_once("  class type network-qos c-8q-nq-default\n", "  class type network-qos c-8q-nq4\n    mtu 9216\n    pause pfc-cos 4\n  class type network-qos c-8q-nq-default\n"),
        &[("FAB972", "leaf1", "policy-map type network-qos FABRICC_NETWORK_QOS / class type network-qos c-8q-nq4")]);
    // A stale ingress queuing policy (leftover lossless buffer) on a fabric port.
    b.expect(rc, &replace_once("  service-policy type qos input FABRICC_CLASSIFY\n", "  service-policy type qos input FABRICC_CLASSIFY\n  service-policy type queuing input OLD_INGRESS\n"),
        &[("FAB972", "leaf1", "interface Ethernet1/1 / service-policy type queuing input")]);
    hosts_and_lldp(&b, "leaf1", "Ethernet1/1", "Ethernet1/2");
}

#[test]
fn junos() {
    let b = Bench::new("fixtures/build/inputs/junos-2x2.fab");
    let c = "leaf1/config";
    b.expect(
        c,
        &replace_once(
            "class roce queue-num 3 no-loss pfc-priority 3;",
            "class roce queue-num 3;",
        ),
        &[(
            "FAB970",
            "leaf1",
            "class-of-service forwarding-classes class roce queue-num 3",
        )],
    );
    b.expect(
        c,
        &replace_once("fill-level [ 1 2 ];", "fill-level [ 1 4 ];"),
        &[(
            "FAB970",
            "leaf1",
            "class-of-service drop-profiles dp-roce interpolate fill-level",
        )],
    );
    b.expect(
        c,
        &replace_once(
            "class cnp queue-num 6;",
            "class cnp queue-num 6;\n        class old queue-num 4 no-loss pfc-priority 4;",
        ),
        &[(
            "FAB972",
            "leaf1",
            "class-of-service forwarding-classes class old queue-num 4 no-loss pfc-priority",
        )],
    );
    // A stale lossless input code point in a CN profile.
    b.expect(c, &replace_once("code-point 011010 {\n                                pfc;\n                            }", "code-point 011010 {\n                                pfc;\n                            }\n                            code-point 100000 {\n                                pfc;\n                            }"),
        &[("FAB972", "leaf1", "class-of-service congestion-notification-profile cnp-fabricc-3m input dscp code-point 100000")]);
    // The same state printed with `| display set` is in sync too.
    let set = set_form(&b.state[c]);
    fs::write(b.dir.join(c), &set).unwrap();
    let (code, found, text) = run(&b.fab, &b.dir, &[]);
    fs::write(b.dir.join(c), &b.state[c]).unwrap();
    assert_eq!((code, found), (0, vec![]), "{text}");
    hosts_and_lldp(&b, "leaf1", "et-0/0/0", "et-0/0/1");
}

/// The `| display set` form of a curly configuration.
fn set_form(curly: &str) -> String {
    fn walk(lines: &[Line], path: &mut Vec<String>, out: &mut String) {
        for l in lines {
            if let Some(rest) = l.text.strip_prefix("inactive: ") {
                path.push(rest.to_string());
                out.push_str(&format!("deactivate {}\n", path.join(" ")));
                walk(&l.children, path, out);
                if l.children.is_empty() {
                    out.push_str(&format!("set {}\n", path.join(" ")));
                }
                path.pop();
                continue;
            }
            path.push(l.text.clone());
            if l.children.is_empty() {
                out.push_str(&format!("set {}\n", path.join(" ")));
            } else {
                walk(&l.children, path, out);
            }
            path.pop();
        }
    }
    let mut out = String::new();
    walk(&junos_tree(curly), &mut Vec::new(), &mut out);
    out
}

#[test]
fn a_missing_device_and_an_unreadable_file_are_one_finding_each() {
    let b = Bench::new("fixtures/build/inputs/sonic-sn5600-2x2.fab");
    fs::rename(b.dir.join("spine2"), b.dir.join("spine9")).unwrap();
    fs::write(
        b.dir.join("leaf2/config_db.json"),
        "{\"PORT\": {\n  \"Ethernet0\": {\"mtu\": 9216,}\n}}\n",
    )
    .unwrap();
    let (code, found, text) = run(&b.fab, &b.dir, &[]);
    assert_eq!(code, 1);
    // spine2's neighbours still name its ports by alias; with its state gone, LLDP is checked
    // by system name alone, so the missing state is the one finding about spine2.
    assert_eq!(
        found,
        vec![
            f("FAB973", "spine2", "config_db.json"),
            f("FAB974", "leaf2", "config_db.json"),
            f("FAB975", "", ""),
        ],
        "{text}"
    );
    let v: Value = serde_json::from_str(&text).unwrap();
    let unreadable = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "FAB974")
        .unwrap();
    assert_eq!(
        (
            unreadable["file"]
                .as_str()
                .unwrap()
                .ends_with("leaf2/config_db.json"),
            unreadable["line"].as_u64()
        ),
        (true, Some(2))
    );
}

// ------------------------------------------------------------------ check-style fixtures

/// `\n` in a directive's text is a line break.
fn unescape(s: &str) -> String {
    s.replace("\\n", "\n")
}

/// Applies one `# state:` directive to the state (relative path → text).
fn apply(state: &mut BTreeMap<String, String>, directive: &str) {
    let (op, rest) = directive.split_once(' ').unwrap_or((directive, ""));
    let lldp_items = |state: &mut BTreeMap<String, String>, device: &str| -> Vec<Value> {
        let v: Value = serde_json::from_str(&state[&format!("{device}/lldp.json")]).unwrap();
        v["lldp"]["interface"].as_array().unwrap().clone()
    };
    let put_lldp = |state: &mut BTreeMap<String, String>, device: &str, items: Vec<Value>| {
        let v = serde_json::json!({"lldp": {"interface": items}});
        state.insert(format!("{device}/lldp.json"), pretty(&v));
    };
    match op {
        "replace" => {
            let (file, change) = rest.split_once(' ').unwrap();
            let (old, new) = change.split_once(" => ").unwrap();
            let text = state.get_mut(file).unwrap_or_else(|| panic!("no {file}"));
            let old = unescape(old);
            assert!(text.contains(&old), "`{old}` not in {file}");
            *text = text.replacen(&old, &unescape(new), 1);
        }
        "remove" => state.retain(|k, _| k != rest && !k.starts_with(&format!("{rest}/"))),
        "write" => {
            let (file, text) = rest.split_once(' ').unwrap();
            state.insert(file.to_string(), unescape(text));
        }
        "json-remove" => {
            let (file, pointer) = rest.split_once(' ').unwrap();
            let mut v: Value = serde_json::from_str(&state[file]).unwrap();
            let (parent, last) = pointer.rsplit_once('/').unwrap();
            v.pointer_mut(parent)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(last)
                .unwrap();
            state.insert(file.to_string(), pretty(&v));
        }
        "host" => {
            // host DEVICE nicN KEY INDEX = VALUE
            let w: Vec<&str> = rest.split(' ').collect();
            let [device, nic, key, index, "=", value] = w.as_slice() else {
                panic!("host DEVICE NIC KEY INDEX = VALUE: {rest}")
            };
            let file = format!("{device}/state.json");
            let mut v: Value = serde_json::from_str(&state[&file]).unwrap();
            let n = v["nics"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .find(|n| n["nic"] == *nic)
                .unwrap();
            n["state"][key][index.parse::<usize>().unwrap()] = serde_json::from_str(value).unwrap();
            state.insert(file, pretty(&v));
        }
        "lldp-swap" | "lldp-drop" | "lldp-move" => {
            let w: Vec<&str> = rest.split(' ').collect();
            let device = w[0];
            let mut items = lldp_items(state, device);
            let at = |items: &[Value], port: &str| {
                items.iter().position(|x| x.get(port).is_some()).unwrap()
            };
            match (op, &w[1..]) {
                ("lldp-swap", [a, b]) => {
                    let (ia, ib) = (at(&items, a), at(&items, b));
                    let (va, vb) = (items[ia][*a].clone(), items[ib][*b].clone());
                    items[ia][*a] = vb;
                    items[ib][*b] = va;
                }
                ("lldp-drop", [a]) => {
                    let i = at(&items, a);
                    items.remove(i);
                }
                ("lldp-move", [a, to]) => {
                    let i = at(&items, a);
                    let v = items.remove(i)[*a].clone();
                    items.push(serde_json::json!({ *to: v }));
                }
                _ => panic!("{directive}"),
            }
            put_lldp(state, device, items);
        }
        other => panic!("unknown state directive `{other}`"),
    }
}

#[test]
fn verify_fixtures() {
    let root = root();
    insta::glob!("../../fixtures/verify", "*.fab", |path| {
        let rel = path.strip_prefix(&root).unwrap_or(path).to_path_buf();
        let text = fs::read_to_string(path).unwrap();
        let (checked, files) = build(path);
        let mut state = realistic(&checked, &files);
        let mut want: Found = Vec::new();
        for line in text.lines() {
            if let Some(d) = line.strip_prefix("# state: ") {
                apply(&mut state, d);
            } else if let Some(e) = line.strip_prefix("# expect: ") {
                let w: Vec<&str> = e.split(' ').collect();
                let opt = |s: &str| {
                    if s == "-" {
                        String::new()
                    } else {
                        s.to_string()
                    }
                };
                want.push((w[0].to_string(), opt(w[1]), opt(&w[2..].join(" "))));
            }
        }
        want.sort();
        let name = rel.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = scratch(&name).join("state");
        write_state(&dir, &state);
        let (code, found, json) = run(path, &dir, &[]);
        assert_eq!(found, want, "{}\n{json}", rel.display());
        let errors = want.iter().any(|(c, _, _)| {
            fabricc::diagnostic::Code::parse(c)
                .unwrap()
                .default_severity()
                == fabricc::diagnostic::Severity::Error
        });
        assert_eq!(code, i32::from(errors), "{}", rel.display());
        // From the state's parent, so the snapshot shows `state/…`, not a temporary path.
        let o = Fabricc::new()
            .arg("verify")
            .arg(root.join(&rel))
            .args(["--state", "state", "--color", "never"])
            .current_dir(dir.parent().unwrap())
            .run();
        let human = String::from_utf8_lossy(&o.stdout).replace(&format!("{}/", root.display()), "");
        insta::assert_snapshot!(human);
    });
}

/// A committed `--collect` state of a DCBNL host (`fixtures/verify/host-state/`).
fn host_fixture(driver: &str) -> String {
    fs::read_to_string(root().join(format!("fixtures/verify/host-state/{driver}.state.json")))
        .unwrap()
}

/// A field of a NIC's state (`driver_state.K` for the driver's own), set to a JSON value.
fn nic_set(nic: usize, path: &'static str, value: Value) -> impl Fn(&str) -> String {
    json_edit(move |v| {
        let st = &mut v["nics"][nic]["state"];
        let mut at = st;
        let parts: Vec<&str> = path.split('.').collect();
        for (i, p) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            at = match p.parse::<usize>() {
                Ok(n) => &mut at[n],
                Err(_) if last => {
                    assert!(at.get(*p).is_some(), "{path}");
                    &mut at[*p]
                }
                Err(_) => &mut at[*p],
            };
        }
        *at = value.clone();
    })
}

/// The DCBNL host scripts (bnxt, ice, dcb) compared like mlx5 hosts: the committed states of
/// `fixtures/verify/host-state/` (what each script's `--collect` prints on a host in sync)
/// verify clean, and each change is exactly one finding naming the host and the setting.
#[test]
fn nic_drivers() {
    let fab = root().join("fixtures/build/inputs/drivers-bnxt-ice-dcb.fab");
    let (checked, files) = build(&fab);
    let mut state = realistic(&checked, &files);
    // The committed states name their NICs' netdevs as the hosts do; LLDP is tested elsewhere.
    state.retain(|k, _| !k.ends_with("/lldp.json"));
    for (host, driver) in [("amd1", "bnxt"), ("intel1", "ice"), ("any1", "dcb")] {
        state.insert(format!("{host}/state.json"), host_fixture(driver));
    }
    let dir = scratch("drivers");
    write_state(&dir, &state);
    let (code, found, text) = run(&fab, &dir, &[]);
    assert_eq!((code, &found), (0, &vec![]), "in sync\n{text}");
    let b = Bench { fab, dir, state };
    let (bnxt, ice, dcb) = ("amd1/state.json", "intel1/state.json", "any1/state.json");
    // bnxt (Broadcom bnxt_re, configfs branch).
    b.expect(
        bnxt,
        &nic_set(0, "pfc.3", 0.into()),
        &[("FAB970", "amd1", "nic1 pfc 3")],
    );
    b.expect(
        bnxt,
        &nic_set(1, "dscp2prio.26", 0.into()),
        &[("FAB970", "amd1", "nic2 dscp2prio 26")],
    );
    b.expect(
        bnxt,
        &nic_set(0, "tcbw.1", 50.into()),
        &[("FAB970", "amd1", "nic1 tcbw 1")],
    );
    b.expect(
        bnxt,
        &nic_set(0, "prio_tc.3", 0.into()),
        &[("FAB970", "amd1", "nic1 prio_tc 3")],
    );
    b.expect(
        bnxt,
        &nic_set(0, "cnp_dscp", 46.into()),
        &[("FAB970", "amd1", "nic1 cnp_dscp")],
    );
    b.expect(
        bnxt,
        &nic_set(0, "driver_state.ecn_enable", 0.into()),
        &[("FAB970", "amd1", "nic1 ecn_enable")],
    );
    b.expect(
        bnxt,
        &nic_set(0, "driver_state.roce_prio", 4.into()),
        &[("FAB970", "amd1", "nic1 roce_prio")],
    );
    b.expect(
        bnxt,
        &nic_set(0, "driver_state.disable_prio_vlan_tx", 0.into()),
        &[("FAB970", "amd1", "nic1 disable_prio_vlan_tx")],
    );
    b.expect(
        bnxt,
        &nic_set(0, "roce_tos", Value::Null),
        &[("FAB971", "amd1", "nic1 roce_tos")],
    );
    // Upstream bnxt_re has no CNP setting: the script does not call it drift, nor does verify.
    let upstream = json_edit(|v| {
        v["nics"][0]["branch"] = "upstream".into();
        v["nics"][0]["state"]["cnp_dscp"] = 46.into();
        v["nics"][0]["state"]["driver_state"]["roce_dscp"] = Value::Null;
    });
    fs::write(b.dir.join(bnxt), upstream(&b.state[bnxt])).unwrap();
    let (code, found, text) = run(&b.fab, &b.dir, &[]);
    fs::write(b.dir.join(bnxt), &b.state[bnxt]).unwrap();
    assert_eq!((code, found), (0, vec![]), "{text}");
    // ice (Intel irdma, configfs branch).
    b.expect(
        ice,
        &nic_set(0, "pfc.3", 0.into()),
        &[("FAB970", "intel1", "nic1 pfc 3")],
    );
    b.expect(
        ice,
        &nic_set(0, "driver_state.fw_lldp_agent", "on".into()),
        &[("FAB970", "intel1", "nic1 fw_lldp_agent")],
    );
    b.expect(
        ice,
        &nic_set(0, "driver_state.roce_dcqcn_enable", 0.into()),
        &[("FAB970", "intel1", "nic1 roce_dcqcn_enable")],
    );
    b.expect(
        ice,
        &nic_set(0, "tsa.2", "ets".into()),
        &[("FAB970", "intel1", "nic1 tsa 2")],
    );
    // dcb (any DCBNL NIC).
    b.expect(
        dcb,
        &nic_set(0, "dscp2prio.26", 0.into()),
        &[("FAB970", "any1", "nic1 dscp2prio 26")],
    );
    b.expect(
        dcb,
        &nic_set(0, "tcbw.3", 50.into()),
        &[("FAB970", "any1", "nic1 tcbw 3")],
    );
    b.expect(
        dcb,
        &nic_set(0, "mtu", 1500.into()),
        &[("FAB970", "any1", "nic1 mtu")],
    );
    b.expect(
        dcb,
        &nic_set(0, "roce_mode", 1.into()),
        &[("FAB970", "any1", "nic1 roce_mode")],
    );
    b.expect(
        dcb,
        &json_edit(|v| v["nics"][0]["state"] = Value::Null),
        &[("FAB971", "any1", "nic1")],
    );
    // Another driver's state is the wrong file: one FAB974.
    b.expect(
        ice,
        &json_edit(|v| v["driver"] = "mlx5".into()),
        &[("FAB974", "intel1", "state.json")],
    );
    // The switches still verify on their own.
    let (code, found, text) = run(&b.fab, &b.dir, &["--target", "sonic"]);
    assert_eq!((code, found), (0, vec![]), "{text}");

    // The AMD MI300X JVD fabric's hosts run bnxt_qos.sh: in sync, then a changed DSCP map.
    let b = Bench::new("fixtures/build/inputs/amd-mi300x-jvd-sonic.fab");
    b.expect(
        "mi300x1/state.json",
        &nic_set(1, "dscp2prio.26", 0.into()),
        &[("FAB970", "mi300x1", "nic2 dscp2prio 26")],
    );
}

/// `verify` exits 1 wherever `check` does on the fabric itself: on its errors (nothing is
/// compared), and with `--deny-warnings` on its warnings (the devices are still compared, and
/// the fabric's warnings lead the findings).
#[test]
fn verify_fails_where_check_fails() {
    let check = |fab: &Path, extra: &[&str]| {
        Fabricc::new()
            .arg("check")
            .arg(fab)
            .args(["--format", "short"])
            .args(extra)
            .run()
            .status
            .code()
    };
    // Errors: check and verify both exit 1, and verify reports the fabric's error.
    let bad = root().join("fixtures/check/FAB005_nics_too_many.fab");
    let empty = scratch("check-fails");
    assert_eq!(check(&bad, &[]), Some(1));
    let (code, found, text) = run(&bad, &empty, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(found.iter().any(|(c, _, _)| c == "FAB005"), "{text}");

    // Warnings: in sync exits 0, and 1 with --deny-warnings, as check does.
    let fab = root().join("fixtures/build/inputs/FAB907_eos_mtu_9216.fab");
    let (checked, files) = build(&fab);
    let dir = scratch("deny-warnings");
    write_state(&dir, &realistic(&checked, &files));
    assert_eq!(check(&fab, &[]), Some(0));
    assert_eq!(check(&fab, &["--deny-warnings"]), Some(1));
    let (code, found, text) = run(&fab, &dir, &[]);
    assert_eq!((code, found), (0, vec![]), "{text}");
    let (code, found, text) = run(&fab, &dir, &["--deny-warnings"]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(found, vec![f("FAB909", "", "")], "{text}");
}

/// On a terminal `verify` draws errors and warnings per device, as `check` does, and only
/// counts the advice by code in its last line; `--advice` draws it. The machine formats carry
/// every finding either way. (An accepted warning is advice: a port without its LLDP
/// neighbour, FAB981, under `--allow FAB981`.)
#[test]
fn verify_counts_advice_unless_asked() {
    let b = Bench::new("fixtures/build/inputs/sonic-sn5600-2x2.fab");
    let lldp = "leaf1/lldp.json";
    let dir = scratch("advice");
    let mut state = b.state.clone();
    let mut v: Value = serde_json::from_str(&state[lldp]).unwrap();
    v["lldp"]["interface"]
        .as_array_mut()
        .unwrap()
        .retain(|x| x.get("Ethernet0").is_none());
    state.insert(lldp.to_string(), v.to_string());
    write_state(&dir, &state);
    let human = |extra: &[&str]| {
        let o = Fabricc::new()
            .arg("verify")
            .arg(&b.fab)
            .arg("--state")
            .arg(&dir)
            .args(["--allow", "FAB981", "--color", "never"])
            .args(extra)
            .run();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string(),
        )
    };
    let (code, quiet) = human(&[]);
    assert_eq!(code, Some(0), "{quiet}");
    assert!(!quiet.contains("── leaf1"), "{quiet}");
    assert!(!quiet.contains("FAB981\n"), "{quiet}");
    assert!(
        quiet.ends_with("1 advice (FAB981), not shown: `--advice` prints them\n"),
        "{quiet}"
    );
    let (code, full) = human(&["--advice"]);
    assert_eq!(code, Some(0), "{full}");
    assert!(
        full.contains("── leaf1 (sonic): 1 wiring finding ──"),
        "{full}"
    );
    assert!(full.contains("FAB981\n"), "{full}");
    assert!(full.contains("allowed by `--allow FAB981`"), "{full}");
    assert!(full.ends_with("\n1 advice\n"), "{full}");
    let (_, found, _) = run(&b.fab, &dir, &["--allow", "FAB981"]);
    assert_eq!(found, vec![f("FAB981", "leaf1", "Ethernet0")]);
}
