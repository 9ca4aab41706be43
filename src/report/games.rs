//! The formats of `osolve games`: a [`GameAnalysis`] as a block of text for people, a JSON
//! line or a CSV row; the theoretical-score disagreements and verdict of
//! `--check-theoretical`; the end-of-run summary; and, for `--resume`, reading back which games
//! an output already holds. Strings in, strings out: it never prints and never touches a file.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::batch::{self, csv_field, csv_fields, fingerprint, plural, RecordStyle, Written};
use super::terms;
use crate::board::{Color, Square};
use crate::games::analysis::{GameAnalysis, GameUnfinished, GamesSummary, MoveReport, Theoretical};
use crate::games::{discs, Game};
use crate::notation::format_board;
use crate::units::{
    decimals_for, format_count, format_mnps, format_seconds, format_thousands, milliseconds,
};

/// An output format of `osolve games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A block of lines per game, for people.
    Text,
    /// One JSON object per line and game.
    Jsonl,
    /// A header line, then one row per game.
    Csv,
}

impl Format {
    /// The format an output file's extension names (`.txt`, `.jsonl` / `.json`, `.csv`).
    pub fn from_path(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "txt" | "text" => Some(Format::Text),
            "jsonl" | "json" | "ndjson" => Some(Format::Jsonl),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }

    /// The header written once at the top of a new output, with its newline (CSV only).
    pub fn header(self) -> &'static str {
        match self {
            Format::Csv => CSV_HEADER,
            Format::Text | Format::Jsonl => "",
        }
    }

    /// How the output's first line records the options that change results (`--empties 18
    /// --check-theoretical --from-end`, see `osolve games --help`): a comment in text and CSV
    /// (`# osolve games --empties 18`), an object of its own in JSON lines
    /// (`{"osolve_games":"--empties 18"}`).
    pub fn options_record(self) -> batch::OptionsRecord {
        batch::OptionsRecord {
            command: "games",
            style: self.record_style(),
        }
    }

    fn record_style(self) -> RecordStyle {
        match self {
            Format::Text | Format::Csv => RecordStyle::Comment("#"),
            Format::Jsonl => RecordStyle::Json,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Text => "text",
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
        })
    }
}

/// The first line of a CSV output.
pub const CSV_HEADER: &str = "game,black,white,tournament,moves,empties,exact_black,exact_white,\
final_black,final_white,theoretical_depth,theoretical_recorded,theoretical_exact,agree,\
first_mistake_number,first_mistake_color,first_mistake_move,first_mistake_loss,loss_black,\
loss_white,solved,nodes,time_ms,unfinished,ended_early\n";

/// Disc counts as a game result: `35-29` (black first).
pub fn score_text((black, white): (u32, u32)) -> String {
    format!("{black}-{white}")
}

/// The text of one analysed game in `format`: whole lines, each ending with a newline.
pub fn record(format: Format, analysis: &GameAnalysis) -> String {
    match format {
        Format::Text => text_block(analysis),
        Format::Jsonl => json_line(analysis) + "\n",
        Format::Csv => csv_row(analysis),
    }
}

/// The key a resumed output is matched against its input by: the game and its moves.
pub fn key(format: Format, game: &Game) -> String {
    match format {
        Format::Text => text_heading(game),
        Format::Jsonl | Format::Csv => format!("{} {}", game.id, game.transcript()),
    }
}

/// How a resumed output that is not of the input names the input's game where they part: its
/// name and moves, `g.txt#1: f5f4c3...`.
pub fn input_item(game: &Game) -> String {
    format!("{}: {}", game.id, game.transcript())
}

