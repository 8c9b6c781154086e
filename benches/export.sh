#!/usr/bin/env bash
# `lexq site export` against another lexq's export (issue 31: today's was
# one JSON file per word), same run, same site: ENABLE with WordNet.
# For each, three rounds into a fresh folder: wall time, files, folders,
# bytes written (the files' sizes) and bytes on disk (du: blocks, folders
# included).
#
#   bash benches/export.sh OLD_LEXQ [NEW_LEXQ]
#
# OLD_LEXQ is a lexq built from the commit to compare with, for example
# main before the static site:
#   git worktree add /tmp/lexq-old 4c34ae0
#   (cd /tmp/lexq-old && cargo build --release -p lexq-cli)
#   bash benches/export.sh /tmp/lexq-old/target/release/lexq
# NEW_LEXQ defaults to target/release/lexq (cargo build --release -p lexq-cli).
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bash benches/export.sh OLD_LEXQ [NEW_LEXQ]}
new=${2:-target/release/lexq}
bash site/fetch-wordnet.sh >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/lexq-export-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$new" site build --wordnet target/wordnet -o "$work/site" >/dev/null 2>&1

# run NAME COMMAND...: one export into $work/NAME, timed, then measured.
run() {
  local name=$1
  shift
  rm -rf "${work:?}/$name"
  sync
  local start end
  start=$(date +%s.%N)
  "$@" -o "$work/$name" >/dev/null 2>&1
  end=$(date +%s.%N)
  sync
  local files dirs bytes disk
  files=$(find "$work/$name" -type f | wc -l)
  dirs=$(find "$work/$name" -type d | wc -l)
  bytes=$(find "$work/$name" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
  disk=$(du -s -B1 "$work/$name" | cut -f1)
  printf '%s\t%6.2f s\t%7d files\t%7d folders\t%10d bytes\t%10d bytes on disk\n' \
    "$name" "$(echo "$end - $start" | bc)" "$files" "$dirs" "$bytes" "$disk"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in 1 2 3; do
  echo "round $round"
  run old "$old" site export --site "$work/site"
  run new "$new" site export --site "$work/site" --base-url https://example.org
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
