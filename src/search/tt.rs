//! The transposition table: bounds on exact scores of boards already searched, shared by all
//! threads. Built on a `DashMap` keyed by bucket number, so its size is fixed up front: a board
//! maps to one of `buckets` slots, each holding two entries (one kept by depth, one always
//! replaced). The full board is stored and compared, so a hash collision can never return a
//! bound that belongs to another board.

use crate::board::Board;
use dashmap::DashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU8, Ordering};

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

/// Keys are already well-mixed bucket numbers: hashing them again would only cost time.
#[derive(Default)]
pub struct BucketHasher(u64);

impl Hasher for BucketHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        // Spread the bucket number over all 64 bits: dashmap picks the shard from high bits.
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A size-bounded transposition table.
pub struct TranspositionTable {
    map: DashMap<u32, Bucket, BuildHasherDefault<BucketHasher>>,
    buckets: u64,
    generation: AtomicU8,
}

/// Bytes one stored bucket costs inside the map (key, value, control byte, and the spare room
/// a hash map keeps free).
const BYTES_PER_BUCKET: usize = (std::mem::size_of::<(u32, Bucket)>() + 1) * 8 / 7 + 4;

impl TranspositionTable {
    /// A table using at most about `megabytes` MiB (at least a few kilobytes).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.saturating_mul(1 << 20).max(64 << 10);
        let shards = 64usize;
        // Each shard's map grows by doubling: size the key space so that no shard, even with
        // an unlucky share of keys, needs more room than its power-of-two allotment.
        let per_shard_slots = ((bytes / shards) / BYTES_PER_BUCKET).max(16);
        let per_shard_pow2 = if per_shard_slots.is_power_of_two() {
            per_shard_slots
        } else {
            per_shard_slots.next_power_of_two() / 2
        };
        // hashbrown fills 7/8 of its slots; leave 10% margin for imbalance between shards.
        let per_shard_keys = per_shard_pow2 * 7 / 8 * 9 / 10;
        let buckets = (per_shard_keys * shards) as u64;
        let map = DashMap::with_capacity_and_hasher_and_shard_amount(
            buckets as usize,
            BuildHasherDefault::<BucketHasher>::default(),
            shards,
        );
        TranspositionTable {
            map,
            buckets,
            generation: AtomicU8::new(1),
        }
    }

    /// Number of buckets (two entries each).
    pub fn buckets(&self) -> u64 {
        self.buckets
    }

    #[inline(always)]
    fn bucket_of(&self, hash: u64) -> u32 {
        ((hash as u128 * self.buckets as u128) >> 64) as u32
    }

    /// The entry for `board`, if stored.
    #[inline]
    pub fn probe(&self, board: &Board, hash: u64) -> Option<Entry> {
        let bucket = self.map.get(&self.bucket_of(hash))?;
        bucket
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
        let mut slot = self.map.entry(self.bucket_of(hash)).or_default();
        let bucket = slot.value_mut();
        // Same board: tighten the bounds already known.
        for e in bucket.iter_mut() {
            if e.player == board.player && e.opponent == board.opponent && e.empties != 0 {
                if e.cut != cut {
                    // More exact bounds replace guesses; guesses never touch more exact bounds.
                    if cut > e.cut {
                        *e = fresh;
                    } else if best != NO_MOVE {
                        e.best = best;
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
                if best != NO_MOVE {
                    e.best = best;
                }
                e.generation = generation;
                return;
            }
        }
        // Slot 0 keeps the deepest entry of the current generation; slot 1 takes the rest.
        let deep = &bucket[0];
        if deep.empties == 0 || deep.generation != generation || deep.empties as u32 <= empties {
            bucket[1] = bucket[0];
            bucket[0] = fresh;
        } else {
            bucket[1] = fresh;
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

    /// Forgets everything (keeps the allocation).
    pub fn clear(&self) {
        self.map
            .iter_mut()
            .for_each(|mut e| *e.value_mut() = Bucket::default());
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

/// A lock-free, always-replace table for the nodes just above the shallow layer, where a
/// `DashMap` lock per node would cost more than it saves. Each slot is three atomics written
/// with the data folded into both key words, so a slot torn by two threads writing at once
/// fails verification and reads as a miss instead of as a wrong bound.
pub struct ShallowTable {
    slots: Vec<[std::sync::atomic::AtomicU64; 3]>,
    mask: usize,
}

impl ShallowTable {
    /// A table of about `bytes` bytes (rounded down to a power of two of slots).
    pub fn new(bytes: usize) -> ShallowTable {
        let n = (bytes / 24).max(1024).next_power_of_two() / 2;
        let slots = (0..n).map(|_| Default::default()).collect();
        ShallowTable { slots, mask: n - 1 }
    }

    /// Starts loading the slot of `hash` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        crate::board::prefetch(&self.slots[hash as usize & self.mask]);
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

const NEAR_MAX: usize = 32 << 20;

/// Both tables of a solver: the bounded `DashMap` for deep nodes and the lock-free one below it.
pub struct Tables {
    /// Nodes with at least `TT_MIN` empties.
    pub deep: TranspositionTable,
    /// Nodes between the shallow layer and `TT_MIN`.
    pub near: ShallowTable,
}

impl Tables {
    /// Tables within about `megabytes` MiB in all: an eighth (at most 32 MiB) for the near table.
    pub fn new(megabytes: usize) -> Tables {
        let near_bytes = (megabytes << 20) / 8;
        let near_bytes = near_bytes.min(NEAR_MAX);
        Tables {
            deep: TranspositionTable::new(megabytes.saturating_sub(near_bytes >> 20)),
            near: ShallowTable::new(near_bytes),
        }
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
    fn near_table_keeps_bounds_and_rejects_other_boards() {
        let near = ShallowTable::new(1 << 16);
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
}
