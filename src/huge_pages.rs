//! The allocator of the `osolve` binary and of the Python package's module ([`HugePageAlloc`]):
//! the system allocator, with large blocks mapped from the kernel directly (on Linux), aligned
//! to 2 MiB and advised for transparent huge pages; a zeroed one is left untouched, so that its
//! memory is taken only where it is used (the transposition table of a large `--hash-mb`).
//! Nothing here knows the game; `main.rs` and `python/src/lib.rs` install it, the library's
//! own tests use the system allocator. Also the transposition table's buckets as a zeroed
//! block of aligned cache lines of atomics ([`zeroed_cache_lines`]), which only an unsafe
//! cast of a zeroed allocation gives without writing them; the room a run needs beside its
//! tables ([`check_reserve`]), one malloc arena under an address-space limit
//! ([`one_arena_under_a_limit`]), and the refusal that names every table of a run
//! ([`TablesRefused`]). One of the few modules allowed `unsafe` (an allocator is an unsafe
//! trait), each block with a SAFETY comment.
#![allow(unsafe_code)]

/// The allocator of the `osolve` binary: the system allocator, except that a block of at least
/// [`HUGE_MIN`] bytes (the transposition tables, the evaluation's weights) is a mapping of its
/// own (on Linux; elsewhere the system's), aligned to 2 MiB and advised to the kernel as
/// wanting transparent huge pages. The search's table probes land
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
    fn mmap(
        addr: *mut std::ffi::c_void,
        len: usize,
        prot: std::ffi::c_int,
        flags: std::ffi::c_int,
        fd: std::ffi::c_int,
        offset: i64,
    ) -> *mut std::ffi::c_void;
    fn munmap(addr: *mut std::ffi::c_void, len: usize) -> std::ffi::c_int;
}

/// Advises the kernel that `len` bytes at `ptr` (huge-page aligned) want huge pages. Only a
/// hint: where the kernel has none, or has them switched off, nothing changes.
#[cfg(target_os = "linux")]
#[inline]
fn advise_huge(ptr: *mut u8, len: usize) {
    /// `MADV_HUGEPAGE` of Linux (the same on every architecture).
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    // SAFETY: `ptr..ptr + len` is one mapping we just made, so the range is mapped and ours;
    // `madvise` with this advice only changes how the kernel backs the pages, never their
    // contents, and its result (an error where huge pages are unsupported) is deliberately
    // ignored.
    unsafe {
        madvise(ptr.cast(), len, MADV_HUGEPAGE);
    }
}

