//! The exact solver: turns a [`Position`] into a [`Solution`] (score, best move, principal
//! variation, nodes), or, when a stop request or a limit ([`Limits`]) ends the search first,
//! into an [`Unfinished`] report of the bounds it proved. Never reads files, prints, or knows
//! about terminals; its options are the plain [`SolveOptions`] struct.

pub mod endgame;
pub mod last;
pub mod limit;
pub mod literal;
pub mod ordering;
pub mod reference;

pub mod stability;
pub mod tt;

use crate::board::rules::{GameRules, Official, Othello, OthelloRules, Raw, ReversiRules};
use crate::board::rules::{Rules, Scoring, VariantPosition};
use crate::board::{Bits, Board, Color, Position, Square};
use endgame::{Cancel, Move, Search, Selectivity};
use limit::Budget;
pub use limit::{
    Bounds, Limits, StopReason, TooManyEmpties, Unfinished, FEASIBLE_EMPTIES, PROBE_NODES,
};
use ordering::{fastest_first, odd_region_squares};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::Tables;

/// From this many empties up, sibling moves are searched in parallel (when threads > 1).
pub const SPLIT_MIN: u32 = 13;

/// Depth of the evaluation search that orders the root moves.
const ROOT_SORT_DEPTH: u32 = 4;

/// From this many empties up the root first probes the window around a draw.
const ASPIRATION_MIN: u32 = 14;
/// From this many empties up, selective searches precede the exact one.
const SELECTIVE_MIN: u32 = 18;
/// The margins (in discs) of the selective searches, in order: the first cuts more, the
/// second less, then the exact search. (FFO #40-#49, one thread, nodes of all passes, ProbCut
/// from 13 empties: exact only, 881 M; 8, 507 M without the guess as aspiration centre;
/// then with it: 12, 523 M; 8 then 12, 490 M; 6/10/14, 497 M; 8/12/16, 485 M; 4/8/12, 481 M;
/// 16, 574 M. With ProbCut from 12 empties and 2-ply tests below 22: 8 then 12, 467 M;
/// 4/8/12, 463 M.)
const SELECTIVE_MARGINS: &[i32] = &[8, 12];

/// How to solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Prove only win/draw/loss (the score is then -1, 0 or 1).
    pub wld: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            hash_mb: 256,
            wld: false,
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

/// A search stopped before it proved its result (Ctrl-C, or a stop requested through
/// [`Solver::stop_handle`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped before it finished")]
pub struct Stopped;

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

/// The move a solution starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this square.
    Play(Square),
    /// The side to move has no legal move and must pass.
    Pass,
    /// The game is over: nobody can move.
    GameOver,
}

/// The result of an exact solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The position solved.
    pub position: Position,
    /// Final disc differential for the side to move under perfect play (empties to the winner),
    /// or with `wld` the sign only.
    pub score: i32,
    /// Whether only win/draw/loss was proven.
    pub wld: bool,
    /// The first move of perfect play.
    pub best_move: BestMove,
    /// Perfect play to the end of the game (`None` = pass); with `wld`, just the best move.
    pub pv: Vec<Option<Square>>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub time: Duration,
    /// Threads used.
    pub threads: usize,
}

impl Solution {
    /// Number of empty squares of the position.
    pub fn empties(&self) -> u32 {
        self.position.board.empties()
    }
    /// Final disc counts (black, white) under perfect play, empties given to the winner; `None`
    /// for a WLD solve.
    pub fn final_discs(&self) -> Option<(u32, u32)> {
        if self.wld {
            return None;
        }
        let black_diff = if self.position.to_move == Color::Black {
            self.score
        } else {
            -self.score
        };
        Some((
            ((64 + black_diff) / 2) as u32,
            ((64 - black_diff) / 2) as u32,
        ))
    }
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// The discs on the board at the end of perfect play, with the empty squares left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinalCount {
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// Empty squares left.
    pub empty: u32,
}

