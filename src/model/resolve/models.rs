//! Switch and NIC models: their declarations become `SwitchModel`s and `NicModel`s.
//!
//! With `platform NAME`, what the model does not say comes from the catalogue entry (ports,
//! buffer, cell, lossless limit, OS when the platform runs one, SONiC's buffer model; driver
//! and speed for NICs): those values are `Sourced::default_at` the `platform` statement, so
//! findings point there. An explicit property wins; one that contradicts the platform where
//! it matters (more ports than its cages give, a buffer beyond its figure, another cell) is
//! FAB110. An unknown platform is FAB108, an `os` the platform does not run FAB109.

use crate::catalogue::{self, NicPlatform, Platform, PortsMisfit};
use crate::diagnostic::{Code, Diagnostic, did_you_mean};
use crate::model::format::thousands;
use crate::model::target::{CUMULUS_NEWEST, CUMULUS_OLDEST, EOS_NEWEST, EOS_OLDEST};
use crate::model::target::{NicDriver, Release};
use crate::model::{
    BufferModel, Bytes, CageBreakout, Mbps, NicModel, PortGroup, Sourced, SwitchModel,
};
use crate::span::Span;
use crate::syntax::ast::{self, NicModelProp, Os, SwitchModelProp};

use super::slot::put;
use super::units::bytes;

/// `fabric_buffer_model`: the fabric-level `buffer-model`, for SONiC models that set none.
pub fn switch_model(
    decl: &ast::SwitchModelDecl,
    fabric_buffer_model: Option<Sourced<BufferModel>>,
    folders: &super::sku::SkuFolders<'_>,
    diags: &mut Vec<Diagnostic>,
) -> SwitchModel {
    let mut platform_name: Option<Sourced<String>> = None;
    let mut os = None;
    let mut release = None;
    let mut ports = None;
    let mut ports_invalid = false;
    let mut buffer = None;
    let mut lossless_limit = None;
    let mut cell = None;
    let mut dynamic_threshold = None;
    let mut description: Option<Sourced<String>> = None;
    let mut buffer_model = None;
    let mut linecards = Vec::new();
    let mut sku_path: Option<Sourced<crate::span::Spanned<String>>> = None;
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            SwitchModelProp::Platform(n) => put(
                &mut platform_name,
                n.node.clone(),
                span,
                "`platform`",
                diags,
            ),
            SwitchModelProp::Os(o, r) => {
                put(&mut os, *o, span, "`os`", diags);
                if let Some(r) = r {
                    release = release_of(*o, *r, span, diags);
                }
            }
            SwitchModelProp::Ports(groups) => match port_groups(groups, span, diags) {
                Some(v) => put(&mut ports, v, span, "`ports`", diags),
                // Not kept: the ports of every switch are allocated from it.
                None => ports_invalid = true,
            },
            SwitchModelProp::Buffer(s) => put(&mut buffer, *s, span, "`buffer`", diags),
            SwitchModelProp::LosslessLimit(n) => {
                put(&mut lossless_limit, *n, span, "`lossless-limit`", diags)
            }
            SwitchModelProp::Cell(s) => put(&mut cell, *s, span, "`cell`", diags),
            SwitchModelProp::DynamicThreshold(n) => put(
                &mut dynamic_threshold,
                *n,
                span,
                "`dynamic-threshold`",
                diags,
            ),
            SwitchModelProp::Description(d) => {
                put(&mut description, d.clone(), span, "`description`", diags)
            }
            SwitchModelProp::BufferModel(m) => {
                put(&mut buffer_model, *m, span, "`buffer-model`", diags)
            }
            SwitchModelProp::Linecard(l) => {
                linecards.push(crate::span::Spanned::new(l.clone(), span))
            }
            SwitchModelProp::Sku(path) => put(&mut sku_path, path.clone(), span, "`sku`", diags),
        }
    }
    let at = decl.name.span;
    let name = &decl.name.node;
    let platform = platform_name
        .as_ref()
        .and_then(|p| switch_platform(p, diags).map(|found| (found, p.span)));
    // An unknown platform (FAB108) is the finding; what it would have supplied is not
    // reported missing as well.
    let platform_unknown = platform_name.is_some() && platform.is_none();
    let mut quiet = Vec::new();
    let diags_for_missing: &mut Vec<Diagnostic> = if platform_unknown { &mut quiet } else { diags };

    let os = resolve_os(name, at, os, platform, diags_for_missing);
    let (chassis, linecard_spans) = match platform_unknown {
        true => (None, Vec::new()),
        false => super::chassis::place(name, at, &linecards, platform, diags_for_missing)
            .map_or((None, Vec::new()), |(c, s)| (Some(c), s)),
    };
    if let Some((pl, _)) = platform
        && pl.chassis.is_some()
    {
        super::chassis::check_names(name, os, pl, diags_for_missing);
    }
    let ports = model_ports(
        name,
        at,
        (ports, ports_invalid),
        platform,
        chassis.as_ref(),
        platform_unknown,
        diags,
    );
    if let (Some(c), Some(p)) = (&chassis, &ports) {
        super::chassis::check_card_names(name, os.value, c, p, diags);
    }

    let BufferNumbers {
        cell: cell_bytes,
        buffer,
        lossless_limit,
    } = buffer_numbers(
        name,
        Declared {
            cell,
            buffer,
            lossless_limit,
        },
        platform,
        chassis.as_ref(),
        diags,
    );

    let buffer_model = sonic_buffer_model(
        name,
        at,
        os.value,
        buffer_model,
        fabric_buffer_model,
        platform,
        diags,
    );

    let sku = match (&sku_path, platform_unknown) {
        (Some(path), false) => super::sku::custom_sku(
            name,
            &path.value,
            os.value,
            platform.map(|(p, _)| p),
            folders,
            diags,
        ),
        _ => None,
    };

    SwitchModel {
        name: name.clone(),
        span: at,
        platform: platform.map(|(p, _)| p),
        sku,
        chassis,
        linecard_spans,
        os,
        release,
        ports: ports.unwrap_or(Sourced::default_at(vec![PortGroup::plain(1, 100_000)], at)),
        buffer: buffer.map(|b| b.map(Bytes)),
        lossless_limit,
        cell: cell_bytes.map(|c| c.map(Bytes)),
        dynamic_threshold: dynamic_threshold.unwrap_or(Sourced::default_at(0, at)),
        description: description.map(|d| d.value),
        buffer_model,
    }
}

