//! Command-line front end: clap definitions and dispatch, at the top of cli/. Each subcommand
//! has its own file with its argument struct and a `run` that builds options, calls a library
//! driver and prints through `osolve::report`; what several of them share lies below them
//! (`args`, `variant`, `estimate`, `inputs`, `interrupt`, `exit`, `paths`, `spinner`, and
//! `batch` for `analyze` and `games`), and none of them imports this module. No search or
//! parsing logic lives here.

mod analyze;
mod args;
mod batch;
mod bench;
mod estimate;
mod exit;
mod games;
mod gen;
mod gtp;
mod inputs;
mod interrupt;
mod meta;
mod nboard;
mod paths;
mod perft;
mod show;
mod solve;
mod spinner;
mod train;
mod variant;

use clap::{CommandFactory, Parser, Subcommand};
use exit::{error_line, usage_error, EXIT_BAD_INPUT};

#[derive(Parser)]
#[command(
    name = "osolve",
    version = meta::VERSION,
    about = "Exact Othello endgame solver and analysis tool"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Every subcommand lets a value start with `-` followed by a digit (`--time-limit -1`), so
// that its parser says what was expected instead of clap taking it for an unknown option.
#[derive(Subcommand)]
enum Command {
    /// Solve positions exactly: score, best move, principal variation.
    #[command(allow_negative_numbers = true)]
    Solve(solve::SolveArgs),
    /// Score every move of every position in files.
    #[command(allow_negative_numbers = true)]
    Analyze(analyze::AnalyzeArgs),
    /// Solve real games (WThor, GGF, transcripts) from N empties; check recorded scores.
    #[command(allow_negative_numbers = true)]
    Games(games::GamesArgs),
    /// Measure solving speed on a standard suite.
    #[command(allow_negative_numbers = true)]
    Bench(bench::BenchArgs),
    /// Count move-generation leaves from a position.
    #[command(allow_negative_numbers = true)]
    Perft(perft::PerftArgs),
    /// Make labelled training positions (exact solves of generated games).
    #[command(allow_negative_numbers = true)]
    Gen(gen::GenArgs),
    /// Fit the evaluation weights to labelled positions.
    #[command(allow_negative_numbers = true)]
    Train(train::TrainArgs),
    /// Draw positions (terminal, SVG), with every move's score or the principal variation.
    #[command(allow_negative_numbers = true)]
    Show(show::ShowArgs),
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(meta::CompletionsArgs),
    /// Print the manual page (roff; `osolve man | man -l -`).
    Man(meta::ManArgs),
    /// Play and analyse over the Go Text Protocol (Othello GUIs, match referees).
    #[command(allow_negative_numbers = true)]
    Gtp(gtp::GtpArgs),
    /// Play and analyse over NBoard's protocol (the NBoard GUI).
    #[command(allow_negative_numbers = true)]
    Nboard(nboard::NboardArgs),
}

/// Parses the command line, runs the subcommand and returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(error),
    };
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Games(args) => games::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Train(args) => train::run(args),
        Command::Show(args) => show::run(args),
        Command::Completions(args) => meta::completions(args, Cli::command()),
        Command::Man(args) => meta::man(args, Cli::command()),
        Command::Gtp(args) => gtp::run(args),
        Command::Nboard(args) => nboard::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            stderr_line!("osolve: {}", error_line(&e));
            EXIT_BAD_INPUT
        }
    }
}
