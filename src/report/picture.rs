//! What a board picture shows, whatever draws it ([`super::svg`] or the terminal diagram of
//! [`super::colour`]): the discs, the side to move, the discs left under Reversi rules, and
//! one kind of marks on the empty squares: the legal moves, every move's exact score (the best
//! ones highlighted), or a principal variation numbered in order. Plain data and text; no
//! drawing here.

use crate::board::rules::Supplies;
use crate::board::{Color, Position, Square};
use crate::drivers::show::Marked;
use crate::search::MoveScore;

use super::batch::plural;
use super::terms::move_name;

/// The marks on the empty squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marks {
    /// The squares the side to move may play.
    Legal,
    /// Exact scores of the moves (a pass has no square and only shows in the caption).
    Scores(Vec<MoveScore>),
    /// A principal variation from the position and its score (the sign only with `wld`).
    Line {
        /// The moves, `None` for a pass.
        pv: Vec<Option<Square>>,
        /// The score of the position for the side to move.
        score: i32,
        /// Whether the score is only win/draw/loss.
        wld: bool,
    },
}

impl From<Marked> for Marks {
    /// The marks of what `osolve show` found for a position.
    fn from(marked: Marked) -> Marks {
        match marked {
            Marked::Legal => Marks::Legal,
            Marked::Scores(scores) => Marks::Scores(scores),
            Marked::Line(solution) => Marks::Line {
                pv: solution.pv,
                score: solution.score,
                wld: solution.wld,
            },
        }
    }
}

/// A board to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The discs and the side to move.
    pub position: Position,
    /// The squares the side to move may play under the rules in force.
    pub legal: u64,
    /// True when neither side can move.
    pub over: bool,
    /// The discs left to each side, shown under Reversi rules.
    pub supplies: Option<Supplies>,
    /// The marks on the empty squares.
    pub marks: Marks,
    /// The depth of the search whose estimates the marks are (`show --depth N`); `None` when
    /// they are exact. The caption then starts `estimate (depth N)`.
    pub estimate_depth: Option<u32>,
    /// A title, such as where the position came from (may be empty).
    pub title: String,
}

/// What one square shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareMark {
    /// A disc.
    Disc(Color),
    /// Nothing.
    Empty,
    /// A legal move of the side to move.
    Legal,
    /// A move's score; `best` when no move scores more.
    Score {
        /// The score.
        score: i32,
        /// The best score of the position.
        best: bool,
    },
    /// The `number`-th disc placed along the principal variation, by `mover`.
    Step {
        /// 1 for the first disc placed.
        number: usize,
        /// Who places it.
        mover: Color,
    },
}

impl Picture {
    /// A picture of `position` with `marks`; the discs left are shown when its rules count
    /// them.
    pub fn new(position: &Position, marks: Marks, title: impl Into<String>) -> Picture {
        Picture {
            position: *position,
            legal: position.moves(),
            over: position.is_over(),
            supplies: position.supplies(),
            marks,
            estimate_depth: None,
            title: title.into(),
        }
    }

    /// The same picture with marks that are estimates of a search of `depth` plies (`None`:
    /// exact).
    pub fn with_estimate(mut self, depth: Option<u32>) -> Picture {
        self.estimate_depth = depth;
        self
    }

    /// The best score among the marks' scores, if they are scores.
    fn best_score(&self) -> Option<i32> {
        match &self.marks {
            Marks::Scores(scores) => scores.iter().map(|m| m.score).max(),
            _ => None,
        }
    }

    /// What square `square` shows.
    pub fn mark(&self, square: Square) -> SquareMark {
        let bit = square.bit();
        if self.position.black() & bit != 0 {
            return SquareMark::Disc(Color::Black);
        }
        if self.position.white() & bit != 0 {
            return SquareMark::Disc(Color::White);
        }
        match &self.marks {
            Marks::Legal if self.legal & bit != 0 => SquareMark::Legal,
            Marks::Legal => SquareMark::Empty,
            Marks::Scores(scores) => {
                scores
                    .iter()
                    .find(|m| m.mv == Some(square))
                    .map_or(SquareMark::Empty, |m| SquareMark::Score {
                        score: m.score,
                        best: Some(m.score) == self.best_score(),
                    })
            }
            Marks::Line { pv, .. } => self.steps(pv).find(|s| s.0 == square).map_or(
                SquareMark::Empty,
                |(_, number, mover)| SquareMark::Step { number, mover },
            ),
        }
    }

