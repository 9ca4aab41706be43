//! End-to-end tests of estimates (`--depth N`): every format labels them `estimate (depth N)`
//! (JSON: `"estimate_depth"` with the score fields null), never as a score; `--check` counts
//! none of them; `--resume` refuses to mix them with exact results or another depth; `--depth`
//! refuses the options it cannot honour, in one line with exit code 2.

use std::fs;

mod common;
use common::{run, run_in, temp_dir, write_file};

/// FFO #1 with its published scores, and G8 marked +16 where it is +18 (a wrong annotation
/// `--check` would report of an exact analysis).
const WRONG_FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; \
                           G8:+16; H1:+12; A2:+6; H7:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n";

#[test]
fn analyze_labels_estimates_in_every_format_and_never_checks_them() {
    let dir = temp_dir();
    let input = write_file(dir.path(), "wrong.obf", WRONG_FFO_1);
    let input = input.to_str().unwrap();
    // Exact: the wrong annotation is found.
    let (code, _, stderr) = run_in(dir.path(), &["analyze", input, "--check", "-q"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("G8: expected +16, found +18"), "{stderr}");
    // Estimated: nothing is checked, so nothing is wrong (exit 0), and the summary says why.
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &[
            "analyze", input, "--check", "--depth", "4", "--format", "obf",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("checked 0 positions: 0 correct, 0 wrong"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "1 position estimated by a depth-limited search (labelled estimates, not checked)"
        ),
        "{stderr}"
    );
    let line = stdout.lines().next().unwrap();
    assert!(line.ends_with("; % estimate (depth 4)"), "{line}");
    assert_eq!(line.matches(':').count(), 8, "{line}");
    // The OBF output read back is not checked either: its scores are marked as estimates.
    let estimates = write_file(dir.path(), "estimates.obf", &stdout);
    let (code, _, stderr) = run_in(
        dir.path(),
        &["analyze", estimates.to_str().unwrap(), "--check", "-q"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("checked 0 positions"), "{stderr}");

    let (code, stdout, _) = run_in(
        dir.path(),
        &["analyze", input, "--depth", "4", "--format", "jsonl"],
    );
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(value["best_score"], serde_json::Value::Null);
    assert_eq!(value["estimate_depth"], 4);
    assert_eq!(value["estimate"], value["moves"][0]["score"]);
    assert_eq!(value["moves"].as_array().unwrap().len(), 8);

    let (code, stdout, _) = run_in(
        dir.path(),
        &["analyze", input, "--depth", "4", "--format", "csv"],
    );
    assert_eq!(code, 0);
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), 1 + 8);
    let best = rows[1].split(',').nth(4).unwrap();
    assert!(
        rows[1..].iter().all(|row| row.split(',').nth(5)
            == Some(format!("estimate (depth 4) {best}").as_str())),
        "{stdout}"
    );
}

#[test]
fn resume_never_mixes_estimates_with_exact_scores_or_other_depths() {
    let dir = temp_dir();
    let input = write_file(dir.path(), "ffo.obf", WRONG_FFO_1);
    let input = input.to_str().unwrap();
    let out = dir.path().join("out.obf");
    let out = out.to_str().unwrap();
    let (code, _, _) = run_in(
        dir.path(),
        &["analyze", input, "--depth", "4", "-o", out, "-q"],
    );
    assert_eq!(code, 0);
    let written = fs::read_to_string(out).unwrap();
    assert!(
        written.starts_with("% osolve analyze --depth 4\n"),
        "{written}"
    );
    for (args, message) in [
        (
            vec!["--depth", "6"],
            "it was written with --depth 4, this run is with --depth 6",
        ),
        (
            vec![],
            "it was written with --depth 4, this run is without --depth",
        ),
    ] {
        let mut all = vec!["analyze", input, "-o", out, "--resume", "-q"];
        all.extend(args);
        let (code, _, stderr) = run_in(dir.path(), &all);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "osolve: cannot resume {out}: {message} (results of other options would be \
                 mixed)\n"
            )
        );
        assert_eq!(
            fs::read_to_string(out).unwrap(),
            written,
            "a refusal changes nothing"
        );
    }
    // The same depth resumes (nothing left to do).
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "analyze", input, "-o", out, "--resume", "--depth", "4", "-q",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read_to_string(out).unwrap(), written);
    // An exact output refuses estimates.
    let exact = dir.path().join("exact.obf");
    let exact = exact.to_str().unwrap();
    let (code, _, _) = run_in(dir.path(), &["analyze", input, "-o", exact, "-q"]);
    assert_eq!(code, 0);
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "analyze", input, "-o", exact, "--resume", "--depth", "4", "-q",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("it was written without --depth, this run is with --depth 4"),
        "{stderr}"
    );
}

