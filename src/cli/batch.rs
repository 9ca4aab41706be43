//! What `osolve analyze` and `osolve games` share on the command line: the output, resume,
//! shard and progress options; opening the output (or, with `--resume`, reading it back and
//! trimming a record cut short); checking that a resumed output was written from the same
//! input; the progress bar (or plain progress line) on standard error; and the message of an
//! interrupted run. The work itself is the library's batch driver (`osolve::drivers::batch`).

use super::args::SearchArgs;
use super::exit::{EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_WRONG};
use super::interrupt::interrupt;
use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use osolve::drivers::batch::{self, BatchError, Shard, PARALLEL_MAX_EMPTIES};
use osolve::report::batch::{fingerprint, progress_line, OptionsRecord, Written};
use osolve::report::live::progress_text;
use osolve::search::ProgressFn;
use osolve::units::{format_duration, format_mnps, remaining};
use std::fmt::Display;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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
    ) {
        let unit = items.1;
        if !self.quiet {
            let left = works().map(|works| {
                let left = works.get(output.resumed.len()..).unwrap_or_default();
                (left.len(), left.iter().sum())
            });
            output.progress = Progress::start(left, unit);
        }
        // A second signal ends the process at once: it still says what was written.
        let counters = output.progress.counters.clone();
        let bar = output.progress.bar.clone();
        let (before, name) = (output.resumed.len(), self.output_name());
        let again = self.output.is_some();
        interrupt().set_farewell(Box::new(move || {
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            let done = counters.done.load(Ordering::SeqCst);
            interrupted_message(done, before, items, &name, again)
        }));
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
    /// Standard output or the file, each record flushed as written; its errors name it.
    pub out: Box<dyn Write>,
    /// Checks the resumed records against the input.
    pub resumed: ResumeCheck,
    /// The progress shown on standard error.
    pub progress: Progress,
}

impl Output {
    /// A new output (not resumed) into `out`, its header written and flushed; no progress.
    fn fresh(
        mut out: Box<dyn Write>,
        header: &str,
        resumed: ResumeCheck,
    ) -> anyhow::Result<Output> {
        out.write_all(header.as_bytes())?;
        out.flush()?;
        Ok(Output {
            out,
            resumed,
            progress: Progress::none(),
        })
    }

    /// Writes and flushes one finished item's record, and counts it in the progress with its
    /// nodes and its `work` (the number [`batch::work`] gave it).
    pub fn write(&mut self, record: &str, nodes: u64, work: f64) -> io::Result<()> {
        self.out.write_all(record.as_bytes())?;
        self.out.flush()?;
        self.progress.advance(nodes, work);
        Ok(())
    }
}

/// What makes the results of two runs comparable: the options that change a result, each
/// with its value in this run, recorded in the output (by [`ResultOptions::line`]) so that
/// `--resume` refuses to mix results made with other options. A file without the record was
/// written with the default options (as every output before the record existed).
pub struct ResultOptions {
    /// Each option that changes a result: its flag (`--wld`), its value in this run (`None`
    /// when not given; an empty value for a flag given) and its default value (`None` for a
    /// flag, or an option such as `--empties N` whose absence is its default).
    pub options: Vec<(&'static str, Option<String>, Option<&'static str>)>,
    /// How the output writes the record of the canonical text, and reads it back.
    pub record: OptionsRecord,
}

impl ResultOptions {
    /// The canonical text: the options whose value is not the default, in a fixed order
    /// (`--best-only --wld --rules reversi`); empty for the default options.
    pub fn canonical(&self) -> String {
        let mut parts = Vec::new();
        for (flag, value, default) in &self.options {
            match (value, default) {
                (Some(value), Some(default)) if value != default => {
                    parts.push(format!("{flag} {value}"))
                }
                (Some(value), None) if value.is_empty() => parts.push(flag.to_string()),
                (Some(value), None) => parts.push(format!("{flag} {value}")),
                _ => {}
            }
        }
        parts.join(" ")
    }

