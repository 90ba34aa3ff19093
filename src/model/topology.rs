//! The topology graph: a node per device (switches first, then hosts, so a node index is a
//! switch ID or `switches + host ID`), an edge per link carrying its `LinkId`.

use petgraph::graph::{NodeIndex, UnGraph};

use super::{DeviceId, Fabric, LinkId, Topology};

pub fn build(fabric: &Fabric) -> Topology {
    let mut graph: UnGraph<DeviceId, LinkId> = UnGraph::with_capacity(
        fabric.switches.len() + fabric.hosts.len(),
        fabric.links.len(),
    );
    for s in fabric.switch_ids() {
        graph.add_node(DeviceId::Switch(s));
    }
    for h in fabric.host_ids() {
        graph.add_node(DeviceId::Host(h));
    }
    let node = |d: DeviceId| node_of(fabric, d);
    for (i, l) in fabric.links.iter().enumerate() {
        graph.add_edge(node(l.a.device), node(l.b.device), LinkId(i as u32));
    }
    Topology { graph }
}

/// The graph node of a device.
pub fn node_of(fabric: &Fabric, d: DeviceId) -> NodeIndex {
    match d {
        DeviceId::Switch(s) => NodeIndex::new(s.index()),
        DeviceId::Host(h) => NodeIndex::new(fabric.switches.len() + h.index()),
    }
}
