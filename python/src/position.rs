//! `osolve.Position`: a board, its side to move, its rules, scoring and discs left, built from
//! any notation the library reads, from two bitboards or from an 8x8 array; its moves, the
//! position after a move, its board string and its SVG picture. Every answer comes from the
//! library's `board`, `notation` and `report` modules.

use std::str::FromStr;

use numpy::{PyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use osolve::board::rules::{Rules, Scoring, Supplies, Variant};
use osolve::board::{Board, Color, Position as LibPosition, Square};
use osolve::notation::{
    format_board, format_board_with_supplies, parse_text_with, ParseErrorKind, Source,
};
use osolve::report::picture::{Marks, Picture};
use osolve::report::svg::svg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{parse_error, IllegalMoveError};

/// How a pass is written in the package's moves (`play("pass")`, a PV, a best move).
pub const PASS: &str = "pass";

/// The name of a move: `a1`..`h8`, or `pass`.
pub fn move_name(mv: Option<Square>) -> String {
    mv.map_or_else(|| PASS.to_string(), |square| square.to_string())
}

/// The rules named `name` (any case).
pub fn rules_of(name: &str) -> PyResult<Rules> {
    Rules::from_str(name).map_err(|e| PyValueError::new_err(format!("rules: {e}")))
}

/// The scoring named `name` (any case).
pub fn scoring_of(name: &str) -> PyResult<Scoring> {
    Scoring::from_str(name).map_err(|e| PyValueError::new_err(format!("scoring: {e}")))
}

/// The colour named `name`: black/x/b or white/o/w (any case).
fn color_of(name: &str) -> PyResult<Color> {
    match name.to_ascii_lowercase().as_str() {
        "black" | "x" | "b" => Ok(Color::Black),
        "white" | "o" | "w" => Ok(Color::White),
        _ => Err(PyValueError::new_err(format!(
            "to_move: expected 'black' or 'white', found '{}'",
            name.escape_debug()
        ))),
    }
}

/// A position with its rules and scoring.
///
/// ``Position(text)`` reads any notation osolve reads: a board string (64 cells then the side
/// to move), an 8-line diagram, an OBF line or a move transcript from the start (``"f5d6c3"``).
/// Errors raise :class:`osolve.ParseError`.
#[pyclass(module = "osolve", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The board, the side to move, the rules, the scoring and the discs left.
    pub game: LibPosition,
}

impl Position {
    /// A standard (Othello rules, official scoring) position.
    pub fn standard(position: LibPosition) -> Position {
        Position { game: position }
    }

    /// The board and the side to move.
    pub fn plain(&self) -> LibPosition {
        self.game
    }

    /// How a finished game is scored.
    pub fn scoring_rule(&self) -> Scoring {
        self.game.scoring()
    }

    /// The discs left to each side (derived from the board under Othello rules, where they
    /// never matter).
    pub fn discs_left(&self) -> Supplies {
        self.game
            .supplies()
            .unwrap_or_else(|| Supplies::derived(&self.game))
    }

    /// The empty squares.
    pub fn empties(&self) -> u32 {
        self.game.board.empties()
    }

    /// A position from the side to move's and the other side's discs, checked as the reader
    /// checks a board string; the error says what is wrong.
    pub fn from_parts(
        player: u64,
        opponent: u64,
        to_move: Color,
        rules: Rules,
        scoring: Scoring,
        supplies: Option<Supplies>,
    ) -> Result<Position, String> {
        let board = Board::new(player, opponent).ok_or_else(|| {
            format!(
                "the two bitboards overlap (both have discs on {:#018x})",
                player & opponent
            )
        })?;
        if rules == Rules::Othello && board.empties() == 64 {
            return Err(ParseErrorKind::NoDiscs.to_string());
        }
        let mut position = LibPosition::start();
        position.board = board;
        position.to_move = to_move;
        let game = position
            .with_variant(Variant { rules, scoring }, supplies)
            .map_err(|e| e.to_string())?;
        Ok(Position { game })
    }

