//! Criterion benchmarks of the solver: exact solves of fixed positions with 10, 14 and 18 empty
//! squares on one thread, and the transposition tables' probe and store on one and two threads.
//!
//! The positions are FFO #40, #41 and #42 after the first moves of their perfect-play lines,
//! fixed here as board strings so that the benchmark never changes under a changing solver.
//! Each solve starts from cleared tables (the clearing is not timed), so every iteration does
//! the same work; the node count of one solve is printed once and given to criterion as the
//! throughput, so its `thrpt` line reads directly in nodes per second.
//!
//! The table benchmarks use random boards from a fixed seed. On two threads both threads work
//! on the same table at once; one iteration is one call on each thread, so the time is the
//! wall time of a call under contention and `thrpt` counts the calls of both threads.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use osolve::board::random::Rng;
use osolve::board::Board;
use osolve::notation::parse_position;
use osolve::search::tt::{NearTable, TranspositionTable, EXACT};
use osolve::search::{SolveOptions, Solver};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Positions to solve: (empties, where it comes from, board string, exact score).
const POSITIONS: [(u32, &str, &str, i32); 3] = [
    (
        10,
        "FFO #40 after 10 moves of its line",
        "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-O-XOOOXXOOOX--X-X---X-- O",
        -38,
    ),
    (
        14,
        "FFO #41 after 8 moves of its line",
        "-OOOOO--X-OOOOX-XXOOOOO-XOXXOXOX-XXXXXXOOOXOOXO---OXOO---OOOOOO- X",
        0,
    ),
    (
        18,
        "FFO #42 after 4 moves of its line",
        "--OOO-OO--X-XOOOOOOXOOXO-OOOXXXOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
        6,
    ),
];

/// Table size of the solves, in MiB: ample for these positions, and quick to clear.
const SOLVE_HASH_MB: usize = 64;

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    for (empties, origin, text, score) in POSITIONS {
        let position = parse_position(text).expect("a valid board string").position;
        assert_eq!(position.board.empties(), empties, "{origin}");
        let mut solver = Solver::new(SolveOptions {
            threads: 1,
            hash_mb: SOLVE_HASH_MB,
            wld: false,
            force: false,
            progress: None,
        })
        .expect("one search thread");
        let first = solver.solve(&position).expect("nothing stops the solver");
        solver.clear();
        let second = solver.solve(&position).expect("nothing stops the solver");
        assert_eq!(first.score, score, "{origin}");
        assert_eq!(
            first.nodes, second.nodes,
            "a single-threaded solve from cleared tables must be repeatable"
        );
        println!(
            "solve/{empties}: {origin}, score {score:+}, {} nodes per solve",
            first.nodes
        );
        group.throughput(Throughput::Elements(first.nodes));
        if empties >= 18 {
            // Tens of milliseconds per solve: fewer samples keep the run within its time.
            group.sample_size(20);
        }
        group.bench_function(BenchmarkId::from_parameter(empties), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    solver.clear();
                    let start = Instant::now();
                    let solution = solver.solve(black_box(&position));
                    total += start.elapsed();
                    black_box(solution.expect("nothing stops the solver"));
                }
                total
            });
        });
    }
    group.finish();
}

/// Boards each thread probes and stores: a power of two, so the next index is a mask.
const BOARDS: usize = 1 << 16;

/// A random board (varying density), with its hash.
fn random_board(rng: &mut Rng) -> (Board, u64) {
    let (player, opponent) = rng.board();
    let board = Board { player, opponent };
    (board, board.hash())
}

/// A set of boards per thread, different between threads.
fn board_sets(threads: usize) -> Vec<Vec<(Board, u64)>> {
    let mut rng = Rng(0x5EED_0B0A_4D00_0001);
    (0..threads)
        .map(|_| (0..BOARDS).map(|_| random_board(&mut rng)).collect())
        .collect()
}

/// Times `op(thread, i)` for i in 0..iters on each of `threads` threads at once (one thread
/// runs on the caller).
fn run_threads(threads: usize, iters: u64, op: impl Fn(usize, usize) + Sync) -> Duration {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for t in 1..threads {
            let op = &op;
            scope.spawn(move || (0..iters as usize).for_each(|i| op(t, i)));
        }
        (0..iters as usize).for_each(|i| op(0, i));
    });
    start.elapsed()
}

fn tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt");
    for threads in [1, 2] {
        let sets = board_sets(threads);
        group.throughput(Throughput::Elements(threads as u64));

        // The DashMap table of the deep search, filled with every board first so probes hit.
        let deep = TranspositionTable::new(64).expect("a small table");
        for (board, hash) in sets.iter().flatten() {
            deep.store(board, *hash, 20, 0, 1, 4, 12, EXACT);
        }
        group.bench_function(BenchmarkId::new("deep_probe", threads), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, |t, i| {
                    let (board, hash) = &sets[t][i & (BOARDS - 1)];
                    black_box(deep.probe(black_box(board), *hash));
                })
            });
        });
        group.bench_function(BenchmarkId::new("deep_store", threads), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, |t, i| {
                    let (board, hash) = &sets[t][i & (BOARDS - 1)];
                    let score = (i & 31) as i32 - 16;
                    deep.store(black_box(board), *hash, 20, -1, 1, score, 12, EXACT);
                })
            });
        });

        // The lock-free table just above the shallow search.
        let near = NearTable::new(8 << 20).expect("a small table");
        for (board, hash) in sets.iter().flatten() {
            near.store(board, *hash, 0, 1, 4, 12);
        }
        group.bench_function(BenchmarkId::new("near_probe", threads), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, |t, i| {
                    let (board, hash) = &sets[t][i & (BOARDS - 1)];
                    black_box(near.probe(black_box(board), *hash));
                })
            });
        });
        group.bench_function(BenchmarkId::new("near_store", threads), |b| {
            b.iter_custom(|iters| {
                run_threads(threads, iters, |t, i| {
                    let (board, hash) = &sets[t][i & (BOARDS - 1)];
                    let score = (i & 31) as i32 - 16;
                    near.store(black_box(board), *hash, -1, 1, score, 12);
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, solves, tables);
criterion_main!(benches);
