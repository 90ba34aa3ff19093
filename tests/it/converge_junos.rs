//! Junos: an apply simulator and the convergence property of `qos.conf` (issue 33 item 1,
//! review J13).
//!
//! The simulator is a model of what Junos does with a curly configuration file loaded into
//! the candidate configuration, for the statements fabricc writes and the foreign
//! configuration seeded here. Each rule and the documented behaviour it models:
//!
//! * **Statements and their names.** A configuration is a tree of statements; a statement is
//!   found again by its name: for a statement with `{ }`, all its words (`et-0/0/0`,
//!   `dscp fabricc-dscp`, `code-point 011010`); for a leaf statement, the keyword and, for the
//!   lists among them, the key (`class roce`, `forwarding-class bulk`, `drop-profile-map
//!   loss-priority any protocol any`, `address 10.0.0.0/31`; Juniper's YANG models,
//!   github.com/Juniper/yang 24.2R1.17 `junos-qfx-conf-class-of-service`, declare these as
//!   lists keyed so); every other leaf statement is single-valued (`mtu 9216`). A `[ … ]`
//!   value is a set of values (`code-points`, `fill-level`, `drop-probability`,
//!   `apply-groups`).
//! * **`load merge`** ("Merge Elements in Configuration Data Using the Junos XML Protocol",
//!   the rules the CLI `load merge` shares): an element in the candidate and not in the file
//!   stays; one in the file and not in the candidate is added; one in both keeps the children
//!   only the candidate has, gains those only the file has, and takes the file's value where
//!   both have one. A set gains the file's values and keeps its own. `replace:` tags are
//!   ignored ("If you … specify a file that includes replace: tags in a load override or
//!   load merge operation, the replace: tags are ignored", Junos CLI User Guide, "Loading
//!   Configuration Files",
//!   juniper.net/documentation/us/en/software/junos/cli/topics/topic-map/junos-config-files-loading.html).
//! * **`load replace`** (same page): "The software searches for the replace: tags, deletes
//!   the existing statements of the same name, if any, and replaces them with the incoming
//!   configuration. If no statement of the same name exists, the replace operation adds the
//!   statements marked with the replace: tag"; everything without the tag is merged.
//! * **`delete:`** removes the statement of that name ("Delete Elements in Configuration Data
//!   Using the Junos XML Protocol", formatted ASCII text); a name that is not there changes
//!   nothing (Junos warns "statement not found").
//! * **Order.** Junos prints statements in its schema's order, not in the order they were
//!   loaded (none of the statements here is ordered by the user), so two configurations are
//!   the same when their statements are, in any order.
//! * **Groups.** A group is configuration like any other (`groups fabricc …`); what it gives
//!   the rest of the configuration is read with `fabricc::verify::junos::canon`, which lifts
//!   the statements of applied groups (documented there), for the effective comparison.
//!
//! The property, over `change_pairs::for_each_pair(Os::Junos, …)`: for every switch,
//! `fresh = load(defaults, N+1)` and `converged = load(load(defaults, N), N+1)` are the same
//! configuration (all of it, what fabricc owns and what it does not), where `load` is the
//! operation the file's header prescribes, and the foreign configuration seeded into the
//! defaults is still there, unchanged, in both.

use std::collections::BTreeMap;
use std::time::Instant;

use fabricc::verify::junos::canon;

use crate::change_pairs::{Built, Change, Os, PAIRS, SWITCHES, for_each_pair, pair_count};

/// A statement: its words (`[ … ]` kept apart as a set), its load-time tag and its children
/// (`None` for a leaf statement ending in `;`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stmt {
    words: Vec<String>,
    set: Option<Vec<String>>,
    tag: Option<Tag>,
    children: Option<Vec<Stmt>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Replace,
    Delete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Load {
    Merge,
    Replace,
}

// ------------------------------------------------------------------ parsing

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(String),
    Open,
    Close,
    Semi,
    List(Vec<String>),
}

