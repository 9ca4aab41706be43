#!/usr/bin/env bash
# Refits the sets of data/eval.bin for 16-21 empties (sets 8, 9 and 10) on exact labels, on
# top of the weights of f903823 (scripts/train-eval.sh's endgame sets, then
# scripts/train-midgame.sh's middle-game sets), which stay bit for bit for every other set:
# `osolve train --keep` replaces only the sets whose own empties have at least --min-samples
# positions, and every position here has 16-21 empties.
#
# Before, sets 8 and 9 were fitted on 20,000 and 10,000 exact labels, set 10 on 9,000 4-ply
# search labels, all far fewer positions than a set's 167,332 weights. Here: self-play games
# with the f903823 weights (10 random opening moves, then the best move by the evaluation, a
# random one 10% of the time), exact labels.
# Each step is deterministic (seeded games, exact labels, a fit that gives the same weights for
# the same data whatever the thread count), so this reproduces data/eval.bin of fbcfb94 bit for
# bit.
#
# Usage: scripts/train-exact-16-21.sh [WORKDIR]   (default: target/exact-16-21-data; about
# 75 minutes on 2 cores)
# Environment: THREADS (default: every core). Runs at the lowest priority (nice 19).
# shellcheck source=scripts/train-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/train-lib.sh" target/exact-16-21-data "$@"

# The weights these sets replace: data/eval.bin before them.
git show f903823:data/eval.bin >"$work/before.bin"

self_play=(--policy self-play --weights "$work/before.bin")
gen x16-19.obf "${self_play[@]}" --positions 150682 --empties 16-19 --seed 611
gen x20-21.obf "${self_play[@]}" --positions 19739 --empties 20-21 --seed 621

nice -n 19 "$osolve" train "$work/x16-19.obf" "$work/x20-21.obf" --keep "$work/before.bin" \
    --iterations 80 --lambda 100 --min-samples 1000 --threads "$threads" -o "$work/eval.bin"
# scripts/train-step-7-8.sh moved sets 7 and 8 since: the file this reproduces is fbcfb94's.
git show fbcfb94:data/eval.bin | cmp "$work/eval.bin" - &&
    echo "data/eval.bin of fbcfb94 reproduced bit for bit"
