//! The clap definitions: the raw flags of every subcommand, nothing decided here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::model::Limits;

/// fabricc — compile a lossless RoCEv2 fabric description into proven-safe switch and NIC configs.
///
/// A `.fab` file describes the fabric once: classes (DSCP, priority, lossless, ECN), switch and
/// NIC models, hosts, switches, links or generated tiers, and routing. `fabricc check` proves
/// it safe and reports findings with stable codes (`fabricc explain CODE`).
#[derive(Debug, Parser)]
#[command(
    name = "fabricc",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_help = "Examples:\n  fabricc check pod.fab                                 findings for people\n  fabricc check --format sarif pod.fab > fabricc.sarif  for code scanning\n  fabricc check --format json --facts pod.fab           counts, oversubscription, headroom\n  fabricc export pod.fab > pod.yaml                     the resolved model, readable back\n  fabricc verify pod.fab --state state/                 the devices against the build\n  fabricc explain FAB501                                what a finding means, how to fix it"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Show no progress indicator (shown only on a terminal, for work longer than a second).
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check fabrics: parse, resolve and analyse; print findings; exit 1 on errors.
    ///
    /// Exit status: 0 no errors (warnings allowed unless --deny-warnings), 1 errors found,
    /// 2 the tool could not run (bad flags, unreadable file).
    Check(CheckArgs),
    /// Print the resolved model (every device, every link on its ports) as YAML or JSON.
    ///
    /// The YAML output is also an input format: `fabricc check fabric.yaml` reads it back.
    Export(ExportArgs),
    /// Build switch configs, host NIC scripts, report.md, topology.dot and manifest.json.
    ///
    /// Runs the check first and writes nothing when it finds errors (or warnings, unless
    /// --allow-warnings). Exit status: 0 built (or fresh with --check), 1 findings (or stale
    /// with --check), 2 the tool could not run (bad flags, unreadable file, refused output folder).
    Build(BuildArgs),
    /// Show what a change to a fabric does to the generated files and the findings.
    ///
    /// Builds OLD and NEW in memory and prints, file by file, a unified diff of every config,
    /// script and report that changes, then the findings that are new or fixed. Writes nothing.
    /// `--git REV FILE` compares the working tree's FILE with FILE at revision REV, every
    /// import read from that revision too. Exit status: 0 compared (whatever changed), 2 the
    /// tool could not run (unreadable file, not a git repository, unknown revision, FILE not
    /// at REV).
    #[command(
        override_usage = "fabricc diff [OPTIONS] OLD NEW\n       fabricc diff [OPTIONS] --git REV FILE",
        after_help = "Examples:\n  fabricc diff before.fab after.fab                      two files\n  fabricc diff --git main pod.fab --stat                 the working tree against branch main\n  fabricc diff --git origin/main pod.fab --format json   for a review bot in CI"
    )]
    Diff(DiffArgs),
    /// Plan the rollout of a change, and prove every step of it lossless and deadlock-free.
    ///
    /// Builds OLD and NEW in memory (or FILE and FILE at git revision REV, as `diff` does)
    /// and writes, per device, every setting that changes with what that change disrupts on
    /// the device's target (hitless, queue-reprogram, port-flap, service-restart, reboot) and
    /// the source that says so; then ordered waves, each drain → apply → gate → undrain with
    /// its rollback; then the proof: every state the fabric passes through — some devices at
    /// OLD, some at NEW — is checked on every link (both ends agree on what is lossless, frames
    /// fit) and for deadlock freedom under the routing.
    ///
    /// A change that moves a DSCP between lossy and lossless, or changes an MTU, goes
    /// make-before-break: switches first accept both plans, hosts accept both, hosts mark
    /// traffic the new way, then the old mapping is removed. A DSCP that moves between two
    /// lossless priorities cannot: that plan drains the lossless traffic for one wave (FAB813).
    ///
    /// Exit status: 0 a plan whose every step is proven (warnings allowed), 1 a step is
    /// unsafe (FAB810–FAB812) or a fabric has errors, 2 the tool could not run.
    #[command(
        override_usage = "fabricc plan [OPTIONS] OLD NEW\n       fabricc plan [OPTIONS] --git REV FILE",
        after_help = "Examples:
  fabricc plan before.fab after.fab                        waves and proof on the terminal
  fabricc plan --git main pod.fab -o rollout/              plan.md, plan.json and each phase's files
  fabricc plan before.fab after.fab --format json          for a change-management bot
  fabricc plan pod.fab pod.fab --replace leaf7 -o rma/     an RMA: drain, swap, full config
  fabricc plan old.fab new.fab --order hosts-first         check an order of your own (exit 1 if unsafe)"
    )]
    Plan(PlanArgs),
    /// Compare what the devices run with what fabricc generates for them (drift, wiring).
    ///
    /// Builds FILE in memory as `build` does and compares every setting fabricc generates
    /// with the state collected from the devices in DIR: one folder DIR/<device>/ per device
    /// (the device's name, as its folder under switches/ or hosts/ in the build output),
    /// holding the device's whole configuration as the device prints it:
    ///
    ///   sonic    config_db.json   `sonic-cfggen -d --print-data` (or /etc/sonic/config_db.json)
    ///   cumulus  startup.yaml     `nv config show -o yaml` (the applied revision)
    ///   eos      running-config   `show running-config`
    ///   nxos     running-config   `show running-config`
    ///   junos    config           `show configuration` (curly; `| display set` also read)
    ///   vrp      current-configuration  `display current-configuration`
    ///   host     state.json       `mlnx_qos.sh --collect` (the generated host script)
    ///   any      lldp.json        optional: `lldpctl -f json`, or `show lldp neighbors | json`
    ///
    /// What fabricc does not generate (BGP, addresses, management, other tables) is ignored;
    /// inside fabricc's tables and sections, a setting it did not generate (a leftover
    /// `BUFFER_PG|Ethernet0|3-4`, a second `no-drop` priority) is drift too. LLDP neighbours
    /// are checked against the cabling plan (`cabling.csv` of the build). docs/verify.md has
    /// the collection commands and a fleet script.
    ///
    /// Exit status: 0 every device in sync, 1 drift or wiring findings (or the fabric has
    /// errors `check` reports), 2 the tool could not run (bad flags, unreadable FILE, DIR not
    /// a folder).
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:
  fabricc verify pod.fab --state state/                       every device, findings for people
  fabricc verify pod.fab --state state/ --report drift.md     and a summary for the change ticket
  fabricc verify pod.fab --state state/ --target sonic,host   only these targets
  fabricc verify pod.fab --state state/ --format github       annotations in CI"
    )]
    Verify(VerifyArgs),
    /// Write a `.fab` from the state of a deployed fabric, so that `check` can prove it.
    ///
    /// Reads the state directory of `fabricc verify` (one folder per device): SONiC switches
    /// (`config_db.json`), hosts (`state.json` from the host script's `--collect`), and the
    /// links from SONiC's DEVICE_NEIGHBOR table and each device's `lldp.json`. Fabric-wide
    /// values are what most switches run; a switch that differs gets an override, so that
    /// `fabricc check` judges the fabric as deployed, wrong values included. What cannot be
    /// inferred is a finding (FAB960–FAB968 and FAB990, category `import`) and a comment in the `.fab`.
    /// A port that differs from its switch in PFC is a finding at its line (FAB505, FAB814,
    /// FAB507); docs/import.md lists what each source provides.
    ///
    /// Exit status: 0 written (warnings allowed), 1 a state file could not be read (the `.fab`
    /// is still written, without that device) or a port drops a lossless class (FAB505), 2 the
    /// tool could not run.
    #[command(after_help = "Examples:
  fabricc import --state state/ -o pod.fab          the deployed fabric as a .fab
  fabricc check pod.fab                             then prove it
  fabricc check --state state/                      both in one step, findings in the state files")]
    Import(ImportArgs),
    /// Explain a diagnostic code (`fabricc explain FAB201`), or list every code with --all.
    Explain(ExplainArgs),
    /// List the platform catalogue, or print one platform with every number and its source.
    ///
    /// `platform NAME` in a `switch-model` or `nic-model` takes what the platform fixes from
    /// this catalogue (ports, buffer, cell, OS, SONiC tables). Exit status: 0 printed, 2 no
    /// platform by that name.
    Platforms(PlatformsArgs),
    /// Format `.fab` files canonically, keeping every comment (idempotent; meaning unchanged).
    ///
    /// Files are rewritten in place, atomically; a file with a syntax error is left alone.
    /// `-` reads standard input and writes standard output.
    Fmt(FmtArgs),
    /// Print a shell completion script: `fabricc completions bash > /etc/bash_completion.d/fabricc`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `fabricc man | man -l -`.
    Man,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Annotated source excerpts, for people.
    Human,
    /// One line per finding: `file:line:col: CODE severity: message`.
    Short,
    /// The JSON object of the language contract (one per fabric; an array for several).
    Json,
    /// SARIF 2.1.0, for code-scanning upload.
    Sarif,
    /// GitHub Actions workflow commands (annotations on the pull request).
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Where a command writes its human-readable findings; `auto` colours only a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

