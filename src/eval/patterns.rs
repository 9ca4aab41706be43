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

/// Ternary index of every instance (in `INSTANCES` order) for the side to move `player`: the
/// bit-extraction path ([`instance_indices_extracted`] with BMI2 `pext`) where the build has
/// BMI2, else [`instance_indices_portable`]. Both give the same indices.
#[inline(always)]
pub fn instance_indices(player: u64, opponent: u64) -> [u32; 46] {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "bmi2"
    ))]
    {
        instance_indices_extracted(player, opponent, crate::cpu::pext_bmi2)
    }
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "bmi2"
    )))]
    {
        instance_indices_portable(player, opponent)
    }
}

/// [`instance_indices`] from the eight images of both bitboards and one gather per instance,
/// in plain integer code: the portable twin the extraction path is tested against.
#[inline]
pub fn instance_indices_portable(player: u64, opponent: u64) -> [u32; 46] {
    let p = images(player);
    let o = images(opponent);
    let mut out = [0u32; 46];
    for (slot, &(kind, k)) in out.iter_mut().zip(INSTANCES.iter()) {
        let (kind, k) = (kind as usize, k as usize);
        *slot = TERNARY[gather(kind, p[k]) as usize] + 2 * TERNARY[gather(kind, o[k]) as usize];
    }
    out
}

/// One of the four views of a board the extraction path reads instances from. Every
/// instance's squares, read in increasing square order in one of these views, come out in
/// pattern order or exactly reversed, so one bit extraction and one table look-up per colour
/// give its ternary index (no view needs the costly left-right mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The board itself.
    Board,
    /// Mirrored top to bottom (`flip_vertical`, one byte swap).
    Vertical,
    /// Mirrored in the a1-h8 diagonal (`flip_diagonal`).
    Transposed,
    /// Transposed, then mirrored top to bottom.
    TransposedVertical,
}

/// How the extraction path reads one instance: the view, the view's squares it covers, and
/// whether increasing square order is the pattern's order reversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extraction {
    /// Which view of the board holds the instance in a straight order.
    pub view: View,
    /// The instance's squares in that view.
    pub mask: u64,
    /// Whether the lowest square of `mask` is the pattern's last square, not its first.
    pub reversed: bool,
}

const fn straight(view: View, mask: u64) -> Extraction {
    Extraction {
        view,
        mask,
        reversed: false,
    }
}

const fn backwards(view: View, mask: u64) -> Extraction {
    Extraction {
        view,
        mask,
        reversed: true,
    }
}

/// The extraction of every instance, in `INSTANCES` order. Worked out by hand from the
/// symmetries (a vertical mirror turns symmetry `k` into `k ^ 1`; symmetries 4..8 are the
/// transposed board's 0, 2, 1, 3) and checked square by square against `gather` and
/// `symmetry` by the test `extractions_read_the_instance_squares`.
pub const EXTRACTIONS: [Extraction; 46] = {
    use View::*;
    const DIAG8: u64 = 0x8040_2010_0804_0201;
    const DIAG7: u64 = 0x0080_4020_1008_0402;
    const ANTI7: u64 = 0x0001_0204_0810_2040;
    const DIAG6: u64 = 0x0000_8040_2010_0804;
    const ANTI6: u64 = 0x0000_0102_0408_1020;
    const DIAG5: u64 = 0x0000_0080_4020_1008;
    const ANTI5: u64 = 0x0000_0001_0204_0810;
    const DIAG4: u64 = 0x0000_0000_8040_2010;
    const ANTI4: u64 = 0x0000_0000_0102_0408;
    const EDGE_2X: u64 = 0x42ff;
    const CORNER_3X3: u64 = 0x07_0707;
    const CORNER_3X3_FAR: u64 = 0xe0e0_e000_0000_0000;
    const CORNER_2X5: u64 = 0x1f1f;
    const CORNER_2X5_FAR: u64 = 0xf8f8_0000_0000_0000;
    const fn row(r: u32) -> u64 {
        0xffu64 << (8 * r)
    }
    [
        straight(Board, row(1)),
        straight(Board, row(6)),
        straight(Transposed, row(1)),
        straight(Transposed, row(6)),
        straight(Board, row(2)),
        straight(Board, row(5)),
        straight(Transposed, row(2)),
        straight(Transposed, row(5)),
        straight(Board, row(3)),
        straight(Board, row(4)),
        straight(Transposed, row(3)),
        straight(Transposed, row(4)),
        straight(Board, DIAG8),
        straight(Vertical, DIAG8),
        straight(Board, DIAG7),
        straight(Vertical, DIAG7),
        straight(Board, ANTI7),
        straight(Vertical, ANTI7),
        straight(Board, DIAG6),
        straight(Vertical, DIAG6),
        straight(Board, ANTI6),
        straight(Vertical, ANTI6),
        straight(Board, DIAG5),
        straight(Vertical, DIAG5),
        straight(Board, ANTI5),
        straight(Vertical, ANTI5),
        straight(Board, DIAG4),
        straight(Vertical, DIAG4),
        straight(Board, ANTI4),
        straight(Vertical, ANTI4),
        straight(Board, EDGE_2X),
        straight(Vertical, EDGE_2X),
        straight(Transposed, EDGE_2X),
        straight(TransposedVertical, EDGE_2X),
        straight(Board, CORNER_3X3),
        straight(Vertical, CORNER_3X3),
        backwards(Vertical, CORNER_3X3_FAR),
        backwards(Board, CORNER_3X3_FAR),
        straight(Board, CORNER_2X5),
        straight(Vertical, CORNER_2X5),
        backwards(Vertical, CORNER_2X5_FAR),
        backwards(Board, CORNER_2X5_FAR),
        straight(Transposed, CORNER_2X5),
        backwards(TransposedVertical, CORNER_2X5_FAR),
        straight(TransposedVertical, CORNER_2X5),
        backwards(Transposed, CORNER_2X5_FAR),
    ]
};

