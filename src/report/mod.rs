//! Output formats for people and programs: here the human diagram of a position, the work of a
//! search as result lines end (nodes, time and rate, in the units of [`crate::units`]) and the
//! rows of `osolve perft`; in
//! the submodules the reports of each subcommand: [`solve`] (human and JSON), [`analyze`]
//! (OBF, JSON lines, CSV), [`games`] and [`bench`](mod@bench), each for every rule set; board
//! pictures ([`picture`]) drawn as SVG ([`svg`](mod@svg)) or as a
//! terminal diagram in colour ([`colour`]). Knows nothing of search internals, files or
//! terminals: it turns values into strings and never prints; the caller decides where they go
//! and whether the terminal can show Unicode and colour.

pub mod analyze;
pub mod batch;
pub mod bench;
pub mod chart;
pub mod colour;
pub mod games;
pub mod learn;
pub mod live;
pub mod picture;
pub mod players;
pub mod solve;
pub mod svg;
pub mod terms;
pub mod unfinished;

use crate::board::{Color, Position, Square};
use crate::units::{format_count, format_mnps, format_seconds, per_second};

/// The board as text: columns `a`..`h` across the top, rows `1`..`8` down the left side, black
/// and white discs (`●` `○` with `unicode`, else `X` `O`), empty squares (`·` or `-`) and the legal
/// moves of the side to move (`+`, which the parser reads back as empty), then a line such as
/// `black 2  white 2  empties 60  black to move`. Every line ends with a newline.
pub fn diagram(position: &Position, unicode: bool) -> String {
    let (black_disc, white_disc, empty, legal) = if unicode {
        ('●', '○', '·', '+')
    } else {
        ('X', 'O', '-', '+')
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

/// The work of a search as reports end their result lines: `  nodes 21.3M  0.84 s  25.4 Mn/s`.
pub fn work_text(nodes: u64, time: std::time::Duration) -> String {
    format!(
        "  nodes {}  {}  {}",
        format_count(nodes),
        format_seconds(time.as_secs_f64()),
        format_mnps(per_second(nodes, time)),
    )
}

/// The heading of the `osolve perft` table: where the count starts, then the column names.
pub fn perft_header(position: &Position) -> String {
    let from = if *position == Position::start() {
        " (the start)".to_string()
    } else {
        String::new()
    };
    format!(
        "perft from {}{from}, {} to move, {} empties\n{:>5}  {:>20}  {:>10}  {:>12}\n",
        crate::notation::format_board(position),
        position.to_move.name(),
        position.board.empties(),
        "depth",
        "leaves",
        "time",
        "leaves/s",
    )
}

/// One row of the `osolve perft` table: the depth, the exact leaf count (no suffix, so it can be
/// compared digit for digit with published tables), the time and the rate.
pub fn perft_row(depth: u32, leaves: u64, seconds: f64) -> String {
    let rate = if seconds > 0.0 {
        format!(
            "{}/s",
            format_count((leaves as f64 / seconds).round() as u64)
        )
    } else {
        "-".to_string()
    };
    format!(
        "{depth:>5}  {leaves:>20}  {:>10}  {rate:>12}\n",
        format!("{seconds:.3} s")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_diagram_of_the_start() {
        let expected = "  a b c d e f g h\n\
                        1 - - - - - - - -\n\
                        2 - - - - - - - -\n\
                        3 - - - + - - - -\n\
                        4 - - + O X - - -\n\
                        5 - - - X O + - -\n\
                        6 - - - - + - - -\n\
                        7 - - - - - - - -\n\
                        8 - - - - - - - -\n\
                        black 2  white 2  empties 60  black to move\n";
        assert_eq!(diagram(&Position::start(), false), expected);
    }

    #[test]
    fn diagrams_read_back_as_the_same_position() {
        let mut rng = crate::board::random::Rng(23);
        for empties in [4, 20, 40, 59] {
            let position = crate::board::random::random_position(&mut rng, empties);
            for unicode in [false, true] {
                let text = diagram(&position, unicode);
                let rows: Vec<&str> = text.lines().take(9).collect();
                let back = format!("{}\n{}", rows.join("\n"), position.to_move.name());
                // Both the ASCII and the Unicode discs read back (issue 26: everything osolve
                // prints as a position reads back as that position).
                let parsed = crate::notation::parse_position(&back);
                assert_eq!(parsed.unwrap().position, position, "{back}");
            }
        }
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

    #[test]
    fn perft_rows_print_exact_counts() {
        let header = perft_header(&Position::start());
        assert!(header.starts_with(
            "perft from ---------------------------OX------XO--------------------------- X (the start), black to move, 60 empties\n"
        ));
        assert_eq!(
            perft_row(5, 1396, 0.5),
            format!(
                "    5  {:>20}  {:>10}  {:>12}\n",
                1396, "0.500 s", "2.79k/s"
            )
        );
        assert!(perft_row(1, 4, 0.0).ends_with(" -\n"));
    }
}
