//! Board pictures end to end: `osolve show --svg` (plain, `--analyze`, `--solve`, Reversi) and
//! `osolve analyze --svg DIR` write SVG documents that parse as XML and hold exactly the discs,
//! legal-move dots, scores (the best ones marked) and numbered PV steps of the position; the
//! terminal diagram of `show` without a terminal is plain text with the same scores; `--png`
//! in a build without the feature says how to get it.

use std::path::Path;

use osolve::board::Square;
use osolve::notation::parse_position;

mod common;
use common::{root, run, solver, temp_dir};

/// FFO #1 (14 empties, black to move): G8 +18 is the only best move.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/// What a picture holds, counted from its parsed XML.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    black: usize,
    white: usize,
    legal: usize,
    /// Score labels: (square centre, text, best).
    scores: Vec<((i32, i32), String, bool)>,
    steps: usize,
}

/// Parses `path` as XML (failing the test if it is not) and counts its classed elements.
fn counts(path: &Path) -> Counts {
    let text = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert_eq!(root.attribute("viewBox"), Some("0 0 456 508"));
    let mut counts = Counts::default();
    for node in document.descendants().filter(|n| n.is_element()) {
        match node.attribute("class") {
            Some("disc black") => counts.black += 1,
            Some("disc white") => counts.white += 1,
            Some("legal") => counts.legal += 1,
            Some("step") => counts.steps += 1,
            Some(class @ ("score" | "score best")) => {
                let x: i32 = node.attribute("x").unwrap().parse().unwrap();
                let y: i32 = node.attribute("y").unwrap().parse().unwrap();
                counts.scores.push((
                    (x, y),
                    node.text().unwrap().to_string(),
                    class == "score best",
                ));
            }
            _ => {}
        }
    }
    counts
}

/// The square under a score label (labels sit 7 below the square's centre).
fn square_at((x, y): (i32, i32)) -> Square {
    Square::at(((x - 28) / 50) as usize, ((y - 7 - 28) / 50) as usize).unwrap()
}

