//! The output of a batch run (`osolve analyze`, `osolve games`): opening it (standard output, a
//! new file ([`NewFile`], emptied only when the run begins; `osolve gen` writes one too, and
//! `--resume` of a file that does not exist yet), or with `--resume` the existing file, read
//! back and its record cut short trimmed),
//! the checks that a resumed output was written with the same options ([`ResultOptions`]) and
//! from the same input ([`ResumeCheck`]), and the counts of the items written with the time
//! left ([`Counters`]). Its errors are typed ([`OutputError`], [`ResumeError`]).
//!
//! What a record looks like, and how a format's records are read back, is `report`'s: this
//! module gets the reader as a function and the record of the options as an [`OptionsLine`].
//! It never prints and knows nothing of terminals or arguments.

use std::fmt::Display;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::units::remaining;

/// The name of standard output in messages.
pub const STANDARD_OUTPUT: &str = "standard output";

/// What an existing output holds, for `--resume`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The [`fingerprint`] of the key of every whole record, in order (8 bytes a record
    /// however long the output): a position's board string, a game's name and moves.
    pub keys: Vec<u64>,
    /// Bytes to keep: the whole records (and the CSV header). Anything after it is a record cut
    /// short by an interruption, to be written again.
    pub keep: u64,
    /// Whether the kept bytes already hold the header.
    pub has_header: bool,
}

/// A 64-bit fingerprint of a record's key (FNV-1a), to compare a resumed output's records with
/// the input's without keeping the strings.
pub fn fingerprint(key: &str) -> u64 {
    key.bytes().fold(0xCBF2_9CE4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// How an output's format records the options of a run in its first line, and reads them back
/// (`report::batch::OptionsRecord` for the formats of `analyze` and `games`).
pub trait OptionsLine {
    /// The record line of the canonical text `options`, with its newline.
    fn write(&self, options: &str) -> String;
    /// The canonical text that `line` (without its newline) records; `None` when it is not a
    /// record.
    fn read(&self, line: &str) -> Option<String>;
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
    pub record: Box<dyn OptionsLine>,
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

    /// `None` when `recorded` (a canonical text read back) names the options of this run,
    /// else the first option that differs.
    pub fn differs(&self, recorded: &str) -> Option<OptionsDifference> {
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
            return Some(OptionsDifference::Unknown {
                flag: flag.to_string(),
            });
        }
        for &(flag, ref value, default) in &self.options {
            let recorded = found.iter().find(|(f, _)| *f == flag).map(|&(_, v)| v);
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
                return Some(OptionsDifference::Changed {
                    flag,
                    default,
                    then,
                    now,
                });
            }
        }
        None
    }
}

/// How the options recorded in a resumed output differ from this run's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsDifference {
    /// The record names an option this version does not have.
    #[error("its results were made with {flag}, which this version does not know")]
    Unknown {
        /// The option as recorded.
        flag: String,
    },
    /// An option's value differs.
    #[error(
        "it was written {}, this run is {} (results of other options would be mixed)",
        with_or_without(.flag, .then, .default),
        with_or_without(.flag, .now, .default)
    )]
    Changed {
        /// The option (`--wld`).
        flag: &'static str,
        /// Its default value (see [`ResultOptions::options`]).
        default: Option<&'static str>,
        /// Its value in the output: `None` when not recorded, empty for a flag.
        then: Option<String>,
        /// Its value in this run, the same way.
        now: Option<String>,
    },
}

/// How an option reads in a message: `with --wld`, `without --wld`, `with --rules reversi`.
fn with_or_without(flag: &str, value: &Option<String>, default: &Option<&str>) -> String {
    match (value.as_deref(), default) {
        // An empty default is the option's absence (`--depth N` or exact scores).
        (None | Some(""), Some("")) => format!("without {flag}"),
        (Some(value), Some(_)) => format!("with {flag} {value}"),
        (None, Some(default)) => format!("with {flag} {default}"),
        (Some(""), None) => format!("with {flag}"),
        (Some(value), None) => format!("with {flag} {value}"),
        (None, None) => format!("without {flag}"),
    }
}

