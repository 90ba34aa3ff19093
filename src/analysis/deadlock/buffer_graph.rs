//! The buffer-dependency graph (docs/deadlock.md, "The model"): routes and `path`s of one
//! scenario in; a petgraph graph out whose nodes are lossless ingress queues
//! `(switch, neighbour it receives from, priority)` and whose edges say "traffic held in this
//! queue must next enter that one".
//!
//! Construction is per destination group, never per NIC pair: traffic for a destination is
//! propagated from its sources along the next-hop sets, over states (ingress link, priority
//! state), each visited once; an edge is recorded whenever both the current and the next queue
//! are lossless. An edge into a queue that is lossy at the next switch is no dependency (that
//! switch never pauses for it), but the chain restarts at the next lossless queue.
//!
//! Two exact reductions, both because a node off every cycle cannot matter to the verdict:
//! * Host-facing ingress queues are left out. Hosts never forward, so nothing points into
//!   them: they are sources and lie on no cycle.
//! * Parallel links between the same two switches form one node per priority. Routing uses
//!   every link to a next-hop neighbour alike and rewrites match on neighbours, so the
//!   queues of parallel links have identical in- and out-neighbourhoods (twins) and no edge
//!   joins two twins (that would be a U-turn into the same switch). A cycle through one twin
//!   exists iff one through the merged node does; the `cycle` of the JSON contract names the
//!   neighbour, not the port, for the same reason.

use std::collections::{HashMap, HashSet, VecDeque};

use petgraph::graph::{DiGraph, NodeIndex};

use crate::model::{DeviceId, ExplicitPath, HostId, SwitchId};

use super::super::routing::{Dest, Hop, Net, Table, UP, sources};
use super::tagger::{NATIVE, PState, Qos};

/// A lossless ingress queue: traffic at `switch` received from switch `from` in `priority`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Queue {
    pub switch: u32,
    pub from: u32,
    pub priority: u8,
}

/// Why an edge exists: routed traffic toward a destination group, or a `path` statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    Route(u32),
    Path(u32),
}

#[derive(Debug, Clone, Default)]
pub struct BufferDependencyGraph {
    pub graph: DiGraph<Queue, Cause>,
    index: HashMap<Queue, NodeIndex>,
    edges: HashSet<(NodeIndex, NodeIndex)>,
}

impl BufferDependencyGraph {
    pub fn node(&mut self, q: Queue) -> NodeIndex {
        if let Some(&i) = self.index.get(&q) {
            return i;
        }
        let i = self.graph.add_node(q);
        self.index.insert(q, i);
        i
    }

    /// Adds `a -> b` unless present; the first cause recorded is kept (destinations are
    /// visited in order, so it is deterministic).
    pub fn edge(&mut self, a: Queue, b: Queue, cause: Cause) {
        let (x, y) = (self.node(a), self.node(b));
        if self.edges.insert((x, y)) {
            self.graph.add_edge(x, y, cause);
        }
    }

    /// Every edge as a pair of queues, sorted (for comparisons and tests).
    pub fn edge_list(&self) -> Vec<(Queue, Queue)> {
        let mut v: Vec<_> = self
            .graph
            .raw_edges()
            .iter()
            .map(|e| (self.graph[e.source()], self.graph[e.target()]))
            .collect();
        v.sort_unstable();
        v
    }

    /// The strongly connected components that contain a cycle, each sorted by queue, in order.
    pub fn cyclic_components(&self) -> Vec<Vec<NodeIndex>> {
        let mut out: Vec<Vec<NodeIndex>> = petgraph::algo::tarjan_scc(&self.graph)
            .into_iter()
            .filter(|c| c.len() > 1 || self.graph.find_edge(c[0], c[0]).is_some())
            .map(|mut c| {
                c.sort_by_key(|&n| self.graph[n]);
                c
            })
            .collect();
        out.sort_by_key(|c| self.graph[c[0]]);
        out
    }

    /// A topological position per node when the graph is acyclic.
    pub fn topo_positions(&self) -> Option<HashMap<Queue, usize>> {
        let order = petgraph::algo::toposort(&self.graph, None).ok()?;
        Some(
            order
                .into_iter()
                .enumerate()
                .map(|(i, n)| (self.graph[n], i))
                .collect(),
        )
    }
}

