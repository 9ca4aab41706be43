//! Output of `osolve bench`: the human table (a header, one row per position, the totals and
//! the verdict) and JSON lines (one object per position, then a summary object). Every function
//! returns a string ending with a newline; nothing here prints or runs a search.

use super::batch::plural;
use super::live::live_subject;
use crate::board::rules::Variant;
use crate::drivers::bench::{BenchReport, Row, Verdict};
use crate::search::BestMove;
use crate::units::format_thousands;
use std::fmt::Write as _;
use std::time::Duration;

/// The lines above the rows: what is run and how (the rules when not Othello's), then the
/// column titles.
#[allow(clippy::too_many_arguments)]
pub fn header(
    suite: &str,
    positions: usize,
    variant: Variant,
    threads: usize,
    hash_mb: usize,
    repeat: usize,
    keep_hash: bool,
) -> String {
    let rules = if variant.is_standard() {
        String::new()
    } else {
        format!(", {variant}")
    };
    let mut text = format!(
        "suite {suite}: {positions} position{}{rules}, {threads} thread{}, hash {hash_mb} MiB, {}",
        plural(positions),
        plural(threads),
        if keep_hash {
            "table kept between positions"
        } else {
            "table cleared before each position"
        },
    );
    if repeat > 1 {
        let _ = write!(text, ", median of {repeat} runs");
    }
    text.push('\n');
    let _ = writeln!(
        text,
        "{:>4} {:>7} {:>8} {:>6} {:>4} {:>15} {:>10} {:>8}",
        "#", "empties", "expected", "found", "best", "nodes", "time (s)", "Mnodes/s"
    );
    text
}

/// One position's line of the table; a wrong score is marked `WRONG` at the end.
pub fn row(row: &Row) -> String {
    let expected = row.expected.map_or_else(|| "?".to_string(), signed);
    let mark = match (row.verdict(), row.unfinished) {
        (Verdict::Wrong, _) if !row.consistent => "  WRONG (repeats disagree)".to_string(),
        (Verdict::Wrong, _) => "  WRONG".to_string(),
        (Verdict::Unfinished, Some(reason)) => format!("  unfinished ({reason})"),
        _ => String::new(),
    };
    let found = match row.unfinished {
        Some(_) => "-".to_string(),
        None => signed(row.score),
    };
    format!(
        "{:>4} {:>7} {:>8} {:>6} {:>4} {:>15} {:>10} {:>8.1}{mark}\n",
        row.number,
        row.empties,
        expected,
        found,
        best_move(row.best_move),
        format_thousands(row.nodes),
        seconds(row.time),
        row.nps() / 1e6,
    )
}

/// The totals and the verdict: `all scores correct` or the wrong positions with both scores.
pub fn summary(report: &BenchReport) -> String {
    let mut text = String::new();
    if report.interrupted {
        let _ = writeln!(
            text,
            "interrupted: {} of {} positions solved",
            report.rows.len(),
            report.suite_len
        );
    }
    let _ = write!(
        text,
        "positions {}  nodes {}  time {} s  {:.1} Mnodes/s",
        report.rows.len(),
        format_thousands(report.total_nodes()),
        seconds(report.total_time()),
        report.nps() / 1e6,
    );
    // Totals of another rule set say so: they are not comparable with Othello's.
    if !report.variant.is_standard() {
        let _ = write!(text, "  ({})", report.variant);
    }
    text.push('\n');
    let wrong = report.wrong();
    // An interrupted run proves nothing about the positions it did not reach: no verdict,
    // only the wrong scores it found.
    if report.interrupted && wrong.is_empty() {
        return text;
    }
    let unfinished = report.unfinished();
    if unfinished > 0 {
        let _ = writeln!(
            text,
            "{unfinished} position{} unfinished: a search reached the limit (no score to check)",
            plural(unfinished)
        );
    }
    if wrong.is_empty() {
        text.push_str(if unfinished > 0 {
            "all finished scores correct"
        } else {
            "all scores correct"
        });
        match report.unchecked() {
            0 => {}
            n => {
                let _ = write!(text, " ({n} without an expected score)");
            }
        }
        text.push('\n');
    } else {
        let list: Vec<String> = wrong
            .iter()
            .map(|r| {
                let expected = r.expected.map_or_else(|| "?".to_string(), signed);
                format!(
                    "#{} expected {expected} found {}",
                    r.number,
                    signed(r.score)
                )
            })
            .collect();
        let _ = writeln!(text, "wrong scores: {}", list.join(", "));
    }
    text
}

