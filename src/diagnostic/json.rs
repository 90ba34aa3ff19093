//! JSON output: the `fabricc check --format json` object, exactly as the v1 JSON contract fixes it (README.md).
//!
//! In: the fabric's name (absent when parsing failed before it was known), sorted
//! `Diagnostic`s, the `Facts` when `--facts` was given, and the `Sources`. Out: one
//! pretty-printed JSON object ending in a newline. Lines and columns are 1-based; columns
//! count characters; `end_column` is the column just after the last character.
//!
//! The contract's fields come first, in its order. `notes` and `labels` are additive extras
//! that appear only when non-empty, so a consumer of the contract never sees a change; so
//! are `verify`'s fields (`device`, `key`, `expected`, `actual` for drift; `device`, `port`,
//! `expected_peer`, `expected_peer_port`, `actual_peer`, `actual_peer_port` for wiring).

use serde::Serialize;

use super::{Category, Code, CycleHop, Diagnostic, Label, Observed, Severity};
use crate::analysis::Facts;
use crate::source::Sources;

#[derive(Serialize)]
struct Output<'a> {
    fabric: Option<&'a str>,
    findings: Vec<Finding<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    facts: Option<&'a Facts>,
}

#[derive(Serialize)]
struct Finding<'a> {
    code: Code,
    severity: Severity,
    category: Category,
    message: &'a str,
    help: Option<&'a str>,
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    cycle: Option<&'a [CycleHop]>,
    /// `verify`'s drift and wiring fields (`device`, `key`, `expected`, `actual`; `device`,
    /// `port`, `expected_peer`, …), flattened into the finding.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    observed: Option<&'a Observed>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    notes: &'a [String],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    labels: Vec<LabelOut<'a>>,
}

/// A secondary label: another place that explains the finding.
#[derive(Serialize)]
struct LabelOut<'a> {
    message: &'a str,
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

/// Render the JSON object for `fabricc check --format json`.
pub fn render_json(
    fabric_name: Option<&str>,
    diags: &[Diagnostic],
    facts: Option<&Facts>,
    sources: &Sources,
) -> String {
    let findings = diags.iter().map(|d| finding(d, sources)).collect();
    let output = Output {
        fabric: fabric_name,
        findings,
        facts,
    };
    // Every map key is a string and serde_json writes non-finite floats as null, so
    // serialising these types cannot fail.
    let mut text =
        serde_json::to_string_pretty(&output).expect("invariant: findings serialise to JSON");
    text.push('\n');
    text
}

fn finding<'a>(diag: &'a Diagnostic, sources: &'a Sources) -> Finding<'a> {
    let (start, end) = sources.span_lines(diag.primary.span);
    Finding {
        code: diag.code,
        severity: diag.severity,
        category: diag.category(),
        message: &diag.message,
        help: diag.help.as_deref(),
        file: &sources.get(diag.primary.span.file).display,
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        cycle: diag.cycle.as_deref(),
        observed: diag.observed.as_deref(),
        notes: &diag.notes,
        labels: diag.secondary.iter().map(|l| label(l, sources)).collect(),
    }
}

fn label<'a>(label: &'a Label, sources: &'a Sources) -> LabelOut<'a> {
    let (start, end) = sources.span_lines(label.span);
    LabelOut {
        message: &label.text,
        file: &sources.get(label.span.file).display,
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
    }
}
