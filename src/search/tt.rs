//! The transposition table: bounds on exact scores of boards already searched, shared by all
//! threads. Built on a `DashMap` keyed by bucket number, so its size is fixed up front: a board
//! maps to one of `buckets` slots, each holding two entries (one kept by depth, one always
//! replaced). The map is used through its shards: the key is made from the board hash so that
//! it needs no second hash and each bucket sits in a known slot (one lookup, and a prefetch
//! before it). The full board is stored and compared, so a hash collision can never return a
//! bound that belongs to another board. Below `TT_MIN` empties a lock-free near table is used.
//!
//! A search uses only the part of the deep table its size needs ([`TranspositionTable::fit`]):
//! the kernel gives memory on first touch, one (huge) page at a time, so a small search spread
//! over a large table would pay for zeroing all of it.

use crate::board::Board;
use dashmap::{DashMap, SharedValue};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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
    /// Empty squares of the board (the work a bound saves grows with it).
    pub empties: u8,
    /// Search generation that wrote the entry: older generations are replaced first.
    pub generation: u8,
    /// How exactly the bounds were searched: [`EXACT`], or the margin in discs of the
    /// selective search that wrote them (its bounds are guesses: a search takes bounds only
    /// from entries at least as exact as itself, the move from any).
    pub cut: u8,
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

/// One item of a shard's hash table: the bucket's key and its two entries.
type Item = (u64, SharedValue<Bucket>);

/// The map's keys are built from the board hash already (see [`TranspositionTable`]): the
/// hasher hands them on unchanged.
#[derive(Default)]
pub struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are ever hashed; any other input still gets a deterministic value.
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A size-bounded transposition table.
///
/// The `DashMap` is used through its shards: one board hash chooses the shard (its top bits)
/// and the bucket inside the shard (its low 32 bits, scaled to the shard's number of buckets
/// in use: the first `active` of them, see [`TranspositionTable::fit`]).
/// A bucket's key is its number with the shard and a tag put where the map looks for them
/// (hashbrown's slot from the low bits, its 7-bit tag from the top 7, dashmap's shard from the
/// bits below those), so the identity hasher needs no second mix and every bucket lives in its
/// own home slot: a lookup reads one group of control bytes and compares one key. Each shard's
/// table is sized so that all its buckets fit without growing; its allocation therefore never
/// moves, which is what lets [`TranspositionTable::prefetch`] compute a bucket's address.
pub struct TranspositionTable {
    map: DashMap<u64, Bucket, BuildHasherDefault<IdentityHasher>>,
    /// Address of each shard's control bytes (its items lie just below it): prefetch only.
    ends: Box<[usize]>,
    /// log2 of the number of shards.
    shard_bits: u32,
    /// Buckets in each shard.
    per_shard: u64,
    /// Buckets of each shard in use: the first ones, whose items lie together just below the
    /// control bytes, so that the memory a search touches is what its size needs. Changed only
    /// between searches ([`TranspositionTable::fit`], [`TranspositionTable::clear`]).
    active: AtomicU64,
    /// `active` of an empty table: the whole table up to the size of the default one.
    floor: u64,
    generation: AtomicU8,
}

/// Bytes one bucket costs: the item and its control byte.
const BYTES_PER_SLOT: usize = std::mem::size_of::<Item>() + 1;

/// Shards of the map unless the caller fits them to its threads. Few, so that each shard's
/// table is a large block: the binary's allocator puts such blocks on huge pages, at the price
/// of at most one partly used huge page per shard (FFO #40-#49, one thread, 256 MiB: 64 shards
/// of 1.8 MiB, 48 MiB of huge pages in all; 4 shards, 148 MiB, about 5% faster).
pub const DEFAULT_SHARDS: usize = 16;

/// Shards for `threads` search threads: eight per thread (a shard's lock is then rarely held
/// by another thread when one wants it), at least [`DEFAULT_SHARDS`].
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

/// Slots (a power of two) and buckets of each shard of a deep table of `megabytes` MiB in
/// `shards` shards.
fn shard_size(megabytes: usize, shards: usize) -> (usize, usize) {
    let bytes = megabytes.saturating_mul(1 << 20).max(64 << 10);
    // A shard's table has a power of two of slots and holds 7/8 of them: fill exactly that
    // many buckets, so that it never grows (and never moves).
    let slots_fit = ((bytes / shards) / BYTES_PER_SLOT).clamp(16, 1 << 32);
    let slots = if slots_fit.is_power_of_two() {
        slots_fit
    } else {
        slots_fit.next_power_of_two() / 2
    };
    (slots, slots / 8 * 7)
}

