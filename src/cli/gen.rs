//! `osolve gen`: makes labelled training positions for `osolve train` and writes them as OBF
//! lines with the score (`<board> <side>; +6;`), flushing every batch so an interrupted run
//! keeps complete lines. Prints the throughput summary on standard error.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use osolve::drivers::output::{Begin, NewFile};
use osolve::eval::{builtin, Weights};
use osolve::learn::gen::{
    generate, refuse_too_deep, Control, GenError, GenOptions, Label, Policy, EXHAUSTED_AFTER,
};
use osolve::report::learn::{exhausted_message, gen_interrupted, gen_line, gen_summary};

use super::args::LimitArgs;
use super::exit::{exit_code, EXIT_INTERRUPTED, EXIT_OK};
use super::interrupt::interrupt;
use super::paths;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PolicyArg {
    /// Uniformly random moves.
    Random,
    /// Random opening, then the best move by the evaluation with some random moves.
    SelfPlay,
}

/// Arguments of `osolve gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// Positions to write.
    #[arg(long, default_value_t = 10_000, value_parser = parse_positions)]
    positions: usize,
    /// Range of empties, e.g. 12-22.
    #[arg(long, default_value = "12-22", value_parser = parse_range)]
    empties: (u32, u32),
    /// Seed of the games (the same seed gives the same file).
    #[arg(long, default_value_t = 1, value_parser = super::args::parse_count)]
    seed: u64,
    /// How games are played.
    #[arg(long, value_enum, default_value = "random")]
    policy: PolicyArg,
    /// Self-play: opening moves played at random.
    #[arg(long, default_value_t = 10, value_parser = super::args::parse_empties)]
    random_plies: u32,
    /// Self-play: chance of a random move after the opening.
    #[arg(long, default_value_t = 0.1, value_parser = parse_epsilon)]
    epsilon: f64,
    /// Label with a depth-limited search of this many plies instead of the exact solver.
    #[arg(long, value_name = "PLIES", value_parser = parse_search_depth)]
    search_depth: Option<u32>,
    /// Weights for self-play and search labels (default: the built-in ones).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Labelling threads (default: one per core).
    #[arg(long, value_parser = super::args::parse_threads)]
    threads: Option<u16>,
    /// Transposition table of each labelling thread, MiB.
    #[arg(long = "hash-mb", default_value_t = 16, value_parser = parse_hash)]
    hash_mb: u32,
    /// Output file (`-` is standard output).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    #[command(flatten)]
    limits: LimitArgs,
}

fn parse_positions(text: &str) -> Result<usize, String> {
    super::args::whole_number(text, 1..=u32::MAX as u64, "a number of positions")
        .map(|n| n as usize)
}

fn parse_epsilon(text: &str) -> Result<f64, String> {
    super::args::decimal(text, 0.0, 1.0)
}

fn parse_search_depth(text: &str) -> Result<u32, String> {
    super::args::whole_number(text, 1..=60, "a depth in plies").map(|n| n as u32)
}

fn parse_hash(text: &str) -> Result<u32, String> {
    super::args::whole_number(text, 1..=65536, "a table size in MiB").map(|n| n as u32)
}

fn parse_range(text: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u32 = lo
        .trim()
        .parse()
        .map_err(|_| format!("expected a number, found '{lo}'"))?;
    let hi: u32 = hi
        .trim()
        .parse()
        .map_err(|_| format!("expected a number, found '{hi}'"))?;
    if lo > hi || hi > 60 {
        return Err(format!(
            "expected LOW-HIGH with LOW <= HIGH <= 60, found '{text}'"
        ));
    }
    Ok((lo, hi))
}

