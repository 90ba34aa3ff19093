//! The report's drawings of the fabric: a Mermaid flowchart for `report.md` (GitHub renders
//! it in pull requests) and `topology.dot` for Graphviz, each with the deadlock witness
//! when there is one.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::diagnostic::Diagnostic;
use crate::model::{DeviceId, Fabric};

/// Above this many hosts the graph draws switches only and collapses each leaf's hosts.
const BIG_FABRIC_HOSTS: usize = 64;

/// A speed as the report writes it: `400G`, or `2500M` off whole gigabits.
pub(super) fn gbps(mbps: u64) -> String {
    if mbps.is_multiple_of(1000) {
        format!("{}G", mbps / 1000)
    } else {
        format!("{mbps}M")
    }
}

/// A group of devices in the Mermaid diagram: the hosts, or the switches of one tier (a
/// generated tier, or a declared tier level and model).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    Hosts,
    /// (level, name, model): level 0 for switches without a tier.
    Switches(u8, String, String),
}

/// The tiers as a Mermaid flowchart (GitHub renders it in pull requests and file views): one
/// node per tier with its switch count, model and OS, the hosts at the bottom, and one edge
/// per pair of groups with the number of links and their speeds; then, when a deadlock
/// finding has a witness, the cycle of ingress queues. Names are identifiers (validated at
/// resolution), so they need no escaping inside the quoted labels.
pub(super) fn mermaid(f: &Fabric, diagnostics: &[Diagnostic]) -> String {
    let group_of = |d: DeviceId| -> Group {
        match d {
            DeviceId::Host(_) => Group::Hosts,
            DeviceId::Switch(s) => {
                let sw = f.switch(s);
                let model = f.switch_model(s).name.clone();
                match sw.generated {
                    Some(t) => {
                        let tier = &f.tiers[t.index()];
                        Group::Switches(tier.level, tier.name.clone(), model)
                    }
                    None => Group::Switches(
                        sw.tier.map_or(0, |t| t.value),
                        "switches".to_string(),
                        model,
                    ),
                }
            }
        }
    };
    let mut members: BTreeMap<Group, usize> = BTreeMap::new();
    for s in f.switch_ids() {
        *members.entry(group_of(DeviceId::Switch(s))).or_default() += 1;
    }
    let nics: usize = f.hosts.iter().map(|h| h.fabric_ports()).sum();
    let mut edges: BTreeMap<(Group, Group), (usize, BTreeSet<u64>)> = BTreeMap::new();
    for l in &f.links {
        let (a, b) = (group_of(l.a.device), group_of(l.b.device));
        let key = if a <= b { (a, b) } else { (b, a) };
        let e = edges.entry(key).or_default();
        e.0 += 1;
        e.1.insert(l.speed.get());
    }
    let ids: BTreeMap<&Group, String> = members
        .keys()
        .enumerate()
        .map(|(i, g)| (g, format!("g{i}")))
        .collect();
    let id = |g: &Group| -> String {
        match g {
            Group::Hosts => "hosts".to_string(),
            g => ids.get(g).cloned().unwrap_or_default(),
        }
    };
    let mut o = String::new();
    let _ = writeln!(o, "```mermaid\nflowchart BT");
    if !f.hosts.is_empty() {
        let _ = writeln!(o, "  hosts[\"{} hosts<br/>{nics} NICs\"]", f.hosts.len());
    }
    for (g, n) in &members {
        if let Group::Switches(level, name, model) = g {
            let os = f
                .switch_models
                .iter()
                .find(|m| &m.name == model)
                .map_or("", |m| m.os.value.as_str());
            let level = if *level == 0 {
                "no tier".to_string()
            } else {
                format!("tier {level}")
            };
            let _ = writeln!(
                o,
                "  {}[\"{name} ({level})<br/>{n} × {model}, {os}\"]",
                id(g)
            );
        }
    }
    for ((a, b), (count, speeds)) in &edges {
        let speeds: Vec<String> = speeds.iter().map(|&s| gbps(s)).collect();
        let plural = if *count == 1 { "link" } else { "links" };
        let _ = writeln!(
            o,
            "  {} ---|\"{count} {plural}, {}\"| {}",
            id(a),
            speeds.join("/"),
            id(b)
        );
    }
    let _ = writeln!(o, "```\n");
    if let Some(cycle) = diagnostics.iter().find_map(|d| d.cycle.as_ref()) {
        let _ = writeln!(
            o,
            "Deadlock witness: each node is an ingress queue (switch ← neighbour, priority); \
             each arrow a buffer dependency.\n"
        );
        let _ = writeln!(o, "```mermaid\nflowchart LR");
        for (i, hop) in cycle.iter().enumerate() {
            let _ = writeln!(
                o,
                "  q{i}[\"{} ← {}, priority {}\"]",
                hop.switch, hop.from, hop.priority
            );
        }
        for i in 0..cycle.len() {
            let _ = writeln!(o, "  q{i} --> q{}", (i + 1) % cycle.len());
        }
        let _ = writeln!(o, "```\n");
    }
    o
}

