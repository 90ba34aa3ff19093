//! The network every routing model runs on: the endpoints traffic is addressed to, the switch
//! graph ([`Net`]), a destination ([`Dest`]) and a next hop ([`Hop`]). The routing models
//! (`shortest`, `updown`, `static_routes`) read these and the route tables in `routing` are
//! built from them, so they sit below both.

use std::sync::Arc;

use crate::model::{DeviceId, Fabric, HostId, LinkId, RouteTarget, RoutingModel};

/// Arrival phase at a switch. Under `updown` the next hops depend on whether traffic came
/// from below (it may still climb) or from above (it may only descend); the other models use
/// `Up` only.
pub const UP: usize = 0;
pub const DOWN: usize = 1;

/// The endpoints routed traffic is addressed to: every NIC on its own, except the NICs of a
/// bond, which are one endpoint. Units of a host are numbered consecutively, hosts in order,
/// so sorting endpoints sorts them by host first.
#[derive(Debug, Clone, Default)]
pub struct Endpoints {
    /// Per endpoint: its host.
    pub host: Vec<u32>,
    /// Per endpoint: its NICs (indices into the host's `nics`), ascending.
    pub nics: Vec<Vec<u32>>,
    /// Per host: its first endpoint; `first[h]..first[h + 1]` are its endpoints.
    pub first: Vec<u32>,
    /// Per host: the offset of its NICs in `unit_of_nic`.
    nic_base: Vec<u32>,
    /// Per NIC (flattened by host): its endpoint.
    unit_of_nic: Vec<u32>,
    /// Endpoints of more than one NIC.
    pub bonds: usize,
    /// Per endpoint: the independent planes (`planes N`) its NICs are in, bit k for plane k;
    /// 0 when the fabric has one (or a NIC is in none). A bond across planes (Alibaba HPN's
    /// non-stacked dual-ToR) is in each of its ports' planes. Two endpoints that share no
    /// plane are not expected to reach each other.
    pub planes: Vec<u32>,
}

impl Endpoints {
    pub fn new(fabric: &Fabric) -> Endpoints {
        let mut e = Endpoints::default();
        for (h, host) in fabric.hosts.iter().enumerate() {
            let n = host.nics.len();
            e.first.push(e.host.len() as u32);
            e.nic_base.push(e.unit_of_nic.len() as u32);
            // A NIC belongs to the first bond that lists it; indices past the NICs are ignored.
            let mut bond_of: Vec<Option<usize>> = vec![None; n];
            for (b, members) in host.bonds.iter().enumerate() {
                for &m in members {
                    if let Some(slot) = bond_of.get_mut(m as usize)
                        && slot.is_none()
                    {
                        *slot = Some(b);
                    }
                }
            }
            let mut unit_of = vec![u32::MAX; n];
            for nic in 0..n {
                // A NIC off the lossless fabric (issue 18 item 4: frontend, unlinked storage)
                // is no endpoint: nothing routed on the fabric is addressed to it.
                if unit_of[nic] != u32::MAX || !host.nics[nic].on_fabric() {
                    continue;
                }
                let unit = e.host.len() as u32;
                let members: Vec<u32> = match bond_of[nic] {
                    Some(b) => (0..n as u32)
                        .filter(|&m| bond_of[m as usize] == Some(b))
                        .collect(),
                    None => vec![nic as u32],
                };
                for &m in &members {
                    unit_of[m as usize] = unit;
                }
                if members.len() > 1 {
                    e.bonds += 1;
                }
                e.host.push(h as u32);
                let planes = members
                    .iter()
                    .map(|&m| host.nics.get(m as usize).map_or(0, |x| x.plane))
                    .try_fold(0u32, |mask, p| (1..32).contains(&p).then(|| mask | 1 << p));
                e.planes.push(planes.unwrap_or(0));
                e.nics.push(members);
            }
            e.unit_of_nic.extend(unit_of);
        }
        e.first.push(e.host.len() as u32);
        e.nic_base.push(e.unit_of_nic.len() as u32);
        e
    }

    pub(crate) fn len(&self) -> usize {
        self.host.len()
    }

