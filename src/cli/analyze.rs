//! `osolve analyze`: the exact score of every move of every position in files. Parses the
//! arguments, opens (or, with `--resume`, continues) the output through
//! `osolve::drivers::output`, writes each finished position as `osolve::report::analyze` words
//! it, shows the progress on standard error, and turns the run's summary into an exit code. The work itself is
//! `osolve::drivers::analyze::analyze` under every `--rules` and `--scoring`; what it shares with
//! `osolve games` is in `super::batch`. With `--svg DIR`
//! each position's picture, with its move scores, goes to DIR.

use super::args::{LimitArgs, REFUSED_HINT};
use super::batch::{end_run, exit_code, BatchArgs, Ended, Progress};
use super::estimate::EstimateArgs;
use super::exit::EXIT_BAD_INPUT;
use super::inputs::{open_input, EmptyInputs};
use super::interrupt::interrupt;
use super::paths;
use super::show::{write_svg, PictureTarget};
use super::variant::VariantArgs;
use clap::{Args, ValueEnum};
use osolve::drivers::analyze::{
    analyze, count_positions, inputs_with, positions_work, Analysis, AnalyzeOptions, Recorded,
    Sink, Summary,
};
use osolve::drivers::batch::{self, Shard};
use osolve::drivers::output::{Output, ResultOptions};
use osolve::notation::{format_board, input_name, ParseError, Parsed};
use osolve::report::analyze::{self as report, Format};
use osolve::report::batch::{already_in_output, refusal, skipped_line, what_next};
use osolve::report::picture::{Marks, Picture};
use osolve::search::{StopHandle, TooManyEmpties};
use std::io;
use std::path::PathBuf;

/// Output formats as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// Edax's OBF: `<board>; A2:+38; C7:+36;`.
    Obf,
    /// One JSON object per position.
    Jsonl,
    /// One row per (position, move), with a header.
    Csv,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Obf => Format::Obf,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Csv => Format::Csv,
        }
    }
}

/// Arguments of `osolve analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {
    /// Files of positions, one per line in any notation (board strings, OBF lines,
    /// transcripts); `-` is standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Output format [default: from OUT's extension (.obf, .jsonl, .csv), else jsonl].
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Only the best score and the moves that reach it (faster than scoring every move).
    #[arg(long)]
    best_only: bool,
    /// Win/draw/loss only: every score is -1, 0 or +1.
    #[arg(long)]
    wld: bool,
    /// Compare with the scores the inputs carry (OBF annotations); exit 1 if one differs.
    #[arg(long)]
    check: bool,
    /// Stop at the first bad input line instead of skipping it.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    batch: BatchArgs,
    #[command(flatten)]
    variant: VariantArgs,
    /// Also draw each position with its move scores as DIR/position-NN.svg (NN counts the
    /// positions of all inputs from 01; the directory is created if needed).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    estimate: EstimateArgs,
}

