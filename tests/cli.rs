//! End-to-end tests of the `osolve` binary: `solve` in JSON, quiet and human form on shipped FFO
//! positions, inline transcripts, forced passes and finished games, WLD, a principal variation
//! replayed with the board engine, inputs in command-line order, every kind of bad input (a bad
//! line, invalid UTF-8, a missing file, a directory) with its message and exit code (also with
//! standard error closed), an
//! interrupted run (130, also after a bad line, and for `analyze`, while more input is
//! awaited; `show` and `bench --suite -` while they wait for standard input), and `perft`. Each test runs the real binary with assert_cmd and checks the
//! values it prints, not just that it ran.

use std::time::Duration;

use osolve::board::{Color, Position};
use osolve::notation::{format_board, parse_position};
use serde_json::{json, Value};

mod common;
use common::{osolve, osolve_in, root, solver, sq, temp_dir, write_file, Background, Interactive};

/// FFO #1 (14 empties, black to move): G8 +18 is the only best move.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";
/// FFO #2 (14 empties, black to move): A4 +10 is the only best move.
const FFO_2: &str = "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;";
/// FFO #4 (14 empties, black to move): a draw, reached by H8 or A5.
const FFO_4: &str = "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X; H8:+0; A5:+0; B6:-4; B7:-4; A6:-8; B2:-12; H2:-26;";
/// Black to move with no move, from positions/samples/mixed.txt: the published score after
/// white's best reply is -24 for black.
const MUST_PASS: &str = "OXXXXX--OXXXXXXXOOXXXXXXOOOOOOOOOXXOXXOOOOOXOXOOOOOXXOOOOOOOOOOX X";
/// White to move with no white disc left: the game is over, black wins 64-0.
const FINISHED: &str = "----------X-------X------XXXXXX-X-XXX------X-------------------- O";
/// A 46-move game from the start (no passes), leaving 14 empties with black to move.
const TRANSCRIPT: &str =
    "c4c3d3e3f3d6b3e2d7b5d2g2b4c7g3d1c6g4b6b2d8c5f5a5e1f6e6a2b1a4g7a1h1c1g5h3a3b7a8h5g6h6h7e8h4c8";

fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Every stdout line parsed as JSON (each line must be exactly one object).
fn json_lines(output: &std::process::Output) -> Vec<Value> {
    stdout_of(output)
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("each line is one JSON value");
            assert!(value.is_object(), "{line}");
            value
        })
        .collect()
}

/// Runs `osolve solve --json ARGS` and returns the exit code and the objects printed.
fn solve_json(args: &[&str]) -> (i32, Vec<Value>, String) {
    let output = osolve()
        .arg("solve")
        .arg("--json")
        .args(["--hash-mb", "64"])
        .args(args)
        .output()
        .expect("osolve runs");
    let code = output.status.code().expect("osolve exits normally");
    (code, json_lines(&output), stderr_of(&output))
}

/// Plays a reported PV from `position` with the board engine, checking each move is legal and
/// each `--` a forced pass, and returns the finished position it reaches.
fn replay(position: Position, pv: &[Value]) -> Position {
    let mut position = position;
    for mv in pv {
        let mv = mv.as_str().expect("PV moves are strings");
        if mv == "--" {
            assert_eq!(position.board.moves(), 0, "a pass in the PV must be forced");
            assert!(!position.board.is_game_over());
            position = position.pass();
        } else {
            position = position
                .play(sq(mv))
                .unwrap_or_else(|| panic!("{mv} must be legal"));
        }
    }
    assert!(position.board.is_game_over(), "the PV must end the game");
    position
}

/// Final disc counts of a finished game, empties to the winner.
fn final_discs(position: Position) -> (u64, u64) {
    let (black, white) = (
        u64::from(position.black().count_ones()),
        u64::from(position.white().count_ones()),
    );
    let empties = 64 - black - white;
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => (black + empties, white),
        std::cmp::Ordering::Less => (black, white + empties),
        std::cmp::Ordering::Equal => (black, white),
    }
}