/// A fresh anonymous mapping of `size` bytes (a multiple of [`HUGE_PAGE`]) aligned to a huge
/// page, advised for huge pages; null when the kernel refuses. Its pages are zero and untouched:
/// the kernel gives each on its first touch.
#[cfg(target_os = "linux")]
fn map_huge(size: usize) -> *mut u8 {
    const PROT_READ: std::ffi::c_int = 1;
    const PROT_WRITE: std::ffi::c_int = 2;
    const MAP_PRIVATE: std::ffi::c_int = 2;
    #[cfg(not(any(target_arch = "mips", target_arch = "mips64")))]
    const MAP_ANONYMOUS: std::ffi::c_int = 0x20;
    #[cfg(any(target_arch = "mips", target_arch = "mips64"))]
    const MAP_ANONYMOUS: std::ffi::c_int = 0x800;
    let Some(len) = size.checked_add(HUGE_PAGE) else {
        return std::ptr::null_mut();
    };
    // SAFETY: a new private anonymous mapping: it aliases nothing.
    let raw = unsafe {
        mmap(
            std::ptr::null_mut(),
            len,
            PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw as isize == -1 || raw.is_null() {
        return std::ptr::null_mut();
    }
    let start = raw as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    let head = aligned - start;
    let tail = len - head - size;
    // SAFETY: the head and the tail are the parts of our mapping outside the aligned block,
    // never handed out.
    unsafe {
        if head > 0 {
            munmap(raw, head);
        }
        if tail > 0 {
            munmap((aligned + size) as *mut std::ffi::c_void, tail);
        }
    }
    let ptr = aligned as *mut u8;
    advise_huge(ptr, size);
    ptr
}

// SAFETY: a small block is allocated and freed by `System` with the caller's layout; a large
// one (see `system_layout`, a pure function of the caller's layout, which `GlobalAlloc`
// guarantees is the same at `dealloc` as at `alloc`) is a mapping of `system_layout`'s size,
// huge-page aligned, unmapped with that size (or, off Linux, `System`'s with that layout). Either
// is at least as large and as aligned as the caller's layout asks.
unsafe impl std::alloc::GlobalAlloc for HugePageAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let Some(system) = HugePageAlloc::system_layout(layout) else {
            return std::ptr::null_mut();
        };
        if layout.size() < HUGE_MIN {
            // SAFETY: the caller's layout (non-zero size), passed on unchanged.
            return unsafe { std::alloc::System.alloc(layout) };
        }
        #[cfg(target_os = "linux")]
        {
            map_huge(system.size())
        }
        #[cfg(not(target_os = "linux"))]
        // SAFETY: `system` has a non-zero size (at least the caller's, which is non-zero).
        unsafe {
            std::alloc::System.alloc(system)
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.size() < HUGE_MIN {
            // SAFETY: the caller's layout, passed on unchanged.
            return unsafe { std::alloc::System.alloc_zeroed(layout) };
        }
        // SAFETY: as in `alloc`.
        let ptr = unsafe { self.alloc(layout) };
        // A fresh mapping is zero already (and left untouched, so that its memory is taken only
        // where it is used); elsewhere the block is zeroed here.
        #[cfg(not(target_os = "linux"))]
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
        if layout.size() < HUGE_MIN {
            // SAFETY: a small block is `System`'s with the caller's layout.
            return unsafe { std::alloc::System.dealloc(ptr, layout) };
        }
        // `system_layout` succeeded for this layout when the block was allocated.
        if let Some(system) = HugePageAlloc::system_layout(layout) {
            // SAFETY: `ptr` is our mapping of exactly `system.size()` bytes.
            #[cfg(target_os = "linux")]
            unsafe {
                munmap(ptr.cast(), system.size());
            }
            // SAFETY: `ptr` came from `System` with exactly this layout.
            #[cfg(not(target_os = "linux"))]
            unsafe {
                std::alloc::System.dealloc(ptr, system)
            }
        }
    }
}

/// One cache line of 64-bit atomics, aligned to a line: the bucket of a lock-free table
/// (`search::tt`), which then never straddles two lines. All zero is its empty value.
#[repr(C, align(64))]
#[derive(Debug, Default)]
pub struct CacheLine(pub [std::sync::atomic::AtomicU64; 8]);

/// The memory the system refused: the error of [`zeroed_cache_lines`] (a limit such as
/// `ulimit -v`, or a size beyond the address space), so that a table too large is an error its
/// caller reports, not an abort of the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("out of memory")]
pub struct OutOfMemory {
    /// Bytes asked for (`usize::MAX` where their number overflows).
    pub bytes: usize,
}

/// `n` zeroed cache lines from the global allocator, which gives a zeroed block untouched
/// (so memory is taken only where a search writes, and a large `--hash-mb` costs nothing
/// before it is used), where building them one by one would write every line; `Err` when the
/// allocator refuses the block. Its portable twin is
/// `(0..n).map(|_| CacheLine::default()).collect()`, which the tests compare it with.
pub fn zeroed_cache_lines(n: usize) -> Result<Box<[CacheLine]>, OutOfMemory> {
    let layout = match std::alloc::Layout::array::<CacheLine>(n) {
        Ok(layout) if layout.size() > 0 => layout,
        Ok(_) => return Ok(Box::default()),
        Err(_) => {
            return Err(OutOfMemory {
                bytes: n.saturating_mul(std::mem::size_of::<CacheLine>()),
            })
        }
    };
    // SAFETY: `layout` has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return Err(OutOfMemory {
            bytes: layout.size(),
        });
    }
    // SAFETY: `ptr` is a fresh zeroed block of exactly `Layout::array::<CacheLine>(n)`, the
    // layout a `Box<[CacheLine]>` of `n` lines frees with; all-zero bytes are a valid
    // `CacheLine` (eight `AtomicU64`s of 0); nothing else points into the block.
    Ok(unsafe {
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr.cast::<CacheLine>(),
            n,
        ))
    })
}

/// The largest table size in MiB a caller should ask for: 65536, and at most the machine's
/// memory where the system tells it (`/proc/meminfo` on Linux): a larger table would fail to
/// allocate ([`OutOfMemory`]) or be killed once it fills.
pub fn max_hash_mb() -> usize {
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib / 1024)
        });
    memory.map_or(65536, |m| m.min(65536)) as usize
}

/// The address space a run still needs once its tables are made, in MiB, besides
/// [`RESERVE_PER_THREAD_MB`] for each thread: the built-in evaluation weights (31 sets of 327
/// KiB, decoded at the first search that orders moves by them), the buffers of input and
/// output, and a margin. Measured with `ulimit -v`-free runs of every command on one malloc
/// arena (see [`one_arena_under_a_limit`]), `--hash-mb 1024`, the most the address space grew
/// after the last table: 6 MiB for `solve`, `show` and `bench` (16 MiB on FFO #45), 2 MiB for
/// `gen`, 8-11 MiB for `gtp` and `nboard`, 10-13 MiB for `analyze` and `games` on one or two
/// threads, 25 MiB on eight; with `--depth` 14 MiB for `solve` and 20, 30 and 93 MiB for
/// `analyze` on one, two and eight threads.
pub const RESERVE_MB: usize = 32;

