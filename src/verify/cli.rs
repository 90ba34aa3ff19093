//! Arista EOS and Cisco NX-OS: `show running-config` text and fabricc's fragment as
//! indented lines, each setting a path of its parent lines, its keywords and its value.
//!
//! A line's parents are the lines above it with less indentation (both OSes print a
//! sub-mode's lines indented under the line that entered it). A line with no lines under it
//! is a setting; it is cut into keywords (the leading words without digits, capitals or
//! quotes: `random-detect ecn minimum-threshold`, `mtu`, `service-profile`) and a value
//! (`150000 bytes maximum-threshold …`, `9214`, `FABRICC_ROCE`), so two lines that set the
//! same thing to different values are one difference. A line of keywords only (`qos trust
//! dscp`) keeps its last word as the value when it has three or more words.
//!
//! Normalisations (the same on both sides):
//! * Comments: lines starting with `!` are not configuration. EOS drops single-`!` comments
//!   and keeps `!!` comments as remarks; both OSes print `!` separators between blocks, and
//!   NX-OS starts its running-config with `!Command:` and `!Time:` lines.
//! * Whitespace: indentation depth only decides parents; runs of spaces inside a line count
//!   as one, and trailing spaces and `\r` are dropped.
//! * Order: a setting is a path, so the order of sections and of lines in a section (EOS
//!   prints `qos profile` and interfaces before the global `qos map` lines; fabricc's order
//!   is its own) never counts. Classes in a fabricc policy match disjoint DSCP sets, so their
//!   order cannot change what the policy does.
//! * EOS `qos map dscp D1 D2 … to traffic-class T`: one setting per DSCP. The command takes a
//!   list of DSCPs, and EOS prints the map grouped per traffic class
//!   (`qos map dscp 0 1 2 … 63 to traffic-class 0`, in `show running-config`, as DISA's Arista
//!   router STIG ARST-RT-000320 shows it), while fabricc may write it otherwise.
//! * NX-OS `match dscp 0-25,27-47` (and `match cos`): the list as a set, so `24,25,26` and
//!   `24-26` are the same match.
//!
//! Owned scope: a top-level section fabricc writes (`qos profile FABRICC_ROCE`,
//! `policy-map type qos FABRICC_CLASSIFY`, `system qos`) is fabricc's whole: any other line
//! in it is drift (a second `priority-flow-control priority 4 no-drop`). An `interface`
//! section is shared with addressing and routing: its other lines count only when their first
//! keyword is one fabricc writes somewhere in the fragment (`priority-flow-control`, `qos`,
//! `service-policy`, `mtu`, …), never `ip address` or `shutdown`. A top-level line counts when
//! its first keyword is that of a top-level line of the fragment (`qos …`,
//! `priority-flow-control …`). Other top-level sections (other interfaces, `router bgp`,
//! another `qos profile`) are other objects and not compared.

use std::collections::{BTreeSet, HashSet};

use super::canon::{Builder, Canon, Loc, segments};

/// Which OS printed the text: decides the normalisations of its own commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Eos,
    Nxos,
    /// H3C Comware 7 `display current-configuration` and fabricc's `qos.cfg`: `#` lines are
    /// separators and comments, `quit`/`return` leave a view (no settings), `undo …` removes,
    /// and a priority map's `import A B … export E` is one setting per imported value.
    Comware,
}

/// Whether a trimmed line is no configuration in `dialect`: a comment or separator, or (on
/// Comware) a line that only leaves a view.
fn skipped(trimmed: &str, dialect: Dialect) -> bool {
    match dialect {
        Dialect::Comware => {
            trimmed.is_empty() || trimmed.starts_with('#') || matches!(trimmed, "quit" | "return")
        }
        Dialect::Eos | Dialect::Nxos => trimmed.is_empty() || trimmed.starts_with('!'),
    }
}

struct Line<'a> {
    indent: usize,
    text: String,
    start: usize,
    end: usize,
    _raw: &'a str,
}