/// One position as a JSON object on one line: `type` `"position"`, `number`, `empties`,
/// `expected` (or null), `score` (null when unfinished), `best_move` (`"a2"`, `"pass"`, or null when the game is over),
/// `verdict` (`"correct"`, `"wrong"`, `"unchecked"`, `"unfinished"`), `nodes`, `time_s` (the median),
/// `times_s` (every repeat), `nps`, `source`.
pub fn row_json(row: &Row) -> String {
    let line = RowJson {
        kind: "position",
        number: row.number,
        empties: row.empties,
        expected: row.expected,
        score: row.unfinished.is_none().then_some(row.score),
        best_move: match row.best_move {
            BestMove::Play(sq) => Some(sq.to_string()),
            BestMove::Pass => Some("pass".to_string()),
            BestMove::GameOver => None,
        },
        verdict: verdict_name(row.verdict()),
        nodes: row.nodes,
        time_s: row.time.as_secs_f64(),
        times_s: row.times.iter().map(Duration::as_secs_f64).collect(),
        nps: row.nps(),
        source: row.source.to_string(),
    };
    json_line(&line)
}

/// The summary as a JSON object on one line: `type` `"summary"`, `suite`, `positions`
/// (solved), `suite_positions`, `nodes`, `time_s`, `nps`, `all_correct`, `wrong` (the numbers
/// of the wrong positions), `unchecked`, `unfinished`, `threads`, `hash_mb`, `repeat`, `keep_hash`,
/// `rules` (`"othello"`, `"reversi"`), `scoring` (`"official"`, `"raw"`), `interrupted`.
pub fn summary_json(report: &BenchReport) -> String {
    let line = SummaryJson {
        kind: "summary",
        suite: &report.suite,
        positions: report.rows.len(),
        suite_positions: report.suite_len,
        nodes: report.total_nodes(),
        time_s: report.total_time().as_secs_f64(),
        nps: report.nps(),
        all_correct: report.all_correct(),
        wrong: report.wrong().iter().map(|r| r.number).collect(),
        unchecked: report.unchecked(),
        unfinished: report.unfinished(),
        threads: report.threads,
        hash_mb: report.hash_mb,
        repeat: report.repeat,
        keep_hash: report.keep_hash,
        rules: report.variant.rules.name(),
        scoring: report.variant.scoring.name(),
        interrupted: report.interrupted,
    };
    json_line(&line)
}

/// Field order is the order of the declaration, so every line reads the same way.
#[derive(serde::Serialize)]
struct RowJson {
    #[serde(rename = "type")]
    kind: &'static str,
    number: usize,
    empties: u32,
    expected: Option<i32>,
    score: Option<i32>,
    best_move: Option<String>,
    verdict: &'static str,
    nodes: u64,
    time_s: f64,
    times_s: Vec<f64>,
    nps: f64,
    source: String,
}

#[derive(serde::Serialize)]
struct SummaryJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    suite: &'a str,
    positions: usize,
    suite_positions: usize,
    nodes: u64,
    time_s: f64,
    nps: f64,
    all_correct: bool,
    wrong: Vec<usize>,
    unchecked: usize,
    unfinished: usize,
    threads: usize,
    hash_mb: usize,
    repeat: usize,
    keep_hash: bool,
    rules: &'static str,
    scoring: &'static str,
    interrupted: bool,
}

fn json_line(value: &impl serde::Serialize) -> String {
    let mut line = serde_json::to_string(value).expect("plain structs always serialize");
    line.push('\n');
    line
}

fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Correct => "correct",
        Verdict::Wrong => "wrong",
        Verdict::Unchecked => "unchecked",
        Verdict::Unfinished => "unfinished",
    }
}

/// A score with its sign, as OBF writes it (`+0`, `-12`).
fn signed(score: i32) -> String {
    format!("{score:+}")
}

fn best_move(best: BestMove) -> String {
    match best {
        BestMove::Play(sq) => sq.to_string(),
        BestMove::Pass => "ps".to_string(),
        BestMove::GameOver => "--".to_string(),
    }
}

/// Seconds with three decimals, or four below a tenth of a second.
fn seconds(time: Duration) -> String {
    let s = time.as_secs_f64();
    if s < 0.1 {
        format!("{s:.4}")
    } else {
        format!("{s:.3}")
    }
}

