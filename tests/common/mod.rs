//! Helpers for the integration tests that include this module (`mod common;`).

use osolve::search::{SolveOptions, Solver};

/// An exact solver (not WLD) with `threads` threads and a table of `hash_mb` MiB.
pub fn solver(threads: usize, hash_mb: usize) -> Solver {
    Solver::new(SolveOptions {
        threads,
        hash_mb,
        wld: false,
    })
    .expect("the solver builds")
}
