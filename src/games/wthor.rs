//! The WThor database format of the French Othello Federation (FFO), written from its
//! description (all integers little-endian):
//!
//! - a 16-byte header: creation date (century, year, month, day), `N1` (u32) = games,
//!   `N2` (u16) = names in a `.JOU`/`.TRN` file (0 in a games file), the games' year (u16),
//!   `P1` = board size (0 or 8 for 8x8), `P2` = 1 for solitaire files, `P3` = the depth (in
//!   empties) of each game's theoretical score, and a reserved byte;
//! - then `N1` records of 68 bytes: tournament (u16, into `.TRN`), black and white players
//!   (u16, into `.JOU`), black's real final disc count, black's theoretical disc count under
//!   perfect play from the position at `P3` empties, and 60 move bytes `10 * row + column`
//!   (both 1-based, so 56 is f5), a 0 byte ending the game early. Passes are not written.
//!
//! `.JOU` (players) and `.TRN` (tournaments) have the same header, then `N2` names of 20 and
//! 26 bytes, Latin-1, padded with NULs.

use std::fs;
use std::io::{BufRead, Read};
use std::path::Path;
use std::sync::Arc;

use super::game::{Game, GameError, GameErrorKind, GameId, Recorded, Step};
use crate::board::{Position, Square};

/// Bytes of a header.
pub const HEADER_LEN: usize = 16;
/// Bytes of a game record.
pub const RECORD_LEN: usize = 68;
/// Bytes of a player name in `.JOU`.
pub const PLAYER_LEN: usize = 20;
/// Bytes of a tournament name in `.TRN`.
pub const TOURNAMENT_LEN: usize = 26;

/// A WThor file header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Creation date: century, year in the century, month, day.
    pub created: [u8; 4],
    /// `N1`: game records.
    pub games: u32,
    /// `N2`: names (names files only).
    pub names: u16,
    /// The games' year.
    pub year: u16,
    /// `P1`: board size, 0 or 8 for 8x8.
    pub board_size: u8,
    /// `P2`: 1 for a solitaire file.
    pub solitaire: u8,
    /// `P3`: the empties of the theoretical scores' positions.
    pub depth: u8,
}

impl Header {
    /// Reads a header.
    pub fn parse(bytes: &[u8; HEADER_LEN]) -> Header {
        Header {
            created: [bytes[0], bytes[1], bytes[2], bytes[3]],
            games: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            names: u16::from_le_bytes([bytes[8], bytes[9]]),
            year: u16::from_le_bytes([bytes[10], bytes[11]]),
            board_size: bytes[12],
            solitaire: bytes[13],
            depth: bytes[14],
        }
    }

    /// Writes a header.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut bytes = [0u8; HEADER_LEN];
        bytes[..4].copy_from_slice(&self.created);
        bytes[4..8].copy_from_slice(&self.games.to_le_bytes());
        bytes[8..10].copy_from_slice(&self.names.to_le_bytes());
        bytes[10..12].copy_from_slice(&self.year.to_le_bytes());
        bytes[12] = self.board_size;
        bytes[13] = self.solitaire;
        bytes[14] = self.depth;
        bytes
    }
}

/// A game record as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Index into the tournaments.
    pub tournament: u16,
    /// Index of black into the players.
    pub black: u16,
    /// Index of white into the players.
    pub white: u16,
    /// Black's final disc count.
    pub real_score: u8,
    /// Black's disc count under perfect play from the header's depth.
    pub theoretical_score: u8,
    /// The move bytes.
    pub moves: [u8; 60],
}

impl Record {
    /// Reads a record.
    pub fn parse(bytes: &[u8; RECORD_LEN]) -> Record {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let mut moves = [0u8; 60];
        moves.copy_from_slice(&bytes[8..]);
        Record {
            tournament: u16_at(0),
            black: u16_at(2),
            white: u16_at(4),
            real_score: bytes[6],
            theoretical_score: bytes[7],
            moves,
        }
    }

    /// Writes a record.
    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut bytes = [0u8; RECORD_LEN];
        bytes[0..2].copy_from_slice(&self.tournament.to_le_bytes());
        bytes[2..4].copy_from_slice(&self.black.to_le_bytes());
        bytes[4..6].copy_from_slice(&self.white.to_le_bytes());
        bytes[6] = self.real_score;
        bytes[7] = self.theoretical_score;
        bytes[8..].copy_from_slice(&self.moves);
        bytes
    }

    /// The moves up to the first 0 byte; every byte after it must be 0 too.
    pub fn steps(&self) -> Result<Vec<Step>, GameErrorKind> {
        let end = self.moves.iter().position(|&b| b == 0).unwrap_or(60);
        if let Some(i) = self.moves[end..].iter().position(|&b| b != 0) {
            return Err(GameErrorKind::MoveAfterEnd {
                number: end + i + 1,
                byte: self.moves[end + i],
            });
        }
        self.moves[..end]
            .iter()
            .enumerate()
            .map(|(i, &byte)| {
                square_of_byte(byte)
                    .map(|square| Step {
                        color: None,
                        square: Some(square),
                    })
                    .ok_or(GameErrorKind::BadMoveByte {
                        number: i + 1,
                        byte,
                    })
            })
            .collect()
    }
}

