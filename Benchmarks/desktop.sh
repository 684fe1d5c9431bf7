#!/usr/bin/env bash
# The desktop's search provider through a real dbus-daemon (Docs/Contract.md#performance-targets: GetInitialResultSet at
# 100 000 items, p95 ≤ 15 ms).
#
#   Benchmarks/desktop.sh [--items N] [--rounds R] [--bin DIR]
#
# Builds searchlight-desktop and query-bench in release mode, makes an index of N synthetic
# items with query-bench (reused while it has N items, shared with serve.sh's), starts a
# private session bus whose .service file activates the release searchlight-desktop on that
# index, and times round trips from a client on the bus (desktop-client.py, GLib's GDBus
# through PyGObject, one connection, synchronous calls): GetInitialResultSet for each prefix a
# person types (r, re, rep, … of a few words), R rounds, then GetResultMetas of the first five
# results as GNOME Shell asks next. Prints p50 and p95 of each, and the service's CPU time per
# call (from /proc), which does not depend on what else the machine runs. --bin DIR takes
# searchlight-serve (started as searchlight-desktop, a link made beside it) and query-bench
# from DIR instead of building them.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$repo/Benchmarks/work/desktop
items=100000 rounds=20 bin=""
while [ $# -gt 0 ]; do
  case $1 in
    --items) items=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --bin) bin=$(cd "$2" && pwd); shift 2 ;;
    *) echo "usage: $0 [--items N] [--rounds R] [--bin DIR]" >&2; exit 64 ;;
  esac
done
for tool in dbus-daemon /usr/bin/python3; do
  command -v $tool >/dev/null || { echo "missing $tool: sudo apt-get install dbus python3-gi" >&2; exit 1; }
done
/usr/bin/python3 -c 'import gi' 2>/dev/null || { echo "missing PyGObject: sudo apt-get install python3-gi" >&2; exit 1; }
mkdir -p "$work"
if [ -z "$bin" ]; then
  for product in searchlight-serve query-bench; do
    (cd "$repo" && swift build -c release --static-swift-stdlib --product $product >>"$work/build.log" 2>&1) \
      || { tail -20 "$work/build.log" >&2; exit 1; }
  done
  bin=$(cd "$repo" && swift build -c release --show-bin-path)
  "$repo/Packaging/foundation-icu-data" "$repo/.build/release"   # the ICU data the release executables share
fi
# searchlight-desktop is searchlight-serve started by that name, as installed.
# (Replacing whatever is there: an executable of that name from before the link is stale.)
ln -sfn searchlight-serve "$bin/searchlight-desktop"

index=$repo/Benchmarks/work/serve/search-$items.sqlite
mkdir -p "$(dirname "$index")"
"$bin/query-bench" --items "$items" --index "$index" --repeats 1 >"$work/query-bench.log"

bus=$(mktemp -d)
daemon_pid=""
cleanup() { [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null; rm -rf "$bus"; true; }
trap cleanup EXIT
mkdir -p "$bus/services"
sed "s|@BINDIR@|$bin|" "$repo/Examples/desktop/org.searchlight.Desktop.service" >"$bus/services/org.searchlight.Desktop.service"
cat >"$bus/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$bus</listen>
  <servicedir>$bus/services</servicedir>
  <policy context="default">
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
SEARCHLIGHT_INDEX=$index XDG_CACHE_HOME=$bus/cache dbus-daemon --config-file "$bus/session.conf" --print-address=1 --nofork \
  >"$bus/address" 2>"$work/daemon.log" &
daemon_pid=$!
for _ in $(seq 1 200); do [ -s "$bus/address" ] && break; sleep 0.05; done
[ -s "$bus/address" ] || { echo "dbus-daemon did not start: $(cat "$work/daemon.log")" >&2; exit 1; }

echo "== searchlight-desktop through dbus-daemon, $items items, $rounds rounds of typed prefixes"
/usr/bin/python3 "$repo/Benchmarks/desktop-client.py" "$(head -1 "$bus/address")" "$rounds"
