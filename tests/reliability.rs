//! Reliability end to end: positions that are well-formed but odd get the right answer, bad
//! flags and unreadable inputs are one-line errors with exit code 2, positions too deep to
//! finish are refused unless forced, limits stop a search with bounds that hold the true score
//! (never an exact score they did not prove), and a stopped search leaves the solver able to
//! solve the next position exactly.

mod common;

use std::fs;
use std::time::Duration;

use common::{run, solver, temp_dir};
use osolve::board::random::{random_position, Rng};
use osolve::board::{Color, Position};
use osolve::notation::{format_board, parse_position};
use osolve::search::reference::minimax;
use osolve::search::{BestMove, Limits, StopReason, Unfinished, FEASIBLE_EMPTIES};
use serde_json::{json, Value};

/// The standard start: 60 empties.
const START: &str = "---------------------------OX------XO--------------------------- X";

/// `osolve solve --json -p TEXT [ARGS]`: the one record printed.
fn solve_one(text: &str, args: &[&str]) -> Value {
    let mut all = vec!["solve", "--json", "--hash-mb", "16", "-p", text];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(&all);
    assert_eq!(code, 0, "{}", stderr);
    assert_eq!(stdout.lines().count(), 1, "{}", stdout);
    serde_json::from_str(&stdout).unwrap()
}

fn ffo(number: u32) -> (Position, i32) {
    let path = format!("{}/positions/ffo-{number}.obf", env!("CARGO_MANIFEST_DIR"));
    let parsed = parse_position(fs::read_to_string(path).unwrap().trim()).unwrap();
    let best = parsed.expected.iter().map(|e| e.1).max().unwrap();
    (parsed.position, best)
}

// ---- Odd positions -------------------------------------------------------------------------

#[test]
fn a_full_board_is_its_final_score() {
    let text = format!("{}{} X", "X".repeat(40), "O".repeat(24));
    let r = solve_one(&text, &[]);
    assert_eq!(r["empties"], 0);
    assert_eq!(r["score"], 16);
    assert_eq!(r["best_move"], Value::Null);
    assert_eq!(r["pv"], json!([]));
    assert_eq!(r["nodes"], 0);
    assert_eq!(r["final_discs"], json!({"black": 40, "white": 24}));
}

#[test]
fn a_board_without_discs_of_one_colour_is_over_and_the_empties_go_to_the_winner() {
    // Ten black discs and 54 empties: nobody can move, black takes every empty square.
    let black_to_move = format!("{}{} X", "X".repeat(10), "-".repeat(54));
    let r = solve_one(&black_to_move, &[]);
    assert_eq!(
        (r["score"].clone(), r["result"].clone()),
        (json!(64), json!("win"))
    );
    assert_eq!(r["final_discs"], json!({"black": 64, "white": 0}));
    let white_to_move = format!("{}{} O", "X".repeat(10), "-".repeat(54));
    let r = solve_one(&white_to_move, &[]);
    assert_eq!(r["score"], -64);
    assert_eq!(r["best_move"], Value::Null);
    // No disc at all cannot occur in Othello (every game starts with four): refused, not
    // reported as a finished 32-32 draw.
    let (code, stdout, stderr) = run(&["solve", "--json", "-p", &format!("{} X", "-".repeat(64))]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("a board with no discs cannot occur in Othello"),
        "{}",
        stderr
    );
}

#[test]
fn a_side_that_must_pass_gets_the_score_after_the_pass() {
    let mut rng = Rng(616);
    let mut seen = 0;
    while seen < 3 {
        let p = random_position(&mut rng, 9);
        if p.board.moves() != 0 || p.board.pass().moves() == 0 {
            continue;
        }
        seen += 1;
        let r = solve_one(&format_board(&p), &[]);
        assert_eq!(r["best_move"], "--");
        assert_eq!(r["pv"][0], "--");
        assert_eq!(r["score"], -minimax(p.board.pass()));
    }
}

