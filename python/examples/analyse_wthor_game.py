# %% [markdown]
# # One WThor game, move by move
#
# A notebook-style script (cells marked `# %%`, as Jupyter, VS Code and jupytext read them):
# it reads a game of the WThor sample in tests/data/games, solves it exactly from 22 empties
# to the end and says, for every move played, how much it lost against perfect play. Run it
# as a script from the repository root, or open it as a notebook to see the boards.

# %%
import pathlib

import osolve

REPO = pathlib.Path(__file__).resolve().parents[2] if "__file__" in globals() else pathlib.Path.cwd()
games = list(osolve.read_games(REPO / "tests" / "data" / "games" / "WTH_2021.wtb"))
game = games[1]
print(game)
print(f"{game.black} (black) vs {game.white} (white), {game.tournament}")
print(f"recorded result: black {game.recorded_black}, theoretical at 24 empties: black {game.theoretical_black}")

# %% [markdown]
# Every move from 22 empties on: the exact score of each legal move (score_moves), the move
# played, and what it cost the player (best score minus the score of the move played).

# %%
solver = osolve.Solver(threads=0, hash_mb=128)
start, _ = game.at_empties(22) or (0, game.start)
print(f"{'move':>4} {'side':<5} {'played':>6} {'score':>5} {'best':>5} {'loss':>4}  best moves")
total_loss = {"black": 0, "white": 0}
for index in range(start, len(game.moves)):
    position, played = game.positions[index], game.moves[index]
    scores = solver.score_moves(position)
    best = max(scores.values())
    loss = best - scores[played]
    total_loss[position.to_move] += loss
    best_moves = [m for m, s in scores.items() if s == best]
    print(f"{index + 1:>4} {position.to_move:<5} {played:>6} {scores[played]:>+5} {best:>+5} {loss:>4}  {' '.join(best_moves)}")
print(f"discs lost to mistakes from 22 empties: black {total_loss['black']}, white {total_loss['white']}")

# %% [markdown]
# The exact result at 24 empties, as the database records it: black's discs under perfect play.

# %%
index24, position24 = game.at_empties(24)
solution = solver.solve(position24)
black_discs = solution.final_discs[0]
print(f"24 empties, {position24.to_move} to move: score {solution.score:+}, black {black_discs} discs "
      f"(the database says {game.theoretical_black})")
assert black_discs == game.theoretical_black

# %% [markdown]
# In a notebook, a Position or a Solution shows as a picture: the board at 24 empties with
# the perfect line numbered on it.

# %%
solution