fn tokens(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let word_end = |mut j: usize| {
        while j < b.len() && !b" \t\r\n{};[]\"".contains(&b[j]) {
            j += 1;
        }
        j
    };
    let quoted = |j: usize| {
        let mut k = j + 1;
        while k < b.len() && b[k] != b'"' {
            k += if b[k] == b'\\' { 2 } else { 1 };
        }
        (text[j..(k + 1).min(b.len())].to_string(), k + 1)
    };
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += text[i + 2..].find("*/").expect("comment closed") + 4;
            }
            b'{' => {
                out.push(Tok::Open);
                i += 1;
            }
            b'}' => {
                out.push(Tok::Close);
                i += 1;
            }
            b';' => {
                out.push(Tok::Semi);
                i += 1;
            }
            b'[' => {
                i += 1;
                let mut items = Vec::new();
                loop {
                    while matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
                        i += 1;
                    }
                    if b[i] == b']' {
                        i += 1;
                        break;
                    }
                    if b[i] == b'"' {
                        let (w, next) = quoted(i);
                        items.push(w);
                        i = next;
                    } else {
                        let e = word_end(i);
                        items.push(text[i..e].to_string());
                        i = e;
                    }
                }
                out.push(Tok::List(items));
            }
            b'"' => {
                let (w, next) = quoted(i);
                out.push(Tok::Word(w));
                i = next;
            }
            _ => {
                let e = word_end(i);
                out.push(Tok::Word(text[i..e].to_string()));
                i = e;
            }
        }
    }
    out
}

fn parse(text: &str) -> Vec<Stmt> {
    let toks = tokens(text);
    let mut pos = 0;
    let out = block(&toks, &mut pos);
    assert_eq!(pos, toks.len(), "unbalanced `}}`");
    out
}

fn block(toks: &[Tok], pos: &mut usize) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut words = Vec::new();
    let mut set = None;
    let mut tag = None;
    while *pos < toks.len() {
        let t = &toks[*pos];
        *pos += 1;
        match t {
            Tok::Word(w) if words.is_empty() && w == "replace:" => tag = Some(Tag::Replace),
            Tok::Word(w) if words.is_empty() && w == "delete:" => tag = Some(Tag::Delete),
            Tok::Word(w) => words.push(w.clone()),
            Tok::List(items) => set = Some(items.clone()),
            Tok::Semi => {
                // `apply-groups fabricc;` is a set of one.
                if set.is_none() && words.len() == 2 && words[0] == "apply-groups" {
                    set = Some(vec![words.pop().expect("two words")]);
                }
                out.push(Stmt {
                    words: std::mem::take(&mut words),
                    set: set.take(),
                    tag: tag.take(),
                    children: None,
                });
            }
            Tok::Open => {
                let children = block(toks, pos);
                out.push(Stmt {
                    words: std::mem::take(&mut words),
                    set: None,
                    tag: tag.take(),
                    children: Some(children),
                });
            }
            Tok::Close => {
                assert!(words.is_empty(), "`;` missing before `}}`");
                return out;
            }
        }
    }
    assert!(words.is_empty(), "statement not ended");
    out
}

// ------------------------------------------------------------------ the model

/// How many words name a leaf statement: the lists' keyword and key (YANG lists), else the
/// keyword alone.
fn name_len(words: &[String]) -> usize {
    match words.first().map(String::as_str) {
        Some("class" | "forwarding-class" | "address") => 2,
        Some("drop-profile-map") => 5,
        _ => 1,
    }
    .min(words.len())
}

fn name(s: &Stmt) -> &[String] {
    if s.children.is_some() || s.set.is_some() {
        &s.words
    } else {
        &s.words[..name_len(&s.words)]
    }
}

