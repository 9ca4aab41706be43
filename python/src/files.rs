//! Files: the positions of a position file with their line numbers (the library's
//! `PositionReader`), and the games of WThor, GGF and transcript files, replayed legally (the
//! library's game readers, as `osolve games` reads them). A file without a position (or game)
//! is a ValueError in the CLI's words, as the CLI says it once the file is read.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use osolve::board::rules::Variant;
use osolve::games::{open_games_input, Game as LibGame, GameItems, NoGames};
use osolve::notation::{input_name, open_path, DynRead, NoPositions, PositionReader as LibReader};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{game_error, parse_error};
use crate::position::{move_name, rules_of, scoring_of, Position};

/// One position of a file: where it is and what the line says.
#[pyclass(module = "osolve", frozen, get_all)]
pub struct Record {
    /// The file name as given.
    file: String,
    /// The 1-based line number.
    line: usize,
    /// The position.
    position: Position,
    /// The move scores an OBF line gives (``{"a2": 18, ...}`` in the order written); empty
    /// for other notations.
    expected: Py<PyDict>,
}

#[pymethods]
impl Record {
    fn __repr__(&self) -> String {
        format!(
            "<osolve.Record {}:{} {}>",
            self.file,
            self.line,
            self.position_text()
        )
    }
}

impl Record {
    fn position_text(&self) -> String {
        osolve::notation::format_board(&self.position.plain())
    }
}

/// The items of one file, watched for an end that comes before any item: that end raises
/// ValueError once (then the iteration stops), as the CLI reports such a file as bad input.
struct Watched<I> {
    items: I,
    /// The message of that ValueError (`empty.obf: no positions (...)`), until an item comes.
    none: Option<String>,
}

impl<I: Iterator> Watched<I> {
    fn next(&mut self) -> PyResult<Option<I::Item>> {
        match self.items.next() {
            Some(item) => {
                self.none = None;
                Ok(Some(item))
            }
            None => match self.none.take() {
                Some(message) => Err(PyValueError::new_err(message)),
                None => Ok(None),
            },
        }
    }
}

/// An iterator over the positions of a file (see `osolve.read_positions`).
#[pyclass(module = "osolve")]
pub struct PositionReader {
    reader: Mutex<Watched<LibReader<DynRead>>>,
    skip_errors: bool,
}

#[pymethods]
impl PositionReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Record>> {
        let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            // A bad line is a position line, skipped or not: a file of bad lines is not empty.
            let item = match reader.next()? {
                None => return Ok(None),
                Some(item) => item,
            };
            match item {
                Ok(parsed) => {
                    let expected = PyDict::new(py);
                    for &(mv, score) in &parsed.expected {
                        expected.set_item(move_name(mv), score)?;
                    }
                    return Ok(Some(Record {
                        file: parsed.source.name.to_string(),
                        line: parsed.source.line,
                        position: Position {
                            game: parsed.position,
                        },
                        expected: expected.unbind(),
                    }));
                }
                Err(_) if self.skip_errors => continue,
                Err(error) => return Err(parse_error(py, &error)),
            }
        }
    }
}

/// Reads the positions of a file, one per line in any notation (blank lines and lines starting
/// with ``#`` or ``%`` skipped): an iterator of Records. A bad line raises osolve.ParseError
/// (with its line and column) when it is reached, unless ``skip_errors``; a file without a
/// position line (empty, or only blank lines and comments) raises ValueError when its end is
/// reached (``empty.obf: no positions (...)``).
#[pyfunction]
#[pyo3(signature = (path, *, rules = "othello", scoring = "official", skip_errors = false))]
pub fn read_positions(
    py: Python<'_>,
    path: PathBuf,
    rules: &str,
    scoring: &str,
    skip_errors: bool,
) -> PyResult<PositionReader> {
    let rules = rules_of(rules)?;
    let scoring = scoring_of(scoring)?;
    exists(&path)?;
    let reader = open_path(&path).map_err(|e| parse_error(py, &e))?;
    let none = NoPositions {
        name: reader.name().to_string(),
    };
    Ok(PositionReader {
        reader: Mutex::new(Watched {
            items: reader.with_variant(Variant { rules, scoring }),
            none: Some(none.to_string()),
        }),
        skip_errors,
    })
}

