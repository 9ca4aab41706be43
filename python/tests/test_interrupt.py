"""Ctrl-C: KeyboardInterrupt stops a long search within a fraction of a second and leaves the
solver usable."""

import _thread
import signal
import threading
import time

import pytest

import osolve

FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


@pytest.fixture(autouse=True)
def sigint_raises():
    # A process started in the background by a non-interactive shell (`cmd &`, as some CI
    # runners and `nohup ... &` start it) inherits SIGINT ignored; Python then installs no
    # handler and `interrupt_main` does nothing. These tests are about Ctrl-C reaching a
    # search, so they give SIGINT Python's own handler while they run.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def deep_position(repo):
    return next(iter(osolve.read_positions(repo / "positions" / "ffo-45.obf"))).position


def interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


@pytest.mark.parametrize("threads", [1, 2])
def test_keyboard_interrupt_stops_solve(repo, threads):
    solver = osolve.Solver(threads=threads, hash_mb=64)
    position = deep_position(repo)
    assert position.empties >= 24
    interrupt_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(position)
    elapsed = time.monotonic() - start
    assert elapsed < 0.3 + 0.5, elapsed
    # The solver goes on: the next search runs and is right.
    assert solver.solve(osolve.Position(FFO1)).score == 18
    assert solver.score_moves(osolve.Position(FFO1))["g8"] == 18


def test_keyboard_interrupt_stops_solve_many(repo):
    solver = osolve.Solver(threads=2, hash_mb=64)
    positions = [deep_position(repo).play(m) for m in deep_position(repo).legal_moves]
    # 23 empties: solved one at a time on both threads.
    assert all(p.empties == 23 for p in positions)
    interrupt_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        solver.solve_many(positions * 3)
    assert time.monotonic() - start < 0.8
    batch = solver.solve_many([osolve.Position(FFO1)] * 3)
    assert batch.scores.tolist() == [18, 18, 18]
    # The solver of the deep positions, stopped, is the one of solve: it goes on too.
    assert solver.solve(osolve.Position(FFO1)).score == 18


def test_keyboard_interrupt_stops_parallel_labelling(repo):
    # 18-empties positions: solved in parallel, one per thread.
    game = next(iter(osolve.read_games(repo / "tests" / "data" / "games" / "sample.wtb")))
    position = game.at_empties(20)[1]
    positions = []
    for move in position.legal_moves:
        child = position.play(move)
        positions += [child.play(m) for m in child.legal_moves]
    assert all(p.empties == 18 for p in positions)
    solver = osolve.Solver(threads=2, hash_mb=64)
    interrupt_after(0.2)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        solver.solve_many(positions * 50)
    assert time.monotonic() - start < 0.7
    assert solver.solve_many(positions[:2]).exact.all()
