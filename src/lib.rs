//! osolve: an exact Othello endgame solver and analysis library.
//!
//! Data flows one way, under every rule set: text -> [`notation`] -> [`board::Position`] (with
//! its rules, [`board::rules`]) -> [`search::Solver`] -> [`search::Solution`] -> [`report`].
//! The board knows only the game; the search knows nothing of files or terminals; the drivers
//! connect them: [`drivers`] (`solve`, `analyze`, `show`, `bench`, `perft`, and `output`, the
//! batch commands' output), [`games`] and [`learn`], the batch ones (`analyze`, `games`, and
//! `drivers::solve::solve_all` for positions held in memory) through the shared
//! [`drivers::batch`] driver. [`games`] also reads game databases (WThor, GGF, transcript
//! lists) into replayed games; [`engine`] and [`protocol`] play games over GTP and NBoard;
//! [`eval`] is the learned evaluation that orders moves and makes estimates.
//!
//! `unsafe` is denied crate-wide and allowed only in four small modules, each block with a
//! SAFETY comment: the AVX2 kernels `board::flip_avx2` and `board::moves_avx2` (each beside
//! its dispatcher and portable twin), [`cpu`] (prefetch, BMI2 `pext`) and [`huge_pages`] (the
//! allocator of the binary and the Python package, and the table's zeroed cache lines).
#![deny(unsafe_code)]

pub mod board;
pub mod cpu;
pub mod drivers;
pub mod engine;
pub mod eval;
pub mod games;
pub mod huge_pages;
pub mod learn;
pub mod notation;
pub mod protocol;
pub mod report;
pub mod search;
pub mod units;

/// The crate's version, as `osolve --version` prints it first (the Python package reports it
/// as `osolve.__version__`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
