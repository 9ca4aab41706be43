//! The rules as a type parameter of the one search: [`GameRules`] says what the search needs of
//! a rule set (the state it searches, which squares the side to move may take, the play and
//! pass steps, the final score and the transposition-table key), and the four rule sets are
//! its instances. The search is monomorphised for each, so the instance for Othello with
//! official scoring ([`Othello`]) is the plain board search with nothing added. Knows the game
//! model only.

use std::fmt;
use std::marker::PhantomData;

use crate::board::rules::{Game, Rules, Scoring};
use crate::board::Board;

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
}

impl<S: Score> GameRules for ReversiRules<S> {
    type State = Game;
    const BOARD_ONLY: bool = false;
    const RULES: Rules = Rules::Reversi;
    const SCORING: Scoring = S::SCORING;
    #[inline(always)]
    fn board(state: &Game) -> Board {
        state.board
    }
    #[inline(always)]
    fn moves(state: &Game) -> u64 {
        state.moves()
    }
    #[inline(always)]
    fn flips(state: &Game, sq: usize) -> u64 {
        state.flips(sq)
    }
    #[inline(always)]
    fn play(state: &Game, sq: usize, flips: u64) -> Game {
        state.play(sq, flips)
    }
    #[inline(always)]
    fn pass(state: &Game) -> Game {
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
    fn key(state: &Game) -> Board {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::{Supplies, VariantPosition};
    use crate::board::Position;

    #[test]
    fn reversi_keys_tell_supplies_apart_and_othello_keys_are_boards() {
        let position = Position::start();
        let key = |black, white| {
            let v = VariantPosition::new(position, Some(Supplies { black, white }), Rules::Reversi)
                .unwrap();
            ReversiRules::<Official>::key(&v.game)
        };
        let (a, b, c) = (key(30, 30), key(29, 31), key(31, 29));
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_ne!(b, c);
        assert_eq!((a.player & a.opponent).count_ones(), 30);
        assert_eq!(a.player & !a.opponent, position.board.player);
        assert_eq!(Othello::key(&position.board), position.board);
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