/// The first two lines of a game's text block (with their newlines): the game with its
/// players and tournament, then its moves and final result.
fn text_heading(game: &Game) -> String {
    let mut first = game.id.to_string();
    let player = |name: &Option<String>, color: Color| {
        format!("{} ({})", name.as_deref().unwrap_or("?"), color.name())
    };
    if game.black.is_some() || game.white.is_some() {
        first.push_str(&format!(
            ": {} vs {}",
            player(&game.black, Color::Black),
            player(&game.white, Color::White)
        ));
    }
    if let Some(tournament) = &game.tournament {
        first.push_str(&format!(", {tournament}"));
    }
    let mut second = if game.ended_early() {
        format!(
            "  game      {} ({} moves), ended early with {} empties at {} (the moves stop before the game is over)",
            game.transcript(),
            game.moves.len(),
            game.end.board.empties(),
            score_text(game.final_discs())
        )
    } else {
        format!(
            "  game      {} ({} moves), final {}",
            game.transcript(),
            game.moves.len(),
            score_text(game.final_discs())
        )
    };
    if let Some(recorded) = game.recorded {
        if recorded.final_black != game.final_discs().0 {
            second.push_str(&format!(
                " (the file records {})",
                score_text((recorded.final_black, 64 - recorded.final_black))
            ));
        }
    }
    format!("{first}\n{second}\n")
}

/// A game's block of text, ended by a blank line:
///
/// ```text
/// WTH_2021.wtb#1: Tastet Marc (black) vs Penloup Dominique (white), Open de Paris
///   game      f5d6c3... (60 moves), final 28-36
///   24 empties  exact 29-35, black to move, best d1
///   theoretical 29-35 at 24 empties (recorded), exact 29-35: agrees
///   loss      black 2, white 0; first non-perfect move 39. g7 (black) loses 2, best f1
///   37. black d1   score -6
///   39. black g7   score -6, loses 2, best f1
/// ```
pub fn text_block(analysis: &GameAnalysis) -> String {
    let game = &analysis.game;
    let mut text = text_heading(game);
    if let Some(unfinished) = &analysis.unfinished {
        text.push_str(&format!("  {}\n", unfinished_text(unfinished)));
    } else if let Some(n) = analysis.empties {
        match &analysis.exact {
            Some(solution) => {
                let position = &solution.position;
                let side = if position.board.is_game_over() {
                    "game over".to_string()
                } else {
                    format!("{} to move", position.to_move.name())
                };
                let best = solution
                    .pv
                    .first()
                    .map(|m| format!(", best {}", move_name(*m)))
                    .unwrap_or_default();
                let empties = position.board.empties();
                let from = if empties == n {
                    format!("{n} empties  exact")
                } else {
                    format!(
                        "{n} empties  not reached: the game ended early with {empties} empties; \
                         from there exact"
                    )
                };
                text.push_str(&format!(
                    "  {from} {}, {side}{best}\n",
                    score_text(discs(position, solution.score))
                ));
            }
            None => text.push_str(&format!(
                "  {n} empties  not reached: the game ended with {} empties\n",
                game.end.board.empties()
            )),
        }
    }
    if let Some(recorded) = game.recorded {
        let theoretical = score_text((recorded.theoretical_black, 64 - recorded.theoretical_black));
        let verdict = match &analysis.theoretical {
            Some(t) => format!(
                ", exact {}{}: {}",
                score_text((t.exact, 64 - t.exact)),
                solved_elsewhere(t)
                    .map(|place| format!(" {place}"))
                    .unwrap_or_default(),
                agreement(t)
            ),
            None => String::new(),
        };
        text.push_str(&format!(
            "  theoretical {theoretical} at {} empties (recorded){verdict}\n",
            recorded.depth
        ));
    }
    if analysis.exact.is_some() {
        let first = match analysis.first_mistake() {
            Some(m) => format!(
                "first non-perfect move {}. {} ({}) loses {}{}",
                m.number,
                m.square,
                m.color.name(),
                m.loss,
                m.best.map(|b| format!(", best {b}")).unwrap_or_default()
            ),
            None if analysis.moves.is_empty() => "no moves".to_string(),
            None => "every move perfect".to_string(),
        };
        text.push_str(&format!(
            "  loss      black {}, white {}; {first}\n",
            analysis.loss(Color::Black),
            analysis.loss(Color::White)
        ));
        for m in &analysis.moves {
            text.push_str(&move_line(m));
        }
    }
    text.push('\n');
    text
}

