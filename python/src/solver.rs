//! `osolve.Solver`: the library's exact solver with its table kept across calls, and
//! `solve_many`, which labels many positions through the library's batch solve
//! (`osolve::drivers::solve::solve_all_on`, the scheduling of `osolve analyze`: positions of
//! few empties in parallel, one per thread, deeper ones one at a time on every thread) on
//! solvers kept across calls, with the GIL released. A long search runs on a thread of its own
//! while the calling thread waits and looks for signals: Ctrl-C (or any exception a signal
//! handler raises) stops the search through the library's stop handles within a few tens of
//! milliseconds, and the solver is resumed, ready for the next call, table kept.
//! `solve(progress=...)` hands the library's progress events to a Python callable on the
//! calling thread, as the waiting thread gets them.

use std::ops::ControlFlow;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use osolve::board::rules::Scoring;
use osolve::board::Position as LibPosition;
use osolve::board::{Color, Square};
use osolve::drivers::batch::{BatchError, Options as BatchOptions, Solvers};
use osolve::drivers::solve::{solve_all_on, SolveSink, Solved};
use osolve::search::{
    BestMove, Limits, MoveScore, Progress as LibProgress, ProgressFn, Solution as LibSolution,
    SolveError, SolveOptions, Solver as LibSolver, Stage, StopHandle, Unfinished, FEASIBLE_EMPTIES,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{search_error, tables_error, too_many_empties, LimitReached};
use crate::position::{line_svg, move_name, Position};

/// Positions with at most this many empties are solved on the calling thread, holding the GIL:
/// they take a millisecond or less, so spawning a watching thread would cost more than the
/// search (a 0-4 empties solve is a few microseconds in all), and Ctrl-C waits at most that.
const INLINE_MAX_EMPTIES: u32 = 12;

/// How often the waiting thread looks for signals.
const POLL: Duration = Duration::from_millis(20);

/// The least time between two calls of a `solve_many` progress callback.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The most search threads a Solver takes, as the CLI's `--threads`.
const MAX_THREADS: usize = 1024;

/// `best_moves` value of a position that must pass.
pub const MOVE_PASS: i8 = -1;
/// `best_moves` value of a finished game (no move).
pub const MOVE_NONE: i8 = -2;
/// `scores` value of a position whose search a limit stopped.
pub const SCORE_UNFINISHED: i8 = -128;

/// The result of one search.
type Outcome = Result<LibSolution, Unfinished>;

/// What a stopped search proved: the library's solvers here are forced (the refusal is
/// `Solver::check`'s), so every error is a stop.
fn stopped(error: SolveError) -> Unfinished {
    error
        .unfinished()
        .expect("the solvers are forced: they never refuse")
}

/// The solvers of one `osolve.Solver`: the library's batch solvers, kept across calls. Their
/// solver using every thread for one position at a time serves `solve`, `score_moves` and
/// `best_moves` too (its table shared with `solve_many`'s deep positions); the single-threaded
/// workers of `solve_many`'s positions of few empties are made at its first call.
struct Engine {
    solvers: Solvers,
    /// Where the big solver's progress events go during a `solve(progress=...)`; `None` otherwise.
    events: Arc<Mutex<Option<Sender<LibProgress>>>>,
    threads: usize,
    hash_mb: usize,
    wld: bool,
}

/// The limits of one call from its keyword arguments.
fn limits_of(time_limit: Option<f64>, node_limit: Option<u64>) -> PyResult<Limits> {
    let time = match time_limit {
        None => None,
        Some(seconds) if seconds.is_finite() && seconds >= 0.0 => {
            Some(Duration::from_secs_f64(seconds))
        }
        Some(seconds) => {
            return Err(PyValueError::new_err(format!(
                "time_limit: expected a number of seconds >= 0, found {seconds}"
            )))
        }
    };
    Ok(Limits {
        time,
        nodes: node_limit,
    })
}

/// Runs `work` on `solver`: inline for a position of few empties, else on a thread of its own
/// with the GIL released while this thread looks for signals. When a signal handler raises
/// (KeyboardInterrupt), the search is stopped, the solver resumed and the exception returned.
fn watched<T: Send>(
    py: Python<'_>,
    solver: &mut LibSolver,
    empties: u32,
    work: impl FnOnce(&mut LibSolver) -> T + Send,
) -> PyResult<T> {
    watched_with(py, solver, empties, work, &mut |_| Ok(()))
}

/// [`watched`], calling `poll` on this thread (holding the GIL) each time it looks for
/// signals; an error of `poll` stops the search like a signal's.
fn watched_with<T: Send>(
    py: Python<'_>,
    solver: &mut LibSolver,
    empties: u32,
    work: impl FnOnce(&mut LibSolver) -> T + Send,
    poll: &mut dyn FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T> {
    if empties <= INLINE_MAX_EMPTIES {
        return Ok(work(solver));
    }
    let stop = solver.stop_handle();
    let outcome = thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        let searcher = &mut *solver;
        scope.spawn(move || {
            let _ = tx.send(work(searcher));
        });
        loop {
            let (back, got) = wait(py, rx, POLL);
            rx = back;
            match got {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(error) = py.check_signals().and_then(|()| poll(py)) {
                        stop.stop();
                        // The search sees the stop within a few thousand nodes.
                        let _ = py.detach(move || rx.recv());
                        return Err(error);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the search thread failed"))
                }
            }
        }
    });
    if outcome.is_err() {
        solver.resume();
    }
    outcome
}

