//! The template set and the minijinja environment.
//!
//! In: the templates embedded from `vendor-templates/` (a static table), optionally replaced
//! file by file from an override directory (`--templates DIR`). Out: a `Templates` value that
//! holds one configured `Environment`, built once and reused for every device.
//!
//! Environment settings, and why: `UndefinedBehavior::Strict` (a missing value is an error,
//! never an empty string in a config); an explicit auto-escape callback returning
//! `AutoEscape::None` for every file (minijinja would otherwise pick escaping from the
//! extension; our views carry already-escaped text, and JSON is produced by the `tojson`
//! filter from data, never by string pasting); trailing newlines kept.

use std::path::Path;

use minijinja::{AutoEscape, Environment, Error, ErrorKind, UndefinedBehavior, Value};

use super::RenderError;
use super::sonic::Tables;

/// One template file of the embedded set.
#[derive(Debug, Clone, Copy)]
pub struct TemplateFile {
    /// Target name (`sonic`, `cumulus`, `eos`, `nxos`, `junos`, `host`), or a target's
    /// program rendered once per output (`sonic-program`: `programs/sonic/`).
    pub target: &'static str,
    /// Path relative to `vendor-templates/`; also the template name.
    pub path: &'static str,
    /// Output file name inside the device folder.
    pub output: &'static str,
    pub source: &'static str,
}

macro_rules! embedded {
    ($( $target:literal, $file:literal ;)*) => {
        &[$(TemplateFile {
            target: $target,
            path: concat!($target, "/", $file),
            output: $file,
            source: include_str!(concat!("../../vendor-templates/", $target, "/", $file)),
        },)*]
    };
}

/// Every template, in output order per target.
pub const EMBEDDED: &[TemplateFile] = embedded! {
    "sonic", "config_db.fragment.json";
    "sonic", "fabricc-device.json";
    "sonic-program", "apply.sh";
    "sonic-program", "README.md";
    "cumulus", "nvue-qos.yaml";
    "cumulus-program", "nvue.sh";
    "eos", "qos.cfg";
    "eos", "ports.cfg";
    "nxos", "qos.cfg";
    "junos", "qos.conf";
    "vrp", "qos.cfg";
    "comware", "qos.cfg";
    "host", "mlnx_qos.sh";
    "host", "dcbnl-body.sh";
    "host", "bnxt_qos.sh";
    "host", "ice_qos.sh";
    "host", "dcb_qos.sh";
    "host", "hns_qos.sh";
    "host", "hccn.sh";
    "host", "bond.sh";
    "host", "fabricc-roce.conf";
    "host", "nccl.env";
    "host", "hccl.env";
    "host", "fabricc-roce.service";
    "host", "99-fabricc-roce.rules";
    "host", "README.md";
};

/// The configured template environment.
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// The embedded templates only.
    pub fn embedded() -> Result<Templates, RenderError> {
        Self::build(None)
    }

    /// The embedded templates, each replaced by `dir/<target>/<file>` when that file exists.
    pub fn with_overrides(dir: &Path) -> Result<Templates, RenderError> {
        Self::build(Some(dir))
    }

    fn build(dir: Option<&Path>) -> Result<Templates, RenderError> {
        if let Some(dir) = dir {
            check_override_dir(dir)?;
        }
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_auto_escape_callback(|_name| AutoEscape::None);
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .keep_trailing_newline(true)
                .build()
                .map_err(template_error)?,
        );
        env.add_filter("tojson", tojson);
        for file in EMBEDDED {
            let source = match dir.map(|d| d.join(file.path)) {
                Some(p) if p.is_file() => {
                    std::fs::read_to_string(&p).map_err(|e| RenderError::Override {
                        path: p.display().to_string(),
                        message: e.to_string(),
                    })?
                }
                _ => file.source.to_string(),
            };
            env.add_template_owned(file.path, source)
                .map_err(template_error)?;
        }
        Ok(Templates { env })
    }

    /// The template files of one target.
    pub fn files(target: &str) -> impl Iterator<Item = &'static TemplateFile> + use<'_> {
        EMBEDDED.iter().filter(move |f| f.target == target)
    }

    /// Render one template with `ctx` as the variable `device`.
    pub fn render(&self, name: &str, ctx: Value) -> Result<String, RenderError> {
        let template = self.env.get_template(name).map_err(template_error)?;
        template
            .render(minijinja::context! { device => ctx })
            .map_err(template_error)
    }
}

