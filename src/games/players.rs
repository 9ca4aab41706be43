//! Statistics per player over the analysed games (`osolve games --players FILE`): for each
//! named player, as black and as white, the games judged (those that reached N empties and were
//! solved exactly), the moves judged, the perfect moves and the discs lost. Sides without a
//! name are not counted: they would lump unrelated players together.

use std::collections::BTreeMap;

use super::analysis::{color_index, GameAnalysis};
use crate::board::Color;

/// One player's totals with one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Games judged.
    pub games: usize,
    /// Moves judged.
    pub moves: usize,
    /// Moves that kept the exact score.
    pub perfect: usize,
    /// Discs lost in all.
    pub loss: i64,
}

impl SideStats {
    fn add(&mut self, other: &SideStats) {
        self.games += other.games;
        self.moves += other.moves;
        self.perfect += other.perfect;
        self.loss += other.loss;
    }

    /// The share of perfect moves (0 to 1); `None` without moves.
    pub fn perfect_rate(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.perfect as f64 / self.moves as f64)
    }

    /// Discs lost per move; `None` without moves.
    pub fn loss_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.loss as f64 / self.moves as f64)
    }

    /// Discs lost per game; `None` without games.
    pub fn loss_per_game(&self) -> Option<f64> {
        (self.games > 0).then(|| self.loss as f64 / self.games as f64)
    }
}

/// One player's totals, by colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerStats {
    /// The name as the database writes it.
    pub name: String,
    /// As black, as white.
    pub sides: [SideStats; 2],
}

impl PlayerStats {
    /// Both colours together.
    pub fn total(&self) -> SideStats {
        let mut total = self.sides[0];
        total.add(&self.sides[1]);
        total
    }

    /// With one colour.
    pub fn side(&self, color: Color) -> &SideStats {
        &self.sides[color_index(color)]
    }
}

/// The totals of every player seen so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Players {
    by_name: BTreeMap<String, [SideStats; 2]>,
}

impl Players {
    /// Counts the moves of a game that was solved exactly from N empties; other games (not
    /// reached, stopped at a limit) judge nobody and are not counted.
    pub fn add(&mut self, analysis: &GameAnalysis) {
        if analysis.exact.is_none() || analysis.unfinished.is_some() {
            return;
        }
        for (color, name) in [
            (Color::Black, &analysis.game.black),
            (Color::White, &analysis.game.white),
        ] {
            let Some(name) = name.as_deref().map(str::trim).filter(|n| !n.is_empty()) else {
                continue;
            };
            let side = &mut self.by_name.entry(name.to_string()).or_default()[color_index(color)];
            side.games += 1;
            for m in analysis.moves.iter().filter(|m| m.color == color) {
                side.moves += 1;
                side.perfect += usize::from(m.loss == 0);
                side.loss += i64::from(m.loss);
            }
        }
    }

    /// Every player, the smallest average loss per move first (players without a judged move
    /// last), then the most moves, then by name.
    pub fn sorted(&self) -> Vec<PlayerStats> {
        let mut players: Vec<PlayerStats> = self
            .by_name
            .iter()
            .map(|(name, sides)| PlayerStats {
                name: name.clone(),
                sides: *sides,
            })
            .collect();
        players.sort_by(|a, b| {
            let (ta, tb) = (a.total(), b.total());
            let average = |t: &SideStats| t.loss_per_move().unwrap_or(f64::INFINITY);
            average(&ta)
                .total_cmp(&average(&tb))
                .then(tb.moves.cmp(&ta.moves))
                .then(a.name.cmp(&b.name))
        });
        players
    }

    /// True when no player was counted.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}
