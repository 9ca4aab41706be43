//! What a long search says while it runs: the [`Progress`] event (elapsed time, nodes, the
//! proven bounds as they narrow, the move the search holds best, its [`Stage`]) handed to the
//! callback of `SolveOptions::progress` ([`ProgressFn`]). Events come from the root (each
//! selective pass, each window, each bound proven, the end) and, in between, every
//! [`PROGRESS_EVERY`] from whichever search thread charges the call's budget (every
//! `CHARGE_EVERY` nodes), so a long search of one root move still reports its nodes: nothing
//! is added per node. Knows nothing of terminals or formats: `report::live` writes the line.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::result::{BestMove, StopReason};

/// The least time between two events sent while the search runs (the root's own events, each
/// a change, are sent at once).
pub const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Positions with fewer empties send no events: their search takes well under a millisecond.
pub const PROGRESS_MIN_EMPTIES: u32 = 12;

/// What the search is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A selective search (ProbCut) that fills the table before the exact one: `pass` of
    /// `passes` (from 1), cutting where a shallow search predicts a cut by more than
    /// `margin` discs. Its value is an estimate ([`Progress::estimate`]), never a bound.
    Selective {
        /// This pass, from 1.
        pass: usize,
        /// Passes planned so far: those of every solve, and one more each time a pass after
        /// them is added because the guess still moved (then this pass is the last planned).
        passes: usize,
        /// Its margin in discs (the later pass cuts less).
        margin: i32,
    },
    /// The exact search within the window (`alpha`, `beta`) (exclusive): the aspiration
    /// probe around the estimate, then the side of it the probe proved.
    Exact {
        /// Lower end of the window.
        alpha: i32,
        /// Upper end of the window.
        beta: i32,
    },
    /// The score is proven; the principal variation is being proven move by move.
    PrincipalVariation,
    /// The call ended with its result: the bounds meet (the exact score) unless the call
    /// only scored moves some of which are unproven.
    Finished,
    /// A stop request or a limit ended the call: the bounds are what it proved.
    Stopped(StopReason),
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Stage::Selective {
                pass,
                passes,
                margin,
            } => write!(f, "selective pass {pass}/{passes} (margin {margin})"),
            Stage::Exact { alpha, beta } => write!(f, "exact ({alpha:+}, {beta:+})"),
            Stage::PrincipalVariation => write!(f, "principal variation"),
            Stage::Finished => write!(f, "finished"),
            Stage::Stopped(reason) => write!(f, "stopped ({reason})"),
        }
    }
}

/// One event of a running solver call. The bounds only narrow from one event to the next and
/// are proven (selective searches never move them); nodes and elapsed time only grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Wall time since the call started.
    pub elapsed: Duration,
    /// Nodes searched so far by every thread (up to `CHARGE_EVERY` per thread behind).
    pub nodes: u64,
    /// Proven lower bound of the score of the side to move (of the best move's score when
    /// scoring moves); -1..=1 with WLD.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// The move the search holds best so far (proven best only once the call is finished);
    /// `None` before it has one.
    pub best_move: Option<BestMove>,
    /// The last selective search's value: a guess, never a bound. `None` before one finished
    /// (and when scoring every move).
    pub estimate: Option<i32>,
    /// When scoring every move: moves scored so far and moves in all.
    pub moves: Option<(usize, usize)>,
    /// What the search is doing.
    pub stage: Stage,
}

/// The callback of `SolveOptions::progress`: called with each [`Progress`] event, from the
/// calling thread or a search thread, one call at a time. It runs inside the search: keep it
/// short (store or send the event; format and print elsewhere).
#[derive(Clone)]
pub struct ProgressFn(Arc<dyn Fn(&Progress) + Send + Sync>);

impl ProgressFn {
    /// Wraps `callback`.
    pub fn new(callback: impl Fn(&Progress) + Send + Sync + 'static) -> ProgressFn {
        ProgressFn(Arc::new(callback))
    }
}

impl fmt::Debug for ProgressFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressFn")
    }
}

/// Two callbacks are equal when they are the same one.
impl PartialEq for ProgressFn {
    fn eq(&self, other: &ProgressFn) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ProgressFn {}

/// The latest event of a solver, kept for a reader on another thread (a live line, a
/// protocol's `status`): the callback it gives only stores the event.
#[derive(Clone, Debug, Default)]
pub struct LatestProgress(Arc<Mutex<Option<Progress>>>);

impl LatestProgress {
    /// An empty slot.
    pub fn new() -> LatestProgress {
        LatestProgress::default()
    }

    /// The callback for `SolveOptions::progress` that keeps each event here.
    pub fn callback(&self) -> ProgressFn {
        let slot = Arc::clone(&self.0);
        ProgressFn::new(move |event| {
            if let Ok(mut latest) = slot.lock() {
                *latest = Some(*event);
            }
        })
    }

