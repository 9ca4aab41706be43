//! The batch analysis driver: streams parsed positions through exact solvers and hands each
//! finished [`Analysis`] to a [`Sink`], in input order. It owns the scheduling (positions with
//! few empties solved in parallel with each other, one single-threaded [`Solver`] per worker;
//! positions with more empties one at a time by a multi-threaded solver), the bounded in-flight
//! window that keeps memory flat however long the input is, sharding, skipping positions that
//! a resumed run already has, checking computed scores against the inputs' annotations, the
//! per-position limits (a position that reaches one is reported unfinished, with bounds) and
//! refusing positions too deep to finish without one.
//!
//! It never prints, formats or knows about terminals and files other than opening the inputs:
//! output formats live in [`crate::report::analyze`], arguments and signals in the binary.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::board::{Position, Square};
use crate::notation::{open_path, ParseError, Parsed, Source};
use crate::search::{
    Bounds, Limits, MoveScore, SearchError, SolveOptions, Solver, StopHandle, StopReason, Stopped,
    TooManyEmpties, Unfinished,
};

/// Positions with at most this many empties are solved in parallel with each other, one
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

/// Positions read but not yet written, per worker thread: enough to keep every worker fed while
/// a slow position holds up the output order, small enough that memory does not grow with input.
const WINDOW_PER_WORKER: usize = 8;

/// How often the driver looks for a stop request while it waits.
const POLL: Duration = Duration::from_millis(50);

/// One of N deterministic parts of an input: the positions whose 0-based index (counted over
/// all inputs, bad lines not counted) modulo `count` is `index`.
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

    /// True when the position with this 0-based index belongs to the part.
    pub fn contains(&self, position_index: usize) -> bool {
        position_index % self.count == self.index
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

/// What to compute and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// Only the best score and the moves reaching it, instead of every move's score.
    pub best_only: bool,
    /// Win/draw/loss only: every score is -1, 0 or 1.
    pub wld: bool,
    /// Compare the computed scores with the inputs' annotations.
    pub check: bool,
    /// Stop at the first bad input line instead of skipping it.
    pub strict: bool,
    /// The part of the input to analyse.
    pub shard: Shard,
    /// Worker threads in total; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in MiB in total: the parallel workers share it out, the
    /// one-at-a-time solver uses all of it (tables grow only as they are used).
    pub hash_mb: usize,
    /// The first positions of the shard that a resumed run already has: they are handed to
    /// [`Sink::resumed`] in order and not solved.
    pub skip: usize,
    /// See [`PARALLEL_MAX_EMPTIES`].
    pub parallel_max_empties: u32,
    /// Limits of each position's search: a position that reaches one is reported unfinished,
    /// with the proven bounds of its best score.
    pub limits: Limits,
    /// Analyse positions with more than [`crate::search::FEASIBLE_EMPTIES`] empties even
    /// without a limit (otherwise those [`Solver::check_feasible`] rejects are refused: see
    /// [`Sink::refused`]).
    pub force: bool,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            best_only: false,
            wld: false,
            check: false,
            strict: false,
            shard: Shard::ALL,
            threads: 0,
            hash_mb: 256,
            skip: 0,
            parallel_max_empties: PARALLEL_MAX_EMPTIES,
            limits: Limits::NONE,
            force: false,
        }
    }
}

/// What a check compared: one move's score, or (with `best_only`) the best score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The score of this move (`None` = the forced pass).
    Move(Option<Square>),
    /// The best score of the position (also a finished game's final score).
    Best,
}

/// A computed score that differs from the input's annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What was compared.
    pub what: Checked,
    /// The annotated score (its sign with WLD).
    pub expected: i32,
    /// The computed score; `None` when the annotated move is not legal.
    pub found: Option<i32>,
}

/// The analysis of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// 0-based index of the position over all inputs (bad lines not counted).
    pub index: usize,
    /// Where the position came from.
    pub source: Source,
    /// The position.
    pub position: Position,
    /// Every legal move's score, best first, ties in square order (the pass as `None`); with
    /// `best_only`, just the moves reaching the best score. Empty for a finished game.
    pub moves: Vec<MoveScore>,
    /// The best score (a finished game's final score). With WLD, -1, 0 or 1. When
    /// `unfinished`, only its proven lower bound.
    pub best_score: i32,
    /// The moves reaching the best score, in square order; empty for a finished game (and when
    /// `unfinished`).
    pub best_moves: Vec<Option<Square>>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time spent on this position.
    pub time: Duration,
    /// With `check`: the differences from the annotations (empty = correct); `None` when not
    /// checking, the input carries no expected score, or the analysis is unfinished.
    pub check: Option<Vec<Mismatch>>,
    /// `Some` when a limit stopped the search first: the proven bounds of the best score. The
    /// moves are then only those proven (every move's exact score, or with `best_only` moves
    /// proven to reach the exact best score), best first.
    pub unfinished: Option<Bounds>,
}

