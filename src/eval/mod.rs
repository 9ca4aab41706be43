//! The learned evaluation: a prediction of the final disc differential for the side to move,
//! as a sum of pattern weights (see [`patterns`]) plus mobility terms and a bias, with one
//! weight set per two empties. The exact solver uses it only to order moves and to guess
//! (ProbCut and the aspiration window of its selective passes), never to decide a score; the
//! middle-game search of `engine` scores with it. The weights ship with the binary (`data/eval.bin`, made by `osolve train`); this
//! module knows the feature layout and the file format, not how the weights were fitted.

pub mod patterns;

use crate::board::legal_moves;
use patterns::{instance_indices, PATTERNS};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Weights are stored in units of 1/SCALE of a disc.
pub const SCALE: i32 = 64;
/// Mobility counts above this share the last weight.
pub const MOBILITY_CAP: u32 = 32;
/// Features active in every position: 46 pattern instances, two mobility terms and the bias.
pub const ACTIVE: usize = 46 + 3;
/// Number of weight sets: one per two empties, 0..=60.
pub const SETS: usize = 31;

const fn pattern_offsets() -> [u32; 12] {
    let mut offsets = [0u32; 12];
    let mut i = 0;
    while i < 11 {
        offsets[i + 1] = offsets[i] + 3u32.pow(PATTERNS[i].size);
        i += 1;
    }
    offsets
}

/// Where each pattern's table starts in a weight set; the last entry is where they end.
pub const PATTERN_OFFSETS: [u32; 12] = pattern_offsets();
/// Start of the side-to-move mobility table.
pub const MOBILITY_OFFSET: u32 = PATTERN_OFFSETS[11];
/// Start of the opponent mobility table.
pub const OPPONENT_MOBILITY_OFFSET: u32 = MOBILITY_OFFSET + MOBILITY_CAP + 1;
/// The bias weight.
pub const BIAS_OFFSET: u32 = OPPONENT_MOBILITY_OFFSET + MOBILITY_CAP + 1;
/// Weights in one set.
pub const SET_LEN: usize = BIAS_OFFSET as usize + 1;

/// The weight set used at `empties` empty squares.
#[inline(always)]
pub fn set_of(empties: u32) -> usize {
    (empties.min(60) / 2) as usize
}

/// Indices (into one weight set) of the features active for the side to move `player`.
#[inline]
pub fn feature_indices(player: u64, opponent: u64) -> [u32; ACTIVE] {
    let patterns = instance_indices(player, opponent);
    let mut out = [0u32; ACTIVE];
    for (i, &(kind, _)) in patterns::INSTANCES.iter().enumerate() {
        out[i] = PATTERN_OFFSETS[kind as usize] + patterns[i];
    }
    let mine = legal_moves(player, opponent).count_ones();
    let theirs = legal_moves(opponent, player).count_ones();
    out[46] = MOBILITY_OFFSET + mine.min(MOBILITY_CAP);
    out[47] = OPPONENT_MOBILITY_OFFSET + theirs.min(MOBILITY_CAP);
    out[48] = BIAS_OFFSET;
    out
}

/// A full evaluation: the weight sets that were trained, and for every set the trained set
/// nearest to it (sets without data borrow their neighbour's weights).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    sets: Vec<Option<Box<[i16]>>>,
    nearest: [u8; SETS],
}

/// A weights file that cannot be loaded ([`Weights::load`]); the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum WeightsFileError {
    /// The file cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why reading failed.
        error: std::io::Error,
    },
    /// The file is read but holds no weights of this build.
    #[error("{}: not usable as {role}: {error}", path.display())]
    Unusable {
        /// The file.
        path: PathBuf,
        /// What the file was given as (`--weights`, `--keep`).
        role: &'static str,
        /// What is wrong with its bytes.
        error: WeightsError,
    },
}

