//! End-to-end tests of what a user types wrong or expects: a negative number for a numeric
//! flag, an enumerated value outside its list, an unknown flag or subcommand and a missing
//! argument are one line each (exit 2); so is a table larger than the memory a limit allows,
//! for every command that makes one, which then leaves the file it was to write as it was (as
//! `analyze` does on an input without a position); a full output device is named; `-o -` is
//! standard output; a WThor or GGF file given to `solve` points at `games`; an input without a
//! position is one line and exit 2 for every command that reads positions, and one without a
//! game for `games`; a board with no
//! discs cannot occur; `show --svg` of several positions needs a directory and numbers its
//! pictures so they sort; `train` fails when no weight set could be fitted; `gen
//! --search-depth` marks its labels and `analyze --check` does not take them as exact.

use std::fs;

mod common;
use common::{binary, finished, root, run_in, run_with_input, temp_dir};

/// FFO #1 (14 empties) with its published scores.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

/// What a command of one table (solve, show, bench, gen on one thread) says when the system
/// refuses it at `--hash-mb 1024`.
const ONE_TABLE_REFUSED: &str = "osolve: cannot allocate the 1024 MiB transposition table: out \
                                 of memory; use a smaller --hash-mb\n";

/// What analyze and games say at `--hash-mb 1024 --threads 1`: the table of the positions
/// solved one at a time, and that of the one worker solving the others in parallel (at most
/// 256 MiB: no more is used up to 22 empties).
const BATCH_TABLES_REFUSED: &str = "osolve: cannot allocate 1280 MiB of transposition tables \
                                    (1024 MiB for the positions solved one at a time, 256 MiB \
                                    for those solved in parallel): out of memory; use a smaller \
                                    --hash-mb\n";

#[test]
fn negative_numbers_and_unknown_names_are_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "-p", "f5", "--time-limit", "-1"],
            "invalid value '-1' for '--time-limit <SECONDS>': expected a number of seconds \
             above 0 and at most 31536000 (a year), such as 2.5",
        ),
        (
            &["solve", "-p", "f5", "--node-limit", "-5"],
            "invalid value '-5' for '--node-limit <N>': expected a number of nodes from 1 to \
             18446744073709551615",
        ),
        (
            &["analyze", "x.obf", "--threads", "-3"],
            "invalid value '-3' for '--threads <THREADS>': expected a number of threads from 1 \
             to 1024",
        ),
        (
            &["train", "x.obf", "-o", "w.bin", "--lambda", "-1"],
            "invalid value '-1' for '--lambda <LAMBDA>': expected a number from 0 to \
             1000000000000",
        ),
        (
            &[
                "train", "x.obf", "-o", "w.bin", "--keep", "k.bin", "--step", "2",
            ],
            "invalid value '2' for '--step <T>': expected a number from 0 to 1",
        ),
        (
            &["gen", "-o", "g.obf", "--positions", "-2"],
            "invalid value '-2' for '--positions <POSITIONS>': expected a number of positions \
             from 1 to 4294967295",
        ),
        (
            &["games", "x.txt", "--empties", "-4"],
            "invalid value '-4' for '--empties <N>': expected a number of empty squares from 0 \
             to 60",
        ),
        (
            &["perft", "-1"],
            "invalid value '-1' for '<DEPTH>': expected a depth in plies from 0 to 20",
        ),
        (
            &["solve", "-p", "f5", "--rules", "chess"],
            "invalid value 'chess' for '--rules <RULES>' (expected othello or reversi)",
        ),
        (
            &["analyze", "x.obf", "--format", "xml"],
            "invalid value 'xml' for '--format <FORMAT>' (expected obf, jsonl or csv)",
        ),
    ];
    assert_usage_errors(cases);
}

/// Each command line exits 2 with nothing on standard output and the one line
/// `osolve: MESSAGE` on standard error.
fn assert_usage_errors(cases: &[(&[&str], &str)]) {
    for (args, message) in cases {
        let (code, stdout, stderr) = run_in(root(), args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr, format!("osolve: {message}\n"), "{args:?}");
    }
}

