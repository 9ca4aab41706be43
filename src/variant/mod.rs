//! Rules variants: [`solver`] searches a game of any rules exactly, [`reference`] plays it
//! literally for tests, [`perft`] counts its game tree and [`analyze`](mod@analyze) drives
//! `osolve analyze` through the solver. The rules themselves ([`Rules`], [`Scoring`],
//! [`Supplies`], [`Game`], [`VariantPosition`]) live in `board::rules` and are re-exported
//! here. It knows nothing of terminals.

pub mod analyze;
pub mod perft;
pub use crate::search::literal as reference;

pub mod solver;

pub use crate::board::rules::*;
