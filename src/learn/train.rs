//! `osolve train`: fits the evaluation weights to labelled positions by regularised least
//! squares (conjugate gradients on the normal equations, CGLS), one weight set per two
//! empties, each set also seeing the positions one empty to either side so neighbouring sets
//! agree. A tenth of the positions (chosen by a hash of the position, so the split is stable
//! across runs and files) is held out to measure the error. Given base weights, only the sets
//! fitted here replace theirs (new middle-game sets leave the endgame sets bit for bit).
//! Deterministic: the same samples and options give bit-identical weights.

use std::collections::HashSet;

use rayon::prelude::*;

use super::canonical;
use crate::board::Board;
use crate::eval::{evaluate_with, feature_indices, set_of, Weights, ACTIVE, SCALE, SETS, SET_LEN};
use crate::notation::{Parsed, Source};
use crate::search::SearchError;

/// A position read for training that is not a usable sample.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// The line has no final score (`osolve gen` writes `<board> <side>; +6;`).
    #[error("{0}: expected a labelled position with a final score (like `...; +6;`)")]
    Unlabelled(Source),
    /// The final score is not a disc differential.
    #[error("{at}: score {score} is outside -64..64")]
    OutOfRange {
        /// Where the position came from.
        at: Source,
        /// The score it was labelled with.
        score: i32,
    },
}

/// The training sample of a labelled position: its board and final score (the side to
/// move's disc differential, -64..64). An odd score is taken: an exact final score under
/// official scoring is even (the empty squares go to the winner), but a search label is a
/// rounded evaluation (`% search depth N`), and the search labels of 0.1.0's `gen` carry no
/// mark, so the parity of a label does not tell a wrong one.
pub fn labelled_sample(parsed: &Parsed) -> Result<(Board, i32), LabelError> {
    let Some(score) = parsed.final_score else {
        return Err(LabelError::Unlabelled(parsed.source.clone()));
    };
    if !(-64..=64).contains(&score) {
        return Err(LabelError::OutOfRange {
            at: parsed.source.clone(),
            score,
        });
    }
    Ok((parsed.position.board, score))
}

/// Fitting options.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Conjugate-gradient iterations per set.
    pub iterations: u32,
    /// Ridge penalty on every weight (in squared discs per unit of weight).
    pub lambda: f64,
    /// Threads (0 = one per core); sets are fitted in parallel.
    pub threads: usize,
    /// Train on the eight symmetric images of every position (the value of a position does not
    /// change under the square's symmetries), so mirrored pattern configurations agree.
    pub augment: bool,
    /// A set is fitted only with at least this many training positions of its own empties;
    /// otherwise it borrows the nearest fitted set (an overfitted set orders moves worse).
    pub min_samples: usize,
    /// Weights to start from: the sets fitted here replace theirs, every other set is kept
    /// bit for bit (new sets for some empties without refitting the rest), and each report
    /// gives their held-out error too, for comparison.
    pub base: Option<Weights>,
    /// How far each fitted set moves from the base's weights at its empties toward the fit:
    /// `round((1 - step) * base + step * fit)` weight by weight. 1 takes the fit whole (and so
    /// does a fit without a base); 0 keeps the base. A refit that predicts better can still
    /// order the search worse, and a short step toward it has ordered it better
    /// (docs/evaluation.md).
    pub step: f64,
}

/// The fit of one weight set.
#[derive(Clone, Debug, PartialEq)]
pub struct SetReport {
    /// Set index (`eval::set_of`).
    pub set: usize,
    /// Empties the set is used for.
    pub empties: (u32, u32),
    /// Training positions of the set's own empties.
    pub train: usize,
    /// Held-out positions of the set's own empties.
    pub held_out: usize,
    /// Mean absolute error on the training positions, discs (shipped i16 weights).
    pub train_mae: f64,
    /// Mean absolute error on the held-out positions, discs.
    pub held_out_mae: f64,
    /// Mean absolute error of predicting 0 (a baseline) on the held-out positions.
    pub held_out_baseline: f64,
    /// Mean absolute error of the base weights ([`TrainOptions::base`]) on the same held-out
    /// positions, discs; `None` without a base.
    pub base_held_out_mae: Option<f64>,
}

