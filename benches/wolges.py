#!/usr/bin/env python3
"""The same-run comparison with wolges-bench; run by benches/wolges.sh,
which checks the set-up and builds the binaries first (see there).

Each round runs every measurement of lexq and of wolges-bench in turn (who
goes first alternates from round to round), each pinned to one core; a
ratio is lexq's time over wolges's in the same round, and the summary gives
the median ratio over the rounds with its range. Times are medians of
REPS passes over the positions after one warm-up pass, as wolges-bench
takes them.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

from wolges_env import SCRIPT, LEXQ, TIMING, ROUNDS, REPS, CORE, POSITIONS, WB, BUILDLEX, KWG, WORDS, PIN, run, keys


def timed(cmd, stdin_path=None):
    """Wall time of one process, in seconds."""
    f = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    t = time.perf_counter()
    r = subprocess.run(PIN + cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    e = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"{SCRIPT}: {' '.join(cmd)} failed:\n{r.stderr.decode(errors='replace')}")
    return e


def main():
    tmp = tempfile.mkdtemp(prefix="lexq-wolges.")
    lexicon = f"{tmp}/words.lexq"
    kwg_out = f"{tmp}/words.kwg"
    subprocess.run([LEXQ, "build", WORDS, "-o", lexicon], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)

    # The position sets: the whole file, then its racks by class.
    lines = [l for l in open(POSITIONS) if l.strip()]
    sets = [("all positions", POSITIONS, len(lines))]
    for c, name in [(0, "no blank"), (1, "one blank"), (2, "two blanks")]:
        sel = [l for l in lines if l.split()[1].split("/")[0].count("?") == c]
        if sel:
            path = f"{tmp}/class{c}.cgp"
            open(path, "w").writelines(sel)
            sets.append((name, path, len(sel)))

    # The move lists first: lexq's and wolges's, line for line.
    print(f"move lists ({POSITIONS}, both lexicons from {WORDS}): ", end="", flush=True)
    ours = subprocess.run([TIMING, "--print-moves", "-L", lexicon, POSITIONS],
                          stdout=subprocess.PIPE, check=True).stdout
    theirs = subprocess.run([WB, "moves", "--kwg", KWG, POSITIONS],
                            stdout=subprocess.PIPE, check=True).stdout
    if ours != theirs:
        a, b = ours.decode().splitlines(), theirs.decode().splitlines()
        k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        print("DIFFERENT")
        print(f"  first difference, line {k + 1}: lexq {a[k] if k < len(a) else None!r}, "
              f"wolges {b[k] if k < len(b) else None!r}")
        sys.exit(1)
    moves = sum(1 for l in ours.splitlines() if not l.startswith(b"#"))
    print(f"identical, {len(lines)} positions, {moves} moves")

    # For each row: per round, the ratio of the median passes and of the
    # fastest passes, and the two tools' median passes.
    rows = {}

    def note(what, lx, wg, unit):
        """lx, wg: (median, fastest) of one round."""
        r = rows.setdefault(what, {"med": [], "min": [], "lexq": [], "wolges": [], "unit": unit})
        r["med"].append(lx[0] / wg[0])
        r["min"].append(lx[1] / wg[1])
        r["lexq"].append(lx[0])
        r["wolges"].append(wg[0])

    def repeat(cmd, k, stdin_path=None):
        t = [timed(cmd, stdin_path) for _ in range(k)]
        return statistics.median(t), min(t)

    k = max(3, int(REPS))
    for r in range(ROUNDS):
        lexq_first = r % 2 == 1
        print(f"round {r + 1}/{ROUNDS} ({'lexq' if lexq_first else 'wolges'} first)", file=sys.stderr)
        for name, path, n in sets:
            for mode in ["all", "best"]:
                wcmd = [WB, "bench", "--kwg", KWG, "--mode", mode, "--reps", REPS, "--warmup", "1", path]
                lcmd = [TIMING, "--mode", mode, "--reps", REPS, "--warmup", "1", "-L", lexicon, path]
                if lexq_first:
                    lx = keys(run(lcmd))
                    wg = keys(run(wcmd))
                else:
                    wg = keys(run(wcmd))
                    lx = keys(run(lcmd))
                if lx["moves_per_pass"] != wg["moves_per_pass"]:
                    sys.exit(f"{SCRIPT}: {name} {mode}: lexq found {lx['moves_per_pass']} moves, "
                             f"wolges {wg['moves_per_pass']}")
                label = f"{'all moves' if mode == 'all' else 'best only'}, {name}"
                times = lambda kv: (float(kv["us_per_pos"]), float(kv["us_per_pos_min"]))
                note(label, times(lx), times(wg), "us/pos")
                if name == "all positions" and mode == "all":
                    wolges_all_pass = tuple(t * n / 1e3 for t in times(wg))
        # The batch CLI, process start to exit (k runs), against wolges's
        # in-process all-moves passes over the same file measured above.
        cli = repeat([LEXQ, "-L", lexicon, "moves", "--all", "--count"], k, POSITIONS)
        note("batch CLI moves --all --count / wolges all", tuple(t * 1e3 for t in cli),
             wolges_all_pass, "ms/file")
        # Building the same list, k times each, in turn.
        b1 = [LEXQ, "build", WORDS, "-o", lexicon + ".new"]
        b2 = [BUILDLEX, "english-kwg", WORDS, kwg_out]
        tl, tw = [], []
        for _ in range(k):
            if lexq_first:
                tl.append(timed(b1))
                tw.append(timed(b2))
            else:
                tw.append(timed(b2))
                tl.append(timed(b1))
        note(f"build time, {os.path.basename(WORDS)}",
             (statistics.median(tl) * 1e3, min(tl) * 1e3),
             (statistics.median(tw) * 1e3, min(tw) * 1e3), "ms")

    size_l, size_w = os.path.getsize(lexicon + ".new"), os.path.getsize(kwg_out)

    def fmt(v):
        return f"{statistics.median(v):.3f} ({min(v):.2f}-{max(v):.2f})"

    print()
    print(f"lexq / wolges, same run, one core (taskset -c {CORE}), {ROUNDS} rounds alternating, "
          f"{REPS} timed passes a measurement ({k} runs for the CLI and the build).")
    print("Ratios: the median over the rounds (range), of the median passes and of the fastest "
          "passes; then each tool's median pass (median over the rounds).")
    print(f"{'':44} {'median passes':>20} {'fastest passes':>20} {'lexq':>10} {'wolges':>10}")
    for what, r in rows.items():
        lx, wg = statistics.median(r["lexq"]), statistics.median(r["wolges"])
        print(f"{what:44} {fmt(r['med']):>20} {fmt(r['min']):>20} {lx:10.1f} {wg:10.1f} {r['unit']}")
    print(f"{'file size, ' + os.path.basename(WORDS):44} {size_l / size_w:>20.3f} {'':>20} "
          f"{size_l:>10} {size_w:>10} bytes")
    print("positions per set: " + ", ".join(f"{name} {n}" for name, _, n in sets))
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
