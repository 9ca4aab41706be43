//! The rules of the game as a parameter: the move rules ([`Rules`]: Othello, or the historical
//! Reversi rules with an empty start board, the first four discs on the centre without flips and
//! 32 discs per player), the scoring of a finished game ([`Scoring`]: official, or raw disc
//! difference), the discs left to each side ([`Supplies`]) and the search's state that carries
//! them ([`GameState`]; the position a user gives, with its colours and the check that its rules
//! can reach it, is `board::Position`, above this module). The same rules as types
//! ([`GameRules`] and its four instances) are what the code generic over the rules (the search,
//! perft) is monomorphised for: the state it
//! walks, the squares the side to move may take, the play and pass steps, the final score and
//! a key that tells states apart. Uses the board primitives (legal moves, flips) and knows
//! nothing of search or text.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use super::bitboard::{Bits, Board, Color};

/// Discs each player owns under Reversi rules.
pub const DISCS_EACH: u8 = 32;

/// The four centre squares d4, e4, d5, e5: under Reversi rules the first four discs go there.
pub const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// Which rules decide the legal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Othello: the standard start, every move flips, a player out of discs is handed more by
    /// the opponent (so supplies never matter).
    #[default]
    Othello,
    /// Reversi: an empty start board, the first four moves fill the centre without flipping,
    /// and a player who has placed all 32 of their discs must pass.
    Reversi,
}

impl Rules {
    /// "othello" or "reversi".
    pub fn name(self) -> &'static str {
        match self {
            Rules::Othello => "othello",
            Rules::Reversi => "reversi",
        }
    }
}

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The disc difference with the empty squares given to the winner (a wipe-out is 64-0).
    #[default]
    Official,
    /// The disc difference of the discs actually on the board at the end.
    Raw,
}

impl Scoring {
    /// "official" or "raw".
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Official => "official",
            Scoring::Raw => "raw",
        }
    }

    /// The final score of `board` (a finished game) for its side to move.
    #[inline(always)]
    pub fn score(self, board: &Board) -> i32 {
        match self {
            Scoring::Official => board.final_score(),
            Scoring::Raw => board.player.count_ones() as i32 - board.opponent.count_ones() as i32,
        }
    }
}

/// A rules-and-scoring choice; the default is Othello with official scoring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The move rules.
    pub rules: Rules,
    /// The scoring of finished games.
    pub scoring: Scoring,
}

impl Variant {
    /// True for Othello with official scoring, the game of the fast solver.
    pub fn is_standard(self) -> bool {
        self == Variant::default()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rules, {} scoring",
            self.rules.name(),
            self.scoring.name()
        )
    }
}

/// A name that is not one of the choices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found '{found}'")]
pub struct BadName {
    /// The accepted names.
    pub expected: &'static str,
    /// The text found.
    pub found: String,
}

/// The choice whose name is `text` (in any case) among `choices`.
fn by_name<T: Copy>(
    text: &str,
    choices: [(&str, T); 2],
    expected: &'static str,
) -> Result<T, BadName> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, value)| value)
        .ok_or_else(|| BadName {
            expected,
            found: text.to_string(),
        })
}

impl FromStr for Rules {
    type Err = BadName;
    fn from_str(text: &str) -> Result<Rules, BadName> {
        let choices = [("othello", Rules::Othello), ("reversi", Rules::Reversi)];
        by_name(text, choices, "othello or reversi")
    }
}

impl FromStr for Scoring {
    type Err = BadName;
    fn from_str(text: &str) -> Result<Scoring, BadName> {
        let choices = [("official", Scoring::Official), ("raw", Scoring::Raw)];
        by_name(text, choices, "official or raw")
    }
}

/// The discs each colour still holds in hand (Reversi rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Supplies {
    /// Black's discs left.
    pub black: u8,
    /// White's discs left.
    pub white: u8,
}

impl Supplies {
    /// The discs left to `color`.
    pub fn of(self, color: Color) -> u8 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The supplies when the side to move, `mover`, has `mover_left` discs and the other side
    /// `other_left`.
    pub fn of_sides(mover: Color, mover_left: u8, other_left: u8) -> Supplies {
        match mover {
            Color::Black => Supplies {
                black: mover_left,
                white: other_left,
            },
            Color::White => Supplies {
                black: other_left,
                white: mover_left,
            },
        }
    }
}

