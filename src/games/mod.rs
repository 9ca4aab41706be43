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

/// An input of games that holds none: it is empty, or has only blank lines and comments. The
/// commands report it as bad input (`osolve: empty.txt: no games (...)`, exit code 2), as they
/// report an input without a position ([`crate::notation::NoPositions`]); a reader just ends.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: no games (the input is empty or has only blank lines and comments)")]
pub struct NoGames {
    /// The input's name, as its games' names give it (a path, `<stdin>`).
    pub name: String,
}

/// Opens a games file (`-` is standard input), tells its kind from its content and streams its
/// games. A file that cannot be opened is a single error item; a game whose moves stop before
/// it is over is an error ([`GameErrorKind::Unfinished`]).
pub fn open_games(path: &Path) -> GameItems {
    Box::new(open_games_from_end(path).map(|item| match item {
        Ok(game) if game.ended_early() => Err(game.unfinished_error()),
        item => item,
    }))
}

/// [`open_games`] that keeps the games that ended early ([`Game::ended_early`]).
pub fn open_games_from_end(path: &Path) -> GameItems {
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
    let io_error = |name: &Arc<str>, e: io::Error| -> GameItems {
        Box::new(std::iter::once(Err(GameError::file(
            name,
            GameErrorKind::Io {
                message: e.to_string(),
            },
        ))))
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
    match sniff(&head, &name, len) {
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
    }
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
    paths.into_iter().flat_map(move |path| {
        if from_end {
            open_games_from_end(&path)
        } else {
            open_games(&path)
        }
    })
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
