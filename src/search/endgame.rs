//! The deep search of the exact solver and its entry: [`Search::search`] picks the layer for a
//! position's empties, the last empties (`last`) at `SHALLOW_MAX` and below, `deep` above:
//! the move list ordered by `ordering`, the lock-free near table below `TT_MIN` empties and the
//! sharded deep table (`tt`) from there, enhanced transposition cutoff (whose probes become the
//! children's [`Hint`]s), ProbCut in selective searches, and Young Brothers Wait splits on
//! rayon. All fail-soft alpha-beta on exact final scores. Generic over the rules
//! ([`GameRules`]): `deep` walks the rules' state, the layers below it see only bitboards and
//! serve the rule sets whose state is the board (`BOARD_ONLY`) and the Reversi states whose
//! supplies are balanced (`GameRules::othello_until_odd_pass`), while a state where supplies
//! can bind takes `leaf` at the last empties. The thresholds are in `thresholds`.

use super::eval_search;
use super::node::{stability_cutoff, Cancel, Hint, Move, Search, NO_SCORE};
use super::thresholds::{
    eval_order_depth, probcut_depth, split_eldest, CANCEL_CHECK_MIN, ETC_MIN, EVAL_ORDER_MIN,
    PROBCUT_MIN, SHALLOW_MAX, TT_MIN,
};
use super::tt::{EXACT, NO_MOVE};
use crate::board::rules::GameRules;
use crate::board::{Bits, Board, MAX_MOVES};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Nodes with at most this many moves (all with this many empties or fewer) zero a list of
/// this length instead of `MAX_MOVES` (sixteen moves, 256 bytes: a few vector stores).
const FEW_MOVES: usize = 16;

/// A deep node's place in the tables and how exactly it is searched.
struct NodeKey {
    /// The board the tables know the node by.
    key: Board,
    /// Its hash.
    hash: u64,
    /// In the deep table (from `TT_MIN` empties up), else in the near table.
    in_deep_table: bool,
    /// Its selectivity (`EXACT`, or the margin of a selective search).
    cut: u8,
    /// Its empties.
    empties: u32,
}

/// Whether a deep node orders its moves before the probes of enhanced transposition cutoff,
/// while their lines come from memory, rather than after its table's move: where the order
/// is the evaluation of each child without a search (`eval_order_depth` 0, which alpha does
/// not change) and the table gave no move (the order is then needed unless a probe refutes
/// the window). The moves the probes drop are evaluated for nothing. (FFO #40-#49, one
/// thread, against 3a47a80: 426.5 M nodes where there were 424.4 M, the evaluations of the
/// dropped moves; side by side, six pairs, every one faster, median ratio 0.981. With the
/// order before the near table's probe as well (`deep_hinted`), four more pairs against this
/// alone: median ratio 0.987.)
#[inline(always)]
fn order_before_etc(node: &NodeKey, tt_move: u8) -> bool {
    node.in_deep_table
        && node.empties >= ETC_MIN
        && node.empties >= EVAL_ORDER_MIN
        && eval_order_depth(node.empties) == 0
        && tt_move == NO_MOVE
}

