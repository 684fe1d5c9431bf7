#!/usr/bin/env bash
# Finder's Spotlight on a Samba share (Docs/Guide/Finder.md): the time of an `mdsearch`
# query that Samba answers through `searchlight serve --elasticsearch`, against a share without
# an index (`spotlight backend = noindex`), on the same generated tree.
#
#   sudo Benchmarks/samba.sh [--files N] [--runs R] [--searchlight BIN]
#
# Needs root (smbd acts as the person searching), samba, smbclient and hyperfine
# (.ci/install-dependencies). It generates a tree of N files (default 100 000; make_tree.py,
# reused while it exists), indexes it with `searchlight scan`, starts `searchlight serve
# --elasticsearch` on a free loopback port, and runs its own smbd twice, each time on port 445 of
# a loopback address of its own (Samba 4.17's clients connect to port 445 only) with a private
# configuration in Benchmarks/work/samba/:
#
#  - `spotlight backend = elasticsearch`: `mdsearch` for a name (`kMDItemDisplayName=="*report*"`),
#    a word of the text, and a name and a date together, every result returned
#    (`elasticsearch:max results = 0`);
#  - `spotlight backend = noindex`: the same `mdsearch` (Samba answers at once, with nothing:
#    a Mac then searches the share itself), and that search as a client makes it: every folder
#    of the share listed over SMB, names matched (`smbclient -c 'recurse; ls *report*'`).
#
# A person `slbench` (password `slbench`) is made for the run and removed after it. Prints one
# line per measure (hyperfine's mean and standard deviation) and the ratios.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$repo/Benchmarks/work/samba
files=100000 runs=10 searchlight=""
while [ $# -gt 0 ]; do
  case $1 in
    --files) files=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --searchlight) searchlight=$2; shift 2 ;;
    *) echo "usage: $0 [--files N] [--runs R] [--searchlight BIN]" >&2; exit 64 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "run it as root: smbd changes to the person searching" >&2; exit 1; }
for tool in smbd mdsearch smbclient smbpasswd hyperfine python3; do
  command -v $tool >/dev/null || { echo "missing $tool: sudo apt-get install samba smbclient hyperfine python3" >&2; exit 1; }
done
mkdir -p "$work"
if [ -z "$searchlight" ]; then
  for product in searchlight searchlight-serve searchlight-extractor; do
    (cd "$repo" && swift build -c release --static-swift-stdlib --product $product >>"$work/build.log" 2>&1) \
      || { tail -20 "$work/build.log" >&2; exit 1; }
  done
  searchlight=$(cd "$repo" && swift build -c release --show-bin-path)/searchlight
  "$repo/Packaging/foundation-icu-data" "$repo/.build/release"   # the ICU data the release executables share
fi

tree=$work/tree-$files-42
if [ ! -d "$tree" ]; then
  rm -rf "$tree.partial"
  python3 "$repo/Benchmarks/make_tree.py" --files "$files" --seed 42 "$tree.partial" >/dev/null
  mv "$tree.partial" "$tree"
fi
chmod -R o+rX "$tree"
index=$work/index-$files.sqlite
if [ ! -f "$index" ] || [ "$tree" -nt "$index" ]; then
  rm -f "$index" "$index"-*
  start=$(date +%s.%N)
  # Names, types and text, as Samba asks for them: no thumbnails, no OCR (a second pass of its own).
  "$searchlight" scan --no-thumbnails --no-ocr --index "$index" "$tree" >"$work/scan.log" 2>&1
  echo "scan of $files files: $(echo "$(date +%s.%N) - $start" | bc) s"
fi

server_pid="" smbd_pid="" created_user=""
stop_smbd() {
  [ -n "$smbd_pid" ] || return 0
  kill "$smbd_pid" 2>/dev/null || true
  wait "$smbd_pid" 2>/dev/null || true
  smbd_pid=""
  # samba-dcerpcd and rpcd_mdssvc, which smbd started for this configuration.
  for pid in $(pgrep -f -- "--configfile=$work/smb-" || true); do kill "$pid" 2>/dev/null || true; done
}
cleanup() {
  stop_smbd
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [ -n "$created_user" ] && userdel "$created_user" 2>/dev/null
  true
}
trap cleanup EXIT

"$searchlight" serve --index "$index" --port 0 --elasticsearch 0 >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
for _ in $(seq 1 400); do
  es_port=$(grep -o 'for Samba at http://127\.0\.0\.1:[0-9]*' "$work/serve.out" | grep -o '[0-9]*$' || true)
  [ -n "$es_port" ] && break
  sleep 0.05
