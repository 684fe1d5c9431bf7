#!/usr/bin/env bash
# OCR of page images: Searchlight (`scan`, whose second pass reads the pictures through its
# workers) against `tesseract IMAGE -` run by `xargs -P` with as many processes, on the same
# files; and the share of the pages' known words each finds. Then scanned PDFs (two scanned
# pages and a page of text each, with the metadata tiff2pdf writes: `Subject: Converted: …`):
# `scan` against a per-page `pdftotext`, else `pdftoppm | tesseract`, the same decision made
# by hand. Then the cost of OCR on a folder of photos without text: `scan` with OCR on against
# `scan --no-ocr`.
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
Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
bin=$(swift build -c release --show-bin-path)
export SEARCHLIGHT_EXTRACTOR="$bin/searchlight-extractor" XDG_CONFIG_HOME=/nonexistent/ocr-bench
median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
now() { date +%s.%N; }
# The share of each page's known words found in a text (as a bag of words), over all pages.
share() {  # share DIR_OF_TEXTS (one NAME.txt per page; $known_dir: the folder of known texts)
    python3 - "${known_dir:-$work/known}" "$1" <<'PY'
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

# The text the index holds of each file of FOLDER with EXTENSION, in OUT/NAME.txt.
texts_of() {  # texts_of FOLDER EXTENSION OUT
    rm -rf "${work:?}/$3" && mkdir -p "$work/$3"
    for file in "$work/$1"/*."$2"; do
        name=$(basename "$file" ".$2")
        "$bin/searchlight" show "$name.$2" --text --index "$work/index/i.sqlite" > "$work/$3/$name.txt"
    done
}

count=$(find "$work/pages" -name '*.png' | wc -l)
cat "$work"/pages/*.png > /dev/null
ours_times=() ref_times=()
for ((run = 0; run < runs; run++)); do
    rm -rf "$work/index" && mkdir -p "$work/index"
    start=$(now)
    "$bin/searchlight" scan "$work/pages" --index "$work/index/i.sqlite" --no-thumbnails --priority normal \
        > "$work/scan.out"
    ours_times+=("$(echo "$(now) - $start" | bc -l)")
    rm -rf "$work/ref" && mkdir -p "$work/ref"
    start=$(now)
    find "$work/pages" -name '*.png' -print0 | OMP_THREAD_LIMIT=1 xargs -0 -P "$workers" -I{} \
        sh -c 'tesseract "$1" - 2>/dev/null > "$2/$(basename "$1" .png).txt"' _ {} "$work/ref"
    ref_times+=("$(echo "$(now) - $start" | bc -l)")
done
cat "$work/scan.out" >&2
texts_of pages png ours
ours=$(median "${ours_times[@]}") ref=$(median "${ref_times[@]}")
ours_share=$(share "$work/ours") ref_share=$(share "$work/ref")
ratio=$(echo "$ours / $ref" | bc -l)

# Scanned PDFs: pages 2k and 2k+1 as JPEG scans after a page of text, with a scanner's Info.
if [ ! -f "$work/pdfs/.complete-$pages" ]; then
    rm -rf "$work/pdfs" "$work/pdf-known" && mkdir -p "$work/pdfs" "$work/pdf-known"
    for ((k = 0; k + 1 < count; k += 2)); do
        a=$(printf page-%02d "$k") b=$(printf page-%02d "$((k + 1))") name=$(printf scan-%02d "$k")
        vips copy "$work/pages/$a.png" "$work/$a.jpg[Q=85]" && vips copy "$work/pages/$b.png" "$work/$b.jpg[Q=85]"
        python3 Examples/image-pdf.py "$work/pdfs/$name.pdf" 300 --info "Subject=Converted: Tue Sep 28 17:32:00 1993" \
            --info "Title=$name" --text "Cover page of the scanned bundle $k" --image "$work/$a.jpg" --image "$work/$b.jpg"
        cat "$work/known/$a.txt" "$work/known/$b.txt" > "$work/pdf-known/$name.txt"
        rm -f "$work/$a.jpg" "$work/$b.jpg"
    done
    touch "$work/pdfs/.complete-$pages"
fi
pdf_count=$(find "$work/pdfs" -name '*.pdf' | wc -l)
cat "$work"/pdfs/*.pdf > /dev/null
pdf_ours_times=() pdf_ref_times=()
for ((run = 0; run < runs; run++)); do
    rm -rf "$work/index" && mkdir -p "$work/index"
    start=$(now)
    "$bin/searchlight" scan "$work/pdfs" --index "$work/index/i.sqlite" --no-thumbnails --priority normal > "$work/scan.out"
    pdf_ours_times+=("$(echo "$(now) - $start" | bc -l)")
    rm -rf "$work/pdf-ref" && mkdir -p "$work/pdf-ref"
    start=$(now)
    # Each page: its text layer when it has one, else its picture read by tesseract.
    find "$work/pdfs" -name '*.pdf' -print0 | OMP_THREAD_LIMIT=1 xargs -0 -P "$workers" -I{} sh -c '
        pdf=$1 out=$2/$(basename "$1" .pdf).txt
        pages=$(pdfinfo "$pdf" | sed -n "s/^Pages: *//p")
        for p in $(seq 1 "$pages"); do
            text=$(pdftotext -f "$p" -l "$p" "$pdf" -)
            if [ "$(printf %s "$text" | tr -cd "[:alnum:]" | wc -c)" -ge 16 ]; then
                printf "%s\n" "$text" >> "$out"
            else
                pdftoppm -f "$p" -l "$p" -r 300 -gray "$pdf" | tesseract - - 2>/dev/null >> "$out"
            fi
        done' _ {} "$work/pdf-ref"
    pdf_ref_times+=("$(echo "$(now) - $start" | bc -l)")
done
cat "$work/scan.out" >&2
texts_of pdfs pdf pdf-ours
pdf_ours=$(median "${pdf_ours_times[@]}") pdf_ref=$(median "${pdf_ref_times[@]}")
pdf_ours_share=$(known_dir="$work/pdf-known" share "$work/pdf-ours") pdf_ref_share=$(known_dir="$work/pdf-known" share "$work/pdf-ref")

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
| $count A4 pages at 300 dpi (PNG, 360 words each) | $(printf %.2f "$ours") s (\`scan --no-thumbnails\`, both passes), $(printf %.1f "$(echo "$ours_share * 100" | bc -l)") % of the words | \`tesseract IMAGE -\` by \`xargs -P $workers\`: $(printf %.2f "$ref") s, $(printf %.1f "$(echo "$ref_share * 100" | bc -l)") % of the words | $(printf %.2f "$ratio") | ≤ 1.0, same words found |
| $pdf_count scanned PDFs (2 scanned A4 pages at 300 dpi and a page of text each; \`Subject: Converted: …\`) | $(printf %.2f "$pdf_ours") s (\`scan --no-thumbnails\`, both passes), $(printf %.1f "$(echo "$pdf_ours_share * 100" | bc -l)") % of the scanned words | per page \`pdftotext\`, else \`pdftoppm -r 300 \| tesseract\`, by \`xargs -P $workers\`: $(printf %.2f "$pdf_ref") s, $(printf %.1f "$(echo "$pdf_ref_share * 100" | bc -l)") % | $(printf %.2f "$(echo "$pdf_ours / $pdf_ref" | bc -l)") | ≤ 1.0, same words found |
| $photo_count photos without text (4000×3000 JPEG), \`scan\` with thumbnails | OCR on: $(printf %.2f "$on") s | \`--no-ocr\`: $(printf %.2f "$off") s | $(printf %.3f "$(echo "$on / $off" | bc -l)") | a few percent |"
echo "$table"
echo "tesseract $(tesseract --version 2>&1 | head -1 | cut -d' ' -f2); $(nproc) cores" >&2
[ -z "$markdown" ] || echo "$table" > "$markdown"
