//! Solving whole games: the exact score of each game's position at N empties, then of every
//! position the game went through from there to its end, which gives the loss of each move
//! actually played (0 for a perfect move); and, for WThor games, the exact score at the
//! database's own depth against the theoretical score it records. Games are streamed through
//! the shared batch driver ([`crate::drivers::batch`]) and totalled into a [`GamesSummary`].
//!
//! Each position is solved in turn from the most empties down with one solver, so the later,
//! smaller positions find most of their work in the transposition table.

use std::collections::BTreeMap;
use std::io;
use std::time::{Duration, Instant};

use super::game::{discs, Game, GameError, Reached};
use crate::board::{Color, Position, Square};
use crate::drivers::batch::{self, BatchError, Totals, Unsolved, Work};
use crate::search::{Solution, SolveError, Solver, StopHandle, StopReason, TooManyEmpties};
use crate::units::per_second;

/// What to compute and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamesOptions {
    /// Solve from this many empties to the end of each game, scoring every move played.
    pub empties: Option<u32>,
    /// Compare the exact score at the database's depth with its recorded theoretical score.
    pub check_theoretical: bool,
    /// How to run the batch: shard, threads, table size, resumed games, the limits of each
    /// search (`wld` and `strict` are ignored: games are solved exactly, and a bad game never
    /// stops the run). A game one of whose searches reaches a limit is reported unfinished.
    pub batch: batch::Options,
    /// Solve games whose deepest position is too deep to finish without a limit (otherwise
    /// those [`Solver::check_feasible`] rejects are refused).
    pub force: bool,
    /// A game that ended early (resigned, lost on time) with more empties than asked is
    /// solved from where it stopped (the readers must keep such games: `inputs(.., true)`).
    pub from_end: bool,
}

impl GamesOptions {
    /// The position with N empties the analysis starts from, or where a game that ended
    /// early stopped (with `from_end`).
    pub fn start(&self, game: &Game) -> Option<Reached> {
        self.empties.and_then(|n| game.start_at(n, self.from_end))
    }

    /// The position of the database's theoretical score, or where a game that ended early
    /// stopped (with `from_end`).
    fn theoretical_start(&self, game: &Game) -> Option<Reached> {
        game.recorded
            .and_then(|r| game.start_at(r.depth, self.from_end))
    }
}

/// Where the analysis of a game stopped at a limit of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameUnfinished {
    /// Empties of the position whose search reached the limit.
    pub empties: u32,
    /// The limit reached.
    pub reason: StopReason,
}

/// One move played from N empties on, scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// 1-based number of the move in the game (passes not counted).
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// The square played.
    pub square: Square,
    /// Empties before the move.
    pub empties: u32,
    /// The exact score before the move, for the side that plays it.
    pub score: i32,
    /// A best move (the first move of the solver's perfect line).
    pub best: Option<Square>,
    /// How much the move lowers the mover's exact score (0 for a perfect move).
    pub loss: i32,
}

/// The database's theoretical score against the exact one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theoretical {
    /// The database's depth: the empties its theoretical score is for.
    pub depth: u32,
    /// Black's disc count the database records.
    pub recorded: u32,
    /// Black's disc count under perfect play, as solved.
    pub exact: u32,
    /// The position solved: the one at `depth` empties, or where a game that stopped before
    /// it stopped (`from_end`); `None` when the game was over before `depth` (the exact score
    /// is then the game's final score).
    pub position: Option<Position>,
}

impl Theoretical {
    /// True when the database is right.
    pub fn agrees(&self) -> bool {
        self.recorded == self.exact
    }
}

/// The analysis of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// 0-based index of the game over all inputs (bad games not counted).
    pub index: usize,
    /// The game.
    pub game: Game,
    /// The empties asked for (`None` when only checking theoretical scores).
    pub empties: Option<u32>,
    /// The solution of the position at that many empties; `None` when not asked or when the
    /// game ended with more empties.
    pub exact: Option<Solution>,
    /// Every move played from that position on, scored.
    pub moves: Vec<MoveReport>,
    /// For a game that records a theoretical score, with `check_theoretical` or when its
    /// position is on the way from N empties.
    pub theoretical: Option<Theoretical>,
    /// Positions solved (finished positions not counted).
    pub solved: usize,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time spent on the game.
    pub time: Duration,
    /// A search reached a limit of the run: nothing of the game is then reported as exact
    /// (`exact`, `moves` and `theoretical` are empty).
    pub unfinished: Option<GameUnfinished>,
}

impl GameAnalysis {
    /// The exact final disc counts (black, white) from the position at N empties.
    pub fn exact_discs(&self) -> Option<(u32, u32)> {
        self.exact.as_ref().map(|s| discs(&s.position, s.score))
    }

    /// The first move that was not perfect.
    pub fn first_mistake(&self) -> Option<&MoveReport> {
        self.moves.iter().find(|m| m.loss > 0)
    }