impl Analysis {
    /// True when the position is a finished game (no move for either side).
    pub fn is_game_over(&self) -> bool {
        self.position.board.is_game_over()
    }
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions analysed in this run.
    pub positions: usize,
    /// Move scores reported.
    pub moves: usize,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the run.
    pub time: Duration,
    /// Positions skipped because a resumed run already had them.
    pub resumed: usize,
    /// Bad input lines (skipped, or the one that stopped a strict run).
    pub bad_lines: usize,
    /// Positions with expected scores that were checked.
    pub checked: usize,
    /// Checked positions whose every score was as expected.
    pub correct: usize,
    /// Checked positions with at least one wrong score.
    pub wrong: usize,
    /// With `check`, positions that carried no expected score.
    pub unchecked: usize,
    /// Positions a limit stopped before they were finished (reported with bounds).
    pub unfinished: usize,
    /// Positions refused: too many empties for an exact analysis without a limit.
    pub refused: usize,
    /// The run was stopped (a stop handle fired) before the end of the input.
    pub interrupted: bool,
    /// A strict run stopped at a bad line.
    pub stopped_at_bad_line: bool,
}

impl Summary {
    /// Nodes per second over the run.
    pub fn nps(&self) -> f64 {
        let seconds = self.time.as_secs_f64();
        if seconds > 0.0 {
            self.nodes as f64 / seconds
        } else {
            0.0
        }
    }
}

/// Receives the results of a run, always from the thread that called [`analyze`] and always in
/// input order. An error from any method ends the run with [`AnalyzeError::Sink`].
pub trait Sink {
    /// A solver was created; `handle` stops it (and so the run) when fired.
    fn register(&mut self, handle: StopHandle);
    /// One of the first `skip` positions of the shard, not solved (a resumed run has it).
    fn resumed(&mut self, parsed: &Parsed) -> io::Result<()>;
    /// A position is finished.
    fn analysed(&mut self, analysis: &Analysis) -> io::Result<()>;
    /// A line could not be read; it is skipped (or ends a strict run).
    fn bad_line(&mut self, error: &ParseError) -> io::Result<()>;
    /// A position has too many empties to be analysed exactly without a limit; it is skipped
    /// (or ends a strict run) like a bad line, and is not counted as a position (sharding and
    /// resuming count only the positions analysed). Counted in the summary either way.
    fn refused(&mut self, parsed: &Parsed, reason: &TooManyEmpties) -> io::Result<()> {
        let _ = (parsed, reason);
        Ok(())
    }
}

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The solvers could not be built.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The sink failed (writing the output, or a resumed output that does not match).
    #[error(transparent)]
    Sink(#[from] io::Error),
}

/// The items of several inputs in turn, each opened when the previous one ends (`-` is standard
/// input); a file that cannot be opened is one error item.
pub fn inputs(
    paths: Vec<PathBuf>,
) -> impl Iterator<Item = Result<Parsed, ParseError>> + Send + 'static {
    paths.into_iter().flat_map(
        |path| -> Box<dyn Iterator<Item = Result<Parsed, ParseError>> + Send> {
            match open_path(&path) {
                Ok(reader) => Box::new(reader),
                Err(error) => Box::new(std::iter::once(Err(error))),
            }
        },
    )
}

/// The number of positions of `shard` in the inputs, by a quick pass that parses without
/// solving; `None` when an input is standard input or another file that is not a regular file,
/// such as a pipe (it cannot be read twice).
pub fn count_positions(paths: &[PathBuf], shard: Shard) -> Option<usize> {
    let regular = |path: &PathBuf| {
        path.as_os_str() != "-" && std::fs::metadata(path).map_or(true, |m| m.is_file())
    };
    if !paths.iter().all(regular) {
        return None;
    }
    let valid = inputs(paths.to_vec()).filter(Result::is_ok).count();
    Some(valid / shard.count + usize::from(valid % shard.count > shard.index))
}

