//! End-to-end tests of the commands that solve besides `solve` and `analyze`: `show --analyze`
//! and `--solve`, `games`, `gen` and `bench` refuse positions too deep to finish without a
//! limit (the same one line as `solve`, exit 2), take `--time-limit` / `--node-limit` (a search
//! that reaches one is reported unfinished, or dropped by `gen`) and `--force`; and every
//! command stops promptly on SIGTERM, keeps what it finished and exits 130.

use std::fs;
use std::path::Path;
use std::time::Duration;

mod common;
use common::{root, run_in, temp_dir, Background};

/// What `solve` says of a position too deep to finish, for `source` with `empties` empties.
fn refused(source: &str, empties: u32, then: &str) -> String {
    format!(
        "{source}: {empties} empty squares: not solved, an exact solve would not finish (it takes \
         months or more beyond 36 empties); use --force to try anyway, or --time-limit / \
         --node-limit for bounds{then}"
    )
}

#[test]
fn show_refuses_a_hopeless_depth_and_takes_limits() {
    for mode in ["--analyze", "--solve"] {
        let (code, stdout, stderr) = run_in(root(), &["show", "-p", "f5", mode, "--ascii"]);
        assert_eq!(code, 2, "{mode}");
        assert_eq!(stdout, "", "{mode}");
        assert_eq!(
            stderr,
            format!("osolve: {}\n", refused("<position>:1", 59, " (skipped)")),
            "{mode}"
        );
    }
    let (code, stdout, stderr) = run_in(
        root(),
        &[
            "show",
            "-p",
            "f5",
            "--solve",
            "--node-limit",
            "100000",
            "--ascii",
        ],
    );
    assert_eq!(code, 0);
    assert!(
        stderr.starts_with("osolve: <position>:1: unfinished (node limit): "),
        "{stderr}"
    );
    // The legal moves are drawn (white to move after f5: d6, f4, f6).
    assert!(
        stdout.contains("black 4  white 1  empties 59  white to move"),
        "{stdout}"
    );
    assert_eq!(stdout.matches('+').count(), 3, "{stdout}");
}

