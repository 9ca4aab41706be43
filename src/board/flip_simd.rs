//! The SIMD kernels: the flips of a move and the legal moves of a board (AVX2, each with the
//! four direction pairs in one 256-bit register), and the BMI2 `pext` that the evaluation's
//! pattern indices use; and the binary's allocator, which puts large blocks on huge pages. This
//! is the only module with `unsafe`; it compiles only when the build targets AVX2, and
//! `flip::flips_portable`, `moves::legal_moves_portable`, the evaluation's portable `pext` and
//! the system allocator are the twins that tests compare it against.
#![cfg(all(target_arch = "x86_64", target_feature = "avx2"))]

use super::flip::{HIGHER, LOWER};
use super::moves::{INNER, NOT_18, NOT_AH};
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

        // Lower rays: the highest non-opponent square. Smearing it down along the ray's own
        // step (1, 8, 9 or 7 bits: three shifts cover the 7 squares a ray can have) marks it
        // and every square below it; it is the one marked square whose upper neighbour on the
        // ray is unmarked. Squares the shifts push off the ray lie below the ray's end, and
        // the final mask drops them.
        // The step of each lower ray of `LOWER`: west, north, north-west, north-east.
        let step = _mm256_set_epi64x(7, 9, 8, 1);
        let lo_blockers = _mm256_andnot_si256(o, lo_mask);
        let mut smear = _mm256_or_si256(lo_blockers, _mm256_srlv_epi64(lo_blockers, step));
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_set_epi64x(14, 18, 16, 2)),
        );
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_set_epi64x(28, 36, 32, 4)),
        );
        let lo_nearest = _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), smear);
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

/// Legal moves of `player` against `opponent`; same result as `legal_moves_portable`. Lane
/// `i` grows the runs of opponent discs along direction pair `i` (shifts 1, 8, 7 and 9, each
/// towards higher and lower bits), in the same steps as the portable code.
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

/// Asks the CPU to start loading the cache line at `value` (a table slot about to be probed).
#[inline(always)]
pub fn prefetch<T>(value: *const T) {
    // SAFETY: SSE is part of the x86_64 baseline; a prefetch is only a hint: it never faults,
    // whatever the address, and never changes memory, so no pointer validity is needed.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(value as *const i8) }
}

/// The bits of `x` under `mask`, packed into the low bits in square order (BMI2 `pext`): how
/// the evaluation reads a pattern's squares in one instruction. Its portable twin is the
/// evaluation's own gather path (`eval::patterns::instance_indices_portable`), which the tests
/// compare the extraction-based indices against.
#[cfg(target_feature = "bmi2")]
#[inline(always)]
pub fn pext_bmi2(x: u64, mask: u64) -> u64 {
    // SAFETY: BMI2 is enabled for the whole build (cfg above), so `pext` is available; it only
    // computes on registers.
    unsafe { _pext_u64(x, mask) }
}

/// The allocator of the `osolve` binary: the system allocator, except that a block of at least
/// [`HUGE_MIN`] bytes (the transposition tables, the evaluation's weights) is aligned to 2 MiB
/// and advised to the kernel as wanting transparent huge pages. The search's table probes land
/// at random addresses in hundreds of MiB; with 4 KiB pages nearly each one also misses the
/// TLB. Its portable twin is `std::alloc::System` itself (which every other build and the
/// tests use); the tests compare what the two allocate.
pub struct HugePageAlloc;

/// Blocks from this size up get huge-page alignment and advice.
pub const HUGE_MIN: usize = 1 << 20;
/// The size of a transparent huge page on x86_64.
pub const HUGE_PAGE: usize = 2 << 20;

impl HugePageAlloc {
    /// The layout asked of the system for `layout`: large blocks rounded up to whole huge pages
    /// and aligned to one (`None` when that overflows). Every page of such a block can then be
    /// a huge one; the price is at most one huge page of resident tail per block.
    #[inline]
    fn system_layout(layout: std::alloc::Layout) -> Option<std::alloc::Layout> {
        if layout.size() < HUGE_MIN {
            return Some(layout);
        }
        let size = layout.size().checked_next_multiple_of(HUGE_PAGE)?;
        std::alloc::Layout::from_size_align(size, layout.align().max(HUGE_PAGE)).ok()
    }
}

#[cfg(target_os = "linux")]
extern "C" {
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int)
        -> std::ffi::c_int;
}

