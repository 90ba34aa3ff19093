//! The canonical form both sides of a comparison are reduced to, and the comparison itself.
//!
//! A configuration becomes a set of *paths*: each setting is the list of segments that leads
//! to it, ending in its value. How a target's text is cut into segments is its parser's
//! business (`sonic.rs`: table, key, field, value; `cli.rs`: parent lines, then the line's
//! keywords and its value; `junos.rs` and `nvue.rs`: the words of a `set` statement;
//! `host.rs`: NIC, setting, value). The generated fragment and the device's state go through
//! the same parser, so what the device prints differently from what was loaded is handled
//! once, in the parser, and both sides meet in the same form.
//!
//! The comparison ([`compare`]) takes the paths fabricc generated, the paths the device has,
//! and the target's scope (which device paths fabricc owns, `scope.rs`), and gives:
//! * `Differs`: a generated path and a device path that differ only in their last segment (a
//!   value), or where one is a proper prefix of the other (a statement with a word more or
//!   less, such as a Junos forwarding class without `no-loss`);
//! * `Missing`: generated paths the device lacks, grouped under the shortest prefix the device
//!   has nothing under (a whole missing table, section or port is one difference);
//! * `Extra`: owned device paths fabricc did not generate, grouped the same way.

use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;

/// A byte range in a state file (`0..0` when not known).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
pub struct Loc {
    pub start: u32,
    pub end: u32,
}

impl Loc {
    pub fn new(start: usize, end: usize) -> Self {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Loc {
            start: clamp(start),
            end: clamp(end.max(start)),
        }
    }
}

pub type Path = Vec<String>;

/// How a target's paths are cut, which decides how a path is shown to the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// SONiC CONFIG_DB: `[table, key, field, value]`, shown `TABLE|key|field`.
    Table,
    /// Indented CLI (EOS, NX-OS): parent lines, then the line as keywords and value; shown
    /// with ` / ` between lines.
    Lines,
    /// Junos and NVUE: the words of a `set` statement; shown with spaces.
    Words,
    /// A host's NICs: `[nic, setting, value]`.
    Host,
}

impl Form {
    /// A prefix of a path (a setting without its value, a table, a section) as shown.
    pub fn key(self, segments: &[String]) -> String {
        match self {
            Form::Table => segments.join("|"),
            Form::Lines => segments.join(" / "),
            Form::Words | Form::Host => words(segments),
        }
    }

    /// The tail of a path (a value, or the words after a shared prefix) as shown.
    pub fn value(self, segments: &[String]) -> String {
        match self {
            Form::Lines | Form::Table => segments.join(" "),
            Form::Words | Form::Host => words(segments),
        }
    }

    /// A whole setting in one string, for a message: `TABLE|key|field = "v"`, `parent /
    /// line`, `set words`.
    pub fn setting(self, key: &str, value: &str) -> String {
        match self {
            Form::Table if value.starts_with('{') => format!("{key} {value}"),
            Form::Table => format!("{key} = {value:?}"),
            Form::Lines | Form::Words | Form::Host if value.is_empty() => key.to_string(),
            Form::Lines | Form::Words | Form::Host => format!("{key} {value}"),
        }
    }
}

fn words(segments: &[String]) -> String {
    segments
        .iter()
        .map(|w| quote_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A word that holds a space is shown in quotes, as `set` statements write it.
fn quote_word(w: &str) -> String {
    if w.is_empty() || w.contains(char::is_whitespace) {
        format!("{w:?}")
    } else {
        w.to_string()
    }
}

/// A configuration as paths, each with where it is in its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Canon {
    pub entries: BTreeMap<Path, Loc>,
}

impl Canon {
    pub fn insert(&mut self, path: Path, at: Loc) {
        self.entries.entry(path).or_insert(at);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether some path starts with `prefix` (or is it).
    pub fn has_prefix(&self, prefix: &[String]) -> bool {
        self.first_under(prefix).is_some()
    }

    /// The first path (in order) that starts with `prefix`, and where it is.
    pub fn first_under(&self, prefix: &[String]) -> Option<(&Path, Loc)> {
        self.entries
            .range::<[String], _>((Bound::Included(prefix), Bound::Unbounded))
            .next()
            .filter(|(p, _)| p.starts_with(prefix))
            .map(|(p, l)| (p, *l))
    }

    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.entries.keys()
    }
}

/// One difference between what fabricc generated and what the device has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Diff {
    /// The device has the setting with another value.
    Differs {
        /// The setting, as shown.
        key: String,
        expected: String,
        actual: String,
        at: Loc,
    },
    /// What fabricc generated under `key` is not on the device (`count` settings); when
    /// it is one setting, `key` is the setting and `expected` its value.
    Missing {
        key: String,
        expected: Option<String>,
        count: usize,
        at: Loc,
    },
    /// The device has `count` owned settings under `key` that fabricc did not generate; when
    /// it is one setting, `key` is the setting and `actual` its value.
    Extra {
        key: String,
        actual: Option<String>,
        count: usize,
        at: Loc,
    },
}

