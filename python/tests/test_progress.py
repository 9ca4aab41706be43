"""Solver.solve(progress=...): the library's progress events on the calling thread, bounds that
only narrow and hold the true score, the last event finished at the exact score with the best
move (FFO #40, one thread); a callback that raises stops the search; small positions send
none."""

import pytest

import osolve

FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def ffo40(repo):
    return next(iter(osolve.read_positions(repo / "positions" / "ffo-40.obf"))).position


def test_events_narrow_to_the_exact_score_and_best_move(repo):
    solver = osolve.Solver(threads=1, hash_mb=64)
    events = []
    solution = solver.solve(ffo40(repo), progress=events.append)
    assert (solution.score, solution.best_move) == (38, "a2")
    assert len(events) >= 5
    first, last = events[0], events[-1]
    assert (first.stage, first.selective_pass, first.margin) == ("selective", (1, 4), 8)
    assert (first.lower, first.upper, first.estimate) == (-64, 64, None)
    for a, b in zip(events, events[1:]):
        assert b.lower >= a.lower and b.upper <= a.upper, (a, b)
        assert b.nodes >= a.nodes and b.seconds >= a.seconds, (a, b)
    assert all(e.lower <= 38 <= e.upper for e in events)
    stages = [e.stage for e in events]
    assert {"selective", "exact", "pv"} <= set(stages)
    assert any(e.window is not None and e.window[1] - e.window[0] == 2 for e in events)
    assert (last.stage, last.lower, last.upper, last.best_move) == ("finished", 38, 38, "a2")
    assert last.nodes == solution.nodes
    assert stages.count("finished") == 1
    assert repr(last).startswith("<osolve.Progress finished +38..+38 best_move=a2 nodes=")


def test_a_limit_ends_with_the_stopped_bounds(repo):
    solver = osolve.Solver(threads=1, hash_mb=64)
    events = []
    solution = solver.solve(ffo40(repo), node_limit=2_000_000, progress=events.append)
    assert not solution.exact
    last = events[-1]
    assert (last.stage, last.stop_reason) == ("stopped", "node limit")
    assert (last.lower, last.upper) == (solution.lower, solution.upper)


def test_a_raising_callback_stops_the_search_and_small_positions_send_nothing(repo):
    solver = osolve.Solver(threads=1, hash_mb=64)

    def fail(event):
        raise ValueError(f"seen {event.stage}")

    with pytest.raises(ValueError, match="seen selective"):
        solver.solve(ffo40(repo), progress=fail)
    # The solver goes on; FFO #1 (14 empties) sends events, 11 empties none.
    events = []
    solution = solver.solve(osolve.Position(FFO1), progress=events.append)
    assert solution.score == 18
    assert events[-1].stage == "finished" and events[-1].best_move == "g8"
    small = osolve.Position(FFO1)
    for move in solution.pv[:3]:
        small = small.play(move)
    assert small.empties == 11
    events.clear()
    solver.solve(small, progress=events.append)
    assert events == []
