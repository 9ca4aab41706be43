//! Reference scores by plain game-tree search: no tables, no ordering, no cutoffs beyond
//! alpha-beta. They define the exact score the solver must reproduce, for tests (the crate's
//! own and users' engines). Exponential in the number of empties: use them on small positions.

use crate::board::{Bits, Board};

/// Exact score of `board` for the side to move by full minimax (empties to the winner).
pub fn minimax(board: Board) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        if board.pass().moves() == 0 {
            return board.final_score();
        }
        return -minimax(board.pass());
    }
    Bits(moves)
        .map(|sq| -minimax(board.play_flips(sq, board.flips(sq))))
        .max()
        .unwrap_or(i32::MIN)
}

/// Fail-hard alpha-beta in square order: the exact score when it lies inside (`alpha`, `beta`),
/// else the bound it crossed. Much faster than [`minimax`], with nothing else that could be wrong.
pub fn alpha_beta(board: Board, mut alpha: i32, beta: i32) -> i32 {
    let moves = board.moves();
    if moves == 0 {
        if board.pass().moves() == 0 {
            return board.final_score();
        }
        return -alpha_beta(board.pass(), -beta, -alpha);
    }
    for sq in Bits(moves) {
        let value = -alpha_beta(board.play_flips(sq, board.flips(sq)), -beta, -alpha);
        if value >= beta {
            return value;
        }
        alpha = alpha.max(value);
    }
    alpha
}

/// Fail-soft, for tests: `v`, searched in the window (`alpha`, `beta`), is the exact score
/// `exact` inside the window, and beyond it a bound on the right side (between the score and
/// the window's edge). Panics naming `what` otherwise.
#[cfg(test)]
pub(crate) fn check_fail_soft(v: i32, exact: i32, alpha: i32, beta: i32, what: &str) {
    if exact <= alpha {
        assert!(
            exact <= v && v <= alpha,
            "{what}: {v} for {exact} in ({alpha}, {beta})"
        );
    } else if exact >= beta {
        assert!(
            beta <= v && v <= exact,
            "{what}: {v} for {exact} in ({alpha}, {beta})"
        );
    } else {
        assert_eq!(v, exact, "{what}: window ({alpha}, {beta})");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::random_position;

    #[test]
    fn alpha_beta_with_the_full_window_is_minimax() {
        let mut rng = crate::board::random::Rng(17);
        for i in 0..300 {
            let p = random_position(&mut rng, 1 + i % 9);
            assert_eq!(alpha_beta(p.board, -64, 64), minimax(p.board));
        }
        // A full board, 33 discs against 31.
        let p = (1u64 << 33) - 1;
        assert_eq!(
            minimax(Board {
                player: p,
                opponent: !p
            }),
            2
        );
    }
}
