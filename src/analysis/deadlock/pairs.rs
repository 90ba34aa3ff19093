//! Unreachable endpoint pairs, counted in full but kept only up to a budget: a fabric cut in
//! two halves of 5,000 hosts has 50 million ordered pairs without a route, and a list of them
//! (hundreds of MB, per failure scenario) would cost more than the proof. The count is exact;
//! the pairs kept are the smallest in (source, destination) order, so the listing is
//! deterministic and its head is the same whatever the budget. Pairs come in products (every
//! source of a class times every endpoint of a destination group), counted without being
//! expanded: a NIC cut off a 100,000-GPU fabric is 200,000 pairs in one scenario.

use std::collections::BinaryHeap;
use std::ops::Range;

#[derive(Debug)]
pub struct PairSample {
    keep: usize,
    total: u64,
    /// The `keep` smallest pairs seen, largest on top.
    kept: BinaryHeap<(u32, u32)>,
}

impl PairSample {
    pub fn new(keep: usize) -> Self {
        Self {
            keep,
            total: 0,
            kept: BinaryHeap::with_capacity(keep.min(4096)),
        }
    }

    /// Counts one pair. Callers hand each pair at most once. The product counts products
    /// (`push_product`); the tests below count pair by pair to check it.
    #[cfg(test)]
    pub fn push(&mut self, pair: (u32, u32)) {
        self.total += 1;
        if self.kept.len() < self.keep {
            self.kept.push(pair);
        } else if self.kept.peek().is_some_and(|&top| pair < top) {
            self.kept.pop();
            self.kept.push(pair);
        }
    }

    /// Counts every pair of `src` × `dst` (both sorted) whose ends are not of one host:
    /// `host(x)` is the range of endpoints of `x`'s host (endpoints are numbered host by
    /// host). Only the pairs that can still enter the kept set are looked at.
    pub fn push_product(&mut self, src: &[u32], dst: &[u32], host: impl Fn(u32) -> Range<u32>) {
        if src.is_empty() || dst.is_empty() {
            return;
        }
        let within = |v: &[u32], r: Range<u32>| {
            (v.partition_point(|&x| x < r.end) - v.partition_point(|&x| x < r.start)) as u64
        };
        let same: u64 = if src.len() <= dst.len() {
            src.iter().map(|&a| within(dst, host(a))).sum()
        } else {
            dst.iter().map(|&b| within(src, host(b))).sum()
        };
        self.total = self
            .total
            .saturating_add((src.len() as u64 * dst.len() as u64).saturating_sub(same));
        if self.keep == 0 {
            return;
        }
        for &a in src {
            let full = self.kept.len() >= self.keep;
            if full && self.kept.peek().is_some_and(|&top| (a, 0) > top) {
                break;
            }
            let own = host(a);
            for &b in dst {
                if own.contains(&b) {
                    continue;
                }
                if self.kept.len() >= self.keep {
                    match self.kept.peek() {
                        Some(&top) if (a, b) < top => {
                            self.kept.pop();
                        }
                        _ => break,
                    }
                }
                self.kept.push((a, b));
            }
        }
    }

    /// The kept pairs, sorted, and the count of all pairs.
    pub fn finish(self) -> (Vec<(u32, u32)>, u64) {
        (self.kept.into_sorted_vec(), self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_smallest_and_counts_all() {
        let mut s = PairSample::new(3);
        for p in [(5, 1), (1, 2), (9, 9), (1, 1), (3, 0), (2, 7)] {
            s.push(p);
        }
        assert_eq!(s.finish(), (vec![(1, 1), (1, 2), (2, 7)], 6));
        let mut none = PairSample::new(0);
        none.push((1, 1));
        assert_eq!(none.finish(), (vec![], 1));
    }

    /// A product counts and keeps exactly what pushing its pairs one by one would.
    #[test]
    fn a_product_is_its_pairs() {
        // Endpoints 0..2 are one host, 2..5 another, 5..6 a third.
        let host = |x: u32| match x {
            0..2 => 0..2,
            2..5 => 2..5,
            _ => 5..6,
        };
        let src = [0, 1, 3, 5];
        let dst = [1, 2, 4, 5];
        for keep in 0..8 {
            let mut fast = PairSample::new(keep);
            fast.push_product(&src, &dst, host);
            fast.push_product(&[4], &[0, 3], host);
            let mut slow = PairSample::new(keep);
            for (s, d) in [(&src[..], &dst[..]), (&[4][..], &[0, 3][..])] {
                for &a in s {
                    for &b in d {
                        if !host(a).contains(&b) {
                            slow.push((a, b));
                        }
                    }
                }
            }
            assert_eq!(fast.finish(), slow.finish(), "keep {keep}");
        }
    }
}
