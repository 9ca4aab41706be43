//! The package's exceptions, and the conversion of the library's errors into them: every
//! message is the library's own (the CLI prints the same words), with the place as attributes.

use osolve::games::GameError as LibGameError;
use osolve::notation::ParseError as LibParseError;
use osolve::huge_pages::TablesRefused;
use osolve::search::{SearchError, TooManyEmpties};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;

pyo3::create_exception!(
    osolve,
    ParseError,
    PyValueError,
    "Text that is not a position: `file`, `line` (1-based), `column` (1-based, or None) and \
     `reason` say where and what was expected."
);
pyo3::create_exception!(
    osolve,
    GameError,
    PyValueError,
    "A game (or a games file) that cannot be read or replayed: `file`, `line` (text files, \
     else None), `game` (1-based number in the file, or None for the file as a whole) and \
     `reason`."
);
pyo3::create_exception!(
    osolve,
    IllegalMoveError,
    PyValueError,
    "A move that cannot be played in the position."
);
pyo3::create_exception!(
    osolve,
    TooManyEmptiesError,
    PyValueError,
    "A position too deep to solve exactly without a limit (more than 36 empties); `empties` \
     says how many. Pass force=True, or a time_limit or node_limit."
);
pyo3::create_exception!(
    osolve,
    LimitReached,
    PyRuntimeError,
    "score_moves or best_moves stopped by a time or node limit before it finished: `reason`, \
     the proven bounds `lower` and `upper` of the best score, and `scores`, the moves finished."
);

/// `value` as a Python object (strings, numbers and options of them convert without fail).
fn any<'py>(py: Python<'py>, value: impl IntoPyObjectExt<'py>) -> Bound<'py, PyAny> {
    value
        .into_bound_py_any(py)
        .expect("a string or a number converts to Python")
}

/// Sets `attributes` on the exception `error` carries.
fn with_attributes<'py>(
    py: Python<'py>,
    error: PyErr,
    attributes: &[(&str, Bound<'py, PyAny>)],
) -> PyErr {
    let value = error.value(py);
    for (name, attribute) in attributes {
        // Setting an attribute on a fresh exception instance cannot fail.
        let _ = value.setattr(*name, attribute);
    }
    error
}

/// `osolve.ParseError` for a library parse error.
pub fn parse_error(py: Python<'_>, error: &LibParseError) -> PyErr {
    let attributes = [
        ("file", any(py, error.at.name.to_string())),
        ("line", any(py, error.at.line)),
        ("column", any(py, error.column)),
        ("reason", any(py, error.kind.to_string())),
    ];
    with_attributes(py, ParseError::new_err(error.to_string()), &attributes)
}

/// `osolve.GameError` for a library game error.
pub fn game_error(py: Python<'_>, error: &LibGameError) -> PyErr {
    let attributes = [
        ("file", any(py, error.file.to_string())),
        ("line", any(py, error.line)),
        ("game", any(py, error.game)),
        ("reason", any(py, error.kind.to_string())),
    ];
    with_attributes(py, GameError::new_err(error.to_string()), &attributes)
}

/// `osolve.TooManyEmptiesError` for a refusal, saying how to go on.
pub fn too_many_empties(py: Python<'_>, refusal: &TooManyEmpties) -> PyErr {
    let message = format!(
        "{refusal}; pass force=True to solve it anyway, or a time_limit or node_limit to get \
         proven bounds"
    );
    let attributes = [("empties", any(py, refusal.empties))];
    with_attributes(py, TooManyEmptiesError::new_err(message), &attributes)
}

/// The exception of a solver that could not be built: MemoryError when the system refused
/// its table's memory (saying what to change), RuntimeError when its threads could not start.
pub fn search_error(error: &SearchError) -> PyErr {
    match error {
        SearchError::Memory { source, .. } => {
            PyMemoryError::new_err(format!("{error}: {source}; use a smaller hash_mb"))
        }
        SearchError::Threads { .. } => PyRuntimeError::new_err(error.to_string()),
    }
}

/// MemoryError for the tables of a batch (the Solver's own and its workers') that the system
/// refused, naming them all and saying what to change.
pub fn tables_error(error: &TablesRefused) -> PyErr {
    PyMemoryError::new_err(format!("{error}: {}; use a smaller hash_mb", error.source))
}

/// Registers the exceptions in the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("ParseError", py.get_type::<ParseError>())?;
    module.add("GameError", py.get_type::<GameError>())?;
    module.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    module.add("TooManyEmptiesError", py.get_type::<TooManyEmptiesError>())?;
    module.add("LimitReached", py.get_type::<LimitReached>())?;
    Ok(())
}
