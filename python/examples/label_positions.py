"""Training labels: plays seeded random games, labels every position at 14-20 empties with
its exact score and best move, and writes them to a compressed .npz.

    python python/examples/label_positions.py --games 2000 --out labels.npz

The file holds, one row per position (black or white to move, from the mover's view):
player, opponent (uint64 bitboards, bit i = square i, a1 = 0 ... h8 = 63), empties (uint8),
score (int8, final disc difference for the mover under perfect play), best_move (int8 square
index, -1 a forced pass) and nodes (uint64). Load with numpy.load(path).
"""

import argparse
import random
import sys
import time

import numpy as np

import osolve


def game_positions(rng, low, high):
    """The positions of one random game with `low` to `high` empties (the mover can move)."""
    found = []
    position = osolve.Position.start()
    while not position.is_game_over:
        moves = position.legal_moves
        if not moves:
            position = position.play("pass")
            continue
        if low <= position.empties <= high:
            found.append(position)
        position = position.play(rng.choice(moves))
    return found


def main():
    parser = argparse.ArgumentParser(description="Label random-game positions with exact scores.")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-empties", type=int, default=14)
    parser.add_argument("--max-empties", type=int, default=20)
    parser.add_argument("--threads", type=int, default=0, help="0: one per core")
    parser.add_argument("--hash-mb", type=int, default=256)
    parser.add_argument("--out", default="labels.npz")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    positions = []
    for _ in range(args.games):
        positions += game_positions(rng, args.min_empties, args.max_empties)
    # The same position from two games is labelled once.
    positions = list(dict.fromkeys(positions))
    print(f"{len(positions)} positions from {args.games} games", file=sys.stderr)

    solver = osolve.Solver(threads=args.threads, hash_mb=args.hash_mb)
    start = time.monotonic()

    def progress(done, total):
        print(f"\r{done}/{total} labelled, {time.monotonic() - start:.0f} s", end="", file=sys.stderr)

    batch = solver.solve_many(positions, progress=progress)
    print(file=sys.stderr)
    np.savez_compressed(
        args.out,
        player=np.array([p.player for p in positions], dtype=np.uint64),
        opponent=np.array([p.opponent for p in positions], dtype=np.uint64),
        empties=np.array([p.empties for p in positions], dtype=np.uint8),
        score=batch.scores,
        best_move=batch.best_moves,
        nodes=batch.nodes,
    )
    rate = len(positions) / batch.seconds if batch.seconds else 0
    print(f"wrote {args.out}: {len(positions)} labels in {batch.seconds:.1f} s ({rate:.0f}/s, "
          f"{solver.threads} threads)", file=sys.stderr)


if __name__ == "__main__":
    main()
