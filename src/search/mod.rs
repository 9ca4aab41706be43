//! The exact solver: turns a [`Position`] into a [`Solution`] (score, best move, principal
//! variation, final count, nodes) under the position's own rules and scoring. Its face is
//! [`Solver`] with five solving methods: [`Solver::solve`], [`Solver::score_moves`],
//! [`Solver::best_moves`], [`Solver::score`] (no principal variation) and
//! [`Solver::check_feasible`]; the first four answer `Err(`[`SolveError`]`)` for a refusal (too
//! many empties without a limit or `force`) or a stop (a request through a [`StopHandle`], or a
//! limit of [`Limits`]) with the bounds it proved ([`Unfinished`]). `Solver` is not generic:
//! its methods turn the position's rules into the type parameter of the one search
//! ([`GameRules`]), in one place. Never reads files, prints, or knows about terminals; its
//! options are the plain [`SolveOptions`] struct.

pub mod endgame;
pub mod eval_search;
pub mod last;
pub mod limit;
pub mod literal;
pub mod node;
pub mod ordering;
pub mod progress;
pub mod reference;
pub mod result;
mod root;
pub mod stability;
pub mod thresholds;
pub mod tt;

use crate::board::rules::{GameRules, Official, Othello, OthelloRules, Raw, ReversiRules};
use crate::board::rules::{Rules, Scoring};
use crate::board::{Bits, Position, Square};
use crate::huge_pages::OutOfMemory;
use limit::Budget;
pub use limit::Limits;
use node::{Cancel, Crew};
pub use progress::{
    LatestProgress, Progress, ProgressFn, Stage, PROGRESS_EVERY, PROGRESS_MIN_EMPTIES,
};
use progress::{Reporter, Turn};
pub use result::{
    BestMove, Bounds, Exactness, FinalCount, MoveScore, Solution, StopReason, Stopped,
    TooManyEmpties, Unfinished,
};
use root::{clamp_wld, is_over, Attempt};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use thresholds::{FEASIBLE_EMPTIES, PROBE_NODES, SPLIT_MIN};
use tt::Tables;

/// How to solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in MiB: at most this much is used, and a search uses (and so
    /// takes from the system) only as much of it as its number of empties needs.
    pub hash_mb: usize,
    /// Prove only win/draw/loss (the score is then -1, 0 or 1).
    pub wld: bool,
    /// Solve positions deeper than [`FEASIBLE_EMPTIES`] even without a limit (see
    /// [`Solver::check_feasible`]); without it such a position is refused.
    pub force: bool,
    /// Called with the [`Progress`] of each solving call on a position of at least
    /// [`PROGRESS_MIN_EMPTIES`] empties while it runs (bounds, best move, stage, nodes), and
    /// once at its end; `None`: no events and no cost.
    pub progress: Option<ProgressFn>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            hash_mb: tt::DEFAULT_MB,
            wld: false,
            force: false,
            progress: None,
        }
    }
}

/// A problem building the solver.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The thread pool could not be created.
    #[error("cannot start {threads} search threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the system said.
        reason: String,
    },
    /// The system refused the memory of the transposition table (a limit such as `ulimit -v`,
    /// or less memory than the table needs): its cause, [`OutOfMemory`], says "out of memory"
    /// after the message, which front ends follow with what to change (a smaller table).
    #[error("cannot allocate the {megabytes} MiB transposition table")]
    Memory {
        /// The table's size asked for, in MiB.
        megabytes: usize,
        /// The allocator's refusal.
        #[source]
        source: OutOfMemory,
    },
}

/// The threads a `threads` option stands for: itself, or one per core when it is 0.
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

/// A thread pool of [`thread_count`]`(threads)` threads, and that count.
pub fn thread_pool(threads: usize) -> Result<(rayon::ThreadPool, usize), SearchError> {
    let threads = thread_count(threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SearchError::Threads {
            threads,
            reason: e.to_string(),
        })?;
    Ok((pool, threads))
}

