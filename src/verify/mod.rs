//! `fabricc verify`: what the devices run, against what fabricc generates for them.
//!
//! In: a checked fabric (as `build` has it: lowered, no errors), the templates, the targets to
//! verify, and a state directory (`DIR/<device>/…`, `state.rs`). Out: drift and wiring
//! findings (FAB970–FAB982) with spans into the state files, which are added to `Sources`, and
//! one summary per device.
//!
//! Per device, in parallel: render the device's files exactly as `build` does; take the
//! target's configuration among them (by target and artifact kind, never by file name: every
//! generated file that parses as the target's configuration, scripts only where there is
//! nothing else) and reduce it to paths (`canon.rs`) with the target's parser (`sonic.rs`,
//! `cli.rs`, `junos.rs`, `nvue.rs`; hosts: `host.rs`); read the device's state file and reduce
//! it with the same parser; compare within what fabricc owns (each parser module's `Scope`).
//! Then, with every device read: LLDP neighbours (`lldp.rs`) against the cabling plan
//! (`output::cabling`), since a neighbour's port name may come from its own state (a SONiC
//! port alias, a host's netdev).

pub mod canon;
pub mod cli;
pub mod host;
pub mod json;
pub mod junos;
pub mod lldp;
pub mod nvue;
pub mod report;
pub mod sonic;
pub mod state;
pub mod vrp;
mod wiring;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diagnostic::{Code, Diagnostic, Observed, did_you_mean};
use crate::lower::Targets;
use crate::pipeline::Checked;
use crate::render::{
    self, Artifact, ArtifactKind, HostContext, SwitchContext, SwitchOs, Templates,
};
use crate::source::{SourceFile, Sources};
use crate::span::{FileId, Span};

use canon::{Canon, Diff, Form, Loc};
pub use state::Target;

/// What to verify.
pub struct Input<'a> {
    pub checked: &'a Checked,
    pub templates: &'a Templates,
    pub targets: Targets,
    pub state_dir: &'a Path,
    /// How the state directory is shown in messages.
    pub state_display: String,
    pub max_input_bytes: u64,
}

/// How one device compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    InSync,
    /// Findings about the device (drift and wiring).
    Differs,
    /// No state was collected (no folder, or no configuration file in it).
    NoState,
    /// The state file could not be read or parsed.
    Unreadable,
}

/// One device's result, for the summary and `--report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceSummary {
    pub device: String,
    pub target: Target,
    pub status: Status,
    /// Findings by code.
    pub counts: BTreeMap<Code, usize>,
    /// The generated files the state was compared with.
    pub compared_with: Vec<String>,
    /// Whether an `lldp.json` was read.
    pub lldp: bool,
}

impl DeviceSummary {
    pub fn findings(&self) -> usize {
        self.counts.values().sum()
    }
}

/// Everything `verify` found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Grouped by device (in the fabric's order), then in each device's file order.
    pub diagnostics: Vec<Diagnostic>,
    pub devices: Vec<DeviceSummary>,
}

/// Why verify could not run at all (exit 2).
#[derive(Debug)]
pub struct Fatal(pub String);

/// Where a finding points before its file has an id in `Sources`.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// The device's declaration in the fabric.
    Fabric(Span),
    /// A state file of this device (index into its `files`) and a range in it.
    State(usize, Loc),
}

struct Pending {
    place: Place,
    diag: Diagnostic,
}

/// One device, after phase 1.
struct Read {
    summary: DeviceSummary,
    files: Vec<SourceFile>,
    pending: Vec<Pending>,
    /// SONiC `PORT|<port>|alias` from the state.
    aliases: Vec<(String, String)>,
    /// A host's `nicN` → netdev from its state.
    netdevs: BTreeMap<String, String>,
    /// LLDP neighbours and the index of `lldp.json` in `files`.
    lldp: Option<(usize, Vec<lldp::Neighbour>)>,
    span: Span,
}

