//! Exactness tests of the solver against a plain minimax and against itself.

use super::*;
use crate::board::random::{random_position, Rng};
use crate::board::{Board, Color};
use node::{Crew, Search, Selectivity};
use reference::minimax;
use thresholds::{NULL_WINDOW_STEPS, SELECTIVE_MIN};

fn solver(threads: usize, hash_mb: usize) -> Solver {
    Solver::new(SolveOptions {
        threads,
        hash_mb,
        wld: false,
        force: false,
        progress: None,
    })
    .unwrap()
}

/// A one-thread solver with a small table that sends its progress events to `progress`.
fn solver_reporting(progress: impl Fn(&Progress) + Send + Sync + 'static) -> Solver {
    solver_reporting_on(1, progress)
}

/// [`solver_reporting`] with `threads` threads.
fn solver_reporting_on(
    threads: usize,
    progress: impl Fn(&Progress) + Send + Sync + 'static,
) -> Solver {
    Solver::new(SolveOptions {
        threads,
        hash_mb: 8,
        wld: false,
        force: false,
        progress: Some(ProgressFn::new(progress)),
    })
    .unwrap()
}

/// The exact windows a solver's searches reported, in order.
type Windows = Arc<std::sync::Mutex<Vec<(i32, i32)>>>;

/// A [`solver_reporting`] that records the exact windows its searches report, in order, each
/// once however many events repeat it.
fn solver_recording_windows() -> (Solver, Windows) {
    let windows = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&windows);
    let solver = solver_reporting(move |event: &Progress| {
        if let Stage::Exact { alpha, beta } = event.stage {
            let mut seen = seen.lock().unwrap();
            if seen.last() != Some(&(alpha, beta)) {
                seen.push((alpha, beta));
            }
        }
    });
    (solver, windows)
}

#[test]
fn equals_minimax_on_random_small_positions() {
    let mut rng = Rng(2024);
    let mut s = solver(1, 16);
    for i in 0..3000 {
        let empties = 1 + (i % 9) as u32;
        let p = random_position(&mut rng, empties);
        let sol = s.solve(&p).unwrap();
        assert_eq!(sol.score, minimax(p.board), "position {:?}", p);
    }
}

#[test]
fn equals_minimax_at_ten_empties() {
    let mut rng = Rng(77);
    let mut s = solver(1, 16);
    for _ in 0..40 {
        let p = random_position(&mut rng, 10);
        assert_eq!(
            s.solve(&p).unwrap().score,
            minimax(p.board),
            "position {:?}",
            p
        );
    }
}

#[test]
fn windows_agree_with_exact_score() {
    // Fail-soft bounds must be on the right side of the exact score for every window.
    let mut rng = Rng(5150);
    let tt = tt::Tables::new(4).unwrap();
    let stop = Cancel::root();
    for _ in 0..300 {
        let e = 7 + (rng.next_u64() % 8) as u32;
        let p = random_position(&mut rng, e);
        let exact = Search::<Othello>::new(&tt, &stop, u32::MAX).search(p.board, -64, 64);
        for _ in 0..4 {
            let a = (rng.next_u64() % 129) as i32 - 64;
            let b = (a + 1 + (rng.next_u64() % 8) as i32).min(64);
            if a >= b {
                continue;
            }
            let v = Search::<Othello>::new(&tt, &stop, u32::MAX).search(p.board, a, b);
            if v <= a {
                assert!(exact <= v, "fail low {v} but exact {exact}");
            } else if v >= b {
                assert!(exact >= v, "fail high {v} but exact {exact}");
            } else {
                assert_eq!(v, exact);
            }
        }
    }
}

#[test]
fn symmetric_boards_score_the_same() {
    let mut rng = Rng(31);
    let mut s = solver(1, 16);
    for _ in 0..30 {
        let p = random_position(&mut rng, 14);
        let score = s.solve(&p).unwrap().score;
        for k in 1..8 {
            let mut q = p;
            q.board = p.board.symmetry(k);
            assert_eq!(s.solve(&q).unwrap().score, score);
        }
    }
}

#[test]
fn pv_replays_to_the_reported_score() {
    let mut rng = Rng(8);
    let mut s = solver(2, 16);
    for i in 0..60 {
        let p = random_position(&mut rng, 4 + (i % 14) as u32);
        let sol = s.solve(&p).unwrap();
        match sol.best_move {
            BestMove::Play(sq) => assert_eq!(sol.pv[0], Some(sq)),
            BestMove::Pass => assert_eq!(sol.pv[0], None),
            BestMove::GameOver => assert!(sol.pv.is_empty()),
        }
        let mut q = p;
        for mv in &sol.pv {
            q = match mv {
                Some(sq) => q.play(*sq).expect("PV move is legal"),
                None => {
                    assert_eq!(q.board.moves(), 0, "PV passes only when forced");
                    q.pass()
                }
            };
        }
        assert!(q.board.is_game_over());
        let (black, white) = sol.final_discs().unwrap();
        let final_black_diff = if q.to_move == Color::Black {
            q.board.final_score()
        } else {
            -q.board.final_score()
        };
        assert_eq!(black as i32 - white as i32, final_black_diff);
        let mover_diff = if p.to_move == Color::Black {
            final_black_diff
        } else {
            -final_black_diff
        };
        assert_eq!(mover_diff, sol.score);
    }
}

fn threads_agree(count: usize, empties: std::ops::RangeInclusive<u32>, seed: u64) {
    let mut rng = Rng(seed);
    let mut one = solver(1, 32);
    let mut two = solver(2, 32);
    let span = empties.end() - empties.start() + 1;
    for i in 0..count {
        let p = random_position(&mut rng, empties.start() + i as u32 % span);
        assert_eq!(
            one.solve(&p).unwrap().score,
            two.solve(&p).unwrap().score,
            "position {:?}",
            p
        );
    }
}

