//! The driver behind `osolve show`: what each position's picture marks besides its discs (the
//! legal moves, every legal move's exact score, or the principal variation), found by the one
//! solver under the position's rules. A position too deep to finish without a limit or `force`
//! is refused by the solver itself; a search that reaches a limit gives what it proved.
//!
//! It never prints and never draws: `report::picture` turns a [`Marked`] into the marks of a
//! picture, and the binary writes it.

use crate::board::Position;
use crate::drivers::analyze::ESTIMATE_HASH_MB;
use crate::engine::estimate::{EstimateError, Estimator};
use crate::search::{
    Bounds, Exactness, Limits, MoveScore, SearchError, Solution, SolveError, SolveOptions, Solver,
    StopHandle, StopReason, TooManyEmpties,
};

/// What the pictures of a run mark besides the discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marking {
    /// The legal moves: nothing is solved.
    Legal,
    /// Every legal move's exact score (`show --analyze`).
    Scores,
    /// The principal variation (`show --solve`).
    Line,
}

/// What one position's picture marks.
#[derive(Clone, Debug, PartialEq)]
pub enum Marked {
    /// The legal moves (with [`Marking::Legal`], or when a limit stopped the search of the
    /// principal variation).
    Legal,
    /// Move scores, best first: every legal move's, or those proven before a limit.
    Scores(Vec<MoveScore>),
    /// The solution, whose principal variation is drawn.
    Line(Solution),
}

/// One position's marks, and the bounds a limit left when it stopped the search first.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// What the picture marks.
    pub marked: Marked,
    /// `Some` when a time or node limit stopped the search: the bounds it proved.
    pub unfinished: Option<Bounds>,
    /// Exact, or estimates of a search to a depth (see [`Marker::with_depth`]).
    pub exactness: Exactness,
}

/// Why a position gets no picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotShown {
    /// The solver refused it: too deep to finish without a limit or `force`.
    Refused(TooManyEmpties),
    /// A stop request ended the search: the run ends here.
    Stopped,
    /// An estimate was asked for under other rules or scoring than Othello's official ones.
    Rules,
}

/// The marks of a run: the marking, and the solver that finds scores and lines (none for
/// [`Marking::Legal`]).
pub struct Marker {
    marking: Marking,
    solver: Option<Box<Solver>>,
    /// With a depth, the estimates' search and its depth instead of the solver's proofs.
    estimate: Option<(Estimator, u32)>,
}

impl Marker {
    /// A marker for `marking`; its solver (when the marking needs one) has `options` and
    /// `limits`, and refuses positions too deep to finish unless `options.force`.
    pub fn new(
        marking: Marking,
        options: SolveOptions,
        limits: Limits,
    ) -> Result<Marker, SearchError> {
        let solver = match marking {
            Marking::Legal => None,
            Marking::Scores | Marking::Line => {
                let mut solver = Solver::new(options)?;
                solver.set_limits(limits);
                Some(Box::new(solver))
            }
        };
        Ok(Marker {
            marking,
            solver,
            estimate: None,
        })
    }

    /// The same marker estimating scores and lines by a search of `depth` plies instead of
    /// solving (`None`: exact); stopped by the solver's handle. Othello rules with official
    /// scoring only: other positions are refused as [`NotShown::Rules`].
    pub fn with_depth(mut self, depth: Option<u32>) -> Marker {
        self.estimate = depth.map(|depth| (Estimator::new(ESTIMATE_HASH_MB), depth));
        self
    }

    /// The handle that stops the solver's searches; `None` when nothing is solved.
    pub fn stop_handle(&self) -> Option<StopHandle> {
        self.solver.as_ref().map(|solver| solver.stop_handle())
    }

    /// What the picture of `position` marks.
    pub fn mark(&mut self, position: &Position) -> Result<Shown, NotShown> {
        let Some(solver) = self.solver.as_mut() else {
            return Ok(Shown {
                marked: Marked::Legal,
                unfinished: None,
                exactness: Exactness::Exact,
            });
        };
        if let Some((estimator, depth)) = self.estimate.as_mut() {
            let stop = solver.stop_handle();
            let estimated = match self.marking {
                Marking::Scores => estimator
                    .score_moves(position, *depth, false, Some(&stop))
                    .map(|e| (Marked::Scores(e.moves), e.exactness)),
                Marking::Line | Marking::Legal => estimator
                    .solve(position, *depth, Some(&stop))
                    .map(|solution| {
                        let exactness = solution.exactness;
                        (Marked::Line(solution), exactness)
                    }),
            };
            return match estimated {
                Ok((marked, exactness)) => Ok(Shown {
                    marked,
                    unfinished: None,
                    exactness,
                }),
                Err(EstimateError::Stopped(_)) => Err(NotShown::Stopped),
                Err(EstimateError::Rules) => Err(NotShown::Rules),
            };
        }
        let result = match self.marking {
            Marking::Scores => solver
                .score_moves(position)
                .map(|(scores, _)| Marked::Scores(scores)),
            Marking::Line | Marking::Legal => solver.solve(position).map(Marked::Line),
        };
        match result {
            Ok(marked) => Ok(Shown {
                marked,
                unfinished: None,
                exactness: Exactness::Exact,
            }),
            Err(SolveError::Refused(refused)) => Err(NotShown::Refused(refused)),
            Err(SolveError::Unfinished(unfinished)) => {
                if unfinished.bounds.reason == StopReason::Interrupted {
                    return Err(NotShown::Stopped);
                }
                let marked = match self.marking {
                    Marking::Scores => Marked::Scores(unfinished.moves),
                    Marking::Line | Marking::Legal => Marked::Legal,
                };
                Ok(Shown {
                    marked,
                    unfinished: Some(unfinished.bounds),
                    exactness: Exactness::Exact,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    fn options() -> SolveOptions {
        SolveOptions {
            threads: 1,
            hash_mb: 4,
            ..SolveOptions::default()
        }
    }

    #[test]
    fn marks_refusals_and_limits() {
        // FFO #1: 14 empties, g8 scores +18.
        let ffo1 =
            parse_position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
                .unwrap()
                .position;
        let mut legal = Marker::new(Marking::Legal, options(), Limits::NONE).unwrap();
        assert!(legal.stop_handle().is_none());
        assert_eq!(legal.mark(&ffo1).unwrap().marked, Marked::Legal);
        let mut scores = Marker::new(Marking::Scores, options(), Limits::NONE).unwrap();
        match scores.mark(&ffo1).unwrap() {
            Shown {
                marked: Marked::Scores(moves),
                unfinished: None,
                exactness: Exactness::Exact,
            } => assert_eq!((moves[0].score, moves.len()), (18, 8)),
            other => panic!("expected every move's score, found {other:?}"),
        }
        assert_eq!(
            scores.mark(&Position::start()),
            Err(NotShown::Refused(TooManyEmpties { empties: 60 }))
        );
        let limits = Limits {
            nodes: Some(1_000),
            ..Limits::NONE
        };
        let mut line = Marker::new(Marking::Line, options(), limits).unwrap();
        let shown = line.mark(&Position::start()).unwrap();
        assert_eq!(shown.marked, Marked::Legal);
        assert_eq!(
            shown.unfinished.map(|b| b.reason),
            Some(StopReason::NodeLimit)
        );
        line.stop_handle().unwrap().stop();
        assert_eq!(line.mark(&ffo1), Err(NotShown::Stopped));
    }
}