/// Runs the comparison; state files with findings are added to `sources`.
pub fn verify(input: &Input<'_>, sources: &mut Sources) -> Result<Outcome, Fatal> {
    let (Some(fabric), Some(lowered)) = (&input.checked.fabric, &input.checked.lowered) else {
        return Err(Fatal(
            "the fabric does not build, so there is nothing to verify".into(),
        ));
    };
    let folders = state::device_folders(input.state_dir, &input.state_display).map_err(Fatal)?;
    let switches: Vec<&SwitchContext> = lowered
        .switches
        .iter()
        .filter(|s| input.targets.switch_os(s.os))
        .collect();
    let hosts: &[HostContext] = if input.targets.host {
        &lowered.hosts
    } else {
        &[]
    };
    // Each device's declaration, by name (a fabric has tens of thousands).
    let spans: HashMap<&str, Span> = fabric
        .hosts
        .iter()
        .map(|h| (h.name.as_str(), h.span))
        .chain(fabric.switches.iter().map(|s| (s.name.as_str(), s.span)))
        .collect();
    let span_of = |name: &str| -> Span { spans.get(name).copied().unwrap_or(fabric.span) };
    let ctx = Ctx {
        input,
        state_dir: input.state_dir,
    };
    let mut reads: Vec<Read> = switches
        .par_iter()
        .map(|s| ctx.switch(s, span_of(&s.device)))
        .chain(hosts.par_iter().map(|h| ctx.host(h, span_of(&h.host))))
        .collect();

    // Phase 2: LLDP against the cabling plan, with every device's names known.
    if reads.iter().any(|r| r.lldp.is_some()) {
        let devices: Vec<wiring::DeviceLldp<'_>> = reads
            .iter_mut()
            .map(|r| wiring::DeviceLldp {
                lldp: r.lldp.take(),
                device: &r.summary.device,
                target: r.summary.target,
                aliases: &r.aliases,
                netdevs: &r.netdevs,
            })
            .collect();
        let found = wiring::check(fabric, &devices);
        for f in found {
            reads[f.device].pending.push(Pending {
                place: Place::State(f.file, f.at),
                diag: f.diag,
            });
        }
    }

    // Folders that name no device.
    let known: HashMap<&str, ()> = reads
        .iter()
        .map(|r| (r.summary.device.as_str(), ()))
        .chain(fabric.switches.iter().map(|s| (s.name.as_str(), ())))
        .chain(fabric.hosts.iter().map(|h| (h.name.as_str(), ())))
        .collect();
    let mut stray = Vec::new();
    for f in &folders {
        if !known.contains_key(f.as_str()) {
            let names = fabric
                .switches
                .iter()
                .map(|s| s.name.as_str())
                .chain(fabric.hosts.iter().map(|h| h.name.as_str()));
            let mut d = Diagnostic::new(
                Code::StateUnknownDevice,
                fabric.span,
                format!(
                    "`{}/{f}` names no device of fabric `{}`",
                    input.state_display, fabric.name
                ),
            )
            .label("the fabric");
            d = d.help(match did_you_mean(f, names) {
                Some(s) => format!("{s} state folders are named as the devices in the build output"),
                None => "state folders are named as the devices in the build output; remove or rename this one".to_string(),
            });
            stray.push(d);
        }
    }

    let mut out = Outcome::default();
    for r in reads {
        let base = r
            .files
            .into_iter()
            .map(|f| sources.add(f))
            .collect::<Vec<FileId>>();
        let mut diags: Vec<Diagnostic> = r
            .pending
            .into_iter()
            .map(|p| {
                let mut d = p.diag;
                d.primary.span = match p.place {
                    Place::Fabric(s) => s,
                    Place::State(i, loc) => Span::new(
                        base.get(i).copied().unwrap_or_default(),
                        loc.start as usize,
                        loc.end as usize,
                    ),
                };
                d
            })
            .collect();
        crate::diagnostic::sort(&mut diags);
        let mut summary = r.summary;
        for d in &diags {
            *summary.counts.entry(d.code).or_default() += 1;
        }
        if summary.status == Status::InSync && !diags.is_empty() {
            summary.status = Status::Differs;
        }
        out.diagnostics.extend(diags);
        out.devices.push(summary);
    }
    out.diagnostics.extend(stray);
    Ok(out)
}

