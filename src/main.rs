//! The `chariot` binary: with no subcommand, the engine's protocol loop; otherwise a tool
//! (`cli` parses the command line and runs it).

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::init();
    match cli::run(cli::Cli::parse()) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("error: {}", failure.error);
            ExitCode::from(failure.exit.code())
        }
    }
}
