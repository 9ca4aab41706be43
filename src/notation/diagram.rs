//! The diagrams osolve prints, read back: `show`'s diagram (on a terminal with `●` `○` `·` and
//! colours, or plain), with its source line above and its `black 12  white 32  empties 20  black
//! to move` line below, the `show --analyze` grid of scores and the `show --solve` grid of
//! numbered moves (both with their caption line), and GTP's `showboard`. Each is made into the
//! plain diagram the board reader reads, character for character (so that an error's column is
//! that of the text as given): colour codes, the source line and the caption become spaces,
//! a score or a move number on a square becomes an empty cell, and the line of counts becomes
//! the side to move it names (and the discs left it names, under Reversi rules).
//!
//! A diagram that shows no side to move (`game over`) is read with black to move.

use std::borrow::Cow;

use crate::board::Color;

/// `text` with the printed forms of a diagram made plain (see the module's doc); borrowed when
/// there is nothing to change. Only text over several lines is a diagram; colour codes are
/// blanked in any text.
pub(super) fn plain(text: &str) -> Cow<'_, str> {
    let blanked = blank_colour_codes(text);
    if !blanked.contains('\n') {
        return blanked;
    }
    let mut out = String::with_capacity(blanked.len());
    let mut first = true;
    let mut seen_counts = false;
    for (i, line) in blanked.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let trimmed = line.trim();
        if trimmed.is_empty() {
            out.push_str(line);
            continue;
        }
        let is_first = std::mem::replace(&mut first, false);
        let label = is_first && (is_source_label(trimmed) || is_gtp_answer(trimmed));
        if label || (seen_counts && is_caption(trimmed)) {
            out.push_str(&blank(line));
        } else if let Some(turn) = counts_line(trimmed) {
            seen_counts = true;
            out.push_str(&padded(&turn, line));
        } else {
            out.push_str(&row(line));
        }
    }
    Cow::Owned(out)
}

/// `text` with every ANSI escape sequence (`ESC [ ... m` and the like) made spaces.
fn blank_colour_codes(text: &str) -> Cow<'_, str> {
    if !text.contains('\x1b') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' || chars.peek() != Some(&'[') {
            out.push(c);
            continue;
        }
        // ESC [, parameter and intermediate bytes, then one final byte (@ to ~).
        out.push_str("  ");
        chars.next();
        for c in chars.by_ref() {
            out.push(' ');
            if ('@'..='~').contains(&c) {
                break;
            }
        }
    }
    Cow::Owned(out)
}

/// As many spaces as `line` has characters.
fn blank(line: &str) -> String {
    " ".repeat(line.chars().count())
}

/// `text` followed by spaces up to the characters of `line` (which is longer).
fn padded(text: &str, line: &str) -> String {
    let count = line.chars().count();
    let mut out = text.to_string();
    out.push_str(&" ".repeat(count.saturating_sub(text.chars().count())));
    out
}

