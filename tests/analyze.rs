//! End-to-end tests of `osolve analyze`, running the real binary: the FFO suite checks out,
//! every move's score equals a reference minimax, an interrupted run resumed equals an
//! uninterrupted one byte for byte, shards merge back into the whole (by source, and through
//! `scripts/shard.sh`), JSON lines and CSV read back to the numbers of OBF, and bad input lines
//! and bad arguments are reported with the documented exit codes (a wrong score beside a bad
//! line: 1).

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::process::{Command as StdCommand, Output};
use std::time::Instant;

use osolve::board::random::{random_position, Rng};
use osolve::board::{Bits, Board, Position, Square};
use osolve::notation::{format_board, parse_text, Source};
use osolve::search::reference::{alpha_beta, minimax};
use serde::Deserialize;

mod common;
use common::{
    binary, interrupt_after, osolve, send_signal, spawn, temp_dir, text, wait_for_lines,
    whole_lines,
};

const FFO_1_19: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/ffo-1-19.obf");

/// Runs `osolve analyze ARGS` and returns its output (whatever the exit code).
fn analyze(args: &[&str]) -> Output {
    let mut command = osolve();
    command.arg("analyze").args(args);
    command.output().expect("osolve runs")
}

/// A position of random play with at most 14 empties where the side to move must pass.
fn random_pass_position(rng: &mut Rng) -> Position {
    loop {
        let mut position = Position::start();
        loop {
            let moves = position.board.moves();
            if moves == 0 {
                if position.board.pass().moves() == 0 {
                    break;
                }
                if position.board.empties() <= 14 {
                    return position;
                }
                position = position.pass();
                continue;
            }
            let pick = (rng.next_u64() % u64::from(moves.count_ones())) as usize;
            position = position
                .play(Square::new(Bits(moves).nth(pick).unwrap()).unwrap())
                .unwrap();
        }
    }
}

/// Random positions whose empties cycle through `sizes`.
fn random_positions(seed: u64, count: usize, sizes: &[u32]) -> Vec<Position> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|i| random_position(&mut rng, sizes[i % sizes.len()]))
        .collect()
}

/// Writes one board string per line.
fn write_positions(path: &Path, positions: &[Position]) {
    let lines: String = positions.iter().map(|p| format_board(p) + "\n").collect();
    fs::write(path, lines).unwrap();
}

/// A JSON line of `osolve analyze`, read independently of the crate's own types.
#[derive(Debug, Deserialize)]
struct JsonRecord {
    source: String,
    position: String,
    empties: u32,
    moves: Vec<JsonMove>,
    best_score: i32,
    best_moves: Vec<String>,
    nodes: u64,
    time_ms: f64,
}

#[derive(Debug, Deserialize)]
struct JsonMove {
    #[serde(rename = "move")]
    mv: String,
    score: i32,
}

