//! Move ordering: which child to search first, at every node the search orders, the root's
//! included. Near the leaves it is parity (play into regions with an odd number of empties
//! first) and a fixed square preference (the square classes the last empties use); in the
//! middle it is fastest-first (leave the opponent the fewest replies), corners, potential
//! mobility and the transposition table's move; at the deepest nodes and at the root it is the
//! search's learned evaluation ([`crate::eval`], `Search::weights`) of each child, after a 0-6
//! ply evaluation search (`eval_search`), with the opponent's mobility (the leaf evaluations
//! updated from their parent's pattern indices where all children are evaluated). The depths
//! and thresholds are in `thresholds`.

use super::eval_search;
use super::node::{Move, Search};
use super::thresholds::{
    eval_order_depth, EVAL_ORDER_MIN, ROOT_SORT_DEPTH, SORT_FLOOR_BELOW_ALPHA,
};
use super::tt::NO_MOVE;
use crate::board::rules::GameRules;
use crate::board::{legal_moves, neighbours, Bits, Board};

pub use crate::board::{CORNERS, C_SQUARES, SQUARE_CLASSES, X_SQUARES};

/// The four 4x4 quadrants.
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Empty squares lying in a quadrant that has an odd number of empty squares.
#[inline(always)]
pub fn odd_region_squares(empty: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        let e = empty & q;
        if e.count_ones() & 1 == 1 {
            odd |= e;
        }
    }
    odd
}

/// The quadrant mask containing square `sq`.
#[inline(always)]
pub fn quadrant_of(sq: usize) -> u64 {
    QUADRANTS[((sq >> 4) & 2) | ((sq >> 2) & 1)]
}

/// Static value of a square for ordering (corners good, X and C squares bad).
const fn square_values() -> [i32; 64] {
    let mut v = [0i32; 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        v[sq] = if CORNERS & bit != 0 {
            12
        } else if X_SQUARES & bit != 0 {
            -8
        } else if C_SQUARES & bit != 0 {
            -3
        } else if 0xFF81_8181_8181_81FFu64 & bit != 0 {
            3
        } else {
            0
        };
        sq += 1;
    }
    v
}

/// Ordering value of each square.
pub static SQUARE_VALUE: [i32; 64] = square_values();

/// Weights of the fastest-first value ([`fastest_first`]), in units of its square values:
/// each reply left to the opponent (corners twice) costs [`FF_REPLY`], each empty square next
/// to the mover's discs (the opponent's potential moves) [`FF_POTENTIAL`], and a move in an odd
/// quadrant gains [`FF_PARITY`]. FFO #40-#49, one thread, nodes: 16, 1, 2 (before) 554.3 M;
/// 20, 1, 2: 548.9 M; 24, 1, 2: 549.6 M; 20, 4, 8: 545.4 M; 24, 4, 8: 544.8 M; 32, 4, 8: 545.0 M;
/// 24, 6, 10: 546.5 M; 24, 4, 12: 545.0 M; 16, 8, 2: 556.5 M; 16, 1, 16: 564.1 M. Checked on
/// positions not tuned on (FFO #20-#39, #50, #51, #60, #61, #63): 1,490.9 M before, 1,459.2 M.
pub const FF_REPLY: i32 = 24;
/// See [`FF_REPLY`].
pub const FF_POTENTIAL: i32 = 4;
/// See [`FF_REPLY`].
pub const FF_PARITY: i32 = 8;

/// Fastest-first value of a move: higher is searched earlier. `player`/`opponent` are the board
/// after the move, from the opponent's view (the opponent is to move). Few replies left to the
/// opponent (and few potential ones), a good square, in an odd quadrant.
#[inline(always)]
pub fn fastest_first(next_player: u64, next_opponent: u64, sq: usize, odd: u64) -> i32 {
    let replies = legal_moves(next_player, next_opponent);
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let empty = !(next_player | next_opponent);
    // Squares next to the mover's discs are where the opponent may later move.
    let potential = (neighbours(next_opponent) & empty).count_ones() as i32;
    let parity = if odd >> sq & 1 != 0 { FF_PARITY } else { 0 };
    let wipeout_hint = if replies == 0 { 64 } else { 0 };
    -FF_REPLY * mobility - FF_POTENTIAL * potential + SQUARE_VALUE[sq] + parity + wipeout_hint
}

/// The floor of [`learned_order`] that bounds nothing: every predicted score is exact.
pub const FULL_FLOOR: i32 = -65 * crate::eval::SCALE;

