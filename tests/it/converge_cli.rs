//! Convergence of the Arista EOS and Cisco NX-OS fragments (issue 33 item 1; review
//! E20, N9): applying build N+1 over a switch that runs build N — by the procedure the
//! files' headers prescribe — leaves exactly what a fresh apply of N+1 leaves, and never
//! touches configuration fabricc does not own.
//!
//! # The apply simulator
//!
//! `Device` models a running-config as the indented section tree both OSes print
//! (`show running-config`: a sub-mode's lines indented under the line that entered it) and
//! `Device::paste` applies a fragment line by line, as `configure session` (EOS) and NX-OS
//! Session Manager take pasted lines. Each rule models a documented behaviour:
//!
//! * **A pasted line merges.** A section header enters the section, creating it when absent;
//!   a setting line adds itself to its section. Nothing a file does not state is removed:
//!   "lines pasted or loaded into a configure session are merged; `no`/`default` remove"
//!   (Arista EOS User Manual, "Configure Session", <https://arista.com/um-eos/eos-configure-session>);
//!   `copy FILE running-config` "is a merge" and only `configure replace` replaces (Cisco
//!   Nexus 9000 NX-OS System Management Configuration Guide, "Performing Configuration
//!   Replace").
//! * **A keyed setting is replaced, not added.** A command that takes one value per section
//!   (`mtu`, `description`, `service-profile`, `bandwidth percent`, `random-detect ecn …`,
//!   `set qos-group`, `pause pfc-cos`, `service-policy type … input|output`, a `qos map`
//!   entry) holds the last value pasted; the CLI shows one such line (the KEYED tables
//!   below). Every other line is a member of a set (`priority-flow-control priority 3
//!   no-drop`, `class-map …` sections), so two different ones both stay — which is how a
//!   removed class's `no-drop` survived a merge (E20).
//! * **NX-OS `match` accumulates.** `match dscp L` inside a `class-map` adds the values of L
//!   to the class's set; `no match dscp L` takes them out. "class-map `match` lines
//!   accumulate" on a merge (review N9), so a class shrunk from `24-27` to
//!   `26` keeps 24, 25 and 27 unless the class map is re-made.
//! * **`no` / `default` remove.** `no <section header>` deletes the section with everything
//!   in it (`no qos profile FABRICC_ROCE`, `no class-map type qos match-any FABRICC_Q4`,
//!   `no class FABRICC_Q4` inside a policy); `no <keyed setting>` removes that setting
//!   whatever its value (`no description`, `no service-policy type queuing output`); `no
//!   <line>` removes that line. `no` of something absent changes nothing (EOS; on NX-OS a
//!   refused `no` fails the session's `verify` step and nothing is committed, so the
//!   simulated outcome is either this one or no change at all).
//! * **Stored negations are settings.** `no switchport`, `no priority` (EOS: a routed port,
//!   a weighted queue) are printed by the running-config as settings of their key
//!   (`switchport`, `priority`), as `priority strict` is.
//! * **Order does not count.** Sections and lines are compared as sets: the classes of a
//!   fabricc policy match disjoint DSCP sets (src/verify/cli.rs says the same of `verify`).
//! * **All or nothing.** A session commits every pasted line or none (both guides), so a
//!   file is applied whole; the simulator has no partial outcome.
//!
//! What is not modelled: platform defaults that the running-config hides (a file that states
//! a default, such as `qos map cos 2 to traffic-class 2`, is compared as written on both
//! sides), refusals of a command on a given release, and the traffic a change disrupts.
//!
//! # The property
//!
//! For random pairs of builds (`change_pairs::for_each_pair`): `fresh = apply(seed, N+1)`,
//! `converged = apply(apply(seed, N), N+1)`; they must be equal, except on the interfaces
//! of ports that left the fabric, which no file of N+1 can name (the headers say so and
//! `fabricc verify` reports them: FAB976, checked here too). `seed` is a switch with
//! configuration that is not fabricc's (another port's QoS, a foreign class map and
//! policy, an address on a fabric port): it must come out untouched.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use super::change_pairs::{Built, Change, Os, PAIRS, SWITCHES, for_each_pair, pair_count};
use fabricc::verify::cli::{Dialect, leftover_ports};

