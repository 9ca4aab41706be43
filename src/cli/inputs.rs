//! The inputs of every command that reads files: a file of positions opened with a one-line
//! message naming it when it cannot be read or is a games file, and the check that any input
//! can be read at all. At the bottom of cli/.

use osolve::notation::sniff::{sniff, FileKind, HEAD_LEN};
use osolve::notation::{open_path, DynRead, PositionReader, INLINE_NAME};
use std::io::{self, Read};
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_texts_are_named_by_their_number_when_there_are_several() {
        assert_eq!(inline_name(0, 1), "<position>");
        assert_eq!(inline_name(0, 2), "<position 1>");
        assert_eq!(inline_name(1, 2), "<position 2>");
    }
}
