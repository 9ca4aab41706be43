//! Every threshold of the solver in one place: from how many empties each technique is used,
//! the depths of the evaluation searches that order moves and predict scores, and the margins
//! of the selective searches, each with the measurement that chose it. Node counts are of
//! FFO positions on one thread unless said otherwise; they are the measurements of the commit
//! that set the value (later changes elsewhere moved the totals, not the comparisons).

// The root (`root`).

/// From this many empties up, sibling moves are searched in parallel (when threads > 1).
pub const SPLIT_MIN: u32 = 13;

/// Depth of the evaluation search that orders the root moves.
pub const ROOT_SORT_DEPTH: u32 = 4;

/// From this many empties up the root first probes the window around a draw.
pub const ASPIRATION_MIN: u32 = 14;
/// From this many empties up, selective searches precede the exact one.
pub const SELECTIVE_MIN: u32 = 18;
/// The margins (in discs) of the selective searches, in order: the first cuts more, the
/// second less, then the exact search. (FFO #40-#49, one thread, nodes of all passes, ProbCut
/// from 13 empties: exact only, 881 M; 8, 507 M without the guess as aspiration centre;
/// then with it: 12, 523 M; 8 then 12, 490 M; 6/10/14, 497 M; 8/12/16, 485 M; 4/8/12, 481 M;
/// 16, 574 M. With ProbCut from 12 empties and 2-ply tests below 22: 8 then 12, 467 M;
/// 4/8/12, 463 M.)
pub const SELECTIVE_MARGINS: &[i32] = &[8, 12];

// What the drivers may solve without a limit (`Solver::check_feasible`).

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
