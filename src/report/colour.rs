//! A [`Picture`] as a terminal diagram, in colour when the caller says so: a green board, black
//! and white discs, and the marks on the empty squares (legal moves `+`, move scores with the
//! best ones in bold yellow, or the principal variation numbered in the mover's colour). Without
//! colour the layout and the information are the same, in plain text that the position parser
//! reads back (legal moves are `+`, never a disc letter). Whether to use colour is the caller's
//! decision ([`use_colour`] is the rule: a terminal, and `NO_COLOR` unset or empty).

use super::picture::{Marks, Picture, SquareMark};
use crate::board::{Color, Square};

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermStyle {
    /// Discs as `●` `○` and empty squares as `·` (else `X` `O` `-`).
    pub unicode: bool,
    /// ANSI colours.
    pub colour: bool,
}

impl TermStyle {
    /// Plain ASCII: what pipes and files get.
    pub const PLAIN: TermStyle = TermStyle {
        unicode: false,
        colour: false,
    };
}

/// The colour rule of <https://no-color.org>: colour only on a terminal, and only when
/// `NO_COLOR` is unset or empty. The caller passes what it found.
pub fn use_colour(is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    is_terminal && no_color.is_none_or(|value| value.is_empty())
}

const RESET: &str = "\x1b[0m";
const BOARD_BG: &str = "\x1b[48;5;28m";
const BLACK_FG: &str = "\x1b[38;5;16m";
const WHITE_FG: &str = "\x1b[38;5;231m";
const EMPTY_FG: &str = "\x1b[38;5;22m";
const LEGAL_FG: &str = "\x1b[38;5;191m";
const SCORE_FG: &str = "\x1b[38;5;255m";
const BEST_FG: &str = "\x1b[1;38;5;226m";
const BOLD: &str = "\x1b[1m";

fn disc_fg(color: Color) -> &'static str {
    match color {
        Color::Black => BLACK_FG,
        Color::White => WHITE_FG,
    }
}

/// The text and colour of one square, `width` characters wide (right-aligned).
fn cell(picture: &Picture, square: Square, style: TermStyle) -> (String, String) {
    // White is `○` in colour too: a diagram copied from the terminal loses its colours and
    // must still read back as the same position.
    let (black, white, empty) = if style.unicode {
        ('●', '○', '·')
    } else {
        ('X', 'O', '-')
    };
    match picture.mark(square) {
        SquareMark::Disc(Color::Black) => (black.to_string(), BLACK_FG.to_string()),
        SquareMark::Disc(Color::White) => (white.to_string(), WHITE_FG.to_string()),
        SquareMark::Empty => (empty.to_string(), EMPTY_FG.to_string()),
        SquareMark::Legal => ("+".to_string(), LEGAL_FG.to_string()),
        SquareMark::Score { score, best } => (
            format!("{score:+}"),
            if best { BEST_FG } else { SCORE_FG }.to_string(),
        ),
        SquareMark::Step { number, mover } => {
            (number.to_string(), format!("{BOLD}{}", disc_fg(mover)))
        }
    }
}

/// The diagram of `picture`: the column letters, eight rows with their numbers, then the counts
/// and whose turn it is, then the caption of the marks (best moves, or the line). Squares are
/// two characters wide with legal moves, four with scores or a line. Every line ends with a
/// newline.
pub fn diagram(picture: &Picture, style: TermStyle) -> String {
    let width = match picture.marks {
        Marks::Legal => 2,
        Marks::Scores(_) | Marks::Line { .. } => 4,
    };
    let mut text = String::from(" ");
    for col in 0..8u8 {
        text.push_str(&format!("{:>width$}", char::from(b'a' + col)));
    }
    text.push('\n');
    for row in 0..8 {
        text.push_str(&(row + 1).to_string());
        if style.colour {
            text.push_str(BOARD_BG);
        }
        for col in 0..8 {
            let square = Square::at(col, row).expect("col and row are below 8");
            let (mark, colour) = cell(picture, square, style);
            let padded = format!("{mark:>width$}");
            if style.colour {
                text.push_str(&colour);
                text.push_str(&padded);
                text.push_str(RESET);
                text.push_str(BOARD_BG);
            } else {
                text.push_str(&padded);
            }
        }
        if style.colour {
            text.push(' ');
            text.push_str(RESET);
        }
        text.push('\n');
    }
    text.push_str(&format!("{}  {}\n", picture.counts(), picture.turn()));
    if let Some(caption) = picture.caption() {
        text.push_str(&caption);
        text.push('\n');
    }
    text
}