    /// The move `text` names in this position: `Some(square)` or `None` for a pass.
    fn parse_move(&self, text: &str) -> PyResult<Option<Square>> {
        let lower = text.trim().to_ascii_lowercase();
        if matches!(lower.as_str(), "pass" | "pa" | "ps" | "--") {
            return Ok(None);
        }
        Square::from_str(&lower)
            .map(Some)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn svg_with(&self, marks: Marks, title: &str) -> String {
        svg(&Picture::new(&self.game, marks, title))
    }
}

#[pymethods]
impl Position {
    #[new]
    #[pyo3(signature = (text, *, rules = "othello", scoring = "official"))]
    fn new(py: Python<'_>, text: &str, rules: &str, scoring: &str) -> PyResult<Position> {
        let rules = rules_of(rules)?;
        let scoring = scoring_of(scoring)?;
        let parsed = parse_text_with(text, Source::inline(), Variant { rules, scoring })
            .map_err(|e| parse_error(py, &e))?;
        Ok(Position {
            game: parsed.position,
        })
    }

    /// The start of a game: the four centre discs (Othello) or the empty board (Reversi).
    #[staticmethod]
    #[pyo3(signature = (*, rules = "othello", scoring = "official"))]
    fn start(rules: &str, scoring: &str) -> PyResult<Position> {
        Ok(Position {
            game: LibPosition::start_of(rules_of(rules)?).with_scoring(scoring_of(scoring)?),
        })
    }

