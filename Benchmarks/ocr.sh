#!/usr/bin/env bash
# OCR of page images: Searchlight (`scan`, whose second pass reads the pictures through its
# workers) against `tesseract IMAGE -` run by `xargs -P` with as many processes, on the same
# files; and the share of the pages' known words each finds. Then the cost of OCR on a
# folder of photos without text: `scan` with OCR on against `scan --no-ocr`.
#
# Usage: Benchmarks/ocr.sh [--pages N] [--photos N] [--workers N] [--runs N] [--markdown FILE]
#   Generates (under Benchmarks/work/ocr/) N A4 pages of text at 300 dpi (PNG), each from
#   words drawn from a fixed list (so the words to find are known), and N photos of 4000x3000
#   (grainy gradients, as in thumbnails.sh).
# Needs: tesseract-ocr (the reference), libvips-tools, python3, bc. Builds in release.
#
# Both sides run Tesseract with one thread per process (OMP_THREAD_LIMIT=1, what the workers
# use): with its default OpenMP threads tesseract costs several times more on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=12 photos=20 workers=2 runs=3 markdown=""
while (($#)); do
    case "$1" in
        --pages) pages=$2; shift 2 ;;
        --photos) photos=$2; shift 2 ;;
        --workers) workers=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --markdown) markdown=$2; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 64 ;;
    esac
done

work=Benchmarks/work/ocr
mkdir -p "$work"
if [ ! -f "$work/pages/.complete-$pages" ]; then
    echo "generating $pages pages of text in $work/pages" >&2
    rm -rf "$work/pages" && mkdir -p "$work/pages" "$work/known"
    python3 - "$work" "$pages" <<'PY'
import random, sys
work, count = sys.argv[1], int(sys.argv[2])
words = """harbour lighthouse quarterly invoice contract tenancy garden furniture kitchen window
receipt payment balance delivery church wedding orchard marmalade quince bakery morning evening
ledger account mortgage insurance policy claim vehicle engine repair station platform ticket
journey mountain valley river bridge castle meadow village market cheese bread butter honey
library museum gallery theatre concert orchestra violin piano trumpet painting sculpture pottery
doctor hospital pharmacy medicine appointment dentist optician surgery nurse patient recovery""".split()
rng = random.Random(22)
fonts = ["DejaVu Serif 11", "DejaVu Sans 11", "DejaVu Sans Mono 10", "DejaVu Serif 12"]
for page in range(count):
    lines = []
    for _ in range(40):
        lines.append(" ".join(rng.choice(words) for _ in range(9)))
    text = "\n".join(lines)
    open(f"{work}/known/page-{page:02d}.txt", "w").write(text + "\n")
    open(f"{work}/known/page-{page:02d}.font", "w").write(fonts[page % len(fonts)])
