//! End-to-end tests of the notation layer: every notation round-trips through its text form,
//! real FFO lines parse with every legal move annotated, malformed input gives located errors,
//! files stream with correct line numbers, the shipped samples parse, and no bytes can panic it.

use std::io::{BufReader, Cursor};

use osolve::board::random::Rng;
use osolve::board::{Color, Position, Square};
use osolve::notation::{
    format_board, format_obf, format_obf_final, open_path, parse_position, parse_text,
    parse_transcript, Expected, Illegal, ParseError, ParseErrorKind, Parsed, PositionReader,
    Source, MAX_LINE_LEN,
};
use proptest::prelude::*;

mod common;
use common::{root, run_with_input, sq};

/// FFO #1-#3, #18 (white to move) and #40-#41 as Edax writes them.
const FFO: [&str; 6] = [
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;",
    "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;",
    "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X; D1:+2; G3:+0; B8:-2; B1:-4; C1:-4; A2:-4; A3:-6; B2:-12;",
    "---X-X--X-XXXX--XXXXOXXXXXXOOOOOXXOXXXO-XOXXXXO-XOOXXX--XOOXXO-- O; E1:+8; H2:+4; G2:+4; B2:+4; G7:+4; B1:+2; G1:-6; C1:-8;",
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34; C1:+30; B1:+30; G7:+28; D7:+28; C6:+28; F7:+26; A6:+24;",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X; H4:+0; H3:-2; F8:-2; G5:-4; B7:-6; G7:-8; G1:-12; A2:-14; A7:-18; B2:-34;",
];

const START: &str = "---------------------------OX------XO--------------------------- X";

fn read(text: &[u8], name: &str) -> Vec<Result<Parsed, ParseError>> {
    PositionReader::new(text, name).collect()
}

fn message(item: &Result<Parsed, ParseError>) -> String {
    item.as_ref().unwrap_err().to_string()
}

/// One of `items`, at random.
fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// A random game of `plies` moves: the transcript tokens (passes written as `None`) and the
/// position reached by playing them with the board API.
fn random_game(rng: &mut Rng, plies: usize) -> (Vec<Option<Square>>, Position) {
    let mut position = Position::start();
    let mut moves = Vec::new();
    while moves.iter().flatten().count() < plies {
        let legal = position.board.moves();
        if legal == 0 {
            if position.pass().board.moves() == 0 {
                break;
            }
            moves.push(None);
            position = position.pass();
            continue;
        }
        let choices: Vec<Square> = Square::iter(legal).collect();
        let square = choices[rng.below(choices.len())];
        moves.push(Some(square));
        position = position.play(square).unwrap();
    }
    (moves, position)
}

/// The transcript in a random style: case, separators, passes written or left out.
fn write_transcript(rng: &mut Rng, moves: &[Option<Square>]) -> String {
    let separator = pick(rng, &["", " ", ", ", ","]);
    let upper = rng.below(2) == 0;
    let tokens: Vec<String> = moves
        .iter()
        .filter_map(|mv| match mv {
            Some(square) if upper => Some(square.upper()),
            Some(square) => Some(square.to_string()),
            None if rng.below(2) == 0 => None,
            None => Some(pick(rng, &["pa", "PS", "--"]).to_string()),
        })
        .collect();
    tokens.join(separator)
}

/// The board string with every cell and the side spelled by a random synonym.
fn write_synonyms(rng: &mut Rng, position: &Position) -> String {
    let text = format_board(position);
    let (cells, side) = text.split_at(64);
    let mut out: String = cells
        .chars()
        .map(|c| match c {
            'X' => pick(rng, &["X", "x", "*", "B", "b"]),
            'O' => pick(rng, &["O", "o", "W", "w"]),
            _ => pick(rng, &["-", ".", "_"]),
        })
        .collect();
    out.push_str(match (side.trim(), rng.below(3)) {
        ("X", 0) => " black",
        ("X", 1) => " B",
        ("X", _) => " x",
        (_, 0) => " WHITE",
        (_, 1) => " w",
        _ => " O",
    });
    out
}

