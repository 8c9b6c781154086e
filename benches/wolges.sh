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

W=${WOLGES_WORK:-target/wolges-bench}
missing=()
for f in target/release/wolges-bench target/release/buildlex lexicon.kwg words.txt; do
    [[ -e $W/$f ]] || missing+=("$W/$f")
done
if ((${#missing[@]})); then
    echo "wolges.sh: skipped: needs wolges-bench (missing ${missing[*]})."
    echo "  Set it up as ../shared/tools/wolges-bench/README.md says, or point WOLGES_WORK at its folder."
    exit 0
fi
command -v taskset >/dev/null || { echo "wolges.sh: needs taskset (util-linux)" >&2; exit 1; }
taskset -c "${CORE:-1}" true 2>/dev/null || {
    echo "wolges.sh: cannot pin to core ${CORE:-1} (set CORE to one this machine has)" >&2
    exit 1
}
command -v python3 >/dev/null || { echo "wolges.sh: needs python3" >&2; exit 1; }

if [[ ${NO_BUILD:-0} != 1 ]]; then
    cargo build --release --quiet -p lexq-cli --bin lexq
    cargo build --release --quiet --example movegen_timing
fi
W=$(cd "$W" && pwd) LEXQ=target/release/lexq TIMING=target/release/examples/movegen_timing \
    exec python3 benches/wolges.py
