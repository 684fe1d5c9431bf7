#!/usr/bin/env bash
# What the extraction workers' sandbox costs (issue 32; target under 3 %): the same content
# scan (`searchlight scan DIR --no-thumbnails --no-ocr`, into a fresh index, page cache warm)
# with the workers as the indexer starts them — no_new_privs, the seccomp filter, Landlock, and
# a memory copy of each file a decoder reopens by name — and with the workers started
# `--unconfined` (through a wrapper named by $SEARCHLIGHT_EXTRACTOR), in alternating rounds.
# Reports medians of wall-clock and CPU time (the indexer and its workers) and the ratios.
#
# Usage: Benchmarks/sandbox.sh [--rounds N] [--markdown FILE] [DIR...]
#   Default DIRs: the documents folder of documents-folder.sh (every format read, 20 copies)
#   and the PDFs of documents.sh, made if missing.
# Needs: GNU time (/usr/bin/time), python3.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=7 markdown="" dirs=()
while (($#)); do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --markdown) markdown=$2; shift 2 ;;
        -h|--help) sed -n 2,12p "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 64 ;;
        *) dirs+=("$(cd "$1" && pwd)"); shift ;;
    esac
done
if ((${#dirs[@]} == 0)); then
    [ -d Benchmarks/work/documents-folder/folder ] || Benchmarks/documents-folder.sh >&2
    if [ ! -d Benchmarks/work/documents/pdfs ]; then
        mkdir -p Benchmarks/work/documents/pdfs
        python3 Benchmarks/make-pdfs.py Benchmarks/work/documents/pdfs 200
    fi
    dirs=("$PWD/Benchmarks/work/documents-folder/folder" "$PWD/Benchmarks/work/documents/pdfs")
fi

swift build -c release --static-swift-stdlib --product searchlight >&2
swift build -c release --static-swift-stdlib --product searchlight-extractor >&2
Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
bin=$(swift build -c release --show-bin-path)
work=$PWD/Benchmarks/work/sandbox
rm -rf "$work" && mkdir -p "$work"
# The same executable, unconfined; each start leaves a line, to show that it was used.
cat > "$work/unconfined-extractor" <<WRAPPER
#!/bin/sh
echo started >> "$work/unconfined-starts"
exec "$bin/searchlight-extractor" --unconfined "\$@"
WRAPPER
chmod +x "$work/unconfined-extractor"

# One scan: "wall user system" seconds (GNU time counts the workers, which the indexer reaps).
scan() {
    local mode=$1 dir=$2
    rm -f "$work"/index.sqlite*
    local extractor="$bin/searchlight-extractor"
    [ "$mode" = unconfined ] && extractor="$work/unconfined-extractor"
    SEARCHLIGHT_EXTRACTOR=$extractor /usr/bin/time -f "%e %U %S" -o "$work/time" \
        "$bin/searchlight" scan "$dir" --no-thumbnails --no-ocr --index "$work/index.sqlite" >"$work/scan.out" 2>&1 \
        || { cat "$work/scan.out" >&2; exit 1; }
    echo "$mode $dir $(cat "$work/time")" >> "$work/times"
}

for dir in "${dirs[@]}"; do
    # Warm the page cache and both executables.
    scan sandboxed "$dir"; scan unconfined "$dir"
    : > "$work/times"
    for ((round = 0; round < rounds; round++)); do
        if ((round % 2)); then scan unconfined "$dir"; scan sandboxed "$dir"; else scan sandboxed "$dir"; scan unconfined "$dir"; fi
    done
    cp "$work/times" "$work/times-$(basename "$dir")"
done
[ -s "$work/unconfined-starts" ] || { echo "the unconfined workers never started" >&2; exit 1; }

python3 - "$work" "$markdown" "${dirs[@]}" <<'PY'
import os, statistics, sys
work, markdown, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = ["| folder | files | wall, sandboxed | wall, unconfined | ratio | CPU, sandboxed | CPU, unconfined | ratio |",
         "|---|--:|--:|--:|--:|--:|--:|--:|"]
for folder in dirs:
    rows = [line.split() for line in open(os.path.join(work, "times-" + os.path.basename(folder)))]
    def median(mode, cpu):
        return statistics.median(float(r[3]) + float(r[4]) if cpu else float(r[2]) for r in rows if r[0] == mode)
    files = sum(len(f) for _, _, f in os.walk(folder))
    ws, wu, cs, cu = median("sandboxed", False), median("unconfined", False), median("sandboxed", True), median("unconfined", True)
    lines.append(f"| {os.path.relpath(folder)} | {files} | {ws:.2f} s | {wu:.2f} s | {ws / wu:.3f} | {cs:.2f} s | {cu:.2f} s | {cs / cu:.3f} |")
print("\n".join(lines))
if markdown:
    open(markdown, "a").write("\n".join(lines) + "\n")
PY
