//! The negamax ladder of the exact solver, from the last empty square upward:
//! `solve_1` (flip counts from tables), `solve_2`..`solve_4` (no move generation, parity order),
//! `shallow` (fewest replies first, stability cutoff, no hash table) and `deep` (fastest-first
//! ordering, the lock-free near table then the `DashMap` transposition table, enhanced
//! transposition cutoff, and Young Brothers Wait splits on rayon). All functions are fail-soft
//! alpha-beta on exact final scores. The search is generic over the rules ([`GameRules`]):
//! `deep` walks the rules' state; the layers below it see only bitboards and serve the rule
//! sets whose state is the board (`BOARD_ONLY`), while a rule set where supplies can bind takes
//! a plain negamax over its own play step (`leaf`) at the last empties.

use super::limit::{Budget, CHARGE_EVERY};
use super::ordering::{fastest_first, learned_order, odd_region_squares, SQUARE_CLASSES};
use super::stability::stable_discs;
use super::tt::{Tables, NO_MOVE};
use crate::board::rules::Scoring;
use crate::board::rules::{GameRules, Othello};
use crate::board::{flips, last_flip_count, legal_moves, Bits, Board};
use crate::eval::Weights;
use rayon::prelude::*;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;

/// At or below this many empties the shallow search (no table) takes over. (FFO #41-#48, one
/// thread, hash 64 MiB: 7, 646 M nodes; 6, 619 M; 5, 581 M. FFO #49, hash 256 MiB: 6, 619 M;
/// 5, 580 M.)
pub const SHALLOW_MAX: u32 = 5;
/// From this many empties up the `DashMap` table is probed and stored; deep nodes below it use
/// the lock-free near table.
/// (FFO #41-#48 with ETC one empty higher: from 11, 600 M nodes; from 10, 586 M; from 9,
/// 583 M but slower. FFO #49: from 11, 619 M; from 10, 602 M.)
pub const TT_MIN: u32 = 10;
/// From this many empties up children are probed in the table before searching (ETC).
/// (FFO #41-#48: from 14, 619 M nodes; from 12, 600 M.) One above `TT_MIN`: the children
/// must be in the table.
pub const ETC_MIN: u32 = TT_MIN + 1;
/// From this many empties up, moves are ordered by the learned evaluation of each child (with
/// the opponent's mobility); below, by fastest-first and parity.
pub const EVAL_ORDER_MIN: u32 = 12;
/// From this many empties up, the evaluation of a child comes from a 1-ply search.
pub const EVAL_DEPTH_1_MIN: u32 = 15;
/// From this many empties up, from a 2-ply search.
pub const EVAL_DEPTH_2_MIN: u32 = 17;
/// From this many empties up, from a 3-ply search.
pub const EVAL_DEPTH_3_MIN: u32 = 19;
/// From this many empties up, from a 4-ply search. (FFO #41-#48, one thread, hash 64 MiB,
/// nodes with the evaluation's own counted, shipped weights, the shallow layer ordered by
/// replies: 1/2/3/4-ply from 15/19/21/23 empties, 533 M; 14/17/20/22, 490 M; 14/16/19/21,
/// 471 M; 15/17/19/21, 447 M; 15/16/20/21, 446 M; 5-ply from 24, 542 M; 6-ply from 24, 435 M
/// but slower.)
pub const EVAL_DEPTH_4_MIN: u32 = 21;
/// From this many empties up, from a 6-ply search. (FFO #49, hash 256 MiB: 4-ply only, 619 M
/// nodes; 6-ply from 24, 518 M. FFO #40-#49 with the shallow layer to 5 and the table from 10:
/// 6-ply from 24, 881 M; from 23, 922 M.)
pub const EVAL_DEPTH_6_MIN: u32 = 24;
/// Moves searched one after the other at a node before the rest are searched in parallel
/// (Young Brothers Wait with two elder brothers). With the learned ordering a node whose first
/// move does not cut often cuts on its second, so splitting after one wasted work: FFO #40-#49
/// on two threads took 100.5 s (3.03 G nodes) splitting after one move and 81.2 s (2.71 G)
/// after two; FFO #49 alone, two runs each, 54.8 and 49.4 s against 45.3 and 48.2 s.
const SPLIT_ELDEST: usize = 2;