/// The four views of a bitboard, indexed by `View as usize`.
#[inline(always)]
pub fn views(b: u64) -> [u64; 4] {
    let t = flip_diagonal(b);
    [b, flip_vertical(b), t, flip_vertical(t)]
}

/// Lanes of [`Indices16`]: the 46 instances and two unused lanes, so that a row is three
/// 32-byte vectors.
pub const LANES: usize = 48;

/// The ternary index of every instance (in `INSTANCES` order) as 16-bit lanes (the largest
/// index, 3^10 - 1, fits), the last two lanes 0: the form the incremental update adds whole
/// rows of [`SQUARE_DIGITS`] to.
pub type Indices16 = [u16; LANES];

/// Square `sq` of the board in view `view` (where `views` moves its bit).
const fn view_square(view: View, sq: u32) -> u32 {
    let transposed = (sq % 8) * 8 + sq / 8;
    match view {
        View::Board => sq,
        View::Vertical => sq ^ 56,
        View::Transposed => transposed,
        View::TransposedVertical => transposed ^ 56,
    }
}

/// `digits(m)[s][i]`: `m` times the weight 3^d of square `s`'s digit `d` in instance `i`, 0
/// when instance `i` does not read `s`. From `EXTRACTIONS`: an instance's squares, in
/// increasing order in its view, are its digits in order (or reversed).
const fn square_digits(multiple: u16) -> [[u16; LANES]; 64] {
    let mut table = [[0u16; LANES]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 46 {
            let e = EXTRACTIONS[i];
            let t = view_square(e.view, sq as u32);
            if e.mask >> t & 1 != 0 {
                let rank = (e.mask & ((1u64 << t) - 1)).count_ones();
                let digit = if e.reversed {
                    e.mask.count_ones() - 1 - rank
                } else {
                    rank
                };
                table[sq][i] = multiple * 3u16.pow(digit);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// `SQUARE_DIGITS[s][i]`: what a disc of the side to move on square `s` adds to instance
/// `i`'s index (3^digit, or 0 when the instance does not read `s`). A disc of the opponent
/// adds twice as much.
pub static SQUARE_DIGITS: [[u16; LANES]; 64] = square_digits(1);
/// `SQUARE_DIGITS` doubled: what an opponent disc on an empty square adds.
static SQUARE_DIGITS_2: [[u16; LANES]; 64] = square_digits(2);

/// [`instance_indices`] in 16-bit lanes.
#[inline(always)]
pub fn instance_indices16(player: u64, opponent: u64) -> Indices16 {
    let wide = instance_indices(player, opponent);
    let mut out = [0u16; LANES];
    for (slot, &index) in out.iter_mut().zip(wide.iter()) {
        *slot = index as u16;
    }
    out
}

#[inline(always)]
fn add_row(indices: &mut Indices16, row: &[u16; LANES]) {
    for (slot, &add) in indices.iter_mut().zip(row.iter()) {
        *slot = slot.wrapping_add(add);
    }
}

/// The indices of a child from those of its parent, without looking at the board: `swapped`
/// is the parent seen by the side not to move (`instance_indices16(opponent, player)`), the
/// child's side to move; the mover's disc on `sq` and the `flips` it turns become that side's
/// opponent discs (digit 0 -> 2 and 1 -> 2). One row added per changed square, where the
/// full computation reads all 46 instances from both colours.
#[inline(always)]
pub fn played_indices16(swapped: &Indices16, sq: usize, flips: u64) -> Indices16 {
    let mut out = *swapped;
    add_row(&mut out, &SQUARE_DIGITS_2[sq]);
    for s in crate::board::Bits(flips) {
        add_row(&mut out, &SQUARE_DIGITS[s]);
    }
    out
}

/// `TERNARY` in 16 bits (the largest value, 3^10 / 2, fits), half the cache lines.
static TERNARY16: [u16; 1024] = {
    let wide = ternary_table();
    let mut t = [0u16; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = wide[i] as u16;
        i += 1;
    }
    t
};

/// `TERNARY_REVERSED[bits]`: bit `i` contributes 3^(9 - i). For `n` bits read backwards,
/// `TERNARY_REVERSED[bits << (10 - n)]` is their base-3 value with the digits reversed.
static TERNARY_REVERSED: [u16; 1024] = {
    let wide = ternary_table();
    let mut t = [0u16; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = wide[(i as u32).reverse_bits() as usize >> 22] as u16;
        i += 1;
    }
    t
};

/// Bits of `b` under `mask`, in square order, in plain integer code: what BMI2 `pext` does.
/// Lets the tests check the extraction layout on any machine.
pub fn pext_portable(b: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        if b & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// Ternary index of one instance from the views of both colours. `e` is a constant where
/// this is inlined, so the branches fold away: a run of squares inside one row is a shift and
/// a mask, any other shape one extraction.
#[inline(always)]
fn extracted_index(
    e: Extraction,
    player: &[u64; 4],
    opponent: &[u64; 4],
    extract: &impl Fn(u64, u64) -> u64,
) -> u32 {
    let (p, o) = (player[e.view as usize], opponent[e.view as usize]);
    let shift = e.mask.trailing_zeros();
    let run = e.mask >> shift;
    let (p_bits, o_bits) = if run & (run + 1) == 0 {
        ((p >> shift) & run, (o >> shift) & run)
    } else {
        (extract(p, e.mask), extract(o, e.mask))
    };
    let (table, up) = if e.reversed {
        (&TERNARY_REVERSED, 10 - e.mask.count_ones())
    } else {
        (&TERNARY16, 0)
    };
    // The masks keep the look-ups in range without a bounds check; they never drop a bit.
    u32::from(table[((p_bits << up) & 1023) as usize])
        + 2 * u32::from(table[((o_bits << up) & 1023) as usize])
}

/// [`instance_indices`] by bit extraction: each instance's squares taken from one view with
/// `extract` (BMI2 `pext`, or [`pext_portable`] in tests), then one table look-up per colour.
#[inline(always)]
pub fn instance_indices_extracted(
    player: u64,
    opponent: u64,
    extract: impl Fn(u64, u64) -> u64,
) -> [u32; 46] {
    let mut out = [0u32; 46];
    fold_extracted(player, opponent, extract, (), |(), i, index| out[i] = index);
    out
}

/// `f(acc, i, index)` folded over the instances `i` in `INSTANCES` order with their ternary
/// indices, by bit extraction as [`instance_indices_extracted`]. The evaluation sums its
/// weights this way: each index goes straight into its look-up, no array in between.
#[inline(always)]
pub fn fold_extracted<A>(
    player: u64,
    opponent: u64,
    extract: impl Fn(u64, u64) -> u64,
    init: A,
    mut f: impl FnMut(A, usize, u32) -> A,
) -> A {
    let (p, o) = (views(player), views(opponent));
    let mut acc = init;
    // Written out so that every extraction is a constant (a loop might not be unrolled).
    macro_rules! unrolled {
        ($($i:literal)*) => {
            $(acc = f(acc, $i, extracted_index(EXTRACTIONS[$i], &p, &o, &extract));)*
        };
    }
    unrolled!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
        33 34 35 36 37 38 39 40 41 42 43 44 45
    );
    acc
}

/// `f(acc, i, index)` folded over the instances in `INSTANCES` order with their ternary
/// indices: [`fold_extracted`] with BMI2 `pext` where the build has BMI2, else over
/// [`instance_indices_portable`].
#[inline(always)]
pub fn fold_instance_indices<A>(
    player: u64,
    opponent: u64,
    init: A,
    f: impl FnMut(A, usize, u32) -> A,
) -> A {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "bmi2"
    ))]
    {
        fold_extracted(player, opponent, crate::cpu::pext_bmi2, init, f)
    }
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "bmi2"
    )))]
    {
        let mut f = f;
        let indices = instance_indices_portable(player, opponent);
        indices
            .iter()
            .enumerate()
            .fold(init, |acc, (i, &index)| f(acc, i, index))
    }
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

    #[test]
    fn extractions_read_the_instance_squares() {
        for (i, (&(kind, k), e)) in INSTANCES.iter().zip(EXTRACTIONS.iter()).enumerate() {
            // (square in the view, pattern digit) of every square the instance reads.
            let mut read: Vec<(u32, u32)> = (0..64)
                .filter_map(|s| {
                    let g = gather(kind as usize, symmetry(1u64 << s, k as usize));
                    (g != 0).then(|| {
                        let in_view = views(1u64 << s)[e.view as usize];
                        (in_view.trailing_zeros(), g.trailing_zeros())
                    })
                })
                .collect();
            read.sort_unstable();
            let mask = read.iter().fold(0u64, |m, &(s, _)| m | 1u64 << s);
            assert_eq!(mask, e.mask, "instance {i} ({kind}, {k})");
            let digits: Vec<u32> = read.iter().map(|&(_, d)| d).collect();
            let mut order: Vec<u32> = (0..PATTERNS[kind as usize].size).collect();
            if e.reversed {
                order.reverse();
            }
            assert_eq!(digits, order, "instance {i} ({kind}, {k})");
        }
        assert_eq!(TERNARY_REVERSED[1 << 9], 1);
        assert_eq!(TERNARY_REVERSED[1], 3u32.pow(9) as u16);
        assert_eq!(TERNARY16[1023], (3u32.pow(10) / 2) as u16);
    }

    #[test]
    fn portable_extraction_matches_pext() {
        assert_eq!(pext_portable(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(pext_portable(u64::MAX, 0x8000_0000_0000_0001), 0b11);
        assert_eq!(
            pext_portable(0x8000_0000_0000_0000, 0x8040_2010_0804_0201),
            0x80
        );
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx2",
            target_feature = "bmi2"
        ))]
        {
            let mut rng = Rng(0xB312);
            for _ in 0..100_000 {
                let (x, mask) = (rng.next_u64(), rng.next_u64() & rng.next_u64());
                assert_eq!(
                    crate::cpu::pext_bmi2(x, mask),
                    pext_portable(x, mask),
                    "{x:#x} {mask:#x}"
                );
            }
        }
    }

    /// The incremental update gives the reference indices of the child on random positions
    /// of every empties count, for every legal move (and the 16-bit form of the full
    /// computation equals the reference too).
    #[test]
    fn played_indices_match_the_reference_on_random_moves() {
        let mut rng = Rng(0x1DC5_0017);
        let mut moves_checked = 0u32;
        for n in 0..20_000u32 {
            let b = crate::board::random::random_position(&mut rng, 1 + n % 60).board;
            let (p, o) = (b.player, b.opponent);
            let swapped = instance_indices16(o, p);
            let widen = |x: &Indices16| x[..46].iter().map(|&v| u32::from(v)).collect::<Vec<_>>();
            assert_eq!(widen(&swapped), instance_indices_reference(o, p));
            assert_eq!(swapped[46..], [0, 0]);
            for sq in crate::board::Bits(crate::board::legal_moves(p, o)) {
                let f = crate::board::flips(p, o, sq);
                let (cp, co) = (o ^ f, p ^ f ^ (1u64 << sq));
                let child = played_indices16(&swapped, sq, f);
                assert_eq!(
                    widen(&child),
                    instance_indices_reference(cp, co),
                    "{p:#x} {o:#x} {sq}"
                );
                assert_eq!(child[46..], [0, 0]);
                moves_checked += 1;
            }
        }
        assert!(moves_checked > 100_000, "{moves_checked}");
        // a1 is the first digit of diag8 (instance 12), the edge (30), the 3x3 corner (34).
        assert_eq!(SQUARE_DIGITS[0][12], 1);
        assert_eq!(SQUARE_DIGITS[0][30], 1);
        assert_eq!(SQUARE_DIGITS[0][34], 1);
        assert_eq!(SQUARE_DIGITS[0].iter().filter(|&&d| d != 0).count(), 6);
    }

    /// The dispatched path (BMI2 where the build has it), the extraction path with the portable
    /// `pext`, the gather path and the square-by-square reference agree on random boards of
    /// every density and on positions of every empties count from random games.
    #[test]
    fn all_index_paths_agree_on_100k_boards() {
        let mut rng = Rng(0x0E7A_1DEC);
        for n in 0..100_000u32 {
            let (p, o) = if n % 2 == 0 {
                rng.board()
            } else {
                let b = crate::board::random::random_position(&mut rng, (n / 2) % 61).board;
                (b.player, b.opponent)
            };
            let portable = instance_indices_portable(p, o);
            assert_eq!(instance_indices(p, o), portable, "{p:#x} {o:#x}");
            assert_eq!(
                instance_indices_extracted(p, o, pext_portable),
                portable,
                "{p:#x} {o:#x}"
            );
            if n % 10 == 0 {
                assert_eq!(portable.to_vec(), instance_indices_reference(p, o));
            }
        }
    }
}