/// The square a move byte stands for: `10 * row + column`, both 1..8.
pub fn square_of_byte(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::at(col as usize - 1, row as usize - 1)
    } else {
        None
    }
}

/// The move byte of a square.
pub fn byte_of_square(square: Square) -> u8 {
    (10 * (square.row() + 1) + square.col() + 1) as u8
}

/// Player and tournament names from the `.JOU` and `.TRN` files beside a games file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Players, by index.
    pub players: Vec<String>,
    /// Tournaments, by index.
    pub tournaments: Vec<String>,
}

impl Names {
    /// The names files in the directory of `games`: `WTHOR.JOU` and `WTHOR.TRN` in any case,
    /// or else the only `*.jou` / `*.trn` file there. Missing or unreadable files give no
    /// names (games are then reported without them).
    pub fn beside(games: &Path) -> Names {
        let dir = match games.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let read = |extension: &str, len: usize| -> Vec<String> {
            find_beside(dir, extension)
                .and_then(|path| fs::read(path).ok())
                .and_then(|bytes| parse_names(&bytes, len))
                .unwrap_or_default()
        };
        Names {
            players: read("jou", PLAYER_LEN),
            tournaments: read("trn", TOURNAMENT_LEN),
        }
    }

    /// The names files [`Names::beside`] reads for `games` (those that exist).
    pub fn files_beside(games: &Path) -> Vec<std::path::PathBuf> {
        let dir = match games.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        ["jou", "trn"]
            .into_iter()
            .filter_map(|extension| find_beside(dir, extension))
            .collect()
    }
}

