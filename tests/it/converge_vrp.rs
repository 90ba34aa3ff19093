//! Convergence of the Huawei VRP (CloudEngine) fragment (issue 33 item 1, issue 35): applying
//! build N+1 over a switch that runs build N — by the procedure `qos.cfg`'s header prescribes
//! (`system-view`, paste, `commit`) — leaves exactly what a fresh apply of N+1 leaves, and
//! never touches configuration fabricc does not own.
//!
//! # The apply simulator
//!
//! `Device` models the configuration as `display current-configuration` prints it: top-level
//! commands of the system view, and views (`interface …`, `dcb pfc NAME`, `drop-profile NAME`,
//! `diffserv domain NAME`, `load-balance ecmp`) entered by a line whose following lines are
//! indented, left at a `#` line. Each rule models a behaviour Huawei documents for the
//! commands fabricc writes (CloudEngine 8800, 6800, and 5800 Series Switches V300R023C00
//! Command Reference and Configuration Guide; page titles in quotes):
//!
//! * **Entering a view merges.** `drop-profile NAME` "creates a WRED drop profile and enters
//!   the WRED drop profile view, or enters the existing WRED drop profile view" ("drop-profile";
//!   likewise "dcb pfc", "diffserv domain"): what the view already holds stays unless a line
//!   changes it. A new PFC profile holds priority 3 ("priority (DCB PFC view)": "By default,
//!   PFC is enabled for priority queue 3").
//! * **A command with one value per object is replaced.** `description`, `mtu`, `trust
//!   upstream`, `dcb pfc enable`, `qos queue Q drr weight`, `qos queue Q wred`, `ecn …`,
//!   `ip-dscp-inbound D …` (one PHB per DSCP), `ip …` in the ECMP view, the deadlock timers,
//!   `recovery-behavior … slot S`, `headroom-pool … slot S`, `dcb pfc buffer Q hdrm|xoff`: the
//!   key is the command's leading words (the `KEYS` rules), the rest its value.
//! * **`priority` accumulates.** "If you run this command multiple times, all configurations
//!   take effect" ("Enabling PFC"): each priority is its own entry; `undo priority` with no
//!   priority cancels them all ("undo priority [ <priority> ] &<0-3>").
//! * **`qos pq` / `qos drr` set each listed queue's mode**; a queue not listed keeps its mode,
//!   PQ by default ("qos pq drr lpq": "By default, the scheduling mode of queues on an
//!   interface is PQ"), so the state holds one mode per queue.
//! * **`undo` removes.** `undo <keyed command>` restores the default (removes the entry);
//!   `undo dcb pfc buffer` without a queue deletes every buffer threshold of the port ("dcb
//!   pfc buffer", note); `undo dcb pfc NAME` / `undo drop-profile NAME` delete the profile —
//!   refused while an interface uses it (modelled as no change: fabricc deletes a profile
//!   only after re-binding the ports it configures). `undo` of something absent changes
//!   nothing.
//! * **All or nothing.** The two-stage `commit` applies the candidate as a whole; the
//!   simulator applies the file line by line and compares only the end state.
//!
//! Not modelled: refusals of a value on a given platform, and the traffic a change disrupts.
//!
//! # The property
//!
//! For random pairs of builds (`change_pairs::for_each_pair(Os::Vrp, …)`): `fresh = apply(seed,
//! N+1)`, `converged = apply(apply(seed, N), N+1)`; they must be equal, except on the
//! interfaces of ports that left the fabric (no file of N+1 can name them; the header says
//! so) and the profiles only those interfaces still use (VRP refuses to delete a profile in
//! use: the header says they stay). `seed` holds configuration that is not fabricc's (another
//! port's queue profile, a foreign drop profile and DiffServ domain, an address on a fabric
//! port, a description on a non-fabric port): it must come out untouched.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use super::change_pairs::{Built, Os, PAIRS, SWITCHES, for_each_pair, pair_count};

/// A view: its entries by key (the line as the device prints it is the value).
type View = BTreeMap<String, String>;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Device {
    /// System-view commands by key.
    system: View,
    /// Views by the line that enters them.
    views: BTreeMap<String, View>,
}

