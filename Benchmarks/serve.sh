#!/usr/bin/env bash
# The web API under load, on loopback only (Docs/Contract.md#performance-targets: /api/search at 100 000 items, 32 concurrent
# clients, p95 ≤ 20 ms), and thumbnails served per second.
#
#   Benchmarks/serve.sh [--items N] [--seconds S] [--connections C] [--searchlight BIN]
#
# Builds searchlight and query-bench in release mode (as run.sh does), makes an index of N
# synthetic items with query-bench (reused while it has N items), starts `searchlight serve` on
# a free loopback port, and runs wrk for S seconds with C connections over the prefixes a person
# types (r, re, rep, … of a few words; serve-load.lua). Then it scans 200 generated images with
# thumbnails and has wrk fetch their thumbnails. Bounded in time; prints one line per measure.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$repo/Benchmarks/work/serve
items=100000 seconds=10 connections=32 searchlight=""
while [ $# -gt 0 ]; do
  case $1 in
    --items) items=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --searchlight) searchlight=$2; shift 2 ;;
    *) echo "usage: $0 [--items N] [--seconds S] [--connections C] [--searchlight BIN]" >&2; exit 64 ;;
  esac
done
for tool in wrk vips python3; do
  command -v $tool >/dev/null || { echo "missing $tool: sudo apt-get install wrk libvips-tools python3" >&2; exit 1; }
done
mkdir -p "$work"
for product in searchlight searchlight-serve searchlight-extractor query-bench; do
  (cd "$repo" && swift build -c release --static-swift-stdlib --product $product >>"$work/build.log" 2>&1) \
    || { tail -20 "$work/build.log" >&2; exit 1; }
done
bin=$(cd "$repo" && swift build -c release --show-bin-path)
"$repo/Packaging/foundation-icu-data" "$repo/.build/release"   # the ICU data the release executables share
searchlight=${searchlight:-$bin/searchlight}

server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; true; }
trap cleanup EXIT

# Starts `searchlight serve` on INDEX on a free loopback port; sets $address.
serve() {
  local output=$work/serve.out
  : >"$output"
  "$searchlight" serve --index "$1" --host 127.0.0.1 --port 0 >"$output" 2>"$work/serve.err" &
  server_pid=$!
  for _ in $(seq 1 200); do
    address=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$output" || true)
    [ -n "$address" ] && return 0
    sleep 0.05
  done
  echo "the server did not start: $(cat "$work/serve.err")" >&2
  exit 1
}

# The server's CPU time in milliseconds (user + system, from /proc): divided by the requests
# served it tells the cost of one request whatever else the machine is doing.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1000 / hz }' "/proc/$server_pid/stat"; }

# Runs wrk over the paths in $1 and prints its RESULT line with the server's CPU per request;
# UNIQUE=1 in the environment makes every request a new one (serve-load.lua).
load() {
  local before after
  before=$(cpu_ms)
  PATHS=$1 wrk -t2 -c"$connections" -d"${seconds}s" --timeout 5s -s "$repo/Benchmarks/serve-load.lua" "$address" >"$2"
  after=$(cpu_ms)
  awk -v cpu="$((${after%.*} - ${before%.*}))" '/^RESULT/ {
    split($2, r, "="); printf "%s server_cpu_ms_per_request=%.2f\n", $0, cpu / r[2] }' "$2"
}

index=$work/search-$items.sqlite
"$bin/query-bench" --items "$items" --index "$index" --repeats 1 >"$work/query-bench.log"
serve "$index"
python3 - >"$work/search-paths.txt" <<'PYTHON'
import urllib.parse
for phrase in ["report", "quarterly", "holiday photo", "budget 2024", "résumé", "xylophone", "meeting notes", "canon"]:
    for length in range(1, len(phrase) + 1):
        if not phrase[:length].endswith(" "):
            print("/api/search?limit=60&q=" + urllib.parse.quote(phrase[:length]))
PYTHON
echo "== /api/search, $items items, $connections connections, ${seconds}s (wrk, loopback)"
load "$work/search-paths.txt" "$work/search.txt"
# The same prefixes, each request made new: every answer is computed (none kept from before).
echo "== /api/search, every request new (no answer kept), $items items, $connections connections, ${seconds}s"
UNIQUE=1 load "$work/search-paths.txt" "$work/search-unique.txt"
cleanup; server_pid=""

images=$work/images
if [ ! -d "$images" ] || [ "$(ls "$images" | wc -l)" -ne 200 ]; then
  rm -rf "$images" && mkdir -p "$images"
  for n in $(seq 1 200); do
    vips gaussnoise "$work/noise.v" $((600 + n)) 400 --mean 128 --sigma 40
    vips cast "$work/noise.v" "$images/photo $n.png" uchar
  done
  rm -f "$work/noise.v"
fi
thumbs=$work/thumbnails.sqlite
rm -f "$thumbs"*
"$searchlight" scan "$images" --index "$thumbs" >/dev/null
serve "$thumbs"
python3 - "$address" >"$work/thumbnail-urls.txt" <<'PYTHON'
import json, sys, urllib.request
url = sys.argv[1] + "/api/query?limit=1000&q=contentTypeTree%20%3D%3D%20%22image%22"
for item in json.load(urllib.request.urlopen(url))["items"]:
    if item["thumbnailURL"]:
        print(item["thumbnailURL"])
PYTHON
echo "== /api/thumbnails, $(wc -l <"$work/thumbnail-urls.txt") thumbnails, $connections connections, ${seconds}s"
load "$work/thumbnail-urls.txt" "$work/thumbnails.txt"
