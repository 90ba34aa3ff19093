//! The headroom plan (HR-1 of docs/physics.md §2): for every switch port with a link and every
//! lossless priority on it, the PFC headroom the canonical formula requires, the headroom
//! configured, the pause (XOFF) trigger, and for host-facing ports the NIC side. Computed
//! once by [`headroom_plan`]; the checks, `facts.headroom` and the renderers read it.
//!
//! Inputs per (port, priority):
//! * receiver MTU = the switch's port MTU (`mtu` override, else the fabric `mtu`);
//! * sender MTU = the peer's largest frame: a peer switch's port MTU, or a host's netdev MTU
//!   (`roce-mtu` + [`ROCE_HEADER_ALLOWANCE`](crate::model::mtu::ROCE_HEADER_ALLOWANCE));
//! * the link's speed and cable; no interface delay (docs/physics.md §1: 0 unless the platform
//!   supplies one);
//! * rounded up to the switch model's `cell` when it has one.
//!
//! HR-5 (the MTU in the headroom covers the largest frame allowed on the port) holds by
//! construction: both MTUs are the ports' own.
//!
//! The checks: a `headroom` override below the requirement is FAB401, one finding per
//! (switch, class), naming the port that needs the most; on the NIC side, a host cable mlx5
//! ignores (≥ 1000 m, FAB402) and a NIC model `buffer` too small for one mlx5 lossless buffer
//! per lossless priority (FAB403).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use rayon::prelude::*;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{ClassId, DeviceId, Endpoint, Fabric, HostId, LinkId, Sourced, SwitchId};
use crate::span::Span;

use super::facts::HeadroomRow;
use super::group::{Grouped, Places, bytes, metres, metres_number, speed, thousands};
use super::physics::nic_headroom::{MLX5_DEFAULT_CABLE_LEN_M, MLX5_MAX_CABLE_LEN_M};
use super::physics::{
    Alpha, CableFit, Headroom, HeadroomInput, NicHeadroom, PauseThreshold, canonical_headroom,
    max_cable_for_headroom, mlx5_xoff, nic_headroom, round_up_to_cell,
};

/// The headroom of every (switch port, lossless priority), sorted by switch, port, priority.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeadroomPlan {
    pub ports: Vec<PortHeadroom>,
    /// `ports[switch_ranges[s]]` are switch `s`'s entries (indexed by `SwitchId`).
    pub switch_ranges: Vec<Range<usize>>,
}

/// One lossless ingress queue (priority group) of one switch port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortHeadroom {
    pub switch: SwitchId,
    /// 0-based port index (`Fabric::endpoint_name` prints it 1-based).
    pub port: u32,
    pub link: LinkId,
    /// The other end of the link.
    pub peer: Endpoint,
    /// The (first) lossless class on this priority, as the switch sees it.
    pub class: ClassId,
    pub priority: u8,
    /// Link speed, Mb/s.
    pub speed_mbps: u64,
    pub cable_mm: u64,
    /// The switch's port MTU, bytes.
    pub mtu_receiver: u64,
    /// The peer's largest frame: its port MTU, or the host's netdev MTU.
    pub mtu_sender: u64,
    /// The model's buffer cell, when it gives one.
    pub cell: Option<u64>,
    /// The canonical formula by component (unrounded).
    pub formula: Headroom,
    /// `formula.total` rounded up to the cell: what the port needs.
    pub required: u64,
    /// What the port gets: the `headroom` override, else `required`.
    pub configured: u64,
    /// The `headroom CLASS SIZE` override of the switch, when there is one.
    pub headroom_override: Option<Sourced<u64>>,
    /// The XON offset the switch is given on top of `configured`: two of its port MTU,
    /// rounded up to the cell (the frames in flight while the resume takes effect). Lowering
    /// writes it as is; the SONiC targets replace it with SONiC's own where they must.
    pub xon: u64,
    /// The pause (XOFF) trigger of this queue.
    pub pause: PauseThreshold,
    /// Where the pause trigger was set: the class's or override's `pfc-threshold`, or the
    /// switch model (dynamic threshold).
    pub pause_span: Span,
    /// The NIC side, for host-facing ports.
    pub nic: Option<NicSide>,
}

