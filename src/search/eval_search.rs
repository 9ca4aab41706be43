//! The evaluation search: a depth-limited alpha-beta over the learned evaluation
//! ([`crate::eval`]) with exact scores at the end of the game, in 1/`SCALE` discs. The solver
//! orders its deepest nodes' moves with it and predicts scores for ProbCut; self-play and the
//! training labels of `learn` use it too. It knows boards and the evaluation, nothing else of
//! the solver.

use crate::board::{flips, legal_moves, Bits, Board, ClassOrder, CORNERS, MAX_MOVES};
use crate::eval::patterns::instance_indices16;
use crate::eval::{evaluate_moves, evaluate_played, Weights, SCALE};

/// Depth-limited alpha-beta with the learned evaluation at the leaves and exact scores at the
/// end of the game, in 1/SCALE discs for the side to move. A label for positions too deep to
/// solve, the move chooser of self-play, the ordering search and the ProbCut predictor of the
/// solver. `nodes` counts
/// the positions visited (this one included).
pub fn search(
    weights: &Weights,
    player: u64,
    opponent: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    let moves = legal_moves(player, opponent);
    search_moves(weights, player, opponent, moves, depth, alpha, beta, nodes)
}

/// [`search`] when the caller already has the side to move's legal moves (`moves`, as the move
/// generator returned them): each position's moves are generated once, by its parent, which
/// needs them anyway to order its children.
#[allow(clippy::too_many_arguments)]
pub fn search_moves(
    weights: &Weights,
    player: u64,
    opponent: u64,
    moves: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    debug_assert_eq!(moves, legal_moves(player, opponent));
    *nodes += 1;
    if moves == 0 {
        let theirs = legal_moves(opponent, player);
        if theirs == 0 {
            let board = Board { player, opponent };
            return board.final_score() * SCALE;
        }
        return -search_moves(
            weights, opponent, player, theirs, depth, -beta, -alpha, nodes,
        );
    }
    if depth == 0 {
        let empties = 64 - (player | opponent).count_ones();
        return match weights.set(empties) {
            Some(w) => evaluate_moves(w, player, opponent, moves).clamp(-64 * SCALE, 64 * SCALE),
            None => 0,
        };
    }
    let mut best = i32::MIN + 1;
    if depth == 1 {
        // The children are leaves: searched by square class (corners first, X squares last,
        // as the last empties try them), their moves generated only when they are reached (a
        // cutoff spares the rest), their pattern indices updated from this node's by the
        // squares each move changes. (The solver's nodes, one thread: FFO #40-#49 420.99 M
        // with the leaves in square order and no corner preference above; 418.19 M with both;
        // the 25 positions not tuned on, FFO #20-#39, #50, #51, #60, #61, #63, 1,092.9 M ->
        // 1,080.0 M. Leaves sorted by the replies they leave, as above, 417.1 M on FFO
        // #40-#49 but 5% slower: every move's flips and replies come before the first cutoff.)
        let swapped = instance_indices16(opponent, player);
        let set = weights.set(63 - (player | opponent).count_ones());
        for sq in ClassOrder::new(moves) {
            let f = flips(player, opponent, sq);
            let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << sq));
            let r = legal_moves(p, o);
            let v = match set {
                Some(w) if r != 0 => {
                    *nodes += 1;
                    -evaluate_played(w, &swapped, sq, f, p, o, r).clamp(-64 * SCALE, 64 * SCALE)
                }
                _ => -search_moves(weights, p, o, r, 0, -beta, -alpha, nodes),
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        return best;
    }
    // Above the last ply, the moves that leave the opponent the fewest replies go first: they
    // usually cut, and a corner goes before a move elsewhere that leaves as many (such a move
    // counts one reply more). The order changes only the nodes visited, never the value.
    let mut list = [(0u64, 0u64, 0u64, 0u32); MAX_MOVES];
    let mut n = 0;
    for sq in Bits(moves) {
        let f = flips(player, opponent, sq);
        let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << sq));
        let r = legal_moves(p, o);
        let key = r.count_ones() + (r & CORNERS).count_ones() + (!CORNERS >> sq & 1) as u32;
        list[n] = (p, o, r, key);
        n += 1;
    }
    for i in 0..n {
        let mut k = i;
        for j in i + 1..n {
            if list[j].3 < list[k].3 {
                k = j;
            }
        }
        list.swap(i, k);
        let (p, o, r, _) = list[i];
        let v = -search_moves(weights, p, o, r, depth - 1, -beta, -alpha, nodes);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::Rng;
    use crate::eval::tests::sample_weights;
    use crate::eval::{builtin, evaluate_mobility, SETS};

    /// Plain negamax over every move, no pruning and no ordering: what `search` must return.
    fn minimax(weights: &Weights, player: u64, opponent: u64, depth: u32) -> i32 {
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return Board { player, opponent }.final_score() * SCALE;
            }
            return -minimax(weights, opponent, player, depth);
        }
        if depth == 0 {
            let empties = 64 - (player | opponent).count_ones();
            let w = weights.set(empties).expect("trained set");
            let theirs = legal_moves(opponent, player).count_ones();
            return evaluate_mobility(w, player, opponent, moves.count_ones(), theirs)
                .clamp(-64 * SCALE, 64 * SCALE);
        }
        Bits(moves)
            .map(|sq| {
                let f = flips(player, opponent, sq);
                -minimax(weights, opponent ^ f, player ^ f ^ (1u64 << sq), depth - 1)
            })
            .max()
            .expect("a move")
    }

    #[test]
    fn a_board_with_more_moves_than_play_reaches_is_searched() {
        // 35 moves: the ordering list once had room for 33 (a panic on such an input board).
        let b = crate::board::bitboard::tests::many_moves_board();
        let weights = builtin();
        for depth in 1..=2 {
            let mut nodes = 0;
            let v = search(
                weights,
                b.player,
                b.opponent,
                depth,
                -65 * SCALE,
                65 * SCALE,
                &mut nodes,
            );
            assert_eq!(v, minimax(weights, b.player, b.opponent, depth), "{depth}");
        }
    }

    #[test]
    fn ordered_search_returns_the_minimax_value() {
        let weights = sample_weights(5, &(0..SETS).collect::<Vec<_>>());
        let mut rng = Rng(77);
        let mut visited = (0u64, 0u64);
        for i in 0..40 {
            let empties = 10 + (i % 20) as u32;
            let b = crate::board::random::random_position(&mut rng, empties).board;
            for depth in 1..=3 {
                let mut nodes = 0;
                let v = search(
                    &weights,
                    b.player,
                    b.opponent,
                    depth,
                    -65 * SCALE,
                    65 * SCALE,
                    &mut nodes,
                );
                assert_eq!(
                    v,
                    minimax(&weights, b.player, b.opponent, depth),
                    "{b:?} {depth}"
                );
                if depth == 3 {
                    visited.0 += nodes;
                    visited.1 += unordered_nodes(&weights, b.player, b.opponent, 3);
                }
            }
        }
        // The ordering is what saves nodes: the same alpha-beta in square order visits more.
        assert!(visited.0 < visited.1, "{visited:?}");
    }

    /// One ply above the leaves, a corner is evaluated first: where it alone reaches beta,
    /// the search stops after it (the node and one leaf). In square order another move
    /// comes first on most of these boards, so the count fails if the corner waits its turn.
    #[test]
    fn a_corner_leaf_is_evaluated_first() {
        let weights = builtin();
        let mut rng = Rng(91);
        let (mut checked, mut not_first_by_square) = (0, 0);
        for i in 0..4000 {
            let b = crate::board::random::random_position(&mut rng, 14 + (i % 30) as u32).board;
            let moves = legal_moves(b.player, b.opponent);
            let corners = moves & CORNERS;
            if corners.count_ones() != 1 || moves == corners {
                continue;
            }
            let sq = corners.trailing_zeros() as usize;
            let f = flips(b.player, b.opponent, sq);
            let (p, o) = (b.opponent ^ f, b.player ^ f ^ (1u64 << sq));
            if legal_moves(p, o) == 0 {
                continue;
            }
            let leaf = -search(weights, p, o, 0, -65 * SCALE, 65 * SCALE, &mut 0);
            let mut nodes = 0;
            let v = search_moves(
                weights,
                b.player,
                b.opponent,
                moves,
                1,
                leaf - 1,
                leaf,
                &mut nodes,
            );
            assert_eq!((v, nodes), (leaf, 2), "{b:?}");
            checked += 1;
            if moves.trailing_zeros() as usize != sq {
                not_first_by_square += 1;
            }
        }
        assert!(
            checked >= 100 && not_first_by_square * 2 > checked,
            "{checked} {not_first_by_square}"
        );
    }

    /// Nodes of the same full-window alpha-beta with the moves in square order.
    fn unordered_nodes(weights: &Weights, player: u64, opponent: u64, depth: u32) -> u64 {
        fn go(
            w: &Weights,
            p: u64,
            o: u64,
            depth: u32,
            mut alpha: i32,
            beta: i32,
            n: &mut u64,
        ) -> i32 {
            *n += 1;
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    return Board {
                        player: p,
                        opponent: o,
                    }
                    .final_score()
                        * SCALE;
                }
                return -go(w, o, p, depth, -beta, -alpha, n);
            }
            if depth == 0 {
                let set = w.set(64 - (p | o).count_ones()).expect("trained set");
                let theirs = legal_moves(o, p).count_ones();
                return evaluate_mobility(set, p, o, moves.count_ones(), theirs)
                    .clamp(-64 * SCALE, 64 * SCALE);
            }
            let mut best = i32::MIN + 1;
            for sq in Bits(moves) {
                let f = flips(p, o, sq);
                let v = -go(w, o ^ f, p ^ f ^ (1u64 << sq), depth - 1, -beta, -alpha, n);
                best = best.max(v);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            best
        }
        let mut n = 0;
        go(
            weights,
            player,
            opponent,
            depth,
            -65 * SCALE,
            65 * SCALE,
            &mut n,
        );
        n
    }
}
