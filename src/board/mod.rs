//! The game and nothing else: bitboards, squares, legal moves, flips, playing and
//! passing, final scores, the 8 symmetries and hashing, and the rules variants as a parameter of
//! the game ([`rules`]). Knows nothing of search or text files.
//!
//! This module is the face: it declares the files and hands their names on, at the top of
//! board/. From the bottom up: the masks and last-flip tables, the kernels (moves, flips, each
//! with its AVX2 twin), the board itself ([`bitboard`]), the rules, the position.

pub mod bitboard;
pub mod flip;
mod flip_avx2;
pub mod last_flip;
mod masks;
pub mod moves;
mod moves_avx2;
pub mod position;
pub mod random;
pub mod rules;

pub use bitboard::{
    flip_diagonal, flip_horizontal, flip_vertical, symmetry, BadSquare, Bits, Board, ClassOrder,
    Color, Square, CORNERS, C_SQUARES, MAX_MOVES, SQUARE_CLASSES, X_SQUARES,
};
pub use flip::{flips, flips_portable};
pub use last_flip::{last_flip_count, LastLines};
pub use moves::{legal_moves, neighbours};
pub use position::{Position, VariantError};
