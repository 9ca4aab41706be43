//! The exact solver: turns a [`Position`] into a [`Solution`] (score, best move, principal
//! variation, nodes). Never reads files, prints, or knows about terminals; its options are the
//! plain [`SolveOptions`] struct.

pub mod endgame;
pub mod ordering;
pub mod reference;
pub mod stability;
pub mod tt;

use crate::board::{Bits, Board, Color, Position, Square};
use endgame::{Cancel, Move, Search};
use ordering::{fastest_first, odd_region_squares};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tt::Tables;

/// From this many empties up, sibling moves are searched in parallel (when threads > 1).
pub const SPLIT_MIN: u32 = 13;

/// Depth of the evaluation search that orders the root moves.
const ROOT_SORT_DEPTH: u32 = 4;

/// From this many empties up the root first probes the window around a draw.
const ASPIRATION_MIN: u32 = 14;

/// How to solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Prove only win/draw/loss (the score is then -1, 0 or 1).
    pub wld: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 0,
            hash_mb: 256,
            wld: false,
        }
    }
}

/// A problem building the solver.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The thread pool could not be created.
    #[error("cannot start {threads} search threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the system said.
        reason: String,
    },
}

/// A search stopped before it proved its result (Ctrl-C, or a stop requested through
/// [`Solver::stop_handle`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped before it finished")]
pub struct Stopped;

/// Shared handle that stops a running search from another thread (a signal handler, a timer).
#[derive(Clone)]
pub struct StopHandle(Arc<Cancel<'static>>);

impl StopHandle {
    /// Asks every search of the solver to stop as soon as possible.
    pub fn stop(&self) {
        self.0.cancel();
    }
    /// True once a stop was requested.
    pub fn is_stopped(&self) -> bool {
        self.0.is_cancelled()
    }
}

/// The move a solution starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this square.
    Play(Square),
    /// The side to move has no legal move and must pass.
    Pass,
    /// The game is over: nobody can move.
    GameOver,
}

/// The result of an exact solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The position solved.
    pub position: Position,
    /// Final disc differential for the side to move under perfect play (empties to the winner),
    /// or with `wld` the sign only.
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
    /// Threads used.
    pub threads: usize,
}

impl Solution {
    /// Number of empty squares of the position.
    pub fn empties(&self) -> u32 {
        self.position.board.empties()
    }
    /// Final disc counts (black, white) under perfect play, empties given to the winner; `None`
    /// for a WLD solve.
    pub fn final_discs(&self) -> Option<(u32, u32)> {
        if self.wld {
            return None;
        }
        let black_diff = if self.position.to_move == Color::Black {
            self.score
        } else {
            -self.score
        };
        Some((
            ((64 + black_diff) / 2) as u32,
            ((64 - black_diff) / 2) as u32,
        ))
    }
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// One move's exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move (`None` = the forced pass).
    pub mv: Option<Square>,
    /// Score for the side to move after playing it (empties to the winner); the sign with WLD.
    pub score: i32,
}

/// An exact endgame solver with its transposition table and threads. Reuse it across positions:
/// the table is kept (entries from older searches are replaced first).
pub struct Solver {
    tt: Tables,
    pool: rayon::ThreadPool,
    threads: usize,
    options: SolveOptions,
    stop: Arc<Cancel<'static>>,
}

impl Solver {
    /// A solver with these options.
    pub fn new(options: SolveOptions) -> Result<Solver, SearchError> {
        let threads = if options.threads == 0 {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        } else {
            options.threads
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| SearchError::Threads {
                threads,
                reason: e.to_string(),
            })?;
        stability::init();
        Ok(Solver {
            tt: Tables::new(options.hash_mb),
            pool,
            threads,
            options,
            stop: Arc::new(Cancel::root()),
        })
    }

    /// The options in force.
    pub fn options(&self) -> &SolveOptions {
        &self.options
    }

