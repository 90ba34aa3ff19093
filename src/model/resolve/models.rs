//! Switch and NIC models: their declarations become `SwitchModel`s and `NicModel`s.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{NicModel, PortGroup, Sourced, SwitchModel};
use crate::render::{Release, cumulus};
use crate::syntax::ast::{self, NicModelProp, Os, SwitchModelProp};

use super::slot::put;
use super::units::bytes;

pub fn switch_model(decl: &ast::SwitchModelDecl, diags: &mut Vec<Diagnostic>) -> SwitchModel {
    let mut os = None;
    let mut release = None;
    let mut ports = None;
    let mut ports_invalid = false;
    let mut buffer = None;
    let mut lossless_limit = None;
    let mut cell = None;
    let mut dynamic_threshold = None;
    let mut description: Option<Sourced<String>> = None;
    for p in &decl.props {
        let span = p.span;
        match &p.node {
            SwitchModelProp::Os(o, r) => {
                put(&mut os, *o, span, "`os`", diags);
                if let Some(r) = r {
                    release = release_of(*o, *r, span, diags);
                }
            }
            SwitchModelProp::Ports(groups) => {
                let mut total: u64 = 0;
                let v: Vec<PortGroup> = groups
                    .iter()
                    .map(|g| {
                        total = total.saturating_add(g.node.count);
                        PortGroup {
                            count: u32::try_from(g.node.count).unwrap_or(u32::MAX),
                            speed: g.node.speed.0,
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
                    // Not kept: the ports of every switch are allocated from it.
                    ports_invalid = true;
                } else {
                    put(&mut ports, v, span, "`ports`", diags);
                }
            }
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
        }
    }
    let at = decl.name.span;
    let missing = |what: &str, help: &str, diags: &mut Vec<Diagnostic>| {
        diags.push(
            Diagnostic::new(
                Code::MissingProperty,
                at,
                format!("switch model `{}` has no `{what}`", decl.name.node),
            )
            .label("declared here")
            .help(help.to_string()),
        );
    };
    if os.is_none() {
        missing("os", "add `os sonic` (or cumulus, eos, nxos, junos)", diags);
    }
    if ports.is_none() && !ports_invalid {
        missing(
            "ports",
            "add the port groups, e.g. `ports 64 x 400G`",
            diags,
        );
    }
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
    let buffer = buffer.and_then(|b| {
        bytes(b.value, cell_bytes.map(|c| c.value), b.span, diags).map(|v| Sourced::set(v, b.span))
    });
    SwitchModel {
        name: decl.name.node.clone(),
        span: at,
        os: os.unwrap_or(Sourced::default_at(Os::Sonic, at)),
        release,
        ports: ports.unwrap_or(Sourced::default_at(
            vec![PortGroup {
                count: 1,
                speed: 100_000,
            }],
            at,
        )),
        buffer,
        lossless_limit,
        cell: cell_bytes,
        dynamic_threshold: dynamic_threshold.unwrap_or(Sourced::default_at(0, at)),
        description: description.map(|d| d.value),
    }
}

/// A release after an OS name: only Cumulus has a release table (`render::cumulus::RELEASES`).
fn release_of(
    os: Os,
    r: ast::OsRelease,
    span: crate::span::Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Sourced<Release>> {
    let release = Release::new(r.major, r.minor);
    if os != Os::Cumulus {
        diags.push(
            Diagnostic::new(
                Code::NotAllowedHere,
                span,
                format!(
                    "a release is only understood for `os cumulus`, not `os {}`",
                    os.as_str()
                ),
            )
            .label("release")
            .help(format!("write `os {}` without a release", os.as_str())),
        );
        return None;
    }
    if !cumulus::supported(release) {
        diags.push(
            Diagnostic::new(
                Code::OutOfRange,
                span,
                format!("Cumulus Linux {release} is not a release fabricc writes NVUE for"),
            )
            .label("release")
            .help(format!(
                "supported: Cumulus Linux {} to {}; leave the release out for {}",
                cumulus::OLDEST,
                cumulus::NEWEST,
                cumulus::NEWEST
            )),
        );
        return None;
    }
    Some(Sourced::set(release, span))
}

pub fn nic_model(decl: &ast::NicModelDecl, diags: &mut Vec<Diagnostic>) -> NicModel {
    let mut driver = None;
    let mut speed = None;
    let mut buffer = None;
    for p in &decl.props {
        let span = p.span;
        match &p.node {
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
    let speed = speed.unwrap_or_else(|| {
        diags.push(
            Diagnostic::new(
                Code::MissingProperty,
                at,
                format!("NIC model `{}` has no `speed`", decl.name.node),
            )
            .label("declared here")
            .help("add the port speed, e.g. `speed 400G`"),
        );
        Sourced::default_at(100_000, at)
    });
    NicModel {
        name: decl.name.node.clone(),
        span: at,
        driver: driver.unwrap_or(Sourced::default_at("mlx5".to_string(), at)),
        speed,
        buffer,
    }
}