/// Analyses one position with `solver` (whose options must carry `options.wld`, and whose
/// limits, if any, make a position that reaches them come back unfinished). `Err` only when a
/// stop was requested.
pub fn analyze_position(
    solver: &mut Solver,
    parsed: &Parsed,
    index: usize,
    options: &AnalyzeOptions,
) -> Result<Analysis, Stopped> {
    let start = Instant::now();
    let position = parsed.position;
    let board = position.board;
    let final_score = |score: i32| if options.wld { score.signum() } else { score };
    let result = if options.best_only {
        solver
            .try_best_moves(&position)
            .map(|(score, best, nodes)| {
                let moves = best.iter().map(|&mv| MoveScore { mv, score }).collect();
                (moves, score, best, nodes)
            })
    } else {
        solver.try_score_moves(&position).map(|(moves, nodes)| {
            let best_score = moves
                .first()
                .map_or_else(|| final_score(board.final_score()), |m| m.score);
            let mut best: Vec<Option<Square>> = moves
                .iter()
                .filter(|m| m.score == best_score)
                .map(|m| m.mv)
                .collect();
            best.sort();
            (moves, best_score, best, nodes)
        })
    };
    let mut analysis = Analysis {
        index,
        source: parsed.source.clone(),
        position,
        moves: Vec::new(),
        best_score: 0,
        best_moves: Vec::new(),
        nodes: 0,
        time: Duration::ZERO,
        check: None,
        unfinished: None,
    };
    match result {
        Ok((moves, best_score, best_moves, nodes)) => {
            (analysis.moves, analysis.best_score) = (moves, best_score);
            (analysis.best_moves, analysis.nodes) = (best_moves, nodes);
            if options.check {
                analysis.check = check(parsed, &analysis, options);
            }
        }
        Err(Unfinished { bounds, .. }) if bounds.reason == StopReason::Interrupted => {
            return Err(Stopped)
        }
        Err(unfinished) => {
            analysis.moves = unfinished.moves;
            analysis.best_score = unfinished.bounds.lower;
            analysis.nodes = unfinished.nodes;
            analysis.unfinished = Some(unfinished.bounds);
        }
    }
    analysis.time = start.elapsed();
    Ok(analysis)
}

/// Compares an analysis with the annotations of its input line; `None` when there are none.
pub fn check(
    parsed: &Parsed,
    analysis: &Analysis,
    options: &AnalyzeOptions,
) -> Option<Vec<Mismatch>> {
    let expect = |score: i32| if options.wld { score.signum() } else { score };
    let mut mismatches = Vec::new();
    let best_expected = parsed
        .expected
        .iter()
        .map(|&(_, score)| score)
        .max()
        .or(parsed.final_score)?;
    if options.best_only {
        if expect(best_expected) != analysis.best_score {
            mismatches.push(Mismatch {
                what: Checked::Best,
                expected: expect(best_expected),
                found: Some(analysis.best_score),
            });
        }
        return Some(mismatches);
    }
    for &(mv, score) in &parsed.expected {
        let found = analysis.moves.iter().find(|m| m.mv == mv).map(|m| m.score);
        if found != Some(expect(score)) {
            mismatches.push(Mismatch {
                what: Checked::Move(mv),
                expected: expect(score),
                found,
            });
        }
    }
    if let Some(score) = parsed.final_score {
        if expect(score) != analysis.best_score {
            mismatches.push(Mismatch {
                what: Checked::Best,
                expected: expect(score),
                found: Some(analysis.best_score),
            });
        }
    }
    Some(mismatches)
}