    /// Threads used.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A handle that stops this solver's searches from another thread. Once stopped, every
    /// later call returns [`Stopped`].
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.stop.clone())
    }

    fn check(&self) -> Result<(), Stopped> {
        if self.stop.is_cancelled() {
            Err(Stopped)
        } else {
            Ok(())
        }
    }

    /// Forgets every stored result (for benchmarks where each position must stand alone).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn split_min(&self) -> u32 {
        if self.threads > 1 {
            SPLIT_MIN
        } else {
            u32::MAX
        }
    }

    /// Solves `position` exactly (or WLD with the `wld` option).
    pub fn solve(&mut self, position: &Position) -> Result<Solution, Stopped> {
        let start = Instant::now();
        self.tt.deep.new_generation();
        let board = position.board;
        let wld = self.options.wld;
        let (alpha, beta) = if wld { (-1, 1) } else { (-64, 64) };
        let mut solution = Solution {
            position: *position,
            score: 0,
            wld,
            best_move: BestMove::GameOver,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            threads: self.threads,
        };
        if board.moves() == 0 {
            if board.pass().moves() == 0 {
                solution.score = clamp_wld(board.final_score(), wld);
                solution.time = start.elapsed();
                return Ok(solution);
            }
            let (score, best, nodes) = self.root(board.pass(), -beta, -alpha);
            self.check()?;
            solution.score = clamp_wld(-score, wld);
            solution.best_move = BestMove::Pass;
            solution.nodes = nodes;
            solution.pv = vec![None];
            if wld {
                solution.pv.push(Square::new(best as usize));
            } else {
                let (pv, nodes) = self.principal_variation(board, solution.score, best)?;
                solution.pv = pv;
                solution.nodes += nodes;
            }
        } else {
            let (score, best, nodes) = self.root(board, alpha, beta);
            self.check()?;
            solution.score = clamp_wld(score, wld);
            solution.nodes = nodes;
            let sq = Square::new(best as usize).expect("a position with moves has a best move");
            solution.best_move = BestMove::Play(sq);
            if wld {
                solution.pv = vec![Some(sq)];
            } else {
                let (pv, nodes) = self.principal_variation(board, solution.score, best)?;
                solution.pv = pv;
                solution.nodes += nodes;
            }
        }
        solution.time = start.elapsed();
        Ok(solution)
    }

    /// Searches the root with its own move list so that the best move is always known.
    fn root(&mut self, board: Board, alpha: i32, beta: i32) -> (i32, u8, u64) {
        let split_min = self.split_min();
        let tt = &self.tt;
        let stop = &*self.stop;
        self.in_pool(board, || {
            let mut search = Search::new(tt, stop, split_min);
            let empties = board.empties();
            let (mut alpha, mut beta) = (alpha, beta);
            if beta - alpha > 2 && empties >= ASPIRATION_MIN {
                // Aspiration: a cheap probe of the window around a draw first; the exact
                // search then only has to cover the side of 0 the probe proved.
                let mut list = ordered_moves(&board, tt);
                let (v, best) = search.search_moves(board, &mut list, -1, 1, empties);
                if v == 0 {
                    return (v, best, search.nodes);
                } else if v > 0 {
                    alpha = alpha.max(v - 1);
                } else {
                    beta = beta.min(v + 1);
                }
            }
            let mut list = ordered_moves(&board, tt);
            let (score, best) = search.search_moves(board, &mut list, alpha, beta, empties);
            (score, best, search.nodes)
        })
    }

    /// Runs `f` in the thread pool when a search of `board` may split across threads, and on
    /// the calling thread otherwise: handing a small search to the pool costs more than it.
    fn in_pool<R: Send>(&self, board: Board, f: impl FnOnce() -> R + Send) -> R {
        if board.empties() >= self.split_min() {
            self.pool.install(f)
        } else {
            f()
        }
    }

    /// Exact score of the side to move in `board` (window search), with nodes.
    fn score_of(&mut self, board: Board, alpha: i32, beta: i32) -> (i32, u64) {
        let split_min = self.split_min();
        let tt = &self.tt;
        let stop = &*self.stop;
        self.in_pool(board, || {
            let mut search = Search::new(tt, stop, split_min);
            let v = search.search(board, alpha, beta);
            (v, search.nodes)
        })
    }

    /// Perfect play from `board` whose exact score is `score`, to the end of the game: at each
    /// step the first move (table move first) whose child is proven to hold the score. The
    /// first move tried is `first`, the root search's best move, so the PV starts with it.
    fn principal_variation(
        &mut self,
        mut board: Board,
        mut score: i32,
        first: u8,
    ) -> Result<(Vec<Option<Square>>, u64), Stopped> {
        let mut first = Some(first);
        let mut pv = Vec::new();
        let mut nodes = 0;
        loop {
            if board.moves() == 0 {
                if board.pass().moves() == 0 {
                    debug_assert_eq!(board.final_score(), score);
                    break;
                }
                pv.push(None);
                board = board.pass();
                score = -score;
                continue;
            }
            let mut list = ordered_moves(&board, &self.tt);
            if let Some(f) = first.take() {
                if let Some(i) = list.iter().position(|m| m.sq == f) {
                    list[..=i].rotate_right(1);
                }
            }
            let mut next = None;
            for m in &list {
                let child = board.play_flips(m.sq as usize, m.flips);
                // child <= -score proves this move keeps the score (it can never do better).
                let (v, n) = self.score_of(child, -score, -score + 1);
                self.check()?;
                nodes += n;
                if v <= -score {
                    next = Some((m.sq, child));
                    break;
                }
            }
            let Some((sq, child)) = next else {
                debug_assert!(false, "no move holds the proven score");
                break;
            };
            pv.push(Square::new(sq as usize));
            board = child;
            score = -score;
        }
        Ok((pv, nodes))
    }

    /// The exact score of every legal move of `position`, best first, ties in square order;
    /// a position that must pass gives one entry for the pass; a finished game none.
    /// Returns the scores and the nodes searched.
    pub fn score_moves(&mut self, position: &Position) -> Result<(Vec<MoveScore>, u64), Stopped> {
        self.tt.deep.new_generation();
        let board = position.board;
        let (alpha, beta) = if self.options.wld { (-1, 1) } else { (-64, 64) };
        let wld = self.options.wld;
        let mut nodes = 0;
        let mut scores = Vec::new();
        if board.moves() == 0 {
            if board.pass().moves() != 0 {
                let (v, n) = self.score_of(board.pass(), -beta, -alpha);
                self.check()?;
                scores.push(MoveScore {
                    mv: None,
                    score: clamp_wld(-v, wld),
                });
                nodes += n;
            }
            return Ok((scores, nodes));
        }
        for sq in Bits(board.moves()) {
            let child = board.play_flips(sq, board.flips(sq));
            let (v, n) = self.score_of(child, -beta, -alpha);
            self.check()?;
            nodes += n;
            scores.push(MoveScore {
                mv: Square::new(sq),
                score: clamp_wld(-v, wld),
            });
        }
        scores.sort_by_key(|m| (-m.score, m.mv));
        Ok((scores, nodes))
    }
}

