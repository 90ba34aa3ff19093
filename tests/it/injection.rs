//! No string from an input can inject a line into a generated file. Every place a string
//! reaches (fabric name, descriptions, device, class and model names, driver, netdev and
//! rdma-device names, PCI addresses, import paths), in both input forms (`.fab` and the YAML form), is tried
//! with newlines, quotes, `;`, `#`, `{}`, `..`, `/`, NUL, shell and terminal metacharacters
//! and Unicode look-alikes. Each attempt must end one of two ways:
//!
//! * **rejected**: the check reports an error with a code, and no diagnostic text carries a
//!   raw control character or line break (the `github` format prints one line per finding:
//!   a newline there would be a workflow command);
//! * **built**: every target renders, and against the same fabric without the payload the
//!   build has the same number of files with the same number of lines each, every JSON and
//!   YAML file parses, no file holds a control or invisible character, and a payload with a
//!   character that is special anywhere does not appear verbatim.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fabricc::diagnostic::{self, Severity};
use fabricc::lower::Targets;
use fabricc::model::Limits;
use fabricc::model::load::Reader;
use fabricc::output::generate::{BuildInput, Stop, generate_each};
use fabricc::pipeline;
use fabricc::render::Templates;
use fabricc::render::escape::sanitize_text;
use fabricc::source::Sources;

/// Eight switches (one per OS, plus a SONiC spine) and seven hosts: every target renders.
const BASE: &str = r#"fabric lab {
  description "fabric notes"
  class roce { dscp 26  priority 3  lossless  ecn min 150KB max 1500KB  bandwidth 60% }
  class cnp  { dscp 48  priority 6  strict  cnp }
  class bulk { dscp other  priority 0  bandwidth 40% }
  switch-model m-sonic { platform nvidia-sn5400  os sonic  ports 8 x 400G  description "model notes" }
  switch-model m-cumulus { os cumulus  ports 8 x 400G  buffer 64MB  cell 256B }
  switch-model m-eos { os eos  ports 8 x 400G  buffer 64MB  cell 256B }
  switch-model m-nxos { os nxos  ports 8 x 400G  buffer 64MB  cell 256B }
  switch-model m-junos { os junos  ports 8 x 400G  buffer 64MB  cell 256B }
  switch-model m-vrp { os vrp  ports 8 x 400G  buffer 64MB  cell 256B }
  switch-model m-comware { os comware  ports 8 x 400G  buffer 64MB  cell 256B }
  nic-model cx7 { driver mlx5  speed 400G }
  switch leaf-sonic { model m-sonic  tier 1  description "rack notes" }
  switch leaf-cumulus { model m-cumulus  tier 1  description "rack notes" }
  switch leaf-eos { model m-eos  tier 1  description "rack notes" }
  switch leaf-nxos { model m-nxos  tier 1  description "rack notes" }
  switch leaf-junos { model m-junos  tier 1  description "rack notes" }
  switch leaf-vrp { model m-vrp  tier 1  description "rack notes" }
  switch leaf-comware { model m-comware  tier 1  description "rack notes" }
  switch spine { model m-sonic  tier 2 }
  host gpu[1..7] { nic cx7  netdev eth0  rdma-device mlx5_0  pci 0c:00.0 }
  link gpu1 -- leaf-sonic { cable 3m }
  link gpu2 -- leaf-cumulus { cable 3m }
  link gpu3 -- leaf-eos { cable 3m }
  link gpu4 -- leaf-nxos { cable 3m }
  link gpu5 -- leaf-junos { cable 3m }
  link gpu6 -- leaf-vrp { cable 3m }
  link gpu7 -- leaf-comware { cable 3m }
  link leaf-sonic -- spine { cable 10m }
  link leaf-cumulus -- spine { cable 10m }
  link leaf-eos -- spine { cable 10m }
  link leaf-nxos -- spine { cable 10m }
  link leaf-junos -- spine { cable 10m }
  link leaf-vrp -- spine { cable 10m }
  link leaf-comware -- spine { cable 10m }
  routing updown
}
"#;

