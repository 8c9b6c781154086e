#!/usr/bin/env bash
# Equity search timed against raw-score search and against wolges's top-1
# equity search with the same leave table, in the same run, alternating,
# pinned to one core; and the picks compared where wolges's adjustments
# (end game, opening vowel penalty) do not apply. Run by hand, not by CI:
# wolges-bench is fetched and built beside the project
# (../shared/tools/wolges-bench/README.md); without it this script says so
# and exits 0.
#
#   bash benches/equity.sh
#
# LEAVES (a CSV of LEAVE,VALUE lines) is the table both use: lexq reads the
# KLV2 that wolges's `buildlex english-klv2` makes of it (and checks that
# the CSV gives the same picks); by default a synthetic table of every
# leave of 1-6 tiles (benches/leave_table.py). Knobs as in wolges.sh:
# WOLGES_WORK, ROUNDS (5), REPS (3), CORE (1), POSITIONS
# (benches/heavy.cgp), NO_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."

NAME=equity.sh
# shellcheck source=benches/wolges-setup.sh
source benches/wolges-setup.sh
W=$(cd "$W" && pwd) LEXQ=target/release/lexq TIMING=target/release/examples/movegen_timing \
    exec python3 benches/equity.py
