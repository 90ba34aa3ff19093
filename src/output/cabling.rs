//! The cabling plan: one row per link, the document a technician cables from and the
//! reference `fabricc verify` checks LLDP neighbours against.
//!
//! In: the resolved fabric. Out: `cabling.csv` (RFC 4180, a header row, LF line ends) and the
//! same rows as data ([`plan`]). Each row names both ends by the names the devices use: the
//! vendor port name on a switch (`Ethernet8`, `swp3`, `Ethernet1/4`, `et-0/0/2`) and `nicN`
//! on a host. A row is written from the end nearer the hosts (a switch before the host it
//! serves, a leaf before its spine; equal tiers by name), so a leaf's cables are one block.
//! Rows are in the fabric's device order (natural name order), then port order.
//!
//! Columns: `device, port, peer, peer_port, speed, cable, tier, peer_tier, rail, plane`.
//! `tier` is the switch's tier (1 leaf, 2 spine, 3 super-spine; empty for a host or a switch
//! without one), `rail` the rail of a host link in a rail-wired (generated) fabric, which is
//! the NIC's index (with `planes N`, the NIC's number: port k of NIC r is rail r of plane k).
//! `plane` is the independent plane (`planes N`, 1-based) the cable belongs to: the host
//! port's plane, and for a cable between switches the plane of the hosts below them; empty
//! when the fabric is one plane (issue 16 asked for rail/plane/tier where the model has them).

use std::fmt::Write as _;

use rayon::prelude::*;

use crate::lower::PortNames;
use crate::model::{DeviceId, Endpoint, Fabric, LinkId, NicRole};

/// One cable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cable {
    pub device: String,
    pub port: String,
    pub peer: String,
    pub peer_port: String,
    /// Mb/s.
    pub speed_mbps: u64,
    pub cable_mm: u64,
    pub tier: Option<u8>,
    pub peer_tier: Option<u8>,
    pub rail: Option<u32>,
    /// The plane (`planes N`, 1-based); None when the fabric is one plane.
    pub plane: Option<u32>,
    /// Whether each end is a host.
    pub device_is_host: bool,
    pub peer_is_host: bool,
}

pub const HEADER: &str = "device,port,peer,peer_port,speed,cable,tier,peer_tier,rail,plane";

/// The name a device's end of a link has on that device.
fn port_name(fabric: &Fabric, names: &PortNames<'_>, e: Endpoint) -> String {
    match e.device {
        DeviceId::Switch(s) => names.name(s, e.port),
        DeviceId::Host(h) => fabric.nic_name(h, e.port),
    }
}

fn tier(fabric: &Fabric, d: DeviceId) -> Option<u8> {
    match d {
        DeviceId::Switch(s) => fabric.switch(s).tier.map(|t| t.value),
        DeviceId::Host(_) => None,
    }
}

/// Which end a row is written from: hosts come last, then higher tiers; equal ends by the
/// fabric's device order (switches sorted by name, then hosts).
fn rank(fabric: &Fabric, e: Endpoint) -> (u8, u8, DeviceId, u32) {
    match e.device {
        DeviceId::Switch(_) => (
            0,
            tier(fabric, e.device).unwrap_or(u8::MAX),
            e.device,
            e.port,
        ),
        DeviceId::Host(_) => (1, 0, e.device, e.port),
    }
}

