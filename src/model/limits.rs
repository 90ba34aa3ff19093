//! Input limits: what keeps any input from exhausting memory or time. Each limit hit is a
//! diagnostic with a span (FAB007), never an out-of-memory or a hang.

/// Bounds on what one compilation may expand to. Defaults fit a 100,000-GPU fabric with room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Names one pattern may expand to.
    pub max_range: u64,
    /// Switches plus hosts.
    pub max_devices: u64,
    /// Links (after `count` and generation).
    pub max_links: u64,
    /// Depth of nested imports.
    pub max_import_depth: usize,
    /// Bytes of one input file.
    pub max_input_bytes: u64,
    /// Distinct failure scenarios `check failures N` may prove (the deadlock proof's work
    /// bound; past it the proof stops and says so, FAB204).
    pub max_scenarios: u64,
    /// Unreachable NIC pairs listed in `facts.unreachable` (all are counted, in
    /// `facts.deadlock.unreachable_pairs`): a partitioned fabric of 10,000 hosts has 50
    /// million, which would not fit in memory as a list.
    pub max_unreachable: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_range: 1_000_000,
            max_devices: 1_000_000,
            max_links: 4_000_000,
            max_import_depth: 16,
            max_input_bytes: 64 * 1024 * 1024,
            max_scenarios: 1_000_000,
            max_unreachable: 100_000,
        }
    }
}
