//! The discs one move flips: [`flips`] dispatches at compile time to the AVX2 kernel
//! (`flip_avx2`, the four direction pairs at once) where the build has AVX2, else to the
//! portable, branch-free [`flips_portable`] below; the tests compare the two and a plain
//! square-by-square reference. The line masks per square are `masks`' const tables.

use super::masks::{HIGHER, LOWER};

/// Flips of one ray going to higher bits: the opponent run from `sq` is flipped when the first
/// square that is not an opponent disc holds a player disc.
#[inline(always)]
fn flips_higher(player: u64, opponent: u64, mask: u64) -> u64 {
    let blockers = !opponent & mask;
    let outflank = blockers & blockers.wrapping_neg() & player;
    outflank.wrapping_sub((outflank != 0) as u64) & mask
}

/// The same for a ray going to lower bits: the nearest non-opponent square is the highest one.
#[inline(always)]
fn flips_lower(player: u64, opponent: u64, mask: u64) -> u64 {
    let blockers = !opponent & mask;
    let nearest = (1u64 << 63)
        .checked_shr(blockers.leading_zeros())
        .unwrap_or(0);
    let outflank = nearest & player;
    (outflank.wrapping_neg() << 1) & mask
}

/// Discs flipped when `player` plays on empty square `sq` (0..64); 0 when the move is illegal.
/// Portable implementation, the reference the SIMD kernel is tested against.
#[inline]
pub fn flips_portable(player: u64, opponent: u64, sq: usize) -> u64 {
    debug_assert!(sq < 64);
    let hi = &HIGHER.0[sq];
    let lo = &LOWER.0[sq];
    let mut flipped = 0;
    for d in 0..4 {
        flipped |= flips_higher(player, opponent, hi[d]);
        flipped |= flips_lower(player, opponent, lo[d]);
    }
    flipped
}

/// Discs flipped when `player` plays on empty square `sq`; 0 when the move is illegal.
/// Uses the AVX2 kernel when the build targets AVX2, the portable code otherwise.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, sq: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        super::flip_avx2::flips_avx2(player, opponent, sq)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_portable(player, opponent, sq)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Walks square by square in all 8 directions: the plainest statement of the rule.
    pub(crate) fn flips_reference(player: u64, opponent: u64, sq: usize) -> u64 {
        let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut all = 0;
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
            let (mut c, mut r, mut run) = (c0 + dc, r0 + dr, 0u64);
            while (0..8).contains(&c) && (0..8).contains(&r) && opponent >> (r * 8 + c) & 1 != 0 {
                run |= 1 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            if (0..8).contains(&c) && (0..8).contains(&r) && player >> (r * 8 + c) & 1 != 0 {
                all |= run;
            }
        }
        all
    }

    #[test]
    fn portable_matches_reference() {
        let mut rng = crate::board::random::Rng(42);
        for _ in 0..300_000 {
            let (p, o) = rng.board();
            let sq = (rng.next_u64() % 64) as usize;
            if (p | o) >> sq & 1 != 0 {
                continue;
            }
            assert_eq!(
                flips_portable(p, o, sq),
                flips_reference(p, o, sq),
                "p={p:#x} o={o:#x} sq={sq}"
            );
        }
    }

    #[test]
    fn dispatched_flips_match_portable_on_a_million_pairs() {
        let mut rng = crate::board::random::Rng(7);
        let mut checked = 0;
        while checked < 1_000_000 {
            let (p, o) = rng.board();
            let empty = !(p | o);
            if empty == 0 {
                continue;
            }
            let sq = rng.pick(empty);
            let fast = flips(p, o, sq);
            assert_eq!(fast, flips_portable(p, o, sq), "p={p:#x} o={o:#x} sq={sq}");
            if checked % 16 == 0 {
                assert_eq!(fast, flips_reference(p, o, sq), "p={p:#x} o={o:#x} sq={sq}");
            }
            checked += 1;
        }
    }
}