fn json_records(output: &str) -> Vec<JsonRecord> {
    output
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// What every format must agree on: the board string, the scored moves (lower case, `--` for
/// a pass) in order, the best score and the best moves.
type Numbers = (String, Vec<(String, i32)>, i32, Vec<String>);

fn json_numbers(record: &JsonRecord) -> Numbers {
    (
        record.position.clone(),
        record
            .moves
            .iter()
            .map(|m| (m.mv.clone(), m.score))
            .collect(),
        record.best_score,
        record.best_moves.clone(),
    )
}

/// The numbers of an OBF output line, read back with the crate's notation parser.
fn obf_numbers(line: &str) -> Numbers {
    let parsed = parse_text(line, Source::inline()).unwrap_or_else(|e| panic!("{e}: {line}"));
    let name = |mv: Option<Square>| mv.map_or_else(|| "--".to_string(), |s| s.to_string());
    let moves: Vec<(String, i32)> = parsed
        .expected
        .iter()
        .map(|&(mv, score)| (name(mv), score))
        .collect();
    let best_score = parsed
        .final_score
        .unwrap_or_else(|| moves.first().map(|m| m.1).unwrap());
    let mut best: Vec<Option<Square>> = parsed
        .expected
        .iter()
        .filter(|m| m.1 == best_score)
        .map(|m| m.0)
        .collect();
    best.sort();
    (
        format_board(&parsed.position),
        moves,
        best_score,
        best.into_iter().map(name).collect(),
    )
}

#[test]
fn ffo_1_to_19_check_out_in_every_mode() {
    let dir = temp_dir();
    let out = dir.path().join("ffo.obf");
    let output = analyze(&[
        FFO_1_19,
        "--check",
        "--threads",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("checked 19 positions: 19 correct, 0 wrong"),
        "{stderr}"
    );
    assert!(stderr.contains("analysed 19 positions"), "{stderr}");
    // Every move of every position, best first, ties in square order, as Edax writes OBF.
    let written = fs::read_to_string(&out).unwrap();
    let input = fs::read_to_string(FFO_1_19).unwrap();
    assert_eq!(written.lines().count(), 19);
    for (ours, theirs) in written.lines().zip(input.lines()) {
        let (board, mut moves, best, _) = obf_numbers(ours);
        let (their_board, mut their_moves, their_best, _) = obf_numbers(theirs);
        assert_eq!((&board, best), (&their_board, their_best));
        let index = |name: &str| name.parse::<Square>().unwrap().index();
        assert!(
            moves
                .windows(2)
                .all(|w| w[0].1 > w[1].1 || (w[0].1 == w[1].1 && index(&w[0].0) < index(&w[1].0))),
            "{ours}"
        );
        moves.sort();
        their_moves.sort();
        assert_eq!(moves, their_moves, "{ours}");
    }
    for mode in ["--best-only", "--wld"] {
        let output = analyze(&[FFO_1_19, "--check", "--threads", "2", "-q", mode]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{mode}: {stderr}");
        assert_eq!(
            stderr.trim(),
            "checked 19 positions: 19 correct, 0 wrong",
            "{mode}"
        );
        let records = json_records(&text(&output.stdout));
        assert_eq!(records.len(), 19);
        for record in &records {
            if mode == "--wld" {
                assert!(record.moves.iter().all(|m| (-1..=1).contains(&m.score)));
            } else {
                assert!(record.moves.iter().all(|m| m.score == record.best_score));
                let names: Vec<_> = record.moves.iter().map(|m| m.mv.clone()).collect();
                assert_eq!(names, record.best_moves);
            }
        }
    }
}

#[test]
fn check_reports_every_wrong_score() {
    let dir = temp_dir();
    let input = fs::read_to_string(FFO_1_19).unwrap();
    let mut lines: Vec<String> = input.lines().take(3).map(str::to_string).collect();
    // Line 2: B2 scores +0, not +4. Line 3: A8 is not a legal move.
    lines[1] = lines[1].replace("B2:+0;", "B2:+4;");
    lines[2] = format!("{} A8:+2;", lines[2]);
    let path = dir.path().join("wrong.obf");
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    let file = path.to_str().unwrap();
    let output = analyze(&[file, "--check", "--threads", "2", "--format", "obf"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("{file}:2: B2: expected +4, found +0")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "{file}:3: A8: expected +2, found no such legal move"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("checked 3 positions: 1 correct, 2 wrong"),
        "{stderr}"
    );
    assert_eq!(text(&output.stdout).lines().count(), 3);
    // With --best-only only the best score is compared: both lines are right about it.
    let output = analyze(&[file, "--check", "--best-only", "-q"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn a_wrong_score_beside_a_bad_line_exits_1() {
    // Line 1: G8 scores +18, not +20; line 2 is not a board. Both are reported; the exit code
    // is the check's (1 wins over 2), as README's table of exit codes says.
    let dir = temp_dir();
    let input = fs::read_to_string(FFO_1_19).unwrap();
    let first = input.lines().next().unwrap().replace("G8:+18;", "G8:+20;");
    let path = dir.path().join("wrong-and-bad.obf");
    fs::write(&path, format!("{first}\nnot a board\n")).unwrap();
    let file = path.to_str().unwrap();
    let output = analyze(&[file, "--check", "--threads", "1", "--format", "obf"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("{file}:1: G8: expected +20, found +18")),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("{file}:2:")), "{stderr}");
    assert!(stderr.contains("skipped 1 bad line"), "{stderr}");
    assert!(
        stderr.contains("checked 1 position: 0 correct, 1 wrong"),
        "{stderr}"
    );
    // Without the wrong score, the bad line alone gives 2.
    fs::write(
        &path,
        format!("{}\nnot a board\n", input.lines().next().unwrap()),
    )
    .unwrap();
    let output = analyze(&[file, "--check", "--threads", "1", "--format", "obf"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
}

#[test]
fn every_move_equals_the_reference_minimax() {
    let dir = temp_dir();
    let positions = random_positions(2024, 200, &[8, 9, 10, 11, 12]);
    let path = dir.path().join("random.txt");
    write_positions(&path, &positions);
    let start = Instant::now();
    let output = analyze(&[path.to_str().unwrap(), "--threads", "2", "-q"]);
    let solve_time = start.elapsed();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let records = json_records(&text(&output.stdout));
    assert_eq!(records.len(), positions.len());
    let start = Instant::now();
    for (position, record) in positions.iter().zip(&records) {
        let board = position.board;
        assert_eq!(record.position, format_board(position));
        assert_eq!(record.empties, board.empties());
        let mut expected: Vec<(String, i32)> = Bits(board.moves())
            .map(|sq| {
                let child = board.play_flips(sq, board.flips(sq));
                let score = if board.empties() <= 10 {
                    let exact = -minimax(child);
                    assert_eq!(exact, -alpha_beta(child, -64, 64), "the references agree");
                    exact
                } else {
                    -alpha_beta(child, -64, 64)
                };
                (Square::new(sq).unwrap().to_string(), score)
            })
            .collect();
        if expected.is_empty() && board.pass().moves() != 0 {
            expected.push(("--".to_string(), -minimax(board.pass())));
        }
        // Best first, ties in square order (the squares come in order already).
        expected.sort_by_key(|m| -m.1);
        let found: Vec<(String, i32)> = record
            .moves
            .iter()
            .map(|m| (m.mv.clone(), m.score))
            .collect();
        assert_eq!(found, expected, "{}", record.source);
        assert_eq!(
            record.best_score,
            minimax_or_final(board),
            "{}",
            record.source
        );
    }
    eprintln!(
        "analysed {} positions in {solve_time:?}; the reference took {:?}",
        records.len(),
        start.elapsed()
    );
}

fn minimax_or_final(board: Board) -> i32 {
    if board.empties() <= 10 {
        minimax(board)
    } else {
        alpha_beta(board, -64, 64)
    }
}

/// The file holds only whole OBF lines, for the first positions of `positions` in order.
fn assert_whole_lines_for(path: &Path, positions: &[Position]) -> usize {
    let written = fs::read_to_string(path).unwrap();
    assert!(written.is_empty() || written.ends_with('\n'), "a half line");
    for (line, position) in written.lines().zip(positions) {
        assert_eq!(obf_numbers(line).0, format_board(position), "{line}");
    }
    written.lines().count()
}

#[test]
fn an_interrupted_run_resumed_equals_an_uninterrupted_one() {
    let dir = temp_dir();
    // Small positions (solved in parallel) and larger ones (one at a time, all threads).
    let positions = random_positions(99, 48, &[11, 15, 12, 16, 13, 14]);
    let input = dir.path().join("positions.txt");
    write_positions(&input, &positions);
    let input = input.to_str().unwrap();
    let out = dir.path().join("resumed.obf");
    let out_name = out.to_str().unwrap();
    // Both ways of solving: up to 14 empties in parallel, the others one at a time.
    let args = [
        input,
        "-o",
        out_name,
        "--threads",
        "2",
        "--parallel-max-empties",
        "14",
    ];

    let (code, stderr) = interrupt_after(spawn("analyze", &args), &out, 3, "-INT");
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("interrupted: "), "{stderr}");
    let first = assert_whole_lines_for(&out, &positions);
    assert!((3..positions.len()).contains(&first), "{first} lines");

    // Resume, and stop that run too, with SIGTERM this time.
    let resumed: Vec<&str> = args.iter().copied().chain(["--resume"]).collect();
    let (code, stderr) = interrupt_after(spawn("analyze", &resumed), &out, first + 3, "-TERM");
    assert_eq!(code, 130, "{stderr}");
    let second = assert_whole_lines_for(&out, &positions);
    assert!(
        second > first && second < positions.len(),
        "{first} then {second}"
    );

    // A half-written last line (as a kill -9 could leave) is written again.
    let mut bytes = fs::read(&out).unwrap();
    bytes.extend_from_slice(&format_board(&positions[second]).as_bytes()[..30]);
    fs::write(&out, bytes).unwrap();

    let output = analyze(&resumed);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("resumed after {second} positions")),
        "{stderr}"
    );

    let whole = dir.path().join("whole.obf");
    let output = analyze(&[input, "-o", whole.to_str().unwrap(), "--threads", "2", "-q"]);
    // (The whole run solves every position in parallel: the scores do not depend on how.)
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(fs::read(&out).unwrap(), fs::read(&whole).unwrap());
    assert_eq!(whole_lines(&whole), positions.len());
}

/// The lines of a JSON-lines or CSV output without the measurements (nodes, time), which
/// differ from run to run.
fn without_measurements(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| match line.find(",\"nodes\"") {
            Some(at) => line[..at].to_string(),
            None => line.rsplitn(3, ',').last().unwrap().to_string(),
        })
        .collect()
}

#[test]
fn resume_completes_cut_json_lines_and_csv_outputs() {
    let dir = temp_dir();
    for format in ["jsonl", "csv"] {
        let whole = dir.path().join(format!("whole.{format}"));
        let output = analyze(&[FFO_1_19, "-o", whole.to_str().unwrap(), "-q"]);
        assert_eq!(output.status.code(), Some(0));
        let whole = fs::read_to_string(&whole).unwrap();
        for cut in [0, 10, whole.len() * 2 / 5, whole.len() - 1] {
            let out = dir.path().join(format!("cut-{cut}.{format}"));
            fs::write(&out, &whole.as_bytes()[..cut]).unwrap();
            let output = analyze(&[FFO_1_19, "-o", out.to_str().unwrap(), "--resume", "-q"]);
            assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
            let resumed = fs::read_to_string(&out).unwrap();
            assert_eq!(
                without_measurements(&resumed),
                without_measurements(&whole),
                "{format} cut at {cut}"
            );
        }
    }
}

/// The bytes of `output` up to the end of its `positions`-th record in `format` (CSV: its
/// header, then `positions` groups of rows) and, for CSV, the first row of the next one.
fn first_records(output: &str, format: &str, positions: usize) -> (String, String) {
    let mut lines = output.split_inclusive('\n');
    let mut kept = String::new();
    if format == "csv" {
        kept.push_str(lines.next().unwrap());
    }
    let mut groups = 0;
    let mut last_key = String::new();
    for line in lines {
        let key = line.split(',').take(2).collect::<Vec<_>>().join(",");
        if format != "csv" || key != last_key {
            groups += 1;
            last_key = key;
        }
        if groups > positions {
            return (kept, line.to_string());
        }
        kept.push_str(line);
    }
    panic!("fewer than {positions} positions in {output}")
}

#[test]
fn a_resumed_output_counts_every_position_it_holds_whole_in_every_format() {
    let dir = temp_dir();
    for format in ["obf", "jsonl", "csv"] {
        let whole = dir.path().join(format!("whole.{format}"));
        let output = analyze(&[FFO_1_19, "-o", whole.to_str().unwrap(), "-q"]);
        assert_eq!(output.status.code(), Some(0));
        let whole = fs::read_to_string(&whole).unwrap();
        // What an interrupted run leaves: 7 whole positions (FFO #7 has 6 rows in CSV).
        let (seven, next_row) = first_records(&whole, format, 7);
        let out = dir.path().join(format!("out.{format}"));
        let out_name = out.to_str().unwrap();
        fs::write(&out, &seven).unwrap();
        let output = analyze(&[FFO_1_19, "-o", out_name, "--resume"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains("analysed 12 positions, ")
                && stderr.contains("\nresumed after 7 positions already in the output\n"),
            "{format}: {stderr}"
        );
        let resumed = fs::read_to_string(&out).unwrap();
        // The seven positions are kept as they were (their nodes and times too: not solved
        // again), and the rest is what one run writes, each position once.
        assert!(resumed.starts_with(&seven), "{format}: {resumed}");
        assert_eq!(
            without_measurements(&resumed),
            without_measurements(&whole),
            "{format}"
        );
        if format != "csv" {
            continue;
        }
        // A position cut after its first row (as a kill -9 could leave it) is analysed again.
        fs::write(&out, seven.clone() + &next_row).unwrap();
        let output = analyze(&[FFO_1_19, "-o", out_name, "--resume"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains("\nresumed after 7 positions already in the output\n"),
            "{stderr}"
        );
        let resumed = fs::read_to_string(&out).unwrap();
        assert!(resumed.starts_with(&seven), "{resumed}");
        assert_eq!(without_measurements(&resumed), without_measurements(&whole));
    }
}

#[test]
fn resume_refuses_an_output_of_another_input() {
    let dir = temp_dir();
    let out = dir.path().join("other.obf");
    let line = fs::read_to_string(FFO_1_19)
        .unwrap()
        .lines()
        .nth(4)
        .unwrap()
        .to_string();
    fs::write(&out, line + "\n").unwrap();
    let output = analyze(&[FFO_1_19, "-o", out.to_str().unwrap(), "--resume"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot resume"), "{stderr}");
    // An output that is not OBF at all.
    fs::write(&out, "hello\n").unwrap();
    let output = analyze(&[FFO_1_19, "-o", out.to_str().unwrap(), "--resume"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("line 1"),
        "{}",
        text(&output.stderr)
    );
    // More positions in the output than in the input.
    let both = fs::read_to_string(FFO_1_19).unwrap();
    let short = dir.path().join("short.obf");
    fs::write(&short, both.lines().next().unwrap().to_string() + "\n").unwrap();
    let output = analyze(&[
        short.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--format",
        "obf",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let output = analyze(&[
        short.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
        "-q",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    fs::write(&short, "").unwrap();
    let output = analyze(&[
        short.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("holds 1 positions but the input has only 0"));
}

/// `file:line` split into the file's place among `files` and the line number.
fn source_key(source: &str, files: &[&str]) -> (usize, usize) {
    let (file, line) = source.rsplit_once(':').unwrap();
    let place = files.iter().position(|f| *f == file).unwrap();
    (place, line.parse().unwrap())
}

#[test]
fn shards_sorted_by_source_equal_the_whole() {
    let dir = temp_dir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    write_positions(&a, &random_positions(1, 25, &[10, 12, 14]));
    write_positions(&b, &random_positions(2, 20, &[11, 13, 16]));
    // Files in command-line order, which is not name order.
    let files = [b.to_str().unwrap(), a.to_str().unwrap()];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = files
            .iter()
            .copied()
            .chain(["-q", "--parallel-max-empties", "12"])
            .chain(extra.iter().copied())
            .collect();
        let output = analyze(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        json_records(&text(&output.stdout))
    };
    let whole = run(&[]);
    assert_eq!(whole.len(), 45);
    let mut merged = Vec::new();
    for shard in ["2/3", "0/3", "1/3"] {
        let records = run(&["--shard", shard]);
        assert!(
            (14..=16).contains(&records.len()),
            "{shard}: {}",
            records.len()
        );
        merged.extend(records);
    }
    merged.sort_by_key(|r| source_key(&r.source, &files));
    let numbers = |records: &[JsonRecord]| -> Vec<(String, Numbers)> {
        records
            .iter()
            .map(|r| (r.source.clone(), json_numbers(r)))
            .collect()
    };
    assert_eq!(numbers(&merged), numbers(&whole));
}

#[test]
fn shard_script_merges_into_the_unsharded_output() {
    let dir = temp_dir();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    write_positions(&a, &random_positions(3, 16, &[9, 11, 13]));
    let mut b_text: String = random_positions(4, 12, &[10, 12, 15])
        .iter()
        .map(|p| format_board(p) + "\n")
        .collect();
    // A comment and a bad line: each shard reports the bad line, no shard counts it.
    b_text.insert_str(0, "# positions\nnot a position\n");
    fs::write(&b, b_text).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/shard.sh");
    let binary = binary();
    for format in ["obf", "jsonl", "csv"] {
        let merged = dir.path().join(format!("merged.{format}"));
        let output = StdCommand::new("bash")
            .arg(script)
            .arg("3")
            .arg(&merged)
            .arg(&a)
            .arg(&b)
            .args(["--", "--threads", "1", "-q"])
            .env("OSOLVE", &binary)
            .output()
            .unwrap();
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{format}: {stderr}");
        assert!(stderr.contains("b.txt:2:1: "), "{stderr}");
        let whole = dir.path().join(format!("whole.{format}"));
        let output = analyze(&[
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "-o",
            whole.to_str().unwrap(),
            "-q",
        ]);
        assert_eq!(output.status.code(), Some(2));
        let (merged, whole) = (
            fs::read_to_string(&merged).unwrap(),
            fs::read_to_string(&whole).unwrap(),
        );
        if format == "obf" {
            assert_eq!(merged, whole);
        } else {
            // Node counts and times are measurements: compare everything else.
            assert_eq!(
                without_measurements(&merged),
                without_measurements(&whole),
                "{format}"
            );
        }
        let leftovers: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains("shard"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

#[test]
fn jsonl_and_csv_read_back_to_the_numbers_of_obf() {
    let dir = temp_dir();
    let mut lines: Vec<String> = fs::read_to_string(FFO_1_19)
        .unwrap()
        .lines()
        .take(6)
        .map(str::to_string)
        .collect();
    // A forced pass, a finished game, a transcript and boards with few empties.
    let stuck = random_pass_position(&mut Rng(6));
    lines.push(format_board(&stuck));
    lines.push("c4 c3 c2 b4 a5 f4 g4 c5 d6".to_string());
    lines.push(
        "d3c5c6e3b5b7f2c3c7b6a6a7b3c8f6c4a8a2f3b8b4a3a4a5b2d7d6c1d8f5g6g3c2e1e2f4g2f1g5e7a1e6h2d2d1e8g1h5b1h3"
            .to_string(),
    );
    lines.extend(random_positions(5, 8, &[6, 9]).iter().map(format_board));
    let input = dir.path().join("mixed.txt");
    fs::write(&input, lines.join("\n") + "\n").unwrap();
    let input = input.to_str().unwrap();
    for extra in [&[][..], &["--best-only"][..]] {
        let run = |format: &str| -> String {
            let args: Vec<&str> = [input, "--format", format, "-q"]
                .into_iter()
                .chain(extra.iter().copied())
                .collect();
            let output = analyze(&args);
            assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
            text(&output.stdout)
        };
        let obf: Vec<Numbers> = run("obf").lines().map(obf_numbers).collect();
        let records = json_records(&run("jsonl"));
        let json: Vec<Numbers> = records.iter().map(json_numbers).collect();
        assert_eq!(json, obf, "{extra:?}");
        assert_eq!(obf.len(), lines.len());
        for record in &records {
            assert!(record.nodes > 0 || record.moves.is_empty() || record.empties <= 1);
            assert!(record.time_ms >= 0.0);
            assert_eq!(record.empties, record.position.matches('-').count() as u32);
        }

        let csv_text = run("csv");
        let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
        let header = reader.headers().unwrap().clone();
        assert_eq!(
            header.iter().collect::<Vec<_>>(),
            [
                "source",
                "position",
                "empties",
                "move",
                "score",
                "best_score",
                "nodes",
                "time_ms"
            ]
        );
        let mut from_csv: Vec<(String, Numbers)> = Vec::new();
        for row in reader.deserialize::<HashMap<String, String>>() {
            let row = row.unwrap();
            let key = (row["source"].clone(), row["position"].clone());
            if from_csv.last().map(|(s, n)| (s.clone(), n.0.clone())) != Some(key.clone()) {
                let best: i32 = row["best_score"].parse().unwrap();
                from_csv.push((key.0.clone(), (key.1.clone(), Vec::new(), best, Vec::new())));
            }
            let numbers = &mut from_csv.last_mut().unwrap().1;
            if !row["move"].is_empty() {
                numbers
                    .1
                    .push((row["move"].clone(), row["score"].parse().unwrap()));
            }
            assert!(row["nodes"].parse::<u64>().is_ok() && row["time_ms"].parse::<f64>().is_ok());
        }
        let csv_numbers: Vec<Numbers> = from_csv
            .into_iter()
            .map(|(_, (board, moves, best, _))| {
                let mut best_moves: Vec<String> = moves
                    .iter()
                    .filter(|m| m.1 == best)
                    .map(|m| m.0.clone())
                    .collect();
                best_moves.sort_by_key(|m| m.parse::<Square>().map_or(64, |s| s.index()));
                (board, moves, best, best_moves)
            })
            .collect();
        assert_eq!(csv_numbers, obf, "{extra:?}");
    }

    // The pass and the finished game as the issue writes them.
    let output = analyze(&[input, "--format", "obf", "-q"]);
    let obf = text(&output.stdout);
    let pass_line = obf.lines().nth(6).unwrap();
    assert!(
        pass_line.starts_with(&format!("{}; PS:", format_board(&stuck))),
        "{pass_line}"
    );
    assert_eq!(pass_line.matches(':').count(), 1);
    let over_line = obf.lines().nth(7).unwrap();
    assert!(
        over_line.ends_with(" X; +64;") || over_line.ends_with(" O; -64;"),
        "{over_line}"
    );

    // WLD best-only.
    let output = analyze(&[input, "--best-only", "--wld", "-q", "--threads", "2"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let records = json_records(&text(&output.stdout));
    assert_eq!(records.len(), lines.len());
    assert!(records.iter().all(|r| (-1..=1).contains(&r.best_score)));
}

#[test]
fn a_bad_line_is_reported_and_skipped_or_stops_a_strict_run() {
    let dir = temp_dir();
    let ffo: Vec<&str> = include_str!("../positions/ffo-1-19.obf")
        .lines()
        .take(3)
        .collect();
    let path = dir.path().join("bad.obf");
    let bad = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOQ-- X";
    fs::write(
        &path,
        format!("{}\n{bad}\n{}\n{}\n", ffo[0], ffo[1], ffo[2]),
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let output = analyze(&[file, "--format", "obf", "--check"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("{file}:2:62: expected a board cell")),
        "{stderr}"
    );
    assert!(stderr.contains("skipped 1 bad line"), "{stderr}");
    assert!(
        stderr.contains("checked 3 positions: 3 correct, 0 wrong"),
        "{stderr}"
    );
    assert_eq!(text(&output.stdout).lines().count(), 3);

    let output = analyze(&[file, "--format", "obf", "--strict"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("{file}:2:62: ")), "{stderr}");
    assert!(stderr.contains("--strict"), "{stderr}");
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with(&ffo[0][..66]));

    // A missing input file stops the run before anything is analysed, with one line.
    let output = analyze(&["/nonexistent/x.obf", file, "-q", "--format", "obf"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "osolve: cannot read /nonexistent/x.obf: No such file or directory (os error 2)\n"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn bad_arguments_are_one_line_errors() {
    for (args, message) in [
        (&["--shard", "3/3"][..], "must be below N"),
        (&["--shard", "0/0"][..], "at least 1"),
        (&["--shard", "one/2"][..], "expected K/N"),
        (&["--resume"][..], "--resume needs"),
    ] {
        let all: Vec<&str> = [FFO_1_19].into_iter().chain(args.iter().copied()).collect();
        let output = analyze(&all);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn standard_input_is_analysed_like_a_file() {
    let input = fs::read_to_string(FFO_1_19).unwrap();
    let output = osolve()
        .args(["analyze", "-", "--format", "obf", "--best-only"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout).lines().count(), 19);
    let stderr = text(&output.stderr);
    assert!(stderr.contains("analysed 19 positions, "), "{stderr}");
}

#[test]
fn resume_refuses_other_options_and_changes_nothing() {
    let dir = temp_dir();
    let exact = dir.path().join("exact.obf");
    let output = analyze(&[FFO_1_19, "-o", exact.to_str().unwrap(), "-q"]);
    assert_eq!(output.status.code(), Some(0));
    // A cut output, as an interruption leaves it: a refusal must not trim the cut line.
    let whole = fs::read(&exact).unwrap();
    let cut = &whole[..1000];
    for (options, message) in [
        (
            &["--wld"][..],
            "it was written without --wld, this run is with --wld",
        ),
        (
            &["--best-only"][..],
            "it was written without --best-only, this run is with --best-only",
        ),
        (
            &["--scoring", "raw"][..],
            "it was written with --scoring official, this run is with --scoring raw",
        ),
    ] {
        fs::write(&exact, cut).unwrap();
        let mut args = vec![FFO_1_19, "-o", exact.to_str().unwrap(), "--resume"];
        args.extend_from_slice(options);
        let output = analyze(&args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "osolve: cannot resume {}: {message} (results of other options would be \
                 mixed)\n",
                exact.display()
            )
        );
        assert_eq!(
            fs::read(&exact).unwrap(),
            cut,
            "{options:?} changed the file"
        );
    }
    // Options that change results are recorded, and a resume with them goes on.
    for format in ["obf", "jsonl", "csv"] {
        let wld = dir.path().join(format!("wld.{format}"));
        let output = analyze(&[FFO_1_19, "-o", wld.to_str().unwrap(), "--wld", "-q"]);
        assert_eq!(output.status.code(), Some(0));
        let whole = fs::read_to_string(&wld).unwrap();
        let first = whole.lines().next().unwrap();
        let expected = match format {
            "obf" => "% osolve analyze --wld",
            "csv" => "# osolve analyze --wld",
            _ => "{\"osolve_analyze\":\"--wld\"}",
        };
        assert_eq!(first, expected);
        let cut = &whole.as_bytes()[..whole.len() / 2];
        fs::write(&wld, cut).unwrap();
        let output = analyze(&[FFO_1_19, "-o", wld.to_str().unwrap(), "--resume", "-q"]);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
        assert!(
            text(&output.stderr).contains("it was written with --wld, this run is without --wld"),
            "{}",
            text(&output.stderr)
        );
        assert_eq!(fs::read(&wld).unwrap(), cut);
        let output = analyze(&[
            FFO_1_19,
            "-o",
            wld.to_str().unwrap(),
            "--resume",
            "--wld",
            "-q",
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let resumed = fs::read_to_string(&wld).unwrap();
        assert_eq!(without_measurements(&resumed), without_measurements(&whole));
    }
}

#[test]
fn a_resume_refused_for_another_input_changes_nothing() {
    let dir = temp_dir();
    let out = dir.path().join("out.obf");
    let output = analyze(&[FFO_1_19, "-o", out.to_str().unwrap(), "-q"]);
    assert_eq!(output.status.code(), Some(0));
    let cut = fs::read(&out).unwrap()[..1000].to_vec();
    fs::write(&out, &cut).unwrap();
    // Another input: its first position is FFO #5.
    let other = dir.path().join("other.obf");
    let lines: Vec<String> = fs::read_to_string(FFO_1_19)
        .unwrap()
        .lines()
        .skip(4)
        .map(str::to_string)
        .collect();
    fs::write(&other, lines.join("\n") + "\n").unwrap();
    let output = analyze(&[
        other.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot resume: position 1 of"), "{stderr}");
    assert_eq!(
        fs::read(&out).unwrap(),
        cut,
        "the refused resume changed the file"
    );
}

#[test]
fn a_resumed_check_counts_the_positions_already_in_the_output() {
    // FFO #1-#19 with one wrong expected score on line 2 (A4 is +10).
    let dir = temp_dir();
    let input = dir.path().join("one-wrong.obf");
    let text_in = fs::read_to_string(FFO_1_19).unwrap();
    let wrong = text_in.replacen("X; A4:+10;", "X; A4:+12;", 1);
    assert_ne!(wrong, text_in);
    fs::write(&input, wrong).unwrap();
    let input = input.to_str().unwrap();
    for format in ["obf", "jsonl", "csv"] {
        let out = dir.path().join(format!("checked.{format}"));
        let out_name = out.to_str().unwrap();
        let output = analyze(&[input, "-o", out_name, "--check", "-q"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("checked 19 positions: 18 correct, 1 wrong"),
            "{stderr}"
        );
        // As an interruption after the first five positions leaves it (and a cut line).
        let whole = fs::read_to_string(&out).unwrap();
        let records: Vec<&str> = whole.split_inclusive('\n').collect();
        let kept = match format {
            // The header, then rows: up to the first row of position 6.
            "csv" => {
                let boards: Vec<&str> = text_in.lines().map(|l| &l[..66]).collect();
                records.iter().position(|r| r.contains(boards[5])).unwrap()
            }
            _ => 5,
        };
        let mut cut: String = records[..kept].concat();
        cut.push_str(&records[kept][..20]);
        fs::write(&out, &cut).unwrap();
        let output = analyze(&[input, "-o", out_name, "--check", "--resume"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{format}: {stderr}");
        assert!(
            stderr.contains("checked 19 positions: 18 correct, 1 wrong"),
            "{format}: {stderr}"
        );
        assert!(
            stderr.contains("A4: expected +12, found +10 (already in the output)"),
            "{format}: {stderr}"
        );
        assert_eq!(
            without_measurements(&fs::read_to_string(&out).unwrap()),
            without_measurements(&whole)
        );
    }
}

/// Issue 26: Ctrl-C on two threads printed only the summary (when it came during a position
/// solved with both threads, the input read to its end) or, a second Ctrl-C ending the process
/// at once, a bare `interrupted`. Either way the message now says what was written and how to
/// go on.
#[test]
fn ctrl_c_on_two_threads_once_or_twice_says_what_was_written() {
    let dir = temp_dir();
    // FFO #1-#19 (solved in parallel, one per thread, while the input is read to its end),
    // then #40-#42 (20-22 empties, each solved with both threads): the signal comes during #40.
    let ffo = |name: &str| format!("{}/positions/{name}", env!("CARGO_MANIFEST_DIR"));
    let inputs = [
        FFO_1_19.to_string(),
        ffo("ffo-40.obf"),
        ffo("ffo-41.obf"),
        ffo("ffo-42.obf"),
    ];
    for signals in [1, 2] {
        let out = dir.path().join(format!("out-{signals}.obf"));
        let out_name = out.to_str().unwrap();
        let mut args: Vec<&str> = inputs.iter().map(String::as_str).collect();
        args.extend(["--threads", "2", "-o", out_name]);
        let mut child = spawn("analyze", &args);
        wait_for_lines(&mut child, &out, 19);
        for _ in 0..signals {
            send_signal(child.id(), "-INT");
        }
        let output = child.wait_with_output().unwrap();
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(130), "{stderr}");
        let written = whole_lines(&out);
        let last = stderr.lines().last().unwrap_or_default();
        assert_eq!(
            last,
            format!(
                "interrupted: {written} position{} finished and written to {out_name} \
                 ({written} in all); run the same command with --resume to finish",
                if written == 1 { "" } else { "s" }
            ),
            "{signals} signal(s): {stderr}"
        );
        assert!(!stderr.contains("analysed "), "{stderr}");
    }
}