/// Why an output cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The file cannot be created, or (`--resume`) opened to be read and written.
    #[error("cannot open {}", .path.display())]
    Open {
        /// The output file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The existing output cannot be continued.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// Reading a resumed file's length or position failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Why a resumed output cannot be continued: found when it is opened (the first two), or as
/// the run meets the input again (the last two).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// The output does not read as records of its format.
    #[error("cannot resume {} as {format}: {reason}", .path.display())]
    Unreadable {
        /// The output file.
        path: PathBuf,
        /// The format's name.
        format: String,
        /// What the format's reader says (`line 3 is not an analysis record in OBF`).
        reason: String,
    },
    /// Its results were made with other options.
    #[error("cannot resume {}: {difference}", .path.display())]
    OtherOptions {
        /// The output file.
        path: PathBuf,
        /// The first option that differs.
        difference: OptionsDifference,
    },
    /// A record is not the one of the input's item at its place.
    #[error(
        "cannot resume: {item} {number} of {output} is not {item} {number} of the input \
         ({found}); it was written from another input or shard"
    )]
    NotTheInput {
        /// What an item is (`position`, `game`).
        item: String,
        /// The item's number, from 1.
        number: usize,
        /// The output's name.
        output: String,
        /// Where the item is in the input, and what it is.
        found: String,
    },
    /// The output holds more records than the input has items.
    #[error(
        "cannot resume: {output} holds {held} {items} but the input has only {input}; it was \
         written from another input"
    )]
    TooMany {
        /// The output's name.
        output: String,
        /// The records it holds.
        held: usize,
        /// What many items are (`positions`, `games`).
        items: String,
        /// The items of the input.
        input: usize,
    },
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

/// A new output file that is emptied only when its run begins: opened at once (created when
/// missing), so that a path that cannot be written stops a command before it starts, but cut
/// to nothing only at its first write or [`NewFile::begin`]. A command that fails before that
/// (no memory for its tables, an input without a single item) leaves an existing file as it
/// was, and removes the file it created (when the value is dropped).
pub struct NewFile {
    file: File,
    path: PathBuf,
    /// The file was emptied (or written).
    begun: bool,
    /// The file did not exist before: removed if the run never begins.
    created: bool,
}

impl NewFile {
    /// Opens `path` for a new output, creating it when missing; nothing in it changes yet.
    pub fn create(path: &Path) -> io::Result<NewFile> {
        let (file, created) = match OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(file) => (file, true),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                let file = OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(path)?;
                (file, false)
            }
            Err(error) => return Err(error),
        };
        Ok(NewFile {
            file,
            path: path.to_path_buf(),
            begun: false,
            created,
        })
    }

    /// Begins the run's output: empties the file (as `File::create` would: only a regular
    /// file has a length to cut; a device or a pipe is written as it is). Done once.
    pub fn begin(&mut self) -> io::Result<()> {
        if !self.begun {
            if self.file.metadata()?.is_file() {
                self.file.set_len(0)?;
            }
            self.begun = true;
        }
        Ok(())
    }
}