struct Ctx<'a> {
    input: &'a Input<'a>,
    state_dir: &'a Path,
}

impl Ctx<'_> {
    fn folder(&self, device: &str) -> PathBuf {
        self.state_dir.join(device)
    }

    fn display(&self, device: &str, file: &str) -> String {
        format!("{}/{device}/{file}", self.input.state_display)
    }

    /// Reads the device's configuration file; on failure, the finding and the status.
    fn read_config(
        &self,
        device: &str,
        target: Target,
        span: Span,
    ) -> Result<String, (Pending, Status)> {
        let name = state::config_file(target);
        let folder = self.folder(device);
        match state::read(&folder.join(name), self.input.max_input_bytes) {
            Ok(text) => Ok(text),
            Err(state::ReadError::Missing) => {
                let what = if folder.is_dir() {
                    format!(
                        "`{}` has no `{name}`",
                        self.display(device, "").trim_end_matches('/')
                    )
                } else {
                    format!(
                        "no state for `{device}`: `{}` does not exist",
                        self.display(device, "").trim_end_matches('/')
                    )
                };
                let d = Diagnostic::new(Code::StateNoDevice, span, what)
                    .label("this device")
                    .observed(file_observed(device, name))
                    .help(format!(
                        "collect `{name}` from `{device}` into `{}` (docs/verify.md), or verify fewer targets with --target",
                        self.display(device, name)
                    ));
                Err((
                    Pending {
                        place: Place::Fabric(span),
                        diag: d,
                    },
                    Status::NoState,
                ))
            }
            Err(e) => {
                let d = Diagnostic::new(
                    Code::StateUnreadable,
                    span,
                    format!("cannot read `{}`: {e}", self.display(device, name)),
                )
                .label("this device")
                .observed(file_observed(device, name))
                .help("collect the file again (docs/verify.md); a state file is the text the device prints");
                Err((
                    Pending {
                        place: Place::Fabric(span),
                        diag: d,
                    },
                    Status::Unreadable,
                ))
            }
        }
    }

    /// Reads `lldp.json` when the folder has one.
    fn read_lldp(&self, r: &mut Read) {
        let device = r.summary.device.clone();
        let path = self.folder(&device).join(state::LLDP_FILE);
        let text = match state::read(&path, self.input.max_input_bytes) {
            Ok(t) => t,
            Err(state::ReadError::Missing) => return,
            Err(e) => {
                let d = Diagnostic::new(
                    Code::StateUnreadable,
                    r.span,
                    format!(
                        "cannot read `{}`: {e}",
                        self.display(&device, state::LLDP_FILE)
                    ),
                )
                .label("this device")
                .observed(file_observed(&device, state::LLDP_FILE))
                .help("collect it again with `lldpctl -f json` (or `show lldp neighbors | json`)");
                r.pending.push(Pending {
                    place: Place::Fabric(r.span),
                    diag: d,
                });
                return;
            }
        };
        let index = r.files.len();
        r.files.push(SourceFile::new(
            path,
            self.display(&device, state::LLDP_FILE),
            text,
        ));
        let text = &r.files[index].text;
        let parsed = json::parse(text)
            .map_err(|e| (e.offset, e.message))
            .and_then(|n| lldp::parse(&n).map_err(|m| (0, m)));
        match parsed {
            Ok(n) => {
                r.summary.lldp = true;
                r.lldp = Some((index, n));
            }
            Err((offset, message)) => r.pending.push(Pending {
                place: Place::State(index, Loc::new(offset, offset + 1)),
                diag: Diagnostic::new(
                    Code::StateUnreadable,
                    Span::default(),
                    format!("`{}` is not LLDP JSON: {message}", self.display(&device, state::LLDP_FILE)),
                )
                .label("here")
                .observed(file_observed(&device, state::LLDP_FILE))
                .help("collect it with `lldpctl -f json` (SONiC, Cumulus, hosts) or `show lldp neighbors | json` (EOS, NX-OS)"),
            }),
        }
    }

    fn new_read(&self, device: &str, target: Target, span: Span) -> Read {
        Read {
            summary: DeviceSummary {
                device: device.to_string(),
                target,
                status: Status::InSync,
                counts: BTreeMap::new(),
                compared_with: Vec::new(),
                lldp: false,
            },
            files: Vec::new(),
            pending: Vec::new(),
            aliases: Vec::new(),
            netdevs: BTreeMap::new(),
            lldp: None,
            span,
        }
    }

    fn switch(&self, s: &SwitchContext, span: Span) -> Read {
        let target = Target::Switch(s.os);
        let mut r = self.new_read(&s.device, target, span);
        self.read_lldp(&mut r);
        let artifacts = match render::render_switch(self.input.templates, s) {
            Ok(a) => a,
            Err(e) => {
                r.pending.push(internal(span, &s.device, &e.to_string()));
                r.summary.status = Status::Unreadable;
                return r;
            }
        };
        let (expected, compared) = generated(s.os, &artifacts);
        r.summary.compared_with = compared;
        let text = match self.read_config(&s.device, target, span) {
            Ok(t) => t,
            Err((p, status)) => {
                r.pending.push(p);
                r.summary.status = status;
                return r;
            }
        };
        let name = state::config_file(target);
        let index = r.files.len();
        r.files.push(SourceFile::new(
            self.folder(&s.device).join(name),
            self.display(&s.device, name),
            text,
        ));
        let text = &r.files[index].text;
        let actual = match parse(s.os, text) {
            Ok((c, _)) => c,
            Err((offset, message)) => {
                r.pending.push(Pending {
                    place: Place::State(index, Loc::new(offset, offset + 1)),
                    diag: Diagnostic::new(
                        Code::StateUnreadable,
                        Span::default(),
                        format!(
                            "`{}` cannot be read as {}: {message}",
                            self.display(&s.device, name),
                            what(s.os)
                        ),
                    )
                    .label("here")
                    .observed(file_observed(&s.device, name))
                    .help(format!(
                        "collect it again with {} (docs/verify.md)",
                        collect_command(s.os)
                    )),
                });
                r.summary.status = Status::Unreadable;
                return r;
            }
        };
        if s.os == SwitchOs::Sonic {
            r.aliases = actual
                .paths()
                .filter(|k| k.starts_with("PORT\u{1f}"))
                .filter_map(|k| match canon::segments(k).collect::<Vec<_>>()[..] {
                    ["PORT", port, "alias", alias] => Some((port.to_string(), alias.to_string())),
                    _ => None,
                })
                .collect();
        }
        let form = form(s.os);
        let diffs = match s.os {
            SwitchOs::Sonic => {
                let scope = sonic::Scope::new(&expected);
                canon::compare(form, &expected, &actual, &|p| scope.owns(p))
            }
            SwitchOs::Eos | SwitchOs::Nxos | SwitchOs::Comware => {
                let scope = cli::Scope::new(&expected);
                canon::compare(form, &expected, &actual, &|p| scope.owns(p))
            }
            SwitchOs::Junos => {
                let scope = junos::Scope::new(&expected);
                canon::compare(form, &expected, &actual, &|p| scope.owns(p))
            }
            SwitchOs::Cumulus => {
                let scope = nvue::Scope::new(&expected);
                canon::compare(form, &expected, &actual, &|p| scope.owns(p))
            }
            SwitchOs::Vrp => {
                let scope = vrp::Scope::new(&expected);
                canon::compare(form, &expected, &actual, &|p| scope.owns(p))
            }
        };
        let files = r.summary.compared_with.join("`, `");
        for d in diffs {
            r.pending
                .push(drift(&s.device, target, form, &files, index, d));
        }
        if matches!(s.os, SwitchOs::Eos | SwitchOs::Nxos | SwitchOs::Comware) {
            // A port that left the fabric: the fragment cannot name it, so a merge leaves
            // its fabricc binding (the files' headers say so).
            let fabric: std::collections::BTreeSet<String> =
                s.ports.iter().map(|p| p.name.clone()).collect();
            for l in cli::leftovers(text, &fabric) {
                r.pending.push(leftover_port(&s.device, index, l));
            }
        }
        r
    }

    fn host(&self, h: &HostContext, span: Span) -> Read {
        let target = Target::Host;
        let mut r = self.new_read(&h.host, target, span);
        self.read_lldp(&mut r);
        let artifacts = match render::render_host(self.input.templates, h) {
            Ok(a) => a,
            Err(e) => {
                r.pending.push(internal(span, &h.host, &e.to_string()));
                r.summary.status = Status::Unreadable;
                return r;
            }
        };
        let Some((intent, path)) = artifacts
            .iter()
            .filter(|a| a.kind == ArtifactKind::Host)
            .find_map(|a| host::intent(&a.contents).map(|i| (i, a.path.clone())))
        else {
            r.pending.push(internal(
                span,
                &h.host,
                "no generated file states the host's intent",
            ));
            r.summary.status = Status::Unreadable;
            return r;
        };
        // The intent is the host's settings file; the host runs them with its driver's program,
        // installed as `fabricc-roce` (issue 36 item 2).
        let script = format!("fabricc-roce ({})", render::host::driver_script(h.driver));
        r.summary.compared_with = vec![path];
        let text = match self.read_config(&h.host, target, span) {
            Ok(t) => t,
            Err((p, status)) => {
                r.pending.push(p);
                r.summary.status = status;
                return r;
            }
        };
        let name = state::config_file(target);
        let index = r.files.len();
        r.files.push(SourceFile::new(
            self.folder(&h.host).join(name),
            self.display(&h.host, name),
            text,
        ));
        let text = &r.files[index].text;
        let device = h.host.clone();
        let unreadable = |offset: usize, message: String| {
            Pending {
            place: Place::State(index, Loc::new(offset, offset + 1)),
            diag: Diagnostic::new(Code::StateUnreadable, Span::default(), message)
                .label("here")
                .observed(file_observed(&device, name))
                .help(format!("collect it again with `{script} --collect > state.json` on the host (docs/verify.md)")),
        }
        };
        let node = match json::parse(text) {
            Ok(n) => n,
            Err(e) => {
                r.pending.push(unreadable(
                    e.offset,
                    format!(
                        "`{}` is not JSON: {}",
                        self.display(&h.host, name),
                        e.message
                    ),
                ));
                r.summary.status = Status::Unreadable;
                return r;
            }
        };
        let schema = node.get("schema").and_then(json::Node::as_str);
        if schema != Some(host::SCHEMA) {
            let at = node.get("schema").map_or(node.start, |s| s.start);
            r.pending.push(unreadable(
                at,
                format!(
                    "`{}` is not `--collect` output of schema `{}` (it says {})",
                    self.display(&h.host, name),
                    host::SCHEMA,
                    schema.map_or("nothing".to_string(), |s| format!("`{s}`"))
                ),
            ));
            r.summary.status = Status::Unreadable;
            return r;
        }
        if let Some(other) = node.get("host").and_then(json::Node::as_str)
            && other != h.host
        {
            let at = node.get("host").map_or(0, |n| n.start);
            r.pending.push(unreadable(
                at,
                format!(
                    "`{}` was collected on host `{other}`, not `{}`",
                    self.display(&h.host, name),
                    h.host
                ),
            ));
            r.summary.status = Status::Unreadable;
            return r;
        }
        // A state printed by another driver's script has other keys: comparing it would
        // name every setting; it is the wrong file, one finding.
        let want_driver = intent.driver.as_deref().unwrap_or("mlx5");
        if let Some(other) = node.get("driver").and_then(json::Node::as_str)
            && other != want_driver
        {
            let at = node.get("driver").map_or(0, |n| n.start);
            r.pending.push(unreadable(
                at,
                format!(
                    "`{}` was printed by the `{other}` NIC script, but `{}` runs `{script}` (driver `{want_driver}`)",
                    self.display(&h.host, name),
                    h.host
                ),
            ));
            r.summary.status = Status::Unreadable;
            return r;
        }
        r.netdevs = host::netdevs(&node);
        let (expected, actual) = host::canons(&intent, &node);
        let files = r.summary.compared_with.join("`, `");
        for d in canon::compare(Form::Host, &expected, &actual, &|_| false) {
            r.pending
                .push(drift(&h.host, target, Form::Host, &files, index, d));
        }
        r
    }
}