#[test]
fn depth_refuses_what_it_cannot_honour() {
    let p = "positions/ffo-40.obf";
    for (extra, message) in [
        (
            vec!["--wld"],
            "osolve: --depth cannot be used with --wld: an estimate is a search of fixed depth, \
             not a solve\n",
        ),
        (
            vec!["--node-limit", "1000"],
            "osolve: --depth cannot be used with --node-limit: an estimate is a search of fixed \
             depth, not a solve\n",
        ),
        (
            vec!["--rules", "reversi"],
            "osolve: --depth: estimates are made under Othello rules with official scoring only \
             (the evaluation knows no other)\n",
        ),
    ] {
        let mut args = vec!["analyze", p, "--depth", "4"];
        args.extend(extra);
        let (code, stdout, stderr) = run(&args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(stderr, message, "{args:?}");
    }
    let (code, _, stderr) = run(&["analyze", p, "--depth", "61"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "osolve: invalid value '61' for '--depth <N>': expected a search depth in plies from 1 to \
         60\n"
    );
}

#[test]
fn solve_and_show_label_estimates_and_a_stopped_solve_gives_one() {
    // FFO #40 at depth 3: an estimate, in text and JSON, never a score.
    let (code, stdout, _) = run(&["solve", "positions/ffo-40.obf", "--depth", "3", "--quiet"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("positions/ffo-40.obf:1  estimate (depth 3) +"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("score") && !stdout.contains("black 5"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&["solve", "positions/ffo-40.obf", "--depth", "3", "--json"]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(value["score"], serde_json::Value::Null);
    assert_eq!(value["result"], serde_json::Value::Null);
    assert_eq!(value["final_discs"], serde_json::Value::Null);
    assert_eq!(value["estimate_depth"], 3);
    assert!(value["estimate"].is_i64());
    // A node limit stops the exact solve of FFO #45: the bounds, and an estimate beside them.
    let args = [
        "solve",
        "positions/ffo-45.obf",
        "--node-limit",
        "200000",
        "--threads",
        "1",
    ];
    let (code, stdout, _) = run(&[&args[..], &["--quiet"]].concat());
    assert_eq!(code, 0);
    assert!(
        stdout.contains("unfinished (node limit): ") && stdout.contains(", estimate (depth 8) "),
        "{stdout}"
    );
    let (_, stdout, _) = run(&[&args[..], &["--json"]].concat());
    let value: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(value["score"], serde_json::Value::Null);
    assert_eq!(value["estimate_depth"], 8);
    let (lower, upper) = (
        value["lower"].as_i64().unwrap(),
        value["upper"].as_i64().unwrap(),
    );
    let estimate = value["estimate"].as_i64().unwrap();
    assert!(lower <= estimate && estimate <= upper, "{value}");
    // show: the caption says estimate, and the picture still reads back as the position.
    let (code, stdout, _) = run(&[
        "show",
        "positions/ffo-40.obf",
        "--analyze",
        "--depth",
        "3",
        "--ascii",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\nestimate (depth 3): best "), "{stdout}");
    let (code, back, _) = run(&["solve", "-p", stdout.trim_end(), "--depth", "1", "--json"]);
    assert_eq!(code, 0, "{stdout}");
    let back: serde_json::Value = serde_json::from_str(back.trim()).unwrap();
    assert_eq!(
        back["position"],
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
    );
    let (code, _, stderr) = run(&["show", "positions/ffo-40.obf", "--depth", "3"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "osolve: --depth needs --analyze or --solve (what to estimate)\n"
        )
    );
}
