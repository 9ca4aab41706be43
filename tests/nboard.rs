//! End-to-end tests of `osolve nboard`: scripted sessions in the protocol's message order
//! (nboard, set depth, set game, ping/pong, hint, go, move, a pass, the end of a game,
//! analyze, learn), with the exact values checked against the library's solver (what
//! `osolve solve` prints), and a ping arriving in the middle of a long search answered with
//! `pong` at once.

use std::time::Duration;

use osolve::board::{Color, Position, Square};
use osolve::notation::parse_position;

mod common;
use common::{solver, Interactive};

/// FFO #1 (14 empties, black to move): G8 +18, H1 +12, A2 and H7 +6, ...
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
/// Black to move with no move (from positions/samples/mixed.txt): -24 for black.
const MUST_PASS: &str = "OXXXXX--OXXXXXXXOOXXXXXXOOOOOOOOOXXOXXOOOOOXOXOOOOOXXOOOOOOOOOOX X";
/// The start position.
const START: &str = "---------------------------OX------XO--------------------------- X";
/// White to move with no white disc left: the game is over, black wins 64-0.
const FINISHED: &str = "----------X-------X------XXXXXX-X-XXX------X-------------------- O";

/// Runs `osolve nboard` on `script`; returns its output lines, checking that it exits 0,
/// without the progress lines of its searches (`status nodes ...`: how many depends on time).
fn session(args: &[&str], script: &str) -> Vec<String> {
    all_lines(args, script)
        .into_iter()
        .filter(|line| !line.starts_with("status nodes "))
        .collect()
}

/// The next line of `engine` that is not a search's progress (`status nodes ...`).
fn answer(engine: &mut Interactive) -> String {
    loop {
        let line = engine.read_line();
        if !line.starts_with("status nodes ") {
            return line;
        }
    }
}

