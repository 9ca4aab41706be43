//! Batch analysis of positions: every legal move's exact score (or the best ones, or WLD) for
//! each parsed position, checked against the inputs' annotations when asked; a position that
//! reaches a per-position limit is reported unfinished, with bounds, and positions too deep to
//! finish without a limit are refused. With a depth, every move's score is instead estimated by
//! the middle-game search to that depth ([`crate::engine::estimate`]): such an analysis says so
//! ([`Exactness::Estimate`]), is never checked and never refused. The scheduling, ordering, sharding, resuming and
//! stopping are the shared driver's ([`crate::drivers::batch`]); this module says what one position's
//! analysis is and totals the run into a [`Summary`].
//!
//! It never prints, formats or knows about terminals and files other than opening the inputs:
//! output formats live in [`crate::report::analyze`], arguments and signals in the binary.

use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::board::rules::Variant;
use crate::board::{Position, Square};
use crate::drivers::batch::{self, Totals, Work};
pub use crate::drivers::batch::{
    BatchError as AnalyzeError, Shard, ShardError, Unsolved, PARALLEL_MAX_EMPTIES,
};
use crate::engine::estimate::{EstimateError, Estimator};
use crate::notation::{open_path, ParseError, Parsed, Source};
use crate::search::{
    Bounds, Exactness, Limits, MoveScore, ProgressFn, SolveError, Solver, StopHandle,
    TooManyEmpties,
};

/// The table of each estimate's search in MiB (a fresh one per position: estimates of one
/// position do not need another's entries, and it keeps memory within the solver's own).
pub const ESTIMATE_HASH_MB: usize = 16;

/// What to compute and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// Only the best score and the moves reaching it, instead of every move's score.
    pub best_only: bool,
    /// Win/draw/loss only: every score is -1, 0 or 1.
    pub wld: bool,
    /// Compare the computed scores with the inputs' annotations.
    pub check: bool,
    /// Stop at the first bad input line instead of skipping it.
    pub strict: bool,
    /// The part of the input to analyse.
    pub shard: Shard,
    /// Worker threads in total; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in MiB in total: the parallel workers share it out, the
    /// one-at-a-time solver uses all of it (tables grow only as they are used).
    pub hash_mb: usize,
    /// The first positions of the shard that a resumed run already has: they are handed to
    /// [`Sink::resumed`] in order and not solved.
    pub skip: usize,
    /// See [`PARALLEL_MAX_EMPTIES`].
    pub parallel_max_empties: u32,
    /// Limits of each position's search: a position that reaches one is reported unfinished,
    /// with the proven bounds of its best score.
    pub limits: Limits,
    /// Analyse positions with more than [`crate::search::FEASIBLE_EMPTIES`] empties even
    /// without a limit (otherwise those [`Solver::check_feasible`] rejects are refused: see
    /// [`Sink::refused`]).
    pub force: bool,
    /// Estimate every move by a search of this many plies (Othello rules with official scoring
    /// only: another position ends the run, see [`analyze`]) instead of solving: the analyses
    /// are marked [`Exactness::Estimate`], never checked, never refused.
    pub depth: Option<u32>,
    /// The progress callback of the search of each deep position (those solved one at a
    /// time with every thread); see `SolveOptions::progress`.
    pub progress: Option<ProgressFn>,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            best_only: false,
            wld: false,
            check: false,
            strict: false,
            shard: Shard::ALL,
            threads: 0,
            hash_mb: 256,
            skip: 0,
            parallel_max_empties: PARALLEL_MAX_EMPTIES,
            limits: Limits::NONE,
            force: false,
            depth: None,
            progress: None,
        }
    }
}

/// What a check compared: one move's score, or (with `best_only`) the best score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The score of this move (`None` = the forced pass).
    Move(Option<Square>),
    /// The best score of the position (also a finished game's final score).
    Best,
}

/// A computed score that differs from the input's annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What was compared.
    pub what: Checked,
    /// The annotated score (its sign with WLD).
    pub expected: i32,
    /// The computed score; `None` when the annotated move is not legal.
    pub found: Option<i32>,
}

