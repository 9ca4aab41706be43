//! The middle-game search of the playing engine: iterative deepening of a principal-variation
//! alpha-beta with the learned evaluation at the leaves, exact final scores where a line ends,
//! its own transposition table, and a deadline and stop flag checked every few hundred nodes.
//! It decides moves where an exact solve is out of reach; it knows boards and the evaluation,
//! never protocols, clocks of a game or the exact solver.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::board::{legal_moves, Bits, Board, Square, CORNERS, MAX_MOVES};
use crate::eval::{evaluate_mobility, Weights, SCALE};
use crate::huge_pages::OutOfMemory;
use crate::search::StopHandle;

/// Above every value the search returns (scores are within ±64 discs, in 1/SCALE discs).
pub const INFINITY: i32 = 65 * SCALE;

/// Nodes between two looks at the clock and the stop flag: well under a millisecond of work,
/// so a deadline is missed by far less than the 50 ms the engine allows itself.
const CHECK_EVERY: u64 = 512;

/// The deepest iteration (no Othello game has more plies left than this).
pub const MAX_DEPTH: u32 = 60;

/// No move stored in a table entry.
const NO_MOVE: u8 = 64;

/// One table entry: the board's hash, the depth searched and the bounds proven there.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    depth: u8,
    best: u8,
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            key: 0,
            lower: -INFINITY as i16,
            upper: INFINITY as i16,
            depth: 0,
            best: NO_MOVE,
        }
    }
}

/// The transposition table of the middle-game search: one entry per slot, a deeper or newer
/// result replaces an older one. Kept between moves: the previous move's search fills it with
/// the lines the game is following.
pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MiB (at least 4096 entries), for a small size fixed by the
    /// caller: like any allocation it aborts where the memory runs out (see [`Table::try_new`]).
    pub fn new(megabytes: usize) -> Table {
        Table::try_new(megabytes).unwrap_or_else(|_| {
            let entries = Table::entries(megabytes);
            std::alloc::handle_alloc_error(
                std::alloc::Layout::array::<Entry>(entries)
                    .unwrap_or(std::alloc::Layout::new::<Entry>()),
            )
        })
    }

    /// [`Table::new`] for a size the user chose: `Err` when the system refuses the memory.
    pub fn try_new(megabytes: usize) -> Result<Table, OutOfMemory> {
        let entries = Table::entries(megabytes);
        let mut slots = Vec::new();
        slots.try_reserve_exact(entries).map_err(|_| OutOfMemory {
            bytes: entries.saturating_mul(std::mem::size_of::<Entry>()),
        })?;
        slots.resize(entries, Entry::default());
        Ok(Table {
            slots,
            mask: entries - 1,
        })
    }

    /// Entries of a table of about `megabytes` MiB: a power of two, at least 4096.
    fn entries(megabytes: usize) -> usize {
        let entries = (megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Entry>())
            .max(4096)
            .next_power_of_two()
            / 2;
        entries.max(4096)
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    fn get(&self, key: u64) -> Option<Entry> {
        let entry = self.slots[key as usize & self.mask];
        (entry.key == key).then_some(entry)
    }

    fn put(&mut self, key: u64, depth: u32, lower: i32, upper: i32, best: u8) {
        let slot = &mut self.slots[key as usize & self.mask];
        if slot.key == key && u32::from(slot.depth) > depth {
            return;
        }
        *slot = Entry {
            key,
            lower: lower as i16,
            upper: upper as i16,
            depth: depth as u8,
            best,
        };
    }
}

/// When to stop: a deadline, a flag another thread may set, and the deepest iteration.
#[derive(Clone, Copy)]
pub struct Limit<'a> {
    /// Stop searching at this instant (the last finished iteration is used).
    pub deadline: Option<Instant>,
    /// Do not begin an iteration after this instant (an iteration takes a few times longer
    /// than the one before, so one begun late would be cut off unfinished).
    pub soft_deadline: Option<Instant>,
    /// Set by another thread to stop at once.
    pub stop: &'a AtomicBool,
    /// A solver's stop handle that also stops this search (Ctrl-C in the drivers).
    pub handle: Option<&'a StopHandle>,
    /// The deepest iteration searched.
    pub max_depth: u32,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Every root move searched with its value (1/SCALE discs, side to move), best first;
    /// `None` is the forced pass. In the all-moves mode each value is exact for its depth;
    /// otherwise only the first is, the others being upper bounds.
    pub moves: Vec<(Option<Square>, i32)>,
    /// The depth of the last iteration that gave the result.
    pub depth: u32,
    /// True when every line was searched to the end of the game: the values are exact scores.
    pub exact: bool,
    /// The expected line of play from the best move (`None` = pass).
    pub pv: Vec<Option<Square>>,
    /// Positions visited.
    pub nodes: u64,
}

