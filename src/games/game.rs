//! One game as the readers hand it on: where it came from ([`GameId`]), its recorded result, the
//! position before each of its moves, and the legal replay that builds it from a list of moves
//! and passes ([`replay`], [`replay_moves`]); the errors of a game or a file ([`GameError`]). At
//! the bottom of games/: the readers (WThor, GGF, transcripts) and the analysis build on it.

use std::fmt;
use std::sync::Arc;

use crate::board::{Color, Position, Square};

/// Where a game came from: its file, its 1-based number in the file and, in text files, the
/// line it starts on. Displays as `file#number`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameId {
    /// The file name as the user gave it (`<stdin>` for standard input).
    pub file: Arc<str>,
    /// 1-based number of the game in its file.
    pub number: usize,
    /// 1-based line the game starts on, for text files.
    pub line: Option<usize>,
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.file, self.number)
    }
}

/// What a WThor record says about its game besides the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// Black's final disc count as recorded (empties to the winner).
    pub final_black: u32,
    /// Black's disc count under perfect play from the position at `depth` empties.
    pub theoretical_black: u32,
    /// The empties of the theoretical score's position (the file header's byte 14).
    pub depth: u32,
}

/// A complete, legal game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Where it came from.
    pub id: GameId,
    /// Black's name, when known.
    pub black: Option<String>,
    /// White's name, when known.
    pub white: Option<String>,
    /// The tournament's name, when known.
    pub tournament: Option<String>,
    /// The position the game starts from.
    pub start: Position,
    /// The moves played, in order; passes are not listed (they are forced).
    pub moves: Vec<Square>,
    /// `positions[i]` is the position `moves[i]` is played in, its mover to move.
    pub positions: Vec<Position>,
    /// The position after the last move: neither side can move.
    pub end: Position,
    /// The database's own scores (WThor).
    pub recorded: Option<Recorded>,
}

/// A game position reached at a given number of empties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The index of the move played in it (`moves.len()` for the end of the game).
    pub index: usize,
    /// The position, with the side that can move to move (or the final position).
    pub position: Position,
}

impl Game {
    /// The game of `steps` played from `start` (see [`replay`]), with no names or record.
    /// A game whose moves stop before the game is over is kept ([`Game::ended_early`]):
    /// the readers' callers decide ([`open_games_from_end`](super::open_games_from_end)).
    pub fn replayed(
        id: GameId,
        start: Position,
        steps: impl IntoIterator<Item = Step>,
    ) -> Result<Game, GameErrorKind> {
        let (moves, positions, end) = replay_moves(start, steps)?;
        Ok(Game {
            id,
            black: None,
            white: None,
            tournament: None,
            start,
            moves,
            positions,
            end,
            recorded: None,
        })
    }

    /// The position with `empties` empty squares, if the game passes through it.
    pub fn at_empties(&self, empties: u32) -> Option<Reached> {
        let index = self
            .positions
            .iter()
            .position(|p| p.board.empties() == empties);
        match index {
            Some(index) => Some(Reached {
                index,
                position: self.positions[index],
            }),
            None => (self.end.board.empties() == empties).then_some(Reached {
                index: self.moves.len(),
                position: self.end,
            }),
        }
    }

    /// The position `moves[index]` is played in, or the end for `index == moves.len()`.
    pub fn position(&self, index: usize) -> Position {
        self.positions.get(index).copied().unwrap_or(self.end)
    }

    /// The final disc counts (black, white), empty squares to the winner; for a game that
    /// ended early, the discs on the board where it stopped.
    pub fn final_discs(&self) -> (u32, u32) {
        if self.ended_early() {
            return (self.end.black().count_ones(), self.end.white().count_ones());
        }
        discs(&self.end, self.end.board.final_score())
    }

    /// True when the moves stop before the game is over (a resignation, a loss on time, a
    /// record cut short).
    pub fn ended_early(&self) -> bool {
        !self.end.board.is_game_over()
    }

    /// The error a game that ended early is, where such games are not wanted.
    pub fn unfinished_error(&self) -> GameError {
        GameError::game(
            &self.id,
            GameErrorKind::Unfinished {
                moves: self.moves.len(),
                empties: self.end.board.empties(),
            },
        )
    }