/// The settings of a configuration text.
pub fn canon(text: &str, dialect: Dialect) -> Canon {
    let mut lines = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']).trim_end();
        let trimmed = body.trim_start();
        if skipped(trimmed, dialect) {
            continue;
        }
        let indent = body.len() - trimmed.len();
        lines.push(Line {
            indent,
            text: trimmed.split_whitespace().collect::<Vec<_>>().join(" "),
            start: start + indent,
            end: start + body.len(),
            _raw: raw,
        });
    }
    let mut c = Builder::bounded(text.len());
    let mut parents: Vec<(usize, &str)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        while parents.last().is_some_and(|(ind, _)| *ind >= line.indent) {
            parents.pop();
        }
        let leaf = lines
            .get(i + 1)
            .is_none_or(|next| next.indent <= line.indent);
        if leaf {
            let at = Loc::new(line.start, line.end);
            let parents: Vec<&str> = parents.iter().map(|(_, t)| *t).collect();
            for (key, value) in settings(&line.text, dialect) {
                let mut path = parents.clone();
                path.push(&key);
                path.push(&value);
                c.insert(&path, at);
            }
        } else {
            parents.push((line.indent, &line.text));
        }
    }
    c.build()
}

/// `no …` lines that the OS keeps in its running-config as settings (a routed port, a
/// weighted queue), not removals.
const STORED_NEGATIONS: &[&str] = &[
    "no switchport",
    "no priority",
    "no autostate",
    "no shutdown",
];

/// The settings fabricc's own fragment leaves on a device, as `canon` reads a
/// running-config: the fragment's removals (`no qos profile FABRICC_ROCE`, `no class
/// FABRICC_Q4`: what it deletes before writing it again) and its statements of an EOS
/// default (`qos map cos 2 to traffic-class 2`, `qos map traffic-class 3 to tx-queue 3`,
/// which a running-config does not print) are no settings; a section header left with
/// only removals under it is none either. Offsets stay those of the fragment.
pub fn fragment(text: &str, dialect: Dialect) -> Canon {
    canon(&fragment_text(text, dialect), dialect)
}

/// The fragment with the lines `fragment` does not count blanked (same length, so offsets
/// stay): what a device prints after a fresh apply, in the fragment's order.
pub fn fragment_text(text: &str, dialect: Dialect) -> String {
    let lines: Vec<(usize, usize, &str)> = {
        let mut out = Vec::new();
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            let start = offset;
            offset += raw.len();
            let body = raw.trim_end_matches(['\n', '\r']);
            let trimmed = body.trim_start();
            if skipped(trimmed, dialect) {
                continue;
            }
            out.push((body.len() - trimmed.len(), start, body));
        }
        out
    };
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let dropped_alone = |t: &str| {
        let t = words(t);
        let removal = match dialect {
            Dialect::Comware => t.starts_with("undo "),
            Dialect::Eos | Dialect::Nxos => {
                (t.starts_with("no ") || t.starts_with("default "))
                    && !STORED_NEGATIONS.contains(&t.as_str())
            }
        };
        removal || (dialect == Dialect::Eos && restates_default(&t))
    };
    let mut drop: Vec<bool> = lines.iter().map(|(_, _, b)| dropped_alone(b)).collect();
    // A header whose every line below it is dropped.
    for i in (0..lines.len()).rev() {
        let indent = lines[i].0;
        let mut j = i + 1;
        let mut children = 0;
        let mut kept = 0;
        while j < lines.len() && lines[j].0 > indent {
            children += 1;
            if !drop[j] {
                kept += 1;
            }
            j += 1;
        }
        if children > 0 && kept == 0 {
            drop[i] = true;
        }
    }
    let mut out = text.to_string();
    for ((_, start, body), d) in lines.iter().zip(&drop) {
        if *d {
            let blank = " ".repeat(body.len());
            out.replace_range(*start..*start + body.len(), &blank);
        }
    }
    out
}

/// An EOS `qos map cos C to traffic-class T` or `qos map traffic-class T to tx-queue Q` line
/// that states EOS's default (CoS 0↔1 swapped, else identity; traffic class N on queue N).
fn restates_default(line: &str) -> bool {
    let w: Vec<&str> = line.split(' ').collect();
    match w.as_slice() {
        ["qos", "map", "cos", c, "to", "traffic-class", t] => {
            match (c.parse::<u8>(), t.parse::<u8>()) {
                (Ok(c), Ok(t)) => crate::render::eos::default_cos_tc(c) == t,
                _ => false,
            }
        }
        ["qos", "map", "traffic-class", t, "to", "tx-queue", q] => t == q,
        _ => false,
    }
}

