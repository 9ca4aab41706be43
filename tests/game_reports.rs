//! The reports of `osolve games` made to be looked at or tabulated: `--svg DIR` (one picture per
//! game: black's exact score after every move from N empties, each losing move marked) parsed
//! as XML, and `--players FILE` (statistics per player, CSV or JSON) read back, with the values
//! of the sample database solved from 18 empties.

use std::fs;
use std::path::Path;

mod common;
use common::{run, temp_dir};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games/sample.wtb");

/// What a game picture holds, from its parsed XML.
#[derive(Debug)]
struct Chart {
    title: String,
    /// (moves played, black's score) of every `point`.
    points: Vec<(usize, i32)>,
    /// (move number, colour, square, loss) of every `loss` ring.
    losses: Vec<(usize, String, String, i32)>,
    labels: Vec<String>,
}

fn chart(path: &Path) -> Chart {
    let text = fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("viewBox"), Some("0 0 800 490"));
    let mut chart = Chart {
        title: String::new(),
        points: Vec::new(),
        losses: Vec::new(),
        labels: Vec::new(),
    };
    for node in document.descendants().filter(|n| n.is_element()) {
        let number = |name: &str| node.attribute(name).unwrap().parse::<i64>().unwrap();
        match node.attribute("class") {
            Some("title") => chart.title = node.text().unwrap().to_string(),
            Some("point") => chart
                .points
                .push((number("data-move") as usize, number("data-score") as i32)),
            Some(class) if class.starts_with("loss ") => chart.losses.push((
                number("data-move") as usize,
                class["loss ".len()..].to_string(),
                node.attribute("data-square").unwrap().to_string(),
                number("data-loss") as i32,
            )),
            Some("loss-label") => chart.labels.push(node.text().unwrap().to_string()),
            _ => {}
        }
    }
    chart
}

