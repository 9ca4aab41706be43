"""Every error path: the library's messages as Python exceptions, with their places."""

import subprocess
import sys

import numpy as np
import pytest

import osolve
from conftest import cli_path

FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def test_parse_error_is_a_value_error_with_line_and_column():
    assert issubclass(osolve.ParseError, ValueError)
    with pytest.raises(osolve.ParseError) as caught:
        osolve.Position("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOOZ- X")
    error = caught.value
    assert (error.file, error.line, error.column) == ("<position>", 1, 63)
    assert error.reason == "expected a board cell (X x * B b, O o W w or - . _), found 'Z'"
    assert str(error) == "<position>:1:63: " + error.reason
    with pytest.raises(osolve.ParseError, match="expected 64 board cells before the side to move, found 3"):
        osolve.Position("XO- X")
    with pytest.raises(osolve.ParseError, match=r"move 2: e6 is not legal"):
        osolve.Position("f5e6")
    with pytest.raises(osolve.ParseError, match="found nothing"):
        osolve.Position("   ")
    with pytest.raises(osolve.ParseError, match="a board with no discs"):
        osolve.Position("-" * 64 + " X")


def test_bad_lines_of_a_file(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text(f"{FFO1}\n# a comment\n\nf5d6\nf5f5\n{FFO1}\n")
    reader = osolve.read_positions(path)
    assert next(reader).line == 1
    assert next(reader).line == 4
    with pytest.raises(osolve.ParseError) as caught:
        next(reader)
    assert (caught.value.file, caught.value.line, caught.value.column) == (str(path), 5, 3)
    assert next(reader).line == 6
    assert [r.line for r in osolve.read_positions(path, skip_errors=True)] == [1, 4, 6]
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        osolve.read_positions(tmp_path / "missing.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"f5\xff\n")
    with pytest.raises(osolve.ParseError, match="expected UTF-8 text, found the byte 0xff") as caught:
        list(osolve.read_positions(binary))
    assert caught.value.column == 3


def cli_error(*args):
    """The exit code and standard error of the osolve binary on ARGS."""
    result = subprocess.run([str(cli_path()), *map(str, args)], capture_output=True, text=True, timeout=600)
    return result.returncode, result.stderr


def test_a_file_without_positions_is_a_value_error_in_the_cli_words(tmp_path):
    for name, text in [("empty.obf", ""), ("notes.obf", "# only\n\n% comments\n")]:
        path = tmp_path / name
        path.write_text(text)
        reader = osolve.read_positions(path)
        with pytest.raises(ValueError) as caught:
            next(reader)
        assert type(caught.value) is ValueError
        message = f"{path}: no positions (the input is empty or has only blank lines and comments)"
        assert str(caught.value) == message
        # Raised once: the iteration then ends.
        with pytest.raises(StopIteration):
            next(reader)
        assert cli_error("solve", path) == (2, f"osolve: {message}\n")
    # A file of bad lines is not empty: its lines are skipped, and nothing is raised.
    bad = tmp_path / "bad.obf"
    bad.write_text("zz\n")
    assert list(osolve.read_positions(bad, skip_errors=True)) == []


def test_a_file_without_games_is_a_value_error_in_the_cli_words(tmp_path, repo):
    empty = tmp_path / "empty.txt"
    empty.write_text("# no game\n")
    header = bytearray((repo / "tests" / "data" / "games" / "sample.wtb").read_bytes()[:16])
    header[4:8] = bytes(4)  # the count of games
    zero = tmp_path / "zero.wtb"
    zero.write_bytes(bytes(header))
    for path, why in [
        (empty, "the input is empty or has only blank lines and comments"),
        (zero, "the input is a WThor file whose header counts 0 games"),
    ]:
        with pytest.raises(ValueError) as caught:
            list(osolve.read_games(path))
        assert type(caught.value) is ValueError
        message = f"{path}: no games ({why})"
        assert str(caught.value) == message
        assert cli_error("games", path, "--empties", "10", "-q") == (2, f"osolve: {message}\n")


def test_game_errors(tmp_path, repo):
    assert issubclass(osolve.GameError, ValueError)
    data = (repo / "tests" / "data" / "games" / "sample.wtb").read_bytes()
    cut = tmp_path / "cut.wtb"
    cut.write_bytes(data[: 16 + 68 * 2 + 30])
    with pytest.raises(osolve.GameError) as caught:
        list(osolve.read_games(cut))
    assert caught.value.file == str(cut) and caught.value.game is None
    assert str(caught.value) == f"{cut}: the header counts 6 games but the file holds 2 records of 68 bytes and 30 bytes more"
    bad = tmp_path / "games.txt"
    bad.write_text("f5d6c3d3c4f4f6f3e6e7\nf5f5\n")
    with pytest.raises(osolve.GameError) as caught:
        list(osolve.read_games(bad))
    assert caught.value.line == 1 and caught.value.game == 1
    with pytest.raises(FileNotFoundError):
        osolve.read_games(tmp_path / "none.wtb")


def test_moves_that_cannot_be_played():
    start = osolve.Position.start()
    assert issubclass(osolve.IllegalMoveError, ValueError)
    with pytest.raises(osolve.IllegalMoveError, match="d4 is not legal: black to move, the square is taken"):
        start.play("d4")
    with pytest.raises(osolve.IllegalMoveError, match="a1 is not legal: black to move, it flips nothing"):
        start.play("a1")
    with pytest.raises(osolve.IllegalMoveError, match="cannot pass: black has a legal move"):
        start.play("pass")
    with pytest.raises(osolve.IllegalMoveError, match="the game is over"):
        osolve.Position("X" * 64 + " O").play("pass")
    with pytest.raises(ValueError, match="expected a square a1..h8"):
        start.play("z9")


def test_bad_arguments():
    with pytest.raises(ValueError, match="rules: expected othello or reversi, found 'go'"):
        osolve.Position(FFO1, rules="go")
    with pytest.raises(ValueError, match="scoring: expected official or raw"):
        osolve.Position.start(scoring="fair")
    with pytest.raises(ValueError, match="overlap"):
        osolve.Position.from_bitboards(1, 3)
    with pytest.raises(OverflowError):
        osolve.Position.from_bitboards(-1, 0)
    with pytest.raises(ValueError, match="to_move: expected 'black' or 'white'"):
        osolve.Position.from_bitboards(1, 2, to_move="red")
    with pytest.raises(ValueError, match=r"shape \(8, 8\) or \(64,\), found \[3, 3\]"):
        osolve.Position.from_array(np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"cell 1 \(b1\): expected 1 \(black\), -1 \(white\) or 0"):
        osolve.Position.from_array([0, 2] + [0] * 62)
    with pytest.raises(ValueError, match="the discs left"):
        osolve.Position.from_bitboards(1 << 27 | 1 << 36, 1 << 28 | 1 << 35, rules="reversi", supplies=(5, 5))
    with pytest.raises(ValueError, match="hash_mb"):
        osolve.Solver(hash_mb=0)
    # Beyond the machine's memory: an error, not an aborted interpreter.
    with pytest.raises(ValueError, match=r"hash_mb: expected at most \d+ MiB"):
        osolve.Solver(hash_mb=10**9)
    solver = osolve.Solver(threads=1, hash_mb=16)
    with pytest.raises(ValueError, match="time_limit"):
        solver.solve(osolve.Position(FFO1), time_limit=-1)
    with pytest.raises(ValueError, match=r"expected an \(N, 2\) array .* found shape \(4, 3\)"):
        solver.solve_many(np.zeros((4, 3), dtype=np.uint64))
    with pytest.raises(TypeError, match="dtype uint64"):
        solver.solve_many(np.zeros((4, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="row 1: the two bitboards overlap"):
        solver.solve_many(np.array([[1 << 27 | 1 << 36, 1 << 28 | 1 << 35], [1, 1]], dtype=np.uint64))
    with pytest.raises(ValueError, match="row 0: a board with no discs"):
        solver.solve_many(np.zeros((1, 2), dtype=np.uint64))
    with pytest.raises(TypeError, match="item 1: expected an osolve.Position, found str"):
        solver.solve_many([osolve.Position(FFO1), FFO1])


def test_threads_and_table_sizes_out_of_range_are_value_errors():
    # -1 (all cores, elsewhere) was an OverflowError from the conversion to an unsigned size.
    for threads in (-1, 1025):
        expected = rf"^threads: expected a number of threads from 0 \(one per core\) to 1024, found {threads}$"
        with pytest.raises(ValueError, match=expected):
            osolve.Solver(threads=threads)
    with pytest.raises(ValueError, match="^hash_mb: expected at least 1 MiB$"):
        osolve.Solver(hash_mb=-1)
    assert osolve.Solver(threads=1, hash_mb=1).threads == 1


def test_too_many_empties_says_how_to_force():
    solver = osolve.Solver(threads=1, hash_mb=16)
    with pytest.raises(osolve.TooManyEmptiesError) as caught:
        solver.solve(osolve.Position.start())
    assert caught.value.empties == 60
    assert "pass force=True" in str(caught.value)
    assert str(caught.value).startswith("60 empty squares: not solved")
    with pytest.raises(osolve.TooManyEmptiesError):
        solver.score_moves(osolve.Position.start())
    with pytest.raises(osolve.TooManyEmptiesError):
        solver.solve_many([osolve.Position(FFO1), osolve.Position.start()])
    # With a limit the same position gives bounds instead.
    bounded = solver.solve(osolve.Position.start(), node_limit=10_000)
    assert not bounded.exact and bounded.stop_reason == "node limit"


def test_limit_reached_from_move_scores(repo):
    position = next(iter(osolve.read_positions(repo / "positions" / "ffo-45.obf"))).position
    solver = osolve.Solver(threads=1, hash_mb=16)
    with pytest.raises(osolve.LimitReached) as caught:
        solver.score_moves(position, node_limit=5_000)
    error = caught.value
    assert error.reason == "node limit" and error.lower <= error.upper
    assert isinstance(error.scores, dict)
    with pytest.raises(osolve.LimitReached):
        solver.best_moves(position, time_limit=0.0)


def test_progress_callback_errors_stop_the_batch():
    def boom(done, total):
        raise ZeroDivisionError("from the callback")

    positions = [osolve.Position(FFO1)] * 2000
    solver = osolve.Solver(threads=2, hash_mb=16)
    with pytest.raises(ZeroDivisionError, match="from the callback"):
        solver.solve_many(positions, progress=boom)
    assert solver.solve(osolve.Position(FFO1)).score == 18


# Under `ulimit -v 1000000` (about 976 MiB of address space; the interpreter with the package
# takes some 20 MiB): a 2048 MiB table is refused, a 16 MiB one is made after it; a 900 MiB
# Solver on three threads (512 MiB of tables, its size rounded down) is made, but the three
# workers of its first solve_many (256 MiB each at most, 176 MiB of tables) are refused, named
# with the Solver's own table, and the Solver goes on solving.
MEMORY_SCRIPT = f"""
import osolve
position = osolve.Position("{FFO1}")
try:
    osolve.Solver(threads=1, hash_mb=2048)
except MemoryError as error:
    print(error)
print(osolve.Solver(threads=1, hash_mb=16).solve(position).score)
solver = osolve.Solver(threads=3, hash_mb=900)
try:
    solver.solve_many([position] * 4)
except MemoryError as error:
    print(error)
print(solver.solve(position).score)
"""


def memory_mib():
    """The machine's memory in MiB (0 where /proc/meminfo does not say)."""
    try:
        with open("/proc/meminfo") as info:
            return next(int(line.split()[1]) // 1024 for line in info if line.startswith("MemTotal:"))
    except (OSError, StopIteration):
        return 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ulimit -v is Linux's")
@pytest.mark.skipif(memory_mib() < 2048, reason="hash_mb=2048 is more than this machine's memory")
def test_a_table_the_memory_limit_refuses_is_a_memory_error():
    script = 'ulimit -v 1000000 && exec "$0" -c "$1"'
    result = subprocess.run(
        ["sh", "-c", script, sys.executable, MEMORY_SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    refused = "cannot allocate the 2048 MiB transposition table: out of memory; use a smaller hash_mb"
    workers = (
        "cannot allocate 1668 MiB of transposition tables (900 MiB for the positions solved one "
        "at a time, 3 x 256 MiB for those solved in parallel): out of memory; use a smaller hash_mb"
    )
    assert result.stdout.splitlines() == [refused, "18", workers, "18"]
