//! The transposition table: bounds on exact scores of boards already searched, shared by all
//! threads, without locks. A fixed number of buckets in shards, each shard one block: a board
//! maps to one bucket (the shard from the top bits of its hash, the bucket from the low ones),
//! one cache line that holds two entries (one kept by depth, one always replaced) and a
//! version word that keeps a reader from taking a bucket half written by another thread. The
//! full board is stored and compared, so a hash collision can never return a bound that
//! belongs to another board. Below `TT_MIN` empties each search thread has its own smaller near
//! table.
//!
//! A search uses only the part of the deep table its size needs ([`TranspositionTable::fit`]):
//! the blocks are allocated zeroed (an all-zero bucket is empty), which the kernel gives as
//! untouched memory, and it gives a page only on its first touch, so a small search spread
//! over a large table would pay for zeroing all of it.

use crate::board::Board;
use crate::huge_pages::{zeroed_cache_lines, CacheLine, OutOfMemory};
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicU8, Ordering};

/// What the table remembers about a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Side to move's discs.
    pub player: u64,
    /// Opponent's discs.
    pub opponent: u64,
    /// Proven lower bound of the exact score.
    pub lower: i8,
    /// Proven upper bound of the exact score.
    pub upper: i8,
    /// Best move found (square index), or `NO_MOVE`.
    pub best: u8,
    /// Empty squares of the board (the work a bound saves grows with it); 0 in an empty slot.
    pub empties: u8,
    /// Search generation that wrote the entry: older generations are replaced first.
    pub generation: u8,
    /// How exactly the bounds were searched: [`EXACT`] (also a selective search's node whose
    /// subtree took no guess), or the margin in discs of the selective search that wrote them
    /// (its bounds are guesses: a search takes bounds only from entries at least as exact as
    /// itself, the move from any).
    pub cut: u8,
}

impl Entry {
    /// The entry in three words: the discs, then the small fields a byte each.
    #[inline(always)]
    fn pack(&self) -> [u64; 3] {
        let small = u64::from_le_bytes([
            self.lower as u8,
            self.upper as u8,
            self.best,
            self.empties,
            self.generation,
            self.cut,
            0,
            0,
        ]);
        [self.player, self.opponent, small]
    }

    /// The entry of [`Entry::pack`]'s three words.
    #[inline(always)]
    fn unpack(words: &[u64]) -> Entry {
        let [lower, upper, best, empties, generation, cut, _, _] = words[2].to_le_bytes();
        Entry {
            player: words[0],
            opponent: words[1],
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties,
            generation,
            cut,
        }
    }
}

/// The bounds a fail-soft search with window (`alpha`, `beta`) proved when it returned `score`:
/// at or below alpha an upper bound, at or above beta a lower bound, in between the exact score.
#[inline(always)]
fn bounds(alpha: i32, beta: i32, score: i32) -> (i32, i32) {
    if score <= alpha {
        (-64, score)
    } else if score >= beta {
        (score, 64)
    } else {
        (score, score)
    }
}

/// `Entry::cut` of bounds from the exact search.
pub const EXACT: u8 = u8::MAX;

/// `Entry::best` when no move is known.
pub const NO_MOVE: u8 = 64;

type Bucket = [Entry; 2];

/// Where a bucket's version word lies in its line: words 0-2 hold the first entry packed
/// ([`Entry::pack`]), 3-5 the second, 6 the version, 7 nothing. All zero is an empty bucket,
/// so the lines can be allocated zeroed (untouched) rather than written.
const VERSION: usize = 6;

/// Takes the pages of `lines` (lines of either table, all empty) from the system: one write per
/// 4 KiB page, of the word that neither table uses (7), so every line stays empty.
fn touch_pages(lines: &[CacheLine]) {
    for line in lines
        .iter()
        .step_by(4096 / std::mem::size_of::<CacheLine>())
    {
        line.0[7].store(0, Ordering::Relaxed);
    }
}