#[test]
fn each_game_is_drawn_with_its_exact_scores_and_losses() {
    let dir = temp_dir();
    let svg = dir.path().join("pictures");
    let out = dir.path().join("games.txt");
    let (code, _, stderr) = run(&[
        "games",
        SAMPLE,
        "--empties",
        "18",
        "--svg",
        svg.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let mut names: Vec<String> = fs::read_dir(&svg)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (1..=6).map(|k| format!("game-0{k}.svg")).collect();
    assert_eq!(names, expected);

    // Game 1 (the README's example): 18 empties after move 42, black -12 (26-38); white's
    // 48. g2 loses 8 (black -4), black's 53. h1 loses 4 (black -8, the final 28-36).
    let first = chart(&svg.join("game-01.svg"));
    assert_eq!(
        first.title,
        "William Joanna (black) vs Hughes Scott (white), final 28-36"
    );
    let mut expected = vec![(42, -12)];
    expected.extend((43..=47).map(|n| (n, -12)));
    expected.extend((48..=52).map(|n| (n, -4)));
    expected.extend((53..=60).map(|n| (n, -8)));
    assert_eq!(first.points, expected);
    assert_eq!(
        first.losses,
        vec![
            (48, "white".to_string(), "g2".to_string(), 8),
            (53, "black".to_string(), "h1".to_string(), 4)
        ]
    );
    assert_eq!(first.labels, ["48. g2 −8", "53. h1 −4"]);

    // Every picture agrees with the text report: one point per position from 18 empties, one
    // ring per move the report says loses discs, with that loss.
    let report = fs::read_to_string(&out).unwrap();
    // The output file starts with the record of its options (for --resume).
    let report = report
        .strip_prefix("# osolve games --empties 18\n")
        .unwrap_or_else(|| panic!("{report}"));
    let blocks: Vec<&str> = report
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    assert_eq!(blocks.len(), 6);
    for (k, block) in blocks.iter().enumerate() {
        let picture = chart(&svg.join(format!("game-0{}.svg", k + 1)));
        let moves: Vec<&str> = block
            .lines()
            .filter(|l| l.contains(". black ") || l.contains(". white "))
            .collect();
        assert_eq!(picture.points.len(), moves.len() + 1, "game {}", k + 1);
        let losing: Vec<i32> = moves
            .iter()
            .filter_map(|l| l.split(", loses ").nth(1))
            .map(|rest| rest.split(',').next().unwrap().parse().unwrap())
            .collect();
        let drawn: Vec<i32> = picture.losses.iter().map(|l| l.3).collect();
        assert_eq!(drawn, losing, "game {}", k + 1);
        // The last point is the game's final result, black's view.
        let last = block.lines().nth(1).unwrap();
        let final_score = last.rsplit("final ").next().unwrap();
        let (black, white) = final_score.split_once('-').unwrap();
        let black: i32 = black.trim().parse().unwrap();
        let white: i32 = white.trim().parse().unwrap();
        assert_eq!(
            picture.points.last().unwrap().1,
            black - white,
            "game {}",
            k + 1
        );
    }
}

/// The rows of a players CSV file, by player name.
fn csv_rows(path: &Path) -> Vec<csv::StringRecord> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    assert_eq!(&header[0], "player");
    assert_eq!(header.len(), 18);
    reader.records().map(Result::unwrap).collect()
}

#[test]
fn player_statistics_count_every_judged_move_by_colour() {
    let dir = temp_dir();
    let csv_path = dir.path().join("players.csv");
    let json_path = dir.path().join("players.json");
    for path in [&csv_path, &json_path] {
        let (code, _, stderr) = run(&[
            "games",
            SAMPLE,
            "--empties",
            "18",
            "--players",
            path.to_str().unwrap(),
            "-o",
            dir.path().join("out.jsonl").to_str().unwrap(),
            "-q",
        ]);
        assert_eq!(code, 0, "{stderr}");
    }
    let rows = csv_rows(&csv_path);
    // 12 players in 6 games, Perez Rafael in two of them.
    assert_eq!(rows.len(), 11);
    let perez = rows.iter().find(|r| &r[0] == "Perez Rafael").unwrap();
    let fields: Vec<&str> = perez.iter().collect();
    assert_eq!(
        fields,
        [
            "Perez Rafael",
            "2",
            "23",
            "19",
            "0.8261",
            "20",
            "0.8696",
            "10.0000",
            "1",
            "12",
            "0.7500",
            "1.5000",
            "18.0000",
            "1",
            "11",
            "0.9091",
            "0.1818",
            "2.0000"
        ]
    );
    // A player who only had black has empty white averages.
    let bi = rows.iter().find(|r| &r[0] == "Bi Wenyuan").unwrap();
    assert_eq!((&bi[1], &bi[2], &bi[5]), ("1", "7", "12"));
    assert_eq!((&bi[13], &bi[14], &bi[15]), ("0", "0", ""));
    // Sorted by average loss per move, the best first; ties by moves judged.
    let averages: Vec<f64> = rows.iter().map(|r| r[6].parse().unwrap()).collect();
    assert!(averages.windows(2).all(|w| w[0] <= w[1]), "{averages:?}");
    assert_eq!(&rows[0][0], "Juigner Arthur");
    assert_eq!(&rows[10][0], "Chiesa Nicolas");
    // The totals are the totals of the moves of the games output.
    let moves: usize = rows.iter().map(|r| r[2].parse::<usize>().unwrap()).sum();
    assert_eq!(moves, 100);

    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json_path).unwrap()).unwrap();
    let players = json.as_array().unwrap();
    assert_eq!(players.len(), 11);
    let perez = players
        .iter()
        .find(|p| p["player"] == "Perez Rafael")
        .unwrap();
    assert_eq!(perez["games"], 2);
    assert_eq!(perez["moves"], 23);
    assert_eq!(perez["perfect"], 19);
    assert_eq!(perez["loss"], 20);
    assert_eq!(perez["loss_per_game"], 10.0);
    assert_eq!(perez["black"]["loss_per_move"], 1.5);
    assert_eq!(perez["white"]["perfect_rate"], 0.9091);
    let bi = players
        .iter()
        .find(|p| p["player"] == "Bi Wenyuan")
        .unwrap();
    assert!(bi["white"]["loss_per_move"].is_null());
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    let csv_names: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(names, csv_names);
}

