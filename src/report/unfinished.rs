//! Reports of searches stopped by a limit before they proved their result: the proven bounds
//! as people read them (`score >= +2`) and as programs do (`2..64`, JSON `"score":null,
//! "lower":2,"upper":64`), and the `osolve solve` reports of such a position (human, quiet,
//! JSON), with the best estimate found beside them when there is one (labelled with its depth:
//! `estimate (depth 8) +6 with a2`). Never written as an exact score. Strings in, strings out.

use serde::{Deserialize, Serialize};

use super::terms::{best_move_name, move_name};
use super::{diagram, work_text};
use crate::board::{Color, Position};
use crate::drivers::show::Marked;
use crate::notation::{format_board, Source};
use crate::search::{Bounds, Solution, Unfinished};
use crate::units::{milliseconds, per_second};

/// Proven bounds for people: `score +38` when they meet, `score >= +2`, `score <= -4`,
/// `-10 <= score <= -2`, `score unknown`; with WLD the results still possible: `result win`,
/// `result draw or win`, `result loss or draw`, `result unknown`.
pub fn bounds_text(bounds: &Bounds, wld: bool) -> String {
    let (lower, upper) = (bounds.lower, bounds.upper);
    if wld {
        let names = ["loss", "draw", "win"];
        let possible: Vec<&str> = (lower.max(-1)..=upper.min(1))
            .map(|s| names[(s + 1) as usize])
            .collect();
        return match possible.len() {
            3 => "result unknown".to_string(),
            _ => format!("result {}", possible.join(" or ")),
        };
    }
    match (lower, upper) {
        (l, u) if l == u => format!("score {l:+}"),
        (-64, 64) => "score unknown".to_string(),
        (l, 64) => format!("score >= {l:+}"),
        (-64, u) => format!("score <= {u:+}"),
        (l, u) => format!("{l:+} <= score <= {u:+}"),
    }
}

/// What `osolve show` says of a position whose search a limit stopped, without a newline:
/// `in/a.txt:3: unfinished (node limit): score >= +2; 3 moves scored` (the count when the
/// picture marks move scores).
pub fn shown_unfinished(source: &Source, bounds: &Bounds, marked: &Marked) -> String {
    let scored = match marked {
        Marked::Scores(moves) => format!("; {} moves scored", moves.len()),
        Marked::Legal | Marked::Line(_) => String::new(),
    };
    format!(
        "{source}: unfinished ({}): {}{scored}",
        bounds.reason,
        bounds_text(bounds, false)
    )
}

/// Proven bounds for programs: `lower..upper`, such as `2..64` (the CSV `best_score` of an
/// unfinished position).
pub fn range_text(bounds: &Bounds) -> String {
    format!("{}..{}", bounds.lower, bounds.upper)
}

/// A position whose solve stopped before it finished, with what it proved.
#[derive(Clone, Copy, Debug)]
pub struct StoppedSolve<'a> {
    /// The position.
    pub position: &'a Position,
    /// Whether only win/draw/loss was sought.
    pub wld: bool,
    /// Search threads.
    pub threads: usize,
    /// What the search proved.
    pub unfinished: &'a Unfinished,
    /// The best estimate of the score (a depth-limited search's), when one was made.
    pub estimate: Option<&'a Solution>,
}

/// The estimate of a stopped solve as reports write it: its score within the proven bounds
/// (the bounds are proven, the estimate is not), its best move and its depth; `None` when
/// there is none (or it is, wrongly, exact).
fn estimate_of(stopped: &StoppedSolve<'_>) -> Option<(i32, Option<String>, u32)> {
    let estimate = stopped.estimate?;
    let depth = estimate.exactness.estimate_depth()?;
    let bounds = &stopped.unfinished.bounds;
    let score = estimate.score.clamp(bounds.lower, bounds.upper);
    let best = best_move_name(estimate.best_move);
    Some((score, best, depth))
}

/// The result line of a stopped solve, without a newline:
/// `unfinished (time limit): score >= +2  nodes 21.3M  1.00 s  21.3 Mn/s`, with the best
/// estimate after the bounds when there is one (`score >= +2, estimate (depth 8) +6 with a2`;
/// not with WLD, whose bounds are signs); once the score is
/// proven, the proven part of the PV follows it: `unfinished (node limit): score +38  pv a2 b1
/// (incomplete)  nodes ...`.
pub fn stopped_line(stopped: &StoppedSolve<'_>) -> String {
    let unfinished = stopped.unfinished;
    let mut line = format!(
        "unfinished ({}): {}",
        unfinished.bounds.reason,
        bounds_text(&unfinished.bounds, stopped.wld)
    );
    if let (Some((score, best, depth)), false) = (estimate_of(stopped), stopped.wld) {
        line.push_str(&format!(", estimate (depth {depth}) {score:+}"));
        if let Some(best) = best {
            line.push_str(&format!(" with {best}"));
        }
    }
    if !unfinished.pv.is_empty() {
        let pv: Vec<String> = unfinished.pv.iter().map(|&mv| move_name(mv)).collect();
        line.push_str(&format!("  pv {} (incomplete)", pv.join(" ")));
    }
    line.push_str(&work_text(unfinished.nodes, unfinished.time));
    line
}

