//! Limits of one search (a wall-time deadline and a node budget) and what a stopped search
//! proved: the reasons a search may end early and the bounds it reports then. The budget is
//! charged in batches by the searching threads (see `endgame::Search`), so checking it costs a
//! few nanoseconds per thousand nodes; it knows nothing of positions, files or terminals.

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use super::MoveScore;
use crate::board::Square;

/// Nodes a thread searches between two charges of the budget (and two looks at the clock).
/// Small enough that a limit is seen within well under a millisecond of work, large enough that
/// the shared counter is touched rarely.
pub const CHARGE_EVERY: u64 = 4096;

/// The most empty squares a position may have to be solved exactly without a limit, unless a
/// first search of [`PROBE_NODES`] solves it (drivers refuse the others unless forced).
/// Measured on 2 cores, solve times grow about 2.6x per empty square: 20 empties take under a
/// second, 24 about 15 s, 28 about 14 minutes (FFO #54), so 32 would take about 10 hours and
/// 37 (the first refused) about two months.
pub const FEASIBLE_EMPTIES: u32 = 36;

/// The nodes a position with more than [`FEASIBLE_EMPTIES`] empties may take to be solved
/// before it is refused (a few tens of milliseconds): enough for the deep positions that end
/// at once (a side wiped out or stuck), far too few for a real one.
pub const PROBE_NODES: u64 = 1_000_000;

/// A position with too many empty squares to be solved exactly without a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{empties} empty squares: not solved, an exact solve would not finish (it takes months \
     or more beyond {FEASIBLE_EMPTIES} empties)"
)]
pub struct TooManyEmpties {
    /// Empty squares of the position.
    pub empties: u32,
}

/// How far one search of one position may go. The default has no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop when this much wall time has passed since the search started.
    pub time: Option<Duration>,
    /// Stop once about this many nodes were searched. Exceeded per thread by at most the
    /// charging interval ([`CHARGE_EVERY`]) plus one move-ordering search (the evaluation
    /// search of one child, up to a few tens of thousands of nodes from 24 empties up; searches
    /// below 10 empties always run to their end): a 50-empty opening limited to 10,000 nodes
    /// searches about 22,000, to 1,000,000 about 1,010,000.
    pub nodes: Option<u64>,
}

impl Limits {
    /// No limit at all.
    pub const NONE: Limits = Limits {
        time: None,
        nodes: None,
    };

    /// True when neither limit is set.
    pub fn is_none(&self) -> bool {
        self.time.is_none() && self.nodes.is_none()
    }
}

/// Why a search ended before it proved its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A stop was requested ([`super::StopHandle`]: Ctrl-C, SIGTERM).
    Interrupted,
    /// The time limit passed.
    TimeLimit,
    /// The node limit was reached.
    NodeLimit,
}

impl StopReason {
    /// "interrupted", "time limit" or "node limit".
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Interrupted => "interrupted",
            StopReason::TimeLimit => "time limit",
            StopReason::NodeLimit => "node limit",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The proven bounds of a score a search stopped before proving exactly: the exact score `s`
/// satisfies `lower <= s <= upper` (both within -64..=64, or -1..=1 for win/draw/loss).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Why the search stopped.
    pub reason: StopReason,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

impl Bounds {
    /// True when `score` is within the bounds.
    pub fn contains(&self, score: i32) -> bool {
        self.lower <= score && score <= self.upper
    }
}

/// What a search that stopped early had proven: bounds of the best score, the part of the
/// principal variation that holds them (only once the score is exact), the moves whose exact
/// score was proven (move scoring) or that are proven best (best-move listing), and the work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// Why it stopped and the proven bounds of the best score.
    pub bounds: Bounds,
    /// The proven beginning of the principal variation (empty unless the score is exact).
    pub pv: Vec<Option<Square>>,
    /// Moves finished before the stop, with their exact scores (best first).
    pub moves: Vec<MoveScore>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time until the search stopped.
    pub time: Duration,
}

/// The shared budget of one search: nodes charged so far by every thread, the node limit, the
/// deadline, and which limit (if any) was hit first.
#[derive(Debug)]
pub struct Budget {
    nodes: AtomicU64,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    hit: AtomicU8,
}

const NOT_HIT: u8 = 0;
const HIT_TIME: u8 = 1;
const HIT_NODES: u8 = 2;

impl Budget {
    /// The budget of a search started at `start` under `limits`.
    pub fn new(limits: &Limits, start: Instant) -> Budget {
        Budget {
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes,
            // A limit too far away to represent is no limit.
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            hit: AtomicU8::new(NOT_HIT),
        }
    }

    /// Adds `nodes` searched and says whether a limit is now reached (remembering which).
    pub fn charge(&self, nodes: u64) -> bool {
        let total = self
            .nodes
            .fetch_add(nodes, Ordering::Relaxed)
            .saturating_add(nodes);
        if self.hit.load(Ordering::Relaxed) != NOT_HIT {
            return true;
        }
        let hit = if self.node_limit.is_some_and(|limit| total >= limit) {
            HIT_NODES
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            HIT_TIME
        } else {
            return false;
        };
        let _ = self
            .hit
            .compare_exchange(NOT_HIT, hit, Ordering::Relaxed, Ordering::Relaxed);
        true
    }

    /// The limit that was reached first, if any.
    pub fn reason(&self) -> Option<StopReason> {
        match self.hit.load(Ordering::Relaxed) {
            HIT_TIME => Some(StopReason::TimeLimit),
            HIT_NODES => Some(StopReason::NodeLimit),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_budget_is_reached_once_and_remembered() {
        let limits = Limits {
            time: None,
            nodes: Some(10_000),
        };
        let budget = Budget::new(&limits, Instant::now());
        assert!(!budget.charge(4096));
        assert!(!budget.charge(4096));
        assert_eq!(budget.reason(), None);
        assert!(budget.charge(4096));
        assert_eq!(budget.reason(), Some(StopReason::NodeLimit));
        assert!(budget.charge(0));
    }

    #[test]
    fn the_deadline_counts_from_the_start() {
        let past = Instant::now() - Duration::from_millis(5);
        let limits = Limits {
            time: Some(Duration::from_millis(1)),
            nodes: None,
        };
        let budget = Budget::new(&limits, past);
        assert!(budget.charge(1));
        assert_eq!(budget.reason(), Some(StopReason::TimeLimit));
        let far = Budget::new(
            &Limits {
                time: Some(Duration::MAX),
                nodes: None,
            },
            Instant::now(),
        );
        assert!(!far.charge(1 << 40));
        assert!(Limits::NONE.is_none() && !limits.is_none());
    }
}
