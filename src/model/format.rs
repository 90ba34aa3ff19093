//! The one place numbers become text for people: findings, the report and the CLI write
//! bytes, lengths, speeds, times and percentages the same way everywhere (`91,476 B`,
//! `2.5 m`, `400G`, `8.66 µs`, `7.5%`). Only formatting: no rounding decisions live here.

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
}
