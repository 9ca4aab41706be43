//! How many discs a move on the last empty square flips, from `const` tables. With one empty
//! square left every other square is occupied, so a line through it is fully described by which
//! of its squares the mover owns: 8 bits, looked up in a 8x256 table.

/// `COUNT[pos][line]`: discs flipped along an 8-square line when the mover, owning the squares
/// whose bits are set in `line`, plays on `pos` and every other square of the line belongs to
/// the opponent. Squares missing from a short diagonal read as opponent discs at the far ends of
/// the line, which can never be bracketed, so one table serves all lines.
static COUNT: [[u8; 256]; 8] = count_table();

const fn count_table() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // towards higher positions
            let mut i = pos + 1;
            while i < 8 && (line >> i) & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                total += i - pos - 1;
            }
            // towards lower positions
            let mut j = pos as i32 - 1;
            while j >= 0 && (line >> j) & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                total += pos - j as usize - 1;
            }
            table[pos][line] = total as u8;
            line += 1;
        }
        pos += 1;
    }
    table
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn diagonal(sq: usize, anti: bool) -> u64 {
    let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut mask = 0u64;
    let mut s = 0;
    while s < 64 {
        let (sc, sr) = (s % 8, s / 8);
        if (!anti && sc - sr == c - r) || (anti && sc + sr == c + r) {
            mask |= 1u64 << s;
        }
        s += 1;
    }
    mask
}

const fn diagonals(anti: bool) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = diagonal(sq, anti);
        sq += 1;
    }
    t
}

static DIAG: [u64; 64] = diagonals(false);
static ANTI: [u64; 64] = diagonals(true);

/// Per square, the bits of its four line bytes (row, column, diagonal, anti-diagonal) that are
/// squares of the board other than itself: XOR with these turns one side's bytes into the
/// other side's, so the second count of a last square needs no second gathering.
static OTHER: [[u8; 4]; 64] = other_masks();

const fn other_masks() -> [[u8; 4]; 64] {
    let mut t = [[0u8; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        let (d, a) = (diagonal(sq, false), diagonal(sq, true));
        let mut diag = 0u8;
        let mut anti = 0u8;
        let mut s = 0;
        while s < 64 {
            if (d >> s) & 1 == 1 {
                diag |= 1 << (s % 8);
            }
            if (a >> s) & 1 == 1 {
                anti |= 1 << (s % 8);
            }
            s += 1;
        }
        t[sq] = [
            0xFF ^ (1 << c),
            0xFF ^ (1 << r),
            diag ^ (1 << c),
            anti ^ (1 << c),
        ];
        sq += 1;
    }
    t
}

/// The four lines through the last empty square, as the bytes of one side's discs on them
/// (row, column, diagonal, anti-diagonal; bit k of a row, diagonal or anti-diagonal byte is
/// column k, of the column byte row k). Counts the flips of either side from one gathering.
#[derive(Clone, Copy, Debug)]
pub struct LastLines {
    sq: usize,
    lines: [usize; 4],
}

impl LastLines {
    /// The lines through `sq`, the only empty square, read from `player`'s discs.
    #[inline(always)]
    pub fn new(player: u64, sq: usize) -> LastLines {
        debug_assert!(sq < 64 && player >> sq & 1 == 0);
        // Masked, so the tables indexed by the square need no bounds check.
        let sq = sq & 63;
        let (c, r) = (sq & 7, sq >> 3);
        let row = (player >> (r * 8)) & 0xFF;
        // Gathers column c into one byte: row k lands on bit k.
        let col = (((player >> c) & FILE_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56;
        // Each diagonal square sits on a distinct column: multiplying stacks them into the top
        // byte.
        let diag = ((player & DIAG[sq]).wrapping_mul(FILE_A)) >> 56;
        let anti = ((player & ANTI[sq]).wrapping_mul(FILE_A)) >> 56;
        LastLines {
            sq,
            lines: [row as usize, col as usize, diag as usize, anti as usize],
        }
    }

    /// Discs the owner of the bytes flips by playing the square; 0 when the move is illegal.
    #[inline(always)]
    pub fn player_flips(&self) -> u32 {
        let (c, r) = (self.sq & 7, self.sq >> 3);
        let [row, col, diag, anti] = self.lines;
        COUNT[c][row] as u32 + COUNT[r][col] as u32 + COUNT[c][diag] as u32 + COUNT[c][anti] as u32
    }

    /// Discs the other side (every other square of the board) flips by playing the square.
    #[inline(always)]
    pub fn opponent_flips(&self) -> u32 {
        let (c, r) = (self.sq & 7, self.sq >> 3);
        let other = &OTHER[self.sq];
        let [row, col, diag, anti] = self.lines;
        COUNT[c][row ^ other[0] as usize] as u32
            + COUNT[r][col ^ other[1] as usize] as u32
            + COUNT[c][diag ^ other[2] as usize] as u32
            + COUNT[c][anti ^ other[3] as usize] as u32
    }
}

/// Discs flipped when the owner of `player` plays on `sq`, the only empty square of the board
/// (every square outside `player` and `sq` is the opponent's). 0 when the move is illegal.
#[inline(always)]
pub fn last_flip_count(player: u64, sq: usize) -> u32 {
    LastLines::new(player, sq).player_flips()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::flip::flips_portable;

    #[test]
    fn counts_match_generic_flips_on_full_boards() {
        let mut rng = crate::board::random::Rng(99);
        for _ in 0..200_000 {
            let sq = (rng.next_u64() % 64) as usize;
            let player = rng.next_u64() & !(1u64 << sq);
            let opponent = !player & !(1u64 << sq);
            assert_eq!(
                last_flip_count(player, sq),
                flips_portable(player, opponent, sq).count_ones(),
                "p={player:#x} sq={sq}"
            );
            assert_eq!(
                last_flip_count(opponent, sq),
                flips_portable(opponent, player, sq).count_ones(),
                "o={opponent:#x} sq={sq}"
            );
        }
    }

    #[test]
    fn both_sides_count_from_one_gathering() {
        let mut rng = crate::board::random::Rng(98);
        for _ in 0..200_000 {
            let sq = (rng.next_u64() % 64) as usize;
            let player = rng.next_u64() & !(1u64 << sq);
            let opponent = !player & !(1u64 << sq);
            let lines = LastLines::new(player, sq);
            assert_eq!(
                lines.player_flips(),
                flips_portable(player, opponent, sq).count_ones(),
                "p={player:#x} sq={sq}"
            );
            assert_eq!(
                lines.opponent_flips(),
                flips_portable(opponent, player, sq).count_ones(),
                "p={player:#x} sq={sq}"
            );
        }
    }

    #[test]
    fn other_masks_cover_each_line_but_the_square() {
        // a1: row and column whole but a1, the long diagonal, the anti-diagonal a1 alone.
        assert_eq!(OTHER[0], [0xFE, 0xFE, 0xFE, 0x00]);
        // d5 (3, 4): diagonal a2-g8 has columns a..g, anti-diagonal a8-h1 all columns.
        assert_eq!(OTHER[35], [0xF7, 0xEF, 0x7F ^ 0x08, 0xFF ^ 0x08]);
    }

    #[test]
    fn table_examples() {
        // mover owns pos 7, plays 0: flips 1..6
        assert_eq!(COUNT[0][0x80], 6);
        assert_eq!(COUNT[3][0x81], 2 + 3);
        assert_eq!(COUNT[3][0x00], 0);
    }
}
