"""What benches/wolges.py and benches/equity.py share: the knobs that
benches/wolges-setup.sh and its callers export, wolges-bench's binaries and
files, and running a command pinned to the chosen core."""
import os
import subprocess
import sys

W = os.environ["W"]
LEXQ = os.environ["LEXQ"]
TIMING = os.environ["TIMING"]
ROUNDS = int(os.environ.get("ROUNDS", "5"))
REPS = os.environ.get("REPS", "3")
CORE = os.environ.get("CORE", "1")
POSITIONS = os.environ.get("POSITIONS", "benches/heavy.cgp")
WB = f"{W}/target/release/wolges-bench"
BUILDLEX = f"{W}/target/release/buildlex"
KWG = f"{W}/lexicon.kwg"
WORDS = f"{W}/words.txt"
PIN = ["taskset", "-c", CORE]
# The script the user ran (equity.sh for equity.py), for messages.
SCRIPT = os.path.basename(sys.argv[0]).replace(".py", ".sh")


def run(cmd, stdin=None):
    """Standard output of `cmd`, pinned; exits with its error if it fails."""
    r = subprocess.run(PIN + cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.exit(f"{SCRIPT}: {' '.join(cmd)} failed:\n{r.stderr.decode(errors='replace')}")
    return r.stdout.decode()


def keys(out):
    """The `key=value` pairs of an output, by key (the last one wins)."""
    kv = {}
    for line in out.splitlines():
        for part in line.split():
            if "=" in part:
                k, _, v = part.partition("=")
                kv[k] = v
    return kv
