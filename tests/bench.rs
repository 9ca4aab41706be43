//! End-to-end tests of `osolve bench`, running the real binary on small suites: the table has a
//! row per position and the totals, right scores exit 0 with `all scores correct`, a wrong
//! annotation exits 1 and is listed, JSON lines carry every field, repeats give one time per
//! run, and bad suites are refused with exit code 2.

use serde_json::Value;
use std::path::PathBuf;
use tempfile::TempDir;

mod common;
use common::{finished, osolve, temp_dir, write_file};

/// FFO #20 (6 empties), #1 and #5 (14 empties each), with their published move scores.
const SMALL: [&str; 3] = [
    "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X; H5:+6; G6:-2; F6:-4; H6:-10;",
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;",
    "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X; G8:+32; G2:+12; B2:-20; G6:-26; G1:-32; G7:-34;",
];

/// A suite file in a fresh directory: a comment line, then `lines` (so position k is on line
/// k + 1 and numbered so).
fn suite(lines: &[&str]) -> (TempDir, PathBuf) {
    let dir = temp_dir();
    let mut text = String::from("# three small positions\n");
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    let path = write_file(dir.path(), "small.obf", text);
    (dir, path)
}

/// Runs `osolve bench --threads 1 --hash-mb 16 ARGS` and returns (exit code, stdout, stderr).
fn bench(args: &[&str]) -> (i32, String, String) {
    finished(
        osolve()
            .args(["bench", "--threads", "1", "--hash-mb", "16"])
            .args(args),
    )
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is a JSON object"))
        .collect()
}

