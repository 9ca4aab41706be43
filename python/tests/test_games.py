"""Game files: the WThor sample against the independent replay in tests/data/games."""

import osolve


def test_wthor_games_match_the_independent_table(repo):
    data = repo / "tests" / "data" / "games"
    games = list(osolve.read_games(data / "WTH_2021.wtb"))
    rows = [line.split("\t") for line in (data / "wth2021-pos24.tsv").read_text().splitlines()[1:]]
    assert len(games) == len(rows) == 320
    for game, row in zip(games, rows):
        index, tournament, black, white, real, theoretical, moves, board24, side24 = row[1:]
        assert game.number == int(index) + 1
        assert (game.tournament, game.black, game.white) == (tournament, black, white)
        assert game.transcript == moves
        assert game.recorded_black == int(real)
        assert game.theoretical_black == int(theoretical) and game.theoretical_empties == 24
        reached = game.at_empties(24)
        assert reached is not None
        i, position = reached
        assert str(position)[:64] == board24
        assert game.positions[i] == position if i < len(game) else game.end == position
        assert game.final_discs[0] + game.final_discs[1] == 64


def test_positions_follow_the_moves(repo):
    game = next(iter(osolve.read_games(repo / "tests" / "data" / "games" / "sample.wtb")))
    assert game.start == osolve.Position.start()
    for position, move, following in zip(game.positions, game.moves, game.positions[1:] + [game.end]):
        after = position.play(move)
        if after.must_pass:
            after = after.play("pass")
        assert after == following
    assert game.end.is_game_over


def test_ggf_and_transcripts(repo):
    data = repo / "tests" / "data" / "games"
    ggf = list(osolve.read_games(data / "sample.ggf"))
    assert ggf and all(g.end.is_game_over for g in ggf)
    assert all(g.black and g.white for g in ggf)
    text = list(osolve.read_games(data / "sample.txt", skip_errors=True))
    assert text and all(g.line is not None for g in text)