#[test]
fn a_board_where_nobody_can_move_with_squares_empty_is_over() {
    // h8 is empty; row 8, the h file and the a1-g7 diagonal are black, the rest white: from
    // h8 every line runs through black discs to the edge, so neither side can play it.
    let mut black = 0u64;
    for i in 0..7 {
        black |= 1 << (56 + i); // a8..g8
        black |= 1 << (8 * i + 7); // h1..h7
        black |= 1 << (9 * i); // a1..g7
    }
    let white = !black & !(1u64 << 63);
    let p = Position::from_colors(black, white, Color::Black).unwrap();
    assert!(p.board.is_game_over());
    let r = solve_one(&format_board(&p), &[]);
    assert_eq!(r["empties"], 1);
    // 21 black discs against 42 white ones; white, the winner, gets h8.
    assert_eq!(r["score"], -22);
    assert_eq!(r["final_discs"], json!({"black": 21, "white": 43}));
    assert_eq!(r["best_move"], Value::Null);
}

#[test]
fn boards_no_game_can_reach_are_solved_like_any_other() {
    // Random discs with the four centre squares among the empties: no game gets there.
    let centre = (1u64 << 27) | (1 << 28) | (1 << 35) | (1 << 36);
    let mut rng = Rng(1789);
    let mut solved = 0;
    while solved < 4 {
        let (player, opponent) = rng.board();
        let filled = !centre & (player | opponent | rng.next_u64() | rng.next_u64());
        if filled.count_ones() != 54 {
            continue;
        }
        let black = player & filled;
        let p = Position::from_colors(black, filled & !black, Color::White).unwrap();
        if p.board.is_game_over() {
            continue;
        }
        solved += 1;
        let r = solve_one(&format_board(&p), &[]);
        assert_eq!(r["empties"], 10);
        assert_eq!(r["score"], minimax(p.board), "{}", format_board(&p));
    }
}

#[test]
fn the_start_position_is_refused_without_a_limit_and_bounded_with_one() {
    let (code, stdout, stderr) = run(&["solve", "-p", START]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!(
            "osolve: <position>:1: 60 empty squares: not solved, an exact solve would not finish \
             (it takes months or more beyond {FEASIBLE_EMPTIES} empties); use --force to try \
             anyway, or --time-limit / --node-limit for bounds (skipped)\n"
        )
    );
    // With a limit it is searched and reported unfinished. Othello is a draw under perfect
    // play (Takizawa, 2023), so the bounds must hold 0.
    let r = solve_one(START, &["--node-limit", "200000"]);
    assert_eq!(r["score"], Value::Null);
    assert_eq!(r["unfinished"], "node limit");
    let (lower, upper) = (r["lower"].as_i64().unwrap(), r["upper"].as_i64().unwrap());
    assert!(lower <= 0 && 0 <= upper, "{r}");
    // A deep position that ends at once is not refused: black must pass, white takes d1 and
    // every disc (61 empties).
    let r = solve_one(&format!("OXX{} X", "-".repeat(61)), &[]);
    assert_eq!(r["score"], -64);
    assert_eq!(r["pv"], json!(["--", "d1"]));
}

#[test]
fn analyze_refuses_deep_positions_like_bad_lines_unless_forced() {
    let dir = temp_dir();
    let path = dir.path().join("mixed.txt");
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    fs::write(&path, format!("{ffo1}\n{START}\n")).unwrap();
    let file = path.to_str().unwrap();
    let (code, stdout, stderr) = run(&["analyze", file, "--best-only", "--format", "obf", "-q"]);
    assert_eq!(code, 2, "{}", stderr);
    assert_eq!(stdout, format!("{ffo1}; G8:+18;\n"));
    assert!(stderr.starts_with(&format!(
        "{file}:2: 60 empty squares: not solved, an exact solve would not finish"
    )));
    assert!(stderr.ends_with("(skipped)\n"), "{}", stderr);
    // With a limit both are analysed, the deep one unfinished.
    let (code, stdout, stderr) = run(&[
        "analyze",
        file,
        "--best-only",
        "--format",
        "jsonl",
        "-q",
        "--node-limit",
        "100000",
    ]);
    assert_eq!(code, 0, "{}", stderr);
    let records: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records[0]["best_score"], 18);
    assert_eq!(records[1]["best_score"], Value::Null);
    assert_eq!(records[1]["unfinished"], "node limit");
}