/// Waits up to `timeout` for a message with the GIL released; hands the receiver back.
fn wait<T: Send>(
    py: Python<'_>,
    rx: Receiver<T>,
    timeout: Duration,
) -> (Receiver<T>, Result<T, RecvTimeoutError>) {
    py.detach(move || {
        let got = rx.recv_timeout(timeout);
        (rx, got)
    })
}

/// An exact endgame solver with a transposition table that lives across calls.
///
/// ``threads`` search threads (0: one per core; at most 1024) and a table of ``hash_mb`` MiB;
/// with ``wld=True`` it proves only win/draw/loss (scores 1, 0, -1), faster. MemoryError when
/// the system refuses the table's memory (a limit such as ``ulimit -v``).
#[pyclass(module = "osolve", frozen)]
pub struct Solver {
    engine: Mutex<Engine>,
}

impl Solver {
    fn engine(&self) -> PyResult<std::sync::MutexGuard<'_, Engine>> {
        self.engine.try_lock().map_err(|_| {
            PyRuntimeError::new_err(
                "this Solver is busy with a search in another thread: use one Solver per thread",
            )
        })
    }

    /// Refuses `position` when it is too deep to finish without a limit (see the library's
    /// `check_feasible`).
    fn check(
        py: Python<'_>,
        engine: &mut Engine,
        position: &Position,
        limits: Limits,
        force: bool,
    ) -> PyResult<()> {
        if force || !limits.is_none() || position.empties() <= FEASIBLE_EMPTIES {
            return Ok(());
        }
        engine
            .solvers
            .big_mut()
            .check_feasible(&position.game)
            .map_err(|refusal| too_many_empties(py, &refusal))
    }
}

