//! The benchmark driver behind `osolve bench`: standard suites (FFO #40-#49, #40-#59, #1-#19,
//! built into the library from `positions/`) or a user's file of positions, solved one by one
//! with a [`Solver`], optionally several times, giving per-position nodes, median times and a
//! verdict against the scores the suite expects. A suite with a position too deep to finish is
//! refused as a whole before anything is measured ([`refusals`]). A suite is read under one
//! rule set ([`Variant`]: `--rules`, `--scoring`); the built-in suites' scores are Othello's
//! (official scoring), so under any other rules they are not checked.
//!
//! It never prints and never knows about terminals: progress is reported through a callback and
//! the results come back as a [`BenchReport`] for `report::bench` to format.

use crate::board::rules::Variant;
use crate::board::Position;
use crate::notation::{self, NoPositions, ParseError, PositionReader, Source};
use crate::search::{BestMove, SolveError, Solver, StopReason, TooManyEmpties};
use std::io::BufRead;
use std::path::Path;
use std::time::Duration;

use crate::units::{median, per_second};

/// FFO #40-#59, one position per line, in order.
const FFO_40_59: &str = include_str!("../../positions/ffo-40-59.obf");
/// FFO #1-#19, one position per line, in order.
const FFO_1_19: &str = include_str!("../../positions/ffo-1-19.obf");

/// The suite `osolve bench` runs when none is named.
pub const DEFAULT_SUITE: &str = "ffo40-49";

/// Names of the built-in suites, as `--suite` takes them.
pub const BUILTIN_SUITES: [&str; 3] = ["ffo40-49", "ffo40-59", "ffo1-19"];

/// A failure to load a suite.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A line of the suite is not a position (or the file cannot be read).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The suite holds no position at all.
    #[error(transparent)]
    Empty(#[from] NoPositions),
}

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// The number the position is known by: its FFO number in a built-in suite, its line number
    /// in a file.
    pub number: usize,
    /// The position to solve.
    pub position: Position,
    /// The score the suite expects: the best of the annotated move scores (or the annotated
    /// score of a finished game); `None` when the line has no annotation.
    pub expected: Option<i32>,
    /// Where the position came from.
    pub source: Source,
}

/// A list of positions to benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    /// The suite's name (`ffo40-49`) or the file it was read from.
    pub name: String,
    /// The positions, in the order they are solved.
    pub positions: Vec<BenchPosition>,
    /// The rules and scoring every position is solved under.
    pub variant: Variant,
}

impl Suite {
    /// A built-in suite by name (see [`BUILTIN_SUITES`]), or `None` for an unknown name.
    pub fn builtin(name: &str) -> Option<Suite> {
        Suite::builtin_with(name, Variant::default())
    }

    /// A built-in suite under the rules and scoring of `variant` (the Reversi supplies derived:
    /// no pass so far); its scores, Othello's, are kept only for the standard game.
    pub fn builtin_with(name: &str, variant: Variant) -> Option<Suite> {
        let (text, first, count) = match name {
            "ffo40-49" => (FFO_40_59, 40, 10),
            "ffo40-59" => (FFO_40_59, 40, 20),
            "ffo1-19" => (FFO_1_19, 1, 19),
            _ => return None,
        };
        let reader = PositionReader::new(text.as_bytes(), name).with_variant(variant);
        let mut suite = Suite::from_positions(reader, name.to_string(), variant)
            .expect("the built-in suites are valid OBF under every rule set");
        suite.positions.truncate(count);
        // Line k of a suite file is position first + k - 1 (positions/README.md).
        for p in &mut suite.positions {
            p.number = first + p.source.line - 1;
            if !variant.is_standard() {
                p.expected = None;
            }
        }
        Some(suite)
    }

    /// A built-in suite when `spec` names one, else the file at path `spec`.
    pub fn load(spec: &str) -> Result<Suite, BenchError> {
        Suite::load_with(spec, Variant::default())
    }

    /// [`Suite::load`] under the rules and scoring of `variant` (see [`Suite::builtin_with`]
    /// and [`Suite::from_path_with`]).
    pub fn load_with(spec: &str, variant: Variant) -> Result<Suite, BenchError> {
        match Suite::builtin_with(spec, variant) {
            Some(suite) => Ok(suite),
            None => Suite::from_path_with(spec, variant),
        }
    }

