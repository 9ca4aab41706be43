#!/usr/bin/env bash
# Plays osolve (`osolve gtp`) against gtp-rhino (Debian package grhino) and reports wins,
# draws and losses for osolve and the worst overshoot of its answer time over the time per
# move. Colours alternate; each pair of games starts from its own 4 random plies. The referee
# is the ignored test `match_against_rhino` in tests/gtp.rs, which checks every move on
# osolve's own board and both engines' final scores.
#
# usage: scripts/match-rhino.sh [GAMES] [SECONDS_PER_MOVE] [RHINO_LEVEL] [WEIGHTS]
#        (defaults: 10 games, 0.2 s per move, level 3; rhino's levels are 1 to 5; WEIGHTS, a
#        file of `osolve train`, replaces the built-in evaluation of osolve's middle game)
# Environment: CARGO_TARGET_DIR as for cargo.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

games=${1:-10}
move_time=${2:-0.2}
level=${3:-3}
if [[ ! -x /usr/games/gtp-rhino ]]; then
    echo "match-rhino: /usr/games/gtp-rhino is missing: apt-get install grhino" >&2
    exit 2
fi
if [[ -n ${4:-} ]]; then
    OSOLVE_MATCH_WEIGHTS=$(realpath "$4")
    export OSOLVE_MATCH_WEIGHTS
fi
OSOLVE_MATCH_GAMES=$games OSOLVE_MATCH_MOVE_TIME=$move_time OSOLVE_RHINO_LEVEL=$level \
    cargo test --release --test gtp -- --ignored match_against_rhino --nocapture --test-threads 1