/// What a finding about fabricc's own output says (a bug: report it).
fn internal(span: Span, device: &str, message: &str) -> Pending {
    Pending {
        place: Place::Fabric(span),
        diag: Diagnostic::new(
            Code::StateUnreadable,
            span,
            format!("cannot verify `{device}`: {message}"),
        )
        .label("this device")
        .help("this is a fabricc bug: please report it with the fabric")
        .observed(file_observed(device, "")),
    }
}

/// A finding about a whole state file of a device.
fn file_observed(device: &str, file: &str) -> Observed {
    Observed::Drift {
        device: device.to_string(),
        key: file.to_string(),
        expected: None,
        actual: None,
    }
}

/// The display form of a target's paths.
fn form(os: SwitchOs) -> Form {
    match os {
        SwitchOs::Sonic => Form::Table,
        SwitchOs::Eos | SwitchOs::Nxos | SwitchOs::Vrp | SwitchOs::Comware => Form::Lines,
        SwitchOs::Junos | SwitchOs::Cumulus => Form::Words,
    }
}

fn what(os: SwitchOs) -> &'static str {
    match os {
        SwitchOs::Sonic => "a CONFIG_DB JSON document",
        SwitchOs::Cumulus => "an NVUE YAML document",
        SwitchOs::Eos => "an EOS running-config",
        SwitchOs::Nxos => "an NX-OS running-config",
        SwitchOs::Junos => "a Junos configuration",
        SwitchOs::Vrp => "a VRP current-configuration",
        SwitchOs::Comware => "a Comware current-configuration",
    }
}