/// Runs the analysis of `items` (see [`inputs`]) and hands every result to `sink` in input
/// order, each as soon as it and all before it are finished. Stops early when a registered
/// stop handle fires (the summary then says `interrupted`; positions after the first
/// unfinished one are dropped, never reported out of order) or, with `strict`, at the first
/// bad line.
pub fn analyze<I>(
    items: I,
    options: &AnalyzeOptions,
    sink: &mut dyn Sink,
) -> Result<Summary, AnalyzeError>
where
    I: Iterator<Item = Result<Parsed, ParseError>> + Send + 'static,
{
    let start = Instant::now();
    let threads = if options.threads == 0 {
        thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    let solver = |threads: usize, hash_mb: usize| {
        let mut solver = Solver::new(SolveOptions {
            threads,
            hash_mb: hash_mb.max(1),
            wld: options.wld,
        })?;
        solver.set_limits(options.limits);
        Ok::<Solver, SearchError>(solver)
    };
    // Every solver exists before the first position: their stop handles are registered at
    // once, and their tables take memory only as they fill.
    let mut big = solver(threads, options.hash_mb)?;
    let mut workers = Vec::with_capacity(threads);
    for _ in 0..threads {
        workers.push(solver(1, options.hash_mb / threads)?);
    }
    let mut handles = vec![big.stop_handle()];
    handles.extend(workers.iter().map(Solver::stop_handle));
    for handle in &handles {
        sink.register(handle.clone());
    }

    let window = WINDOW_PER_WORKER * threads + 4;
    let permits = Arc::new(Permits::new(window));
    let (tx, rx) = mpsc::channel::<Message>();
    spawn_reader(items, permits.clone(), tx.clone());

    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let mut run = Run {
        options,
        sink,
        permits: &permits,
        handles: &handles,
        summary: Summary::default(),
        ready: BTreeMap::new(),
        next_emit: 0,
        next_seq: 0,
        next_index: 0,
        resume_left: options.skip,
        queue: VecDeque::new(),
        in_flight: 0,
        input_closed: false,
        stopping: false,
    };
    let result = thread::scope(|scope| {
        for mut solver in workers {
            let (job_rx, tx) = (job_rx.clone(), tx.clone());
            scope.spawn(move || worker(&mut solver, &job_rx, &tx, options));
        }
        drop(tx);
        let result = run.drive(&mut big, &rx, &job_tx);
        if result.is_err() {
            // Let the workers finish their current position at once.
            for handle in &handles {
                handle.stop();
            }
        }
        drop(job_tx);
        result
    });
    permits.close();
    result?;
    let mut summary = run.summary;
    summary.time = start.elapsed();
    Ok(summary)
}

/// A message to the driver thread.
enum Message {
    /// The next input item.
    Item(Result<Parsed, ParseError>),
    /// The input is exhausted.
    End,
    /// A worker finished (or was stopped on) the job with this sequence number.
    Solved(usize, Result<Analysis, Stopped>),
}

/// A position for a worker: sequence number, position index, the parsed line.
type Job = (usize, usize, Parsed);

/// Something to hand to the sink, once everything before it was handed.
enum Event {
    Bad(ParseError),
    Refused(Parsed, TooManyEmpties),
    Resumed(Parsed),
    Done(Analysis),
    /// The position's search was stopped: nothing from here on is reported.
    Stopped,
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
fn spawn_reader<I>(mut items: I, permits: Arc<Permits>, tx: Sender<Message>)
where
    I: Iterator<Item = Result<Parsed, ParseError>> + Send + 'static,
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

fn worker(
    solver: &mut Solver,
    jobs: &Mutex<Receiver<Job>>,
    tx: &Sender<Message>,
    options: &AnalyzeOptions,
) {
    loop {
        let job = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok((seq, index, parsed)) = job else {
            return;
        };
        let result = analyze_position(solver, &parsed, index, options);
        if tx.send(Message::Solved(seq, result)).is_err() {
            return;
        }
    }
}

/// The driver's state: items become numbered events, positions become jobs, finished events
/// wait in `ready` until everything before them was reported.
struct Run<'a> {
    options: &'a AnalyzeOptions,
    sink: &'a mut dyn Sink,
    permits: &'a Permits,
    handles: &'a [StopHandle],
    summary: Summary,
    ready: BTreeMap<usize, Event>,
    next_emit: usize,
    next_seq: usize,
    next_index: usize,
    /// Positions of the shard still to be handed over as resumed.
    resume_left: usize,
    /// Positions not yet handed to a solver: (sequence number, index, line).
    queue: VecDeque<Job>,
    /// Jobs handed to the workers and not yet back.
    in_flight: usize,
    /// No more items will be taken (end of input, or a strict stop).
    input_closed: bool,
    /// A stop handle fired.
    stopping: bool,
}

impl Run<'_> {
    fn drive(
        &mut self,
        big: &mut Solver,
        rx: &Receiver<Message>,
        job_tx: &Sender<Job>,
    ) -> Result<(), AnalyzeError> {
        loop {
            self.emit()?;
            if !self.stopping && self.handles.iter().any(StopHandle::is_stopped) {
                self.stopping = true;
                self.summary.interrupted = true;
                self.permits.close();
                for handle in self.handles {
                    handle.stop();
                }
            }
            if !self.stopping {
                while let Some(job) = self.queue.front() {
                    if job.2.position.board.empties() <= self.options.parallel_max_empties {
                        let job = self.queue.pop_front().expect("the queue has a front");
                        // The workers outlive this loop, so the send cannot fail.
                        let _ = job_tx.send(job);
                        self.in_flight += 1;
                    } else if self.in_flight == 0 {
                        // A big position waits for the small ones before it, so that the
                        // solver using every thread runs alone.
                        let (seq, index, parsed) =
                            self.queue.pop_front().expect("the queue has a front");
                        let event = match analyze_position(big, &parsed, index, self.options) {
                            Ok(analysis) => Event::Done(analysis),
                            Err(Stopped) => Event::Stopped,
                        };
                        self.ready.insert(seq, event);
                        self.emit()?;
                    } else {
                        break;
                    }
                }
            }
            let idle = self.in_flight == 0 && (self.stopping || self.queue.is_empty());
            if idle && (self.stopping || self.input_closed) {
                self.emit()?;
                return Ok(());
            }
            match rx.recv_timeout(POLL) {
                Ok(Message::Solved(seq, result)) => {
                    self.in_flight -= 1;
                    let event = result.map_or(Event::Stopped, Event::Done);
                    self.ready.insert(seq, event);
                }
                Ok(Message::Item(item)) => self.take(item, big),
                Ok(Message::End) => self.input_closed = true,
                Err(RecvTimeoutError::Timeout) => {}
                // The reader is gone: only after `End` or when the permits closed.
                Err(RecvTimeoutError::Disconnected) => self.input_closed = true,
            }
        }
    }

    /// Numbers an input item and files it as an event or a job; `big` tries the positions
    /// that may be too deep to analyse (see [`Solver::check_feasible`]).
    fn take(&mut self, item: Result<Parsed, ParseError>, big: &mut Solver) {
        if self.input_closed || self.stopping {
            return;
        }
        let parsed = match item {
            Ok(parsed) => parsed,
            Err(error) => {
                self.reject(Event::Bad(error));
                return;
            }
        };
        if !self.options.force {
            if let Err(reason) = big.check_feasible(&parsed.position) {
                self.reject(Event::Refused(parsed, reason));
                return;
            }
        }
        let index = self.next_index;
        self.next_index += 1;
        if !self.options.shard.contains(index) {
            self.permits.release();
            return;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        if self.resume_left > 0 {
            self.resume_left -= 1;
            self.ready.insert(seq, Event::Resumed(parsed));
        } else {
            self.queue.push_back((seq, index, parsed));
        }
    }

    /// Files a bad line or a refused position, which a strict run stops at.
    fn reject(&mut self, event: Event) {
        self.ready.insert(self.next_seq, event);
        self.next_seq += 1;
        if self.options.strict {
            self.input_closed = true;
            self.summary.stopped_at_bad_line = true;
            self.permits.close();
        }
    }

    /// Reports the events that are next in order.
    fn emit(&mut self) -> Result<(), AnalyzeError> {
        while let Some(event) = self.ready.remove(&self.next_emit) {
            if matches!(event, Event::Stopped) {
                // Put it back: nothing after an unfinished position may be reported.
                self.ready.insert(self.next_emit, event);
                return Ok(());
            }
            self.next_emit += 1;
            self.permits.release();
            match event {
                Event::Bad(error) => {
                    self.summary.bad_lines += 1;
                    self.sink.bad_line(&error)?;
                }
                Event::Refused(parsed, reason) => {
                    self.summary.refused += 1;
                    self.sink.refused(&parsed, &reason)?;
                }
                Event::Resumed(parsed) => {
                    self.summary.resumed += 1;
                    self.sink.resumed(&parsed)?;
                }
                Event::Done(analysis) => {
                    let summary = &mut self.summary;
                    summary.positions += 1;
                    summary.moves += analysis.moves.len();
                    summary.nodes += analysis.nodes;
                    match &analysis.check {
                        _ if analysis.unfinished.is_some() => summary.unfinished += 1,
                        Some(mismatches) if mismatches.is_empty() => {
                            summary.checked += 1;
                            summary.correct += 1;
                        }
                        Some(_) => {
                            summary.checked += 1;
                            summary.wrong += 1;
                        }
                        None if self.options.check => summary.unchecked += 1,
                        None => {}
                    }
                    self.sink.analysed(&analysis)?;
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
    use crate::notation::{parse_text, PositionReader};

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

    /// Records what the driver hands over.
    #[derive(Default)]
    struct Recorder {
        events: Vec<String>,
    }

    impl Sink for Recorder {
        fn register(&mut self, _handle: StopHandle) {}
        fn resumed(&mut self, parsed: &Parsed) -> io::Result<()> {
            self.events.push(format!("resumed {}", parsed.source));
            Ok(())
        }
        fn analysed(&mut self, analysis: &Analysis) -> io::Result<()> {
            self.events
                .push(format!("{} {:+}", analysis.source, analysis.best_score));
            Ok(())
        }
        fn bad_line(&mut self, error: &ParseError) -> io::Result<()> {
            self.events.push(format!("bad {}", error.at));
            Ok(())
        }
    }

    const LINES: &str = "\
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;
not a position
d3c5c6e3b5b7f2c3c7b6a6a7b3c8f6c4a8a2f3b8b4a3a4a5b2d7d6c1d8f5g6g3c2e1e2f4g2f1g5e7a1e6h2d2d1e8g1h5b1h3
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+4;
";

    fn run(options: &AnalyzeOptions) -> (Vec<String>, Summary) {
        let items = PositionReader::new(io::Cursor::new(LINES.as_bytes()), "t");
        let mut recorder = Recorder::default();
        let summary = analyze(items, options, &mut recorder).unwrap();
        (recorder.events, summary)
    }

    #[test]
    fn results_come_in_input_order_with_checks() {
        let options = AnalyzeOptions {
            threads: 2,
            hash_mb: 4,
            check: true,
            ..AnalyzeOptions::default()
        };
        let (events, summary) = run(&options);
        assert_eq!(events.len(), 4, "{events:?}");
        assert_eq!(events[0], "t:1 +18");
        assert_eq!(events[1], "bad t:2");
        assert!(events[2].starts_with("t:3 "), "{events:?}");
        assert_eq!(events[3], "t:4 +10");
        assert_eq!((summary.positions, summary.bad_lines), (3, 1));
        // Line 4 says B2 scores +4; it scores +0.
        assert_eq!((summary.checked, summary.correct, summary.wrong), (2, 1, 1));
        assert_eq!(summary.unchecked, 1);
    }

    #[test]
    fn strict_stops_at_the_bad_line_and_resume_skips() {
        let strict = AnalyzeOptions {
            threads: 1,
            hash_mb: 4,
            strict: true,
            ..AnalyzeOptions::default()
        };
        let (events, summary) = run(&strict);
        assert_eq!(events, ["t:1 +18", "bad t:2"]);
        assert!(summary.stopped_at_bad_line);
        let resumed = AnalyzeOptions {
            threads: 2,
            hash_mb: 4,
            skip: 2,
            shard: Shard::new(0, 1).unwrap(),
            ..AnalyzeOptions::default()
        };
        let (events, summary) = run(&resumed);
        assert_eq!(&events[..3], ["resumed t:1", "bad t:2", "resumed t:3"]);
        assert_eq!(events[3], "t:4 +10");
        assert_eq!((summary.resumed, summary.positions), (2, 1));
    }

    #[test]
    fn best_only_and_wld_agree_with_every_move() {
        let parsed = parse_text(LINES.lines().next().unwrap(), Source::inline()).unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            wld: false,
        })
        .unwrap();
        let full = analyze_position(&mut solver, &parsed, 0, &AnalyzeOptions::default()).unwrap();
        let best_only = AnalyzeOptions {
            best_only: true,
            ..AnalyzeOptions::default()
        };
        let best = analyze_position(&mut solver, &parsed, 0, &best_only).unwrap();
        assert_eq!(best.best_score, full.best_score);
        assert_eq!(best.best_moves, full.best_moves);
        assert!(best.moves.iter().all(|m| m.score == full.best_score));
        let mut wld_solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            wld: true,
        })
        .unwrap();
        let wld_options = AnalyzeOptions {
            wld: true,
            check: true,
            ..AnalyzeOptions::default()
        };
        let wld = analyze_position(&mut wld_solver, &parsed, 0, &wld_options).unwrap();
        for m in &wld.moves {
            let exact = full.moves.iter().find(|e| e.mv == m.mv).unwrap();
            assert_eq!(m.score, exact.score.signum());
        }
        assert_eq!(wld.check, Some(Vec::new()));
    }
}
