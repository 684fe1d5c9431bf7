#!/usr/bin/env bash
# The content rows of the benchmark (Docs/Contract.md#performance-targets): content indexing of a folder of documents
# against Recoll's `recollindex` on the same folder, and the size of both indexes.
#   - searchlight: `searchlight scan DIR --no-thumbnails --no-ocr` into a fresh index (text extraction on, OCR off as the issue measures it; Recoll reads no pictures either);
#   - Recoll: `recollindex -c CONFDIR` with a fresh configuration whose `topdirs` is DIR.
# Prints wall-clock medians, index bytes and the ratios (targets: time ≤ 0.3, size ≤ 1).
# Needs Debian's `recollcmd` (not installed by .ci/install-dependencies: the quick benchmark
# does not run this) and `hyperfine`.
# Usage: Benchmarks/content.sh [--runs N] [--searchlight BIN] [--markdown FILE] DIR
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3 binary="" markdown="" folder=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --searchlight) binary=$2; shift 2 ;;
    --markdown) markdown=$2; shift 2 ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 64 ;;
    *) folder=$1; shift ;;
  esac
done
[ -n "$folder" ] && [ -d "$folder" ] || { echo "usage: Benchmarks/content.sh [--runs N] DIR" >&2; exit 64; }
folder=$(cd "$folder" && pwd)
for tool in recollindex hyperfine python3; do
  command -v $tool >/dev/null || { echo "missing $tool: sudo apt-get install recollcmd hyperfine python3" >&2; exit 1; }
done
if [ -z "$binary" ]; then
  swift build -c release --static-swift-stdlib --product searchlight >/dev/null
  swift build -c release --static-swift-stdlib --product searchlight-extractor >/dev/null
  Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
  binary=.build/release/searchlight
fi
work=$(pwd)/Benchmarks/work/content
rm -rf "$work" && mkdir -p "$work/recoll"
cat > "$work/recoll/recoll.conf" <<EOF
topdirs = $folder
EOF
files=$(find "$folder" -type f -not -path '*/.*' | wc -l)

hyperfine --runs "$runs" --export-json "$work/times.json" \
  --prepare "rm -f '$work/index.sqlite' '$work/index.sqlite-wal' '$work/index.sqlite-shm' '$work/index.sqlite-ocr'" \
  "'$binary' scan '$folder' --no-thumbnails --no-ocr --index '$work/index.sqlite'" \
  --prepare "find '$work/recoll' -mindepth 1 -not -name recoll.conf -exec rm -rf {} +" \
  "recollindex -c '$work/recoll'" >&2

python3 - "$work" "$files" "$folder" "$markdown" <<'PY'
import json, os, sys
work, files, folder, markdown = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
results = json.load(open(os.path.join(work, "times.json")))["results"]
ours, recoll = (r["median"] for r in results)
def size(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)
index = sum(size(os.path.join(work, f"index.sqlite{suffix}")) for suffix in ("", "-wal") if os.path.exists(os.path.join(work, f"index.sqlite{suffix}")))
recoll_index = size(os.path.join(work, "recoll", "xapiandb"))
lines = [
    f"{files} files in {folder}",
    "",
    "| measure | searchlight | recoll | ratio | target |",
    "|---|---|---|--:|---|",
    f"| content indexing (wall, median of {len(results[0]['times'])}) | {ours:.2f} s | {recoll:.2f} s | {ours / recoll:.2f} | ≤ 0.3 |",
    f"| index size with content | {index / 1e6:.1f} MB | {recoll_index / 1e6:.1f} MB | {index / max(1, recoll_index):.2f} | ≤ 1 |",
]
print("\n".join(lines))
if markdown:
    open(markdown, "a").write("\n".join(lines) + "\n")
PY
