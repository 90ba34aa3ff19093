//! Loading: a root file path in, every file it imports read and parsed out. Imports are
//! resolved relative to the importing file; a missing file, a cycle or too deep a chain is a
//! diagnostic at the `import` statement. A `.yaml`/`.yml` root is read as the YAML form.
//!
//! Files come through a [`Reader`]: the disk for `check` and `build`, a git revision for
//! `diff --git` (so an import is read from the same revision as the file that imports it).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Code, Diagnostic};
use crate::source::{SourceFile, Sources};
use crate::span::{FileId, Span};
use crate::syntax::{self, ast};

use super::Limits;

/// A file that parsed.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    pub id: FileId,
    pub ast: ast::File,
    /// The SKU folders its switch models name (`sku "PATH"`), as read.
    pub skus: Vec<SkuFiles>,
}

/// The files of a SKU folder a switch model names (`sku "skus/HPN-ToR"`, issue 38): read
/// (never written) through the same reader as the `.fab`, relative to its folder, and added
/// to `Sources` so that a finding about a row points at its line.
#[derive(Debug, Clone)]
pub struct SkuFiles {
    /// The path string of the `sku` property.
    pub at: Span,
    /// The folder's last component: the HWSKU's name (`DEVICE_METADATA.hwsku`); for a
    /// CONFIG_DB, the path as written (the name is the file's `DEVICE_METADATA.hwsku`).
    pub name: String,
    /// Each file of [`SKU_FILES`] the folder has, with its id in `Sources`; for a CONFIG_DB,
    /// that one file as [`crate::catalogue::CONFIG_DB`].
    pub files: Vec<(&'static str, FileId)>,
}

/// The files fabricc reads from a SKU folder: SONiC's own names (sonic-buildimage
/// `device/<vendor>/<platform>/<HWSKU>/`). `port_config.ini` or `hwsku.json` is required;
/// `qos.json.j2` is not read, because fabricc writes the QoS tables itself.
pub const SKU_FILES: &[&str] = &[
    "port_config.ini",
    "hwsku.json",
    "buffers_defaults_t0.j2",
    "buffers_defaults_t1.j2",
    "buffers_defaults_t2.j2",
    "pg_profile_lookup.ini",
];

/// What loading produced: the parsed files in dependency order (imports before importers, the
/// root last) and any diagnostics. The text of every file read is added to the caller's
/// `Sources`, so several fabrics can be checked and reported together.
#[derive(Debug, Default)]
pub struct Loaded {
    pub files: Vec<ParsedFile>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The root file itself could not be read: the tool cannot run (exit 2).
#[derive(Debug)]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path.display(), self.message)
    }
}

pub fn is_yaml(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

/// Where the loader reads files from. Paths are in the reader's own space (file system paths
/// for [`Disk`], paths inside the repository for a git revision); an import is joined onto
/// the importer's path in that space.
pub trait Reader {
    /// The whole file, refused above `limits.max_input_bytes`. The error completes the
    /// sentence "cannot read `path`: …".
    fn read(&self, path: &Path, limits: &Limits) -> Result<Vec<u8>, String>;
    /// Equal for two paths of the same file, so that an import cycle is found and a file
    /// imported twice counts once.
    fn key(&self, path: &Path) -> PathBuf;
    /// The path as diagnostics show it.
    fn display(&self, path: &Path) -> String;
}

/// The file system, paths shown relative to the current directory where they are under it.
pub struct Disk;

impl Reader for Disk {
    fn read(&self, path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
        read_limited(path, limits)
    }

    fn key(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }

    fn display(&self, path: &Path) -> String {
        normalize(Path::new(&display_path(path)))
    }
}

/// Reads and parses `root` and everything it imports from disk.
pub fn load(sources: &mut Sources, root: &Path, limits: &Limits) -> Result<Loaded, LoadError> {
    load_from(sources, &Disk, root, limits)
}

/// Reads and parses `root` and everything it imports through `reader`.
pub fn load_from(
    sources: &mut Sources,
    reader: &dyn Reader,
    root: &Path,
    limits: &Limits,
) -> Result<Loaded, LoadError> {
    let bytes = reader.read(root, limits).map_err(|message| LoadError {
        path: PathBuf::from(reader.display(root)),
        message,
    })?;
    let display = reader.display(root);
    let mut loaded = Loaded::default();
    let mut cx = Cx::new(&mut loaded, sources, reader, limits);
    load_file(&mut cx, root.to_path_buf(), display, bytes);
    Ok(loaded)
}

struct Cx<'a> {
    loaded: &'a mut Loaded,
    sources: &'a mut Sources,
    reader: &'a dyn Reader,
    limits: &'a Limits,
    /// Keys of the files being loaded, root first: an import found here closes a cycle.
    stack: Vec<PathBuf>,
    /// Keys of every file this load has read (earlier files of `sources` belong to other
    /// fabrics, which may share an import with this one).
    seen: BTreeSet<PathBuf>,
}

