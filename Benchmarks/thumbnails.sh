#!/usr/bin/env bash
# Thumbnails per second, peak memory and average size: Searchlight's ExtractorPool
# (searchlight-extractor workers, fed by as many threads) side by side with
# `vipsthumbnail -s 256 -o %s.webp[Q=75,strip]` run by `xargs -P` with the same
# number of processes, on the same files.
#
# Usage: Benchmarks/thumbnails.sh [--workers N] [--photos N] [--pdfs N] [--runs N] [--markdown FILE] [DIR...]
#   --runs N: time each side N times (default 1) and report the medians.
#   Without DIR, generates (once, under Benchmarks/work/) a set of 6000x4000 JPEG
#   photos and a set of 5-page PDFs, and measures each set separately.
# Needs: libvips-tools, /usr/bin/time (GNU), python3. Builds thumbnail-bench in release.
#
# Peak memory is GNU time's "Maximum resident set size": the largest single process
# of the tree (for us a worker or the bench process; for xargs one vipsthumbnail).
set -euo pipefail
cd "$(dirname "$0")/.."

workers=2 photos=40 pdfs=20 runs=1 markdown="" dirs=()
while (($#)); do
    case "$1" in
        --workers) workers=$2; shift 2 ;;
        --photos) photos=$2; shift 2 ;;
        --pdfs) pdfs=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --markdown) markdown=$2; shift 2 ;;
        *) dirs+=("$1"); shift ;;
    esac
done