/// A complete, legal game of a games file.
#[pyclass(module = "osolve", frozen, get_all)]
pub struct Game {
    /// The file name as given.
    file: String,
    /// The 1-based number of the game in its file.
    number: usize,
    /// The 1-based line the game starts on (text files), else None.
    line: Option<usize>,
    /// Black's name, when the file gives it.
    black: Option<String>,
    /// White's name, when the file gives it.
    white: Option<String>,
    /// The tournament's name, when the file gives it.
    tournament: Option<String>,
    /// The moves played, in order (passes left out: they are forced).
    moves: Vec<String>,
    /// ``positions[i]`` is the position ``moves[i]`` is played in (its mover to move).
    positions: Vec<Position>,
    /// The position the game starts from.
    start: Position,
    /// The final position: neither side can move.
    end: Position,
    /// The final disc counts (black, white), empty squares to the winner.
    final_discs: (u32, u32),
    /// Black's final disc count as the WThor record gives it, else None.
    recorded_black: Option<u32>,
    /// Black's disc count under perfect play as the WThor record gives it, else None.
    theoretical_black: Option<u32>,
    /// The empties of the position the theoretical score is from (WThor), else None.
    theoretical_empties: Option<u32>,
}

impl Game {
    fn of(game: &LibGame) -> Game {
        Game {
            file: game.id.file.to_string(),
            number: game.id.number,
            line: game.id.line,
            black: game.black.clone(),
            white: game.white.clone(),
            tournament: game.tournament.clone(),
            moves: game.moves.iter().map(|s| s.to_string()).collect(),
            positions: game
                .positions
                .iter()
                .map(|&p| Position::standard(p))
                .collect(),
            start: Position::standard(game.start),
            end: Position::standard(game.end),
            final_discs: game.final_discs(),
            recorded_black: game.recorded.map(|r| r.final_black),
            theoretical_black: game.recorded.map(|r| r.theoretical_black),
            theoretical_empties: game.recorded.map(|r| r.depth),
        }
    }
}

#[pymethods]
impl Game {
    /// The moves as a transcript: ``"f5d6c3..."``.
    #[getter]
    fn transcript(&self) -> String {
        self.moves.concat()
    }

    /// The position with ``empties`` empty squares, if the game passes through it, as
    /// ``(index, position)``: the index of the move played in it (``len(moves)`` for the end).
    fn at_empties(&self, empties: u32) -> Option<(usize, Position)> {
        self.positions
            .iter()
            .enumerate()
            .find(|(_, p)| p.empties() == empties)
            .map(|(i, p)| (i, *p))
            .or_else(|| (self.end.empties() == empties).then_some((self.moves.len(), self.end)))
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self) -> String {
        let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_string());
        format!(
            "<osolve.Game {}#{}: {} vs {}, {} moves, {}-{}>",
            self.file,
            self.number,
            name(&self.black),
            name(&self.white),
            self.moves.len(),
            self.final_discs.0,
            self.final_discs.1
        )
    }
}

/// An iterator over the games of a file (see `osolve.read_games`).
#[pyclass(module = "osolve")]
pub struct GameReader {
    games: Mutex<Watched<GameItems>>,
    skip_errors: bool,
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Game>> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match games.next()? {
                None => return Ok(None),
                Some(Ok(game)) => return Ok(Some(Game::of(&game))),
                Some(Err(_)) if self.skip_errors => continue,
                Some(Err(error)) => return Err(game_error(py, &error)),
            }
        }
    }
}

/// Reads the games of a WThor (.wtb, with player and tournament names from the WTHOR.JOU and
/// WTHOR.TRN files beside it), GGF or transcript file (one game per line), told apart by their
/// content: an iterator of Games, each replayed legally. A game that cannot be read raises
/// osolve.GameError when it is reached, unless ``skip_errors``; a file without a game (text
/// with only blank lines and comments, a WThor header counting 0 games) raises ValueError when
/// its end is reached (``empty.txt: no games (...)``).
#[pyfunction]
#[pyo3(signature = (path, *, skip_errors = false))]
pub fn read_games(path: PathBuf, skip_errors: bool) -> PyResult<GameReader> {
    exists(&path)?;
    let input = open_games_input(&path, false);
    let none = NoGames {
        name: input_name(&path),
        why: input.why_empty,
    };
    Ok(GameReader {
        games: Mutex::new(Watched {
            items: input.games,
            none: Some(none.to_string()),
        }),
        skip_errors,
    })
}

/// FileNotFoundError (or the OSError that fits) when `path` cannot be opened; `-` is standard
/// input.
fn exists(path: &Path) -> PyResult<()> {
    if path != Path::new("-") {
        std::fs::File::open(path).map_err(|e| {
            let message = format!("{}: {e}", path.display());
            match e.kind() {
                io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
                io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
                _ => PyOSError::new_err(message),
            }
        })?;
    }
    Ok(())
}