/// Shared handle that stops a running search from another thread (a signal handler, a timer).
#[derive(Clone)]
pub struct StopHandle(Arc<Cancel<'static>>);

impl StopHandle {
    /// Asks every search of the solver to stop as soon as possible.
    pub fn stop(&self) {
        self.0.cancel();
    }
    /// True once a stop was requested.
    pub fn is_stopped(&self) -> bool {
        self.0.is_cancelled()
    }
}

/// An exact endgame solver with its transposition table and threads. Reuse it across positions:
/// the table is kept (entries from older searches are replaced first, and a search that is
/// stopped stores nothing it did not prove, so a stop never spoils the next search).
pub struct Solver {
    tt: Tables,
    pool: Arc<rayon::ThreadPool>,
    /// The pool's threads as the splits count them.
    crew: Crew,
    threads: usize,
    options: SolveOptions,
    limits: Limits,
    stop: Arc<Cancel<'static>>,
    /// The rules and scoring the table's entries were found under.
    table_rules: (Rules, Scoring),
    /// Sends the progress events of `options.progress`.
    progress: Option<Arc<Reporter>>,
}

/// Why a solving call gave no answer: the position was refused, or the search stopped (a stop
/// request or a limit) before it proved the result, with what it had proven.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// More than [`FEASIBLE_EMPTIES`] empties, no limit and no `force`: an exact search would
    /// not finish (see [`Solver::check_feasible`]).
    #[error(transparent)]
    Refused(#[from] TooManyEmpties),
    /// The search stopped first; [`Unfinished::bounds`] says why (a stop request, the time or
    /// the node limit) and the proven bounds.
    #[error("the search stopped ({}) with the score within {}..={}", .0.bounds.reason, .0.bounds.lower, .0.bounds.upper)]
    Unfinished(Unfinished),
}

impl SolveError {
    /// True when a stop request (not a limit, not a refusal) ended the search.
    pub fn is_interrupted(&self) -> bool {
        matches!(self, SolveError::Unfinished(u) if u.bounds.reason == StopReason::Interrupted)
    }

    /// What the stopped search had proven; `None` for a refusal.
    pub fn unfinished(self) -> Option<Unfinished> {
        match self {
            SolveError::Unfinished(unfinished) => Some(unfinished),
            SolveError::Refused(_) => None,
        }
    }
}

impl From<Unfinished> for SolveError {
    fn from(unfinished: Unfinished) -> SolveError {
        SolveError::Unfinished(unfinished)
    }
}

/// Calls `self.$method::<R>(state)` with the rules type `R` of `position`'s rules and scoring,
/// and the state that type searches: the board under Othello rules, the board with its supplies
/// under Reversi rules. The one place where a position's rules become a type.
macro_rules! by_rules {
    ($self:ident . $method:ident, $position:expr $(, $first:expr)?) => {
        match ($position.rules(), $position.scoring()) {
            (Rules::Othello, Scoring::Official) => {
                $self.$method::<Othello>($($first,)? $position.board)
            }
            (Rules::Othello, Scoring::Raw) => {
                $self.$method::<OthelloRules<Raw>>($($first,)? $position.board)
            }
            (Rules::Reversi, Scoring::Official) => {
                $self.$method::<ReversiRules<Official>>($($first,)? $position.state())
            }
            (Rules::Reversi, Scoring::Raw) => {
                $self.$method::<ReversiRules<Raw>>($($first,)? $position.state())
            }
        }
    };
}

impl Solver {
    /// A solver with these options; `Err` when its threads cannot start or the system refuses
    /// the memory of its table, or leaves too little beside it for the rest of the run
    /// ([`SearchError::Memory`]; see [`crate::huge_pages::check_reserve`]).
    pub fn new(options: SolveOptions) -> Result<Solver, SearchError> {
        let (pool, threads) = thread_pool(options.threads)?;
        let memory = |source| SearchError::Memory {
            megabytes: options.hash_mb,
            source,
        };
        let tt = Tables::for_threads(options.hash_mb, threads).map_err(memory)?;
        // Checked here, where every command makes its tables, and refused as the table itself
        // (which is given back): a later allocation would otherwise abort the process.
        crate::huge_pages::check_reserve(threads).map_err(memory)?;
        Ok(Solver {
            tt,
            pool: Arc::new(pool),
            crew: Crew::new(threads),
            threads,
            limits: Limits::NONE,
            stop: Arc::new(Cancel::root()),
            table_rules: (Rules::Othello, Scoring::Official),
            progress: options.progress.clone().map(|f| Arc::new(Reporter::new(f))),
            options,
        })
    }

    /// The options in force.
    pub fn options(&self) -> &SolveOptions {
        &self.options
    }

    /// Threads used.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Limits every later call (each call of a solving method on one position has the whole
    /// budget; [`Solver::check_feasible`] accepts every position then); [`Limits::NONE`]
    /// removes them.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A handle that stops this solver's searches from another thread. Once stopped, every
    /// search stops at once, until [`Solver::resume`]: a solving call that must search returns
    /// [`SolveError::Unfinished`] with [`StopReason::Interrupted`]
    /// ([`SolveError::is_interrupted`]).
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.stop.clone())
    }

    /// Lifts a stop requested through [`Solver::stop_handle`]: later searches run again, with
    /// the table kept (a stopped search stores only what it proved, so nothing in it is
    /// wrong). Handles taken before no longer reach this solver: take a new one.
    pub fn resume(&mut self) {
        if self.stop.is_cancelled() {
            self.stop = Arc::new(Cancel::root());
        }
    }

    /// Forgets every stored result (for benchmarks where each position must stand alone).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Takes from the system, now, the table memory a search of `empties` empties will use,
    /// where the table is empty (a benchmark's timing then leaves out the kernel's first touch
    /// of that memory, which a search otherwise pays as it goes).
    pub fn prepare(&mut self, empties: u32) {
        self.tt.prepare(empties);
    }

    /// Runs `f` (one call of the solver: every search it makes) on a thread of the pool when
    /// the solver has more than one, so that its searches start on that thread: those of
    /// [`PARALLEL_MIN`](thresholds::PARALLEL_MIN) empties and more split from there, the
    /// smaller ones (the root's ordering, the principal variation's end) stay there alone, and
    /// no search is handed from the calling thread to the pool and back (each hand-over woke a
    /// sleeping thread and left the caches and near table of the thread before). Two threads,
    /// 40 positions of `gen --policy self-play --seed 7` each, `bench --repeat 5` (2026-12-07,
    /// two runs each, against one hand-over per search): 16 empties 0.273 and 0.253 s against
    /// 0.299 and 0.272 s, 17 empties 0.422 and 0.425 s against 0.496 and 0.493 s, 18 empties
    /// (`--repeat 3`) 0.743 and 0.756 s against 0.853 and 0.814 s; FFO #40-#49 the same (six
    /// rounds, median ratio 0.994).
    fn on_pool<T: Send>(&mut self, f: impl FnOnce(&mut Solver) -> T + Send) -> T {
        if self.threads > 1 {
            let pool = Arc::clone(&self.pool);
            pool.install(|| f(self))
        } else {
            f(self)
        }
    }

    fn split_min(&self) -> u32 {
        if self.threads > 1 {
            SPLIT_MIN
        } else {
            u32::MAX
        }
    }

    /// The state of one call: a new table generation, the table's part in use fitted to the
    /// position's `empties`, and a fresh budget; it sends progress
    /// events when the solver has a callback and the call is on a position of `empties`
    /// (`None`: a call of the solver's own, such as the feasibility probe) of at least
    /// [`PROGRESS_MIN_EMPTIES`].
    fn attempt(&self, empties: Option<u32>) -> Attempt<'_> {
        self.tt.deep.new_generation();
        if let Some(empties) = empties {
            self.tt.deep.fit(empties);
        }
        let start = Instant::now();
        let mut budget = Budget::new(&self.limits, start);
        let reporter = self
            .progress
            .as_ref()
            .filter(|_| empties.is_some_and(|e| e >= PROGRESS_MIN_EMPTIES));
        if let Some(reporter) = reporter {
            reporter.begin(start, self.window(), self.options.wld);
            budget = budget.reporting(Arc::clone(reporter));
        }
        Attempt {
            tt: &self.tt,
            limits: self.limits,
            pool: &self.pool,
            crew: &self.crew,
            split_min: self.split_min(),
            cancel: Cancel::limited(&self.stop, budget),
            start,
            nodes: 0,
            threads: self.threads,
            progress: reporter.map(|r| &**r),
            selective_nodes: 0,
            rival: None,
        }
    }

    /// Sends the last event of a call: its result's bounds (`lower..=upper`), best move and
    /// nodes, finished or stopped (nothing when the call sent no events).
    fn report_end(
        &self,
        nodes: u64,
        bounds: (i32, i32),
        best_move: Option<BestMove>,
        stopped: Option<StopReason>,
    ) {
        if let Some(reporter) = &self.progress {
            reporter.finish(nodes, |event, _: Turn| {
                (event.lower, event.upper) = bounds;
                if best_move.is_some() {
                    event.best_move = best_move;
                }
                event.stage = stopped.map_or(Stage::Finished, Stage::Stopped);
            });
        }
    }

    /// [`Solver::report_end`] of a stopped call.
    fn report_stop(&self, unfinished: &Unfinished) {
        let bounds = (unfinished.bounds.lower, unfinished.bounds.upper);
        let best = unfinished.pv.first().map(|&mv| match mv {
            Some(square) => BestMove::Play(square),
            None => BestMove::Pass,
        });
        self.report_end(
            unfinished.nodes,
            bounds,
            best,
            Some(unfinished.bounds.reason),
        );
    }

    /// The window of a full search: the whole score range, or around a draw with WLD.
    fn window(&self) -> (i32, i32) {
        if self.options.wld {
            (-1, 1)
        } else {
            (-64, 64)
        }
    }

    /// Whether an exact solve of `position` can finish: `Err` when it has more than
    /// [`FEASIBLE_EMPTIES`] empties, this solver has no limits, and a first search of
    /// [`PROBE_NODES`] nodes does not find its score (finished games and positions that end at
    /// once pass). The solving methods run this check first unless the solver's options say
    /// `force`; drivers that refuse positions ahead of solving them (in input order) call it
    /// on a solver of their own.
    ///
    /// ```
    /// use osolve::board::{Color, Position};
    /// use osolve::search::{SolveOptions, Solver, TooManyEmpties};
    ///
    /// let mut solver = Solver::new(SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() })?;
    /// // The start has 60 empties: an exact solve would take far longer than anyone waits.
    /// assert_eq!(solver.check_feasible(&Position::start()), Err(TooManyEmpties { empties: 60 }));
    /// // A position that ends at once passes whatever its empties: black wiped out.
    /// let over = Position::from_colors(0, 1, Color::Black).unwrap();
    /// assert_eq!(solver.check_feasible(&over), Ok(()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_feasible(&mut self, position: &Position) -> Result<(), TooManyEmpties> {
        self.on_pool(|solver| by_rules!(solver.check_feasible_in, position))
    }

    /// The refusal of the solving methods: [`Solver::check_feasible`] unless `force`.
    fn refuse(&mut self, position: &Position) -> Result<(), TooManyEmpties> {
        if self.options.force {
            Ok(())
        } else {
            self.check_feasible(position)
        }
    }

    fn check_feasible_in<R: GameRules>(&mut self, state: R::State) -> Result<(), TooManyEmpties> {
        let empties = R::board(&state).empties();
        if empties <= FEASIBLE_EMPTIES || !self.limits.is_none() || is_over::<R>(&state) {
            return Ok(());
        }
        self.use_rules::<R>();
        let window = self.window();
        let wld = self.options.wld;
        self.limits.nodes = Some(PROBE_NODES);
        let probe = self.attempt(None).root_score::<R>(state, window, wld);
        self.limits = Limits::NONE;
        match probe {
            Err(unfinished) if unfinished.bounds.reason == StopReason::NodeLimit => {
                Err(TooManyEmpties { empties })
            }
            _ => Ok(()),
        }
    }

    /// Empties the table when its entries were found under other rules: the keys of the rule
    /// sets overlap, their scores do not.
    fn use_rules<R: GameRules>(&mut self) {
        let rules = (R::RULES, R::SCORING);
        if self.table_rules != rules {
            self.tt.clear();
            self.table_rules = rules;
        }
    }

    /// Solves `position` exactly under its rules and scoring (or win/draw/loss with the `wld`
    /// option): the score, the best move and perfect play to the end. `Err` when the position is
    /// refused (see [`Solver::check_feasible`]), or when a stop request or a limit of
    /// [`Solver::set_limits`] ends the search first: then the bounds of the score it proved and,
    /// once the score is exact, the beginning of the principal variation.
    ///
    /// ```
    /// use osolve::board::Position;
    /// use osolve::notation::parse_position;
    /// use osolve::search::{SolveOptions, Solver};
    ///
    /// // 14 empties, black to move.
    /// let position: Position =
    ///     parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")?.position;
    /// let options = SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() };
    /// let mut solver = Solver::new(options)?;
    /// let solution = solver.solve(&position)?;
    /// assert_eq!(solution.score, 18);
    /// // Perfect play fills the 14 empties.
    /// assert_eq!(solution.pv.iter().flatten().count(), 14);
    /// assert_eq!(solution.final_discs(), Some((41, 23)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve(&mut self, position: &Position) -> Result<Solution, SolveError> {
        self.refuse(position)?;
        let result = self.on_pool(|solver| by_rules!(solver.solve_in, position, position));
        match &result {
            Ok(s) => self.report_end(s.nodes, (s.score, s.score), Some(s.best_move), None),
            Err(unfinished) => self.report_stop(unfinished),
        }
        Ok(result?)
    }

    fn solve_in<R: GameRules>(
        &mut self,
        position: &Position,
        state: R::State,
    ) -> Result<Solution, Unfinished> {
        self.use_rules::<R>();
        let wld = self.options.wld;
        let window = self.window();
        let board = R::board(&state);
        debug_assert_eq!(board, position.board);
        let mut attempt = self.attempt(Some(board.empties()));
        let mut solution = Solution {
            position: *position,
            score: 0,
            exactness: result::Exactness::Exact,
            wld,
            best_move: BestMove::GameOver,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            threads: attempt.threads,
        };
        if is_over::<R>(&state) {
            solution.score = clamp_wld(R::final_score(&board), wld);
            solution.time = attempt.start.elapsed();
            return Ok(solution);
        }
        let (score, best) = attempt.root_score::<R>(state, window, wld)?;
        solution.score = score;
        let passes = R::moves(&state) == 0;
        solution.best_move = match Square::new(best as usize) {
            Some(square) if !passes => BestMove::Play(square),
            _ => BestMove::Pass,
        };
        solution.pv = if wld {
            let mut pv = if passes { vec![None] } else { vec![] };
            pv.push(Square::new(best as usize));
            pv
        } else {
            attempt.report(|event, _| event.stage = Stage::PrincipalVariation);
            attempt.principal_variation::<R>(state, score, best)?
        };
        solution.nodes = attempt.nodes;
        solution.time = attempt.start.elapsed();
        debug_assert!(
            (-64..=64).contains(&solution.score),
            "score {}",
            solution.score
        );
        debug_assert!(
            solution.nodes > 0,
            "a position with a move was solved without a search"
        );
        debug_assert!(!wld || solution.pv.len() <= 2);
        Ok(solution)
    }

    /// The exact score of every move of `position` (the sign with `wld`), best first, ties in
    /// square order; a position that must pass gives one entry for the pass (`mv: None`); a
    /// finished game none. Returns the scores and the nodes searched. `Err` as for
    /// [`Solver::solve`], a stopped search with the moves scored so far
    /// ([`Unfinished::moves`]) and the bounds of the best score they prove.
    ///
    /// ```
    /// use osolve::board::Position;
    /// use osolve::notation::parse_position;
    /// use osolve::search::{SolveOptions, Solver};
    ///
    /// // 14 empties, black to move.
    /// let position: Position =
    ///     parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")?.position;
    /// let options = SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() };
    /// let mut solver = Solver::new(options)?;
    /// let (moves, _nodes) = solver.score_moves(&position)?;
    /// assert_eq!(moves[0].score, 18);
    /// assert_eq!(moves.len(), position.board.moves().count_ones() as usize);
    /// assert!(moves.windows(2).all(|pair| pair[0].score >= pair[1].score));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn score_moves(
        &mut self,
        position: &Position,
    ) -> Result<(Vec<MoveScore>, u64), SolveError> {
        self.refuse(position)?;
        let result = self.on_pool(|solver| by_rules!(solver.score_moves_in, position));
        match &result {
            Ok((moves, nodes)) => {
                let best = moves.first().map(|m| (m.score, m.mv));
                let bounds = best.map_or(self.window(), |(score, _)| (score, score));
                let best_move = best.map(|(_, mv)| mv.map_or(BestMove::Pass, BestMove::Play));
                self.report_end(*nodes, bounds, best_move, None);
            }
            Err(unfinished) => self.report_stop(unfinished),
        }
        Ok(result?)
    }

    fn score_moves_in<R: GameRules>(
        &mut self,
        state: R::State,
    ) -> Result<(Vec<MoveScore>, u64), Unfinished> {
        self.use_rules::<R>();
        let wld = self.options.wld;
        let (alpha, beta) = self.window();
        let mut attempt = self.attempt(Some(R::board(&state).empties()));
        let mut scores = Vec::new();
        let children: Vec<(Option<Square>, R::State)> = if R::moves(&state) == 0 {
            if is_over::<R>(&state) {
                return Ok((scores, 0));
            }
            vec![(None, R::pass(&state))]
        } else {
            Bits(R::moves(&state))
                .map(|sq| (Square::new(sq), R::play(&state, sq, R::flips(&state, sq))))
                .collect()
        };
        let total = children.len();
        for (mv, child) in children {
            let scored = scores.len();
            attempt.report(|event, _| event.moves = Some((scored, total)));
            // The selective searches fill the table for the exact one (their guess is unused).
            if attempt.selective::<R>(child, -beta, -alpha).is_none() {
                scores.sort_by_key(|m| (-m.score, m.mv));
                let lower = scores.first().map_or(alpha, |m| m.score);
                return Err(attempt.unfinished(lower, beta, Vec::new(), scores));
            }
            attempt.report(|event, _| event.stage = Stage::Exact { alpha, beta });
            match attempt.score_of::<R>(child, -beta, -alpha) {
                Some(v) => {
                    let score = clamp_wld(-v, wld);
                    scores.push(MoveScore { mv, score });
                    attempt.report(|event, _| {
                        if score > event.lower || event.best_move.is_none() {
                            event.lower = score;
                            event.best_move = Some(mv.map_or(BestMove::Pass, BestMove::Play));
                        }
                        event.moves = Some((scores.len(), total));
                    });
                }
                None => {
                    scores.sort_by_key(|m| (-m.score, m.mv));
                    let lower = scores.first().map_or(alpha, |m| m.score);
                    return Err(attempt.unfinished(lower, beta, Vec::new(), scores));
                }
            }
        }
        scores.sort_by_key(|m| (-m.score, m.mv));
        debug_assert!(scores.iter().all(|m| (alpha..=beta).contains(&m.score)));
        Ok((scores, attempt.nodes))
    }

    /// The best score of `position` and every move that reaches it (square order; `None` is
    /// the forced pass), with the nodes searched: one full-window search for the score, then a
    /// null-window proof per other move to decide whether it ties. Faster than
    /// [`Solver::score_moves`]. A finished game gives its final score and no move. `Err` as for
    /// [`Solver::solve`], a stopped search with the moves already proven to reach the best score
    /// (once it is exact).
    ///
    /// ```
    /// use osolve::board::Position;
    /// use osolve::notation::parse_position;
    /// use osolve::search::{SolveOptions, Solver};
    ///
    /// // 14 empties, black to move.
    /// let position: Position =
    ///     parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")?.position;
    /// let options = SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() };
    /// let mut solver = Solver::new(options)?;
    /// let (score, best, _nodes) = solver.best_moves(&position)?;
    /// assert_eq!(score, 18);
    /// let (moves, _) = solver.score_moves(&position)?;
    /// let reaching: Vec<_> = moves.iter().filter(|m| m.score == score).map(|m| m.mv).collect();
    /// assert_eq!(best.len(), reaching.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_moves(
        &mut self,
        position: &Position,
    ) -> Result<(i32, Vec<Option<Square>>, u64), SolveError> {
        self.refuse(position)?;
        let result = self.on_pool(|solver| by_rules!(solver.best_moves_in, position));
        match &result {
            Ok((score, moves, nodes)) => {
                let best = moves
                    .first()
                    .map(|mv| mv.map_or(BestMove::Pass, BestMove::Play));
                self.report_end(*nodes, (*score, *score), best, None);
            }
            Err(unfinished) => self.report_stop(unfinished),
        }
        Ok(result?)
    }

    fn best_moves_in<R: GameRules>(
        &mut self,
        state: R::State,
    ) -> Result<(i32, Vec<Option<Square>>, u64), Unfinished> {
        self.use_rules::<R>();
        let wld = self.options.wld;
        let window = self.window();
        let mut attempt = self.attempt(Some(R::board(&state).empties()));
        if is_over::<R>(&state) {
            let score = clamp_wld(R::final_score(&R::board(&state)), wld);
            return Ok((score, Vec::new(), 0));
        }
        let (score, _) = attempt.root_score::<R>(state, window, wld)?;
        let mut best = Vec::new();
        let moves = R::moves(&state);
        if moves == 0 {
            best.push(None);
            return Ok((score, best, attempt.nodes));
        }
        for sq in Bits(moves) {
            let child = R::play(&state, sq, R::flips(&state, sq));
            // The move ties when the child's value is at most -score (it is never lower than
            // that). With WLD a win needs the child at most -1, a draw at most 0, and when the
            // best is a loss every move ties.
            let alpha = match (wld, score) {
                (false, s) => -s,
                (true, 1) => -1,
                (true, 0) => 0,
                (true, _) => {
                    best.push(Square::new(sq));
                    continue;
                }
            };
            let Some(v) = attempt.score_of::<R>(child, alpha, alpha + 1) else {
                let proven = best.iter().map(|&mv| MoveScore { mv, score }).collect();
                return Err(attempt.unfinished(score, score, Vec::new(), proven));
            };
            if v <= alpha {
                best.push(Square::new(sq));
            }
        }
        debug_assert!(!best.is_empty(), "no move reaches the best score {score}");
        Ok((score, best, attempt.nodes))
    }

    /// The score of `position` (the sign with `wld`) and the nodes searched, without the
    /// principal variation or the other best moves: the cheapest exact answer (training
    /// labels). `Err` as for [`Solver::solve`], a stopped search with the bounds it proved.
    ///
    /// ```
    /// use osolve::board::Position;
    /// use osolve::notation::parse_position;
    /// use osolve::search::{SolveOptions, Solver};
    ///
    /// // 14 empties, black to move.
    /// let position: Position =
    ///     parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")?.position;
    /// let options = SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() };
    /// let mut solver = Solver::new(options)?;
    /// let (score, _nodes) = solver.score(&position)?;
    /// assert_eq!(score, solver.solve(&position)?.score);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn score(&mut self, position: &Position) -> Result<(i32, u64), SolveError> {
        self.refuse(position)?;
        let result = self.on_pool(|solver| by_rules!(solver.score_in, position));
        match &result {
            Ok((score, nodes)) => self.report_end(*nodes, (*score, *score), None, None),
            Err(unfinished) => self.report_stop(unfinished),
        }
        Ok(result?)
    }

    fn score_in<R: GameRules>(&mut self, state: R::State) -> Result<(i32, u64), Unfinished> {
        self.use_rules::<R>();
        let wld = self.options.wld;
        let window = self.window();
        if is_over::<R>(&state) {
            return Ok((clamp_wld(R::final_score(&R::board(&state)), wld), 0));
        }
        let mut attempt = self.attempt(Some(R::board(&state).empties()));
        let (score, _) = attempt.root_score::<R>(state, window, wld)?;
        Ok((score, attempt.nodes))
    }
}

#[cfg(test)]
mod tests;
