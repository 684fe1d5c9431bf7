#!/usr/bin/env bash
# What per-person visibility costs on a shared index: the same searches on the same PostgreSQL
# database, asked by the writers' role (which row-level security leaves alone) and by a person
# (the policy of schema 9: the file's readers, and the folders on the way), side by side with
# hyperfine. A throwaway cluster (Tests/Scripts/postgres-cluster.sh, 127.0.0.1 only) indexes
# TREE by name (no content, no thumbnails); the person is `nobody`, a Unix user of every Debian
# machine, signed in as the database role of the same name.
#
#   Benchmarks/visibility.sh [TREE] [debug|release]     (default: /usr/share, release)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-/usr/share}
configuration=${2:-release}
work="$repo/Benchmarks/work"
mkdir -p "$work"
. "$repo/Benchmarks/Support/throwaway-postgres.sh"
throwaway_postgres visibility
bench_psql -d postgres -c "CREATE DATABASE bench" -c "CREATE ROLE nobody LOGIN PASSWORD 'nobody'"
(cd "$repo" && swift build -c "$configuration" --static-swift-stdlib --product searchlight && swift build -c "$configuration" --static-swift-stdlib --product searchlight-serve) \
  >"$work/visibility-build.log" 2>&1 || { tail -n 20 "$work/visibility-build.log" >&2; exit 1; }
bin=$(cd "$repo" && swift build -c "$configuration" --show-bin-path)
if [ "$configuration" = release ]; then "$repo/Packaging/foundation-icu-data" "$repo/.build/release"; fi   # the ICU data the release executables share
writer="postgres://$PGUSER:$PGPASSWORD@127.0.0.1:$PGPORT/bench?sslmode=disable"
person="postgres://nobody:nobody@127.0.0.1:$PGPORT/bench?sslmode=disable"
SEARCHLIGHT_INDEX=$writer "$bin/searchlight" scan "$tree" --domain bench --no-content --no-thumbnails --priority normal \
  >/dev/null
items=$(bench_psql -d bench -c "SELECT count(*) FROM item")
folders=$(bench_psql -d bench -c "SELECT count(*) FROM searchlight_folder")
seen=$("$postgres_bin/psql" -X -A -t "$person" -c "SELECT count(*) FROM item")
echo "tree $tree: $items items, $folders folders; nobody sees $seen"
export SEARCHLIGHT_INDEX
for search in "readme" "png" "zzqxjv" "--count license"; do
  # shellcheck disable=SC2086
  hyperfine -N --warmup 3 --runs 30 --export-json "$work/visibility-$(echo "$search" | tr -c 'a-z' '_').json" \
    -n writer "env SEARCHLIGHT_INDEX=$writer $bin/searchlight search $search" \
    -n person "env SEARCHLIGHT_INDEX=$person $bin/searchlight search $search" 2>/dev/null \
    | grep -E "Time|±|faster" || true
  python3 - "$work/visibility-$(echo "$search" | tr -c 'a-z' '_').json" "$search" <<'EOF'
import json, sys
results = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
print(f"search {sys.argv[2]!r}: writer {results['writer'] * 1000:.1f} ms, person {results['person'] * 1000:.1f} ms, "
      f"person/writer {results['person'] / results['writer']:.2f}")
EOF
done
