#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks, on 127.0.0.1 only.
#
#   postgres-cluster.sh start DIR [OWNER_PID]   creates and starts a cluster in DIR (which must
#                                               not exist), prints shell assignments:
#                                               PGPORT=…, PGUSER=…, SEARCHLIGHT_TEST_POSTGRES_URL=…
#                                               With OWNER_PID, a watchdog stops the cluster and
#                                               deletes DIR when that process ends (a crashed test).
#   postgres-cluster.sh stop DIR                stops it and deletes DIR.
#   postgres-cluster.sh halt DIR                stops the server (pg_ctl stop -m fast: sessions
#                                               are ended), keeping DIR: a database that goes away.
#   postgres-cluster.sh resume DIR              starts the halted server again, on its port.
#   postgres-cluster.sh bindir                  prints the folder of initdb and pg_ctl, or fails.
#
# initdb and pg_ctl refuse to run as root: as root, the cluster belongs to `nobody`. The
# superuser `searchlight` has a password (in DIR/password) for TCP connections, which is how
# the tests connect; the socket lives in DIR/socket, never in /run/postgresql.
set -euo pipefail

bindir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  echo "postgres-cluster: no PostgreSQL server binaries (apt-get install postgresql postgresql-contrib)" >&2
  return 1
}

# Runs a command as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local dir=$1 owner=${2:-} bin port
  bin=$(bindir)
  mkdir -m 0700 "$dir"
  mkdir -m 0700 "$dir/socket"
  (umask 077; head -c 18 /dev/urandom | base64 | tr -d "/+=" > "$dir/password")
  [ "$(id -u)" -eq 0 ] && chown -R nobody:nogroup "$dir"
  as_owner "$bin/initdb" -D "$dir/data" --username=searchlight --pwfile="$dir/password" \
    --auth-local=trust --auth-host=scram-sha-256 --no-sync --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  # A port taken between the check and the start makes pg_ctl fail: try a few.
  local attempt
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/socket -c fsync=off -c max_connections=200" \
        start >/dev/null 2>&1; then
      break
    fi
    port=""
  done
  if [ -z "$port" ]; then
    echo "postgres-cluster: the server did not start; its log:" >&2
    cat "$dir/server.log" >&2 || true
    exit 1
  fi
  echo "$port" > "$dir/port"
  if [ -n "$owner" ]; then
    # Stops the cluster when the owner ends, whatever way it ends.
    nohup setsid bash -c '
      while kill -0 "$1" 2>/dev/null && [ -d "$2/data" ]; do sleep 1; done
      exec "$3" stop "$2"' watchdog "$owner" "$dir" "$(readlink -f "$0")" >/dev/null 2>&1 < /dev/null &
  fi
  echo "PGHOST=127.0.0.1"
  echo "PGPORT=$port"
  echo "PGUSER=searchlight"
  echo "PGPASSFILE_PLAIN=$dir/password"
  echo "SEARCHLIGHT_TEST_POSTGRES_URL=postgres://searchlight@127.0.0.1:$port/postgres"
}

stop() {
  local dir=$1 bin
  [ -d "$dir" ] || return 0
  bin=$(bindir)
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 60 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

halt() {
  local dir=$1
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
}

resume() {
  local dir=$1 port
  port=$(cat "$dir/port")
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/socket -c fsync=off -c max_connections=200" \
    start >/dev/null
}

case "${1:-}" in
  start) [ $# -ge 2 ] || { echo "usage: $0 start DIR [OWNER_PID]" >&2; exit 64; }; start "$2" "${3:-}" ;;
  stop) [ $# -eq 2 ] || { echo "usage: $0 stop DIR" >&2; exit 64; }; stop "$2" ;;
  halt) [ $# -eq 2 ] || { echo "usage: $0 halt DIR" >&2; exit 64; }; halt "$2" ;;
  resume) [ $# -eq 2 ] || { echo "usage: $0 resume DIR" >&2; exit 64; }; resume "$2" ;;
  bindir) bindir ;;
  *) echo "usage: $0 start DIR [OWNER_PID] | stop DIR | halt DIR | resume DIR | bindir" >&2; exit 64 ;;
esac