/// Every file under `dir/<target>/` must replace an embedded template: a misspelt override
/// would otherwise be ignored silently and the embedded template rendered instead.
fn check_override_dir(dir: &Path) -> Result<(), RenderError> {
    let io = |p: &Path, e: std::io::Error| RenderError::Override {
        path: p.display().to_string(),
        message: e.to_string(),
    };
    if !dir.is_dir() {
        return Err(RenderError::Override {
            path: dir.display().to_string(),
            message: "not a directory".into(),
        });
    }
    let mut targets: Vec<&str> = EMBEDDED.iter().map(|f| f.target).collect();
    targets.dedup();
    for target in targets {
        let sub = dir.join(target);
        if !sub.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&sub).map_err(|e| io(&sub, e))? {
            let entry = entry.map_err(|e| io(&sub, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let known = EMBEDDED
                .iter()
                .any(|f| f.target == target && f.output == name);
            if !known {
                return Err(RenderError::Override {
                    path: entry.path().display().to_string(),
                    message: format!("no embedded template `{target}/{name}` to replace"),
                });
            }
        }
    }
    Ok(())
}

/// A minijinja error as a `RenderError` naming the template and line.
pub(crate) fn template_error(e: Error) -> RenderError {
    let mut message = e.kind().to_string();
    if let Some(detail) = e.detail() {
        message = format!("{message}: {detail}");
    }
    RenderError::Template {
        template: e.name().unwrap_or("<unknown>").to_string(),
        line: e.line(),
        message,
    }
}

/// A template value as JSON, streamed: the view's data is serialized straight from the
/// template value, without an intermediate tree. Undefined or invalid values are an error
/// (minijinja's own `Serialize` would print them as `null`, a silent hole in a config).
struct StrictJson<'a>(&'a Value);

impl serde::Serialize for StrictJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use minijinja::value::ValueKind;
        use serde::ser::{Error as _, SerializeMap, SerializeSeq};
        let v = self.0;
        match v.kind() {
            ValueKind::Undefined | ValueKind::Invalid => {
                Err(S::Error::custom("undefined value in tojson"))
            }
            ValueKind::Seq | ValueKind::Iterable => {
                let items = v.try_iter().map_err(S::Error::custom)?;
                let mut seq = serializer.serialize_seq(v.len())?;
                for item in items {
                    seq.serialize_element(&StrictJson(&item))?;
                }
                seq.end()
            }
            ValueKind::Map => {
                let keys = v.try_iter().map_err(S::Error::custom)?;
                let mut map = serializer.serialize_map(v.len())?;
                for key in keys {
                    let item = v.get_item(&key).map_err(S::Error::custom)?;
                    match key.as_str() {
                        Some(k) => map.serialize_entry(k, &StrictJson(&item))?,
                        None => map.serialize_entry(&key.to_string(), &StrictJson(&item))?,
                    }
                }
                map.end()
            }
            ValueKind::Bool | ValueKind::Number | ValueKind::String | ValueKind::None => {
                v.serialize(serializer)
            }
            _ => Err(S::Error::custom("value cannot be rendered as JSON")),
        }
    }
}

/// `{{ x | tojson }}`: pretty JSON (two-space indent; keys sorted, because template maps are
/// `BTreeMap`s: minijinja is built without `preserve_order`), marked safe so no escaping is
/// applied on top.
/// A SONiC fragment (`Tables`) prints one entry per line (see [`EntryPerLine`]).
fn tojson(v: Value) -> Result<Value, Error> {
    let text = match v.downcast_object_ref::<Tables>() {
        Some(tables) => entry_per_line(tables),
        None => serde_json::to_string_pretty(&StrictJson(&v)),
    }
    .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
    Ok(Value::from_safe_string(text))
}

