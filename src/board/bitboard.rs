//! The board itself: squares, colours, the two bitboards of a [`Board`] with playing, passing,
//! final scores and hashing, and the 8 symmetries. Below it only the move and flip kernels; the
//! rules variants and the position a user gives stand above it.
//!
//! Bit `i` of a bitboard is square `i`: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.

use super::flip::flips;
use super::moves::legal_moves;
use std::fmt;
use std::str::FromStr;

/// Room for every legal move of any board: at most 60 empty squares, each at most one move.
/// (A position reached in play has at most 33; boards given as input can have more: a search
/// found one with 35, `tests::a_board_can_have_more_moves_than_play_reaches`.)
pub const MAX_MOVES: usize = 60;

/// The four corners, a1, h1, a8 and h8: a disc there can never be flipped.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Squares diagonally next to a corner: giving the opponent the corner is usually fatal.
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// Edge squares next to a corner.
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;

/// The squares in classes, in the order the searches try them (the last empties, and the
/// evaluation search one ply above its leaves): corners, edge squares two away from a corner,
/// middle edge squares, inner squares, then C and X squares. Every square is in one class.
pub const SQUARE_CLASSES: [u64; 6] = [
    CORNERS,
    0x2400_8100_0081_0024,
    0x1800_0081_8100_0018,
    !(CORNERS | X_SQUARES | C_SQUARES | 0x2400_8100_0081_0024 | 0x1800_0081_8100_0018),
    C_SQUARES,
    X_SQUARES,
];

/// The squares in class order: those of each class of [`SQUARE_CLASSES`] in turn, each class in
/// square order (`CLASS_ORDER[rank]` is a square).
static CLASS_ORDER: [u8; 64] = class_order();

const fn class_order() -> [u8; 64] {
    let mut order = [0u8; 64];
    let (mut rank, mut c) = (0, 0);
    while c < SQUARE_CLASSES.len() {
        let mut sq = 0;
        while sq < 64 {
            if SQUARE_CLASSES[c] >> sq & 1 == 1 {
                order[rank] = sq as u8;
                rank += 1;
            }
            sq += 1;
        }
        c += 1;
    }
    order
}

/// The rank of each square in class order (the inverse of [`CLASS_ORDER`]).
static CLASS_RANK: [u8; 64] = {
    let order = class_order();
    let mut rank = [0u8; 64];
    let mut r = 0;
    while r < 64 {
        rank[order[r] as usize] = r as u8;
        r += 1;
    }
    rank
};

/// Where each class of [`SQUARE_CLASSES`] starts in [`CLASS_ORDER`].
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
const CLASS_START: [u32; SQUARE_CLASSES.len()] = {
    let mut start = [0u32; SQUARE_CLASSES.len()];
    let mut c = 1;
    while c < SQUARE_CLASSES.len() {
        start[c] = start[c - 1] + SQUARE_CLASSES[c - 1].count_ones();
        c += 1;
    }
    start
};

/// The squares of a set in class order (see [`SQUARE_CLASSES`]), as [`Bits`] gives them in
/// square order: the set is first moved bit by bit to the squares' ranks in that order, so
/// that one loop reads them, where a loop per class mispredicted its exits. For the shallow
/// layer's list of empties and the evaluation search's last ply (2026-12-06, FFO #40-#49, one
/// thread, the same 398,925,814 nodes): callgrind's simulated mispredictions on FFO #40-#44
/// 105.1 M -> 98.9 M for 0.1% more instructions; A B B A rounds against a loop per class,
/// median time ratios 0.978 (eight rounds, the empties alone) and 0.989 (six, both).
#[derive(Clone, Copy, Debug)]
pub struct ClassOrder(u64);