impl ColorChoice {
    /// Whether to colour text written to `stream` (`NO_COLOR` turns `auto` off).
    pub(crate) fn enabled(self, stream: Stream) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let tty = match stream {
                    Stream::Stdout => std::io::stdout().is_terminal(),
                    Stream::Stderr => std::io::stderr().is_terminal(),
                };
                tty && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Fabric files (`.fab`, or the `.yaml` form of `fabricc export`).
    #[arg(
        required_unless_present = "state",
        conflicts_with = "state",
        value_name = "FILE"
    )]
    pub files: Vec<PathBuf>,
    /// Check a deployed fabric: import the state directory DIR (as `fabricc import` does) and
    /// check the result; findings point into the state files.
    #[arg(long, value_name = "DIR")]
    pub state: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human", env = "FABRICC_FORMAT")]
    pub format: CheckFormat,
    /// Include the computed facts (counts, oversubscription, headroom, deadlock) in JSON output.
    #[arg(long)]
    pub facts: bool,
    /// Exit 1 when there are warnings, not only errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Accept the warnings of these codes (comma-separated or repeated, e.g. `--allow
    /// FAB954,FAB905`): they are reported as advice and no longer fail the command; the
    /// fabric's own `allow FAB954` does the same for every run. Errors cannot be allowed.
    #[arg(long = "allow", value_name = "CODES", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Print the advice in full on a terminal (human format). By default a human report draws
    /// only errors and warnings and names the advice codes in its last line; the machine
    /// formats always carry every finding.
    #[arg(long)]
    pub advice: bool,
    /// Colour in human output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    /// Print the wall time of every stage on stderr (load + parse, resolve, analyse with the
    /// deadlock proof inside it, lower, target views, findings).
    #[arg(long)]
    pub timings: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Yaml,
    Json,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The fabric file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "yaml")]
    pub format: ExportFormat,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The fabric file (`.fab`, or the `.yaml` form of `fabricc export`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The output folder (created; a previous fabricc output is updated in place, atomically).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: PathBuf,
    /// Build only these targets (comma-separated): sonic, cumulus, eos, nxos, junos, vrp, host.
    #[arg(long = "target", value_name = "LIST", value_delimiter = ',')]
    pub targets: Vec<String>,
    /// Replace embedded templates file by file with DIR/<target>/<file>.
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Build even when the check or the build reports warnings (all of them; `--allow CODES`
    /// accepts only the codes named).
    #[arg(long)]
    pub allow_warnings: bool,
    /// Accept the warnings of these codes (comma-separated or repeated, e.g. `--allow
    /// FAB954,FAB905`): they are reported as advice and no longer fail the command; the
    /// fabric's own `allow FAB954` does the same for every run. Errors cannot be allowed.
    #[arg(long = "allow", value_name = "CODES", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Print the advice in full on a terminal (human format). By default a human report draws
    /// only errors and warnings and names the advice codes in its last line; the machine
    /// formats always carry every finding.
    #[arg(long)]
    pub advice: bool,
    /// How findings are printed (check's and the build's own, FAB9xx): the formats of
    /// `fabricc check`. With a machine format, stdout holds only the findings document and
    /// the build summary goes to stderr.
    #[arg(long, value_enum, default_value = "human")]
    pub format: CheckFormat,
    /// Compare with the output folder instead of writing; exit 1 when it is stale.
    #[arg(long)]
    pub check: bool,
    /// Write into a folder that is not a fabricc output, or replace a file or symlink.
    ///
    /// Never allowed, forced or not: an output that is or holds an input (the fabric, its
    /// imports, --templates), the current folder or one above it, a read-only folder.
    #[arg(long)]
    pub force: bool,
    /// Print the wall time of every stage on stderr (check, lower, render + output: each file
    /// written, or compared with --check, as soon as it is rendered; reports; swap).
    #[arg(long)]
    pub timings: bool,
    /// Colour in human output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The collected state: DIR/<device>/<file>, one folder per device.
    #[arg(long, value_name = "DIR")]
    pub state: PathBuf,
    /// Where to write the `.fab` (`-` or none: standard output, findings then go to standard
    /// error).
    #[arg(short, long, value_name = "FILE.fab")]
    pub output: Option<PathBuf>,
    /// The fabric's name (default: the state directory's name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Output format of the findings.
    #[arg(long, value_enum, default_value = "human", env = "FABRICC_FORMAT")]
    pub format: CheckFormat,
    /// Colour in human output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The fabric file (`.fab`, or the `.yaml` form of `fabricc export`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The collected state: DIR/<device>/<file>, one folder per device (see above).
    #[arg(long, value_name = "DIR")]
    pub state: PathBuf,
    /// Verify only these targets (comma-separated): sonic, cumulus, eos, nxos, junos, vrp, host.
    #[arg(long = "target", value_name = "LIST", value_delimiter = ',')]
    pub targets: Vec<String>,
    /// Output format (the findings contract of `check`; drift findings carry `device`, `key`,
    /// `expected`, `actual`, wiring findings `device`, `port`, `expected_peer`, …).
    #[arg(long, value_enum, default_value = "human", env = "FABRICC_FORMAT")]
    pub format: CheckFormat,
    /// Also write a Markdown summary (per device: in sync, or the differences by kind).
    #[arg(long, value_name = "FILE.md")]
    pub report: Option<PathBuf>,
    /// Replace embedded templates file by file with DIR/<target>/<file> (as `build` does).
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Exit 1 when there are warnings (a port without an LLDP neighbour, a stray folder).
    #[arg(long)]
    pub deny_warnings: bool,
    /// Accept the warnings of these codes (comma-separated or repeated, e.g. `--allow
    /// FAB954,FAB905`): they are reported as advice and no longer fail the command; the
    /// fabric's own `allow FAB954` does the same for every run. Errors cannot be allowed.
    #[arg(long = "allow", value_name = "CODES", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Print the advice in full on a terminal (human format), as `check --advice` does. By
    /// default a human report draws only errors and warnings, per device, and names the advice
    /// codes in its last line; the machine formats and `--report` always carry every finding.
    #[arg(long)]
    pub advice: bool,
    /// Colour in human output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorChoice,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// Unified diffs and a summary, for people.
    Text,
    /// One JSON object with every changed file and finding, for review bots.
    Json,
}

/// The two fabrics `diff` and `plan` compare.
#[derive(Debug, Args)]
pub struct SidesArgs {
    /// The fabric before the change; with --git, FILE: the working tree's fabric (the new side).
    #[arg(value_name = "OLD|FILE")]
    pub old: PathBuf,
    /// The fabric after the change (not with --git).
    #[arg(
        value_name = "NEW",
        required_unless_present = "git",
        conflicts_with = "git"
    )]
    pub new: Option<PathBuf>,
    /// Compare FILE with the same file at git revision REV (branch, tag, commit); its imports
    /// are read from REV too.
    #[arg(long, value_name = "REV")]
    pub git: Option<String>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub sides: SidesArgs,
    /// Only the changed files with their added and removed line counts.
    #[arg(long)]
    pub stat: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DiffFormat,
    /// Compare only these targets (comma-separated): sonic, cumulus, eos, nxos, junos, vrp, host.
    #[arg(long = "target", value_name = "TARGETS", value_delimiter = ',')]
    pub targets: Vec<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanFormat {
    /// Waves and findings for people.
    Text,
    /// The whole plan as one JSON object (devices, waves, proof).
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanOrder {
    /// Make-before-break where a class or MTU changes; switches before hosts otherwise.
    Auto,
    /// Every switch, then every host, with no bridge state.
    SwitchesFirst,
    /// Every host, then every switch, with no bridge state.
    HostsFirst,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub sides: SidesArgs,
    /// Output format on standard output.
    #[arg(long, value_enum, default_value = "text")]
    pub format: PlanFormat,
    /// Write plan.md, plan.json and, per phase, the files its devices take, into DIR.
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// The order of switches and hosts.
    #[arg(long, value_enum, default_value = "auto")]
    pub order: PlanOrder,
    /// At most this percent of a tier's switches, or of the hosts, change in one wave.
    #[arg(long, value_name = "PERCENT", default_value_t = 25,
          value_parser = clap::value_parser!(u8).range(1..=100))]
    pub max_unavailable: u8,
    /// Devices replaced by new hardware (RMA), comma-separated: drained, swapped and given
    /// their whole configuration even where it does not change.
    #[arg(long, value_name = "DEVICES", value_delimiter = ',')]
    pub replace: Vec<String>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Files to format (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Change nothing; exit 1 and list the files that are not formatted.
    #[arg(long)]
    pub check: bool,
    /// With `--check`: print what formatting would change, as a unified diff (for CI logs and
    /// pre-commit hooks).
    #[arg(long, requires = "check")]
    pub diff: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The code, e.g. `FAB201` (also `fab201` or `201`).
    #[arg(value_name = "CODE", required_unless_present = "all")]
    pub code: Option<String>,
    /// List every code with its summary.
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExplainFormat,
}

