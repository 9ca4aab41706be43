//! Criterion benchmarks of the learned evaluation: the pattern indices of a board, and a whole
//! evaluation with the shipped weights (what the search pays per ordered child), on positions
//! of 14 to 26 empties from seeded random games. One call per iteration on the next input of a
//! 1024-entry set, so the reported time is the cost of one call. The `_portable` entries time
//! the gather path the fast one is tested against.
//!
//! With `OSOLVE_EVAL_LOOP=N` (or `OSOLVE_INDEX_LOOP=N`) in the environment the binary skips
//! criterion and runs N evaluations (or N index computations) over the same set, then prints
//! a checksum: a fixed amount of work whose instruction count `valgrind --tool=callgrind`
//! measures exactly, and whose CPU time a loaded machine inflates less than wall time.

use criterion::Criterion;
use osolve::board::random::{random_position, Rng};
use osolve::eval::patterns::{instance_indices, instance_indices_portable};
use osolve::eval::{builtin, evaluate_mobility_portable, evaluate_with, feature_indices};
use std::hint::black_box;

const SET: usize = 1024;

fn boards() -> Vec<(u64, u64)> {
    let mut rng = Rng(0x005E_ED0F_E7A1);
    (0..SET)
        .map(|i| {
            let p = random_position(&mut rng, 14 + (i % 13) as u32);
            (p.board.player, p.board.opponent)
        })
        .collect()
}

fn weights() -> &'static [i16] {
    builtin()
        .set(20)
        .expect("the shipped weights have a set for 20 empties")
}

fn bench(c: &mut Criterion) {
    let boards = boards();
    let set = weights();
    let mut group = c.benchmark_group("eval");
    let mut i = 0;
    group.bench_function("pattern_indices", |b| {
        b.iter(|| {
            i = (i + 1) & (SET - 1);
            let (p, o) = boards[i];
            black_box(instance_indices(black_box(p), black_box(o)))
        })
    });
    group.bench_function("pattern_indices_portable", |b| {
        b.iter(|| {
            i = (i + 1) & (SET - 1);
            let (p, o) = boards[i];
            black_box(instance_indices_portable(black_box(p), black_box(o)))
        })
    });
    group.bench_function("feature_indices", |b| {
        b.iter(|| {
            i = (i + 1) & (SET - 1);
            let (p, o) = boards[i];
            black_box(feature_indices(black_box(p), black_box(o)))
        })
    });
    group.bench_function("evaluate", |b| {
        b.iter(|| {
            i = (i + 1) & (SET - 1);
            let (p, o) = boards[i];
            black_box(evaluate_with(set, black_box(p), black_box(o)))
        })
    });
    group.bench_function("evaluate_portable", |b| {
        b.iter(|| {
            i = (i + 1) & (SET - 1);
            let (p, o) = boards[i];
            let (p, o) = (black_box(p), black_box(o));
            let mine = osolve::board::legal_moves(p, o).count_ones();
            let theirs = osolve::board::legal_moves(o, p).count_ones();
            black_box(evaluate_mobility_portable(set, p, o, mine, theirs))
        })
    });
    group.finish();
}

/// `n` calls of `evaluate_with` (or of `instance_indices` when `indices`), for callgrind and
/// CPU-time counts; the checksum keeps them alive and shows two builds computed the same.
fn fixed_loop(n: usize, indices: bool) {
    let boards = boards();
    let set = weights();
    let mut checksum = 0i64;
    for k in 0..n {
        let (p, o) = boards[k & (SET - 1)];
        checksum += if indices {
            i64::from(instance_indices(black_box(p), black_box(o))[k % 46])
        } else {
            i64::from(evaluate_with(set, black_box(p), black_box(o)))
        };
    }
    let what = if indices {
        "index computations"
    } else {
        "evaluations"
    };
    println!("{n} {what}, checksum {checksum}");
}

fn main() {
    for (var, indices) in [("OSOLVE_EVAL_LOOP", false), ("OSOLVE_INDEX_LOOP", true)] {
        if let Some(n) = std::env::var(var).ok().and_then(|v| v.parse().ok()) {
            fixed_loop(n, indices);
            return;
        }
    }
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
}
