//! The root of one solver call ([`Attempt`]): the selective searches that fill the table and
//! guess the score, the aspiration probe around that guess and the null-window steps after
//! it fails, the principal variation search of the root's own move list (so that its best
//! move is always known), the principal variation replayed from the table, and, when a stop
//! or a limit comes first, the bounds proven so far ([`Unfinished`]). Below it, [`Search`]
//! searches one window of one position.

use std::time::Instant;

use super::limit::{Budget, Limits};
use super::node::{Cancel, Crew, Move, Search, Selectivity};
use super::progress::{Progress, Reporter, Stage, Turn};
use super::result::{Bounds, MoveScore, StopReason, Unfinished};
use super::thresholds::{
    aspiration_steps, next_selective_margin, ASPIRATION_MIN, PARALLEL_MIN, SELECTIVE_MARGINS,
    SELECTIVE_MIN,
};
use super::tt::{Tables, NO_MOVE};
use crate::board::rules::GameRules;
use crate::board::{Board, Square};

/// True when neither side may place a disc under the rules `R`.
pub(super) fn is_over<R: GameRules>(state: &R::State) -> bool {
    R::moves(state) == 0 && R::moves(&R::pass(state)) == 0
}

/// One call of the solver on one position: its cancellation flag (under the solver's stop
/// flag, carrying the call's budget), when it started and the nodes it searched.
pub(super) struct Attempt<'s> {
    pub(super) tt: &'s Tables,
    /// The limits of the call (the selective searches take a share of them).
    pub(super) limits: Limits,
    pub(super) pool: &'s rayon::ThreadPool,
    /// The pool's threads, as the splits count them.
    pub(super) crew: &'s Crew,
    pub(super) split_min: u32,
    pub(super) cancel: Cancel<'s>,
    pub(super) start: Instant,
    pub(super) nodes: u64,
    pub(super) threads: usize,
    /// Where the call's progress events go (`None`: it sends none).
    pub(super) progress: Option<&'s Reporter>,
    /// The nodes of the call's selective searches: the budget of each side of a race.
    pub(super) selective_nodes: u64,
    /// The root move the selective searches held best before their last pass changed its
    /// mind (see [`Attempt::race`]); taken by the root's first exact proof.
    pub(super) rival: Option<Rival>,
}

/// The move the selective passes held best before their last change of mind, and which of the
/// two the root's race proves first (see [`Attempt::race`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Rival {
    /// Its square.
    pub(super) sq: u8,
    /// Whether its proof goes first: the change did not raise the guess, so the new move
    /// only outlasted it as the margin widened and the two are close.
    pub(super) first: bool,
}