/// Totals of a fit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainStats {
    /// Samples given.
    pub samples: usize,
    /// Samples dropped as symmetric duplicates of an earlier one.
    pub duplicates: usize,
}

/// Whether a sample is held out: about one in ten, by its canonical form.
pub fn is_held_out(board: &Board) -> bool {
    let (p, o) = canonical(board);
    let h = Board {
        player: p,
        opponent: o,
    }
    .hash();
    h.is_multiple_of(10)
}

/// A fitted weight set and its report.
type FittedSet = (Box<[i16]>, SetReport);

struct Sample {
    /// Features of the position and, when augmenting, of its other symmetric images.
    features: Vec<[u32; ACTIVE]>,
    target: f64,
    empties: u32,
    held_out: bool,
    board: Board,
}

/// Fits weights to `(board, score)` samples (score: final disc differential for the side to
/// move). Returns the weights, a report per trained set and the totals; an error only when the
/// threads cannot start.
pub fn train(
    samples: impl IntoIterator<Item = (Board, i32)>,
    options: &TrainOptions,
) -> Result<(Weights, Vec<SetReport>, TrainStats), SearchError> {
    let mut stats = TrainStats::default();
    let mut seen = HashSet::new();
    let mut data = Vec::new();
    for (board, score) in samples {
        stats.samples += 1;
        if !seen.insert(canonical(&board)) {
            stats.duplicates += 1;
            continue;
        }
        let images = if options.augment { 8 } else { 1 };
        data.push(Sample {
            features: (0..images)
                .map(|k| {
                    let b = board.symmetry(k);
                    feature_indices(b.player, b.opponent)
                })
                .collect(),
            target: f64::from(score.clamp(-64, 64)),
            empties: board.empties(),
            held_out: is_held_out(&board),
            board,
        });
    }
    let (pool, _) = crate::search::thread_pool(options.threads)?;
    let fitted: Vec<(usize, Option<FittedSet>)> = pool.install(|| {
        (0..SETS)
            .into_par_iter()
            .map(|set| (set, fit_set(&data, set, options)))
            .collect()
    });
    let mut sets = match &options.base {
        Some(base) => base.trained_sets(),
        None => vec![None; SETS],
    };
    let mut reports = Vec::new();
    for (set, fit) in fitted {
        if let Some((weights, report)) = fit {
            sets[set] = Some(weights);
            reports.push(report);
        }
    }
    Ok((Weights::from_sets(sets), reports, stats))
}

/// Fits one set on the training samples of its empties and one to either side; `None` when
/// the set's own empties have no training sample.
fn fit_set(data: &[Sample], set: usize, options: &TrainOptions) -> Option<FittedSet> {
    let lo = 2 * set as u32;
    let hi = (lo + 1).min(60);
    let own = |s: &Sample| set_of(s.empties) == set;
    let rows: Vec<&Sample> = data
        .iter()
        .filter(|s| !s.held_out && s.empties + 1 >= lo && s.empties <= hi + 1)
        .collect();
    let own_rows = rows.iter().filter(|s| own(s)).count();
    if own_rows == 0 || own_rows < options.min_samples {
        return None;
    }
    let x = cgls(&rows, options.iterations, options.lambda);
    let fit: Box<[i16]> = x
        .iter()
        .map(|&w| (w * f64::from(SCALE)).round().clamp(-32767.0, 32767.0) as i16)
        .collect();
    let weights = match options.base.as_ref().and_then(|base| base.set(lo)) {
        Some(from) if options.step < 1.0 => step_toward(from, &fit, options.step),
        _ => fit,
    };
    let mae = |weights: &[i16], held: bool| {
        let (mut sum, mut base, mut n) = (0.0, 0.0, 0usize);
        for s in data.iter().filter(|s| own(s) && s.held_out == held) {
            let v = f64::from(evaluate_with(weights, s.board.player, s.board.opponent))
                / f64::from(SCALE);
            sum += (v.clamp(-64.0, 64.0) - s.target).abs();
            base += s.target.abs();
            n += 1;
        }
        let d = n.max(1) as f64;
        (n, sum / d, base / d)
    };
    let (train, train_mae, _) = mae(&weights, false);
    let (held_out, held_out_mae, held_out_baseline) = mae(&weights, true);
    // What the base used at these empties (its own set or a borrowed one).
    let base_held_out_mae = options
        .base
        .as_ref()
        .and_then(|base| base.set(lo))
        .map(|w| mae(w, true).1);
    Some((
        weights,
        SetReport {
            set,
            empties: (lo, hi),
            train,
            held_out,
            train_mae,
            held_out_mae,
            held_out_baseline,
            base_held_out_mae,
        },
    ))
}