impl ClassOrder {
    /// The squares of `squares` in class order.
    #[inline(always)]
    pub fn new(squares: u64) -> ClassOrder {
        // One `pext` per class where the build has BMI2 (no branch), else one bit per square.
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        let ranks = SQUARE_CLASSES
            .iter()
            .zip(CLASS_START)
            .fold(0, |r, (&class, start)| {
                r | crate::cpu::pext_bmi2(squares, class) << start
            });
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        let ranks = ClassOrder::ranks_portable(squares);
        ClassOrder(ranks)
    }

    /// The ranks of `squares` in class order, in plain integer code: the portable twin of the
    /// `pext` path, which the tests compare it against (and the path of builds without BMI2,
    /// the Python package's among them: one step per square of the set, not per square of the
    /// board).
    #[inline]
    pub fn ranks_portable(squares: u64) -> u64 {
        Bits(squares).fold(0, |r, sq| r | 1 << CLASS_RANK[sq & 63])
    }
}

impl Iterator for ClassOrder {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let rank = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(CLASS_ORDER[rank & 63] as usize)
    }
}

/// A square of the board, 0 (a1) to 63 (h8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with index `index` (a1 = 0 ... h8 = 63); `None` past 63.
    pub const fn new(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }
    /// The square at column `col` (0 = a) and row `row` (0 = row 1).
    pub const fn at(col: usize, row: usize) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square((row * 8 + col) as u8))
        } else {
            None
        }
    }
    /// Index 0..64.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The square's bit in a bitboard.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
    /// Column 0..8 (a..h).
    pub const fn col(self) -> usize {
        (self.0 & 7) as usize
    }
    /// Row 0..8 (row 1..8).
    pub const fn row(self) -> usize {
        (self.0 >> 3) as usize
    }
    /// Squares of a bitboard, lowest first.
    pub fn iter(bits: u64) -> impl Iterator<Item = Square> {
        Bits(bits).map(|i| Square(i as u8))
    }
    /// Upper-case name, as OBF writes it ("A2").
    pub fn upper(self) -> String {
        self.to_string().to_ascii_uppercase()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col() as u8) as char, self.row() + 1)
    }
}

/// A square name that is not a1..h8.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a square a1..h8, found {0:?}")]
pub struct BadSquare(pub String);

impl FromStr for Square {
    type Err = BadSquare;
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        let b = s.as_bytes();
        if b.len() == 2 {
            let col = b[0].to_ascii_lowercase().wrapping_sub(b'a') as usize;
            let row = b[1].wrapping_sub(b'1') as usize;
            if let Some(sq) = Square::at(col, row) {
                return Ok(sq);
            }
        }
        Err(BadSquare(s.to_string()))
    }
}

/// Iterates over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

/// A side of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Moves first.
    Black,
    /// Moves second.
    White,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// "black" or "white".
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
    /// 'X' for black, 'O' for white, as board strings write them.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// Two bitboards: the discs of the side to move and of its opponent. Disjoint by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

impl Board {
    /// A board from the two sides' discs; `None` when they overlap.
    pub fn new(player: u64, opponent: u64) -> Option<Board> {
        (player & opponent == 0).then_some(Board { player, opponent })
    }

    /// The standard start position, black (the side to move) on e4 and d5.
    pub fn start() -> Board {
        Board {
            player: (1 << 28) | (1 << 35),
            opponent: (1 << 27) | (1 << 36),
        }
    }

