//! `osolve nboard`: the engine over NBoard's protocol (version 2) on standard input and
//! output (`osolve::protocol::nboard`), for the NBoard GUI.

use std::io::{self, BufReader};

use clap::Args;

use super::gtp::{ended, EngineArgs};

/// Arguments of `osolve nboard`.
#[derive(Args, Debug)]
pub struct NboardArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the subcommand.
pub fn run(args: NboardArgs) -> anyhow::Result<i32> {
    // Ctrl-C and SIGTERM end the server at once with exit code 130, as every command.
    super::interrupt::interrupt().exit_at_once();
    let mut engine = args.engine.engine()?;
    let input = BufReader::new(io::stdin());
    ended(osolve::protocol::nboard::serve(
        &mut engine,
        input,
        &mut io::stdout(),
    ))
}
