#!/usr/bin/env bash
# The whole test suite: the formatting check, then set up, build and run ctest in Release and again
# with the address and undefined-behaviour sanitizers, a brief, reproducible fuzzing run of each
# fuzz target, and clang-tidy over our sources (scripts/check_style.sh).
# Usage: scripts/test.sh [preset ...]   (default: all of the above; naming presets runs only those,
# without the style checks and fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("$@")
all=0
if [ ${#presets[@]} -eq 0 ]; then
    presets=(release asan)
    all=1
fi
jobs=$(nproc 2>/dev/null || echo 2)
if [ "$all" -eq 1 ]; then
    scripts/check_style.sh format  # seconds: a formatting difference fails before any build
fi
for preset in "${presets[@]}"; do
    scripts/setup.sh "$preset"
    echo "== ctest, preset '$preset'"
    ctest --preset "$preset" -j "$jobs"
done
if [ "$all" -eq 1 ]; then
    scripts/fuzz.sh ci
    scripts/check_style.sh tidy
fi
