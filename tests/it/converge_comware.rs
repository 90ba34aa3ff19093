//! Convergence of the H3C Comware 7 fragment (issue 33 item 1 for issue 35's `os comware`):
//! pasting build N+1's `qos.cfg` in `system-view` over a switch that runs build N leaves
//! exactly what pasting N+1 over the defaults leaves, and never touches configuration fabricc
//! does not own.
//!
//! # The apply simulator
//!
//! `Device` models the running configuration as Comware's `display current-configuration`
//! prints it: views (`interface X`, `qos map-table T`, `qos wred queue table N`) holding
//! settings, and the system view's own settings. `Device::paste` applies the lines of a file
//! below its `#` header, as typed in `system-view`. Each rule models a documented behaviour:
//!
//! * **A view line enters the view, creating it when absent; `quit` leaves it.** Comware's
//!   CLI: `interface …`, `qos map-table …` and `qos wred queue table NAME` ("Create a WRED
//!   table and enter its view", HPE FlexFabric 11900 ACL and QoS Configuration Guide) enter a
//!   view; nothing a pasted file does not state is removed (a paste is typed commands, not
//!   `configuration replace file`).
//! * **A single-value command holds the most recent value.** "When you configure PFC in
//!   system view and Ethernet interface view multiple times, the most recent configuration
//!   takes effect" (H3C Intelligent Lossless Network Configuration Guide, "01-PFC
//!   configuration"); the same for `description`, `qos trust`, `qos wred apply`, `qos wrr`
//!   mode and each queue's `qos wrr Q group …`, each priority's `priority-flow-control dot1p
//!   P headroom`, each queue's WRED `queue Q low-limit …` and each map entry `import V export
//!   E` (one export per imported value: a priority map is a function). `key_of` names the
//!   one value each command holds.
//! * **`undo` restores the default.** `undo <command>` removes that command's value whatever
//!   it was (`undo description`, `undo priority-flow-control dot1p 0 headroom`, `undo queue
//!   3 ecn`); `undo queue all` restores every queue's drop parameters of the WRED table (HPE
//!   5130 HI ACL and QoS Command Reference, `queue`: "undo queue { queue-id | all }"), not its
//!   ECN (`queue Q ecn` is its own command). `undo` of an absent value changes nothing.
//! * **Order does not count**: views and settings are compared as maps.
//!
//! Not modelled: refusals of a command on a given platform or release, the defaults the
//! device prints for a map-table (a stated default is compared as written on both sides).
//!
//! # The property
//!
//! For random pairs of builds (`change_pairs::for_each_pair`): `fresh = apply(seed, N+1)`,
//! `converged = apply(apply(seed, N), N+1)`; equal, except on the interfaces of ports that
//! left the fabric and WRED tables of port variants N+1 no longer writes, which no file of
//! N+1 can name (the header says so, `fabricc verify` reports the ports). `seed` holds
//! configuration that is not fabricc's (another port's QoS, a foreign WRED table, an address
//! and a description on other ports): it must come out untouched.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use fabricc::verify::cli::{Dialect, leftover_ports};

use crate::change_pairs::{Built, Change, Os, PAIRS, SWITCHES, for_each_pair, pair_count};

/// A view's settings: the value key → the line that holds it.
type View = BTreeMap<String, String>;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Device {
    /// The system view's own settings.
    system: View,
    /// Every other view, by the line that enters it.
    views: BTreeMap<String, View>,
}

/// Whether a line enters a view.
fn enters_view(line: &str) -> bool {
    line.starts_with("interface ")
        || line.starts_with("qos map-table ")
        || line.starts_with("qos wred queue table ")
}

