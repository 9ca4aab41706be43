//! `osolve train`: reads labelled positions (OBF lines with a final score, as `osolve gen`
//! writes them), fits the evaluation weights and writes the weights file; prints the training
//! and held-out errors per weight set.

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use osolve::learn::train::{train, TrainOptions};
use osolve::notation::open_path;
use osolve::report::learn::train_table;

use super::{paths, EXIT_OK};

/// Arguments of `osolve train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Files of labelled positions (`-` for standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Conjugate-gradient iterations per weight set.
    #[arg(long, default_value_t = 100)]
    iterations: u32,
    /// Ridge penalty.
    #[arg(long, default_value_t = 2.0)]
    lambda: f64,
    /// Fit the positions as given only, not also their symmetric images.
    #[arg(long)]
    no_augment: bool,
    /// Fit a weight set only when it has at least this many training positions of its own
    /// empties (others borrow the nearest fitted set).
    #[arg(long, default_value_t = 10_000)]
    min_samples: usize,
    /// Threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Weights file to write.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
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
    super::interrupt().exit_at_once();
    // Before anything is read or written: the weights must not overwrite an input.
    paths::refuse_input_as_output(&args.output, "-o", args.files.iter().map(PathBuf::as_path))?;
    let mut samples = Vec::new();
    for path in &args.files {
        let reader = open_path(path)?;
        for item in reader {
            let parsed = item?;
            let Some(score) = parsed.final_score else {
                bail!(
                    "{}: expected a labelled position with a final score (like `...; +6;`)",
                    parsed.source
                );
            };
            if !(-64..=64).contains(&score) {
                bail!("{}: score {score} is outside -64..64", parsed.source);
            }
            samples.push((parsed.position.board, score));
        }
    }
    let options = TrainOptions {
        iterations: args.iterations,
        lambda: args.lambda,
        threads: args.threads.map_or(0, usize::from),
        augment: !args.no_augment,
        min_samples: args.min_samples,
    };
    let (weights, reports, stats) = train(samples, &options)?;
    print!("{}", train_table(&reports, &stats));
    let bytes = weights.to_bytes();
    std::fs::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("wrote {} ({} bytes)", args.output.display(), bytes.len());
    Ok(EXIT_OK)
}
