//! Render stage: per-device contexts → generated files.
//!
//! In: a `SwitchContext` or `HostContext` (plain, decided data, see `context.rs`) and a
//! `Templates` set. Out: `Artifact`s (relative path + contents), sorted by path.
//!
//! Flow per device: validate every name that will be printed unquoted (`escape`), build the
//! target's view in Rust (`sonic.rs`, `cumulus.rs`, `eos.rs`, `nxos.rs`, `junos.rs`, `vrp.rs`,
//! `host.rs`: vendor names, units, escaped text), then let the templates format that view.
//! Templates decide nothing.

mod bond_findings;
pub mod comware;
pub mod cumulus;
pub mod eos;
pub mod error;
pub mod escape;
pub mod fidelity;
pub mod host;
pub mod host_dcb;
pub mod host_hccn;
pub mod junos;
pub mod lb;
pub mod nxos;
pub mod preflight;
pub mod sonic;
mod sonic_device;
mod sonic_notes;
pub mod sonic_program;
pub mod templates;
mod variants;
pub mod view_class;
pub mod vrp;

use minijinja::Value;
use minijinja::value::Serde;
use serde::Serialize;

// The contexts and SONiC's hash vocabulary are lowering's output and vocabulary; they keep
// their old paths here (`render::SwitchContext`, `render::context`, `render::sonic_hash`).
pub use crate::lower::context::{self, *};
pub use crate::lower::sonic_hash;
pub use crate::lower::vocab::ecn_as_written;
pub use error::RenderError;
pub(crate) use error::{invalid, unsupported};
pub use fidelity::{Note, NoteKind, Property};
pub use templates::Templates;

/// What a generated file configures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArtifactKind {
    Switch,
    Host,
    Report,
}

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Artifact {
    /// Relative to the output folder, `/`-separated, e.g. `switches/leaf1/qos.cfg`.
    pub path: String,
    pub contents: String,
    pub device: String,
    pub kind: ArtifactKind,
    /// Target name: `sonic`, `cumulus`, `eos`, `nxos`, `junos`, `host`.
    pub target: String,
}

/// The target's view of a switch, without rendering it, and the notes of what the target
/// cannot say as the model says it: what `check` runs so that a device the target cannot
/// express, or expresses differently, is found before a build.
pub fn preflight_switch(ctx: &SwitchContext) -> Result<Vec<Note>, RenderError> {
    switch_view_as(ctx, false).map(|(_, notes)| notes)
}

/// The host script's view of a host, without rendering it.
pub fn preflight_host(ctx: &HostContext) -> Result<(), RenderError> {
    host::view(ctx).map(drop)
}

/// Render every file of a switch's target. The notes of the view are `check`'s business
/// (`preflight_switch`), not the renderer's.
pub fn render_switch(
    templates: &Templates,
    ctx: &SwitchContext,
) -> Result<Vec<Artifact>, RenderError> {
    let (view, _) = switch_view_as(ctx, true)?;
    render_files(
        templates,
        ctx.os.as_str(),
        "switches",
        &ctx.device,
        ArtifactKind::Switch,
        &view,
    )
}

/// The validated view of a switch for its target's templates, with its notes (sorted, unique).
/// `keep` false skips turning the view into a template value (`check` wants only the notes).
fn switch_view_as(ctx: &SwitchContext, keep: bool) -> Result<(Value, Vec<Note>), RenderError> {
    check_switch(ctx)?;
    let (view, mut notes) = match ctx.os {
        SwitchOs::Sonic => {
            let (v, n) = sonic::view(ctx)?;
            (
                if keep {
                    Value::from(Serde(v))
                } else {
                    Value::UNDEFINED
                },
                n,
            )
        }
        SwitchOs::Cumulus => {
            let (v, n) = cumulus::view(ctx)?;
            (
                if keep {
                    Value::from(Serde(v))
                } else {
                    Value::UNDEFINED
                },
                n,
            )
        }
        SwitchOs::Eos => {
            let (v, n) = eos::view(ctx)?;
            (
                if keep {
                    Value::from(Serde(v))
                } else {
                    Value::UNDEFINED
                },
                n,
            )
        }
        SwitchOs::Nxos => {
            let (v, n) = nxos::view(ctx)?;
            (
                if keep {
                    Value::from(Serde(v))
                } else {
                    Value::UNDEFINED
                },
                n,
            )
        }
        SwitchOs::Junos => {
            let (v, n) = junos::view(ctx)?;
            (
                if keep {
                    Value::from(Serde(v))
                } else {
                    Value::UNDEFINED
                },
                n,
            )
        }
        SwitchOs::Vrp => {
            let (v, n) = vrp::view(ctx)?;
            (
                if keep {
                    Value::from(Serde(v))
                } else {
                    Value::UNDEFINED
                },
                n,
            )
        }
        SwitchOs::Comware => {
            let (v, n) = comware::view(ctx)?;
            (
                if keep {
                    Value::from(Serde(v))
                } else {
                    Value::UNDEFINED
                },
                n,
            )
        }
    };
    notes.sort();
    notes.dedup();
    Ok((view, notes))
}