/// Loads `file` into `config` by `how`, by the rules of the module comment.
fn load(config: &mut Vec<Stmt>, file: &[Stmt], how: Load) {
    for s in file {
        let at = config.iter().position(|c| name(c) == name(s));
        match (s.tag, how) {
            (Some(Tag::Delete), _) => {
                if let Some(i) = at {
                    config.remove(i);
                }
            }
            (Some(Tag::Replace), Load::Replace) => {
                if let Some(i) = at {
                    config.remove(i);
                }
                config.push(untagged(s));
            }
            _ => match at {
                None => config.push(untagged(s)),
                Some(i) => merge(&mut config[i], s, how),
            },
        }
    }
}

fn merge(old: &mut Stmt, new: &Stmt, how: Load) {
    match (&mut old.children, &new.children) {
        (Some(oc), Some(nc)) => load(oc, nc, how),
        _ => match (&mut old.set, &new.set) {
            (Some(os), Some(ns)) => {
                for v in ns {
                    if !os.contains(v) {
                        os.push(v.clone());
                    }
                }
            }
            _ => *old = untagged(new),
        },
    }
}

/// A statement as the configuration keeps it: tags act while loading only.
fn untagged(s: &Stmt) -> Stmt {
    Stmt {
        words: s.words.clone(),
        set: s.set.clone(),
        tag: None,
        children: s.children.as_ref().map(|c| {
            c.iter()
                .filter(|x| x.tag != Some(Tag::Delete))
                .map(untagged)
                .collect()
        }),
    }
}

/// The configuration in Junos's own order (by name), so that equal configurations compare
/// equal however they were loaded.
fn normal(config: &[Stmt]) -> Vec<Stmt> {
    let mut out: Vec<Stmt> = config
        .iter()
        .map(|s| Stmt {
            children: s.children.as_deref().map(normal),
            ..s.clone()
        })
        .collect();
    out.sort_by(|a, b| a.words.cmp(&b.words));
    out
}

fn print(config: &[Stmt], depth: usize, out: &mut String) {
    for s in config {
        out.push_str(&"    ".repeat(depth));
        out.push_str(&s.words.join(" "));
        if let Some(set) = &s.set {
            if s.words.first().is_some_and(|w| w == "apply-groups") && set.len() == 1 {
                out.push_str(&format!(" {}", set[0]));
            } else {
                out.push_str(&format!(" [ {} ]", set.join(" ")));
            }
        }
        match &s.children {
            None => out.push_str(";\n"),
            Some(c) => {
                out.push_str(" {\n");
                print(c, depth + 1, out);
                out.push_str(&"    ".repeat(depth));
                out.push_str("}\n");
            }
        }
    }
}

fn show(config: &[Stmt]) -> String {
    let mut out = String::new();
    print(&normal(config), 0, &mut out);
    out
}

/// The load operation the file's header prescribes.
fn prescribed(file: &str) -> Load {
    let header = &file[..file.find("*/").expect("a header comment")];
    if header.contains("load replace") {
        Load::Replace
    } else {
        assert!(
            header.contains("load merge"),
            "no load operation in\n{header}"
        );
        Load::Merge
    }
}

// ------------------------------------------------------------------ the switch before fabricc

/// Configuration fabricc does not own: another port's class-of-service with its own
/// classifier, scheduler map, scheduler and drop profile, a description and MTU on a port
/// that is never a fabric port (hosts use ports 1-16, uplinks the last two), another group.
const FOREIGN: &str = r#"
groups {
    site {
        system {
            ntp {
                server 192.0.2.1;
            }
        }
    }
}
apply-groups site;
interfaces {
    et-0/0/20 {
        description "storage frontend";
        mtu 1514;
        unit 0 {
            family inet {
                address 10.9.9.0/31;
            }
        }
    }
}
class-of-service {
    classifiers {
        dscp foreign-dscp {
            forwarding-class best-effort {
                loss-priority low code-points [ 000000 001010 ];
            }
        }
    }
    drop-profiles {
        dp-foreign {
            interpolate {
                fill-level [ 10 90 ];
                drop-probability [ 0 50 ];
            }
        }
    }
    schedulers {
        s-foreign {
            transmit-rate percent 10;
            drop-profile-map loss-priority any protocol any drop-profile dp-foreign;
        }
    }
    scheduler-maps {
        sm-foreign {
            forwarding-class best-effort scheduler s-foreign;
        }
    }
    interfaces {
        et-0/0/20 {
            scheduler-map sm-foreign;
            unit 0 {
                classifiers {
                    dscp foreign-dscp;
                }
            }
        }
    }
}
"#;