    /// Empty squares.
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline(always)]
    pub fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// Legal moves of the side to move.
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        legal_moves(self.player, self.opponent)
    }

    /// Discs flipped by a move of the side to move on `sq` (0 if illegal).
    #[inline(always)]
    pub fn flips(&self, sq: usize) -> u64 {
        flips(self.player, self.opponent, sq)
    }

    /// The board after the side to move plays `sq` flipping `flipped`; the opponent is then to
    /// move.
    #[inline(always)]
    pub fn play_flips(&self, sq: usize, flipped: u64) -> Board {
        debug_assert!(flipped != 0 && self.empty() >> sq & 1 == 1);
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ (1u64 << sq),
        }
    }

    /// The board after a move on `sq`, or `None` when the move is not legal.
    pub fn play(&self, sq: Square) -> Option<Board> {
        if self.empty() & sq.bit() == 0 {
            return None;
        }
        let f = self.flips(sq.index());
        (f != 0).then(|| self.play_flips(sq.index(), f))
    }

    /// The same discs with the other side to move.
    #[inline(always)]
    pub fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// True when neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// Final score of a finished game for the side to move: disc differential with the empty
    /// squares given to the winner (a wipe-out is 64-0).
    #[inline(always)]
    pub fn final_score(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let diff = p - o;
        let empties = 64 - p - o;
        match diff.signum() {
            1 => diff + empties,
            -1 => diff - empties,
            _ => 0,
        }
    }

    /// The board seen through symmetry `k` (0..8): 0 is the identity, then the mirrors and
    /// rotations of the square.
    pub fn symmetry(&self, k: usize) -> Board {
        Board {
            player: symmetry(self.player, k),
            opponent: symmetry(self.opponent, k),
        }
    }

    /// A 64-bit hash of the board (not of whose turn: the board is always from the mover's side).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        let a = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let b = self
            .opponent
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(29);
        let mut h = a ^ b;
        h ^= h >> 32;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^ (h >> 29)
    }
}

/// Mirror top to bottom (row 1 <-> row 8).
pub fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror left to right (column a <-> column h).
pub fn flip_horizontal(b: u64) -> u64 {
    let k1 = 0x5555_5555_5555_5555u64;
    let k2 = 0x3333_3333_3333_3333u64;
    let k4 = 0x0F0F_0F0F_0F0F_0F0Fu64;
    let b = ((b >> 1) & k1) | ((b & k1) << 1);
    let b = ((b >> 2) & k2) | ((b & k2) << 2);
    ((b >> 4) & k4) | ((b & k4) << 4)
}

