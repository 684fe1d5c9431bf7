#!/usr/bin/env bash
# The `watch` rows of the benchmark:
#   1. a burst of N file creations (default 10 000, in 100 folders) under a running `watch`:
#      seconds from the first creation until every file is searchable, compared with `scan`
#      of the same files into a fresh index (target: no slower); the watch runs with the
#      default configuration, as in production (it backs off when the machine's other
#      programs wait for the CPU), and again with `backoff = false`, to show the backoff's
#      share; the CPU time of each side (with its extraction workers) is shown too;
#   2. CPU used by an idle `watch` of a tree of F folders (default 10 000) during S seconds
#      (default 30), from /proc/PID/stat (target: about nothing);
#   3. with --self-check-tree DIR (a tree made by make_tree.py): the CPU of one periodic
#      self-check of that tree (a reconcile that changes nothing), from /proc/PID/stat.
# Usage: Benchmarks/watch.sh [--files N] [--folders F] [--idle-seconds S] [--runs R] [--searchlight BIN]
#                            [--self-check-tree DIR] [--markdown FILE]
set -euo pipefail
cd "$(dirname "$0")/.."

files=10000 folders=10000 idle=30 runs=3 binary="" markdown="" check_tree=""
while [ $# -gt 0 ]; do
  case "$1" in
    --files) files=$2; shift 2 ;;
    --folders) folders=$2; shift 2 ;;
    --idle-seconds) idle=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --searchlight) binary=$2; shift 2 ;;
    --markdown) markdown=$2; shift 2 ;;
    --self-check-tree) check_tree=$2; shift 2 ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
done
for tool in python3; do command -v $tool >/dev/null || { echo "missing $tool" >&2; exit 1; }; done
if [ -z "$binary" ]; then
  swift build -c release --static-swift-stdlib --product searchlight >/dev/null
  swift build -c release --static-swift-stdlib --product searchlight-extractor >/dev/null
  Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
  binary=.build/release/searchlight
fi
work=Benchmarks/work/watch
rm -rf "$work" && mkdir -p "$work"
ticks=$(getconf CLK_TCK)
# The default configuration (not the user's), and the same without the pressure backoff.
printf '' > "$work/default.toml"
printf '[watch]\nbackoff = false\n' > "$work/no-backoff.toml"
export SEARCHLIGHT_CONFIG="$work/default.toml"