/// The analysis of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// 0-based index of the position over all inputs (bad lines not counted).
    pub index: usize,
    /// Where the position came from.
    pub source: Source,
    /// The position, with its rules and scoring.
    pub position: Position,
    /// Every legal move's score, best first, ties in square order (the pass as `None`); with
    /// `best_only`, just the moves reaching the best score. Empty for a finished game.
    pub moves: Vec<MoveScore>,
    /// The best score (a finished game's final score). With WLD, -1, 0 or 1. When
    /// `unfinished`, only its proven lower bound.
    pub best_score: i32,
    /// The moves reaching the best score, in square order; empty for a finished game (and when
    /// `unfinished`).
    pub best_moves: Vec<Option<Square>>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time spent on this position.
    pub time: Duration,
    /// With `check`: the differences from the annotations (empty = correct); `None` when not
    /// checking, the input carries no expected score, or the analysis is unfinished.
    pub check: Option<Vec<Mismatch>>,
    /// `Some` when a limit stopped the search first: the proven bounds of the best score. The
    /// moves are then only those proven (every move's exact score, or with `best_only` moves
    /// proven to reach the exact best score), best first.
    pub unfinished: Option<Bounds>,
    /// Proven, or estimated at a depth (`--depth`): then the scores are estimates, never
    /// written as proven scores and never checked.
    pub exactness: Exactness,
}

impl Analysis {
    /// True when the position is a finished game (no move for either side).
    pub fn is_game_over(&self) -> bool {
        self.position.is_over()
    }
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions analysed in this run.
    pub positions: usize,
    /// Move scores reported.
    pub moves: usize,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time of the run.
    pub time: Duration,
    /// Positions skipped because a resumed run already had them.
    pub resumed: usize,
    /// Bad input lines (skipped, or the one that stopped a strict run).
    pub bad_lines: usize,
    /// Positions with expected scores that were checked.
    pub checked: usize,
    /// Checked positions whose every score was as expected.
    pub correct: usize,
    /// Checked positions with at least one wrong score.
    pub wrong: usize,
    /// With `check`, positions that carried no expected score.
    pub unchecked: usize,
    /// Positions a limit stopped before they were finished (reported with bounds).
    pub unfinished: usize,
    /// Positions whose scores are estimates (a depth-limited search; never checked).
    pub estimated: usize,
    /// Positions refused: too many empties for an exact analysis without a limit.
    pub refused: usize,
    /// The run was stopped (a stop handle fired) before the end of the input.
    pub interrupted: bool,
    /// A strict run stopped at a bad line.
    pub stopped_at_bad_line: bool,
}

impl Summary {
    /// Nodes per second over the run.
    pub fn nps(&self) -> f64 {
        crate::units::per_second(self.nodes, self.time)
    }

    /// Counts in the check (`options.check`) a position that a resumed output already holds,
    /// as [`analyze`] counted it when it was analysed: `recorded` is what its record says
    /// (read back by `report::analyze::written_from`), `parsed` its input line. A record of
    /// estimates counts as estimated and is not checked; one of bounds (a limit stopped its
    /// search) is not counted. Returns the differences of the record from the input's
    /// annotations (empty when it agrees or there is nothing to compare).
    pub fn add_resumed(
        &mut self,
        parsed: &Parsed,
        recorded: &Recorded,
        options: &AnalyzeOptions,
    ) -> Vec<Mismatch> {
        if recorded.unfinished {
            return Vec::new();
        }
        // Exactness is absolute: estimates are never checked, as in an uninterrupted run.
        if recorded.estimate {
            self.estimated += 1;
            return Vec::new();
        }
        let Some(mismatches) = check_scores(parsed, &recorded.moves, recorded.best_score, options)
        else {
            self.unchecked += 1;
            return Vec::new();
        };
        self.checked += 1;
        if mismatches.is_empty() {
            self.correct += 1;
        } else {
            self.wrong += 1;
        }
        mismatches
    }

    /// Adds the check of `before` (the positions a resumed output already holds, counted by
    /// [`Summary::add_resumed`]) to this run's, so that the verdict is that of the whole
    /// output: checked, correct, wrong, unchecked and estimated positions.
    pub fn merge_resumed(&mut self, before: &Summary) {
        self.checked += before.checked;
        self.correct += before.correct;
        self.wrong += before.wrong;
        self.unchecked += before.unchecked;
        self.estimated += before.estimated;
    }
}

/// The scores a resumed output records for one position (`report::analyze` reads them back),
/// for `check` to count it again ([`Summary::add_resumed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The scored moves, as written.
    pub moves: Vec<MoveScore>,
    /// The best score (a finished game's final score).
    pub best_score: i32,
    /// A limit stopped the search: the record holds bounds (not checked).
    pub unfinished: bool,
    /// The record holds estimates (not checked).
    pub estimate: bool,
}