fn collect_command(os: SwitchOs) -> &'static str {
    match os {
        SwitchOs::Sonic => "`sonic-cfggen -d --print-data`",
        SwitchOs::Cumulus => "`nv config show -o yaml`",
        SwitchOs::Eos | SwitchOs::Nxos => "`show running-config`",
        SwitchOs::Junos => "`show configuration` (or `| display set`)",
        SwitchOs::Vrp => "`display current-configuration`",
        SwitchOs::Comware => "`display current-configuration`",
    }
}

/// A target's configuration text as paths; `Err` is the offset and what is wrong.
pub fn parse(os: SwitchOs, text: &str) -> Result<(Canon, Form), (usize, String)> {
    let canon = match os {
        SwitchOs::Sonic => {
            let node = json::parse(text).map_err(|e| (e.offset, e.message))?;
            if !matches!(node.value, json::Value::Object(_)) {
                return Err((
                    node.start,
                    "expected a JSON object of CONFIG_DB tables".into(),
                ));
            }
            sonic::canon(&node)
        }
        SwitchOs::Eos => cli::canon(text, cli::Dialect::Eos),
        SwitchOs::Nxos => cli::canon(text, cli::Dialect::Nxos),
        SwitchOs::Comware => cli::canon(text, cli::Dialect::Comware),
        SwitchOs::Junos => junos::canon(text).map_err(|e| (e.offset, e.message))?,
        SwitchOs::Cumulus => nvue::canon(text).map_err(|e| (e.offset, e.message))?,
        SwitchOs::Vrp => vrp::canon(text),
    };
    if let Some(at) = canon.exceeded() {
        return Err((
            at.start as usize,
            format!(
                "from here it expands to more than {} bytes of settings (8 times its size and 16 MiB), which no device configuration does",
                canon::budget(text.len())
            ),
        ));
    }
    Ok((canon, form(os)))
}