/// Bytes that are not a weights file of this build.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    /// Not a weights file, or another version.
    #[error("not an osolve weights file (bad magic or version)")]
    BadMagic,
    /// The file's feature layout differs from this build's.
    #[error("weights file has {found} weights per set, this build expects {expected}")]
    Layout {
        /// Weights per set in the file.
        found: usize,
        /// Weights per set this build uses.
        expected: usize,
    },
    /// The file ends early or has trailing bytes or an overlong run.
    #[error("weights file is corrupt: {0}")]
    Corrupt(&'static str),
}

const MAGIC: &[u8; 8] = b"OSEVAL1\0";

impl Weights {
    /// No trained set: every evaluation is 0.
    pub fn empty() -> Weights {
        Weights {
            sets: vec![None; SETS],
            nearest: [0; SETS],
        }
    }

    /// Weights from sets (index = `set_of(empties)`), `None` for untrained ones.
    pub fn from_sets(sets: Vec<Option<Box<[i16]>>>) -> Weights {
        assert_eq!(sets.len(), SETS);
        assert!(sets.iter().flatten().all(|s| s.len() == SET_LEN));
        let mut nearest = [0u8; SETS];
        for (i, slot) in nearest.iter_mut().enumerate() {
            let best = (0..SETS)
                .filter(|&j| sets[j].is_some())
                .min_by_key(|&j| (j.abs_diff(i), j));
            *slot = best.unwrap_or(i) as u8;
        }
        Weights { sets, nearest }
    }

    /// The weights used at `empties`, if any set was trained.
    #[inline(always)]
    pub fn set(&self, empties: u32) -> Option<&[i16]> {
        self.sets[self.nearest[set_of(empties)] as usize].as_deref()
    }

    /// The trained sets themselves (index = `set_of(empties)`, `None` where a set is borrowed),
    /// as [`Weights::from_sets`] takes them.
    pub fn trained_sets(&self) -> Vec<Option<Box<[i16]>>> {
        self.sets.clone()
    }

    /// Whether set `index` itself was trained.
    pub fn is_trained(&self, index: usize) -> bool {
        self.sets.get(index).is_some_and(|s| s.is_some())
    }

    /// Predicted final disc differential for the side to move, in 1/SCALE discs.
    #[inline]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let empties = 64 - (player | opponent).count_ones();
        match self.set(empties) {
            Some(w) => evaluate_with(w, player, opponent),
            None => 0,
        }
    }

    /// The compact file form: magic, layout size, then per set a presence byte and its weights
    /// as zigzag varints with runs of zeros as `0, run length`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(SET_LEN as u32).to_le_bytes());
        for set in &self.sets {
            match set {
                None => out.push(0),
                Some(w) => {
                    out.push(1);
                    let mut i = 0;
                    while i < w.len() {
                        if w[i] == 0 {
                            let run = w[i..].iter().take_while(|&&v| v == 0).count();
                            put_varint(&mut out, 0);
                            put_varint(&mut out, run as u64);
                            i += run;
                        } else {
                            let v = w[i] as i64;
                            put_varint(&mut out, ((v << 1) ^ (v >> 63)) as u64);
                            i += 1;
                        }
                    }
                }
            }
        }
        out
    }

    /// Loads a weights file (as `osolve train` writes it); `role` is what the file was given
    /// as (an option such as `--weights`), named with the file's path in the error.
    pub fn load(path: &Path, role: &'static str) -> Result<Weights, WeightsFileError> {
        let bytes = std::fs::read(path).map_err(|error| WeightsFileError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Weights::from_bytes(&bytes).map_err(|error| WeightsFileError::Unusable {
            path: path.to_path_buf(),
            role,
            error,
        })
    }

    /// Reads the form written by `to_bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let rest = bytes.strip_prefix(MAGIC).ok_or(WeightsError::BadMagic)?;
        let (len, mut rest) = rest
            .split_first_chunk::<4>()
            .ok_or(WeightsError::Corrupt("truncated header"))?;
        let len = u32::from_le_bytes(*len) as usize;
        if len != SET_LEN {
            return Err(WeightsError::Layout {
                found: len,
                expected: SET_LEN,
            });
        }
        let mut sets = Vec::with_capacity(SETS);
        for _ in 0..SETS {
            let (&present, tail) = rest
                .split_first()
                .ok_or(WeightsError::Corrupt("truncated set"))?;
            rest = tail;
            match present {
                0 => sets.push(None),
                1 => {
                    let mut w = Vec::with_capacity(SET_LEN);
                    while w.len() < SET_LEN {
                        let code = get_varint(&mut rest)?;
                        if code == 0 {
                            let run = get_varint(&mut rest)? as usize;
                            if run == 0 || run > SET_LEN - w.len() {
                                return Err(WeightsError::Corrupt("bad run of zeros"));
                            }
                            w.resize(w.len() + run, 0);
                        } else {
                            let v = ((code >> 1) as i64) ^ -((code & 1) as i64);
                            let v = i16::try_from(v)
                                .map_err(|_| WeightsError::Corrupt("weight out of range"))?;
                            w.push(v);
                        }
                    }
                    sets.push(Some(w.into_boxed_slice()));
                }
                _ => return Err(WeightsError::Corrupt("bad set marker")),
            }
        }
        if !rest.is_empty() {
            return Err(WeightsError::Corrupt("trailing bytes"));
        }
        Ok(Weights::from_sets(sets))
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &mut &[u8]) -> Result<u64, WeightsError> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes
            .split_first()
            .ok_or(WeightsError::Corrupt("truncated number"))?;
        *bytes = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(WeightsError::Corrupt("overlong number"))
}