/// A game state from the side to move's point of view, as the solver searches it: the board and
/// the discs left to each side. Under Othello rules the supplies are carried but never matter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameState {
    /// The discs, from the side to move's point of view.
    pub board: Board,
    /// Discs left to the side to move.
    pub player_left: u8,
    /// Discs left to the other side.
    pub opponent_left: u8,
    /// The move rules.
    pub rules: Rules,
}

impl GameState {
    /// True while some centre square is empty under Reversi rules: moves go on the centre and
    /// flip nothing.
    #[inline(always)]
    pub fn in_opening(&self) -> bool {
        self.rules == Rules::Reversi && self.board.empty() & CENTRE != 0
    }

    /// The squares the side to move may play: under Reversi rules none once its discs are all
    /// placed, the empty centre squares during the opening, otherwise the usual legal moves.
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        if self.rules == Rules::Reversi {
            if self.player_left == 0 {
                return 0;
            }
            let centre = self.board.empty() & CENTRE;
            if centre != 0 {
                return centre;
            }
        }
        self.board.moves()
    }

    /// The discs a move on `sq` (one of [`GameState::moves`]) flips: none during the opening.
    #[inline(always)]
    pub fn flips(&self, sq: usize) -> u64 {
        if self.in_opening() {
            0
        } else {
            self.board.flips(sq)
        }
    }

    /// The game after the side to move places a disc on `sq` flipping `flipped`; the other side
    /// is then to move.
    #[inline(always)]
    pub fn play(&self, sq: usize, flipped: u64) -> GameState {
        debug_assert!(self.moves() >> sq & 1 == 1 && self.flips(sq) == flipped);
        GameState {
            board: Board {
                player: self.board.opponent ^ flipped,
                opponent: self.board.player ^ flipped ^ (1u64 << sq),
            },
            player_left: self.opponent_left,
            opponent_left: self.player_left.saturating_sub(1),
            rules: self.rules,
        }
    }

    /// The same game with the other side to move.
    #[inline(always)]
    pub fn pass(&self) -> GameState {
        GameState {
            board: self.board.pass(),
            player_left: self.opponent_left,
            opponent_left: self.player_left,
            rules: self.rules,
        }
    }

    /// True when the Othello rules decide every line from here up to the first pass at an
    /// odd number of empty squares: the opening is over and the supplies are balanced, the side
    /// to move holding `ceil(E/2)` of the `E` discs left (so the other `floor(E/2)`). Then:
    /// (1) the mover holds a disc whenever a square is empty (`ceil(E/2) >= 1`), so its moves
    /// are Othello's, and it passes exactly when Othello's rules make it pass; (2) after a move
    /// the state is balanced again (the new mover holds `floor(E/2) = ceil((E-1)/2)`); (3) so is
    /// it after a pass at an even `E` (`E/2` each). Only a pass at an odd `E` leaves the new
    /// mover one disc short (`floor(E/2) = ceil(E/2) - 1`); from there on the supplies may bind.
    /// Supplies derived from a board (no pass so far) are balanced. Under Othello rules, true.
    #[inline(always)]
    pub fn is_balanced(&self) -> bool {
        if self.rules != Rules::Reversi {
            return true;
        }
        let empty = self.board.empty();
        empty & CENTRE == 0 && u32::from(self.player_left) == empty.count_ones().div_ceil(2)
    }

    /// True when neither side can place a disc.
    pub fn is_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// The children of the game in square order: the square and the game after it.
    pub fn children(&self) -> impl Iterator<Item = (usize, GameState)> + '_ {
        Bits(self.moves()).map(move |sq| (sq, self.play(sq, self.flips(sq))))
    }
}

// The rules as types, for the code generic over them (the search, perft).

/// How a finished game is scored, as a type (see [`Scoring`] for the value).
pub trait Score: Copy + Send + Sync + fmt::Debug + 'static {
    /// The scoring this type stands for.
    const SCORING: Scoring;
    /// The final score of the finished `board` for its side to move.
    fn final_score(board: &Board) -> i32;
}

/// Official scoring: the empty squares of a finished game go to the winner.
#[derive(Clone, Copy, Debug)]
pub struct Official;

/// Raw scoring: the disc difference of the discs on the board.
#[derive(Clone, Copy, Debug)]
pub struct Raw;

impl Score for Official {
    const SCORING: Scoring = Scoring::Official;
    #[inline(always)]
    fn final_score(board: &Board) -> i32 {
        board.final_score()
    }
}

impl Score for Raw {
    const SCORING: Scoring = Scoring::Raw;
    #[inline(always)]
    fn final_score(board: &Board) -> i32 {
        board.player.count_ones() as i32 - board.opponent.count_ones() as i32
    }
}

