#!/usr/bin/env bash
# The largest lexicons: builds and verifies pseudo-word lists of WORDS
# distinct words (default "1760000 5000000"; benches/big_list.py makes
# them, seeded, in $TMPDIR) on one core (CORE, default 1), and prints each
# build's time, its peak memory (/usr/bin/time -v) per distinct word, the
# file's size and arc width, and the full check's time. Run by hand
# (minutes, and about 1 GB of memory for 5 M words), not by CI.
#
#   bash benches/big_list.sh        # NO_BUILD=1 to reuse target/release/lexq
#   WORDS="500000 5000000" CORE=0 bash benches/big_list.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WORDS=${WORDS:-"1760000 5000000"}
TMP=${TMPDIR:-/tmp}
CORE=${CORE:-1}
if [ -z "${NO_BUILD:-}" ]; then
    cargo build --release --quiet -p lexq-cli --bin lexq
fi
LEXQ=target/release/lexq
for n in $WORDS; do
    list="$TMP/lexq-big-$n.txt"
    out="$TMP/lexq-big-$n.lexq"
    [ -s "$list" ] || python3 benches/big_list.py "$n" > "$list"
    log=$(mktemp)
    taskset -c "$CORE" /usr/bin/time -v "$LEXQ" build "$list" -o "$out" 2> "$log"
    secs=$(awk -F': ' '/Elapsed/ {print $2}' "$log")
    kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$log")
    start=$(date +%s.%N)
    LEXQ_CACHE_DIR= taskset -c "$CORE" "$LEXQ" verify -L "$out" > /dev/null
    verify=$(echo "$(date +%s.%N) - $start" | bc)
    bytes=$(stat -c %s "$out")
    arcs=$("$LEXQ" info -L "$out" | sed -n 's/.*(\([0-9]* arcs of [0-9]* bits\)).*/\1/p')
    printf '%s words: build %s (m:ss), peak %s MB = %.0f B/word; file %s bytes (%s); verify %.1f s\n' \
        "$n" "$secs" "$((kb / 1024))" "$(echo "$kb * 1024 / $n" | bc -l)" "$bytes" "$arcs" "$verify"
    rm -f "$log" "$out"
done
