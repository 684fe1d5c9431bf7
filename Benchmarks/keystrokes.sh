#!/usr/bin/env bash
# Search as a person types it (issue 47, Docs/Contract.md#performance-targets: p95 ≤ 50 ms, worst
# ≤ 200 ms, from one letter on), side by side with plocate and Recoll on the same files, in one run.
#
#   Benchmarks/keystrokes.sh [--bin DIR] [--files N] [--documents DIR] [--no-recoll] [--postgres] [--words N] [--quick]
#
# Two trees, each indexed with content (no thumbnails) by searchlight, by updatedb.plocate and by
# recollindex:
#   - the benchmark's generated home tree (make_tree.py, N files, default 10 000: names of a
#     person's documents, texts of Zipf-distributed words);
#   - a copy of DIR (default /usr/share/doc: real READMEs, changelogs, HTML manuals, PDFs).
# Then Benchmarks/keystrokes.py types 20 words of each tree letter by letter, and 10 two-word
# queries, through the CLI (`search --limit 20` and `--count`), the JSON API of `serve` and the
# desktop's provider on a private dbus-daemon, against `plocate -i` and `recollq`. With
# --postgres, the copy of DIR is also indexed in a throwaway PostgreSQL cluster and typed again.
# --quick (what CI prints, never asserted): the generated tree alone, 2 000 files, 10 words, no Recoll.
#
# As a user gets it: `make install` into Benchmarks/work/install (or --bin DIR: the folder of an
# installed searchlight, searchlight-serve and searchlight-extractor). Everything it makes goes
# to Benchmarks/work/typing/ (trees and indexes are reused while their file count holds); the
# tables go to standard output and Benchmarks/work/typing/typing.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$repo/Benchmarks/work/typing
export PATH="$PATH:/usr/sbin:/sbin"   # updatedb.plocate
bin="" files=10000 documents=/usr/share/doc recoll=1 postgres=0 words=20 quick=0
while (($#)); do
  case $1 in
    --bin) bin=$(cd "$2" && pwd); shift 2 ;;
    --files) files=$2; shift 2 ;;
    --documents) documents=$2; shift 2 ;;
    --words) words=$2; shift 2 ;;
    --no-recoll) recoll=0; shift ;;
    --postgres) postgres=1; shift ;;
    --quick) quick=1 files=2000 words=10 recoll=0; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "keystrokes.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
  esac
done
[[ "$files" =~ ^[1-9][0-9]*$ ]] || { echo "keystrokes.sh: --files wants a positive number" >&2; exit 64; }
[ -d "$documents" ] || { echo "keystrokes.sh: --documents: '$documents' is not a folder" >&2; exit 64; }
missing=()
for tool in python3 plocate updatedb.plocate dbus-daemon; do command -v "$tool" >/dev/null || missing+=("$tool"); done
((recoll == 0)) || for tool in recollindex recollq; do command -v "$tool" >/dev/null || missing+=("$tool"); done
/usr/bin/python3 -c "import gi" 2>/dev/null || missing+=("python3-gi")
((${#missing[@]} == 0)) || { echo "keystrokes.sh: missing ${missing[*]} (make setup installs them)" >&2; exit 1; }
mkdir -p "$work"
: > "$work/typing.md"

if [ -z "$bin" ]; then
  echo "installing searchlight (make install PREFIX=Benchmarks/work/install)…" >&2
  (cd "$repo" && make install PREFIX="$repo/Benchmarks/work/install") >"$work/install.log" 2>&1 \
    || { tail -20 "$work/install.log" >&2; exit 1; }
  bin=$repo/Benchmarks/work/install/bin
fi

# Indexes TREE as NAME with searchlight, plocate and (unless --no-recoll) Recoll, once; a kept
# index is rescanned.
prepare() {
  local name=$1 tree=$2 count
  count=$(find "$tree" -type f | wc -l)
  if [ "$(cat "$work/$name.count" 2>/dev/null)" != "$count $recoll" ]; then
    rm -rf "$work/$name.sqlite"* "$work/$name.plocate.db" "$work/$name.recoll"
    echo "indexing $name ($count files)…" >&2
    "$bin/searchlight" scan "$tree" --no-thumbnails --index "$work/$name.sqlite" >&2
    updatedb.plocate -U "$tree" -o "$work/$name.plocate.db" --require-visibility no
    if ((recoll)); then
      mkdir -p "$work/$name.recoll"
      printf 'topdirs = %s\nloglevel = 1\n' "$tree" > "$work/$name.recoll/recoll.conf"
      recollindex -c "$work/$name.recoll" >/dev/null 2>&1
    fi
    echo "$count $recoll" > "$work/$name.count"
  else
    # Kept from an earlier run: brought to this build's schema (a read-only `serve` refuses an
    # index an older Searchlight wrote) by an unchanged rescan, which reads nothing again.
    "$bin/searchlight" scan "$tree" --no-thumbnails --index "$work/$name.sqlite" >&2
  fi
}

# Types the words of TREE against INDEX.
type_words() {
  local label=$1 tree=$2 index=$3 name=$4
  local references=(--plocate-db "$work/$name.plocate.db")
  ((recoll == 0)) || references+=(--recoll-conf "$work/$name.recoll")
  /usr/bin/python3 "$repo/Benchmarks/keystrokes.py" --bin "$bin" --index "$index" --tree "$tree" --words "$words" \
    --surfaces "${surfaces:-cli,count,api,desktop}" \
    --label "$label" --markdown "$work/typing.md" "${references[@]}"
}

home=$work/home-$files
if [ "$(cat "$home/.files" 2>/dev/null)" != "$files" ]; then
  rm -rf "$home"
  python3 "$repo/Benchmarks/make_tree.py" --files "$files" --seed 42 "$home" >&2
  echo "$files" > "$home/.files"
fi
doc=$work/doc
if ((!quick)) && [ ! -d "$doc" ]; then
  cp -a "$documents" "$doc.partial" 2>/dev/null || cp -r "$documents" "$doc.partial"
  mv "$doc.partial" "$doc"
fi

prepare "home-$files" "$home"
type_words "generated home, $files files, SQLite" "$home" "$work/home-$files.sqlite" "home-$files"
if ((quick)); then echo "tables: $work/typing.md" >&2; exit 0; fi
prepare doc "$doc"
type_words "copy of $documents, $(cut -d" " -f1 "$work/doc.count") files, SQLite" "$doc" "$work/doc.sqlite" doc

if ((postgres)); then
  cluster=$(mktemp -d -u /tmp/searchlight-typing-pg-XXXXXX)
  eval "$("$repo/Tests/Scripts/postgres-cluster.sh" start "$cluster" $$)"
  trap '"$repo/Tests/Scripts/postgres-cluster.sh" stop "$cluster" >/dev/null 2>&1 || true' EXIT
  url="postgres://searchlight:$(cat "$cluster/password")@127.0.0.1:$PGPORT/postgres"
  echo "indexing the copy of $documents in PostgreSQL…" >&2
  "$bin/searchlight" scan "$doc" --no-thumbnails --index "$url" >&2
  # The page of a shared index signs each person in with their database role; on loopback
  # keystrokes.py reads it as the URL's role (--no-sign-in), as the CLI does
  # (Benchmarks/postgres.sh measures it signed in).
  type_words "copy of $documents, PostgreSQL" "$doc" "$url" doc
fi
echo "tables: $work/typing.md" >&2
