"""Picks benches/brain.sh's positions from `lexq selfplay` output (one CGP
line a position, both racks named):

    python3 benches/brain_positions.py SELFPLAY.cgp ENDGAMES.cgp MIDGAMES.cgp

- endgames: of game k, the (k mod 3)-th position whose bag is empty
  (every tile on the board or a rack): the first, the one after it or
  the one after that, for a mix of sizes; kept when no scoreless turn is
  behind it and each rack holds 2 to 7 tiles;
- midgames: of each game, the first position with 30 to 60 tiles in the
  bag (both racks full).

A game starts where the board is empty. English tile set (100 tiles)."""
import sys


def tiles_of(line):
    board, racks, scores, zeros = line.split()[:4]
    on_board = sum(1 for ch in board if ch.isalpha())
    mine, _, theirs = racks.partition("/")
    return on_board, len(mine), len(theirs), int(zeros)


def main():
    src, end_out, mid_out = sys.argv[1:4]
    games = []
    for line in open(src):
        line = line.strip()
        if not line:
            continue
        if line.startswith("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 "):
            games.append([])
        games[-1].append(line)
    ends, mids = [], []
    for k, g in enumerate(games):
        empty = [line for line in g if sum(tiles_of(line)[:3]) == 100]
        if len(empty) > k % 3:
            b, m, t, z = tiles_of(empty[k % 3])
            if z == 0 and 2 <= m <= 7 and 2 <= t <= 7:
                ends.append(empty[k % 3])
        for line in g:
            b, m, t, z = tiles_of(line)
            bag = 100 - b - m - t
            if 30 <= bag <= 60 and m == 7 and t == 7:
                mids.append(line)
                break
    with open(end_out, "w") as f:
        f.writelines(l + "\n" for l in ends)
    with open(mid_out, "w") as f:
        f.writelines(l + "\n" for l in mids)
    print(f"{len(games)} games: {len(ends)} endgames, {len(mids)} midgames")


main()
