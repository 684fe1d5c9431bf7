#!/bin/sh
# Runs the randomized watch tests over many seeds, one test process per seed, and counts
# the seeds that pass and fail in each mode.
#
#   Tests/Scripts/random-watch.sh [--skip-build] [--mode live|limited|process|both] [--seeds FIRST-LAST]
#                                 [--rounds N] [--operations N] [--out DIR]
#
# live:    the watcher in the test process, rounds alternating a free and a held consumer, and a
#          self-check after each round that must repair nothing;
# limited: the watcher in the test process with at most 25 inotify watches (the rest rescanned);
# process: `searchlight watch` as a child process, rounds left alone, paused with SIGSTOP/SIGCONT,
#          or killed with SIGKILL and restarted.
# The binaries are copied to the output folder first, so that building while a campaign runs
# does not change it. A failing seed's output is kept in DIR/<mode>-<seed>.log.
set -eu
cd "$(dirname "$0")/../.."
build=1 mode=both seeds=1-300 rounds=5 operations=300 out=.build/random-watch
while [ $# -gt 0 ]; do
    case "$1" in
        --skip-build) build=0 ;;
        --mode) mode="$2"; shift ;;
        --seeds) seeds="$2"; shift ;;
        --rounds) rounds="$2"; shift ;;
        --operations) operations="$2"; shift ;;
        --out) out="$2"; shift ;;
        *) echo "usage: $0 [--skip-build] [--mode live|limited|process|both] [--seeds FIRST-LAST] [--rounds N] [--operations N] [--out DIR]" >&2; exit 2 ;;
    esac
    shift
done
[ "$build" = 1 ] && swift build --build-tests
mkdir -p "$out/bin"
# The watch starts extraction workers (content is on by default): the extractor goes beside it.
cp .build/debug/SearchlightPackageTests.xctest .build/debug/searchlight .build/debug/searchlight-extractor "$out/bin/"
first=${seeds%-*} last=${seeds#*-}
case "$mode" in both) modes="live process" ;; *) modes="$mode" ;; esac
for m in $modes; do
    case "$m" in
        live) filter=liveWatcherMatchesTheDiskAfterEachBurst ;;
        limited) filter=watcherOutOfWatchesMatchesTheDiskAfterEachBurst ;;
        process) filter=watchProcessMatchesTheDiskAcrossPausesAndKills ;;
        *) echo "unknown mode $m" >&2; exit 2 ;;
    esac
    passed=0 failed=0 failures=""
    seed=$first
    while [ "$seed" -le "$last" ]; do
        log="$out/$m-$seed.log"
        if SEARCHLIGHT_RANDOM_SEEDS=$seed SEARCHLIGHT_RANDOM_ROUNDS=$rounds SEARCHLIGHT_RANDOM_OPERATIONS=$operations \
            SEARCHLIGHT_BINARY="$out/bin/searchlight" \
            "$out/bin/SearchlightPackageTests.xctest" --testing-library swift-testing --filter "$filter" >"$log" 2>&1 \
            && grep -q "passed after" "$log"; then
            passed=$((passed + 1)); rm -f "$log"
        else
            failed=$((failed + 1)); failures="$failures $seed"
        fi
        seed=$((seed + 1))
    done
    echo "$m: $passed passed, $failed failed (seeds $seeds, $rounds rounds x $operations operations)${failures:+; failing seeds:$failures}"
done
