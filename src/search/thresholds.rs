//! Every threshold of the solver in one place: from how many empties each technique is used,
//! the depths of the evaluation searches that order moves and predict scores, and the margins
//! of the selective searches, each with the measurement that chose it. Node counts are of
//! FFO positions on one thread unless said otherwise; they are the measurements of the commit
//! that set the value (later changes elsewhere moved the totals, not the comparisons).

// The root (`root`).

/// From this many empties up, sibling moves are searched in parallel (when threads > 1 and one
/// of them is idle: see [`split_eldest`]).
pub const SPLIT_MIN: u32 = 10;
// A node below `CANCEL_CHECK_MIN` stores whatever its moves gave: a split there, stopped by a
// cancellation, would store a partial best (`Search::new` raises any split minimum to it).
const _: () = assert!(SPLIT_MIN >= CANCEL_CHECK_MIN);

/// A search whose root has fewer empties runs alone on the thread of the solver's call,
/// without splits: waking the other thread for its splits costs more than that thread gives
/// back. Positions from `osolve gen --policy self-play --seed 7`, 40 of each size, `bench
/// --repeat 5`, two threads. First measured while each search was handed to the pool (one
/// thread against two, 2026-12-07): 14 empties 0.071-0.072 s against 0.088-0.092 s, 15
/// empties 0.125-0.126 s against 0.138 s, 16 empties 0.327-0.334 s against 0.267-0.268 s;
/// FFO #1-#19 (14-16 empties) 0.0421 s against 0.0465-0.0533 s. Again once every call ran on
/// a thread of the pool (`Solver::on_pool`, no hand-over left), two runs each: from 14
/// empties, the 14-empty set 0.0708 and 0.0738 s and the 15-empty set 0.128 and 0.130 s; from
/// 16, 0.0715 and 0.0692 s, 0.130 and 0.128 s; from 17, the 16-empty set 0.347 and 0.338 s
/// against 0.249 and 0.251 s from 16.
pub const PARALLEL_MIN: u32 = 16;

/// Depth of the evaluation search that orders the root moves.
pub const ROOT_SORT_DEPTH: u32 = 4;

/// From this many empties up the root first probes the window around a guess: the selective
/// passes' value from [`SELECTIVE_MIN`], a draw below.
pub const ASPIRATION_MIN: u32 = 14;
/// After an aspiration probe fails, null windows at the bound it proved (each asks whether the
/// score is beyond it, the fail-soft bound being usually the score) before a search of the
/// whole side the probe proved; at most this many, after which the score is far from both
/// and that search covers the rest. One thread, nodes (before: no steps, the side searched
/// at once): FFO #20-#39 96.5 M; 1 step 90.7 M, 2 steps 90.6 M, unbounded 90.6 M. FFO
/// #40-#49 552.0 M; 552.7 M, 554.6 M, 557.6 M (#48: five steps from the guess 19 to +28).
/// FFO #50, #51, #60, #61 783.5 M; 781.1 M, 776.2 M, 776.2 M. FFO #56, #57 1,668.9 M;
/// unbounded 1,634.0 M (#57's side of the probe took 474 M of its 984 M; each needed one step).
/// Only where the selective passes made the guess: see [`aspiration_steps`].
pub const NULL_WINDOW_STEPS: usize = 2;