/// Starts a write of `line` (a bucket of either table): makes its version odd and returns
/// the even version it had; `None` when another thread is writing the line (the caller drops
/// its store: a lost entry, never a wrong one).
#[inline(always)]
fn begin_write(line: &[AtomicU64; 8]) -> Option<u64> {
    let version = line[VERSION].load(Ordering::Relaxed);
    if version & 1 != 0
        || line[VERSION]
            .compare_exchange(version, version + 1, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
    {
        return None;
    }
    // The writes that follow come after the odd version: a reader that sees one of them sees
    // the odd version (or a later one) on its second read.
    fence(Ordering::Release);
    Some(version)
}

/// Ends the write [`begin_write`] started at `version`: the next even version.
#[inline(always)]
fn end_write(line: &[AtomicU64; 8], version: u64) {
    line[VERSION].store(version.wrapping_add(2), Ordering::Release);
}

/// Whether the words of `line` read since its version was read as `version` are one write's:
/// no write was under way then (even) and none began since (unchanged).
#[inline(always)]
fn unchanged_since(line: &[AtomicU64; 8], version: u64) -> bool {
    // The words were read before the version is read again.
    fence(Ordering::Acquire);
    version & 1 == 0 && line[VERSION].load(Ordering::Relaxed) == version
}

/// A size-bounded transposition table, lock-free.
///
/// One board hash chooses the shard (its top bits) and the bucket inside the shard (its low 32
/// bits, scaled to the shard's number of buckets in use: the first `active` of them, see
/// [`TranspositionTable::fit`]). A bucket is one cache line (one miss and one prefetch per
/// probe) guarded by its own version word, a sequence lock: a writer makes the version odd
/// (a compare-and-swap: a writer that finds it odd or loses the swap drops its store, which
/// costs the search a table entry, never a score), writes, then makes it even again; a reader
/// takes the entry only if the version was even and unchanged around its reads, so it never
/// sees a bucket half written. Readers write nothing, so the threads' probes do not move a
/// shared lock's cache line between cores.
pub struct TranspositionTable {
    /// Each shard's block of buckets (a large block each: the binary's allocator puts it on
    /// huge pages).
    shards: Box<[Box<[CacheLine]>]>,
    /// log2 of the number of shards.
    shard_bits: u32,
    /// Buckets in each shard.
    per_shard: u64,
    /// Buckets of each shard in use: the first ones, which lie together, so that the memory a
    /// search touches is what its size needs. Changed only between searches
    /// ([`TranspositionTable::fit`], [`TranspositionTable::clear`]); every entry lies below it.
    active: AtomicU64,
    /// `active` of an empty table: the whole table up to the size of the default one.
    floor: u64,
    generation: AtomicU8,
    /// Whether a bucket was written since the table was made or cleared (set once, by the
    /// first store into an empty bucket; read before it is written, so it stays a shared line).
    written: AtomicBool,
}

/// Bytes one bucket counted for when the table was a hash map (its item and control byte):
/// the bucket counts of every size stay what they were, and so do the searches' node counts.
const BYTES_PER_SLOT: usize = 57;

/// Shards of the deep table unless the caller fits them to its threads. Few, so that each shard's
/// table is a large block: the binary's allocator puts such blocks on huge pages, at the price
/// of at most one partly used huge page per shard (FFO #40-#49, one thread, 256 MiB: 64 shards
/// of 1.8 MiB, 48 MiB of huge pages in all; 4 shards, 148 MiB, about 5% faster).
pub const DEFAULT_SHARDS: usize = 16;

/// Shards for `threads` search threads: eight per thread, at least [`DEFAULT_SHARDS`]. (The
/// count once spread the threads over the shards' locks; the table has none now, and the
/// count stays so that a board's bucket, and so every search's node count, stays the same.)
pub fn shards_for(threads: usize) -> usize {
    threads
        .saturating_mul(8)
        .next_power_of_two()
        .clamp(DEFAULT_SHARDS, 1 << 12)
}

/// The table size of a solver unless told otherwise (`SolveOptions::hash_mb`), in MiB.
pub const DEFAULT_MB: usize = 256;

/// Empties up to which a search uses no more of the deep table than the default size holds;
/// each empty above doubles the part it may use ([`TranspositionTable::fit`]). The buckets a
/// search fills grow about 2.4 times per empty: FFO #40 (20 empties) fills 61,568 of the
/// default table's 1.8 M, FFO #50 (26 empties) 12.2 M of a 4000 MiB table's 58.7 M; from 22
/// the part in use stays about twice what the search fills (16 times 1.8 M at 26 empties).
pub const FIT_EMPTIES: u32 = 22;

/// Buckets of each shard of a deep table of `megabytes` MiB in `shards` shards: 7/8 of a power
/// of two of [`BYTES_PER_SLOT`] (the hash map's load).
fn shard_size(megabytes: usize, shards: usize) -> usize {
    let bytes = megabytes.saturating_mul(1 << 20).max(64 << 10);
    let slots = power_of_two_at_most(((bytes / shards) / BYTES_PER_SLOT).clamp(16, 1 << 32));
    slots / 8 * 7
}

/// The largest power of two at most `n` (`n` at least 1).
fn power_of_two_at_most(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

impl TranspositionTable {
    /// A table using at most about `megabytes` MiB (at least a few kilobytes); `Err` when the
    /// system refuses the memory.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, OutOfMemory> {
        TranspositionTable::with_shards(megabytes, DEFAULT_SHARDS)
    }

    /// A table of at most about `megabytes` MiB in `shards` shards (a power of two, 2 or
    /// more; other values are rounded to one). Its memory is taken as searches first use it;
    /// `Err` when the system refuses a shard (those made already are freed).
    pub fn with_shards(megabytes: usize, shards: usize) -> Result<TranspositionTable, OutOfMemory> {
        let shards = shards.clamp(2, 1 << 12).next_power_of_two();
        let per_shard = shard_size(megabytes, shards);
        // An empty table is used up to the size of the default table's deep part (so that a
        // larger table changes nothing for small searches).
        let floor = shard_size(Tables::deep_megabytes(DEFAULT_MB, 1), shards).min(per_shard);
        // Zeroed, so allocated untouched: no page is taken before it is used.
        let shards: Box<[Box<[CacheLine]>]> = (0..shards)
            .map(|_| zeroed_cache_lines(per_shard))
            .collect::<Result<_, _>>()?;
        Ok(TranspositionTable {
            shard_bits: shards.len().trailing_zeros(),
            shards,
            per_shard: per_shard as u64,
            active: AtomicU64::new(floor as u64),
            floor: floor as u64,
            generation: AtomicU8::new(1),
            written: AtomicBool::new(false),
        })
    }

    /// Number of buckets (two entries each).
    pub fn buckets(&self) -> u64 {
        self.per_shard << self.shard_bits
    }

    /// Number of buckets searches spread their boards over now (at most [`Self::buckets`]).
    pub fn active_buckets(&self) -> u64 {
        self.active.load(Ordering::Relaxed) << self.shard_bits
    }

    /// Makes the part in use large enough for a search of `empties` empties: the default
    /// table's size up to [`FIT_EMPTIES`] empties, twice that for each empty more, at most the
    /// whole table. The part only grows until [`Self::clear`]; boards stored before it grew
    /// are then mostly out of reach (replaced as any old entry). Call it between searches.
    pub fn fit(&self, empties: u32) {
        let doublings = empties.saturating_sub(FIT_EMPTIES).min(40);
        let wanted = self
            .floor
            .saturating_mul(1 << doublings)
            .min(self.per_shard);
        self.active.fetch_max(wanted, Ordering::Relaxed);
    }

    /// The buckets in use of each shard.
    fn in_use(&self) -> impl Iterator<Item = &[CacheLine]> {
        let active = self.active.load(Ordering::Relaxed) as usize;
        self.shards.iter().map(move |shard| &shard[..active])
    }

    /// Touches the memory of every bucket in use when nothing is stored (a table holding
    /// entries is left alone), so that the search that fills them does not pay for the
    /// pages. Call it between searches.
    pub fn touch(&self) {
        if self.written.load(Ordering::Relaxed) {
            return;
        }
        for lines in self.in_use() {
            touch_pages(lines);
        }
    }

    /// The shard and the bucket inside it of `hash`.
    #[inline(always)]
    fn locate(&self, hash: u64) -> (usize, usize) {
        let shard = hash >> (64 - self.shard_bits);
        let slot = ((hash as u32 as u64) * self.active.load(Ordering::Relaxed)) >> 32;
        (shard as usize, slot as usize)
    }

    /// The bucket of `hash`.
    #[inline(always)]
    fn line(&self, hash: u64) -> &CacheLine {
        let (shard, slot) = self.locate(hash);
        &self.shards[shard][slot]
    }

    /// Starts loading the bucket of `hash` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        crate::cpu::prefetch(self.line(hash));
    }

    /// The entry for `board`, if stored (and not being written by another thread just now).
    #[inline(always)]
    pub fn probe(&self, board: &Board, hash: u64) -> Option<Entry> {
        let line = &self.line(hash).0;
        let version = line[VERSION].load(Ordering::Acquire);
        let words: [u64; 6] = std::array::from_fn(|i| line[i].load(Ordering::Relaxed));
        let found = words
            .chunks_exact(3)
            .find(|w| w[0] == board.player && w[1] == board.opponent && (w[2] >> 24) & 0xff != 0)
            .map(Entry::unpack)?;
        unchanged_since(line, version).then_some(found)
    }

    /// Records the result of a search of `board` with window (`alpha`, `beta`) that returned
    /// `score` (fail-soft) with best move `best`. Dropped when another thread is writing the
    /// same bucket at that moment.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        board: &Board,
        hash: u64,
        empties: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
        cut: u8,
    ) {
        let (lower, upper) = bounds(alpha, beta, score);
        let generation = self.generation.load(Ordering::Relaxed);
        let fresh = Entry {
            player: board.player,
            opponent: board.opponent,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
            generation,
            cut,
        };
        let line = &self.line(hash).0;
        let Some(version) = begin_write(line) else {
            return;
        };
        let words: [u64; 6] = std::array::from_fn(|i| line[i].load(Ordering::Relaxed));
        let was_empty = words == [0; 6];
        let mut bucket = [Entry::unpack(&words[..3]), Entry::unpack(&words[3..])];
        merge(&mut bucket, fresh);
        for (i, word) in bucket[0]
            .pack()
            .into_iter()
            .chain(bucket[1].pack())
            .enumerate()
        {
            line[i].store(word, Ordering::Relaxed);
        }
        end_write(line, version);
        if was_empty && !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
    }

    /// Starts a new generation: entries from earlier searches become the first to be replaced.
    pub fn new_generation(&self) {
        let g = self
            .generation
            .load(Ordering::Relaxed)
            .wrapping_add(1)
            .max(1);
        self.generation.store(g, Ordering::Relaxed);
    }

    /// Forgets everything (keeps the allocation; only the part in use is written, and only
    /// when something was stored) and uses only the default table's size again until
    /// [`Self::fit`]. Call it between searches.
    pub fn clear(&self) {
        if self.written.load(Ordering::Relaxed) {
            for lines in self.in_use() {
                for line in lines {
                    for word in &line.0 {
                        word.store(0, Ordering::Relaxed);
                    }
                }
            }
            self.written.store(false, Ordering::Relaxed);
        }
        self.active.store(self.floor, Ordering::Relaxed);
    }

    /// Number of buckets in use that hold an entry (counted: it reads the whole part in use).
    pub fn len(&self) -> usize {
        self.in_use()
            .map(|lines| {
                lines
                    .iter()
                    .filter(|line| line.0[..6].iter().any(|w| w.load(Ordering::Relaxed) != 0))
                    .count()
            })
            .sum()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Puts `fresh` into `bucket`: the same board's bounds are tightened; otherwise slot 0 keeps
/// the deepest entry of the current generation and slot 1 takes the rest.
#[inline(always)]
fn merge(bucket: &mut Bucket, fresh: Entry) {
    for e in bucket.iter_mut() {
        if e.player == fresh.player && e.opponent == fresh.opponent && e.empties != 0 {
            if e.cut != fresh.cut {
                // More exact bounds replace guesses; guesses never touch a more exact entry.
                if fresh.cut > e.cut {
                    *e = fresh;
                }
                return;
            }
            e.lower = e.lower.max(fresh.lower);
            e.upper = e.upper.min(fresh.upper);
            if e.lower > e.upper {
                // Only possible if an older bound came from an aborted search: trust the new one.
                e.lower = fresh.lower;
                e.upper = fresh.upper;
            }
            if fresh.best != NO_MOVE {
                e.best = fresh.best;
            }
            e.generation = fresh.generation;
            return;
        }
    }
    let deep = &bucket[0];
    if deep.empties == 0 || deep.generation != fresh.generation || deep.empties <= fresh.empties {
        bucket[1] = bucket[0];
        bucket[0] = fresh;
    } else {
        bucket[1] = fresh;
    }
}

/// The near table, for the deep nodes just above the last empties (below `TT_MIN` empties;
/// the last empties use no table): lines of two entries each (the board and its bounds),
/// the newest board first, without depth, guarded by the same version word as the deep
/// table's buckets, so a line half written by another thread is never read.
pub struct NearTable {
    lines: Box<[CacheLine]>,
    mask: usize,
    /// Whether a line was written since the table was made or cleared (as the deep table's).
    written: AtomicBool,
}

impl NearTable {
    /// A table of about `bytes` bytes (rounded down to a power of two of lines), taken as it is
    /// first used; `Err` when the system refuses the memory.
    pub fn new(bytes: usize) -> Result<NearTable, OutOfMemory> {
        let n = power_of_two_at_most((bytes / std::mem::size_of::<CacheLine>()).max(16));
        Ok(NearTable {
            lines: zeroed_cache_lines(n)?,
            mask: n - 1,
            written: AtomicBool::new(false),
        })
    }

    /// Starts loading the line of `hash` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        crate::cpu::prefetch(&self.lines[hash as usize & self.mask]);
    }

    /// (lower, upper, best move) stored for `board` (and not being written just now).
    #[inline(always)]
    pub fn probe(&self, board: &Board, hash: u64) -> Option<(i32, i32, u8)> {
        let line = &self.lines[hash as usize & self.mask].0;
        let version = line[VERSION].load(Ordering::Acquire);
        let words: [u64; 6] = std::array::from_fn(|i| line[i].load(Ordering::Relaxed));
        let data = words
            .chunks_exact(3)
            .find(|w| w[0] == board.player && w[1] == board.opponent && w[2] != 0)?[2];
        unchanged_since(line, version).then_some((
            (data as u8 as i8) as i32,
            ((data >> 8) as u8 as i8) as i32,
            (data >> 16) as u8,
        ))
    }

    /// Records a fail-soft search result of `board` with window (`alpha`, `beta`): over the
    /// board's own entry, else as the line's first entry (the first moves to second). Dropped
    /// when another thread is writing the line.
    #[inline(always)]
    pub fn store(&self, board: &Board, hash: u64, alpha: i32, beta: i32, score: i32, best: u8) {
        let (lower, upper) = bounds(alpha, beta, score);
        let data = (lower as i8 as u8 as u64)
            | ((upper as i8 as u8 as u64) << 8)
            | ((best as u64) << 16)
            | (1 << 24);
        let line = &self.lines[hash as usize & self.mask].0;
        let Some(version) = begin_write(line) else {
            return;
        };
        let holds = |at: usize| {
            line[at + 2].load(Ordering::Relaxed) != 0
                && line[at].load(Ordering::Relaxed) == board.player
                && line[at + 1].load(Ordering::Relaxed) == board.opponent
        };
        let (own, second) = (holds(0), holds(3));
        if second {
            line[5].store(data, Ordering::Relaxed);
        } else {
            if !own {
                for i in 0..3 {
                    line[i + 3].store(line[i].load(Ordering::Relaxed), Ordering::Relaxed);
                }
                line[0].store(board.player, Ordering::Relaxed);
                line[1].store(board.opponent, Ordering::Relaxed);
            }
            line[2].store(data, Ordering::Relaxed);
        }
        end_write(line, version);
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
    }

    /// Touches the table's memory when nothing is stored (as [`TranspositionTable::touch`]),
    /// so that the search that fills it does not pay for the pages. Call it between searches.
    pub fn touch(&self) {
        if self.written.load(Ordering::Relaxed) {
            return;
        }
        touch_pages(&self.lines);
    }

    /// Forgets everything (writing only a table that holds something, so that an unused one
    /// stays untouched). Call it between searches.
    pub fn clear(&self) {
        if self.written.load(Ordering::Relaxed) {
            for line in self.lines.iter() {
                for word in &line.0 {
                    word.store(0, Ordering::Relaxed);
                }
            }
            self.written.store(false, Ordering::Relaxed);
        }
    }
}

