//! The exact solver of the rules variants: fail-soft negamax alpha-beta over [`Game`]s with a
//! small direct-mapped transposition table (whole board and supplies verified, so a collision
//! can never give a wrong score) and fastest-first move ordering (the opponent's fewest replies
//! first, corners first among equals). One thread; it is much simpler than the Othello solver
//! in `search`, which it shares no code with, and it is checked against the literal minimax of
//! [`super::reference`]. It never reads files or prints.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Game, Rules, Scoring, VariantPosition};
use crate::board::{Bits, Square, CORNERS};
use crate::search::{BestMove, MoveScore, Solution, Stopped};

/// From this many empties up, positions go through the transposition table.
const TABLE_MIN: u32 = 7;
/// From this many empties up, moves are sorted fastest-first (below, square order).
const ORDER_MIN: u32 = 6;
/// Nodes between two looks at the stop flag.
const STOP_CHECK_EVERY: u64 = 1 << 16;

/// Default size of the table: 2^20 entries of 24 bytes (24 MiB).
pub const DEFAULT_TABLE_BITS: u32 = 20;

/// How to solve a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantOptions {
    /// How finished games are scored.
    pub scoring: Scoring,
    /// Prove only win, draw or loss (scores are then -1, 0 or 1).
    pub wld: bool,
    /// The table holds 2^`table_bits` entries of 24 bytes.
    pub table_bits: u32,
}

impl Default for VariantOptions {
    fn default() -> Self {
        VariantOptions {
            scoring: Scoring::Official,
            wld: false,
            table_bits: DEFAULT_TABLE_BITS,
        }
    }
}

/// The final discs of perfect play: what is on the board when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinalCount {
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// Empty squares left.
    pub empty: u32,
}

/// The result of solving a variant position exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantSolution {
    /// The position solved.
    pub position: VariantPosition,
    /// The scoring the score is in.
    pub scoring: Scoring,
    /// The score for the side to move under perfect play (the sign only with `wld`).
    pub score: i32,
    /// Whether only win/draw/loss was proven.
    pub wld: bool,
    /// The first move of perfect play.
    pub best_move: BestMove,
    /// Perfect play to the end of the game (`None` = pass); with `wld`, just the best move.
    pub pv: Vec<Option<Square>>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub time: Duration,
}

impl VariantSolution {
    /// The position at the end of the principal variation; `None` with `wld`.
    pub fn end(&self) -> Option<VariantPosition> {
        if self.wld {
            return None;
        }
        self.position.after(&self.pv)
    }

    /// The discs on the board at the end of perfect play; `None` with `wld`.
    pub fn final_count(&self) -> Option<FinalCount> {
        let end = self.end()?.position();
        Some(FinalCount {
            black: end.black().count_ones(),
            white: end.white().count_ones(),
            empty: end.board.empties(),
        })
    }

    /// The same result as the Othello solver's [`Solution`] type (its score in this variant's
    /// scoring), for the reports the two share.
    pub fn to_solution(&self) -> Solution {
        Solution {
            position: self.position.position(),
            score: self.score,
            wld: self.wld,
            best_move: self.best_move,
            pv: self.pv.clone(),
            nodes: self.nodes,
            time: self.time,
            threads: 1,
        }
    }
}

/// One slot of the table: the position it holds (board and supplies) and its bounds.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    /// Supplies of the side to move and of the other side (0 under Othello rules); 0xffff
    /// marks an unused slot.
    supplies: u16,
    lower: i8,
    upper: i8,
    best: u8,
}

const UNUSED: u16 = u16::MAX;

/// The supplies part of a table key: under Othello rules the supplies never matter, so games
/// that differ only there are the same position.
#[inline(always)]
fn supply_key(game: &Game) -> u16 {
    match game.rules {
        Rules::Othello => 0,
        Rules::Reversi => u16::from(game.player_left) << 8 | u16::from(game.opponent_left),
    }
}

/// A move with its child and its ordering key.
#[derive(Clone, Copy)]
struct Child {
    sq: u8,
    game: Game,
    key: i32,
}

/// The exact solver of the variants. Reuse it across positions: the table is kept.
pub struct VariantSolver {
    options: VariantOptions,
    table: Vec<Entry>,
    nodes: u64,
    stop: Arc<AtomicBool>,
    stopped: bool,
}

impl VariantSolver {
    /// A solver with these options (the table is allocated at once).
    pub fn new(options: VariantOptions) -> VariantSolver {
        let empty = Entry {
            supplies: UNUSED,
            ..Entry::default()
        };
        VariantSolver {
            options,
            table: vec![empty; 1usize << options.table_bits.min(30)],
            nodes: 0,
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
        }
    }

