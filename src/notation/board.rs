//! Board strings (64 cells a1..h8 and the side to move, with optional discs left to each side)
//! and 8-line diagrams with or without coordinates, read and written.

use super::error::{Locator, ParseError, ParseErrorKind};
use crate::board::rules::{Supplies, DISCS_EACH};
use crate::board::{Color, Position};

/// Finds the discs left written after the side to move (`... X 5 7`) in `text[..end]`: the end
/// of the board part and the supplies, if any. Two numbers count as supplies only after a side
/// (a word such as `X` or `black`, or cells ending with one), so that a diagram's row numbers
/// are never taken for them.
pub(super) fn split_supplies(
    text: &str,
    end: usize,
    locator: &Locator<'_>,
) -> Result<(usize, Option<Supplies>), ParseError> {
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut rest = &text[..end];
    while words.len() < 3 {
        let trimmed = rest.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let start = trimmed
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8());
        words.push((start, &trimmed[start..]));
        rest = &trimmed[..start];
    }
    let is_number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let ends_with_side = |w: &str| {
        side(w).is_some()
            || w.chars()
                .next_back()
                .is_some_and(|c| side(&c.to_string()).is_some())
    };
    match words[..] {
        [(white_at, white), (black_at, black), (_, before), ..]
            if is_number(white) && is_number(black) && ends_with_side(before) =>
        {
            let count = |at: usize, word: &str| {
                word.parse::<u8>()
                    .ok()
                    .filter(|&n| n <= DISCS_EACH)
                    .ok_or_else(|| {
                        locator.at(
                            at,
                            ParseErrorKind::BadSupplies {
                                found: word.to_string(),
                            },
                        )
                    })
            };
            let supplies = Supplies {
                black: count(black_at, black)?,
                white: count(white_at, white)?,
            };
            Ok((black_at, Some(supplies)))
        }
        [(number_at, number), (_, before), ..] if is_number(number) && side(before).is_some() => {
            Err(locator.at(
                number_at,
                ParseErrorKind::BadSupplies {
                    found: number.to_string(),
                },
            ))
        }
        _ => Ok((end, None)),
    }
}

