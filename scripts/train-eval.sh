#!/usr/bin/env bash
# Regenerates the endgame sets (0-14, up to 29 empties) of data/eval.bin, the evaluation
# weights shipped in the binary, from nothing (scripts/train-midgame.sh adds the middle-game
# sets on top): every training position is made and labelled by osolve itself. Each step is
# deterministic (seeded games, exact or fixed-depth labels, a training run that gives the same
# weights for the same data whatever the thread count), so this script reproduces those sets
# (data/eval.bin of 2f41bd5) bit for bit.
#
# Round 1: random games, exact labels (the labels do not depend on the weights the solver
#          happens to order its moves with, so any build of osolve gives the same files).
# Round 2: lightly randomised self-play with round 1's weights (10 random opening moves, then
#          the best move by the evaluation, a random one 10% of the time), exact labels at
#          12-15 empties; and at 18-29 empties, where exact solving is too slow for the
#          numbers needed, labels from a 4-ply search with round 1's weights.
# Round 3: more random games with exact labels at 12-13 empties (to a million exact labels in
#          all), and self-play with round 2's weights, exact labels at 16-17 and 18-19 empties.
# Then one fit on every exact label and the search labels of 20 empties or more (at 18-19 the
# exact labels alone ordered FFO #41-#48 in fewer nodes than exact and search labels mixed).
#
# Usage: scripts/train-eval.sh [WORKDIR]   (default: target/eval-data; takes hours on 2 cores)
# Environment: THREADS (default: every core). Runs at the lowest priority (nice 19).
# shellcheck source=scripts/train-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/train-lib.sh" target/eval-data "$@"

# Round 1.
gen r1-12.obf --positions 200000 --empties 12-13 --seed 101
gen r1-14.obf --positions 30000 --empties 14-15 --seed 102
gen r1-16.obf --positions 1693 --empties 16-17 --seed 103
"$osolve" train "$work/r1-12.obf" --iterations 60 --lambda 2 -o "$work/r1a.bin"
"$osolve" train "$work/r1-12.obf" "$work/r1-14.obf" "$work/r1-16.obf" \
    --iterations 80 --lambda 2 --min-samples 1 -o "$work/r1-l2.bin"

# Round 2.
gen r2-12.obf --positions 227333 --empties 12-15 --seed 201 \
    --policy self-play --weights "$work/r1a.bin"
gen r2-deep.obf --positions 60000 --empties 18-29 --seed 301 \
    --policy self-play --weights "$work/r1-l2.bin" --search-depth 4

# Round 2's weights (shipped until round 3).
"$osolve" train "$work"/r1-12.obf "$work"/r1-14.obf "$work"/r1-16.obf \
    "$work"/r2-12.obf "$work"/r2-deep.obf \
    --iterations 80 --lambda 2 --min-samples 5000 -o "$work/r2.bin"

# Round 3.
gen r3-12.obf --positions 541000 --empties 12-13 --seed 104
gen r4-16.obf --positions 20000 --empties 16-17 --seed 203 \
    --policy self-play --weights "$work/r2.bin"
gen r4-18.obf --positions 10000 --empties 18-19 --seed 204 \
    --policy self-play --weights "$work/r2.bin"

# The shipped weights. The board is the first field of each line; '-' marks an empty square.
awk '{ board = $1; if (gsub(/-/, "-", board) >= 20) print }' "$work/r2-deep.obf" \
    >"$work/r2-deep20.obf"
"$osolve" train "$work"/r1-12.obf "$work"/r1-14.obf "$work"/r1-16.obf \
    "$work"/r2-12.obf "$work"/r3-12.obf "$work"/r4-16.obf "$work"/r4-18.obf \
    "$work"/r2-deep20.obf \
    --iterations 80 --lambda 2 --min-samples 5000 -o "$work/eval.bin"
# These are the endgame sets (0-14); scripts/train-midgame.sh adds the middle-game sets on top
# of them, leaving them bit for bit. data/eval.bin before that was this file exactly.
git show 2f41bd5:data/eval.bin | cmp "$work/eval.bin" - &&
    echo "the endgame sets of data/eval.bin (2f41bd5) reproduced bit for bit"