/// One section of a running-config: its lines by key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Node {
    entries: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// A setting line (its text as the device would print it).
    Line(String),
    /// NX-OS `match dscp …`: the accumulated values.
    Values(BTreeSet<u32>),
    /// A section: its header line is the key.
    Section(Node),
}

/// Commands with one value per section, as `(prefix, number of words that make the key)`:
/// the key is the first words of the line, the rest is the value.
const EOS_KEYED: &[(&str, usize)] = &[
    ("description", 1),
    ("mtu", 1),
    ("speed", 1),
    ("service-profile", 1),
    ("channel-group", 1),
    ("bandwidth percent", 2),
    ("shape rate", 2),
    ("random-detect ecn minimum-threshold", 3),
    ("qos trust", 2),
    ("ingress headroom", 2),
    ("ingress priority-group", 3),
    ("priority-flow-control pause watchdog default timeout", 5),
    (
        "priority-flow-control pause watchdog default recovery-time",
        5,
    ),
    (
        "priority-flow-control pause watchdog default polling-interval",
        5,
    ),
    ("priority-flow-control pause watchdog action", 4),
    ("priority", 1),
    ("switchport mode", 2),
    ("mlag", 1),
    ("domain-id", 1),
    ("local-interface", 1),
    ("peer-address", 1),
    ("peer-link", 1),
    ("ip address", 2),
    ("name", 1),
];

const NXOS_KEYED: &[(&str, usize)] = &[
    ("description", 1),
    ("mtu", 1),
    ("priority-flow-control mode", 2),
    ("priority-flow-control watch-dog-interval", 2),
    ("service-policy type qos input", 4),
    ("service-policy type queuing output", 4),
    ("service-policy type queuing input", 4),
    ("service-policy type network-qos", 3),
    ("set qos-group", 2),
    ("bandwidth remaining percent", 3),
    ("priority level", 2),
    ("random-detect", 1),
    ("pause buffer-size", 2),
    ("pause pfc-cos", 2),
    ("ip address", 2),
    ("interface breakout module 1 port", 6),
];

/// Lines the running-config keeps as the negative value of a keyed setting.
const STORED_NEGATIONS: &[(&str, &str)] = &[
    ("no switchport", "switchport"),
    ("no priority", "priority"),
    ("no autostate", "autostate"),
    ("no shutdown", "shutdown"),
];

fn words(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A setting's key and whether it is one of the keyed commands.
fn key_of(d: Dialect, line: &str) -> (String, bool) {
    if let Some((_, key)) = STORED_NEGATIONS.iter().find(|(l, _)| *l == line) {
        return ((*key).to_string(), true);
    }
    let w: Vec<&str> = line.split(' ').collect();
    if d == Dialect::Eos {
        // `qos map traffic-class T to tx-queue Q`: one entry per traffic class.
        if let ["qos", "map", "traffic-class", t, "to", "tx-queue", ..] = w.as_slice() {
            return (format!("qos map traffic-class {t}"), true);
        }
        if line == "priority strict" {
            return ("priority".into(), true);
        }
    }
    let table = match d {
        Dialect::Eos => EOS_KEYED,
        Dialect::Nxos => NXOS_KEYED,
        Dialect::Comware => &[],
    };
    for (prefix, n) in table {
        if line == *prefix || line.starts_with(&format!("{prefix} ")) {
            return (w[..(*n).min(w.len())].join(" "), true);
        }
    }
    (line.to_string(), false)
}

/// Numbers and ranges (`24-27,30`, `0 1 2`) as a set.
fn numbers(list: &[&str]) -> Option<BTreeSet<u32>> {
    let mut out = BTreeSet::new();
    for part in list.iter().flat_map(|w| w.split(',')) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                out.extend(a..=b);
            }
            None => {
                out.insert(part.parse().ok()?);
            }
        }
    }
    Some(out)
}

