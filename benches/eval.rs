//! Criterion benchmarks of the learned evaluation: the pattern indices of a board, and a whole
//! evaluation with the shipped weights (what the search pays per ordered child), on positions
//! of 14 to 26 empties from seeded random games. One call per iteration on the next input of a
//! 1024-entry set, so the reported time is the cost of one call.

use criterion::{criterion_group, criterion_main, Criterion};
use osolve::board::random::{random_position, Rng};
use osolve::eval::{builtin, evaluate_with, feature_indices, patterns::instance_indices};
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

fn bench(c: &mut Criterion) {
    let boards = boards();
    let weights = builtin();
    let set = weights
        .set(20)
        .expect("the shipped weights have a set for 20 empties");
    let mut group = c.benchmark_group("eval");
    let mut i = 0;
    group.bench_function("pattern_indices", |b| {
        b.iter(|| {
            i = (i + 1) & (SET - 1);
            let (p, o) = boards[i];
            black_box(instance_indices(black_box(p), black_box(o)))
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
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
