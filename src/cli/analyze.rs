//! `osolve analyze`: the exact score of every move of every position in files. Parses the
//! arguments, opens (or, with `--resume`, reads back and trims) the output, writes and flushes
//! each finished position through `osolve::report::analyze`, draws the progress on standard
//! error, and turns the run's summary into an exit code. The work itself is
//! `osolve::analyze::analyze`, or `osolve::variant::analyze::analyze` under `--rules reversi` or
//! `--scoring raw`. With `--svg DIR` each position's picture, with its move scores, goes to DIR.

use super::show::{write_svg, PictureTarget};
use super::variant::VariantArgs;
use super::{
    interrupt, open_input, LimitArgs, SearchArgs, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK,
    EXIT_WRONG, REFUSED_HINT,
};
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use osolve::analyze::{
    analyze, count_positions, inputs, Analysis, AnalyzeError, AnalyzeOptions, Shard, Sink,
    PARALLEL_MAX_EMPTIES,
};
use osolve::notation::{format_board, ParseError, Parsed};
use osolve::report::analyze::{self as report, Format};
use osolve::report::format_mnps;
use osolve::report::picture::{Marks, Picture};
use osolve::search::{StopHandle, TooManyEmpties};
use osolve::variant::analyze::VariantSink;
use osolve::variant::{Rules, VariantPosition};
use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the plain progress line is written when standard error is not a terminal.
const PLAIN_PROGRESS_EVERY: Duration = Duration::from_secs(5);

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
    /// Write the results to OUT (flushed after every position) instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
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
    /// Keep the positions OUT already holds (from an interrupted run) and append the rest.
    #[arg(long)]
    resume: bool,
    /// Analyse only the positions whose 0-based index modulo N is K.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Stop at the first bad input line instead of skipping it.
    #[arg(long)]
    strict: bool,
    /// No progress and no summary on standard error (errors, mismatches and the check verdict
    /// are still written).
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    variant: VariantArgs,
    /// Also draw each position with its move scores as DIR/position-N.svg (N counts the
    /// positions of all inputs from 1; the directory is created if needed).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Positions with at most this many empties are solved in parallel with each other, one
    /// thread each; the others one at a time with every thread.
    #[arg(long, hide = true, default_value_t = PARALLEL_MAX_EMPTIES)]
    parallel_max_empties: u32,
}

/// Runs the subcommand: exit 0 when all went well, 1 when `--check` found a wrong score, 2
/// when a bad input line was skipped (or stopped a `--strict` run), 130 when interrupted (after
/// flushing every finished position).
pub fn run(args: AnalyzeArgs) -> anyhow::Result<i32> {
    // The signal handler goes in before anything can take long.
    let interrupt = interrupt();
    let shard = match &args.shard {
        Some(text) => text
            .parse::<Shard>()
            .with_context(|| format!("--shard {text}"))?,
        None => Shard::ALL,
    };
    if args.resume && args.output.is_none() {
        bail!("--resume needs the output file it continues: -o OUT");
    }
    // Every input is opened once before anything is written: a typo should not cost a run.
    let mut unreadable = false;
    for path in &args.files {
        if let Err(message) = open_input(path) {
            eprintln!("osolve: {message}");
            unreadable = true;
        }
    }
    if unreadable {
        return Ok(EXIT_BAD_INPUT);
    }
    let format = args
        .format
        .map(Format::from)
        .or_else(|| args.output.as_deref().and_then(Format::from_path))
        .unwrap_or(Format::Jsonl);

    let variant = args.variant.variant();
    let pictures = args
        .svg
        .as_deref()
        .map(|dir| PictureTarget::Directory(dir.to_path_buf()));
    if let Some(target) = &pictures {
        target.prepare()?;
    }
    let (out, resumed_boards) = open_output(&args, format)?;
    let options = AnalyzeOptions {
        best_only: args.best_only,
        wld: args.wld,
        check: args.check,
        strict: args.strict,
        shard,
        threads: args.search.threads.map_or(0, usize::from),
        hash_mb: args.search.hash_mb as usize,
        skip: resumed_boards.len(),
        parallel_max_empties: args.parallel_max_empties,
        limits: args.limits.limits(),
        force: args.limits.force,
    };
    let progress = if args.quiet {
        Progress::none()
    } else {
        let total = count_positions(&args.files, shard)
            .map(|count| count.saturating_sub(resumed_boards.len()));
        Progress::start(total)
    };
    let mut sink = CliSink {
        out,
        out_name: args.output.as_ref().map_or_else(
            || "standard output".to_string(),
            |p| p.display().to_string(),
        ),
        format,
        resumed_boards,
        resumed: 0,
        progress,
        strict: args.strict,
        pictures,
        rules: variant.rules,
        next_position: None,
    };
    let result = if variant.is_standard() {
        analyze(inputs(args.files.clone()), &options, &mut sink)
    } else {
        let stop = Arc::new(AtomicBool::new(false));
        interrupt.register_flag(stop.clone());
        let items = osolve::variant::analyze::inputs(args.files.clone(), variant.rules);
        osolve::variant::analyze::analyze(items, &options, variant, stop, &mut sink)
    };
    sink.progress.finish();
    let summary = match result {
        Ok(summary) => summary,
        // The reader of standard output went away (`| head`): stop quietly, as pipes expect.
        Err(AnalyzeError::Sink(error)) if error.kind() == io::ErrorKind::BrokenPipe => {
            return Ok(EXIT_OK)
        }
        Err(AnalyzeError::Sink(error)) => bail!("{error}"),
        Err(error) => return Err(error.into()),
    };
    if summary.interrupted {
        let again = if args.output.is_some() {
            "; run the same command with --resume to finish"
        } else {
            ""
        };
        eprintln!(
            "interrupted: {} position{} finished and written to {} ({} in all){again}",
            summary.positions,
            if summary.positions == 1 { "" } else { "s" },
            sink.out_name,
            summary.resumed + summary.positions,
        );
        return Ok(EXIT_INTERRUPTED);
    }
    if sink.resumed < sink.resumed_boards.len() {
        bail!(
            "cannot resume: {} holds {} positions but the input has only {}; \
             it was written from another input",
            sink.out_name,
            sink.resumed_boards.len(),
            sink.resumed
        );
    }
    if args.quiet {
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
    } else if summary.bad_lines > 0 || summary.refused > 0 {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    })
}