/// What the search needs of a rule set. Every score is from the side to move's point of view.
pub trait GameRules: Copy + Send + Sync + fmt::Debug + 'static {
    /// The state the search walks: the board, and whatever else the rules need (supplies).
    type State: Copy + Send + Sync + fmt::Debug;
    /// True when the state is the board alone and every move flips, so the dedicated solvers
    /// of the last empties (which see only bitboards) apply; false where supplies can bind
    /// (a side out of discs must pass), which takes a generic path there.
    const BOARD_ONLY: bool;
    /// The move rules.
    const RULES: Rules;
    /// The scoring.
    const SCORING: Scoring;
    /// The discs of `state`.
    fn board(state: &Self::State) -> Board;
    /// The squares the side to move may take (none when it may not place a disc).
    fn moves(state: &Self::State) -> u64;
    /// The discs a move on `sq` (one of [`GameRules::moves`]) flips.
    fn flips(state: &Self::State, sq: usize) -> u64;
    /// The state after the side to move takes `sq` flipping `flips`.
    fn play(state: &Self::State, sq: usize, flips: u64) -> Self::State;
    /// The state with the other side to move.
    fn pass(state: &Self::State) -> Self::State;
    /// The score of a finished game.
    fn final_score(board: &Board) -> i32;
    /// The key of `state` in the transposition tables: distinct states have distinct keys.
    fn key(state: &Self::State) -> Board;
    /// True when the dedicated solvers of the last empties, which walk Othello's rules on the
    /// board alone, give `state`'s score as long as they hand the line over at its first pass
    /// at an odd number of empties (see [`GameState::is_balanced`]); always under Othello rules.
    fn othello_until_odd_pass(state: &Self::State) -> bool;
    /// The state of `board` after the opening whose side to move holds `player_left` discs and
    /// the other side the rest of the empty squares (Othello rules: the board).
    fn with_supplies(board: Board, player_left: u8) -> Self::State;
}

/// Othello rules, scored by `S`: the state is the board.
#[derive(Clone, Copy, Debug)]
pub struct OthelloRules<S>(PhantomData<S>);

/// Reversi rules (empty-centre opening, 32 discs each), scored by `S`: the state carries the
/// supplies.
#[derive(Clone, Copy, Debug)]
pub struct ReversiRules<S>(PhantomData<S>);

/// The standard game: Othello rules, official scoring.
pub type Othello = OthelloRules<Official>;

impl<S: Score> GameRules for OthelloRules<S> {
    type State = Board;
    const BOARD_ONLY: bool = true;
    const RULES: Rules = Rules::Othello;
    const SCORING: Scoring = S::SCORING;
    #[inline(always)]
    fn board(state: &Board) -> Board {
        *state
    }
    #[inline(always)]
    fn moves(state: &Board) -> u64 {
        state.moves()
    }
    #[inline(always)]
    fn flips(state: &Board, sq: usize) -> u64 {
        state.flips(sq)
    }
    #[inline(always)]
    fn play(state: &Board, sq: usize, flips: u64) -> Board {
        state.play_flips(sq, flips)
    }
    #[inline(always)]
    fn pass(state: &Board) -> Board {
        state.pass()
    }
    #[inline(always)]
    fn final_score(board: &Board) -> i32 {
        S::final_score(board)
    }
    #[inline(always)]
    fn key(state: &Board) -> Board {
        *state
    }
    #[inline(always)]
    fn othello_until_odd_pass(_: &Board) -> bool {
        true
    }
    #[inline(always)]
    fn with_supplies(board: Board, _: u8) -> Board {
        board
    }
}

