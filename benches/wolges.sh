#!/usr/bin/env bash
# lexq against wolges in the same run: move generation (every move, and the
# best move only) and the lexicon build, each pair alternated and pinned to
# one core, printed as ratios lexq / wolges (the figures the README's
# benchmark section quotes). Run by hand, not by CI: wolges is fetched and
# built beside the project (../shared/tools/wolges-bench/README.md); without
# it this script says so and exits 0.
#
#   bash benches/wolges.sh
#
# What is compared, on POSITIONS (default benches/heavy.cgp: 300 self-play
# positions in five game phases, racks with no, one and two blanks; see
# benches/heavy.py), as a whole and split by rack class:
#   - every move: movegen_timing --mode all (every move kept in a list, as
#     wolges keeps its moves) against wolges-bench bench --mode all;
#   - the best move only: movegen_timing --mode best against wolges-bench
#     --mode best (wolges's own top-1 search, no leave table);
#   - the batch CLI, `lexq moves --all --count < POSITIONS`, process start
#     to exit, against wolges's in-process all-moves time of the same run;
#   - `lexq build` against `buildlex english-kwg` on the same filtered list
#     (setup.sh's words.txt: A-Z words of 2 to 15 letters), and the sizes.
# Both lexicons are built from that list, and the move lists of lexq and
# wolges are compared line by line before anything is timed.
#
# Knobs (environment): WOLGES_WORK (default target/wolges-bench: setup.sh's
# folder), ROUNDS (default 5), REPS (timed passes per measurement, default
# 3), CORE (default 1), POSITIONS, NO_BUILD=1 (use the binaries as built).
set -euo pipefail
cd "$(dirname "$0")/.."

NAME=wolges.sh
# shellcheck source=benches/wolges-setup.sh
source benches/wolges-setup.sh
W=$(cd "$W" && pwd) LEXQ=target/release/lexq TIMING=target/release/examples/movegen_timing \
    exec python3 benches/wolges.py