/// The human report of a stopped solve: the source, the diagram, the result line, an empty line.
pub fn human_stopped(source: &Source, stopped: &StoppedSolve<'_>, unicode: bool) -> String {
    format!(
        "{source}\n{}{}\n\n",
        diagram(stopped.position, unicode),
        stopped_line(stopped)
    )
}

/// The one-line report of a stopped solve (`--quiet`).
pub fn quiet_stopped(source: &Source, stopped: &StoppedSolve<'_>) -> String {
    format!("{source}  {}\n", stopped_line(stopped))
}

/// A stopped solve as `osolve solve --json` writes it: the keys of a solved record, with
/// `score`, `result` and `final_discs` null, plus the proven bounds and why it stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoppedRecord {
    /// Where the position came from.
    pub source: String,
    /// The board string.
    pub position: String,
    /// Empty squares.
    pub empties: u32,
    /// "black" or "white".
    pub side_to_move: Color,
    /// Always null: the score was not proven exactly (see `lower` and `upper`).
    pub score: Option<i32>,
    /// Proven lower bound of the score (with WLD, of its sign).
    pub lower: i32,
    /// Proven upper bound of the score.
    pub upper: i32,
    /// Why the search stopped: "time limit", "node limit" or "interrupted".
    pub unfinished: String,
    /// The best estimate of the score, within the bounds (only when one was made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<i32>,
    /// The depth of the search that made the estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_depth: Option<u32>,
    /// The estimate's best move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_best_move: Option<String>,
    /// Always null.
    pub result: Option<String>,
    /// Whether only win/draw/loss was sought.
    pub wld: bool,
    /// The first move of the proven PV (`--` for a forced pass), `null` when none is proven.
    pub best_move: Option<String>,
    /// The proven beginning of the PV (empty until the score is proven).
    pub pv: Vec<String>,
    /// Always null.
    pub final_discs: Option<()>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time until the stop, in milliseconds.
    pub time_ms: f64,
    /// Nodes per second.
    pub nps: u64,
    /// Search threads.
    pub threads: usize,
}

impl StoppedRecord {
    /// The record of `stopped`, the position found at `source`.
    pub fn new(source: &Source, stopped: &StoppedSolve<'_>) -> StoppedRecord {
        let unfinished = stopped.unfinished;
        let pv: Vec<String> = unfinished.pv.iter().map(|&mv| move_name(mv)).collect();
        let estimate = estimate_of(stopped).filter(|_| !stopped.wld);
        StoppedRecord {
            source: source.to_string(),
            position: format_board(stopped.position),
            empties: stopped.position.board.empties(),
            side_to_move: stopped.position.to_move,
            score: None,
            lower: unfinished.bounds.lower,
            upper: unfinished.bounds.upper,
            unfinished: unfinished.bounds.reason.to_string(),
            estimate: estimate.as_ref().map(|e| e.0),
            estimate_depth: estimate.as_ref().map(|e| e.2),
            estimate_best_move: estimate.and_then(|e| e.1),
            result: None,
            wld: stopped.wld,
            best_move: pv.first().cloned(),
            pv,
            final_discs: None,
            nodes: unfinished.nodes,
            time_ms: milliseconds(unfinished.time),
            nps: per_second(unfinished.nodes, unfinished.time).round() as u64,
            threads: stopped.threads,
        }
    }
}