impl Attempt<'_> {
    /// Sends a progress event changed by `change` (nothing without a reporter).
    pub(super) fn report(&self, change: impl FnOnce(&mut Progress, Turn)) {
        if let Some(reporter) = self.progress {
            let charged = self.cancel.budget().map_or(0, |b| b.nodes());
            reporter.update(charged.max(self.nodes), change);
        }
    }

    /// Sends the root's proven `bounds` and the move it holds best.
    fn report_bounds(&self, bounds: (i32, i32), best: Option<u8>) {
        self.report(|event, turn| {
            (event.lower, event.upper) = turn.bounds(bounds.0, bounds.1);
            if let Some(sq) = best {
                event.best_move = Some(turn.best(sq));
            }
        });
    }

    /// Sends the window (`alpha`, `beta`) the root's exact search works in.
    fn report_window(&self, alpha: i32, beta: i32) {
        self.report(|event, turn| {
            let (alpha, beta) = turn.bounds(alpha, beta);
            event.stage = Stage::Exact { alpha, beta };
        });
    }

    /// Why the call stopped: the limit its budget reached, else a stop request.
    pub(super) fn reason(&self) -> StopReason {
        self.cancel
            .budget()
            .and_then(Budget::reason)
            .unwrap_or(StopReason::Interrupted)
    }

    /// The report of a call stopped with the best score proven within `lower..=upper`.
    pub(super) fn unfinished(
        &self,
        lower: i32,
        upper: i32,
        pv: Vec<Option<Square>>,
        moves: Vec<MoveScore>,
    ) -> Unfinished {
        debug_assert!(
            -64 <= lower && lower <= upper && upper <= 64,
            "{lower}..{upper}"
        );
        Unfinished {
            bounds: Bounds {
                reason: self.reason(),
                lower,
                upper,
            },
            pv,
            moves,
            nodes: self.nodes,
            time: self.start.elapsed(),
        }
    }

    /// Runs `f` with a search of this call, in the thread pool when a search of `board` may
    /// split across threads, from [`PARALLEL_MIN`] empties (below, on this thread without
    /// splits); the solver's calls already run on a thread of the pool, so this is no
    /// hand-over (`Solver::on_pool`). Adds its nodes and says whether it finished (`None`
    /// when it was stopped: its value is then meaningless).
    fn run<R: GameRules, T: Send>(
        &mut self,
        board: Board,
        f: impl FnOnce(&mut Search<'_, R>) -> T + Send,
    ) -> Option<T> {
        let (result, nodes) = Self::run_under(
            self.tt,
            self.pool,
            self.crew,
            self.split_min,
            &self.cancel,
            board,
            f,
        );
        self.nodes += nodes;
        result
    }

    /// [`Attempt::run_under`] with this call's table, pool and split threshold, under `cancel`
    /// (a budget under the call's own flag): the result (`None` when stopped) and the nodes,
    /// not yet added to the call's.
    fn run_limited<R: GameRules, T: Send>(
        &self,
        cancel: &Cancel<'_>,
        board: Board,
        f: impl FnOnce(&mut Search<'_, R>) -> T + Send,
    ) -> (Option<T>, u64) {
        Self::run_under(
            self.tt,
            self.pool,
            self.crew,
            self.split_min,
            cancel,
            board,
            f,
        )
    }

    /// [`Attempt::run`] under the cancellation flag `cancel`: the result (`None` when
    /// stopped) and the nodes searched.
    fn run_under<R: GameRules, T: Send>(
        tt: &Tables,
        pool: &rayon::ThreadPool,
        crew: &Crew,
        split_min: u32,
        cancel: &Cancel<'_>,
        board: Board,
        f: impl FnOnce(&mut Search<'_, R>) -> T + Send,
    ) -> (Option<T>, u64) {
        let go = |split_min: u32| {
            crew.start();
            let mut search = Search::<R>::new(tt, cancel, split_min).with_crew(crew);
            let result = f(&mut search);
            // Judged before the last charge: a search that ended without seeing a stop is
            // whole, even if its last nodes spend the budget.
            let finished = !cancel.is_cancelled();
            search.charge_rest();
            (result, search.nodes, finished)
        };
        let (result, nodes, finished) = if board.empties() >= split_min.max(PARALLEL_MIN) {
            pool.install(|| go(split_min))
        } else {
            go(u32::MAX)
        };
        (finished.then_some(result), nodes)
    }

    /// A search of this call that only orders the root's moves ([`Search::root_moves`]), with
    /// the weights every search of the call orders by.
    fn ordering_search<R: GameRules>(&self) -> Search<'_, R> {
        Search::new(self.tt, &self.cancel, self.split_min)
    }

    /// Exact score of the side to move in `state` (window search); `None` when stopped.
    pub(super) fn score_of<R: GameRules>(
        &mut self,
        state: R::State,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let v = self.run::<R, _>(R::board(&state), |search| search.search(state, alpha, beta))?;
        debug_assert!((-64..=64).contains(&v), "score {v}");
        Some(v)
    }

    /// The score of `state` (a position with a move for someone) within `window`, and the best
    /// move of the side to move, or of the opponent after the forced pass. When stopped, the
    /// bounds proven so far.
    pub(super) fn root_score<R: GameRules>(
        &mut self,
        state: R::State,
        window: (i32, i32),
        wld: bool,
    ) -> Result<(i32, u8), Unfinished> {
        let passes = R::moves(&state) == 0;
        let root = if passes { R::pass(&state) } else { state };
        if let (true, Some(reporter)) = (passes, self.progress) {
            reporter.flip();
        }
        let mut bounds = window;
        let found = self.root::<R>(root, window, &mut bounds);
        let (lower, upper) = bounds;
        let (lower, upper) = if passes {
            (-upper, -lower)
        } else {
            (lower, upper)
        };
        let Some(best) = found else {
            let (lower, upper) = (clamp_wld(lower, wld), clamp_wld(upper, wld));
            return Err(self.unfinished(lower, upper, Vec::new(), Vec::new()));
        };
        debug_assert_eq!(lower, upper);
        Ok((clamp_wld(lower, wld), best))
    }

    /// From `SELECTIVE_MIN` empties up, selective searches of `state` within (`alpha`, `beta`)
    /// (ProbCut, the narrowest margin first, wider ones added while the guess still moves, see
    /// `next_selective_margin`): they fill the table with best moves for the exact search that
    /// follows and their value is its aspiration's centre; no bound they find is ever a
    /// result. Below, the guess is a draw. `None` when stopped.
    pub(super) fn selective<R: GameRules>(
        &mut self,
        state: R::State,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let board = R::board(&state);
        let mut guess = 0;
        if board.empties() < SELECTIVE_MIN {
            return Some(guess);
        }
        // Under a limit the selective searches get a quarter of it, so that the exact search
        // still has most of it to prove bounds.
        let share = Limits {
            time: self.limits.time.map(|t| t / 4),
            nodes: self.limits.nodes.map(|n| n / 4),
        };
        let cancel = Cancel::limited(&self.cancel, Budget::new(&share, Instant::now()));
        self.rival = None;
        // The table's best move at the root after the last pass.
        let mut held = None;
        // The pass to run next, with its margin.
        let mut next = Some((0, SELECTIVE_MARGINS[0]));
        while let Some((pass, margin)) = next {
            // Passes planned so far: the fixed ones, and any added as the guess moved.
            let passes = SELECTIVE_MARGINS.len().max(pass + 1);
            self.report(|event, _| {
                event.stage = Stage::Selective {
                    pass: pass + 1,
                    passes,
                    margin,
                }
            });
            let selectivity = Selectivity { margin };
            let (v, nodes) = self.run_limited(&cancel, board, |search: &mut Search<'_, R>| {
                search.selective = Some(selectivity);
                search.search(state, alpha, beta)
            });
            self.nodes += nodes;
            self.selective_nodes += nodes;
            match v {
                Some(v) => {
                    // `guess` holds the pass before's value, from the second pass on.
                    let moved = (pass > 0).then(|| v - guess);
                    next = next_selective_margin(pass, margin, moved).map(|m| (pass + 1, m));
                    let best = self.table_move::<R>(&state);
                    if let (Some(before), Some(now)) = (held, best) {
                        if before != now {
                            self.rival = Some(Rival {
                                sq: before,
                                first: v <= guess,
                            });
                        }
                    }
                    guess = v;
                    held = best.or(held);
                    // A guess of the root's score (when scoring moves, of one move's: unsaid).
                    self.report(|event, turn| {
                        if event.moves.is_none() {
                            event.estimate = Some(turn.score(v));
                        }
                    });
                }
                None if self.cancel.is_cancelled() => return None,
                // Their share is spent: the exact search goes on without a better guess.
                None => return Some(0),
            }
        }
        Some(guess)
    }

    /// The best move of `state`'s table entry, if it has one.
    fn table_move<R: GameRules>(&self, state: &R::State) -> Option<u8> {
        let key = R::key(state);
        self.tt
            .deep
            .probe(&key, key.hash())
            .map(|e| e.best)
            .filter(|&best| best != NO_MOVE)
    }

    /// Searches the root with its own move list so that the best move is always known, within
    /// `window`. The proven bounds of the root's score narrow in `bounds` as the probes finish
    /// (they meet when it is solved); the best move is `None` when the search was stopped.
    fn root<R: GameRules>(
        &mut self,
        state: R::State,
        window: (i32, i32),
        bounds: &mut (i32, i32),
    ) -> Option<u8> {
        // The aspiration probe centres on the selective searches' guess (a draw without them).
        let guess = self.selective::<R>(state, window.0, window.1)?;
        let empties = R::board(&state).empties();
        let centre = (empties >= ASPIRATION_MIN).then_some(guess);
        self.root_around::<R>(state, window, centre, aspiration_steps(empties), bounds)
    }

    /// [`Attempt::root`] once the guess is made: with a `guess`, a probe of the window around
    /// it, at most `steps` null-window steps from the side it failed on and a search of what
    /// is left between the bounds; without one, a search of the whole window.
    pub(super) fn root_around<R: GameRules>(
        &mut self,
        state: R::State,
        window: (i32, i32),
        guess: Option<i32>,
        steps: usize,
        bounds: &mut (i32, i32),
    ) -> Option<u8> {
        let (mut alpha, mut beta) = window;
        if let Some(guess) = guess.filter(|_| beta - alpha > 2) {
            let guess = guess.clamp(alpha + 1, beta - 1);
            // Aspiration: a cheap probe of the window around the guess first; the exact search
            // then only has to cover the side of it the probe proved.
            self.report_window(guess - 1, guess + 1);
            let (v, best) = self.root_window::<R>(state, guess - 1, guess + 1, bounds)?;
            // Fail-soft: beyond the window, the value is a bound.
            if v == guess {
                *bounds = (v, v);
                self.report_bounds(*bounds, Some(best));
                return Some(best);
            } else if v > guess {
                bounds.0 = bounds.0.max(v);
            } else {
                bounds.1 = bounds.1.min(v);
            }
            self.report_bounds(*bounds, (v > guess).then_some(best));
            let rising = v > guess;
            if let Some(best) = self.null_window_steps::<R>(state, rising, best, steps, bounds)? {
                return Some(best);
            }
            alpha = alpha.max(bounds.0 - 1);
            beta = beta.min(bounds.1 + 1);
        }
        self.report_window(alpha, beta);
        let (score, best) = self.root_window::<R>(state, alpha, beta, bounds)?;
        *bounds = (score, score);
        self.report_bounds(*bounds, Some(best));
        Some(best)
    }

    /// After a failed aspiration probe: null windows at the proven bound of the side the probe
    /// failed on (`rising`: a fail high, whose move `probe_move` proves the lower bound), at
    /// most `most` of them. A fail-soft bound is usually the score itself, and a
    /// null window proves one side of it only, where a window over the whole side would also
    /// prove the exact score of the first move. `Some(best move)` once the bounds in `bounds`
    /// meet; `None` inside when the steps leave them apart (the caller searches between them);
    /// `None` outside when stopped.
    fn null_window_steps<R: GameRules>(
        &mut self,
        state: R::State,
        rising: bool,
        probe_move: u8,
        most: usize,
        bounds: &mut (i32, i32),
    ) -> Option<Option<u8>> {
        // The move that proved the lower bound, if a fail high did.
        let mut lower_move = rising.then_some(probe_move);
        // The last move searched: where the bounds meet at the bottom of the range without a
        // fail high, every move scores it.
        let mut any_move = probe_move;
        let mut steps = 0;
        loop {
            if bounds.0 == bounds.1 {
                return Some(Some(lower_move.unwrap_or(any_move)));
            }
            if steps == most {
                return Some(None);
            }
            steps += 1;
            // Is the score beyond the bound? (t, t + 1) tells at once.
            let t = if rising { bounds.0 } else { bounds.1 - 1 };
            self.report_window(t, t + 1);
            let (v, best) = self.root_window::<R>(state, t, t + 1, bounds)?;
            any_move = best;
            if v > t {
                bounds.0 = bounds.0.max(v);
                lower_move = Some(best);
            } else {
                bounds.1 = bounds.1.min(v);
            }
            self.report_bounds(*bounds, lower_move);
        }
    }

    /// A fail-soft principal variation search of the root with window (`alpha`, `beta`), in
    /// three proofs whose results raise the lower bound in `bounds` as they finish: the first
    /// move alone (inside the window its exact score is a lower bound, usually the final
    /// score), then one null-window proof that no other move beats it (the window each of them
    /// gets in an undivided search, splits included), and an exact search of the others only
    /// if one does. `None` when stopped.
    fn root_window<R: GameRules>(
        &mut self,
        state: R::State,
        alpha: i32,
        beta: i32,
        bounds: &mut (i32, i32),
    ) -> Option<(i32, u8)> {
        let board = R::board(&state);
        let empties = board.empties();
        let mut list = self.ordering_search::<R>().root_moves(&state);
        self.report_bounds(*bounds, list.first().map(|m| m.sq));
        let search = |attempt: &mut Self, list: &mut [Move], alpha: i32, beta: i32| {
            attempt.run::<R, _>(board, |search| {
                search.search_moves(state, list, alpha, beta, empties)
            })
        };
        let (first, first_move) = match self.race::<R>(state, &mut list, alpha, beta)? {
            Some(found) => found,
            None => search(self, &mut list[..1], alpha, beta)?,
        };
        debug_assert!((-64..=64).contains(&first), "score {first}");
        if first >= beta || list.len() == 1 {
            return Some((first, first_move));
        }
        if first > alpha {
            bounds.0 = bounds.0.max(first);
            self.report_bounds(*bounds, Some(first_move));
        }
        let floor = alpha.max(first);
        let (rest, rest_move) = search(self, &mut list[1..], floor, floor + 1)?;
        if rest <= floor {
            return Some(if rest > first {
                (rest, rest_move)
            } else {
                (first, first_move)
            });
        }
        bounds.0 = bounds.0.max(rest);
        self.report_bounds(*bounds, Some(rest_move));
        if rest >= beta {
            return Some((rest, rest_move));
        }
        search(self, &mut list[1..], rest - 1, beta)
    }

    /// When a selective pass changed the root's best move, the move held before (the
    /// `rival`, taken: once per call) is close to the first one, and the exact proof of one of
    /// two close moves may cost many times the other's (FFO #43 under `--rules reversi`: g3
    /// and c7 both score -12; g3's proof took 36.7 M nodes, c7's 5.9 M). So each of the two is
    /// searched within (`alpha`, `beta`) in turn, each with a budget of the selective
    /// searches' nodes; a search stopped by its budget leaves in the table only what it
    /// proved. The rival goes first unless the change of mind raised the guess (then the new
    /// move was found better, not only the rival worse: FFO #79's passes moved from h8 at +56
    /// to d7 at +64, and proving h8 short of the wipe-out took 216 M nodes where d7's proof
    /// took 4,282). The first to finish leads (moved to the front of `list`), with its score,
    /// unless it is the rival at or below `alpha` (no lead: the rival is refuted, not the
    /// first move proven). `Ok(None)`: no race, or no lead (the caller searches the first move
    /// without a budget); `None` when stopped.
    pub(super) fn race<R: GameRules>(
        &mut self,
        state: R::State,
        list: &mut [Move],
        alpha: i32,
        beta: i32,
    ) -> Option<Option<(i32, u8)>> {
        let Some(rival) = self.rival.take() else {
            return Some(None);
        };
        let Some(i) = list
            .iter()
            .position(|m| m.sq == rival.sq)
            .filter(|&i| i > 0)
        else {
            return Some(None);
        };
        list[1..=i].rotate_right(1);
        let board = R::board(&state);
        let empties = board.empties();
        let budget = Limits {
            time: None,
            nodes: Some(self.selective_nodes.max(1)),
        };
        // The list's index of each side in the order they are searched.
        let order = if rival.first { [1, 0] } else { [0, 1] };
        for k in order {
            let cancel = Cancel::limited(&self.cancel, Budget::new(&budget, Instant::now()));
            let (found, nodes) = self.run_limited(&cancel, board, |search: &mut Search<'_, R>| {
                search.search_moves(state, &mut list[k..=k], alpha, beta, empties)
            });
            self.nodes += nodes;
            match found {
                Some((v, mv)) if k == 0 || v > alpha => {
                    list.swap(0, k);
                    return Some(Some((v, mv)));
                }
                Some(_) => return Some(None),
                None if self.cancel.is_cancelled() => return None,
                None => {}
            }
        }
        Some(None)
    }

    /// Perfect play from `state` whose exact score is `score`, to the end of the game: at each
    /// step the first move (table move first) whose child is proven to hold the score. The
    /// first move tried is `first`, the root search's best move, so the PV starts with it.
    /// When stopped, the proven part of the PV.
    pub(super) fn principal_variation<R: GameRules>(
        &mut self,
        mut state: R::State,
        score: i32,
        first: u8,
    ) -> Result<Vec<Option<Square>>, Unfinished> {
        let root_score = score;
        let mut score = score;
        let mut first = Some(first);
        let mut pv = Vec::new();
        loop {
            if R::moves(&state) == 0 {
                if R::moves(&R::pass(&state)) == 0 {
                    debug_assert_eq!(R::final_score(&R::board(&state)), score);
                    break;
                }
                pv.push(None);
                state = R::pass(&state);
                score = -score;
                continue;
            }
            let mut list = self.ordering_search::<R>().root_moves(&state);
            if let Some(f) = first.take() {
                if let Some(i) = list.iter().position(|m| m.sq == f) {
                    list[..=i].rotate_right(1);
                }
            }
            let mut next = None;
            for m in &list {
                let child = R::play(&state, m.sq as usize, m.flips);
                // child <= -score proves this move keeps the score (it can never do better).
                let Some(v) = self.score_of::<R>(child, -score, -score + 1) else {
                    return Err(self.unfinished(root_score, root_score, pv, Vec::new()));
                };
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
            state = child;
            score = -score;
        }
        Ok(pv)
    }
}

/// The score as reported: its sign only with WLD.
pub(super) fn clamp_wld(score: i32, wld: bool) -> i32 {
    if wld {
        score.signum()
    } else {
        score
    }
}
