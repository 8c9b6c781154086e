#!/usr/bin/env python3
"""Writes a sorted list of N distinct pseudo-words (3 to 14 letters drawn
with English letter frequencies, seeded) to stdout: a stand-in for the
largest word lists, whose GADDAG shares far less than a real language's.

    python3 benches/big_list.py 5000000 > /tmp/big5m.txt

The 1.76 M-word list of the README's figures is `big_list.py 1760000`
(seed 20)."""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_760_000
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20
random.seed(seed)
freq = {'E': 12.7, 'T': 9.1, 'A': 8.2, 'O': 7.5, 'I': 7.0, 'N': 6.7, 'S': 6.3,
        'H': 6.1, 'R': 6.0, 'D': 4.3, 'L': 4.0, 'C': 2.8, 'U': 2.8, 'M': 2.4,
        'W': 2.4, 'F': 2.2, 'G': 2.0, 'Y': 2.0, 'P': 1.9, 'B': 1.5, 'V': 1.0,
        'K': 0.8, 'J': 0.15, 'X': 0.15, 'Q': 0.1, 'Z': 0.07}
letters = list(freq)
weights = [freq[c] for c in letters]
words = set()
while len(words) < n:
    k = random.randint(3, 14)
    words.add(''.join(random.choices(letters, weights, k=k)))
out = sys.stdout
for w in sorted(words):
    out.write(w + '\n')
