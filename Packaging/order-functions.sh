#!/usr/bin/env bash
# Writes Packaging/searchlight.order: the functions a `searchlight search` runs, most sampled
# first, which the release link of `searchlight` places together (gold's
# --section-ordering-file, in Package.swift). A search then touches fewer pages of its 100 MB
# executable at start-up (Benchmarks/README.md, "Start-up").
#
# Usage: Packaging/order-functions.sh BINARY INDEX [WORD...]
#   BINARY  a release `searchlight` (it need not be linked with an order: any build will do)
#   INDEX   an index to search, e.g. the one Benchmarks/run.sh made of /usr/share
#   WORD    searches to sample (default: searches that find nothing, one corrected and one too
#           short to correct, and a few common words)
#
# Needs `perf` (Debian's linux-perf). The order only places code: a function missing from it
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
cp "$binary" "$work/searchlight"
# The release executable maps Foundation's ICU data from its folder (Sources/CFoundationICUData).
ln -s "$(cd "$(dirname "$binary")" && pwd)/icudt76l.dat" "$work/icudt76l.dat"
for word in "${words[@]}"; do
    # shellcheck disable=SC2086 # a word may be several search words
    "$work/searchlight" search $word --index "$index" >/dev/null \
        || { echo "order-functions: searchlight search $word failed: nothing to sample" >&2; exit 1; }
done
{
    echo 'for round in $(seq 1 30); do'
    for word in "${words[@]}"; do
        # shellcheck disable=SC2086 # a word may be several search words
        printf '  "%s" search %s --index "%s" >/dev/null\n' "$work/searchlight" "$word" "$index"
        printf '  "%s" search %s --json --limit 5 --index "%s" >/dev/null\n' "$work/searchlight" "$word" "$index"
        printf '  "%s" search %s --count --index "%s" >/dev/null\n' "$work/searchlight" "$word" "$index"
    done
    echo 'done'
} > "$work/searches.sh"
perf record -q -F 25000 --call-graph dwarf,32768 -o "$work/perf.data" -- bash "$work/searches.sh" 2>/dev/null
# Every function of the executable seen on a sampled stack, most often seen first, as the
# section its code is in (-function-sections: `.text.` and the symbol).
perf script -i "$work/perf.data" --comm searchlight -F ip,sym,dso --no-demangle 2>/dev/null \
    | awk -v binary="$work/searchlight" '$3 == "(" binary ")" { sub(/\+0x[0-9a-f]+$/, "", $2); print $2 }' \
    | grep -v '^\[unknown\]$' | sort | uniq -c | sort -k1,1nr -k2 | awk '{ print ".text." $2 }' > "$order"
echo "$(wc -l < "$order") functions in $order"
