//! Criterion benchmarks of the board kernels the solver's hot loop calls: legal moves, flips
//! (portable and dispatched), last-empty flip counts, playing a move and hashing.
//!
//! Inputs are boards met in random games from the start position, at every stage of the game,
//! generated once from a fixed seed, so every call sees a realistic and varied board and runs
//! are comparable. Each iteration makes exactly one call on the next input of a 4096-entry set,
//! so criterion's reported time is the cost of one call (throughput, not latency: consecutive
//! calls are independent and may overlap in the CPU, as they do in a search).

use criterion::{criterion_group, criterion_main, Criterion};
use osolve::board::random::Rng;
use osolve::board::{flips, flips_portable, last_flip_count, legal_moves, Board};
use std::hint::black_box;
use std::time::Instant;

/// Inputs per set: a power of two, so the next index is a mask, and small enough for the set to
/// stay in cache (the kernels, not memory, are measured).
const SET: usize = 4096;

/// `SET` entries of `items`, chosen at random.
fn sample<T: Copy>(rng: &mut Rng, items: &[T]) -> Vec<T> {
    assert!(!items.is_empty());
    (0..SET).map(|_| items[rng.below(items.len())]).collect()
}

/// The benchmark inputs, all drawn from random games.
struct Inputs {
    /// Any board met in a game, from the start to the end.
    boards: Vec<Board>,
    /// A board whose side to move has a move, and one of its legal moves.
    legal: Vec<(Board, usize)>,
    /// A board and one of its empty squares, legal to play or not.
    empty: Vec<(Board, usize)>,
    /// A legal move with its flips, ready to play.
    play: Vec<(Board, usize, u64)>,
    /// The mover's discs and the last empty square of a board with one empty square.
    last: Vec<(u64, usize)>,
}

fn inputs() -> Inputs {
    let mut rng = Rng(0x05EE_D0F0_7E11_0000);
    let (mut boards, mut legal, mut empty, mut play, mut last) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    while last.len() < SET {
        let mut board = Board::start();
        loop {
            boards.push(board);
            let open = board.empty();
            if open != 0 {
                empty.push((board, rng.pick(open)));
            }
            if open.count_ones() == 1 {
                last.push((board.player, open.trailing_zeros() as usize));
            }
            let moves = board.moves();
            if moves == 0 {
                if board.pass().moves() == 0 {
                    break;
                }
                board = board.pass();
                continue;
            }
            let sq = rng.pick(moves);
            let flipped = board.flips(sq);
            legal.push((board, sq));
            play.push((board, sq, flipped));
            board = board.play_flips(sq, flipped);
        }
    }
    Inputs {
        boards: sample(&mut rng, &boards),
        legal: sample(&mut rng, &legal),
        empty: sample(&mut rng, &empty),
        play: sample(&mut rng, &play),
        last: sample(&mut rng, &last),
    }
}

/// Benchmarks `f` on one input per iteration, cycling through `set`. The inputs are read from
/// the slice as the solver reads its own state, not passed through `black_box` one by one: that
/// would add a store and reload to every call and penalise kernels that load their input
/// straight into vector registers. The result of every call goes through `black_box`.
fn per_call<T: Copy, R>(c: &mut Criterion, name: &str, set: &[T], mut f: impl FnMut(T) -> R) {
    let set: &[T; SET] = set.try_into().expect("a full input set");
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let set = black_box(set);
            let start = Instant::now();
            for k in 0..iters as usize {
                black_box(f(set[k & (SET - 1)]));
            }
            start.elapsed()
        })
    });
}

fn board_kernels(c: &mut Criterion) {
    let inputs = inputs();
    let dispatched = if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
        "avx2"
    } else {
        "portable"
    };

    per_call(c, "legal_moves", &inputs.boards, |board| {
        legal_moves(board.player, board.opponent)
    });

    per_call(
        c,
        "flips/legal move/portable",
        &inputs.legal,
        |(board, sq)| flips_portable(board.player, board.opponent, sq),
    );
    per_call(
        c,
        &format!("flips/legal move/dispatched ({dispatched})"),
        &inputs.legal,
        |(board, sq)| flips(board.player, board.opponent, sq),
    );
    per_call(
        c,
        "flips/empty square/portable",
        &inputs.empty,
        |(board, sq)| flips_portable(board.player, board.opponent, sq),
    );
    per_call(
        c,
        &format!("flips/empty square/dispatched ({dispatched})"),
        &inputs.empty,
        |(board, sq)| flips(board.player, board.opponent, sq),
    );

    per_call(c, "last_flip_count", &inputs.last, |(player, sq)| {
        last_flip_count(player, sq)
    });

    per_call(c, "play_flips", &inputs.play, |(board, sq, flipped)| {
        board.play_flips(sq, flipped)
    });

    per_call(c, "hash", &inputs.boards, |board| board.hash());
}

criterion_group!(benches, board_kernels);
criterion_main!(benches);