    /// The positions of a file (any notation `notation` reads, one per line); each is numbered
    /// by its line.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Suite, BenchError> {
        Suite::from_path_with(path, Variant::default())
    }

    /// [`Suite::from_path`] with every position read under `variant` (as `solve --rules`
    /// reads them); the file's scores are checked under it.
    pub fn from_path_with(path: impl AsRef<Path>, variant: Variant) -> Result<Suite, BenchError> {
        let reader = notation::open_path(path)?.with_variant(variant);
        let name = reader.name().to_string();
        Suite::from_positions(reader, name, variant)
    }

    /// The positions of `reader`, named `name`; each is numbered by its line.
    pub fn from_reader<R: BufRead>(reader: R, name: &str) -> Result<Suite, BenchError> {
        let variant = Variant::default();
        Suite::from_positions(PositionReader::new(reader, name), name.to_string(), variant)
    }

    fn from_positions<R: BufRead>(
        reader: PositionReader<R>,
        name: String,
        variant: Variant,
    ) -> Result<Suite, BenchError> {
        let mut positions = Vec::new();
        for item in reader {
            let parsed = item?;
            let expected = parsed
                .expected
                .iter()
                .map(|&(_, score)| score)
                .max()
                .or(parsed.final_score);
            positions.push(BenchPosition {
                number: parsed.source.line,
                position: parsed.position,
                expected,
                source: parsed.source,
            });
        }
        if positions.is_empty() {
            return Err(BenchError::Empty(NoPositions { name }));
        }
        Ok(Suite {
            name,
            positions,
            variant,
        })
    }
}

/// How to run a suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Times the whole suite is solved (at least 1); each position reports its median time.
    pub repeat: usize,
    /// Keep the transposition table between positions instead of clearing it, so later
    /// positions (and later repeats) may reuse earlier results.
    pub keep_hash: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            repeat: 1,
            keep_hash: false,
        }
    }
}

/// How a found score compares with the suite's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The expected score was found (in every repeat).
    Correct,
    /// Another score was found, or the repeats disagreed.
    Wrong,
    /// The suite gives no score for this position.
    Unchecked,
    /// A search reached a limit of the run: no score to compare.
    Unfinished,
}

/// The result of one position over all its repeats.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The position's number (see [`BenchPosition::number`]).
    pub number: usize,
    /// Empty squares.
    pub empties: u32,
    /// The score the suite expects, if it says.
    pub expected: Option<i32>,
    /// The score found by the first solve.
    pub score: i32,
    /// Whether every repeat found the same score as the first.
    pub consistent: bool,
    /// The best move found by the first solve.
    pub best_move: BestMove,
    /// Nodes searched by the first solve (later repeats may differ with several threads).
    pub nodes: u64,
    /// The median of the solve times.
    pub time: Duration,
    /// Every solve time, in the order of the repeats.
    pub times: Vec<Duration>,
    /// Where the position came from.
    pub source: Source,
    /// The limit a search reached (in any repeat); `score` and `best_move` then mean nothing.
    pub unfinished: Option<StopReason>,
}

impl Row {
    /// Whether the score found is the one expected.
    pub fn verdict(&self) -> Verdict {
        if self.unfinished.is_some() {
            return Verdict::Unfinished;
        }
        match self.expected {
            None => Verdict::Unchecked,
            Some(e) if e == self.score && self.consistent => Verdict::Correct,
            Some(_) => Verdict::Wrong,
        }
    }

    /// Nodes per second of the median solve (nodes of the first solve over the median time).
    pub fn nps(&self) -> f64 {
        per_second(self.nodes, self.time)
    }
}

/// The results of a suite run.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// The suite's name or file.
    pub suite: String,
    /// Positions in the suite (more than `rows` when the run was interrupted).
    pub suite_len: usize,
    /// One row per position solved at least once, in suite order.
    pub rows: Vec<Row>,
    /// Repeats asked for.
    pub repeat: usize,
    /// Whether the table was kept between positions.
    pub keep_hash: bool,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The rules and scoring of the suite's positions.
    pub variant: Variant,
    /// True when a stop request ended the run early.
    pub interrupted: bool,
}