/// Graphviz of the fabric: one rank per tier; the deadlock witness in red.
pub(super) fn topology_dot(f: &Fabric, diagnostics: &[Diagnostic]) -> String {
    let big = f.hosts.len() > BIG_FABRIC_HOSTS;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "// {} — generated by fabricc build",
        dot_comment(&f.name)
    );
    let _ = writeln!(o, "graph {} {{", quote(&f.name));
    let _ = writeln!(o, "  rankdir=BT;");
    let _ = writeln!(o, "  node [shape=box, fontname=\"Helvetica\"];");
    // Witness edges (unordered device-name pairs) of every deadlock finding.
    let mut red: BTreeSet<(String, String)> = BTreeSet::new();
    for d in diagnostics {
        if let Some(cycle) = &d.cycle {
            for hop in cycle {
                red.insert(pair(&hop.switch, &hop.from));
            }
        }
    }
    // Ranks: by tier level (declared or generated), untiered switches together.
    let mut ranks: BTreeMap<u8, Vec<&str>> = BTreeMap::new();
    for s in &f.switches {
        ranks
            .entry(s.tier.map_or(0, |t| t.value))
            .or_default()
            .push(&s.name);
    }
    for (level, names) in &ranks {
        let _ = writeln!(o, "  subgraph rank_{level} {{");
        let _ = writeln!(o, "    rank=same;");
        for n in names {
            let _ = writeln!(o, "    {};", quote(n));
        }
        let _ = writeln!(o, "  }}");
    }
    // Hosts: drawn on small fabrics; on big ones collapsed into one node per leaf.
    if big {
        let mut per_leaf: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for l in &f.links {
            if let (DeviceId::Host(h), DeviceId::Switch(s))
            | (DeviceId::Switch(s), DeviceId::Host(h)) = (l.a.device, l.b.device)
            {
                per_leaf
                    .entry(&f.switch(s).name)
                    .or_default()
                    .insert(&f.host(h).name);
            }
        }
        let _ = writeln!(o, "  subgraph rank_hosts {{");
        let _ = writeln!(o, "    rank=min;");
        for (leaf, hosts) in &per_leaf {
            let _ = writeln!(
                o,
                "    {} [shape=ellipse, label=\"{} hosts\"];",
                quote(&format!("hosts@{leaf}")),
                hosts.len()
            );
        }
        let _ = writeln!(o, "  }}");
        for (leaf, hosts) in &per_leaf {
            let _ = writeln!(
                o,
                "  {} -- {} [label=\"×{}\"];",
                quote(&format!("hosts@{leaf}")),
                quote(leaf),
                hosts.len()
            );
        }
    } else if !f.hosts.is_empty() {
        let _ = writeln!(o, "  subgraph rank_hosts {{");
        let _ = writeln!(o, "    rank=min;");
        for h in &f.hosts {
            let _ = writeln!(o, "    {} [shape=ellipse];", quote(&h.name));
        }
        let _ = writeln!(o, "  }}");
    }
    // Edges: parallel links collapsed, with their count.
    let mut edges: BTreeMap<(String, String), usize> = BTreeMap::new();
    for l in &f.links {
        let host_end =
            matches!(l.a.device, DeviceId::Host(_)) || matches!(l.b.device, DeviceId::Host(_));
        if big && host_end {
            continue;
        }
        *edges
            .entry(pair(f.device_name(l.a.device), f.device_name(l.b.device)))
            .or_default() += 1;
    }
    for ((a, b), n) in &edges {
        let mut attrs = Vec::new();
        if *n > 1 {
            attrs.push(format!("label=\"×{n}\""));
        }
        if red.remove(&(a.clone(), b.clone())) {
            attrs.push("color=red, penwidth=3".to_string());
        }
        let attrs = if attrs.is_empty() {
            String::new()
        } else {
            format!(" [{}]", attrs.join(", "))
        };
        let _ = writeln!(o, "  {} -- {}{attrs};", quote(a), quote(b));
    }
    // Witness hops without a physical edge (should not happen) are still drawn.
    for (a, b) in &red {
        let _ = writeln!(
            o,
            "  {} -- {} [color=red, style=dashed];",
            quote(a),
            quote(b)
        );
    }
    let _ = writeln!(o, "}}");
    o
}

fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// A DOT double-quoted ID.
fn quote(s: &str) -> String {
    format!(
        "\"{}\"",
        s.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace(['\n', '\r'], " ")
    )
}

fn dot_comment(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(name: &str) -> crate::pipeline::Checked {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
        let mut sources = crate::source::Sources::new();
        crate::pipeline::check(&mut sources, &path, &crate::model::Limits::default())
            .expect("fixture readable")
    }

    #[test]
    fn mermaid_draws_the_tiers_with_counts() {
        let c = checked("fixtures/fabrics/pod-256.fab");
        let f = c.fabric.as_ref().expect("resolves");
        let m = mermaid(f, &c.diagnostics);
        assert!(m.starts_with("```mermaid\nflowchart BT\n"), "{m}");
        assert!(m.contains("hosts[\"32 hosts<br/>256 NICs\"]"), "{m}");
        assert!(m.contains("(tier 1)<br/>8 × sn5400, sonic"), "{m}");
        assert!(m.contains("(tier 2)<br/>4 × sn5400, sonic"), "{m}");
        assert!(m.contains("hosts ---|\"256 links, 400G\"|"), "{m}");
        assert!(m.contains("---|\"256 links, 400G\"| g1"), "{m}");
        assert!(
            !m.contains("Deadlock witness"),
            "no witness without a deadlock: {m}"
        );
    }

    #[test]
    fn mermaid_draws_the_deadlock_witness() {
        let c = checked("fixtures/deadlock/hotnets-square.fab");
        let f = c.fabric.as_ref().expect("resolves");
        let m = mermaid(f, &c.diagnostics);
        let witness = &m[m.find("Deadlock witness").expect("a witness section")..];
        for hop in [
            "A ← D, priority 3",
            "B ← A, priority 3",
            "C ← B, priority 3",
            "D ← C, priority 3",
        ] {
            assert!(witness.contains(hop), "{hop} in {witness}");
        }
        assert!(witness.contains("q3 --> q0"), "the cycle closes: {witness}");
    }

    #[test]
    fn dot_quotes() {
        assert_eq!(quote("a\"b"), "\"a\\\"b\"");
    }
}