PY
    for known in "$work"/known/page-*.txt; do
        name=$(basename "$known" .txt)
        vips text "$work/t.v" "$(cat "$known")" --font "$(cat "$work/known/$name.font")" --dpi 300 --width 2200
        vips invert "$work/t.v" "$work/i.v"
        vips embed "$work/i.v" "$work/pages/$name.png[compression=6]" 140 200 2480 3508 --extend white
    done
    rm -f "$work"/*.v
    touch "$work/pages/.complete-$pages"
fi
if [ ! -f "$work/photos/.complete-$photos" ]; then
    echo "generating $photos photos of 4000x3000 in $work/photos" >&2
    rm -rf "$work/photos" && mkdir -p "$work/photos"
    vips xyz "$work/xy.v" 4000 3000
    vips linear "$work/xy.v" "$work/g.v" "0.045 0.07" "10 0" --uchar
    vips bandjoin_const "$work/g.v" "$work/rgb.v" 96
    vips gaussnoise "$work/noise.v" 4000 3000 --sigma 12 --mean 0 --seed 5
    vips add "$work/rgb.v" "$work/noise.v" "$work/sum.v"
    vips cast "$work/sum.v" "$work/base.v" uchar
    for ((i = 0; i < photos; i++)); do
        vips linear "$work/base.v" "$work/photos/photo-$(printf %02d "$i").jpg[Q=85]" \
            "0.$((i % 5 + 5)) 0.$((i % 7 + 3)) 0.$((i % 3 + 6))" "$((i * 3)) $((i * 5 % 40)) 20" --uchar
    done
    rm -f "$work"/*.v
    touch "$work/photos/.complete-$photos"
fi

swift build -c release --product searchlight-extractor >&2
swift build -c release --product searchlight >&2
bin=$(swift build -c release --show-bin-path)
export SEARCHLIGHT_EXTRACTOR="$bin/searchlight-extractor" XDG_CONFIG_HOME=/nonexistent/ocr-bench
median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
now() { date +%s.%N; }
# The share of each page's known words found in a text (as a bag of words), over all pages.
share() {  # share DIR_OF_TEXTS (one NAME.txt per page)
    python3 - "$work/known" "$1" <<'PY'
import collections, re, sys, os
known, found = sys.argv[1], sys.argv[2]
hit = total = 0
for name in sorted(os.listdir(known)):
    if not name.endswith(".txt"): continue
    want = collections.Counter(open(os.path.join(known, name)).read().split())
    path = os.path.join(found, name)
    got = collections.Counter(re.findall(r"[a-z]+", open(path).read().lower())) if os.path.exists(path) else collections.Counter()
    hit += sum(min(count, got[word]) for word, count in want.items())
    total += sum(want.values())
print("%.4f" % (hit / total))
PY
}

count=$(find "$work/pages" -name '*.png' | wc -l)
cat "$work"/pages/*.png > /dev/null
ours_times=() ref_times=()
for ((run = 0; run < runs; run++)); do
    rm -rf "$work/index" && mkdir -p "$work/index"
    start=$(now)
    "$bin/searchlight" scan "$work/pages" --index "$work/index/i.sqlite" --no-thumbnails --no-content --priority normal \
        > "$work/scan.out"
    ours_times+=("$(echo "$(now) - $start" | bc -l)")
    rm -rf "$work/ref" && mkdir -p "$work/ref"
    start=$(now)
    find "$work/pages" -name '*.png' -print0 | OMP_THREAD_LIMIT=1 xargs -0 -P "$workers" -I{} \
        sh -c 'tesseract "$1" - 2>/dev/null > "$2/$(basename "$1" .png).txt"' _ {} "$work/ref"
    ref_times+=("$(echo "$(now) - $start" | bc -l)")
done
cat "$work/scan.out" >&2
rm -rf "$work/ours" && mkdir -p "$work/ours"
for page in "$work"/pages/*.png; do
    name=$(basename "$page" .png)
    "$bin/searchlight" show "$name.png" --text --index "$work/index/i.sqlite" > "$work/ours/$name.txt"
done
ours=$(median "${ours_times[@]}") ref=$(median "${ref_times[@]}")
ours_share=$(share "$work/ours") ref_share=$(share "$work/ref")
ratio=$(echo "$ours / $ref" | bc -l)

# Photos without text: a scan with thumbnails, OCR on and off, alternated.
cat "$work"/photos/*.jpg > /dev/null
on_times=() off_times=()
for ((run = 0; run < runs; run++)); do
    for mode in on off; do
        rm -rf "$work/index" && mkdir -p "$work/index"
        flag=(); [ "$mode" = off ] && flag=(--no-ocr)
        start=$(now)
        "$bin/searchlight" scan "$work/photos" --index "$work/index/i.sqlite" --priority normal "${flag[@]}" > /dev/null
        elapsed=$(echo "$(now) - $start" | bc -l)
        if [ "$mode" = on ]; then on_times+=("$elapsed"); else off_times+=("$elapsed"); fi
    done
done
queued=$(sqlite3 "$work/index/i.sqlite-ocr" "SELECT count(*) FROM recognized" 2>/dev/null || echo "?")
on=$(median "${on_times[@]}") off=$(median "${off_times[@]}")
photo_count=$(find "$work/photos" -name '*.jpg' | wc -l)

table="| OCR, $workers processes, median of $runs | searchlight | reference | ratio | target |
|---|---|---|---|---|
| $count A4 pages at 300 dpi (PNG, 360 words each) | $(printf %.2f "$ours") s (\`scan --no-thumbnails --no-content\`, both passes), $(printf %.1f "$(echo "$ours_share * 100" | bc -l)") % of the words | \`tesseract IMAGE -\` by \`xargs -P $workers\`: $(printf %.2f "$ref") s, $(printf %.1f "$(echo "$ref_share * 100" | bc -l)") % of the words | $(printf %.2f "$ratio") | ≤ 1.0, same words found |
| $photo_count photos without text (4000×3000 JPEG), \`scan\` with thumbnails | OCR on: $(printf %.2f "$on") s | \`--no-ocr\`: $(printf %.2f "$off") s | $(printf %.3f "$(echo "$on / $off" | bc -l)") | a few percent |"
echo "$table"
echo "tesseract $(tesseract --version 2>&1 | head -1 | cut -d' ' -f2); $(nproc) cores" >&2
[ -z "$markdown" ] || echo "$table" > "$markdown"
