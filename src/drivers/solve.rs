//! Solving many positions. [`solve_each`] is the driver of `osolve solve`: positions as they
//! are read, one after the other with one solver (every thread in each search), each result
//! handed to an [`EachSink`] as soon as it is proven. [`solve_all`] is the library's face over
//! the batch driver ([`super::batch`]) for callers that hold positions rather than files (a
//! binding, a script): small positions are solved side by side, one per thread; deep ones one
//! at a time on all the threads; results come back in input order, each as soon as it and all
//! before it are done, through a [`SolveSink`] that can also stop the run. [`solve_all_on`] is
//! the same on solvers the caller keeps across calls ([`Solvers`]). Never prints, never reads
//! files.

use std::convert::Infallible;
use std::io;
use std::ops::ControlFlow;

use super::batch::{self, BatchError, Options, Solvers, Totals, Unsolved, Work};
use crate::board::Position;
use crate::drivers::analyze::ESTIMATE_HASH_MB;
use crate::engine::estimate::{EstimateError, Estimator};
use crate::notation::{ParseError, Parsed};
use crate::search::{
    Solution, SolveError, Solver, StopHandle, StopReason, TooManyEmpties, Unfinished,
};

/// Receives what [`solve_each`] makes of each input item, in input order. An error from any
/// method ends the run with it.
pub trait EachSink {
    /// An item could not be read; it is skipped.
    fn bad(&mut self, error: &ParseError) -> io::Result<()>;
    /// The search of `parsed` starts (a terminal may show that it runs). The default does
    /// nothing.
    fn start(&mut self, parsed: &Parsed) {
        let _ = parsed;
    }
    /// The search that [`EachSink::start`] announced is over, whatever its outcome. The
    /// default does nothing.
    fn finish(&mut self) {}
    /// The answer for `parsed`: its solution, its refusal (too deep to finish without a limit
    /// or `force`), or the bounds a limit left. A stop request ends the run instead.
    fn answer(&mut self, parsed: &Parsed, result: Result<Solution, SolveError>) -> io::Result<()>;
    /// The answer for `parsed` whose solve a time or node limit stopped, with the best estimate
    /// of its score ([`Estimator::after_stop`], marked as an estimate) when one was made. The
    /// default drops the estimate and calls [`EachSink::answer`].
    fn answer_with_estimate(
        &mut self,
        parsed: &Parsed,
        result: Result<Solution, SolveError>,
        estimate: Option<Solution>,
    ) -> io::Result<()> {
        let _ = estimate;
        self.answer(parsed, result)
    }
    /// A stop request (Ctrl-C, SIGTERM) ended the search of `parsed`, with what it had proven
    /// (`unfinished`: the bounds of its score, the nodes and time it took); the run ends after
    /// it. Not an answer: the position was not finished. The default ignores it.
    fn interrupted(&mut self, parsed: &Parsed, unfinished: &Unfinished) -> io::Result<()> {
        let _ = (parsed, unfinished);
        Ok(())
    }
}

/// What a [`solve_each`] run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EachTotals {
    /// Positions solved, or stopped by a limit with their bounds.
    pub solved: usize,
    /// Positions refused.
    pub refused: usize,
    /// Items that could not be read.
    pub bad: usize,
    /// A stop request ended the run.
    pub interrupted: bool,
}

/// Solves the positions of `items` one after the other with `solver` (its options, limits and
/// refusal), handing each answer to `sink` as soon as it is found. A stop request (through
/// [`Solver::stop_handle`]) ends the run, before the next position or during its search (what
/// that search had proven goes to [`EachSink::interrupted`]); the totals then say
/// `interrupted`.
///
/// ```
/// use osolve::drivers::solve::{solve_each, EachSink};
/// use osolve::notation::{parse_position, ParseError, Parsed};
/// use osolve::search::{Solution, SolveError, SolveOptions, Solver};
///
/// struct Scores(Vec<i32>);
/// impl EachSink for Scores {
///     fn bad(&mut self, _: &ParseError) -> std::io::Result<()> {
///         Ok(())
///     }
///     fn answer(&mut self, _: &Parsed, result: Result<Solution, SolveError>) -> std::io::Result<()> {
///         self.0.push(result.unwrap().score);
///         Ok(())
///     }
/// }
///
/// let ffo1 = parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X");
/// let mut solver = Solver::new(SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() })?;
/// let mut scores = Scores(Vec::new());
/// let totals = solve_each(&mut solver, [ffo1], &mut scores)?;
/// assert_eq!((totals.solved, scores.0), (1, vec![18]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_each<I>(
    solver: &mut Solver,
    items: I,
    sink: &mut dyn EachSink,
) -> io::Result<EachTotals>
where
    I: IntoIterator<Item = Result<Parsed, ParseError>>,
{
    solve_each_with(solver, None, items, sink)
}

