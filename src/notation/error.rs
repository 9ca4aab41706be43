//! The errors of reading positions: [`ParseError`] says where (file, line and, when it helps,
//! the column in characters) and [`ParseErrorKind`] what was expected.

use std::fmt;

use super::source::Source;
use crate::board::{Color, VariantError};

/// What went wrong while reading a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// Nothing but white space.
    #[error(
        "expected a position (a board string, an OBF line or a move transcript), found nothing"
    )]
    Empty,
    /// A transcript without a single move.
    #[error("expected a move transcript, found no moves")]
    EmptyTranscript,
    /// A board string with the wrong number of cells.
    #[error("expected 64 board cells before the side to move, found {found}")]
    CellCount {
        /// Cells found.
        found: usize,
    },
    /// A board string whose side to move is glued to its cells (no space before it), with
    /// the wrong number of characters for 64 cells and a side.
    #[error("expected 64 board cells and the side to move, found {found} characters")]
    GluedCellCount {
        /// Cells and the side character together.
        found: usize,
    },
    /// A character that is not a cell.
    #[error("expected a board cell (X x * B b, O o W w or - . _), found '{}'", .found.escape_debug())]
    BadCell {
        /// The character found.
        found: char,
    },
    /// A side to move that is not one.
    #[error("expected the side to move (X/B/black or O/W/white), found '{}'", .found.escape_debug())]
    BadSide {
        /// The text found.
        found: String,
    },
    /// 64 cells and nothing after them.
    #[error(
        "expected the side to move (X/B/black or O/W/white) after the 64 cells, found end of line"
    )]
    MissingSide,
    /// An OBF annotation that is neither `A2:+38`, `PS:-12` nor `+10`.
    #[error("expected a move score like 'A2:+38', 'PS:-12' or a final score like '+10', found '{}'", .found.escape_debug())]
    BadAnnotation {
        /// The annotation found.
        found: String,
    },
    /// A score that is not a whole number in -64..=64.
    #[error("expected a score from -64 to +64, found '{}'", .found.escape_debug())]
    BadScore {
        /// The score text found.
        found: String,
    },
    /// Two bare final scores on one line.
    #[error("expected at most one final score, found a second one '{}'", .found.escape_debug())]
    DuplicateFinalScore {
        /// The second score.
        found: String,
    },
    /// A transcript token that is neither a square nor a pass.
    #[error("move {number} ({}): expected a square a1..h8 or a pass (pa, ps, --)", .found.escape_debug())]
    BadMove {
        /// 1-based number of the move in the transcript.
        number: usize,
        /// The token found.
        found: String,
    },
    /// Discs left after the side to move that are not two numbers from 0 to 32.
    #[error("expected the discs left to black and to white after the side to move, each from 0 to 32 (such as 'X 5 7'), found '{}'", .found.escape_debug())]
    BadSupplies {
        /// The text found.
        found: String,
    },
    /// A position the rules in force cannot reach.
    #[error("{0}")]
    Rules(VariantError),
    /// A board without a single disc under Othello rules (every game starts with four).
    #[error(
        "a board with no discs cannot occur in Othello (every game starts with four; \
         --rules reversi starts from the empty board)"
    )]
    NoDiscs,
    /// A well-formed transcript move that cannot be played:
    /// `move 2: f5 is not legal: white to move, the square is taken`.
    #[error("move {number}: {found} is not legal: {}{why}", MustPass(.passed))]
    IllegalMove {
        /// 1-based number of the move in the transcript.
        number: usize,
        /// The move as written.
        found: String,
        /// The side that had no move and passed before it (the pass left out of the
        /// transcript), so that the move was the other side's.
        passed: Option<Color>,
        /// Why it cannot be played.
        why: Illegal,
    },
    /// Bytes that are not UTF-8.
    #[error("expected UTF-8 text, found the byte 0x{byte:02x}")]
    InvalidUtf8 {
        /// The first offending byte.
        byte: u8,
    },
    /// A line over the reader's limit (read past, so the next line is the one after it). What
    /// becomes of it is the reader's caller's to say (`(skipped)` in the commands' lines).
    #[error("expected a line of at most {limit} bytes, found a longer one")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// The file could not be opened or read.
    #[error("{message}")]
    Io {
        /// The operating system's message.
        message: String,
    },
}

/// Why a transcript's move cannot be played, in the words `osolve games` uses for the moves
/// of its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// Neither side can move: nothing more can be played, not even a pass.
    #[error("the game is already over")]
    GameOver,
    /// A pass written where the side to move has a move.
    #[error("{} has a legal move", .0.name())]
    HasMove(Color),
    /// A square that already holds a disc.
    #[error("{} to move, the square is taken", .0.name())]
    Taken(Color),
    /// An empty square where the side to move flanks no disc.
    #[error("{} to move, it flips nothing", .0.name())]
    FlipsNothing(Color),
    /// Reversi: a square off the centre while the centre is not full.
    #[error("the first four moves go on d4 e4 d5 e5")]
    Opening,
}

/// The words before the reason of an illegal move that follows a pass left out of the
/// transcript: `black must pass; `.
struct MustPass<'a>(&'a Option<Color>);

impl fmt::Display for MustPass<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(color) => write!(f, "{} must pass; ", color.name()),
            None => Ok(()),
        }
    }
}

/// A failure to read a position: where (source, line and, when it helps, a 1-based column in
/// characters) and what was expected. Displays as `file:line[:column]: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}{col}: {kind}", col = ColumnSuffix(.column))]
pub struct ParseError {
    /// The file and line.
    pub at: Source,
    /// 1-based column in characters, when the error is at one place of the line.
    pub column: Option<usize>,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

struct ColumnSuffix<'a>(&'a Option<usize>);

impl fmt::Display for ColumnSuffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(column) => write!(f, ":{column}"),
            None => Ok(()),
        }
    }
}

/// Builds errors located in one piece of text: byte offsets become line and column.
pub(super) struct Locator<'a> {
    /// The text the offsets are in.
    pub(super) text: &'a str,
    /// Where the text begins.
    pub(super) source: &'a Source,
}

impl Locator<'_> {
    /// An error at byte `offset` of the text.
    pub(super) fn at(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        let before = &self.text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        ParseError {
            at: Source::new(
                self.source.name.clone(),
                self.source.line + before.matches('\n').count(),
            ),
            column: Some(before[line_start..].chars().count() + 1),
            kind,
        }
    }

    /// An error about the text as a whole (its first line).
    pub(super) fn line(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            at: self.source.clone(),
            column: None,
            kind,
        }
    }
}
