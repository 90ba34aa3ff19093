//! Grouping of findings at scale (the number formats are `model::format`'s).
//!
//! At 100k GPUs one bad class line touches ~540,000 ports. The passes record every instance
//! of a problem under a key — the span of the value that caused it plus a cause string (the
//! numbers involved) — and emit one diagnostic per key, naming the first place and counting
//! the rest. Memory per group is bounded: only the first [`SHOWN`] place names are kept.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
// The number formats live in the one formatting module; the QoS passes name them from here.
pub use crate::model::format::{bytes, metres, metres_number, percent, speed, thousands, time};
use crate::span::Span;

/// How many place names a finding lists before it only counts.
pub const SHOWN: usize = 4;

/// The places one grouped finding applies to.
#[derive(Debug, Clone, Default)]
pub struct Places {
    pub count: usize,
    pub names: Vec<String>,
}

impl Places {
    /// `` `leaf1.port3` `` or `` `leaf1.port3` and 511 more ``.
    pub fn subject(&self) -> String {
        let first = self.names.first().map_or("?", String::as_str);
        match self.count {
            0 | 1 => format!("`{first}`"),
            n => format!("`{first}` (and {} more)", thousands(n as u64 - 1)),
        }
    }

    /// A note listing a few places, when there is more than one.
    pub fn note(&self, what: &str) -> Option<String> {
        if self.count < 2 {
            return None;
        }
        let shown = self
            .names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let more = if self.count > self.names.len() {
            ", …"
        } else {
            ""
        };
        Some(format!(
            "{} {what}: {shown}{more}",
            thousands(self.count as u64)
        ))
    }
}

/// Instances of findings, grouped by (cause span, cause key).
#[derive(Debug)]
pub struct Grouped<P> {
    groups: BTreeMap<(Span, String), (P, Places)>,
}

impl<P> Default for Grouped<P> {
    fn default() -> Self {
        Self {
            groups: BTreeMap::new(),
        }
    }
}

impl<P> Grouped<P> {
    /// Records one instance; `payload` is kept for the first instance of a group only.
    pub fn add(
        &mut self,
        span: Span,
        key: String,
        place: impl FnOnce() -> String,
        payload: impl FnOnce() -> P,
    ) {
        let (_, places) = self
            .groups
            .entry((span, key))
            .or_insert_with(|| (payload(), Places::default()));
        places.count += 1;
        if places.names.len() < SHOWN {
            places.names.push(place());
        }
    }

    /// One diagnostic per group, in (span, key) order.
    pub fn finish(
        self,
        diags: &mut Vec<Diagnostic>,
        mut build: impl FnMut(Span, P, &Places) -> Diagnostic,
    ) {
        for ((span, _), (payload, places)) in self.groups {
            diags.push(build(span, payload, &places));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_count_and_keep_a_few_names() {
        let mut g: Grouped<u32> = Grouped::default();
        for i in 0..10 {
            g.add(Span::default(), "k".into(), || format!("p{i}"), || i);
        }
        let mut out = Vec::new();
        g.finish(&mut out, |span, first, places| {
            assert_eq!(first, 0);
            assert_eq!(places.count, 10);
            assert_eq!(places.names.len(), SHOWN);
            assert_eq!(places.subject(), "`p0` (and 9 more)");
            Diagnostic::new(crate::diagnostic::Code::Isolated, span, "x")
        });
        assert_eq!(out.len(), 1);
    }
}
