//! Single instructions of the CPU that plain Rust does not say: a cache prefetch (the
//! transposition tables) and BMI2 `pext` (the evaluation's pattern indices). Each is chosen at
//! compile time by the build's target features; nothing here knows the game or the search.
//! One of the few modules allowed `unsafe` (the intrinsics), each block with a SAFETY comment.
#![allow(unsafe_code)]

/// Starts loading the cache line at `value` into the cache (a no-op where the build has no
/// prefetch kernel). Any address will do: a prefetch never faults, so a stale or computed
/// address costs only the wasted load.
#[inline(always)]
pub fn prefetch<T>(value: *const T) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of the x86_64 baseline; a prefetch is only a hint: it never
        // faults, whatever the address, and never changes memory, so no pointer validity is
        // needed.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(value as *const i8) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    let _ = value;
}

/// The bits of `x` under `mask`, packed into the low bits in square order (BMI2 `pext`): how
/// the evaluation reads a pattern's squares in one instruction. Its portable twin is the
/// evaluation's own gather path (`eval::patterns::instance_indices_portable`), which the tests
/// compare the extraction-based indices against.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
pub fn pext_bmi2(x: u64, mask: u64) -> u64 {
    // SAFETY: BMI2 is enabled for the whole build (cfg above), so `pext` is available; it only
    // computes on registers.
    unsafe { std::arch::x86_64::_pext_u64(x, mask) }
}
