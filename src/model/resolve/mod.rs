//! Resolution: parsed files in, one `Fabric` out (or every problem found on the way).
//!
//! Order: gather the statements of every file (imports first), resolve classes and models,
//! collect device declarations (blocks for one device merge), expand link endpoints, run the
//! tier generators over the hosts no `link` names, assign typed IDs in natural name order,
//! bind links to concrete ports, apply overrides, resolve routing statements, and build the
//! topology graph. Every problem is reported; none stops the others.

mod attach;
mod bonds;
mod chassis;
pub mod classes;
mod devices;
mod links;
mod models;
mod names;
mod routing;
mod sku;
pub mod slot;
pub(crate) mod slow_ports;
mod units;
mod watchdog;

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::model::load::ParsedFile;
use crate::model::{
    Bytes, ClassId, DEFAULT_WATCHDOG, Fabric, Limits, Nanoseconds, NicModelId, Sourced,
    SwitchModelId,
};
use crate::source::Sources;
use crate::span::Span;
use crate::syntax::ast::{self, Item, StmtKind};

pub(crate) use names::{Names, lookup, undefined};
use slot::put;
pub(crate) use watchdog::watchdog_setting;

/// Resolves the parsed files (dependency order, root last) into a fabric.
pub fn resolve(
    files: &[ParsedFile],
    sources: &Sources,
    limits: &Limits,
) -> (Option<Fabric>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let Some(root) = files.last() else {
        return (None, diags);
    };

    let (fabric_block, stmts) = gather(files, root, &mut diags);
    let Some(block) = fabric_block else {
        let len = sources.get(root.id).text.len().min(1);
        diags.push(
            Diagnostic::new(
                Code::MissingProperty,
                Span::new(root.id, 0, len),
                "there is no `fabric` block",
            )
            .label("in this file")
            .help("wrap the fabric's statements in `fabric NAME { … }`"),
        );
        return (None, diags);
    };
    if !crate::model::names::is_identifier(&block.name.node) {
        diags.push(
            Diagnostic::new(Code::BadPattern, block.name.span, format!("`{}` is not a valid fabric name", block.name.node.escape_debug()))
                .label("fabric name")
                .help("a fabric name is a name (letters, digits, `_`, `.`, `-`, starting with a letter), because it reaches configs and file names"),
        );
    }

    let settings = fabric_settings(&stmts, &mut diags);

    let mut names = Names {
        classes: HashMap::new(),
        switch_models: HashMap::new(),
        nic_models: HashMap::new(),
    };
    let class_list = declare_classes(&stmts, &mut names, &mut diags);
    let folders = sku::SkuFolders::new(files, sources);
    let (switch_models, nic_models) = declare_models(
        &stmts,
        settings.buffer_model,
        &folders,
        &mut names,
        &mut diags,
    );

    let class_count = class_list.len();
    let mut fabric = Fabric {
        name: block.name.node.clone(),
        span: block.name.span,
        description: settings.description,
        mtu: settings
            .mtu
            .unwrap_or(Sourced::default_at(9216, block.name.span))
            .map(Bytes),
        roce_mtu: settings
            .roce_mtu
            .unwrap_or(Sourced::default_at(4096, block.name.span))
            .map(Bytes),
        rtt: settings.rtt.map(|r| r.map(Nanoseconds)),
        watchdog: settings
            .watchdog
            .unwrap_or(Sourced::default_at(DEFAULT_WATCHDOG, block.name.span)),
        buffer_model: settings.buffer_model,
        load_balance: settings.load_balance.map(|l| l.value),
        allow: settings.allow,
        classes: class_list,
        switch_models,
        nic_models,
        switches: Vec::new(),
        hosts: Vec::new(),
        links: Vec::new(),
        tiers: Vec::new(),
        routing: crate::model::Routing {
            model: Sourced::default_at(ast::RoutingModel::Updown, block.name.span),
            routes: Vec::new(),
            fails: Vec::new(),
            check_failures: settings
                .check_failures
                .unwrap_or(Sourced::default_at(0, block.name.span)),
            paths: Vec::new(),
            rewrites: Vec::new(),
            bounce_tagging: settings.bounce,
        },
        topology: crate::model::Topology::default(),
    };

    // Devices, generated tiers, links.
    devices::build(&mut fabric, &stmts, &names, class_count, limits, &mut diags);
    bonds::build(&mut fabric, &mut diags);
    case_clashes(&fabric, &mut diags);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    routing::build(
        &mut fabric,
        &stmts,
        &names,
        settings.routing_model,
        &mut diags,
    );
    models_used(&fabric, &mut diags);
    fabric.topology = crate::model::topology::build(&fabric);
    let ok = !diags.iter().any(Diagnostic::is_error);
    (ok.then_some(fabric), diags)
}