    /// The position with `empties` empty squares if the game passes through it; else, with
    /// `from_end`, for a game that ended early with more empties, the position where it
    /// stopped (solved from there on).
    pub fn start_at(&self, empties: u32, from_end: bool) -> Option<Reached> {
        self.at_empties(empties).or_else(|| {
            (from_end && self.ended_early() && self.end.board.empties() > empties).then_some(
                Reached {
                    index: self.moves.len(),
                    position: self.end,
                },
            )
        })
    }

    /// The moves as a transcript: `f5d6c3...` (passes left out).
    pub fn transcript(&self) -> String {
        self.moves.iter().map(Square::to_string).collect()
    }
}

/// The final disc counts (black, white) that `score`, a final disc difference for the side to
/// move in `position` with empties to the winner, stands for.
pub fn discs(position: &Position, score: i32) -> (u32, u32) {
    let black = if position.to_move == Color::Black {
        score
    } else {
        -score
    };
    let black = black.clamp(-64, 64);
    (((64 + black) / 2) as u32, ((64 - black) / 2) as u32)
}

/// One step of a game as a file writes it: a move or a pass, with the colour that plays it
/// when the file says (GGF does, WThor and transcripts do not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Who plays, if the file says.
    pub color: Option<Color>,
    /// The square, or `None` for a pass.
    pub square: Option<Square>,
}

/// Replays `steps` from `start` and returns the moves, the position before each and the end
/// position. A side with no legal move passes whether or not the file writes the pass; the
/// game must end with neither side able to move. Errors are numbered by step, from 1.
pub fn replay(
    start: Position,
    steps: impl IntoIterator<Item = Step>,
) -> Result<(Vec<Square>, Vec<Position>, Position), GameErrorKind> {
    let (moves, positions, end) = replay_moves(start, steps)?;
    if !end.board.is_game_over() {
        return Err(GameErrorKind::Unfinished {
            moves: moves.len(),
            empties: end.board.empties(),
        });
    }
    Ok((moves, positions, end))
}

/// [`replay`] that keeps a game whose moves stop before it is over (the last position is
/// then one where a side can still move).
pub fn replay_moves(
    start: Position,
    steps: impl IntoIterator<Item = Step>,
) -> Result<(Vec<Square>, Vec<Position>, Position), GameErrorKind> {
    let mut position = start;
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    for (i, step) in steps.into_iter().enumerate() {
        let number = i + 1;
        let written = step
            .square
            .map_or_else(|| "a pass".to_string(), |s| s.to_string());
        let illegal = |why: String| GameErrorKind::IllegalMove {
            number,
            found: written.clone(),
            why,
        };
        if position.board.is_game_over() {
            return Err(illegal("the game is already over".to_string()));
        }
        let can_move = position.board.moves() != 0;
        let Some(square) = step.square else {
            if can_move {
                return Err(illegal(format!(
                    "{} has a legal move",
                    position.to_move.name()
                )));
            }
            if step.color.is_some_and(|c| c != position.to_move) {
                return Err(illegal(format!("{} is to move", position.to_move.name())));
            }
            position = position.pass();
            continue;
        };
        if !can_move {
            position = position.pass();
        }
        if let Some(color) = step.color {
            if color != position.to_move {
                return Err(illegal(format!(
                    "{} plays it but {} is to move",
                    color.name(),
                    position.to_move.name()
                )));
            }
        }
        let Some(next) = position.play(square) else {
            let why = if position.board.empty() & square.bit() == 0 {
                "the square is taken"
            } else {
                "it flips nothing"
            };
            return Err(illegal(format!(
                "{} to move, {why}",
                position.to_move.name()
            )));
        };
        moves.push(square);
        positions.push(position);
        position = next;
    }
    Ok((moves, positions, position))
}

