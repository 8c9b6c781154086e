#!/usr/bin/env python3
"""A synthetic English leave table of our own, for timing equity searches
(benches/equity.sh): every leave of 1 to 6 tiles the English set can hold
(914,624 leaves; the blank as `?`), valued by a simple made-up formula,
not estimated from play: a value per tile, a cost for each repeated tile,
a cost for an unbalanced mix of vowels and consonants, Q without U, and a
little deterministic noise. The values are plausible in size and spread
(a blank about +25, a Q about -7), which is what a search's bounds see;
they are not a good table to play with (`lexq leaves` makes one).

    python3 benches/leave_table.py > leaves.csv
"""
import sys

COUNTS = dict(zip("?ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                  [2, 9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1]))
BASE = {"?": 24.0, "S": 8.0, "Z": 4.0, "X": 3.5, "E": 1.5, "R": 1.2, "H": 1.0, "A": 0.8,
        "N": 0.5, "C": 0.5, "M": 0.5, "T": 0.3, "D": 0.3, "L": 0.2, "I": -0.2, "P": -0.2,
        "O": -0.5, "K": -0.5, "Y": -0.5, "G": -1.5, "B": -2.0, "F": -2.0, "J": -2.0,
        "W": -3.0, "U": -3.0, "V": -5.0, "Q": -7.0}
VOWELS = set("AEIOU")


def value(leave):
    v = sum(BASE[t] for t in leave)
    for t in set(leave):
        extra = leave.count(t) - 1
        v -= sum(2.5 + 1.5 * k for k in range(extra)) if t != "?" else 4.0 * extra
    vowels = sum(1 for t in leave if t in VOWELS)
    cons = sum(1 for t in leave if t not in VOWELS and t != "?")
    v -= 1.5 * abs(vowels - 0.8 * cons) if len(leave) > 1 else 0.0
    if "Q" in leave:
        v += 3.0 if "U" in leave else -2.0
    h = 0
    for ch in leave:
        h = (h * 131 + ord(ch)) % 1000003
    v += (h % 201 - 100) / 100.0
    return round(v * 8) / 8  # eighths: exact in f32, so KLV2 and CSV agree


def leaves(prefix, start, room, out):
    tiles = list(COUNTS)
    for i in range(start, len(tiles)):
        t = tiles[i]
        for k in range(1, min(COUNTS[t], room) + 1):
            leave = prefix + t * k
            out.write(f"{leave},{value(leave)}\n")
            if room > k:
                leaves(leave, i + 1, room - k, out)


if __name__ == "__main__":
    leaves("", 0, 6, sys.stdout)