/// Receives the results of a run, always from the thread that called [`analyze`] and always in
/// input order. An error from any method ends the run with [`AnalyzeError::Sink`].
pub trait Sink {
    /// A solver was created; `handle` stops it (and so the run) when fired.
    fn register(&mut self, handle: StopHandle);
    /// One of the first `skip` positions of the shard, not solved (a resumed run has it).
    fn resumed(&mut self, parsed: &Parsed) -> io::Result<()>;
    /// A position is finished.
    fn analysed(&mut self, analysis: &Analysis) -> io::Result<()>;
    /// A line could not be read; it is skipped (or ends a strict run).
    fn bad_line(&mut self, error: &ParseError) -> io::Result<()>;
    /// A position has too many empties to be analysed exactly without a limit; it is skipped
    /// (or ends a strict run) like a bad line, and is not counted as a position (sharding and
    /// resuming count only the positions analysed). Counted in the summary either way.
    fn refused(&mut self, parsed: &Parsed, reason: &TooManyEmpties) -> io::Result<()> {
        let _ = (parsed, reason);
        Ok(())
    }
}

/// The items of several inputs in turn, each opened when the previous one ends (`-` is standard
/// input); a file that cannot be opened is one error item.
pub fn inputs(
    paths: Vec<PathBuf>,
) -> impl Iterator<Item = Result<Parsed, ParseError>> + Send + 'static {
    paths.into_iter().flat_map(
        |path| -> Box<dyn Iterator<Item = Result<Parsed, ParseError>> + Send> {
            match open_path(&path) {
                Ok(reader) => Box::new(reader),
                Err(error) => Box::new(std::iter::once(Err(error))),
            }
        },
    )
}

/// The items of several inputs read under the rules and scoring of `variant` (see [`inputs`]):
/// a position those rules cannot reach is an error item.
pub fn inputs_with(
    paths: Vec<PathBuf>,
    variant: Variant,
) -> impl Iterator<Item = Result<Parsed, ParseError>> + Send + 'static {
    paths.into_iter().flat_map(
        move |path| -> Box<dyn Iterator<Item = Result<Parsed, ParseError>> + Send> {
            match open_path(&path) {
                Ok(reader) => Box::new(reader.with_variant(variant)),
                Err(error) => Box::new(std::iter::once(Err(error))),
            }
        },
    )
}

/// The number of positions of `shard` in the inputs, by a quick pass that parses without
/// solving; `None` when an input is standard input or another file that is not a regular file,
/// such as a pipe (it cannot be read twice).
pub fn count_positions(paths: &[PathBuf], shard: Shard) -> Option<usize> {
    batch::count_in_files(paths, shard, || {
        inputs(paths.to_vec()).filter(Result::is_ok).count()
    })
}

/// The work ([`batch::work`]) of each position of `shard` in the inputs, in input order, by
/// the quick pass of [`count_positions`]; `None` as there.
pub fn positions_work(paths: &[PathBuf], shard: Shard) -> Option<Vec<f64>> {
    batch::work_in_files(paths, shard, || {
        inputs(paths.to_vec())
            .filter_map(Result::ok)
            .map(|parsed| parsed.position.board.empties())
            .collect()
    })
}

/// What the analysis of one position became: its analysis, or (with a depth) the estimate's
/// refusal of its rules, which ends the run.
type Analysed = Result<Analysis, EstimateError>;

/// Analyses one position with `solver` (whose options must carry `options.wld`, and whose
/// limits, if any, make a position that reaches them come back unfinished). `Err` when a stop
/// was requested, or when a solver without `force` refuses the position as too deep; `Ok(Err)`
/// when a depth is given and the position is not under Othello rules with official scoring.
fn analyze_position(
    solver: &mut Solver,
    parsed: &Parsed,
    index: usize,
    options: &AnalyzeOptions,
) -> Result<Analysed, Unsolved> {
    if let Some(depth) = options.depth {
        return estimate_position(solver, parsed, index, depth, options);
    }
    Ok(Ok(solve_position(solver, parsed, index, options)?))
}

