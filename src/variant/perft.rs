//! Move-generation counting under a variant's rules (see [`crate::perft`] for the convention: a
//! pass is a ply, a game finished early is one leaf). From the empty Reversi board the first
//! four plies only fill the centre, so depth 1 is 4 leaves, depth 4 is 4! = 24.

use rayon::prelude::*;

use super::Game;
use crate::board::Bits;

/// Number of leaf positions `depth` plies below `game`, on the calling thread.
pub fn perft(game: Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.moves();
    if depth == 1 {
        // A move each, or one leaf for a pass or a finished game.
        return u64::from(moves.count_ones()).max(1);
    }
    if moves == 0 {
        let passed = game.pass();
        if passed.moves() == 0 {
            return 1;
        }
        return perft(passed, depth - 1);
    }
    Bits(moves)
        .map(|sq| perft(game.play(sq, game.flips(sq)), depth - 1))
        .sum()
}

/// Plies each parallel task counts on its own, at least.
const SEQUENTIAL_PLIES: u32 = 5;
/// Most plies enumerated before the split.
const MAX_SPLIT_PLIES: u32 = 5;

/// The same count as [`perft`], with the positions a few plies down counted in parallel.
pub fn perft_parallel(game: Game, depth: u32) -> u64 {
    if depth <= SEQUENTIAL_PLIES {
        return perft(game, depth);
    }
    let split = (depth - SEQUENTIAL_PLIES).min(MAX_SPLIT_PLIES);
    let mut frontier = Vec::new();
    let ended = enumerate(game, split, &mut frontier);
    ended
        + frontier
            .par_iter()
            .map(|&game| perft(game, depth - split))
            .sum::<u64>()
}

/// Pushes every game exactly `plies` plies below `game` onto `frontier`; returns the number of
/// games that ended sooner (one leaf each).
fn enumerate(game: Game, plies: u32, frontier: &mut Vec<Game>) -> u64 {
    if plies == 0 {
        frontier.push(game);
        return 0;
    }
    let moves = game.moves();
    if moves == 0 {
        let passed = game.pass();
        if passed.moves() == 0 {
            return 1;
        }
        return enumerate(passed, plies - 1, frontier);
    }
    Bits(moves)
        .map(|sq| enumerate(game.play(sq, game.flips(sq)), plies - 1, frontier))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::variant::{reference, Rules, VariantPosition};

    #[test]
    fn the_empty_board_by_hand() {
        let start = VariantPosition::start(Rules::Reversi).game;
        // 4 centre squares, then 3, 2, 1: 4, 12, 24, 24. Then black has 4 moves in each of the
        // 24 ways the centre can fill (crossed or side by side, see tests/variant.rs): 96.
        let counts: Vec<u64> = (1..=5).map(|d| perft(start, d)).collect();
        assert_eq!(counts, [4, 12, 24, 24, 96]);
    }

    #[test]
    fn bitboards_agree_with_the_literal_rules() {
        let reversi = VariantPosition::start(Rules::Reversi);
        for depth in 0..=7 {
            assert_eq!(
                perft(reversi.game, depth),
                reference::perft(&reversi, depth),
                "depth {depth}"
            );
        }
        // Othello rules through the variant code give the published counts.
        let othello = VariantPosition::new(Position::start(), None, Rules::Othello).unwrap();
        let published = [1, 4, 12, 56, 244, 1396, 8200, 55092];
        for (depth, &leaves) in published.iter().enumerate() {
            assert_eq!(perft(othello.game, depth as u32), leaves);
        }
        assert_eq!(perft_parallel(reversi.game, 9), perft(reversi.game, 9));
    }
}
