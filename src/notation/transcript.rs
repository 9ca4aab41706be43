//! Move transcripts (`f5d6c3...`, any case, optional spaces or commas, passes implicit or
//! written `pa`, `ps` or `--`): the one reader of them, played from the start of the rules in
//! force. `games` reads its transcript files and GGF moves through it.

use super::error::{Illegal, Locator, ParseError, ParseErrorKind};
use super::source::Source;
use crate::board::rules::Rules;
use crate::board::{Position, Square};

/// Plays a transcript (`f5d6c3...`, any case, optional spaces or commas, passes implicit or as
/// `pa`/`ps`/`--`) from the standard start and returns the position reached.
pub fn parse_transcript(text: &str) -> Result<Position, ParseError> {
    let source = Source::inline();
    let locator = Locator {
        text,
        source: &source,
    };
    play(text, &locator, Rules::Othello)
}

/// A transcript starts with a letter and a digit (`f5`, or `c9` to report a bad square); no
/// board string does, since cells are never digits and a coordinate header is followed by a
/// space. (A game cannot start with a pass.)
pub(super) fn looks_like_transcript(text: &str) -> bool {
    if text.contains(';') {
        return false;
    }
    let mut chars = text.chars().filter(|c| !c.is_whitespace() && *c != ',');
    matches!((chars.next(), chars.next()),
        (Some(a), Some(b)) if a.is_ascii_alphabetic() && b.is_ascii_digit())
}

/// One move as written: a square (any case), or a pass (`pa`, `ps`, `pass` in any case, or
/// `--`) as `Some(None)`; `None` when the token is neither.
pub fn parse_move(token: &str) -> Option<Option<Square>> {
    if is_pass_token(token) {
        return Some(None);
    }
    token.parse::<Square>().ok().map(Some)
}

/// A pass written as a move: `pa`, `ps`, `pass` (any case) or `--`.
pub(super) fn is_pass_token(token: &str) -> bool {
    ["pa", "ps", "pass"]
        .iter()
        .any(|pass| token.eq_ignore_ascii_case(pass))
        || token == "--"
}

/// The move tokens of a transcript in order, each with the byte offset of its first
/// character: pairs of characters, with white space and commas left out.
pub fn tokens(text: &str) -> impl Iterator<Item = (usize, String)> + '_ {
    let chars: Vec<(usize, char)> = text
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace() && *c != ',')
        .collect();
    let pairs: Vec<(usize, String)> = chars
        .chunks(2)
        .map(|pair| (pair[0].0, pair.iter().map(|&(_, c)| c).collect()))
        .collect();
    pairs.into_iter()
}

/// Plays a transcript from the start of `rules` (the empty board under Reversi rules).
pub(super) fn play(
    text: &str,
    locator: &Locator<'_>,
    rules: Rules,
) -> Result<Position, ParseError> {
    let mut tokens = tokens(text).peekable();
    if tokens.peek().is_none() {
        return Err(locator.line(ParseErrorKind::EmptyTranscript));
    }
    let mut position = Position::start_of(rules);
    for (i, (offset, token)) in tokens.enumerate() {
        let number = i + 1;
        let illegal = |passed, why| {
            locator.at(
                offset,
                ParseErrorKind::IllegalMove {
                    number,
                    found: token.clone(),
                    passed,
                    why,
                },
            )
        };
        if is_pass_token(&token) {
            if position.is_over() {
                return Err(illegal(None, Illegal::GameOver));
            }
            if position.moves() != 0 {
                return Err(illegal(None, Illegal::HasMove(position.to_move)));
            }
            position = position.pass();
            continue;
        }
        let square: Square = token.parse().map_err(|_| {
            locator.at(
                offset,
                ParseErrorKind::BadMove {
                    number,
                    found: token.clone(),
                },
            )
        })?;
        if position.is_over() {
            return Err(illegal(None, Illegal::GameOver));
        }
        // A side with no move passes, written or not: the square is the other side's.
        let mut passed = None;
        if position.moves() == 0 {
            passed = Some(position.to_move);
            position = position.pass();
        }
        let Some(next) = position.play(square) else {
            let mover = position.to_move;
            let why = if position.board.empty() & square.bit() == 0 {
                Illegal::Taken(mover)
            } else if position.state().in_opening() {
                Illegal::Opening
            } else {
                Illegal::FlipsNothing(mover)
            };
            return Err(illegal(passed, why));
        };
        position = next;
    }
    Ok(position)
}