/// [`analyze_position`] without a depth: every move's exact score, or the best ones.
fn solve_position(
    solver: &mut Solver,
    parsed: &Parsed,
    index: usize,
    options: &AnalyzeOptions,
) -> Result<Analysis, Unsolved> {
    let start = Instant::now();
    let position = parsed.position;
    let final_score = |score: i32| if options.wld { score.signum() } else { score };
    let result = if options.best_only {
        solver.best_moves(&position).map(|(score, best, nodes)| {
            let moves = best.iter().map(|&mv| MoveScore { mv, score }).collect();
            (moves, score, best, nodes)
        })
    } else {
        solver.score_moves(&position).map(|(moves, nodes)| {
            let end_score = position.scoring().score(&position.board);
            let best_score = moves
                .first()
                .map_or_else(|| final_score(end_score), |m| m.score);
            let best = best_moves_of(&moves, best_score);
            (moves, best_score, best, nodes)
        })
    };
    let mut analysis = Analysis {
        index,
        source: parsed.source.clone(),
        position,
        moves: Vec::new(),
        best_score: 0,
        best_moves: Vec::new(),
        nodes: 0,
        time: Duration::ZERO,
        check: None,
        unfinished: None,
        exactness: Exactness::Exact,
    };
    match result {
        Ok((moves, best_score, best_moves, nodes)) => {
            (analysis.moves, analysis.best_score) = (moves, best_score);
            (analysis.best_moves, analysis.nodes) = (best_moves, nodes);
            if options.check {
                analysis.check = check(parsed, &analysis, options);
            }
        }
        Err(error) if error.is_interrupted() => return Err(Unsolved::Stopped),
        Err(SolveError::Refused(refused)) => return Err(Unsolved::Refused(refused)),
        Err(SolveError::Unfinished(unfinished)) => {
            analysis.moves = unfinished.moves;
            analysis.best_score = unfinished.bounds.lower;
            analysis.nodes = unfinished.nodes;
            analysis.unfinished = Some(unfinished.bounds);
        }
    }
    analysis.time = start.elapsed();
    Ok(analysis)
}

/// [`analyze_position`] with a depth: every move's estimated score at `depth` plies (the best
/// alone with `best_only`), the stop of `solver`'s handle stopping it. A finished game is its
/// exact final score, and the only analysis of the run that may be checked. `Ok(Err)` under
/// other rules or scoring than Othello's official ones: the evaluation knows no other.
fn estimate_position(
    solver: &mut Solver,
    parsed: &Parsed,
    index: usize,
    depth: u32,
    options: &AnalyzeOptions,
) -> Result<Analysed, Unsolved> {
    let start = Instant::now();
    let position = parsed.position;
    let mut estimator = Estimator::new(ESTIMATE_HASH_MB.min(options.hash_mb.max(1)));
    let handle = solver.stop_handle();
    let estimated = match estimator.score_moves(&position, depth, options.best_only, Some(&handle))
    {
        Ok(estimated) => estimated,
        Err(EstimateError::Stopped(stopped)) => return Err(stopped.into()),
        Err(error @ EstimateError::Rules) => return Ok(Err(error)),
    };
    let best_score = estimated
        .moves
        .first()
        .map_or_else(|| position.board.final_score(), |m| m.score);
    let mut analysis = Analysis {
        index,
        source: parsed.source.clone(),
        position,
        best_moves: best_moves_of(&estimated.moves, best_score),
        moves: estimated.moves,
        best_score,
        nodes: estimated.nodes,
        time: Duration::ZERO,
        check: None,
        unfinished: None,
        exactness: estimated.exactness,
    };
    // Only a finished game's final score is exact: it alone can be checked.
    if options.check && analysis.exactness == Exactness::Exact {
        analysis.check = check(parsed, &analysis, options);
    }
    analysis.time = start.elapsed();
    Ok(Ok(analysis))
}

/// The moves of `moves` that reach `best_score`, in square order.
pub fn best_moves_of(moves: &[MoveScore], best_score: i32) -> Vec<Option<Square>> {
    let mut best: Vec<Option<Square>> = moves
        .iter()
        .filter(|m| m.score == best_score)
        .map(|m| m.mv)
        .collect();
    best.sort();
    best
}

/// Compares an analysis with the annotations of its input line; `None` when there are none.
pub fn check(
    parsed: &Parsed,
    analysis: &Analysis,
    options: &AnalyzeOptions,
) -> Option<Vec<Mismatch>> {
    check_scores(parsed, &analysis.moves, analysis.best_score, options)
}