#[test]
fn right_scores_give_a_row_each_the_totals_and_exit_0() {
    let (_dir, path) = suite(&SMALL);
    let (code, stdout, stderr) = bench(&["--suite", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{stdout}");
    assert!(lines[0].starts_with("suite "), "{stdout}");
    assert!(
        lines[0].contains("3 positions, 1 thread, hash 16 MiB"),
        "{stdout}"
    );
    assert!(lines[1].contains("empties") && lines[1].contains("Mnodes/s"));
    let rows: Vec<Vec<&str>> = lines[2..5]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    // number, empties, expected, found, best move, nodes, time, Mnodes/s
    let expected = [
        ["2", "6", "+6", "+6", "h5"],
        ["3", "14", "+18", "+18", "g8"],
        ["4", "14", "+32", "+32", "g8"],
    ];
    for (row, want) in rows.iter().zip(expected) {
        assert_eq!(row.len(), 8, "{row:?}");
        assert_eq!(&row[..5], &want, "{stdout}");
        let nodes: u64 = row[5].replace(',', "").parse().expect("a node count");
        assert!(nodes > 0);
        assert!(row[6].parse::<f64>().is_ok() && row[7].parse::<f64>().is_ok());
    }
    assert!(lines[5].starts_with("positions 3  nodes "), "{stdout}");
    assert!(lines[5].ends_with("Mnodes/s"), "{stdout}");
    assert_eq!(lines[6], "all scores correct");
}

#[test]
fn a_wrong_annotation_exits_1_and_is_listed() {
    let wrong = SMALL[1].replace("G8:+18", "G8:+20");
    let (_dir, path) = suite(&[SMALL[0], &wrong, SMALL[2]]);
    let (code, stdout, stderr) = bench(&["--suite", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("3 "))
        .expect("the row of line 3");
    assert!(row.ends_with("WRONG"), "{row}");
    assert!(
        stdout.ends_with("wrong scores: #3 expected +20 found +18\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("all scores correct"));
}

#[test]
fn json_lines_have_every_field_and_one_time_per_repeat() {
    let (_dir, path) = suite(&SMALL);
    let (code, stdout, stderr) =
        bench(&["--suite", path.to_str().unwrap(), "--json", "--repeat", "3"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 4, "{stdout}");
    let mut nodes = 0;
    for (line, (number, empties, score)) in lines.iter().zip([(2, 6, 6), (3, 14, 18), (4, 14, 32)])
    {
        assert_eq!(line["type"], "position");
        assert_eq!(line["number"], number);
        assert_eq!(line["empties"], empties);
        assert_eq!(line["expected"], score);
        assert_eq!(line["score"], score);
        assert_eq!(line["verdict"], "correct");
        assert!(line["best_move"].is_string());
        assert!(line["nodes"].as_u64().unwrap() > 0);
        nodes += line["nodes"].as_u64().unwrap();
        let times = line["times_s"].as_array().unwrap();
        assert_eq!(times.len(), 3);
        // The median of three is one of them.
        assert!(times.contains(&line["time_s"]));
        assert!(line["nps"].as_f64().unwrap() >= 0.0);
        assert_eq!(
            line["source"].as_str().unwrap(),
            format!("{}:{number}", path.display())
        );
    }
    let summary = &lines[3];
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["positions"], 3);
    assert_eq!(summary["suite_positions"], 3);
    assert_eq!(summary["nodes"].as_u64().unwrap(), nodes);
    assert!(summary["time_s"].as_f64().unwrap() > 0.0);
    assert!(summary["nps"].as_f64().unwrap() > 0.0);
    assert_eq!(summary["all_correct"], true);
    assert_eq!(summary["wrong"], serde_json::json!([]));
    assert_eq!(summary["unchecked"], 0);
    assert_eq!(summary["threads"], 1);
    assert_eq!(summary["hash_mb"], 16);
    assert_eq!(summary["repeat"], 3);
    assert_eq!(summary["keep_hash"], false);
    assert_eq!(summary["interrupted"], false);
}

#[test]
fn json_lists_wrong_positions() {
    let wrong = SMALL[2].replace("G8:+32", "G8:+30");
    let (_dir, path) = suite(&[SMALL[0], SMALL[1], &wrong]);
    let (code, stdout, _) = bench(&["--suite", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let lines = json_lines(&stdout);
    assert_eq!(lines[2]["verdict"], "wrong");
    assert_eq!(lines[3]["all_correct"], false);
    assert_eq!(lines[3]["wrong"], serde_json::json!([4]));
}

#[test]
fn positions_without_scores_are_solved_but_not_judged() {
    let bare = &SMALL[0][..66];
    let (_dir, path) = suite(&[bare]);
    let (code, stdout, stderr) = bench(&["--suite", path.to_str().unwrap(), "--keep-hash"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("table kept between positions"), "{stdout}");
    assert!(stdout.contains("       ?     +6"), "{stdout}");
    assert!(stdout.ends_with("all scores correct (1 without an expected score)\n"));
}

#[test]
fn the_built_in_ffo_1_19_suite_is_all_correct() {
    let (code, stdout, stderr) = bench(&["--suite", "ffo1-19", "--json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 20);
    for (i, line) in lines[..19].iter().enumerate() {
        assert_eq!(line["number"], i + 1);
        assert_eq!(line["verdict"], "correct");
    }
    assert_eq!(lines[19]["suite"], "ffo1-19");
}

#[test]
fn bad_suites_exit_2() {
    let (code, stdout, stderr) = bench(&["--suite", "ffo99-100"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("neither a built-in suite"), "{stderr}");

    let (_dir, path) = suite(&[SMALL[0], "--XXXXX-- X"]);
    let (code, _, stderr) = bench(&["--suite", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(&format!("{}:3", path.display())),
        "the error names the line: {stderr}"
    );

    let (_dir, path) = suite(&[]);
    let (code, _, stderr) = bench(&["--suite", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no positions"), "{stderr}");

    let (code, _, _) = bench(&["--repeat", "0"]);
    assert_eq!(code, 2);
}

#[test]
fn other_rules_solve_the_suite_as_solve_does() {
    // The boards of SMALL without their scores (Othello's), solved under each other rule set:
    // the rows hold the scores and node counts of `solve` with the same flags.
    let bare: Vec<&str> = SMALL.iter().map(|line| &line[..66]).collect();
    let (_dir, path) = suite(&bare);
    let file = path.to_str().unwrap();
    for (flags, scores, words) in [
        (
            &["--rules", "reversi"][..],
            [6, 12, 18],
            "reversi rules, official scoring",
        ),
        (
            &["--scoring", "raw"][..],
            [1, 18, 31],
            "othello rules, raw scoring",
        ),
        (
            &["--rules", "reversi", "--scoring", "raw"][..],
            [1, 12, 18],
            "reversi rules, raw scoring",
        ),
    ] {
        let (code, stdout, stderr) = bench(&[&["--suite", file, "--json"][..], flags].concat());
        assert_eq!(code, 0, "{flags:?}: {stdout}{stderr}");
        let lines = json_lines(&stdout);
        let (code, solved, stderr) = finished(
            osolve()
                .args(["solve", "--json", "--threads", "1", "--hash-mb", "16", file])
                .args(flags),
        );
        assert_eq!(code, 0, "{stderr}");
        let solved = json_lines(&solved);
        for ((row, solve), score) in lines.iter().zip(&solved).zip(scores) {
            assert_eq!(row["score"], score, "{flags:?}: {row}");
            assert_eq!(row["verdict"], "unchecked");
            assert_eq!(row["score"], solve["score"], "{flags:?}");
            assert_eq!(row["nodes"], solve["nodes"], "{flags:?}");
        }
        let summary = &lines[3];
        let rules = if flags.contains(&"reversi") {
            "reversi"
        } else {
            "othello"
        };
        let scoring = if flags.contains(&"raw") {
            "raw"
        } else {
            "official"
        };
        assert_eq!(
            (&summary["rules"], &summary["scoring"]),
            (&rules.into(), &scoring.into())
        );
        let (_, table, _) = bench(&[&["--suite", file][..], flags].concat());
        let head = table.lines().next().unwrap();
        assert!(
            head.contains(&format!("3 positions, {words}, 1 thread")),
            "{table}"
        );
        let totals = table
            .lines()
            .find(|l| l.starts_with("positions 3"))
            .unwrap();
        assert!(totals.ends_with(&format!("Mnodes/s  ({words})")), "{table}");
    }
    // The Othello start is a Reversi position too (30 discs each left), and as deep as
    // ever: the suite is refused before anything is measured.
    let start = "---------------------------OX------XO--------------------------- X";
    let (_dir, path) = suite(&[bare[0], start]);
    let (code, stdout, stderr) = bench(&["--suite", path.to_str().unwrap(), "--rules", "reversi"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains(":3: 60 empty squares"), "{stderr}");
}
