//! Devices: `switch` and `host` blocks (several per device merge), the generated tiers, and
//! the final switch and host tables in natural name order.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::diagnostic::{Code, Diagnostic};
use crate::model::generate::{self, GenEnd, WiredHost};
use crate::model::names::{expand, natural_cmp};
use crate::model::{
    Bytes, ClassOverride, DeviceId, Endpoint, Fabric, Host, HostId, Limits, Link, LinkId, Nic,
    Sourced, Switch, SwitchId, Tier, TierId, Watchdog,
};
use crate::span::Span;
use crate::syntax::ast::{self, HostProp, NicRole, StmtKind, SwitchProp};
use crate::syntax::bounds::pci_address;

use super::attach::attach;
use super::classes::{self, ClassDraft};
use super::slot::put;
use super::{Names, links, lookup, undefined};

#[derive(Default)]
struct SwitchDraft {
    span: Span,
    model: Option<Sourced<ast::Ident>>,
    tier: Option<Sourced<u8>>,
    mtu: Option<Sourced<u64>>,
    description: Option<Sourced<String>>,
    classes: BTreeMap<String, (ast::Ident, ClassDraft)>,
    watchdog: Option<Sourced<Watchdog>>,
}

/// The statement index whose block set a host's NICs, where, and the NIC lines.
type NicLines = (usize, Span, Vec<(ast::Ident, u64, NicRole)>);

#[derive(Default)]
struct HostDraft {
    span: Span,
    nics: Option<NicLines>,
    netdev: Option<Sourced<Vec<String>>>,
    rdma: Option<Sourced<Vec<String>>>,
    pci: Option<Sourced<Vec<String>>>,
    /// The YAML form's per-port planes.
    planes: Option<Sourced<Vec<u32>>>,
    bond: Option<Sourced<ast::BondMode>>,
    spare: Option<Sourced<bool>>,
    classes: BTreeMap<String, (ast::Ident, ClassDraft)>,
    pfc: Option<Sourced<bool>>,
    ecn_off: Option<Sourced<bool>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Identity {
    Netdev,
    Rdma,
    Pci,
}

/// The first value that occurs twice.
/// The YAML form's `plane` of each NIC port (what `planes N` set before export), so the
/// per-plane analyses judge the YAML as they judged the `.fab`.
fn apply_planes(
    name: &str,
    planes: Option<&Sourced<Vec<u32>>>,
    nics: &mut [Nic],
    diags: &mut Vec<Diagnostic>,
) {
    let Some(l) = planes else { return };
    if l.value.len() != nics.len() {
        diags.push(
            Diagnostic::new(
                Code::MissingProperty,
                l.span,
                format!(
                    "host `{name}` has {} NIC ports but {} `plane` values",
                    nics.len(),
                    l.value.len()
                ),
            )
            .label("one per NIC port, in NIC order")
            .help("give every port of the host's `nics` a `plane`, or none"),
        );
        return;
    }
    for (n, p) in nics.iter_mut().zip(&l.value) {
        n.plane = *p;
    }
}

fn first_repeat(values: &[String]) -> Option<&str> {
    let mut seen = std::collections::BTreeSet::new();
    values
        .iter()
        .find(|v| !seen.insert(v.as_str()))
        .map(String::as_str)
}

fn expand_all(
    patterns: &[ast::NamePattern],
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for p in patterns {
        match expand(p, limits.max_range) {
            Ok(names) => out.extend(names.into_iter().map(|n| (n, p.span))),
            Err(d) => diags.push(d),
        }
    }
    out
}

fn class_draft<'a>(
    map: &'a mut BTreeMap<String, (ast::Ident, ClassDraft)>,
    class: &ast::Ident,
) -> &'a mut ClassDraft {
    &mut map
        .entry(class.node.clone())
        .or_insert_with(|| (class.clone(), ClassDraft::default()))
        .1
}

