#!/usr/bin/env bash
# The batch move-generation CLI end to end (process start to exit, the
# lexicon opened and its arc table loaded in every run) over
# benches/positions.cgp, pinned to one core, with hyperfine; then peak RSS
# with GNU time. Installs hyperfine (and time) from Debian's packages if
# missing, like compare.sh.
#
# Run from the repository root:   bash benches/moves-cli.sh
# Knobs (environment): RUNS (default 15), WARMUP (default 3).
set -euo pipefail

RUNS=${RUNS:-15}
WARMUP=${WARMUP:-3}
POSITIONS=benches/positions.cgp
LEXQ=target/release/lexq

[[ -f Cargo.toml && -f $POSITIONS ]] || {
    echo "moves-cli.sh: run me from the lexq repository root" >&2
    exit 1
}

missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
[[ -x /usr/bin/time ]] || missing+=(time)
if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]]; then
        apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
fi

cargo build --release --quiet
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)

first=$(head -n 1 "$POSITIONS")
moves=$("$LEXQ" moves --all --count <"$POSITIONS" | awk '{ s += $1 } END { print s }')
positions=$(wc -l <"$POSITIONS")
echo "$positions positions, $moves moves"

# Debian's hyperfine has no --input: the batch runs go through a shell
# (hyperfine subtracts the shell's own start-up).
hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json target/moves-cli.json \
    -n 'moves --all --count (batch)' "${pin[*]} $LEXQ moves --all --count < $POSITIONS" \
    -n 'moves --top 1 --json (batch)' "${pin[*]} $LEXQ moves --top 1 --json < $POSITIONS > /dev/null"
hyperfine -N --warmup "$WARMUP" --runs "$RUNS" \
    -n 'moves --cgp (one position) --all --count' \
    "${pin[*]} $LEXQ moves --all --count --cgp '$first'"

python3 - "$moves" "$positions" <<'EOF'
import json, sys
moves, positions = int(sys.argv[1]), int(sys.argv[2])
for r in json.load(open("target/moves-cli.json"))["results"]:
    mean, median = r["mean"], r["median"]
    line = f"{r['command']}: mean {mean * 1e3:.1f} ms, median {median * 1e3:.1f} ms, {median / positions * 1e6:.0f} us a position"
    if "--all" in r["command"]:
        line += f", {moves / median / 1e6:.2f} M moves/s"
    print(line)
EOF

for args in "--all --count" "--top 1 --json"; do
    rss=$(/usr/bin/time -f '%M' "$LEXQ" moves $args <"$POSITIONS" 2>&1 >/dev/null | tail -n 1)
    echo "peak RSS, moves $args: $((rss / 1024)) MB"
done