impl<S: Score> GameRules for ReversiRules<S> {
    type State = GameState;
    const BOARD_ONLY: bool = false;
    const RULES: Rules = Rules::Reversi;
    const SCORING: Scoring = S::SCORING;
    #[inline(always)]
    fn board(state: &GameState) -> Board {
        state.board
    }
    #[inline(always)]
    fn moves(state: &GameState) -> u64 {
        state.moves()
    }
    #[inline(always)]
    fn flips(state: &GameState, sq: usize) -> u64 {
        state.flips(sq)
    }
    #[inline(always)]
    fn play(state: &GameState, sq: usize, flips: u64) -> GameState {
        state.play(sq, flips)
    }
    #[inline(always)]
    fn pass(state: &GameState) -> GameState {
        state.pass()
    }
    #[inline(always)]
    fn final_score(board: &Board) -> i32 {
        S::final_score(board)
    }
    /// The board with the supplies marked on it: the discs left to the side to move fix those
    /// of the other side (together they equal the empty squares), so marking that many of the
    /// lowest empty squares on both sides at once (a square no real board has on both) keeps
    /// keys of different supplies apart, and the board is recovered from the key.
    #[inline]
    fn key(state: &GameState) -> Board {
        let empty = state.board.empty();
        let mut rest = empty;
        for _ in 0..state.player_left.min(64) {
            rest &= rest.wrapping_sub(1);
        }
        let marks = empty ^ rest;
        Board {
            player: state.board.player | marks,
            opponent: state.board.opponent | marks,
        }
    }
    #[inline(always)]
    fn othello_until_odd_pass(state: &GameState) -> bool {
        state.is_balanced()
    }
    #[inline(always)]
    fn with_supplies(board: Board, player_left: u8) -> GameState {
        let empties = board.empty().count_ones() as u8;
        debug_assert!(player_left <= empties);
        GameState {
            board,
            player_left,
            opponent_left: empties - player_left,
            rules: Rules::Reversi,
        }
    }
}

#[cfg(test)]
mod rules_as_types {
    use super::*;

    #[test]
    fn reversi_keys_tell_supplies_apart_and_othello_keys_are_boards() {
        let board = Board::start();
        let key = |player_left, opponent_left| {
            let state = GameState {
                board,
                player_left,
                opponent_left,
                rules: Rules::Reversi,
            };
            ReversiRules::<Official>::key(&state)
        };
        let (a, b, c) = (key(30, 30), key(29, 31), key(31, 29));
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_ne!(b, c);
        assert_eq!((a.player & a.opponent).count_ones(), 30);
        assert_eq!(a.player & !a.opponent, board.player);
        assert_eq!(Othello::key(&board), board);
    }

    #[test]
    fn balance_survives_moves_and_even_passes_only() {
        // The centre filled, 60 empties: each side holds 30.
        let board = Board::start();
        let at = |board: Board, player_left: u8| {
            ReversiRules::<Official>::with_supplies(board, player_left)
        };
        let state = at(board, 30);
        assert!(state.is_balanced() && !at(board, 29).is_balanced());
        // A move: 59 empties, the new mover holds 30 = ceil(59 / 2).
        let (sq, child) = state.children().next().unwrap();
        assert!(child.is_balanced(), "after {sq}");
        // A pass at 59 (odd) leaves the new mover 29, one short; at 60 (even) it is balanced.
        assert!(!child.pass().is_balanced());
        assert!(state.pass().is_balanced());
        // One square left: the mover holds its last disc.
        let full = Board {
            player: !1 & !(1 << 63),
            opponent: 1 << 63,
        };
        assert!(at(full, 1).is_balanced() && !at(full, 0).is_balanced());
        assert!(GameState {
            rules: Rules::Othello,
            ..at(full, 0)
        }
        .is_balanced());
    }

    #[test]
    fn scores_of_a_game_over_with_empties() {
        // 33 against 29 with 2 empty squares.
        let board = Board {
            player: (1u64 << 33) - 1,
            opponent: ((1u64 << 29) - 1) << 33,
        };
        assert_eq!(Othello::final_score(&board), 6);
        assert_eq!(OthelloRules::<Raw>::final_score(&board), 4);
        assert_eq!(ReversiRules::<Raw>::final_score(&board.pass()), -4);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        assert_eq!("Reversi".parse::<Rules>(), Ok(Rules::Reversi));
        assert_eq!("raw".parse::<Scoring>(), Ok(Scoring::Raw));
        assert_eq!(
            "go".parse::<Rules>().unwrap_err().to_string(),
            "expected othello or reversi, found 'go'"
        );
        assert!(Variant::default().is_standard());
        assert_eq!(
            Variant {
                rules: Rules::Reversi,
                scoring: Scoring::Raw
            }
            .to_string(),
            "reversi rules, raw scoring"
        );
    }

    #[test]
    fn raw_and_official_scores() {
        // 33 against 29 with 2 empty squares.
        let p = (1u64 << 33) - 1;
        let board = Board {
            player: p,
            opponent: ((1u64 << 29) - 1) << 33,
        };
        assert_eq!(Scoring::Official.score(&board), 6);
        assert_eq!(Scoring::Raw.score(&board), 4);
        assert_eq!(Scoring::Raw.score(&board.pass()), -4);
    }
}
