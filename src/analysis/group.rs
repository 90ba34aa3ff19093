//! Grouping of findings at scale, and number formatting shared by the QoS passes.
//!
//! At 100k GPUs one bad class line touches ~540,000 ports. The passes record every instance
//! of a problem under a key — the span of the value that caused it plus a cause string (the
//! numbers involved) — and emit one diagnostic per key, naming the first place and counting
//! the rest. Memory per group is bounded: only the first [`SHOWN`] place names are kept.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
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

/// `91476` → `91,476`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `91476` → `91,476 B`.
pub fn bytes(n: u64) -> String {
    format!("{} B", thousands(n))
}

/// Millimetres as metres: `30000` → `30 m`, `2500` → `2.5 m`.
pub fn metres(mm: u64) -> String {
    format!("{} m", metres_number(mm))
}

/// Millimetres as a metre number without unit: `30`, `2.5`, `0.125`.
pub fn metres_number(mm: u64) -> String {
    if mm.is_multiple_of(1_000) {
        (mm / 1_000).to_string()
    } else {
        let s = format!("{}.{:03}", mm / 1_000, mm % 1_000);
        s.trim_end_matches('0').to_string()
    }
}

/// Mb/s as a link speed: `400000` → `400G`, `2500` → `2.5G`.
pub fn speed(mbps: u64) -> String {
    if mbps.is_multiple_of(1_000) {
        format!("{}G", mbps / 1_000)
    } else {
        format!("{}G", mbps as f64 / 1_000.0)
    }
}

/// Nanoseconds as a readable time: `8000` → `8 µs`, `8660` → `8.66 µs`.
pub fn time(ns: u64) -> String {
    if ns.is_multiple_of(1_000) {
        format!("{} µs", ns / 1_000)
    } else {
        let s = format!("{}.{:03}", ns / 1_000, ns % 1_000);
        format!("{} µs", s.trim_end_matches('0'))
    }
}

/// Thousandths of a percent: `100000` → `100%`, `7500` → `7.5%`.
pub fn percent(thousandths: u64) -> String {
    if thousandths.is_multiple_of(1_000) {
        format!("{}%", thousandths / 1_000)
    } else {
        let s = format!("{}.{:03}", thousandths / 1_000, thousandths % 1_000);
        format!("{}%", s.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(91_476), "91,476");
        assert_eq!(thousands(64_000_000), "64,000,000");
        assert_eq!(metres(30_000), "30 m");
        assert_eq!(metres(2_500), "2.5 m");
        assert_eq!(metres(125), "0.125 m");
        assert_eq!(speed(400_000), "400G");
        assert_eq!(time(8_660), "8.66 µs");
        assert_eq!(percent(7_500), "7.5%");
    }

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