    /// The planes of endpoint `u`, bit k for plane k (0: the fabric has one plane).
    pub fn planes_of(&self, u: u32) -> u32 {
        self.planes.get(u as usize).copied().unwrap_or(0)
    }

    /// Whether traffic from endpoint `u` to `v` is expected to have a route: always on a
    /// fabric of one plane, else when they share a plane.
    pub fn share_a_plane(&self, u: u32, v: u32) -> bool {
        let (a, b) = (self.planes_of(u), self.planes_of(v));
        a == 0 || b == 0 || a & b != 0
    }

    /// The endpoint of NIC `nic` of host `h`.
    pub fn unit(&self, h: u32, nic: u32) -> Option<u32> {
        let base = *self.nic_base.get(h as usize)?;
        let end = *self.nic_base.get(h as usize + 1)?;
        (base + nic < end)
            .then(|| self.unit_of_nic[(base + nic) as usize])
            .filter(|&u| u != u32::MAX)
    }

    /// Endpoints of host `h`.
    pub fn of_host(&self, h: u32) -> std::ops::Range<u32> {
        self.first[h as usize]..self.first[h as usize + 1]
    }

    /// The endpoint's NICs as the fabric names them (`h1.nic2`; a bond joins them with `+`).
    pub fn nic_name(&self, fabric: &Fabric, u: u32) -> String {
        let h = self.host[u as usize];
        self.nics[u as usize]
            .iter()
            .map(|&n| {
                fabric.endpoint_name(crate::model::Endpoint {
                    device: DeviceId::Host(HostId(h)),
                    port: n,
                })
            })
            .collect::<Vec<_>>()
            .join("+")
    }

    /// How findings name the endpoint: the host when it has one NIC, else its NICs.
    pub fn label(&self, fabric: &Fabric, u: u32) -> String {
        let h = self.host[u as usize];
        if fabric.host(HostId(h)).nics.len() <= 1 {
            fabric.host(HostId(h)).name.clone()
        } else {
            self.nic_name(fabric, u)
        }
    }
}

/// The switch-level fabric of one failure scenario.
#[derive(Debug, Clone)]
pub struct Net {
    pub model: RoutingModel,
    /// Per switch, `None` when the switch has no tier.
    pub tier: Vec<Option<u8>>,
    /// Per switch: neighbouring switches with at least one surviving link, sorted.
    pub adj: Vec<Vec<u32>>,
    /// Per host: switches it has a surviving link to, sorted.
    pub attach: Vec<Vec<u32>>,
    /// Per switch: hosts with a surviving link to it, sorted.
    pub hosts_at: Vec<Vec<u32>>,
    /// The fabric's endpoints (shared by every scenario).
    pub ends: Arc<Endpoints>,
    /// Per endpoint: switches one of its NICs has a surviving link to, sorted.
    pub unit_attach: Vec<Vec<u32>>,
    /// Per switch: endpoints with a surviving link to it, sorted.
    pub units_at: Vec<Vec<u32>>,
}

impl Net {
    /// The fabric without the links for which `removed` says true.
    pub fn build(fabric: &Fabric, removed: &dyn Fn(LinkId) -> bool) -> Net {
        Self::build_with(fabric, Arc::new(Endpoints::new(fabric)), removed)
    }