/// Opens the output: standard output, a new (truncated) file, or with `--resume` the existing
/// file trimmed to its whole records, with the board strings of the positions it holds.
fn open_output(args: &AnalyzeArgs, format: Format) -> anyhow::Result<(Box<dyn Write>, Vec<u64>)> {
    let Some(path) = &args.output else {
        let mut out: Box<dyn Write> = Box::new(io::stdout());
        out.write_all(format.header().as_bytes())?;
        out.flush()?;
        return Ok((out, Vec::new()));
    };
    let open = |path: &Path| -> anyhow::Result<File> {
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true);
        if !args.resume {
            options.truncate(true);
        }
        options
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))
    };
    let mut file = open(path)?;
    let mut boards = Vec::new();
    let mut has_header = false;
    if args.resume {
        let written = report::written(format, io::BufReader::new(&mut file))
            .map_err(|e| anyhow::anyhow!("cannot resume {} as {format}: {e}", path.display()))?;
        file.set_len(written.keep)
            .with_context(|| format!("cannot trim {}", path.display()))?;
        boards = written.boards;
        has_header = written.has_header;
    }
    file.seek(SeekFrom::End(0))?;
    let mut out: Box<dyn Write> = Box::new(io::BufWriter::new(file));
    if !has_header {
        out.write_all(format.header().as_bytes())?;
    }
    out.flush()?;
    Ok((out, boards))
}

/// Writes each finished position and keeps the progress up to date.
struct CliSink {
    out: Box<dyn Write>,
    out_name: String,
    format: Format,
    /// Fingerprints of the board strings of the positions the resumed output holds.
    resumed_boards: Vec<u64>,
    /// How many of them the input has confirmed so far.
    resumed: usize,
    progress: Progress,
    strict: bool,
    /// Where the pictures go (`--svg DIR`).
    pictures: Option<PictureTarget>,
    /// The rules, for the pictures.
    rules: Rules,
    /// The variant position of the analysis handed over next (variant runs only).
    next_position: Option<VariantPosition>,
}

impl CliSink {
    /// Writes the picture of `analysis` when `--svg` asked for pictures.
    fn picture(&mut self, analysis: &Analysis) -> io::Result<()> {
        let Some(target) = &self.pictures else {
            return Ok(());
        };
        let position = match self.next_position.take() {
            Some(position) if position.position() == analysis.position => position,
            _ => VariantPosition::new(analysis.position, None, self.rules)
                .or_else(|_| VariantPosition::new(analysis.position, None, Rules::Othello))
                .map_err(io::Error::other)?,
        };
        let marks = Marks::Scores(analysis.moves.clone());
        let picture = Picture::new(&position, marks, analysis.source.to_string());
        write_svg(&target.path(analysis.index + 1, "svg"), &picture).map_err(io::Error::other)
    }
}

