use std::process::ExitCode;

fn main() -> ExitCode {
    fabricc::run().into()
}
