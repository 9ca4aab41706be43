//! The one position: the board with its side to move, the rules it is played under, the scoring
//! of its end and, under Reversi rules, the discs left to each side. Built through checked
//! constructors ([`Position::from_colors`], [`Position::with_rules`]), so a position whose rules
//! cannot reach it (under Reversi rules) never exists; every driver, report and the solver take
//! it as it is and never ask which rules it has. Knows the game, nothing of search or text.

use super::bitboard::{Board, Color, Square};
use super::rules::{GameState, Rules, Scoring, Supplies, Variant, CENTRE, DISCS_EACH};

/// A board with the colour of the side to move, under its rules and scoring: what a user means
/// by "a position". The rules, scoring and discs left are fixed by the constructors: Othello
/// rules with official scoring unless [`Position::with_rules`] and [`Position::with_scoring`]
/// say otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The discs, from the side to move's point of view.
    pub board: Board,
    /// Who is to move.
    pub to_move: Color,
    rules: Rules,
    scoring: Scoring,
    /// The discs left to each side under Reversi rules; `None` under Othello rules, where they
    /// never matter.
    supplies: Option<Supplies>,
}

/// A position that cannot occur under the rules given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// More than 32 discs left to one side.
    #[error("expected at most 32 discs left to {color}, found {found}", color = .color.name())]
    TooManyLeft {
        /// The side.
        color: Color,
        /// Its discs left.
        found: u8,
    },
    /// The discs left do not add up to the empty squares (every placement fills one square).
    #[error(
        "expected the discs left (black {black} + white {white} = {sum}) to equal the {empties} \
         empty squares, since every disc placed fills one",
        sum = u32::from(*.black) + u32::from(*.white)
    )]
    SupplySum {
        /// Black's discs left.
        black: u8,
        /// White's discs left.
        white: u8,
        /// Empty squares.
        empties: u32,
    },
    /// A disc outside the centre before the centre is full.
    #[error(
        "under Reversi rules the first four discs go on d4 e4 d5 e5, found a disc on {square} \
         while {empty} is still empty"
    )]
    OutsideCentre {
        /// A disc outside the centre.
        square: Square,
        /// An empty centre square.
        empty: Square,
    },
    /// During the opening no disc is flipped, so each side has exactly the discs it placed.
    #[error(
        "under Reversi rules no disc is flipped while the centre fills, so {color} should have \
         the {placed} discs it placed, found {found}",
        color = .color.name()
    )]
    OpeningCount {
        /// The side.
        color: Color,
        /// Discs it placed (32 minus its discs left).
        placed: u8,
        /// Its discs on the board.
        found: u32,
    },
}

impl Position {
    /// The standard start: black to move, Othello rules, official scoring.
    pub fn start() -> Position {
        Position::othello(Board::start(), Color::Black)
    }

    /// The start of a game under `rules` (official scoring): the empty board under Reversi
    /// rules, the standard four discs under Othello rules; black to move.
    pub fn start_of(rules: Rules) -> Position {
        match rules {
            Rules::Othello => Position::start(),
            Rules::Reversi => Position::othello(Board::default(), Color::Black)
                .with_rules(Rules::Reversi, None)
                .expect("the empty board starts a Reversi game"),
        }
    }

    /// `board` (from the side to move's point of view) under Othello rules, official scoring.
    fn othello(board: Board, to_move: Color) -> Position {
        Position {
            board,
            to_move,
            rules: Rules::Othello,
            scoring: Scoring::Official,
            supplies: None,
        }
    }

    /// A position from black's and white's discs under Othello rules with official scoring;
    /// `None` when they overlap.
    pub fn from_colors(black: u64, white: u64, to_move: Color) -> Option<Position> {
        let board = match to_move {
            Color::Black => Board::new(black, white)?,
            Color::White => Board::new(white, black)?,
        };
        Some(Position::othello(board, to_move))
    }

    /// The same board under `rules`, with the discs left to each side (`None`: derived assuming
    /// no pass so far, see [`Supplies::derived`]; ignored under Othello rules, where supplies
    /// never matter). Under Reversi rules the supplies must add up to the empty squares, and
    /// before the centre is full every disc must sit on it, unflipped.
    pub fn with_rules(
        self,
        rules: Rules,
        supplies: Option<Supplies>,
    ) -> Result<Position, VariantError> {
        let supplies = match rules {
            Rules::Othello => None,
            Rules::Reversi => {
                let supplies = supplies.unwrap_or_else(|| Supplies::derived(&self));
                check_reversi(&self, supplies)?;
                Some(supplies)
            }
        };
        Ok(Position {
            rules,
            supplies,
            ..self
        })
    }