/// The switch before any fabricc build: its name, routing on every port fabricc may use
/// (units and addresses are configured outside fabricc's file), and [`FOREIGN`].
fn defaults(switch: &str) -> Vec<Stmt> {
    let mut text = format!("system {{\n    host-name {switch};\n}}\ninterfaces {{\n");
    for p in 0..64 {
        text.push_str(&format!(
            "    et-0/0/{p} {{\n        unit 0 {{\n            family inet {{\n                address 10.0.{p}.0/31;\n            }}\n        }}\n    }}\n"
        ));
    }
    text.push_str("}\n");
    let mut config = parse(&text);
    load(&mut config, &parse(FOREIGN), Load::Merge);
    config
}

/// `config` with `files` of a switch loaded as their headers prescribe.
fn apply(mut config: Vec<Stmt>, files: &BTreeMap<&str, &str>) -> Vec<Stmt> {
    for text in files.values() {
        load(&mut config, &parse(text), prescribed(text));
    }
    config
}

/// The effective configuration (applied groups lifted), as `verify` reads it.
fn effective(shown: &str) -> Vec<String> {
    canon(shown)
        .expect("the simulator prints configuration verify reads")
        .path_vecs()
        .into_iter()
        .map(|p| p.join(" "))
        .collect()
}

/// The first line where two printed configurations differ, with context.
fn first_difference(a: &str, b: &str) -> String {
    let diff = similar::TextDiff::from_lines(a, b);
    diff.unified_diff()
        .context_radius(4)
        .header("fresh", "converged")
        .to_string()
        .lines()
        .take(60)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Checks the contract on one pair; returns what broke it.
fn check_pair(change: Change, older: &Built, newer: &Built) -> Result<(), String> {
    let foreign = effective(&show(&parse(FOREIGN)));
    for sw in SWITCHES {
        let base = defaults(sw);
        let fresh = show(&apply(base.clone(), &newer.device(sw)));
        let converged = show(&apply(apply(base, &older.device(sw)), &newer.device(sw)));
        if fresh != converged {
            return Err(format!(
                "{change:?}, {sw}: applying build N+1 over build N differs from a fresh apply\n{}\n--- N:\n{}\n--- N+1:\n{}",
                first_difference(&fresh, &converged),
                older.text,
                newer.text
            ));
        }
        let eff = effective(&fresh);
        let lost: Vec<&String> = foreign.iter().filter(|p| !eff.contains(p)).collect();
        if !lost.is_empty() {
            return Err(format!(
                "{change:?}, {sw}: foreign configuration lost: {lost:?}"
            ));
        }
        // Not vacuous: every statement of the file is in effect on the switch.
        for text in newer.device(sw).values() {
            let missing: Vec<String> = effective(text)
                .into_iter()
                .filter(|p| !eff.contains(p))
                .take(3)
                .collect();
            if !missing.is_empty() {
                return Err(format!("{change:?}, {sw}: not in effect: {missing:?}"));
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ tests

#[test]
fn simulator_follows_junos_load_semantics() {
    let base = parse(
        "class-of-service {\n    forwarding-classes {\n        class a queue-num 1;\n        class b queue-num 2;\n    }\n    schedulers {\n        s-x {\n            transmit-rate percent 10;\n        }\n    }\n}\nsystem {\n    host-name x;\n}\n",
    );
    let file = parse(
        "class-of-service {\n    replace:\n    forwarding-classes {\n        class a queue-num 3 no-loss;\n    }\n    schedulers {\n        s-y {\n            transmit-rate percent 20;\n        }\n        delete:\n        s-x;\n    }\n}\n",
    );
    // merge: the tag is ignored, nothing is removed, a leaf takes the file's value.
    let mut merged = base.clone();
    load(&mut merged, &file, Load::Merge);
    let m = show(&merged);
    assert!(m.contains("class a queue-num 3 no-loss;"), "{m}");
    assert!(m.contains("class b queue-num 2;"), "{m}");
    assert!(!m.contains("s-x"), "delete: acts under merge too\n{m}");
    assert!(m.contains("host-name x;"), "{m}");
    // replace: the tagged statement is replaced whole; the rest is merged.
    let mut replaced = base.clone();
    load(&mut replaced, &file, Load::Replace);
    let r = show(&replaced);
    assert!(r.contains("class a queue-num 3 no-loss;"), "{r}");
    assert!(!r.contains("class b"), "{r}");
    assert!(r.contains("s-y") && !r.contains("s-x"), "{r}");
    assert!(r.contains("host-name x;"), "{r}");
    // Sets gain values under merge.
    let mut set = parse("a {\n    code-points [ 000001 000010 ];\n}\n");
    load(
        &mut set,
        &parse("a { code-points [ 000011 ]; }"),
        Load::Merge,
    );
    assert!(show(&set).contains("code-points [ 000001 000010 000011 ];"));
    // A replace: of a name not there adds it; loading twice changes nothing.
    let mut twice = base.clone();
    load(&mut twice, &file, Load::Replace);
    load(&mut twice, &file, Load::Replace);
    assert_eq!(show(&twice), r);
    // Printed configurations read back as they were.
    assert_eq!(show(&parse(&r)), r);
}

/// The contract over `PAIRS` random pairs (`FABRICC_CONVERGE_PAIRS=1000` or more for the long run).
#[test]
fn converge_junos() {
    let started = Instant::now();
    let mut by_change: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut failed = 0;
    let n = for_each_pair(Os::Junos, 33, PAIRS, |change, older, newer| {
        *by_change.entry(format!("{change:?}")).or_default() += 1;
        if let Err(e) = check_pair(change, older, newer) {
            failed += 1;
            if failures.len() < 3 {
                failures.push(e);
            }
        }
    });
    eprintln!(
        "converge_junos: {n} pairs in {:.1} s, {failed} not converged: {by_change:?}",
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{failed} of {n} pairs do not converge; the first:\n{}",
        failures.join("\n\n")
    );
    assert!(n >= pair_count(PAIRS));
    assert!(by_change.len() >= 10, "{by_change:?}");
}

/// What the contract catches: a fabricc file of the `load merge` days (no group, no tag)
/// leaves the scheduler of a removed class behind. (The whole earlier rendering, run through
/// `converge_junos` once, failed 725 of its 1,000 pairs: stale port bindings after a
/// re-cabling, PFC code points after a priority move, drop probabilities after an ECN
/// change.)
#[test]
fn merge_fragments_do_not_converge() {
    let old = "/* load merge */\nclass-of-service {\n    forwarding-classes {\n        class tcp queue-num 1;\n        class roce queue-num 3;\n    }\n    schedulers {\n        s-tcp {\n            transmit-rate percent 19;\n        }\n    }\n}\n";
    let new = "/* load merge */\nclass-of-service {\n    forwarding-classes {\n        class roce queue-num 3;\n    }\n}\n";
    let fresh = apply(defaults("leaf1"), &BTreeMap::from([("qos.conf", new)]));
    let converged = apply(
        apply(defaults("leaf1"), &BTreeMap::from([("qos.conf", old)])),
        &BTreeMap::from([("qos.conf", new)]),
    );
    assert_ne!(show(&fresh), show(&converged));
    assert!(show(&converged).contains("s-tcp"));
}