/// A port that is not a fabric port but still carries a fabricc-named QoS binding
/// (`service-profile FABRICC_…` on EOS, `service-policy type … FABRICC_…` on NX-OS): one
/// that left the fabric, which a later fragment cannot name, so its lines stay (FAB976).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    pub port: String,
    /// The binding line, as the running-config prints it.
    pub line: String,
    /// Byte range of that line in the text.
    pub start: usize,
    pub end: usize,
}

/// The prefix of every object name fabricc writes on EOS and NX-OS.
pub const OWNED_PREFIX: &str = "FABRICC_";

/// The leftover bindings of a running-config: interfaces outside `fabric_ports` whose
/// `service-profile` or `service-policy` (Comware: `qos wred apply`) names a `FABRICC_`
/// object.
pub fn leftovers(text: &str, fabric_ports: &BTreeSet<String>) -> Vec<Leftover> {
    let mut out = Vec::new();
    let mut port: Option<String> = None;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']).trim_end();
        let trimmed = body.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('!') || trimmed.starts_with('#') {
            continue;
        }
        let line = trimmed.split_whitespace().collect::<Vec<_>>().join(" ");
        if trimmed.len() == body.len() {
            port = line
                .strip_prefix("interface ")
                .filter(|p| !p.contains(' '))
                .map(str::to_string);
            continue;
        }
        let Some(p) = &port else { continue };
        if fabric_ports.contains(p) {
            continue;
        }
        let w: Vec<&str> = line.split(' ').collect();
        let owned = match w.as_slice() {
            ["service-profile", name] => name.starts_with(OWNED_PREFIX),
            ["service-policy", "type", _, _, name] => name.starts_with(OWNED_PREFIX),
            // Comware: the port's WRED table (`qos.cfg` applies one on every fabric port).
            ["qos", "wred", "apply", name] => name.starts_with(OWNED_PREFIX),
            _ => false,
        };
        if owned {
            let indent = body.len() - trimmed.len();
            out.push(Leftover {
                port: p.clone(),
                line,
                start: start + indent,
                end: start + body.len(),
            });
        }
    }
    out
}

/// The ports `leftovers` names, each once, in text order (test support: the convergence
/// tests check that `verify` names exactly the ports that left).
#[cfg(any(test, feature = "internals"))]
pub fn leftover_ports(
    text: &str,
    _dialect: Dialect,
    fabric_ports: &BTreeSet<String>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in leftovers(text, fabric_ports) {
        if !out.contains(&l.port) {
            out.push(l.port);
        }
    }
    out
}

/// One line as (keywords, value) settings; several for an EOS DSCP map line.
fn settings(line: &str, dialect: Dialect) -> Vec<(String, String)> {
    let words: Vec<&str> = line.split(' ').collect();
    if dialect == Dialect::Eos
        && let ["qos", "map", "dscp", rest @ ..] = words.as_slice()
        && let Some(to) = rest.iter().position(|w| *w == "to")
        && let Some(dscps) = numbers(&rest[..to])
    {
        let target = rest[to..].join(" ");
        return dscps
            .into_iter()
            .map(|d| (format!("qos map dscp {d}"), target.clone()))
            .collect();
    }
    if dialect == Dialect::Comware
        && let ["import", rest @ ..] = words.as_slice()
        && let Some(to) = rest.iter().position(|w| *w == "export")
        && let Some(values) = numbers(&rest[..to])
    {
        let target = rest[to..].join(" ");
        return values
            .into_iter()
            .map(|v| (format!("import {v}"), target.clone()))
            .collect();
    }
    if dialect == Dialect::Nxos
        && let ["match", kind @ ("dscp" | "cos" | "precedence"), list] = words.as_slice()
        && let Some(values) = numbers(&list.split(',').collect::<Vec<_>>())
    {
        return vec![(format!("match {kind}"), ranges(&values))];
    }
    vec![split(&words)]
}

