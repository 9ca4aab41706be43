//! The state of a search, at the bottom of the solver: one thread's [`Search`] (the shared
//! tables, its cancellation chain and node count, the evaluation that orders its moves, its
//! selectivity), the [`Cancel`] chain of splits and budgets, the [`Crew`] that tells a node
//! whether a thread is idle to take a split, a [`Move`] of a node's list with the [`Hint`] its
//! table probe found, `NO_SCORE`, and the stability cut-off every layer tries first. The
//! layers of the search (`last`, `endgame`) and its ordering are methods of [`Search`] in their
//! own files, above this one.

use super::limit::{Budget, CHARGE_EVERY};
use super::stability::{stable_discs, stable_discs_from};
use super::thresholds::{stability_threshold, CANCEL_CHECK_MIN};
use super::tt::{NearTable, Tables, NO_MOVE};
use crate::board::rules::{GameRules, Othello};
use crate::eval::Weights;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Scores are within -64..=64; this is below any of them.
pub(super) const NO_SCORE: i32 = -100;

/// A cancellation flag and the flags of the splits above it: a search is cancelled when any of
/// them is set (a sibling failed high, the whole search was stopped, or its budget is spent).
pub struct Cancel<'a> {
    flag: AtomicBool,
    parent: Option<&'a Cancel<'a>>,
    /// The node and time budget whose exhaustion sets this flag.
    budget: Option<Budget>,
}

impl<'a> Cancel<'a> {
    /// A root flag.
    pub fn root() -> Cancel<'static> {
        Cancel {
            flag: AtomicBool::new(false),
            parent: None,
            budget: None,
        }
    }
    /// A flag under `parent` (a split's siblings).
    pub(super) fn child(parent: &'a Cancel<'a>) -> Cancel<'a> {
        Cancel {
            flag: AtomicBool::new(false),
            parent: Some(parent),
            budget: None,
        }
    }
    /// A flag under `parent` that is also set once `budget` is spent.
    pub fn limited(parent: &'a Cancel<'a>, budget: Budget) -> Cancel<'a> {
        Cancel {
            flag: AtomicBool::new(false),
            parent: Some(parent),
            budget: Some(budget),
        }
    }
    /// The budget given to [`Cancel::limited`].
    pub fn budget(&self) -> Option<&Budget> {
        self.budget.as_ref()
    }
    /// Charges `nodes` to the budgets of the chain; true when the search must stop.
    pub(super) fn charge(&self, nodes: u64) -> bool {
        let mut c = self;
        loop {
            if c.flag.load(Ordering::Relaxed) {
                return true;
            }
            if c.budget.as_ref().is_some_and(|b| b.charge(nodes)) {
                c.cancel();
                return true;
            }
            match c.parent {
                Some(p) => c = p,
                None => return false,
            }
        }
    }
    /// Sets the flag.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }
    /// True when this flag or one above it is set.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        let mut c = self;
        loop {
            if c.flag.load(Ordering::Relaxed) {
                return true;
            }
            match c.parent {
                Some(p) => c = p,
                None => return false,
            }
        }
    }
}

/// A move with its flips and ordering value.
///
/// Sixteen bytes with no padding: a node's list is zeroed as a block, not field by field.
#[derive(Clone, Copy, Default)]
pub struct Move {
    /// Square index.
    pub sq: u8,
    /// What the node's table probe of the child found ([`Hint::NONE`] when it did not probe).
    pub hint: Hint,
    /// Discs it flips.
    pub flips: u64,
    /// Ordering value: higher first.
    pub value: i32,
}

const _: () = assert!(std::mem::size_of::<Move>() == 16);

impl Move {
    /// The move on `sq` flipping `flips`, without ordering value or hint.
    #[inline(always)]
    pub fn new(sq: usize, flips: u64) -> Move {
        Move {
            sq: sq as u8,
            hint: Hint::NONE,
            flips,
            value: 0,
        }
    }
}

