//! SARIF 2.1.0 output, for code-scanning tools (GitHub code scanning, IDE SARIF viewers).
//!
//! In: `Diagnostic`s and their `Sources`. Out: one pretty-printed SARIF log ending in a
//! newline, with one run whose driver lists every code of the registry as a rule (sorted by
//! id, help from the explanation page) and one result per diagnostic, in a stable order.
//! Regions use 1-based lines and columns counted in Unicode code points (declared with
//! `columnKind`); `endColumn` is the column after the last character, as SARIF defines it.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Code, Diagnostic, Label, Severity, human::cycle_chain};
use crate::source::Sources;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const INFORMATION_URI: &str = "https://fabricc.dev";

/// The stable documentation URL of a code, e.g. `https://fabricc.dev/codes/FAB201`.
pub fn help_uri(code: Code) -> String {
    format!("{INFORMATION_URI}/codes/{code}")
}

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    column_kind: &'static str,
    results: Vec<SarifResult>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    information_uri: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Help,
    help_uri: String,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct Text {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: &'static str,
    markdown: &'static str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

/// `tags` is how GitHub code scanning groups and filters rules.
#[derive(Serialize)]
struct RuleProperties {
    tags: Vec<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<RelatedLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RelatedLocation {
    id: usize,
    physical_location: PhysicalLocation,
    message: Text,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct ArtifactLocation {
    uri: String,
}

// Field order is the sort order of results, so keep start before end.
#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

/// Render the SARIF log for the given diagnostics.
pub fn render_sarif(diags: &[Diagnostic], sources: &Sources) -> String {
    let mut codes: Vec<Code> = Code::ALL.to_vec();
    codes.sort_by_key(|c| c.as_str());
    let rules: Vec<Rule> = codes.iter().map(|&c| rule(c)).collect();

    let mut results: Vec<SarifResult> = diags
        .iter()
        .map(|d| {
            let index = codes.iter().position(|&c| c == d.code);
            result(
                d,
                sources,
                index.expect("invariant: every code is in Code::ALL"),
            )
        })
        .collect();
    // Results are ordered by place, then rule and message, whatever order the caller used:
    // code-scanning diffs between runs must come only from changed findings.
    results.sort_by(|a, b| {
        (&a.locations[0].physical_location, a.rule_id, &a.message).cmp(&(
            &b.locations[0].physical_location,
            b.rule_id,
            &b.message,
        ))
    });

    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "fabricc",
                    information_uri: INFORMATION_URI,
                    version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    let mut text = serde_json::to_string_pretty(&log).expect("invariant: SARIF serialises");
    text.push('\n');
    text
}

fn rule(code: Code) -> Rule {
    Rule {
        id: code.as_str(),
        // The registry's variant name (`DscpOverlap`) is the rule's readable name; the
        // derived `Debug` spells exactly that.
        name: format!("{code:?}"),
        short_description: Text {
            text: code.summary().to_string(),
        },
        full_description: Text {
            text: what_it_means(code),
        },
        help: Help {
            text: code.explanation(),
            markdown: code.explanation(),
        },
        help_uri: help_uri(code),
        default_configuration: Configuration {
            level: level(code.default_severity()),
        },
        properties: RuleProperties {
            tags: vec![code.category().as_str()],
        },
    }
}

/// The `## What it means` section of the explanation page, or the summary without one.
fn what_it_means(code: Code) -> String {
    let mut lines = code
        .explanation()
        .lines()
        .skip_while(|l| l.trim() != "## What it means");
    let section: Vec<&str> = match lines.next() {
        Some(_) => lines.take_while(|l| !l.starts_with("## ")).collect(),
        None => Vec::new(),
    };
    let text = section.join("\n").trim().to_string();
    if text.is_empty() {
        code.summary().to_string()
    } else {
        text
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Advice => "note",
    }
}

fn result(diag: &Diagnostic, sources: &Sources, rule_index: usize) -> SarifResult {
    let mut text = diag.message.clone();
    if let Some(cycle) = diag.cycle.as_deref().filter(|c| !c.is_empty()) {
        let _ = write!(text, "\ncycle: {}", cycle_chain(cycle));
    }
    if let Some(help) = &diag.help {
        let _ = write!(text, "\nhelp: {help}");
    }
    for note in &diag.notes {
        let _ = write!(text, "\nnote: {note}");
    }
    SarifResult {
        rule_id: diag.code.as_str(),
        rule_index,
        level: level(diag.severity),
        message: Text { text },
        locations: vec![Location {
            physical_location: physical(&diag.primary, sources),
        }],
        related_locations: diag
            .secondary
            .iter()
            .enumerate()
            .map(|(i, l)| RelatedLocation {
                id: i + 1,
                physical_location: physical(l, sources),
                message: Text {
                    text: l.text.clone(),
                },
            })
            .collect(),
    }
}

fn physical(label: &Label, sources: &Sources) -> PhysicalLocation {
    let (start, end) = sources.span_lines(label.span);
    PhysicalLocation {
        artifact_location: ArtifactLocation {
            uri: uri(&sources.get(label.span.file).display),
        },
        region: Region {
            start_line: start.line,
            start_column: start.column,
            end_line: end.line,
            end_column: end.column,
        },
    }
}

/// A relative URI reference for a display path: forward slashes, and every byte outside
/// the unreserved set percent-encoded, so a space or `#` in a file name stays a path.
fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}
