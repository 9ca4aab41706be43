//! GGF, the Generic Game Format of the Generic Game Server: each game is `(;` then tags
//! `NAME[value]` then `;)`, one or many games per file, on one line or several. The tags read
//! here: `GM` (must be `Othello`), `PB` / `PW` (players), `TY` (board size 8; anti-Othello is
//! refused), `BO` (the starting board: `8`, 64 cells `-` `*` `O` in any spacing, then `*` or `O`
//! for the side to move) and the moves `B[f5]` / `W[d6]` in order, each perhaps followed by
//! `/evaluation/time`, a pass written `PA`. Other tags are skipped. A `\` in a value escapes
//! the next character.

use std::io::{self, BufRead};
use std::sync::Arc;

use super::game::{Game, GameError, GameErrorKind, GameId, Step};
use crate::board::{Color, Position};
use crate::notation::transcript::parse_move;

/// The longest tag value kept; longer ones (comments) are cut, the rest skipped.
const MAX_VALUE_LEN: usize = 4096;

/// Streams the games of a GGF file.
pub struct GgfReader<R> {
    reader: R,
    name: Arc<str>,
    /// The line of the next byte.
    line: usize,
    games: usize,
    /// The line of a `(;` whose `(` was consumed while skipping text between games.
    opened_at: Option<usize>,
    finished: bool,
}

/// A tag and its value.
struct Tag {
    name: String,
    value: String,
}