// ---- Bad flags and inputs ------------------------------------------------------------------

#[test]
fn bad_flags_and_unreadable_inputs_are_one_line_errors_with_exit_code_2() {
    let dir = temp_dir();
    let good = dir.path().join("good.txt");
    fs::write(&good, "f5d6c3d3c4f4f6f3e6e7\n").unwrap();
    let good = good.to_str().unwrap().to_string();
    let missing = dir.path().join("missing.obf").to_str().unwrap().to_string();
    let directory = dir.path().to_str().unwrap().to_string();
    let mut cases: Vec<(Vec<String>, String)> = Vec::new();
    let mut both = |args: &[&str], message: &str| {
        for command in ["solve", "analyze"] {
            let mut all = vec![command.to_string()];
            all.extend(args.iter().map(|a| a.to_string()));
            cases.push((all, message.to_string()));
        }
    };
    both(
        &[&good, "--threads", "0"],
        "osolve: invalid value '0' for '--threads <THREADS>': expected a number of threads \
         from 1 to 1024",
    );
    both(
        &[&good, "--hash-mb", "0"],
        "osolve: invalid value '0' for '--hash-mb <HASH_MB>': expected a table size in MiB \
         from 1 to ",
    );
    both(
        &[&good, "--hash-mb", "1000000000"],
        "osolve: invalid value '1000000000' for '--hash-mb <HASH_MB>': expected a table size \
         in MiB from 1 to ",
    );
    both(
        &[&good, "--time-limit", "0"],
        "osolve: invalid value '0' for '--time-limit <SECONDS>': expected a number of seconds",
    );
    both(
        &[&good, "--time-limit", "soon"],
        "osolve: invalid value 'soon' for '--time-limit <SECONDS>': expected a number",
    );
    both(
        &[&good, "--node-limit", "0"],
        "osolve: invalid value '0' for '--node-limit <N>': expected a number of nodes from 1",
    );
    both(
        &[&missing],
        &format!("osolve: cannot read {missing}: No such file or directory (os error 2)"),
    );
    both(
        &[&directory],
        &format!("osolve: cannot read {directory}: it is a directory, expected a file"),
    );
    if fs::metadata("/proc/self/mem").is_ok() {
        // Opens, but reading it from offset 0 fails (an I/O error), even for root.
        both(
            &["/proc/self/mem"],
            "osolve: cannot read /proc/self/mem: Input/output error (os error 5)",
        );
    }
    let locked = dir.path().join("locked.txt");
    fs::write(&locked, "f5\n").unwrap();
    let mut permissions = fs::metadata(&locked).unwrap().permissions();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        permissions.set_mode(0o000);
    }
    fs::set_permissions(&locked, permissions).unwrap();
    let locked = locked.to_str().unwrap().to_string();
    if fs::File::open(&locked).is_err() {
        // Not running as root: the permission bits are enforced.
        both(
            &[&locked],
            &format!("osolve: cannot read {locked}: Permission denied (os error 13)"),
        );
    }
    cases.push((
        ["analyze", &good, "--shard", "3/2"]
            .map(String::from)
            .to_vec(),
        "osolve: --shard 3/2: shard K=3 must be below N=2 (shards are numbered 0 to N-1)"
            .to_string(),
    ));
    cases.push((
        ["perft", "3", "--position", "f5 f5"]
            .map(String::from)
            .to_vec(),
        "osolve: <position>:1:4: move 2: f5 is not legal: white to move, the square is taken"
            .to_string(),
    ));
    for (args, message) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 2, "{args:?}: {}", stderr);
        assert_eq!(stdout, "", "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {}", stderr);
        assert!(stderr.starts_with(message), "{args:?}: {}", stderr);
    }
    assert!(cases.len() >= 18);
}

