//! `osolve gen`: training positions from games played by a seeded generator, one position per
//! game at a random number of empties, kept only if no symmetric image was kept before, then
//! labelled in parallel (one single-threaded solver per worker) and written in generation
//! order, so the same options give the same file on any machine and any thread count.

use std::cell::RefCell;
use std::collections::HashSet;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{canonical, eval_search};
use crate::board::random::Rng;
use crate::board::{Bits, Position, Square};
use crate::eval::{Weights, SCALE};
use crate::huge_pages::{TablePart, TablesRefused};
use crate::search::{
    Limits, SearchError, SolveOptions, Solver, StopHandle, TooManyEmpties, FEASIBLE_EMPTIES,
};

/// How the games are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly random legal moves.
    Random,
    /// Lightly randomised self-play: the first `random_plies` moves are random, then the move
    /// with the best 1-ply evaluation, except a random one with probability `epsilon`.
    SelfPlay {
        /// Opening moves chosen at random.
        random_plies: u32,
        /// Chance of a random move afterwards.
        epsilon: f64,
    },
}

/// How the positions are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The exact score (the solver).
    Exact,
    /// A depth-limited search with the evaluation, rounded to whole discs.
    Search {
        /// Plies.
        depth: u32,
    },
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Labelled positions wanted.
    pub positions: usize,
    /// Fewest empties of a position.
    pub min_empties: u32,
    /// Most empties of a position.
    pub max_empties: u32,
    /// Seed of the game generator.
    pub seed: u64,
    /// Labelling threads (0 = one per core).
    pub threads: usize,
    /// Transposition table per labelling thread, MiB.
    pub hash_mb: usize,
    /// How games are played.
    pub policy: Policy,
    /// How positions are labelled.
    pub label: Label,
    /// Limits of each exact label's search: a position whose search reaches one is dropped
    /// (its label would not be exact) and counted in [`GenStats::unfinished`].
    pub limits: Limits,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    /// Games played.
    pub games: u64,
    /// Positions dropped because a symmetric image was already kept.
    pub duplicates: u64,
    /// Positions written.
    pub positions: u64,
    /// Positions dropped because their search reached a limit (they count towards the
    /// positions asked for, so that a run always ends).
    pub unfinished: u64,
    /// Positions written and labelling time (summed over threads) per number of empties.
    pub by_empties: Vec<(u32, u64, Duration)>,
    /// Solver nodes.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// True when the run ended early because the games stopped finding new positions: no
    /// new distinct position in [`EXHAUSTED_AFTER`] games in a row (the range holds fewer
    /// positions than asked, e.g. three at 58 empties).
    pub exhausted: bool,
}

/// Games in a row without a new distinct position after which the range counts as
/// exhausted. A position the games reach with chance p per game is missed with chance
/// (1 - p)^20000, under 1e-8 for p = 1/1000; one game costs microseconds, so this bounds the
/// wait to a fraction of a second with random games (a few seconds with self-play).
pub const EXHAUSTED_AFTER: u64 = 20_000;

/// Why a run ended early.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// The solver could not start (its threads, or with one labelling thread its table).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The system refused the memory of the labelling threads' tables (one each), or left too
    /// little beside them: all of them are named.
    #[error(transparent)]
    Tables(TablesRefused),
    /// Interrupted: the positions written so far are complete lines.
    #[error("interrupted")]
    Stopped(GenStats),
    /// Writing failed.
    #[error("cannot write the positions: {0}")]
    Io(#[from] std::io::Error),
}

/// A range of empties whose exact labels would never come: some positions would have more
/// empties than an exact solve finishes with ([`FEASIBLE_EMPTIES`]), with no limit to drop them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "--empties {low}-{high}: {}; use --force to try anyway, or --time-limit / --node-limit (a \
     position whose search reaches the limit is dropped)",
    TooManyEmpties { empties: *high }
)]
pub struct TooDeep {
    /// Fewest empties of the range.
    pub low: u32,
    /// Most empties of the range.
    pub high: u32,
}

/// Refuses, before anything starts, exact labels of a range too deep to solve without a
/// limit ([`TooDeep`]), unless `force`d; search labels and limited searches always pass.
pub fn refuse_too_deep(options: &GenOptions, force: bool) -> Result<(), TooDeep> {
    let hopeless = options.max_empties > FEASIBLE_EMPTIES
        && matches!(options.label, Label::Exact)
        && options.limits.is_none()
        && !force;
    if hopeless {
        return Err(TooDeep {
            low: options.min_empties,
            high: options.max_empties,
        });
    }
    Ok(())
}

