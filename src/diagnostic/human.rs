//! Human output: diagnostics drawn with miette's graphical handler, for a terminal.
//!
//! In: sorted `Diagnostic`s and the `Sources` their spans point into. Out: one `String` with
//! every report (code, severity, message, the deadlock cycle, source snippet with labels,
//! help, notes, and a pointer to `fabricc explain`), plus a `summary` line helper.
//!
//! Our `Diagnostic` stays plain data; `Report` adapts one of them to `miette::Diagnostic` only
//! for the time it takes to draw it, so machine formats never depend on miette.

use std::fmt::{self, Write as _};

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

use super::{CycleHop, Diagnostic, Label, Severity};
use crate::source::{SourceFile, Sources};

/// How to draw: colours on or off, and the terminal width to wrap at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HumanStyle {
    pub color: bool,
    pub width: usize,
}

impl Default for HumanStyle {
    fn default() -> Self {
        Self {
            color: false,
            width: 80,
        }
    }
}

/// Render every diagnostic, in the order given, separated by blank lines.
pub fn render_human(diags: &[Diagnostic], sources: &Sources, style: HumanStyle) -> String {
    let mut out = String::new();
    for (i, diag) in diags.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_one(&mut out, diag, sources, style);
    }
    out
}

/// What a terminal shows by default: every error and warning in full, and the advice only when
/// asked (`--advice`). Advice is what the user need not act on; a healthy fabric that drew
/// every one of them printed a hundred lines nobody reads (G1, U3). `summary_terse` then names
/// the codes that were left out.
pub fn render_human_terse(
    diags: &[Diagnostic],
    sources: &Sources,
    style: HumanStyle,
    advice: bool,
) -> String {
    if advice {
        return render_human(diags, sources, style);
    }
    let shown: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| d.severity != Severity::Advice)
        .cloned()
        .collect();
    render_human(&shown, sources, style)
}

/// `summary`, and when the advice was not drawn, its codes and how to see them:
/// "5 advice (FAB905 ×2, FAB907 ×2, FAB920), not shown: `--advice` prints them".
pub fn summary_terse(diags: &[Diagnostic], advice_shown: bool) -> String {
    let mut s = summary(diags);
    let mut codes: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for d in diags.iter().filter(|d| d.severity == Severity::Advice) {
        *codes.entry(d.code.as_str()).or_default() += 1;
    }
    if advice_shown || codes.is_empty() {
        return s;
    }
    let list: Vec<String> = codes
        .iter()
        .map(|(c, n)| {
            if *n == 1 {
                (*c).to_string()
            } else {
                format!("{c} ×{n}")
            }
        })
        .collect();
    let _ = write!(
        s,
        " ({}), not shown: `--advice` prints them",
        list.join(", ")
    );
    s
}

/// "2 errors, 1 warning", "1 error, 3 advice", or "no findings".
pub fn summary(diags: &[Diagnostic]) -> String {
    let count = |severity| diags.iter().filter(|d| d.severity == severity).count();
    let parts: Vec<String> = [
        (count(Severity::Error), "error", "errors"),
        (count(Severity::Warning), "warning", "warnings"),
        // "advice" is uncountable: "2 advice" reads as the severity name, like the JSON field.
        (count(Severity::Advice), "advice", "advice"),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
    .collect();
    if parts.is_empty() {
        "no findings".to_string()
    } else {
        parts.join(", ")
    }
}

/// A deadlock witness as one line: `L2 ←S1 (p3) → S1 ←L2 (p3) → back to L2`.
///
/// Each hop is an ingress queue: the switch, `←` the neighbour it receives from, and the
/// priority. The last arrow closes the loop so the reader sees it is a cycle.
pub fn cycle_chain(cycle: &[CycleHop]) -> String {
    let mut out = String::new();
    for (i, hop) in cycle.iter().enumerate() {
        if i > 0 {
            out.push_str(" → ");
        }
        let _ = write!(out, "{} ←{} (p{})", hop.switch, hop.from, hop.priority);
    }
    if let Some(first) = cycle.first() {
        let _ = write!(out, " → back to {}", first.switch);
    }
    out
}

fn render_one(out: &mut String, diag: &Diagnostic, sources: &Sources, style: HumanStyle) {
    let file = sources.get(diag.primary.span.file);
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };

    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
        .with_urls(false)
        .without_syntax_highlighting();
    let report = Report::new(diag, file);
    // Writing into a String cannot fail; a miette error here would be a bug in miette.
    if handler.render_report(out, &report).is_err() {
        let _ = writeln!(out, "{}: {}", diag.code, printable(&diag.message));
    }

    // miette has no notes, and a label in another file cannot share this file's snippet:
    // both follow the report as `note:` lines. They are not wrapped, so a long computed
    // value stays on one line for copy and paste, as rustc does with its notes.
    for label in diag
        .secondary
        .iter()
        .filter(|l| l.span.file != diag.primary.span.file)
    {
        let other = sources.get(label.span.file);
        let at = other.line_col(label.span.start as usize);
        let _ = writeln!(
            out,
            "  note: {}:{}:{}: {}",
            printable(&other.display),
            at.line,
            at.column,
            printable(&label.text)
        );
    }
    for note in &diag.notes {
        let _ = writeln!(out, "  note: {}", printable(note));
    }
    let _ = writeln!(out, "  run `fabricc explain {}` for details", diag.code);
}

