//! End-to-end tests of `osolve gen` and `osolve train`, running the real binary: generated
//! positions carry exact labels (checked against a reference minimax), the same seed gives the
//! same file whatever the thread count, training writes a weights file the library reads back
//! and reports its errors per set, and a bad line is reported with its file and line and
//! skipped.

use std::fs;
use std::time::Duration;

use osolve::eval::Weights;
use osolve::notation::{open_path, Parsed};
use osolve::search::reference::minimax;

mod common;
use common::{osolve, osolve_in, root, temp_dir, Background};

fn read_all(path: &std::path::Path) -> Vec<Parsed> {
    open_path(path)
        .expect("the file opens")
        .map(|item| item.expect("every line parses"))
        .collect()
}

#[test]
fn gen_writes_exact_labels_reproducibly() {
    let dir = temp_dir();
    let one = dir.path().join("one.obf");
    let two = dir.path().join("two.obf");
    for (path, threads) in [(&one, "1"), (&two, "2")] {
        let out = osolve()
            .args([
                "gen",
                "--positions",
                "120",
                "--empties",
                "7-9",
                "--seed",
                "5",
            ])
            .args(["--threads", threads, "--hash-mb", "4", "-o"])
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(
            summary.starts_with("generated 120 positions from "),
            "{summary}"
        );
        assert!(summary.contains("empties  positions"), "{summary}");
    }
    assert_eq!(fs::read(&one).unwrap(), fs::read(&two).unwrap());
    let parsed = read_all(&one);
    assert_eq!(parsed.len(), 120);
    for p in &parsed {
        let empties = p.position.board.empties();
        assert!((7..=9).contains(&empties), "{}", p.source);
        assert_eq!(
            p.final_score,
            Some(minimax(p.position.board)),
            "{}",
            p.source
        );
    }
}

