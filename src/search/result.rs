//! What the solver answers: the result of a solve ([`Solution`], its first move [`BestMove`],
//! the [`FinalCount`] under any rules, its [`Exactness`]: proven, or the estimate of
//! `engine::estimate` in the same type), one move's score ([`MoveScore`]), and what a search
//! that ended early had proven ([`Unfinished`] with its [`Bounds`] and [`StopReason`]), or why
//! it was not started ([`TooManyEmpties`]); [`Stopped`] is the stop of the callers that give
//! nothing then (the estimator, the batch driver). Plain data: it knows boards and squares,
//! nothing of the search.

use std::fmt;
use std::time::Duration;

use super::thresholds::FEASIBLE_EMPTIES;
use crate::board::{Color, Position, Square};

/// A search stopped before it proved its result (Ctrl-C, or a stop requested through
/// `Solver::stop_handle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped before it finished")]
pub struct Stopped;

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

/// Whether a result is proven or estimated. Exactness is absolute: only a search that proved
/// its result says [`Exactness::Exact`]; every report writes an estimate as one (`estimate
/// (depth 12)`), never as a score, and no check counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exactness {
    /// Proven by the exact solver (or a finished game's final count).
    Exact,
    /// Estimated by a search of this many plies with the learned evaluation at its leaves.
    Estimate {
        /// Plies searched (at most the empty squares).
        depth: u32,
    },
}

impl Exactness {
    /// The depth of an estimate; `None` for an exact result.
    pub fn estimate_depth(self) -> Option<u32> {
        match self {
            Exactness::Exact => None,
            Exactness::Estimate { depth } => Some(depth),
        }
    }

    /// The label reports give an estimate: `estimate (depth 12)`; `None` for an exact result.
    pub fn label(self) -> Option<String> {
        self.estimate_depth()
            .map(|depth| format!("estimate (depth {depth})"))
    }
}

/// The result of a solve: exact from [`super::Solver`], or an estimate from a depth-limited
/// search (`exactness` says which; the estimate's `score` is a value of the evaluation, its
/// `pv` the expected line, and it has no final count).
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The position solved, with its rules and scoring.
    pub position: Position,
    /// The score for the side to move under perfect play in the position's scoring (official:
    /// the final disc differential with the empties to the winner), or with `wld` the sign only;
    /// for an estimate, the estimated final disc differential.
    pub score: i32,
    /// Proven, or estimated at a depth: an estimate is never a score.
    pub exactness: Exactness,
    /// Whether only win/draw/loss was proven.
    pub wld: bool,
    /// The first move of perfect play (of the estimate's expected line).
    pub best_move: BestMove,
    /// Perfect play to the end of the game (`None` = pass); with `wld`, just the best move;
    /// for an estimate, the line its search expects (at most its depth).
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
    /// Final disc counts (black, white) under perfect play with the empties given to the winner
    /// (the standard rules' count; see [`Solution::final_count`] for the discs on the board);
    /// `None` for a WLD solve and for an estimate.
    pub fn final_discs(&self) -> Option<(u32, u32)> {
        if self.wld || !self.is_exact() {
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
    /// True when the result is proven, false for an estimate.
    pub fn is_exact(&self) -> bool {
        self.exactness == Exactness::Exact
    }

    /// The position at the end of the principal variation; `None` with `wld` and for an
    /// estimate.
    pub fn end(&self) -> Option<Position> {
        if self.wld || !self.is_exact() {
            return None;
        }
        self.position.after(&self.pv)
    }

    /// The discs on the board at the end of perfect play, with the empty squares left (what
    /// the score is under raw scoring or Reversi rules); `None` with `wld` and for an estimate.
    pub fn final_count(&self) -> Option<FinalCount> {
        let end = self.end()?;
        Some(FinalCount {
            black: end.black().count_ones(),
            white: end.white().count_ones(),
            empty: end.board.empties(),
        })
    }

    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        crate::units::per_second(self.nodes, self.time)
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

/// One move's exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move (`None` = the forced pass).
    pub mv: Option<Square>,
    /// Score for the side to move after playing it (empties to the winner); the sign with WLD.
    pub score: i32,
}

/// A position with too many empty squares to be solved exactly without a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{empties} empty squares: not solved, an exact solve would not finish (it takes months \
     or more beyond {FEASIBLE_EMPTIES} empties)"
)]
pub struct TooManyEmpties {
    /// Empty squares of the position.
    pub empties: u32,
}

/// Why a search ended before it proved its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A stop was requested (`StopHandle`: Ctrl-C, SIGTERM).
    Interrupted,
    /// The time limit passed.
    TimeLimit,
    /// The node limit was reached.
    NodeLimit,
}

impl StopReason {
    /// "interrupted", "time limit" or "node limit".
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Interrupted => "interrupted",
            StopReason::TimeLimit => "time limit",
            StopReason::NodeLimit => "node limit",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The proven bounds of a score a search stopped before proving exactly: the exact score `s`
/// satisfies `lower <= s <= upper` (both within -64..=64, or -1..=1 for win/draw/loss).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Why the search stopped.
    pub reason: StopReason,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

impl Bounds {
    /// True when `score` is within the bounds.
    pub fn contains(&self, score: i32) -> bool {
        self.lower <= score && score <= self.upper
    }
}

/// What a search that stopped early had proven: bounds of the best score, the part of the
/// principal variation that holds them (only once the score is exact), the moves whose exact
/// score was proven (move scoring) or that are proven best (best-move listing), and the work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// Why it stopped and the proven bounds of the best score.
    pub bounds: Bounds,
    /// The proven beginning of the principal variation (empty unless the score is exact).
    pub pv: Vec<Option<Square>>,
    /// Moves finished before the stop, with their exact scores (best first).
    pub moves: Vec<MoveScore>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time until the search stopped.
    pub time: Duration,
}