#[test]
fn games_refuses_hopeless_depths_and_reports_games_stopped_at_a_limit() {
    let sample = root().join("tests/data/games/sample.txt");
    // The six transcripts of the sample (a comment line above them).
    let games = 6;
    let sample = sample.to_str().unwrap();
    let (code, stdout, stderr) = run_in(root(), &["games", sample, "--empties", "40"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    for k in 1..=games {
        let line = refused(&format!("{sample}#{k}"), 40, " (skipped)");
        assert!(stderr.contains(&format!("{line}\n")), "{stderr}");
    }
    assert!(stderr.contains(&format!(
        "read {games} games: 0 analysed, 0 skipped, {games} refused\n"
    )));

    let (code, stdout, stderr) = run_in(
        root(),
        &[
            "games",
            sample,
            "--empties",
            "40",
            "--node-limit",
            "50000",
            "--format",
            "jsonl",
            "--threads",
            "1",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), games);
    for record in &records {
        assert_eq!(record["unfinished"], "node limit at 40 empties", "{record}");
        assert_eq!(record["exact"], serde_json::Value::Null);
        assert_eq!(record["played"], serde_json::json!([]));
    }
    assert!(stderr.contains(&format!(
        "{games} games unfinished: a search reached the limit\n"
    )));
}

#[test]
fn gen_refuses_hopeless_depths_and_drops_positions_stopped_at_a_limit() {
    let dir = temp_dir();
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "gen",
            "--positions",
            "3",
            "--empties",
            "40-40",
            "-o",
            "g.obf",
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "osolve: --empties 40-40: 40 empty squares: not solved, an exact solve would not finish \
         (it takes months or more beyond 36 empties); use --force to try anyway, or \
         --time-limit / --node-limit (a position whose search reaches the limit is dropped)\n"
    );
    assert!(!dir.path().join("g.obf").exists());

    let (code, stdout, stderr) = run_in(
        dir.path(),
        &[
            "gen",
            "--positions",
            "3",
            "--empties",
            "40-40",
            "--node-limit",
            "10000",
            "-o",
            "-",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with("generated 0 positions from 3 games"),
        "{stderr}"
    );
    assert!(stderr.contains("\n3 positions dropped: their search reached the limit\n"));
}

#[test]
fn bench_refuses_a_suite_too_deep_and_marks_rows_stopped_at_a_limit() {
    let dir = temp_dir();
    fs::write(dir.path().join("openings.txt"), "f5\nf5d6\n").unwrap();
    let (code, stdout, stderr) = run_in(dir.path(), &["bench", "--suite", "openings.txt"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!(
            "osolve: {}\nosolve: {}\n",
            refused("openings.txt:1", 59, ""),
            refused("openings.txt:2", 58, "")
        )
    );

    let (code, stdout, _) = run_in(
        root(),
        &[
            "bench",
            "--suite",
            "ffo1-19",
            "--node-limit",
            "1",
            "--threads",
            "1",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("  unfinished (node limit)\n").count(), 19);
    assert!(stdout.ends_with(
        "19 positions unfinished: a search reached the limit (no score to check)\n\
         all finished scores correct\n"
    ));
}

/// Starts `osolve ARGS` in `dir`, sends SIGTERM after `wait`, and returns the exit code, the
/// standard output and error, and how long it took to end after the signal.
fn terminate(dir: &Path, args: &[&str], wait: Duration) -> (i32, String, String, Duration) {
    let mut running = Background::start(dir, args);
    std::thread::sleep(wait);
    running.signal("-TERM");
    let stopped = running.stop_within(Duration::from_secs(120));
    (stopped.code, stopped.stdout, stopped.stderr, stopped.took)
}

#[cfg(unix)]
#[test]
fn every_solving_command_stops_on_sigterm_with_130() {
    let dir = temp_dir();
    let sample = root().join("tests/data/games/sample.txt");
    let sample = sample.to_str().unwrap();
    let second = Duration::from_secs(1);
    // Far longer than a stop takes even on a loaded machine, far shorter than any search here.
    let promptly = Duration::from_secs(30);

    let args = [
        "gen",
        "--positions",
        "3",
        "--empties",
        "40-40",
        "--force",
        "-o",
        "g.obf",
    ];
    let (code, _, stderr, took) = terminate(dir.path(), &args, second);
    assert_eq!(code, 130, "{stderr}");
    assert!(took < promptly, "gen took {took:?}");
    assert!(
        stderr.ends_with("interrupted: 0 complete lines kept in g.obf\n"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(dir.path().join("g.obf")).unwrap(), "");

    let (code, stdout, stderr, took) =
        terminate(dir.path(), &["bench", "--suite", "ffo40-59"], second);
    assert_eq!(code, 130, "{stderr}");
    assert!(took < promptly, "bench took {took:?}");
    assert!(stdout.contains("interrupted: "), "{stdout}");
    assert!(!stdout.contains("correct"), "no verdict: {stdout}");

    let args = [
        "games",
        sample,
        "--empties",
        "40",
        "--force",
        "-o",
        "out.txt",
    ];
    let (code, _, stderr, took) = terminate(dir.path(), &args, second);
    assert_eq!(code, 130, "{stderr}");
    assert!(took < promptly, "games took {took:?}");
    assert!(stderr.contains("interrupted: 0 games finished and written to out.txt"));

    let args = ["show", "-p", "f5", "--analyze", "--force", "--ascii"];
    let (code, _, stderr, took) = terminate(dir.path(), &args, second);
    assert_eq!(code, 130, "{stderr}");
    assert!(took < promptly, "show took {took:?}");
    assert_eq!(stderr, "interrupted: 0 positions shown\n");

    let (code, _, stderr, took) = terminate(dir.path(), &["perft", "20"], second);
    assert_eq!(code, 130, "{stderr}");
    assert!(took < promptly, "perft took {took:?}");
}