/// An 8-line diagram of the board string, with coordinates or without.
fn write_diagram(position: &Position, coordinates: bool) -> String {
    let text = format_board(position);
    let mut out = String::new();
    if coordinates {
        out.push_str("  a b c d e f g h\n");
    }
    for row in 0..8 {
        let cells: Vec<String> = text[row * 8..row * 8 + 8]
            .chars()
            .map(String::from)
            .collect();
        if coordinates {
            out.push_str(&format!("{} {} {}\n", row + 1, cells.join(" "), row + 1));
        } else {
            out.push_str(&cells.concat());
            out.push('\n');
        }
    }
    out.push_str(if position.to_move == Color::Black {
        "black\n"
    } else {
        "white\n"
    });
    out
}

#[test]
fn ffo_lines_parse_with_every_legal_move_scored() {
    for line in FFO {
        let parsed = parse_position(line).unwrap();
        let legal = parsed.position.board.moves();
        let annotated = parsed
            .expected
            .iter()
            .fold(0u64, |bits, (mv, _)| bits | mv.unwrap().bit());
        assert_eq!(annotated, legal, "{line}");
        assert_eq!(parsed.expected.len() as u32, legal.count_ones());
        assert!(parsed.expected.windows(2).all(|w| w[0].1 >= w[1].1));
        // Our writer reproduces Edax's line byte for byte.
        assert_eq!(format_obf(&parsed.position, &parsed.expected), line);
        assert_eq!(parsed.to_obf(), line);
    }
    let first = parse_position(FFO[0]).unwrap();
    assert_eq!(first.position.to_move, Color::Black);
    assert_eq!(first.position.board.empties(), 14);
    assert_eq!(first.expected[0], (Some(sq("g8")), 18));
    assert_eq!(
        parse_position(FFO[3]).unwrap().position.to_move,
        Color::White
    );
}

#[test]
fn board_strings_round_trip() {
    let mut rng = Rng(0x5EED);
    for _ in 0..500 {
        let plies = rng.below(61);
        let (_, position) = random_game(&mut rng, plies);
        let text = format_board(&position);
        assert_eq!(parse_position(&text).unwrap().position, position);
        let synonyms = write_synonyms(&mut rng, &position);
        assert_eq!(
            parse_position(&synonyms).unwrap().position,
            position,
            "{synonyms}"
        );
        for coordinates in [false, true] {
            let diagram = write_diagram(&position, coordinates);
            let parsed = parse_position(&diagram).unwrap().position;
            assert_eq!(parsed, position, "{diagram}");
            assert_eq!(format_board(&parsed), text);
        }
    }
}

#[test]
fn transcripts_round_trip() {
    let mut rng = Rng(42);
    for _ in 0..500 {
        let plies = 1 + rng.below(60);
        let (moves, position) = random_game(&mut rng, plies);
        let text = write_transcript(&mut rng, &moves);
        let parsed = parse_position(&text).unwrap();
        assert_eq!(parsed.position, position, "{text}");
        assert!(parsed.expected.is_empty() && parsed.final_score.is_none());
        assert_eq!(parse_transcript(&text).unwrap(), position);
        let board = format_board(&parsed.position);
        assert_eq!(parse_position(&board).unwrap().position, position);
    }
}

#[test]
fn obf_annotations_round_trip() {
    let mut rng = Rng(7);
    for _ in 0..300 {
        let plies = rng.below(61);
        let (_, position) = random_game(&mut rng, plies);
        let mut expected: Vec<Expected> = Square::iter(position.board.moves())
            .map(|square| (Some(square), rng.below(129) as i32 - 64))
            .collect();
        if expected.is_empty() && !position.board.is_game_over() {
            expected.push((None, rng.below(129) as i32 - 64));
        }
        let line = format_obf(&position, &expected);
        let parsed = parse_position(&line).unwrap();
        assert_eq!(parsed.position, position);
        assert_eq!(parsed.expected, expected, "{line}");
        assert_eq!(parsed.to_obf(), line);

        let score = rng.below(129) as i32 - 64;
        let final_line = format_obf_final(&position, score);
        let parsed = parse_position(&final_line).unwrap();
        assert_eq!(parsed.position, position);
        assert_eq!(parsed.final_score, Some(score));
        assert!(parsed.expected.is_empty());
        assert_eq!(parsed.to_obf(), final_line);
    }
}

