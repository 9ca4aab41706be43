//! Legal-move generation for a whole board at once: each of the 8 directions is a
//! shift-and-mask flood (Kogge-Stone style), so no square is visited one by one.
//! [`legal_moves`] dispatches at compile time to a SIMD kernel (`moves_avx2`: eight directions
//! in one register where the build has AVX-512 F, four direction pairs where it has AVX2), else
//! to [`legal_moves_portable`]; the tests compare each with a square-by-square reference. Knows
//! nothing of search.

use super::masks::{FILE_A, FILE_H, INNER, NOT_18, NOT_AH};

/// Moves in one direction pair (shift `s` to higher bits and to lower bits).
#[inline(always)]
fn moves_along(player: u64, through: u64, s: u32) -> u64 {
    // Runs of opponent discs that start next to a player disc, grown 6 squares at most.
    let mut up = through & (player << s);
    let mut down = through & (player >> s);
    up |= through & (up << s);
    down |= through & (down >> s);
    let pair_up = through & (through << s);
    let pair_down = through & (through >> s);
    up |= pair_up & (up << (2 * s));
    down |= pair_down & (down >> (2 * s));
    up |= pair_up & (up << (2 * s));
    down |= pair_down & (down >> (2 * s));
    (up << s) | (down >> s)
}

/// All legal moves of `player` against `opponent`, as a bitboard of empty squares: the AVX-512
/// kernel where the build has AVX-512 F, else the AVX2 one where it has AVX2, else
/// [`legal_moves_portable`]. (The AVX-512 kernel: FFO #40-#44, one thread, both builds at once,
/// one per core, 40 pairs on an Intel Xeon host, 2026-12-05: median ratio 0.978, 28 pairs
/// faster; the same nodes.)
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    {
        super::moves_avx2::legal_moves_avx512(player, opponent)
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(target_feature = "avx512f")
    ))]
    {
        super::moves_avx2::legal_moves_avx2(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_portable(player, opponent)
    }
}

/// [`legal_moves`] in plain integer code, one direction pair after the other; the twin the
/// SIMD kernel is tested against.
#[inline]
pub fn legal_moves_portable(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let moves = moves_along(player, opponent & NOT_AH, 1)
        | moves_along(player, opponent & NOT_18, 8)
        | moves_along(player, opponent & INNER, 7)
        | moves_along(player, opponent & INNER, 9);
    moves & empty
}

/// Empty squares adjacent (8 directions) to a disc of `discs`: where the other side may one day
/// move. Used for potential mobility in move ordering.
#[inline]
pub fn neighbours(discs: u64) -> u64 {
    // A shift towards higher bits wraps column h into column a, and the other way round.
    let h = ((discs << 1) & !FILE_A) | ((discs >> 1) & !FILE_H);
    let row = discs | h;
    (h | (row << 8) | (row >> 8)) & !(discs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square-by-square reference: a move is legal when some direction has at least one
    /// opponent disc followed by a player disc.
    pub(crate) fn legal_moves_reference(player: u64, opponent: u64) -> u64 {
        let mut moves = 0;
        for sq in 0..64i32 {
            if (player | opponent) >> sq & 1 != 0 {
                continue;
            }
            let (c, r) = (sq % 8, sq / 8);
            for (dc, dr) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (mut x, mut y, mut seen) = (c + dc, r + dr, 0);
                while (0..8).contains(&x) && (0..8).contains(&y) && opponent >> (y * 8 + x) & 1 != 0
                {
                    x += dc;
                    y += dr;
                    seen += 1;
                }
                if seen > 0
                    && (0..8).contains(&x)
                    && (0..8).contains(&y)
                    && player >> (y * 8 + x) & 1 != 0
                {
                    moves |= 1u64 << sq;
                }
            }
        }
        moves
    }

    #[test]
    fn start_position_has_four_moves() {
        // black e4 (28), d5 (35); white d4 (27), e5 (36)
        let black = (1u64 << 28) | (1 << 35);
        let white = (1u64 << 27) | (1 << 36);
        let m = legal_moves(black, white);
        // d3 = 19, c4 = 26, f5 = 37, e6 = 44
        assert_eq!(m, (1u64 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
    }

    #[test]
    fn matches_reference_on_random_boards() {
        let mut rng = crate::board::random::Rng(0x1234_5678);
        for _ in 0..200_000 {
            let (p, o) = rng.board();
            let reference = legal_moves_reference(p, o);
            assert_eq!(legal_moves(p, o), reference, "p={p:#x} o={o:#x}");
            assert_eq!(legal_moves_portable(p, o), reference, "p={p:#x} o={o:#x}");
            assert_each_kernel(p, o, reference);
        }
    }

    /// Each SIMD kernel the build has, not only the one [`legal_moves`] dispatches to.
    fn assert_each_kernel(p: u64, o: u64, reference: u64) {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        assert_eq!(
            super::super::moves_avx2::legal_moves_avx2(p, o),
            reference,
            "AVX2: p={p:#x} o={o:#x}"
        );
        #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
        assert_eq!(
            super::super::moves_avx2::legal_moves_avx512(p, o),
            reference,
            "AVX-512: p={p:#x} o={o:#x}"
        );
        let _ = (p, o, reference);
    }

    /// The rotations of the AVX-512 kernel wrap bits from one end of the board to the other:
    /// boards crowded on the borders, where a wrapped bit would land on a disc, find no
    /// phantom move (and the other kernels agree).
    #[test]
    fn crowded_borders_give_no_wrapped_moves() {
        let border = 0xFF81_8181_8181_81FFu64;
        let mut rng = crate::board::random::Rng(0x5EED);
        for _ in 0..100_000 {
            // Borders nearly full, the inside sparse.
            let filled = (border & !(rng.next_u64() & rng.next_u64()))
                | (!border & rng.next_u64() & rng.next_u64());
            let p = filled & rng.next_u64();
            let o = filled & !p;
            let reference = legal_moves_reference(p, o);
            assert_eq!(legal_moves(p, o), reference, "p={p:#x} o={o:#x}");
            assert_each_kernel(p, o, reference);
        }
    }
}
