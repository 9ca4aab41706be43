"""Scores, best moves and principal variations against the osolve CLI on the same positions:
FFO #1-#19 (every move) and seeded random positions; solve_many against solve; one and two
threads."""

import random

import numpy as np
import pytest

import osolve
from conftest import cli_json_lines


@pytest.fixture(scope="module")
def ffo(repo):
    return list(osolve.read_positions(repo / "positions" / "ffo-1-19.obf"))


@pytest.fixture(scope="module")
def ffo_cli(repo):
    """`osolve analyze` of FFO #1-#19: every move's score, by line."""
    rows = cli_json_lines("analyze", repo / "positions" / "ffo-1-19.obf", "--format", "jsonl", "--threads", "2", "-q")
    return {int(row["source"].rsplit(":", 1)[1]): row for row in rows}


def random_positions(count, empties, seed):
    """Positions reached by seeded random play (through Position.play), `empties` empties each."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = osolve.Position.start()
        while position.empties > empties and not position.is_game_over:
            moves = position.legal_moves
            position = position.play(rng.choice(moves) if moves else "pass")
        if position.empties == empties and not position.is_game_over:
            positions.append(position)
    return positions


def test_ffo_1_19_every_move_equals_the_cli_and_the_obf(ffo, ffo_cli, solver):
    assert len(ffo) == 19
    for record in ffo:
        scores = solver.score_moves(record.position)
        cli = ffo_cli[record.line]
        assert scores == {m["move"]: m["score"] for m in cli["moves"]}, record.line
        assert list(scores) == [m["move"] for m in cli["moves"]], record.line
        # The OBF annotations are the published FFO scores.
        assert scores == record.expected, record.line


def test_ffo_1_19_solve_equals_the_cli(ffo, repo, solver):
    cli = cli_json_lines("solve", repo / "positions" / "ffo-1-19.obf", "--json", "--threads", "1", "--hash-mb", "64")
    one = osolve.Solver(threads=1, hash_mb=64)
    assert len(cli) == 19
    for record, row in zip(ffo, cli):
        solution = one.solve(record.position)
        assert solution.exact and solution.stop_reason is None
        assert solution.score == row["score"] == max(record.expected.values())
        assert solution.best_move == row["best_move"]
        assert solution.pv == cli_moves(row["pv"])
        assert solution.final_discs == (row["final_discs"]["black"], row["final_discs"]["white"])
        # One thread is deterministic: the same search as the CLI's.
        assert solution.nodes == row["nodes"]
        assert solution.threads == 1
        assert two_thread_score(solver, record.position) == solution.score


def cli_moves(moves):
    """The CLI writes a pass `--`, the package `pass`."""
    return ["pass" if m == "--" else m for m in moves]


def two_thread_score(solver, position):
    return solver.solve(position).score


def test_random_positions_equal_the_cli(tmp_path):
    positions = random_positions(40, 14, seed=7) + random_positions(10, 18, seed=8)
    path = tmp_path / "random.txt"
    path.write_text("".join(f"{p}\n" for p in positions))
    cli = cli_json_lines("solve", path, "--json", "--threads", "1", "--hash-mb", "32")
    one = osolve.Solver(threads=1, hash_mb=32)
    two = osolve.Solver(threads=2, hash_mb=32)
    assert len(cli) == len(positions)
    for position, row in zip(positions, cli):
        assert row["position"] == str(position)
        solution = one.solve(position)
        assert (solution.score, solution.best_move, solution.pv, solution.nodes) == (
            row["score"],
            row["best_move"],
            cli_moves(row["pv"]),
            row["nodes"],
        )
        assert two.solve(position).score == row["score"]
    batch = two.solve_many(positions)
    assert batch.scores.tolist() == [row["score"] for row in cli]


def test_solve_many_order_shape_and_both_inputs():
    positions = random_positions(30, 12, seed=3) + random_positions(6, 20, seed=4) + random_positions(30, 10, seed=5)
    solver = osolve.Solver(threads=2, hash_mb=32)
    expected = [solver.solve(p) for p in positions]
    array = np.array([[p.player, p.opponent] for p in positions], dtype=np.uint64)
    for given in (positions, array, tuple(positions)):
        batch = solver.solve_many(given)
        assert len(batch) == len(positions)
        for name, dtype in (("scores", np.int8), ("lower", np.int8), ("upper", np.int8), ("best_moves", np.int8), ("nodes", np.uint64)):
            column = getattr(batch, name)
            assert isinstance(column, np.ndarray) and column.shape == (len(positions),) and column.dtype == dtype, name
        assert batch.scores.tolist() == [s.score for s in expected]
        assert batch.exact.all()
        assert (batch.lower == batch.scores).all() and (batch.upper == batch.scores).all()
        assert (batch.nodes > 0).all()
        # A best move reaches the best score: playing it, the child's score is its negation.
        for position, score, move in zip(positions, batch.scores.tolist(), batch.best_move_names()):
            assert solver.score_moves(position)[move] == score
    assert len(solver.solve_many(np.zeros((0, 2), dtype=np.uint64))) == 0
    assert len(solver.solve_many([])) == 0


def test_solve_many_keeps_its_tables_until_clear():
    # One thread: the nodes are deterministic. The workers (positions of up to 19 empties) and
    # the solver of the deeper ones keep their tables from call to call; clear() empties them.
    positions = random_positions(8, 16, seed=6) + random_positions(1, 20, seed=7)
    solver = osolve.Solver(threads=1, hash_mb=16)
    first = solver.solve_many(positions)
    again = solver.solve_many(positions)
    assert again.scores.tolist() == first.scores.tolist()
    assert (again.nodes < first.nodes).all()
    solver.clear()
    assert solver.solve_many(positions).nodes.tolist() == first.nodes.tolist()


def test_solve_many_black_to_move_rows_and_special_moves():
    passing = osolve.Position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--O O")
    assert passing.must_pass
    over = osolve.Position("X" * 63 + "- X")
    solver = osolve.Solver(threads=2, hash_mb=16)
    batch = solver.solve_many([passing, over])
    assert batch.best_moves.tolist() == [osolve.MOVE_PASS, osolve.MOVE_NONE]
    assert batch.best_move_names() == ["pass", None]
    assert batch.scores.tolist() == [solver.solve(passing).score, 64]
    assert solver.solve(passing).best_move == "pass" and solver.solve(over).best_move is None
    assert solver.solve(over).pv == []


def test_threads_one_and_two_agree():
    positions = random_positions(20, 16, seed=11)
    one = osolve.Solver(threads=1, hash_mb=32)
    two = osolve.Solver(threads=2, hash_mb=32)
    assert one.threads == 1 and two.threads == 2
    assert one.solve_many(positions).scores.tolist() == two.solve_many(positions).scores.tolist()
    for position in positions[:5]:
        assert one.score_moves(position) == two.score_moves(position)
        assert one.best_moves(position) == two.best_moves(position)


def test_wld_and_other_rules():
    position = osolve.Position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    wld = osolve.Solver(threads=1, hash_mb=16, wld=True)
    assert wld.wld
    solution = wld.solve(position)
    assert solution.score == 1 and solution.wld and solution.final_discs is None
    raw = osolve.Position(str(position), scoring="raw")
    assert raw.scoring == "raw"
    cli = cli_json_lines("solve", "-p", str(position), "--json", "--threads", "1", "--scoring", "raw")[0]
    assert osolve.Solver(threads=1, hash_mb=16).solve(raw).score == cli["score"]


def test_limits_give_bounds():
    position = random_positions(1, 24, seed=2)[0]
    solver = osolve.Solver(threads=2, hash_mb=32)
    stopped = solver.solve(position, node_limit=20_000)
    assert not stopped.exact and stopped.score is None
    assert stopped.stop_reason == "node limit"
    assert -64 <= stopped.lower <= stopped.upper <= 64 and stopped.lower < stopped.upper
    exact = solver.solve(position)
    assert exact.exact and stopped.lower <= exact.score <= stopped.upper
    timed = osolve.Solver(threads=1, hash_mb=16).solve(random_positions(1, 30, seed=2)[0], time_limit=0.05)
    assert timed.stop_reason == "time limit" and timed.seconds < 2
    # A fresh solver: the first one's table holds the exact score now.
    fresh = osolve.Solver(threads=2, hash_mb=32)
    batch = fresh.solve_many([position, random_positions(1, 10, seed=1)[0]], node_limit=20_000)
    assert batch.exact.tolist() == [False, True]
    assert batch.scores[0] == osolve.SCORE_UNFINISHED
    assert batch.lower[0] <= exact.score <= batch.upper[0]


def test_progress_callback():
    calls = []
    positions = random_positions(200, 14, seed=21)
    osolve.Solver(threads=2, hash_mb=32).solve_many(positions, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (200, 200)
    assert all(total == 200 for _, total in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