    /// The same position scored by `scoring`.
    pub fn with_scoring(self, scoring: Scoring) -> Position {
        Position { scoring, ..self }
    }

    /// The same board under the rules and scoring of `variant` (see [`Position::with_rules`]).
    pub fn with_variant(
        self,
        variant: Variant,
        supplies: Option<Supplies>,
    ) -> Result<Position, VariantError> {
        Ok(self
            .with_rules(variant.rules, supplies)?
            .with_scoring(variant.scoring))
    }

    /// The move rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The scoring of the game's end.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The rules and the scoring.
    pub fn variant(&self) -> Variant {
        Variant {
            rules: self.rules,
            scoring: self.scoring,
        }
    }

    /// The discs left to each colour under Reversi rules; `None` under Othello rules.
    pub fn supplies(&self) -> Option<Supplies> {
        self.supplies
    }

    /// The position as the search walks it: the board with the discs left to the side to move
    /// and to the other side (under Othello rules, those of [`Supplies::derived`], which never
    /// matter).
    pub fn state(&self) -> GameState {
        let supplies = self.supplies.unwrap_or_else(|| Supplies::derived(self));
        GameState {
            board: self.board,
            player_left: supplies.of(self.to_move),
            opponent_left: supplies.of(self.to_move.other()),
            rules: self.rules,
        }
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        self.discs(Color::Black)
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        self.discs(Color::White)
    }

    /// The discs of `color`.
    pub fn discs(&self, color: Color) -> u64 {
        if color == self.to_move {
            self.board.player
        } else {
            self.board.opponent
        }
    }

    /// The squares the side to move may play under the rules.
    pub fn moves(&self) -> u64 {
        match self.rules {
            Rules::Othello => self.board.moves(),
            Rules::Reversi => self.state().moves(),
        }
    }

    /// The position after a disc on `sq`, or `None` when the rules do not allow it.
    pub fn play(&self, sq: Square) -> Option<Position> {
        match self.rules {
            Rules::Othello => Some(Position {
                board: self.board.play(sq)?,
                to_move: self.to_move.other(),
                ..*self
            }),
            Rules::Reversi => {
                let state = self.state();
                let index = sq.index();
                if state.moves() >> index & 1 == 0 {
                    return None;
                }
                let next = state.play(index, state.flips(index));
                let to_move = self.to_move.other();
                Some(Position {
                    board: next.board,
                    to_move,
                    supplies: Some(Supplies::of_sides(
                        to_move,
                        next.player_left,
                        next.opponent_left,
                    )),
                    ..*self
                })
            }
        }
    }

    /// The same discs, the other side to move.
    pub fn pass(&self) -> Position {
        Position {
            board: self.board.pass(),
            to_move: self.to_move.other(),
            ..*self
        }
    }

    /// True when neither side can place a disc under the rules.
    pub fn is_over(&self) -> bool {
        match self.rules {
            Rules::Othello => self.board.is_game_over(),
            Rules::Reversi => self.state().is_over(),
        }
    }

    /// The position after `line` (squares, `None` for a pass) when every move is legal.
    pub fn after(&self, line: &[Option<Square>]) -> Option<Position> {
        line.iter().try_fold(*self, |position, mv| match mv {
            Some(square) => position.play(*square),
            None => (position.moves() == 0 && !position.is_over()).then(|| position.pass()),
        })
    }
}

impl Supplies {
    /// The supplies of a position assuming nobody has passed so far: the `n` discs on the board
    /// were placed alternately, black first, so the side to move placed `n / 2` (rounded down)
    /// and the other side the rest. (When the side to move does not fit the parity of `n`, this
    /// is the count after one pass, the fewest passes that explain it.)
    pub fn derived(position: &Position) -> Supplies {
        let on_board = 64 - position.board.empties();
        let mover_placed = (on_board / 2) as u8;
        let other_placed = (on_board - on_board / 2) as u8;
        Supplies::of_sides(
            position.to_move,
            DISCS_EACH - mover_placed,
            DISCS_EACH - other_placed,
        )
    }
}