/// Mirror in the a1-h8 diagonal (transpose).
pub fn flip_diagonal(b: u64) -> u64 {
    let k1 = 0x5500_5500_5500_5500u64;
    let k2 = 0x3333_0000_3333_0000u64;
    let k4 = 0x0F0F_0F0F_0000_0000u64;
    let t = k4 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = k2 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = k1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// Symmetry `k` (0..8) of a bitboard: bit 0 mirrors vertically, bit 1 horizontally, bit 2
/// transposes; together they make the 8 symmetries of the square.
pub fn symmetry(mut b: u64, k: usize) -> u64 {
    if k & 1 != 0 {
        b = flip_vertical(b);
    }
    if k & 2 != 0 {
        b = flip_horizontal(b);
    }
    if k & 4 != 0 {
        b = flip_diagonal(b);
    }
    b
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::random::Rng;

    /// A board (not reachable in play) where the side to move, X, has 35 legal moves: more than
    /// the 33 of any position reached in play. Found by a hill-climb over arbitrary boards.
    pub(crate) fn many_moves_board() -> Board {
        let cells = "---------OOXOOO--XXO-XX--O----O--OXO-OO--OX-XX---OO-OOOX-----X--";
        let mut board = Board::default();
        for (i, c) in cells.bytes().enumerate() {
            match c {
                b'X' => board.player |= 1 << i,
                b'O' => board.opponent |= 1 << i,
                _ => {}
            }
        }
        board
    }

    #[test]
    fn a_board_can_have_more_moves_than_play_reaches() {
        let board = many_moves_board();
        assert_eq!(board.moves().count_ones(), 35);
        assert!(board.moves().count_ones() as usize <= MAX_MOVES);
    }

    #[test]
    fn squares_print_and_parse() {
        assert_eq!(Square::new(0).unwrap().to_string(), "a1");
        assert_eq!(Square::new(8).unwrap().to_string(), "a2");
        assert_eq!(Square::new(63).unwrap().to_string(), "h8");
        assert_eq!("H8".parse::<Square>().unwrap().index(), 63);
        assert_eq!("c4".parse::<Square>().unwrap().index(), 26);
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        for i in 0..64 {
            let s = Square::new(i).unwrap();
            assert_eq!(s.to_string().parse::<Square>().unwrap(), s);
        }
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        // 3 player discs, nothing else: wipe-out 64-0.
        assert_eq!(
            Board {
                player: 7,
                opponent: 0
            }
            .final_score(),
            64
        );
        assert_eq!(
            Board {
                player: 0,
                opponent: 7
            }
            .final_score(),
            -64
        );
        // 33 vs 29 with 2 empty: +4 + 2 = +6
        let p = (1u64 << 33) - 1;
        let o = ((1u64 << 29) - 1) << 33;
        assert_eq!(
            Board {
                player: p,
                opponent: o
            }
            .final_score(),
            6
        );
        assert_eq!(
            Board {
                player: 1,
                opponent: 2
            }
            .final_score(),
            0
        );
    }

    #[test]
    fn playing_the_start() {
        let b = Board::start();
        let after = b.play("f5".parse().unwrap()).unwrap();
        // white to move, black has 4 discs: d5 e4 e5 f5
        assert_eq!(after.opponent.count_ones(), 4);
        assert_eq!(after.player.count_ones(), 1);
        assert!(b.play("a1".parse().unwrap()).is_none());
        assert!(b.play("d4".parse().unwrap()).is_none());
        assert!(!b.is_game_over());
    }

    #[test]
    fn symmetries_form_a_group_and_preserve_moves() {
        let mut rng = Rng(5);
        for _ in 0..2000 {
            let (p, o) = rng.board();
            let b = Board {
                player: p,
                opponent: o,
            };
            let mut seen = std::collections::HashSet::new();
            for k in 0..8 {
                let s = b.symmetry(k);
                assert_eq!(s.moves().count_ones(), b.moves().count_ones());
                assert_eq!(s.moves(), symmetry(b.moves(), k));
                seen.insert((symmetry(1, k), symmetry(2, k)));
            }
            assert_eq!(seen.len(), 8);
        }
    }

    #[test]
    fn square_classes_hold_every_square_once() {
        let all = SQUARE_CLASSES.iter().fold(0u64, |seen, &class| {
            assert_eq!(seen & class, 0, "{class:#x} overlaps an earlier class");
            seen | class
        });
        assert_eq!(all, u64::MAX);
        assert_eq!(SQUARE_CLASSES[0], CORNERS);
        assert_eq!(SQUARE_CLASSES[5], X_SQUARES);
        assert_eq!(SQUARE_CLASSES.map(u64::count_ones), [4, 8, 8, 32, 8, 4]);
    }

    #[test]
    fn class_order_gives_each_class_in_turn_in_square_order() {
        let mut rng = crate::board::random::Rng(27);
        for i in 0..20_000 {
            let squares = match i % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => 1u64 << rng.below(64) | 1u64 << rng.below(64),
            };
            let expected: Vec<usize> = SQUARE_CLASSES
                .iter()
                .flat_map(|&class| Bits(squares & class))
                .collect();
            assert_eq!(ClassOrder::new(squares).collect::<Vec<_>>(), expected);
            let ranks = ClassOrder::ranks_portable(squares);
            assert_eq!(ClassOrder(ranks).collect::<Vec<_>>(), expected);
            assert_eq!(ClassOrder::new(squares).0, ranks, "{squares:#x}");
        }
        assert_eq!(ClassOrder::new(0).next(), None);
        assert_eq!(ClassOrder::new(u64::MAX).count(), 64);
        // a1 (a corner) before b1 (a C square) before c1, though b1 and c1 come first by square.
        assert_eq!(ClassOrder::new(0b111).collect::<Vec<_>>(), [0, 2, 1]);
    }

    #[test]
    fn hash_differs_for_swapped_sides() {
        let b = Board::start();
        assert_ne!(b.hash(), b.pass().hash());
    }
}