/// Weight of each reply left to the opponent (corners count twice) against the evaluation,
/// in 1/SCALE discs: fewer replies mean a smaller subtree to refute the move (fastest-first),
/// which matters as much as the predicted score. Checked on FFO #41-#48 (one thread, hash
/// 64 MiB, nodes, shipped weights, the shallow layer ordered by replies): 1.5 discs 560 M,
/// 2 discs 541 M, 2.5 discs 529 M, 3 discs 567 M, 4 discs 778 M.
pub const MOBILITY_WEIGHT: i32 = 5 * crate::eval::SCALE / 2;

/// Ordering value of a move at deep nodes from the learned evaluation: the child's predicted
/// score (after a `depth`-ply search when `depth` > 0), from the mover's view, minus a
/// penalty for the replies it leaves the opponent. Higher is searched earlier. Predicted
/// scores below `floor` (1/SCALE discs) are only bounds: the search of a child stops once it
/// proves the move below it. `nodes` counts the positions the evaluation looked at.
#[inline]
pub fn learned_order(
    weights: &crate::eval::Weights,
    next_player: u64,
    next_opponent: u64,
    depth: u32,
    floor: i32,
    nodes: &mut u64,
) -> i32 {
    learned_order_above(
        weights,
        next_player,
        next_opponent,
        depth,
        floor,
        i32::MIN,
        nodes,
    )
}

/// [`learned_order`] where only a value above `best` (an ordering value, the penalty
/// included) needs to be exact: a value at or below it may be a bound, at most `best` (or the
/// floor). The search's floor is raised to `best` (within the score range, so that the window
/// is never empty). The predicted score is compared with it before the penalty is taken off,
/// so a move whose value comes within its own penalty below `best` is still exact: raising the
/// floor by the penalty too, so that only moves that may beat `best` are exact, saved more on
/// FFO #40-#49 (531.2 M nodes) and #56-#57 (1,469.2 M) but cost FFO #55 6% (7,415.7 M).
#[inline]
pub fn learned_order_above(
    weights: &crate::eval::Weights,
    next_player: u64,
    next_opponent: u64,
    depth: u32,
    floor: i32,
    best: i32,
    nodes: &mut u64,
) -> i32 {
    let replies = legal_moves(next_player, next_opponent);
    if replies == 0 && legal_moves(next_opponent, next_player) == 0 {
        let diff = next_opponent.count_ones() as i32 - next_player.count_ones() as i32;
        return diff * 4096;
    }
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let floor = floor.max(best.min(64 * crate::eval::SCALE));
    let value = match (depth, replies) {
        (0, r) if r != 0 => {
            *nodes += 1;
            let empties = 64 - (next_player | next_opponent).count_ones();
            match weights.set(empties) {
                Some(w) => {
                    let theirs = legal_moves(next_opponent, next_player).count_ones();
                    -crate::eval::evaluate_mobility(
                        w,
                        next_player,
                        next_opponent,
                        r.count_ones(),
                        theirs,
                    )
                }
                None => 0,
            }
        }
        _ => -eval_search::search_moves(
            weights,
            next_player,
            next_opponent,
            replies,
            depth,
            -65 * crate::eval::SCALE,
            -floor,
            nodes,
        ),
    };
    value - MOBILITY_WEIGHT * mobility
}

/// [`learned_order`] at depth 0 from the parent's pattern indices: `swapped` is the parent
/// seen by its opponent (`instance_indices16(opponent, player)`), the move is on `sq` and
/// flips `flips`, `next_player`/`next_opponent` the child. The same value and node count.
#[inline]
pub fn learned_order_played(
    weights: &crate::eval::Weights,
    swapped: &crate::eval::patterns::Indices16,
    sq: usize,
    flips: u64,
    next_player: u64,
    next_opponent: u64,
    nodes: &mut u64,
) -> i32 {
    let replies = legal_moves(next_player, next_opponent);
    let empties = 64 - (next_player | next_opponent).count_ones();
    match weights.set(empties) {
        Some(w) if replies != 0 => {
            *nodes += 1;
            let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            let value = crate::eval::evaluate_played(
                w,
                swapped,
                sq,
                flips,
                next_player,
                next_opponent,
                replies,
            );
            -value - MOBILITY_WEIGHT * mobility
        }
        // A pass, the end of the game or no weights: the plain path.
        _ => learned_order(weights, next_player, next_opponent, 0, FULL_FLOOR, nodes),
    }
}

