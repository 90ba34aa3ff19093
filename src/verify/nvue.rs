//! NVIDIA Cumulus Linux (NVUE): `nv config show -o yaml` (the applied revision) and fabricc's
//! fragment, as the words of `nv set` commands.
//!
//! NVUE's YAML mirrors its command paths: `nv set qos pfc default-global switch-priority 3` is
//! `qos: {pfc: {default-global: {switch-priority: {'3': {}}}}}` under a `- set:` item
//! ("NVUE Object Model" and "NVUE CLI" in the Cumulus Linux User Guide,
//! https://docs.nvidia.com/networking-ethernet-software/cumulus-linux/System-Configuration/NVIDIA-User-Experience-NVUE/).
//! So a document is flattened into word paths: every key is a word, a scalar value is the
//! last word, and an empty map (`'3': {}`) ends the path at its key. `nv config show -o
//! commands` (and fabricc's `nvue.sh`) give the same paths from their `nv set` lines.
//!
//! Normalisations (the same on both sides):
//! * Scalars: YAML types are not compared (`50`, `'50'` and `"50"` are the word `50`).
//! * A `- header:` item (model, revision, version) is not configuration.
//! * Interface ranges: an interface key such as `swp1-4,swp6` is one path per interface, as
//!   `nv set interface swp1-4,swp6 …` sets each of them.
//!
//! Owned scope: under `qos`, everything fabricc did not write counts, except other named
//! profiles (not `fabricc-*`, which are fabricc's even when no longer written) of the profile
//! collections (`qos pfc <name>`, `mapping`, `egress-queue-mapping`,
//! `congestion-control`, `egress-scheduler`, `remark`, `advance-buffer-config`,
//! `link-pause`), which act only when a port refers to them, and that reference is compared;
//! another traffic pool counts, because the pools share the buffer. Under `interface <port>`
//! for a port fabricc configures: its `qos` subtree, and the settings fabricc writes there
//! (`description`, `link mtu`), never `link speed` or `ip address`. Another port counts only
//! where it is bound to a `fabricc-*` profile (a port that left the fabric).

use std::collections::{HashMap, HashSet};

use serde_yaml::Value;

use super::canon::{Builder, Canon, Loc, key_of, segments};

/// Why a text is not an NVUE document: where (when known) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub offset: usize,
    pub message: String,
}

const PROFILE_COLLECTIONS: &[&str] = &[
    "pfc",
    "mapping",
    "egress-queue-mapping",
    "congestion-control",
    "egress-scheduler",
    "remark",
    "advance-buffer-config",
    "link-pause",
];

/// The prefix of the profile names fabricc gives (`fabricc-pfc-cable1`, `fabricc-ecn-2`).
const OWNED_PREFIX: &str = "fabricc-";

/// The deepest nesting accepted.
pub const MAX_DEPTH: usize = 64;

/// The settings of an NVUE YAML document or of `nv set` lines.
pub fn canon(text: &str) -> Result<Canon, Error> {
    if text.lines().any(|l| l.trim_start().starts_with("nv set ")) {
        return Ok(commands(text));
    }
    let doc: Value = serde_yaml::from_str(text).map_err(|e| Error {
        offset: e.location().map_or(0, |l| l.index()),
        message: e.to_string(),
    })?;
    let index = LineIndex::new(text);
    let mut c = Builder::bounded(text.len());
    let mut trees = Vec::new();
    match &doc {
        Value::Sequence(items) => {
            for item in items {
                if let Value::Mapping(m) = item {
                    for (k, v) in m {
                        if k.as_str() == Some("set") {
                            trees.push(v);
                        }
                    }
                }
            }
        }
        Value::Mapping(_) => trees.push(&doc),
        Value::Null => {}
        _ => {
            return Err(Error {
                offset: 0,
                message: "expected a list of `- set:` items (nv config show -o yaml)".into(),
            });
        }
    }
    for tree in trees {
        flatten(tree, &mut Vec::new(), &mut c, &index, 0)?;
    }
    Ok(c.build())
}

fn word(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null => None,
        Value::Tagged(t) => word(&t.value),
        Value::Sequence(_) | Value::Mapping(_) => None,
    }
}

