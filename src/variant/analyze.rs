//! The batch analysis of `osolve analyze` under a rules variant: the same [`Analysis`] records,
//! [`Sink`], options, sharding, resuming and checks as [`crate::analyze`], computed by the
//! variant solver. Positions are taken in batches of a few per thread, each batch solved in
//! parallel (one single-threaded [`VariantSolver`] per task) and handed to the sink in input
//! order, so memory stays flat however long the input is. Each pool thread keeps its solver,
//! and so its table, from one batch to the next. Simpler than the Othello driver: a
//! deep position does not get every thread to itself.

use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use super::solver::{VariantOptions, VariantSolver};
use super::{Rules, Variant, VariantPosition};
use crate::analyze::{check, Analysis, AnalyzeError, AnalyzeOptions, Sink, Summary};
use crate::notation::{open_path, ParseError, ParseErrorKind, Parsed};
use crate::search::{MoveScore, Stopped};

/// Positions solved together, per thread.
const BATCH_PER_THREAD: usize = 4;

/// A [`Sink`] that also sees the variant position of each analysis (with its discs left), just
/// before [`Sink::analysed`] receives the analysis.
pub trait VariantSink: Sink {
    /// The position of the analysis handed over next.
    fn position(&mut self, position: &VariantPosition) -> io::Result<()>;
}

/// The items of several inputs in turn, read under `rules` (see [`crate::analyze::inputs`]).
pub fn inputs(
    paths: Vec<PathBuf>,
    rules: Rules,
) -> impl Iterator<Item = Result<Parsed, ParseError>> {
    paths.into_iter().flat_map(
        move |path| -> Box<dyn Iterator<Item = Result<Parsed, ParseError>>> {
            match open_path(&path) {
                Ok(reader) => Box::new(reader.with_rules(rules)),
                Err(error) => Box::new(std::iter::once(Err(error))),
            }
        },
    )
}

/// Analyses one position of a variant with `solver` (whose options carry `options.wld` and
/// the scoring).
pub fn analyze_position(
    solver: &mut VariantSolver,
    parsed: &Parsed,
    position: &VariantPosition,
    index: usize,
    options: &AnalyzeOptions,
) -> Result<Analysis, Stopped> {
    let start = Instant::now();
    let (moves, best_score, best_moves, nodes) = if options.best_only {
        let (score, best, nodes) = solver.best_moves(position)?;
        let moves = best.iter().map(|&mv| MoveScore { mv, score }).collect();
        (moves, score, best, nodes)
    } else {
        let (moves, nodes) = solver.score_moves(position)?;
        let final_score = solver.options().scoring.score(&position.game.board);
        let best_score = moves.first().map_or(
            if options.wld {
                final_score.signum()
            } else {
                final_score
            },
            |m| m.score,
        );
        let best = crate::analyze::best_moves_of(&moves, best_score);
        (moves, best_score, best, nodes)
    };
    let mut analysis = Analysis {
        index,
        source: parsed.source.clone(),
        position: position.position(),
        moves,
        best_score,
        best_moves,
        nodes,
        time: start.elapsed(),
        check: None,
        unfinished: None,
    };
    if options.check {
        analysis.check = check(parsed, &analysis, options);
    }
    Ok(analysis)
}

/// One input item on its way to the sink.
enum Item {
    Bad(ParseError),
    Resumed(Parsed),
    Solve(usize, Parsed, VariantPosition),
}

/// Table size of each solver: its share of `hash_mb`, as a power of two of 24-byte entries.
fn table_bits(hash_mb: usize, threads: usize) -> u32 {
    let bytes = (hash_mb.max(1) << 20) / threads.max(1);
    let entries = (bytes / 24).max(1 << 10);
    (usize::BITS - 1 - entries.leading_zeros()).min(super::solver::DEFAULT_TABLE_BITS)
}

/// Runs the analysis of `items` under `variant` and hands every result to `sink` in input
/// order. Stops when `stop` is set (the summary then says `interrupted`, and nothing after the
/// first unfinished position is reported) or, with `strict`, at the first bad line.
pub fn analyze<I>(
    items: I,
    options: &AnalyzeOptions,
    variant: Variant,
    stop: Arc<AtomicBool>,
    sink: &mut dyn VariantSink,
) -> Result<Summary, AnalyzeError>
where
    I: Iterator<Item = Result<Parsed, ParseError>>,
{
    let start = Instant::now();
    let (pool, threads) = crate::search::thread_pool(options.threads)?;
    let solver_options = VariantOptions {
        scoring: variant.scoring,
        wld: options.wld,
        table_bits: table_bits(options.hash_mb, threads),
    };
    // One solver per pool thread, found by the thread's index.
    let solvers: Vec<Mutex<VariantSolver>> = (0..threads)
        .map(|_| Mutex::new(VariantSolver::with_stop(solver_options, stop.clone())))
        .collect();
    let mut run = Run {
        options,
        sink,
        summary: Summary::default(),
        batch: Vec::new(),
        solving: 0,
    };
    let batch_size = BATCH_PER_THREAD * threads;
    let mut next_index = 0;
    let mut resume_left = options.skip;
    for item in items {
        if stop.load(Ordering::SeqCst) {
            run.summary.interrupted = true;
            break;
        }
        let parsed = match item {
            Ok(parsed) => parsed,
            Err(error) => {
                run.batch.push(Item::Bad(error));
                if options.strict {
                    run.summary.stopped_at_bad_line = true;
                    break;
                }
                continue;
            }
        };
        let position = match VariantPosition::new(parsed.position, parsed.supplies, variant.rules) {
            Ok(position) => position,
            Err(e) => {
                run.batch.push(Item::Bad(ParseError {
                    at: parsed.source.clone(),
                    column: None,
                    kind: ParseErrorKind::Rules(e),
                }));
                if options.strict {
                    run.summary.stopped_at_bad_line = true;
                    break;
                }
                continue;
            }
        };
        let index = next_index;
        next_index += 1;
        if !options.shard.contains(index) {
            continue;
        }
        if resume_left > 0 {
            resume_left -= 1;
            run.batch.push(Item::Resumed(parsed));
            continue;
        }
        run.batch.push(Item::Solve(index, parsed, position));
        run.solving += 1;
        if run.solving >= batch_size && !run.flush(&pool, &solvers, &stop)? {
            break;
        }
    }
    run.flush(&pool, &solvers, &stop)?;
    let mut summary = run.summary;
    summary.time = start.elapsed();
    Ok(summary)
}