/// The value a command holds (see the module comment); `None` for `undo queue all`, which
/// `paste` handles.
fn key_of(line: &str) -> Vec<String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["description", ..] => vec!["description".into()],
        ["qos", "trust", ..] => vec!["qos trust".into()],
        ["priority-flow-control", "enable" | "auto"] | ["priority-flow-control"] => {
            vec!["priority-flow-control".into()]
        }
        ["priority-flow-control", "no-drop", "dot1p", ..] => {
            vec!["priority-flow-control no-drop dot1p".into()]
        }
        ["priority-flow-control", "dot1p", p, "headroom", ..] => {
            vec![format!("priority-flow-control dot1p {p} headroom")]
        }
        [
            "priority-flow-control",
            "deadlock",
            "auto-recover",
            "action",
            ..,
        ] => {
            vec!["priority-flow-control deadlock auto-recover action".into()]
        }
        ["qos", "wrr", "byte-count" | "weight"] | ["qos", "wrr"] => vec!["qos wrr".into()],
        ["qos", "wrr", q, "group", ..] => vec![format!("qos wrr {q} group")],
        ["qos", "wred", "apply", ..] => vec!["qos wred apply".into()],
        ["queue", q, "ecn"] => vec![format!("queue {q} ecn")],
        ["queue", q, "low-limit", ..] | ["queue", q] => vec![format!("queue {q} limits")],
        ["import", rest @ ..] => {
            let to = rest
                .iter()
                .position(|x| *x == "export")
                .unwrap_or(rest.len());
            rest[..to].iter().map(|v| format!("import {v}")).collect()
        }
        _ => vec![line.to_string()],
    }
}

impl Device {
    pub(crate) fn from_text(text: &str) -> Device {
        let mut d = Device::default();
        d.paste(text);
        d
    }

    /// Pastes the lines of a file below its `#` header (`#` lines are comments).
    pub(crate) fn paste(&mut self, text: &str) {
        let mut view: Option<String> = None;
        for raw in text.lines() {
            let line = raw.split_whitespace().collect::<Vec<_>>().join(" ");
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line == "quit" || line == "return" {
                view = None;
                continue;
            }
            if enters_view(&line) {
                self.views.entry(line.clone()).or_default();
                view = Some(line);
                continue;
            }
            if let Some(rest) = line.strip_prefix("undo ") {
                if enters_view(rest) {
                    self.views.remove(rest);
                    continue;
                }
                let settings = match &view {
                    Some(v) => self.views.entry(v.clone()).or_default(),
                    None => &mut self.system,
                };
                if rest == "queue all" {
                    settings.retain(|k, _| !(k.starts_with("queue ") && k.ends_with(" limits")));
                    continue;
                }
                for k in key_of(rest) {
                    settings.remove(&k);
                }
                continue;
            }
            let settings = match &view {
                Some(v) => self.views.entry(v.clone()).or_default(),
                None => &mut self.system,
            };
            let keys = key_of(&line);
            if keys.len() > 1 || line.starts_with("import ") {
                // A map line: one entry per imported value.
                let export = line.rsplit(' ').next().unwrap_or("").to_string();
                for k in keys {
                    settings.insert(k.clone(), format!("{k} export {export}"));
                }
            } else {
                for k in keys {
                    settings.insert(k, line.clone());
                }
            }
        }
    }

    /// Without the interfaces of `ports` and the WRED tables no interface applies that are
    /// fabricc's (`FABRICC_ROCE…`): what no later file can name.
    fn without(&self, ports: &BTreeSet<String>) -> Device {
        let applied: BTreeSet<String> = self
            .views
            .iter()
            .filter(|(v, _)| v.starts_with("interface "))
            .filter_map(|(_, s)| s.get("qos wred apply"))
            .filter_map(|l| l.strip_prefix("qos wred apply "))
            .map(str::to_string)
            .collect();
        let mut d = self.clone();
        d.views.retain(|v, _| {
            let gone_port = v
                .strip_prefix("interface ")
                .is_some_and(|p| ports.contains(p));
            let stale_table = v
                .strip_prefix("qos wred queue table ")
                .is_some_and(|t| t.starts_with("FABRICC_ROCE") && !applied.contains(t));
            !(gone_port || stale_table)
        });
        d
    }

