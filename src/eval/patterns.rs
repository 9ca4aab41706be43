//! Board patterns of the evaluation: which squares each pattern reads, how its instances are
//! found on the board (one base orientation plus the images under the square's symmetries),
//! and the ternary index of an instance (0 empty, 1 the side to move, 2 the opponent per
//! square). Knows nothing of weights or training.

use crate::board::{flip_diagonal, flip_horizontal, flip_vertical, symmetry};

/// One kind of pattern: its squares in its base orientation, read by `gather`.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Short name for reports.
    pub name: &'static str,
    /// Number of squares.
    pub size: u32,
}

/// The pattern kinds, in table order.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "row2",
        size: 8,
    },
    Pattern {
        name: "row3",
        size: 8,
    },
    Pattern {
        name: "row4",
        size: 8,
    },
    Pattern {
        name: "diag8",
        size: 8,
    },
    Pattern {
        name: "diag7",
        size: 7,
    },
    Pattern {
        name: "diag6",
        size: 6,
    },
    Pattern {
        name: "diag5",
        size: 5,
    },
    Pattern {
        name: "diag4",
        size: 4,
    },
    Pattern {
        name: "edge+2x",
        size: 10,
    },
    Pattern {
        name: "corner3x3",
        size: 9,
    },
    Pattern {
        name: "corner2x5",
        size: 10,
    },
];

const ALL_ONES_BYTES: u64 = 0x0101_0101_0101_0101;

/// Squares `(r, r + offset)` of the diagonal parallel to a1-h8, as a mask.
const fn diagonal_mask(offset: u32) -> u64 {
    let mut mask = 0u64;
    let mut r = 0;
    while r + offset < 8 {
        mask |= 1u64 << (9 * r + offset);
        r += 1;
    }
    mask
}

const DIAGONALS: [u64; 5] = [
    diagonal_mask(0),
    diagonal_mask(1),
    diagonal_mask(2),
    diagonal_mask(3),
    diagonal_mask(4),
];

/// The squares of pattern `kind` (base orientation) as the low bits of the result, square `i`
/// of the pattern in bit `i`. The multiplications move each diagonal square to its own bit of
/// the top byte without carries (all partial products land on distinct bits).
#[inline(always)]
pub fn gather(kind: usize, b: u64) -> u32 {
    (match kind {
        0 => (b >> 8) & 0xff,
        1 => (b >> 16) & 0xff,
        2 => (b >> 24) & 0xff,
        3 => (b & DIAGONALS[0]).wrapping_mul(ALL_ONES_BYTES) >> 56,
        4 => (b & DIAGONALS[1]).wrapping_mul(ALL_ONES_BYTES) >> 57,
        5 => (b & DIAGONALS[2]).wrapping_mul(ALL_ONES_BYTES) >> 58,
        6 => (b & DIAGONALS[3]).wrapping_mul(ALL_ONES_BYTES) >> 59,
        7 => (b & DIAGONALS[4]).wrapping_mul(ALL_ONES_BYTES) >> 60,
        // a1..h1, then b2 and g2.
        8 => (b & 0xff) | ((b >> 1) & 0x100) | ((b >> 5) & 0x200),
        // a1 b1 c1, a2 b2 c2, a3 b3 c3.
        9 => (b & 7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1c0),
        // a1..e1, a2..e2.
        _ => (b & 0x1f) | ((b >> 3) & 0x3e0),
    }) as u32
}

/// Instances on the board: (pattern kind, symmetry) pairs. Symmetry `k` is
/// `board::symmetry(_, k)`: the instance reads the base squares of the transformed board.
/// Images that cover the same squares as an earlier one are left out (`instances()` derives
/// this list and a test checks it).
pub const INSTANCES: [(u8, u8); 46] = [
    (0, 0),
    (0, 1),
    (0, 4),
    (0, 6),
    (1, 0),
    (1, 1),
    (1, 4),
    (1, 6),
    (2, 0),
    (2, 1),
    (2, 4),
    (2, 6),
    (3, 0),
    (3, 1),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 3),
    (5, 0),
    (5, 1),
    (5, 2),
    (5, 3),
    (6, 0),
    (6, 1),
    (6, 2),
    (6, 3),
    (7, 0),
    (7, 1),
    (7, 2),
    (7, 3),
    (8, 0),
    (8, 1),
    (8, 4),
    (8, 6),
    (9, 0),
    (9, 1),
    (9, 2),
    (9, 3),
    (10, 0),
    (10, 1),
    (10, 2),
    (10, 3),
    (10, 4),
    (10, 5),
    (10, 6),
    (10, 7),
];

/// The squares (board indices) of pattern `kind` in its base orientation, in pattern order.
pub fn base_squares(kind: usize) -> Vec<usize> {
    let mut squares = vec![usize::MAX; PATTERNS[kind].size as usize];
    for sq in 0..64 {
        let g = gather(kind, 1u64 << sq);
        if g != 0 {
            squares[g.trailing_zeros() as usize] = sq;
        }
    }
    squares
}

