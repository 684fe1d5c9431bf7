#!/usr/bin/env bash
# Content indexing of a folder of documents of every format that issue 13 reads (PDF, DOCX,
# ODT, RTF, DOC, XLSX, ODS, XLS, PPTX, ODP, PPT, EPUB, a photo, a scanned PDF read by OCR),
# Searchlight against Recoll on
# the same folder: time of a first index, index size, and how many documents each finds by
# a phrase of their body.
#
# Usage: Benchmarks/documents-folder.sh [--copies N]
#   The folder is N copies (default 20) of the fixtures of DocumentExtractionTests, each copy
#   in a folder of its own, under Benchmarks/work/documents-folder/.
# Needs: recollcmd (recollindex, recollq), poppler-utils, catdoc, antiword, unrtf, /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."

copies=20
while (($#)); do
    case "$1" in
        --copies) copies=$2; shift 2 ;;
        *) echo "usage: $0 [--copies N]" >&2; exit 64 ;;
    esac
done
for tool in recollindex recollq; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install recollcmd)" >&2; exit 1; }
done

fixtures=Tests/DocumentExtractionTests/Fixtures
files=(report.pdf report.docx report.odt report.rtf report.doc ledger.xlsx ledger.ods ledger.xls
       talk.pptx talk.odp talk.ppt voyage.epub camera.jpg)
work=$PWD/Benchmarks/work/documents-folder
folder=$work/folder
rm -rf "$work" && mkdir -p "$folder"
# A scanned letter as tiff2pdf makes it: one JPEG page, no text layer, and metadata that says
# otherwise (`Subject: Converted: …`). Its words are found only by OCR (Recoll's is off by default).
vips text "$work/t.v" "The harbourmaster counted a fine pilchard harvest at dawn" --font "DejaVu Serif 12" --dpi 150 --width 1100
vips invert "$work/t.v" "$work/i.v"
vips embed "$work/i.v" "$work/scan.jpg[Q=85]" 90 120 1240 400 --extend white
python3 Examples/image-pdf.py "$work/scan.pdf" 150 --info "Subject=Converted: Tue Sep 28 17:32:00 1993" \
    --info "Title=scan0001" --image "$work/scan.jpg"
rm -f "$work"/*.v "$work/scan.jpg"
for ((copy = 0; copy < copies; copy++)); do
    mkdir -p "$folder/copy-$copy"
    for file in "${files[@]}"; do cp "$fixtures/$file" "$folder/copy-$copy/$copy-$file"; done
    cp "$work/scan.pdf" "$folder/copy-$copy/$copy-scan.pdf"
done
files+=(scan.pdf)
count=$(find "$folder" -type f | wc -l)
cat "$folder"/*/* > /dev/null

swift build -c release --static-swift-stdlib --product searchlight >&2
swift build -c release --static-swift-stdlib --product searchlight-extractor >&2
Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
bin=$(swift build -c release --show-bin-path)

now() { date +%s.%N; }
start=$(now)
/usr/bin/time -f %M -o "$work/ours.mem" "$bin/searchlight" scan "$folder" --no-thumbnails --index "$work/index.sqlite" > /dev/null
ours=$(echo "$(now) - $start" | bc -l)
ours_size=$(du -cb "$work"/index.sqlite* | tail -1 | cut -f1)

mkdir -p "$work/recoll"
printf 'topdirs = %s\nloglevel = 1\n' "$folder" > "$work/recoll/recoll.conf"
start=$(now)
/usr/bin/time -f %M -o "$work/recoll.mem" recollindex -c "$work/recoll" > /dev/null 2>&1
recoll=$(echo "$(now) - $start" | bc -l)
recoll_size=$(du -sb "$work/recoll/xapiandb" | cut -f1)

# Known phrases: each with the files (of one copy) whose body holds it.
declare -A expected=(
    ["seventeen albatrosses"]="report.pdf report.docx report.odt report.rtf report.doc"
    ["volcanic boulders"]="report.pdf report.docx report.odt report.rtf report.doc"
    ["Damson plums"]="ledger.xlsx ledger.ods ledger.xls"
    ["quince marmalade"]="ledger.xlsx ledger.ods ledger.xls"
    ["oxalic acid"]="talk.pptx talk.odp talk.ppt"
    ["lavender honey"]="talk.pptx talk.odp talk.ppt"
    ["narwhal tusk"]="voyage.epub"
    ["brass lantern"]="voyage.epub"
    ["pilchard harvest"]="scan.pdf"
)
ours_found=0 recoll_found=0 wanted=0
for phrase in "${!expected[@]}"; do
    want=$(( $(wc -w <<< "${expected[$phrase]}") * copies ))
    wanted=$((wanted + want))
    got=$("$bin/searchlight" query "kMDItemTextContent == \"*$phrase*\"cd" --index "$work/index.sqlite" | wc -l)
    theirs=$(recollq -c "$work/recoll" -b "\"$phrase\"" 2>/dev/null | grep -c '^file://' || true)
    printf '%-22s wanted %4d  searchlight %4d  recoll %4d\n' "$phrase" "$want" "$got" "$theirs"
    ours_found=$((ours_found + (got < want ? got : want)))
    recoll_found=$((recoll_found + (theirs < want ? theirs : want)))
done

echo "$count files ($copies copies of ${#files[@]} documents) on $(nproc) cores; recoll $(dpkg-query -W -f='${Version}' recollcmd 2>/dev/null)"
printf '| content indexing, %d documents | searchlight | recoll | ratio | target |\n|---|---|---|---|---|\n' "$count"
printf '| first index (no thumbnails) | %.2f s, %d MiB peak | `recollindex`: %.2f s, %d MiB peak | %.2f | ≤ 0.3 |\n' \
    "$ours" "$(( $(cat "$work/ours.mem") / 1024 ))" "$recoll" "$(( $(cat "$work/recoll.mem") / 1024 ))" "$(echo "$ours / $recoll" | bc -l)"
printf '| index size | %d KB | xapiandb: %d KB | %.2f | ≤ 1 |\n' "$((ours_size / 1024))" "$((recoll_size / 1024))" "$(echo "$ours_size / $recoll_size" | bc -l)"
printf '| documents found by a known phrase | %d of %d | %d of %d | — | all |\n' "$ours_found" "$wanted" "$recoll_found" "$wanted"
