#!/bin/bash
# One sitting of issue 24's bars 2 and 3: Edax on cpu 0 solving FFO #40-#49 while two osolve
# builds take turns on cpu 1 beside it (NEW first in each pair, three pairs); then both on two
# threads, alternating; then both on one thread alone, alternating. Only ratios within one
# sitting compare: the hosts of this machine kind drift by a third within an hour.
#
# Usage: EDAX=PATH/lEdax EDAX_WEIGHTS=PATH/zero.dat scripts/sitting-edax.sh NEW BASE OUT
#   NEW, BASE: osolve binaries (the same one twice shows the order effect); OUT: the report.
# Edax is built from its own sources outside this repository (never committed here). Its
# trained weights cannot be had offline, so the sittings give it an all-zero weights file of the
# size its loader reads ("Edax-0", which measures its cost per node): Edax 4.6 reads a 28-byte
# header (the ints 0x45444158 and 0x4556414c, version, release, build, then a double date) and
# 61 x 114364 16-bit weights, e.g.
#   python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<iiiiid',
#     0x45444158, 0x4556414c, 4, 6, 0, 0.0) + bytes(61 * 114364 * 2))" > zero.dat
set -euo pipefail
if [ $# -ne 3 ] || [ -z "${EDAX:-}" ] || [ -z "${EDAX_WEIGHTS:-}" ]; then
    echo "usage: EDAX=PATH EDAX_WEIGHTS=PATH $0 NEW BASE OUT" >&2
    exit 2
fi
new=$1 base=$2 out=$3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# FFO #40-#49, one per line, as Edax's -solve reads them.
head -10 "$root/positions/ffo-40-59.obf" > "$work/ffo40-49.obf"
run() { # label cpus binary threads
    echo "$1: $(taskset -c "$2" "$3" bench --suite ffo40-49 --threads "$4" 2>&1 | grep '^positions')"
}
{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# new = $("$new" --version), base = $("$base" --version)"
    echo "# Edax on cpu 0: taskset -c 0 $EDAX -eval-file $EDAX_WEIGHTS -book-usage off -l 60 -solve ffo40-49.obf -n 1 -h 24"
    echo "# meanwhile on cpu 1, alternating: taskset -c 1 osolve bench --suite ffo40-49 --threads 1"
    (cd "$work" && taskset -c 0 "$EDAX" -eval-file "$EDAX_WEIGHTS" -book-usage off -l 60 \
        -solve ffo40-49.obf -n 1 -h 24 > edax.out 2>&1) &
    edax=$!
    sleep 1
    for i in 1 2 3; do
        run "new run $i" 1 "$new" 1
        run "base run $i" 1 "$base" 1
    done
    wait "$edax"
    echo "# Edax:"
    cat "$work/edax.out"
    echo "# two threads, alternating (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    for i in 1 2 3; do
        run "new 2t run $i" 0,1 "$new" 2
        run "base 2t run $i" 0,1 "$base" 2
    done
    echo "# one thread alone, alternating"
    for i in 1 2 3; do
        run "new 1t-alone run $i" 1 "$new" 1
        run "base 1t-alone run $i" 1 "$base" 1
    done
} > "$out"