/// Sum of the active weights of one set for the side to move.
#[inline]
pub fn evaluate_with(weights: &[i16], player: u64, opponent: u64) -> i32 {
    let mine = legal_moves(player, opponent).count_ones();
    let theirs = legal_moves(opponent, player).count_ones();
    evaluate_mobility(weights, player, opponent, mine, theirs)
}

/// `evaluate_with` when the caller already has the side to move's legal moves (`moves`, as
/// the move generator returned them): only the opponent's are generated here.
#[inline]
pub fn evaluate_moves(weights: &[i16], player: u64, opponent: u64, moves: u64) -> i32 {
    debug_assert_eq!(moves, legal_moves(player, opponent));
    let theirs = legal_moves(opponent, player).count_ones();
    evaluate_mobility(weights, player, opponent, moves.count_ones(), theirs)
}

const fn instance_offsets() -> [u32; 46] {
    let mut offsets = [0u32; 46];
    let mut i = 0;
    while i < 46 {
        offsets[i] = PATTERN_OFFSETS[patterns::INSTANCES[i].0 as usize];
        i += 1;
    }
    offsets
}

/// Where each instance's pattern table starts in a weight set, in `INSTANCES` order.
const INSTANCE_OFFSETS: [u32; 46] = instance_offsets();

/// How a weight index is kept provably inside its set: `(Mask, m)` when `offset + (index & m)`
/// fits in the set for every `index & m` (`m` is the power of two above 3^size, less one, so
/// the mask never changes an index), else `(Clamp, last)` with the table's last slot.
#[derive(Clone, Copy)]
enum Bound {
    Mask,
    Clamp,
}

const fn instance_bounds() -> [(Bound, u32); 46] {
    let mut bounds = [(Bound::Mask, 0u32); 46];
    let mut i = 0;
    while i < 46 {
        let entries = 3u32.pow(PATTERNS[patterns::INSTANCES[i].0 as usize].size);
        let mask = entries.next_power_of_two() - 1;
        bounds[i] = if INSTANCE_OFFSETS[i] + mask < SET_LEN as u32 {
            (Bound::Mask, mask)
        } else {
            (Bound::Clamp, INSTANCE_OFFSETS[i] + entries - 1)
        };
        i += 1;
    }
    bounds
}

/// Per instance, how its weight index is proved in range (see `Bound`): a mask or a clamp
/// changes no index (a ternary index is below 3^size) but lets the look-up go without a
/// bounds check, whose ordered panics made the compiler keep every index in memory.
const INSTANCE_BOUNDS: [(Bound, u32); 46] = instance_bounds();

