#!/usr/bin/env python3
"""Searches typed on the 500 000 notes of issue 47 (Benchmarks/notes_tree.py), timed from outside.

    Benchmarks/notes.py --bin DIR --index INDEX [--plocate-db DB] [--repeats N]

Each query is run N times (default 5) as a process, as a terminal runs it: the exact name
(`note_42_7_5`, whole, `--limit 20`, `--names`), a word in every text (`alpha --count`), a word
in one (`zeppelin`), and words typed letter by letter with `--limit 20` (`a`, `al`, … `n`, `no`,
… `note_42_7_5`, `z`, … `zulu`), and second words typed after a first (`alpha z`, …
`alpha zulu`, `bravo d`, …, `zulu a`, …, `note 4`, `note 42`). Prints p50, p95 and max in milliseconds per query group, the
first result of each fixed query, and, with --plocate-db, `plocate -i -l 20` of the same typed
text on the same names. Nothing is asserted.
"""
import argparse
import os
import statistics
import subprocess
import time

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--bin", required=True)
parser.add_argument("--index", required=True)
parser.add_argument("--plocate-db")
parser.add_argument("--repeats", type=int, default=5)
arguments = parser.parse_args()
searchlight = os.path.join(arguments.bin, "searchlight")
environment = dict(os.environ, SEARCHLIGHT_INDEX=arguments.index)


def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, env=environment, capture_output=True, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr.strip()}")
    return elapsed, result.stdout


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def typed(word):
    return [word[:length] for length in range(1, len(word) + 1)]


fixed = [["note_42_7_5"], ["note_42_7_5", "--limit", "20"], ["note_42_7_5", "--names"],
         ["alpha", "--count"], ["zeppelin"], ["d70"]]
groups = {
    "typing alpha": typed("alpha"),
    "typing note_42_7_5": typed("note_42_7_5"),
    "typing zulu": typed("zulu"),
    # Two words, the second typed after the first: a word in every text, then one in half.
    "typing alpha zulu": typed("alpha zulu")[5:],
    "typing bravo delta": typed("bravo delta")[5:],
    "typing zulu alpha": typed("zulu alpha")[4:],
    "typing note 42": typed("note 42")[4:],
}

print(f"| search | first result | p50 ms | p95 ms | max ms |")
print(f"|---|---|--:|--:|--:|")
for arguments_ in fixed:
    times = []
    first = ""
    for _ in range(arguments.repeats):
        elapsed, output = timed([searchlight, "search", *arguments_])
        times.append(elapsed)
        first = (output.splitlines() or [""])[0]
    first = os.path.basename(first) if "/" in first else first
    print(f"| `{' '.join(arguments_)}` | {first} | {statistics.median(times):.0f} | {percentile(times, 0.95):.0f} | {max(times):.0f} |")

print()
print("| typed letter by letter (`--limit 20`) | queries | p50 ms | p95 ms | max ms |" +
      (" plocate -i p95 ms | ratio p95 |" if arguments.plocate_db else ""))
print("|---|--:|--:|--:|--:|" + ("--:|--:|" if arguments.plocate_db else ""))
every = []
for name, queries in groups.items():
    times = []
    floor = []
    for _ in range(arguments.repeats):
        for query in queries:
            times.append(timed([searchlight, "search", query, "--limit", "20"])[0])
            if arguments.plocate_db:
                floor.append(timed(["plocate", "-d", arguments.plocate_db, "-i", "-l", "20", query])[0])
    every += times
    line = f"| {name} | {len(queries)} | {statistics.median(times):.0f} | {percentile(times, 0.95):.0f} | {max(times):.0f} |"
    if floor:
        line += f" {percentile(floor, 0.95):.0f} | {percentile(times, 0.95) / percentile(floor, 0.95):.1f} |"
    print(line)
print(f"| every keystroke | {len(every) // arguments.repeats} | {statistics.median(every):.0f} | {percentile(every, 0.95):.0f} | {max(every):.0f} |")
