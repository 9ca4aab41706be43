#!/usr/bin/env bash
# Runs `osolve analyze` as N shards at once on this machine and merges their outputs into one
# file, the same as one unsharded run writes (node counts and times aside).
#
# usage: scripts/shard.sh N OUT FILE... [-- ANALYZE-OPTIONS...]
#
#   N                 how many shards (processes) to run at once
#   OUT               the merged output; its extension (.obf, .jsonl, .csv) or a --format among
#                     the ANALYZE-OPTIONS picks the format, as for `osolve analyze -o OUT`
#   FILE...           the inputs, as for `osolve analyze`
#   ANALYZE-OPTIONS   given to every shard: --check, --best-only, --wld, --hash-mb 64, -q, ...
#                     and --resume to continue interrupted shards. Without --threads each shard
#                     gets (cores / N) threads.
#
# Shard K of N analyses the positions whose index modulo N is K and writes
# OUT-without-extension.shard-K-of-N.EXT. When every shard has finished, the shard files are
# merged in input order into OUT and removed; when one failed or was interrupted they stay, and
# running the same command again with --resume finishes them. The shards run under GNU parallel
# when it is installed, else under xargs -P. OSOLVE names the binary (default: osolve on the
# PATH, else target/release/osolve of this repository).
#
# Exit code: 0; 1 when a --check found a wrong score; 2 when a bad input line was skipped or the
# arguments are wrong; another shard failure (130 when interrupted) is passed on, and nothing
# is merged.
#
# Example: 4 shards of the FFO 40-59 suite, checked:
#   scripts/shard.sh 4 ffo.obf positions/ffo-40-59.obf -- --check
# The same split across machines: run `osolve analyze FILE --shard K/N -o part-K.obf` on each,
# then merge as this script does (see merge below) or, for JSON lines and CSV, sort by source.
set -euo pipefail

usage() {
    sed -n '4,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

(($# >= 3)) || usage
shards=$1
out=$2
shift 2
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "shard.sh: N must be a whole number from 1, not '$shards'" >&2; exit 2; }

files=()
while (($#)) && [[ $1 != -- ]]; do
    files+=("$1")
    shift
done
(($#)) && shift
options=("$@")
((${#files[@]})) || usage

osolve=${OSOLVE:-}
if [[ -z $osolve ]]; then
    if command -v osolve >/dev/null 2>&1; then
        osolve=osolve
    else
        osolve="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/release/osolve"
    fi
fi

# The format: a --format option, else OUT's extension, else JSON lines (as osolve decides).
format=
for ((i = 0; i < ${#options[@]}; i++)); do
    case ${options[i]} in
        --format) format=${options[i + 1]:-} ;;
        --format=*) format=${options[i]#--format=} ;;
    esac
done
extension=
[[ $(basename "$out") == *.* ]] && extension=${out##*.}
if [[ -z $format ]]; then
    case ${extension,,} in
        obf) format=obf ;;
        csv) format=csv ;;
        *) format=jsonl ;;
    esac
fi

shard_file() {
    if [[ -n $extension ]]; then
        echo "${out%.*}.shard-$1-of-$shards.$extension"
    else
        echo "$out.shard-$1-of-$shards"
    fi
}

# One shard, when this script runs itself under xargs or parallel: its exit code goes to a file
# so that a failing shard does not stop the others.
if [[ -n ${OSOLVE_SHARD_INDEX:-} ]]; then
    k=$OSOLVE_SHARD_INDEX
    code=0
    "$osolve" analyze "${files[@]}" --shard "$k/$shards" -o "$(shard_file "$k")" "${options[@]}" || code=$?
    echo "$code" >"$(shard_file "$k").code"
    exit 0
fi

threads=()
if [[ " ${options[*]} " != *" --threads "* && " ${options[*]} " != *" --threads="* ]]; then
    cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
    per_shard=$((cores / shards))
    threads=(--threads "$((per_shard > 0 ? per_shard : 1))")
fi

for ((k = 0; k < shards; k++)); do
    rm -f "$(shard_file "$k").code"
done
if parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    seq 0 $((shards - 1)) | OSOLVE="$osolve" parallel -q -j "$shards" \
        env OSOLVE_SHARD_INDEX={} bash "$0" "$shards" "$out" "${files[@]}" -- "${options[@]}" "${threads[@]}"
else
    seq 0 $((shards - 1)) | OSOLVE="$osolve" xargs -P "$shards" -I{} \
        env OSOLVE_SHARD_INDEX={} bash "$0" "$shards" "$out" "${files[@]}" -- "${options[@]}" "${threads[@]}"
fi

result=0
parts=()
for ((k = 0; k < shards; k++)); do
    part=$(shard_file "$k")
    code=$(cat "$part.code" 2>/dev/null || echo missing)
    case $code in
        0) ;;
        1) result=1 ;;
        2) ((result == 1)) || result=2 ;;
        *)
            echo "shard.sh: shard $k/$shards ended with exit code $code; nothing merged, shard files kept" \
                "(run again with --resume to finish)" >&2
            [[ $code =~ ^[0-9]+$ ]] && exit "$code"
            exit 2
            ;;
    esac
    parts+=("$part")
done

# Shard K holds positions K, K+N, K+2N, ... in order, so taking one position from each shard in
# turn restores the input order. OBF and JSON lines have one line per position; CSV has one row
# per move after a header, and the rows of one position share all fields but move and score.
merged="$out.merging.$$"
case $format in
    csv)
        awk -v n="$shards" '
            function key(line,   f, m, i, k) {
                m = split(line, f, ",")
                k = f[1]
                for (i = 2; i <= m - 5; i++) k = k "," f[i]
                return k "," f[m - 2] "," f[m - 1] "," f[m]
            }
            BEGIN {
                for (k = 0; k < n; k++) {
                    file[k] = ARGV[k + 1]
                    if ((getline header < file[k]) > 0 && k == 0) print header
                    more[k] = (getline row[k] < file[k]) > 0
                }
                do {
                    any = 0
                    for (k = 0; k < n; k++) {
                        if (!more[k]) continue
                        any = 1
                        current = key(row[k])
                        do {
                            print row[k]
                            more[k] = (getline row[k] < file[k]) > 0
                        } while (more[k] && key(row[k]) == current)
                    }
                } while (any)
            }' "${parts[@]}" >"$merged"
        ;;
    *)
        paste -d '\n' "${parts[@]}" | awk 'length' >"$merged"
        ;;
esac
mv "$merged" "$out"
for part in "${parts[@]}"; do
    rm -f "$part" "$part.code"
done
exit "$result"