/// The line `show` prints above a diagram: where the position came from (`<position>:1`,
/// `games.obf:12`).
fn is_source_label(line: &str) -> bool {
    match line.rsplit_once(':') {
        Some((name, number)) => {
            !name.is_empty()
                && !line.contains(char::is_whitespace)
                && !number.is_empty()
                && number.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// GTP's success mark before `showboard`'s board: `=`, or `=` and the command's number.
fn is_gtp_answer(line: &str) -> bool {
    line.strip_prefix('=')
        .is_some_and(|rest| rest.trim().bytes().all(|b| b.is_ascii_digit()))
}

/// The caption `show` prints under the line of counts: `best a2 +38`, `score +38  pv a2 ...`,
/// `estimate (depth 8): best b8 +16`.
fn is_caption(line: &str) -> bool {
    line.starts_with("best ") || line.starts_with("score ") || line.starts_with("estimate (depth ")
}

/// The side to move (and the discs left, `black 10 10`) that a line of counts names, as the
/// board reader reads them after the cells: `show`'s `black 12  white 32  empties 20  black
/// to move` (with `, must pass`, `game over`, or `discs left: black 10, white 10` before the
/// turn), or `showboard`'s `black to move; X (black) 12, O (white) 32`. `None` for any other
/// line.
fn counts_line(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let (turn, left) = match words[..] {
        // show: black N  white M  empties E [discs left: black A, white B]  turn
        ["black", b, "white", w, "empties", e, ref rest @ ..]
            if number(b) && number(w) && number(e) =>
        {
            match rest {
                ["discs", "left:", "black", a, "white", c, turn @ ..]
                    if a.strip_suffix(',').is_some_and(number) && number(c) =>
                {
                    (turn, Some((a.trim_end_matches(','), *c)))
                }
                turn => (turn, None),
            }
        }
        _ => {
            // showboard: turn; X (black) N, O (white) M
            let (turn, counts) = line.split_once(';')?;
            let counts: Vec<&str> = counts.split_whitespace().collect();
            match counts[..] {
                ["X", "(black)", b, "O", "(white)", w]
                    if b.strip_suffix(',').is_some_and(number) && number(w) => {}
                _ => return None,
            }
            let turn: Vec<&str> = turn.split_whitespace().collect();
            return side_of_turn(&turn).map(|side| side.name().to_string());
        }
    };
    let side = side_of_turn(turn)?;
    Some(match left {
        Some((black, white)) => format!("{} {black} {white}", side.name()),
        None => side.name().to_string(),
    })
}

/// The side to move of a turn: `black to move`, `white to move, must pass`, or `game over`
/// (read as black to move: the diagram does not say).
fn side_of_turn(turn: &[&str]) -> Option<Color> {
    let side = match turn {
        ["game", "over"] => return Some(Color::Black),
        [side, "to", "move"] | [side, "to", "move,", "must", "pass"] => side,
        _ => return None,
    };
    match *side {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// A line of a diagram with the scores and move numbers on its squares made empty cells (`-`),
/// when it is a row of eight squares: a word of digits (with a sign or not) is one square,
/// another word one square per character, and a row number (one digit, 1 to 8) may stand at
/// either end. Any other line is left as it is.
fn row(line: &str) -> String {
    let words: Vec<(usize, &str)> = words(line);
    let is_number = |w: &str| {
        let digits = w.strip_prefix(['+', '-']).unwrap_or(w);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let is_row_number = |w: &str| w.len() == 1 && matches!(w.as_bytes()[0], b'1'..=b'8');
    let squares = |ws: &[(usize, &str)]| -> usize {
        ws.iter()
            .map(|(_, w)| if is_number(w) { 1 } else { w.chars().count() })
            .sum()
    };
    let mut cells = &words[..];
    if cells.first().is_some_and(|(_, w)| is_row_number(w)) && squares(&cells[1..]) >= 8 {
        cells = &cells[1..];
    }
    if squares(cells) == 9 && cells.last().is_some_and(|(_, w)| is_row_number(w)) {
        cells = &cells[..cells.len() - 1];
    }
    if squares(cells) != 8 || !cells.iter().any(|(_, w)| is_number(w)) {
        return line.to_string();
    }
    let mut out = line.to_string();
    for &(at, word) in cells.iter().rev() {
        if is_number(word) {
            let empty = padded("-", word);
            out.replace_range(at..at + word.len(), &empty);
        }
    }
    out
}

/// The words of `line` (runs of characters that are not white space) with their byte offsets.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                words.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        words.push((s, &line[s..]));
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_lines_become_plain_ones_of_the_same_length() {
        let text = "<position>:1\n    a   b\n1   O +30   X  12   -\nblack 12  white 32  empties 20  discs left: black 10, white 9  black to move\nbest a2 +38";
        let plain = plain(text);
        for (given, made) in text.split('\n').zip(plain.split('\n')) {
            assert_eq!(given.chars().count(), made.chars().count(), "{made}");
        }
        let lines: Vec<&str> = plain.split('\n').collect();
        assert_eq!(lines[0].trim(), "");
        assert_eq!(lines[1], "    a   b");
        // Five squares are no row of eight: left as they are.
        assert_eq!(lines[2], "1   O +30   X  12   -");
        assert_eq!(lines[3].trim_end(), "black 10 9");
        assert_eq!(lines[4].trim(), "");
        assert_eq!(
            row("8  12   8  18  20  13  10  17  19"),
            "8  -    -  -   -   -   -   -   - "
        );
        // A row number at both ends (showboard) stays; a last square numbered like its row
        // is a square.
        assert_eq!(row("1 . . . . . . . . 1"), "1 . . . . . . . . 1");
        assert_eq!(
            row("1   O   2   3   O   O   O   O   1"),
            "1   O   -   -   O   O   O   O   -"
        );
        assert_eq!(
            counts_line("white to move; X (black) 2, O (white) 2").as_deref(),
            Some("white")
        );
        assert_eq!(
            counts_line("black 4  white 2  empties 58  game over").as_deref(),
            Some("black")
        );
        assert_eq!(counts_line("black 4  white 2"), None);
        assert_eq!(
            blank_colour_codes("\x1b[48;5;28m ●\x1b[0m"),
            "           ●    "
        );
    }
}