/// Runs the subcommand: exit 0 when all went well, 1 when `--check` found a wrong score, 2
/// when a bad input line was skipped (or stopped a `--strict` run) or a file held no position,
/// 130 when interrupted (after flushing every finished position).
pub fn run(mut args: AnalyzeArgs) -> anyhow::Result<i32> {
    args.batch.normalize();
    // The signal handler goes in before anything can take long.
    interrupt();
    if let Some(refusal) = args
        .estimate
        .refusal(args.wld, &args.limits, args.variant.variant())
    {
        stderr_line!("osolve: {refusal}");
        return Ok(EXIT_BAD_INPUT);
    }
    let batch = &args.batch;
    let shard = batch.shard()?;
    // Every input is opened once before anything is written: a typo should not cost a run.
    let mut unreadable = false;
    for path in &args.files {
        if let Err(message) = open_input(path) {
            stderr_line!("osolve: {message}");
            unreadable = true;
        }
    }
    if unreadable {
        return Ok(EXIT_BAD_INPUT);
    }
    let format = args
        .format
        .map(Format::from)
        .or_else(|| batch.output.as_deref().and_then(Format::from_path))
        .unwrap_or(Format::Jsonl);

    let variant = args.variant.variant();
    let pictures = args
        .svg
        .as_deref()
        .map(|dir| PictureTarget::directory(dir, count_positions(&args.files, Shard::ALL)));
    // Before anything is opened for writing: an output must not be one of the inputs.
    let files = || args.files.iter().map(PathBuf::as_path);
    if let Some(out) = &batch.output {
        paths::refuse_input_as_output(out, "-o", files())?;
    }
    if let Some(target) = &pictures {
        target.refuse_inputs("--svg", files())?;
        target.prepare("--svg")?;
    }
    let result_options = ResultOptions {
        options: vec![
            ("--best-only", args.best_only.then(String::new), None),
            ("--wld", args.wld.then(String::new), None),
            // Estimates are never mixed with exact scores, nor with other depths' ("" is the
            // default: no --depth).
            (
                "--depth",
                args.estimate.depth.map(|d| d.to_string()),
                Some(""),
            ),
            (
                "--rules",
                Some(value_name(args.variant.rules)),
                Some("othello"),
            ),
            (
                "--scoring",
                Some(value_name(args.variant.scoring)),
                Some("official"),
            ),
        ],
        record: Box::new(format.options_record()),
    };
    // With --check, the scores of the positions a resumed output holds, to count them in the
    // verdict as an uninterrupted run would.
    let mut recorded = Vec::new();
    let mut output = Output::open(
        batch.output.as_deref(),
        batch.resume,
        format.header(),
        &format,
        &result_options,
        |reader, first_line| {
            let scores = args.check.then_some(&mut recorded);
            report::written_from(format, reader, first_line, variant.rules, scores)
        },
    )?;
    let driver = batch.options(shard, &output);
    let progress = batch.show_progress(
        &mut output,
        || positions_work(&args.files, shard),
        ("position", "positions"),
    );
    let options = AnalyzeOptions {
        best_only: args.best_only,
        wld: args.wld,
        check: args.check,
        strict: args.strict,
        shard,
        threads: driver.threads,
        hash_mb: driver.hash_mb,
        skip: driver.skip,
        parallel_max_empties: driver.parallel_max_empties,
        limits: args.limits.limits(),
        force: args.limits.force,
        depth: args.estimate.depth,
        // A deep position's search shows its progress in the bar.
        progress: progress.live(),
    };
    let mut sink = CliSink {
        recorded: recorded.into_iter(),
        resumed_check: Summary::default(),
        check: args.check.then_some(options.clone()),
        output,
        progress,
        format,
        strict: args.strict,
        pictures,
    };
    // Each file read to its end without a position is said after the run.
    let empty_inputs = EmptyInputs::default();
    let watched = empty_inputs.clone();
    let inputs =
        args.files.clone().into_iter().flat_map(move |path| {
            watched.watch(input_name(&path), inputs_with(vec![path], variant))
        });
    let result = analyze(inputs, &options, &mut sink);
    let all_empty = empty_inputs.all(args.files.len());
    let ended = |s: &Summary| Ended {
        interrupted: s.interrupted,
        done: s.positions,
        resumed: s.resumed,
        empty: all_empty,
    };
    let items = ("position", "positions");
    let mut summary = match end_run(
        batch,
        &mut sink.output,
        &mut sink.progress,
        result,
        items,
        ended,
    )? {
        Ok(summary) => summary,
        Err(code) => return Ok(code),
    };
    let empty = empty_inputs.report();
    if all_empty {
        // Each input has said it holds no position: a summary of nothing analysed or checked
        // would only repeat it in zeros.
        return Ok(exit_code(false, true));
    }
    // The verdict of the whole output: the resumed positions count as if checked now.
    summary.merge_resumed(&sink.resumed_check);
    if batch.quiet {
        if args.check {
            stderr_line!("{}", report::check_verdict(&summary));
        }
    } else {
        stderr_text!("{}", report::summary(&summary, args.check));
    }
    Ok(exit_code(
        summary.wrong > 0,
        summary.bad_lines > 0 || summary.refused > 0 || empty,
    ))
}

/// The name the command line gives a value (`reversi`).
fn value_name(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// Writes each finished position and keeps the progress up to date.
struct CliSink {
    /// With --check, the scores of the positions a resumed output holds, in order.
    recorded: std::vec::IntoIter<Recorded>,
    /// With --check, the check of those positions (counts only).
    resumed_check: Summary,
    /// With --check, the options to check with.
    check: Option<AnalyzeOptions>,
    output: Output,
    progress: Progress,
    format: Format,
    strict: bool,
    /// Where the pictures go (`--svg DIR`).
    pictures: Option<PictureTarget>,
}

impl CliSink {
    /// Writes the picture of `analysis` when `--svg` asked for pictures.
    fn picture(&mut self, analysis: &Analysis) -> io::Result<()> {
        let Some(target) = &self.pictures else {
            return Ok(());
        };
        let marks = Marks::Scores(analysis.moves.clone());
        let picture = Picture::new(&analysis.position, marks, analysis.source.to_string());
        write_svg(&target.path(analysis.index + 1, "svg"), &picture).map_err(io::Error::other)
    }
}

impl Sink for CliSink {
    fn register(&mut self, handle: StopHandle) {
        interrupt().register(handle);
    }

    fn resumed(&mut self, parsed: &Parsed) -> io::Result<()> {
        let board = format_board(&parsed.position);
        self.output
            .resumed
            .confirm(&board, "position", || report::input_item(parsed))?;
        let (Some(options), Some(recorded)) = (&self.check, self.recorded.next()) else {
            return Ok(());
        };
        for mismatch in self.resumed_check.add_resumed(parsed, &recorded, options) {
            let line = report::mismatch_text(&parsed.source, &mismatch);
            self.progress.message(&already_in_output(&line));
        }
        Ok(())
    }

    fn analysed(&mut self, analysis: &Analysis) -> io::Result<()> {
        let record = report::record(self.format, analysis);
        let work = batch::work(analysis.position.board.empties());
        self.output.write(&record, analysis.nodes, work)?;
        self.picture(analysis)?;
        if let Some(mismatches) = &analysis.check {
            for mismatch in mismatches {
                let line = report::mismatch_line(analysis, mismatch);
                self.progress.message(&line);
            }
        }
        Ok(())
    }

    fn bad_line(&mut self, error: &ParseError) -> io::Result<()> {
        let what_next = what_next(self.strict);
        self.progress.message(&skipped_line(error, what_next));
        Ok(())
    }

    fn refused(&mut self, parsed: &Parsed, reason: &TooManyEmpties) -> io::Result<()> {
        let refused = refusal(&parsed.source, reason, REFUSED_HINT);
        let what_next = what_next(self.strict);
        self.progress.message(&skipped_line(refused, what_next));
        Ok(())
    }
}
