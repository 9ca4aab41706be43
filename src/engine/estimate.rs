//! Estimates beyond exact reach: the middle-game search ([`super::midgame`]) to a fixed depth,
//! behind the small face the drivers use (`solve`, `analyze` and `show` with `--depth N`, and
//! the best guess beside the bounds of a solve a limit stopped). Its answers are the solver's
//! result types marked [`Exactness::Estimate`] with the depth searched, so that no report can
//! write one as a proven score and no check counts one. Othello rules with official scoring
//! only: the evaluation was trained on nothing else. Knows boards, the evaluation and the
//! result types; never files, formats or terminals.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::midgame::{self, Limit, Table, MAX_DEPTH};
use crate::board::rules::Variant;
use crate::board::{Position, Square};
use crate::eval::{builtin, SCALE};
use crate::search::{
    BestMove, Exactness, MoveScore, Solution, StopHandle, StopReason, Stopped, Unfinished,
};

/// The depth of the estimate made beside the bounds of a solve a time or node limit stopped
/// ([`Estimator::after_stop`]): cheap beside any useful limit, so the limit is hardly
/// overshot (FFO #40-#59 on one thread: depth 6 takes about 7 thousand nodes a position, depth
/// 10 about 340 thousand; docs/estimates.md).
pub const AFTER_STOP_DEPTH: u32 = 8;

/// Why an estimate was not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EstimateError {
    /// The position is not under Othello rules with official scoring.
    #[error(
        "estimates (--depth) are made under Othello rules with official scoring only: the \
         evaluation knows no other"
    )]
    Rules,
    /// A stop request ended the search.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// The moves of a position with their estimated scores, as [`Estimator::score_moves`] gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EstimatedMoves {
    /// Every legal move (or the forced pass) with its estimated score, best first, ties in
    /// square order; empty for a finished game. With `best_only`, the best move alone.
    pub moves: Vec<MoveScore>,
    /// [`Exactness::Estimate`] with the depth searched; [`Exactness::Exact`] only for a
    /// finished game (no search: its final score).
    pub exactness: Exactness,
    /// Positions searched.
    pub nodes: u64,
}

/// The middle-game search with its own table, kept between positions of one run.
pub struct Estimator {
    table: Table,
}

/// An evaluation in 1/SCALE discs as a score in whole discs, rounded to the nearest.
fn discs(value: i32) -> i32 {
    ((value as f64) / f64::from(SCALE))
        .round()
        .clamp(-64.0, 64.0) as i32
}

