//! The rules of every variant written out literally, for tests: a board of 64 cells, each move
//! found by walking the eight directions square by square, the centre rule and the disc supplies
//! checked as the rules state them, and plain minimax over the whole game tree. It shares no
//! move code with [`crate::board::rules::GameRules`] or the bitboards, so agreeing with it
//! means something.
//! Exponential: use it on positions with few empty squares.

use crate::board::{Color, Position, Square};

use crate::board::rules::{Rules, Scoring, Supplies};

/// The eight directions as (column step, row step).
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The centre squares d4, e4, d5, e5 as (column, row).
const CENTRE: [(i32, i32); 4] = [(3, 3), (4, 3), (3, 4), (4, 4)];

/// A game as the rules describe it: cells, whose turn, discs in hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralGame {
    /// The 64 cells, a1 to h8 row by row.
    pub cells: [Option<Color>; 64],
    /// Who is to move.
    pub to_move: Color,
    /// Discs in hand: black's, then white's.
    pub left: [u8; 2],
    /// The rules.
    pub rules: Rules,
}

fn index(col: i32, row: i32) -> usize {
    (row * 8 + col) as usize
}

fn slot(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl LiteralGame {
    /// The literal copy of `position`.
    pub fn new(position: &Position) -> LiteralGame {
        let p = *position;
        let mut cells = [None; 64];
        for (i, cell) in cells.iter_mut().enumerate() {
            if p.black() >> i & 1 == 1 {
                *cell = Some(Color::Black);
            } else if p.white() >> i & 1 == 1 {
                *cell = Some(Color::White);
            }
        }
        let supplies = position
            .supplies()
            .unwrap_or_else(|| Supplies::derived(position));
        LiteralGame {
            cells,
            to_move: position.to_move,
            left: [supplies.black, supplies.white],
            rules: position.rules(),
        }
    }

    fn centre_is_full(&self) -> bool {
        CENTRE
            .iter()
            .all(|&(c, r)| self.cells[index(c, r)].is_some())
    }

    /// The cells a disc of the side to move on (col, row) would flip, walking each direction
    /// over a run of opponent discs that ends on one of its own.
    fn flips_at(&self, col: i32, row: i32) -> Vec<usize> {
        let me = self.to_move;
        let mut flipped = Vec::new();
        for (dc, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut c, mut r) = (col + dc, row + dr);
            while (0..8).contains(&c) && (0..8).contains(&r) {
                match self.cells[index(c, r)] {
                    Some(color) if color != me => run.push(index(c, r)),
                    Some(_) => {
                        flipped.extend(&run);
                        break;
                    }
                    None => break,
                }
                c += dc;
                r += dr;
            }
        }
        flipped
    }

    /// Every placement of the side to move: the square and the cells it flips, in square order.
    pub fn placements(&self) -> Vec<(usize, Vec<usize>)> {
        let reversi = self.rules == Rules::Reversi;
        if reversi && self.left[slot(self.to_move)] == 0 {
            return Vec::new();
        }
        if reversi && !self.centre_is_full() {
            let mut squares: Vec<usize> = CENTRE
                .iter()
                .map(|&(c, r)| index(c, r))
                .filter(|&i| self.cells[i].is_none())
                .collect();
            squares.sort_unstable();
            return squares.into_iter().map(|i| (i, Vec::new())).collect();
        }
        let mut list = Vec::new();
        for row in 0..8 {
            for col in 0..8 {
                if self.cells[index(col, row)].is_some() {
                    continue;
                }
                let flipped = self.flips_at(col, row);
                if !flipped.is_empty() {
                    list.push((index(col, row), flipped));
                }
            }
        }
        list
    }

    /// The game after placing on `square`, flipping `flipped`.
    pub fn place(&self, square: usize, flipped: &[usize]) -> LiteralGame {
        let mut next = self.clone();
        next.cells[square] = Some(self.to_move);
        for &i in flipped {
            next.cells[i] = Some(self.to_move);
        }
        let hand = &mut next.left[slot(self.to_move)];
        *hand = hand.saturating_sub(1);
        next.to_move = self.to_move.other();
        next
    }

    /// The same game with the other side to move.
    pub fn passed(&self) -> LiteralGame {
        let mut next = self.clone();
        next.to_move = self.to_move.other();
        next
    }

    /// The final score for the side to move: discs of the side to move minus the other's, plus
    /// (official scoring) the empty squares for whoever is ahead.
    pub fn final_score(&self, scoring: Scoring) -> i32 {
        let mine = self
            .cells
            .iter()
            .filter(|c| **c == Some(self.to_move))
            .count() as i32;
        let theirs = self
            .cells
            .iter()
            .filter(|c| **c == Some(self.to_move.other()))
            .count() as i32;
        let empty = 64 - mine - theirs;
        let diff = mine - theirs;
        match scoring {
            Scoring::Raw => diff,
            Scoring::Official if diff > 0 => diff + empty,
            Scoring::Official if diff < 0 => diff - empty,
            Scoring::Official => 0,
        }
    }
}

/// The exact score of `position` for the side to move by full minimax, the rules and scoring as
/// written.
pub fn minimax(position: &Position) -> i32 {
    value(&LiteralGame::new(position), position.scoring())
}

fn value(game: &LiteralGame, scoring: Scoring) -> i32 {
    let placements = game.placements();
    if placements.is_empty() {
        let passed = game.passed();
        if passed.placements().is_empty() {
            return game.final_score(scoring);
        }
        return -value(&passed, scoring);
    }
    placements
        .iter()
        .map(|(square, flipped)| -value(&game.place(*square, flipped), scoring))
        .max()
        .expect("at least one placement")
}

/// Leaves `depth` plies below `position`, the rules as written: a pass is a ply, a finished game
/// one leaf.
pub fn perft(position: &Position, depth: u32) -> u64 {
    count(&LiteralGame::new(position), depth)
}

fn count(game: &LiteralGame, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let placements = game.placements();
    if placements.is_empty() {
        let passed = game.passed();
        if passed.placements().is_empty() {
            return 1;
        }
        return count(&passed, depth - 1);
    }
    placements
        .iter()
        .map(|(square, flipped)| count(&game.place(*square, flipped), depth - 1))
        .sum()
}

/// The squares the side to move may play, as a bitboard, by the literal rules.
pub fn legal_squares(position: &Position) -> u64 {
    LiteralGame::new(position)
        .placements()
        .iter()
        .fold(0, |bits, (square, _)| bits | 1u64 << square)
}

/// The square names of a placement list, for messages.
pub fn names(squares: u64) -> Vec<String> {
    (0..64)
        .filter(|i| squares >> i & 1 == 1)
        .filter_map(Square::new)
        .map(|s| s.to_string())
        .collect()
}