/// [`session`] with every line.
fn all_lines(args: &[&str], script: &str) -> Vec<String> {
    common::session("nboard", args, script)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The GGF of a game from `position` with `moves` (each `B[..]`/`W[..]` given as written).
fn ggf(position: &str, moves: &str) -> String {
    let parsed = parse_position(position).unwrap().position;
    let cells: String = (0..64)
        .map(|i| {
            if parsed.black() >> i & 1 != 0 {
                '*'
            } else if parsed.white() >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    let side = if parsed.to_move == Color::Black {
        '*'
    } else {
        'O'
    };
    format!(
        "(;GM[Othello]PC[NBoard]DT[2026-12-01]PB[me]PW[osolve]RE[?]TI[15:00]TY[8]BO[8 {cells} {side}]{moves};)"
    )
}

/// `line` without its last field (a time or node count that varies), checking that field is
/// a number.
fn without_last(line: &str) -> String {
    let (head, last) = line.rsplit_once([' ', '/']).expect("fields");
    assert!(
        last.parse::<f64>().is_ok(),
        "{line}: {last} is not a number"
    );
    head.to_string()
}

#[test]
fn hints_and_moves_are_the_exact_scores() {
    let position = parse_position(FFO_1).unwrap().position;
    let (scores, _) = solver(1, 16).score_moves(&position).unwrap();
    assert_eq!(
        (scores[0].mv, scores[0].score),
        ("g8".parse().ok(), 18),
        "FFO #1"
    );
    let lines = session(
        &[],
        &format!(
            "nboard 2\nset depth 20\nset game {}\nping 1\nhint 3\ngo\nset contempt 0\nquit\n",
            ggf(FFO_1, "")
        ),
    );
    assert_eq!(
        lines[..3],
        ["set myname osolve", "pong 1", "status thinking"]
    );
    let hint_lines: Vec<String> = scores
        .iter()
        .take(3)
        .map(|m| format!("search {} {}.00 0 100%", m.mv.unwrap().upper(), m.score))
        .collect();
    assert_eq!(lines[3..6], hint_lines[..]);
    assert_eq!(without_last(&without_last(&lines[6])), "nodestats");
    assert_eq!(lines[7], "status");
    assert_eq!(lines[8], "status thinking");
    assert_eq!(without_last(&without_last(&lines[9])), "nodestats");
    assert_eq!(without_last(&lines[10]), "=== G8/18.00");
    assert_eq!(lines[11], "status");
    assert_eq!(lines.len(), 12, "{lines:?}");
}

/// Issue 26: `hint 3`, `go` and `ping 2` sent together. The ping waits behind the `go`, so the
/// hint is answered in full (it was stopped by the ping and answered with no `search` line);
/// the ping then stops the `go`, which gives no move, and is answered.
#[test]
fn a_ping_behind_another_command_lets_the_hint_finish_and_stops_that_command() {
    // FFO #40 (20 empties): A2 +38, C7 +36, D8 +34, ...; exact in well under 30 s.
    let ffo_40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let lines = session(
        &["--move-time", "30"],
        &format!(
            "nboard 2\nset game {}\nhint 3\ngo\nping 2\nquit\n",
            ggf(ffo_40, "")
        ),
    );
    assert_eq!(
        lines[..5],
        [
            "set myname osolve",
            "status thinking",
            "search A2 38.00 0 100%",
            "search C7 36.00 0 100%",
            "search D8 34.00 0 100%",
        ],
        "{lines:?}"
    );
    assert_eq!(without_last(&without_last(&lines[5])), "nodestats");
    assert_eq!(
        lines[6..],
        ["status", "status thinking", "status", "pong 2"],
        "{lines:?}"
    );
}

#[test]
fn moves_a_forced_pass_and_the_end_of_the_game() {
    let must_pass = parse_position(MUST_PASS).unwrap().position;
    let mut solver = solver(1, 16);
    let black_score = solver.solve(&must_pass).unwrap().score;
    let white = must_pass.pass();
    let (white_scores, _) = solver.score_moves(&white).unwrap();
    assert_eq!(-white_scores[0].score, black_score);
    let lines = session(
        &[],
        &format!(
            "nboard 2\nset depth 10\nset game {}\nhint 1\ngo\nmove PA\nmove Z9\nmove A1\nhint 2\n\
             learn\nset game {}\ngo\nhint 4\nfrobnicate 3\nquit\n",
            ggf(MUST_PASS, ""),
            ggf(FINISHED, "")
        ),
    );
    let mut expected = vec![
        "set myname osolve".to_string(),
        "status thinking".to_string(),
        format!("search PA {black_score}.00 0 100%"),
    ];
    let mut at = 3;
    assert_eq!(lines[..at], expected[..], "{lines:?}");
    assert_eq!(without_last(&without_last(&lines[at])), "nodestats");
    assert_eq!(lines[at + 1], "status");
    assert_eq!(lines[at + 2], "status thinking");
    assert_eq!(without_last(&without_last(&lines[at + 3])), "nodestats");
    assert_eq!(
        without_last(&lines[at + 4]),
        format!("=== PA/{black_score}.00")
    );
    assert_eq!(lines[at + 5], "status");
    at += 6;
    // After the pass, Z9 is no square and A1 is taken.
    expected = vec![
        "status move Z9: expected a square A1..H8 or PA, found \"Z9\"".to_string(),
        "status move A1: a1 is taken".to_string(),
        "status thinking".to_string(),
    ];
    for m in white_scores.iter().take(2) {
        expected.push(format!(
            "search {} {}.00 0 100%",
            m.mv.unwrap().upper(),
            m.score
        ));
    }
    assert_eq!(lines[at..at + expected.len()], expected[..], "{lines:?}");
    at += expected.len();
    assert_eq!(without_last(&without_last(&lines[at])), "nodestats");
    assert_eq!(
        lines[at + 1..at + 4],
        [
            "status",
            "status osolve has no opening book: nothing to learn",
            "learned"
        ]
    );
    at += 4;
    // The finished game: go passes with the final score (white has lost 0-64), no hints.
    assert_eq!(lines[at], "status thinking");
    assert_eq!(without_last(&without_last(&lines[at + 1])), "nodestats");
    assert_eq!(without_last(&lines[at + 2]), "=== PA/-64.00");
    assert_eq!(lines[at + 3..at + 5], ["status", "status thinking"]);
    assert_eq!(without_last(&lines[at + 5]), "nodestats 1");
    assert_eq!(lines[at + 6..], ["status"]);
}

#[test]
fn set_game_replays_moves_and_refuses_broken_games() {
    // A game from the start with evals and times on its moves; then broken games that leave
    // it as it was: the hint still answers for the position after f5 d6 c3.
    let game = ggf(START, "B[F5//1.2]W[d6/-1.5/0.3]B[C3]");
    let after = Position::start();
    let after = ["f5", "d6", "c3"].iter().fold(after, |p, sq| {
        p.play(sq.parse::<Square>().unwrap()).unwrap()
    });
    assert_eq!(after.to_move, Color::White);
    let lines = session(
        &["--move-time", "0.2"],
        &format!(
            "nboard 2\nset game {game}\nset game (;GM[Chess];)\nset game {}\n\
             set game (;GM[Othello]B[f5]\nset depth 0\nhint 0\nmove\nping 3\nhint 1\nquit\n",
            ggf(START, "B[F5]B[F4]")
        ),
    );
    assert_eq!(
        [
            "set myname osolve",
            "status set game: GM[Chess]: expected Othello",
            "status set game: move 2: F4: white is to move, not black",
            "status set game: the file ends inside the game: expected ';)' to close it",
            "status set depth: expected a depth from 1 to 60",
            "status hint: expected a number of moves, 1 or more",
            "status move: expected a move such as F5 or PA",
            "pong 3",
            "status thinking",
        ]
        .map(String::from)[..],
        lines[..9]
    );
    // search <pv> <eval> 0 <depth>: a legal move of white's, then an estimate at a depth.
    let words: Vec<&str> = lines[9].split(' ').collect();
    assert_eq!((words[0], words[3]), ("search", "0"), "{}", lines[9]);
    let first: Square = words[1][..2].parse().unwrap();
    assert!(after.play(first).is_some(), "{first} is not legal");
    assert!(words[2].parse::<f64>().unwrap().abs() < 64.0);
    assert!(words[4].parse::<u32>().unwrap() >= 1, "{}", lines[9]);
    assert_eq!(without_last(&without_last(&lines[10])), "nodestats");
    assert_eq!(lines[11..], ["status"]);
}

#[test]
fn analyze_gives_every_position_its_exact_value() {
    let position = parse_position(FFO_1).unwrap().position;
    let after_g8 = position.play("g8".parse().unwrap()).unwrap();
    let mut solver = solver(1, 16);
    let expected = [
        solver.solve(&position).unwrap().score,
        solver.solve(&after_g8).unwrap().score,
    ];
    let lines = session(
        &[],
        &format!(
            "nboard 2\nset game {}\nanalyze\nquit\n",
            ggf(FFO_1, "B[G8]")
        ),
    );
    assert_eq!(
        lines,
        [
            "set myname osolve".to_string(),
            "status analyzing".to_string(),
            format!("analysis 1 {}.00", expected[1]),
            format!("analysis 0 {}.00", expected[0]),
            "status".to_string(),
        ]
    );
}

#[test]
fn a_ping_in_the_middle_of_a_search_is_answered_at_once() {
    // 600 s per move from the start: only a stop makes the engine answer the ping before
    // then. A watchdog kills the engine after two minutes, which fails the test.
    let mut engine = Interactive::osolve(&[
        "nboard",
        "--threads",
        "1",
        "--hash-mb",
        "16",
        "--move-time",
        "600",
    ])
    .with_watchdog(Duration::from_secs(120));
    engine.send(&format!(
        "nboard 2\nset depth 60\nset game {}\ngo",
        ggf(START, "")
    ));
    assert_eq!(answer(&mut engine), "set myname osolve");
    assert_eq!(answer(&mut engine), "status thinking");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("ping 7");
    // The stopped search gives no move (the GUI no longer wants it), then the pong.
    assert_eq!(answer(&mut engine), "status");
    assert_eq!(answer(&mut engine), "pong 7");
    // The engine goes on: an exact hint in an endgame after the ping.
    engine.send(&format!("set game {}\nhint 1", ggf(FFO_1, "")));
    assert_eq!(answer(&mut engine), "status thinking");
    assert_eq!(answer(&mut engine), "search G8 18.00 0 100%");
    let nodes = |line: String| -> u64 {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!((fields.len(), fields[0]), (3, "nodestats"), "{line}");
        fields[1].parse().unwrap()
    };
    let first = nodes(answer(&mut engine));
    assert_eq!(answer(&mut engine), "status");
    // A second ping, this time stopping the exact solver itself (FFO #50, 26 empties: with
    // 600 s it tries to score every move exactly), then the same hint again: the same exact answer, from the solver's table kept
    // through the stop, in a fraction of the nodes (a new solver would search them all again).
    let ffo_50 = "----X-----XXX----OOOXOOO-OOOXOOO-OXOXOXO-OOXXOOO--OOXO----O--O-- X";
    engine.send(&format!("set game {}\nhint 3", ggf(ffo_50, "")));
    assert_eq!(answer(&mut engine), "status thinking");
    std::thread::sleep(Duration::from_millis(300));
    engine.send(&format!(
        "ping 8\nset game {}\nhint 1\nquit",
        ggf(FFO_1, "")
    ));
    engine.close_input();
    assert_eq!(answer(&mut engine), "status");
    assert_eq!(answer(&mut engine), "pong 8");
    assert_eq!(answer(&mut engine), "status thinking");
    assert_eq!(answer(&mut engine), "search G8 18.00 0 100%");
    let again = nodes(answer(&mut engine));
    assert!(again * 4 < first, "{first} nodes, then {again}");
    assert_eq!(answer(&mut engine), "status");
    let status = engine.wait();
    assert!(status.success(), "{status:?}");
}

/// A long search shows the exact solver's progress in `status` lines while it runs, before
/// its answer (FFO #40, 20 empties, +38 by A2, on one thread).
#[test]
fn a_long_search_shows_its_progress_in_status_lines() {
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let lines = all_lines(
        &[],
        &format!("nboard 2\nset game {}\nhint 1\nquit\n", ggf(ffo40, "")),
    );
    assert_eq!(lines[..2], ["set myname osolve", "status thinking"]);
    let answer = lines
        .iter()
        .position(|line| line.starts_with("search "))
        .expect("a search line");
    assert_eq!(lines[answer], "search A2 38.00 0 100%");
    let status = &lines[2..answer];
    assert!(!status.is_empty(), "{lines:?}");
    for line in status {
        assert!(line.starts_with("status nodes "), "{line}");
        assert!(line.contains(" Mn/s  score "), "{line}");
    }
    assert_eq!(lines.last().map(String::as_str), Some("status"));
}
