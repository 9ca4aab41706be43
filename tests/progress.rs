//! The live view of a long search. Through the library: the progress callback of
//! `SolveOptions` receives events whose proven bounds only narrow and hold the true score,
//! whose nodes and times only grow, through the selective passes and the exact search, ending
//! at the exact score with the final best move (FFO #40, one thread, and its every move's
//! score), or at the bounds of a stopped search; small positions send none. Through the CLI:
//! `solve` and `show --analyze` print the live line on a terminal (run under `script`), `analyze`
//! shows it in its progress bar, and
//! nothing of it with `--quiet` or when standard error is not a terminal.

use std::sync::{Arc, Mutex};

use osolve::board::Position;
use osolve::notation::{open_path, parse_position};
use osolve::search::{
    BestMove, Limits, Progress, ProgressFn, SolveOptions, Solver, Stage, StopReason,
};

mod common;
use common::{binary, root, run_in, sq};

/// FFO #40 (20 empties, black to move, +38 by a2).
fn ffo40() -> Position {
    open_path(root().join("positions/ffo-40.obf"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .position
}

/// A one-thread solver whose events are collected.
fn recording_solver() -> (Solver, Arc<Mutex<Vec<Progress>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let solver = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 64,
        progress: Some(ProgressFn::new(move |event| {
            sink.lock().unwrap().push(*event)
        })),
        ..SolveOptions::default()
    })
    .unwrap();
    (solver, events)
}

/// Bounds only narrow and hold `score`; nodes and elapsed time only grow.
fn assert_narrowing(events: &[Progress], score: i32) {
    assert!(!events.is_empty());
    for pair in events.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert!(b.lower >= a.lower && b.upper <= a.upper, "{a:?} then {b:?}");
        assert!(
            b.nodes >= a.nodes && b.elapsed >= a.elapsed,
            "{a:?} then {b:?}"
        );
    }
    for event in events {
        assert!(
            event.lower <= score && score <= event.upper,
            "{event:?} excludes {score}"
        );
    }
}

#[test]
fn a_solve_reports_narrowing_bounds_and_ends_at_the_exact_score() {
    let (mut solver, events) = recording_solver();
    let solution = solver.solve(&ffo40()).unwrap();
    assert_eq!(solution.score, 38);
    let events = events.lock().unwrap().clone();
    assert_narrowing(&events, 38);
    // The first event is the first selective pass, with the whole window.
    let first = events[0];
    assert_eq!(
        first.stage,
        Stage::Selective {
            pass: 1,
            passes: 4,
            margin: 8
        }
    );
    assert_eq!((first.lower, first.upper, first.estimate), (-64, 64, None));
    // Every pass runs (margins 8, 12, 16, 20), each leaves an estimate (never a bound), then
    // the exact search.
    let stages: Vec<Stage> = events.iter().map(|e| e.stage).collect();
    for (pass, margin) in [(2, 12), (3, 16), (4, 20)] {
        assert!(stages.contains(&Stage::Selective {
            pass,
            passes: 4,
            margin
        }));
    }
    assert!(stages
        .iter()
        .any(|s| matches!(s, Stage::Exact { alpha, beta } if beta - alpha == 2)));
    assert!(stages.contains(&Stage::PrincipalVariation));
    assert!(events.iter().any(|e| e.estimate.is_some()));
    // The bounds meet before the principal variation is proven.
    let pv = events
        .iter()
        .find(|e| e.stage == Stage::PrincipalVariation)
        .unwrap();
    assert_eq!((pv.lower, pv.upper), (38, 38));
    let last = *events.last().unwrap();
    assert_eq!(last.stage, Stage::Finished);
    assert_eq!((last.lower, last.upper), (38, 38));
    assert_eq!(last.best_move, Some(BestMove::Play(sq("a2"))));
    assert_eq!(last.nodes, solution.nodes);
    assert_eq!(
        events.iter().filter(|e| e.stage == Stage::Finished).count(),
        1
    );
}

#[test]
fn scoring_every_move_counts_the_moves_and_ends_at_the_best_score() {
    let (mut solver, events) = recording_solver();
    let (moves, nodes) = solver.score_moves(&ffo40()).unwrap();
    assert_eq!((moves[0].mv, moves[0].score), (Some(sq("a2")), 38));
    let events = events.lock().unwrap().clone();
    assert_narrowing(&events, 38);
    let total = moves.len();
    assert_eq!(total, 10);
    assert_eq!(events[0].moves, Some((0, total)));
    // The moves scored only grow, to all of them.
    for pair in events.windows(2) {
        assert!(pair[1].moves.unwrap().0 >= pair[0].moves.unwrap().0);
    }
    let last = *events.last().unwrap();
    assert_eq!(
        (last.stage, last.lower, last.upper, last.moves),
        (Stage::Finished, 38, 38, Some((total, total)))
    );
    assert_eq!(last.best_move, Some(BestMove::Play(sq("a2"))));
    assert_eq!(last.nodes, nodes);
    // No estimate is given for one move's search.
    assert!(events.iter().all(|e| e.estimate.is_none()));
}