/// The configuration among a switch's generated files, as paths, and those files' paths.
/// Every file that parses as the target's configuration counts; scripts (`#!`) only when the
/// target generates nothing else.
pub fn generated(os: SwitchOs, artifacts: &[Artifact]) -> (Canon, Vec<String>) {
    // SONiC's `fabricc-device.json` is what the apply program reads, not configuration: its
    // `cage_ports` would parse as a table.
    let configs: Vec<&Artifact> = artifacts
        .iter()
        .filter(|a| a.kind == ArtifactKind::Switch)
        .filter(|a| !(os == SwitchOs::Sonic && a.path.ends_with("/fabricc-device.json")))
        .collect();
    let plain: Vec<&Artifact> = configs
        .iter()
        .copied()
        .filter(|a| !a.contents.starts_with("#!"))
        .collect();
    let chosen = if plain.is_empty() { configs } else { plain };
    let mut parts = Vec::new();
    let mut used = Vec::new();
    for a in chosen {
        // EOS and NX-OS fragments remove before they write: their removals are no settings.
        let parsed = match os {
            SwitchOs::Eos => Ok(cli::fragment(&a.contents, cli::Dialect::Eos)),
            SwitchOs::Nxos => Ok(cli::fragment(&a.contents, cli::Dialect::Nxos)),
            SwitchOs::Vrp => Ok(vrp::fragment(&a.contents)),
            SwitchOs::Comware => Ok(cli::fragment(&a.contents, cli::Dialect::Comware)),
            _ => parse(os, &a.contents).map(|(c, _)| c),
        };
        if let Ok(c) = parsed
            && !c.is_empty()
        {
            parts.push(c);
            used.push(a.path.clone());
        }
    }
    (Canon::merge(parts), used)
}