/// The model's port groups: declared (checked against the platform, or the chassis's cards),
/// else the chassis's or platform's; none is a finding unless the declared ports were refused
/// already or the platform is unknown (FAB108 says what is wrong).
fn model_ports(
    name: &str,
    at: Span,
    (ports, ports_invalid): (Option<Sourced<Vec<PortGroup>>>, bool),
    platform: Option<(&'static Platform, Span)>,
    chassis: Option<&crate::catalogue::ChassisPlace>,
    platform_unknown: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Sourced<Vec<PortGroup>>> {
    match (ports, platform) {
        (Some(p), Some((pl, pspan))) => {
            match chassis {
                Some(c) => check_ports_fit(name, &p, &c.flat(pl), pspan, diags),
                None if no_cards(platform, chassis) => {}
                None => check_ports_fit(name, &p, pl, pspan, diags),
            }
            Some(p)
        }
        (None, Some((_, pspan))) if chassis.is_some() => {
            chassis.map(|c| Sourced::default_at(c.port_groups(), pspan))
        }
        (None, Some(_)) if no_cards(platform, chassis) => None,
        (Some(p), None) => Some(p),
        (None, Some((pl, pspan))) if !pl.port_groups().is_empty() => {
            Some(Sourced::default_at(pl.port_groups(), pspan))
        }
        (None, _) => {
            if !ports_invalid && !platform_unknown {
                let help = match platform {
                    Some((pl, _)) => format!(
                        "the catalogue has no ports for `{}` (no public source gave them): add them, e.g. `ports 64 x 400G`",
                        pl.name
                    ),
                    None => "add the port groups, e.g. `ports 64 x 400G`".to_string(),
                };
                diags.push(missing(name, at, "ports", help));
            }
            None
        }
    }
}

/// A chassis whose cards did not resolve (FAB140) has no ports to check or take.
fn no_cards(
    platform: Option<(&'static Platform, Span)>,
    chassis: Option<&crate::catalogue::ChassisPlace>,
) -> bool {
    platform.is_some_and(|(pl, _)| pl.chassis.is_some()) && chassis.is_none()
}

/// `ports …`: the port groups, a broken-out group counted in sub-ports; `None` (and a
/// finding) when the model would have no port or more than 4096.
fn port_groups(
    groups: &[crate::span::Spanned<ast::PortGroup>],
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<PortGroup>> {
    let mut total: u64 = 0;
    let v: Vec<PortGroup> = groups
        .iter()
        .map(|g| {
            let ways = g.node.breakout.map_or(1, |b| b.ways);
            let count = g.node.count.saturating_mul(ways);
            total = total.saturating_add(count);
            if let Some(b) = g.node.breakout
                && b.speed.0.saturating_mul(b.ways) > g.node.speed.0
            {
                diags.push(
                    Diagnostic::new(
                        Code::BreakoutTooFast,
                        g.span,
                        format!(
                            "{} sub-ports of {} need more than one {} cage gives",
                            b.ways,
                            crate::syntax::printer::speed(b.speed),
                            crate::syntax::printer::speed(g.node.speed)
                        ),
                    )
                    .label("faster than the cage")
                    .help(format!(
                        "one {} cage splits into sub-ports whose speeds add up to at most its own, e.g. `breakout 2 x {}`",
                        crate::syntax::printer::speed(g.node.speed),
                        crate::syntax::printer::speed(ast::Speed(g.node.speed.0 / 2))
                    )),
                );
            }
            PortGroup {
                count: u32::try_from(count).unwrap_or(u32::MAX),
                speed: g.node.breakout.map_or(g.node.speed.0, |b| b.speed.0),
                breakout: g.node.breakout.map(|b| CageBreakout {
                    ways: u32::try_from(b.ways).unwrap_or(u32::MAX),
                    cage_speed: g.node.speed.0,
                }),
            }
        })
        .collect();
    if total == 0 || total > 4096 {
        diags.push(
            Diagnostic::new(
                Code::OutOfRange,
                span,
                format!("a switch model with {total} ports"),
            )
            .label("port count")
            .help("a switch model has 1 to 4096 ports"),
        );
        None
    } else {
        Some(v)
    }
}

/// The buffer figures a model declares (each checked against its platform's) or takes from
/// its platform: cell size, buffer (on a chassis, one ASIC's of its cards) and lossless
/// priority limit.
fn buffer_numbers(
    name: &str,
    declared: Declared,
    platform: Option<(&'static Platform, Span)>,
    chassis: Option<&crate::catalogue::ChassisPlace>,
    diags: &mut Vec<Diagnostic>,
) -> BufferNumbers {
    let Declared {
        cell,
        buffer,
        lossless_limit,
    } = declared;
    let cell_bytes = cell.and_then(|c: Sourced<ast::Size>| match c.value {
        ast::Size::Bytes(b) if b > 0 => Some(Sourced::set(b, c.span)),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::OutOfRange,
                    c.span,
                    "a cell size must be a positive number of bytes",
                )
                .label("here"),
            );
            None
        }
    });
    let cell_bytes = match (cell_bytes, platform) {
        (Some(c), Some((pl, pspan))) => {
            if let Some(pc) = pl.cell_bytes()
                && pc != c.value
            {
                diags.push(contradicts(
                    name,
                    c.span,
                    pspan,
                    pl,
                    format!("`cell {}B`", c.value),
                    format!("its cells are {pc} B"),
                    "remove `cell` to take the platform's",
                ));
            }
            Some(c)
        }
        (None, Some((pl, pspan))) => pl.cell_bytes().map(|c| Sourced::default_at(c, pspan)),
        (c, None) => c,
    };
    let buffer = buffer.and_then(|b| {
        bytes(b.value, cell_bytes.map(|c| c.value), b.span, diags).map(|v| Sourced::set(v, b.span))
    });
    // On a chassis the platform's buffer is one ASIC's of its cards.
    let (platform_buffer, platform_max_buffer) = match (chassis, platform) {
        (Some(c), _) => (c.buffer_bytes(), c.buffer_bytes()),
        (None, Some((pl, _))) => (pl.buffer_bytes(), pl.max_buffer_bytes()),
        (None, None) => (None, None),
    };
    let buffer = match (buffer, platform) {
        (Some(b), Some((pl, pspan))) => {
            if let Some(max) = platform_max_buffer
                && b.value > max
            {
                diags.push(contradicts(
                    name,
                    b.span,
                    pspan,
                    pl,
                    format!("`buffer` of {} B", thousands(b.value)),
                    format!("its buffer is {} B", thousands(max)),
                    "remove `buffer` to take the platform's, or check the figure",
                ));
            }
            Some(b)
        }
        (None, Some((_, pspan))) => platform_buffer.map(|b| Sourced::default_at(b, pspan)),
        (b, None) => b,
    };
    let lossless_limit = match (lossless_limit, platform) {
        (Some(l), Some((pl, pspan))) => {
            if let Some(max) = pl.lossless_limit()
                && l.value > max
            {
                diags.push(contradicts(
                    name,
                    l.span,
                    pspan,
                    pl,
                    format!("`lossless-limit {}`", l.value),
                    format!("it supports {max} lossless priorities"),
                    "remove `lossless-limit` to take the platform's",
                ));
            }
            Some(l)
        }
        (None, Some((pl, pspan))) => pl.lossless_limit().map(|l| Sourced::default_at(l, pspan)),
        (l, None) => l,
    };

    BufferNumbers {
        cell: cell_bytes,
        buffer,
        lossless_limit,
    }
}

/// The buffer figures as a model's block declares them.
struct Declared {
    cell: Option<Sourced<ast::Size>>,
    buffer: Option<Sourced<ast::Size>>,
    lossless_limit: Option<Sourced<u8>>,
}

/// The buffer figures a model ends with (`buffer_numbers`).
struct BufferNumbers {
    cell: Option<Sourced<u64>>,
    buffer: Option<Sourced<u64>>,
    lossless_limit: Option<Sourced<u8>>,
}

/// SONiC's buffer manager for a model: its own `buffer-model`, the fabric's, the platform's
/// default, else traditional; `buffer-model` on another OS is a finding.
fn sonic_buffer_model(
    name: &str,
    at: Span,
    os: Os,
    buffer_model: Option<Sourced<BufferModel>>,
    fabric_buffer_model: Option<Sourced<BufferModel>>,
    platform: Option<(&'static Platform, Span)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Sourced<BufferModel>> {
    match os {
        Os::Sonic => Some(
            buffer_model
                .or(fabric_buffer_model)
                .or_else(|| {
                    platform.and_then(|(pl, pspan)| {
                        pl.default_buffer_model()
                            .map(|m| Sourced::default_at(m, pspan))
                    })
                })
                // fabricc renders the traditional model's tables where nothing says otherwise.
                .unwrap_or(Sourced::default_at(BufferModel::Traditional, at)),
        ),
        other => {
            if let Some(m) = buffer_model {
                diags.push(
                    Diagnostic::new(
                        Code::BufferModelNotSonic,
                        m.span,
                        format!(
                            "`buffer-model` on switch model `{name}`, whose OS is {}",
                            other.as_str()
                        ),
                    )
                    .label("SONiC only")
                    .help("`buffer-model` chooses SONiC's buffer manager; remove it here"),
                );
            }
            None
        }
    }
}

/// A release after an OS name: Cumulus (`render::cumulus::RELEASES`) and EOS
/// (`render::eos::SAND_QUEUE7`) have release-dependent output; the others take none.
fn release_of(
    os: Os,
    r: ast::OsRelease,
    span: crate::span::Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Sourced<Release>> {
    let release = Release::new(r.major, r.minor);
    let (name, oldest, newest) = match os {
        Os::Cumulus => ("Cumulus Linux", CUMULUS_OLDEST, CUMULUS_NEWEST),
        Os::Eos => ("EOS", EOS_OLDEST, EOS_NEWEST),
        Os::Sonic | Os::Nxos | Os::Junos | Os::Vrp | Os::Comware => {
            diags.push(
                Diagnostic::new(
                    Code::NotAllowedHere,
                    span,
                    format!(
                        "a release is only understood for `os cumulus` and `os eos`, not `os {}`",
                        os.as_str()
                    ),
                )
                .label("release")
                .help(format!("write `os {}` without a release", os.as_str())),
            );
            return None;
        }
    };
    if !(oldest..=newest).contains(&release) {
        diags.push(
            Diagnostic::new(
                Code::OutOfRange,
                span,
                format!("{name} {release} is not a release fabricc writes configuration for"),
            )
            .label("release")
            .help(format!(
                "supported: {name} {oldest} to {newest}; leave the release out for {newest}"
            )),
        );
        return None;
    }
    Some(Sourced::set(release, span))
}

/// The model's OS: the one it names (which the platform must run), else the platform's
/// only one. A platform that runs several needs `os`.
fn resolve_os(
    name: &str,
    at: Span,
    os: Option<Sourced<Os>>,
    platform: Option<(&'static Platform, Span)>,
    diags: &mut Vec<Diagnostic>,
) -> Sourced<Os> {
    match (os, platform) {
        (Some(o), Some((pl, pspan))) => {
            if !pl.runs(o.value) {
                diags.push(
                    Diagnostic::new(
                        Code::PlatformOs,
                        o.span,
                        format!(
                            "switch model `{name}` runs {} on `{}`, which runs {}",
                            o.value.as_str(),
                            pl.name,
                            os_list(pl)
                        ),
                    )
                    .label("not an OS of the platform")
                    .with_secondary(pspan, "the platform")
                    .help(format!(
                        "use `os {}`, or another platform (`fabricc platforms` lists them)",
                        pl.oses().first().map_or("…", |o| o.as_str())
                    )),
                );
            }
            o
        }
        (Some(o), None) => o,
        (None, Some((pl, pspan))) => match pl.oses().as_slice() {
            [only] => Sourced::default_at(*only, pspan),
            several => {
                diags.push(missing(
                    name,
                    at,
                    "os",
                    format!(
                        "`{}` runs {}: say which, e.g. `os {}`",
                        pl.name,
                        os_list(pl),
                        several.first().map_or("sonic", |o| o.as_str())
                    ),
                ));
                Sourced::default_at(several.first().copied().unwrap_or(Os::Sonic), at)
            }
        },
        (None, None) => {
            diags.push(missing(
                name,
                at,
                "os",
                "add `os sonic` (or cumulus, eos, nxos, junos)".to_string(),
            ));
            Sourced::default_at(Os::Sonic, at)
        }
    }
}

fn os_list(pl: &Platform) -> String {
    let names: Vec<&str> = pl.oses().iter().map(|o| o.as_str()).collect();
    match names.as_slice() {
        [] => "no OS".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn check_ports_fit(
    name: &str,
    ports: &Sourced<Vec<PortGroup>>,
    pl: &Platform,
    pspan: Span,
    diags: &mut Vec<Diagnostic>,
) {
    for g in &ports.value {
        let Some(b) = g.breakout else { continue };
        let gbps = u32::try_from(g.speed.div_ceil(1000)).unwrap_or(u32::MAX);
        if pl.fabric_cages().next().is_some()
            && !pl.fabric_cages().any(|c| c.ports_for(g, gbps) > 0)
        {
            let modes: Vec<String> = pl
                .fabric_cages()
                .flat_map(|c| c.modes())
                .map(|m| format!("{}x{}G", m.ports, m.speed_gbps))
                .collect();
            diags.push(
                Diagnostic::new(
                    Code::BreakoutNoMode,
                    ports.span,
                    format!(
                        "switch model `{name}`: no cage of {} breaks out {} x {}G",
                        pl.name, b.ways, gbps
                    ),
                )
                .label("not a breakout mode of the platform")
                .with_secondary(pspan, "the platform")
                .help(format!(
                    "use one of its modes ({}), or another platform",
                    modes.join(", ")
                )),
            );
            return;
        }
    }
    let misfit = match pl.fit(&ports.value) {
        Ok(()) => return,
        Err(m) => m,
    };
    let (what, has) = match misfit {
        PortsMisfit::TooFast {
            speed_gbps,
            fastest_gbps,
        } => (
            format!("{speed_gbps}G ports"),
            format!("its fastest cage runs {fastest_gbps}G"),
        ),
        PortsMisfit::TooMany {
            count,
            speed_gbps,
            cages_needed,
            cages,
        } => (
            format!("{count} ports of {speed_gbps}G"),
            format!("they need {cages_needed} cages even broken out, and it has {cages}"),
        ),
    };
    diags.push(contradicts(
        name,
        ports.span,
        pspan,
        pl,
        what,
        has,
        "remove `ports` to take the platform's cages, or use fewer or slower ports",
    ));
}

fn contradicts(
    name: &str,
    span: Span,
    platform_span: Span,
    pl: &Platform,
    what: String,
    has: String,
    help: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::PlatformOverride,
        span,
        format!(
            "switch model `{name}` sets {what} on `{}`, but {has}",
            pl.name
        ),
    )
    .label("contradicts the platform")
    .with_secondary(platform_span, "the platform")
    .help(help.to_string())
}

fn missing(name: &str, at: Span, what: &str, help: String) -> Diagnostic {
    Diagnostic::new(
        Code::MissingProperty,
        at,
        format!("switch model `{name}` has no `{what}`"),
    )
    .label("declared here")
    .help(help)
}

/// The catalogue entry of a switch model's `platform`, or FAB108.
fn switch_platform(
    name: &Sourced<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'static Platform> {
    if let Some(p) = catalogue::switch_platform(&name.value) {
        return Some(p);
    }
    let is_nic = catalogue::nic_platform(&name.value).is_some();
    diags.push(unknown_platform(
        &name.value,
        name.span,
        "switch",
        is_nic.then_some(("NIC", "nic-model")),
        catalogue::catalogue()
            .switches
            .iter()
            .map(|p| p.name.as_str()),
    ));
    None
}

/// FAB108. `other`: the kind of platform the name is instead, and the block it belongs in.
fn unknown_platform<'a>(
    name: &str,
    span: Span,
    kind: &str,
    other: Option<(&str, &str)>,
    known: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    if let Some((other_kind, block)) = other {
        return Diagnostic::new(
            Code::UnknownPlatform,
            span,
            format!("`{name}` is a {other_kind} platform, not a {kind} one"),
        )
        .label(format!("a {other_kind} platform"))
        .help(format!(
            "name it in a `{block}`; `fabricc platforms` lists the {kind} platforms"
        ));
    }
    let hint = did_you_mean(name, known).map_or_else(String::new, |h| format!("{h} "));
    Diagnostic::new(
        Code::UnknownPlatform,
        span,
        format!("`{name}` is not a {kind} platform of the catalogue"),
    )
    .label("unknown platform")
    .help(format!(
        "{hint}`fabricc platforms` lists the catalogue; without a platform, give the model's properties"
    ))
}

/// FAB922: a `driver` no host script is written for. A NIC model without a known driver would
/// otherwise get another driver's script, with that NIC's tools and defaults (LANGUAGE v2).
fn unknown_driver(name: &str, span: Span) -> Diagnostic {
    let names: Vec<&str> = NicDriver::ALL.iter().map(|d| d.as_str()).collect();
    let hint =
        did_you_mean(name, names.iter().copied()).map_or_else(String::new, |h| format!("{h} "));
    Diagnostic::new(
        Code::UnknownNicDriver,
        span,
        format!("`{name}` is not a NIC driver fabricc writes host scripts for"),
    )
    .label("unknown driver")
    .help(format!(
        "{hint}the drivers are {}; `dcb` configures any NIC whose driver implements DCBNL",
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

pub fn nic_model(decl: &ast::NicModelDecl, diags: &mut Vec<Diagnostic>) -> NicModel {
    let mut platform_name: Option<Sourced<String>> = None;
    let mut driver = None;
    let mut speed = None;
    let mut buffer = None;
    let mut ports = None;
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            NicModelProp::Ports(g) => {
                // A breakout splits a switch cage (issue 18 item 2); a NIC's ports are what
                // its host sees, so a breakout there would be dropped without a word.
                if g.breakout.is_some() {
                    diags.push(
                        Diagnostic::new(
                            Code::NotAllowedHere,
                            span,
                            "a breakout splits a switch cage; a NIC model's ports are not broken out",
                        )
                        .label("breakout on a NIC")
                        .help(format!(
                            "write the ports the host sees: `ports {} x {}`",
                            g.count,
                            crate::syntax::printer::speed(g.speed)
                        )),
                    );
                }
                // `ports 2 x 200G` is the port count and each port's speed; `speed` beside it
                // would say the speed twice.
                put(&mut ports, g.count as u32, span, "`ports`", diags);
                put(&mut speed, g.speed.0, span, "`speed` (or `ports`)", diags);
            }
            NicModelProp::Platform(n) => put(
                &mut platform_name,
                n.node.clone(),
                span,
                "`platform`",
                diags,
            ),
            NicModelProp::Driver(d) => put(&mut driver, d.node.clone(), span, "`driver`", diags),
            NicModelProp::Speed(s) => put(&mut speed, s.0, span, "`speed`", diags),
            NicModelProp::Buffer(s) => {
                if let Some(b) = bytes(*s, None, span, diags) {
                    put(&mut buffer, b, span, "`buffer`", diags);
                }
            }
        }
    }
    let at = decl.name.span;
    let name = &decl.name.node;
    let platform = platform_name.as_ref().and_then(|p| {
        let found = catalogue::nic_platform(&p.value);
        if found.is_none() {
            let is_switch = catalogue::switch_platform(&p.value).is_some();
            diags.push(unknown_platform(
                &p.value,
                p.span,
                "NIC",
                is_switch.then_some(("switch", "switch-model")),
                catalogue::catalogue().nics.iter().map(|n| n.name.as_str()),
            ));
        }
        found.map(|f| (f, p.span))
    });
    let platform_unknown = platform_name.is_some() && platform.is_none();
    if let Some(d) = &driver
        && NicDriver::from_model(&d.value).is_none()
    {
        diags.push(unknown_driver(&d.value, d.span));
    }
    if let Some((pl, pspan)) = platform {
        contradicts_nic_platform(
            name,
            driver.as_ref(),
            speed.as_ref(),
            ports.as_ref(),
            pl,
            pspan,
            diags,
        );
    }
    let speed = speed
        .or_else(|| {
            platform.and_then(|(pl, pspan)| pl.speed_mbps().map(|s| Sourced::default_at(s, pspan)))
        })
        .unwrap_or_else(|| {
            let help = match platform {
                Some((pl, _)) => format!(
                    "the catalogue has no port speed for `{}`: add it, e.g. `speed 400G`",
                    pl.name
                ),
                None => "add the port speed, e.g. `speed 400G`".to_string(),
            };
            if !platform_unknown {
                diags.push(
                    Diagnostic::new(
                        Code::MissingProperty,
                        at,
                        format!("NIC model `{name}` has no `speed`"),
                    )
                    .label("declared here")
                    .help(help),
                );
            }
            Sourced::default_at(100_000, at)
        });
    let driver = driver
        .or_else(|| platform.map(|(pl, pspan)| Sourced::default_at(pl.driver().to_string(), pspan)))
        .unwrap_or(Sourced::default_at("mlx5".to_string(), at));
    let buffer = buffer.or_else(|| {
        platform.and_then(|(pl, pspan)| pl.buffer_bytes().map(|b| Sourced::default_at(b, pspan)))
    });
    NicModel {
        name: name.clone(),
        span: at,
        platform: platform.map(|(p, _)| p),
        driver,
        speed: speed.map(Mbps),
        buffer: buffer.map(|b| b.map(Bytes)),
        ports: ports.map_or(1, |p| p.value),
    }
}

/// A NIC model's `driver`, `speed` or `ports` that its platform contradicts.
fn contradicts_nic_platform(
    name: &str,
    driver: Option<&Sourced<String>>,
    speed: Option<&Sourced<u64>>,
    ports: Option<&Sourced<u32>>,
    pl: &NicPlatform,
    pspan: Span,
    diags: &mut Vec<Diagnostic>,
) {
    let nic_override = |span: Span, what: String, has: String| {
        Diagnostic::new(
            Code::PlatformOverride,
            span,
            format!("NIC model `{name}` sets {what} on `{}`, but {has}", pl.name),
        )
        .label("contradicts the platform")
        .with_secondary(pspan, "the platform")
    };
    if let Some(d) = driver
        && d.value != pl.driver()
    {
        diags.push(
            nic_override(
                d.span,
                format!("`driver {}`", d.value),
                format!("{} uses {}", pl.model, pl.driver()),
            )
            .help("remove `driver` to take the platform's"),
        );
    }
    if let Some(s) = speed
        && let Some(max) = pl.speed_mbps()
        && s.value > max
    {
        diags.push(
            nic_override(
                s.span,
                format!("`speed {}G`", s.value / 1000),
                format!("its fastest port runs {}G", max / 1000),
            )
            .help("remove `speed` to take the platform's, or use a slower one"),
        );
    }
    // `ports N` beyond what the catalogue says the NIC has (ConnectX-8: 2 x 400GbE).
    if let Some(p) = ports
        && let Some(max) = &pl.max_ports
        && p.value > max.value
    {
        diags.push(
            nic_override(
                p.span,
                format!("`ports {}`", p.value),
                format!("it has {} port(s)", max.value),
            )
            .help("declare at most the platform's ports, or remove `platform`"),
        );
    }
}
