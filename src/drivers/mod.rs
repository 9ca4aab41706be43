//! The drivers: they stream positions through the search and hand the results to `report`.
//! [`analyze`] (positions) and `games` (whole games, in [`crate::games`]) run through the one
//! batch driver ([`batch`]: scheduling, in-order output, shards, resume, limits, refusal,
//! stopping) and write to an [`output`] (opened, resumed, checked and counted there);
//! [`solve`] solves the positions of `osolve solve` one after the other, and many
//! positions held in memory through the batch driver (the face for bindings); [`show`] finds the
//! marks of `osolve show`'s pictures; [`bench`](mod@bench) runs the benchmark suites and
//! [`perft`] counts move-generation trees.
//! A driver never parses arguments and never prints.

pub mod analyze;
pub mod batch;
pub mod bench;
pub mod output;
pub mod perft;
pub mod show;
pub mod solve;