/// The most the near table takes. Its probes and stores (from 8 empties to below `TT_MIN`) are
/// the solver's most frequent table accesses, and a table that stays in the caches costs less
/// than the few nodes its collisions add. Measured with `TT_MIN` 10 (2026-12-05): FFO #40-#49,
/// one thread, nodes and time side by side with 64 MiB (490.37 M, 15.29-15.45 s): 4 MiB
/// 493.62 M, 15.00-15.16 s; 1 MiB 495.42 M and 2 MiB 494.55 M, as fast as 4; 8 MiB 492.65 M,
/// 16 MiB 491.69 M, both slower than 4. FFO #55-#56, one thread: 4 MiB 6.358 G nodes, 228.8 s;
/// 64 MiB 6.470 G, 236.3 s.
const NEAR_MAX: usize = 4 << 20;

/// The tables of a solver: the sharded table for deep nodes, shared by the threads, and below
/// it one near table for each search thread.
///
/// The near tables are the threads' own because their lines are the solver's most often
/// written, and a line one core wrote must move to the other before that one's next store to
/// it. With one shared near table, FFO #40-#49 on two threads spent a quarter of
/// `deep_hinted`'s samples in a busy hour (a tenth in a quiet one, 1.4% on one thread) on the
/// near store's `lock cmpxchg`; with one table each, that profile took 4.8% fewer CPU seconds
/// (2026-12-05 night, docs/performance.md). A board stored there is looked for again mostly
/// by the thread that searched it: only transpositions between two threads' subtrees of a
/// split are no longer shared at 8-10 empties (FFO #40-#49 on two threads, when splits were
/// made from 13 empties: 0.6% more nodes; since 2026-12-06 a node of 10 empties splits too,
/// when a thread is idle).
pub struct Tables {
    /// Nodes with at least `TT_MIN` empties.
    pub deep: TranspositionTable,
    /// Nodes between the shallow layer and `TT_MIN`: the table of pool thread `i` is
    /// `near[i % len]` ([`Tables::near`]). The versioned lines stay, so a table that two
    /// threads do share (more threads than tables) is slower, never wrong.
    near: Box<[NearTable]>,
}