pub(super) fn build(
    fabric: &mut Fabric,
    stmts: &[&ast::Stmt],
    names: &Names,
    class_count: usize,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(drafts) = drafts(stmts, limits, diags) else {
        return;
    };
    let host_ids = hosts(
        fabric,
        drafts.hosts,
        drafts.host_order,
        names,
        class_count,
        diags,
    );
    let raw_links = links::collect(stmts, limits, diags);
    let linked = linked_hosts(fabric, &raw_links, &host_ids);
    let generated = generated_tiers(fabric, stmts, &linked, names, limits, diags);
    let Some((id_of_entry, switch_ids)) = switches(
        fabric,
        &generated,
        drafts.switches,
        &drafts.switch_order,
        names,
        class_count,
        diags,
    ) else {
        return;
    };
    tiers(fabric, &generated, &id_of_entry);
    fabric
        .links
        .reserve(generated.links.len() + raw_links.len());
    generated_links(fabric, &generated, &id_of_entry);
    links::bind(fabric, &raw_links, &switch_ids, &host_ids, diags);
}

/// Every device's blocks merged per name, in order of first appearance.
#[derive(Default)]
struct Drafts {
    switches: HashMap<String, SwitchDraft>,
    switch_order: Vec<String>,
    hosts: HashMap<String, HostDraft>,
    host_order: Vec<String>,
}

/// The drafts of every `switch` and `host` block; `None` once more devices are declared than
/// the limit allows (nothing after that is worth resolving).
fn drafts(stmts: &[&ast::Stmt], limits: &Limits, diags: &mut Vec<Diagnostic>) -> Option<Drafts> {
    let mut drafts = Drafts::default();
    let mut device_count: u64 = 0;
    for (si, s) in stmts.iter().enumerate() {
        match &s.kind {
            StmtKind::Switch(decl) => {
                for (name, span) in expand_all(&decl.names, limits, diags) {
                    let d = drafts.switches.entry(name.clone()).or_insert_with(|| {
                        drafts.switch_order.push(name.clone());
                        device_count += 1;
                        SwitchDraft {
                            span,
                            ..SwitchDraft::default()
                        }
                    });
                    switch_props(d, &name, decl, diags);
                }
            }
            StmtKind::Host(decl) => {
                for (name, span) in expand_all(&decl.names, limits, diags) {
                    let d = drafts.hosts.entry(name.clone()).or_insert_with(|| {
                        drafts.host_order.push(name.clone());
                        device_count += 1;
                        HostDraft {
                            span,
                            ..HostDraft::default()
                        }
                    });
                    host_props(d, &name, si, decl, limits, diags);
                }
            }
            _ => {}
        }
        if device_count > limits.max_devices {
            diags.push(
                Diagnostic::new(
                    Code::LimitExceeded,
                    s.span,
                    format!("more than {} devices are declared", limits.max_devices),
                )
                .label("the limit is passed here")
                .help("raise the limit with `--max-devices`"),
            );
            return None;
        }
    }
    switch_host_clashes(&drafts, diags);
    Some(drafts)
}

/// Switches and hosts share one name space.
fn switch_host_clashes(drafts: &Drafts, diags: &mut Vec<Diagnostic>) {
    for name in drafts.switch_order.iter().chain(&drafts.host_order) {
        if let (Some(switch), Some(host)) = (drafts.switches.get(name), drafts.hosts.get(name)) {
            let (a, b) = (switch.span, host.span);
            diags.push(
                Diagnostic::new(
                    Code::Duplicate,
                    b.max(a),
                    format!("`{name}` is declared both as a switch and as a host"),
                )
                .label("second declaration")
                .with_secondary(a.min(b), "first declaration")
                .help("device names are shared by switches and hosts; rename one"),
            );
        }
    }
}

