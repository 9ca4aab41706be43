#!/usr/bin/env bash
# Measures osolve on a benchmark suite and keeps the result: builds the release binary, records
# the machine (CPU model, cores, memory, rustc, git commit), runs `osolve bench` with one thread
# and with every thread, and writes it all to bench-results/<date>-<commit>.txt.
#
# Usage: scripts/bench.sh [osolve bench arguments...]
#   scripts/bench.sh                         # FFO #40-#49, the default suite
#   scripts/bench.sh --suite ffo40-59        # any `osolve bench` option is passed to both runs
#   scripts/bench.sh --suite ffo1-19 --repeat 5
# Environment: RESULTS_DIR (default bench-results), THREADS (default: every core).
# Exits 1 if a run found a wrong score or failed, 130 if interrupted; the file is written anyway.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

results_dir=${RESULTS_DIR:-bench-results}
all_threads=${THREADS:-$(nproc)}

cargo build --release --quiet
osolve=target/release/osolve

commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# Read-only check (unlike `git status`, it never rewrites the index).
if [[ $commit != unknown ]] && ! git diff-index --quiet HEAD -- 2>/dev/null; then
    commit="$commit-dirty"
fi
date=$(date +%Y-%m-%d)
mkdir -p "$results_dir"
out="$results_dir/$date-$commit.txt"
if [[ -e $out ]]; then
    out="$results_dir/$date-$commit-$(date +%H%M%S).txt"
fi

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
physical=$(grep -m1 '^cpu cores' /proc/cpuinfo | cut -d: -f2- | tr -d ' ' || true)
memory=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
features=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'avx2|bmi2|popcnt|avx512f' |
    sort | tr '\n' ' ' || true)

{
    echo "# osolve bench results"
    echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "commit:    $commit"
    echo "arguments: ${*:-(default suite)}"
    echo "cpu:       ${cpu:-unknown}"
    echo "cores:     $(nproc) logical${physical:+, $physical per socket}"
    echo "features:  ${features:-unknown}"
    echo "memory:    ${memory:-unknown}"
    echo "kernel:    $(uname -sr)"
    echo "rustc:     $(rustc --version)"
    echo "load:      $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) (1, 5, 15 min before the runs)"
} | tee "$out"

status=0
for threads in 1 "$all_threads"; do
    printf '\n## osolve bench --threads %s %s\n' "$threads" "$*" | tee -a "$out"
    code=0
    "$osolve" bench --threads "$threads" "$@" | tee -a "$out" || code=${PIPESTATUS[0]}
    if ((code == 130)); then
        echo "interrupted" | tee -a "$out"
        exit 130
    fi
    if ((code != 0)); then
        echo "exit code $code" | tee -a "$out"
        status=1
    fi
    # One thread on a one-core machine is already "every thread".
    if ((all_threads == 1)); then
        break
    fi
done

printf '\nwritten to %s\n' "$out" >&2
exit "$status"
