#!/usr/bin/env python3
"""Picks benches/heavy.cgp from lexq self-play positions (CGP lines on stdin).

The heavier set the same-run comparison with wolges-bench is judged on
(benches/wolges.sh): real-game boards from greedy ENABLE self-play, in five
game phases, and racks in three classes by the blanks they hold.

  phase    tiles on the board
  opening  0 (the empty board)
  early    1 to 25
  middle   26 to 55
  late     56 or more, tiles left in the bag
  end      the bag empty (both racks known, at most 7 tiles)

  class    racks
  0        no blank (as drawn)
  1        one blank
  2        two blanks

Greedy self-play plays a blank as soon as it can, so it rarely holds one,
let alone two. A rack of class 1 or 2 is either as drawn or made from the
drawn rack by turning its last tiles into blanks, when that many blanks are
unseen (neither on the board nor on a rack): the tiles taken off go back to
the bag, so the position stays one a game could reach. When the bag is
empty every tile is seen, so end-phase racks with blanks are only as drawn.

Per class, each phase gets an equal share of the quota, picked at evenly
spaced indices among its candidates (no randomness: the same input gives
the same file); a phase with too few candidates leaves its share to the
others. Usage:
  lexq selfplay --games 400 --seed 1001 | python3 benches/heavy.py > benches/heavy.cgp
"""
import sys

QUOTA = {0: 150, 1: 100, 2: 50}
PHASES = ["opening", "early", "middle", "late", "end"]
TILES = 100  # the English tile set
BLANKS = 2


def phase(board_tiles, bag):
    if board_tiles == 0:
        return "opening"
    if bag <= 0:
        return "end"
    if board_tiles <= 25:
        return "early"
    if board_tiles <= 55:
        return "middle"
    return "late"


def evenly(items, k):
    """k items at evenly spaced indices (all of them if there are fewer)."""
    if k >= len(items):
        return list(items)
    return [items[(i * len(items)) // k] for i in range(k)]


def main():
    # (class, phase) -> candidate lines, in input order.
    cand = {(c, p): [] for c in QUOTA for p in PHASES}
    seen = set()
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        fields = line.split(" ")
        board, racks = fields[0], fields[1]
        if (board, racks) in seen:
            continue
        seen.add((board, racks))
        mine, _, theirs = racks.partition("/")
        board_tiles = sum(ch.isalpha() for ch in board)
        on_board_blanks = sum(ch.islower() for ch in board)
        # An empty opponent rack counts as full (as lexq and CGP read it).
        their_len = len(theirs) if theirs else 7
        bag = TILES - board_tiles - len(mine) - their_len
        ph = phase(board_tiles, bag)
        held = mine.count("?")
        unseen = BLANKS - on_board_blanks - held - theirs.count("?")
        for c in QUOTA:
            if held == c:
                cand[(c, ph)].append(line)
            elif held < c and unseen >= c - held and ph != "end":
                # Turn the last non-blank tiles into blanks.
                rack = list(mine)
                need = c - held
                for i in range(len(rack) - 1, -1, -1):
                    if need == 0:
                        break
                    if rack[i] != "?":
                        rack[i] = "?"
                        need -= 1
                if need == 0:
                    new = "".join(rack) + "/" + theirs
                    cand[(c, ph)].append(" ".join([board, new] + fields[2:]))
    out = []
    for c, quota in QUOTA.items():
        share = quota // len(PHASES)
        picked = []
        left = quota
        # Phases with fewer candidates than their share first, so that
        # what they cannot fill goes to the others.
        order = sorted(PHASES, key=lambda p: len(cand[(c, p)]))
        for i, p in enumerate(order):
            share = left // (len(order) - i)
            take = evenly(cand[(c, p)], share)
            picked.append((p, take))
            left -= len(take)
        counts = {p: len(t) for p, t in picked}
        print(f"class {c}: " + ", ".join(f"{p} {counts[p]}" for p in PHASES), file=sys.stderr)
        for p in PHASES:
            out.extend(dict(picked)[p])
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main()
