//! The reports of `osolve solve`, one per solved position: for people, the source, the diagram
//! and a result line (`score +38 (black 51 - white 13)  best a2  pv a2 b1 ...  nodes 21.3M ...`);
//! for programs, one JSON object per line ([`SolveRecord`]). Scores are from the side to move's
//! point of view with empty squares given to the winner; passes are written `--`. Knows nothing
//! of files or terminals: the caller says whether Unicode discs and colour may be drawn. Under
//! rules or scoring other than the standard ones the reports add the rules line, the discs
//! left and the final count of the discs actually on the board with the empty squares left
//! (`score +4 (black 33 - white 29, 2 empty)`).

use serde::{Deserialize, Serialize};

use super::batch::plural;
use super::colour::{self, TermStyle};
use super::picture::{Marks, Picture};
use super::unfinished::{human_stopped, json_stopped, quiet_stopped, StoppedSolve};
use super::{diagram, work_text};
use crate::board::rules::Supplies;
use crate::board::{Color, Position};
use crate::notation::{format_board, Source};
use crate::search::{FinalCount, Solution};

pub use super::terms::{best_move_name, move_name, Outcome, PASS};

/// Disc counts at the end of perfect play: empty squares given to the winner under Othello
/// rules with official scoring; under the other rule sets the discs actually on the board and
/// the squares left empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalDiscs {
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// Empty squares left when the game ended (rule sets other than the standard one only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty: Option<u32>,
}

/// Discs left to each side, as JSON writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscsLeft {
    /// Black's discs left.
    pub black: u8,
    /// White's discs left.
    pub white: u8,
}

/// One solved position, as `osolve solve --json` writes it on one line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveRecord {
    /// Where the position came from: `file:line`, `<position>:1`, `<stdin>:3`.
    pub source: String,
    /// The board string: 64 cells a1..h8 and the side to move (`X` or `O`).
    pub position: String,
    /// "othello" or "reversi"; only under rules or scoring other than the standard ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// "official" or "raw"; only with `rules`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring: Option<String>,
    /// Only with `rules`: the discs left to each side under Reversi rules, `null` under Othello
    /// rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discs_left: Option<Option<DiscsLeft>>,
    /// Empty squares.
    pub empties: u32,
    /// "black" or "white".
    pub side_to_move: Color,
    /// Final disc differential for the side to move under perfect play; with `wld` 1, 0 or -1;
    /// `null` for an estimate (see `estimate`).
    pub score: Option<i32>,
    /// Estimates only (`--depth`): the estimated final disc differential for the side to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<i32>,
    /// Estimates only: the depth of the search that made the estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_depth: Option<u32>,
    /// Win, draw or loss for the side to move; `null` for an estimate.
    pub result: Option<Outcome>,
    /// Whether only win/draw/loss was proven.
    pub wld: bool,
    /// The first move of perfect play (of the estimate's line): a square, `--` for a forced
    /// pass, `null` when the game is over.
    pub best_move: Option<String>,
    /// Perfect play to the end of the game (passes as `--`); with `wld` just the best move (after
    /// the pass when there is one).
    pub pv: Vec<String>,
    /// Disc counts at the end of perfect play; `null` with `wld`.
    pub final_discs: Option<FinalDiscs>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the search in milliseconds.
    pub time_ms: f64,
    /// Nodes per second.
    pub nps: u64,
    /// Search threads (the standard rule set's records only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
}

impl SolveRecord {
    /// The record of `solution`, the position found at `source`. Under rules or scoring other
    /// than the standard ones the rules, the scoring and the discs left are filled in, the final
    /// discs are those on the board with the empty squares left, and no thread count is
    /// written.
    pub fn new(source: &Source, solution: &Solution) -> SolveRecord {
        let position = &solution.position;
        let exact = solution.is_exact();
        let standard = SolveRecord {
            source: source.to_string(),
            position: format_board(position),
            rules: None,
            scoring: None,
            discs_left: None,
            empties: solution.empties(),
            side_to_move: position.to_move,
            score: exact.then_some(solution.score),
            estimate: (!exact).then_some(solution.score),
            estimate_depth: solution.exactness.estimate_depth(),
            result: exact.then(|| Outcome::of(solution.score)),
            wld: solution.wld,
            best_move: best_move_name(solution.best_move),
            pv: solution.pv.iter().map(|&mv| move_name(mv)).collect(),
            final_discs: solution.final_discs().map(|(black, white)| FinalDiscs {
                black,
                white,
                empty: None,
            }),
            nodes: solution.nodes,
            // Microsecond precision is plenty and keeps the line short.
            time_ms: crate::units::milliseconds(solution.time),
            nps: solution.nps().round() as u64,
            threads: Some(solution.threads),
        };
        if position.variant().is_standard() {
            return standard;
        }
        SolveRecord {
            rules: Some(position.rules().name().to_string()),
            scoring: Some(position.scoring().name().to_string()),
            discs_left: Some(discs_left(position).map(|supplies| DiscsLeft {
                black: supplies.black,
                white: supplies.white,
            })),
            final_discs: solution.final_count().map(|count| FinalDiscs {
                black: count.black,
                white: count.white,
                empty: Some(count.empty),
            }),
            threads: None,
            ..standard
        }
    }
}