/// The statements of every file and of the root's one `fabric` block, and that block;
/// a fabric block elsewhere, or a second one, is a finding.
fn gather<'f>(
    files: &'f [ParsedFile],
    root: &ParsedFile,
    diags: &mut Vec<Diagnostic>,
) -> (Option<&'f ast::FabricBlock>, Vec<&'f ast::Stmt>) {
    let mut fabric_block: Option<&ast::FabricBlock> = None;
    let mut stmts: Vec<&ast::Stmt> = Vec::new();
    for f in files {
        for item in &f.ast.items {
            match item {
                Item::Stmt(s) => stmts.push(s),
                Item::Fabric(b) => {
                    if f.id != root.id {
                        diags.push(
                            Diagnostic::new(Code::MisplacedItem, b.name.span, "an imported file cannot declare a `fabric`")
                                .label("fabric block in an imported file")
                                .help("write the imported file's statements without a `fabric { … }` wrapper"),
                        );
                    } else if let Some(first) = fabric_block {
                        diags.push(
                            Diagnostic::new(
                                Code::Duplicate,
                                b.name.span,
                                "a file declares one `fabric`",
                            )
                            .label("second fabric")
                            .with_secondary(first.name.span, "first fabric"),
                        );
                    } else {
                        fabric_block = Some(b);
                        stmts.extend(b.body.iter());
                    }
                }
            }
        }
    }
    (fabric_block, stmts)
}

/// The fabric-wide settings, each at most once.
#[derive(Default)]
struct Settings {
    mtu: Option<Sourced<u64>>,
    roce_mtu: Option<Sourced<u64>>,
    rtt: Option<Sourced<u64>>,
    description: Option<Sourced<String>>,
    watchdog: Option<Sourced<crate::model::Watchdog>>,
    routing_model: Option<Sourced<ast::RoutingModel>>,
    check_failures: Option<Sourced<u8>>,
    bounce: Option<Sourced<Vec<u8>>>,
    buffer_model: Option<Sourced<ast::BufferModel>>,
    load_balance: Option<Sourced<crate::model::LoadBalance>>,
    allow: Vec<Sourced<Code>>,
}

fn fabric_settings(stmts: &[&ast::Stmt], diags: &mut Vec<Diagnostic>) -> Settings {
    let mut set = Settings::default();
    for s in stmts {
        let span = s.span;
        match &s.kind {
            StmtKind::Mtu(v) => put(&mut set.mtu, v.node, span, "the fabric `mtu`", diags),
            StmtKind::RoceMtu(v) => put(&mut set.roce_mtu, v.node, span, "`roce-mtu`", diags),
            StmtKind::Rtt(v) => put(&mut set.rtt, v.node.0, span, "`rtt`", diags),
            StmtKind::Description(d) => {
                put(
                    &mut set.description,
                    d.node.clone(),
                    span,
                    "the fabric `description`",
                    diags,
                );
            }
            StmtKind::Watchdog(w) => {
                put(
                    &mut set.watchdog,
                    watchdog_setting(w, diags),
                    span,
                    "`pfc-watchdog`",
                    diags,
                );
            }
            StmtKind::Routing(m) => put(&mut set.routing_model, m.node, span, "`routing`", diags),
            StmtKind::CheckFailures(n) => {
                put(
                    &mut set.check_failures,
                    u8::try_from(n.node).unwrap_or(u8::MAX),
                    span,
                    "`check failures`",
                    diags,
                );
            }
            StmtKind::BufferModel(m) => {
                put(&mut set.buffer_model, m.node, span, "`buffer-model`", diags);
            }
            StmtKind::LoadBalance(decl) => {
                let lb = load_balance_block(decl, diags);
                put(&mut set.load_balance, lb, span, "`load-balance`", diags);
            }
            StmtKind::Allow(codes) => {
                for c in codes {
                    if let Some(code) = allowable(c, diags) {
                        set.allow.push(Sourced::set(code, c.span));
                    }
                }
            }
            StmtKind::BounceTagging(list) => {
                put(
                    &mut set.bounce,
                    list.iter().map(|p| p.node).collect::<Vec<_>>(),
                    span,
                    "`bounce-tagging`",
                    diags,
                );
            }
            _ => {}
        }
    }

    set
}