/// What `osolve show` prints of `picture` on the terminal: its title (where the position came
/// from) on a line of its own, the [`diagram`], then an empty line.
pub fn shown(picture: &Picture, style: TermStyle) -> String {
    format!("{}\n{}\n", picture.title, diagram(picture, style))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::Rules;
    use crate::board::Position;
    use crate::report::picture::Marks;
    use crate::search::MoveScore;
    use std::ffi::OsStr;

    #[test]
    fn terminal_diagrams_read_back_as_the_same_position() {
        let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        for text in [ffo40, &ffo40.replace(" X", " O")] {
            let parsed = crate::notation::parse_position(text).unwrap();
            let position = parsed.position;
            let scores = vec![MoveScore {
                mv: Some("a2".parse().unwrap()),
                score: 38,
            }];
            let line = Marks::Line {
                pv: vec![
                    Some("a2".parse().unwrap()),
                    None,
                    Some("b1".parse().unwrap()),
                ],
                score: 38,
                wld: false,
            };
            for marks in [Marks::Legal, Marks::Scores(scores), line] {
                for (unicode, colour) in [(true, true), (true, false), (false, false)] {
                    let picture = Picture::new(&position, marks.clone(), "");
                    let printed = diagram(&picture, TermStyle { unicode, colour });
                    let back = crate::notation::parse_position(&format!("<position>:1\n{printed}"))
                        .unwrap_or_else(|e| panic!("{e}\n{printed}"));
                    assert_eq!(back.position, parsed.position, "{printed}");
                }
            }
        }
    }

    #[test]
    fn plain_diagrams_match_the_solve_diagram() {
        let start = Position::start_of(Rules::Othello);
        let picture = Picture::new(&start, Marks::Legal, "");
        let plain = diagram(&picture, TermStyle::PLAIN);
        assert_eq!(plain, crate::report::diagram(&start, false));
    }

    #[test]
    fn scores_sit_on_their_squares_and_colour_is_optional() {
        let start = Position::start_of(Rules::Othello);
        let scores = ["d3", "c4", "f5", "e6"]
            .iter()
            .map(|name| MoveScore {
                mv: Some(name.parse().unwrap()),
                score: if *name == "c4" { 0 } else { -2 },
            })
            .collect();
        let picture = Picture::new(&start, Marks::Scores(scores), "");
        let plain = diagram(&picture, TermStyle::PLAIN);
        let lines: Vec<&str> = plain.lines().collect();
        assert_eq!(lines[0], "    a   b   c   d   e   f   g   h");
        assert_eq!(lines[3], "3   -   -   -  -2   -   -   -   -");
        assert_eq!(lines[4], "4   -   -  +0   O   X   -   -   -");
        assert_eq!(lines[10], "best c4 +0");
        assert!(!plain.contains('\x1b'));
        let coloured = diagram(
            &picture,
            TermStyle {
                unicode: true,
                colour: true,
            },
        );
        assert!(coloured.contains(&format!("{BEST_FG}  +0{RESET}")));
        assert!(coloured.contains(&format!("{SCORE_FG}  -2{RESET}")));
    }

    #[test]
    fn no_color_and_pipes_turn_colour_off() {
        assert!(use_colour(true, None));
        assert!(use_colour(true, Some(OsStr::new(""))));
        assert!(!use_colour(true, Some(OsStr::new("1"))));
        assert!(!use_colour(false, None));
    }

    #[test]
    fn shown_is_the_title_the_diagram_and_an_empty_line() {
        let picture = Picture::new(&Position::start(), Marks::Legal, "in.obf:2");
        let style = TermStyle {
            unicode: false,
            colour: false,
        };
        let text = shown(&picture, style);
        assert_eq!(text, format!("in.obf:2\n{}\n", diagram(&picture, style)));
        assert!(text.starts_with("in.obf:2\n  a b c d e f g h\n"), "{text}");
        assert!(text.ends_with("black to move\n\n"), "{text}");
    }
}