#[test]
fn bad_report_options_are_refused_before_anything_runs() {
    let dir = temp_dir();
    let out = dir.path().join("out.jsonl");
    let txt = dir.path().join("players.txt");
    let (code, _, stderr) = run(&[
        "games",
        SAMPLE,
        "--empties",
        "18",
        "--players",
        txt.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!(
            "osolve: --players {}: name a .csv or a .json file (the extension says the format)\n",
            txt.display()
        )
    );
    assert!(!txt.exists());
    let players = dir.path().join("players.csv");
    fs::write(&out, "").unwrap();
    let (code, _, stderr) = run(&[
        "games",
        SAMPLE,
        "--empties",
        "18",
        "--players",
        players.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--players counts the games solved in one run"),
        "{stderr}"
    );
    let both = dir.path().join("both.csv");
    let (code, _, stderr) = run(&[
        "games",
        SAMPLE,
        "--empties",
        "18",
        "--players",
        both.to_str().unwrap(),
        "-o",
        both.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("it is also the output (-o)"), "{stderr}");
    // Pictures and statistics judge moves: they need --empties.
    let (code, _, stderr) = run(&["games", SAMPLE, "--check-theoretical", "--svg", "x"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--empties"), "{stderr}");
}

/// Game 1 of the sample (William Joanna vs Hughes Scott) cut after move 45, with 15 empties
/// left and white to move, as if black had resigned; a whole game after it.
const CUT: &str =
    "f5d6c4g5c6c5d7d3b4c3e3b5f6f3c2a4d2b6b3e2a3c7g6f4c8a2e6c1a6d8e8e7f8g4f7h6d1e1g3f2h4h5h3h2g1\n\
f5f4c3c6c5d6f3c4c7\n";

#[test]
fn games_that_end_early_are_named_and_solved_from_where_they_stopped_when_asked() {
    let dir = temp_dir();
    let games = dir.path().join("cut.txt");
    fs::write(&games, CUT).unwrap();
    let games = games.to_str().unwrap();
    // Without --from-end: skipped, and the message says how to keep it.
    let (code, stdout, stderr) = run(&["games", games, "--empties", "18"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{games}:1: game 1: the moves stop after move 45 with 15 empties, before the game is \
         over (skipped; --from-end solves it from where it stopped)"
        )),
        "{stderr}"
    );
    assert!(!stdout.contains("#1:"), "{stdout}");

    // From 18 empties: moves 43-45 are judged (all perfect: black -12 throughout, as in the
    // whole game), and the last position is solved where the game stopped.
    let (code, stdout, stderr) = run(&["games", games, "--empties", "18", "--from-end"]);
    assert_eq!(code, 0, "{stderr}");
    let block = stdout.split("\n\n").next().unwrap();
    let lines: Vec<&str> = block.lines().collect();
    assert!(
        lines[1].contains("(45 moves), ended early with 15 empties at "),
        "{block}"
    );
    assert_eq!(
        lines[2],
        "  18 empties  exact 26-38, black to move, best g1"
    );
    assert_eq!(lines[3], "  loss      black 0, white 0; every move perfect");
    assert_eq!(
        &lines[4..],
        [
            "  43. black h3   score -12",
            "  44. white h2   score +12",
            "  45. black g1   score -12"
        ]
    );
    assert!(
        stderr.contains(&format!(
            "1 game ended early, solved from where it stopped: {games}#1\n"
        )),
        "{stderr}"
    );

    // From 10 empties, which the game never reached: solved from its 15 empties.
    let (code, stdout, stderr) = run(&[
        "games",
        games,
        "--empties",
        "10",
        "--from-end",
        "--format",
        "jsonl",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let first: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["ended_early"]["moves"], 45);
    assert_eq!(first["ended_early"]["empties"], 15);
    assert_eq!(first["exact"]["score"], 12, "white to move: +12 for white");
    assert_eq!(first["exact"]["discs"]["black"], 26);
    assert_eq!(first["exact"]["discs"]["white"], 38);
    assert_eq!(first["played"].as_array().unwrap().len(), 0);
    let (black, white) = (
        first["final"]["black"].as_u64().unwrap(),
        first["final"]["white"].as_u64().unwrap(),
    );
    assert_eq!(black + white, 49, "the discs on the board where it stopped");
    let second: serde_json::Value = serde_json::from_str(stdout.lines().nth(1).unwrap()).unwrap();
    assert!(second.get("ended_early").is_none());

    // CSV: the last column holds the empties where the game stopped.
    let (code, stdout, _) = run(&[
        "games",
        games,
        "--empties",
        "10",
        "--from-end",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0);
    let mut reader = csv::Reader::from_reader(stdout.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().next_back(),
        Some("ended_early")
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!((&rows[0][6], &rows[0][7]), ("26", "38"));
    assert_eq!(rows[0].iter().next_back(), Some("15"));
    assert_eq!(rows[1].iter().next_back(), Some(""));
}