    /// The placements of `pv`: square, number from 1, and who places it (passes counted for
    /// the turn, not numbered).
    fn steps<'a>(
        &'a self,
        pv: &'a [Option<Square>],
    ) -> impl Iterator<Item = (Square, usize, Color)> + 'a {
        let first = self.position.to_move;
        pv.iter()
            .enumerate()
            .filter_map(move |(ply, mv)| {
                let mover = if ply % 2 == 0 { first } else { first.other() };
                mv.map(|square| (square, mover))
            })
            .enumerate()
            .map(|(i, (square, mover))| (square, i + 1, mover))
    }

    /// Whose turn it is: `black to move`, `white to move, must pass`, `game over`.
    pub fn turn(&self) -> String {
        let mover = self.position.to_move.name();
        if self.over {
            "game over".to_string()
        } else if self.legal == 0 {
            format!("{mover} to move, must pass")
        } else {
            format!("{mover} to move")
        }
    }

    /// The counts: `black 12  white 32  empties 20`, then the discs left under Reversi rules.
    pub fn counts(&self) -> String {
        let mut text = format!(
            "black {}  white {}  empties {}",
            self.position.black().count_ones(),
            self.position.white().count_ones(),
            self.position.board.empties()
        );
        if let Some(left) = self.supplies {
            text.push_str(&format!(
                "  discs left: black {}, white {}",
                left.black, left.white
            ));
        }
        text
    }

    /// The line under the board about the marks: `best a2 +38` (or `best -- (pass) -12`), or
    /// `score +38  pv a2 b1 -- c1`, after `estimate (depth N): ` for estimates; `None` for
    /// legal moves.
    pub fn caption(&self) -> Option<String> {
        let caption = self.exact_caption()?;
        Some(match self.estimate_depth {
            // Never written as proven: `estimate (depth 8): best b8 +16`.
            Some(depth) => format!("estimate (depth {depth}): {caption}"),
            None => caption,
        })
    }

    /// [`Picture::caption`] without the estimate's label.
    fn exact_caption(&self) -> Option<String> {
        match &self.marks {
            Marks::Legal => None,
            Marks::Scores(scores) => {
                let best = self.best_score()?;
                let moves: Vec<String> = scores
                    .iter()
                    .filter(|m| m.score == best)
                    .map(|m| move_name(m.mv))
                    .collect();
                Some(format!("best {} {best:+}", moves.join(" ")))
            }
            Marks::Line { pv, score, wld } => {
                let moves: Vec<String> = pv.iter().map(|&mv| move_name(mv)).collect();
                let value = if *wld {
                    super::terms::Outcome::of(*score).name().to_string()
                } else {
                    format!("{score:+}")
                };
                Some(format!("score {value}  pv {}", moves.join(" ")))
            }
        }
    }
}

/// What an interrupted `osolve show` says last, on standard error: how many positions were
/// shown before the stop, `interrupted: 2 positions shown`.
pub fn interrupted_line(shown: usize) -> String {
    format!("interrupted: {shown} position{} shown", plural(shown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::Rules;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn marks_of_each_kind() {
        let start = Position::start_of(Rules::Othello);
        let plain = Picture::new(&start, Marks::Legal, "");
        assert_eq!(plain.mark(sq("d3")), SquareMark::Legal);
        assert_eq!(plain.mark(sq("a1")), SquareMark::Empty);
        assert_eq!(plain.mark(sq("e4")), SquareMark::Disc(Color::Black));
        assert_eq!(plain.caption(), None);
        assert_eq!(plain.turn(), "black to move");
        assert_eq!(plain.counts(), "black 2  white 2  empties 60");

        let scores = vec![
            MoveScore {
                mv: Some(sq("d3")),
                score: 0,
            },
            MoveScore {
                mv: Some(sq("f5")),
                score: 0,
            },
            MoveScore {
                mv: Some(sq("c4")),
                score: -2,
            },
        ];
        let analysed = Picture::new(&start, Marks::Scores(scores), "");
        assert_eq!(
            analysed.mark(sq("d3")),
            SquareMark::Score {
                score: 0,
                best: true
            }
        );
        assert_eq!(
            analysed.mark(sq("c4")),
            SquareMark::Score {
                score: -2,
                best: false
            }
        );
        assert_eq!(analysed.mark(sq("e6")), SquareMark::Empty);
        assert_eq!(analysed.caption().as_deref(), Some("best d3 f5 +0"));

        let line = Marks::Line {
            pv: vec![Some(sq("f5")), None, Some(sq("d6"))],
            score: 4,
            wld: false,
        };
        let solved = Picture::new(&start, line, "");
        assert_eq!(
            solved.mark(sq("f5")),
            SquareMark::Step {
                number: 1,
                mover: Color::Black
            }
        );
        // After white's pass black places the second disc.
        assert_eq!(
            solved.mark(sq("d6")),
            SquareMark::Step {
                number: 2,
                mover: Color::Black
            }
        );
        assert_eq!(solved.caption().as_deref(), Some("score +4  pv f5 -- d6"));
    }

    #[test]
    fn reversi_pictures_count_the_discs_left() {
        let start = Position::start_of(Rules::Reversi);
        let picture = Picture::new(&start, Marks::Legal, "");
        assert_eq!(picture.legal.count_ones(), 4);
        assert_eq!(
            picture.counts(),
            "black 0  white 0  empties 64  discs left: black 32, white 32"
        );
    }

    #[test]
    fn an_interrupted_show_counts_the_positions_shown() {
        assert_eq!(interrupted_line(0), "interrupted: 0 positions shown");
        assert_eq!(interrupted_line(1), "interrupted: 1 position shown");
        assert_eq!(interrupted_line(2), "interrupted: 2 positions shown");
    }
}
