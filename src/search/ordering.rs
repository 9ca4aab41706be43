//! Move ordering: which child to search first. Near the leaves it is parity (play into regions
//! with an odd number of empties first) and a fixed square preference; deeper it is
//! fastest-first (leave the opponent the fewest replies), corners, potential mobility and the
//! transposition table's move.

use crate::board::{flips, legal_moves, neighbours, Bits};

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Squares diagonally next to a corner: giving the opponent the corner is usually fatal.
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// Edge squares next to a corner.
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;

/// Square classes in the order shallow searches try them: corners, edge squares two away from a
/// corner, middle edge squares, inner squares, then C and X squares.
pub const SQUARE_CLASSES: [u64; 6] = [
    CORNERS,
    0x2400_8100_0081_0024,
    0x1800_0081_8100_0018,
    !(CORNERS | X_SQUARES | C_SQUARES | 0x2400_8100_0081_0024 | 0x1800_0081_8100_0018),
    C_SQUARES,
    X_SQUARES,
];

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

/// Fastest-first value of a move: higher is searched earlier. `player`/`opponent` are the board
/// after the move, from the opponent's view (the opponent is to move).
#[inline(always)]
pub fn fastest_first(next_player: u64, next_opponent: u64, sq: usize, odd: u64) -> i32 {
    let replies = legal_moves(next_player, next_opponent);
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let empty = !(next_player | next_opponent);
    // Squares next to the mover's discs are where the opponent may later move.
    let potential = (neighbours(next_opponent) & empty).count_ones() as i32;
    let parity = if odd >> sq & 1 != 0 { 2 } else { 0 };
    let wipeout_hint = if replies == 0 { 64 } else { 0 };
    -(mobility << 4) - potential + SQUARE_VALUE[sq] + parity + wipeout_hint
}

/// A rough static evaluation for ordering only: mobility, corners and frontier, from the side
/// to move's view. Not a score prediction.
#[inline]
pub fn static_eval(player: u64, opponent: u64) -> i32 {
    let mine = legal_moves(player, opponent);
    let theirs = legal_moves(opponent, player);
    let empty = !(player | opponent);
    let mobility = (mine.count_ones() + (mine & CORNERS).count_ones()) as i32
        - (theirs.count_ones() + (theirs & CORNERS).count_ones()) as i32;
    let corners = (player & CORNERS).count_ones() as i32 - (opponent & CORNERS).count_ones() as i32;
    // Discs next to empty squares give the other side moves later.
    let frontier = (neighbours(empty) & opponent).count_ones() as i32
        - (neighbours(empty) & player).count_ones() as i32;
    8 * mobility + 16 * corners + frontier
}

/// Negamax of `static_eval` to `depth` plies with alpha-beta: the ordering value of a child
/// at deep nodes. Counts its nodes in `nodes`.
pub fn eval_search(
    player: u64,
    opponent: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return static_eval(player, opponent);
    }
    let moves = legal_moves(player, opponent);
    if moves == 0 {
        if legal_moves(opponent, player) == 0 {
            let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
            return diff * 64;
        }
        return -eval_search(opponent, player, depth, -beta, -alpha, nodes);
    }
    let mut best = i32::MIN + 1;
    for sq in Bits(moves) {
        let f = flips(player, opponent, sq);
        let v = -eval_search(
            opponent ^ f,
            player ^ f ^ (1u64 << sq),
            depth - 1,
            -beta,
            -alpha,
            nodes,
        );
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

    #[test]
    fn classes_partition_the_board() {
        let mut all = 0u64;
        for c in SQUARE_CLASSES {
            assert_eq!(all & c, 0);
            all |= c;
        }
        assert_eq!(all, !0);
    }

    #[test]
    fn quadrants_are_found() {
        assert_eq!(quadrant_of(0), QUADRANTS[0]);
        assert_eq!(quadrant_of(7), QUADRANTS[1]);
        assert_eq!(quadrant_of(56), QUADRANTS[2]);
        assert_eq!(quadrant_of(63), QUADRANTS[3]);
        for sq in 0..64 {
            assert_ne!(quadrant_of(sq) >> sq & 1, 0);
        }
    }

    #[test]
    fn odd_regions() {
        // a1 alone in its quadrant, b1+c1 even in theirs
        let empty = 1u64 | (1 << 1) | (1 << 2) | (1 << 63);
        assert_eq!(odd_region_squares(empty), empty);
        let empty = (1u64 << 1) | (1 << 2);
        assert_eq!(odd_region_squares(empty), 0);
    }
}
