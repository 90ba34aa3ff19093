//! The MTUs every pass agrees on: a switch port's MTU and the host netdev MTU.
//!
//! MTU allowance: a RoCEv2 frame of `roce-mtu` payload carries at most
//! IPv6 40 + UDP 8 + BTH 12 + RETH 16 + ImmDt 4 + ICRC 4 = 84 B of headers above the payload
//! (IPv4: 64 B). NVIDIA's KB ("MTU considerations for RoCE based applications") sets the netdev
//! MTU to 4200 for an active MTU of 4096, 104 B above it; fabricc uses that allowance
//! ([`ROCE_HEADER_ALLOWANCE`]): the host netdev MTU is `roce-mtu + 104` (what the host script
//! sets, so the NIC hop fits by construction) and every switch port MTU must be at least that.
//!
//! Both the headroom plan (the sender's largest frame) and the QoS plan (FAB508) read these, so
//! they live here rather than in either pass.

use crate::model::{Fabric, Sourced, SwitchId};

/// Bytes of RoCEv2 headers allowed above `roce-mtu` (NVIDIA: netdev MTU 4200 for 4096).
pub const ROCE_HEADER_ALLOWANCE: u64 = 104;

/// The netdev MTU of every host NIC: `roce-mtu` + [`ROCE_HEADER_ALLOWANCE`].
pub fn host_netdev_mtu(fabric: &Fabric) -> u64 {
    fabric.roce_mtu.value + ROCE_HEADER_ALLOWANCE
}

/// The switch's port MTU: its `mtu` override, else the fabric's.
pub fn port_mtu(fabric: &Fabric, s: SwitchId) -> Sourced<u64> {
    fabric.switch(s).mtu.unwrap_or(fabric.mtu)
}
