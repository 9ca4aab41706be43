//! The formats of `osolve analyze`: an [`Analysis`] as an OBF line (Edax's, so files
//! interoperate), a JSON line or CSV rows; the mismatch lines and verdict of `--check`; the
//! final summary; and, for `--resume`, reading back which positions an output already holds
//! (the progress line and the rest that `osolve games` shares are in [`super::batch`]).
//! Strings in, strings out: it never prints and never touches a file.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::batch::{self, csv_field, csv_fields, fingerprint, plural, RecordStyle, Written};
use super::unfinished::{bounds_text, range_text};
use crate::board::rules::{Rules, Variant};
use crate::board::Square;
pub use crate::drivers::analyze::Recorded;
use crate::drivers::analyze::{Analysis, Checked, Mismatch, Summary};
use crate::notation::{
    format_board, format_obf, format_obf_final, parse_text_with, Parsed, Source,
};
use crate::search::{Exactness, MoveScore, FEASIBLE_EMPTIES};
use crate::units::{format_count, format_mnps, format_seconds, milliseconds};

/// An output format of `osolve analyze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One OBF line per position: `<board>; A2:+38; C7:+36;`.
    Obf,
    /// One JSON object per line and position.
    Jsonl,
    /// A header line, then one row per (position, move).
    Csv,
}

impl Format {
    /// The format an output file's extension names (`.obf`, `.jsonl` / `.json`, `.csv`).
    pub fn from_path(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "obf" => Some(Format::Obf),
            "jsonl" | "json" | "ndjson" => Some(Format::Jsonl),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }

    /// The header written once at the top of a new output, with its newline (CSV only).
    pub fn header(self) -> &'static str {
        match self {
            Format::Csv => CSV_HEADER,
            Format::Obf | Format::Jsonl => "",
        }
    }

    /// How the output's first line records the options that change results (`--best-only
    /// --wld --rules reversi`, see `osolve analyze --help`): a comment in OBF (`% osolve analyze
    /// --wld`, which readers of positions skip) and CSV (`# osolve analyze --wld`), an object
    /// of its own in JSON lines (`{"osolve_analyze":"--wld"}`).
    pub fn options_record(self) -> batch::OptionsRecord {
        batch::OptionsRecord {
            command: "analyze",
            style: self.record_style(),
        }
    }

    fn record_style(self) -> RecordStyle {
        match self {
            Format::Obf => RecordStyle::Comment("%"),
            Format::Csv => RecordStyle::Comment("#"),
            Format::Jsonl => RecordStyle::Json,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Obf => "obf",
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
        })
    }
}

/// The first line of a CSV output.
pub const CSV_HEADER: &str = "source,position,empties,move,score,best_score,nodes,time_ms\n";

/// A move as JSON and CSV write it: `a2`, or `--` for the pass.
pub fn move_name(mv: Option<Square>) -> String {
    mv.map_or_else(|| "--".to_string(), |square| square.to_string())
}

/// The text of one analysed position in `format`: whole lines, each ending with a newline.
pub fn record(format: Format, analysis: &Analysis) -> String {
    match format {
        Format::Obf => obf_line(analysis) + "\n",
        Format::Jsonl => json_line(analysis) + "\n",
        Format::Csv => csv_rows(analysis),
    }
}

/// The OBF line (no newline): `<64 cells> X; A2:+38; C7:+36;`, best first, upper-case squares,
/// signed scores (`+0` for a draw); `PS:-12` for a forced pass; `<64 cells> X; +10;` for a
/// finished game. With WLD the scores are -1, +0 and +1. A position a limit stopped first has
/// the moves proven so far and a comment with its bounds:
/// `<64 cells> X; A2:+38; % unfinished (time limit): score >= +38`. Estimated scores end with
/// the comment `% estimate (depth 12)`.
pub fn obf_line(analysis: &Analysis) -> String {
    if analysis.is_game_over() {
        return format_obf_final(&analysis.position, analysis.best_score);
    }
    let scores: Vec<_> = analysis.moves.iter().map(|m| (m.mv, m.score)).collect();
    let mut line = format_obf(&analysis.position, &scores);
    if let Some(bounds) = &analysis.unfinished {
        // Scores of the line are numbers (signs with WLD): so are the bounds.
        let text = bounds_text(bounds, false);
        line.push_str(&format!(" % unfinished ({}): {text}", bounds.reason));
    }
    // The comment the readers of positions take for scores that are not exact (the line read
    // back is never checked against).
    if let Some(label) = analysis.exactness.label() {
        line.push_str(&format!(" % {label}"));
    }
    line
}

