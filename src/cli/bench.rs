//! `osolve bench`: solves a standard suite (or a file) and prints nodes, times and nodes per
//! second per position, then the totals and whether every score was right; `--rules` and
//! `--scoring` read the suite under another rule set, as `solve` reads its positions. Wires the arguments
//! to `osolve::drivers::bench` (`refusals`, then `run`), prints through `osolve::report::bench`,
//! and draws a progress bar on standard error when that is a terminal.

use super::args::{LimitArgs, SearchArgs, REFUSED_HINT};
use super::exit::{exit_code, write_failed, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK};
use super::inputs::check_readable;
use super::interrupt::interrupt;
use super::variant::VariantArgs;
use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use osolve::drivers::bench::{
    self, BenchError, Event, Refused, RunOptions, Suite, BUILTIN_SUITES, DEFAULT_SUITE,
};
use osolve::report::batch::refusal;
use osolve::report::bench as report;
use osolve::search::{SolveOptions, Solver};
use std::io::{IsTerminal, Write};

/// Arguments of `osolve bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// The positions: a built-in suite (ffo40-49, ffo40-59, ffo1-19) or a file of positions,
    /// one per line (OBF lines with move scores are checked against them).
    #[arg(long, default_value = DEFAULT_SUITE, value_name = "SUITE|FILE")]
    suite: String,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    variant: VariantArgs,
    /// Solve the whole suite this many times and report each position's median time.
    #[arg(long, default_value_t = 1, value_parser = parse_repeat)]
    repeat: u32,
    /// Print JSON lines: one object per position, then a summary object.
    #[arg(long)]
    json: bool,
    /// Keep the transposition table between positions instead of clearing it.
    #[arg(long)]
    keep_hash: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Runs the subcommand: exit 0 when every score is right, 1 when one is wrong, 130 when
/// interrupted (after printing the positions finished).
pub fn run(args: BenchArgs) -> anyhow::Result<i32> {
    let is_builtin = BUILTIN_SUITES.contains(&args.suite.as_str());
    if !is_builtin && std::path::Path::new(&args.suite).exists() {
        if let Err(message) =
            check_readable(std::path::Path::new(&args.suite), "a file of positions")
        {
            bail!("{message}");
        }
    }
    // Nothing is measured before the whole suite is read: a signal meanwhile (`--suite -` may
    // keep it waiting on standard input) ends the run at once.
    let load = || Suite::load_with(&args.suite, args.variant.variant());
    let suite = match interrupt().at_once_while(None, load) {
        // The file holds no position: said as every command says it.
        Err(BenchError::Empty(empty)) => {
            stderr_line!("osolve: {empty}");
            return Ok(EXIT_BAD_INPUT);
        }
        loaded => loaded,
    };
    let suite = suite.with_context(|| {
        if std::path::Path::new(&args.suite).exists() {
            format!("cannot read the suite {}", args.suite)
        } else {
            format!(
                "--suite {}: neither a built-in suite ({}) nor a file",
                args.suite,
                BUILTIN_SUITES.join(", ")
            )
        }
    })?;
    // The suite is checked as a whole below (bench::refusals), so the solver itself is forced.
    let options = SolveOptions {
        force: true,
        ..args.search.options(false)
    };
    // A table the system refuses is said as every command says it (`cannot allocate the ...`).
    let mut solver = Solver::new(options)?;
    let stop = solver.stop_handle();
    interrupt().register(stop.clone());
    solver.set_limits(args.limits.limits());
    // A suite with a position too deep to finish is refused before anything is measured: the
    // run would never end, and totals without it would not be the suite's.
    if !args.limits.force {
        let (refused, interrupted) = bench::refusals(&mut solver, &suite);
        for Refused { source, reason } in &refused {
            stderr_line!("osolve: {}", refusal(source, reason, REFUSED_HINT));
        }
        if interrupted {
            return Ok(EXIT_INTERRUPTED);
        }
        if !refused.is_empty() {
            return Ok(EXIT_BAD_INPUT);
        }
    }
    let options = RunOptions {
        repeat: args.repeat as usize,
        keep_hash: args.keep_hash,
    };

    let bar = std::io::stderr()
        .is_terminal()
        .then(|| progress_bar((suite.positions.len() * options.repeat) as u64));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut write = |text: &str| -> std::io::Result<()> {
        match &bar {
            Some(bar) => bar.suspend(|| out.write_all(text.as_bytes()).and_then(|_| out.flush())),
            None => out.write_all(text.as_bytes()).and_then(|_| out.flush()),
        }
    };
    if !args.json {
        let header = report::header(
            &suite.name,
            suite.positions.len(),
            suite.variant,
            solver.threads(),
            solver.options().hash_mb,
            options.repeat,
            options.keep_hash,
        );
        if let Err(e) = write(&header) {
            return write_failed(e, RESULTS_FAILED, EXIT_OK);
        }
    }
    let mut printed = 0;
    let mut failure: Option<std::io::Error> = None;
    let result = bench::run(&mut solver, &suite, &options, |event| match event {
        Event::Start {
            run,
            index,
            position,
        } => {
            if let Some(bar) = &bar {
                bar.set_position((run * suite.positions.len() + index) as u64);
                let empties = position.position.board.empties();
                bar.set_message(report::position_message(
                    position.number,
                    empties,
                    run,
                    options.repeat,
                ));
            }
        }
        Event::Row(row) => {
            let text = if args.json {
                report::row_json(row)
            } else {
                report::row(row)
            };
            if failure.is_none() {
                if let Err(e) = write(&text) {
                    // Output gone (a closed pipe): stop solving, nobody will read the rest.
                    failure = Some(e);
                    stop.stop();
                }
            }
            printed += 1;
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(e) = failure {
        return write_failed(e, RESULTS_FAILED, EXIT_OK);
    }
    let result = match result {
        Ok(result) => result,
        Err(Refused { source, reason }) => {
            stderr_line!("osolve: {}", refusal(source, reason, REFUSED_HINT));
            return Ok(EXIT_BAD_INPUT);
        }
    };
    // Rows finished only by an interrupted last repeat were not printed yet.
    let mut text = String::new();
    for row in &result.rows[printed..] {
        text.push_str(&if args.json {
            report::row_json(row)
        } else {
            report::row(row)
        });
    }
    text.push_str(&if args.json {
        report::summary_json(&result)
    } else {
        report::summary(&result)
    });
    if let Err(e) = write(&text) {
        return write_failed(e, RESULTS_FAILED, EXIT_OK);
    }
    // A signal after the last position still counts.
    Ok(exit_code(
        result.interrupted || interrupt().is_set(),
        !result.all_correct(),
        false,
    ))
}

fn parse_repeat(text: &str) -> Result<u32, String> {
    super::args::whole_number(text, 1..=100_000, "a number of runs").map(|n| n as u32)
}

/// The context of a failed write of the table or JSON.
const RESULTS_FAILED: &str = "cannot write the results";

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed}]")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