/// What a node's probe of a child's table entry found (the probe of enhanced transposition
/// cutoff), handed to the child so that it neither hashes, locks nor looks up the same bucket
/// again. All zero is "not probed", so that a list of moves is zeroed as one block. A
/// selective entry's bounds are not handed on: the child probes that entry itself and counts
/// the guess it takes from them (`Search::guesses`).
///
/// The hint can be older than the table: between the parent's probe and the child's search
/// another thread (a split) may have stored a tighter entry for the child, or replaced its
/// entry. The hint's bounds were proven all the same, so the child's score stays exact; it
/// only may search more than it would with the newer entry. (On one thread nothing can store
/// the child in between: every other node searched meanwhile has fewer empties, or is a
/// sibling, another board. A re-search of the same child gets no hint: its first search
/// stored a fresher entry.)
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Lower bound the child may use; above `upper` when the child may use no bounds.
    lower: i8,
    /// Upper bound the child may use.
    upper: i8,
    /// 0: not probed; otherwise one more than the entry's move (`NO_MOVE` + 1 when none).
    tag: u8,
}

impl Hint {
    /// Not probed: the child probes the table itself.
    pub const NONE: Hint = Hint {
        lower: 0,
        upper: 0,
        tag: 0,
    };
    /// Probed and found no entry.
    pub(super) const MISSING: Hint = Hint::move_only(NO_MOVE);
    /// Probed: no bounds the child may use, the move `best` (`NO_MOVE` when none).
    pub(super) const fn move_only(best: u8) -> Hint {
        Hint {
            lower: 1,
            upper: 0,
            tag: best + 1,
        }
    }
    /// Probed: bounds `lower..=upper` and the move `best` (`NO_MOVE` when none).
    pub(super) fn found(lower: i8, upper: i8, best: u8) -> Hint {
        Hint {
            lower,
            upper,
            tag: best + 1,
        }
    }
    /// `None` when not probed; else the bounds the child may use (if any) and the move.
    #[inline(always)]
    pub(super) fn get(self) -> Option<(Option<(i32, i32)>, u8)> {
        (self.tag != 0).then(|| {
            let bounds =
                (self.lower <= self.upper).then_some((self.lower as i32, self.upper as i32));
            (bounds, self.tag - 1)
        })
    }
}

/// The threads of a solver's pool as one search sees them: how many there are and how many are
/// searching now. A node hands its remaining moves to the others only when one of them is idle
/// (see `Search::search_moves_after`), so a split is never made for a thread that has no time
/// to take it.
#[derive(Debug)]
pub struct Crew {
    /// Threads in the pool.
    threads: usize,
    /// Threads searching now: the one that started the search, and each thread inside the
    /// moves of a split (a thread waiting for the others at the end of its split is not).
    busy: AtomicUsize,
    /// Splits made since the crew was made.
    splits: AtomicU64,
}

/// The crew of a search that never splits.
static ALONE: Crew = Crew::new(1);

impl Crew {
    /// The crew of a pool of `threads` threads, none searching.
    pub const fn new(threads: usize) -> Crew {
        Crew {
            threads,
            busy: AtomicUsize::new(0),
            splits: AtomicU64::new(0),
        }
    }

    /// How many splits its searches made (a count for tests and measurements).
    pub fn splits(&self) -> u64 {
        self.splits.load(Ordering::Relaxed)
    }

    /// How many threads are searching (1 between searches that ended normally).
    #[cfg(test)]
    pub(super) fn busy(&self) -> usize {
        self.busy.load(Ordering::Relaxed)
    }

    /// A search starts: one thread searches.
    pub(super) fn start(&self) {
        self.busy.store(1, Ordering::Relaxed);
    }

    /// True when some thread of the pool has nothing to search.
    #[inline(always)]
    pub(super) fn idle(&self) -> bool {
        self.busy.load(Ordering::Relaxed) < self.threads
    }

    /// Counts a split.
    pub(super) fn split(&self) {
        self.splits.fetch_add(1, Ordering::Relaxed);
    }

    /// A thread takes up a split's moves.
    pub(super) fn enter(&self) {
        self.busy.fetch_add(1, Ordering::Relaxed);
    }