/// Keyed commands: `(leading words, words in the key)`; the first rule whose leading words
/// match a line gives its key.
const KEYS: &[(&str, usize)] = &[
    ("description", 1),
    ("mtu", 1),
    ("trust upstream", 2),
    ("dcb pfc enable", 3),
    ("dcb pfc deadlock-detect timer", 4),
    ("dcb pfc deadlock-detect interval", 4),
    ("dcb pfc deadlock-recovery timer", 4),
    ("ecn", 1),
    ("ip-dscp-inbound", 2),
    ("ip address", 2),
    ("ip", 1),
];

/// The key of a line: `qos queue 3 wred X` → `qos queue 3 wred`, `priority 3 deadlock-detect
/// time 10` → `priority 3 deadlock-detect`, the recovery behaviour and headroom pool by slot.
fn key_of(line: &str) -> String {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["qos", "queue", q, "drr", "weight", ..] => format!("qos queue {q} drr weight"),
        ["qos", "queue", q, "wred", ..] => format!("qos queue {q} wred"),
        [
            "priority",
            p,
            kind @ ("deadlock-detect" | "deadlock-recovery"),
            ..,
        ] => {
            format!("priority {p} {kind}")
        }
        ["dcb", "pfc", "buffer", q, kind, ..] => format!("dcb pfc buffer {q} {kind}"),
        ["dcb", "pfc", "deadlock", "recovery-behavior", _, "slot", s] => {
            format!("dcb pfc deadlock recovery-behavior slot {s}")
        }
        ["qos", "buffer", "headroom-pool", .., "slot", s] => {
            format!("qos buffer headroom-pool slot {s}")
        }
        _ => {
            for (lead, n) in KEYS {
                let lw: Vec<&str> = lead.split_whitespace().collect();
                if w.len() >= lw.len() && w[..lw.len()] == lw[..] {
                    return w[..(*n).min(w.len())].join(" ");
                }
            }
            w.join(" ")
        }
    }
}

/// `1 to 3 5` → {1, 2, 3, 5}.
fn queues(words: &[&str]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let a: u8 = words[i].parse().expect("queue");
        if words.get(i + 1) == Some(&"to") {
            let b: u8 = words[i + 2].parse().expect("queue");
            out.extend(a..=b);
            i += 3;
        } else {
            out.push(a);
            i += 1;
        }
    }
    out
}

/// One command inside a view (or the system view).
fn apply_line(view: &mut View, line: &str) {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["qos", mode @ ("pq" | "drr"), rest @ ..] => {
            for q in queues(rest) {
                let key = format!("qos mode {q}");
                if *mode == "pq" {
                    // PQ is the default: no entry.
                    view.remove(&key);
                } else {
                    view.insert(key, format!("qos drr {q}"));
                }
            }
        }
        ["priority", ps @ ..] if ps.iter().all(|p| p.parse::<u8>().is_ok()) => {
            for p in ps {
                view.insert(format!("priority {p}"), format!("priority {p}"));
            }
        }
        ["undo", rest @ ..] => {
            let rest = rest.join(" ");
            let key = key_of(&rest);
            if view.remove(&key).is_none() {
                // `undo priority`, `undo dcb pfc buffer`, `undo dcb pfc deadlock-detect`:
                // everything under those words.
                let prefix = format!("{rest} ");
                view.retain(|k, _| !k.starts_with(&prefix));
            }
        }
        _ => {
            view.insert(key_of(line), line.to_string());
        }
    }
}

impl Device {
    pub fn new() -> Device {
        Device::default()
    }

