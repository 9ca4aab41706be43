//! Move-generation counting (perft): the number of leaf positions exactly N plies below a board.
//! It exercises legal-move generation, flips and play on every node of the game tree, so the
//! published counts from the start position make an exhaustive check of the board code. It
//! knows the game only through `board`, and nothing of search, text or output.
//!
//! Convention (that of the published table): a pass is a ply, and a game that ends (neither side
//! can move) before N plies counts as one leaf. The last two plies are counted in bulk: at one
//! ply left a node has `max(1, moves)` leaves, since with no move it either passes (one ply, one
//! leaf) or the game is over (one leaf), so the last ply needs no move played at all.

use crate::board::rules::{GameRules, Official, Othello, ReversiRules, Rules};
use crate::board::{Bits, Board, Position};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Leaves at one ply left, from the side to move's legal moves: one per move, or one leaf when
/// there is none (a pass, or a finished game).
#[inline(always)]
fn leaves_at_last_ply(moves: u64) -> u64 {
    (moves.count_ones() as u64).max(1)
}

/// Leaves `depth` (at least 2) plies below `state` under the rules `R`.
fn count<R: GameRules>(state: R::State, depth: u32) -> u64 {
    debug_assert!(depth >= 2);
    let moves = R::moves(&state);
    if moves != 0 {
        return count_moves::<R>(state, moves, depth);
    }
    let passed = R::pass(&state);
    let replies = R::moves(&passed);
    if replies == 0 {
        return 1;
    }
    // The pass is a ply of its own.
    if depth == 2 {
        replies.count_ones() as u64
    } else {
        count_moves::<R>(passed, replies, depth - 1)
    }
}

/// Leaves `depth` (at least 2) plies below `state`, whose side to move has `moves` (non-zero).
#[inline(always)]
fn count_moves<R: GameRules>(state: R::State, moves: u64, depth: u32) -> u64 {
    debug_assert!(depth >= 2 && moves != 0 && moves == R::moves(&state));
    if depth == 2 {
        Bits(moves)
            .map(|sq| leaves_at_last_ply(R::moves(&R::play(&state, sq, R::flips(&state, sq)))))
            .sum()
    } else {
        Bits(moves)
            .map(|sq| count::<R>(R::play(&state, sq, R::flips(&state, sq)), depth - 1))
            .sum()
    }
}

/// Number of leaf positions `depth` plies below `board`, on the calling thread. A pass counts as
/// a ply; a game finished before `depth` plies is one leaf; depth 0 is the board itself.
pub fn perft(board: Board, depth: u32) -> u64 {
    perft_in::<Othello>(board, depth)
}

/// [`perft`] under the rules `R`.
fn perft_in<R: GameRules>(state: R::State, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => leaves_at_last_ply(R::moves(&state)),
        _ => count::<R>(state, depth),
    }
}

/// Plies each parallel task counts on its own thread, at least; a count no deeper than this is
/// not split at all, as the split would cost more than it saves.
const SEQUENTIAL_PLIES: u32 = 5;
/// Most plies enumerated before splitting: 1396 tasks from the start position, enough for
/// rayon to balance the uneven subtrees over a few cores.
const MAX_SPLIT_PLIES: u32 = 5;

/// The same count as [`perft`], with the tree split over rayon's thread pool: the positions a
/// few plies down are enumerated, then counted in parallel.
pub fn perft_parallel(board: Board, depth: u32) -> u64 {
    perft_parallel_in::<Othello>(board, depth)
}

/// [`perft_parallel`] from `position` under its rules (the supplies bind under Reversi rules).
pub fn perft_game(position: &Position, depth: u32) -> u64 {
    match position.rules() {
        Rules::Othello => perft_parallel_in::<Othello>(position.board, depth),
        Rules::Reversi => perft_parallel_in::<ReversiRules<Official>>(position.state(), depth),
    }
}

