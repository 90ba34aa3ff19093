//! `fabricc completions SHELL` and `fabricc man`: generated from the clap definitions, so they
//! never drift from the real flags.

use clap::CommandFactory;

use super::{Cli, ExitStatus, err, out};

pub fn completions(shell: clap_complete::Shell) -> ExitStatus {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "fabricc", &mut buf);
    out(&String::from_utf8_lossy(&buf));
    ExitStatus::Success
}

pub fn man() -> ExitStatus {
    let mut buf = Vec::new();
    match clap_mangen::Man::new(Cli::command()).render(&mut buf) {
        Ok(()) => {
            out(&String::from_utf8_lossy(&buf));
            ExitStatus::Success
        }
        Err(e) => {
            err(&format!("error: cannot render the manual page: {e}\n"));
            ExitStatus::Error
        }
    }
}
