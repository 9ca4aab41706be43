//! The playing engine behind the text protocols (`osolve gtp`, `osolve nboard`): the game
//! position with its history for undo, the time control, and the choice of a move or of hints
//! in a position. Where the exact solver may finish in the time given (a measured growth per
//! empty decides whether to try, the solver's own time limit stops it), moves and hints carry
//! exact scores; a little beyond it hints carry a win/draw/loss proof; beyond that the
//! middle-game search ([`midgame`]) decides on the learned evaluation. The same search gives
//! the drivers' estimates (`--depth N`) behind [`estimate`]. It knows boards, the solver and
//! the evaluation; it never reads commands or writes responses (that is `protocol`'s job).

pub mod estimate;
pub mod midgame;

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{Color, Position, Square};
use crate::eval::{builtin, Weights, SCALE};
use crate::huge_pages::{TablePart, TablesRefused};
use crate::search::{
    BestMove, LatestProgress, Limits, SearchError, Solution, SolveError, SolveOptions, Solver,
    StopHandle, Unfinished, FEASIBLE_EMPTIES,
};

/// The time per move when the controller gives no clock.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// Up to this many empties a position is solved exactly whatever the time: a few milliseconds.
const SURE_EXACT: u32 = 14;

/// Measured solve time of a 20-empty position on the two cores of the development machine
/// (about a second) and its growth per empty square (about 2.6x; see `search::limit`). Used
/// only to skip exact attempts that cannot finish; the solver's time limit decides the rest.
const SECONDS_AT_20: f64 = 1.0;
const GROWTH_PER_EMPTY: f64 = 2.6;

/// How the engine runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Worker threads of the exact solver; 0 means one per core.
    pub threads: usize,
    /// Transposition table of the exact solver in MiB; the win/draw/loss solver's and the
    /// middle-game search's take a quarter of it each again.
    pub hash_mb: usize,
    /// Time per move when no clock is set.
    pub move_time: Duration,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 0,
            hash_mb: 256,
            move_time: DEFAULT_MOVE_TIME,
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// Neither side can move.
    #[error("the game is over")]
    GameOver,
    /// The other side is to move.
    #[error("{to_move} is to move, not {color}", to_move = .to_move.name(), color = .color.name())]
    NotYourTurn {
        /// Who tried to move.
        color: Color,
        /// Who is to move.
        to_move: Color,
    },
    /// The square already has a disc.
    #[error("{square} is taken")]
    Taken {
        /// The square.
        square: Square,
    },
    /// The move flips nothing.
    #[error("{square} flips nothing for {color}", color = .color.name())]
    FlipsNothing {
        /// The square.
        square: Square,
        /// Who tried it.
        color: Color,
    },
    /// A pass while a move exists.
    #[error("{color} cannot pass: it has a legal move", color = .color.name())]
    CannotPass {
        /// Who tried to pass.
        color: Color,
    },
}

/// A move's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The exact final disc differential under perfect play.
    Exact(i32),
    /// A win/draw/loss proof: 1 (a win), 0 (a draw) or -1 (a loss) under perfect play.
    Wld(i32),
    /// The evaluation search's estimate, in 1/[`SCALE`] discs.
    Estimate(i32),
}

impl Value {
    /// The value in discs.
    pub fn discs(self) -> f64 {
        match self {
            Value::Exact(score) | Value::Wld(score) => f64::from(score),
            Value::Estimate(v) => f64::from(v) / f64::from(SCALE),
        }
    }
    /// True for an exact score.
    pub fn is_exact(self) -> bool {
        matches!(self, Value::Exact(_))
    }
    /// True for a win/draw/loss proof.
    pub fn is_wld(self) -> bool {
        matches!(self, Value::Wld(_))
    }
}

/// A move the engine chose or hints at, with how it was judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The move; `None` is a pass (forced, or the game is over).
    pub mv: Option<Square>,
    /// Its value for the side to move.
    pub value: Value,
    /// The depth of the evaluation search (the empties when exact).
    pub depth: u32,
    /// The expected line from the move (`None` = pass), the move first.
    pub pv: Vec<Option<Square>>,
    /// Positions searched for it.
    pub nodes: u64,
    /// Wall time spent.
    pub time: Duration,
}