#[test]
fn plain_pictures_hold_the_discs_and_legal_moves() {
    let dir = temp_dir();
    let out = dir.path().join("plain.svg");
    let (code, _, err) = run(&[
        "show",
        "-p",
        FFO_1,
        "--svg",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let position = parse_position(FFO_1).unwrap().position;
    let c = counts(&out);
    assert_eq!(c.black, position.black().count_ones() as usize);
    assert_eq!(c.white, position.white().count_ones() as usize);
    assert_eq!(c.legal, position.board.moves().count_ones() as usize);
    assert!(c.scores.is_empty() && c.steps == 0);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("<title>&lt;position&gt;:1: black to move</title>"));
}

#[test]
fn analysis_pictures_write_every_exact_score_on_its_square() {
    let dir = temp_dir();
    let out = dir.path().join("analysis.svg");
    let (code, stdout, err) = run(&[
        "show",
        "--analyze",
        "-p",
        FFO_1,
        "--svg",
        out.to_str().unwrap(),
        "--hash-mb",
        "16",
    ]);
    assert_eq!(code, 0, "{err}");
    let position = parse_position(FFO_1).unwrap().position;
    let mut solver = solver(1, 16);
    let (expected, _) = solver.score_moves(&position).unwrap();
    let c = counts(&out);
    assert_eq!(c.scores.len(), expected.len());
    assert_eq!(c.legal, 0);
    for (at, text, best) in &c.scores {
        let square = square_at(*at);
        let want = expected.iter().find(|m| m.mv == Some(square)).unwrap();
        assert_eq!(text, &format!("{:+}", want.score), "{square}");
        assert_eq!(*best, want.score == 18, "{square}");
    }
    assert_eq!(c.scores.iter().filter(|s| s.2).count(), 1);
    // The terminal diagram (not a terminal here: plain) has the same scores on its squares.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[1], "    a   b   c   d   e   f   g   h");
    assert_eq!(lines[9], "8   -   O   O   O   O   O +18   -");
    assert_eq!(lines[11], "best g8 +18");
    assert!(!stdout.contains('\x1b'));
}

#[test]
fn solve_pictures_number_the_principal_variation() {
    let dir = temp_dir();
    let out = dir.path().join("pv.svg");
    let (code, stdout, err) = run(&[
        "show",
        "--solve",
        "-p",
        FFO_1,
        "--svg",
        out.to_str().unwrap(),
        "--hash-mb",
        "16",
    ]);
    assert_eq!(code, 0, "{err}");
    let c = counts(&out);
    let caption = stdout.lines().find(|l| l.starts_with("score ")).unwrap();
    assert!(caption.starts_with("score +18  pv g8 "), "{caption}");
    let placements = caption
        .split_whitespace()
        .skip(3)
        .filter(|m| *m != "--")
        .count();
    assert_eq!(c.steps, placements);
    assert_eq!(c.steps, 14, "the game ends with the board full");
    let text = std::fs::read_to_string(&out).unwrap();
    for number in 1..=14 {
        assert!(text.contains(&format!(">{number}</text>")), "{number}");
    }
}

#[test]
fn reversi_pictures_and_a_directory_for_several_positions() {
    let dir = temp_dir();
    let pictures = dir.path().join("pictures");
    let (code, _, err) = run(&[
        "show",
        "--rules",
        "reversi",
        "-p",
        "d4 e4",
        "-p",
        "d4 e4 e5 d5",
        "--svg",
        pictures.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let first = counts(&pictures.join("position-01.svg"));
    // Two discs, and the two empty centre squares are the only moves.
    assert_eq!((first.black, first.white, first.legal), (1, 1, 2));
    let second = counts(&pictures.join("position-02.svg"));
    assert_eq!((second.black, second.white, second.legal), (2, 2, 4));
    let text = std::fs::read_to_string(pictures.join("position-01.svg")).unwrap();
    assert!(text.contains("discs left: black 31, white 31"), "{text}");
}

#[test]
fn analyze_writes_one_picture_per_position() {
    let dir = temp_dir();
    let pictures = dir.path().join("svg");
    let input = root().join("positions/ffo-1-19.obf");
    let lines = std::fs::read_to_string(&input).unwrap();
    let first_three: Vec<&str> = lines.lines().take(3).collect();
    let file = dir.path().join("three.obf");
    std::fs::write(&file, first_three.join("\n")).unwrap();
    let (code, _, err) = run(&[
        "analyze",
        file.to_str().unwrap(),
        "--svg",
        pictures.to_str().unwrap(),
        "--quiet",
        "--hash-mb",
        "16",
        "--check",
    ]);
    assert_eq!(code, 0, "{err}");
    for (k, line) in first_three.iter().enumerate() {
        let parsed = parse_position(line).unwrap();
        let c = counts(&pictures.join(format!("position-{:02}.svg", k + 1)));
        assert_eq!(c.scores.len(), parsed.expected.len());
        let best = parsed.expected.iter().map(|e| e.1).max().unwrap();
        for (at, text, is_best) in &c.scores {
            let square = square_at(*at);
            let want = parsed
                .expected
                .iter()
                .find(|e| e.0 == Some(square))
                .unwrap();
            assert_eq!(text, &format!("{:+}", want.1));
            assert_eq!(*is_best, want.1 == best);
        }
    }
}

#[test]
fn a_picture_that_cannot_be_written_is_refused_before_the_analysis() {
    let dir = temp_dir();
    let svg = dir.path().join("no-such-dir").join("ffo-1.svg");
    let (code, out, err) = run(&[
        "show",
        "-p",
        FFO_1,
        "--analyze",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        format!(
            "osolve: cannot write {}: No such file or directory (os error 2)\n",
            svg.display()
        )
    );
    // Nothing was analysed: the diagram with the scores would come first.
    assert_eq!(out, "");
}

#[test]
fn png_without_the_feature_says_how_to_get_it() {
    if cfg!(feature = "png") {
        return;
    }
    let (code, _, err) = run(&["show", "-p", FFO_1, "--png", "x.png"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "osolve: --png needs osolve built with the png feature (cargo build --release \
         --features png); --svg works in every build"
    );
}

#[cfg(feature = "png")]
#[test]
fn png_pictures_render_at_the_svg_size() {
    let dir = temp_dir();
    let out = dir.path().join("board.png");
    let (code, _, err) = run(&[
        "show",
        "-p",
        FFO_1,
        "--png",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // The IHDR chunk: width and height, big-endian, at bytes 16..24.
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (456, 508));
}
