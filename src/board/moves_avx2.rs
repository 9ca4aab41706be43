//! The SIMD kernels of [`super::moves`]: the legal moves of a board with the four direction
//! pairs in one 256-bit register (AVX2), or the eight directions in one 512-bit register
//! (AVX-512 F, where the build has it). Compiled only when the build targets AVX2; their
//! portable twin is `moves::legal_moves_portable`, and `moves`' tests compare each of them
//! with it and with a square-by-square reference. One of the few modules allowed `unsafe`
//! (the intrinsics), each block with a SAFETY comment.
#![cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#![allow(unsafe_code)]

use super::masks::{INNER, NOT_18, NOT_AH};
use std::arch::x86_64::*;

/// Legal moves of `player` against `opponent`; same result as `legal_moves_portable`. Lane
/// `i` grows the runs of opponent discs along direction pair `i` (shifts 1, 8, 7 and 9, each
/// towards higher and lower bits), in the same steps as the portable code.
// With AVX-512 the dispatch takes `legal_moves_avx512`; this one is still tested.
#[cfg_attr(target_feature = "avx512f", allow(dead_code))]
#[inline(always)]
pub fn legal_moves_avx2(player: u64, opponent: u64) -> u64 {
    // SAFETY: AVX2 is enabled for the whole build (cfg above), so these intrinsics are
    // available; they only compute on registers.
    unsafe {
        let shift = _mm256_set_epi64x(9, 7, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let p = _mm256_set1_epi64x(player as i64);
        let through = _mm256_and_si256(
            _mm256_set1_epi64x(opponent as i64),
            _mm256_set_epi64x(INNER as i64, INNER as i64, NOT_18 as i64, NOT_AH as i64),
        );
        let mut up = _mm256_and_si256(through, _mm256_sllv_epi64(p, shift));
        let mut down = _mm256_and_si256(through, _mm256_srlv_epi64(p, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(through, _mm256_sllv_epi64(up, shift)));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(through, _mm256_srlv_epi64(down, shift)),
        );
        let pair_up = _mm256_and_si256(through, _mm256_sllv_epi64(through, shift));
        let pair_down = _mm256_and_si256(through, _mm256_srlv_epi64(through, shift));
        for _ in 0..2 {
            up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, shift2)));
            down = _mm256_or_si256(
                down,
                _mm256_and_si256(pair_down, _mm256_srlv_epi64(down, shift2)),
            );
        }
        let moves = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
        let half = _mm_or_si128(
            _mm256_castsi256_si128(moves),
            _mm256_extracti128_si256(moves, 1),
        );
        let folded = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(folded) as u64 & !(player | opponent)
    }
}

/// [`legal_moves_avx2`] with AVX-512: the eight directions in one 512-bit register, each lane
/// rotated (left by the step for the four directions towards higher bits, left by 64 minus it
/// for the four towards lower bits). A rotation wraps bits across the board's ends, but every
/// wrapped bit lands on a border square that the lane's mask of opponent discs excludes, and
/// the last step moves only bits inside that mask, which no step takes off the board.
#[cfg(target_feature = "avx512f")]
#[inline(always)]
pub fn legal_moves_avx512(player: u64, opponent: u64) -> u64 {
    // SAFETY: AVX-512 F is enabled for the whole build (cfg above), so these intrinsics are
    // available; they only compute on registers.
    unsafe {
        let rot = _mm512_set_epi64(55, 57, 56, 63, 9, 7, 8, 1);
        let rot2 = _mm512_set_epi64(46, 50, 48, 62, 18, 14, 16, 2);
        let (inner, not18, notah) = (INNER as i64, NOT_18 as i64, NOT_AH as i64);
        let masks = _mm512_set_epi64(inner, inner, not18, notah, inner, inner, not18, notah);
        let through = _mm512_and_si512(_mm512_set1_epi64(opponent as i64), masks);
        let p = _mm512_set1_epi64(player as i64);
        let mut run = _mm512_and_si512(through, _mm512_rolv_epi64(p, rot));
        run = _mm512_or_si512(run, _mm512_and_si512(through, _mm512_rolv_epi64(run, rot)));
        let pair = _mm512_and_si512(through, _mm512_rolv_epi64(through, rot));
        for _ in 0..2 {
            run = _mm512_or_si512(run, _mm512_and_si512(pair, _mm512_rolv_epi64(run, rot2)));
        }
        let moves = _mm512_rolv_epi64(run, rot);
        let half = _mm256_or_si256(
            _mm512_castsi512_si256(moves),
            _mm512_extracti64x4_epi64(moves, 1),
        );
        let quarter = _mm_or_si128(
            _mm256_castsi256_si128(half),
            _mm256_extracti128_si256(half, 1),
        );
        let folded = _mm_or_si128(quarter, _mm_unpackhi_epi64(quarter, quarter));
        _mm_cvtsi128_si64(folded) as u64 & !(player | opponent)
    }
}
