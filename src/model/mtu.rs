//! The MTUs every pass agrees on, as methods of the model: a switch port's MTU and the host
//! netdev MTU.
//!
//! MTU allowance: a RoCEv2 frame of `roce-mtu` payload carries at most
//! IPv6 40 + UDP 8 + BTH 12 + RETH 16 + ImmDt 4 + ICRC 4 = 84 B of headers above the payload
//! (IPv4: 64 B). NVIDIA's KB ("MTU considerations for RoCE based applications") sets the netdev
//! MTU to 4200 for an active MTU of 4096, 104 B above it; fabricc uses that allowance
//! ([`ROCE_HEADER_ALLOWANCE`]): the host netdev MTU is `roce-mtu + 104` (what the host script
//! sets, so the NIC hop fits by construction) and every switch port MTU must be at least that.
//!
//! The headroom plan (the sender's largest frame), the QoS plan (FAB508) and lowering (the
//! MTUs written) all read these, so they belong to the model rather than to any one pass.

use super::{Bytes, Fabric, Sourced, SwitchId};

/// Bytes of RoCEv2 headers allowed above `roce-mtu` (NVIDIA: netdev MTU 4200 for 4096).
pub const ROCE_HEADER_ALLOWANCE: u64 = 104;

impl Fabric {
    /// The netdev MTU of every host NIC: `roce-mtu` + [`ROCE_HEADER_ALLOWANCE`].
    pub fn host_netdev_mtu(&self) -> u64 {
        self.roce_mtu.value.get() + ROCE_HEADER_ALLOWANCE
    }

    /// Switch `s`'s port MTU: its `mtu` override, else the fabric's.
    pub fn port_mtu(&self, s: SwitchId) -> Sourced<Bytes> {
        self.switch(s).mtu.unwrap_or(self.mtu)
    }
}
