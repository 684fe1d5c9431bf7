# Sourced by the PostgreSQL benchmarks: `throwaway_postgres LABEL` starts a throwaway cluster
# (Tests/Scripts/postgres-cluster.sh, 127.0.0.1 only) that is stopped when the script exits,
# exports PGHOST, PGPORT, PGUSER and PGPASSWORD (the superuser's), and defines `bench_psql ARGS…`
# (psql as that superuser, quiet, unaligned, tuples only). Needs $repo.
throwaway_postgres() {
  cluster=$(mktemp -u "${TMPDIR:-/tmp}/searchlight-bench-$1-XXXXXX")
  trap '"$repo/Tests/Scripts/postgres-cluster.sh" stop "$cluster"' EXIT
  eval "$("$repo/Tests/Scripts/postgres-cluster.sh" start "$cluster" $$)"
  PGPASSWORD=$(cat "$PGPASSFILE_PLAIN")
  export PGHOST PGPORT PGUSER PGPASSWORD
  postgres_bin=$("$repo/Tests/Scripts/postgres-cluster.sh" bindir)
}

bench_psql() { "$postgres_bin/psql" -X -q -A -t -h 127.0.0.1 -p "$PGPORT" -U "$PGUSER" "$@"; }
