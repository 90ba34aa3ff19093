//! Wall time per stage of one command, for `--timings`: where a big build spends its seconds.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Laps of a stopwatch: each `lap` records the time since the previous one (or the start).
#[derive(Debug)]
pub struct Timings {
    start: Instant,
    laps: Mutex<(Instant, Vec<(&'static str, Duration)>)>,
    /// Work that ran beside other work inside a stage: (the stage it ends in, name, time).
    parts: Mutex<Vec<(usize, &'static str, Duration)>>,
}

impl Default for Timings {
    fn default() -> Self {
        Self::new()
    }
}

impl Timings {
    pub fn new() -> Timings {
        let now = Instant::now();
        Timings {
            start: now,
            laps: Mutex::new((now, Vec::new())),
            parts: Mutex::new(Vec::new()),
        }
    }

    /// Ends the stage `name` now.
    pub fn lap(&self, name: &'static str) {
        let now = Instant::now();
        let mut laps = self.laps.lock().unwrap_or_else(|p| p.into_inner());
        let since = now - laps.0;
        laps.0 = now;
        laps.1.push((name, since));
    }

    /// Records `took` for `name`, work that ran in parallel with other work of the stage now
    /// under way: printed under that stage, indented, and not added to the total.
    pub fn part(&self, name: &'static str, took: Duration) {
        let stage = self.laps.lock().unwrap_or_else(|p| p.into_inner()).1.len();
        self.parts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((stage, name, took));
    }

    /// One line per stage and the total, aligned: `  render + output   3.214 s`; the parts of
    /// a stage follow it, indented.
    pub fn table(&self) -> String {
        let laps = self.laps.lock().unwrap_or_else(|p| p.into_inner());
        let parts = self.parts.lock().unwrap_or_else(|p| p.into_inner());
        let width = laps
            .1
            .iter()
            .map(|(n, _)| n.len())
            .chain(parts.iter().map(|(_, n, _)| n.len() + 2))
            .max()
            .unwrap_or(0)
            .max(5);
        let mut out = String::from("timings:\n");
        for (i, (name, d)) in laps.1.iter().enumerate() {
            let _ = writeln!(out, "  {name:<width$}  {:>8.3} s", d.as_secs_f64());
            for (_, part, took) in parts.iter().filter(|(s, _, _)| *s == i) {
                let part = format!("  {part}");
                let _ = writeln!(out, "  {part:<width$}  {:>8.3} s", took.as_secs_f64());
            }
        }
        let total = laps.0 - self.start;
        let _ = writeln!(out, "  {:<width$}  {:>8.3} s", "total", total.as_secs_f64());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_add_up_to_the_total() {
        let t = Timings::new();
        std::thread::sleep(Duration::from_millis(5));
        t.lap("first");
        t.lap("second");
        let table = t.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[1].trim_start().starts_with("first "), "{table}");
        assert!(lines[2].trim_start().starts_with("second"), "{table}");
        let secs = |l: &str| -> f64 {
            l.split_whitespace()
                .rev()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .unwrap_or(-1.0)
        };
        assert!(secs(lines[1]) >= 0.005, "{table}");
        assert!(
            (secs(lines[1]) + secs(lines[2]) - secs(lines[3])).abs() < 0.002,
            "{table}"
        );
    }

    /// A part is printed under the stage it ran in and is not added to the total.
    #[test]
    fn parts_are_shown_under_their_stage() {
        let t = Timings::new();
        t.part("proof", Duration::from_millis(7));
        t.lap("analyse");
        t.lap("lower");
        let table = t.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5, "{table}");
        assert!(lines[1].trim_start().starts_with("analyse"), "{table}");
        assert!(lines[2].starts_with("    proof"), "{table}");
        assert!(lines[2].trim_end().ends_with("0.007 s"), "{table}");
        assert!(lines[3].trim_start().starts_with("lower"), "{table}");
    }
}
