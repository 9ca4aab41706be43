//! The inputs of every command that reads files: a file of positions opened with a one-line
//! message naming it when it cannot be read or is a games file, the check that any input
//! can be read at all, and the inputs found to hold no position (or no game) once read. At the
//! bottom of cli/.

use osolve::games::{GameItems, GamesInput, NoGames};
use osolve::notation::sniff::{sniff, FileKind, HEAD_LEN};
use osolve::notation::{open_path, DynRead, NoPositions, PositionReader, INLINE_NAME};
use std::io::{self, Read};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The source name of the `k`-th `-p` text (from 0) of `count`: `<position>` when it is the
/// only one, else `<position K>` counting from 1.
pub fn inline_name(k: usize, count: usize) -> String {
    if count > 1 {
        format!("<position {}>", k + 1)
    } else {
        INLINE_NAME.to_string()
    }
}

/// Opens a file of positions (`-` is standard input), with a one-line message naming the file
/// when it cannot be read: missing, a directory (which opens but cannot be read on Unix),
/// unreadable (a regular file's first byte is read once to find out).
pub fn open_input(path: &Path) -> Result<PositionReader<DynRead>, String> {
    check_readable(path, "a file of positions")?;
    match not_positions(path) {
        Some(FileKind::Binary) => {
            return Err(format!(
                "cannot read {}: expected a file of positions (UTF-8 text), found binary data",
                path.display()
            ))
        }
        Some(kind) => {
            return Err(format!(
                "cannot read {}: it is a {} games file, not a file of positions; use \
                 `osolve games {} --empties N` to solve its games",
                path.display(),
                kind.name(),
                path.display()
            ))
        }
        None => {}
    }
    open_path(path).map_err(|e| format!("cannot read {}: {}", path.display(), e.kind))
}

/// What `path` is when it is not a file of positions: a WThor or GGF games file, or binary
/// data (see [`osolve::notation::sniff`], which `games` asks too). Standard input and other
/// streams are read as they come.
fn not_positions(path: &Path) -> Option<FileKind> {
    if path == Path::new("-") || !path.is_file() {
        return None;
    }
    let mut head = vec![0u8; HEAD_LEN];
    let mut file = std::fs::File::open(path).ok()?;
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    let len = file.metadata().ok().map(|m| m.len());
    let kind = sniff(&head[..read], &path.to_string_lossy(), len);
    (kind != FileKind::Text).then_some(kind)
}

/// Whether `path` (`-` is standard input) can be read as an input: a one-line message naming
/// it when it is missing, a directory (`expected` says what was wanted instead) or unreadable
/// (a regular file's first byte is read once to find out).
pub fn check_readable(path: &Path, expected: &str) -> Result<(), String> {
    let cannot =
        |reason: &dyn std::fmt::Display| format!("cannot read {}: {reason}", path.display());
    if path == Path::new("-") {
        return Ok(());
    }
    if path.is_dir() {
        return Err(cannot(&format!("it is a directory, expected {expected}")));
    }
    std::fs::File::open(path)
        .and_then(|mut file| {
            if path.is_file() {
                file.read(&mut [0u8; 1])
            } else {
                Ok(0)
            }
        })
        .map(|_| ())
        .map_err(|e| cannot(&e))
}

/// The inputs read to their end without a single position line, good or bad (empty, or only
/// blank lines and comments), or for `games` without a single game, noted as each ends: every
/// command reports them after its run, one line each, as bad input (exit code 2). Shared with
/// the thread that reads the inputs.
#[derive(Clone, Default)]
pub struct EmptyInputs {
    /// What is said of each input found empty (`empty.obf: no positions (...)`), in the order
    /// they ended.
    said: Arc<Mutex<Vec<String>>>,
}

impl EmptyInputs {
    /// `items`, those of the input called `name` (as its positions' sources name it), noted
    /// here as holding no position if they end without one.
    pub fn watch<I: Iterator>(&self, name: String, items: I) -> Watched<I> {
        self.watch_saying(NoPositions { name }.to_string(), items)
    }

    /// The games of `input`, called `name` (as its games' names give it), noted here as
    /// holding no game if they end without one, said as its kind says it ([`NoGames`]).
    pub fn watch_games(&self, name: String, input: GamesInput) -> Watched<GameItems> {
        let said = NoGames {
            name,
            why: input.why_empty,
        };
        self.watch_saying(said.to_string(), input.games)
    }

    fn watch_saying<I: Iterator>(&self, said: String, items: I) -> Watched<I> {
        Watched {
            items,
            said,
            seen: false,
            inputs: self.clone(),
        }
    }

    /// True when every one of the run's `inputs` inputs ended without a position line: the
    /// run had nothing to work on.
    pub fn all(&self, inputs: usize) -> bool {
        self.noted().len() == inputs
    }

    /// Says, one line each, which inputs held no position (`osolve: empty.obf: no positions
    /// (...)`) or no game (`osolve: empty.txt: no games (...)`); true when there was one.
    pub fn report(&self) -> bool {
        let said = self.said();
        for line in &said {
            stderr_line!("osolve: {line}");
        }
        !said.is_empty()
    }

    /// What is said of each empty input, in order.
    fn said(&self) -> Vec<String> {
        self.noted().clone()
    }

    fn noted(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.said.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The items of one input, watched for its end (see [`EmptyInputs::watch`]).
pub struct Watched<I> {
    items: I,
    /// What is said of the input if it ends without an item.
    said: String,
    seen: bool,
    inputs: EmptyInputs,
}

impl<I: Iterator> Iterator for Watched<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = self.items.next();
        if item.is_some() {
            self.seen = true;
        } else if !self.seen {
            // Noted once: a second call after the end finds it seen.
            self.seen = true;
            let said = std::mem::take(&mut self.said);
            self.inputs.noted().push(said);
        }
        item
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use osolve::games::Empty;

    #[test]
    fn an_input_is_noted_when_it_ends_without_a_position_line() {
        let inputs = EmptyInputs::default();
        let text = "# a comment\n\n% another\n";
        let items: Vec<_> = inputs
            .watch(
                "empty.obf".into(),
                PositionReader::new(text.as_bytes(), "empty.obf"),
            )
            .collect();
        assert!(items.is_empty());
        // A bad line is a position line: reported as such, not as an empty input.
        let mut bad = inputs.watch(
            "bad.obf".into(),
            PositionReader::new(&b"zz\n"[..], "bad.obf"),
        );
        assert!(bad.next().unwrap().is_err());
        assert!(bad.next().is_none() && bad.next().is_none());
        assert_eq!(
            inputs.said(),
            ["empty.obf: no positions (the input is empty or has only blank lines and comments)"]
        );
        assert!(!inputs.all(2) && inputs.all(1));
        // Games files without a game are said to hold no games, as their kind says it.
        let games = EmptyInputs::default();
        for (name, why_empty) in [("g.txt", Empty::Blank), ("g.wtb", Empty::WthorHeader)] {
            let input = GamesInput {
                games: Box::new(std::iter::empty()),
                why_empty,
            };
            assert_eq!(games.watch_games(name.into(), input).count(), 0);
        }
        assert_eq!(
            games.said(),
            [
                "g.txt: no games (the input is empty or has only blank lines and comments)",
                "g.wtb: no games (the input is a WThor file whose header counts 0 games)"
            ]
        );
    }

    #[test]
    fn inline_texts_are_named_by_their_number_when_there_are_several() {
        assert_eq!(inline_name(0, 1), "<position>");
        assert_eq!(inline_name(0, 2), "<position 1>");
        assert_eq!(inline_name(1, 2), "<position 2>");
    }
}
