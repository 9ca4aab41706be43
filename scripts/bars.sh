#!/bin/bash
# Issue 24's bars 1, 4 and 5 for one osolve binary, on two threads, into one report:
#   bar 1: FFO #40-#59 (the built-in suite ffo40-59);
#   bar 4: FFO #60, #61, #63, #70 and #79 (lines 1, 2, 4, 11 and 20 of positions/ffo-60-79.obf);
#   bar 5: FFO #40-#49 and #40-#44 under Othello, `--rules reversi` and `--scoring raw`.
# Bars 2 and 3 need Edax beside osolve: scripts/sitting-edax.sh. Times drift by a third within
# an hour on this machine kind; node counts do not.
#
# Usage: scripts/bars.sh OSOLVE OUT
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 OSOLVE OUT" >&2
    exit 2
fi
osolve=$1 out=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -n '1p;2p;4p;11p;20p' "$root/positions/ffo-60-79.obf" > "$work/ffo-bar4.obf"
head -5 "$root/positions/ffo-40-59.obf" > "$work/ffo40-44.obf"
# A wrong score must not stop the report (bench exits 1): it shows in the rows.
bench() { "$osolve" bench --threads 2 "$@" 2>&1 || true; }
{
    echo "# $("$osolve" --version)"
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# bar 1: osolve bench --suite ffo40-59 --threads 2"
    bench --suite ffo40-59
    echo "# bar 4: osolve bench --suite FFO#60,#61,#63,#70,#79 --threads 2"
    bench --suite "$work/ffo-bar4.obf"
    echo "# bar 5: FFO #40-#49 and #40-#44, two threads, othello / reversi / raw"
    for suite in ffo40-49 "$work/ffo40-44.obf"; do
        name=${suite##*/}
        echo "$name: $(bench --suite "$suite" | grep '^positions')"
        echo "$name --rules reversi: $(bench --suite "$suite" --rules reversi | grep '^positions')"
        echo "$name --scoring raw: $(bench --suite "$suite" --scoring raw | grep '^positions')"
    done
} > "$out"
