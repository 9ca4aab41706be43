//! osolve: an exact Othello endgame solver and analysis library.
//!
//! Data flows one way, under every rule set: text -> [`notation`] -> [`board::Position`] (with
//! its rules, [`board::rules`]) -> [`search::Solver`] -> [`search::Solution`] -> [`report`].
//! The board knows only the game; the search knows nothing
//! of files or terminals; the [`drivers`] (`analyze`, `games`, `bench`, `perft`) connect them,
//! the batch ones (`analyze`, `games`) through the shared [`drivers::batch`] driver. [`games`] also reads
//! game databases (WThor, GGF, transcript lists) into replayed games.

pub mod board;
pub mod drivers;
pub mod engine;
pub mod eval;
pub mod games;
pub mod learn;
pub mod notation;
pub mod protocol;
pub mod report;
pub mod search;