/// Each switch's plane (indexed by switch; 0: none): the plane of the host ports it serves,
/// carried up the tiers over switch-to-switch links. A switch that meets two planes (not
/// something `planes N` builds) gets none, and so does every switch of a one-plane fabric.
fn switch_planes(fabric: &Fabric) -> Vec<u32> {
    const MIXED: u32 = u32::MAX;
    let mut planes = vec![0u32; fabric.switches.len()];
    let meet = |slot: &mut u32, p: u32| {
        *slot = match (*slot, p) {
            (_, 0) => *slot,
            (0, p) => p,
            (s, p) if s == p => s,
            _ => MIXED,
        };
    };
    for l in &fabric.links {
        for (near, far) in [(l.a, l.b), (l.b, l.a)] {
            if let (DeviceId::Switch(s), DeviceId::Host(h)) = (near.device, far.device) {
                let p = fabric
                    .host(h)
                    .nics
                    .get(far.port as usize)
                    .map_or(0, |n| n.plane);
                meet(&mut planes[s.index()], p);
            }
        }
    }
    // Up the tiers: one pass per tier is enough, the bound only guards odd wirings.
    for _ in 0..fabric.switches.len().min(8) {
        let before = planes.clone();
        for l in &fabric.links {
            if let (DeviceId::Switch(a), DeviceId::Switch(b)) = (l.a.device, l.b.device) {
                let (pa, pb) = (before[a.index()], before[b.index()]);
                if pa != MIXED {
                    meet(&mut planes[b.index()], pa);
                }
                if pb != MIXED {
                    meet(&mut planes[a.index()], pb);
                }
            }
        }
        if planes == before {
            break;
        }
    }
    planes
        .iter()
        .map(|&p| if p == MIXED { 0 } else { p })
        .collect()
}

/// The plane of a cable's end: a host port's own, a switch's from [`switch_planes`].
fn end_plane(fabric: &Fabric, switch_planes: &[u32], e: Endpoint) -> u32 {
    match e.device {
        DeviceId::Host(h) => fabric
            .host(h)
            .nics
            .get(e.port as usize)
            .map_or(0, |n| n.plane),
        DeviceId::Switch(s) => switch_planes.get(s.index()).copied().unwrap_or(0),
    }
}

/// Every link of the fabric as a row, in plan order.
pub fn plan(fabric: &Fabric) -> Vec<Cable> {
    let switch_planes = switch_planes(fabric);
    let names = PortNames::new(fabric);
    // One row per link, built in parallel (issue 36 item 1: the plan is the longest report,
    // 294,912 rows at 98,304 GPUs), then put in plan order.
    let mut rows: Vec<((DeviceId, u32), Cable)> = (0..fabric.links.len() as u32)
        .into_par_iter()
        .map(LinkId)
        .map(|id| {
            let l = fabric.link(id);
            let (near, far) = if rank(fabric, l.a) <= rank(fabric, l.b) {
                (l.a, l.b)
            } else {
                (l.b, l.a)
            };
            let host_nic = |e: Endpoint| match e.device {
                // With `planes N` the rail is the NIC (its ports are the planes' copies of
                // that rail); otherwise every cabled port is a rail of its own.
                // Only backend NICs are rails (issue 18 item 4): rail r is the r-th of them.
                DeviceId::Host(h) if fabric.host(h).generated => {
                    let nics = &fabric.host(h).nics;
                    match nics.get(e.port as usize) {
                        Some(n) if n.role != NicRole::Backend => None,
                        Some(n) if n.plane > 0 => Some(n.card),
                        _ => Some(
                            nics.iter()
                                .take(e.port as usize + 1)
                                .filter(|n| n.role == NicRole::Backend)
                                .count() as u32,
                        ),
                    }
                }
                _ => None,
            };
            let cable = Cable {
                device: fabric.device_name(near.device).to_string(),
                port: port_name(fabric, &names, near),
                peer: fabric.device_name(far.device).to_string(),
                peer_port: port_name(fabric, &names, far),
                speed_mbps: l.speed.get(),
                cable_mm: l.cable_mm.value.get(),
                tier: tier(fabric, near.device),
                peer_tier: tier(fabric, far.device),
                rail: host_nic(far).or_else(|| host_nic(near)),
                plane: [near, far]
                    .iter()
                    .map(|&e| end_plane(fabric, &switch_planes, e))
                    .find(|&p| p > 0),
                device_is_host: matches!(near.device, DeviceId::Host(_)),
                peer_is_host: matches!(far.device, DeviceId::Host(_)),
            };
            ((near.device, near.port), cable)
        })
        .collect();
    rows.par_sort_unstable_by_key(|a| a.0);
    rows.into_iter().map(|(_, c)| c).collect()
}