/// The classes, in declaration order; a second class of a name is a finding.
fn declare_classes(
    stmts: &[&ast::Stmt],
    names: &mut Names,
    diags: &mut Vec<Diagnostic>,
) -> Vec<crate::model::Class> {
    let mut class_list = Vec::new();
    let mut class_spans: HashMap<String, Span> = HashMap::new();
    for s in stmts {
        if let StmtKind::Class(decl) = &s.kind {
            if let Some(&first) = class_spans.get(&decl.name.node) {
                diags.push(duplicate("class", &decl.name, first));
                continue;
            }
            class_spans.insert(decl.name.node.clone(), decl.name.span);
            let mut draft = classes::ClassDraft::default();
            classes::collect(&mut draft, decl, diags);
            let id = ClassId(class_list.len() as u32);
            names.classes.insert(decl.name.node.clone(), id);
            class_list.push(classes::finish_class(&decl.name, decl.span, draft, diags));
        }
    }

    class_list
}

/// The switch and NIC models, in declaration order; the two share one namespace.
fn declare_models(
    stmts: &[&ast::Stmt],
    buffer_model: Option<Sourced<ast::BufferModel>>,
    folders: &sku::SkuFolders<'_>,
    names: &mut Names,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<crate::model::SwitchModel>, Vec<crate::model::NicModel>) {
    let mut switch_models = Vec::new();
    let mut nic_models = Vec::new();
    let mut model_spans: HashMap<String, Span> = HashMap::new();
    for s in stmts {
        match &s.kind {
            StmtKind::SwitchModel(decl) => {
                if let Some(&first) = model_spans.get(&decl.name.node) {
                    diags.push(duplicate("model", &decl.name, first));
                    continue;
                }
                model_spans.insert(decl.name.node.clone(), decl.name.span);
                names.switch_models.insert(
                    decl.name.node.clone(),
                    SwitchModelId(switch_models.len() as u32),
                );
                switch_models.push(models::switch_model(decl, buffer_model, folders, diags));
            }
            StmtKind::NicModel(decl) => {
                if let Some(&first) = model_spans.get(&decl.name.node) {
                    diags.push(duplicate("model", &decl.name, first));
                    continue;
                }
                model_spans.insert(decl.name.node.clone(), decl.name.span);
                names
                    .nic_models
                    .insert(decl.name.node.clone(), NicModelId(nic_models.len() as u32));
                nic_models.push(models::nic_model(decl, diags));
            }
            _ => {}
        }
    }

    (switch_models, nic_models)
}

/// Devices whose names differ only in case: their output folders (`switches/Leaf1`,
/// `switches/leaf1`) are one folder on case-insensitive file systems (macOS, Windows), so one
/// device's configuration would silently replace the other's in a checkout of the output.
fn case_clashes(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let devices = [
        (
            "switch",
            "switches",
            fabric
                .switches
                .iter()
                .map(|s| (&s.name, s.span))
                .collect::<Vec<_>>(),
        ),
        (
            "host",
            "hosts",
            fabric.hosts.iter().map(|h| (&h.name, h.span)).collect(),
        ),
    ];
    for (what, folder, names) in devices {
        let mut first: HashMap<String, (&String, Span)> = HashMap::new();
        for (name, span) in names {
            match first.entry(name.to_lowercase()) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert((name, span));
                }
                std::collections::hash_map::Entry::Occupied(e) => {
                    let (other, other_span) = *e.get();
                    diags.push(
                        Diagnostic::new(
                            Code::CaseClash,
                            span,
                            format!("{what} `{name}` differs from {what} `{other}` only in case"),
                        )
                        .label("this name")
                        .with_secondary(other_span, format!("`{other}` declared here"))
                        .note(format!(
                            "their output folders `{folder}/{name}` and `{folder}/{other}` are one folder on case-insensitive file systems (macOS, Windows)"
                        ))
                        .help("rename one of them so that the names differ in more than case"),
                    );
                }
            }
        }
    }
}

fn duplicate(what: &str, name: &ast::Ident, first: Span) -> Diagnostic {
    Diagnostic::new(
        Code::Duplicate,
        name.span,
        format!("{what} `{}` is declared twice", name.node),
    )
    .label("declared again here")
    .with_secondary(first, "first declared here")
    .help(format!(
        "rename one of them, or remove the second declaration of `{}`",
        name.node
    ))
}