    /// The record as a line of the output; empty for the default options (the outputs of
    /// a default run are as they always were).
    pub fn line(&self) -> String {
        let text = self.canonical();
        if text.is_empty() {
            String::new()
        } else {
            self.record.write(&text)
        }
    }

    /// How an option reads in a message: `with --wld`, `without --wld`, `with --rules reversi`.
    fn describe(flag: &str, value: Option<&str>, default: Option<&str>) -> String {
        match (value, default) {
            // An empty default is the option's absence (`--depth N` or exact scores).
            (None | Some(""), Some("")) => format!("without {flag}"),
            (Some(value), Some(_)) => format!("with {flag} {value}"),
            (None, Some(default)) => format!("with {flag} {default}"),
            (Some(""), None) => format!("with {flag}"),
            (Some(value), None) => format!("with {flag} {value}"),
            (None, None) => format!("without {flag}"),
        }
    }

    /// `None` when `recorded` (a canonical text read back) names the options of this run,
    /// else the first option that differs, as a message.
    pub fn differs(&self, recorded: &str) -> Option<String> {
        let tokens: Vec<&str> = recorded.split_whitespace().collect();
        // The recorded value of each flag: a following token that is not a flag is its value.
        let mut found: Vec<(&str, Option<&str>)> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let value = tokens.get(i + 1).filter(|t| !t.starts_with("--")).copied();
            found.push((tokens[i], value));
            i += if value.is_some() { 2 } else { 1 };
        }
        if let Some((flag, _)) = found
            .iter()
            .find(|(flag, _)| !self.options.iter().any(|(f, _, _)| f == flag))
        {
            return Some(format!(
                "its results were made with {flag}, which this version does not know"
            ));
        }
        for (flag, value, default) in &self.options {
            let recorded = found.iter().find(|(f, _)| f == flag).map(|&(_, v)| v);
            let then = match (recorded, default) {
                (None, _) => None,
                (Some(v), Some(_)) => v.map(str::to_string),
                (Some(v), None) => Some(v.unwrap_or_default().to_string()),
            };
            let now = match (value, default) {
                (Some(v), Some(d)) if v == d => None,
                (Some(v), _) => Some(v.clone()),
                (None, _) => None,
            };
            if then != now {
                let as_text = |v: &Option<String>| Self::describe(flag, v.as_deref(), *default);
                return Some(format!(
                    "it was written {}, this run is {} (results of other options would be mixed)",
                    as_text(&then),
                    as_text(&now)
                ));
            }
        }
        None
    }
}

/// A file output that a resumed run continues: the record cut short at its end is trimmed
/// (and a missing header written) only when the first new record comes, after every check
/// of the resume has passed, so that a refused resume leaves the file as it was.
struct Continued {
    file: io::BufWriter<File>,
    /// The length to trim the file to, and the header to write, before the first write.
    pending: Option<(u64, String)>,
}

impl Write for Continued {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if let Some((keep, header)) = self.pending.take() {
            let file = self.file.get_mut();
            file.set_len(keep)?;
            file.seek(SeekFrom::End(0))?;
            self.file.write_all(header.as_bytes())?;
        }
        self.file.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// A writer whose errors name what it writes to (`cannot write out.obf: No space left on
/// device`), so that a full disk or a closed pipe says which output failed.
struct Named<W> {
    name: String,
    inner: W,
}

impl<W: Write> Named<W> {
    fn new(name: &dyn Display, inner: W) -> Self {
        Named {
            name: name.to_string(),
            inner,
        }
    }

    fn named(&self, error: io::Error) -> io::Error {
        io::Error::new(error.kind(), format!("cannot write {}: {error}", self.name))
    }
}

impl<W: Write> Write for Named<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.inner.write(bytes).map_err(|e| self.named(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| self.named(e))
    }
}