impl<'a> Cx<'a> {
    fn new(
        loaded: &'a mut Loaded,
        sources: &'a mut Sources,
        reader: &'a dyn Reader,
        limits: &'a Limits,
    ) -> Self {
        Self {
            loaded,
            sources,
            reader,
            limits,
            stack: Vec::new(),
            seen: BTreeSet::new(),
        }
    }
}

/// Parses text that did not come from a file (tests, generated input); its imports, if any,
/// are read from disk relative to `display`. A git revision reads through [`load_from`].
pub fn load_text(sources: &mut Sources, display: &str, text: String, limits: &Limits) -> Loaded {
    let mut loaded = Loaded::default();
    let mut cx = Cx::new(&mut loaded, sources, &Disk, limits);
    load_file(
        &mut cx,
        PathBuf::from(display),
        display.to_string(),
        text.into_bytes(),
    );
    loaded
}

fn read_limited(path: &Path, limits: &Limits) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.is_dir() {
        return Err("it is a directory".into());
    }
    if meta.len() > limits.max_input_bytes {
        return Err(format!(
            "it is {} bytes, more than the limit of {} (raise it with `--max-input-bytes`)",
            meta.len(),
            limits.max_input_bytes
        ));
    }
    std::fs::read(path).map_err(|e| e.to_string())
}

fn display_path(path: &Path) -> String {
    let shown = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    shown.to_string_lossy().replace('\\', "/")
}

fn load_file(cx: &mut Cx<'_>, path: PathBuf, display: String, bytes: Vec<u8>) -> Option<FileId> {
    let key = cx.reader.key(&path);
    cx.seen.insert(key.clone());
    let (text, bad_utf8) = match String::from_utf8(bytes) {
        Ok(t) => (t, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
        }
    };
    let yaml = is_yaml(&path);
    let id = cx
        .sources
        .add(SourceFile::new(path.clone(), display.clone(), text));
    if let Some(at) = bad_utf8 {
        cx.loaded.diagnostics.push(
            Diagnostic::new(
                Code::BadInput,
                Span::new(id, at, at + 1),
                "the file is not UTF-8 text",
            )
            .label("this byte is not valid UTF-8")
            .help("fabric files are UTF-8 text; is this the right file?"),
        );
        return None;
    }
    let text = &cx.sources.get(id).text;
    let parsed = if yaml {
        crate::syntax::yaml::parse_yaml(id, text)
    } else {
        syntax::parse(id, text)
    };
    let file = match parsed {
        Ok(f) => f,
        Err(d) => {
            cx.loaded.diagnostics.push(d);
            return None;
        }
    };
    if yaml {
        // The YAML form skips the parser, so the grammar's name, string and range rules are
        // checked on its tree; a file that breaks one goes no further.
        let problems = syntax::bounds::check_tree(&file);
        if !problems.is_empty() {
            cx.loaded.diagnostics.extend(problems);
            return None;
        }
    }
    cx.stack.push(key);
    for import in &file.imports {
        load_import(cx, &path, import);
    }
    cx.stack.pop();
    let skus = sku_paths(&file)
        .into_iter()
        .filter_map(|p| load_sku(cx, &path, p))
        .collect();
    cx.loaded.files.push(ParsedFile {
        id,
        ast: file,
        skus,
    });
    Some(id)
}

