#!/usr/bin/env bash
# The bot's brain against wolges in the same run: lexq's endgame solver
# against wolges's EndgameSolver (time to a full solve, and the values
# compared), lexq's simulation against wolges's simmer (rollouts a second),
# alternating round by round, pinned to one core. The figures
# docs/BENCHMARKS.md quotes ("The bot's brain"). Run by hand, not by CI:
# wolges is fetched beside the project; without it this script says so and
# exits 0.
#
#   bash benches/brain.sh
#
# Set-up (once): a wolges work tree at WOLGES_SRC (default
# target/wolges-src; from a bare clone DIR, e.g. the search tool's fetch of
# github:andy-k/wolges: mkdir -p target/wolges-src && git -C DIR archive HEAD
# | tar -x -C target/wolges-src). The script then builds, under
# target/wolges-brain/ (its own workspace and target dir):
#   - wolges's buildlex and benches/wolges-brain (a driver of wolges's
#     endgame solver and simmer over CGP files; copied there and linked to
#     WOLGES_SRC, as ../shared/tools/wolges-bench/setup.sh does);
#   - words.txt: indexes/enable1.txt uppercased, A-Z words of 2-15 letters;
#     lexicon.kwg (buildlex english-kwg) and words.lexq (lexq build) of it,
#     so that both engines have the very same words;
#   - leaves.klv2: `buildlex english-klv2` of LEAVES (default: a table of
#     lexq's own self-play, `lexq leaves --games 2000`), read by both;
# and lexq's examples/brain_timing in release (NO_BUILD=1: as built).
#
# Positions: `lexq selfplay --games GAMES --seed SEED` (default 300 games,
# seed 7001), picked by benches/brain_positions.py: the first bag-empty
# position of each game, or the one after it (2-7 tiles a rack), and the
# first position with 30-60 tiles in the bag.
#
# Knobs (environment): ROUNDS (3), CORE (1), CAP (seconds a position for
# either solver, default 20: past it the position is reported as capped),
# MCNZ (2: the scoreless turns that end lexq's game; wolges's solver ends
# it at two passes in a row), ENDGAMES_MAX (positions solved, default 120),
# MIDGAMES_MAX (default 40), CANDIDATES (10), PLIES (2), ITERATIONS (50),
# ONLY (endgame,sim), GAMES, SEED, LEAVES, WOLGES_SRC, WOLGES_COMMIT (the
# commit the tree was taken from, printed), MAGPIE_SRC, MAGPIE_DATA,
# MAGPIE_COMMIT.
set -euo pipefail
cd "$(dirname "$0")/.."

SRC=${WOLGES_SRC:-target/wolges-src}
if [[ ! -f $SRC/Cargo.toml || ! -f $SRC/src/endgame.rs || ! -f $SRC/src/simmer.rs ]]; then
    echo "brain.sh: skipped: needs a wolges work tree at $SRC (set WOLGES_SRC; see the top of this script)."
    exit 0
fi
command -v taskset >/dev/null || { echo "brain.sh: needs taskset (util-linux)" >&2; exit 1; }
taskset -c "${CORE:-1}" true 2>/dev/null || { echo "brain.sh: cannot pin to core ${CORE:-1}" >&2; exit 1; }
SRC=$(cd "$SRC" && pwd)
W=$PWD/target/wolges-brain
mkdir -p "$W/crate"
grep -q '^\[workspace\]' "$SRC/Cargo.toml" || printf '\n[workspace]\n' >> "$SRC/Cargo.toml"
cp benches/wolges-brain/Cargo.toml "$W/crate/Cargo.toml"
cp -r benches/wolges-brain/src "$W/crate/"
ln -sfn "$SRC" "$W/wolges"
cp "$SRC/Cargo.lock" "$W/crate/Cargo.lock"

if [[ ${NO_BUILD:-0} != 1 ]]; then
    CARGO_TARGET_DIR="$W/target" cargo build --release --quiet --locked \
        --manifest-path "$SRC/Cargo.toml" --bin buildlex
    CARGO_TARGET_DIR="$W/target" cargo build --release --quiet --manifest-path "$W/crate/Cargo.toml"
    cargo build --release --quiet -p lexq-cli --bin lexq
    cargo build --release --quiet --example brain_timing
fi
LEXQ=target/release/lexq
if [[ ! -f $W/lexicon.kwg || ! -f $W/words.lexq ]]; then
    LC_ALL=C tr 'a-z' 'A-Z' < indexes/enable1.txt | tr -d '\r' | LC_ALL=C grep -E '^[A-Z]{2,15}$' \
        | LC_ALL=C sort -u > "$W/words.txt"
    "$W/target/release/buildlex" english-kwg "$W/words.txt" "$W/lexicon.kwg"
    "$LEXQ" build "$W/words.txt" -o "$W/words.lexq" >/dev/null 2>&1