/// Below this many empties the deep search does not look for a cancellation.
const CANCEL_CHECK_MIN: u32 = 10;
/// Below this many empties the stability cutoff costs more than the nodes it saves.
const STABILITY_MIN: usize = 5;
/// Scores are within -64..=64; this is below any of them.
const NO_SCORE: i32 = -100;
/// The most legal moves an Othello position can have is 33; leave room.
const MAX_MOVES: usize = 40;

/// Squares adjacent to each square: a move needs an opponent disc there.
const fn neighbour_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (x, y) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && x >= 0 && x < 8 && y >= 0 && y < 8 {
                    t[sq] |= 1u64 << (y * 8 + x);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
}
static NEIGHBOUR: [u64; 64] = neighbour_table();

/// Stability cutoffs are only tried when alpha is this high for the number of empties: below
/// it the opponent rarely has enough stable discs to matter, and computing them is wasted.
/// (FFO #41-#48: 2e-2, 577 M nodes; 2e-6, 533 M; 2e-12, 529 M.)
#[inline(always)]
fn stability_threshold(empties: u32) -> i32 {
    (2 * empties as i32 - 6).clamp(4, 64)
}

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
    fn child(parent: &'a Cancel<'a>) -> Cancel<'a> {
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
    fn charge(&self, nodes: u64) -> bool {
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

/// Bit of each square's quadrant in a 4-bit parity mask.
const fn quadrant_bits() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = 1 << (((sq >> 4) & 2) | ((sq >> 2) & 1));
        sq += 1;
    }
    t
}
static QUADRANT_BIT: [u8; 64] = quadrant_bits();

/// The empty squares of a shallow node, in search order.
#[derive(Clone, Copy)]
struct Empties {
    sq: [u8; SHALLOW_MAX as usize],
    n: usize,
}

impl Empties {
    #[inline(always)]
    fn remove(&mut self, i: usize) {
        for j in i..self.n - 1 {
            self.sq[j] = self.sq[j + 1];
        }
        self.n -= 1;
    }
}

/// A move of a shallow node: its index in the node's empties, the child (from the opponent's
/// view) and its ordering cost (lower first).
#[derive(Clone, Copy, Default)]
struct ShallowMove {
    index: u8,
    player: u64,
    opponent: u64,
    cost: i32,
}

/// A move with its flips and ordering value.
#[derive(Clone, Copy, Default)]
pub struct Move {
    /// Square index.
    pub sq: u8,
    /// Discs it flips.
    pub flips: u64,
    /// Ordering value: higher first.
    pub value: i32,
}

/// One thread's view of a search under the rules `R`: the shared table and cancellation, its
/// own node count.
pub struct Search<'a, R: GameRules = Othello> {
    /// The shared transposition tables.
    pub tt: &'a Tables,
    /// Cancellation chain of this thread's current split.
    pub cancel: &'a Cancel<'a>,
    /// Nodes visited by this thread.
    pub nodes: u64,
    /// Empties from which the deep search splits siblings across threads (u32::MAX: never).
    pub split_min: u32,
    /// The learned evaluation that orders moves at the deepest nodes.
    pub weights: &'static Weights,
    /// Nodes already charged to the budget of the cancellation chain.
    charged: u64,
    rules: PhantomData<R>,
}