/// `a b c 1 X` → (`a b c`, `1 X`): the keywords and the value of a line.
fn split(words: &[&str]) -> (String, String) {
    let value_like = |w: &str| {
        w.chars()
            .any(|c| c.is_ascii_digit() || c.is_uppercase() || matches!(c, '"' | '\'' | '/'))
    };
    let mut k = words
        .iter()
        .position(|w| value_like(w))
        .unwrap_or(words.len());
    if k == words.len() && words.len() >= 3 {
        k = words.len() - 1;
    }
    let k = k.max(1).min(words.len());
    (words[..k].join(" "), words[k..].join(" "))
}

/// Numbers and `a-b` ranges as a sorted set; `None` when a word is neither.
fn numbers(words: &[&str]) -> Option<BTreeSet<u32>> {
    let mut out = BTreeSet::new();
    for w in words {
        match w.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                if b < a || b - a > 4096 {
                    return None;
                }
                out.extend(a..=b);
            }
            None => {
                out.insert(w.parse().ok()?);
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A set of numbers as `0-25,27-47`.
fn ranges(values: &BTreeSet<u32>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut iter = values.iter().copied().peekable();
    while let Some(start) = iter.next() {
        let mut end = start;
        while iter.peek() == Some(&(end + 1)) {
            end += 1;
            iter.next();
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
    }
    out.join(",")
}

/// A line's first keyword, past a leading `no` or `default`.
fn family(text: &str) -> &str {
    let mut words = text.split(' ');
    match words.next() {
        Some("no" | "default" | "undo") => words.next().unwrap_or(""),
        Some(w) => w,
        None => "",
    }
}

/// What of a device's running-config fabricc owns, from what it generated.
pub struct Scope {
    /// First keywords of the fragment's top-level lines.
    top: HashSet<String>,
    /// The fragment's top-level section headers.
    sections: HashSet<String>,
    /// First keywords of every line the fragment writes.
    families: HashSet<String>,
}

impl Scope {
    pub fn new(expected: &Canon) -> Self {
        let mut top = HashSet::new();
        let mut sections = HashSet::new();
        let mut families = HashSet::new();
        for key in expected.paths() {
            let p: Vec<&str> = segments(key).collect();
            if p.len() == 2 {
                top.insert(family(p[0]).to_string());
            } else if let Some(h) = p.first() {
                sections.insert((*h).to_string());
            }
            for seg in &p[..p.len().saturating_sub(1)] {
                families.insert(family(seg).to_string());
            }
        }
        Scope {
            top,
            sections,
            families,
        }
    }

    pub fn owns(&self, p: &[&str]) -> bool {
        if p.len() == 2 {
            return self.top.contains(family(p[0]));
        }
        let Some(header) = p.first() else {
            return false;
        };
        if !self.sections.contains(*header) {
            return false;
        }
        if family(header) == "interface" {
            return p
                .get(1)
                .is_some_and(|first| self.families.contains(family(first)));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str, d: Dialect) -> Vec<String> {
        canon(text, d)
            .path_vecs()
            .iter()
            .map(|p| p.join(" | "))
            .collect()
    }

    #[test]
    fn a_fragment_counts_no_removal_and_no_default() {
        let frag = "no qos profile FABRICC_ROCE\nqos profile FABRICC_ROCE\n   qos trust dscp\n   tx-queue 0\n      no priority\npolicy-map type qos P\n  no class FABRICC_Q4\ninterface Ethernet1/1\n   no description\n   no switchport\nqos map cos 2 to traffic-class 2\nqos map cos 3 to traffic-class 4\nqos map traffic-class 5 to tx-queue 5\n";
        let p: Vec<String> = fragment(frag, Dialect::Eos)
            .path_vecs()
            .iter()
            .map(|p| p.join(" | "))
            .collect();
        assert_eq!(
            p,
            [
                "interface Ethernet1/1 | no switchport | ",
                "qos map cos | 3 to traffic-class 4",
                "qos profile FABRICC_ROCE | qos trust | dscp",
                "qos profile FABRICC_ROCE | tx-queue 0 | no priority | ",
            ],
            "{p:?}"
        );
        // Offsets stay the fragment's.
        assert_eq!(fragment_text(frag, Dialect::Eos).len(), frag.len());
    }

    #[test]
    fn leftovers_are_fabricc_bindings_outside_the_fabric() {
        let text = "interface Ethernet1/1\n   service-profile FABRICC_ROCE\ninterface Ethernet1/2\n   service-profile FABRICC_ROCE\n   mtu 9214\ninterface Ethernet1/3\n   service-profile OPERATOR\ninterface Ethernet1/4\n  service-policy type qos input FABRICC_CLASSIFY\n  service-policy type queuing output FABRICC_EGRESS\n";
        let fabric: BTreeSet<String> = ["Ethernet1/1".to_string()].into();
        let l = leftovers(text, &fabric);
        let ports: Vec<&str> = l.iter().map(|l| l.port.as_str()).collect();
        assert_eq!(ports, ["Ethernet1/2", "Ethernet1/4", "Ethernet1/4"]);
        assert_eq!(&text[l[0].start..l[0].end], "service-profile FABRICC_ROCE");
        assert_eq!(
            leftover_ports(text, Dialect::Nxos, &fabric),
            ["Ethernet1/2", "Ethernet1/4"]
        );
    }

    #[test]
    fn lines_under_their_parents() {
        let text = "! c\nqos profile P\n   qos trust dscp\n   !\n   tx-queue 3\n      !! class roce\n      bandwidth percent 60\n!\ninterface Ethernet1/1\n   mtu  9214\n";
        assert_eq!(
            paths(text, Dialect::Eos),
            vec![
                "interface Ethernet1/1 | mtu | 9214",
                "qos profile P | qos trust | dscp",
                "qos profile P | tx-queue 3 | bandwidth percent | 60",
            ]
        );
    }

    #[test]
    fn eos_dscp_map_is_per_dscp() {
        let grouped = canon("qos map dscp 0 1 2-3 to traffic-class 0\n", Dialect::Eos);
        let single = canon(
            "qos map dscp 3 to traffic-class 0\nqos map dscp 2 to traffic-class 0\nqos map dscp 1 to traffic-class 0\nqos map dscp 0 to traffic-class 0\n",
            Dialect::Eos,
        );
        assert_eq!(
            grouped.paths().collect::<Vec<_>>(),
            single.paths().collect::<Vec<_>>()
        );
        assert_eq!(grouped.len(), 4);
    }

    #[test]
    fn nxos_match_lists_are_sets() {
        let a = canon(
            "class-map type qos match-any x\n  match dscp 24,25,26\n",
            Dialect::Nxos,
        );
        let b = canon(
            "class-map type qos match-any x\n  match dscp 24-26\n",
            Dialect::Nxos,
        );
        assert_eq!(a.paths().collect::<Vec<_>>(), b.paths().collect::<Vec<_>>());
    }

    #[test]
    fn keywords_and_values() {
        let s = |l: &str| split(&l.split(' ').collect::<Vec<_>>());
        assert_eq!(s("mtu 9214"), ("mtu".into(), "9214".into()));
        assert_eq!(s("no switchport"), ("no switchport".into(), "".into()));
        assert_eq!(s("qos trust dscp"), ("qos trust".into(), "dscp".into()));
        assert_eq!(
            s("service-profile FABRICC_ROCE"),
            ("service-profile".into(), "FABRICC_ROCE".into())
        );
        assert_eq!(
            s("description L1 Ethernet32"),
            ("description".into(), "L1 Ethernet32".into())
        );
    }

    #[test]
    fn scope() {
        let e = canon(
            "qos profile P\n   priority-flow-control priority 3 no-drop\ninterface Ethernet1/1\n   mtu 9214\nqos map dscp 26 to traffic-class 3\n",
            Dialect::Eos,
        );
        let s = Scope::new(&e);
        let p = |v: &[&'static str]| v.to_vec();
        assert!(s.owns(&p(&[
            "qos profile P",
            "priority-flow-control priority",
            "4 no-drop"
        ])));
        assert!(s.owns(&p(&[
            "interface Ethernet1/1",
            "priority-flow-control priority",
            "4 no-drop"
        ])));
        assert!(!s.owns(&p(&["interface Ethernet1/1", "ip address", "10.0.0.1/31"])));
        assert!(!s.owns(&p(&["interface Ethernet9/1", "mtu", "1500"])));
        assert!(!s.owns(&p(&[
            "router bgp 65000",
            "neighbor",
            "10.0.0.1 remote-as 65001"
        ])));
        assert!(s.owns(&p(&["qos rewrite dscp", ""])));
        assert!(!s.owns(&p(&["hostname", "S1"])));
    }
}
