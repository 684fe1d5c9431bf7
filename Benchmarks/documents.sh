#!/usr/bin/env bash
# PDF text extraction: Searchlight's workers (ExtractorPool, as a scan uses them) and the
# same extraction in process, side by side with `pdftotext FILE -` run by `xargs -P N` with
# the same number of processes, on the same PDFs, page cache warm.
#
# Usage: Benchmarks/documents.sh [--workers N] [--pdfs N] [--runs N] [--markdown FILE] [DIR...]
#   Without DIR, generates (once, under Benchmarks/work/) N five-page PDFs of text and
#   vector shapes (Benchmarks/make-pdfs.py). --runs N reports medians of N runs.
# Needs: poppler-utils (pdftotext), /usr/bin/time (GNU), python3, bc. Builds document-bench
# and searchlight-extractor in release.
set -euo pipefail
cd "$(dirname "$0")/.."

workers=2 pdfs=200 runs=1 markdown="" dirs=()
while (($#)); do
    case "$1" in
        --workers) workers=$2; shift 2 ;;
        --pdfs) pdfs=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --markdown) markdown=$2; shift 2 ;;
        *) dirs+=("$1"); shift ;;
    esac
done

work=Benchmarks/work/documents
mkdir -p "$work"
if ((${#dirs[@]} == 0)); then
    if [ ! -f "$work/pdfs/.complete-$pdfs" ]; then
        echo "generating $pdfs PDFs in $work/pdfs" >&2
        rm -rf "$work/pdfs" && mkdir -p "$work/pdfs"
        python3 Benchmarks/make-pdfs.py "$work/pdfs" "$pdfs"
        touch "$work/pdfs/.complete-$pdfs"
    fi
    dirs=("$work/pdfs")
fi

swift build -c release --static-swift-stdlib --product document-bench >&2
swift build -c release --static-swift-stdlib --product searchlight-extractor >&2
Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
bin=$(swift build -c release --show-bin-path)
export SEARCHLIGHT_EXTRACTOR="$bin/searchlight-extractor"

median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
peak_mib() { echo "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$1") / 1024" | bc -l; }
now() { date +%s.%N; }
rows=()

for dir in "${dirs[@]}"; do
    count=$(find "$dir" -maxdepth 1 -type f -name '*.pdf' | wc -l)
    name=$(basename "$dir")
    cat "$dir"/*.pdf > /dev/null
    pool_times=() local_times=() reference_times=()
    for ((run = 0; run < runs; run++)); do
        # Wall time of each whole command: start-up and worker spawning included.
        start=$(now)
        /usr/bin/time -v -o "$work/time-pool" "$bin/document-bench" "$dir" --workers "$workers" > "$work/bench-pool"
        pool_times+=("$(echo "$(now) - $start" | bc -l)")
        start=$(now)
        /usr/bin/time -v -o "$work/time-local" "$bin/document-bench" "$dir" --workers "$workers" --in-process > "$work/bench-local"
        local_times+=("$(echo "$(now) - $start" | bc -l)")
        start=$(now)
        find "$dir" -maxdepth 1 -type f -name '*.pdf' -print0 |
            /usr/bin/time -v -o "$work/time-reference" xargs -0 -P "$workers" -I{} pdftotext -q {} - > "$work/reference.txt" || true
        reference_times+=("$(echo "$(now) - $start" | bc -l)")
    done
    pool=$(median "${pool_times[@]}") local=$(median "${local_times[@]}") reference=$(median "${reference_times[@]}")
    ours_bytes=$(sed -n 's/.*text_bytes=\([0-9]*\).*/\1/p' "$work/bench-pool")
    reference_bytes=$(wc -c < "$work/reference.txt")
    grep '^failed:' "$work/bench-pool" >&2 || true
    printf '%s: %d PDFs; workers %.2f s (%.0f MiB peak), in process %.2f s, pdftotext %.2f s (%.0f MiB peak); text %d bytes vs %d\n' \
        "$name" "$count" "$pool" "$(peak_mib "$work/time-pool")" "$local" "$reference" "$(peak_mib "$work/time-reference")" \
        "$ours_bytes" "$reference_bytes"
    rows+=("| $name ($count PDFs), through the workers | $(printf %.2f "$pool") s, $(printf %.0f "$(peak_mib "$work/time-pool")") MiB peak | \`pdftotext\`: $(printf %.2f "$reference") s, $(printf %.0f "$(peak_mib "$work/time-reference")") MiB peak | $(printf %.2f "$(echo "$pool / $reference" | bc -l)") | ≤ 1.2 |")
    rows+=("| $name ($count PDFs), in process | $(printf %.2f "$local") s | \`pdftotext\`: $(printf %.2f "$reference") s | $(printf %.2f "$(echo "$local / $reference" | bc -l)") | (context) |")
    rows+=("| $name, text read | $ours_bytes bytes | \`pdftotext\`: $reference_bytes bytes | $(printf %.2f "$(echo "$ours_bytes / $reference_bytes" | bc -l)") | ≈ 1 |")
done
echo "workers=$workers on $(nproc) cores; $(pdftotext -v 2>&1 | head -1)"
table="| PDF text, $workers processes, median of $runs | searchlight | reference | ratio | target |
|---|---|---|---|---|"
for row in "${rows[@]}"; do table+=$'\n'"$row"; done
echo "$table"
[ -z "$markdown" ] || echo "$table" > "$markdown"