#[derive(Debug, Args)]
pub struct PlatformsArgs {
    /// A platform name, e.g. `nvidia-sn5600` or `nvidia-cx7`; without it, list them all.
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExplainFormat,
}

/// Input limits; each guards memory and time against a runaway input.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Most names one pattern such as `gpu[1..N]` may expand to.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_range)]
    pub max_range: u64,
    /// Most devices (switches plus hosts) in one fabric.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_devices)]
    pub max_devices: u64,
    /// Most links in one fabric.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_links)]
    pub max_links: u64,
    /// Deepest chain of imports.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_import_depth)]
    pub max_import_depth: usize,
    /// Largest input file, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_input_bytes)]
    pub max_input_bytes: u64,
    /// Most failure scenarios `check failures N` proves; past it the proof stops with FAB204.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_scenarios)]
    pub max_scenarios: u64,
    /// Most unreachable NIC pairs listed in the JSON facts (all are counted).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_unreachable)]
    pub max_unreachable: u64,
}

impl LimitArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            max_range: self.max_range,
            max_devices: self.max_devices,
            max_links: self.max_links,
            max_import_depth: self.max_import_depth,
            max_input_bytes: self.max_input_bytes,
            max_scenarios: self.max_scenarios,
            max_unreachable: self.max_unreachable,
        }
    }
}