fn agreement(theoretical: &Theoretical) -> &'static str {
    if theoretical.agrees() {
        "agrees"
    } else {
        "DISAGREES"
    }
}

/// One scored move as a text line: `  39. black g7   score -6, loses 2, best f1`.
fn move_line(m: &MoveReport) -> String {
    let mut line = format!(
        "  {:>2}. {} {}   score {:+}",
        m.number,
        m.color.name(),
        m.square,
        m.score
    );
    if m.loss > 0 {
        line.push_str(&format!(", loses {}", m.loss));
        if let Some(best) = m.best {
            line.push_str(&format!(", best {best}"));
        }
    }
    line.push('\n');
    line
}

/// A move as JSON and CSV write it: `a2`, or `--` for a pass.
fn move_name(mv: Option<Square>) -> String {
    mv.map_or_else(|| "--".to_string(), |square| square.to_string())
}

/// Disc counts in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonDiscs {
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
}

impl From<(u32, u32)> for JsonDiscs {
    fn from((black, white): (u32, u32)) -> JsonDiscs {
        JsonDiscs { black, white }
    }
}

/// What an unfinished game's record says: `unfinished: the node limit was reached at 40 empties`.
fn unfinished_text(unfinished: &GameUnfinished) -> String {
    format!(
        "unfinished: the {} was reached at {} empties",
        unfinished.reason, unfinished.empties
    )
}

/// The exact result at N empties in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonExact {
    /// The position, as a board string.
    pub position: String,
    /// Final discs under perfect play.
    pub discs: JsonDiscs,
    /// The score for the side to move.
    pub score: i32,
    /// Perfect play to the end (`--` for a pass).
    pub pv: Vec<String>,
}

/// The theoretical-score check in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonTheoretical {
    /// The database's depth: the empties its theoretical score is for.
    pub depth: u32,
    /// What the database records.
    pub recorded: JsonDiscs,
    /// What perfect play gives; `null` when not solved.
    pub exact: Option<JsonDiscs>,
    /// Whether they agree; `null` when not solved.
    pub agree: Option<bool>,
    /// The position solved, as a board string: the one at `depth` empties, or where a game
    /// that stopped before it stopped (`--from-end`); `null` when the game was over before
    /// `depth` (its final score is the exact one).
    pub position: Option<String>,
}

/// One scored move in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonMove {
    /// 1-based move number.
    pub number: usize,
    /// `black` or `white`.
    pub color: Color,
    /// The square played.
    #[serde(rename = "move")]
    pub mv: String,
    /// Empties before it.
    pub empties: u32,
    /// Exact score before it, for its player.
    pub score: i32,
    /// A best move.
    pub best: Option<String>,
    /// Its loss (0 = perfect).
    pub loss: i32,
}

/// The loss of each side in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonLoss {
    /// Black's total loss.
    pub black: i32,
    /// White's total loss.
    pub white: i32,
}

/// A JSON line of `osolve games`, field by field (it also reads one back).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonRecord {
    /// `file#number`.
    pub game: String,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// The tournament.
    pub tournament: Option<String>,
    /// The moves as a transcript.
    pub moves: String,
    /// The final result of the game as played.
    #[serde(rename = "final")]
    pub final_discs: JsonDiscs,
    /// The final result the file records (WThor).
    pub recorded_final: Option<JsonDiscs>,
    /// The empties asked for.
    pub empties: Option<u32>,
    /// The exact result there; `null` when not asked or not reached.
    pub exact: Option<JsonExact>,
    /// The theoretical score of the file (WThor).
    pub theoretical: Option<JsonTheoretical>,
    /// The first move that was not perfect.
    pub first_mistake: Option<JsonMove>,
    /// Total loss per side from N empties.
    pub loss: Option<JsonLoss>,
    /// Every move from N empties, scored.
    pub played: Vec<JsonMove>,
    /// Positions solved.
    pub solved: usize,
    /// Positions searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: f64,
    /// Why a search stopped at a limit (`node limit at 40 empties`); absent when finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<String>,
    /// Where a game whose moves stop before it is over stopped (`--from-end`); absent for a
    /// game played to its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_early: Option<JsonEndedEarly>,
}