impl<'a, R: GameRules> Search<'a, R> {
    /// Exact score (when inside the window) of `state` for the side to move.
    pub fn search(&mut self, state: R::State, alpha: i32, beta: i32) -> i32 {
        let board = R::board(&state);
        let empty = board.empty();
        let empties = empty.count_ones();
        if !R::BOARD_ONLY {
            if empties > SHALLOW_MAX {
                return self.deep(state, alpha, beta, empties, false);
            }
            if !R::othello_until_odd_pass(&state) {
                return self.leaf(state, alpha, beta);
            }
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

    /// Child of a deep node: the right layer for its number of empties; `hint` is what the
    /// node's probe of the child found (only deep children are probed).
    #[inline(always)]
    fn child(&mut self, state: R::State, alpha: i32, beta: i32, empties: u32, hint: Hint) -> i32 {
        if empties > SHALLOW_MAX {
            self.deep_hinted(state, alpha, beta, empties, false, hint)
        } else if !R::BOARD_ONLY && !R::othello_until_odd_pass(&state) {
            self.leaf(state, alpha, beta)
        } else if empties >= 5 {
            let board = R::board(&state);
            self.shallow_root(board.player, board.opponent, alpha, beta)
        } else {
            self.search(state, alpha, beta)
        }
    }

    /// More than `SHALLOW_MAX` empties: move list, fastest-first ordering, table, ETC, splits.
    #[inline(always)]
    pub fn deep(
        &mut self,
        state: R::State,
        alpha: i32,
        beta: i32,
        empties: u32,
        passed: bool,
    ) -> i32 {
        self.deep_hinted(state, alpha, beta, empties, passed, Hint::NONE)
    }

    /// [`Search::deep`] where the parent may already have probed this node's table entry
    /// (`hint`, see [`Hint`]). In order: the stability cut-off, the pass, the node's table
    /// entry ([`Search::probe_node`]), ProbCut in a selective search, the move list and its
    /// order (below `TT_MIN` empties both before the table entry, while its line comes from
    /// memory; from 12 to 15 empties the order before the children's entries, see
    /// `order_before_etc`), the children's entries (enhanced transposition cutoff,
    /// [`Search::refute_by_children`]), the moves ([`Search::search_list`]), and the store of
    /// the result.
    fn deep_hinted(
        &mut self,
        state: R::State,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
        passed: bool,
        hint: Hint,
    ) -> i32 {
        self.nodes += 1;
        if empties >= CANCEL_CHECK_MIN && self.stopped() {
            return 0;
        }
        // A window beyond the score range is decided without a look: no score is above 64
        // (a fail-low bound) or below -64 (a fail-high bound).
        if alpha >= 64 {
            return 64;
        }
        if beta <= -64 {
            return -64;
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
        let key = R::key(&state);
        let node = NodeKey {
            hash: key.hash(),
            key,
            in_deep_table: empties >= TT_MIN,
            cut: self.cut_at(empties),
            empties,
        };
        let guesses_before = self.guesses;
        // Only the list that is used is zeroed: most nodes have few moves (never more than their
        // empties), and zeroing `MAX_MOVES` moves (a call of memset) cost more than building it.
        let mut few;
        let mut many;
        let list: &mut [Move] = if moves.count_ones() as usize <= FEW_MOVES {
            few = [Move::default(); FEW_MOVES];
            &mut few
        } else {
            many = [Move::default(); MAX_MOVES];
            &mut many
        };
        // Below `TT_MIN` the parent asked for this node's near-table line just before (see
        // `list_moves`): the moves are listed and ordered (fastest-first, no evaluation) while
        // it comes, rather than after the probe waited for it. (FFO #40-#49, one thread, side
        // by side with 89bf2f3, which listed after the probe and asked for the deep table's
        // lines in `refute_by_children`, six pairs each: the deep table's lines asked for in
        // `list_moves` alone, median ratio 0.994; with the early list too, 0.982, every pair
        // faster. The order before the probe too, against 3a47a80 with the order below: see
        // `order_before_etc`.)
        let early = !node.in_deep_table;
        let mut n = 0;
        if early {
            n = self.list_moves(&state, moves, list, empties);
            self.order(board, &mut list[..n], empties, alpha);
        }
        let tt_move = match self.probe_node(&node, hint, &mut alpha, &mut beta) {
            Ok(tt_move) => tt_move,
            Err(answer) => return answer,
        };
        let alpha_orig = alpha;
        if node.cut != EXACT {
            if let Some(v) = self.probcut(board, alpha, beta, empties) {
                self.guesses += 1;
                return v;
            }
        }
        if !early {
            n = self.list_moves(&state, moves, list, empties);
        }
        let mut list = &mut list[..n];
        // From `ETC_MIN` empties the children's deep-table lines are on their way (asked for
        // in `list_moves`): where the order would come after the probes of enhanced
        // transposition cutoff anyway, it is taken while they come.
        let ordered = early || order_before_etc(&node, tt_move);
        if ordered && !early {
            self.order(board, list, empties, alpha);
        }

        // The best of the moves not searched (below) or searched so far, and its square.
        let mut first = (NO_SCORE, NO_MOVE);
        if node.in_deep_table && empties >= ETC_MIN {
            match self.refute_by_children(&state, &node, list, alpha_orig, alpha, beta) {
                Ok((best_dropped, kept)) => {
                    first = best_dropped;
                    list = &mut list[..kept];
                }
                Err(refuted) => return refuted,
            }
        }
        let Some((best, best_move)) = self.search_list(
            state, board, list, tt_move, alpha, beta, empties, first, ordered,
        ) else {
            return 0;
        };
        if empties >= CANCEL_CHECK_MIN && self.cancel.is_cancelled() {
            return 0;
        }
        // A subtree that took no guess was searched exactly, whatever the search.
        let cut = if self.guesses == guesses_before {
            EXACT
        } else {
            node.cut
        };
        self.store_node(&node, cut, alpha_orig, beta, best, best_move);
        best
    }

    /// How exactly a node with `empties` empties is searched: selective searches cut from
    /// `PROBCUT_MIN` up (their margin), every other node is `EXACT`.
    #[inline(always)]
    fn cut_at(&self, empties: u32) -> u8 {
        match self.selective {
            Some(s) if empties >= PROBCUT_MIN => s.margin as u8,
            _ => EXACT,
        }
    }

    /// The node's table entry: from the parent's `hint` when it probed, else from the deep
    /// table from `TT_MIN` empties up, else from the near table. `Err` with the answer when
    /// the entry decides the node; otherwise the window narrowed to the entry's bounds and
    /// `Ok` with the table's move (`NO_MOVE` when none).
    #[inline(always)]
    fn probe_node(
        &mut self,
        node: &NodeKey,
        hint: Hint,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Result<u8, i32> {
        let mut tt_move = NO_MOVE;
        let stored = if let Some((bounds, best)) = hint.get() {
            // The parent probed this board (and applied the rule on selective entries).
            tt_move = best;
            bounds.map(|(lower, upper)| (lower, upper, best))
        } else if node.in_deep_table {
            match self.tt.deep.probe(&node.key, node.hash) {
                // A selective entry's bounds are guesses: the exact search takes its move only.
                Some(e) if e.cut < node.cut => {
                    tt_move = e.best;
                    None
                }
                Some(e) => {
                    if e.cut != EXACT {
                        self.guesses += 1;
                    }
                    Some((e.lower as i32, e.upper as i32, e.best))
                }
                None => None,
            }
        } else {
            self.near.probe(&node.key, node.hash)
        };
        if let Some((lower, upper, best)) = stored {
            if lower >= *beta || lower == upper {
                return Err(lower);
            }
            if upper <= *alpha {
                return Err(upper);
            }
            *alpha = (*alpha).max(lower);
            *beta = (*beta).min(upper);
            tt_move = best;
        }
        Ok(tt_move)
    }

    /// Writes the legal moves `moves` of `state` with their flips into `list` (zeroed: no
    /// value, no hint) and returns how many. Each child's table line is asked for as soon as
    /// its move is known, so the cache misses overlap the flips of the moves after it: the
    /// deep table's from `ETC_MIN` empties (the probes of enhanced transposition cutoff
    /// follow), the near table's just above the last empties.
    #[inline(always)]
    fn list_moves(&self, state: &R::State, moves: u64, list: &mut [Move], empties: u32) -> usize {
        let mut n = 0;
        let prefetch_near = empties > SHALLOW_MAX + 1 && empties <= TT_MIN;
        let prefetch_deep = empties >= ETC_MIN;
        for sq in Bits(moves) {
            let f = R::flips(state, sq);
            if prefetch_near {
                self.near.prefetch(R::key(&R::play(state, sq, f)).hash());
            } else if prefetch_deep {
                self.tt.deep.prefetch(R::key(&R::play(state, sq, f)).hash());
            }
            // The list is zeroed (no value, no hint): only the move itself is written.
            let m = &mut list[n];
            m.sq = sq as u8;
            m.flips = f;
            n += 1;
        }
        n
    }

    /// Enhanced transposition cutoff: a child already known to refute the window. Every
    /// child's bucket was asked for (`list_moves`) before the first is probed, so the probes'
    /// cache misses overlap instead of following one another. What each probe finds goes to
    /// the child as its hint. `Err` with the score when a child refutes the window (stored);
    /// otherwise the moves that may still raise alpha are moved to the front of `list` and
    /// `Ok` gives the best bound of those dropped (with its square) and how many are kept.
    #[inline(always)]
    fn refute_by_children(
        &mut self,
        state: &R::State,
        node: &NodeKey,
        list: &mut [Move],
        alpha_orig: i32,
        alpha: i32,
        beta: i32,
    ) -> Result<((i32, u8), usize), i32> {
        let mut n = list.len();
        // How exactly the children are searched (the rule of selective entries is theirs).
        let child_cut = self.cut_at(node.empties - 1);
        for m in list.iter_mut() {
            let child = R::key(&R::play(state, m.sq as usize, m.flips));
            m.hint = match self.tt.deep.probe(&child, child.hash()) {
                Some(e) => {
                    if e.cut >= node.cut {
                        let score = -(e.upper as i32);
                        if score >= beta {
                            if e.cut != EXACT {
                                self.guesses += 1;
                            }
                            self.tt.deep.store(
                                &node.key,
                                node.hash,
                                node.empties,
                                alpha_orig,
                                beta,
                                score,
                                m.sq,
                                // The bound rests on the child's entry alone.
                                if e.cut == EXACT { EXACT } else { node.cut },
                            );
                            return Err(score);
                        }
                    }
                    if e.cut >= child_cut && e.cut != EXACT {
                        // A selective entry's bounds: the child probes the entry itself, to
                        // count the guess it takes from them.
                        Hint::NONE
                    } else if e.cut >= child_cut {
                        Hint::found(e.lower, e.upper, e.best)
                    } else {
                        Hint::move_only(e.best)
                    }
                }
                None => Hint::MISSING,
            };
        }
        // A child whose lower bound proves that its move cannot raise alpha is neither
        // ordered nor searched: its search would return that bound at once, as a node
        // (fail-soft) its upper bound of the move's score, which is what the node takes.
        let mut dropped = (NO_SCORE, NO_MOVE);
        let mut i = 0;
        while i < n {
            if let Some((Some((lower, _)), _)) = list[i].hint.get() {
                if -lower <= alpha {
                    if -lower > dropped.0 {
                        dropped = (-lower, list[i].sq);
                    }
                    n -= 1;
                    list.swap(i, n);
                    continue;
                }
            }
            i += 1;
        }
        Ok((dropped, n))
    }

    /// Searches the moves of `list` after `first` (the best bound of the moves not searched,
    /// and its square): the table's move `tt_move` alone first, before the others are ordered
    /// (when it cuts, as it mostly does, their ordering, a search of each at the deepest
    /// nodes, is never needed), then the others ordered (`ordered`: their values were given
    /// before). The best score and its move; `None` when the search was stopped before the
    /// others.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_list(
        &mut self,
        state: R::State,
        board: Board,
        list: &mut [Move],
        tt_move: u8,
        alpha: i32,
        beta: i32,
        empties: u32,
        mut first: (i32, u8),
        ordered: bool,
    ) -> Option<(i32, u8)> {
        let n = list.len();
        let mut searched = 0;
        if let Some(i) = list.iter().position(|m| m.sq == tt_move) {
            list.swap(0, i);
            let m = list[0];
            let v = -self.child(
                R::play(&state, m.sq as usize, m.flips),
                -beta,
                -alpha,
                empties - 1,
                m.hint,
            );
            if v > first.0 {
                first = (v, m.sq);
            }
            searched = 1;
        }
        if first.0 >= beta || n == searched {
            return Some(first);
        }
        if empties >= CANCEL_CHECK_MIN && self.cancel.is_cancelled() {
            return None;
        }
        let rest = &mut list[searched..];
        if !ordered {
            self.order(board, rest, empties, alpha.max(first.0));
        }
        Some(self.search_moves_after(
            state,
            rest,
            alpha.max(first.0),
            beta,
            empties,
            first,
            searched,
        ))
    }

    /// Stores the result `best` (move `best_move`) of a node searched within
    /// (`alpha_orig`, `beta`) with the selectivity `cut`: in the deep table from `TT_MIN`
    /// empties up, else the near table (only ever `EXACT` there).
    #[inline(always)]
    fn store_node(
        &self,
        node: &NodeKey,
        cut: u8,
        alpha_orig: i32,
        beta: i32,
        best: i32,
        best_move: u8,
    ) {
        if node.in_deep_table {
            self.tt.deep.store(
                &node.key,
                node.hash,
                node.empties,
                alpha_orig,
                beta,
                best,
                best_move,
                cut,
            );
        } else {
            self.near
                .store(&node.key, node.hash, alpha_orig, beta, best, best_move);
        }
    }

    /// ProbCut: when a shallow evaluation search of `board` is beyond the window by the
    /// selectivity's margin, the bound it predicts (beta or alpha), without searching.
    fn probcut(&mut self, board: Board, alpha: i32, beta: i32, empties: u32) -> Option<i32> {
        let margin = self.selective?.margin;
        let scale = crate::eval::SCALE;
        let depth = probcut_depth(empties);
        if beta + margin <= 64 {
            let t = (beta + margin) * scale;
            let v = eval_search::search(
                self.weights,
                board.player,
                board.opponent,
                depth,
                t - 1,
                t,
                &mut self.nodes,
            );
            if v >= t {
                return Some(beta);
            }
        }
        if alpha - margin >= -64 {
            let t = (alpha - margin) * scale;
            let v = eval_search::search(
                self.weights,
                board.player,
                board.opponent,
                depth,
                t,
                t + 1,
                &mut self.nodes,
            );
            if v <= t {
                return Some(alpha);
            }
        }
        None
    }

    /// Principal variation search over an ordered move list; returns (score, best move square).
    /// From `split_min` empties, when a thread of the crew is idle, the moves after the first
    /// `split_eldest` are searched in parallel.
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
            if i + searched >= split_eldest(empties)
                && empties >= self.split_min
                && n - i >= 2
                && self.crew.idle()
            {
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
                -self.child(child, -beta, -alpha, empties - 1, m.hint)
            } else {
                let mut v = -self.child(child, -alpha - 1, -alpha, empties - 1, m.hint);
                if v > alpha && v < beta {
                    // The first search stored a fresher entry than the hint.
                    v = -self.child(child, -beta, -alpha, empties - 1, Hint::NONE);
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

    /// Young Brothers Wait, for an idle thread: the elder brothers are done and another thread
    /// has nothing to search, so the others run in parallel with a shared alpha, and the first
    /// to reach beta cancels the rest. Each free thread takes the next move in order (not a
    /// half of the list, as splitting the slice would give it: the second thread would start
    /// with the middle of the order, a move that rarely cuts). The crew counts the threads
    /// taking the moves: this one until its own `work` finds none left, each helper while its
    /// `work` runs; waiting at the end for the others' last moves (and taking their splits
    /// meanwhile), this thread is idle.
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
        let guesses = AtomicU64::new(0);
        let (tt, split_min, crew, weights, selective) = (
            self.tt,
            self.split_min,
            self.crew,
            self.weights,
            self.selective,
        );
        // The index of the next move to hand out.
        let next = AtomicUsize::new(0);
        let work = || loop {
            if cancel.is_cancelled() {
                return;
            }
            let Some(m) = rest.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            // Created on the thread that runs the move, so with that thread's near table.
            let mut search = Search::<R> {
                tt,
                near: tt.near(),
                cancel: &cancel,
                nodes: 0,
                split_min,
                crew,
                weights,
                charged: 0,
                selective,
                guesses: 0,
                rules: PhantomData,
            };
            let child = R::play(&state, m.sq as usize, m.flips);
            let a = shared_alpha.load(Ordering::Relaxed);
            let mut v = -search.child(child, -a - 1, -a, empties - 1, m.hint);
            if !cancel.is_cancelled() && v > a && v < beta {
                // Re-search with the full window, from the alpha the siblings have reached since.
                let a2 = shared_alpha.load(Ordering::Relaxed).max(a);
                v = -search.child(child, -beta, -a2, empties - 1, Hint::NONE);
            }
            search.charge_rest();
            nodes.fetch_add(search.nodes, Ordering::Relaxed);
            guesses.fetch_add(search.guesses, Ordering::Relaxed);
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
        };
        let helpers = rayon::current_num_threads().min(rest.len()) - 1;
        crew.split();
        rayon::scope(|s| {
            for _ in 0..helpers {
                s.spawn(|_| {
                    crew.enter();
                    work();
                    crew.leave();
                });
            }
            work();
            crew.leave();
        });
        crew.enter();
        // The children charged their nodes themselves.
        let children = nodes.load(Ordering::Relaxed);
        self.nodes += children;
        self.charged += children;
        // A move cancelled before its end took part in no result: its guesses count all the same.
        self.guesses += guesses.load(Ordering::Relaxed);
        let b = *best.lock().unwrap_or_else(|e| e.into_inner());
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{random_position, Rng};
    use crate::board::rules::Othello;
    use crate::search::reference::{alpha_beta, check_fail_soft as check};
    use crate::search::tt::Tables;

    #[test]
    fn stale_missing_and_absent_hints_keep_scores_exact() {
        // A hint may be older than the table (another thread stored a tighter entry since),
        // say "missing" while the table holds an entry, carry any move, or be absent: the
        // score must stay exact whatever valid bounds it carries.
        let mut rng = Rng(1717);
        let tt = Tables::new(4).unwrap();
        let stop = Cancel::root();
        let mut hinted = 0;
        for i in 0..120 {
            let empties = TT_MIN + (i % 3);
            let p = random_position(&mut rng, empties);
            let exact = alpha_beta(p.board, -65, 65);
            let moves = p.board.moves();
            if moves == 0 {
                continue;
            }
            // A legal move, an illegal square and no move at all.
            let legal = moves.trailing_zeros() as u8;
            let illegal = (!moves & p.board.empty()).trailing_zeros().min(63) as u8;
            let loose = |below: i32, above: i32| {
                Hint::found(
                    (exact - below).max(-64) as i8,
                    (exact + above).min(64) as i8,
                    legal,
                )
            };
            let hints = [
                Hint::NONE,
                Hint::MISSING,
                Hint::move_only(illegal),
                Hint::move_only(legal),
                loose(0, 0),
                loose(3, 0),
                loose(0, 5),
                loose(2, 130),
                loose(130, 130),
            ];
            for hint in hints {
                for _ in 0..3 {
                    let a = (rng.next_u64() % 131) as i32 - 65;
                    let b = (a + 1 + (rng.next_u64() % 12) as i32).min(65);
                    if i % 2 == 0 {
                        // Half the time the table is empty, half the time it holds this board.
                        tt.clear();
                    }
                    let mut search = Search::<Othello>::new(&tt, &stop, u32::MAX);
                    let v = search.deep_hinted(p.board, a, b, empties, false, hint);
                    check(v, exact, a, b, &format!("{:?} with {hint:?}", p.board));
                    hinted += 1;
                }
            }
        }
        assert!(hinted > 2000, "{hinted} searches");
    }

    #[test]
    fn windows_beyond_the_score_range_give_the_range_end() {
        // Every score is within -64..=64: a window above 64 fails low with 64 and one below
        // -64 fails high with -64 without a search, and both stay true bounds.
        let mut rng = Rng(6464);
        let tt = Tables::new(4).unwrap();
        let stop = Cancel::root();
        for i in 0..40 {
            let empties = TT_MIN + (i % 4);
            let p = random_position(&mut rng, empties);
            let exact = alpha_beta(p.board, -65, 65);
            for (a, b, want) in [(64, 65, 64), (64, 66, 64), (-65, -64, -64), (-66, -64, -64)] {
                let mut search = Search::<Othello>::new(&tt, &stop, u32::MAX);
                let v = search.deep(p.board, a, b, empties, false);
                assert_eq!(v, want, "{:?} in ({a}, {b})", p.board);
                assert_eq!(search.nodes, 1, "{:?} in ({a}, {b})", p.board);
                check(v, exact, a, b, &format!("{:?}", p.board));
            }
            // Windows touching the ends are still searched and exact.
            for (a, b) in [(63, 64), (-64, -63), (-64, 64)] {
                let mut search = Search::<Othello>::new(&tt, &stop, u32::MAX);
                let v = search.deep(p.board, a, b, empties, false);
                check(v, exact, a, b, &format!("{:?}", p.board));
            }
        }
    }

    #[test]
    fn a_probed_hint_holds_what_the_probe_found() {
        assert_eq!(Hint::NONE.get(), None);
        assert_eq!(Hint::MISSING.get(), Some((None, NO_MOVE)));
        assert_eq!(Hint::move_only(19).get(), Some((None, 19)));
        assert_eq!(Hint::found(-64, 12, 3).get(), Some((Some((-64, 12)), 3)));
        assert_eq!(
            Hint::found(5, 5, NO_MOVE).get(),
            Some((Some((5, 5)), NO_MOVE))
        );
        // All zero is "not probed": a zeroed list of moves carries no hint.
        assert_eq!(Move::default().hint, Hint::NONE);
    }
}