impl<'a, R: GameRules> Search<'a, R> {
    /// A search using `tt`, cancelled through `cancel`, splitting from `split_min` empties.
    pub fn new(tt: &'a Tables, cancel: &'a Cancel<'a>, split_min: u32) -> Search<'a, R> {
        Search {
            tt,
            cancel,
            nodes: 0,
            split_min,
            weights: crate::eval::builtin(),
            charged: 0,
            rules: PhantomData,
        }
    }

    /// True when the search must stop; charges the nodes searched since the last charge to the
    /// budget every `CHARGE_EVERY` nodes.
    #[inline]
    fn stopped(&mut self) -> bool {
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

    /// Exact score (when inside the window) of `state` for the side to move.
    pub fn search(&mut self, state: R::State, alpha: i32, beta: i32) -> i32 {
        let board = R::board(&state);
        let empty = board.empty();
        let empties = empty.count_ones();
        if !R::BOARD_ONLY {
            return if empties > SHALLOW_MAX {
                self.deep(state, alpha, beta, empties, false)
            } else {
                self.leaf(state, alpha, beta)
            };
        }
        match empties {
            0 => {
                self.nodes += 1;
                R::final_score(&board)
            }
            1 => self.solve_1(board.player, empty.trailing_zeros() as usize),
            2..=4 => {
                let mut sq = [0usize; 4];
                for (i, s) in Bits(empty).enumerate() {
                    sq[i] = s;
                }
                match empties {
                    2 => self.solve_2(
                        board.player,
                        board.opponent,
                        alpha,
                        beta,
                        sq[0],
                        sq[1],
                        false,
                    ),
                    3 => self.solve_3(
                        board.player,
                        board.opponent,
                        alpha,
                        beta,
                        [sq[0], sq[1], sq[2]],
                        false,
                    ),
                    _ => self.solve_4(board.player, board.opponent, alpha, beta, sq),
                }
            }
            e if e <= SHALLOW_MAX => self.shallow_root(board.player, board.opponent, alpha, beta),
            e => self.deep(state, alpha, beta, e, false),
        }
    }

    /// The last empties of a rule set whose supplies can bind: negamax over the rules' own play
    /// step, moves in square order, no table.
    fn leaf(&mut self, state: R::State, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let moves = R::moves(&state);
        if moves == 0 {
            let passed = R::pass(&state);
            if R::moves(&passed) == 0 {
                return R::final_score(&R::board(&state));
            }
            return -self.leaf(passed, -beta, -alpha);
        }
        let mut best = NO_SCORE;
        for sq in Bits(moves) {
            let child = R::play(&state, sq, R::flips(&state, sq));
            let v = -self.leaf(child, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Last empty square `sq`: the mover plays it if they can, else the opponent, else nobody.
    #[inline(always)]
    fn solve_1(&mut self, player: u64, sq: usize) -> i32 {
        self.nodes += 1;
        let base = 2 * player.count_ones() as i32 - 64;
        let mine = last_flip_count(player, sq) as i32;
        if mine > 0 {
            return base + 2 + 2 * mine;
        }
        let theirs = last_flip_count(!player & !(1u64 << sq), sq) as i32;
        if theirs > 0 {
            base - 2 * theirs
        } else if R::SCORING != Scoring::Official {
            // Nobody can move: the square stays empty.
            R::final_score(&Board {
                player,
                opponent: !player & !(1u64 << sq),
            })
        } else if base >= 0 {
            // Nobody can move: the mover has the majority (63 discs, odd) and gets the empty.
            base + 2
        } else {
            base
        }
    }

    fn solve_2(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        x1: usize,
        x2: usize,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = NO_SCORE;
        if NEIGHBOUR[x1] & opponent != 0 {
            let f = flips(player, opponent, x1);
            if f != 0 {
                best = -self.solve_1(opponent ^ f, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOUR[x2] & opponent != 0 {
            let f = flips(player, opponent, x2);
            if f != 0 {
                let v = -self.solve_1(opponent ^ f, x1);
                return v.max(best);
            }
        }
        if best != NO_SCORE {
            return best;
        }
        if passed {
            return R::final_score(&Board { player, opponent });
        }
        -self.solve_2(opponent, player, -beta, -alpha, x1, x2, true)
    }

    fn solve_3(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        sq: [usize; 3],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = NO_SCORE;
        for (x, a, b) in [
            (sq[0], sq[1], sq[2]),
            (sq[1], sq[0], sq[2]),
            (sq[2], sq[0], sq[1]),
        ] {
            if NEIGHBOUR[x] & opponent == 0 {
                continue;
            }
            let f = flips(player, opponent, x);
            if f == 0 {
                continue;
            }
            let v = -self.solve_2(
                opponent ^ f,
                player ^ f ^ (1u64 << x),
                -beta,
                -alpha,
                a,
                b,
                false,
            );
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
        if best != NO_SCORE {
            return best;
        }
        if passed {
            return R::final_score(&Board { player, opponent });
        }
        -self.solve_3(opponent, player, -beta, -alpha, sq, true)
    }

    fn solve_4(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: [usize; 4],
    ) -> i32 {
        let parity = sq.iter().fold(0u8, |p, &x| p ^ QUADRANT_BIT[x]);
        self.solve_4_parity(player, opponent, alpha, beta, sq, parity)
    }

    /// Four empties: squares alone (odd) in their quadrant go first, keeping the given order
    /// otherwise.
    fn solve_4_parity(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: [usize; 4],
        parity: u8,
    ) -> i32 {
        let mut ordered = [0usize; 4];
        let mut k = 0;
        for odd in [true, false] {
            for &x in &sq {
                if (parity & QUADRANT_BIT[x] != 0) == odd {
                    ordered[k] = x;
                    k += 1;
                }
            }
        }
        self.solve_4_ordered(player, opponent, alpha, beta, ordered, false)
    }

    fn solve_4_ordered(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        sq: [usize; 4],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = NO_SCORE;
        let orders = [
            (sq[0], [sq[1], sq[2], sq[3]]),
            (sq[1], [sq[0], sq[2], sq[3]]),
            (sq[2], [sq[0], sq[1], sq[3]]),
            (sq[3], [sq[0], sq[1], sq[2]]),
        ];
        for (x, rest) in orders {
            if NEIGHBOUR[x] & opponent == 0 {
                continue;
            }
            let f = flips(player, opponent, x);
            if f == 0 {
                continue;
            }
            let v = -self.solve_3(
                opponent ^ f,
                player ^ f ^ (1u64 << x),
                -beta,
                -alpha,
                rest,
                false,
            );
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
        if best != NO_SCORE {
            return best;
        }
        if passed {
            return R::final_score(&Board { player, opponent });
        }
        -self.solve_4_ordered(opponent, player, -beta, -alpha, sq, true)
    }

    /// Entry to the shallow layer: lists the empties once, in square-class order, with the
    /// parity of each quadrant, so the nodes below never scan the board for empties.
    fn shallow_root(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        let empty = !(player | opponent);
        let mut list = Empties {
            sq: [0; SHALLOW_MAX as usize],
            n: 0,
        };
        let mut parity = 0u8;
        for class in SQUARE_CLASSES {
            for x in Bits(empty & class) {
                list.sq[list.n] = x as u8;
                list.n += 1;
                parity ^= QUADRANT_BIT[x];
            }
        }
        self.shallow(player, opponent, alpha, beta, &list, parity, false)
    }

    /// 5 to `SHALLOW_MAX` empties: fewest replies left to the opponent first, then squares in
    /// odd quadrants, then by square class; stability cutoff; no table.
    fn shallow(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        list: &Empties,
        parity: u8,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let n = list.n;
        if n >= STABILITY_MIN {
            if let Some(cut) = stability_cutoff(player, opponent, alpha, n as u32) {
                return cut;
            }
        }
        // Every move with its child and cost: the opponent's replies, less a bonus for an odd
        // quadrant. The list is in square-class order, so equal costs keep that order.
        let mut moves = [ShallowMove::default(); SHALLOW_MAX as usize];
        let mut k = 0;
        for i in 0..n {
            let x = list.sq[i] as usize;
            if NEIGHBOUR[x] & opponent == 0 {
                continue;
            }
            let f = flips(player, opponent, x);
            if f == 0 {
                continue;
            }
            let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << x));
            let odd = parity & QUADRANT_BIT[x] != 0;
            moves[k] = ShallowMove {
                index: i as u8,
                player: p,
                opponent: o,
                cost: ((legal_moves(p, o).count_ones() as i32) << 4) - if odd { 8 } else { 0 },
            };
            k += 1;
        }
        if k == 0 {
            if passed {
                return R::final_score(&Board { player, opponent });
            }
            return -self.shallow(opponent, player, -beta, -alpha, list, parity, true);
        }
        let mut best = NO_SCORE;
        for i in 0..k {
            // Selection: a cutoff on the first move, the usual case, needs no full sort.
            let mut j = i;
            for l in i + 1..k {
                if moves[l].cost < moves[j].cost {
                    j = l;
                }
            }
            moves.swap(i, j);
            let m = moves[i];
            let x = list.sq[m.index as usize] as usize;
            let mut rest = *list;
            rest.remove(m.index as usize);
            let child_parity = parity ^ QUADRANT_BIT[x];
            let v = if n == 5 {
                let s = &rest.sq;
                -self.solve_4_parity(
                    m.player,
                    m.opponent,
                    -beta,
                    -alpha,
                    [s[0] as usize, s[1] as usize, s[2] as usize, s[3] as usize],
                    child_parity,
                )
            } else {
                -self.shallow(
                    m.player,
                    m.opponent,
                    -beta,
                    -alpha,
                    &rest,
                    child_parity,
                    false,
                )
            };
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// Child of a deep node: the right layer for its number of empties.
    #[inline(always)]
    fn child(&mut self, state: R::State, alpha: i32, beta: i32, empties: u32) -> i32 {
        if empties > SHALLOW_MAX {
            self.deep(state, alpha, beta, empties, false)
        } else if !R::BOARD_ONLY {
            self.leaf(state, alpha, beta)
        } else if empties >= 5 {
            let board = R::board(&state);
            self.shallow_root(board.player, board.opponent, alpha, beta)
        } else {
            self.search(state, alpha, beta)
        }
    }

    /// More than `SHALLOW_MAX` empties: move list, fastest-first ordering, table, ETC, splits.
    pub fn deep(
        &mut self,
        state: R::State,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if empties >= CANCEL_CHECK_MIN && self.stopped() {
            return 0;
        }
        let board = R::board(&state);
        if let Some(cut) = stability_cutoff(board.player, board.opponent, alpha, empties) {
            return cut;
        }
        let moves = R::moves(&state);
        if moves == 0 {
            if passed {
                return R::final_score(&board);
            }
            return -self.deep(R::pass(&state), -beta, -alpha, empties, true);
        }
        let use_tt = empties >= TT_MIN;
        let key = R::key(&state);
        let hash = key.hash();
        let mut tt_move = NO_MOVE;
        let stored = if use_tt {
            self.tt
                .deep
                .probe(&key, hash)
                .map(|e| (e.lower as i32, e.upper as i32, e.best))
        } else {
            self.tt.near.probe(&key, hash)
        };
        if let Some((lower, upper, best)) = stored {
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            tt_move = best;
        }
        let alpha_orig = alpha;

        let mut list = [Move::default(); MAX_MOVES];
        let mut n = 0;
        let prefetch_children = empties > SHALLOW_MAX + 1 && empties <= TT_MIN;
        for sq in Bits(moves) {
            let f = R::flips(&state, sq);
            if prefetch_children {
                self.tt
                    .near
                    .prefetch(R::key(&R::play(&state, sq, f)).hash());
            }
            list[n] = Move {
                sq: sq as u8,
                flips: f,
                value: 0,
            };
            n += 1;
        }
        let list = &mut list[..n];

        if use_tt && empties >= ETC_MIN {
            // Enhanced transposition cutoff: a child already known to refute the window.
            for m in list.iter() {
                let child = R::key(&R::play(&state, m.sq as usize, m.flips));
                if let Some(e) = self.tt.deep.probe(&child, child.hash()) {
                    let score = -(e.upper as i32);
                    if score >= beta {
                        self.tt
                            .deep
                            .store(&key, hash, empties, alpha_orig, beta, score, m.sq);
                        return score;
                    }
                }
            }
        }

        // The table's move is searched before the others are ordered: when it cuts, as it
        // mostly does, their ordering (a search of each at the deepest nodes) is never needed.
        let mut first = (NO_SCORE, NO_MOVE);
        let mut searched = 0;
        if let Some(i) = list.iter().position(|m| m.sq == tt_move) {
            list.swap(0, i);
            let m = list[0];
            let v = -self.child(
                R::play(&state, m.sq as usize, m.flips),
                -beta,
                -alpha,
                empties - 1,
            );
            first = (v, m.sq);
            searched = 1;
        }
        let (best, best_move) = if first.0 >= beta || n == searched {
            first
        } else {
            if empties >= CANCEL_CHECK_MIN && self.cancel.is_cancelled() {
                return 0;
            }
            let rest = &mut list[searched..];
            self.order(board, rest, empties);
            self.search_moves_after(
                state,
                rest,
                alpha.max(first.0),
                beta,
                empties,
                first,
                searched,
            )
        };
        if empties >= CANCEL_CHECK_MIN && self.cancel.is_cancelled() {
            return 0;
        }
        if use_tt {
            self.tt
                .deep
                .store(&key, hash, empties, alpha_orig, beta, best, best_move);
        } else {
            self.tt
                .near
                .store(&key, hash, alpha_orig, beta, best, best_move);
        }
        best
    }

    /// Gives each move of a deep node its ordering value: the learned evaluation from
    /// `EVAL_ORDER_MIN` empties up, fastest-first below.
    fn order(&mut self, board: Board, list: &mut [Move], empties: u32) {
        let odd = odd_region_squares(board.empty());
        let depth = if empties >= EVAL_DEPTH_6_MIN {
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
        };
        for m in list.iter_mut() {
            let sq = m.sq as usize;
            let (np, no) = (
                board.opponent ^ m.flips,
                board.player ^ m.flips ^ (1u64 << sq),
            );
            if empties >= EVAL_ORDER_MIN {
                m.value = learned_order(self.weights, np, no, depth, &mut self.nodes);
                // The ordering searches of one node can cost far more nodes than the budget's
                // charging interval (a 6-ply search per move): the budget is charged between
                // them, so a node limit is seen within one of them. A stopped search's values
                // are never used.
                if self.stopped() {
                    return;
                }
            } else {
                m.value = fastest_first(np, no, sq, odd);
            }
        }
    }

    /// Principal variation search over an ordered move list; returns (score, best move square).
    /// Above `split_min` empties the moves after the first `SPLIT_ELDEST` are searched in parallel.
    pub fn search_moves(
        &mut self,
        state: R::State,
        list: &mut [Move],
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (i32, u8) {
        self.search_moves_after(state, list, alpha, beta, empties, (NO_SCORE, NO_MOVE), 0)
    }

    /// [`Search::search_moves`] after `searched` elder moves whose best score and move were
    /// `best` (alpha already raised by it): every move of `list` gets a null window first.
    #[allow(clippy::too_many_arguments)]
    fn search_moves_after(
        &mut self,
        state: R::State,
        list: &mut [Move],
        mut alpha: i32,
        beta: i32,
        empties: u32,
        (mut best, mut best_move): (i32, u8),
        searched: usize,
    ) -> (i32, u8) {
        let n = list.len();
        for i in 0..n {
            // Selection: the best remaining move goes next (cutoffs make a full sort wasteful).
            let mut k = i;
            for j in i + 1..n {
                if list[j].value > list[k].value {
                    k = j;
                }
            }
            list.swap(i, k);
            let m = list[i];
            if i + searched >= SPLIT_ELDEST && empties >= self.split_min && n - i >= 2 {
                list[i..].sort_unstable_by_key(|m| -m.value);
                let (v, mv) = self.split(state, &list[i..], alpha, beta, empties, best);
                if v > best {
                    best = v;
                    best_move = mv;
                }
                return (best, best_move);
            }
            let child = R::play(&state, m.sq as usize, m.flips);
            let v = if i + searched == 0 {
                -self.child(child, -beta, -alpha, empties - 1)
            } else {
                let mut v = -self.child(child, -alpha - 1, -alpha, empties - 1);
                if v > alpha && v < beta {
                    v = -self.child(child, -beta, -alpha, empties - 1);
                }
                v
            };
            if v > best {
                best = v;
                best_move = m.sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_move)
    }

    /// Young Brothers Wait: the elder brothers are done; the others run in parallel with a shared
    /// alpha, and the first to reach beta cancels the rest.
    fn split(
        &mut self,
        state: R::State,
        rest: &[Move],
        alpha: i32,
        beta: i32,
        empties: u32,
        best_so_far: i32,
    ) -> (i32, u8) {
        let cancel = Cancel::child(self.cancel);
        let shared_alpha = AtomicI32::new(alpha);
        let best = Mutex::new((best_so_far, NO_MOVE));
        let nodes = AtomicU64::new(0);
        let (tt, split_min, weights) = (self.tt, self.split_min, self.weights);
        rest.par_iter().for_each(|m| {
            if cancel.is_cancelled() {
                return;
            }
            let mut search = Search::<R> {
                tt,
                cancel: &cancel,
                nodes: 0,
                split_min,
                weights,
                charged: 0,
                rules: PhantomData,
            };
            let child = R::play(&state, m.sq as usize, m.flips);
            let a = shared_alpha.load(Ordering::Relaxed);
            let mut v = -search.child(child, -a - 1, -a, empties - 1);
            if !cancel.is_cancelled() && v > a && v < beta {
                // Re-search with the full window, from the alpha the siblings have reached since.
                let a2 = shared_alpha.load(Ordering::Relaxed).max(a);
                v = -search.child(child, -beta, -a2, empties - 1);
            }
            search.charge_rest();
            nodes.fetch_add(search.nodes, Ordering::Relaxed);
            if cancel.is_cancelled() {
                return;
            }
            let mut b = best.lock().unwrap_or_else(|e| e.into_inner());
            if v > b.0 {
                *b = (v, m.sq);
                shared_alpha.fetch_max(v, Ordering::Relaxed);
                if v >= beta {
                    cancel.cancel();
                }
            }
        });
        // The children charged their nodes themselves.
        let children = nodes.load(Ordering::Relaxed);
        self.nodes += children;
        self.charged += children;
        let b = *best.lock().unwrap_or_else(|e| e.into_inner());
        b
    }
}

/// Stability cutoff: the opponent's stable discs cap the mover's final score. Returns the cap
/// when it is at or below alpha.
#[inline(always)]
fn stability_cutoff(player: u64, opponent: u64, alpha: i32, empties: u32) -> Option<i32> {
    if alpha >= stability_threshold(empties) && alpha >= 64 - 2 * opponent.count_ones() as i32 {
        let cap = 64 - 2 * stable_discs(opponent, player).count_ones() as i32;
        if cap <= alpha {
            return Some(cap);
        }
    }
    None
}

/// Legal moves as a list with flips (unordered), for root-level code.
pub fn move_list(board: &Board) -> Vec<Move> {
    Bits(legal_moves(board.player, board.opponent))
        .map(|sq| Move {
            sq: sq as u8,
            flips: board.flips(sq),
            value: 0,
        })
        .collect()
}