work=Benchmarks/work/thumbnails
mkdir -p "$work"
if ((${#dirs[@]} == 0)); then
    if [ ! -f "$work/photos/.complete-$photos" ]; then
        echo "generating $photos JPEG photos of 6000x4000 in $work/photos" >&2
        rm -rf "$work/photos" && mkdir -p "$work/photos"
        # One grainy gradient (a photo's entropy, which decides JPEG decode cost), then
        # each photo a different tone curve of it, written straight to JPEG.
        vips xyz "$work/xy.v" 6000 4000
        vips linear "$work/xy.v" "$work/g.v" "0.03 0.05" "10 0" --uchar
        vips bandjoin_const "$work/g.v" "$work/rgb.v" 96
        vips gaussnoise "$work/noise.v" 6000 4000 --sigma 12 --mean 0
        vips add "$work/rgb.v" "$work/noise.v" "$work/sum.v"
        vips cast "$work/sum.v" "$work/base.v" uchar
        for ((i = 0; i < photos; i++)); do
            vips linear "$work/base.v" "$work/photos/photo-$(printf %02d "$i").jpg[Q=85]" \
                "0.$((i % 5 + 5)) 0.$((i % 7 + 3)) 0.$((i % 3 + 6))" "$((i * 3)) $((i * 5 % 40)) 20" --uchar
        done
        rm -f "$work"/*.v
        touch "$work/photos/.complete-$photos"
    fi
    if [ ! -f "$work/pdfs/.complete-$pdfs" ]; then
        echo "generating $pdfs PDFs in $work/pdfs" >&2
        rm -rf "$work/pdfs" && mkdir -p "$work/pdfs"
        python3 Benchmarks/make-pdfs.py "$work/pdfs" "$pdfs"
        touch "$work/pdfs/.complete-$pdfs"
    fi
    dirs=("$work/photos" "$work/pdfs")
fi

swift build -c release --static-swift-stdlib --product thumbnail-bench >&2
swift build -c release --static-swift-stdlib --product searchlight-extractor >&2
Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
bin=$(swift build -c release --show-bin-path)
export SEARCHLIGHT_EXTRACTOR="$bin/searchlight-extractor"

median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
rows=()

peak_kib() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }

printf '%-28s %6s %10s %10s %10s %10s\n' "set / tool" files seconds "thumbs/s" "peak MiB" "avg bytes"
for dir in "${dirs[@]}"; do
    count=$(find "$dir" -maxdepth 1 -type f ! -name '.*' | wc -l)
    name=$(basename "$dir")
    # Warm the page cache so that both tools read from memory.
    cat "$dir"/* > /dev/null

    ours_times=() vips_times=()
    for ((run = 0; run < runs; run++)); do
        ours_out="$work/out-ours-$name"; rm -rf "$ours_out"; mkdir -p "$ours_out"
        # Wall time of the whole command on both sides: process start-up and worker spawning included.
        start=$(date +%s.%N)
        /usr/bin/time -v -o "$work/time-ours" "$bin/thumbnail-bench" "$dir" --workers "$workers" --out "$ours_out" > "$work/bench-ours"
        end=$(date +%s.%N)
        ours_seconds=$(echo "$end - $start" | bc -l)
        ours_ok=$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' "$work/bench-ours")
        ours_bytes=$(sed -n 's/.*average_bytes=\([0-9]*\).*/\1/p' "$work/bench-ours")
        ours_peak=$(peak_kib "$work/time-ours")

        vips_out="$work/out-vips-$name"; rm -rf "$vips_out"; mkdir -p "$vips_out"
        # Batches of files per vipsthumbnail process, so process start-up is amortized as in our pool.
        batch=$(( (count + workers * 4 - 1) / (workers * 4) ))
        start=$(date +%s.%N)
        find "$dir" -maxdepth 1 -type f ! -name '.*' -print0 |
            /usr/bin/time -v -o "$work/time-vips" xargs -0 -P "$workers" -n "$batch" \
                vipsthumbnail -s 256 -o "$PWD/$vips_out/%s.webp[Q=75,strip]" 2> /dev/null || true
        end=$(date +%s.%N)
        vips_seconds=$(echo "$end - $start" | bc -l)
        vips_files=$(find "$vips_out" -type f | wc -l)
        vips_bytes=$(( vips_files > 0 ? $(cat "$vips_out"/* | wc -c) / vips_files : 0 ))
        vips_peak=$(peak_kib "$work/time-vips")
        ours_times+=("$ours_seconds") vips_times+=("$vips_seconds")
    done
    ours_seconds=$(median "${ours_times[@]}") vips_seconds=$(median "${vips_times[@]}")
    rows+=("| $name ($count files) | $(printf %.2f "$ours_seconds") s, $(printf %.0f "$(echo "$ours_peak / 1024" | bc -l)") MiB peak | \`vipsthumbnail -s 256\`: $(printf %.2f "$vips_seconds") s, $(printf %.0f "$(echo "$vips_peak / 1024" | bc -l)") MiB peak | $(printf %.2f "$(echo "$ours_seconds / $vips_seconds" | bc -l)") | ≤ 1.1 |")
    printf '%-28s %6d %10.2f %10.2f %10.1f %10d\n' "$name / searchlight ($ours_ok ok)" "$count" "$ours_seconds" \
        "$(echo "$count / $ours_seconds" | bc -l)" "$(echo "$ours_peak / 1024" | bc -l)" "$ours_bytes"
    printf '%-28s %6d %10.2f %10.2f %10.1f %10d\n' "$name / vipsthumbnail ($vips_files ok)" "$count" "$vips_seconds" \
        "$(echo "$count / $vips_seconds" | bc -l)" "$(echo "$vips_peak / 1024" | bc -l)" "$vips_bytes"
    printf '%-28s time ratio %.2f (target <= 1.1), peak memory ratio %.2f, size ratio %.2f\n' "$name / ratio" \
        "$(echo "$ours_seconds / $vips_seconds" | bc -l)" "$(echo "$ours_peak / $vips_peak" | bc -l)" \
        "$(echo "$ours_bytes / ($vips_bytes + 0.0001)" | bc -l)"
    grep '^failed:' "$work/bench-ours" >&2 || true
done
echo "workers=$workers on $(nproc) cores; libvips $(vips --version)"
table="| thumbnails, $workers workers, median of $runs | searchlight | reference | ratio | target |
|---|---|---|---|---|"
for row in "${rows[@]}"; do table+=$'\n'"$row"; done
echo "$table"
[ -z "$markdown" ] || echo "$table" > "$markdown"