    /// Applies a file as pasted into the system view.
    pub fn paste(&mut self, text: &str) {
        let lines: Vec<&str> = text.lines().collect();
        let mut current: Option<String> = None;
        for (i, raw) in lines.iter().enumerate() {
            let body = raw.trim_end();
            let trimmed = body.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                current = None;
                continue;
            }
            let indented = body.len() != trimmed.len();
            let line = trimmed.split_whitespace().collect::<Vec<_>>().join(" ");
            if indented {
                let header = current.clone().expect("an indented line inside a view");
                let view = self.views.entry(header).or_default();
                apply_line(view, &line);
                continue;
            }
            let opens = lines
                .get(i + 1)
                .is_some_and(|n| n.starts_with(' ') && !n.trim().is_empty());
            if opens {
                let created = !self.views.contains_key(&line);
                let view = self.views.entry(line.clone()).or_default();
                if created && line.starts_with("dcb pfc ") {
                    view.insert("priority 3".into(), "priority 3".into());
                }
                current = Some(line);
                continue;
            }
            current = None;
            match line
                .strip_prefix("undo ")
                .map(|r| r.split_whitespace().collect::<Vec<_>>())
            {
                Some(r)
                    if r.len() == 3 && r[0] == "dcb" && r[1] == "pfc" && !r[2].contains('-') =>
                {
                    self.delete_profile(
                        &format!("dcb pfc {}", r[2]),
                        &format!("dcb pfc enable {} ", r[2]),
                    );
                }
                Some(r) if r.len() == 2 && r[0] == "drop-profile" => {
                    let name = r[1];
                    let used = self.views.values().any(|v| {
                        v.values().any(|l| {
                            l.starts_with("qos queue ") && l.ends_with(&format!(" wred {name}"))
                        })
                    });
                    if !used {
                        self.views.remove(&format!("drop-profile {name}"));
                    }
                }
                _ => apply_line(&mut self.system, &line),
            }
        }
    }

    fn delete_profile(&mut self, header: &str, use_prefix: &str) {
        let used = self
            .views
            .values()
            .any(|v| v.values().any(|l| l.starts_with(use_prefix)));
        if !used {
            self.views.remove(header);
        }
    }

    /// The state as text, for failure messages.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for l in self.system.values() {
            s += &format!("{l}\n");
        }
        for (h, v) in &self.views {
            s += &format!("{h}\n");
            for l in v.values() {
                s += &format!(" {l}\n");
            }
        }
        s
    }
}

/// Configuration that is not fabricc's: another port's queue profile, a foreign drop
/// profile and DiffServ domain, an address on what becomes a fabric port, a description on a
/// port no build uses, a default-profile priority.
const SEED: &str = "\
drop-profile FOREIGN
 color green low-limit 80 high-limit 100 discard-percentage 10
#
diffserv domain OTHER
 ip-dscp-inbound 8 phb af1 yellow
#
interface 100GE1/0/30
 description not fabricc's
 qos queue 1 wred FOREIGN
 trust upstream OTHER
#
interface 400GE1/0/30
 description not fabricc's either
#
interface 100GE1/0/1
 ip address 10.0.0.1 255.255.255.254
#
interface 400GE1/0/1
 ip address 10.0.1.1 255.255.255.254
#
dcb pfc
 priority 3
#
";

/// The fabric ports a file configures.
fn fabric_ports(file: &str) -> BTreeSet<String> {
    file.lines()
        .filter_map(|l| l.strip_prefix("interface "))
        .map(str::to_string)
        .collect()
}

fn apply(seed: &Device, files: &[&str]) -> Device {
    let mut d = seed.clone();
    for f in files {
        d.paste(f);
    }
    d
}

/// `d` without the interfaces in `left` and without the profiles only they use.
fn without_left(d: &Device, left: &BTreeSet<String>, fresh: &Device) -> Device {
    let mut d = d.clone();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for p in left {
        if let Some(v) = d.views.remove(&format!("interface {p}")) {
            for l in v.values() {
                if let Some(n) = l.strip_prefix("dcb pfc enable ") {
                    used.insert(format!("dcb pfc {}", n.split(' ').next().unwrap_or("")));
                }
                if l.starts_with("qos queue ")
                    && let Some((_, n)) = l.split_once(" wred ")
                {
                    used.insert(format!("drop-profile {n}"));
                }
            }
        }
    }
    for h in used {
        if !fresh.views.contains_key(&h) {
            d.views.remove(&h);
        }
    }
    d
}