/// `WTHOR.<extension>` in `dir` (any case), or the only file with that extension.
fn find_beside(dir: &Path, extension: &str) -> Option<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let matches = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(extension));
        if !matches {
            continue;
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if stem.eq_ignore_ascii_case("wthor") {
            return Some(path);
        }
        found.push(path);
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// The names of a `.JOU` / `.TRN` file with `len`-byte names; `None` when the file is too
/// short for its header. A file shorter than its count gives the names it holds.
pub fn parse_names(bytes: &[u8], len: usize) -> Option<Vec<String>> {
    let header = Header::parse(bytes.get(..HEADER_LEN)?.try_into().ok()?);
    Some(
        bytes[HEADER_LEN..]
            .chunks_exact(len)
            .take(usize::from(header.names))
            .map(latin1_name)
            .collect(),
    )
}

/// A NUL-padded Latin-1 name as text (up to the first NUL, trailing spaces removed).
pub fn latin1_name(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let name: String = bytes[..end].iter().map(|&b| char::from(b)).collect();
    name.trim_end().to_string()
}

/// The largest WThor file read (the whole 1977-2021 database is about 10 MB).
pub const MAX_FILE_LEN: u64 = 1 << 30;

/// Streams the games of a WThor file. The file is read whole and its header checked first: a
/// file that is not a games file is one error and nothing else; a game count that does not
/// match the file's size is one error, after which every whole record is still read. A record
/// cut short, a byte that is not a move or a game that cannot be replayed is an error for that
/// game alone.
pub struct WthorReader<R> {
    reader: Option<R>,
    name: Arc<str>,
    names: Names,
    bytes: Vec<u8>,
    depth: u32,
    /// Whole records in the file.
    records: usize,
    /// Records handed out.
    next: usize,
    /// Errors to hand out: the file's before its records, a cut record's after them.
    before: Option<GameError>,
    after: Option<GameError>,
}

impl<R: BufRead> WthorReader<R> {
    /// A reader of `reader`, naming its games' file `name`.
    pub fn new(reader: R, name: Arc<str>, names: Names) -> WthorReader<R> {
        WthorReader {
            reader: Some(reader),
            name,
            names,
            bytes: Vec::new(),
            depth: 0,
            records: 0,
            next: 0,
            before: None,
            after: None,
        }
    }

    /// Reads the whole file and checks its header and size.
    fn load(&mut self, mut reader: R) -> Result<(), GameErrorKind> {
        (&mut reader)
            .take(MAX_FILE_LEN)
            .read_to_end(&mut self.bytes)
            .map_err(|e| GameErrorKind::Io {
                message: e.to_string(),
            })?;
        let Some(head) = self.bytes.get(..HEADER_LEN) else {
            return Err(GameErrorKind::ShortHeader {
                found: self.bytes.len(),
            });
        };
        let header = Header::parse(head.try_into().expect("16 bytes"));
        if header.games == 0 && header.names > 0 {
            return Err(GameErrorKind::NamesFile {
                names: header.names,
            });
        }
        if header.board_size != 0 && header.board_size != 8 {
            return Err(GameErrorKind::BoardSize {
                size: header.board_size,
            });
        }
        self.depth = u32::from(header.depth);
        let body = self.bytes.len() - HEADER_LEN;
        self.records = body / RECORD_LEN;
        let extra = body % RECORD_LEN;
        let counted = self.records + usize::from(extra > 0);
        if header.games as usize != counted {
            self.before = Some(GameError::file(
                &self.name,
                GameErrorKind::CountMismatch {
                    header: header.games,
                    records: self.records,
                    extra,
                },
            ));
        }
        if extra > 0 {
            let id = self.id(self.records + 1);
            self.after = Some(GameError::game(
                &id,
                GameErrorKind::TruncatedRecord { found: extra },
            ));
        }
        Ok(())
    }

    fn id(&self, number: usize) -> GameId {
        GameId {
            file: self.name.clone(),
            number,
            line: None,
        }
    }

    /// The game of the record with this 1-based number.
    fn game(&self, number: usize) -> Result<Game, GameError> {
        let at = HEADER_LEN + (number - 1) * RECORD_LEN;
        let bytes = self.bytes[at..at + RECORD_LEN]
            .try_into()
            .expect("a whole record");
        let record = Record::parse(bytes);
        let id = self.id(number);
        let mut game = record
            .steps()
            .and_then(|steps| Game::replayed(id.clone(), Position::start(), steps))
            .map_err(|kind| GameError::game(&id, kind))?;
        let name = |list: &[String], index: u16| list.get(usize::from(index)).cloned();
        game.black = name(&self.names.players, record.black);
        game.white = name(&self.names.players, record.white);
        game.tournament = name(&self.names.tournaments, record.tournament);
        game.recorded = Some(Recorded {
            final_black: u32::from(record.real_score),
            theoretical_black: u32::from(record.theoretical_score),
            depth: self.depth,
        });
        Ok(game)
    }
}

impl<R: BufRead> Iterator for WthorReader<R> {
    type Item = Result<Game, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(reader) = self.reader.take() {
            if let Err(kind) = self.load(reader) {
                self.bytes = Vec::new();
                return Some(Err(GameError::file(&self.name, kind)));
            }
        }
        if let Some(error) = self.before.take() {
            return Some(Err(error));
        }
        if self.next < self.records {
            self.next += 1;
            return Some(self.game(self.next));
        }
        self.after.take().map(Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A record of the 9-move wipe-out `f5f4c3c6c5d6f3c4c7` (black 64-0).
    fn wipe_out() -> Record {
        let mut moves = [0u8; 60];
        for (i, name) in ["f5", "f4", "c3", "c6", "c5", "d6", "f3", "c4", "c7"]
            .iter()
            .enumerate()
        {
            moves[i] = byte_of_square(name.parse().unwrap());
        }
        Record {
            tournament: 1,
            black: 2,
            white: 0,
            real_score: 64,
            theoretical_score: 64,
            moves,
        }
    }

    fn header(games: u32) -> Header {
        Header {
            created: [20, 26, 11, 30],
            games,
            names: 0,
            year: 2026,
            board_size: 8,
            solitaire: 0,
            depth: 24,
        }
    }

    fn file(header: Header, records: &[Record]) -> Vec<u8> {
        let mut bytes = header.to_bytes().to_vec();
        for record in records {
            bytes.extend_from_slice(&record.to_bytes());
        }
        bytes
    }

    fn read(bytes: Vec<u8>, names: Names) -> Vec<Result<Game, GameError>> {
        WthorReader::new(Cursor::new(bytes), "t.wtb".into(), names).collect()
    }

    #[test]
    fn bytes_and_squares() {
        assert_eq!(square_of_byte(56), "f5".parse().ok());
        assert_eq!(square_of_byte(11), "a1".parse().ok());
        assert_eq!(square_of_byte(88), "h8".parse().ok());
        for bad in [0, 10, 19, 9, 90, 99, 255] {
            assert_eq!(square_of_byte(bad), None, "{bad}");
        }
        for index in 0..64 {
            let square = Square::new(index).unwrap();
            assert_eq!(square_of_byte(byte_of_square(square)), Some(square));
        }
        let h = header(3);
        assert_eq!(Header::parse(&h.to_bytes()), h);
        assert_eq!(Record::parse(&wipe_out().to_bytes()), wipe_out());
    }

    #[test]
    fn games_read_with_names_and_scores() {
        let names = Names {
            players: vec!["Zero".into(), "One".into(), "Two".into()],
            tournaments: vec!["T0".into(), "T1".into()],
        };
        let games = read(file(header(1), &[wipe_out()]), names);
        assert_eq!(games.len(), 1);
        let game = games[0].as_ref().unwrap();
        assert_eq!(game.id.to_string(), "t.wtb#1");
        assert_eq!(game.black.as_deref(), Some("Two"));
        assert_eq!(game.white.as_deref(), Some("Zero"));
        assert_eq!(game.tournament.as_deref(), Some("T1"));
        assert_eq!(game.transcript(), "f5f4c3c6c5d6f3c4c7");
        assert_eq!(
            game.recorded,
            Some(Recorded {
                final_black: 64,
                theoretical_black: 64,
                depth: 24
            })
        );
        // Without names files the names are unknown.
        let games = read(file(header(1), &[wipe_out()]), Names::default());
        assert_eq!(games[0].as_ref().unwrap().black, None);
    }

    fn errors(bytes: Vec<u8>) -> Vec<String> {
        read(bytes, Names::default())
            .into_iter()
            .map(|g| g.map_or_else(|e| e.to_string(), |g| format!("ok {}", g.id)))
            .collect()
    }

    #[test]
    fn corrupt_files_are_errors_that_say_what_and_where() {
        let good = wipe_out();
        let mut bad_byte = good;
        bad_byte.moves[3] = 99;
        let mut after_end = good;
        after_end.moves[20] = 56;
        let mut illegal = good;
        illegal.moves[0] = byte_of_square("a1".parse().unwrap());
        let all = [good, bad_byte, after_end, illegal];
        assert_eq!(
            errors(file(header(4), &all)),
            [
                "ok t.wtb#1",
                "t.wtb: game 2: move 4: expected a square byte 11..88 (row and column digits 1..8) or 0, found 99",
                "t.wtb: game 3: move 21: expected 0 after the end of the game (a 0 byte), found 56",
                "t.wtb: game 4: move 1: a1 is not legal: black to move, it flips nothing",
            ]
        );
        // A record cut short: the others are read, then the cut one is reported.
        let mut cut = file(header(2), &[good, good]);
        cut.truncate(cut.len() - 10);
        assert_eq!(
            errors(cut),
            [
                "ok t.wtb#1",
                "t.wtb: game 2: the record is cut short: expected 68 bytes, found 58"
            ]
        );
        // A wrong count is reported first, and every whole record is still read.
        assert_eq!(
            errors(file(header(5), &[good, good])),
            [
                "t.wtb: the header counts 5 games but the file holds 2 records of 68 bytes",
                "ok t.wtb#1",
                "ok t.wtb#2"
            ]
        );
        let mut extra = file(header(1), &[good, good]);
        extra.push(7);
        assert_eq!(
            errors(extra)[0],
            "t.wtb: the header counts 1 games but the file holds 2 records of 68 bytes and 1 bytes more"
        );
        assert_eq!(
            errors(vec![1, 2, 3]),
            ["t.wtb: expected a WThor header of 16 bytes, found 3 bytes"]
        );
        let mut names = header(0);
        names.names = 12;
        assert_eq!(
            errors(names.to_bytes().to_vec()),
            ["t.wtb: this is a WThor names file (12 names), not a games file"]
        );
        let mut ten = header(0);
        ten.board_size = 10;
        assert_eq!(
            errors(ten.to_bytes().to_vec()),
            ["t.wtb: expected an 8x8 board (header byte 12: 0 or 8), found 10"]
        );
    }

    #[test]
    fn names_are_latin1_and_nul_padded() {
        let mut names = header(0);
        names.names = 2;
        let mut bytes = names.to_bytes().to_vec();
        let mut first = [0u8; PLAYER_LEN];
        first[..7].copy_from_slice(b"M\xfcller ");
        bytes.extend_from_slice(&first);
        let mut second = [b' '; PLAYER_LEN];
        second[..4].copy_from_slice(b"Ng\0x");
        bytes.extend_from_slice(&second);
        assert_eq!(parse_names(&bytes, PLAYER_LEN).unwrap(), ["Müller", "Ng"]);
        assert_eq!(parse_names(&bytes[..5], PLAYER_LEN), None);
    }
}