/// The hosts in natural name order, with their NICs; returns their IDs by name.
fn hosts(
    fabric: &mut Fabric,
    mut drafts: HashMap<String, HostDraft>,
    mut order: Vec<String>,
    names: &Names,
    class_count: usize,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<String, HostId> {
    order.sort_by(|a, b| natural_cmp(a, b));
    let mut host_ids: HashMap<String, HostId> = HashMap::with_capacity(order.len());
    for name in &order {
        let d = drafts.remove(name).unwrap_or_default();
        let id = HostId(fabric.hosts.len() as u32);
        host_ids.insert(name.clone(), id);
        let mut nics = host_nics(fabric, name, &d, names, diags);
        nic_identities(name, &d, &mut nics, diags);
        apply_planes(name, d.planes.as_ref(), &mut nics, diags);
        let overrides = host_class_overrides(d.classes, names, class_count, diags);
        fabric.hosts.push(Host {
            name: name.clone(),
            span: d.span,
            nics,
            class_overrides: overrides,
            pfc: d.pfc,
            ecn_off: d.ecn_off.filter(|e| !e.value).map(|e| e.span),
            generated: false,
            bonds: Vec::new(),
            bond: d.bond,
            spare: d.spare.map(|s| s.span),
            plane_list: d.planes.as_ref().map(|p| p.span),
        });
    }
    host_ids
}

/// The host's NIC ports from its `nic` lines, not yet linked or named.
fn host_nics(
    fabric: &Fabric,
    name: &str,
    d: &HostDraft,
    names: &Names,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Nic> {
    let mut nics = Vec::new();
    let Some((_, _, lines)) = &d.nics else {
        diags.push(
            Diagnostic::new(
                Code::MissingProperty,
                d.span,
                format!("host `{name}` has no NIC"),
            )
            .label("declared here")
            .help("add `nic MODEL` or `nic MODEL x N` to the host's block"),
        );
        return nics;
    };
    let mut card = 0u32;
    for (model, count, role) in lines {
        if let Some(m) = lookup(&names.nic_models, model, "NIC model", diags) {
            // One entry per cabled port: a `ports 2 x 200G` NIC gives two, each with
            // its own link, netdev and host script lines (issue 18).
            let ports = fabric.nic_models[m.index()].ports;
            for _ in 0..*count {
                card += 1;
                for p in 1..=ports {
                    nics.push(Nic {
                        model: m,
                        card,
                        port: if ports > 1 { p } else { 0 },
                        plane: 0,
                        role: *role,
                        link: None,
                        netdev: None,
                        rdma_device: None,
                        pci: None,
                    });
                }
            }
        }
    }
    nics
}

/// `netdev`, `rdma-device` and `pci`: one per NIC port, in NIC order, none twice.
fn nic_identities(name: &str, d: &HostDraft, nics: &mut [Nic], diags: &mut Vec<Diagnostic>) {
    let lists = [
        (&d.netdev, "netdev", Identity::Netdev),
        (&d.rdma, "rdma-device", Identity::Rdma),
        (&d.pci, "pci", Identity::Pci),
    ];
    for (list, what, which) in lists {
        let Some(l) = list else { continue };
        if l.value.len() != nics.len() {
            diags.push(
                Diagnostic::new(
                    Code::MissingProperty,
                    l.span,
                    format!(
                        "host `{name}` has {} NICs but {} `{what}` {}",
                        nics.len(),
                        l.value.len(),
                        if which == Identity::Pci {
                            "addresses"
                        } else {
                            "names"
                        }
                    ),
                )
                .label("one per NIC, in NIC order")
                .help(format!("give exactly {}", nics.len())),
            );
            continue;
        }
        if let Some(dup) = first_repeat(&l.value) {
            diags.push(
                Diagnostic::new(
                    Code::Duplicate,
                    l.span,
                    format!("host `{name}` names `{what}` `{dup}` for two NICs"),
                )
                .label("one per NIC, each a different port")
                .help("a NIC's identity picks one port; two NICs cannot share it"),
            );
            continue;
        }
        for (n, v) in nics.iter_mut().zip(&l.value) {
            let slot = match which {
                Identity::Netdev => &mut n.netdev,
                Identity::Rdma => &mut n.rdma_device,
                Identity::Pci => &mut n.pci,
            };
            *slot = Some(v.clone());
        }
    }
}

/// The host's class settings; the switch-only ones are reported and dropped.
fn host_class_overrides(
    classes: BTreeMap<String, (ast::Ident, ClassDraft)>,
    names: &Names,
    class_count: usize,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ClassOverride> {
    let mut overrides =
        vec![ClassOverride::default(); if classes.is_empty() { 0 } else { class_count }];
    for (ident, draft) in classes.into_values() {
        if let Some(c) = names.class(&ident, diags) {
            if draft.headroom.is_some() || draft.pfc_threshold.is_some() {
                let span = draft
                    .headroom
                    .or(draft.pfc_threshold)
                    .map_or(ident.span, |s| s.span);
                diags.push(
                    Diagnostic::new(Code::NotAllowedHere, span, "headroom and pause thresholds are switch settings")
                        .label("in a host block")
                        .help("hosts set their NIC buffers from the cable length; move this into a `switch` block"),
                );
            }
            overrides[c.index()] = classes::finish_override(draft, None, diags);
        }
    }
    overrides
}

/// The hosts some `link` names: the tiers leave them to their links.
fn linked_hosts(
    fabric: &Fabric,
    raw_links: &[links::RawLink],
    host_ids: &HashMap<String, HostId>,
) -> HashSet<HostId> {
    let mut linked: HashSet<HostId> = HashSet::new();
    for l in raw_links {
        for e in [&l.a, &l.b] {
            if let Some(&h) = host_ids.get(&e.name) {
                linked.insert(h);
            } else if let Some((dev, nic)) = e.name.split_once('.')
                && let Some(&h) = host_ids.get(dev)
                && names_backend(fabric.host(h), nic)
            {
                linked.insert(h);
            }
        }
    }
    linked
}

/// The `tier` statements generated over the hosts no link names.
fn generated_tiers(
    fabric: &mut Fabric,
    stmts: &[&ast::Stmt],
    linked: &HashSet<HostId>,
    names: &Names,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) -> generate::Generated {
    let tier_decls: Vec<&ast::TierDecl> = stmts
        .iter()
        .filter_map(|s| {
            if let StmtKind::Tier(t) = &s.kind {
                Some(t)
            } else {
                None
            }
        })
        .collect();
    if tier_decls.is_empty() {
        return generate::Generated::default();
    }
    // Tiers wire backend NICs only (issue 18 item 4): a host's storage and frontend
    // NICs are no rail, and a host with none but those is no GPU host to wire.
    let wired: Vec<WiredHost> = fabric
        .host_ids()
        .filter(|h| !linked.contains(h))
        .filter(|&h| backend_count(fabric.host(h)) > 0 || fabric.host(h).nics.is_empty())
        .map(|h| {
            let host = fabric.host(h);
            let model = host
                .nics
                .iter()
                .find(|n| n.role == NicRole::Backend)
                .map(|n| &fabric.nic_models[n.model.index()]);
            WiredHost {
                id: h,
                nics: backend_count(host),
                nic_speed: model.map_or(0, |m| m.speed.value.get()),
                ports: model.map_or(1, |m| m.ports),
                spare: host.spare,
            }
        })
        .collect();
    let generated = generate::generate(
        &tier_decls,
        &wired,
        &fabric.switch_models,
        &names.switch_models,
        limits,
        diags,
    );
    for w in &wired {
        let host = &mut fabric.hosts[w.id.index()];
        host.generated = !generated.links.is_empty();
        if generated.planes > 1 {
            // Port k of every NIC is in plane k (the generator checked the port count). A
            // `plane` list that says otherwise is not what gets wired: say so (FAB619).
            let mut replaced = Vec::new();
            for n in host.nics.iter_mut().filter(|n| n.role == NicRole::Backend) {
                if n.plane != 0 && n.plane != n.port {
                    replaced.push((n.plane, n.port));
                }
                n.plane = n.port;
            }
            if let (Some(span), Some(&(said, wired))) = (host.plane_list, replaced.first()) {
                diags.push(
                    Diagnostic::new(
                        Code::PlaneListReplaced,
                        span,
                        format!(
                            "host `{}`'s `plane` list is replaced by the tier's `planes {}`: {} NIC port{} listed in another plane than the generator wires (the first listed in plane {said} goes to plane {wired})",
                            host.name,
                            generated.planes,
                            replaced.len(),
                            if replaced.len() == 1 { " is" } else { "s are" },
                        ),
                    )
                    .label("this list is not what is wired")
                    .help("remove the `plane` list (a generated tier puts port k of every NIC in plane k), or wire the planes with explicit links"),
                );
            }
        }
    }
    generated
}

/// A switch that will exist: generated by a tier, or declared with a model.
struct SwitchEntry {
    name: String,
    span: Span,
    model: Option<crate::model::SwitchModelId>,
    tier: Option<Sourced<u8>>,
    generated: Option<TierId>,
}

/// The switches, explicit (drafts with a model) and generated, in natural name order; the
/// other drafts override generated switches. Returns each entry's ID (generated switch `g`
/// is entry `g`) and the IDs by name; `None` when an error stops the resolution here.
fn switches(
    fabric: &mut Fabric,
    generated: &generate::Generated,
    drafts: HashMap<String, SwitchDraft>,
    order: &[String],
    names: &Names,
    class_count: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<SwitchId>, HashMap<String, SwitchId>)> {
    let (mut entries, gen_names) = generated_entries(generated, order.len(), diags)?;
    let override_of = declared_entries(
        &mut entries,
        &gen_names,
        generated,
        drafts,
        order,
        names,
        diags,
    );
    let (id_of_entry, switch_ids) = add_switches(fabric, &entries);
    if diags.iter().any(Diagnostic::is_error) {
        return None;
    }
    // Entries without a model were skipped, so IDs equal positions only when none failed.
    for (idx, d) in override_of {
        let sid = id_of_entry[idx];
        apply_switch_draft(fabric, sid, d, names, class_count, diags);
    }
    Some((id_of_entry, switch_ids))
}

/// The generated switches, first among the entries, and their names; `None` when a name
/// template gives a name twice or an invalid one.
fn generated_entries<'g>(
    generated: &'g generate::Generated,
    declared: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<SwitchEntry>, HashMap<&'g str, u32>)> {
    let mut entries: Vec<SwitchEntry> = Vec::with_capacity(declared + generated.switches.len());
    let mut gen_names: HashMap<&str, u32> = HashMap::with_capacity(generated.switches.len());
    for (i, g) in generated.switches.iter().enumerate() {
        if gen_names.contains_key(g.name.as_str()) {
            diags.push(
                Diagnostic::new(
                    Code::BadNameTemplate,
                    g.span,
                    format!("the name template gives `{}` to more than one switch", g.name),
                )
                .label("tier with a clashing name template")
                .help("add a placeholder that tells the switches apart, e.g. `{n}`, `{rail}` or `{group}`"),
            );
            return None;
        }
        if !crate::model::names::is_identifier(&g.name) {
            diags.push(
                Diagnostic::new(
                    Code::BadNameTemplate,
                    g.span,
                    format!(
                        "the name template gives `{}`, which is not a valid name",
                        g.name
                    ),
                )
                .label("tier")
                .help("start the template with a letter, e.g. `leaf{n}`"),
            );
            return None;
        }
        gen_names.insert(&g.name, i as u32);
        entries.push(SwitchEntry {
            name: g.name.clone(),
            span: g.span,
            model: Some(g.model),
            tier: Some(Sourced::set(g.level, g.span)),
            generated: Some(g.tier),
        });
    }
    Some((entries, gen_names))
}

/// The `switch` blocks: a block with a model declares a switch, one without overrides the
/// generated switch of its name. Returns the drafts to apply, by entry.
fn declared_entries(
    entries: &mut Vec<SwitchEntry>,
    gen_names: &HashMap<&str, u32>,
    generated: &generate::Generated,
    mut drafts: HashMap<String, SwitchDraft>,
    order: &[String],
    names: &Names,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(usize, SwitchDraft)> {
    let mut override_of: Vec<(usize, SwitchDraft)> = Vec::new();
    for name in order {
        let Some(d) = drafts.remove(name) else {
            continue;
        };
        let gen_idx = gen_names.get(name.as_str()).copied();
        match (&d.model, gen_idx) {
            (Some(m), Some(g)) => {
                diags.push(
                    Diagnostic::new(Code::Duplicate, m.value.span, format!("switch `{name}` is also generated by tier `{}`", generated.tiers[generated.switches[g as usize].tier.index()].name))
                        .label("declared with a model here")
                        .with_secondary(generated.switches[g as usize].span, "generated by this tier")
                        .help("rename the switch, or drop `model` to make this block an override of the generated switch"),
                );
            }
            (None, Some(g)) => override_of.push((g as usize, d)),
            (Some(m), None) => {
                let model = lookup(&names.switch_models, &m.value, "switch model", diags);
                let idx = entries.len();
                entries.push(SwitchEntry {
                    name: name.clone(),
                    span: d.span,
                    model,
                    tier: d.tier,
                    generated: None,
                });
                override_of.push((idx, d));
            }
            (None, None) => {
                // Candidates: switches that exist (declared with a model, or generated).
                let known = entries.iter().map(|e| e.name.as_str());
                let mut diag = undefined("switch", name, d.span, known);
                diag.message =
                    format!("switch `{name}` has no `model` and is not generated by a tier");
                diag.help = Some(match diag.help.take() {
                    Some(h) if h.starts_with("did you mean") => h,
                    _ => "add `model NAME`, or check the name of the generated switch this block should change".into(),
                });
                diags.push(diag);
            }
        }
    }
    override_of
}

/// The switches in natural name order, each with its model's ports, not yet connected.
fn add_switches(
    fabric: &mut Fabric,
    entries: &[SwitchEntry],
) -> (Vec<SwitchId>, HashMap<String, SwitchId>) {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| natural_cmp(&entries[a].name, &entries[b].name));
    let mut id_of_entry = vec![SwitchId(0); entries.len()];
    let mut switch_ids: HashMap<String, SwitchId> = HashMap::with_capacity(entries.len());
    for (pos, &e) in order.iter().enumerate() {
        id_of_entry[e] = SwitchId(pos as u32);
    }
    for &e in &order {
        let entry = &entries[e];
        let Some(model) = entry.model else { continue };
        let ports = fabric.switch_models[model.index()].port_count() as usize;
        switch_ids.insert(entry.name.clone(), SwitchId(fabric.switches.len() as u32));
        fabric.switches.push(Switch {
            name: entry.name.clone(),
            span: entry.span,
            model,
            tier: entry.tier,
            mtu: None,
            description: None,
            ports: vec![None; ports],
            class_overrides: Vec::new(),
            watchdog: None,
            generated: entry.generated,
            fill_base: None,
        });
    }
    (id_of_entry, switch_ids)
}

/// The generated tiers, level 1 first, with their switches' IDs.
fn tiers(fabric: &mut Fabric, generated: &generate::Generated, id_of_entry: &[SwitchId]) {
    for (i, t) in generated.tiers.iter().enumerate() {
        fabric.tiers.push(Tier {
            name: t.name.clone(),
            span: t.span,
            level: i as u8 + 1,
            model: t.model,
            oversubscription: t.oversubscription,
            downlinks: t.downlinks,
            uplinks: t.uplinks,
            switches: t
                .switches
                .iter()
                .map(|&g| id_of_entry[g as usize])
                .collect(),
        });
    }
}

/// The tiers' links, attached to their ends; explicit links come after them.
fn generated_links(fabric: &mut Fabric, generated: &generate::Generated, id_of_entry: &[SwitchId]) {
    // The generator counts a host's backend NICs; hosts with other NICs map that count back
    // to the NIC's index in the host.
    let backend_index: HashMap<HostId, Vec<u32>> = fabric
        .host_ids()
        .filter(|&h| backend_count(fabric.host(h)) as usize != fabric.host(h).nics.len())
        .map(|h| (h, backend_indices(fabric.host(h))))
        .collect();
    let end = |e: GenEnd| match e {
        GenEnd::Host(h, nic) => Endpoint {
            device: DeviceId::Host(h),
            port: backend_index
                .get(&h)
                .and_then(|v| v.get(nic as usize).copied())
                .unwrap_or(nic),
        },
        GenEnd::Switch(g, port) => Endpoint {
            device: DeviceId::Switch(id_of_entry[g as usize]),
            port,
        },
    };
    for g in &generated.links {
        let id = LinkId(fabric.links.len() as u32);
        let (a, b) = (end(g.down), end(g.up));
        attach(fabric, a, id);
        attach(fabric, b, id);
        fabric.links.push(Link {
            a,
            b,
            speed: g.speed,
            cable_mm: g.cable_mm,
            span: g.span,
            generated: Some(g.tier),
            ecn: Vec::new(),
        });
    }
}

fn switch_props(
    d: &mut SwitchDraft,
    name: &str,
    decl: &ast::SwitchDecl,
    diags: &mut Vec<Diagnostic>,
) {
    let of = |what: &str| format!("`{what}` of switch `{name}`");
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            SwitchProp::Model(m) => put(&mut d.model, m.clone(), span, &of("model"), diags),
            SwitchProp::Tier(t) => put(&mut d.tier, t.node, span, &of("tier"), diags),
            SwitchProp::Mtu(m) => put(&mut d.mtu, m.node, span, &of("mtu"), diags),
            SwitchProp::Description(s) => put(
                &mut d.description,
                s.node.clone(),
                span,
                &of("description"),
                diags,
            ),
            SwitchProp::Class(c) => {
                classes::collect(class_draft(&mut d.classes, &c.name), c, diags)
            }
            SwitchProp::Ecn { class, spec } => {
                classes::ecn(class_draft(&mut d.classes, class), spec, span, diags)
            }
            SwitchProp::Headroom { class, size } => {
                put(
                    &mut class_draft(&mut d.classes, class).headroom,
                    size.node,
                    span,
                    &of("headroom"),
                    diags,
                );
            }
            SwitchProp::PfcThreshold { class, size } => {
                put(
                    &mut class_draft(&mut d.classes, class).pfc_threshold,
                    size.node,
                    span,
                    &of("pfc-threshold"),
                    diags,
                );
            }
            SwitchProp::Watchdog(w) => {
                let setting = super::watchdog_setting(w, diags);
                put(&mut d.watchdog, setting, span, &of("pfc-watchdog"), diags);
            }
        }
    }
}