#[test]
fn one_and_two_threads_agree() {
    threads_agree(200, 14..=16, 1999);
}

/// Two threads searching one table through a crew, as a solver's pool does, beside a table
/// of their own for the exact score of one thread.
struct TwoThreads {
    pool: rayon::ThreadPool,
    crew: Crew,
    plain: tt::Tables,
    shared: tt::Tables,
}

impl TwoThreads {
    fn new() -> TwoThreads {
        TwoThreads {
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .expect("a pool of two threads"),
            crew: Crew::new(2),
            plain: tt::Tables::new(8).unwrap(),
            shared: tt::Tables::new(8).unwrap(),
        }
    }

    /// One thread's exact score of `board`, on a cleared table of its own.
    fn exact(&self, board: Board) -> i32 {
        self.plain.clear();
        let stop = Cancel::root();
        Search::<Othello>::new(&self.plain, &stop, u32::MAX).search(board, -64, 64)
    }

    /// The two threads' search of `board` in (`a`, `b`) on the shared table, splitting from
    /// `split_min` empties, under `cancel`.
    fn search(&self, cancel: &Cancel, split_min: u32, board: Board, a: i32, b: i32) -> i32 {
        self.crew.start();
        let mut s = Search::<Othello>::new(&self.shared, cancel, split_min).with_crew(&self.crew);
        self.pool.install(|| s.search(board, a, b))
    }
}

#[test]
fn splits_for_an_idle_thread_keep_every_window_exact() {
    // A two-thread search splits only while a thread is idle; every split must leave the
    // crew's count of busy threads where it found it, and no split may change a fail-soft
    // result: each window's value is checked against one thread's exact score.
    let mut rng = Rng(2612);
    let two = TwoThreads::new();
    let stop = Cancel::root();
    for i in 0..40 {
        let p = random_position(&mut rng, 14 + (i % 4) as u32);
        let exact = two.exact(p.board);
        for (a, b) in [
            (-64, 64),
            (exact - 1, exact + 1),
            (exact, exact + 1),
            (exact - 1, exact),
        ] {
            let (a, b) = (a.max(-64), b.min(64));
            if a >= b {
                continue;
            }
            two.shared.clear();
            let v = two.search(&stop, thresholds::SPLIT_MIN, p.board, a, b);
            reference::check_fail_soft(v, exact, a, b, &format!("({a}, {b}) {:?}", p.board));
            assert_eq!(two.crew.busy(), 1, "busy threads after {:?}", p.board);
        }
    }
    assert!(two.crew.splits() > 1000, "{} splits", two.crew.splits());
}

#[test]
fn a_node_below_the_cancellation_checks_stores_only_whole_results() {
    // A node below `CANCEL_CHECK_MIN` empties never looks for a cancellation and stores its
    // result: it must search all its moves even when the search is cancelled, so none of them
    // may be a split (whose moves stop being handed out at a cancellation, leaving a partial
    // best that is no bound). Each position is searched under a cancelled flag, asking for
    // splits from every depth, then again under a live one with the same table: the second
    // must be exact. (With `Search::new`'s floor on the split minimum removed, it fails.)
    let mut rng = Rng(1006);
    let two = TwoThreads::new();
    let live = Cancel::root();
    let cancelled = Cancel::root();
    cancelled.cancel();
    let below = thresholds::CANCEL_CHECK_MIN - thresholds::SHALLOW_MAX - 1;
    for i in 0..300 {
        let p = random_position(&mut rng, thresholds::SHALLOW_MAX + 1 + i % below);
        let exact = two.exact(p.board);
        two.shared.clear();
        // What the cancelled search returns is dropped, as its callers drop it.
        two.search(&cancelled, 0, p.board, -64, 64);
        let v = two.search(&live, 0, p.board, -64, 64);
        assert_eq!(v, exact, "{:?} after a cancelled search", p.board);
    }
}

#[test]
fn two_threads_keep_the_table_exact_across_windows() {
    // When a split cuts, the splits below it in the other threads' subtrees stop handing out
    // moves and return what they have, which is no bound; their nodes must not store it. The
    // table is kept across the windows of a position, so a value stored by a cancelled node
    // would be read by a later window and change its result; the last search of each position
    // is the whole window, checked against one thread's exact score.
    let mut rng = Rng(2706);
    let two = TwoThreads::new();
    let stop = Cancel::root();
    for i in 0..24 {
        let p = random_position(&mut rng, 15 + (i % 3) as u32);
        let exact = two.exact(p.board);
        two.shared.clear();
        for k in 0..12i32 {
            // Null and narrow windows around and away from the score: many cut, so many
            // splits are cancelled from above.
            let a = (exact - 13 + 2 * k).clamp(-64, 63);
            let b = (a + 1 + (k % 3)).min(64);
            let v = two.search(&stop, thresholds::SPLIT_MIN, p.board, a, b);
            reference::check_fail_soft(v, exact, a, b, &format!("({a}, {b}) {:?}", p.board));
        }
        let v = two.search(&stop, thresholds::SPLIT_MIN, p.board, -64, 64);
        assert_eq!(v, exact, "{:?} after its windows", p.board);
    }
}

#[test]
#[ignore = "about 3 minutes on 2 cores: 200 random positions of 16-20 empties"]
fn one_and_two_threads_agree_on_200_positions_of_16_to_20_empties() {
    threads_agree(200, 16..=20, 1999);
}

#[test]
fn tiny_table_gives_the_same_scores() {
    let mut rng = Rng(4242);
    let mut big = solver(1, 64);
    let mut tiny = solver(2, 0);
    for _ in 0..20 {
        let p = random_position(&mut rng, 16);
        assert_eq!(big.solve(&p).unwrap().score, tiny.solve(&p).unwrap().score);
    }
}