impl PortHeadroom {
    /// The PG's whole headroom reservation: `configured` (XOFF) + [`Self::xon`].
    pub fn size(&self) -> u64 {
        self.configured.saturating_add(self.xon)
    }

    /// The static pause threshold in bytes; `None` when dynamic.
    pub fn static_threshold(&self) -> Option<u64> {
        match self.pause {
            PauseThreshold::Static(b) => Some(b),
            PauseThreshold::Dynamic(_) => None,
        }
    }
}

/// The host NIC at the other end of a host-facing port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NicSide {
    pub host: HostId,
    /// 0-based NIC index.
    pub nic: u32,
    /// The netdev MTU the host script sets (`roce-mtu` + RoCE headers).
    pub netdev_mtu: u64,
    /// mlx5's headroom arithmetic and `mlnx_qos --cable_len`; `None` for other drivers.
    pub mlx5: Option<NicHeadroom>,
}

impl HeadroomPlan {
    /// Switch `s`'s entries, sorted by port then priority.
    pub fn switch(&self, s: SwitchId) -> &[PortHeadroom] {
        self.switch_ranges
            .get(s.index())
            .map_or(&[], |r| &self.ports[r.clone()])
    }

    /// `facts.headroom`, one row per entry (the v1 JSON contract).
    pub fn rows(&self, fabric: &Fabric) -> Vec<HeadroomRow> {
        self.ports
            .iter()
            .map(|p| HeadroomRow {
                switch: fabric.switch(p.switch).name.clone(),
                peer: fabric.device_name(p.peer.device).to_string(),
                priority: p.priority,
                speed_gbps: p.speed_mbps / 1_000,
                cable_m: cable_number(p.cable_mm),
                mtu: p.mtu_receiver,
                required_bytes: p.required,
                configured_bytes: p.configured,
                pause_threshold_bytes: p.static_threshold(),
            })
            .collect()
    }
}

/// Metres as a JSON number: an integer when whole (`30`), else a decimal (`2.5`).
fn cable_number(mm: u64) -> serde_json::Number {
    if mm.is_multiple_of(1_000) {
        serde_json::Number::from(mm / 1_000)
    } else {
        metres_number(mm)
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .unwrap_or_else(|| serde_json::Number::from(mm / 1_000))
    }
}

/// A lossless priority of a switch: the first lossless class on it, its pause trigger and
/// headroom override.
#[derive(Debug, Clone, Copy)]
struct LosslessQueue {
    class: ClassId,
    headroom: Option<Sourced<u64>>,
    pause: PauseThreshold,
    pause_span: Span,
    priority: u8,
}

fn lossless_queues(fabric: &Fabric, s: SwitchId) -> Vec<LosslessQueue> {
    let model = fabric.switch_model(s);
    let alpha = Alpha::new(model.dynamic_threshold.value)
        .unwrap_or_else(|| Alpha::new(0).expect("0 is in range"));
    let mut out: Vec<LosslessQueue> = Vec::new();
    for v in fabric.switch_classes(s) {
        if !v.lossless.value || out.iter().any(|q| q.priority == v.priority.value) {
            continue;
        }
        let (pause, pause_span) = match v.pfc_threshold {
            Some(t) => (PauseThreshold::Static(t.value.get()), t.span),
            None => (PauseThreshold::Dynamic(alpha), model.dynamic_threshold.span),
        };
        out.push(LosslessQueue {
            class: v.id,
            headroom: v.headroom.map(|h| h.map(crate::model::Bytes::get)),
            pause,
            pause_span,
            priority: v.priority.value,
        });
    }
    out.sort_by_key(|q| q.priority);
    out
}

