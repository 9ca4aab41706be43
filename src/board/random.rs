//! Deterministic random boards and positions, for tests, benchmarks and data generation: the
//! same seed gives the same games on every machine. Not for anything that needs real randomness.

use super::bitboard::{Bits, Square};
use super::position::Position;

/// A small xorshift64* generator. The seed must not be 0.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of the set bits of `bits` (non-zero), uniformly.
    pub fn pick(&mut self, bits: u64) -> usize {
        let k = self.below(bits.count_ones() as usize);
        Bits(bits).nth(k).unwrap_or(0)
    }

    /// Two disjoint random bitboards (player, opponent) of varying density, not necessarily
    /// reachable in a game.
    pub fn board(&mut self) -> (u64, u64) {
        let occupied = match self.next_u64() % 3 {
            0 => self.next_u64() | self.next_u64(),
            1 => self.next_u64(),
            _ => self.next_u64() & self.next_u64(),
        };
        let player = occupied & self.next_u64();
        (player, occupied & !player)
    }
}

/// A position with `empties` empty squares (at most 60) reached by random play from the start;
/// a game that ends earlier is played again.
pub fn random_position(rng: &mut Rng, empties: u32) -> Position {
    debug_assert!(empties <= 60);
    'game: loop {
        let mut position = Position::start();
        while position.board.empties() > empties {
            let moves = position.board.moves();
            if moves == 0 {
                if position.board.pass().moves() == 0 {
                    continue 'game;
                }
                position = position.pass();
                continue;
            }
            let Some(square) = Square::new(rng.pick(moves)) else {
                continue 'game;
            };
            position = position.play(square).unwrap_or(position);
        }
        return position;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_have_the_asked_empties_and_are_reproducible() {
        for empties in [0, 10, 30, 60] {
            let a = random_position(&mut Rng(9), empties);
            assert_eq!(a.board.empties(), empties);
            assert_eq!(random_position(&mut Rng(9), empties), a);
        }
        let (p, o) = Rng(3).board();
        assert_eq!(p & o, 0);
        assert_eq!(Rng(5).pick(1 << 17), 17);
    }
}