impl TranspositionTable {
    /// A table using at most about `megabytes` MiB (at least a few kilobytes).
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::with_shards(megabytes, DEFAULT_SHARDS)
    }

    /// A table of at most about `megabytes` MiB in `shards` shards (a power of two, 2 or
    /// more; other values are rounded to one). Its memory is taken as searches first use it.
    pub fn with_shards(megabytes: usize, shards: usize) -> TranspositionTable {
        let shards = shards.clamp(2, 1 << 12).next_power_of_two();
        let (slots, per_shard) = shard_size(megabytes, shards);
        // An empty table is used up to the size of the default table's deep part (so that a
        // larger table changes nothing for small searches).
        let floor = shard_size(Tables::deep_megabytes(DEFAULT_MB), shards)
            .1
            .min(per_shard);
        let map = DashMap::with_capacity_and_hasher_and_shard_amount(
            per_shard * shards,
            BuildHasherDefault::<IdentityHasher>::default(),
            shards,
        );
        let ends = map
            .shards()
            .iter()
            .map(|shard| {
                let table = shard.read();
                debug_assert_eq!(table.buckets(), slots);
                debug_assert_eq!(table.capacity(), per_shard);
                table.data_end().as_ptr() as usize
            })
            .collect();
        TranspositionTable {
            map,
            ends,
            shard_bits: shards.trailing_zeros(),
            per_shard: per_shard as u64,
            active: AtomicU64::new(floor as u64),
            floor: floor as u64,
            generation: AtomicU8::new(1),
        }
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

    /// Touches the memory of every bucket in use of an empty table (a shard holding entries
    /// is left alone), so that the search that fills them does not pay for the pages.
    pub fn touch(&self) {
        let active = self.active.load(Ordering::Relaxed);
        for (shard, lock) in self.map.shards().iter().enumerate() {
            let mut table = lock.write();
            if !table.is_empty() {
                continue;
            }
            for slot in 0..active {
                let key = self.key(shard as u64, slot);
                let item = (key, SharedValue::new(Bucket::default()));
                let _ = table.try_insert_no_grow(key, item);
            }
            table.clear();
        }
    }

    /// The map key of bucket `slot` of `shard`.
    #[inline(always)]
    fn key(&self, shard: u64, slot: u64) -> u64 {
        // hashbrown: slot from the low bits, tag from the top 7 (distinct for neighbouring
        // slots); dashmap: shard from the bits just below the tag.
        (slot & 0x7f) << 57 | shard << (57 - self.shard_bits) | slot
    }

    /// The shard, the slot inside it and the map key of the bucket of `hash`.
    #[inline(always)]
    fn locate(&self, hash: u64) -> (usize, u64, u64) {
        let shard = hash >> (64 - self.shard_bits);
        let slot = ((hash as u32 as u64) * self.active.load(Ordering::Relaxed)) >> 32;
        (shard as usize, slot, self.key(shard, slot))
    }

    /// Starts loading the bucket of `hash` (its control byte and its item) into the cache.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        let (shard, slot, _) = self.locate(hash);
        let end = self.ends[shard];
        let item = end.wrapping_sub((slot as usize + 1) * std::mem::size_of::<Item>());
        crate::cpu::prefetch(end.wrapping_add(slot as usize) as *const u8);
        crate::cpu::prefetch(item as *const u8);
        crate::cpu::prefetch(item.wrapping_add(std::mem::size_of::<Item>() - 1) as *const u8);
    }

    /// The entry for `board`, if stored.
    #[inline(always)]
    pub fn probe(&self, board: &Board, hash: u64) -> Option<Entry> {
        let (shard, _, key) = self.locate(hash);
        let table = self.map.shards()[shard].read();
        let (_, bucket) = table.get(key, |item| item.0 == key)?;
        bucket
            .get()
            .iter()
            .find(|e| e.player == board.player && e.opponent == board.opponent && e.empties != 0)
            .copied()
    }

    /// Records the result of a search of `board` with window (`alpha`, `beta`) that returned
    /// `score` (fail-soft) with best move `best`.
    #[inline]
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
        let (shard, _, key) = self.locate(hash);
        let mut table = self.map.shards()[shard].write();
        match table.get_mut(key, |item| item.0 == key) {
            Some((_, bucket)) => merge(bucket.get_mut(), fresh),
            None => {
                let mut bucket = Bucket::default();
                merge(&mut bucket, fresh);
                // Every bucket of the shard fits in its table: this never grows it (and if it
                // would, the result is dropped rather than the table grown).
                let _ = table.try_insert_no_grow(key, (key, SharedValue::new(bucket)));
            }
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

    /// Forgets everything (keeps the allocation; an empty shard is not touched) and uses only
    /// the default table's size again until [`Self::fit`].
    pub fn clear(&self) {
        for shard in self.map.shards() {
            shard.write().clear();
        }
        self.active.store(self.floor, Ordering::Relaxed);
    }

    /// Number of buckets in use.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
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

/// The near table: lock-free, always-replace, for the deep nodes just above the last empties
/// (below `TT_MIN` empties; the last empties use no table), where a
/// `DashMap` lock per node would cost more than it saves. Each slot is three atomics written
/// with the data folded into both key words, so a slot torn by two threads writing at once
/// fails verification and reads as a miss instead of as a wrong bound.
pub struct NearTable {
    slots: Vec<[std::sync::atomic::AtomicU64; 3]>,
    mask: usize,
}

impl NearTable {
    /// A table of about `bytes` bytes (rounded down to a power of two of slots).
    pub fn new(bytes: usize) -> NearTable {
        let n = (bytes / 24).max(1024).next_power_of_two() / 2;
        let slots = (0..n).map(|_| Default::default()).collect();
        NearTable { slots, mask: n - 1 }
    }

    /// Starts loading the slot of `hash` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        crate::cpu::prefetch(&self.slots[hash as usize & self.mask]);
    }

    /// (lower, upper, best move) stored for `board`.
    #[inline(always)]
    pub fn probe(&self, board: &Board, hash: u64) -> Option<(i32, i32, u8)> {
        let slot = &self.slots[hash as usize & self.mask];
        let data = slot[2].load(Ordering::Relaxed);
        if data == 0
            || slot[0].load(Ordering::Relaxed) ^ data != board.player
            || slot[1].load(Ordering::Relaxed) ^ data != board.opponent
        {
            return None;
        }
        Some((
            (data as u8 as i8) as i32,
            ((data >> 8) as u8 as i8) as i32,
            (data >> 16) as u8,
        ))
    }

    /// Records a fail-soft search result of `board` with window (`alpha`, `beta`).
    #[inline(always)]
    pub fn store(&self, board: &Board, hash: u64, alpha: i32, beta: i32, score: i32, best: u8) {
        let (lower, upper) = bounds(alpha, beta, score);
        let data = (lower as i8 as u8 as u64)
            | ((upper as i8 as u8 as u64) << 8)
            | ((best as u64) << 16)
            | (1 << 24);
        let slot = &self.slots[hash as usize & self.mask];
        slot[0].store(board.player ^ data, Ordering::Relaxed);
        slot[1].store(board.opponent ^ data, Ordering::Relaxed);
        slot[2].store(data, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s[2].store(0, Ordering::Relaxed);
        }
    }
}