impl VariantSink for CliSink {
    fn position(&mut self, position: &VariantPosition) -> io::Result<()> {
        self.next_position = Some(*position);
        Ok(())
    }
}

impl Sink for CliSink {
    fn register(&mut self, handle: StopHandle) {
        interrupt().register(handle);
    }

    fn resumed(&mut self, parsed: &Parsed) -> io::Result<()> {
        let board = format_board(&parsed.position);
        let number = self.resumed + 1;
        if self.resumed_boards[self.resumed] != report::fingerprint(&board) {
            return Err(io::Error::other(format!(
                "cannot resume: position {number} of {} is not position {number} of the input \
                 ({}: {board}); it was written from another input or shard",
                self.out_name, parsed.source
            )));
        }
        self.resumed += 1;
        Ok(())
    }

    fn analysed(&mut self, analysis: &Analysis) -> io::Result<()> {
        self.out
            .write_all(report::record(self.format, analysis).as_bytes())?;
        self.out.flush()?;
        self.picture(analysis)?;
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
        self.progress
            .message(&format!("{error} ({})", self.what_next()));
        Ok(())
    }

    fn refused(&mut self, parsed: &Parsed, reason: &TooManyEmpties) -> io::Result<()> {
        let what = self.what_next();
        let line = format!("{}: {reason}; {REFUSED_HINT} ({what})", parsed.source);
        self.progress.message(&line);
        Ok(())
    }
}

impl CliSink {
    /// What happens after a bad line or a refused position.
    fn what_next(&self) -> &'static str {
        if self.strict {
            "stopping (--strict)"
        } else {
            "skipped"
        }
    }
}

/// Counters shared with the plain progress thread.
#[derive(Default)]
struct Counters {
    done: AtomicUsize,
    nodes: AtomicU64,
    finished: AtomicBool,
}

/// The progress on standard error: a bar on a terminal, a plain line every few seconds
/// otherwise, or nothing with `--quiet`.
struct Progress {
    bar: Option<ProgressBar>,
    counters: Arc<Counters>,
    ticker: Option<JoinHandle<()>>,
    start: Instant,
}

impl Progress {
    fn none() -> Progress {
        Progress {
            bar: None,
            counters: Arc::default(),
            ticker: None,
            start: Instant::now(),
        }
    }

    fn start(total: Option<usize>) -> Progress {
        let mut progress = Progress::none();
        if io::stderr().is_terminal() {
            let (bar, template) = match total {
                Some(total) => (
                    ProgressBar::new(total as u64),
                    "{spinner} {pos}/{len} positions [{wide_bar}] {elapsed_precise} ETA {eta} {msg}",
                ),
                None => (
                    ProgressBar::new_spinner(),
                    "{spinner} {pos} positions {elapsed_precise} {msg}",
                ),
            };
            let style = ProgressStyle::with_template(template)
                .expect("the template is valid")
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(200));
            progress.bar = Some(bar);
        } else {
            let counters = progress.counters.clone();
            let start = progress.start;
            progress.ticker = Some(std::thread::spawn(move || {
                let mut next = start + PLAIN_PROGRESS_EVERY;
                while !counters.finished.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(100));
                    if Instant::now() >= next {
                        next += PLAIN_PROGRESS_EVERY;
                        eprintln!(
                            "{}",
                            report::progress_line(
                                counters.done.load(Ordering::SeqCst),
                                total,
                                counters.nodes.load(Ordering::SeqCst),
                                start.elapsed()
                            )
                        );
                    }
                }
            }));
        }
        progress
    }

    /// One more position done.
    fn advance(&self, nodes: u64) {
        self.counters.done.fetch_add(1, Ordering::SeqCst);
        let all = self.counters.nodes.fetch_add(nodes, Ordering::SeqCst) + nodes;
        if let Some(bar) = &self.bar {
            bar.inc(1);
            let seconds = self.start.elapsed().as_secs_f64();
            if seconds > 0.0 {
                bar.set_message(format_mnps(all as f64 / seconds));
            }
        }
    }

    /// A line on standard error that the bar must not draw over.
    fn message(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.counters.finished.store(true, Ordering::SeqCst);
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
    }
}
