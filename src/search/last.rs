//! The last empties of the exact solver, below the deep search: `solve_1` (flip counts from
//! tables), `solve_2`..`solve_4` (parity order, no move list: `solve_2` and `solve_3` try the
//! flips of each empty square next to an opponent disc, `solve_4` only those of its legal
//! moves; the stability cutoff at four empties), `shallow` (fewest replies first at 6 and 7
//! empties, parity alone at 5, flips only for legal moves, stability cutoff, no hash table;
//! the stable discs a node finds are handed down to the stability tests below it) and, for a
//! rule set where supplies can bind, `leaf` (a negamax over the rules' own play step, ordered
//! as `shallow` orders, with its stability cutoff). All fail-soft alpha-beta on exact final
//! scores; they see only bitboards (but `leaf`) and serve the rule sets whose state is the
//! board, and Reversi states whose supplies are balanced (`GameState::is_balanced`: then
//! Othello's rules hold until a pass at an odd number of empties, where the kernels hand the
//! line to `leaf`, and the last disc is the mover's, so `solve_1` gives the opponent none).

use super::node::{stability_cutoff, stability_cutoff_from, Search, NO_SCORE};
use super::ordering::SQUARE_CLASSES;
use super::thresholds::{REPLIES_ORDER_MIN, SHALLOW_MAX, STABILITY_MIN};
use crate::board::rules::{GameRules, Scoring};
use crate::board::{flips, legal_moves, Bits, Board, ClassOrder, LastLines};

/// The legal moves of a shallow node not yet generated: every square may be one.
const UNKNOWN: u64 = u64::MAX;
/// Below every score: a window bound that never cuts.
const SCORE_LIMIT: i32 = 65;
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

/// The index of each square's class in [`SQUARE_CLASSES`] (the order shallow searches try them).
const fn square_classes() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut c = 0;
        while SQUARE_CLASSES[c] >> sq & 1 == 0 {
            c += 1;
        }
        t[sq] = c as u8;
        sq += 1;
    }
    t
}
static SQUARE_CLASS: [u8; 64] = square_classes();

/// For each mask of which of four squares lie in an odd quadrant (bit i: square i): the
/// indices of the four, odd ones first, each group in its given order. A table, because the
/// loop that builds the order cost more than the rest of a 4-empties node's bookkeeping.
const fn parity_orders() -> [[u8; 4]; 16] {
    let mut t = [[0u8; 4]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut k = 0;
        let mut pass = 0;
        while pass < 2 {
            let mut i = 0;
            while i < 4 {
                if ((mask >> i) & 1 == 1) == (pass == 0) {
                    t[mask][k] = i as u8;
                    k += 1;
                }
                i += 1;
            }
            pass += 1;
        }
        mask += 1;
    }
    t
}
static PARITY_ORDER: [[u8; 4]; 16] = parity_orders();

/// The empty squares of a shallow node, in search order, one byte each: `sq` holds the
/// squares, `quad` the quadrant bit of each (never 0, so the count needs no field). Bytes,
/// because removing one is two shifts and the odd-quadrant squares come out of one AND and
/// a multiply, where an array takes a loop for each.
#[derive(Clone, Copy)]
struct Empties {
    sq: u64,
    quad: u64,
}

impl Empties {
    /// How many squares.
    #[inline(always)]
    fn len(self) -> usize {
        (71 - self.quad.leading_zeros() as usize) >> 3
    }

    /// The `i`-th square.
    #[inline(always)]
    fn get(self, i: usize) -> usize {
        ((self.sq >> (8 * i)) & 63) as usize
    }

    /// The squares but the `i`-th, in their order.
    #[inline(always)]
    fn without(self, i: usize) -> Empties {
        let low = (1u64 << (8 * i)) - 1;
        Empties {
            sq: (self.sq & low) | ((self.sq >> 8) & !low),
            quad: (self.quad & low) | ((self.quad >> 8) & !low),
        }
    }