/// The run of `osolve perft`: [`perft_game`] from `position` at every depth from 1 to `depth`
/// (depth 0 alone when `depth` is 0: the position itself), handing each depth, its leaves and
/// the time it took to `row` as soon as it is counted; an error from `row` ends the run with it.
pub fn perft_depths<E>(
    position: &Position,
    depth: u32,
    mut row: impl FnMut(u32, u64, Duration) -> Result<(), E>,
) -> Result<(), E> {
    for depth in depth.min(1)..=depth {
        let start = Instant::now();
        let leaves = perft_game(position, depth);
        row(depth, leaves, start.elapsed())?;
    }
    Ok(())
}

/// [`perft_game`] on the calling thread.
pub fn perft_game_sequential(position: &Position, depth: u32) -> u64 {
    match position.rules() {
        Rules::Othello => perft_in::<Othello>(position.board, depth),
        Rules::Reversi => perft_in::<ReversiRules<Official>>(position.state(), depth),
    }
}

fn perft_parallel_in<R: GameRules>(state: R::State, depth: u32) -> u64 {
    if depth <= SEQUENTIAL_PLIES {
        return perft_in::<R>(state, depth);
    }
    let split = (depth - SEQUENTIAL_PLIES).min(MAX_SPLIT_PLIES);
    let mut frontier = Vec::new();
    let ended = enumerate::<R>(state, split, &mut frontier);
    let below = depth - split;
    ended
        + frontier
            .par_iter()
            .map(|&state| perft_in::<R>(state, below))
            .sum::<u64>()
}

