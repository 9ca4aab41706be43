//! End-to-end tests of `osolve games` on the shipped samples of the WThor database
//! (tests/data/games, see its README.md): every game of 2021 replays to the positions of an
//! independent replay, the theoretical scores the database records agree with the exact
//! solver (a few games here, the whole year in an ignored test), GGF and transcript files give
//! the same results as the same games in WThor form, corrupted files are reported with their
//! file, game and reason, and Ctrl-C, --resume and --shard behave as for `osolve analyze`.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use osolve::board::Color;
use osolve::games::wthor::{Header, Record, HEADER_LEN, RECORD_LEN};
use osolve::games::{open_games, Game};
use osolve::notation::format_board;
use osolve::report::games::JsonRecord;

mod common;
use common::{
    finished, interrupt_after, osolve, osolve_in, run, spawn, temp_dir, text, whole_lines,
};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games");

fn data(name: &str) -> String {
    format!("{DATA}/{name}")
}

/// Runs `osolve games ARGS` and returns its output (whatever the exit code).
fn games(args: &[&str]) -> Output {
    osolve()
        .arg("games")
        .args(args)
        .output()
        .expect("osolve runs")
}

/// The game records of a JSON lines output (an output file's first line records its options).
fn json_records(output: &str) -> Vec<JsonRecord> {
    output
        .lines()
        .filter(|line| !line.starts_with(r#"{"osolve_games":"#))
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The games of a file, all of which must read.
fn read_games(path: &str) -> Vec<Game> {
    open_games(Path::new(path))
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// One row of wth2021-pos24.tsv, made by a replay independent of osolve.
struct Row {
    index: usize,
    tournament: String,
    black: String,
    white: String,
    real: u32,
    theoretical: u32,
    moves: String,
    pos24: String,
    side24: String,
}

fn table() -> Vec<Row> {
    fs::read_to_string(data("wth2021-pos24.tsv"))
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 10, "{line}");
            Row {
                index: f[1].parse().unwrap(),
                tournament: f[2].to_string(),
                black: f[3].to_string(),
                white: f[4].to_string(),
                real: f[5].parse().unwrap(),
                theoretical: f[6].parse().unwrap(),
                moves: f[7].to_string(),
                pos24: f[8].to_string(),
                side24: f[9].to_string(),
            }
        })
        .collect()
}

#[test]
fn every_2021_game_replays_to_the_positions_of_an_independent_replay() {
    let games = read_games(&data("WTH_2021.wtb"));
    let rows = table();
    assert_eq!(games.len(), 320);
    assert_eq!(rows.len(), 320);
    for (game, row) in games.iter().zip(&rows) {
        assert_eq!(game.id.number, row.index + 1);
        assert_eq!(game.transcript(), row.moves, "{}", game.id);
        assert_eq!(game.black.as_deref(), Some(row.black.as_str()));
        assert_eq!(game.white.as_deref(), Some(row.white.as_str()));
        assert_eq!(game.tournament.as_deref(), Some(row.tournament.as_str()));
        let recorded = game.recorded.unwrap();
        assert_eq!(recorded.depth, 24);
        assert_eq!(recorded.theoretical_black, row.theoretical);
        // The real score is the replay's final count, empties to the winner, in every game.
        assert_eq!(recorded.final_black, row.real, "{}", game.id);
        assert_eq!(game.final_discs().0, row.real, "{}", game.id);
        assert!(game.end.board.is_game_over());
        // The position at 24 empties: the same discs; the side to move is the table's unless
        // that side must pass.
        let at = game
            .at_empties(24)
            .expect("every 2021 game reaches 24 empties");
        let board = format_board(&at.position);
        assert_eq!(&board[..64], row.pos24, "{}", game.id);
        let side = if row.side24 == "X" {
            Color::Black
        } else {
            Color::White
        };
        if at.position.to_move != side {
            // The table's side has no move there: it passes.
            assert_eq!(at.position.pass().board.moves(), 0, "{}", game.id);
        }
    }
}

/// The fields of a record that must not depend on the file's kind, the names, the run or the
/// solver's history (best moves among equals, nodes and time do).
fn results(record: &JsonRecord) -> String {
    let played: Vec<String> = record
        .played
        .iter()
        .map(|m| {
            format!(
                "{} {:?} {} {} {} {}",
                m.number, m.color, m.mv, m.empties, m.score, m.loss
            )
        })
        .collect();
    let exact = record
        .exact
        .as_ref()
        .map(|e| format!("{} {:?} {}", e.position, e.discs, e.score));
    format!(
        "{} final {:?} from {:?}: {exact:?} loss {:?} first {:?} played {played:?} solved {}",
        record.moves,
        record.final_discs,
        record.empties,
        record.loss,
        record.first_mistake.as_ref().map(|m| m.number),
        record.solved
    )
}

#[test]
fn ggf_and_transcripts_give_the_results_of_the_same_wthor_games() {
    let run = |file: &str| {
        let output = games(&[&data(file), "--empties", "14", "--format", "jsonl", "-q"]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        json_records(&text(&output.stdout))
    };
    let wthor = run("sample.wtb");
    let ggf = run("sample.ggf");
    let transcripts = run("sample.txt");
    assert_eq!(wthor.len(), 6);
    assert_eq!(ggf.len(), 6);
    assert_eq!(transcripts.len(), 6);
    for ((w, g), t) in wthor.iter().zip(&ggf).zip(&transcripts) {
        assert_eq!(results(w), results(g));
        assert_eq!(results(w), results(t));
        // GGF names its players; transcripts do not.
        assert_eq!((&w.black, &w.white), (&g.black, &g.white));
        assert_eq!((&t.black, &t.white), (&None, &None));
        assert!(w.recorded_final.is_some() && g.recorded_final.is_none());
    }
    // The six games, as the independent replay of make_samples.py counts them.
    let finals: Vec<(u32, u32)> = wthor
        .iter()
        .map(|r| (r.final_discs.black, r.final_discs.white))
        .collect();
    assert_eq!(
        finals,
        [(28, 36), (15, 49), (60, 4), (3, 61), (64, 0), (1, 63)]
    );
    let moves: Vec<usize> = wthor.iter().map(|r| r.moves.len() / 2).collect();
    assert_eq!(moves, [60, 60, 60, 59, 57, 56]);
    // Every move from 14 empties is scored, and each loss is the drop of its player's score.
    for record in &wthor {
        let exact = record.exact.as_ref().unwrap();
        assert_eq!(record.played[0].score, exact.score);
        assert_eq!(record.played[0].empties, 14);
        for pair in record.played.windows(2) {
            let (m, next) = (&pair[0], &pair[1]);
            let after = if next.color == m.color {
                next.score
            } else {
                -next.score
            };
            assert_eq!(m.loss, m.score - after, "{} move {}", record.game, m.number);
            assert!(m.loss >= 0);
        }
    }
}

/// A WThor file of the given records of WTH_2021.wtb (0-based), the theoretical score of
/// the record at `wrong.0` in `records` replaced by `wrong.1` when `wrong` is set.
fn wthor_subset(path: &Path, records: &[usize], wrong: Option<(usize, u8)>) {
    let bytes = fs::read(data("WTH_2021.wtb")).unwrap();
    let mut header = Header::parse(bytes[..HEADER_LEN].try_into().unwrap());
    header.games = records.len() as u32;
    let mut out = header.to_bytes().to_vec();
    for (k, &i) in records.iter().enumerate() {
        let at = HEADER_LEN + i * RECORD_LEN;
        let mut record = Record::parse(bytes[at..at + RECORD_LEN].try_into().unwrap());
        if let Some((_, score)) = wrong.filter(|&(at, _)| at == k) {
            record.theoretical_score = score;
        }
        out.extend_from_slice(&record.to_bytes());
    }
    fs::write(path, out).unwrap();
}

/// The three 2021 games whose 24-empties positions solve fastest (games 24, 21 and 23:
/// 14 thousand, 14 million and 55 million nodes measured), then game 21 again with a wrong
/// theoretical score (58 instead of 60).
#[test]
fn theoretical_scores_of_2021_agree_and_a_wrong_one_is_listed_with_its_position() {
    let dir = temp_dir();
    let path = dir.path().join("cheap.wtb");
    wthor_subset(&path, &[23, 20, 22, 20], Some((3, 58)));
    let output = games(&[
        path.to_str().unwrap(),
        "--check-theoretical",
        "--format",
        "jsonl",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("checked 4 games: 3 agree, 1 disagree"),
        "{stderr}"
    );
    let rows = table();
    let line = format!(
        "cheap.wtb#4: theoretical score 58-6 recorded, exact 60-4 at 24 empties: {} X",
        rows[20].pos24
    );
    assert!(stderr.contains(&line), "{stderr}");
    let records = json_records(&text(&output.stdout));
    let agree: Vec<Option<bool>> = records
        .iter()
        .map(|r| r.theoretical.as_ref().unwrap().agree)
        .collect();
    assert_eq!(agree, [Some(true), Some(true), Some(true), Some(false)]);
    for (record, &i) in records.iter().zip(&[23, 20, 22]) {
        let theoretical = record.theoretical.as_ref().unwrap();
        assert_eq!(theoretical.exact.unwrap().black, rows[i].theoretical);
        // Only the check was asked for: one position solved, no moves scored.
        assert_eq!(record.solved, 1);
        assert!(record.played.is_empty());
    }
}

/// Issue 26: a game whose moves stop before the database's depth is checked, with
/// `--from-end`, from where it stopped, and the report says so instead of naming the depth it
/// never reached. Game 24 of 2021 cut after 34 moves (26 empties; it is lost 0-64 for black
/// from there), recording 50 for black.
#[test]
fn a_theoretical_check_from_where_a_game_stopped_says_where() {
    let dir = temp_dir();
    let path = dir.path().join("cut.wtb");
    let bytes = fs::read(data("WTH_2021.wtb")).unwrap();
    let mut header = Header::parse(bytes[..HEADER_LEN].try_into().unwrap());
    header.games = 1;
    let at = HEADER_LEN + 23 * RECORD_LEN;
    let mut record = Record::parse(bytes[at..at + RECORD_LEN].try_into().unwrap());
    record.moves[34..].fill(0);
    record.theoretical_score = 50;
    fs::write(
        &path,
        [&header.to_bytes()[..], &record.to_bytes()[..]].concat(),
    )
    .unwrap();
    let output = games(&[path.to_str().unwrap(), "--check-theoretical", "--from-end"]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stdout.contains(
            "  theoretical 50-14 at 24 empties (recorded), exact 0-64 from where the game \
             stopped, before 24 empties: DISAGREES\n"
        ),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "cut.wtb#1: theoretical score 50-14 recorded, exact 0-64 at 26 empties (from where \
             the game stopped, before 24 empties): -------------------XXXXO--XXXXXOOOXOOOXO--XXOX\
             XO--XXXOXOOOOOOOO- O\n"
        ),
        "{stderr}"
    );
}

/// Issue 26, broken 2-4: an output holding a disagreement, resumed with
/// `--check-theoretical --resume`, ends with the verdict and exit code of one whole run, in
/// every format; a resume with other options that change results is refused with one line
/// and leaves the file as it was.
#[test]
fn a_resumed_check_counts_the_games_already_written_and_other_options_are_refused() {
    let dir = temp_dir();
    let path = dir.path().join("cheap.wtb");
    // Games 24 and 21 of 2021 (14 thousand and 14 million nodes), twice; the first game 21
    // records 58 instead of 60.
    wthor_subset(&path, &[23, 20, 23, 20], Some((1, 58)));
    let input = path.to_str().unwrap();
    let disagreement = format!(
        "{input}#2: theoretical score 58-6 recorded, exact 60-4 at 24 empties: {} X",
        table()[20].pos24
    );
    for (format, name, kept_lines) in [
        ("text", "out.txt", 0),
        ("jsonl", "out.jsonl", 3),
        ("csv", "out.csv", 4),
    ] {
        let out = dir.path().join(name);
        let out = out.to_str().unwrap();
        let run = |extra: &[&str]| {
            let mut args = vec![input, "--check-theoretical", "-o", out, "--threads", "1"];
            args.extend(extra);
            let output = games(&args);
            (output.status.code(), text(&output.stderr))
        };
        let (code, stderr) = run(&[]);
        assert_eq!(code, Some(1), "{format}: {stderr}");
        assert!(
            stderr.contains("checked 4 games: 3 agree, 1 disagree"),
            "{stderr}"
        );
        let full = fs::read_to_string(out).unwrap();
        assert_eq!(
            full.lines().next(),
            Some(match format {
                "jsonl" => r#"{"osolve_games":"--check-theoretical"}"#,
                _ => "# osolve games --check-theoretical",
            }),
            "{format}"
        );
        // The options record, the CSV header and two games (the disagreement among them).
        let kept = match kept_lines {
            0 => full.match_indices("\n\n").nth(1).unwrap().0 + 2,
            n => full.match_indices('\n').nth(n - 1).unwrap().0 + 1,
        };
        fs::write(out, &full[..kept]).unwrap();
        let (code, stderr) = run(&["--resume"]);
        assert_eq!(code, Some(1), "{format}: {stderr}");
        assert!(
            stderr.contains("2 already in the output"),
            "{format}: {stderr}"
        );
        assert!(
            stderr.contains("checked 4 games: 3 agree, 1 disagree"),
            "{format}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("{disagreement} (already in the output)")),
            "{format}: {stderr}"
        );
        assert_eq!(
            fs::read_to_string(out).unwrap().lines().count(),
            full.lines().count(),
            "{format}"
        );

        // Other options: refused with one line, the file left byte for byte.
        let before = fs::read(out).unwrap();
        for (extra, message) in [
            (
                &["--from-end"][..],
                "it was written without --from-end, this run is with --from-end",
            ),
            (
                &["--empties", "20"][..],
                "it was written without --empties, this run is with --empties 20",
            ),
        ] {
            let mut args = vec![input, "-o", out, "--resume"];
            args.extend(extra);
            if extra[0] == "--from-end" {
                args.push("--check-theoretical");
            }
            let output = games(&args);
            assert_eq!(output.status.code(), Some(2), "{format}");
            assert_eq!(
                text(&output.stderr),
                format!(
                    "osolve: cannot resume {out}: {message} (results of other options would \
                     be mixed)\n"
                ),
                "{format}"
            );
            assert_eq!(fs::read(out).unwrap(), before, "{format}");
        }
    }
}

/// The whole of 2021: 320 positions at 24 empties, hours with 2 threads (README.md,
/// `osolve games`, has the measured run).
#[test]
#[ignore]
fn all_320_theoretical_scores_of_2021_agree() {
    let output = games(&[
        &data("WTH_2021.wtb"),
        "--check-theoretical",
        "-o",
        "/dev/null",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("checked 320 games: 320 agree"), "{stderr}");
}

#[test]
fn a_game_is_followed_from_24_empties_in_text() {
    // Game 24 of 2021: white wins 64-0 with perfect play from 24 empties, the players'
    // 12-52 notwithstanding.
    let dir = temp_dir();
    let path = dir.path().join("one.wtb");
    wthor_subset(&path, &[23], None);
    fs::copy(data("WTHOR.JOU"), dir.path().join("WTHOR.JOU")).unwrap();
    let output = games(&[path.to_str().unwrap(), "--empties", "24"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "one.wtb#1: Roldan Matias (black) vs Thierer Sebastian (white)"
            .replace("one.wtb", path.to_str().unwrap())
    );
    assert!(lines[1].ends_with("(60 moves), final 12-52"), "{stdout}");
    assert!(
        lines[2].starts_with("  24 empties  exact 0-64, white to move"),
        "{stdout}"
    );
    assert_eq!(
        lines[3],
        "  theoretical 0-64 at 24 empties (recorded), exact 0-64: agrees"
    );
    // 24 moves from 24 empties (no passes from there), one line each, then a blank line.
    let moves: Vec<&&str> = lines.iter().filter(|l| l.contains("   score ")).collect();
    assert_eq!(moves.len(), 24, "{stdout}");
    assert!(moves[0].starts_with("  37. white "), "{stdout}");
    assert_eq!(lines.last(), Some(&""));
    assert!(
        stderr.contains("read 1 game: 1 analysed, 0 skipped"),
        "{stderr}"
    );
    assert!(
        stderr.contains("from 24 empties: 1 game (0 ended before)"),
        "{stderr}"
    );
    assert!(stderr.contains("checked 1 game: 1 agree"), "{stderr}");
    assert!(stderr.contains("solved 24 positions in "), "{stderr}");
}

fn write_bytes(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn corrupted_files_are_reported_and_the_rest_is_analysed() {
    let dir = temp_dir();
    let sample = fs::read(data("sample.wtb")).unwrap();
    let move_byte = |game: usize, number: usize| HEADER_LEN + (game - 1) * RECORD_LEN + 7 + number;

    let mut bad = sample.clone();
    bad[move_byte(2, 10)] = 99;
    bad[move_byte(3, 1)] = 11;
    bad.truncate(bad.len() - 20);
    let bad = write_bytes(dir.path(), "bad.wtb", &bad);
    let mut count = sample.clone();
    count[4] = 9;
    let count = write_bytes(dir.path(), "count.wtb", &count);
    let ggf = fs::read_to_string(data("sample.ggf")).unwrap();
    let cut_ggf = write_bytes(dir.path(), "cut.ggf", &ggf.as_bytes()[..ggf.len() - 40]);
    let transcripts = write_bytes(
        dir.path(),
        "games.txt",
        b"f5f4c3c6c5d6f3c4c7\nf5 d6 c3 q9\nf5d6\n",
    );
    let short = write_bytes(dir.path(), "short.wtb", b"0123456789");
    let missing = dir.path().join("missing.wtb");
    let files = [
        bad.to_str().unwrap().to_string(),
        count.to_str().unwrap().to_string(),
        cut_ggf.to_str().unwrap().to_string(),
        transcripts.to_str().unwrap().to_string(),
        short.to_str().unwrap().to_string(),
        data("WTHOR.JOU"),
    ];
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    args.extend(["--empties", "4", "--format", "jsonl"]);
    let output = games(&args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let name = |path: &Path| path.to_str().unwrap().to_string();
    let expected = [
        format!("{}: game 2: move 10: expected a square byte 11..88 (row and column digits 1..8) or 0, found 99 (skipped)", name(&bad)),
        format!("{}: game 3: move 1: a1 is not legal: black to move, it flips nothing (skipped)", name(&bad)),
        format!("{}: game 6: the record is cut short: expected 68 bytes, found 48 (skipped)", name(&bad)),
        format!("{}: the header counts 9 games but the file holds 6 records of 68 bytes (skipped)", name(&count)),
        format!("{}:7: game 6: the file ends inside the game: expected ';)' to close it (skipped)", name(&cut_ggf)),
        format!("{}:2: game 2: move 4: expected a square a1..h8 or a pass, found 'q9' (skipped)", name(&transcripts)),
        format!("{}:3: game 3: the moves stop after move 2 with 58 empties, before the game is over (skipped; --from-end solves it from where it stopped)", name(&transcripts)),
        format!("{}: expected a WThor header of 16 bytes, found 10 bytes (skipped)", name(&short)),
        format!("{}: this is a WThor names file (3884 names), not a games file (skipped)", data("WTHOR.JOU")),
    ];
    for line in &expected {
        assert!(stderr.contains(line.as_str()), "missing {line}\n{stderr}");
    }
    // The good games of each file are analysed, in order: 3 + 6 + 5 + 1.
    let records = json_records(&text(&output.stdout));
    let ids: Vec<&str> = records
        .iter()
        .map(|r| r.game.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "bad.wtb#1",
            "bad.wtb#4",
            "bad.wtb#5",
            "count.wtb#1",
            "count.wtb#2",
            "count.wtb#3",
            "count.wtb#4",
            "count.wtb#5",
            "count.wtb#6",
            "cut.ggf#1",
            "cut.ggf#2",
            "cut.ggf#3",
            "cut.ggf#4",
            "cut.ggf#5",
            "games.txt#1"
        ]
    );
    assert!(
        stderr.contains("read 21 games: 15 analysed, 6 skipped"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "problems: 1 bad GGF, 2 bad headers, 1 bad move, 1 bad move byte, 1 illegal move, \
             1 truncated record, 1 unfinished game, 1 wrong header count"
        ),
        "{stderr}"
    );
    // A missing file or a directory among the inputs stops the run before anything is
    // solved, as `analyze` does: one line for each.
    let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
    let (missing, directory) = (name(&missing), name(dir.path()));
    args.extend([missing.as_str(), directory.as_str(), "--empties", "4"]);
    let output = games(&args);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        format!(
            "osolve: cannot read {missing}: No such file or directory (os error 2)\n\
             osolve: cannot read {directory}: it is a directory, expected a games file\n"
        )
    );
}

#[test]
fn a_wthor_file_whose_header_counts_no_game_is_said_to_be_one() {
    let dir = temp_dir();
    // sample.wtb's header with a count of 0, and nothing after it.
    let sample = fs::read(data("sample.wtb")).unwrap();
    let mut header = Header::parse(sample[..HEADER_LEN].try_into().unwrap());
    header.games = 0;
    let zero = write_bytes(dir.path(), "zero.wtb", &header.to_bytes());
    let said = |name: &str| {
        format!(
            "osolve: {name}: no games (the input is a WThor file whose header counts 0 games)\n"
        )
    };
    let (code, stdout, stderr) =
        finished(osolve_in(dir.path()).args(["games", "zero.wtb", "--empties", "10", "-q"]));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, said("zero.wtb"));
    // Read from standard input, it is told apart by its content alone.
    let (code, stdout, stderr) = finished(
        osolve()
            .args(["games", "-", "--check-theoretical", "-q"])
            .write_stdin(fs::read(&zero).unwrap()),
    );
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, said("<stdin>"));
    // So is a file of another name (it was taken for binary data that is no games file).
    fs::copy(&zero, dir.path().join("zero.bin")).unwrap();
    let (code, stdout, stderr) =
        finished(osolve_in(dir.path()).args(["games", "zero.bin", "--empties", "10", "-q"]));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, said("zero.bin"));
    // A text input without a game is still said to be one.
    fs::write(dir.path().join("empty.txt"), "").unwrap();
    let (code, _, stderr) =
        finished(osolve_in(dir.path()).args(["games", "empty.txt", "--empties", "10", "-q"]));
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "osolve: empty.txt: no games (the input is empty or has only blank lines and \
         comments)\n"
    );
}