/// One move of a JSON record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonMove {
    /// `a2`, or `--` for the pass.
    #[serde(rename = "move")]
    pub mv: String,
    /// Score for the side to move after it.
    pub score: i32,
}

/// A JSON line of `osolve analyze`, field by field (it also reads one back).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonRecord {
    /// `file:line`.
    pub source: String,
    /// The board string, `<64 cells> X`.
    pub position: String,
    /// Empty squares.
    pub empties: u32,
    /// Scored moves, best first.
    pub moves: Vec<JsonMove>,
    /// The best score (a finished game's final score); `null` when unfinished or estimated.
    pub best_score: Option<i32>,
    /// Estimates only (`--depth`): the best estimated score (the moves' scores are estimates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<i32>,
    /// Estimates only: the depth of the search that made them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_depth: Option<u32>,
    /// Unfinished positions only: the proven lower bound of the best score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower: Option<i32>,
    /// Unfinished positions only: the proven upper bound of the best score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper: Option<i32>,
    /// Unfinished positions only: why the search stopped ("time limit", "node limit").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<String>,
    /// The moves reaching it, in square order.
    pub best_moves: Vec<String>,
    /// Positions searched.
    pub nodes: u64,
    /// Milliseconds spent, to the microsecond.
    pub time_ms: f64,
}

/// The JSON line (no newline): `{"source":"file:line","position":"...","empties":22,
/// "moves":[{"move":"a2","score":38},...],"best_score":38,"best_moves":["a2"],"nodes":123,
/// "time_ms":4.5}`; estimates have `"best_score":null,"estimate":36,"estimate_depth":12`.
pub fn json_line(analysis: &Analysis) -> String {
    let exact = analysis.exactness == Exactness::Exact;
    let record = JsonRecord {
        source: analysis.source.to_string(),
        position: format_board(&analysis.position),
        empties: analysis.position.board.empties(),
        moves: analysis
            .moves
            .iter()
            .map(|m| JsonMove {
                mv: move_name(m.mv),
                score: m.score,
            })
            .collect(),
        best_score: (analysis.unfinished.is_none() && exact).then_some(analysis.best_score),
        estimate: (!exact).then_some(analysis.best_score),
        estimate_depth: analysis.exactness.estimate_depth(),
        lower: analysis.unfinished.map(|b| b.lower),
        upper: analysis.unfinished.map(|b| b.upper),
        unfinished: analysis.unfinished.map(|b| b.reason.to_string()),
        best_moves: analysis
            .best_moves
            .iter()
            .map(|&mv| move_name(mv))
            .collect(),
        nodes: analysis.nodes,
        time_ms: milliseconds(analysis.time),
    };
    serde_json::to_string(&record).expect("a record of strings and numbers serializes")
}

/// The CSV rows of a position, each with its newline: one per scored move, best first, with
/// the position's best score, nodes and time repeated; a finished game has one row with the
/// move and score left empty. A position a limit stopped first has a row per move proven so
/// far (or one row with the move and score empty) and its best score's proven range
/// (`2..64`) as best score. Estimated scores have the best score labelled: `estimate (depth
/// 12) 36`.
pub fn csv_rows(analysis: &Analysis) -> String {
    let lead = format!(
        "{},{},{}",
        csv_field(&analysis.source.to_string()),
        format_board(&analysis.position),
        analysis.position.board.empties()
    );
    // An unfinished position's best score is its proven range, such as `2..64`; an estimate's
    // is labelled, `estimate (depth 12) 36`, never a bare number.
    let best = match (analysis.unfinished, analysis.exactness.label()) {
        (Some(bounds), _) => range_text(&bounds),
        (None, Some(label)) => format!("{label} {}", analysis.best_score),
        (None, None) => analysis.best_score.to_string(),
    };
    let tail = format!("{best},{},{}", analysis.nodes, milliseconds(analysis.time));
    if analysis.moves.is_empty() {
        return format!("{lead},,,{tail}\n");
    }
    analysis
        .moves
        .iter()
        .map(|m| format!("{lead},{},{},{tail}\n", move_name(m.mv), m.score))
        .collect()
}

