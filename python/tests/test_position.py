"""Positions: every notation, bitboards and numpy round trips, moves, pictures."""

import numpy as np
import pytest

import osolve
from conftest import run_cli

FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def test_notations_agree():
    from_board = osolve.Position(FFO1)
    from_obf = osolve.Position(FFO1 + "; G8:+18; H1:+12;")
    rows = [FFO1[i * 8 : i * 8 + 8] for i in range(8)]
    from_diagram = osolve.Position("\n".join(rows) + "\nX")
    assert from_board == from_obf == from_diagram
    assert hash(from_board) == hash(from_obf)
    assert str(from_board) == FFO1
    assert from_board.empties == 14 and from_board.to_move == "black"
    transcript = osolve.Position("f5d6c3d3c4")
    assert transcript == osolve.Position.start().play("f5").play("d6").play("c3").play("d3").play("c4")
    assert transcript.to_move == "white" and transcript.empties == 55
    assert repr(from_board) == f"osolve.Position('{FFO1}')"
    assert eval(repr(from_board), {"osolve": osolve}) == from_board


def test_legal_moves_and_play_match_the_library():
    start = osolve.Position.start()
    assert start.legal_moves == ["d3", "c4", "f5", "e6"]
    assert str(start) == "-" * 27 + "OX------XO" + "-" * 27 + " X"
    after = start.play("F5")
    assert after.to_move == "white" and after.empties == 59
    assert after.legal_moves == ["f4", "d6", "f6"]  # square order: f4 = 29, d6 = 43
    assert not start.must_pass and not start.is_game_over and start.final_score is None


def test_bitboards_round_trip():
    position = osolve.Position(FFO1)
    again = osolve.Position.from_bitboards(position.player, position.opponent)
    assert again == position
    assert position.player == position.black and position.opponent == position.white
    # Bit i is square i: a1 = 0 ... h8 = 63.
    assert position.player >> 2 & 1 == 1  # c1 is X
    assert position.opponent >> 9 & 1 == 1  # b2 is O
    white = osolve.Position.from_bitboards(position.opponent, position.player, to_move="white")
    assert white.black == position.black and white.white == position.white and white.to_move == "white"
    assert str(white) == FFO1[:-1] + "O"


def test_numpy_round_trips():
    position = osolve.Position(FFO1)
    cells = position.to_array()
    assert cells.shape == (8, 8) and cells.dtype == np.int8
    assert cells[0, 2] == 1 and cells[1, 1] == -1 and cells[0, 0] == 0  # c1 X, b2 O, a1 empty
    assert osolve.Position.from_array(cells) == position
    assert osolve.Position.from_array(cells.reshape(64)) == position
    assert osolve.Position.from_array(cells.tolist()) == position
    assert osolve.Position.from_array(cells.astype(np.float32)) == position
    boards = np.array([[position.player, position.opponent]], dtype=np.uint64)
    assert osolve.Position.from_bitboards(int(boards[0, 0]), int(boards[0, 1])) == position


def test_pass_and_game_over():
    passing = osolve.Position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--O O")
    assert passing.must_pass and passing.legal_moves == []
    played = passing.play("pass")
    assert played.to_move == "black" and played.legal_moves
    over = osolve.Position("X" * 64 + " O")
    assert over.is_game_over and over.final_score == -64


def test_reversi_rules_and_supplies():
    start = osolve.Position.start(rules="reversi")
    assert start.empties == 64 and start.rules == "reversi"
    assert start.legal_moves == ["d4", "e4", "d5", "e5"]
    assert start.supplies == (32, 32)
    after = start.play("d4")
    assert after.supplies == (31, 32)
    assert str(after).endswith(" O 31 32")
    assert osolve.Position(str(after), rules="reversi") == after
    assert "rules='reversi'" in repr(after)


def test_svg_is_the_cli_picture(tmp_path):
    position = osolve.Position(FFO1)
    svg = position._repr_svg_()
    assert svg.startswith("<?xml") and "<svg" in svg
    out = tmp_path / "p.svg"
    run_cli("show", "-p", FFO1, "--svg", out, "-q")
    # The CLI titles the picture with the source.
    assert position.svg(title="<position>:1") == out.read_text()
    assert svg == position.svg()
    solution = osolve.Solver(threads=1, hash_mb=16).solve(position)
    assert solution._repr_svg_().startswith("<?xml")
    assert solution._repr_svg_() != svg


def test_records_of_a_file(repo):
    records = list(osolve.read_positions(repo / "positions" / "samples" / "mixed.txt"))
    assert records and all(r.line >= 1 for r in records)
    assert [r.line for r in records] == sorted(r.line for r in records)
    lines = (repo / "positions" / "samples" / "mixed.txt").read_text().splitlines()
    for record in records:
        assert osolve.Position(lines[record.line - 1]) == record.position
    ffo = list(osolve.read_positions(repo / "positions" / "ffo-1-19.obf"))
    assert ffo[0].expected == {"g8": 18, "h1": 12, "h7": 6, "a2": 6, "a3": 4, "b1": -4, "a4": -22, "g2": -24}