/// The most the near table takes. (FFO #40-#44: a 24 MiB near table (1 M slots), 85.39 M nodes;
/// 48 MiB, 85.12 M; 8 MiB, 86.70 M. FFO #45-#46: 24 MiB, 235.66 M; 48 MiB, 234.40 M.)
const NEAR_MAX: usize = 64 << 20;

/// Both tables of a solver: the bounded `DashMap` for deep nodes and the lock-free one below it.
pub struct Tables {
    /// Nodes with at least `TT_MIN` empties.
    pub deep: TranspositionTable,
    /// Nodes between the shallow layer and `TT_MIN`.
    pub near: NearTable,
}

impl Tables {
    /// Tables within about `megabytes` MiB in all: a quarter (at most 64 MiB) for the near table.
    pub fn new(megabytes: usize) -> Tables {
        Tables::for_threads(megabytes, 1)
    }

    /// [`Tables::new`] with the deep table's shards fitted to `threads` search threads.
    pub fn for_threads(megabytes: usize, threads: usize) -> Tables {
        Tables {
            deep: TranspositionTable::with_shards(
                Tables::deep_megabytes(megabytes),
                shards_for(threads),
            ),
            near: NearTable::new(Tables::near_bytes(megabytes)),
        }
    }

    /// Bytes of the near table of tables of `megabytes` MiB.
    fn near_bytes(megabytes: usize) -> usize {
        (megabytes.saturating_mul(1 << 20) / 4).min(NEAR_MAX)
    }

    /// MiB of the deep table of tables of `megabytes` MiB.
    fn deep_megabytes(megabytes: usize) -> usize {
        megabytes.saturating_sub(Tables::near_bytes(megabytes) >> 20)
    }

    /// Readies the tables for a search of `empties` empties ([`TranspositionTable::fit`]) and,
    /// where they are empty, touches the memory that search will use.
    pub fn prepare(&self, empties: u32) {
        self.deep.fit(empties);
        self.deep.touch();
    }

