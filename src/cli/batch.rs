//! What `osolve analyze` and `osolve games` share on the command line: the output, resume,
//! shard and progress options; opening the output (or, with `--resume`, reading it back and
//! trimming a record cut short); checking that a resumed output was written from the same
//! input; the progress bar (or plain progress line) on standard error; and the message of an
//! interrupted run. The work itself is the library's batch driver (`osolve::drivers::batch`).

use super::{interrupt, SearchArgs, EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_WRONG};
use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use osolve::drivers::batch::{self, BatchError, Shard, PARALLEL_MAX_EMPTIES};
use osolve::report::batch::{fingerprint, progress_line, Written};
use osolve::report::format_mnps;
use std::fmt::Display;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the plain progress line is written when standard error is not a terminal.
const PLAIN_PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The options of a batch run that every batch command has.
#[derive(Args)]
pub struct BatchArgs {
    /// Write the results to OUT (flushed after every record) instead of standard output (`-`).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Keep the records OUT already holds (from an interrupted run) and append the rest.
    #[arg(long)]
    pub resume: bool,
    /// Process only the items whose 0-based index modulo N is K.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// No progress and no summary on standard error (errors, mismatches and the check verdict
    /// are still written).
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Items whose searches have at most this many empties are solved in parallel with each
    /// other, one thread each; the others one at a time with every thread.
    #[arg(long, hide = true, default_value_t = PARALLEL_MAX_EMPTIES)]
    pub parallel_max_empties: u32,
}

impl BatchArgs {
    /// Takes `-o -` for standard output, as the readers take `-` for standard input.
    pub fn normalize(&mut self) {
        if self.output.as_deref() == Some(Path::new("-")) {
            self.output = None;
        }
    }

    /// The shard asked for; an error when `--resume` has no output to continue.
    pub fn shard(&self) -> anyhow::Result<Shard> {
        if self.resume && self.output.is_none() {
            bail!("--resume needs the output file it continues: -o OUT");
        }
        match &self.shard {
            Some(text) => Ok(text
                .parse::<Shard>()
                .with_context(|| format!("--shard {text}"))?),
            None => Ok(Shard::ALL),
        }
    }

    /// The driver's options for `shard`, skipping the records `output` already holds.
    pub fn options(&self, shard: Shard, output: &Output) -> batch::Options {
        batch::Options {
            shard,
            threads: self.search.threads.map_or(0, usize::from),
            hash_mb: self.search.hash_mb as usize,
            skip: output.resumed.len(),
            parallel_max_empties: self.parallel_max_empties,
            ..batch::Options::default()
        }
    }

    /// Shows the progress of the items the count gives (`None` when it cannot be known), or
    /// nothing with `--quiet`; the records `output` already holds are not counted again.
    pub fn show_progress(
        &self,
        output: &mut Output,
        count: impl FnOnce() -> Option<usize>,
        unit: &'static str,
    ) {
        if !self.quiet {
            let total = count().map(|count| count.saturating_sub(output.resumed.len()));
            output.progress = Progress::start(total, unit);
        }
    }

    /// The output's name in messages: its path, or `standard output`.
    pub fn output_name(&self) -> String {
        self.output.as_ref().map_or_else(
            || "standard output".to_string(),
            |p| p.display().to_string(),
        )
    }
}

/// Where the records go, the keys of those a resumed output already holds, and the progress.
pub struct Output {
    /// Standard output or the file, each record flushed as written.
    pub out: Box<dyn Write>,
    /// Checks the resumed records against the input.
    pub resumed: ResumeCheck,
    /// The progress shown on standard error.
    pub progress: Progress,
}

impl Output {
    /// Writes and flushes one finished item's record, and counts it in the progress.
    pub fn write(&mut self, record: &str, nodes: u64) -> io::Result<()> {
        self.out.write_all(record.as_bytes())?;
        self.out.flush()?;
        self.progress.advance(nodes);
        Ok(())
    }
}