fn models_used(fabric: &Fabric, diags: &mut Vec<Diagnostic>) {
    let mut switch_used = vec![false; fabric.switch_models.len()];
    for s in &fabric.switches {
        switch_used[s.model.index()] = true;
    }
    let mut nic_used = vec![false; fabric.nic_models.len()];
    for h in &fabric.hosts {
        for n in &h.nics {
            nic_used[n.model.index()] = true;
        }
    }
    for (m, used) in fabric.switch_models.iter().zip(switch_used) {
        if !used {
            diags.push(
                Diagnostic::new(
                    Code::UnusedModel,
                    m.span,
                    format!("switch model `{}` is never used", m.name),
                )
                .label("declared here")
                .help("use it with `model` in a switch or tier, or remove it"),
            );
        }
    }
    for (m, used) in fabric.nic_models.iter().zip(nic_used) {
        if !used {
            diags.push(
                Diagnostic::new(
                    Code::UnusedModel,
                    m.span,
                    format!("NIC model `{}` is never used", m.name),
                )
                .label("declared here")
                .help("use it with `nic` in a host, or remove it"),
            );
        }
    }
}

/// A `load-balance` block's properties, each once (FAB103 twice); a hash field written
/// twice is kept once.
/// G8: `hash roce-qp` (or `hash protocol roce-qp`) spreads RoCE by queue pair, but every
/// other flow — TCP for storage and control, a non-RoCE collective — carries no QP and then
/// hashes on nothing that tells flows apart: all of it between two switches takes one path.
/// Junos writes exactly that (`enhanced-hash-key inet { no-ipv4-source-address; … }`).
fn hash_keeps_a_flow_field(fields: &[ast::HashField], span: Span, diags: &mut Vec<Diagnostic>) {
    use ast::HashField as F;
    if fields.is_empty()
        || fields
            .iter()
            .any(|f| matches!(f, F::SrcIp | F::DstIp | F::SrcPort | F::DstPort))
    {
        return;
    }
    let written: Vec<&str> = fields.iter().map(|f| f.keyword()).collect();
    diags.push(
        Diagnostic::new(
            Code::HashKeepsNoFlowField,
            span,
            format!(
                "`hash {}` keeps no address or port: traffic that is not RoCE (no queue pair to hash on) is not spread, every such flow between two switches takes the same path",
                written.join(" ")
            ),
        )
        .label("no src-ip, dst-ip, src-port or dst-port")
        .help("add the 5-tuple before the QP: `hash src-ip dst-ip src-port dst-port protocol roce-qp`"),
    );
}

fn load_balance_block(
    decl: &ast::LoadBalanceDecl,
    diags: &mut Vec<Diagnostic>,
) -> crate::model::LoadBalance {
    let mut lb = crate::model::LoadBalance {
        span: decl.span,
        ..Default::default()
    };
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            ast::LbProp::Hash(fields) => {
                let mut list = Vec::new();
                for f in fields {
                    if !list.contains(&f.node) {
                        list.push(f.node);
                    }
                }
                hash_keeps_a_flow_field(&list, span, diags);
                put(&mut lb.hash, list, span, "`hash`", diags);
            }
            ast::LbProp::Mode(m) => put(&mut lb.mode, *m, span, "`mode`", diags),
            ast::LbProp::FlowletGap(t) => {
                put(
                    &mut lb.flowlet_gap,
                    Nanoseconds(t.0),
                    span,
                    "`flowlet-gap`",
                    diags,
                );
            }
            ast::LbProp::Seed(s) => put(&mut lb.seed, *s, span, "`seed`", diags),
            ast::LbProp::QpsPerConnection(n) => put(
                &mut lb.qps_per_connection,
                *n,
                span,
                "`qps-per-connection`",
                diags,
            ),
            ast::LbProp::SplitDataOnQps(on) => put(
                &mut lb.split_data_on_qps,
                *on,
                span,
                "`split-data-on-qps`",
                diags,
            ),
        }
    }
    lb
}

/// The code an `allow` names, if it names one that may be allowed: a code that exists and is
/// a warning by default (an error is never waved through; advice needs no allowing). FAB113
/// otherwise.
fn allowable(written: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<Code> {
    let Some(code) = Code::parse(&written.node) else {
        diags.push(
            Diagnostic::new(
                Code::AllowNotWarning,
                written.span,
                format!("`allow {}` names no finding code", written.node),
            )
            .label("not a code")
            .help("write a code as `fabricc explain` lists them, e.g. `allow FAB954`"),
        );
        return None;
    };
    match code.default_severity() {
        Severity::Warning => Some(code),
        severity => {
            diags.push(
                Diagnostic::new(
                    Code::AllowNotWarning,
                    written.span,
                    format!(
                        "`{code}` is {}, which `allow` does not accept",
                        if severity == Severity::Error {
                            "an error"
                        } else {
                            "advice"
                        }
                    ),
                )
                .label("not a warning")
                .help(if severity == Severity::Error {
                    "an error always stops a build: fix what it reports (`fabricc explain` says how)"
                } else {
                    "advice never blocks a build: remove it from `allow`"
                }),
            );
            None
        }
    }
}
