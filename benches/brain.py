"""lexq's endgame solver and simulation against wolges's, same run; run by
benches/brain.sh (see there for the knobs). Each round times both engines
on the same positions, one after the other (the order alternating by
round), pinned to one core, under the quiet protocol (/tmp/lexq-quiet
exists while a round runs, so that the other sessions on the machine start
no build; each round well under ten minutes)."""
import os
import subprocess
import sys

W = os.environ["W"]                       # target/wolges-brain
WB = f"{W}/target/release/wolges-brain"
BUILDLEX = f"{W}/target/release/buildlex"
KWG = f"{W}/lexicon.kwg"
LEXICON = f"{W}/words.lexq"
KLV = f"{W}/leaves.klv2"
LEXQ = os.environ.get("TIMING", "target/release/examples/brain_timing")
ENDGAMES = os.environ["ENDGAMES"]
MIDGAMES = os.environ["MIDGAMES"]
ROUNDS = int(os.environ.get("ROUNDS", "3"))
CORE = os.environ.get("CORE", "1")
CAP = os.environ.get("CAP", "20")          # seconds a position, either engine
MCNZ = os.environ.get("MCNZ", "2")         # wolges's endgame: two passes end it
CANDIDATES = os.environ.get("CANDIDATES", "10")
PLIES = os.environ.get("PLIES", "2")
ITERATIONS = os.environ.get("ITERATIONS", "50")
ONLY = os.environ.get("ONLY", "endgame,sim").split(",")
# MAGPIE (github.com/jvc56/MAGPIE), built by brain.sh with its data set
# up, or "" when it is not there.
MAGPIE = os.environ.get("MAGPIE", "")
# MAGPIE's word map, if brain.sh could make one.
WMP = "true" if MAGPIE and os.path.exists(f"{MAGPIE}/data/lexica/TWLENABLE.wmp") else "false"
# The endgame solvers timed against lexq's (magpie only if MAGPIE is set).
ENGINES = os.environ.get("ENGINES", "wolges,lexq,magpie").split(",")
if "lexq" not in ENGINES:
    ENGINES.append("lexq")
QUIET = "/tmp/lexq-quiet"
PIN = ["taskset", "-c", CORE]


def kv(line):
    return dict(p.split("=", 1) for p in line.split() if "=" in p and not p.startswith("["))