#[test]
fn a_stopped_search_ends_with_its_proven_bounds_and_small_ones_send_nothing() {
    let (mut solver, events) = recording_solver();
    solver.set_limits(Limits {
        time: None,
        nodes: Some(2_000_000),
    });
    let unfinished = solver.solve(&ffo40()).unwrap_err().unfinished().unwrap();
    let seen = events.lock().unwrap().clone();
    assert_narrowing(&seen, 38);
    let last = *seen.last().unwrap();
    assert_eq!(last.stage, Stage::Stopped(StopReason::NodeLimit));
    assert_eq!(
        (last.lower, last.upper),
        (unfinished.bounds.lower, unfinished.bounds.upper)
    );
    assert_eq!(last.nodes, unfinished.nodes);
    // FFO #1 (14 empties) sends events; 11 empties along its best line, none.
    solver.set_limits(Limits::NONE);
    let ffo1 = parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
        .unwrap()
        .position;
    events.lock().unwrap().clear();
    let solution = solver.solve(&ffo1).unwrap();
    let seen = events.lock().unwrap().clone();
    assert_narrowing(&seen, 18);
    let last = *seen.last().unwrap();
    assert_eq!(
        (last.stage, last.lower, last.upper),
        (Stage::Finished, 18, 18)
    );
    assert_eq!(last.best_move, Some(BestMove::Play(sq("g8"))));
    let small = ffo1.after(&solution.pv[..3]).unwrap();
    assert_eq!(small.board.empties(), 11);
    events.lock().unwrap().clear();
    assert_eq!(solver.solve(&small).unwrap().score, -18);
    assert_eq!(events.lock().unwrap().len(), 0);
}

/// Runs `osolve ARGS` under `script`, which gives it a terminal; `None` where `script` is
/// missing.
fn on_a_terminal(args: &str) -> Option<String> {
    // Wide enough for the whole line (a narrower terminal gets it cut at its width).
    let command = format!("stty rows 50 cols 250; {} {args}", binary().display());
    let output = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(root())
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(unix)]
#[test]
fn a_long_solve_on_a_terminal_shows_the_live_line_and_quiet_does_not() {
    let long = "solve -p f5d6c3d3c4f4f6f3e6e7d7 --time-limit 2 --ascii --threads 1";
    let Some(text) = on_a_terminal(long) else {
        return;
    };
    assert!(text.contains("solving <position>:1 (49 empties)"), "{text}");
    assert!(text.contains(" Mn/s  score in [-64, +64]"), "{text}");
    // The selective passes have a quarter of the time: the line shows the exact search.
    assert!(
        text.contains("  best ") && text.contains("  exact ("),
        "{text}"
    );
    assert!(text.contains("unfinished (time limit)"), "{text}");
    // Rewritten in place and erased before the result.
    assert!(text.contains('\r'), "{text}");
    let quiet = on_a_terminal(&format!("{long} -q")).unwrap();
    assert!(!quiet.contains("solving"), "{quiet}");
    assert!(
        quiet.starts_with("<position>:1  unfinished (time limit)"),
        "{quiet}"
    );
    // `show --analyze` shows the moves it has scored.
    let show = on_a_terminal(
        "show -p f5d6c3d3c4f4f6f3e6e7d7 --analyze --time-limit 2 --ascii --threads 1",
    )
    .unwrap();
    assert!(show.contains("solving <position>:1 (49 empties)"), "{show}");
    assert!(show.contains("  moves 0/12  "), "{show}");
    // `analyze` shows a deep position's progress in its bar.
    let analyze = on_a_terminal("analyze positions/ffo-45.obf --time-limit 2 --threads 1").unwrap();
    assert!(
        analyze.contains(" Mn/s  score in [-64, +64]  moves 0/"),
        "{analyze}"
    );
    // Without a terminal there is none of it either.
    let args: Vec<&str> = long.split(' ').collect();
    let (_, stdout, stderr) = run_in(root(), &args);
    assert_eq!(stderr, "");
    assert!(stdout.contains("<position>:1\n"), "{stdout}");
}
