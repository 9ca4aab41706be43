//! Files of positions, streamed one per line ([`PositionReader`], [`open_path`]), each item the
//! parsed line or its error, reading on after an error.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;
use std::sync::Arc;

use super::error::{ParseError, ParseErrorKind};
use super::lines::read_bounded_line;
use super::parse::{parse_text_with, Parsed};
use super::source::{Source, STDIN_NAME};
use crate::board::rules::Variant;

/// The longest line a [`PositionReader`] accepts by default (1 MiB, without the newline).
pub const MAX_LINE_LEN: usize = 1 << 20;

/// Streams positions from a file, one per line: each item is the parsed line or the error for
/// that line, and reading goes on after an error. Blank lines and lines starting with `#` or `%`
/// are skipped; lines are read as bytes with a length cap, so a huge or non-UTF-8 line is an
/// error item, never a panic or an unbounded buffer. After an I/O error the reader ends.
pub struct PositionReader<R> {
    reader: R,
    variant: Variant,
    name: Arc<str>,
    line: usize,
    max_line_len: usize,
    buffer: Vec<u8>,
    finished: bool,
}

impl<R> fmt::Debug for PositionReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionReader")
            .field("name", &self.name)
            .field("line", &self.line)
            .field("max_line_len", &self.max_line_len)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> PositionReader<R> {
    /// A reader of `reader`, naming its items' sources `name`.
    pub fn new(reader: R, name: impl Into<Arc<str>>) -> PositionReader<R> {
        PositionReader {
            reader,
            variant: Variant::default(),
            name: name.into(),
            line: 0,
            max_line_len: MAX_LINE_LEN,
            buffer: Vec::new(),
            finished: false,
        }
    }

    /// The same reader with another line length limit in bytes (default [`MAX_LINE_LEN`]).
    pub fn with_max_line_len(mut self, max_line_len: usize) -> PositionReader<R> {
        self.max_line_len = max_line_len;
        self
    }

    /// The same reader parsing under `rules` (see [`parse_text_with`]).
    pub fn with_variant(mut self, variant: Variant) -> PositionReader<R> {
        self.variant = variant;
        self
    }

    /// The source name given to the items.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line
    }

    /// Reads the next line into `buffer` (see [`read_bounded_line`]).
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        read_bounded_line(&mut self.reader, &mut self.buffer, self.max_line_len)
    }
}

impl<R: BufRead> Iterator for PositionReader<R> {
    type Item = Result<Parsed, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.finished {
            let too_long = match self.read_line() {
                Ok(Some(too_long)) => too_long,
                Ok(None) => {
                    self.finished = true;
                    return None;
                }
                Err(e) => {
                    self.finished = true;
                    return Some(Err(ParseError {
                        at: Source::new(self.name.clone(), self.line + 1),
                        column: None,
                        kind: ParseErrorKind::Io {
                            message: e.to_string(),
                        },
                    }));
                }
            };
            self.line += 1;
            let source = Source::new(self.name.clone(), self.line);
            let mut bytes = &self.buffer[..];
            if self.line == 1 {
                bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            }
            // Comments are skipped before any other check: they may be long or in any encoding.
            match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
                None if !too_long => continue,
                Some(b'#' | b'%') => continue,
                _ => {}
            }
            if too_long {
                return Some(Err(ParseError {
                    at: source,
                    column: None,
                    kind: ParseErrorKind::LineTooLong {
                        limit: self.max_line_len,
                    },
                }));
            }
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            let text = match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => {
                    let valid = &bytes[..e.valid_up_to()];
                    let column = std::str::from_utf8(valid).map_or(0, |s| s.chars().count()) + 1;
                    return Some(Err(ParseError {
                        at: source,
                        column: Some(column),
                        kind: ParseErrorKind::InvalidUtf8 {
                            byte: bytes[e.valid_up_to()],
                        },
                    }));
                }
            };
            // One line is one position: a stray carriage return inside is not a line break.
            if text.contains('\r') {
                return Some(parse_text_with(
                    &text.replace('\r', " "),
                    source,
                    self.variant,
                ));
            }
            return Some(parse_text_with(text, source, self.variant));
        }
        None
    }
}

/// An input of positions that holds none: it is empty, or has only blank lines and comments.
/// The commands report it as bad input (`osolve: empty.obf: no positions (...)`, exit code 2);
/// a reader just ends.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: no positions (the input is empty or has only blank lines and comments)")]
pub struct NoPositions {
    /// The input's name, as its positions' sources name it (a path, `<stdin>`).
    pub name: String,
}

/// A boxed reader for [`open_path`]: a file or standard input.
pub type DynRead = Box<dyn BufRead + Send>;

/// The name the positions of the input at `path` are given in their sources: the path as
/// given, or `<stdin>` for `-`.
pub fn input_name(path: &Path) -> String {
    if path == Path::new("-") {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// Opens a file of positions for streaming; `-` is standard input (named `<stdin>`).
pub fn open_path(path: impl AsRef<Path>) -> Result<PositionReader<DynRead>, ParseError> {
    let path = path.as_ref();
    let name = input_name(path);
    if path == Path::new("-") {
        return Ok(PositionReader::new(
            Box::new(BufReader::new(io::stdin())) as DynRead,
            name,
        ));
    }
    match File::open(path) {
        Ok(file) => Ok(PositionReader::new(
            Box::new(BufReader::with_capacity(1 << 16, file)) as DynRead,
            name,
        )),
        Err(e) => Err(ParseError {
            at: Source::new(name, 0),
            column: None,
            kind: ParseErrorKind::Io {
                message: e.to_string(),
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_caps_its_buffer() {
        let mut text = vec![b'-'; 5000];
        text.extend_from_slice(b"\nf5\n");
        let mut reader = PositionReader::new(io::BufReader::with_capacity(7, &text[..]), "big")
            .with_max_line_len(100);
        let first = reader.next().unwrap().unwrap_err();
        assert_eq!(first.kind, ParseErrorKind::LineTooLong { limit: 100 });
        assert!(reader.buffer.capacity() < 1000);
        assert_eq!(reader.next().unwrap().unwrap().source.line, 2);
        assert!(reader.next().is_none());
    }
}
