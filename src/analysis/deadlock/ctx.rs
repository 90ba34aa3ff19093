//! What the proof's steps share: the scenario-independent inputs ([`Ctx`]) and what the proof
//! found ([`Proof`], [`Cycle`]). The proof, its reporting and the failure scenarios all read
//! these, so they sit below all three.

use std::sync::Arc;

use crate::diagnostic::{CycleHop, Diagnostic};
use crate::model::{Fabric, LinkId, RoutingModel};

use super::buffer_graph;
use super::buffer_graph::{BufferDependencyGraph, Cause};
use super::tagger::Qos;
use crate::analysis::facts::{DeadlockFacts, Unreachable};
use crate::analysis::routing::{Endpoints, Net, Routes};

/// Failure scenarios that cut NIC pairs off, reported one finding each; the rest are one.
pub const SCENARIO_FINDINGS: usize = 50;

/// A witness cycle and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    /// The ingress queues, in dependency order, starting at the smallest.
    pub hops: Vec<CycleHop>,
    /// Extra failed links of the scenario (`L2--T1`), empty for the fabric as declared.
    pub scenario: Vec<String>,
    /// Per edge `hops[i] -> hops[i+1]`: one inducing route and its kind.
    pub routes: Vec<String>,
    pub minimal: bool,
}

/// Everything the proof found.
#[derive(Debug, Clone, Default)]
pub struct Proof {
    pub facts: DeadlockFacts,
    pub unreachable: Vec<Unreachable>,
    pub diagnostics: Vec<Diagnostic>,
    pub cycles: Vec<Cycle>,
    /// The graph of the fabric as declared, when it was built.
    pub graph: Option<BufferDependencyGraph>,
    /// Whether the valley-free certificate replaced the graph.
    pub certified: bool,
    /// Static-route loops as switch-name sequences.
    pub loops: Vec<Vec<String>>,
}

/// Shared, scenario-independent inputs.
pub struct Ctx<'f> {
    pub fabric: &'f Fabric,
    pub qos: Qos,
    /// Paths that passed validation.
    pub paths: Vec<usize>,
    /// The endpoints routed traffic is addressed to (NICs, bonds).
    pub ends: Arc<Endpoints>,
    /// Per endpoint, its switches with every link up (before `fail`).
    pub intact_attach: Vec<Vec<u32>>,
    /// Links down in the fabric as declared (`fail`).
    pub base_failed: Vec<bool>,
    /// Endpoints with no link at all (a host without links is FAB605): left out of FAB701.
    pub isolated: Vec<bool>,
}

impl Ctx<'_> {
    pub fn net(&self, extra: &[LinkId]) -> Net {
        Net::build_with(self.fabric, self.ends.clone(), &|l| {
            self.base_failed[l.index()] || extra.contains(&l)
        })
    }

    /// How findings name an endpoint: its host, or its NICs when the host has several.
    pub fn unit_label(&self, u: u32) -> String {
        self.ends.label(self.fabric, u)
    }

    pub fn routes(
        &self,
        net: Net,
        fragile: usize,
        graph: Option<&mut BufferDependencyGraph>,
    ) -> Routes {
        match graph {
            Some(g) => {
                let r = Routes::compute(
                    self.fabric,
                    net,
                    &self.intact_attach,
                    fragile,
                    true,
                    |net, i, d, t| {
                        buffer_graph::dest_edges(&self.qos, net, d, t, |a, b| {
                            g.edge(a, b, Cause::Route(i as u32))
                        });
                    },
                );
                for &i in &self.paths {
                    buffer_graph::path_edges(
                        &self.qos,
                        &r.net,
                        &self.fabric.routing.paths[i],
                        |a, b| {
                            g.edge(a, b, Cause::Path(i as u32));
                        },
                    );
                }
                r
            }
            None => Routes::compute(
                self.fabric,
                net,
                &self.intact_attach,
                fragile,
                false,
                |_, _, _, _| {},
            ),
        }
    }

    /// Whether the valley-free certificate applies (see the module header).
    pub fn certified(&self) -> bool {
        let r = &self.fabric.routing;
        r.model.value == RoutingModel::Updown
            && r.routes.is_empty()
            && self.paths.is_empty()
            && r.paths.is_empty()
            && !self.qos.rewrites_anything()
    }

    pub fn link_name(&self, l: LinkId) -> String {
        let link = self.fabric.link(l);
        format!(
            "{}--{}",
            self.fabric.device_name(link.a.device),
            self.fabric.device_name(link.b.device)
        )
    }
}