/// Stops the engine's current search from another thread.
#[derive(Clone)]
pub struct Stopper {
    flag: Arc<AtomicBool>,
    /// The exact and the win/draw/loss solver.
    solvers: [StopHandle; 2],
}

impl Stopper {
    /// Asks the search to stop now; it returns its best result so far.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::SeqCst);
        for solver in &self.solvers {
            solver.stop();
        }
    }
}

/// The settings of a game clock (GTP `time_settings`): main time, then `stones` moves in
/// each period of `byo_yomi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    /// Main time of each side.
    pub main: Duration,
    /// Length of a byo-yomi period.
    pub byo_yomi: Duration,
    /// Moves to play in each period (0: no byo-yomi).
    pub stones: u32,
}

/// The time per move: a fixed time, or a share of a game clock.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeControl {
    /// The time per move without a clock.
    pub move_time: Duration,
    settings: Option<TimeSettings>,
    /// Per side (black, white): time left in the current period and the moves to play in it
    /// (0 in the main time).
    left: [(Duration, u32); 2],
}

fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl TimeControl {
    /// A fixed `move_time` per move.
    pub fn new(move_time: Duration) -> TimeControl {
        TimeControl {
            move_time,
            settings: None,
            left: [(Duration::ZERO, 0); 2],
        }
    }

    /// A game clock; both sides start with its main time. Main time and byo-yomi both 0 means
    /// no clock (the fixed time per move again), as GTP says.
    pub fn set(&mut self, settings: TimeSettings) {
        if settings.main.is_zero() && settings.byo_yomi.is_zero() {
            self.settings = None;
            return;
        }
        self.settings = Some(settings);
        let start = if settings.main.is_zero() {
            (settings.byo_yomi, settings.stones)
        } else {
            (settings.main, 0)
        };
        self.left = [start; 2];
    }

    /// The clock of `color` as the controller reports it (GTP `time_left`, NBoard's game
    /// clock): `time` left, and `stones` moves to play in it (0 in the main time). Without
    /// `time_settings` this starts a clock with that time as the main time.
    pub fn set_left(&mut self, color: Color, time: Duration, stones: u32) {
        if self.settings.is_none() {
            self.settings = Some(TimeSettings {
                main: time,
                byo_yomi: Duration::ZERO,
                stones: 0,
            });
            self.left = [(time, stones); 2];
        }
        self.left[side(color)] = (time, stones);
    }

    /// Charges `used` to `color`'s clock (the controller may correct it with `set_left`).
    pub fn charge(&mut self, color: Color, used: Duration) {
        let Some(settings) = self.settings else {
            return;
        };
        let (left, stones) = &mut self.left[side(color)];
        *left = left.saturating_sub(used);
        if *stones > 0 {
            *stones -= 1;
            if *stones == 0 {
                *left = settings.byo_yomi;
                *stones = settings.stones;
            }
        } else if left.is_zero() && settings.stones > 0 {
            *left = settings.byo_yomi;
            *stones = settings.stones;
        }
    }

    /// The time `color` may spend on its move in a position with `empties` empty squares.
    pub fn budget(&self, color: Color, empties: u32) -> Duration {
        let Some(settings) = self.settings else {
            return self.move_time;
        };
        let (left, stones) = self.left[side(color)];
        if stones > 0 {
            // Byo-yomi: the period shared by the moves still to play in it, with a margin.
            return left.mul_f64(0.9) / stones;
        }
        // Main time: shared by the moves this side still has (about half the empties), with
        // the byo-yomi time per move added when the clock has one.
        let moves_left = (empties / 2).max(1);
        let extra = if settings.stones > 0 {
            settings.byo_yomi.mul_f64(0.9) / settings.stones
        } else {
            Duration::ZERO
        };
        let share = left.mul_f64(0.95) / moves_left;
        // A fraction of what is left must stay for the next moves, even the last one.
        (share + extra).min(left.mul_f64(0.5) + extra)
    }
}

