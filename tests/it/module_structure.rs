//! The module structure of `src/` holds: no import cycle between files, and no file of a lower
//! pipeline stage imports a higher one (issue 21, items 2 and 4).
//!
//! # The graph
//! A node is a file under `src/`. A file and the inline modules it holds (its `mod tests`,
//! `mod grammar_sync`, …) are one node. There is an edge A → B when A's own code names an item
//! that B *defines*:
//! - a path in code that starts with `crate::`, `super::`, `self::` or `fabricc::` (the binary),
//!   or with a name A brought in by `use` or declared with `mod name;` (`physics::rtt::f`);
//! - a `use` leaf whose name A's code then uses (a name used only by the `use` itself — a
//!   re-export such as `pub use context::Thing` — only forwards: whoever names
//!   `crate::render::Thing` gets the edge to the file that defines `Thing`);
//! - a glob `use path::*` that is not `pub` (a `pub use path::*` forwards, as above).
//!
//! A path is mapped to a file by its longest prefix that names a module (`crate::analysis::
//! headroom::plan` → `src/analysis/headroom.rs`); the next segment is then looked up among the
//! `use` items of that module (followed to the file that defines the name, through any number
//! of re-exports, explicit or glob) and otherwise is taken to be defined in the module's file.
//! `mod child;` alone is no edge: declaring a module is not using it. Comments, strings and
//! character literals are not code. The scan is textual (no `syn`), which is enough for this
//! code base: it fails loudly (a cycle or an upward edge printed with its evidence) rather than
//! silently, and the allow-lists below must match exactly.
//!
//! # The stages
//! Lower stages never import higher ones (an edge to the same or a lower stage is fine):
//! 0. foundation: `span`, `source` (positions and source text), `diagnostic` (findings, their
//!    codes, severities and categories; every stage reports findings), `timings` (phase
//!    timing).
//! 1. `syntax`: text → AST (and the YAML document → AST).
//! 2. `catalogue`: vendor facts about platforms and NICs; its records name OSes and buffer
//!    models in the language's own words (`ast::Os`), and the model resolves `platform` and
//!    `switch-model` against it, so it sits between the two.
//! 3. `model`: AST → `Fabric`, and writing the `export` form of the model.
//! 4. `analysis`: proofs and findings over the `Fabric`.
//! 5. `lower`: the analysed fabric → per-device settings.
//! 6. `render`: per-device settings → text through the target's templates.
//! 7. `pipeline`: the front-to-render chain, shared by `output` and `verify`.
//! 8. `output`: the output folder, report and manifest; and the formats findings are written
//!    in (`diagnostic/{human,short,json,sarif,github}.rs`: the JSON form carries the analysis'
//!    facts, and only the CLI prints them).
//! 9. `verify` (compares the output with what devices report) and `import` (device state
//!    → `.fab`; it reuses the render targets' conventions to read them back): both consume
//!    the lower stages and feed only the CLI.
//! 10. `cli` and `main.rs`.
//!
//! # Allow-lists
//! Cycles and upward edges that live in files another piece of work owns, or that this work
//! has not reached yet, are listed below with the reason. The lists only shrink: the test fails when a listed cycle or edge no longer
//! exists, so that the list stays honest.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Cycles (strongly connected sets of files, sorted paths) that may remain for now.
const ALLOWED_CYCLES: &[&[&str]] = &[];

/// Upward edges (`from`, `to`) that may remain for now.
const ALLOWED_UPWARD: &[(&str, &str)] = &[];

/// The longest a file in `src/` may be ("about 1,200 lines").
const MAX_LINES: usize = 1_250;

/// Files allowed to be longer, with the length they may not exceed.
const ALLOWED_LONG: &[(&str, usize)] = &[];

