"""osolve: an exact Othello endgame solver, from Python.

Positions from any notation osolve reads, exact solving with a table kept across calls,
parallel batch labelling into numpy arrays, and the position and game file readers of the
osolve library. Every answer comes from the Rust library (the compiled module
``osolve._osolve``); see docs/python.md in the repository.
"""

from ._osolve import (
    FEASIBLE_EMPTIES,
    MOVE_NONE,
    MOVE_PASS,
    PASS,
    SCORE_UNFINISHED,
    Batch,
    Game,
    GameError,
    GameReader,
    IllegalMoveError,
    LimitReached,
    ParseError,
    Position,
    Progress,
    PositionReader,
    Record,
    Solution,
    Solver,
    TooManyEmptiesError,
    __version__,
    read_games,
    read_positions,
)

__all__ = [
    "FEASIBLE_EMPTIES",
    "MOVE_NONE",
    "MOVE_PASS",
    "PASS",
    "SCORE_UNFINISHED",
    "Batch",
    "Game",
    "GameError",
    "GameReader",
    "IllegalMoveError",
    "LimitReached",
    "ParseError",
    "Position",
    "Progress",
    "PositionReader",
    "Record",
    "Solution",
    "Solver",
    "TooManyEmptiesError",
    "__version__",
    "read_games",
    "read_positions",
]