/// Where traffic is when it arrives at a switch: its ingress (a switch, a host, or "a host",
/// when hosts need not be told apart), the switch, and its priority state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    pub from: Ingress,
    pub at: u32,
    pub ps: PState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ingress {
    Switch(u32),
    Host(u32),
    AnyHost,
}

impl Ingress {
    fn device(self) -> DeviceId {
        match self {
            Ingress::Switch(s) => DeviceId::Switch(SwitchId(s)),
            Ingress::Host(h) => DeviceId::Host(HostId(h)),
            // Matches no rewrite (none names a host when this is used) and is no bounce.
            Ingress::AnyHost => DeviceId::Host(HostId(u32::MAX)),
        }
    }
}

/// The first states of traffic toward `dest`: every source switch, every class hosts send.
pub fn initial_states(qos: &Qos, net: &Net, dest: &Dest) -> Vec<State> {
    let mut out = Vec::new();
    for s in sources(net, dest) {
        for &c in &qos.sent {
            let ps = PState {
                class: c,
                rewritten: NATIVE,
            };
            if qos.host_rewrites {
                for &h in &net.hosts_at[s as usize] {
                    if dest.hosts != [h] {
                        out.push(State {
                            from: Ingress::Host(h),
                            at: s,
                            ps,
                        });
                    }
                }
            } else {
                out.push(State {
                    from: Ingress::AnyHost,
                    at: s,
                    ps,
                });
            }
        }
    }
    out
}

/// The states that follow `st` toward a destination with table `t`, with the edge each
/// transition induces (when both queues are lossless).
pub fn successors(
    qos: &Qos,
    net: &Net,
    t: &Table,
    st: State,
    mut f: impl FnMut(State, Option<(Queue, Queue)>),
) {
    let p = qos.prio(st.at, st.ps);
    let (phase, here) = match st.from {
        Ingress::Switch(u) => {
            let q = qos.lossless(st.at, p, st.ps).then_some(Queue {
                switch: st.at,
                from: u,
                priority: p,
            });
            (net.phase(u, st.at), q)
        }
        _ => (UP, None),
    };
    let Hop::Via(next) = t.hop(st.at, phase) else {
        return;
    };
    for &to in next {
        let ps = qos.step(net, st.at, st.from.device(), to, p, st.ps);
        let q = qos.prio(to, ps);
        let there = qos.lossless(to, q, ps).then_some(Queue {
            switch: to,
            from: st.at,
            priority: q,
        });
        let edge = match (here, there) {
            (Some(a), Some(b)) => Some((a, b)),
            _ => None,
        };
        f(
            State {
                from: Ingress::Switch(st.at),
                at: to,
                ps,
            },
            edge,
        );
    }
}

/// Every edge routed traffic toward `dest` induces, in visiting order.
pub fn dest_edges(qos: &Qos, net: &Net, dest: &Dest, t: &Table, mut f: impl FnMut(Queue, Queue)) {
    let mut seen: HashSet<State> = HashSet::new();
    let mut queue: VecDeque<State> = VecDeque::new();
    for st in initial_states(qos, net, dest) {
        if seen.insert(st) {
            queue.push_back(st);
        }
    }
    while let Some(st) = queue.pop_front() {
        successors(qos, net, t, st, |next, edge| {
            if let Some((a, b)) = edge {
                f(a, b);
            }
            if seen.insert(next) {
                queue.push_back(next);
            }
        });
    }
}

/// Whether devices `a` and `b` share a surviving link in `net`.
pub fn linked(net: &Net, a: DeviceId, b: DeviceId) -> bool {
    match (a, b) {
        (DeviceId::Switch(x), DeviceId::Switch(y)) => net.adjacent(x.0, y.0),
        (DeviceId::Switch(s), DeviceId::Host(h)) | (DeviceId::Host(h), DeviceId::Switch(s)) => {
            net.attach[h.index()].binary_search(&s.0).is_ok()
        }
        _ => false,
    }
}