/// The null-window steps after a failed aspiration probe at a root of `empties` empties:
/// [`NULL_WINDOW_STEPS`] where the probe centres on the selective passes' guess, none below
/// [`SELECTIVE_MIN`], where it centres on a draw and fails on most positions (their score is
/// rarely next to a draw), and the search of the side it proved comes at once. One thread,
/// nodes, no steps against two, and against no probe at all below 18 empties (2026-12-07):
/// FFO #1-#19 (14-16 empties) 1.578 M against 1.618 M and 1.589 M (#16 156 k against 232 k
/// and 138 k, #17 15 k against 29 k and 14 k, #19 122 k against 141 k and 105 k); FFO #21 (15
/// empties, a draw) 181 k against 181 k and 287 k, #22 (17) 356 k against 336 k and 426 k;
/// 40 self-play positions (`gen --policy self-play --seed 7`) of 14, 15, 16 and 17 empties
/// 2.89, 5.62, 14.85 and 32.73 M against 3.01, 5.77, 17.30 and 33.59 M and 2.68, 5.47, 14.03
/// and 32.29 M. An evaluation search's value as the guess (depths 2, 4, 6) was no better than
/// a draw.
pub fn aspiration_steps(empties: u32) -> usize {
    if empties >= SELECTIVE_MIN {
        NULL_WINDOW_STEPS
    } else {
        0
    }
}
/// From this many empties up, selective searches precede the exact one.
pub const SELECTIVE_MIN: u32 = 18;
/// The margins (in discs) of the selective searches, in order: the first cuts most, each
/// next one less, then the exact search. Each pass fills the table with the moves of the
/// lines the next one needs (and exact bounds where a subtree took no guess), and its value
/// is the next one's (and the exact aspiration's) guess. (FFO #40-#49, one thread, nodes of all passes, ProbCut from 13 empties: exact only,
/// 881 M; 8, 507 M without the guess as aspiration centre; then with it: 12, 523 M; 8 then 12,
/// 490 M; 6/10/14, 497 M; 8/12/16, 485 M; 4/8/12, 481 M; 16, 574 M. With ProbCut from 12
/// empties and 2-ply tests below 22: 8 then 12, 467 M; 4/8/12, 463 M.) The passes 16 and 20
/// used to follow only a guess 48 discs or more from a draw (FFO #79: after 8 and 12 it guessed
/// +54 and the exact null window (63, 64) did not finish in 1.5 G nodes; after 8, 12, 16, 20 it
/// took 0.25 M). Measured again with every later change in (one thread, nodes, 8 and 12
/// against 8, 12, 16, 20): FFO #40-#49 537.8 M -> 518.5 M; 25 positions not tuned on (FFO
/// #20-#39, #50, #51, #60, #61, #63) 1,433.0 M -> 1,278.4 M; FFO #40-#49 under `--rules
/// reversi` 849.0 M -> 729.7 M (the Othello-trained evaluation guesses Reversi's scores
/// worst, and the wider passes correct it: FFO #45 guessed +3 for 0 after 8 and 12, 0 after
/// 16); FFO #56-#57 1,507.6 M -> 1,508.3 M; FFO #55 6,792.8 M -> 6,771.4 M; FFO #50-#54 and
/// #58 5,253.8 M -> 5,376.0 M (#52 +14%, #54 +7%, #58 -6%). 8, 12, 16: 533.3 M on #40-#49;
/// 8, 12, 16, 20, 24: 515.1 M and 1,307.6 M.
pub const SELECTIVE_MARGINS: &[i32] = &[8, 12, 16, 20];
/// After the passes of [`SELECTIVE_MARGINS`], one more pass, its margin this much wider, as long
/// as the last pass moved the guess by at least [`SELECTIVE_STILL_MOVING`] discs, up to a margin
/// of [`SELECTIVE_MARGIN_MAX`]. A guess that still moves as the margins widen is far from the
/// score, and the exact search pays for the distance (one thread, nodes, against the four
/// passes alone, 2026-12-05): FFO #48 guessed 16, 19, 20, 24 for +28 and took 88.4 M nodes, of
/// which the exact search's aspiration probe and two null windows 81.0 M; two more passes
/// guess 27 and 28, and it takes 82.4 M. FFO #70 (-24): -14, -13, -16, -19, then -22 twice,
/// 982.8 M -> 541.3 M; FFO #79 (+64): 54, 56, 56, 64, then 64, 228.5 M -> 216.4 M. FFO
/// #40-#49 426.5 M -> 420.8 M, under `--rules reversi` 652.7 M -> 651.7 M; no other position
/// of FFO #20-#39, #50-#59 and #60-#63 moved (none triggered it). With the threshold at
/// 2 discs FFO #49 (14, 14, 14, 16) takes a fifth pass too: 1.3 M nodes more.
pub const SELECTIVE_STILL_MOVING: i32 = 3;
/// See [`SELECTIVE_STILL_MOVING`]: how much wider each added pass cuts.
pub const SELECTIVE_MARGIN_STEP: i32 = 4;
/// See [`SELECTIVE_STILL_MOVING`]: the widest margin of an added pass.
pub const SELECTIVE_MARGIN_MAX: i32 = 28;
// A margin is stored in the table as its entries' cut level, below the level of exact ones.
const _: () = assert!(SELECTIVE_MARGIN_MAX < super::tt::EXACT as i32);