impl Solver {
    /// The best score of `position` and every move that reaches it (square order; `None` is
    /// the forced pass), with the nodes searched: one full-window search for the score, then a
    /// null-window proof per other move to decide whether it ties. Faster than `score_moves`.
    /// A finished game gives its final score and no move.
    pub fn best_moves(
        &mut self,
        position: &Position,
    ) -> Result<(i32, Vec<Option<Square>>, u64), Stopped> {
        let solution = self.solve_without_pv(position)?;
        let board = position.board;
        let mut nodes = solution.1;
        let score = solution.0;
        let mut best = Vec::new();
        if board.moves() == 0 {
            if board.pass().moves() != 0 {
                best.push(None);
            }
            return Ok((score, best, nodes));
        }
        let wld = self.options.wld;
        for sq in Bits(board.moves()) {
            let child = board.play_flips(sq, board.flips(sq));
            // The move ties when the child's value is at most -score (it is never lower than
            // that). With WLD a win needs the child at most -1, a draw at most 0, and when the
            // best is a loss every move ties.
            let alpha = match (wld, score) {
                (false, s) => -s,
                (true, 1) => -1,
                (true, 0) => 0,
                (true, _) => {
                    best.push(Square::new(sq));
                    continue;
                }
            };
            let (v, n) = self.score_of(child, alpha, alpha + 1);
            self.check()?;
            nodes += n;
            let ties = v <= alpha;
            if ties {
                best.push(Square::new(sq));
            }
        }
        Ok((score, best, nodes))
    }

    /// Score (sign with WLD) and nodes, without the principal variation.
    pub fn solve_without_pv(&mut self, position: &Position) -> Result<(i32, u64), Stopped> {
        self.tt.deep.new_generation();
        let board = position.board;
        let wld = self.options.wld;
        let (alpha, beta) = if wld { (-1, 1) } else { (-64, 64) };
        if board.moves() == 0 {
            if board.pass().moves() == 0 {
                return Ok((clamp_wld(board.final_score(), wld), 0));
            }
            let (score, _, nodes) = self.root(board.pass(), -beta, -alpha);
            self.check()?;
            return Ok((clamp_wld(-score, wld), nodes));
        }
        let (score, _, nodes) = self.root(board, alpha, beta);
        self.check()?;
        Ok((clamp_wld(score, wld), nodes))
    }
}

fn clamp_wld(score: i32, wld: bool) -> i32 {
    if wld {
        score.signum()
    } else {
        score
    }
}

/// Root move list in search order: the table's move, then fastest-first.
fn ordered_moves(board: &Board, tt: &Tables) -> Vec<Move> {
    let tt_move = tt
        .deep
        .probe(board, board.hash())
        .map(|e| e.best)
        .unwrap_or(tt::NO_MOVE);
    let odd = odd_region_squares(board.empty());
    let mut list = endgame::move_list(board);
    for m in list.iter_mut() {
        let (np, no) = (
            board.opponent ^ m.flips,
            board.player ^ m.flips ^ (1u64 << m.sq),
        );
        m.value = if m.sq == tt_move {
            i32::MAX
        } else if board.empties() >= endgame::EVAL_ORDER_MIN {
            let mut nodes = 0;
            ordering::learned_order(crate::eval::builtin(), np, no, ROOT_SORT_DEPTH, &mut nodes)
        } else {
            fastest_first(np, no, m.sq as usize, odd)
        };
    }
    list.sort_by_key(|m| -m.value);
    list
}

#[cfg(test)]
mod tests;
