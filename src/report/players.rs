//! The per-player statistics of `osolve games --players FILE` as CSV (a header, then one row
//! per player) or as a JSON document (an array of players), the format told by the file's
//! extension. Rates are fractions (0.8125), averages in discs; a rate or average without
//! moves is empty in CSV and `null` in JSON.

use std::path::Path;

use serde::Serialize;

use super::batch::csv_field;
use crate::board::Color;
use crate::games::players::{PlayerStats, SideStats};

/// A format of the statistics file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayersFormat {
    /// One row per player.
    Csv,
    /// One JSON array.
    Json,
}

impl PlayersFormat {
    /// The format `path`'s extension names (`.csv`, `.json`).
    pub fn from_path(path: &Path) -> Option<PlayersFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "csv" => Some(PlayersFormat::Csv),
            "json" => Some(PlayersFormat::Json),
            _ => None,
        }
    }
}

/// The first line of the CSV file.
pub const PLAYERS_CSV_HEADER: &str = "player,games,moves,perfect,perfect_rate,loss,\
loss_per_move,loss_per_game,black_games,black_moves,black_perfect_rate,black_loss_per_move,\
black_loss_per_game,white_games,white_moves,white_perfect_rate,white_loss_per_move,\
white_loss_per_game\n";

/// The whole file for `players` (already sorted) in `format`.
pub fn players_file(format: PlayersFormat, players: &[PlayerStats]) -> String {
    match format {
        PlayersFormat::Csv => {
            let mut text = PLAYERS_CSV_HEADER.to_string();
            for player in players {
                text.push_str(&csv_row(player));
            }
            text
        }
        PlayersFormat::Json => {
            let rows: Vec<JsonPlayer> = players.iter().map(json_player).collect();
            serde_json::to_string_pretty(&rows).expect("plain data serialises") + "\n"
        }
    }
}

/// A rate or average with four decimals, empty when there is none.
fn decimal(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v:.4}"))
}

fn csv_row(player: &PlayerStats) -> String {
    let total = player.total();
    let mut fields = vec![
        csv_field(&player.name),
        total.games.to_string(),
        total.moves.to_string(),
        total.perfect.to_string(),
        decimal(total.perfect_rate()),
        total.loss.to_string(),
        decimal(total.loss_per_move()),
        decimal(total.loss_per_game()),
    ];
    for color in [Color::Black, Color::White] {
        let side = player.side(color);
        fields.extend([
            side.games.to_string(),
            side.moves.to_string(),
            decimal(side.perfect_rate()),
            decimal(side.loss_per_move()),
            decimal(side.loss_per_game()),
        ]);
    }
    fields.join(",") + "\n"
}

/// One player's totals with one colour (or both) in JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JsonSide {
    /// Games judged.
    pub games: usize,
    /// Moves judged.
    pub moves: usize,
    /// Perfect moves.
    pub perfect: usize,
    /// Share of perfect moves.
    pub perfect_rate: Option<f64>,
    /// Discs lost.
    pub loss: i64,
    /// Discs lost per move.
    pub loss_per_move: Option<f64>,
    /// Discs lost per game.
    pub loss_per_game: Option<f64>,
}

/// One player in JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JsonPlayer {
    /// The name.
    pub player: String,
    /// Both colours.
    #[serde(flatten)]
    pub total: JsonSide,
    /// As black.
    pub black: JsonSide,
    /// As white.
    pub white: JsonSide,
}

fn rounded(value: Option<f64>) -> Option<f64> {
    value.map(|v| (v * 10_000.0).round() / 10_000.0)
}

fn json_side(side: &SideStats) -> JsonSide {
    JsonSide {
        games: side.games,
        moves: side.moves,
        perfect: side.perfect,
        perfect_rate: rounded(side.perfect_rate()),
        loss: side.loss,
        loss_per_move: rounded(side.loss_per_move()),
        loss_per_game: rounded(side.loss_per_game()),
    }
}

fn json_player(player: &PlayerStats) -> JsonPlayer {
    JsonPlayer {
        player: player.name.clone(),
        total: json_side(&player.total()),
        black: json_side(player.side(Color::Black)),
        white: json_side(player.side(Color::White)),
    }
}
