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
//!
//! A path is kept as one string, its segments joined by the ASCII unit separator (a segment
//! holding one has it replaced), in a sorted vector: a device has thousands of settings and a
//! fabric tens of thousands of devices, so building, looking up and comparing stay one
//! allocation and one `memcmp` per setting, and the comparison is a merge of two sorted lists.

use std::collections::{BTreeMap, HashMap};

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

/// The separator of a path's segments in its key.
pub const SEP: char = '\u{1f}';

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
    pub fn key<S: AsRef<str>>(self, segments: &[S]) -> String {
        let joined = |sep: &str| {
            segments
                .iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(sep)
        };
        match self {
            Form::Table => joined("|"),
            Form::Lines => joined(" / "),
            Form::Words | Form::Host => words(segments),
        }
    }

    /// The tail of a path (a value, or the words after a shared prefix) as shown.
    pub fn value<S: AsRef<str>>(self, segments: &[S]) -> String {
        match self {
            Form::Lines | Form::Table => segments
                .iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(" "),
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

fn words<S: AsRef<str>>(segments: &[S]) -> String {
    segments
        .iter()
        .map(|w| quote_word(w.as_ref()))
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

/// A path's key: its segments joined by [`SEP`].
pub fn key_of<S: AsRef<str>>(segments: &[S]) -> String {
    let mut key = String::with_capacity(segments.iter().map(|s| s.as_ref().len() + 1).sum());
    for (i, s) in segments.iter().enumerate() {
        if i > 0 {
            key.push(SEP);
        }
        let s = s.as_ref();
        if s.contains(SEP) {
            key.push_str(&s.replace(SEP, "\u{fffd}"));
        } else {
            key.push_str(s);
        }
    }
    key
}

/// The segments of a key.
pub fn segments(key: &str) -> std::str::Split<'_, char> {
    key.split(SEP)
}

/// The key without its last segment, when it has more than one.
fn parent(key: &str) -> Option<&str> {
    key.rfind(SEP).map(|i| &key[..i])
}

/// Whether `key` is `prefix` or lies under it (segment-wise).
fn under(key: &str, prefix: &str) -> bool {
    key.len() >= prefix.len()
        && key.starts_with(prefix)
        && (key.len() == prefix.len() || key[prefix.len()..].starts_with(SEP))
}

/// What one setting costs besides its key's bytes (the string, its location, the allocation).
const ENTRY_COST: usize = 64;

/// The paths a state file of `len` bytes may expand to, in bytes ([`Builder::bounded`]).
///
/// Every path repeats its parents' words, so a text expands: a realistic configuration by a
/// small factor, a hostile one (a megabyte-long section header over a million one-word lines,
/// a CONFIG_DB key naming every port over many fields) quadratically. The budget keeps what a
/// state file may cost in memory proportional to its size, as `--max-input-bytes` bounds that.
pub fn budget(len: usize) -> usize {
    len.saturating_mul(8).saturating_add(16 << 20)
}

/// The settings of a text as they are read: [`Builder::build`] sorts them once.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    items: Vec<(String, Loc)>,
    /// Bytes used and the most allowed (`None`: fabricc's own output, not bounded).
    used: usize,
    limit: Option<usize>,
    exceeded: Option<Loc>,
}

impl Builder {
    /// A builder for a state file of `len` bytes: past [`budget`] it stops and says where.
    pub fn bounded(len: usize) -> Self {
        Builder {
            limit: Some(budget(len)),
            ..Builder::default()
        }
    }

    pub fn insert<S: AsRef<str>>(&mut self, segments: &[S], at: Loc) {
        if self.exceeded.is_some() {
            return;
        }
        let key = key_of(segments);
        self.used = self.used.saturating_add(key.len() + ENTRY_COST);
        if self.limit.is_some_and(|l| self.used > l) {
            self.exceeded = Some(at);
            return;
        }
        self.items.push((key, at));
    }

    /// Whether the text went past its budget: nothing more is read, so a parser can stop.
    pub fn is_exceeded(&self) -> bool {
        self.exceeded.is_some()
    }

    /// Drops the settings `keep` refuses (by their segments).
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.items.retain(|(k, _)| keep(k));
    }

    pub fn build(mut self) -> Canon {
        // Stable, so the first of equal keys (the first place it was said) is kept.
        self.items.sort_by(|a, b| a.0.cmp(&b.0));
        self.items.dedup_by(|b, a| a.0 == b.0);
        Canon {
            entries: self.items,
            exceeded: self.exceeded,
        }
    }
}