#[test]
fn obf_writing_conventions() {
    let start = Position::start();
    let line = format_obf(
        &start,
        &[(Some(sq("f5")), 0), (Some(sq("d3")), -2), (None, 12)],
    );
    assert_eq!(line, format!("{START}; F5:+0; D3:-2; PS:+12;"));
    assert_eq!(format_obf_final(&start, 0), format!("{START}; +0;"));
    assert_eq!(format_obf(&start, &[]), format!("{START};"));
    let pass = parse_position(&format!("{START}; ps:-12")).unwrap();
    assert_eq!(pass.expected, vec![(None, -12)]);
    let bare = parse_position(&format!("{START}; +10")).unwrap();
    assert_eq!(bare.final_score, Some(10));
}

#[test]
fn malformed_lines_are_located_and_explained() {
    let cells = &START[..64];
    let text = format!(
        "% problems\n{START}\n{} X\n{cells} Q\n{}Z{} X\nf5 d6 c3 d3 c4 f4 a1\nf5d6c3d3c9\n{START}; A2:+99;\n",
        &cells[..63],
        &cells[..10],
        &cells[11..]
    );
    let items = read(text.as_bytes(), "bad.obf");
    assert_eq!(items.len(), 7);
    assert!(items[0].is_ok());
    assert_eq!(
        message(&items[1]),
        "bad.obf:3: expected 64 board cells before the side to move, found 63"
    );
    assert_eq!(
        message(&items[2]),
        "bad.obf:4:66: expected the side to move (X/B/black or O/W/white), found 'Q'"
    );
    assert_eq!(
        message(&items[3]),
        "bad.obf:5:11: expected a board cell (X x * B b, O o W w or - . _), found 'Z'"
    );
    assert_eq!(
        message(&items[4]),
        "bad.obf:6:19: move 7: a1 is not legal: black to move, it flips nothing"
    );
    assert_eq!(
        message(&items[5]),
        "bad.obf:7:9: move 5 (c9): expected a square a1..h8 or a pass (pa, ps, --)"
    );
    assert_eq!(
        message(&items[6]),
        "bad.obf:8:72: expected a score from -64 to +64, found '+99'"
    );
    let error = items[4].as_ref().unwrap_err();
    assert_eq!(error.at, Source::new("bad.obf", 6));
    assert_eq!(error.column, Some(19));
    assert_eq!(
        error.kind,
        ParseErrorKind::IllegalMove {
            number: 7,
            found: "a1".into(),
            passed: None,
            why: Illegal::FlipsNothing(Color::Black),
        }
    );
}

#[test]
fn inline_text_errors() {
    assert_eq!(
        parse_position("").unwrap_err().to_string(),
        "<position>:1: expected a position (a board string, an OBF line or a move transcript), found nothing"
    );
    assert_eq!(
        parse_transcript("  ").unwrap_err().to_string(),
        "<position>:1: expected a move transcript, found no moves"
    );
    assert_eq!(
        parse_position("f5 d6 c3 d3 c4 f4 e3 a8")
            .unwrap_err()
            .to_string(),
        "<position>:1:22: move 8: a8 is not legal: white to move, it flips nothing"
    );
    let at = parse_text("f5 f5", Source::new("game.txt", 12)).unwrap_err();
    assert_eq!(
        at.to_string(),
        "game.txt:12:4: move 2: f5 is not legal: white to move, the square is taken"
    );
}