/// The rng of game `index`: independent streams from one seed.
fn game_rng(seed: u64, index: u64) -> Rng {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Rng((z ^ (z >> 31)) | 1)
}

/// Plays game `index` and returns its position at a random number of empties in the range, or
/// `None` when the game ended before.
pub fn sample_position(options: &GenOptions, weights: &Weights, index: u64) -> Option<Position> {
    let mut rng = game_rng(options.seed, index);
    let span = options.max_empties - options.min_empties + 1;
    let target = options.min_empties + rng.below(span as usize) as u32;
    let mut position = Position::start();
    let mut ply = 0;
    while position.board.empties() > target {
        let moves = position.board.moves();
        if moves == 0 {
            if position.board.pass().moves() == 0 {
                return None;
            }
            position = position.pass();
            continue;
        }
        let sq = choose(options.policy, weights, &position, moves, ply, &mut rng);
        position = position.play(Square::new(sq)?)?;
        ply += 1;
    }
    Some(position)
}

fn choose(
    policy: Policy,
    weights: &Weights,
    position: &Position,
    moves: u64,
    ply: u32,
    rng: &mut Rng,
) -> usize {
    match policy {
        Policy::Random => rng.pick(moves),
        Policy::SelfPlay {
            random_plies,
            epsilon,
        } => {
            let roll = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if ply < random_plies || roll < epsilon {
                return rng.pick(moves);
            }
            let board = position.board;
            Bits(moves)
                .map(|sq| {
                    let child = board.play_flips(sq, board.flips(sq));
                    let v = -eval_search(
                        weights,
                        child.player,
                        child.opponent,
                        0,
                        -64 * SCALE - 1,
                        64 * SCALE + 1,
                        &mut 0,
                    );
                    // Ties broken at random so that self-play games differ.
                    (v, rng.below(1 << 16), sq)
                })
                .max()
                .map_or(0, |(_, _, sq)| sq)
        }
    }
}

thread_local! {
    static SOLVER: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// Labels `position`: the score for the side to move, the nodes and the time it took; `None`
/// when its search reached a limit of `options`.
fn label(
    options: &GenOptions,
    weights: &Weights,
    position: &Position,
    control: &Control<'_>,
) -> Result<Option<(i32, u64, Duration)>, GenError> {
    let start = Instant::now();
    match options.label {
        Label::Search { depth } => {
            if (control.stopped)() {
                return Err(GenError::Stopped(GenStats::default()));
            }
            let b = position.board;
            let mut nodes = 0;
            let v = eval_search(
                weights,
                b.player,
                b.opponent,
                depth,
                -65 * SCALE,
                65 * SCALE,
                &mut nodes,
            );
            let discs = (v as f64 / SCALE as f64).round() as i32;
            Ok(Some((discs.clamp(-64, 64), nodes, start.elapsed())))
        }
        Label::Exact => SOLVER.with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.is_none() {
                let solver = Solver::new(SolveOptions {
                    threads: 1,
                    hash_mb: options.hash_mb,
                    wld: false,
                    // The run refuses positions too deep for their labels before they come
                    // here.
                    force: true,
                    progress: None,
                })
                .map_err(|error| refused(error, options))?;
                (control.register)(solver.stop_handle());
                *slot = Some(solver);
            }
            let solver = slot.as_mut().expect("made above");
            solver.set_limits(options.limits);
            if (control.stopped)() {
                return Err(GenError::Stopped(GenStats::default()));
            }
            match solver.score(position) {
                Ok((score, nodes)) => Ok(Some((score, nodes, start.elapsed()))),
                // A stop request, or else a limit of the run.
                Err(_) if (control.stopped)() => Err(GenError::Stopped(GenStats::default())),
                Err(_) => Ok(None),
            }
        }),
    }
}

/// The error of a labelling solver that could not be made: for memory with more than one
/// labelling thread, every thread's table (each takes `hash_mb`).
fn refused(error: SearchError, options: &GenOptions) -> GenError {
    let threads = crate::search::thread_count(options.threads);
    match error {
        SearchError::Memory { source, .. } if threads > 1 => GenError::Tables(TablesRefused {
            parts: vec![TablePart {
                count: threads,
                megabytes: options.hash_mb,
                purpose: "the labelling threads",
            }],
            source,
        }),
        other => GenError::Search(other),
    }
}

