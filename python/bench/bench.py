"""Measures the Python package against the osolve binary.

1. Throughput: N seeded random positions of E empties (default 10,000 of 16), solved by
   `osolve solve FILE --threads T --json` and by `Solver(threads=T).solve_many(...)` with the same
   table size; positions per second of each and their ratio.
2. Latency: `Solver.solve` called on positions of 0 to 4 empties, the whole call from Python
   (argument, search, Solution object) averaged over many calls.

Usage: python python/bench/bench.py [--count N] [--empties E] [--threads T] [--rounds R]
       [--only throughput|latency] [--osolve PATH]
"""

import argparse
import json
import pathlib
import random
import resource
import subprocess
import tempfile
import time

import numpy as np

import osolve

REPO = pathlib.Path(__file__).resolve().parents[2]


def random_positions(count, empties, seed):
    """Positions reached by seeded random play, `empties` empties, the game not over."""
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


def cpu_seconds(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def throughput(args):
    positions = random_positions(args.count, args.empties, seed=2026)
    array = np.array([[p.player, p.opponent] for p in positions], dtype=np.uint64)
    n = len(positions)
    cli_times, py_times, cli_cpu, py_cpu = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "positions.txt"
        path.write_text("".join(f"{p}\n" for p in positions))
        command = [args.osolve, "solve", str(path), "--threads", str(args.threads), "--hash-mb", str(args.hash_mb), "--json"]
        # Rounds alternate the two, so that a change of the machine's load hits both.
        for _ in range(args.rounds):
            start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_CHILDREN)
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            cli_times.append(time.perf_counter() - start)
            cli_cpu.append(cpu_seconds(resource.RUSAGE_CHILDREN) - cpu)
            rows = [json.loads(line) for line in out.splitlines()]
            solver = osolve.Solver(threads=args.threads, hash_mb=args.hash_mb)
            start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
            batch = solver.solve_many(array)
            py_times.append(time.perf_counter() - start)
            py_cpu.append(cpu_seconds(resource.RUSAGE_SELF) - cpu)
            assert batch.scores.tolist() == [row["score"] for row in rows], "the same scores"
    cli_nodes = sum(row["nodes"] for row in rows)
    print(f"{n} random positions of {args.empties} empties, {args.threads} threads, {args.hash_mb} MiB, "
          f"{args.rounds} round(s), fastest shown")
    cli, py = min(cli_times), min(py_times)
    print(f"  osolve solve FILE --json : {cli:8.2f} s  {n / cli:9.1f} positions/s  ({cli_nodes:,} nodes)"
          f"  all: {' '.join(f'{t:.1f}' for t in cli_times)} s, CPU {' '.join(f'{t:.1f}' for t in cli_cpu)} s")
    print(f"  Solver.solve_many        : {py:8.2f} s  {n / py:9.1f} positions/s  ({int(batch.nodes.sum()):,} nodes)"
          f"  all: {' '.join(f'{t:.1f}' for t in py_times)} s, CPU {' '.join(f'{t:.1f}' for t in py_cpu)} s")
    print(f"  throughput ratio solve_many / CLI: {cli / py:.3f}")


def latency(args):
    solver = osolve.Solver(threads=args.threads, hash_mb=args.hash_mb)
    print(f"Solver.solve on small positions ({args.calls} calls each, whole call from Python)")
    for empties in range(0, 5):
        positions = random_positions(200, empties, seed=empties) if empties else None
        if positions is None:
            # A full board: random games to their end.
            positions = []
            rng = random.Random(0)
            while len(positions) < 200:
                position = osolve.Position.start()
                while not position.is_game_over:
                    moves = position.legal_moves
                    position = position.play(rng.choice(moves) if moves else "pass")
                positions.append(position)
        calls = [positions[i % len(positions)] for i in range(args.calls)]
        for position in calls[:200]:
            solver.solve(position)
        start, cpu = time.perf_counter(), time.process_time()
        for position in calls:
            solver.solve(position)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"  {empties} empties: {seconds / len(calls) * 1e6:6.2f} us per call "
              f"({cpu / len(calls) * 1e6:.2f} us of CPU)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--empties", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hash-mb", type=int, default=256)
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--osolve", default=str(REPO / "target" / "release" / "osolve"))
    parser.add_argument("--only", choices=["throughput", "latency"])
    args = parser.parse_args()
    if args.only != "latency":
        throughput(args)
    if args.only != "throughput":
        latency(args)


if __name__ == "__main__":
    main()