#[test]
fn pass_and_game_over_positions() {
    // Black to move on a board where black has no move but white does.
    // a1 white, b1 black, rest empty except c1 empty: black at b1 cannot flip anything.
    let black = 1u64 << 1;
    let white = 1u64;
    let p = Position::from_colors(black, white, Color::Black).unwrap();
    assert_eq!(p.board.moves(), 0);
    let mut s = solver(1, 4);
    let sol = s.solve(&p).unwrap();
    // white plays c1, flipping b1: white has everything, wipe-out.
    assert_eq!(sol.best_move, BestMove::Pass);
    assert_eq!(sol.score, -64);
    assert_eq!(sol.pv, vec![None, Some("c1".parse().unwrap())]);

    // White to move with no discs at all: nobody can move, black wins 64-0.
    let over = Position::from_colors(0xFF, 0, Color::White).unwrap();
    let sol = s.solve(&over).unwrap();
    assert_eq!(sol.best_move, BestMove::GameOver);
    assert_eq!(sol.score, -64);
    assert_eq!(sol.final_discs(), Some((64, 0)));
    assert_eq!(sol.nodes, 0);
}

#[test]
fn wld_gives_the_sign() {
    let mut rng = Rng(66);
    let mut exact = solver(1, 16);
    let mut wld = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 16,
        wld: true,
        force: false,
        progress: None,
    })
    .unwrap();
    for _ in 0..100 {
        let p = random_position(&mut rng, 12);
        assert_eq!(
            wld.solve(&p).unwrap().score,
            exact.solve(&p).unwrap().score.signum()
        );
    }
}

#[test]
fn score_moves_matches_minimax_per_move() {
    let mut rng = Rng(12);
    let mut s = solver(1, 16);
    for _ in 0..200 {
        let p = random_position(&mut rng, 8);
        let (scores, _) = s.score_moves(&p).unwrap();
        for ms in &scores {
            let child = match ms.mv {
                Some(sq) => p.play(sq).unwrap(),
                None => p.pass(),
            };
            assert_eq!(ms.score, -minimax(child.board), "{p:?} {ms:?}");
        }
        for w in scores.windows(2) {
            assert!(w[0].score > w[1].score || (w[0].score == w[1].score && w[0].mv < w[1].mv));
        }
    }
}

#[test]
fn a_stopped_solver_says_so() {
    let mut rng = Rng(3);
    let mut s = solver(2, 4);
    let p = random_position(&mut rng, 20);
    s.stop_handle().stop();
    assert!(s.solve(&p).unwrap_err().is_interrupted());
    assert!(s.score_moves(&p).unwrap_err().is_interrupted());
}

#[test]
fn last_empty_with_no_move_for_anyone_goes_to_the_majority() {
    // a1 is the last empty square and neither side can play it: the layer for one empty
    // square must give it to whoever has more discs.
    let tt = tt::Tables::new(1).unwrap();
    let stop = Cancel::root();
    let mut rng = Rng(9);
    let mut seen = 0;
    while seen < 50 {
        let player = rng.next_u64() & !1;
        let board = Board {
            player,
            opponent: !player & !1,
        };
        if board.moves() != 0 || board.pass().moves() != 0 {
            continue;
        }
        seen += 1;
        let expected = board.final_score();
        assert_eq!(
            Search::<Othello>::new(&tt, &stop, u32::MAX).search(board, -64, 64),
            expected
        );
        assert_eq!(
            expected,
            if player.count_ones() >= 32 {
                2 * player.count_ones() as i32 - 62
            } else {
                2 * player.count_ones() as i32 - 64
            }
        );
    }
}

#[test]
fn best_moves_are_exactly_the_top_scoring_moves() {
    let mut rng = Rng(404);
    let mut s = solver(1, 16);
    let mut w = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 16,
        wld: true,
        force: false,
        progress: None,
    })
    .unwrap();
    for i in 0..300 {
        let p = random_position(&mut rng, 4 + (i % 8) as u32);
        let (scores, _) = s.score_moves(&p).unwrap();
        let (best, moves, _) = s.best_moves(&p).unwrap();
        if scores.is_empty() {
            assert!(moves.is_empty());
            assert_eq!(best, p.board.final_score());
            continue;
        }
        assert_eq!(best, scores[0].score);
        let top: Vec<_> = scores
            .iter()
            .filter(|m| m.score == best)
            .map(|m| m.mv)
            .collect();
        assert_eq!(moves, top);
        let (wbest, wmoves, _) = w.best_moves(&p).unwrap();
        assert_eq!(wbest, best.signum());
        let wtop: Vec<_> = scores
            .iter()
            .filter(|m| m.score.signum() == best.signum())
            .map(|m| m.mv)
            .collect();
        let mut wtop = wtop;
        wtop.sort();
        assert_eq!(wmoves, wtop);
    }
}