/// The engine: a game in progress and the searches that choose its moves.
pub struct Engine {
    options: EngineOptions,
    solver: Solver,
    /// Proves win/draw/loss only (hints a little beyond exact reach), with a table of a
    /// quarter of the exact solver's.
    wld_solver: Solver,
    table: midgame::Table,
    /// The middle-game search's evaluation: the built-in weights unless others were given.
    weights: Cow<'static, Weights>,
    stop: Arc<AtomicBool>,
    /// A stopper was handed out for the next search: a stop before it starts must count.
    armed: bool,
    position: Position,
    history: Vec<Position>,
    /// The time control.
    pub clock: TimeControl,
    /// The deepest middle-game iteration (NBoard's `set depth`); 60 means no limit.
    pub max_depth: u32,
    /// The latest progress event of the exact solvers' searches (NBoard's `status` lines).
    progress: LatestProgress,
}

/// Why an engine could not be made.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The solvers' threads could not start.
    #[error(transparent)]
    Search(SearchError),
    /// The system refused the memory of the tables, or left too little beside them (see
    /// [`crate::huge_pages::check_reserve`]): all of them are named.
    #[error(transparent)]
    Tables(TablesRefused),
}

impl Engine {
    /// An engine at the start position; `Err` when the solvers' threads cannot start or the
    /// system refuses the memory of the tables ([`EngineError::Tables`]: the exact solver's
    /// `hash_mb`, and a quarter of it for each of the win/draw/loss solver and the middle-game
    /// search).
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        let quarter = (options.hash_mb / 4).max(1);
        let refused = |source| {
            let part = |megabytes, purpose| TablePart {
                count: 1,
                megabytes,
                purpose,
            };
            EngineError::Tables(TablesRefused {
                parts: vec![
                    part(options.hash_mb, "the exact solver"),
                    part(quarter, "the win/draw/loss solver"),
                    part(quarter, "the middle-game search"),
                ],
                source,
            })
        };
        let solver_error = |error| match error {
            SearchError::Memory { source, .. } => refused(source),
            other => EngineError::Search(other),
        };
        // The middle-game table first: the solvers, made last, check that the memory the
        // engine needs beside its tables is still there once all of them are made.
        let table = midgame::Table::try_new(quarter).map_err(refused)?;
        let progress = LatestProgress::new();
        let solver = Solver::new(SolveOptions {
            progress: Some(progress.callback()),
            ..solver_options(&options)
        })
        .map_err(solver_error)?;
        let wld_solver = Solver::new(SolveOptions {
            hash_mb: quarter,
            wld: true,
            progress: Some(progress.callback()),
            ..solver_options(&options)
        })
        .map_err(solver_error)?;
        Ok(Engine {
            wld_solver,
            table,
            weights: Cow::Borrowed(builtin()),
            solver,
            stop: Arc::new(AtomicBool::new(false)),
            armed: false,
            position: Position::start(),
            history: Vec::new(),
            clock: TimeControl::new(options.move_time),
            max_depth: midgame::MAX_DEPTH,
            options,
            progress,
        })
    }

    /// Where the exact solvers' latest progress event can be read while a search runs on
    /// another thread.
    pub fn progress(&self) -> LatestProgress {
        self.progress.clone()
    }

    /// Evaluates with `weights` in the middle-game search from now on (a weights file of
    /// `osolve train`; the exact solver orders its moves with the built-in weights still).
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = Cow::Owned(weights);
        // Values stored with the other evaluation would mislead the new one.
        self.table.clear();
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The positions before each move played, oldest first.
    pub fn history(&self) -> &[Position] {
        &self.history
    }

    /// Starts a new game from the standard position (the middle-game table is kept: its
    /// entries are keyed by board, never wrong for a new game).
    pub fn new_game(&mut self) {
        self.set_position(Position::start());
    }

    /// Sets up `position` with no history.
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
        self.history.clear();
    }

    /// Puts back a game: the positions before each move (oldest first) and the current one.
    pub fn restore(&mut self, history: Vec<Position>, position: Position) {
        self.history = history;
        self.position = position;
    }

    /// Plays `mv` (`None` = pass) for `color`. When the side to move has no legal move, a
    /// move by the other side passes for it first. The history keeps one entry per call, so
    /// [`Engine::undo`] takes back the whole call.
    pub fn play(&mut self, color: Color, mv: Option<Square>) -> Result<(), IllegalMove> {
        let before = self.position;
        let mut position = self.position;
        if position.board.is_game_over() {
            // A pass at the end of the game changes nothing; controllers send them.
            return match mv {
                None => Ok(()),
                Some(_) => Err(IllegalMove::GameOver),
            };
        }
        if color != position.to_move {
            if position.board.moves() != 0 {
                return Err(IllegalMove::NotYourTurn {
                    color,
                    to_move: position.to_move,
                });
            }
            position = position.pass();
        }
        position = match mv {
            None if position.board.moves() != 0 => return Err(IllegalMove::CannotPass { color }),
            None => position.pass(),
            Some(square) => {
                if position.board.empty() & square.bit() == 0 {
                    return Err(IllegalMove::Taken { square });
                }
                position
                    .play(square)
                    .ok_or(IllegalMove::FlipsNothing { square, color })?
            }
        };
        self.history.push(before);
        self.position = position;
        Ok(())
    }

    /// Takes back the last move (or pass); false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(position) => {
                self.position = position;
                true
            }
            None => false,
        }
    }

    /// A handle that stops the next search (or the current one) from another thread; take
    /// it before the search starts, so that a stop arriving before the start counts.
    pub fn stopper(&mut self) -> Stopper {
        self.ready();
        self.armed = true;
        Stopper {
            flag: self.stop.clone(),
            solvers: [self.solver.stop_handle(), self.wld_solver.stop_handle()],
        }
    }

    /// True when the last search was stopped through a [`Stopper`] (until the next search
    /// or the next `stopper`).
    pub fn was_stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Makes the engine ready after a stop: the solvers' stop is lifted, their tables and the
    /// middle-game table are kept (a stopped search stores only what it proved).
    fn ready(&mut self) {
        self.armed = false;
        if self.stop.swap(false, Ordering::SeqCst) {
            self.solver.resume();
            self.wld_solver.resume();
        }
    }

    /// The start of a search: ready, unless a stopper was handed out for it (whose stop,
    /// perhaps already given, must hold).
    fn begin(&mut self) {
        if !self.armed {
            self.ready();
        }
        self.armed = false;
    }

    /// Whether an exact solve of a position with `empties` empties may finish in `time`.
    fn exact_may_finish(&self, empties: u32, time: Duration) -> bool {
        if empties <= SURE_EXACT {
            return true;
        }
        if empties > FEASIBLE_EMPTIES {
            return false;
        }
        let expected = SECONDS_AT_20 * GROWTH_PER_EMPTY.powi(empties as i32 - 20);
        expected <= time.as_secs_f64() * 2.0
    }

    /// Whether a win/draw/loss proof of a position with `empties` empties may finish in
    /// `time`: about one empty square further than an exact solve (the window around a draw
    /// prunes more; on FFO #40-#42 it took 1.1x to 10,000x fewer nodes, least for a draw).
    fn wld_may_finish(&self, empties: u32, time: Duration) -> bool {
        self.exact_may_finish(empties.saturating_sub(1), time)
    }

    fn exact(&mut self, position: &Position, time: Duration) -> Result<Solution, SolveError> {
        self.solver.set_limits(Limits {
            time: Some(time),
            nodes: None,
        });
        let result = self.solver.solve(position);
        self.solver.set_limits(Limits::NONE);
        result
    }

    /// The move to play in the current position, decided by `deadline` (counted by the caller
    /// from when the request arrived). A finished game or a forced pass gives `None`.
    pub fn choose_move(&mut self, deadline: Instant) -> Thought {
        self.begin();
        let start = Instant::now();
        let position = self.position;
        let board = position.board;
        let empties = board.empties();
        if board.is_game_over() {
            return Thought {
                mv: None,
                value: Value::Exact(board.final_score()),
                depth: 0,
                pv: Vec::new(),
                nodes: 0,
                time: start.elapsed(),
            };
        }
        let mut total = deadline.saturating_duration_since(start);
        if board.moves() == 0 {
            // A forced pass needs no thought, only a value to report.
            total /= 10;
        }
        let deadline = start + total;
        // Likely to finish: the exact solve first, with most of the time; else the evaluation
        // search first, then an exact attempt with what is left when one could finish.
        let likely = empties <= SURE_EXACT || self.exact_may_finish(empties, total.mul_f64(0.25));
        if likely {
            // Up to SURE_EXACT empties the solve takes milliseconds; should it not finish,
            // the evaluation search (which sees to the end there) has the rest.
            let share = if empties <= SURE_EXACT {
                total.mul_f64(0.9)
            } else {
                total.mul_f64(0.7)
            };
            if let Ok(solution) = self.exact(&position, share) {
                return thought_of(&solution, start);
            }
        }
        let try_exact_after = !likely && self.exact_may_finish(empties, total.mul_f64(0.5));
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        let (hard, soft) = if try_exact_after {
            (now + left.mul_f64(0.4), now + left.mul_f64(0.2))
        } else {
            (deadline, now + left.mul_f64(0.4))
        };
        let outcome = midgame::search(
            board,
            &mut self.table,
            &self.weights,
            midgame::Limit {
                deadline: Some(hard),
                soft_deadline: Some(soft),
                stop: &self.stop,
                handle: None,
                max_depth: self.max_depth,
            },
            false,
        );
        if try_exact_after && !outcome.exact && !self.was_stopped() {
            let left = deadline.saturating_duration_since(Instant::now());
            if let Ok(solution) = self.exact(&position, left) {
                let mut thought = thought_of(&solution, start);
                thought.nodes += outcome.nodes;
                return thought;
            }
        }
        let value = if outcome.exact {
            Value::Exact(outcome.value() / SCALE)
        } else {
            Value::Estimate(outcome.value())
        };
        Thought {
            mv: outcome.best_move(),
            value,
            depth: if outcome.exact {
                empties
            } else {
                outcome.depth
            },
            pv: outcome.pv,
            nodes: outcome.nodes,
            time: start.elapsed(),
        }
    }

    /// Up to `count` moves of the current position with their values, best first, decided by
    /// `deadline`: exact scores of every move when the solver can finish, else the evaluation
    /// search's values (every root move searched with the full window). A forced pass gives
    /// the one pass; a finished game nothing.
    pub fn hints(&mut self, count: usize, deadline: Instant) -> Vec<Thought> {
        self.begin();
        let start = Instant::now();
        let position = self.position;
        let board = position.board;
        if board.is_game_over() || count == 0 {
            return Vec::new();
        }
        let empties = board.empties();
        let total = deadline.saturating_duration_since(start);
        // Exact scores where they may finish, else a win/draw/loss proof one empty further;
        // a proof that does not finish in 70% of the time leaves the rest to the evaluation.
        let exact = self.exact_may_finish(empties, total.mul_f64(0.5));
        if exact || self.wld_may_finish(empties, total.mul_f64(0.5)) {
            let solver = if exact {
                &mut self.solver
            } else {
                &mut self.wld_solver
            };
            solver.set_limits(Limits {
                time: Some(total.mul_f64(0.7)),
                nodes: None,
            });
            let scored = solver.score_moves(&position);
            solver.set_limits(Limits::NONE);
            if let Ok((moves, nodes)) = scored {
                let time = start.elapsed();
                return moves
                    .into_iter()
                    .take(count)
                    .map(|m| Thought {
                        mv: m.mv,
                        value: if exact {
                            Value::Exact(m.score)
                        } else {
                            Value::Wld(m.score)
                        },
                        depth: empties,
                        pv: vec![m.mv],
                        nodes,
                        time,
                    })
                    .collect();
            }
        }
        let now = Instant::now();
        let outcome = midgame::search(
            board,
            &mut self.table,
            &self.weights,
            midgame::Limit {
                deadline: Some(deadline),
                soft_deadline: Some(now + deadline.saturating_duration_since(now).mul_f64(0.4)),
                stop: &self.stop,
                handle: None,
                max_depth: self.max_depth,
            },
            true,
        );
        let time = start.elapsed();
        let depth = if outcome.exact {
            empties
        } else {
            outcome.depth
        };
        outcome
            .moves
            .iter()
            .take(count)
            .enumerate()
            .map(|(i, &(mv, v))| Thought {
                mv,
                value: if outcome.exact {
                    Value::Exact(v / SCALE)
                } else {
                    Value::Estimate(v)
                },
                depth,
                pv: if i == 0 { outcome.pv.clone() } else { vec![mv] },
                nodes: outcome.nodes,
                time,
            })
            .collect()
    }

    /// The exact solve of the current position under `limits` (the solver's refusal applies
    /// when there is none): the solution, or what a stopped search proved.
    pub fn solve(&mut self, limits: Limits) -> Result<Solution, SolveFailure> {
        self.begin();
        let position = self.position;
        self.solver.set_limits(limits);
        let result = self.solver.solve(&position);
        self.solver.set_limits(Limits::NONE);
        result.map_err(|error| match error {
            SolveError::Refused(refused) => SolveFailure::Refused(refused.to_string()),
            SolveError::Unfinished(unfinished) => SolveFailure::Unfinished(unfinished),
        })
    }
}