impl Diff {
    pub fn at(&self) -> Loc {
        match self {
            Diff::Differs { at, .. } | Diff::Missing { at, .. } | Diff::Extra { at, .. } => *at,
        }
    }
}

/// Compares the generated paths with the device's, within what `owns` says fabricc owns.
/// A device path pairs with a generated one whether owned or not: the same setting with
/// another value is fabricc's setting.
pub fn compare(
    form: Form,
    expected: &Canon,
    actual: &Canon,
    owns: &dyn Fn(&[String]) -> bool,
) -> Vec<Diff> {
    let missing: Vec<&Path> = expected
        .paths()
        .filter(|p| !actual.entries.contains_key(*p))
        .collect();
    // Every device path fabricc did not generate may pair with a generated one (the same
    // setting with another value is fabricc's, owned or not); only owned ones are extra.
    let extra: Vec<(&Path, Loc)> = actual
        .entries
        .iter()
        .filter(|(p, _)| !expected.entries.contains_key(*p))
        .map(|(p, l)| (p, *l))
        .collect();
    let mut used = vec![false; extra.len()];
    let mut out = Vec::new();
    let mut unpaired = Vec::new();

    // Same parent, another last segment: a value that differs.
    let mut by_parent: HashMap<&[String], Vec<usize>> = HashMap::new();
    for (i, (p, _)) in extra.iter().enumerate() {
        if let Some((_, parent)) = p.split_last() {
            by_parent.entry(parent).or_default().push(i);
        }
    }
    let by_path: HashMap<&[String], usize> = extra
        .iter()
        .enumerate()
        .map(|(i, (p, _))| (p.as_slice(), i))
        .collect();
    for m in &missing {
        let Some((_, parent)) = m.split_last() else {
            continue;
        };
        let candidate = by_parent
            .get(parent)
            .and_then(|c| c.iter().copied().find(|&i| !used[i]));
        // A device statement that is a proper prefix of the generated one (fewer words).
        let candidate = candidate.or_else(|| {
            (1..m.len())
                .rev()
                .filter_map(|k| by_path.get(&m[..k]).copied())
                .find(|&i| !used[i])
        });
        // A device statement that extends the generated one (more words).
        let candidate = candidate.or_else(|| {
            let from = extra.partition_point(|(p, _)| p.as_slice() < m.as_slice());
            extra[from..]
                .iter()
                .enumerate()
                .take_while(|(_, (p, _))| p.starts_with(m))
                .map(|(j, _)| from + j)
                .find(|&i| !used[i])
        });
        match candidate {
            Some(i) => {
                used[i] = true;
                let (e, at) = extra[i];
                let common = m.iter().zip(e.iter()).take_while(|(a, b)| a == b).count();
                out.push(Diff::Differs {
                    key: form.key(&m[..common]),
                    expected: form.value(&m[common..]),
                    actual: form.value(&e[common..]),
                    at,
                });
            }
            None => unpaired.push(*m),
        }
    }

    // What is left missing, grouped under the shortest prefix the device has nothing under.
    let mut groups: BTreeMap<&[String], Vec<&Path>> = BTreeMap::new();
    for m in unpaired {
        let k = (1..=m.len())
            .find(|&k| !actual.has_prefix(&m[..k]))
            .unwrap_or(m.len());
        groups.entry(&m[..k]).or_default().push(m);
    }
    for (prefix, paths) in groups {
        // Point at the nearest place the device does have: the parent's first setting.
        let at = (1..prefix.len())
            .rev()
            .find_map(|k| actual.first_under(&prefix[..k]).map(|(_, l)| l))
            .unwrap_or_default();
        let (key, expected) = match paths.as_slice() {
            [one] => leaf(form, one, prefix.len()),
            _ => (form.key(prefix), None),
        };
        out.push(Diff::Missing {
            key,
            expected,
            count: paths.len(),
            at,
        });
    }

    // What is left extra, grouped under the shortest prefix fabricc generated nothing under.
    let mut groups: BTreeMap<&[String], Vec<(&Path, Loc)>> = BTreeMap::new();
    for (i, (e, at)) in extra.iter().enumerate() {
        if used[i] || !owns(e) {
            continue;
        }
        let k = (1..=e.len())
            .find(|&k| !expected.has_prefix(&e[..k]))
            .unwrap_or(e.len());
        groups.entry(&e[..k]).or_default().push((e, *at));
    }
    for (prefix, paths) in groups {
        let at = paths.iter().map(|(_, l)| *l).min().unwrap_or_default();
        let (key, actual) = match paths.as_slice() {
            [(one, _)] => leaf(form, one, prefix.len()),
            _ => (form.key(prefix), None),
        };
        out.push(Diff::Extra {
            key,
            actual,
            count: paths.len(),
            at,
        });
    }
    out
}