    /// As `build`, with the fabric's endpoints already computed.
    pub fn build_with(
        fabric: &Fabric,
        ends: Arc<Endpoints>,
        removed: &dyn Fn(LinkId) -> bool,
    ) -> Net {
        let n = fabric.switches.len();
        let mut adj = vec![Vec::new(); n];
        let mut attach = vec![Vec::new(); fabric.hosts.len()];
        let mut hosts_at = vec![Vec::new(); n];
        let mut unit_attach = vec![Vec::new(); ends.len()];
        let mut units_at = vec![Vec::new(); n];
        for (i, l) in fabric.links.iter().enumerate() {
            if removed(LinkId(i as u32)) {
                continue;
            }
            match (l.a, l.b) {
                (a, b) if a.device == b.device => {}
                (
                    crate::model::Endpoint {
                        device: DeviceId::Switch(a),
                        ..
                    },
                    crate::model::Endpoint {
                        device: DeviceId::Switch(b),
                        ..
                    },
                ) => {
                    adj[a.index()].push(b.0);
                    adj[b.index()].push(a.0);
                }
                (
                    crate::model::Endpoint {
                        device: DeviceId::Switch(s),
                        ..
                    },
                    crate::model::Endpoint {
                        device: DeviceId::Host(h),
                        port,
                    },
                )
                | (
                    crate::model::Endpoint {
                        device: DeviceId::Host(h),
                        port,
                    },
                    crate::model::Endpoint {
                        device: DeviceId::Switch(s),
                        ..
                    },
                ) => {
                    attach[h.index()].push(s.0);
                    hosts_at[s.index()].push(h.0);
                    if let Some(u) = ends.unit(h.0, port) {
                        unit_attach[u as usize].push(s.0);
                        units_at[s.index()].push(u);
                    }
                }
                _ => {}
            }
        }
        for v in adj
            .iter_mut()
            .chain(attach.iter_mut())
            .chain(hosts_at.iter_mut())
            .chain(unit_attach.iter_mut())
            .chain(units_at.iter_mut())
        {
            v.sort_unstable();
            v.dedup();
        }
        Net {
            model: fabric.routing.model.value,
            tier: fabric
                .switches
                .iter()
                .map(|s| s.tier.map(|t| t.value))
                .collect(),
            adj,
            attach,
            hosts_at,
            ends,
            unit_attach,
            units_at,
        }
    }

    pub fn switches(&self) -> usize {
        self.adj.len()
    }

    pub fn adjacent(&self, a: u32, b: u32) -> bool {
        self.adj[a as usize].binary_search(&b).is_ok()
    }

    /// The phase traffic is in when it arrives at `to` from switch `from`.
    pub fn phase(&self, from: u32, to: u32) -> usize {
        if self.model != RoutingModel::Updown {
            return UP;
        }
        match (self.tier[from as usize], self.tier[to as usize]) {
            (Some(a), Some(b)) if b > a => UP,
            _ => DOWN,
        }
    }

    /// Whether `from -> at -> to` comes down and goes back up (a valley, "bounce").
    pub fn is_bounce(&self, from: DeviceId, at: u32, to: u32) -> bool {
        let DeviceId::Switch(f) = from else {
            return false;
        };
        match (
            self.tier[f.index()],
            self.tier[at as usize],
            self.tier[to as usize],
        ) {
            (Some(a), Some(b), Some(c)) => a > b && c > b,
            _ => false,
        }
    }
}

/// Endpoints that routing treats alike: the same attachment switches and the same static
/// routes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dest {
    /// Sorted endpoint indices.
    pub units: Vec<u32>,
    /// Sorted hosts of those endpoints.
    pub hosts: Vec<u32>,
    /// Sorted switches the endpoints are attached to in this scenario.
    pub attach: Vec<u32>,
    /// Static routes (indices into `Routing::routes`) that target these endpoints.
    pub routes: Vec<usize>,
}

impl Dest {
    /// A group of `units` (sorted) with the given attachments and routes.
    pub fn new(ends: &Endpoints, units: Vec<u32>, attach: Vec<u32>, routes: Vec<usize>) -> Dest {
        let mut hosts: Vec<u32> = units.iter().map(|&u| ends.host[u as usize]).collect();
        hosts.dedup(); // endpoints are numbered host by host
        Dest {
            units,
            hosts,
            attach,
            routes,
        }
    }
}

/// What a switch does with traffic for one destination, in one arrival phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hop {
    /// No route: the traffic is dropped here.
    Drop,
    /// A destination host is attached here.
    Deliver,
    /// ECMP over these neighbouring switches (sorted, non-empty).
    Via(Vec<u32>),
}

/// An unreachable distance.
pub const INF: u32 = u32::MAX;

/// Whether `target` of a static route covers an endpoint of host `h` with the intact
/// attachments `intact_attach`.
pub fn route_covers(target: RouteTarget, h: u32, intact_attach: &[u32]) -> bool {
    match target {
        RouteTarget::Host(x) => x.0 == h,
        RouteTarget::Switch(s) => intact_attach.binary_search(&s.0).is_ok(),
    }
}