/// Runs the subcommand.
pub fn run(args: GenArgs) -> anyhow::Result<i32> {
    if !(0.0..=1.0).contains(&args.epsilon) {
        bail!("--epsilon must be between 0 and 1, found {}", args.epsilon);
    }
    // Before the output is created: it must not be the weights file read.
    paths::refuse_input_as_output(&args.output, "-o", args.weights.as_deref())?;
    let weights = match &args.weights {
        Some(path) => Weights::load(path, "--weights")?,
        None => builtin().clone(),
    };
    let threads = osolve::search::thread_count(args.threads.map_or(0, usize::from));
    let options = GenOptions {
        positions: args.positions,
        min_empties: args.empties.0,
        max_empties: args.empties.1,
        seed: args.seed,
        threads,
        hash_mb: args.hash_mb as usize,
        policy: match args.policy {
            PolicyArg::Random => Policy::Random,
            PolicyArg::SelfPlay => Policy::SelfPlay {
                random_plies: args.random_plies,
                epsilon: args.epsilon,
            },
        },
        label: match args.search_depth {
            Some(depth) => Label::Search { depth },
            None => Label::Exact,
        },
        limits: args.limits.limits(),
    };
    // Exact labels of positions too deep to solve would never come: refused before starting.
    refuse_too_deep(&options, args.limits.force)?;
    let output_name = if paths::is_std_stream(&args.output) {
        "standard output".to_string()
    } else {
        args.output.display().to_string()
    };
    // Standard output, or a file emptied only when the run begins (see `NewFile`).
    let sink: Box<dyn Begin> = if paths::is_std_stream(&args.output) {
        Box::new(io::stdout())
    } else {
        let file = NewFile::create(&args.output)
            .with_context(|| format!("cannot create {}", args.output.display()))?;
        Box::new(file)
    };
    // Shared by the writer and the progress callback, which flushes after every batch so that
    // a second signal (the process exits at once) still leaves the finished lines in the file.
    let out = std::cell::RefCell::new(BufWriter::new(sink));
    let bar = io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(args.positions as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {pos}/{len} positions [{wide_bar}] {elapsed_precise} ETA {eta}",
            )
            .expect("the template is valid")
            .progress_chars("=> "),
        );
        bar
    });
    let interrupt = interrupt();
    let mut write_error = None;
    let result = generate(
        &options,
        &weights,
        &mut |position, score| {
            let line = gen_line(position, score, args.search_depth);
            writeln!(out.borrow_mut(), "{line}").inspect_err(|e| write_error = Some(e.to_string()))
        },
        &|done| {
            // A failed flush shows again at the final one, which reports it.
            let _ = out.borrow_mut().flush();
            if let Some(bar) = &bar {
                bar.set_position(done);
            }
        },
        &Control {
            stopped: &|| interrupt.is_set(),
            register: &|handle| interrupt.register(handle),
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut flushed = out.borrow_mut().flush();
    // A run that started begins its file even without a line (it is emptied); one that could
    // not (its solvers' tables) leaves it as it was.
    if !matches!(result, Err(GenError::Search(_) | GenError::Tables(_))) {
        flushed = flushed.and_then(|()| out.borrow_mut().get_mut().begin());
    }
    if let Err(e) = flushed {
        // The reader of standard output went away (`| head`): it has what it wanted.
        if e.kind() != io::ErrorKind::BrokenPipe {
            return Err(e).with_context(|| format!("cannot write {output_name}"));
        }
    }
    match result {
        Ok(stats) => {
            stderr_text!("{}", gen_summary(&stats, threads));
            if stats.exhausted {
                let (written, asked) = (stats.positions, args.positions);
                let message =
                    exhausted_message(args.empties, EXHAUSTED_AFTER, written, asked, &output_name);
                stderr_line!("osolve: {message}");
            }
            // A signal after the last position still counts.
            Ok(exit_code(interrupt.is_set(), false, false))
        }
        Err(GenError::Stopped(stats)) => {
            stderr_text!("{}", gen_summary(&stats, threads));
            stderr_line!("{}", gen_interrupted(stats.positions, &output_name));
            Ok(EXIT_INTERRUPTED)
        }
        Err(GenError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(EXIT_OK),
        // The solvers' threads or tables: nothing to do with the output file.
        Err(GenError::Search(e)) => Err(e.into()),
        Err(GenError::Tables(e)) => Err(e.into()),
        Err(e) => Err(anyhow::Error::new(e).context(output_name)),
    }
}
