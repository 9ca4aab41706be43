//! Text files of games, one move transcript per line from the standard start: `f5d6c3d3...`,
//! in either case, with optional spaces or commas, passes left out or written `pa`, `ps` or
//! `--`. Blank lines and lines starting with `#` or `%` are skipped, and a `#` or `%` after the
//! moves starts a comment. Every other line is one game, numbered from 1. The moves of a line
//! are read by the notation's transcript reader; this module reads the lines and replays the
//! games.

use std::io::BufRead;
use std::sync::Arc;

use super::game::{Game, GameError, GameErrorKind, GameId, Step};
use crate::board::Position;
use crate::notation::{read_bounded_line, transcript};

/// The longest line read (longer ones are an error): a game has at most 60 moves and passes.
pub const MAX_LINE_LEN: usize = 4096;

/// The steps of a transcript, read by the one transcript reader
/// ([`notation::transcript`](crate::notation::transcript)): pairs of characters (spaces and
/// commas ignored), each a square or a pass (`pa`, `ps`, `--`).
pub fn steps(text: &str) -> Result<Vec<Step>, GameErrorKind> {
    transcript::tokens(text)
        .enumerate()
        .map(|(i, (_, token))| match transcript::parse_move(&token) {
            Some(square) => Ok(Step {
                color: None,
                square,
            }),
            None => Err(GameErrorKind::BadMove {
                number: i + 1,
                found: token,
            }),
        })
        .collect()
}

/// Streams the games of a transcripts file.
pub struct TranscriptReader<R> {
    reader: R,
    name: Arc<str>,
    line: usize,
    games: usize,
    buffer: Vec<u8>,
    finished: bool,
}

impl<R: BufRead> TranscriptReader<R> {
    /// A reader of `reader`, naming its games' file `name`.
    pub fn new(reader: R, name: Arc<str>) -> TranscriptReader<R> {
        TranscriptReader {
            reader,
            name,
            line: 0,
            games: 0,
            buffer: Vec::new(),
            finished: false,
        }
    }
}

impl<R: BufRead> Iterator for TranscriptReader<R> {
    type Item = Result<Game, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.finished {
            let too_long = match read_bounded_line(&mut self.reader, &mut self.buffer, MAX_LINE_LEN)
            {
                Ok(Some(too_long)) => too_long,
                Ok(None) => {
                    self.finished = true;
                    return None;
                }
                Err(e) => {
                    self.finished = true;
                    return Some(Err(GameError {
                        file: self.name.clone(),
                        line: Some(self.line + 1),
                        game: None,
                        kind: GameErrorKind::Io {
                            message: e.to_string(),
                        },
                    }));
                }
            };
            self.line += 1;
            let mut bytes = &self.buffer[..];
            if self.line == 1 {
                bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            }
            match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
                None | Some(b'#' | b'%') if !too_long => continue,
                _ => {}
            }
            self.games += 1;
            let id = GameId {
                file: self.name.clone(),
                number: self.games,
                line: Some(self.line),
            };
            if too_long {
                let kind = GameErrorKind::LineTooLong {
                    limit: MAX_LINE_LEN,
                };
                return Some(Err(GameError::game(&id, kind)));
            }
            let text = match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => {
                    let byte = bytes[e.valid_up_to()];
                    return Some(Err(GameError::game(
                        &id,
                        GameErrorKind::InvalidUtf8 { byte },
                    )));
                }
            };
            let text = &text[..text.find(['#', '%']).unwrap_or(text.len())];
            return Some(game(id, text));
        }
        None
    }
}

/// The game of one transcript line.
fn game(id: GameId, text: &str) -> Result<Game, GameError> {
    steps(text)
        .and_then(|steps| Game::replayed(id.clone(), Position::start(), steps))
        .map_err(|kind| GameError::game(&id, kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    fn read(text: &str) -> Vec<Result<Game, GameError>> {
        TranscriptReader::new(io::Cursor::new(text.as_bytes().to_vec()), "g.txt".into()).collect()
    }

    #[test]
    fn lines_are_games_and_errors_name_line_and_game() {
        let games = read(
            "# two games\n\nF5F4C3C6C5D6F3C4C7  % a wipe-out\nf5 f4 c3 c6 zz\nf5f4c3\nf5f4c3c6c5d6f3c4c7d3\n",
        );
        assert_eq!(games.len(), 4);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.id.to_string(), "g.txt#1");
        assert_eq!(first.id.line, Some(3));
        assert_eq!(first.moves.len(), 9);
        // The reader keeps a game that stops early (`open_games` makes it an error, unless
        // the games are solved from where they stopped).
        let early = games[2].as_ref().unwrap();
        assert!(early.ended_early() && !first.ended_early());
        assert_eq!(early.final_discs(), (5, 2));
        let errors: Vec<String> = [&games[1], &Err(early.unfinished_error()), &games[3]]
            .iter()
            .map(|g| g.as_ref().unwrap_err().to_string())
            .collect();
        assert_eq!(
            errors,
            [
                "g.txt:4: game 2: move 5: expected a square a1..h8 or a pass, found 'zz'",
                "g.txt:5: game 3: the moves stop after move 3 with 57 empties, before the game is over",
                "g.txt:6: game 4: move 10: d3 is not legal: the game is already over",
            ]
        );
        assert_eq!(early.unfinished_error().kind.reason(), "unfinished game");
    }

    #[test]
    fn long_and_binary_lines_are_errors() {
        let long = format!("{}\nf5f4c3c6c5d6f3c4c7\n", "f5".repeat(3000));
        let games = read(&long);
        assert_eq!(
            games[0].as_ref().unwrap_err().to_string(),
            "g.txt:1: game 1: expected a line of at most 4096 bytes, found a longer one"
        );
        assert!(games[1].is_ok());
        let games: Vec<_> =
            TranscriptReader::new(io::Cursor::new(b"f5\xff\n".to_vec()), "b".into()).collect();
        assert_eq!(
            games[0].as_ref().unwrap_err().to_string(),
            "b:1: game 1: expected UTF-8 text, found the byte 0xff"
        );
    }
}
