//! Canonical `.fab` spellings of names and quantities (`400G`, `50us`, `leaf[01..16]`), for
//! messages that quote a value the way the user would write it. The whole-file printer that
//! the round-trip tests use is test code (`tests/it/printer.rs`); `fmt` keeps the user's
//! layout (`syntax::format`).

use std::fmt::Write as _;

use super::ast::{NamePattern, Segment, Speed, Time};

/// A name pattern as written, ranges zero-padded to their width.
pub fn pattern(p: &NamePattern) -> String {
    let mut out = String::new();
    for seg in &p.segments {
        match seg {
            Segment::Text(t) => out.push_str(t),
            Segment::Range(items) => {
                out.push('[');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    let w = item.width;
                    if item.lo == item.hi {
                        let _ = write!(out, "{:0w$}", item.lo);
                    } else {
                        let _ = write!(out, "{:0w$}..{:0w$}", item.lo, item.hi);
                    }
                }
                out.push(']');
            }
        }
    }
    out
}

/// `v / 1000` as a short decimal: `1500` → `1.5`, `2000` → `2`.
pub fn thousandths(v: u64) -> String {
    let (int, frac) = (v / 1000, v % 1000);
    if frac == 0 {
        int.to_string()
    } else {
        format!("{int}.{frac:03}").trim_end_matches('0').to_string()
    }
}

pub fn speed(s: Speed) -> String {
    format!("{}G", thousandths(s.0))
}

/// The largest unit that gives a whole number: `50us`, `200ms`, `1s`, `1500ns`.
pub fn time(t: Time) -> String {
    let ns = t.0;
    if ns == 0 {
        return "0s".into();
    }
    for (unit, factor) in [("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)] {
        if ns.is_multiple_of(factor) {
            return format!("{}{unit}", ns / factor);
        }
    }
    format!("{ns}ns")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities() {
        assert_eq!(speed(Speed(400_000)), "400G");
        assert_eq!(speed(Speed(2_500)), "2.5G");
        assert_eq!(speed(Speed(1)), "0.001G");
        assert_eq!(time(Time(50_000)), "50us");
        assert_eq!(time(Time(200_000_000)), "200ms");
        assert_eq!(time(Time(1_000_000_000)), "1s");
        assert_eq!(time(Time(1_500)), "1500ns");
        assert_eq!(time(Time(0)), "0s");
        assert_eq!(thousandths(1_067), "1.067");
    }
}