/// The colour a cell character stands for: `Some(None)` for empty, `None` for no cell.
fn cell(c: char) -> Option<Option<Color>> {
    match c {
        // `●` `○` `·`: the terminal diagram's discs and empty squares.
        'X' | 'x' | '*' | 'B' | 'b' | '●' => Some(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' | '○' => Some(Some(Color::White)),
        // `+` marks a legal move in diagrams: the square is empty.
        '-' | '.' | '_' | '+' | '·' => Some(None),
        _ => None,
    }
}

/// The side a word stands for (`X`, `b`, `black`, ...).
pub(super) fn side(word: &str) -> Option<Color> {
    if word.eq_ignore_ascii_case("black") {
        return Some(Color::Black);
    }
    if word.eq_ignore_ascii_case("white") {
        return Some(Color::White);
    }
    match word {
        "X" | "x" | "B" | "b" => Some(Color::Black),
        "O" | "o" | "W" | "w" => Some(Color::White),
        _ => None,
    }
}

/// The byte ranges of `text[..end]` that may hold cells and the side to move. A multi-line
/// diagram loses its coordinates: a header line `a b c d e f g h` and a row number at either end
/// of a line (digits are never cells, so nothing else is lost).
fn board_ranges(text: &str, end: usize) -> Vec<(usize, usize)> {
    let head = &text[..end];
    if !head.contains('\n') {
        return vec![(0, end)];
    }
    let mut ranges = Vec::new();
    let mut line_start = 0;
    for line in head.split('\n') {
        let lead = line.len() - line.trim_start().len();
        let mut start = line_start + lead;
        let mut stop = line_start + line.trim_end().len();
        line_start += line.len() + 1;
        if start >= stop {
            continue;
        }
        let content: String = text[start..stop]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if content.eq_ignore_ascii_case("abcdefgh") {
            continue;
        }
        if matches!(text.as_bytes()[start], b'1'..=b'8') {
            start += 1;
        }
        if stop > start && matches!(text.as_bytes()[stop - 1], b'1'..=b'8') {
            stop -= 1;
        }
        ranges.push((start, stop));
    }
    ranges
}

/// The position of the board string or diagram in `text[..end]`.
pub(super) fn parse_board(
    text: &str,
    end: usize,
    locator: &Locator<'_>,
) -> Result<Position, ParseError> {
    // Words (runs of non-space characters) with their offsets; the last one holds the side.
    let mut words: Vec<(usize, &str)> = Vec::new();
    for (start, stop) in board_ranges(text, end) {
        let mut word_start = None;
        for (i, c) in text[start..stop].char_indices() {
            let at = start + i;
            match (c.is_whitespace(), word_start) {
                (true, Some(s)) => {
                    words.push((s, &text[s..at]));
                    word_start = None;
                }
                (false, None) => word_start = Some(at),
                _ => {}
            }
        }
        if let Some(s) = word_start {
            words.push((s, &text[s..stop]));
        }
    }
    let Some(&(last_offset, last_word)) = words.last() else {
        return Err(locator.line(ParseErrorKind::CellCount { found: 0 }));
    };
    // The side is a whole word (`black`) or the last character, which may be glued to the cells.
    let last_is_side = side(last_word).is_some();
    // Glued: the side is the last character of a longer word.
    let glued = !last_is_side && last_word.chars().nth(1).is_some();
    let (mut cell_words, side_offset, side_text) = if last_is_side {
        (words[..words.len() - 1].to_vec(), last_offset, last_word)
    } else {
        let (i, _) = last_word
            .char_indices()
            .next_back()
            .expect("words are not empty");
        let mut cell_words = words[..words.len() - 1].to_vec();
        cell_words.push((last_offset, &last_word[..i]));
        (cell_words, last_offset + i, &last_word[i..])
    };
    cell_words.retain(|(_, w)| !w.is_empty());

    let (mut black, mut white, mut count) = (0u64, 0u64, 0usize);
    for (offset, word) in cell_words {
        for (i, c) in word.char_indices() {
            let colour = cell(c)
                .ok_or_else(|| locator.at(offset + i, ParseErrorKind::BadCell { found: c }))?;
            if count < 64 {
                match colour {
                    Some(Color::Black) => black |= 1 << count,
                    Some(Color::White) => white |= 1 << count,
                    None => {}
                }
            }
            count += 1;
        }
    }
    let to_move = side(side_text);
    if count != 64 {
        // A side glued to the cells is read off their last character, which may as well be a
        // cell (`X`, `O`): 64 such characters are 64 cells without a side, and any other
        // number is counted as the user typed it, side and all.
        let side_is_cell = side_text.chars().all(|c| cell(c).is_some());
        if count == 63 && side_is_cell && (glued || to_move.is_none()) {
            return Err(locator.at(side_offset + side_text.len(), ParseErrorKind::MissingSide));
        }
        if glued {
            let found = count + side_text.chars().count();
            return Err(locator.line(ParseErrorKind::GluedCellCount { found }));
        }
        return Err(locator.line(ParseErrorKind::CellCount { found: count }));
    }
    let to_move = to_move.ok_or_else(|| {
        locator.at(
            side_offset,
            ParseErrorKind::BadSide {
                found: side_text.to_string(),
            },
        )
    })?;
    Ok(Position::from_colors(black, white, to_move).expect("a cell holds one colour"))
}

/// The OBF board string: 64 cells a1..h8 (`X` black, `O` white, `-` empty), a space, `X` or `O`.
pub fn format_board(position: &Position) -> String {
    let (black, white) = (position.black(), position.white());
    let mut text: String = (0..64)
        .map(|i| {
            if black >> i & 1 != 0 {
                'X'
            } else if white >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    text.push(' ');
    text.push(position.to_move.letter());
    text
}

/// The board string followed by the discs left to black and to white: `<64 cells> X 5 7`.
pub fn format_board_with_supplies(position: &Position, supplies: Supplies) -> String {
    format!(
        "{} {} {}",
        format_board(position),
        supplies.black,
        supplies.white
    )
}