done
[ -n "$es_port" ] || { echo "serve did not start: $(cat "$work/serve.err")" >&2; exit 1; }

if ! id slbench >/dev/null 2>&1; then
  useradd --no-create-home --shell /usr/sbin/nologin slbench
  created_user=slbench
fi

# Writes smb-BACKEND.conf and starts smbd with it on 127.B.0.1:445; sets $address.
start_smbd() {
  local backend=$1 octet=$2
  local base=$work/smb-$backend
  address=127.$octet.0.1
  mkdir -p "$base"/{private,lock,state,cache,pid,ncalrpc,log}
  cat >"$base.conf" <<CONF
[global]
  netbios name = SLBENCH
  server role = standalone server
  interfaces = $address/8
  bind interfaces only = yes
  smb ports = 445
  disable netbios = yes
  private dir = $base/private
  lock directory = $base/lock
  state directory = $base/state
  cache directory = $base/cache
  pid directory = $base/pid
  ncalrpc dir = $base/ncalrpc
  log file = $base/log/log.%m
  log level = 0
  passdb backend = tdbsam:$base/private/passdb.tdb
  load printers = no
  printcap name = /dev/null
  disable spoolss = yes
  spotlight backend = $backend
  elasticsearch:address = 127.0.0.1
  elasticsearch:port = $es_port
  elasticsearch:max results = 0
[bench]
  path = $tree
  spotlight = yes
  read only = yes
CONF
  printf 'slbench\nslbench\n' | smbpasswd -c "$base.conf" -a -s slbench >/dev/null
  # A process group of its own: smbd signals its whole group on its way out (kill(0, SIGTERM)).
  smbd -s "$base.conf" --foreground >"$base/log/smbd.out" 2>&1 &
  smbd_pid=$!
  for _ in $(seq 1 400); do
    (exec 3<>"/dev/tcp/$address/445") 2>/dev/null && return 0
    sleep 0.05
  done
  echo "smbd did not start: $(tail -5 "$base/log/smbd.out")" >&2
  exit 1
}

# mean and standard deviation in ms of one hyperfine export
stats() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f %.1f" % (r["mean"]*1000, (r["stddev"] or 0)*1000))' "$1"; }

measure() { # NAME RUNS COMMAND: prints NAME, mean ± sd, and what it found
  local name=$1 count=$2 command=$3
  local found
  found=$(bash -c "$command" | wc -l)
  hyperfine --style none --warmup 1 --runs "$count" --export-json "$work/$name.json" "$command" >/dev/null
  read -r mean sd < <(stats "$work/$name.json")
  printf '%-28s %10.1f ms ± %6.1f   %6d results\n' "$name" "$mean" "$sd" "$found"
  eval "mean_$name=$mean"
}

# Fewer than 50 results each: Samba 4.17's mdsearch drops every result of a search that has
# more (it takes the server's "more to come", 0x23, for the end; fixed in 4.19).
name_query='kMDItemDisplayName=="*reportfamily*"'
word_query='kMDItemTextContent=="xylophone"'
both_query='kMDItemDisplayName=="*reportfamily*" && kMDItemFSContentChangeDate>$time.iso(2000-01-01T00:00:00Z)'
echo "share of $files files ($(du -sh "$tree" | cut -f1)), Samba $(smbd --version | cut -d' ' -f2), $runs runs"

start_smbd elasticsearch 201
md="mdsearch -s $work/smb-elasticsearch.conf -U slbench%slbench $address bench"
measure searchlight_name "$runs" "$md '$name_query'"
measure searchlight_word "$runs" "$md '$word_query'"
measure searchlight_name_date "$runs" "$md '$both_query'"
stop_smbd

start_smbd noindex 202
md="mdsearch -s $work/smb-noindex.conf -U slbench%slbench $address bench"
measure noindex_name "$runs" "$md '$name_query'"
crawl_runs=$(( runs < 5 ? runs : 5 ))
measure noindex_crawl_name "$crawl_runs" \
  "smbclient -s $work/smb-noindex.conf -U slbench%slbench //$address/bench -c 'recurse; ls' 2>/dev/null | grep -i 'reportfamily'"
stop_smbd

echo "ratio, a name searched by crawling the share / answered by Searchlight: $(echo "scale=1; $mean_noindex_crawl_name / $mean_searchlight_name" | bc)"
echo "(every mdsearch of Samba 4.17 sleeps 1 s before it asks for results: noindex_name, which finds nothing, is that fixed cost)"
