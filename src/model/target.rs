//! What the model records about a device's target beyond its OS: the OS release
//! (`os cumulus 5.14`) and the NIC driver of a host. The model resolves them, the analysis
//! reads them and the render step writes them, so they belong to the model.

use serde::Serialize;

/// A network OS release, `major.minor` (`5.14`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Release {
    pub major: u16,
    pub minor: u16,
}

impl Release {
    pub const fn new(major: u16, minor: u16) -> Release {
        Release { major, minor }
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

// The releases `os cumulus RELEASE` and `os eos RELEASE` accept: the model checks them, the
// views (`render::cumulus`, `render::eos`) default to the newest.

/// The oldest release fabricc writes NVUE QoS for: the `qos mapping`, `pfc`,
/// `congestion-control`, `egress-scheduler` and `traffic-pool` trees appeared in 5.3.0.
pub const CUMULUS_OLDEST: Release = Release::new(5, 3);
/// The newest release whose NVUE reference was read; the default.
pub const CUMULUS_NEWEST: Release = Release::new(5, 17);

/// The newest EOS release whose configuration model was read (AVD 6.4 follows EOS 4.35,
/// aristanetworks/avd#6318); the default of `os eos`.
pub const EOS_NEWEST: Release = Release::new(4, 35);
/// The oldest release `os eos RELEASE` takes: fabricc's EOS lines need nothing older that a
/// public source pins, so this is only a sanity bound on the number.
pub const EOS_OLDEST: Release = Release::new(4, 0);

/// The NIC driver a host script is written for: one script template and view per driver.
/// The facts behind each (defaults, what the script can set) are `analysis::nic_drivers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NicDriver {
    /// NVIDIA ConnectX (`mlx5_core`/`mlx5_ib`): `mlnx_qos`, sysfs/debugfs.
    Mlx5,
    /// Broadcom NetXtreme-E/Thor (`bnxt_en`/`bnxt_re`): DCBNL through iproute2 `dcb`, CNP and
    /// congestion control through Broadcom's `bnxt_re` configfs.
    Bnxt,
    /// Intel E810 (`ice`/`irdma`): DCBNL through `dcb` with the firmware LLDP agent off.
    Ice,
    /// Any DCBNL-capable NIC: iproute2 `dcb` only.
    Dcb,
    /// HiSilicon HNS3 (`hns3`/`hns_roce_hw_v2`): DCBNL through `dcb`, with the hns3 limits
    /// (contiguous TCs, no ETS share of 0).
    Hns,
    /// Huawei Ascend NPU RoCE ports: `hccn_tool -i <device>` on the NPU, no host netdev.
    Hccn,
}

impl NicDriver {
    /// Every driver, in the order the language lists them.
    pub const ALL: [NicDriver; 6] = [
        NicDriver::Mlx5,
        NicDriver::Bnxt,
        NicDriver::Ice,
        NicDriver::Dcb,
        NicDriver::Hns,
        NicDriver::Hccn,
    ];

    /// The `driver` name of a NIC model.
    pub fn from_model(name: &str) -> Option<NicDriver> {
        NicDriver::ALL.into_iter().find(|d| d.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            NicDriver::Mlx5 => "mlx5",
            NicDriver::Bnxt => "bnxt",
            NicDriver::Ice => "ice",
            NicDriver::Dcb => "dcb",
            NicDriver::Hns => "hns",
            NicDriver::Hccn => "hccn",
        }
    }
}