/// The part of [`RESERVE_MB`] that grows with the threads of a run: a thread started after the
/// tables are made takes 2 MiB of stack, and a batch worker of `--depth` an estimator's table
/// of 8 MiB (`analyze --depth` grew 10.5 MiB per thread from two threads to eight).
pub const RESERVE_PER_THREAD_MB: usize = 12;

/// Whether the system still gives the address space a run of `threads` threads needs beyond
/// what is allocated ([`RESERVE_MB`] and [`RESERVE_PER_THREAD_MB`] for each thread): a block of
/// that size is allocated untouched and freed at once. A table made right up to a limit
/// (`ulimit -v`) would otherwise let a later ordinary allocation fail, which aborts the process
/// (or hangs it, when the abort's own report cannot allocate); checked once the last table is
/// made, it turns that into an error the caller reports before anything runs. `Err` when the
/// system refuses the block.
pub fn check_reserve(threads: usize) -> Result<(), OutOfMemory> {
    // Past 64 threads the per-thread part is not counted: a machine of less memory than such a
    // reserve would otherwise refuse a run it can hold.
    let megabytes = threads
        .min(64)
        .saturating_mul(RESERVE_PER_THREAD_MB)
        .saturating_add(RESERVE_MB);
    let lines = megabytes.saturating_mul(1 << 20) / std::mem::size_of::<CacheLine>();
    let block = zeroed_cache_lines(lines)?;
    // A block nothing reads may be left out by the compiler, allocation and all (it did so):
    // this one must be asked of the system.
    std::hint::black_box(&block);
    Ok(())
}

/// Under a limit on the address space (`ulimit -v`), has every thread allocate from glibc's one
/// main arena. Each further arena reserves 64 MiB of address space (128 MiB for a moment) when
/// a thread first allocates: under a limit close to the tables' size that takes room the run
/// needs, and an arena made after [`check_reserve`] takes the room it checked (an abort came
/// of it with a limit 133 MiB above the tables: two threads' arenas took 128 MiB of it). Call
/// it first thing, before threads start. Without a limit, and off glibc, it does nothing.
pub fn one_arena_under_a_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        /// `M_ARENA_MAX` of glibc's malloc.h.
        const M_ARENA_MAX: std::ffi::c_int = -8;
        let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
        let limited = limits
            .lines()
            .find_map(|line| line.strip_prefix("Max address space"))
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|soft| soft != "unlimited");
        if limited {
            // SAFETY: `mallopt` only sets a parameter of glibc's allocator, here a documented
            // one to a valid value (one arena); it changes where later blocks come from, never
            // a block already given out.
            unsafe {
                mallopt(M_ARENA_MAX, 1);
            }
        }
    }
}

/// Tables of one purpose among those a run makes for one size asked: `count` tables of
/// `megabytes` MiB each, for `purpose` (`the exact solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablePart {
    /// How many tables.
    pub count: usize,
    /// MiB of each.
    pub megabytes: usize,
    /// What they are for, after `for` (`the positions solved one at a time`).
    pub purpose: &'static str,
}

impl std::fmt::Display for TablePart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.count != 1 {
            write!(f, "{} x ", self.count)?;
        }
        write!(f, "{} MiB for {}", self.megabytes, self.purpose)
    }
}

/// The memory refused (a limit such as `ulimit -v`) for the tables a run makes for one size
/// asked when they are more than one table of that size (`analyze`'s and `games`' workers,
/// `gen`'s labelling threads, the protocols' engine): what they take in all and what each
/// part is for, so that the user can choose a size knowing what it costs. A run of one table
/// says `cannot allocate the N MiB transposition table` (`search::SearchError::Memory`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {} MiB of transposition tables ({})", self.megabytes(), self.parts_text())]
pub struct TablesRefused {
    /// The tables of the run, by purpose.
    pub parts: Vec<TablePart>,
    /// The allocator's refusal.
    #[source]
    pub source: OutOfMemory,
}

impl TablesRefused {
    /// MiB of all the tables of the run.
    pub fn megabytes(&self) -> usize {
        self.parts
            .iter()
            .map(|part| part.count.saturating_mul(part.megabytes))
            .fold(0, usize::saturating_add)
    }

