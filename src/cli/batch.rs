//! What `osolve analyze` and `osolve games` share on the command line: the output, resume,
//! shard and progress options, the progress bar (or plain progress line) on standard error,
//! and the end of a run (its message when interrupted, its exit code). Opening, resuming and
//! checking the output, and its counts, are the library's (`osolve::drivers::output`); the
//! work itself is its batch driver (`osolve::drivers::batch`).

use super::args::SearchArgs;
use super::exit::{EXIT_INTERRUPTED, EXIT_OK};
use super::interrupt::interrupt;
use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use osolve::drivers::batch::{self, BatchError, Shard, PARALLEL_MAX_EMPTIES};
use osolve::drivers::output::{Counters, Output};
use osolve::report::batch::{eta_text, interrupted_message, progress_line};
use osolve::report::live::progress_text;
use osolve::search::ProgressFn;
use osolve::units::format_mnps;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

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
    #[arg(long, default_value_t = PARALLEL_MAX_EMPTIES)]
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

    /// Shows the progress of the items whose work `works` gives, one number an item in input
    /// order (`None` when it cannot be known; see [`batch::work`]), or nothing with `--quiet`;
    /// the records `output` already holds, the first ones, are not counted again. `items`
    /// names one item and many (`("game", "games")`).
    pub fn show_progress(
        &self,
        output: &mut Output,
        works: impl FnOnce() -> Option<Vec<f64>>,
        items: (&'static str, &'static str),
    ) -> Progress {
        let progress = if self.quiet {
            Progress::none()
        } else {
            let counters = output.count_from_now(works());
            Progress::start(output, counters, items.1)
        };
        // A second signal ends the process at once: it still says what was written.
        let counters = output.counters();
        let bar = progress.bar.clone();
        let (before, name) = (output.resumed.len(), output.name().to_string());
        let again = self.output.is_some();
        interrupt().set_farewell(Box::new(move || {
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            interrupted_message(counters.done(), before, items, &name, again)
        }));
        progress
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
    /// No input held a single item (each is said to be empty): bad input, and a new output
    /// is left as it was.
    pub empty: bool,
}

/// Ends a run: stops the `progress` and hands back the summary, or the exit code to return at
/// once: 0 when the reader of standard output went away (`| head`, as pipes expect), 130
/// after saying what an interrupted run wrote (`items` names one and many). A new `output`
/// that no record began is begun here (emptied, its header written), unless the run failed
/// before it started (its error is returned: the solvers' tables could not be made) or its
/// inputs held nothing: then a file is left as it was. An error when a resumed output holds
/// more records than the input has items.
pub fn end_run<S>(
    batch: &BatchArgs,
    output: &mut Output,
    progress: &mut Progress,
    result: Result<S, BatchError>,
    items: (&str, &str),
    ended: impl FnOnce(&S) -> Ended,
) -> anyhow::Result<Result<S, i32>> {
    progress.finish();
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
        empty,
    } = ended(&summary);
    if interrupted || !empty {
        match output.begin() {
            Ok(()) => {}
            // The reader of standard output went away, as above (a signal still wins).
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                if !interrupted {
                    return Ok(Err(EXIT_OK));
                }
            }
            Err(error) => bail!("{error}"),
        }
    }
    if interrupted {
        let file = batch.output.is_some();
        stderr_line!(
            "{}",
            interrupted_message(done, before, items, output.name(), file)
        );
        return Ok(Err(EXIT_INTERRUPTED));
    }
    output.resumed.finish(items.1)?;
    Ok(Ok(summary))
}

/// The exit code of a run that went to the end ([`super::exit::exit_code`]): 130 when a signal
/// came after the last item (everything is written all the same), else 1 when a check found
/// something `wrong`, 2 when `bad` input was skipped, 0 otherwise.
pub fn exit_code(wrong: bool, bad: bool) -> i32 {
    super::exit::exit_code(interrupt().is_set(), wrong, bad)
}

/// The progress on standard error: a bar on a terminal, a plain line every few seconds
/// otherwise, or nothing with `--quiet`.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Tells the plain line's thread to stop.
    finished: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl Progress {
    /// No progress shown (`--quiet`).
    fn none() -> Progress {
        Progress {
            bar: None,
            finished: Arc::default(),
            ticker: None,
        }
    }

    /// Starts showing the progress that `counters` count (of `output`'s records), the items
    /// called `unit` (`positions`).
    fn start(output: &mut Output, counters: Arc<Counters>, unit: &'static str) -> Progress {
        let mut progress = Progress::none();
        let total = counters.items();
        if !io::stderr().is_terminal() {
            let finished = progress.finished.clone();
            progress.ticker = Some(std::thread::spawn(move || {
                let mut next = PLAIN_PROGRESS_EVERY;
                while !finished.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(100));
                    let elapsed = counters.elapsed();
                    if elapsed >= next {
                        next += PLAIN_PROGRESS_EVERY;
                        let (done, nodes) = (counters.done(), counters.nodes());
                        let eta = counters.eta_at(elapsed);
                        let line = progress_line(done, total, unit, nodes, elapsed, eta);
                        stderr_line!("{line}");
                    }
                }
            }));
            return progress;
        }
        let (bar, template) = match total {
            Some(total) => (
                ProgressBar::new(total as u64),
                format!("{{spinner}} {{pos}}/{{len}} {unit} [{{wide_bar}}] {{elapsed_precise}} {{prefix}} {{msg}}"),
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
        bar.set_prefix(eta_text(None));
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.enable_steady_tick(Duration::from_millis(200));
        let shown = bar.clone();
        output.watch(move |counters| {
            shown.inc(1);
            shown.set_prefix(eta_text(counters.eta()));
            let seconds = counters.elapsed().as_secs_f64();
            if seconds > 0.0 {
                shown.set_message(format_mnps(counters.nodes() as f64 / seconds));
            }
        });
        progress.bar = Some(bar);
        progress
    }

    /// The callback that shows a deep position's search progress in the bar, in place of the
    /// speed (`None` without a bar).
    pub fn live(&self) -> Option<ProgressFn> {
        let bar = self.bar.clone()?;
        Some(ProgressFn::new(move |event| {
            bar.set_message(progress_text(event))
        }))
    }

    /// A line on standard error that the bar must not draw over.
    pub fn message(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| stderr_line!("{line}")),
            None => stderr_line!("{line}"),
        }
    }

    /// Stops showing the progress.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.finished.store(true, Ordering::SeqCst);
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
    }
}