    /// A position from two 64-bit bitboards: the side to move's discs, then the other side's
    /// (bit i is square i: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63).
    #[staticmethod]
    #[pyo3(signature = (player, opponent, *, to_move = "black", rules = "othello",
                        scoring = "official", supplies = None))]
    fn from_bitboards(
        player: u64,
        opponent: u64,
        to_move: &str,
        rules: &str,
        scoring: &str,
        supplies: Option<(u8, u8)>,
    ) -> PyResult<Position> {
        Position::from_parts(
            player,
            opponent,
            color_of(to_move)?,
            rules_of(rules)?,
            scoring_of(scoring)?,
            supplies.map(|(black, white)| Supplies { black, white }),
        )
        .map_err(PyValueError::new_err)
    }

    /// A position from an array of 64 cells (shape (8, 8) as rows 1-8 of columns a-h, or
    /// (64,)): 1 a black disc, -1 a white disc, 0 empty.
    #[staticmethod]
    #[pyo3(signature = (array, *, to_move = "black", rules = "othello",
                        scoring = "official", supplies = None))]
    fn from_array(
        py: Python<'_>,
        array: &Bound<'_, PyAny>,
        to_move: &str,
        rules: &str,
        scoring: &str,
        supplies: Option<(u8, u8)>,
    ) -> PyResult<Position> {
        let numpy = py.import("numpy")?;
        let cells = numpy.call_method1("asarray", (array, "int64"))?;
        let cells: PyReadonlyArrayDyn<'_, i64> = cells.extract()?;
        let shape = cells.shape().to_vec();
        if shape != [8, 8] && shape != [64] {
            return Err(PyValueError::new_err(format!(
                "expected an array of shape (8, 8) or (64,), found {shape:?}"
            )));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, &cell) in cells.as_array().iter().enumerate() {
            match cell {
                1 => black |= 1 << i,
                -1 => white |= 1 << i,
                0 => {}
                other => {
                    return Err(PyValueError::new_err(format!(
                        "cell {i} ({}): expected 1 (black), -1 (white) or 0 (empty), found \
                         {other}",
                        Square::new(i).expect("i < 64")
                    )))
                }
            }
        }
        let to_move = color_of(to_move)?;
        let (player, opponent) = match to_move {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Position::from_parts(
            player,
            opponent,
            to_move,
            rules_of(rules)?,
            scoring_of(scoring)?,
            supplies.map(|(black, white)| Supplies { black, white }),
        )
        .map_err(PyValueError::new_err)
    }

    /// The cells as an (8, 8) int8 array (rows 1-8, columns a-h): 1 black, -1 white, 0 empty.
    #[allow(clippy::wrong_self_convention)] // Python methods take the object by reference.
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let position = self.plain();
        let (black, white) = (position.black(), position.white());
        let rows: Vec<Vec<i8>> = (0..8)
            .map(|row| {
                (0..8)
                    .map(|col| {
                        let bit = 1u64 << (row * 8 + col);
                        if black & bit != 0 {
                            1
                        } else if white & bit != 0 {
                            -1
                        } else {
                            0
                        }
                    })
                    .collect()
            })
            .collect();
        Ok(PyArray2::from_vec2(py, &rows)?)
    }

    /// The side to move's discs as a bitboard.
    #[getter]
    fn player(&self) -> u64 {
        self.game.board.player
    }

    /// The other side's discs as a bitboard.
    #[getter]
    fn opponent(&self) -> u64 {
        self.game.board.opponent
    }

    /// Black's discs as a bitboard.
    #[getter]
    fn black(&self) -> u64 {
        self.plain().black()
    }

    /// White's discs as a bitboard.
    #[getter]
    fn white(&self) -> u64 {
        self.plain().white()
    }

    /// ``"black"`` or ``"white"``.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // Python methods take the object by reference.
    fn to_move(&self) -> &'static str {
        self.game.to_move.name()
    }

    /// The number of empty squares.
    #[getter(empties)]
    fn py_empties(&self) -> u32 {
        self.empties()
    }

    /// ``"othello"`` or ``"reversi"``.
    #[getter]
    fn rules(&self) -> &'static str {
        self.game.rules().name()
    }

    /// ``"official"`` or ``"raw"``.
    #[getter]
    fn scoring(&self) -> &'static str {
        self.scoring_rule().name()
    }

    /// The discs left to (black, white); they matter under Reversi rules only.
    #[getter]
    fn supplies(&self) -> (u8, u8) {
        let supplies = self.discs_left();
        (supplies.black, supplies.white)
    }

    /// The squares the side to move may play, in square order (a1, b1, ..., h8).
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        Square::iter(self.game.moves())
            .map(|s| s.to_string())
            .collect()
    }

    /// True when the side to move has no move but the other side has one.
    #[getter]
    fn must_pass(&self) -> bool {
        self.game.moves() == 0 && !self.game.is_over()
    }

    /// True when neither side can move.
    #[getter]
    fn is_game_over(&self) -> bool {
        self.game.is_over()
    }

    /// The final score for the side to move of a finished game, under the position's scoring;
    /// None while the game goes on.
    #[getter]
    fn final_score(&self) -> Option<i32> {
        self.game
            .is_over()
            .then(|| self.scoring_rule().score(&self.game.board))
    }

    /// The position after `move` (``"f5"``, any case; ``"pass"`` when the side to move must
    /// pass). Raises :class:`osolve.IllegalMoveError` when it cannot be played.
    #[pyo3(name = "play", signature = (r#move))]
    fn py_play(&self, r#move: &str) -> PyResult<Position> {
        let side = self.game.to_move.name();
        match self.parse_move(r#move)? {
            None if self.must_pass() => Ok(Position {
                game: self.game.pass(),
            }),
            None => Err(IllegalMoveError::new_err(if self.game.is_over() {
                "cannot pass: the game is over".to_string()
            } else {
                format!("cannot pass: {side} has a legal move")
            })),
            Some(square) => match self.game.play(square) {
                Some(game) => Ok(Position { game }),
                None => {
                    let why = if self.game.board.empty() & square.bit() == 0 {
                        "the square is taken"
                    } else {
                        "it flips nothing"
                    };
                    Err(IllegalMoveError::new_err(format!(
                        "{square} is not legal: {side} to move, {why}"
                    )))
                }
            },
        }
    }

    /// The board string in osolve's notation (64 cells a1..h8, X black, O white, - empty, then
    /// the side to move; under Reversi rules then the discs left to black and white).
    fn __str__(&self) -> String {
        if self.game.rules() == Rules::Reversi {
            format_board_with_supplies(&self.plain(), self.discs_left())
        } else {
            format_board(&self.plain())
        }
    }

    fn __repr__(&self) -> String {
        let mut text = format!("osolve.Position('{}'", self.__str__());
        if self.game.rules() != Rules::Othello {
            text.push_str(&format!(", rules='{}'", self.game.rules().name()));
        }
        if self.scoring_rule() != Scoring::Official {
            text.push_str(&format!(", scoring='{}'", self.scoring_rule().name()));
        }
        text.push(')');
        text
    }

    /// The SVG picture osolve draws (`osolve show --svg`): discs, side to move, legal moves.
    #[pyo3(signature = (title = ""))]
    fn svg(&self, title: &str) -> String {
        self.svg_with(Marks::Legal, title)
    }

    /// The picture in Jupyter.
    fn _repr_svg_(&self) -> String {
        self.svg_with(Marks::Legal, "")
    }
}

/// The SVG of `position` with a principal variation and its score drawn on it.
pub fn line_svg(position: &Position, pv: Vec<Option<Square>>, score: i32, wld: bool) -> String {
    position.svg_with(Marks::Line { pv, score, wld }, "")
}
