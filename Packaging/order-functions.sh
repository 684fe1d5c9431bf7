#!/usr/bin/env bash
# Writes Packaging/searchlight.order: every function of the executable that a `searchlight
# search` runs, which the release link of `searchlight` places together (gold's
# --section-ordering-file, in Package.swift). A search then touches fewer pages of its 33 MB
# executable at start-up (Benchmarks/README.md, "Start-up").
#
# Usage: Packaging/order-functions.sh BINARY INDEX [WORD...]
#   BINARY  a release `searchlight` with its symbols (it need not be linked with an order: any
#           build will do), Foundation's ICU data beside it (icudt76l.dat)
#   INDEX   an index to search, e.g. the one Benchmarks/run.sh made of /usr/share; several,
#           separated by commas (an SQLite file and a postgres:// URL: `searchlight` opens both)
#   WORD    searches to trace (default: searches that find nothing, one corrected and one too
#           short to correct, and a few common words)
#
# Needs Valgrind (Debian's valgrind): callgrind counts every function that runs, where sampling
# (perf) missed the many that run once for a few microseconds, and each of those cost a page
# fault (the order made from samples left 70 of a search's 106 faults on code scattered over
# the whole executable). The functions run by every traced search come first, then the others,
# each group most instructions first. The order only places code: a function missing from it
# (new, or renamed since) is linked where it would be anyway, so a stale file costs speed,
# never correctness. Run it again after large changes to the search path.
set -euo pipefail
binary=$1 index=$2
shift 2
words=("$@")
[ ${#words[@]} -gt 0 ] || words=(zz-nothing xylophone zqx readme icon "report 2024" doc)
order="$(cd "$(dirname "$0")" && pwd)/searchlight.order"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read the debug information of a Swift executable this size ("possibly
# corrupted debuginfo"): the copy keeps its symbol table only.
strip --strip-debug -o "$work/searchlight" "$binary"
# The release executable maps Foundation's ICU data from its folder (Sources/CShimFoundationICUData).
ln -s "$(cd "$(dirname "$binary")" && pwd)/icudt76l.dat" "$work/icudt76l.dat"
run=0
IFS=, read -r -a indexes <<<"$index"
for index in "${indexes[@]}"; do
for word in "${words[@]}"; do
    for form in "" "--json --limit 5" "--count"; do
        run=$((run + 1))
        # shellcheck disable=SC2086 # a word may be several search words, a form several options
        valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/run-$run.out" \
            "$work/searchlight" search $word $form --index "$index" >/dev/null 2>"$work/run-$run.log" \
            || { cat "$work/run-$run.log" >&2; echo "order-functions: searchlight search $word $form failed" >&2; exit 1; }
    done
done
done
# Each run's functions of the executable (callgrind names an object and a function once in
# full, then by number), with their instructions; then the order, as the sections their code
# is in (-function-sections: `.text.` and the symbol).
python3 - "$work/searchlight" "$work"/run-*.out > "$order" <<'PYTHON'
import re, sys
binary, outputs = sys.argv[1], sys.argv[2:]
runs, cost = {}, {}
for output in outputs:
    objects, functions, seen = {}, {}, set()
    current_object = current_function = None
    after_call = False
    for line in open(output, errors="replace"):
        # A name in full the first time (on an ob=, fn=, cob= or cfn= line), by number after.
        match = re.match(r"(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if match:
            callee, kind, number, name = match.groups()
            table = objects if kind == "ob" else functions
            if name is not None:
                table[number] = name
            if not callee and kind == "ob":
                current_object = table.get(number)
            elif not callee:
                current_function = table.get(number)
            continue
        if line.startswith("calls="):
            after_call = True  # the next line is the call's inclusive cost, not the caller's own
            continue
        if line[:1].isdigit() or line[:1] in "+-*":
            if not after_call and current_object == binary and current_function:
                fields = line.split()
                if len(fields) >= 2:
                    # Callgrind tells recursion levels apart as name'2, name'3…: one function.
                    function = re.sub(r"'\d+$", "", current_function)
                    cost[function] = cost.get(function, 0) + int(fields[1])
                    seen.add(function)
            after_call = False
    for function in seen:
        runs[function] = runs.get(function, 0) + 1
for function in sorted(runs, key=lambda name: (-runs[name], -cost[name], name)):
    if not function.startswith("0x"):
        print(".text." + function)
PYTHON
echo "$(wc -l < "$order") functions in $order"
