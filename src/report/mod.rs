//! Output formats for people and programs. For now the human diagram of a position: the board
//! with coordinates, the legal moves of the side to move marked, and a line of disc counts.
//! Knows nothing of search internals, files or terminals; it returns strings and never prints.

use crate::board::{Color, Position, Square};

/// The board as text: columns `a`..`h` across the top, rows `1`..`8` down the left side, black
/// and white discs (`●` `○` with `unicode`, else `X` `O`), empty squares (`·` or `-`) and the legal
/// moves of the side to move (`+` or `*`), then a line such as
/// `black 2  white 2  empties 60  black to move`. Every line ends with a newline.
pub fn diagram(position: &Position, unicode: bool) -> String {
    let (black_disc, white_disc, empty, legal) = if unicode {
        ('●', '○', '·', '+')
    } else {
        ('X', 'O', '-', '*')
    };
    let (black, white) = (position.black(), position.white());
    let legal_moves = position.board.moves();
    let mut text = String::from("  a b c d e f g h\n");
    for row in 0..8 {
        text.push(char::from(b'1' + row as u8));
        for col in 0..8 {
            let bit = Square::at(col, row).expect("col and row are below 8").bit();
            let mark = if black & bit != 0 {
                black_disc
            } else if white & bit != 0 {
                white_disc
            } else if legal_moves & bit != 0 {
                legal
            } else {
                empty
            };
            text.push(' ');
            text.push(mark);
        }
        text.push('\n');
    }
    let turn = if position.board.is_game_over() {
        "game over".to_string()
    } else if legal_moves == 0 {
        format!("{} to move, must pass", position.to_move.name())
    } else {
        format!("{} to move", position.to_move.name())
    };
    text.push_str(&format!(
        "{} {}  {} {}  empties {}  {turn}\n",
        Color::Black.name(),
        black.count_ones(),
        Color::White.name(),
        white.count_ones(),
        position.board.empties(),
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_diagram_of_the_start() {
        let expected = "  a b c d e f g h\n\
                        1 - - - - - - - -\n\
                        2 - - - - - - - -\n\
                        3 - - - * - - - -\n\
                        4 - - * O X - - -\n\
                        5 - - - X O * - -\n\
                        6 - - - - * - - -\n\
                        7 - - - - - - - -\n\
                        8 - - - - - - - -\n\
                        black 2  white 2  empties 60  black to move\n";
        assert_eq!(diagram(&Position::start(), false), expected);
    }

    #[test]
    fn unicode_diagram_after_a_move() {
        let after = Position::start().play("f5".parse().unwrap()).unwrap();
        let text = diagram(&after, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  a b c d e f g h");
        assert_eq!(lines[4], "4 · · · ○ ● + · ·");
        assert_eq!(lines[5], "5 · · · ● ● ● · ·");
        assert_eq!(lines[6], "6 · · · + · + · ·");
        assert_eq!(lines[9], "black 4  white 1  empties 59  white to move");
    }

    #[test]
    fn passes_and_finished_games_are_said() {
        // Black owns everything but a1, which nobody can take: game over.
        let full = Position::from_colors(!1, 0, Color::White).unwrap();
        assert!(diagram(&full, false).ends_with("black 63  white 0  empties 1  game over\n"));
        // White to move with no move while black has one: white must pass.
        let pass = Position::from_colors(0b011, 0b100, Color::White).unwrap();
        assert!(pass.board.moves() == 0 && pass.pass().board.moves() != 0);
        assert!(diagram(&pass, false).contains("white to move, must pass"));
    }
}