/// The discs left of a position, when its rules count them.
pub fn discs_left(position: &Position) -> Option<Supplies> {
    position.supplies()
}

/// A final count as text: `black 33 - white 29, 2 empty` (no empty part on a full board).
pub fn final_count_text(count: &FinalCount) -> String {
    let mut text = format!("black {} - white {}", count.black, count.white);
    if count.empty > 0 {
        text.push_str(&format!(", {} empty", count.empty));
    }
    text
}

/// The line naming the rules and the scoring: `reversi rules, raw scoring` (the diagram above
/// it shows the discs left).
pub fn rules_line(position: &Position) -> String {
    format!(
        "{} rules, {} scoring",
        position.rules().name(),
        position.scoring().name()
    )
}

/// The result line of a solution, without a newline:
/// `score +38 (black 51 - white 13)  best a2  pv a2 b1 -- ...  nodes 21.3M  0.84 s  25.4 Mn/s`.
/// With WLD the first part reads `result win (black wins)` / `result draw`; an estimate
/// `estimate (depth 12) +6` (its best move and expected line follow); a finished game shows
/// `game over` instead of a best move and a PV. Under rules or scoring other than the standard
/// ones the score is followed by the final count of the discs on the board
/// (`score +4 (black 33 - white 29, 2 empty)`).
pub fn result_line(solution: &Solution) -> String {
    let count = if solution.position.variant().is_standard() {
        None
    } else {
        solution.final_count()
    };
    let mut line = match (count, solution.final_discs()) {
        // Never written as a score: `estimate (depth 12) +6`.
        _ if !solution.is_exact() => {
            let label = solution.exactness.label().unwrap_or_default();
            format!("{label} {:+}", solution.score)
        }
        (Some(count), _) => format!("score {:+} ({})", solution.score, final_count_text(&count)),
        (None, Some((black, white))) => {
            format!("score {:+} (black {black} - white {white})", solution.score)
        }
        (None, None) => {
            let outcome = Outcome::of(solution.score);
            let mover = solution.position.to_move;
            match outcome {
                Outcome::Win => format!("result win ({} wins)", mover.name()),
                Outcome::Loss => format!("result loss ({} wins)", mover.other().name()),
                Outcome::Draw => "result draw".to_string(),
            }
        }
    };
    match best_move_name(solution.best_move) {
        Some(best) => {
            let pv: Vec<String> = solution.pv.iter().map(|&mv| move_name(mv)).collect();
            line.push_str(&format!("  best {best}  pv {}", pv.join(" ")));
        }
        None => line.push_str("  game over"),
    }
    line.push_str(&work_text(solution.nodes, solution.time));
    line
}

/// The full human report of one position: the source on a line of its own, the diagram (`●` `○`
/// when `style` allows Unicode, else `X` `O`; in colour with the legal moves when it allows
/// colour or the rules are not the standard ones, then followed by the rules line), the result
/// line, then an empty line to separate it from the next report.
pub fn human_report(source: &Source, solution: &Solution, style: TermStyle) -> String {
    let position = &solution.position;
    let standard = position.variant().is_standard();
    if standard && !style.colour {
        return format!(
            "{source}\n{}{}\n\n",
            diagram(position, style.unicode),
            result_line(solution)
        );
    }
    let picture = colour::diagram(&Picture::new(position, Marks::Legal, ""), style);
    let rules = if standard {
        String::new()
    } else {
        format!("{}\n", rules_line(position))
    };
    format!("{source}\n{picture}{rules}{}\n\n", result_line(solution))
}

/// How `osolve solve` writes each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line ([`json_report`]).
    Json,
    /// The result line after the source ([`quiet_report`]).
    Quiet,
    /// The full report for people ([`human_report`]) in this terminal style.
    Human(TermStyle),
}

/// The report of a solved position in `format`.
pub fn solved_report(source: &Source, solution: &Solution, format: Format) -> String {
    match format {
        Format::Json => json_report(source, solution),
        Format::Quiet => quiet_report(source, solution),
        Format::Human(style) => human_report(source, solution, style),
    }
}

/// The report in `format` of a position whose search a limit stopped (see
/// [`super::unfinished`]).
pub fn stopped_report(source: &Source, stopped: &StoppedSolve<'_>, format: Format) -> String {
    match format {
        Format::Json => json_stopped(source, stopped),
        Format::Quiet => quiet_stopped(source, stopped),
        Format::Human(style) => human_stopped(source, stopped, style.unicode),
    }
}

