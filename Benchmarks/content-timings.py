#!/usr/bin/env python3
"""Sums up the timings file of `searchlight scan --timings FILE` (one line per decoded file:
kind, format, CPU ms, wall ms, bytes of text, outcome, path, tab-separated): CPU and wall time
per format, and the slowest files.

Usage: Benchmarks/content-timings.py FILE [--top N]
"""
import sys
from collections import defaultdict


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    path, top = argv[1], 15
    if "--top" in argv:
        top = int(argv[argv.index("--top") + 1])
    rows = []
    with open(path, encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            fields = line.rstrip("\n").split("\t", 6)
            if len(fields) != 7:
                print(f"{path}:{number}: expected 7 tab-separated fields", file=sys.stderr)
                return 65
            kind, form, cpu, wall, text, outcome, name = fields
            rows.append((kind, form, float(cpu), float(wall), int(text), outcome, name))
    if not rows:
        print(f"{path}: no timings", file=sys.stderr)
        return 65
    groups = defaultdict(lambda: [0, 0.0, 0.0, 0, 0])
    for kind, form, cpu, wall, text, outcome, _ in rows:
        group = groups[f"{kind} {form}"]
        group[0] += 1
        group[1] += cpu
        group[2] += wall
        group[3] += text
        group[4] += outcome != "ok"
    total_cpu = sum(row[2] for row in rows)
    print(f"{len(rows)} files, {total_cpu / 1000:.2f} s of worker CPU, {sum(r[3] for r in rows) / 1000:.2f} s of wall clock in the workers")
    print()
    print("| kind and format | files | CPU s | share | wall s | text MB | failed |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for name, (count, cpu, wall, text, failed) in sorted(groups.items(), key=lambda item: -item[1][1]):
        print(f"| {name} | {count} | {cpu / 1000:.2f} | {100 * cpu / max(total_cpu, 1e-9):.0f} % | {wall / 1000:.2f} | {text / 1e6:.2f} | {failed} |")
    print()
    print(f"The {top} files that cost the most CPU:")
    print()
    print("| CPU ms | wall ms | format | text bytes | outcome | file |")
    print("|--:|--:|---|--:|---|---|")
    for kind, form, cpu, wall, text, outcome, name in sorted(rows, key=lambda row: -row[2])[:top]:
        print(f"| {cpu:.1f} | {wall:.1f} | {form} | {text} | {outcome} | {name} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
