//! NVIDIA Spectrum's rows of SONiC's ASIC table, in the units of SONiC's Mellanox headroom
//! formula (`analysis::physics::sonic_headroom`): a vendor fact per ASIC generation, from
//! `sonic-net/sonic-buildimage@086b03bd70f9:platform/mellanox/asic_table.j2`. It lives in the
//! catalogue, which reads a platform's own row into it (`Platform::sonic_headroom_constants`),
//! below the analysis that computes with it.

/// `asic_table.j2` constants. Latencies are in thousandths of a KiB as the table writes
/// them in KiB with one decimal (`0.8` → 800); the Lua multiplies them by 1024.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsicConstants {
    pub cell_bytes: u64,
    /// Added to `xoff` (Spectrum-6: 18,432 B).
    pub extra_xoff_bytes: u64,
    pub mac_phy_delay_milli_kib: u64,
    /// Used only at speeds missing from the pause-quanta table.
    pub peer_response_time_milli_kib: u64,
    pub pipeline_latency_milli_kib: u64,
    /// Spectrum-4/-5 add `speed/1000·120/8` bytes on tile.
    pub tile_term: bool,
}

/// The Spectrum generations of `asic_table.j2`. Where this table gives only the cell (and, for
/// Spectrum-6, the pipeline latency and the extra xoff), the Spectrum-1 latencies are kept;
/// platforms of the catalogue read their own row (`Platform::sonic_headroom_constants`).
/// Test support (unit tests and analysis/physics/properties.rs), not the product's: the product reads a
/// platform's row.
#[cfg(any(test, feature = "internals"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Spectrum {
    Spectrum1,
    Spectrum2,
    Spectrum3,
    Spectrum4,
    Spectrum5,
    Spectrum6,
}

#[cfg(any(test, feature = "internals"))]
impl Spectrum {
    /// For the physics properties' proptest (`analysis/physics/properties.rs`).
    pub const ALL: [Spectrum; 6] = [
        Spectrum::Spectrum1,
        Spectrum::Spectrum2,
        Spectrum::Spectrum3,
        Spectrum::Spectrum4,
        Spectrum::Spectrum5,
        Spectrum::Spectrum6,
    ];

    pub fn constants(self) -> AsicConstants {
        let base = AsicConstants {
            cell_bytes: 96,
            extra_xoff_bytes: 0,
            mac_phy_delay_milli_kib: 800,
            peer_response_time_milli_kib: 3_800,
            pipeline_latency_milli_kib: 19_000,
            tile_term: false,
        };
        match self {
            Spectrum::Spectrum1 => base,
            Spectrum::Spectrum2 | Spectrum::Spectrum3 => AsicConstants {
                cell_bytes: 144,
                ..base
            },
            Spectrum::Spectrum4 | Spectrum::Spectrum5 => AsicConstants {
                cell_bytes: 192,
                tile_term: true,
                ..base
            },
            Spectrum::Spectrum6 => AsicConstants {
                cell_bytes: 256,
                extra_xoff_bytes: 18_432,
                pipeline_latency_milli_kib: 42_000,
                ..base
            },
        }
    }
}
