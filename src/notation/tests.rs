//! The notation's tests: every format read and written, and every error located.

use super::*;
use crate::board::rules::{Rules, Scoring, Supplies, Variant};
use crate::board::{Color, Position, Square};

const REVERSI: Variant = Variant {
    rules: Rules::Reversi,
    scoring: Scoring::Official,
};

const START: &str = "---------------------------OX------XO--------------------------- X";

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn err(text: &str) -> String {
    parse_position(text).unwrap_err().to_string()
}

#[test]
fn the_start_reads_and_writes() {
    let p = parse_position(START).unwrap();
    assert_eq!(p.position, Position::start());
    assert_eq!(format_board(&p.position), START);
    assert_eq!(p.source.to_string(), "<position>:1");
}

#[test]
fn cell_and_side_synonyms() {
    let text = START
        .replace('X', "*")
        .replace('O', "w")
        .replacen('-', ".", 10)
        .replacen('-', "_", 10)
        .replace(" *", " b");
    assert_eq!(parse_position(&text).unwrap().position, Position::start());
    for (side, colour) in [
        ("x", Color::Black),
        ("B", Color::Black),
        ("BLACK", Color::Black),
        ("o", Color::White),
        ("W", Color::White),
        ("White", Color::White),
    ] {
        let text = format!("{} {side}", &START[..64]);
        assert_eq!(parse_position(&text).unwrap().position.to_move, colour);
    }
    // glued side, spaces inside the cells
    let glued = format!("{}X", &START[..64]);
    assert_eq!(parse_position(&glued).unwrap().position, Position::start());
    let spaced = START.as_bytes()[..64]
        .chunks(8)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join(" ")
        + " black";
    assert_eq!(parse_position(&spaced).unwrap().position, Position::start());
}

#[test]
fn diagrams_with_and_without_coordinates() {
    let plain = "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\nX";
    assert_eq!(parse_position(plain).unwrap().position, Position::start());
    let framed = "  a b c d e f g h\n\
                  1 - - - - - - - - 1\n\
                  2 - - - - - - - - 2\n\
                  3 - - - - - - - - 3\n\
                  4 - - - O X - - - 4\n\
                  5 - - - X O - - - 5\n\
                  6 - - - - - - - - 6\n\
                  7 - - - - - - - - 7\n\
                  8 - - - - - - - - 8\n\
                  \x20 a b c d e f g h\n\
                  black\n";
    assert_eq!(parse_position(framed).unwrap().position, Position::start());
    let bad = "--------\n--------\n--------\n---OX---\n---XQ---\n--------\n--------\n--------\nX";
    assert_eq!(
        err(bad),
        "<position>:5:5: expected a board cell (X x * B b, O o W w or - . _), found 'Q'"
    );
}

#[test]
fn obf_annotations() {
    let p = parse_position(&format!("{}; F5:+0; d3:-2; PS:-12;", START)).unwrap();
    assert_eq!(
        p.expected,
        vec![(Some(sq("f5")), 0), (Some(sq("d3")), -2), (None, -12)]
    );
    assert_eq!(p.final_score, None);
    assert_eq!(p.to_obf(), format!("{}; F5:+0; D3:-2; PS:-12;", START));
    let f = parse_position(&format!("{};+10;", START)).unwrap();
    assert_eq!(f.final_score, Some(10));
    assert_eq!(format_obf_final(&f.position, 10), format!("{START}; +10;"));
    assert_eq!(
        err(&format!("{START}; +10; -4;")),
        "<position>:1:74: expected at most one final score, found a second one '-4'"
    );
    assert_eq!(
        err(&format!("{START}; A2:+70;")),
        "<position>:1:72: expected a score from -64 to +64, found '+70'"
    );
    assert_eq!(
        err(&format!("{START}; Z9:+1;")),
        "<position>:1:69: expected a move score like 'A2:+38', 'PS:-12' or a final score like '+10', found 'Z9:+1'"
    );
}

#[test]
fn a_board_without_discs_cannot_occur_in_othello() {
    let empty = format!("{} X", "-".repeat(64));
    assert_eq!(
        err(&empty),
        "<position>:1: a board with no discs cannot occur in Othello (every game starts \
         with four; --rules reversi starts from the empty board)"
    );
    let reversi = parse_text_with(&empty, Source::inline(), REVERSI).unwrap();
    assert_eq!(reversi.position.board.empties(), 64);
}

#[test]
fn search_depth_comments_mark_approximate_scores() {
    let line = format!("{START}; +6; % search depth 4");
    let p = parse_position(&line).unwrap();
    assert_eq!((p.final_score, p.search_depth), (Some(6), Some(4)));
    assert_eq!(p.to_obf(), line);
    let exact = parse_position(&format!("{START}; +6; % from ffo")).unwrap();
    assert_eq!(exact.search_depth, None);
    // As `osolve analyze --depth 12` marks its estimates.
    let estimate =
        parse_position(&format!("{START}; D3:+2; C4:+2; % estimate (depth 12)")).unwrap();
    assert_eq!(estimate.search_depth, Some(12));
    let odd = parse_position(&format!("{START}; +6; % estimate (depth twelve)")).unwrap();
    assert_eq!(odd.search_depth, None);
}