    /// Black's exact score (final disc difference under perfect play, positive when black
    /// wins) of every position from N empties to the end, each with the number of moves
    /// played before it: the curve of the game as perfect play judges it. Empty when nothing
    /// was solved exactly.
    pub fn black_scores(&self) -> Vec<(usize, i32)> {
        let black = |color: Color, score: i32| match color {
            Color::Black => score,
            Color::White => -score,
        };
        let mut points: Vec<(usize, i32)> = self
            .moves
            .iter()
            .map(|m| (m.number - 1, black(m.color, m.score)))
            .collect();
        match (self.moves.last(), &self.exact) {
            (Some(last), _) => {
                points.push((last.number, black(last.color, last.score - last.loss)))
            }
            (None, Some(exact)) => points.push((
                self.game.moves.len(),
                black(exact.position.to_move, exact.score),
            )),
            (None, None) => {}
        }
        points
    }

    /// The total loss of `color`'s moves.
    pub fn loss(&self, color: Color) -> i32 {
        self.moves
            .iter()
            .filter(|m| m.color == color)
            .map(|m| m.loss)
            .sum()
    }
}

/// Solves one game as `options` ask.
pub fn analyze_game(
    solver: &mut Solver,
    game: &Game,
    index: usize,
    options: &GamesOptions,
) -> Result<GameAnalysis, Unsolved> {
    let start = Instant::now();
    let mut analysis = GameAnalysis {
        index,
        game: game.clone(),
        empties: options.empties,
        exact: None,
        moves: Vec::new(),
        theoretical: None,
        solved: 0,
        nodes: 0,
        time: Duration::ZERO,
        unfinished: None,
    };
    match fill(solver, game, options, &mut analysis) {
        Ok(()) => {}
        Err(Halt::Stopped) => return Err(Unsolved::Stopped),
        Err(Halt::Refused(refused)) => return Err(Unsolved::Refused(refused)),
        Err(Halt::Limit(unfinished)) => {
            analysis.exact = None;
            analysis.moves.clear();
            analysis.theoretical = None;
            analysis.unfinished = Some(unfinished);
        }
    }
    analysis.time = start.elapsed();
    Ok(analysis)
}

/// Why [`fill`] ended early.
enum Halt {
    /// A stop was requested.
    Stopped,
    /// A search reached a limit of the run.
    Limit(GameUnfinished),
    /// The solver refused a position as too deep (one without `force`: the batch driver's are
    /// forced, it refuses a game at read time instead).
    Refused(TooManyEmpties),
}

/// The work of [`analyze_game`], into `analysis`.
fn fill(
    solver: &mut Solver,
    game: &Game,
    options: &GamesOptions,
    analysis: &mut GameAnalysis,
) -> Result<(), Halt> {
    let mut solve = |analysis: &mut GameAnalysis, position: &Position| {
        let solution = match solver.solve(position) {
            Ok(solution) => solution,
            Err(SolveError::Refused(refused)) => return Err(Halt::Refused(refused)),
            Err(SolveError::Unfinished(unfinished)) => {
                analysis.nodes += unfinished.nodes;
                return Err(match unfinished.bounds.reason {
                    StopReason::Interrupted => Halt::Stopped,
                    reason => Halt::Limit(GameUnfinished {
                        empties: position.board.empties(),
                        reason,
                    }),
                });
            }
        };
        if !position.board.is_game_over() {
            analysis.solved += 1;
        }
        analysis.nodes += solution.nodes;
        Ok::<Solution, Halt>(solution)
    };
    let from = options.start(game);
    let on_the_way = |reached: Option<Reached>| matches!((reached, from), (Some(r), Some(f)) if r.index >= f.index);
    // The database's position is solved when asked, or anyway when it is on the way from N.
    let record = game
        .recorded
        .map(|r| (r, game.start_at(r.depth, options.from_end)))
        .filter(|&(_, reached)| options.check_theoretical || on_the_way(reached));
    let mut theoretical_at = None;
    if let Some((record, reached)) = record.filter(|&(_, reached)| !on_the_way(reached)) {
        // Deeper than N (or no N): solved on its own, first. A game that ended before that
        // depth is compared with its final score.
        let exact = match reached {
            Some(r) => {
                let solution = solve(analysis, &r.position)?;
                discs(&r.position, solution.score).0
            }
            None => game.final_discs().0,
        };
        theoretical_at = Some(Theoretical {
            depth: record.depth,
            recorded: record.theoretical_black,
            exact,
            position: reached.map(|r| r.position),
        });
    }
    if let Some(from) = from {
        let mut scores = Vec::with_capacity(game.moves.len() + 1 - from.index);
        let mut best = Vec::with_capacity(scores.capacity());
        for i in from.index..=game.moves.len() {
            let position = game.position(i);
            let solution = solve(analysis, &position)?;
            scores.push(solution.score);
            best.push(solution.pv.first().copied().flatten());
            if i == from.index {
                analysis.exact = Some(solution);
            }
        }
        for (k, i) in (from.index..game.moves.len()).enumerate() {
            let (before, after) = (game.position(i), game.position(i + 1));
            // The next position's score is for its side to move: the opponent, or the mover
            // again when the opponent must pass.
            let after_score = if after.to_move == before.to_move {
                scores[k + 1]
            } else {
                -scores[k + 1]
            };
            let loss = scores[k] - after_score;
            debug_assert!(loss >= 0, "a move cannot beat perfect play");
            analysis.moves.push(MoveReport {
                number: i + 1,
                color: before.to_move,
                square: game.moves[i],
                empties: before.board.empties(),
                score: scores[k],
                best: best[k],
                loss,
            });
        }
        if let Some((record, Some(r))) = record.filter(|_| theoretical_at.is_none()) {
            theoretical_at = Some(Theoretical {
                depth: record.depth,
                recorded: record.theoretical_black,
                exact: discs(&r.position, scores[r.index - from.index]).0,
                position: Some(r.position),
            });
        }
    }
    analysis.theoretical = theoretical_at;
    Ok(())
}