/// What an attacker would try, each followed by text that would be a second config line.
const PAYLOADS: &[&str] = &[
    "\nhostname evil",
    "\r\nhostname evil",
    "\rhostname evil",
    "\"; hostname evil",
    "'; hostname evil",
    "; hostname evil",
    "# hostname evil",
    "! hostname evil",
    "{} hostname evil",
    "} hostname evil {",
    "/../../etc/evil",
    "../evil",
    "..",
    "/",
    "\0evil",
    "\\nevil",
    "\\",
    "`reboot`",
    "$(reboot)",
    "| reboot",
    "&& reboot",
    "<evil>",
    "%s%n",
    "\u{2028}hostname evil",
    "\u{2029}hostname evil",
    "\u{0085}hostname evil",
    "\u{202e}live",
    "\u{200b}evil",
    "\u{feff}evil",
    "\u{ff1b} hostname evil",
    "\u{ff03} evil",
    "l\u{0435}af",
    "\u{1b}[2Kevil",
    "\tevil",
    "\u{7f}evil",
];

/// Characters a file may not hold: every control character but newline and tab, and the
/// invisible or line-breaking Unicode ones.
fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{200b}'..='\u{200f}' | '\u{feff}'
        )
}

/// In-memory files: the root and nothing else.
struct Memory {
    path: PathBuf,
    text: String,
}

impl Reader for Memory {
    fn read(&self, path: &Path, _: &Limits) -> Result<Vec<u8>, String> {
        if path == self.path {
            Ok(self.text.clone().into_bytes())
        } else {
            Err("no such file".into())
        }
    }

    fn key(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }

    fn display(&self, path: &Path) -> String {
        path.to_string_lossy().into_owned()
    }
}

#[derive(Debug)]
enum Outcome {
    Rejected(Vec<String>),
    /// (path, contents) of every file, sorted by path.
    Built(Vec<(String, String)>),
}

fn templates() -> &'static Templates {
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    T.get_or_init(|| Templates::embedded().expect("embedded templates"))
}

fn run(name: &str, text: &str, what: &str) -> Outcome {
    let mut sources = Sources::new();
    let reader = Memory {
        path: PathBuf::from(name),
        text: text.to_string(),
    };
    let checked = pipeline::check_from(&mut sources, &reader, Path::new(name), &Limits::default())
        .expect("the root is in memory");
    for d in &checked.diagnostics {
        let texts = std::iter::once(&d.message)
            .chain(d.help.iter())
            .chain(std::iter::once(&d.primary.text))
            .chain(d.secondary.iter().map(|l| &l.text))
            .chain(d.notes.iter());
        for t in texts {
            assert!(
                !t.contains('\n') && !t.chars().any(forbidden),
                "{what}: {} carries a raw control character or line break: {t:?}",
                d.code.as_str()
            );
        }
    }
    let github = diagnostic::github::render_github(&checked.diagnostics, &sources);
    assert_eq!(
        github.lines().count(),
        checked.diagnostics.len(),
        "{what}: one github annotation per finding:\n{github}"
    );
    let errors: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code.as_str().to_string())
        .collect();
    if !errors.is_empty() {
        return Outcome::Rejected(errors);
    }
    let input = BuildInput::of(&checked).expect("no errors, so a lowered fabric");
    let files = std::sync::Mutex::new(Vec::new());
    let result = generate_each(input, Targets::ALL, templates(), None, |a| {
        files
            .lock()
            .expect("not poisoned")
            .push((a.path, a.contents));
        Ok::<_, std::convert::Infallible>(())
    });
    match result {
        Ok(_) => {}
        Err(Stop::Findings(d)) => {
            return Outcome::Rejected(d.iter().map(|d| d.code.as_str().to_string()).collect());
        }
        Err(Stop::Sink(never)) => match never {},
    }
    let mut files = files.into_inner().expect("not poisoned");
    files.sort();
    Outcome::Built(files)
}

/// Every file parses in its format and holds nothing invisible; returns (target file kind,
/// line count) for each, to compare with the build without the payload.
fn well_formed(what: &str, files: &[(String, String)]) -> Vec<(String, usize)> {
    let mut shape = Vec::new();
    for (path, contents) in files {
        assert!(
            path.split('/')
                .all(|c| !c.is_empty() && c != "." && c != ".." && !c.chars().any(forbidden)),
            "{what}: output path {path:?} is malformed"
        );
        if let Some(c) = contents.chars().find(|&c| forbidden(c)) {
            panic!("{what}: {path} holds {c:?}");
        }
        if path.ends_with(".json") {
            serde_json::from_str::<serde_json::Value>(contents)
                .unwrap_or_else(|e| panic!("{what}: {path} is not JSON: {e}"));
        }
        if path.ends_with(".yaml") {
            serde_yaml::from_str::<serde_yaml::Value>(contents)
                .unwrap_or_else(|e| panic!("{what}: {path} is not YAML: {e}"));
        }
        let file = path.rsplit('/').next().unwrap_or(path);
        shape.push((file.to_string(), contents.lines().count()));
    }
    shape.sort();
    shape
}

