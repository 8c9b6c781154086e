#!/usr/bin/env bash
# Regenerates benches/positions.cgp: greedy self-play with ENABLE (60 games
# from seed 1), every position whose mover holds a blank plus every 6th
# other position, so about a third of the racks hold a blank and every game
# phase (empty board to empty bag) is present. Then benches/two-blanks.cgp:
# every position of 1000 more games (from seed 7) whose mover holds both
# blanks (greedy play spends blanks at once, so the main set holds only 3).
# Then benches/heavy.cgp (see the end of this file).
#   bash benches/positions.sh [path/to/lexq]
set -euo pipefail
cd "$(dirname "$0")/.."
LEXQ=${1:-target/release/lexq}
"$LEXQ" selfplay --games 60 --seed 1 |
    awk '{ split($2, r, "/"); if (index(r[1], "?")) { print; next } if (++n % 6 == 0) print }' \
        > benches/positions.cgp
wc -l benches/positions.cgp
"$LEXQ" selfplay --games 1000 --seed 7 |
    awk '{ split($2, r, "/"); if (index(r[1], "??")) print }' > benches/two-blanks.cgp
wc -l benches/two-blanks.cgp
# benches/heavy.cgp: the heavier set of the same-run comparison with
# wolges-bench (benches/wolges.sh): 300 positions of 400 games from seed
# 1001, by game phase and rack class (benches/heavy.py says how).
"$LEXQ" selfplay --games 400 --seed 1001 | python3 benches/heavy.py > benches/heavy.cgp
wc -l benches/heavy.cgp
