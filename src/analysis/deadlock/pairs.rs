//! Unreachable host pairs, counted in full but kept only up to a budget: a fabric cut in two
//! halves of 5,000 hosts has 50 million ordered pairs without a route, and a list of them
//! (hundreds of MB, per failure scenario) would cost more than the proof. The count is exact;
//! the pairs kept are the smallest in (source, destination) order, so the listing is
//! deterministic and its head is the same whatever the budget.

use std::collections::BinaryHeap;

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

    /// Counts one pair. Callers hand each pair at most once.
    pub fn push(&mut self, pair: (u32, u32)) {
        self.total += 1;
        if self.kept.len() < self.keep {
            self.kept.push(pair);
        } else if self.kept.peek().is_some_and(|&top| pair < top) {
            self.kept.pop();
            self.kept.push(pair);
        }
    }

    pub fn total(&self) -> u64 {
        self.total
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
}
