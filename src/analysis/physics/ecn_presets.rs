//! Published ECN/WRED parameter sets (docs/physics.md §3, with their sources), for help texts and defaults. Bytes;
//! "KB" in the sources is 1000 B (as in the fabric language), except SONiC, which writes
//! bytes. Pmax in thousandths of a percent.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EcnPreset {
    pub kmax: u64,
    pub kmin: u64,
    pub name: &'static str,
    /// `None` where the source does not publish it.
    pub pmax: Option<u64>,
    pub source: &'static str,
    /// The link speed the set is meant for; `None` for speed-independent absolute values.
    pub speed_mbps: Option<u64>,
}

pub const ECN_PRESETS: &[EcnPreset] = &[
    EcnPreset {
        kmax: 200_000,
        kmin: 5_000,
        name: "DCQCN paper (40G)",
        pmax: Some(1_000),
        source: "Zhu et al., SIGCOMM 2015, as quoted by ECN-or-Delay (CoNEXT 2016) and HPCC",
        speed_mbps: Some(40_000),
    },
    EcnPreset {
        kmax: 400_000,
        kmin: 100_000,
        name: "HPCC dcqcn 25G",
        pmax: Some(20_000),
        source: "alibaba-edu/High-Precision-Congestion-Control@9f4be2a9ead8:simulation/run.py, scaled by C/25G",
        speed_mbps: Some(25_000),
    },
    EcnPreset {
        kmax: 1_600_000,
        kmin: 400_000,
        name: "HPCC dcqcn 100G",
        pmax: Some(20_000),
        source: "alibaba-edu/High-Precision-Congestion-Control@9f4be2a9ead8:simulation/run.py, scaled by C/25G",
        speed_mbps: Some(100_000),
    },
    EcnPreset {
        kmax: 3_200_000,
        kmin: 800_000,
        name: "HPCC dcqcn 200G",
        pmax: Some(20_000),
        source: "alibaba-edu/High-Precision-Congestion-Control@9f4be2a9ead8:simulation/run.py, scaled by C/25G",
        speed_mbps: Some(200_000),
    },
    EcnPreset {
        kmax: 6_400_000,
        kmin: 1_600_000,
        name: "HPCC dcqcn 400G",
        pmax: Some(20_000),
        source: "alibaba-edu/High-Precision-Congestion-Control@9f4be2a9ead8:simulation/run.py, scaled by C/25G",
        speed_mbps: Some(400_000),
    },
    EcnPreset {
        kmax: 1_500_000,
        kmin: 150_000,
        name: "NVIDIA Onyx roce lossless",
        pmax: None,
        source: "NVIDIA Onyx User Manual, RoCE Commands (`show roce`, TC3)",
        speed_mbps: None,
    },
    EcnPreset {
        kmax: 2_097_152,
        kmin: 1_048_576,
        name: "SONiC AZURE_LOSSLESS",
        pmax: Some(5_000),
        source: "sonic-net/sonic-buildimage@086b03bd70f9:files/build_templates/qos_config.j2 (WRED_PROFILE)",
        speed_mbps: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_sane_and_hpcc_scales_with_rate() {
        for p in ECN_PRESETS {
            assert!(p.kmin < p.kmax, "{}", p.name);
            assert!(
                p.pmax.is_none_or(|pmax| pmax > 0 && pmax <= 100_000),
                "{}",
                p.name
            );
        }
        let hpcc: Vec<_> = ECN_PRESETS
            .iter()
            .filter(|p| p.name.starts_with("HPCC"))
            .collect();
        for p in &hpcc {
            let speed = p.speed_mbps.unwrap_or(0);
            assert_eq!(p.kmin * 25_000, 100_000 * speed, "{}", p.name);
            assert_eq!(p.kmax * 25_000, 400_000 * speed, "{}", p.name);
        }
    }
}