    /// A solver whose searches stop when `stop` is set (shared by several solvers, or by a
    /// signal handler).
    pub fn with_stop(options: VariantOptions, stop: Arc<AtomicBool>) -> VariantSolver {
        VariantSolver {
            stop,
            ..VariantSolver::new(options)
        }
    }

    /// The options in force.
    pub fn options(&self) -> &VariantOptions {
        &self.options
    }

    /// The flag that stops this solver's searches when set (from any thread). Once set, every
    /// later call returns [`Stopped`].
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        for entry in &mut self.table {
            entry.supplies = UNUSED;
        }
    }

    fn window(&self) -> (i32, i32) {
        if self.options.wld {
            (-1, 1)
        } else {
            (-64, 64)
        }
    }

    fn clamp(&self, score: i32) -> i32 {
        if self.options.wld {
            score.signum()
        } else {
            score
        }
    }

    fn begin(&mut self) -> Result<(), Stopped> {
        self.nodes = 0;
        self.stopped = self.stop.load(Ordering::Relaxed);
        if self.stopped {
            Err(Stopped)
        } else {
            Ok(())
        }
    }

    fn finish<T>(&self, value: T) -> Result<T, Stopped> {
        if self.stopped {
            Err(Stopped)
        } else {
            Ok(value)
        }
    }

    /// Solves `position` exactly (or WLD): score, best move, principal variation.
    pub fn solve(&mut self, position: &VariantPosition) -> Result<VariantSolution, Stopped> {
        let start = Instant::now();
        self.begin()?;
        let game = position.game;
        let (alpha, beta) = self.window();
        let mut solution = VariantSolution {
            position: *position,
            scoring: self.options.scoring,
            score: 0,
            wld: self.options.wld,
            best_move: BestMove::GameOver,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
        };
        if game.is_over() {
            solution.score = self.clamp(self.options.scoring.score(&game.board));
        } else {
            let (root, passes) = if game.moves() == 0 {
                (game.pass(), true)
            } else {
                (game, false)
            };
            let (value, best) = if passes {
                let (v, best) = self.root(&root, -beta, -alpha);
                (-v, best)
            } else {
                self.root(&root, alpha, beta)
            };
            let square = Square::new(usize::from(best)).expect("a game with moves has a best one");
            solution.score = self.clamp(value);
            solution.best_move = if passes {
                BestMove::Pass
            } else {
                BestMove::Play(square)
            };
            if self.options.wld {
                solution.pv = if passes {
                    vec![None, Some(square)]
                } else {
                    vec![Some(square)]
                };
            } else if !self.stopped {
                solution.pv = self.principal_variation(game, value, best);
            }
        }
        solution.nodes = self.nodes;
        solution.time = start.elapsed();
        self.finish(solution)
    }

    /// The exact score (sign with WLD) of every move of `position`, best first, ties in square
    /// order; one entry for a forced pass; none for a finished game. Also the nodes searched.
    pub fn score_moves(
        &mut self,
        position: &VariantPosition,
    ) -> Result<(Vec<MoveScore>, u64), Stopped> {
        self.begin()?;
        let game = position.game;
        let (alpha, beta) = self.window();
        let mut scores = Vec::new();
        if game.moves() == 0 {
            if !game.is_over() {
                let v = -self.search(&game.pass(), -beta, -alpha);
                scores.push(MoveScore {
                    mv: None,
                    score: self.clamp(v),
                });
            }
        } else {
            for (sq, child) in game.children() {
                let v = -self.search(&child, -beta, -alpha);
                scores.push(MoveScore {
                    mv: Square::new(sq),
                    score: self.clamp(v),
                });
            }
        }
        scores.sort_by_key(|m| (-m.score, m.mv));
        self.finish((scores, self.nodes))
    }

    /// The best score of `position` and every move reaching it (square order; `None` for a
    /// forced pass), by one full search and a null-window proof per other move; a finished game
    /// gives its final score and no move. Also the nodes searched.
    pub fn best_moves(
        &mut self,
        position: &VariantPosition,
    ) -> Result<(i32, Vec<Option<Square>>, u64), Stopped> {
        self.begin()?;
        let game = position.game;
        let (alpha, beta) = self.window();
        if game.is_over() {
            let score = self.clamp(self.options.scoring.score(&game.board));
            return self.finish((score, Vec::new(), 0));
        }
        if game.moves() == 0 {
            let v = -self.search(&game.pass(), -beta, -alpha);
            return self.finish((self.clamp(v), vec![None], self.nodes));
        }
        let (value, _) = self.root(&game, alpha, beta);
        let score = self.clamp(value);
        let mut best = Vec::new();
        for (sq, child) in game.children() {
            // The move ties when its child is at most -score (it is never below). With WLD a
            // loss ties with every move, a win needs the child at most -1, a draw at most 0.
            let bound = match (self.options.wld, score) {
                (false, s) => -s,
                (true, 1) => -1,
                (true, 0) => 0,
                (true, _) => {
                    best.push(Square::new(sq));
                    continue;
                }
            };
            if self.search(&child, bound, bound + 1) <= bound {
                best.push(Square::new(sq));
            }
        }
        self.finish((score, best, self.nodes))
    }

    /// The root: every move searched, the best one remembered. `game` has moves.
    fn root(&mut self, game: &Game, mut alpha: i32, beta: i32) -> (i32, u8) {
        let mut children = self.ordered_children(game, NO_MOVE);
        let mut best_value = i32::MIN;
        let mut best = children[0].sq;
        for child in children.iter_mut() {
            let v = -self.search(&child.game, -beta, -alpha);
            if v > best_value {
                best_value = v;
                best = child.sq;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        (best_value, best)
    }

    /// Perfect play from `game`, whose exact score is `score`, to the end: at each step the
    /// first move whose child is proven to hold the score (starting with `first`).
    fn principal_variation(
        &mut self,
        mut game: Game,
        mut score: i32,
        first: u8,
    ) -> Vec<Option<Square>> {
        let mut pv = Vec::new();
        let mut first = Some(first);
        loop {
            if game.moves() == 0 {
                if game.pass().moves() == 0 {
                    debug_assert_eq!(self.options.scoring.score(&game.board), score);
                    break;
                }
                pv.push(None);
                game = game.pass();
                score = -score;
                continue;
            }
            let mut children = self.ordered_children(&game, NO_MOVE);
            if let Some(f) = first.take() {
                if let Some(i) = children.iter().position(|c| c.sq == f) {
                    children[..=i].rotate_right(1);
                }
            }
            let next = children
                .iter()
                .find(|c| self.search(&c.game, -score, -score + 1) <= -score)
                .copied();
            if self.stopped {
                break;
            }
            let Some(next) = next else {
                debug_assert!(false, "no move holds the proven score");
                break;
            };
            pv.push(Square::new(usize::from(next.sq)));
            game = next.game;
            score = -score;
        }
        pv
    }

    /// The moves of `game` (which has some) with their children, in search order: the table's
    /// move, then fastest-first from [`ORDER_MIN`] empties, else square order.
    fn ordered_children(&self, game: &Game, table_move: u8) -> Vec<Child> {
        let mut children: Vec<Child> = game
            .children()
            .map(|(sq, child)| Child {
                sq: sq as u8,
                game: child,
                key: 0,
            })
            .collect();
        if game.board.empties() >= ORDER_MIN {
            for child in children.iter_mut() {
                child.key = order_key(child, table_move);
            }
            children.sort_by_key(|c| c.key);
        }
        children
    }

    fn slot(&self, game: &Game) -> usize {
        let key =
            game.board.hash() ^ u64::from(supply_key(game)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (key as usize) & (self.table.len() - 1)
    }

    /// The exact score of `game` for its side to move when it lies inside (`alpha`, `beta`),
    /// else a bound beyond the window it failed on (fail-soft).
    fn search(&mut self, game: &Game, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(STOP_CHECK_EVERY) && self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let moves = game.moves();
        if moves == 0 {
            let passed = game.pass();
            if passed.moves() == 0 {
                return self.options.scoring.score(&game.board);
            }
            return -self.search(&passed, -beta, -alpha);
        }
        let empties = game.board.empties();
        if empties < ORDER_MIN {
            return self.search_in_square_order(game, moves, alpha, beta);
        }
        let mut table_move = NO_MOVE;
        let slot = self.slot(game);
        let supplies = supply_key(game);
        if empties >= TABLE_MIN {
            let entry = self.table[slot];
            if entry.supplies == supplies
                && entry.player == game.board.player
                && entry.opponent == game.board.opponent
            {
                let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
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
                table_move = entry.best;
            }
        }
        let original_alpha = alpha;
        let mut children = self.ordered_children(game, table_move);
        let mut best_value = i32::MIN;
        let mut best = children[0].sq;
        for child in children.iter_mut() {
            let v = -self.search(&child.game, -beta, -alpha);
            if v > best_value {
                best_value = v;
                best = child.sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if empties >= TABLE_MIN && !self.stopped {
            let (lower, upper) = if best_value >= beta {
                (best_value, 64)
            } else if best_value <= original_alpha {
                (-64, best_value)
            } else {
                (best_value, best_value)
            };
            self.table[slot] = Entry {
                player: game.board.player,
                opponent: game.board.opponent,
                supplies,
                lower: lower as i8,
                upper: upper as i8,
                best,
            };
        }
        best_value
    }

    /// The last few empties: moves in square order, no table, no allocation.
    fn search_in_square_order(
        &mut self,
        game: &Game,
        moves: u64,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best_value = i32::MIN;
        for sq in Bits(moves) {
            let child = game.play(sq, game.flips(sq));
            let v = -self.search(&child, -beta, -alpha);
            if v > best_value {
                best_value = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best_value
    }
}

/// No table move.
const NO_MOVE: u8 = u8::MAX;

/// The ordering key of a move (lower first): the table's move, then the opponent's number of
/// replies, corners first among equals.
fn order_key(child: &Child, table_move: u8) -> i32 {
    if child.sq == table_move {
        return i32::MIN;
    }
    let replies = child.game.moves().count_ones() as i32;
    let corner = i32::from(CORNERS >> child.sq & 1 == 1);
    replies * 2 - corner
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{random_position, Rng};
    use crate::board::{Color, Position};
    use crate::variant::{reference, Supplies};

    fn solver(scoring: Scoring, wld: bool) -> VariantSolver {
        VariantSolver::new(VariantOptions {
            scoring,
            wld,
            table_bits: 12,
        })
    }

    #[test]
    fn othello_rules_with_official_scoring_agree_with_the_othello_reference() {
        let mut rng = Rng(41);
        let mut s = solver(Scoring::Official, false);
        for i in 0..60 {
            let p = random_position(&mut rng, 4 + i % 7);
            let v = VariantPosition::new(p, None, Rules::Othello).unwrap();
            let solution = s.solve(&v).unwrap();
            assert_eq!(solution.score, crate::search::reference::minimax(p.board));
        }
    }

    #[test]
    fn scores_pvs_and_move_lists_agree_with_the_literal_rules() {
        let mut rng = Rng(7);
        for scoring in [Scoring::Official, Scoring::Raw] {
            let mut s = solver(scoring, false);
            for i in 0..40 {
                let p = random_position(&mut rng, 3 + i % 6);
                for rules in [Rules::Othello, Rules::Reversi] {
                    let v = VariantPosition::new(p, None, rules).unwrap();
                    let expected = reference::minimax(&v, scoring);
                    let solution = s.solve(&v).unwrap();
                    assert_eq!(solution.score, expected, "{rules:?} {scoring:?} {p:?}");
                    // The PV is legal and ends where its score says.
                    let end = solution.end().expect("a legal PV");
                    assert!(end.is_over());
                    let sign = if end.to_move == v.to_move { 1 } else { -1 };
                    assert_eq!(sign * scoring.score(&end.game.board), expected);
                    let (moves, _) = s.score_moves(&v).unwrap();
                    for m in &moves {
                        let child = match m.mv {
                            Some(square) => v.play(square).unwrap(),
                            None => v.pass(),
                        };
                        assert_eq!(m.score, -reference::minimax(&child, scoring));
                    }
                    let (best, best_moves, _) = s.best_moves(&v).unwrap();
                    assert_eq!(best, expected);
                    let mut tied: Vec<_> = moves
                        .iter()
                        .filter(|m| m.score == expected)
                        .map(|m| m.mv)
                        .collect();
                    tied.sort();
                    assert_eq!(best_moves, tied);
                }
            }
        }
    }

    #[test]
    fn near_exhausted_supplies_agree_with_the_literal_rules() {
        // Positions where one side has few discs left: it must pass while the other fills.
        let mut rng = Rng(99);
        let mut checked = 0;
        for i in 0..200 {
            let p = random_position(&mut rng, 3 + i % 6);
            let empties = p.board.empties() as u8;
            let few = (i % 3) as u8;
            let supplies = if i % 2 == 0 {
                Supplies {
                    black: few,
                    white: empties - few,
                }
            } else {
                Supplies {
                    black: empties - few,
                    white: few,
                }
            };
            let v = VariantPosition::new(p, Some(supplies), Rules::Reversi).unwrap();
            for scoring in [Scoring::Official, Scoring::Raw] {
                let expected = reference::minimax(&v, scoring);
                let mut s = solver(scoring, false);
                assert_eq!(s.solve(&v).unwrap().score, expected, "{supplies:?} {p:?}");
                let mut w = solver(scoring, true);
                assert_eq!(w.solve(&v).unwrap().score, expected.signum());
            }
            checked += 1;
        }
        assert_eq!(checked, 200);
    }

    #[test]
    fn a_finished_game_and_a_stop() {
        let full = Position::from_colors(!1, 0, Color::White).unwrap();
        let v = VariantPosition::new(full, None, Rules::Othello).unwrap();
        let mut s = solver(Scoring::Raw, false);
        let solution = s.solve(&v).unwrap();
        assert_eq!(solution.best_move, BestMove::GameOver);
        assert_eq!(solution.score, -63);
        assert_eq!(
            solution.final_count(),
            Some(FinalCount {
                black: 63,
                white: 0,
                empty: 1
            })
        );
        s.stop_flag().store(true, Ordering::SeqCst);
        assert_eq!(s.solve(&v), Err(Stopped));
    }
}