#[test]
fn unknown_flags_and_missing_arguments_are_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "-p", "f5", "--thread", "2"],
            "unexpected argument '--thread' found (did you mean '--threads'?); see --help",
        ),
        (
            &["solve"],
            "the following required arguments were not provided: <FILE|--position <TEXT>>; \
             see --help",
        ),
        (
            &["train", "x.obf", "-o", "w.bin", "--step", "0.5"],
            "the following required arguments were not provided: --keep <FILE>; see --help",
        ),
        (
            &["solv", "-p", "f5"],
            "unrecognized subcommand 'solv' (did you mean 'solve'?); see --help",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn a_full_output_device_is_named() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    let dir = temp_dir();
    fs::write(dir.path().join("one.obf"), format!("{FFO_1}\n")).unwrap();
    let (code, _, stderr) = run_in(dir.path(), &["analyze", "one.obf", "-o", "/dev/full", "-q"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.starts_with("osolve: cannot write /dev/full: No space left on device"),
        "{stderr}"
    );
}

/// Runs `osolve ARGS` in `dir` with at most `kib` KiB of address space (`ulimit -v`, through
/// `sh`) and `input` on its standard input: exit code, standard output, standard error.
#[cfg(target_os = "linux")]
fn run_limited(
    dir: &std::path::Path,
    kib: u64,
    args: &[&str],
    input: &str,
) -> (i32, String, String) {
    let mut command = assert_cmd::Command::new("sh");
    command
        .current_dir(dir)
        .arg("-c")
        .arg(r#"ulimit -v "$0" && exec "$@""#)
        .arg(kib.to_string())
        .arg(binary())
        .args(args)
        .write_stdin(input.to_string())
        // A run that hangs (an abort whose own report cannot allocate once did) fails the test.
        .timeout(std::time::Duration::from_secs(120));
    finished(&mut command)
}

#[cfg(target_os = "linux")]
#[test]
fn a_table_larger_than_the_memory_allowed_is_one_line() {
    // 400 MB of address space: ample for any command with a 16 MiB table (it needs under
    // 100 MB), too little for a 1024 MiB one.
    const KIB: u64 = 400_000;
    if osolve::huge_pages::max_hash_mb() < 1024 {
        eprintln!("skipped: --hash-mb 1024 is more than this machine's memory");
        return;
    }
    let dir = temp_dir();
    fs::write(dir.path().join("one.obf"), format!("{FFO_1}\n")).unwrap();
    let sample = root().join("tests/data/games/sample.txt");
    let sample = sample.to_str().unwrap();
    let (one, batch) = (ONE_TABLE_REFUSED, BATCH_TABLES_REFUSED);
    let gen: &[&str] = &[
        "gen",
        "--positions",
        "1",
        "--empties",
        "12-12",
        "-o",
        "gen.obf",
    ];
    let engine = "osolve: cannot allocate 1536 MiB of transposition tables (1024 MiB for the \
                  exact solver, 256 MiB for the win/draw/loss solver, 256 MiB for the \
                  middle-game search): out of memory; use a smaller --hash-mb\n";
    let commands: &[(&[&str], &str, &str)] = &[
        (&["solve", "-q", "-p", FFO_1], "", one),
        (&["analyze", "one.obf", "-q"], "", batch),
        (&["games", sample, "--empties", "12", "-q"], "", batch),
        (&["show", "-p", FFO_1, "--analyze", "--ascii"], "", one),
        (&["bench", "--suite", "ffo1-19"], "", one),
        (gen, "", one),
        (&["gtp"], "quit\n", engine),
        (&["nboard"], "quit\n", engine),
    ];
    for &(base, input, too_large) in commands {
        let with = |hash: &'static str| [base, &["--threads", "1", "--hash-mb", hash]].concat();
        // A table that fits: the limit leaves the command room to run.
        let (code, _, stderr) = run_limited(dir.path(), KIB, &with("16"), input);
        assert_eq!(code, 0, "{:?}: {stderr}", with("16"));
        // One that does not: one line and exit code 2, not an abort.
        // Every command says it in the same words (bench once put `cannot build the solver: `
        // before them), naming every table it makes (analyze, games, gtp and nboard named one
        // of the size asked, or the engine a quarter of it).
        let (code, stdout, stderr) = run_limited(dir.path(), KIB, &with("1024"), input);
        assert_eq!(code, 2, "{:?}: {stderr}", with("1024"));
        assert_eq!(stderr, too_large, "{:?}", with("1024"));
        assert_eq!(stdout, "", "{:?}", with("1024"));
    }
    // gen on two threads makes a table for each.
    let args = [gen, &["--threads", "2", "--hash-mb", "1024"]].concat();
    let (code, stdout, stderr) = run_limited(dir.path(), KIB, &args, "");
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(
        stderr,
        "osolve: cannot allocate 2048 MiB of transposition tables (2 x 1024 MiB for the \
         labelling threads): out of memory; use a smaller --hash-mb\n"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_limit_just_above_the_tables_is_refused_at_the_start_not_an_abort() {
    // gtp makes its tables, then decodes the evaluation weights and starts its threads. Under a
    // limit just above the tables one of those allocations failed: the process aborted
    // (SIGABRT), or hung in the abort's own report. Every limit must now either hold the whole
    // session or be refused at the start, exit code 2 and one line. The smallest limit the
    // session runs under is found by halving; then every limit from 96 MiB below it to 16 MiB
    // above, 2 MiB apart, is tried.
    if osolve::huge_pages::max_hash_mb() < 512 {
        eprintln!(
            "skipped: --hash-mb 256 with its engine's tables is more than this machine's memory"
        );
        return;
    }
    let dir = temp_dir();
    let args = [
        "gtp",
        "--threads",
        "1",
        "--hash-mb",
        "256",
        "--move-time",
        "0.05",
    ];
    let input = "genmove b\nquit\n";
    let runs = |kib| run_limited(dir.path(), kib, &args, input).0 == 0;
    let (mut low, mut high) = (100_000u64, 2_000_000u64);
    assert!(runs(high), "the session runs under {high} KiB");
    while high - low > 1024 {
        let middle = (low + high) / 2;
        if runs(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    let refused = "osolve: cannot allocate 384 MiB of transposition tables (256 MiB for the \
                   exact solver, 64 MiB for the win/draw/loss solver, 64 MiB for the \
                   middle-game search): out of memory; use a smaller --hash-mb\n";
    for kib in (high - (96 << 10)..=high + (16 << 10)).step_by(2 << 10) {
        // `finished` fails the test on an exit by a signal (the abort).
        let (code, stdout, stderr) = run_limited(dir.path(), kib, &args, input);
        match code {
            0 => assert!(stdout.starts_with("= "), "{kib} KiB: {stdout}"),
            2 => assert_eq!(
                (stdout.as_str(), stderr.as_str()),
                ("", refused),
                "{kib} KiB"
            ),
            _ => panic!("{kib} KiB: exit code {code}: {stderr}"),
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_table_larger_than_the_memory_allowed_leaves_the_output_alone() {
    // As above: 400 MB of address space cannot hold a 1024 MiB table, so each command fails
    // before it solves anything; the output it names must stay as it was, or not come to be.
    const KIB: u64 = 400_000;
    if osolve::huge_pages::max_hash_mb() < 1024 {
        eprintln!("skipped: --hash-mb 1024 is more than this machine's memory");
        return;
    }
    let dir = temp_dir();
    fs::write(dir.path().join("one.obf"), format!("{FFO_1}\n")).unwrap();
    let sample = root().join("tests/data/games/sample.txt");
    let sample = sample.to_str().unwrap();
    let gen = ["gen", "--positions", "1", "--empties", "12-12"];
    let commands: &[(&[&str], &str, &str)] = &[
        (&["analyze", "one.obf", "-q"], "1", BATCH_TABLES_REFUSED),
        (
            &["games", sample, "--empties", "12", "-q"],
            "1",
            BATCH_TABLES_REFUSED,
        ),
        (&gen, "1", ONE_TABLE_REFUSED),
        // A table for each labelling thread: the first one refused leaves the file too.
        (
            &gen,
            "2",
            "osolve: cannot allocate 2048 MiB of transposition tables (2 x 1024 MiB for the \
             labelling threads): out of memory; use a smaller --hash-mb\n",
        ),
    ];
    let earlier = "an earlier run's results\n";
    let limits = ["--threads", "1", "--hash-mb", "1024"];
    for &(base, threads, too_large) in commands {
        fs::write(dir.path().join("kept.csv"), earlier).unwrap();
        for out in ["kept.csv", "new.csv"] {
            let limits = ["--threads", threads, "--hash-mb", "1024"];
            let args = [base, &["-o", out], &limits].concat();
            let (code, stdout, stderr) = run_limited(dir.path(), KIB, &args, "");
            assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
            assert_eq!(stderr, too_large, "{args:?}");
        }
        let kept = fs::read_to_string(dir.path().join("kept.csv")).unwrap();
        assert_eq!(kept, earlier, "{base:?}");
        assert!(!dir.path().join("new.csv").exists(), "{base:?}");
    }
    // Nor does games' table of players.
    fs::write(dir.path().join("players.csv"), earlier).unwrap();
    let games = [
        "games",
        sample,
        "--empties",
        "12",
        "-q",
        "--players",
        "players.csv",
    ];
    let (code, _, stderr) = run_limited(dir.path(), KIB, &[&games[..], &limits].concat(), "");
    assert_eq!((code, stderr.as_str()), (2, BATCH_TABLES_REFUSED));
    let players = fs::read_to_string(dir.path().join("players.csv")).unwrap();
    assert_eq!(players, earlier);
}

#[cfg(target_os = "linux")]
#[test]
fn a_resumed_run_that_fails_before_solving_leaves_the_output_alone() {
    // As above, with --resume: a missing OUT is not made, and an existing one (its last record
    // cut short, as an interrupted run leaves it) keeps every byte.
    const KIB: u64 = 400_000;
    if osolve::huge_pages::max_hash_mb() < 1024 {
        eprintln!("skipped: --hash-mb 1024 is more than this machine's memory");
        return;
    }
    let dir = temp_dir();
    // FFO #1 and #2 (14 empties each).
    let ffo = fs::read_to_string(root().join("positions/ffo-1-19.obf")).unwrap();
    let two: Vec<&str> = ffo.lines().take(2).collect();
    fs::write(dir.path().join("two.obf"), two.join("\n") + "\n").unwrap();
    let sample = root().join("tests/data/games/sample.txt");
    let sample = sample.to_str().unwrap();
    let commands: &[(&[&str], &str)] = &[
        (&["analyze", "two.obf", "-q"], "csv"),
        (&["games", sample, "--empties", "12", "-q"], "txt"),
    ];
    for &(base, extension) in commands {
        let (new, cut) = (format!("new.{extension}"), format!("cut.{extension}"));
        // The existing output: a whole run's, cut inside its last record.
        let (code, _, stderr) = run_in(
            dir.path(),
            &[base, &["-o", &cut, "--threads", "1"]].concat(),
        );
        assert_eq!(code, 0, "{base:?}: {stderr}");
        let mut earlier = fs::read(dir.path().join(&cut)).unwrap();
        earlier.truncate(earlier.len() - 10);
        fs::write(dir.path().join(&cut), &earlier).unwrap();
        for out in [&new, &cut] {
            let args = [
                base,
                &["-o", out, "--resume", "--threads", "1", "--hash-mb", "1024"],
            ]
            .concat();
            let (code, stdout, stderr) = run_limited(dir.path(), KIB, &args, "");
            assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
            assert_eq!(stderr, BATCH_TABLES_REFUSED, "{args:?}");
        }
        assert!(!dir.path().join(&new).exists(), "{base:?}");
        assert_eq!(
            fs::read(dir.path().join(&cut)).unwrap(),
            earlier,
            "{base:?}"
        );
    }
}

#[test]
fn a_resumed_run_on_inputs_without_items_makes_no_output() {
    let dir = temp_dir();
    fs::write(dir.path().join("empty.obf"), "# nothing\n").unwrap();
    fs::write(dir.path().join("empty.txt"), "").unwrap();
    let commands: [&[&str]; 2] = [
        &["analyze", "empty.obf", "-o", "new.csv"],
        &["games", "empty.txt", "--empties", "10", "-o", "new.csv"],
    ];
    for base in commands {
        let args = [base, &["--resume", "-q"]].concat();
        let (code, stdout, stderr) = run_in(dir.path(), &args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert!(
            stderr.ends_with("(the input is empty or has only blank lines and comments)\n"),
            "{stderr}"
        );
        assert!(!dir.path().join("new.csv").exists(), "{args:?}");
    }
}

#[test]
fn an_input_without_positions_leaves_the_output_alone() {
    let dir = temp_dir();
    fs::write(dir.path().join("empty.obf"), "# nothing\n").unwrap();
    let earlier = "an earlier run's results\n";
    fs::write(dir.path().join("kept.csv"), earlier).unwrap();
    for out in ["kept.csv", "new.csv"] {
        let (code, stdout, stderr) = run_in(dir.path(), &["analyze", "empty.obf", "-q", "-o", out]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{out}");
        assert_eq!(
            stderr,
            "osolve: empty.obf: no positions (the input is empty or has only blank lines and \
             comments)\n"
        );
    }
    let kept = fs::read_to_string(dir.path().join("kept.csv")).unwrap();
    assert_eq!(kept, earlier);
    assert!(!dir.path().join("new.csv").exists());
}

#[test]
fn analyze_on_inputs_without_a_position_prints_no_summary() {
    let dir = temp_dir();
    fs::write(dir.path().join("empty.obf"), "").unwrap();
    fs::write(dir.path().join("ffo-1.obf"), format!("{FFO_1}\n")).unwrap();
    let said = "osolve: empty.obf: no positions (the input is empty or has only blank lines and \
                comments)\n";
    // Not quiet, and with the check: the line, and no `analysed 0 positions` or `checked 0
    // positions` after it.
    let modes: [&[&str]; 3] = [&[], &["--check"], &["--check", "-q"]];
    for mode in modes {
        let args = [&["analyze", "empty.obf"], mode].concat();
        let (code, stdout, stderr) = run_in(dir.path(), &args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(stderr, said, "{args:?}");
    }
    // Beside an input with a position, the summary and the verdict follow the line.
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "analyze",
            "empty.obf",
            "ffo-1.obf",
            "--check",
            "--threads",
            "1",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(&format!("{said}analysed 1 position, 8 moves scored")),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("checked 1 position: 1 correct, 0 wrong\n"),
        "{stderr}"
    );
}

#[test]
fn dash_is_standard_output_everywhere() {
    let dir = temp_dir();
    fs::write(dir.path().join("one.obf"), format!("{FFO_1}\n")).unwrap();
    let (code, line, stderr) = run_in(
        dir.path(),
        &["analyze", "one.obf", "-o", "-", "--format", "obf", "-q"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(line.starts_with(&FFO_1[..66]), "{line}");
    assert!(line.contains(" G8:+18; H1:+12;"), "{line}");

    let (code, stdout, stderr) = run_in(
        dir.path(),
        &["gen", "--positions", "2", "--empties", "6-6", "-o", "-"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 2);

    let (code, svg, _) = run_in(dir.path(), &["show", "-p", FFO_1, "--svg", "-"]);
    assert_eq!(code, 0);
    assert!(
        svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    // Nothing named `-` was written anywhere.
    assert!(!dir.path().join("-").exists());
}

#[test]
fn games_files_given_to_solve_point_at_games() {
    for (file, kind) in [("sample.wtb", "WThor"), ("sample.ggf", "GGF")] {
        let path = root().join("tests/data/games").join(file);
        let path = path.to_str().unwrap();
        let (code, stdout, stderr) = run_in(root(), &["solve", path]);
        assert_eq!(code, 2);
        assert!(stdout.is_empty());
        assert_eq!(
            stderr,
            format!(
                "osolve: cannot read {path}: it is a {kind} games file, not a file of \
                 positions; use `osolve games {path} --empties N` to solve its games\n"
            )
        );
    }
}

#[test]
fn an_input_without_positions_is_one_line_and_bad_input_for_every_command() {
    let dir = temp_dir();
    fs::write(dir.path().join("empty.obf"), "").unwrap();
    fs::write(dir.path().join("notes.obf"), "# only\n\n% comments\n").unwrap();
    fs::write(dir.path().join("ffo-1.obf"), format!("{FFO_1}\n")).unwrap();
    let said = |name: &str| {
        format!(
            "osolve: {name}: no positions (the input is empty or has only blank lines and \
             comments)\n"
        )
    };
    for name in ["empty.obf", "notes.obf"] {
        let commands: [&[&str]; 5] = [
            &["solve", name],
            &["analyze", name, "-q"],
            &["show", name],
            &["bench", "--suite", name],
            &["train", name, "-o", "w.bin"],
        ];
        for args in commands {
            let (code, stdout, stderr) = run_in(dir.path(), args);
            assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
            assert_eq!(stderr, said(name), "{args:?}");
        }
        assert!(!dir.path().join("w.bin").exists());
    }
    let (code, stdout, stderr) = run_with_input(&["solve", "-"], "\n# nothing\n");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, said("<stdin>"));
    // The other inputs are still solved.
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &[
            "solve",
            "empty.obf",
            "ffo-1.obf",
            "--quiet",
            "--threads",
            "1",
        ],
    );
    assert_eq!(code, 2);
    assert!(stdout.starts_with("ffo-1.obf:1  score +18 "), "{stdout}");
    assert_eq!(stderr, said("empty.obf"));
    let (code, _, stderr) = run_in(dir.path(), &["analyze", "ffo-1.obf", "notes.obf"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(&(said("notes.obf") + "analysed 1 position, 8 moves scored")),
        "{stderr}"
    );
}

#[test]
fn a_games_input_without_games_is_one_line_and_bad_input() {
    let dir = temp_dir();
    fs::write(dir.path().join("empty.txt"), "").unwrap();
    fs::write(dir.path().join("notes.txt"), "# only\n\n% comments\n").unwrap();
    let said = |name: &str| {
        format!(
            "osolve: {name}: no games (the input is empty or has only blank lines and \
             comments)\n"
        )
    };
    let games = |inputs: &[&str], out: &str| {
        let args = [
            &["games"],
            inputs,
            &["--empties", "10", "-q", "--threads", "1", "--hash-mb", "16"],
            &["-o", out],
        ]
        .concat();
        run_in(dir.path(), &args)
    };
    let earlier = "an earlier run's results\n";
    for name in ["empty.txt", "notes.txt"] {
        fs::write(dir.path().join("kept.txt"), earlier).unwrap();
        let (code, stdout, stderr) = games(&[name], "kept.txt");
        assert_eq!((code, stdout.as_str()), (2, ""), "{name}: {stderr}");
        assert_eq!(stderr, said(name));
        // Nothing to solve: the output stays as it was.
        let kept = fs::read_to_string(dir.path().join("kept.txt")).unwrap();
        assert_eq!(kept, earlier);
    }
    let (code, stdout, stderr) =
        run_with_input(&["games", "-", "--empties", "10", "-q"], "\n# nothing\n");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, said("<stdin>"));
    // The other inputs are still solved, as without the empty one, and the exit code is 2.
    let sample = root().join("tests/data/games/sample.txt");
    let sample = sample.to_str().unwrap();
    let (code, _, stderr) = games(&[sample], "alone.txt");
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (code, _, stderr) = games(&["empty.txt", sample], "with.txt");
    assert_eq!(code, 2);
    assert_eq!(stderr, said("empty.txt"));
    let alone = fs::read_to_string(dir.path().join("alone.txt")).unwrap();
    let with = fs::read_to_string(dir.path().join("with.txt")).unwrap();
    assert!(alone.contains(&format!("{sample}#6")), "{alone}");
    assert_eq!(with, alone);
}

#[test]
fn games_on_inputs_without_a_game_prints_no_summary() {
    let dir = temp_dir();
    fs::write(dir.path().join("empty.txt"), "").unwrap();
    fs::write(dir.path().join("notes.txt"), "# only a comment\n").unwrap();
    let said = |name: &str| {
        format!(
            "osolve: {name}: no games (the input is empty or has only blank lines and \
             comments)\n"
        )
    };
    // Not quiet, and with the check: the empty inputs are said, and nothing after them (no
    // `read 0 games`, no `checked 0 games`, no `solved 0 positions`).
    let modes: [&[&str]; 3] = [
        &["--empties", "10"],
        &["--empties", "10", "--check-theoretical"],
        &["--check-theoretical", "-q"],
    ];
    for mode in modes {
        let args = [&["games", "empty.txt", "notes.txt"], mode].concat();
        let (code, stdout, stderr) = run_in(dir.path(), &args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(stderr, said("empty.txt") + &said("notes.txt"), "{args:?}");
    }
    // Beside an input with games, the summary is still written, after the line.
    let sample = root().join("tests/data/games/sample.txt");
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "games",
            "empty.txt",
            sample.to_str().unwrap(),
            "--empties",
            "4",
            "--threads",
            "1",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(&(said("empty.txt") + "read 6 games: 6 analysed, 0 skipped\n")),
        "{stderr}"
    );
}

#[test]
fn a_board_with_no_discs_is_refused() {
    let empty = format!("{} X", "-".repeat(64));
    let (code, stdout, stderr) = run_in(root(), &["solve", "-p", &empty]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert_eq!(
        stderr,
        "osolve: <position>:1: a board with no discs cannot occur in Othello (every game \
         starts with four; --rules reversi starts from the empty board) (skipped)\n"
    );
}

#[test]
fn show_svg_of_several_positions_needs_a_directory_and_pads_the_numbers() {
    let dir = temp_dir();
    fs::write(dir.path().join("taken.svg"), "keep").unwrap();
    let (code, _, stderr) = run_in(
        dir.path(),
        &["show", "-p", "f5", "-p", "f5d6", "--svg", "taken.svg", "-q"],
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "osolve: --svg taken.svg: several positions need a directory for their pictures, and \
         taken.svg is a file\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("taken.svg")).unwrap(),
        "keep"
    );

    let (code, _, stderr) = run_in(
        dir.path(),
        &["show", "-p", "f5", "-p", "f5d6", "--svg", "pics", "-q"],
    );
    assert_eq!(code, 0, "{stderr}");
    let mut names: Vec<String> = fs::read_dir(dir.path().join("pics"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["position-01.svg", "position-02.svg"]);
}

#[test]
fn train_fails_when_no_weight_set_can_be_fitted() {
    let dir = temp_dir();
    fs::write(
        dir.path().join("few.obf"),
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; +18;\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run_in(dir.path(), &["train", "few.obf", "-o", "w.bin"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert_eq!(
        stderr,
        "osolve: warning: 1 labelled position given, fewer than --min-samples 10000 that a \
         weight set needs of its own empties\n\
         osolve: no weight set could be fitted: each needs at least --min-samples 10000 \
         training positions of its own empties; no weights written to w.bin\n"
    );
    assert!(!dir.path().join("w.bin").exists());
}

#[test]
fn search_depth_labels_are_marked_and_not_checked_as_exact() {
    let dir = temp_dir();
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "gen",
            "--positions",
            "3",
            "--empties",
            "8-8",
            "--search-depth",
            "2",
            "-o",
            "sd.obf",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let text = fs::read_to_string(dir.path().join("sd.obf")).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(
        text.lines().all(|l| l.ends_with("; % search depth 2")),
        "{text}"
    );
    let (code, _, stderr) = run_in(
        dir.path(),
        &["analyze", "--check", "sd.obf", "-o", "out.jsonl"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("checked 0 positions: 0 correct, 0 wrong\n"),
        "{stderr}"
    );
}

#[test]
fn version_names_the_commit_and_the_cpu_features() {
    let (code, text, _) = run_in(root(), &["--version"]);
    assert_eq!(code, 0);
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or("unknown".to_string(), |o| {
            String::from_utf8_lossy(&o.stdout).trim().to_string()
        });
    // The build's sources (the pathspecs build.rs watches) as git sees them now: cargo reran
    // build.rs when any of them changed, so the binary's mark is this state's.
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(env!("OSOLVE_BUILD_INPUTS").split(' '));
    let modified = std::process::Command::new("git")
        .args(&status)
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success() && commit != "unknown")
        .is_some_and(|o| !o.stdout.is_empty());
    let mark = if modified {
        " with uncommitted changes"
    } else {
        ""
    };
    let prefix = format!(
        "osolve {} (commit {commit}{mark}, built for {}",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH
    );
    assert!(text.starts_with(&prefix), "{text} / {prefix}");
    assert!(text.ends_with(")\n"), "{text}");
}

#[test]
fn completions_and_the_manual_page() {
    let subcommands = [
        "solve", "analyze", "games", "bench", "perft", "gen", "train", "show",
    ];
    for (shell, marker) in [
        ("bash", "_osolve() {"),
        ("zsh", "#compdef osolve"),
        ("fish", "complete -c osolve"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (code, script, stderr) = run_in(root(), &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {stderr}");
        assert!(script.contains(marker), "{shell}");
        for name in subcommands {
            assert!(script.contains(name), "{shell} lacks {name}");
        }
        assert!(script.contains("time-limit"), "{shell}");
        // Every option the completions offer is one --help shows (none hidden).
        assert!(script.contains("parallel-max-empties"), "{shell}");
    }
    let (code, help, _) = run_in(root(), &["analyze", "--help"]);
    assert_eq!(code, 0);
    assert!(
        help.contains("--parallel-max-empties <PARALLEL_MAX_EMPTIES>"),
        "{help}"
    );
    let (code, _, stderr) = run_in(root(), &["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "osolve: invalid value 'tcsh' for '<SHELL>' (expected bash, elvish, fish, powershell \
         or zsh)\n"
    );
    let (code, page, _) = run_in(root(), &["man"]);
    assert_eq!(code, 0);
    assert!(page.contains(".TH osolve 1"), "{page}");
    assert!(page.contains("osolve \\- Exact Othello endgame solver and analysis tool"));
    for name in subcommands {
        assert!(
            page.contains(&format!("osolve\\-{name}(1)")),
            "man lacks {name}\n{page}"
        );
        // Each of those pages exists.
        let (code, sub, _) = run_in(root(), &["man", name]);
        assert_eq!(code, 0);
        assert!(sub.contains(&format!(".TH osolve-{name} 1")), "{sub}");
    }
    let (code, _, stderr) = run_in(root(), &["man", "foo"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("osolve: man foo: no such command (expected one of solve, "));
    // The footer holds the short version (the long one, with its commit and CPU features, ran
    // over the footer's width and garbled it); the VERSION section keeps the long one.
    assert!(
        page.contains(".TH osolve 1  \"osolve 0.1.0\" \"osolve manual\"\n"),
        "{page}"
    );
    assert!(page.contains(".SH VERSION\nv0.1.0 (commit "), "{page}");
}

#[test]
fn man_dir_writes_every_page_as_a_file() {
    let dir = temp_dir();
    let pages = dir.path().join("man1");
    fs::create_dir(&pages).unwrap();
    let (code, listed, stderr) = run_in(root(), &["man", "--dir", pages.to_str().unwrap()]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (_, main_page, _) = run_in(root(), &["man"]);
    let mut names = vec!["osolve".to_string()];
    for sub in [
        "solve",
        "analyze",
        "games",
        "bench",
        "perft",
        "gen",
        "train",
        "show",
        "completions",
        "man",
        "gtp",
        "nboard",
    ] {
        assert!(main_page.contains(&format!("osolve\\-{sub}(1)")), "{sub}");
        names.push(format!("osolve-{sub}"));
    }
    let expected: String = names
        .iter()
        .map(|n| format!("{}\n", pages.join(format!("{n}.1")).display()))
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(fs::read_dir(&pages).unwrap().count(), names.len());
    assert_eq!(
        fs::read_to_string(pages.join("osolve.1")).unwrap(),
        main_page
    );
    let (_, solve_page, _) = run_in(root(), &["man", "solve"]);
    assert_eq!(
        fs::read_to_string(pages.join("osolve-solve.1")).unwrap(),
        solve_page
    );
    // A folder that does not exist yet is made, with its parents (a fresh account has no
    // ~/.local/share/man/man1).
    let missing = dir.path().join("absent").join("man1");
    let (code, listed, _) = run_in(root(), &["man", "--dir", missing.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(listed.lines().count(), names.len());
    assert_eq!(
        fs::read_to_string(missing.join("osolve.1")).unwrap(),
        main_page
    );
    // A file is not a folder.
    let file = dir.path().join("a-file");
    fs::write(&file, "x").unwrap();
    let (code, _, stderr) = run_in(root(), &["man", "--dir", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!("osolve: man --dir {}: not a directory\n", file.display())
    );
}

#[test]
fn a_line_or_position_left_out_is_said_alike_by_solve_show_and_analyze() {
    // A bad line, one too long to read, a position too deep to finish, then one to solve:
    // each command leaves the first three out and goes on, and says so in the same words
    // (`(skipped)` once), solve and show after their `osolve: `.
    let dir = temp_dir();
    let long = "-".repeat(2 << 20);
    let text = format!("f5 d6 zz\n{long}\nf5\n{FFO_1}\n");
    fs::write(dir.path().join("mixed.txt"), text).unwrap();
    let expected = [
        "mixed.txt:1:7: move 3 (zz): expected a square a1..h8 or a pass (pa, ps, --) (skipped)"
            .to_string(),
        format!(
            "mixed.txt:2: expected a line of at most {} bytes, found a longer one (skipped)",
            1 << 20
        ),
        "mixed.txt:3: 59 empty squares: not solved, an exact solve would not finish (it takes \
         months or more beyond 36 empties); use --force to try anyway, or --time-limit / \
         --node-limit for bounds (skipped)"
            .to_string(),
    ];
    let with_prefix: Vec<String> = expected.iter().map(|l| format!("osolve: {l}")).collect();
    let commands: [(&[&str], &[String]); 3] = [
        (&["solve", "mixed.txt", "-q"], &with_prefix),
        (&["show", "mixed.txt", "--analyze", "--ascii"], &with_prefix),
        (&["analyze", "mixed.txt", "-q", "-o", "out.obf"], &expected),
    ];
    for (args, lines) in commands {
        let (code, _, stderr) = run_in(dir.path(), &[args, &["--threads", "1"]].concat());
        assert_eq!(code, 2, "{args:?}: {stderr}");
        let said: Vec<&str> = stderr.lines().collect();
        assert_eq!(said, *lines, "{args:?}");
    }
}
