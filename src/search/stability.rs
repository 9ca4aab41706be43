//! Stable discs: discs that no sequence of moves can flip. Their count bounds the final score
//! (the opponent's stable discs are lost to the side to move for good), which lets the search
//! cut a node before generating a single move.
//!
//! Edge stability comes from a table built at compile time by exhaustive search of each edge
//! line (`EDGE`); inner discs are stable when each of their four lines is full or leads to a
//! stable disc of the same colour or off the board.

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0xFF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;

/// Discs of `opponent` flipped on a single line when `player` places on `x`.
const fn line_flips(player: u8, opponent: u8, x: u32) -> u8 {
    let mut flipped = 0u8;
    let mut dir = 0;
    while dir < 2 {
        let step: i32 = if dir == 0 { 1 } else { -1 };
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while i >= 0 && i < 8 && opponent >> i & 1 != 0 {
            run |= 1 << i;
            i += step;
        }
        if i >= 0 && i < 8 && player >> i & 1 != 0 {
            flipped |= run;
        }
        dir += 1;
    }
    flipped
}

/// `EDGE[player * 256 + opponent]`: the stable discs of `player` on an 8-square edge line where
/// `opponent` owns the other discs: those that no placement, by either side, on any empty
/// square of the line, nor any sequence of them, flips. Built at compile time (no first use
/// to wait for, no bounds check on a look-up), the lines with more discs first: a placement
/// only adds a disc, so a line's continuations come before it (the filled squares of a line
/// are a proper superset, a larger number, of its own).
static EDGE: [u8; 65536] = edge_table();

const fn edge_table() -> [u8; 65536] {
    let mut table = [0u8; 65536];
    let mut filled = 256;
    while filled > 0 {
        filled -= 1;
        let empty = !filled as u8;
        // Every split of the filled squares between the two sides: `player` runs over the
        // subsets of `filled`.
        let mut player = filled;
        loop {
            let opponent = filled & !player;
            let (p, o) = (player as u8, opponent as u8);
            let mut stable = p;
            let mut x = 0;
            while x < 8 && stable != 0 {
                if empty >> x & 1 == 1 {
                    // The player places on x; or the opponent does.
                    let f = line_flips(p, o, x);
                    let (np, no) = (p | f | (1 << x), o & !f);
                    stable &= table[np as usize * 256 + no as usize];
                    let f = line_flips(o, p, x);
                    let (no, np) = (o | f | (1 << x), p & !f);
                    stable &= table[np as usize * 256 + no as usize];
                }
                x += 1;
            }
            table[player * 256 + opponent] = stable;
            if player == 0 {
                break;
            }
            player = (player - 1) & filled;
        }
    }
    table
}