    /// A thread is done with a split's moves.
    pub(super) fn leave(&self) {
        self.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One thread's view of a search under the rules `R`: the shared table and cancellation, its
/// own node count.
pub struct Search<'a, R: GameRules = Othello> {
    /// The shared transposition tables.
    pub tt: &'a Tables,
    /// This thread's near table (one of `tt`'s, [`Tables::near`]).
    pub(super) near: &'a NearTable,
    /// Cancellation chain of this thread's current split.
    pub cancel: &'a Cancel<'a>,
    /// Nodes visited by this thread.
    pub nodes: u64,
    /// Empties from which the deep search splits siblings across threads (u32::MAX: never).
    pub split_min: u32,
    /// The threads it splits across ([`Search::with_crew`]; by default none: it never splits).
    pub(super) crew: &'a Crew,
    /// The learned evaluation that orders moves at the deepest nodes.
    pub weights: &'static Weights,
    /// Nodes already charged to the budget of the cancellation chain.
    pub(super) charged: u64,
    /// Probabilistic cutoffs of this search (`None`: the exact search). A selective search
    /// fills the table with moves for the exact one; its values are never a result (only the
    /// bounds of its nodes that took no guess, see `guesses`, are stored as exact).
    pub selective: Option<Selectivity>,
    /// How often this thread's search so far rested on a guess: a ProbCut or the bounds of a
    /// selective search's table entry (a split adds its moves' searches' counts). A node of a
    /// selective search whose subtree took none (the count is the same after it as before)
    /// has searched exactly, and its table entry says so.
    pub(super) guesses: u64,
    pub(super) rules: PhantomData<R>,
}

/// How a selective search cuts (ProbCut on the learned evaluation): at a node with at least
/// `PROBCUT_MIN` empties (`thresholds`), when a shallow evaluation search predicts the score beyond the
/// window by more than `margin` discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selectivity {
    /// Margin in discs.
    pub margin: i32,
}

impl<'a, R: GameRules> Search<'a, R> {
    /// A search using `tt`, cancelled through `cancel`, splitting from `split_min` empties
    /// (at least `CANCEL_CHECK_MIN`: a split there could be cut short after its node stores)
    /// once it has a crew ([`Search::with_crew`]).
    pub fn new(tt: &'a Tables, cancel: &'a Cancel<'a>, split_min: u32) -> Search<'a, R> {
        Search {
            tt,
            near: tt.near(),
            cancel,
            nodes: 0,
            split_min: split_min.max(CANCEL_CHECK_MIN),
            crew: &ALONE,
            weights: crate::eval::builtin(),
            charged: 0,
            selective: None,
            guesses: 0,
            rules: PhantomData,
        }
    }

    /// The search splitting across the threads of `crew` (the pool it runs on).
    pub(super) fn with_crew(mut self, crew: &'a Crew) -> Search<'a, R> {
        self.crew = crew;
        self
    }

    /// True when the search must stop; charges the nodes searched since the last charge to the
    /// budget every `CHARGE_EVERY` nodes.
    #[inline]
    pub(super) fn stopped(&mut self) -> bool {
        if self.nodes - self.charged >= CHARGE_EVERY {
            return self.charge_rest();
        }
        self.cancel.is_cancelled()
    }

    /// Charges every node not yet charged to the budget; true when the search must stop.
    pub fn charge_rest(&mut self) -> bool {
        let fresh = self.nodes - self.charged;
        self.charged = self.nodes;
        self.cancel.charge(fresh)
    }
}

/// Stability cutoff: the opponent's stable discs cap the mover's final score. Returns the cap
/// when it is at or below alpha.
#[inline(always)]
pub(super) fn stability_cutoff(
    player: u64,
    opponent: u64,
    alpha: i32,
    empties: u32,
) -> Option<i32> {
    stability_cutoff_from(player, opponent, alpha, empties, 0).err()
}

/// [`stability_cutoff`] with the opponent's stable discs found higher up the line (`known`,
/// see [`stable_discs_from`]): `Err` with the cap when it cuts, else `Ok` with the opponent's
/// stable discs known now (those it found when it looked, else `known`).
#[inline(always)]
pub(super) fn stability_cutoff_from(
    player: u64,
    opponent: u64,
    alpha: i32,
    empties: u32,
    known: u64,
) -> Result<u64, i32> {
    if alpha >= stability_threshold(empties) && alpha >= 64 - 2 * opponent.count_ones() as i32 {
        let stable = stable_discs_from(opponent, player, known);
        // Grown from an ancestor's stable discs, the set is the one grown from none.
        debug_assert!(
            known == 0 || stable == stable_discs(opponent, player),
            "known {known:#x}"
        );
        let cap = 64 - 2 * stable.count_ones() as i32;
        if cap <= alpha {
            return Err(cap);
        }
        return Ok(stable);
    }
    Ok(known)
}