#[test]
fn arguments_are_checked() {
    let sample = data("sample.wtb");
    let output = games(&[&sample]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("nothing to do: give --empties N"));
    let output = games(&[&sample, "--empties", "61"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "osolve: invalid value '61' for '--empties <N>': expected a number of empty squares from 0 to 60\n"
    );
    let output = games(&[&sample, "--empties", "10", "--resume"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--resume needs the output file"));
}

/// A JSON record without what may differ between runs: which of several best moves the solver
/// names, nodes and time.
fn stable(record: &JsonRecord) -> String {
    format!("{} {}", record.game, results(record))
}

#[test]
fn shards_together_equal_the_whole_run() {
    let files = [data("sample.txt"), data("sample.wtb"), data("sample.ggf")];
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = files.iter().map(String::as_str).collect();
        args.extend(["--empties", "12", "--format", "jsonl", "-q"]);
        args.extend(extra);
        let output = games(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        json_records(&text(&output.stdout))
    };
    let whole = run(&[]);
    assert_eq!(whole.len(), 18);
    let order: HashMap<String, usize> = whole
        .iter()
        .enumerate()
        .map(|(i, r)| (r.game.clone(), i))
        .collect();
    let mut merged = Vec::new();
    for shard in ["1/3", "0/3", "2/3"] {
        let records = run(&["--shard", shard]);
        assert_eq!(records.len(), 6, "{shard}");
        merged.extend(records);
    }
    merged.sort_by_key(|r| order[&r.game]);
    let stable_all = |records: &[JsonRecord]| records.iter().map(stable).collect::<Vec<_>>();
    assert_eq!(stable_all(&merged), stable_all(&whole));
}

#[test]
fn an_interrupted_run_resumed_equals_an_uninterrupted_one() {
    let dir = temp_dir();
    let input = data("WTH_2021.wtb");
    let out = dir.path().join("resumed.jsonl");
    let args = [
        input.as_str(),
        "--empties",
        "16",
        "-o",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ];
    // The record of the options, then three games.
    let (code, stderr) = interrupt_after(spawn("games", &args), &out, 4, "-INT");
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("interrupted: "), "{stderr}");
    assert!(
        stderr.contains("run the same command with --resume"),
        "{stderr}"
    );
    let written = fs::read_to_string(&out).unwrap();
    assert!(written.ends_with('\n'), "a half line");
    let first = json_records(&written).len();
    assert!((3..320).contains(&first), "{first}");

    // A half-written last line (as a kill -9 could leave) is written again.
    let mut bytes = fs::read(&out).unwrap();
    bytes.extend_from_slice(b"{\"game\":\"WTH_2021.wtb#");
    fs::write(&out, bytes).unwrap();
    let resumed: Vec<&str> = args.iter().copied().chain(["--resume"]).collect();
    let output = games(&resumed);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("{first} already in the output")),
        "{stderr}"
    );

    let whole = dir.path().join("whole.jsonl");
    let output = games(&[
        &input,
        "--empties",
        "16",
        "-o",
        whole.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let stable_all = |path: &Path| {
        json_records(&fs::read_to_string(path).unwrap())
            .iter()
            .map(stable)
            .collect::<Vec<_>>()
    };
    assert_eq!(stable_all(&out), stable_all(&whole));
    // The record of the options and 320 games.
    assert_eq!(whole_lines(&whole), 321);
}

#[test]
fn text_and_csv_outputs_resume_after_a_cut_record() {
    let dir = temp_dir();
    let input = data("sample.wtb");
    for (format, name) in [("text", "out.txt"), ("csv", "out.csv")] {
        let whole = dir.path().join(format!("whole-{name}"));
        let run = |out: &Path, extra: &[&str]| {
            let mut args = vec![
                input.as_str(),
                "--empties",
                "10",
                "--format",
                format,
                "-o",
                out.to_str().unwrap(),
                "-q",
                "--threads",
                "1",
            ];
            args.extend(extra);
            let output = games(&args);
            assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        };
        run(&whole, &[]);
        let full = fs::read_to_string(&whole).unwrap();
        let cut = dir.path().join(name);
        fs::write(&cut, &full[..full.len() * 2 / 3]).unwrap();
        run(&cut, &["--resume"]);
        let resumed = fs::read_to_string(&cut).unwrap();
        // Text has no measurements; CSV rows end with nodes and time.
        let strip = |text: &str| -> Vec<String> {
            text.lines()
                .map(|line| match format {
                    "csv" => line.rsplitn(4, ',').last().unwrap().to_string(),
                    _ => line.split(", best ").next().unwrap().to_string(),
                })
                .collect()
        };
        assert_eq!(strip(&resumed), strip(&full), "{format}");
    }
    // An output of another input is refused.
    let other = dir.path().join("other.txt");
    let output = games(&[
        &data("sample.txt"),
        "--empties",
        "10",
        "-o",
        other.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let output = games(&[
        &input,
        "--empties",
        "10",
        "-o",
        other.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("cannot resume: game 1 of"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn binary_data_is_no_wthor_file_for_solve_nor_for_games() {
    // Pseudo-random bytes with a NUL, as long as a WThor file of 100 games could be.
    let dir = std::env::temp_dir().join(format!("osolve-binary-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("random.bin");
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut bytes: Vec<u8> = (0..16 + 100 * 68)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect();
    bytes[100] = 0;
    fs::write(&path, &bytes).unwrap();
    let file = path.to_str().unwrap();
    let (code, _, stderr) = run(&["solve", file]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!("osolve: cannot read {file}: expected a file of positions (UTF-8 text), found binary data\n")
    );
    let (code, _, stderr) = run(&["games", file, "--empties", "10"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(&format!(
            "{file}: expected a games file (WThor, GGF or move transcripts), found binary data that is none of them"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("\nproblems: 1 binary file\n"), "{stderr}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_summary_counts_one_in_the_singular() {
    // The first game of the sample from its last empty: white plays it, perfectly.
    let dir = temp_dir();
    let sample = fs::read_to_string(data("sample.txt")).unwrap();
    let first = sample.lines().find(|l| !l.starts_with('#')).unwrap();
    let path = dir.path().join("one.txt");
    fs::write(&path, format!("{first}\n")).unwrap();
    let output = games(&[path.to_str().unwrap(), "--empties", "1"]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with(
            "read 1 game: 1 analysed, 0 skipped\n\
             from 1 empty: 1 game (0 ended before), 1 played perfectly to the end\n  \
             black: 0 of 0 moves perfect (-), average loss 0.00 per game\n  \
             white: 1 of 1 move perfect (100.0%), average loss 0.00 per game\n\
             solved 1 position in "
        ),
        "{stderr}"
    );
}
