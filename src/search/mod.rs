//! The exact solver: turns a [`Position`] into a [`Solution`] (score, best move, principal
//! variation, nodes), or, when a stop request or a limit ([`Limits`]) ends the search first,
//! into an [`Unfinished`] report of the bounds it proved. Never reads files, prints, or knows
//! about terminals; its options are the plain [`SolveOptions`] struct.

pub mod endgame;
pub mod eval_search;
pub mod last;
pub mod limit;
pub mod literal;
pub mod node;
pub mod ordering;
pub mod reference;
pub mod result;
mod root;
pub mod stability;
pub mod thresholds;
pub mod tt;

use crate::board::rules::{GameRules, Official, Othello, OthelloRules, Raw, ReversiRules};
use crate::board::rules::{Rules, Scoring, VariantPosition};
use crate::board::{Bits, Position, Square};
use limit::Budget;
pub use limit::Limits;
use node::Cancel;
pub use result::{
    BestMove, Bounds, FinalCount, MoveScore, Solution, StopReason, Stopped, TooManyEmpties,
    Unfinished, VariantSolution,
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

#[cfg(test)]
mod tests;