/// A mismatch found by `--check`, without a newline:
/// `ffo.obf:3: B2: expected +4, found +0`, `...: best score: expected ...`, or
/// `...: A1: expected +2, found no such legal move`.
pub fn mismatch_line(analysis: &Analysis, mismatch: &Mismatch) -> String {
    mismatch_text(&analysis.source, mismatch)
}

/// [`mismatch_line`] of the position from `source`.
pub fn mismatch_text(source: &crate::notation::Source, mismatch: &Mismatch) -> String {
    let what = match mismatch.what {
        Checked::Move(mv) => mv.map_or_else(|| "PS".to_string(), Square::upper),
        Checked::Best => "best score".to_string(),
    };
    let found = mismatch.found.map_or_else(
        || "no such legal move".to_string(),
        |score| format!("{score:+}"),
    );
    format!(
        "{}: {what}: expected {:+}, found {found}",
        source, mismatch.expected
    )
}

/// The verdict of `--check`: `checked 20 positions: 20 correct, 0 wrong`.
pub fn check_verdict(summary: &Summary) -> String {
    format!(
        "checked {} position{}: {} correct, {} wrong",
        summary.checked,
        plural(summary.checked),
        summary.correct,
        summary.wrong
    )
}

/// The end-of-run summary, one line each, every line with its newline: positions, moves scored,
/// nodes, time and speed; then, when they apply, resumed positions, skipped lines, refused and
/// unfinished positions and the check verdict.
pub fn summary(summary: &Summary, check: bool) -> String {
    let mut text = format!(
        "analysed {} position{}, {} move{} scored, {} nodes in {} ({})\n",
        summary.positions,
        plural(summary.positions),
        summary.moves,
        plural(summary.moves),
        format_count(summary.nodes),
        format_seconds(summary.time.as_secs_f64()),
        format_mnps(summary.nps()),
    );
    if summary.resumed > 0 {
        text.push_str(&format!(
            "resumed after {} position{} already in the output\n",
            summary.resumed,
            plural(summary.resumed)
        ));
    }
    if summary.bad_lines > 0 {
        let what = if summary.stopped_at_bad_line {
            "stopped at a bad line (--strict)".to_string()
        } else {
            format!(
                "skipped {} bad line{}",
                summary.bad_lines,
                plural(summary.bad_lines)
            )
        };
        text.push_str(&what);
        text.push('\n');
    }
    if summary.refused > 0 {
        text.push_str(&format!(
            "refused {} position{} with more than {FEASIBLE_EMPTIES} empties (an exact analysis \
             would not finish)\n",
            summary.refused,
            plural(summary.refused)
        ));
    }
    if summary.estimated > 0 {
        text.push_str(&format!(
            "{} position{} estimated by a depth-limited search (labelled estimates, not checked)\n",
            summary.estimated,
            plural(summary.estimated)
        ));
    }
    if summary.unfinished > 0 {
        text.push_str(&format!(
            "{} position{} unfinished: a limit stopped the search (bounds reported, not checked)\n",
            summary.unfinished,
            plural(summary.unfinished)
        ));
    }
    if check {
        text.push_str(&check_verdict(summary));
        text.push('\n');
        if summary.unchecked > 0 {
            text.push_str(&format!(
                "{} position{} carried no expected score\n",
                summary.unchecked,
                plural(summary.unchecked)
            ));
        }
    }
    text
}

/// How a resumed output that is not of the input names the input's position where they part:
/// its source and board, `in.obf:3: <board> <side>`.
pub fn input_item(parsed: &Parsed) -> String {
    format!("{}: {}", parsed.source, format_board(&parsed.position))
}

/// Reads back, as a stream, the positions an output in `format` already holds, written under
/// Othello rules (see [`written_from`]). A last line without its newline is not counted (it
/// was cut short); with CSV, whose positions take several rows, the last position is counted
/// only when its rows show it whole (see [`last_rows_whole`]). An error says which line is not
/// a record of this format, or what could not be read.
pub fn written(format: Format, reader: impl BufRead) -> Result<Written, String> {
    written_from(format, reader, 1, Rules::Othello, None)
}

