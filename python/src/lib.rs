//! The `osolve` Python package's compiled module, `osolve._osolve`: positions, the exact
//! solver, batch labelling and file readers of the osolve library, with its errors as Python
//! exceptions. Bindings only: every answer comes from the library.

mod errors;
mod files;
mod position;
mod solver;

use pyo3::prelude::*;

/// Large blocks (the transposition tables) on transparent huge pages, as the `osolve` binary
/// does; the plain system allocator for everything else.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[global_allocator]
static ALLOCATOR: osolve::huge_pages::HugePageAlloc = osolve::huge_pages::HugePageAlloc;

#[pymodule]
fn _osolve(module: &Bound<'_, PyModule>) -> PyResult<()> {
    // Under `ulimit -v`, no further malloc arena takes the room a Solver's check leaves.
    osolve::huge_pages::one_arena_under_a_limit();
    module.add("__version__", osolve::VERSION)?;
    module.add("PASS", position::PASS)?;
    module.add("MOVE_PASS", solver::MOVE_PASS)?;
    module.add("MOVE_NONE", solver::MOVE_NONE)?;
    module.add("SCORE_UNFINISHED", solver::SCORE_UNFINISHED)?;
    module.add("FEASIBLE_EMPTIES", osolve::search::FEASIBLE_EMPTIES)?;
    module.add_class::<position::Position>()?;
    module.add_class::<solver::Solver>()?;
    module.add_class::<solver::Solution>()?;
    module.add_class::<solver::ProgressEvent>()?;
    module.add_class::<solver::Batch>()?;
    module.add_class::<files::Record>()?;
    module.add_class::<files::PositionReader>()?;
    module.add_class::<files::Game>()?;
    module.add_class::<files::GameReader>()?;
    module.add_function(wrap_pyfunction!(files::read_positions, module)?)?;
    module.add_function(wrap_pyfunction!(files::read_games, module)?)?;
    errors::register(module)?;
    Ok(())
}
