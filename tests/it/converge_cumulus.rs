//! Convergence of the Cumulus NVUE output (issue 33 item 1; review C13): applying build N+1
//! over a switch that runs any earlier build N leaves exactly what a fresh apply of N+1
//! leaves, and configuration fabricc does not own stays as it was.
//!
//! THE APPLY SIMULATOR. A switch is NVUE's applied revision, modelled as a tree of keys with
//! string leaves (NVUE's YAML mirrors its command paths: "NVUE Object Model", Cumulus Linux
//! User Guide), plus the file system `nvue.sh` keeps its ledger in. The rules, each with the
//! documented behaviour it models:
//! * `nv config patch FILE` "Updates the pending configuration" with a YAML list of `- set:`
//!   and `- unset:` items (NVUE Command Reference, Config Commands; the `- unset:` form is the
//!   one `nv config diff` prints, NVUE CLI "View Differences Between Configurations").
//! * `set` is a deep merge: a key's scalar replaces the old value, a map merges key by key,
//!   `{}` makes the key exist (a collection member such as `switch-priority: {'3': {}}`).
//! * `unset` removes the subtree at a path whose YAML value is empty (`key:`); removing an
//!   absent path changes nothing; an object left with no settings is no longer listed (the
//!   model prunes the emptied parents; an assumption, NVUE shows objects, not empty keys).
//! * One patch is one request whose items NVUE does not order ("Ordering of parameters within
//!   a patch is not guaranteed"; set and unset of the same object in one patch only from
//!   Cumulus Linux 5.16: NVUE CLI, "Replace and Patch a Pending Configuration", 5.17 User
//!   Guide). The model refuses a patch in which an unset path is a prefix of, or lies under,
//!   a set path, and applies the rest in both orders, which must agree.
//! * Sequential `nv config patch` commands stage into one pending revision, in order;
//!   `nv config apply` makes it the applied revision; `nv config detach` drops it (Config
//!   Commands). `nv config replace` is never used.
//! * Scalars compare as text (`50` and `'50'` are one value), as `fabricc verify` reads them.
//!
//! `nvue.sh` is modelled in Rust (`run_script`, its three steps) for the many pairs, and the
//! real script is run with bash and a recording `nv` for some of them
//! (`the_real_script_does_what_the_model_does`), so the model cannot drift from the script.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use fabricc::render::SwitchOs;
use fabricc::verify::nvue::Scope;

use crate::change_pairs::{Built, Change, Os, PAIRS, SWITCHES, for_each_pair, pair_count};

/// A node of NVUE's configuration tree.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Leaf(String),
    Map(BTreeMap<String, Node>),
}

impl Node {
    fn empty() -> Node {
        Node::Map(BTreeMap::new())
    }
}

type Path_ = Vec<String>;

/// A switch: its applied revision and the ledger file `nvue.sh` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Device {
    applied: Node,
    ledger: Option<String>,
}

