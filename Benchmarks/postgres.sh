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
cluster=$(mktemp -u "${TMPDIR:-/tmp}/searchlight-bench-postgres-XXXXXX")
trap '"$repo/Tests/Scripts/postgres-cluster.sh" stop "$cluster"' EXIT
eval "$("$repo/Tests/Scripts/postgres-cluster.sh" start "$cluster" $$)"
password=$(cat "$PGPASSFILE_PLAIN")
PGPASSWORD=$password "$("$repo/Tests/Scripts/postgres-cluster.sh" bindir)/psql" -X -q -h 127.0.0.1 -p "$PGPORT" \
  -U "$PGUSER" -d postgres -c "CREATE DATABASE bench"
(cd "$repo" && swift build -c "$configuration" --product postgres-bench) >"$work/postgres-bench-build.log" 2>&1 \
  || { tail -n 20 "$work/postgres-bench-build.log" >&2; exit 1; }
PGPASSWORD=$password "$(cd "$repo" && swift build -c "$configuration" --show-bin-path)/postgres-bench" \
  --url "postgres://$PGUSER@127.0.0.1:$PGPORT/bench?sslmode=disable" --items "$items" \
  --sqlite "$work/postgres-bench.sqlite"