impl Estimator {
    /// An estimator whose table takes about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Estimator {
        Estimator {
            table: Table::new(hash_mb.max(1)),
        }
    }

    /// Runs the search of `position` to `depth` plies (1 to 60; the game's end bounds it),
    /// every root move with the full window when `all_moves`. `Err` when `stop` fired.
    fn search(
        &mut self,
        position: &Position,
        depth: u32,
        stop: Option<&StopHandle>,
        all_moves: bool,
    ) -> Result<midgame::Outcome, EstimateError> {
        if position.variant() != Variant::default() {
            return Err(EstimateError::Rules);
        }
        let never = AtomicBool::new(false);
        let limit = Limit {
            deadline: None,
            soft_deadline: None,
            stop: &never,
            handle: stop,
            max_depth: depth.clamp(1, MAX_DEPTH),
        };
        let outcome = midgame::search(position.board, &mut self.table, builtin(), limit, all_moves);
        if stop.is_some_and(StopHandle::is_stopped) {
            return Err(Stopped.into());
        }
        Ok(outcome)
    }

    /// The estimated score of `position` after a search of `depth` plies, its best move and
    /// expected line, as a [`Solution`] marked [`Exactness::Estimate`] (a finished game is its
    /// exact final score). `Err` under other rules or scoring, or when `stop` fired.
    ///
    /// ```
    /// use osolve::board::Position;
    /// use osolve::engine::estimate::Estimator;
    /// use osolve::search::Exactness;
    ///
    /// let mut estimator = Estimator::new(4);
    /// let estimate = estimator.solve(&Position::start(), 6, None)?;
    /// assert_eq!(estimate.exactness, Exactness::Estimate { depth: 6 });
    /// assert!(!estimate.is_exact() && estimate.final_discs().is_none());
    /// assert!(!estimate.pv.is_empty() && estimate.pv.len() <= 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve(
        &mut self,
        position: &Position,
        depth: u32,
        stop: Option<&StopHandle>,
    ) -> Result<Solution, EstimateError> {
        let start = Instant::now();
        let mut solution = Solution {
            position: *position,
            score: 0,
            exactness: Exactness::Exact,
            wld: false,
            best_move: BestMove::GameOver,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            threads: 1,
        };
        if position.is_over() {
            if position.variant() != Variant::default() {
                return Err(EstimateError::Rules);
            }
            solution.score = position.board.final_score();
            return Ok(solution);
        }
        let outcome = self.search(position, depth, stop, false)?;
        solution.score = discs(outcome.value());
        solution.exactness = Exactness::Estimate {
            depth: outcome.depth,
        };
        solution.best_move = match outcome.best_move() {
            Some(square) => BestMove::Play(square),
            None => BestMove::Pass,
        };
        solution.pv = outcome.pv;
        solution.nodes = outcome.nodes;
        solution.time = start.elapsed();
        Ok(solution)
    }

    /// The best estimate to report beside the bounds of `position`'s solve that stopped as
    /// `unfinished` says: a search of [`AFTER_STOP_DEPTH`] plies when a time or node limit
    /// stopped it (not a stop request, not a win/draw/loss proof, Othello rules with official
    /// scoring only); `None` otherwise, or when `stop` fires meanwhile.
    pub fn after_stop(
        &mut self,
        position: &Position,
        unfinished: &Unfinished,
        wld: bool,
        stop: Option<&StopHandle>,
    ) -> Option<Solution> {
        if wld || unfinished.bounds.reason == StopReason::Interrupted {
            return None;
        }
        self.solve(position, AFTER_STOP_DEPTH, stop)
            .ok()
            .filter(|estimate| !estimate.is_exact())
    }

    /// The estimated score of every move of `position` after a search of `depth` plies (each
    /// move searched with the full window), best first, ties in square order; with `best_only`
    /// the best move alone (the cheaper search). `Err` as for [`Estimator::solve`].
    pub fn score_moves(
        &mut self,
        position: &Position,
        depth: u32,
        best_only: bool,
        stop: Option<&StopHandle>,
    ) -> Result<EstimatedMoves, EstimateError> {
        if position.is_over() {
            if position.variant() != Variant::default() {
                return Err(EstimateError::Rules);
            }
            return Ok(EstimatedMoves {
                moves: Vec::new(),
                exactness: Exactness::Exact,
                nodes: 0,
            });
        }
        let outcome = self.search(position, depth, stop, !best_only)?;
        let mut moves: Vec<MoveScore> = outcome
            .moves
            .iter()
            .map(|&(mv, value)| MoveScore {
                mv,
                score: discs(value),
            })
            .collect();
        if best_only {
            moves.truncate(1);
        }
        moves.sort_by_key(|m| (-m.score, m.mv.map(Square::index)));
        Ok(EstimatedMoves {
            moves,
            exactness: Exactness::Estimate {
                depth: outcome.depth,
            },
            nodes: outcome.nodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::{Rules, Scoring};
    use crate::notation::parse_position;

    /// FFO #40 (20 empties, black to move; exact score +38, best a2).
    fn ffo40() -> Position {
        parse_position("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X")
            .unwrap()
            .position
    }

    #[test]
    fn estimates_say_so_and_have_no_final_count() {
        let mut estimator = Estimator::new(4);
        let estimate = estimator.solve(&ffo40(), 8, None).unwrap();
        assert_eq!(estimate.exactness, Exactness::Estimate { depth: 8 });
        assert!(!estimate.is_exact());
        assert_eq!(estimate.final_discs(), None);
        assert_eq!(estimate.final_count(), None);
        assert_eq!(estimate.end(), None);
        assert_eq!(estimate.best_move, BestMove::Play("a2".parse().unwrap()));
        assert_eq!(estimate.pv.first(), Some(&Some("a2".parse().unwrap())));
        assert!(estimate.pv.len() <= 8);
        assert!((-64..=64).contains(&estimate.score));
        // Every move's estimate at the same depth: the best agrees with the solve's.
        let moves = estimator.score_moves(&ffo40(), 8, false, None).unwrap();
        assert_eq!(moves.exactness, Exactness::Estimate { depth: 8 });
        assert_eq!(
            moves.moves.len(),
            ffo40().board.moves().count_ones() as usize
        );
        assert_eq!(moves.moves[0].score, estimate.score);
        assert!(moves.moves.windows(2).all(|w| w[0].score >= w[1].score));
        let best = estimator.score_moves(&ffo40(), 8, true, None).unwrap();
        assert_eq!(best.moves, vec![moves.moves[0]]);
    }

    #[test]
    fn the_depth_is_the_one_searched_and_still_an_estimate() {
        // FFO #40 after 12 plies (the lowest legal square each time, one a pass): 9 empties, at
        // depth 30 searched to the end of the game. Still an estimate: only the solver proves.
        let mut position = ffo40();
        for _ in 0..12 {
            let moves = position.board.moves();
            position = if moves == 0 {
                position.pass()
            } else {
                let square = Square::new(moves.trailing_zeros() as usize).unwrap();
                position.play(square).unwrap()
            };
        }
        assert!(!position.is_over());
        let empties = position.board.empties();
        assert_eq!(empties, 9);
        let mut estimator = Estimator::new(4);
        let estimate = estimator.solve(&position, 30, None).unwrap();
        match estimate.exactness {
            Exactness::Estimate { depth } => assert!((1..=empties).contains(&depth), "{depth}"),
            Exactness::Exact => panic!("an estimate reported as exact"),
        }
        // At the end of the game the estimate is the exact score, yet labelled an estimate.
        let exact = crate::search::reference::alpha_beta(position.board, -64, 64);
        assert_eq!(estimate.score, exact);
    }

    #[test]
    fn other_rules_a_stop_and_a_finished_game() {
        let mut estimator = Estimator::new(4);
        let raw = ffo40().with_scoring(Scoring::Raw);
        assert_eq!(estimator.solve(&raw, 4, None), Err(EstimateError::Rules));
        let reversi = Position::start_of(Rules::Reversi);
        assert_eq!(
            estimator.score_moves(&reversi, 4, false, None),
            Err(EstimateError::Rules)
        );
        let solver = crate::search::Solver::new(crate::search::SolveOptions {
            threads: 1,
            hash_mb: 1,
            ..Default::default()
        })
        .unwrap();
        let handle = solver.stop_handle();
        handle.stop();
        assert_eq!(
            estimator.solve(&ffo40(), 8, Some(&handle)),
            Err(EstimateError::Stopped(Stopped))
        );
        let over = Position::from_colors(1, 0, crate::board::Color::Black).unwrap();
        let result = estimator.solve(&over, 8, None).unwrap();
        assert!(result.is_exact());
        assert_eq!(result.score, 64);
        let moves = estimator.score_moves(&over, 8, false, None).unwrap();
        assert!(moves.moves.is_empty() && moves.exactness == Exactness::Exact);
    }
}