impl Node {
    fn set_line(&mut self, d: Dialect, line: &str) {
        let w: Vec<&str> = line.split(' ').collect();
        // EOS `qos map dscp|cos L to traffic-class T`: one keyed entry per value.
        if d == Dialect::Eos
            && let ["qos", "map", kind @ ("dscp" | "cos"), rest @ ..] = w.as_slice()
            && let Some(to) = rest.iter().position(|x| *x == "to")
            && let Some(values) = numbers(&rest[..to])
        {
            let target = rest[to..].join(" ");
            for v in values {
                self.entries.insert(
                    format!("qos map {kind} {v}"),
                    Entry::Line(format!("qos map {kind} {v} {target}")),
                );
            }
            return;
        }
        if d == Dialect::Nxos
            && let ["match", kind @ ("dscp" | "cos"), list @ ..] = w.as_slice()
            && let Some(values) = numbers(list)
        {
            let key = format!("match {kind}");
            match self.entries.get_mut(&key) {
                Some(Entry::Values(v)) => v.extend(values),
                _ => {
                    self.entries.insert(key, Entry::Values(values));
                }
            }
            return;
        }
        let (key, _) = key_of(d, line);
        self.entries.insert(key, Entry::Line(line.to_string()));
    }

    /// `no X` / `default X`.
    fn remove(&mut self, d: Dialect, what: &str) {
        if self.entries.remove(what).is_some() {
            return; // a section header or a set member
        }
        let w: Vec<&str> = what.split(' ').collect();
        if d == Dialect::Eos
            && let ["qos", "map", kind @ ("dscp" | "cos"), rest @ ..] = w.as_slice()
            && let Some(to) = rest.iter().position(|x| *x == "to")
            && let Some(values) = numbers(&rest[..to])
        {
            for v in values {
                self.entries.remove(&format!("qos map {kind} {v}"));
            }
            return;
        }
        if d == Dialect::Nxos
            && let ["match", kind @ ("dscp" | "cos"), list @ ..] = w.as_slice()
            && let Some(values) = numbers(list)
        {
            let key = format!("match {kind}");
            if let Some(Entry::Values(v)) = self.entries.get_mut(&key) {
                v.retain(|x| !values.contains(x));
                if v.is_empty() {
                    self.entries.remove(&key);
                }
            }
            return;
        }
        let (key, keyed) = key_of(d, what);
        if keyed {
            self.entries.remove(&key);
        }
    }

    fn section(&mut self, header: &str) -> &mut Node {
        let e = self
            .entries
            .entry(header.to_string())
            .or_insert_with(|| Entry::Section(Node::default()));
        if !matches!(e, Entry::Section(_)) {
            *e = Entry::Section(Node::default());
        }
        match e {
            Entry::Section(n) => n,
            _ => unreachable!("made a section above"),
        }
    }

    fn at(&mut self, path: &[String]) -> &mut Node {
        let mut n = self;
        for h in path {
            n = n.section(h);
        }
        n
    }

    fn get(&self, header: &str) -> Option<&Entry> {
        self.entries.get(header)
    }

    /// The tree as running-config text (sorted; `verify` reads it).
    fn text(&self, indent: usize, out: &mut String) {
        for (key, e) in &self.entries {
            let pad = " ".repeat(indent);
            match e {
                Entry::Line(l) => out.push_str(&format!("{pad}{l}\n")),
                Entry::Values(v) => {
                    let list: Vec<String> = v.iter().map(u32::to_string).collect();
                    out.push_str(&format!("{pad}{key} {}\n", list.join(",")));
                }
                Entry::Section(n) => {
                    out.push_str(&format!("{pad}{key}\n"));
                    n.text(indent + 2, out);
                }
            }
        }
    }
}