/// Computes the plan. O(ports × lossless priorities).
pub fn headroom_plan(fabric: &Fabric) -> HeadroomPlan {
    let netdev_mtu = fabric.host_netdev_mtu();
    // Switches are independent: computed in parallel, concatenated in switch order.
    let per_switch: Vec<Vec<PortHeadroom>> = fabric
        .switch_ids()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|s| switch_headroom(fabric, s, netdev_mtu))
        .collect();
    let mut plan = HeadroomPlan::default();
    // Sized once: grown by doubling, the plan (a row per lossless port and priority, half a
    // million at 98,304 GPUs) was copied again at every step.
    plan.ports
        .reserve_exact(per_switch.iter().map(Vec::len).sum::<usize>());
    plan.switch_ranges.reserve_exact(per_switch.len());
    for ports in per_switch {
        let start = plan.ports.len();
        plan.ports.extend(ports);
        plan.switch_ranges.push(start..plan.ports.len());
    }
    plan
}

/// The plan rows of one switch, port by port.
fn switch_headroom(fabric: &Fabric, s: SwitchId, netdev_mtu: u64) -> Vec<PortHeadroom> {
    let mut ports = Vec::new();
    let queues = lossless_queues(fabric, s);
    if queues.is_empty() {
        return ports;
    }
    let me = DeviceId::Switch(s);
    let mtu_receiver = fabric.port_mtu(s).value.get();
    let cell = fabric.switch_model(s).cell.map(|c| c.value.get());
    let xon = round_up_to_cell(mtu_receiver.saturating_mul(2), cell.unwrap_or(0));
    for (port, link) in fabric.switch(s).ports.iter().enumerate() {
        let Some(link) = *link else { continue };
        let l = fabric.link(link);
        let peer = fabric.peer(link, me);
        let (mtu_sender, nic) = match peer.device {
            DeviceId::Switch(p) => (fabric.port_mtu(p).value.get(), None),
            DeviceId::Host(h) => {
                let mlx5 = fabric
                    .host(h)
                    .nics
                    .get(peer.port as usize)
                    .map(|n| &fabric.nic_models[n.model.index()])
                    .filter(|m| m.driver.value.starts_with("mlx5"))
                    .map(|_| {
                        nic_headroom(
                            l.speed.get(),
                            l.cable_mm.value.get(),
                            netdev_mtu,
                            netdev_mtu,
                        )
                    });
                (
                    netdev_mtu,
                    Some(NicSide {
                        host: h,
                        nic: peer.port,
                        netdev_mtu,
                        mlx5,
                    }),
                )
            }
        };
        let formula = canonical_headroom(&HeadroomInput {
            speed_mbps: l.speed.get(),
            cable_mm: l.cable_mm.value.get(),
            mtu_receiver,
            mtu_sender,
            interface_delay_ns: 0,
        });
        let required = round_up_to_cell(formula.total, cell.unwrap_or(0));
        for q in &queues {
            ports.push(PortHeadroom {
                switch: s,
                port: port as u32,
                link,
                peer,
                class: q.class,
                priority: q.priority,
                speed_mbps: l.speed.get(),
                cable_mm: l.cable_mm.value.get(),
                mtu_receiver,
                mtu_sender,
                cell,
                formula,
                required,
                configured: q.headroom.map_or(required, |h| h.value),
                headroom_override: q.headroom,
                xon,
                pause: q.pause,
                pause_span: q.pause_span,
                nic,
            });
        }
    }
    ports
}

/// The checks of the plan: FAB401 (override below requirement), FAB402 and FAB403 (NIC side).
pub fn check(fabric: &Fabric, plan: &HeadroomPlan, diags: &mut Vec<Diagnostic>) {
    overrides(fabric, plan, diags);
    nic_side(fabric, plan, diags);
}