/// [`check`] of scores found earlier (a resumed output's record): `moves` best first, and
/// the best score (a finished game's final score).
pub fn check_scores(
    parsed: &Parsed,
    moves: &[MoveScore],
    best_score: i32,
    options: &AnalyzeOptions,
) -> Option<Vec<Mismatch>> {
    // Scores of a depth-limited search (`% search depth N`, `% estimate (depth N)`) are not
    // exact: nothing to check them against.
    if parsed.search_depth.is_some() {
        return None;
    }
    let expect = |score: i32| if options.wld { score.signum() } else { score };
    let mut mismatches = Vec::new();
    let best_expected = parsed
        .expected
        .iter()
        .map(|&(_, score)| score)
        .max()
        .or(parsed.final_score)?;
    if options.best_only {
        if expect(best_expected) != best_score {
            mismatches.push(Mismatch {
                what: Checked::Best,
                expected: expect(best_expected),
                found: Some(best_score),
            });
        }
        return Some(mismatches);
    }
    for &(mv, score) in &parsed.expected {
        let found = moves.iter().find(|m| m.mv == mv).map(|m| m.score);
        if found != Some(expect(score)) {
            mismatches.push(Mismatch {
                what: Checked::Move(mv),
                expected: expect(score),
                found,
            });
        }
    }
    if let Some(score) = parsed.final_score {
        if expect(score) != best_score {
            mismatches.push(Mismatch {
                what: Checked::Best,
                expected: expect(score),
                found: Some(best_score),
            });
        }
    }
    Some(mismatches)
}

/// Runs the analysis of `items` (see [`inputs`]) and hands every result to `sink` in input
/// order, each as soon as it and all before it are finished. Stops early when a registered
/// stop handle fires (the summary then says `interrupted`; positions after the first
/// unfinished one are dropped, never reported out of order) or, with `strict`, at the first
/// bad line. With a depth, a position under other rules or scoring than Othello's official
/// ones ends the run with [`AnalyzeError::Sink`] holding [`EstimateError::Rules`] (the
/// evaluation knows no other; the command line refuses `--depth` with `--rules` or
/// `--scoring`).
pub fn analyze<I>(
    items: I,
    options: &AnalyzeOptions,
    sink: &mut dyn Sink,
) -> Result<Summary, AnalyzeError>
where
    I: Iterator<Item = Result<Parsed, ParseError>> + Send + 'static,
{
    let batch_options = batch::Options {
        strict: options.strict,
        shard: options.shard,
        threads: options.threads,
        hash_mb: options.hash_mb,
        wld: options.wld,
        skip: options.skip,
        parallel_max_empties: options.parallel_max_empties,
        limits: options.limits,
        progress: options.progress.clone(),
    };
    let mut tally = Tally {
        sink,
        check: options.check,
        summary: Summary::default(),
    };
    let totals = batch::run(&PositionWork(options), items, &batch_options, &mut tally)?;
    let Totals {
        resumed,
        bad,
        refused,
        time,
        interrupted,
        stopped_at_bad,
        ..
    } = totals;
    Ok(Summary {
        resumed,
        bad_lines: bad,
        refused,
        time,
        interrupted,
        stopped_at_bad_line: stopped_at_bad,
        ..tally.summary
    })
}

/// The analysis of one position as the driver's work.
struct PositionWork<'a>(&'a AnalyzeOptions);

impl Work for PositionWork<'_> {
    type Item = Parsed;
    type Output = Analysed;
    type Bad = ParseError;

    fn empties(&self, parsed: &Parsed) -> u32 {
        parsed.position.board.empties()
    }

    fn solve(
        &self,
        solver: &mut Solver,
        parsed: &Parsed,
        index: usize,
    ) -> Result<Analysed, Unsolved> {
        analyze_position(solver, parsed, index, self.0)
    }

    fn feasible(&self, checker: &mut Solver, parsed: &Parsed) -> Result<(), TooManyEmpties> {
        // An estimate's search has a fixed depth: it always finishes.
        if self.0.force || self.0.depth.is_some() {
            Ok(())
        } else {
            checker.check_feasible(&parsed.position)
        }
    }
}

/// Totals the analyses into a [`Summary`] on their way to the caller's sink.
struct Tally<'a> {
    sink: &'a mut dyn Sink,
    check: bool,
    summary: Summary,
}

impl<'a, 'o> batch::Sink<PositionWork<'o>> for Tally<'a> {
    fn register(&mut self, handle: StopHandle) {
        self.sink.register(handle);
    }

    fn resumed(&mut self, parsed: &Parsed) -> io::Result<()> {
        self.sink.resumed(parsed)
    }

