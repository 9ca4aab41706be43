//! The batch driver shared by `osolve analyze` and `osolve games`: streams input items through
//! exact solvers and hands each finished result to a [`Sink`], in input order. It owns the
//! scheduling (items with few empties solved in parallel with each other, one single-threaded
//! [`Solver`] per worker; items with more empties one at a time by a multi-threaded solver),
//! the bounded in-flight window that keeps memory flat however long the input is, sharding,
//! skipping the items that a resumed run already has, the per-search limits, refusing items
//! too deep to finish without a limit, and stopping promptly when a solver's stop handle fires.
//!
//! What an item is and what a solver makes of it is the [`Work`] of the caller
//! ([`crate::drivers::analyze`] for positions, [`crate::games`] for whole games). The driver never
//! prints, formats or knows about terminals and files.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::huge_pages::{check_reserve, OutOfMemory, TablePart, TablesRefused};
use crate::search::tt::{DEFAULT_MB, FIT_EMPTIES};
use crate::search::{
    Limits, ProgressFn, SearchError, SolveOptions, Solver, StopHandle, Stopped, TooManyEmpties,
};

/// Items with at most this many empties are solved in parallel with each other, one
/// single-threaded solver per worker; above it one at a time by a solver using every thread.
///
/// Measured with `--threads 2` on an idle 2-core machine, random positions, elapsed seconds
/// (CPU use) one position per worker vs. one position at a time: 400 of 10-14 empties 1.3 s
/// (190%) vs 2.9 s (122%); 60 of 16 empties 4.1 s (189%) vs 6.2 s (179%); 16 of 18 empties
/// 7.7 s (189%) vs 10.2 s (192%); 6 of 20 empties 9.7 s (159%, the last position alone) vs
/// 8.5 s (195%). Below about 20 empties the split search spends more than it gains; from
/// there on one position at a time with every thread is faster, finishes each position
/// sooner, and loses less work to an interruption.
pub const PARALLEL_MAX_EMPTIES: u32 = 19;

/// Items read but not yet reported, per worker thread: enough to keep every worker fed while
/// a slow position holds up the output order, small enough that memory does not grow with input.
const WINDOW_PER_WORKER: usize = 8;

/// How often the driver looks for a stop request while it waits.
const POLL: Duration = Duration::from_millis(50);

/// One of N deterministic parts of an input: the items whose 0-based index (counted over all
/// inputs, bad items not counted) modulo `count` is `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This part, 0-based, below `count`.
    pub index: usize,
    /// Number of parts, at least 1.
    pub count: usize,
}

