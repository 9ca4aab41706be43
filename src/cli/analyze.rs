//! `osolve analyze`: the exact score of every move of every position in files. Parses the
//! arguments, opens (or, with `--resume`, reads back and trims) the output, writes and flushes
//! each finished position through `osolve::report::analyze`, draws the progress on standard
//! error, and turns the run's summary into an exit code. The work itself is
//! `osolve::analyze::analyze`; what it shares with `osolve games` is in `super::batch`.

use super::batch::{
    interrupted_message, open_output, unless_broken_pipe, BatchArgs, Progress, ResumeCheck,
};
use super::{interrupt, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_WRONG};
use clap::{Args, ValueEnum};
use osolve::analyze::{analyze, count_positions, inputs, Analysis, AnalyzeOptions, Sink};
use osolve::notation::{format_board, ParseError, Parsed};
use osolve::report::analyze::{self as report, Format};
use osolve::search::StopHandle;
use std::io::{self, Write};
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
}

/// Runs the subcommand: exit 0 when all went well, 1 when `--check` found a wrong score, 2
/// when a bad input line was skipped (or stopped a `--strict` run), 130 when interrupted (after
/// flushing every finished position).
pub fn run(args: AnalyzeArgs) -> anyhow::Result<i32> {
    // The signal handler goes in before anything can take long.
    let interrupt = interrupt();
    let batch = &args.batch;
    let shard = batch.shard()?;
    let format = args
        .format
        .map(Format::from)
        .or_else(|| batch.output.as_deref().and_then(Format::from_path))
        .unwrap_or(Format::Jsonl);

    let output = open_output(batch, format.header(), &format, |reader| {
        report::written(format, reader)
    })?;
    let options = AnalyzeOptions {
        best_only: args.best_only,
        wld: args.wld,
        check: args.check,
        strict: args.strict,
        shard,
        threads: batch.threads(),
        hash_mb: batch.search.hash_mb as usize,
        skip: output.resumed.len(),
        parallel_max_empties: batch.parallel_max_empties,
    };
    let progress = if batch.quiet {
        Progress::none()
    } else {
        let total = count_positions(&args.files, shard)
            .map(|count| count.saturating_sub(output.resumed.len()));
        Progress::start(total, "positions")
    };
    let mut sink = CliSink {
        out: output.out,
        format,
        resumed: output.resumed,
        progress,
        strict: args.strict,
    };
    let result = analyze(inputs(args.files.clone()), &options, &mut sink);
    sink.progress.finish();
    let Some(summary) = unless_broken_pipe(result)? else {
        return Ok(EXIT_OK);
    };
    if summary.interrupted {
        let items = ("position", "positions");
        eprintln!(
            "{}",
            interrupted_message(batch, summary.positions, summary.resumed, items)
        );
        return Ok(EXIT_INTERRUPTED);
    }
    sink.resumed.finish("positions")?;
    if batch.quiet {
        if args.check {
            eprintln!("{}", report::check_verdict(&summary));
        }
    } else {
        eprint!("{}", report::summary(&summary, args.check));
    }
    Ok(if interrupt.is_set() {
        // The signal came after the last position: everything is written all the same.
        EXIT_INTERRUPTED
    } else if summary.wrong > 0 {
        EXIT_WRONG
    } else if summary.bad_lines > 0 {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    })
}

/// Writes each finished position and keeps the progress up to date.
struct CliSink {
    out: Box<dyn Write>,
    format: Format,
    resumed: ResumeCheck,
    progress: Progress,
    strict: bool,
}

impl Sink for CliSink {
    fn register(&mut self, handle: StopHandle) {
        interrupt().register(handle);
    }

    fn resumed(&mut self, parsed: &Parsed) -> io::Result<()> {
        let board = format_board(&parsed.position);
        self.resumed
            .confirm(&board, "position", || format!("{}: {board}", parsed.source))
    }

    fn analysed(&mut self, analysis: &Analysis) -> io::Result<()> {
        self.out
            .write_all(report::record(self.format, analysis).as_bytes())?;
        self.out.flush()?;
        if let Some(mismatches) = &analysis.check {
            for mismatch in mismatches {
                let line = report::mismatch_line(analysis, mismatch);
                self.progress.message(&line);
            }
        }
        self.progress.advance(analysis.nodes);
        Ok(())
    }

    fn bad_line(&mut self, error: &ParseError) -> io::Result<()> {
        let what = if self.strict {
            "stopping (--strict)"
        } else {
            "skipped"
        };
        self.progress.message(&format!("{error} ({what})"));
        Ok(())
    }
}
