//! `osolve train`: reads labelled positions (OBF lines with a final score, as `osolve gen`
//! writes them), fits the evaluation weights and writes the weights file; prints the training
//! and held-out errors per weight set. A bad or unlabelled line is reported and skipped, and
//! the rest is fitted (exit code 2 after the weights are written).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use osolve::learn::train::{labelled_sample, train, TrainOptions};
use osolve::report::batch::{skipped_line, what_next};
use osolve::report::learn::{few_samples_warning, train_table, wrote_weights};

use super::exit::{EXIT_BAD_INPUT, EXIT_OK};
use super::inputs::{open_input, EmptyInputs};
use super::paths;

/// Arguments of `osolve train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Files of labelled positions (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Conjugate-gradient iterations per weight set.
    #[arg(long, default_value_t = 100, value_parser = parse_iterations)]
    iterations: u32,
    /// Ridge penalty.
    #[arg(long, default_value_t = 2.0, value_parser = parse_lambda)]
    lambda: f64,
    /// Fit the positions as given only, not also their symmetric images.
    #[arg(long)]
    no_augment: bool,
    /// Fit a weight set only when it has at least this many training positions of its own
    /// empties (others borrow the nearest fitted set).
    #[arg(long, default_value_t = 10_000, value_parser = parse_min_samples)]
    min_samples: usize,
    /// Start from this weights file: only the sets fitted here replace its sets, the others
    /// are kept bit for bit; the table adds its held-out error (`base MAE`).
    #[arg(long, value_name = "FILE")]
    keep: Option<PathBuf>,
    /// With --keep: move each fitted set only this fraction of the way from the kept weights
    /// toward the fit, round((1 - T) * kept + T * fit) (1: the fit itself, 0: the kept set).
    #[arg(long, value_name = "T", default_value_t = 1.0, value_parser = parse_step, requires = "keep")]
    step: f64,
    /// Threads (default: one per core).
    #[arg(long, value_parser = super::args::parse_threads)]
    threads: Option<u16>,
    /// Weights file to write (`-` is standard output; the table then goes to standard error).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

fn parse_iterations(text: &str) -> Result<u32, String> {
    super::args::whole_number(text, 1..=1_000_000, "a number of iterations").map(|n| n as u32)
}

fn parse_lambda(text: &str) -> Result<f64, String> {
    super::args::decimal(text, 0.0, 1e12)
}

fn parse_step(text: &str) -> Result<f64, String> {
    super::args::decimal(text, 0.0, 1.0)
}

fn parse_min_samples(text: &str) -> Result<usize, String> {
    super::args::whole_number(text, 0..=u32::MAX as u64, "a number of positions")
        .map(|n| n as usize)
}

/// Runs the subcommand.
pub fn run(args: TrainArgs) -> anyhow::Result<i32> {
    if !(args.lambda >= 0.0 && args.lambda.is_finite()) {
        bail!(
            "--lambda must be a finite number >= 0, found {}",
            args.lambda
        );
    }
    // Nothing is kept from a fit cut short: a signal ends the run at once (exit 130) and the
    // weights file is not written.
    super::interrupt::interrupt().exit_at_once();
    // Before anything is read or written: the weights must not overwrite an input.
    paths::refuse_input_as_output(&args.output, "-o", args.files.iter().map(PathBuf::as_path))?;
    // A fit can take minutes: an output that cannot be written is said before it, not after.
    paths::check_writable(&args.output)?;
    let base = match &args.keep {
        Some(path) => Some(osolve::eval::Weights::load(path, "--keep")?),
        None => None,
    };
    // Every input is opened before any is read: a typo should not wait for the others.
    let readers = args
        .files
        .iter()
        .map(|path| open_input(path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    // A bad line is reported and skipped, as every command does; the rest is fitted.
    let mut samples = Vec::new();
    let mut skipped = 0usize;
    let empty_inputs = EmptyInputs::default();
    let items = readers
        .into_iter()
        .flat_map(|reader| empty_inputs.watch(reader.name().to_string(), reader));
    for item in items {
        let sample = item
            .map_err(|e| e.to_string())
            .and_then(|parsed| labelled_sample(&parsed).map_err(|e| e.to_string()));
        match sample {
            Ok(sample) => samples.push(sample),
            Err(message) => {
                stderr_line!("{}", skipped_line(message, what_next(false)));
                skipped += 1;
            }
        }
    }
    // A file without a single position is bad input too.
    let empty = empty_inputs.report();
    if samples.is_empty() && skipped > 0 {
        bail!(
            "no labelled position to fit: all {skipped} position line{} skipped; no weights \
             written to {}",
            if skipped == 1 { " was" } else { "s were" },
            args.output.display()
        );
    }
    if samples.is_empty() {
        // Every input was empty, and each has said so: there is nothing to fit.
        return Ok(EXIT_BAD_INPUT);
    }
    let options = TrainOptions {
        iterations: args.iterations,
        lambda: args.lambda,
        threads: args.threads.map_or(0, usize::from),
        augment: !args.no_augment,
        min_samples: args.min_samples,
        base,
        step: args.step,
    };
    let given = samples.len();
    if given < args.min_samples {
        stderr_line!("osolve: {}", few_samples_warning(given, args.min_samples));
    }
    let (weights, reports, stats) = train(samples, &options)?;
    if reports.is_empty() {
        bail!(
            "no weight set could be fitted: each needs at least --min-samples {} training \
             positions of its own empties; no weights written to {}",
            args.min_samples,
            args.output.display()
        );
    }
    let bytes = weights.to_bytes();
    // The weights are written, but a skipped line is bad input.
    let exit_code = if skipped > 0 || empty {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    };
    if paths::is_std_stream(&args.output) {
        // The weights go to standard output, so the table goes to standard error.
        stderr_text!("{}", train_table(&reports, &stats));
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes)
            .and_then(|()| out.flush())
            .context("cannot write the weights to standard output")?;
        stderr_line!("{}", wrote_weights("standard output", bytes.len()));
        return Ok(exit_code);
    }
    print!("{}", train_table(&reports, &stats));
    std::fs::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let name = args.output.display().to_string();
    println!("{}", wrote_weights(&name, bytes.len()));
    Ok(exit_code)
}
