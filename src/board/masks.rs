//! The constant masks the move kernels share: the four rays through each square (towards higher
//! and towards lower bits), and the borders a one-square shift must not wrap across. Computed
//! by `const fn` at compile time; below both the portable code and the SIMD kernels, and
//! knowing neither.

/// Squares not on column a or h: a shift by one column must not wrap across rows.
pub(crate) const NOT_AH: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// Squares not on row 1 or row 8.
pub(crate) const NOT_18: u64 = 0x00FF_FFFF_FFFF_FF00;
/// Squares on neither border.
pub(crate) const INNER: u64 = NOT_AH & NOT_18;
/// Column a.
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Column h.
pub(crate) const FILE_H: u64 = 0x8080_8080_8080_8080;

/// The four line directions through a square, as (column step, row step) going to higher bits:
/// horizontal, vertical, diagonal (a1-h8) and anti-diagonal (h1-a8).
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// Squares met walking from `sq` in direction (dc, dr), excluding `sq` itself.
const fn ray(sq: usize, dc: i32, dr: i32) -> u64 {
    let mut mask = 0u64;
    let mut c = (sq % 8) as i32 + dc;
    let mut r = (sq / 8) as i32 + dr;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        mask |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    mask
}

const fn line_masks(higher: bool) -> [[u64; 4]; 64] {
    let mut table = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let (dc, dr) = DIRECTIONS[d];
            table[sq][d] = if higher {
                ray(sq, dc, dr)
            } else {
                ray(sq, -dc, -dr)
            };
            d += 1;
        }
        sq += 1;
    }
    table
}

/// A 32-byte aligned table, so the SIMD flip kernel can load a square's four masks in one go.
#[repr(C, align(32))]
pub(crate) struct Aligned(pub [[u64; 4]; 64]);

/// Per square, the four rays going to higher bit indices (east, south, south-east, south-west).
pub(crate) static HIGHER: Aligned = Aligned(line_masks(true));
/// Per square, the four rays going to lower bit indices (west, north, north-west, north-east).
pub(crate) static LOWER: Aligned = Aligned(line_masks(false));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_rays() {
        // a1 higher: whole row 1 but a1, column a but a1, the long diagonal but a1, nothing SW.
        assert_eq!(HIGHER.0[0][0], 0xFE);
        assert_eq!(HIGHER.0[0][1], 0x0101_0101_0101_0100);
        assert_eq!(HIGHER.0[0][2], 0x8040_2010_0804_0200);
        assert_eq!(HIGHER.0[0][3], 0);
        assert_eq!(LOWER.0[63][2], 0x0040_2010_0804_0201);
    }
}