/// The checks of [`Position::with_rules`] under Reversi rules.
fn check_reversi(position: &Position, supplies: Supplies) -> Result<(), VariantError> {
    for color in [Color::Black, Color::White] {
        if supplies.of(color) > DISCS_EACH {
            return Err(VariantError::TooManyLeft {
                color,
                found: supplies.of(color),
            });
        }
    }
    let empties = position.board.empties();
    if u32::from(supplies.black) + u32::from(supplies.white) != empties {
        return Err(VariantError::SupplySum {
            black: supplies.black,
            white: supplies.white,
            empties,
        });
    }
    let empty_centre = position.board.empty() & CENTRE;
    if empty_centre != 0 {
        let outside = !position.board.empty() & !CENTRE;
        if outside != 0 {
            return Err(VariantError::OutsideCentre {
                square: first_square(outside),
                empty: first_square(empty_centre),
            });
        }
        for color in [Color::Black, Color::White] {
            let placed = DISCS_EACH - supplies.of(color);
            let found = position.discs(color).count_ones();
            if found != u32::from(placed) {
                return Err(VariantError::OpeningCount {
                    color,
                    placed,
                    found,
                });
            }
        }
    }
    Ok(())
}

fn first_square(bits: u64) -> Square {
    Square::new(bits.trailing_zeros() as usize).expect("a non-empty bitboard")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn derived_supplies_assume_alternate_placements() {
        assert_eq!(
            Supplies::derived(&Position::start()),
            Supplies {
                black: 30,
                white: 30
            }
        );
        let after = Position::start().play(sq("f5")).unwrap();
        assert_eq!(
            Supplies::derived(&after),
            Supplies {
                black: 29,
                white: 30
            }
        );
        // Black to move with an odd number of discs: black passed once.
        let odd = Position::from_colors(0b111, 0b1000, Color::Black).unwrap();
        assert_eq!(
            Supplies::derived(&odd),
            Supplies {
                black: 30,
                white: 30
            }
        );
    }

    #[test]
    fn the_reversi_opening_fills_the_centre_without_flips() {
        let start = Position::start_of(Rules::Reversi);
        assert_eq!(start.board.empties(), 64);
        assert_eq!(start.moves(), CENTRE);
        let mut p = start;
        for name in ["d4", "e4", "e5", "d5"] {
            p = p.play(sq(name)).unwrap();
        }
        // black d4 e5, white e4 d5: no flips happened, and the normal rule applies now.
        assert_eq!(p.black(), sq("d4").bit() | sq("e5").bit());
        assert_eq!(p.white(), sq("e4").bit() | sq("d5").bit());
        assert_eq!(
            p.supplies(),
            Some(Supplies {
                black: 30,
                white: 30
            })
        );
        assert!(!p.state().in_opening());
        assert_eq!(p.moves(), p.board.moves());
        assert!(start.play(sq("c4")).is_none());
    }

    #[test]
    fn an_exhausted_supply_must_pass() {
        // White to move with moves on the board but no disc left.
        let position = Position::start().play(sq("f5")).unwrap();
        let supplies = Some(Supplies {
            black: 59,
            white: 0,
        });
        let othello = position.with_rules(Rules::Othello, supplies).unwrap();
        assert_ne!(othello.moves(), 0, "Othello rules ignore the supplies");
        assert_eq!(othello.supplies(), None);
        let mut game = othello.state();
        game.player_left = 0;
        game.rules = Rules::Reversi;
        assert_eq!(game.moves(), 0);
        assert_ne!(game.pass().moves(), 0);
        assert!(!game.is_over());
    }

    #[test]
    fn impossible_reversi_positions_are_refused() {
        let start = Position::start();
        let err = |supplies| start.with_rules(Rules::Reversi, supplies).unwrap_err();
        assert_eq!(
            err(Some(Supplies {
                black: 33,
                white: 27
            }))
            .to_string(),
            "expected at most 32 discs left to black, found 33"
        );
        assert_eq!(
            err(Some(Supplies { black: 5, white: 7 })).to_string(),
            "expected the discs left (black 5 + white 7 = 12) to equal the 60 empty squares, \
             since every disc placed fills one"
        );
        let outside = Position::from_colors(sq("c3").bit(), sq("d4").bit(), Color::Black).unwrap();
        assert_eq!(
            outside
                .with_rules(Rules::Reversi, None)
                .unwrap_err()
                .to_string(),
            "under Reversi rules the first four discs go on d4 e4 d5 e5, found a disc on c3 \
             while e4 is still empty"
        );
        let count = Position::from_colors(sq("d4").bit(), 0, Color::Black).unwrap();
        assert_eq!(
            count
                .with_rules(Rules::Reversi, None)
                .unwrap_err()
                .to_string(),
            "under Reversi rules no disc is flipped while the centre fills, so black should have \
             the 0 discs it placed, found 1"
        );
        assert!(outside.with_rules(Rules::Othello, None).is_ok());
    }
}