/// The margin of the selective pass after pass `pass` (from 0, of margin `margin`), given how
/// far that pass moved the guess from the pass before it (`None` after the first): the next of
/// [`SELECTIVE_MARGINS`], then a wider one while the guess still moves; `None` when the passes
/// are over.
pub fn next_selective_margin(pass: usize, margin: i32, moved: Option<i32>) -> Option<i32> {
    if let Some(&next) = SELECTIVE_MARGINS.get(pass + 1) {
        return Some(next);
    }
    let next = margin + SELECTIVE_MARGIN_STEP;
    let moving = moved.is_some_and(|by| by.abs() >= SELECTIVE_STILL_MOVING);
    (moving && next <= SELECTIVE_MARGIN_MAX).then_some(next)
}

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

// The deep search (`endgame`): its tables, splits and selectivity.

/// From this many empties up the deep table is probed and stored; deep nodes below it use
/// the near table.
/// (FFO #41-#48 with ETC one empty higher: from 11, 600 M nodes; from 10, 586 M; from 9,
/// 583 M but slower. FFO #49: from 11, 619 M; from 10, 602 M.) Since the near table stays in
/// the caches (4 MiB) and the four-empties stability cutoff, 11 wins on time: the nodes of 10
/// empties no longer wait for the deep table, nor those of 11 for their children's entries.
/// One thread, 11 against 10: FFO #40-#49 424.4 M nodes against 415.3 M and 2% less time side
/// by side (two pairs; near table 8 MiB 1.2% less, 16 MiB 0.5%); FFO #56-#57 1,318.5 M
/// against 1,305.6 M, 50.2 s against 53.2 s; FFO #55 5,776 M against 5,753 M, 200.5 s
/// against 207.0 s (2026-12-05).
pub const TT_MIN: u32 = 11;
/// From this many empties up children are probed in the table before searching (ETC).
/// (FFO #41-#48: from 14, 619 M nodes; from 12, 600 M.) One above `TT_MIN`: the children
/// must be in the table.
pub const ETC_MIN: u32 = TT_MIN + 1;
/// Moves searched one after the other at a node of `empties` empties before the rest may be
/// searched in parallel (Young Brothers Wait), which they are only when a thread is idle: two
/// elder brothers from 13 empties, one below. With the learned ordering a node whose first
/// move does not cut often cuts on its second: FFO #40-#49 on two threads took 100.5 s (3.03 G
/// nodes) splitting every node after one move and 81.2 s (2.71 G) after two (2026-12-01).
/// Until 2026-12-06 every node from 13 empties split after two, idle thread or not: on FFO
/// #40-#49, 337 k splits, 97% of them made while the other thread was busy (their moves came
/// back to the thread that split), and the other thread idle 6.3% of the search. Splitting
/// only for an idle thread, from 9 empties first (two threads, 2026-12-06, docs/performance.md):
/// - after one elder brother everywhere: 10 k splits, the other thread idle 1.6%, 421.8 M
///   nodes against 415 M, median time ratio 0.917 (14 alternating runs); but FFO #55 took
///   6.74 G nodes and 182.0 s against 5.67 G and 165.0 s, and FFO #53 0.93 and 1.09 G against
///   0.91 G;
/// - after two everywhere: 37 k splits, idle 4.2%, the same nodes, median time ratio 1.015
///   (six runs);
/// - two from 13, one below: 416.4 M nodes, median time ratio 0.946 (eight runs, six
///   faster); FFO #55 5.68 G nodes in 149.4 s. Reverted: a split of 9 empties, below
///   `CANCEL_CHECK_MIN`, cut short by a cancellation from above, left its node a partial best
///   to store (a wrong score in CI).
/// - the same from 10 empties (this, `SPLIT_MIN`): 415-418 M nodes, median time ratio 0.947
///   (16 alternating runs, 12 faster); FFO #55 5.67 G nodes, 156.0 and 186.0 s against 165.4
///   and 187.0 s.
pub fn split_eldest(empties: u32) -> usize {
    if empties >= 13 {
        2
    } else {
        1
    }
}

