#!/usr/bin/env python3
"""Turns one run of Benchmarks/run.sh (a results folder) into a Markdown table.

    report.py Benchmarks/work/results/DATE

Medians come from hyperfine's JSON exports; ratios are searchlight's median over the reference
tool's median, compared with the targets of Docs/Contract.md#performance-targets.
"""

import glob
import json
import os
import sys

# Docs/Contract.md#performance-targets: (target ratio or absolute bound, how it is written)
FIRST_SCAN_TARGET = 0.6
RESCAN_TARGET = 2.0
SEARCH_TARGET = 3.0
PEAK_MEMORY_TARGET_MB = 150
INDEX_BYTES_TARGET = 400


def read_env(path):
    values = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            values[key] = value
    return values


def medians(path):
    """{command name: (median seconds, standard deviation)} from a hyperfine JSON export."""
    with open(path, encoding="utf-8") as f:
        results = json.load(f)["results"]
    return [(r["command"], r["median"], r.get("stddev") or 0.0) for r in results]


def seconds(value):
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 0.001:
        return f"{value * 1000:.1f} ms"
    return f"{value * 1e6:.0f} µs"


def spread(median, stddev):
    return f"{seconds(median)} ± {seconds(stddev)}" if stddev else seconds(median)


def number(value):
    return f"{value:,}".replace(",", " ")


def results(count):
    return f"{count} result" if count == "1" else f"{count} results"


def verdict(ok):
    return "met" if ok else "**not met**"


def tree_table(folder, run):
    tree = read_env(os.path.join(folder, "tree.env"))
    files = int(tree["files"])
    lines = []
    size_mb = int(tree["bytes"] or 0) / 1e6
    lines.append(f"### {tree['label']}")
    lines.append("")
    items = tree.get("items", "?")
    note = "" if items == str(files) else f" — **searchlight indexed {items} items, the file list has {files}**"
    lines.append(f"`{tree['root']}`: {number(files)} files in {number(int(tree['folders']))} folders, "
                 f"{size_mb:.0f} MB{note}.")
    lines.append("")
    lines.append("| measure | searchlight | reference | ratio | target | target |")
    lines.append("|---|---|---|--:|---|---|")

    (_, scan, scan_sd), (_, file_cmd, file_sd) = medians(os.path.join(folder, "first-scan.json"))
    ratio = scan / file_cmd
    lines.append(f"| first scan, no thumbnails, no content | {spread(scan, scan_sd)} ({number(round(files / scan))} files/s) "
                 f"| `file --mime-type -b -f LIST`: {spread(file_cmd, file_sd)} ({number(round(files / file_cmd))} files/s) "
                 f"| {ratio:.2f} | ≤ {FIRST_SCAN_TARGET} | {verdict(ratio <= FIRST_SCAN_TARGET)} |")

    (_, rescan, rescan_sd), (_, updatedb, updatedb_sd) = medians(os.path.join(folder, "rescan.json"))
    ratio = rescan / updatedb
    lines.append(f"| unchanged rescan | {spread(rescan, rescan_sd)} "
                 f"| `updatedb.plocate`: {spread(updatedb, updatedb_sd)} "
                 f"| {ratio:.2f} | ≤ {RESCAN_TARGET:g} | {verdict(ratio <= RESCAN_TARGET)} |")

    hits = {}
    words_file = os.path.join(folder, "search-words.txt")
    if os.path.exists(words_file):
        with open(words_file, encoding="utf-8") as f:
            for line in f:
                word, ours, theirs = line.split()
                hits[word] = (ours, theirs)
    for path in sorted(glob.glob(os.path.join(folder, "search-*.json")),
                       key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0])):
        (name, search, search_sd), (_, plocate, plocate_sd) = medians(path)
        word = name.split(" ", 2)[2]
        ours, theirs = hits.get(word, ("?", "?"))
        ratio = search / plocate
        lines.append(f"| search `{word}` ({results(ours)}) | {spread(search, search_sd)} "
                     f"| `plocate -i {word}` ({results(theirs)}): {spread(plocate, plocate_sd)} "
                     f"| {ratio:.2f} | ≤ {SEARCH_TARGET:g} | {verdict(ratio <= SEARCH_TARGET)} |")

    floor = os.path.join(folder, "floor.json")
    if os.path.exists(floor):
        # The floor under a search's start-up (Benchmarks/StartupFloor): each step a search
        # takes before it reads a word, against plocate finding nothing.
        *steps, (plocate_name, plocate, plocate_sd) = medians(floor)
        what = {
            "startup-floor exit": "start-up floor: a static Swift program linking `searchlight`'s libraries, exiting",
            "startup-floor sqlite": "… opening the index through SQLite's C API (`SQLiteReader`: the tokenizer registered, the open's two statements)",
            "startup-floor grdb": "… opening it through GRDB instead, configured as a read-only index",
            "startup-floor searchable": "… opening it as `searchlight search` does (`SearchableIndex`: its `SQLiteReader` and the schema check; GRDB only at a first read that needs it)",
        }
        for name, step, step_sd in steps:
            lines.append(f"| {what.get(name, name)} | {spread(step, step_sd)} "
                         f"| `{plocate_name}` (no result): {spread(plocate, plocate_sd)} "
                         f"| {step / plocate:.2f} | (what any search costs first) | |")

    scan_mb = int(tree["scan_rss_kb"]) / 1024
    file_mb = int(tree["file_rss_kb"]) / 1024 if tree.get("file_rss_kb", "").isdigit() else float("nan")
    lines.append(f"| peak memory (RSS) of a first scan | {scan_mb:.1f} MB | `file`: {file_mb:.1f} MB | "
                 f"| ≤ {PEAK_MEMORY_TARGET_MB} MB at 1 M files | {verdict(scan_mb <= PEAK_MEMORY_TARGET_MB)} |")

    agreement = os.path.join(folder, "agreement.env")
    if os.path.exists(agreement):
        checked = read_env(agreement)
        n = int(checked["checked"])
        lines.append(f"| same answer as libmagic in `file` (every k-th file, {number(n)} files) "
                     f"| types {checked['types_agree']}/{n}, descriptions {checked['descriptions_agree']}/{n} "
                     f"| `file --mime-type -b`, `file -b` | | all | "
                     f"{verdict(int(checked['types_agree']) == n and int(checked['descriptions_agree']) == n)} |")
        if int(checked.get("on_purpose", "0")) > 0:
            lines.append(f"| typed otherwise on purpose (libmagic's weak guess overruled by name and bytes, "
                         f"listed in agreement.txt) | {checked['on_purpose']} files | | | | |")

    index_bytes = int(tree["index_bytes"])
    per_file = index_bytes / files
    db_per_file = int(tree["plocate_db_bytes"]) / files
    lines.append(f"| index size, no thumbnails, no content | {per_file:.0f} B/file ({index_bytes / 1e6:.1f} MB) "
                 f"| plocate database: {db_per_file:.0f} B/file | "
                 f"| ≤ {INDEX_BYTES_TARGET} B/file | {verdict(per_file <= INDEX_BYTES_TARGET)} |")
    lines.append("")
    return lines