/// `INSTANCE_OFFSETS[i] + index` kept provably below `SET_LEN`, its value unchanged.
#[inline(always)]
fn weight_slot(i: usize, index: u32) -> usize {
    (match INSTANCE_BOUNDS[i] {
        (Bound::Mask, mask) => INSTANCE_OFFSETS[i] + (index & mask),
        (Bound::Clamp, last) => (INSTANCE_OFFSETS[i] + index).min(last),
    }) as usize
}

/// `evaluate_with` when the caller already knows both sides' numbers of legal moves.
#[inline]
pub fn evaluate_mobility(
    weights: &[i16],
    player: u64,
    opponent: u64,
    mine: u32,
    theirs: u32,
) -> i32 {
    debug_assert_eq!(weights.len(), SET_LEN);
    debug_assert_eq!(player & opponent, 0);
    let Ok(weights) = <&[i16; SET_LEN]>::try_from(weights) else {
        // Not a weight set: the slice path fails (or not) exactly as it always did.
        return evaluate_mobility_portable(weights, player, opponent, mine, theirs);
    };
    let sum = i32::from(weights[BIAS_OFFSET as usize])
        + i32::from(weights[(MOBILITY_OFFSET + mine.min(MOBILITY_CAP)) as usize])
        + i32::from(weights[(OPPONENT_MOBILITY_OFFSET + theirs.min(MOBILITY_CAP)) as usize]);
    patterns::fold_instance_indices(player, opponent, sum, |sum, i, index| {
        sum + i32::from(weights[weight_slot(i, index)])
    })
}

/// [`evaluate_mobility`] from the instance indices already computed (by
/// [`patterns::played_indices16`] from the parent's): only the weights are looked up.
#[inline]
pub fn evaluate_indices(
    weights: &[i16],
    indices: &patterns::Indices16,
    mine: u32,
    theirs: u32,
) -> i32 {
    debug_assert_eq!(weights.len(), SET_LEN);
    let Ok(weights) = <&[i16; SET_LEN]>::try_from(weights) else {
        // Not a weight set: indexing fails (or not) exactly as the slice path does.
        let mut sum = i32::from(weights[BIAS_OFFSET as usize])
            + i32::from(weights[(MOBILITY_OFFSET + mine.min(MOBILITY_CAP)) as usize])
            + i32::from(weights[(OPPONENT_MOBILITY_OFFSET + theirs.min(MOBILITY_CAP)) as usize]);
        for (&index, offset) in indices.iter().zip(INSTANCE_OFFSETS) {
            sum += i32::from(weights[(offset + u32::from(index)) as usize]);
        }
        return sum;
    };
    let mut sum = i32::from(weights[BIAS_OFFSET as usize])
        + i32::from(weights[(MOBILITY_OFFSET + mine.min(MOBILITY_CAP)) as usize])
        + i32::from(weights[(OPPONENT_MOBILITY_OFFSET + theirs.min(MOBILITY_CAP)) as usize]);
    // Written out so that every instance's bound is a constant (a loop is not unrolled, and
    // then each look-up branches on its bound and keeps a bounds check).
    macro_rules! unrolled {
        ($($i:literal)*) => {
            $(sum += i32::from(weights[weight_slot($i, u32::from(indices[$i]))]);)*
        };
    }
    unrolled!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
        33 34 35 36 37 38 39 40 41 42 43 44 45
    );
    sum
}

/// The evaluation of the child reached by the move on `sq` flipping `flips`, from its side to
/// move: `swapped` is the parent's indices seen by that side
/// (`patterns::instance_indices16(opponent, player)` of the parent), `player`/`opponent` the
/// child and `moves` its legal moves (not 0). Equal to `evaluate_moves` of the child.
#[inline]
pub fn evaluate_played(
    weights: &[i16],
    swapped: &patterns::Indices16,
    sq: usize,
    flips: u64,
    player: u64,
    opponent: u64,
    moves: u64,
) -> i32 {
    debug_assert_eq!(moves, legal_moves(player, opponent));
    let indices = patterns::played_indices16(swapped, sq, flips);
    let theirs = legal_moves(opponent, player).count_ones();
    evaluate_indices(weights, &indices, moves.count_ones(), theirs)
}