/// `400G`, or `25000M` for a speed that is not whole gigabits.
#[cfg(test)]
fn speed(mbps: u64) -> String {
    Speed(mbps).to_string()
}

/// `3m`, `2.5m`, `0.75m`: metres, without trailing zeros.
pub fn length(mm: u64) -> String {
    Length(mm).to_string()
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. Device and
/// port names are identifiers, so this only guards the format.
#[cfg(test)]
fn field(s: &str) -> String {
    Field(s).to_string()
}

// The columns written in place: a plan has hundreds of thousands of rows, and a String per
// field was most of the time `cabling.csv` took.

/// [`speed`] as it is written.
struct Speed(u64);

impl std::fmt::Display for Speed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mbps = self.0;
        if mbps.is_multiple_of(1000) {
            write!(f, "{}G", mbps / 1000)
        } else {
            write!(f, "{mbps}M")
        }
    }
}

/// [`length`] as it is written.
struct Length(u64);

impl std::fmt::Display for Length {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (m, rest) = (self.0 / 1000, self.0 % 1000);
        if rest == 0 {
            write!(f, "{m}m")
        } else if rest.is_multiple_of(100) {
            write!(f, "{m}.{}m", rest / 100)
        } else if rest.is_multiple_of(10) {
            write!(f, "{m}.{:02}m", rest / 10)
        } else {
            write!(f, "{m}.{rest:03}m")
        }
    }
}

/// [`field`] as it is written.
struct Field<'a>(&'a str);

impl std::fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.contains([',', '"', '\n', '\r']) {
            write!(f, "\"{}\"", self.0.replace('"', "\"\""))
        } else {
            f.write_str(self.0)
        }
    }
}

/// A number, or nothing.
struct Opt<T>(Option<T>);

impl<T: std::fmt::Display> std::fmt::Display for Opt<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(v) => write!(f, "{v}"),
            None => Ok(()),
        }
    }
}

/// `cabling.csv`. Rows are formatted in parallel blocks, joined in plan order.
pub fn csv(fabric: &Fabric) -> String {
    let rows = plan(fabric);
    let blocks: Vec<String> = rows
        .par_chunks(4096)
        .map(|block| {
            let mut out = String::with_capacity(80 * block.len());
            for c in block {
                let _ = writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{},{}",
                    Field(&c.device),
                    Field(&c.port),
                    Field(&c.peer),
                    Field(&c.peer_port),
                    Speed(c.speed_mbps),
                    Length(c.cable_mm),
                    Opt(c.tier),
                    Opt(c.peer_tier),
                    Opt(c.rail),
                    Opt(c.plane)
                );
            }
            out
        })
        .collect();
    let mut out =
        String::with_capacity(HEADER.len() + 1 + blocks.iter().map(String::len).sum::<usize>());
    out.push_str(HEADER);
    out.push('\n');
    for b in &blocks {
        out.push_str(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_speeds() {
        assert_eq!(length(3000), "3m");
        assert_eq!(length(2500), "2.5m");
        assert_eq!(length(750), "0.75m");
        assert_eq!(length(100_001), "100.001m");
        assert_eq!(length(1_010), "1.01m");
        assert_eq!(length(1_200), "1.2m");
        assert_eq!(length(1_230), "1.23m");
        assert_eq!(length(5), "0.005m");
        assert_eq!(length(50), "0.05m");
        assert_eq!(length(0), "0m");
        // As the trimmed three-digit fraction it replaced, for every fraction.
        for mm in 0..3000u64 {
            let (m, rest) = (mm / 1000, mm % 1000);
            let old = if rest == 0 {
                format!("{m}m")
            } else {
                format!("{m}.{}m", format!("{rest:03}").trim_end_matches('0'))
            };
            assert_eq!(length(mm), old);
        }
        assert_eq!(speed(400_000), "400G");
        assert_eq!(speed(2_500), "2500M");
    }

    #[test]
    fn fields_are_quoted_only_when_needed() {
        assert_eq!(field("swp1"), "swp1");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("a\"b"), "\"a\"\"b\"");
    }
}