/// The progress bar's message while a position of the suite is solved: its number and empties,
/// and with repeats which run it is: `#45 (24 empties) (run 2/3)` (`run` counts from 0).
pub fn position_message(number: usize, empties: u32, run: usize, repeat: usize) -> String {
    let subject = live_subject(format_args!("#{number}"), empties);
    if repeat > 1 {
        format!("{subject} (run {}/{repeat})", run + 1)
    } else {
        subject
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Source;

    fn sample_row(expected: Option<i32>, score: i32) -> Row {
        Row {
            number: 40,
            empties: 20,
            expected,
            score,
            consistent: true,
            best_move: BestMove::Play("a2".parse().unwrap()),
            nodes: 21_000_788,
            time: Duration::from_millis(800),
            times: vec![Duration::from_millis(800)],
            source: Source::new("ffo40-49", 1),
            unfinished: None,
        }
    }

    fn sample_report(rows: Vec<Row>) -> BenchReport {
        BenchReport {
            suite: "ffo40-49".into(),
            suite_len: 10,
            rows,
            repeat: 1,
            keep_hash: false,
            threads: 1,
            hash_mb: 256,
            variant: Variant::default(),
            interrupted: false,
        }
    }

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(format_thousands(0), "0");
        assert_eq!(format_thousands(999), "999");
        assert_eq!(format_thousands(1000), "1,000");
        assert_eq!(format_thousands(21_000_788), "21,000,788");
        assert_eq!(seconds(Duration::from_millis(800)), "0.800");
        assert_eq!(seconds(Duration::from_micros(1234)), "0.0012");
    }

    #[test]
    fn rows_line_up_with_the_header() {
        let head = header("ffo40-49", 10, Variant::default(), 1, 256, 3, false);
        assert!(head.starts_with(
            "suite ffo40-49: 10 positions, 1 thread, hash 256 MiB, table cleared before each \
             position, median of 3 runs\n"
        ));
        let titles = head.lines().nth(1).unwrap();
        let line = row(&sample_row(Some(38), 38));
        assert_eq!(
            line,
            "  40      20      +38    +38   a2      21,000,788      0.800     26.3\n"
        );
        assert_eq!(line.trim_end().len(), titles.len());
        assert!(row(&sample_row(Some(36), 38)).ends_with("26.3  WRONG\n"));
        assert!(row(&sample_row(None, 38)).contains("       ?    +38"));
    }

    #[test]
    fn summaries_give_the_verdict() {
        let good = sample_report(vec![sample_row(Some(38), 38), sample_row(None, 2)]);
        assert_eq!(
            summary(&good),
            "positions 2  nodes 42,001,576  time 1.600 s  26.3 Mnodes/s\n\
             all scores correct (1 without an expected score)\n"
        );
        let mut bad = sample_report(vec![sample_row(Some(38), 38), sample_row(Some(0), -2)]);
        bad.rows[1].number = 41;
        bad.interrupted = true;
        let text = summary(&bad);
        assert!(
            text.starts_with("interrupted: 2 of 10 positions solved\n"),
            "{text}"
        );
        assert!(
            text.ends_with("wrong scores: #41 expected +0 found -2\n"),
            "{text}"
        );
        let mut cut = good.clone();
        cut.interrupted = true;
        assert_eq!(
            summary(&cut),
            "interrupted: 2 of 10 positions solved\n\
             positions 2  nodes 42,001,576  time 1.600 s  26.3 Mnodes/s\n"
        );
        let mut reversi = good.clone();
        reversi.variant.rules = crate::board::rules::Rules::Reversi;
        assert!(summary(&reversi).starts_with(
            "positions 2  nodes 42,001,576  time 1.600 s  26.3 Mnodes/s  \
             (reversi rules, official scoring)\n"
        ));
        let head = header("f", 2, reversi.variant, 1, 16, 1, false);
        assert!(head.starts_with("suite f: 2 positions, reversi rules, official scoring, 1 thread"));
        let mut limited = good;
        limited.rows[1].unfinished = Some(crate::search::StopReason::TimeLimit);
        assert!(summary(&limited).ends_with(
            "1 position unfinished: a search reached the limit (no score to check)\n\
             all finished scores correct\n"
        ));
    }

    #[test]
    fn json_lines_parse() {
        let r = sample_row(Some(38), 38);
        let v: serde_json::Value = serde_json::from_str(row_json(&r).trim_end()).unwrap();
        assert_eq!(v["type"], "position");
        assert_eq!(v["best_move"], "a2");
        assert_eq!(v["verdict"], "correct");
        assert_eq!(v["nodes"], 21_000_788);
        let s = summary_json(&sample_report(vec![r]));
        assert_eq!(s.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["type"], "summary");
        assert_eq!(v["all_correct"], true);
        assert_eq!(v["wrong"], serde_json::json!([]));
        assert_eq!(
            (&v["rules"], &v["scoring"]),
            (&"othello".into(), &"official".into())
        );
    }

    #[test]
    fn the_bars_message_names_the_position_and_the_run() {
        assert_eq!(position_message(45, 24, 0, 1), "#45 (24 empties)");
        assert_eq!(position_message(45, 24, 1, 3), "#45 (24 empties) (run 2/3)");
    }
}