/// Opens the output: standard output, a new (truncated) file, or with `--resume` the existing
/// file, whose whole records `written` reads back (the record cut short at its end is trimmed
/// only once the first new record is written). `header` is written at the top of a new output,
/// after the record of `options` in a file; a resumed output whose record differs from `options` is
/// refused before anything is changed. `format` names the format in messages.
pub fn open_output(
    args: &BatchArgs,
    header: &str,
    format: &dyn Display,
    options: &ResultOptions,
    written: impl FnOnce(BufReader<&mut File>, usize) -> Result<Written, String>,
) -> anyhow::Result<Output> {
    let mut resumed = ResumeCheck {
        keys: Vec::new(),
        confirmed: 0,
        out_name: args.output_name(),
    };
    // Standard output cannot be resumed: it gets no record of the options.
    let Some(path) = &args.output else {
        let out = Box::new(Named::new(&"standard output", io::stdout()));
        return Output::fresh(out, header, resumed);
    };
    let header = options.line() + header;
    if !args.resume {
        let file = File::create(path).with_context(|| format!("cannot open {}", path.display()))?;
        let out = Box::new(Named::new(&path.display(), io::BufWriter::new(file)));
        return Output::fresh(out, &header, resumed);
    }
    // Read only until every check has passed: a refused resume changes nothing.
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let cannot = |e: String| anyhow::anyhow!("cannot resume {} as {format}: {e}", path.display());
    let mut reader = BufReader::new(&mut file);
    let mut first = Vec::new();
    reader
        .read_until(b'\n', &mut first)
        .map_err(|e| cannot(format!("cannot read line 1: {e}")))?;
    let first_text = first
        .strip_suffix(b"\n")
        .and_then(|line| std::str::from_utf8(line).ok());
    let recorded = first_text.and_then(|line| options.record.read(line));
    let (found, skipped) = match &recorded {
        Some(text) => {
            if let Some(difference) = options.differs(text) {
                bail!("cannot resume {}: {difference}", path.display());
            }
            let found = written(reader, 2).map_err(cannot)?;
            (found, first.len() as u64)
        }
        None => {
            // No record: the default options (a file of an earlier version, or a new one).
            if let Some(difference) = options.differs("") {
                if first.ends_with(b"\n") {
                    bail!("cannot resume {}: {difference}", path.display());
                }
            }
            drop(reader);
            file.seek(SeekFrom::Start(0))?;
            (written(BufReader::new(&mut file), 1).map_err(cannot)?, 0)
        }
    };
    resumed.keys = found.keys;
    let keep = skipped + found.keep;
    // A resumed file with no whole line yet gets the record and the header of a new one.
    let pending_header = if keep == 0 {
        header
    } else if found.has_header {
        String::new()
    } else {
        header[options.line().len()..].to_string()
    };
    let pending = (keep != file.metadata()?.len() || !pending_header.is_empty())
        .then_some((keep, pending_header));
    file.seek(SeekFrom::End(0))?;
    let continued = Continued {
        file: io::BufWriter::new(file),
        pending,
    };
    let out: Box<dyn Write> = Box::new(Named::new(&path.display(), continued));
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
        let message = interrupted_message(
            done,
            before,
            items,
            &batch.output_name(),
            batch.output.is_some(),
        );
        eprintln!("{message}");
        return Ok(Err(EXIT_INTERRUPTED));
    }
    output.resumed.finish(items.1)?;
    Ok(Ok(summary))
}

/// What an interrupted run says: `interrupted: 14 positions finished and written to ffo.obf
/// (14 in all); run the same command with --resume to finish` (`done` in this run, `before`
/// already in the output; `items` names one and many; the advice only for a file output).
fn interrupted_message(
    done: usize,
    before: usize,
    items: (&str, &str),
    output_name: &str,
    file: bool,
) -> String {
    let again = if file {
        "; run the same command with --resume to finish"
    } else {
        ""
    };
    format!(
        "interrupted: {done} {} finished and written to {output_name} ({} in all){again}",
        if done == 1 { items.0 } else { items.1 },
        before + done,
    )
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
    /// The work of the items done (see [`batch::work`]) and the time the last of them was
    /// done at, since the start.
    work: Mutex<(f64, Duration)>,
}