    /// Forgets everything.
    pub fn clear(&self) {
        self.deep.clear();
        self.near.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_tightens_bounds() {
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(0);
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
        let tt = TranspositionTable::new(1);
        let capacity = tt.map.capacity();
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
        assert_eq!(tt.map.capacity(), capacity, "the map must never grow");
    }

    #[test]
    fn every_bucket_has_its_own_home_slot() {
        // Each bucket's key lands in the slot its number names, so a table holding every
        // bucket is exactly full, never grew, and a prefetch address is the item's address.
        let tt = TranspositionTable::with_shards(1, 4);
        let capacity = tt.map.capacity();
        assert_eq!(capacity as u64, tt.buckets());
        let per_shard = tt.per_shard;
        let b = Board::start();
        for shard in 0..4u64 {
            for slot in 0..per_shard {
                // The hash whose low 32 bits scale to `slot` (rounded up) in shard `shard`.
                let low = (slot << 32).div_ceil(per_shard);
                let hash = shard << 62 | low;
                assert_eq!(tt.locate(hash).0 as u64, shard);
                assert_eq!(tt.locate(hash).1, slot);
                tt.store(&b, hash, 20, 0, 1, 5, 3, EXACT);
            }
        }
        assert_eq!(tt.len() as u64, tt.buckets());
        assert_eq!(tt.map.capacity(), capacity, "the map must never grow");
        for hash in [0u64, 1 << 62 | 12345, u64::MAX] {
            let (shard, slot, key) = tt.locate(hash);
            let table = tt.map.shards()[shard].read();
            let item = table.get(key, |item| item.0 == key).unwrap();
            let computed = tt.ends[shard] - (slot as usize + 1) * std::mem::size_of::<Item>();
            assert_eq!(item as *const Item as usize, computed);
        }
        tt.clear();
        assert!(tt.is_empty());
        assert!(tt.probe(&b, 0).is_none());
        assert_eq!(tt.map.capacity(), capacity, "clearing keeps the allocation");
    }

    #[test]
    fn a_large_table_is_used_only_as_far_as_the_search_needs() {
        // A 1 GiB table behaves as the default one for a search of few empties: its boards
        // land in the same number of buckets, the first of each shard (the memory just below
        // the shard's control bytes), so the rest of the allocation is never touched.
        let default = Tables::new(DEFAULT_MB).deep;
        let large = Tables::new(1024).deep;
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
                assert!(tt.locate(b.hash()).1 < active);
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
        let tables = Tables::new(64);
        let b = Board::start();
        tables.prepare(24);
        assert!(tables.deep.is_empty());
        tables.deep.store(&b, b.hash(), 20, 0, 1, 5, 3, EXACT);
        tables.prepare(24);
        assert_eq!(tables.deep.probe(&b, b.hash()).map(|e| e.lower), Some(5));
        assert_eq!(tables.deep.len(), 1);
    }

    #[test]
    fn shards_fit_the_threads() {
        let counts: Vec<usize> = [0, 1, 2, 3, 4, 8, 100].map(shards_for).to_vec();
        assert_eq!(counts, [16, 16, 16, 32, 32, 64, 1024]);
        let tables = Tables::for_threads(16, 4);
        assert_eq!(tables.deep.map.shards().len(), 32);
    }

    #[test]
    fn shards_and_buckets_come_from_separate_bits() {
        let tt = TranspositionTable::with_shards(4, 16);
        assert_eq!(tt.map.shards().len(), 16);
        // Same low bits, different top bits: same slot, different shards.
        let (s1, b1, k1) = tt.locate(0x1000_0000_DEAD_BEEF);
        let (s2, b2, k2) = tt.locate(0xF000_0000_DEAD_BEEF);
        assert_eq!((s1, s2, b1), (1, 15, b2));
        assert_ne!(k1, k2);
        // The key is where dashmap and hashbrown look for shard, slot and tag.
        assert_eq!(tt.map.determine_shard(k2 as usize), 15);
        assert_eq!(k2 >> 57, b2 & 0x7f);
        assert_eq!(k2 & (tt.map.shards()[0].read().buckets() as u64 - 1), b2);
        // Shard counts are rounded to a power of two of at least 2.
        assert_eq!(TranspositionTable::with_shards(1, 3).map.shards().len(), 4);
        assert_eq!(TranspositionTable::with_shards(1, 1).map.shards().len(), 2);
    }

    #[test]
    fn near_table_keeps_bounds_and_rejects_other_boards() {
        let near = NearTable::new(1 << 16);
        let b = Board::start();
        near.store(&b, 7, -10, 10, -30, 19);
        assert_eq!(near.probe(&b, 7), Some((-64, -30, 19)));
        near.store(&b, 7, -10, 10, 4, 20);
        assert_eq!(near.probe(&b, 7), Some((4, 4, 20)));
        // Same slot, another board: the old entry is replaced, never returned for the new one.
        let other = b.pass();
        assert_eq!(near.probe(&other, 7), None);
        near.store(&other, 7, 0, 1, 64, 3);
        assert_eq!(near.probe(&other, 7), Some((64, 64, 3)));
        assert_eq!(near.probe(&b, 7), None);
        near.clear();
        assert_eq!(near.probe(&other, 7), None);
    }

    #[test]
    fn exact_bounds_replace_selective_ones_and_never_the_reverse() {
        let tt = TranspositionTable::new(1);
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
