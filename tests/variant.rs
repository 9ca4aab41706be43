//! The rules variants end to end: Reversi perft from the empty board (small depths by hand, and
//! every depth to 9 against an independent decomposition into Othello perft counts), the one
//! solver under Reversi rules and raw scoring, through the `osolve` binary, against the literal
//! reference minimax (random positions with few empties, both scorings, supplies near
//! exhaustion), Reversi transcripts and disc supplies in the notation, `analyze --check` under
//! Reversi rules, and the Othello default path untouched by the new options.

use osolve::board::random::Rng;
use osolve::board::rules::{Rules, Scoring, Supplies, Variant};
use osolve::board::{Color, Position, Square};
use osolve::drivers::perft::perft;
use osolve::drivers::perft::perft_game_sequential;
use osolve::notation::{format_board_with_supplies, parse_text_with, Source};
use osolve::search::literal as reference;
use serde_json::Value;
use std::fs;

mod common;
use common::{root, run, sq, temp_dir, Background};

/// A Reversi game played at random from the empty board down to `empties` empty squares.
fn random_reversi(rng: &mut Rng, empties: u32) -> Position {
    'game: loop {
        let mut position = Position::start_of(Rules::Reversi);
        while position.board.empties() > empties {
            let moves = position.moves();
            if moves == 0 {
                if position.is_over() {
                    continue 'game;
                }
                position = position.pass();
                continue;
            }
            let square = Square::new(rng.pick(moves)).unwrap();
            position = position.play(square).unwrap();
        }
        return position;
    }
}

#[test]
fn reversi_perft_by_hand_and_through_the_binary() {
    let (code, out, _) = run(&["perft", "5", "--rules", "reversi"]);
    assert_eq!(code, 0);
    let leaves: Vec<u64> = out
        .lines()
        .skip(2)
        .map(|line| line.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    // The empty centre: 4 squares, then 3, 2, 1 (4, 12, 24, 24 sequences). The 24 ways to fill
    // it give 6 colourings, 4 sequences each: black's two discs crossed (2 colourings, the
    // Othello start and its mirror) or side by side (4). In both, black has exactly 4 moves:
    // 96 at depth 5.
    assert_eq!(leaves, [4, 12, 24, 24, 96]);
    assert!(out.starts_with(
        "perft from ---------------------------------------------------------------- X, black to move, 64 empties"
    ));
}

#[test]
fn reversi_perft_decomposes_into_othello_counts() {
    // After the opening, 8 sequences reach a crossed centre (the standard start up to symmetry)
    // and 16 a side-by-side centre; the supplies cannot run out this early, so the rest is
    // Othello, counted by the Othello perft (which shares no move code with the variant).
    let crossed = Position::start().board;
    let side_by_side = Position::from_colors(
        sq("d4").bit() | sq("e4").bit(),
        sq("d5").bit() | sq("e5").bit(),
        Color::Black,
    )
    .unwrap()
    .board;
    let start = Position::start_of(Rules::Reversi);
    for depth in 5..=9 {
        let expected = 8 * perft(crossed, depth - 4) + 16 * perft(side_by_side, depth - 4);
        assert_eq!(
            perft_game_sequential(&start, depth),
            expected,
            "depth {depth}"
        );
    }
    // The side-by-side start has 4 moves for black too, and 14 replies in all after them.
    assert_eq!(perft(side_by_side, 1), 4);
    assert_eq!(perft(side_by_side, 2), 14);
}

#[test]
fn the_binary_agrees_with_the_literal_minimax() {
    let mut rng = Rng(2024);
    let mut texts = Vec::new();
    let mut expected = Vec::new();
    for i in 0..12u32 {
        let empties = 4 + i % 6;
        let mut position = random_reversi(&mut rng, empties);
        if i % 3 == 2 {
            // Supplies near exhaustion: one side has a single disc for the empty squares.
            let e = empties as u8;
            let supplies = if i % 2 == 0 {
                Supplies {
                    black: 1,
                    white: e - 1,
                }
            } else {
                Supplies {
                    black: e - 1,
                    white: 1,
                }
            };
            position = position.with_rules(Rules::Reversi, Some(supplies)).unwrap();
        }
        let text = format_board_with_supplies(&position, position.supplies().unwrap());
        expected.push((
            minimax(&position, Scoring::Official),
            minimax(&position, Scoring::Raw),
        ));
        texts.push(text);
    }
    for (scoring, pick) in [("official", 0), ("raw", 1)] {
        let mut args = vec![
            "solve",
            "--json",
            "--rules",
            "reversi",
            "--scoring",
            scoring,
        ];
        for text in &texts {
            args.push("-p");
            args.push(text);
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let records: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), texts.len());
        for (record, want) in records.iter().zip(&expected) {
            let want = if pick == 0 { want.0 } else { want.1 };
            assert_eq!(record["score"], want, "{record}");
            assert_eq!(record["rules"], "reversi");
            assert_eq!(record["scoring"], scoring);
            let discs = &record["final_discs"];
            let (black, white, empty) = (
                discs["black"].as_i64().unwrap(),
                discs["white"].as_i64().unwrap(),
                discs["empty"].as_i64().unwrap(),
            );
            assert_eq!(black + white + empty, 64);
            let mover_diff = if record["side_to_move"] == "black" {
                black - white
            } else {
                white - black
            };
            // The final count is the discs on the board: raw is their difference, official adds
            // the empty squares for the winner.
            let official = mover_diff + mover_diff.signum() * empty;
            let from_count = if pick == 0 { official } else { mover_diff };
            assert_eq!(from_count, i64::from(want), "{record}");
        }
    }
}

