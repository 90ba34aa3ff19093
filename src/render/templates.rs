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

/// One template file of the embedded set.
#[derive(Debug, Clone, Copy)]
pub struct TemplateFile {
    /// Target name (`sonic`, `cumulus`, `eos`, `nxos`, `junos`, `host`).
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
    "sonic", "config_db.json";
    "cumulus", "startup.yaml";
    "cumulus", "nvue.sh";
    "eos", "running-config";
    "nxos", "running-config";
    "junos", "config";
    "host", "mlnx_qos.sh";
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

/// A serde value (from `serde_json::to_value` of a view) as a template value.
pub(crate) fn to_value(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::from(()),
        serde_json::Value::Bool(b) => Value::from(*b),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                Value::from(n.as_f64().unwrap_or(0.0))
            }
        }
        serde_json::Value::String(s) => Value::from(s.clone()),
        serde_json::Value::Array(a) => Value::from(a.iter().map(to_value).collect::<Vec<_>>()),
        serde_json::Value::Object(o) => Value::from(
            o.iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect::<std::collections::BTreeMap<String, Value>>(),
        ),
    }
}

/// A template value back as JSON data; undefined values are an error.
fn to_json(v: &Value) -> Result<serde_json::Value, Error> {
    use minijinja::value::ValueKind;
    Ok(match v.kind() {
        ValueKind::Undefined => {
            return Err(Error::new(
                ErrorKind::UndefinedError,
                "undefined value in tojson",
            ));
        }
        ValueKind::None => serde_json::Value::Null,
        ValueKind::Bool => serde_json::Value::Bool(v.is_true()),
        ValueKind::Number => {
            if let Some(i) = v.as_i64() {
                serde_json::Value::from(i)
            } else if let Ok(u) = u64::try_from(v.clone()) {
                serde_json::Value::from(u)
            } else {
                let f = f64::try_from(v.clone())?;
                serde_json::Value::from(f)
            }
        }
        ValueKind::String => serde_json::Value::String(v.as_str().unwrap_or_default().to_string()),
        ValueKind::Seq | ValueKind::Iterable => serde_json::Value::Array(
            v.try_iter()?
                .map(|x| to_json(&x))
                .collect::<Result<_, _>>()?,
        ),
        ValueKind::Map => {
            let mut map = serde_json::Map::new();
            for key in v.try_iter()? {
                let item = v.get_item(&key)?;
                let key = key
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| key.to_string());
                map.insert(key, to_json(&item)?);
            }
            serde_json::Value::Object(map)
        }
        _ => {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                "value cannot be rendered as JSON",
            ));
        }
    })
}

/// `{{ x | tojson }}`: pretty JSON (two-space indent, keys sorted because serde_json's map
/// is ordered), marked safe so no escaping is applied on top.
fn tojson(v: Value) -> Result<Value, Error> {
    let json = to_json(&v)?;
    let text = serde_json::to_string_pretty(&json)
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
    Ok(Value::from_safe_string(text))
}
