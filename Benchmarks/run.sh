#!/usr/bin/env bash
# The Searchlight benchmark: searchlight side by side with reference tools on the same tree,
# in one run, as medians of several runs, compared with the targets of Docs/Contract.md#performance-targets.
# See Benchmarks/README.md for what each row means.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
work="$here/work"
export PATH="$PATH:/usr/sbin:/sbin"   # updatedb.plocate lives in /usr/sbin

usage() {
    cat <<'EOF'
usage: Benchmarks/run.sh [options]

Builds searchlight in release mode, generates (or reuses) a tree of mixed files, and measures
searchlight against `file`, `updatedb.plocate` and `plocate` on the same tree.

  --full              the whole benchmark (Docs/Contract.md#performance-targets): generated trees of 1 000 000 and 100 000 files
                      (memory must stay flat between them), /usr/share, a documents folder,
                      thumbnails vs vipsthumbnail, a burst under watch, in-process search at 1 M
  --documents DIR     the folder of real documents --full measures (default /usr/share/doc)
  --files N           files in the generated tree (default 50000)
  --seed N            seed of the generated tree (default 42)
  --tree DIR          benchmark an existing folder instead of a generated tree
  --with-usr-share    also benchmark /usr/share
  --runs N            timed runs per measure, the median is reported (default 5, at least 3)
  --words "W1 W2"     search words (default: words that occur often, sometimes and rarely)
  --quick             a small tree (2000 files) and 3 runs: a fast regression guard for CI
  --markdown FILE     also write the result table as Markdown to FILE
  --searchlight BIN   use this searchlight binary instead of building one
  -h, --help          this help

Everything it creates goes to Benchmarks/work/ (git-ignored): trees are kept and reused,
each run's raw hyperfine JSON, logs and table go to Benchmarks/work/results/DATE/.
EOF
}

die() { echo "run.sh: $*" >&2; exit 1; }
usage_error() { echo "run.sh: $*" >&2; echo "try 'Benchmarks/run.sh --help'" >&2; exit 64; }
is_count() { [[ "$1" =~ ^[1-9][0-9]*$ ]]; }

files="" seed=42 tree="" with_usr_share=0 runs="" words="" quick=0 markdown="" bin="" full=0
documents=/usr/share/doc
while (($#)); do
    case "$1" in
        --files|--seed|--tree|--runs|--words|--markdown|--searchlight|--documents)
            (($# >= 2)) || usage_error "$1 needs a value"
            case "$1" in
                --files) files="$2" ;; --seed) seed="$2" ;; --tree) tree="$2" ;; --runs) runs="$2" ;;
                --words) words="$2" ;; --markdown) markdown="$2" ;; --searchlight) bin="$2" ;;
                --documents) documents="$2" ;;
            esac
            shift 2 ;;
        --with-usr-share) with_usr_share=1; shift ;;
        --full) full=1; with_usr_share=1; shift ;;
        --quick) quick=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage_error "unknown option '$1'" ;;
    esac
done
if ((quick)); then files="${files:-2000}"; runs="${runs:-3}"; fi
files="${files:-50000}"
runs="${runs:-5}"
is_count "$files" || usage_error "--files wants a positive number, not '$files'"
is_count "$runs" && ((runs >= 3)) || usage_error "--runs wants a number of at least 3, not '$runs'"
[[ "$seed" =~ ^[0-9]+$ ]] || usage_error "--seed wants a number, not '$seed'"
[[ -z "$tree" || -d "$tree" ]] || usage_error "--tree: '$tree' is not a folder"
((!full)) || [[ -d "$documents" ]] || usage_error "--documents: '$documents' is not a folder"
((!full || !quick)) || usage_error "--full and --quick exclude each other"
search_runs=$((runs * 4 > 20 ? runs * 4 : 20))