/// Opens the output: standard output, a new (truncated) file, or with `--resume` the existing
/// file trimmed to its whole records, which `written` reads back. `header` is written at the
/// top of a new output; `format` names the format in messages.
pub fn open_output(
    args: &BatchArgs,
    header: &str,
    format: &dyn Display,
    written: impl FnOnce(BufReader<&mut File>) -> Result<Written, String>,
) -> anyhow::Result<Output> {
    let mut resumed = ResumeCheck {
        keys: Vec::new(),
        confirmed: 0,
        out_name: args.output_name(),
    };
    let Some(path) = &args.output else {
        let mut out: Box<dyn Write> = Box::new(io::stdout());
        out.write_all(header.as_bytes())?;
        out.flush()?;
        return Ok(Output {
            out,
            resumed,
            progress: Progress::none(),
        });
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
    let mut has_header = false;
    if args.resume {
        let found = written(BufReader::new(&mut file))
            .map_err(|e| anyhow::anyhow!("cannot resume {} as {format}: {e}", path.display()))?;
        file.set_len(found.keep)
            .with_context(|| format!("cannot trim {}", path.display()))?;
        resumed.keys = found.keys;
        has_header = found.has_header;
    }
    file.seek(SeekFrom::End(0))?;
    let mut out: Box<dyn Write> = Box::new(io::BufWriter::new(file));
    if !has_header {
        out.write_all(header.as_bytes())?;
    }
    out.flush()?;
    Ok(Output {
        out,
        resumed,
        progress: Progress::none(),
    })
}

/// Confirms, item by item, that a resumed output holds the records of the input's first items.
pub struct ResumeCheck {
    keys: Vec<u64>,
    confirmed: usize,
    out_name: String,
}

impl ResumeCheck {
    /// Records the output already holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Checks the next resumed item, whose record key is `key`; `item` names it in the error
    /// (`position`, `game`) and `describe` says where it is in the input.
    pub fn confirm(
        &mut self,
        key: &str,
        item: &str,
        describe: impl FnOnce() -> String,
    ) -> io::Result<()> {
        let number = self.confirmed + 1;
        if self.keys.get(self.confirmed) != Some(&fingerprint(key)) {
            return Err(io::Error::other(format!(
                "cannot resume: {item} {number} of {} is not {item} {number} of the input ({}); \
                 it was written from another input or shard",
                self.out_name,
                describe()
            )));
        }
        self.confirmed += 1;
        Ok(())
    }

    /// After the run: an error when the output holds more records than the input has items.
    pub fn finish(&self, items: &str) -> anyhow::Result<()> {
        if self.confirmed < self.keys.len() {
            bail!(
                "cannot resume: {} holds {} {items} but the input has only {}; \
                 it was written from another input",
                self.out_name,
                self.keys.len(),
                self.confirmed
            );
        }
        Ok(())
    }
}

/// What the end of a run needs to know from its summary.
pub struct Ended {
    /// A signal stopped the run.
    pub interrupted: bool,
    /// Items finished and written in this run.
    pub done: usize,
    /// Items the resumed output already had.
    pub resumed: usize,
}

/// Ends a run: stops the progress and hands back the summary, or the exit code to return at
/// once: 0 when the reader of standard output went away (`| head`, as pipes expect), 130
/// after saying what an interrupted run wrote (`items` names one and many). An error when a
/// resumed output holds more records than the input has items.
pub fn end_run<S>(
    batch: &BatchArgs,
    output: &mut Output,
    result: Result<S, BatchError>,
    items: (&str, &str),
    ended: impl FnOnce(&S) -> Ended,
) -> anyhow::Result<Result<S, i32>> {
    output.progress.finish();
    let summary = match result {
        Ok(summary) => summary,
        Err(BatchError::Sink(error)) if error.kind() == io::ErrorKind::BrokenPipe => {
            return Ok(Err(EXIT_OK))
        }
        Err(BatchError::Sink(error)) => bail!("{error}"),
        Err(error) => return Err(error.into()),
    };
    let Ended {
        interrupted,
        done,
        resumed: before,
    } = ended(&summary);
    if interrupted {
        let again = if batch.output.is_some() {
            "; run the same command with --resume to finish"
        } else {
            ""
        };
        eprintln!(
            "interrupted: {done} {} finished and written to {} ({} in all){again}",
            if done == 1 { items.0 } else { items.1 },
            batch.output_name(),
            before + done,
        );
        return Ok(Err(EXIT_INTERRUPTED));
    }
    output.resumed.finish(items.1)?;
    Ok(Ok(summary))
}

/// The exit code of a run that went to the end: 130 when a signal came after the last item
/// (everything is written all the same), else 1 when a check found something `wrong`, 2 when
/// `bad` input was skipped, 0 otherwise.
pub fn exit_code(wrong: bool, bad: bool) -> i32 {
    if interrupt().is_set() {
        EXIT_INTERRUPTED
    } else if wrong {
        EXIT_WRONG
    } else if bad {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
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
pub struct Progress {
    bar: Option<ProgressBar>,
    counters: Arc<Counters>,
    ticker: Option<JoinHandle<()>>,
    start: Instant,
}

impl Progress {
    /// No progress shown (`--quiet`).
    pub fn none() -> Progress {
        Progress {
            bar: None,
            counters: Arc::default(),
            ticker: None,
            start: Instant::now(),
        }
    }

    /// Starts showing the progress of `total` items (if known) called `unit` (`positions`).
    pub fn start(total: Option<usize>, unit: &'static str) -> Progress {
        let mut progress = Progress::none();
        if io::stderr().is_terminal() {
            let (bar, template) = match total {
                Some(total) => (
                    ProgressBar::new(total as u64),
                    format!("{{spinner}} {{pos}}/{{len}} {unit} [{{wide_bar}}] {{elapsed_precise}} ETA {{eta}} {{msg}}"),
                ),
                None => (
                    ProgressBar::new_spinner(),
                    format!("{{spinner}} {{pos}} {unit} {{elapsed_precise}} {{msg}}"),
                ),
            };
            let style = ProgressStyle::with_template(&template)
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
                            progress_line(
                                counters.done.load(Ordering::SeqCst),
                                total,
                                unit,
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

    /// One more item done, after searching `nodes`.
    pub fn advance(&self, nodes: u64) {
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
    pub fn message(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// Stops showing the progress.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.counters.finished.store(true, Ordering::SeqCst);
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
    }
}