    /// The latest event, if one came since the last [`LatestProgress::take`].
    pub fn take(&self) -> Option<Progress> {
        self.0.lock().ok().and_then(|mut latest| latest.take())
    }

    /// The latest event, kept.
    pub fn get(&self) -> Option<Progress> {
        self.0.lock().ok().and_then(|latest| *latest)
    }
}

/// The state of one call's events.
struct State {
    event: Progress,
    start: Instant,
    last: Instant,
    /// Whether events are sent for this call.
    active: bool,
    /// The root searched is the position after a forced pass: bounds and windows change sign.
    flip: bool,
    /// Bounds and estimates are reported as signs.
    wld: bool,
}

/// Sends the events of a solver's calls through its callback, one at a time.
pub(super) struct Reporter {
    callback: ProgressFn,
    state: Mutex<State>,
}

impl Reporter {
    pub(super) fn new(callback: ProgressFn) -> Reporter {
        let now = Instant::now();
        Reporter {
            callback,
            state: Mutex::new(State {
                event: Progress {
                    elapsed: Duration::ZERO,
                    nodes: 0,
                    lower: -64,
                    upper: 64,
                    best_move: None,
                    estimate: None,
                    moves: None,
                    stage: Stage::Finished,
                },
                start: now,
                last: now,
                active: false,
                flip: false,
                wld: false,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A callback that panicked leaves the state as it was: still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts sending the events of a call begun at `start` within `window`.
    pub(super) fn begin(&self, start: Instant, window: (i32, i32), wld: bool) {
        let mut state = self.state();
        state.start = start;
        state.last = start;
        state.active = true;
        state.flip = false;
        state.wld = wld;
        state.event = Progress {
            elapsed: Duration::ZERO,
            nodes: 0,
            lower: window.0,
            upper: window.1,
            best_move: None,
            estimate: None,
            moves: None,
            stage: Stage::Exact {
                alpha: window.0,
                beta: window.1,
            },
        };
    }

    /// Says that the root searched from now on is the position after a forced pass.
    pub(super) fn flip(&self) {
        self.state().flip = true;
    }

    /// Changes the event with `change` (in the root's own terms: `flip` turns its bounds,
    /// windows and estimates to the side to move's) and sends it, with `nodes` searched.
    pub(super) fn update(&self, nodes: u64, change: impl FnOnce(&mut Progress, Turn)) {
        let mut state = self.state();
        if !state.active {
            return;
        }
        let turn = Turn {
            flip: state.flip,
            wld: state.wld,
        };
        let now = Instant::now();
        let mut event = state.event;
        change(&mut event, turn);
        // Bounds only narrow: a later proof of a looser bound (the re-search of a window)
        // changes nothing.
        event.lower = event.lower.max(state.event.lower);
        event.upper = event.upper.min(state.event.upper);
        event.nodes = nodes.max(state.event.nodes);
        event.elapsed = now.duration_since(state.start);
        state.event = event;
        state.last = now;
        (self.callback.0)(&event);
    }

    /// Sends the event as it is, with `nodes` searched, when [`PROGRESS_EVERY`] has passed since
    /// the last one (from the search threads: one that finds another sending goes on).
    pub(super) fn tick(&self, nodes: u64) {
        let Ok(mut state) = self.state.try_lock() else {
            return;
        };
        let now = Instant::now();
        if !state.active || now.duration_since(state.last) < PROGRESS_EVERY {
            return;
        }
        state.last = now;
        state.event.nodes = nodes.max(state.event.nodes);
        state.event.elapsed = now.duration_since(state.start);
        (self.callback.0)(&state.event);
    }

    /// Ends the call with its last event.
    pub(super) fn finish(&self, nodes: u64, change: impl FnOnce(&mut Progress, Turn)) {
        self.update(nodes, change);
        self.state().active = false;
    }
}

/// How the root's own terms turn into the side to move's: after a forced pass the signs
/// change; with WLD only the sign is reported.
#[derive(Clone, Copy, Debug)]
pub(super) struct Turn {
    flip: bool,
    wld: bool,
}

impl Turn {
    /// A score of the root as the side to move's.
    pub(super) fn score(self, v: i32) -> i32 {
        let v = if self.flip { -v } else { v };
        if self.wld {
            v.signum()
        } else {
            v
        }
    }

    /// Bounds (`lower`, `upper`) of the root as the side to move's.
    pub(super) fn bounds(self, lower: i32, upper: i32) -> (i32, i32) {
        let (a, b) = (self.score(lower), self.score(upper));
        (a.min(b), a.max(b))
    }

    /// The root's best move `sq` as the side to move's (a pass after a forced pass).
    pub(super) fn best(self, sq: u8) -> BestMove {
        match crate::board::Square::new(sq as usize) {
            Some(square) if !self.flip => BestMove::Play(square),
            _ => BestMove::Pass,
        }
    }
}