/// `.fab` text for a string: the STRING escapes (`\"`, `\\`); anything else verbatim.
fn fab_string(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The ways a payload reaches the `.fab` form: (place, base text with it in place).
fn fab_places(p: &str) -> Vec<(&'static str, String)> {
    let q = fab_string(p);
    let rename = |from: &str, to: String| BASE.replace(from, &to);
    vec![
        (
            "fabric name (STRING)",
            BASE.replace("fabric lab {", &format!("fabric \"lab{q}\" {{")),
        ),
        (
            "fabric name",
            BASE.replace("fabric lab {", &format!("fabric lab{p} {{")),
        ),
        (
            "fabric description",
            BASE.replace("\"fabric notes\"", &format!("\"fabric notes{q}\"")),
        ),
        (
            "switch-model description",
            BASE.replace("\"model notes\"", &format!("\"model notes{q}\"")),
        ),
        (
            "switch description",
            BASE.replace("\"rack notes\"", &format!("\"rack notes{q}\"")),
        ),
        ("switch name", rename("leaf-eos", format!("leaf-eos{p}"))),
        ("host name", rename("gpu", format!("gpu{p}"))),
        (
            "class name",
            BASE.replace("class roce", &format!("class roce{p}")),
        ),
        (
            "switch model name",
            rename("m-junos", format!("m-junos{p}")),
        ),
        (
            "driver",
            BASE.replace("driver mlx5", &format!("driver mlx5{p}")),
        ),
        (
            "netdev",
            BASE.replace("netdev eth0", &format!("netdev eth0{p}")),
        ),
        ("rdma-device", BASE.replace("mlx5_0", &format!("mlx5_0{p}"))),
        (
            "pci",
            BASE.replace("pci 0c:00.0", &format!("pci 0c:00.0{p}")),
        ),
        ("import path", format!("import \"x{q}.fab\"\n{BASE}")),
    ]
}

/// The YAML form of [`BASE`], as `fabricc export` prints it.
fn base_yaml() -> serde_yaml::Value {
    let Outcome::Built(_) = run("base.fab", BASE, "base") else {
        panic!("the base fabric builds");
    };
    let mut sources = Sources::new();
    let reader = Memory {
        path: PathBuf::from("base.fab"),
        text: BASE.to_string(),
    };
    let checked = pipeline::check_from(
        &mut sources,
        &reader,
        Path::new("base.fab"),
        &Limits::default(),
    )
    .expect("in memory");
    let doc = fabricc::model::export::export(checked.fabric.as_ref().expect("resolves"));
    serde_yaml::to_value(&doc).expect("the export serializes")
}

/// Replaces `from` by `to` in every string of `v` equal to `from` or starting `from.`.
fn rename(v: &mut serde_yaml::Value, from: &str, to: &str) {
    match v {
        serde_yaml::Value::String(s) => {
            if s == from {
                *s = to.to_string();
            } else if let Some(rest) = s.strip_prefix(&format!("{from}.")) {
                *s = format!("{to}.{rest}");
            }
        }
        serde_yaml::Value::Sequence(items) => items.iter_mut().for_each(|i| rename(i, from, to)),
        serde_yaml::Value::Mapping(m) => m.iter_mut().for_each(|(_, i)| rename(i, from, to)),
        _ => {}
    }
}

fn set(v: &mut serde_yaml::Value, path: &[&str], to: &str) {
    let mut at = v;
    for key in path {
        at = match key.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*key],
        };
    }
    assert!(!at.is_null(), "{path:?} is in the export");
    *at = serde_yaml::Value::String(to.to_string());
}