/// A whole path as a setting and its value. A CONFIG_DB record that is missing or extra as a
/// whole (`prefix` ends at its key) is named by its key, its one field shown with the value.
fn leaf(form: Form, path: &[String], prefix: usize) -> (String, Option<String>) {
    if let (Form::Table, [table, key, field, value]) = (form, path)
        && prefix <= 2
    {
        return (
            format!("{table}|{key}"),
            Some(format!("{{{field:?}: {value:?}}}")),
        );
    }
    match path.split_last() {
        Some((value, key)) => (form.key(key), Some(form.value(std::slice::from_ref(value)))),
        None => (String::new(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(paths: &[&[&str]]) -> Canon {
        let mut c = Canon::default();
        for (i, p) in paths.iter().enumerate() {
            c.insert(
                p.iter().map(|s| s.to_string()).collect(),
                Loc::new(i * 10, i * 10 + 5),
            );
        }
        c
    }

    #[test]
    fn a_value_differs() {
        let e = canon(&[&["PORT_QOS_MAP", "Ethernet0", "pfc_enable", "3"]]);
        let a = canon(&[&["PORT_QOS_MAP", "Ethernet0", "pfc_enable", "3,4"]]);
        let d = compare(Form::Table, &e, &a, &|_| true);
        assert_eq!(
            d,
            vec![Diff::Differs {
                key: "PORT_QOS_MAP|Ethernet0|pfc_enable".into(),
                expected: "3".into(),
                actual: "3,4".into(),
                at: Loc::new(0, 5),
            }]
        );
    }

    #[test]
    fn a_missing_key_is_one_difference() {
        let e = canon(&[
            &["BUFFER_PG", "Ethernet0|3", "profile", "p"],
            &["QUEUE", "Ethernet0|3", "scheduler", "s"],
            &["QUEUE", "Ethernet0|3", "wred_profile", "w"],
        ]);
        let a = canon(&[
            &["BUFFER_PG", "Ethernet0|3", "profile", "p"],
            &["QUEUE", "x", "y", "z"],
        ]);
        let d = compare(Form::Table, &e, &a, &|_| false);
        assert_eq!(d.len(), 1);
        assert!(
            matches!(&d[0], Diff::Missing { key, count: 2, .. } if key == "QUEUE|Ethernet0|3"),
            "{d:?}"
        );
    }

    #[test]
    fn extra_settings_count_only_in_scope() {
        let e = canon(&[&["BUFFER_PG", "Ethernet0|3", "profile", "p"]]);
        let a = canon(&[
            &["BUFFER_PG", "Ethernet0|3", "profile", "p"],
            &["BUFFER_PG", "Ethernet0|3-4", "profile", "q"],
            &["BUFFER_PG", "Ethernet99|3-4", "profile", "q"],
        ]);
        let owns = |p: &[String]| p[1].starts_with("Ethernet0|");
        let d = compare(Form::Table, &e, &a, &owns);
        assert_eq!(d.len(), 1);
        assert!(
            matches!(&d[0], Diff::Extra { key, count: 1, actual: Some(v), .. } if key == "BUFFER_PG|Ethernet0|3-4" && v == r#"{"profile": "q"}"#),
            "{d:?}"
        );
    }

    #[test]
    fn a_statement_with_fewer_words_differs() {
        let e = canon(&[&["cos", "fc", "class", "roce", "queue-num", "3", "no-loss"]]);
        let a = canon(&[&["cos", "fc", "class", "roce", "queue-num", "3"]]);
        let d = compare(Form::Words, &e, &a, &|_| true);
        assert_eq!(
            d,
            vec![Diff::Differs {
                key: "cos fc class roce queue-num 3".into(),
                expected: "no-loss".into(),
                actual: "".into(),
                at: Loc::new(0, 5),
            }]
        );
    }
}