fn seeded() -> Device {
    let mut d = Device::new();
    d.paste(SEED);
    d
}

fn check_pair(older: &Built, newer: &Built, what: &str) {
    let seed = seeded();
    for sw in SWITCHES {
        let old = older.device(sw);
        let new = newer.device(sw);
        let (Some(old), Some(new)) = (old.get("qos.cfg"), new.get("qos.cfg")) else {
            panic!("{what}: {sw} has no qos.cfg");
        };
        let fresh = apply(&seed, &[new]);
        let converged = apply(&seed, &[old, new]);
        let left: BTreeSet<String> = fabric_ports(old)
            .difference(&fabric_ports(new))
            .cloned()
            .collect();
        let fresh_cmp = without_left(&fresh, &left, &fresh);
        let conv_cmp = without_left(&converged, &left, &fresh);
        assert!(
            fresh_cmp == conv_cmp,
            "{what}: {sw} does not converge\n--- fresh\n{}\n--- converged\n{}\n--- N\n{}\n--- N+1\n{}",
            fresh_cmp.text(),
            conv_cmp.text(),
            older.text,
            newer.text
        );
        // Not fabricc's: untouched.
        for (header, view) in &seed.views {
            let fabric = fabric_ports(old)
                .union(&fabric_ports(new))
                .any(|p| header == &format!("interface {p}"));
            let got = converged.views.get(header);
            if fabric {
                // A fabric port keeps its address.
                for (k, l) in view.iter().filter(|(k, _)| k.starts_with("ip address")) {
                    assert_eq!(got.and_then(|v| v.get(k)), Some(l), "{what}: {sw} {header}");
                }
            } else if header != "dcb pfc" {
                assert_eq!(got, Some(view), "{what}: {sw}: `{header}` was touched");
            }
        }
    }
}

#[test]
fn vrp_converges_over_any_earlier_build() {
    let t = Instant::now();
    let n = for_each_pair(Os::Vrp, 35, PAIRS, |change, older, newer| {
        check_pair(older, newer, &format!("{change:?}"));
    });
    assert!(n >= pair_count(PAIRS));
    eprintln!("VRP: {n} pairs in {:?}", t.elapsed());
}

// ---- the simulator's own rules ------------------------------------------------------------

#[test]
fn entering_a_view_merges_and_undo_removes() {
    let mut d = Device::new();
    d.paste("drop-profile P\n ecn buffer-size low-limit 1 high-limit 2 discard-percentage 3\n#\n");
    d.paste("drop-profile P\n ecn buffer-size low-limit 5 high-limit 6 discard-percentage 7\n#\n");
    assert!(d.text().contains("low-limit 5") && !d.text().contains("low-limit 1"));
    d.paste("dcb pfc X\n priority 4\n#\n");
    assert!(d.text().contains(" priority 3\n") && d.text().contains(" priority 4\n"));
    d.paste("dcb pfc X\n undo priority\n priority 4\n#\n");
    assert!(!d.text().contains(" priority 3\n"), "{}", d.text());
    d.paste("interface 400GE1/0/1\n qos queue 3 wred P\n dcb pfc enable X mode manual\n#\n");
    d.paste("undo drop-profile P\nundo dcb pfc X\n");
    assert!(d.text().contains("drop-profile P\n") && d.text().contains("dcb pfc X\n"));
    d.paste("interface 400GE1/0/1\n undo qos queue 3 wred\n undo dcb pfc enable\n#\n");
    d.paste("undo drop-profile P\nundo dcb pfc X\n");
    assert!(!d.text().contains("drop-profile P") && !d.text().contains("dcb pfc X"));
}

#[test]
fn queue_modes_and_buffers() {
    let mut d = Device::new();
    d.paste("interface 400GE1/0/1\n qos drr 0 to 4\n dcb pfc buffer 3 hdrm 100 kbytes\n dcb pfc buffer 4 hdrm 100 kbytes\n#\n");
    d.paste("interface 400GE1/0/1\n qos pq 1 to 2 5 to 7\n undo dcb pfc buffer\n#\n");
    let t = d.text();
    assert!(
        t.contains("qos drr 0\n") && t.contains("qos drr 3\n") && !t.contains("qos drr 1\n"),
        "{t}"
    );
    assert!(!t.contains("hdrm"), "{t}");
}

