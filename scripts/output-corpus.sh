#!/usr/bin/env bash
# Runs a fixed corpus of osolve commands and writes one file per case, with what varies from run
# to run masked, so that two builds that behave the same give identical trees:
#
#   scripts/output-corpus.sh /work/baseline/osolve-937f068 /tmp/corpus-base
#   scripts/output-corpus.sh target/release/osolve /tmp/corpus-new
#   diff -r /tmp/corpus-base /tmp/corpus-new
#
# The corpus covers every subcommand, output format and rule set: solve (text, --quiet, --wld,
# --json, limits), analyze (obf, jsonl, csv, --best-only, --wld, --check, --svg, --shard,
# --resume), games (WThor, GGF, transcripts; text, jsonl, csv, --check-theoretical), show (text,
# --ascii, --svg, --analyze, --solve), perft, bench, gen with a fixed seed, train on tiny data,
# scripted gtp and nboard sessions, --rules reversi and --scoring raw, typical bad inputs, the
# --help of every subcommand, completions and man. Everything runs on one thread with a small
# table, on positions of at most 20 empties: a few minutes on one core.
#
# OUTDIR/CASE.out holds the command, its standard output, standard error, exit code and every
# file the command wrote (binary files as their size and SHA-256). Masked: times, rates
# (nodes/s, leaves/s, positions/s), ETAs, progress lines, the version's commit and CPU features
# (in --version and in every man page's title and version line), and node counts. With OSOLVE_CORPUS_NODES=1 node counts are kept (one thread is
# deterministic: a refactoring that must not change the search keeps them too).
#
# Inputs are copied to a scratch directory that is the working directory of every case, so
# paths in the output are relative (in/..., out/...) and no temporary path appears.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 OSOLVE OUTDIR" >&2
    exit 2
fi
bin=$(realpath "$1") || exit 2
if [ ! -x "$bin" ]; then
    echo "$0: $1 is not an executable" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$2" || exit 2