impl BenchReport {
    /// Nodes of all rows.
    pub fn total_nodes(&self) -> u64 {
        self.rows.iter().map(|r| r.nodes).sum()
    }

    /// The sum of the rows' median times.
    pub fn total_time(&self) -> Duration {
        self.rows.iter().map(|r| r.time).sum()
    }

    /// Overall nodes per second: total nodes over total time.
    pub fn nps(&self) -> f64 {
        per_second(self.total_nodes(), self.total_time())
    }

    /// The rows whose score is wrong.
    pub fn wrong(&self) -> Vec<&Row> {
        self.rows
            .iter()
            .filter(|r| r.verdict() == Verdict::Wrong)
            .collect()
    }

    /// Rows the suite gives no score for.
    pub fn unchecked(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict() == Verdict::Unchecked)
            .count()
    }

    /// Rows whose search reached a limit of the run.
    pub fn unfinished(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict() == Verdict::Unfinished)
            .count()
    }

    /// True when no row is wrong.
    pub fn all_correct(&self) -> bool {
        self.rows.iter().all(|r| r.verdict() != Verdict::Wrong)
    }
}

/// What a run reports while it goes.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A solve starts: repeat `run` (0-based) of the position at `index` in the suite.
    Start {
        /// 0-based repeat.
        run: usize,
        /// Index in the suite.
        index: usize,
        /// The position.
        position: &'a BenchPosition,
    },
    /// A row is final (its last repeat is done). Rows come in suite order.
    Row(&'a Row),
}

/// A position of a suite that the solver refuses: too deep to finish without a limit or `force`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Where the position came from.
    pub source: Source,
    /// Why it is refused.
    pub reason: TooManyEmpties,
}

/// Every position of `suite` that `solver` would refuse (see [`Solver::check_feasible`]), in
/// suite order, so that a suite that would never finish is refused as a whole before anything
/// is measured; the table is cleared afterwards. The flag says that a stop request cut the
/// check short (after the refusals returned).
pub fn refusals(solver: &mut Solver, suite: &Suite) -> (Vec<Refused>, bool) {
    let stop = solver.stop_handle();
    let mut refused = Vec::new();
    for entry in &suite.positions {
        if let Err(reason) = solver.check_feasible(&entry.position) {
            refused.push(Refused {
                source: entry.source.clone(),
                reason,
            });
        }
        if stop.is_stopped() {
            return (refused, true);
        }
    }
    solver.clear();
    (refused, false)
}

