//! Command-line front end: clap definitions and dispatch. Each subcommand has its own file
//! with its argument struct and a `run` that builds options, calls a library driver and prints
//! through `osolve::report`. No search or parsing logic lives here.

mod analyze;
mod bench;
mod gen;
mod perft;
mod show;
mod solve;
mod train;
mod variant;

use clap::{Args, Parser, Subcommand};
use osolve::search::{SolveOptions, StopHandle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Exit code: everything done and correct.
pub const EXIT_OK: i32 = 0;
/// Exit code: a check found a wrong score.
pub const EXIT_WRONG: i32 = 1;
/// Exit code: bad input (arguments, files, positions).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code: interrupted by Ctrl-C or SIGTERM, after printing what was finished.
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(Parser)]
#[command(
    name = "osolve",
    version,
    about = "Exact Othello endgame solver and analysis tool"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve positions exactly: score, best move, principal variation.
    Solve(solve::SolveArgs),
    /// Score every move of every position in files.
    Analyze(analyze::AnalyzeArgs),
    /// Measure solving speed on a standard suite.
    Bench(bench::BenchArgs),
    /// Count move-generation leaves from a position.
    Perft(perft::PerftArgs),
    /// Make labelled training positions (exact solves of generated games).
    Gen(gen::GenArgs),
    /// Fit the evaluation weights to labelled positions.
    Train(train::TrainArgs),
    /// Draw positions (terminal, SVG), with every move's score or the principal variation.
    Show(show::ShowArgs),
}

/// Search options shared by the solving subcommands.
#[derive(Args, Clone, Debug)]
pub struct SearchArgs {
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Transposition table size in MiB.
    #[arg(long = "hash-mb", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash_mb: u32,
}

impl SearchArgs {
    /// Solver options from these arguments.
    pub fn options(&self, wld: bool) -> SolveOptions {
        SolveOptions {
            threads: self.threads.map_or(0, usize::from),
            hash_mb: self.hash_mb as usize,
            wld,
        }
    }
}

/// Ctrl-C / SIGTERM: the first one stops every registered search; the drivers then print what
/// was finished and exit with `EXIT_INTERRUPTED`. A second one exits at once.
pub struct Interrupt {
    flag: AtomicBool,
    handles: Mutex<Vec<StopHandle>>,
    /// Stop flags of the variant solvers.
    flags: Mutex<Vec<Arc<AtomicBool>>>,
}

impl Interrupt {
    /// True once a signal arrived.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
    /// Stops `handle`'s searches when a signal arrives (at once if one already did).
    pub fn register(&self, handle: StopHandle) {
        if self.is_set() {
            handle.stop();
        }
        self.handles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(handle);
    }
    /// Sets `flag` when a signal arrives (at once if one already did).
    pub fn register_flag(&self, flag: Arc<AtomicBool>) {
        if self.is_set() {
            flag.store(true, Ordering::SeqCst);
        }
        self.flags
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(flag);
    }
    fn trigger(&self) {
        // A second signal means "now": the first one is still waiting for a search or for
        // input (a terminal on standard input) to finish.
        if self.flag.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED);
        }
        for h in self
            .handles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            h.stop();
        }
        for flag in self.flags.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

/// The process-wide interrupt state; installs the signal handler on first use.
pub fn interrupt() -> &'static Interrupt {
    static INTERRUPT: OnceLock<Interrupt> = OnceLock::new();
    INTERRUPT.get_or_init(|| {
        let _ = ctrlc::set_handler(|| interrupt().trigger());
        Interrupt {
            flag: AtomicBool::new(false),
            handles: Mutex::new(Vec::new()),
            flags: Mutex::new(Vec::new()),
        }
    })
}

/// Parses the command line, runs the subcommand and returns the exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Train(args) => train::run(args),
        Command::Show(args) => show::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("osolve: {e:#}");
            EXIT_BAD_INPUT
        }
    }
}
