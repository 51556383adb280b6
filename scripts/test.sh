#!/usr/bin/env bash
# The whole test suite: the formatting check, then set up, build and run ctest in Release and again
# with the address and undefined-behaviour sanitizers (both replay the fuzz corpus and regressions),
# and clang-tidy over our sources (scripts/check_style.sh). Fuzzing itself is scripts/fuzz.sh: its
# own clang build does not fit CI's 30 minutes beside the two suites.
# Usage: scripts/test.sh [preset ...]   (default: all of the above; naming presets runs only those,
# without the style checks)
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("$@")
all=0
if [ ${#presets[@]} -eq 0 ]; then
    presets=(release asan)
    all=1
fi
jobs=$(nproc 2>/dev/null || echo 2)
start=$SECONDS
stamp() { echo "== [$((SECONDS - start)) s] $*"; }  # elapsed time of each phase in the log
tidy_pid=""
# A failing step ends the script: stop the background clang-tidy with it.
trap 'if [ -n "$tidy_pid" ]; then pkill -TERM -P "$tidy_pid" 2>/dev/null || true; fi' EXIT
if [ "$all" -eq 1 ]; then
    scripts/check_style.sh format  # seconds: a formatting difference fails before any build
fi
for preset in "${presets[@]}"; do
    stamp "set-up and build, preset '$preset'"
    scripts/setup.sh "$preset"
    if [ "$all" -eq 1 ] && [ -z "$tidy_pid" ]; then
        # clang-tidy takes a core for minutes: it runs beside the rest, at low priority, filling
        # the time the builds link and the serial tests leave a core idle.
        mkdir -p build
        nice -n 10 scripts/check_style.sh tidy > build/tidy.log 2>&1 &
        tidy_pid=$!
    fi
    stamp "ctest, preset '$preset'"
    ctest --preset "$preset" -j "$jobs"
done
if [ "$all" -eq 1 ]; then
    stamp "waiting for clang-tidy (started after the first build)"
    status=0
    wait "$tidy_pid" || status=$?
    cat build/tidy.log
    stamp "done"
    exit "$status"
fi