/// The golden files apply on the simulator, and a re-apply changes nothing.
#[test]
fn goldens_apply_and_reapply_idempotently() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/build");
    let mut checked = 0;
    for case in ["vrp-ce8851", "vrp-ce6885"] {
        for entry in std::fs::read_dir(root.join(case).join("switches")).expect("switches") {
            let dir = entry.expect("entry").path();
            let qos = std::fs::read_to_string(dir.join("qos.cfg")).expect("qos.cfg");
            let once = apply(&seeded(), &[&qos]);
            let twice = apply(&once, &[&qos]);
            assert_eq!(once, twice, "{}", dir.display());
            checked += 1;
        }
    }
    assert!(checked >= 6);
}

// ---- verify: the golden's own output read back ---------------------------------------------

/// The simulator's state in `display current-configuration`'s layout.
fn display(d: &Device) -> String {
    let mut s = String::from("!Software Version V300R023C00\n#\n");
    for l in d.system.values() {
        s += &format!("{l}\n");
    }
    for (h, v) in &d.views {
        s += &format!("#\n{h}\n");
        for l in v.values() {
            s += &format!(" {l}\n");
        }
    }
    s + "#\nreturn\n"
}

/// `(code, device, key)` of `fabricc verify`'s findings.
fn verify(fab: &str, state: &std::path::Path) -> (i32, Vec<(String, String, String)>, String) {
    let o = crate::support::Fabricc::new()
        .arg("verify")
        .arg(fab)
        .arg("--state")
        .arg(state)
        .args(["--format", "json", "--target", "vrp"])
        .run();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let v: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&o.stderr)));
    let mut found: Vec<(String, String, String)> = v["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
                    (s("code"), s("device"), s("key"))
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    (o.status.code().unwrap_or(-1), found, text)
}

/// The golden's switches, applied on the simulator over the seed and printed as VRP prints
/// them, verify clean; a DSCP moved to another queue on one switch is one finding at that
/// line of that switch's `current-configuration`.
#[test]
fn verify_reads_back_the_golden_and_finds_a_moved_dscp() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("fabricc-vrp-verify-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sw in SWITCHES {
        let qos = std::fs::read_to_string(
            root.join(format!("fixtures/build/vrp-ce8851/switches/{sw}/qos.cfg")),
        )
        .expect("golden");
        let d = apply(&seeded(), &[&qos]);
        std::fs::create_dir_all(dir.join(sw)).expect("state dir");
        std::fs::write(dir.join(sw).join("current-configuration"), display(&d)).expect("write");
    }
    let fab = "fixtures/build/inputs/vrp-ce8851.fab";
    let (code, found, text) = verify(fab, &dir);
    assert_eq!((code, found.as_slice()), (0, &[][..]), "{text}");

    let rc = dir.join("leaf1").join("current-configuration");
    let good = std::fs::read_to_string(&rc).expect("state");
    let bad = good.replacen(
        " ip-dscp-inbound 26 phb af3 green\n",
        " ip-dscp-inbound 26 phb af2 green\n",
        1,
    );
    assert_ne!(good, bad);
    std::fs::write(&rc, &bad).expect("write");
    let (code, found, text) = verify(fab, &dir);
    assert_eq!(code, 1, "{text}");
    assert_eq!(found.len(), 1, "{text}");
    assert_eq!(found[0].1, "leaf1", "{text}");
    assert!(found[0].2.contains("ip-dscp-inbound 26"), "{text}");
    let line = bad
        .lines()
        .position(|l| l == " ip-dscp-inbound 26 phb af2 green")
        .expect("the line")
        + 1;
    assert!(
        text.contains(&format!("current-configuration:{line}"))
            || text.contains(&format!("\"line\": {line}"))
            || text.contains(&format!("\"line\":{line}")),
        "line {line} not named\n{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
