//! The arguments several subcommands share: the search's (`--threads`, `--hash-mb`), the limits
//! of each search and `--force`, and the value parsers that say what a bad value should have
//! been. At the bottom of cli/: subcommands flatten these into their own arguments.

use clap::Args;
use osolve::search::{Limits, SolveOptions};
use std::time::Duration;

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
pub fn whole_number(
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

/// Worker threads, 1 to 1024 (also for the commands with their own `--threads`).
pub fn parse_threads(text: &str) -> Result<u16, String> {
    whole_number(text, 1..=1024, "a number of threads").map(|n| n as u16)
}

/// A table size in MiB: at least 1, at most 65536 and at most the machine's memory when it is
/// known (a table larger than memory would be killed once it fills).
fn parse_hash_mb(text: &str) -> Result<u32, String> {
    let most = osolve::huge_pages::max_hash_mb() as u64;
    whole_number(text, 1..=most, "a table size in MiB").map(|n| n as u32)
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

fn parse_node_limit(text: &str) -> Result<u64, String> {
    whole_number(text, 1..=u64::MAX, "a number of nodes")
}

/// Seconds, decimals allowed, above 0 and at most a year.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
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