/// The generic solver under every rule set and scoring against the literal rules of
/// [`literal`]: scores, legal principal variations that end where their scores say, every
/// move's score and the tied best moves, WLD signs, with supplies derived and near exhaustion.
#[test]
fn every_rule_set_agrees_with_the_literal_rules() {
    use crate::board::rules::{Rules, Scoring, Supplies};
    let mut rng = Rng(7);
    let mut exact = solver(1, 16);
    let mut wld = Solver::new(SolveOptions {
        threads: 1,
        hash_mb: 16,
        wld: true,
        force: false,
        progress: None,
    })
    .unwrap();
    let mut checked = 0;
    for i in 0..120 {
        let p = random_position(&mut rng, 3 + i % 7);
        let empties = p.board.empties() as u8;
        let few = (i % 3) as u8;
        let supplies = match i % 4 {
            0 | 1 => None,
            2 => Some(Supplies {
                black: few,
                white: empties - few,
            }),
            _ => Some(Supplies {
                black: empties - few,
                white: few,
            }),
        };
        for rules in [Rules::Othello, Rules::Reversi] {
            let Ok(ruled) = p.with_rules(rules, supplies) else {
                continue;
            };
            for scoring in [Scoring::Official, Scoring::Raw] {
                let v = ruled.with_scoring(scoring);
                let expected = literal::minimax(&v);
                let solution = exact.solve(&v).unwrap();
                assert_eq!(solution.score, expected, "{rules:?} {scoring:?} {p:?}");
                let end = solution.end().expect("a legal PV");
                assert!(end.is_over());
                let sign = if end.to_move == v.to_move { 1 } else { -1 };
                assert_eq!(sign * scoring.score(&end.board), expected);
                let (moves, _) = exact.score_moves(&v).unwrap();
                for m in &moves {
                    let child = match m.mv {
                        Some(square) => v.play(square).unwrap(),
                        None => v.pass(),
                    };
                    assert_eq!(m.score, -literal::minimax(&child));
                }
                let (best, best_moves, _) = exact.best_moves(&v).unwrap();
                assert_eq!(best, expected);
                let mut tied: Vec<_> = moves
                    .iter()
                    .filter(|m| m.score == expected)
                    .map(|m| m.mv)
                    .collect();
                tied.sort();
                assert_eq!(best_moves, tied);
                let sign = wld.solve(&v).unwrap().score;
                assert_eq!(sign, expected.signum());
                checked += 1;
            }
        }
    }
    assert!(checked >= 300, "{checked}");
}

/// Deeper Reversi and raw positions go through the table, ETC and the learned ordering (and
/// two threads split): the score is the same as one thread's and as the Othello search's where
/// the rules cannot differ (raw = official on a game that fills the board).
#[test]
fn deep_rule_sets_agree_across_threads() {
    use crate::board::rules::{Rules, Scoring};
    let mut rng = Rng(33);
    let mut one = solver(1, 16);
    let mut two = solver(2, 16);
    for i in 0..6 {
        let p = random_position(&mut rng, 14 + i % 3);
        for rules in [Rules::Othello, Rules::Reversi] {
            let ruled = p.with_rules(rules, None).unwrap();
            for scoring in [Scoring::Official, Scoring::Raw] {
                let v = ruled.with_scoring(scoring);
                let a = one.solve(&v).unwrap();
                let b = two.solve(&v).unwrap();
                assert_eq!(a.score, b.score, "{rules:?} {scoring:?} {p:?}");
                let end = a.end().expect("a legal PV");
                let sign = if end.to_move == v.to_move { 1 } else { -1 };
                assert_eq!(sign * scoring.score(&end.board), a.score);
            }
        }
        let othello = one.solve(&p).unwrap().score;
        let v = p.with_rules(Rules::Othello, None).unwrap();
        assert_eq!(one.solve(&v).unwrap().score, othello);
    }
}

#[test]
fn aggressive_selective_searches_never_change_a_score() {
    // Selective searches with tiny margins cut almost everywhere and store wrong bounds in the
    // table; the exact search on the same table must still find the exact score (it takes only
    // their moves), under every window.
    let mut rng = Rng(8128);
    let tt = tt::Tables::new(8).unwrap();
    let stop = Cancel::root();
    for i in 0..60 {
        let e = thresholds::PROBCUT_MIN + 1 + (i % 4) as u32;
        let p = random_position(&mut rng, e);
        let plain = tt::Tables::new(8).unwrap();
        let exact = Search::<Othello>::new(&plain, &stop, u32::MAX).search(p.board, -64, 64);
        tt.clear();
        // The widest margin a pass may have last: its entries are as inexact as the others.
        for margin in [0, 2, 5, thresholds::SELECTIVE_MARGIN_MAX] {
            let mut s = Search::<Othello>::new(&tt, &stop, u32::MAX);
            s.selective = Some(Selectivity { margin });
            s.search(p.board, -64, 64);
        }
        let v = Search::<Othello>::new(&tt, &stop, u32::MAX).search(p.board, -64, 64);
        assert_eq!(v, exact, "position {:?}", p);
        let (a, b) = (exact - 3, exact + 1);
        let v = Search::<Othello>::new(&tt, &stop, u32::MAX).search(p.board, a, b);
        assert_eq!(v, exact, "window {a}..{b}, position {:?}", p);
    }
}