/// [`solve_each`], or with `depth` an estimate of each position instead (the middle-game
/// search to `depth` plies, [`Estimator::solve`]: each answer a [`Solution`] marked as an
/// estimate), stopped by `solver`'s handle. Without `depth`, a solve that a time or node limit
/// stops is answered through [`EachSink::answer_with_estimate`] with the best estimate of its
/// score. With `depth`, a position under other rules or scoring than Othello's official ones
/// ends the run with an error (the evaluation knows no other).
pub fn solve_each_with<I>(
    solver: &mut Solver,
    depth: Option<u32>,
    items: I,
    sink: &mut dyn EachSink,
) -> io::Result<EachTotals>
where
    I: IntoIterator<Item = Result<Parsed, ParseError>>,
{
    let stop = solver.stop_handle();
    let wld = solver.options().wld;
    // Made when first needed: an exact run that no limit stops never allocates its table.
    let mut estimator: Option<Estimator> = None;
    let mut totals = EachTotals::default();
    for item in items {
        let parsed = match item {
            Ok(parsed) => parsed,
            Err(error) => {
                totals.bad += 1;
                sink.bad(&error)?;
                continue;
            }
        };
        // A finished game needs no search, so the stop request is looked at here too.
        if stop.is_stopped() {
            totals.interrupted = true;
            break;
        }
        sink.start(&parsed);
        let (result, estimate) = match depth {
            Some(depth) => {
                let estimated = estimator
                    .get_or_insert_with(|| Estimator::new(ESTIMATE_HASH_MB))
                    .solve(&parsed.position, depth, Some(&stop));
                match estimated {
                    Ok(solution) => (Ok(solution), None),
                    Err(EstimateError::Stopped(_)) => {
                        sink.finish();
                        totals.interrupted = true;
                        break;
                    }
                    Err(error @ EstimateError::Rules) => {
                        sink.finish();
                        return Err(io::Error::other(error));
                    }
                }
            }
            None => {
                let result = solver.solve(&parsed.position);
                let estimate = match &result {
                    Err(SolveError::Unfinished(unfinished)) if !stop.is_stopped() => {
                        let made = || Estimator::new(ESTIMATE_HASH_MB);
                        estimator.get_or_insert_with(made).after_stop(
                            &parsed.position,
                            unfinished,
                            wld,
                            Some(&stop),
                        )
                    }
                    _ => None,
                };
                (result, estimate)
            }
        };
        sink.finish();
        if let Err(SolveError::Unfinished(unfinished)) = &result {
            if unfinished.bounds.reason == StopReason::Interrupted {
                totals.interrupted = true;
                sink.interrupted(&parsed, unfinished)?;
                break;
            }
        }
        let refused = matches!(result, Err(SolveError::Refused(_)));
        if matches!(result, Err(SolveError::Unfinished(_))) {
            sink.answer_with_estimate(&parsed, result, estimate)?;
        } else {
            sink.answer(&parsed, result)?;
        }
        if refused {
            totals.refused += 1;
        } else {
            totals.solved += 1;
        }
    }
    Ok(totals)
}

/// One position's answer in a [`solve_all`] run.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// The position's 0-based index in the input.
    pub index: usize,
    /// Its solution, or why there is none: refused (too deep without a limit or `force`), or
    /// stopped by a limit with the bounds it proved. (A stop request ends the run instead.)
    pub result: Result<Solution, SolveError>,
}

/// Receives the results of a [`solve_all`] run, always on the thread that called it and in input
/// order.
pub trait SolveSink {
    /// A solver of the run was created; firing `handle` (from any thread) stops the run. The
    /// default ignores it.
    fn register(&mut self, handle: StopHandle) {
        let _ = handle;
    }
    /// One position is finished; [`ControlFlow::Break`] stops the run (positions being solved
    /// are abandoned, none after this one is reported).
    fn solved(&mut self, solved: Solved) -> ControlFlow<()>;
}

