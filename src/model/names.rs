//! Names: expanding patterns (`gpu[001..256]`, `p[1..2]-leaf[1..8]`), the natural order that
//! sorts `gpu2` before `gpu10`, and the identifier rule every name reaching an output obeys.

use std::cmp::Ordering;

use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast::{NamePattern, Segment};

/// How many names a pattern expands to (saturating).
pub fn count(pattern: &NamePattern) -> u64 {
    pattern.segments.iter().fold(1u64, |acc, s| match s {
        Segment::Text(_) => acc,
        Segment::Range(items) => {
            let n = items
                .iter()
                .fold(0u64, |a, i| a.saturating_add(i.hi.saturating_sub(i.lo) + 1));
            acc.saturating_mul(n)
        }
    })
}

/// Every name of a pattern, in order (the last range varies fastest).
pub fn expand(pattern: &NamePattern, max: u64) -> Result<Vec<String>, Diagnostic> {
    let n = count(pattern);
    if n > max {
        return Err(Diagnostic::new(
            Code::LimitExceeded,
            pattern.span,
            format!(
                "`{}` expands to {n} names, more than the limit of {max}",
                crate::syntax::printer::pattern(pattern)
            ),
        )
        .label("this pattern")
        .help("split the fabric, or raise the limit with `--max-range`"));
    }
    let mut out = vec![String::new()];
    for seg in &pattern.segments {
        match seg {
            Segment::Text(t) => out.iter_mut().for_each(|s| s.push_str(t)),
            Segment::Range(items) => {
                let mut next = Vec::with_capacity(out.len().saturating_mul(4));
                for prefix in &out {
                    for item in items {
                        for v in item.lo..=item.hi {
                            next.push(format!("{prefix}{v:0width$}", width = item.width));
                        }
                    }
                }
                out = next;
            }
        }
    }
    Ok(out)
}

/// The identifier rule: `[A-Za-z_][A-Za-z0-9_.-]*`. Only such names reach configs and paths.
pub use crate::syntax::bounds::is_name as is_identifier;

/// Natural order: digit runs compare by value, so `gpu2 < gpu10`; ties break bytewise.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < ab.len() && j < bb.len() {
        if ab[i].is_ascii_digit() && bb[j].is_ascii_digit() {
            let si = i;
            while i < ab.len() && ab[i].is_ascii_digit() {
                i += 1;
            }
            let sj = j;
            while j < bb.len() && bb[j].is_ascii_digit() {
                j += 1;
            }
            let (da, db) = (trim_zeros(&ab[si..i]), trim_zeros(&bb[sj..j]));
            let ord = da.len().cmp(&db.len()).then_with(|| da.cmp(db));
            if ord != Ordering::Equal {
                return ord;
            }
        } else {
            if ab[i] != bb[j] {
                return ab[i].cmp(&bb[j]);
            }
            i += 1;
            j += 1;
        }
    }
    (ab.len() - i).cmp(&(bb.len() - j)).then_with(|| a.cmp(b))
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let first = d.iter().position(|&c| c != b'0').unwrap_or(d.len());
    &d[first..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;
    use crate::syntax::ast::RangeItem;

    fn pat(segments: Vec<Segment>) -> NamePattern {
        NamePattern {
            segments,
            span: Span::default(),
        }
    }

    fn text(s: &str) -> Segment {
        Segment::Text(s.to_string())
    }

    fn range(lo: u64, hi: u64, width: usize) -> Segment {
        Segment::Range(vec![RangeItem { lo, hi, width }])
    }

    #[test]
    fn expands_with_padding_and_products() {
        let p = pat(vec![text("gpu"), range(1, 3, 3)]);
        assert_eq!(expand(&p, 100).unwrap(), ["gpu001", "gpu002", "gpu003"]);
        let p = pat(vec![
            text("p"),
            range(1, 2, 0),
            text("-leaf"),
            range(1, 2, 0),
        ]);
        assert_eq!(
            expand(&p, 100).unwrap(),
            ["p1-leaf1", "p1-leaf2", "p2-leaf1", "p2-leaf2"]
        );
        assert_eq!(count(&p), 4);
    }

    #[test]
    fn refuses_huge_ranges_before_allocating() {
        let p = pat(vec![
            text("h"),
            range(0, u64::MAX - 1, 0),
            text("x"),
            range(1, 1000, 0),
        ]);
        let err = expand(&p, 1_000_000).unwrap_err();
        assert_eq!(err.code, Code::LimitExceeded);
    }

    #[test]
    fn natural_order() {
        let mut v = vec![
            "gpu10",
            "gpu2",
            "gpu1",
            "a",
            "gpu02",
            "leaf-1-10",
            "leaf-1-9",
        ];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            [
                "a",
                "gpu1",
                "gpu02",
                "gpu2",
                "gpu10",
                "leaf-1-9",
                "leaf-1-10"
            ]
        );
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier("leaf-1.a_b"));
        assert!(!is_identifier("1leaf"));
        assert!(!is_identifier("a b"));
        assert!(!is_identifier("a\nb"));
        assert!(!is_identifier("../x"));
        assert!(!is_identifier(""));
    }
}