/// A game whose recorded theoretical score is not the exact one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The game, as `file#number`.
    pub game: String,
    /// What was compared.
    pub theoretical: Theoretical,
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GamesSummary {
    /// Good games read, in every shard.
    pub read: usize,
    /// Games analysed in this run.
    pub analysed: usize,
    /// Games a resumed run already had.
    pub resumed: usize,
    /// Games that could not be read or replayed (skipped).
    pub bad_games: usize,
    /// Bad games and file errors, by reason.
    pub skipped: BTreeMap<&'static str, usize>,
    /// Games that reach N empties.
    pub reached: usize,
    /// Moves scored, by colour (black, white).
    pub moves: [usize; 2],
    /// Perfect moves, by colour.
    pub perfect: [usize; 2],
    /// Total loss, by colour.
    pub loss: [i64; 2],
    /// Games reaching N empties whose every move from there was perfect.
    pub perfect_games: usize,
    /// Games whose theoretical score was checked.
    pub checked: usize,
    /// The checked games where the database disagrees.
    pub disagreements: Vec<Disagreement>,
    /// With `check_theoretical`, games that record no theoretical score.
    pub unchecked: usize,
    /// WThor games whose recorded final score differs from their replay.
    pub final_differs: usize,
    /// Games one of whose searches reached a limit (reported unfinished).
    pub unfinished: usize,
    /// Games whose moves stop before the game is over, solved from where they stopped.
    pub ended_early: Vec<String>,
    /// Games refused: too deep to solve exactly without a limit.
    pub refused: usize,
    /// Positions solved.
    pub solved: usize,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the run.
    pub time: Duration,
    /// The run was stopped before the end of the input.
    pub interrupted: bool,
}

impl GamesSummary {
    /// Positions solved per second.
    pub fn solved_per_second(&self) -> f64 {
        per_second(self.solved as u64, self.time)
    }

    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        per_second(self.nodes, self.time)
    }

    fn add(&mut self, analysis: &GameAnalysis) {
        self.analysed += 1;
        self.unfinished += usize::from(analysis.unfinished.is_some());
        if analysis.game.ended_early() {
            self.ended_early.push(analysis.game.id.to_string());
        }
        self.solved += analysis.solved;
        self.nodes += analysis.nodes;
        if analysis.exact.is_some() {
            self.reached += 1;
            if analysis.first_mistake().is_none() {
                self.perfect_games += 1;
            }
        }
        for m in &analysis.moves {
            let side = color_index(m.color);
            self.moves[side] += 1;
            self.perfect[side] += usize::from(m.loss == 0);
            self.loss[side] += i64::from(m.loss);
        }
        if let Some(record) = analysis.game.recorded {
            if record.final_black != analysis.game.final_discs().0 {
                self.final_differs += 1;
            }
        }
        match analysis.theoretical {
            Some(theoretical) => {
                self.checked += 1;
                if !theoretical.agrees() {
                    self.disagreements.push(Disagreement {
                        game: analysis.game.id.to_string(),
                        theoretical,
                    });
                }
            }
            None if analysis.game.recorded.is_none() => self.unchecked += 1,
            None => {}
        }
    }
}

