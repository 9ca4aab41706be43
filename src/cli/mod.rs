//! Command-line front end: clap definitions and dispatch. Each subcommand has its own file
//! with its argument struct and a `run` that builds options, calls a library driver and prints
//! through `osolve::report`. No search or parsing logic lives here.

mod analyze;
mod batch;
mod bench;
mod estimate;
mod games;
mod gen;
mod gtp;
mod meta;
mod nboard;
mod paths;
mod perft;
mod show;
mod solve;
mod spinner;
mod train;
mod variant;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand};
use osolve::notation::sniff::{sniff, FileKind, HEAD_LEN};
use osolve::notation::{open_path, DynRead, PositionReader};
use osolve::search::{Limits, SolveOptions, StopHandle};
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

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

/// Search options shared by the solving subcommands.
#[derive(Args, Clone, Debug)]
pub struct SearchArgs {
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<u16>,
    /// Transposition table size in MiB, 1 to 65536 (and at most the machine's memory).
    #[arg(long = "hash-mb", default_value_t = 256, value_parser = parse_hash_mb)]
    pub hash_mb: u32,
}

impl SearchArgs {
    /// Solver options from these arguments.
    pub fn options(&self, wld: bool) -> SolveOptions {
        SolveOptions {
            threads: self.threads.map_or(0, usize::from),
            hash_mb: self.hash_mb as usize,
            wld,
            force: false,
            progress: None,
        }
    }
}

/// A whole number within `range`, or a message that says what was expected.
fn whole_number(
    text: &str,
    range: std::ops::RangeInclusive<u64>,
    what: &str,
) -> Result<u64, String> {
    let expected = || format!("expected {what} from {} to {}", range.start(), range.end());
    let number = text.trim().parse::<u64>().map_err(|_| expected())?;
    if range.contains(&number) {
        Ok(number)
    } else {
        Err(expected())
    }
}

fn parse_threads(text: &str) -> Result<u16, String> {
    whole_number(text, 1..=1024, "a number of threads").map(|n| n as u16)
}

/// A table size in MiB: at least 1, at most 65536 and at most the machine's memory when it is
/// known (a table larger than memory would be killed once it fills).
fn parse_hash_mb(text: &str) -> Result<u32, String> {
    let most = memory_mib().map_or(65536, |m| m.min(65536));
    whole_number(text, 1..=most, "a table size in MiB").map(|n| n as u32)
}

/// The machine's memory in MiB, where the system tells it (`/proc/meminfo` on Linux).
fn memory_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// A whole number of at least 0 (counts, seeds, plies).
pub fn parse_count(text: &str) -> Result<u64, String> {
    whole_number(text, 0..=u64::MAX, "a whole number")
}

/// A number from 0 to 60 empty squares or plies.
pub fn parse_empties(text: &str) -> Result<u32, String> {
    whole_number(text, 0..=60, "a number of empty squares").map(|n| n as u32)
}

/// A decimal number within `low..=high`, or a message saying so.
pub fn decimal(text: &str, low: f64, high: f64) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if (low..=high).contains(&value) => Ok(value),
        _ => Err(format!("expected a number from {low} to {high}")),
    }
}

/// Worker threads, 1 to 1024 (for the commands with their own `--threads`).
pub fn parse_thread_count(text: &str) -> Result<u16, String> {
    parse_threads(text)
}

fn parse_node_limit(text: &str) -> Result<u64, String> {
    whole_number(text, 1..=u64::MAX, "a number of nodes")
}

/// Seconds, decimals allowed, above 0 and at most a year.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= YEAR => Ok(Duration::from_secs_f64(seconds)),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most {YEAR} (a year), such as 2.5"
        )),
    }
}