/// Ports of a host's backend NICs, the ones tiers wire into rails (issue 18 item 4).
fn backend_count(host: &Host) -> u32 {
    host.nics
        .iter()
        .filter(|n| n.role == NicRole::Backend)
        .count() as u32
}

/// Indices into `host.nics` of its backend ports, in NIC order.
fn backend_indices(host: &Host) -> Vec<u32> {
    (0..host.nics.len() as u32)
        .filter(|&i| host.nics[i as usize].role == NicRole::Backend)
        .collect()
}

/// Whether a link end `nicN…` of `host` names a backend NIC (or one this cannot tell, which
/// the link resolution reports): a `link` to a storage NIC leaves the tiers wiring the
/// host's rails.
fn names_backend(host: &Host, nic: &str) -> bool {
    let card = nic
        .split('.')
        .next()
        .and_then(|n| n.strip_prefix("nic"))
        .and_then(|n| n.parse::<u32>().ok());
    let Some(card) = card else { return true };
    let mut ports = host.nics.iter().filter(|n| n.card == card).peekable();
    ports.peek().is_none() || ports.any(|n| n.role == NicRole::Backend)
}

/// NICs one host may have: far above any server, and each is allocated and wired.
const MAX_NICS: u64 = 64;

fn host_props(
    d: &mut HostDraft,
    name: &str,
    stmt: usize,
    decl: &ast::HostDecl,
    limits: &Limits,
    diags: &mut Vec<Diagnostic>,
) {
    let of = |what: &str| format!("`{what}` of host `{name}`");
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            HostProp::Nic { model, count, role } => {
                let role = role.map_or(NicRole::Backend, |r| r.node);
                let asked = count.map_or(1, |c| c.node);
                // Past the bound is an error below; the NICs kept stay bounded, as every one
                // of them is allocated (and wired) per host.
                let n = asked.min(MAX_NICS);
                match &mut d.nics {
                    Some((s, _, lines)) if *s == stmt => lines.push((model.clone(), n, role)),
                    Some((_, first, _)) => {
                        diags.push(super::slot::set_twice("the host's NICs", span, *first))
                    }
                    None => d.nics = Some((stmt, span, vec![(model.clone(), n, role)])),
                }
                if asked > MAX_NICS {
                    diags.push(
                        Diagnostic::new(
                            Code::OutOfRange,
                            count.map_or(span, |c| c.span),
                            format!("{asked} NICs in one host"),
                        )
                        .label("NIC count")
                        .help(format!("a host has at most {MAX_NICS} NICs")),
                    );
                }
            }
            HostProp::Netdev(list) => {
                let v = expand_all(list, limits, diags)
                    .into_iter()
                    .map(|(n, _)| n)
                    .collect();
                put(&mut d.netdev, v, span, &of("netdev"), diags);
            }
            HostProp::Pci(list) => {
                // The parser and the tree check accept only valid addresses.
                let v = list.iter().filter_map(|a| pci_address(&a.node)).collect();
                put(&mut d.pci, v, span, &of("pci"), diags);
            }
            HostProp::Planes(list) => {
                let v = list.iter().map(|p| p.node).collect();
                put(&mut d.planes, v, span, &of("plane"), diags);
            }
            HostProp::RdmaDevice(list) => {
                let v = expand_all(list, limits, diags)
                    .into_iter()
                    .map(|(n, _)| n)
                    .collect();
                put(&mut d.rdma, v, span, &of("rdma-device"), diags);
            }
            HostProp::Class(c) => classes::collect(class_draft(&mut d.classes, &c.name), c, diags),
            HostProp::Pfc(on) => put(&mut d.pfc, *on, span, &of("pfc"), diags),
            HostProp::Bond(mode) => put(&mut d.bond, *mode, span, &of("bond"), diags),
            HostProp::Spare => put(&mut d.spare, true, span, &of("spare"), diags),
            HostProp::EcnOff { class: None } => {
                put(&mut d.ecn_off, false, span, &of("ecn off"), diags)
            }
            HostProp::EcnOff { class: Some(c) } => {
                put(
                    &mut class_draft(&mut d.classes, c).ecn_enabled,
                    false,
                    span,
                    &of("ecn"),
                    diags,
                );
            }
        }
    }
}

fn apply_switch_draft(
    fabric: &mut Fabric,
    sid: SwitchId,
    d: SwitchDraft,
    names: &Names,
    class_count: usize,
    diags: &mut Vec<Diagnostic>,
) {
    let cell = fabric.switch_model(sid).cell.map(|c| c.value.get());
    let sw = &mut fabric.switches[sid.index()];
    if sw.generated.is_some()
        && let Some(t) = d.tier
    {
        diags.push(
            Diagnostic::new(
                Code::NotAllowedHere,
                t.span,
                format!("switch `{}` is generated, so its tier is fixed", sw.name),
            )
            .label("tier of a generated switch")
            .help("remove `tier` from this override block"),
        );
    }
    sw.mtu = d.mtu.map(|m| m.map(Bytes));
    sw.description = d.description;
    sw.watchdog = d.watchdog;
    if !d.classes.is_empty() {
        sw.class_overrides = vec![ClassOverride::default(); class_count];
    }
    for (ident, draft) in d.classes.into_values() {
        if let Some(c) = names.class(&ident, diags) {
            fabric.switches[sid.index()].class_overrides[c.index()] =
                classes::finish_override(draft, cell, diags);
        }
    }
}