/// Below this many empties the deep search does not look for a cancellation.
pub const CANCEL_CHECK_MIN: u32 = 10;

/// Selective searches cut from this many empties up; below, they search exactly, so every
/// table entry under it is exact whichever search wrote it (and the near table, below
/// `TT_MIN`, only ever holds exact bounds). FFO #40-#49, one thread, margins 8 then 12, nodes
/// of both passes: from 11 empties, 489 M; from 12, 467 M; from 13, 470 M; from 14, 492 M.
pub const PROBCUT_MIN: u32 = 12;
const _: () = assert!(PROBCUT_MIN > TT_MIN);

/// Depth of the evaluation search that predicts a node's score for ProbCut. (FFO #40-#49 as
/// above, from 13 empties: 1/2/4 plies from 13/18/22 empties, 490 M; 2/2/4, 470 M; from 12,
/// 2/2/4, 467 M; 1/2/3, 469 M.)
#[inline(always)]
pub fn probcut_depth(empties: u32) -> u32 {
    if empties >= 22 {
        4
    } else {
        2
    }
}

// Every layer (`node`).

/// Stability cutoffs are only tried when alpha is this high for the number of empties: below
/// it the opponent rarely has enough stable discs to matter, and computing them is wasted.
/// (FFO #41-#48: 2e-2, 577 M nodes; 2e-6, 533 M; 2e-12, 529 M.)
#[inline(always)]
pub fn stability_threshold(empties: u32) -> i32 {
    (2 * empties as i32 - 6).clamp(4, 64)
}

// Move ordering (`ordering`).

/// From this many empties up, moves are ordered by the learned evaluation of each child (with
/// the opponent's mobility); below, by fastest-first and parity.
pub const EVAL_ORDER_MIN: u32 = 12;
// The nodes below the deep table order their moves before their probe (`deep_hinted`): with
// fastest-first, which needs no window.
const _: () = assert!(TT_MIN <= EVAL_ORDER_MIN);
/// From this many empties up, the evaluation of a child comes from a 1-ply search. (One
/// thread, hash 256 MiB, nodes with the evaluation's own counted, the evaluation's in
/// brackets; 1/2/3-ply from 15/17/19 empties: FFO #40-#44 85.4 M, FFO #40-#49 880.7 M
/// (102.0 M); from 16/18/20: 82.4 M and 876.1 M (68.9 M). More in docs/performance-order.md.)
pub const EVAL_DEPTH_1_MIN: u32 = 16;
/// From this many empties up, from a 2-ply search.
pub const EVAL_DEPTH_2_MIN: u32 = 18;
/// From this many empties up, from a 3-ply search.
pub const EVAL_DEPTH_3_MIN: u32 = 20;
/// From this many empties up, from a 4-ply search. (FFO #41-#48, one thread, hash 64 MiB,
/// nodes with the evaluation's own counted, shipped weights, the shallow layer ordered by
/// replies: 1/2/3/4-ply from 15/19/21/23 empties, 533 M; 14/17/20/22, 490 M; 14/16/19/21,
/// 471 M; 15/17/19/21, 447 M; 15/16/20/21, 446 M; 5-ply from 24, 542 M; 6-ply from 24, 435 M
/// but slower.)
pub const EVAL_DEPTH_4_MIN: u32 = 21;
/// From this many empties up, from a 6-ply search. (FFO #49, hash 256 MiB: 4-ply only, 619 M
/// nodes; 6-ply from 24, 518 M. FFO #40-#49 with the shallow layer to 5 and the table from 10:
/// 6-ply from 24, 881 M; from 23, 922 M.) Measured again on 2026-12-04 with the selective
/// passes and the replies order from 6 empties (one thread, nodes, from 24 -> from 25): FFO
/// #40-#49 494.8 M -> 490.4 M (from 26: 494.4 M), 1.5% faster (six runs side by side, median
/// ratio 0.985); the 25 positions not tuned on 1,207.7 M -> 1,199.7 M; FFO #56-#57 1,352.6 M
/// -> 1,335.1 M (from 26: 1,336.6 M); FFO #50-#54 and #58 4,955.5 M -> 4,835.6 M.
pub const EVAL_DEPTH_6_MIN: u32 = 25;