/// What is wrong with a game or a games file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameErrorKind {
    /// The file could not be opened or read.
    #[error("{message}")]
    Io {
        /// The operating system's message.
        message: String,
    },
    /// Binary data that is no games file (see [`crate::notation::sniff`]).
    #[error(
        "expected a games file (WThor, GGF or move transcripts), found binary data that is none of them"
    )]
    NotGames,
    /// A WThor file shorter than its 16-byte header.
    #[error("expected a WThor header of 16 bytes, found {found} bytes")]
    ShortHeader {
        /// Bytes found.
        found: usize,
    },
    /// A WThor names file (`.JOU`, `.TRN`) given as a games file.
    #[error("this is a WThor names file ({names} names), not a games file")]
    NamesFile {
        /// Names it holds.
        names: u16,
    },
    /// A WThor file of another board size.
    #[error("expected an 8x8 board (header byte 12: 0 or 8), found {size}")]
    BoardSize {
        /// The header's board size.
        size: u8,
    },
    /// A WThor header whose game count does not match the file's size.
    #[error(
        "the header counts {header} games but the file holds {records} records of 68 bytes{}",
        if *.extra > 0 { format!(" and {} bytes more", .extra) } else { String::new() }
    )]
    CountMismatch {
        /// Games the header counts.
        header: u32,
        /// Whole records in the file.
        records: usize,
        /// Bytes after the last whole record.
        extra: usize,
    },
    /// A WThor record cut short by the end of the file.
    #[error("the record is cut short: expected 68 bytes, found {found}")]
    TruncatedRecord {
        /// Bytes found.
        found: usize,
    },
    /// A WThor move byte that is not a square.
    #[error("move {number}: expected a square byte 11..88 (row and column digits 1..8) or 0, found {byte}")]
    BadMoveByte {
        /// 1-based number of the move.
        number: usize,
        /// The byte.
        byte: u8,
    },
    /// A WThor move byte after the 0 that ends the game.
    #[error("move {number}: expected 0 after the end of the game (a 0 byte), found {byte}")]
    MoveAfterEnd {
        /// 1-based number of the move.
        number: usize,
        /// The byte.
        byte: u8,
    },
    /// A transcript or GGF move that is neither a square nor a pass.
    #[error("move {number}: expected a square a1..h8 or a pass, found '{}'", .found.escape_debug())]
    BadMove {
        /// 1-based number of the move.
        number: usize,
        /// What was found.
        found: String,
    },
    /// A move that cannot be played.
    #[error("move {number}: {found} is not legal: {why}")]
    IllegalMove {
        /// 1-based number of the move.
        number: usize,
        /// The move.
        found: String,
        /// Why.
        why: String,
    },
    /// A game whose moves stop before the game is over.
    #[error("the moves stop after move {moves} with {empties} empties, before the game is over")]
    Unfinished {
        /// Moves played.
        moves: usize,
        /// Empties left.
        empties: u32,
    },
    /// A text line that is not UTF-8.
    #[error("expected UTF-8 text, found the byte 0x{byte:02x}")]
    InvalidUtf8 {
        /// The first offending byte.
        byte: u8,
    },
    /// A text line over the length limit.
    #[error("expected a line of at most {limit} bytes, found a longer one")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// GGF text that breaks the grammar.
    #[error("expected {expected}, found {found}")]
    Syntax {
        /// What the grammar wants here.
        expected: &'static str,
        /// What is there.
        found: String,
    },
    /// A GGF game without its closing `;)`.
    #[error("the file ends inside the game: expected ';)' to close it")]
    Unterminated,
    /// A GGF tag value that is not what the tag needs.
    #[error("{tag}[{}]: expected {expected}", .value.escape_debug())]
    BadTag {
        /// The tag name.
        tag: &'static str,
        /// Its value (shortened).
        value: String,
        /// What it should be.
        expected: &'static str,
    },
}