/// The rows of a CSV position read back so far: its board string, the squares of its moves
/// and whether one row was a pass or had no move.
#[derive(Default)]
struct Rows {
    position: String,
    squares: u64,
    count: usize,
    single: bool,
}

/// Whether the rows of the last CSV position of an output, under `rules`, are all the rows it
/// was written with, so that it need not be analysed again. Its rows cannot say how many they
/// were, but they always are some of the position's legal moves, so they are whole when they
/// are all of them (every mode but `--best-only` and a limit's unfinished positions writes all
/// of them), or when they are one row that stands alone: the pass, or no move at all (a
/// finished game, an unfinished position with no move proven). Otherwise the position may
/// have been cut short and is analysed again.
fn last_rows_whole(rows: &Rows, rules: Rules) -> bool {
    if rows.single {
        return rows.count == 1;
    }
    let variant = Variant {
        rules,
        ..Variant::default()
    };
    // Under Reversi rules the discs left are not written: those the board implies leave the
    // side to move its moves (a side without discs left passes, a row that stands alone).
    match parse_text_with(&rows.position, Source::inline(), variant) {
        Ok(parsed) => {
            let moves = parsed.position.moves();
            moves != 0 && rows.squares == moves && rows.count == moves.count_ones() as usize
        }
        Err(_) => false,
    }
}

/// The move of a JSON or CSV record: `a2`, or `--` for the pass.
fn read_move(text: &str) -> Option<Option<Square>> {
    if text == "--" {
        Some(None)
    } else {
        text.parse().ok().map(Some)
    }
}

/// The scores of an OBF record line.
fn recorded_obf(line: &str) -> Option<Recorded> {
    let parsed = crate::notation::parse_text(line, crate::notation::Source::inline()).ok()?;
    let moves: Vec<MoveScore> = parsed
        .expected
        .iter()
        .map(|&(mv, score)| MoveScore { mv, score })
        .collect();
    let unfinished = line.contains("% unfinished");
    let best_score = moves.iter().map(|m| m.score).max().or(parsed.final_score);
    Some(Recorded {
        estimate: parsed.search_depth.is_some(),
        moves,
        best_score: if unfinished {
            best_score.unwrap_or(0)
        } else {
            best_score?
        },
        unfinished,
    })
}

