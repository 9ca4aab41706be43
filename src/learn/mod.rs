//! Learning the evaluation from osolve's own solves: `gen` makes labelled training positions
//! (random or lightly randomised self-play games, deduplicated under symmetry, labelled by the
//! exact solver or a shallow search), `train` fits the weights of [`crate::eval`] to them.
//! Drivers like `analyze`: they take writers and readers from the caller, never open files or
//! print.

pub mod gen;
pub mod train;

use crate::board::Board;
pub use crate::search::eval_search::search as eval_search;

/// The symmetry-canonical form of a board (the smallest of its eight images): two boards are
/// the same training position when their canonical forms are equal.
pub fn canonical(board: &Board) -> (u64, u64) {
    (0..8)
        .map(|k| {
            let b = board.symmetry(k);
            (b.player, b.opponent)
        })
        .min()
        .expect("eight images")
}
