#!/usr/bin/env bash
# The whole test suite: set up, build and run ctest in Release, then again with the address and
# undefined-behaviour sanitizers, then a brief, reproducible fuzzing run of each fuzz target.
# Usage: scripts/test.sh [preset ...]   (default: release asan, then fuzzing; naming presets runs
# only those, without fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("$@")
fuzz=0
if [ ${#presets[@]} -eq 0 ]; then
    presets=(release asan)
    fuzz=1
fi
jobs=$(nproc 2>/dev/null || echo 2)
for preset in "${presets[@]}"; do
    scripts/setup.sh "$preset"
    echo "== ctest, preset '$preset'"
    ctest --preset "$preset" -j "$jobs"
done
if [ "$fuzz" -eq 1 ]; then
    scripts/fuzz.sh ci
fi