/// Solves every position of `suite` `options.repeat` times (the whole suite once, then again),
/// clearing the solver's table before each position unless `options.keep_hash` (and then
/// taking the table memory of the deepest position before the first, see
/// [`Solver::prepare`], so that no row's time holds it), and calls
/// `on_event` before each solve and when a row is final. A stop request (see
/// [`Solver::stop_handle`]) ends the run: the report then holds the positions solved at least
/// once, with the median of the times measured so far, and `interrupted` set. A position the
/// solver refuses ends the run with that refusal (a solver built with `force` refuses none:
/// check the suite first with [`refusals`]).
pub fn run(
    solver: &mut Solver,
    suite: &Suite,
    options: &RunOptions,
    mut on_event: impl FnMut(Event<'_>),
) -> Result<BenchReport, Refused> {
    let repeat = options.repeat.max(1);
    if !options.keep_hash {
        // The table's memory is taken before the first position is timed, not during it.
        solver.clear();
        let deepest = suite
            .positions
            .iter()
            .map(|entry| entry.position.board.empties());
        solver.prepare(deepest.max().unwrap_or(0));
    }
    let mut rows: Vec<Row> = Vec::with_capacity(suite.positions.len());
    let mut interrupted = false;
    'runs: for run in 0..repeat {
        for (index, entry) in suite.positions.iter().enumerate() {
            on_event(Event::Start {
                run,
                index,
                position: entry,
            });
            if !options.keep_hash {
                solver.clear();
            }
            // A search stopped by a limit of the run gives a row without a score.
            let (score, best_move, nodes, time, unfinished) = match solver.solve(&entry.position) {
                Ok(solution) => (
                    solution.score,
                    solution.best_move,
                    solution.nodes,
                    solution.time,
                    None,
                ),
                Err(error) if error.is_interrupted() => {
                    interrupted = true;
                    break 'runs;
                }
                Err(SolveError::Refused(reason)) => {
                    return Err(Refused {
                        source: entry.source.clone(),
                        reason,
                    })
                }
                Err(SolveError::Unfinished(stopped)) => (
                    0,
                    BestMove::GameOver,
                    stopped.nodes,
                    stopped.time,
                    Some(stopped.bounds.reason),
                ),
            };
            if run == 0 {
                rows.push(Row {
                    number: entry.number,
                    empties: entry.position.board.empties(),
                    expected: entry.expected,
                    score,
                    consistent: true,
                    best_move,
                    nodes,
                    time,
                    times: vec![time],
                    source: entry.source.clone(),
                    unfinished,
                });
            } else {
                let row = &mut rows[index];
                row.consistent &= row.score == score || row.unfinished.is_some();
                row.unfinished = row.unfinished.or(unfinished);
                row.times.push(time);
            }
            if run + 1 == repeat {
                let row = &mut rows[index];
                row.time = median(&row.times);
                on_event(Event::Row(row));
            }
        }
    }
    if interrupted {
        // Rows cut short by the stop still report the median of the solves they had.
        for row in &mut rows {
            row.time = median(&row.times);
        }
    }
    Ok(BenchReport {
        suite: suite.name.clone(),
        suite_len: suite.positions.len(),
        rows,
        repeat,
        keep_hash: options.keep_hash,
        threads: solver.threads(),
        hash_mb: solver.options().hash_mb,
        variant: suite.variant,
        interrupted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SolveOptions;

    #[test]
    fn builtin_suites_are_numbered_from_their_first_position() {
        let s = Suite::builtin("ffo40-49").unwrap();
        assert_eq!(s.positions.len(), 10);
        assert_eq!(s.positions[0].number, 40);
        assert_eq!(s.positions[0].position.board.empties(), 20);
        assert_eq!(s.positions[0].expected, Some(38));
        assert_eq!(s.positions[9].number, 49);
        assert_eq!(s.positions[9].expected, Some(16));
        let s = Suite::builtin("ffo40-59").unwrap();
        assert_eq!(s.positions.len(), 20);
        assert_eq!(s.positions[19].number, 59);
        assert_eq!(s.positions[19].position.board.empties(), 34);
        let s = Suite::builtin("ffo1-19").unwrap();
        assert_eq!(s.positions.len(), 19);
        assert_eq!(
            (s.positions[0].number, s.positions[0].expected),
            (1, Some(18))
        );
        assert_eq!(s.positions[18].number, 19);
        for name in BUILTIN_SUITES {
            let s = Suite::builtin(name).unwrap();
            assert!(s.positions.iter().all(|p| p.expected.is_some()), "{name}");
        }
        assert!(Suite::builtin("ffo60-79").is_none());
    }

    #[test]
    fn built_in_suites_under_other_rules_keep_no_othello_scores() {
        use crate::board::rules::{Rules, Scoring};
        let othello = Suite::builtin("ffo40-49").unwrap();
        for (rules, scoring) in [
            (Rules::Reversi, Scoring::Official),
            (Rules::Othello, Scoring::Raw),
        ] {
            let variant = Variant { rules, scoring };
            let s = Suite::load_with("ffo40-49", variant).unwrap();
            assert_eq!(s.variant, variant);
            assert_eq!(s.positions.len(), 10);
            for (p, o) in s.positions.iter().zip(&othello.positions) {
                assert_eq!((p.number, p.position.board), (o.number, o.position.board));
                assert_eq!(p.position.variant(), variant);
                assert_eq!(p.expected, None);
            }
        }
        // Reversi supplies derived from the board: no pass so far (FFO #40: 20 empties).
        let s = Suite::builtin_with(
            "ffo40-49",
            Variant {
                rules: Rules::Reversi,
                ..Variant::default()
            },
        )
        .unwrap();
        let supplies = s.positions[0].position.supplies().unwrap();
        assert_eq!(supplies.black + supplies.white, 20);
    }

    #[test]
    fn files_are_numbered_by_line_and_take_the_best_score() {
        let text = "# two positions\n\
            ---------------------------OX------XO--------------------------- X; F5:-2; D3:+0;\n\
            \n\
            f5d6\n";
        let s = Suite::from_reader(text.as_bytes(), "t.obf").unwrap();
        assert_eq!(s.positions.len(), 2);
        assert_eq!(
            (s.positions[0].number, s.positions[0].expected),
            (2, Some(0))
        );
        assert_eq!((s.positions[1].number, s.positions[1].expected), (4, None));
        let empty = Suite::from_reader("# nothing\n".as_bytes(), "e").unwrap_err();
        assert!(matches!(&empty, BenchError::Empty(NoPositions { name }) if name == "e"));
        let e = Suite::from_reader("f5\nzz\n".as_bytes(), "bad.obf").unwrap_err();
        assert!(e.to_string().starts_with("bad.obf:2"), "{e}");
    }

    #[test]
    fn runs_repeat_and_judge() {
        // FFO #1 after the first moves of its line is small enough for a unit test.
        let text = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n\
            --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+20;\n\
            --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;\n";
        let suite = Suite::from_reader(text.as_bytes(), "t").unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            wld: false,
            force: false,
            progress: None,
        })
        .unwrap();
        let mut starts = 0;
        let mut rows = Vec::new();
        let options = RunOptions {
            repeat: 3,
            keep_hash: false,
        };
        let report = run(&mut solver, &suite, &options, |e| match e {
            Event::Start { .. } => starts += 1,
            Event::Row(r) => rows.push(r.number),
        })
        .unwrap();
        assert_eq!(starts, 9);
        assert_eq!(rows, vec![1, 2, 3]);
        assert!(!report.interrupted);
        assert_eq!(report.rows.len(), 3);
        let verdicts: Vec<_> = report.rows.iter().map(Row::verdict).collect();
        assert_eq!(
            verdicts,
            vec![Verdict::Correct, Verdict::Wrong, Verdict::Unchecked]
        );
        assert!(report
            .rows
            .iter()
            .all(|r| r.times.len() == 3 && r.score == 18));
        assert_eq!(report.rows[0].time, median(&report.rows[0].times));
        // Cleared tables: the same position costs the same nodes every time.
        assert_eq!(report.rows[0].nodes, report.rows[2].nodes);
        assert_eq!(report.wrong().len(), 1);
        assert_eq!(report.unchecked(), 1);
        assert!(!report.all_correct());
        assert_eq!(report.total_nodes(), 3 * report.rows[0].nodes);
    }

    #[test]
    fn a_stopped_solver_ends_the_run() {
        let suite = Suite::builtin("ffo1-19").unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            wld: false,
            force: false,
            progress: None,
        })
        .unwrap();
        solver.stop_handle().stop();
        let report = run(&mut solver, &suite, &RunOptions::default(), |_| {}).unwrap();
        assert!(report.interrupted);
        assert!(report.rows.is_empty());
        assert_eq!(report.suite_len, 19);
    }

    #[test]
    fn a_suite_too_deep_to_finish_is_refused() {
        // FFO #1, then the start (60 empties).
        let text = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n\
            ---------------------------OX------XO--------------------------- X\n";
        let suite = Suite::from_reader(text.as_bytes(), "t").unwrap();
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: 4,
            ..SolveOptions::default()
        })
        .unwrap();
        let start = Refused {
            source: Source::new("t", 2),
            reason: TooManyEmpties { empties: 60 },
        };
        assert_eq!(refusals(&mut solver, &suite), (vec![start.clone()], false));
        // A solver that is not forced refuses it itself, and that ends the run.
        let mut rows = 0;
        let result = run(&mut solver, &suite, &RunOptions::default(), |e| {
            rows += usize::from(matches!(e, Event::Row(_)));
        });
        assert_eq!((result, rows), (Err(start), 1));
    }
}
