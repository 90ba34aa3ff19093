use std::process::ExitCode;

fn main() -> ExitCode {
    fabricc::cli::run().into()
}