/// FAB402 (mlx5 ignores the cable length), FAB404 (a cable longer than the 7 m mlx5 sizes
/// for, while the firmware keeps the buffers) and FAB403 (the NIC model's buffer cannot hold
/// a lossless receive buffer per lossless priority), once per host NIC. FAB404 only for a
/// cable the fabric states: the 100 m default stands for "unknown", not for a long cable.
fn nic_side(fabric: &Fabric, plan: &HeadroomPlan, diags: &mut Vec<Diagnostic>) {
    let mut seen: BTreeSet<(HostId, u32)> = BTreeSet::new();
    let mut host_priorities: BTreeMap<HostId, Vec<u8>> = BTreeMap::new();
    let mut ignored: Grouped<(String, u64, u64, u64)> = Grouped::default();
    let mut firmware: Grouped<(u64, u64, u64)> = Grouped::default();
    let mut small: Grouped<(String, String, Vec<u8>, u64, u64)> = Grouped::default();
    for p in &plan.ports {
        let Some(n) = p.nic else { continue };
        let Some(m) = n.mlx5 else { continue };
        if !seen.insert((n.host, n.nic)) {
            continue;
        }
        let nic_name = fabric.endpoint_name(Endpoint {
            device: DeviceId::Host(n.host),
            port: n.nic,
        });
        if !m.cable_len.accepted {
            let real = mlx5_xoff(p.speed_mbps, m.cable_len.metres, n.netdev_mtu);
            let link = fabric.link(p.link);
            ignored.add(
                link.cable_mm.span,
                format!("{}:{}", p.cable_mm, p.speed_mbps),
                || nic_name.clone(),
                || (nic_name.clone(), p.cable_mm, real, m.xoff),
            );
        }
        let link = fabric.link(p.link);
        if m.cable_len.accepted
            && m.cable_len.metres > MLX5_DEFAULT_CABLE_LEN_M
            && !link.cable_mm.default
        {
            firmware.add(
                link.cable_mm.span,
                format!("{}:{}", p.cable_mm, p.speed_mbps),
                || nic_name.clone(),
                || (p.cable_mm, m.xoff, m.min_lossless_buffer),
            );
        }
        let host = fabric.host(n.host);
        let Some(model) = host
            .nics
            .get(n.nic as usize)
            .map(|x| &fabric.nic_models[x.model.index()])
        else {
            continue;
        };
        let Some(buffer) = model.buffer else { continue };
        let prios = host_priorities.entry(n.host).or_insert_with(|| {
            if !fabric.host_pfc(n.host) {
                return Vec::new();
            }
            let mut v: Vec<u8> = fabric
                .host_classes(n.host)
                .iter()
                .filter(|v| v.lossless.value)
                .map(|v| v.priority.value)
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        });
        let need = (prios.len() as u64).saturating_mul(m.min_lossless_buffer);
        if need > buffer.value.get() {
            let key = format!("{need}:{}", m.min_lossless_buffer);
            small.add(
                buffer.span,
                key,
                || nic_name.clone(),
                || {
                    (
                        nic_name.clone(),
                        model.name.clone(),
                        prios.clone(),
                        m.min_lossless_buffer,
                        buffer.value.get(),
                    )
                },
            );
        }
    }
    ignored.finish(diags, nic_cable_ignored);
    firmware.finish(diags, nic_headroom_firmware);
    small.finish(diags, nic_buffer_too_small);
}