#[test]
fn a_selective_search_marks_an_entry_exact_only_where_it_took_no_guess() {
    // A node of a selective search whose subtree took no guess (no ProbCut, no bounds of a
    // selective entry) stores its bounds as exact, and the exact search then takes them. Here
    // half the time every child and grandchild of the position first holds a selective entry
    // whose bound is wrong by 10 discs (either way), as a guess may be; with margin 64 ProbCut never cuts,
    // so those entries are the only guesses, with margin 2 it cuts often. Each margin searches
    // twice over one table (the second meets the first one's entries). Every entry of the
    // position, its children and grandchildren marked exact must hold the score.
    let mut rng = Rng(3131);
    let tt = tt::Tables::new(8).unwrap();
    let plain = tt::Tables::new(8).unwrap();
    let stop = Cancel::root();
    let mut scores = std::collections::HashMap::new();
    let mut score_of = |board: Board| {
        *scores.entry(board).or_insert_with(|| {
            Search::<Othello>::new(&plain, &stop, u32::MAX).search(board, -64, 64)
        })
    };
    let (mut exact_entries, mut guessed) = (0, 0);
    // The last 40 positions on two threads, splitting from `PROBCUT_MIN` empties (a split's
    // moves count their guesses).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of two threads");
    let crew = Crew::new(2);
    for i in 0..100 {
        let split_min = if i >= 60 {
            thresholds::PROBCUT_MIN
        } else {
            u32::MAX
        };
        let empties = thresholds::PROBCUT_MIN + 2 + (i % 2) as u32;
        let p = random_position(&mut rng, empties);
        let children = |b: Board| {
            crate::board::Bits(b.moves())
                .map(move |sq| b.play_flips(sq, crate::board::flips(b.player, b.opponent, sq)))
        };
        let mut boards = vec![(p.board, empties)];
        for child in children(p.board) {
            boards.push((child, empties - 1));
            boards.extend(children(child).map(|b| (b, empties - 2)));
        }
        for margin in [2, 64] {
            tt.clear();
            if i % 4 < 2 {
                for &(board, e) in &boards[1..] {
                    let score = score_of(board);
                    // A lower bound above the score or (half the time, for half the boards)
                    // an upper bound below it.
                    let high =
                        ((i % 4 == 0 || board.hash() & 1 == 0) && score <= 54) || score < -54;
                    let wrong = if high { score + 10 } else { score - 10 };
                    let (a, b) = if wrong > score {
                        (-64, wrong)
                    } else {
                        (wrong, 64)
                    };
                    let cut = margin as u8;
                    tt.deep
                        .store(&board, board.hash(), e, a, b, wrong, tt::NO_MOVE, cut);
                }
            }
            for pass in 0..2 {
                let a = (rng.next_u64() % 40) as i32 - 20;
                let b = a + 1 + (rng.next_u64() % 8) as i32;
                crew.start();
                let mut s = Search::<Othello>::new(&tt, &stop, split_min).with_crew(&crew);
                s.selective = Some(Selectivity { margin });
                let v = pool.install(|| s.search(p.board, a, b));
                let what = format!(
                    "margin {margin} pass {pass} ({a}, {b}) split from {split_min} {:?}",
                    p.board
                );
                if s.guesses == 0 {
                    reference::check_fail_soft(v, score_of(p.board), a, b, &what);
                }
                for &(board, _) in &boards {
                    let Some(entry) = tt.deep.probe(&board, board.hash()) else {
                        continue;
                    };
                    if entry.cut == tt::EXACT {
                        let score = score_of(board);
                        assert!(
                            i32::from(entry.lower) <= score && score <= i32::from(entry.upper),
                            "{what}: {board:?} entry {}..{} for {score}",
                            entry.lower,
                            entry.upper
                        );
                        exact_entries += 1;
                    } else {
                        guessed += 1;
                    }
                }
            }
        }
    }
    assert!(
        exact_entries > 500 && guessed > 1000,
        "{exact_entries} exact entries, {guessed} guessed"
    );
}

#[test]
fn solve_after_selective_searches_agrees_with_every_moves_score() {
    // From `SELECTIVE_MIN` empties up, `solve` runs selective searches first; `score_moves`
    // does not: the best of its exact move scores is the solve's score, on one and two threads.
    let mut rng = Rng(4242);
    for threads in [1, 2] {
        let mut s = solver(threads, 32);
        for i in 0..6 {
            let p = random_position(&mut rng, SELECTIVE_MIN + (i % 2) as u32);
            s.clear();
            let sol = s.solve(&p).unwrap();
            s.clear();
            let (scores, _) = s.score_moves(&p).unwrap();
            assert_eq!(sol.score, scores[0].score, "position {:?}", p);
        }
    }
}

/// The last empties of a rule set whose supplies can bind (the dedicated solvers where the
/// supplies are balanced, `leaf` elsewhere: its move order and its stability cutoff) against
/// the literal rules, with every split of the supplies between the
/// sides and windows all over the range: fail-soft bounds on the right side, exact inside.
#[test]
fn reversi_last_empties_agree_with_the_literal_rules_under_every_supply_and_window() {
    use crate::board::rules::{Official, Raw, ReversiRules, Rules, Scoring, Supplies};
    fn check<R: GameRules<State = crate::board::rules::GameState>>(
        v: &Position,
        scoring: Scoring,
        rng: &mut Rng,
        tt: &tt::Tables,
    ) -> usize {
        let exact = literal::minimax(&v.with_scoring(scoring));
        let stop = Cancel::root();
        let mut windows = vec![(-64, 64), (exact - 1, exact + 1), (exact, exact + 1)];
        for _ in 0..4 {
            let a = (rng.next_u64() % 129) as i32 - 64;
            windows.push((a, (a + 1 + (rng.next_u64() % 8) as i32).min(65)));
        }
        for &(a, b) in &windows {
            let v_ = Search::<R>::new(tt, &stop, u32::MAX).search(v.state(), a, b);
            reference::check_fail_soft(v_, exact, a, b, &format!("{v:?}"));
        }
        windows.len()
    }
    let mut rng = Rng(5150);
    // One table per scoring: their keys are the same, their scores are not (the solver clears
    // its table when the rules change).
    let (tt_official, tt_raw) = (tt::Tables::new(4).unwrap(), tt::Tables::new(4).unwrap());
    let mut checked = 0;
    // 1 to 9 empties: the dedicated solvers (balanced supplies, handing over at a pass at an
    // odd number of empties), `leaf`, and the deep search above them.
    for i in 0..108 {
        let empties = 1 + (i % 9) as u8;
        let p = random_position(&mut rng, empties as u32);
        for black in 0..=empties {
            let supplies = Supplies {
                black,
                white: empties - black,
            };
            let Ok(v) = p.with_rules(Rules::Reversi, Some(supplies)) else {
                continue;
            };
            let (official, raw) = (Scoring::Official, Scoring::Raw);
            checked += check::<ReversiRules<Official>>(&v, official, &mut rng, &tt_official);
            checked += check::<ReversiRules<Raw>>(&v, raw, &mut rng, &tt_raw);
        }
    }
    assert!(checked > 6000, "{checked} searches");
}