/// Solves every position of `positions` exactly (each under its own rules and scoring) with the
/// threads, table size, WLD and limits of `options` (its `strict`, `shard` and `skip` apply as in
/// any batch run), handing each result to `sink` in input order. Without `force`, a position too
/// deep to finish without a limit is refused (reported as [`SolveError::Refused`]). The totals
/// say whether the run was stopped.
///
/// ```
/// use std::ops::ControlFlow;
/// use osolve::board::random::{random_position, Rng};
/// use osolve::drivers::batch::Options;
/// use osolve::drivers::solve::{solve_all, SolveSink, Solved};
///
/// struct Scores(Vec<(usize, i32)>);
/// impl SolveSink for Scores {
///     fn solved(&mut self, solved: Solved) -> ControlFlow<()> {
///         self.0.push((solved.index, solved.result.unwrap().score));
///         ControlFlow::Continue(())
///     }
/// }
///
/// let mut rng = Rng(1);
/// let positions: Vec<_> = (0..4).map(|_| random_position(&mut rng, 10)).collect();
/// let options = Options { threads: 2, hash_mb: 8, ..Options::default() };
/// let mut scores = Scores(Vec::new());
/// let totals = solve_all(positions.clone(), &options, false, &mut scores)?;
/// assert_eq!(totals.done, 4);
/// assert_eq!(scores.0.iter().map(|&(i, _)| i).collect::<Vec<_>>(), [0, 1, 2, 3]);
/// // The same scores as one solver's, one position after the other.
/// let mut solver = osolve::search::Solver::new(Default::default())?;
/// for (&(_, score), position) in scores.0.iter().zip(&positions) {
///     assert_eq!(score, solver.solve(position)?.score);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_all<I>(
    positions: I,
    options: &Options,
    force: bool,
    sink: &mut dyn SolveSink,
) -> Result<Totals, BatchError>
where
    I: IntoIterator<Item = Position>,
    I::IntoIter: Send + 'static,
{
    let mut solvers = Solvers::new(options)?;
    solve_all_on(&mut solvers, positions, options, force, sink)
}

/// [`solve_all`] on `solvers`, which the caller keeps from one call to the next (see
/// [`Solvers`]): their tables are made once and keep what they found, so that a small call
/// costs little beyond its searches (fresh tables cost each call the kernel's zeroing of every
/// page it touches). Of `options`, the threads, table size and WLD serve
/// only to make the workers at the first call on [`Solvers::around`]; the limits are the
/// solvers' for this call only. The solvers are resumed after the call, stopped or not.
///
/// ```
/// use std::ops::ControlFlow;
/// use osolve::board::random::{random_position, Rng};
/// use osolve::drivers::batch::{Options, Solvers};
/// use osolve::drivers::solve::{solve_all_on, SolveSink, Solved};
///
/// struct Count(usize);
/// impl SolveSink for Count {
///     fn solved(&mut self, _: Solved) -> ControlFlow<()> {
///         self.0 += 1;
///         ControlFlow::Continue(())
///     }
/// }
///
/// let options = Options { threads: 2, hash_mb: 8, ..Options::default() };
/// let mut solvers = Solvers::new(&options)?;
/// let mut rng = Rng(3);
/// for _ in 0..3 {
///     let positions: Vec<_> = (0..4).map(|_| random_position(&mut rng, 10)).collect();
///     let mut count = Count(0);
///     solve_all_on(&mut solvers, positions, &options, false, &mut count)?;
///     assert_eq!(count.0, 4);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_all_on<I>(
    solvers: &mut Solvers,
    positions: I,
    options: &Options,
    force: bool,
    sink: &mut dyn SolveSink,
) -> Result<Totals, BatchError>
where
    I: IntoIterator<Item = Position>,
    I::IntoIter: Send + 'static,
{
    let items = positions.into_iter().enumerate().map(Ok);
    let mut adapter = Adapter::new(sink);
    batch::run_held_on(solvers, &Solving { force }, items, options, &mut adapter)
}

/// The batch driver's work: one exact solve per position.
struct Solving {
    force: bool,
}