#[test]
fn invalid_utf8_is_an_error_for_its_line_only() {
    let mut text = b"f5d6\nf5\xffd6\n".to_vec();
    text.extend_from_slice(START.as_bytes());
    text.push(b'\n');
    let items = read(&text, "bad.txt");
    assert_eq!(items.len(), 3);
    assert_eq!(
        message(&items[1]),
        "bad.txt:2:3: expected UTF-8 text, found the byte 0xff"
    );
    assert_eq!(items[2].as_ref().unwrap().source.to_string(), "bad.txt:3");
    // A comment is skipped whatever its encoding.
    assert!(read(b"% caf\xe9\nf5\n", "latin1.obf")[0].is_ok());
}

#[test]
fn a_ten_megabyte_line_is_an_error_not_a_panic() {
    let mut text = vec![b'-'; 10 << 20];
    text.extend_from_slice(b"\nf5\n");
    let mut reader = PositionReader::new(
        BufReader::with_capacity(1 << 16, Cursor::new(text)),
        "huge.txt",
    );
    let first = reader.next().unwrap();
    assert_eq!(
        message(&first),
        format!("huge.txt:1: expected a line of at most {MAX_LINE_LEN} bytes, found a longer one")
    );
    let second = reader.next().unwrap().unwrap();
    assert_eq!(second.source.to_string(), "huge.txt:2");
    assert!(reader.next().is_none());
}

#[test]
fn empty_files_and_skipped_lines() {
    assert!(read(b"", "empty.obf").is_empty());
    assert!(read(b"\n\n  \n# only comments\n% and more\n", "c.obf").is_empty());
    let text =
        format!("# header\n\n% note\n{START}\n\r\n  # indented comment\nf5d6\n\n{START}; +0;");
    let items = read(text.as_bytes(), "mixed.txt");
    let lines: Vec<String> = items
        .iter()
        .map(|item| item.as_ref().unwrap().source.to_string())
        .collect();
    assert_eq!(lines, ["mixed.txt:4", "mixed.txt:7", "mixed.txt:9"]);
}

#[test]
fn crlf_files_and_trailing_comments() {
    let text = format!("{START}\r\nf5d6 % perpendicular\r\n{START}; F5:+0; # scored\r\n");
    let items = read(text.as_bytes(), "dos.txt");
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].as_ref().unwrap().position, Position::start());
    assert_eq!(
        items[1].as_ref().unwrap().position,
        parse_position("f5d6").unwrap().position
    );
    assert_eq!(
        items[2].as_ref().unwrap().expected,
        vec![(Some(sq("f5")), 0)]
    );
}

#[test]
fn samples_parse() {
    let dir = root().join("positions/samples");
    let mut total = 0;
    for (name, expected) in [
        ("board-strings.txt", 5),
        ("ffo-sample.obf", 9),
        ("transcripts.txt", 6),
        ("mixed.txt", 6),
    ] {
        let path = dir.join(name);
        let items: Vec<Parsed> = open_path(&path)
            .unwrap()
            .map(|item| item.unwrap_or_else(|e| panic!("{e}")))
            .collect();
        assert_eq!(items.len(), expected, "{name}");
        assert!(items.iter().all(|p| p.source.name.ends_with(name)));
        total += items.len();
    }
    assert_eq!(total, 26);

    let boards: Vec<Parsed> = open_path(dir.join("board-strings.txt"))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(boards[..3].iter().all(|p| p.position == Position::start()));
    assert_eq!(boards[3].position, parse_position("f5d6").unwrap().position);
    let games: Vec<Parsed> = open_path(dir.join("transcripts.txt"))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(games[0].position.board.empties(), 50);
    assert_eq!(games[1].position.board.empties(), 48);
    assert_eq!(games[3].position, games[4].position);
    assert!(games[5].position.board.is_game_over());
}