#[test]
fn a_guess_near_the_end_goes_through_every_pass_and_stays_exact() {
    // FFO #79 (a +64 wipe-out) after the first 14 moves of its principal variation: 20
    // empties, black to move. The narrow passes guess near +64 and the wide ones follow (four
    // passes in all); the score is the plain exact search's, whatever the passes guessed.
    let mut position = crate::notation::parse_position(
        "--------------X-----O-XX---OOOX-OOOOXOXX--OOOOOO--O-OO-O----OO-- X",
    )
    .unwrap()
    .position;
    for mv in "d7 d8 h8 h4 g7 h2 g8 g1 h1 -- f1 -- f2 -- f3 -- c8 -- d2 e2".split(' ') {
        position = if mv == "--" {
            position.pass()
        } else {
            position.play(mv.parse().unwrap()).unwrap()
        };
    }
    assert!(position.board.empties() >= SELECTIVE_MIN);
    let plain = tt::Tables::new(8).unwrap();
    let stop = Cancel::root();
    let exact = Search::<Othello>::new(&plain, &stop, u32::MAX).search(position.board, -64, 64);
    let passes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = passes.clone();
    let mut solver = solver_reporting(move |event: &Progress| {
        if let Stage::Selective { passes, .. } = event.stage {
            seen.fetch_max(passes, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let solution = solver.solve(&position).unwrap();
    assert_eq!(solution.score, exact, "{position:?}");
    assert_eq!(
        passes.load(std::sync::atomic::Ordering::Relaxed),
        thresholds::SELECTIVE_MARGINS.len()
    );
}

#[test]
fn failed_aspiration_probes_step_by_null_windows_and_stay_exact() {
    // Where the aspiration probe around the guess fails, the null-window steps follow: up
    // from a fail high, down from a fail low, and the wide search after NULL_WINDOW_STEPS when
    // the bounds are still apart. The score is the plain full-window search's, and the best
    // move keeps it. The selective passes guess positions of a few empties too well to fail
    // often, and below them (a draw as the guess) no step follows, so the root here gets a
    // draw as its guess and the steps at 14-16 empties.
    let mut rng = Rng(4242);
    let plain = tt::Tables::new(8).unwrap();
    let stop = Cancel::root();
    let (mut up, mut down, mut wide_after) = (0, 0, 0);
    for i in 0..30 {
        let position = random_position(&mut rng, 14 + i % 3);
        if position.board.moves() == 0 {
            continue;
        }
        let exact = Search::<Othello>::new(&plain, &stop, u32::MAX).search(position.board, -64, 64);
        let (reporting, windows) = solver_recording_windows();
        let mut bounds = (-64, 64);
        let best = reporting
            .attempt(Some(position.board.empties()))
            .root_around::<Othello>(
                position.board,
                (-64, 64),
                Some(0),
                NULL_WINDOW_STEPS,
                &mut bounds,
            )
            .unwrap();
        assert_eq!(bounds, (exact, exact), "{position:?}");
        let square = Square::new(best as usize).unwrap();
        let child = position.play(square).unwrap();
        let child_score =
            -Search::<Othello>::new(&plain, &stop, u32::MAX).search(child.board, -64, 64);
        assert_eq!(
            child_score, exact,
            "{position:?}: {square} does not keep the score"
        );
        // The probe (guess - 1, guess + 1), then the steps (null windows), then maybe the
        // wide search.
        let windows = windows.lock().unwrap();
        let Some(&(below, above)) = windows.first() else {
            panic!("{position:?}: no exact window");
        };
        assert_eq!(above - below, 2, "{position:?}: the probe is {windows:?}");
        let guess = below + 1;
        let steps: Vec<_> = windows[1..]
            .iter()
            .take_while(|(a, b)| b - a == 1)
            .collect();
        assert!(steps.len() <= thresholds::NULL_WINDOW_STEPS, "{windows:?}");
        match steps.first() {
            Some((alpha, _)) if *alpha > guess => up += 1,
            Some(_) => down += 1,
            None => assert_eq!(exact, guess, "{position:?}: no step after {windows:?}"),
        }
        if windows.len() > steps.len() + 1 {
            assert_eq!(steps.len(), thresholds::NULL_WINDOW_STEPS, "{windows:?}");
            wide_after += 1;
        }
    }
    assert!(
        up > 0 && down > 0 && wide_after > 0,
        "{up} up, {down} down, {wide_after} wide"
    );
}

#[test]
fn a_race_for_the_first_root_proof_stays_exact_whoever_leads() {
    // When the selective passes change their mind about the best move, the root's first exact
    // proof races the first move against the one held before (`Attempt::race`), in either
    // order, each side with the selective searches' nodes as its budget. With every move as
    // the rival, each order, budgets that stop both sides, some or none, and the windows the
    // root uses: a lead's value is a correct fail-soft bound of its move (exact inside the
    // window), it heads the list, and the solve through the race (full window below
    // `ASPIRATION_MIN` empties, the aspiration probe from there) gives the plain search's
    // score with a move that keeps it. Each way a race ends is seen in each order.
    use crate::board::Bits;
    use root::Rival;
    let mut rng = Rng(6174);
    let plain = tt::Tables::new(8).unwrap();
    let stop = Cancel::root();
    let exact_of =
        |board: Board| Search::<Othello>::new(&plain, &stop, u32::MAX).search(board, -64, 64);
    let mut s = solver(1, 8);
    // Per order (the first move first, the rival first): leads of each side, and no lead.
    let mut ends = [[0; 3]; 2];
    for i in 0..10 {
        let p = random_position(&mut rng, 12 + i % 5);
        let moves = p.board.moves();
        if moves.count_ones() < 2 {
            continue;
        }
        let exact = exact_of(p.board);
        let child_score = |sq: usize| -exact_of(p.board.play_flips(sq, p.board.flips(sq)));
        for (rival, rival_first) in Bits(moves).flat_map(|sq| [(sq, false), (sq, true)]) {
            let rival_of = || {
                Some(Rival {
                    sq: rival as u8,
                    first: rival_first,
                })
            };
            let ends = &mut ends[usize::from(rival_first)];
            for budget in [1, 3_000, 1 << 40] {
                for (alpha, beta) in [(-64, 64), (exact - 1, exact + 1), (exact, exact + 1)] {
                    s.clear();
                    let mut attempt = s.attempt(None);
                    attempt.rival = rival_of();
                    attempt.selective_nodes = budget;
                    let mut list =
                        Search::<Othello>::new(&plain, &stop, u32::MAX).root_moves(&p.board);
                    let first = list[0].sq;
                    let found = attempt
                        .race::<Othello>(p.board, &mut list, alpha, beta)
                        .unwrap();
                    // Unbounded and in the full window, the side searched first leads: the
                    // rival when it goes first (unless it is the first move itself: no race,
                    // or it scores -64, no lead), else the first move.
                    if budget == 1 << 40 && alpha == -64 {
                        let leader = found.map(|(_, mv)| mv as usize);
                        let expected = if rival == first as usize {
                            None
                        } else if !rival_first {
                            Some(first as usize)
                        } else if child_score(rival) > -64 {
                            Some(rival)
                        } else {
                            None
                        };
                        assert_eq!(leader, expected, "{p:?} rival {rival} first {rival_first}");
                    }
                    match found {
                        Some((v, mv)) => {
                            assert_eq!(list[0].sq, mv, "{p:?}");
                            let truth = child_score(mv as usize);
                            reference::check_fail_soft(
                                v,
                                truth,
                                alpha,
                                beta,
                                &format!("{p:?} {mv}"),
                            );
                            if mv == first {
                                ends[0] += 1;
                            } else {
                                assert_eq!(mv as usize, rival, "{p:?}");
                                // The rival leads only with a score above the window's floor.
                                assert!(v > alpha, "{p:?} rival {rival}: {v} <= {alpha}");
                                ends[1] += 1;
                            }
                        }
                        None => ends[2] += 1,
                    }
                }
                s.clear();
                let mut attempt = s.attempt(Some(p.board.empties()));
                attempt.rival = rival_of();
                attempt.selective_nodes = budget;
                let (score, best) = attempt
                    .root_score::<Othello>(p.board, (-64, 64), false)
                    .unwrap();
                assert_eq!(score, exact, "{p:?} rival {rival} budget {budget}");
                assert_eq!(child_score(best as usize), exact, "{p:?} rival {rival}");
            }
        }
    }
    assert!(
        ends.iter().flatten().all(|&n| n > 0),
        "(first led, rival led, no lead) with the first move first, then the rival first: \
         {ends:?}"
    );
}

#[test]
fn selective_passes_are_added_only_while_the_guess_moves() {
    use thresholds::{
        next_selective_margin, SELECTIVE_MARGINS, SELECTIVE_MARGIN_MAX, SELECTIVE_MARGIN_STEP,
        SELECTIVE_STILL_MOVING,
    };
    let fixed = SELECTIVE_MARGINS.len();
    // The passes of every solve follow one another whatever their guesses did.
    for pass in 0..fixed - 1 {
        for moved in [None, Some(0), Some(-40), Some(40)] {
            let next = next_selective_margin(pass, SELECTIVE_MARGINS[pass], moved);
            assert_eq!(
                next,
                Some(SELECTIVE_MARGINS[pass + 1]),
                "pass {pass}, {moved:?}"
            );
        }
    }
    // After them, one more only when the last pass moved the guess far enough, either way.
    let last = SELECTIVE_MARGINS[fixed - 1];
    let wider = Some(last + SELECTIVE_MARGIN_STEP);
    let after_last = |moved| next_selective_margin(fixed - 1, last, Some(moved));
    assert_eq!(after_last(SELECTIVE_STILL_MOVING), wider);
    assert_eq!(after_last(-SELECTIVE_STILL_MOVING), wider);
    assert_eq!(after_last(SELECTIVE_STILL_MOVING - 1), None);
    assert_eq!(after_last(1 - SELECTIVE_STILL_MOVING), None);
    assert_eq!(after_last(0), None);
    // While the guess keeps moving, passes are added up to the widest margin, then no more.
    let (mut pass, mut margin, mut added) = (fixed - 1, last, 0);
    while let Some(next) = next_selective_margin(pass, margin, Some(64)) {
        assert_eq!(next, margin + SELECTIVE_MARGIN_STEP);
        (pass, margin, added) = (pass + 1, next, added + 1);
    }
    assert_eq!(margin, SELECTIVE_MARGIN_MAX);
    assert_eq!(added, (SELECTIVE_MARGIN_MAX - last) / SELECTIVE_MARGIN_STEP);
}

#[test]
fn a_pass_added_as_the_guess_moves_leaves_the_score_exact() {
    // A random position of 19 empties, white to move (h5 and e7 score -18, a6 -24): the four
    // passes guess -18, -14, -14, -18, so the last one moved the guess by 4 and a fifth pass
    // follows. Its table and guess feed the exact search; the score is the plain search's.
    let position = crate::notation::parse_position(
        "--X-OO-----OOO--OOOOOOOOXOXOXXOXXXOXOXX--XOOXOXXO-XX-OOX-O-X-O-- O",
    )
    .unwrap()
    .position;
    let plain = tt::Tables::new(8).unwrap();
    let stop = Cancel::root();
    let exact = Search::<Othello>::new(&plain, &stop, u32::MAX).search(position.board, -64, 64);
    assert_eq!(exact, -18);
    // Each pass's number, margin and guess, as the progress events tell them.
    let passes = Arc::new(std::sync::Mutex::new(
        Vec::<(usize, i32, Option<i32>)>::new(),
    ));
    let seen = passes.clone();
    let mut solver = solver_reporting(move |event: &Progress| {
        if let Stage::Selective { pass, margin, .. } = event.stage {
            let mut passes = seen.lock().unwrap();
            if passes.last().map(|p| p.0) != Some(pass) {
                passes.push((pass, margin, None));
            }
            if let Some(estimate) = event.estimate {
                passes.last_mut().unwrap().2 = Some(estimate);
            }
        }
    });
    let solution = solver.solve(&position).unwrap();
    let passes = passes.lock().unwrap().clone();
    let fixed = thresholds::SELECTIVE_MARGINS.len();
    assert!(passes.len() > fixed, "{passes:?}");
    let margins: Vec<i32> = passes.iter().map(|p| p.1).collect();
    assert_eq!(
        margins[..fixed],
        *thresholds::SELECTIVE_MARGINS,
        "{passes:?}"
    );
    assert_eq!(
        margins[fixed],
        margins[fixed - 1] + thresholds::SELECTIVE_MARGIN_STEP
    );
    // Some guesses were not the score: a pass's value is never the result.
    assert!(passes.iter().any(|p| p.2 != Some(exact)), "{passes:?}");
    assert_eq!(solution.score, exact);
    let BestMove::Play(best) = solution.best_move else {
        panic!("{:?}", solution.best_move)
    };
    assert!(["h5", "e7"].contains(&best.to_string().as_str()), "{best}");
}

#[test]
fn searches_below_the_parallel_minimum_stay_on_one_thread() {
    // Below `PARALLEL_MIN` empties a solver of two threads searches on one thread
    // alone: not one split, and the score of one thread. From `PARALLEL_MIN` up it splits.
    let mut rng = Rng(1207);
    let mut two = solver(2, 16);
    let mut one = solver(1, 16);
    for i in 0..8 {
        let p = random_position(&mut rng, thresholds::PARALLEL_MIN - 1 - (i % 2) as u32);
        let (a, b) = (two.solve(&p).unwrap(), one.solve(&p).unwrap());
        assert_eq!(a.score, b.score, "{:?}", p.board);
    }
    assert_eq!(two.crew.splits(), 0);
    for _ in 0..4 {
        let p = random_position(&mut rng, thresholds::PARALLEL_MIN + 4);
        let (a, b) = (two.solve(&p).unwrap(), one.solve(&p).unwrap());
        assert_eq!(a.score, b.score, "{:?}", p.board);
    }
    assert!(
        two.crew.splits() > 0,
        "no split from {} empties",
        thresholds::PARALLEL_MIN + 4
    );
}

#[test]
fn a_call_on_two_threads_searches_on_a_thread_of_the_pool() {
    // Each call of a solver of two threads runs on a thread of its pool (no search is handed
    // over from the calling thread), so the events sent while it searches come from a pool
    // thread, whatever the size; on one thread there is no pool and they come from the caller.
    let mut rng = Rng(4406);
    let positions = [14, 15, 20].map(|empties| random_position(&mut rng, empties));
    for threads in [1, 2] {
        let threads_seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let record = Arc::clone(&threads_seen);
        let mut s = solver_reporting_on(threads, move |event: &Progress| {
            if !matches!(event.stage, Stage::Finished | Stage::Stopped(_)) {
                record.lock().unwrap().push(rayon::current_thread_index());
            }
        });
        for p in &positions {
            let sol = s.solve(p).unwrap();
            assert_eq!(
                sol.score,
                solver(1, 8).solve(p).unwrap().score,
                "{:?}",
                p.board
            );
        }
        let seen = threads_seen.lock().unwrap();
        assert!(seen.len() >= positions.len(), "{} events", seen.len());
        let on_pool = seen.iter().filter(|index| index.is_some()).count();
        let expected = if threads == 1 { 0 } else { seen.len() };
        assert_eq!(on_pool, expected, "{threads} threads: {seen:?}");
    }
}

#[test]
fn the_root_probes_and_steps_only_where_a_guess_is_worth_it() {
    // Below ASPIRATION_MIN empties the root searches the call's whole window at once; from
    // there to SELECTIVE_MIN it probes the window around a draw, then (no null-window step)
    // the side the probe proved; from SELECTIVE_MIN the probe centres on the selective
    // passes' guess.
    use thresholds::{ASPIRATION_MIN, SELECTIVE_MIN};
    let mut rng = Rng(5151);
    // The first size is the smallest that sends events.
    let sizes = [
        PROGRESS_MIN_EMPTIES,
        ASPIRATION_MIN - 1,
        ASPIRATION_MIN,
        SELECTIVE_MIN - 1,
        SELECTIVE_MIN,
    ];
    let mut sides_searched = 0;
    for (i, empties) in sizes.into_iter().cycle().take(15).enumerate() {
        let position = random_position(&mut rng, empties);
        let (mut reporting, windows) = solver_recording_windows();
        let score = reporting.solve(&position).unwrap().score;
        assert_eq!(score, solver(1, 8).solve(&position).unwrap().score);
        let windows = windows.lock().unwrap();
        let context = format!("{i}: {empties} empties, score {score}: {windows:?}");
        if empties < ASPIRATION_MIN {
            assert_eq!(windows[..], [(-64, 64)], "{context}");
        } else if empties < SELECTIVE_MIN {
            assert_eq!(windows[0], (-1, 1), "{context}");
            if score != 0 {
                // The side the probe proved, in one window (from the fail-soft bound) that
                // holds the score: no null window.
                assert_eq!(windows.len(), 2, "{context}");
                let (alpha, beta) = windows[1];
                assert!(
                    alpha < score && score < beta && beta - alpha > 1,
                    "{context}"
                );
                assert!(alpha == -64 || beta == 64, "{context}");
                sides_searched += 1;
            }
        } else {
            assert_eq!(windows[0].1 - windows[0].0, 2, "{context}");
        }
    }
    assert!(sides_searched > 0);
}