/// [`written`] of an output whose first line read is line `first_line` (the lines before it
/// held the [`Format::options_record`]), written under `rules` (the moves of a CSV position
/// depend on them); with `scores`, also the [`Recorded`] scores of every whole record, in
/// order.
pub fn written_from(
    format: Format,
    mut reader: impl BufRead,
    first_line: usize,
    rules: Rules,
    mut scores: Option<&mut Vec<Recorded>>,
) -> Result<Written, String> {
    let mut keys = Vec::new();
    let mut offset = 0u64;
    let mut keep = 0u64;
    let mut has_header = format.header().is_empty();
    // CSV: the key (source and position) of the last group of rows, and its rows.
    let mut group: Option<String> = None;
    let mut rows = Rows::default();
    // The bytes of the whole lines read.
    let mut whole_lines = 0u64;
    let mut line = Vec::new();
    for number in first_line.. {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read line {number}: {e}"))?;
        let start = offset;
        offset += read as u64;
        if line.pop() != Some(b'\n') {
            break;
        }
        whole_lines = offset;
        let text =
            std::str::from_utf8(&line).map_err(|_| format!("line {number} is not UTF-8 text"))?;
        let not_a_record = || format!("line {number} is not an analysis record in {format}");
        match format {
            Format::Obf => {
                let board = text
                    .get(..66)
                    .filter(|_| text[66..].starts_with(';'))
                    .ok_or_else(not_a_record)?;
                keys.push(fingerprint(board));
                keep = offset;
                if let Some(scores) = scores.as_deref_mut() {
                    scores.push(recorded_obf(text).ok_or_else(not_a_record)?);
                }
            }
            Format::Jsonl => {
                let record: JsonRecord =
                    serde_json::from_str(text).map_err(|e| format!("{}: {e}", not_a_record()))?;
                keys.push(fingerprint(&record.position));
                keep = offset;
                if let Some(scores) = scores.as_deref_mut() {
                    let moves = record
                        .moves
                        .iter()
                        .map(|m| read_move(&m.mv).map(|mv| MoveScore { mv, score: m.score }))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(not_a_record)?;
                    scores.push(Recorded {
                        best_score: record
                            .best_score
                            .or(record.lower)
                            .or(record.estimate)
                            .unwrap_or(0),
                        unfinished: record.best_score.is_none() && record.estimate.is_none(),
                        estimate: record.estimate_depth.is_some(),
                        moves,
                    });
                }
            }
            Format::Csv if number == first_line => {
                if text != CSV_HEADER.trim_end() {
                    return Err(format!(
                        "line {number} is not the CSV header {:?}",
                        CSV_HEADER.trim_end()
                    ));
                }
                has_header = true;
                keep = offset;
            }
            Format::Csv => {
                let fields = csv_fields(text)
                    .filter(|f| f.len() == 8)
                    .ok_or_else(not_a_record)?;
                let key = format!("{}\n{}", fields[0], fields[1]);
                if group.as_ref() != Some(&key) {
                    // A new position: the one before it is whole.
                    if group.is_some() {
                        keep = start;
                    }
                    keys.push(fingerprint(&fields[1]));
                    group = Some(key);
                    rows = Rows {
                        position: fields[1].clone(),
                        ..Rows::default()
                    };
                    if let Some(scores) = scores.as_deref_mut() {
                        let estimate = fields[5].strip_prefix("estimate (depth ");
                        let estimated = estimate
                            .and_then(|t| t.split_once(") "))
                            .and_then(|(_, score)| score.parse().ok());
                        let best: Option<i32> = fields[5].parse().ok();
                        let lower = fields[5].split("..").next().and_then(|t| t.parse().ok());
                        scores.push(Recorded {
                            moves: Vec::new(),
                            best_score: best.or(lower).or(estimated).ok_or_else(not_a_record)?,
                            unfinished: best.is_none() && estimated.is_none(),
                            estimate: estimate.is_some(),
                        });
                    }
                }
                rows.count += 1;
                match read_move(&fields[3]) {
                    Some(Some(square)) => rows.squares |= square.bit(),
                    _ => rows.single = true,
                }
                if let (Some(scores), false) = (scores.as_deref_mut(), fields[3].is_empty()) {
                    let mv = read_move(&fields[3]).ok_or_else(not_a_record)?;
                    let score = fields[4].parse().map_err(|_| not_a_record())?;
                    let last = scores.last_mut().expect("pushed with the group");
                    last.moves.push(MoveScore { mv, score });
                }
            }
        }
    }
    if format == Format::Csv && group.is_some() {
        if last_rows_whole(&rows, rules) {
            // Every row of the last position was read: the whole lines are kept.
            keep = whole_lines;
        } else {
            // The last position may be cut short: it is not counted, and written again.
            keys.pop();
            if let Some(scores) = scores {
                scores.pop();
            }
        }
    }
    Ok(Written {
        keys,
        keep,
        has_header,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::notation::{parse_position, Source};
    use crate::search::MoveScore;
    use std::time::Duration;

    fn sq(name: &str) -> Option<Square> {
        Some(name.parse().unwrap())
    }

    fn analysis(position: Position, moves: &[(Option<Square>, i32)]) -> Analysis {
        let moves: Vec<MoveScore> = moves
            .iter()
            .map(|&(mv, score)| MoveScore { mv, score })
            .collect();
        let best_score = moves.first().map_or(0, |m| m.score);
        let mut best_moves: Vec<_> = moves
            .iter()
            .filter(|m| m.score == best_score)
            .map(|m| m.mv)
            .collect();
        best_moves.sort();
        Analysis {
            index: 0,
            source: Source::new("in, \"odd\".obf", 7),
            position,
            moves,
            best_score,
            best_moves,
            nodes: 123,
            time: Duration::from_micros(4500),
            check: None,
            unfinished: None,
            exactness: Exactness::Exact,
        }
    }

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn the_three_formats() {
        let a = analysis(
            Position::start(),
            &[(sq("d3"), 0), (sq("c4"), 0), (sq("f5"), 0), (sq("e6"), 0)],
        );
        assert_eq!(
            obf_line(&a),
            format!("{START}; D3:+0; C4:+0; F5:+0; E6:+0;")
        );
        assert_eq!(
            json_line(&a),
            format!(
                "{{\"source\":\"in, \\\"odd\\\".obf:7\",\"position\":\"{START}\",\"empties\":60,\
                 \"moves\":[{{\"move\":\"d3\",\"score\":0}},{{\"move\":\"c4\",\"score\":0}},\
                 {{\"move\":\"f5\",\"score\":0}},{{\"move\":\"e6\",\"score\":0}}],\"best_score\":0,\
                 \"best_moves\":[\"d3\",\"c4\",\"f5\",\"e6\"],\"nodes\":123,\"time_ms\":4.5}}"
            )
        );
        let rows = csv_rows(&a);
        assert_eq!(rows.lines().count(), 4);
        let first = rows.lines().next().unwrap();
        assert_eq!(
            first,
            format!("\"in, \"\"odd\"\".obf:7\",{START},60,d3,0,0,123,4.5")
        );
        let fields = csv_fields(first).unwrap();
        assert_eq!(fields[0], "in, \"odd\".obf:7");
        assert_eq!(fields.len(), CSV_HEADER.split(',').count());
    }

    #[test]
    fn unfinished_positions_carry_bounds_not_a_score() {
        let mut a = analysis(Position::start(), &[(sq("d3"), 0)]);
        a.best_moves.clear();
        a.unfinished = Some(crate::search::Bounds {
            reason: crate::search::StopReason::NodeLimit,
            lower: 0,
            upper: 64,
        });
        assert_eq!(
            obf_line(&a),
            format!("{START}; D3:+0; % unfinished (node limit): score >= +0")
        );
        let json = json_line(&a);
        assert!(
            json.contains(
                "\"best_score\":null,\"lower\":0,\"upper\":64,\"unfinished\":\"node limit\",\
                 \"best_moves\":[]"
            ),
            "{json}"
        );
        assert!(csv_rows(&a).ends_with(",60,d3,0,0..64,123,4.5\n"));
        a.moves.clear();
        assert!(csv_rows(&a).ends_with(",60,,,0..64,123,4.5\n"));
        // The resumed output still knows the position, and the line parses back as input.
        let written = written(Format::Obf, format!("{}\n", obf_line(&a)).as_bytes()).unwrap();
        assert_eq!(written.keys, [fingerprint(START)]);
        let parsed = parse_position(&obf_line(&a)).unwrap();
        assert_eq!(parsed.position, Position::start());
    }

    #[test]
    fn passes_and_finished_games() {
        let pass = Position::from_colors(0b011, 0b100, crate::board::Color::White).unwrap();
        let a = analysis(pass, &[(None, -12)]);
        assert!(obf_line(&a).ends_with(" O; PS:-12;"));
        assert!(json_line(&a).contains("\"moves\":[{\"move\":\"--\",\"score\":-12}]"));
        let over = Position::from_colors(!1, 0, crate::board::Color::White).unwrap();
        let mut a = analysis(over, &[]);
        a.best_score = -64;
        assert!(obf_line(&a).ends_with(" O; -64;"));
        assert!(csv_rows(&a).ends_with(",1,,,-64,123,4.5\n"));
        assert!(json_line(&a).contains("\"moves\":[],\"best_score\":-64,\"best_moves\":[]"));
    }

    #[test]
    fn mismatches_and_summary() {
        let a = analysis(Position::start(), &[(sq("c4"), 0)]);
        let m = Mismatch {
            what: Checked::Move(sq("b2")),
            expected: 4,
            found: None,
        };
        assert_eq!(
            mismatch_line(&a, &m),
            "in, \"odd\".obf:7: B2: expected +4, found no such legal move"
        );
        let m = Mismatch {
            what: Checked::Best,
            expected: 2,
            found: Some(0),
        };
        assert_eq!(
            mismatch_line(&a, &m),
            "in, \"odd\".obf:7: best score: expected +2, found +0"
        );
        let s = Summary {
            positions: 20,
            checked: 20,
            correct: 19,
            wrong: 1,
            moves: 150,
            ..Summary::default()
        };
        assert!(summary(&s, true).ends_with("checked 20 positions: 19 correct, 1 wrong\n"));
    }

    #[test]
    fn written_outputs_read_back() {
        let a = analysis(Position::start(), &[(sq("d3"), 0), (sq("c4"), 0)]);
        let mut b = a.clone();
        b.position = parse_position("f5").unwrap().position;
        b.source.line = 8;
        for format in [Format::Obf, Format::Jsonl, Format::Csv] {
            let whole = format!(
                "{}{}{}",
                format.header(),
                record(format, &a),
                record(format, &b)
            );
            let cut = &whole[..whole.len() - 5];
            let w = written(format, cut.as_bytes()).unwrap();
            assert_eq!(w.keys, [fingerprint(START)], "{format}");
            let first = (format.header().len() + record(format, &a).len()) as u64;
            assert_eq!(w.keep, first, "{format}");
            assert!(w.has_header);
            let w = written(format, whole.as_bytes()).unwrap();
            if format == Format::Csv {
                assert_eq!((w.keys.len(), w.keep), (1, first));
            } else {
                assert_eq!((w.keys.len(), w.keep), (2, whole.len() as u64));
            }
        }
        assert!(written(Format::Obf, &b"hello\n"[..])
            .unwrap_err()
            .contains("line 1"));
        assert!(written(Format::Csv, &b"a,b\n"[..]).is_err());
        let empty = written(Format::Csv, &b""[..]).unwrap();
        assert_eq!((empty.keep, empty.has_header), (0, false));
    }

    #[test]
    fn the_last_csv_position_counts_when_its_rows_are_all_its_moves() {
        let scored = |position: Position, moves: &[&str]| {
            let moves: Vec<_> = moves.iter().map(|m| (sq(m), 0)).collect();
            csv_rows(&analysis(position, &moves))
        };
        let start = scored(Position::start(), &["c4", "d3", "e6", "f5"]);
        let f5 = parse_position("f5").unwrap().position;
        // After f5, white's moves are d6, f4 and f6.
        let read = |last: &str, rules: Rules| {
            let text = format!("{CSV_HEADER}{start}{last}");
            let mut scores = Vec::new();
            let w =
                written_from(Format::Csv, text.as_bytes(), 1, rules, Some(&mut scores)).unwrap();
            assert_eq!(scores.len(), w.keys.len());
            let first = (CSV_HEADER.len() + start.len()) as u64;
            match w.keys.len() {
                2 => assert_eq!(w.keep, text.rfind('\n').unwrap() as u64 + 1, "{last}"),
                1 => assert_eq!(w.keep, first, "{last}"),
                n => panic!("{n} positions read back from {text}"),
            }
            w.keys.len()
        };
        let all = scored(f5, &["d6", "f4", "f6"]);
        assert_eq!(read(&all, Rules::Othello), 2, "every move: whole");
        let cut = all
            .lines()
            .take(2)
            .map(|row| format!("{row}\n"))
            .collect::<String>();
        assert_eq!(
            read(&cut, Rules::Othello),
            1,
            "a row short: cut, written again"
        );
        // One best move of three (--best-only) or the moves a limit let finish cannot be told
        // from a cut position: written again.
        assert_eq!(read(&scored(f5, &["d6"]), Rules::Othello), 1);
        // One row stands alone: the pass, and a finished game (no move).
        let pass = Position::from_colors(0b011, 0b100, crate::board::Color::White).unwrap();
        assert_eq!(
            read(&csv_rows(&analysis(pass, &[(None, -12)])), Rules::Othello),
            2
        );
        let over = Position::from_colors(!1, 0, crate::board::Color::White).unwrap();
        assert_eq!(read(&csv_rows(&analysis(over, &[])), Rules::Othello), 2);
        // The moves are those of the rules written under: Reversi's first four on the centre.
        let reversi = Position::start_of(Rules::Reversi);
        let centre = scored(reversi, &["d4", "e4", "d5", "e5"]);
        assert_eq!(read(&centre, Rules::Reversi), 2);
        assert_eq!(read(&centre, Rules::Othello), 1);
        // A row past the last whole line is not read: the position before it is whole.
        assert_eq!(read(&format!("{all}in.obf:9,--"), Rules::Othello), 2);
    }

    #[test]
    fn a_resumed_outputs_input_item_is_its_source_and_board() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
        let parsed = crate::notation::parse_text(line, Source::new("in.obf", 3)).unwrap();
        assert_eq!(
            input_item(&parsed),
            "in.obf:3: --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
        );
    }
}