/// A switch's running-config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    dialect: Dialect,
    root: Node,
}

impl Device {
    pub fn new(dialect: Dialect) -> Device {
        Device {
            dialect,
            root: Node::default(),
        }
    }

    /// Applies `text` line by line (comments and blank lines skipped).
    pub fn paste(&mut self, text: &str) {
        let lines: Vec<(usize, String)> = text
            .lines()
            .filter_map(|raw| {
                let t = raw.trim_start();
                if t.is_empty() || t.starts_with('!') {
                    return None;
                }
                Some((raw.len() - t.len(), words(t)))
            })
            .collect();
        // (indent, header) of the sections the cursor is in.
        let mut stack: Vec<(usize, String)> = Vec::new();
        for (i, (indent, line)) in lines.iter().enumerate() {
            while stack.last().is_some_and(|(ind, _)| ind >= indent) {
                stack.pop();
            }
            let path: Vec<String> = stack.iter().map(|(_, h)| h.clone()).collect();
            let header = lines.get(i + 1).is_some_and(|(next, _)| next > indent);
            let negated = line
                .strip_prefix("no ")
                .or_else(|| line.strip_prefix("default "));
            let stored = STORED_NEGATIONS.iter().any(|(l, _)| l == line);
            let node = self.root.at(&path);
            match negated {
                Some(what) if !stored => node.remove(self.dialect, what),
                _ if header => {
                    node.section(line);
                    stack.push((*indent, line.clone()));
                }
                _ => node.set_line(self.dialect, line),
            }
        }
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        self.root.text(0, &mut out);
        out
    }

    /// The device without the interface sections of `ports`.
    fn without(&self, ports: &BTreeSet<String>) -> Device {
        let mut d = self.clone();
        d.root
            .entries
            .retain(|k, _| !ports.iter().any(|p| *k == format!("interface {p}")));
        d
    }
}

/// Configuration that is not fabricc's, on ports fabricc uses (an address: the interface is
/// shared) and others (another port's QoS), with a foreign class map and policy.
fn seed(os: Os) -> (Device, Vec<&'static str>) {
    match os {
        Os::Eos => {
            let mut d = Device::new(Dialect::Eos);
            d.paste(EOS_SEED);
            (
                d,
                vec![
                    "qos profile OPERATOR_VOICE",
                    "interface Ethernet1/30",
                    "router bgp 65001",
                    "qos map exp 5",
                ],
            )
        }
        _ => {
            let mut d = Device::new(Dialect::Nxos);
            d.paste(NXOS_SEED);
            (
                d,
                vec![
                    "class-map type qos match-any OPERATOR_VOICE",
                    "policy-map type qos OPERATOR_MARKING",
                    "interface Ethernet1/30",
                    "router bgp 65001",
                ],
            )
        }
    }
}

const EOS_SEED: &str = "\
qos profile OPERATOR_VOICE
   qos trust cos
   tx-queue 5
      priority strict
interface Ethernet1/30
   description management uplink
   service-profile OPERATOR_VOICE
   mtu 1500
interface Ethernet1/1
   ip address 10.0.0.1/31
interface Ethernet1/2
   ip address 10.0.0.3/31
router bgp 65001
   neighbor 10.0.0.0 remote-as 65000
qos map exp 5 to traffic-class 5
";

const NXOS_SEED: &str = "\
class-map type qos match-any OPERATOR_VOICE
  match dscp 46
policy-map type qos OPERATOR_MARKING
  class OPERATOR_VOICE
    set qos-group 5
interface Ethernet1/30
  description management uplink
  service-policy type qos input OPERATOR_MARKING
interface Ethernet1/1
  ip address 10.0.0.1/31
interface Ethernet1/2
  ip address 10.0.0.3/31