impl Tables {
    /// Tables within about `megabytes` MiB in all: a quarter (at most `NEAR_MAX`) for the near
    /// table. `Err` when the system refuses the memory (a limit such as `ulimit -v`): a table
    /// too large is the caller's error to report, not an abort.
    pub fn new(megabytes: usize) -> Result<Tables, OutOfMemory> {
        Tables::for_threads(megabytes, 1)
    }

    /// [`Tables::new`] with the deep table's shards fitted to `threads` search threads.
    pub fn for_threads(megabytes: usize, threads: usize) -> Result<Tables, OutOfMemory> {
        Ok(Tables {
            deep: TranspositionTable::with_shards(
                Tables::deep_megabytes(megabytes, threads),
                shards_for(threads),
            )?,
            near: (0..threads.max(1))
                .map(|_| NearTable::new(Tables::near_bytes(megabytes, threads)))
                .collect::<Result<_, _>>()?,
        })
    }

    /// Bytes of each of the `threads` near tables of tables of `megabytes` MiB: together a
    /// quarter of it, at most `NEAR_MAX` each.
    fn near_bytes(megabytes: usize, threads: usize) -> usize {
        (megabytes.saturating_mul(1 << 20) / 4 / threads.max(1)).min(NEAR_MAX)
    }

    /// MiB of the deep table of tables of `megabytes` MiB for `threads` threads.
    fn deep_megabytes(megabytes: usize, threads: usize) -> usize {
        let near = Tables::near_bytes(megabytes, threads).saturating_mul(threads.max(1));
        megabytes.saturating_sub(near >> 20)
    }