#[test]
fn gen_counts_one_in_the_singular() {
    // One position asked: its summary says `1 position from 1 game`, `1 thread`, and with a
    // limit its label never reaches, `1 position dropped: its search ...`.
    let dir = temp_dir();
    let base = [
        "gen",
        "--positions",
        "1",
        "--empties",
        "20-20",
        "--seed",
        "3",
    ];
    let limits = ["--threads", "1", "--hash-mb", "4", "-o", "one.obf"];
    let out = osolve_in(dir.path())
        .args(base)
        .args(limits)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let summary = String::from_utf8_lossy(&out.stderr);
    let first = summary.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("generated 1 position from 1 game (0 symmetric duplicates dropped) in "),
        "{summary}"
    );
    assert!(first.contains(" with 1 thread: "), "{summary}");
    assert!(first.ends_with(" nodes"), "{summary}");
    let out = osolve_in(dir.path())
        .args(base)
        .args(limits)
        .args(["--node-limit", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(
        summary
            .starts_with("generated 0 positions from 1 game (0 symmetric duplicates dropped) in "),
        "{summary}"
    );
    assert!(
        summary.contains("\n1 position dropped: its search reached the limit\n"),
        "{summary}"
    );
}

#[test]
fn train_fits_and_writes_readable_weights() {
    let dir = temp_dir();
    let data = dir.path().join("data.obf");
    let weights = dir.path().join("w.bin");
    let out = osolve()
        .args([
            "gen",
            "--positions",
            "400",
            "--empties",
            "10-11",
            "--threads",
            "2",
        ])
        .args(["--hash-mb", "4", "-o"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = osolve()
        .args([
            "train",
            "--iterations",
            "20",
            "--threads",
            "2",
            "--min-samples",
            "100",
        ])
        .arg("-o")
        .arg(&weights)
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.starts_with("400 samples, 0 symmetric duplicates dropped"),
        "{table}"
    );
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("5 "))
        .expect("a row for set 5 (10-11 empties)");
    assert!(row.contains("10-11"), "{row}");
    let w = Weights::from_bytes(&fs::read(&weights).unwrap()).unwrap();
    assert!(w.is_trained(5));
    assert!(!w.is_trained(6));
}

/// `count` exactly labelled random positions of 10-11 empties in `dir`/data.obf (`osolve gen`).
fn labelled_positions(dir: &std::path::Path, count: u32) -> std::path::PathBuf {
    let data = dir.join("data.obf");
    let out = osolve()
        .args([
            "gen",
            "--positions",
            &count.to_string(),
            "--empties",
            "10-11",
        ])
        .args(["--threads", "2", "--hash-mb", "4", "-o"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    data
}

#[test]
fn train_skips_bad_lines_with_their_place_and_fits_the_rest() {
    let dir = temp_dir();
    let data = labelled_positions(dir.path(), 300);
    // Three bad lines among the labelled ones: not a board, no label, not a position at all.
    let labelled = fs::read_to_string(&data).unwrap();
    let mut lines: Vec<&str> = labelled.lines().collect();
    let start = "---------------------------OX------XO--------------------------- X";
    lines.insert(1, "--XXXXX--OOOXX-O-OOOXXOX-OaOXOXXOX; +6;");
    lines.insert(100, start);
    lines.insert(200, "f5 f5");
    let bad = dir.path().join("bad.obf");
    fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let weights = dir.path().join("w.bin");
    let out = osolve_in(dir.path())
        .args(["train", "--iterations", "10", "--min-samples", "100"])
        .args(["-o", "w.bin", "bad.obf"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "bad.obf:2:27: expected a board cell (X x * B b, O o W w or - . _), found 'a' (skipped)\n\
         bad.obf:101: expected a labelled position with a final score (like `...; +6;`) \
         (skipped)\n\
         bad.obf:201:4: move 2: f5 is not legal: white to move, the square is taken (skipped)\n"
    );
    // The other 300 are fitted and the weights written.
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.starts_with("300 samples, "), "{table}");
    assert!(table.contains("wrote w.bin"), "{table}");
    let w = Weights::from_bytes(&fs::read(&weights).unwrap()).unwrap();
    assert!(w.is_trained(5));

    // No line left to fit: one line says so, and nothing is written.
    fs::write(&bad, format!("{start}\nXXXX\n")).unwrap();
    fs::remove_file(&weights).unwrap();
    let out = osolve_in(dir.path())
        .args(["train", "-o", "w.bin", "bad.obf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "bad.obf:1: expected a labelled position with a final score (like `...; +6;`) \
         (skipped)\n\
         bad.obf:2: expected 64 board cells and the side to move, found 4 characters (skipped)\n\
         osolve: no labelled position to fit: all 2 position lines were skipped; no weights \
         written to w.bin\n"
    );
    assert!(!weights.exists());
}

#[test]
fn train_refuses_an_output_it_cannot_write_before_fitting() {
    let dir = temp_dir();
    labelled_positions(dir.path(), 200);
    let out = osolve_in(dir.path())
        .args([
            "train",
            "--min-samples",
            "100",
            "-o",
            "missing/w.bin",
            "data.obf",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "osolve: cannot write missing/w.bin: No such file or directory (os error 2)\n"
    );
    // No fit ran: its table would be on standard output.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    // An existing weights file passes the check (the unit test shows it untouched), and the fit
    // replaces it.
    fs::write(dir.path().join("w.bin"), "old").unwrap();
    let out = osolve_in(dir.path())
        .args([
            "train",
            "--min-samples",
            "100",
            "--iterations",
            "5",
            "-o",
            "w.bin",
        ])
        .arg("data.obf")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let w = Weights::from_bytes(&fs::read(dir.path().join("w.bin")).unwrap()).unwrap();
    assert!(w.is_trained(5));
}

#[test]
fn gen_rejects_a_bad_range() {
    let out = osolve()
        .args(["gen", "--empties", "20-10", "-o", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("expected LOW-HIGH with LOW <= HIGH <= 60, found '20-10'"),
        "{err}"
    );
}

#[test]
fn gen_stops_when_the_range_holds_fewer_positions_than_asked() {
    // 58 empties holds three positions up to symmetry; 59-60 two. Both once spun for ever.
    let dir = temp_dir();
    for (empties, asked, depth, found) in [("58", "4", "1", 3), ("59-60", "10", "2", 2)] {
        let path = dir.path().join(format!("{empties}.obf"));
        let out = osolve()
            .args(["gen", "--positions", asked, "--empties", empties])
            .args(["--search-depth", depth, "-o"])
            .arg(&path)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert_eq!(read_all(&path).len(), found);
        assert!(
            stderr.contains(&format!(
                "osolve: the games found no new position at {empties} empties in the last 20000 games: \
                 the range looks exhausted; {found} of the {asked} positions asked written to"
            )),
            "{stderr}"
        );
    }
}

#[test]
fn gen_obeys_a_signal_while_labelling_with_searches() {
    // Search labels never looked at the signal: a run went on to its last position.
    let dir = temp_dir();
    let path = dir.path().join("big.obf");
    let mut gen = Background::start(
        root(),
        &[
            "gen",
            "--positions",
            "1000000",
            "--empties",
            "20-40",
            "--search-depth",
            "4",
            "--threads",
            "2",
            "-o",
            path.to_str().unwrap(),
        ],
    );
    gen.wait_for_lines(&path, 1);
    gen.signal("-TERM");
    let stopped = gen.stop_within(Duration::from_secs(20));
    let stderr = stopped.stderr;
    assert_eq!(stopped.code, 130, "{stderr}");
    let kept = read_all(&path).len();
    assert!(
        stderr.contains(&format!("interrupted: {kept} complete lines kept in")),
        "{kept} lines, {stderr}"
    );
}