/// The `sku "PATH"` strings of the file's switch models.
fn sku_paths(file: &ast::File) -> Vec<&crate::span::Spanned<String>> {
    let mut out = Vec::new();
    for item in &file.items {
        let stmts: &[ast::Stmt] = match item {
            ast::Item::Fabric(f) => &f.body,
            ast::Item::Stmt(s) => std::slice::from_ref(s),
        };
        for s in stmts {
            if let ast::StmtKind::SwitchModel(m) = &s.kind {
                for p in &m.props {
                    if let ast::SwitchModelProp::Sku(path) = &p.node {
                        out.push(path);
                    }
                }
            }
        }
    }
    out
}

/// Reads the folder `sku.node` names, relative to `owner`'s folder; a folder that cannot be
/// used is FAB959 at the path.
fn load_sku(cx: &mut Cx<'_>, owner: &Path, sku: &crate::span::Spanned<String>) -> Option<SkuFiles> {
    let refuse = |message: String, help: String| {
        Diagnostic::new(Code::SkuUnreadable, sku.span, message)
            .label("this SKU folder")
            .help(help)
    };
    let rel = Path::new(&sku.node);
    if sku.node.is_empty() || rel.has_root() {
        cx.loaded.diagnostics.push(refuse(
            format!("`{}` is not a folder relative to this file", sku.node.escape_debug()),
            "write the SKU folder's path relative to the .fab file (`sku \"skus/my-sku\"`), so the fabric and its SKU move together".into(),
        ));
        return None;
    }
    // A path that reads as a file is a device's CONFIG_DB (`config_db.json`); a folder does
    // not read as one, on disk or at a git revision.
    let file = owner.parent().unwrap_or(Path::new("")).join(rel);
    if let Ok(bytes) = cx.reader.read(&file, cx.limits) {
        let display = cx.reader.display(&file);
        let Ok(text) = String::from_utf8(bytes) else {
            cx.loaded.diagnostics.push(refuse(
                format!("`{display}` is not UTF-8 text"),
                "a `sku` file is a switch's CONFIG_DB (`config_db.json`), which is JSON text"
                    .into(),
            ));
            return None;
        };
        let id = cx.sources.add(SourceFile::new(file, display, text));
        return Some(SkuFiles {
            at: sku.span,
            name: sku.node.clone(),
            files: vec![(crate::catalogue::CONFIG_DB, id)],
        });
    }
    let name = rel
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.is_empty()
        || name.starts_with('.')
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    {
        cx.loaded.diagnostics.push(refuse(
            format!("`{}` cannot name a SONiC HWSKU", name.escape_debug()),
            "the folder's name is the switch's `DEVICE_METADATA.hwsku`: letters, digits, `.`, `_` and `-` (`Arista-7060X6-64PE-HPN`)".into(),
        ));
        return None;
    }
    let dir = owner.parent().unwrap_or(Path::new("")).join(rel);
    let mut files = Vec::new();
    let mut first_error = None;
    for file in SKU_FILES {
        let path = dir.join(file);
        let display = cx.reader.display(&path);
        match cx.reader.read(&path, cx.limits) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => {
                    let id = cx.sources.add(SourceFile::new(path.clone(), display, text));
                    files.push((*file, id));
                }
                Err(_) => {
                    cx.loaded.diagnostics.push(refuse(
                        format!("`{display}` is not UTF-8 text"),
                        "SONiC's SKU files are text; is this the right folder?".into(),
                    ));
                    return None;
                }
            },
            // A missing buffer file is found where the lowering needs it (FAB958).
            Err(message) => {
                first_error.get_or_insert(format!("cannot read `{display}`: {message}"));
            }
        }
    }
    // The ports come from `port_config.ini`, or (as SONiC makes them) from `hwsku.json`.
    if !files
        .iter()
        .any(|(f, _)| *f == "port_config.ini" || *f == "hwsku.json")
    {
        cx.loaded.diagnostics.push(refuse(
            first_error.unwrap_or_default(),
            format!(
                "the path is relative to this file; it names a switch's CONFIG_DB (`config_db.json`), or a folder that holds SONiC's `port_config.ini` or `hwsku.json` (and `{}` for the buffer tables)",
                SKU_FILES[2..].join("`, `")
            ),
        ));
        return None;
    }
    Some(SkuFiles {
        at: sku.span,
        name,
        files,
    })
}