/// Where a game that ended early stopped, in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonEndedEarly {
    /// Moves played.
    pub moves: usize,
    /// Empties left.
    pub empties: u32,
}

fn json_move(m: &MoveReport) -> JsonMove {
    JsonMove {
        number: m.number,
        color: m.color,
        mv: m.square.to_string(),
        empties: m.empties,
        score: m.score,
        best: m.best.map(|b| b.to_string()),
        loss: m.loss,
    }
}

/// The JSON line of a game (no newline).
pub fn json_line(analysis: &GameAnalysis) -> String {
    let game = &analysis.game;
    let theoretical = game.recorded.map(|recorded| {
        let solved = analysis.theoretical;
        JsonTheoretical {
            depth: recorded.depth,
            recorded: (recorded.theoretical_black, 64 - recorded.theoretical_black).into(),
            exact: solved.map(|t| (t.exact, 64 - t.exact).into()),
            agree: solved.map(|t| t.agrees()),
            position: solved.and_then(|t| t.position).map(|p| format_board(&p)),
        }
    });
    let record = JsonRecord {
        game: game.id.to_string(),
        black: game.black.clone(),
        white: game.white.clone(),
        tournament: game.tournament.clone(),
        moves: game.transcript(),
        final_discs: game.final_discs().into(),
        recorded_final: game
            .recorded
            .map(|r| (r.final_black, 64 - r.final_black).into()),
        empties: analysis.empties,
        exact: analysis.exact.as_ref().map(|s| JsonExact {
            position: format_board(&s.position),
            discs: discs(&s.position, s.score).into(),
            score: s.score,
            pv: s.pv.iter().map(|&m| move_name(m)).collect(),
        }),
        theoretical,
        first_mistake: analysis.first_mistake().map(json_move),
        loss: analysis.exact.as_ref().map(|_| JsonLoss {
            black: analysis.loss(Color::Black),
            white: analysis.loss(Color::White),
        }),
        played: analysis.moves.iter().map(json_move).collect(),
        solved: analysis.solved,
        nodes: analysis.nodes,
        time_ms: milliseconds(analysis.time),
        unfinished: analysis
            .unfinished
            .map(|u| format!("{} at {} empties", u.reason, u.empties)),
        ended_early: game.ended_early().then(|| JsonEndedEarly {
            moves: game.moves.len(),
            empties: game.end.board.empties(),
        }),
    };
    serde_json::to_string(&record).expect("a record of strings and numbers serializes")
}

/// The CSV row of a game, with its newline (columns as in [`CSV_HEADER`]; empty when unknown).
pub fn csv_row(analysis: &GameAnalysis) -> String {
    let game = &analysis.game;
    let text = |value: &Option<String>| csv_field(value.as_deref().unwrap_or(""));
    let number = |value: Option<u32>| value.map(|v| v.to_string()).unwrap_or_default();
    let exact = analysis.exact_discs();
    let (final_black, final_white) = game.final_discs();
    let theoretical = analysis.theoretical;
    let mistake = analysis.first_mistake();
    let reached = analysis.exact.is_some();
    let fields = [
        csv_field(&game.id.to_string()),
        text(&game.black),
        text(&game.white),
        text(&game.tournament),
        game.transcript(),
        number(analysis.empties),
        number(exact.map(|e| e.0)),
        number(exact.map(|e| e.1)),
        final_black.to_string(),
        final_white.to_string(),
        number(game.recorded.map(|r| r.depth)),
        number(game.recorded.map(|r| r.theoretical_black)),
        number(theoretical.map(|t| t.exact)),
        theoretical
            .map(|t| t.agrees().to_string())
            .unwrap_or_default(),
        mistake.map(|m| m.number.to_string()).unwrap_or_default(),
        mistake
            .map(|m| m.color.name().to_string())
            .unwrap_or_default(),
        mistake.map(|m| m.square.to_string()).unwrap_or_default(),
        mistake.map(|m| m.loss.to_string()).unwrap_or_default(),
        if reached {
            analysis.loss(Color::Black).to_string()
        } else {
            String::new()
        },
        if reached {
            analysis.loss(Color::White).to_string()
        } else {
            String::new()
        },
        analysis.solved.to_string(),
        analysis.nodes.to_string(),
        milliseconds(analysis.time).to_string(),
        analysis
            .unfinished
            .map(|u| format!("{} at {} empties", u.reason, u.empties))
            .unwrap_or_default(),
        if game.ended_early() {
            game.end.board.empties().to_string()
        } else {
            String::new()
        },
    ];
    fields.join(",") + "\n"
}