    /// The near table of the calling thread: pool thread `i` has table `i` (modulo the count);
    /// a thread outside the pool, which searches only where nothing splits, has table 0.
    pub fn near(&self) -> &NearTable {
        let i = rayon::current_thread_index().unwrap_or(0);
        &self.near[i % self.near.len()]
    }

    /// Readies the tables for a search of `empties` empties ([`TranspositionTable::fit`]) and,
    /// where they are empty, touches the memory that search will use.
    pub fn prepare(&self, empties: u32) {
        self.deep.fit(empties);
        self.deep.touch();
        for near in self.near.iter() {
            near.touch();
        }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        self.deep.clear();
        for near in self.near.iter() {
            near.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_down_to_a_power_of_two() {
        let cases = [
            (1, 1),
            (2, 2),
            (3, 2),
            (16, 16),
            (17, 16),
            (1023, 512),
            (1024, 1024),
        ];
        for (n, want) in cases {
            assert_eq!(power_of_two_at_most(n), want, "{n}");
        }
        assert_eq!(power_of_two_at_most(usize::MAX), 1 << (usize::BITS - 1));
        // 256 MiB in 16 shards: 16 MiB a shard is 294,337 slots of 57 bytes, rounded down to
        // 2^18, of which 7/8 are used.
        assert_eq!(shard_size(256, 16), (1 << 18) / 8 * 7);
        // A near table of 3 MiB holds 2^15 lines of 64 bytes (3 MiB is 49,152 lines).
        assert_eq!(NearTable::new(3 << 20).unwrap().mask, (1 << 15) - 1);
    }

    #[test]
    fn stores_and_tightens_bounds() {
        let tt = TranspositionTable::new(1).unwrap();
        let b = Board::start();
        let h = b.hash();
        assert!(tt.probe(&b, h).is_none());
        tt.store(&b, h, 60, -10, 10, 20, 19, EXACT); // fail high: lower 20
        let e = tt.probe(&b, h).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (20, 64, 19));
        tt.store(&b, h, 60, 20, 30, 25, NO_MOVE, EXACT); // exact 25
        let e = tt.probe(&b, h).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (25, 25, 19));
    }

    #[test]
    fn never_returns_another_boards_entry() {
        let tt = TranspositionTable::new(0).unwrap();
        let mut rng = crate::board::random::Rng(3);
        let mut boards = Vec::new();
        for _ in 0..100_000 {
            let (p, o) = rng.board();
            let b = Board {
                player: p,
                opponent: o,
            };
            // Force collisions: every board uses the same hash.
            tt.store(&b, 12345, 20, 0, 1, 5, 3, EXACT);
            boards.push(b);
        }
        for b in &boards[..boards.len() - 2] {
            if let Some(e) = tt.probe(b, 12345) {
                assert_eq!((e.player, e.opponent), (b.player, b.opponent));
            }
        }
        assert!(tt.len() <= 1);
    }

    #[test]
    fn size_stays_bounded() {
        let tt = TranspositionTable::new(1).unwrap();
        let mut rng = crate::board::random::Rng(4);
        for _ in 0..200_000 {
            let (p, o) = rng.board();
            let b = Board {
                player: p,
                opponent: o,
            };
            tt.store(&b, b.hash(), 20, 0, 1, 5, 3, EXACT);
        }
        assert!(tt.len() as u64 <= tt.buckets());
        assert!(tt.len() as u64 > tt.buckets() / 2);
    }