#[pymethods]
impl Solver {
    #[new]
    // Signed, so that a negative number is a ValueError saying what is expected rather than
    // an OverflowError.
    #[pyo3(signature = (threads = 0, hash_mb = 256, *, wld = false))]
    fn new(threads: i64, hash_mb: i64, wld: bool) -> PyResult<Solver> {
        let threads = match usize::try_from(threads) {
            Ok(threads) if threads <= MAX_THREADS => threads,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "threads: expected a number of threads from 0 (one per core) to \
                     {MAX_THREADS}, found {threads}"
                )))
            }
        };
        let hash_mb = match usize::try_from(hash_mb) {
            Ok(hash_mb) if hash_mb > 0 => hash_mb,
            _ => return Err(PyValueError::new_err("hash_mb: expected at least 1 MiB")),
        };
        let most = osolve::huge_pages::max_hash_mb();
        if hash_mb > most {
            return Err(PyValueError::new_err(format!(
                "hash_mb: expected at most {most} MiB (65536, and the machine's memory)"
            )));
        }
        let events: Arc<Mutex<Option<Sender<LibProgress>>>> = Arc::new(Mutex::new(None));
        let sink = Arc::clone(&events);
        let big = LibSolver::new(SolveOptions {
            threads,
            hash_mb,
            wld,
            force: true,
            progress: Some(ProgressFn::new(move |event| {
                if let Ok(slot) = sink.lock() {
                    if let Some(tx) = slot.as_ref() {
                        let _ = tx.send(*event);
                    }
                }
            })),
        })
        .map_err(|e| search_error(&e))?;
        let threads = big.threads();
        Ok(Solver {
            engine: Mutex::new(Engine {
                solvers: Solvers::around(big),
                events,
                threads,
                hash_mb,
                wld,
            }),
        })
    }

    /// The search threads.
    #[getter]
    fn threads(&self) -> PyResult<usize> {
        Ok(self.engine()?.threads)
    }

    /// The table size in MiB.
    #[getter]
    fn hash_mb(&self) -> PyResult<usize> {
        Ok(self.engine()?.hash_mb)
    }

    /// True when the solver proves only win/draw/loss.
    #[getter]
    fn wld(&self) -> PyResult<bool> {
        Ok(self.engine()?.wld)
    }

    /// Forgets every stored result (each later search starts from an empty table).
    fn clear(&self) -> PyResult<()> {
        self.engine()?.solvers.clear();
        Ok(())
    }

    /// Solves ``position`` exactly. With ``time_limit`` (seconds) or ``node_limit`` a search
    /// that reaches the limit returns a Solution with ``exact`` False and the proven bounds.
    /// Positions of more than 36 empties are refused (TooManyEmptiesError) unless ``force`` or
    /// a limit is given. Ctrl-C raises KeyboardInterrupt within a fraction of a second.
    /// ``progress(event)`` is called on this thread with each Progress event of a search of
    /// 12 empties or more (the bounds as they narrow, the move held best, the stage, every
    /// 0.1 s or so), the last one ``finished`` or ``stopped``; an exception it raises stops
    /// the search and is raised.
    #[pyo3(signature = (position, *, time_limit = None, node_limit = None, force = false,
                        progress = None))]
    fn solve(
        &self,
        py: Python<'_>,
        position: &Position,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        force: bool,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Solution> {
        let limits = limits_of(time_limit, node_limit)?;
        let mut engine = self.engine()?;
        let engine = &mut *engine;
        Solver::check(py, engine, position, limits, force)?;
        engine.solvers.big_mut().set_limits(limits);
        let game = position.game;
        let work = move |solver: &mut LibSolver| solver.solve(&game).map_err(stopped);
        let outcome = match &progress {
            None => watched(py, engine.solvers.big_mut(), position.empties(), work),
            Some(callback) => {
                let (tx, rx) = mpsc::channel();
                set_events(&engine.events, Some(tx));
                let mut deliver = |_: Python<'_>| -> PyResult<()> {
                    while let Ok(event) = rx.try_recv() {
                        callback.call1((ProgressEvent::of(&event),))?;
                    }
                    Ok(())
                };
                let outcome = watched_with(
                    py,
                    engine.solvers.big_mut(),
                    position.empties(),
                    work,
                    &mut deliver,
                );
                set_events(&engine.events, None);
                if outcome.is_ok() {
                    // The events sent after the last look, the last one included.
                    deliver(py)?;
                }
                outcome
            }
        };
        engine.solvers.big_mut().set_limits(Limits::NONE);
        Ok(Solution::of(position, outcome?, engine.wld, engine.threads))
    }

    /// The exact score of every move of ``position`` as a dict from move (``"a2"``, or
    /// ``"pass"`` when the side to move must pass) to score, best first (ties in square
    /// order); empty for a finished game. A limit that stops it raises LimitReached.
    #[pyo3(signature = (position, *, time_limit = None, node_limit = None, force = false))]
    fn score_moves<'py>(
        &self,
        py: Python<'py>,
        position: &Position,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        force: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let limits = limits_of(time_limit, node_limit)?;
        let mut engine = self.engine()?;
        let engine = &mut *engine;
        Solver::check(py, engine, position, limits, force)?;
        engine.solvers.big_mut().set_limits(limits);
        let game = position.game;
        let outcome = watched(
            py,
            engine.solvers.big_mut(),
            position.empties(),
            move |solver| solver.score_moves(&game).map_err(stopped),
        );
        engine.solvers.big_mut().set_limits(Limits::NONE);
        match outcome? {
            Ok((scores, _nodes)) => score_dict(py, &scores),
            Err(unfinished) => Err(limit_reached(py, &unfinished)?),
        }
    }

    /// The best score of ``position`` and every move that reaches it (square order), as
    /// ``(score, moves)``: faster than score_moves when only the best moves matter. A limit
    /// that stops it raises LimitReached.
    #[pyo3(signature = (position, *, time_limit = None, node_limit = None, force = false))]
    fn best_moves(
        &self,
        py: Python<'_>,
        position: &Position,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        force: bool,
    ) -> PyResult<(i32, Vec<String>)> {
        let limits = limits_of(time_limit, node_limit)?;
        let mut engine = self.engine()?;
        let engine = &mut *engine;
        Solver::check(py, engine, position, limits, force)?;
        engine.solvers.big_mut().set_limits(limits);
        let game = position.game;
        let outcome = watched(
            py,
            engine.solvers.big_mut(),
            position.empties(),
            move |solver| solver.best_moves(&game).map_err(stopped),
        );
        engine.solvers.big_mut().set_limits(Limits::NONE);
        match outcome? {
            Ok((score, moves, _nodes)) => Ok((score, moves.into_iter().map(move_name).collect())),
            Err(unfinished) => Err(limit_reached(py, &unfinished)?),
        }
    }

    /// Solves many positions: an (N, 2) uint64 array of (player, opponent) bitboards (black to
    /// move, Othello rules) or a sequence of Positions, through the library's batch solve (as
    /// ``osolve analyze`` runs): positions of up to 19 empties are solved in parallel with each
    /// other, one per thread (solvers made at the first call and kept, tables and all), the
    /// others one at a time on every thread by the solver of ``solve``; the GIL is released
    /// throughout. Without ``force`` or a limit, the first position too deep to finish raises
    /// TooManyEmptiesError (after the positions before it).
    /// ``progress(done, total)`` is called at most four times a second and once at the end.
    /// Returns a Batch whose arrays are in input order.
    #[pyo3(signature = (positions, *, progress = None, time_limit = None, node_limit = None,
                        force = false))]
    fn solve_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        progress: Option<Bound<'_, PyAny>>,
        time_limit: Option<f64>,
        node_limit: Option<u64>,
        force: bool,
    ) -> PyResult<Batch> {
        let items = positions_of(positions)?;
        let limits = limits_of(time_limit, node_limit)?;
        let start = Instant::now();
        // Held for the whole call: a second call on the same Solver meanwhile is refused.
        let mut engine = self.engine()?;
        let options = BatchOptions {
            // The first refusal ends the run (it is raised), so nothing after it is solved.
            strict: true,
            threads: engine.threads,
            hash_mb: engine.hash_mb,
            wld: engine.wld,
            limits,
            ..BatchOptions::default()
        };
        let mut rows = vec![Row::default(); items.len()];
        let mut reporter = Progress::new(progress, items.len());
        if !items.is_empty() {
            let positions = items.iter().map(|position| position.game).collect();
            let solvers = &mut engine.solvers;
            solve_batch(
                py,
                solvers,
                positions,
                &options,
                force,
                &mut rows,
                &mut reporter,
            )?;
        }
        reporter.finish(py)?;
        Ok(Batch::new(py, &rows, start.elapsed().as_secs_f64()))
    }

    fn __repr__(&self) -> PyResult<String> {
        let engine = self.engine()?;
        Ok(format!(
            "osolve.Solver(threads={}, hash_mb={}{})",
            engine.threads,
            engine.hash_mb,
            if engine.wld { ", wld=True" } else { "" }
        ))
    }
}