impl<R: BufRead> GgfReader<R> {
    /// A reader of `reader`, naming its games' file `name`.
    pub fn new(reader: R, name: Arc<str>) -> GgfReader<R> {
        GgfReader {
            reader,
            name,
            line: 1,
            games: 0,
            opened_at: None,
            finished: false,
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.reader.fill_buf() {
                Ok(bytes) => return Ok(bytes.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    fn bump(&mut self) -> io::Result<Option<u8>> {
        let byte = self.peek()?;
        if let Some(byte) = byte {
            self.reader.consume(1);
            if byte == b'\n' {
                self.line += 1;
            }
        }
        Ok(byte)
    }

    fn skip_space(&mut self) -> io::Result<Option<u8>> {
        while let Some(byte) = self.peek()? {
            if !byte.is_ascii_whitespace() {
                return Ok(Some(byte));
            }
            self.bump()?;
        }
        Ok(None)
    }

    /// Skips to the next `(;`, whose `(` it consumes (noting its line in `opened_at`), or to
    /// the end; returns the first bytes skipped.
    fn skip_to_game(&mut self) -> io::Result<Vec<u8>> {
        let mut skipped = Vec::new();
        let mut open_line = None;
        while let Some(byte) = self.peek()? {
            if open_line.is_some() && byte == b';' {
                self.opened_at = open_line;
                skipped.pop();
                return Ok(skipped);
            }
            open_line = (byte == b'(').then_some(self.line);
            self.bump()?;
            if skipped.len() < 40 {
                skipped.push(byte);
            }
        }
        Ok(skipped)
    }

    /// Reads the tags of a game after its `(;`, up to and including `;)`.
    fn tags(&mut self) -> io::Result<Result<Vec<Tag>, GameErrorKind>> {
        let mut tags = Vec::new();
        loop {
            let Some(byte) = self.skip_space()? else {
                return Ok(Err(GameErrorKind::Unterminated));
            };
            if byte == b';' {
                self.bump()?;
                return Ok(match self.bump()? {
                    Some(b')') => Ok(tags),
                    Some(other) => Err(syntax("')' after ';' to close the game", &[other])),
                    None => Err(GameErrorKind::Unterminated),
                });
            }
            if !byte.is_ascii_alphabetic() {
                return Ok(Err(syntax("a tag such as B[f5] or ';)'", &[byte])));
            }
            let mut name = Vec::new();
            while let Some(byte) = self.peek()? {
                if !byte.is_ascii_alphanumeric() {
                    break;
                }
                self.bump()?;
                name.push(byte);
            }
            match self.skip_space()? {
                Some(b'[') => {
                    self.bump()?;
                }
                Some(other) => return Ok(Err(syntax("'[' after the tag name", &[other]))),
                None => return Ok(Err(GameErrorKind::Unterminated)),
            }
            let mut value = Vec::new();
            loop {
                match self.bump()? {
                    None => return Ok(Err(GameErrorKind::Unterminated)),
                    Some(b']') => break,
                    Some(b'\\') => match self.bump()? {
                        None => return Ok(Err(GameErrorKind::Unterminated)),
                        Some(escaped) if value.len() < MAX_VALUE_LEN => value.push(escaped),
                        Some(_) => {}
                    },
                    Some(byte) if value.len() < MAX_VALUE_LEN => value.push(byte),
                    Some(_) => {}
                }
            }
            tags.push(Tag {
                name: String::from_utf8_lossy(&name).to_ascii_uppercase(),
                value: text(value),
            });
        }
    }
}

/// A tag value as text: UTF-8, or else Latin-1 (older files).
fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().iter().map(|&b| char::from(b)).collect())
}

fn shorten(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut short: String = text.chars().take(20).collect();
    if text.chars().count() > 20 {
        short.push_str("...");
    }
    format!("'{}'", short.escape_debug())
}

fn syntax(expected: &'static str, found: &[u8]) -> GameErrorKind {
    GameErrorKind::Syntax {
        expected,
        found: shorten(found),
    }
}

impl<R: BufRead> Iterator for GgfReader<R> {
    type Item = Result<Game, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let io_error = |reader: &mut Self, e: io::Error| {
            reader.finished = true;
            Some(Err(GameError {
                file: reader.name.clone(),
                line: Some(reader.line),
                game: None,
                kind: GameErrorKind::Io {
                    message: e.to_string(),
                },
            }))
        };
        let line = match self.opened_at.take() {
            Some(line) => line,
            None => {
                let first = match self.skip_space() {
                    Ok(Some(first)) => first,
                    Ok(None) => {
                        self.finished = true;
                        return None;
                    }
                    Err(e) => return io_error(self, e),
                };
                let line = self.line;
                let opening = match (self.bump(), self.peek()) {
                    (Ok(_), Ok(second)) => first == b'(' && second == Some(b';'),
                    (Err(e), _) | (_, Err(e)) => return io_error(self, e),
                };
                if !opening {
                    // Text between games: report it and carry on at the next game.
                    let mut found = vec![first];
                    match self.skip_to_game() {
                        Ok(rest) => found.extend(rest),
                        Err(e) => return io_error(self, e),
                    }
                    return Some(Err(GameError {
                        file: self.name.clone(),
                        line: Some(line),
                        game: None,
                        kind: syntax("'(;' to start a game", &found),
                    }));
                }
                line
            }
        };
        // The `;` of `(;`.
        if let Err(e) = self.bump() {
            return io_error(self, e);
        }
        self.games += 1;
        let id = GameId {
            file: self.name.clone(),
            number: self.games,
            line: Some(line),
        };
        let tags = match self.tags() {
            Ok(Ok(tags)) => tags,
            Ok(Err(kind)) => {
                if kind == GameErrorKind::Unterminated {
                    self.finished = true;
                } else if let Err(e) = self.skip_to_game() {
                    return io_error(self, e);
                }
                return Some(Err(GameError::game(&id, kind)));
            }
            Err(e) => return io_error(self, e),
        };
        Some(game(id.clone(), &tags).map_err(|kind| GameError::game(&id, kind)))
    }
}

/// A tag value shortened for an error message.
fn short_value(value: &str) -> String {
    let mut short: String = value.chars().take(40).collect();
    if value.chars().count() > 40 {
        short.push_str("...");
    }
    short
}

/// The game the tags describe.
fn game(id: GameId, tags: &[Tag]) -> Result<Game, GameErrorKind> {
    let mut black = None;
    let mut white = None;
    let mut start = Position::start();
    let mut steps = Vec::new();
    for tag in tags {
        let bad = |name: &'static str, expected| GameErrorKind::BadTag {
            tag: name,
            value: short_value(&tag.value),
            expected,
        };
        match tag.name.as_str() {
            "GM" if !tag.value.trim().eq_ignore_ascii_case("othello") => {
                return Err(bad("GM", "Othello"));
            }
            "TY" => {
                let ty = tag.value.trim().to_ascii_lowercase();
                let size: String = ty.chars().filter(char::is_ascii_digit).collect();
                if size != "8" && !(size.is_empty() && ty.is_empty()) {
                    return Err(bad("TY", "an 8x8 game type such as 8 or 8r"));
                }
                if ty.contains('a') {
                    return Err(bad(
                        "TY",
                        "a game type without 'a' (anti-Othello is not scored like Othello)",
                    ));
                }
            }
            "PB" => black = Some(tag.value.trim().to_string()),
            "PW" => white = Some(tag.value.trim().to_string()),
            "BO" => {
                start = board(&tag.value)
                    .ok_or_else(|| bad("BO", "8, 64 cells (- * O) and the side to move (* or O)"))?
            }
            "B" | "W" => {
                let color = if tag.name == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let number = steps.len() + 1;
                let token = tag.value.split('/').next().unwrap_or("").trim();
                let square = parse_move(token).ok_or_else(|| GameErrorKind::BadMove {
                    number,
                    found: token.to_string(),
                })?;
                steps.push(Step {
                    color: Some(color),
                    square,
                });
            }
            _ => {}
        }
    }
    let mut game = Game::replayed(id, start, steps)?;
    game.black = black.filter(|name| !name.is_empty());
    game.white = white.filter(|name| !name.is_empty());
    Ok(game)
}