impl Outcome {
    /// The best move (`None` = pass).
    pub fn best_move(&self) -> Option<Square> {
        self.moves.first().and_then(|m| m.0)
    }
    /// The best move's value in 1/SCALE discs.
    pub fn value(&self) -> i32 {
        self.moves.first().map_or(0, |m| m.1)
    }
}

struct Run<'a> {
    table: &'a mut Table,
    weights: &'a Weights,
    limit: Limit<'a>,
    nodes: u64,
    next_check: u64,
    aborted: bool,
    /// Set when a value of the current iteration rests on the evaluation (a leaf, or a table
    /// entry that may): without it, the iteration's values are exact scores.
    inexact: bool,
}

impl Run<'_> {
    /// True once the search must stop (looked at every CHECK_EVERY nodes).
    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if self.limit.stop.load(Ordering::Relaxed)
                || self.limit.handle.is_some_and(StopHandle::is_stopped)
                || self.limit.deadline.is_some_and(|d| Instant::now() >= d)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn evaluate(&self, board: &Board, mine: u32, theirs: u32) -> i32 {
        match self.weights.set(board.empties()) {
            Some(w) => evaluate_mobility(w, board.player, board.opponent, mine, theirs)
                .clamp(-64 * SCALE + 1, 64 * SCALE - 1),
            None => 0,
        }
    }

    /// The children of `board` ordered for the search: the table's move first, then (deep in
    /// the tree) the child the evaluation likes least for the opponent, or (near the leaves)
    /// the one leaving the opponent the fewest replies.
    fn ordered(
        &self,
        board: &Board,
        moves: u64,
        depth: u32,
        first: u8,
    ) -> ([(u8, Board); MAX_MOVES], usize) {
        let mut list = [(0u8, Board::default(), 0i32); MAX_MOVES];
        let mut n = 0;
        for sq in Bits(moves) {
            let child = board.play_flips(sq, board.flips(sq));
            let key = if sq as u8 == first {
                i32::MIN
            } else if depth >= 4 {
                let replies = child.moves();
                let theirs = child.pass().moves().count_ones();
                self.evaluate(&child, replies.count_ones(), theirs)
                    + SCALE * 4 * (replies & CORNERS).count_ones() as i32
            } else {
                let replies = child.moves();
                (replies.count_ones() + 2 * (replies & CORNERS).count_ones()) as i32
            };
            list[n] = (sq as u8, child, key);
            n += 1;
        }
        list[..n].sort_unstable_by_key(|e| e.2);
        let mut out = [(0u8, Board::default()); MAX_MOVES];
        for (o, e) in out.iter_mut().zip(&list[..n]) {
            *o = (e.0, e.1);
        }
        (out, n)
    }

    fn negamax(&mut self, board: Board, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            let pass = board.pass();
            if pass.moves() == 0 {
                return board.final_score() * SCALE;
            }
            return -self.negamax(pass, depth, -beta, -alpha);
        }
        if depth == 0 {
            self.inexact = true;
            let theirs = legal_moves(board.opponent, board.player).count_ones();
            return self.evaluate(&board, moves.count_ones(), theirs);
        }
        let key = board.hash();
        let mut first = NO_MOVE;
        if let Some(entry) = self.table.get(key) {
            first = entry.best;
            if u32::from(entry.depth) >= depth {
                let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
                // Entries do not say whether they rest on the evaluation.
                self.inexact = true;
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                if lower == upper {
                    return lower;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let (original_alpha, original_beta) = (alpha, beta);
        let (children, n) = self.ordered(&board, moves, depth, first);
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (i, &(sq, child)) in children[..n].iter().enumerate() {
            let v = if i == 0 {
                -self.negamax(child, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(child, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(child, depth - 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let lower = if best > original_alpha {
            best
        } else {
            -INFINITY
        };
        let upper = if best < original_beta { best } else { INFINITY };
        self.table.put(key, depth, lower, upper, best_move);
        best
    }

    /// The line the table expects from `board` after `first`, at most `length` moves.
    fn principal_variation(
        &self,
        board: Board,
        first: Option<Square>,
        length: u32,
    ) -> Vec<Option<Square>> {
        let mut pv = vec![first];
        let mut board = match first {
            Some(sq) => board.play(sq).unwrap_or(board),
            None => board.pass(),
        };
        while (pv.len() as u32) < length && !board.is_game_over() {
            if board.moves() == 0 {
                pv.push(None);
                board = board.pass();
                continue;
            }
            let Some(entry) = self.table.get(board.hash()) else {
                break;
            };
            let Some(next) =
                Square::new(usize::from(entry.best)).and_then(|sq| board.play(sq).map(|b| (sq, b)))
            else {
                break;
            };
            pv.push(Some(next.0));
            board = next.1;
        }
        pv
    }
}

/// The root moves with their values (best first), the depth, and whether the values are exact.
type Ranked = (Vec<(Option<Square>, i32)>, u32, bool);

/// Searches `board` by iterative deepening until `limit` says stop, with `table` (kept
/// between calls) and `weights`. With `all_moves` every root move gets an exact value for the
/// depth (for hints); otherwise the root searches the others with null windows (for play).
/// A finished game gives no move and its final score; a forced pass is the one root move.
pub fn search(
    board: Board,
    table: &mut Table,
    weights: &Weights,
    limit: Limit<'_>,
    all_moves: bool,
) -> Outcome {
    let mut run = Run {
        table,
        weights,
        limit,
        nodes: 0,
        next_check: CHECK_EVERY,
        aborted: false,
        inexact: false,
    };
    let empties = board.empties();
    if board.is_game_over() {
        return Outcome {
            moves: Vec::new(),
            depth: 0,
            exact: true,
            pv: Vec::new(),
            nodes: 1,
        };
    }
    let (root, passed) = if board.moves() == 0 {
        (board.pass(), true)
    } else {
        (board, false)
    };
    // The root's moves with the value of the last finished iteration, best first.
    let mut moves: Vec<(Option<Square>, Board, i32)> = if passed {
        vec![(None, root, 0)]
    } else {
        Square::iter(root.moves())
            .map(|sq| (Some(sq), root.play(sq).expect("a legal move"), 0))
            .collect()
    };
    // The result so far: the ranked moves, the depth, and whether that iteration finished.
    let mut done: Option<Ranked> = None;
    let max_depth = limit.max_depth.clamp(1, MAX_DEPTH);
    for depth in 1..=max_depth {
        if done.is_some() && limit.soft_deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut values: Vec<(usize, i32)> = Vec::new();
        let mut alpha = -INFINITY;
        run.inexact = false;
        for (i, &(_, child, _)) in moves.iter().enumerate() {
            if passed {
                // The forced pass: the root is the opponent's position seen from them.
                let v = run.negamax(child, depth, -INFINITY, INFINITY);
                values.push((i, -v));
                break;
            }
            let v = if all_moves || i == 0 {
                -run.negamax(child, depth - 1, -INFINITY, INFINITY)
            } else {
                let probe = -run.negamax(child, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && !run.aborted {
                    -run.negamax(child, depth - 1, -INFINITY, -alpha)
                } else {
                    probe
                }
            };
            if run.aborted {
                break;
            }
            alpha = alpha.max(v);
            values.push((i, v));
        }
        let complete = !run.aborted;
        // An unfinished iteration still counts once it finished a move: its first move is the
        // last iteration's choice, searched deeper with the full window, and any other it
        // finished above that value is better still. (Hints keep whole iterations only.)
        if complete || (!values.is_empty() && (!all_moves || done.is_none())) {
            let mut ranked: Vec<(usize, i32)> = values.clone();
            ranked.sort_by_key(|&(i, v)| (-v, i));
            let mut order: Vec<(Option<Square>, i32)> =
                ranked.iter().map(|&(i, v)| (moves[i].0, v)).collect();
            // The moves not reached keep their last values, after the ones searched.
            for (i, m) in moves.iter().enumerate() {
                if !ranked.iter().any(|r| r.0 == i) {
                    order.push((m.0, m.2));
                }
            }
            done = Some((order, depth, complete && (depth >= empties || !run.inexact)));
        }
        if !complete {
            break;
        }
        // The next iteration searches the best moves first.
        for &(i, v) in &values {
            moves[i].2 = v;
        }
        moves.sort_by_key(|m| -m.2);
        if depth >= empties || !run.inexact {
            break;
        }
    }
    let (mut ranked, depth, exact) =
        done.unwrap_or_else(|| (moves.iter().map(|m| (m.0, m.2)).collect(), 0, false));
    if passed {
        ranked.truncate(1);
    }
    let best = ranked[0].0;
    let pv = if passed {
        let mut pv = vec![None];
        if let Some(entry) = run.table.get(root.hash()) {
            if let Some(sq) =
                Square::new(usize::from(entry.best)).filter(|sq| root.play(*sq).is_some())
            {
                pv.extend(run.principal_variation(root, Some(sq), depth.max(1)));
            }
        }
        pv
    } else {
        run.principal_variation(root, best, depth.max(1))
    };
    Outcome {
        moves: ranked,
        depth,
        exact,
        pv,
        nodes: run.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::Rng;
    use crate::eval::builtin;

    fn limit(stop: &AtomicBool, depth: u32) -> Limit<'_> {
        Limit {
            deadline: None,
            soft_deadline: None,
            stop,
            handle: None,
            max_depth: depth,
        }
    }

    /// A position `plies` random moves from the start.
    fn random_board(seed: u64, plies: usize) -> Board {
        let mut rng = Rng(seed);
        let mut board = Board::start();
        for _ in 0..plies {
            if board.is_game_over() {
                break;
            }
            let moves = board.moves();
            if moves == 0 {
                board = board.pass();
                continue;
            }
            let sq = rng.pick(moves);
            board = board.play_flips(sq, board.flips(sq));
        }
        board
    }

    #[test]
    fn the_value_at_each_depth_is_the_plain_alpha_beta_value() {
        // search::eval_search::search is a separate alpha-beta with the same leaves; with all
        // moves searched at the root, every root move's value must equal its value there.
        let stop = AtomicBool::new(false);
        let weights = builtin();
        for seed in 1..6 {
            let board = random_board(seed, 20);
            let mut table = Table::new(1);
            for depth in 1..=4 {
                let outcome = search(board, &mut table, weights, limit(&stop, depth), true);
                assert_eq!(outcome.depth, depth);
                for &(mv, v) in &outcome.moves {
                    let child = board.play(mv.unwrap()).unwrap();
                    let mut nodes = 0;
                    let expected = -crate::search::eval_search::search(
                        weights,
                        child.player,
                        child.opponent,
                        depth - 1,
                        -INFINITY,
                        INFINITY,
                        &mut nodes,
                    );
                    assert_eq!(v, expected, "seed {seed} depth {depth} move {mv:?}");
                }
                // The play mode finds the same best value.
                let mut fresh = Table::new(1);
                let played = search(board, &mut fresh, weights, limit(&stop, depth), false);
                assert_eq!(played.value(), outcome.value(), "seed {seed} depth {depth}");
            }
        }
    }

    #[test]
    fn a_board_with_more_moves_than_play_reaches_is_searched() {
        // 35 moves (the move lists once had room for 33): the interior node orders all of
        // them, and its value is search::eval_search::search's (a separate alpha-beta with the
        // same leaves).
        let stop = AtomicBool::new(false);
        let weights = builtin();
        let board = crate::board::bitboard::tests::many_moves_board();
        let mut table = Table::new(1);
        let mut run = Run {
            table: &mut table,
            weights,
            limit: limit(&stop, 2),
            nodes: 0,
            next_check: CHECK_EVERY,
            aborted: false,
            inexact: false,
        };
        let (children, n) = run.ordered(&board, board.moves(), 2, NO_MOVE);
        assert_eq!(n, 35);
        let squares = children[..n].iter().fold(0u64, |m, c| m | 1 << c.0);
        assert_eq!(squares, board.moves());
        let v = run.negamax(board, 2, -INFINITY, INFINITY);
        let mut nodes = 0;
        let expected = crate::search::eval_search::search(
            weights,
            board.player,
            board.opponent,
            2,
            -INFINITY,
            INFINITY,
            &mut nodes,
        );
        assert_eq!(v, expected);
    }

    #[test]
    fn deep_enough_searches_give_the_exact_score() {
        let stop = AtomicBool::new(false);
        let weights = builtin();
        let board = random_board(7, 50);
        let outcome = search(board, &mut Table::new(1), weights, limit(&stop, 60), false);
        assert!(outcome.exact);
        let reference = crate::search::reference::alpha_beta(board, -64, 64);
        assert_eq!(outcome.value(), reference * SCALE);
        assert_eq!(outcome.pv.first().copied(), Some(outcome.best_move()));
    }

    #[test]
    fn a_stop_before_the_start_still_gives_a_legal_move() {
        let stop = AtomicBool::new(true);
        let board = random_board(3, 10);
        let outcome = search(
            board,
            &mut Table::new(1),
            builtin(),
            limit(&stop, 60),
            false,
        );
        let mv = outcome.best_move().expect("a move");
        assert!(board.play(mv).is_some());
    }

    #[test]
    fn a_forced_pass_and_a_finished_game() {
        let stop = AtomicBool::new(false);
        // a1 against h8 alone: nobody can flank anything, the game is over.
        let board = Board {
            player: 1,
            opponent: 1 << 63,
        };
        assert!(board.is_game_over());
        let over = search(board, &mut Table::new(1), builtin(), limit(&stop, 4), false);
        assert!(over.moves.is_empty() && over.exact);
        // b1 to move against a1: no move, so it passes, and a1 takes c1 and wipes it out.
        let board = Board {
            player: 0b010,
            opponent: 0b001,
        };
        assert_eq!(board.moves(), 0);
        assert_eq!(board.pass().moves(), 1 << 2);
        let outcome = search(board, &mut Table::new(1), builtin(), limit(&stop, 4), false);
        assert_eq!(outcome.moves, vec![(None, -64 * SCALE)]);
        assert!(outcome.exact);
        assert_eq!(outcome.pv, vec![None, Some(Square::new(2).unwrap())]);
    }
}