/// A disagreement with the database, without a newline:
/// `WTH_2021.wtb#7: theoretical score 33-31 recorded, exact 35-29 at 24 empties: <board> X`.
pub fn disagreement_line(game: &str, theoretical: &Theoretical) -> String {
    let at = match (&theoretical.position, solved_elsewhere(theoretical)) {
        (Some(position), place) => format!(
            "at {} empties{}: {}",
            position.board.empties(),
            place.map(|place| format!(" ({place})")).unwrap_or_default(),
            format_board(position)
        ),
        (None, place) => format!("({})", place.unwrap_or_default()),
    };
    format!(
        "{game}: theoretical score {} recorded, exact {} {at}",
        score_text((theoretical.recorded, 64 - theoretical.recorded)),
        score_text((theoretical.exact, 64 - theoretical.exact)),
    )
}

/// Where the exact score of a theoretical check was found when that is not at the database's
/// depth: the game stopped before it (`--from-end`: `from where the game stopped, before 24
/// empties`), or it was over before it (`the game ended before 24 empties: its final score`).
fn solved_elsewhere(theoretical: &Theoretical) -> Option<String> {
    match &theoretical.position {
        Some(position) if position.board.empties() == theoretical.depth => None,
        Some(_) => Some(format!(
            "from where the game stopped, before {} empties",
            theoretical.depth
        )),
        None => Some(format!(
            "the game ended before {} empties: its final score",
            theoretical.depth
        )),
    }
}

/// The verdict of `--check-theoretical`: `checked 320 games: 320 agree` (and how many
/// disagree).
pub fn check_verdict(summary: &GamesSummary) -> String {
    let disagree = summary.disagreements.len();
    let mut line = format!(
        "checked {} game{}: {} agree",
        thousands(summary.checked),
        plural(summary.checked),
        thousands(summary.checked - disagree)
    );
    if disagree > 0 {
        line.push_str(&format!(", {} disagree", thousands(disagree)));
    }
    line
}