/// Text as it may reach a terminal: control characters other than a line break are
/// written as escapes, so a name or string from the source cannot move the cursor or
/// change colours.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
/// One `Diagnostic` seen through `miette::Diagnostic`.
struct Report<'a> {
    diag: &'a Diagnostic,
    source: FileSource<'a>,
    /// The message, with the deadlock cycle under it when there is one.
    headline: String,
    help: Option<String>,
}

impl<'a> Report<'a> {
    fn new(diag: &'a Diagnostic, file: &'a SourceFile) -> Self {
        let mut headline = printable(&diag.message);
        if let Some(cycle) = diag.cycle.as_deref().filter(|c| !c.is_empty()) {
            let _ = write!(headline, "\ncycle: {}", cycle_chain(cycle));
        }
        let help = diag.help.as_deref().map(printable);
        Self {
            diag,
            source: FileSource {
                file,
                text: drawable(&file.text),
            },
            headline,
            help,
        }
    }

    fn labeled(&self, label: &Label, primary: bool) -> LabeledSpan {
        let span = self
            .source
            .clamp(label.span.start as usize, label.span.end as usize);
        let text = (!label.text.is_empty()).then(|| printable(&label.text));
        if primary {
            LabeledSpan::new_primary_with_span(text, span)
        } else {
            LabeledSpan::new_with_span(text, span)
        }
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diag, f)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diag.code.as_str()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Advice => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_deref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'b>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let file = self.diag.primary.span.file;
        let primary = std::iter::once(self.labeled(&self.diag.primary, true));
        let secondary = self
            .diag
            .secondary
            .iter()
            .filter(move |l| l.span.file == file)
            .map(|l| self.labeled(l, false));
        Some(Box::new(primary.chain(secondary)))
    }
}

/// A source file as miette's `SourceCode`, named by its display path.
#[derive(Debug)]
struct FileSource<'a> {
    file: &'a SourceFile,
    /// The text with C0 control characters (but tab and line breaks) shown as `?`: the same
    /// byte offsets, and no raw control byte ever reaches a terminal or a snapshot.
    text: std::borrow::Cow<'a, str>,
}

fn drawable(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_ascii_control() && !matches!(c, '\n' | '\r' | '\t');
    if text.contains(bad) {
        std::borrow::Cow::Owned(text.replace(bad, "?"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

impl FileSource<'_> {
    /// A span that is safe to draw: inside the text and on character boundaries, so a
    /// wrong span from a buggy pass still renders instead of failing the whole report.
    ///
    /// miette draws no label for an empty span at the very end of the text (where "unexpected
    /// end of file" points), so such a span is moved onto the last visible character.
    fn clamp(&self, start: usize, end: usize) -> SourceSpan {
        let text = &self.file.text;
        let floor = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (start, end) = (floor(start), floor(end.max(start)));
        let last_visible = text.char_indices().rev().find(|(_, c)| !c.is_whitespace());
        if let Some((last, c)) = last_visible.filter(|_| start == text.len()) {
            return SourceSpan::new(last.into(), c.len_utf8());
        }
        SourceSpan::new(start.into(), end - start)
    }
}

impl SourceCode for FileSource<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let inner =
            self.text
                .as_ref()
                .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            printable(&self.file.display),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}