impl Work for Solving {
    type Item = (usize, Position);
    type Output = Solved;
    type Bad = Infallible;

    fn empties(&self, (_, position): &(usize, Position)) -> u32 {
        position.board.empties()
    }

    fn feasible(
        &self,
        checker: &mut Solver,
        (_, position): &(usize, Position),
    ) -> Result<(), TooManyEmpties> {
        if self.force {
            Ok(())
        } else {
            checker.check_feasible(position)
        }
    }

    fn solve(
        &self,
        solver: &mut Solver,
        &(index, position): &(usize, Position),
        _: usize,
    ) -> Result<Solved, Unsolved> {
        match solver.solve(&position) {
            Err(error) if error.is_interrupted() => Err(Unsolved::Stopped),
            result => Ok(Solved { index, result }),
        }
    }
}

/// The caller's sink as the batch driver's: stops every solver when it says so.
struct Adapter<'a> {
    sink: &'a mut dyn SolveSink,
    handles: Vec<StopHandle>,
    /// The sink said stop: nothing more reaches it.
    stopped: bool,
}

impl<'a> Adapter<'a> {
    fn new(sink: &'a mut dyn SolveSink) -> Adapter<'a> {
        Adapter {
            sink,
            handles: Vec::new(),
            stopped: false,
        }
    }

    fn hand(&mut self, solved: Solved) {
        if self.stopped {
            return;
        }
        if self.sink.solved(solved).is_break() {
            self.stopped = true;
            for handle in &self.handles {
                handle.stop();
            }
        }
    }
}

impl batch::Sink<Solving> for Adapter<'_> {
    fn register(&mut self, handle: StopHandle) {
        self.handles.push(handle.clone());
        self.sink.register(handle);
    }

    fn resumed(&mut self, _: &(usize, Position)) -> io::Result<()> {
        Ok(())
    }

    fn done(&mut self, solved: Solved) -> io::Result<()> {
        self.hand(solved);
        Ok(())
    }

    fn bad(&mut self, bad: Infallible) -> io::Result<()> {
        match bad {}
    }

