//! Whole games from game databases: WThor `.wtb` files (the French Othello Federation's
//! database, with player and tournament names from the `.JOU` and `.TRN` files beside them),
//! GGF game files and text files of move transcripts. Each game is replayed legally from its
//! start as it is read, so that every [`Game`] handed on is a complete, legal game with the
//! position before each of its moves; a game that cannot be replayed, and every flaw of a file
//! (a truncated record, a header that miscounts its records, a byte that is not a move), is a
//! [`GameError`] that names the file, the game and what was expected.
//!
//! This module is the face and opens the inputs: the kind of a file is told from its content by
//! [`crate::notation::sniff`] (GGF, WThor, or text with one transcript per line; binary data
//! that is none of them is an error) and handed to its reader. From the bottom up: [`game`] (a
//! game, its replay, its errors), the readers ([`wthor`], [`ggf`], [`transcript`]), [`analysis`]
//! (which solves the games), [`players`]. This module and its readers never solve and never
//! print.

pub mod analysis;
pub mod game;
pub mod ggf;
pub mod players;
pub mod transcript;
pub mod wthor;

pub use game::{
    discs, replay, replay_moves, Game, GameError, GameErrorKind, GameId, Reached, Recorded, Step,
};

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::notation::sniff::{sniff, FileKind, HEAD_LEN};
use crate::notation::STDIN_NAME;

/// A boxed byte stream: a file or standard input.
pub type DynRead = Box<dyn BufRead + Send>;

/// The games of one input, read as they are needed.
pub type GameItems = Box<dyn Iterator<Item = Result<Game, GameError>> + Send>;

/// An input of games that holds none: a text input that is empty or has only blank lines and
/// comments, or a WThor file whose header counts no game. The commands report it as bad input
/// (`osolve: empty.txt: no games (...)`, exit code 2), as they report an input without a
/// position ([`crate::notation::NoPositions`]); a reader just ends.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: no games ({why})")]
pub struct NoGames {
    /// The input's name, as its games' names give it (a path, `<stdin>`).
    pub name: String,
    /// What kind of input it is, which says why it holds no game.
    pub why: Empty,
}

/// Why an input of games holds none ([`NoGames`]), from its kind: the readers of the other
/// kinds (GGF, binary data, a file that cannot be read) always hand out an item, a game or
/// an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Empty {
    /// Text (one transcript a line) that is empty or has only blank lines and comments.
    Blank,
    /// A WThor file of its 16-byte header alone, which counts 0 games (every other WThor file
    /// without a game is an error of the file: too short, a names file, a miscount).
    WthorHeader,
}

impl std::fmt::Display for Empty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Empty::Blank => "the input is empty or has only blank lines and comments",
            Empty::WthorHeader => "the input is a WThor file whose header counts 0 games",
        })
    }
}

/// The games of one input, and what [`NoGames`] says of it when they end without one.
pub struct GamesInput {
    /// The games (and errors) of the input, read as they are needed.
    pub games: GameItems,
    /// Why the input holds no game, should it hold none.
    pub why_empty: Empty,
}

/// Opens a games file (`-` is standard input), tells its kind from its content and streams its
/// games. A file that cannot be opened is a single error item; a game whose moves stop before
/// it is over is an error ([`GameErrorKind::Unfinished`]).
pub fn open_games(path: &Path) -> GameItems {
    open_games_input(path, false).games
}

/// [`open_games`] that keeps the games that ended early ([`Game::ended_early`]).
pub fn open_games_from_end(path: &Path) -> GameItems {
    open_games_input(path, true).games
}

/// [`open_games`] (or with `from_end`, [`open_games_from_end`]) with what an input of its kind
/// that holds no game is ([`GamesInput::why_empty`]).
pub fn open_games_input(path: &Path, from_end: bool) -> GamesInput {
    let (kind, games) = open_kind(path);
    let games = if from_end {
        games
    } else {
        Box::new(games.map(|item| match item {
            Ok(game) if game.ended_early() => Err(game.unfinished_error()),
            item => item,
        }))
    };
    let why_empty = if kind == Some(FileKind::Wthor) {
        Empty::WthorHeader
    } else {
        Empty::Blank
    };
    GamesInput { games, why_empty }
}

/// The kind of the games file at `path` (`None` when it cannot be read) and all its games,
/// those that ended early kept.
fn open_kind(path: &Path) -> (Option<FileKind>, GameItems) {
    let (name, reader): (Arc<str>, io::Result<DynRead>) = if path == Path::new("-") {
        (
            STDIN_NAME.into(),
            Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin()))),
        )
    } else {
        (
            path.display().to_string().into(),
            File::open(path).map(|f| Box::new(BufReader::with_capacity(1 << 16, f)) as DynRead),
        )
    };
    let io_error = |name: &Arc<str>, e: io::Error| -> (Option<FileKind>, GameItems) {
        let error = GameError::file(
            name,
            GameErrorKind::Io {
                message: e.to_string(),
            },
        );
        (None, Box::new(std::iter::once(Err(error))))
    };
    let mut reader = match reader {
        Ok(reader) => reader,
        Err(e) => return io_error(&name, e),
    };
    let head = match fill_head(&mut reader) {
        Ok(head) => head,
        Err(e) => return io_error(&name, e),
    };
    let len = (path != Path::new("-"))
        .then(|| std::fs::metadata(path).ok().filter(|m| m.is_file()))
        .flatten()
        .map(|m| m.len());
    let kind = sniff(&head, &name, len);
    let games: GameItems = match kind {
        FileKind::Wthor => {
            let names = if path == Path::new("-") {
                wthor::Names::default()
            } else {
                wthor::Names::beside(path)
            };
            Box::new(wthor::WthorReader::new(reader, name, names))
        }
        FileKind::Ggf => Box::new(ggf::GgfReader::new(reader, name)),
        FileKind::Text => Box::new(transcript::TranscriptReader::new(reader, name)),
        FileKind::Binary => Box::new(std::iter::once(Err(GameError::file(
            &name,
            GameErrorKind::NotGames,
        )))),
    };
    (Some(kind), games)
}

/// The first bytes of a stream (up to its buffer's size), without consuming them.
fn fill_head(reader: &mut DynRead) -> io::Result<Vec<u8>> {
    loop {
        match reader.fill_buf() {
            Ok(bytes) => return Ok(bytes[..bytes.len().min(HEAD_LEN)].to_vec()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The games of several inputs in turn, each opened when the previous one ends; games that
/// ended early are kept with `from_end`, errors otherwise.
pub fn inputs(
    paths: Vec<PathBuf>,
    from_end: bool,
) -> impl Iterator<Item = Result<Game, GameError>> + Send {
    paths
        .into_iter()
        .flat_map(move |path| open_games_input(&path, from_end).games)
}

/// The number of good games of `shard` in the inputs (games that ended early counted with
/// `from_end`), by a quick pass that replays without solving; `None` when an input is standard
/// input or another file that is not a regular file (it cannot be read twice).
pub fn count_games(
    paths: &[PathBuf],
    shard: crate::drivers::batch::Shard,
    from_end: bool,
) -> Option<usize> {
    crate::drivers::batch::count_in_files(paths, shard, || {
        inputs(paths.to_vec(), from_end)
            .filter(Result::is_ok)
            .count()
    })
}
