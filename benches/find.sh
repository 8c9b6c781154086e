#!/usr/bin/env bash
# `lexq find` per process against what it replaces: the pipeline of
# today's commands and rg over the word list, pinned to one core,
# alternating (hyperfine runs the commands of a line in turn).
#
#   cargo build --release -p lexq-cli && benches/find.sh
#
# Needs hyperfine and rg. LEXQ overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
LEXQ=${LEXQ:-target/release/lexq}
LIST=indexes/enable1.txt
CORE=${CORE:-1}
run() {
  taskset -c "$CORE" hyperfine --warmup 5 --min-runs 40 -N --style basic "$@" 2>/dev/null \
    | grep -E "Time|±" || true
}
runsh() {
  taskset -c "$CORE" hyperfine --warmup 5 --min-runs 40 --style basic "$@" 2>/dev/null \
    | grep -E "Time|±" || true
}
echo "== -ING words of 7 letters that take a front hook"
runsh "$LEXQ find --ends ING --len 7 --front-hook" \
  "$LEXQ ends ing --len 7 | xargs $LEXQ hooks | awk '\$1!=\"-\"'"
echo "== 7 letters, a Q, no U"
runsh "$LEXQ find --len 7 --includes Q --not-includes U" \
  "$LEXQ regex '[^u]*q[^u]*' --len 7" \
  "rg -x '[^u]*q[^u]*' $LIST | awk 'length(\$0)==7'"
echo "== QU and -ING"
runsh "$LEXQ find --contains QU --ends ING" \
  "$LEXQ contains qu | grep 'ING\$'" \
  "rg -x '.*qu.*ing' $LIST"
echo "== UN- and -ABLE, at most 4 vowels"
runsh "$LEXQ find --starts UN --ends ABLE --vowels -4" \
  "rg -x 'un.*able' $LIST | rg -v '([aeiou].*){5}'"