impl GamesSummary {
    /// Counts in the theoretical-score check a game that a resumed output already holds, as
    /// [`analyze_games`] counted it when it was solved: `exact` is black's exact discs at the
    /// database's depth that its record gives (`None` when it gives none: not asked, or a
    /// search reached a limit), `from_end` as in [`GamesOptions`]. Returns the disagreement
    /// with the database, if any (also added to `disagreements`).
    pub fn add_resumed(
        &mut self,
        game: &Game,
        exact: Option<u32>,
        from_end: bool,
    ) -> Option<&Disagreement> {
        match (game.recorded, exact) {
            (Some(record), Some(exact)) => {
                self.checked += 1;
                let theoretical = Theoretical {
                    depth: record.depth,
                    recorded: record.theoretical_black,
                    exact,
                    position: game.start_at(record.depth, from_end).map(|r| r.position),
                };
                if theoretical.agrees() {
                    return None;
                }
                self.disagreements.push(Disagreement {
                    game: game.id.to_string(),
                    theoretical,
                });
                self.disagreements.last()
            }
            (None, _) => {
                self.unchecked += 1;
                None
            }
            (Some(_), None) => None,
        }
    }

    /// Adds the theoretical-score check of `before` (the games a resumed output already
    /// holds, counted by [`GamesSummary::add_resumed`]) to this run's, so that the verdict is
    /// that of the whole output; their disagreements come first, in input order.
    pub fn merge_resumed(&mut self, before: GamesSummary) {
        self.checked += before.checked;
        self.unchecked += before.unchecked;
        let mut disagreements = before.disagreements;
        disagreements.append(&mut self.disagreements);
        self.disagreements = disagreements;
    }
}

/// 0 for black, 1 for white.
pub fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Receives the results of [`analyze_games`] in input order (see [`batch::Sink`]).
pub type GamesSink = dyn batch::Sink<GameWork>;

/// Analyses the games of `items` (see [`super::inputs`]) and hands every result to `sink` in
/// input order, each as soon as it and all before it are finished.
pub fn analyze_games<I>(
    items: I,
    options: &GamesOptions,
    sink: &mut GamesSink,
) -> Result<GamesSummary, BatchError>
where
    I: Iterator<Item = Result<Game, GameError>> + Send + 'static,
{
    let batch_options = batch::Options {
        strict: false,
        wld: false,
        ..options.batch.clone()
    };
    let mut tally = Tally {
        sink,
        summary: GamesSummary::default(),
    };
    let work = GameWork(options.clone());
    let totals = batch::run(&work, items, &batch_options, &mut tally)?;
    let Totals {
        read,
        resumed,
        time,
        interrupted,
        ..
    } = totals;
    Ok(GamesSummary {
        read,
        resumed,
        time,
        interrupted,
        ..tally.summary
    })
}

/// The analysis of one game as the driver's work.
pub struct GameWork(pub GamesOptions);

impl Work for GameWork {
    type Item = Game;
    type Output = GameAnalysis;
    type Bad = GameError;

    fn empties(&self, game: &Game) -> u32 {
        let options = &self.0;
        let at_n = options.start(game).map(|r| r.position.board.empties());
        let at_depth = options
            .theoretical_start(game)
            .filter(|_| options.check_theoretical)
            .map(|r| r.position.board.empties());
        at_n.max(at_depth).unwrap_or(0)
    }

    fn feasible(&self, checker: &mut Solver, game: &Game) -> Result<(), TooManyEmpties> {
        let options = &self.0;
        if options.force {
            return Ok(());
        }
        // The deepest position the game needs solved decides (the others are smaller).
        let at_n = options.start(game);
        let at_depth = options
            .theoretical_start(game)
            .filter(|_| options.check_theoretical);
        let deepest = [at_n, at_depth]
            .into_iter()
            .flatten()
            .max_by_key(|r| r.position.board.empties());
        match deepest {
            Some(reached) => checker.check_feasible(&reached.position),
            None => Ok(()),
        }
    }

    fn solve(
        &self,
        solver: &mut Solver,
        game: &Game,
        index: usize,
    ) -> Result<GameAnalysis, Unsolved> {
        analyze_game(solver, game, index, &self.0)
    }
}

/// Totals the analyses on their way to the caller's sink.
struct Tally<'s> {
    sink: &'s mut GamesSink,
    summary: GamesSummary,
}

impl batch::Sink<GameWork> for Tally<'_> {
    fn register(&mut self, handle: StopHandle) {
        self.sink.register(handle);
    }

    fn resumed(&mut self, game: &Game) -> io::Result<()> {
        self.sink.resumed(game)
    }

    fn done(&mut self, analysis: GameAnalysis) -> io::Result<()> {
        self.summary.add(&analysis);
        self.sink.done(analysis)
    }

    fn refused(&mut self, game: Game, reason: TooManyEmpties) -> io::Result<()> {
        self.summary.refused += 1;
        self.sink.refused(game, reason)
    }

    fn bad(&mut self, error: GameError) -> io::Result<()> {
        *self.summary.skipped.entry(error.kind.reason()).or_default() += 1;
        self.summary.bad_games += usize::from(error.game.is_some());
        self.sink.bad(error)
    }
}