/// FAB403: the NIC model's buffer cannot hold a lossless receive buffer per lossless priority.
fn nic_buffer_too_small(
    span: Span,
    (_, model, prios, each, buffer): (String, String, Vec<u8>, u64, u64),
    places: &Places,
) -> Diagnostic {
    let list = prios
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let mut d = Diagnostic::new(
        Code::NicBufferTooSmall,
        span,
        format!(
            "{} needs {} × {} of lossless receive buffer (priorities {list}), its model `{model}` has {}",
            places.subject(),
            prios.len(),
            bytes(each),
            bytes(buffer)
        ),
    )
    .label("NIC buffer set here")
    .note("mlx5 accepts a lossless buffer of at least xoff + max(MTU, 9216) + 128 B per lossless priority")
    .help(format!(
        "run at most {} lossless priorit{} on these hosts, use shorter cables, or a NIC with at least {} of port buffer",
        buffer / each.max(1),
        if buffer / each.max(1) == 1 { "y" } else { "ies" },
        bytes(each.saturating_mul(prios.len() as u64))
    ));
    if let Some(n) = places.note("NICs") {
        d = d.note(n);
    }
    d
}

/// FAB404: a cable longer than mlx5 sizes NIC headroom for, with the buffers left to the firmware.
fn nic_headroom_firmware(
    span: Span,
    (cable_mm, xoff, min_buffer): (u64, u64, u64),
    places: &Places,
) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::NicHeadroomFirmware,
        span,
        format!(
            "{} sits on a {} cable, longer than the {} m mlx5 sizes NIC headroom for; the host script leaves the NIC's receive buffers to its firmware, so fabricc cannot make them fit this cable",
            places.subject(),
            metres(cable_mm),
            MLX5_DEFAULT_CABLE_LEN_M
        ),
    )
    .label("cable set here")
    .note(format!(
        "mlx5's formula for this cable: xoff {}, a lossless receive buffer of at least {}; `mlnx_qos -i` on the host shows the buffers the NIC has",
        bytes(xoff),
        bytes(min_buffer)
    ))
    .help(format!(
        "keep host cables at {MLX5_DEFAULT_CABLE_LEN_M} m or less, or give the lossless priority a receive buffer of at least {} by hand (`mlnx_qos --prio2buffer`, then `--buffer_size`)",
        bytes(min_buffer)
    ));
    if let Some(n) = places.note("NICs") {
        d = d.note(n);
    }
    d
}

/// FAB402: mlx5 ignores a `--cable_len` this long and sizes headroom for its default cable.
fn nic_cable_ignored(
    span: Span,
    (nic, cable_mm, real, used): (String, u64, u64, u64),
    places: &Places,
) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::NicCableIgnored,
        span,
        format!(
            "{} sits on a {} cable, but mlx5 cannot size headroom for {} m or more (it ignores such a `--cable_len`) and sizes it for {} m",
            places.subject(),
            metres(cable_mm),
            MLX5_MAX_CABLE_LEN_M,
            MLX5_DEFAULT_CABLE_LEN_M
        ),
    )
    .label("cable set here")
    .note(format!(
        "xoff for the real cable: {}; the driver programs {}, {} short",
        bytes(real),
        bytes(used),
        bytes(real.saturating_sub(used))
    ))
    .help(format!(
        "keep host cables below {} m, or size `{nic}`'s lossless buffer by hand (`mlnx_qos --buffer_size`) for an xoff of {}",
        MLX5_MAX_CABLE_LEN_M,
        bytes(real)
    ));
    if let Some(n) = places.note("NICs") {
        d = d.note(n);
    }
    d
}