/// A fabricc binding on a port outside the fabric as a finding (FAB976).
fn leftover_port(device: &str, file: usize, l: cli::Leftover) -> Pending {
    let key = format!("interface {}", l.port);
    Pending {
        place: Place::State(file, Loc::new(l.start, l.end)),
        diag: Diagnostic::new(
            Code::StateLeftoverPort,
            Span::default(),
            format!(
                "`{device}`: `{}` is not a fabric port but has `{}`",
                l.port, l.line
            ),
        )
        .label("left by an earlier build")
        .help(format!(
            "a port that left the fabric keeps what an earlier build gave it (a fragment cannot name it): remove it with `{} {}` under `{key}`, and its MTU and description if they were fabricc's",
            // Comware removes with `undo` (its binding is `qos wred apply`).
            if l.line.starts_with("qos wred apply") { "undo" } else { "no" },
            l.line
        ))
        .observed(Observed::Drift {
            device: device.to_string(),
            key,
            expected: None,
            actual: Some(l.line),
        }),
    }
}

/// A difference as a finding.
fn drift(device: &str, target: Target, form: Form, files: &str, file: usize, d: Diff) -> Pending {
    let at = d.at();
    // SONiC's fragment only takes effect through the output's apply program.
    let reapply = if target == Target::Switch(SwitchOs::Sonic) {
        let folder = files.rsplit_once('/').map_or(".", |(dir, _)| dir);
        format!(
            "run `programs/sonic/apply.sh --yes {folder}` again, which applies `{files}` (docs/verify.md)"
        )
    } else if target == Target::Host {
        // The host's settings, run by its driver's program (issue 36 item 2).
        format!("install `{files}` and run `fabricc-roce` again on the host (docs/verify.md)")
    } else {
        format!("apply `{files}` again (docs/verify.md)")
    };
    let diag = match d {
        Diff::Differs {
            key,
            expected,
            actual,
            ..
        } => {
            let shown = |v: &str| {
                if v.is_empty() {
                    "(nothing)".to_string()
                } else {
                    format!("`{v}`")
                }
            };
            Diagnostic::new(
                Code::StateDiffers,
                Span::default(),
                format!(
                    "`{device}`: `{key}` is {} on the device; fabricc generates {}",
                    shown(&actual),
                    shown(&expected)
                ),
            )
            .label("the device's value")
            .help(format!(
                "{reapply}, or change the fabric if the device's value is the one wanted"
            ))
            .observed(Observed::Drift {
                device: device.to_string(),
                key,
                expected: Some(expected),
                actual: Some(actual),
            })
        }
        Diff::Missing {
            key,
            expected,
            count,
            ..
        } => {
            let what = match &expected {
                Some(v) => format!("`{}` is", form.setting(&key, v)),
                None => format!("`{key}` ({count} settings) is"),
            };
            Diagnostic::new(
                Code::StateMissing,
                Span::default(),
                format!("`{device}`: {what} not on the device"),
            )
            .label(match form {
                Form::Host => "in this NIC's state",
                Form::Table => "expected in this table",
                Form::Lines | Form::Words => "expected near here",
            })
            .help(if target == Target::Host {
                format!("run `fabricc-roce` (its settings: `{files}`) again on the host; its `--check` lists the same settings")
            } else {
                format!("{reapply}; it adds what is missing")
            })
            .observed(Observed::Drift {
                device: device.to_string(),
                key,
                expected,
                actual: None,
            })
        }
        Diff::Extra {
            key, actual, count, ..
        } => {
            let what = match &actual {
                Some(v) => format!("`{}` is", form.setting(&key, v)),
                None => format!("`{key}` ({count} settings) is"),
            };
            Diagnostic::new(
                Code::StateExtra,
                Span::default(),
                format!("`{device}`: {what} on the device, but fabricc does not generate it"),
            )
            .label("not generated by fabricc")
            .help(format!(
                "remove it: {} (a merge of fabricc's files never deletes)",
                removal(target, form, &key, actual.as_deref())
            ))
            .observed(Observed::Drift {
                device: device.to_string(),
                key,
                expected: None,
                actual,
            })
        }
    };
    Pending {
        place: Place::State(file, at),
        diag,
    }
}