fn scalar(v: &serde_yaml::Value) -> Option<String> {
    match v {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn key(v: &serde_yaml::Value) -> Result<String, String> {
    scalar(v).ok_or_else(|| format!("a key that is not a scalar: {v:?}"))
}

/// The `set` tree of an item.
fn set_tree(v: &serde_yaml::Value) -> Result<Node, String> {
    match v {
        serde_yaml::Value::Mapping(m) => {
            let mut out = BTreeMap::new();
            for (k, child) in m {
                out.insert(key(k)?, set_tree(child)?);
            }
            Ok(Node::Map(out))
        }
        serde_yaml::Value::Null => Err("an empty value under `set`".into()),
        other => scalar(other)
            .map(Node::Leaf)
            .ok_or_else(|| format!("a value NVUE has no form for: {other:?}")),
    }
}

/// The paths an `unset` tree removes (its empty values).
fn unset_paths(
    v: &serde_yaml::Value,
    path: &mut Path_,
    out: &mut Vec<Path_>,
) -> Result<(), String> {
    match v {
        serde_yaml::Value::Null => {
            out.push(path.clone());
            Ok(())
        }
        serde_yaml::Value::Mapping(m) if !m.is_empty() => {
            for (k, child) in m {
                path.push(key(k)?);
                unset_paths(child, path, out)?;
                path.pop();
            }
            Ok(())
        }
        other => Err(format!(
            "`unset` of {} holds a value: {other:?}",
            path.join(" ")
        )),
    }
}

/// The leaf paths of a set tree (a scalar's path ends with its value; `{}` ends at its key).
fn set_paths(n: &Node, path: &mut Path_, out: &mut Vec<Path_>) {
    match n {
        Node::Leaf(_) => out.push(path.clone()),
        Node::Map(m) if m.is_empty() => out.push(path.clone()),
        Node::Map(m) => {
            for (k, child) in m {
                path.push(k.clone());
                set_paths(child, path, out);
                path.pop();
            }
        }
    }
}

fn merge(into: &mut Node, from: &Node) {
    match (into, from) {
        (Node::Map(a), Node::Map(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(existing) => merge(existing, v),
                    None => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

/// Removes `path`; returns whether the node it was in is now empty (to prune it).
fn remove(node: &mut Node, path: &[String]) -> bool {
    let Node::Map(m) = node else { return false };
    match path {
        [] => false,
        [last] => {
            m.remove(last);
            m.is_empty()
        }
        [first, rest @ ..] => {
            if let Some(child) = m.get_mut(first)
                && remove(child, rest)
            {
                m.remove(first);
            }
            m.is_empty()
        }
    }
}

fn unset(tree: &mut Node, paths: &[Path_]) {
    for p in paths {
        remove(tree, p);
    }
}

/// A patch file, read: its set tree and its unset paths.
#[derive(Debug)]
struct Patch {
    sets: Node,
    unsets: Vec<Path_>,
}

/// Reads a patch and refuses one whose result would depend on the order of its items.
fn parse_patch(text: &str) -> Result<Patch, String> {
    let doc: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
    let items = doc.as_sequence().ok_or("a patch is a list of items")?;
    let mut sets = Node::empty();
    let mut unsets = Vec::new();
    for item in items {
        let m = item.as_mapping().ok_or("an item is a map")?;
        for (k, v) in m {
            match key(k)?.as_str() {
                "set" => merge(&mut sets, &set_tree(v)?),
                "unset" => unset_paths(v, &mut Vec::new(), &mut unsets)?,
                "header" => {}
                other => return Err(format!("an item `{other}`")),
            }
        }
    }
    let mut leaves = Vec::new();
    set_paths(&sets, &mut Vec::new(), &mut leaves);
    let leaf_set: HashSet<&[String]> = leaves.iter().map(Vec::as_slice).collect();
    let prefixes: HashSet<&[String]> = leaves
        .iter()
        .flat_map(|l| (1..=l.len()).map(move |k| &l[..k]))
        .collect();
    for u in &unsets {
        let under_a_set = (1..=u.len()).any(|k| leaf_set.contains(&u[..k]));
        if prefixes.contains(u.as_slice()) || under_a_set {
            return Err(format!(
                "set and unset of `{}` in one patch: NVUE does not order them",
                u.join(" ")
            ));
        }
    }
    Ok(Patch { sets, unsets })
}

/// `nv config patch`: a read patch into the pending revision. `parse_patch` refused any
/// overlap of its set and unset paths, so either order gives this result
/// (`either_order_of_a_disjoint_patch_is_one_result` checks it on every file of a chain).
fn apply_patch(pending: &mut Node, p: &Patch) -> Result<(), String> {
    unset(pending, &p.unsets);
    merge(pending, &p.sets);
    Ok(())
}

/// The other order NVUE may take: sets first, then unsets.
fn apply_patch_sets_first(pending: &mut Node, p: &Patch) {
    merge(pending, &p.sets);
    unset(pending, &p.unsets);
}

/// `nv config patch` of a file's text.
fn patch(pending: &mut Node, text: &str) -> Result<(), String> {
    apply_patch(pending, &parse_patch(text)?)
}

/// `nv config patch FILE` + `nv config apply -y`.
fn apply_yaml(dev: &mut Device, yaml: &Patch) -> Result<(), String> {
    let mut pending = dev.applied.clone();
    apply_patch(&mut pending, yaml)?;
    dev.applied = pending;
    Ok(())
}

/// Patches read once per distinct file (a chain's builds recur as the older side of pairs).
/// Patches read once per distinct file, and each file's fresh apply (a chain's builds recur
/// as the older side of later pairs). Keyed by the text itself (a sampled hash, then equality).
#[derive(Default)]
struct Cache {
    patches: Memo<std::rc::Rc<Patch>>,
    /// The files whose fresh apply `verify` already found in sync.
    verified: Memo<()>,
    /// nvue.sh of a file over the defaults.
    fresh: Memo<Device>,
}

struct Memo<T>(std::collections::HashMap<u64, Vec<(String, T)>>);

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo(std::collections::HashMap::new())
    }
}

impl<T: Clone> Memo<T> {
    /// A cheap key: the length and 256 bytes spread over the text (SipHash over every byte of
    /// 4 × 3 files per pair dominated the run in debug builds).
    fn key(text: &str) -> u64 {
        let b = text.as_bytes();
        let mut h = b.len() as u64;
        for i in 0..256 {
            let byte = b.get(i * b.len() / 256).copied().unwrap_or(0);
            h = h.rotate_left(5).wrapping_mul(0x100_0000_01b3) ^ u64::from(byte);
        }
        h
    }
    fn get(&self, text: &str) -> Option<T> {
        self.0
            .get(&Self::key(text))?
            .iter()
            .find(|(t, _)| t == text)
            .map(|(_, v)| v.clone())
    }
    /// Keeps at most 512 files: a chain holds 16 builds of 4 switches, so the older side of a
    /// pair is almost always still here, and a 10^5-pair run stays in bounded memory.
    fn put(&mut self, text: &str, v: T) {
        if self.0.len() >= 512 {
            self.0.clear();
        }
        self.0
            .entry(Self::key(text))
            .or_default()
            .push((text.to_string(), v));
    }
}

impl Cache {
    /// nvue.sh of `sh`/`yaml` over the defaults.
    fn fresh(&mut self, sh: &str, yaml: &str) -> Result<Device, String> {
        if let Some(d) = self.fresh.get(yaml) {
            return Ok(d);
        }
        let mut d = defaults();
        run_script(&mut d, sh, yaml, self)?;
        self.fresh.put(yaml, d.clone());
        Ok(d)
    }

    /// Whether `yaml`'s fresh state still needs `verify`'s reading (true once per file).
    fn first_verify(&mut self, yaml: &str) -> bool {
        if self.verified.get(yaml).is_some() {
            return false;
        }
        self.verified.put(yaml, ());
        true
    }

    fn get(&mut self, text: &str) -> Result<std::rc::Rc<Patch>, String> {
        if let Some(p) = self.patches.get(text) {
            return Ok(p);
        }
        let p = std::rc::Rc::new(parse_patch(text)?);
        self.patches.put(text, p.clone());
        Ok(p)
    }
}

/// The words of a `# fabricc-owned KIND:` line.
fn owned<'a>(file: &'a str, kind: &str) -> BTreeSet<&'a str> {
    let tag = format!("# fabricc-owned {kind}:");
    file.lines()
        .filter_map(|l| l.strip_prefix(tag.as_str()))
        .flat_map(str::split_whitespace)
        .collect()
}

/// What the ledger owned and `yaml` does not, as the paths nvue.sh's first patch unsets.
fn left_the_fabric(ledger: &str, yaml: &str) -> Vec<Path_> {
    let gone = |kind: &str| -> Vec<String> {
        let now = owned(yaml, kind);
        owned(ledger, kind)
            .into_iter()
            .filter(|w| !now.contains(w))
            .map(str::to_string)
            .collect()
    };
    let p = |w: &[&str]| w.iter().map(|s| (*s).to_string()).collect::<Path_>();
    let mut out = Vec::new();
    for port in gone("interfaces") {
        out.push(p(&["interface", &port, "description"]));
        out.push(p(&["interface", &port, "link", "mtu"]));
        out.push(p(&["interface", &port, "qos"]));
    }
    for cage in gone("breakouts") {
        out.push(p(&["interface", &cage, "link", "breakout"]));
    }
    for name in gone("qos pfc") {
        out.push(p(&["qos", "pfc", &name]));
    }
    for name in gone("qos congestion-control") {
        out.push(p(&["qos", "congestion-control", &name]));
    }
    out
}

/// The model of nvue.sh: the ledger's unset patch, the file's patch, apply, new ledger.
fn run_script(dev: &mut Device, sh: &str, yaml: &str, cache: &mut Cache) -> Result<(), String> {
    // The program applies the switch folder's file (`cp "$1/nvue-qos.yaml" "$patch"`), the
    // same bytes for every switch (issue 36 item 2).
    if !sh.contains("\ncp \"$1/nvue-qos.yaml\" \"$patch\"\n") {
        return Err("nvue.sh does not apply the folder's nvue-qos.yaml".into());
    }
    let mut pending = dev.applied.clone();
    if let Some(ledger) = &dev.ledger {
        let gone = left_the_fabric(ledger, yaml);
        if !gone.is_empty() {
            patch(&mut pending, &unset_document(&gone))?;
        }
    }
    apply_patch(&mut pending, &*cache.get(yaml)?)?;
    dev.applied = pending;
    dev.ledger = Some(yaml.to_string());
    Ok(())
}

fn yaml_key(k: &str) -> String {
    format!("'{}'", k.replace('\'', "''"))
}

/// Paths as a `- unset:` item.
fn unset_document(paths: &[Path_]) -> String {
    let mut tree = Node::empty();
    for p in paths {
        let mut node = &mut tree;
        for k in p {
            let Node::Map(m) = node else { unreachable!() };
            node = m.entry(k.clone()).or_insert_with(Node::empty);
        }
    }
    fn write(n: &Node, depth: usize, out: &mut String) {
        if let Node::Map(m) = n {
            for (k, v) in m {
                out.push_str(&format!("{}{}:\n", "  ".repeat(depth + 2), yaml_key(k)));
                write(v, depth + 1, out);
            }
        }
    }
    let mut out = "- unset:\n".to_string();
    write(&tree, 0, &mut out);
    out
}

/// A device tree as `nv config show -o yaml` would print it.
fn show(n: &Node) -> String {
    fn write(n: &Node, depth: usize, out: &mut String) {
        if let Node::Map(m) = n {
            for (k, v) in m {
                let pad = "  ".repeat(depth + 2);
                match v {
                    Node::Leaf(s) => {
                        out.push_str(&format!("{pad}{}: {}\n", yaml_key(k), yaml_key(s)))
                    }
                    Node::Map(c) if c.is_empty() => {
                        out.push_str(&format!("{pad}{}: {{}}\n", yaml_key(k)))
                    }
                    Node::Map(_) => {
                        out.push_str(&format!("{pad}{}:\n", yaml_key(k)));
                        write(v, depth + 1, out);
                    }
                }
            }
        }
    }
    let mut out = "- set:\n".to_string();
    write(n, 0, &mut out);
    out
}

/// Where two trees differ: `(path, in a, in b)` at the highest node that differs.
fn differences(a: &Node, b: &Node, path: &mut Path_, out: &mut Vec<(Path_, bool, bool)>) {
    match (a, b) {
        (Node::Map(x), Node::Map(y)) => {
            for (k, va) in x {
                path.push(k.clone());
                match y.get(k) {
                    Some(vb) => differences(va, vb, path, out),
                    None => out.push((path.clone(), true, false)),
                }
                path.pop();
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                path.push(k.clone());
                out.push((path.clone(), false, true));
                path.pop();
            }
        }
        (x, y) if x == y => {}
        _ => out.push((path.clone(), true, true)),
    }
}

/// The node at `path`.
fn at<'a>(n: &'a Node, path: &[String]) -> Option<&'a Node> {
    path.iter().try_fold(n, |node, k| match node {
        Node::Map(m) => m.get(k),
        Node::Leaf(_) => None,
    })
}