/// How the caller stops a run: `stopped` is polled between positions, and `register` gets the
/// stop handle of every labelling solver (each worker thread has one), which ends a search at
/// once when fired.
pub struct Control<'a> {
    /// True once the run should stop.
    pub stopped: &'a (dyn Fn() -> bool + Sync),
    /// Called with the stop handle of each solver made.
    pub register: &'a (dyn Fn(StopHandle) + Sync),
}

/// Generates and labels `options.positions` positions, calling `write` for each in order and
/// `progress` with the count written so far after each batch; `control` stops it (the
/// positions written are then complete). When the range holds fewer distinct positions than
/// asked, the run writes those it found and returns with [`GenStats::exhausted`] set.
pub fn generate(
    options: &GenOptions,
    weights: &Weights,
    write: &mut dyn FnMut(&Position, i32) -> std::io::Result<()>,
    progress: &dyn Fn(u64),
    control: &Control<'_>,
) -> Result<GenStats, GenError> {
    assert!(options.min_empties <= options.max_empties && options.max_empties <= 60);
    let start = Instant::now();
    let (pool, threads) = crate::search::thread_pool(options.threads)?;
    let mut stats = GenStats {
        by_empties: (options.min_empties..=options.max_empties)
            .map(|e| (e, 0, Duration::ZERO))
            .collect(),
        ..GenStats::default()
    };
    let mut seen = HashSet::new();
    let mut next_game = 0u64;
    let batch = (threads * 32).max(64);
    // Games in a row that found no new distinct position.
    let mut stale = 0u64;
    let done = |stats: &GenStats| (stats.positions + stats.unfinished) as usize;
    while done(&stats) < options.positions && !stats.exhausted {
        let wanted = batch.min(options.positions - done(&stats));
        let mut todo = Vec::with_capacity(wanted);
        while todo.len() < wanted {
            // Polled every game: a signal must stop a run whose games find nothing new.
            if (control.stopped)() {
                stats.elapsed = start.elapsed();
                return Err(GenError::Stopped(stats));
            }
            if stale >= EXHAUSTED_AFTER {
                stats.exhausted = true;
                break;
            }
            let game = next_game;
            next_game += 1;
            stats.games += 1;
            stale += 1;
            if let Some(position) = sample_position(options, weights, game) {
                if seen.insert(canonical(&position.board)) {
                    todo.push(position);
                    stale = 0;
                } else {
                    stats.duplicates += 1;
                }
            }
        }
        let labelled: Vec<_> = pool.install(|| {
            todo.par_iter()
                .map(|p| label(options, weights, p, control))
                .collect()
        });
        for (position, result) in todo.iter().zip(labelled) {
            let (score, nodes, time) = match result {
                Err(GenError::Stopped(_)) => {
                    stats.elapsed = start.elapsed();
                    return Err(GenError::Stopped(stats));
                }
                Ok(None) => {
                    stats.unfinished += 1;
                    continue;
                }
                Ok(Some(label)) => label,
                Err(e) => return Err(e),
            };
            write(position, score)?;
            stats.positions += 1;
            stats.nodes += nodes;
            let row =
                &mut stats.by_empties[(position.board.empties() - options.min_empties) as usize];
            row.1 += 1;
            row.2 += time;
        }
        progress(stats.positions);
    }
    stats.elapsed = start.elapsed();
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::reference::minimax;

    fn options(positions: usize) -> GenOptions {
        GenOptions {
            positions,
            min_empties: 6,
            max_empties: 9,
            seed: 42,
            threads: 2,
            hash_mb: 1,
            policy: Policy::Random,
            label: Label::Exact,
            limits: Limits::NONE,
        }
    }

    #[test]
    fn exact_labels_beyond_the_feasible_empties_need_a_limit_or_force() {
        let deep = GenOptions {
            min_empties: 30,
            max_empties: FEASIBLE_EMPTIES + 1,
            ..options(1)
        };
        let refused = refuse_too_deep(&deep, false).unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!(
                "--empties 30-{high}: {high} empty squares: not solved, an exact solve would not \
                 finish (it takes months or more beyond {FEASIBLE_EMPTIES} empties); use --force \
                 to try anyway, or --time-limit / --node-limit (a position whose search reaches \
                 the limit is dropped)",
                high = FEASIBLE_EMPTIES + 1
            )
        );
        assert!(refuse_too_deep(&deep, true).is_ok());
        let searched = GenOptions {
            label: Label::Search { depth: 4 },
            ..deep.clone()
        };
        assert!(refuse_too_deep(&searched, false).is_ok());
        let limited = GenOptions {
            limits: Limits {
                nodes: Some(1000),
                ..Limits::NONE
            },
            ..deep
        };
        assert!(refuse_too_deep(&limited, false).is_ok());
        assert!(refuse_too_deep(&options(1), false).is_ok());
    }

    fn run(options: &GenOptions) -> Vec<(Position, i32)> {
        let mut out = Vec::new();
        generate(
            options,
            &Weights::empty(),
            &mut |p, s| {
                out.push((*p, s));
                Ok(())
            },
            &|_| {},
            &Control {
                stopped: &|| false,
                register: &|_| {},
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn labels_are_exact_distinct_and_reproducible() {
        let a = run(&options(300));
        assert_eq!(a.len(), 300);
        let mut canon = HashSet::new();
        for (p, score) in &a {
            assert!((6..=9).contains(&p.board.empties()));
            assert_eq!(*score, minimax(p.board), "{p:?}");
            assert!(canon.insert(canonical(&p.board)));
        }
        let one_thread = run(&GenOptions {
            threads: 1,
            ..options(300)
        });
        assert_eq!(a, one_thread);
        let other_seed = run(&GenOptions {
            seed: 43,
            ..options(300)
        });
        assert_ne!(a, other_seed);
    }

    fn run_stats(options: &GenOptions) -> (Vec<(Position, i32)>, GenStats) {
        let mut out = Vec::new();
        let stats = generate(
            options,
            &Weights::empty(),
            &mut |p, s| {
                out.push((*p, s));
                Ok(())
            },
            &|_| {},
            &Control {
                stopped: &|| false,
                register: &|_| {},
            },
        )
        .unwrap();
        (out, stats)
    }

    #[test]
    fn a_range_with_fewer_positions_than_asked_ends_with_those_it_has() {
        // 58 empties: three positions up to symmetry (f5d6, f5f6, f5f4 and their images).
        let (found, stats) = run_stats(&GenOptions {
            min_empties: 58,
            max_empties: 58,
            label: Label::Search { depth: 1 },
            ..options(4)
        });
        assert_eq!(found.len(), 3);
        assert_eq!(stats.positions, 3);
        assert!(stats.exhausted);
        // 59-60 empties: the start and the one position after the first move.
        let (found, stats) = run_stats(&GenOptions {
            min_empties: 59,
            max_empties: 60,
            label: Label::Search { depth: 2 },
            ..options(10)
        });
        assert!(stats.exhausted);
        let mut empties: Vec<_> = found.iter().map(|(p, _)| p.board.empties()).collect();
        empties.sort();
        assert_eq!(empties, [59, 60]);
        // A range with plenty of positions is not cut short.
        let (found, stats) = run_stats(&options(200));
        assert_eq!(found.len(), 200);
        assert!(!stats.exhausted);
    }

    #[test]
    fn a_stop_ends_the_games_even_when_none_is_new() {
        // 60 empties holds one position: the games find nothing new after the first, and a
        // stop must end them before the range counts as exhausted.
        let polls = std::sync::atomic::AtomicU64::new(0);
        let stopped = || polls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 100;
        let mut written = 0;
        let result = generate(
            &GenOptions {
                min_empties: 60,
                max_empties: 60,
                label: Label::Search { depth: 1 },
                ..options(5)
            },
            &Weights::empty(),
            &mut |_, _| {
                written += 1;
                Ok(())
            },
            &|_| {},
            &Control {
                stopped: &stopped,
                register: &|_| {},
            },
        );
        match result {
            Err(GenError::Stopped(stats)) => {
                assert_eq!(stats.positions, 0);
                assert!(stats.games <= 101, "{} games", stats.games);
            }
            other => panic!("expected a stop, got {other:?}"),
        }
        assert_eq!(written, 0);
    }

    #[test]
    fn self_play_and_search_labels() {
        let opts = GenOptions {
            policy: Policy::SelfPlay {
                random_plies: 4,
                epsilon: 0.1,
            },
            label: Label::Search { depth: 2 },
            ..options(50)
        };
        let a = run(&opts);
        assert_eq!(a.len(), 50);
        // With no trained weights a 2-ply search sees only game ends: scores stay in range.
        assert!(a.iter().all(|(_, s)| (-64..=64).contains(s)));
    }
}