// ---- Limits --------------------------------------------------------------------------------

/// Checks what a limited search reports against the true `score`: an exact result must be
/// right; an unfinished one must hold the score in its bounds, say which limit stopped it, and
/// list only proven moves. Returns the bounds' width (0 when exact).
fn consistent(result: Result<osolve::search::Solution, Unfinished>, score: i32, limit: u64) -> i32 {
    match result {
        Ok(solution) => {
            assert_eq!(solution.score, score);
            0
        }
        Err(unfinished) => {
            let bounds = unfinished.bounds;
            assert_eq!(bounds.reason, StopReason::NodeLimit);
            assert!(bounds.contains(score), "{bounds:?} against {score}");
            assert!(unfinished.nodes >= limit, "{} < {limit}", unfinished.nodes);
            if !unfinished.pv.is_empty() {
                assert_eq!((bounds.lower, bounds.upper), (score, score));
            }
            bounds.upper - bounds.lower
        }
    }
}

#[test]
fn node_limits_give_bounds_that_hold_the_true_score() {
    for threads in [1, 2] {
        let mut s = solver(threads, 64);
        // FFO #40 proves a bound within 20,000 nodes; FFO #42 only after about 15 million
        // (its first probe takes that long).
        for (number, narrows) in [(40, true), (42, false)] {
            let (position, score) = ffo(number);
            let mut narrowed = false;
            for limit in [20_000, 300_000, 3_000_000] {
                s.set_limits(Limits {
                    time: None,
                    nodes: Some(limit),
                });
                let width = consistent(s.solve(&position).map_err(unfinished), score, limit);
                narrowed |= width < 128;
            }
            assert!(narrowed || !narrows, "FFO #{number}: no bound proven");
        }
    }
}

#[test]
fn node_limits_on_random_positions_stop_anywhere_and_stay_right() {
    let mut rng = Rng(99);
    let mut exact = solver(2, 32);
    let mut limited = solver(2, 32);
    let mut widths = Vec::new();
    for i in 0..30 {
        let p = random_position(&mut rng, 15 + i % 3);
        let score = exact.solve(&p).unwrap().score;
        let limit = 2_000 + rng.below(400_000) as u64;
        limited.set_limits(Limits {
            time: None,
            nodes: Some(limit),
        });
        widths.push(consistent(
            limited.solve(&p).map_err(unfinished),
            score,
            limit,
        ));
        // Move scoring: the moves it finished are exact.
        let (all, _) = exact.score_moves(&p).unwrap();
        match limited.score_moves(&p).map_err(unfinished) {
            Ok((moves, _)) => assert_eq!(moves, all),
            Err(unfinished) => {
                assert!(unfinished.bounds.contains(all[0].score));
                for m in &unfinished.moves {
                    assert!(all.contains(m), "{m:?} is not {all:?}");
                }
            }
        }
        match limited.best_moves(&p).map_err(unfinished) {
            Ok((best, _, _)) => assert_eq!(best, score),
            Err(unfinished) => assert!(unfinished.bounds.contains(score)),
        }
    }
    // Some stops came before any bound, some between, some searches finished.
    assert!(widths.contains(&0) && widths.iter().any(|&w| w > 0 && w < 128));
}

#[test]
fn a_time_limit_stops_the_search_with_bounds() {
    let (position, score) = ffo(45);
    let mut s = solver(2, 64);
    s.set_limits(Limits {
        time: Some(Duration::from_millis(100)),
        nodes: None,
    });
    let unfinished = s
        .solve(&position)
        .map_err(unfinished)
        .expect_err("FFO #45 takes seconds");
    assert_eq!(unfinished.bounds.reason, StopReason::TimeLimit);
    assert!(unfinished.bounds.contains(score));
    assert!(unfinished.time >= Duration::from_millis(100));
    // The old interface says only that it stopped.
    assert!(s.solve(&position).is_err());
}

