#!/usr/bin/env python3
"""Writes the small hand-made WordNet database under wordnet/ that the
site layer's fixture tests read (same file formats as WordNet 3.1: byte
offsets in data.*, licence header lines starting with two spaces).
Rerun after editing SYNSETS; the output is committed."""
import os

HEADER = [
    "  1 This software and database is being provided to you, the LICENSEE, by  ",
    "  2 Princeton University under the following license.  (Fixture excerpt.)  ",
    "  3 WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.  ",
]
# pos file -> list of (key, ss_type, [words], gloss, is_verb)
SYNSETS = {
    "noun": [
        ("care1", "n", ["care", "attention", "aid"], 'the work of providing treatment for or attending to someone or something; "no medical care was required"; "the old car needs constant attention"'),
        ("care2", "n", ["caution", "care"], 'judiciousness in avoiding harm or danger; "he handled the vase with care"'),
        ("goose", "n", ["goose"], "web-footed long-necked typically gregarious migratory aquatic birds"),
        ("aa1", "n", ["AA", "Alcoholics_Anonymous"], "an organization of alcoholics"),
        ("aa2", "n", ["aa"], "a dark rough lava"),
        ("cat", "n", ["cat", "true_cat"], 'feline mammal usually having thick soft fur; "the cat sat"'),
        ("box", "n", ["box"], "a (usually rectangular) container; may have a lid"),
        ("run", "n", ["run", "tally"], "a score in baseball made by a runner touching all four bases"),
    ],
    "verb": [
        ("care1", "v", ["care"], 'feel concern or interest; "I really care about my work"; "I don\'t care"'),
        ("care2", "v", ["care", "give_care"], "provide care for"),
        ("retain", "v", ["retain", "hold", "keep_back"], 'hold back within; "This soil retains water"'),
        ("run", "v", ["run"], "move fast by using one's feet"),
        ("box", "v", ["box"], "put into a box"),
    ],
    "adj": [
        ("good", "a", ["good"], 'having desirable or positive qualities; "a good report card"'),
        ("quick", "a", ["quick", "speedy"], 'accomplished rapidly; "a quick inspection"'),
        ("best", "a", ["best"], "having the most positive qualities"),
    ],
    "adv": [
        ("quick", "r", ["quick", "quickly"], "with little or no delay"),
    ],
}
EXC = {
    "noun": ["geese goose", "men man"],
    "verb": ["ran run"],
    "adj": ["best good", "better good well"],
    "adv": ["best well"],
}

os.makedirs("wordnet", exist_ok=True)
for pos, synsets in SYNSETS.items():
    lines = [h + "\n" for h in HEADER]
    offset = sum(len(l) for l in lines)
    offsets = {}
    for key, ss, words, gloss in synsets:
        # Offsets are 8 digits, so the line length does not depend on them.
        ws = " ".join(f"{w}(a) 0" if ss == "a" and w == "quick" else f"{w} 0" for w in words)
        frames = " 01 + 02 00" if ss == "v" else ""
        line = f"{offset:08d} 00 {ss} {len(words):02x} {ws} 000{frames} | {gloss}  \n"
        offsets[key] = offset
        lines.append(line)
        offset += len(line.encode())
    with open(f"wordnet/data.{pos}", "w") as f:
        f.writelines(lines)
    lemmas = {}
    for key, ss, words, gloss in synsets:
        for w in words:
            lemmas.setdefault(w.lower(), []).append(offsets[key])
    letter = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}[pos]
    with open(f"wordnet/index.{pos}", "w") as f:
        f.writelines(h + "\n" for h in HEADER)
        for lemma in sorted(lemmas):
            offs = lemmas[lemma]
            f.write(f"{lemma} {letter} {len(offs)} 1 @ {len(offs)} 0 " + " ".join(f"{o:08d}" for o in offs) + "  \n")
    with open(f"wordnet/{pos}.exc", "w") as f:
        f.writelines(l + "\n" for l in EXC[pos])
