//! `osolve perft`: counts the leaf positions 1 to DEPTH plies below the start (or `--position`)
//! with the library's parallel perft (`osolve::drivers::perft::perft_depths`), printing each
//! depth as soon as it is counted, with its time and rate (rows formatted by `osolve::report`). Ctrl-C or SIGTERM ends it at once with
//! exit code 130: the depths printed are kept, the one being counted has nothing to save. Under
//! `--rules reversi` it counts from the empty board with the Reversi move rules (the same perft
//! over the Reversi play step).

use std::io::{self, Write};

use clap::Args;
use osolve::board::rules::{Rules, Variant};
use osolve::board::Position;
use osolve::drivers::perft::perft_depths;
use osolve::notation::{parse_text_with, Source};
use osolve::report::{perft_header, perft_row};

use super::exit::{write_failed, EXIT_OK, STDOUT_FAILED};
use super::variant::RulesArg;

/// Arguments of `osolve perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count, 0 to 20 (a pass is a ply; a finished game is one leaf).
    #[arg(value_name = "DEPTH", value_parser = parse_depth)]
    depth: u32,
    /// Count from this position (any notation) instead of the standard start.
    #[arg(
        short = 'p',
        long = "position",
        value_name = "TEXT",
        allow_hyphen_values = true
    )]
    position: Option<String>,
    /// Move rules: othello, or reversi (from the empty board; the first four moves fill the
    /// centre, 32 discs each).
    #[arg(long, value_enum, default_value = "othello")]
    rules: RulesArg,
}

fn parse_depth(text: &str) -> Result<u32, String> {
    super::args::whole_number(text, 0..=20, "a depth in plies").map(|n| n as u32)
}

/// Runs the subcommand.
pub fn run(args: PerftArgs) -> anyhow::Result<i32> {
    // The depths printed are kept; the one being counted has nothing to keep.
    super::interrupt::interrupt().exit_at_once();
    let rules = Rules::from(args.rules);
    let position = match &args.position {
        Some(text) => {
            let variant = Variant {
                rules,
                ..Variant::default()
            };
            parse_text_with(text, Source::inline(), variant)?.position
        }
        None => Position::start_of(rules),
    };
    let mut out = io::stdout().lock();
    let written = (|| -> io::Result<()> {
        out.write_all(perft_header(&position).as_bytes())?;
        perft_depths(&position, args.depth, |depth, leaves, time| {
            let row = perft_row(depth, leaves, time.as_secs_f64());
            out.write_all(row.as_bytes())?;
            out.flush()
        })
    })();
    match written {
        Err(e) => write_failed(e, STDOUT_FAILED, EXIT_OK),
        Ok(()) => Ok(EXIT_OK),
    }
}