def memory_growth(folders):
    """Peak memory of the generated trees side by side: it must not grow with the tree."""
    generated = []
    for folder in folders:
        tree = read_env(os.path.join(folder, "tree.env"))
        if tree["label"].startswith("generated tree"):
            generated.append((int(tree["files"]), int(tree["scan_rss_kb"]) / 1024))
    if len(generated) < 2:
        return []
    generated.sort()
    (small_files, small_mb), (large_files, large_mb) = generated[0], generated[-1]
    growth = large_mb / small_mb
    return [
        "### Peak memory as the tree grows",
        "",
        "| measure | smaller tree | larger tree | growth | target | target |",
        "|---|---|---|--:|---|---|",
        f"| peak RSS of a first scan | {number(small_files)} files: {small_mb:.1f} MB "
        f"| {number(large_files)} files: {large_mb:.1f} MB | {growth:.2f}× "
        f"| ≤ {PEAK_MEMORY_TARGET_MB} MB, flat | {verdict(large_mb <= PEAK_MEMORY_TARGET_MB and growth <= 1.25)} |",
        "",
    ]


def section(results, name, title):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [f"### {title}", "", f.read().rstrip("\n"), ""]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: report.py RESULTS_FOLDER")
    results = sys.argv[1]
    run = read_env(os.path.join(results, "run.env"))
    out = [
        f"Measured {run['date']} at commit `{run['commit']}` on {run['os']}, {run['cpu']}, {run['memory']} RAM.",
        f"{run['tools']}. Medians of {run['runs']} runs ({run['search_runs']} for searches, after 3 warm-up runs; rescans after the run that made the index;"
        " scans after one read of every file), warm page cache; ± is the standard deviation."
        " Ratio = searchlight / reference. Peak memory: the largest of the timed runs.",
        "",
    ]
    folders = sorted(glob.glob(os.path.join(results, "tree*")), key=lambda p: int(p.rsplit("tree", 1)[1]))
    for folder in folders:
        out += tree_table(folder, run)
    out += memory_growth(folders)
    out += section(results, "thumbnails.md", "Thumbnails (`Benchmarks/thumbnails.sh`)")
    out += section(results, "watch.md", "`watch` (`Benchmarks/watch.sh`)")
    out += section(results, "in-process.md", "In process, 1 000 000 items (`query-bench`)")
    print("\n".join(out))


if __name__ == "__main__":
    main()