/// Every leaf of a tree, as `(path, value)`.
fn leaves(n: &Node) -> BTreeMap<Path_, Option<String>> {
    fn walk(n: &Node, path: &mut Path_, out: &mut BTreeMap<Path_, Option<String>>) {
        match n {
            Node::Leaf(s) => {
                out.insert(path.clone(), Some(s.clone()));
            }
            Node::Map(m) if m.is_empty() => {
                out.insert(path.clone(), None);
            }
            Node::Map(m) => {
                for (k, v) in m {
                    path.push(k.clone());
                    walk(v, path, out);
                    path.pop();
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(n, &mut Vec::new(), &mut out);
    out
}

/// Configuration fabricc does not own, on every switch before any build: another port's QoS
/// bound to foreign profiles, the profiles, a description on a non-fabric port, BGP, and
/// settings of a future fabric port that are not fabricc's (`link speed`, an address).
const FOREIGN: &str = "- set:
    qos:
      pfc:
        legacy-storage:
          switch-priority:
            '5': {}
          tx: enable
          rx: enable
          cable-length: 5
      congestion-control:
        legacy-ecn:
          traffic-class:
            '1':
              ecn: enable
              min-threshold: 40000
              max-threshold: 400000
              probability: 10
    interface:
      swp20:
        description: \"backup link, not the fabric\"
        link:
          mtu: 1500
        qos:
          pfc:
            profile: legacy-storage
          congestion-control:
            profile: legacy-ecn
      swp3:
        link:
          speed: 400G
        ip:
          address:
            10.0.0.1/31: {}
    router:
      bgp:
        autonomous-system: 65001
    system:
      hostname: leaf
";

/// The foreign port; the generator puts hosts on ports 1-16 and uplinks on the last ports.
const FOREIGN_PORT: &str = "swp20";

/// The leaves of the foreign configuration.
fn foreign_leaves() -> &'static BTreeMap<Path_, Option<String>> {
    static L: std::sync::OnceLock<BTreeMap<Path_, Option<String>>> = std::sync::OnceLock::new();
    L.get_or_init(|| leaves(&defaults().applied))
}

fn defaults() -> Device {
    static D: std::sync::OnceLock<Node> = std::sync::OnceLock::new();
    let applied = D
        .get_or_init(|| {
            let mut applied = Node::empty();
            patch(&mut applied, FOREIGN).expect("the foreign configuration is a valid patch");
            applied
        })
        .clone();
    Device {
        applied,
        ledger: None,
    }
}

fn files_of<'a>(b: &'a Built, sw: &str) -> (&'a str, &'a str) {
    let d = b.device(sw);
    assert!(
        !d.contains_key("nvue.sh"),
        "{sw}: the program is not per switch"
    );
    (
        b.files
            .get("programs/cumulus/nvue.sh")
            .map(String::as_str)
            .unwrap_or_else(|| panic!("{sw}: no programs/cumulus/nvue.sh")),
        d.get("nvue-qos.yaml")
            .copied()
            .unwrap_or_else(|| panic!("{sw}: no nvue-qos.yaml")),
    )
}

/// `fabricc verify`'s reading of a device against the generated file: the drift it reports.
fn drift(yaml: &str, dev: &Device) -> Vec<String> {
    let (expected, form) =
        fabricc::verify::parse(SwitchOs::Cumulus, yaml).expect("verify reads the file");
    let (actual, _) = fabricc::verify::parse(SwitchOs::Cumulus, &show(&dev.applied))
        .expect("verify reads the state");
    let scope = Scope::new(&expected);
    fabricc::verify::canon::compare(form, &expected, &actual, &|p| scope.owns(p))
        .iter()
        .map(|d| format!("{d:?}"))
        .collect()
}

/// The contract for one pair on one switch. Returns the leftovers of the YAML-only path.
fn check_pair(change: Change, older: &Built, newer: &Built, sw: &str, cache: &mut Cache) -> usize {
    let (sh_n, yaml_n) = files_of(older, sw);
    let (sh_m, yaml_m) = files_of(newer, sw);
    let ctx = || {
        format!(
            "{sw}, {change:?}\n--- older\n{}\n--- newer\n{}",
            older.text, newer.text
        )
    };
    for y in [yaml_n, yaml_m] {
        assert!(
            !owned(y, "interfaces").contains(FOREIGN_PORT),
            "the foreign port is a fabric port: {}",
            ctx()
        );
    }
    let fresh = cache
        .fresh(sh_m, yaml_m)
        .unwrap_or_else(|e| panic!("fresh: {e}: {}", ctx()));
    let mut converged = cache
        .fresh(sh_n, yaml_n)
        .unwrap_or_else(|e| panic!("N: {e}: {}", ctx()));
    run_script(&mut converged, sh_m, yaml_m, cache)
        .unwrap_or_else(|e| panic!("N+1: {e}: {}", ctx()));
    if converged.applied != fresh.applied {
        let mut d = Vec::new();
        differences(&converged.applied, &fresh.applied, &mut Vec::new(), &mut d);
        panic!(
            "not converged: (path, in converged, in fresh) {d:?}\n{}",
            ctx()
        );
    }
    // Nothing fabricc does not own was touched.
    let foreign = foreign_leaves();
    for (k, v) in foreign.iter() {
        let now = at(&converged.applied, k).map(|n| match n {
            Node::Leaf(s) => Some(s.clone()),
            Node::Map(_) => None,
        });
        assert_eq!(now.as_ref(), Some(v), "foreign {k:?} changed: {}", ctx());
    }
    // verify reads the file and finds the converged switch in sync (the state is the fresh
    // one, so once per distinct file).
    if cache.first_verify(yaml_m) {
        let d = drift(yaml_m, &converged);
        assert!(
            d.is_empty(),
            "verify reports drift on a converged switch: {d:?}\n{}",
            ctx()
        );
    }
    // The YAML file alone (no ledger): what differs is only what left the fabric, and a
    // leftover fabricc-* profile is reported by verify.
    let mut plain = defaults();
    let (pn, pm) = (cache.get(yaml_n).unwrap(), cache.get(yaml_m).unwrap());
    apply_yaml(&mut plain, &pn).unwrap_or_else(|e| panic!("yaml N: {e}: {}", ctx()));
    apply_yaml(&mut plain, &pm).unwrap_or_else(|e| panic!("yaml N+1: {e}: {}", ctx()));
    let gone = left_the_fabric(yaml_n, yaml_m);
    let mut d = Vec::new();
    differences(&plain.applied, &fresh.applied, &mut Vec::new(), &mut d);
    let mut left = 0;
    for (k, in_plain, in_fresh) in &d {
        assert!(
            *in_plain && !*in_fresh,
            "the YAML path changes or lacks {k:?}: {}",
            ctx()
        );
        // What is left is a port, profile or breakout that left, or a part of one.
        assert!(
            gone.iter().any(|g| k.starts_with(g) || g.starts_with(k)),
            "the YAML path leaves {k:?}, which is not a port or profile that left: {}",
            ctx()
        );
        left += 1;
    }
    if gone.iter().any(|g| g[0] == "qos") && left > 0 {
        assert!(
            !drift(yaml_m, &plain).is_empty(),
            "verify misses a leftover profile: {}",
            ctx()
        );
    }
    left
}

#[test]
fn converge_cumulus_any_earlier_build_to_a_fresh_apply() {
    let t = Instant::now();
    let mut by_change: BTreeMap<String, usize> = BTreeMap::new();
    let mut leftovers = 0;
    let mut simulated = std::time::Duration::ZERO;
    let mut cache = Cache::default();
    let n = for_each_pair(Os::Cumulus, 0x0C13_0C13, PAIRS, |change, older, newer| {
        let s = Instant::now();
        for sw in SWITCHES {
            leftovers += check_pair(change, older, newer, sw, &mut cache);
        }
        simulated += s.elapsed();
        *by_change.entry(format!("{change:?}")).or_default() += 1;
    });
    eprintln!(
        "converge_cumulus: {n} pairs x {} switches in {:.1?} ({simulated:.1?} simulating); by change {by_change:?}; YAML-only leftovers (ports/profiles that left, nvue.sh's ledger removes them): {leftovers}",
        SWITCHES.len(),
        t.elapsed()
    );
    assert!(n >= pair_count(PAIRS));
    for c in [
        "ClassRemoval",
        "PriorityMove",
        "WatchdogChange",
        "LinkRemoval",
        "Recable",
    ] {
        assert!(by_change.contains_key(c), "no {c} among {by_change:?}");
    }
}

#[test]
fn the_model_refuses_what_nvue_does_not_order() {
    let mut t = Node::empty();
    let both = "- unset:\n    qos:\n      pfc:\n        default-global:\n- set:\n    qos:\n      pfc:\n        default-global:\n          tx: enable\n";
    assert!(patch(&mut t, both).is_err());
    let under = "- unset:\n    qos:\n      pfc:\n        p:\n          tx:\n- set:\n    qos:\n      pfc:\n        p:\n          tx: enable\n";
    assert!(patch(&mut t, under).is_err());
    // Disjoint leaves of one object are fine, and removing what is absent is no change.
    let ok = "- unset:\n    qos:\n      pfc:\n        p:\n          switch-priority:\n            '4':\n- set:\n    qos:\n      pfc:\n        p:\n          switch-priority:\n            '3': {}\n";
    patch(&mut t, ok).expect("disjoint");
    assert_eq!(
        show(&t),
        "- set:\n    'qos':\n      'pfc':\n        'p':\n          'switch-priority':\n            '3': {}\n"
    );
    // Unset prunes emptied parents; set merges.
    let mut d = Node::empty();
    patch(
        &mut d,
        "- set:\n    a:\n      b:\n        c: 1\n      d: 2\n",
    )
    .unwrap();
    patch(&mut d, "- unset:\n    a:\n      b:\n        c:\n").unwrap();
    assert_eq!(show(&d), "- set:\n    'a':\n      'd': '2'\n");
}

#[test]
fn either_order_of_a_disjoint_patch_is_one_result() {
    let mut files = 0;
    for_each_pair(Os::Cumulus, 0x0D0E, 40, |_, older, newer| {
        for sw in SWITCHES {
            let (_, yaml_n) = files_of(older, sw);
            let (_, yaml_m) = files_of(newer, sw);
            let (pn, pm) = (parse_patch(yaml_n).unwrap(), parse_patch(yaml_m).unwrap());
            let mut base = defaults().applied;
            apply_patch(&mut base, &pn).unwrap();
            let mut a = base.clone();
            apply_patch(&mut a, &pm).unwrap();
            let mut b = base;
            apply_patch_sets_first(&mut b, &pm);
            assert_eq!(a, b, "{sw}: the order of the items matters");
            files += 1;
        }
    });
    assert!(files >= 160);
}

/// A recording `nv`: each call is a line of `$FAKE_NV_DIR/log`; a patched file is copied.
const FAKE_NV: &str = r#"#!/bin/bash
set -eu
log="$FAKE_NV_DIR/log"
n=$(cat "$log" 2>/dev/null | wc -l)
case "$1 $2" in
  "config patch") cp "$3" "$FAKE_NV_DIR/patch$n.yaml"; echo "patch patch$n.yaml" >> "$log" ;;
  "config diff") echo diff >> "$log" ;;
  "config apply") echo apply >> "$log" ;;
  "config detach") echo detach >> "$log" ;;
  *) echo "fake nv: unexpected $*" >&2; exit 1 ;;
