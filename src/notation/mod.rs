//! Text to [`Position`](crate::board::Position)s and back: board strings (64 cells and the
//! side to move, also as an 8-line diagram with or without coordinates), OBF lines with their
//! move scores, and game transcripts from the standard start. Files are streamed line by line, every position
//! carrying its [`Source`] (`file:line`), every failure a [`ParseError`] that says where and what
//! was expected. Under Reversi rules ([`parse_text_with`], [`PositionReader::with_variant`])
//! transcripts start from the empty board, a board string may end with the discs left to each
//! side (`<64 cells> X 5 7`), and positions the rules cannot reach are errors. This module never
//! solves and never prints.
//!
//! Its files: [`board`] (board strings and diagrams, the discs left after the side), `diagram`
//! (the diagrams osolve prints, made plain for the board reader), [`obf`]
//! (annotations and OBF lines), [`transcript`] (move transcripts: the one reader of them, which
//! `games` uses too), [`lines`] (the bounded line reader every line-oriented input uses),
//! [`reader`] (files of positions), [`parse`] (one position from text, [`Parsed`]),
//! [`source`] ([`Source`]: file and line), [`sniff`] (what kind of file an input is: the one
//! place that decides) and [`error`] ([`ParseError`]: file:line:column and what was
//! expected).

pub mod board;
mod diagram;
pub mod error;
pub mod lines;
pub mod obf;
pub mod parse;
pub mod reader;
pub mod sniff;
pub mod source;
pub mod transcript;

pub use board::{format_board, format_board_with_supplies};
pub use error::{Illegal, ParseError, ParseErrorKind};
pub use lines::read_bounded_line;
pub use obf::{format_obf, format_obf_final, search_depth_comment, Expected};
pub use parse::{parse_position, parse_text, parse_text_with, Parsed};
pub use reader::{input_name, open_path, DynRead, NoPositions, PositionReader, MAX_LINE_LEN};
pub use source::{Source, INLINE_NAME, STDIN_NAME};
pub use transcript::parse_transcript;

#[cfg(test)]
mod tests;