    fn refused(&mut self, (index, _): (usize, Position), reason: TooManyEmpties) -> io::Result<()> {
        self.hand(Solved {
            index,
            result: Err(SolveError::Refused(reason)),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{random_position, Rng};
    use crate::board::rules::{Rules, Scoring};
    use crate::search::{Limits, StopReason};

    struct Collect {
        results: Vec<Solved>,
        stop_after: usize,
    }

    impl SolveSink for Collect {
        fn solved(&mut self, solved: Solved) -> ControlFlow<()> {
            self.results.push(solved);
            if self.results.len() >= self.stop_after {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }

    fn collect(
        positions: Vec<Position>,
        options: &Options,
        stop_after: usize,
    ) -> (Vec<Solved>, Totals) {
        let mut sink = Collect {
            results: Vec::new(),
            stop_after,
        };
        let totals = solve_all(positions, options, false, &mut sink).unwrap();
        (sink.results, totals)
    }

    #[test]
    fn every_rule_set_refusals_and_limits_come_back_in_order() {
        let mut rng = Rng(9);
        let small = random_position(&mut rng, 12);
        let reversi = small
            .with_rules(Rules::Reversi, None)
            .unwrap()
            .with_scoring(Scoring::Raw);
        let deep = Position::start();
        let positions = vec![small, deep, reversi];
        let options = Options {
            threads: 2,
            hash_mb: 8,
            ..Options::default()
        };
        let (results, totals) = collect(positions, &options, usize::MAX);
        assert_eq!(
            (totals.done, totals.refused, totals.interrupted),
            (2, 1, false)
        );
        let indices: Vec<usize> = results.iter().map(|s| s.index).collect();
        assert_eq!(indices, [0, 1, 2]);
        let mut solver = Solver::new(crate::search::SolveOptions {
            threads: 1,
            hash_mb: 8,
            ..Default::default()
        })
        .unwrap();
        let mut score = |p: &Position| solver.solve(p).unwrap().score;
        assert_eq!(results[0].result.as_ref().unwrap().score, score(&small));
        assert_eq!(
            results[1].result,
            Err(SolveError::Refused(TooManyEmpties { empties: 60 }))
        );
        assert_eq!(results[2].result.as_ref().unwrap().score, score(&reversi));
        // With a node limit the deep position is not refused but stopped, with its bounds.
        let limited = Options {
            limits: Limits {
                nodes: Some(10_000),
                ..Limits::NONE
            },
            ..options
        };
        let (results, _) = collect(vec![deep], &limited, usize::MAX);
        match &results[0].result {
            Err(SolveError::Unfinished(unfinished)) => {
                assert_eq!(unfinished.bounds.reason, StopReason::NodeLimit);
            }
            other => panic!("expected a stopped search, found {other:?}"),
        }
    }

    /// The nodes of each result, in order.
    fn nodes(results: &[Solved]) -> Vec<u64> {
        let nodes = |s: &Solved| s.result.as_ref().map_or(0, |solution| solution.nodes);
        results.iter().map(nodes).collect()
    }

    #[test]
    fn kept_solvers_run_call_after_call_as_one_long_run() {
        let mut rng = Rng(12);
        let mut positions: Vec<Position> = (0..6).map(|_| random_position(&mut rng, 14)).collect();
        positions.push(random_position(&mut rng, 20));
        positions.extend((0..6).map(|_| random_position(&mut rng, 13)));
        let options = Options {
            threads: 1,
            hash_mb: 4,
            ..Options::default()
        };
        let (whole, _) = collect(positions.clone(), &options, usize::MAX);
        // The same positions in three calls on kept solvers: each starts with the tables the
        // last one left, so that on one thread the nodes too are those of the one run.
        let mut solvers = Solvers::new(&options).unwrap();
        let mut parts = Vec::new();
        for chunk in [&positions[..4], &positions[4..9], &positions[9..]] {
            let mut sink = Collect {
                results: Vec::new(),
                stop_after: usize::MAX,
            };
            solve_all_on(&mut solvers, chunk.to_vec(), &options, false, &mut sink).unwrap();
            parts.extend(sink.results);
        }
        assert_eq!(nodes(&parts), nodes(&whole));
        let scores = |r: &[Solved]| -> Vec<i32> {
            r.iter().map(|s| s.result.as_ref().unwrap().score).collect()
        };
        assert_eq!(scores(&parts), scores(&whole));
    }

    #[test]
    fn kept_solvers_are_ready_after_a_stopped_or_limited_call() {
        let mut rng = Rng(5);
        let positions: Vec<Position> = (0..20).map(|_| random_position(&mut rng, 10)).collect();
        let options = Options {
            threads: 2,
            hash_mb: 4,
            ..Options::default()
        };
        // Workers made by the first call, around a solver of the caller's.
        let big = Solver::new(crate::search::SolveOptions {
            threads: 2,
            hash_mb: 4,
            force: true,
            ..Default::default()
        })
        .unwrap();
        let mut solvers = Solvers::around(big);
        assert!(solvers.workers().is_empty());
        let mut sink = Collect {
            results: Vec::new(),
            stop_after: 2,
        };
        let totals = solve_all_on(&mut solvers, positions.clone(), &options, false, &mut sink);
        assert!(totals.unwrap().interrupted);
        assert_eq!(solvers.workers().len(), 2);
        // A limit holds for its call only.
        let limited = Options {
            limits: Limits {
                nodes: Some(10_000),
                ..Limits::NONE
            },
            ..options.clone()
        };
        let mut sink = Collect {
            results: Vec::new(),
            stop_after: usize::MAX,
        };
        solve_all_on(
            &mut solvers,
            vec![Position::start()],
            &limited,
            false,
            &mut sink,
        )
        .unwrap();
        assert!(matches!(
            sink.results[0].result,
            Err(SolveError::Unfinished(_))
        ));
        assert_eq!(solvers.big().limits(), Limits::NONE);
        let mut sink = Collect {
            results: Vec::new(),
            stop_after: usize::MAX,
        };
        let totals = solve_all_on(&mut solvers, positions, &options, false, &mut sink).unwrap();
        assert_eq!((totals.done, totals.interrupted), (20, false));
        assert!(sink.results.iter().all(|s| s.result.is_ok()));
        // The caller's solver is usable between calls.
        assert!(solvers
            .big_mut()
            .solve(&random_position(&mut rng, 12))
            .is_ok());
    }

    /// Keeps what `solve_each` hands over: the answers' scores and the interrupted searches.
    #[derive(Default)]
    struct Each {
        scores: Vec<i32>,
        interrupted: Vec<(String, Unfinished)>,
    }

    impl EachSink for Each {
        fn bad(&mut self, error: &ParseError) -> io::Result<()> {
            panic!("{error}")
        }
        fn answer(&mut self, _: &Parsed, result: Result<Solution, SolveError>) -> io::Result<()> {
            self.scores.push(result.expect("solved").score);
            Ok(())
        }
        fn interrupted(&mut self, parsed: &Parsed, unfinished: &Unfinished) -> io::Result<()> {
            let board = crate::notation::format_board(&parsed.position);
            self.interrupted.push((board, unfinished.clone()));
            Ok(())
        }
    }

    #[test]
    fn a_stop_request_hands_the_sink_the_bounds_the_search_proved() {
        use crate::search::{ProgressFn, SolveOptions};
        use std::sync::{Arc, Mutex};
        let mut rng = Rng(31);
        let (mut narrowed, mut checked) = (0, 0);
        for _ in 0..12 {
            let position = random_position(&mut rng, 16);
            let text = crate::notation::format_board(&position);
            let parsed = || crate::notation::parse_position(&text);
            let mut whole = Each::default();
            solve_each(
                &mut Solver::new(SolveOptions {
                    threads: 1,
                    hash_mb: 4,
                    ..SolveOptions::default()
                })
                .unwrap(),
                [parsed()],
                &mut whole,
            )
            .unwrap();
            let score = whole.scores[0];
            // A stop requested as soon as the search reports its first proven bound (the
            // aspiration probe's), before the score is known.
            let handle: Arc<Mutex<Option<StopHandle>>> = Arc::default();
            let first_bound: Arc<Mutex<Option<(i32, i32)>>> = Arc::default();
            let (h, b) = (handle.clone(), first_bound.clone());
            let progress = ProgressFn::new(move |event| {
                let bounds = (event.lower, event.upper);
                if bounds != (-64, 64) && event.lower < event.upper {
                    b.lock().unwrap().get_or_insert(bounds);
                    if let Some(stop) = h.lock().unwrap().as_ref() {
                        stop.stop();
                    }
                }
            });
            let mut solver = Solver::new(SolveOptions {
                threads: 1,
                hash_mb: 4,
                progress: Some(progress),
                ..SolveOptions::default()
            })
            .unwrap();
            *handle.lock().unwrap() = Some(solver.stop_handle());
            let mut sink = Each::default();
            // The position after it is never searched: the stop ends the run.
            let totals = solve_each(&mut solver, [parsed(), parsed()], &mut sink).unwrap();
            let Some(first) = *first_bound.lock().unwrap() else {
                // Solved by the probe at once: the answer, not an interruption.
                assert_eq!((totals.solved, totals.interrupted), (2, false));
                assert_eq!(sink.scores, vec![score, score]);
                continue;
            };
            assert_eq!((totals.solved, totals.interrupted), (0, true), "{text}");
            assert!(sink.scores.is_empty(), "{text}");
            assert_eq!(sink.interrupted.len(), 1, "{text}");
            let (board, unfinished) = &sink.interrupted[0];
            assert_eq!(board, &text);
            let bounds = unfinished.bounds;
            assert_eq!(bounds.reason, StopReason::Interrupted);
            // At least what was reported, and the score within.
            assert!(
                bounds.lower >= first.0 && bounds.upper <= first.1,
                "{text}: {bounds:?} after {first:?}"
            );
            assert!(bounds.contains(score), "{text}: {bounds:?}, score {score}");
            assert!(unfinished.nodes > 0, "{text}");
            checked += 1;
            if (bounds.lower, bounds.upper) != (-64, 64) {
                narrowed += 1;
            }
        }
        assert!(
            checked >= 6 && narrowed == checked,
            "{narrowed} of {checked}"
        );
    }

    #[test]
    fn the_sink_stops_the_run() {
        let mut rng = Rng(4);
        let positions: Vec<Position> = (0..40).map(|_| random_position(&mut rng, 8)).collect();
        let options = Options {
            threads: 1,
            hash_mb: 4,
            ..Options::default()
        };
        let (results, totals) = collect(positions, &options, 3);
        assert_eq!(results.len(), 3);
        assert!(totals.interrupted);
    }
}