def run(cmd):
    r = subprocess.run(PIN + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


def wolges_endgame(n):
    """{idx: (value, us with the lexicon's pruning, us of the search alone)},
    and the positions the cap stopped."""
    out, capped, start = {}, [], 0
    while start < n:
        code, stdout, err = run([WB, "endgame", "--kwg", KWG, "--cap", CAP,
                                 "--start", str(start), ENDGAMES])
        last = start - 1
        for line in stdout.splitlines():
            d = kv(line)
            if "capped" in line.split():
                capped.append(int(d["idx"]))
                last = int(d["idx"])
            elif "value" in d:
                prune, solve = float(d["prune_us"]), float(d["solve_us"])
                out[int(d["idx"])] = (float(d["value"]), prune + solve, solve)
                last = int(d["idx"])
        if code not in (0, 3):
            sys.exit(f"brain.sh: wolges-brain endgame failed ({code}):\n{err}")
        if code == 0:
            break
        start = last + 1
    return out, capped


def lexq_endgame():
    code, stdout, err = run([LEXQ, "endgame", "-L", LEXICON, "--cap", CAP, "--mcnz", MCNZ, ENDGAMES])
    if code != 0:
        sys.exit(f"brain.sh: brain_timing endgame failed ({code}):\n{err}")
    out, capped, tiles = {}, [], {}
    for line in stdout.splitlines():
        d = kv(line)
        i = int(d["idx"])
        tiles[i] = d["tiles"]
        if d["exact"] == "true":
            out[i] = (float(d["value"]), float(d["us"]), int(d["nodes"]))
        else:
            capped.append(i)
    return out, capped, tiles


# MAGPIE's settings go on its command line: it runs that command before it
# reads its input, in the synchronous mode it sets (a first line of input
# could race its default asynchronous mode and be refused).


def magpie_endgame():
    """MAGPIE's endgame solver on the same positions, one synchronous
    session: `cgp`, `endgame` a position, one thread, -eplies 25 (deeper
    than any of these endgames), -etlim CAP, -ttfraction 0.005 (a table of
    0.5% of the memory, not its default quarter). {idx: (value, us)} of
    the positions it finished, and those it stopped."""
    settings = (f"set -savesettings false -mode sync -wmp {WMP} -lex TWLENABLE -leaves TWLENABLE "
                f"-threads 1 -eplies 25 -etlim {CAP} -ttfraction 0.005")
    script = []
    for line in open(ENDGAMES):
        if line.strip():
            script += ["cgp " + " ".join(line.split()[:4]), "endgame"]
    r = subprocess.run(PIN + ["./bin/magpie"] + settings.split(), cwd=MAGPIE, input="\n".join(script) + "\n",
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [l for l in r.stdout.splitlines() if "\u2503" not in l]
    out, capped, idx = {}, [], -1
    for k, line in enumerate(lines):
        if "(error" in line:
            sys.exit(f"brain.sh: magpie: {line.strip()}")
        if line.startswith("Endgame ("):
            idx += 1
            secs = float(line.split("time: ")[1].split("s")[0])
            status = line.split("status: ")[1].rstrip(")")
            depth = int(line.split("depth: ")[1].split(",")[0])
            header, best = lines[k + 1], lines[k + 2]
            value = int(best[header.index(" V ") + 1:].split()[0])
            # Stopped by -etlim, it still says "finished", at a lesser depth.
            if status == "finished" and depth >= 25:
                out[idx] = (float(value), secs * 1e6)
            else:
                capped.append(idx)
    return out, capped


def endgame_rounds():
    n = sum(1 for l in open(ENDGAMES) if l.strip())
    engines = [e for e in ENGINES if e != "magpie" or MAGPIE]
    print(f"## Endgames: {n} positions ({ENDGAMES}), bag empty; {', '.join(engines)} solve "
          f"to the end; cap {CAP} s a position; lexq with mcnz {MCNZ}")
    ratios = {e: [] for e in engines if e != "lexq"}
    last = None
    for r in range(ROUNDS):
        k = r % len(engines)
        order = engines[k:] + engines[:k]
        res = {}
        for who in order:
            # One quiet window an engine (each under ten minutes).
            open(QUIET, "w").close()
            try:
                res[who] = {"wolges": lambda: wolges_endgame(n), "lexq": lexq_endgame,
                            "magpie": magpie_endgame}[who]()
            finally:
                os.remove(QUIET)
        q, qcap, tiles = res["lexq"]
        print(f"round {r + 1} ({', '.join(order)}): lexq stopped by the cap at {len(qcap)} {qcap}")
        for e in ratios:
            o, ocap = res[e]
            both = sorted(set(o) & set(q))
            o_total = sum(o[i][1] for i in both) / 1e6
            q_total = sum(q[i][1] for i in both) / 1e6
            diff = [i for i in both if abs(o[i][0] - q[i][0]) >= 1e-6]
            ratios[e].append(q_total / o_total)
            extra = ""
            if e == "wolges":
                solve = sum(o[i][2] for i in both) / 1e6
                extra = f" (its search alone {solve:.2f} s: ratio {q_total / solve:.3f})"
            only_q, only_o = sorted(set(q) - set(o)), sorted(set(o) - set(q))
            print(f"  against {e}: both solved {len(both)}; lexq {q_total:.2f} s, {e} "
                  f"{o_total:.2f} s{extra}; lexq/{e} {q_total / o_total:.3f}; same value "
                  f"{len(both) - len(diff)} of {len(both)}; {e} stopped by the cap at {len(ocap)}; "
                  f"solved by lexq only {len(only_q)} (lexq {sum(q[i][1] for i in only_q) / 1e6:.2f} s), "
                  f"by {e} only {len(only_o)} ({e} {sum(o[i][1] for i in only_o) / 1e6:.2f} s)",
                  flush=True)
            if diff:
                print("    values differ at " + ", ".join(
                    f"{i} (lexq {q[i][0]:g}, {e} {o[i][0]:g})" for i in diff[:20]))
        last = res
    # By size (the last round): tiles on the mover's rack and the opponent's.
    q, _, tiles = last["lexq"]
    for e in ratios:
        o = last[e][0]
        by = {}
        for i in sorted(set(o) & set(q)):
            m, t = map(int, tiles[i].split("/"))
            k = "4-8 tiles" if m + t <= 8 else ("9-11 tiles" if m + t <= 11 else "12-14 tiles")
            v = by.setdefault(k, [0, 0.0, 0.0])
            v[0] += 1
            v[1] += q[i][1] / 1e6
            v[2] += o[i][1] / 1e6
        print(f"by tiles on both racks, against {e} (last round): " + "; ".join(
            f"{k}: {v[0]} positions, lexq {v[1]:.2f} s, {e} {v[2]:.2f} s, ratio {v[1] / v[2]:.3f}"
            for k, v in sorted(by.items())))
    for e, rs in ratios.items():
        rs.sort()
        print(f"endgame lexq/{e}, median of {len(rs)} rounds: {rs[len(rs) // 2]:.3f} "
              f"(rounds: {', '.join(f'{x:.3f}' for x in rs)})")


def magpie_sim():
    """MAGPIE's sim on the same positions: `cgp`, `gen`, `sim` a position in
    one synchronous session, round robin (-sr rr) with no stopping
    threshold, -minp ITERATIONS a candidate and -iterations CANDIDATES *
    ITERATIONS in all; its own `Iters:` and `Time:` summed."""
    n_plays, iters = int(CANDIDATES), int(ITERATIONS)
    settings = (f"set -savesettings false -mode sync -wmp {WMP} -lex TWLENABLE -leaves TWLENABLE "
                f"-threads 1 -numplays {n_plays} -plies {PLIES} -iterations {n_plays * iters} "
                f"-minp {iters} -sr rr -threshold none -seed 1")
    script = []
    for line in open(MIDGAMES):
        if line.strip():
            script += ["cgp " + " ".join(line.split()[:4]), "gen", "sim"]
    r = subprocess.run(PIN + ["./bin/magpie"] + settings.split(), cwd=MAGPIE, input="\n".join(script) + "\n",
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    rollouts, secs = 0, 0.0
    for line in r.stdout.splitlines():
        if "(error" in line:
            sys.exit(f"brain.sh: magpie: {line.strip()}")
        if "Iters:" in line:
            rollouts += int(line.split("Iters:")[1].split()[0])
        if "Time:" in line:
            secs += float(line.split("Time:")[1].split()[0])
    return {"rollouts": rollouts, "us": secs * 1e6, "rollouts_per_s": rollouts / secs}


def sim_rounds():
    n = sum(1 for l in open(MIDGAMES) if l.strip())
    common = ["--candidates", CANDIDATES, "--plies", PLIES, "--iterations", ITERATIONS]
    print(f"## Simulation: {n} positions ({MIDGAMES}), {CANDIDATES} candidates x "
          f"{ITERATIONS} iterations, {PLIES} plies after each candidate, no early stop, one thread")
    rows = []
    for r in range(ROUNDS):
        order = ["wolges", "lexq"] if r % 2 == 0 else ["lexq", "wolges"]
        if MAGPIE:
            order = [["wolges", "lexq", "magpie"], ["lexq", "magpie", "wolges"],
                     ["magpie", "wolges", "lexq"]][r % 3]
        res = {}
        open(QUIET, "w").close()
        try:
            for who in order:
                if who == "magpie":
                    res[who] = magpie_sim()
                    continue
                if who == "wolges":
                    cmd = [WB, "sim", "--kwg", KWG, "--klv", KLV] + common + [MIDGAMES]
                else:
                    cmd = [LEXQ, "sim", "-L", LEXICON, "--leaves", KLV] + common + [MIDGAMES]
                code, stdout, err = run(cmd)
                if code != 0:
                    sys.exit(f"brain.sh: {cmd[0]} sim failed ({code}):\n{err}")
                res[who] = kv(stdout.splitlines()[-1])
        finally:
            os.remove(QUIET)
        q, w = res["lexq"], res["wolges"]
        qr, wr = float(q["rollouts_per_s"]), float(w["rollouts_per_s"])
        mr = float(res["magpie"]["rollouts_per_s"]) if MAGPIE else None
        rows.append((qr, wr, mr))
        m = res.get("magpie")
        print(f"round {r + 1} ({', '.join(order)}): lexq {qr:.0f} rollouts/s ({q['rollouts']} in "
              f"{float(q['us']) / 1e6:.2f} s), wolges {wr:.0f} rollouts/s ({w['rollouts']} in "
              f"{float(w['us']) / 1e6:.2f} s)"
              + (f", MAGPIE {mr:.0f} rollouts/s ({m['rollouts']} in {m['us'] / 1e6:.2f} s)" if m else "")
              + f"; time ratio lexq/wolges {wr / qr:.3f}"
              + (f", lexq/MAGPIE {mr / qr:.3f}" if m else ""), flush=True)
    ratios = sorted(w / q for q, w, _ in rows)
    print(f"sim time lexq/wolges, median of {len(rows)} rounds: {ratios[len(ratios) // 2]:.3f} "
          f"(rounds: {', '.join(f'{x:.3f}' for x in ratios)})")
    if MAGPIE:
        ratios = sorted(m / q for q, _, m in rows)
        print(f"sim time lexq/MAGPIE, median of {len(rows)} rounds: {ratios[len(ratios) // 2]:.3f} "
              f"(rounds: {', '.join(f'{x:.3f}' for x in ratios)})")


if __name__ == "__main__":
    if "endgame" in ONLY:
        endgame_rounds()
    if "sim" in ONLY:
        sim_rounds()