#[test]
fn missing_files_are_named() {
    let error = open_path("no/such/file.obf").unwrap_err();
    assert!(
        error.to_string().starts_with("no/such/file.obf: "),
        "{error}"
    );
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
        capacity in 1usize..40,
        max_line in 0usize..120,
    ) {
        let reader = PositionReader::new(BufReader::with_capacity(capacity, &bytes[..]), "fuzz")
            .with_max_line_len(max_line);
        let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
        let mut last = 0;
        for item in reader {
            let line = match &item {
                Ok(parsed) => parsed.source.line,
                Err(error) => error.at.line,
            };
            prop_assert!(line > last && line <= newlines + 1);
            last = line;
            if let Err(error) = item {
                let _ = error.to_string();
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[-XOxobw.*_ \\na-h1-9;:+PS%#]{0,200}") {
        if let Err(error) = parse_position(&text) {
            let _ = error.to_string();
        }
    }

    #[test]
    fn near_board_strings_never_panic(
        cells in "[-XO]{60,68}",
        tail in "[ XOQ;:+0-9A-H\\t]{0,20}",
    ) {
        let _ = parse_position(&format!("{cells}{tail}"));
    }
}

/// Runs `osolve ARGS` with `stdin` as standard input; its standard output, after checking it
/// succeeded.
fn osolve_output(args: &[&str], stdin: &str) -> String {
    let (code, stdout, stderr) = run_with_input(args, stdin);
    assert_eq!(code, 0, "osolve {args:?}: {stderr}");
    stdout
}

/// Positions whose diagrams are printed and read back: the start, FFO #18 (white to move),
/// FFO #40 (20 empties), one where white must pass and a finished game (which the diagram
/// shows as `game over`, read back with black to move).
fn printed_positions() -> Vec<Position> {
    let must_pass = format!("{}OO- O", "X".repeat(61));
    let over = format!("{}OO X", "X".repeat(62));
    let positions: Vec<Position> = [START, FFO[3], FFO[4], &must_pass, &over]
        .iter()
        .map(|text| parse_position(text).unwrap().position)
        .collect();
    assert_eq!(positions[1].to_move, Color::White);
    assert!(positions[3].board.moves() == 0 && !positions[3].board.is_game_over());
    assert!(positions[4].board.is_game_over());
    positions
}

/// The position a printed diagram reads back as, with `-p`'s parser.
fn read_back(printed: &str) -> Position {
    match parse_position(printed.trim_end()) {
        Ok(parsed) => parsed.position,
        Err(e) => panic!("{e}\n{printed}"),
    }
}

#[test]
fn printed_diagrams_read_back_as_the_same_position() {
    for position in printed_positions() {
        let board = format_board(&position);
        let mut forms = vec![("show", osolve_output(&["show", "-p", &board], ""))];
        if position.board.empties() <= 20 && !position.board.is_game_over() {
            for flag in ["--analyze", "--solve"] {
                forms.push((flag, osolve_output(&["show", "-p", &board, flag], "")));
            }
        }
        let session = format!("osolve-position {board}\nshowboard\nquit\n");
        let gtp = osolve_output(&["gtp"], &session);
        // The answer to `showboard`: from its `=` to the blank line that ends it.
        let answer = gtp.split("\n\n").nth(1).expect("a showboard answer");
        forms.push(("showboard", answer.to_string()));
        for (form, printed) in forms {
            let back = read_back(&printed);
            assert_eq!(back.board, position.board, "{form}:\n{printed}");
            if !position.board.is_game_over() {
                assert_eq!(back, position, "{form}:\n{printed}");
            } else {
                assert_eq!(back.to_move, Color::Black, "{form}:\n{printed}");
                assert_eq!(
                    (back.black(), back.white()),
                    (position.black(), position.white()),
                    "{form}:\n{printed}"
                );
            }
        }
    }
}

#[test]
fn a_printed_diagram_is_a_position_for_every_command() {
    // `show`'s whole output, source line and counts line included, solved with `-p`.
    let printed = osolve_output(&["show", "-p", FFO[4], "--analyze"], "");
    let solved = osolve_output(
        &["solve", "-q", "--threads", "1", "-p", printed.trim_end()],
        "",
    );
    assert!(solved.contains("score +38"), "{solved}");
}