# Creates $files small files in 100 folders under $1, as fast as Python can.
make_burst() {
  python3 - "$1" "$files" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    folder = os.path.join(root, f"batch-{i % 100:03d}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"Burst note {i:05d} quarterlyReport.txt"), "w") as f:
        f.write(f"note {i}\n")
PY
}

# Starts a watch of $1 into index $2 (more options after them), waits for its "watching"
# line, prints its pid. The configuration file is $SEARCHLIGHT_CONFIG.
start_watch() {
  # Its stdout must not be the $(…) that called us, or that would wait for the watch to end.
  "$binary" watch "$1" --index "$2" --no-thumbnails --priority normal "${@:3}" > /dev/null 2> "$2.log" &
  local pid=$!
  for _ in $(seq 3000); do grep -q watching "$2.log" 2>/dev/null && break; sleep 0.01; done
  grep -q watching "$2.log" || { echo "watch did not start: $(cat "$2.log")" >&2; exit 1; }
  echo $pid
}

# Waits until the index holds `count` items (the files: folders are no items), looking every 20 ms
# from one process: starting `searchlight list --count` every 20 ms (13 ms of CPU each) took
# about a fifth of the two cores from the watcher being measured, which `scan` never shared.
wait_searchable() {
  python3 - "$1" "$2" <<'PY'
import sqlite3, sys, time
path, count = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
while db.execute("SELECT count(*) FROM item").fetchone()[0] < count:
    time.sleep(0.02)
PY
}

# CPU seconds of process $1 and of its children, living (the extraction workers) or reaped.
tree_cpu() {
  local total=0 pid
  for pid in "$1" $(cat "/proc/$1/task/"*/children 2>/dev/null || pgrep -P "$1" || true); do
    total=$(( total + $(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat" 2>/dev/null || echo 0) ))
  done
  python3 -c "print($total / $ticks)"
}

median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }

# A burst under a watch configured by $SEARCHLIGHT_CONFIG into $1 (a fresh folder): appends its
# seconds to burst_times, the watch's CPU seconds to burst_cpus, and counts its backoffs.
measure_burst() {
  local root=$1 index=$1.sqlite pid start end
  mkdir -p "$root"
  pid=$(start_watch "$root" "$index")
  start=$(date +%s.%N)
  make_burst "$root"
  wait_searchable "$index" "$files"
  end=$(date +%s.%N)
  burst_cpus+=("$(tree_cpu "$pid")")
  kill -TERM "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
  burst_times+=("$(python3 -c "print($end - $start)")")
  backoffs=$(( backoffs + $(grep -c "backing off" "$index.log" || true) ))
}

burst_times=() burst_cpus=() scan_times=() scan_cpus=() create_times=() backoffs=0
plain_times=() plain_cpus=()
for run in $(seq "$runs"); do
  root="$work/burst-$run"
  measure_burst "$root"
  # The same without the backoff: what the backoff costs (or saves).
  (
    burst_times=() burst_cpus=() backoffs=0
    export SEARCHLIGHT_CONFIG="$work/no-backoff.toml"
    measure_burst "$work/plain-$run"
    echo "${burst_times[0]} ${burst_cpus[0]}" > "$work/plain-$run.result"
  )
  read -r seconds cpu < "$work/plain-$run.result"
  plain_times+=("$seconds") plain_cpus+=("$cpu")
  # The same files, scanned into a fresh index (bash's `time`: wall, user and system seconds
  # of the scan and its workers).
  TIMEFORMAT='%R %U %S'
  { time "$binary" scan "$root" --index "$work/scan-$run.sqlite" --no-thumbnails --priority normal >/dev/null; } 2> "$work/scan-$run.time"
  read -r seconds user system < <(tail -1 "$work/scan-$run.time")
  scan_times+=("$seconds") scan_cpus+=("$(python3 -c "print($user + $system)")")
  # What the burst costs to create with nobody watching: without `watch`, files are
  # searchable after they are all created and a scan has run.
  start=$(date +%s.%N)
  make_burst "$work/unwatched-$run"
  end=$(date +%s.%N)
  create_times+=("$(python3 -c "print($end - $start)")")
  rm -rf "$work/unwatched-$run"
done
burst=$(median "${burst_times[@]}") burst_cpu=$(median "${burst_cpus[@]}")
plain=$(median "${plain_times[@]}") plain_cpu=$(median "${plain_cpus[@]}")
scan=$(median "${scan_times[@]}") scan_cpu=$(median "${scan_cpus[@]}")
create=$(median "${create_times[@]}")

# Idle CPU over a tree of $folders folders.
python3 - "$work/idle" "$folders" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    os.makedirs(os.path.join(root, f"d{i // 100:03d}", f"sub{i % 100:02d}"), exist_ok=True)
PY
pid=$(start_watch "$work/idle" "$work/idle.sqlite")
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
before=$(cpu "$pid")
sleep "$idle"
after=$(cpu "$pid")
watches=$("$binary" status --json --index "$work/idle.sqlite" | python3 -c "import json,sys; print(json.load(sys.stdin)['domains'][0]['watch']['watchesUsed'])")
rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
kill -TERM "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
idle_cpu=$(python3 -c "print(($after - $before) / $ticks)")

# One self-check of a large tree: a watch whose first self-check comes 20 s after it starts
# (long after its first reconcile ends); its CPU from just before the check until the check
# is recorded in the index.
check_row=""
if [ -n "$check_tree" ]; then
  check_files=$(find "$check_tree" -type f | wc -l)
  # Indexed first, so that the watch's own first reconcile is a quick unchanged one.
  "$binary" scan "$check_tree" --index "$work/check.sqlite" --no-thumbnails >/dev/null
  pid=$(start_watch "$check_tree" "$work/check.sqlite" --self-check-interval 20)
  last_check() {
    "$binary" status --json --index "$work/check.sqlite" \
      | python3 -c "import json,sys; print(json.load(sys.stdin)['domains'][0]['watch'].get('lastSelfCheck') or '')"
  }
  before=$(cpu "$pid")
  until [ -n "$(last_check)" ]; do sleep 0.05; done
  after=$(cpu "$pid")
  check_cpu=$(python3 -c "print(($after - $before) / $ticks)")
  repaired=$("$binary" status --json --index "$work/check.sqlite" \
    | python3 -c "import json,sys; print(json.load(sys.stdin)['domains'][0]['watch']['selfCheckRepairs'])")
  kill -TERM "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
  check_row="| CPU of one self-check of $check_files files (repaired: $repaired), including the idle wait before it | $(printf %.2f "$check_cpu") s | every 10 minutes: $(python3 -c "print(f'{$check_cpu / 600 * 100:.3f}')") % of a core | — | cheap |"
fi

table=$(cat <<TABLE
| measure | searchlight | reference | ratio | target |
|---|---|---|---|---|
| burst of $files creations under \`watch\`, from the first creation until all searchable (median of $runs; "backing off" logged $backoffs times) | $(printf %.2f "$burst") s | \`scan\` of the same files: $(printf %.2f "$scan") s | $(python3 -c "print(f'{$burst / $scan:.2f}')") | ≤ 1 |
| the same, CPU time of the watch and its workers against the scan's | $(printf %.2f "$burst_cpu") s | $(printf %.2f "$scan_cpu") s | $(python3 -c "print(f'{$burst_cpu / $scan_cpu:.2f}')") | (context) |
| the same burst with \`backoff = false\`: time, CPU | $(printf %.2f "$plain") s, $(printf %.2f "$plain_cpu") s | $(printf %.2f "$scan") s, $(printf %.2f "$scan_cpu") s | $(python3 -c "print(f'{$plain / $scan:.2f}, {$plain_cpu / $scan_cpu:.2f}')") | (context) |
| the same, against creating them unwatched and then scanning | $(printf %.2f "$burst") s | creating them ($(printf %.2f "$create") s) + \`scan\`: $(python3 -c "print(f'{$create + $scan:.2f}')") s | $(python3 -c "print(f'{$burst / ($create + $scan):.2f}')") | (context) |
| CPU of an idle \`watch\` over $folders folders ($watches watches, $(( rss / 1024 )) MB resident) during $idle s | $(printf %.3f "$idle_cpu") s | — | — | ≈ 0 |
$check_row
TABLE
)
echo "$table"
[ -z "$markdown" ] || echo "$table" > "$markdown"