/// The ways a payload reaches the YAML form, serialized by serde_yaml (so the payload is a
/// correctly escaped YAML string, not a YAML syntax error).
fn yaml_places(base: &serde_yaml::Value, p: &str) -> Vec<(&'static str, String)> {
    let with = |f: &dyn Fn(&mut serde_yaml::Value)| {
        let mut v = base.clone();
        f(&mut v);
        serde_yaml::to_string(&v).expect("serializes")
    };
    vec![
        (
            "fabric name",
            with(&|v| set(v, &["fabric"], &format!("lab{p}"))),
        ),
        (
            "fabric description",
            with(&|v| set(v, &["description"], &format!("fabric notes{p}"))),
        ),
        (
            "switch description",
            with(&|v| set(v, &["switches", "2", "description"], &format!("rack{p}"))),
        ),
        (
            "switch name",
            with(&|v| rename(v, "leaf-eos", &format!("leaf-eos{p}"))),
        ),
        (
            "host name",
            with(&|v| rename(v, "gpu3", &format!("gpu3{p}"))),
        ),
        (
            "class name",
            with(&|v| set(v, &["classes", "0", "name"], &format!("roce{p}"))),
        ),
        (
            "switch model name",
            with(&|v| rename(v, "m-junos", &format!("m-junos{p}"))),
        ),
        (
            "driver",
            with(&|v| set(v, &["nic_models", "0", "driver"], &format!("mlx5{p}"))),
        ),
        (
            "netdev",
            with(&|v| {
                set(
                    v,
                    &["hosts", "0", "nics", "0", "netdev"],
                    &format!("eth0{p}"),
                )
            }),
        ),
        (
            "rdma-device",
            with(&|v| {
                set(
                    v,
                    &["hosts", "0", "nics", "0", "rdma_device"],
                    &format!("mlx5_0{p}"),
                )
            }),
        ),
        (
            "pci",
            with(&|v| {
                set(
                    v,
                    &["hosts", "0", "nics", "0", "pci"],
                    &format!("0000:0c:00.0{p}"),
                )
            }),
        ),
    ]
}

/// Whether every character of `p` survives `sanitize_text` as itself (so seeing it verbatim
/// in a description is expected, not an injection).
fn inert(p: &str) -> bool {
    sanitize_text(p) == p
}

/// Runs every place × payload of one form; returns how many were built and rejected.
fn attempt(
    form: &str,
    name: &str,
    places: &dyn Fn(&str) -> Vec<(&'static str, String)>,
) -> (usize, usize) {
    let base: BTreeMap<&str, Vec<(String, usize)>> = places("")
        .into_iter()
        .filter(|(place, _)| *place != "import path")
        .map(|(place, text)| {
            let what = format!("{form} {place} without payload");
            match run(name, &text, &what) {
                Outcome::Built(files) => (place, well_formed(&what, &files)),
                Outcome::Rejected(codes) => panic!("{what} is rejected: {codes:?}"),
            }
        })
        .collect();
    let (mut built, mut rejected) = (0, 0);
    for p in PAYLOADS {
        for (place, text) in places(p) {
            let what = format!("{form} {place} with {p:?}");
            match run(name, &text, &what) {
                Outcome::Rejected(codes) => {
                    assert!(
                        codes.iter().all(|c| c.starts_with("FAB")),
                        "{what}: {codes:?}"
                    );
                    rejected += 1;
                }
                Outcome::Built(files) => {
                    let shape = well_formed(&what, &files);
                    let expected = base.get(place).unwrap_or_else(|| panic!("{what} built"));
                    assert_eq!(&shape, expected, "{what}: files or line counts changed");
                    let verbatim = p.trim();
                    if !inert(verbatim) && verbatim.len() > 1 {
                        for (path, contents) in &files {
                            assert!(
                                !contents.contains(verbatim),
                                "{what}: {path} carries the payload verbatim"
                            );
                        }
                    }
                    built += 1;
                }
            }
        }
    }
    (built, rejected)
}

#[test]
fn fab_form_strings_never_inject() {
    let (built, rejected) = attempt(".fab", "lab.fab", &fab_places);
    eprintln!(".fab: {built} built, {rejected} rejected");
    // Descriptions take most payloads (sanitized); names and paths refuse them.
    assert!(built >= 60, "only {built} attempts built");
    assert!(rejected >= 300, "only {rejected} attempts rejected");
}

#[test]
fn yaml_form_strings_never_inject() {
    let base = base_yaml();
    let (built, rejected) = attempt("YAML", "lab.yaml", &|p| yaml_places(&base, p));
    eprintln!("YAML: {built} built, {rejected} rejected");
    assert!(built >= 20, "only {built} attempts built");
    assert!(rejected >= 250, "only {rejected} attempts rejected");
}

/// The names an accepted payload gives stay names: a fabric may be called `lab..x` (a NAME),
/// and it reaches file contents, never a path component of its own.
#[test]
fn dots_in_names_stay_inside_one_path_component() {
    let text = BASE
        .replace("leaf-eos", "leaf-eos..x")
        .replace("fabric lab {", "fabric lab..x {");
    let Outcome::Built(files) = run("lab.fab", &text, "dots") else {
        panic!("`leaf-eos..x` is a NAME and builds");
    };
    assert!(
        files
            .iter()
            .any(|(p, _)| p == "switches/leaf-eos..x/qos.cfg"),
        "{:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    well_formed("dots", &files);
}
