#!/usr/bin/env bash
# An index that keeps its size (issue 35): N small text files (default 10 000, in 100 folders,
# 40 words each) under a running `watch`, then R rounds (default 5) of deleting half of them
# and writing as many new ones; once the watch is idle, the index's files (database,
# write-ahead log and shared memory) against a fresh `scan` of the same final tree.
# Target: at most 1.2 times the fresh index.
# With --postgres, the same on a throwaway PostgreSQL cluster (Tests/Scripts/postgres-cluster.sh):
# the index is a database, measured by pg_database_size once autovacuum (PostgreSQL's own, with
# its default settings) has visited the item table after the last round, against a fresh
# `scan` into a second database.
# Usage: Benchmarks/churn.sh [--files N] [--rounds R] [--postgres] [--searchlight BIN] [--markdown FILE]
set -euo pipefail
cd "$(dirname "$0")/.."

files=10000 rounds=5 binary="" markdown="" postgres=false
while [ $# -gt 0 ]; do
  case "$1" in
    --files) files=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --searchlight) binary=$2; shift 2 ;;
    --postgres) postgres=true; shift ;;
    --markdown) markdown=$2; shift 2 ;;
    -h|--help) sed -n 2,7p "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
done
if [ -z "$binary" ]; then
  swift build -c release --static-swift-stdlib --product searchlight >/dev/null
  swift build -c release --static-swift-stdlib --product searchlight-extractor >/dev/null
  if $postgres; then swift build -c release --static-swift-stdlib --product searchlight-serve >/dev/null; fi
  Packaging/foundation-icu-data .build/release   # the ICU data the release executables share
  binary=.build/release/searchlight
fi
work=Benchmarks/work/churn
rm -rf "$work" && mkdir -p "$work/tree"
printf '[watch]\nbackoff = false\n' > "$work/watch.toml"
export SEARCHLIGHT_CONFIG="$work/watch.toml"

# Writes or deletes files: `files.py create FIRST COUNT` makes files FIRST..FIRST+COUNT-1;
# `files.py delete-half SEED` deletes half of the files there are, chosen by SEED.
cat > "$work/files.py" <<'PY'
import os, random, sys
root = sys.argv[1]
words = [f"w{n:04x}" for n in range(2000)] + "harbour lighthouse invoice contract tenancy orchard quince".split()
if sys.argv[2] == "create":
    first, count = int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(first)
    for i in range(first, first + count):
        folder = os.path.join(root, f"folder-{i % 100:03d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"note {i:06d}.txt"), "w") as f:
            f.write(" ".join(rng.choice(words) for _ in range(40)) + "\n")
else:
    rng = random.Random(int(sys.argv[3]))
    paths = sorted(os.path.join(d, n) for d, _, names in os.walk(root) for n in names)
    for path in rng.sample(paths, len(paths) // 2):
        os.remove(path)
PY
if $postgres; then
  cluster=$(mktemp -u "${TMPDIR:-/tmp}/searchlight-churn-postgres-XXXXXX")
  eval "$(Tests/Scripts/postgres-cluster.sh start "$cluster" $$)"
  export PGPASSWORD=$(cat "$PGPASSFILE_PLAIN")
  psql=$(Tests/Scripts/postgres-cluster.sh bindir)/psql
  sql() { "$psql" -X -q -A -t -h 127.0.0.1 -p "$PGPORT" -U "$PGUSER" -d "$1" -c "$2"; }
  sql postgres "CREATE DATABASE watched" && sql postgres "CREATE DATABASE fresh"
  url() { echo "postgres://$PGUSER@127.0.0.1:$PGPORT/$1?sslmode=disable"; }
  index=$(url watched) fresh_index=$(url fresh)
  database() { local name=${1##*/}; echo "${name%%\?*}"; }
  count_items() { sql "$(database "$1")" "SELECT count(*) FROM item" 2>/dev/null || echo -1; }
  index_bytes() { sql "$(database "$1")" "SELECT pg_database_size('$(database "$1")')"; }
else
  index=$work/watched.sqlite fresh_index=$work/fresh.sqlite
  count_items() {
    python3 -c "import sqlite3, sys; print(sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True, timeout=30).execute('SELECT count(*) FROM item').fetchone()[0])" "$1" 2>/dev/null || echo -1
  }
  # Bytes of the index's files.
  index_bytes() { du -cb "$1"* | tail -1 | cut -f1; }
fi
# Waits until the index holds `count` items (folders are no items).
wait_items() {
  local deadline=$((SECONDS + 600))
  until [ "$(count_items "$1")" = "$2" ]; do
    [ $SECONDS -lt $deadline ] || { echo "timed out waiting for $2 items" >&2; exit 1; }
    sleep 0.05
  done
}
# Waits until the index keeps one size for 3 s (the watch is idle, its upkeep done).
wait_settled() {
  local last=-1 same=0 size
  while [ $same -lt 30 ]; do
    size=$(index_bytes "$1")
    if [ "$size" = "$last" ]; then same=$((same + 1)); else same=0 last=$size; fi
    sleep 0.1
  done
}

python3 "$work/files.py" "$work/tree" create 0 "$files"
"$binary" watch "$work/tree" --index "$index" --no-thumbnails --priority normal > /dev/null 2> "$work/watch.log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true' EXIT
wait_items "$index" "$files"
wait_settled "$index"
sizes=("$(index_bytes "$index")")
next=$files
for round in $(seq "$rounds"); do
  python3 "$work/files.py" "$work/tree" delete-half "$round"
  wait_items "$index" $((files - files / 2))
  python3 "$work/files.py" "$work/tree" create "$next" $((files / 2))
  next=$((next + files / 2))
  wait_items "$index" "$files"
  wait_settled "$index"
  sizes+=("$(index_bytes "$index")")
  echo "round $round: index files $(( ${sizes[-1]} / 1024 )) KiB" >&2
done
kill -TERM $pid; while kill -0 $pid 2>/dev/null; do sleep 0.05; done
trap - EXIT
if $postgres; then
  # PostgreSQL's autovacuum (default settings: a table's dead rows past 20 % of it, looked at
  # every minute) marks the dead rows' space for reuse; it does not give it back.
  after=$(sql watched "SELECT now()") deadline=$((SECONDS + 300))
  until [ "$(sql watched "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'item' AND last_autovacuum > '$after'")" = 1 ]; do
    [ $SECONDS -lt $deadline ] || { echo "autovacuum did not visit the item table in 5 minutes" >&2; break; }
    sleep 1
  done
fi
churned=$(index_bytes "$index")
"$binary" scan "$work/tree" --index "$fresh_index" --no-thumbnails --priority normal > /dev/null
fresh=$(index_bytes "$fresh_index")
if $postgres; then Tests/Scripts/postgres-cluster.sh stop "$cluster"; fi
ratio=$(python3 -c "print(f'{$churned / $fresh:.2f}')")
backend=$($postgres && echo PostgreSQL || echo SQLite)
table="| index size after churn ($backend, $files files) | watched: $((churned / 1024)) KiB after $rounds rounds (start $(( ${sizes[0]} / 1024 )) KiB; rounds: $(printf '%s ' "${sizes[@]:1}" | python3 -c "import sys; print(', '.join(str(int(x) // 1024) for x in sys.stdin.read().split()))") KiB) | fresh \`scan\`: $((fresh / 1024)) KiB | $ratio | ≤ 1.2 |"
echo "$table"
[ -z "$markdown" ] || echo "$table" > "$markdown"