/// Points the big solver's progress events at `tx` (or nowhere).
fn set_events(events: &Mutex<Option<Sender<LibProgress>>>, tx: Option<Sender<LibProgress>>) {
    if let Ok(mut slot) = events.lock() {
        *slot = tx;
    }
}

/// One progress event of `Solver.solve(progress=...)`.
#[pyclass(module = "osolve", name = "Progress", frozen)]
pub struct ProgressEvent {
    /// Seconds since the search started.
    #[pyo3(get)]
    seconds: f64,
    /// Nodes searched so far.
    #[pyo3(get)]
    nodes: u64,
    /// Proven lower bound of the score (never above the exact score; only rises).
    #[pyo3(get)]
    lower: i32,
    /// Proven upper bound of the score (only falls).
    #[pyo3(get)]
    upper: i32,
    /// The move the search holds best so far (``"a2"``, ``"pass"``), or None before it has one;
    /// proven best only in the last event.
    #[pyo3(get)]
    best_move: Option<String>,
    /// ``"selective"``, ``"exact"``, ``"pv"``, ``"finished"`` or ``"stopped"``.
    #[pyo3(get)]
    stage: &'static str,
    /// In a selective stage, its pass from 1 and the passes in all.
    #[pyo3(get)]
    selective_pass: Option<(usize, usize)>,
    /// In a selective stage, its margin in discs.
    #[pyo3(get)]
    margin: Option<i32>,
    /// The last selective search's value: a guess, never a bound; None before one.
    #[pyo3(get)]
    estimate: Option<i32>,
    /// In the exact stage, the window (alpha, beta) searched (exclusive).
    #[pyo3(get)]
    window: Option<(i32, i32)>,
    /// When stopped: ``"interrupted"``, ``"time limit"`` or ``"node limit"``.
    #[pyo3(get)]
    stop_reason: Option<&'static str>,
}

