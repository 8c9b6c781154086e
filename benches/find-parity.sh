#!/usr/bin/env bash
# `lexq find` with one condition against the command it stands for, and
# combined queries against their most selective condition alone, per
# process: mean task-clock of `perf stat -r $RUNS` pinned to one core,
# the two sides alternated $ROUNDS times (the table gives the median of
# the rounds' means and find/command, the median of their ratios).
#
#   cargo build --release -p lexq-cli && bash benches/find-parity.sh
#
# Knobs: LEXQ (binary), RUNS (20), ROUNDS (3), CORE (1), ONLY=WORD (the
# rows whose name starts with WORD). Needs perf (and rg for the rg rows).
set -euo pipefail
cd "$(dirname "$0")/.."
LEXQ=${LEXQ:-target/release/lexq}
RUNS=${RUNS:-20}
ROUNDS=${ROUNDS:-3}
CORE=${CORE:-1}
LIST=indexes/enable1.txt

# Mean task-clock in ms of `RUNS` runs of the command (words, no shell).
clock() {
    taskset -c "$CORE" perf stat -x, -e task-clock -r "$RUNS" "$@" 2>&1 >/dev/null |
        awk -F, '/task-clock/ { print $1 }'
}

# Rows: name; the reference's arguments; find's arguments (each split
# on spaces; quotes are not read, so no argument has a space). A
# reference starting with "rg " runs rg over the list.
ROWS=(
    "contains qu;contains qu;find --contains qu"
    "contains e;contains e;find --contains e"
    "starts qu;starts qu;find --starts qu"
    "starts e;starts e;find --starts e"
    "ends ing;ends ing;find --ends ing"
    "ends s;ends s;find --ends s"
    "pattern c?r*;pattern c?r*;find --pattern c?r*"
    "pattern *qu*z*;pattern *qu*z*;find --pattern *qu*z*"
    "pattern *e*;pattern *e*;find --pattern *e*"
    "regex .*q[^u].*;regex .*q[^u].*;find --regex .*q[^u].*"
    "regex (qu|x)iz+;regex (qu|x)iz+;find --regex (qu|x)iz+"
    "regex .*(qu|q[^u]).*;regex .*(qu|q[^u]).*;find --regex .*(qu|q[^u]).*"
    "regex .*(qu|qa).*;regex .*(qu|qa).*;find --regex .*(qu|qa).*"
    "regex .*(ab|cd|ef).*;regex .*(ab|cd|ef).*;find --regex .*(ab|cd|ef).*"
    "regex (re|un).*(ing|ed);regex (re|un).*(ing|ed);find --regex (re|un).*(ing|ed)"
    "regex .*(ing|ed|er);regex .*(ing|ed|er);find --regex .*(ing|ed|er)"
    "regex .*(ing|ed);regex .*(ing|ed);find --regex .*(ing|ed)"
    "regex .*e.*;regex .*e.*;find --regex .*e.*"
    "regex .*[xz].*;regex .*[xz].*;find --regex .*[xz].*"
    "regex .*a.*e.*;regex .*a.*e.*;find --regex .*a.*e.*"
    "regex [^aeiou]*;regex [^aeiou]*;find --regex [^aeiou]*"
    "regex .*s;regex .*s;find --regex .*s"
    "regex .{7};regex .{7};find --regex .{7}"
    "regex .*er.*;regex .*er.*;find --regex .*er.*"
    "regex .*[aeiou]{4}.*;regex .*[aeiou]{4}.*;find --regex .*[aeiou]{4}.*"
    "regex .*[^aeiouy]{5}.*;regex .*[^aeiouy]{5}.*;find --regex .*[^aeiouy]{5}.*"
    "regex .*[aeiou]{2}.*;regex .*[aeiou]{2}.*;find --regex .*[aeiou]{2}.*"
    "regex .*q[^u].* -l4;regex .*q[^u].* --len 4;find --regex .*q[^u].* --len 4"
    "anagram retains;anagram retains;find --anagram retains"
    "anagram re?ains;anagram re?ains;find --anagram re?ains"
    "anagram aeinrst?;anagram aeinrst?;find --anagram aeinrst?"
    "anagram ??aeinr;anagram ??aeinr;find --anagram ??aeinr"
    "anagram ret -t ain;anagram ret --through ain;find --anagram ret --through ain"
    "subanagram retains;subanagram retains;find --subanagram retains"
    "subanagram retain?;subanagram retain?;find --subanagram retain?"
    "subanagram ers -t ting;subanagram ers --through ting;find --subanagram ers --through ting"
    "rg .*e.*;rg -i -x .*e.* $LIST;find --regex .*e.*"
    "rg .*[aeiou]{2}.*;rg -i -x .*[aeiou]{2}.* $LIST;find --regex .*[aeiou]{2}.*"
    "rg .*[aeiou]{4}.*;rg -i -x .*[aeiou]{4}.* $LIST;find --regex .*[aeiou]{4}.*"
    "rg .*er.*;rg -i -x .*er.* $LIST;find --regex .*er.*"
    "rg .*(ing|ed|er);rg -i -x .*(ing|ed|er) $LIST;find --regex .*(ing|ed|er)"
    "rg .*(qu|qa).*;rg -i -x .*(qu|qa).* $LIST;find --regex .*(qu|qa).*"
    "rg .*a.*e.*;rg -i -x .*a.*e.* $LIST;find --regex .*a.*e.*"
    "rg [^aeiou]*;rg -i -x [^aeiou]* $LIST;find --regex [^aeiou]*"
    "rg .*s;rg -i -x .*s $LIST;find --regex .*s"
    "rg .{7};rg -i -x .{7} $LIST;find --regex .{7}"
    "combo qu+ing;find --contains qu;find --contains qu --ends ing"
    "combo e+len7;find --contains e;find --contains e --len 7"
    "combo ing+7+hook;find --ends ing;find --ends ing --len 7 --front-hook"
    "combo [aeiou]{4}+len8;find --regex .*[aeiou]{4}.*;find --regex .*[aeiou]{4}.* --len 8"
    "combo (ing|ed|er)+no-a;find --regex .*(ing|ed|er);find --regex .*(ing|ed|er) --not-includes a"
    "combo .*e.*+vowels-2;find --regex .*e.*;find --regex .*e.* --vowels -2"
    "combo un+able+v4;find --ends able;find --starts un --ends able --vowels -4"
    "combo retains+no-s;find --subanagram retains;find --subanagram retains --not-includes s"
)

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-28s %9s %9s %6s\n' row "ref ms" "find ms" ratio
for row in "${ROWS[@]}"; do
    IFS=';' read -r name ref find <<<"$row"
    [[ -z ${ONLY:-} || $name == "$ONLY"* ]] || continue
    read -ra refv <<<"$ref"
    read -ra findv <<<"$find"
    if [[ ${refv[0]} == rg ]]; then refc=("${refv[@]}"); else refc=("$LEXQ" "${refv[@]}" -c); fi
    findc=("$LEXQ" "${findv[@]}" -c)
    a=$("${refc[@]}" 2>/dev/null | tail -n1 || true)
    b=$("${findc[@]}" 2>/dev/null || true)
    [[ ${refv[0]} == rg ]] && a=$(rg "${refv[@]:1}" | wc -l)
    rs=() fs=() qs=()
    for ((k = 0; k < ROUNDS; k++)); do
        r=$(clock "${refc[@]}")
        f=$(clock "${findc[@]}")
        rs+=("$r") fs+=("$f") qs+=("$(awk -v f="$f" -v r="$r" 'BEGIN { printf "%.3f", f / r }')")
    done
    printf '%-28s %9.2f %9.2f %6.2f   (%s vs %s words)\n' "$name" \
        "$(printf '%s\n' "${rs[@]}" | median)" "$(printf '%s\n' "${fs[@]}" | median)" \
        "$(printf '%s\n' "${qs[@]}" | median)" "$a" "$b"
done
echo "task-clock ms, mean of $RUNS runs, median of $ROUNDS alternated rounds, pinned to core $CORE; ratio find/reference"