fn load_import(cx: &mut Cx<'_>, importer: &Path, import: &ast::Import) {
    let limits = cx.limits;
    let rel = Path::new(&import.path.node);
    let dir = importer.parent().unwrap_or(Path::new(""));
    let path = dir.join(rel);
    let display = cx.reader.display(&path);
    if cx.stack.len() > limits.max_import_depth {
        cx.loaded.diagnostics.push(
            Diagnostic::new(
                Code::LimitExceeded,
                import.span,
                format!(
                    "imports are nested more than {} deep",
                    limits.max_import_depth
                ),
            )
            .label("this import")
            .help("flatten the import chain"),
        );
        return;
    }
    let key = cx.reader.key(&path);
    if let Some(pos) = cx.stack.iter().position(|p| *p == key) {
        let chain: Vec<String> = cx.stack[pos..]
            .iter()
            .chain(std::iter::once(&key))
            .map(|p| {
                p.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            })
            .collect();
        cx.loaded.diagnostics.push(
            Diagnostic::new(
                Code::ImportCycle,
                import.path.span,
                format!("import cycle: {}", chain.join(" → ")),
            )
            .label("this import closes the cycle")
            .help("move the shared statements into a file that both import"),
        );
        return;
    }
    if cx.seen.contains(&key) {
        return; // already loaded through another import: its items count once
    }
    match cx.reader.read(&path, limits) {
        Ok(bytes) => {
            load_file(cx, path, display, bytes);
        }
        Err(message) => cx.loaded.diagnostics.push(
            Diagnostic::new(
                Code::ImportNotFound,
                import.path.span,
                format!("cannot read `{}`: {message}", import.path.node),
            )
            .label("imported here")
            .help(format!(
                "the path is relative to the importing file, so this looks for `{display}`"
            )),
        ),
    }
}

/// `a/./b/../c` → `a/c`, for display; an absolute path keeps its root (`/x/../y` → `/y`).
fn normalize(p: &Path) -> String {
    use std::path::Component;
    let mut root = String::new();
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::Prefix(prefix) => root.push_str(&prefix.as_os_str().to_string_lossy()),
            Component::RootDir => root.push('/'),
            Component::CurDir => {}
            Component::ParentDir if parts.last().is_some_and(|l| l != "..") => {
                parts.pop();
            }
            // Above the root there is only the root.
            Component::ParentDir if !root.is_empty() => {}
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    root + &parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_keeps_the_root_and_folds_dots() {
        assert_eq!(normalize(Path::new("a/./b/../c.fab")), "a/c.fab");
        assert_eq!(normalize(Path::new("../x/../y.fab")), "../y.fab");
        assert_eq!(normalize(Path::new("/srv/pods/../c.fab")), "/srv/c.fab");
        assert_eq!(normalize(Path::new("/../c.fab")), "/c.fab");
        assert_eq!(normalize(Path::new("./c.fab")), "c.fab");
    }
}