impl ProgressEvent {
    fn of(event: &LibProgress) -> ProgressEvent {
        let (stage, selective_pass, margin, window, stop_reason) = match event.stage {
            Stage::Selective {
                pass,
                passes,
                margin,
            } => ("selective", Some((pass, passes)), Some(margin), None, None),
            Stage::Exact { alpha, beta } => ("exact", None, None, Some((alpha, beta)), None),
            Stage::PrincipalVariation => ("pv", None, None, None, None),
            Stage::Finished => ("finished", None, None, None, None),
            Stage::Stopped(reason) => ("stopped", None, None, None, Some(reason.name())),
        };
        ProgressEvent {
            seconds: event.elapsed.as_secs_f64(),
            nodes: event.nodes,
            lower: event.lower,
            upper: event.upper,
            best_move: event.best_move.and_then(|best| match best {
                BestMove::Play(square) => Some(square.to_string()),
                BestMove::Pass => Some(move_name(None)),
                BestMove::GameOver => None,
            }),
            stage,
            selective_pass,
            margin,
            estimate: event.estimate,
            window,
            stop_reason,
        }
    }
}

#[pymethods]
impl ProgressEvent {
    fn __repr__(&self) -> String {
        format!(
            "<osolve.Progress {} {:+}..{:+} best_move={} nodes={} seconds={:.3}>",
            self.stage,
            self.lower,
            self.upper,
            self.best_move.as_deref().unwrap_or("None"),
            self.nodes,
            self.seconds
        )
    }
}