/// The one-line human report (`--quiet`): the source, two spaces, the result line, a newline.
pub fn quiet_report(source: &Source, solution: &Solution) -> String {
    format!("{source}  {}\n", result_line(solution))
}

/// The JSON report (`--json`): one [`SolveRecord`] object and a newline.
pub fn json_report(source: &Source, solution: &Solution) -> String {
    let mut line = serde_json::to_string(&SolveRecord::new(source, solution))
        .expect("a record of strings and numbers always serialises");
    line.push('\n');
    line
}

/// What an interrupted `osolve solve` says last, on standard error: how many positions were
/// solved (and reported) before the stop, `interrupted: 3 positions solved`.
pub fn interrupted_line(solved: usize) -> String {
    format!("interrupted: {solved} position{} solved", plural(solved))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::{Rules, Scoring};
    use crate::board::Square;
    use crate::search::{BestMove, Exactness};
    use std::time::Duration;

    const PLAIN: TermStyle = TermStyle {
        unicode: false,
        colour: false,
    };
    const UNICODE: TermStyle = TermStyle {
        unicode: true,
        colour: false,
    };

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// FFO #40 as the solver reports it (score, best move and PV start as published).
    fn ffo40(wld: bool) -> Solution {
        let position = crate::notation::parse_position(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        )
        .unwrap()
        .position;
        Solution {
            position,
            score: if wld { 1 } else { 38 },
            exactness: Exactness::Exact,
            wld,
            best_move: BestMove::Play(sq("a2")),
            pv: if wld {
                vec![Some(sq("a2"))]
            } else {
                vec![Some(sq("a2")), Some(sq("b1")), None, Some(sq("c1"))]
            },
            nodes: 21_300_000,
            time: Duration::from_millis(840),
            threads: 2,
        }
    }

    #[test]
    fn result_lines() {
        assert_eq!(
            result_line(&ffo40(false)),
            "score +38 (black 51 - white 13)  best a2  pv a2 b1 -- c1  nodes 21.3M  0.84 s  25.4 Mn/s"
        );
        assert_eq!(
            result_line(&ffo40(true)),
            "result win (black wins)  best a2  pv a2  nodes 21.3M  0.84 s  25.4 Mn/s"
        );
        let mut loss = ffo40(true);
        loss.position = loss.position.pass();
        loss.score = -1;
        assert!(result_line(&loss).starts_with("result loss (black wins)  best a2"));
        loss.score = 0;
        assert!(result_line(&loss).starts_with("result draw  best a2"));
    }

    #[test]
    fn finished_games_and_passes() {
        let over = game_over(Position::from_colors(!1, 0, Color::White).unwrap(), -64);
        assert_eq!(
            result_line(&over),
            "score -64 (black 64 - white 0)  game over  nodes 0  0.00 s  0.0 Mn/s"
        );
        let record = SolveRecord::new(&Source::inline(), &over);
        assert_eq!(record.best_move, None);
        assert!(record.pv.is_empty());
        assert_eq!(record.result, Some(Outcome::Loss));
        assert_eq!(best_move_name(BestMove::Pass).as_deref(), Some("--"));
        assert_eq!(move_name(None), "--");
    }

    #[test]
    fn json_has_the_documented_fields() {
        let source = Source::new("positions/ffo-40.obf", 1);
        let line = json_report(&source, &ffo40(false));
        assert!(line.ends_with("}\n") && !line[..line.len() - 1].contains('\n'));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["source"], "positions/ffo-40.obf:1");
        assert_eq!(
            value["position"],
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
        );
        assert_eq!(value["empties"], 20);
        assert_eq!(value["side_to_move"], "black");
        assert_eq!(value["score"], 38);
        assert_eq!(value["result"], "win");
        assert_eq!(value["wld"], false);
        assert_eq!(value["best_move"], "a2");
        assert_eq!(value["pv"], serde_json::json!(["a2", "b1", "--", "c1"]));
        assert_eq!(
            value["final_discs"],
            serde_json::json!({"black": 51, "white": 13})
        );
        assert_eq!(value["nodes"], 21_300_000);
        assert_eq!(value["time_ms"], 840.0);
        assert_eq!(value["nps"], 25_357_143);
        assert_eq!(value["threads"], 2);
        let back: SolveRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(back, SolveRecord::new(&source, &ffo40(false)));

        let wld: serde_json::Value =
            serde_json::from_str(&json_report(&source, &ffo40(true))).unwrap();
        assert_eq!(wld["score"], 1);
        assert_eq!(wld["final_discs"], serde_json::Value::Null);
    }

    #[test]
    fn human_reports() {
        let source = Source::new("positions/ffo-40.obf", 1);
        let text = human_report(&source, &ffo40(false), PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "positions/ffo-40.obf:1");
        assert_eq!(lines[1], "  a b c d e f g h");
        assert_eq!(lines[2], "1 O + + O O O O X");
        assert_eq!(lines[10], "black 12  white 32  empties 20  black to move");
        assert!(lines[11].starts_with("score +38 (black 51 - white 13)  best a2"));
        assert_eq!(lines.len(), 13);
        assert!(text.ends_with("\n\n"));
        assert!(human_report(&source, &ffo40(false), UNICODE).contains("1 ○ + + ○ ○ ○ ○ ●"));
        assert_eq!(
            quiet_report(&source, &ffo40(false)),
            format!("positions/ffo-40.obf:1  {}\n", result_line(&ffo40(false)))
        );
    }

    /// A finished game under raw scoring: black's 33 discs on a1..a5 and white wiped out, 31
    /// squares empty.
    fn finished() -> Solution {
        let black = (1u64 << 33) - 1;
        let position = Position::from_colors(black, 0, Color::Black)
            .unwrap()
            .with_scoring(Scoring::Raw);
        game_over(position, 33)
    }

    /// The exact solution of `position`, a finished game whose score is `score`.
    fn game_over(position: Position, score: i32) -> Solution {
        Solution {
            position,
            score,
            exactness: Exactness::Exact,
            wld: false,
            best_move: BestMove::GameOver,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            threads: 1,
        }
    }

    #[test]
    fn final_counts_show_the_empty_squares() {
        let solution = finished();
        assert!(solution.position.is_over());
        assert_eq!(
            result_line(&solution),
            "score +33 (black 33 - white 0, 31 empty)  game over  nodes 0  0.00 s  0.0 Mn/s"
        );
        let json: serde_json::Value =
            serde_json::from_str(&json_report(&Source::inline(), &solution)).unwrap();
        assert_eq!(
            json["final_discs"],
            serde_json::json!({"black": 33, "white": 0, "empty": 31})
        );
        assert_eq!(json["rules"], "othello");
        assert_eq!(json["scoring"], "raw");
        assert_eq!(json["discs_left"], serde_json::Value::Null);
        assert_eq!(json.get("threads"), None);
        assert_eq!(rules_line(&solution.position), "othello rules, raw scoring");
    }

    #[test]
    fn reversi_reports_the_discs_left() {
        let start = Position::start_of(Rules::Reversi);
        let after = start.play(sq("d4")).unwrap();
        assert_eq!(rules_line(&after), "reversi rules, official scoring");
        assert_eq!(
            discs_left(&after),
            Some(Supplies {
                black: 31,
                white: 32
            })
        );
        assert_eq!(discs_left(&Position::start()), None);
        let mut wld = finished();
        wld.wld = true;
        wld.score = 1;
        wld.best_move = BestMove::Play(sq("a1"));
        wld.pv = vec![Some(sq("a1"))];
        assert!(result_line(&wld).starts_with("result win (black wins)  best a1  pv a1"));
    }

    /// An estimate in every format of `solve`: labelled with its depth, never a score, no
    /// final count, no result.
    #[test]
    fn estimates_are_never_written_as_scores() {
        let mut estimate = ffo40(false);
        estimate.exactness = Exactness::Estimate { depth: 12 };
        estimate.score = 36;
        assert_eq!(
            result_line(&estimate),
            "estimate (depth 12) +36  best a2  pv a2 b1 -- c1  nodes 21.3M  0.84 s  25.4 Mn/s"
        );
        let source = Source::new("positions/ffo-40.obf", 1);
        let human = human_report(&source, &estimate, PLAIN);
        assert!(human.contains("\nestimate (depth 12) +36  best a2"));
        assert!(!human.contains("score"));
        assert!(quiet_report(&source, &estimate)
            .starts_with("positions/ffo-40.obf:1  estimate (depth 12) +36"));
        let value: serde_json::Value =
            serde_json::from_str(&json_report(&source, &estimate)).unwrap();
        assert_eq!(value["score"], serde_json::Value::Null);
        assert_eq!(value["result"], serde_json::Value::Null);
        assert_eq!(value["final_discs"], serde_json::Value::Null);
        assert_eq!(value["estimate"], 36);
        assert_eq!(value["estimate_depth"], 12);
        // An exact record has no estimate fields.
        let exact: serde_json::Value =
            serde_json::from_str(&json_report(&source, &ffo40(false))).unwrap();
        assert_eq!(exact.get("estimate"), None);
        assert_eq!(exact.get("estimate_depth"), None);
    }

    #[test]
    fn an_interrupted_run_counts_the_positions_solved() {
        assert_eq!(interrupted_line(0), "interrupted: 0 positions solved");
        assert_eq!(interrupted_line(1), "interrupted: 1 position solved");
        assert_eq!(interrupted_line(14), "interrupted: 14 positions solved");
    }
}