/// The result of an exact solve under any rules ([`Solver::try_solve_game`]): the position with
/// its rules and supplies, the scoring, and what [`Solution`] holds.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantSolution {
    /// The position solved, with its rules and supplies.
    pub position: VariantPosition,
    /// The scoring the score is in.
    pub scoring: Scoring,
    /// The score for the side to move under perfect play (the sign only with `wld`).
    pub score: i32,
    /// Whether only win/draw/loss was proven.
    pub wld: bool,
    /// The first move of perfect play.
    pub best_move: BestMove,
    /// Perfect play to the end of the game (`None` = pass); with `wld`, just the best move.
    pub pv: Vec<Option<Square>>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub time: Duration,
    /// Threads used.
    pub threads: usize,
}

impl VariantSolution {
    /// The position at the end of the principal variation; `None` with `wld`.
    pub fn end(&self) -> Option<VariantPosition> {
        if self.wld {
            return None;
        }
        self.position.after(&self.pv)
    }

    /// The discs on the board at the end of perfect play; `None` with `wld`.
    pub fn final_count(&self) -> Option<FinalCount> {
        let end = self.end()?.position();
        Some(FinalCount {
            black: end.black().count_ones(),
            white: end.white().count_ones(),
            empty: end.board.empties(),
        })
    }

    /// The same result as a [`Solution`] (its score in this solution's scoring), for the
    /// reports the rule sets share.
    pub fn to_solution(&self) -> Solution {
        Solution {
            position: self.position.position(),
            score: self.score,
            wld: self.wld,
            best_move: self.best_move,
            pv: self.pv.clone(),
            nodes: self.nodes,
            time: self.time,
            threads: self.threads,
        }
    }
}

/// One move's exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move (`None` = the forced pass).
    pub mv: Option<Square>,
    /// Score for the side to move after playing it (empties to the winner); the sign with WLD.
    pub score: i32,
}

/// An exact endgame solver with its transposition table and threads. Reuse it across positions:
/// the table is kept (entries from older searches are replaced first, and a search that is
/// stopped stores nothing it did not prove, so a stop never spoils the next search).
pub struct Solver {
    tt: Tables,
    pool: rayon::ThreadPool,
    threads: usize,
    options: SolveOptions,
    limits: Limits,
    stop: Arc<Cancel<'static>>,
    /// The rules and scoring the table's entries were found under.
    table_rules: (Rules, Scoring),
}

/// Calls `self.$method::<R>([$first,] state)` with the rules type `R` of `position`'s rules and
/// `scoring`, and the state that type searches: the board under Othello rules, the board with
/// its supplies under Reversi rules. The one place where a run's rules become a type.
macro_rules! by_rules {
    ($self:ident . $method:ident, $position:expr, $scoring:expr $(, $first:expr)?) => {
        match ($position.rules(), $scoring) {
            (Rules::Othello, Scoring::Official) => {
                $self.$method::<Othello>($($first,)? $position.game.board)
            }
            (Rules::Othello, Scoring::Raw) => {
                $self.$method::<OthelloRules<Raw>>($($first,)? $position.game.board)
            }
            (Rules::Reversi, Scoring::Official) => {
                $self.$method::<ReversiRules<Official>>($($first,)? $position.game)
            }
            (Rules::Reversi, Scoring::Raw) => {
                $self.$method::<ReversiRules<Raw>>($($first,)? $position.game)
            }
        }
    };
}