impl Counters {
    /// The time left at `elapsed`: the work left at the pace of the work done until the last
    /// item was done, less the time since (`None` when the work in all is not known, before
    /// the first item and after the last, and when the items under way take longer than
    /// their work predicts).
    fn eta(&self, total_work: Option<f64>, elapsed: Duration) -> Option<Duration> {
        let (done, at) = *self.work.lock().unwrap_or_else(|e| e.into_inner());
        remaining(at, done, total_work?)?.checked_sub(elapsed.saturating_sub(at))
    }
}

/// The progress on standard error: a bar on a terminal, a plain line every few seconds
/// otherwise, or nothing with `--quiet`.
pub struct Progress {
    bar: Option<ProgressBar>,
    counters: Arc<Counters>,
    /// The work of all the items to do, when known.
    total_work: Option<f64>,
    ticker: Option<JoinHandle<()>>,
    start: Instant,
}

impl Progress {
    /// No progress shown (`--quiet`).
    pub fn none() -> Progress {
        Progress {
            bar: None,
            counters: Arc::default(),
            total_work: None,
            ticker: None,
            start: Instant::now(),
        }
    }

    /// Starts showing the progress of the items to do, if their number and work are known
    /// (`(items, work)`), called `unit` (`positions`). The ETA comes from the work: a deep
    /// position counts for many shallow ones.
    pub fn start(left: Option<(usize, f64)>, unit: &'static str) -> Progress {
        let mut progress = Progress::none();
        let total = left.map(|(items, _)| items);
        progress.total_work = left.map(|(_, work)| work);
        if io::stderr().is_terminal() {
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
            bar.set_prefix("ETA -");
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(200));
            progress.bar = Some(bar);
        } else {
            let counters = progress.counters.clone();
            let (start, total_work) = (progress.start, progress.total_work);
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
                                start.elapsed(),
                                counters.eta(total_work, start.elapsed())
                            )
                        );
                    }
                }
            }));
        }
        progress
    }

    /// One more item done, after searching `nodes`, of `work` (see [`batch::work`]).
    pub fn advance(&self, nodes: u64, work: f64) {
        self.counters.done.fetch_add(1, Ordering::SeqCst);
        let all = self.counters.nodes.fetch_add(nodes, Ordering::SeqCst) + nodes;
        {
            let mut done = self.counters.work.lock().unwrap_or_else(|e| e.into_inner());
            *done = (done.0 + work, self.start.elapsed());
        }
        if let Some(bar) = &self.bar {
            bar.inc(1);
            let eta = self.counters.eta(self.total_work, self.start.elapsed());
            bar.set_prefix(match eta {
                Some(left) => format!("ETA {}", format_duration(left)),
                None => "ETA -".to_string(),
            });
            let seconds = self.start.elapsed().as_secs_f64();
            if seconds > 0.0 {
                bar.set_message(format_mnps(all as f64 / seconds));
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eta_counts_down_from_the_pace_of_the_work_done() {
        let counters = Counters::default();
        let s = Duration::from_secs;
        assert_eq!(counters.eta(Some(11.0), s(1)), None, "nothing done yet");
        // One unit of 11 done after 2 s: 20 s left then, 15 s five seconds later.
        *counters.work.lock().unwrap() = (1.0, s(2));
        assert_eq!(counters.eta(Some(11.0), s(2)), Some(s(20)));
        assert_eq!(counters.eta(Some(11.0), s(7)), Some(s(15)));
        assert_eq!(
            counters.eta(Some(11.0), s(30)),
            None,
            "slower than predicted"
        );
        assert_eq!(counters.eta(None, s(2)), None, "work unknown");
    }
}