/// The stage of a file, by its first path component under `src/` (see the module docs).
fn stage(file: &str) -> Option<(u8, &'static str)> {
    const FINDING_FORMATS: &[&str] = &["human", "short", "json", "sarif", "github"];
    if let Some(name) = file.strip_prefix("diagnostic/")
        && FINDING_FORMATS.contains(&name.trim_end_matches(".rs"))
    {
        return Some((8, "output (finding formats)"));
    }
    let top = file.split('/').next()?.trim_end_matches(".rs");
    Some(match top {
        "span" | "source" | "diagnostic" | "timings" => (0, "foundation"),
        "syntax" => (1, "syntax"),
        "catalogue" => (2, "catalogue"),
        "model" => (3, "model"),
        "analysis" => (4, "analysis"),
        "lower" => (5, "lower"),
        "render" => (6, "render"),
        "pipeline" => (7, "pipeline"),
        "output" => (8, "output"),
        "verify" | "import" | "plan" => (9, "verify/import/plan"),
        "cli" | "main" => (10, "cli"),
        "lib" => (11, "crate root"),
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Reading the sources

/// A file under `src/`, its module path and its code as tokens.
struct SrcFile {
    /// Path relative to `src/`, with `/`.
    rel: String,
    tokens: Vec<String>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `analysis/headroom.rs` → `["analysis", "headroom"]`,
/// `analysis/mod.rs` → `["analysis"]`, `lib.rs` and `main.rs` → `[]` (each a crate root).
fn module_path(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Removes comments, string and character literals (keeping a placeholder), so that only code
/// is scanned. Lifetimes (`'a`) stay.
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        let prev_ident = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += block_comment_len(rest);
        } else if !prev_ident && (rest.starts_with("r\"") || rest.starts_with("r#")) {
            let hashes = rest[1..].bytes().take_while(|&c| c == b'#').count();
            if rest.as_bytes().get(1 + hashes) == Some(&b'"') {
                let close = format!("\"{}", "#".repeat(hashes));
                let body = 2 + hashes;
                let end = rest[body..]
                    .find(&close)
                    .map_or(rest.len(), |e| body + e + close.len());
                out.push_str("\"\"");
                i += end;
            } else {
                out.push('r');
                i += 1;
            }
        } else if b[i] == b'"' {
            i += quoted_len(rest, b'"');
            out.push_str("\"\"");
        } else if b[i] == b'\'' && char_literal_len(rest).is_some() {
            i += char_literal_len(rest).unwrap_or(1);
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn block_comment_len(rest: &str) -> usize {
    let mut depth = 0usize;
    let mut i = 0;
    while i < rest.len() {
        if rest[i..].starts_with("/*") {
            depth += 1;
            i += 2;
        } else if rest[i..].starts_with("*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += rest[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    rest.len()
}

/// Length of a `"…"` literal starting at `rest[0]`, escapes included.
fn quoted_len(rest: &str, quote: u8) -> usize {
    let b = rest.as_bytes();
    let mut i = 1;
    while i < b.len() && b[i] != quote {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    (i + 1).min(b.len())
}

/// `'x'`, `'\n'`, `'\u{..}'`, `'é'` — not a lifetime `'a`.
fn char_literal_len(rest: &str) -> Option<usize> {
    let mut chars = rest.char_indices().skip(1);
    let (_, c) = chars.next()?;
    if c == '\\' {
        // The escaped character is never the closing quote (`'\''`).
        let close = rest.get(3..)?.find('\'')?;
        return Some(3 + close + 1);
    }
    let (j, next) = chars.next()?;
    (next == '\'').then_some(j + 1)
}

/// Splits code into identifiers, `::` and single punctuation characters.
fn tokenize(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(code[i..end].to_string());
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            tokens.push("::".to_string());
        } else if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    tokens
}

fn read_sources() -> Vec<SrcFile> {
    let src = Path::new(ROOT).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths
        .iter()
        .map(|path| {
            let rel = path
                .strip_prefix(&src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("read {rel}: {e}"));
            SrcFile {
                tokens: tokenize(&strip(&text)),
                rel,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Modules, `use` items and paths

/// One leaf of a `use` tree: `use a::{b as c}` → name `c`, path `a::b`.
#[derive(Clone, Debug)]
struct UseLeaf {
    /// The name it binds (`None` for a glob or `as _`).
    name: Option<String>,
    path: Vec<String>,
    glob: bool,
    public: bool,
}

/// A module: its file, the names its `use` items bind, the items it defines.
#[derive(Default)]
struct Module {
    file: usize,
    uses: Vec<UseLeaf>,
    children: BTreeSet<String>,
    defines: BTreeSet<String>,
}

/// A path written in code, with the module it was written in.
struct CodePath {
    file: usize,
    module: Vec<String>,
    segments: Vec<String>,
}

/// Everything the scan found: modules by path (one map per crate root), and paths in code.
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    bin_modules: BTreeMap<Vec<String>, Module>,
    paths: Vec<CodePath>,
    /// Per file: the `use` leaves written in it (with their module), and the identifiers its
    /// code uses outside `use` items.
    file_uses: Vec<Vec<(Vec<String>, UseLeaf)>>,
    file_idents: Vec<BTreeSet<String>>,
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn", "struct", "enum", "type", "const", "static", "trait", "union",
];

/// Parses a `use` tree starting at `tokens[i]` (after `use`) up to its `;`; returns the leaves
/// and the index after the `;`.
fn parse_use(tokens: &[String], mut i: usize, public: bool) -> (Vec<UseLeaf>, usize) {
    let start = i;
    while i < tokens.len() && tokens[i] != ";" {
        i += 1;
    }
    let mut leaves = Vec::new();
    use_tree(&tokens[start..i], &[], public, &mut leaves);
    (leaves, i + 1)
}

fn use_tree(tokens: &[String], prefix: &[String], public: bool, out: &mut Vec<UseLeaf>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "::" => i += 1,
            "{" => {
                let inner = &tokens[i + 1..tokens.len().saturating_sub(1)];
                for part in split_top_level(inner) {
                    use_tree(part, &path, public, out);
                }
                return;
            }
            "*" => {
                out.push(UseLeaf {
                    name: None,
                    path,
                    glob: true,
                    public,
                });
                return;
            }
            "as" => {
                let alias = tokens.get(i + 1).cloned().filter(|a| a != "_");
                out.push(UseLeaf {
                    name: alias,
                    path,
                    glob: false,
                    public,
                });
                return;
            }
            seg => {
                path.push(seg.to_string());
                i += 1;
            }
        }
    }
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    if let Some(name) = path.last().cloned() {
        out.push(UseLeaf {
            name: Some(name),
            path,
            glob: false,
            public,
        });
    }
}

fn split_top_level(tokens: &[String]) -> Vec<&[String]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, t) in tokens.iter().enumerate() {
        match t.as_str() {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            "," if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < tokens.len() {
        parts.push(&tokens[start..]);
    }
    parts.retain(|p| !p.is_empty());
    parts
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Whether the tokens before `i` make the item public (`pub`, `pub(crate)`, `pub(super)`).
fn is_public(tokens: &[String], i: usize) -> bool {
    (i >= 1 && tokens[i - 1] == "pub") || (i >= 4 && tokens[i - 1] == ")" && tokens[i - 4] == "pub")
}

fn scan(files: &[SrcFile]) -> Crate {
    let mut krate = Crate {
        modules: BTreeMap::new(),
        bin_modules: BTreeMap::new(),
        paths: Vec::new(),
        file_uses: vec![Vec::new(); files.len()],
        file_idents: vec![BTreeSet::new(); files.len()],
    };
    for (index, file) in files.iter().enumerate() {
        scan_file(&mut krate, index, file);
    }
    krate
}

fn scan_file(krate: &mut Crate, index: usize, file: &SrcFile) {
    let is_bin = file.rel == "main.rs";
    let base = module_path(&file.rel);
    let t = &file.tokens;
    // The inline modules open at this point: (module path, brace depth inside it).
    let mut stack: Vec<(Vec<String>, usize)> = vec![(base.clone(), 0)];
    let mut depth = 0usize;
    let mut i = 0;
    fn modules(k: &mut Crate, bin: bool) -> &mut BTreeMap<Vec<String>, Module> {
        if bin {
            &mut k.bin_modules
        } else {
            &mut k.modules
        }
    }
    modules(krate, is_bin).entry(base.clone()).or_default().file = index;
    while i < t.len() {
        let (current, module_depth) = stack.last().cloned().expect("root module");
        let at_module_level = depth == module_depth;
        match t[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if stack.len() > 1 && depth + 1 == stack.last().map_or(0, |s| s.1) {
                    stack.pop();
                }
            }
            "mod" if t.get(i + 1).is_some_and(|n| is_ident(n)) => {
                let name = t[i + 1].clone();
                if t.get(i + 2).is_some_and(|x| x == "{") {
                    let mut inner = current.clone();
                    inner.push(name);
                    modules(krate, is_bin)
                        .entry(inner.clone())
                        .or_default()
                        .file = index;
                    depth += 1;
                    stack.push((inner, depth));
                    i += 3;
                    continue;
                }
                modules(krate, is_bin)
                    .entry(current.clone())
                    .or_default()
                    .children
                    .insert(name);
                i += 2;
                continue;
            }
            "use" => {
                let (leaves, next) = parse_use(t, i + 1, is_public(t, i));
                for leaf in &leaves {
                    krate.file_uses[index].push((current.clone(), leaf.clone()));
                }
                if at_module_level {
                    modules(krate, is_bin)
                        .entry(current.clone())
                        .or_default()
                        .uses
                        .extend(leaves);
                }
                i = next;
                continue;
            }
            kw if at_module_level && ITEM_KEYWORDS.contains(&kw) => {
                if let Some(name) = t.get(i + 1).filter(|n| is_ident(n)) {
                    let name = name.clone();
                    modules(krate, is_bin)
                        .entry(current.clone())
                        .or_default()
                        .defines
                        .insert(name);
                }
            }
            tok if is_ident(tok) && t.get(i + 1).is_some_and(|x| x == "::") => {
                let prev_sep = i > 0 && t[i - 1] == "::";
                if !prev_sep {
                    let mut segments = vec![tok.to_string()];
                    let mut j = i + 1;
                    while t.get(j).is_some_and(|x| x == "::")
                        && t.get(j + 1).is_some_and(|x| is_ident(x))
                    {
                        segments.push(t[j + 1].clone());
                        j += 2;
                    }
                    for s in &segments {
                        krate.file_idents[index].insert(s.clone());
                    }
                    krate.paths.push(CodePath {
                        file: index,
                        module: current.clone(),
                        segments,
                    });
                    i = j;
                    continue;
                }
            }
            tok if is_ident(tok) => {
                krate.file_idents[index].insert(tok.to_string());
            }
            _ => {}
        }
        i += 1;
    }
}

// ---------------------------------------------------------------------------------------------
// Resolving a path to the file that defines it

/// What a path names: a module (by path), or an item defined in a file.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Module(Vec<String>),
    Item(usize),
}

struct Resolver<'a> {
    krate: &'a Crate,
}

impl Resolver<'_> {
    fn modules(&self, bin: bool) -> &BTreeMap<Vec<String>, Module> {
        if bin {
            &self.krate.bin_modules
        } else {
            &self.krate.modules
        }
    }

    /// Turns a path written in module `module` into a crate-absolute one (and whether it is in
    /// the binary crate); `None` for a path into another crate (`std::`, `petgraph::`).
    fn absolute(
        &self,
        bin: bool,
        module: &[String],
        segments: &[String],
        fuel: u32,
    ) -> Option<(bool, Vec<String>)> {
        let (first, rest) = segments.split_first()?;
        let mut base: Vec<String> = module.to_vec();
        match first.as_str() {
            "crate" => return Some((bin, rest.to_vec())),
            "fabricc" if bin => return Some((false, rest.to_vec())),
            "self" => {}
            "super" => {
                base.pop();
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                return Some((bin, base));
            }
            name => {
                let m = self.modules(bin).get(module)?;
                if m.children.contains(name) {
                    base.push(name.to_string());
                    base.extend(rest.iter().cloned());
                    return Some((bin, base));
                }
                if fuel == 0 {
                    return None;
                }
                // A name the module imported: follow the import.
                let leaf = m.uses.iter().find(|u| u.name.as_deref() == Some(name))?;
                let (b, mut target) = self.absolute(bin, module, &leaf.path, fuel - 1)?;
                target.extend(rest.iter().cloned());
                return Some((b, target));
            }
        }
        base.extend(rest.iter().cloned());
        Some((bin, base))
    }

    /// The file that defines what the crate-absolute path names.
    fn resolve(&self, bin: bool, path: &[String], fuel: u32) -> Option<Target> {
        let modules = self.modules(bin);
        let k = (0..=path.len())
            .rev()
            .find(|&k| modules.contains_key(&path[..k]))?;
        let module_path = &path[..k];
        let module = &modules[module_path];
        let Some(name) = path.get(k) else {
            return Some(Target::Module(module_path.to_vec()));
        };
        if fuel == 0 {
            return Some(Target::Item(module.file));
        }
        if let Some(leaf) = module
            .uses
            .iter()
            .find(|u| u.name.as_deref() == Some(name.as_str()))
        {
            let (b, mut target) = self.absolute(bin, module_path, &leaf.path, fuel - 1)?;
            target.extend(path[k + 1..].iter().cloned());
            return self.resolve(b, &target, fuel - 1);
        }
        if !module.defines.contains(name) {
            for glob in module.uses.iter().filter(|u| u.glob) {
                let Some((b, mut target)) = self.absolute(bin, module_path, &glob.path, fuel - 1)
                else {
                    continue;
                };
                let defines = self.modules(b).get(&target).is_some_and(|m| {
                    m.defines.contains(name)
                        || m.uses
                            .iter()
                            .any(|u| u.name.as_deref() == Some(name.as_str()))
                });
                if defines {
                    target.extend(path[k..].iter().cloned());
                    return self.resolve(b, &target, fuel - 1);
                }
            }
        }
        Some(Target::Item(module.file))
    }

    fn file_of(&self, bin: bool, module: &[String], segments: &[String]) -> Option<usize> {
        let (b, path) = self.absolute(bin, module, segments, 16)?;
        match self.resolve(b, &path, 16)? {
            Target::Item(file) => Some(file),
            Target::Module(_) => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The graph

/// File edges, each with one piece of evidence (the path written in the source).
fn edges(files: &[SrcFile], krate: &Crate) -> BTreeMap<(usize, usize), String> {
    let resolver = Resolver { krate };
    let mut edges = BTreeMap::new();
    let mut add = |from: usize, to: Option<usize>, why: String| {
        if let Some(to) = to.filter(|&to| to != from) {
            edges.entry((from, to)).or_insert(why);
        }
    };
    for path in &krate.paths {
        let bin = files[path.file].rel == "main.rs";
        add(
            path.file,
            resolver.file_of(bin, &path.module, &path.segments),
            path.segments.join("::"),
        );
    }
    for (file, uses) in krate.file_uses.iter().enumerate() {
        let bin = files[file].rel == "main.rs";
        for (module, leaf) in uses {
            let used_here = match &leaf.name {
                _ if leaf.glob => !leaf.public,
                Some(name) => krate.file_idents[file].contains(name),
                None => true,
            };
            if !used_here {
                continue;
            }
            let why = format!(
                "use {}{}",
                leaf.path.join("::"),
                if leaf.glob { "::*" } else { "" }
            );
            let target = if leaf.glob {
                resolver
                    .absolute(bin, module, &leaf.path, 16)
                    .and_then(|(b, p)| resolver.modules(b).get(&p).map(|m| m.file))
            } else {
                resolver.file_of(bin, module, &leaf.path)
            };
            add(file, target, why);
        }
    }
    edges
}

struct Graph {
    names: Vec<String>,
    edges: BTreeMap<(usize, usize), String>,
}

fn graph() -> Graph {
    let files = read_sources();
    let krate = scan(&files);
    let edges = edges(&files, &krate);
    Graph {
        names: files.into_iter().map(|f| f.rel).collect(),
        edges,
    }
}

/// Every set of files that import each other in a circle, sorted.
fn cycles(g: &Graph) -> Vec<Vec<String>> {
    let mut pg = DiGraph::<usize, ()>::new();
    let nodes: Vec<NodeIndex> = (0..g.names.len()).map(|i| pg.add_node(i)).collect();
    for &(a, b) in g.edges.keys() {
        pg.add_edge(nodes[a], nodes[b], ());
    }
    let mut out: Vec<Vec<String>> = tarjan_scc(&pg)
        .into_iter()
        .filter(|scc| scc.len() > 1)
        .map(|scc| {
            let mut names: Vec<String> = scc.iter().map(|&n| g.names[pg[n]].clone()).collect();
            names.sort();
            names
        })
        .collect();
    out.sort();
    out
}

fn describe_cycle(g: &Graph, cycle: &[String]) -> String {
    let mut text = format!("  {}\n", cycle.join(" <-> "));
    for (&(a, b), why) in &g.edges {
        if cycle.contains(&g.names[a]) && cycle.contains(&g.names[b]) {
            text.push_str(&format!(
                "      {} -> {}  ({why})\n",
                g.names[a], g.names[b]
            ));
        }
    }
    text
}

#[test]
fn no_import_cycles_between_files() {
    let g = graph();
    let found = cycles(&g);
    let allowed: Vec<Vec<String>> = ALLOWED_CYCLES
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    let new: Vec<&Vec<String>> = found.iter().filter(|c| !allowed.contains(c)).collect();
    let gone: Vec<&Vec<String>> = allowed.iter().filter(|c| !found.contains(c)).collect();
    let mut message = String::new();
    for c in &new {
        message.push_str(&format!(
            "import cycle between files:\n{}",
            describe_cycle(&g, c)
        ));
    }
    for c in &gone {
        message.push_str(&format!(
            "allowed cycle no longer exists (remove it from ALLOWED_CYCLES): {}\n",
            c.join(" <-> ")
        ));
    }
    assert!(message.is_empty(), "{message}");
}

#[test]
fn no_import_from_a_lower_stage_to_a_higher_one() {
    let g = graph();
    let mut upward = BTreeSet::new();
    let mut message = String::new();
    for (&(a, b), why) in &g.edges {
        let (from, to) = (&g.names[a], &g.names[b]);
        let (Some(sa), Some(sb)) = (stage(from), stage(to)) else {
            message.push_str(&format!("file of no stage: {from} or {to}\n"));
            continue;
        };
        if sa.0 < sb.0 {
            upward.insert((from.clone(), to.clone()));
            if !ALLOWED_UPWARD.contains(&(from.as_str(), to.as_str())) {
                message.push_str(&format!(
                    "{from} ({}) imports {to} ({}): {why}\n",
                    sa.1, sb.1
                ));
            }
        }
    }
    for &(from, to) in ALLOWED_UPWARD {
        if !upward.contains(&(from.to_string(), to.to_string())) {
            message.push_str(&format!(
                "allowed upward edge no longer exists (remove it from ALLOWED_UPWARD): {from} -> {to}\n"
            ));
        }
    }
    assert!(message.is_empty(), "{message}");
}

/// The scan itself: a few edges this code base is known to have, so that a scanner that finds
/// nothing cannot pass the two tests above.
#[test]
fn the_scan_sees_known_edges() {
    let g = graph();
    let has = |a: &str, b: &str| {
        g.edges
            .keys()
            .any(|&(x, y)| g.names[x] == a && g.names[y] == b)
    };
    assert!(has("main.rs", "cli/mod.rs"), "fabricc::cli::run");
    assert!(
        has("syntax/printer.rs", "syntax/ast.rs"),
        "use super::ast::*"
    );
    assert!(
        has("analysis/mod.rs", "model/mod.rs"),
        "the analysis reads the model"
    );
    assert!(g.edges.len() > 300, "only {} edges", g.edges.len());
}

/// No file in `src/` is longer than a newcomer can read (issue 21 item 4); the parser keeps
/// its own tests next to it, in their own files (`syntax/parser/tests.rs`).
#[test]
fn no_file_over_1200_lines() {
    let files = {
        let mut v = Vec::new();
        rust_files(&Path::new(ROOT).join("src"), &mut v);
        v
    };
    let mut long = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).expect("read");
        let lines = text.lines().count();
        let rel = path
            .strip_prefix(Path::new(ROOT).join("src"))
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let allowed = ALLOWED_LONG.iter().find(|(file, _)| *file == rel);
        let limit = allowed.map_or(MAX_LINES, |&(_, limit)| limit);
        if lines > limit {
            long.push(format!("{rel} has {lines} lines (limit {limit})"));
        }
        if allowed.is_some() && lines <= MAX_LINES {
            long.push(format!(
                "{rel} has {lines} lines now: remove it from ALLOWED_LONG"
            ));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}