fi
LEAVES=${LEAVES:-$W/leaves.csv}
if [[ ! -f $LEAVES ]]; then
    "$LEXQ" leaves --games 2000 -o "$LEAVES" >/dev/null
fi
"$W/target/release/buildlex" english-klv2 "$LEAVES" "$W/leaves.klv2"

# MAGPIE (optional, simulation only): a work tree at MAGPIE_SRC (default
# target/magpie-src: git -C <bare clone of github:jvc56/MAGPIE> archive HEAD
# | tar -x -C target/magpie-src) and its data at MAGPIE_DATA (default
# target/magpie-data, the same from github:jvc56/MAGPIE-DATA: layouts,
# letter distributions and win table; its lexica are not used). Built with
# `make magpie BUILD=release`; our KWG and KLV2 go into its data/lexica as
# TWLENABLE (MAGPIE picks a lexicon's tile set by its name's prefix, and
# TWL means English), with the word map MAGPIE makes of the same list
# (`convert text2wordmap`; without one, -wmp false).
MAGPIE_SRC=${MAGPIE_SRC:-target/magpie-src}
MAGPIE_DATA=${MAGPIE_DATA:-target/magpie-data}
MAGPIE=
if [[ -f $MAGPIE_SRC/Makefile && -f $MAGPIE_SRC/src/impl/simmer.c && -d $MAGPIE_DATA/data ]]; then
    if [[ ${NO_BUILD:-0} != 1 ]]; then
        make -s -C "$MAGPIE_SRC" magpie BUILD=release >/dev/null 2>&1
    fi
    mkdir -p "$MAGPIE_SRC/data/lexica" "$MAGPIE_SRC/data/layouts" \
        "$MAGPIE_SRC/data/letterdistributions" "$MAGPIE_SRC/data/strategy"
    cp "$MAGPIE_DATA/data/layouts/standard15.txt" "$MAGPIE_SRC/data/layouts/"
    cp "$MAGPIE_DATA/data/letterdistributions/english.csv" "$MAGPIE_SRC/data/letterdistributions/"
    cp "$MAGPIE_DATA/data/strategy/winpct.csv" "$MAGPIE_SRC/data/strategy/"
    cp "$W/lexicon.kwg" "$MAGPIE_SRC/data/lexica/TWLENABLE.kwg"
    cp "$W/leaves.klv2" "$MAGPIE_SRC/data/lexica/TWLENABLE.klv2"
    # Its word map (MAGPIE's own index for move generation), from the list.
    if [[ ! -f $MAGPIE_SRC/data/lexica/TWLENABLE.wmp ]]; then
        cp "$W/words.txt" "$MAGPIE_SRC/data/lexica/TWLENABLE.txt"
        (cd "$MAGPIE_SRC" && echo 'convert text2wordmap TWLENABLE' | ./bin/magpie set -savesettings false \
            -mode sync -wmp false -lex TWLENABLE -ld english >/dev/null 2>&1) || true
    fi
    MAGPIE=$(cd "$MAGPIE_SRC" && pwd)
    echo "MAGPIE: $MAGPIE (${MAGPIE_COMMIT:-commit not given})"
else
    echo "MAGPIE: not there (MAGPIE_SRC=$MAGPIE_SRC, MAGPIE_DATA=$MAGPIE_DATA): simulation against wolges only"
fi

tmp=$(mktemp -d /tmp/lexq-brain.XXXXXX)
trap 'rm -rf "$tmp"; rm -f /tmp/lexq-quiet' EXIT
"$LEXQ" selfplay --games "${GAMES:-300}" --seed "${SEED:-7001}" -o "$tmp/self.cgp"
python3 benches/brain_positions.py "$tmp/self.cgp" "$tmp/end-all.cgp" "$tmp/mid-all.cgp"
head -n "${ENDGAMES_MAX:-120}" "$tmp/end-all.cgp" > "$tmp/end.cgp"
head -n "${MIDGAMES_MAX:-40}" "$tmp/mid-all.cgp" > "$tmp/mid.cgp"
echo "leave table: $LEAVES ($(wc -l < "$LEAVES") leaves), KLV2 $(wc -c < "$W/leaves.klv2") bytes;" \
    "lexicon: $(wc -l < "$W/words.txt") words; wolges ${WOLGES_COMMIT:-(tree at $SRC)}"
W=$W MAGPIE=$MAGPIE ENDGAMES=$tmp/end.cgp MIDGAMES=$tmp/mid.cgp python3 benches/brain.py
