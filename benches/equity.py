#!/usr/bin/env python3
"""Equity search against raw-score search and against wolges-bench's
`--mode best --klv`, same run; run by benches/equity.sh (see there).

First the picks: lexq's best move by equity for every position (with the
KLV2 and with the CSV it was made from: the same), and wolges's, one
position a process (wolges-bench prints only the sum of its picks'
equities), compared on the positions where wolges's adjustments do not
apply: a board with tiles on it and tiles in the bag (wolges counts the
bag as the set less the board and two full racks, as lexq does for a CGP
that leaves the opponent's rack empty). Then ROUNDS rounds, each timing
lexq by score, lexq by equity, wolges by score and wolges by equity (who
goes first alternates), every process pinned to one core; a ratio is
taken within a round, and the summary gives the median over the rounds
and the range.
"""
import os
import statistics
import subprocess
import sys
import tempfile

from wolges_env import LEXQ, TIMING, ROUNDS, REPS, CORE, POSITIONS, WB, BUILDLEX, KWG, WORDS, run, keys

LEAVES = os.environ.get("LEAVES")


def main():
    tmp = tempfile.mkdtemp(prefix="lexq-equity.")
    lexicon = f"{tmp}/words.lexq"
    subprocess.run([LEXQ, "build", WORDS, "-o", lexicon], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    csv = LEAVES
    if csv is None:
        csv = f"{tmp}/leaves.csv"
        with open(csv, "w") as f:
            subprocess.run([sys.executable, "benches/leave_table.py"], stdout=f, check=True)
    klv = f"{tmp}/leaves.klv2"
    subprocess.run([BUILDLEX, "english-klv2", csv, klv], check=True, stdout=subprocess.DEVNULL)
    n_leaves = sum(1 for l in open(csv) if l.strip() and not l.startswith("#"))
    print(f"leave table: {LEAVES or 'benches/leave_table.py (synthetic)'}, {n_leaves} leaves; "
          f"KLV2 by buildlex english-klv2, {os.path.getsize(klv)} bytes")

    lines = [l for l in open(POSITIONS) if l.strip()]
    sets = [("all positions", POSITIONS, len(lines))]
    for c, name in [(0, "no blank"), (1, "one blank"), (2, "two blanks")]:
        sel = [l for l in lines if l.split()[1].split("/")[0].count("?") == c]
        if sel:
            path = f"{tmp}/class{c}.cgp"
            open(path, "w").writelines(sel)
            sets.append((name, path, len(sel)))

    # The picks.
    base = [TIMING, "--print-best", "-L", lexicon]
    ours = run(base + ["--leaves", klv, POSITIONS]).splitlines()
    if run(base + ["--leaves", csv, POSITIONS]).splitlines() != ours:
        sys.exit("equity.sh: lexq's picks differ between the CSV and the KLV2 made from it")
    same, eligible, diffs = 0, 0, []
    for idx, line in enumerate(lines):
        board = line.split()[0]
        on_board = sum(1 for ch in board if ch.isalpha())
        _, bag, score, equity, gcg = ours[idx].split(" ", 4)
        if on_board == 0 or int(bag) <= 0:
            continue
        one = f"{tmp}/one.cgp"
        open(one, "w").write(line)
        kv = keys(run([WB, "bench", "--kwg", KWG, "--mode", "best", "--reps", "1",
                       "--warmup", "0", "--klv", klv, one]))
        theirs = round(float(kv["best_equity_sum"]) * 1000)
        eligible += 1
        if equity != "-" and int(equity) == theirs:
            same += 1
        else:
            diffs.append(f"{idx}: lexq {gcg} {equity}, wolges {theirs}")
    print(f"picks of the same equity, boards with tiles and bags with tiles: {same} of {eligible}")
    for d in diffs[:10]:
        print("  " + d)

    rows = {}

    def note(what, a, b):
        r = rows.setdefault(what, [])
        r.append(a / b)

    times = {}
    for r in range(ROUNDS):
        lexq_first = r % 2 == 0
        print(f"round {r + 1}/{ROUNDS} ({'lexq' if lexq_first else 'wolges'} first)", file=sys.stderr)
        for name, path, n in sets:
            common = ["--mode", "best", "--reps", REPS, "--warmup", "1"]
            cmds = {
                "lexq score": [TIMING] + common + ["-L", lexicon, path],
                "lexq equity": [TIMING] + common + ["-L", lexicon, "--leaves", klv, path],
                "wolges score": [WB, "bench", "--kwg", KWG] + common + [path],
                "wolges equity": [WB, "bench", "--kwg", KWG] + common + ["--klv", klv, path],
            }
            order = list(cmds) if lexq_first else list(reversed(cmds))
            t = {k: float(keys(run(cmds[k]))["us_per_pos"]) for k in order}
            for k, v in t.items():
                times.setdefault((name, k), []).append(v)
            note(f"lexq equity / wolges equity, {name}", t["lexq equity"], t["wolges equity"])
            note(f"lexq equity / lexq score, {name}", t["lexq equity"], t["lexq score"])
            note(f"wolges equity / wolges score, {name}", t["wolges equity"], t["wolges score"])
            note(f"lexq score / wolges score, {name}", t["lexq score"], t["wolges score"])

    def fmt(v):
        return f"{statistics.median(v):.3f} ({min(v):.2f}-{max(v):.2f})"

    print()
    print(f"same run, one core (taskset -c {CORE}), {ROUNDS} rounds alternating, median of {REPS} "
          f"timed passes a measurement; ratio: median over the rounds (range)")
    for what, v in rows.items():
        print(f"{what:48} {fmt(v):>20}")
    print("median us per position:")
    for name, _, n in sets:
        parts = ", ".join(f"{k} {statistics.median(times[(name, k)]):.1f}"
                          for k in ["lexq score", "lexq equity", "wolges score", "wolges equity"])
        print(f"  {name} ({n}): {parts}")
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