/// The tags of the one game in `text` (`(;` ... `;)`, names in upper case, values as written),
/// whether or not the game is finished: for protocols that send a game in progress as GGF
/// (NBoard's `set game`), which replay its moves themselves.
pub fn game_tags(text: &str) -> Result<Vec<(String, String)>, GameErrorKind> {
    let mut reader = GgfReader::new(io::Cursor::new(text.as_bytes()), "".into());
    let opened = matches!(reader.skip_space(), Ok(Some(b'(')))
        && reader.bump().is_ok()
        && matches!(reader.bump(), Ok(Some(b';')));
    if !opened {
        return Err(syntax("'(;' to start a game", text.trim_start().as_bytes()));
    }
    match reader.tags() {
        Ok(Ok(tags)) => Ok(tags.into_iter().map(|t| (t.name, t.value)).collect()),
        Ok(Err(kind)) => Err(kind),
        Err(e) => Err(GameErrorKind::Io {
            message: e.to_string(),
        }),
    }
}

/// The position of a `BO` value: the size `8`, 64 cells (`-` empty, `*` black, `O` white, any
/// spacing), then the side to move (`*` or `O`).
pub fn board(value: &str) -> Option<Position> {
    let mut chars = value.chars().filter(|c| !c.is_whitespace());
    if chars.next()? != '8' {
        return None;
    }
    let cells: Vec<char> = chars.collect();
    if cells.len() != 65 {
        return None;
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in cells[..64].iter().enumerate() {
        match c {
            '*' | 'x' | 'X' => black |= 1 << i,
            'O' | 'o' => white |= 1 << i,
            '-' | '.' => {}
            _ => return None,
        }
    }
    let to_move = match cells[64] {
        '*' | 'x' | 'X' => Color::Black,
        'O' | 'o' => Color::White,
        _ => return None,
    };
    Position::from_colors(black, white, to_move)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_transcript;

    const START: &str =
        "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";

    fn read(text: impl AsRef<[u8]>) -> Vec<Result<Game, GameError>> {
        GgfReader::new(io::Cursor::new(text.as_ref().to_vec()), "g.ggf".into()).collect()
    }

    #[test]
    fn the_start_board_reads() {
        assert_eq!(board(START), Some(Position::start()));
        assert_eq!(board("8 ---"), None);
    }

    #[test]
    fn games_read_with_times_passes_and_other_tags() {
        let text = format!(
            "(;GM[Othello]PC[GGS/os]PB[alice]PW[bob]TY[8]RE[+64.000]BO[{START}]\
             B[f5//1.2]W[f4/0.5/2]B[c3]W[c6]B[C5]W[d6]B[f3]W[c4]B[c7]C[a \\] comment];)\n\
             (;GM[Othello]BO[{START}]B[f5]W[f4]B[c3]W[c6]B[c5]W[d6]B[f3]W[c4]B[c7]W[PA];)\n"
        );
        let games = read(&text);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.black.as_deref(), Some("alice"));
        assert_eq!(first.white.as_deref(), Some("bob"));
        assert_eq!(first.id.to_string(), "g.ggf#1");
        assert_eq!(first.moves.len(), 9);
        assert_eq!(first.positions[4], parse_transcript("f5f4c3c6").unwrap());
        // Names in Latin-1 (not UTF-8) are read as such.
        let latin1 = text.replace("alice", "M\u{fc}ller").replace('\u{fc}', "\0");
        let mut bytes = latin1.into_bytes();
        let at = bytes.iter().position(|&b| b == 0).unwrap();
        bytes[at] = 0xfc;
        assert_eq!(
            read(bytes)[0].as_ref().unwrap().black.as_deref(),
            Some("M\u{fc}ller")
        );
        // A pass after the last move of a finished game is one move too many.
        assert_eq!(
            games[1].as_ref().unwrap_err().to_string(),
            "g.ggf:2: game 2: move 10: a pass is not legal: the game is already over"
        );
    }

    #[test]
    fn the_tags_of_a_game_in_progress() {
        let tags = game_tags(&format!(
            "(;GM[Othello]BO[{START}]B[F5//1.2]W[d6/-1.5/0.3];)"
        ))
        .unwrap();
        let names: Vec<&str> = tags.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(names, ["GM", "BO", "B", "W"]);
        assert_eq!(tags[3].1, "d6/-1.5/0.3");
        assert_eq!(
            game_tags("GM[Othello];)").unwrap_err().to_string(),
            "expected '(;' to start a game, found 'GM[Othello];)'"
        );
        assert_eq!(
            game_tags("(;GM[Othello]B[f5]").unwrap_err().to_string(),
            "the file ends inside the game: expected ';)' to close it"
        );
    }

    #[test]
    fn broken_games_are_errors_and_reading_goes_on() {
        let text = format!(
            "(;GM[Chess];)\n(;GM[Othello]TY[8a]BO[{START}];)\njunk (;GM[Othello]BO[{START}]B[f5]W[e3];)\n\
             (;GM[Othello]BO[{START}]B[f5]B[f4];)\n(;GM[Othello]BO[{START}]B[f5"
        );
        let errors: Vec<String> = read(&text)
            .into_iter()
            .map(|g| g.unwrap_err().to_string())
            .collect();
        assert_eq!(
            errors,
            [
                "g.ggf:1: game 1: GM[Chess]: expected Othello",
                "g.ggf:2: game 2: TY[8a]: expected a game type without 'a' (anti-Othello is not scored like Othello)",
                "g.ggf:3: expected '(;' to start a game, found 'junk '",
                "g.ggf:3: game 3: move 2: e3 is not legal: white to move, it flips nothing",
                "g.ggf:4: game 4: move 2: f4 is not legal: black plays it but white is to move",
                "g.ggf:5: game 5: the file ends inside the game: expected ';)' to close it",
            ]
        );
    }
}