/// Pushes onto `frontier` every position exactly `plies` plies below `state`; returns the number
/// of games that ended sooner (each one leaf).
fn enumerate<R: GameRules>(state: R::State, plies: u32, frontier: &mut Vec<R::State>) -> u64 {
    if plies == 0 {
        frontier.push(state);
        return 0;
    }
    let moves = R::moves(&state);
    if moves == 0 {
        let passed = R::pass(&state);
        if R::moves(&passed) == 0 {
            return 1;
        }
        return enumerate::<R>(passed, plies - 1, frontier);
    }
    Bits(moves)
        .map(|sq| {
            enumerate::<R>(
                R::play(&state, sq, R::flips(&state, sq)),
                plies - 1,
                frontier,
            )
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_depth_is_handed_on_in_order() {
        let mut rows = Vec::new();
        let start = Position::start();
        let done = perft_depths(&start, 3, |depth, leaves, _| {
            rows.push((depth, leaves));
            Ok::<(), ()>(())
        });
        assert_eq!((done, rows), (Ok(()), vec![(1, 4), (2, 12), (3, 56)]));
        let mut rows = Vec::new();
        let _ = perft_depths(&start, 0, |depth, leaves, _| {
            rows.push((depth, leaves));
            Err::<(), &str>("stop")
        });
        assert_eq!(rows, [(0, 1)]);
    }

    /// Aart Bik's published counts from the start position, depth 0 to 12.
    const START: [u64; 13] = [
        1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636,
    ];

    /// The plainest statement of the convention, move by move through `Board::play`: the
    /// reference the bulk counting is checked against.
    fn perft_reference(board: Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = board.moves();
        if moves == 0 {
            if board.pass().moves() == 0 {
                return 1;
            }
            return perft_reference(board.pass(), depth - 1);
        }
        crate::board::Square::iter(moves)
            .map(|sq| perft_reference(board.play(sq).unwrap(), depth - 1))
            .sum()
    }

    #[test]
    fn start_position_depths_0_to_9() {
        for (depth, &leaves) in START.iter().enumerate().take(10) {
            assert_eq!(perft(Board::start(), depth as u32), leaves, "depth {depth}");
        }
    }

    #[test]
    fn parallel_matches_sequential_at_depths_0_to_9() {
        for depth in 0..=9 {
            assert_eq!(
                perft_parallel(Board::start(), depth),
                perft(Board::start(), depth),
                "depth {depth}"
            );
        }
    }

    #[test]
    fn start_position_depths_10_and_11_in_parallel() {
        assert_eq!(perft_parallel(Board::start(), 10), START[10]);
        assert_eq!(perft_parallel(Board::start(), 11), START[11]);
    }

    #[test]
    #[ignore = "about 3 s on 2 cores in release; run with --ignored"]
    fn start_position_depth_12_matches_the_published_count() {
        assert_eq!(perft_parallel(Board::start(), 12), START[12]);
    }

    /// (passes, finished games) met in the tree `depth` plies below `board`.
    fn passes_and_ends(board: Board, depth: u32) -> (u64, u64) {
        if depth == 0 {
            return (0, 0);
        }
        let moves = board.moves();
        if moves == 0 {
            if board.pass().moves() == 0 {
                return (0, 1);
            }
            let (passes, ends) = passes_and_ends(board.pass(), depth - 1);
            return (passes + 1, ends);
        }
        crate::board::Square::iter(moves)
            .map(|sq| passes_and_ends(board.play(sq).unwrap(), depth - 1))
            .fold((0, 0), |(p, e), (q, f)| (p + q, e + f))
    }

    #[test]
    fn bulk_counting_matches_the_reference_where_games_pass_and_end() {
        // Passes first occur at depth 9 and finished games at depth 11: check a sample of the
        // depth-7 positions 4 plies further, a sample chosen to include both.
        let mut frontier = Vec::new();
        let ended = enumerate::<Othello>(Board::start(), 7, &mut frontier);
        assert_eq!(ended, 0);
        assert_eq!(frontier.len() as u64, START[7]);
        let (mut passes, mut ends) = (0, 0);
        for board in frontier.iter().step_by(5) {
            for depth in 0..=4 {
                assert_eq!(perft(*board, depth), perft_reference(*board, depth));
            }
            let (p, e) = passes_and_ends(*board, 4);
            passes += p;
            ends += e;
        }
        assert!(passes > 0 && ends > 0, "passes {passes}, ends {ends}");
    }

    #[test]
    fn a_pass_is_a_ply_and_a_finished_game_one_leaf() {
        // Full board: the game is over, one leaf at any depth.
        let full = Board::new(0xFFFF_FFFF, 0xFFFF_FFFF_0000_0000).unwrap();
        for depth in 0..4 {
            assert_eq!(perft(full, depth), 1);
            assert_eq!(perft_parallel(full, depth + 8), 1);
        }
        // The mover owns b1 and c1 only, the opponent a1: the mover has no move, the opponent
        // takes b1 and c1 with d1, and then the game is over.
        let pass = Board::new(0b110, 0b1).unwrap();
        assert_eq!(pass.moves(), 0);
        assert_eq!(pass.pass().moves(), 1 << 3);
        assert_eq!(perft(pass, 1), 1); // the pass
        assert_eq!(perft(pass, 2), 1); // pass, d1
        assert_eq!(perft(pass, 3), 1); // pass, d1, game over
        assert_eq!(perft_parallel(pass, 12), 1);
        for depth in 0..6 {
            assert_eq!(perft(pass, depth), perft_reference(pass, depth));
        }
    }

    #[test]
    fn the_empty_reversi_board_by_hand() {
        let start = Position::start_of(Rules::Reversi);
        // 4 centre squares, then 3, 2, 1: 4, 12, 24, 24. Then black has 4 moves in each of the
        // 24 ways the centre can fill (crossed or side by side, see tests/variant.rs): 96.
        let counts: Vec<u64> = (1..=5).map(|d| perft_game_sequential(&start, d)).collect();
        assert_eq!(counts, [4, 12, 24, 24, 96]);
    }

    #[test]
    fn every_rule_set_agrees_with_the_literal_rules() {
        let reversi = Position::start_of(Rules::Reversi);
        for depth in 0..=7 {
            assert_eq!(
                perft_game_sequential(&reversi, depth),
                crate::search::literal::perft(&reversi, depth),
                "depth {depth}"
            );
        }
        let othello = Position::start();
        for (depth, &leaves) in START.iter().enumerate().take(8) {
            assert_eq!(perft_game(&othello, depth as u32), leaves);
            assert_eq!(
                crate::search::literal::perft(&othello, depth as u32),
                leaves
            );
        }
        assert_eq!(perft_game(&reversi, 9), perft_game_sequential(&reversi, 9));
    }
}