router bgp 65001
  neighbor 10.0.0.0 remote-as 65000
";

/// Applies a switch's files in the order their headers give: EOS `ports.cfg` (turn-up, and
/// when ports are added) before `qos.cfg`; NX-OS `qos.cfg`.
fn apply(device: &mut Device, files: &BTreeMap<&str, &str>) {
    for name in ["ports.cfg", "qos.cfg"] {
        if let Some(text) = files.get(name) {
            device.paste(text);
        }
    }
}

/// The fabric ports of a switch in a build: the interfaces its qos.cfg configures.
fn fabric_ports(files: &BTreeMap<&str, &str>) -> BTreeSet<String> {
    files
        .get("qos.cfg")
        .map(|t| {
            t.lines()
                .filter_map(|l| l.strip_prefix("interface "))
                .filter(|p| p.starts_with("Ethernet") && !p.contains(' '))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The property over `count` pairs; returns how many pairs ran, and a failure's text.
pub fn converge(os: Os, seed_value: u64, count: usize) -> usize {
    let (base, foreign) = seed(os);
    let dialect = base.dialect;
    let mut failures = Vec::new();
    let mut changes: BTreeMap<String, usize> = BTreeMap::new();
    let mut pair = 0;
    let n = for_each_pair(
        os,
        seed_value,
        count,
        |change: Change, old: &Built, new: &Built| {
            pair += 1;
            *changes.entry(format!("{change:?}")).or_default() += 1;
            for sw in SWITCHES {
                let (old_files, new_files) = (old.device(sw), new.device(sw));
                let mut fresh = base.clone();
                apply(&mut fresh, &new_files);
                let mut converged = base.clone();
                apply(&mut converged, &old_files);
                apply(&mut converged, &new_files);
                let before = fabric_ports(&old_files);
                let after = fabric_ports(&new_files);
                let left: BTreeSet<String> = before.difference(&after).cloned().collect();
                if converged.without(&left) != fresh.without(&left) && failures.len() < 3 {
                    failures.push(format!(
                    "pair {pair} ({change:?}), {sw}:\n--- fresh\n{}\n--- converged\n{}\n--- older fabric\n{}\n--- newer fabric\n{}",
                    fresh.text(),
                    converged.text(),
                    old.text,
                    new.text
                ));
                }
                for f in &foreign {
                    if fresh.root.get(f) != base.root.get(f)
                        || converged.root.get(f) != base.root.get(f)
                    {
                        failures.push(format!("pair {pair} ({change:?}), {sw}: `{f}` was touched"));
                    }
                }
                // The ports that left keep fabricc's lines: `verify` names exactly them.
                let reported: BTreeSet<String> = leftover_ports(&converged.text(), dialect, &after)
                    .into_iter()
                    .collect();
                let expected: BTreeSet<String> = left.clone();
                if reported != expected && failures.len() < 3 {
                    failures.push(format!(
                    "pair {pair} ({change:?}), {sw}: verify reports {reported:?} as left over, the ports that left are {expected:?}"
                ));
                }
            }
        },
    );
    assert!(
        failures.is_empty(),
        "{os:?}: {} failure(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{os:?}: {n} pairs converge; changes {changes:?}");
    n
}

#[test]
fn converge_eos_pairs() {
    let t = Instant::now();
    let n = converge(Os::Eos, 33, PAIRS);
    assert!(n >= pair_count(PAIRS));
    eprintln!("EOS: {n} pairs in {:?}", t.elapsed());
}

#[test]
fn converge_nxos_pairs() {
    let t = Instant::now();
    let n = converge(Os::Nxos, 33, PAIRS);
    assert!(n >= pair_count(PAIRS));
    eprintln!("NX-OS: {n} pairs in {:?}", t.elapsed());
}

// ---- the simulator's own rules ------------------------------------------------------------

#[test]
fn a_merge_keeps_what_a_file_no_longer_states() {
    let mut d = Device::new(Dialect::Eos);
    d.paste("qos profile P\n   priority-flow-control priority 3 no-drop\n   priority-flow-control priority 4 no-drop\n");
    d.paste("qos profile P\n   priority-flow-control priority 3 no-drop\n");
    assert!(d.text().contains("priority 4 no-drop"), "{}", d.text());
    d.paste("no qos profile P\nqos profile P\n   priority-flow-control priority 3 no-drop\n");
    assert!(!d.text().contains("priority 4 no-drop"), "{}", d.text());
}

#[test]
fn keyed_settings_take_the_last_value_and_no_removes_them() {
    let mut d = Device::new(Dialect::Eos);
    d.paste("interface Ethernet1/1\n   description a\n   mtu 9000\n   no switchport\n");
    d.paste("interface Ethernet1/1\n   description b\n   mtu 9214\n");
    assert_eq!(
        d.text(),
        "interface Ethernet1/1\n  description b\n  mtu 9214\n  no switchport\n"
    );
    d.paste("interface Ethernet1/1\n   no description\n");
    assert!(!d.text().contains("description"));
    d.paste("qos map dscp 0 1 2 to traffic-class 0\nqos map dscp 1 to traffic-class 3\n");
    assert!(d.text().contains("qos map dscp 1 to traffic-class 3"));
    assert!(d.text().contains("qos map dscp 2 to traffic-class 0"));
}

#[test]
fn nxos_match_lines_accumulate() {
    let mut d = Device::new(Dialect::Nxos);
    d.paste("class-map type qos match-any C\n  match dscp 24-27\n");
    d.paste("class-map type qos match-any C\n  match dscp 26\n");
    assert!(d.text().contains("match dscp 24,25,26,27"), "{}", d.text());
    d.paste("class-map type qos match-any C\n  no match dscp 24-25,27\n");
    assert!(d.text().contains("match dscp 26\n"), "{}", d.text());
    d.paste("no class-map type qos match-any C\nclass-map type qos match-any C\n  match dscp 10\n");
    assert!(d.text().contains("match dscp 10\n") && !d.text().contains("26"));
}

// ---- E19: port mode and speed are a separate, turn-up file ---------------------------------

/// `qos.cfg` never changes a port's mode or speed; `ports.cfg` holds exactly those, for every
/// fabric port `qos.cfg` configures, and says in its header that it is applied at turn-up.
#[test]
fn eos_port_mode_and_speed_are_only_in_ports_cfg() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/build");
    let mut checked = 0;
    for case in ["eos-7060x6", "eos-7808r3", "eos-dual-tor-mlag"] {
        for entry in std::fs::read_dir(root.join(case).join("switches")).expect("switches") {
            let dir = entry.expect("entry").path();
            let qos = std::fs::read_to_string(dir.join("qos.cfg")).expect("qos.cfg");
            let ports = std::fs::read_to_string(dir.join("ports.cfg")).expect("ports.cfg");
            for l in qos.lines().map(str::trim) {
                assert!(
                    !(l == "no switchport"
                        || l.starts_with("speed ")
                        || l.starts_with("channel-group ")),
                    "{}: qos.cfg has `{l}`",
                    dir.display()
                );
            }
            assert!(ports.contains("APPLIED AT TURN-UP"), "{}", dir.display());
            let files = BTreeMap::from([("qos.cfg", qos.as_str())]);
            for port in fabric_ports(&files) {
                let section = format!("interface {port}\n");
                let at = ports
                    .find(&section)
                    .unwrap_or_else(|| panic!("{port} not in ports.cfg"));
                let body = &ports[at + section.len()..];
                let body = &body[..body.find("!\n").unwrap_or(body.len())];
                assert!(
                    body.contains("   no switchport\n") || body.contains("   channel-group "),
                    "{port}: {body}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 9, "{checked} switches");
}