/// [`evaluate_mobility`] with the pattern indices from the portable gather path
/// ([`patterns::instance_indices_portable`]), summed in `INSTANCES` order through the pattern
/// table: the straightforward computation the tests compare the fast one against.
pub fn evaluate_mobility_portable(
    weights: &[i16],
    player: u64,
    opponent: u64,
    mine: u32,
    theirs: u32,
) -> i32 {
    let patterns = patterns::instance_indices_portable(player, opponent);
    let mut sum = i32::from(weights[BIAS_OFFSET as usize])
        + i32::from(weights[(MOBILITY_OFFSET + mine.min(MOBILITY_CAP)) as usize])
        + i32::from(weights[(OPPONENT_MOBILITY_OFFSET + theirs.min(MOBILITY_CAP)) as usize]);
    for (&index, &(kind, _)) in patterns.iter().zip(patterns::INSTANCES.iter()) {
        sum += i32::from(weights[(PATTERN_OFFSETS[kind as usize] + index) as usize]);
    }
    sum
}

static BUILTIN_BYTES: &[u8] = include_bytes!("../../data/eval.bin");

/// The weights shipped with this build (`data/eval.bin`).
pub fn builtin() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        Weights::from_bytes(BUILTIN_BYTES).expect("data/eval.bin matches this build's layout")
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::random::Rng;
    use crate::board::Bits;

    /// Random weights for the sets `trained` (a quarter of the weights non-zero), the others
    /// untrained.
    pub(crate) fn sample_weights(seed: u64, trained: &[usize]) -> Weights {
        let mut rng = Rng(seed);
        let sets = (0..SETS)
            .map(|i| {
                trained.contains(&i).then(|| {
                    (0..SET_LEN)
                        .map(|_| match rng.below(4) {
                            0 => (rng.next_u64() as i16) / 4,
                            _ => 0,
                        })
                        .collect()
                })
            })
            .collect();
        Weights::from_sets(sets)
    }

    #[test]
    fn a_weights_file_that_cannot_be_loaded_is_named_with_its_role() {
        let dir = std::env::temp_dir().join(format!("osolve-eval-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.bin");
        let error = Weights::load(&missing, "--weights").unwrap_err();
        assert!(matches!(error, WeightsFileError::Read { .. }));
        assert!(error
            .to_string()
            .starts_with(&format!("cannot read {}: ", missing.display())));
        let junk = dir.join("junk.bin");
        std::fs::write(&junk, b"nonsense").unwrap();
        assert_eq!(
            Weights::load(&junk, "--keep").unwrap_err().to_string(),
            format!(
                "{}: not usable as --keep: not an osolve weights file (bad magic or version)",
                junk.display()
            )
        );
        let good = dir.join("good.bin");
        std::fs::write(&good, builtin().to_bytes()).unwrap();
        assert_eq!(Weights::load(&good, "--weights").unwrap(), *builtin());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn layout_sizes() {
        assert_eq!(MOBILITY_OFFSET, 167_265);
        assert_eq!(SET_LEN, 167_265 + 33 + 33 + 1);
    }

    #[test]
    fn file_round_trip_and_corruption() {
        let w = sample_weights(7, &[6, 7, 11]);
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        assert_eq!(
            Weights::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(),
            WeightsError::Corrupt("truncated set")
        );
        let mut extra = bytes.clone();
        extra.push(0);
        assert_eq!(
            Weights::from_bytes(&extra).unwrap_err(),
            WeightsError::Corrupt("trailing bytes")
        );
        assert_eq!(
            Weights::from_bytes(b"nonsense").unwrap_err(),
            WeightsError::BadMagic
        );
        let mut other = bytes.clone();
        other[8] ^= 1;
        assert!(matches!(
            Weights::from_bytes(&other).unwrap_err(),
            WeightsError::Layout { .. }
        ));
    }

    #[test]
    fn untrained_sets_borrow_the_nearest() {
        let w = sample_weights(9, &[6, 11]);
        assert_eq!(w.nearest[0], 6);
        assert_eq!(w.nearest[8], 6);
        assert_eq!(w.nearest[9], 11);
        assert_eq!(w.nearest[30], 11);
        assert!(w.is_trained(6) && !w.is_trained(7));
        assert_eq!(Weights::empty().evaluate(1, 2), 0);
    }

    #[test]
    fn evaluation_is_the_sum_of_active_weights() {
        let w = sample_weights(11, &[8]);
        let mut rng = Rng(5);
        for _ in 0..200 {
            let p = crate::board::random::random_position(&mut rng, 17);
            let (a, b) = (p.board.player, p.board.opponent);
            let set = w.set(17).unwrap();
            let expected: i32 = feature_indices(a, b)
                .iter()
                .map(|&i| set[i as usize] as i32)
                .sum();
            assert_eq!(w.evaluate(a, b), expected);
        }
    }

    #[test]
    fn builtin_weights_load() {
        let w = builtin();
        assert_eq!(Weights::from_bytes(&w.to_bytes()).unwrap(), *w);
    }

    /// The evaluation of a child from its parent's indices (`evaluate_played`) equals the
    /// full one of the child, for every legal move of 20,000 positions of every empties count
    /// (shipped and random weights).
    #[test]
    fn played_evaluation_matches_the_full_one() {
        let random = sample_weights(17, &(0..SETS).collect::<Vec<_>>());
        let mut rng = Rng(0x0E7A_0017);
        let mut checked = 0u32;
        for n in 0..20_000u32 {
            let b = crate::board::random::random_position(&mut rng, 1 + n % 60).board;
            let (p, o) = (b.player, b.opponent);
            let swapped = patterns::instance_indices16(o, p);
            for sq in Bits(legal_moves(p, o)) {
                let f = crate::board::flips(p, o, sq);
                let (cp, co) = (o ^ f, p ^ f ^ (1u64 << sq));
                let r = legal_moves(cp, co);
                if r == 0 {
                    continue;
                }
                for weights in [builtin(), &random] {
                    let w = weights.set(64 - (cp | co).count_ones()).unwrap();
                    assert_eq!(
                        evaluate_played(w, &swapped, sq, f, cp, co, r),
                        evaluate_moves(w, cp, co, r),
                        "{b:?} {sq}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// The evaluation the search calls equals the straightforward one (portable gather, sums
    /// through the pattern table) on 100,000 positions from random games, every empties count
    /// from 0 to 60, with the shipped weights and with random ones; `evaluate_moves` and
    /// `evaluate_with` agree with it too.
    #[test]
    fn fast_evaluation_matches_the_portable_one_on_100k_positions() {
        let random = sample_weights(13, &(0..SETS).collect::<Vec<_>>());
        let mut rng = Rng(0xE7A1_2026);
        let mut nonzero = 0;
        for n in 0..100_000u32 {
            let empties = n % 61;
            let b = crate::board::random::random_position(&mut rng, empties).board;
            let (p, o) = (b.player, b.opponent);
            let moves = legal_moves(p, o);
            let (mine, theirs) = (moves.count_ones(), legal_moves(o, p).count_ones());
            for weights in [builtin(), &random] {
                let w = weights
                    .set(empties)
                    .expect("every set is present or borrowed");
                let expected = evaluate_mobility_portable(w, p, o, mine, theirs);
                assert_eq!(evaluate_mobility(w, p, o, mine, theirs), expected, "{b:?}");
                assert_eq!(evaluate_moves(w, p, o, moves), expected, "{b:?}");
                assert_eq!(evaluate_with(w, p, o), expected, "{b:?}");
                nonzero += u32::from(expected != 0);
            }
        }
        // The comparison is between real values, not zeros.
        assert!(nonzero > 190_000, "{nonzero}");
    }
}
