#!/bin/bash
# Compares two osolve builds on one thread, side by side: A on cpu 0 and B on cpu 1 at once,
# then swapped, RUNS times. Both see the same machine at the same moment, so their ratio
# survives the drift that makes back-to-back times on this shared 2-vCPU machine differ.
# Usage: scripts/bench-pair.sh A B SUITE [RUNS]   (SUITE: a bench suite name or an OBF file)
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 OSOLVE_A OSOLVE_B SUITE [RUNS]" >&2
    exit 2
fi
a=$1 b=$2 suite=$3 runs=${4:-2}
one() { # label cpu binary
    taskset -c "$2" "$3" bench --suite "$suite" --threads 1 2>&1 | grep '^positions' | sed "s|^|$1 cpu$2 |"
}
for _ in $(seq "$runs"); do
    one A 0 "$a" & one B 1 "$b" & wait
    one A 1 "$a" & one B 0 "$b" & wait
done