/// The ordering searches of a deep node searched above `alpha` tell apart only the moves
/// predicted above `alpha` minus this many discs: below it a child's search stops at the
/// first bound, since such moves are searched late whatever their order. (FFO #40-#44, one
/// thread, nodes with the evaluation's own: no floor, 63.74 M; 0 discs, 65.62 M; 4, 64.96 M;
/// 8, 63.60 M; 12, 63.46 M; 16, 63.35 M; 24, 63.46 M; 32, 63.61 M. FFO #40-#49: no floor,
/// 572.17 M; 16, 567.73 M.)
pub const SORT_FLOOR_BELOW_ALPHA: i32 = 16;

/// The depth of the evaluation search that orders the children of a deep node with `empties`
/// empties (from `EVAL_ORDER_MIN` up), by the thresholds above.
#[inline(always)]
pub fn eval_order_depth(empties: u32) -> u32 {
    if empties >= EVAL_DEPTH_6_MIN {
        6
    } else if empties >= EVAL_DEPTH_4_MIN {
        4
    } else if empties >= EVAL_DEPTH_3_MIN {
        3
    } else if empties >= EVAL_DEPTH_2_MIN {
        2
    } else if empties >= EVAL_DEPTH_1_MIN {
        1
    } else {
        0
    }
}

// The last empties (`last`).

/// At or below this many empties the shallow search (no table) takes over. Counted in
/// instructions, not nodes: FFO #40-#44, one thread, hash 256 MiB, with parity order at 5
/// empties: 5, 94.7 M nodes and 33.89 G instructions; 6, 100.4 M nodes and 32.93 G
/// (docs/performance-last.md). With the cheaper kernels below (callgrind, x86-64-v3): 6,
/// 57.78 M nodes and 15.98 G instructions; 7, 59.76 M and 15.62 G.
pub const SHALLOW_MAX: u32 = 7;
/// From this many empties the shallow layer (and the Reversi leaf) tries the stability cutoff;
/// the four-empties solver tries it too (measured there, see `solve_4_ordered`). With the
/// cheaper full-line test of `stable_discs` it pays from 5 (FFO #40-#44, one thread, callgrind
/// on x86-64-v3: from 6, 58.32 M nodes and 15.995 G instructions; from 5, 57.78 M and
/// 15.979 G, with the replies handed down below).
pub const STABILITY_MIN: usize = 5;
/// From this many empties the shallow layer orders moves by the opponent's replies; below, by
/// parity alone (counting replies costs more than the nodes it saves there). FFO #40-#44, one
/// thread, callgrind on x86-64-v3, `SHALLOW_MAX` 7: from 6, 59.76 M nodes and 15.62 G
/// instructions; from 7, 63.84 M and 15.23 G. Since the selective passes and the learned
/// ordering, from 6 saves more (one thread, nodes, from 7 -> from 6): FFO #40-#49 517.5 M ->
/// 494.8 M, FFO #56-#57 1,482.6 M -> 1,352.6 M, FFO #50-#54 and #58 5,256.0 M -> 4,955.5 M,
/// in the same time (FFO #40-#49 side by side, six pairs: median ratio 0.997; a quiet
/// sitting, medians of three: 16.65 s against 16.44 s); from 5, 455.4 M on FFO #40-#49 but
/// 2.5% slower, its replies handed to the four-empties solver.
pub const REPLIES_ORDER_MIN: usize = 6;