esac
"#;

/// Runs the real nvue.sh on `dev` (its ledger in a scratch directory) and replays the calls.
fn run_real(dev: &mut Device, sh: &str, yaml: &str, dir: &Path, args: &[&str]) -> Vec<String> {
    let _ = std::fs::remove_dir_all(dir);
    let bin = dir.join("bin");
    let calls = dir.join("calls");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&calls).unwrap();
    let nv = bin.join("nv");
    std::fs::write(&nv, FAKE_NV).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&nv, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ledger = dir.join("etc/fabricc/nvue-qos.applied.yaml");
    if let Some(l) = &dev.ledger {
        std::fs::create_dir_all(ledger.parent().unwrap()).unwrap();
        std::fs::write(&ledger, l).unwrap();
    }
    let script = dir.join("nvue.sh");
    std::fs::write(&script, sh).unwrap();
    let folder = dir.join("switch");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("nvue-qos.yaml"), yaml).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(&script)
        .args(args)
        .arg(&folder)
        .env("PATH", path)
        .env("FAKE_NV_DIR", &calls)
        .env("FABRICC_NVUE_LEDGER", &ledger)
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "nvue.sh: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(calls.join("log")).unwrap_or_default();
    let mut pending = dev.applied.clone();
    for line in log.lines() {
        match line.split_once(' ') {
            Some(("patch", f)) => {
                let text = std::fs::read_to_string(calls.join(f)).unwrap();
                patch(&mut pending, &text).unwrap_or_else(|e| panic!("{f}: {e}\n{text}"));
            }
            _ if line == "apply" => dev.applied = pending.clone(),
            _ if line == "detach" => pending = dev.applied.clone(),
            _ => {}
        }
    }
    dev.ledger = std::fs::read_to_string(&ledger).ok();
    log.lines().map(str::to_string).collect()
}