    fn parts_text(&self) -> String {
        let parts: Vec<String> = self.parts.iter().map(ToString::to_string).collect();
        parts.join(", ")
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
    fn zeroed_cache_lines_are_the_portable_ones_aligned() {
        use std::sync::atomic::Ordering;
        for n in [0usize, 1, 3, 1000, (HUGE_MIN / 64) + 5] {
            let fast = zeroed_cache_lines(n).expect("a few lines");
            let portable: Box<[CacheLine]> = (0..n).map(|_| CacheLine::default()).collect();
            assert_eq!(fast.len(), portable.len());
            let words = |lines: &[CacheLine]| -> Vec<u64> {
                lines
                    .iter()
                    .flat_map(|l| l.0.iter().map(|w| w.load(Ordering::Relaxed)))
                    .collect()
            };
            assert_eq!(words(&fast), words(&portable), "{n} lines");
            assert_eq!(fast.as_ptr() as usize % 64, 0, "{n} lines");
            if let Some(last) = fast.last() {
                last.0[7].store(u64::MAX, Ordering::Relaxed);
                assert_eq!(last.0[7].load(Ordering::Relaxed), u64::MAX);
            }
        }
    }

    #[test]
    fn lines_the_system_cannot_give_are_an_error() {
        // Half the address space: a valid layout, which no allocator gives.
        let half = usize::MAX / 2 / std::mem::size_of::<CacheLine>();
        let refused = zeroed_cache_lines(half).unwrap_err();
        assert_eq!(refused, OutOfMemory { bytes: half * 64 });
        assert_eq!(refused.to_string(), "out of memory");
        // More bytes than a size can count: no layout at all.
        let overflow = zeroed_cache_lines(usize::MAX).unwrap_err();
        assert_eq!(overflow.bytes, usize::MAX);
        // The allocator of the binary says so with a null block (which `zeroed_cache_lines`
        // turns into the error), for a block beyond the address space.
        let layout = Layout::from_size_align(1 << 62, 64).unwrap();
        // SAFETY: a non-zero size; a block that came back would be freed with its layout.
        unsafe {
            let block = HugePageAlloc.alloc_zeroed(layout);
            if !block.is_null() {
                HugePageAlloc.dealloc(block, layout);
            }
            assert!(block.is_null(), "4 EiB were mapped");
        }
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

    #[cfg(target_os = "linux")]
    extern "C" {
        fn mincore(addr: *mut std::ffi::c_void, len: usize, vec: *mut u8) -> std::ffi::c_int;
    }

    /// How many of the 4 KiB pages of `len` bytes at `ptr` (page aligned) are resident.
    #[cfg(target_os = "linux")]
    fn resident_pages(ptr: *mut u8, len: usize) -> usize {
        let mut pages = vec![0u8; len.div_ceil(4096)];
        // SAFETY: `ptr..ptr + len` is one mapped block of ours; `pages` has a byte per page.
        let result = unsafe { mincore(ptr.cast(), len, pages.as_mut_ptr()) };
        assert_eq!(result, 0);
        pages.iter().filter(|&&p| p & 1 != 0).count()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn zeroed_large_blocks_take_memory_only_where_touched() {
        let size = 32 << 20;
        let layout = Layout::from_size_align(size, 8).unwrap();
        // SAFETY: a non-zero size; the block is read and written within its size, then freed
        // with the layout it was made with.
        unsafe {
            let block = HugePageAlloc.alloc_zeroed(layout);
            assert!(!block.is_null());
            assert_eq!(resident_pages(block, size), 0, "zeroed means untouched");
            *block.add(size - 1) = 1;
            let touched = resident_pages(block, size);
            assert!((1..=HUGE_PAGE / 4096).contains(&touched), "{touched}");
            assert_eq!(*block.add(size / 2), 0);
            HugePageAlloc.dealloc(block, layout);
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

    #[test]
    fn the_reserve_is_there_and_a_refusal_names_every_table() {
        // Nothing limits the tests' address space: the room is there, for any thread count.
        assert_eq!(check_reserve(1), Ok(()));
        assert_eq!(check_reserve(8), Ok(()));
        one_arena_under_a_limit();
        let refused = TablesRefused {
            parts: vec![
                TablePart {
                    count: 1,
                    megabytes: 1024,
                    purpose: "the exact solver",
                },
                TablePart {
                    count: 2,
                    megabytes: 256,
                    purpose: "the workers",
                },
            ],
            source: OutOfMemory { bytes: 1 },
        };
        assert_eq!(refused.megabytes(), 1536);
        assert_eq!(
            refused.to_string(),
            "cannot allocate 1536 MiB of transposition tables (1024 MiB for the exact solver, \
             2 x 256 MiB for the workers)"
        );
    }
}