impl Write for NewFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.begin()?;
        self.file.write(bytes)
    }

    /// Flushes what was written; before the first write it leaves the file as it is.
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        if self.created && !self.begun {
            // A run that never began leaves no file of its own behind.
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A writer of an output that can wait before it begins (see [`Output::begin`]): standard
/// output, a [`NewFile`] (emptied when it begins), a resumed output. `gen` writes through one too.
pub trait Begin: Write {
    /// Begins the output: a [`NewFile`] is emptied; other writers have nothing to do.
    fn begin(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<B: Begin + ?Sized> Begin for Box<B> {
    fn begin(&mut self) -> io::Result<()> {
        (**self).begin()
    }
}

impl Begin for io::Stdout {}

/// A resumed output has nothing to begin: its record cut short is trimmed at its first write.
impl Begin for Continued {}

impl Begin for NewFile {
    fn begin(&mut self) -> io::Result<()> {
        NewFile::begin(self)
    }
}

/// A writer whose errors name what it writes to (`cannot write out.obf: No space left on
/// device`), so that a full disk or a closed pipe says which output failed.
struct Named<W> {
    name: String,
    inner: W,
}

impl<W: Write> Named<W> {
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

impl<W: Begin> Begin for Named<W> {
    fn begin(&mut self) -> io::Result<()> {
        self.inner.begin().map_err(|e| self.named(e))
    }
}

/// Where the records of a run go, the check of those a resumed output already holds, and the
/// counts of the records written.
pub struct Output {
    /// Standard output or the file, each record flushed as written; its errors name it.
    out: Named<Box<dyn Begin>>,
    /// Its name in messages: the path, or [`STANDARD_OUTPUT`].
    name: String,
    /// The header (and record of the options) of a new output, until it begins.
    header: Option<String>,
    /// Checks the resumed records against the input.
    pub resumed: ResumeCheck,
    counters: Arc<Counters>,
    watcher: Option<Watcher>,
}

/// Told of the counts after every record written (a progress bar).
pub type Watcher = Box<dyn FnMut(&Counters)>;

impl Output {
    /// Opens the output: standard output (`path` is `None`), a new file ([`NewFile`]: emptied
    /// only when the run begins; with `resume` too when the file does not exist), or with
    /// `resume` the existing file, whose whole records
    /// `written` reads back (handed the reader and the number of the line it starts at; the
    /// record cut short at the end is trimmed only once the first new record is written).
    /// `header` is written at the top of a new output, after the record of `options` in a
    /// file, when it begins ([`Output::begin`]); a resumed output whose record differs from
    /// `options` is refused before anything is changed. `format` names the format in messages.
    pub fn open(
        path: Option<&Path>,
        resume: bool,
        header: &str,
        format: &dyn Display,
        options: &ResultOptions,
        written: impl FnOnce(BufReader<&mut File>, usize) -> Result<Written, String>,
    ) -> Result<Output, OutputError> {
        // Standard output cannot be resumed: it gets no record of the options.
        let Some(path) = path else {
            let out = Box::new(io::stdout());
            return Ok(Output::fresh(out, STANDARD_OUTPUT.to_string(), header));
        };
        let name = path.display().to_string();
        let header = options.line() + header;
        let cannot_open = |source| OutputError::Open {
            path: path.to_path_buf(),
            source,
        };
        if !resume {
            let file = NewFile::create(path).map_err(cannot_open)?;
            return Ok(Output::fresh(Box::new(file), name, &header));
        }
        // Read only until every check has passed: a refused resume changes nothing.
        let mut file = match OpenOptions::new().read(true).write(true).open(path) {
            Ok(file) => file,
            // Nothing to resume: a new output, made only when the run begins (as without
            // `resume`), so that a run that fails before it leaves no file behind.
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                let file = NewFile::create(path).map_err(cannot_open)?;
                return Ok(Output::fresh(Box::new(file), name, &header));
            }
            Err(error) => return Err(cannot_open(error)),
        };
        let cannot = |reason: String| ResumeError::Unreadable {
            path: path.to_path_buf(),
            format: format.to_string(),
            reason,
        };
        let other_options = |difference| ResumeError::OtherOptions {
            path: path.to_path_buf(),
            difference,
        };
        let mut reader = BufReader::new(&mut file);
        let mut first = Vec::new();
        reader
            .read_until(b'\n', &mut first)
            .map_err(|e| cannot(format!("cannot read line 1: {e}")))?;
        let first_text = first
            .strip_suffix(b"\n")
            .and_then(|line| std::str::from_utf8(line).ok());
        let (found, skipped) = match first_text.and_then(|line| options.record.read(line)) {
            Some(recorded) => {
                if let Some(difference) = options.differs(&recorded) {
                    return Err(other_options(difference).into());
                }
                let found = written(reader, 2).map_err(cannot)?;
                (found, first.len() as u64)
            }
            None => {
                // No record: the default options (a file of an earlier version, or a new one).
                if let Some(difference) = options.differs("") {
                    if first.ends_with(b"\n") {
                        return Err(other_options(difference).into());
                    }
                }
                drop(reader);
                file.seek(SeekFrom::Start(0))?;
                (written(BufReader::new(&mut file), 1).map_err(cannot)?, 0)
            }
        };
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
        let mut output = Output::new(Box::new(continued), name);
        output.resumed.keys = found.keys;
        Ok(output)
    }

    /// An output into `inner` called `name`, holding nothing yet.
    fn new(inner: Box<dyn Begin>, name: String) -> Output {
        Output {
            out: Named {
                name: name.clone(),
                inner,
            },
            header: None,
            resumed: ResumeCheck {
                keys: Vec::new(),
                confirmed: 0,
                out_name: name.clone(),
            },
            name,
            counters: Arc::new(Counters::new(None)),
            watcher: None,
        }
    }

    /// A new output (not resumed) into `inner`, its header written when it begins.
    fn fresh(inner: Box<dyn Begin>, name: String, header: &str) -> Output {
        let mut output = Output::new(inner, name);
        output.header = Some(header.to_string());
        output
    }

    /// Begins a new output, once: a new file is emptied, and the header written and flushed.
    /// The first record begins it; a run that writes none begins it at its end, unless it
    /// failed before it began (no memory for its tables, an input without an item): such a
    /// run leaves the file as it was. A resumed output has nothing to begin.
    pub fn begin(&mut self) -> io::Result<()> {
        if let Some(header) = self.header.take() {
            self.out.begin()?;
            self.out.write_all(header.as_bytes())?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// The output's name in messages: its path, or [`STANDARD_OUTPUT`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes and flushes one finished item's record, and counts it with its nodes and its
    /// `work` (the number `drivers::batch::work` gave it).
    pub fn write(&mut self, record: &str, nodes: u64, work: f64) -> io::Result<()> {
        self.begin()?;
        self.out.write_all(record.as_bytes())?;
        self.out.flush()?;
        self.counters.advance(nodes, work);
        if let Some(watcher) = &mut self.watcher {
            watcher(&self.counters);
        }
        Ok(())
    }

    /// Counts afresh, from now, the items left: `works` gives the work of every item of the
    /// input in order (`None` when it cannot be known; see `drivers::batch::work`), of which
    /// those the output already holds, the first ones, are not counted again.
    pub fn count_from_now(&mut self, works: Option<Vec<f64>>) -> Arc<Counters> {
        let left = works.map(|works| {
            let left = works.get(self.resumed.len()..).unwrap_or_default();
            (left.len(), left.iter().sum())
        });
        self.counters = Arc::new(Counters::new(left));
        self.counters.clone()
    }

    /// The counts of the records written.
    pub fn counters(&self) -> Arc<Counters> {
        self.counters.clone()
    }

    /// Has `watcher` told of the counts after every record written.
    pub fn watch(&mut self, watcher: impl FnMut(&Counters) + 'static) {
        self.watcher = Some(Box::new(watcher));
    }
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

    /// True when the output holds no record yet.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Checks the next resumed item, whose record key is `key`; `item` names it in the error
    /// (`position`, `game`) and `describe` says where it is in the input. The error is an
    /// [`io::Error`] holding a [`ResumeError::NotTheInput`], as sinks answer.
    pub fn confirm(
        &mut self,
        key: &str,
        item: &str,
        describe: impl FnOnce() -> String,
    ) -> io::Result<()> {
        if self.keys.get(self.confirmed) != Some(&fingerprint(key)) {
            return Err(io::Error::other(ResumeError::NotTheInput {
                item: item.to_string(),
                number: self.confirmed + 1,
                output: self.out_name.clone(),
                found: describe(),
            }));
        }
        self.confirmed += 1;
        Ok(())
    }

    /// After the run: an error when the output holds more records than the input has
    /// `items` (`positions`, `games`).
    pub fn finish(&self, items: &str) -> Result<(), ResumeError> {
        if self.confirmed < self.keys.len() {
            return Err(ResumeError::TooMany {
                output: self.out_name.clone(),
                held: self.keys.len(),
                items: items.to_string(),
                input: self.confirmed,
            });
        }
        Ok(())
    }
}

/// The counts of a run's records written since it started: items, nodes, and their work
/// against the work of all the items to do, for the time left. Shared with the threads that
/// show the progress.
pub struct Counters {
    start: Instant,
    /// The items to do and their work, when known.
    items: Option<usize>,
    total_work: Option<f64>,
    done: AtomicUsize,
    nodes: AtomicU64,
    /// The work of the items done and the time the last of them was done at, since the start.
    work: Mutex<(f64, Duration)>,
}

impl Counters {
    /// Counting from now, of `left` (the items to do and their work) when known.
    fn new(left: Option<(usize, f64)>) -> Counters {
        Counters {
            start: Instant::now(),
            items: left.map(|(items, _)| items),
            total_work: left.map(|(_, work)| work),
            done: AtomicUsize::new(0),
            nodes: AtomicU64::new(0),
            work: Mutex::new((0.0, Duration::ZERO)),
        }
    }

    /// One more item done, after searching `nodes`, of `work`.
    fn advance(&self, nodes: u64, work: f64) {
        self.done.fetch_add(1, Ordering::SeqCst);
        self.nodes.fetch_add(nodes, Ordering::SeqCst);
        let mut done = self.work.lock().unwrap_or_else(|e| e.into_inner());
        *done = (done.0 + work, self.start.elapsed());
    }

    /// Items done.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::SeqCst)
    }

    /// The items to do, when known.
    pub fn items(&self) -> Option<usize> {
        self.items
    }

    /// Nodes of the items done.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::SeqCst)
    }

    /// The time since counting started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time left (see [`Counters::eta_at`]).
    pub fn eta(&self) -> Option<Duration> {
        self.eta_at(self.elapsed())
    }

    /// The time left at `elapsed`: the work left at the pace of the work done until the last
    /// item was done, less the time since (`None` when the work in all is not known, before
    /// the first item and after the last, and when the items under way take longer than
    /// their work predicts).
    pub fn eta_at(&self, elapsed: Duration) -> Option<Duration> {
        let (done, at) = *self.work.lock().unwrap_or_else(|e| e.into_inner());
        remaining(at, done, self.total_work?)?.checked_sub(elapsed.saturating_sub(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// The record of a test format: `# osolve test <options>`.
    struct Hash;

    impl OptionsLine for Hash {
        fn write(&self, options: &str) -> String {
            format!("# osolve test {options}\n")
        }

        fn read(&self, line: &str) -> Option<String> {
            line.strip_prefix("# osolve test ").map(str::to_string)
        }
    }

    /// The options of a test command: `--wld` (a flag), `--rules` (default `othello`) and
    /// `--depth` (absent by default).
    fn options(wld: bool, rules: &str, depth: Option<u32>) -> ResultOptions {
        ResultOptions {
            options: vec![
                ("--wld", wld.then(String::new), None),
                ("--rules", Some(rules.to_string()), Some("othello")),
                ("--depth", depth.map(|d| d.to_string()), Some("")),
            ],
            record: Box::new(Hash),
        }
    }

    /// Reads back a test format from line `first`: one record a line, its key the line,
    /// with a header line `key` at the top.
    fn lines(mut reader: impl BufRead, first: usize) -> Result<Written, String> {
        let (mut keys, mut keep, mut has_header) = (Vec::new(), 0, false);
        let mut line = String::new();
        for number in first.. {
            line.clear();
            let read = reader.read_line(&mut line).map_err(|e| e.to_string())?;
            if !line.ends_with('\n') {
                break;
            }
            keep += read as u64;
            match line.trim_end() {
                "key" if !has_header => has_header = true,
                key if key.starts_with('-') => return Err(format!("line {number} is bad")),
                key => keys.push(fingerprint(key)),
            }
        }
        Ok(Written {
            keys,
            keep,
            has_header,
        })
    }

    fn resume(path: &Path, options: &ResultOptions) -> Result<Output, OutputError> {
        Output::open(
            Some(path),
            true,
            "key\n",
            &"TEST",
            options,
            |reader, first| lines(reader, first),
        )
    }

    #[test]
    fn the_canonical_options_leave_out_the_defaults() {
        assert_eq!(options(false, "othello", None).canonical(), "");
        assert_eq!(options(false, "othello", None).line(), "");
        let changed = options(true, "reversi", Some(12));
        assert_eq!(changed.canonical(), "--wld --rules reversi --depth 12");
        assert_eq!(
            changed.line(),
            "# osolve test --wld --rules reversi --depth 12\n"
        );
    }

    #[test]
    fn a_difference_of_options_names_the_first_option_that_differs() {
        let run = options(true, "othello", None);
        assert_eq!(run.differs("--wld"), None);
        assert_eq!(run.differs(&run.canonical()), None);
        let reversi_run = options(false, "reversi", Some(12));
        assert_eq!(reversi_run.differs("--rules reversi --depth 12"), None);
        let difference = run.differs("").unwrap();
        assert_eq!(
            difference,
            OptionsDifference::Changed {
                flag: "--wld",
                default: None,
                then: None,
                now: Some(String::new()),
            }
        );
        assert_eq!(
            difference.to_string(),
            "it was written without --wld, this run is with --wld (results of other options \
             would be mixed)"
        );
        let reversi = run.differs("--wld --rules reversi").unwrap().to_string();
        assert_eq!(
            reversi,
            "it was written with --rules reversi, this run is with --rules othello (results \
             of other options would be mixed)"
        );
        let depth = run.differs("--wld --depth 8").unwrap().to_string();
        assert_eq!(
            depth,
            "it was written with --depth 8, this run is without --depth (results of other \
             options would be mixed)"
        );
        assert_eq!(
            run.differs("--wld --colour blue").unwrap().to_string(),
            "its results were made with --colour, which this version does not know"
        );
    }

    #[test]
    fn a_resumed_output_keeps_its_whole_records_and_trims_the_cut_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let before = "# osolve test --wld\nkey\nfirst\nsecond\nthi";
        fs::write(&path, before).unwrap();
        let mut output = resume(&path, &options(true, "othello", None)).unwrap();
        assert_eq!(output.resumed.len(), 2);
        assert_eq!(output.name(), path.display().to_string());
        // Nothing is changed before the first new record.
        assert_eq!(fs::read_to_string(&path).unwrap(), before);
        output
            .resumed
            .confirm("first", "line", String::new)
            .unwrap();
        output
            .resumed
            .confirm("second", "line", String::new)
            .unwrap();
        output.write("third\n", 10, 1.0).unwrap();
        let after = "# osolve test --wld\nkey\nfirst\nsecond\nthird\n";
        assert_eq!(fs::read_to_string(&path).unwrap(), after);
        assert_eq!(output.counters().done(), 1);
        assert_eq!(output.counters().nodes(), 10);
        assert_eq!(output.resumed.finish("lines"), Ok(()));
    }

    #[test]
    fn a_resumed_output_without_a_whole_line_gets_the_record_and_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "# osolve te").unwrap();
        let mut output = resume(&path, &options(true, "othello", None)).unwrap();
        assert!(output.resumed.is_empty());
        output.write("first\n", 1, 1.0).unwrap();
        let after = "# osolve test --wld\nkey\nfirst\n";
        assert_eq!(fs::read_to_string(&path).unwrap(), after);
        // A file of the default options has no record, and none is added.
        fs::write(&path, "key\nfirst\n").unwrap();
        let mut output = resume(&path, &options(false, "othello", None)).unwrap();
        assert_eq!(output.resumed.len(), 1);
        output.write("second\n", 1, 1.0).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "key\nfirst\nsecond\n");
    }

    #[test]
    fn a_resumed_output_that_does_not_exist_is_made_when_the_run_begins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        // A run that never begins leaves no file.
        let output = resume(&path, &options(true, "othello", None)).unwrap();
        assert!(output.resumed.is_empty());
        drop(output);
        assert!(!path.exists());
        // One that begins without a record gets the record of the options and the header, as
        // a new output; its first record comes after them.
        let mut output = resume(&path, &options(true, "othello", None)).unwrap();
        output.begin().unwrap();
        drop(output);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# osolve test --wld\nkey\n"
        );
        fs::remove_file(&path).unwrap();
        let mut output = resume(&path, &options(true, "othello", None)).unwrap();
        output.write("first\n", 1, 1.0).unwrap();
        drop(output);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "# osolve test --wld\nkey\nfirst\n"
        );
        // A folder that does not exist still stops it at once.
        let error = resume(
            &dir.path().join("no/out.txt"),
            &options(true, "othello", None),
        )
        .err()
        .unwrap();
        assert!(matches!(error, OutputError::Open { .. }), "{error}");
    }

    #[test]
    fn a_refused_resume_leaves_the_file_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let name = path.display();
        let before = "# osolve test --rules reversi\nkey\nfirst\nsec";
        fs::write(&path, before).unwrap();
        let error = resume(&path, &options(false, "othello", None))
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            format!(
                "cannot resume {name}: it was written with --rules reversi, this run is with \
                 --rules othello (results of other options would be mixed)"
            )
        );
        // No record: the default options, refused by a run of other options.
        fs::write(&path, "key\nfirst\n").unwrap();
        let error = resume(&path, &options(true, "othello", None))
            .err()
            .unwrap();
        assert!(matches!(
            error,
            OutputError::Resume(ResumeError::OtherOptions { .. })
        ));
        fs::write(&path, "key\n-bad\n").unwrap();
        let error = resume(&path, &options(false, "othello", None))
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            format!("cannot resume {name} as TEST: line 2 is bad")
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "key\n-bad\n");
    }

    #[test]
    fn a_resume_check_refuses_another_input() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "key\nfirst\nsecond\n").unwrap();
        let mut output = resume(&path, &options(false, "othello", None)).unwrap();
        let name = path.display();
        output
            .resumed
            .confirm("first", "line", String::new)
            .unwrap();
        assert_eq!(
            output.resumed.finish("lines").unwrap_err().to_string(),
            format!(
                "cannot resume: {name} holds 2 lines but the input has only 1; it was written \
                 from another input"
            )
        );
        let error = output
            .resumed
            .confirm("other", "line", || "in:2: other".to_string())
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "cannot resume: line 2 of {name} is not line 2 of the input (in:2: other); it \
                 was written from another input or shard"
            )
        );
    }

    #[test]
    fn a_new_output_gets_the_record_and_the_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old\n").unwrap();
        let options = options(false, "reversi", None);
        let open = |path: &Path| {
            Output::open(
                Some(path),
                false,
                "key\n",
                &"TEST",
                &options,
                |reader, first| lines(reader, first),
            )
        };
        open(&path).unwrap().write("first\n", 0, 1.0).unwrap();
        let after = "# osolve test --rules reversi\nkey\nfirst\n";
        assert_eq!(fs::read_to_string(&path).unwrap(), after);
        let missing = dir.path().join("no/such/dir");
        let message = format!("cannot open {}", missing.display());
        assert_eq!(open(&missing).err().unwrap().to_string(), message);
    }

    #[test]
    fn a_new_output_changes_nothing_until_it_begins() {
        let dir = tempfile::tempdir().unwrap();
        let options = options(false, "othello", None);
        let open = |path: &Path| {
            Output::open(
                Some(path),
                false,
                "key\n",
                &"TEST",
                &options,
                |reader, first| lines(reader, first),
            )
        };
        // A run that never begins leaves an existing file as it was, and no file of its own.
        let kept = dir.path().join("kept.txt");
        fs::write(&kept, "old\n").unwrap();
        drop(open(&kept).unwrap());
        assert_eq!(fs::read_to_string(&kept).unwrap(), "old\n");
        let new = dir.path().join("new.txt");
        drop(open(&new).unwrap());
        assert!(!new.exists());
        // One that begins without a record gets the header alone, once.
        let mut output = open(&kept).unwrap();
        output.begin().unwrap();
        output.begin().unwrap();
        assert_eq!(fs::read_to_string(&kept).unwrap(), "key\n");
        drop(output);
        let mut output = open(&new).unwrap();
        output.begin().unwrap();
        drop(output);
        assert_eq!(fs::read_to_string(&new).unwrap(), "key\n");
        // A new file begins at its first write, not at a flush.
        let mut file = NewFile::create(&kept).unwrap();
        file.flush().unwrap();
        assert_eq!(fs::read_to_string(&kept).unwrap(), "key\n");
        file.write_all(b"first\n").unwrap();
        assert_eq!(fs::read_to_string(&kept).unwrap(), "first\n");
    }

    #[test]
    fn the_eta_counts_down_from_the_pace_of_the_work_done() {
        let s = Duration::from_secs;
        let counters = Counters::new(Some((11, 11.0)));
        assert_eq!(counters.items(), Some(11));
        assert_eq!(counters.eta_at(s(1)), None, "nothing done yet");
        // One unit of 11 done after 2 s: 20 s left then, 15 s five seconds later.
        *counters.work.lock().unwrap() = (1.0, s(2));
        assert_eq!(counters.eta_at(s(2)), Some(s(20)));
        assert_eq!(counters.eta_at(s(7)), Some(s(15)));
        assert_eq!(counters.eta_at(s(30)), None, "slower than predicted");
        let unknown = Counters::new(None);
        *unknown.work.lock().unwrap() = (1.0, s(2));
        assert_eq!(unknown.eta_at(s(2)), None, "work unknown");
    }
}