impl Shard {
    /// The whole input as one part.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Part `index` of `count`; an error unless `index < count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoParts);
        }
        if index >= count {
            return Err(ShardError::IndexTooLarge { index, count });
        }
        Ok(Shard { index, count })
    }

    /// True when the item with this 0-based index belongs to the part.
    pub fn contains(&self, item_index: usize) -> bool {
        item_index % self.count == self.index
    }

    /// How many of `total` items (indices 0..total) belong to the part.
    pub fn share_of(&self, total: usize) -> usize {
        total / self.count + usize::from(total % self.count > self.index)
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::ALL
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard K/N` that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not two whole numbers separated by `/`.
    #[error("expected K/N with whole numbers K < N (such as 0/4), found '{}'", .0.escape_debug())]
    Syntax(String),
    /// N is zero.
    #[error("the number of shards N must be at least 1")]
    NoParts,
    /// K is not below N.
    #[error("shard K={index} must be below N={count} (shards are numbered 0 to N-1)")]
    IndexTooLarge {
        /// K.
        index: usize,
        /// N.
        count: usize,
    },
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            s.parse::<usize>().map_err(|_| syntax())
        };
        Shard::new(number(k)?, number(n)?)
    }
}

/// The number of good items of `shard` among the `count()` good items of all inputs, counted by
/// a quick pass over the files; `None` when an input is standard input or another file that
/// is not a regular file, such as a pipe (it cannot be read twice).
pub fn count_in_files(
    paths: &[PathBuf],
    shard: Shard,
    count: impl FnOnce() -> usize,
) -> Option<usize> {
    rereadable(paths).then(|| shard.share_of(count()))
}

/// True when every input is a regular file, which a quick pass can read before the run.
fn rereadable(paths: &[PathBuf]) -> bool {
    paths.iter().all(|path| {
        path.as_os_str() != "-" && std::fs::metadata(path).map_or(true, |m| m.is_file())
    })
}

/// How much more an exact solve costs per extra empty square, for the progress's ETA. Fitted
/// to the solver of 5403d0d (`osolve bench --threads 2`, a least-squares line through the
/// logarithms): FFO #1-#58 (14-30 empties; #59, a wipe-out solved at once, left out), 57
/// positions, grow 1.93x in nodes and 1.78x in time per empty (the smallest take little more
/// than their table's clearing). It was 2.4, fitted in 2026-11 to a solver whose trees grew
/// faster, so a position of 30 empties counted 6 times more than it now costs against one of
/// 20. A single number cannot know a position: `analyze` of FFO #40-#59 (every move, two
/// threads) said `ETA 7h 22m` after 35 s with 2.4 and `ETA 1h 25m` with 2.0, and had its first
/// 19 positions done at 31 min, the 34 empties of #59 still to go.
pub const WORK_GROWTH: f64 = 2.0;

/// The expected work of an exact solve of a position with `empties` empty squares, relative to
/// one of 20: what the progress's ETA weighs the items by.
pub fn work(empties: u32) -> f64 {
    WORK_GROWTH.powi(empties as i32 - 20)
}

/// Like [`count_in_files`], but the work ([`work`]) of each good item of `shard`, in input
/// order, from the empties of every good item of all inputs that `empties()` lists.
pub fn work_in_files(
    paths: &[PathBuf],
    shard: Shard,
    empties: impl FnOnce() -> Vec<u32>,
) -> Option<Vec<f64>> {
    rereadable(paths).then(|| {
        empties()
            .into_iter()
            .enumerate()
            .filter(|&(index, _)| shard.contains(index))
            .map(|(_, empties)| work(empties))
            .collect()
    })
}

/// What the driver does with each item: the caller's half of a batch run.
pub trait Work: Sync {
    /// One unit of input (a parsed position, a replayed game).
    type Item: Send + 'static;
    /// What a solver makes of an item.
    type Output: Send + 'static;
    /// An input item that could not be read; it is reported and skipped.
    type Bad: Send + 'static;
    /// The empties of the largest search the item needs: the driver solves items with at most
    /// [`Options::parallel_max_empties`] in parallel with each other, the others one at a time.
    fn empties(&self, item: &Self::Item) -> u32;
    /// `Err` when the item is too deep to solve exactly without a limit (`checker` is a solver
    /// carrying the run's limits, see [`Solver::check_feasible`]): it is then refused, reported
    /// to [`Sink::refused`] and not counted as an item. The default accepts every item.
    fn feasible(&self, checker: &mut Solver, item: &Self::Item) -> Result<(), TooManyEmpties> {
        let _ = (checker, item);
        Ok(())
    }
    /// Solves one item; `index` is its 0-based index over all inputs (bad items not counted).
    fn solve(
        &self,
        solver: &mut Solver,
        item: &Self::Item,
        index: usize,
    ) -> Result<Self::Output, Unsolved>;
}

/// Why [`Work::solve`] gave no output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// A stop was requested: nothing from this item on is reported.
    Stopped,
    /// The solver refused the item as too deep to finish. The driver's own solvers are forced
    /// (it refuses at read time, through [`Work::feasible`]), so under [`run`] this comes only
    /// from a work that builds a solver of its own; the item is reported to [`Sink::refused`].
    Refused(TooManyEmpties),
}

impl From<Stopped> for Unsolved {
    fn from(_: Stopped) -> Unsolved {
        Unsolved::Stopped
    }
}

/// Receives the results of a run, always from the thread that called [`run`] and always in
/// input order. An error from any method ends the run with [`BatchError::Sink`].
pub trait Sink<W: Work + ?Sized> {
    /// A solver was created; `handle` stops it (and so the run) when fired.
    fn register(&mut self, handle: StopHandle);
    /// One of the first `skip` items of the shard, not solved (a resumed run has it).
    fn resumed(&mut self, item: &W::Item) -> io::Result<()>;
    /// An item is finished.
    fn done(&mut self, output: W::Output) -> io::Result<()>;
    /// An item could not be read; it is skipped (or ends a strict run).
    fn bad(&mut self, bad: W::Bad) -> io::Result<()>;
    /// An item was refused by [`Work::feasible`]; it is skipped (or ends a strict run) like a
    /// bad item.
    fn refused(&mut self, item: W::Item, reason: TooManyEmpties) -> io::Result<()> {
        let _ = (item, reason);
        Ok(())
    }
}

/// How to run a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Stop at the first bad item instead of skipping it.
    pub strict: bool,
    /// The part of the input to solve.
    pub shard: Shard,
    /// Worker threads in total; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in MiB: the one-at-a-time solver's, and the parallel workers'
    /// in all (shared out, each at most what its searches can use: see [`Solvers`]); tables
    /// take memory only as they are used.
    pub hash_mb: usize,
    /// Prove only win/draw/loss.
    pub wld: bool,
    /// The first items of the shard that a resumed run already has: they are handed to
    /// [`Sink::resumed`] in order and not solved.
    pub skip: usize,
    /// See [`PARALLEL_MAX_EMPTIES`].
    pub parallel_max_empties: u32,
    /// Limits of every search (see [`Solver::set_limits`]).
    pub limits: Limits,
    /// The progress callback of the solver that takes the deep items one at a time (see
    /// `SolveOptions::progress`); the parallel workers send none.
    pub progress: Option<ProgressFn>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            strict: false,
            shard: Shard::ALL,
            threads: 0,
            hash_mb: 256,
            wld: false,
            skip: 0,
            parallel_max_empties: PARALLEL_MAX_EMPTIES,
            limits: Limits::NONE,
            progress: None,
        }
    }
}

/// What the driver counted in a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Good items read from the inputs, in every shard.
    pub read: usize,
    /// Items solved and handed to [`Sink::done`].
    pub done: usize,
    /// Items handed to [`Sink::resumed`].
    pub resumed: usize,
    /// Bad items (skipped, or the one that stopped a strict run).
    pub bad: usize,
    /// Items refused as too deep (skipped, or the one that stopped a strict run).
    pub refused: usize,
    /// Wall time of the run.
    pub time: Duration,
    /// The run was stopped (a stop handle fired) before the end of the input.
    pub interrupted: bool,
    /// A strict run stopped at a bad item.
    pub stopped_at_bad: bool,
}

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The solvers' threads could not start.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The system refused the memory of the solvers' tables, or left too little beside them:
    /// all of them are named (the one-at-a-time solver's and the workers').
    #[error(transparent)]
    Tables(TablesRefused),
    /// The sink failed (writing the output, or a resumed output that does not match).
    #[error(transparent)]
    Sink(#[from] io::Error),
}

/// The solvers of batch runs: one using every thread for the deep items, one at a time (it also
/// checks which items are feasible), and one single-threaded solver per worker for the items
/// solved in parallel with each other. Each solver owns its tables, and the two kinds are kept
/// side by side (the first one checks the items' feasibility while the workers solve), so a
/// run maps up to twice `hash_mb`: the first solver's `hash_mb`, and the workers' `hash_mb`
/// shared out, each at most [`DEFAULT_MB`] when their items have at most [`FIT_EMPTIES`]
/// empties (a search up to there uses no more of a table than the default size holds: a
/// larger one would change nothing but the memory it maps). [`run`] makes them afresh for its
/// one run; a caller
/// that makes many runs (a binding labelling position after position) keeps them and hands
/// them to [`run_on`] each time, so that their tables, and the memory the kernel gave them, are
/// made once: nothing is cleared between items or runs (see [`Solvers::clear`]), as in one
/// long run.
pub struct Solvers {
    big: Solver,
    /// Empty until the first [`run_on`], which makes them for its options.
    workers: Vec<Solver>,
}

impl Solvers {
    /// The solvers of `options` (its threads, table size, WLD and progress callback), as
    /// [`run`] makes them.
    pub fn new(options: &Options) -> Result<Solvers, BatchError> {
        let threads = crate::search::thread_count(options.threads);
        let big = Solvers::solver(options, threads, options.hash_mb, options.progress.clone())
            .map_err(|error| refused(error, options.hash_mb, options))?;
        let mut solvers = Solvers::around(big);
        solvers.make_workers(options)?;
        Ok(solvers)
    }

    /// `big` (kept as it is: its threads, table, WLD, progress callback, refusal) for the deep
    /// items, and workers made by the first [`run_on`] from its options. The caller can go on
    /// using `big` between runs through [`Solvers::big_mut`] (its table serves both).
    pub fn around(big: Solver) -> Solvers {
        Solvers {
            big,
            workers: Vec::new(),
        }
    }

    /// The solver of the deep items.
    pub fn big(&self) -> &Solver {
        &self.big
    }

    /// Lifts a stop requested through the handle of any of them ([`Solver::resume`]): a run
    /// lifts its own stops as it ends, but a stop asked for after that (by a caller that saw
    /// the run's end late) would otherwise outlive it.
    pub fn resume(&mut self) {
        self.big.resume();
        for worker in &mut self.workers {
            worker.resume();
        }
    }

    /// The solver of the deep items, to use between runs.
    pub fn big_mut(&mut self) -> &mut Solver {
        &mut self.big
    }

    /// The workers: none before the first run of solvers made by [`Solvers::around`].
    pub fn workers(&self) -> &[Solver] {
        &self.workers
    }

    /// Forgets every stored result of every solver (see [`Solver::clear`]).
    pub fn clear(&mut self) {
        self.big.clear();
        for worker in &mut self.workers {
            worker.clear();
        }
    }

    /// A solver of a run: forced, since the refusal is the work's ([`Work::feasible`], in
    /// input order), so that a position it is handed is solved.
    fn solver(
        options: &Options,
        threads: usize,
        hash_mb: usize,
        progress: Option<ProgressFn>,
    ) -> Result<Solver, SearchError> {
        Solver::new(SolveOptions {
            threads,
            hash_mb: hash_mb.max(1),
            wld: options.wld,
            force: true,
            progress,
        })
    }

    /// One worker per thread of `options`, each with its share of the table, unless made.
    fn make_workers(&mut self, options: &Options) -> Result<(), BatchError> {
        if !self.workers.is_empty() {
            return Ok(());
        }
        let threads = crate::search::thread_count(options.threads);
        let big_mb = self.big.options().hash_mb;
        let mut workers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let worker = Solvers::solver(options, 1, worker_megabytes(options), None);
            workers.push(worker.map_err(|error| refused(error, big_mb, options))?);
        }
        // Each solver checked the room a run needs beside the tables for its own threads; the
        // run's are all the workers' (whose threads start now), checked once every table is
        // made. The workers are dropped, their tables given back, when it is not there.
        check_reserve(threads).map_err(|source| tables_refused(source, big_mb, options))?;
        self.workers = workers;
        Ok(())
    }

    fn all_mut(&mut self) -> impl Iterator<Item = &mut Solver> {
        std::iter::once(&mut self.big).chain(&mut self.workers)
    }
}

/// MiB of the table of each worker of `options`: its share of `hash_mb`, at most the default
/// size when its items have at most [`FIT_EMPTIES`] empties (see [`Solvers`]).
fn worker_megabytes(options: &Options) -> usize {
    let share = (options.hash_mb / crate::search::thread_count(options.threads)).max(1);
    if options.parallel_max_empties <= FIT_EMPTIES {
        share.min(DEFAULT_MB)
    } else {
        share
    }
}

/// The error of a solver of a run that could not be made: for memory, every table of the run
/// (`big_mb` for the one-at-a-time solver, the workers' of `options`).
fn refused(error: SearchError, big_mb: usize, options: &Options) -> BatchError {
    match error {
        SearchError::Memory { source, .. } => tables_refused(source, big_mb, options),
        other => BatchError::Search(other),
    }
}

/// The memory of the tables of a run refused: all of them named (see [`refused`]).
fn tables_refused(source: OutOfMemory, big_mb: usize, options: &Options) -> BatchError {
    let threads = crate::search::thread_count(options.threads);
    BatchError::Tables(TablesRefused {
        parts: vec![
            TablePart {
                count: 1,
                megabytes: big_mb,
                purpose: "the positions solved one at a time",
            },
            TablePart {
                count: threads,
                megabytes: worker_megabytes(options),
                purpose: "those solved in parallel",
            },
        ],
        source,
    })
}

/// Runs `work` over `items` and hands every result to `sink` in input order, each as soon as
/// it and all before it are finished. Stops early when a registered stop handle fires (the
/// totals then say `interrupted`; items after the first unfinished one are dropped, never
/// reported out of order) or, with `strict`, at the first bad item. The solvers are made for
/// this run ([`Solvers::new`]); [`run_on`] runs on solvers the caller keeps.
pub fn run<W, I>(
    work: &W,
    items: I,
    options: &Options,
    sink: &mut dyn Sink<W>,
) -> Result<Totals, BatchError>
where
    W: Work,
    I: Iterator<Item = Result<W::Item, W::Bad>> + Send + 'static,
{
    let start = Instant::now();
    // Every solver exists before the first item: their stop handles are registered at once,
    // and their tables take memory only as they fill.
    let mut solvers = Solvers::new(options)?;
    let mut totals = run_on(&mut solvers, work, items, options, sink)?;
    totals.time = start.elapsed();
    Ok(totals)
}

/// [`run`] on `solvers`, which the caller keeps for its next runs, tables and all (each solver
/// starts where its last run left it). Of `options`, the threads, table size and WLD serve only
/// to make the workers at the first run of [`Solvers::around`] (the progress callback is the
/// big solver's own); the limits are every solver's during the run and their own again after
/// it. After the run, even
/// a stopped one, the solvers are resumed (see [`Solver::resume`]): the handles the sink was
/// given no longer reach them.
pub fn run_on<W, I>(
    solvers: &mut Solvers,
    work: &W,
    items: I,
    options: &Options,
    sink: &mut dyn Sink<W>,
) -> Result<Totals, BatchError>
where
    W: Work,
    I: Iterator<Item = Result<W::Item, W::Bad>> + Send + 'static,
{
    run_kept(solvers, work, Intake::Read(items), options, sink)
}

/// [`run_on`] for items held in memory, whose next item never waits: the driver takes them
/// itself as the window has room, with no thread to read them (a run of a few items costs a
/// few wake-ups less).
pub(crate) fn run_held_on<W, I>(
    solvers: &mut Solvers,
    work: &W,
    mut items: I,
    options: &Options,
    sink: &mut dyn Sink<W>,
) -> Result<Totals, BatchError>
where
    W: Work,
    I: Iterator<Item = Result<W::Item, W::Bad>>,
{
    let intake = Intake::<std::iter::Empty<_>, _, _>::Held(&mut items);
    run_kept(solvers, work, intake, options, sink)
}

/// Where the items of a run come from.
enum Intake<'i, I, T, B> {
    /// An input that may block (standard input, a pipe): read on a thread of its own, so that
    /// a stop is seen meanwhile.
    Read(I),
    /// Items held in memory: taken by the driver itself.
    Held(&'i mut dyn Iterator<Item = Result<T, B>>),
}

/// [`run_on`] from either intake.
fn run_kept<W, I>(
    solvers: &mut Solvers,
    work: &W,
    intake: Intake<'_, I, W::Item, W::Bad>,
    options: &Options,
    sink: &mut dyn Sink<W>,
) -> Result<Totals, BatchError>
where
    W: Work,
    I: Iterator<Item = Result<W::Item, W::Bad>> + Send + 'static,
{
    let start = Instant::now();
    solvers.make_workers(options)?;
    let kept: Vec<Limits> = solvers.all_mut().map(|s| s.limits()).collect();
    for solver in solvers.all_mut() {
        solver.set_limits(options.limits);
    }
    let result = drive(solvers, work, intake, options, sink);
    for (solver, limits) in solvers.all_mut().zip(kept) {
        solver.set_limits(limits);
        solver.resume();
    }
    let mut totals = result?;
    totals.time = start.elapsed();
    Ok(totals)
}

/// The run of [`run_on`] on solvers set up for it.
fn drive<W, I>(
    solvers: &mut Solvers,
    work: &W,
    intake: Intake<'_, I, W::Item, W::Bad>,
    options: &Options,
    sink: &mut dyn Sink<W>,
) -> Result<Totals, BatchError>
where
    W: Work,
    I: Iterator<Item = Result<W::Item, W::Bad>> + Send + 'static,
{
    let Solvers { big, workers } = solvers;
    let threads = workers.len();
    let mut handles = vec![big.stop_handle()];
    handles.extend(workers.iter().map(Solver::stop_handle));
    for handle in &handles {
        sink.register(handle.clone());
    }

    let window = WINDOW_PER_WORKER * threads + 4;
    let permits = Arc::new(Permits::new(window));
    let (tx, rx) = mpsc::channel::<MessageOf<W>>();
    let held = match intake {
        Intake::Read(items) => {
            spawn_reader(items, permits.clone(), tx.clone());
            None
        }
        Intake::Held(items) => {
            // The run's borrows are shorter than the items': the object's bound shrinks to them.
            let items: &mut dyn Iterator<Item = Result<W::Item, W::Bad>> = items;
            Some(items)
        }
    };

    let (job_tx, job_rx) = mpsc::channel::<Job<W::Item>>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let mut state = Run {
        work,
        options,
        sink,
        permits: &permits,
        handles: &handles,
        totals: Totals::default(),
        ready: BTreeMap::new(),
        next_emit: 0,
        next_seq: 0,
        resume_left: options.skip,
        queue: VecDeque::new(),
        in_flight: 0,
        held,
        input_closed: false,
        stopping: false,
    };
    let result = thread::scope(|scope| {
        for solver in workers.iter_mut() {
            let (job_rx, tx) = (job_rx.clone(), tx.clone());
            scope.spawn(move || worker(work, solver, &job_rx, &tx));
        }
        drop(tx);
        let result = state.drive(big, &rx, &job_tx);
        if result.is_err() {
            // Let the workers finish their current item at once.
            for handle in &handles {
                handle.stop();
            }
        }
        drop(job_tx);
        result
    });
    permits.close();
    result?;
    Ok(state.totals)
}

/// A message to the driver thread about items `T` with outputs `O` and bad items `B`.
enum Message<T, O, B> {
    /// The next input item.
    Item(Result<T, B>),
    /// The input is exhausted.
    End,
    /// A worker finished (or was stopped on, or refused) the job with this sequence number:
    /// the item back, and what became of it.
    Solved(usize, T, Result<O, Unsolved>),
}

/// The messages of a run of `W`.
type MessageOf<W> = Message<<W as Work>::Item, <W as Work>::Output, <W as Work>::Bad>;

/// An item for a worker: sequence number, item index, the item.
type Job<T> = (usize, usize, T);

/// Something to hand to the sink, once everything before it was handed.
enum Event<W: Work> {
    Bad(W::Bad),
    Refused(W::Item, TooManyEmpties),
    Resumed(W::Item),
    Done(W::Output),
    /// The item's search was stopped: nothing from here on is reported.
    Stopped,
}

impl<W: Work> Event<W> {
    /// What [`Work::solve`] made of `item`.
    fn solved(item: W::Item, result: Result<W::Output, Unsolved>) -> Event<W> {
        match result {
            Ok(output) => Event::Done(output),
            Err(Unsolved::Stopped) => Event::Stopped,
            Err(Unsolved::Refused(reason)) => Event::Refused(item, reason),
        }
    }
}

/// A counting semaphore bounding the items read but not yet reported.
struct Permits {
    state: Mutex<(usize, bool)>,
    changed: Condvar,
}

impl Permits {
    fn new(count: usize) -> Permits {
        Permits {
            state: Mutex::new((count, false)),
            changed: Condvar::new(),
        }
    }
    /// Waits for a permit; false once closed.
    fn acquire(&self) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if state.1 {
                return false;
            }
            if state.0 > 0 {
                state.0 -= 1;
                return true;
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
    /// Takes a permit if one is free, without waiting; false once closed.
    fn try_acquire(&self) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.1 || state.0 == 0 {
            return false;
        }
        state.0 -= 1;
        true
    }
    fn release(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 += 1;
        self.changed.notify_one();
    }
    fn close(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.changed.notify_all();
    }
}

/// Reads the items on a thread of their own, so that a stop is seen even while standard input
/// blocks. The thread is detached: it ends at the end of the input, when the permits close, or
/// with the process.
fn spawn_reader<T, O, B, I>(mut items: I, permits: Arc<Permits>, tx: Sender<Message<T, O, B>>)
where
    T: Send + 'static,
    O: Send + 'static,
    B: Send + 'static,
    I: Iterator<Item = Result<T, B>> + Send + 'static,
{
    thread::spawn(move || loop {
        if !permits.acquire() {
            return;
        }
        let message = match items.next() {
            Some(item) => Message::Item(item),
            None => Message::End,
        };
        let end = matches!(message, Message::End);
        if tx.send(message).is_err() || end {
            return;
        }
    });
}

fn worker<W: Work>(
    work: &W,
    solver: &mut Solver,
    jobs: &Mutex<Receiver<Job<W::Item>>>,
    tx: &Sender<MessageOf<W>>,
) {
    loop {
        let job = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok((seq, index, item)) = job else {
            return;
        };
        let result = work.solve(solver, &item, index);
        if tx.send(Message::Solved(seq, item, result)).is_err() {
            return;
        }
    }
}

/// The driver's state: items become numbered events, good items become jobs, finished events
/// wait in `ready` until everything before them was reported.
struct Run<'a, W: Work> {
    work: &'a W,
    options: &'a Options,
    sink: &'a mut dyn Sink<W>,
    permits: &'a Permits,
    handles: &'a [StopHandle],
    totals: Totals,
    ready: BTreeMap<usize, Event<W>>,
    next_emit: usize,
    next_seq: usize,
    /// Items of the shard still to be handed over as resumed.
    resume_left: usize,
    /// Items not yet handed to a solver: (sequence number, index, item).
    queue: VecDeque<Job<W::Item>>,
    /// Jobs handed to the workers and not yet back.
    in_flight: usize,
    /// The items still to take, when they are held in memory (else a thread reads them).
    held: Option<&'a mut dyn Iterator<Item = Result<W::Item, W::Bad>>>,
    /// No more items will be taken (end of input, or a strict stop).
    input_closed: bool,
    /// A stop handle fired.
    stopping: bool,
}

impl<W: Work> Run<'_, W> {
    fn drive(
        &mut self,
        big: &mut Solver,
        rx: &Receiver<MessageOf<W>>,
        job_tx: &Sender<Job<W::Item>>,
    ) -> Result<(), BatchError> {
        loop {
            self.pull(big);
            self.emit()?;
            self.notice_stop();
            if !self.stopping {
                while let Some(job) = self.queue.front() {
                    if self.work.empties(&job.2) <= self.options.parallel_max_empties {
                        let job = self.queue.pop_front().expect("the queue has a front");
                        // The workers outlive this loop, so the send cannot fail.
                        let _ = job_tx.send(job);
                        self.in_flight += 1;
                    } else if self.in_flight == 0 {
                        // A big item waits for the small ones before it, so that the solver
                        // using every thread runs alone.
                        let (seq, index, item) =
                            self.queue.pop_front().expect("the queue has a front");
                        let result = self.work.solve(big, &item, index);
                        let event = Event::solved(item, result);
                        self.ready.insert(seq, event);
                        self.emit()?;
                        // A stop that came during this solve ends the run here.
                        self.notice_stop();
                        if self.stopping {
                            break;
                        }
                    } else {
                        break;
                    }
                }
            }
            // The big solves made room in the window: take more before waiting.
            if self.pull(big) {
                continue;
            }
            let idle = self.in_flight == 0 && (self.stopping || self.queue.is_empty());
            if idle && (self.stopping || self.input_closed) {
                self.emit()?;
                // A stop that ended the last searches still makes the run interrupted.
                self.notice_stop();
                return Ok(());
            }
            match rx.recv_timeout(POLL) {
                Ok(Message::Solved(seq, item, result)) => {
                    self.in_flight -= 1;
                    self.ready.insert(seq, Event::solved(item, result));
                }
                Ok(Message::Item(item)) => self.take(item, big),
                Ok(Message::End) => self.input_closed = true,
                Err(RecvTimeoutError::Timeout) => {}
                // The reader is gone: only after `End` or when the permits closed.
                Err(RecvTimeoutError::Disconnected) => self.input_closed = true,
            }
        }
    }

    /// Takes held items while the window has room; true when it took any (or the end).
    fn pull(&mut self, big: &mut Solver) -> bool {
        let Some(items) = self.held.take() else {
            return false;
        };
        let mut took = false;
        while !self.input_closed && !self.stopping && self.permits.try_acquire() {
            took = true;
            match items.next() {
                Some(item) => self.take(item, big),
                None => self.input_closed = true,
            }
        }
        self.held = Some(items);
        took
    }

    /// Once a stop handle fired (or a search was stopped): the run is interrupted, no more
    /// items are taken, and every solver stops.
    fn notice_stop(&mut self) {
        if self.stopping {
            return;
        }
        let stopped_search = self.ready.values().any(|e| matches!(e, Event::Stopped));
        if stopped_search || self.handles.iter().any(StopHandle::is_stopped) {
            self.stopping = true;
            self.totals.interrupted = true;
            self.permits.close();
            for handle in self.handles {
                handle.stop();
            }
        }
    }

    /// Numbers an input item and files it as an event or a job; `big` checks whether the item
    /// is feasible (see [`Work::feasible`]).
    fn take(&mut self, item: Result<W::Item, W::Bad>, big: &mut Solver) {
        if self.input_closed || self.stopping {
            return;
        }
        let item = match item {
            Ok(item) => item,
            Err(bad) => {
                self.reject(Event::Bad(bad));
                return;
            }
        };
        if let Err(reason) = self.work.feasible(big, &item) {
            self.reject(Event::Refused(item, reason));
            return;
        }
        let index = self.totals.read;
        self.totals.read += 1;
        if !self.options.shard.contains(index) {
            self.permits.release();
            return;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        if self.resume_left > 0 {
            self.resume_left -= 1;
            self.ready.insert(seq, Event::Resumed(item));
        } else {
            self.queue.push_back((seq, index, item));
        }
    }

    /// Files a bad or refused item, which a strict run stops at.
    fn reject(&mut self, event: Event<W>) {
        self.ready.insert(self.next_seq, event);
        self.next_seq += 1;
        if self.options.strict {
            self.input_closed = true;
            self.totals.stopped_at_bad = true;
            self.permits.close();
        }
    }

    /// Reports the events that are next in order.
    fn emit(&mut self) -> Result<(), BatchError> {
        while let Some(event) = self.ready.remove(&self.next_emit) {
            if matches!(event, Event::Stopped) {
                // Put it back: nothing after an unfinished item may be reported.
                self.ready.insert(self.next_emit, event);
                return Ok(());
            }
            self.next_emit += 1;
            self.permits.release();
            match event {
                Event::Bad(bad) => {
                    self.totals.bad += 1;
                    self.sink.bad(bad)?;
                }
                Event::Refused(item, reason) => {
                    self.totals.refused += 1;
                    self.sink.refused(item, reason)?;
                }
                Event::Resumed(item) => {
                    self.totals.resumed += 1;
                    self.sink.resumed(&item)?;
                }
                Event::Done(output) => {
                    self.totals.done += 1;
                    self.sink.done(output)?;
                }
                Event::Stopped => unreachable!("handled above"),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_grows_with_the_empties_and_follows_the_shard() {
        assert_eq!(work(20), 1.0);
        assert!((work(22) - 4.0).abs() < 1e-9);
        assert!((work(14) - 2f64.powi(-6)).abs() < 1e-12);
        let dir = std::env::temp_dir().join(format!("osolve-work-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.obf");
        std::fs::write(&file, "").unwrap();
        let paths = vec![file];
        let empties = || vec![20, 21, 22, 23, 24];
        assert_eq!(
            work_in_files(&paths, Shard::ALL, empties).map(|w| w.len()),
            Some(5)
        );
        // The second of two shards holds items 1 and 3.
        let second = Shard::new(1, 2).unwrap();
        let works = work_in_files(&paths, second, empties).unwrap();
        assert_eq!(works.len(), 2);
        assert!((works[0] - 2.0).abs() < 1e-9 && (works[1] - 8.0).abs() < 1e-9);
        // Standard input cannot be read twice: no work known.
        assert_eq!(
            work_in_files(&[PathBuf::from("-")], Shard::ALL, empties),
            None
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Items are their empties; an item of 30 empties is "solved" by the solver using every
    /// thread, and stops the run as a signal would (its stop handle fires during the solve).
    struct StopsAtTheBigItem;

    impl Work for StopsAtTheBigItem {
        type Item = u32;
        type Output = usize;
        type Bad = ();
        fn empties(&self, item: &u32) -> u32 {
            *item
        }
        fn solve(&self, solver: &mut Solver, item: &u32, index: usize) -> Result<usize, Unsolved> {
            if *item > PARALLEL_MAX_EMPTIES {
                solver.stop_handle().stop();
                return Err(Unsolved::Stopped);
            }
            // Long enough for the driver to see the end of the input meanwhile.
            thread::sleep(Duration::from_millis(200));
            Ok(index)
        }
    }

    #[derive(Default)]
    struct Count {
        done: Vec<usize>,
    }

    impl Sink<StopsAtTheBigItem> for Count {
        fn register(&mut self, _: StopHandle) {}
        fn resumed(&mut self, _: &u32) -> io::Result<()> {
            Ok(())
        }
        fn done(&mut self, output: usize) -> io::Result<()> {
            self.done.push(output);
            Ok(())
        }
        fn bad(&mut self, _: ()) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stop_during_the_last_big_item_makes_the_run_interrupted() {
        // Issue 26: the run ended as if finished (the summary, no `interrupted` message) when
        // the stop came during the last big item, the input read to its end.
        let items = vec![Ok(10), Ok(30)].into_iter();
        let options = Options {
            threads: 2,
            hash_mb: 2,
            ..Options::default()
        };
        let mut sink = Count::default();
        let totals = run(&StopsAtTheBigItem, items, &options, &mut sink).unwrap();
        assert_eq!(sink.done, [0]);
        assert_eq!((totals.done, totals.interrupted), (1, true));
    }

    #[test]
    fn workers_share_the_table_up_to_what_their_searches_use() {
        let options = |hash_mb, threads, parallel_max_empties| Options {
            hash_mb,
            threads,
            parallel_max_empties,
            ..Options::default()
        };
        // A share, at most the default size while the workers' items stay within FIT_EMPTIES.
        assert_eq!(worker_megabytes(&options(256, 2, 19)), 128);
        assert_eq!(worker_megabytes(&options(1024, 2, 19)), 256);
        assert_eq!(worker_megabytes(&options(1024, 1, 22)), 256);
        assert_eq!(worker_megabytes(&options(1024, 2, 23)), 512);
        assert_eq!(worker_megabytes(&options(1, 4, 19)), 1);
        // A refused table names all of them.
        let source = OutOfMemory { bytes: 1 };
        let error = tables_refused(source, 1024, &options(1024, 2, 19));
        assert_eq!(
            error.to_string(),
            "cannot allocate 1536 MiB of transposition tables (1024 MiB for the positions \
             solved one at a time, 2 x 256 MiB for those solved in parallel)"
        );
    }

    #[test]
    fn shards_parse_and_validate() {
        assert_eq!("1/3".parse::<Shard>(), Ok(Shard { index: 1, count: 3 }));
        assert_eq!(" 0/1 ".parse::<Shard>(), Ok(Shard::ALL));
        assert_eq!(
            "3/3".parse::<Shard>(),
            Err(ShardError::IndexTooLarge { index: 3, count: 3 })
        );
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoParts));
        for bad in ["", "1", "a/2", "-1/2", "1/", "/2", "1/2/3", "+1/2"] {
            assert!(
                matches!(bad.parse::<Shard>(), Err(ShardError::Syntax(_))),
                "{bad}"
            );
        }
        let shard = Shard::new(2, 4).unwrap();
        assert!(shard.contains(2) && shard.contains(6) && !shard.contains(3));
        assert_eq!(shard.to_string(), "2/4");
    }
}