    /// As `display current-configuration` prints it (views with one-space settings).
    pub(crate) fn text(&self) -> String {
        let mut out = String::new();
        for line in self.system.values() {
            out.push_str(line);
            out.push('\n');
        }
        for (v, settings) in &self.views {
            out.push_str("#\n");
            out.push_str(v);
            out.push('\n');
            for line in settings.values() {
                out.push(' ');
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

/// Configuration fabricc does not own, and the views that must come out untouched.
pub(crate) const SEED: &str = "\
sysname lab
qos wred queue table OTHER
 queue 1 low-limit 10 high-limit 20 discard-probability 30
 queue 1 ecn
quit
interface FourHundredGigE1/0/30
 description not a fabric port
 qos trust dot1p
 qos wred apply OTHER
 ip address 10.9.9.1 255.255.255.254
quit
interface FourHundredGigE1/0/1
 ip address 10.0.0.1 255.255.255.254
quit
";

const FOREIGN: [&str; 2] = [
    "qos wred queue table OTHER",
    "interface FourHundredGigE1/0/30",
];

/// The fabric ports of a switch in a build: the interfaces its qos.cfg configures.
fn fabric_ports(files: &BTreeMap<&str, &str>) -> BTreeSet<String> {
    files
        .get("qos.cfg")
        .map(|t| {
            t.lines()
                .filter_map(|l| l.strip_prefix("interface "))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn apply(device: &mut Device, files: &BTreeMap<&str, &str>) {
    if let Some(text) = files.get("qos.cfg") {
        device.paste(text);
    }
}

/// The property over `count` pairs; returns how many pairs ran.
pub fn converge(seed_value: u64, count: usize) -> usize {
    let base = Device::from_text(SEED);
    let mut failures = Vec::new();
    let mut changes: BTreeMap<String, usize> = BTreeMap::new();
    let mut pair = 0;
    let n = for_each_pair(
        Os::Comware,
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
                let after = fabric_ports(&new_files);
                let left: BTreeSet<String> = fabric_ports(&old_files)
                    .difference(&after)
                    .cloned()
                    .collect();
                if converged.without(&left) != fresh.without(&left) && failures.len() < 3 {
                    failures.push(format!(
                        "pair {pair} ({change:?}), {sw}:\n--- fresh\n{}\n--- converged\n{}\n--- older fabric\n{}\n--- newer fabric\n{}",
                        fresh.text(),
                        converged.text(),
                        old.text,
                        new.text
                    ));
                }
                for f in FOREIGN {
                    if fresh.views.get(f) != base.views.get(f)
                        || converged.views.get(f) != base.views.get(f)
                    {
                        failures.push(format!("pair {pair} ({change:?}), {sw}: `{f}` was touched"));
                    }
                }
                // Not fabricc's lines on a fabric port stay.
                let addr = "ip address 10.0.0.1 255.255.255.254";
                for d in [&fresh, &converged] {
                    let kept = d
                        .views
                        .get("interface FourHundredGigE1/0/1")
                        .is_some_and(|s| s.values().any(|l| l == addr));
                    if !kept {
                        failures.push(format!(
                            "pair {pair} ({change:?}), {sw}: the fabric port's address was touched"
                        ));
                    }
                }
                // The ports that left keep fabricc's WRED table: `verify` names exactly them.
                let reported: BTreeSet<String> =
                    leftover_ports(&converged.text(), Dialect::Comware, &after)
                        .into_iter()
                        .filter(|p| p != "FourHundredGigE1/0/30")
                        .collect();
                if reported != left && failures.len() < 3 {
                    failures.push(format!(
                        "pair {pair} ({change:?}), {sw}: verify reports {reported:?} as left over, the ports that left are {left:?}"
                    ));
                }
            }
        },
    );
    assert!(
        failures.is_empty(),
        "Comware: {} failure(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("Comware: {n} pairs converge; changes {changes:?}");
    n
}

#[test]
fn converge_comware_pairs() {
    let t = Instant::now();
    let n = converge(33, PAIRS);
    assert!(n >= pair_count(PAIRS));
    eprintln!("Comware: {n} pairs in {:?}", t.elapsed());
}

// ---- the simulator's own rules ------------------------------------------------------------

#[test]
fn a_paste_keeps_what_a_file_no_longer_states() {
    let mut d =
        Device::from_text("interface X\n priority-flow-control dot1p 4 headroom 100\nquit\n");
    d.paste("interface X\n priority-flow-control dot1p 3 headroom 100\nquit\n");
    let s = &d.views["interface X"];
    assert!(s.contains_key("priority-flow-control dot1p 4 headroom"));
    assert!(s.contains_key("priority-flow-control dot1p 3 headroom"));
}

#[test]
fn single_value_commands_take_the_last_value_and_undo_restores_the_default() {
    let mut d = Device::from_text(
        "interface X\n priority-flow-control no-drop dot1p 3 4\n description a\nquit\n",
    );
    d.paste("interface X\n priority-flow-control no-drop dot1p 3\n undo description\nquit\n");
    let s = &d.views["interface X"];
    assert_eq!(
        s["priority-flow-control no-drop dot1p"],
        "priority-flow-control no-drop dot1p 3"
    );
    assert!(!s.contains_key("description"));
}

#[test]
fn undo_queue_all_clears_the_limits_not_the_ecn() {
    let mut d = Device::from_text(
        "qos wred queue table T\n queue 3 low-limit 1 high-limit 2 discard-probability 3\n queue 3 ecn\nquit\n",
    );
    d.paste("qos wred queue table T\n undo queue all\nquit\n");
    let s = &d.views["qos wred queue table T"];
    assert!(!s.contains_key("queue 3 limits"));
    assert!(s.contains_key("queue 3 ecn"));
}

#[test]
fn a_map_entry_is_one_per_imported_value() {
    let mut d = Device::from_text("qos map-table dscp-dot1p\n import 24 25 26 export 3\nquit\n");
    d.paste("qos map-table dscp-dot1p\n import 24 25 export 0\nquit\n");
    let s = &d.views["qos map-table dscp-dot1p"];
    assert_eq!(s["import 26"], "import 26 export 3");
    assert_eq!(s["import 24"], "import 24 export 0");
}

// ---- verify reads the device the simulator leaves (step 5 of issue 35's Comware half) -----

/// The golden leaf's `qos.cfg` pasted over the seed and printed as `display
/// current-configuration` reads as in sync with the golden; a DSCP moved to another 802.1p
/// value on the device is one difference, at the moved line; a port that left keeps its
/// WRED table and `verify`'s leftover reader names it.
#[test]
fn verify_reads_the_pasted_golden_and_finds_a_moved_dscp() {
    use fabricc::render::{Artifact, ArtifactKind, SwitchOs};
    use fabricc::verify::{self, canon, cli};
    let golden = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/build/comware-s9855/switches/leaf1/qos.cfg"),
    )
    .expect("the golden");
    let artifact = Artifact {
        path: "switches/leaf1/qos.cfg".into(),
        contents: golden.clone(),
        device: "leaf1".into(),
        kind: ArtifactKind::Switch,
        target: "comware".into(),
    };
    let (expected, used) = verify::generated(SwitchOs::Comware, &[artifact]);
    assert_eq!(used, ["switches/leaf1/qos.cfg"]);
    let mut device = Device::from_text(SEED);
    device.paste(&golden);
    let text = device.text();
    let diffs = |text: &str| {
        let (actual, form) = verify::parse(SwitchOs::Comware, text).expect("parses");
        let scope = cli::Scope::new(&expected);
        canon::compare(form, &expected, &actual, &|p| scope.owns(p))
    };
    assert!(diffs(&text).is_empty(), "{:#?}", diffs(&text));
    // The seeded defect: DSCP 26 (roce) exported to 802.1p 0 instead of 3.
    let moved = text.replacen(" import 26 export 3\n", " import 26 export 0\n", 1);
    assert_ne!(moved, text);
    let found = diffs(&moved);
    assert_eq!(found.len(), 1, "{found:#?}");
    let at = found[0].at();
    let line = moved[..at.start as usize].matches('\n').count() + 1;
    let want = moved
        .lines()
        .position(|l| l == " import 26 export 0")
        .map(|i| i + 1);
    assert_eq!(Some(line), want, "{found:#?}");
    // A fabric port's own address is not fabricc's: no difference.
    assert!(text.contains("ip address 10.0.0.1"));
}