#[test]
fn raw_scoring_counts_the_discs_on_the_board() {
    // Look for a position whose perfect play ends with empty squares, so the scorings differ.
    let mut rng = Rng(5);
    let found = (0..400)
        .map(|_| {
            let p = osolve::board::random::random_position(&mut rng, 9);
            p.with_rules(Rules::Othello, None).unwrap()
        })
        .find(|p| minimax(p, Scoring::Official) != minimax(p, Scoring::Raw))
        .expect("some position ends early");
    let text = osolve::notation::format_board(&found);
    let raw = minimax(&found, Scoring::Raw);
    let (code, out, _) = run(&["solve", "--quiet", "--scoring", "raw", "-p", &text]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!("<position>:1  score {raw:+} (black ")),
        "{out}"
    );
    assert!(out.contains(" empty)  best "), "{out}");
}

#[test]
fn reversi_transcripts_and_supplies_in_text() {
    // A transcript under Reversi rules starts from the empty board.
    let (code, out, _) = run(&["show", "--rules", "reversi", "-p", "d4 e4 e5 d5 c5 c4 c3"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    // Black d4 e5, white e4 d5; c5 flips d5, c4 flips d4, c3 flips d4 and c4: white keeps e4
    // and may play b4, c6 or e6.
    assert_eq!(lines[4], "3 - - X - - - - -");
    assert_eq!(lines[5], "4 - + X X O - - -");
    assert_eq!(lines[6], "5 - - X X X - - -");
    assert_eq!(lines[7], "6 - - + - + - - -");
    assert_eq!(
        lines[10],
        "black 6  white 1  empties 57  discs left: black 28, white 29  white to move"
    );
    // Under Othello rules d4 is not a legal first move.
    let (code, _, err) = run(&["solve", "-p", "d4 e4"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("move 1: d4 is not legal: black to move, the square is taken"),
        "{err}"
    );
    let (code, _, err) = run(&["solve", "--rules", "reversi", "-p", "d4 c3"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "osolve: <position>:1:4: move 2: c3 is not legal: the first four moves go on d4 e4 d5 e5 \
         (skipped)"
    );
    // Supplies that do not add up to the empty squares.
    let board = "XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOXOOOOOXXOX----OOOO----";
    let (code, _, err) = run(&[
        "solve",
        "--rules",
        "reversi",
        "-p",
        &format!("{board} X 5 5"),
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "osolve: <position>:1: expected the discs left (black 5 + white 5 = 10) to equal the 8 \
         empty squares, since every disc placed fills one (skipped)"
    );
    // Black with no disc left must pass although it has moves: white fills the board.
    let parsed = parse_text_with(&format!("{board} X 0 8"), Source::inline(), REVERSI).unwrap();
    let stuck = parsed
        .position
        .with_rules(Rules::Reversi, parsed.position.supplies())
        .unwrap();
    assert_ne!(parsed.position.board.moves(), 0);
    assert_eq!(stuck.moves(), 0);
    let (code, out, _) = run(&[
        "solve",
        "--json",
        "--rules",
        "reversi",
        "-p",
        &format!("{board} X 0 8"),
    ]);
    assert_eq!(code, 0);
    let record: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(record["best_move"], "--");
    assert_eq!(record["score"], minimax(&stuck, Scoring::Official));
    let pv = record["pv"].as_array().unwrap();
    // Black passes before every white move.
    for (ply, mv) in pv.iter().enumerate() {
        assert_eq!(mv == "--", ply % 2 == 0, "{pv:?}");
    }
}

#[test]
fn analyze_checks_its_own_reversi_output() {
    let dir = temp_dir();
    let input = dir.path().join("games.txt");
    let mut rng = Rng(77);
    // Games without a pass, whose supplies are the ones derived from the board alone.
    let lines: Vec<String> = (0..6)
        .map(|i| loop {
            let p = random_reversi(&mut rng, 6 + i % 4);
            if p.supplies() == Some(Supplies::derived(&p)) {
                break format_board_with_supplies(&p, p.supplies().unwrap());
            }
        })
        .collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = dir.path().join("scores.obf");
    let (code, _, err) = run(&[
        "analyze",
        input.to_str().unwrap(),
        "--rules",
        "reversi",
        "--scoring",
        "raw",
        "-o",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&out).unwrap();
    // The first line records the options (`% osolve analyze --rules reversi --scoring raw`).
    let records: Vec<&str> = written.lines().filter(|l| !l.starts_with('%')).collect();
    assert_eq!(records.len(), 6);
    // Every written score is the literal minimax of the move.
    for (line, text) in records.iter().zip(&lines) {
        let parsed = parse_text_with(text, Source::inline(), REVERSI).unwrap();
        let position = parsed
            .position
            .with_rules(Rules::Reversi, parsed.position.supplies())
            .unwrap();
        let scores = osolve::notation::parse_position(line).unwrap().expected;
        assert_eq!(scores.len() as u32, position.moves().count_ones().max(1));
        for (mv, score) in scores {
            let child = match mv {
                Some(square) => position.play(square).unwrap(),
                None => position.pass(),
            };
            assert_eq!(score, -minimax(&child, Scoring::Raw));
        }
    }
    // The OBF lines carry no supplies; the derived ones are the games' own, so the file checks
    // against itself.
    let (code, _, err) = run(&[
        "analyze",
        out.to_str().unwrap(),
        "--rules",
        "reversi",
        "--scoring",
        "raw",
        "--check",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("6 correct, 0 wrong"), "{err}");
}

#[test]
fn the_othello_default_path_is_unchanged() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let plain = run(&["solve", "--json", "--threads", "1", "-p", ffo1]);
    let explicit = run(&[
        "solve",
        "--json",
        "--threads",
        "1",
        "--rules",
        "othello",
        "--scoring",
        "official",
        "-p",
        ffo1,
    ]);
    let a: Value = serde_json::from_str(&plain.1).unwrap();
    let b: Value = serde_json::from_str(&explicit.1).unwrap();
    for field in ["score", "pv", "nodes", "final_discs"] {
        assert_eq!(a[field], b[field], "{field}");
    }
    // The fast solver's record has no variant fields.
    assert!(a.get("rules").is_none());
    assert_eq!(a["score"], 18);
    // The variant solver reaches the same score through its own search.
    let (_, raw, _) = run(&["solve", "--json", "--scoring", "raw", "-p", ffo1]);
    let raw: Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(raw["score"], 18);
    assert_eq!(raw["final_discs"]["empty"], 0);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_variant_solver() {
    use std::time::Duration;
    // A 14-empty position is solved at once; the opening after it would take years (--force:
    // it is not refused).
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let mut solving = Background::start(
        root(),
        &[
            "solve",
            "--json",
            "--scoring",
            "raw",
            "--force",
            "-p",
            ffo1,
            "-p",
            "f5d6c3d3c4f4f6f3e6e7",
        ],
    );
    let record: Value = serde_json::from_str(&solving.read_line()).unwrap();
    assert_eq!(record["score"], 18);
    std::thread::sleep(Duration::from_millis(200));
    solving.signal("-TERM");
    let stopped = solving.stop_within(Duration::from_secs(60));
    assert_eq!(stopped.code, 130);
    assert_eq!(stopped.stdout, "");
    common::assert_stopped_unknown(&stopped.stderr, "<position 2>:1", "1 position solved");
}

/// The refusal message of a position with `empties` empty squares from `source`, which is
/// then skipped.
fn refusal(source: &str, empties: u32) -> String {
    format!(
        "osolve: {source}: {empties} empty squares: not solved, an exact solve would not finish \
         (it takes months or more beyond 36 empties); use --force to try anyway, or \
         --time-limit / --node-limit for bounds (skipped)\n"
    )
}

#[test]
fn hopeless_depths_are_refused_under_every_rule_set() {
    let empty_board = format!("{} X", "-".repeat(64));
    for (args, empties) in [
        (vec!["--rules", "reversi", "-p", empty_board.as_str()], 64),
        (vec!["--scoring", "raw", "-p", "f5"], 59),
        (
            vec!["--rules", "reversi", "--scoring", "raw", "-p", "d4e4d5e5"],
            60,
        ),
    ] {
        let mut all = vec!["solve"];
        all.extend(&args);
        let (code, out, err) = run(&all);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(out, "");
        assert_eq!(err, refusal("<position>:1", empties), "{args:?}");
    }
}

#[test]
fn node_limits_bound_the_score_under_raw_scoring_and_reversi_rules() {
    // FFO #40 is +38 under raw scoring too (the board fills); 100,000 nodes do not solve it.
    for rules in ["othello", "reversi"] {
        let (code, out, err) = run(&[
            "solve",
            "positions/ffo-40.obf",
            "--json",
            "--threads",
            "1",
            "--rules",
            rules,
            "--scoring",
            "raw",
            "--node-limit",
            "100000",
        ]);
        assert_eq!(code, 0, "{err}");
        let r: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(r["score"], Value::Null, "{r}");
        assert_eq!(r["unfinished"], "node limit");
        let (lower, upper) = (r["lower"].as_i64().unwrap(), r["upper"].as_i64().unwrap());
        // One thread is deterministic: the first probes prove a win already.
        assert!(
            (1..=38).contains(&lower) && (38..=64).contains(&upper),
            "{r}"
        );
        let nodes = r["nodes"].as_u64().unwrap();
        assert!((100_000..200_000).contains(&nodes), "{r}");
    }
    // From the empty Reversi board a limit gives bounds instead of a refusal.
    let empty_board = format!("{} X", "-".repeat(64));
    let (code, out, err) = run(&[
        "solve",
        "--json",
        "--rules",
        "reversi",
        "--node-limit",
        "200000",
        "-p",
        &empty_board,
    ]);
    assert_eq!(code, 0, "{err}");
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["unfinished"], "node limit");
    assert_eq!(r["empties"], 64);
}

#[test]
fn a_time_limit_stops_a_deep_reversi_search_with_bounds() {
    let (code, out, err) = run(&[
        "solve",
        "--quiet",
        "--rules",
        "reversi",
        "--scoring",
        "raw",
        "--time-limit",
        "0.3",
        "-p",
        "d4e4d5e5f5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("<position>:1  unfinished (time limit): score unknown  nodes "),
        "{out}"
    );
}

#[test]
fn analyze_refuses_and_limits_under_reversi_rules() {
    let dir = temp_dir();
    let path = dir.path().join("two.txt");
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    fs::write(&path, format!("{ffo1}\n{} X\n", "-".repeat(64))).unwrap();
    let file = path.to_str().unwrap();
    let base = ["analyze", file, "--rules", "reversi", "--best-only", "-q"];
    let mut args = base.to_vec();
    args.extend(["--format", "obf"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 2, "{err}");
    // FFO #1 is +18 under Othello rules; with the supplies derived (7 discs each for 14
    // squares) they bind, and the best is +12 (the variant solver said the same).
    assert_eq!(out, format!("{ffo1}; H1:+12; G8:+12;\n"));
    // The line solve writes, without the `osolve: ` of a command's own errors.
    let refused = refusal(&format!("{file}:2"), 64);
    assert_eq!(err, refused.trim_start_matches("osolve: "));
    // With a node limit both are analysed, the empty board unfinished.
    let mut args = base.to_vec();
    args.extend(["--format", "jsonl", "--node-limit", "100000"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let records: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["best_score"], 12);
    assert_eq!(records[1]["best_score"], Value::Null);
    assert_eq!(records[1]["unfinished"], "node limit");
}

#[test]
fn show_refuses_limits_and_solves_under_every_rule_set() {
    // Hopeless depth: refused under raw scoring, as solve does.
    let (code, out, err) = run(&["show", "-p", "f5", "--solve", "--scoring", "raw", "-q"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, refusal("<position>:1", 59));
    // A node limit under Reversi rules: the bound proven so far, on one thread (deterministic).
    let (code, out, err) = run(&[
        "show",
        "positions/ffo-40.obf",
        "--solve",
        "--rules",
        "reversi",
        "--node-limit",
        "100000",
        "--threads",
        "1",
        "-q",
    ]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(
        err,
        "osolve: positions/ffo-40.obf:1: unfinished (node limit): score >= +6\n"
    );
    // Without a limit the Reversi score of FFO #40 (+30) and its line.
    let (code, out, err) = run(&[
        "show",
        "positions/ffo-40.obf",
        "--solve",
        "--rules",
        "reversi",
        "--ascii",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("discs left: black 10, white 10"), "{out}");
    assert!(out.contains("score +30  pv a2 "), "{out}");
}

const REVERSI: Variant = Variant {
    rules: Rules::Reversi,
    scoring: Scoring::Official,
};

/// The literal rules' minimax score of `position` under `scoring`.
fn minimax(position: &Position, scoring: Scoring) -> i32 {
    reference::minimax(&position.with_scoring(scoring))
}
