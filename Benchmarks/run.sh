#!/usr/bin/env bash
# The Searchlight benchmark: searchlight side by side with reference tools on the same tree,
# in one run, as medians of several runs, compared with the targets of SPEC §6.
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

files="" seed=42 tree="" with_usr_share=0 runs="" words="" quick=0 markdown="" bin=""
while (($#)); do
    case "$1" in
        --files|--seed|--tree|--runs|--words|--markdown|--searchlight)
            (($# >= 2)) || usage_error "$1 needs a value"
            case "$1" in
                --files) files="$2" ;; --seed) seed="$2" ;; --tree) tree="$2" ;; --runs) runs="$2" ;;
                --words) words="$2" ;; --markdown) markdown="$2" ;; --searchlight) bin="$2" ;;
            esac
            shift 2 ;;
        --with-usr-share) with_usr_share=1; shift ;;
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
    say "building searchlight (swift build -c release)…"
    if ! (cd "$repo" && swift build -c release --product searchlight) >>"$log" 2>&1; then
        tail -n 25 "$log" >&2
        die "the release build failed (full log: $log)"
    fi
    bin="$(cd "$repo" && swift build -c release --show-bin-path)/searchlight"
fi
[[ -x "$bin" ]] || die "no searchlight executable at $bin"
bin="$(realpath "$bin")"

# --- Trees ------------------------------------------------------------------------------------
# Each tree: a label, its root, and its search words. The label goes into the table.
labels=() roots=() tree_words=()
if [[ -n "$tree" ]]; then
    labels+=("tree $(realpath "$tree")")
    roots+=("$(realpath "$tree")")
    tree_words+=("${words:-readme report 2024}")
else
    generated="$work/tree-$files-seed$seed"
    # The stamp records the generator that made the tree, so an outdated tree is remade.
    generator_id="$(sha256sum "$here/make_tree.py" | cut -c1-16)"
    if [[ "$(cat "$generated.done" 2>/dev/null)" != "$generator_id" ]]; then
        rm -rf "$generated" "$generated.done"
        say "generating $files files (seed $seed) in $generated…"
        python3 "$here/make_tree.py" --files "$files" --seed "$seed" "$generated" 2>>"$log" \
            || die "generating the tree failed (log: $log)"
        echo "$generator_id" >"$generated.done"
    else
        say "reusing $generated"
    fi
    labels+=("generated tree, $files files, seed $seed")
    roots+=("$generated")
    tree_words+=("${words:-report resume 2024 xylophone}")
fi
if ((with_usr_share)); then
    labels+=("/usr/share")
    roots+=("/usr/share")
    tree_words+=("${words:-readme copyright icon}")
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

    # The same files searchlight indexes (SPEC §2): regular files, no symlinks, hidden names
    # skipped, same file system only. `file -f` reads one name per line.
    find "$root" -xdev -mindepth 1 \( -name '.*' -prune \) -o -type f -print >"$d/files.txt" 2>>"$log" || true
    count="$(wc -l <"$d/files.txt")"
    ((count > 0)) || die "no files under $root"
    folders="$(find "$root" -xdev -mindepth 1 \( -name '.*' -prune \) -o -type d -print 2>/dev/null | wc -l)"
    bytes="$(du -sb --apparent-size "$root" 2>/dev/null | cut -f1)"

    fresh="$d/fresh.sqlite" index="$d/index.sqlite" db="$d/plocate.db"
    clean_fresh="rm -f $(q "$fresh") $(q "$fresh-wal") $(q "$fresh-shm")"

    say "(a) first scan vs file --mime-type, $runs runs…"
    bench "$d/first-scan" --runs "$runs" --warmup 1 \
        --prepare "$clean_fresh" -n "searchlight scan" "$(q "$bin") scan $(q "$root") --index $(q "$fresh") --no-thumbnails" \
        --prepare "true" -n "file" "file --mime-type -b -f $(q "$d/files.txt")"

    say "(d) peak memory of a first scan, index size…"
    eval "$clean_fresh"
    /usr/bin/time -f %M -o "$d/scan-rss.txt" "$bin" scan "$root" --index "$fresh" --no-thumbnails >"$d/scan.out" 2>&1 \
        || { tail -n 5 "$d/scan.out" >&2; die "searchlight scan failed (output: $d/scan.out)"; }
    /usr/bin/time -f %M -o "$d/file-rss.txt" file --mime-type -b -f "$d/files.txt" >/dev/null 2>&1 || true
    index_bytes=$(( $(stat -c %s "$fresh") + $(stat -c %s "$fresh-wal" 2>/dev/null || echo 0) ))
    items="$("$bin" list --index "$fresh" -0 2>/dev/null | tr -cd '\000' | wc -c)" || items="?"

    say "(b) unchanged rescan vs updatedb.plocate, $runs runs…"
    # The warm-up run makes the index and the plocate database; the timed runs find nothing new.
    rm -f "$index" "$index-wal" "$index-shm" "$db"
    bench "$d/rescan" --runs "$runs" --warmup 1 \
        -n "searchlight scan (unchanged)" "$(q "$bin") scan $(q "$root") --index $(q "$index") --no-thumbnails" \
        -n "updatedb.plocate" "updatedb.plocate -U $(q "$root") -o $(q "$db") --require-visibility no"
    db_bytes="$(stat -c %s "$db")"

    j=0
    for word in ${tree_words[$i]}; do
        say "(c) search '$word' vs plocate -i, $search_runs runs…"
        bench "$d/search-$j" -N --runs "$search_runs" --warmup 3 \
            -n "searchlight search $word" "$(q "$bin") search $(q "$word") --index $(q "$index")" \
            -n "plocate -i $word" "plocate -d $(q "$db") -i $(q "$word")"
        hits="$("$bin" search "$word" --index "$index" --count 2>/dev/null | tr -dc '0-9')" || hits=""
        phits="$(plocate -d "$db" -i -c "$word" 2>/dev/null)" || phits=""
        echo "$word ${hits:-?} ${phits:-?}" >>"$d/search-words.txt"
        j=$((j + 1))
    done

    {
        echo "label=$label"
        echo "root=$root"
        echo "files=$count"
        echo "folders=$folders"
        echo "bytes=$bytes"
        echo "items=$items"
        echo "scan_rss_kb=$(tail -n1 "$d/scan-rss.txt")"
        echo "file_rss_kb=$(tail -n1 "$d/file-rss.txt")"
        echo "index_bytes=$index_bytes"
        echo "plocate_db_bytes=$db_bytes"
    } >"$d/tree.env"
done

say ""
python3 "$here/report.py" "$results" >"$results/table.md"
cat "$results/table.md"
if [[ -n "$markdown" ]]; then
    cp "$results/table.md" "$markdown"
    say "wrote $markdown"
fi
say "raw results: $results"