/// Why [`Engine::solve`] gave no exact score.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveFailure {
    /// Too many empties for a solve without a limit (the solver's message).
    Refused(String),
    /// A limit or a stop came first: what was proven.
    Unfinished(Unfinished),
}

fn solver_options(options: &EngineOptions) -> SolveOptions {
    SolveOptions {
        threads: options.threads,
        hash_mb: options.hash_mb,
        wld: false,
        force: false,
        progress: None,
    }
}

fn thought_of(solution: &Solution, start: Instant) -> Thought {
    Thought {
        mv: match solution.best_move {
            BestMove::Play(square) => Some(square),
            BestMove::Pass | BestMove::GameOver => None,
        },
        value: Value::Exact(solution.score),
        depth: solution.empties(),
        pv: solution.pv.clone(),
        nodes: solution.nodes,
        time: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            threads: 1,
            hash_mb: 8,
            move_time: Duration::from_millis(100),
        })
        .unwrap()
    }

    #[test]
    fn moves_passes_and_undo() {
        let mut e = engine();
        let f5: Square = "f5".parse().unwrap();
        assert_eq!(
            e.play(Color::White, Some(f5)),
            Err(IllegalMove::NotYourTurn {
                color: Color::White,
                to_move: Color::Black
            })
        );
        assert_eq!(
            e.play(Color::Black, Some("a1".parse().unwrap()))
                .unwrap_err()
                .to_string(),
            "a1 flips nothing for black"
        );
        assert_eq!(
            e.play(Color::Black, None).unwrap_err().to_string(),
            "black cannot pass: it has a legal move"
        );
        e.play(Color::Black, Some(f5)).unwrap();
        assert_eq!(
            e.play(Color::White, Some(f5)).unwrap_err().to_string(),
            "f5 is taken"
        );
        assert_eq!(e.position().to_move, Color::White);
        assert!(e.undo());
        assert_eq!(e.position(), Position::start());
        assert!(!e.undo());
    }

    #[test]
    fn endgame_moves_are_exact_and_best() {
        let mut e = engine();
        // FFO-style position with 14 empties taken from the solver's own tests' shape: any
        // position works, the exact solver gives the reference.
        let mut rng = crate::board::random::Rng(5);
        let position = crate::board::random::random_position(&mut rng, 12);
        e.set_position(position);
        let thought = e.choose_move(Instant::now() + Duration::from_secs(10));
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 8,
            wld: false,
            force: false,
            progress: None,
        })
        .unwrap();
        let (score, best, _) = solver.best_moves(&position).unwrap();
        assert_eq!(thought.value, Value::Exact(score));
        assert!(
            best.contains(&thought.mv),
            "{:?} not in {best:?}",
            thought.mv
        );
        let hints = e.hints(64, Instant::now() + Duration::from_secs(10));
        let (scores, _) = solver.score_moves(&position).unwrap();
        let got: Vec<(Option<Square>, Value)> = hints.iter().map(|t| (t.mv, t.value)).collect();
        let expected: Vec<(Option<Square>, Value)> = scores
            .iter()
            .map(|m| (m.mv, Value::Exact(m.score)))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn a_stopped_search_gives_a_legal_move_and_the_next_search_works() {
        let mut e = engine();
        let position = parse_position("f5d6c3d3c4f4f6f3e6e7").unwrap().position;
        e.set_position(position);
        e.stopper().stop();
        let thought = e.choose_move(Instant::now() + Duration::from_secs(600));
        let mv = thought.mv.expect("a move");
        assert!(position.play(mv).is_some());
        assert!(e.was_stopped());
        // The next search starts afresh and stops at its deadline.
        let thought = e.choose_move(Instant::now() + Duration::from_millis(50));
        assert!(!e.was_stopped());
        assert!(position.play(thought.mv.unwrap()).is_some());
        assert!(thought.depth >= 1);
    }

    #[test]
    fn a_stop_keeps_the_solvers_and_their_tables() {
        let mut e = engine();
        let mut rng = crate::board::random::Rng(8);
        let position = crate::board::random::random_position(&mut rng, 16);
        e.set_position(position);
        let far = || Instant::now() + Duration::from_secs(60);
        let first = e.hints(64, far());
        assert!(first.iter().all(|t| t.value.is_exact()), "{first:?}");
        // A stop (NBoard's ping) during a search elsewhere...
        e.set_position(Position::start());
        e.stopper().stop();
        e.choose_move(far());
        assert!(e.was_stopped());
        // ...then the same hints again: the same exact values, from the kept table in a
        // fraction of the nodes (a new solver would search the same nodes as the first time).
        e.set_position(position);
        let again = e.hints(64, far());
        assert!(!e.was_stopped());
        let values = |t: &[Thought]| t.iter().map(|t| (t.mv, t.value)).collect::<Vec<_>>();
        assert_eq!(values(&again), values(&first));
        assert!(
            again[0].nodes * 4 < first[0].nodes,
            "{} then {}",
            first[0].nodes,
            again[0].nodes
        );
    }

    #[test]
    fn hints_a_little_beyond_exact_reach_are_win_draw_loss_proofs() {
        // FFO #40 (20 empties, black wins by 38): with 0.9 s an exact solve of every move is
        // not tried (about a second at 20 empties), a win/draw/loss proof is.
        let ffo_40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        let position = parse_position(ffo_40).unwrap().position;
        let mut e = engine();
        e.set_position(position);
        let hints = e.hints(64, Instant::now() + Duration::from_millis(900));
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 8,
            wld: true,
            force: false,
            progress: None,
        })
        .unwrap();
        let (scores, _) = solver.score_moves(&position).unwrap();
        let got: Vec<(Option<Square>, Value)> = hints.iter().map(|t| (t.mv, t.value)).collect();
        let expected: Vec<(Option<Square>, Value)> =
            scores.iter().map(|m| (m.mv, Value::Wld(m.score))).collect();
        assert_eq!(got, expected);
        assert_eq!(got.len(), 10);
        assert!(hints.iter().all(|t| t.value.is_wld() && t.depth == 20));
        // Every move of FFO #40 wins.
        assert!(scores.iter().all(|m| m.score == 1), "{scores:?}");
        // With more time the hints are exact, and the WLD values are their signs.
        let exact = e.hints(64, Instant::now() + Duration::from_secs(60));
        assert_eq!(exact.len(), 10);
        assert_eq!(exact[0].value, Value::Exact(38));
        for t in &exact {
            let Value::Exact(score) = t.value else {
                panic!("not exact: {t:?}");
            };
            let sign = got.iter().find(|g| g.0 == t.mv).expect("the same moves").1;
            assert_eq!(Value::Wld(score.signum()), sign, "{t:?}");
        }
    }

    #[test]
    fn the_clock_shares_the_time() {
        let mut clock = TimeControl::new(Duration::from_secs(5));
        assert_eq!(clock.budget(Color::Black, 40), Duration::from_secs(5));
        clock.set(TimeSettings {
            main: Duration::from_secs(60),
            byo_yomi: Duration::ZERO,
            stones: 0,
        });
        // 60 s * 0.95 over 20 moves.
        assert_eq!(clock.budget(Color::Black, 40), Duration::from_millis(2850));
        clock.set_left(Color::White, Duration::from_secs(2), 0);
        // One move left: at most half of what is left.
        assert_eq!(clock.budget(Color::White, 1), Duration::from_secs(1));
        clock.charge(Color::Black, Duration::from_secs(10));
        assert_eq!(clock.budget(Color::Black, 20), Duration::from_millis(4750));
        clock.set(TimeSettings {
            main: Duration::ZERO,
            byo_yomi: Duration::from_secs(10),
            stones: 5,
        });
        assert_eq!(clock.budget(Color::Black, 30), Duration::from_millis(1800));
        clock.set(TimeSettings {
            main: Duration::ZERO,
            byo_yomi: Duration::ZERO,
            stones: 0,
        });
        assert_eq!(clock.budget(Color::Black, 30), Duration::from_secs(5));
    }
}