    #[test]
    fn every_bucket_has_its_own_slot() {
        // Each hash lands in the bucket its bits name, so storing one board per bucket fills
        // the table exactly, and a prefetch address is the bucket's address.
        let tt = TranspositionTable::with_shards(1, 4).unwrap();
        let per_shard = tt.per_shard;
        let b = Board::start();
        for shard in 0..4u64 {
            for slot in 0..per_shard {
                // The hash whose low 32 bits scale to `slot` (rounded up) in shard `shard`.
                let low = (slot << 32).div_ceil(per_shard);
                let hash = shard << 62 | low;
                assert_eq!(tt.locate(hash), (shard as usize, slot as usize));
                tt.store(&b, hash, 20, 0, 1, 5, 3, EXACT);
                assert!(tt.probe(&b, hash).is_some());
            }
        }
        assert_eq!(tt.len() as u64, tt.buckets());
        for hash in [0u64, 1 << 62 | 12345, u64::MAX] {
            // A bucket is the cache line the prefetch asks for, aligned to a line.
            let (shard, slot) = tt.locate(hash);
            let line = tt.line(hash) as *const CacheLine as usize;
            assert_eq!(line, &tt.shards[shard][slot] as *const CacheLine as usize);
            assert_eq!(line % 64, 0);
        }
        tt.clear();
        assert!(tt.is_empty());
        assert!(tt.probe(&b, 0).is_none());
        assert!(tt
            .shards
            .iter()
            .flat_map(|lines| lines.iter())
            .all(|line| line.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
    }

    /// Two threads store and probe boards that all fall into four buckets (`hash` 0-3), each
    /// board with bounds and a move of its own (`store(board, hash, score, best)` stores the
    /// exact `score`; `probe` returns the bounds and move found): every entry a probe returns
    /// must be that board's, never words of one write with words of another (a bucket read
    /// while it is written).
    fn two_threads_never_read_a_mixed_entry(
        store: impl Fn(&Board, u64, i32, u8) + Sync,
        probe: impl Fn(&Board, u64) -> Option<(i32, i32, u8)> + Sync,
    ) {
        let value = |b: &Board| (b.player.count_ones() as i32 - 32, (b.opponent % 64) as u8);
        let boards: Vec<Board> = {
            let mut rng = crate::board::random::Rng(11);
            (0..64)
                .map(|_| {
                    let (player, opponent) = rng.board();
                    Board { player, opponent }
                })
                .collect()
        };
        let hits = std::sync::atomic::AtomicUsize::new(0);
        let start = std::sync::Barrier::new(2);
        std::thread::scope(|scope| {
            for t in 0..2usize {
                let (store, probe, boards, hits, start) = (&store, &probe, &boards, &hits, &start);
                scope.spawn(move || {
                    start.wait();
                    for i in 0..2_000_000usize {
                        // Each board is stored, then probed at once (another board may
                        // have taken its slot since).
                        let k = i / 2 * 7 + t * 13;
                        let b = &boards[k % boards.len()];
                        let hash = k as u64 % 4;
                        let (score, best) = value(b);
                        if i % 2 == 0 {
                            store(b, hash, score, best);
                        } else if let Some(found) = probe(b, hash) {
                            assert_eq!(found, (score, score, best));
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn two_threads_writing_the_same_buckets_never_read_a_mixed_entry() {
        let tt = TranspositionTable::new(1).unwrap();
        two_threads_never_read_a_mixed_entry(
            |b, hash, score, best| tt.store(b, hash, 20, score - 1, score + 1, score, best, EXACT),
            |b, hash| {
                let e = tt.probe(b, hash)?;
                assert_eq!((e.player, e.opponent), (b.player, b.opponent));
                Some((e.lower as i32, e.upper as i32, e.best))
            },
        );
        let near = NearTable::new(1 << 16).unwrap();
        two_threads_never_read_a_mixed_entry(
            |b, hash, score, best| near.store(b, hash, score - 1, score + 1, score, best),
            |b, hash| near.probe(b, hash),
        );
    }

    #[test]
    fn entries_pack_into_three_words_and_back() {
        let e = Entry {
            player: 0x0102_0304_0506_0708,
            opponent: u64::MAX - 5,
            lower: -64,
            upper: 37,
            best: NO_MOVE,
            empties: 60,
            generation: 255,
            cut: EXACT,
        };
        assert_eq!(Entry::unpack(&e.pack()), e);
        assert_eq!(Entry::default().pack(), [0; 3]);
    }

    #[test]
    fn a_large_table_is_used_only_as_far_as_the_search_needs() {
        // A 1 GiB table behaves as the default one for a search of few empties: its boards
        // land in the same number of buckets, the first of each shard (the memory just below
        // the shard's control bytes), so the rest of the allocation is never touched.
        let default = Tables::new(DEFAULT_MB).unwrap().deep;
        let large = Tables::new(1024).unwrap().deep;
        assert!(large.buckets() >= 4 * default.buckets());
        assert_eq!(default.active_buckets(), default.buckets());
        let check = |tt: &TranspositionTable, empties: u32, expected: u64| {
            tt.fit(empties);
            assert_eq!(tt.active_buckets(), expected, "{empties} empties");
            let active = tt.active.load(Ordering::Relaxed);
            let mut rng = crate::board::random::Rng(5);
            let boards: Vec<Board> = (0..20_000)
                .map(|_| {
                    let (player, opponent) = rng.board();
                    Board { player, opponent }
                })
                .collect();
            for b in &boards {
                assert!(tt.locate(b.hash()).1 < active as usize);
                tt.store(b, b.hash(), empties, 0, 1, 5, 3, EXACT);
            }
            let found = boards.iter().filter(|b| tt.probe(b, b.hash()).is_some());
            assert!(found.count() > 19_000, "{empties} empties");
        };
        for empties in [10, 20, FIT_EMPTIES] {
            check(&large, empties, default.buckets());
        }
        check(&large, FIT_EMPTIES + 1, 2 * default.buckets());
        check(&large, FIT_EMPTIES + 2, 4 * default.buckets());
        // It never shrinks until cleared, and never exceeds the table.
        check(&large, 20, 4 * default.buckets());
        check(&large, 60, large.buckets());
        large.clear();
        assert_eq!(large.active_buckets(), default.buckets());
        // The default table is used whole at any depth, as before.
        check(&default, 30, default.buckets());
    }

    #[test]
    fn touching_an_empty_table_leaves_it_empty_and_a_full_one_alone() {
        let tables = Tables::new(64).unwrap();
        let b = Board::start();
        tables.prepare(24);
        assert!(tables.deep.is_empty());
        tables.deep.store(&b, b.hash(), 20, 0, 1, 5, 3, EXACT);
        tables.prepare(24);
        assert_eq!(tables.deep.probe(&b, b.hash()).map(|e| e.lower), Some(5));
        assert_eq!(tables.deep.len(), 1);
        // The near tables as well: every line of a touched one is still empty, and a written
        // one keeps its entries.
        let near = Tables::for_threads(64, 2).unwrap();
        near.prepare(24);
        for table in near.near.iter() {
            assert!(table.lines.iter().all(|line| line.0[..7]
                .iter()
                .all(|word| word.load(Ordering::Relaxed) == 0)));
            assert_eq!(table.probe(&b, 9), None);
        }
        near.near[1].store(&b, 9, -10, 10, 4, 20);
        near.prepare(24);
        assert_eq!(near.near[1].probe(&b, 9), Some((4, 4, 20)));
    }

    #[test]
    fn shards_fit_the_threads() {
        let counts: Vec<usize> = [0, 1, 2, 3, 4, 8, 100].map(shards_for).to_vec();
        assert_eq!(counts, [16, 16, 16, 32, 32, 64, 1024]);
        let tables = Tables::for_threads(16, 4).unwrap();
        assert_eq!(tables.deep.shards.len(), 32);
    }

    #[test]
    fn each_pool_thread_has_its_own_near_table() {
        let tables = Tables::for_threads(256, 2).unwrap();
        let at = |t: &NearTable| t as *const NearTable as usize;
        let own: Vec<usize> = tables.near.iter().map(at).collect();
        assert_eq!(own.len(), 2);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let seen = pool.broadcast(|c| (c.index(), at(tables.near())));
        assert_eq!(seen, [(0, own[0]), (1, own[1])]);
        // Outside the pool: the first table.
        assert_eq!(at(tables.near()), own[0]);
        // Together a quarter of the memory, at most 4 MiB each; the deep table has the rest.
        assert_eq!(Tables::near_bytes(256, 2), 4 << 20);
        assert_eq!(Tables::near_bytes(8, 2), 1 << 20);
        assert_eq!(Tables::deep_megabytes(8, 2), 6);
        assert_eq!(Tables::deep_megabytes(256, 1), 252);
        // A pool larger than the tables shares them round the table count.
        let small = Tables::for_threads(8, 1).unwrap();
        let seen = pool.broadcast(|_| at(small.near()));
        assert_eq!(seen, [at(&small.near[0]); 2]);
    }

    #[test]
    fn tables_the_system_cannot_give_are_an_error() {
        // 4096 shards of 2^32 slots' worth (224 GiB each): more than the address space holds.
        let per_shard = shard_size(usize::MAX, 1 << 12);
        assert_eq!(per_shard, (1 << 32) / 8 * 7);
        let refused = match Tables::for_threads(usize::MAX, 1024) {
            Ok(_) => panic!("896 TiB of tables were allocated"),
            Err(refused) => refused,
        };
        assert_eq!(
            refused,
            OutOfMemory {
                bytes: per_shard * 64
            }
        );
        // The near table alone, as large as a size can count: 2^57 lines, 2^63 bytes.
        let refused = match NearTable::new(usize::MAX) {
            Ok(_) => panic!("a near table of half the address space was allocated"),
            Err(refused) => refused,
        };
        assert_eq!(refused.bytes, 1 << 63);
    }

    #[test]
    fn shards_and_buckets_come_from_separate_bits() {
        let tt = TranspositionTable::with_shards(4, 16).unwrap();
        assert_eq!(tt.shards.len(), 16);
        // Same low bits, different top bits: same slot, different shards.
        let (s1, b1) = tt.locate(0x1000_0000_DEAD_BEEF);
        let (s2, b2) = tt.locate(0xF000_0000_DEAD_BEEF);
        assert_eq!((s1, s2, b1), (1, 15, b2));
        // Shard counts are rounded to a power of two of at least 2.
        assert_eq!(
            TranspositionTable::with_shards(1, 3).unwrap().shards.len(),
            4
        );
        assert_eq!(
            TranspositionTable::with_shards(1, 1).unwrap().shards.len(),
            2
        );
    }

    #[test]
    fn near_table_keeps_bounds_and_rejects_other_boards() {
        let near = NearTable::new(1 << 16).unwrap();
        let b = Board::start();
        near.store(&b, 7, -10, 10, -30, 19);
        assert_eq!(near.probe(&b, 7), Some((-64, -30, 19)));
        near.store(&b, 7, -10, 10, 4, 20);
        assert_eq!(near.probe(&b, 7), Some((4, 4, 20)));
        // Same line, another board: both are kept, neither is returned for the other.
        let other = b.pass();
        assert_eq!(near.probe(&other, 7), None);
        near.store(&other, 7, 0, 1, 64, 3);
        assert_eq!(near.probe(&other, 7), Some((64, 64, 3)));
        assert_eq!(near.probe(&b, 7), Some((4, 4, 20)));
        // The older board (now second) is updated in place, and a third board pushes out
        // whichever is second.
        near.store(&b, 7, -10, 10, 6, 21);
        assert_eq!(near.probe(&b, 7), Some((6, 6, 21)));
        let third = Board {
            player: b.player | 1,
            opponent: b.opponent,
        };
        near.store(&third, 7, 0, 1, -2, 0);
        assert_eq!(near.probe(&third, 7), Some((-64, -2, 0)));
        assert_eq!(near.probe(&other, 7), Some((64, 64, 3)));
        assert_eq!(near.probe(&b, 7), None);
        near.clear();
        assert_eq!(near.probe(&other, 7), None);
        assert_eq!(near.probe(&third, 7), None);
        // A cleared table keeps and replaces boards as a new one does: the boards stored
        // before the clear are forgotten, not taken for the board's own entry.
        let fresh = NearTable::new(1 << 16).unwrap();
        for table in [&near, &fresh] {
            table.store(&other, 7, 0, 1, 10, 1);
            table.store(&b, 7, 0, 1, 12, 2);
            assert_eq!(table.probe(&other, 7), Some((10, 64, 1)));
            assert_eq!(table.probe(&b, 7), Some((12, 64, 2)));
        }
        assert!(near
            .lines
            .iter()
            .zip(fresh.lines.iter())
            .all(|(a, b)| (0..VERSION)
                .all(|i| a.0[i].load(Ordering::Relaxed) == b.0[i].load(Ordering::Relaxed))));
    }

    /// The version word of a line (a sequence lock): while it is odd (another thread's write
    /// under way) neither table returns what the line holds nor writes into it, and a line
    /// whose version moved between a probe's two reads of it is not taken. Fails if a probe
    /// skipped the check (it would return the half-written words) or a store skipped the
    /// lock (it would write the line under the other writer).
    #[test]
    fn a_line_being_written_is_neither_read_nor_written() {
        let b = Board::start();
        let other = b.pass();
        let near = NearTable::new(1 << 16).unwrap();
        near.store(&b, 7, -10, 10, 4, 20);
        let line = &near.lines[7 & near.mask].0;
        let even = line[VERSION].load(Ordering::Relaxed);
        assert_eq!(even % 2, 0);
        line[VERSION].store(even + 1, Ordering::Relaxed);
        assert_eq!(near.probe(&b, 7), None);
        near.store(&other, 7, 0, 1, 30, 5);
        let words: Vec<u64> = line.iter().map(|w| w.load(Ordering::Relaxed)).collect();
        line[VERSION].store(even, Ordering::Relaxed);
        assert_eq!(near.probe(&b, 7), Some((4, 4, 20)));
        assert_eq!(near.probe(&other, 7), None, "stored under another writer");
        assert_eq!(words[VERSION], even + 1);
        // A probe whose second read of the version finds another: not taken.
        let version = line[VERSION].load(Ordering::Relaxed);
        assert!(unchanged_since(line, version));
        line[VERSION].store(version + 2, Ordering::Relaxed);
        assert!(!unchanged_since(line, version));
        assert!(!unchanged_since(line, version + 1));

        let tt = TranspositionTable::new(1).unwrap();
        let h = b.hash();
        tt.store(&b, h, 60, -10, 10, 4, 20, EXACT);
        let line = &tt.line(h).0;
        let even = line[VERSION].load(Ordering::Relaxed);
        assert_eq!(even % 2, 0);
        line[VERSION].store(even + 1, Ordering::Relaxed);
        assert!(tt.probe(&b, h).is_none());
        tt.store(&b, h, 60, -10, 10, -6, 21, EXACT);
        line[VERSION].store(even, Ordering::Relaxed);
        let e = tt.probe(&b, h).unwrap();
        assert_eq!(
            (e.lower, e.upper, e.best),
            (4, 4, 20),
            "stored under another writer"
        );
        // The lock taken and released by a store: the next even version.
        tt.store(&b, h, 60, -10, 10, 4, 22, EXACT);
        assert_eq!(line[VERSION].load(Ordering::Relaxed), even + 2);
    }

    #[test]
    fn exact_bounds_replace_selective_ones_and_never_the_reverse() {
        let tt = TranspositionTable::new(1).unwrap();
        let b = Board::start();
        let h = b.hash();
        tt.store(&b, h, 60, -10, 10, 30, 19, 8); // a selective search's guess: lower 30
        let e = tt.probe(&b, h).unwrap();
        assert_eq!((e.lower, e.upper, e.cut), (30, 64, 8));
        tt.store(&b, h, 60, -10, 10, -20, 26, EXACT); // exact: upper -20 replaces the guess
        let e = tt.probe(&b, h).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.cut), (-64, -20, 26, EXACT));
        tt.store(&b, h, 60, -30, -28, -29, 37, 12); // a guess never touches the exact entry
        let e = tt.probe(&b, h).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.cut), (-64, -20, 26, EXACT));
    }
}
