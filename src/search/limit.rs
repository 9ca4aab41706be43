//! Limits of one search (a wall-time deadline and a node budget) and the budget that enforces
//! them. The budget is charged in batches by the searching threads (see `Search::stopped`), so
//! checking it costs a few nanoseconds per thousand nodes; it knows nothing of positions, files
//! or terminals.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::progress::Reporter;
use super::result::StopReason;

/// Nodes a thread searches between two charges of the budget (and two looks at the clock).
/// Small enough that a limit is seen within well under a millisecond of work, large enough that
/// the shared counter is touched rarely.
pub const CHARGE_EVERY: u64 = 4096;

/// How far one search of one position may go. The default has no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop when this much wall time has passed since the search started.
    pub time: Option<Duration>,
    /// Stop once about this many nodes were searched. Exceeded per thread by at most the
    /// charging interval ([`CHARGE_EVERY`]) plus one move-ordering search (the evaluation
    /// search of one child, up to a few tens of thousands of nodes from 25 empties up; searches
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

/// The shared budget of one search: nodes charged so far by every thread, the node limit, the
/// deadline, which limit (if any) was hit first, and the progress events the charges send.
pub struct Budget {
    nodes: AtomicU64,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    hit: AtomicU8,
    progress: Option<Arc<Reporter>>,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("nodes", &self.nodes)
            .field("node_limit", &self.node_limit)
            .field("deadline", &self.deadline)
            .field("hit", &self.hit)
            .field("progress", &self.progress.is_some())
            .finish()
    }
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
            progress: None,
        }
    }

    /// The same budget, whose charges also send `reporter`'s periodic events.
    pub(super) fn reporting(mut self, reporter: Arc<Reporter>) -> Budget {
        self.progress = Some(reporter);
        self
    }

    /// Nodes charged so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Adds `nodes` searched and says whether a limit is now reached (remembering which).
    pub fn charge(&self, nodes: u64) -> bool {
        let total = self
            .nodes
            .fetch_add(nodes, Ordering::Relaxed)
            .saturating_add(nodes);
        if let Some(progress) = &self.progress {
            progress.tick(total);
        }
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
