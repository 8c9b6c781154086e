# Shared set-up of the scripts that run lexq beside wolges-bench
# (wolges.sh, equity.sh), sourced from the repository's root with NAME set
# to the script's name: finds wolges-bench's folder (WOLGES_WORK, default
# target/wolges-bench) or exits 0 saying it is skipped, checks taskset, the
# core (CORE, default 1) and python3, and builds lexq and movegen_timing in
# release unless NO_BUILD=1. Leaves W set to the folder.

W=${WOLGES_WORK:-target/wolges-bench}
missing=()
for f in target/release/wolges-bench target/release/buildlex lexicon.kwg words.txt; do
    [[ -e $W/$f ]] || missing+=("$W/$f")
done
if ((${#missing[@]})); then
    echo "$NAME: skipped: needs wolges-bench (missing ${missing[*]})."
    echo "  Set it up as ../shared/tools/wolges-bench/README.md says, or point WOLGES_WORK at its folder."
    exit 0
fi
command -v taskset >/dev/null || { echo "$NAME: needs taskset (util-linux)" >&2; exit 1; }
taskset -c "${CORE:-1}" true 2>/dev/null || {
    echo "$NAME: cannot pin to core ${CORE:-1} (set CORE to one this machine has)" >&2
    exit 1
}
command -v python3 >/dev/null || { echo "$NAME: needs python3" >&2; exit 1; }

if [[ ${NO_BUILD:-0} != 1 ]]; then
    cargo build --release --quiet -p lexq-cli --bin lexq
    cargo build --release --quiet --example movegen_timing
fi
