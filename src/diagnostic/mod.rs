//! Diagnostics as data: every stage reports `Diagnostic` values; renderers (human, json,
//! sarif, github) live in the submodules and never decide anything.

pub mod code;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
pub mod severity;
pub mod short;

use serde::Serialize;

pub use code::Code;
pub use severity::{Category, Severity};

use crate::span::Span;

/// A place in the source and what to say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

/// One element of a deadlock witness: the ingress queue (switch, neighbour, priority).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct CycleHop {
    pub switch: String,
    pub from: String,
    pub priority: u8,
}

/// What `fabricc verify` observed on a device, for the machine formats: a setting with the
/// value fabricc generated and the one the device has (`drift`), or a port with the neighbour
/// the cabling plan names and the one LLDP reports (`wiring`). `None` is a value that is not
/// there (a missing setting, no neighbour).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Observed {
    Drift {
        device: String,
        /// The setting: `PORT_QOS_MAP|Ethernet0|pfc_enable`, `qos profile X / tx-queue 3 /
        /// random-detect ecn minimum-threshold`, `class-of-service schedulers s-roce …`.
        key: String,
        expected: Option<String>,
        actual: Option<String>,
    },
    Wiring {
        device: String,
        port: String,
        expected_peer: Option<String>,
        expected_peer_port: Option<String>,
        actual_peer: Option<String>,
        actual_peer_port: Option<String>,
    },
}

impl Observed {
    pub fn device(&self) -> &str {
        match self {
            Observed::Drift { device, .. } | Observed::Wiring { device, .. } => device,
        }
    }
}

/// A finding: stable code, severity, one-line message, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// One line, lower case, no final period, names in backticks.
    pub message: String,
    pub primary: Label,
    /// Further places: the other declaration, each hop of a cycle.
    pub secondary: Vec<Label>,
    pub help: Option<String>,
    /// Computed facts that support the message ("needs 91,476 B, has 20,000 B").
    pub notes: Vec<String>,
    /// The witness cycle of a deadlock finding.
    pub cycle: Option<Vec<CycleHop>>,
    /// What `verify` compared (drift and wiring findings).
    pub observed: Option<Box<Observed>>,
}

impl Diagnostic {
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: code.default_severity(),
            message: one_line(message.into()),
            primary: Label {
                span,
                text: String::new(),
            },
            secondary: Vec::new(),
            help: None,
            notes: Vec::new(),
            cycle: None,
            observed: None,
        }
    }

    #[must_use]
    pub fn label(mut self, text: impl Into<String>) -> Self {
        self.primary.text = one_line(text.into());
        self
    }

    #[must_use]
    pub fn with_secondary(mut self, span: Span, text: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            text: one_line(text.into()),
        });
        self
    }

    #[must_use]
    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(one_line(text.into()));
        self
    }

    #[must_use]
    pub fn note(mut self, text: impl Into<String>) -> Self {
        self.notes.push(one_line(text.into()));
        self
    }

    #[must_use]
    pub fn observed(mut self, observed: Observed) -> Self {
        self.observed = Some(Box::new(observed));
        self
    }

    #[must_use]
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn category(&self) -> Category {
        self.code.category()
    }
}

/// Diagnostic text is one line of visible characters: a file name or string from the input
/// that holds a newline, a control character or an invisible Unicode one (bidi overrides,
/// line separators) is shown escaped. Every output format relies on it: the `github`
/// format is one workflow command per line, and a terminal must not run escape sequences.
fn one_line(text: String) -> String {
    let unsafe_char = |c: char| {
        c.is_control()
            || matches!(
                c,
                '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
                    | '\u{200b}'..='\u{200f}' | '\u{feff}'
            )
    };
    if !text.chars().any(unsafe_char) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Most device names a finding lists before "N more".
pub const LISTED_NAMES: usize = 4;

/// Names for a message, each in backticks: the first [`LISTED_NAMES`], then how many more
/// ("`L1`, `L2`, `L3`, `L4`, 6 more"), so a finding over a thousand devices stays one line.
pub fn listed_names<S: AsRef<str>>(names: &[S]) -> String {
    let mut shown: Vec<String> = names
        .iter()
        .take(LISTED_NAMES)
        .map(|n| format!("`{}`", n.as_ref()))
        .collect();
    if names.len() > LISTED_NAMES {
        shown.push(format!("{} more", names.len() - LISTED_NAMES));
    }
    shown.join(", ")
}

/// Accepts the warnings of `code` (`allow CODE` in the fabric, `--allow CODE` on the command
/// line): each stays in the output, as advice, with a note saying what allowed it, so that
/// nothing is hidden and nothing it reports blocks a build. Errors and advice are untouched.
pub fn allow(diagnostics: &mut [Diagnostic], code: Code, by: &str) {
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.code == code && d.severity == Severity::Warning)
    {
        d.severity = Severity::Advice;
        d.notes.push(format!("allowed by {by}"));
    }
}

/// Sort diagnostics into their one output order: file, position, code, message.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (
            a.primary.span.file,
            a.primary.span.start,
            a.primary.span.end,
            a.code,
            &a.message,
        )
            .cmp(&(
                b.primary.span.file,
                b.primary.span.start,
                b.primary.span.end,
                b.code,
                &b.message,
            ))
    });
}

/// "Did you mean `x`?" for a misspelled name, from the names that would be valid.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let score = strsim::jaro_winkler(word, c);
        if score > 0.8 && best.is_none_or(|(s, b)| score > s || (score == s && c < b)) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| format!("did you mean `{c}`?"))
}
