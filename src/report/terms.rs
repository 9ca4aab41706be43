//! The words every report writes the same way: a move (`a2`, `--` for a pass), the best move of
//! a search, and the outcome
//! of a score for the side to move (win, draw, loss). At the bottom of report/: it imports
//! nothing of the other report modules, so each of them can use it.

use serde::{Deserialize, Serialize};

use crate::board::Square;
use crate::search::BestMove;

/// How a pass is written in moves and principal variations.
pub const PASS: &str = "--";

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// Neither side wins.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Outcome {
    /// The outcome of a score (or WLD sign) for the side to move.
    pub fn of(score: i32) -> Outcome {
        match score.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    /// "win", "draw" or "loss".
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// A move as reports write it: `a2`, or `--` for a pass.
pub fn move_name(mv: Option<Square>) -> String {
    mv.map_or_else(|| PASS.to_string(), |square| square.to_string())
}

/// The best move as reports write it: `a2`, `--` for a forced pass, `None` when the game is over.
pub fn best_move_name(best: BestMove) -> Option<String> {
    match best {
        BestMove::Play(square) => Some(square.to_string()),
        BestMove::Pass => Some(PASS.to_string()),
        BestMove::GameOver => None,
    }
}

/// A count of empty squares as reports write it: `1 empty`, `20 empties`.
pub fn empties(count: u32) -> String {
    if count == 1 {
        "1 empty".to_string()
    } else {
        format!("{count} empties")
    }
}