fn flatten(
    v: &Value,
    path: &mut Vec<String>,
    c: &mut Builder,
    index: &LineIndex,
    depth: usize,
) -> Result<(), Error> {
    if depth > MAX_DEPTH {
        return Err(Error {
            offset: index.at(path).start as usize,
            message: format!("more than {MAX_DEPTH} levels of nesting"),
        });
    }
    match v {
        Value::Mapping(m) if m.is_empty() => {
            if !path.is_empty() {
                c.insert(path, index.at(path));
            }
        }
        Value::Mapping(m) => {
            for (k, child) in m {
                let Some(key) = word(k) else { continue };
                let keys = if path.len() == 1 && path[0] == "interface" {
                    interfaces(&key)
                } else {
                    vec![key.clone()]
                };
                for name in keys {
                    path.push(name);
                    let r = flatten(child, path, c, index, depth + 1);
                    path.pop();
                    r?;
                }
            }
        }
        Value::Sequence(items) => {
            for item in items {
                flatten(item, path, c, index, depth + 1)?;
            }
        }
        Value::Tagged(t) => flatten(&t.value, path, c, index, depth + 1)?,
        Value::Null => {
            if !path.is_empty() {
                c.insert(path, index.at(path));
            }
        }
        scalar => {
            if let Some(w) = word(scalar) {
                let at = index.at(path);
                path.push(w);
                c.insert(path, at);
                path.pop();
            }
        }
    }
    Ok(())
}

/// `swp1-4,swp6` → `swp1`, `swp2`, `swp3`, `swp4`, `swp6`; other names unchanged.
fn interfaces(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in key.split(',') {
        let digits = part
            .bytes()
            .position(|b| b.is_ascii_digit())
            .unwrap_or(part.len());
        let (stem, range) = part.split_at(digits);
        match range.split_once('-') {
            Some((a, b)) if !stem.is_empty() => match (a.parse::<u32>(), b.parse::<u32>()) {
                (Ok(a), Ok(b)) if a <= b && b - a <= 1024 => {
                    out.extend((a..=b).map(|n| format!("{stem}{n}")));
                }
                _ => out.push(part.to_string()),
            },
            _ => out.push(part.to_string()),
        }
    }
    out
}

/// `nv set a b c` lines (`nv config show -o commands`, `nvue.sh`) as paths.
fn commands(text: &str) -> Canon {
    let mut c = Builder::bounded(text.len());
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix("nv set ") else {
            continue;
        };
        let at = Loc::new(start, start + line.trim_end().len());
        let mut words = shell_words(rest);
        if words.len() >= 2 && words[0] == "interface" {
            let names = interfaces(&words[1]);
            for n in names {
                words[1] = n;
                c.insert(&words, at);
            }
        } else if !words.is_empty() {
            c.insert(&words, at);
        }
    }
    c.build()
}

/// Words of a shell command line: spaces split, `'…'` and `"…"` quote.
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\'' => {
                has = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            '"' => {
                has = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => cur.extend(chars.next()),
                        _ => cur.push(q),
                    }
                }
            }
            '#' if !has && cur.is_empty() => break,
            c if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            c => {
                has = true;
                cur.push(c);
            }
        }
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Where each key path of a block YAML document is, found from indentation alone. Only for
/// pointing at lines: a path it cannot place points at the start of the file.
struct LineIndex {
    at: HashMap<Vec<String>, Loc>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut at = HashMap::new();
        let mut stack: Vec<(usize, String)> = Vec::new();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let start = offset;
            offset += line.len();
            let body = line.trim_end();
            let mut rest = body.trim_start();
            let mut indent = body.len() - rest.len();
            if rest.starts_with('#') || rest.is_empty() {
                continue;
            }
            if let Some(r) = rest.strip_prefix("- ") {
                // A list item: its key sits one level deeper than the dash.
                indent += 2;
                rest = r;
            }
            let Some((key, _)) = split_key(rest) else {
                continue;
            };
            while stack.last().is_some_and(|(i, _)| *i >= indent) {
                stack.pop();
            }
            stack.push((indent, key));
            // `- set:` is the document's root, not a word of the paths.
            let path: Vec<String> = stack
                .iter()
                .map(|(_, k)| k.clone())
                .skip_while(|k| k == "set")
                .collect();
            at.entry(path).or_insert(Loc::new(
                start + (body.len() - rest.len()),
                start + body.len(),
            ));
        }
        LineIndex { at }
    }

    /// The line of the longest prefix of `path` that is known.
    fn at(&self, path: &[String]) -> Loc {
        (1..=path.len())
            .rev()
            .find_map(|k| self.at.get(&path[..k]).copied())
            .unwrap_or_default()
    }
}

/// `key: value` → the key, unquoted.
fn split_key(rest: &str) -> Option<(String, &str)> {
    if let Some(q @ ('\'' | '"')) = rest.chars().next() {
        let end = rest[1..].find(q)? + 1;
        let after = rest[end + 1..].trim_start();
        let value = after.strip_prefix(':')?;
        return Some((rest[1..end].to_string(), value));
    }
    let colon = rest
        .find(": ")
        .or_else(|| rest.strip_suffix(':').map(|s| s.len()))?;
    Some((rest[..colon].to_string(), &rest[colon + 1..]))
}