#[test]
fn solve_ffo_40_in_json_and_replay_its_pv() {
    let (code, records, stderr) = solve_json(&["positions/ffo-40.obf"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "");
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r["source"], "positions/ffo-40.obf:1");
    assert_eq!(
        r["position"],
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
    );
    assert_eq!(r["empties"], 20);
    assert_eq!(r["side_to_move"], "black");
    assert_eq!(r["score"], 38);
    assert_eq!(r["result"], "win");
    assert_eq!(r["wld"], false);
    assert_eq!(r["best_move"], "a2");
    assert_eq!(r["final_discs"], json!({"black": 51, "white": 13}));
    assert!(r["nodes"].as_u64().unwrap() > 1000);
    assert!(r["time_ms"].as_f64().unwrap() > 0.0);
    assert!(r["nps"].as_u64().unwrap() > 0);
    assert!(r["threads"].as_u64().unwrap() >= 1);

    // The PV starts with the best move, runs to the end of the game and ends 51-13.
    let pv = r["pv"].as_array().unwrap();
    assert_eq!(pv[0], "a2");
    let position = parse_position(r["position"].as_str().unwrap())
        .unwrap()
        .position;
    let end = replay(position, pv);
    assert_eq!(final_discs(end), (51, 13));
    assert_eq!(end.board.final_score(), {
        // final_score is for the side to move at the end.
        if end.to_move == Color::Black {
            38
        } else {
            -38
        }
    });
}