/// Every edge a `path` statement induces. The path stops at a link that is down in this
/// scenario; a host only ends it (it was validated: hosts appear only at its ends).
pub fn path_edges(qos: &Qos, net: &Net, path: &ExplicitPath, mut f: impl FnMut(Queue, Queue)) {
    for c in qos.path_classes(path.class) {
        let mut ps = PState {
            class: c,
            rewritten: NATIVE,
        };
        let mut prev: Option<Queue> = None;
        for i in 0..path.hops.len().saturating_sub(1) {
            let (a, b) = (path.hops[i], path.hops[i + 1]);
            if !linked(net, a, b) {
                break;
            }
            let DeviceId::Switch(bs) = b else { break };
            if let (DeviceId::Switch(asw), Some(&before)) =
                (a, i.checked_sub(1).and_then(|j| path.hops.get(j)))
            {
                let p = qos.prio(asw.0, ps);
                ps = qos.step(net, asw.0, before, bs.0, p, ps);
            }
            let q = qos.prio(bs.0, ps);
            let node = match a {
                DeviceId::Switch(asw) if qos.lossless(bs.0, q, ps) => Some(Queue {
                    switch: bs.0,
                    from: asw.0,
                    priority: q,
                }),
                _ => None,
            };
            if let (Some(x), Some(y)) = (prev, node) {
                f(x, y);
            }
            prev = node;
        }
    }
}

/// One concrete route that makes traffic toward `dest` go through `a` then `b`: the devices
/// from a source host to a destination host (or to where it is dropped or starts looping).
/// The NICs are those at the first and the last switch (`Endpoints`).
pub fn route_through(
    qos: &Qos,
    net: &Net,
    dest: &Dest,
    t: &Table,
    a: Queue,
    b: Queue,
) -> Option<Vec<DeviceId>> {
    let mut parent: HashMap<State, Option<State>> = HashMap::new();
    let mut queue: VecDeque<State> = VecDeque::new();
    for st in initial_states(qos, net, dest) {
        if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(st) {
            e.insert(None);
            queue.push_back(st);
        }
    }
    // (the state whose transition induces the edge, the state it leads to)
    let mut hit: Option<(State, State)> = None;
    while let Some(st) = queue.pop_front() {
        let mut found = None;
        successors(qos, net, t, st, |next, edge| {
            if edge == Some((a, b)) && found.is_none() {
                found = Some(next);
            }
            parent.entry(next).or_insert_with(|| {
                queue.push_back(next);
                Some(st)
            });
        });
        if let Some(n) = found {
            hit = Some((st, n));
            break;
        }
    }
    let (before, hit) = hit?;
    // Back to the source along the BFS tree (each state got its parent once, so no cycles).
    let mut rev = vec![before];
    let mut cur = before;
    while let Some(Some(p)) = parent.get(&cur) {
        rev.push(*p);
        cur = *p;
    }
    rev.reverse();
    rev.push(hit);
    let first = rev[0];
    let src_host = match first.from {
        Ingress::Host(h) => Some(h),
        _ => net.hosts_at[first.at as usize]
            .iter()
            .copied()
            .find(|&h| dest.hosts != [h]),
    };
    let mut out: Vec<DeviceId> = Vec::new();
    if let Some(h) = src_host {
        out.push(DeviceId::Host(HostId(h)));
    }
    out.extend(rev.iter().map(|s| DeviceId::Switch(SwitchId(s.at))));
    // Onward along the first next hop until delivery, a drop, or a repeated state (a loop).
    let mut seen: HashSet<(u32, usize)> = HashSet::new();
    let mut at = hit.at;
    let mut phase = match hit.from {
        Ingress::Switch(u) => net.phase(u, at),
        _ => UP,
    };
    while seen.insert((at, phase)) {
        match t.hop(at, phase) {
            Hop::Deliver => {
                let dst = dest
                    .units
                    .iter()
                    .map(|&u| (net.ends.host[u as usize], &net.unit_attach[u as usize]))
                    .find(|&(h, a)| Some(h) != src_host && a.binary_search(&at).is_ok())
                    .map(|(h, _)| h);
                if let Some(h) = dst {
                    out.push(DeviceId::Host(HostId(h)));
                }
                return Some(out);
            }
            Hop::Drop => return Some(out),
            Hop::Via(v) => {
                let next = v[0];
                phase = net.phase(at, next);
                at = next;
                out.push(DeviceId::Switch(SwitchId(at)));
            }
        }
    }
    Some(out)
}