/// What of a device's NVUE configuration fabricc owns, from what it generated.
pub struct Scope {
    /// Every proper prefix of a generated path, as a key.
    prefixes: HashSet<String>,
    ports: HashSet<String>,
}

impl Scope {
    pub fn new(expected: &Canon) -> Self {
        let mut prefixes = HashSet::new();
        let mut ports = HashSet::new();
        for key in expected.paths() {
            let p: Vec<&str> = segments(key).collect();
            for k in 1..p.len() {
                prefixes.insert(key_of(&p[..k]));
            }
            if p.first() == Some(&"interface")
                && let Some(port) = p.get(1)
            {
                ports.insert((*port).to_string());
            }
        }
        Scope { prefixes, ports }
    }

    pub fn owns(&self, p: &[&str]) -> bool {
        let has = |k: usize| self.prefixes.contains(&key_of(&p[..k]));
        match p {
            // A `fabricc-*` profile is fabricc's even when this build no longer writes it: a
            // leftover of an earlier build (C13) that only nvue.sh's ledger unsets.
            ["qos", collection, name, ..] if PROFILE_COLLECTIONS.contains(collection) => {
                has(3) || name.starts_with(OWNED_PREFIX)
            }
            // A port outside this build bound to a `fabricc-*` profile left the fabric.
            ["interface", _, "qos", _, "profile", name] if name.starts_with(OWNED_PREFIX) => true,
            ["qos", ..] => has(1),
            ["interface", port, rest @ ..] if self.ports.contains(*port) => match rest {
                ["qos", ..] => true,
                [] | [_] => false,
                _ => {
                    // The setting's own words, without its value (at most two).
                    let k = (rest.len() - 1).min(2);
                    has(2 + k)
                }
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "- header:\n    model: SN5600\n- set:\n    qos:\n      pfc:\n        default-global:\n          switch-priority:\n            '3': {}\n          cable-length: 30\n    interface:\n      swp1-2:\n        description: \"gpu nic\"\n        link:\n          mtu: 9216\n";

    const COMMANDS: &str = "nv set qos pfc default-global switch-priority 3\nnv set qos pfc default-global cable-length 30\nnv set interface swp1 description 'gpu nic'\nnv set interface swp1 link mtu 9216\nnv set interface swp2 description \"gpu nic\"\nnv set interface swp2 link mtu 9216\n";

    #[test]
    fn yaml_and_commands_agree() {
        let a = canon(YAML).unwrap();
        let b = canon(COMMANDS).unwrap();
        assert_eq!(a.paths().collect::<Vec<_>>(), b.paths().collect::<Vec<_>>());
        assert_eq!(a.len(), 6);
    }

    #[test]
    fn lines_are_found() {
        let a = canon(YAML).unwrap();
        let p: Vec<&str> = "qos pfc default-global cable-length 30"
            .split(' ')
            .collect();
        let at = a.get(&key_of(&p)).unwrap();
        assert_eq!(
            &YAML[at.start as usize..at.end as usize],
            "cable-length: 30"
        );
    }

    #[test]
    fn scope() {
        let s = Scope::new(&canon(YAML).unwrap());
        let p = |t: &'static str| t.split(' ').collect::<Vec<_>>();
        assert!(s.owns(&p("qos pfc default-global switch-priority 4")));
        assert!(!s.owns(&p("qos pfc other-profile switch-priority 4")));
        // Leftovers of an earlier build (C13): its profiles and the ports still bound to them.
        assert!(s.owns(&p("qos pfc fabricc-pfc-cable2 cable-length 3")));
        assert!(s.owns(&p("interface swp9 qos pfc profile fabricc-pfc-cable2")));
        assert!(!s.owns(&p("interface swp9 qos pfc profile other-profile")));
        assert!(s.owns(&p("qos traffic-pool roce-lossless memory-percent 50")));
        assert!(s.owns(&p("interface swp1 qos congestion-control profile x")));
        assert!(s.owns(&p("interface swp1 link mtu 1500")));
        assert!(!s.owns(&p("interface swp1 link speed 400G")));
        assert!(!s.owns(&p("interface swp9 link mtu 1500")));
        assert!(!s.owns(&p("router bgp autonomous-system 65001")));
    }

    #[test]
    fn bad_yaml_is_an_error_with_a_place() {
        let e = canon("- set:\n    qos: [\n").unwrap_err();
        assert!(e.offset > 0, "{e:?}");
    }
}