#[test]
fn solve_a_transcript_given_inline() {
    let (code, records, stderr) = solve_json(&["-p", TRANSCRIPT]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(records.len(), 1);
    let r = &records[0];
    let position = parse_position(TRANSCRIPT).unwrap().position;
    assert_eq!(position.board.empties(), 14);
    assert_eq!(r["source"], "<position>:1");
    assert_eq!(
        r["position"],
        "OOOOX--XOO-OO-X-XOOOOOXOOOOOX-XXOOOOOXXX-OOOOOXX-XOO--XXX-OOO--- X"
    );
    assert_eq!(r["position"], format_board(&position).as_str());
    assert_eq!(r["empties"], 14);
    assert_eq!(r["side_to_move"], "black");
    assert_eq!(r["score"], 4);
    assert_eq!(r["final_discs"], json!({"black": 34, "white": 30}));
    // The library, called directly, agrees with the binary.
    let mut solver = solver(1, 16);
    assert_eq!(solver.solve(&position).unwrap().score, 4);
    // The best move keeps the score (others may tie), and so does the whole PV.
    let best = position.play(sq(r["best_move"].as_str().unwrap())).unwrap();
    assert_eq!(solver.solve(&best).unwrap().score, -4);
    let pv = r["pv"].as_array().unwrap();
    assert_eq!(final_discs(replay(position, pv)), (34, 30));
}

#[test]
fn a_position_that_must_pass_reports_the_pass() {
    // Black owns b1 and c1, white a1: black has no move; white plays d1, taking b1 and c1, and
    // black has no disc left, so white wins 64-0 and black's score is -64.
    let constructed = format!("OXX{} X", "-".repeat(61));
    let (code, records, stderr) = solve_json(&["-p", &constructed, "-p", MUST_PASS]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(records.len(), 2);
    let r = &records[0];
    assert_eq!(r["source"], "<position 1>:1");
    assert_eq!(r["side_to_move"], "black");
    assert_eq!(r["best_move"], "--");
    assert_eq!(r["pv"], json!(["--", "d1"]));
    assert_eq!(r["score"], -64);
    assert_eq!(r["result"], "loss");
    assert_eq!(r["final_discs"], json!({"black": 0, "white": 64}));

    let r = &records[1];
    assert_eq!(r["source"], "<position 2>:1");
    assert_eq!(r["best_move"], "--");
    assert_eq!(r["score"], -24);
    assert_eq!(r["final_discs"], json!({"black": 20, "white": 44}));
    // The score is the negation of white's score in the passed position, solved by the library.
    let position = parse_position(MUST_PASS).unwrap().position;
    assert_eq!(position.board.moves(), 0);
    let mut solver = solver(1, 16);
    assert_eq!(solver.solve(&position.pass()).unwrap().score, 24);
    let pv = r["pv"].as_array().unwrap();
    assert_eq!(pv[0], "--");
    assert_eq!(final_discs(replay(position, pv)), (20, 44));
}

#[test]
fn a_finished_game_searches_nothing() {
    let (code, records, _) = solve_json(&["-p", FINISHED]);
    assert_eq!(code, 0);
    let r = &records[0];
    assert_eq!(r["side_to_move"], "white");
    assert_eq!(r["empties"], 51);
    assert_eq!(r["score"], -64);
    assert_eq!(r["result"], "loss");
    assert_eq!(r["best_move"], Value::Null);
    assert_eq!(r["pv"], json!([]));
    assert_eq!(r["nodes"], 0);
    assert_eq!(r["final_discs"], json!({"black": 64, "white": 0}));
}

#[test]
fn wld_gives_the_sign_of_the_score() {
    let (code, records, stderr) = solve_json(&["--wld", "-p", FFO_1, "-p", FFO_4, "-p", MUST_PASS]);
    assert_eq!(code, 0, "{stderr}");
    let scores: Vec<&Value> = records.iter().map(|r| &r["score"]).collect();
    assert_eq!(scores, [&json!(1), &json!(0), &json!(-1)]);
    let results: Vec<&Value> = records.iter().map(|r| &r["result"]).collect();
    assert_eq!(results, [&json!("win"), &json!("draw"), &json!("loss")]);
    for r in &records {
        assert_eq!(r["wld"], true);
        assert_eq!(r["final_discs"], Value::Null);
    }
    // Any winning move proves the win; only H8 and A5 draw FFO #4.
    let winning = ["g8", "h1", "h7", "a2", "a3"];
    assert!(winning.contains(&records[0]["best_move"].as_str().unwrap()));
    assert!(["h8", "a5"].contains(&records[1]["best_move"].as_str().unwrap()));
    assert_eq!(records[2]["best_move"], "--");
}

#[test]
fn inputs_are_solved_in_command_line_order() {
    let dir = temp_dir();
    std::fs::write(dir.path().join("two.obf"), format!("{FFO_2}\n")).unwrap();
    let output = osolve()
        .current_dir(dir.path())
        .args([
            "solve",
            "--json",
            "--hash-mb",
            "16",
            "-p",
            FFO_1,
            "two.obf",
            "-p",
            FFO_4,
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let records = json_lines(&output);
    let summary: Vec<(&str, i64)> = records
        .iter()
        .map(|r| (r["source"].as_str().unwrap(), r["score"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            ("<position 1>:1", 18),
            ("two.obf:1", 10),
            ("<position 2>:1", 0)
        ]
    );
}

#[test]
fn human_and_quiet_output() {
    let output = osolve()
        .args(["solve", "--hash-mb", "16", "-p", FFO_1])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output);
    let lines: Vec<&str> = text.lines().collect();
    // Not a terminal: plain X and O discs, legal moves as '+'.
    assert_eq!(lines[0], "<position>:1");
    assert_eq!(lines[1], "  a b c d e f g h");
    assert_eq!(lines[2], "1 - + X X X X X +");
    assert_eq!(lines[3], "2 + O O O X X + O");
    assert_eq!(lines[9], "8 - O O O O O + -");
    assert_eq!(lines[10], "black 27  white 23  empties 14  black to move");
    assert!(
        lines[11].starts_with("score +18 (black 41 - white 23)  best g8  pv g8 "),
        "{}",
        lines[11]
    );
    assert!(lines[11].contains(" nodes ") && lines[11].ends_with(" Mn/s"));
    assert_eq!(lines.len(), 13);
    assert_eq!(lines[12], "");

    let output = osolve()
        .args(["solve", "--quiet", "--hash-mb", "16", "-p", FFO_1, "--wld"])
        .output()
        .unwrap();
    let text = stdout_of(&output);
    assert_eq!(text.lines().count(), 1);
    assert!(
        text.starts_with("<position>:1  result win (black wins)  best "),
        "{text}"
    );
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let output = osolve()
        .args(["solve", "--json", "--hash-mb", "16", "-"])
        .write_stdin(format!("# two FFO positions\n{FFO_1}\n\n{FFO_2}\n"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let records = json_lines(&output);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["source"], "<stdin>:2");
    assert_eq!(records[0]["score"], 18);
    assert_eq!(records[1]["source"], "<stdin>:4");
    assert_eq!(records[1]["score"], 10);
    assert_eq!(records[1]["best_move"], "a4");
}

#[test]
fn a_bad_line_is_reported_and_the_rest_solved() {
    let dir = temp_dir();
    let short = format!("{} X", &FFO_1[..63]);
    std::fs::write(
        dir.path().join("bad.obf"),
        format!("{short}\n{FFO_1}\n{FFO_2}\n"),
    )
    .unwrap();
    let output = osolve()
        .current_dir(dir.path())
        .args(["solve", "--json", "--hash-mb", "16", "bad.obf"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_of(&output),
        "osolve: bad.obf:1: expected 64 board cells before the side to move, found 63 (skipped)\n"
    );
    let records = json_lines(&output);
    let summary: Vec<(&str, i64)> = records
        .iter()
        .map(|r| (r["source"].as_str().unwrap(), r["score"].as_i64().unwrap()))
        .collect();
    assert_eq!(summary, [("bad.obf:2", 18), ("bad.obf:3", 10)]);
}

#[test]
fn invalid_utf8_is_reported_with_its_column() {
    let dir = temp_dir();
    let mut bytes = format!("{FFO_1}\n").into_bytes();
    bytes.extend_from_slice(b"--X\xff\xfe-- X\n");
    bytes.extend_from_slice(format!("{FFO_2}\n").as_bytes());
    std::fs::write(dir.path().join("latin1.obf"), bytes).unwrap();
    let output = osolve()
        .current_dir(dir.path())
        .args(["solve", "--quiet", "--hash-mb", "16", "latin1.obf"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_of(&output),
        "osolve: latin1.obf:2:4: expected UTF-8 text, found the byte 0xff (skipped)\n"
    );
    let text = stdout_of(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("latin1.obf:1  score +18 (black 41 - white 23)  best g8"));
    assert!(lines[1].starts_with("latin1.obf:3  score +10 (black 37 - white 27)  best a4"));
}

#[test]
fn a_bad_inline_position_exits_2() {
    let output = osolve()
        .args(["solve", "-p", "f5 d6 c3 d3 c4 f4 h8"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout_of(&output), "");
    assert_eq!(
        stderr_of(&output),
        "osolve: <position>:1:19: move 7: h8 is not legal: black to move, it flips nothing \
         (skipped)\n"
    );
}

#[test]
fn an_illegal_move_of_a_transcript_says_its_number_and_why() {
    let cases = [
        (
            "f5d6c4zz",
            "<position>:1:7: move 4 (zz): expected a square a1..h8 or a pass (pa, ps, --)",
        ),
        (
            "f5f5",
            "<position>:1:3: move 2: f5 is not legal: white to move, the square is taken",
        ),
        (
            "f5a1",
            "<position>:1:3: move 2: a1 is not legal: white to move, it flips nothing",
        ),
        (
            "f5 pa",
            "<position>:1:4: move 2: pa is not legal: white has a legal move",
        ),
        // Black has no move after these 8: the pass is left out, and h8 is white's.
        (
            "c4 c3 c2 b2 e6 c1 a1 a3 h8",
            "<position>:1:25: move 9: h8 is not legal: black must pass; white to move, it \
             flips nothing",
        ),
        // White is wiped out after these 9.
        (
            "c4 c3 c2 b4 a5 f4 g4 c5 d6 a1",
            "<position>:1:28: move 10: a1 is not legal: the game is already over",
        ),
    ];
    for (transcript, message) in cases {
        let output = osolve().args(["solve", "-p", transcript]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{transcript}");
        assert_eq!(stdout_of(&output), "");
        assert_eq!(stderr_of(&output), format!("osolve: {message} (skipped)\n"));
    }
    // In a file, the line and column of the move, and the other lines still solved.
    let dir = temp_dir();
    let ffo_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let lines = format!("{ffo_1}\n  f5 d6 c3 d3 c4 f4 f6 g8\n");
    write_file(dir.path(), "games.txt", lines);
    let output = osolve_in(dir.path())
        .args(["solve", "games.txt", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout_of(&output).starts_with("games.txt:1  score "));
    assert_eq!(
        stderr_of(&output),
        "osolve: games.txt:2:24: move 8: g8 is not legal: white to move, it flips nothing \
         (skipped)\n"
    );
}

#[test]
fn a_missing_file_stops_before_solving() {
    let output = osolve()
        .args(["solve", "positions/ffo-40.obf", "no/such/file.obf"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout_of(&output), "", "nothing is solved");
    let stderr = stderr_of(&output);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("osolve: cannot read no/such/file.obf: No such file or directory"),
        "{stderr}"
    );
}

#[test]
fn a_directory_is_not_a_file_of_positions() {
    let output = osolve().args(["solve", "positions"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout_of(&output), "");
    assert_eq!(
        stderr_of(&output),
        "osolve: cannot read positions: it is a directory, expected a file of positions\n"
    );
}

#[test]
fn solve_needs_an_input() {
    let output = osolve().arg("solve").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("required arguments were not provided"));
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_search_and_keeps_what_was_solved() {
    // FFO #1 is solved at once; the 50-empty opening after it would take years (--force: it
    // is not refused).
    let mut solving = Background::start(
        root(),
        &[
            "solve",
            "--json",
            "--hash-mb",
            "16",
            "--force",
            "-p",
            FFO_1,
            "-p",
            "f5d6c3d3c4f4f6f3e6e7",
        ],
    );
    let record: Value = serde_json::from_str(&solving.read_line()).unwrap();
    assert_eq!(record["score"], 18);
    // The first report is flushed before the second search starts, with the handler installed.
    std::thread::sleep(Duration::from_millis(200));
    solving.signal("-TERM");
    let stopped = solving.stop_within(Duration::from_secs(60));
    assert_eq!(stopped.code, 130);
    assert_eq!(stopped.stdout, "", "nothing after the finished position");
    // What the stopped search had proven (nothing yet, 50 empties in) goes to standard error,
    // not among the answers.
    common::assert_stopped_unknown(&stopped.stderr, "<position 2>:1", "1 position solved");
}

#[cfg(unix)]
#[test]
fn a_signal_while_more_input_is_awaited_exits_130_after_a_bad_line() {
    // A bad line (2), an answer, then SIGTERM while the command waits for more input and the
    // end of the input: 130 wins, for `solve` as for `analyze`.
    for command in ["solve", "analyze"] {
        let args = [command, "-q", "--threads", "1", "--hash-mb", "16", "-"];
        let mut running = Interactive::osolve(&args).with_watchdog(Duration::from_secs(60));
        running.send("not a board");
        running.send(FFO_1);
        let answer = running.read_line();
        assert!(answer.contains("18"), "{command}: {answer}");
        common::send_signal(running.id(), "-TERM");
        // The handler runs on a thread of its own: let it see the signal before the input ends.
        std::thread::sleep(Duration::from_millis(300));
        let status = running.wait();
        assert_eq!(common::code(status), 130, "{command}");
    }
}

#[cfg(unix)]
#[test]
fn a_signal_while_show_or_bench_waits_for_standard_input_exits_130() {
    // Both read their whole input before anything else; nothing comes on it here, and a
    // signal ends them at once, saying so, as any command's (they were killed by it).
    let cases: [(&[&str], &str, &str); 4] = [
        (&["show", "-"], "-INT", "interrupted: 0 positions shown\n"),
        (&["show", "-"], "-TERM", "interrupted: 0 positions shown\n"),
        (&["bench", "--suite", "-"], "-INT", "interrupted\n"),
        (&["bench", "--suite", "-"], "-TERM", "interrupted\n"),
    ];
    for (args, signal, said) in cases {
        let mut waiting = Background::waiting(root(), args);
        // Far longer than starting takes: the program waits on its input by then.
        std::thread::sleep(Duration::from_millis(1000));
        waiting.signal(signal);
        let stopped = waiting.stop_within(Duration::from_secs(60));
        let ended = (
            stopped.code,
            stopped.stdout.as_str(),
            stopped.stderr.as_str(),
        );
        assert_eq!(ended, (130, "", said), "{args:?} {signal}");
    }
}

#[cfg(unix)]
#[test]
fn an_interrupted_solve_says_the_bounds_it_proved() {
    // FFO #48 (25 empties, +28) takes seconds on one thread: Ctrl-C after one, when the
    // aspiration probe has usually proven a bound (`score >= +24` here).
    let mut solving = Background::start(
        root(),
        &["solve", "--threads", "1", "--quiet", "positions/ffo-48.obf"],
    );
    std::thread::sleep(Duration::from_millis(1000));
    solving.signal("-INT");
    let stopped = solving.stop_within(Duration::from_secs(60));
    assert_eq!(stopped.code, 130, "{}", stopped.stderr);
    assert_eq!(stopped.stdout, "");
    let lines: Vec<&str> = stopped.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", stopped.stderr);
    let prefix = "positions/ffo-48.obf:1  unfinished (interrupted): ";
    let bounds = lines[0]
        .strip_prefix(prefix)
        .and_then(|rest| rest.split("  nodes ").next())
        .unwrap_or_else(|| panic!("{}", lines[0]));
    // Whatever was proven by then holds the score.
    let holds = match bounds.split(' ').collect::<Vec<_>>()[..] {
        ["score", "unknown"] => true,
        ["score", ">=", lower] => lower.parse::<i32>().unwrap() <= 28,
        ["score", "<=", upper] => upper.parse::<i32>().unwrap() >= 28,
        [lower, "<=", "score", "<=", upper] => {
            lower.parse::<i32>().unwrap() <= 28 && upper.parse::<i32>().unwrap() >= 28
        }
        ["score", exact] => exact == "+28",
        _ => panic!("unexpected bounds: {}", lines[0]),
    };
    assert!(holds, "{}", lines[0]);
    assert_eq!(lines[1], "interrupted: 0 positions solved");
}

#[test]
fn perft_5_counts_1396() {
    let output = osolve().args(["perft", "5"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with(
        "perft from ---------------------------OX------XO--------------------------- X (the start)"
    ));
    let counts: Vec<(u32, u64)> = lines[2..]
        .iter()
        .map(|line| {
            let mut columns = line.split_whitespace();
            let depth = columns.next().unwrap().parse().unwrap();
            let leaves = columns.next().unwrap().parse().unwrap();
            (depth, leaves)
        })
        .collect();
    assert_eq!(counts, [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396)]);
}

#[test]
fn perft_from_a_position() {
    // FFO #1 has 8 legal moves.
    let output = osolve()
        .args(["perft", "1", "--position", FFO_1])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output);
    let row: Vec<&str> = text.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(row[..2], ["1", "8"]);
}

#[test]
fn perft_rejects_a_bad_depth() {
    for depth in ["21", "-1", "five"] {
        let output = osolve().args(["perft", depth]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "depth {depth}");
        assert_eq!(stdout_of(&output), "");
        assert!(stderr_of(&output).contains(&format!("'{depth}'")));
    }
    let output = osolve()
        .args(["perft", "3", "-p", "f5 f5"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr_of(&output),
        "osolve: <position>:1:4: move 2: f5 is not legal: white to move, the square is taken\n"
    );
}

/// Runs `osolve ARGS` in the repository's root with its standard error a pipe whose reader is
/// already gone, as after `osolve ... 2>&1 | head` once `head` has left: the exit code and
/// the number of lines written to standard output.
fn with_stderr_closed(args: &[&str]) -> (i32, usize) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = std::process::Command::new(common::binary())
        .current_dir(root())
        .args(args)
        .stderr(writer)
        .output()
        .expect("osolve runs");
    (
        common::code(output.status),
        stdout_of(&output).lines().count(),
    )
}

/// Messages to a closed standard error are lost, never the run: a bad line still gives exit
/// code 2 and the other positions their lines, a check its summary-free exit code 0.
/// (`eprintln!` panicked there: exit code 101, and the positions after the bad line were
/// never solved.)
#[test]
fn a_closed_standard_error_loses_the_messages_not_the_run() {
    let dir = temp_dir();
    let file = write_file(
        dir.path(),
        "mixed.obf",
        format!("garbage line here\n{FFO_1}\n{FFO_2}\n"),
    );
    let path = file.to_str().unwrap();
    assert_eq!(with_stderr_closed(&["solve", path, "--quiet"]), (2, 2));
    assert_eq!(
        with_stderr_closed(&["analyze", "positions/ffo-1-19.obf", "--check"]),
        (0, 19)
    );
}