/// The command that removes an extra setting, per target.
fn removal(target: Target, form: Form, key: &str, value: Option<&str>) -> String {
    let whole = value.map_or(key.to_string(), |v| form.setting(key, v));
    match target {
        Target::Switch(SwitchOs::Sonic) => {
            // key is TABLE|key|field (a setting) or TABLE|key (a record).
            let pointer = |s: &str| s.replace('~', "~0").replace('/', "~1");
            let parts: Vec<&str> = key.splitn(2, '|').collect();
            let path = match (parts.as_slice(), value) {
                ([table, rest], Some(v)) if !v.starts_with('{') => match rest.rsplit_once('|') {
                    Some((k, field)) => {
                        format!("/{}/{}/{}", pointer(table), pointer(k), pointer(field))
                    }
                    None => format!("/{}/{}", pointer(table), pointer(rest)),
                },
                ([table, rest], _) => format!("/{}/{}", pointer(table), pointer(rest)),
                _ => format!("/{}", pointer(key)),
            };
            format!(
                "`config apply-patch remove.json` with `[{{\"op\": \"remove\", \"path\": \"{path}\"}}]` in `remove.json`, then `config save -y`"
            )
        }
        Target::Switch(SwitchOs::Eos | SwitchOs::Nxos) => {
            let lines: Vec<&str> = whole.split(" / ").collect();
            match lines.split_last() {
                Some((last, parents)) if !parents.is_empty() => {
                    format!("`no {last}` under `{}`", parents.join(" / "))
                }
                Some((last, _)) => format!("`no {last}`"),
                None => String::new(),
            }
        }
        Target::Switch(SwitchOs::Comware) => {
            let lines: Vec<&str> = whole.split(" / ").collect();
            match lines.split_last() {
                Some((last, parents)) if !parents.is_empty() => {
                    format!("`undo {last}` in `{}`", parents.join(" / "))
                }
                Some((last, _)) => format!("`undo {last}` in system view"),
                None => String::new(),
            }
        }
        Target::Switch(SwitchOs::Junos) => format!("`delete {whole}` and commit"),
        Target::Switch(SwitchOs::Vrp) => {
            let lines: Vec<&str> = whole.split(" / ").collect();
            match lines.split_last() {
                Some((last, parents)) if !parents.is_empty() => {
                    format!("`undo {last}` in `{}`, then `commit`", parents.join(" / "))
                }
                Some((last, _)) => format!("`undo {last}`, then `commit`"),
                None => String::new(),
            }
        }
        Target::Switch(SwitchOs::Cumulus) => format!("`nv unset {whole}`, then `nv config apply`"),
        Target::Host => "run the host script again".to_string(),
    }
}