outdir=$(realpath "$2")
rm -f "$outdir"/*.out
keep_nodes=${OSOLVE_CORPUS_NODES:-0}

work=$(mktemp -d "${TMPDIR:-/tmp}/osolve-corpus.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
mkdir -p in out bin
# The binary is reached as `osolve` on PATH, so that messages and usage lines name it the same
# whatever its file is called.
ln -s "$bin" bin/osolve
export PATH="$work/bin:$PATH"
export NO_COLOR=1 COLUMNS=100 LC_ALL=C

# ---------------------------------------------------------------------------------------------
# Inputs.
cp -r "$root/tests/data/games" in/games
cp "$root/positions/samples/mixed.txt" "$root/positions/samples/board-strings.txt" \
    "$root/positions/samples/transcripts.txt" "$root/positions/ffo-40.obf" in/
# FFO #1-#5 (14 empties each) with every move's score.
grep -v '^%' "$root/positions/samples/ffo-sample.obf" | head -5 > in/ffo1-5.obf
# Small positions of several kinds: board string, transcript to 16 empties, a forced pass,
# a finished game, an OBF line; Reversi positions with supplies.
cat > in/small.txt <<'EOF'
# a board string (FFO #2)
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X
# a transcript of 44 moves (16 empties)
f5d6c4g5c6c5d7d3b4c3e3b5f6f3c2a4d2b6b3e2a3c7g6f4c8a2e6c1a6d8e8e7f8g4f7h6d1e1g3f2h4h5h3
# a forced pass
OXXXXX--OXXXXXXXOOXXXXXXOOOOOOOOOXXOXXOOOOOXOXOOOOOXXOOOOOOOOOOX X
# a finished game
----------X-------X------XXXXXX-X-XXX------X-------------------- O
EOF
cat > in/reversi.txt <<'EOF'
# FFO #1 with 8 and 6 discs left, then with 4 and 10 (black runs out)
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X 8 6
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X 4 10
# the empty board, black to place (Reversi's start)
---------------------------------------------------------------- X 32 32
EOF
# Bad inputs.
cat > in/bad.txt <<'EOF'
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X
XXOO X
f5d6c3d3a1
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- Q
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; Z9:+3;
EOF
# FFO #1 with G8 marked +16 (it is +18).
echo '--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+16; H1:+12;' \
    > in/wrong.obf
head -c 300 in/games/sample.wtb > in/truncated.wtb
printf '(;GM[Othello]PC[x]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[a1];)\n' \
    > in/bad.ggf
mkdir in/dir

# ---------------------------------------------------------------------------------------------
# Masks.
# Bench rows: `#  empties  expected  found  best  nodes  time  Mnodes/s [verdict]`.
bench_row='^( +[0-9]+ +[0-9]+ +[-+?0-9]+ +[-+0-9]+ +[a-z-][a-z0-9-])'
mask_times='
/^progress: /d
s/osolve [0-9][0-9.]* \(commit [^)]*\)/osolve VERSION/
s/\(commit [^)]*\)/(commit #)/g
s/'"$bench_row"'( +[0-9,]+) +[0-9.]+ +[0-9.]+/\1\2  #  #/
s/^( +[0-9]+ +[0-9]+) +[0-9.]+ s +[0-9.]+$/\1 # s #/
s/ETA [0-9][0-9.]* *[a-z]*/ETA #/g
s/ *\b[0-9][0-9.]*( *)[kMG]?(n|nodes|leaves|positions)?\/s\b/ #\1\2\/s/g
s/ *\b[0-9][0-9.]* s\b/ # s/g
s/"(time_ms|time_s|nps)":[0-9.e+-]*/"\1":#/g
s/"times_s":\[[^]]*\]/"times_s":[#]/g
s/^(nodestats [0-9]*) [0-9.]*$/\1 #/
s/^(=== [A-Z][A-Z0-9]\/-?[0-9.]*)\/[0-9.]*$/\1\/#/
'
mask_nodes='
s/'"$bench_row"' +[0-9,]+/\1  #/
s/\b(nodes|node) [0-9][0-9.,]*[kMG]?\b/\1 #/g
s/\b[0-9][0-9.,]*[kMG]? nodes\b/# nodes/g
s/"nodes":[0-9]*/"nodes":#/g
s/^nodestats [0-9]*/nodestats #/
'
mask() {
    if [ "$keep_nodes" = 1 ]; then
        sed -E -e "$mask_times"
    else
        sed -E -e "$mask_times" -e "$mask_nodes"
    fi
}
# CSV: the columns named nodes, time_ms or nps, counted from the end of the row (the columns
# before them may hold quoted commas, the ones after never do).
mask_csv() {
    awk -F, -v keep="$keep_nodes" '
        /^(source|game),/ { n = NF; split("", hide)
            for (i = 1; i <= NF; i++)
                if ($i == "time_ms" || $i == "nps" || ($i == "nodes" && keep != 1)) hide[NF - i] = 1
            print; next }
        n && NF >= n { line = ""
            for (i = 1; i <= NF; i++) line = line (i > 1 ? "," : "") ((NF - i) in hide && $i != "" ? "#" : $i)
            print line; next }
        { print }'
}

# ---------------------------------------------------------------------------------------------
# Cases. `run NAME ARGS...` runs `osolve ARGS` with standard input from $STDIN (default
# /dev/null) and writes OUTDIR/NAME.out; files written to out/ are appended and removed.
cases=0
# `dump LABEL FILE`: the file after a `--- LABEL` line; a binary file as its size and SHA-256.
dump() {
    local size
    size=$(wc -c < "$2")
    if [ "$(tr -d '\000' < "$2" | wc -c)" != "$size" ] || ! iconv -f UTF-8 -t UTF-8 "$2" > /dev/null 2>&1; then
        printf -- '--- %s (binary): %s bytes, sha256 %s\n' "$1" "$size" "$(sha256sum < "$2" | cut -d' ' -f1)"
    else
        printf -- '--- %s\n' "$1"
        cat "$2"
    fi
}
run() {
    local name=$1
    shift
    cases=$((cases + 1))
    timeout 300 osolve "$@" < "${STDIN:-/dev/null}" > "$work/stdout" 2> "$work/stderr"
    local code=$?
    {
        printf '$ osolve'
        printf ' %q' "$@"
        [ -n "${STDIN:-}" ] && printf ' < %s' "$STDIN"
        printf '\n'
        dump stdout "$work/stdout"
        dump stderr "$work/stderr"
        printf -- '--- exit %s\n' "$code"
        find out -type f | LC_ALL=C sort | while read -r file; do
            dump "file $file" "$file"
        done
    } | mask_csv | mask > "$outdir/$name.out"
    rm -rf out
    mkdir out
}
# `input NAME TEXT` writes TEXT to in/NAME (for scripted sessions).
input() {
    printf '%b' "$2" > "in/$1"
}

one=(--threads 1 --hash-mb 16)

# --- solve
run solve-text solve in/ffo1-5.obf "${one[@]}"
run solve-ascii solve in/small.txt --ascii "${one[@]}"
run solve-quiet solve in/ffo1-5.obf in/small.txt --quiet "${one[@]}"
run solve-wld solve in/ffo1-5.obf in/small.txt --wld --quiet "${one[@]}"
run solve-json solve in/ffo1-5.obf in/small.txt --json "${one[@]}"
run solve-json-wld solve in/ffo1-5.obf --json --wld "${one[@]}"
run solve-inline solve -p '--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X' \
    -p 'f5d6c4g5c6c5d7d3b4c3e3b5f6f3c2a4d2b6b3e2a3c7g6f4c8a2e6c1a6d8e8e7f8g4f7h6d1e1g3f2h4h5h3' \
    in/ffo1-5.obf --quiet "${one[@]}"
STDIN=in/ffo1-5.obf run solve-stdin solve - --quiet "${one[@]}"
run solve-ffo40 solve in/ffo-40.obf "${one[@]}"
run solve-node-limit solve in/ffo-40.obf --node-limit 200000 --quiet "${one[@]}"
run solve-node-limit-json solve in/ffo-40.obf --node-limit 200000 --json "${one[@]}"
run solve-time-limit-finishes solve in/ffo1-5.obf --time-limit 600 --quiet "${one[@]}"
run solve-samples solve in/mixed.txt in/board-strings.txt --quiet "${one[@]}"
run solve-transcripts solve in/transcripts.txt --quiet "${one[@]}"
run solve-force-small solve in/transcripts.txt --force --node-limit 100000 --quiet "${one[@]}"
# --- rules variants
run solve-reversi solve in/ffo1-5.obf in/reversi.txt --rules reversi --quiet "${one[@]}"
run solve-reversi-json solve in/reversi.txt --rules reversi --json "${one[@]}"
run solve-reversi-text solve in/reversi.txt --rules reversi "${one[@]}"
run solve-raw solve in/ffo1-5.obf in/small.txt --scoring raw --quiet "${one[@]}"
run solve-raw-json solve in/small.txt --scoring raw --json "${one[@]}"
run solve-reversi-raw solve in/reversi.txt --rules reversi --scoring raw --quiet "${one[@]}"
run solve-reversi-wld solve in/reversi.txt --rules reversi --wld --quiet "${one[@]}"
run solve-reversi-ffo40 solve in/ffo-40.obf --rules reversi --quiet "${one[@]}"
# --- analyze
run analyze-default analyze in/ffo1-5.obf in/small.txt "${one[@]}"
run analyze-obf analyze in/ffo1-5.obf in/small.txt --format obf "${one[@]}"
run analyze-jsonl analyze in/ffo1-5.obf in/small.txt --format jsonl "${one[@]}"
run analyze-csv analyze in/ffo1-5.obf in/small.txt --format csv "${one[@]}"
run analyze-out-obf analyze in/ffo1-5.obf -o out/a.obf "${one[@]}"
run analyze-out-jsonl analyze in/small.txt -o out/a.jsonl "${one[@]}"
run analyze-out-csv analyze in/small.txt -o out/a.csv "${one[@]}"
run analyze-best-only analyze in/ffo1-5.obf in/small.txt --best-only --format obf "${one[@]}"
run analyze-best-only-jsonl analyze in/ffo1-5.obf --best-only --format jsonl "${one[@]}"
run analyze-wld analyze in/ffo1-5.obf in/small.txt --wld --format obf "${one[@]}"
run analyze-wld-csv analyze in/ffo1-5.obf --wld --format csv "${one[@]}"
run analyze-check analyze in/ffo1-5.obf --check -o out/a.obf "${one[@]}"
run analyze-check-best-only analyze in/ffo1-5.obf --check --best-only --format obf "${one[@]}"
run analyze-check-wrong analyze in/wrong.obf in/ffo1-5.obf --check --format obf "${one[@]}"
run analyze-quiet analyze in/ffo1-5.obf --quiet --format obf "${one[@]}"
run analyze-svg analyze in/ffo1-5.obf --svg out/svg --format obf "${one[@]}"
run analyze-shard-0 analyze in/ffo1-5.obf in/small.txt --shard 0/2 --format obf "${one[@]}"
run analyze-shard-1 analyze in/ffo1-5.obf in/small.txt --shard 1/2 --format obf "${one[@]}"
run analyze-node-limit analyze in/ffo-40.obf --node-limit 200000 --format obf "${one[@]}"
run analyze-node-limit-jsonl analyze in/ffo-40.obf --node-limit 200000 --format jsonl "${one[@]}"
run analyze-node-limit-csv analyze in/ffo-40.obf --node-limit 200000 --format csv "${one[@]}"
STDIN=in/ffo1-5.obf run analyze-stdin analyze - --format obf "${one[@]}"
run analyze-samples analyze in/mixed.txt --format obf "${one[@]}"
run analyze-reversi analyze in/ffo1-5.obf in/reversi.txt --rules reversi --format jsonl "${one[@]}"
run analyze-reversi-obf analyze in/reversi.txt --rules reversi --format obf "${one[@]}"
run analyze-raw analyze in/small.txt --scoring raw --format jsonl "${one[@]}"
run analyze-raw-csv analyze in/small.txt --scoring raw --format csv "${one[@]}"
run analyze-reversi-raw-best analyze in/reversi.txt --rules reversi --scoring raw --best-only \
    --format obf "${one[@]}"
# --resume: a run cut after two and a half lines, then resumed.
osolve analyze in/ffo1-5.obf -o in/full.obf --quiet "${one[@]}" 2> /dev/null
{
    head -2 in/full.obf
    sed -n 3p in/full.obf | head -c 40
} > in/partial.obf
cp in/partial.obf out/resumed.obf
run analyze-resume analyze in/ffo1-5.obf -o out/resumed.obf --resume "${one[@]}"
cp in/ffo1-5.obf out/other.obf
run analyze-resume-mismatch analyze in/small.txt -o out/other.obf --resume "${one[@]}"
# --- games
run games-wtb games in/games/sample.wtb --empties 14 "${one[@]}"
run games-ggf games in/games/sample.ggf --empties 14 "${one[@]}"
run games-transcripts games in/games/sample.txt --empties 14 "${one[@]}"
run games-jsonl games in/games/sample.wtb --empties 12 --format jsonl "${one[@]}"
run games-csv games in/games/sample.ggf --empties 12 --format csv "${one[@]}"
run games-out-csv games in/games/sample.txt --empties 10 -o out/g.csv "${one[@]}"
run games-out-jsonl games in/games/sample.wtb --empties 10 -o out/g.jsonl "${one[@]}"
run games-quiet games in/games/sample.wtb --empties 12 --quiet "${one[@]}"
run games-shard games in/games/sample.wtb --empties 12 --shard 1/3 "${one[@]}"
run games-node-limit games in/games/sample.wtb --empties 20 --node-limit 50000 --format jsonl \
    "${one[@]}"
run games-empties-60 games in/games/sample.txt --empties 60 --node-limit 1000 --format csv \
    "${one[@]}"
run games-check-theoretical games in/games/sample.wtb --check-theoretical --format jsonl \
    "${one[@]}"
# --- show
run show-text show in/ffo1-5.obf in/small.txt
run show-ascii show in/ffo1-5.obf --ascii
run show-analyze show in/ffo1-5.obf in/small.txt --analyze "${one[@]}"
run show-solve show in/ffo1-5.obf --solve "${one[@]}"
run show-svg show in/ffo-40.obf --svg out/one.svg
run show-svg-analyze show in/ffo-40.obf --analyze --svg out/one.svg --quiet "${one[@]}"
run show-svg-solve show in/ffo-40.obf --solve --svg out/one.svg --quiet "${one[@]}"
run show-svg-dir show in/ffo1-5.obf in/small.txt --svg out/dir --quiet
run show-inline show -p 'f5d6c3' -p '---------------------------OX------XO--------------------------- X'
run show-reversi show in/reversi.txt --rules reversi --analyze "${one[@]}"
run show-raw show in/small.txt --scoring raw --solve "${one[@]}"
run show-reversi-svg show in/reversi.txt --rules reversi --analyze --svg out/rev --quiet \
    "${one[@]}"
# --- perft
run perft-start perft 7
run perft-position perft 5 --position 'f5d6c3d3c4f4f6f3e6e7'
run perft-pass perft 3 -p 'OXXXXX--OXXXXXXXOOXXXXXXOOOOOOOOOXXOXXOOOOOXOXOOOOOXXOOOOOOOOOOX X'
run perft-reversi perft 7 --rules reversi
run perft-reversi-position perft 4 --rules reversi \
    -p '--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X 4 10'
# --- bench
run bench-ffo1-19 bench --suite ffo1-19 --threads 1 --hash-mb 16
run bench-file bench --suite in/ffo1-5.obf --threads 1 --hash-mb 16
run bench-file-json bench --suite in/ffo1-5.obf --threads 1 --hash-mb 16 --json
run bench-repeat bench --suite in/ffo1-5.obf --threads 1 --hash-mb 16 --repeat 2 --keep-hash
run bench-wrong bench --suite in/wrong.obf --threads 1 --hash-mb 16
run bench-node-limit bench --suite in/ffo-40.obf --threads 1 --hash-mb 16 --node-limit 200000
run bench-unchecked bench --suite in/small.txt --threads 1 --hash-mb 16
# --- gen and train
run gen-exact gen --positions 60 --empties 10-12 --seed 7 -o out/gen.obf "${one[@]}"
run gen-self-play gen --positions 30 --empties 12-14 --seed 3 --policy self-play \
    --epsilon 0.2 -o out/gen.obf "${one[@]}"
run gen-search gen --positions 30 --empties 20-24 --seed 5 --search-depth 4 -o out/gen.obf \
    "${one[@]}"
run gen-reject gen --positions 5 --empties 40-44 --seed 1 -o out/gen.obf "${one[@]}"
osolve gen --positions 300 --empties 10-13 --seed 11 -o in/train.obf "${one[@]}" > /dev/null 2>&1
run train-tiny train in/train.obf --min-samples 50 --iterations 10 -o out/w.bin --threads 1
run train-stdout train in/train.obf --min-samples 50 --iterations 5 --no-augment -o - --threads 1
run train-nothing train in/ffo1-5.obf --min-samples 1000 --iterations 5 -o out/w.bin --threads 1
osolve train in/train.obf --min-samples 50 --iterations 10 -o in/w.bin --threads 1 > /dev/null 2>&1
run gen-weights gen --positions 20 --empties 12-14 --seed 9 --policy self-play --weights in/w.bin \
    -o out/gen.obf "${one[@]}"
run train-keep train in/train.obf --min-samples 50 --iterations 5 --keep in/w.bin -o out/w2.bin \
    --threads 1
# --- gtp
input gtp-standard.txt 'protocol_version\n2 name\nknown_command genmove\nknown_command resign\nlist_commands\nboardsize 8\nboardsize 19\nkomi 6.5\nkomi x\nclear_board\nset_game Go\nset_game Othello\nplay B F5\nplay white d6\nplay b C3\nshowboard\nfinal_score\nundo\nundo\nundo\nundo\nquit\nname\n'
STDIN=in/gtp-standard.txt run gtp-standard gtp "${one[@]}"
input gtp-errors.txt 'play b a1\nplay w f5\nplay b z9\nplay purple f5\nplay b\nplay b pass\ngenmove w\nfoo bar\n7 undo\n\x01name # a comment\n\nplay b f5\n8 play w f5'
STDIN=in/gtp-errors.txt run gtp-errors gtp "${one[@]}"
input gtp-solve.txt 'osolve-position --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X\nosolve-solve 60\nshowboard\ngenmove b\ngenmove w\nosolve-solve\nosolve-position -XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X\nosolve-solve\nosolve-position OXXXXX--OXXXXXXXOOXXXXXXOOOOOOOOOXXOXXOOOOOXOXOOOOOXXOOOOOOOOOOX X\ngenmove b\nosolve-solve\nosolve-position bogus\nquit\n'
STDIN=in/gtp-solve.txt run gtp-solve gtp "${one[@]}"
input gtp-endgame.txt 'osolve-position --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nfinal_score\nshowboard\n'
STDIN=in/gtp-endgame.txt run gtp-endgame gtp "${one[@]}"
# --- nboard
# The GGF of a game from a board string (X is black, `*` in GGF), with moves.
ggf() {
    printf '(;GM[Othello]PC[NBoard]DT[2026-12-01]PB[me]PW[osolve]RE[?]TI[15:00]TY[8]BO[8 %s *]%s;)' \
        "$(printf '%s' "$1" | tr X '*')" "${2:-}"
}
ffo1_ggf=$(ggf '--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--')
pass_ggf=$(ggf 'OXXXXX--OXXXXXXXOOXXXXXXOOOOOOOOOXXOXXOOOOOXOXOOOOOXXOOOOOOOOOOX')
input nboard-hint.txt "nboard 2\nset depth 20\nset game $ffo1_ggf\nping 1\nhint 3\ngo\nset contempt 0\nquit\n"
STDIN=in/nboard-hint.txt run nboard-hint nboard "${one[@]}"
input nboard-pass.txt "nboard 2\nset depth 10\nset game $pass_ggf\nhint 1\ngo\nmove PA\nmove Z9\nmove A1\nhint 2\nlearn\ngo\nfrobnicate 3\nquit\n"
STDIN=in/nboard-pass.txt run nboard-pass nboard "${one[@]}"
input nboard-errors.txt "nboard 2\nset game (;GM[Chess];)\nset game (;GM[Othello]B[f5]\nset depth 0\nhint 0\nmove\nping 3\nset game (;GM[Othello]PC[x]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5]B[F4];)\nquit\n"
STDIN=in/nboard-errors.txt run nboard-errors nboard "${one[@]}"
input nboard-analyze.txt "nboard 2\nset game $(ggf '--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--' 'B[G8]')\nanalyze\nquit\n"
STDIN=in/nboard-analyze.txt run nboard-analyze nboard "${one[@]}"
# --- bad inputs
run bad-missing-file solve in/nothing.obf "${one[@]}"
run bad-directory solve in/dir "${one[@]}"
run bad-lines solve in/bad.txt --quiet "${one[@]}"
run bad-lines-analyze analyze in/bad.txt --format obf "${one[@]}"
run bad-lines-strict analyze in/bad.txt --strict --format obf "${one[@]}"
run bad-inline solve -p 'XXOO X' "${one[@]}"
run bad-inline-transcript solve -p 'f5d6c3d3a1' "${one[@]}"
run bad-threads solve in/ffo1-5.obf --threads 0
run bad-hash solve in/ffo1-5.obf --hash-mb 0
run bad-flag solve in/ffo1-5.obf --frobnicate
run bad-rules solve in/ffo1-5.obf --rules chess
run bad-time-limit solve in/ffo1-5.obf --time-limit -1
run bad-no-input solve "${one[@]}"
run bad-too-deep solve -p 'f5d6c4g5c6c5d7d3b4c3e3b5f6f3c2a4d2b6b3e2' "${one[@]}"
run bad-too-deep-analyze analyze in/transcripts.txt --format obf "${one[@]}"
run bad-wtb-to-solve solve in/games/sample.wtb "${one[@]}"
run bad-ggf-to-analyze analyze in/games/sample.ggf "${one[@]}"
run bad-output-is-input analyze in/ffo1-5.obf -o in/ffo1-5.obf "${one[@]}"
run bad-format analyze in/ffo1-5.obf --format xml "${one[@]}"
run bad-shard analyze in/ffo1-5.obf --shard 2/2 "${one[@]}"
run bad-resume-no-output analyze in/ffo1-5.obf --resume "${one[@]}"
run bad-games-no-mode games in/games/sample.wtb "${one[@]}"
run bad-games-truncated games in/truncated.wtb --empties 10 "${one[@]}"
run bad-games-ggf games in/bad.ggf --empties 10 "${one[@]}"
run bad-games-missing games in/nothing.wtb --empties 10 "${one[@]}"
run bad-games-empties games in/games/sample.wtb --empties 61 "${one[@]}"
run bad-show-svg-file show in/ffo1-5.obf --svg in/ffo-40.obf
run bad-show-png show in/ffo-40.obf --png out/x.png
run bad-show-both show in/ffo-40.obf --analyze --solve
run bad-perft-depth perft 21
run bad-perft-position perft 3 -p 'nonsense'
run bad-bench-suite bench --suite in/nothing.obf --threads 1
run bad-gen-empties gen --positions 5 --empties 12-10 --seed 1 -o out/g.obf
run bad-gen-no-output gen --positions 5 --empties 10-12 --seed 1
run bad-train-missing train in/nothing.obf -o out/w.bin
run bad-train-weights gen --positions 5 --empties 10-12 --seed 1 --weights in/ffo1-5.obf -o out/g.obf
run bad-gtp-threads gtp --threads 0
run bad-nboard-move-time nboard --move-time x
run bad-subcommand frobnicate
run bad-completions completions tcsh
run bad-man man frobnicate
# --- help, version, completions, man
run help --help
run version --version
run no-arguments
for command in solve analyze games show bench perft gen train gtp nboard completions man help; do
    run "help-$command" "$command" --help
done
for shell in bash zsh fish powershell elvish; do
    run "completions-$shell" completions "$shell"
done
run man man
for command in solve analyze games show bench perft gen train gtp nboard completions; do
    run "man-$command" man "$command"
done

echo "$cases cases written to $outdir"
