#!/usr/bin/env bash
# Opening a lexicon file through the library, before and after the record
# of checked files left it (issue 33): examples/open_timing.rs built from
# this checkout and from an older one (BEFORE, default b0887c7^, whose
# Lexicon::open maps the file and skips the arc table's CRC for a file its
# record holds), then both run in turn, pinned to core CORE (default 1),
# ROUNDS times (default 3), on ENABLE (indexes/enable1.lexq) and on the
# 1.76 M pseudo-word list (benches/big_list.py 1760000, built once into
# $TMPDIR). Prints each way's median and fastest open, in microseconds.
# Run by hand: two release builds (LTO off, both alike) and a 3-minute
# build of the big lexicon the first time.
#
#   bash benches/open.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=${BEFORE:-b0887c7^}
CORE=${CORE:-1}
ROUNDS=${ROUNDS:-3}
TMP=${TMPDIR:-/tmp}
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
target=$(pwd)/target
cargo build --release --quiet --example open_timing -p lexq
after="$TMP/open_timing_after"
cp "$target/release/examples/open_timing" "$after"
old="$TMP/lexq-open-before"
rm -rf "$old" && mkdir -p "$old"
git archive "$BEFORE" | tar -x -C "$old"
# The older checkout has Lexicon::open only: the other ways deleted.
python3 - "$old/examples/open_timing.rs" examples/open_timing.rs <<'EOF'
import sys
s = open(sys.argv[2]).read()
a = s.index('    use lexq::{Checks')
b = s.index('        _ => return Err')
open(sys.argv[1], 'w').write(s[:a] + '    Ok(match mode {\n        "open" => lexq::Lexicon::open(file)?,\n' + s[b:])
EOF
(cd "$old" && cargo build --release --quiet --example open_timing -p lexq --target-dir "$target")
before="$TMP/open_timing_before"
cp "$target/release/examples/open_timing" "$before"
list="$TMP/lexq-big-1760000.txt"
big="$TMP/lexq-open-big.lexq"
[ -s "$list" ] || python3 benches/big_list.py 1760000 > "$list"
[ -s "$big" ] || "$after" --build "$list" "$big"
cache=$(mktemp -d)
for round in $(seq "$ROUNDS"); do
    for f in indexes/enable1.lexq "$big"; do
        case $f in *enable1*) r=51 ;; *) r=11 ;; esac
        echo "round $round, $f"
        printf '  before, remembered: '
        LEXQ_CACHE_DIR="$cache" taskset -c "$CORE" "$before" --reps "$r" "$f"
        printf '  before, no record:  '
        LEXQ_CACHE_DIR= taskset -c "$CORE" "$before" --reps "$r" "$f"
        for m in open header map map-header; do
            printf '  after, %-12s' "$m:"
            taskset -c "$CORE" "$after" --mode "$m" --reps "$r" "$f"
        done
    done
done
rm -rf "$cache" "$old"