/// A count of things with thousands separators.
fn thousands(count: usize) -> String {
    format_thousands(count as u64)
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// The end-of-run summary, every line with its newline: games read, skipped (by reason) and
/// analysed; from N empties the perfect-play rate and the average loss of each side; with
/// `--check-theoretical` the verdict and every disagreement; the positions solved per second.
pub fn summary(summary: &GamesSummary, empties: Option<u32>, check: bool) -> String {
    let games = summary.read + summary.bad_games + summary.refused;
    let mut text = format!(
        "read {} game{}: {} analysed, {} skipped",
        thousands(games),
        plural(games),
        thousands(summary.analysed),
        thousands(summary.bad_games),
    );
    if summary.refused > 0 {
        text.push_str(&format!(", {} refused", thousands(summary.refused)));
    }
    if summary.resumed > 0 {
        text.push_str(&format!(
            ", {} already in the output",
            thousands(summary.resumed)
        ));
    }
    let elsewhere = summary.read - summary.analysed - summary.resumed;
    if elsewhere > 0 && !summary.interrupted {
        text.push_str(&format!(", {} in other shards", thousands(elsewhere)));
    }
    text.push('\n');
    if !summary.skipped.is_empty() {
        let reasons: Vec<String> = summary
            .skipped
            .iter()
            .map(|(reason, count)| format!("{count} {reason}{}", plural(*count)))
            .collect();
        text.push_str(&format!("problems: {}\n", reasons.join(", ")));
    }
    if let Some(n) = empties {
        let not_reached = summary.analysed - summary.reached;
        // The moves of the games a resumed output holds are not read back: say so.
        let whose = if summary.resumed > 0 {
            " (the games analysed in this run)"
        } else {
            ""
        };
        text.push_str(&format!(
            "from {}{whose}: {} game{} ({} ended before){}\n",
            terms::empties(n),
            thousands(summary.reached),
            plural(summary.reached),
            not_reached,
            if summary.reached > 0 {
                format!(
                    ", {} played perfectly to the end",
                    thousands(summary.perfect_games)
                )
            } else {
                String::new()
            }
        ));
        for (side, name) in [(0, "black"), (1, "white")] {
            let moves = summary.moves[side];
            let average = if summary.reached > 0 {
                summary.loss[side] as f64 / summary.reached as f64
            } else {
                0.0
            };
            text.push_str(&format!(
                "  {name}: {} of {} move{} perfect ({}), average loss {average:.2} per game\n",
                thousands(summary.perfect[side]),
                thousands(moves),
                plural(moves),
                percent(summary.perfect[side], moves),
            ));
        }
    }
    if check || summary.checked > 0 {
        text.push_str(&check_verdict(summary));
        text.push('\n');
        if summary.unchecked > 0 {
            text.push_str(&format!(
                "{} game{} record no theoretical score\n",
                thousands(summary.unchecked),
                plural(summary.unchecked)
            ));
        }
        for d in &summary.disagreements {
            text.push_str(&disagreement_line(&d.game, &d.theoretical));
            text.push('\n');
        }
    }
    if summary.unfinished > 0 {
        text.push_str(&format!(
            "{} game{} unfinished: a search reached the limit\n",
            thousands(summary.unfinished),
            plural(summary.unfinished)
        ));
    }
    if !summary.ended_early.is_empty() {
        text.push_str(&format!(
            "{} game{} ended early, solved from where {} stopped: {}\n",
            thousands(summary.ended_early.len()),
            plural(summary.ended_early.len()),
            if summary.ended_early.len() == 1 {
                "it"
            } else {
                "they"
            },
            summary.ended_early.join(", ")
        ));
    }
    if summary.refused > 0 {
        text.push_str(&format!(
            "{} game{} refused: too deep to solve exactly without a limit\n",
            thousands(summary.refused),
            plural(summary.refused)
        ));
    }
    if summary.final_differs > 0 {
        text.push_str(&format!(
            "{} game{} whose recorded final score differs from the replay\n",
            summary.final_differs,
            plural(summary.final_differs)
        ));
    }
    let rate = summary.solved_per_second();
    text.push_str(&format!(
        "solved {} position{} in {} ({rate:.*} positions/s), {} nodes ({})\n",
        thousands(summary.solved),
        plural(summary.solved),
        format_seconds(summary.time.as_secs_f64()),
        decimals_for(rate),
        format_count(summary.nodes),
        format_mnps(summary.nps()),
    ));
    text
}

/// Reads back, as a stream, the games an output in `format` already holds, from its line
/// `first_line` on (the lines before it held the [`Format::options_record`]). A record cut short by an
/// interruption (a JSON or CSV line without its newline, a text block without its blank line)
/// is not counted. With `theoretical`, also the exact theoretical score (black's discs) each
/// whole record gives, in order (`None` where it gives none). An error says which line is not
/// a record of this format.
pub fn written_from(
    format: Format,
    mut reader: impl BufRead,
    first_line: usize,
    mut theoretical: Option<&mut Vec<Option<u32>>>,
) -> Result<Written, String> {
    let mut keys = Vec::new();
    let mut offset = 0u64;
    let mut keep = 0u64;
    let mut has_header = format.header().is_empty();
    // Text: the lines of the block being read, and its theoretical score.
    let mut block: Vec<String> = Vec::new();
    let mut block_exact = None;
    let mut line = Vec::new();
    for number in first_line.. {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read line {number}: {e}"))?;
        offset += read as u64;
        if line.pop() != Some(b'\n') {
            break;
        }
        let text =
            std::str::from_utf8(&line).map_err(|_| format!("line {number} is not UTF-8 text"))?;
        let not_a_record = || format!("line {number} is not a game record in {format}");
        let exact = match format {
            Format::Text if text.is_empty() => {
                if block.len() < 2 {
                    return Err(not_a_record());
                }
                keys.push(fingerprint(&format!("{}\n{}\n", block[0], block[1])));
                block.clear();
                keep = offset;
                Some(block_exact.take())
            }
            Format::Text => {
                if block.is_empty() == text.starts_with(' ') {
                    return Err(not_a_record());
                }
                if let Some(rest) = text.strip_prefix("  theoretical ") {
                    block_exact = text_theoretical_exact(rest);
                }
                block.push(text.to_string());
                None
            }
            Format::Jsonl => {
                let record: JsonRecord =
                    serde_json::from_str(text).map_err(|e| format!("{}: {e}", not_a_record()))?;
                keys.push(fingerprint(&format!("{} {}", record.game, record.moves)));
                keep = offset;
                Some(
                    record
                        .theoretical
                        .and_then(|t| t.exact)
                        .map(|discs| discs.black),
                )
            }
            Format::Csv if number == first_line => {
                if text != CSV_HEADER.trim_end() {
                    return Err(format!("line {number} is not the games CSV header"));
                }
                has_header = true;
                keep = offset;
                None
            }
            Format::Csv => {
                let columns = CSV_HEADER.split(',').count();
                let fields = csv_fields(text)
                    .filter(|f| f.len() == columns)
                    .ok_or_else(not_a_record)?;
                keys.push(fingerprint(&format!("{} {}", fields[0], fields[4])));
                keep = offset;
                let exact = &fields[12];
                Some(if exact.is_empty() {
                    None
                } else {
                    Some(exact.parse().map_err(|_| not_a_record())?)
                })
            }
        };
        if let (Some(exact), Some(all)) = (exact, theoretical.as_deref_mut()) {
            all.push(exact);
        }
    }
    Ok(Written {
        keys,
        keep,
        has_header,
    })
}

/// Black's exact discs in a text block's theoretical line after `  theoretical `:
/// `29-35 at 24 empties (recorded), exact 29-35: agrees` gives 29; `None` without the exact part.
fn text_theoretical_exact(line: &str) -> Option<u32> {
    let (_, exact) = line.split_once("(recorded), exact ")?;
    exact.split_once('-')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::analysis::{analyze_game, GamesOptions};
    use crate::games::transcript::TranscriptReader;
    use crate::search::{SolveOptions, Solver};
    use std::io::Cursor;

    /// The 9-move wipe-out and game 1 of WThor's 2021 file, analysed from 12 empties.
    fn analyses() -> Vec<GameAnalysis> {
        let text = "f5f4c3c6c5d6f3c4c7\n\
            f5d6c4g5c6c5d7d3b4c3e3b5f6f3c2a4d2b6b3e2a3c7g6f4c8a2e6c1a6d8e8e7f8g4f7h6d1e1\
            g3f2h4h5h3h2g1b7g7g2b8a8a7g8h1f1h7a5b2b1a1h8\n";
        let games: Vec<Game> = TranscriptReader::new(Cursor::new(text.as_bytes()), "g.txt".into())
            .map(Result::unwrap)
            .collect();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            wld: false,
            force: false,
            progress: None,
        })
        .unwrap();
        let options = GamesOptions {
            empties: Some(12),
            ..GamesOptions::default()
        };
        games
            .iter()
            .enumerate()
            .map(|(i, g)| analyze_game(&mut solver, g, i, &options).unwrap())
            .collect()
    }

    #[test]
    fn text_json_and_csv_say_the_same() {
        let all = analyses();
        let short = &all[0];
        assert_eq!(short.exact, None);
        let text = text_block(short);
        assert!(
            text.contains("12 empties  not reached: the game ended with 51 empties"),
            "{text}"
        );
        let long = &all[1];
        let discs = long.exact_discs().unwrap();
        let text = text_block(long);
        assert!(
            text.contains(&format!("12 empties  exact {}", score_text(discs))),
            "{text}"
        );
        assert_eq!(text.lines().filter(|l| l.contains("score ")).count(), 12);
        let json: JsonRecord = serde_json::from_str(&json_line(long)).unwrap();
        assert_eq!(json.game, "g.txt#2");
        assert_eq!(json.exact.unwrap().discs, discs.into());
        assert_eq!(json.played.len(), long.moves.len());
        let losses: i32 = json.played.iter().map(|m| m.loss).sum();
        let loss = json.loss.unwrap();
        assert_eq!(losses, loss.black + loss.white);
        let row = csv_fields(csv_row(long).trim_end()).unwrap();
        assert_eq!(row.len(), CSV_HEADER.split(',').count());
        assert_eq!(row[6], discs.0.to_string());
        assert_eq!(row[18], loss.black.to_string());
    }

    #[test]
    fn written_outputs_read_back_to_their_games() {
        let all = analyses();
        for format in [Format::Text, Format::Jsonl, Format::Csv] {
            let whole = format!(
                "{}{}{}",
                format.header(),
                record(format, &all[0]),
                record(format, &all[1])
            );
            let first = (format.header().len() + record(format, &all[0]).len()) as u64;
            let cut = &whole[..whole.len() - 3];
            let mut exact = Vec::new();
            let w = written_from(format, cut.as_bytes(), 1, Some(&mut exact)).unwrap();
            assert_eq!(exact, [None], "{format}");
            assert_eq!(
                w.keys,
                [fingerprint(&key(format, &all[0].game))],
                "{format}"
            );
            assert_eq!(w.keep, first, "{format}");
            let w = written_from(format, whole.as_bytes(), 1, None).unwrap();
            assert_eq!(w.keys.len(), 2, "{format}");
            assert_eq!(
                w.keys[1],
                fingerprint(&key(format, &all[1].game)),
                "{format}"
            );
            assert_eq!(w.keep, whole.len() as u64, "{format}");
        }
        assert!(written_from(Format::Jsonl, &b"{}\n"[..], 1, None)
            .unwrap_err()
            .contains("line 1"));
        assert!(written_from(Format::Text, &b"  indented\n\n"[..], 1, None).is_err());
        assert!(written_from(Format::Csv, &b"a,b\n"[..], 2, None)
            .unwrap_err()
            .contains("line 2"));
    }

    #[test]
    fn verdicts_and_counts() {
        let theoretical = Theoretical {
            depth: 24,
            recorded: 35,
            exact: 33,
            position: None,
        };
        let summary = GamesSummary {
            checked: 4125,
            disagreements: vec![crate::games::analysis::Disagreement {
                game: "x.wtb#3".into(),
                theoretical,
            }],
            ..GamesSummary::default()
        };
        assert_eq!(
            check_verdict(&summary),
            "checked 4,125 games: 4,124 agree, 1 disagree"
        );
        assert_eq!(
            disagreement_line("x.wtb#3", &theoretical),
            "x.wtb#3: theoretical score 35-29 recorded, exact 33-31 \
             (the game ended before 24 empties: its final score)"
        );
    }

    #[test]
    fn a_resumed_outputs_input_item_is_the_game_and_its_moves() {
        let text = "f5f4c3c6c5d6f3c4c7\n";
        let game = TranscriptReader::new(Cursor::new(text.as_bytes()), "g.txt".into())
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(input_item(&game), "g.txt#1: f5f4c3c6c5d6f3c4c7");
    }
}
