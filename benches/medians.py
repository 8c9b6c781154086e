#!/usr/bin/env python3
"""Prints criterion's median estimates (from target/criterion/**/new/estimates.json).

Usage: python3 benches/medians.py [TARGET_DIR] [PREFIX]
  TARGET_DIR defaults to $CARGO_TARGET_DIR or target; PREFIX filters ids
  (e.g. queries/ or build/).
"""
import json
import os
import sys
from pathlib import Path

target = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CARGO_TARGET_DIR", "target"))
prefix = sys.argv[2] if len(sys.argv) > 2 else ""
root = target / "criterion"


def human(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3f} {unit}"
    return f"{ns:.1f} ns"


rows = []
for est in sorted(root.glob("**/new/estimates.json")):
    bench = json.loads((est.parent / "benchmark.json").read_text())
    ident = bench.get("full_id") or str(est.parent.parent.relative_to(root))
    if not ident.startswith(prefix):
        continue
    m = json.loads(est.read_text())["median"]
    ci = m["confidence_interval"]
    rows.append((ident, m["point_estimate"], ci["lower_bound"], ci["upper_bound"]))
if not rows:
    sys.exit(f"no criterion results under {root}")
width = max(len(r[0]) for r in rows)
print(f"{'benchmark':<{width}}  {'median':>12}  95% CI")
for ident, med, lo, hi in rows:
    print(f"{ident:<{width}}  {human(med):>12}  [{human(lo)} .. {human(hi)}]")