impl Solver {
    /// A solver with these options.
    pub fn new(options: SolveOptions) -> Result<Solver, SearchError> {
        let (pool, threads) = thread_pool(options.threads)?;
        stability::init();
        Ok(Solver {
            tt: Tables::for_threads(options.hash_mb, threads),
            pool,
            threads,
            options,
            limits: Limits::NONE,
            stop: Arc::new(Cancel::root()),
            table_rules: (Rules::Othello, Scoring::Official),
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

    /// Limits every later call (each call of `solve`, `score_moves`, `best_moves` and their
    /// `try_` forms on one position has the whole budget); [`Limits::NONE`] removes them.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A handle that stops this solver's searches from another thread. Once stopped, every
    /// later call returns [`Stopped`].
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

    fn split_min(&self) -> u32 {
        if self.threads > 1 {
            SPLIT_MIN
        } else {
            u32::MAX
        }
    }

    /// The state of one call: a new table generation and a fresh budget.
    fn attempt(&self) -> Attempt<'_> {
        self.tt.deep.new_generation();
        let start = Instant::now();
        Attempt {
            tt: &self.tt,
            limits: self.limits,
            pool: &self.pool,
            split_min: self.split_min(),
            cancel: Cancel::limited(&self.stop, Budget::new(&self.limits, start)),
            start,
            nodes: 0,
            threads: self.threads,
        }
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
    /// once pass). Drivers refuse such positions unless told to go on.
    pub fn check_feasible(&mut self, position: &Position) -> Result<(), TooManyEmpties> {
        self.check_feasible_in::<Othello>(position.board)
    }

    /// [`Solver::check_feasible`] under any rules.
    pub fn check_feasible_game(
        &mut self,
        position: &VariantPosition,
        scoring: Scoring,
    ) -> Result<(), TooManyEmpties> {
        by_rules!(self.check_feasible_in, position, scoring)
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
        let probe = self.attempt().root_score::<R>(state, window, wld);
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

    /// Solves `position` exactly (or WLD with the `wld` option). `Err(Stopped)` when a stop was
    /// requested or a limit was reached first ([`Solver::try_solve`] tells what was proven).
    pub fn solve(&mut self, position: &Position) -> Result<Solution, Stopped> {
        self.try_solve(position).map_err(|_| Stopped)
    }

    /// Solves `position` exactly (or WLD); when stopped first (a stop request, or a limit of
    /// [`Solver::set_limits`]), says why and what was proven: bounds of the score and, once
    /// the score is exact, the beginning of the principal variation.
    pub fn try_solve(&mut self, position: &Position) -> Result<Solution, Unfinished> {
        self.try_solve_in::<Othello>(position, position.board)
    }

    /// [`Solver::try_solve`] under any rules and scoring: the score is in `scoring`.
    pub fn try_solve_game(
        &mut self,
        position: &VariantPosition,
        scoring: Scoring,
    ) -> Result<VariantSolution, Unfinished> {
        let plain = position.position();
        let solution = by_rules!(self.try_solve_in, position, scoring, &plain)?;
        Ok(VariantSolution {
            position: *position,
            scoring,
            score: solution.score,
            wld: solution.wld,
            best_move: solution.best_move,
            pv: solution.pv,
            nodes: solution.nodes,
            time: solution.time,
            threads: solution.threads,
        })
    }

    fn try_solve_in<R: GameRules>(
        &mut self,
        position: &Position,
        state: R::State,
    ) -> Result<Solution, Unfinished> {
        self.use_rules::<R>();
        let wld = self.options.wld;
        let window = self.window();
        let board = R::board(&state);
        debug_assert_eq!(board, position.board);
        let mut attempt = self.attempt();
        let mut solution = Solution {
            position: *position,
            score: 0,
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

    /// The exact score of every legal move of `position`, best first, ties in square order;
    /// a position that must pass gives one entry for the pass; a finished game none.
    /// Returns the scores and the nodes searched.
    pub fn score_moves(&mut self, position: &Position) -> Result<(Vec<MoveScore>, u64), Stopped> {
        self.try_score_moves(position).map_err(|_| Stopped)
    }

    /// [`Solver::score_moves`]; when stopped first, the moves scored so far and the bounds of
    /// the best score they prove.
    pub fn try_score_moves(
        &mut self,
        position: &Position,
    ) -> Result<(Vec<MoveScore>, u64), Unfinished> {
        self.try_score_moves_in::<Othello>(position.board)
    }

    /// [`Solver::try_score_moves`] under any rules and scoring.
    pub fn try_score_moves_game(
        &mut self,
        position: &VariantPosition,
        scoring: Scoring,
    ) -> Result<(Vec<MoveScore>, u64), Unfinished> {
        by_rules!(self.try_score_moves_in, position, scoring)
    }

    fn try_score_moves_in<R: GameRules>(
        &mut self,
        state: R::State,
    ) -> Result<(Vec<MoveScore>, u64), Unfinished> {
        self.use_rules::<R>();
        let wld = self.options.wld;
        let (alpha, beta) = self.window();
        let mut attempt = self.attempt();
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
        for (mv, child) in children {
            // The selective searches fill the table for the exact one (their guess is unused).
            if attempt.selective::<R>(child, -beta, -alpha).is_none() {
                scores.sort_by_key(|m| (-m.score, m.mv));
                let lower = scores.first().map_or(alpha, |m| m.score);
                return Err(attempt.unfinished(lower, beta, Vec::new(), scores));
            }
            match attempt.score_of::<R>(child, -beta, -alpha) {
                Some(v) => scores.push(MoveScore {
                    mv,
                    score: clamp_wld(-v, wld),
                }),
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
    /// null-window proof per other move to decide whether it ties. Faster than `score_moves`.
    /// A finished game gives its final score and no move.
    pub fn best_moves(
        &mut self,
        position: &Position,
    ) -> Result<(i32, Vec<Option<Square>>, u64), Stopped> {
        self.try_best_moves(position).map_err(|_| Stopped)
    }

    /// [`Solver::best_moves`]; when stopped first, the bounds of the best score and the moves
    /// already proven to reach it (once the score is exact).
    pub fn try_best_moves(
        &mut self,
        position: &Position,
    ) -> Result<(i32, Vec<Option<Square>>, u64), Unfinished> {
        self.try_best_moves_in::<Othello>(position.board)
    }

    /// [`Solver::try_best_moves`] under any rules and scoring.
    pub fn try_best_moves_game(
        &mut self,
        position: &VariantPosition,
        scoring: Scoring,
    ) -> Result<(i32, Vec<Option<Square>>, u64), Unfinished> {
        by_rules!(self.try_best_moves_in, position, scoring)
    }

    fn try_best_moves_in<R: GameRules>(
        &mut self,
        state: R::State,
    ) -> Result<(i32, Vec<Option<Square>>, u64), Unfinished> {
        self.use_rules::<R>();
        let wld = self.options.wld;
        let window = self.window();
        let mut attempt = self.attempt();
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
}

impl Solver {
    /// Score (sign with WLD) and nodes, without the principal variation or the other best
    /// moves: the cheapest exact answer (training labels).
    pub fn solve_without_pv(&mut self, position: &Position) -> Result<(i32, u64), Stopped> {
        self.use_rules::<Othello>();
        let wld = self.options.wld;
        let window = self.window();
        let board = position.board;
        if board.is_game_over() {
            return Ok((clamp_wld(board.final_score(), wld), 0));
        }
        let mut attempt = self.attempt();
        let (score, _) = attempt
            .root_score::<Othello>(board, window, wld)
            .map_err(|_| Stopped)?;
        Ok((score, attempt.nodes))
    }
}

/// True when neither side may place a disc under the rules `R`.
fn is_over<R: GameRules>(state: &R::State) -> bool {
    R::moves(state) == 0 && R::moves(&R::pass(state)) == 0
}

/// One call of the solver on one position: its cancellation flag (under the solver's stop
/// flag, carrying the call's budget), when it started and the nodes it searched.
struct Attempt<'s> {
    tt: &'s Tables,
    /// The limits of the call (the selective searches take a share of them).
    limits: Limits,
    pool: &'s rayon::ThreadPool,
    split_min: u32,
    cancel: Cancel<'s>,
    start: Instant,
    nodes: u64,
    threads: usize,
}

impl Attempt<'_> {
    /// Why the call stopped: the limit its budget reached, else a stop request.
    fn reason(&self) -> StopReason {
        self.cancel
            .budget()
            .and_then(Budget::reason)
            .unwrap_or(StopReason::Interrupted)
    }

    /// The report of a call stopped with the best score proven within `lower..=upper`.
    fn unfinished(
        &self,
        lower: i32,
        upper: i32,
        pv: Vec<Option<Square>>,
        moves: Vec<MoveScore>,
    ) -> Unfinished {
        debug_assert!(
            -64 <= lower && lower <= upper && upper <= 64,
            "{lower}..{upper}"
        );
        Unfinished {
            bounds: Bounds {
                reason: self.reason(),
                lower,
                upper,
            },
            pv,
            moves,
            nodes: self.nodes,
            time: self.start.elapsed(),
        }
    }

    /// Runs `f` with a search of this call, in the thread pool when a search of `board` may
    /// split across threads (handing a small search to the pool costs more than it); adds its
    /// nodes and says whether it finished (`None` when it was stopped: its value is then
    /// meaningless).
    fn run<R: GameRules, T: Send>(
        &mut self,
        board: Board,
        f: impl FnOnce(&mut Search<'_, R>) -> T + Send,
    ) -> Option<T> {
        let (result, nodes) =
            Self::run_under(self.tt, self.pool, self.split_min, &self.cancel, board, f);
        self.nodes += nodes;
        result
    }

    /// [`Attempt::run`] under the cancellation flag `cancel`: the result (`None` when
    /// stopped) and the nodes searched.
    fn run_under<R: GameRules, T: Send>(
        tt: &Tables,
        pool: &rayon::ThreadPool,
        split_min: u32,
        cancel: &Cancel<'_>,
        board: Board,
        f: impl FnOnce(&mut Search<'_, R>) -> T + Send,
    ) -> (Option<T>, u64) {
        let go = || {
            let mut search = Search::<R>::new(tt, cancel, split_min);
            let result = f(&mut search);
            // Judged before the last charge: a search that ended without seeing a stop is
            // whole, even if its last nodes spend the budget.
            let finished = !cancel.is_cancelled();
            search.charge_rest();
            (result, search.nodes, finished)
        };
        let (result, nodes, finished) = if board.empties() >= split_min {
            pool.install(go)
        } else {
            go()
        };
        (finished.then_some(result), nodes)
    }

    /// Exact score of the side to move in `state` (window search); `None` when stopped.
    fn score_of<R: GameRules>(&mut self, state: R::State, alpha: i32, beta: i32) -> Option<i32> {
        let v = self.run::<R, _>(R::board(&state), |search| search.search(state, alpha, beta))?;
        debug_assert!((-64..=64).contains(&v), "score {v}");
        Some(v)
    }

    /// The score of `state` (a position with a move for someone) within `window`, and the best
    /// move of the side to move, or of the opponent after the forced pass. When stopped, the
    /// bounds proven so far.
    fn root_score<R: GameRules>(
        &mut self,
        state: R::State,
        window: (i32, i32),
        wld: bool,
    ) -> Result<(i32, u8), Unfinished> {
        let passes = R::moves(&state) == 0;
        let root = if passes { R::pass(&state) } else { state };
        let mut bounds = window;
        let found = self.root::<R>(root, window, &mut bounds);
        let (lower, upper) = bounds;
        let (lower, upper) = if passes {
            (-upper, -lower)
        } else {
            (lower, upper)
        };
        let Some(best) = found else {
            let (lower, upper) = (clamp_wld(lower, wld), clamp_wld(upper, wld));
            return Err(self.unfinished(lower, upper, Vec::new(), Vec::new()));
        };
        debug_assert_eq!(lower, upper);
        Ok((clamp_wld(lower, wld), best))
    }

    /// From `SELECTIVE_MIN` empties up, selective searches of `state` within (`alpha`, `beta`)
    /// (ProbCut, the narrowest margin first): they fill the table with best moves for the
    /// exact search that follows and their value is its aspiration's centre; no bound they
    /// find is ever a result. Below, the guess is a draw. `None` when stopped.
    fn selective<R: GameRules>(&mut self, state: R::State, alpha: i32, beta: i32) -> Option<i32> {
        let board = R::board(&state);
        let mut guess = 0;
        if board.empties() < SELECTIVE_MIN {
            return Some(guess);
        }
        // Under a limit the selective searches get a quarter of it, so that the exact search
        // still has most of it to prove bounds.
        let share = Limits {
            time: self.limits.time.map(|t| t / 4),
            nodes: self.limits.nodes.map(|n| n / 4),
        };
        let cancel = Cancel::limited(&self.cancel, Budget::new(&share, Instant::now()));
        for &margin in SELECTIVE_MARGINS {
            let selectivity = Selectivity { margin };
            let (v, nodes) = Self::run_under(
                self.tt,
                self.pool,
                self.split_min,
                &cancel,
                board,
                |search: &mut Search<'_, R>| {
                    search.selective = Some(selectivity);
                    search.search(state, alpha, beta)
                },
            );
            self.nodes += nodes;
            match v {
                Some(v) => guess = v,
                None if self.cancel.is_cancelled() => return None,
                // Their share is spent: the exact search goes on without a better guess.
                None => return Some(0),
            }
        }
        Some(guess)
    }

    /// Searches the root with its own move list so that the best move is always known, within
    /// `window`. The proven bounds of the root's score narrow in `bounds` as the probes finish
    /// (they meet when it is solved); the best move is `None` when the search was stopped.
    fn root<R: GameRules>(
        &mut self,
        state: R::State,
        window: (i32, i32),
        bounds: &mut (i32, i32),
    ) -> Option<u8> {
        let (mut alpha, mut beta) = window;
        let board = R::board(&state);
        // The aspiration probe centres on the selective searches' guess (a draw without them).
        let guess = self
            .selective::<R>(state, alpha, beta)?
            .clamp(alpha + 1, beta - 1);
        if beta - alpha > 2 && board.empties() >= ASPIRATION_MIN {
            // Aspiration: a cheap probe of the window around the guess first; the exact search
            // then only has to cover the side of it the probe proved.
            let (v, best) = self.root_window::<R>(state, guess - 1, guess + 1, bounds)?;
            // Fail-soft: beyond the window, the value is a bound.
            if v == guess {
                *bounds = (v, v);
                return Some(best);
            } else if v > guess {
                bounds.0 = bounds.0.max(v);
                alpha = alpha.max(v - 1);
            } else {
                bounds.1 = bounds.1.min(v);
                beta = beta.min(v + 1);
            }
        }
        let (score, best) = self.root_window::<R>(state, alpha, beta, bounds)?;
        *bounds = (score, score);
        Some(best)
    }

    /// A fail-soft principal variation search of the root with window (`alpha`, `beta`), in
    /// three proofs whose results raise the lower bound in `bounds` as they finish: the first
    /// move alone (inside the window its exact score is a lower bound, usually the final
    /// score), then one null-window proof that no other move beats it (the window each of them
    /// gets in an undivided search, splits included), and an exact search of the others only
    /// if one does. `None` when stopped.
    fn root_window<R: GameRules>(
        &mut self,
        state: R::State,
        alpha: i32,
        beta: i32,
        bounds: &mut (i32, i32),
    ) -> Option<(i32, u8)> {
        let board = R::board(&state);
        let (tt, empties) = (self.tt, board.empties());
        let mut list = ordered_moves::<R>(&state, tt);
        let search = |attempt: &mut Self, list: &mut [Move], alpha: i32, beta: i32| {
            attempt.run::<R, _>(board, |search| {
                search.search_moves(state, list, alpha, beta, empties)
            })
        };
        let (first, first_move) = search(self, &mut list[..1], alpha, beta)?;
        debug_assert!((-64..=64).contains(&first), "score {first}");
        if first >= beta || list.len() == 1 {
            return Some((first, first_move));
        }
        if first > alpha {
            bounds.0 = bounds.0.max(first);
        }
        let floor = alpha.max(first);
        let (rest, rest_move) = search(self, &mut list[1..], floor, floor + 1)?;
        if rest <= floor {
            return Some(if rest > first {
                (rest, rest_move)
            } else {
                (first, first_move)
            });
        }
        bounds.0 = bounds.0.max(rest);
        if rest >= beta {
            return Some((rest, rest_move));
        }
        search(self, &mut list[1..], rest - 1, beta)
    }

    /// Perfect play from `state` whose exact score is `score`, to the end of the game: at each
    /// step the first move (table move first) whose child is proven to hold the score. The
    /// first move tried is `first`, the root search's best move, so the PV starts with it.
    /// When stopped, the proven part of the PV.
    fn principal_variation<R: GameRules>(
        &mut self,
        mut state: R::State,
        score: i32,
        first: u8,
    ) -> Result<Vec<Option<Square>>, Unfinished> {
        let root_score = score;
        let mut score = score;
        let mut first = Some(first);
        let mut pv = Vec::new();
        loop {
            if R::moves(&state) == 0 {
                if R::moves(&R::pass(&state)) == 0 {
                    debug_assert_eq!(R::final_score(&R::board(&state)), score);
                    break;
                }
                pv.push(None);
                state = R::pass(&state);
                score = -score;
                continue;
            }
            let mut list = ordered_moves::<R>(&state, self.tt);
            if let Some(f) = first.take() {
                if let Some(i) = list.iter().position(|m| m.sq == f) {
                    list[..=i].rotate_right(1);
                }
            }
            let mut next = None;
            for m in &list {
                let child = R::play(&state, m.sq as usize, m.flips);
                // child <= -score proves this move keeps the score (it can never do better).
                let Some(v) = self.score_of::<R>(child, -score, -score + 1) else {
                    return Err(self.unfinished(root_score, root_score, pv, Vec::new()));
                };
                if v <= -score {
                    next = Some((m.sq, child));
                    break;
                }
            }
            let Some((sq, child)) = next else {
                debug_assert!(false, "no move holds the proven score");
                break;
            };
            pv.push(Square::new(sq as usize));
            state = child;
            score = -score;
        }
        Ok(pv)
    }
}

fn clamp_wld(score: i32, wld: bool) -> i32 {
    if wld {
        score.signum()
    } else {
        score
    }
}

/// Root move list in search order: the table's move, then fastest-first.
fn ordered_moves<R: GameRules>(state: &R::State, tt: &Tables) -> Vec<Move> {
    let board = R::board(state);
    let key = R::key(state);
    let tt_move = tt
        .deep
        .probe(&key, key.hash())
        .map(|e| e.best)
        .unwrap_or(tt::NO_MOVE);
    let odd = odd_region_squares(board.empty());
    let mut list: Vec<Move> = Bits(R::moves(state))
        .map(|sq| Move::new(sq, R::flips(state, sq)))
        .collect();
    for m in list.iter_mut() {
        let (np, no) = (
            board.opponent ^ m.flips,
            board.player ^ m.flips ^ (1u64 << m.sq),
        );
        m.value = if m.sq == tt_move {
            i32::MAX
        } else if board.empties() >= ordering::EVAL_ORDER_MIN {
            let mut nodes = 0;
            ordering::learned_order(crate::eval::builtin(), np, no, ROOT_SORT_DEPTH, &mut nodes)
        } else {
            fastest_first(np, no, m.sq as usize, odd)
        };
    }
    list.sort_by_key(|m| -m.value);
    list
}

#[cfg(test)]
mod tests;