/// Column a as a byte (row k on bit k).
#[inline(always)]
fn column_to_byte(b: u64, col: u32) -> u8 {
    ((((b >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u8
}

/// A byte (bit k = row k) spread back onto column `col`.
#[inline(always)]
fn byte_to_column(x: u8, col: u32) -> u64 {
    // Copy the byte into every row, keep bit k in row k, then move that bit to the row's
    // lowest position: adding 0x7F sets bit 7 of a row exactly when the row is non-zero.
    let diagonal = (x as u64).wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
    ((diagonal.wrapping_add(0x7F7F_7F7F_7F7F_7F7F) >> 7) & FILE_A) << col
}

/// Stable discs on the four edges.
#[inline]
fn edges_stable(player: u64, opponent: u64) -> u64 {
    let look = |p: u8, o: u8| EDGE[p as usize * 256 + o as usize];
    let top = look(player as u8, opponent as u8) as u64;
    let bottom = (look((player >> 56) as u8, (opponent >> 56) as u8) as u64) << 56;
    let left = byte_to_column(
        look(column_to_byte(player, 0), column_to_byte(opponent, 0)),
        0,
    );
    let right = byte_to_column(
        look(column_to_byte(player, 7), column_to_byte(opponent, 7)),
        7,
    );
    top | bottom | left | right
}

/// Squares not on column a (where a step towards column h must not land after wrapping).
const NOT_A: u64 = !FILE_A;
/// Squares not on column h.
const NOT_H: u64 = !FILE_H;

/// `seed` spread along direction `shift` (towards higher bits when `up`) over the squares of
/// `through`, the squares a one-step move may land on without wrapping around a row: a
/// Kogge-Stone fill in three doubling steps, which covers the 7 steps of the longest line.
#[inline(always)]
fn fill(seed: u64, through: u64, shift: u32, up: bool) -> u64 {
    let step = |x: u64, k: u32| if up { x << k } else { x >> k };
    let mut g = seed;
    let mut p = through;
    g |= p & step(g, shift);
    p &= step(p, shift);
    g |= p & step(g, 2 * shift);
    p &= step(p, 2 * shift);
    g | (p & step(g, 4 * shift))
}

/// Squares whose line in each of the four directions is completely filled, per direction:
/// (horizontal, vertical, diagonal, anti-diagonal). A line is full when no empty square
/// spreads onto it, so the diagonals are the complement of the empties filled both ways; a
/// row is full when adding one to its low seven bits carries into its full eighth.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let empty = !filled;
    let carry = ((filled & 0x7F7F_7F7F_7F7F_7F7F) + 0x0101_0101_0101_0101) & filled;
    let h = ((carry >> 7) & FILE_A).wrapping_mul(0xFF);
    let mut v = filled;
    v &= v.rotate_left(8);
    v &= v.rotate_left(16);
    v &= v.rotate_left(32);
    let d = !fill(fill(empty, NOT_A, 9, true), NOT_H, 9, false);
    let a = !fill(fill(empty, NOT_H, 7, true), NOT_A, 7, false);
    [h, v, d, a]
}

/// Discs of `player` that can never be flipped (a subset of the truly stable discs).
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    stable_discs_from(player, opponent, 0)
}

/// [`stable_discs`] grown from `known`, discs of `player` found stable at an earlier position
/// of the same line (any others of `known` are ignored). The set is the same as
/// [`stable_discs`]' (what made a disc stable then still holds: its lines are as full or
/// fuller, its stable neighbours still stable, its edge further played), but fewer rounds of
/// growth find it.
#[inline]
pub fn stable_discs_from(player: u64, opponent: u64, known: u64) -> u64 {
    let filled = player | opponent;
    let [h, v, d, a] = full_lines(filled);
    let mut stable = (edges_stable(player, opponent) | (h & v & d & a) | known) & player;
    if stable == 0 {
        return 0;
    }
    // Grow: a disc is stable when, in every direction, its line is full or a neighbour on that
    // line is a stable disc of the same colour or the board's border.
    let border = FILE_A | FILE_H | ROW_1 | ROW_8;
    let candidates = player & !border;
    loop {
        let hs = h | (stable << 1) | (stable >> 1);
        let vs = v | (stable << 8) | (stable >> 8);
        let ds = d | (stable << 9) | (stable >> 9);
        let as_ = a | (stable << 7) | (stable >> 7);
        let grown = stable | (candidates & hs & vs & ds & as_);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::Rng;
    use crate::board::Board;

    #[test]
    fn corners_are_stable_and_lone_centre_discs_are_not() {
        let b = Board::start();
        assert_eq!(stable_discs(b.player, b.opponent), 0);
        assert_eq!(stable_discs(1, 2), 1); // a1 owned, b1 opponent: a1 corner is stable
    }

    /// Full lines the plain way: each row, column and diagonal checked against its mask.
    fn full_lines_reference(filled: u64) -> [u64; 4] {
        let mut lines = [0u64; 4];
        for sq in 0..64 {
            let (c, r) = (sq % 8, sq / 8);
            let masks = (0..64).fold([0u64; 4], |mut m, s| {
                let (sc, sr) = (s % 8, s / 8);
                m[0] |= ((sr == r) as u64) << s;
                m[1] |= ((sc == c) as u64) << s;
                m[2] |= ((sc + r == c + sr) as u64) << s;
                m[3] |= ((sc + sr == c + r) as u64) << s;
                m
            });
            for (line, mask) in lines.iter_mut().zip(masks) {
                if filled & mask == mask {
                    *line |= 1u64 << sq;
                }
            }
        }
        lines
    }

    #[test]
    fn full_lines_match_the_reference() {
        let mut rng = crate::board::random::Rng(12);
        for i in 0..20_000 {
            // Mostly full boards (a few empties), where lines are full and the shifts matter.
            let mut filled = u64::MAX;
            for _ in 0..(i % 12) {
                filled &= !(1u64 << rng.below(64));
            }
            if i % 5 == 0 {
                filled &= rng.next_u64() | rng.next_u64();
            }
            assert_eq!(
                full_lines(filled),
                full_lines_reference(filled),
                "{filled:#x}"
            );
        }
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
        // Only a1 empty: row 1, column a and the long diagonal are not full; the a1
        // anti-diagonal (a1 alone) is not either.
        let [h, v, d, a] = full_lines(!1);
        assert_eq!(h, !0xFF);
        assert_eq!(v, !FILE_A);
        assert_eq!(d, !0x8040_2010_0804_0201);
        assert_eq!(a, !1);
    }

    /// Stable discs of `player` on an edge line by plain recursion over every placement
    /// sequence (either side, any empty square): what the compile-time table must hold.
    fn edge_stable_reference(player: u8, opponent: u8) -> u8 {
        let mut stable = player;
        for x in 0..8 {
            if (player | opponent) >> x & 1 == 1 {
                continue;
            }
            let f = line_flips(player, opponent, x);
            stable &= edge_stable_reference(player | f | (1 << x), opponent & !f);
            let f = line_flips(opponent, player, x);
            stable &= edge_stable_reference(player & !f, opponent | f | (1 << x));
            if stable == 0 {
                break;
            }
        }
        stable
    }

    #[test]
    fn the_edge_table_holds_what_every_placement_sequence_leaves() {
        let mut rng = Rng(808);
        let mut checked = 0;
        // Every line with at most three empties, one in eight with four or five (the
        // recursion grows as the factorial of the empties).
        for p in 0..256u32 {
            for o in 0..256u32 {
                let empties = 8 - (p | o).count_ones();
                if p & o != 0 || empties > 5 || (empties > 3 && rng.below(8) != 0) {
                    continue;
                }
                let (p, o) = (p as u8, o as u8);
                assert_eq!(
                    EDGE[p as usize * 256 + o as usize],
                    edge_stable_reference(p, o),
                    "player {p:08b} opponent {o:08b}"
                );
                checked += 1;
            }
        }
        assert!(checked > 2000, "{checked} lines");
        // A full line is stable, a lone disc beside an empty corner is not, a corner (player
        // 0b0000_0001) is.
        assert_eq!(EDGE[0b1111_0000 * 256 + 0b0000_1111], 0b1111_0000);
        assert_eq!(EDGE[0b0000_0010 * 256], 0);
        assert_eq!(EDGE[256], 0b0000_0001);
    }

    #[test]
    fn column_bytes_round_trip() {
        for x in 0..=255u8 {
            for col in [0, 7] {
                assert_eq!(column_to_byte(byte_to_column(x, col), col), x);
            }
        }
    }

    #[test]
    fn full_board_is_all_stable() {
        let p = 0x0F0F_0F0F_F0F0_F0F0u64;
        assert_eq!(stable_discs(p, !p), p);
    }

    /// Plays a random game from the start, calling `each` after every ply (a pass is one)
    /// with black's and white's discs.
    fn random_game(rng: &mut Rng, mut each: impl FnMut(&mut Rng, u64, u64)) {
        let mut b = Board::start();
        let mut black_to_move = true;
        loop {
            let moves = b.moves();
            if moves == 0 {
                if b.pass().moves() == 0 {
                    return;
                }
                b = b.pass();
            } else {
                let sq = rng.pick(moves);
                b = b.play_flips(sq, b.flips(sq));
            }
            black_to_move = !black_to_move;
            if black_to_move {
                each(rng, b.player, b.opponent);
            } else {
                each(rng, b.opponent, b.player);
            }
        }
    }

    /// Grown from the stable discs found at any earlier position of the same game, the set is
    /// the one found from scratch (what the shallow search relies on when it hands them
    /// down); grown from discs that are not all stable, it is not.
    #[test]
    fn stable_discs_grown_from_an_earlier_position_are_the_same() {
        let mut rng = Rng(29);
        let (mut seeded, mut wrong_seed_differs) = (0, 0);
        for _ in 0..2000 {
            // Black's and white's stable discs at some earlier position of this game.
            let mut earlier = [0u64; 2];
            random_game(&mut rng, |rng, black, white| {
                for (side, (mine, theirs)) in
                    [(black, white), (white, black)].into_iter().enumerate()
                {
                    let plain = stable_discs(mine, theirs);
                    assert_eq!(earlier[side] & !plain, 0, "an earlier stable disc was lost");
                    assert_eq!(stable_discs_from(mine, theirs, earlier[side]), plain);
                    seeded += usize::from(earlier[side] != 0);
                    if stable_discs_from(mine, theirs, mine) != plain {
                        wrong_seed_differs += 1;
                    }
                    // Keep an older set now and then, so that seeds come from several plies up.
                    if rng.below(3) == 0 {
                        earlier[side] = plain;
                    }
                }
            });
        }
        assert!(seeded > 10_000, "{seeded} seeded");
        assert!(wrong_seed_differs > 10_000, "{wrong_seed_differs}");
    }

    /// Stable discs must survive every continuation: play random games on and check.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut rng = Rng(11);
        for _ in 0..3000 {
            // Each set found, with its colour (0 black, 1 white).
            let mut checks: Vec<(u64, usize)> = Vec::new();
            random_game(&mut rng, |rng, black, white| {
                let discs = [black, white];
                for &(set, side) in &checks {
                    assert_eq!(discs[side] & set, set, "a stable disc was flipped");
                }
                if rng.next_u64().is_multiple_of(4) {
                    checks.push((stable_discs(black, white), 0));
                    checks.push((stable_discs(white, black), 1));
                }
            });
        }
    }
}
