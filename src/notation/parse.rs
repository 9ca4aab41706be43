//! One position from text: a board string or diagram, an OBF line or a transcript, told apart
//! by their first characters, into a [`Parsed`] with its annotations and source.

use super::board::{parse_board, split_supplies};
use super::diagram;
use super::error::{Locator, ParseError, ParseErrorKind};
use super::obf::{annotations, comment_search_depth, format_obf, search_depth_comment, Expected};
use super::source::Source;
use super::transcript::{self, looks_like_transcript};
use crate::board::rules::{Rules, Variant};
use crate::board::Position;

/// A parsed position with its annotations and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The position, under the rules and scoring it was read with (its discs left as written
    /// after the side to move, `X 5 7`, or derived, or exact after a transcript).
    pub position: Position,
    /// Expected scores of moves from an OBF line, in the order written; empty otherwise.
    pub expected: Vec<Expected>,
    /// The score of a finished game from a bare OBF annotation (`+10`).
    pub final_score: Option<i32>,
    /// Where the text came from.
    pub source: Source,
    /// The scores are a depth-limited search's, not exact: the line ends with the comment
    /// `% search depth N` (as `osolve gen --search-depth N` writes it).
    pub search_depth: Option<u32>,
}

impl Parsed {
    /// The position and all its annotations as one OBF line (moves first, then a final score,
    /// then the search-depth comment of approximate scores).
    pub fn to_obf(&self) -> String {
        let mut line = format_obf(&self.position, &self.expected);
        if let Some(score) = self.final_score {
            line.push_str(&format!(" {score:+};"));
        }
        if let Some(depth) = self.search_depth {
            line.push_str(&search_depth_comment(depth));
        }
        line
    }
}

/// Parses inline text (`-p`): a board string, an 8-line diagram (with or without coordinates),
/// an OBF line or a transcript. Errors are located at `<position>:line:column`.
pub fn parse_position(text: &str) -> Result<Parsed, ParseError> {
    parse_text(text, Source::inline())
}

/// Parses one position from `text`, which begins at `source`: a board string or diagram, an OBF
/// line or a transcript, told apart by their first characters (a transcript starts with a
/// square such as `f5`). A `%` or `#` starts a comment that runs to the end of the text.
pub fn parse_text(text: &str, source: Source) -> Result<Parsed, ParseError> {
    parse_text_with(text, source, Variant::default())
}

/// [`parse_text`] under the rules and scoring of `variant`, which the position carries: under
/// Reversi rules a transcript starts from the empty board, and a position the rules cannot reach
/// (see [`Position::with_rules`]) is an error.
pub fn parse_text_with(text: &str, source: Source, variant: Variant) -> Result<Parsed, ParseError> {
    let rules = variant.rules;
    // The diagrams osolve prints (colour codes, counts line, scores on squares) made plain.
    let plain = diagram::plain(text);
    let text: &str = &plain;
    // `%` (Edax's comment mark) or `#` ends the text: neither is part of any notation.
    let comment_at = text.find(['%', '#']).unwrap_or(text.len());
    let search_depth = text[comment_at..]
        .strip_prefix('%')
        .and_then(comment_search_depth);
    let text = &text[..comment_at];
    let locator = Locator {
        text,
        source: &source,
    };
    if text.trim().is_empty() {
        return Err(locator.line(ParseErrorKind::Empty));
    }
    if looks_like_transcript(text) {
        let played = transcript::play(text, &locator, rules)?;
        return Ok(Parsed {
            position: played.with_scoring(variant.scoring),
            expected: Vec::new(),
            final_score: None,
            source,
            search_depth: None,
        });
    }
    let head_end = text.find(';').unwrap_or(text.len());
    let (board_end, supplies) = split_supplies(text, head_end, &locator)?;
    let position = parse_board(text, board_end, &locator)?;
    if rules == Rules::Othello && (position.board.player | position.board.opponent) == 0 {
        return Err(locator.line(ParseErrorKind::NoDiscs));
    }
    let position = position
        .with_variant(variant, supplies)
        .map_err(|e| locator.line(ParseErrorKind::Rules(e)))?;
    let (expected, final_score) = if head_end < text.len() {
        annotations(text, head_end + 1, &locator)?
    } else {
        (Vec::new(), None)
    };
    Ok(Parsed {
        position,
        expected,
        final_score,
        source,
        search_depth,
    })
}