/// A configuration as paths (sorted, unique keys), each with where it is in its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Canon {
    entries: Vec<(String, Loc)>,
    /// Where the text went past its [`budget`] (what follows was not read).
    exceeded: Option<Loc>,
}

impl Canon {
    /// Several canons as one (the first place of a key wins).
    pub fn merge(parts: Vec<Canon>) -> Canon {
        let mut b = Builder::default();
        for c in parts {
            b.exceeded = b.exceeded.or(c.exceeded);
            b.items.extend(c.entries);
        }
        b.build()
    }

    /// Where the text went past its [`budget`], when it did.
    pub fn exceeded(&self) -> Option<Loc> {
        self.exceeded
    }

    /// Test support (unit tests, and tests/it/verify_props.rs holds the size to the budget),
    /// not the product's.
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, key: &str) -> Option<Loc> {
        self.entries
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .map(|i| self.entries[i].1)
    }

    /// Whether some path is `prefix` or lies under it.
    pub fn has_prefix(&self, prefix: &str) -> bool {
        self.first_under(prefix).is_some()
    }

    /// The first path (in order) that is `prefix` or lies under it, and where it is.
    pub fn first_under(&self, prefix: &str) -> Option<(&str, Loc)> {
        if let Ok(i) = self
            .entries
            .binary_search_by(|(k, _)| k.as_str().cmp(prefix))
        {
            return Some((self.entries[i].0.as_str(), self.entries[i].1));
        }
        let mut below = String::with_capacity(prefix.len() + 1);
        below.push_str(prefix);
        below.push(SEP);
        let i = self
            .entries
            .partition_point(|(k, _)| k.as_str() < below.as_str());
        self.entries
            .get(i)
            .filter(|(k, _)| k.starts_with(below.as_str()))
            .map(|(k, l)| (k.as_str(), *l))
    }

    /// Every key, in order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// Every path as its segments (for tests and messages).
    pub fn path_vecs(&self) -> Vec<Vec<String>> {
        self.paths()
            .map(|k| segments(k).map(str::to_string).collect())
            .collect()
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
    owns: &dyn Fn(&[&str]) -> bool,
) -> Vec<Diff> {
    let (missing, extra) = one_side_only(expected, actual);
    if missing.is_empty() && extra.is_empty() {
        return Vec::new();
    }
    let mut used = vec![false; extra.len()];
    let mut out = Vec::new();
    let unpaired = pair_differing(form, &missing, &extra, &mut used, &mut out);
    group_missing(form, unpaired, actual, &mut out);
    group_extra(form, &extra, &used, expected, owns, &mut out);
    out
}

/// One merge of the two sorted lists: the generated paths the device lacks, and the
/// device's paths (with their places) fabricc did not generate.
fn one_side_only<'c>(
    expected: &'c Canon,
    actual: &'c Canon,
) -> (Vec<&'c str>, Vec<(&'c str, Loc)>) {
    let mut missing: Vec<&str> = Vec::new();
    let mut extra: Vec<(&str, Loc)> = Vec::new();
    let (e, a) = (&expected.entries, &actual.entries);
    let (mut i, mut j) = (0, 0);
    while i < e.len() || j < a.len() {
        match (e.get(i), a.get(j)) {
            (Some((x, _)), Some((y, at))) => match x.cmp(y) {
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => {
                    missing.push(x);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    extra.push((y, *at));
                    j += 1;
                }
            },
            (Some((x, _)), None) => {
                missing.push(x);
                i += 1;
            }
            (None, Some((y, at))) => {
                extra.push((y, *at));
                j += 1;
            }
            (None, None) => break,
        }
    }
    (missing, extra)
}