impl GameErrorKind {
    /// A few words for the summary's count of skipped games: `illegal move`, `unfinished
    /// game`; each takes an `s` after a count other than one (`2 illegal moves`).
    pub fn reason(&self) -> &'static str {
        match self {
            GameErrorKind::Io { .. } => "unreadable file",
            GameErrorKind::NotGames => "binary file",
            GameErrorKind::ShortHeader { .. }
            | GameErrorKind::NamesFile { .. }
            | GameErrorKind::BoardSize { .. } => "bad header",
            GameErrorKind::CountMismatch { .. } => "wrong header count",
            GameErrorKind::TruncatedRecord { .. } => "truncated record",
            GameErrorKind::BadMoveByte { .. } | GameErrorKind::MoveAfterEnd { .. } => {
                "bad move byte"
            }
            GameErrorKind::BadMove { .. } => "bad move",
            GameErrorKind::IllegalMove { .. } => "illegal move",
            GameErrorKind::Unfinished { .. } => "unfinished game",
            GameErrorKind::InvalidUtf8 { .. } | GameErrorKind::LineTooLong { .. } => "bad line",
            GameErrorKind::Syntax { .. } | GameErrorKind::Unterminated => "bad GGF",
            GameErrorKind::BadTag { .. } => "bad GGF tag",
        }
    }
}

/// A game (or a whole file) that cannot be read: `file[:line]: [game N: ]what`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {}{kind}",
    .line.map_or_else(String::new, |l| format!(":{l}")),
    .game.map_or_else(String::new, |g| format!("game {g}: ")))]
pub struct GameError {
    /// The file.
    pub file: Arc<str>,
    /// The 1-based line, in text files.
    pub line: Option<usize>,
    /// The 1-based game number in the file, when the error is about one game.
    pub game: Option<usize>,
    /// What is wrong.
    pub kind: GameErrorKind,
}

impl GameError {
    /// An error about the file as a whole.
    pub fn file(file: &Arc<str>, kind: GameErrorKind) -> GameError {
        GameError {
            file: file.clone(),
            line: None,
            game: None,
            kind,
        }
    }

    /// An error about one game.
    pub fn game(id: &GameId, kind: GameErrorKind) -> GameError {
        GameError {
            file: id.file.clone(),
            line: id.line,
            game: Some(id.number),
            kind,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_transcript;

    fn steps(text: &str) -> Vec<Step> {
        crate::games::transcript::steps(text).unwrap()
    }

    /// One of the shortest games: black wipes white out after 9 moves (13-0), checked with a
    /// replay of its own (tests/data/games/make_samples.py's rules).
    const WIPE_OUT: &str = "f5f4c3c6c5d6f3c4c7";

    #[test]
    fn a_whole_game_replays_and_an_unfinished_one_does_not() {
        let start = Position::start();
        assert_eq!(
            replay(start, steps("f5d6c3d3c4")).unwrap_err(),
            GameErrorKind::Unfinished {
                moves: 5,
                empties: 55
            }
        );
        let (moves, positions, end) = replay(start, steps(WIPE_OUT)).unwrap();
        assert_eq!(moves.len(), 9);
        assert_eq!(positions[0], start);
        assert!(end.board.is_game_over());
        assert_eq!(end.black().count_ones(), 13);
        assert_eq!(end.white(), 0);
        assert_eq!(discs(&end, end.board.final_score()), (64, 0));
    }

    #[test]
    fn illegal_moves_and_passes_say_why() {
        let start = Position::start();
        let err = replay(start, steps("f5f5")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2: f5 is not legal: white to move, the square is taken"
        );
        let err = replay(start, steps("f5a1")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2: a1 is not legal: white to move, it flips nothing"
        );
        let err = replay(start, steps("f5pa")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2: a pass is not legal: white has a legal move"
        );
        let white_first = [Step {
            color: Some(Color::White),
            square: "f5".parse().ok(),
        }];
        let err = replay(start, white_first).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 1: f5 is not legal: white plays it but black is to move"
        );
    }

    #[test]
    fn positions_by_empties() {
        let id = GameId {
            file: "t".into(),
            number: 1,
            line: Some(1),
        };
        let game = Game::replayed(id, Position::start(), steps(WIPE_OUT)).unwrap();
        assert_eq!(game.transcript(), WIPE_OUT);
        let at = game.at_empties(56).unwrap();
        assert_eq!(at.index, 4);
        assert_eq!(at.position, parse_transcript("f5f4c3c6").unwrap());
        assert_eq!(game.at_empties(51).unwrap().index, 9);
        assert_eq!(game.at_empties(51).unwrap().position, game.end);
        assert_eq!(game.at_empties(50), None);
        assert_eq!(game.final_discs(), (64, 0));
        assert_eq!(game.id.to_string(), "t#1");
    }
}