/// Advises the kernel that `len` bytes at `ptr` (huge-page aligned) want huge pages. Only a
/// hint: where the kernel has none, or has them switched off, nothing changes.
#[inline]
fn advise_huge(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        /// `MADV_HUGEPAGE` of Linux (the same on every architecture).
        const MADV_HUGEPAGE: std::ffi::c_int = 14;
        // SAFETY: `ptr..ptr + len` is one block the system allocator just returned to us, so
        // the range is mapped and ours; `madvise` with this advice only changes how the kernel
        // backs the pages, never their contents, and its result (an error where huge pages are
        // unsupported) is deliberately ignored.
        unsafe {
            madvise(ptr.cast(), len, MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

// SAFETY: every block is allocated and freed by `System` with the same layout
// (`system_layout` is a pure function of the caller's layout, which `GlobalAlloc` guarantees is
// the same at `dealloc` as at `alloc`); that layout is at least as large and as aligned as the
// caller's, so the block satisfies the caller's layout.
unsafe impl std::alloc::GlobalAlloc for HugePageAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let Some(system) = HugePageAlloc::system_layout(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `system` has a non-zero size (at least the caller's, which is non-zero).
        let ptr = unsafe { std::alloc::System.alloc(system) };
        if !ptr.is_null() && layout.size() >= HUGE_MIN {
            advise_huge(ptr, system.size());
        }
        ptr
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.size() < HUGE_MIN {
            // SAFETY: the caller's layout, passed on unchanged.
            return unsafe { std::alloc::System.alloc_zeroed(layout) };
        }
        // SAFETY: as in `alloc`. The zeroing comes after the advice, so that the pages it
        // touches first are already huge ones.
        let ptr = unsafe { self.alloc(layout) };
        if !ptr.is_null() {
            // SAFETY: `ptr` is a fresh block of at least `layout.size()` bytes.
            unsafe { std::ptr::write_bytes(ptr, 0, layout.size()) };
        }
        ptr
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if layout.size() < HUGE_MIN && new_size < HUGE_MIN {
            // SAFETY: small before and after: the block is `System`'s with the caller's layout,
            // and `System` resizes it in place where it can.
            return unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: the caller guarantees `new_size` with `layout.align()` is a valid layout.
        let new_layout =
            unsafe { std::alloc::Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: a block of the new layout from this allocator; the copy stays inside both
        // blocks; the old block is freed with the layout it was made with.
        unsafe {
            let fresh = self.alloc(new_layout);
            if !fresh.is_null() {
                std::ptr::copy_nonoverlapping(ptr, fresh, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            fresh
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // `system_layout` succeeded for this layout when the block was allocated.
        if let Some(system) = HugePageAlloc::system_layout(layout) {
            // SAFETY: `ptr` came from `System` with exactly this layout (see the impl's comment).
            unsafe { std::alloc::System.dealloc(ptr, system) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::{GlobalAlloc, Layout, System};

    /// The `THPeligible` flag of the mapping holding `addr`, from /proc/self/smaps.
    fn huge_page_eligible(addr: usize) -> Option<bool> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((lo, hi)) = first.split_once('-') {
                if let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
                {
                    inside = (lo..hi).contains(&addr);
                    continue;
                }
            }
            if inside {
                if let Some(flag) = line.strip_prefix("THPeligible:") {
                    return Some(flag.trim() == "1");
                }
            }
        }
        None
    }

    #[test]
    fn huge_page_blocks_hold_what_system_blocks_hold() {
        let sizes = [
            24,
            4096,
            HUGE_MIN - 8,
            HUGE_MIN,
            3 * HUGE_PAGE + 5,
            48 << 20,
        ];
        for &size in &sizes {
            for align in [8, 64, 4096] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: non-zero sizes; each block is written within its size, then freed by
                // the allocator that made it with the layout it was made with.
                unsafe {
                    let ours = HugePageAlloc.alloc(layout);
                    let twin = System.alloc(layout);
                    assert!(!ours.is_null() && !twin.is_null());
                    assert_eq!(ours as usize % align, 0, "size {size} align {align}");
                    if size >= HUGE_MIN {
                        assert_eq!(ours as usize % HUGE_PAGE, 0, "size {size}");
                    }
                    for i in (0..size).step_by(4093).chain([size - 1]) {
                        *ours.add(i) = (i % 251) as u8;
                        *twin.add(i) = (i % 251) as u8;
                    }
                    for i in (0..size).step_by(4093).chain([size - 1]) {
                        assert_eq!(*ours.add(i), *twin.add(i));
                    }
                    HugePageAlloc.dealloc(ours, layout);
                    System.dealloc(twin, layout);

                    let zeroed = HugePageAlloc.alloc_zeroed(layout);
                    assert!((0..size).step_by(997).all(|i| *zeroed.add(i) == 0));
                    assert_eq!(*zeroed.add(size - 1), 0);
                    HugePageAlloc.dealloc(zeroed, layout);
                }
            }
        }
    }

    #[test]
    fn resized_blocks_keep_their_bytes_across_the_huge_threshold() {
        let layout = Layout::from_size_align(4000, 8).unwrap();
        // SAFETY: every block is written within its size and freed with its current layout.
        unsafe {
            let mut ptr = HugePageAlloc.alloc(layout);
            let mut size = 4000;
            for i in 0..size {
                *ptr.add(i) = (i % 253) as u8;
            }
            // Small to small, small to large, large to larger, large to small.
            for new_size in [9000, 3 * HUGE_MIN, 5 * HUGE_PAGE + 7, 6000] {
                ptr =
                    HugePageAlloc.realloc(ptr, Layout::from_size_align(size, 8).unwrap(), new_size);
                assert!(!ptr.is_null());
                if new_size >= HUGE_MIN {
                    assert_eq!(ptr as usize % HUGE_PAGE, 0, "{new_size}");
                }
                for i in 0..4000 {
                    assert_eq!(*ptr.add(i), (i % 253) as u8, "{new_size} at {i}");
                }
                size = new_size;
            }
            HugePageAlloc.dealloc(ptr, Layout::from_size_align(size, 8).unwrap());
        }
    }

    #[test]
    fn large_blocks_are_advised_for_huge_pages() {
        let enabled = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        let Ok(enabled) = enabled else {
            return; // no transparent huge pages in this kernel: the advice is a no-op
        };
        let layout = Layout::from_size_align(8 << 20, 8).unwrap();
        // SAFETY: a non-zero size; the block is freed with the layout it was made with.
        unsafe {
            let block = HugePageAlloc.alloc(layout);
            assert!(!block.is_null());
            let eligible = huge_page_eligible(block as usize + HUGE_PAGE);
            HugePageAlloc.dealloc(block, layout);
            // With huge pages off ("[never]") nothing is eligible; otherwise the advice makes
            // the block eligible even where the default is "madvise".
            assert_eq!(eligible, Some(!enabled.contains("[never]")), "{enabled}");
        }
    }
}