/// FAB401: a `headroom` override below what a port needs; one finding per (switch, class).
fn overrides(fabric: &Fabric, plan: &HeadroomPlan, diags: &mut Vec<Diagnostic>) {
    // Switches whose neediest short port has the same numbers and the same override line
    // (e.g. `switch leaf[1..64] { headroom roce 20KB }`) share one finding.
    let mut grouped: Grouped<(SwitchId, usize, usize)> = Grouped::default();
    for s in fabric.switch_ids() {
        // (class) → (index of the neediest short entry, short ports)
        let mut short: BTreeMap<ClassId, (usize, usize)> = BTreeMap::new();
        let range = plan.switch_ranges.get(s.index()).cloned().unwrap_or(0..0);
        for i in range {
            let p = &plan.ports[i];
            if p.headroom_override.is_none() || p.configured >= p.required {
                continue;
            }
            let e = short.entry(p.class).or_insert((i, 0));
            e.1 += 1;
            if p.required > plan.ports[e.0].required {
                e.0 = i;
            }
        }
        for (class, (i, count)) in short {
            let p = &plan.ports[i];
            let Some(o) = p.headroom_override else {
                continue;
            };
            let key = format!(
                "{}:{}:{}:{}:{}",
                class.0, p.required, p.speed_mbps, p.cable_mm, o.value
            );
            grouped.add(
                o.span,
                key,
                || fabric.switch(s).name.clone(),
                || (s, i, count),
            );
        }
    }
    grouped.finish(diags, |_, (s, i, count), places| {
        {
            let p = &plan.ports[i];
            let class = p.class;
            let o = p.headroom_override.expect("only overridden entries are grouped");
            let name = &fabric.class(class).name;
            let port = fabric.endpoint_name(Endpoint {
                device: DeviceId::Switch(s),
                port: p.port,
            });
            let input = HeadroomInput {
                speed_mbps: p.speed_mbps,
                cable_mm: p.cable_mm,
                mtu_receiver: p.mtu_receiver,
                mtu_sender: p.mtu_sender,
                interface_delay_ns: 0,
            };
            let fit = match max_cable_for_headroom(o.value, &input) {
                CableFit::UpTo { cable_mm } => format!(
                    "{} covers cables up to {} at {} (this one is {})",
                    bytes(o.value),
                    metres(cable_mm / 100 * 100),
                    speed(p.speed_mbps),
                    metres(p.cable_mm)
                ),
                CableFit::None { fixed_bytes } => format!(
                    "{} does not cover even a 0 m cable at {}: the frames and the pause response alone need {}",
                    bytes(o.value),
                    speed(p.speed_mbps),
                    bytes(fixed_bytes)
                ),
                CableFit::Unbounded => format!("{} covers any cable", bytes(o.value)),
            };
            let more = if count > 1 {
                format!(
                    " (and {} more port{})",
                    thousands(count as u64 - 1),
                    if count > 2 { "s" } else { "" }
                )
            } else {
                String::new()
            };
            let f = &p.formula;
            let mut d = Diagnostic::new(
                Code::HeadroomTooSmall,
                o.span,
                format!(
                    "`{port}`{more} needs {} of headroom for `{name}` (priority {}), the override gives {}, {} short",
                    bytes(p.required),
                    p.priority,
                    bytes(o.value),
                    bytes(p.required - o.value)
                ),
            )
            .label("headroom set here")
            .note(format!(
                "{} at {}, MTU {} in / {} out: frames {} + pause {} + cable {} + response {} ({} quanta) = {}{}",
                speed(p.speed_mbps),
                metres(p.cable_mm),
                p.mtu_receiver,
                p.mtu_sender,
                bytes(f.receiver_frame + f.sender_frame),
                bytes(f.pause_frame),
                bytes(f.cable),
                bytes(f.response),
                f.quanta.quanta,
                bytes(f.total),
                p.cell.map_or(String::new(), |c| format!(", {} in {} B cells", bytes(p.required), c))
            ))
            .note(fit)
            .help(format!(
                "set `headroom {name} {}B` or more on {}, or remove the override to use the computed headroom",
                    p.required,
                    if places.count > 1 {
                        "these switches".to_string()
                    } else {
                        format!("`{}`", fabric.switch(s).name)
                    }
                ));
            d = d.with_secondary(fabric.link(p.link).span, "the link that needs it");
            if let Some(n) = places.note("switches") {
                d = d.note(n);
            }
            d
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cable_numbers() {
        assert_eq!(cable_number(30_000).to_string(), "30");
        assert_eq!(cable_number(2_500).to_string(), "2.5");
        assert_eq!(cable_number(100_000).to_string(), "100");
    }
}