    fn done(&mut self, analysed: Analysed) -> io::Result<()> {
        let analysis = analysed.map_err(io::Error::other)?;
        let summary = &mut self.summary;
        summary.positions += 1;
        summary.moves += analysis.moves.len();
        summary.nodes += analysis.nodes;
        match &analysis.check {
            _ if analysis.unfinished.is_some() => summary.unfinished += 1,
            // Exactness is absolute: an estimate is never counted as checked.
            _ if analysis.exactness != Exactness::Exact => summary.estimated += 1,
            Some(mismatches) if mismatches.is_empty() => {
                summary.checked += 1;
                summary.correct += 1;
            }
            Some(_) => {
                summary.checked += 1;
                summary.wrong += 1;
            }
            None if self.check => summary.unchecked += 1,
            None => {}
        }
        self.sink.analysed(&analysis)
    }

    fn bad(&mut self, error: ParseError) -> io::Result<()> {
        self.sink.bad_line(&error)
    }

    fn refused(&mut self, parsed: Parsed, reason: TooManyEmpties) -> io::Result<()> {
        self.sink.refused(&parsed, &reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_text, PositionReader};
    use crate::search::SolveOptions;

    /// Records what the driver hands over.
    #[derive(Default)]
    struct Recorder {
        events: Vec<String>,
        reversi: usize,
    }

    impl Sink for Recorder {
        fn register(&mut self, _handle: StopHandle) {}
        fn resumed(&mut self, parsed: &Parsed) -> io::Result<()> {
            self.events.push(format!("resumed {}", parsed.source));
            Ok(())
        }
        fn analysed(&mut self, analysis: &Analysis) -> io::Result<()> {
            self.events
                .push(format!("{} {:+}", analysis.source, analysis.best_score));
            if analysis.position.rules() == crate::board::rules::Rules::Reversi {
                self.reversi += 1;
            }
            Ok(())
        }
        fn bad_line(&mut self, error: &ParseError) -> io::Result<()> {
            self.events.push(format!("bad {}", error.at));
            Ok(())
        }
    }

    /// Reversi rules with raw scoring through the same driver: results in order, positions
    /// the rules cannot reach are bad lines, scores as the literal rules say.
    #[test]
    fn reversi_raw_results_come_in_order_and_match_the_literal_rules() {
        use crate::board::rules::{Rules, Scoring};
        // Line 2 is not a position; line 3 has supplies that do not add up; line 4 leaves
        // white one disc for its 9 empty squares.
        let lines = "\
XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOXOOOOOXXOX----OOOO---- X
not a position
XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOXOOOOOXXOX----OOOO---- X 5 5
XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOXOOOOOXXOX-----OOO---- X 8 1
";
        let variant = Variant {
            rules: Rules::Reversi,
            scoring: Scoring::Raw,
        };
        let items =
            PositionReader::new(io::Cursor::new(lines.as_bytes()), "t").with_variant(variant);
        let mut recorder = Recorder::default();
        let options = AnalyzeOptions {
            threads: 2,
            hash_mb: 4,
            ..AnalyzeOptions::default()
        };
        let summary = analyze(items, &options, &mut recorder).unwrap();
        assert_eq!((summary.positions, summary.bad_lines), (2, 2));
        assert_eq!(recorder.reversi, 2);
        let expect = |line: &str| {
            let parsed = crate::notation::parse_text_with(line, Source::inline(), variant).unwrap();
            crate::search::literal::minimax(&parsed.position)
        };
        let all: Vec<&str> = lines.lines().collect();
        assert_eq!(
            recorder.events,
            [
                format!("t:1 {:+}", expect(all[0])),
                "bad t:2".to_string(),
                "bad t:3".to_string(),
                format!("t:4 {:+}", expect(all[3])),
            ]
        );
    }

    /// A depth under other rules or scoring (which only a library caller can ask for: the
    /// command line refuses it) ends the run with the estimate's refusal, after the positions
    /// before it.
    #[test]
    fn a_depth_under_other_rules_ends_the_run_with_the_estimates_error() {
        use crate::board::rules::Scoring;
        let othello = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let parse =
            |variant| crate::notation::parse_text_with(othello, Source::inline(), variant).unwrap();
        let raw = Variant {
            scoring: Scoring::Raw,
            ..Variant::default()
        };
        let items = vec![Ok(parse(Variant::default())), Ok(parse(raw))].into_iter();
        let options = AnalyzeOptions {
            threads: 1,
            hash_mb: 4,
            depth: Some(4),
            ..AnalyzeOptions::default()
        };
        let mut recorder = Recorder::default();
        let error = analyze(items, &options, &mut recorder).unwrap_err();
        let AnalyzeError::Sink(error) = error else {
            panic!("expected the estimate's error, found {error:?}");
        };
        let inner = error
            .get_ref()
            .and_then(|e| e.downcast_ref::<EstimateError>());
        assert_eq!(inner, Some(&EstimateError::Rules));
        assert_eq!(recorder.events.len(), 1, "{:?}", recorder.events);
    }

    const LINES: &str = "\
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;
not a position
d3c5c6e3b5b7f2c3c7b6a6a7b3c8f6c4a8a2f3b8b4a3a4a5b2d7d6c1d8f5g6g3c2e1e2f4g2f1g5e7a1e6h2d2d1e8g1h5b1h3
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+4;
";

    fn run(options: &AnalyzeOptions) -> (Vec<String>, Summary) {
        let items = PositionReader::new(io::Cursor::new(LINES.as_bytes()), "t");
        let mut recorder = Recorder::default();
        let summary = analyze(items, options, &mut recorder).unwrap();
        (recorder.events, summary)
    }

    #[test]
    fn results_come_in_input_order_with_checks() {
        let options = AnalyzeOptions {
            threads: 2,
            hash_mb: 4,
            check: true,
            ..AnalyzeOptions::default()
        };
        let (events, summary) = run(&options);
        assert_eq!(events.len(), 4, "{events:?}");
        assert_eq!(events[0], "t:1 +18");
        assert_eq!(events[1], "bad t:2");
        assert!(events[2].starts_with("t:3 "), "{events:?}");
        assert_eq!(events[3], "t:4 +10");
        assert_eq!((summary.positions, summary.bad_lines), (3, 1));
        // Line 4 says B2 scores +4; it scores +0.
        assert_eq!((summary.checked, summary.correct, summary.wrong), (2, 1, 1));
        assert_eq!(summary.unchecked, 1);
    }

    /// The records of a resumed output count in the check as the run that wrote them counted
    /// its positions: line 1's record agrees with its annotations, line 4's gives B2 +0 where
    /// the line says +4, line 3 carries no annotation; a record of estimates is estimated, one
    /// of bounds is not counted.
    #[test]
    fn resumed_records_count_in_the_check_as_the_run_that_wrote_them() {
        let options = AnalyzeOptions {
            threads: 1,
            hash_mb: 4,
            check: true,
            ..AnalyzeOptions::default()
        };
        let parsed: Vec<Parsed> = PositionReader::new(io::Cursor::new(LINES.as_bytes()), "t")
            .filter_map(Result::ok)
            .collect();
        let scores = |moves: &[(&str, i32)]| -> Vec<MoveScore> {
            let square = |name: &str| Some(name.parse::<Square>().unwrap());
            moves
                .iter()
                .map(|&(mv, score)| MoveScore {
                    mv: square(mv),
                    score,
                })
                .collect()
        };
        let recorded = |moves: &[(&str, i32)], unfinished, estimate| {
            let moves = scores(moves);
            let best_score = moves.iter().map(|m| m.score).max().unwrap();
            Recorded {
                moves,
                best_score,
                unfinished,
                estimate,
            }
        };
        let correct = recorded(&[("g8", 18), ("h1", 12)], false, false);
        let wrong = recorded(&[("a4", 10), ("b2", 0)], false, false);
        let unchecked = recorded(&[("c1", 2)], false, false);
        let estimate = recorded(&[("g8", 16), ("h1", 10)], false, true);
        let unfinished = recorded(&[("g8", 2)], true, false);
        let mut before = Summary::default();
        assert_eq!(before.add_resumed(&parsed[0], &correct, &options), []);
        assert_eq!(
            before.add_resumed(&parsed[2], &wrong, &options),
            [Mismatch {
                what: Checked::Move(Some("b2".parse().unwrap())),
                expected: 4,
                found: Some(0),
            }]
        );
        assert_eq!(before.add_resumed(&parsed[1], &unchecked, &options), []);
        let tally = |s: &Summary| (s.checked, s.correct, s.wrong, s.unchecked, s.estimated);
        // The same counts as the run that analysed the three positions.
        let (_, whole) = run(&options);
        assert_eq!(tally(&before), tally(&whole));
        assert_eq!(tally(&before), (2, 1, 1, 1, 0));
        assert_eq!(before.add_resumed(&parsed[0], &estimate, &options), []);
        assert_eq!(before.add_resumed(&parsed[2], &unfinished, &options), []);
        assert_eq!(tally(&before), (2, 1, 1, 1, 1));
        assert_eq!(
            (before.positions, before.unfinished, before.resumed),
            (0, 0, 0)
        );
        let mut summary = whole.clone();
        summary.merge_resumed(&before);
        assert_eq!(tally(&summary), (4, 2, 2, 2, 1));
        assert_eq!(
            (summary.positions, summary.nodes, summary.resumed),
            (whole.positions, whole.nodes, whole.resumed)
        );
    }

    #[test]
    fn strict_stops_at_the_bad_line_and_resume_skips() {
        let strict = AnalyzeOptions {
            threads: 1,
            hash_mb: 4,
            strict: true,
            ..AnalyzeOptions::default()
        };
        let (events, summary) = run(&strict);
        assert_eq!(events, ["t:1 +18", "bad t:2"]);
        assert!(summary.stopped_at_bad_line);
        let resumed = AnalyzeOptions {
            threads: 2,
            hash_mb: 4,
            skip: 2,
            shard: Shard::new(0, 1).unwrap(),
            ..AnalyzeOptions::default()
        };
        let (events, summary) = run(&resumed);
        assert_eq!(&events[..3], ["resumed t:1", "bad t:2", "resumed t:3"]);
        assert_eq!(events[3], "t:4 +10");
        assert_eq!((summary.resumed, summary.positions), (2, 1));
    }

    #[test]
    fn a_solver_without_force_refuses_a_deep_position_as_an_error() {
        // The start position after one move: 59 empties, refused without a limit or force.
        let parsed = parse_text("f5", Source::inline()).unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 1,
            ..SolveOptions::default()
        })
        .unwrap();
        for best_only in [false, true] {
            let options = AnalyzeOptions {
                best_only,
                ..AnalyzeOptions::default()
            };
            match analyze_position(&mut solver, &parsed, 0, &options) {
                Err(Unsolved::Refused(refused)) => assert_eq!(refused.empties, 59),
                other => panic!("expected a refusal, got {other:?}"),
            }
        }
    }

    #[test]
    fn best_only_and_wld_agree_with_every_move() {
        let parsed = parse_text(LINES.lines().next().unwrap(), Source::inline()).unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            wld: false,
            force: true,
            progress: None,
        })
        .unwrap();
        let full = analyze_position(&mut solver, &parsed, 0, &AnalyzeOptions::default())
            .unwrap()
            .unwrap();
        let best_only = AnalyzeOptions {
            best_only: true,
            ..AnalyzeOptions::default()
        };
        let best = analyze_position(&mut solver, &parsed, 0, &best_only)
            .unwrap()
            .unwrap();
        assert_eq!(best.best_score, full.best_score);
        assert_eq!(best.best_moves, full.best_moves);
        assert!(best.moves.iter().all(|m| m.score == full.best_score));
        let mut wld_solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            wld: true,
            force: true,
            progress: None,
        })
        .unwrap();
        let wld_options = AnalyzeOptions {
            wld: true,
            check: true,
            ..AnalyzeOptions::default()
        };
        let wld = analyze_position(&mut wld_solver, &parsed, 0, &wld_options)
            .unwrap()
            .unwrap();
        for m in &wld.moves {
            let exact = full.moves.iter().find(|e| e.mv == m.mv).unwrap();
            assert_eq!(m.score, exact.score.signum());
        }
        assert_eq!(wld.check, Some(Vec::new()));
    }

    /// Exactness is absolute: with a depth every position (none is a finished game) is an
    /// estimate, and `check` counts none of them (line 4's annotation B2:+4 is wrong, yet no
    /// estimate is found wrong or right).
    #[test]
    fn estimates_are_marked_and_never_checked() {
        let options = AnalyzeOptions {
            threads: 2,
            hash_mb: 4,
            check: true,
            depth: Some(4),
            ..AnalyzeOptions::default()
        };
        let (events, summary) = run(&options);
        assert_eq!(events.len(), 4, "{events:?}");
        assert_eq!((summary.positions, summary.bad_lines), (3, 1));
        assert_eq!((summary.checked, summary.correct, summary.wrong), (0, 0, 0));
        assert_eq!((summary.estimated, summary.unchecked), (3, 0));
        let parsed = parse_text(LINES.lines().next().unwrap(), Source::inline()).unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            ..SolveOptions::default()
        })
        .unwrap();
        let analysis = analyze_position(&mut solver, &parsed, 0, &options)
            .unwrap()
            .unwrap();
        assert_eq!(analysis.exactness, Exactness::Estimate { depth: 4 });
        assert_eq!(analysis.check, None);
        assert_eq!(analysis.moves.len(), 8);
        assert_eq!(analysis.best_score, analysis.moves[0].score);
    }
}