#[test]
fn edax_sentinel_ends_the_scores() {
    // Edax's problem files close a move list with `--:-127`: no more scores, not a pass.
    let p = parse_position(&format!("{START}; F5:+0; D3:-2; --:-127;")).unwrap();
    assert_eq!(p.expected, vec![(Some(sq("f5")), 0), (Some(sq("d3")), -2)]);
    let only = parse_position(&format!("{START}; --:-127;")).unwrap();
    assert_eq!(only.expected, vec![]);
    assert_eq!(only.to_obf(), format!("{START};"));
    // Any other out-of-range score of a pass is still an error.
    assert_eq!(
        err(&format!("{START}; --:-128;")),
        "<position>:1:72: expected a score from -64 to +64, found '-128'"
    );
}

#[test]
fn board_errors() {
    assert_eq!(
        err(&format!("{} X", &START[..63])),
        "<position>:1: expected 64 board cells before the side to move, found 63"
    );
    assert_eq!(
        err(&format!("{}- X", &START[..64])),
        "<position>:1: expected 64 board cells before the side to move, found 65"
    );
    assert_eq!(
        err(&format!("{} Q", &START[..64])),
        "<position>:1:66: expected the side to move (X/B/black or O/W/white), found 'Q'"
    );
    assert_eq!(
        err(&format!("{} purple", &START[..64])),
        "<position>:1:66: expected a board cell (X x * B b, O o W w or - . _), found 'p'"
    );
    assert_eq!(
        err(&START[..64]),
        "<position>:1:65: expected the side to move (X/B/black or O/W/white) after the 64 cells, found end of line"
    );
    assert_eq!(
        err("   "),
        "<position>:1: expected a position (a board string, an OBF line or a move transcript), found nothing"
    );
}

#[test]
fn a_side_glued_to_too_few_or_too_many_cells_is_counted_with_them() {
    // `XXXX`: four characters, not "3 cells" with the last X read as the side.
    assert_eq!(
        err("XXXX"),
        "<position>:1: expected 64 board cells and the side to move, found 4 characters"
    );
    assert_eq!(
        err(&format!("{}-X", &START[..64])),
        "<position>:1: expected 64 board cells and the side to move, found 66 characters"
    );
    // 64 cells ending in a disc and no side: the disc was read as the side, and the side is
    // what is missing (before, this said "found 63").
    let ends_in_disc = format!("{}X", &START[..63]);
    assert_eq!(
        err(&ends_in_disc),
        "<position>:1:65: expected the side to move (X/B/black or O/W/white) after the 64 cells, found end of line"
    );
    // With a space before the side, the count is the cells' alone, as before.
    assert_eq!(
        err("XXXX O"),
        "<position>:1: expected 64 board cells before the side to move, found 4"
    );
    // 64 cells and a glued side still read.
    let glued = parse_position(&format!("{}X", &START[..64])).unwrap();
    assert_eq!(glued.position.to_move, Color::Black);
    assert_eq!(glued.position.board.empties(), 60);
}

#[test]
fn transcripts() {
    let p = parse_position("f5d6c3d3c4f4f6f3e6e7").unwrap();
    let q = parse_position("F5 D6, C3 d3 c4 f4 f6 f3 e6 e7").unwrap();
    assert_eq!(p.position, q.position);
    assert_eq!(p.position.to_move, Color::Black);
    assert_eq!(p.position.board.empties(), 50);
    assert_eq!(
        err("f5d6c3d3c9"),
        "<position>:1:9: move 5 (c9): expected a square a1..h8 or a pass (pa, ps, --)"
    );
    assert_eq!(
        err("f5 d6 c3 d3 c4 f4 h8"),
        "<position>:1:19: move 7: h8 is not legal: black to move, it flips nothing"
    );
    assert_eq!(
        err("f5 pa"),
        "<position>:1:4: move 2: pa is not legal: white has a legal move"
    );
    assert_eq!(
        err("f5d6c"),
        "<position>:1:5: move 3 (c): expected a square a1..h8 or a pass (pa, ps, --)"
    );
    assert_eq!(
        parse_transcript("").unwrap_err().to_string(),
        "<position>:1: expected a move transcript, found no moves"
    );
}