/// The positions of `solve_many`'s argument.
fn positions_of(positions: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    if let Ok(array) = positions.extract::<PyReadonlyArray2<'_, u64>>() {
        let shape = array.shape();
        if shape[1] != 2 {
            return Err(PyValueError::new_err(format!(
                "expected an (N, 2) array of (player, opponent) bitboards, found shape \
                 ({}, {})",
                shape[0], shape[1]
            )));
        }
        let view = array.as_array();
        return view
            .rows()
            .into_iter()
            .enumerate()
            .map(|(i, row)| {
                Position::from_parts(
                    row[0],
                    row[1],
                    Color::Black,
                    osolve::board::rules::Rules::Othello,
                    Scoring::Official,
                    None,
                )
                .map_err(|e| PyValueError::new_err(format!("row {i}: {e}")))
            })
            .collect();
    }
    if let Ok(array) = positions.cast::<numpy::PyUntypedArray>() {
        return Err(PyTypeError::new_err(format!(
            "expected an (N, 2) array of dtype uint64, found {} dimension(s) of dtype {}",
            array.ndim(),
            array.dtype()
        )));
    }
    let mut items = Vec::new();
    for (i, item) in positions.try_iter()?.enumerate() {
        let item = item?;
        let position = item.cast::<Position>().map_err(|_| {
            PyTypeError::new_err(format!(
                "item {i}: expected an osolve.Position, found {}",
                item.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        items.push(*position.get());
    }
    Ok(items)
}

/// The stop handles of a [`solve_all_on`] run, which the calling thread fires to stop it; a
/// handle registered after that is fired at once.
#[derive(Default)]
struct Stops(Mutex<(bool, Vec<StopHandle>)>);

impl Stops {
    fn add(&self, handle: StopHandle) {
        let mut stops = lock(&self.0);
        if stops.0 {
            handle.stop();
        }
        stops.1.push(handle);
    }

    fn stop(&self) {
        let mut stops = lock(&self.0);
        stops.0 = true;
        for handle in &stops.1 {
            handle.stop();
        }
    }
}

/// The sink of a [`solve_all_on`] run on its own thread: it files every result for the
/// calling thread, which takes them each time it looks (not woken once per position); a
/// refusal ends the run.
struct Forward<'a> {
    results: &'a Mutex<Vec<Solved>>,
    stops: &'a Stops,
    /// Dropped with the sink at the end of the run: wakes the calling thread.
    _end: Sender<()>,
}

impl SolveSink for Forward<'_> {
    fn register(&mut self, handle: StopHandle) {
        self.stops.add(handle);
    }

    fn solved(&mut self, solved: Solved) -> ControlFlow<()> {
        let refused = matches!(solved.result, Err(SolveError::Refused(_)));
        lock(self.results).push(solved);
        if refused {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// The lock of `mutex`, poisoned or not.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Solves `positions` into `rows` by the library's batch solve on the kept `solvers`
/// ([`solve_all_on`]) on a thread of its own, while this thread, the GIL released between
/// looks (every [`POLL`], and at the end of the run), takes the results, calls the progress
/// callback and looks for signals. A refusal is raised as TooManyEmptiesError (the first one
/// in input order); an exception from the callback or a signal handler stops the run and is
/// raised.
fn solve_batch(
    py: Python<'_>,
    solvers: &mut Solvers,
    positions: Vec<LibPosition>,
    options: &BatchOptions,
    force: bool,
    rows: &mut [Row],
    reporter: &mut Progress<'_>,
) -> PyResult<()> {
    let stops = Stops::default();
    let results = Mutex::new(Vec::new());
    let total = positions.len();
    let searchers = &mut *solvers;
    let outcome = thread::scope(|scope| {
        let (end_tx, mut end) = mpsc::channel::<()>();
        let (stops, results) = (&stops, &results);
        let run = scope.spawn(move || {
            let mut sink = Forward {
                results,
                stops,
                _end: end_tx,
            };
            solve_all_on(searchers, positions, options, force, &mut sink)
        });
        let mut failure = None;
        let mut done = 0;
        loop {
            let (back, got) = wait(py, end, POLL);
            end = back;
            // Nothing is sent: the channel says only that the run is over (its sink is gone).
            let over = matches!(got, Err(RecvTimeoutError::Disconnected));
            let mut more = 0;
            for Solved { index, result } in std::mem::take(&mut *lock(results)) {
                match result {
                    Ok(solution) => {
                        rows[index] = Row::of(&Ok(solution));
                        more += 1;
                    }
                    Err(SolveError::Unfinished(unfinished)) => {
                        rows[index] = Row::of(&Err(unfinished));
                        more += 1;
                    }
                    Err(SolveError::Refused(refusal)) => {
                        if failure.is_none() {
                            failure = Some(too_many_empties(py, &refusal));
                        }
                    }
                }
            }
            done += more;
            if failure.is_none() {
                let step = reporter
                    .step(py, more, false)
                    .and_then(|()| py.check_signals());
                if let Err(error) = step {
                    stops.stop();
                    failure = Some(error);
                }
            }
            if over {
                break;
            }
        }
        let ended = py.detach(move || run.join());
        match (failure, ended) {
            (Some(error), _) => Err(error),
            (None, Ok(Err(BatchError::Search(error)))) => Err(search_error(&error)),
            (None, Ok(Err(BatchError::Tables(error)))) => Err(tables_error(&error)),
            (None, Ok(Err(error))) => Err(PyRuntimeError::new_err(error.to_string())),
            (None, Ok(Ok(_))) if done == total => Ok(()),
            (None, _) => Err(PyRuntimeError::new_err("a search thread failed")),
        }
    });
    // A stop asked for once the run had ended (a progress callback's error or a signal seen
    // with its last results) reached the solvers after the run lifted its own stops.
    solvers.resume();
    outcome
}

/// Calls a progress callback at most every [`PROGRESS_EVERY`].
struct Progress<'py> {
    callback: Option<Bound<'py, PyAny>>,
    total: usize,
    done: usize,
    last: Instant,
}

impl<'py> Progress<'py> {
    fn new(callback: Option<Bound<'py, PyAny>>, total: usize) -> Progress<'py> {
        Progress {
            callback,
            total,
            done: 0,
            last: Instant::now(),
        }
    }

    /// Counts `more` positions done; calls back when it is time (and `check` looks for
    /// signals: the parallel phase does so itself).
    fn step(&mut self, py: Python<'_>, more: usize, check: bool) -> PyResult<()> {
        self.done += more;
        if check {
            py.check_signals()?;
        }
        if self.last.elapsed() >= PROGRESS_EVERY {
            self.call()?;
        }
        Ok(())
    }

    fn call(&mut self) -> PyResult<()> {
        self.last = Instant::now();
        if let Some(callback) = &self.callback {
            callback.call1((self.done, self.total))?;
        }
        Ok(())
    }

    fn finish(&mut self, _py: Python<'_>) -> PyResult<()> {
        self.done = self.total;
        self.call()
    }
}

/// One position's result in `solve_many`.
#[derive(Clone, Copy, Debug)]
struct Row {
    score: i8,
    lower: i8,
    upper: i8,
    best: i8,
    nodes: u64,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            score: SCORE_UNFINISHED,
            lower: -64,
            upper: 64,
            best: MOVE_NONE,
            nodes: 0,
        }
    }
}

impl Row {
    fn of(outcome: &Outcome) -> Row {
        match outcome {
            Ok(solution) => Row {
                score: solution.score as i8,
                lower: solution.score as i8,
                upper: solution.score as i8,
                best: match solution.best_move {
                    BestMove::Play(square) => square.index() as i8,
                    BestMove::Pass => MOVE_PASS,
                    BestMove::GameOver => MOVE_NONE,
                },
                nodes: solution.nodes,
            },
            Err(unfinished) => Row {
                score: SCORE_UNFINISHED,
                lower: unfinished.bounds.lower as i8,
                upper: unfinished.bounds.upper as i8,
                best: MOVE_NONE,
                nodes: unfinished.nodes,
            },
        }
    }
}

/// The results of `Solver.solve_many`, as numpy arrays in input order.
#[pyclass(module = "osolve", frozen)]
pub struct Batch {
    /// Exact scores (int8); -128 where a limit stopped the search.
    #[pyo3(get)]
    scores: Py<PyArray1<i8>>,
    /// Proven lower bounds (int8; the score when exact).
    #[pyo3(get)]
    lower: Py<PyArray1<i8>>,
    /// Proven upper bounds (int8; the score when exact).
    #[pyo3(get)]
    upper: Py<PyArray1<i8>>,
    /// Best moves as square indices (int8, a1 = 0 ... h8 = 63); -1 a forced pass, -2 no move
    /// (the game is over, or a limit stopped the search).
    #[pyo3(get)]
    best_moves: Py<PyArray1<i8>>,
    /// Nodes searched (uint64).
    #[pyo3(get)]
    nodes: Py<PyArray1<u64>>,
    /// Wall time of the whole call in seconds.
    #[pyo3(get)]
    seconds: f64,
    len: usize,
}

impl Batch {
    fn new(py: Python<'_>, rows: &[Row], seconds: f64) -> Batch {
        let column = |f: fn(&Row) -> i8| rows.iter().map(f).collect::<Vec<i8>>();
        Batch {
            scores: column(|r| r.score).into_pyarray(py).unbind(),
            lower: column(|r| r.lower).into_pyarray(py).unbind(),
            upper: column(|r| r.upper).into_pyarray(py).unbind(),
            best_moves: column(|r| r.best).into_pyarray(py).unbind(),
            nodes: rows
                .iter()
                .map(|r| r.nodes)
                .collect::<Vec<u64>>()
                .into_pyarray(py)
                .unbind(),
            seconds,
            len: rows.len(),
        }
    }
}

#[pymethods]
impl Batch {
    /// The best moves by name: ``"a2"``, ``"pass"``, or None (no move).
    fn best_move_names(&self, py: Python<'_>) -> PyResult<Vec<Option<String>>> {
        let moves = self.best_moves.bind(py).readonly();
        Ok(moves
            .as_slice()?
            .iter()
            .map(|&m| match m {
                MOVE_PASS => Some(move_name(None)),
                m if m >= 0 => Square::new(m as usize).map(|s| s.to_string()),
                _ => None,
            })
            .collect())
    }

    /// True where every score is exact.
    #[getter]
    fn exact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let scores = self.scores.bind(py).readonly();
        let exact: Vec<bool> = scores
            .as_slice()?
            .iter()
            .map(|&s| s != SCORE_UNFINISHED)
            .collect();
        Ok(exact.into_pyarray(py))
    }

    fn __len__(&self) -> usize {
        self.len
    }

    fn __repr__(&self) -> String {
        format!(
            "<osolve.Batch of {} positions in {:.3} s>",
            self.len, self.seconds
        )
    }
}

/// The result of `Solver.solve`.
#[pyclass(module = "osolve", frozen)]
pub struct Solution {
    /// The position solved.
    #[pyo3(get)]
    position: Position,
    /// The exact score for the side to move (final disc difference under perfect play, empties
    /// to the winner under official scoring; 1, 0 or -1 with WLD); None when a limit stopped
    /// the search (see lower and upper).
    #[pyo3(get)]
    score: Option<i32>,
    /// True when the score is proven; False when a limit stopped the search first.
    #[pyo3(get)]
    exact: bool,
    /// Proven lower bound of the score.
    #[pyo3(get)]
    lower: i32,
    /// Proven upper bound of the score.
    #[pyo3(get)]
    upper: i32,
    /// True when only win/draw/loss was proven.
    #[pyo3(get)]
    wld: bool,
    /// The first move of perfect play: ``"a2"``, ``"pass"``, or None (game over, or not
    /// proven).
    #[pyo3(get)]
    best_move: Option<String>,
    /// Perfect play to the end of the game (``"pass"`` for a pass); with WLD just the best
    /// move; when stopped by a limit, the part proven (often empty).
    #[pyo3(get)]
    pv: Vec<String>,
    /// The discs (black, white) at the end of perfect play, empty squares to the winner under
    /// official scoring (as the CLI reports them); None with WLD or when not exact.
    #[pyo3(get)]
    final_discs: Option<(u32, u32)>,
    /// Positions searched.
    #[pyo3(get)]
    nodes: u64,
    /// Wall time of the search in seconds.
    #[pyo3(get)]
    seconds: f64,
    /// Threads used.
    #[pyo3(get)]
    threads: usize,
    /// None, or why the search stopped early: ``"time limit"`` or ``"node limit"``.
    #[pyo3(get)]
    stop_reason: Option<&'static str>,
    pv_squares: Vec<Option<Square>>,
}

impl Solution {
    fn of(position: &Position, outcome: Outcome, wld: bool, threads: usize) -> Solution {
        match outcome {
            Ok(solution) => {
                // As the CLI reports them: under official scoring the empty squares go to the
                // winner, under raw scoring the discs on the board.
                let final_discs = match solution.position.scoring() {
                    Scoring::Official => solution.final_discs(),
                    Scoring::Raw => solution.final_count().map(|c| (c.black, c.white)),
                };
                Solution {
                    position: *position,
                    score: Some(solution.score),
                    exact: true,
                    lower: solution.score,
                    upper: solution.score,
                    wld,
                    best_move: match solution.best_move {
                        BestMove::Play(square) => Some(square.to_string()),
                        BestMove::Pass => Some(move_name(None)),
                        BestMove::GameOver => None,
                    },
                    pv: solution.pv.iter().copied().map(move_name).collect(),
                    final_discs,
                    nodes: solution.nodes,
                    seconds: solution.time.as_secs_f64(),
                    threads: solution.threads,
                    stop_reason: None,
                    pv_squares: solution.pv,
                }
            }
            Err(unfinished) => Solution {
                position: *position,
                score: None,
                exact: false,
                lower: unfinished.bounds.lower,
                upper: unfinished.bounds.upper,
                wld,
                best_move: unfinished.pv.first().copied().map(move_name),
                pv: unfinished.pv.iter().copied().map(move_name).collect(),
                final_discs: None,
                nodes: unfinished.nodes,
                seconds: unfinished.time.as_secs_f64(),
                threads,
                stop_reason: Some(unfinished.bounds.reason.name()),
                pv_squares: unfinished.pv,
            },
        }
    }
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        match self.score {
            Some(score) => format!(
                "<osolve.Solution score={score:+} best_move={} nodes={}>",
                self.best_move.as_deref().unwrap_or("None"),
                self.nodes
            ),
            None => format!(
                "<osolve.Solution unfinished ({}): {:+}..{:+} nodes={}>",
                self.stop_reason.unwrap_or("stopped"),
                self.lower,
                self.upper,
                self.nodes
            ),
        }
    }

    /// The position with the principal variation numbered on it, in Jupyter.
    fn _repr_svg_(&self) -> String {
        line_svg(
            &self.position,
            self.pv_squares.clone(),
            self.score.unwrap_or(self.lower),
            self.wld,
        )
    }
}

/// `{move: score}` best first.
fn score_dict<'py>(py: Python<'py>, scores: &[MoveScore]) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for score in scores {
        dict.set_item(move_name(score.mv), score.score)?;
    }
    Ok(dict)
}

/// `osolve.LimitReached` for a stopped move scoring or best-move listing.
fn limit_reached(py: Python<'_>, unfinished: &Unfinished) -> PyResult<PyErr> {
    let bounds = unfinished.bounds;
    let error = LimitReached::new_err(format!(
        "stopped by the {} after {} nodes: the best score is proven within {:+}..{:+}",
        bounds.reason, unfinished.nodes, bounds.lower, bounds.upper
    ));
    let value = error.value(py);
    value.setattr("reason", bounds.reason.name())?;
    value.setattr("lower", bounds.lower)?;
    value.setattr("upper", bounds.upper)?;
    value.setattr("scores", score_dict(py, &unfinished.moves)?)?;
    value.setattr("nodes", unfinished.nodes)?;
    Ok(error)
}
