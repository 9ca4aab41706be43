//! The AVX2 kernel of [`super::flip`]: the flips of one move with the four direction pairs
//! in one 256-bit register. Compiled only when the build targets AVX2; its portable twin is
//! `flip::flips_portable`, which `flip`'s tests compare it against. One of the few modules
//! allowed `unsafe` (the intrinsics), each block with a SAFETY comment.
#![cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#![allow(unsafe_code)]

use super::masks::{HIGHER, LOWER};
use std::arch::x86_64::*;

/// Discs flipped when `player` plays on empty square `sq` (0..64); same result as
/// `flips_portable`.
#[inline(always)]
pub fn flips_avx2(player: u64, opponent: u64, sq: usize) -> u64 {
    debug_assert!(sq < 64);
    // SAFETY: AVX2 is enabled for the whole build (cfg above), so these intrinsics are available;
    // `sq < 64` keeps both loads inside their 64-entry tables, and the tables are 32-byte aligned
    // (`Aligned` has align(32)) as `_mm256_load_si256` requires.
    unsafe {
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let zero = _mm256_setzero_si256();
        let hi_mask = _mm256_load_si256(HIGHER.0.as_ptr().add(sq) as *const __m256i);
        let lo_mask = _mm256_load_si256(LOWER.0.as_ptr().add(sq) as *const __m256i);

        // Higher rays: the lowest non-opponent square of each ray is its outflank candidate.
        let hi_blockers = _mm256_andnot_si256(o, hi_mask);
        let hi_lowest = _mm256_and_si256(hi_blockers, _mm256_sub_epi64(zero, hi_blockers));
        let hi_outflank = _mm256_and_si256(hi_lowest, p);
        let hi_none = _mm256_cmpeq_epi64(hi_outflank, zero);
        let hi_run = _mm256_add_epi64(hi_outflank, _mm256_set1_epi64x(-1));
        let hi_flips = _mm256_andnot_si256(hi_none, _mm256_and_si256(hi_run, hi_mask));

        // Lower rays: the highest non-opponent square of each ray is its outflank candidate.
        let lo_blockers = _mm256_andnot_si256(o, lo_mask);
        let lo_nearest = highest_bit(lo_blockers);
        let lo_outflank = _mm256_and_si256(lo_nearest, p);
        // -outflank << 1: every bit above the outflank square.
        let lo_above = _mm256_slli_epi64(_mm256_sub_epi64(zero, lo_outflank), 1);
        let lo_flips = _mm256_and_si256(lo_above, lo_mask);

        let both = _mm256_or_si256(hi_flips, lo_flips);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(both),
            _mm256_extracti128_si256(both, 1),
        );
        let folded = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(folded) as u64
    }
}

/// The highest set bit of each lane (0 for an empty lane): with AVX-512 (CD and VL), shifting
/// the top bit right by the lane's leading zeros (a shift by 64 gives 0).
#[cfg(all(target_feature = "avx512cd", target_feature = "avx512vl"))]
#[inline(always)]
fn highest_bit(x: __m256i) -> __m256i {
    // SAFETY: AVX-512 CD and VL are enabled for the whole build (cfg above), so these
    // intrinsics are available; they only compute on registers.
    unsafe { _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(x)) }
}

/// The highest set bit of each lane (0 for an empty lane) with AVX2 alone: smearing the bits
/// down along the lane's ray step (1, 8, 9 or 7 bits: three shifts cover the 7 squares a ray
/// can have) marks the highest bit and every square below it; it is the one marked square
/// whose upper neighbour on the ray is unmarked. Squares the shifts push off the ray lie below
/// the ray's end, and the caller's final mask drops them. Only for the rays of `LOWER`, whose
/// steps are west, north, north-west, north-east.
#[cfg(not(all(target_feature = "avx512cd", target_feature = "avx512vl")))]
#[inline(always)]
fn highest_bit(x: __m256i) -> __m256i {
    // SAFETY: AVX2 is enabled for the whole build (cfg of the module); register-only intrinsics.
    unsafe {
        let step = _mm256_set_epi64x(7, 9, 8, 1);
        let mut smear = _mm256_or_si256(x, _mm256_srlv_epi64(x, step));
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_set_epi64x(14, 18, 16, 2)),
        );
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_set_epi64x(28, 36, 32, 4)),
        );
        _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), smear)
    }
}