impl<R: GameRules> Search<'_, R> {
    /// The root's move list in search order: the table's move, then by this search's evaluation
    /// of each child after a `ROOT_SORT_DEPTH`-ply search from `EVAL_ORDER_MIN` empties up
    /// (fastest-first below). The nodes of these evaluation searches are not counted.
    pub(super) fn root_moves(&self, state: &R::State) -> Vec<Move> {
        let board = R::board(state);
        let key = R::key(state);
        let tt_move = self
            .tt
            .deep
            .probe(&key, key.hash())
            .map(|e| e.best)
            .unwrap_or(NO_MOVE);
        let odd = odd_region_squares(board.empty());
        let mut list: Vec<Move> = Bits(R::moves(state))
            .map(|sq| Move::new(sq, R::flips(state, sq)))
            .collect();
        for m in list.iter_mut() {
            let (np, no) = (
                board.opponent ^ m.flips,
                board.player ^ m.flips ^ (1u64 << m.sq),
            );
            m.value = if m.sq == tt_move {
                i32::MAX
            } else if board.empties() >= EVAL_ORDER_MIN {
                let mut nodes = 0;
                learned_order(
                    self.weights,
                    np,
                    no,
                    ROOT_SORT_DEPTH,
                    FULL_FLOOR,
                    &mut nodes,
                )
            } else {
                fastest_first(np, no, m.sq as usize, odd)
            };
        }
        list.sort_by_key(|m| -m.value);
        list
    }

    /// Gives each move of a deep node searched above `alpha` its ordering value: the learned
    /// evaluation from `EVAL_ORDER_MIN` empties up, fastest-first below. Where the evaluation
    /// comes from a search (`eval_order_depth` > 0), the moves are searched in fastest-first
    /// order, each with a floor `SORT_FLOOR_BELOW_ALPHA` below alpha, raised to the best
    /// value found so far ([`learned_order_above`]). Only the first move searched
    /// matters when it cuts, as it mostly does, so only a move that may come before the best
    /// one found needs its exact value; one predicted below it gets a bound (its search stops
    /// at the first refutation) and is searched after it whatever that bound. The best move
    /// and its value are those of full searches. (One thread, nodes with the evaluation's
    /// own, against the floor fixed at alpha - 16: FFO #56-#57 1,612.9 M -> 1,507.6 M, FFO
    /// #55 6,993.9 M -> 6,792.8 M, FFO #40-#49 544.8 M -> 537.8 M with the floor raised to the
    /// best value itself; more variants in docs/performance.md, 2026-12-03 late night.)
    pub(super) fn order(&mut self, board: Board, list: &mut [Move], empties: u32, alpha: i32) {
        let odd = odd_region_squares(board.empty());
        let child = |m: &Move| {
            (
                board.opponent ^ m.flips,
                board.player ^ m.flips ^ (1u64 << m.sq),
            )
        };
        if empties < EVAL_ORDER_MIN {
            for m in list.iter_mut() {
                let (np, no) = child(m);
                m.value = fastest_first(np, no, m.sq as usize, odd);
            }
            return;
        }
        let depth = eval_order_depth(empties);
        if depth == 0 {
            // Every child is evaluated: their indices come from this node's.
            let swapped = crate::eval::patterns::instance_indices16(board.opponent, board.player);
            for m in list.iter_mut() {
                let (np, no) = child(m);
                let (sq, flips) = (m.sq as usize, m.flips);
                m.value = learned_order_played(
                    self.weights,
                    &swapped,
                    sq,
                    flips,
                    np,
                    no,
                    &mut self.nodes,
                );
            }
            return;
        }
        for m in list.iter_mut() {
            let (np, no) = child(m);
            m.value = fastest_first(np, no, m.sq as usize, odd);
        }
        list.sort_by_key(|m| -m.value);
        let floor = ((alpha - SORT_FLOOR_BELOW_ALPHA).max(-65)) * crate::eval::SCALE;
        let mut best = i32::MIN;
        for m in list.iter_mut() {
            let (np, no) = child(m);
            let (weights, nodes) = (self.weights, &mut self.nodes);
            m.value = learned_order_above(weights, np, no, depth, floor, best, nodes);
            best = best.max(m.value);
            // The ordering searches of one node can cost far more nodes than the budget's
            // charging interval (a 6-ply search per move): the budget is charged between
            // them, so a node limit is seen within one of them. A stopped search's values
            // are never used.
            if self.stopped() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{random_position, Rng};

    /// What the rising floor may change: only the values of moves below the best one. The
    /// best value and the first move holding it are those of full ordering searches (the
    /// floor fixed at alpha - `SORT_FLOOR_BELOW_ALPHA`, not raised), and every other value
    /// is its full value or a bound at or below the best. Fails if the floor rose so far
    /// above the best value that a better move got a bound (a floor 40 discs too high does;
    /// one a few discs too high can pass, within the moves' mobility penalties) or if a value
    /// were not its move's.
    #[test]
    fn a_rising_floor_keeps_the_best_move_and_its_value() {
        use super::super::node::Cancel;
        use super::super::tt::Tables;
        use crate::board::rules::{Official, OthelloRules};
        let tables = Tables::new(1).unwrap();
        let stop = Cancel::root();
        let mut search = Search::<OthelloRules<Official>>::new(&tables, &stop, u32::MAX);
        let weights = search.weights;
        let scale = crate::eval::SCALE;
        let mut rng = Rng(4242);
        let (mut bounded, mut checked, mut nodes_full, mut nodes_rising) = (0, 0, 0u64, 0u64);
        for i in 0..80 {
            let empties = EVAL_ORDER_MIN + 4 + i % 10;
            let board = random_position(&mut rng, empties).board;
            let moves = board.moves();
            if moves.count_ones() < 2 {
                continue;
            }
            let alpha = -20 + (i as i32 % 5) * 10;
            let mut list: Vec<Move> = Bits(moves)
                .map(|sq| Move::new(sq, crate::board::flips(board.player, board.opponent, sq)))
                .collect();
            let before = search.nodes;
            search.order(board, &mut list, empties, alpha);
            nodes_rising += search.nodes - before;
            let depth = eval_order_depth(empties);
            let base_floor = ((alpha - SORT_FLOOR_BELOW_ALPHA).max(-65)) * scale;
            let values = |floor: i32, nodes: &mut u64| -> Vec<i32> {
                list.iter()
                    .map(|m| {
                        let (np, no) = (
                            board.opponent ^ m.flips,
                            board.player ^ m.flips ^ (1u64 << m.sq),
                        );
                        learned_order(weights, np, no, depth, floor, nodes)
                    })
                    .collect()
            };
            let fixed = values(base_floor, &mut nodes_full);
            let exact = values(FULL_FLOOR, &mut 0);
            let rising: Vec<i32> = list.iter().map(|m| m.value).collect();
            let best = *fixed.iter().max().unwrap();
            let top = *rising.iter().max().unwrap();
            for ((&r, &f), &e) in rising.iter().zip(&fixed).zip(&exact) {
                // Every value is its move's full value or an upper bound of it (fail-soft).
                assert!(e <= r, "{board:?} alpha {alpha}: {r} for {e}");
                if r != f {
                    bounded += 1;
                    assert!(r <= top, "{board:?} alpha {alpha}: {r} above {top}");
                }
            }
            let holder = fixed.iter().position(|&v| v == best).unwrap();
            if exact[holder] == best {
                // The best move is predicted above the floor: the same value, and the first
                // move holding it (the one searched first) is the same.
                checked += 1;
                assert_eq!(top, best, "{board:?} alpha {alpha}");
                let first = rising.iter().position(|&v| v == top).unwrap();
                assert_eq!(fixed[first], best, "{board:?} alpha {alpha}");
                assert_eq!(exact[first], best, "{board:?} alpha {alpha}");
            }
        }
        assert!(
            bounded > 20 && checked > 40,
            "{bounded} values bounded, {checked} best moves checked"
        );
        assert!(
            nodes_rising < nodes_full,
            "{nodes_rising} nodes with the rising floor, {nodes_full} without"
        );
    }

    #[test]
    fn a_floor_bounds_only_the_moves_predicted_below_it() {
        // Above the floor the ordering value is the full search's; at or below it, a bound
        // between the full value and the floor (the mobility penalty is the same in both).
        let weights = crate::eval::builtin();
        let scale = crate::eval::SCALE;
        let mut rng = Rng(2424);
        let (mut exact, mut bounded) = (0, 0);
        for i in 0..60 {
            let p = random_position(&mut rng, 20 + i % 6);
            let board = p.board;
            for sq in Bits(board.moves()) {
                let f = crate::board::flips(board.player, board.opponent, sq);
                let (np, no) = (board.opponent ^ f, board.player ^ f ^ (1u64 << sq));
                let replies = legal_moves(np, no);
                let penalty = MOBILITY_WEIGHT
                    * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                for depth in [2, 3, 4] {
                    let mut nodes = 0;
                    let full = learned_order(weights, np, no, depth, FULL_FLOOR, &mut nodes);
                    for floor in [-20, 0, 10] {
                        let floor = floor * scale;
                        let v = learned_order(weights, np, no, depth, floor, &mut nodes);
                        if full + penalty > floor {
                            assert_eq!(v, full, "{board:?} move {sq} depth {depth} floor {floor}");
                            exact += 1;
                        } else {
                            assert!(
                                full <= v && v + penalty <= floor,
                                "{board:?} move {sq}: {v} for {full} under floor {floor}"
                            );
                            bounded += 1;
                        }
                    }
                }
            }
        }
        assert!(
            exact > 100 && bounded > 100,
            "{exact} exact, {bounded} bounded"
        );
    }
}