/// `{"TABLE": {"key": {fields}}}` with the tables and their keys one per line and each entry's
/// fields on its key's line: a changed threshold is one changed line in a diff, not one per
/// field, and the file is a third smaller than fully pretty JSON (issue 36 items 1 and 3, U6).
fn entry_per_line<T: serde::Serialize>(v: &T) -> Result<String, serde_json::Error> {
    // A leaf's fragment is some 160 KB: start large rather than double from empty.
    let mut out = Vec::with_capacity(1 << 16);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, EntryPerLine::default());
    v.serialize(&mut ser)?;
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// serde_json's pretty layout down to the second level of objects (tables, then keys), and a
/// one-line `{"a": "1", "b": "2"}` below that.
#[derive(Default)]
struct EntryPerLine {
    /// Nesting depth of the container being written (1 = the top object).
    depth: usize,
    /// Per open container: whether it has a member yet.
    has_value: Vec<bool>,
}

impl EntryPerLine {
    /// Containers deeper than this are written on one line.
    const PRETTY_DEPTH: usize = 2;

    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value.push(false);
        w.write_all(c)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        let had = self.has_value.pop().unwrap_or(false);
        self.depth -= 1;
        if had && self.depth < Self::PRETTY_DEPTH {
            w.write_all(b"\n")?;
            Self::indent(w, self.depth)?;
        }
        w.write_all(c)
    }

    /// Two spaces per level, without allocating them for every line of a leaf's fragment.
    fn indent<W: ?Sized + std::io::Write>(w: &mut W, depth: usize) -> std::io::Result<()> {
        const SPACES: &[u8] = b"                ";
        let mut n = depth * 2;
        while n > 0 {
            let k = n.min(SPACES.len());
            w.write_all(&SPACES[..k])?;
            n -= k;
        }
        Ok(())
    }

    fn member<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if let Some(h) = self.has_value.last_mut() {
            *h = true;
        }
        if self.depth <= Self::PRETTY_DEPTH {
            w.write_all(if first { b"\n" } else { b",\n" })?;
            Self::indent(w, self.depth)
        } else if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }
}

impl serde_json::ser::Formatter for EntryPerLine {
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.member(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.member(w, first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tojson_text(v: Value) -> Result<String, Error> {
        tojson(v).map(|t| t.as_str().unwrap_or_default().to_string())
    }

    #[test]
    fn tojson_is_pretty_with_sorted_keys() {
        let mut m = std::collections::BTreeMap::new();
        m.insert("b", Value::from(vec![Value::from(1), Value::from("x")]));
        m.insert("a", Value::from(()));
        let text = tojson_text(Value::from(m)).expect("renders");
        assert_eq!(
            text,
            "{\n  \"a\": null,\n  \"b\": [\n    1,\n    \"x\"\n  ]\n}"
        );
    }

    #[test]
    fn a_fragment_prints_one_entry_per_line() {
        let v = serde_json::json!({
            "QUEUE": {"Ethernet0|3": {"scheduler": "S3", "wred_profile": "W"}, "Ethernet0|4": {}},
            "SWITCH_HASH": {"GLOBAL": {"ecmp_hash": ["SRC_IP", "DST_IP"]}},
            "EMPTY": {}
        });
        let text = entry_per_line(&v).expect("prints");
        assert_eq!(
            text,
            "{\n  \"EMPTY\": {},\n  \"QUEUE\": {\n    \"Ethernet0|3\": {\"scheduler\": \"S3\", \"wred_profile\": \"W\"},\n    \"Ethernet0|4\": {}\n  },\n  \"SWITCH_HASH\": {\n    \"GLOBAL\": {\"ecmp_hash\": [\"SRC_IP\", \"DST_IP\"]}\n  }\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back, v);
    }

    #[test]
    fn tojson_refuses_undefined_values_anywhere_in_the_tree() {
        let mut inner = std::collections::BTreeMap::new();
        inner.insert("hole", Value::UNDEFINED);
        let mut outer = std::collections::BTreeMap::new();
        outer.insert("table", Value::from(inner));
        let e = tojson_text(Value::from(outer)).expect_err("undefined must not print as null");
        assert!(e.to_string().contains("undefined value in tojson"), "{e}");
    }
}
