#!/usr/bin/env bash
# Word-study orders against the unsorted search, per process: `--sort
# probability`, `--table`, a text `--in` list against the same list as a
# lexicon, and a batch of sorted lines against the same batch unsorted.
# Each row: instructions (callgrind, one run each: the same on a loaded
# machine) and task-clock (`perf stat -r $RUNS` pinned to one core, the
# two sides alternated $ROUNDS times, medians), and their ratios
# (row / reference). Output goes to /dev/null: -c would skip the order.
#
#   cargo build --release -p lexq-cli && bash benches/study.sh
#
# Knobs: LEXQ (binary), RUNS (10), ROUNDS (3), CORE (1), ONLY=WORD (rows
# whose name starts with WORD), NO_CALLGRIND=1. Needs perf; valgrind for
# the instruction counts.
set -euo pipefail
cd "$(dirname "$0")/.."
LEXQ=${LEXQ:-target/release/lexq}
RUNS=${RUNS:-10}
ROUNDS=${ROUNDS:-3}
CORE=${CORE:-1}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The list for --in: every other word of ENABLE, as text and as a lexicon.
awk 'NR % 2' indexes/enable1.txt >"$WORK/list.txt"
"$LEXQ" build "$WORK/list.txt" -o "$WORK/list.lexq"
# Batches: 20 lines, sorted and not.
for k in $(seq 20); do echo "contains e --sort probability"; done >"$WORK/sorted.q"
for k in $(seq 20); do echo "contains e"; done >"$WORK/plain.q"

# Mean task-clock in ms of `RUNS` runs of the command, output dropped.
clock() {
    taskset -c "$CORE" perf stat -x, -e task-clock -r "$RUNS" "$@" 2>&1 >/dev/null |
        awk -F, '/task-clock/ { print $1 }' || true
}

# Instructions of one run (callgrind's I refs).
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        awk '/Collected/ { print $NF }' || true
}

# Rows: name; the reference's arguments; the row's arguments.
ROWS=(
    "contains e sort;contains e;contains e --sort probability"
    "contains e table;contains e;contains e --table"
    "starts re sort;starts re;starts re --sort probability"
    "find len 7 sort;find --len 7;find --len 7 --sort probability"
    "find len 7 table;find --len 7;find --len 7 --table"
    "not-in text list;find --not-in $WORK/list.lexq --len 5 --starts c;find --not-in $WORK/list.txt --len 5 --starts c"
    "in text list len 5;find --in $WORK/list.lexq --len 5;find --in $WORK/list.txt --len 5"
    "batch of 20 sorted;query $WORK/plain.q;query $WORK/sorted.q"
)

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-22s %12s %12s %6s %8s %8s %6s\n' row "ref instr" "row instr" ratio "ref ms" "row ms" ratio
for row in "${ROWS[@]}"; do
    IFS=';' read -r name ref this <<<"$row"
    [[ -z ${ONLY:-} || $name == "$ONLY"* ]] || continue
    read -ra refv <<<"$ref"
    read -ra thisv <<<"$this"
    refc=("$LEXQ" "${refv[@]}")
    thisc=("$LEXQ" "${thisv[@]}")
    ri=- ti=- qi=-
    if [[ -z ${NO_CALLGRIND:-} ]] && command -v valgrind >/dev/null; then
        ri=$(instructions "${refc[@]}")
        ti=$(instructions "${thisc[@]}")
        qi=$(awk -v a="$ti" -v b="$ri" 'BEGIN { printf "%.2f", a / b }')
    fi
    rs=() ts=() qs=()
    for ((k = 0; k < ROUNDS; k++)); do
        if ((k % 2 == 0)); then
            r=$(clock "${refc[@]}"); t=$(clock "${thisc[@]}")
        else
            t=$(clock "${thisc[@]}"); r=$(clock "${refc[@]}")
        fi
        rs+=("$r") ts+=("$t") qs+=("$(awk -v t="$t" -v r="$r" 'BEGIN { printf "%.3f", t / r }')")
    done
    printf '%-22s %12s %12s %6s %8.2f %8.2f %6.2f\n' "$name" "$ri" "$ti" "$qi" \
        "$(printf '%s\n' "${rs[@]}" | median)" "$(printf '%s\n' "${ts[@]}" | median)" \
        "$(printf '%s\n' "${qs[@]}" | median)"
done
echo "instructions: one callgrind run each; ms: task-clock, mean of $RUNS runs, median of $ROUNDS alternated rounds, pinned to core $CORE; ratio row/reference"