    /// Bit `i` set when the `i`-th square is in `set`, without a branch. (Below
    /// `REPLIES_ORDER_MIN` the legal squares are walked from it rather than tested in the walk;
    /// FFO #40-#49, one thread, the same nodes, six pairs side by side, median time ratio 0.990,
    /// five faster. Above it, and at four empties, the tests in the walk were as fast or
    /// faster: the CPU predicts them well enough to start the first move's flips at once.)
    #[inline(always)]
    fn indices_in(self, set: u64) -> usize {
        let mut m = 0;
        for i in 0..8 {
            m |= ((set >> ((self.sq >> (8 * i)) & 63)) & 1) << i;
        }
        m as usize & ((1 << self.len()) - 1)
    }

    /// Bit `i` set when the `i`-th square lies in a quadrant of odd parity (`parity`, 4 bits).
    #[inline(always)]
    fn odd(self, parity: u8) -> usize {
        // A byte is a single bit of the low four or zero: adding 0x7F sets its top bit exactly
        // when it is not zero, and the multiply gathers the top bits into one byte.
        let hits = self.quad & (parity as u64).wrapping_mul(0x0101_0101_0101_0101);
        let flags = ((hits + 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080) >> 7;
        (flags.wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
    }
}

/// Up to four squares packed 8 bits each into one word, so the last solvers take them in a
/// register (an array argument goes through memory). Reading a square masks it to 0..64,
/// which also spares the tables indexed by it their bounds checks.
#[derive(Clone, Copy)]
struct Squares(u32);

impl Squares {
    #[inline(always)]
    fn new(sq: &[usize]) -> Squares {
        let mut w = 0u32;
        for (i, &x) in sq.iter().enumerate() {
            w |= (x as u32 & 63) << (8 * i);
        }
        Squares(w)
    }

    /// The `i`-th square.
    #[inline(always)]
    fn get(self, i: u32) -> usize {
        ((self.0 >> (8 * i)) & 63) as usize
    }

    /// The squares but the `i`-th, in their order.
    #[inline(always)]
    fn without(self, i: u32) -> Squares {
        let low = (1u32 << (8 * i)) - 1;
        Squares((self.0 & low) | ((self.0 >> 8) & !low))
    }
}

/// A move of a shallow node: its index in the node's empties, the child (from the opponent's
/// view) and its ordering cost (lower first).
#[derive(Clone, Copy, Default)]
struct ShallowMove {
    index: u8,
    player: u64,
    opponent: u64,
    /// The legal moves of the child's mover, counted for the cost and handed down.
    replies: u64,
    cost: i32,
}

/// Stable discs found by the nodes above a shallow node, handed down so that its stability
/// test grows them from there rather than from the edges and full lines alone (fewer rounds
/// of growth, the same discs: see `stable_discs_from`). FFO #40-#49, one thread, side by side
/// with b8767cd: the same 420,756,986 nodes; six pairs, median ratio 0.989 (five faster), and
/// 0.987 (all six) for a first build that handed a tuple down.
#[derive(Clone, Copy)]
struct KnownStable {
    /// The node's opponent's, found by its grandparent (or inherited from higher up).
    opponent: u64,
    /// The node's mover's, found by its parent.
    player: u64,
}

impl KnownStable {
    /// Nothing known: the first node of the shallow layer.
    const NONE: KnownStable = KnownStable {
        opponent: 0,
        player: 0,
    };

    /// What the node's children (and the node itself after a pass) know, the node knowing
    /// `opponent_now` of its opponent's: the mover and the opponent change places.
    #[inline(always)]
    fn below(self, opponent_now: u64) -> KnownStable {
        KnownStable {
            opponent: self.player,
            player: opponent_now,
        }
    }
}

impl<R: GameRules> Search<'_, R> {
    /// The last empties of a rule set whose supplies can bind: negamax over the rules' own play
    /// step, no table, ordered as the shallow layer orders (from `REPLIES_ORDER_MIN` empties
    /// fewest replies left to the opponent first, then squares in odd quadrants, then by
    /// square class), with the stability cutoff from `STABILITY_MIN` empties (a stable disc
    /// stays on the board whoever runs out of discs).
    pub(super) fn leaf(&mut self, state: R::State, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let board = R::board(&state);
        let empty = board.empty();
        let n = empty.count_ones() as usize;
        if n >= STABILITY_MIN {
            if let Some(cut) = stability_cutoff(board.player, board.opponent, alpha, n as u32) {
                return cut;
            }
        }
        let moves = R::moves(&state);
        if moves == 0 {
            let passed = R::pass(&state);
            if R::moves(&passed) == 0 {
                return R::final_score(&board);
            }
            return -self.search(passed, -beta, -alpha);
        }
        if moves & (moves - 1) == 0 {
            // One move: nothing to order.
            let sq = moves.trailing_zeros() as usize;
            return -self.search(R::play(&state, sq, R::flips(&state, sq)), -beta, -alpha);
        }
        // Every move with its child and cost (lower first): the opponent's replies from
        // `REPLIES_ORDER_MIN` empties, an odd quadrant, the square's class.
        let odd = super::ordering::odd_region_squares(empty);
        let mut children = [(0i32, state); SHALLOW_MAX as usize];
        let mut k = 0;
        for sq in Bits(moves) {
            let child = R::play(&state, sq, R::flips(&state, sq));
            let mut cost = SQUARE_CLASS[sq] as i32;
            if odd >> sq & 1 == 0 {
                cost += 8;
            }
            if n >= REPLIES_ORDER_MIN {
                cost += (R::moves(&child).count_ones() as i32) << 4;
            }
            children[k] = (cost, child);
            k += 1;
        }
        let mut best = NO_SCORE;
        for i in 0..k {
            let mut j = i;
            for l in i + 1..k {
                if children[l].0 < children[j].0 {
                    j = l;
                }
            }
            children.swap(i, j);
            let v = -self.search(children[i].1, -beta, -alpha);
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
    pub(super) fn solve_1(&mut self, player: u64, sq: usize) -> i32 {
        self.solve_1_above(player, -SCORE_LIMIT, sq)
    }

    /// `solve_1`, fail-soft below `alpha`: when the mover cannot play the square and even
    /// the best case left (nobody plays it) is at or below `alpha`, that bound is the answer
    /// and the opponent's flips are not counted.
    #[inline(always)]
    fn solve_1_above(&mut self, player: u64, alpha: i32, sq: usize) -> i32 {
        self.nodes += 1;
        let base = 2 * player.count_ones() as i32 - 64;
        let lines = LastLines::new(player, sq);
        let mine = lines.player_flips() as i32;
        if mine > 0 {
            return base + 2 + 2 * mine;
        }
        // Nobody can move: official scoring gives the empty square to the majority (63 discs,
        // odd), raw scoring leaves it empty.
        let nobody = if R::SCORING != Scoring::Official {
            base + 1
        } else if base >= 0 {
            base + 2
        } else {
            base
        };
        // An opponent's move scores at most base - 2, below `nobody`. Under Reversi rules
        // (balanced supplies: the mover holds the one disc left) the opponent has none to play.
        if nobody <= alpha || !R::BOARD_ONLY {
            return nobody;
        }
        let theirs = lines.opponent_flips() as i32;
        if theirs > 0 {
            base - 2 * theirs
        } else {
            nobody
        }
    }

    /// Two empties `x1`, `x2` (entry from the deep search).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve_2(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        x1: usize,
        x2: usize,
        passed: bool,
    ) -> i32 {
        let sq = Squares::new(&[x1, x2]);
        if passed {
            return self.solve_2_passed(player, opponent, alpha, beta, sq);
        }
        self.solve_2_in(player, opponent, alpha, beta, sq)
    }

    /// Two empties, the first two of `sq`: inlined into `solve_3`, so the last two plies cost
    /// no call, and a pass (rare) goes out of line.
    #[inline(always)]
    fn solve_2_in(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: Squares,
    ) -> i32 {
        self.nodes += 1;
        let best = self.solve_2_moves(player, opponent, beta, sq.get(0), sq.get(1));
        if best != NO_SCORE {
            return best;
        }
        -self.solve_2_passed(opponent, player, -beta, -alpha, sq)
    }

    /// `solve_2_in` after the other side passed: no move ends the game.
    #[cold]
    #[inline(never)]
    fn solve_2_passed(
        &mut self,
        player: u64,
        opponent: u64,
        _alpha: i32,
        beta: i32,
        sq: Squares,
    ) -> i32 {
        self.nodes += 1;
        let best = self.solve_2_moves(player, opponent, beta, sq.get(0), sq.get(1));
        if best != NO_SCORE {
            return best;
        }
        R::final_score(&Board { player, opponent })
    }

    /// The mover's moves on `x1` then `x2`, each followed by the last square's solve; `NO_SCORE`
    /// when neither is legal.
    #[inline(always)]
    fn solve_2_moves(
        &mut self,
        player: u64,
        opponent: u64,
        beta: i32,
        x1: usize,
        x2: usize,
    ) -> i32 {
        let mut best = NO_SCORE;
        if NEIGHBOUR[x1] & opponent != 0 {
            let f = flips(player, opponent, x1);
            if f != 0 {
                best = -self.solve_1_above(opponent ^ f, -beta, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOUR[x2] & opponent != 0 {
            let f = flips(player, opponent, x2);
            if f != 0 {
                let v = -self.solve_1_above(opponent ^ f, -beta, x1);
                return v.max(best);
            }
        }
        best
    }

    /// Three empties (entry from the deep search).
    pub(super) fn solve_3(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: [usize; 3],
        passed: bool,
    ) -> i32 {
        let sq = Squares::new(&sq);
        if passed {
            return self.solve_3_passed(player, opponent, alpha, beta, sq);
        }
        self.solve_3_in(player, opponent, alpha, beta, sq)
    }

    /// Three empties, the first three of `sq`, in their order.
    #[inline(always)]
    fn solve_3_in(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: Squares,
    ) -> i32 {
        self.nodes += 1;
        let best = self.solve_3_moves(player, opponent, alpha, beta, sq);
        if best != NO_SCORE {
            return best;
        }
        if !R::BOARD_ONLY {
            return -self.after_odd_pass(opponent, player, -beta, -alpha);
        }
        -self.solve_3_passed(opponent, player, -beta, -alpha, sq)
    }

    /// `solve_3_in` after the other side passed.
    #[cold]
    #[inline(never)]
    fn solve_3_passed(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: Squares,
    ) -> i32 {
        self.nodes += 1;
        let best = self.solve_3_moves(player, opponent, alpha, beta, sq);
        if best != NO_SCORE {
            return best;
        }
        R::final_score(&Board { player, opponent })
    }

    /// The mover's moves among three empties, each followed by the two-empties solve (the
    /// others in their order); `NO_SCORE` when none is legal.
    #[inline(always)]
    fn solve_3_moves(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        sq: Squares,
    ) -> i32 {
        let mut best = NO_SCORE;
        for i in 0..3 {
            let x = sq.get(i);
            if NEIGHBOUR[x] & opponent == 0 {
                continue;
            }
            let f = flips(player, opponent, x);
            if f == 0 {
                continue;
            }
            let v = -self.solve_2_in(
                opponent ^ f,
                player ^ f ^ (1u64 << x),
                -beta,
                -alpha,
                sq.without(i),
            );
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

    pub(super) fn solve_4(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: [usize; 4],
    ) -> i32 {
        let parity = sq.iter().fold(0u8, |p, &x| p ^ QUADRANT_BIT[x & 63]);
        let mut odd = 0;
        for (i, &x) in sq.iter().enumerate() {
            odd |= ((parity & QUADRANT_BIT[x & 63] != 0) as usize) << i;
        }
        self.solve_4_odd(player, opponent, alpha, beta, Squares::new(&sq), odd, 0)
    }

    /// Four empties: squares alone (odd) in their quadrant (bit `i` of `odd` for the `i`-th
    /// square) go first, keeping the given order otherwise. `known`: the opponent's stable
    /// discs found above (see [`KnownStable`]), 0 when none.
    #[inline(always)]
    fn solve_4_odd(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: Squares,
        odd: usize,
        known: u64,
    ) -> i32 {
        let order = PARITY_ORDER[odd & 15];
        let ordered = Squares::new(&order.map(|i| sq.get(i as u32)));
        self.solve_4_ordered(player, opponent, alpha, beta, ordered, known)
    }

    /// Four empties in the order of `sq`, after the stability cutoff. (The cutoff here, FFO
    /// #40-#49, one thread: 415.3 M nodes where there were 493.6 M, 1.5% less time side by
    /// side, six pairs; at three empties as well, 391.8 M nodes but no faster, so not there.)
    #[inline(never)]
    fn solve_4_ordered(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: Squares,
        known: u64,
    ) -> i32 {
        self.nodes += 1;
        if let Err(cut) = stability_cutoff_from(player, opponent, alpha, 4, known) {
            return cut;
        }
        let best = self.solve_4_moves(player, opponent, alpha, beta, sq);
        if best != NO_SCORE {
            return best;
        }
        -self.solve_4_passed(opponent, player, -beta, -alpha, sq)
    }

    /// `solve_4_ordered` after the other side passed.
    #[cold]
    #[inline(never)]
    fn solve_4_passed(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        sq: Squares,
    ) -> i32 {
        self.nodes += 1;
        let best = self.solve_4_moves(player, opponent, alpha, beta, sq);
        if best != NO_SCORE {
            return best;
        }
        R::final_score(&Board { player, opponent })
    }

    /// The mover's moves among four empties, each followed by the three-empties solve;
    /// `NO_SCORE` when none is legal. The legal moves are generated first (one bitboard), so
    /// that no square's flips are computed in vain and a pass is seen at once. (FFO #40-#49,
    /// one thread, with the shallow nodes' moves generated likewise: the same 420,992,059
    /// nodes; side by side with 9ddabfe, eight pairs, every one faster, median ratio 0.971. At
    /// three empties too: six pairs, median ratio 1.016 against this, so not there.)
    #[inline(always)]
    fn solve_4_moves(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        sq: Squares,
    ) -> i32 {
        let mut best = NO_SCORE;
        let legal = legal_moves(player, opponent);
        if legal == 0 {
            return best;
        }
        for i in 0..4 {
            let x = sq.get(i);
            if legal >> x & 1 == 0 {
                continue;
            }
            let f = flips(player, opponent, x);
            let v = -self.solve_3_in(
                opponent ^ f,
                player ^ f ^ (1u64 << x),
                -beta,
                -alpha,
                sq.without(i),
            );
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

    /// Entry to the shallow layer: lists the empties once, in square-class order, with the
    /// parity of each quadrant, so the nodes below never scan the board for empties.
    pub(super) fn shallow_root(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let empty = !(player | opponent);
        let mut list = Empties { sq: 0, quad: 0 };
        let mut parity = 0u8;
        let mut shift = 0;
        for x in ClassOrder::new(empty) {
            list.sq |= (x as u64) << shift;
            list.quad |= (QUADRANT_BIT[x & 63] as u64) << shift;
            shift += 8;
            parity ^= QUADRANT_BIT[x & 63];
        }
        let known = KnownStable::NONE;
        self.shallow(
            player, opponent, alpha, beta, list, parity, false, UNKNOWN, known,
        )
    }

    /// 5 to `SHALLOW_MAX` empties: from `REPLIES_ORDER_MIN` empties fewest replies left to the
    /// opponent first, then squares in odd quadrants, then by square class (below it parity and
    /// class alone); stability cutoff; no table. `legal` is the mover's legal moves when the
    /// parent already generated them (its reply count), else `UNKNOWN`: then they are generated
    /// here, after the stability cutoff, and only legal moves' flips are computed (before,
    /// a node entered from the deep search tried every empty square next to an opponent disc);
    /// `known` the stable discs the nodes above found.
    #[allow(clippy::too_many_arguments)]
    fn shallow(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        list: Empties,
        parity: u8,
        passed: bool,
        legal: u64,
        known: KnownStable,
    ) -> i32 {
        self.nodes += 1;
        let n = list.len();
        let mut theirs = known.opponent;
        if n >= STABILITY_MIN {
            match stability_cutoff_from(player, opponent, alpha, n as u32, theirs) {
                Err(cut) => return cut,
                Ok(stable) => theirs = stable,
            }
        }
        let below = known.below(theirs);
        let legal = if legal == UNKNOWN {
            legal_moves(player, opponent)
        } else {
            legal
        };
        if n < REPLIES_ORDER_MIN {
            return self.shallow_by_parity(
                player, opponent, alpha, beta, list, parity, passed, legal, below,
            );
        }
        // Every move with its child and cost: the opponent's replies, less a bonus for an odd
        // quadrant. The list is in square-class order, so equal costs keep that order.
        let mut moves = [ShallowMove::default(); SHALLOW_MAX as usize];
        let mut k = 0;
        let odd = list.odd(parity);
        for i in 0..n {
            let x = list.get(i);
            if legal >> x & 1 == 0 {
                continue;
            }
            let f = flips(player, opponent, x);
            let (p, o) = (opponent ^ f, player ^ f ^ (1u64 << x));
            let replies = legal_moves(p, o);
            moves[k] = ShallowMove {
                index: i as u8,
                player: p,
                opponent: o,
                replies,
                cost: ((replies.count_ones() as i32) << 4) - (((odd >> i) as i32 & 1) << 3),
            };
            k += 1;
        }
        if k == 0 {
            if passed {
                return R::final_score(&Board { player, opponent });
            }
            if !R::BOARD_ONLY && n % 2 == 1 {
                return -self.after_odd_pass(opponent, player, -beta, -alpha);
            }
            return -self.shallow(
                opponent, player, -beta, -alpha, list, parity, true, UNKNOWN, below,
            );
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
            let v = -self.shallow_child(
                m.player, m.opponent, -beta, -alpha, list, m.index, parity, m.replies, below,
            );
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

    /// Below `REPLIES_ORDER_MIN` empties: squares in odd quadrants first, then the others,
    /// each group in square-class order; a move's flips are computed only when it is tried.
    /// `below`: the stable discs known to its children.
    #[allow(clippy::too_many_arguments)]
    fn shallow_by_parity(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        list: Empties,
        parity: u8,
        passed: bool,
        legal: u64,
        below: KnownStable,
    ) -> i32 {
        let n = list.len();
        let odd = list.odd(parity) as u32;
        let all = (1u32 << n) - 1;
        let mut best = NO_SCORE;
        let playable = list.indices_in(legal) as u32;
        for group in [odd & playable, all & !odd & playable] {
            for i in Bits(group as u64) {
                let x = list.get(i);
                let f = flips(player, opponent, x);
                let v = -self.shallow_child(
                    opponent ^ f,
                    player ^ f ^ (1u64 << x),
                    -beta,
                    -alpha,
                    list,
                    i as u8,
                    parity,
                    UNKNOWN,
                    below,
                );
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
        }
        if best != NO_SCORE {
            return best;
        }
        if passed {
            return R::final_score(&Board { player, opponent });
        }
        if !R::BOARD_ONLY && n % 2 == 1 {
            return -self.after_odd_pass(opponent, player, -beta, -alpha);
        }
        -self.shallow(
            opponent, player, -beta, -alpha, list, parity, true, UNKNOWN, below,
        )
    }

    /// Where the supplies can bind, the line after a pass at an odd number of empties `E`
    /// from a balanced state (see `GameState::is_balanced`): the new mover, `player`, holds
    /// `floor(E/2)` discs, one short, and the rest is searched under the rules' own play step.
    #[cold]
    #[inline(never)]
    fn after_odd_pass(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        let board = Board { player, opponent };
        let empties = board.empty().count_ones() as u8;
        debug_assert!(!R::BOARD_ONLY && empties % 2 == 1);
        self.leaf(R::with_supplies(board, empties / 2), alpha, beta)
    }

    /// The child after the move on the `index`-th empty of `list`: 4 empties left go to the
    /// dedicated solver, more to `shallow`; `known` is what the child knows of stable discs.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shallow_child(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        list: Empties,
        index: u8,
        parity: u8,
        legal: u64,
        known: KnownStable,
    ) -> i32 {
        let x = list.get(index as usize);
        let rest = list.without(index as usize);
        let child_parity = parity ^ QUADRANT_BIT[x];
        if list.len() == 5 {
            let odd = rest.odd(child_parity);
            let sq = Squares(rest.sq as u32);
            self.solve_4_odd(player, opponent, alpha, beta, sq, odd, known.opponent)
        } else {
            self.shallow(
                player,
                opponent,
                alpha,
                beta,
                rest,
                child_parity,
                false,
                legal,
                known,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::Cancel;
    use super::super::reference::check_fail_soft;
    use super::super::tt::Tables;
    use super::*;
    use crate::board::random::{random_position, Rng};
    use crate::board::rules::{Official, OthelloRules, Raw, Score};

    /// Plain minimax under the scoring of `R`: the oracle of every kernel here.
    fn minimax<R: GameRules<State = Board>>(board: Board) -> i32 {
        let moves = board.moves();
        if moves == 0 {
            if board.pass().moves() == 0 {
                return R::final_score(&board);
            }
            return -minimax::<R>(board.pass());
        }
        Bits(moves)
            .map(|sq| -minimax::<R>(board.play_flips(sq, board.flips(sq))))
            .max()
            .unwrap_or(i32::MIN)
    }

    /// A board with `empties` empty squares: half the time a random filling (many passes and
    /// dead squares), half the time a position reached by random play.
    fn board_with(rng: &mut Rng, empties: u32) -> Board {
        if rng.next_u64() & 1 == 0 {
            return random_position(rng, empties).board;
        }
        let mut empty = 0u64;
        while empty.count_ones() < empties {
            empty |= 1u64 << rng.below(64);
        }
        let player = rng.next_u64() & !empty;
        Board {
            player,
            opponent: !player & !empty,
        }
    }

    /// The kernel for the empties of `board`, called the way the search calls it.
    fn kernel<R: GameRules<State = Board>>(
        search: &mut Search<'_, R>,
        board: Board,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let empty = board.empty();
        let sq: Vec<usize> = Bits(empty).collect();
        let (p, o) = (board.player, board.opponent);
        match sq.len() {
            1 if alpha == -64 => search.solve_1(p, sq[0]),
            1 => search.solve_1_above(p, alpha, sq[0]),
            2 => search.solve_2(p, o, alpha, beta, sq[0], sq[1], false),
            3 => search.solve_3(p, o, alpha, beta, [sq[0], sq[1], sq[2]], false),
            4 => search.solve_4(p, o, alpha, beta, [sq[0], sq[1], sq[2], sq[3]]),
            _ => search.shallow_root(p, o, alpha, beta),
        }
    }

    /// Every kernel from 1 to `SHALLOW_MAX` empties, under the scoring `S`, gives the exact
    /// score with the full window and a correct fail-soft bound with narrow ones.
    fn kernels_match_minimax<S: Score>(seed: u64, count: usize) {
        let tables = Tables::new(1).unwrap();
        let stop = Cancel::root();
        let mut search = Search::<OthelloRules<S>>::new(&tables, &stop, u32::MAX);
        let mut rng = Rng(seed);
        for i in 0..count {
            let empties = 1 + (i as u32 % SHALLOW_MAX);
            let board = board_with(&mut rng, empties);
            let exact = minimax::<OthelloRules<S>>(board);
            let full = kernel(&mut search, board, -64, 64);
            assert_eq!(full, exact, "{board:?} ({:?})", S::SCORING);
            for _ in 0..3 {
                let alpha = rng.below(129) as i32 - 65;
                let beta = (alpha + 1 + rng.below(6) as i32).min(64);
                let v = kernel(&mut search, board, alpha, beta);
                check_fail_soft(v, exact, alpha, beta, &format!("{board:?}"));
            }
        }
    }

    /// The stability cutoff of the four-empties solver: where it answers (one node, no move
    /// tried), its answer is a fail-low bound at or above the exact score, and it answers
    /// often enough on these boards to be checked. A cap taken below what the stable discs
    /// allow would give bounds under the exact score, and fails here.
    #[test]
    fn four_empties_stability_cutoff_gives_true_bounds() {
        let tables = Tables::new(1).unwrap();
        let stop = Cancel::root();
        let mut search = Search::<OthelloRules<Official>>::new(&tables, &stop, u32::MAX);
        let mut rng = Rng(44);
        let mut answered = 0;
        for _ in 0..20_000 {
            let board = board_with(&mut rng, 4);
            let exact = minimax::<OthelloRules<Official>>(board);
            let alpha = 4 + rng.below(60) as i32;
            let before = search.nodes;
            let v = kernel(&mut search, board, alpha, alpha + 1);
            check_fail_soft(v, exact, alpha, alpha + 1, &format!("{board:?}"));
            if search.nodes == before + 1 {
                answered += 1;
                assert!(v <= alpha && exact <= v, "{board:?}: {v} for {exact}");
            }
        }
        assert!(answered >= 1_000, "the cutoff answered {answered} times");
    }

    #[test]
    fn parity_order_puts_odd_squares_first_in_their_order() {
        assert_eq!(PARITY_ORDER[0b0000], [0, 1, 2, 3]);
        assert_eq!(PARITY_ORDER[0b1111], [0, 1, 2, 3]);
        assert_eq!(PARITY_ORDER[0b0101], [0, 2, 1, 3]);
        assert_eq!(PARITY_ORDER[0b1000], [3, 0, 1, 2]);
        assert_eq!(PARITY_ORDER[0b0110], [1, 2, 0, 3]);
    }

    #[test]
    fn packed_empties_match_their_arrays() {
        let mut rng = Rng(33);
        for _ in 0..20_000 {
            let n = 1 + rng.below(SHALLOW_MAX as usize);
            let mut squares = Vec::new();
            while squares.len() < n {
                let x = rng.below(64);
                if !squares.contains(&x) {
                    squares.push(x);
                }
            }
            let mut list = Empties { sq: 0, quad: 0 };
            for (i, &x) in squares.iter().enumerate() {
                list.sq |= (x as u64) << (8 * i);
                list.quad |= (QUADRANT_BIT[x] as u64) << (8 * i);
            }
            let parity = rng.below(16) as u8;
            assert_eq!(list.len(), n);
            let odd = (0..n).fold(0, |m, i| {
                m | (((parity & QUADRANT_BIT[squares[i]] != 0) as usize) << i)
            });
            assert_eq!(list.odd(parity), odd, "{squares:?} {parity:#x}");
            // a1 (square 0) in the set tells the empty bytes past the list from a1 itself.
            let set = rng.next_u64() | (rng.next_u64() & 1);
            let inside = (0..n).fold(0, |m, i| m | (((set >> squares[i]) & 1) as usize) << i);
            assert_eq!(list.indices_in(set), inside, "{squares:?} {set:#x}");
            let i = rng.below(n);
            let rest = list.without(i);
            let mut expected = squares.clone();
            expected.remove(i);
            assert_eq!(rest.len(), n - 1);
            assert_eq!(
                (0..n - 1).map(|j| rest.get(j)).collect::<Vec<_>>(),
                expected
            );
            if n <= 4 {
                let packed = Squares::new(&squares);
                assert_eq!(
                    (0..n as u32).map(|j| packed.get(j)).collect::<Vec<_>>(),
                    squares
                );
                let rest = packed.without(i as u32);
                assert_eq!(
                    (0..n as u32 - 1).map(|j| rest.get(j)).collect::<Vec<_>>(),
                    expected
                );
            }
        }
    }

    #[test]
    fn kernels_match_minimax_under_official_scoring() {
        kernels_match_minimax::<Official>(31, 40_000);
    }

    #[test]
    fn kernels_match_minimax_under_raw_scoring() {
        kernels_match_minimax::<Raw>(32, 40_000);
    }
}