/// The items read but not yet reported, and the totals so far.
struct Run<'a> {
    options: &'a AnalyzeOptions,
    sink: &'a mut dyn VariantSink,
    summary: Summary,
    batch: Vec<Item>,
    /// Positions to solve in the batch.
    solving: usize,
}

impl Run<'_> {
    /// Solves the batch's positions in parallel and reports the batch in order; false when the
    /// run was stopped.
    fn flush(
        &mut self,
        pool: &rayon::ThreadPool,
        solvers: &[Mutex<VariantSolver>],
        stop: &Arc<AtomicBool>,
    ) -> Result<bool, AnalyzeError> {
        let options = self.options;
        let batch = std::mem::take(&mut self.batch);
        self.solving = 0;
        let results: Vec<Option<Result<Analysis, Stopped>>> = pool.install(|| {
            batch
                .par_iter()
                .map(|item| match item {
                    Item::Solve(index, parsed, position) => {
                        let thread = rayon::current_thread_index().unwrap_or(0);
                        let mut solver = solvers[thread % solvers.len()]
                            .lock()
                            .unwrap_or_else(|e| e.into_inner());
                        Some(analyze_position(
                            &mut solver,
                            parsed,
                            position,
                            *index,
                            options,
                        ))
                    }
                    Item::Bad(_) | Item::Resumed(_) => None,
                })
                .collect()
        });
        for (item, result) in batch.into_iter().zip(results) {
            match (item, result) {
                (Item::Bad(error), _) => {
                    self.summary.bad_lines += 1;
                    self.sink.bad_line(&error)?;
                }
                (Item::Resumed(parsed), _) => {
                    self.summary.resumed += 1;
                    self.sink.resumed(&parsed)?;
                }
                (Item::Solve(_, _, position), Some(Ok(analysis))) => {
                    self.count(&analysis);
                    self.sink.position(&position)?;
                    self.sink.analysed(&analysis)?;
                }
                (Item::Solve(..), _) => {
                    self.summary.interrupted = true;
                    return Ok(false);
                }
            }
        }
        Ok(!stop.load(Ordering::SeqCst))
    }

    /// Adds a finished position to the totals.
    fn count(&mut self, analysis: &Analysis) {
        let summary = &mut self.summary;
        summary.positions += 1;
        summary.moves += analysis.moves.len();
        summary.nodes += analysis.nodes;
        match &analysis.check {
            Some(mismatches) => {
                summary.checked += 1;
                if mismatches.is_empty() {
                    summary.correct += 1;
                } else {
                    summary.wrong += 1;
                }
            }
            None if self.options.check => summary.unchecked += 1,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::PositionReader;
    use crate::variant::{reference, Scoring};

    /// Records what the driver hands over.
    #[derive(Default)]
    struct Recorder {
        events: Vec<String>,
        positions: usize,
    }

    impl Sink for Recorder {
        fn register(&mut self, _handle: crate::search::StopHandle) {}
        fn resumed(&mut self, parsed: &Parsed) -> io::Result<()> {
            self.events.push(format!("resumed {}", parsed.source));
            Ok(())
        }
        fn analysed(&mut self, analysis: &Analysis) -> io::Result<()> {
            self.events
                .push(format!("{} {:+}", analysis.source, analysis.best_score));
            Ok(())
        }
        fn bad_line(&mut self, error: &ParseError) -> io::Result<()> {
            self.events.push(format!("bad {}", error.at));
            Ok(())
        }
    }

    impl VariantSink for Recorder {
        fn position(&mut self, _position: &VariantPosition) -> io::Result<()> {
            self.positions += 1;
            Ok(())
        }
    }

    #[test]
    fn results_come_in_order_and_match_the_reference() {
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
            PositionReader::new(io::Cursor::new(lines.as_bytes()), "t").with_rules(Rules::Reversi);
        let mut recorder = Recorder::default();
        let options = AnalyzeOptions {
            threads: 2,
            hash_mb: 4,
            ..AnalyzeOptions::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let summary = analyze(items, &options, variant, stop, &mut recorder).unwrap();
        assert_eq!((summary.positions, summary.bad_lines), (2, 2));
        assert_eq!(recorder.positions, 2);
        let expect = |line: &str| {
            let parsed = crate::notation::parse_text_with(
                line,
                crate::notation::Source::inline(),
                Rules::Reversi,
            )
            .unwrap();
            let position =
                VariantPosition::new(parsed.position, parsed.supplies, Rules::Reversi).unwrap();
            reference::minimax(&position, Scoring::Raw)
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

    #[test]
    fn tables_share_the_memory() {
        assert_eq!(table_bits(256, 2), 20);
        assert_eq!(table_bits(4, 2), 16);
        assert_eq!(table_bits(1, 64), 10);
    }
}