/// Pairs each missing path with an extra one that is the same setting with another value
/// (marking it `used`), as a `Diff::Differs`; returns the missing paths left unpaired.
fn pair_differing<'c>(
    form: Form,
    missing: &[&'c str],
    extra: &[(&'c str, Loc)],
    used: &mut [bool],
    out: &mut Vec<Diff>,
) -> Vec<&'c str> {
    let mut unpaired = Vec::new();
    // Same parent, another last segment: a value that differs.
    let mut by_parent: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (p, _)) in extra.iter().enumerate() {
        if let Some(parent) = parent(p) {
            by_parent.entry(parent).or_default().push(i);
        }
    }
    let by_path: HashMap<&str, usize> = extra
        .iter()
        .enumerate()
        .map(|(i, (p, _))| (*p, i))
        .collect();
    for m in missing {
        let candidate = parent(m)
            .and_then(|p| by_parent.get(p))
            .and_then(|c| c.iter().copied().find(|&i| !used[i]));
        // A device statement that is a proper prefix of the generated one (fewer words).
        let candidate = candidate.or_else(|| {
            m.rmatch_indices(SEP)
                .filter_map(|(k, _)| by_path.get(&m[..k]).copied())
                .find(|&i| !used[i])
        });
        // A device statement that extends the generated one (more words).
        // Those are the keys that start with `m` and the separator, one run of the sorted list
        // (a segment may hold characters that sort before the separator, so the run starts at
        // `m` and the separator, not at `m`).
        let candidate = candidate.or_else(|| {
            let below = format!("{m}{SEP}");
            let from = extra.partition_point(|(p, _)| *p < below.as_str());
            extra[from..]
                .iter()
                .enumerate()
                .take_while(|(_, (p, _))| under(p, m))
                .map(|(j, _)| from + j)
                .find(|&i| !used[i])
        });
        match candidate {
            Some(i) => {
                used[i] = true;
                let (e, at) = extra[i];
                let (m, e): (Vec<&str>, Vec<&str>) = (segments(m).collect(), segments(e).collect());
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

    unpaired
}

/// The end of each segment prefix of a key (the key itself last).
fn cuts(key: &str) -> impl Iterator<Item = usize> + '_ {
    key.match_indices(SEP)
        .map(|(k, _)| k)
        .chain(std::iter::once(key.len()))
}

/// What is left missing, grouped under the shortest prefix the device has nothing under.
fn group_missing(form: Form, unpaired: Vec<&str>, actual: &Canon, out: &mut Vec<Diff>) {
    let mut groups: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for m in unpaired {
        let k = cuts(m)
            .find(|&k| !actual.has_prefix(&m[..k]))
            .unwrap_or(m.len());
        groups.entry(&m[..k]).or_default().push(m);
    }
    for (prefix, paths) in groups {
        // Point at the nearest place the device does have: the parent's first setting.
        let at = prefix
            .rmatch_indices(SEP)
            .find_map(|(k, _)| actual.first_under(&prefix[..k]).map(|(_, l)| l))
            .unwrap_or_default();
        let depth = segments(prefix).count();
        let (key, expected) = match paths.as_slice() {
            [one] => leaf(form, one, depth),
            _ => (form.key(&segments(prefix).collect::<Vec<_>>()), None),
        };
        out.push(Diff::Missing {
            key,
            expected,
            count: paths.len(),
            at,
        });
    }
}

/// What is left extra and fabricc owns, grouped under the shortest prefix fabricc generated
/// nothing under.
fn group_extra(
    form: Form,
    extra: &[(&str, Loc)],
    used: &[bool],
    expected: &Canon,
    owns: &dyn Fn(&[&str]) -> bool,
    out: &mut Vec<Diff>,
) {
    let mut groups: BTreeMap<&str, Vec<(&str, Loc)>> = BTreeMap::new();
    for (i, (e, at)) in extra.iter().enumerate() {
        if used[i] || !owns(&segments(e).collect::<Vec<_>>()) {
            continue;
        }
        let k = cuts(e)
            .find(|&k| !expected.has_prefix(&e[..k]))
            .unwrap_or(e.len());
        groups.entry(&e[..k]).or_default().push((e, *at));
    }
    for (prefix, paths) in groups {
        let at = paths.iter().map(|(_, l)| *l).min().unwrap_or_default();
        let depth = segments(prefix).count();
        let (key, actual) = match paths.as_slice() {
            [(one, _)] => leaf(form, one, depth),
            _ => (form.key(&segments(prefix).collect::<Vec<_>>()), None),
        };
        out.push(Diff::Extra {
            key,
            actual,
            count: paths.len(),
            at,
        });
    }
}

/// A whole path as a setting and its value. A CONFIG_DB record that is missing or extra as a
/// whole (`prefix` ends at its key) is named by its key, its one field shown with the value.
fn leaf(form: Form, key: &str, prefix: usize) -> (String, Option<String>) {
    let path: Vec<&str> = segments(key).collect();
    if let (Form::Table, [table, key, field, value]) = (form, path.as_slice())
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
        let mut c = Builder::default();
        for (i, p) in paths.iter().enumerate() {
            c.insert(p, Loc::new(i * 10, i * 10 + 5));
        }
        c.build()
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
        let owns = |p: &[&str]| p[1].starts_with("Ethernet0|");
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

    #[test]
    fn a_bounded_builder_stops_at_its_budget() {
        let mut b = Builder::bounded(10);
        let long = "x".repeat(1 << 20);
        for i in 0..64 {
            b.insert(&[long.as_str(), &i.to_string()], Loc::new(i, i + 1));
        }
        let c = b.build();
        // 16 MiB and 80 bytes hold 15 settings of a mebibyte and change.
        assert_eq!(c.exceeded(), Some(Loc::new(15, 16)));
        assert_eq!(c.len(), 15);
        let mut b = Builder::default();
        for i in 0..64 {
            b.insert(&[long.as_str(), &i.to_string()], Loc::default());
        }
        assert_eq!(b.build().exceeded(), None);
    }

    #[test]
    fn prefixes_are_whole_segments() {
        let c = canon(&[&["a", "b"], &["ab", "c"], &["a\tb", "x"]]);
        assert!(c.has_prefix("a"));
        assert!(c.has_prefix(&key_of(&["a", "b"])));
        assert!(!c.has_prefix(&key_of(&["a", "c"])));
        assert_eq!(
            c.first_under("a").map(|(k, _)| k.to_string()),
            Some(key_of(&["a", "b"]))
        );
        assert!(!c.has_prefix("b"));
        assert_eq!(key_of(&["x\u{1f}y"]), "x\u{fffd}y");
    }

    #[test]
    fn a_statement_with_more_words_pairs_past_keys_that_sort_before_the_separator() {
        // `k\t` sorts between `k` and `k` + separator: the run of keys under `t k` starts after it.
        let e = canon(&[&["t", "k"]]);
        let a = canon(&[&["t", "k\t", "q"], &["t", "k", "v"]]);
        let d = compare(Form::Words, &e, &a, &|_| true);
        assert!(
            d.iter().any(|x| matches!(x, Diff::Differs { key, expected, actual, .. } if key == "t k" && expected.is_empty() && actual == "v")),
            "{d:?}"
        );
        assert!(
            !d.iter().any(|x| matches!(x, Diff::Missing { .. })),
            "{d:?}"
        );
    }
}