/// The JSON report of a stopped solve: one [`StoppedRecord`] and a newline.
pub fn json_stopped(source: &Source, stopped: &StoppedSolve<'_>) -> String {
    let mut line = serde_json::to_string(&StoppedRecord::new(source, stopped))
        .expect("a record of strings and numbers always serialises");
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{MoveScore, StopReason};
    use std::time::Duration;

    fn bounds(lower: i32, upper: i32) -> Bounds {
        Bounds {
            reason: StopReason::TimeLimit,
            lower,
            upper,
        }
    }

    #[test]
    fn bounds_read_as_inequalities() {
        let cases = [
            ((2, 64), "score >= +2"),
            ((-64, -4), "score <= -4"),
            ((-10, -2), "-10 <= score <= -2"),
            ((-64, 64), "score unknown"),
            ((0, 0), "score +0"),
        ];
        for ((lower, upper), text) in cases {
            assert_eq!(bounds_text(&bounds(lower, upper), false), text);
        }
        let wld = [
            ((-1, 1), "result unknown"),
            ((0, 1), "result draw or win"),
            ((-1, 0), "result loss or draw"),
            ((1, 1), "result win"),
        ];
        for ((lower, upper), text) in wld {
            assert_eq!(bounds_text(&bounds(lower, upper), true), text);
        }
        assert_eq!(range_text(&bounds(2, 64)), "2..64");
    }

    /// FFO #40, stopped by its time limit with the score proven at least +2.
    fn ffo_40_stopped() -> (Position, Unfinished) {
        let position = crate::notation::parse_position(
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        )
        .unwrap()
        .position;
        let unfinished = Unfinished {
            bounds: bounds(2, 64),
            pv: Vec::new(),
            moves: Vec::<MoveScore>::new(),
            nodes: 2_000_000,
            time: Duration::from_millis(100),
        };
        (position, unfinished)
    }

    #[test]
    fn stopped_solves_report_bounds_never_a_score() {
        let (position, unfinished) = ffo_40_stopped();
        let stopped = StoppedSolve {
            position: &position,
            wld: false,
            threads: 2,
            unfinished: &unfinished,
            estimate: None,
        };
        assert_eq!(
            stopped_line(&stopped),
            "unfinished (time limit): score >= +2  nodes 2.00M  0.10 s  20.0 Mn/s"
        );
        let source = Source::new("ffo-40.obf", 1);
        let line = json_stopped(&source, &stopped);
        assert!(line.contains(
            "\"score\":null,\"lower\":2,\"upper\":64,\"unfinished\":\"time limit\",\"result\":null"
        ));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["best_move"], serde_json::Value::Null);
        assert_eq!(value["final_discs"], serde_json::Value::Null);
        assert_eq!(value["nps"], 20_000_000);
        let proven = Unfinished {
            bounds: bounds(38, 38),
            pv: vec![Some("a2".parse().unwrap()), Some("b1".parse().unwrap())],
            ..unfinished.clone()
        };
        let stopped = StoppedSolve {
            unfinished: &proven,
            ..stopped
        };
        assert_eq!(
            quiet_stopped(&source, &stopped),
            "ffo-40.obf:1  unfinished (time limit): score +38  pv a2 b1 (incomplete)  nodes \
             2.00M  0.10 s  20.0 Mn/s\n"
        );
        let value: serde_json::Value =
            serde_json::from_str(&json_stopped(&source, &stopped)).unwrap();
        assert_eq!(value["best_move"], "a2");
        assert_eq!(value["score"], serde_json::Value::Null);
        let human = human_stopped(&source, &stopped, false);
        assert!(human.starts_with("ffo-40.obf:1\n  a b c d e f g h\n"));
        assert!(human.ends_with("(incomplete)  nodes 2.00M  0.10 s  20.0 Mn/s\n\n"));
    }

    #[test]
    fn a_stopped_solve_gives_its_estimate_beside_the_bounds() {
        let (position, unfinished) = ffo_40_stopped();
        let mut estimate = crate::search::Solution {
            position,
            score: -4,
            exactness: crate::search::Exactness::Estimate { depth: 8 },
            wld: false,
            best_move: crate::search::BestMove::Play("a2".parse().unwrap()),
            pv: vec![Some("a2".parse().unwrap())],
            nodes: 1000,
            time: Duration::ZERO,
            threads: 1,
        };
        let first = StoppedSolve {
            position: &position,
            wld: false,
            threads: 2,
            unfinished: &unfinished,
            estimate: Some(&estimate),
        };
        let stopped = &first;
        // The estimate (-4) is below the proven bound: it is written at the bound.
        assert_eq!(
            stopped_line(stopped),
            "unfinished (time limit): score >= +2, estimate (depth 8) +2 with a2  nodes 2.00M  \
             0.10 s  20.0 Mn/s"
        );
        let value: serde_json::Value =
            serde_json::from_str(&json_stopped(&Source::inline(), stopped)).unwrap();
        assert_eq!(value["score"], serde_json::Value::Null);
        assert_eq!(value["best_move"], serde_json::Value::Null);
        assert_eq!(value["estimate"], 2);
        assert_eq!(value["estimate_depth"], 8);
        assert_eq!(value["estimate_best_move"], "a2");
        // An exact result handed over as the estimate is not written as one.
        estimate.exactness = crate::search::Exactness::Exact;
        let stopped = StoppedSolve {
            position: &position,
            wld: false,
            threads: 2,
            unfinished: &unfinished,
            estimate: Some(&estimate),
        };
        assert!(!stopped_line(&stopped).contains("estimate"));
    }
}