/// `round((1 - step) * from + step * to)`, weight by weight (both in the shipped i16 units).
fn step_toward(from: &[i16], to: &[i16], step: f64) -> Box<[i16]> {
    from.iter()
        .zip(to)
        .map(|(&a, &b)| {
            ((1.0 - step) * f64::from(a) + step * f64::from(b))
                .round()
                .clamp(-32767.0, 32767.0) as i16
        })
        .collect()
}

/// Minimises |A x - b|^2 + lambda |x|^2, where row i of A has a 1 at each of the sample's
/// active features and b is its target, by conjugate gradients on the normal equations.
fn cgls(rows: &[&Sample], iterations: u32, lambda: f64) -> Vec<f64> {
    let mut x = vec![0.0; SET_LEN];
    // One row of A per image of each sample.
    let rows: Vec<(&[u32; ACTIVE], f64)> = rows
        .iter()
        .flat_map(|s| s.features.iter().map(move |f| (f, s.target)))
        .collect();
    let mut r: Vec<f64> = rows.iter().map(|&(_, target)| target).collect();
    let transpose_times = |r: &[f64], x: &[f64]| {
        let mut s: Vec<f64> = x.iter().map(|&w| -lambda * w).collect();
        for (&(features, _), &ri) in rows.iter().zip(r) {
            for &j in features {
                s[j as usize] += ri;
            }
        }
        s
    };
    let mut s = transpose_times(&r, &x);
    let mut p = s.clone();
    let mut gamma: f64 = s.iter().map(|v| v * v).sum();
    for _ in 0..iterations {
        if gamma <= 1e-12 {
            break;
        }
        let q: Vec<f64> = rows
            .iter()
            .map(|&(features, _)| features.iter().map(|&j| p[j as usize]).sum())
            .collect();
        let delta: f64 =
            q.iter().map(|v| v * v).sum::<f64>() + lambda * p.iter().map(|v| v * v).sum::<f64>();
        if delta <= 0.0 {
            break;
        }
        let alpha = gamma / delta;
        for (xi, pi) in x.iter_mut().zip(&p) {
            *xi += alpha * pi;
        }
        for (ri, qi) in r.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        s = transpose_times(&r, &x);
        let next: f64 = s.iter().map(|v| v * v).sum();
        let beta = next / gamma;
        gamma = next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{random_position, Rng};
    use crate::notation::parse_text;

    #[test]
    fn a_sample_needs_a_final_score_within_the_disc_range() {
        let line = "-------- -------- -------- ---OX--- ---XO--- -------- -------- -------- X";
        let labelled = parse_text(&format!("{line}; +6;"), Source::new("in.obf", 3)).unwrap();
        assert_eq!(
            labelled_sample(&labelled).unwrap(),
            (labelled.position.board, 6)
        );
        let bare = parse_text(line, Source::new("in.obf", 4)).unwrap();
        assert_eq!(
            labelled_sample(&bare).unwrap_err().to_string(),
            format!(
                "{}: expected a labelled position with a final score (like `...; +6;`)",
                bare.source
            )
        );
        // The parser refuses such a score; a caller's own Parsed may still carry one.
        let wild = Parsed {
            final_score: Some(66),
            ..labelled.clone()
        };
        assert_eq!(
            labelled_sample(&wild).unwrap_err().to_string(),
            format!("{}: score 66 is outside -64..64", wild.source)
        );
        // Odd scores are labels too: a search label's, marked or (as 0.1.0's gen wrote them)
        // not.
        let odd = [("; +7; % search depth 4", 7, Some(4)), ("; -3;", -3, None)];
        for (label, score, depth) in odd {
            let parsed = parse_text(&format!("{line}{label}"), Source::new("in.obf", 5)).unwrap();
            assert_eq!(parsed.search_depth, depth);
            assert_eq!(
                labelled_sample(&parsed).unwrap(),
                (parsed.position.board, score)
            );
        }
    }

    /// Targets that are an exact function of dense features (mobility): the fit must recover
    /// them on held-out positions, where sparse pattern weights alone could not.
    #[test]
    fn recovers_a_linear_target() {
        let mut rng = Rng(77);
        let mut samples = Vec::new();
        for i in 0..6000 {
            let p = random_position(&mut rng, 20 + (i % 2));
            let b = p.board;
            let mobility = b.moves().count_ones().min(32) as i32;
            samples.push((b, 2 * mobility - 12));
        }
        let options = TrainOptions {
            iterations: 60,
            lambda: 1.0,
            threads: 2,
            augment: true,
            min_samples: 100,
            base: None,
            step: 1.0,
        };
        let (weights, reports, stats) = train(samples.clone(), &options).unwrap();
        assert_eq!(stats.samples, 6000);
        assert_eq!(reports.len(), 1);
        let r = &reports[0];
        assert_eq!((r.set, r.empties), (10, (20, 21)));
        assert_eq!(r.train + r.held_out + stats.duplicates, 6000);
        assert!(r.held_out > 400 && r.held_out < 800, "{r:?}");
        assert!(r.held_out_baseline > 4.0, "{r:?}");
        assert!(r.held_out_mae < 0.2 * r.held_out_baseline, "{r:?}");
        assert!(r.train_mae < 0.2, "{r:?}");
        assert!(weights.is_trained(10) && !weights.is_trained(9));
        // Deterministic.
        let (again, _, _) = train(samples.clone(), &options).unwrap();
        assert_eq!(again, weights);
        // On a base: set 10 is replaced by the same fit, every other set is the base's, bit
        // for bit, and the report gives the base's error on the same held-out positions.
        let mut base_sets = vec![None; SETS];
        base_sets[3] = Some(vec![7i16; SET_LEN].into_boxed_slice());
        base_sets[10] = Some(vec![-100i16; SET_LEN].into_boxed_slice());
        let base = Weights::from_sets(base_sets);
        let on_base = TrainOptions {
            base: Some(base.clone()),
            ..options
        };
        let (merged, reports, _) = train(samples.clone(), &on_base).unwrap();
        let sets = merged.trained_sets();
        assert_eq!(sets[3], base.trained_sets()[3]);
        assert_eq!(sets[10], weights.trained_sets()[10]);
        assert_eq!(sets.iter().flatten().count(), 2);
        assert_eq!(reports[0].held_out_mae, r.held_out_mae);
        assert!(r.base_held_out_mae.is_none());
        let base_mae = reports[0].base_held_out_mae.expect("a base error");
        assert!(base_mae > r.held_out_baseline, "{base_mae} {r:?}");
        // A quarter step: set 10 lies a quarter of the way from the base's -100 toward the
        // fit, weight by weight, and its report is that of the weights written. Set 3 stays.
        let fit = weights.trained_sets()[10].clone().unwrap();
        let quarter = TrainOptions {
            step: 0.25,
            ..on_base.clone()
        };
        let (stepped, reports, _) = train(samples.clone(), &quarter).unwrap();
        let sets = stepped.trained_sets();
        assert_eq!(sets[3], base.trained_sets()[3]);
        let set10 = sets[10].as_ref().unwrap();
        assert!(fit.iter().any(|&w| w.abs() > 40), "a fit far from 0");
        for (&got, &w) in set10.iter().zip(fit.iter()) {
            assert_eq!(got, (-75.0 + 0.25 * f64::from(w)).round() as i16);
        }
        assert!(reports[0].held_out_mae > r.held_out_mae, "{:?}", reports[0]);
        assert!(reports[0].held_out_mae < base_mae, "{:?}", reports[0]);
        // No step keeps the base, bit for bit.
        let none = TrainOptions {
            step: 0.0,
            ..on_base
        };
        assert_eq!(train(samples, &none).unwrap().0, base);
    }
}