/// The programs rendered once per output for the switches of a build (issue 36 item 2):
/// `programs/sonic/apply.sh` and its `README.md` when any switch runs SONiC, and
/// `programs/cumulus/nvue.sh` when any runs Cumulus Linux. `owner` names the
/// output in the manifest (the fabric), as for the reports.
pub fn render_programs<'a>(
    templates: &Templates,
    switches: impl IntoIterator<Item = &'a SwitchContext>,
    owner: &str,
) -> Result<Vec<Artifact>, RenderError> {
    let switches: Vec<&SwitchContext> = switches.into_iter().collect();
    let mut out = Vec::new();
    if switches.iter().any(|s| s.os == SwitchOs::Sonic) {
        let view = Value::from(Serde(sonic_program::program_view()));
        for file in Templates::files("sonic-program") {
            out.push(Artifact {
                path: format!("programs/sonic/{}", file.output),
                contents: templates.render(file.path, view.clone())?,
                device: owner.to_string(),
                kind: ArtifactKind::Report,
                target: "sonic".to_string(),
            });
        }
    }
    // The Cumulus program (`nvue.sh`): it reads the switch's nvue-qos.yaml, so it holds
    // nothing of a switch or a fabric.
    if switches.iter().any(|s| s.os == SwitchOs::Cumulus) {
        for file in Templates::files("cumulus-program") {
            out.push(Artifact {
                path: format!("programs/cumulus/{}", file.output),
                contents: templates.render(file.path, Value::UNDEFINED)?,
                device: owner.to_string(),
                kind: ArtifactKind::Report,
                target: "cumulus".to_string(),
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Render a host's files: its settings (`fabricc-roce.conf`, what its driver's program reads)
/// and its NCCL or HCCL environment. The programs, the unit, the rule and the README that
/// explains these files are [`render_host_programs`]'s, once per build.
pub fn render_host(templates: &Templates, ctx: &HostContext) -> Result<Vec<Artifact>, RenderError> {
    let view = Value::from(Serde(host::view(ctx)?));
    let mut out = Vec::new();
    for file in Templates::files("host")
        .filter(|f| {
            !host::DRIVER_SCRIPTS.contains(&f.output)
                && f.output != host::BOND_SCRIPT
                && !host::DRIVER_FILES.contains(&f.output)
                && f.output != host::README
        })
        .filter(|f| host::host_file_applies(ctx.driver, f.output))
    {
        let contents = templates.render(file.path, view.clone())?;
        if file.output == host::SETTINGS
            && let Some(bad) = contents.lines().find(|l| !host::settings_line_ok(l))
        {
            return Err(invalid(
                &ctx.host,
                format!("settings line {bad:?} is not KEY=value of [A-Za-z0-9_.:,= -]"),
            ));
        }
        out.push(Artifact {
            path: format!("hosts/{}/{}", ctx.host, file.output),
            contents,
            device: ctx.host.clone(),
            kind: ArtifactKind::Host,
            target: "host".to_string(),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The device name of the host programs' artifacts (they belong to no one host).
pub const PROGRAMS_DEVICE: &str = "programs";

/// Render the host programs a build needs: one per driver family its hosts use, under
/// `programs/host/` (issue 36 item 2), with their units and rules and the README that
/// explains every host's files. A program holds nothing of a host or a fabric (its
/// template sees no `device`), so every host of a driver runs the same bytes and reads its own
/// settings file.
pub fn render_host_programs<'a>(
    templates: &Templates,
    hosts: impl IntoIterator<Item = &'a HostContext>,
) -> Result<Vec<Artifact>, RenderError> {
    let mut drivers: std::collections::BTreeSet<&'static str> = std::collections::BTreeSet::new();
    let mut families: std::collections::BTreeSet<NicDriver> = std::collections::BTreeSet::new();
    let mut bond = false;
    for h in hosts {
        drivers.insert(host::driver_script(h.driver));
        families.insert(h.driver);
        // The bond program (mlx5 RoCE LAG), once, when some host bonds its ports.
        if h.driver == NicDriver::Mlx5 && !h.bonds.is_empty() {
            drivers.insert(host::BOND_SCRIPT);
            bond = true;
        }
    }
    let mut out = Vec::new();
    if !families.is_empty() {
        let view = Value::from(Serde(host::readme_view(&families, bond)));
        out.push(Artifact {
            path: format!("{}/{}", host::PROGRAMS, host::README),
            contents: templates.render(&format!("host/{}", host::README), view)?,
            device: PROGRAMS_DEVICE.to_string(),
            kind: ArtifactKind::Host,
            target: "host".to_string(),
        });
    }
    for driver in families {
        let view = Value::from(Serde(host::driver_files_view(driver)));
        for file in host::DRIVER_FILES {
            if !host::host_file_applies(driver, file) {
                continue;
            }
            out.push(Artifact {
                path: format!("{}/{}/{file}", host::PROGRAMS, driver.as_str()),
                contents: templates.render(&format!("host/{file}"), view.clone())?,
                device: PROGRAMS_DEVICE.to_string(),
                kind: ArtifactKind::Host,
                target: "host".to_string(),
            });
        }
    }
    for script in drivers {
        let path = format!("host/{script}");
        out.push(Artifact {
            path: format!("{}/{script}", host::PROGRAMS),
            contents: templates.render(&path, Value::UNDEFINED)?,
            device: PROGRAMS_DEVICE.to_string(),
            kind: ArtifactKind::Host,
            target: "host".to_string(),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Render every device of a build with one template environment; artifacts sorted by path.
/// Test support (tests/it/render_targets.rs), not the product's: `output` renders per device.
#[cfg(feature = "internals")]
pub fn render_all(
    templates: &Templates,
    switches: &[SwitchContext],
    hosts: &[HostContext],
) -> Result<Vec<Artifact>, RenderError> {
    let mut out = Vec::new();
    for s in switches {
        out.extend(render_switch(templates, s)?);
    }
    for h in hosts {
        out.extend(render_host(templates, h)?);
    }
    out.extend(render_host_programs(templates, hosts)?);
    out.extend(render_programs(templates, switches, "")?);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn render_files(
    templates: &Templates,
    target: &str,
    folder: &str,
    device: &str,
    kind: ArtifactKind,
    view: &Value,
) -> Result<Vec<Artifact>, RenderError> {
    let mut out = Vec::new();
    for file in Templates::files(target) {
        out.push(Artifact {
            path: format!("{folder}/{device}/{}", file.output),
            contents: templates.render(file.path, view.clone())?,
            device: device.to_string(),
            kind,
            target: target.to_string(),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The checks every switch target relies on: printable names and sane QoS numbers.
fn check_switch(ctx: &SwitchContext) -> Result<(), RenderError> {
    let dev = &ctx.device;
    if !escape::is_identifier(dev) {
        return Err(invalid(
            dev,
            format!("device name {dev:?} is not an identifier"),
        ));
    }
    if !escape::is_identifier(&ctx.fabric) {
        return Err(invalid(
            dev,
            format!("fabric name {:?} is not an identifier", ctx.fabric),
        ));
    }
    if ctx.qos.dscp_to_tc.len() != 64 {
        return Err(invalid(
            dev,
            "the DSCP → TC map must have exactly 64 entries",
        ));
    }
    if ctx.qos.dscp_to_tc.iter().any(|&tc| tc > 7) {
        return Err(invalid(dev, "a traffic class is above 7"));
    }
    for class in &ctx.qos.classes {
        if !escape::is_identifier(&class.name) {
            return Err(invalid(
                dev,
                format!("class name {:?} is not an identifier", class.name),
            ));
        }
        if class.priority > 7 || class.tc > 7 || class.queue > 7 {
            return Err(invalid(
                dev,
                format!("class `{}`: priority/tc/queue above 7", class.name),
            ));
        }
        if class.dscps.iter().any(|&d| d > 63) {
            return Err(invalid(
                dev,
                format!("class `{}`: DSCP above 63", class.name),
            ));
        }
        if let Some(e) = class.ecn {
            check_ecn(dev, &class.name, e)?;
        }
    }
    let ets: u32 = ctx
        .qos
        .classes
        .iter()
        .map(|c| match c.scheduling {
            Scheduling::Ets { weight_percent } => u32::from(weight_percent),
            Scheduling::Strict => 0,
        })
        .sum();
    if ctx
        .qos
        .classes
        .iter()
        .any(|c| matches!(c.scheduling, Scheduling::Ets { .. }))
        && ets != 100
    {
        return Err(invalid(dev, format!("ETS weights sum to {ets}, not 100")));
    }
    if ctx.qos.lossless_priorities.iter().any(|&p| p > 7) {
        return Err(invalid(dev, "a lossless priority is above 7"));
    }
    for port in &ctx.ports {
        if !escape::is_port_name(&port.name) {
            return Err(invalid(
                dev,
                format!("port name {:?} is not a port name", port.name),
            ));
        }
        if !escape::is_identifier(&port.peer) || !escape::is_port_name(&port.peer_port) {
            return Err(invalid(
                dev,
                format!("port `{}`: peer name is not an identifier", port.name),
            ));
        }
        if port.speed_mbps == 0 {
            return Err(invalid(dev, format!("port `{}`: speed 0", port.name)));
        }
        for q in &port.ecn {
            if let Some(e) = q.ecn {
                check_ecn(dev, &port.name, e)?;
            }
        }
        for p in &port.lossless_priorities {
            if !port.headroom.iter().any(|h| h.priority == *p) {
                return Err(invalid(
                    dev,
                    format!("port `{}`: no headroom for priority {p}", port.name),
                ));
            }
        }
    }
    Ok(())
}

fn check_ecn(dev: &str, what: &str, e: Ecn) -> Result<(), RenderError> {
    if e.min_bytes == 0 || e.max_bytes < e.min_bytes || !(1..=100).contains(&e.probability_percent)
    {
        return Err(invalid(
            dev,
            format!("`{what}`: ECN needs 0 < min ≤ max and probability 1..100"),
        ));
    }
    Ok(())
}