#[test]
fn a_stopped_search_leaves_the_solver_exact_for_the_next_positions() {
    // One solver is stopped again and again in the middle of deep searches (node and time
    // limits, on one and two threads); between the stops it solves positions exactly, with
    // whatever the stopped searches left in its table.
    let mut rng = Rng(31337);
    let deep = [ffo(45).0, ffo(46).0, ffo(47).0];
    for threads in [1, 2] {
        let mut s = solver(threads, 8);
        let mut reference = solver(1, 32);
        for round in 0..12 {
            let limits = if round % 2 == 0 {
                Limits {
                    time: None,
                    nodes: Some(50_000 + 100_000 * round as u64),
                }
            } else {
                Limits {
                    time: Some(Duration::from_millis(20)),
                    nodes: None,
                }
            };
            s.set_limits(limits);
            assert!(s.solve(&deep[round % 3]).map_err(unfinished).is_err());
            s.set_limits(Limits::NONE);
            let p = random_position(&mut rng, 14 + (round % 5) as u32);
            let solution = s.solve(&p).unwrap();
            assert_eq!(solution.score, reference.solve(&p).unwrap().score);
            if let BestMove::Play(square) = solution.best_move {
                let child = p.play(square).unwrap();
                assert_eq!(-reference.solve(&child).unwrap().score, solution.score);
            }
        }
        // And the position that was stopped most often, solved to the end.
        let (position, score) = ffo(40);
        s.set_limits(Limits {
            time: None,
            nodes: Some(1_000_000),
        });
        assert!(s.solve(&position).map_err(unfinished).is_err());
        s.set_limits(Limits::NONE);
        assert_eq!(s.solve(&position).unwrap().score, score);
    }
}

#[test]
fn a_stop_from_another_thread_mid_search_reports_true_bounds() {
    let (position, score) = ffo(45);
    let mut s = solver(2, 16);
    let stop = s.stop_handle();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stop.stop();
    });
    let unfinished = s
        .solve(&position)
        .map_err(unfinished)
        .expect_err("FFO #45 takes seconds");
    stopper.join().unwrap();
    assert_eq!(unfinished.bounds.reason, StopReason::Interrupted);
    assert!(unfinished.bounds.contains(score), "{:?}", unfinished.bounds);
    assert!(unfinished.nodes > 0);
    // A stop request holds for every later call (Ctrl-C ends the run).
    let quick = random_position(&mut Rng(5), 6);
    assert_eq!(
        s.solve(&quick)
            .unwrap_err()
            .unfinished()
            .unwrap()
            .bounds
            .reason,
        StopReason::Interrupted
    );
}

#[test]
fn the_cli_reports_unfinished_positions_with_bounds_never_a_score() {
    let text = fs::read_to_string(format!(
        "{}/positions/ffo-40.obf",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let r = solve_one(text.trim(), &["--node-limit", "2000000", "--threads", "1"]);
    assert_eq!(r["score"], Value::Null);
    assert_eq!(r["result"], Value::Null);
    assert_eq!(r["unfinished"], "node limit");
    let (lower, upper) = (r["lower"].as_i64().unwrap(), r["upper"].as_i64().unwrap());
    assert!(lower <= 38 && 38 <= upper, "{r}");
    assert!(
        lower > -64,
        "the aspiration probe finishes within 2M nodes: {r}"
    );
    let (code, stdout, _) = run(&[
        "solve",
        "--quiet",
        "positions/ffo-40.obf",
        "--node-limit",
        "2000000",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("positions/ffo-40.obf:1  unfinished (node limit): score >= +"),
        "{}",
        stdout
    );
    // The same run without a limit is exact.
    let r = solve_one(text.trim(), &["--time-limit", "3600"]);
    assert_eq!(r["score"], 38);
}

/// What a stopped search proved (these positions are never refused: limits are set).
fn unfinished(error: osolve::search::SolveError) -> osolve::search::Unfinished {
    error
        .unfinished()
        .expect("a limited search is never refused")
}
