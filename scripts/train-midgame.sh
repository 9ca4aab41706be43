#!/usr/bin/env bash
# Regenerates the middle-game sets of data/eval.bin (sets 15-26, 30-53 empties; 54 empties and
# more borrow set 26) on top of the endgame sets 0-14 of scripts/train-eval.sh, which stay bit
# for bit: `osolve train --keep` replaces only the sets it fits, and every position here has 30
# empties or more, so no set below 15 is fitted. Each step is deterministic (seeded games,
# fixed-depth search labels, a fit that gives the same weights for the same data), so this
# reproduces data/eval.bin of c438d3e (the same file through f903823) bit for bit, in about 25
# minutes on 2 cores; scripts/train-exact-16-21.sh then refits the sets of 16-21 empties on top.
#
# The labels are 6-ply searches with the evaluation, bootstrapped from the endgame sets:
# Round 1: self-play with the endgame weights (above 29 empties they borrow set 14), labels
#          from a 6-ply search with them; fitted -> m1.bin.
# Round 2: self-play and labels with m1.bin; fitted -> m2.bin.
# Round 3: self-play and labels with m2.bin; the shipped sets are fitted on rounds 2 and 3.
#
# Usage: scripts/train-midgame.sh [WORKDIR]   (default: target/midgame-data)
# Environment: THREADS (default: every core). Runs at the lowest priority (nice 19).
# shellcheck source=scripts/train-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/train-lib.sh" target/midgame-data "$@"

# The endgame sets as scripts/train-eval.sh made them: data/eval.bin before the middle-game
# sets were added.
git show 2f41bd5:data/eval.bin >"$work/endgame.bin"

fit() {
    local out=$1
    shift
    nice -n 19 "$osolve" train "$@" --keep "$work/endgame.bin" --iterations 80 --lambda 2 \
        --min-samples 2000 --threads "$threads" -o "$work/$out"
}

mid=(--empties 30-59 --policy self-play --search-depth 6)
gen m1.obf --positions 80000 --seed 501 --weights "$work/endgame.bin" "${mid[@]}"
fit m1.bin "$work/m1.obf"
gen m2.obf --positions 120000 --seed 502 --weights "$work/m1.bin" "${mid[@]}"
fit m2.bin "$work/m2.obf"
gen m3.obf --positions 120000 --seed 503 --weights "$work/m2.bin" "${mid[@]}"
fit eval.bin "$work/m2.obf" "$work/m3.obf"
git show c438d3e:data/eval.bin | cmp "$work/eval.bin" - &&
    echo "data/eval.bin of c438d3e reproduced bit for bit"
