//! `osolve gtp`: the engine over the Go Text Protocol on standard input and output
//! (`osolve::protocol::gtp`), for Othello GUIs and match referees. Also holds the engine
//! arguments that `osolve nboard` shares.

use std::io::{self, BufReader};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use osolve::engine::{Engine, EngineOptions};
use osolve::eval::Weights;

use super::args::{parse_seconds, SearchArgs};
use super::exit::EXIT_OK;

/// Options of the playing engine, shared by `osolve gtp` and `osolve nboard`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// Seconds per move when the controller gives no clock (decimals allowed).
    #[arg(long = "move-time", value_name = "SECONDS", default_value = "5", value_parser = parse_seconds)]
    move_time: Duration,
    /// Evaluation weights of the middle-game search, a file of `osolve train` (default: the
    /// built-in ones; the exact solver keeps the built-in ones for its move ordering).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
}

impl EngineArgs {
    /// The engine these options describe.
    pub fn engine(&self) -> anyhow::Result<Engine> {
        let solve = self.search.options(false);
        let weights = match &self.weights {
            Some(path) => Some(Weights::load(path, "--weights")?),
            None => None,
        };
        let mut engine = Engine::new(EngineOptions {
            threads: solve.threads,
            hash_mb: solve.hash_mb,
            move_time: self.move_time,
        })?;
        if let Some(weights) = weights {
            engine.set_weights(weights);
        }
        Ok(engine)
    }
}

/// Arguments of `osolve gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// The exit code of a server that ended: a closed output is the controller going away, not an
/// error.
pub fn ended(result: io::Result<()>) -> anyhow::Result<i32> {
    match result {
        Ok(()) => Ok(EXIT_OK),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(EXIT_OK),
        Err(e) => Err(anyhow::anyhow!("cannot write the responses: {e}")),
    }
}

/// Runs the subcommand.
pub fn run(args: GtpArgs) -> anyhow::Result<i32> {
    // Ctrl-C and SIGTERM end the server at once with exit code 130, as every command.
    super::interrupt::interrupt().exit_at_once();
    let mut engine = args.engine.engine()?;
    let input = BufReader::new(io::stdin());
    ended(osolve::protocol::gtp::serve(
        &mut engine,
        input,
        &mut io::stdout(),
    ))
}