# --- Tools ------------------------------------------------------------------------------------
missing=()
for tool in python3 hyperfine plocate updatedb.plocate file; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[[ -x /usr/bin/time ]] || missing+=("/usr/bin/time")
[[ -n "$bin" ]] || command -v swift >/dev/null || missing+=("swift")
if ((${#missing[@]})); then
    die "missing: ${missing[*]}. Install with: sudo apt-get install hyperfine plocate file time python3 (and a Swift toolchain to build)"
fi

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
results="$work/results/$stamp"
mkdir -p "$results"
log="$results/run.log"
: >"$log"
say() { echo "$*" >&2; echo "$*" >>"$log"; }

# --- Build ------------------------------------------------------------------------------------
if [[ -z "$bin" ]]; then
    # As a user gets it: `make install` (release, Swift runtime linked statically: 2 ms less to
    # start than dynamic linking) into a prefix of the benchmark's own.
    say "installing searchlight (make install PREFIX=$work/install)…"
    if ! (cd "$repo" && make install PREFIX="$work/install") >>"$log" 2>&1; then
        tail -n 25 "$log" >&2
        die "make install failed (full log: $log)"
    fi
    bin="$work/install/bin/searchlight"
fi
[[ -x "$bin" ]] || die "no searchlight executable at $bin"
bin="$(realpath "$bin")"

# The floor under a search's start-up (Benchmarks/StartupFloor): linked as `searchlight` is,
# stripped and without a run path as `make install` installs it, with the ICU data beside it. Needs the toolchain.
floor=""
if command -v swift >/dev/null; then
    say "building startup-floor…"
    floor="$work/floor/startup-floor"
    if ! (cd "$repo" && swift build -c release --static-swift-stdlib --product startup-floor \
            && mkdir -p "$work/floor" \
            && strip --remove-section=.comment --remove-section=.note --strip-unneeded \
                -o "$floor" "$(swift build -c release --static-swift-stdlib --show-bin-path)/startup-floor" \
            && patchelf --remove-rpath "$floor" \
            && ./Packaging/foundation-icu-data "$work/floor") >>"$log" 2>&1; then
        tail -n 25 "$log" >&2
        die "building startup-floor failed (full log: $log)"
    fi
fi

# --- Trees ------------------------------------------------------------------------------------
# Each tree: a label, its root, and its search words. The label goes into the table.
labels=() roots=() tree_words=()
if [[ -n "$tree" ]]; then
    labels+=("tree $(realpath "$tree")")
    roots+=("$(realpath "$tree")")
    tree_words+=("${words:-readme report 2024}")
else
    # The stamp records the generator that made a tree, so an outdated tree is remade.
    generator_id="$(sha256sum "$here/make_tree.py" | cut -c1-16)"
    generate() {
        local count="$1" generated="$work/tree-$1-seed$seed"
        if [[ "$(cat "$generated.done" 2>/dev/null)" != "$generator_id" ]]; then
            rm -rf "$generated" "$generated.done"
            say "generating $count files (seed $seed) in $generated…"
            # A fixed hash seed: the same seed makes the same tree on every run.
            PYTHONHASHSEED=0 python3 "$here/make_tree.py" --files "$count" --seed "$seed" "$generated" 2>>"$log" \
                || die "generating the tree failed (log: $log)"
            echo "$generator_id" >"$generated.done"
        else
            say "reusing $generated"
        fi
        labels+=("generated tree, $count files, seed $seed")
        roots+=("$generated")
        tree_words+=("${words:-report resume 2024 xylophone zqx}")
    }
    if ((full)); then
        generate 1000000
        generate 100000
    else
        generate "$files"
    fi
fi
if ((with_usr_share)); then
    labels+=("/usr/share")
    roots+=("/usr/share")
    tree_words+=("${words:-readme copyright icon}")
fi
if ((full)); then
    labels+=("documents $(realpath "$documents")")
    roots+=("$(realpath "$documents")")
    tree_words+=("${words:-readme license index}")
fi

# Quotes a word for hyperfine's command lines (POSIX shell quoting, which hyperfine also
# understands when it splits a command without a shell).
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# hyperfine with our defaults; on failure shows its output and stops.
bench() {
    local name="$1"; shift
    if ! hyperfine --style basic --export-json "$name.json" "$@" >"$name.log" 2>&1; then
        tail -n 20 "$name.log" >&2
        die "a benchmarked command failed (log: $name.log)"
    fi
}

# Drops files from the page cache (written out first), as after a reboot: the searches' own
# page faults read them back during hyperfine's warm-up runs. How an executable came into the
# cache moves a search by a fifth: written in one piece (as `patchelf` writes it at install)
# it is cached in large folios, which a fault maps more of at once, and a search of it starts
# about 0.3 ms sooner than of the same file read back by faults (Benchmarks/README.md, "Every
# function a search runs placed together"). Both sides are timed as after a reboot.
evict() {
    python3 - "$@" <<'PYTHON'
import os, sys
for path in sys.argv[1:]:
    descriptor = os.open(path, os.O_RDONLY)
    os.fsync(descriptor)
    os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(descriptor)
PYTHON
}

# --- Measures -----------------------------------------------------------------------------------
machine="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)"
{
    echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
    echo "cpu=${machine:-unknown}, $(nproc) cores"
    echo "memory=$(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo)"
    echo "tools=$(file --version | head -n1), plocate $(plocate --version | head -n1 | awk '{print $2}'), $(hyperfine --version)"
    echo "runs=$runs"
    echo "search_runs=$search_runs"
    echo "binary=$bin"
} >"$results/run.env"

for i in "${!roots[@]}"; do
    label="${labels[$i]}" root="${roots[$i]}"
    d="$results/tree$i"
    mkdir -p "$d"
    say ""
    say "== $label ($root)"

    # The same files searchlight indexes (Docs/Contract.md#what-is-indexed): regular files, no symlinks, hidden names
    # skipped, same file system only. `file -f` reads one name per line.
    find "$root" -xdev -mindepth 1 \( -name '.*' -prune \) -o -type f -print >"$d/files.txt" 2>>"$log" || true
    count="$(wc -l <"$d/files.txt")"
    ((count > 0)) || die "no files under $root"
    folders="$(find "$root" -xdev -mindepth 1 \( -name '.*' -prune \) -o -type d -print 2>/dev/null | wc -l)"
    bytes="$(du -sb --apparent-size "$root" 2>/dev/null | cut -f1)"

    fresh="$d/fresh.sqlite" index="$d/index.sqlite" db="$d/plocate.db"
    clean_fresh="rm -f $(q "$fresh") $(q "$fresh-wal") $(q "$fresh-shm")"

    # Reads every file once, so that the first timed run finds them in the page cache as the
    # others do (no warm-up run: on a million files it would cost ten minutes).
    say "(a) warming the page cache…"
    tr '\n' '\0' <"$d/files.txt" | xargs -0 cat -- >/dev/null 2>&1 || true

    # Every timed run goes through GNU time, which appends its peak resident set size (KB).
    say "(a) first scan vs file --mime-type, $runs runs, peak memory of each…"
    rm -f "$d/scan-rss.txt" "$d/file-rss.txt"
    rss() { echo "/usr/bin/time -f %M -a -o $(q "$1")"; }
    bench "$d/first-scan" --runs "$runs" \
        --prepare "$clean_fresh" -n "searchlight scan" \
        "$(rss "$d/scan-rss.txt") $(q "$bin") scan $(q "$root") --index $(q "$fresh") --no-thumbnails --no-content --priority normal" \
        --prepare "true" -n "file" "$(rss "$d/file-rss.txt") file --mime-type -b -f $(q "$d/files.txt")"

    # The index of the last timed run.
    index_bytes=$(( $(stat -c %s "$fresh") + $(stat -c %s "$fresh-wal" 2>/dev/null || echo 0) ))
    items="$("$bin" list --index "$fresh" --count 2>/dev/null | tr -dc '0-9')" || items="?"

    say "(a) what libmagic says of a sample of the files, vs what the index holds…"
    python3 "$here/agreement.py" --files "$d/files.txt" --searchlight "$bin" --index "$fresh" \
        --sample 2000 --out "$d/agreement" 2>>"$log" || die "the agreement check failed (log: $log)"

    say "(b) unchanged rescan vs updatedb.plocate, $runs runs…"
    # The warm-up run makes the index and the plocate database; the timed runs find nothing new.
    rm -f "$index" "$index-wal" "$index-shm" "$db"
    bench "$d/rescan" --runs "$runs" --warmup 1 \
        -n "searchlight scan (unchanged)" "$(q "$bin") scan $(q "$root") --index $(q "$index") --no-thumbnails --no-content --priority normal" \
        -n "updatedb.plocate" "updatedb.plocate -U $(q "$root") -o $(q "$db") --require-visibility no"
    db_bytes="$(stat -c %s "$db")"

    evict "$bin" "$(command -v plocate)" ${floor:+"$floor"}
    j=0
    for word in ${tree_words[$i]}; do
        say "(c) search '$word' vs plocate -i, $search_runs runs…"
        # --ignore-failure: plocate exits 1 when nothing matches, which a rare word may do.
        bench "$d/search-$j" -N --ignore-failure --runs "$search_runs" --warmup 3 \
            -n "searchlight search $word" "$(q "$bin") search $(q "$word") --index $(q "$index")" \
            -n "plocate -i $word" "plocate -d $(q "$db") -i $(q "$word")"
        hits="$("$bin" search "$word" --index "$index" --count 2>/dev/null | tr -dc '0-9')" || hits=""
        phits="$(plocate -d "$db" -i -c "$word" 2>/dev/null)" || phits=""
        echo "$word ${hits:-?} ${phits:-?}" >>"$d/search-words.txt"
        j=$((j + 1))
    done

    if [[ -n "$floor" ]]; then
        say "(d) the start-up floor vs plocate -i xylophone, $search_runs runs…"
        # Each step once first: hyperfine's --ignore-failure (for plocate, which exits 1 when
        # nothing matches) would hide a step that fails.
        for step in exit sqlite grdb searchable; do
            "$floor" "$step" "$index" >>"$log" 2>&1 || die "startup-floor $step failed (log: $log)"
        done
        bench "$d/floor" -N --ignore-failure --runs "$search_runs" --warmup 3 \
            -n "startup-floor exit" "$(q "$floor") exit" \
            -n "startup-floor sqlite" "$(q "$floor") sqlite $(q "$index")" \
            -n "startup-floor grdb" "$(q "$floor") grdb $(q "$index")" \
            -n "startup-floor searchable" "$(q "$floor") searchable $(q "$index")" \
            -n "plocate -i xylophone" "plocate -d $(q "$db") -i xylophone"
    fi

    {
        echo "label=$label"
        echo "root=$root"
        echo "files=$count"
        echo "folders=$folders"
        echo "bytes=$bytes"
        echo "items=$items"
        echo "scan_rss_kb=$(sort -n "$d/scan-rss.txt" | tail -n1)"
        echo "file_rss_kb=$(sort -n "$d/file-rss.txt" | tail -n1)"
        echo "index_bytes=$index_bytes"
        echo "plocate_db_bytes=$db_bytes"
    } >"$d/tree.env"
done

if ((full)); then
    say ""
    say "(e) thumbnails vs vipsthumbnail, $runs runs…"
    (cd "$repo" && "$here/thumbnails.sh" --runs "$runs" --markdown "$results/thumbnails.md") >"$results/thumbnails.log" 2>&1 \
        || { tail -n 20 "$results/thumbnails.log" >&2; die "the thumbnail benchmark failed"; }
    say "(f) a burst of 10 000 creations under watch vs scan, $runs runs…"
    (cd "$repo" && "$here/watch.sh" --runs "$runs" --searchlight "$bin" --markdown "$results/watch.md") >"$results/watch.log" 2>&1 \
        || { tail -n 20 "$results/watch.log" >&2; die "the watch benchmark failed"; }
    say "(g) in-process search and queries at 1 000 000 items…"
    (cd "$repo" && swift build -c release --static-swift-stdlib --product query-bench) >>"$log" 2>&1 \
        || die "building query-bench failed (log: $log)"
    "$(cd "$repo" && swift build -c release --show-bin-path)/query-bench" --items 1000000 \
        --index "$work/query-1M.sqlite" --repeats 50 >"$results/in-process.log" 2>&1 \
        || { tail -n 20 "$results/in-process.log" >&2; die "query-bench failed"; }
    grep '^|' "$results/in-process.log" >"$results/in-process.md"
fi

say ""
python3 "$here/report.py" "$results" >"$results/table.md"
cat "$results/table.md"
if [[ -n "$markdown" ]]; then
    cp "$results/table.md" "$markdown"
    say "wrote $markdown"
fi
say "raw results: $results"