/// The (kind, symmetry) instances with distinct square sets, derived from the symmetries.
pub fn instances() -> Vec<(u8, u8)> {
    let mut list = Vec::new();
    for (kind, _) in PATTERNS.iter().enumerate() {
        let mut seen: Vec<u64> = Vec::new();
        for k in 0..8 {
            // Square s of the real board is read when its image under symmetry k is a base square.
            let covered = (0..64)
                .filter(|&s| gather(kind, symmetry(1u64 << s, k)) != 0)
                .fold(0u64, |m, s| m | 1u64 << s);
            if !seen.contains(&covered) {
                seen.push(covered);
                list.push((kind as u8, k as u8));
            }
        }
    }
    list
}

/// Base-3 value of a bit pattern: bit `i` contributes 3^i.
const fn ternary_table() -> [u32; 1024] {
    let mut t = [0u32; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut value = 0;
        let mut power = 1;
        let mut i = 0;
        while i < 10 {
            if bits >> i & 1 != 0 {
                value += power;
            }
            power *= 3;
            i += 1;
        }
        t[bits] = value;
        bits += 1;
    }
    t
}

/// `TERNARY[bits]`: the base-3 number whose digits are the bits.
pub static TERNARY: [u32; 1024] = ternary_table();

/// The eight symmetric images of a bitboard, indexed like `board::symmetry`.
#[inline(always)]
pub fn images(b: u64) -> [u64; 8] {
    let v = flip_vertical(b);
    let h = flip_horizontal(b);
    let vh = flip_horizontal(v);
    [
        b,
        v,
        h,
        vh,
        flip_diagonal(b),
        flip_diagonal(v),
        flip_diagonal(h),
        flip_diagonal(vh),
    ]
}

/// Ternary index of every instance (in `INSTANCES` order) for the side to move `player`.
#[inline]
pub fn instance_indices(player: u64, opponent: u64) -> [u32; 46] {
    let p = images(player);
    let o = images(opponent);
    let mut out = [0u32; 46];
    for (slot, &(kind, k)) in out.iter_mut().zip(INSTANCES.iter()) {
        let (kind, k) = (kind as usize, k as usize);
        *slot = TERNARY[gather(kind, p[k]) as usize] + 2 * TERNARY[gather(kind, o[k]) as usize];
    }
    out
}

/// The same indices computed square by square: the portable reference the tests compare
/// `instance_indices` against.
pub fn instance_indices_reference(player: u64, opponent: u64) -> Vec<u32> {
    INSTANCES
        .iter()
        .map(|&(kind, k)| {
            let (p, o) = (symmetry(player, k as usize), symmetry(opponent, k as usize));
            base_squares(kind as usize)
                .iter()
                .rev()
                .fold(0u32, |index, &sq| {
                    let cell = if p >> sq & 1 != 0 {
                        1
                    } else if o >> sq & 1 != 0 {
                        2
                    } else {
                        0
                    };
                    index * 3 + cell
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::Rng;

    #[test]
    fn gathers_are_one_to_one_on_their_squares() {
        for (kind, pattern) in PATTERNS.iter().enumerate() {
            let squares = base_squares(kind);
            assert!(squares.iter().all(|&s| s < 64), "{}", pattern.name);
            let mask = squares.iter().fold(0u64, |m, &s| m | 1u64 << s);
            assert_eq!(mask.count_ones(), pattern.size, "{}", pattern.name);
            assert_eq!(gather(kind, mask), (1u32 << pattern.size) - 1);
            assert_eq!(gather(kind, !mask), 0, "{} reads outside", pattern.name);
        }
        assert_eq!(base_squares(3), vec![0, 9, 18, 27, 36, 45, 54, 63]);
        assert_eq!(base_squares(8), vec![0, 1, 2, 3, 4, 5, 6, 7, 9, 14]);
        assert_eq!(base_squares(10), vec![0, 1, 2, 3, 4, 8, 9, 10, 11, 12]);
    }

    #[test]
    fn instance_list_is_the_distinct_images() {
        assert_eq!(instances(), INSTANCES.to_vec());
        // Every square is read by some instance; corners by the most.
        let mut reads = [0u32; 64];
        for &(kind, k) in INSTANCES.iter() {
            for (s, count) in reads.iter_mut().enumerate() {
                if gather(kind as usize, symmetry(1u64 << s, k as usize)) != 0 {
                    *count += 1;
                }
            }
        }
        assert!(reads.iter().all(|&r| r > 0));
        // diag8, two edges, the 3x3 block and two 2x5 blocks.
        assert_eq!(reads[0], 6);
    }

    #[test]
    fn fast_indices_match_the_reference() {
        let mut rng = Rng(0x1234_5678);
        for _ in 0..2000 {
            let (p, o) = rng.board();
            assert_eq!(
                instance_indices(p, o).to_vec(),
                instance_indices_reference(p, o)
            );
        }
        // Start position: row 4 (d4 white, e4 black) seen by black to move.
        let indices = instance_indices(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert_eq!(indices[8], 3u32.pow(3) * 2 + 3u32.pow(4));
    }
}
