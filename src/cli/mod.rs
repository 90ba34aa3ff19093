//! The command line: clap definitions (raw flags only, `args`) and one module per subcommand,
//! each returning an exit status (`exit`). Only this module prints.

mod args;
mod build;
mod check;
mod diff;
mod exit;
mod explain;
mod export;
mod fmt;
mod import;
mod plan;
mod platforms;
mod progress;
mod shell;
mod verify;

use clap::Parser;

pub(crate) use args::Stream;
pub use args::{
    BuildArgs, CheckArgs, CheckFormat, Cli, ColorChoice, Command, DiffArgs, DiffFormat,
    ExplainArgs, ExplainFormat, ExportArgs, ExportFormat, FmtArgs, ImportArgs, PlanArgs,
    PlanFormat, PlanOrder, PlatformsArgs, VerifyArgs,
};
pub use exit::ExitStatus;
pub(crate) use exit::{allow_all, allowed_codes, chosen_targets, chosen_templates, err, out};
pub(crate) use progress::Progress;

/// Parses the command line and runs the command.
pub fn run() -> ExitStatus {
    let cli = Cli::parse();
    progress::enable(progress::wanted(
        cli.quiet,
        std::io::IsTerminal::is_terminal(&std::io::stderr()),
    ));
    match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Build(args) => build::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Platforms(args) => platforms::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Completions { shell } => shell::completions(shell),
        Command::Man => shell::man(),
    }
}