/// Limits of each search and `--force`, shared by every command that solves (`solve`,
/// `analyze`, `games`, `show`, `gen`, `bench`).
#[derive(Args, Clone, Debug)]
pub struct LimitArgs {
    /// Stop each position's search after SECONDS (decimals allowed); the position is then
    /// reported unfinished, with the bounds of its score proven so far (`gen` drops it).
    #[arg(long = "time-limit", value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Stop each position's search after about N nodes; the position is then reported
    /// unfinished, with the bounds of its score proven so far (`gen` drops it).
    #[arg(long = "node-limit", value_name = "N", value_parser = parse_node_limit)]
    pub node_limit: Option<u64>,
    /// Solve positions with more than 36 empty squares even without a limit (without --force
    /// they are refused: an exact solve would take days to years).
    #[arg(long)]
    pub force: bool,
}

impl LimitArgs {
    /// The search limits.
    pub fn limits(&self) -> Limits {
        Limits {
            time: self.time_limit,
            nodes: self.node_limit,
        }
    }
}

/// What the user can do about a position refused for having too many empty squares.
pub const REFUSED_HINT: &str =
    "use --force to try anyway, or --time-limit / --node-limit for bounds";

/// Opens a file of positions (`-` is standard input), with a one-line message naming the file
/// when it cannot be read: missing, a directory (which opens but cannot be read on Unix),
/// unreadable (a regular file's first byte is read once to find out).
pub fn open_input(path: &Path) -> Result<PositionReader<DynRead>, String> {
    check_readable(path, "a file of positions")?;
    match not_positions(path) {
        Some(FileKind::Binary) => {
            return Err(format!(
                "cannot read {}: expected a file of positions (UTF-8 text), found binary data",
                path.display()
            ))
        }
        Some(kind) => {
            return Err(format!(
                "cannot read {}: it is a {} games file, not a file of positions; use \
                 `osolve games {} --empties N` to solve its games",
                path.display(),
                kind.name(),
                path.display()
            ))
        }
        None => {}
    }
    open_path(path).map_err(|e| format!("cannot read {}: {}", path.display(), e.kind))
}

/// What `path` is when it is not a file of positions: a WThor or GGF games file, or binary
/// data (see [`osolve::notation::sniff`], which `games` asks too). Standard input and other
/// streams are read as they come.
fn not_positions(path: &Path) -> Option<FileKind> {
    if path == Path::new("-") || !path.is_file() {
        return None;
    }
    let mut head = vec![0u8; HEAD_LEN];
    let mut file = std::fs::File::open(path).ok()?;
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    let len = file.metadata().ok().map(|m| m.len());
    let kind = sniff(&head[..read], &path.to_string_lossy(), len);
    (kind != FileKind::Text).then_some(kind)
}

/// Whether `path` (`-` is standard input) can be read as an input: a one-line message naming
/// it when it is missing, a directory (`expected` says what was wanted instead) or unreadable
/// (a regular file's first byte is read once to find out).
pub fn check_readable(path: &Path, expected: &str) -> Result<(), String> {
    let cannot =
        |reason: &dyn std::fmt::Display| format!("cannot read {}: {reason}", path.display());
    if path == Path::new("-") {
        return Ok(());
    }
    if path.is_dir() {
        return Err(cannot(&format!("it is a directory, expected {expected}")));
    }
    std::fs::File::open(path)
        .and_then(|mut file| {
            if path.is_file() {
                file.read(&mut [0u8; 1])
            } else {
                Ok(0)
            }
        })
        .map(|_| ())
        .map_err(|e| cannot(&e))
}

/// Ctrl-C / SIGTERM: the first one stops every registered search; the drivers then print what
/// was finished and exit with `EXIT_INTERRUPTED`. A second one exits at once.
pub struct Interrupt {
    flag: AtomicBool,
    /// Exit at the first signal (commands with nothing finished to keep: `train`, `perft`).
    at_once: AtomicBool,
    handles: Mutex<Vec<StopHandle>>,
    /// What to say when a second signal ends the process at once (what was written so far).
    farewell: Mutex<Option<Farewell>>,
}

