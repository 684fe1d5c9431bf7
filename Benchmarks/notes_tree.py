#!/usr/bin/env python3
"""Writes the 500 000-file tree of issue 47: 5 050 folders A/B (1 <= B <= A <= 100) of short
notes named note_A_B_C.txt (C from 1 to 99), each text holding `alpha` and 12 of 26 other
words, so that a word is in every text (`alpha`), in about half of them, or in none.

    Benchmarks/notes_tree.py DIR [--folders-per-side N]   (N = 100: 5 050 folders, 499 950 files)

Identical for a given N (seeded); modification times spread over a year, one per file.
"""
import os
import random
import sys

WORDS = ["bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo",
         "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
         "victor", "whiskey", "xray", "yankee", "zulu", "zeppelin"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    side = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--folders-per-side" else 100
    rng = random.Random(47)
    start = 1_700_000_000
    count = 0
    for a in range(1, side + 1):
        for b in range(1, a + 1):
            folder = os.path.join(root, str(a), str(b))
            os.makedirs(folder, exist_ok=True)
            for c in range(1, 100):
                # `zeppelin` in one file only.
                words = ["alpha"] + rng.sample(WORDS[:-1], 12)
                if (a, b, c) == (50, 25, 7):
                    words.append("zeppelin")
                path = os.path.join(folder, f"note_{a}_{b}_{c}.txt")
                with open(path, "w") as note:
                    note.write(f"Note {a}.{b}.{c}: " + " ".join(words) + "\n")
                stamp = start + rng.randrange(365 * 86400)
                os.utime(path, (stamp, stamp))
                count += 1
    print(f"{count} files in {side * (side + 1) // 2} folders under {root}")


if __name__ == "__main__":
    main()
