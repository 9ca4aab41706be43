# The common start of the scripts/train-*.sh recipes, which source it with their default work
# directory and their own arguments:
#     source "$(dirname "${BASH_SOURCE[0]}")/train-lib.sh" target/NAME-data "$@"
# It stops on the first error, goes to the repository's root, makes the work directory
# ($work: the recipe's first argument, else the default), builds the release binary ($osolve)
# and sets $threads (THREADS, default every core).
#
# `gen OUT ARGS...` writes $work/OUT with `osolve gen ARGS...` at the lowest priority (nice 19),
# unless OUT is already there: a run stopped half-way leaves OUT.part, never a partial OUT, and
# the next run makes only what is missing.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=${2:-$1}
threads=${THREADS:-$(nproc)}
mkdir -p "$work"
cargo build --release --quiet
osolve=target/release/osolve

gen() {
    local out=$1
    shift
    if [[ ! -s $work/$out ]]; then
        nice -n 19 "$osolve" gen --threads "$threads" -o "$work/$out.part" "$@"
        mv "$work/$out.part" "$work/$out"
    fi
}