/// The message of a process ended at once by a second signal.
pub type Farewell = Box<dyn Fn() -> String + Send>;

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
    /// Says `farewell()` instead of a bare `interrupted` when a second signal ends the process
    /// at once (everything finished is written and flushed by then).
    pub fn set_farewell(&self, farewell: Farewell) {
        *self.farewell.lock().unwrap_or_else(|e| e.into_inner()) = Some(farewell);
    }
    /// Makes the first signal end the process at once with `EXIT_INTERRUPTED`, for commands
    /// that cannot stop part-way with something to keep.
    pub fn exit_at_once(&self) {
        self.at_once.store(true, Ordering::SeqCst);
        if self.is_set() {
            std::process::exit(EXIT_INTERRUPTED);
        }
    }
    fn trigger(&self) {
        // A second signal means "now": the first one is still waiting for a search or for
        // input (a terminal on standard input) to finish.
        if self.flag.swap(true, Ordering::SeqCst) || self.at_once.load(Ordering::SeqCst) {
            let farewell = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
            match farewell.as_ref() {
                Some(message) => eprintln!("{}", message()),
                None => eprintln!("interrupted"),
            }
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
    }
}

/// The process-wide interrupt state; installs the signal handler on first use.
pub fn interrupt() -> &'static Interrupt {
    static INTERRUPT: OnceLock<Interrupt> = OnceLock::new();
    INTERRUPT.get_or_init(|| {
        let _ = ctrlc::set_handler(|| interrupt().trigger());
        Interrupt {
            flag: AtomicBool::new(false),
            at_once: AtomicBool::new(false),
            handles: Mutex::new(Vec::new()),
            farewell: Mutex::new(None),
        }
    })
}

/// Reports a command-line error: help and version as clap prints them; a bad value on one line
/// (`osolve: invalid value '0' for '--threads <THREADS>': expected ...`); other usage errors
/// with clap's usage text. Returns the exit code (2 for every error).
fn usage_error(error: clap::Error) -> i32 {
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            error.exit_code()
        }
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => {
            let text = error.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // An enumerated option says what it takes: `(expected othello or reversi)`.
            let allowed = match error.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(values)) if !values.is_empty() => {
                    format!(" (expected {})", one_of(values))
                }
                _ => String::new(),
            };
            eprintln!("osolve: {first}{allowed}");
            EXIT_BAD_INPUT
        }
        _ => {
            eprintln!("osolve: {}", one_line(&error));
            EXIT_BAD_INPUT
        }
    }
}

/// Any other usage error in one line: clap's message with the lines it lists after a colon
/// joined on, a similar option it suggests, and where to look
/// (`osolve: unexpected argument '--thread' found (did you mean '--threads'?); see --help`).
fn one_line(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let mut lines = text.lines().map(str::trim);
    let first = lines.next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if message.ends_with(':') {
        let listed: Vec<&str> = lines.take_while(|line| !line.is_empty()).collect();
        message = format!("{} {}", message, listed.join(", "));
    }
    for kind in [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand] {
        let similar = match error.get(kind) {
            Some(ContextValue::String(one)) => vec![one.clone()],
            Some(ContextValue::Strings(some)) => some.clone(),
            _ => Vec::new(),
        };
        if !similar.is_empty() {
            let quoted: Vec<String> = similar.iter().map(|s| format!("'{s}'")).collect();
            message = format!("{message} (did you mean {}?)", one_of(&quoted));
        }
    }
    format!("{message}; see --help")
}

/// `a`, `a or b`, `a, b or c`.
fn one_of(values: &[String]) -> String {
    match values.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
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
        Command::Completions(args) => meta::completions(args),
        Command::Man(args) => meta::man(args),
        Command::Gtp(args) => gtp::run(args),
        Command::Nboard(args) => nboard::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("osolve: {e:#}");
            EXIT_BAD_INPUT
        }
    }
}
