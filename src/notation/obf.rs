//! OBF annotations (`A2:+38; PS:-12;`, a bare final score, Edax's `--:-127` end mark, the
//! `% search depth N` comment of approximate scores, and `% estimate (depth N)`), read and
//! written.

use super::board::format_board;
use super::error::{Locator, ParseError, ParseErrorKind};
use super::transcript::is_pass_token;
use crate::board::{Position, Square};

/// The expected score of one move, as an OBF line annotates it: the move (`None` for a pass)
/// and the exact score for the side to move, written as found.
pub type Expected = (Option<Square>, i32);

/// The comment that marks scores of a depth-limited search: ` % search depth N`.
pub fn search_depth_comment(depth: u32) -> String {
    format!(" % {SEARCH_DEPTH} {depth}")
}

/// The words of the search-depth comment.
const SEARCH_DEPTH: &str = "search depth";

/// The depth of a `% search depth N` comment, or of `% estimate (depth N)` (as `osolve
/// analyze --depth N` marks its estimates).
pub(super) fn comment_search_depth(comment: &str) -> Option<u32> {
    let comment = comment.trim();
    if let Some(rest) = comment.strip_prefix("estimate (depth ") {
        return rest.strip_suffix(')')?.trim().parse().ok();
    }
    let rest = comment.strip_prefix(SEARCH_DEPTH)?;
    rest.trim().parse().ok()
}

/// The expected move scores and the final score of an OBF line.
pub(super) type Annotations = (Vec<Expected>, Option<i32>);

/// The score of Edax's end-of-list sentinel `--:-127` (out of every score's range).
const NO_MORE_SCORES: &str = "-127";

/// The `;`-separated annotations starting at byte `start`: `A2:+38`, `PS:-12`, a bare `+10`.
pub(super) fn annotations(
    text: &str,
    start: usize,
    locator: &Locator<'_>,
) -> Result<Annotations, ParseError> {
    let mut expected = Vec::new();
    let mut final_score = None;
    let mut part_start = start;
    for part in text[start..].split(';') {
        let offset = part_start + (part.len() - part.trim_start().len());
        part_start += part.len() + 1;
        let item = part.trim();
        if item.is_empty() {
            continue;
        }
        let bad_annotation = || {
            locator.at(
                offset,
                ParseErrorKind::BadAnnotation {
                    found: item.to_string(),
                },
            )
        };
        match item.split_once(':') {
            // Edax ends some move lists with `--:-127`: no more scores follow (never a move).
            Some((mv, score)) if mv.trim() == "--" && score.trim() == NO_MORE_SCORES => break,
            Some((mv, score)) => {
                let mv = mv.trim();
                let square = if is_pass_token(mv) {
                    None
                } else {
                    Some(mv.parse::<Square>().map_err(|_| bad_annotation())?)
                };
                let score_offset = offset + item.find(':').expect("split at ':'") + 1;
                let score_offset = score_offset + (score.len() - score.trim_start().len());
                expected.push((square, parse_score(score.trim(), score_offset, locator)?));
            }
            None => {
                if !item.starts_with(['+', '-']) && !item.starts_with(|c: char| c.is_ascii_digit())
                {
                    return Err(bad_annotation());
                }
                let score = parse_score(item, offset, locator)?;
                if final_score.replace(score).is_some() {
                    return Err(locator.at(
                        offset,
                        ParseErrorKind::DuplicateFinalScore {
                            found: item.to_string(),
                        },
                    ));
                }
            }
        }
    }
    Ok((expected, final_score))
}

fn parse_score(text: &str, offset: usize, locator: &Locator<'_>) -> Result<i32, ParseError> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let score =
        if !digits.is_empty() && digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit()) {
            text.parse::<i32>().ok().filter(|s| (-64..=64).contains(s))
        } else {
            None
        };
    score.ok_or_else(|| {
        locator.at(
            offset,
            ParseErrorKind::BadScore {
                found: text.to_string(),
            },
        )
    })
}

/// An OBF line: the board string, `;`, then `A2:+38;` per move (`PS` for a pass, always a sign).
pub fn format_obf(position: &Position, expected: &[Expected]) -> String {
    let mut line = format_board(position);
    line.push(';');
    for &(mv, score) in expected {
        let name = mv.map_or_else(|| "PS".to_string(), Square::upper);
        line.push_str(&format!(" {name}:{score:+};"));
    }
    line
}

/// An OBF line of a finished game: the board string and its bare score (`... X; +10;`).
pub fn format_obf_final(position: &Position, score: i32) -> String {
    format!("{}; {score:+};", format_board(position))
}
