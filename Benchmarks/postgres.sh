#!/usr/bin/env bash
# The shared index on PostgreSQL against the SQLite index (Benchmarks/PostgresBench):
# starts a throwaway cluster (Tests/Scripts/postgres-cluster.sh, 127.0.0.1 only), creates a
# database, runs postgres-bench on it, and stops the cluster whatever happens.
#
#   Benchmarks/postgres.sh [ITEMS] [debug|release]     (default: 100000 items, release)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
items=${1:-100000}
configuration=${2:-release}
work="$repo/Benchmarks/work"
mkdir -p "$work"
. "$repo/Benchmarks/Support/throwaway-postgres.sh"
throwaway_postgres postgres
bench_psql -d postgres -c "CREATE DATABASE bench"
(cd "$repo" && swift build -c "$configuration" --product postgres-bench) >"$work/postgres-bench-build.log" 2>&1 \
  || { tail -n 20 "$work/postgres-bench-build.log" >&2; exit 1; }
"$(cd "$repo" && swift build -c "$configuration" --show-bin-path)/postgres-bench" \
  --url "postgres://$PGUSER@127.0.0.1:$PGPORT/bench?sslmode=disable" --items "$items" \
  --sqlite "$work/postgres-bench.sqlite"
