//! How the imported `.fab` spells what it states: names, sizes, lengths, lists, the words of
//! a scheduler and a watchdog, and the text being written with the origin of each line. Every
//! writer step (`classes.rs`, `write.rs`, `routes.rs`, `models.rs`) and the reader of the
//! state directory (`mod.rs`, for names) share them.

use super::deployed::{Ev, Sched, Watchdog};

/// A NAME of the language from any text: other characters become `-`, and a name must start
/// with a letter or `_`.
pub fn sanitize_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out.truncate(200);
    out
}

/// A comment's text on one line, without control characters.
pub(super) fn comment_text(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Bytes as the shortest exact size.
pub fn size(b: u64) -> String {
    if b > 0 && b.is_multiple_of(1_000_000) {
        format!("{}MB", b / 1_000_000)
    } else if b > 0 && b.is_multiple_of(1000) {
        format!("{}KB", b / 1000)
    } else {
        format!("{b}B")
    }
}

pub(super) fn length(mm: u64) -> String {
    crate::output::cabling::length(mm)
}

pub(super) fn list(v: &[u8]) -> String {
    v.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// The `.fab` text being written, with the state file and range each value line came from.
pub(super) struct Out {
    pub text: String,
    pub origins: Vec<(usize, usize, Ev)>,
    /// Byte ranges of per-device override blocks and routes.
    pub device_lines: Vec<(usize, usize)>,
}

impl Out {
    pub fn line(&mut self, indent: usize, s: &str, from: Option<Ev>) {
        if s.is_empty() && (self.text.ends_with("\n\n") || self.text.ends_with("{\n")) {
            return;
        }
        let start = self.text.len();
        for _ in 0..indent {
            self.text.push_str("  ");
        }
        self.text.push_str(s);
        let end = self.text.len();
        self.text.push('\n');
        if let Some(e) = from {
            self.origins.push((start, end, e));
        }
    }

    pub fn comment(&mut self, indent: usize, s: &str) {
        self.line(indent, &format!("# {}", comment_text(s)), None);
    }
}

pub(super) fn sched_words(s: Sched) -> String {
    match s {
        Sched::Strict => "strict".into(),
        Sched::Weight(w) => format!("bandwidth {w}%"),
    }
}

pub(super) fn watchdog_words(w: Option<Watchdog>) -> String {
    match w {
        Some(w) => format!(
            "pfc-watchdog detect {}ms  restore {}ms  action {}{}",
            w.detect_ms,
            w.restore_ms,
            w.action,
            w.poll_ms.map_or(String::new(), |p| format!("  poll {p}ms"))
        ),
        None => "pfc-watchdog off".into(),
    }
}