#[test]
fn passes_in_transcripts() {
    // After these 8 moves black has no move and white has: the pass may be left out.
    let opening = "c4 c3 c2 b2 e6 c1 a1 a3";
    let stuck = parse_position(opening).unwrap().position;
    assert_eq!(stuck.board.moves(), 0);
    let implicit = parse_position(&format!("{opening} c5")).unwrap().position;
    for pass in ["pa", "PS", "--"] {
        let explicit = parse_position(&format!("{opening} {pass} c5")).unwrap();
        assert_eq!(explicit.position, implicit);
    }
    assert_eq!(implicit.to_move, Color::Black);
    // A square after the pass left out is white's: why it is not legal says so.
    assert_eq!(
        err(&format!("{opening} h8")),
        "<position>:1:25: move 9: h8 is not legal: black must pass; white to move, it flips \
         nothing"
    );
    assert_eq!(
        err(&format!("{opening} pa c5 a1")),
        "<position>:1:31: move 11: a1 is not legal: black to move, the square is taken"
    );
    // A 9-move game that ends with white wiped out.
    let game = "c4 c3 c2 b4 a5 f4 g4 c5 d6";
    let over = parse_position(game).unwrap().position;
    assert!(over.board.is_game_over());
    assert_eq!(over.white(), 0);
    assert_eq!(
        err(&format!("{game} a1")),
        "<position>:1:28: move 10: a1 is not legal: the game is already over"
    );
    assert_eq!(
        err(&format!("{game} --")),
        "<position>:1:28: move 10: -- is not legal: the game is already over"
    );
}

#[test]
fn supplies_after_the_side() {
    let board = &START[..64];
    let reversi = |text: &str| parse_text_with(text, Source::inline(), REVERSI);
    // Under Othello rules they are read and never matter.
    let p = parse_position(&format!("{board} X 29 31")).unwrap();
    assert_eq!(p.position, Position::start());
    assert_eq!(p.position.supplies(), None);
    let p = reversi(&format!("{board} X 29 31")).unwrap();
    assert_eq!(
        p.position.supplies(),
        Some(Supplies {
            black: 29,
            white: 31
        })
    );
    assert_eq!(
        format_board_with_supplies(&p.position, p.position.supplies().unwrap()),
        format!("{START} 29 31")
    );
    // Glued side, and an OBF line.
    let glued = reversi(&format!("{board}X 30 30; F5:+0;")).unwrap();
    assert_eq!(glued.expected.len(), 1);
    assert_eq!(glued.position.supplies().map(|s| s.black), Some(30));
    assert_eq!(
        err(&format!("{board} X 33 27")),
        "<position>:1:68: expected the discs left to black and to white after the side to \
         move, each from 0 to 32 (such as 'X 5 7'), found '33'"
    );
    assert_eq!(
        err(&format!("{board} black 5")),
        "<position>:1:72: expected the discs left to black and to white after the side to \
         move, each from 0 to 32 (such as 'X 5 7'), found '5'"
    );
    // Under Reversi rules they must add up to the empty squares.
    assert_eq!(
        reversi(&format!("{board} X 5 7")).unwrap_err().to_string(),
        "<position>:1: expected the discs left (black 5 + white 7 = 12) to equal the 60 \
         empty squares, since every disc placed fills one"
    );
    assert_eq!(
        reversi(START).unwrap().position.supplies(),
        Some(Supplies {
            black: 30,
            white: 30
        })
    );
}

#[test]
fn reversi_transcripts_start_from_the_empty_board() {
    let reversi = |text: &str| parse_text_with(text, Source::inline(), REVERSI);
    let p = reversi("d4 e4 e5 d5 c5").unwrap();
    assert_eq!(p.position.board.empties(), 59);
    assert_eq!(p.position.to_move, Color::White);
    // black d4 e5, white e4 d5; c5 flips d5.
    assert_eq!(p.position.black().count_ones(), 4);
    assert_eq!(
        p.position.supplies(),
        Some(Supplies {
            black: 29,
            white: 30
        })
    );
    assert_eq!(
        reversi("d4 c4").unwrap_err().to_string(),
        "<position>:1:4: move 2: c4 is not legal: the first four moves go on d4 e4 d5 e5"
    );
    // Under Othello rules the same text is a game from the standard start.
    assert_eq!(
        err("d4"),
        "<position>:1:1: move 1: d4 is not legal: black to move, the square is taken"
    );
    assert_eq!(
        reversi("d4 d4").unwrap_err().to_string(),
        "<position>:1:4: move 2: d4 is not legal: white to move, the square is taken"
    );
}

#[test]
fn plus_marks_read_as_empty() {
    let marked = START.replacen('-', "+", 3);
    assert_eq!(parse_position(&marked).unwrap().position, Position::start());
}

#[test]
fn reader_skips_comments_and_counts_lines() {
    let text = format!("# header\n\n% edax comment\n{START}\n  \r\nf5d6\r\n");
    let items: Vec<_> = PositionReader::new(text.as_bytes(), "x.txt").collect();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].as_ref().unwrap().source.to_string(), "x.txt:4");
    assert_eq!(items[1].as_ref().unwrap().source.to_string(), "x.txt:6");
}

#[test]
fn open_path_names_missing_files() {
    let e = open_path("/nonexistent/osolve.obf").unwrap_err();
    assert!(
        e.to_string().starts_with("/nonexistent/osolve.obf: "),
        "{e}"
    );
}