#[test]
fn the_real_script_does_what_the_model_does() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("converge-cumulus-real");
    let mut ran = 0;
    let mut cache = Cache::default();
    for_each_pair(Os::Cumulus, 0x05C4_1C16, 12, |change, older, newer| {
        for sw in ["leaf1", "spine1"] {
            let (sh_n, yaml_n) = files_of(older, sw);
            let (sh_m, yaml_m) = files_of(newer, sw);
            let mut model = defaults();
            run_script(&mut model, sh_n, yaml_n, &mut cache).unwrap();
            run_script(&mut model, sh_m, yaml_m, &mut cache).unwrap();
            let mut real = defaults();
            let first = run_real(&mut real, sh_n, yaml_n, &dir, &[]);
            assert_eq!(first.last().map(String::as_str), Some("apply"), "{first:?}");
            let dry = real.clone();
            // --dry-run stages and shows, then detaches: nothing applied, no new ledger.
            let log = run_real(&mut real, sh_m, yaml_m, &dir, &["--dry-run"]);
            assert_eq!(log.last().map(String::as_str), Some("detach"), "{log:?}");
            assert!(!log.iter().any(|l| l == "apply"), "{log:?}");
            assert_eq!(real, dry, "--dry-run changed the switch");
            let log = run_real(&mut real, sh_m, yaml_m, &dir, &[]);
            assert!(log.iter().filter(|l| *l == "apply").count() == 1, "{log:?}");
            assert_eq!(
                real, model,
                "{sw}, {change:?}: the script and its model differ"
            );
            ran += 1;
        }
    });
    assert!(ran >= 24);
}
