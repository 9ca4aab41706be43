//! Where a piece of text came from: a file (or `<position>`, `<stdin>`) and a line.

use std::fmt;
use std::sync::Arc;

/// The source name of inline text, as given with `-p`.
pub const INLINE_NAME: &str = "<position>";

/// The source name of standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// Where a piece of text came from: a file (or `<position>`, `<stdin>`) and a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The file name as the user gave it, or `<position>` / `<stdin>`.
    pub name: Arc<str>,
    /// 1-based line number; 0 means the source as a whole (e.g. a file that cannot be opened).
    pub line: usize,
}

impl Source {
    /// A source at `line` of `name`.
    pub fn new(name: impl Into<Arc<str>>, line: usize) -> Source {
        Source {
            name: name.into(),
            line,
        }
    }

    /// The source of inline text (`<position>:1`).
    pub fn inline() -> Source {
        Source::new(INLINE_NAME, 1)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.name)
        } else {
            write!(f, "{}:{}", self.name, self.line)
        }
    }
}
