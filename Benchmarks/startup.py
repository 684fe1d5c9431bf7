#!/usr/bin/env python3
"""Start-up of `searchlight search` against `plocate`, commands interleaved.

Usage: startup.py [--runs N] [--warmup N] INDEX PLOCATE_DB LABEL=BINARY[@INDEX]... -- WORD...

A binary given as BINARY@INDEX searches that index instead (the same files in another form:
another journal mode, page size or layout).

Each round runs every command once, in turn (plocate, then each binary), so that a change in
the machine's load touches all of them alike. Each run is started with posix_spawn and
reaped with wait4, which gives its CPU time (user + system) and minor page faults; the table
gives the medians, the wall-clock median, and each binary's ratio to plocate.

`plocate` is run from a copy without its setgid bit (`/tmp/plocate-nosgid`, made here),
as the other rows of Benchmarks/README.md's "Start-up" were. Every output is compared to
the first binary's: a binary that answers differently is reported, not timed silently.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time


def spawn(argv):
    """Runs argv with its output to /dev/null; returns (wall s, cpu s, minor faults, status)."""
    null = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    started = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - started
    os.close(null)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_minflt, os.waitstatus_to_exitcode(status)


def main():
    args = sys.argv[1:]
    runs, warmup = 60, 5
    while args and args[0].startswith("--"):
        option = args.pop(0)
        if option == "--runs":
            runs = int(args.pop(0))
        elif option == "--warmup":
            warmup = int(args.pop(0))
        else:
            sys.exit(f"unknown option {option}")
    if "--" not in args or len(args) < 4:
        sys.exit(__doc__)
    split = args.index("--")
    index, database, binaries, words = args[0], args[1], args[2:split], args[split + 1:]
    plocate = "/tmp/plocate-nosgid"
    if not os.path.exists(plocate):
        shutil.copy(shutil.which("plocate"), plocate)
        os.chmod(plocate, 0o755)
    commands = []
    for word in words:
        commands.append(("plocate", word, [plocate, "-i", "-d", database, word]))
        for labelled in binaries:
            label, binary = labelled.split("=", 1)
            binary, _, own = binary.partition("@")
            commands.append((label, word, [binary, "search", word, "--index", own or index]))
    first = {}
    for label, word, argv in commands:
        if label == "plocate":
            continue
        output = subprocess.run(argv, capture_output=True).stdout
        if word in first and first[word] != output:
            print(f"warning: {label} answers `{word}` differently from the first binary", file=sys.stderr)
        first.setdefault(word, output)
    samples = {(label, word): [] for label, word, _ in commands}
    for round_number in range(warmup + runs):
        for label, word, argv in commands:
            result = spawn(argv)
            if round_number >= warmup:
                samples[(label, word)].append(result)
    print(f"{runs} interleaved runs each after {warmup} warm-up rounds; medians; load average "
          f"{os.getloadavg()[0]:.2f} at the end\n")
    print("| command | wall | CPU (user + system) | minor faults | CPU ratio to plocate |")
    print("|---|--:|--:|--:|--:|")
    for word in words:
        reference = statistics.median(s[1] for s in samples[("plocate", word)])
        for label, sample_word, _ in commands:
            if sample_word != word:
                continue
            results = samples[(label, word)]
            wall = statistics.median(r[0] for r in results)
            cpu = statistics.median(r[1] for r in results)
            faults = statistics.median(r[2] for r in results)
            ratio = "" if label == "plocate" else f"{cpu / reference:.2f}"
            print(f"| `{label}` `{word}` | {wall * 1000:.2f} ms | {cpu * 1000:.2f} ms | {faults:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
